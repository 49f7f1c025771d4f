/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * offgen.h - private: the random map's permutation, inline for the I/O
 * loops (offsets.c has the rest: the distributions, the set-up)
 *
 * Out of line, the generator cost a call and six saved registers per
 * I/O, which the distributions' code needs and the permutation does not.
 */
#ifndef BLKQUAL_OFFGEN_H
#define BLKQUAL_OFFGEN_H

#include "internal.h"

#define FEISTEL_ROUNDS 4
_Static_assert(ARRAY_SIZE(((struct bq_offgen *)0)->key) >= FEISTEL_ROUNDS,
	       "one key per Feistel round");

/*
 * Round function: two multiply-xorshift steps so every input bit reaches
 * the top bits, which are the ones returned (low product bits depend only
 * on low input bits).
 */
static inline uint64_t feistel_round(uint64_t r, uint64_t key, unsigned int half_bits)
{
	uint64_t z = (r ^ key) * UINT64_C(0x9e3779b97f4a7c15);

	z ^= z >> 32;
	z *= UINT64_C(0xd6e8feb86659fd93);
	return z >> (64 - half_bits);
}

static inline uint64_t feistel(const struct bq_offgen *g, uint64_t x)
{
	unsigned int hb = g->half_bits;
	uint64_t l = x >> hb;
	uint64_t r = x & ((UINT64_C(1) << hb) - 1);

	/* Unrolled: the rounds' multiplies then overlap with the loop's bookkeeping gone. */
#pragma GCC unroll 8
	for (int i = 0; i < FEISTEL_ROUNDS; i++) {
		uint64_t t = l ^ feistel_round(r, g->key[i], hb);

		l = r;
		r = t;
	}
	return (l << hb) | r;
}

/*
 * The domain is under 4 * nblocks, so this loops fewer than 4 times on
 * average; it ends because x's cycle under the permutation contains the
 * in-range starting value.
 */
static inline uint64_t permute(const struct bq_offgen *g, uint64_t i)
{
	uint64_t x = feistel(g, i);

	while (x >= g->nblocks)
		x = feistel(g, x);
	return x;
}

void bq_offgen_next_pass(struct bq_offgen *g) __attribute__((cold));
/* offsets.c: the next block without the random map (sequential, or drawn) */
uint64_t bq_offgen_next_unmapped(struct bq_offgen *g);

/**
 * bq_offgen_pick() - bq_offgen_next(), with the random map's path inline
 * @g: the generator
 *
 * Return: the next block index, in [0, nblocks).
 */
static inline uint64_t bq_offgen_pick(struct bq_offgen *g)
{
	uint64_t i = g->pos, x;

	if (__builtin_expect(!g->random || !g->randommap, 0))
		return bq_offgen_next_unmapped(g);
	x = permute(g, i);
	if (++g->pos == g->nblocks)
		bq_offgen_next_pass(g);
	return x;
}

#endif /* BLKQUAL_OFFGEN_H */
