// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_inventory_test.c - blkqual list and info on real drivers (VM guest)
 *
 * Runs inside the VM of selftests/vm/vm.sh: QEMU NVMe controllers on NUMA
 * node -1 (root bus) and 1 (behind a pxb-pcie bridge) with poll queues,
 * scsi_debug posing as an Intel SSD 910 (four LUNs, one host), four
 * null_blk devices with poll queues, and md RAID0 built from those.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme0n1", F_OK)) \
		SKIP(return, "not in the blkqual VM (no nvme0n1); run 'make check-vm'"); \
} while (0)

TEST(nvme_namespaces_on_their_nodes)
{
	json_object *root, *devs;
	int seen = 0, fdp = 0;

	NEED_GUEST();
	root = blkqual_json("list", NULL);
	ASSERT_NE(NULL, root);
	json_object_object_get_ex(root, "devices", &devs);
	for (size_t i = 0; i < json_object_array_length(devs); i++) {
		json_object *d = json_object_array_get_idx(devs, i);
		const char *serial = json_str(d, "serial");

		if (strcmp(json_str(d, "kind"), "nvme"))
			continue;
		/* guest_nvme_pi_test's controller, with namespaces of its own. */
		if (serial && !strcmp(serial, "BQNVMEPI"))
			continue;
		seen++;
		EXPECT_STREQ("QEMU NVMe Ctrl", json_str(d, "model"));
		EXPECT_NE(NULL, json_str(d, "firmware"));
		EXPECT_EQ(2, json_int(d, "nvme.poll_queues", -1));
		ASSERT_NE(NULL, serial);
		/* BQNVMEQ1 has one I/O queue in all: none is left to poll. */
		EXPECT_EQ(strcmp(serial, "BQNVMEQ1") ? 1 : 0, json_int(d, "queue.io_poll", -1))
			TH_LOG("%s", serial);
		/*
		 * BQNVME1 and BQNVMEQ1 sit behind the pxb-pcie bridge placed
		 * on node 1, BQNVMEZNS (the zoned namespace) and BQNVMEFDP
		 * (the FDP subsystem's, where QEMU has FDP) behind one on node 0.
		 */
		fdp += !strcmp(serial, "BQNVMEFDP");
		EXPECT_EQ(!strcmp(serial, "BQNVME1") || !strcmp(serial, "BQNVMEQ1") ? 1 :
			  !strcmp(serial, "BQNVMEZNS") || !strcmp(serial, "BQNVMEFDP") ? 0 : -1,
			  json_int(d, "numa_node", -2))
			TH_LOG("%s on node %lld", serial, json_int(d, "numa_node", -2));
	}
	EXPECT_EQ(4 + fdp, seen);
	json_object_put(root);
}

TEST(scsi_luns_grouped_as_one_card)
{
	json_object *root, *adapters, *card, *devs, *members;
	unsigned int targets = 0;

	NEED_GUEST();
	root = blkqual_json("list", NULL);
	ASSERT_NE(NULL, root);
	json_object_object_get_ex(root, "adapters", &adapters);
	card = json_find_by(adapters, "model", "INTEL(R) SSD 910 200GB");
	ASSERT_NE(NULL, card) TH_LOG("no adapter with the SSD 910 identity");
	EXPECT_STREQ("scsi-host", json_str(card, "kind"));
	EXPECT_STREQ("scsi_debug", json_str(card, "driver"));
	EXPECT_STREQ("a40D", json_str(card, "firmware"));
	json_object_object_get_ex(card, "devices", &members);
	ASSERT_EQ(4, json_object_array_length(members));
	json_object_object_get_ex(root, "devices", &devs);
	/* Probing is asynchronous: names go to targets in any order. */
	for (int i = 0; i < 4; i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(members, i));
		json_object *d = json_find_by(devs, "name", name);
		unsigned int h, c, t, l;
		const char *hctl;

		ASSERT_NE(NULL, d) TH_LOG("%s missing", name);
		hctl = json_str(d, "scsi.hctl");
		ASSERT_NE(NULL, hctl);
		ASSERT_EQ(4, sscanf(hctl, "%u:%u:%u:%u", &h, &c, &t, &l)) TH_LOG("%s", hctl);
		ASSERT_GT(4, t);
		EXPECT_EQ(0, l);
		targets |= 1u << t;
	}
	EXPECT_EQ(0xf, targets) TH_LOG("targets seen: %#x", targets);
	json_object_put(root);
}

TEST(null_blk_devices_poll)
{
	json_object *root, *devs;

	NEED_GUEST();
	root = blkqual_json("list", NULL);
	ASSERT_NE(NULL, root);
	json_object_object_get_ex(root, "devices", &devs);
	for (int i = 0; i < 4; i++) {
		char name[16];
		json_object *d;

		snprintf(name, sizeof(name), "nullb%d", i);
		d = json_find_by(devs, "name", name);
		ASSERT_NE(NULL, d) TH_LOG("%s missing", name);
		EXPECT_STREQ("null_blk", json_str(d, "kind"));
		EXPECT_EQ(1, json_int(d, "queue.io_poll", -1));
		EXPECT_EQ(1LL << 30, json_int(d, "size", 0));
	}
	json_object_put(root);
}

TEST(md0_listed_once_created)
{
	json_object *root, *devs, *md, *member;

	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("mdadm --create /dev/md0 --run --level=0 --chunk=256 "
			       "--metadata=1.2 --raid-devices=4 "
			       "/dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3"));
	root = blkqual_json("list", NULL);
	run_quiet("mdadm --stop /dev/md0");
	run_quiet("mdadm --zero-superblock /dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3");
	ASSERT_NE(NULL, root);
	json_object_object_get_ex(root, "devices", &devs);
	md = json_find_by(devs, "name", "md0");
	ASSERT_NE(NULL, md);
	EXPECT_STREQ("md", json_str(md, "kind"));
	EXPECT_STREQ("raid0", json_str(md, "md.level"));
	EXPECT_EQ(262144, json_int(md, "md.chunk_size", 0));
	EXPECT_EQ(4, json_int(md, "md.raid_disks", 0));
	EXPECT_EQ(262144, json_int(md, "queue.minimum_io_size", 0));
	EXPECT_EQ(1048576, json_int(md, "queue.optimal_io_size", 0));
	member = json_find_by(devs, "name", "nullb2");
	ASSERT_NE(NULL, member);
	EXPECT_STREQ("md0", json_object_get_string(json_object_array_get_idx(
		json_object_object_get(member, "holders"), 0)));
	json_object_put(root);
}

TEST(nvme_identify_and_smart_through_libnvme)
{
	json_object *root;

	NEED_GUEST();
	root = blkqual_json("info", "/dev/nvme0n1");
	ASSERT_NE(NULL, root);
	ASSERT_NE(NULL, json_object_object_get(root, "nvme_health"))
		TH_LOG("no health: %s", json_str(root, "nvme_health_error"));
	EXPECT_STREQ("QEMU NVMe Ctrl", json_str(root, "nvme_health.identify.model"));
	EXPECT_STREQ(json_str(root, "device.serial"), json_str(root, "nvme_health.identify.serial"));
	EXPECT_EQ(512, json_int(root, "nvme_health.identify.lba_size", 0));
	EXPECT_EQ((1LL << 30) / 512, json_int(root, "nvme_health.identify.nsze", 0));
	EXPECT_LT(0, json_int(root, "nvme_health.smart.temperature_c", -300));
	EXPECT_GT(150, json_int(root, "nvme_health.smart.temperature_c", 300));
	EXPECT_EQ(0, json_int(root, "nvme_health.smart.critical_warning", -1));
	/* The host section is there too, and sees the VM's two NUMA nodes. */
	EXPECT_EQ(2, json_object_array_length(json_object_object_get(
		json_object_object_get(root, "host"), "numa_nodes")));
	json_object_put(root);
}

TEST_HARNESS_MAIN
