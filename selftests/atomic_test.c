// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic_test.c - atomic=1 (newer fio): RWF_ATOMIC on every write
 *
 * The kernel is the outside truth.  XFS on Linux 6.11 and later takes
 * atomic direct writes of a power of two from its block size up, aligned
 * to their length; the same writes a block off that alignment it fails
 * with EINVAL when, and only when, RWF_ATOMIC is set.  So a job of 16 KiB
 * writes starting at 4 KiB runs clean without atomic=1 and fails with
 * EINVAL with it, once per engine that carries the flag: proof that the
 * flag reaches the kernel on each.  A raw loop device has no torn-write
 * protection and a 12 KiB write is no atomic size: both are said before
 * any I/O.  fio 3.33 has no atomic=1, so nothing is compared with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/jobs.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"

static const char *const engines[] = { "io_uring", "libaio", "pvsync2" };

TEST(parse_and_engines)
{
	struct bq_parse_error err;
	struct bq_job j;
	struct run_result r;

	ASSERT_EQ(0, set1("atomic", "1", &j, &err));
	EXPECT_TRUE(j.atomic);
	ASSERT_EQ(0, set1("atomic", NULL, &j, &err));
	EXPECT_TRUE(j.atomic);
	EXPECT_EQ(-EINVAL, set1("atomic", "yes", NULL, &err));

	/* psync passes no per-I/O flags: refused, as fio refuses it. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=a", "--filename=/nonexistent/x",
				 "--size=1m", "--rw=write", "--ioengine=psync", "--atomic=1", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "atomic=1 is not supported with ioengine=psync"))
		TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
}

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char file[400];
	char opt[420];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->file, sizeof(self->file), "%s/data", self->fs.mnt);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->file);
}

FIXTURE_TEARDOWN(xfs)
{
	unlink(self->file);
	scratchfs_destroy(&self->fs);
}

/*
 * One run of 16 KiB direct writes from @offset, verified when they are
 * aligned to the verify block; its exit status and output.
 */
static int write_run(const char *opt, const char *engine, const char *offset, bool atomic,
		     struct run_result *r)
{
	char eng[64], off[64];

	snprintf(eng, sizeof(eng), "--ioengine=%s", engine);
	snprintf(off, sizeof(off), "--offset=%s", offset);
	return run_blkqual(r, "run", "--no-status", "--name=a", opt, "--size=4m", "--rw=write",
			   "--bs=16k", "--direct=1", "--iodepth=4", eng, off,
			   atomic ? "--atomic=1" : "--atomic=0",
			   strcmp(offset, "0") ? NULL : "--verify=crc32c", NULL);
}

TEST_F(xfs, the_flag_reaches_the_kernel_on_each_engine)
{
	struct run_result r;

	PREP_READY(&self->p);
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		/* Aligned atomic writes: written and verified. */
		ASSERT_EQ(0, write_run(self->opt, engines[i], "0", true, &r));
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", engines[i], r.err);
		EXPECT_NE(NULL, strstr(r.out, "all good")) TH_LOG("%s: %s", engines[i], r.out);
		run_result_free(&r);

		/* A block off their length: fine as plain writes... */
		ASSERT_EQ(0, write_run(self->opt, engines[i], "4k", false, &r));
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", engines[i], r.err);
		run_result_free(&r);

		/* ...and refused by the kernel as atomic ones. */
		ASSERT_EQ(0, write_run(self->opt, engines[i], "4k", true, &r));
		EXPECT_EQ(1, r.status) TH_LOG("%s: %s", engines[i], r.err);
		EXPECT_NE(NULL, strstr(r.out, "(EINVAL)")) TH_LOG("%s: %s", engines[i], r.out);
		run_result_free(&r);
	}
}

TEST_F(xfs, sizes_the_kernel_would_refuse_are_said_first)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=a", self->opt, "--size=4m",
				 "--rw=randwrite", "--bs=12k", "--direct=1", "--atomic=1", NULL));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "atomic writes here are powers of two"))
		TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);

	/* Reads are not writes: atomic=1 means nothing to them, as in fio. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=a", self->opt, "--size=4m",
				 "--rw=write", "--bs=12k", "--direct=1", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=a", self->opt, "--size=4m",
				 "--rw=randread", "--bs=12k", "--direct=1", "--atomic=1",
				 "--ioengine=psync", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

FIXTURE(raw)
{
	struct prep p;
	struct scratch s;
	char opt[96];
};

FIXTURE_SETUP(raw)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, 64LL << 20);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(raw)
{
	scratch_destroy(&self->s);
}

/* A loop device reports no atomic write unit: refused before any write. */
TEST_F(raw, no_torn_write_protection_is_said_first)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=a", self->opt,
				 "--rw=randwrite", "--bs=4k", "--direct=1", "--atomic=1",
				 "--size=4m", NULL));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "no torn-write protection here")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
