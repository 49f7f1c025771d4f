// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_guard_test.c - the safety guard against real md, dm, loop devices,
 * partitions, XFS and mounts (VM)
 *
 * Only the VM has md and device-mapper; an XFS mount on an NVMe namespace
 * is as real as it gets.  Every test leaves the devices as it found them.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/loopdev.h"
#include "helpers/run.h"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme1n1", F_OK) || access("/sys/block/nullb3", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

static void expect_refused(struct __test_metadata *_metadata, const char *dev,
			   const char *force, const char *why)
{
	struct run_result r;
	char opt[64];

	snprintf(opt, sizeof(opt), "--force-destroy=%s", dev);
	ASSERT_EQ(0, force ? run_blkqual(&r, "guard", opt, dev, NULL) :
			     run_blkqual(&r, "guard", dev, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("%s: %s%s", dev, r.out, r.err);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, why)) TH_LOG("'%s' lacks '%s'", r.err, why);
	run_result_free(&r);
}

TEST(blank_namespace_is_safe)
{
	struct run_result r;

	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=4 oflag=direct"));
	ASSERT_EQ(0, run_blkqual(&r, "guard", "/dev/nvme0n1", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "safe to write"));
	run_result_free(&r);
}

TEST(md_member_refused)
{
	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("mdadm --create /dev/md0 --run --level=0 --chunk=256 "
			       "--metadata=1.2 --raid-devices=4 "
			       "/dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3"));
	expect_refused(_metadata, "/dev/nullb1", NULL, "held by md0");
	/* In use is final: naming the member does not lift it. */
	expect_refused(_metadata, "/dev/nullb1", "force", "no flag overrides");
	run_quiet("mdadm --stop /dev/md0");
	/* Stopped, the member still carries its superblock: data, not use. */
	expect_refused(_metadata, "/dev/nullb1", NULL, "linux_raid_member RAID member");
	run_quiet("mdadm --zero-superblock /dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3");
}

TEST(xfs_namespace_refused_unless_named)
{
	struct run_result r;

	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("mkfs.xfs -q -f /dev/nvme1n1"));
	expect_refused(_metadata, "/dev/nvme1n1", NULL, "xfs filesystem");
	ASSERT_EQ(0, run_blkqual(&r, "guard", "--force-destroy=/dev/nvme1n1", "/dev/nvme1n1",
				 NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "forced"));
	run_result_free(&r);
}

TEST(mounted_namespace_refused)
{
	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("mkfs.xfs -q -f /dev/nvme1n1"));
	ASSERT_EQ(0, run_quiet("mount -t xfs /dev/nvme1n1 /mnt"));
	expect_refused(_metadata, "/dev/nvme1n1", NULL, "mounted at /mnt");
	expect_refused(_metadata, "/dev/nvme1n1", "force", "no flag overrides");
	EXPECT_EQ(0, run_quiet("umount /mnt"));
	run_quiet("dd if=/dev/zero of=/dev/nvme1n1 bs=1M count=4 oflag=direct");
}

/*
 * Device stacks: each test builds one and says how to take it down as it
 * goes; the teardown runs those commands last-in first-out, so a failed
 * assertion still leaves the devices as the test found them.
 */
#define MAX_UNDO 8

FIXTURE(stack)
{
	char undo[MAX_UNDO][256];
	int nr_undo;
	struct scratch file;	/* a loop device over a file in /tmp */
};

FIXTURE_SETUP(stack)
{
	self->nr_undo = 0;
	memset(&self->file, 0, sizeof(self->file));
	self->file.hold_fd = -1;
}

FIXTURE_TEARDOWN(stack)
{
	while (self->nr_undo > 0) {
		const char *cmd = self->undo[--self->nr_undo];

		if (run_quiet("%s", cmd))
			TH_LOG("cleanup: '%s' failed", cmd);
	}
	scratch_destroy(&self->file);
}

static void push_undo(FIXTURE_DATA(stack) *self, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void push_undo(FIXTURE_DATA(stack) *self, const char *fmt, ...)
{
	va_list ap;

	if (self->nr_undo == MAX_UNDO)
		abort();
	va_start(ap, fmt);
	vsnprintf(self->undo[self->nr_undo++], sizeof(self->undo[0]), fmt, ap);
	va_end(ap);
}

/* Tools from util-linux and friends, called by path: busybox has applets of the same names. */
#define NEED_TOOL(tool) do { \
	if (access("/sbin/" tool, X_OK)) \
		SKIP(return, tool " is not in the VM (not installed on the host)"); \
} while (0)

#define NEED_LOOP() do { \
	if (access("/dev/loop-control", F_OK)) \
		SKIP(return, "no loop driver in the VM"); \
} while (0)

#define NEED_DM() do { \
	if (access("/dev/mapper/control", F_OK)) \
		SKIP(return, "no device-mapper in the VM"); \
} while (0)

#define MIB (1024 * 1024)

/* @len bytes of @path from offset 0, read past the page cache; NULL on error. */
static void *read_direct(const char *path, size_t len)
{
	void *buf = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!posix_memalign(&buf, 4096, len) && pread(fd, buf, len, 0) != (ssize_t)len) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

/* The bytes are what they were: the refusals wrote nothing. */
static void expect_unchanged(struct __test_metadata *_metadata, const char *path,
			     const void *before, size_t len)
{
	void *now = read_direct(path, len);

	ASSERT_NE(NULL, now) TH_LOG("cannot read %s", path);
	EXPECT_EQ(0, memcmp(before, now, len)) TH_LOG("%s changed", path);
	free(now);
}

/* blkqual run writing 1 MiB to @file, with --ioengine and --force-destroy if not NULL. */
static int run_write(struct run_result *r, const char *file, const char *ioengine,
		     const char *force)
{
	char filename[96], engine[64], opt[96];
	const char *argv[16];
	int n = 0;

	snprintf(filename, sizeof(filename), "--filename=%s", file);
	argv[n++] = blkqual_path();
	argv[n++] = "run";
	argv[n++] = "--name=x";
	argv[n++] = filename;
	argv[n++] = "--rw=write";
	argv[n++] = "--size=1m";
	argv[n++] = "--bs=4k";
	if (ioengine) {
		snprintf(engine, sizeof(engine), "--ioengine=%s", ioengine);
		argv[n++] = engine;
	}
	if (force) {
		snprintf(opt, sizeof(opt), "--force-destroy=%s", force);
		argv[n++] = opt;
	}
	argv[n] = NULL;
	return run_argv(argv, r);
}

/* That write is refused: status 1 and one line saying why, @why in it. */
static void expect_write_refused(struct __test_metadata *_metadata, const char *file,
				 const char *ioengine, const char *force, const char *why)
{
	struct run_result r;

	ASSERT_EQ(0, run_write(&r, file, ioengine, force));
	EXPECT_EQ(1, r.status) TH_LOG("%s%s%s: %s%s", file, force ? " forced by " : "",
				      force ? force : "", r.out, r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, why)) TH_LOG("'%s' lacks '%s'", r.err, why);
	run_result_free(&r);
}

/* A partition on an md member: the whole disk is refused for what its partition is in. */
TEST_F(stack, md_member_partition)
{
	void *before;

	NEED_GUEST();
	NEED_TOOL("sfdisk");
	NEED_TOOL("wipefs");
	/* wipefs -a takes the backup GPT at the end of the disk too. */
	push_undo(self, "dd if=/dev/zero of=/dev/nullb1 bs=1M count=8 oflag=direct");
	push_undo(self, "wipefs -a /dev/nullb1");
	ASSERT_EQ(0, run_quiet("printf 'label: gpt\\n,,R\\n' | sfdisk -q /dev/nullb1"));
	/* sfdisk has the kernel re-read the table; null_blk takes partitions. */
	ASSERT_EQ(0, access("/sys/class/block/nullb1p1", F_OK));
	ASSERT_EQ(0, access("/dev/nullb1p1", F_OK));
	push_undo(self, "mdadm --zero-superblock /dev/nullb1p1 /dev/nullb2");
	ASSERT_EQ(0, run_quiet("mdadm --create /dev/md1 --run --level=0 --chunk=256 "
			       "--metadata=1.2 --raid-devices=2 /dev/nullb1p1 /dev/nullb2"));
	push_undo(self, "mdadm --stop /dev/md1");
	ASSERT_EQ(0, run_quiet("dd if=/dev/urandom of=/dev/md1 bs=1M count=1 oflag=direct"));
	/* The GPT, the md superblock and the start of the array's data. */
	before = read_direct("/dev/nullb1", 4 * MIB);
	ASSERT_NE(NULL, before);

	expect_refused(_metadata, "/dev/nullb1", NULL, "nullb1p1 held by md1");
	expect_refused(_metadata, "/dev/nullb1", "force", "no flag overrides");
	expect_refused(_metadata, "/dev/nullb1p1", NULL, "held by md1");
	expect_refused(_metadata, "/dev/nullb1p1", "force", "held by md1");
	expect_write_refused(_metadata, "/dev/nullb1", NULL, NULL, "held by md1");
	expect_write_refused(_metadata, "/dev/nullb1", NULL, "/dev/nullb1", "held by md1");
	expect_write_refused(_metadata, "/dev/nullb1p1", NULL, NULL, "held by md1");
	expect_unchanged(_metadata, "/dev/nullb1", before, 4 * MIB);
	free(before);
}

/* An NVMe namespace in an array: its block node and its passthrough node alike. */
TEST_F(stack, nvme_under_md)
{
	void *before;

	NEED_GUEST();
	push_undo(self, "dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=4 oflag=direct");
	push_undo(self, "mdadm --zero-superblock /dev/nvme0n1 /dev/nullb0");
	ASSERT_EQ(0, run_quiet("mdadm --create /dev/md2 --run --level=0 --chunk=256 "
			       "--metadata=1.2 --raid-devices=2 /dev/nvme0n1 /dev/nullb0"));
	push_undo(self, "mdadm --stop /dev/md2");
	ASSERT_EQ(0, run_quiet("dd if=/dev/urandom of=/dev/md2 bs=1M count=1 oflag=direct"));
	before = read_direct("/dev/nvme0n1", 4 * MIB);
	ASSERT_NE(NULL, before);

	expect_refused(_metadata, "/dev/nvme0n1", NULL, "held by md2");
	expect_refused(_metadata, "/dev/nvme0n1", "force", "held by md2");
	expect_write_refused(_metadata, "/dev/nvme0n1", NULL, NULL, "held by md2");
	expect_write_refused(_metadata, "/dev/nvme0n1", NULL, "/dev/nvme0n1", "held by md2");
	if (access("/dev/ng0n1", F_OK)) {
		TH_LOG("no /dev/ng0n1: passthrough not checked");
	} else {
		expect_write_refused(_metadata, "/dev/ng0n1", "io_uring_cmd", NULL,
				     "held by md2");
		expect_write_refused(_metadata, "/dev/ng0n1", "io_uring_cmd", "/dev/nvme0n1",
				     "held by md2");
	}
	expect_unchanged(_metadata, "/dev/nvme0n1", before, 4 * MIB);
	free(before);
}

/* The first holder of @dev in sysfs ("dm-0"), or "" when it has none. */
static void first_holder(const char *dev, char *buf, size_t len)
{
	char dir[128];
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/holders", dev);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(buf, len, "%s", de->d_name);
			break;
		}
	closedir(d);
}

/* ext4 on dm-linear on a loop device over a file: the loop device is held by dm. */
TEST_F(stack, dm_linear_over_loop)
{
	char loop[32], holder[256], held[288];
	void *before;

	NEED_GUEST();
	NEED_LOOP();
	NEED_DM();
	NEED_TOOL("dmsetup");
	NEED_TOOL("mkfs.ext4");
	ASSERT_EQ(0, scratch_make(&self->file, 64 * MIB));
	ASSERT_EQ(0, scratch_attach(&self->file));
	snprintf(loop, sizeof(loop), "%s", self->file.dev + strlen("/dev/"));
	ASSERT_EQ(0, run_quiet("dmsetup create bqlin --table '0 %d linear %s 0'",
			       64 * MIB / 512, self->file.dev));
	/* No udev in the guest: dmsetup makes /dev/mapper/bqlin itself. */
	push_undo(self, "rm -f /dev/mapper/bqlin");
	push_undo(self, "dmsetup remove bqlin");
	ASSERT_EQ(0, run_quiet("dmsetup mknodes bqlin"));
	first_holder(loop, holder, sizeof(holder));
	ASSERT_EQ(0, strncmp(holder, "dm-", 3)) TH_LOG("%s holders: '%s'", loop, holder);
	/* No lazy init: nothing writes to the filesystem behind our back. */
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "
			       "/dev/mapper/bqlin"));
	ASSERT_EQ(0, run_quiet("mount -t ext4 -o ro /dev/mapper/bqlin /mnt"));
	push_undo(self, "umount /mnt");
	before = read_direct("/dev/mapper/bqlin", MIB);
	ASSERT_NE(NULL, before);

	snprintf(held, sizeof(held), "held by %s", holder);
	expect_refused(_metadata, self->file.dev, NULL, held);
	expect_refused(_metadata, self->file.dev, "force", held);
	expect_write_refused(_metadata, self->file.dev, NULL, NULL, held);
	expect_write_refused(_metadata, self->file.dev, NULL, self->file.dev, held);
	expect_refused(_metadata, "/dev/mapper/bqlin", NULL, "mounted at /mnt");
	/* The file under the stack is the loop device's data. */
	expect_refused(_metadata, self->file.file, NULL, loop);
	expect_unchanged(_metadata, "/dev/mapper/bqlin", before, MIB);
	free(before);
}

/*
 * A namespace as the backing store of a loop device with ext4 on it: the
 * namespace carries the loop device's data, in use however it is named.
 */
TEST_F(stack, loop_on_nvme_namespace)
{
	const char *argv[] = { "/sbin/losetup", "-f", "--show", "/dev/nvme0n1", NULL };
	char loopdev[64], *loop;
	struct run_result r;
	void *before;

	NEED_GUEST();
	NEED_LOOP();
	NEED_TOOL("losetup");
	NEED_TOOL("mkfs.ext4");
	push_undo(self, "dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=4 oflag=direct");
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(loopdev, sizeof(loopdev), "%.*s", (int)strcspn(r.out, "\n"), r.out);
	run_result_free(&r);
	ASSERT_EQ(0, strncmp(loopdev, "/dev/loop", 9));
	push_undo(self, "/sbin/losetup -d %s", loopdev);
	loop = loopdev + strlen("/dev/");
	/* 64 MiB of it is enough, and quick. */
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -q -F %s 64M", loopdev));
	before = read_direct(loopdev, MIB);
	ASSERT_NE(NULL, before);

	expect_refused(_metadata, "/dev/nvme0n1", NULL, loop);
	expect_refused(_metadata, "/dev/nvme0n1", "force", loop);
	expect_write_refused(_metadata, "/dev/nvme0n1", NULL, NULL, loop);
	expect_write_refused(_metadata, "/dev/nvme0n1", NULL, "/dev/nvme0n1", loop);
	expect_unchanged(_metadata, loopdev, before, MIB);
	free(before);
}

/*
 * A passthrough target holding data: the refusal names an override, and
 * that override lifts it.  The guard examines the namespace behind the
 * character device; whichever node the hint names must work.
 */
TEST_F(stack, passthrough_override_as_suggested)
{
	const char *hint = "pass --force-destroy=";
	struct run_result r;
	char force[96];
	const char *p;

	NEED_GUEST();
	if (access("/dev/ng0n1", F_OK))
		SKIP(return, "no /dev/ng0n1 in the VM");
	push_undo(self, "dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=4 oflag=direct");
	ASSERT_EQ(0, run_quiet("mkfs.xfs -q -f /dev/nvme0n1"));
	ASSERT_EQ(0, run_write(&r, "/dev/ng0n1", "io_uring_cmd", NULL));
	EXPECT_EQ(1, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "xfs filesystem")) TH_LOG("%s", r.err);
	p = strstr(r.err, hint);
	ASSERT_NE(NULL, p) TH_LOG("no override named: %s", r.err);
	p += strlen(hint);
	snprintf(force, sizeof(force), "%.*s", (int)strcspn(p, " \n"), p);
	run_result_free(&r);

	ASSERT_EQ(0, run_write(&r, "/dev/ng0n1", "io_uring_cmd", force));
	EXPECT_EQ(0, r.status) TH_LOG("--force-destroy=%s: %s", force, r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
