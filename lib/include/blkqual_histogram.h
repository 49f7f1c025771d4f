/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_histogram.h - latency histograms and percentiles
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_HISTOGRAM_H
#define BLKQUAL_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_verify_report;

/* ---- latency histogram -------------------------------------------------- */

/*
 * Log-linear buckets: values below 2^BQ_HIST_SUB_BITS nanoseconds are
 * exact; above, each power of two is split into 2^BQ_HIST_SUB_BITS
 * buckets, and a bucket is reported by its midpoint, so the relative
 * error is at most 1/2^(BQ_HIST_SUB_BITS + 1) = 1/256.  Powers of two
 * up to 2^BQ_HIST_MAX_LOG2 ns (2.4 hours) are split this way; the top
 * bucket, from 2^44 - 2^36 ns (4.9 hours), also takes every larger value
 * and is reported as the maximum.
 */
#define BQ_HIST_SUB_BITS 7
#define BQ_HIST_MAX_LOG2 43
#define BQ_HIST_BUCKETS (((BQ_HIST_MAX_LOG2 - BQ_HIST_SUB_BITS + 1) << BQ_HIST_SUB_BITS) + \
			 (1 << BQ_HIST_SUB_BITS))

/**
 * struct bq_hist - latency histogram in nanoseconds
 */
struct bq_hist {
	uint64_t *buckets;
	uint64_t count;
	uint64_t min;
	uint64_t max;
	double sum;
	double sumsq;
};

int bq_hist_init(struct bq_hist *h);
void bq_hist_free(struct bq_hist *h);
void bq_hist_merge(struct bq_hist *dst, const struct bq_hist *src);
uint64_t bq_hist_percentile(const struct bq_hist *h, double pct);
double bq_hist_mean(const struct bq_hist *h);
double bq_hist_stdev(const struct bq_hist *h);
void bq_hist_bucket_bounds(unsigned int idx, uint64_t *lower, uint64_t *width);

/**
 * bq_hist_index() - bucket of a value
 * @ns: the value
 *
 * Return: index below BQ_HIST_BUCKETS.
 */
static inline unsigned int bq_hist_index(uint64_t ns)
{
	unsigned int log2, shift;

	if (ns < (1u << BQ_HIST_SUB_BITS))
		return (unsigned int)ns;
	log2 = 63 - (unsigned int)__builtin_clzll(ns);
	if (log2 > BQ_HIST_MAX_LOG2)
		return BQ_HIST_BUCKETS - 1;
	shift = log2 - BQ_HIST_SUB_BITS;
	return ((shift + 1) << BQ_HIST_SUB_BITS) +
	       (unsigned int)((ns >> shift) & ((1u << BQ_HIST_SUB_BITS) - 1));
}

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_HISTOGRAM_H */
