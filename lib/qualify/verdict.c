// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - pass, fail or incomplete: a qualification's verdict
 *
 * The criteria are judged on what the report shows, each step's window,
 * not on any single round.  A fail that no criterion explains (a tracked
 * figure that never settled, I/O errors, bad blocks) is given a reason of
 * its own, so a reader of a failed qualification always learns why.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "qualify_int.h"

static const char *const dir_names[BQ_NR_DIRS] = { "read", "write" };

static const char *const verdict_names[] = {
	[BQ_QUAL_INCOMPLETE] = "incomplete", [BQ_QUAL_PASS] = "pass", [BQ_QUAL_FAIL] = "fail",
};

const char *bq_qual_verdict_name(enum bq_qual_verdict v)
{
	return (size_t)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v] :
									       "incomplete";
}

void bq_q_window_free(struct bq_qual *q)
{
	for (int s = 0; q->window && s < q->plan->nr_steps; s++) {
		for (int c = 0; q->window[s] && c < q->plan->steps[s].nr_cells; c++)
			bq_qresult_free(&q->window[s][c]);
		free(q->window[s]);
	}
	free(q->window);
	q->window = NULL;
}

/* The step's window, summed per cell, as views the criteria can judge. */
static int sum_window(struct bq_qual *q, int s, struct bq_qcell_view *views, int *n)
{
	const struct bq_qplan_step *ps = &q->plan->steps[s];
	int ret;

	q->window[s] = calloc((size_t)ps->nr_cells, sizeof(*q->window[s]));
	if (!q->window[s])
		return -ENOMEM;
	for (int c = 0; c < ps->nr_cells; c++) {
		ret = bq_qstep_window_sum(&q->runs[s], c, &q->window[s][c]);
		if (ret)
			return ret;
		views[(*n)++] = (struct bq_qcell_view){
			.step = ps->step->name, .kind = ps->step->kind,
			.cell = &ps->cells[c], .res = &q->window[s][c],
		};
	}
	return 0;
}

int bq_qual_judge(struct bq_qual *q)
{
	const struct bq_qplan *plan = q->plan;
	struct bq_qcell_view *views;
	int n = 0, ret = 0;
	bool failed = false;

	bq_q_window_free(q);
	free(q->crit);
	q->verdict = BQ_QUAL_INCOMPLETE;
	q->why[0] = '\0';
	for (int s = 0; s < plan->nr_steps; s++)
		n += plan->steps[s].nr_cells;
	views = calloc((size_t)n + 1, sizeof(*views));
	q->window = calloc((size_t)plan->nr_steps + 1, sizeof(*q->window));
	q->crit = calloc((size_t)q->prof->nr_criteria + 1, sizeof(*q->crit));
	if (!views || !q->window || !q->crit) {
		ret = -ENOMEM;
		goto out_free_views;
	}
	n = 0;
	for (int s = 0; s < plan->nr_steps; s++) {
		const struct bq_qplan_step *ps = &plan->steps[s];
		const struct bq_qstep_run *run = &q->runs[s];

		if (!run->nr_rounds)
			continue;
		ret = sum_window(q, s, views, &n);
		if (ret)
			goto out_free_views;
		for (int d = 0; d < BQ_NR_DIRS && q->prof->require_steady; d++) {
			if (ps->track_cell[d] < 0 || run->steady[d].state == BQ_STEADY_REACHED)
				continue;
			failed = true;
			snprintf(q->why, sizeof(q->why), "step %s: %s %s (require_steady=yes)",
				 ps->step->name, dir_names[d],
				 bq_steady_state_name(run->steady[d].state));
		}
	}
	for (int i = 0; i < q->prof->nr_criteria; i++) {
		bq_criterion_eval(&q->prof->criteria[i], views, n, &q->crit[i]);
		failed |= !q->crit[i].pass;
	}
	/* The last reason found is the one told: bad blocks outrank I/O errors. */
	if (q->errors) {
		failed = true;
		snprintf(q->why, sizeof(q->why), "%" PRIu64 " I/O errors", q->errors);
	}
	if (q->verify && q->verify->bad) {
		failed = true;
		snprintf(q->why, sizeof(q->why), "verify: %" PRIu64 " bad blocks", q->verify->bad);
	}
	q->verdict = q->interrupted ? BQ_QUAL_INCOMPLETE : failed ? BQ_QUAL_FAIL : BQ_QUAL_PASS;
out_free_views:
	free(views);
	return ret;
}
