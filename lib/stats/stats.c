// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - rank tests and bootstrap intervals for comparing runs
 *
 * Benchmark samples are few (a handful of repetitions, or a few dozen
 * interval samples), skewed and often tied; so the test is rank-based
 * (Mann-Whitney U), exact when the samples are small and untied, normal
 * with tie correction otherwise, and the size of a change is given as a
 * bootstrap interval of the ratio of medians.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_stats.h"
#include "stats/stats_int.h"
#include "internal.h"

/* Exact p-values up to this many pairs; beyond, the normal approximation is good. */
#define EXACT_MAX_PAIRS 400

struct ranked {
	double v;
	int group;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static bool all_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

/*
 * Distribution of U for sizes m and n without ties: the number of ways
 * c(m, n, u) satisfies c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u).
 * Returns P(U <= u), computed over one row per m with doubles.
 */
static double exact_cdf(int m, int n, double u)
{
	int max = m * n, k = (int)floor(u);
	double *prev, *cur, total = 0, below = 0;

	/* cur[j][u] for j = 0..n, kept as (n + 1) rows of (max + 1). */
	prev = calloc((size_t)(n + 1) * (max + 1), sizeof(double));
	cur = calloc((size_t)(n + 1) * (max + 1), sizeof(double));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	/* m = 0: U is 0 whatever n. */
	for (int j = 0; j <= n; j++)
		prev[(size_t)j * (max + 1)] = 1;
	for (int i = 1; i <= m; i++) {
		memset(cur, 0, sizeof(double) * (size_t)(n + 1) * (max + 1));
		cur[0] = 1;	/* n = 0 */
		for (int j = 1; j <= n; j++) {
			for (int v = 0; v <= i * j; v++) {
				double c = cur[(size_t)(j - 1) * (max + 1) + v];

				if (v >= j)
					c += prev[(size_t)j * (max + 1) + v - j];
				cur[(size_t)j * (max + 1) + v] = c;
			}
		}
		memcpy(prev, cur, sizeof(double) * (size_t)(n + 1) * (max + 1));
	}
	for (int v = 0; v <= max; v++) {
		total += prev[(size_t)n * (max + 1) + v];
		if (v <= k)
			below += prev[(size_t)n * (max + 1) + v];
	}
	free(prev);
	free(cur);
	return below / total;
}

int bq_mwu_test(const double *a, int na, const double *b, int nb, struct bq_mwu *r)
{
	int n = na + nb;
	struct ranked *all;
	double ra = 0, ties = 0, mu, sigma, lo;
	bool tied = false;

	memset(r, 0, sizeof(*r));
	if (na < 1 || nb < 1 || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	all = calloc((size_t)n, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (int i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 0 };
	for (int i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 1 };
	qsort(all, (size_t)n, sizeof(*all), cmp_ranked);
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && all[j].v == all[i].v)
			j++;
		/* Ranks i+1 .. j share their average. */
		for (int k = i; k < j; k++)
			if (!all[k].group)
				ra += (i + 1 + j) / 2.0;
		if (j - i > 1) {
			tied = true;
			ties += pow(j - i, 3) - (j - i);
		}
		i = j;
	}
	free(all);
	r->u = ra - na * (na + 1) / 2.0;
	mu = na * (double)nb / 2;
	if (!tied && (long)na * nb <= EXACT_MAX_PAIRS) {
		/* Two-sided: twice the smaller tail, at most 1. */
		lo = fmin(r->u, na * (double)nb - r->u);
		r->p = fmin(1.0, 2 * exact_cdf(na, nb, lo));
		r->exact = isfinite(r->p);
		if (r->exact)
			return 0;
	}
	sigma = sqrt(na * (double)nb / 12 * ((n + 1) - ties / ((double)n * (n - 1))));
	if (sigma == 0) {
		/* Every value equal: no evidence of any shift. */
		r->p = 1;
		return 0;
	}
	r->z = (r->u - mu - copysign(fmin(0.5, fabs(r->u - mu)), r->u - mu)) / sigma;
	r->p = fmin(1.0, erfc(fabs(r->z) / M_SQRT2));
	return 0;
}

static double median_sorted(const double *v, int n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bq_median(const double *v, int n)
{
	double *c, m;

	if (n < 1)
		return NAN;
	c = malloc(sizeof(*c) * (size_t)n);
	if (!c)
		return NAN;
	memcpy(c, v, sizeof(*c) * (size_t)n);
	qsort(c, (size_t)n, sizeof(*c), cmp_double);
	m = median_sorted(c, n);
	free(c);
	return m;
}

int bq_mad(const double *v, int n, double *median, double *mad)
{
	double *dev, m;

	if (n < 1 || !all_finite(v, n))
		return -EINVAL;
	m = bq_median(v, n);
	if (isnan(m))
		return -ENOMEM;
	dev = malloc(sizeof(*dev) * (size_t)n);
	if (!dev)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		dev[i] = fabs(v[i] - m);
	qsort(dev, (size_t)n, sizeof(*dev), cmp_double);
	*median = m;
	*mad = median_sorted(dev, n);
	free(dev);
	return 0;
}

double bq_robust_z(double x, double median, double mad)
{
	if (x == median)
		return 0;
	if (mad <= 0)
		return copysign(INFINITY, x - median);
	return 0.6745 * (x - median) / mad;
}

static double resample_median(const double *v, int n, double *tmp, uint64_t *s)
{
	for (int i = 0; i < n; i++)
		tmp[i] = v[bq_splitmix64(s) % (uint64_t)n];
	qsort(tmp, (size_t)n, sizeof(*tmp), cmp_double);
	return median_sorted(tmp, n);
}

int bq_bootstrap_change(const double *a, int na, const double *b, int nb, double confidence,
			int iterations, uint64_t seed, double *lo, double *hi)
{
	double *tmp, *change, ma;
	int ret = 0, ilo, ihi;

	if (na < 1 || nb < 1 || iterations < 10 || !(confidence > 0 && confidence < 1) ||
	    !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	ma = bq_median(a, na);
	if (ma == 0 || !isfinite(ma))
		return -EINVAL;
	tmp = malloc(sizeof(*tmp) * (size_t)(na > nb ? na : nb));
	change = malloc(sizeof(*change) * (size_t)iterations);
	if (!tmp || !change) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (int i = 0; i < iterations; i++) {
		double base = resample_median(a, na, tmp, &seed);
		double cur = resample_median(b, nb, tmp, &seed);

		/* A resampled base of 0 would divide by zero: count it as no change. */
		change[i] = base ? cur / base - 1 : 0;
	}
	qsort(change, (size_t)iterations, sizeof(*change), cmp_double);
	ilo = (int)floor((1 - confidence) / 2 * (iterations - 1));
	ihi = (int)ceil((1 + confidence) / 2 * (iterations - 1));
	*lo = change[ilo];
	*hi = change[ihi];
out_free:
	free(tmp);
	free(change);
	return ret;
}
