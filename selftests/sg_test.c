// SPDX-License-Identifier: GPL-2.0-only
/*
 * sg_test.c - ioengine=sg without a SCSI device (issue 19): every byte of
 * every command the engine sends, checked against SBC-4's layouts (READ,
 * WRITE, WRITE AND VERIFY, WRITE SAME, VERIFY in their 10- and 16-byte
 * forms, READ CAPACITY), the switch to 16 bytes at LBA 0xffffffff as fio
 * makes it, sense decoding, and the job options: sg_write_mode with all
 * of fio's names, readfua/writefua and what the engine refuses.  The
 * real devices are in selftests/vm/guest_sg_test.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "io/scsi.h"
#include "job/jobopt.h"
#include "helpers/jobs.h"
#include "helpers/run.h"

static int args_job(struct bq_parse_error *err, int argc, const char *const *argv)
{
	struct bq_jobset set = { 0 };
	int ret;

	memset(err, 0, sizeof(*err));
	ret = bq_jobs_from_args(argc, (char **)argv, &set, err);
	bq_jobset_free(&set);
	return ret;
}

/* One command, expected byte by byte (the rest of the 16 bytes zero). */
static int cdb_is(struct __test_metadata *_metadata, const struct bq_scsi_rw *c,
		  const uint8_t *want, int len, uint32_t xfer)
{
	EXPECT_EQ(len, c->cdb_len);
	EXPECT_EQ(xfer, c->xfer);
	int bad = -1;

	for (int i = 0; bad < 0 && i < BQ_SCSI_CDB_MAX; i++)
		if (c->cdb[i] != (i < len ? want[i] : 0))
			bad = i;
	EXPECT_EQ(-1, bad) TH_LOG("opcode 0x%02x: byte %d is 0x%02x", want[0], bad,
				  bad < 0 ? 0 : c->cdb[bad]);
	return 0;
}

TEST(read_10_and_16)
{
	/* SBC-4 5.15 READ(10): op, flags (FUA bit 3), LBA 2..5, group, length 7..8, control */
	static const uint8_t r10[10] = { 0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0x08, 0 };
	static const uint8_t r10_fua[10] = { 0x28, 0x08, 0xff, 0xff, 0xff, 0xfe, 0, 0x01, 0, 0 };
	/* SBC-4 5.17 READ(16): op, flags, LBA 2..9, length 10..13, group, control */
	static const uint8_t r16[16] = { 0x88, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
					 0, 0, 0, 0x10, 0, 0 };
	static const uint8_t r16_big[16] = { 0x88, 0x08, 0, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
					     0x00, 0x01, 0x00, 0x00, 0, 0 };
	struct bq_scsi_rw c;

	ASSERT_EQ(0, bq_scsi_build_rw(&c, false, 0x12345678, 8, 512, BQ_SG_WRITE, false));
	cdb_is(_metadata, &c, r10, 10, 8 * 512);
	/* The last LBA the 10-byte form takes in fio: 0xfffffffe. */
	ASSERT_EQ(0, bq_scsi_build_rw(&c, false, 0xfffffffe, 256, 4096, BQ_SG_WRITE, true));
	cdb_is(_metadata, &c, r10_fua, 10, 256 * 4096);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, false, 0xffffffff, 16, 512, BQ_SG_WRITE, false));
	cdb_is(_metadata, &c, r16, 16, 16 * 512);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, false, 0x0123456789abull, 65536, 512, BQ_SG_WRITE,
				      true));
	cdb_is(_metadata, &c, r16_big, 16, 65536 * 512);
	/* 65536 blocks do not fit READ(10)'s 16-bit length. */
	EXPECT_EQ(-ERANGE, bq_scsi_build_rw(&c, false, 0, 65536, 512, BQ_SG_WRITE, false));
	EXPECT_EQ(0, bq_scsi_build_rw(&c, false, 0, 65535, 512, BQ_SG_WRITE, false));
}

TEST(write_modes)
{
	static const uint8_t w10[10] = { 0x2a, 0, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t w10_fua[10] = { 0x2a, 0x08, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t w16[16] = { 0x8a, 0x08, 0, 0, 0, 0x01, 0, 0, 0, 0,
					 0, 0, 0, 0x02, 0, 0 };
	/* WRITE AND VERIFY: BYTCHK 00b, and no FUA bit (fio ignores writefua). */
	static const uint8_t wv10[10] = { 0x2e, 0, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t wv16[16] = { 0x8e, 0, 0, 0, 0, 0x01, 0, 0, 0, 0,
					  0, 0, 0, 0x02, 0, 0 };
	/* WRITE SAME(10): one block sent, NUMBER OF LOGICAL BLOCKS in 7..8. */
	static const uint8_t ws10[10] = { 0x41, 0, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t ws16[16] = { 0x93, 0, 0, 0, 0, 0x01, 0, 0, 0, 0,
					  0, 0, 0, 0x02, 0, 0 };
	/* WRITE SAME(16) with NDOB (byte 1 bit 0), even at LBA 0x1000: nothing sent. */
	static const uint8_t ndob[16] = { 0x93, 0x01, 0, 0, 0, 0, 0, 0, 0x10, 0,
					  0, 0, 0, 0x02, 0, 0 };
	/* VERIFY(10): BYTCHK in byte 1 bits 2..1 */
	static const uint8_t v00[10] = { 0x2f, 0, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t v01[10] = { 0x2f, 0x02, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t v11[10] = { 0x2f, 0x06, 0, 0, 0x10, 0, 0, 0, 0x02, 0 };
	static const uint8_t v16[16] = { 0x8f, 0x02, 0, 0, 0, 0x01, 0, 0, 0, 0,
					 0, 0, 0, 0x02, 0, 0 };
	const uint64_t hi = 0x100000000ull;
	struct bq_scsi_rw c;

	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_WRITE, false));
	cdb_is(_metadata, &c, w10, 10, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_WRITE, true));
	cdb_is(_metadata, &c, w10_fua, 10, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, hi, 2, 512, BQ_SG_WRITE, true));
	cdb_is(_metadata, &c, w16, 16, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_WRITE_VERIFY, true));
	cdb_is(_metadata, &c, wv10, 10, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, hi, 2, 512, BQ_SG_WRITE_VERIFY, false));
	cdb_is(_metadata, &c, wv16, 16, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_WRITE_SAME, true));
	cdb_is(_metadata, &c, ws10, 10, 512);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, hi, 2, 4096, BQ_SG_WRITE_SAME, false));
	cdb_is(_metadata, &c, ws16, 16, 4096);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_WRITE_SAME_NDOB, false));
	cdb_is(_metadata, &c, ndob, 16, 0);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_VERIFY_BYTCHK_00, false));
	cdb_is(_metadata, &c, v00, 10, 0);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_VERIFY_BYTCHK_01, false));
	cdb_is(_metadata, &c, v01, 10, 1024);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, 0x1000, 2, 512, BQ_SG_VERIFY_BYTCHK_11, false));
	cdb_is(_metadata, &c, v11, 10, 512);
	ASSERT_EQ(0, bq_scsi_build_rw(&c, true, hi, 2, 512, BQ_SG_VERIFY_BYTCHK_01, false));
	cdb_is(_metadata, &c, v16, 16, 1024);
}

TEST(read_capacity_and_sense)
{
	static const uint8_t rc10[10] = { 0x25 };
	/* SERVICE ACTION IN(16), READ CAPACITY(16), allocation length 32 in 10..13 */
	static const uint8_t rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32 };
	static const uint8_t ans10[8] = { 0x00, 0x01, 0xff, 0xff, 0, 0, 0x02, 0 };
	static const uint8_t ans16[12] = { 0, 0, 0, 0x01, 0, 0, 0, 0x07, 0, 0, 0x10, 0 };
	static const uint8_t bad[8] = { 0, 0, 0, 1, 0, 0, 0x02, 0x01 };
	uint8_t cdb[16], fixed[18] = { 0x70, 0, 0x05 }, desc[8] = { 0x72, 0x03, 0x11, 0x00 };
	uint64_t max_lba;
	uint32_t lbs;

	memset(cdb, 0xaa, sizeof(cdb));
	bq_scsi_build_read_capacity(cdb, false);
	EXPECT_EQ(0, memcmp(cdb, rc10, 10));
	bq_scsi_build_read_capacity(cdb, true);
	EXPECT_EQ(0, memcmp(cdb, rc16, 16));
	ASSERT_EQ(0, bq_scsi_parse_capacity(ans10, false, &max_lba, &lbs));
	EXPECT_EQ(0x1ffffULL, max_lba);
	EXPECT_EQ(512U, lbs);
	ASSERT_EQ(0, bq_scsi_parse_capacity(ans16, true, &max_lba, &lbs));
	EXPECT_EQ(0x100000007ULL, max_lba);
	EXPECT_EQ(4096U, lbs);
	EXPECT_EQ(-EINVAL, bq_scsi_parse_capacity(bad, false, &max_lba, &lbs));
	/* ILLEGAL REQUEST, INVALID FIELD IN CDB (24h/00h), fixed format */
	fixed[7] = 10;
	fixed[12] = 0x24;
	EXPECT_EQ(BQ_SENSE_VALID | 0x052400u, bq_scsi_sense(fixed, sizeof(fixed)));
	/* MEDIUM ERROR, UNRECOVERED READ ERROR (11h/00h), descriptor format */
	EXPECT_EQ(BQ_SENSE_VALID | 0x031100u, bq_scsi_sense(desc, sizeof(desc)));
	EXPECT_EQ(0U, bq_scsi_sense(fixed, 0));
	EXPECT_EQ(0U, bq_scsi_sense(fixed, 8));
}

TEST(sg_write_mode_values)
{
	static const struct {
		const char *val;
		int mode;
	} ok[] = {
		{ "write", BQ_SG_WRITE }, { "write_and_verify", BQ_SG_WRITE_VERIFY },
		{ "verify", BQ_SG_WRITE_VERIFY }, { "write_same", BQ_SG_WRITE_SAME },
		{ "same", BQ_SG_WRITE_SAME }, { "write_same_ndob", BQ_SG_WRITE_SAME_NDOB },
		{ "verify_bytchk_00", BQ_SG_VERIFY_BYTCHK_00 },
		{ "verify_bytchk_01", BQ_SG_VERIFY_BYTCHK_01 },
		{ "verify_bytchk_11", BQ_SG_VERIFY_BYTCHK_11 },
	};
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("ioengine", "sg", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_ENGINE_SG, job.engine);
	EXPECT_STREQ("sg", bq_engine_name(job.engine));
	EXPECT_EQ(BQ_SG_WRITE, job.sg_write_mode);
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, set1("sg_write_mode", ok[i].val, &job, &err)) TH_LOG("%s", ok[i].val);
		EXPECT_EQ(ok[i].mode, job.sg_write_mode) TH_LOG("%s", ok[i].val);
	}
	EXPECT_EQ(-EOPNOTSUPP, set1("sg_write_mode", "write_stream", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "sg_write_mode=write_stream")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("sg_write_mode", "writesame", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("sg_write_mode", "", NULL, &err));
}

TEST(options_fit_the_engine)
{
	static const char *const fua_sg[] = { "--ioengine=sg", "--readfua=1",
					      "--writefua=1", "--filename=/dev/sg0" };
	static const char *const fua_psync[] = { "--ioengine=psync", "--writefua=1",
						 "--filename=/dev/sda" };
	static const char *const mode_psync[] = { "--ioengine=psync",
						  "--sg_write_mode=write_same",
						  "--filename=/dev/sda" };
	static const char *const mode_sg[] = { "--ioengine=sg",
					       "--sg_write_mode=verify_bytchk_01",
					       "--hipri=1", "--filename=/dev/sg0" };
	static const char *const fsync_sg[] = { "--ioengine=sg", "--rw=write",
						"--fsync=4", "--filename=/dev/sg0" };
	struct bq_parse_error err;

	EXPECT_EQ(0, args_job(&err, 4, fua_sg)) TH_LOG("%s", err.msg);
	EXPECT_NE(0, args_job(&err, 3, fua_psync));
	EXPECT_NE(NULL, strstr(err.msg, "writefua needs ioengine=io_uring_cmd or sg"))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, args_job(&err, 3, mode_psync));
	EXPECT_NE(NULL, strstr(err.msg, "sg_write_mode needs ioengine=sg")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, args_job(&err, 4, mode_sg)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, args_job(&err, 4, fsync_sg));
	EXPECT_NE(NULL, strstr(err.msg, "fsync is not supported with ioengine=sg"))
		TH_LOG("%s", err.msg);
	EXPECT_STREQ("sg's WRITE STREAM (sg_write_mode=write_stream) is not implemented",
		     bq_job_opt_refusal("stream_id"));
	EXPECT_EQ(NULL, bq_job_opt_refusal("sg_write_mode"));
}

/* A regular file is neither an sg node nor a SCSI disk: refused before any I/O. */
TEST(sg_needs_a_scsi_target)
{
	char path[] = "/tmp/bq-sg-XXXXXX", arg[64];
	struct run_result r;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 1 << 20));
	close(fd);
	snprintf(arg, sizeof(arg), "--filename=%s", path);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=sg", "--rw=read",
				 "--size=64k", arg, NULL));
	unlink(path);
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ioengine=sg needs an sg node (/dev/sgN) or a SCSI disk"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	/* A character device sysfs does not list as scsi_generic is no sg node. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=sg", "--rw=read",
				 "--size=64k", "--filename=/dev/null", NULL));
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "/dev/null: ioengine=sg needs an sg node")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
