// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_test.c - compare's verdict, as the library decides it
 *
 * Samples made here with known shifts: a clear regression and a clear
 * improvement are called so, a shift below the threshold or inside the
 * noise is not, one sample a side is "unknown", Holm's correction keeps a
 * family of metrics honest, and interval samples of one run need their
 * whole interval beyond the threshold.  Three runs a side find a 98 %
 * drop; where the runs could not have shown a change of the threshold's
 * size the verdict is inconclusive, never "within noise"; and 200
 * comparisons of identical jobs with realistic noise and drift give no
 * more false verdicts than the confidence allows.
 */
#include <math.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "blkqual_stats.h"
#include "stats/stats_int.h"

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
	/* Large, but inside noise so wide that no change could have shown. */
	EXPECT_EQ(BQ_VERDICT_INCONCLUSIVE, one(100, 94, 60, true, false, 0.05));
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
	EXPECT_EQ(BQ_VERDICT_INCONCLUSIVE, one(100, 93, 6, true, true, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 93, 6, true, false, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, one(100, 70, 2, true, true, 0.05));
}

/* Student's t against its tables. */
TEST(t_distribution)
{
	EXPECT_LT(fabs(bq_t_quantile(0.975, 2) - 4.3027), 1e-3);
	EXPECT_LT(fabs(bq_t_quantile(0.975, 10) - 2.2281), 1e-3);
	EXPECT_LT(fabs(bq_t_quantile(0.995, 4) - 4.6041), 1e-3);
	EXPECT_LT(fabs(bq_t_quantile(0.8, 30) - 0.8538), 1e-3);
	EXPECT_LT(fabs(bq_t_cdf(0, 3) - 0.5), 1e-12);
	EXPECT_LT(fabs(bq_t_cdf(-2.0, 7) + bq_t_cdf(2.0, 7) - 1), 1e-12);
	EXPECT_LT(fabs(bq_t_quantile(0.025, 5) + bq_t_quantile(0.975, 5)), 1e-9);
}

/*
 * The case a rank test could not see: IOPS 149k -> 2k with three runs a
 * side.  The exact Mann-Whitney p of 3 against 3 is at least 0.1.
 */
TEST(three_runs_a_side_see_a_collapse)
{
	double b[3] = { 148.2e3, 149.0e3, 150.1e3 }, n[3] = { 2.01e3, 1.99e3, 2.0e3 };
	struct bq_metric_cmp c = { .higher_is_better = true }, *v[1] = { &c };

	bq_metric_judge(&c, b, 3, n, 3, 0.95);
	ASSERT_EQ(0, bq_verdict_decide(v, 1, 0.95, 0.05));
	EXPECT_EQ(BQ_VERDICT_REGRESSION, c.v);
	EXPECT_LT(c.p, 1e-4);
	EXPECT_LT(c.hi, -0.98);
}

/* Inconclusive comes with the runs that would settle it, and more runs settle it. */
TEST(inconclusive_says_how_many_runs)
{
	struct bq_metric_cmp c = { .higher_is_better = true }, *v[1] = { &c };
	double b[N], n[N];

	samples(b, 3, 100, 12);
	samples(n, 3, 100, 12);
	bq_metric_judge(&c, b, 3, n, 3, 0.95);
	ASSERT_EQ(0, bq_verdict_decide(v, 1, 0.95, 0.05));
	ASSERT_EQ(BQ_VERDICT_INCONCLUSIVE, c.v);
	EXPECT_GT(c.detectable, 0.05);
	EXPECT_GT(c.runs_needed, 3);
	TH_LOG("3 runs a side could see %.1f%%; %d would see 5%%", c.detectable * 100,
	       c.runs_needed);
}

/* xorshift64*, and a normal deviate from it (Box-Muller). */
static double gauss(uint64_t *s)
{
	double u1, u2;

	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	u1 = ((*s * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	u2 = ((*s * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
	return sqrt(-2 * log(u1 + 1e-300)) * cos(2 * M_PI * u2);
}

/*
 * 200 comparisons of identical jobs: nine metrics of 3 to 8 runs a side,
 * each with its own noise (CV 1 % to 30 %, as IOPS to max latency), a
 * run-to-run drift shared by all metrics (the machine warming up: new
 * runs come after base runs), and correlated metrics.  At 95 %
 * confidence at most 5 % of them may come out a regression or an
 * improvement, plus a binomial margin of three standard deviations.
 */
TEST(false_verdicts_stay_within_the_confidence)
{
	static const double cv[9] = { 0.01, 0.01, 0.02, 0.02, 0.05, 0.1, 0.2, 0.3, 0.02 };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int false_verdicts = 0, inconclusive = 0;

	for (int sim = 0; sim < 200; sim++) {
		int runs = 3 + sim % 6;
		double run_effect[2][8], drift = 0;
		struct bq_metric_cmp c[9], *v[9];

		for (int side = 0; side < 2; side++)
			for (int r = 0; r < runs; r++) {
				drift += 0.002 * gauss(&seed);
				run_effect[side][r] = drift + 0.01 * gauss(&seed);
			}
		for (int m = 0; m < 9; m++) {
			double b[8], n[8];

			for (int r = 0; r < runs; r++) {
				b[r] = 1000 * exp(run_effect[0][r] + cv[m] * gauss(&seed));
				n[r] = 1000 * exp(run_effect[1][r] + cv[m] * gauss(&seed));
			}
			c[m] = (struct bq_metric_cmp){ .higher_is_better = m < 2 };
			v[m] = &c[m];
			bq_metric_judge(&c[m], b, runs, n, runs, 0.95);
		}
		ASSERT_EQ(0, bq_verdict_decide(v, 9, 0.95, 0.05));
		switch (bq_verdict_overall(v, 9)) {
		case BQ_VERDICT_REGRESSION:
		case BQ_VERDICT_IMPROVEMENT:
			false_verdicts++;
			break;
		case BQ_VERDICT_INCONCLUSIVE:
			inconclusive++;
			break;
		default:
			break;
		}
	}
	TH_LOG("%d of 200 false verdicts, %d inconclusive", false_verdicts, inconclusive);
	EXPECT_LE(false_verdicts, 10 + 3 * 3.08);
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
	EXPECT_STREQ("inconclusive", bq_verdict_name(BQ_VERDICT_INCONCLUSIVE));
}

TEST_HARNESS_MAIN
