// SPDX-License-Identifier: GPL-2.0-only
/*
 * outliers.c - fleet's rule: which devices differ from their group
 *
 * A value is an outlier when its robust z-score (distance from the
 * group's median in units of its scaled MAD) is beyond the threshold and
 * it also lies at least a minimum relative distance from the median: in a
 * group that agrees to 0.1%, a device 0.5% off is far in z but not worth
 * an alarm.  Groups too small to have a median worth the name are not
 * judged.
 *
 * A fixed |z| threshold lets chance grow with the fleet: at 3.5, one
 * value in about 2,150 of well-behaved (normal) figures passes it, so
 * ten thousand devices give some five outliers by chance alone.  The
 * threshold a group gets is therefore Bonferroni's: the |z| that noise
 * passes with probability @alpha / (values judged in the group), so the
 * chance that a group shows any outlier by chance is at most @alpha,
 * whatever its size.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "blkqual_stats.h"
#include "stats/stats_int.h"

/* The |z| a standard normal value passes with probability @p (two-sided). */
static double two_sided_z(double p)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/**
 * bq_outlier_threshold() - the |z| a group's values are judged against
 * @floor: never below this (the user's --threshold)
 * @alpha: the chance that noise makes any outlier in the group
 * @tests: how many values the group judges (devices x metrics)
 *
 * Return: max(@floor, the Bonferroni threshold for @tests values at @alpha).
 */
double bq_outlier_threshold(double floor, double alpha, double tests)
{
	if (!(tests >= 1) || !(alpha > 0 && alpha < 1))
		return floor;
	return fmax(floor, two_sided_z(alpha / tests));
}

/**
 * bq_outlier_chance() - how many outliers chance alone gives
 * @threshold: the |z| the values are judged against
 * @tests: how many values
 *
 * Return: the expected number of normal values beyond @threshold.
 */
double bq_outlier_chance(double threshold, double tests)
{
	return tests * erfc(threshold / M_SQRT2);
}

/* The values' logarithms in *@lv; NULL there when one is not positive. */
static int logs_of(const double *v, int n, double **lv)
{
	*lv = NULL;
	for (int i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	*lv = malloc((size_t)n * sizeof(**lv));
	if (!*lv)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		(*lv)[i] = log(v[i]);
	return 0;
}

int bq_outliers(const double *v, int n, const struct bq_outlier_rule *rule,
		struct bq_outlier_group *grp, struct bq_outlier *out)
{
	double *lv = NULL, median, mad, half;
	int ret = bq_mad(v, n, &grp->median, &grp->mad);

	if (ret)
		return ret;
	median = grp->median;
	mad = grp->mad;
	/*
	 * A latency that is the reciprocal of a normal rate has a long
	 * slow tail: at 100,000 devices with 3% noise, chance put one past
	 * the threshold on the values themselves (|z| 5.6 at 5.29, its
	 * IOPS at -4.8).
	 */
	if (rule->log_scale) {
		ret = logs_of(v, n, &lv);
		if (!ret && lv)
			ret = bq_mad(lv, n, &median, &mad);
		if (ret)
			goto out_free;
	}
	/* Where 0.6745 (x - median) / MAD reaches the threshold. */
	half = mad > 0 ? rule->threshold * mad / 0.6745 : 0;
	grp->band_lo = lv ? exp(median - half) : median - half;
	grp->band_hi = lv ? exp(median + half) : median + half;
	for (int i = 0; i < n; i++) {
		struct bq_outlier *o = &out[i];

		o->z = bq_robust_z(lv ? lv[i] : v[i], median, mad);
		o->diff = grp->median ? (v[i] - grp->median) / fabs(grp->median) : NAN;
		/* A difference too small to matter is noise, however tight the rest. */
		o->outlier = n >= rule->min_group && fabs(o->z) > rule->threshold &&
			     (isnan(o->diff) || fabs(o->diff) >= rule->min_diff);
	}
out_free:
	free(lv);
	return ret;
}
