// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_raid_create_test.c - blkqual raid create and destroy with the real
 * md driver (VM guest): the array, its queue limits and the XFS on it are
 * what raid plan promised, and destroy leaves the members blank.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

FIXTURE(members)
{
	int unused;
};

FIXTURE_SETUP(members)
{
}

/* Whatever a failed test left, the next program in the guest gets clean members. */
FIXTURE_TEARDOWN(members)
{
	if (system("umount /mnt/raid >/dev/null 2>&1; mdadm --stop /dev/md0 >/dev/null 2>&1; "
		   "mdadm --zero-superblock /dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3 "
		   ">/dev/null 2>&1"))
		TH_LOG("cleanup incomplete");
}

#define NEED_GUEST() do { \
	if (access("/sys/block/nullb3", F_OK) || access("/proc/mdstat", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

TEST_F(members, create_check_destroy)
{
	struct run_result r;
	json_object *root, *md;

	NEED_GUEST();
	ASSERT_EQ(0, run_blkqual(&r, "raid", "create", "--chunk=256k", "--md=/dev/md0",
				 "--mount=/mnt/raid", "/dev/nullb0", "/dev/nullb1", "/dev/nullb2",
				 "/dev/nullb3", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	run_result_free(&r);
	root = blkqual_json("list", NULL);
	ASSERT_NE(NULL, root);
	md = json_find_by(json_object_object_get(root, "devices"), "name", "md0");
	ASSERT_NE(NULL, md);
	EXPECT_EQ(262144, json_int(md, "queue.minimum_io_size", 0));
	EXPECT_EQ(1048576, json_int(md, "queue.optimal_io_size", 0));
	EXPECT_STREQ("/mnt/raid", json_object_get_string(json_object_array_get_idx(
		json_object_object_get(md, "mounts"), 0)));
	json_object_put(root);
	/* Members are in use now: the guard must refuse them. */
	ASSERT_EQ(0, run_blkqual(&r, "guard", "/dev/nullb2", NULL));
	EXPECT_EQ(1, r.status);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "raid", "destroy", "/dev/md0", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* Stopped and zeroed: the members are blank again. */
	ASSERT_EQ(0, run_blkqual(&r, "guard", "/dev/nullb0", "/dev/nullb3", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_F(members, members_holding_data_are_refused)
{
	struct run_result r;

	NEED_GUEST();
	ASSERT_EQ(0, system("mkfs.xfs -q -f /dev/nullb1 >/dev/null 2>&1"));
	ASSERT_EQ(0, run_blkqual(&r, "raid", "create", "--chunk=64k", "/dev/nullb0", "/dev/nullb1",
				 NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "xfs")) TH_LOG("%s", r.err);
	EXPECT_EQ(-1, access("/sys/block/md0", F_OK));
	run_result_free(&r);
	ASSERT_EQ(0, system("dd if=/dev/zero of=/dev/nullb1 bs=1M count=4 oflag=direct "
			    ">/dev/null 2>&1"));
}

/* stripe-tune through md itself: an array per chunk, measured, taken down. */
TEST_F(members, stripe_tune_through_md)
{
	struct run_result r;
	json_object *root;

	NEED_GUEST();
	ASSERT_EQ(0, run_blkqual(&r, "stripe-tune", "/dev/nullb0,/dev/nullb1,/dev/nullb2,/dev/nullb3",
				 "--backend=md", "--chunks=64k,256k", "-o", "json",
				 "--rw=randwrite", "--bs=4k", "--iodepth=8", "--direct=1",
				 "--io_size=4m", "--name=t", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(2, (int)json_object_array_length(json_object_object_get(root, "chunks")));
	EXPECT_LT(0, json_int(json_object_array_get_idx(json_object_object_get(root, "chunks"),
							0), "iops", 0));
	json_object_put(root);
	run_result_free(&r);
	/* Each array was taken down again. */
	EXPECT_EQ(-1, access("/sys/block/md0", F_OK));
}

TEST_HARNESS_MAIN
