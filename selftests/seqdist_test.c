// SPDX-License-Identifier: GPL-2.0-only
/*
 * seqdist_test.c - random_distribution=sequence and random_sequence_stride
 * go where fio's head sends them
 *
 * fio 3.33 lacks both, so the expected blocks below were measured with
 * fio's head (commit f5344384) on the same jobs: its write_iolog on a
 * file, ioengine=psync, bs=4k unless said.  blkqual runs each job on a
 * file in a temp dir and its own write_iolog must list the same blocks in
 * the same order.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/run.h"

/* ---- parsing ------------------------------------------------------------ */

TEST(parse)
{
	struct bq_parse_error err;
	struct bq_job job;
	char list[400];
	size_t n = 0;

	ASSERT_EQ(0, set1("random_distribution", "sequence:2,0,1", &job, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_DIST_SEQUENCE, job.dist);
	EXPECT_EQ(3, job.nr_dist_seq);
	EXPECT_EQ(2u, job.dist_seq[0]);
	EXPECT_EQ(0u, job.dist_seq[1]);
	EXPECT_EQ(1u, job.dist_seq[2]);
	EXPECT_FALSE(job.dist_seq_stride);
	/* fio strips blanks around each entry. */
	ASSERT_EQ(0, set1("random_distribution", "sequence: 7 ,3", &job, &err));
	EXPECT_EQ(2, job.nr_dist_seq);
	EXPECT_EQ(7u, job.dist_seq[0]);
	EXPECT_EQ(3u, job.dist_seq[1]);
	ASSERT_EQ(0, set1("random_sequence_stride", "1", &job, &err));
	EXPECT_TRUE(job.dist_seq_stride);
	/* fio's refusals: no list, an empty or negative entry, more than 64. */
	EXPECT_EQ(-EINVAL, set1("random_distribution", "sequence", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "sequence:", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "sequence:1,,2", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "sequence:1,-2", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "sequence:1,x", NULL, &err));
	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", i ? "," : "sequence:", i);
	EXPECT_EQ(0, set1("random_distribution", list, &job, &err));
	EXPECT_EQ(64, job.nr_dist_seq);
	snprintf(list + n, sizeof(list) - n, ",64");
	EXPECT_EQ(-EINVAL, set1("random_distribution", list, NULL, &err));
	/* Another distribution after it forgets the list. */
	ASSERT_EQ(0, PARSE(&job, &err, "random_distribution=sequence:4,5",
			   "random_distribution=zipf:1.2"));
	EXPECT_EQ(0, job.nr_dist_seq);
	bq_job_release(&job);
}

TEST(round_trip)
{
	char *argv[] = { "--filename=/dev/x", "--rw=randread",
			 "--random_distribution=sequence:9,0,33", "--random_sequence_stride=1" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err = { 0 };
	struct bq_strv out = { 0 };

	ASSERT_EQ(0, bq_jobs_from_args(4, argv, &a, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_DIST_SEQUENCE, b.jobs[0].dist);
	EXPECT_EQ(3, b.jobs[0].nr_dist_seq);
	EXPECT_EQ(33u, b.jobs[0].dist_seq[2]);
	EXPECT_TRUE(b.jobs[0].dist_seq_stride);
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

/* ---- runs against fio head's write_iolog --------------------------------- */

FIXTURE(tmp)
{
	char dir[64];
	char data[96];
	char log[96];
};

FIXTURE_SETUP(tmp)
{
	int fd;

	strcpy(self->dir, "/tmp/bq-seqdist.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/data", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/iolog", self->dir);
	fd = open(self->data, O_CREAT | O_WRONLY, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 64 << 10));
	close(fd);
}

FIXTURE_TEARDOWN(tmp)
{
	unlink(self->data);
	unlink(self->log);
	rmdir(self->dir);
}

/*
 * Run blkqual with @opts (at most 6) on the file; @got receives the blocks
 * of @bs bytes, "r2 w0 ..." as fio head's iolog lists them.  Return: the
 * exit status.
 */
static int run_job(struct __test_metadata *_metadata, FIXTURE_DATA(tmp) *self, int bs,
		   const char *const *opts, char *got, size_t len)
{
	char file[128], log[128], bsopt[32], line[512];
	const char *argv[16] = { blkqual_path(), "run", "--no-status", "--name=seq",
				 "--ioengine=psync" };
	int argc = 5, status;
	struct run_result r;
	size_t n = 0;
	FILE *f;

	snprintf(file, sizeof(file), "--filename=%s", self->data);
	snprintf(log, sizeof(log), "--write_iolog=%s", self->log);
	snprintf(bsopt, sizeof(bsopt), "--bs=%d", bs);
	argv[argc++] = file;
	argv[argc++] = log;
	argv[argc++] = bsopt;
	for (int i = 0; opts[i] && argc < 15; i++)
		argv[argc++] = opts[i];
	argv[argc] = NULL;
	unlink(self->log);
	EXPECT_EQ(0, run_argv(argv, &r));
	status = r.status;
	run_result_free(&r);
	got[0] = '\0';
	f = fopen(self->log, "r");
	if (!f)
		return status;
	while (fgets(line, sizeof(line), f) && n < len) {
		char name[256], act[16];
		unsigned long long off;

		if (sscanf(line, "%*s %255s %15s %llu", name, act, &off) != 3 ||
		    (strcmp(act, "read") && strcmp(act, "write")))
			continue;
		n += (size_t)snprintf(got + n, len - n, "%s%c%llu", n ? " " : "", act[0],
				      off / 4096);
	}
	fclose(f);
	return status;
}

/* The blocks of one direction, in order ("r" or "w"), from a run's list. */
static void one_dir(const char *all, char d, char *out, size_t len)
{
	char buf[2048], *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", all);
	out[0] = '\0';
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (t[0] == d && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", t);
}

struct seq_case {
	const char *what;
	int bs;
	const char *opts[7];
	const char *want;	/* fio head f5344384, 4k blocks */
};

static const struct seq_case cases[] = {
	{ "example job 1, stride 0", 4096,
	  { "--rw=randread", "--size=48k", "--io_size=24k",
	    "--random_distribution=sequence:2,0,1" },
	  "r2 r0 r1 r2 r0 r1" },
	{ "example job 2, stride 1", 4096,
	  { "--rw=randread", "--size=48k", "--io_size=24k",
	    "--random_distribution=sequence:2,0,1", "--random_sequence_stride=1" },
	  "r2 r0 r1 r5 r3 r4" },
	{ "stride over the whole file", 4096,
	  { "--rw=randread", "--size=48k", "--io_size=96k",
	    "--random_distribution=sequence:2,0,1", "--random_sequence_stride=1" },
	  "r2 r0 r1 r5 r3 r4 r8 r6 r7 r11 r9 r10" },
	{ "stride 0, io_size past many cycles", 4096,
	  { "--rw=randwrite", "--size=64k", "--io_size=100k",
	    "--random_distribution=sequence:5,3,15,0" },
	  "w5 w3 w15 w0 w5 w3 w15 w0 w5 w3 w15 w0 w5 w3 w15 w0 w5 w3 w15 w0 w5 w3 w15 w0 w5" },
	{ "stride 1 ends at the first block past the region", 4096,
	  { "--rw=randwrite", "--size=64k", "--io_size=100k",
	    "--random_distribution=sequence:5,3,15,0", "--random_sequence_stride=1" },
	  "w5 w3 w15 w0 w9 w7" },
	{ "offset=", 4096,
	  { "--rw=randread", "--size=32k", "--offset=16k", "--io_size=40k",
	    "--random_distribution=sequence:1,0", "--random_sequence_stride=1" },
	  "r5 r4 r7 r6 r9 r8 r11 r10" },
	{ "blocks of bs=8k", 8192,
	  { "--rw=randread", "--size=64k", "--io_size=64k",
	    "--random_distribution=sequence:1,0", "--random_sequence_stride=1" },
	  "r2 r0 r6 r4 r10 r8 r14 r12" },
	{ "time_based stops at the end of the strides too", 4096,
	  { "--rw=randread", "--size=32k", "--runtime=1", "--time_based", "--number_ios=20",
	    "--random_distribution=sequence:1,0,3", "--random_sequence_stride=1" },
	  "r1 r0 r3 r4 r3 r6 r7 r6" },
	{ "loops=2 does not start the list over", 4096,
	  { "--rw=randread", "--size=24k", "--loops=2",
	    "--random_distribution=sequence:2,0,1", "--random_sequence_stride=1" },
	  "r2 r0 r1 r5 r3 r4" },
};

TEST_F(tmp, same_blocks_as_fio_head)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char got[2048];

		EXPECT_EQ(0, run_job(_metadata, self, cases[i].bs, cases[i].opts, got,
				     sizeof(got))) TH_LOG("%s", cases[i].what);
		EXPECT_STREQ(cases[i].want, got) TH_LOG("%s", cases[i].what);
	}
}

/*
 * rw=randrw: each direction counts its own I/Os.  fio head's run of this
 * job gave reads 3 1 2 6 4 5 9 7 8 12 and writes 3 1 2 6 4 5 (its
 * direction draws are its own): each direction's blocks are that list's
 * start.
 */
TEST_F(tmp, each_direction_its_own_count)
{
	static const char *const opts[] = {
		"--rw=randrw", "--size=64k", "--io_size=64k",
		"--random_distribution=sequence:3,1,2", "--random_sequence_stride=1", NULL,
	};
	static const char *const fio_list = "3 1 2 6 4 5 9 7 8 12 10 11 15 13 14";
	char got[2048], dir[1024];

	ASSERT_EQ(0, run_job(_metadata, self, 4096, opts, got, sizeof(got)));
	for (int d = 0; d < 2; d++) {
		char want[1024], buf[256], *save = NULL;
		size_t n = 0, k = 0;

		one_dir(got, "rw"[d], dir, sizeof(dir));
		for (char *p = dir; *p; p++)
			k += *p == ' ';
		k += dir[0] != '\0';
		EXPECT_LT(0u, k) TH_LOG("no %s", d ? "writes" : "reads");
		snprintf(buf, sizeof(buf), "%s", fio_list);
		for (char *t = strtok_r(buf, " ", &save); t && k; t = strtok_r(NULL, " ", &save), k--)
			n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%c%s", n ? " " : "",
					      "rw"[d], t);
		EXPECT_STREQ(want, dir);
	}
}

/* fio head: "sequence access block 20 in base pattern out of bounds", err=22, after r2. */
TEST_F(tmp, entry_past_the_region_is_einval)
{
	static const char *const opts[] = {
		"--rw=randread", "--size=48k", "--io_size=24k",
		"--random_distribution=sequence:2,20,1", NULL,
	};
	char got[256];

	EXPECT_EQ(1, run_job(_metadata, self, 4096, opts, got, sizeof(got)));
	EXPECT_STREQ("r2", got);
}

TEST_HARNESS_MAIN
