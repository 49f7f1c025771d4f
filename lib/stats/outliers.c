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
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "blkqual_stats.h"
#include "stats/stats_int.h"

int bq_outliers(const double *v, int n, const struct bq_outlier_rule *rule, double *median,
		double *mad, struct bq_outlier *out)
{
	int ret = bq_mad(v, n, median, mad);

	if (ret)
		return ret;
	for (int i = 0; i < n; i++) {
		struct bq_outlier *o = &out[i];

		o->z = bq_robust_z(v[i], *median, *mad);
		o->diff = *median ? (v[i] - *median) / fabs(*median) : NAN;
		/* A difference too small to matter is noise, however tight the rest. */
		o->outlier = n >= rule->min_group && fabs(o->z) > rule->threshold &&
			     (isnan(o->diff) || fabs(o->diff) >= rule->min_diff);
	}
	return 0;
}
