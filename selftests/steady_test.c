// SPDX-License-Identifier: GPL-2.0-only
/*
 * steady_test.c - steady-state detection on synthetic round series:
 * steady, drifting, noisy, leaving, and the edge cases of the criteria.
 */
#include <errno.h>
#include <math.h>

#include "kselftest_harness.h"

#include "blkqual_qualify.h"
#include "qualify/qualify_int.h"

static const struct bq_steady_params pts = BQ_STEADY_PARAMS_PTS;

/* The 6.1 harness has no floating-point comparison. */
#define EXPECT_NEAR(want, got, tol) EXPECT_LE(fabs((double)(want) - (double)(got)), (tol))

TEST(flat_series_is_steady_at_round_5)
{
	double v[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	struct bq_steady_result r;

	ASSERT_EQ(0, bq_steady_eval(v, 4, &pts, &r));
	EXPECT_EQ(BQ_STEADY_PENDING, r.state);
	ASSERT_EQ(0, bq_steady_eval(v, 5, &pts, &r));
	EXPECT_EQ(BQ_STEADY_REACHED, r.state);
	EXPECT_EQ(0, r.steady.first);
	EXPECT_EQ(4, r.steady.last);
	EXPECT_EQ(100, r.steady.mean);
	EXPECT_EQ(0, r.steady.slope);
}

/* A fresh SSD: fast out of the box, settling towards its steady level. */
TEST(decaying_then_settling)
{
	double v[25];
	struct bq_steady_result r;

	for (int i = 0; i < 25; i++)
		v[i] = 50000 + 150000 * exp(-i / 2.0);
	ASSERT_EQ(0, bq_steady_eval(v, 25, &pts, &r));
	EXPECT_EQ(BQ_STEADY_REACHED, r.state);
	EXPECT_TRUE(r.steady.range_ok);
	EXPECT_TRUE(r.steady.slope_ok);
	/* Not before the decay has mostly gone: rounds 0..4 span 150k. */
	EXPECT_GT(r.steady.first, 3);
	EXPECT_LT(r.steady.last, 15);
}

/* A drift of 3% a round: the range stays under 20% but the slope does not. */
TEST(drifting_never_steady)
{
	double v[25];
	struct bq_steady_result r;

	for (int i = 0; i < 25; i++)
		v[i] = 1000 * pow(1.03, i);
	ASSERT_EQ(0, bq_steady_eval(v, 24, &pts, &r));
	EXPECT_EQ(BQ_STEADY_PENDING, r.state);
	ASSERT_EQ(0, bq_steady_eval(v, 25, &pts, &r));
	EXPECT_EQ(BQ_STEADY_NOT_REACHED, r.state);
	EXPECT_TRUE(r.latest.range_ok);
	EXPECT_FALSE(r.latest.slope_ok);
	EXPECT_NEAR(0.03 * r.latest.mean, r.latest.slope, 0.002 * r.latest.mean);
}

/* No trend but +-15% noise: the range check fails. */
TEST(noisy_never_steady)
{
	double v[25];
	struct bq_steady_result r;

	for (int i = 0; i < 25; i++)
		v[i] = 1000 + (i % 2 ? 150 : -150);
	ASSERT_EQ(0, bq_steady_eval(v, 25, &pts, &r));
	EXPECT_EQ(BQ_STEADY_NOT_REACHED, r.state);
	EXPECT_FALSE(r.latest.range_ok);
	EXPECT_TRUE(r.latest.slope_ok);
}

/* Steady, then garbage collection kicks in and throughput falls away. */
TEST(leaving_steady_state)
{
	double v[12] = { 1000, 1000, 1010, 990, 1000, 1005, 995, 1000, 600, 400, 400, 400 };
	struct bq_steady_result r;

	ASSERT_EQ(0, bq_steady_eval(v, 8, &pts, &r));
	EXPECT_EQ(BQ_STEADY_REACHED, r.state);
	ASSERT_EQ(0, bq_steady_eval(v, 12, &pts, &r));
	EXPECT_EQ(BQ_STEADY_LEFT, r.state);
	EXPECT_EQ(0, r.steady.first);
	EXPECT_EQ(8, r.left_round);
	EXPECT_FALSE(r.latest.range_ok);
	EXPECT_STREQ("left steady state", bq_steady_state_name(r.state));
}

TEST(boundaries_are_inclusive)
{
	/* max - min exactly 20% of the mean of 100; symmetric, so slope 0. */
	double v[5] = { 90, 110, 100, 110, 90 };
	struct bq_steady_window w;

	EXPECT_TRUE(bq_steady_judge(v, 4, &pts, &w));
	EXPECT_NEAR(20.0, w.max - w.min, 1e-12);
	EXPECT_NEAR(0.0, w.slope, 1e-12);
}

TEST(slope_excursion_uses_four_rounds)
{
	/* Slope 2.5 per round: 2.5 * 4 = 10 = 10% of the mean 100: just steady. */
	double ok[5] = { 95, 97.5, 100, 102.5, 105 };
	double bad[5] = { 94.9, 97.45, 100, 102.55, 105.1 };
	struct bq_steady_window w;

	EXPECT_TRUE(bq_steady_judge(ok, 4, &pts, &w));
	EXPECT_NEAR(2.5, w.slope, 1e-12);
	EXPECT_FALSE(bq_steady_judge(bad, 4, &pts, &w));
	EXPECT_FALSE(w.slope_ok);
}

TEST(idle_direction_is_steady)
{
	double v[5] = { 0, 0, 0, 0, 0 };
	struct bq_steady_result r;

	ASSERT_EQ(0, bq_steady_eval(v, 5, &pts, &r));
	EXPECT_EQ(BQ_STEADY_REACHED, r.state);
}

TEST(bad_input)
{
	struct bq_steady_params p = pts;
	double v[5] = { 1, 2, NAN, 4, 5 };
	struct bq_steady_result r;

	EXPECT_EQ(-EINVAL, bq_steady_eval(v, 5, &pts, &r));
	p.window = 1;
	EXPECT_EQ(-EINVAL, bq_steady_eval(v, 0, &p, &r));
	p = pts;
	p.max_rounds = 3;
	EXPECT_EQ(-EINVAL, bq_steady_eval(v, 0, &p, &r));
}

TEST_HARNESS_MAIN
