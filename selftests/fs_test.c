// SPDX-License-Identifier: GPL-2.0-only
/*
 * fs_test.c - blkqual fs create|destroy on a scratch loop device: an XFS
 * with the asked stripe geometry, mounted, proven by xfs_info, and gone
 * again; other people's filesystems are left alone unless named.
 *
 * Each test runs in a private mount namespace, so a mount can never
 * outlive it.
 */
#include <sched.h>
#include <string.h>
#include <sys/mount.h>

#include "kselftest_harness.h"

#include "helpers/run.h"
#include "helpers/scratchdev.h"

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char mnt[300];
	char opt[320];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	if (need_program("mkfs.xfs"))
		prep_skip(&self->p, need_program("mkfs.xfs"));
	else if (need_program("xfs_info"))
		prep_skip(&self->p, need_program("xfs_info"));
	else if (need_program("xfs_spaceman"))
		prep_skip(&self->p, need_program("xfs_spaceman"));
	if (prep_ok(&self->p))
		scratch_device(&self->p, &self->s, SCRATCH_SIZE * 2);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "making mounts private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
	snprintf(self->mnt, sizeof(self->mnt), "%s/mnt", self->s.dir);
	snprintf(self->opt, sizeof(self->opt), "--mount=%s", self->mnt);
}

FIXTURE_TEARDOWN(dev)
{
	umount2(self->mnt, MNT_DETACH);
	rmdir(self->mnt);
	scratch_destroy(&self->s);
}

static bool mounted(const char *dir)
{
	char *mounts = slurp("/proc/self/mounts");
	bool found = mounts && strstr(mounts, dir);

	free(mounts);
	return found;
}

TEST_F(dev, aligned_xfs_made_mounted_and_destroyed)
{
	struct run_result r;
	const char *info[] = { "xfs_info", self->mnt, NULL };

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", "--su=64k", "--sw=4", self->opt,
				 self->s.dev, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "sunit 16, swidth 64 blocks of 4096")) TH_LOG("%s", r.out);
	run_result_free(&r);
	EXPECT_TRUE(mounted(self->mnt));
	/* xfs_info itself, not only blkqual's reading of it. */
	ASSERT_EQ(0, run_argv(info, &r));
	EXPECT_NE(NULL, strstr(r.out, "sunit=16")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "swidth=64 blks")) TH_LOG("%s", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "destroy", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_FALSE(mounted(self->mnt));
	/* Nothing left for the guard (or blkid) to find. */
	ASSERT_EQ(0, run_blkqual(&r, "guard", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_F(dev, large_stripe_unit_gets_small_log_stripe_unit)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", "--su=1m", "--sw=2", self->opt,
				 self->s.dev, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "sunit 256, swidth 512")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

TEST_F(dev, other_filesystems_left_alone_unless_named)
{
	char force[96];
	struct run_result r;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s.dev));
	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", self->opt, self->s.dev, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "destroy", self->s.dev, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "not a filesystem blkqual made")) TH_LOG("%s", r.err);
	run_result_free(&r);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", force, self->opt, self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST(bad_input)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", "--su=64k", "/dev/null", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "--su and --sw go together")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "frob", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
