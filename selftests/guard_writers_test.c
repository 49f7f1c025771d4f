// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard_writers_test.c - every command that writes refuses protected data,
 * whichever way the target is reached
 *
 * One table, two axes.  The commands: run (plain and with verify=),
 * check, qualify, latency -WWW, stripe-tune, raid create, fs create and
 * fs destroy.  The targets, each an ext4 that mkfs.ext4 made on a loop
 * device of this test's own: that device unmounted, mounted, through a
 * symlink, a second loop device stacked on it (the data below it is the
 * ext4's) and the ext4's device while such a stacked one exists; then
 * again with --force-destroy naming the target, which must not lift a
 * mount or a stacked device, but may let the plain ext4 be overwritten.
 *
 * A refusal is exit status 1 and one line on stderr that says "refusing
 * to write" (and, for a stacked device, names the other loop device); a
 * command that stops earlier for a reason of its own (raid create without
 * md, fs destroy of a filesystem it did not make) may say something else
 * in its one line.  Either way the first 4 MiB of the ext4 are as they
 * were.  (blkqual verify only reads: it has no row.  A trim is a write:
 * run with rw=trim has the rows of run.)
 *
 * The tree workloads (fileio, files, replay) take a directory: a symlink
 * planted where they make their own files, pointing at the ext4's device
 * or at a file outside the tree, must never be written through.
 *
 * Every mount, any a command makes included, is in the test's own mount
 * namespace; every loop device is one this test made, with autoclear,
 * over a file in its own temp dir (or over that device), so none outlives
 * the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/loop.h>

#include "kselftest_harness.h"

#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

/* Small: mkfs and every refusal are quick, and nothing here needs XFS. */
#define VICTIM_SIZE (64LL << 20)
/* What must be byte-identical afterwards: the superblocks and more. */
#define HEAD_SIZE (4 << 20)
/* No lazy init: a mounted ext4 must not write its inode tables later. */
#define EXT4_CMD "mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0"
#define MAX_ARGS 24
/*
 * A refusal takes well under a second, and a row the guard lets through
 * about one; but a qualify that went ahead would go on for a minute.
 * Each command gets this long, then SIGINT (which it answers by stopping).
 */
#define BOUND "10"
static const char *const bounded[] = { "timeout", "-k", "5", "-s", "INT", BOUND };

/*
 * The replay's loadfile: open-or-create a file of client 0 and write its
 * first 64 KiB.  Nothing deletes the tree first, so a planted name stays.
 */
static const char loadfile[] =
	"NTCreateX \"\\clients\\client1\\f.dat\" 0x40 0x3 100 NT_STATUS_OK\n"
	"WriteX 100 0 65536 65536 NT_STATUS_OK\n"
	"Close 100 NT_STATUS_OK\n";

/**
 * enum kind - how the target reaches the ext4
 * @PLAIN: its loop device, unmounted
 * @MOUNTED: its loop device, mounted
 * @LINK: a symlink in the temp dir to its loop device
 * @STACK_TOP: a loop device stacked on its loop device
 * @STACK_BELOW: its loop device, with another stacked on it
 * @TREE_DEV: a directory; a symlink in it points at the ext4's device
 * @TREE_FILE: a directory; a symlink in it points at a file outside it
 */
enum kind {
	PLAIN,
	MOUNTED,
	LINK,
	STACK_TOP,
	STACK_BELOW,
	TREE_DEV,
	TREE_FILE,
};

/* A second, blank device, @O in the arguments. */
#define NEED_OTHER	(1u << 0)
/* The command may stop for a reason of its own before the guard looks. */
#define OWN_CHECKS	(1u << 1)
/* Skipped where md could really make an array of the test's devices. */
#define NO_MD		(1u << 2)
/* The replay's loadfile, as @D/load.txt. */
#define LOADFILE	(1u << 3)

/**
 * struct loop_stack - a loop device whose backing store is another one
 * @dev: "/dev/loopN", empty until attached
 * @hold_fd: our descriptor; autoclear detaches the device when it closes
 */
struct loop_stack {
	char dev[64];
	int hold_fd;
};

/* ---- helpers ------------------------------------------------------------ */

/**
 * stack_attach() - bind a free loop device to another block device
 * @st: receives the device; stack_destroy() undoes it
 * @below: the block device underneath
 *
 * What "losetup -f --show @below" does, with autoclear and our descriptor
 * kept open, as scratch_attach() does for a file.
 *
 * Return: 0 or -errno.
 */
static int stack_attach(struct loop_stack *st, const char *below)
{
	return loop_attach(below, 0, 0, st->dev, sizeof(st->dev), &st->hold_fd);
}

static void stack_destroy(struct loop_stack *st)
{
	if (st->hold_fd < 0)
		return;
	ioctl(st->hold_fd, LOOP_CLR_FD, 0);
	close(st->hold_fd);
	st->hold_fd = -1;
}

static int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -EIO;
	close(fd);
	return ret;
}

/**
 * read_head() - the first bytes of a device or file, through the page cache
 * @path: what to read
 * @buf: HEAD_SIZE bytes
 * @got: receives how many were read (less for a shorter file)
 *
 * Buffered on purpose: a write a command left in the cache of the device
 * (or of a loop device stacked on it) is seen as it would be by the next
 * reader.
 *
 * Return: 0 or -errno.
 */
static int read_head(const char *path, unsigned char *buf, size_t *got)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = 0;

	*got = 0;
	if (fd < 0)
		return -errno;
	while (*got < HEAD_SIZE) {
		ssize_t n = read(fd, buf + *got, HEAD_SIZE - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		*got += (size_t)n;
	}
	close(fd);
	return ret;
}

/* mkdir -p of the directories in @rel below @top (not its last part). */
static int make_parents(const char *top, const char *rel)
{
	char path[PATH_MAX];
	size_t n = strlen(top);

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", top, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + n + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static const char *keep_name;

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (!ftw->level || (ftw->level == 1 && !strcmp(path + ftw->base, keep_name)))
		return 0;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/*
 * Everything below @dir but its entry @keep: what setup made and whatever
 * a command left.  Never follows a symlink, never enters another mount.
 */
static void remove_below(const char *dir, const char *keep)
{
	keep_name = keep;
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* NULL when md cannot make an array here, else why the row is skipped. */
static const char *md_absent(void)
{
	if (!access("/proc/mdstat", F_OK) || !run_quiet("modprobe -n -q md_mod"))
		return "md is available here: raid create would make arrays (see the vm tests)";
	return NULL;
}

static bool contains(const char *haystack, const char *needle)
{
	return haystack && strstr(haystack, needle);
}

/* Whether @s names device @name ("loop1"), and not only "loop10". */
static bool names_device(const char *s, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = s; p && (p = strstr(p, name)); p++)
		if (p[n] < '0' || p[n] > '9')
			return true;
	return false;
}

/* @s on one line, for a log: newlines shown as " | ". */
static const char *one_line(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 4 < len; s++) {
		if (*s != '\n') {
			buf[n++] = *s;
		} else if (s[1]) {
			memcpy(buf + n, " | ", 3);
			n += 3;
		}
	}
	buf[n] = '\0';
	return n ? buf : "(nothing)";
}

/* ---- the table ---------------------------------------------------------- */

FIXTURE(writers) {
	struct prep p;
	struct scratch v;		/* the ext4: the data to protect */
	struct scratch o;		/* a blank second member, @O */
	struct loop_stack s;		/* a loop device over v's */
	char target[320];		/* @T */
	char victim[320];		/* what must not change */
	char work[320];			/* the working directory, @W */
	char mnt[320];
	bool mounted;
	unsigned char *before;
	size_t before_len;
	off_t before_size;
	uint64_t before_sum;
};

/**
 * struct _fixture_variant_writers - one command against one kind of target
 * @args: the command line; @T is the target, @O the blank second device,
 *	@D the temp dir, @W the working directory (the tree for a tree
 *	workload), and an argument "@F" becomes --force-destroy=TARGET when
 *	@forced, else nothing
 * @kind: how the target reaches the ext4
 * @forced: --force-destroy names the target
 * @flags: NEED_OTHER, OWN_CHECKS, NO_MD, LOADFILE
 * @plant: for a tree workload, where below @W the symlink goes
 */
FIXTURE_VARIANT(writers) {
	const char *args[MAX_ARGS];
	enum kind kind;
	bool forced;
	unsigned int flags;
	const char *plant;
};

#define ROW(name, k, f, fl, pl, ...) \
	FIXTURE_VARIANT_ADD(writers, name) { \
		.kind = k, .forced = f, .flags = fl, .plant = pl, .args = { __VA_ARGS__ }, \
	}

/* A device command against each way to the ext4 that must be refused... */
#define REFUSED(cmd, fl, ...) \
	ROW(cmd##_plain, PLAIN, false, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_mounted, MOUNTED, false, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_link, LINK, false, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_stacked_top, STACK_TOP, false, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_stacked_below, STACK_BELOW, false, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_forced_mounted, MOUNTED, true, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_forced_stacked_top, STACK_TOP, true, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_forced_stacked_below, STACK_BELOW, true, fl, NULL, __VA_ARGS__)

/* ...and the two that --force-destroy naming the target lets through. */
#define FORCED_OK(cmd, fl, ...) \
	ROW(cmd##_forced_plain, PLAIN, true, fl, NULL, __VA_ARGS__); \
	ROW(cmd##_forced_link, LINK, true, fl, NULL, __VA_ARGS__)

/* A tree workload, with a symlink to the ext4's device, then to a file. */
#define TREE(cmd, fl, plant, ...) \
	ROW(cmd##_tree_link_dev, TREE_DEV, false, fl, plant, __VA_ARGS__); \
	ROW(cmd##_tree_link_file, TREE_FILE, false, fl, plant, __VA_ARGS__)

#define RUN_ARGS "run", "@F", "--name=x", "--filename=@T", "--rw=write", "--bs=4k", \
		 "--size=1m", "--direct=1"
#define CHECK_ARGS "check", "@F", "@T"
#define LATENCY_ARGS "latency", "-WWW", "-c", "1", "-i", "0", "@F", "@T"
#define STRIPE_ARGS "stripe-tune", "@T,@O", "--chunks", "64k", "@F", "--name=x", \
		    "--rw=write", "--bs=4k", "--io_size=1m", "--direct=1"
#define RAID_ARGS "raid", "create", "--chunk", "64k", "--mount", "@D/raid-mnt", "@F", "@T", \
		  "@O"
#define FS_CREATE_ARGS "fs", "create", "--mount", "@D/fs-mnt", "@F", "@T"
#define FS_DESTROY_ARGS "fs", "destroy", "@F", "@T"

REFUSED(run, 0, RUN_ARGS);
FORCED_OK(run, 0, RUN_ARGS);
REFUSED(run_trim, 0, RUN_ARGS, "--rw=trim");
FORCED_OK(run_trim, 0, RUN_ARGS, "--rw=trim");
REFUSED(run_verify, 0, RUN_ARGS, "--verify=crc32c");
FORCED_OK(run_verify, 0, RUN_ARGS, "--verify=crc32c");
REFUSED(check, 0, CHECK_ARGS);
FORCED_OK(check, 0, CHECK_ARGS);
/* Forced onto the plain ext4 it would qualify it for a minute: no such rows. */
REFUSED(qualify, 0, "qualify", "--profile", "quick", "--no-status",
	"--state=@D/quick.state", "@F", "@T");
REFUSED(latency, 0, LATENCY_ARGS);
FORCED_OK(latency, 0, LATENCY_ARGS);
REFUSED(stripe_tune, NEED_OTHER, STRIPE_ARGS);
FORCED_OK(stripe_tune, NEED_OTHER, STRIPE_ARGS);
REFUSED(raid_create, NEED_OTHER | OWN_CHECKS | NO_MD, RAID_ARGS);
FORCED_OK(raid_create, NEED_OTHER | OWN_CHECKS | NO_MD, RAID_ARGS);
REFUSED(fs_create, 0, FS_CREATE_ARGS);
FORCED_OK(fs_create, 0, FS_CREATE_ARGS);
REFUSED(fs_destroy, OWN_CHECKS, FS_DESTROY_ARGS);
FORCED_OK(fs_destroy, OWN_CHECKS, FS_DESTROY_ARGS);

/* sysbench's names, in the working directory; 8M extends a 4 MiB file. */
TREE(fileio_prepare, 0, "test_file.0", "fileio", "--file-num=1", "--file-total-size=8M",
     "prepare");
TREE(fileio_run, 0, "test_file.0", "fileio", "--file-num=1", "--file-total-size=4M",
     "--file-test-mode=rndwr", "--events=64", "run");
/* vdbench's: the control file every format writes, and a file of the tree. */
TREE(files_format, 0, "anchor/vdb_control.file", "files", "anchor=@W/anchor", "depth=1",
     "width=1", "files=1", "size=4k", "format=only");
TREE(files_write, 0, "anchor/vdb.1_1.dir/vdb_f0001.file", "files", "anchor=@W/anchor",
     "depth=1", "width=1", "files=1", "size=4m", "operation=write", "format=no",
     "elapsed=1", "interval=1");
/* dbench's: DIR/clients/clientN/..., the loadfile's \clients\client1 for client 0. */
TREE(replay, LOADFILE, "clients/client0/f.dat", "replay", "-c", "@D/load.txt", "-D", "@W",
     "--run-once", "--warmup", "0", "-t", "1", "1");

static bool is_tree(enum kind k)
{
	return k == TREE_DEV || k == TREE_FILE;
}

/* Where the target goes on the kind's way to the ext4. */
static void setup_kind(struct prep *p, FIXTURE_DATA(writers) *self,
		       const FIXTURE_VARIANT(writers) *variant)
{
	char path[PATH_MAX];

	snprintf(self->target, sizeof(self->target), "%s", self->v.dev);
	switch (variant->kind) {
	case MOUNTED:
		snprintf(self->mnt, sizeof(self->mnt), "%s/mnt", self->v.dir);
		prep_fail(p, "mkdir mount point", mkdir(self->mnt, 0700) ? -errno : 0);
		/*
		 * Without the option ext4 reads the block bitmaps of new block
		 * groups in the background after mount, and makes them up in
		 * the page cache of the device: a change no command made.
		 */
		if (prep_ok(p))
			prep_fail(p, "mount", mount(self->v.dev, self->mnt, "ext4", 0,
						    "no_prefetch_block_bitmaps") ? -errno : 0);
		self->mounted = prep_ok(p);
		break;
	case LINK:
		snprintf(self->target, sizeof(self->target), "%s/victim-link", self->v.dir);
		prep_fail(p, "symlink", symlink(self->v.dev, self->target) ? -errno : 0);
		break;
	case STACK_TOP:
	case STACK_BELOW:
		prep_fail(p, "stacking a loop device", stack_attach(&self->s, self->v.dev));
		if (prep_ok(p) && variant->kind == STACK_TOP)
			snprintf(self->target, sizeof(self->target), "%s", self->s.dev);
		break;
	case TREE_DEV:
	case TREE_FILE:
		snprintf(self->target, sizeof(self->target), "%s", self->work);
		if (variant->kind == TREE_FILE) {
			snprintf(self->victim, sizeof(self->victim), "%s/precious.dat",
				 self->v.dir);
			prep_fail(p, "the file outside the tree",
				  random_file(self->victim, HEAD_SIZE));
		}
		prep_fail(p, "mkdir tree", mkdir(self->work, 0755) ? -errno : 0);
		if (prep_ok(p))
			prep_fail(p, "mkdir below the tree",
				  make_parents(self->work, variant->plant));
		snprintf(path, sizeof(path), "%s/%s", self->work, variant->plant);
		if (prep_ok(p))
			prep_fail(p, "planting the symlink",
				  symlink(self->victim, path) ? -errno : 0);
		break;
	case PLAIN:
		break;
	}
}

FIXTURE_SETUP(writers)
{
	struct prep *p = &self->p;
	struct stat st;

	scratch_init(&self->v);
	scratch_init(&self->o);
	self->s.hold_fd = -1;
	prep_skip(p, need_program("mkfs.ext4"));
	prep_skip(p, need_program("timeout"));
	if (variant->flags & NO_MD)
		prep_skip(p, md_absent());
	scratch_device(p, &self->v, VICTIM_SIZE);
	if (prep_ok(p))
		prep_fail(p, "mkfs.ext4", run_quiet("%s %s", EXT4_CMD, self->v.dev));
	/* Our mounts, and any a command makes, stay in this process's namespace. */
	if (prep_ok(p))
		prep_fail(p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "making / private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
	if (variant->flags & NEED_OTHER)
		scratch_device(p, &self->o, VICTIM_SIZE);
	if (!prep_ok(p))
		return;
	snprintf(self->victim, sizeof(self->victim), "%s", self->v.dev);
	if (is_tree(variant->kind))
		snprintf(self->work, sizeof(self->work), "%s/tree", self->v.dir);
	else
		snprintf(self->work, sizeof(self->work), "%s", self->v.dir);
	if (variant->flags & LOADFILE) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/load.txt", self->v.dir);
		prep_fail(p, "writing the loadfile", write_text(path, loadfile));
	}
	if (prep_ok(p))
		setup_kind(p, self, variant);
	if (prep_ok(p))
		prep_fail(p, "chdir", chdir(self->work) ? -errno : 0);
	if (!prep_ok(p))
		return;

	/* What must still be there afterwards, as a reader would see it now. */
	sync();
	self->before = malloc(HEAD_SIZE);
	prep_fail(p, "malloc", self->before ? 0 : -ENOMEM);
	if (prep_ok(p))
		prep_fail(p, "reading the victim",
			  read_head(self->victim, self->before, &self->before_len));
	if (prep_ok(p))
		prep_fail(p, "stat of the victim", stat(self->victim, &st) ? -errno : 0);
	if (prep_ok(p))
		self->before_size = st.st_size;
	/* All of it too, for a write past the first 4 MiB. */
	if (prep_ok(p))
		prep_fail(p, "checksum of the victim",
			  checksum_path(self->victim, &self->before_sum));
}

FIXTURE_TEARDOWN(writers)
{
	char path[PATH_MAX];

	if (chdir("/"))
		TH_LOG("chdir /: %s", strerror(errno));
	if (self->mounted && umount2(self->mnt, 0))
		umount2(self->mnt, MNT_DETACH);
	/* Whatever a command mounted went into this namespace, and goes now. */
	if (self->v.dir[0]) {
		snprintf(path, sizeof(path), "%s/fs-mnt", self->v.dir);
		umount2(path, MNT_DETACH);
		snprintf(path, sizeof(path), "%s/raid-mnt", self->v.dir);
		umount2(path, MNT_DETACH);
		remove_below(self->v.dir, "backing.img");
	}
	free(self->before);
	/* The stacked device first: it holds the one below. */
	stack_destroy(&self->s);
	scratch_destroy(&self->o);
	scratch_destroy(&self->v);
}

/*
 * The command line of the row, placeholders replaced, after @n words
 * already in @argv; NULL-terminated.
 */
static void build_argv(FIXTURE_DATA(writers) *self, const FIXTURE_VARIANT(writers) *variant,
		       char (*store)[PATH_MAX + 64], const char **argv, int n)
{
	argv[n++] = blkqual_path();
	for (int i = 0; i < MAX_ARGS && variant->args[i]; i++) {
		const char *in = variant->args[i];
		char *out = store[i];
		size_t used = 0, len = sizeof(store[i]);

		if (!strcmp(in, "@F")) {
			if (!variant->forced)
				continue;
			in = "--force-destroy=@T";
		}
		for (const char *c = in; *c && used + 1 < len; c++) {
			const char *with = NULL;

			if (c[0] == '@') {
				switch (c[1]) {
				case 'T': with = self->target; break;
				case 'O': with = self->o.dev; break;
				case 'D': with = self->v.dir; break;
				case 'W': with = self->work; break;
				}
			}
			if (!with) {
				out[used++] = *c;
				continue;
			}
			used += snprintf(out + used, len - used, "%s", with);
			if (used >= len)
				used = len - 1;
			c++;
		}
		out[used] = '\0';
		argv[n++] = out;
	}
	argv[n] = NULL;
}

/* The loop device a refusal must name: the other one of a stacked pair. */
static const char *must_name(FIXTURE_DATA(writers) *self, enum kind k)
{
	if (k == STACK_TOP)
		return strrchr(self->v.dev, '/') + 1;
	if (k == STACK_BELOW)
		return strrchr(self->s.dev, '/') + 1;
	return NULL;
}

TEST_F_TIMEOUT(writers, guarded, 60)
{
	char store[MAX_ARGS][PATH_MAX + 64], shown[2048] = "blkqual", line[2048];
	const char *argv[ARRAY_SIZE(bounded) + MAX_ARGS + 2], *name;
	const int first = ARRAY_SIZE(bounded);
	bool allowed, own, said;
	unsigned char *after;
	size_t after_len = 0, diff;
	struct run_result res;
	uint64_t sum = 0;
	struct stat st;

	PREP_READY(&self->p);
	memcpy(argv, bounded, sizeof(bounded));
	build_argv(self, variant, store, argv, first);
	for (int i = first + 1; argv[i]; i++)
		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " %s", argv[i]);
	ASSERT_EQ(0, run_argv(argv, &res)) TH_LOG("%s: cannot start it", shown);
	/* One line per row, for the record: what the command said. */
	TH_LOG("%s: exit %d%s: %s", shown, res.status,
	       res.status == 124 ? " (stopped after " BOUND " s)" : "",
	       one_line(res.err, line, sizeof(line)));

	/* A write the command left in the stacked device's cache reaches the ext4. */
	if (self->s.hold_fd >= 0)
		fsync(self->s.hold_fd);
	after = malloc(HEAD_SIZE);
	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, read_head(self->victim, after, &after_len));
	ASSERT_EQ(0, stat(self->victim, &st));
	ASSERT_EQ(0, checksum_path(self->victim, &sum));
	for (diff = 0; diff < after_len && diff < self->before_len; diff++)
		if (after[diff] != self->before[diff])
			break;
	free(after);
	EXPECT_NE(124, res.status) TH_LOG("%s: still running after " BOUND " s", shown);

	allowed = variant->forced && (variant->kind == PLAIN || variant->kind == LINK);
	if (allowed) {
		/* Named scratch: it may be written, or fail for a reason of its own. */
		EXPECT_FALSE(contains(res.err, "refusing to write"))
			TH_LOG("%s: the override did not lift the refusal", shown);
		EXPECT_GT(128, res.status) TH_LOG("%s: killed by a signal", shown);
		run_result_free(&res);
		return;
	}

	said = contains(res.err, "refusing to write");
	own = (variant->flags & OWN_CHECKS) && !said;
	if (is_tree(variant->kind) || own) {
		/* Stopped for a reason of its own (or a tree's): any failure will do. */
		EXPECT_NE(0, res.status) TH_LOG("%s: went ahead", shown);
		EXPECT_GT(128, res.status) TH_LOG("%s: killed by a signal", shown);
	} else {
		EXPECT_EQ(1, res.status) TH_LOG("%s: exit %d", shown, res.status);
		EXPECT_TRUE(said) TH_LOG("%s: no refusal", shown);
		name = must_name(self, variant->kind);
		if (name) {
			EXPECT_TRUE(names_device(res.err, name))
				TH_LOG("%s: the refusal does not name %s", shown, name);
		}
	}
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("%s: stderr not one line", shown);
	EXPECT_EQ(self->before_len, after_len) TH_LOG("%s: %s shrank", shown, self->victim);
	EXPECT_EQ(self->before_size, st.st_size)
		TH_LOG("%s: %s resized to %lld bytes", shown, self->victim,
		       (long long)st.st_size);
	EXPECT_EQ(self->before_len, diff)
		TH_LOG("%s: %s written: first difference at byte %zu", shown, self->victim,
		       diff);
	if (diff == self->before_len) {
		EXPECT_EQ(self->before_sum, sum)
			TH_LOG("%s: %s written past its first %zu bytes", shown, self->victim,
			       diff);
	}
	run_result_free(&res);
}

TEST_HARNESS_MAIN
