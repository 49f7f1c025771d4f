/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_qualify.h - qualification: steady-state detection over rounds
 * of a test stimulus (SNIA PTS style)
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_QUALIFY_H
#define BLKQUAL_QUALIFY_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct bq_steady_params - what "steady" means
 * @window: rounds in the measurement window (PTS: 5)
 * @range_pct: max - min within the window, at most this percent of the
 *             window's mean (PTS: 20)
 * @slope_pct: the least-squares slope times (window - 1) rounds, at most
 *             this percent of the window's mean (PTS: 10)
 * @max_rounds: give up after this many rounds (PTS: 25)
 */
struct bq_steady_params {
	int window;
	double range_pct;
	double slope_pct;
	int max_rounds;
};

#define BQ_STEADY_PARAMS_PTS { .window = 5, .range_pct = 20, .slope_pct = 10, .max_rounds = 25 }

enum bq_steady_state {
	BQ_STEADY_PENDING,	/* not steady yet, more rounds allowed */
	BQ_STEADY_REACHED,	/* steady, and still steady in the latest window */
	BQ_STEADY_LEFT,		/* was steady, the latest window is not */
	BQ_STEADY_NOT_REACHED,	/* max_rounds done, never steady */
};

/**
 * struct bq_steady_window - one window of rounds, judged
 * @first: index of its first round (0-based)
 * @last: index of its last round
 * @mean: mean of the tracked variable
 * @min: smallest value
 * @max: largest value
 * @slope: least-squares slope per round
 * @intercept: fitted value at round @first
 * @range_ok: (@max - @min) within range_pct of @mean
 * @slope_ok: |@slope| * (window - 1) within slope_pct of @mean
 */
struct bq_steady_window {
	int first;
	int last;
	double mean;
	double min;
	double max;
	double slope;
	double intercept;
	bool range_ok;
	bool slope_ok;
};

/**
 * struct bq_steady_result - the verdict on a series of rounds
 * @state: see enum bq_steady_state
 * @steady: the first steady window (valid unless PENDING or NOT_REACHED)
 * @latest: the window ending at the latest round (valid when there are
 *          at least window rounds)
 * @left_round: index of the first round whose window was no longer
 *              steady after @steady (valid when LEFT)
 */
struct bq_steady_result {
	enum bq_steady_state state;
	struct bq_steady_window steady;
	struct bq_steady_window latest;
	int left_round;
};

/**
 * bq_steady_judge() - judge the window of rounds ending at @last
 * @v: the tracked variable per round
 * @last: index of the window's last round (>= window - 1)
 * @p: the criteria
 * @w: filled in
 *
 * Return: true when the window is steady.
 */
bool bq_steady_judge(const double *v, int last, const struct bq_steady_params *p,
		     struct bq_steady_window *w);

/**
 * bq_steady_eval() - has a series of rounds reached steady state
 * @v: the tracked variable per round, oldest first
 * @n: rounds so far
 * @p: the criteria
 * @r: the verdict
 *
 * Return: 0, or -EINVAL for bad criteria or a non-finite value.
 */
int bq_steady_eval(const double *v, int n, const struct bq_steady_params *p,
		   struct bq_steady_result *r);

/**
 * bq_steady_state_name() - "steady", "left steady state", ...
 * @s: the state
 *
 * Return: a constant string.
 */
const char *bq_steady_state_name(enum bq_steady_state s);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_QUALIFY_H */
