// SPDX-License-Identifier: GPL-2.0-only
/*
 * steady.c - steady-state detection over rounds (SNIA PTS)
 *
 * A window of rounds is steady when the tracked variable neither wanders
 * (max - min within a fraction of the mean) nor drifts (the least-squares
 * line across the window rises or falls by less than a fraction of the
 * mean).  A series has reached steady state at the first steady window;
 * if a later window is not steady the device has left it, which a
 * qualification must say rather than quote the early numbers.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "qualify_int.h"

bool bq_steady_judge(const double *v, int last, const struct bq_steady_params *p,
		     struct bq_steady_window *w)
{
	int n = p->window, first = last - n + 1;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, den;

	memset(w, 0, sizeof(*w));
	w->first = first;
	w->last = last;
	w->min = INFINITY;
	w->max = -INFINITY;
	for (int i = 0; i < n; i++) {
		double y = v[first + i];

		sx += i;
		sy += y;
		sxx += (double)i * i;
		sxy += i * y;
		if (y < w->min)
			w->min = y;
		if (y > w->max)
			w->max = y;
	}
	w->mean = sy / n;
	den = n * sxx - sx * sx;
	w->slope = den ? (n * sxy - sx * sy) / den : 0;
	w->intercept = (sy - w->slope * sx) / n;
	/* A mean of zero (a direction that does nothing) is steady by definition. */
	w->range_ok = w->max - w->min <= p->range_pct / 100 * fabs(w->mean);
	w->slope_ok = fabs(w->slope) * (n - 1) <= p->slope_pct / 100 * fabs(w->mean);
	return w->range_ok && w->slope_ok;
}

int bq_steady_eval(const double *v, int n, const struct bq_steady_params *p,
		   struct bq_steady_result *r)
{
	struct bq_steady_window w;
	bool reached = false;

	memset(r, 0, sizeof(*r));
	r->left_round = -1;
	if (p->window < 2 || p->max_rounds < p->window || p->range_pct < 0 || p->slope_pct < 0 ||
	    n < 0)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	for (int last = p->window - 1; last < n; last++) {
		bool steady = bq_steady_judge(v, last, p, &w);

		r->latest = w;
		if (steady && !reached) {
			reached = true;
			r->steady = w;
		} else if (!steady && reached && r->left_round < 0) {
			r->left_round = last;
		} else if (steady && reached) {
			/* Back inside: only the latest window decides LEFT. */
			r->left_round = -1;
		}
	}
	if (reached)
		r->state = r->left_round >= 0 ? BQ_STEADY_LEFT : BQ_STEADY_REACHED;
	else
		r->state = n >= p->max_rounds ? BQ_STEADY_NOT_REACHED : BQ_STEADY_PENDING;
	return 0;
}

const char *bq_steady_state_name(enum bq_steady_state s)
{
	switch (s) {
	case BQ_STEADY_PENDING:
		return "not yet steady";
	case BQ_STEADY_REACHED:
		return "steady";
	case BQ_STEADY_LEFT:
		return "left steady state";
	case BQ_STEADY_NOT_REACHED:
		return "steady state not reached";
	}
	return "?";
}
