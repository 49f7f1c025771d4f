/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buffers.h - private: what the buffers of a thread's writes hold
 * (zero_buffers, refill_buffers, scramble_buffers, buffer_pattern,
 * buffer_compress_*, dedupe_*), with fio's meaning
 */
#ifndef BLKQUAL_BUFFERS_H
#define BLKQUAL_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct bq_bufgen - one thread's buffer contents, as the job's options add up
 * @per_write: something happens to each write's buffer (refill or scramble)
 * @refill: each write's buffer is filled afresh
 * @scramble: each write's buffer gets its offset and time in every sector
 * @mixed: the compressible and deduplicable fill (buffer_compress_percentage
 *         or dedupe_percentage given)
 * @zero: zeros (zero_buffers, or buffer_compress_percentage=100)
 * @pct: percent of each chunk that is the fixed fill (zeros or pattern)
 * @chunk: bytes per random-then-fixed chunk; 0: the smallest write
 * @min_write: the smallest write of the job
 * @dedupe_pct: percent of buffers that repeat another
 * @working_set: dedupe_mode=working_set
 * @ws_n: buffers in the working set
 * @pattern: buffer_pattern, @pattern_len bytes; NULL if none
 * @seed: the thread's stream of unique buffers
 * @next: index of the next unique buffer in it
 * @draw: state of the per-buffer choices (duplicate or not, which one)
 * @global: dedupe_global: the working set spans every thread's stream
 * @peers: every thread of the run, @nr_peers of them, this one @self
 *         (bq_buf_link()); NULL when not linked
 * @salt: the run's seed for jobs without randrepeat
 */
struct bq_bufgen {
	bool per_write;
	bool refill;
	bool scramble;
	bool mixed;
	bool zero;
	uint8_t pct;
	uint8_t dedupe_pct;
	bool working_set;
	uint32_t chunk;
	uint32_t min_write;
	uint64_t ws_n;
	const uint8_t *pattern;
	uint32_t pattern_len;
	uint64_t seed;
	uint64_t next;
	uint64_t draw;
	bool global;
	const struct bq_worker *peers;
	int nr_peers;
	int self;
	uint64_t salt;
};

struct bq_worker;
struct bq_slot;

/**
 * bq_buf_prepare() - the thread's buffer contents, and its buffers filled
 * @w: the worker, its buffers just allocated
 */
void bq_buf_prepare(struct bq_worker *w);

/**
 * bq_buf_link() - let the threads of a run know each other's streams of
 * unique buffers (dedupe_global), before any of them starts
 * @workers: every worker of the run
 * @nr: how many
 */
void bq_buf_link(struct bq_worker *workers, int nr);

/**
 * bq_buf_write() - a write's buffer, refilled or stamped, just before it
 * is issued; only called when @w->buf.per_write
 * @w: the worker
 * @s: the write, one of @w->slots
 * @now: the time, for the stamps
 */
void bq_buf_write(struct bq_worker *w, const struct bq_slot *s, uint64_t now);

#endif /* BLKQUAL_BUFFERS_H */
