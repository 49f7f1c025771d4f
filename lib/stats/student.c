// SPDX-License-Identifier: GPL-2.0-only
/*
 * student.c - Student's t distribution: what Welch's test and its power
 * need
 *
 * With three runs a side, a rank test cannot reach p < 0.1 whatever the
 * change; a t-test on the logarithms of the runs' figures can, and says
 * how large a change the runs could have shown.  The distribution
 * function is the regularised incomplete beta function, evaluated by its
 * continued fraction (modified Lentz).
 */
#include <math.h>

#include "stats/stats_int.h"

#define CF_MAX_ITER	300
#define CF_EPS		1e-15
#define CF_TINY		1e-300

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m, num, delta;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/**
 * bq_t_cdf() - P(T <= t) for Student's t with @df degrees of freedom
 * @t: the value
 * @df: degrees of freedom, > 0 (need not be whole: Welch's are not)
 *
 * Return: the probability.
 */
double bq_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

/**
 * bq_t_quantile() - the t below which a fraction @p of Student's t lies
 * @p: in (0, 1)
 * @df: degrees of freedom, > 0
 *
 * Return: the quantile (bisection to 1e-9 relative), NAN for a bad @p.
 */
double bq_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -bq_t_quantile(1 - p, df);
	while (bq_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (bq_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
