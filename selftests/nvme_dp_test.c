// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_dp_test.c - NVMe data placement, host side: fio's options (fdp,
 * dataplacement, plid_select, plids, dp_scheme and their aliases) and
 * its rules, the identifier each write carries (round robin from the
 * first, uniform draws, scheme ranges) and the command's directive
 * fields.  The controller's view (QEMU's FDP namespace) is tested in the
 * VM (selftests/vm/guest_nvme_fdp_test.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "config-host.h"
#include "engines/nvme_dp.h"
#include "helpers/jobs.h"
#include "helpers/run.h"
#include "internal.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

TEST(options_as_fio_reads_them)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd")) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_DP_NONE, job.dp_type);
	EXPECT_EQ(BQ_DP_ROUNDROBIN, job.dp_select);
	EXPECT_EQ(0, job.dp_nr_ids);
	/* Lists with ranges, kept in ascending order as fio keeps them. */
	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "fdp=1", "fdp_pli=6,0-2,4"))
		TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.dp_fdp);
	ASSERT_EQ(5, job.dp_nr_ids);
	EXPECT_EQ(0, job.dp_ids[0]);
	EXPECT_EQ(1, job.dp_ids[1]);
	EXPECT_EQ(2, job.dp_ids[2]);
	EXPECT_EQ(4, job.dp_ids[3]);
	EXPECT_EQ(6, job.dp_ids[4]);
	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "data_placement=streams",
			   "plids=0x10", "plid_select=random"));
	EXPECT_EQ(BQ_DP_STREAMS, job.dp_type);
	EXPECT_EQ(BQ_DP_RANDOM, job.dp_select);
	EXPECT_EQ(16, job.dp_ids[0]);
	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "dataplacement=fdp",
			   "fdp_pli_select=roundrobin", "plids=0-127"));
	EXPECT_EQ(128, job.dp_nr_ids);

	/* fio's refusals, each naming the option. */
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "plids=0-128"));
	EXPECT_NE(NULL, strstr(err.msg, "at most 128"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "plids=4-2"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "plids=0x10000"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "plids=two"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "dataplacement=zns"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "plid_select=next"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "fdp=1",
				 "dataplacement=streams", "plids=1"));
	EXPECT_NE(NULL, strstr(err.msg, "fdp=1"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "dataplacement=streams"));
	EXPECT_NE(NULL, strstr(err.msg, "plids="));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring", "fdp=1"));
	EXPECT_NE(NULL, strstr(err.msg, "ioengine=io_uring_cmd"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "fdp=1",
				 "plid_select=scheme"));
	EXPECT_NE(NULL, strstr(err.msg, "dp_scheme"));
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "ioengine=io_uring_cmd", "fdp=1",
				 "plid_select=scheme", "dp_scheme=/nonexistent/scheme"));
	EXPECT_NE(NULL, strstr(err.msg, "/nonexistent/scheme"));
}

/* Written back as options (result files, --replay), the job comes back the same. */
TEST(to_args_round_trip)
{
	char *argv[] = { "--name=n", "--filename=/dev/ng0n1", "--ioengine=io_uring_cmd",
			 "--rw=randwrite", "--fdp=1", "--plids=3,1", "--plid_select=random" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err = { 0 };
	struct bq_strv out = { 0 };

	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(argv), argv, &a, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_DP_FDP, b.jobs[0].dp_type);
	EXPECT_EQ(BQ_DP_RANDOM, b.jobs[0].dp_select);
	ASSERT_EQ(2, b.jobs[0].dp_nr_ids);
	EXPECT_EQ(1, b.jobs[0].dp_ids[0]);
	EXPECT_EQ(3, b.jobs[0].dp_ids[1]);
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

/* Streams need no device: the identifiers are plids= themselves. */
static void streams(struct __test_metadata *_metadata, struct bq_nvme_dp *dp,
		    const char *select, const char *scheme)
{
	char sel[64], sch[300];
	struct bq_parse_error err;
	struct bq_job job;
	char msg[256] = "";

	snprintf(sel, sizeof(sel), "plid_select=%s", select);
	snprintf(sch, sizeof(sch), "dp_scheme=%s", scheme ? scheme : "x");
	if (scheme) {
		ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "dataplacement=streams",
				   "plids=2,5,9", sel, sch)) TH_LOG("%s", err.msg);
	} else {
		ASSERT_EQ(0, PARSE(&job, &err, "ioengine=io_uring_cmd", "dataplacement=streams",
				   "plids=2,5,9", sel)) TH_LOG("%s", err.msg);
	}
	ASSERT_EQ(0, bq_nvme_dp_init(dp, &job, -1, 1, 0x89, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_EQ(BQ_NVME_DTYPE_STREAMS, dp->dtype);
}

TEST(round_robin_from_the_first)
{
	struct bq_nvme_dp dp;
	const uint16_t want[] = { 2, 5, 9, 2, 5, 9, 2 };

	streams(_metadata, &dp, "roundrobin", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(want[i], bq_nvme_dp_pick(&dp, i * 4096));
}

TEST(random_draws_are_uniform)
{
	unsigned int seen[10] = { 0 };
	struct bq_nvme_dp dp;
	const int n = 30000;

	streams(_metadata, &dp, "random", NULL);
	for (int i = 0; i < n; i++) {
		uint16_t id = bq_nvme_dp_pick(&dp, 0);

		ASSERT_TRUE(id == 2 || id == 5 || id == 9);
		seen[id]++;
	}
	/* Each a third, within 5 standard deviations (about 0.014 here). */
	EXPECT_GT(seen[2], n / 3 - 400);
	EXPECT_LT(seen[2], n / 3 + 400);
	EXPECT_GT(seen[5], n / 3 - 400);
	EXPECT_LT(seen[5], n / 3 + 400);
}

/* fio's scheme file: the first range holding the offset; none: 0, the default handle. */
TEST(scheme_ranges)
{
	char path[] = "/tmp/blkqual-dp-scheme.XXXXXX";
	struct bq_nvme_dp dp;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "0, 1048576, 3\n1048576,2097152,7\n0,4194304,1\n");
	ASSERT_EQ(0, fclose(f));
	streams(_metadata, &dp, "scheme", path);
	unlink(path);
	EXPECT_EQ(3, dp.nr_scheme == 3 ? bq_nvme_dp_pick(&dp, 0) : 0xffff);
	EXPECT_EQ(3, bq_nvme_dp_pick(&dp, 1048575));
	EXPECT_EQ(7, bq_nvme_dp_pick(&dp, 1048576));
	EXPECT_EQ(1, bq_nvme_dp_pick(&dp, 3 << 20));
	EXPECT_EQ(0, bq_nvme_dp_pick(&dp, 4 << 20));
}

/* DTYPE in dword 12's bits 23:20, DSPEC in dword 13's 31:16; the rest kept. */
TEST(directive_fields)
{
#ifdef HAVE_NVME_URING_CMD
	struct nvme_uring_cmd cmd;
	char buf[8192];

	ASSERT_EQ(0, bq_nvme_rw_cmd(&cmd, true, 1, 8192, 8192, 4096, buf));
	bq_nvme_dp_cmd(&cmd, BQ_NVME_DTYPE_FDP, 0x1234);
	EXPECT_EQ(1u | (2u << 20), cmd.cdw12);
	EXPECT_EQ(0x1234u << 16, cmd.cdw13);
	EXPECT_EQ(2u, cmd.cdw10);
	bq_nvme_dp_cmd(&cmd, BQ_NVME_DTYPE_STREAMS, 7);
	EXPECT_EQ(7u << 16, cmd.cdw13);
#else
	SKIP(return, "built without struct nvme_uring_cmd (kernel headers too old)");
#endif
}

/* A job file with them runs as far as the target: --parse-only accepts it. */
TEST(parse_only_accepts_the_job)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--parse-only", "--name=w", "--filename=/dev/ng0n1",
				 "--ioengine=io_uring_cmd", "--cmd_type=nvme", "--rw=randwrite",
				 "--fdp=1", "--fdp_pli=0,1,2,3", "--size=30%", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
