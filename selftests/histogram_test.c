// SPDX-License-Identifier: GPL-2.0-only
/*
 * histogram_test.c - latency histogram buckets, percentiles and moments
 *
 * The bucket layout is checked against its definition in blkqual_io.h,
 * not against histogram.c's inverse, so the two cannot agree on a
 * mistake.  Random inputs come from a fixed-seed xorshift so a failure
 * reproduces.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual_io.h"
#include "internal.h"

#define NS_PER_HOUR UINT64_C(3600000000000)
#define TOP_BUCKET (BQ_HIST_BUCKETS - 1)

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1;
}

/* xorshift64* (Vigna); good enough to spread test values. */
static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

/* Uniform in [0, 1) with 53 random bits. */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) / 9007199254740992.0;
}

/* Uniform integer in [lo, hi]. */
static uint64_t rng_range(uint64_t lo, uint64_t hi)
{
	return lo + rng_next() % (hi - lo + 1);
}

/* The documented layout: bucket b holds [lower, lower + width). */
static void layout(unsigned int b, uint64_t *lower, uint64_t *width)
{
	unsigned int sub_buckets = 1u << BQ_HIST_SUB_BITS;

	if (b < sub_buckets) {
		*lower = b;
		*width = 1;
		return;
	}
	*width = UINT64_C(1) << (b / sub_buckets - 1);
	*lower = (uint64_t)(sub_buckets + b % sub_buckets) * *width;
}

/* pct that makes the rank exactly k of n, clear of rounding. */
static double pct_of_rank(uint64_t k, uint64_t n)
{
	return 100.0 * ((double)k - 0.5) / (double)n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* |got - want| <= want / 256, in integers so no rounding hides a miss. */
static bool within_256th(uint64_t got, uint64_t want)
{
	uint64_t diff = got > want ? got - want : want - got;

	return diff * 256 <= want;
}

FIXTURE(hist)
{
	struct bq_hist h;
};

FIXTURE_SETUP(hist)
{
	ASSERT_EQ(0, bq_hist_init(&self->h));
}

FIXTURE_TEARDOWN(hist)
{
	bq_hist_free(&self->h);
}

TEST_F(hist, empty)
{
	EXPECT_EQ(0, self->h.count);
	EXPECT_EQ(UINT64_MAX, self->h.min);
	EXPECT_EQ(0, self->h.max);
	EXPECT_EQ(0, bq_hist_percentile(&self->h, 50));
	EXPECT_EQ(0, bq_hist_percentile(&self->h, 100));
	EXPECT_EQ(0, bq_hist_mean(&self->h));
	EXPECT_EQ(0, bq_hist_stdev(&self->h));
}

TEST_F(hist, small_values_are_exact)
{
	for (uint64_t v = 0; v < 128; v++) {
		EXPECT_EQ(v, bq_hist_index(v));
		bq_hist_add(&self->h, v);
	}
	for (uint64_t k = 1; k <= 128; k++)
		EXPECT_EQ(k - 1, bq_hist_percentile(&self->h, pct_of_rank(k, 128)));
	EXPECT_EQ(128, bq_hist_index(128));
	EXPECT_EQ(255, bq_hist_index(255));
	EXPECT_EQ(256, bq_hist_index(256));
	EXPECT_EQ(256, bq_hist_index(257));
	EXPECT_EQ(257, bq_hist_index(258));
}

TEST(every_bucket_boundary_round_trips)
{
	unsigned int bad = 0;

	for (unsigned int b = 1; b < BQ_HIST_BUCKETS; b++) {
		uint64_t lower, width;

		layout(b, &lower, &width);
		if (bq_hist_index(lower) != b || bq_hist_index(lower - 1) != b - 1 ||
		    bq_hist_index(lower + width - 1) != b) {
			if (!bad++)
				TH_LOG("bucket %u: lower %llu width %llu", b,
				       (unsigned long long)lower, (unsigned long long)width);
		}
	}
	EXPECT_EQ(0, bad);
}

/*
 * The value reported for each bucket is its midpoint: histogram.c's
 * inverse of bq_hist_index() matches the documented layout.
 */
TEST_F(hist, every_bucket_reports_its_midpoint)
{
	struct bq_hist *h = &self->h;
	unsigned int bad = 0;

	for (unsigned int b = 1; b < TOP_BUCKET; b++) {
		uint64_t lower, width, want, got_low, got_high;

		layout(b, &lower, &width);
		want = lower + width / 2;
		/* Neighbours on both sides keep min and max from clamping. */
		bq_hist_reset(h);
		bq_hist_add(h, 0);
		bq_hist_add(h, lower);
		bq_hist_add(h, UINT64_MAX);
		got_low = bq_hist_percentile(h, 50);
		bq_hist_reset(h);
		bq_hist_add(h, 0);
		bq_hist_add(h, lower + width - 1);
		bq_hist_add(h, UINT64_MAX);
		got_high = bq_hist_percentile(h, 50);
		if (got_low != want || got_high != want) {
			if (!bad++)
				TH_LOG("bucket %u: want %llu, got %llu and %llu", b,
				       (unsigned long long)want, (unsigned long long)got_low,
				       (unsigned long long)got_high);
		}
	}
	EXPECT_EQ(0, bad);
}

TEST_F(hist, relative_error_within_a_256th)
{
	const uint64_t n = 1000000;
	struct bq_hist *h = &self->h;
	uint64_t *v, bad = 0;

	v = malloc(n * sizeof(*v));
	ASSERT_NE(NULL, v);
	rng_seed(42);
	/* Each power of two from 1 ns to an hour equally likely. */
	for (uint64_t i = 0; i < n; i++) {
		do {
			unsigned int e = rng_range(0, 41);

			v[i] = (UINT64_C(1) << e) | (rng_next() & ((UINT64_C(1) << e) - 1));
		} while (v[i] > NS_PER_HOUR);
		bq_hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	EXPECT_EQ(v[0], h->min);
	EXPECT_EQ(v[n - 1], h->max);
	/* Every rank, so every sample's bucket is reported once. */
	for (uint64_t k = 1; k <= n; k++) {
		uint64_t got = bq_hist_percentile(h, pct_of_rank(k, n));

		if (!within_256th(got, v[k - 1]) && !bad++)
			TH_LOG("rank %llu: value %llu reported as %llu", (unsigned long long)k,
			       (unsigned long long)v[k - 1], (unsigned long long)got);
	}
	EXPECT_EQ(0, bad);
	free(v);
}

TEST_F(hist, uniform_integers)
{
	static const double pcts[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99 };
	const uint64_t n = 1000000;
	struct bq_hist *h = &self->h;

	for (uint64_t v = 1; v <= n; v++)
		bq_hist_add(h, v);
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++) {
		/* Rank ceil(p / 100 * n) holds the value equal to the rank. */
		uint64_t want = (uint64_t)ceil(pcts[i] * n / 100);
		uint64_t got = bq_hist_percentile(h, pcts[i]);

		EXPECT_TRUE(within_256th(got, want))
			TH_LOG("p%g: want %llu, got %llu", pcts[i], (unsigned long long)want,
			       (unsigned long long)got);
	}
	EXPECT_EQ(1, bq_hist_percentile(h, 0));
	EXPECT_EQ(n, bq_hist_percentile(h, 100));
}

TEST_F(hist, exponential)
{
	static const double pcts[] = { 10, 50, 90, 99, 99.9 };
	const double mean = 100000;	/* 100 us */
	const uint64_t n = 1000000;
	struct bq_hist *h = &self->h;

	rng_seed(7);
	for (uint64_t i = 0; i < n; i++)
		bq_hist_add(h, (uint64_t)(-log(1 - rng_unit()) * mean + 0.5));
	EXPECT_LT(fabs(bq_hist_mean(h) - mean) / mean, 0.01);
	/* An exponential's standard deviation equals its mean. */
	EXPECT_LT(fabs(bq_hist_stdev(h) - mean) / mean, 0.01);
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++) {
		double want = -log(1 - pcts[i] / 100) * mean;
		double got = (double)bq_hist_percentile(h, pcts[i]);

		EXPECT_LT(fabs(got - want) / want, 0.03)
			TH_LOG("p%g: want %.0f, got %.0f", pcts[i], want, got);
	}
}

TEST_F(hist, bimodal)
{
	struct bq_hist *h = &self->h;
	uint64_t p50, p99;

	rng_seed(1234);
	/* 95% cache hits around 100 us, 5% media reads around 10 ms. */
	for (int i = 0; i < 200000; i++) {
		if (rng_range(1, 100) <= 95)
			bq_hist_add(h, rng_range(90000, 110000));
		else
			bq_hist_add(h, rng_range(9000000, 11000000));
	}
	p50 = bq_hist_percentile(h, 50);
	p99 = bq_hist_percentile(h, 99);
	EXPECT_GE(p50, 90000);
	EXPECT_LE(p50, 110000);
	EXPECT_GE(p99, 9000000);
	EXPECT_LE(p99, 11000000);
	EXPECT_LE(bq_hist_percentile(h, 90), 110000);
	EXPECT_GE(bq_hist_percentile(h, 96), 9000000);
}

/*
 * Ranks are whole numbers: p99.9 of 1000 values is the 999th, even though
 * 99.9 / 100 * 1000 is 999.0000000000001 in floating point.
 */
TEST_F(hist, ranks_at_multiples_of_1000_are_exact)
{
	struct bq_hist *h = &self->h;
	static const struct {
		double pct;
		uint64_t n;
		uint64_t rank;
	} cases[] = {
		{ 99.9, 1000, 999 }, { 99.9, 10000, 9990 }, { 99.99, 10000, 9999 },
		{ 99.99, 100000, 99990 }, { 99.999, 100000, 99999 }, { 99, 100, 99 },
		{ 95, 20, 19 }, { 50, 2, 1 }, { 99.9, 1001, 1000 }, { 0.1, 1000, 1 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bq_hist_reset(h);
		/* rank values of 1 ms, the rest 1 s: the answer tells the rank apart. */
		for (uint64_t i = 0; i < cases[c].n; i++)
			bq_hist_add(h, i < cases[c].rank ? 1000000 : 1000000000);
		EXPECT_GE(bq_hist_percentile(h, cases[c].pct), 996000) {
			TH_LOG("p%g of %llu", cases[c].pct, (unsigned long long)cases[c].n);
		}
		EXPECT_LE(bq_hist_percentile(h, cases[c].pct), 1004000) {
			TH_LOG("p%g of %llu: rank %llu is 1 ms", cases[c].pct,
			       (unsigned long long)cases[c].n, (unsigned long long)cases[c].rank);
		}
	}
}

/* Two histograms of the same values; sums added in another order may differ by rounding. */
static void expect_same(struct __test_metadata *_metadata, const struct bq_hist *want,
			const struct bq_hist *got)
{
	EXPECT_EQ(0, memcmp(want->buckets, got->buckets, BQ_HIST_BUCKETS * sizeof(*got->buckets)));
	EXPECT_EQ(want->count, got->count);
	EXPECT_EQ(want->min, got->min);
	EXPECT_EQ(want->max, got->max);
	EXPECT_LT(fabs(got->sum - want->sum) / want->sum, 1e-12);
	EXPECT_LT(fabs(got->sumsq - want->sumsq) / want->sumsq, 1e-12);
}

TEST(merge_equals_adding_to_one)
{
	struct bq_hist a, b, all, empty;

	ASSERT_EQ(0, bq_hist_init(&a));
	ASSERT_EQ(0, bq_hist_init(&b));
	ASSERT_EQ(0, bq_hist_init(&all));
	ASSERT_EQ(0, bq_hist_init(&empty));
	rng_seed(99);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rng_range(1, UINT64_C(1) << (rng_next() % 40));

		bq_hist_add(i % 3 ? &a : &b, v);
		bq_hist_add(&all, v);
	}
	bq_hist_merge(&a, &empty);
	bq_hist_merge(&empty, &b);
	EXPECT_EQ(b.min, empty.min);
	bq_hist_merge(&a, &b);
	expect_same(_metadata, &all, &a);
	for (double p = 0; p <= 100; p += 0.5)
		EXPECT_EQ(bq_hist_percentile(&all, p), bq_hist_percentile(&a, p));
	bq_hist_free(&a);
	bq_hist_free(&b);
	bq_hist_free(&all);
	bq_hist_free(&empty);
}

TEST_F(hist, mean_and_stdev_match_two_pass)
{
	const int n = 100000;
	struct bq_hist *h = &self->h;
	double sum = 0, dev = 0, mean, var;
	uint64_t *v;

	v = malloc(n * sizeof(*v));
	ASSERT_NE(NULL, v);
	rng_seed(2024);
	for (int i = 0; i < n; i++) {
		v[i] = rng_range(1000, 5000000);
		bq_hist_add(h, v[i]);
		sum += (double)v[i];
	}
	mean = sum / n;
	for (int i = 0; i < n; i++)
		dev += ((double)v[i] - mean) * ((double)v[i] - mean);
	var = dev / n;
	EXPECT_LT(fabs(bq_hist_mean(h) - mean) / mean, 1e-12);
	EXPECT_LT(fabs(bq_hist_stdev(h) - sqrt(var)) / sqrt(var), 1e-9);
	free(v);
}

TEST_F(hist, stdev_of_small_sets)
{
	struct bq_hist *h = &self->h;

	bq_hist_add(h, 12345);
	EXPECT_EQ(0, bq_hist_stdev(h));
	bq_hist_add(h, 12345);
	bq_hist_add(h, 12345);
	EXPECT_EQ(0, bq_hist_stdev(h));
	bq_hist_reset(h);
	bq_hist_add(h, 2);
	bq_hist_add(h, 4);
	bq_hist_add(h, 4);
	bq_hist_add(h, 4);
	bq_hist_add(h, 5);
	bq_hist_add(h, 5);
	bq_hist_add(h, 7);
	bq_hist_add(h, 9);
	EXPECT_EQ(5, bq_hist_mean(h));
	EXPECT_LT(fabs(bq_hist_stdev(h) - 2), 1e-12);
	/* Equal large values: the running sums cancel, never below zero. */
	bq_hist_reset(h);
	for (int i = 0; i < 3; i++)
		bq_hist_add(h, UINT64_C(1000000007));
	EXPECT_GE(bq_hist_stdev(h), 0);
	EXPECT_LT(bq_hist_stdev(h), 100);
}

TEST_F(hist, ends_are_exact)
{
	struct bq_hist *h = &self->h;

	/* One bucket [1000, 1004): its midpoint is neither value. */
	bq_hist_add(h, 1000);
	bq_hist_add(h, 1003);
	EXPECT_EQ(bq_hist_index(1000), bq_hist_index(1003));
	EXPECT_EQ(1000, bq_hist_percentile(h, 0));
	EXPECT_EQ(1003, bq_hist_percentile(h, 100));
	EXPECT_EQ(1000, bq_hist_percentile(h, -5));
	EXPECT_EQ(1003, bq_hist_percentile(h, 150));
	EXPECT_EQ(1000, bq_hist_percentile(h, NAN));
	EXPECT_EQ(1002, bq_hist_percentile(h, 50));
}

TEST_F(hist, huge_values_share_the_top_bucket)
{
	struct bq_hist *h = &self->h;
	uint64_t lower, width;

	/* The last group starts at 2^43, split like the others. */
	layout(TOP_BUCKET, &lower, &width);
	EXPECT_EQ((UINT64_C(1) << 44) - (UINT64_C(1) << 36), lower);
	EXPECT_EQ(37u << 7, bq_hist_index(UINT64_C(1) << 43));
	EXPECT_EQ(TOP_BUCKET - 1, bq_hist_index(lower - 1));
	EXPECT_EQ(TOP_BUCKET, bq_hist_index(lower));
	EXPECT_EQ(TOP_BUCKET, bq_hist_index(UINT64_C(1) << 44));
	EXPECT_EQ(TOP_BUCKET, bq_hist_index(UINT64_C(1) << 50));
	EXPECT_EQ(TOP_BUCKET, bq_hist_index(UINT64_MAX));

	bq_hist_add(h, 100);
	bq_hist_add(h, UINT64_C(1) << 50);
	bq_hist_add(h, (UINT64_C(1) << 50) + 12345);
	EXPECT_EQ(2, h->buckets[TOP_BUCKET]);
	EXPECT_EQ((UINT64_C(1) << 50) + 12345, h->max);
	EXPECT_EQ(h->max, bq_hist_percentile(h, 100));
	/* The top bucket is open-ended: it reports the largest value. */
	EXPECT_EQ(h->max, bq_hist_percentile(h, 50));
	EXPECT_EQ(100, bq_hist_percentile(h, 10));
}

TEST_F(hist, reset_forgets)
{
	struct bq_hist *h = &self->h;

	bq_hist_add(h, 5);
	bq_hist_add(h, 500000);
	bq_hist_reset(h);
	EXPECT_EQ(0, h->count);
	EXPECT_EQ(UINT64_MAX, h->min);
	EXPECT_EQ(0, h->max);
	EXPECT_EQ(0, h->sum);
	EXPECT_EQ(0, h->buckets[5]);
	bq_hist_add(h, 77);
	EXPECT_EQ(77, bq_hist_percentile(h, 50));
	EXPECT_EQ(77, bq_hist_mean(h));
}

/*
 * The I/O loop records the completions of one round that share a latency
 * at once (bq_hist_add_n()): the same histogram as one add per I/O.
 */
TEST(adding_n_equals_adding_n_times)
{
	struct bq_hist one, many;

	ASSERT_EQ(0, bq_hist_init(&one));
	ASSERT_EQ(0, bq_hist_init(&many));
	rng_seed(7);
	for (int i = 0; i < 20000; i++) {
		uint64_t v = rng_range(1, UINT64_C(1) << (rng_next() % 36));
		uint32_t n = 1 + (uint32_t)(rng_next() % 32);

		bq_hist_add_n(&many, v, n);
		for (uint32_t k = 0; k < n; k++)
			bq_hist_add(&one, v);
	}
	expect_same(_metadata, &one, &many);
	bq_hist_free(&one);
	bq_hist_free(&many);
}

/* A reset drops the pages it used; the histogram reads as empty and fills again. */
TEST_F(hist, reset_twice_and_refill)
{
	struct bq_hist *h = &self->h;

	for (uint64_t v = 1; v < (UINT64_C(1) << 40); v *= 3)
		bq_hist_add(h, v);
	bq_hist_reset(h);
	bq_hist_reset(h);
	for (unsigned int i = 0; i < BQ_HIST_BUCKETS; i++)
		ASSERT_EQ(0, h->buckets[i]);
	bq_hist_add_n(h, 1000, 3);
	EXPECT_EQ(3, h->count);
	EXPECT_EQ(1000, bq_hist_percentile(h, 99));
}

TEST_HARNESS_MAIN
