// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom_test.c - sprandom=1 preconditions as fio's head does
 *
 * fio 3.33 lacks it; the figures below were measured with fio's head
 * (commit f5344384): its --debug=sprandom model (each region's invalid
 * share, the physical size, the writes per region) and its write_iolog
 * on the same jobs.  fio's LFSR and draws are its own generators, so the
 * blocks differ; what must agree is the model exactly, and in a run the
 * share of each region's writes written again later (the region's invalid
 * share) within 4 sigma of the model, every block written, and the count
 * of writes close to fio's.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "io/sprandom.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/run.h"

/* fio head's invalid_pct (1/10000) per region, from --debug=sprandom */
static const uint32_t fio_10_015[] = { 2479, 2237, 1988, 1730, 1464, 1190, 906, 614, 312, 0 };
static const uint32_t fio_10_030[] = { 4225, 3862, 3477, 3069, 2634, 2171, 1678, 1152, 594, 0 };
static const uint32_t fio_7_030[] = { 4225, 3671, 3068, 2406, 1678, 878, 0 };

TEST(model_is_fios)
{
	uint32_t pct[10];

	ASSERT_EQ(0, bq_sprandom_model(10, 0.15, pct));
	for (int r = 0; r < 10; r++) {
		EXPECT_EQ(fio_10_015[r], pct[r]) TH_LOG("region %d", r);
	}
	ASSERT_EQ(0, bq_sprandom_model(10, 0.3, pct));
	for (int r = 0; r < 10; r++) {
		EXPECT_EQ(fio_10_030[r], pct[r]) TH_LOG("region %d", r);
	}
	ASSERT_EQ(0, bq_sprandom_model(7, 0.3, pct));
	for (int r = 0; r < 7; r++) {
		EXPECT_EQ(fio_7_030[r], pct[r]) TH_LOG("region %d", r);
	}
	/* fio head's physical_size lines */
	EXPECT_EQ(4820992u, bq_sprandom_physical(4 << 20, 0.15, 4096));
	EXPECT_EQ(77172736u, bq_sprandom_physical(64 << 20, 0.15, 4096));
	EXPECT_EQ(87240704u, bq_sprandom_physical(64 << 20, 0.3, 4096));
	EXPECT_EQ(9646592u, bq_sprandom_physical(8 << 20, 0.15, 512));
	EXPECT_EQ(10905088u, bq_sprandom_physical(8 << 20, 0.3, 512));
	EXPECT_EQ(-EINVAL, bq_sprandom_model(0, 0.15, pct));
	EXPECT_EQ(-EINVAL, bq_sprandom_model(10, 1.0, pct));
}

TEST(options_and_refusals)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "rw=randwrite", "sprandom=1")) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.sprandom);
	EXPECT_EQ(100u, job.spr_num_regions);
	EXPECT_EQ(0.15, job.spr_op);
	EXPECT_EQ(0u, job.spr_cs);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rw=randwrite", "sprandom=1", "spr_op=0.21",
			   "spr_num_regions=400", "spr_cs=1m", "random_generator=lfsr",
			   "norandommap=1")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0.21, job.spr_op);
	EXPECT_EQ(400u, job.spr_num_regions);
	EXPECT_EQ(1u << 20, job.spr_cs);
	bq_job_release(&job);
	/* fio head's refusals, by its messages */
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randread", "sprandom=1"));
	EXPECT_NE(NULL, strstr(err.msg, "requires random write"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=write", "sprandom=1"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1",
				 "random_generator=tausworthe"));
	EXPECT_NE(NULL, strstr(err.msg, "random_generator=lfsr"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1", "norandommap=0"));
	EXPECT_NE(NULL, strstr(err.msg, "norandommap=1"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1",
				 "filename=/dev/null:/dev/zero"));
	EXPECT_NE(NULL, strstr(err.msg, "only one file"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1", "numjobs=2"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1", "spr_op=1.5"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randwrite", "sprandom=1", "spr_num_regions=0"));
	/* fio needs a value: "sprandom" alone fails to parse there too. */
	EXPECT_NE(0, PARSE(NULL, &err, "rw=randwrite", "sprandom"));
}

/* ---- runs ---------------------------------------------------------------- */

#define FILE_SIZE	(8 << 20)
#define BS		512
#define NBLK		(FILE_SIZE / BS)

FIXTURE(tmp)
{
	char dir[64];
	char data[96];
	char log[96];
};

FIXTURE_SETUP(tmp)
{
	int fd;

	strcpy(self->dir, "/tmp/bq-sprandom.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/data", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/iolog", self->dir);
	fd = open(self->data, O_CREAT | O_WRONLY, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, FILE_SIZE));
	close(fd);
}

FIXTURE_TEARDOWN(tmp)
{
	unlink(self->data);
	unlink(self->log);
	rmdir(self->dir);
}

struct spr_case {
	const char *regions, *op, *cs;
	uint32_t n;
	double opv;
	const uint32_t *pct;
	uint64_t fio_writes;	/* fio head's write count on this job */
};

/*
 * fio head on the same jobs: 18841 writes (its physical size, 16378
 * blocks new) for 10 regions at 0.15, the same with spr_cs=64k, and 21295
 * writes (all 16384 blocks new) for 7 regions at 0.3.
 */
static const struct spr_case cases[] = {
	{ "--spr_num_regions=10", "--spr_op=0.15", "--spr_cs=0", 10, 0.15, fio_10_015, 18841 },
	{ "--spr_num_regions=10", "--spr_op=0.15", "--spr_cs=64k", 10, 0.15, fio_10_015, 18841 },
	{ "--spr_num_regions=7", "--spr_op=0.3", "--spr_cs=0", 7, 0.3, fio_7_030, 21295 },
};

/* The write blocks of the run's iolog, in order; returns how many. */
static size_t read_writes(const char *path, uint64_t *w, size_t max)
{
	char line[512], act[16];
	unsigned long long off, len;
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max)
		if (sscanf(line, "%*s %*s %15s %llu %llu", act, &off, &len) == 3 &&
		    !strcmp(act, "write") && len == BS && off % BS == 0)
			w[n++] = off / BS;
	fclose(f);
	return n;
}

TEST_F(tmp, regions_follow_the_model)
{
	size_t max = 2 * NBLK;
	uint64_t *w = calloc(max, sizeof(*w));
	uint32_t *last = calloc(NBLK, sizeof(*last));

	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, last);
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		const struct spr_case *k = &cases[c];
		uint64_t phys = bq_sprandom_physical(FILE_SIZE, k->opv, BS) / BS;
		uint64_t rwc = phys / k->n, seen = 0;
		char file[128], log[128];
		const char *argv[] = {
			blkqual_path(), "run", "--no-status", "--name=spr", "--ioengine=psync",
			"--rw=randwrite", "--bs=512", "--sprandom=1", k->regions, k->op, k->cs,
			file, log, NULL,
		};
		struct run_result r;
		size_t n;

		snprintf(file, sizeof(file), "--filename=%s", self->data);
		snprintf(log, sizeof(log), "--write_iolog=%s", self->log);
		unlink(self->log);
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(0, r.status) TH_LOG("%s %s %s: %s", k->regions, k->op, k->cs, r.err);
		run_result_free(&r);
		n = read_writes(self->log, w, max);
		/* Ends at the physical size or when every block is new once. */
		EXPECT_GE(phys, n);
		for (size_t i = 0; i < NBLK; i++)
			last[i] = UINT32_MAX;
		for (size_t i = 0; i < n; i++) {
			ASSERT_GT(NBLK, w[i]);
			seen += last[w[i]] == UINT32_MAX;
			last[w[i]] = (uint32_t)i;
		}
		EXPECT_TRUE(n == phys || seen == NBLK) TH_LOG("%zu writes, %llu blocks", n,
							     (unsigned long long)seen);
		EXPECT_LE(fabs((double)n - (double)k->fio_writes), 0.02 * (double)k->fio_writes)
			TH_LOG("%zu writes, fio head %llu", n, (unsigned long long)k->fio_writes);
		/* Each region's writes written again later: its invalid share. */
		for (uint32_t reg = 0; reg + 1 < k->n && (reg + 1) * rwc <= n; reg++) {
			double p = k->pct[reg] / 10000.0, sigma = sqrt(p * (1 - p) / (double)rwc);
			uint64_t again = 0;

			for (uint64_t i = reg * rwc; i < (reg + 1) * rwc; i++)
				again += last[w[i]] != i;
			EXPECT_LE(fabs((double)again / (double)rwc - p), 4 * sigma + 1e-9)
				TH_LOG("%s %s region %u: %.4f, model %.4f", k->regions, k->op, reg,
				       (double)again / (double)rwc, p);
		}
	}
	free(w);
	free(last);
}

/*
 * rw=randrw: fio's reads draw from the preconditioning's LFSR, so read
 * blocks are not written.  fio head on this job: 1098 reads and 1149
 * writes, 2247 I/Os, the 2048 blocks each drawn once.
 */
TEST_F(tmp, randrw_reads_take_blocks)
{
	char file[128], log[128], line[512], act[16];
	const char *argv[] = {
		blkqual_path(), "run", "--no-status", "--name=spr", "--ioengine=psync",
		"--rw=randrw", "--bs=4k", "--sprandom=1", "--spr_num_regions=5", file, log, NULL,
	};
	uint8_t *seen = calloc(FILE_SIZE / 4096, 1);
	unsigned long long off;
	size_t ios = 0, blocks = 0;
	struct run_result r;
	FILE *f;

	ASSERT_NE(NULL, seen);
	snprintf(file, sizeof(file), "--filename=%s", self->data);
	snprintf(log, sizeof(log), "--write_iolog=%s", self->log);
	unlink(self->log);
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	f = fopen(self->log, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %15s %llu", act, &off) != 2 ||
		    (strcmp(act, "read") && strcmp(act, "write")))
			continue;
		ASSERT_GT((unsigned long long)FILE_SIZE, off);
		ios++;
		blocks += !seen[off / 4096];
		seen[off / 4096] = 1;
	}
	fclose(f);
	free(seen);
	EXPECT_EQ(FILE_SIZE / 4096, blocks);
	EXPECT_LE(fabs((double)ios - 2247.0), 0.02 * 2247.0) TH_LOG("%zu I/Os", ios);
}

/* fio head refuses a cache larger than a region (its filesetup fails). */
TEST_F(tmp, cache_larger_than_a_region)
{
	char file[128];
	const char *argv[] = {
		blkqual_path(), "run", "--no-status", "--name=spr", "--ioengine=psync",
		"--rw=randwrite", "--bs=512", "--sprandom=1", "--spr_num_regions=10",
		"--spr_cs=1m", file, NULL,
	};
	struct run_result r;

	snprintf(file, sizeof(file), "--filename=%s", self->data);
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_NE(0, r.status);
	EXPECT_TRUE(r.err && strstr(r.err, "spr_cs")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
