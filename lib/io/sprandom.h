/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sprandom.h - private: sprandom=1, SanDisk's random preconditioning (issue 19)
 */
#ifndef BLKQUAL_IO_SPRANDOM_H
#define BLKQUAL_IO_SPRANDOM_H

#include <stdbool.h>
#include <stdint.h>

struct bq_sprandom;

/**
 * struct bq_sprandom_params - one file's preconditioning
 * @nblocks: logical blocks of the region (its size over @bs)
 * @physical: bytes written at most (bq_sprandom_physical())
 * @bs: the write block size
 * @nr_regions: spr_num_regions
 * @op: spr_op
 * @cache_bytes: spr_cs; 0: none
 * @seed: the thread's seed
 */
struct bq_sprandom_params {
	uint64_t nblocks;
	uint64_t physical;
	uint32_t bs;
	uint32_t nr_regions;
	double op;
	uint64_t cache_bytes;
	uint64_t seed;
};

/**
 * bq_sprandom_model() - the invalid share of each region, in 1/10000
 * @n: regions
 * @op: over-provisioning ratio, in (0, 1)
 * @invalid_pct: receives @n values, the first region's (least valid) first
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_sprandom_model(uint32_t n, double op, uint32_t *invalid_pct);

/**
 * bq_sprandom_physical() - the physical capacity fio assumes
 * @logical: bytes of the region
 * @op: over-provisioning ratio
 * @bs: the write block size
 *
 * Return: @logical plus @op of it (rounded up), rounded down to @bs.
 */
uint64_t bq_sprandom_physical(uint64_t logical, double op, uint32_t bs);

/**
 * bq_sprandom_new() - the state of one file's preconditioning
 * @p: its parameters
 *
 * Return: the state, or NULL when out of memory or @p is invalid.
 */
struct bq_sprandom *bq_sprandom_new(const struct bq_sprandom_params *p);

/**
 * bq_sprandom_next() - the next block to write
 * @s: the state
 * @block: receives the logical block index
 *
 * Return: 0, 1 when the preconditioning is done, or -ENOMEM.
 */
int bq_sprandom_next(struct bq_sprandom *s, uint64_t *block);

/**
 * bq_sprandom_next_read() - the block of a read of a sprandom randrw job
 * @s: the state
 * @block: receives the logical block index
 *
 * fio's reads draw from the same LFSR as its preconditioning writes, so a
 * block read is one the writes never reach; so here.
 *
 * Return: 0, or 1 when every block has been drawn (the job ends).
 */
int bq_sprandom_next_read(struct bq_sprandom *s, uint64_t *block);

/**
 * bq_sprandom_free() - free the state
 * @s: the state, or NULL
 */
void bq_sprandom_free(struct bq_sprandom *s);

#endif /* BLKQUAL_IO_SPRANDOM_H */
