/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_int.h - private: the statistics the verdicts are built from
 */
#ifndef BLKQUAL_STATS_INT_H
#define BLKQUAL_STATS_INT_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct bq_mwu - a Mann-Whitney U test of two samples
 * @u: U statistic of the first sample (pairs (a, b) with a > b, ties half)
 * @z: standardised U (normal approximation, tie- and continuity-corrected);
 *     0 when the exact distribution was used
 * @p: two-sided p-value: how likely a shift at least this large is when
 *     both samples come from one distribution
 * @exact: @p comes from the exact distribution of U (small samples, no ties)
 */
struct bq_mwu {
	double u;
	double z;
	double p;
	bool exact;
};

/**
 * bq_mwu_test() - do two samples differ in location
 * @a: first sample
 * @na: its size (>= 1)
 * @b: second sample
 * @nb: its size (>= 1)
 * @r: the result
 *
 * Rank-based, so it makes no assumption about the shape of the
 * distribution: right for IOPS and latency, which are rarely normal.
 *
 * Return: 0, -EINVAL (empty sample, non-finite value) or -ENOMEM.
 */
int bq_mwu_test(const double *a, int na, const double *b, int nb, struct bq_mwu *r);

/**
 * bq_median() - median of a sample
 * @v: values (not changed)
 * @n: how many (>= 1)
 *
 * Return: the median, NaN for an empty sample or when out of memory.
 */
double bq_median(const double *v, int n);

/**
 * bq_mad() - median and median absolute deviation of a sample
 * @v: values (not changed)
 * @n: how many (>= 1)
 * @median: receives the median
 * @mad: receives median(|v[i] - median|), unscaled (multiply by 1.4826
 *       for a consistent estimate of a normal distribution's sigma)
 *
 * Return: 0, -EINVAL (empty sample, non-finite value) or -ENOMEM.
 */
int bq_mad(const double *v, int n, double *median, double *mad);

/**
 * bq_robust_z() - Iglewicz and Hoaglin's modified z-score
 * @x: the value
 * @median: the sample's median
 * @mad: its median absolute deviation (bq_mad())
 *
 * 0.6745 (x - median) / MAD: like a z-score, but neither the centre nor
 * the scale is pulled by the outliers it is meant to find.  When more than
 * half the sample is one value, MAD is 0 and any other value is infinitely
 * far: the result is then +-INFINITY (0 for @x == @median).
 *
 * Return: the score.
 */
double bq_robust_z(double x, double median, double mad);

/**
 * bq_bootstrap_change() - confidence interval of the relative change of
 * the median from @a to @b
 * @a: base sample
 * @na: its size
 * @b: new sample
 * @nb: its size
 * @confidence: e.g. 0.95
 * @iterations: resamples (e.g. 2000)
 * @seed: random seed, so a report can be reproduced
 * @lo: receives the lower bound of median(b)/median(a) - 1
 * @hi: receives the upper bound
 *
 * Percentile bootstrap; both samples are resampled independently.
 *
 * Return: 0, -EINVAL (empty sample, a base median of 0, confidence not
 * in (0, 1)) or -ENOMEM.
 */
int bq_bootstrap_change(const double *a, int na, const double *b, int nb, double confidence,
			int iterations, uint64_t seed, double *lo, double *hi);

/* student.c */
double bq_t_cdf(double t, double df);
double bq_t_quantile(double p, double df);

#endif /* BLKQUAL_STATS_INT_H */
