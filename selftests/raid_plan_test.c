// SPDX-License-Identifier: GPL-2.0-only
/*
 * raid_plan_test.c - blkqual raid plan: the exact mdadm, mkfs.xfs and mount
 * commands and the geometry they should give, for four scratch members
 */
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define MEMBERS 4

FIXTURE(members)
{
	struct prep p;
	struct scratch s[MEMBERS];
};

FIXTURE_SETUP(members)
{
	for (int i = 0; i < MEMBERS; i++)
		scratch_init(&self->s[i]);
	/* The last member is smaller: two zones, so the layout matters. */
	for (int i = 0; i < MEMBERS && prep_ok(&self->p); i++)
		scratch_device(&self->p, &self->s[i], i == MEMBERS - 1 ? SCRATCH_SIZE / 2 :
						   SCRATCH_SIZE);
}

FIXTURE_TEARDOWN(members)
{
	for (int i = 0; i < MEMBERS; i++)
		scratch_destroy(&self->s[i]);
}

static int plan(struct __test_metadata *_metadata, FIXTURE_DATA(members) *self,
		struct run_result *r, const char *chunk, const char *output, int nr)
{
	const char *argv[16] = { blkqual_path(), "raid", "plan", chunk, "-o", output };
	int n = 6;

	for (int i = 0; i < nr; i++)
		argv[n++] = self->s[i].dev;
	argv[n] = NULL;
	return run_argv(argv, r);
}

TEST_F(members, equal_members_256k)
{
	char want[512];
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, plan(_metadata, self, &r, "--chunk=256k", "table", 3));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(want, sizeof(want), "mdadm --create /dev/md0 --run --level=0 --chunk=256K "
		 "--metadata=1.2 --raid-devices=3 %s %s %s\n", self->s[0].dev, self->s[1].dev,
		 self->s[2].dev);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "mkfs.xfs -L blkqual -d su=256k,sw=3 -l su=256k /dev/md0\n"));
	EXPECT_NE(NULL, strstr(r.out, "mount -o noatime,logbsize=256k /dev/md0 "));
	EXPECT_NE(NULL, strstr(r.out, "minimum_io_size 262144, optimal_io_size 786432"));
	/* 256 KiB in 4 KiB blocks: the sunit mkfs.xfs itself reports. */
	EXPECT_NE(NULL, strstr(r.out, "sunit 64 and swidth 192 blocks")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

TEST_F(members, large_chunk_uses_small_log_stripe_unit)
{
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, plan(_metadata, self, &r, "--chunk=1m", "json", 3));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(32768, json_int(root, "xfs.log_stripe_unit", 0));
	EXPECT_EQ(8, json_int(root, "xfs.log_sunit_blocks", 0));
	EXPECT_EQ(256, json_int(root, "xfs.sunit_blocks", 0));
	EXPECT_EQ(768, json_int(root, "xfs.swidth_blocks", 0));
	EXPECT_EQ(3LL << 20, json_int(root, "expected_geometry.optimal_io_size", 0));
	EXPECT_STREQ("su=1m,sw=3", json_object_get_string(json_object_array_get_idx(
		json_object_object_get(root, "mkfs"), 4)));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(members, unequal_members_name_the_layout)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, plan(_metadata, self, &r, "--chunk=64k", "table", MEMBERS));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "--layout=original")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

TEST_F(members, bad_input)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, plan(_metadata, self, &r, "--chunk=3k", "table", 2));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
	ASSERT_EQ(0, plan(_metadata, self, &r, "--chunk=64k", "table", 1));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "at least two members"));
	run_result_free(&r);
}

/* Without md, raid create says so in one line and touches nothing. */
TEST_F(members, create_without_md_fails_cleanly)
{
	uint64_t before, after;
	struct run_result r;

	PREP_READY(&self->p);
	if (!access("/proc/mdstat", F_OK))
		SKIP(return, "this kernel has md (the VM tests create arrays for real)");
	ASSERT_EQ(0, checksum_path(self->s[0].dev, &before));
	ASSERT_EQ(0, run_blkqual(&r, "raid", "create", "--chunk=64k", self->s[0].dev,
				 self->s[1].dev, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "md driver is not available")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "--stripe")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path(self->s[0].dev, &after));
	EXPECT_EQ(before, after);
}

TEST_HARNESS_MAIN
