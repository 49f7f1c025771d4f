/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiorand.h - fio 3.33's own random streams, for the draws whose outcome
 * decides a job's I/O count: a job with several block sizes (bssplit,
 * bsrange) ends after the I/Os whose sizes add up to its size, so only
 * the same generator, seeded the same way, gives fio's count (fiorand.c)
 */
#ifndef BLKQUAL_IO_FIORAND_H
#define BLKQUAL_IO_FIORAND_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual_job.h"

/**
 * struct bq_frand - one of fio's Tausworthe streams
 * @use64: the 64-bit one (five words, random_generator=tausworthe64);
 *         else the 32-bit one (three words)
 * @s: its words
 */
struct bq_frand {
	bool use64;
	uint64_t s[5];
};

/* L'Ecuyer's combined Tausworthe step: ((s & c) << d) ^ (((s << a) ^ s) >> b) */
static inline uint32_t bq_taus32_step(uint32_t s, int a, int b, uint32_t c, int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

static inline uint64_t bq_taus64_step(uint64_t s, int a, int b, uint64_t c, int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

/* The next value: 32 bits, or 64 for @use64. */
static inline uint64_t bq_frand_next(struct bq_frand *r)
{
	uint64_t *s = r->s;

	if (!r->use64) {
		s[0] = bq_taus32_step((uint32_t)s[0], 13, 19, 0xfffffffeU, 12);
		s[1] = bq_taus32_step((uint32_t)s[1], 2, 25, 0xfffffff8U, 4);
		s[2] = bq_taus32_step((uint32_t)s[2], 3, 11, 0xfffffff0U, 17);
		return s[0] ^ s[1] ^ s[2];
	}
	s[0] = bq_taus64_step(s[0], 1, 53, 0xfffffffffffffffeULL, 10);
	s[1] = bq_taus64_step(s[1], 24, 50, 0xfffffffffffffe00ULL, 5);
	s[2] = bq_taus64_step(s[2], 3, 23, 0xfffffffffffff000ULL, 29);
	s[3] = bq_taus64_step(s[3], 5, 24, 0xfffffffffffe0000ULL, 23);
	s[4] = bq_taus64_step(s[4], 3, 33, 0xffffffffff800000ULL, 8);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

/* The largest value bq_frand_next() gives. */
static inline uint64_t bq_frand_max(const struct bq_frand *r)
{
	return r->use64 ? UINT64_MAX : UINT32_MAX;
}

/* A value scaled to [0, @n): fio's n * (r / (max + 1.0)), in double as fio computes it. */
static inline uint64_t bq_frand_scale(struct bq_frand *r, uint64_t n)
{
	uint64_t v = bq_frand_next(r);

	return (uint64_t)((double)n * ((double)v / ((double)bq_frand_max(r) + 1.0)));
}

void bq_frand_seed(struct bq_frand *r, uint64_t seed, bool use64);

/**
 * struct bq_fiodraw - a thread's fio streams for a job with several block sizes
 * @bs: per direction, the block size draws (fio's bsrange_state)
 * @mix: the read/write mix draws (rwmix_state), always 32-bit
 * @off: random offsets (random_state)
 * @zone: random_distribution=zoned's zone draws (zone_state), 32-bit
 * @seq_rand: per direction, percentage_random's draws (seq_rand_state), 32-bit
 * @split: per direction, the job's bssplit in fio's order: by share,
 *         smallest first, entries of the same share as written
 * @issued: per direction, I/Os issued (fio's io_issues)
 * @mix_until: the mix draws again once the current direction has issued
 *             this many (fio's rwmix_issues)
 * @mix_dir: the current direction of the mix
 * @thread_number: fio's number of the thread, for bq_fiodraw_new_pass()
 * @entropy: the seeds of a job that is not repeatable
 * @done_files: files with no more offsets this pass, set aside as fio's are
 */
struct bq_fiodraw {
	struct bq_frand bs[BQ_NR_DIRS];
	struct bq_frand mix;
	struct bq_frand off;
	struct bq_frand zone;
	struct bq_frand seq_rand[BQ_NR_DIRS];
	struct bq_bssplit split[BQ_NR_DIRS][BQ_MAX_BSSPLIT];
	uint64_t issued[BQ_NR_DIRS];
	uint64_t mix_until;
	int mix_dir;
	int thread_number;
	uint64_t entropy;
	uint64_t done_files;
};

void bq_fiodraw_init(struct bq_fiodraw *d, const struct bq_job *j, int thread_number,
		     uint64_t entropy);
void bq_fiodraw_new_pass(struct bq_fiodraw *d, const struct bq_job *j);
int bq_fiodraw_dir(struct bq_fiodraw *d, const struct bq_job *j);
uint32_t bq_fiodraw_len(struct bq_fiodraw *d, const struct bq_job *j, int dir, uint64_t room);
uint64_t bq_fiodraw_lastb(const struct bq_job *j, int dir, uint64_t span, uint32_t unit);

#endif
