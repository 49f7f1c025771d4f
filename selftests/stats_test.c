// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats_test.c - the statistics behind compare: Mann-Whitney U against
 * values worked out by hand, and bootstrap intervals that cover the truth.
 */
#include <errno.h>
#include <math.h>

#include "kselftest_harness.h"

#include "blkqual_stats.h"
#include "stats/stats_int.h"

#define EXPECT_NEAR(want, got, tol) EXPECT_LE(fabs((double)(want) - (double)(got)), (tol))

TEST(exact_fully_separated)
{
	double a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };
	double c[5] = { 10, 11, 12, 13, 14 }, d[5] = { 1, 2, 3, 4, 5 };
	struct bq_mwu r;

	/* One arrangement of 20 is this extreme in each direction: p = 2/20. */
	ASSERT_EQ(0, bq_mwu_test(a, 3, b, 3, &r));
	EXPECT_TRUE(r.exact);
	EXPECT_EQ(0, r.u);
	EXPECT_NEAR(0.1, r.p, 1e-12);
	/* 5 and 5: 2 / C(10,5) = 2/252. */
	ASSERT_EQ(0, bq_mwu_test(c, 5, d, 5, &r));
	EXPECT_EQ(25, r.u);
	EXPECT_NEAR(2.0 / 252, r.p, 1e-12);
}

TEST(exact_interleaved)
{
	/* U = 2 for 3 vs 3: P(U <= 2) = (1 + 1 + 2) / 20, two-sided 0.4. */
	double a[3] = { 1, 2, 5 }, b[3] = { 3, 4, 6 };
	struct bq_mwu r;

	ASSERT_EQ(0, bq_mwu_test(a, 3, b, 3, &r));
	EXPECT_EQ(2, r.u);
	EXPECT_NEAR(0.4, r.p, 1e-12);
}

TEST(normal_with_ties)
{
	double a[40], b[40];
	struct bq_mwu r;

	for (int i = 0; i < 40; i++) {
		a[i] = 100 + i % 5;
		b[i] = 100 + i % 5;
	}
	ASSERT_EQ(0, bq_mwu_test(a, 40, b, 40, &r));
	EXPECT_FALSE(r.exact);
	EXPECT_EQ(800, r.u);
	EXPECT_GT(r.p, 0.9);
	for (int i = 0; i < 40; i++)
		b[i] = 90 + i % 5;
	ASSERT_EQ(0, bq_mwu_test(a, 40, b, 40, &r));
	EXPECT_EQ(1600, r.u);
	EXPECT_LT(r.p, 1e-10);
}

TEST(identical_constant_samples)
{
	double a[4] = { 7, 7, 7, 7 };
	struct bq_mwu r;

	ASSERT_EQ(0, bq_mwu_test(a, 4, a, 4, &r));
	EXPECT_EQ(1, r.p);
}

TEST(median)
{
	double odd[5] = { 5, 1, 4, 2, 3 }, even[4] = { 4, 1, 3, 2 };

	EXPECT_EQ(3, bq_median(odd, 5));
	EXPECT_EQ(2.5, bq_median(even, 4));
	EXPECT_EQ(5, odd[0]);
	EXPECT_TRUE(isnan(bq_median(odd, 0)));
}

TEST(bootstrap_covers_a_ten_percent_drop)
{
	double a[30], b[30], lo, hi;

	for (int i = 0; i < 30; i++) {
		a[i] = 1000 + (i * 37 % 11) - 5;
		b[i] = 900 + (i * 53 % 11) - 5;
	}
	ASSERT_EQ(0, bq_bootstrap_change(a, 30, b, 30, 0.95, 2000, 1, &lo, &hi));
	EXPECT_LT(lo, -0.1 + 0.01);
	EXPECT_GT(hi, -0.1 - 0.01);
	EXPECT_LT(hi, 0);
	/* The same seed gives the same interval. */
	{
		double lo2, hi2;

		ASSERT_EQ(0, bq_bootstrap_change(a, 30, b, 30, 0.95, 2000, 1, &lo2, &hi2));
		EXPECT_EQ(lo, lo2);
		EXPECT_EQ(hi, hi2);
	}
}

TEST(bad_input)
{
	double a[2] = { 1, NAN }, z[2] = { 0, 0 }, lo, hi;
	struct bq_mwu r;

	EXPECT_EQ(-EINVAL, bq_mwu_test(a, 2, a, 2, &r));
	EXPECT_EQ(-EINVAL, bq_mwu_test(a, 0, a, 1, &r));
	EXPECT_EQ(-EINVAL, bq_bootstrap_change(z, 2, z, 2, 0.95, 100, 1, &lo, &hi));
	EXPECT_EQ(-EINVAL, bq_bootstrap_change(z, 2, z, 2, 1.5, 100, 1, &lo, &hi));
}

TEST(mad_and_robust_z)
{
	/* Worked by hand: median 11, deviations 0 1 1 2 29 -> MAD 1. */
	double v[5] = { 9, 10, 11, 12, 40 }, same[3] = { 5, 5, 7 }, bad[2] = { 1, NAN };
	double med, mad;

	ASSERT_EQ(0, bq_mad(v, 5, &med, &mad));
	EXPECT_EQ(11, med);
	EXPECT_EQ(1, mad);
	EXPECT_NEAR(0.6745 * 29, bq_robust_z(40, med, mad), 1e-12);
	EXPECT_NEAR(-0.6745 * 2, bq_robust_z(9, med, mad), 1e-12);
	EXPECT_EQ(0, bq_robust_z(11, med, mad));
	/* More than half agree: MAD 0, anything else is infinitely far. */
	ASSERT_EQ(0, bq_mad(same, 3, &med, &mad));
	EXPECT_EQ(5, med);
	EXPECT_EQ(0, mad);
	EXPECT_TRUE(isinf(bq_robust_z(7, med, mad)) && bq_robust_z(7, med, mad) > 0);
	EXPECT_EQ(0, bq_robust_z(5, med, mad));
	EXPECT_EQ(-EINVAL, bq_mad(bad, 2, &med, &mad));
	EXPECT_EQ(-EINVAL, bq_mad(v, 0, &med, &mad));
}

/* Fleet's rule: far in z and far enough in percent, in a group big enough. */
TEST(outlier_rule)
{
	const double v[8] = { 100, 101, 99, 100.5, 99.5, 100, 52, 100.2 };
	const struct bq_outlier_rule rule = { .threshold = 3.5, .min_diff = 0.05, .min_group = 3 };
	struct bq_outlier_group grp;
	struct bq_outlier o[8];

	ASSERT_EQ(0, bq_outliers(v, 8, &rule, &grp, o));
	EXPECT_EQ(100, grp.median);
	for (int i = 0; i < 8; i++)
		EXPECT_EQ(i == 6, o[i].outlier);
	EXPECT_TRUE(o[6].z < -3.5);
	EXPECT_TRUE(fabs(o[6].diff + 0.48) < 1e-9);

	/* 100.5 is far in z in a tight group, but half a percent is not worth it. */
	{
		const double tight[5] = { 100, 100.01, 99.99, 100, 100.5 };
		struct bq_outlier t[5];

		ASSERT_EQ(0, bq_outliers(tight, 5, &rule, &grp, t));
		EXPECT_TRUE(fabs(t[4].z) > 3.5);
		EXPECT_FALSE(t[4].outlier);
	}
	/* Two values are no group: nothing is judged. */
	ASSERT_EQ(0, bq_outliers(v + 5, 2, &rule, &grp, o));
	EXPECT_FALSE(o[0].outlier);
	EXPECT_FALSE(o[1].outlier);
}

/* A seeded standard normal (xorshift64* and Box-Muller): the same every run. */
static double normal(uint64_t *state)
{
	double u1, u2;

	do {
		*state ^= *state >> 12;
		*state ^= *state << 25;
		*state ^= *state >> 27;
		u1 = (double)((*state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
	} while (u1 <= 0);
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	u2 = (double)((*state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* Groups of @n latencies, 3% noise, with any value past Bonferroni's threshold. */
static int chance_groups(int groups, int n, bool lognormal, bool log_scale, uint64_t seed)
{
	struct bq_outlier_rule rule = {
		.threshold = bq_outlier_threshold(3.5, 0.05, n), .min_diff = 0.10,
		.log_scale = log_scale,
	};
	struct bq_outlier *o = calloc((size_t)n, sizeof(*o));
	double *v = calloc((size_t)n, sizeof(*v));
	struct bq_outlier_group grp;
	int hit = 0;

	for (int g = 0; o && v && g < groups; g++) {
		bool any = false;

		/* A device's speed f; its latency at one queue depth is 1/f. */
		for (int i = 0; i < n; i++) {
			double z = normal(&seed);

			v[i] = 1 / (lognormal ? exp(0.03 * z) : 1 + 0.03 * z);
		}
		if (bq_outliers(v, n, &rule, &grp, o))
			return -1;
		for (int i = 0; i < n; i++)
			any |= o[i].outlier;
		hit += any;
	}
	free(o);
	free(v);
	return hit;
}

/*
 * The rule's promise: noise alone gives a group an outlier with chance
 * alpha (5%).  It holds where the figures are normal on the scale judged;
 * a latency that is the reciprocal of a normal speed has a long slow tail,
 * which the logarithm shortens.
 */
TEST(outlier_chance_rate)
{
	const int groups = 60, n = 20000;
	int lognormal = chance_groups(groups, n, true, true, 7);
	int recip_log = chance_groups(groups, n, false, true, 7);
	int recip_lin = chance_groups(groups, n, false, false, 7);

	TH_LOG("groups of %d with a chance outlier, of %d: lognormal speeds %d; normal speeds' "
	       "latency on a log scale %d, on its own scale %d", n, groups, lognormal, recip_log,
	       recip_lin);
	/* 3 expected; 9 or more has probability 0.3% if the rate is 5%. */
	EXPECT_LE(lognormal, 8);
	EXPECT_LE(recip_log, recip_lin);
}

/* A rate and its reciprocal, judged on the log scale, give each device the same |z|. */
TEST(outlier_log_scale)
{
	const double iops[7] = { 1000, 1010, 990, 1005, 995, 1000, 600 };
	struct bq_outlier_rule rule = { .threshold = 3.5, .min_diff = 0.10, .log_scale = true };
	struct bq_outlier_group ig, lg;
	struct bq_outlier a[7], b[7];
	double lat[7];

	for (int i = 0; i < 7; i++)
		lat[i] = 32e6 / iops[i];
	ASSERT_EQ(0, bq_outliers(iops, 7, &rule, &ig, a));
	EXPECT_EQ(1000, ig.median);
	ASSERT_EQ(0, bq_outliers(lat, 7, &rule, &lg, b));
	for (int i = 0; i < 7; i++) {
		EXPECT_TRUE(fabs(a[i].z + b[i].z) < 1e-9);
		EXPECT_EQ(i == 6, a[i].outlier);
		EXPECT_EQ(i == 6, b[i].outlier);
	}
	/* The difference stays that of the values: 40% less, 66.7% more. */
	EXPECT_TRUE(fabs(a[6].diff + 0.4) < 1e-9);
	EXPECT_TRUE(fabs(b[6].diff - 2.0 / 3) < 1e-9);
	/* The band spans one factor each way: the latencies' is the rates' turned over. */
	EXPECT_TRUE(ig.band_lo < 990 && ig.band_hi > 1010 && ig.band_lo > 600);
	EXPECT_TRUE(fabs(lg.band_lo * ig.band_hi / 32e6 - 1) < 1e-9);
	EXPECT_TRUE(fabs(lg.band_hi * ig.band_lo / 32e6 - 1) < 1e-9);
	/* A value of 0 has no logarithm: the values themselves are judged. */
	{
		const double zero[5] = { 100, 101, 99, 100, 0 };

		ASSERT_EQ(0, bq_outliers(zero, 5, &rule, &ig, a));
		EXPECT_TRUE(isfinite(a[4].z) && a[4].z < -3.5);
		EXPECT_TRUE(a[4].outlier);
	}
}

TEST_HARNESS_MAIN
