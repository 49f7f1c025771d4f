// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - regression, improvement, noise or inconclusive: compare's
 * verdict
 *
 * A change is a regression only when it is both large enough to matter
 * (beyond the threshold) and unlikely to be noise, corrected for the
 * number of metrics tested.  Samples that are runs (repetitions, or one
 * result file per run) are compared with Welch's t-test on their
 * logarithms: each run is one sample whatever it holds, so the run-to-run
 * variance is what the test weighs, and with three runs a side it can
 * still see a large change (an exact rank test on 3 against 3 cannot go
 * below p = 0.1).  Interval samples of single runs are compared by rank,
 * with a bootstrap interval.  "Within noise" is said only where the runs
 * could have shown a change of the threshold's size; elsewhere the
 * verdict is inconclusive, with the runs a side that would do.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "blkqual_stats.h"
#include "stats/stats_int.h"

/* Power a "within noise" verdict needs: a change of the threshold's size is found 80 % of the time. */
#define POWER			0.8
#define MAX_RUNS_NEEDED		1000

static const char *const verdict_names[] = {
	[BQ_VERDICT_NOISE] = "within noise", [BQ_VERDICT_REGRESSION] = "regression",
	[BQ_VERDICT_IMPROVEMENT] = "improvement", [BQ_VERDICT_UNKNOWN] = "unknown",
	[BQ_VERDICT_INCONCLUSIVE] = "inconclusive",
};

const char *bq_verdict_name(enum bq_verdict v)
{
	return (size_t)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v] :
									       "unknown";
}

static bool all_positive(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]))
			return false;
	return true;
}

static void log_moments(const double *v, int n, double *mean, double *var)
{
	double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += log(v[i]);
	m /= n;
	for (int i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	*mean = m;
	*var = n > 1 ? ss / (n - 1) : 0;
}

/* Welch's t-test on the logarithms: the ratio of geometric means and its interval. */
static void judge_welch(struct bq_metric_cmp *c, const double *b, int nb, const double *n, int nn,
			double confidence)
{
	double mb, mn, d, t, q, wb, wn;

	log_moments(b, nb, &mb, &c->var_b);
	log_moments(n, nn, &mn, &c->var_n);
	d = mn - mb;
	wb = c->var_b / nb;
	wn = c->var_n / nn;
	c->welch = true;
	c->base = exp(mb);
	c->new = exp(mn);
	c->change = expm1(d);
	c->se = sqrt(wb + wn);
	if (c->se == 0) {
		/* Identical runs on each side: any difference is no accident. */
		c->df = nb + nn - 2;
		c->p = d == 0 ? 1 : 0;
		c->lo = c->hi = c->change;
		return;
	}
	c->df = (wb + wn) * (wb + wn) /
		((wb ? wb * wb / (nb - 1) : 0) + (wn ? wn * wn / (nn - 1) : 0));
	t = d / c->se;
	c->p = 2 * bq_t_cdf(-fabs(t), c->df);
	q = bq_t_quantile(1 - (1 - confidence) / 2, c->df);
	c->lo = expm1(d - q * c->se);
	c->hi = expm1(d + q * c->se);
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
	if (nb < 2 || nn < 2)
		return;
	c->v = BQ_VERDICT_NOISE;	/* bq_verdict_decide() has the last word */
	if (!c->intervals && all_positive(b, nb) && all_positive(n, nn)) {
		judge_welch(c, b, nb, n, nn, confidence);
		return;
	}
	if (bq_mwu_test(b, nb, n, nn, &t)) {
		c->v = BQ_VERDICT_UNKNOWN;
		return;
	}
	c->p = t.p;
	if (c->base && bq_bootstrap_change(b, nb, n, nn, confidence, 2000, 1, &c->lo, &c->hi))
		c->lo = c->hi = c->change;
}

/*
 * The smallest log change Welch's test at level @alpha finds with POWER
 * for a standard error @se and @df degrees of freedom.
 */
static double detectable_log(double alpha, double se, double df)
{
	return (bq_t_quantile(1 - alpha / 2, df) + bq_t_quantile(POWER, df)) * se;
}

/*
 * Could the runs have shown a change of the threshold's size?  If not,
 * "no change" would be a claim the data cannot back: the verdict is
 * inconclusive, with how many runs a side would do (at the variances
 * seen, the same number on each side).
 */
static void judge_power(struct bq_metric_cmp *c, double alpha, double threshold)
{
	double want = log1p(threshold), var = c->var_b + c->var_n;

	if (!c->welch) {
		/* One run's intervals say nothing of how runs differ. */
		c->v = BQ_VERDICT_INCONCLUSIVE;
		c->runs_needed = 0;
		return;
	}
	c->detectable = c->se ? expm1(detectable_log(alpha, c->se, c->df)) : 0;
	if (c->detectable <= threshold)
		return;
	c->v = BQ_VERDICT_INCONCLUSIVE;
	c->runs_needed = -1;
	for (int k = 2; k <= MAX_RUNS_NEEDED; k++) {
		if (detectable_log(alpha, sqrt(var / k), 2.0 * k - 2) <= want) {
			c->runs_needed = k;
			break;
		}
	}
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
	/* Bonferroni's bound for the power: Holm's first step, the strictest. */
	for (int k = 0; k < m; k++)
		if (tested[k]->v == BQ_VERDICT_NOISE)
			judge_power(tested[k], alpha / m, threshold);
	free(tested);
	return 0;
}

enum bq_verdict bq_verdict_overall(struct bq_metric_cmp *const *cmps, int nr)
{
	bool improved = false, known = false, inconclusive = false;

	for (int i = 0; i < nr; i++) {
		if (cmps[i]->v == BQ_VERDICT_REGRESSION)
			return BQ_VERDICT_REGRESSION;
		improved |= cmps[i]->v == BQ_VERDICT_IMPROVEMENT;
		inconclusive |= cmps[i]->v == BQ_VERDICT_INCONCLUSIVE;
		known |= cmps[i]->v != BQ_VERDICT_UNKNOWN;
	}
	if (improved)
		return BQ_VERDICT_IMPROVEMENT;
	if (inconclusive)
		return BQ_VERDICT_INCONCLUSIVE;
	return known ? BQ_VERDICT_NOISE : BQ_VERDICT_UNKNOWN;
}
