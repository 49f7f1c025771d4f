// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom.c - sprandom=1: SanDisk's random preconditioning, as fio's
 * head runs it (issue 19)
 *
 * The aim is an SSD in the state a long random-write workload leaves it
 * in, after writing its physical capacity only once.  Desnoyers' model of
 * greedy garbage collection says that, at steady state, a block's share of
 * valid pages times the space such blocks take is the same for every
 * validity; the block collected first holds 1 - 1 / WA valid pages, with
 * WA about 0.5 / OP + 0.7.  Validities spaced evenly from 1 down to that
 * one each get space in inverse proportion to themselves; read back at
 * evenly spaced space instead, this gives the validity of each of
 * spr_num_regions equal regions of the physical capacity.
 *
 * The writes go region by region, each region_write_count blocks long.
 * Every write of a region is, with the region's invalid probability, kept
 * to be written again in the next region: then the copy written first
 * becomes invalid, so the region ends up with its target validity.  New
 * blocks come from a permutation of the logical blocks (fio's LFSR), so
 * each is new once; the job ends when that runs out, or at the physical
 * capacity (it is the job's io_size), whichever comes first.
 *
 * The steps are fio's: a region opens with one new block, then the kept
 * ones, then new blocks to fill it.  With spr_cs (a device cache), the kept
 * ones of a region are written at the end of the following region instead,
 * so that no block is in the cache twice.  fio's permutation and draws
 * are its own generators, so the blocks differ while the counts per region
 * follow the same model (Documentation/run.rst).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sprandom.h"

#define PCT_SCALE 10000		/* invalid probabilities in 1/10000, as fio keeps them */

/* A list of kept blocks; grown when the model's six-sigma guess is short. */
struct kept {
	uint64_t *v;
	size_t nr, cap, next;
};

struct bq_sprandom {
	uint32_t nr_regions;
	uint32_t region;		/* the one being written */
	uint32_t *invalid_pct;		/* per region, out of PCT_SCALE */
	uint64_t region_writes;		/* blocks per region */
	uint64_t remaining;		/* new blocks still to write in this region */
	uint64_t nblocks;		/* logical blocks: the permutation's length */
	uint64_t drawn;			/* new blocks given so far */
	bool cache;			/* spr_cs: replay a region late */
	struct bq_offgen perm;		/* the permutation (its random map) */
	struct bq_offgen draws;		/* the keep-or-not draws */
	struct kept staged;		/* kept in this region: replayed in the next */
	struct kept replay;		/* kept in the previous region: being replayed */
};

/* Linear interpolation of y over x (increasing), clamped at both ends. */
static double interp(double at, const double *x, const double *y, uint32_t n)
{
	if (at <= x[0])
		return y[0];
	if (at >= x[n - 1])
		return y[n - 1];
	for (uint32_t i = 0; i + 1 < n; i++) {
		if (at > x[i + 1])
			continue;
		if (x[i + 1] - x[i] < 1e-9)
			return y[i];
		return y[i] + (y[i + 1] - y[i]) * (at - x[i]) / (x[i + 1] - x[i]);
	}
	return y[n - 1];
}

int bq_sprandom_model(uint32_t n, double op, uint32_t *invalid_pct)
{
	double gc = 1.0 - 1.0 / (0.5 / op + 0.7);
	double *v, *x;

	if (!n || !(op > 0.0 && op < 1.0))
		return -EINVAL;
	v = calloc(n, sizeof(*v));
	x = calloc(n, sizeof(*x));
	if (!v || !x) {
		free(v);
		free(x);
		return -ENOMEM;
	}
	/* Validities evenly from 1 to gc; each takes space 1 / validity. */
	for (uint32_t i = 0; i < n; i++) {
		v[i] = n > 1 ? 1.0 + (gc - 1.0) * i / (n - 1) : 1.0;
		x[i] = (i ? x[i - 1] : 0.0) + 1.0 / v[i];
	}
	/* Read back at evenly spaced space, least valid region first. */
	for (uint32_t i = 0; i < n; i++) {
		double at = n > 1 ? x[0] + (x[n - 1] - x[0]) * i / (n - 1) : x[0];

		invalid_pct[n - 1 - i] = (uint32_t)lround((1.0 - interp(at, x, v, n)) * PCT_SCALE);
	}
	free(v);
	free(x);
	return 0;
}

uint64_t bq_sprandom_physical(uint64_t logical, double op, uint32_t bs)
{
	uint64_t size = logical + (uint64_t)ceil((double)logical * op);

	return size - size % bs;
}

static int kept_push(struct kept *k, uint64_t b)
{
	if (k->nr == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;
		uint64_t *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		k->v = v;
		k->cap = cap;
	}
	k->v[k->nr++] = b;
	return 0;
}

static bool kept_pop(struct kept *k, uint64_t *b)
{
	if (k->next == k->nr)
		return false;
	*b = k->v[k->next++];
	return true;
}

/* Keep @b for the next region with this region's probability (fio draws 0..10000). */
static int maybe_keep(struct bq_sprandom *s, uint64_t b)
{
	/* Past the last region nothing is replayed (fio reads past its table there). */
	if (s->region >= s->nr_regions)
		return 0;
	if ((uint64_t)(((unsigned __int128)bq_rand_next(&s->draws) * (PCT_SCALE + 1)) >> 64) >
	    s->invalid_pct[s->region])
		return 0;
	return kept_push(&s->staged, b);
}

/* The next region: what was kept in this one is replayed there. */
static void next_region(struct bq_sprandom *s)
{
	struct kept done = s->replay;

	s->region++;
	s->replay = s->staged;
	s->replay.next = 0;
	s->staged = done;
	s->staged.nr = 0;
	s->staged.next = 0;
	s->remaining = s->replay.nr < s->region_writes ? s->region_writes - s->replay.nr : 0;
}

int bq_sprandom_next(struct bq_sprandom *s, uint64_t *block)
{
	uint64_t b;

	if (!s->cache && kept_pop(&s->replay, &b))
		goto keep;
	if (!s->remaining) {
		if (s->cache && kept_pop(&s->replay, &b))
			goto keep;
		if (s->region >= s->nr_regions)
			return 1;
		next_region(s);
	}
	if (s->drawn == s->nblocks) {
		/* spr_cs: the last kept ones still go, not kept again. */
		if (s->cache && kept_pop(&s->replay, block))
			return 0;
		return 1;
	}
	b = bq_offgen_next(&s->perm);
	s->drawn++;
	if (s->remaining)
		s->remaining--;
keep:
	*block = b;
	return maybe_keep(s, b) ? -ENOMEM : 0;
}

int bq_sprandom_next_read(struct bq_sprandom *s, uint64_t *block)
{
	if (s->drawn == s->nblocks)
		return 1;
	*block = bq_offgen_next(&s->perm);
	s->drawn++;
	return 0;
}

struct bq_sprandom *bq_sprandom_new(const struct bq_sprandom_params *p)
{
	struct bq_sprandom *s = calloc(1, sizeof(*s));
	struct bq_offgen_params perm = {
		.nblocks = p->nblocks, .random = true, .seed = p->seed,
	};
	struct bq_offgen_params draws = {
		.nblocks = 1, .random = true, .norandommap = true,
		.seed = p->seed ^ 0x5350524e44ULL,
	};
	double gc = 1.0 - 1.0 / (0.5 / p->op + 0.7);
	double cnt, sigma;

	if (!s)
		return NULL;
	s->nr_regions = p->nr_regions;
	s->invalid_pct = calloc(p->nr_regions, sizeof(*s->invalid_pct));
	if (!s->invalid_pct || bq_sprandom_model(p->nr_regions, p->op, s->invalid_pct) ||
	    bq_offgen_init(&s->perm, &perm) || bq_offgen_init(&s->draws, &draws))
		goto free_s;
	s->region_writes = p->physical / p->nr_regions / p->bs;
	s->remaining = s->region_writes;
	s->nblocks = p->nblocks;
	s->cache = p->cache_bytes != 0;
	/* fio's size for the kept list: the least valid region's mean plus six sigma. */
	cnt = (double)s->region_writes;
	sigma = sqrt(cnt * gc * (1.0 - gc));
	s->staged.cap = (size_t)ceil(cnt * (1.0 - gc) + 6.0 * sigma) + 1;
	s->staged.v = malloc(s->staged.cap * sizeof(uint64_t));
	if (!s->staged.v)
		goto free_s;
	return s;
free_s:
	bq_sprandom_free(s);
	return NULL;
}

void bq_sprandom_free(struct bq_sprandom *s)
{
	if (!s)
		return;
	free(s->invalid_pct);
	free(s->staged.v);
	free(s->replay.v);
	free(s);
}

