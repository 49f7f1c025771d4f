// SPDX-License-Identifier: GPL-2.0-only
/*
 * qualify_verdict_test.c - a qualification's verdict, as the library
 * decides it
 *
 * Synthetic rounds fed to the bookkeeping, no device: criteria met and
 * not met on the window's figures, a tracked figure that never settles
 * with and without require_steady, I/O errors and bad blocks failing a
 * run whose figures are fine, an interrupted run staying incomplete, and
 * a step that never ran.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual_qualify.h"
#include "qualify/qualify_int.h"

/* Two steps of one 4k random-write cell each; "w" tracks its writes. */
static const char two_steps[] =
	"[profile]\nwindow=3\nmax_rounds=6\nprecondition=1x\n%s\n"
	"[step:w]\nkind=iops\nmixes=0/100\nbs=4k\n"
	"[step:lat]\nkind=latency\nmixes=0/100\nbs=4k\ntracked=0/100 4k write mean\n"
	"[criteria]\n%s\n";

FIXTURE(qual)
{
	struct bq_profile prof;
	struct bq_qplan plan;
	struct bq_device dev;
	struct bq_qual q;
};

FIXTURE_SETUP(qual)
{
	memset(self, 0, sizeof(*self));
}

FIXTURE_TEARDOWN(qual)
{
	bq_qual_free(&self->q);
	bq_qplan_free(&self->plan);
	bq_profile_free(&self->prof);
}

/* A profile with @settings in [profile] and @criteria, its plan, and bq_qual_init(). */
static int setup_qual(FIXTURE_DATA(qual) *self, const char *settings, const char *criteria)
{
	struct bq_parse_error err = { 0 };
	char text[1024];
	int ret;

	snprintf(text, sizeof(text), two_steps, settings, criteria);
	ret = bq_profile_parse_text("t.ini", text, &self->prof, &err);
	if (!ret)
		ret = bq_qualify_plan(&self->prof, 1ull << 30, 512, &self->plan, &err);
	if (ret) {
		fprintf(stderr, "# %s: %s\n", err.where, err.msg);
		return ret;
	}
	return bq_qual_init(&self->q, &self->prof, &self->plan, "/dev/null", &self->dev);
}

/* One round of step @s: @iops 4k writes in a second, each taking @lat_ns. */
static int round_of(struct bq_qual *q, int s, double iops, uint64_t lat_ns)
{
	struct bq_qresult cell;
	int ret = bq_qresult_init(&cell);

	if (ret)
		return ret;
	cell.runtime_ns = 1000000000ull;
	cell.d[BQ_WRITE].ios = (uint64_t)iops;
	cell.d[BQ_WRITE].bytes = (uint64_t)iops * 4096;
	for (int i = 0; i < 100; i++)
		bq_hist_add(&cell.d[BQ_WRITE].lat, lat_ns);
	return bq_qstep_add_round(&q->runs[s], &cell, NULL);
}

/* Steady rounds in both steps: 1000 IOPS, then 100 us at QD1. */
static int steady_rounds(struct bq_qual *q)
{
	int ret = 0;

	for (int r = 0; r < 3 && !ret; r++)
		ret = round_of(q, 0, 1000, 50000);
	for (int r = 0; r < 3 && !ret; r++)
		ret = round_of(q, 1, 10000, 100000);
	return ret;
}

TEST_F(qual, criteria_met_pass)
{
	ASSERT_EQ(0, setup_qual(self, "", "4k randwrite IOPS >= 900\n"
				"randwrite 4k qd1 p99 <= 1 ms"));
	EXPECT_EQ(NULL, self->q.verify);
	ASSERT_EQ(0, steady_rounds(&self->q));
	ASSERT_TRUE(bq_qstep_finished(&self->q.runs[0]));
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_PASS, self->q.verdict);
	EXPECT_STREQ("pass", bq_qual_verdict_name(self->q.verdict));
	EXPECT_STREQ("", self->q.why);
	EXPECT_TRUE(self->q.crit[0].pass);
	EXPECT_EQ(1000, self->q.crit[0].measured);
	EXPECT_TRUE(self->q.crit[1].pass);
	EXPECT_LT(fabs(self->q.crit[1].measured - 100000), 100000 / 100.0);
	/* The figures are the window's sum: three rounds of 1000. */
	ASSERT_NE(NULL, self->q.window);
	ASSERT_NE(NULL, self->q.window[0]);
	EXPECT_EQ(3000, self->q.window[0][0].d[BQ_WRITE].ios);
	EXPECT_EQ(3000000000ull, self->q.window[0][0].runtime_ns);
}

TEST_F(qual, criterion_not_met_fails)
{
	ASSERT_EQ(0, setup_qual(self, "", "4k randwrite IOPS >= 900\n"
				"randwrite 4k qd1 p99 <= 50 us"));
	ASSERT_EQ(0, steady_rounds(&self->q));
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_FAIL, self->q.verdict);
	EXPECT_TRUE(self->q.crit[0].pass);
	EXPECT_FALSE(self->q.crit[1].pass);
	/* The criteria table says why; the note is for other reasons. */
	EXPECT_STREQ("", self->q.why);
}

/* Halving every round never settles: with require_steady=yes, a fail. */
TEST_F(qual, unsteady_fails_only_when_required)
{
	double iops = 64000;

	ASSERT_EQ(0, setup_qual(self, "require_steady=yes", "4k randwrite IOPS >= 1"));
	while (!bq_qstep_finished(&self->q.runs[0])) {
		ASSERT_EQ(0, round_of(&self->q, 0, iops, 50000));
		iops /= 2;
	}
	EXPECT_EQ(6, self->q.runs[0].nr_rounds);
	EXPECT_EQ(BQ_STEADY_NOT_REACHED, self->q.runs[0].steady[BQ_WRITE].state);
	for (int r = 0; r < 3; r++) {
		ASSERT_EQ(0, round_of(&self->q, 1, 10000, 100000));
	}
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_TRUE(self->q.crit[0].pass);
	EXPECT_EQ(BQ_QUAL_FAIL, self->q.verdict);
	EXPECT_STREQ("step w: write steady state not reached (require_steady=yes)",
		     self->q.why);

	/* The same rounds, judged by a profile that does not require it. */
	self->prof.require_steady = false;
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_PASS, self->q.verdict);
	EXPECT_STREQ("", self->q.why);
}

TEST_F(qual, io_errors_and_bad_blocks_fail)
{
	ASSERT_EQ(0, setup_qual(self, "verify=crc32c", "4k randwrite IOPS >= 900"));
	ASSERT_NE(NULL, self->q.verify);
	EXPECT_EQ(BQ_VERIFY_CRC32C, self->q.verify->method);
	ASSERT_EQ(0, steady_rounds(&self->q));
	self->q.errors = 3;
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_FAIL, self->q.verdict);
	EXPECT_TRUE(self->q.crit[0].pass);
	EXPECT_STREQ("3 I/O errors", self->q.why);
	/* Bad blocks are the graver news, and the one told. */
	self->q.verify->bad = 2;
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_FAIL, self->q.verdict);
	EXPECT_STREQ("verify: 2 bad blocks", self->q.why);
	self->q.errors = 0;
	self->q.verify->bad = 0;
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_PASS, self->q.verdict);
}

TEST_F(qual, interrupted_is_incomplete)
{
	ASSERT_EQ(0, setup_qual(self, "", "4k randwrite IOPS >= 900\n"
				"randwrite 4k qd1 p99 <= 50 us"));
	/* One round of the first step, then the signal. */
	ASSERT_EQ(0, round_of(&self->q, 0, 1000, 50000));
	self->q.interrupted = true;
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_INCOMPLETE, self->q.verdict);
	EXPECT_STREQ("incomplete", bq_qual_verdict_name(self->q.verdict));
	/* What ran is still judged, for the partial report. */
	EXPECT_TRUE(self->q.crit[0].pass);
	EXPECT_EQ(1000, self->q.crit[0].measured);
	/* The step that never ran has no figures, and its criterion no cell. */
	EXPECT_NE(NULL, self->q.window[0]);
	EXPECT_EQ(NULL, self->q.window[1]);
	EXPECT_FALSE(self->q.crit[1].pass);
	EXPECT_TRUE(isnan(self->q.crit[1].measured));
	EXPECT_STREQ("no such cell", self->q.crit[1].note);
}

TEST_F(qual, not_judged_is_incomplete)
{
	ASSERT_EQ(0, setup_qual(self, "", "4k randwrite IOPS >= 900"));
	EXPECT_EQ(BQ_QUAL_INCOMPLETE, self->q.verdict);
	EXPECT_EQ(NULL, self->q.crit);
	EXPECT_EQ(NULL, self->q.window);
	EXPECT_FALSE(self->q.purge_tried);
	EXPECT_FALSE(self->q.precond_done);
	EXPECT_EQ(2, self->plan.nr_steps);
	EXPECT_EQ(&self->plan.steps[1], self->q.runs[1].ps);
	EXPECT_STREQ("fail", bq_qual_verdict_name(BQ_QUAL_FAIL));
}

TEST_F(qual, bad_steady_settings_refused)
{
	struct bq_parse_error err = { 0 };
	char text[1024];

	snprintf(text, sizeof(text), two_steps, "", "");
	ASSERT_EQ(0, bq_profile_parse_text("t.ini", text, &self->prof, &err));
	ASSERT_EQ(0, bq_qualify_plan(&self->prof, 1ull << 30, 512, &self->plan, &err));
	self->prof.steady.window = 1;
	EXPECT_EQ(-EINVAL, bq_qual_init(&self->q, &self->prof, &self->plan, "/dev/null",
					&self->dev));
	/* The teardown's bq_qual_free() copes with the half-made one. */
}

TEST_HARNESS_MAIN
