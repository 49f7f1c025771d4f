// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_figures.c - what a run measures beside its workers: interval
 * samples from the threads' running totals, the devices' own counters
 * over each job's window, and the notes a job's figures need
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"

/* Add a line to what the user should know about a job. */
void __attribute__((format(printf, 2, 3))) run_job_note(struct bq_job_result *jr,
							   const char *fmt, ...)
{
	size_t used = strlen(jr->notes);
	va_list ap;

	if (used && used + 1 < sizeof(jr->notes))
		jr->notes[used++] = '\n';
	if (used + 1 >= sizeof(jr->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(jr->notes + used, sizeof(jr->notes) - used, fmt, ap);
	va_end(ap);
}

void run_sample_diskstats(struct run_state *st, struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_targets; i++) {
		struct bq_target_info *ti = &jr->targets[i];

		ti->have_stats = ti->devname[0] &&
				 !bq_diskstats_read(st->ctx, ti->devname, &ti->before);
		ti->stats_t0_ns = bq_now_ns();
	}
	run_trace_mark(st, (size_t)(jr - st->res->jobs));
}

void run_finish_diskstats(struct run_state *st, struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_targets; i++) {
		struct bq_target_info *ti = &jr->targets[i];
		struct bq_diskstats after;

		if (ti->have_stats && !bq_diskstats_read(st->ctx, ti->devname, &after)) {
			bq_diskstats_delta(&ti->before, &after, &ti->delta);
			ti->stats_window_ns = bq_now_ns() - ti->stats_t0_ns;
		} else {
			ti->have_stats = false;
		}
	}
	run_trace_end(st, (size_t)(jr - st->res->jobs));
}

void run_mark_copy(struct iv_mark *dst, const struct iv_mark *src)
{
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		dst->ios[d] = src->ios[d];
		dst->bytes[d] = src->bytes[d];
		dst->sum[d] = src->sum[d];
		dst->count[d] = src->count[d];
		memcpy(dst->buckets[d], src->buckets[d], BQ_HIST_BUCKETS * sizeof(uint64_t));
	}
}

/* One interval sample of a job: deltas of the threads' running totals. */
int run_sample_interval(struct run_state *st, size_t k, uint64_t t_ns)
{
	struct bq_job_result *jr = &st->res->jobs[k];
	struct job_state *js = &st->js[k];
	struct bq_interval iv = { .t_ns = t_ns };
	struct bq_interval *grown;

	run_mark_copy(&js->before, &js->prev);

	for (int d = 0; d < BQ_NR_DIRS; d++) {
		uint64_t ios = 0, bytes = 0, count = 0, *cur;
		struct bq_hist diff = { .min = 0, .max = UINT64_MAX };
		double sum = 0;

		cur = calloc(BQ_HIST_BUCKETS, sizeof(*cur));
		if (!cur)
			return -ENOMEM;
		for (int i = 0; i < jr->nr_threads; i++) {
			const struct bq_dir_result *r = &jr->threads[i].d[d];

			ios += r->ios;
			bytes += r->bytes;
			sum += r->lat.sum;
			count += r->lat.count;
			for (int b = 0; b < BQ_HIST_BUCKETS; b++)
				cur[b] += r->lat.buckets[b];
		}
		/* Totals restart at the end of ramp_time: start the deltas over too. */
		if (ios < js->prev.ios[d] || count < js->prev.count[d]) {
			js->prev.ios[d] = js->prev.bytes[d] = js->prev.count[d] = 0;
			js->prev.sum[d] = 0;
			memset(js->prev.buckets[d], 0, BQ_HIST_BUCKETS * sizeof(uint64_t));
		}
		iv.ios[d] = ios - js->prev.ios[d];
		iv.bytes[d] = bytes - js->prev.bytes[d];
		if (count > js->prev.count[d]) {
			iv.mean_ns[d] = (sum - js->prev.sum[d]) / (double)(count - js->prev.count[d]);
			for (int b = 0; b < BQ_HIST_BUCKETS; b++) {
				uint64_t now = cur[b];

				cur[b] = now >= js->prev.buckets[d][b] ? now - js->prev.buckets[d][b] : 0;
				js->prev.buckets[d][b] = now;
			}
			diff.buckets = cur;
			diff.count = count - js->prev.count[d];
			iv.p99_ns[d] = bq_hist_percentile(&diff, 99.0);
		}
		js->prev.ios[d] = ios;
		js->prev.bytes[d] = bytes;
		js->prev.sum[d] = sum;
		js->prev.count[d] = count;
		free(cur);
	}
	grown = realloc(jr->intervals, (jr->nr_intervals + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	grown[jr->nr_intervals++] = iv;
	jr->intervals = grown;
	return 0;
}

/*
 * A buffered job can be served by the page cache: say so when the device
 * read less than half of what the job read (readahead only makes the
 * device read more).
 */
void run_cache_note(struct bq_job_result *jr)
{
	uint64_t dev_bytes = 0, job_bytes = 0;
	bool stats = false;

	if (jr->job.direct)
		return;
	for (int i = 0; i < jr->nr_targets; i++) {
		if (!jr->targets[i].have_stats)
			return;
		dev_bytes += jr->targets[i].delta.sectors[BQ_READ] << 9;
		stats = true;
	}
	for (int i = 0; i < jr->nr_threads; i++)
		job_bytes += jr->threads[i].d[BQ_READ].bytes;
	if (stats && job_bytes && dev_bytes < job_bytes / 2)
		run_job_note(jr, "the device read %.1f%% of the bytes the job read: the rest came "
			 "from the page cache (direct=0)", 100.0 * (double)dev_bytes /
			 (double)job_bytes);
}
