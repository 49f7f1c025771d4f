// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - regression, improvement or noise: compare's verdict
 *
 * A change is a regression only when it is both large enough to matter
 * (the median moved beyond the threshold) and unlikely to be noise: the
 * Mann-Whitney U test rejects "no shift" at the confidence, corrected for
 * the number of metrics tested, and the bootstrap interval of the change
 * excludes zero.  With a single sample on either side there is no noise
 * estimate, and the verdict says so instead of guessing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "blkqual_stats.h"

static const char *const verdict_names[] = {
	[BQ_VERDICT_NOISE] = "within noise", [BQ_VERDICT_REGRESSION] = "regression",
	[BQ_VERDICT_IMPROVEMENT] = "improvement", [BQ_VERDICT_UNKNOWN] = "unknown",
};

const char *bq_verdict_name(enum bq_verdict v)
{
	return (size_t)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v] :
									       "unknown";
}

void bq_metric_judge(struct bq_metric_cmp *c, const double *b, int nb, const double *n, int nn,
		     double confidence)
{
	struct bq_mwu t;

	c->nb = nb;
	c->nn = nn;
	c->base = bq_median(b, nb);
	c->new = bq_median(n, nn);
	c->change = c->base ? c->new / c->base - 1 : (c->new ? INFINITY : 0);
	c->lo = c->hi = c->change;
	c->p = NAN;
	c->v = BQ_VERDICT_UNKNOWN;
	if (nb < 2 || nn < 2 || bq_mwu_test(b, nb, n, nn, &t))
		return;
	c->p = t.p;
	if (c->base && bq_bootstrap_change(b, nb, n, nn, confidence, 2000, 1, &c->lo, &c->hi))
		c->lo = c->hi = c->change;
	c->v = BQ_VERDICT_NOISE;	/* bq_verdict_decide() has the last word */
}

static int by_p(const void *x, const void *y)
{
	const struct bq_metric_cmp *a = *(struct bq_metric_cmp *const *)x;
	const struct bq_metric_cmp *b = *(struct bq_metric_cmp *const *)y;

	return (a->p > b->p) - (a->p < b->p);
}

/*
 * Many metrics are tested at once, and by chance alone one of twenty
 * would look significant at 95%: Holm's step-down correction keeps the
 * chance of any false verdict in the whole comparison at 1 - confidence.
 * A metric then also needs its bootstrap interval to exclude "no change"
 * (interval samples of one run share that run's luck, which the rank test
 * alone would take for a shift) and its median to move beyond the
 * threshold.
 */
int bq_verdict_decide(struct bq_metric_cmp *const *cmps, int nr, double confidence,
		      double threshold)
{
	double alpha = 1 - confidence;
	struct bq_metric_cmp **tested;
	int m = 0;

	tested = calloc((size_t)nr + 1, sizeof(*tested));
	if (!tested)
		return -ENOMEM;
	for (int i = 0; i < nr; i++)
		if (cmps[i]->v != BQ_VERDICT_UNKNOWN)
			tested[m++] = cmps[i];
	qsort(tested, (size_t)m, sizeof(*tested), by_p);
	for (int k = 0; k < m; k++) {
		struct bq_metric_cmp *c = tested[k];
		double worse = c->higher_is_better ? -c->change : c->change;

		/* Holm: once one fails its bound, every larger p fails too. */
		if (c->p >= alpha / (m - k))
			break;
		if ((c->lo <= 0 && c->hi >= 0) || fabs(c->change) < threshold)
			continue;
		/*
		 * Interval samples of a single run say nothing about how much
		 * one run differs from the next: only a change whose whole
		 * interval lies beyond the threshold counts then.
		 */
		if (c->intervals && c->lo < threshold && c->hi > -threshold)
			continue;
		c->v = worse > 0 ? BQ_VERDICT_REGRESSION : BQ_VERDICT_IMPROVEMENT;
	}
	free(tested);
	return 0;
}

enum bq_verdict bq_verdict_overall(struct bq_metric_cmp *const *cmps, int nr)
{
	bool improved = false, known = false;

	for (int i = 0; i < nr; i++) {
		if (cmps[i]->v == BQ_VERDICT_REGRESSION)
			return BQ_VERDICT_REGRESSION;
		improved |= cmps[i]->v == BQ_VERDICT_IMPROVEMENT;
		known |= cmps[i]->v != BQ_VERDICT_UNKNOWN;
	}
	if (improved)
		return BQ_VERDICT_IMPROVEMENT;
	return known ? BQ_VERDICT_NOISE : BQ_VERDICT_UNKNOWN;
}
