// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs_test.c - attribute reading, mount table and swap parsing, name order
 *
 * Small trees are built in a temp dir and the context's roots moved there,
 * the same mechanism the captured fixtures use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../lib/internal.h"
#include "helpers/tree.h"

FIXTURE(tree)
{
	char dir[64];
	struct bq_ctx *ctx;
};

FIXTURE_SETUP(tree)
{
	struct bq_roots roots;
	char sys[128], proc[128], dev[128];

	snprintf(self->dir, sizeof(self->dir), "/tmp/blkqual-sysfs.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(sys, sizeof(sys), "%s/sys", self->dir);
	snprintf(proc, sizeof(proc), "%s/proc", self->dir);
	snprintf(dev, sizeof(dev), "%s/dev", self->dir);
	tree_put(self->dir, "sys/attr/padded", "INTEL(R) \n");
	tree_put(self->dir, "sys/attr/scheduler", "none [mq-deadline] kyber\n");
	tree_put(self->dir, "sys/attr/plain", "write back\n");
	tree_put(self->dir, "sys/attr/num", "4096\n");
	tree_put(self->dir, "sys/attr/neg", "-1\n");
	tree_put(self->dir, "proc/self/mountinfo",
	    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
	    "30 22 7:3 / /mnt/with\\040space rw master:2 - xfs /dev/loop3 rw\n"
	    "31 22 0:5 / /proc rw - proc proc rw\n"
	    "garbage line without separator\n");
	tree_put(self->dir, "proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/zram0                              partition\t4194300\t\t0\t\t100\n"
	    "/swap\\040file                          file\t\t1048572\t\t0\t\t-2\n");
	mkdir(dev, 0755);
	roots = (struct bq_roots){ .sysfs = sys, .proc = proc, .dev = dev };
	ASSERT_EQ(0, bq_ctx_new(&self->ctx, &roots));
}

FIXTURE_TEARDOWN(tree)
{
	bq_ctx_free(self->ctx);
	if (self->dir[0] && tree_remove(self->dir))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(tree, moved_root_is_not_live)
{
	EXPECT_FALSE(bq_ctx_is_live(self->ctx));
}

TEST_F(tree, read_trims_padding)
{
	char path[PATH_MAX], buf[64];

	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/padded");
	ASSERT_EQ(0, bq_read_str(path, buf, sizeof(buf)));
	EXPECT_STREQ("INTEL(R)", buf);
}

TEST_F(tree, bracketed_selection)
{
	char path[PATH_MAX], buf[64];

	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/scheduler");
	ASSERT_EQ(0, bq_read_bracketed(path, buf, sizeof(buf)));
	EXPECT_STREQ("mq-deadline", buf);
	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/plain");
	ASSERT_EQ(0, bq_read_bracketed(path, buf, sizeof(buf)));
	EXPECT_STREQ("write back", buf);
}

TEST_F(tree, numbers)
{
	char path[PATH_MAX];
	uint64_t v;
	int i;

	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/num");
	ASSERT_EQ(0, bq_read_u64(path, &v));
	EXPECT_EQ(4096, v);
	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/neg");
	EXPECT_EQ(-EINVAL, bq_read_u64(path, &v));
	ASSERT_EQ(0, bq_read_int(path, &i));
	EXPECT_EQ(-1, i);
	bq_path(path, sizeof(path), self->ctx->sysfs, "/attr/missing");
	EXPECT_EQ(-ENOENT, bq_read_u64(path, &v));
}

TEST_F(tree, mountinfo_by_device_number)
{
	struct bq_mounts mt;

	ASSERT_EQ(0, bq_mounts_read(self->ctx, &mt));
	ASSERT_EQ(3, mt.nr);
	EXPECT_EQ(makedev(254, 0), mt.m[0].devt);
	EXPECT_STREQ("/", mt.m[0].target);
	EXPECT_STREQ("/dev/root", mt.m[0].source);
	/* Octal escapes in mount points are decoded. */
	EXPECT_STREQ("/mnt/with space", mt.m[1].target);
	EXPECT_STREQ("xfs", mt.m[1].fstype);
	EXPECT_EQ(makedev(7, 3), mt.m[1].devt);
	bq_mounts_release(&mt);
}

TEST_F(tree, swaps)
{
	struct bq_mounts mt;

	ASSERT_EQ(0, bq_mounts_read(self->ctx, &mt));
	ASSERT_EQ(2, mt.swaps.n);
	EXPECT_STREQ("/swap file", mt.swaps.v[1]);
	EXPECT_TRUE(bq_swap_matches(self->ctx, &mt, "zram0", makedev(253, 0)));
	EXPECT_FALSE(bq_swap_matches(self->ctx, &mt, "zram1", makedev(253, 1)));
	bq_mounts_release(&mt);
}

TEST_F(tree, missing_proc_files_mean_nothing_mounted)
{
	struct bq_roots roots = { .sysfs = "/nonexistent", .proc = "/nonexistent" };
	struct bq_mounts mt;
	struct bq_ctx *ctx;

	ASSERT_EQ(0, bq_ctx_new(&ctx, &roots));
	ASSERT_EQ(0, bq_mounts_read(ctx, &mt));
	EXPECT_EQ(0, mt.nr);
	EXPECT_EQ(0, mt.swaps.n);
	bq_ctx_free(ctx);
}

TEST(natural_order)
{
	EXPECT_LT(bq_natural_cmp("nvme2n1", "nvme10n1"), 0);
	EXPECT_LT(bq_natural_cmp("sdb", "sdaa"), 0);
	EXPECT_LT(bq_natural_cmp("sdz", "sdaa"), 0);
	EXPECT_LT(bq_natural_cmp("loop9", "loop10"), 0);
	EXPECT_EQ(0, bq_natural_cmp("md0", "md0"));
	EXPECT_GT(bq_natural_cmp("vdb", "vda"), 0);
}

TEST(env_moves_the_root)
{
	struct bq_ctx *ctx;

	setenv("BLKQUAL_SYSFS_ROOT", "/tmp/fixture-sys/", 1);
	ASSERT_EQ(0, bq_ctx_new(&ctx, NULL));
	EXPECT_STREQ("/tmp/fixture-sys", bq_ctx_root(ctx, 's'));
	EXPECT_STREQ("/proc", bq_ctx_root(ctx, 'p'));
	EXPECT_FALSE(bq_ctx_is_live(ctx));
	bq_ctx_free(ctx);
	unsetenv("BLKQUAL_SYSFS_ROOT");
	ASSERT_EQ(0, bq_ctx_new(&ctx, NULL));
	EXPECT_TRUE(bq_ctx_is_live(ctx));
	bq_ctx_free(ctx);
}

TEST_HARNESS_MAIN
