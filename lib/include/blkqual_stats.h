/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_stats.h - telling a real change from noise: compare's verdict
 * per metric and overall, and fleet's outliers (the tests and intervals
 * they are built from are private: lib/stats/stats_int.h)
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_STATS_H
#define BLKQUAL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- fleet's outliers ------------------------------------------------- */

/**
 * struct bq_outlier_rule - when a value is an outlier in its group
 * @threshold: |robust z| beyond which it may be
 * @min_diff: least relative distance from the median it must also have
 * @min_group: fewer values than this, and none is judged
 * @log_scale: the z-score is of the values' logarithms, when all are
 *	positive: noise that scales a device's speed is symmetric there, so
 *	chance passes the threshold as rarely on the slow side as on the fast,
 *	and a rate and its reciprocal (IOPS and latency at one queue depth)
 *	give a device the same |z|
 */
struct bq_outlier_rule {
	double threshold;
	double min_diff;
	int min_group;
	bool log_scale;
};

/**
 * struct bq_outlier - one value judged against its group
 * @z: robust z-score (infinite when the MAD is 0 and it differs), of its
 *	logarithm with bq_outlier_rule.log_scale
 * @diff: (value - median) / |median|, NAN for a median of 0
 * @outlier: the rule calls it one
 */
struct bq_outlier {
	double z;
	double diff;
	bool outlier;
};

/**
 * struct bq_outlier_group - a group as the rule saw it
 * @median: the values' median (of the values themselves, on any scale)
 * @mad: their median absolute deviation (likewise)
 * @band_lo: the lowest value whose |z| is within the threshold
 * @band_hi: the highest; on the log scale the band spans one factor each
 *	way from the median.  The rule's least difference is not in it.
 */
struct bq_outlier_group {
	double median;
	double mad;
	double band_lo;
	double band_hi;
};

/**
 * bq_outliers() - judge every value of a group by the rule
 * @v: the values, @n of them
 * @n: how many
 * @rule: the rule
 * @grp: receives the group's median, MAD and band
 * @out: receives one judgement per value
 *
 * Return: 0, -EINVAL for an empty group, or -ENOMEM.
 */
int bq_outliers(const double *v, int n, const struct bq_outlier_rule *rule,
		struct bq_outlier_group *grp, struct bq_outlier *out);
double bq_outlier_threshold(double floor, double alpha, double tests);
double bq_outlier_chance(double threshold, double tests);

/* ---- compare's verdict ----------------------------------------------- */

/**
 * enum bq_verdict - what a comparison of two sets of runs says
 * @BQ_VERDICT_NOISE: no change the data can tell from noise
 * @BQ_VERDICT_REGRESSION: worse, beyond the threshold and the noise
 * @BQ_VERDICT_IMPROVEMENT: better, likewise
 * @BQ_VERDICT_UNKNOWN: too few samples to tell
 * @BQ_VERDICT_INCONCLUSIVE: no change seen, but the runs could not have
 *                           shown one of the threshold's size either
 */
enum bq_verdict {
	BQ_VERDICT_NOISE,
	BQ_VERDICT_REGRESSION,
	BQ_VERDICT_IMPROVEMENT,
	BQ_VERDICT_UNKNOWN,
	BQ_VERDICT_INCONCLUSIVE,
};

/**
 * struct bq_metric_cmp - one metric compared between a base and a new set
 * @higher_is_better: set by the caller: IOPS yes, latency no
 * @intervals: set by the caller: a side's samples are one run's intervals
 * @nb: base samples
 * @nn: new samples
 * @base: the base samples' centre: their geometric mean when they are runs
 *        (Welch's test on logarithms), their median when intervals
 * @new: the new ones', likewise
 * @change: @new / @base - 1
 * @lo: lower bound of the change's confidence interval (t, or bootstrap
 *      for intervals)
 * @hi: upper bound
 * @p: the test's p-value, NAN when not tested
 * @welch: tested with Welch's t on logarithms (else Mann-Whitney)
 * @se: standard error of the log ratio (Welch)
 * @var_b: variance of the base samples' logarithms (Welch)
 * @var_n: of the new ones'
 * @df: Welch's degrees of freedom
 * @detectable: the smallest change the test could have found, with 80 %
 *              power at the family's confidence (bq_verdict_decide())
 * @runs_needed: runs a side that would detect a change of the threshold's
 *               size; 0 when not known, -1 when more than 1000
 * @v: the verdict
 */
struct bq_metric_cmp {
	bool higher_is_better;
	bool intervals;
	int nb, nn;
	double base, new, change, lo, hi, p;
	bool welch;
	double se, var_b, var_n, df;
	double detectable;
	int runs_needed;
	enum bq_verdict v;
};

/**
 * bq_metric_judge() - medians, change, its interval and the rank test
 * @c: the metric; @higher_is_better and @intervals set
 * @b: base samples, @nb of them
 * @nb: how many
 * @n: new samples, @nn of them
 * @nn: how many
 * @confidence: e.g. 0.95
 *
 * Leaves @c->v at BQ_VERDICT_NOISE when tested (bq_verdict_decide() has
 * the last word) or BQ_VERDICT_UNKNOWN with fewer than two samples a side.
 */
void bq_metric_judge(struct bq_metric_cmp *c, const double *b, int nb, const double *n, int nn,
		     double confidence);

/**
 * bq_verdict_decide() - each judged metric's verdict, all tested together
 * @cmps: the metrics, judged, @nr of them
 * @nr: how many
 * @confidence: e.g. 0.95, family-wise over all of them (Holm)
 * @threshold: smallest relative change that matters (0.05 for 5%)
 *
 * Return: 0 or -ENOMEM.
 */
int bq_verdict_decide(struct bq_metric_cmp *const *cmps, int nr, double confidence,
		      double threshold);

/**
 * bq_verdict_overall() - one verdict for a whole comparison
 * @cmps: the decided metrics, @nr of them
 * @nr: how many
 *
 * Return: a regression if any metric regressed, else an improvement if
 * any improved, else inconclusive if any metric's runs could not have
 * shown a change of the threshold's size, else noise, or unknown when
 * nothing could be tested.
 */
enum bq_verdict bq_verdict_overall(struct bq_metric_cmp *const *cmps, int nr);

/**
 * bq_verdict_name() - "regression", "within noise", ...
 * @v: the verdict
 *
 * Return: a static string.
 */
const char *bq_verdict_name(enum bq_verdict v);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_STATS_H */
