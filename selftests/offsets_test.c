// SPDX-License-Identifier: GPL-2.0-only
/*
 * offsets_test.c - the per-thread block offset generator
 *
 * The random map's promise (every block once per pass, no bitmap) is
 * checked with a bitmap here; the skewed distributions are compared with
 * their exact expectations, summed directly, rather than with loose
 * "looks skewed" bounds.  Fixed seeds keep every run the same.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "internal.h"

/*
 * Bodies holding an ASSERT or EXPECT take braces even when they are one
 * line: the harness macros expand to two statements.
 */

enum mode { SEQ, MAP, UNIFORM, ZIPF, PARETO };

static int gen_init(struct bq_offgen *g, enum mode m, uint64_t nblocks, double param,
		    uint64_t seed)
{
	struct bq_offgen_params p = {
		.nblocks = nblocks,
		.random = m != SEQ,
		.norandommap = m == UNIFORM,
		.dist = m == ZIPF ? BQ_DIST_ZIPF : m == PARETO ? BQ_DIST_PARETO : BQ_DIST_RANDOM,
		.param = param,
		.seed = seed,
	};

	return bq_offgen_init(g, &p);
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y) - (x > y);
}

/*
 * Hits per block of @draws draws, sorted hottest first; NULL if a draw
 * was out of range (or no memory).
 */
static uint32_t *sorted_hits(struct bq_offgen *g, uint64_t draws)
{
	uint32_t *hits = calloc(g->nblocks, sizeof(*hits));

	if (!hits)
		return NULL;
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = bq_offgen_next(g);

		if (b >= g->nblocks) {
			free(hits);
			return NULL;
		}
		hits[b]++;
	}
	qsort(hits, g->nblocks, sizeof(*hits), cmp_desc);
	return hits;
}

static double share_of_top(const uint32_t *sorted, uint64_t top, uint64_t draws)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < top; i++)
		sum += sorted[i];
	return (double)sum / (double)draws;
}

/* Sum of k^-theta over [lo, hi], smallest terms first for precision. */
static double zipf_sum(uint64_t lo, uint64_t hi, double theta)
{
	double s = 0;

	for (uint64_t k = hi; k >= lo; k--)
		s += pow((double)k, -theta);
	return s;
}

/* ---- sequential --------------------------------------------------------- */

TEST(sequential_order_and_wrap)
{
	struct bq_offgen g;

	ASSERT_EQ(0, gen_init(&g, SEQ, 5, 0, 42));
	for (uint64_t i = 0; i < 17; i++) {
		ASSERT_EQ(i % 5, bq_offgen_next(&g));
	}

	ASSERT_EQ(0, gen_init(&g, SEQ, 1, 0, 42));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, bq_offgen_next(&g));
	}
}

TEST(sequential_ignores_distribution)
{
	struct bq_offgen_params p = {
		.nblocks = 3, .dist = BQ_DIST_ZIPF, .param = 1.2, .seed = 1,
	};
	struct bq_offgen g;

	ASSERT_EQ(0, bq_offgen_init(&g, &p));
	for (uint64_t i = 0; i < 7; i++) {
		ASSERT_EQ(i % 3, bq_offgen_next(&g));
	}
}

/* ---- random map --------------------------------------------------------- */

TEST(random_map_visits_every_block_once_per_pass)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 1000, 4096, 65537, 1 << 20 };

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		uint64_t n = sizes[s];
		uint8_t *seen = malloc(n);
		uint32_t *prev = malloc(n * sizeof(*prev));
		uint32_t *cur = malloc(n * sizeof(*cur));
		struct bq_offgen g;

		ASSERT_NE(NULL, seen);
		ASSERT_NE(NULL, prev);
		ASSERT_NE(NULL, cur);
		ASSERT_EQ(0, gen_init(&g, MAP, n, 0, 7 + s));

		for (int pass = 0; pass < 3; pass++) {
			uint64_t ascending = 0, same = 0;

			memset(seen, 0, n);
			EXPECT_EQ((uint64_t)pass, g.pass);
			for (uint64_t i = 0; i < n; i++) {
				uint64_t b = bq_offgen_next(&g);

				ASSERT_LT(b, n) TH_LOG("n=%lu pass %d", n, pass);
				ASSERT_EQ(0, seen[b])
					TH_LOG("n=%lu pass %d: block %lu twice", n, pass, b);
				seen[b] = 1;
				cur[i] = b;
				if (i && b == cur[i - 1] + 1)
					ascending++;
				if (pass && b == prev[i])
					same++;
			}
			/* n distinct draws below n: each block was visited. */
			if (n >= 1000) {
				EXPECT_LT(ascending, n / 100 + 3)
					TH_LOG("n=%lu pass %d: %lu steps of +1", n, pass, ascending);
			}
			if (pass && n >= 7) {
				EXPECT_LT(same, n)
					TH_LOG("n=%lu pass %d repeats the last pass", n, pass);
			}
			if (pass && n >= 1000) {
				EXPECT_LT(same, n / 100 + 3)
					TH_LOG("n=%lu pass %d: %lu places as in the last", n, pass, same);
			}
			memcpy(prev, cur, n * sizeof(*cur));
		}
		free(seen);
		free(prev);
		free(cur);
	}
}

/* ---- uniform (norandommap) ---------------------------------------------- */

TEST(uniform_chi_square)
{
	const uint64_t n = 1 << 20, draws = 1000000;
	uint64_t bins[64] = { 0 };
	struct bq_offgen g;
	double chi2 = 0, expect = draws / 64.0;

	ASSERT_EQ(0, gen_init(&g, UNIFORM, n, 0, 3));
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = bq_offgen_next(&g);

		ASSERT_LT(b, n);
		bins[b >> 14]++;
	}
	for (int i = 0; i < 64; i++)
		chi2 += (bins[i] - expect) * (bins[i] - expect) / expect;
	/* 63 degrees of freedom: mean 63, sd 11.2; 130 is p < 1e-6. */
	TH_LOG("chi-square %.1f over 64 bins", chi2);
	EXPECT_LT(chi2, 130.0);
	EXPECT_GT(chi2, 20.0);	/* too good to be random */
}

TEST(uniform_covers_like_independent_draws)
{
	struct bq_offgen g;
	uint8_t seen[1000] = { 0 };
	int distinct = 0;

	ASSERT_EQ(0, gen_init(&g, UNIFORM, 1000, 0, 5));
	for (int i = 0; i < 1000; i++) {
		uint64_t b = bq_offgen_next(&g);

		ASSERT_LT(b, 1000);
		distinct += !seen[b];
		seen[b] = 1;
	}
	/* 1 - 1/e = 63.2% expected; a permutation would give 100%. */
	TH_LOG("%d distinct of 1000", distinct);
	EXPECT_GT(distinct, 600);
	EXPECT_LT(distinct, 670);
}

/*
 * With n = 3 * 2^62 the multiply-shift alone maps two of every four x to
 * residue 0 mod 3; only the rejection step makes the residues even.
 */
TEST(uniform_unbiased_for_a_huge_range)
{
	const uint64_t n = UINT64_C(3) << 62, draws = 300000;
	uint64_t res[3] = { 0 };
	struct bq_offgen g;
	double chi2 = 0;

	ASSERT_EQ(0, gen_init(&g, UNIFORM, n, 0, 11));
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = bq_offgen_next(&g);

		ASSERT_LT(b, n);
		res[b % 3]++;
	}
	for (int i = 0; i < 3; i++)
		chi2 += (res[i] - draws / 3.0) * (res[i] - draws / 3.0) / (draws / 3.0);
	/* 2 degrees of freedom: 25 is p < 4e-6; the bias would give ~25000. */
	EXPECT_LT(chi2, 25.0);
}

/* ---- zipf --------------------------------------------------------------- */

TEST(zipf_theta_1_2_matches_its_expectation)
{
	const uint64_t n = 1000000, draws = 1000000;
	const double theta = 1.2;
	double z = zipf_sum(1, n, theta);
	double want_first = 1.0 / z;
	double want_100 = zipf_sum(1, 100, theta) / z;
	double want_1pct = zipf_sum(1, n / 100, theta) / z;
	struct bq_offgen g;
	uint32_t *hits;
	double first, top100, top1pct;

	ASSERT_EQ(0, gen_init(&g, ZIPF, n, theta, 1));
	hits = sorted_hits(&g, draws);
	ASSERT_NE(NULL, hits);
	first = share_of_top(hits, 1, draws);
	top100 = share_of_top(hits, 100, draws);
	top1pct = share_of_top(hits, n / 100, draws);
	TH_LOG("hottest block %.4f (want %.4f), top 100 %.4f (%.4f), top 1%% %.4f (%.4f)",
	       first, want_first, top100, want_100, top1pct, want_1pct);

	EXPECT_LT(fabs(first - want_first), 0.02 * want_first);
	EXPECT_LT(fabs(top100 - want_100), 0.01);
	EXPECT_GT(top1pct, 0.5);
	/*
	 * Around rank n/100 a block expects ~3 hits, so ranking by hit count
	 * lets some luckier colder blocks in: the empirical share can only
	 * come out a little high, never low.
	 */
	EXPECT_GT(top1pct, want_1pct - 0.01);
	EXPECT_LT(top1pct, want_1pct + 0.03);
	free(hits);
}

TEST(zipf_other_thetas)
{
	static const double thetas[] = { 0.5, 0.99, 1.0, 1.01, 2.0 };
	const uint64_t n = 100000, draws = 1000000;

	for (size_t t = 0; t < ARRAY_SIZE(thetas); t++) {
		double theta = thetas[t];
		double want = zipf_sum(1, 10, theta) / zipf_sum(1, n, theta);
		struct bq_offgen g;
		uint32_t *hits;
		double got;

		ASSERT_EQ(0, gen_init(&g, ZIPF, n, theta, 100 + t));
		hits = sorted_hits(&g, draws);
		ASSERT_NE(NULL, hits) TH_LOG("theta %g: out of range", theta);
		got = share_of_top(hits, 10, draws);
		TH_LOG("theta %g: top 10 blocks %.4f, want %.4f", theta, got, want);
		EXPECT_LT(fabs(got - want), 0.05 * want) TH_LOG("theta %g", theta);
		free(hits);
	}
}

TEST(zipf_hot_blocks_are_scattered)
{
	const uint64_t n = 1000000;
	struct bq_offgen g;
	uint64_t lo = n, hi = 0;

	ASSERT_EQ(0, gen_init(&g, ZIPF, n, 2.0, 9));
	/* theta 2: rank 1 takes 61%; the first draws are the hottest blocks. */
	for (int i = 0; i < 200; i++) {
		uint64_t b = bq_offgen_next(&g);

		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	EXPECT_GT(hi - lo, n / 4);
}

TEST(zipf_tiny_ranges)
{
	struct bq_offgen g;
	uint64_t hits[2] = { 0 };
	double hot;

	ASSERT_EQ(0, gen_init(&g, ZIPF, 1, 1.2, 1));
	for (int i = 0; i < 1000; i++) {
		ASSERT_EQ(0, bq_offgen_next(&g));
	}

	/* Two blocks, theta 1: 1 : 1/2, so the hot one takes 2/3. */
	ASSERT_EQ(0, gen_init(&g, ZIPF, 2, 1.0, 1));
	for (int i = 0; i < 300000; i++) {
		uint64_t b = bq_offgen_next(&g);

		ASSERT_LT(b, 2);
		hits[b]++;
	}
	hot = (double)(hits[0] > hits[1] ? hits[0] : hits[1]) / 300000;

	EXPECT_LT(fabs(hot - 2.0 / 3.0), 0.005);
}

/* ---- pareto ------------------------------------------------------------- */

TEST(pareto_80_20)
{
	const uint64_t n = 1000, draws = 1000000;
	struct bq_offgen g;
	uint32_t *hits;
	double share;

	/* pareto:0.2, as in fio: 20% of the blocks get 80% of the I/Os. */
	ASSERT_EQ(0, gen_init(&g, PARETO, n, 0.2, 2));
	hits = sorted_hits(&g, draws);
	ASSERT_NE(NULL, hits);
	/* Every block is hit, so "20% of the distinct blocks" is 200. */
	ASSERT_GT(hits[n - 1], 0);
	share = share_of_top(hits, n / 5, draws);
	TH_LOG("hottest 20%% of blocks: %.4f of the draws", share);
	EXPECT_LT(fabs(share - 0.8), 0.02);
	free(hits);
}

TEST(pareto_90_10)
{
	const uint64_t n = 1000, draws = 1000000;
	struct bq_offgen g;
	uint32_t *hits;
	double share;

	ASSERT_EQ(0, gen_init(&g, PARETO, n, 0.1, 4));
	hits = sorted_hits(&g, draws);
	ASSERT_NE(NULL, hits);
	share = share_of_top(hits, n / 10, draws);
	TH_LOG("hottest 10%% of blocks: %.4f of the draws", share);
	EXPECT_LT(fabs(share - 0.9), 0.02);
	free(hits);
}

/* ---- reproducibility ---------------------------------------------------- */

TEST(same_seed_same_sequence)
{
	static const enum mode modes[] = { SEQ, MAP, UNIFORM, ZIPF, PARETO };

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		double param = modes[m] == ZIPF ? 1.2 : 0.8;
		struct bq_offgen a, b, c;
		int differ = 0;

		ASSERT_EQ(0, gen_init(&a, modes[m], 5000, param, 1234));
		ASSERT_EQ(0, gen_init(&b, modes[m], 5000, param, 1234));
		ASSERT_EQ(0, gen_init(&c, modes[m], 5000, param, 1235));
		/* Three passes of the map, with raw draws mixed in. */
		for (int i = 0; i < 15000; i++) {
			uint64_t x = bq_offgen_next(&a);

			ASSERT_EQ(x, bq_offgen_next(&b)) TH_LOG("mode %d draw %d", modes[m], i);
			differ += x != bq_offgen_next(&c);
			if (i % 7 == 0) {
				ASSERT_EQ(bq_rand_next(&a), bq_rand_next(&b));
				bq_rand_next(&c);
			}
		}
		if (modes[m] != SEQ) {
			EXPECT_GT(differ, 1000) TH_LOG("mode %d ignores its seed", modes[m]);
		}
	}
}

TEST(seed_zero_is_random)
{
	struct bq_offgen g;
	uint64_t ored = 0, anded = ~UINT64_C(0);

	ASSERT_EQ(0, gen_init(&g, UNIFORM, 10, 0, 0));
	for (int i = 0; i < 64; i++) {
		uint64_t x = bq_rand_next(&g);

		ored |= x;
		anded &= x;
	}
	EXPECT_EQ(~UINT64_C(0), ored);
	EXPECT_EQ(0, anded);
}

/* ---- parameters --------------------------------------------------------- */

TEST(invalid_parameters)
{
	static const double bad_theta[] = { 0.0, -1.0, NAN, INFINITY };
	static const double bad_h[] = { 0.0, 1.0, -0.5, 1.5, NAN };
	struct bq_offgen g;
	struct bq_offgen_params p = { .nblocks = 10, .random = true, .dist = 99 };

	for (int m = SEQ; m <= PARETO; m++) {
		EXPECT_EQ(-EINVAL, gen_init(&g, m, 0, 0.5, 1)) TH_LOG("mode %d", m);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_theta); i++) {
		EXPECT_EQ(-EINVAL, gen_init(&g, ZIPF, 10, bad_theta[i], 1))
			TH_LOG("theta %g", bad_theta[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_h); i++) {
		EXPECT_EQ(-EINVAL, gen_init(&g, PARETO, 10, bad_h[i], 1))
			TH_LOG("h %g", bad_h[i]);
	}
	EXPECT_EQ(-EINVAL, bq_offgen_init(&g, &p));

	EXPECT_EQ(0, gen_init(&g, ZIPF, 10, 1.0, 1));
	EXPECT_EQ(0, gen_init(&g, ZIPF, 10, 0.01, 1));
	EXPECT_EQ(0, gen_init(&g, PARETO, 10, 0.01, 1));
	EXPECT_EQ(0, gen_init(&g, MAP, UINT64_MAX, 0, 1));
}

TEST(largest_range)
{
	static const enum mode modes[] = { MAP, UNIFORM, ZIPF, PARETO };

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		double param = modes[m] == ZIPF ? 1.2 : 0.8;
		uint64_t n = UINT64_MAX - 12345;
		struct bq_offgen g;

		ASSERT_EQ(0, gen_init(&g, modes[m], n, param, 77));
		for (int i = 0; i < 10000; i++) {
			ASSERT_LT(bq_offgen_next(&g), n) TH_LOG("mode %d", modes[m]);
		}
	}
}

/* ---- speed (informational; the targets live in the benchmarks) ---------- */

static double ns_per_draw(enum mode m, uint64_t nblocks, double param, uint64_t draws)
{
	double runs[5];

	for (int r = 0; r < 5; r++) {
		struct bq_offgen g;
		struct timespec t0, t1;

		gen_init(&g, m, nblocks, param, r);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* An external call with side effects: not optimised away. */
		for (uint64_t i = 0; i < draws; i++)
			bq_offgen_next(&g);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		runs[r] = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / draws;
	}
	for (int i = 1; i < 5; i++)	/* insertion sort for the median */
		for (int j = i; j > 0 && runs[j] < runs[j - 1]; j--) {
			double t = runs[j];

			runs[j] = runs[j - 1];
			runs[j - 1] = t;
		}
	return runs[2];
}

TEST(speed)
{
	const char *env = getenv("BLKQUAL_OFFSETS_DRAWS");
	uint64_t draws = env ? strtoull(env, NULL, 0) : 1000000;
	/* 1e9 blocks: a 4 TB device in 4k blocks; 2^28 + 1 walks most. */
	const uint64_t big = 1000000000, worst = (UINT64_C(1) << 28) + 1;

	if (!draws)
		draws = 1000000;
	TH_LOG("median of 5 x %lu draws, ns per draw:", draws);
	TH_LOG("  sequential          %6.2f", ns_per_draw(SEQ, big, 0, draws));
	TH_LOG("  random map          %6.2f", ns_per_draw(MAP, big, 0, draws));
	TH_LOG("  random map 2^28+1   %6.2f", ns_per_draw(MAP, worst, 0, draws));
	TH_LOG("  norandommap         %6.2f", ns_per_draw(UNIFORM, big, 0, draws));
	TH_LOG("  zipf 1.2            %6.2f", ns_per_draw(ZIPF, big, 1.2, draws));
	TH_LOG("  zipf 0.8            %6.2f", ns_per_draw(ZIPF, big, 0.8, draws));
	TH_LOG("  pareto 0.2          %6.2f", ns_per_draw(PARETO, big, 0.2, draws));
}

TEST_HARNESS_MAIN
