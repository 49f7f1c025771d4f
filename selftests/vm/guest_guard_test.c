// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_guard_test.c - the safety guard against real md, XFS and mounts (VM)
 *
 * Only the VM has md; an XFS mount on an NVMe namespace is as real as it
 * gets.  Every test leaves the devices as it found them.
 */
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

TEST_HARNESS_MAIN
