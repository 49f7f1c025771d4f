// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_cmd_opts_test.c - fio's io_uring_cmd NVMe extras, host side:
 * write_mode= (single modes and fio's mode/pct mixes), deac, num_range,
 * the refusals that stay (FDP, cmd_type=bsg), the
 * commands they build, and a fio-style job file getting as far as the
 * device.  The commands on a real NVMe namespace are tested in the VM
 * (selftests/vm/guest_nvme_cmd_test.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "config-host.h"
#include "helpers/jobs.h"
#include "helpers/run.h"
#include "internal.h"
#include "job/jobopt.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

static int args(struct bq_jobset *set, struct bq_parse_error *err, int argc, char **argv)
{
	return bq_jobs_from_args(argc, argv, set, err);
}

TEST(write_mode_single_values)
{
	static const struct {
		const char *val;
		uint8_t nr, opcode;
	} ok[] = {
		{ "write", 0, BQ_NVME_OP_WRITE },
		{ "uncor", 1, BQ_NVME_OP_WRITE_UNCOR },
		{ "zeroes", 1, BQ_NVME_OP_WRITE_ZEROES },
		{ "verify", 1, BQ_NVME_OP_VERIFY },
		{ "zone_append", 1, BQ_NVME_OP_ZONE_APPEND },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, set1("write_mode", ok[i].val, &job, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(ok[i].nr, job.nvme_wmode_nr);
		EXPECT_EQ(ok[i].opcode, job.nvme_wmode[0].opcode);
	}
	EXPECT_EQ(-EINVAL, set1("write_mode", "bogus", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "", NULL, &err));
}

TEST(write_mode_mixes_as_fio_reads_them)
{
	struct bq_parse_error err;
	struct bq_job job;
	char s[64];

	/* fio head's example uring-cmd-write-mode.fio */
	ASSERT_EQ(0, set1("write_mode", "write/40:zeroes/30:uncor/20:verify/10", &job, &err));
	ASSERT_EQ(4, job.nvme_wmode_nr);
	EXPECT_EQ(BQ_NVME_OP_WRITE, job.nvme_wmode[0].opcode);
	EXPECT_EQ(40, job.nvme_wmode[0].pct);
	EXPECT_EQ(BQ_NVME_OP_WRITE_ZEROES, job.nvme_wmode[1].opcode);
	EXPECT_EQ(30, job.nvme_wmode[1].pct);
	EXPECT_EQ(BQ_NVME_OP_WRITE_UNCOR, job.nvme_wmode[2].opcode);
	EXPECT_EQ(BQ_NVME_OP_VERIFY, job.nvme_wmode[3].opcode);
	EXPECT_EQ(10, job.nvme_wmode[3].pct);
	bq_job_write_mode_str(&job, s, sizeof(s));
	EXPECT_STREQ("write/40:zeroes/30:uncor/20:verify/10", s);
	/* Blank shares split what is left, as in fio's HOWTO. */
	ASSERT_EQ(0, set1("write_mode", "write/50:zeroes/:uncor/", &job, &err));
	EXPECT_EQ(25, job.nvme_wmode[1].pct);
	EXPECT_EQ(25, job.nvme_wmode[2].pct);
	ASSERT_EQ(0, set1("write_mode", "write/:zeroes/:verify/", &job, &err));
	EXPECT_EQ(100, job.nvme_wmode[0].pct + job.nvme_wmode[1].pct + job.nvme_wmode[2].pct);
	/* fio's refusals */
	EXPECT_EQ(-EINVAL, set1("write_mode", "write/60:zeroes/30", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "write/60:zeroes/50", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "write/100:", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "write:zeroes", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "write/50:nope/50", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("write_mode", "write/-5:zeroes/", NULL, &err));
	/* zone_append mixes too (fio's head: each Append's completion says where it went). */
	ASSERT_EQ(0, set1("write_mode", "write/50:zone_append/50", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_NVME_OP_ZONE_APPEND, job.nvme_wmode[1].opcode);
}

TEST(num_range_and_deac_values)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("num_range", "8", &job, &err));
	EXPECT_EQ(8, job.num_range);
	ASSERT_EQ(0, set1("num_range", "256", &job, &err));
	EXPECT_NE(0, set1("num_range", "257", NULL, &err));
	EXPECT_NE(0, set1("num_range", "x", NULL, &err));
	ASSERT_EQ(0, set1("deac", NULL, &job, &err));
	EXPECT_TRUE(job.nvme_deac);
}

/* Whole jobs: what fio refuses, and what fio runs. */
TEST(job_rules)
{
	static const struct {
		int ret;
		const char *want;
		char *argv[6];
	} cases[] = {
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=randwrite",
			     "--write_mode=write/40:zeroes/30:uncor/20:verify/10", "--deac=1" } },
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=randtrim", "--num_range=8" } },
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=trim", "--num_range=1" } },
		/* num_range only matters for trims, as in fio */
		{ 0, NULL, { "--ioengine=libaio", "--rw=read", "--num_range=8" } },
		{ -EINVAL, "needs ioengine=io_uring_cmd",
		  { "--ioengine=libaio", "--rw=write", "--write_mode=zeroes" } },
		{ -EINVAL, "needs ioengine=io_uring_cmd",
		  { "--ioengine=io_uring", "--rw=write", "--deac=1" } },
		{ -EINVAL, "has no writes",
		  { "--ioengine=io_uring_cmd", "--rw=randread", "--write_mode=verify" } },
		{ -EINVAL, "has no writes",
		  { "--ioengine=io_uring_cmd", "--rw=trim", "--write_mode=zeroes" } },
		{ -EOPNOTSUPP, "verify=", { "--ioengine=io_uring_cmd", "--rw=write",
					    "--write_mode=zeroes", "--verify=crc32c" } },
		/* fio: a Zone Append needs the zones; its data can be verified */
		{ -EINVAL, "needs zonemode=zbd",
		  { "--ioengine=io_uring_cmd", "--rw=write", "--write_mode=zone_append" } },
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=randwrite", "--zonemode=zbd",
			     "--write_mode=zone_append", "--verify=crc32c" } },
		{ -EINVAL, "needs zonemode=zbd", { "--ioengine=io_uring_cmd", "--rw=write",
						  "--write_mode=write/50:zone_append/50" } },
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=randwrite", "--zonemode=zbd",
			     "--write_mode=write/50:zone_append/50", "--verify=crc32c" } },
		{ -EOPNOTSUPP, "verify=", { "--ioengine=io_uring_cmd", "--rw=write", "--zonemode=zbd",
					    "--write_mode=zone_append/50:zeroes/50",
					    "--verify=crc32c" } },
		{ -EINVAL, "trimwrite",
		  { "--ioengine=io_uring_cmd", "--rw=trimwrite", "--num_range=2" } },
		{ -EINVAL, "cannot trim several ranges",
		  { "--ioengine=io_uring", "--rw=randtrim", "--num_range=8" } },
		{ -EOPNOTSUPP, "several files", { "--ioengine=io_uring_cmd", "--rw=trim",
						  "--num_range=4", "--filename=/dev/a:/dev/b" } },
		{ -EOPNOTSUPP, "cmd_type=bsg", { "--ioengine=io_uring_cmd", "--cmd_type=bsg" } },
		/* data placement has its own test (nvme_dp_test): here, that it is taken */
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--rw=write", "--fdp=1" } },
		{ 0, NULL, { "--ioengine=io_uring_cmd", "--fdp_pli=0,1" } },
		{ -EINVAL, "need ioengine=io_uring_cmd", { "--ioengine=io_uring", "--pi_act=0" } },
		{ -EINVAL, "need ioengine=io_uring_cmd",
		  { "--ioengine=libaio", "--md_per_io_size=8" } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[8] = { "--name=n", "--filename=/dev/ng0n1" };
		struct bq_parse_error err = { 0 };
		struct bq_jobset set = { 0 };
		int argc = 2, ret;

		for (int k = 0; k < 6 && cases[i].argv[k]; k++)
			argv[argc++] = cases[i].argv[k];
		ret = args(&set, &err, argc, argv);
		EXPECT_EQ(cases[i].ret, ret) TH_LOG("case %zu: %s", i, err.msg);
		if (cases[i].want)
			EXPECT_NE(NULL, strstr(err.msg, cases[i].want))
				TH_LOG("case %zu: %s", i, err.msg);
		if (!ret)
			bq_jobset_free(&set);
	}
}

/* Written back as options, a mix and num_range come back the same. */
TEST(to_args_round_trip)
{
	char *argv[] = { "--name=n", "--filename=/dev/ng0n1", "--ioengine=io_uring_cmd",
			 "--rw=randwrite", "--write_mode=write/50:zeroes/:verify/", "--deac=1",
			 "--num_range=4" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err = { 0 };
	struct bq_strv out = { 0 };

	ASSERT_EQ(0, args(&a, &err, ARRAY_SIZE(argv), argv)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(a.jobs[0].nvme_wmode_nr, b.jobs[0].nvme_wmode_nr);
	EXPECT_EQ(0, memcmp(a.jobs[0].nvme_wmode, b.jobs[0].nvme_wmode,
			    sizeof(a.jobs[0].nvme_wmode)));
	EXPECT_EQ(a.jobs[0].nvme_deac, b.jobs[0].nvme_deac);
	EXPECT_EQ(4, b.jobs[0].num_range);
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

TEST(commands_without_data)
{
#ifdef HAVE_NVME_URING_CMD
	static const uint8_t ops[] = { BQ_NVME_OP_WRITE_ZEROES, BQ_NVME_OP_WRITE_UNCOR,
				       BQ_NVME_OP_VERIFY };
	static char buf[8192];
	struct nvme_uring_cmd c;

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		ASSERT_EQ(0, bq_nvme_io_cmd(&c, ops[i], 3, 5 * 4096, 8192, 4096, buf));
		EXPECT_EQ(ops[i], c.opcode);
		EXPECT_EQ(3, c.nsid);
		EXPECT_EQ(0, c.addr);
		EXPECT_EQ(0, c.data_len);
		EXPECT_EQ(5, c.cdw10);
		EXPECT_EQ(0, c.cdw11);
		EXPECT_EQ(1, c.cdw12);		/* 0-based: two blocks */
	}
	ASSERT_EQ(0, bq_nvme_io_cmd(&c, BQ_NVME_OP_WRITE, 1, 0, 8192, 4096, buf));
	EXPECT_EQ((uint64_t)(uintptr_t)buf, c.addr);
	EXPECT_EQ(8192, c.data_len);
	EXPECT_EQ(-EINVAL, bq_nvme_io_cmd(&c, BQ_NVME_OP_WRITE_ZEROES, 1, 512, 4096, 4096, buf));
#else
	SKIP(return, "built without struct nvme_uring_cmd");
#endif
}

TEST(dsm_ranges)
{
	struct bq_nvme_dsm_range r;

	ASSERT_EQ(16, sizeof(r));
	ASSERT_EQ(0, bq_nvme_dsm_range(&r, 1 << 20, 64 << 10, 4096));
	EXPECT_EQ(0, r.cattr);
	EXPECT_EQ(16, r.nlb);			/* 1-based, unlike a Read's */
	EXPECT_EQ(256, r.slba);
	ASSERT_EQ(0, bq_nvme_dsm_range(&r, 512, 512, 512));
	EXPECT_EQ(1, r.nlb);
	EXPECT_EQ(1, r.slba);
	EXPECT_EQ(-EINVAL, bq_nvme_dsm_range(&r, 512, 4096, 4096));
	EXPECT_EQ(-EINVAL, bq_nvme_dsm_range(&r, 0, 0, 4096));
	EXPECT_EQ(-EINVAL, bq_nvme_dsm_range(&r, 0, 4096, 1000));
}

/*
 * Job files shaped like fio head's uring-cmd-write-mode.fio and
 * uring-cmd-trim-multi-range.fio (written here, not copied) pass the
 * parser and stop only at the missing NVMe generic device.
 */
TEST(fio_style_job_files_reach_the_device)
{
	static const char *const files[] = {
		"[global]\nfilename=/dev/null\nioengine=io_uring_cmd\ncmd_type=nvme\nsize=8M\n"
		"iodepth=16\nbs=4K\nthread=1\n[mix]\nrw=write\n"
		"write_mode=write/40:zeroes/30:uncor/20:verify/10\n",
		"[global]\nfilename=/dev/null\nioengine=io_uring_cmd\ncmd_type=nvme\nsize=8M\n"
		"iodepth=16\nthread=1\nstonewall=1\n[one]\nbs=4096\nrw=randtrim\nnum_range=8\n"
		"[two]\nbssplit=4k/20:64k/40:32k/40\nrw=trim\nnum_range=8\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char path[] = "/tmp/blkqual-nvme.XXXXXX";
		struct run_result r;
		int fd = mkstemp(path);

		ASSERT_LE(0, fd);
		ASSERT_EQ((ssize_t)strlen(files[i]), write(fd, files[i], strlen(files[i])));
		close(fd);
		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", path, NULL));
		unlink(path);
		EXPECT_NE(0, r.status);
		EXPECT_NE(NULL, strstr(r.err, "NVMe generic device")) TH_LOG("%s", r.err);
		EXPECT_EQ(NULL, strstr(r.err, "unknown option")) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
