// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_test.c - compare's verdict, as the library decides it
 *
 * Samples made here with known shifts: a clear regression and a clear
 * improvement are called so, a shift below the threshold or inside the
 * noise is not, one sample a side is "unknown", Holm's correction keeps a
 * family of metrics honest, and interval samples of one run need their
 * whole interval beyond the threshold.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "blkqual_stats.h"

#define N 8

/* @n samples around @centre, spread by +-@spread in a fixed pattern. */
static void samples(double *v, int n, double centre, double spread)
{
	static const double pattern[N] = { -1, 0.5, -0.25, 1, -0.75, 0.25, 0.75, -0.5 };

	for (int i = 0; i < n; i++)
		v[i] = centre + spread * pattern[i % N];
}

static enum bq_verdict one(double base, double new, double spread, bool higher, bool intervals,
			   double threshold)
{
	struct bq_metric_cmp c = { .higher_is_better = higher, .intervals = intervals };
	struct bq_metric_cmp *v[1] = { &c };
	double b[N], n[N];

	samples(b, N, base, spread);
	samples(n, N, new, spread);
	bq_metric_judge(&c, b, N, n, N, 0.95);
	if (bq_verdict_decide(v, 1, 0.95, threshold))
		return BQ_VERDICT_UNKNOWN;
	return c.v;
}

TEST(clear_shifts)
{
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 80, 2, true, false, 0.05));
	EXPECT_EQ(BQ_VERDICT_IMPROVEMENT, one(100, 120, 2, true, false, 0.05));
	/* For latency, lower is better: the same numbers mean the opposite. */
	EXPECT_EQ(BQ_VERDICT_IMPROVEMENT, one(100, 80, 2, false, false, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 120, 2, false, false, 0.05));
}

TEST(no_shift_is_noise)
{
	EXPECT_EQ(BQ_VERDICT_NOISE, one(100, 100, 2, true, false, 0.05));
	/* Significant, but smaller than the threshold: it does not matter. */
	EXPECT_EQ(BQ_VERDICT_NOISE, one(100, 97, 0.5, true, false, 0.05));
	/* Large, but inside the noise. */
	EXPECT_EQ(BQ_VERDICT_NOISE, one(100, 94, 60, true, false, 0.05));
}

TEST(one_sample_is_unknown)
{
	struct bq_metric_cmp c = { .higher_is_better = true };
	double b[1] = { 100 }, n[N];

	samples(n, N, 50, 1);
	bq_metric_judge(&c, b, 1, n, N, 0.95);
	EXPECT_EQ(BQ_VERDICT_UNKNOWN, c.v);
	EXPECT_TRUE(isnan(c.p));
	EXPECT_TRUE(fabs(c.change + 0.5) < 0.01);
}

/* One real shift among metrics that did not move: only it is called. */
TEST(holm_family)
{
	struct bq_metric_cmp c[10], *v[10];
	double b[N], n[N];

	for (int i = 0; i < 10; i++) {
		c[i] = (struct bq_metric_cmp){ .higher_is_better = true };
		v[i] = &c[i];
		samples(b, N, 100, 2);
		samples(n, N, i == 3 ? 70 : 100, 2);
		bq_metric_judge(&c[i], b, N, n, N, 0.95);
	}
	ASSERT_EQ(0, bq_verdict_decide(v, 10, 0.95, 0.05));
	for (int i = 0; i < 10; i++)
		EXPECT_EQ(i == 3 ? BQ_VERDICT_REGRESSION : BQ_VERDICT_NOISE, c[i].v);
	EXPECT_EQ(BQ_VERDICT_REGRESSION, bq_verdict_overall(v, 10));
}

/* Interval samples of one run: the whole interval must clear the threshold. */
TEST(intervals_need_the_whole_interval)
{
	EXPECT_EQ(BQ_VERDICT_NOISE, one(100, 93, 6, true, true, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 93, 6, true, false, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 70, 2, true, true, 0.05));
}

TEST(overall_and_names)
{
	struct bq_metric_cmp a = { .v = BQ_VERDICT_NOISE }, b = { .v = BQ_VERDICT_IMPROVEMENT };
	struct bq_metric_cmp u = { .v = BQ_VERDICT_UNKNOWN };
	struct bq_metric_cmp *both[2] = { &a, &b }, *none[1] = { &u };

	EXPECT_EQ(BQ_VERDICT_IMPROVEMENT, bq_verdict_overall(both, 2));
	EXPECT_EQ(BQ_VERDICT_UNKNOWN, bq_verdict_overall(none, 1));
	EXPECT_STREQ("within noise", bq_verdict_name(BQ_VERDICT_NOISE));
	EXPECT_STREQ("regression", bq_verdict_name(BQ_VERDICT_REGRESSION));
}

TEST_HARNESS_MAIN
