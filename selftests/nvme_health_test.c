// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_health_test.c - decoding NVMe identify data and the SMART log
 *
 * The pages are built here as a controller would return them (little
 * endian, space-padded strings, 128-bit counters); the live path through
 * libnvme runs in the VM tests against QEMU's NVMe controller.
 */
#include <endian.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "config-host.h"
#include "device/device_int.h"

#ifdef CONFIG_LIBNVME
#include <nvme/types.h>

static void pad(char *dst, size_t len, const char *s)
{
	memset(dst, ' ', len);
	memcpy(dst, s, strlen(s));
}

static void le128(uint8_t b[16], uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < 8; i++) {
		b[i] = (uint8_t)(lo >> (8 * i));
		b[8 + i] = (uint8_t)(hi >> (8 * i));
	}
}

FIXTURE(pages)
{
	struct nvme_id_ctrl ctrl;
	struct nvme_id_ns ns;
	struct nvme_smart_log smart;
};

FIXTURE_SETUP(pages)
{
	memset(&self->ctrl, 0, sizeof(self->ctrl));
	memset(&self->ns, 0, sizeof(self->ns));
	memset(&self->smart, 0, sizeof(self->smart));
	self->ctrl.vid = htole16(0x8086);
	self->ctrl.ssvid = htole16(0x8086);
	pad(self->ctrl.mn, sizeof(self->ctrl.mn), "INTEL SSDPE2KX040T8");
	pad(self->ctrl.sn, sizeof(self->ctrl.sn), "PHLJ912300AB4P0DGN");
	pad(self->ctrl.fr, sizeof(self->ctrl.fr), "VDV10131");
	self->ctrl.nn = htole32(128);
	self->ctrl.mdts = 5;
	self->ctrl.vwc = 1;
	self->ns.nsze = htole64(937684566ULL);
	self->ns.ncap = htole64(937684566ULL);
	self->ns.nuse = htole64(1000);
	self->ns.nlbaf = 1;
	self->ns.flbas = 1;
	self->ns.lbaf[0].ds = 9;
	self->ns.lbaf[1].ds = 12;
	self->ns.lbaf[1].ms = htole16(8);
	self->smart.temperature[0] = (uint8_t)(310 & 0xff);
	self->smart.temperature[1] = (uint8_t)(310 >> 8);
	self->smart.avail_spare = 100;
	self->smart.spare_thresh = 10;
	self->smart.percent_used = 3;
	le128(self->smart.data_units_read, 2000, 0);
	le128(self->smart.data_units_written, 1, 0);
	le128(self->smart.power_on_hours, 12345, 0);
	le128(self->smart.unsafe_shutdowns, 7, 0);
	le128(self->smart.media_errors, 0, 0);
	le128(self->smart.host_reads, 5, 1);
}

FIXTURE_TEARDOWN(pages)
{
}

TEST_F(pages, identify_strings_are_trimmed)
{
	struct bq_nvme_health h;

	bq_nvme_health_decode(&self->ctrl, &self->ns, &self->smart, &h);
	EXPECT_STREQ("INTEL SSDPE2KX040T8", h.model);
	EXPECT_STREQ("PHLJ912300AB4P0DGN", h.serial);
	EXPECT_STREQ("VDV10131", h.firmware);
	EXPECT_EQ(0x8086, h.vid);
	EXPECT_EQ(128, h.nn);
	EXPECT_EQ(1, h.vwc);
}

TEST_F(pages, lba_format_in_use)
{
	struct bq_nvme_health h;

	bq_nvme_health_decode(&self->ctrl, &self->ns, &self->smart, &h);
	EXPECT_EQ(2, h.nr_lbaf);
	EXPECT_EQ(1, h.cur_lbaf);
	EXPECT_EQ(4096, h.lba_size);
	EXPECT_EQ(8, h.lba_meta);
	EXPECT_EQ(937684566ULL, h.nsze);
}

TEST_F(pages, flbas_high_bits_extend_the_index)
{
	struct bq_nvme_health h;

	/* NVMe 2.0: FLBAS bits 6:5 are the upper bits of a format index >= 16. */
	self->ns.nlbaf = 17;
	self->ns.flbas = (1 << 5) | 1;
	self->ns.lbaf[17].ds = 12;
	self->ns.lbaf[17].ms = htole16(64);
	bq_nvme_health_decode(&self->ctrl, &self->ns, &self->smart, &h);
	EXPECT_EQ(17, h.cur_lbaf);
	EXPECT_EQ(64, h.lba_meta);
}

TEST_F(pages, smart_units)
{
	struct bq_nvme_health h;

	bq_nvme_health_decode(&self->ctrl, &self->ns, &self->smart, &h);
	EXPECT_EQ(37, h.temperature);	/* 310 K */
	EXPECT_EQ(100, h.avail_spare);
	EXPECT_EQ(10, h.spare_thresh);
	EXPECT_EQ(3, h.percent_used);
	EXPECT_EQ(2000ULL * 512000, h.data_read);	/* units of 1000 x 512 B */
	EXPECT_EQ(512000, h.data_written);
	EXPECT_EQ(12345, h.power_on_hours);
	EXPECT_EQ(7, h.unsafe_shutdowns);
}

TEST_F(pages, counters_past_64_bits_saturate)
{
	struct bq_nvme_health h;

	bq_nvme_health_decode(&self->ctrl, &self->ns, &self->smart, &h);
	EXPECT_EQ(UINT64_MAX, h.host_reads);
}

TEST_F(pages, no_namespace_page)
{
	struct bq_nvme_health h;

	bq_nvme_health_decode(&self->ctrl, NULL, &self->smart, &h);
	EXPECT_EQ(0, h.lba_size);
	EXPECT_STREQ("INTEL SSDPE2KX040T8", h.model);
}

TEST(read_refuses_a_captured_tree)
{
	struct bq_roots roots = { .sysfs = "/nonexistent" };
	struct bq_device dev = { .kind = BQ_DEV_NVME };
	struct bq_nvme_health h;
	struct bq_ctx *ctx;

	/* Never send admin commands to a device the captured tree only names. */
	ASSERT_EQ(0, bq_ctx_new(&ctx, &roots));
	EXPECT_EQ(-EOPNOTSUPP, bq_nvme_health_read(ctx, &dev, &h));
	bq_ctx_free(ctx);
}
#else
TEST(decode)
{
	SKIP(return, "built without libnvme");
}
#endif

TEST_HARNESS_MAIN
