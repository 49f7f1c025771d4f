// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard_test.c - the data-safety guard, for real, on scratch loop devices
 *
 * Every case is checked twice: through bq_guard_open(), which every
 * writing feature calls, and through "blkqual guard", which is what a
 * user or a script sees.  Each device is one this test made over a file
 * in its own temp dir; no other device on the machine is opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "guard/guard_int.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

/* Fixed UUIDs, so a test can tell the guard named the right filesystem. */
#define EXT4_UUID "6b1f3c1e-8f5a-4c36-9d0e-2a7b5c4d3e21"
#define XFS_UUID "0f4e2d6c-3b1a-4f58-8e97-c6d5b4a39281"
#define EXT4_CMD "mkfs.ext4 -F -q -U " EXT4_UUID

/* A small file is enough where no XFS is made. */
#define SMALL_FILE_SIZE (64LL << 20)

/* ---- helpers ------------------------------------------------------------ */

/**
 * guard_lib() - bq_guard_open() with a fresh context, as a command would
 * @path: the target
 * @force: the one --force-destroy value, or NULL
 * @rep: receives the findings
 *
 * Return: what bq_guard_open() returned (the caller closes an fd).
 */
static int guard_lib(const char *path, const char *force, struct bq_guard_report *rep)
{
	const char *const forcev[] = { force };
	struct bq_guard_opts opts = { .force_destroy = forcev, .nr_force = 1 };
	struct bq_ctx *ctx;
	int ret;

	memset(rep, 0, sizeof(*rep));
	ret = bq_ctx_new(&ctx, NULL);
	if (ret)
		return ret;
	ret = bq_guard_open(ctx, path, 0, force ? &opts : NULL, rep);
	bq_ctx_free(ctx);
	return ret;
}

/* Whether a finding with this reason mentions @word (any, when NULL). */
static bool has_finding(const struct bq_guard_report *rep, enum bq_guard_reason reason,
			const char *word)
{
	for (int i = 0; i < rep->nr; i++)
		if (rep->findings[i].reason == reason &&
		    (!word || strstr(rep->findings[i].detail, word)))
			return true;
	return false;
}

static bool all_overridable(const struct bq_guard_report *rep)
{
	for (int i = 0; i < rep->nr; i++)
		if (!rep->findings[i].overridable)
			return false;
	return true;
}

/* The findings as one string, for TH_LOG when an expectation fails. */
static const char *report_str(const struct bq_guard_report *rep)
{
	static char buf[BQ_GUARD_MAX_FINDINGS * 300];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < rep->nr && used < sizeof(buf); i++) {
		snprintf(buf + used, sizeof(buf) - used, "%s[%s%s] %s", i ? "; " : "",
			 bq_guard_reason_name(rep->findings[i].reason),
			 rep->findings[i].overridable ? ", overridable" : "",
			 rep->findings[i].detail);
		used = strlen(buf);
	}
	return rep->nr ? buf : "(no findings)";
}

static bool contains(const char *haystack, const char *needle)
{
	return haystack && strstr(haystack, needle);
}

/* ---- a blank scratch device --------------------------------------------- */

FIXTURE(blank) {
	struct prep p;
	struct scratch s;
	int excl_fd;
};

FIXTURE_SETUP(blank)
{
	scratch_init(&self->s);
	self->excl_fd = -1;
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
}

FIXTURE_TEARDOWN(blank)
{
	if (self->excl_fd >= 0)
		close(self->excl_fd);
	scratch_destroy(&self->s);
}

TEST_F(blank, safe_by_library)
{
	struct bq_guard_report rep;
	int fd, other, err;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.dev, NULL, &rep);
	ASSERT_LE(0, fd) TH_LOG("%s: %s; %s", self->s.dev, strerror(-fd), report_str(&rep));
	EXPECT_EQ(0, rep.nr) TH_LOG("%s", report_str(&rep));
	EXPECT_FALSE(rep.forced);
	EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
	/* The guard's descriptor is exclusive: nothing can claim the device now. */
	other = open(self->s.dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	err = errno;
	EXPECT_EQ(-1, other);
	EXPECT_EQ(EBUSY, err) TH_LOG("second O_EXCL open: %s", strerror(err));
	if (other >= 0)
		close(other);
	close(fd);
}

TEST_F(blank, safe_by_command)
{
	struct run_result res;
	char want[128];

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dev, NULL));
	snprintf(want, sizeof(want), "%s: safe to write\n", self->s.dev);
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_STREQ(want, res.out);
	EXPECT_STREQ("", res.err);
	run_result_free(&res);
}

TEST_F(blank, busy_by_library)
{
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	self->excl_fd = open(self->s.dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	ASSERT_LE(0, self->excl_fd) TH_LOG("O_EXCL open of %s: %s", self->s.dev, strerror(errno));

	fd = guard_lib(self->s.dev, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_EQ(1, rep.nr) TH_LOG("%s", report_str(&rep));
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_BUSY, NULL)) TH_LOG("%s", report_str(&rep));
	EXPECT_FALSE(all_overridable(&rep));
	if (fd >= 0)
		close(fd);

	/* Another holder means in use: naming the device does not lift it. */
	fd = guard_lib(self->s.dev, self->s.dev, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_FALSE(rep.forced);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_BUSY, NULL)) TH_LOG("%s", report_str(&rep));
	if (fd >= 0)
		close(fd);
}

TEST_F(blank, busy_by_command)
{
	char force[128];
	struct run_result res;

	PREP_READY(&self->p);
	self->excl_fd = open(self->s.dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	ASSERT_LE(0, self->excl_fd) TH_LOG("O_EXCL open of %s: %s", self->s.dev, strerror(errno));

	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dev, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "refusing to write")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "exclusively")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "no flag overrides")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);

	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.dev, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(blank, backing_file_by_library)
{
	const char *loop = strrchr(self->s.dev, '/');
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.file, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_LOOP_BACKING, loop + 1))
		TH_LOG("%s", report_str(&rep));
	EXPECT_FALSE(all_overridable(&rep));
	if (fd >= 0)
		close(fd);

	/* Writing under a live loop device corrupts it: no override. */
	fd = guard_lib(self->s.file, self->s.file, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_FALSE(rep.forced);
	if (fd >= 0)
		close(fd);
}

TEST_F(blank, backing_file_by_command)
{
	const char *loop = strrchr(self->s.dev, '/');
	struct run_result res;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.file, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, loop + 1)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "no flag overrides")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

/* ---- a device that holds data: one variant per kind of signature --------- */

FIXTURE(formatted) {
	struct prep p;
	struct scratch s;
};

/**
 * struct _fixture_variant_formatted - how to put data on the device
 * @prog: the program that must be installed
 * @cmd: command that writes the signature; the device is appended
 * @reason: the finding expected
 * @type: word the finding must mention
 * @uuid: UUID the finding must mention, or NULL
 */
FIXTURE_VARIANT(formatted) {
	const char *prog;
	const char *cmd;
	enum bq_guard_reason reason;
	const char *type;
	const char *uuid;
};

FIXTURE_VARIANT_ADD(formatted, ext4) {
	.prog = "mkfs.ext4",
	.cmd = EXT4_CMD,
	.reason = BQ_GUARD_SIGNATURE,
	.type = "ext4",
	.uuid = EXT4_UUID,
};

FIXTURE_VARIANT_ADD(formatted, xfs) {
	.prog = "mkfs.xfs",
	.cmd = "mkfs.xfs -f -q -K -m uuid=" XFS_UUID,
	.reason = BQ_GUARD_SIGNATURE,
	.type = "xfs",
	.uuid = XFS_UUID,
};

FIXTURE_VARIANT_ADD(formatted, gpt) {
	.prog = "sfdisk",
	.cmd = "printf 'label: gpt\\n,\\n' | sfdisk -q",
	.reason = BQ_GUARD_PARTTABLE,
	.type = "gpt",
};

FIXTURE_VARIANT_ADD(formatted, dos) {
	.prog = "sfdisk",
	.cmd = "printf 'label: dos\\n,\\n' | sfdisk -q",
	.reason = BQ_GUARD_PARTTABLE,
	.type = "dos",
};

FIXTURE_SETUP(formatted)
{
	scratch_init(&self->s);
	prep_skip(&self->p, need_program(variant->prog));
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
	if (prep_ok(&self->p))
		prep_fail(&self->p, variant->cmd, run_quiet("%s %s", variant->cmd, self->s.dev));
}

FIXTURE_TEARDOWN(formatted)
{
	scratch_destroy(&self->s);
}

TEST_F(formatted, refused_by_library)
{
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.dev, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_FALSE(rep.forced);
	EXPECT_TRUE(has_finding(&rep, variant->reason, variant->type))
		TH_LOG("%s", report_str(&rep));
	/* Braces: EXPECT_*() with TH_LOG() is more than one statement. */
	if (variant->uuid) {
		EXPECT_TRUE(has_finding(&rep, variant->reason, variant->uuid))
			TH_LOG("%s", report_str(&rep));
	}
	/* Data, not use: only --force-destroy stands between it and a write. */
	EXPECT_TRUE(all_overridable(&rep)) TH_LOG("%s", report_str(&rep));
	if (fd >= 0)
		close(fd);
}

TEST_F(formatted, refused_by_command)
{
	char force[128];
	struct run_result res;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dev, NULL));
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "blkqual: guard: ")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, self->s.dev)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "refusing to write")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, variant->type)) TH_LOG("stderr: %s", res.err);
	if (variant->uuid) {
		EXPECT_TRUE(contains(res.err, variant->uuid)) TH_LOG("stderr: %s", res.err);
	}
	/* The refusal says how to go ahead, naming this very device. */
	EXPECT_TRUE(contains(res.err, force)) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(formatted, forced_by_library)
{
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.dev, self->s.dev, &rep);
	ASSERT_LE(0, fd) TH_LOG("%s: %s; %s", self->s.dev, strerror(-fd), report_str(&rep));
	EXPECT_TRUE(rep.forced);
	/* The report still says what is about to be destroyed. */
	EXPECT_TRUE(has_finding(&rep, variant->reason, variant->type))
		TH_LOG("%s", report_str(&rep));
	close(fd);
}

TEST_F(formatted, forced_by_command)
{
	char force[128], want[128];
	struct run_result res;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.dev, NULL));
	snprintf(want, sizeof(want), "%s: forced: will overwrite ", self->s.dev);
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_STREQ("", res.err);
	EXPECT_EQ(1, count_lines(res.out)) TH_LOG("stdout: %s", res.out);
	EXPECT_EQ(0, strncmp(res.out, want, strlen(want))) TH_LOG("stdout: %s", res.out);
	EXPECT_TRUE(contains(res.out, variant->type)) TH_LOG("stdout: %s", res.out);
	run_result_free(&res);
}

/* The guard only looks; this states it, refused and forced alike. */
TEST_F_TIMEOUT(formatted, nothing_written, 120)
{
	uint64_t before, after;
	char force[128];
	struct bq_guard_report rep;
	struct run_result res;
	int fd;

	PREP_READY(&self->p);
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));

	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dev, NULL));
	EXPECT_EQ(1, res.status);
	run_result_free(&res);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.dev, NULL));
	EXPECT_EQ(0, res.status);
	run_result_free(&res);
	fd = guard_lib(self->s.dev, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	if (fd >= 0)
		close(fd);
	fd = guard_lib(self->s.dev, self->s.dev, &rep);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);

	ASSERT_EQ(0, checksum_path(self->s.dev, &after));
	EXPECT_EQ(before, after) TH_LOG("%s changed while only the guard ran", self->s.dev);
}

/* ---- a mounted device ---------------------------------------------------- */

FIXTURE(mounted) {
	struct prep p;
	struct scratch s;
	int host_ns;
	char mnt[PATH_MAX];
	bool mnt_made;
	bool mounted;
};

FIXTURE_SETUP(mounted)
{
	struct prep *p = &self->p;

	scratch_init(&self->s);
	self->host_ns = -1;
	prep_skip(p, need_program("mkfs.ext4"));
	scratch_device(p, &self->s, SCRATCH_SIZE);
	if (prep_ok(p))
		prep_fail(p, "mkfs.ext4", run_quiet("%s %s", EXT4_CMD, self->s.dev));
	/* Kept to look from where the mount cannot be seen. */
	if (prep_ok(p)) {
		self->host_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
		prep_fail(p, "open /proc/self/ns/mnt", self->host_ns < 0 ? -errno : 0);
	}
	/*
	 * Mount only inside a mount namespace of this test process: if the
	 * test dies before teardown, the mount dies with it, and with the
	 * last user gone autoclear detaches the loop device.
	 */
	if (prep_ok(p))
		prep_fail(p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "making / private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
	if (!prep_ok(p))
		return;
	snprintf(self->mnt, sizeof(self->mnt), "%s/mnt", self->s.dir);
	prep_fail(p, "mkdir mount point", mkdir(self->mnt, 0700) ? -errno : 0);
	self->mnt_made = prep_ok(p);
	if (prep_ok(p))
		prep_fail(p, "mount", mount(self->s.dev, self->mnt, "ext4", 0, NULL) ? -errno : 0);
	self->mounted = prep_ok(p);
}

FIXTURE_TEARDOWN(mounted)
{
	if (self->mounted && umount2(self->mnt, 0))
		umount2(self->mnt, MNT_DETACH);
	if (self->mnt_made)
		rmdir(self->mnt);
	if (self->host_ns >= 0)
		close(self->host_ns);
	scratch_destroy(&self->s);
}

TEST_F(mounted, refused_by_library)
{
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.dev, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_MOUNTED, self->mnt)) TH_LOG("%s", report_str(&rep));
	EXPECT_FALSE(all_overridable(&rep));
	if (fd >= 0)
		close(fd);

	/* In use: naming the device in the override changes nothing. */
	fd = guard_lib(self->s.dev, self->s.dev, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_FALSE(rep.forced);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_MOUNTED, self->mnt)) TH_LOG("%s", report_str(&rep));
	if (fd >= 0)
		close(fd);
}

TEST_F(mounted, refused_by_command)
{
	struct run_result res;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dev, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "mounted at")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, self->mnt)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "no flag overrides")) TH_LOG("stderr: %s", res.err);
	/* Suggesting --force-destroy for a mounted device would be a lie. */
	EXPECT_FALSE(contains(res.err, "--force-destroy")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(mounted, refused_by_command_even_forced)
{
	char force[128];
	struct run_result res;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.dev, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "mounted at")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "no flag overrides")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

/*
 * A container's mount is invisible in the host's mount table; the kernel's
 * claim on the device is not, so the guard still refuses (as busy).
 */
TEST_F(mounted, refused_from_other_namespace)
{
	char ns[64], force[128], prog[PATH_MAX];
	const char *argv[8];
	struct run_result res;

	PREP_READY(&self->p);
	if (need_program("nsenter"))
		SKIP(return, "%s", need_program("nsenter"));
	/* nsenter reads the namespace through the descriptor it inherits. */
	ASSERT_EQ(0, fcntl(self->host_ns, F_SETFD, 0));
	/* Entering a mount namespace moves to its root: a relative path breaks. */
	ASSERT_NE(NULL, realpath(blkqual_path(), prog)) TH_LOG("%s: %s", blkqual_path(), strerror(errno));
	snprintf(ns, sizeof(ns), "--mount=/proc/self/fd/%d", self->host_ns);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	argv[0] = "nsenter";
	argv[1] = ns;
	argv[2] = "--";
	argv[3] = prog;
	argv[4] = "guard";
	argv[5] = force;
	argv[6] = self->s.dev;
	argv[7] = NULL;
	ASSERT_EQ(0, run_argv(argv, &res));
	EXPECT_EQ(1, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	/* Seen from there it is not mounted, only held: proof of where we looked. */
	EXPECT_FALSE(contains(res.err, "mounted at")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "exclusively")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "no flag overrides")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

/* ---- two devices holding data: the override is per device --------------- */

FIXTURE(pair) {
	struct prep p;
	struct scratch a;
	struct scratch b;
	char link[PATH_MAX];
	bool link_made;
};

FIXTURE_SETUP(pair)
{
	struct prep *p = &self->p;

	scratch_init(&self->a);
	scratch_init(&self->b);
	prep_skip(p, need_program("mkfs.ext4"));
	scratch_device(p, &self->a, SCRATCH_SIZE);
	scratch_device(p, &self->b, SCRATCH_SIZE);
	if (prep_ok(p))
		prep_fail(p, "mkfs.ext4", run_quiet("%s %s", EXT4_CMD, self->a.dev));
	if (prep_ok(p))
		prep_fail(p, "mkfs.ext4", run_quiet("%s %s", EXT4_CMD, self->b.dev));
	if (!prep_ok(p))
		return;
	/* Another spelling of device a, as a /dev/disk/by-id link would be. */
	snprintf(self->link, sizeof(self->link), "%s/scratch-link", self->a.dir);
	prep_fail(p, "symlink", symlink(self->a.dev, self->link) ? -errno : 0);
	self->link_made = prep_ok(p);
}

FIXTURE_TEARDOWN(pair)
{
	if (self->link_made)
		unlink(self->link);
	scratch_destroy(&self->b);
	scratch_destroy(&self->a);
}

TEST_F(pair, force_one_by_command)
{
	char force[128], want[128];
	struct run_result res;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->a.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->a.dev, self->b.dev, NULL));
	EXPECT_EQ(1, res.status);
	snprintf(want, sizeof(want), "%s: forced: will overwrite ", self->a.dev);
	EXPECT_EQ(1, count_lines(res.out)) TH_LOG("stdout: %s", res.out);
	EXPECT_EQ(0, strncmp(res.out, want, strlen(want))) TH_LOG("stdout: %s", res.out);
	EXPECT_TRUE(contains(res.out, "ext4")) TH_LOG("stdout: %s", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	snprintf(want, sizeof(want), "blkqual: guard: %s: refusing to write: ", self->b.dev);
	EXPECT_EQ(0, strncmp(res.err, want, strlen(want))) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(pair, force_one_by_library)
{
	struct bq_guard_report rep;
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->a.dev, self->a.dev, &rep);
	ASSERT_LE(0, fd) TH_LOG("%s: %s; %s", self->a.dev, strerror(-fd), report_str(&rep));
	EXPECT_TRUE(rep.forced);
	close(fd);

	fd = guard_lib(self->b.dev, self->a.dev, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_FALSE(rep.forced);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_SIGNATURE, "ext4")) TH_LOG("%s", report_str(&rep));
	if (fd >= 0)
		close(fd);
}

/* The override names a device, not a string: any spelling of it counts. */
TEST_F(pair, force_by_identity)
{
	struct bq_guard_report rep;
	char force[PATH_MAX + 32];
	struct run_result res;
	int fd;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->link);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->a.dev, NULL));
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.out, "forced")) TH_LOG("stdout: %s", res.out);
	run_result_free(&res);

	snprintf(force, sizeof(force), "--force-destroy=%s", self->a.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->link, NULL));
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.out, "forced")) TH_LOG("stdout: %s", res.out);
	run_result_free(&res);

	fd = guard_lib(self->a.dev, self->link, &rep);
	ASSERT_LE(0, fd) TH_LOG("%s: %s; %s", self->a.dev, strerror(-fd), report_str(&rep));
	EXPECT_TRUE(rep.forced);
	close(fd);
}

TEST_F(pair, force_naming_no_target)
{
	char force[128];
	struct run_result res;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->b.dev);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->a.dev, NULL));
	EXPECT_EQ(2, res.status);
	/* Nothing was checked: a likely typo stops the run before any verdict. */
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "names none of the targets")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

/* ---- regular files and bad targets: no root needed ---------------------- */

FIXTURE(file) {
	struct prep p;
	struct scratch s;
	char other[PATH_MAX];
};

FIXTURE_SETUP(file)
{
	scratch_init(&self->s);
	prep_fail(&self->p, "making the scratch file", scratch_make(&self->s, SMALL_FILE_SIZE));
	snprintf(self->other, sizeof(self->other), "%s/other", self->s.dir);
}

FIXTURE_TEARDOWN(file)
{
	unlink(self->other);
	scratch_destroy(&self->s);
}

TEST_F(file, blank_file_safe)
{
	struct bq_guard_report rep;
	struct run_result res;
	char want[PATH_MAX + 32];
	int fd;

	PREP_READY(&self->p);
	fd = guard_lib(self->s.file, NULL, &rep);
	ASSERT_LE(0, fd) TH_LOG("%s: %s; %s", self->s.file, strerror(-fd), report_str(&rep));
	EXPECT_EQ(0, rep.nr) TH_LOG("%s", report_str(&rep));
	EXPECT_FALSE(rep.forced);
	close(fd);

	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.file, NULL));
	snprintf(want, sizeof(want), "%s: safe to write\n", self->s.file);
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_STREQ(want, res.out);
	EXPECT_STREQ("", res.err);
	run_result_free(&res);
}

TEST_F(file, ext4_file_refused)
{
	struct bq_guard_report rep;
	struct run_result res;
	int fd;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("%s %s", EXT4_CMD, self->s.file));

	fd = guard_lib(self->s.file, NULL, &rep);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_SIGNATURE, "ext4")) TH_LOG("%s", report_str(&rep));
	EXPECT_TRUE(has_finding(&rep, BQ_GUARD_SIGNATURE, EXT4_UUID))
		TH_LOG("%s", report_str(&rep));
	EXPECT_TRUE(all_overridable(&rep)) TH_LOG("%s", report_str(&rep));
	if (fd >= 0)
		close(fd);

	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.file, NULL));
	EXPECT_EQ(1, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "ext4")) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "--force-destroy=")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

/* A file is matched by inode: a hard link is the file, a copy is not. */
TEST_F(file, ext4_file_forced_by_identity)
{
	char force[PATH_MAX + 32];
	struct run_result res;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("%s %s", EXT4_CMD, self->s.file));

	ASSERT_EQ(0, link(self->s.file, self->other)) TH_LOG("link: %s", strerror(errno));
	snprintf(force, sizeof(force), "--force-destroy=%s", self->other);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.file, NULL));
	EXPECT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.out, "forced: will overwrite ext4")) TH_LOG("stdout: %s", res.out);
	run_result_free(&res);

	ASSERT_EQ(0, unlink(self->other));
	ASSERT_EQ(0, run_quiet("cp %s %s", self->s.file, self->other));
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.file, NULL));
	EXPECT_EQ(2, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "names none of the targets")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(file, nonexistent_target)
{
	struct bq_guard_report rep;
	struct run_result res;

	PREP_READY(&self->p);
	EXPECT_EQ(-ENOENT, guard_lib(self->other, NULL, &rep));
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->other, NULL));
	EXPECT_EQ(2, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, self->other)) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(file, directory_target)
{
	struct bq_guard_report rep;
	struct run_result res;

	PREP_READY(&self->p);
	EXPECT_EQ(-EISDIR, guard_lib(self->s.dir, NULL, &rep));
	ASSERT_EQ(0, run_blkqual(&res, "guard", self->s.dir, NULL));
	EXPECT_EQ(2, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "directory")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(file, char_device_target)
{
	struct bq_guard_report rep;
	struct run_result res;

	PREP_READY(&self->p);
	EXPECT_EQ(-ENOTBLK, guard_lib("/dev/null", NULL, &rep));
	ASSERT_EQ(0, run_blkqual(&res, "guard", "/dev/null", NULL));
	EXPECT_EQ(2, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, "/dev/null")) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_F(file, force_naming_missing_path)
{
	char force[PATH_MAX + 32];
	struct run_result res;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->other);
	ASSERT_EQ(0, run_blkqual(&res, "guard", force, self->s.file, NULL));
	EXPECT_EQ(2, res.status);
	EXPECT_STREQ("", res.out);
	EXPECT_EQ(1, count_lines(res.err)) TH_LOG("stderr: %s", res.err);
	EXPECT_TRUE(contains(res.err, self->other)) TH_LOG("stderr: %s", res.err);
	run_result_free(&res);
}

TEST_HARNESS_MAIN
