// SPDX-License-Identifier: GPL-2.0-only
/*
 * bsmap.h - the random map of a job with several block sizes (bsmap.c)
 */
#ifndef BLKQUAL_IO_BSMAP_H
#define BLKQUAL_IO_BSMAP_H

#include <stdint.h>

/* 64^7 units: more than any region of 512-byte units. */
#define BQ_BSMAP_LEVELS 7

/**
 * struct bq_bsmap - which units of a region a pass has done
 * @nr_levels: levels in use; the top one is a single word
 * @words: words in @w, all levels together
 * @nbits: per level, its bits (level 0: the region's units)
 * @lvl: per level, its words; a bit above level 0 means its word is full
 * @w: the words
 */
struct bq_bsmap {
	int nr_levels;
	uint64_t words;
	uint64_t nbits[BQ_BSMAP_LEVELS];
	uint64_t *lvl[BQ_BSMAP_LEVELS];
	uint64_t w[];
};

struct bq_bsmap *bq_bsmap_new(uint64_t nbits);
void bq_bsmap_reset(struct bq_bsmap *m);

#endif
