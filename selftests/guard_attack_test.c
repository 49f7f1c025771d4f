// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard_attack_test.c - the data-safety guard against targets that change
 * under it, data that hides behind another device, and hostile input
 *
 * guard_test.c shows the guard judging a target that holds still.  Here
 * the target moves or hides: a symlink flipped between a blank device and
 * one holding a filesystem while blkqual runs, a path created through a
 * symlink, a file with the same inode number as one on another
 * filesystem, a loop device stacked on another, two loop devices over one
 * image, a loop device whose backing file was deleted, a partition of a
 * mounted disk.  Each case has a victim, a device or file whose bytes must
 * be the same afterwards.  Then the ways to ask for a write that should
 * never get that far: fs destroy of a mounted filesystem, --force-destroy
 * naming nothing, a read-only device, and job files with control bytes,
 * NUL bytes and absurdly long option names.
 *
 * Every loop device is one this test made, over a file in its own temp dir
 * (or over another of its loop devices), with autoclear and one descriptor
 * held, so a crash cannot leak it; every mount is in a private mount
 * namespace of the test process.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/blkpg.h>
#include <linux/loop.h>

#include "kselftest_harness.h"

#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

/* No lazy init: a mounted scratch filesystem stays byte-for-byte still. */
#define MKFS_EXT4 "mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0"
#define MOUNT_OPTS "errors=remount-ro,noinit_itable"

#define MIB (1LL << 20)
#define DEV_SIZE (16 * MIB)
#define FLIP_RUNS 200
/* How often a flipping loop looks at its victim, to stop at the first damage. */
#define FLIP_CHECK_EVERY 25

#define LAB_MAX_UNDO 16

/**
 * struct lab_undo - one thing a test made that teardown must undo
 * @loop: a loop device (else a mount)
 * @done: already undone by the test itself
 * @fd: the descriptor that holds the loop device
 * @path: the loop device, or the mount point
 */
struct lab_undo {
	bool loop;
	bool done;
	int fd;
	char path[300];
};

/**
 * struct lab - a test's temp dir, devices, mounts and symlink flipper
 * @p: how setup went
 * @dir: temp dir (mkdtemp); every file and mount point is in it
 * @undo: loop devices and mounts, undone in reverse order
 * @nr_undo: entries in @undo
 * @flipper: the process flipping a symlink, or 0
 */
struct lab {
	struct prep p;
	char dir[256];
	struct lab_undo undo[LAB_MAX_UNDO];
	int nr_undo;
	pid_t flipper;
};

/**
 * struct region - bytes of a victim that must not change
 * @path: device or file to read them through
 * @off: first byte
 * @len: how many bytes
 */
struct region {
	const char *path;
	off_t off;
	off_t len;
};

/* ---- helpers ------------------------------------------------------------ */

static bool contains(const char *haystack, const char *needle)
{
	return haystack && strstr(haystack, needle);
}

/* "loop7" of "/dev/loop7". */
static const char *kname(const char *dev)
{
	const char *slash = strrchr(dev, '/');

	return slash ? slash + 1 : dev;
}

/**
 * names_dev() - whether a text names a device by its kernel name
 * @text: what blkqual printed
 * @name: "loop7"
 *
 * "loop7" inside "loop71" does not count; "loop7p1" does.
 *
 * Return: true when @name appears as a whole name.
 */
static bool names_dev(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p && (p = strstr(p, name)); p++) {
		bool head = p == text || !((p[-1] >= 'a' && p[-1] <= 'z') ||
					   (p[-1] >= '0' && p[-1] <= '9'));

		if (head && !(p[n] >= '0' && p[n] <= '9'))
			return true;
	}
	return false;
}

/* @s with control bytes shown as \\xNN, for a log line (static buffer). */
static const char *visible(const char *s)
{
	static char buf[2048];
	size_t n = 0;

	for (; s && *s && n + 5 < sizeof(buf); s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			n += snprintf(buf + n, sizeof(buf) - n, "\\x%02x", (unsigned char)*s);
		else
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

/* A refusal: exit 1, one line on stderr, and it says so. */
static bool refused(const struct run_result *r)
{
	return r->status == 1 && count_lines(r->err) == 1 && contains(r->err, "refusing to write");
}

/**
 * sum_regions() - one checksum over several regions
 * @r: the regions, ended by one with a NULL @path
 * @sum: receives the checksum
 *
 * Return: 0 or -errno.
 */
static int sum_regions(const struct region *r, uint64_t *sum)
{
	uint64_t h = 0, one = 0;
	int ret;

	for (; r->path; r++) {
		ret = checksum_region(r->path, r->off, r->len, &one);
		if (ret)
			return ret;
		h = h * 31 + one;
	}
	*sum = h;
	return 0;
}

/**
 * is_mounted() - whether something is mounted at a directory
 * @mnt: the mount point, as given to mount(2)
 *
 * Return: true when /proc/self/mountinfo lists it.
 */
static bool is_mounted(const char *mnt)
{
	char *info = slurp("/proc/self/mountinfo");
	bool found = false;

	for (char *line = info, *next; line && *line && !found; line = next) {
		char point[PATH_MAX];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		found = sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1 && !strcmp(point, mnt);
	}
	free(info);
	return found;
}

/**
 * wait_for_path() - wait for a device node to show up
 * @path: the node (a new partition's)
 * @ms: how long to wait at most, in milliseconds
 *
 * Return: true when it exists.
 */
static bool wait_for_path(const char *path, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		if (!access(path, F_OK))
			return true;
		usleep(10000);
	}
	return !access(path, F_OK);
}

/* Monotonic seconds, to tell a slow machine. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/**
 * write_file() - create a file with given contents
 * @path: the file (must not exist)
 * @data: its bytes
 * @len: how many
 *
 * Return: 0 or -errno.
 */
static int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != (ssize_t)len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* ---- the lab: temp dir, devices, mounts, flipper ------------------------- */

/* Nothing made yet; no descriptor 0 (stdin) to close by mistake. */
static void lab_init(struct lab *l)
{
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < LAB_MAX_UNDO; i++)
		l->undo[i].fd = -1;
}

/**
 * lab_setup() - the temp dir, and for device tests root and a private
 * mount namespace
 * @l: set up with lab_init()
 * @devices: whether the test makes loop devices and mounts
 */
static void lab_setup(struct lab *l, bool devices)
{
	struct prep *p = &l->p;
	const char *tmp = getenv("TMPDIR");

	if (devices) {
		prep_skip(p, need_root());
		if (prep_ok(p) && access("/dev/loop-control", F_OK))
			prep_skip(p, "needs /dev/loop-control (loop driver)");
	}
	if (!prep_ok(p))
		return;
	snprintf(l->dir, sizeof(l->dir), "%s/blkqual-attack.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(l->dir)) {
		prep_fail(p, "mkdtemp", -errno);
		l->dir[0] = '\0';
		return;
	}
	if (!devices)
		return;
	/* Mounts die with this process, however it ends. */
	prep_fail(p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "making / private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
}

/* @buf = "@l->dir/@name". */
static char *lab_path(const struct lab *l, char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", l->dir, name);
	return buf;
}

static struct lab_undo *lab_push(struct lab *l, bool loop, const char *path, int fd)
{
	struct lab_undo *u;

	if (l->nr_undo == LAB_MAX_UNDO)
		return NULL;
	u = &l->undo[l->nr_undo++];
	u->loop = loop;
	u->done = false;
	u->fd = fd;
	snprintf(u->path, sizeof(u->path), "%s", path);
	return u;
}

/**
 * lab_loop() - a loop device over a file or device, held and autoclear
 * @l: the lab; teardown detaches the device
 * @backing: the file or device behind it
 * @flags: LO_FLAGS_READ_ONLY, LO_FLAGS_PARTSCAN, or 0
 * @offset: where in @backing the device starts
 * @dev: receives "/dev/loopN" (64 bytes)
 *
 * What losetup -f does, through LOOP_CTL_GET_FREE and LOOP_CONFIGURE,
 * with autoclear so that the kernel detaches the device when the test's
 * descriptor closes, even if the test is killed.
 *
 * Return: 0 or -errno.
 */
static int lab_loop(struct lab *l, const char *backing, unsigned int flags, uint64_t offset,
		    char *dev)
{
	int fd, ret;

	if (l->nr_undo == LAB_MAX_UNDO)
		return -ENOSPC;
	ret = loop_attach(backing, flags, offset, dev, 64, &fd);
	if (ret)
		return ret;
	lab_push(l, true, dev, fd);
	return 0;
}

/**
 * lab_partition() - partition 1 of a loop device made with LO_FLAGS_PARTSCAN
 * @l: the lab that made @dev
 * @dev: the loop device
 * @start: where the table says the partition starts, in bytes
 * @len: its length in bytes
 * @part: receives "/dev/loopNp1" (80 bytes)
 *
 * A kernel built without the table's parser finds no partitions: then the
 * partition is added as partx -a would, with BLKPG, from what the table
 * says (the caller knows, having written it).
 *
 * Return: 0 or -errno.
 */
static int lab_partition(struct lab *l, const char *dev, long long start, long long len,
			 char *part)
{
	struct blkpg_partition bp = { .start = start, .length = len, .pno = 1 };
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION, .datalen = sizeof(bp), .data = &bp,
	};
	char sys[160];
	int fd = -1;

	snprintf(part, 80, "%sp1", dev);
	snprintf(sys, sizeof(sys), "/sys/class/block/%sp1", kname(dev));
	if (access(sys, F_OK)) {
		for (int i = 0; i < l->nr_undo; i++)
			if (l->undo[i].loop && !strcmp(l->undo[i].path, dev))
				fd = l->undo[i].fd;
		if (fd < 0)
			return -ENOENT;
		if (ioctl(fd, BLKPG, &arg))
			return -errno;
	}
	return wait_for_path(part, 2000) ? 0 : -ENOENT;
}

/**
 * lab_file() - a file in the lab's dir, sparse, its head filled with a byte
 * @l: the lab
 * @name: file name in the lab's dir
 * @size: its size
 * @fill: byte for the first @fill_len bytes
 * @fill_len: how many bytes to fill (0: none, all zero)
 * @path: receives the full path (PATH_MAX bytes)
 *
 * A filled head makes any write there show, even a write of zeros.
 *
 * Return: 0 or -errno.
 */
static int lab_file(struct lab *l, const char *name, off_t size, int fill, off_t fill_len,
		    char *path)
{
	char *buf = NULL;
	int fd, ret = 0;

	lab_path(l, path, PATH_MAX, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, size))
		ret = -errno;
	if (!ret && fill_len) {
		buf = malloc(MIB);
		if (!buf)
			ret = -ENOMEM;
		else
			memset(buf, fill, MIB);
	}
	for (off_t at = 0; !ret && at < fill_len; at += MIB) {
		size_t n = fill_len - at < MIB ? (size_t)(fill_len - at) : MIB;

		if (pwrite(fd, buf, n, at) != (ssize_t)n)
			ret = -EIO;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(buf);
	close(fd);
	return ret;
}

/**
 * lab_dev() - a file and a loop device over it
 * @l: the lab
 * @name: the file's name in the lab's dir
 * @size: its size
 * @fill: byte for the first @fill_len bytes
 * @fill_len: how many bytes to fill (0: a blank device)
 * @dev: receives "/dev/loopN" (64 bytes)
 *
 * Return: 0 or -errno.
 */
static int lab_dev(struct lab *l, const char *name, off_t size, int fill, off_t fill_len,
		   char *dev)
{
	char path[PATH_MAX];
	int ret = lab_file(l, name, size, fill, fill_len, path);

	return ret ? ret : lab_loop(l, path, 0, 0, dev);
}

/**
 * lab_mount() - mount an ext4 at a new directory of the lab
 * @l: the lab; teardown unmounts
 * @dev: the device
 * @name: mount point's name in the lab's dir
 * @mnt: receives the mount point (PATH_MAX bytes)
 *
 * Return: 0 or -errno.
 */
static int lab_mount(struct lab *l, const char *dev, const char *name, char *mnt)
{
	lab_path(l, mnt, PATH_MAX, name);
	if (mkdir(mnt, 0700) && errno != EEXIST)
		return -errno;
	if (l->nr_undo == LAB_MAX_UNDO)
		return -ENOSPC;
	if (mount(dev, mnt, "ext4", 0, MOUNT_OPTS))
		return -errno;
	lab_push(l, false, mnt, -1);
	return 0;
}

/**
 * lab_umount() - unmount now, because the test wants it gone
 * @l: the lab that mounted it
 * @mnt: the mount point
 *
 * Return: 0 (teardown will not try again) or -errno.
 */
static int lab_umount(struct lab *l, const char *mnt)
{
	for (int i = l->nr_undo - 1; i >= 0; i--) {
		struct lab_undo *u = &l->undo[i];

		if (u->loop || u->done || strcmp(u->path, mnt))
			continue;
		if (umount2(mnt, 0))
			return -errno;
		u->done = true;
		return 0;
	}
	return -ENOENT;
}

static int mkfs_ext4(const char *dev)
{
	return run_quiet("%s %s", MKFS_EXT4, dev);
}

/* How the flipper moves its symlink. */
enum flip_mode {
	FLIP_SWAP,	/* the link points at @a, then at @b, and so on (rename) */
	FLIP_BLINK,	/* the link to @a appears and disappears */
};

/**
 * lab_flip_start() - a child process that moves a symlink in a tight loop
 * @l: the lab; teardown stops the child
 * @mode: how it moves
 * @link: the symlink
 * @a: first target
 * @b: second target (FLIP_SWAP only)
 *
 * Return: 0 or -errno.
 */
static int lab_flip_start(struct lab *l, enum flip_mode mode, const char *link, const char *a,
			  const char *b)
{
	pid_t parent = getpid();
	char tmp[PATH_MAX];
	pid_t pid;

	snprintf(tmp, sizeof(tmp), "%s.flip", link);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid) {
		l->flipper = pid;
		return 0;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	/* Hold none of the test's devices: only the test's own descriptor counts. */
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (unsigned long i = 0;; i++) {
		if (mode == FLIP_SWAP) {
			unlink(tmp);
			if (!symlink(i & 1 ? b : a, tmp))
				rename(tmp, link);
		} else if (!symlink(a, link)) {
			unlink(link);
		} else if (errno == EEXIST) {
			/* A file blkqual made: clear the way for the next link. */
			unlink(link);
		}
	}
}

/**
 * lab_flip_stop() - stop the flipper, if one runs
 * @l: the lab
 */
static void lab_flip_stop(struct lab *l)
{
	if (l->flipper <= 0)
		return;
	kill(l->flipper, SIGKILL);
	waitpid(l->flipper, NULL, 0);
	l->flipper = 0;
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/**
 * lab_teardown() - undo whatever the test made, whatever state it is in
 * @l: the lab
 *
 * The flipper first, then mounts and loop devices newest first (a loop
 * device over a file on a mount goes before the mount), then the temp dir.
 */
static void lab_teardown(struct lab *l)
{
	lab_flip_stop(l);
	for (int i = l->nr_undo - 1; i >= 0; i--) {
		struct lab_undo *u = &l->undo[i];

		if (u->done)
			continue;
		if (u->loop) {
			/* Autoclear detaches on the last close; clear it anyway if idle. */
			ioctl(u->fd, LOOP_CLR_FD, 0);
			close(u->fd);
			u->fd = -1;
			continue;
		}
		/* A loop device just let go of a file here may take a moment. */
		for (int tries = 0; tries < 50; tries++) {
			if (!umount2(u->path, 0) || errno == EINVAL || errno == ENOENT)
				break;
			usleep(20000);
		}
		umount2(u->path, MNT_DETACH);
	}
	l->nr_undo = 0;
	/* FTW_MOUNT: never into a mount that is somehow still there. */
	if (l->dir[0])
		nftw(l->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* ---- device tests ---------------------------------------------------------- */

FIXTURE(attack) {
	struct lab l;
};

FIXTURE_SETUP(attack)
{
	lab_init(&self->l);
	lab_setup(&self->l, true);
	if (prep_ok(&self->l.p) && need_program("mkfs.ext4"))
		prep_skip(&self->l.p, need_program("mkfs.ext4"));
}

FIXTURE_TEARDOWN(attack)
{
	lab_teardown(&self->l);
}

/**
 * flip_run() - blkqual run at a symlink that flips between a blank device
 * and one holding ext4
 * @_metadata: the harness's test state
 * @l: the lab
 * @mounted: whether the ext4 is mounted too
 */
static void flip_run(struct __test_metadata *_metadata, struct lab *l, bool mounted)
{
	char b[64], v[64], vfile[PATH_MAX], link[PATH_MAX], target[PATH_MAX + 16], mnt[PATH_MAX];
	struct region victim[3] = { { 0 } };
	int ok = 0, refusals = 0, bad = 0, named = 0, i;
	uint64_t before, after;
	struct run_result r;

	ASSERT_EQ(0, lab_dev(l, "blank.img", DEV_SIZE, 0, 0, b));
	ASSERT_EQ(0, lab_dev(l, "victim.img", DEV_SIZE, 0, 0, v));
	lab_path(l, vfile, sizeof(vfile), "victim.img");
	ASSERT_EQ(0, mkfs_ext4(v));
	if (mounted) {
		ASSERT_EQ(0, lab_mount(l, v, "mnt", mnt)) TH_LOG("mount %s: %s", v, strerror(errno));
	}
	sync();
	/* Through the device, and under it: a write shows in one or both. */
	victim[0] = (struct region){ v, 0, DEV_SIZE };
	victim[1] = (struct region){ vfile, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));

	lab_path(l, link, sizeof(link), "link");
	ASSERT_EQ(0, symlink(b, link));
	snprintf(target, sizeof(target), "--filename=%s", link);
	ASSERT_EQ(0, lab_flip_start(l, FLIP_SWAP, link, b, v));
	for (i = 0; i < FLIP_RUNS; i++) {
		ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", target, "--rw=write", "--bs=4k",
					 "--size=256k", "--direct=1", NULL));
		if (r.status == 0) {
			ok++;
			/* The report names the device it wrote: never the victim. */
			if (names_dev(r.out, kname(v)) && named++ < 2)
				TH_LOG("run %d exited 0 and its report names %s:\n%s", i, v, r.out);
		} else if (refused(&r)) {
			refusals++;
		} else if (bad++ < 3) {
			TH_LOG("run %d: exit %d, stderr: %s", i, r.status, r.err);
		}
		run_result_free(&r);
		if (i % FLIP_CHECK_EVERY == FLIP_CHECK_EVERY - 1) {
			ASSERT_EQ(0, sum_regions(victim, &after));
			if (after != before)
				break;
		}
	}
	lab_flip_stop(l);
	ASSERT_EQ(0, sum_regions(victim, &after));
	TH_LOG("%d runs: %d exited 0, %d refused, %d otherwise", i + (i < FLIP_RUNS), ok,
	       refusals, bad);
	EXPECT_EQ(before, after) TH_LOG("%s was written by run %d or earlier", v, i);
	EXPECT_EQ(0, bad) TH_LOG("a run neither wrote nor was refused");
	EXPECT_EQ(0, named) TH_LOG("%d reports of runs that exited 0 name %s", named, v);
	if (mounted) {
		ASSERT_EQ(0, lab_umount(l, mnt));
		EXPECT_EQ(0, run_quiet("fsck.ext4 -n -f %s", v)) TH_LOG("%s: fsck.ext4 -n", v);
	}
}

TEST_F_TIMEOUT(attack, symlink_flip_run, 120)
{
	PREP_READY(&self->l.p);
	flip_run(_metadata, &self->l, false);
}

TEST_F_TIMEOUT(attack, symlink_flip_run_mounted, 120)
{
	PREP_READY(&self->l.p);
	if (need_program("fsck.ext4"))
		SKIP(return, "%s", need_program("fsck.ext4"));
	flip_run(_metadata, &self->l, true);
}

/* The conformance suite writes too: its open goes through the same guard. */
TEST_F_TIMEOUT(attack, symlink_flip_check, 120)
{
	char b[64], v[64], vfile[PATH_MAX], link[PATH_MAX];
	struct region victim[3] = { { 0 } };
	int runs = FLIP_RUNS, status[3] = { 0 }, bad = 0, i;
	uint64_t before, after;
	struct run_result r;
	double t0;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "blank.img", DEV_SIZE, 0, 0, b));
	ASSERT_EQ(0, lab_dev(&self->l, "victim.img", DEV_SIZE, 0, 0, v));
	lab_path(&self->l, vfile, sizeof(vfile), "victim.img");
	ASSERT_EQ(0, mkfs_ext4(v));
	victim[0] = (struct region){ v, 0, DEV_SIZE };
	victim[1] = (struct region){ vfile, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));

	/* It must be a check that writes, else there is nothing to catch. */
	ASSERT_EQ(0, run_blkqual(&r, "check", "--only", "flush_fua", b, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("flush_fua on the blank device: %s%s", r.out, r.err);
	run_result_free(&r);

	lab_path(&self->l, link, sizeof(link), "link");
	ASSERT_EQ(0, symlink(b, link));
	ASSERT_EQ(0, lab_flip_start(&self->l, FLIP_SWAP, link, b, v));
	t0 = now_s();
	for (i = 0; i < runs; i++) {
		ASSERT_EQ(0, run_blkqual(&r, "check", "--only", "flush_fua", link, NULL));
		if (r.status == 2 && !status[2])
			TH_LOG("check %d: exit 2: %s", i, r.err);
		if (r.status >= 0 && r.status <= 2)
			status[r.status]++;
		else if (bad++ < 3)
			TH_LOG("check %d: exit %d, stderr: %s", i, r.status, r.err);
		run_result_free(&r);
		/* A slow machine: 50 runs still give the race its chances. */
		if (i == 9 && now_s() - t0 > 5.0)
			runs = 50;
		if (i % FLIP_CHECK_EVERY == FLIP_CHECK_EVERY - 1) {
			ASSERT_EQ(0, sum_regions(victim, &after));
			if (after != before)
				break;
		}
	}
	lab_flip_stop(&self->l);
	ASSERT_EQ(0, sum_regions(victim, &after));
	TH_LOG("%d checks: exit 0 %d, exit 1 %d, exit 2 %d, other %d", i + (i < runs), status[0],
	       status[1], status[2], bad);
	EXPECT_EQ(before, after) TH_LOG("%s was written by check %d or earlier", v, i);
	EXPECT_EQ(0, bad);
}

/* A target that does not exist is created: never through a symlink. */
TEST_F_TIMEOUT(attack, create_through_symlink, 120)
{
	char v[64], vfile[PATH_MAX], path[PATH_MAX], target[PATH_MAX + 16];
	struct region victim[3] = { { 0 } };
	int status[3] = { 0 }, bad = 0, i;
	uint64_t before, after;
	struct run_result r;
	struct stat st;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "victim.img", DEV_SIZE, 0, 0, v));
	lab_path(&self->l, vfile, sizeof(vfile), "victim.img");
	ASSERT_EQ(0, mkfs_ext4(v));
	victim[0] = (struct region){ v, 0, DEV_SIZE };
	victim[1] = (struct region){ vfile, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));

	lab_path(&self->l, path, sizeof(path), "new");
	snprintf(target, sizeof(target), "--filename=%s", path);
	ASSERT_EQ(0, lab_flip_start(&self->l, FLIP_BLINK, path, v, NULL));
	for (i = 0; i < FLIP_RUNS; i++) {
		ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", target, "--rw=write", "--bs=4k",
					 "--size=1m", NULL));
		if (r.status >= 0 && r.status <= 2)
			status[r.status]++;
		else if (bad++ < 3)
			TH_LOG("run %d: exit %d, stderr: %s", i, r.status, r.err);
		run_result_free(&r);
		if (!lstat(path, &st) && S_ISREG(st.st_mode))
			unlink(path);
		if (i % FLIP_CHECK_EVERY == FLIP_CHECK_EVERY - 1) {
			ASSERT_EQ(0, sum_regions(victim, &after));
			if (after != before)
				break;
		}
	}
	lab_flip_stop(&self->l);
	ASSERT_EQ(0, sum_regions(victim, &after));
	TH_LOG("%d runs: exit 0 %d, exit 1 %d, exit 2 %d, other %d", i + (i < FLIP_RUNS),
	       status[0], status[1], status[2], bad);
	EXPECT_EQ(before, after) TH_LOG("%s was written by run %d or earlier", v, i);
	EXPECT_EQ(0, bad);
}

/* The same, held still: a symlink already there to the victim, or dangling. */
TEST_F(attack, create_through_symlink_still)
{
	char v[64], vfile[PATH_MAX], path[PATH_MAX], elsewhere[PATH_MAX];
	char target[PATH_MAX + 16];
	struct region victim[3] = { { 0 } };
	uint64_t before, after;
	struct run_result r;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "victim.img", DEV_SIZE, 0, 0, v));
	lab_path(&self->l, vfile, sizeof(vfile), "victim.img");
	ASSERT_EQ(0, mkfs_ext4(v));
	victim[0] = (struct region){ v, 0, DEV_SIZE };
	victim[1] = (struct region){ vfile, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));
	lab_path(&self->l, path, sizeof(path), "new");
	lab_path(&self->l, elsewhere, sizeof(elsewhere), "elsewhere");
	snprintf(target, sizeof(target), "--filename=%s", path);

	ASSERT_EQ(0, symlink(v, path));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", target, "--rw=write", "--bs=4k",
				 "--size=1m", NULL));
	EXPECT_TRUE(r.status == 1 || r.status == 2) TH_LOG("to %s: exit %d", v, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, unlink(path));

	/* Creating the file would create it somewhere the user did not name. */
	ASSERT_EQ(0, symlink(elsewhere, path));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", target, "--rw=write", "--bs=4k",
				 "--size=1m", NULL));
	EXPECT_TRUE(r.status == 1 || r.status == 2)
		TH_LOG("dangling to %s: exit %d, stdout: %.300s", elsewhere, r.status, r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_NE(0, access(elsewhere, F_OK)) TH_LOG("%s was created through the link", elsewhere);
	run_result_free(&r);

	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s was written", v);
}

/*
 * Two files with the same inode number on two filesystems are two files;
 * the one that backs a loop device must be guarded even after the other
 * was found safe.
 */
TEST_F(attack, same_inode_two_fs)
{
	char d1[64], d2[64], ld[64], m1[PATH_MAX], m2[PATH_MAX], m3[PATH_MAX];
	char f1[PATH_MAX + 8], f2[PATH_MAX + 8], job[PATH_MAX], text[3 * PATH_MAX];
	struct region victim[2] = { { 0 } };
	uint64_t before, after;
	struct stat s1, s2;
	struct run_result r;
	int fd;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "fs1.img", 64 * MIB, 0, 0, d1));
	ASSERT_EQ(0, lab_dev(&self->l, "fs2.img", 64 * MIB, 0, 0, d2));
	ASSERT_EQ(0, mkfs_ext4(d1));
	ASSERT_EQ(0, mkfs_ext4(d2));
	ASSERT_EQ(0, lab_mount(&self->l, d1, "m1", m1)) TH_LOG("mount: %s", strerror(errno));
	ASSERT_EQ(0, lab_mount(&self->l, d2, "m2", m2)) TH_LOG("mount: %s", strerror(errno));
	snprintf(f1, sizeof(f1), "%s/f", m1);
	snprintf(f2, sizeof(f2), "%s/f", m2);
	for (int i = 0; i < 2; i++) {
		fd = open(i ? f2 : f1, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ftruncate(fd, DEV_SIZE));
		close(fd);
	}
	ASSERT_EQ(0, stat(f1, &s1));
	ASSERT_EQ(0, stat(f2, &s2));
	ASSERT_NE(s1.st_dev, s2.st_dev);
	if (s1.st_ino != s2.st_ino)
		SKIP(return, "the two files got inodes %llu and %llu", (unsigned long long)s1.st_ino,
		     (unsigned long long)s2.st_ino);

	ASSERT_EQ(0, lab_loop(&self->l, f1, 0, 0, ld));
	ASSERT_EQ(0, mkfs_ext4(ld));
	ASSERT_EQ(0, lab_mount(&self->l, ld, "m3", m3)) TH_LOG("mount: %s", strerror(errno));
	sync();
	victim[0] = (struct region){ f1, 0, MIB };
	ASSERT_EQ(0, sum_regions(victim, &before));

	lab_path(&self->l, job, sizeof(job), "two.fio");
	snprintf(text, sizeof(text),
		 "[a]\nfilename=%s\nrw=write\nbs=4k\nsize=1m\n\n"
		 "[b]\nfilename=%s\nrw=write\nbs=4k\nsize=1m\n", f2, f1);
	ASSERT_EQ(0, write_file(job, text, strlen(text)));
	ASSERT_EQ(0, run_blkqual(&r, "run", job, NULL));
	EXPECT_TRUE(refused(&r)) TH_LOG("exit %d, stderr: %s", r.status, r.err);
	EXPECT_TRUE(names_dev(r.err, kname(ld))) TH_LOG("%s not named: %s", ld, r.err);
	run_result_free(&r);

	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s (backing %s) was written", f1, ld);
}

/*
 * A loop device B over loop device A, from 1 MiB on: A backs B, so writing
 * A is writing B, mounted or not, and no flag overrides that.
 */
static void stacked_refused(struct __test_metadata *_metadata, const char *a, const char *b)
{
	char fname[128], force[128];
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "guard", a, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("guard %s: stdout: %s", a, r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(names_dev(r.err, kname(b))) TH_LOG("%s not named: %s", b, r.err);
	run_result_free(&r);

	snprintf(fname, sizeof(fname), "--filename=%s", a);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", fname, "--rw=write", "--offset=1m",
				 "--size=1m", "--bs=4k", NULL));
	EXPECT_TRUE(refused(&r)) TH_LOG("exit %d, stderr: %s", r.status, r.err);
	run_result_free(&r);

	snprintf(force, sizeof(force), "--force-destroy=%s", a);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", fname, "--rw=write", "--offset=1m",
				 "--size=1m", "--bs=4k", force, NULL));
	EXPECT_TRUE(refused(&r)) TH_LOG("forced: exit %d, stderr: %s", r.status, r.err);
	run_result_free(&r);
}

TEST_F(attack, stacked_loop)
{
	char a[64], b[64], afile[PATH_MAX], mnt[PATH_MAX];
	struct region victim[3] = { { 0 } };
	uint64_t before, after;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "a.img", 64 * MIB, 0, 0, a));
	lab_path(&self->l, afile, sizeof(afile), "a.img");
	ASSERT_EQ(0, lab_loop(&self->l, a, 0, MIB, b));
	ASSERT_EQ(0, mkfs_ext4(b));
	ASSERT_EQ(0, lab_mount(&self->l, b, "mnt", mnt)) TH_LOG("mount: %s", strerror(errno));
	sync();
	/* B's first MiB, read through A (where a write would go) and its file. */
	victim[0] = (struct region){ a, MIB, MIB };
	victim[1] = (struct region){ afile, MIB, MIB };
	ASSERT_EQ(0, sum_regions(victim, &before));
	stacked_refused(_metadata, a, b);
	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s (inside %s) was written while mounted", b, a);

	/* Unmounted, B still holds ext4 and A still backs it. */
	ASSERT_EQ(0, lab_umount(&self->l, mnt));
	ASSERT_EQ(0, mkfs_ext4(b));
	sync();
	ASSERT_EQ(0, sum_regions(victim, &before));
	stacked_refused(_metadata, a, b);
	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s (inside %s) was written", b, a);
}

/* Two loop devices over one image: writing one is writing the mounted other. */
TEST_F(attack, two_loops_one_image)
{
	char x[64], y[64], img[PATH_MAX], mnt[PATH_MAX], fname[128], force[128];
	struct region victim[3] = { { 0 } };
	uint64_t before, after;
	struct run_result r;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_file(&self->l, "image.img", 32 * MIB, 0, 0, img));
	ASSERT_EQ(0, mkfs_ext4(img));
	ASSERT_EQ(0, lab_loop(&self->l, img, 0, 0, x));
	ASSERT_EQ(0, lab_loop(&self->l, img, 0, 0, y));
	ASSERT_EQ(0, lab_mount(&self->l, y, "mnt", mnt)) TH_LOG("mount: %s", strerror(errno));
	sync();
	victim[0] = (struct region){ x, 0, MIB };
	victim[1] = (struct region){ img, 0, MIB };
	ASSERT_EQ(0, sum_regions(victim, &before));

	ASSERT_EQ(0, run_blkqual(&r, "guard", x, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(names_dev(r.err, kname(y))) TH_LOG("%s not named: %s", y, r.err);
	run_result_free(&r);

	snprintf(fname, sizeof(fname), "--filename=%s", x);
	snprintf(force, sizeof(force), "--force-destroy=%s", x);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", fname, force, "--rw=write", "--bs=4k",
				 "--size=1m", NULL));
	EXPECT_TRUE(refused(&r)) TH_LOG("exit %d, stderr: %s", r.status, r.err);
	EXPECT_TRUE(names_dev(r.err, kname(y))) TH_LOG("%s not named: %s", y, r.err);
	run_result_free(&r);

	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("the image under %s and %s was written", x, y);
}

/* sysfs says "F (deleted)": the loop device still writes the inode H names. */
TEST_F(attack, deleted_backing_file)
{
	char l[64], f[PATH_MAX], h[PATH_MAX], attr[128], force[PATH_MAX + 32];
	char fname[PATH_MAX + 32];
	struct region victim[2] = { { 0 } };
	uint64_t before, after;
	struct run_result r;
	char *backing;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_file(&self->l, "f.img", DEV_SIZE, 0x5a, 2 * MIB, f));
	ASSERT_EQ(0, lab_loop(&self->l, f, 0, 0, l));
	lab_path(&self->l, h, sizeof(h), "hardlink.img");
	ASSERT_EQ(0, link(f, h));
	ASSERT_EQ(0, unlink(f));
	snprintf(attr, sizeof(attr), "/sys/block/%s/loop/backing_file", kname(l));
	backing = slurp(attr);
	ASSERT_NE(NULL, backing);
	EXPECT_TRUE(contains(backing, "(deleted)")) TH_LOG("%s: %s", attr, backing);
	free(backing);
	victim[0] = (struct region){ h, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));

	ASSERT_EQ(0, run_blkqual(&r, "guard", h, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("stdout: %s", r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(names_dev(r.err, kname(l))) TH_LOG("%s not named: %s", l, r.err);
	run_result_free(&r);

	snprintf(fname, sizeof(fname), "--filename=%s", h);
	snprintf(force, sizeof(force), "--force-destroy=%s", h);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", fname, "--rw=write", "--bs=4k",
				 "--size=1m", force, NULL));
	EXPECT_TRUE(refused(&r)) TH_LOG("exit %d, stderr: %s", r.status, r.err);
	run_result_free(&r);

	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s (backing %s) was written", h, l);
}

/*
 * fs destroy --force-destroy=@dev @dev is refused in one line, the
 * filesystem at @mnt stays mounted and @victim's checksum stays @before.
 */
static void fs_destroy_refused(struct __test_metadata *_metadata, const char *dev,
			       const char *mnt, const struct region *victim, uint64_t before)
{
	struct run_result r;
	char force[128];
	uint64_t after;

	snprintf(force, sizeof(force), "--force-destroy=%s", dev);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "destroy", force, dev, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("stdout: %s", r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	EXPECT_TRUE(is_mounted(mnt)) TH_LOG("%s was unmounted", mnt);
	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("%s was written", dev);
}

/* fs destroy may wipe what blkqual made, or what is named; never a mounted one. */
TEST_F(attack, fs_destroy_foreign_mounted)
{
	char v[64], vfile[PATH_MAX], mnt[PATH_MAX];
	struct region victim[3] = { { 0 } };
	uint64_t before;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "v.img", DEV_SIZE, 0, 0, v));
	lab_path(&self->l, vfile, sizeof(vfile), "v.img");
	ASSERT_EQ(0, mkfs_ext4(v));
	ASSERT_EQ(0, lab_mount(&self->l, v, "mnt", mnt)) TH_LOG("mount: %s", strerror(errno));
	sync();
	victim[0] = (struct region){ v, 0, MIB };
	victim[1] = (struct region){ vfile, 0, MIB };
	ASSERT_EQ(0, sum_regions(victim, &before));

	fs_destroy_refused(_metadata, v, mnt, victim, before);
}

/* A partition of the named disk is mounted: the disk's table is not fair game. */
TEST_F(attack, fs_destroy_foreign_mounted_partition)
{
	char p[64], p1[80], pfile[PATH_MAX], mnt[PATH_MAX];
	struct region victim[5] = { { 0 } };
	const off_t size = 32 * MIB;
	uint64_t before;

	PREP_READY(&self->l.p);
	if (need_program("sfdisk"))
		SKIP(return, "%s", need_program("sfdisk"));
	ASSERT_EQ(0, lab_file(&self->l, "p.img", size, 0, 0, pfile));
	ASSERT_EQ(0, run_quiet("printf 'label: gpt\\n,16M\\n' | sfdisk -q %s", pfile));
	ASSERT_EQ(0, lab_loop(&self->l, pfile, LO_FLAGS_PARTSCAN, 0, p));
	ASSERT_EQ(0, lab_partition(&self->l, p, MIB, 16 * MIB, p1)) TH_LOG("%sp1", p);
	ASSERT_EQ(0, mkfs_ext4(p1));
	ASSERT_EQ(0, lab_mount(&self->l, p1, "mnt", mnt)) TH_LOG("mount: %s", strerror(errno));
	sync();
	victim[0] = (struct region){ p, 0, MIB };
	victim[1] = (struct region){ p, size - MIB, MIB };
	victim[2] = (struct region){ pfile, 0, MIB };
	victim[3] = (struct region){ pfile, size - MIB, MIB };
	ASSERT_EQ(0, sum_regions(victim, &before));

	fs_destroy_refused(_metadata, p, mnt, victim, before);
}

/* A read-only device is not written, and saying so is a refusal, not bad input. */
TEST_F(attack, read_only_target)
{
	char ro[64], file[PATH_MAX], fname[128];
	struct run_result r;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_file(&self->l, "ro.img", DEV_SIZE, 0, 0, file));
	ASSERT_EQ(0, lab_loop(&self->l, file, LO_FLAGS_READ_ONLY, 0, ro));

	ASSERT_EQ(0, run_blkqual(&r, "guard", ro, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "read-only")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);

	snprintf(fname, sizeof(fname), "--filename=%s", ro);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", fname, "--rw=write", "--bs=4k",
				 "--size=1m", NULL));
	EXPECT_EQ(1, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "read-only")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
}

/* Two names of one device are one target: the run's own hold is no stranger's. */
TEST_F(attack, one_device_two_names)
{
	char d[64], node[PATH_MAX], f1[128], f2[PATH_MAX + 16];
	struct run_result r;
	struct stat st;

	PREP_READY(&self->l.p);
	ASSERT_EQ(0, lab_dev(&self->l, "d.img", DEV_SIZE, 0, 0, d));
	ASSERT_EQ(0, stat(d, &st));
	lab_path(&self->l, node, sizeof(node), "node");
	ASSERT_EQ(0, mknod(node, S_IFBLK | 0600, st.st_rdev)) TH_LOG("mknod: %s", strerror(errno));
	snprintf(f1, sizeof(f1), "--filename=%s", d);
	snprintf(f2, sizeof(f2), "--filename=%s", node);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=a", f1, "--rw=write", "--bs=4k", "--size=1m",
				 "--name=b", f2, "--rw=write", "--bs=4k", "--size=1m", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_FALSE(contains(r.err, "exclusively")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
}

/* The disk is mounted: its partition is in use, and that is what to say. */
TEST_F(attack, partition_in_mounted_disk)
{
	char w[64], w1[80], file[PATH_MAX], mnt[PATH_MAX];
	const char *blkid[] = { "blkid", "-p", "-s", "TYPE", "-o", "value", NULL, NULL };
	struct run_result r;

	PREP_READY(&self->l.p);
	if (need_program("sfdisk"))
		SKIP(return, "%s", need_program("sfdisk"));
	if (need_program("blkid"))
		SKIP(return, "%s", need_program("blkid"));
	ASSERT_EQ(0, lab_file(&self->l, "w.img", 64 * MIB, 0, 0, file));
	ASSERT_EQ(0, mkfs_ext4(file));
	ASSERT_EQ(0, run_quiet("printf 'label: dos\\n2048,8192\\n' | sfdisk -q --wipe never %s",
			       file));
	blkid[6] = file;
	ASSERT_EQ(0, run_argv(blkid, &r));
	if (!contains(r.out, "ext4")) {
		TH_LOG("blkid -p: exit %d: %s%s", r.status, r.out, r.err);
		run_result_free(&r);
		SKIP(return, "blkid no longer sees ext4 beside the MBR");
	}
	run_result_free(&r);
	ASSERT_EQ(0, lab_loop(&self->l, file, LO_FLAGS_PARTSCAN, 0, w));
	ASSERT_EQ(0, lab_partition(&self->l, w, 2048 * 512LL, 8192 * 512LL, w1)) TH_LOG("%sp1", w);
	ASSERT_EQ(0, lab_mount(&self->l, w, "mnt", mnt)) TH_LOG("mount: %s", strerror(errno));

	ASSERT_EQ(0, run_blkqual(&r, "guard", w1, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("stdout: %s", r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "mounted")) TH_LOG("stderr: %s", r.err);
	EXPECT_FALSE(contains(r.err, "exclusively")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
}

/* ---- --force-destroy that names nothing: every writing command ----------- */

FIXTURE(force) {
	struct lab l;
};

/**
 * struct _fixture_variant_force - one writing command
 * @argv: its arguments after "blkqual"; "T" is the target, "T2" a second
 *        target, "F" the --force-destroy option; NULL-terminated
 * @timeout: seconds it may take before it counts as having started work
 */
FIXTURE_VARIANT(force) {
	const char *argv[16];
	int timeout;
};

FIXTURE_VARIANT_ADD(force, run) {
	.argv = { "run", "--name=x", "--filename=T", "--rw=write", "--bs=4k", "--size=256k", "F",
		  NULL },
	.timeout = 20,
};

FIXTURE_VARIANT_ADD(force, latency) {
	.argv = { "latency", "-WWW", "-c", "1", "F", "T", NULL },
	.timeout = 20,
};

FIXTURE_VARIANT_ADD(force, stripe_tune) {
	.argv = { "stripe-tune", "T,T2", "--chunks", "64k", "--rw=write", "--bs=4k",
		  "--io_size=256k", "F", NULL },
	.timeout = 20,
};

FIXTURE_VARIANT_ADD(force, guard) {
	.argv = { "guard", "F", "T", NULL },
	.timeout = 20,
};

FIXTURE_VARIANT_ADD(force, check) {
	.argv = { "check", "--only", "flush_fua", "F", "T", NULL },
	.timeout = 20,
};

/* Left alone it runs for a minute: a few seconds tell whether it started. */
FIXTURE_VARIANT_ADD(force, qualify) {
	.argv = { "qualify", "--profile", "quick", "--no-status", "--state", "S", "F", "T",
		  NULL },
	.timeout = 4,
};

FIXTURE_VARIANT_ADD(force, fs_destroy) {
	.argv = { "fs", "destroy", "F", "T", NULL },
	.timeout = 20,
};

FIXTURE_SETUP(force)
{
	lab_init(&self->l);
	lab_setup(&self->l, true);
	if (prep_ok(&self->l.p) && need_program("timeout"))
		prep_skip(&self->l.p, need_program("timeout"));
}

FIXTURE_TEARDOWN(force)
{
	lab_teardown(&self->l);
}

/**
 * run_force() - the variant's command with a given --force-destroy value
 * @v: the variant
 * @t: the target
 * @t2: the second target
 * @state: a state file path (qualify)
 * @force: the --force-destroy value
 * @res: what it did
 *
 * Return: as run_argv().
 */
static int run_force(const FIXTURE_VARIANT(force) *v, const char *t, const char *t2,
		     const char *state, const char *force, struct run_result *res)
{
	char secs[16], opt[PATH_MAX + 32], fname[128], pair[160];
	const char *argv[32];
	int n = 0;

	snprintf(secs, sizeof(secs), "%d", v->timeout);
	snprintf(opt, sizeof(opt), "--force-destroy=%s", force);
	snprintf(fname, sizeof(fname), "--filename=%s", t);
	snprintf(pair, sizeof(pair), "%s,%s", t, t2);
	/* TERM first: blkqual stops cleanly; KILL only if it does not. */
	argv[n++] = "timeout";
	argv[n++] = "-k";
	argv[n++] = "10";
	argv[n++] = secs;
	argv[n++] = blkqual_path();
	for (int i = 0; v->argv[i]; i++) {
		const char *a = v->argv[i];

		argv[n++] = !strcmp(a, "T") ? t : !strcmp(a, "T2") ? t2 : !strcmp(a, "F") ? opt :
			    !strcmp(a, "S") ? state : !strcmp(a, "--filename=T") ? fname :
			    !strcmp(a, "T,T2") ? pair : a;
	}
	argv[n] = NULL;
	return run_argv(argv, res);
}

TEST_F_TIMEOUT(force, names_nothing, 60)
{
	char t[64], t2[64], other[64], missing[PATH_MAX], state[PATH_MAX];
	struct region victim[3] = { { 0 } };
	uint64_t before, after;
	struct run_result r;

	PREP_READY(&self->l.p);
	/* Filled, not zero: a write of zeros would show too.  No signature. */
	ASSERT_EQ(0, lab_dev(&self->l, "t.img", DEV_SIZE, 0x5a, DEV_SIZE, t));
	ASSERT_EQ(0, lab_dev(&self->l, "t2.img", DEV_SIZE, 0x5a, DEV_SIZE, t2));
	ASSERT_EQ(0, lab_dev(&self->l, "other.img", DEV_SIZE, 0, 0, other));
	lab_path(&self->l, missing, sizeof(missing), "no-such-device");
	lab_path(&self->l, state, sizeof(state), "qualify.state");
	victim[0] = (struct region){ t, 0, DEV_SIZE };
	victim[1] = (struct region){ t2, 0, DEV_SIZE };
	ASSERT_EQ(0, sum_regions(victim, &before));

	ASSERT_EQ(0, run_blkqual(&r, "guard", t, t2, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("the targets should be safe to write: %s", r.err);
	run_result_free(&r);

	ASSERT_EQ(0, run_force(variant, t, t2, state, missing, &r));
	EXPECT_EQ(2, r.status) TH_LOG("naming %s: stdout: %.400s", missing, r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "--force-destroy")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("a target was written despite --force-destroy=%s", missing);

	ASSERT_EQ(0, run_force(variant, t, t2, state, other, &r));
	EXPECT_EQ(2, r.status) TH_LOG("naming %s: stdout: %.400s", other, r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "--force-destroy")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, sum_regions(victim, &after));
	EXPECT_EQ(before, after) TH_LOG("a target was written despite --force-destroy=%s", other);
}

/* ---- hostile input: no root needed ------------------------------------- */

FIXTURE(input) {
	struct lab l;
};

FIXTURE_SETUP(input)
{
	lab_init(&self->l);
	lab_setup(&self->l, false);
}

FIXTURE_TEARDOWN(input)
{
	lab_teardown(&self->l);
}

/* A terminal must not get escape sequences from a job file. */
TEST_F(input, job_file_control_bytes)
{
	char job[PATH_MAX], text[PATH_MAX + 128];
	struct run_result r;
	size_t len;

	PREP_READY(&self->l.p);
	lab_path(&self->l, job, sizeof(job), "ctl.fio");
	snprintf(text, sizeof(text),
		 "[x]\nfilename=%s/nowhere/\x1b[2J\x1b]0;owned\x07name\nrw=write\nbs=4k\nsize=1m\n",
		 self->l.dir);
	ASSERT_EQ(0, write_file(job, text, strlen(text)));
	ASSERT_EQ(0, run_blkqual(&r, "run", job, NULL));
	EXPECT_TRUE(r.status == 1 || r.status == 2) TH_LOG("exit %d", r.status);
	len = strlen(r.err);
	EXPECT_LT(0, len);
	for (size_t i = 0; i < len; i++) {
		if (i + 1 == len && r.err[i] == '\n')
			break;
		if ((unsigned char)r.err[i] < 0x20) {
			EXPECT_LE(0x20, (unsigned char)r.err[i])
				TH_LOG("byte 0x%02x at %zu of stderr: %s", (unsigned char)r.err[i],
				       i, visible(r.err));
			break;
		}
	}
	run_result_free(&r);
}

/* An option name as long as a paragraph gets a line, not a paragraph. */
TEST_F(input, long_option_name)
{
	char arg[520];
	const char *unknown, *name;
	struct run_result r;

	PREP_READY(&self->l.p);
	arg[0] = '-';
	arg[1] = '-';
	for (int i = 0; i < 500; i++)
		arg[2 + i] = "qwertyuiop"[i % 10];
	strcpy(arg + 502, "=1");
	ASSERT_EQ(0, run_blkqual(&r, "run", arg, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_GT(300, strlen(r.err)) TH_LOG("%zu bytes: %s", strlen(r.err), r.err);
	unknown = strstr(r.err, "unknown");
	name = strstr(r.err, "qwertyuiop");
	EXPECT_NE(NULL, unknown) TH_LOG("stderr: %.300s", r.err);
	/* Cut short, the line must still say what is wrong. */
	EXPECT_TRUE(unknown && (!name || unknown < name)) TH_LOG("stderr: %.300s", r.err);
	run_result_free(&r);
}

/* "a\0b" is not "a": the file named up to the NUL must not be written. */
TEST_F(input, nul_in_filename)
{
	char job[PATH_MAX], a[PATH_MAX], text[PATH_MAX + 64];
	struct run_result r;
	int n;

	PREP_READY(&self->l.p);
	lab_path(&self->l, job, sizeof(job), "nul.fio");
	lab_path(&self->l, a, sizeof(a), "a");
	n = snprintf(text, sizeof(text), "[x]\nfilename=%s", a);
	text[n++] = '\0';
	n += snprintf(text + n, sizeof(text) - n, "b\nrw=write\nbs=4k\nsize=1m\n");
	ASSERT_EQ(0, write_file(job, text, (size_t)n));
	ASSERT_EQ(0, run_blkqual(&r, "run", job, NULL));
	EXPECT_EQ(2, r.status) TH_LOG("stdout: %.300s", r.out);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("stderr: %s", r.err);
	EXPECT_TRUE(contains(r.err, "NUL")) TH_LOG("stderr: %s", r.err);
	EXPECT_NE(0, access(a, F_OK)) TH_LOG("%s was created", a);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
