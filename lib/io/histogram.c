// SPDX-License-Identifier: GPL-2.0-only
/*
 * histogram.c - log-linear latency histograms
 *
 * Recording (bq_hist_add() in blkqual_io.h) is inline and allocation-free
 * because it runs once per I/O.  What is here runs once per report:
 * percentiles, mean and deviation, and merging per-thread histograms.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"
#include "blkqual_io.h"

#define SUB_BUCKETS (1u << BQ_HIST_SUB_BITS)
/* The buckets' mapping, whole pages (4 KiB or larger: the rest is unused). */
#define HIST_MAP_BYTES ((BQ_HIST_BUCKETS * sizeof(uint64_t) + 65535) & ~(size_t)65535)

/*
 * The inverse of bq_hist_index(): bucket @idx holds [*lower, *lower + *width).
 * Index group g >= 1 covers values with log2 == g - 1 + BQ_HIST_SUB_BITS,
 * split into SUB_BUCKETS steps of 2^(g - 1).
 */
static void bucket_bounds(unsigned int idx, uint64_t *lower, uint64_t *width)
{
	unsigned int group = idx >> BQ_HIST_SUB_BITS;
	unsigned int sub = idx & (SUB_BUCKETS - 1);

	if (!group) {
		*lower = idx;
		*width = 1;
		return;
	}
	*lower = (uint64_t)(SUB_BUCKETS + sub) << (group - 1);
	*width = UINT64_C(1) << (group - 1);
}

/**
 * bq_hist_bucket_bounds() - the values one bucket holds
 * @idx: bucket index, below BQ_HIST_BUCKETS
 * @lower: receives the smallest value it holds
 * @width: receives how many values it holds, [*lower, *lower + *width)
 *
 * For reports that draw the histogram itself, not only its percentiles.
 * The top bucket also takes every value beyond its bounds.
 */
void bq_hist_bucket_bounds(unsigned int idx, uint64_t *lower, uint64_t *width)
{
	bucket_bounds(idx, lower, width);
}

/**
 * bq_hist_init() - allocate an empty histogram
 * @h: the histogram
 *
 * Return: 0 or -ENOMEM.
 */
int bq_hist_init(struct bq_hist *h)
{
	void *p;

	memset(h, 0, sizeof(*h));
	/*
	 * Pages of their own, which stay unmapped until a value lands in
	 * them: a thread touches a page or two of its read histogram and
	 * none of the others.  From malloc, even an mmap()ed chunk has its
	 * header written in the first page: 8 KiB per thread for the
	 * directions a job never does.
	 */
	p = mmap(NULL, HIST_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	h->buckets = p;
	h->min = UINT64_MAX;
	return 0;
}

/**
 * bq_hist_free() - release a histogram's buckets
 * @h: the histogram; may have failed bq_hist_init() or be freed already
 */
void bq_hist_free(struct bq_hist *h)
{
	if (h->buckets)
		munmap(h->buckets, HIST_MAP_BYTES);
	h->buckets = NULL;
}

/**
 * bq_hist_reset() - forget every value, keep the buckets allocated
 * @h: the histogram
 *
 * Lets the run engine drop what was recorded during ramp time.
 */
void bq_hist_reset(struct bq_hist *h)
{
	/* Dropped, the pages read as zeros again and take no memory until used. */
	if (h->count && madvise(h->buckets, HIST_MAP_BYTES, MADV_DONTNEED))
		memset(h->buckets, 0, BQ_HIST_BUCKETS * sizeof(*h->buckets));
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum = 0;
	h->sumsq = 0;
}

/**
 * bq_hist_merge() - add one histogram's values to another
 * @dst: receives the values
 * @src: left unchanged
 *
 * The result is the histogram of every value added to either, as if all
 * had been added to @dst (group_reporting merges per-thread histograms).
 */
void bq_hist_merge(struct bq_hist *dst, const struct bq_hist *src)
{
	/* An empty one (a direction the job never did) adds nothing: its pages are not read in. */
	if (!src->count)
		return;
	for (unsigned int i = 0; i < BQ_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Percentiles are ranked in millionths of a percent. */
#define PCT_SCALE	1000000ULL

/**
 * bq_hist_percentile() - the value below which @pct percent of values lie
 * @h: the histogram
 * @pct: 0 to 100
 *
 * The value of rank ceil(@pct / 100 * count), within 1/256 of the
 * recorded value: the midpoint of its bucket, kept inside [min, max].
 * The rank is computed in integers, @pct rounded to a millionth of a
 * percent, so that p99.9 of 1000 values is the 999th (in floating point
 * 99.9 / 100 * 1000 is a hair above 999).
 * Values below 128 ns are exact, as are p0 (min) and p100 (max).  The
 * open-ended top bucket reports max.
 *
 * Return: nanoseconds, 0 for an empty histogram.
 */
uint64_t bq_hist_percentile(const struct bq_hist *h, double pct)
{
	uint64_t rank, seen = 0, lower, width, val, parts;
	unsigned int i;

	if (!h->count)
		return 0;
	/* Also catches NaN, which fails every comparison. */
	if (!(pct > 0))
		return h->min;
	if (pct >= 100)
		return h->max;

	parts = (uint64_t)llround(pct * (double)PCT_SCALE);
	rank = (uint64_t)(((unsigned __int128)parts * h->count + 100 * PCT_SCALE - 1) /
			  (100 * PCT_SCALE));
	if (!rank)
		rank = 1;
	if (rank > h->count)
		rank = h->count;

	for (i = 0; i < BQ_HIST_BUCKETS - 1; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	/*
	 * The top bucket also takes everything beyond 2^(MAX_LOG2 + 1), so
	 * its midpoint means nothing; max is a value it holds.
	 */
	if (i == BQ_HIST_BUCKETS - 1)
		return h->max;

	bucket_bounds(i, &lower, &width);
	val = lower + width / 2;
	if (val < h->min)
		val = h->min;
	if (val > h->max)
		val = h->max;
	return val;
}

/**
 * bq_hist_mean() - arithmetic mean
 * @h: the histogram
 *
 * Return: nanoseconds, 0 for an empty histogram.
 */
double bq_hist_mean(const struct bq_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

/**
 * bq_hist_stdev() - population standard deviation
 * @h: the histogram
 *
 * From the running sums, which bq_hist_add() can keep cheaply.  When the
 * deviation is a tiny fraction of the mean (under about 1e-4 of it after
 * 1e8 values) the subtraction cancels and the result is rounding noise.
 *
 * Return: nanoseconds, 0 for fewer than two values.
 */
double bq_hist_stdev(const struct bq_hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0;
	mean = h->sum / (double)h->count;
	var = h->sumsq / (double)h->count - mean * mean;
	/* Identical values can leave a tiny negative from rounding. */
	if (!(var > 0))
		return 0;
	return sqrt(var);
}
