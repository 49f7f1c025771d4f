// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - a run's figures added up: a job's threads, runs of the
 * same jobs (run --repeat), and freeing them
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_io.h"
#include "blkqual_trace.h"
#include "internal.h"
#include "verify/verify_int.h"

/* Add one thread's figures to a sum (mean_depth is the caller's business). */
static void thread_add(struct bq_thread_result *sum, const struct bq_thread_result *t)
{
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		sum->d[d].ios += t->d[d].ios;
		sum->d[d].bytes += t->d[d].bytes;
		sum->d[d].errors += t->d[d].errors;
		sum->d[d].short_ios += t->d[d].short_ios;
		bq_hist_merge(&sum->d[d].lat, &t->d[d].lat);
	}
	sum->trim.ios += t->trim.ios;
	sum->trim.bytes += t->trim.bytes;
	sum->trim.errors += t->trim.errors;
	/* A sum made before trims were reported may lack the histogram. */
	if (sum->trim.lat.buckets && t->trim.lat.buckets)
		bq_hist_merge(&sum->trim.lat, &t->trim.lat);
	sum->syncs += t->syncs;
	sum->zone_resets += t->zone_resets;
	sum->ignored_errors += t->ignored_errors;
	sum->usr_ns += t->usr_ns;
	sum->sys_ns += t->sys_ns;
	sum->vol_cs += t->vol_cs;
	sum->invol_cs += t->invol_cs;
	sum->sqpoll_ns += t->sqpoll_ns;
	for (int e = 0; e < t->nr_errors && sum->nr_errors < BQ_MAX_IO_ERRORS; e++)
		sum->errors[sum->nr_errors++] = t->errors[e];
	bq_io_error_groups_merge(sum, t);
	for (int m = 0; m < t->nr_members && m < sum->nr_members; m++) {
		sum->members[m].ios += t->members[m].ios;
		sum->members[m].bytes += t->members[m].bytes;
		sum->members[m].errors += t->members[m].errors;
		bq_hist_merge(&sum->members[m].lat, &t->members[m].lat);
	}
}

void bq_job_sum(const struct bq_job_result *jr, struct bq_thread_result *sum)
{
	for (int i = 0; i < jr->nr_threads; i++) {
		thread_add(sum, &jr->threads[i]);
		sum->mean_depth += jr->threads[i].mean_depth / jr->nr_threads;
	}
}

static void diskstats_add(struct bq_diskstats *sum, const struct bq_diskstats *d)
{
	for (int k = 0; k < BQ_NR_DIRS; k++) {
		sum->ios[k] += d->ios[k];
		sum->merges[k] += d->merges[k];
		sum->sectors[k] += d->sectors[k];
		sum->ticks_ms[k] += d->ticks_ms[k];
	}
	sum->io_ticks_ms += d->io_ticks_ms;
	sum->time_in_queue_ms += d->time_in_queue_ms;
	sum->discards += d->discards;
	sum->flushes += d->flushes;
}

static int job_add(struct bq_job_result *dst, const struct bq_job_result *src)
{
	uint64_t total = dst->runtime_ns + src->runtime_ns;
	struct bq_interval *iv;

	if (dst->nr_threads != src->nr_threads || dst->nr_targets != src->nr_targets)
		return -EINVAL;
	iv = realloc(dst->intervals, sizeof(*iv) * (dst->nr_intervals + src->nr_intervals));
	if (!iv && dst->nr_intervals + src->nr_intervals)
		return -ENOMEM;
	dst->intervals = iv;
	/* The second repetition's series continues where the first one ended. */
	for (size_t k = 0; k < src->nr_intervals; k++) {
		iv[dst->nr_intervals + k] = src->intervals[k];
		iv[dst->nr_intervals + k].t_ns += dst->runtime_ns;
	}
	dst->nr_intervals += src->nr_intervals;
	for (int i = 0; i < dst->nr_threads; i++) {
		struct bq_thread_result *d = &dst->threads[i];
		const struct bq_thread_result *s = &src->threads[i];

		thread_add(d, s);
		d->mean_depth = total ? (d->mean_depth * (double)dst->runtime_ns +
					 s->mean_depth * (double)src->runtime_ns) / (double)total : 0;
	}
	for (int t = 0; t < dst->nr_targets; t++)
		diskstats_add(&dst->targets[t].delta, &src->targets[t].delta);
	if (dst->verify && src->verify)
		bq_verify_report_add_run(dst->verify, src->verify);
	if (dst->trace && src->trace)
		bq_trace_result_add(dst->trace, src->trace);
	dst->runtime_ns = total;
	return 0;
}

int bq_results_add(struct bq_results *dst, const struct bq_results *src)
{
	if (dst->nr != src->nr)
		return -EINVAL;
	for (size_t k = 0; k < dst->nr; k++) {
		int ret = job_add(&dst->jobs[k], &src->jobs[k]);

		if (ret)
			return ret;
	}
	dst->interrupted |= src->interrupted;
	return 0;
}

void bq_results_free(struct bq_results *res)
{
	for (size_t k = 0; k < res->nr; k++) {
		struct bq_job_result *jr = &res->jobs[k];

		for (int i = 0; jr->threads && i < jr->nr_threads; i++) {
			for (int d = 0; d < BQ_NR_DIRS; d++)
				bq_hist_free(&jr->threads[i].d[d].lat);
			bq_hist_free(&jr->threads[i].trim.lat);
			for (int m = 0; m < jr->threads[i].nr_members; m++)
				bq_hist_free(&jr->threads[i].members[m].lat);
			free(jr->threads[i].members);
		}
		free(jr->threads);
		free(jr->targets);
		free(jr->intervals);
		free(jr->stalls);
		bq_trace_result_free(jr->trace);
		if (jr->verify)
			bq_verify_report_free(jr->verify);
		free(jr->verify);
	}
	free(res->jobs);
	memset(res, 0, sizeof(*res));
}
