// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_status.c - the run so far as one set of results, for reports while
 * it goes on (fio's --status-interval, and its SIGUSR1): the phases that
 * ended as they ended, the running phase's jobs with what their threads
 * have counted and the time measured up to now, the later phases' jobs
 * with nothing yet.
 *
 * The threads go on counting while the copy is taken, so each histogram's
 * count is recounted from the buckets copied: percentiles then rank
 * exactly the latencies the copy holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_io.h"
#include "run_int.h"

static int hist_copy(struct bq_hist *dst, const struct bq_hist *src)
{
	int ret = bq_hist_init(dst);

	if (ret || !src->buckets)
		return ret;
	memcpy(dst->buckets, src->buckets, BQ_HIST_BUCKETS * sizeof(*dst->buckets));
	dst->count = 0;
	for (unsigned int b = 0; b < BQ_HIST_BUCKETS; b++)
		dst->count += dst->buckets[b];
	dst->min = src->min;
	dst->max = src->max;
	dst->sum = src->sum;
	dst->sumsq = src->sumsq;
	return 0;
}

static int thread_copy(struct bq_thread_result *dst, const struct bq_thread_result *src)
{
	int ret = 0;

	*dst = *src;
	dst->members = NULL;
	dst->nr_members = 0;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		dst->d[d].lat.buckets = NULL;
	dst->trim.lat.buckets = NULL;
	for (int d = 0; !ret && d < BQ_NR_DIRS; d++)
		ret = hist_copy(&dst->d[d].lat, &src->d[d].lat);
	if (!ret)
		ret = hist_copy(&dst->trim.lat, &src->trim.lat);
	if (ret || !src->nr_members)
		return ret;
	dst->members = calloc((size_t)src->nr_members, sizeof(*dst->members));
	if (!dst->members)
		return -ENOMEM;
	dst->nr_members = src->nr_members;
	for (int m = 0; !ret && m < src->nr_members; m++) {
		dst->members[m] = src->members[m];
		dst->members[m].lat.buckets = NULL;
		ret = hist_copy(&dst->members[m].lat, &src->members[m].lat);
	}
	return ret;
}

/* A job's figures without its series, stalls and verify findings. */
static int job_copy(struct bq_job_result *dst, const struct bq_job_result *src)
{
	*dst = *src;
	dst->intervals = NULL;
	dst->nr_intervals = 0;
	dst->stalls = NULL;
	dst->nr_stalls = 0;
	dst->verify = NULL;
	dst->targets = NULL;
	dst->threads = calloc(src->nr_threads > 0 ? (size_t)src->nr_threads : 1,
			      sizeof(*dst->threads));
	if (!dst->threads) {
		dst->nr_threads = 0;
		return -ENOMEM;
	}
	/* Freed as a whole by bq_results_free(), whichever copy failed. */
	for (int i = 0; i < src->nr_threads; i++) {
		int ret = thread_copy(&dst->threads[i], &src->threads[i]);

		if (ret) {
			dst->nr_threads = i + 1;
			return ret;
		}
	}
	if (src->nr_targets) {
		dst->targets = malloc((size_t)src->nr_targets * sizeof(*dst->targets));
		if (!dst->targets) {
			dst->nr_targets = 0;
			return -ENOMEM;
		}
		memcpy(dst->targets, src->targets, (size_t)src->nr_targets * sizeof(*dst->targets));
	}
	return 0;
}

/* Job @k of the running phase: measured from its start (past its ramp) to now. */
static void so_far(const struct run_state *st, size_t k, uint64_t now, struct bq_job_result *jr)
{
	uint64_t began = run_job_began(st, k), ended = run_job_ended(st, k);

	if (jr->job.ramp_ns && now >= began + jr->job.ramp_ns)
		began += jr->job.ramp_ns;
	if (ended && ended < now)
		now = ended;
	jr->runtime_ns = now > began ? now - began : 0;
	/* A running thread's CPU time so far, read from outside it (to the clock tick). */
	for (int i = 0; i < jr->nr_threads; i++) {
		int n = st->js[k].first_worker + i;
		const struct bq_worker *w = &st->workers[n];
		struct bq_thread_result *t = &jr->threads[i];

		if (!__atomic_load_n(&w->finished_ns, __ATOMIC_ACQUIRE))
			bq_threads_cpu_since(st->threads, n, &w->ru_start, &t->usr_ns, &t->sys_ns);
	}
	jr->start_unix_ns = st->res->start_unix_ns + (began > st->t0 ? began - st->t0 : 0);
	jr->end_unix_ns = st->res->start_unix_ns + (now > st->t0 ? now - st->t0 : 0);
	if (st->order && st->order->groupid)
		jr->groupid = st->order->groupid[k];
}

static int snapshot(const struct run_state *st, uint64_t now, struct bq_results *out)
{
	const struct run_order *order = st->order;
	const struct bq_results *done = order ? order->done : NULL;
	size_t before = done ? done->nr : 0, after = 0;
	int ret = 0;

	if (order && order->all && order->phase_end < order->all->nr)
		after = order->all->nr - order->phase_end;
	memset(out, 0, sizeof(*out));
	out->jobs = calloc(before + st->res->nr + after + 1, sizeof(*out->jobs));
	if (!out->jobs)
		return -ENOMEM;
	out->start_unix_ns = before ? done->start_unix_ns : st->res->start_unix_ns;
	for (size_t k = 0; !ret && k < before; k++, out->nr++)
		ret = job_copy(&out->jobs[out->nr], &done->jobs[k]);
	for (size_t k = 0; !ret && k < st->res->nr; k++, out->nr++) {
		ret = job_copy(&out->jobs[out->nr], &st->res->jobs[k]);
		so_far(st, k, now, &out->jobs[out->nr]);
	}
	/* The phases to come: their jobs with nothing yet, as fio lists them. */
	for (size_t k = 0; !ret && k < after; k++, out->nr++) {
		size_t at = order->phase_end + k;

		ret = run_job_not_started(&out->jobs[out->nr], &order->all->jobs[at],
					  order->groupid_all[at], "its phase has not begun");
	}
	return ret;
}

/**
 * run_status_tick() - the monitor's part: a status report when one is due
 * @st: the run
 * @now: the monitor's clock
 *
 * Reports follow each other every status_interval_ns from the start of
 * the run, across phases.  A report that cannot be made (no memory) is
 * left out; the run goes on.
 */
void run_status_tick(struct run_state *st, uint64_t now)
{
	const struct bq_run_opts *o = st->opts;
	uint64_t *next = st->order ? &st->order->next_status_ns : NULL;
	bool asked = o->status_now && *o->status_now;
	struct bq_results sofar;

	if (!o->status)
		return;
	if (next && o->status_interval_ns && !*next)
		*next = st->t0 + o->status_interval_ns;
	if (!asked && !(next && *next && now >= *next))
		return;
	if (asked)
		*o->status_now = 0;
	if (next && *next && now >= *next)
		while (*next <= now)
			*next += o->status_interval_ns;
	if (!snapshot(st, now, &sofar))
		o->status(o->arg, &sofar);
	bq_results_free(&sofar);
}
