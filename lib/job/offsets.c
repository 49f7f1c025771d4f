// SPDX-License-Identifier: GPL-2.0-only
/*
 * offsets.c - which block each I/O of a thread goes to
 *
 * This runs once per I/O of an engine that aims at millions of I/Os per
 * second per core, so the common paths allocate nothing, make no system
 * calls and avoid division.  Only the skewed distributions call libm.
 *
 * The random map is not a bitmap but a keyed permutation: a balanced
 * Feistel network is a bijection on its 2 * half_bits bit domain whatever
 * the round function, and cycle-walking (re-applying it until the value
 * falls below nblocks) restricts that bijection to [0, nblocks).  A pass
 * therefore visits every block exactly once in O(1) memory.
 */
#include <errno.h>
#include <math.h>

#include "internal.h"
#include "blkqual_io.h"
#include "job/offgen.h"

/* Slots of dist_c[]; see zipf_rank() and pareto_rank() */
#define ZIPF_LOW	0	/* H(3/2) - 1: lower end of the hat's area */
#define ZIPF_HIGH	1	/* H(nblocks + 1/2): upper end */
#define ZIPF_SQUEEZE	2	/* k - x below this accepts without libm */
#define ZIPF_INV	3	/* 1 / (1 - theta); 0 for theta = 1 */

#define PARETO_EXP	0	/* ln(h) / ln(1 - h) */
#define PARETO_N	1	/* nblocks as a double */

#define NORMAL_SPREAD	0	/* width of the extra uniform deviation, in blocks */
#define NORMAL_DRAWS	12	/* uniform draws averaged per rank */

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t bq_rand_next(struct bq_offgen *g)
{
	uint64_t *s = g->rng;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/*
 * Uniform in the open interval (0, 1): (2m + 1) / 2^53 for a 52-bit m is
 * exact in a double and never 0 or 1, so log() and pow() need no guards.
 */
static inline double rand_open01(struct bq_offgen *g)
{
	return ((double)(bq_rand_next(g) >> 12) + 0.5) * 0x1.0p-52;
}

/*
 * Uniform in [0, n) by Lemire's method: the high word of x * n is already
 * nearly uniform; the low word tells which x land in the short residue
 * class, and rejecting those (2^64 mod n of them) removes the bias.  The
 * modulo is only computed when a rejection is possible at all.
 */
static inline uint64_t rand_below(struct bq_offgen *g, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)bq_rand_next(g) * n;
	uint64_t low = (uint64_t)m;

	if (__builtin_expect(low < n, 0)) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)bq_rand_next(g) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

static void draw_keys(struct bq_offgen *g)
{
	for (int i = 0; i < FEISTEL_ROUNDS; i++)
		g->key[i] = bq_rand_next(g);
}

/*
 * Zipf by rejection-inversion.  With h(x) = x^-theta and its antiderivative
 * H(x) = (x^(1 - theta) - 1) / (1 - theta) (ln x when theta = 1), rank k
 * owns the cell [H(k - 1/2), H(k + 1/2)] of the hat's area.  h is convex,
 * so each cell is at least h(k) wide and the sub-interval
 * [H(k + 1/2) - h(k), H(k + 1/2)] has exactly the target weight: draw U
 * uniformly over the cells, invert H, round to k, and accept when U is in
 * k's sub-interval.  Cell 1 is cut down to its sub-interval, which makes
 * k = 1 always accepted.  The sub-interval's width in x, d(k), grows with
 * k towards 1, so k - x <= d(2) - 1/2 accepts without evaluating H and h;
 * that is all but a few percent of the draws.
 *
 * H is written with expm1 so it keeps its precision as theta approaches 1
 * and is exact at theta = 1.  Its inverse is exp(ln(1 + (1 - theta) u) /
 * (1 - theta)); 1 - theta is 0 or at least 2^-53, so only theta = 1 needs
 * its own formula, and the reciprocal is precomputed so the per-draw path
 * multiplies instead of dividing.
 */
static inline double expm1_ratio(double y)
{
	return fabs(y) > 1e-8 ? expm1(y) / y : 1.0 + 0.5 * y;
}

static double zipf_H(double x, double theta)
{
	double lx = log(x);

	return lx * expm1_ratio((1.0 - theta) * lx);
}

/*
 * @inv is 1 / (1 - theta), or 0 for theta = 1.  Forming 1 + y rounds by
 * up to 2^-53, and @inv magnifies that in ln x; at up to 64 times it moves
 * x by under 1e-14 of itself, no rank for any device, so the cheaper log
 * does and log1p is kept for theta near 1.
 */
static inline double zipf_H_inv(double u, double theta, double inv)
{
	double y = (1.0 - theta) * u;

	if (inv == 0.0)
		return exp(u);
	if (fabs(inv) <= 64.0)
		return exp(log(1.0 + y) * inv);
	return exp(log1p(y) * inv);
}

static double zipf_h(double x, double theta)
{
	return exp(-theta * log(x));
}

static void zipf_setup(struct bq_offgen *g)
{
	double theta = g->param;
	double inv = theta == 1.0 ? 0.0 : 1.0 / (1.0 - theta);
	double *c = g->dist_c;

	c[ZIPF_LOW] = zipf_H(1.5, theta) - 1.0;
	c[ZIPF_HIGH] = zipf_H((double)g->nblocks + 0.5, theta);
	c[ZIPF_SQUEEZE] = 2.0 - zipf_H_inv(zipf_H(2.5, theta) - zipf_h(2.0, theta), theta, inv);
	c[ZIPF_INV] = inv;
}

/* A rank in [1, nblocks] with P(k) proportional to k^-theta. */
static uint64_t zipf_rank(struct bq_offgen *g)
{
	const double *c = g->dist_c;
	double n = (double)g->nblocks;

	for (;;) {
		double u = c[ZIPF_HIGH] + rand_open01(g) * (c[ZIPF_LOW] - c[ZIPF_HIGH]);
		double x = zipf_H_inv(u, g->param, c[ZIPF_INV]);
		double xr = x + 0.5, kd;
		uint64_t k;

		/*
		 * Rounding to the nearest rank by truncation, as xr is positive;
		 * the comparisons also catch ranks just outside [1, nblocks]
		 * that only floating-point rounding at the ends produces.
		 */
		if (!(xr >= 2.0))
			return 1;
		if (xr >= n) {
			k = g->nblocks;
			kd = n;
		} else {
			k = (uint64_t)xr;
			kd = (double)k;
		}
		if (kd - x <= c[ZIPF_SQUEEZE])
			return k;
		if (u >= zipf_H(kd + 0.5, g->param) - zipf_h(kd, g->param))
			return k;
	}
}

/*
 * u^a puts a fraction h of the draws below 1 - h: P(u^a < 1 - h) =
 * (1 - h)^(1/a) = e^(ln h) = h for a = ln(1 - h) / ln h.
 */
static uint64_t pareto_rank(struct bq_offgen *g)
{
	double x = exp(g->dist_c[PARETO_EXP] * log(rand_open01(g))) * g->dist_c[PARETO_N];

	return x < g->dist_c[PARETO_N] ? (uint64_t)x : g->nblocks - 1;
}

/*
 * fio's normal: the mean of twelve uniform draws over [0, nblocks] is a
 * bell around the middle with a standard deviation of nblocks / 12; dev
 * percent of nblocks widens it with one more uniform draw, halved until
 * the rank stays inside.  fio hashes the rank to scatter the hot blocks,
 * as the permutation does here.
 */
static uint64_t normal_rank(struct bq_offgen *g)
{
	uint64_t n = g->nblocks, sum = 0;
	uint64_t spread = (uint64_t)g->dist_c[NORMAL_SPREAD];

	for (int i = 0; i < NORMAL_DRAWS; i++)
		sum += rand_below(g, n + 1);
	sum = (sum + NORMAL_DRAWS - 1) / NORMAL_DRAWS;
	if (spread) {
		int64_t dev = (int64_t)rand_below(g, spread) - (int64_t)(spread / 2);

		while (sum + (uint64_t)dev >= n && dev)
			dev /= 2;
		sum += (uint64_t)dev;
	}
	return sum >= n ? sum - n : sum;
}

int bq_offgen_init(struct bq_offgen *g, const struct bq_offgen_params *p)
{
	uint64_t sm = p->seed;
	unsigned int bits;

	if (!p->nblocks)
		return -EINVAL;
	switch (p->dist) {
	case BQ_DIST_RANDOM:
		break;
	case BQ_DIST_ZIPF:
		if (!(p->param > 0.0) || !isfinite(p->param))
			return -EINVAL;
		break;
	case BQ_DIST_PARETO:
		if (!(p->param > 0.0 && p->param < 1.0))
			return -EINVAL;
		break;
	case BQ_DIST_NORMAL:
		if (!(p->param >= 0.0 && p->param < 100.0))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	*g = (struct bq_offgen){
		.nblocks = p->nblocks,
		.random = p->random,
		.randommap = p->random && !p->norandommap && p->dist == BQ_DIST_RANDOM,
		.dist = p->dist,
		.param = p->param,
	};
	for (size_t i = 0; i < ARRAY_SIZE(g->rng); i++)
		g->rng[i] = bq_splitmix64(&sm);	/* a poor seed (0, 1, ...) spread */

	bits = p->nblocks > 1 ? 64 - __builtin_clzll(p->nblocks - 1) : 0;
	g->half_bits = bits > 2 ? (bits + 1) / 2 : 1;
	draw_keys(g);

	if (p->dist == BQ_DIST_ZIPF) {
		zipf_setup(g);
	} else if (p->dist == BQ_DIST_PARETO) {
		/* fio's meaning: a fraction h of the blocks gets 1 - h of the I/Os. */
		g->dist_c[PARETO_EXP] = log(p->param) / log(1.0 - p->param);
		g->dist_c[PARETO_N] = (double)p->nblocks;
	} else if (p->dist == BQ_DIST_NORMAL && p->param > 0.0) {
		double spread = ceil((double)p->nblocks * p->param / 100.0);

		g->dist_c[NORMAL_SPREAD] = fmin(spread, (double)(p->nblocks / 2));
	}
	return 0;
}

/* The random map's pass is done: the next one goes by other keys. */
void bq_offgen_next_pass(struct bq_offgen *g)
{
	g->pos = 0;
	g->pass++;
	draw_keys(g);
}

/*
 * Out of line, so that the random map's inline path (offgen.h) does not
 * pay for the registers the distributions need.
 */
uint64_t bq_offgen_next_unmapped(struct bq_offgen *g)
{
	uint64_t i = g->pos;

	if (!g->random) {
		if (++g->pos == g->nblocks)
			g->pos = 0;
		return i;
	}
	/* The skewed ones keep the first key, so their hot blocks stay hot. */
	switch (g->dist) {
	case BQ_DIST_ZIPF:
		return permute(g, zipf_rank(g) - 1);
	case BQ_DIST_PARETO:
		return permute(g, pareto_rank(g));
	case BQ_DIST_NORMAL:
		return permute(g, normal_rank(g));
	default:
		return rand_below(g, g->nblocks);
	}
}

uint64_t bq_offgen_next(struct bq_offgen *g)
{
	return bq_offgen_pick(g);
}
