// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_passthru_test.c - the NVMe Read and Write commands io_uring_cmd
 * sends, the ngXnY to nvmeXnY mapping, the Identify Namespace decoding,
 * and that io_uring_cmd refuses anything but an NVMe generic device
 *
 * The commands are checked field by field against the NVMe base
 * specification's layout; the live path runs in the VM against QEMU's
 * NVMe controller.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "config-host.h"
#include "device/device_int.h"
#include "internal.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifdef HAVE_NVME_URING_CMD
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>

static uint8_t buf[4096] __attribute__((aligned(4096)));

/* Everything the builder must leave zero is zero. */
static void expect_rest_zero(struct __test_metadata *_metadata, const struct nvme_uring_cmd *c)
{
	EXPECT_EQ(0, c->flags);
	EXPECT_EQ(0, c->rsvd1);
	EXPECT_EQ(0, c->cdw2);
	EXPECT_EQ(0, c->cdw3);
	EXPECT_EQ(0, c->metadata);
	EXPECT_EQ(0, c->metadata_len);
	EXPECT_EQ(0, c->cdw13);
	EXPECT_EQ(0, c->cdw14);
	EXPECT_EQ(0, c->cdw15);
	EXPECT_EQ(0, c->timeout_ms);
	EXPECT_EQ(0, c->rsvd2);
}

static void fill_garbage(struct nvme_uring_cmd *c)
{
	/* A reused SQE holds the last command: the builder must clear it. */
	memset(c, 0xa5, sizeof(*c));
}

TEST(read_command)
{
	struct nvme_uring_cmd c;

	fill_garbage(&c);
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 10 * 512, 8 * 512, 512, buf));
	EXPECT_EQ(0x02, c.opcode);
	EXPECT_EQ(1, c.nsid);
	EXPECT_EQ((uint64_t)(uintptr_t)buf, c.addr);
	EXPECT_EQ(4096, c.data_len);
	EXPECT_EQ(10, c.cdw10);
	EXPECT_EQ(0, c.cdw11);
	EXPECT_EQ(7, c.cdw12);
	expect_rest_zero(_metadata, &c);
}

TEST(write_command)
{
	struct nvme_uring_cmd c;

	fill_garbage(&c);
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, true, 7, 3 * 4096, 4096, 4096, buf));
	EXPECT_EQ(0x01, c.opcode);
	EXPECT_EQ(7, c.nsid);
	EXPECT_EQ((uint64_t)(uintptr_t)buf, c.addr);
	EXPECT_EQ(4096, c.data_len);
	EXPECT_EQ(3, c.cdw10);
	EXPECT_EQ(0, c.cdw11);
	EXPECT_EQ(0, c.cdw12);
	expect_rest_zero(_metadata, &c);
}

/* A Zone Append carries its data and names the zone's first block. */
TEST(zone_append_command)
{
	struct nvme_uring_cmd c;

	fill_garbage(&c);
	ASSERT_EQ(0, bq_nvme_io_cmd(&c, BQ_NVME_OP_ZONE_APPEND, 1, 64ULL << 20, 8192, 4096,
				    buf));
	EXPECT_EQ(0x7d, c.opcode);
	EXPECT_EQ(1, c.nsid);
	EXPECT_EQ((uint64_t)(uintptr_t)buf, c.addr);
	EXPECT_EQ(8192, c.data_len);
	EXPECT_EQ(16384, c.cdw10);
	EXPECT_EQ(0, c.cdw11);
	EXPECT_EQ(1, c.cdw12);
	expect_rest_zero(_metadata, &c);
}

TEST(starting_lba_above_2_32_blocks)
{
	uint64_t slba = (5ULL << 32) | 0x1234abcdULL;
	struct nvme_uring_cmd c;

	/* cdw10 is the low half of the 64-bit SLBA, cdw11 the high half. */
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, slba * 4096, 4096, 4096, buf));
	EXPECT_EQ(0x1234abcdU, c.cdw10);
	EXPECT_EQ(5, c.cdw11);
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, true, 1, slba * 512, 512, 512, buf));
	EXPECT_EQ(0x1234abcdU, c.cdw10);
	EXPECT_EQ(5, c.cdw11);
	/* The last block a 64-bit LBA can name. */
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, UINT64_MAX / 512 * 512, 512, 512, buf));
	EXPECT_EQ(0xffffffffU, c.cdw10);
	EXPECT_EQ(0x007fffffU, c.cdw11);
}

TEST(block_count_is_0_based)
{
	struct nvme_uring_cmd c;

	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 0, 512, 512, buf));
	EXPECT_EQ(0, c.cdw12);
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 0, 2 * 512, 512, buf));
	EXPECT_EQ(1, c.cdw12);
	/* 65536 blocks is the most NLB can say: 0xffff, nothing above bit 15. */
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 0, 65536 * 512, 512, buf));
	EXPECT_EQ(0xffff, c.cdw12);
	EXPECT_EQ(32U << 20, c.data_len);
}

TEST(lba_sizes_512_and_4096)
{
	struct nvme_uring_cmd c;

	/* The same bytes, counted in blocks of each size. */
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 1 << 20, 64 << 10, 512, buf));
	EXPECT_EQ(2048, c.cdw10);
	EXPECT_EQ(127, c.cdw12);
	EXPECT_EQ(64 << 10, c.data_len);
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 1 << 20, 64 << 10, 4096, buf));
	EXPECT_EQ(256, c.cdw10);
	EXPECT_EQ(15, c.cdw12);
	EXPECT_EQ(64 << 10, c.data_len);
}

TEST(misaligned_rejected_and_command_untouched)
{
	struct nvme_uring_cmd c, before;

	fill_garbage(&c);
	before = c;
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 512, 4096, 4096, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 0, 2048, 4096, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, true, 1, 0, 1000, 512, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, true, 1, 100, 512, 512, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 0, 0, 512, buf));
	EXPECT_EQ(0, memcmp(&c, &before, sizeof(c)));
}

TEST(oversize_rejected)
{
	struct nvme_uring_cmd c;

	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 0, 65537 * 512, 512, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, true, 1, 0, (32U << 20) + 512, 512, buf));
	EXPECT_EQ(0, bq_nvme_rw_cmd(&c, false, 1, 0, 65536U * 4096 - 4096, 4096, buf));
	EXPECT_EQ(65534, c.cdw12);
}

/* Other than a power of two, a block is an extended LBA: data and metadata. */
TEST(extended_lba_blocks_are_divided)
{
	struct nvme_uring_cmd c;

	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 0, 4096, 0, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 0, 1000, 520, buf));
	EXPECT_EQ(-EINVAL, bq_nvme_rw_cmd(&c, false, 1, 512, 1040, 520, buf));
	ASSERT_EQ(0, bq_nvme_rw_cmd(&c, true, 1, 3 * 4160, 2 * 4160, 4160, buf));
	EXPECT_EQ(3, c.cdw10);
	EXPECT_EQ(0, c.cdw11);
	EXPECT_EQ(1, c.cdw12);
	EXPECT_EQ(2 * 4160, c.data_len);
}
#else
TEST(commands)
{
	SKIP(return, "built without struct nvme_uring_cmd (kernel headers older than 5.19)");
}
#endif

TEST(ng_maps_to_nvme)
{
	char blk[64];

	ASSERT_EQ(0, bq_nvme_ng_to_blk("/dev/ng0n1", blk, sizeof(blk)));
	EXPECT_STREQ("/dev/nvme0n1", blk);
	ASSERT_EQ(0, bq_nvme_ng_to_blk("ng12n345", blk, sizeof(blk)));
	EXPECT_STREQ("nvme12n345", blk);
	ASSERT_EQ(0, bq_nvme_ng_to_blk("/tmp/dev/ng1n2", blk, sizeof(blk)));
	EXPECT_STREQ("/tmp/dev/nvme1n2", blk);
}

TEST(other_names_refused)
{
	static const char *const bad[] = {
		"/dev/nvme0n1", "/dev/ng0", "/dev/ng0n", "/dev/ngn1", "/dev/ng0n1p1",
		"/dev/ng0c1n1", "/dev/ngXnY", "/dev/ng0n1/", "ng", "", "/dev/null",
	};
	char blk[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, bq_nvme_ng_to_blk(bad[i], blk, sizeof(blk)))
			TH_LOG("%s", bad[i]);
	}
}

TEST(short_buffer)
{
	char blk[13];

	/* "/dev/nvme0n1" and its NUL are 13 bytes. */
	EXPECT_EQ(-ENAMETOOLONG, bq_nvme_ng_to_blk("/dev/ng0n1", blk, 12));
	EXPECT_EQ(0, bq_nvme_ng_to_blk("/dev/ng0n1", blk, sizeof(blk)));
	EXPECT_STREQ("/dev/nvme0n1", blk);
}

#ifdef CONFIG_LIBNVME
#include <endian.h>
#include <nvme/types.h>

TEST(namespace_format)
{
	struct nvme_id_ns id;
	struct bq_nvme_ns ns;

	memset(&id, 0, sizeof(id));
	id.nsze = htole64(1ULL << 33);
	id.nlbaf = 1;
	id.flbas = 1;
	id.lbaf[0].ds = 9;
	id.lbaf[1].ds = 12;
	bq_nvme_ns_decode(&id, &ns);
	EXPECT_EQ(1ULL << 33, ns.nsze);
	EXPECT_EQ(4096, ns.lba_size);
	EXPECT_EQ(0, ns.lba_meta);
	EXPECT_EQ(1, ns.lbaf);
}

TEST(namespace_format_high_flbas_bits)
{
	struct nvme_id_ns id;
	struct bq_nvme_ns ns;

	/* FLBAS bits 6:5 are bits 5:4 of the index; bit 4 (extended LBA) is not. */
	memset(&id, 0, sizeof(id));
	id.nlbaf = 20;
	id.flbas = (1 << 5) | (1 << 4) | 2;
	id.lbaf[2].ds = 9;
	id.lbaf[18].ds = 12;
	id.lbaf[18].ms = htole16(16);
	bq_nvme_ns_decode(&id, &ns);
	EXPECT_EQ(18, ns.lbaf);
	EXPECT_EQ(4096, ns.lba_size);
	EXPECT_EQ(16, ns.lba_meta);
}

/* A Zone Descriptor: type and state in their nibbles, blocks little-endian. */
TEST(zone_descriptor)
{
	struct nvme_zns_desc d;
	struct bq_nvme_zone z;

	memset(&d, 0, sizeof(d));
	d.zt = 0x2;
	d.zs = 0x2 << 4;
	d.zslba = htole64(3 * 16384);
	d.zcap = htole64(12288);
	d.wp = htole64(3 * 16384 + 100);
	bq_nvme_zns_decode(&d, &z);
	EXPECT_EQ(2, z.type);
	EXPECT_EQ(2, z.state);		/* implicitly open: BLK_ZONE_COND_IMP_OPEN */
	EXPECT_EQ(3 * 16384, z.zslba);
	EXPECT_EQ(12288, z.zcap);
	EXPECT_EQ(3 * 16384 + 100, z.wp);
	d.zs = 0xe << 4;
	bq_nvme_zns_decode(&d, &z);
	EXPECT_EQ(0xe, z.state);	/* full: BLK_ZONE_COND_FULL */
}
#endif

static void expect_refused(struct __test_metadata *_metadata, const char *target,
			   const char *rw, const char *needle)
{
	char opt[320];
	struct run_result r;

	snprintf(opt, sizeof(opt), "--filename=%s", target);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=io_uring_cmd", opt, rw,
				 "--io_size=64k", "--name=x", NULL));
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, needle)) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
}

#define NEED_NG "io_uring_cmd needs an NVMe generic device (/dev/ngXnY)"

TEST(other_character_device_refused)
{
	expect_refused(_metadata, "/dev/null", "--rw=read", NEED_NG);
	expect_refused(_metadata, "/dev/null", "--rw=write", NEED_NG);
}

TEST(unsupported_options_refused)
{
	char opt[] = "--filename=/dev/null";
	struct run_result r;

	/* Checked before the target: nothing about the device matters. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=io_uring_cmd", opt,
				 "--rw=write", "--fsync=1", "--name=x", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "fsync: not supported with ioengine=io_uring_cmd"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
}

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, 16 << 20);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

TEST_F(dev, block_device_and_file_refused)
{
	uint64_t before, after;

	PREP_READY(&self->p);
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));
	expect_refused(_metadata, self->s.dev, "--rw=read", NEED_NG);
	expect_refused(_metadata, self->s.dev, "--rw=randwrite", NEED_NG);
	expect_refused(_metadata, self->s.file, "--rw=write", NEED_NG);
	ASSERT_EQ(0, checksum_path(self->s.dev, &after));
	EXPECT_EQ(before, after);
}

TEST_HARNESS_MAIN
