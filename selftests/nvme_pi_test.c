// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_pi_test.c - NVMe protection information, host side: the guard
 * CRCs against their published check values, the PI blkqual writes and
 * checks in each layout (extended LBA or separate metadata, PI first or
 * last, 16- or 64-bit guard, types 1 and 3), the command fields, and the
 * options (md_per_io_size, pi_act, pi_chk, apptag, apptag_mask).  The
 * controller's view of the same bytes is tested in the VM
 * (selftests/vm/guest_nvme_pi_test.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "config-host.h"
#include "engines/nvme_pi.h"
#include "helpers/jobs.h"
#include "internal.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

/*
 * The CRC catalogue's check values ("123456789"), and the guard test
 * cases of SBC (16-bit, 32 bytes) and of the NVM Command Set
 * specification (64-bit, 4 KiB).
 */
TEST(crc16_t10dif_check_values)
{
	uint8_t b[32];

	EXPECT_EQ(0xd0db, bq_crc16_t10dif(0, "123456789", 9));
	memset(b, 0, sizeof(b));
	EXPECT_EQ(0x0000, bq_crc16_t10dif(0, b, sizeof(b)));
	memset(b, 0xff, sizeof(b));
	EXPECT_EQ(0xa293, bq_crc16_t10dif(0, b, sizeof(b)));
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	EXPECT_EQ(0x0224, bq_crc16_t10dif(0, b, sizeof(b)));
	memset(b, 0, sizeof(b));
	b[0] = b[1] = 0xff;
	EXPECT_EQ(0x21b8, bq_crc16_t10dif(0, b, sizeof(b)));
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)(0xff - i);
	EXPECT_EQ(0xa0b7, bq_crc16_t10dif(0, b, sizeof(b)));
	/* In pieces: the guard of data, then of the metadata before the PI. */
	EXPECT_EQ(0xd0db, bq_crc16_t10dif(bq_crc16_t10dif(0, "1234", 4), "56789", 5));
}

TEST(crc64_nvme_check_values)
{
	static uint8_t b[4096];

	EXPECT_EQ(0xae8b14860a799888ull, bq_crc64_nvme(0, "123456789", 9));
	EXPECT_EQ(0xae8b14860a799888ull, bq_crc64_nvme(bq_crc64_nvme(0, "12", 2), "3456789", 7));
	memset(b, 0, sizeof(b));
	EXPECT_EQ(0x6482d367eb22b64eull, bq_crc64_nvme(0, b, sizeof(b)));
	memset(b, 0xff, sizeof(b));
	EXPECT_EQ(0xc0ddba7302eca3acull, bq_crc64_nvme(0, b, sizeof(b)));
	for (int i = 0; i < 4096; i++)
		b[i] = (uint8_t)i;
	EXPECT_EQ(0x3e729f5f6750449cull, bq_crc64_nvme(0, b, sizeof(b)));
	for (int i = 0; i < 4096; i++)
		b[i] = (uint8_t)(0xff - i);
	EXPECT_EQ(0x9a2df64b8e9e517eull, bq_crc64_nvme(0, b, sizeof(b)));
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Extended LBA 512+8, PI last, type 1: the tuple's bytes, field by field. */
TEST(generate_extended_16bit)
{
	struct bq_nvme_pi pi = { .lba_size = 512, .ms = 8, .ext = true, .type = 1, .pi_size = 8,
				 .prinfo = BQ_NVME_PRCHK_ALL, .apptag = 0x0888,
				 .apptag_mask = 0xffff };
	uint8_t buf[3 * 520];
	uint32_t bad = 99;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7);
	EXPECT_EQ(512, bq_nvme_pi_offset(&pi));
	bq_nvme_pi_generate(&pi, buf, NULL, 1000, 3);
	for (int k = 0; k < 3; k++) {
		const uint8_t *t = buf + k * 520 + 512;

		EXPECT_EQ(bq_crc16_t10dif(0, buf + k * 520, 512), be16(t));
		EXPECT_EQ(0x0888, be16(t + 2));
		EXPECT_EQ(1000u + k, be32(t + 4));
	}
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, buf, NULL, 1000, 3, &bad));
	/* Read back at another LBA: the reference tag is wrong. */
	EXPECT_EQ(BQ_PI_REFTAG, bq_nvme_pi_verify(&pi, buf, NULL, 1001, 3, &bad));
	EXPECT_EQ(0, bad);
	buf[520 + 17] ^= 1;
	EXPECT_EQ(BQ_PI_GUARD, bq_nvme_pi_verify(&pi, buf, NULL, 1000, 3, &bad));
	EXPECT_EQ(1, bad);
	/* Without the guard check, the flipped bit goes unnoticed. */
	pi.prinfo = BQ_NVME_PRCHK_APP | BQ_NVME_PRCHK_REF;
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, buf, NULL, 1000, 3, &bad));
	pi.apptag = 0x0999;
	EXPECT_EQ(BQ_PI_APPTAG, bq_nvme_pi_verify(&pi, buf, NULL, 1000, 3, &bad));
	pi.apptag_mask = 0xfeee;
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, buf, NULL, 1000, 3, &bad));
}

/*
 * Separate 4096+64, PI last: the guard covers the data and the 56
 * metadata bytes before the tuple; only the checked fields are written.
 */
TEST(generate_separate_16bit_pi_last)
{
	struct bq_nvme_pi pi = { .lba_size = 4096, .ms = 64, .type = 1, .pi_size = 8,
				 .prinfo = BQ_NVME_PRCHK_GUARD, .apptag = 0x1234,
				 .apptag_mask = 0xffff };
	static uint8_t data[2 * 4096];
	uint8_t md[2 * 64];
	uint32_t bad;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i ^ (i >> 8));
	memset(md, 0x3c, sizeof(md));
	EXPECT_EQ(56, bq_nvme_pi_offset(&pi));
	bq_nvme_pi_generate(&pi, data, md, 7, 2);
	for (int k = 0; k < 2; k++) {
		uint16_t g = bq_crc16_t10dif(bq_crc16_t10dif(0, data + k * 4096, 4096),
					     md + k * 64, 56);

		EXPECT_EQ(g, be16(md + k * 64 + 56));
		/* Not asked to check them: the tags keep the buffer's bytes. */
		EXPECT_EQ(0x3c3c, be16(md + k * 64 + 58));
		EXPECT_EQ(0x3c3c3c3cu, be32(md + k * 64 + 60));
	}
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, data, md, 7, 2, &bad));
	md[64 + 3] ^= 0x80;
	EXPECT_EQ(BQ_PI_GUARD, bq_nvme_pi_verify(&pi, data, md, 7, 2, &bad));
	EXPECT_EQ(1, bad);
}

/* PI first in separate metadata: the guard covers the data only. */
TEST(generate_separate_pi_first_type3)
{
	struct bq_nvme_pi pi = { .lba_size = 512, .ms = 16, .type = 3, .pi_size = 8,
				 .first = true, .prinfo = BQ_NVME_PRCHK_ALL, .apptag = 0x55aa,
				 .apptag_mask = 0xffff };
	uint8_t data[512], md[16];
	uint32_t bad;

	memset(data, 0xa5, sizeof(data));
	memset(md, 0x11, sizeof(md));
	EXPECT_EQ(0, bq_nvme_pi_offset(&pi));
	bq_nvme_pi_generate(&pi, data, md, 42, 1);
	EXPECT_EQ(bq_crc16_t10dif(0, data, 512), be16(md));
	EXPECT_EQ(0x55aa, be16(md + 2));
	/* Type 3 has no reference tag to generate or check. */
	EXPECT_EQ(0x11111111u, be32(md + 4));
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, data, md, 9999, 1, &bad));
	data[0] ^= 1;
	EXPECT_EQ(BQ_PI_GUARD, bq_nvme_pi_verify(&pi, data, md, 42, 1, &bad));
	/* The escape: application tag FFFFh and reference tag all ones, not checked. */
	memset(md + 2, 0xff, 6);
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, data, md, 42, 1, &bad));
	md[7] = 0xfe;
	EXPECT_EQ(BQ_PI_GUARD, bq_nvme_pi_verify(&pi, data, md, 42, 1, &bad));
}

/* 64-bit guard, 48-bit reference tag, in an extended LBA 4096+16. */
TEST(generate_extended_64bit)
{
	struct bq_nvme_pi pi = { .lba_size = 4096, .ms = 16, .ext = true, .type = 1,
				 .pi_size = 16, .prinfo = BQ_NVME_PRCHK_ALL, .apptag = 0xbeef,
				 .apptag_mask = 0xffff };
	static uint8_t buf[2 * 4112];
	uint64_t slba = 0x123456789aull, g = 0, ref = 0;
	uint32_t bad;

	memset(buf, 0x77, sizeof(buf));
	bq_nvme_pi_generate(&pi, buf, NULL, slba, 2);
	for (int i = 0; i < 8; i++)
		g = g << 8 | buf[4112 + 4096 + i];
	for (int i = 0; i < 6; i++)
		ref = ref << 8 | buf[4112 + 4096 + 10 + i];
	EXPECT_EQ(bq_crc64_nvme(0, buf + 4112, 4096), g);
	EXPECT_EQ(0xbeef, be16(buf + 4112 + 4096 + 8));
	EXPECT_EQ(slba + 1, ref);
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, buf, NULL, slba, 2, &bad));
	buf[4112 + 4096 + 15] ^= 1;
	EXPECT_EQ(BQ_PI_REFTAG, bq_nvme_pi_verify(&pi, buf, NULL, slba, 2, &bad));
	EXPECT_EQ(1, bad);
}

/* PRACT: the controller inserts and checks; the host writes and checks nothing. */
TEST(pract_leaves_the_buffer)
{
	struct bq_nvme_pi pi = { .lba_size = 512, .ms = 8, .ext = true, .type = 1, .pi_size = 8,
				 .prinfo = BQ_NVME_PRACT | BQ_NVME_PRCHK_ALL };
	uint8_t buf[520], copy[520];
	uint32_t bad;

	memset(buf, 0x42, sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	bq_nvme_pi_generate(&pi, buf, NULL, 0, 1);
	EXPECT_EQ(0, memcmp(buf, copy, sizeof(buf)));
	EXPECT_EQ(0, bq_nvme_pi_verify(&pi, buf, NULL, 0, 1, &bad));
}

#ifdef HAVE_NVME_URING_CMD
/* The command's PRINFO, reference and application tags, and metadata, as fio sets them. */
TEST(command_fields)
{
	struct bq_nvme_pi pi = { .lba_size = 4096, .ms = 64, .type = 1, .pi_size = 8,
				 .prinfo = BQ_NVME_PRCHK_ALL, .apptag = 0x0888,
				 .apptag_mask = 0xffff };
	static uint8_t buf[8192], md[128];
	struct nvme_uring_cmd c;

	ASSERT_EQ(0, bq_nvme_io_cmd(&c, BQ_NVME_OP_WRITE, 1, 0x100000001ull * 4096, 8192, 4096,
				    buf));
	bq_nvme_pi_cmd(&pi, &c, 0x100000001ull, 2, md);
	EXPECT_EQ(1u | 7u << 26, c.cdw12);
	EXPECT_EQ(1u, c.cdw14);
	EXPECT_EQ(0, c.cdw3);
	EXPECT_EQ(0xffff0888u, c.cdw15);
	EXPECT_EQ((uint64_t)(uintptr_t)md, c.metadata);
	EXPECT_EQ(128, c.metadata_len);
	/* 64-bit guard: the reference tag's bits 47:32 in dword 3. */
	pi.pi_size = 16;
	pi.prinfo = BQ_NVME_PRACT | BQ_NVME_PRCHK_REF;
	ASSERT_EQ(0, bq_nvme_io_cmd(&c, BQ_NVME_OP_READ, 1, 0x100000001ull * 4096, 8192, 4096,
				    buf));
	bq_nvme_pi_cmd(&pi, &c, 0x100000001ull, 2, md);
	EXPECT_EQ(1u | 1u << 29 | 1u << 26, c.cdw12);
	EXPECT_EQ(1u, c.cdw3);
	EXPECT_EQ(0, c.cdw15);
	/* Extended LBA: the metadata is in the data buffer. */
	pi.ext = true;
	ASSERT_EQ(0, bq_nvme_io_cmd(&c, BQ_NVME_OP_READ, 1, 0, 4160, 4160, buf));
	bq_nvme_pi_cmd(&pi, &c, 0, 1, md);
	EXPECT_EQ(0, c.metadata);
	EXPECT_EQ(4160, c.data_len);
}
#endif

TEST(options)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd")) TH_LOG("%s", err.msg);
	/* fio's defaults */
	EXPECT_TRUE(job.nvme_pi_act);
	EXPECT_EQ(0, job.nvme_prchk);
	EXPECT_EQ(0x1234, job.nvme_apptag);
	EXPECT_EQ(0xffff, job.nvme_apptag_mask);
	EXPECT_EQ(0, job.nvme_md_per_io);
	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "md_per_io_size=64", "pi_act=0",
			   "pi_chk=GUARD,APPTAG,REFTAG", "apptag=0x0888", "apptag_mask=0xFFFF"))
		TH_LOG("%s", err.msg);
	EXPECT_FALSE(job.nvme_pi_act);
	EXPECT_EQ(BQ_NVME_PRCHK_ALL, job.nvme_prchk);
	EXPECT_EQ(0x0888, job.nvme_apptag);
	EXPECT_EQ(0xffff, job.nvme_apptag_mask);
	EXPECT_EQ(64, job.nvme_md_per_io);
	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "pi_chk=reftag", "apptag=100"));
	EXPECT_EQ(BQ_NVME_PRCHK_REF, job.nvme_prchk);
	EXPECT_EQ(100, job.nvme_apptag);
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "pi_chk=GUARD,CRC"));
	EXPECT_NE(NULL, strstr(err.msg, "pi_chk=GUARD,CRC"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "apptag=0x10000"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "apptag_mask=-1"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "pi_act=2"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=psync", "pi_chk=GUARD"));
	EXPECT_NE(NULL, strstr(err.msg, "ioengine=io_uring_cmd"));
}

/* Written back as options (result files, --show), the job comes back the same. */
TEST(to_args_round_trip)
{
	char *argv[] = { "--name=n", "--filename=/dev/ng0n1", "--ioengine=io_uring_cmd",
			 "--md_per_io_size=128", "--pi_act=0", "--pi_chk=REFTAG,GUARD",
			 "--apptag=0x0888", "--apptag_mask=0x0f0f" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err = { 0 };
	struct bq_strv out = { 0 };

	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(argv), argv, &a, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(128, b.jobs[0].nvme_md_per_io);
	EXPECT_FALSE(b.jobs[0].nvme_pi_act);
	EXPECT_EQ(BQ_NVME_PRCHK_REF | BQ_NVME_PRCHK_GUARD, b.jobs[0].nvme_prchk);
	EXPECT_EQ(0x0888, b.jobs[0].nvme_apptag);
	EXPECT_EQ(0x0f0f, b.jobs[0].nvme_apptag_mask);
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

TEST_HARNESS_MAIN
