// SPDX-License-Identifier: GPL-2.0-only
/*
 * rates_report.c - the rate family's figures, per thread: pauses taken,
 * why a thread failed, the depth latency_target found, steady state
 */
#include <inttypes.h>
#include <stdio.h>

#include "report_util.h"
#include "rates_report.h"

static const char *const dir_word[] = { "read", "write" };
static const char *ss_name(int ss)
{
	static const char *const names[] = { "iops", "iops_slope", "bw", "bw_slope", "lat",
					     "lat_slope" };

	return ss >= 0 && ss < (int)(sizeof(names) / sizeof(names[0])) ? names[ss] : "?";
}

/* An absolute latency criterion and its limit are in nanoseconds. */
static const char *ss_unit(const struct bq_job *j)
{
	return j->ss_pct ? "%" : j->ss >= BQ_SS_LAT ? " ns" : "";
}

bool rates_used(const struct bq_job *j)
{
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (j->rate[d] || j->rate_iops_rw[d] || j->rate_min[d] || j->rate_iops_min[d] ||
		    j->max_latency_ns[d])
			return true;
	return j->thinktime_ns || j->latency_target_ns || j->ss_dur_ns;
}

static json_object *pair(const uint64_t v[BQ_NR_DIRS])
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_u64(v[BQ_READ]));
	json_object_array_add(a, json_u64(v[BQ_WRITE]));
	return a;
}

json_object *rates_options_json(const struct bq_job *j)
{
	json_object *o = json_object_new_object();

	/* Only what differs from fio's defaults: older results have none of these. */
	if (j->rate[BQ_READ] || j->rate[BQ_WRITE])
		json_object_object_add(o, "rate", pair(j->rate));
	/* Both directions alike are the older rate_iops key. */
	if (j->rate_iops_rw[BQ_READ] != j->rate_iops_rw[BQ_WRITE])
		json_object_object_add(o, "rate_iops", pair(j->rate_iops_rw));
	if (j->rate_min[BQ_READ] || j->rate_min[BQ_WRITE])
		json_object_object_add(o, "rate_min", pair(j->rate_min));
	if (j->rate_iops_min[BQ_READ] || j->rate_iops_min[BQ_WRITE])
		json_object_object_add(o, "rate_iops_min", pair(j->rate_iops_min));
	if (j->ratecycle_ms != 1000)
		json_object_object_add(o, "ratecycle_ms", json_u64(j->ratecycle_ms));
	if (j->rate_poisson)
		json_object_object_add(o, "rate_process", json_object_new_string("poisson"));
	if (j->rate_ignore_thinktime)
		json_object_object_add(o, "rate_ignore_thinktime", json_object_new_boolean(true));
	if (j->thinktime_spin_ns)
		json_object_object_add(o, "thinktime_spin_ns", json_u64(j->thinktime_spin_ns));
	if (j->thinktime_blocks != 1)
		json_object_object_add(o, "thinktime_blocks", json_u64(j->thinktime_blocks));
	if (j->thinktime_blocks_issue)
		json_object_object_add(o, "thinktime_blocks_type", json_object_new_string("issue"));
	if (j->thinktime_iotime_ns)
		json_object_object_add(o, "thinktime_iotime_ns", json_u64(j->thinktime_iotime_ns));
	if (j->max_latency_ns[BQ_READ] || j->max_latency_ns[BQ_WRITE])
		json_object_object_add(o, "max_latency_ns", pair(j->max_latency_ns));
	if (j->latency_target_ns) {
		json_object_object_add(o, "latency_target_ns", json_u64(j->latency_target_ns));
		json_object_object_add(o, "latency_window_ns", json_u64(j->latency_window_ns));
		json_object_object_add(o, "latency_percentile", json_dbl(j->latency_percentile));
		json_object_object_add(o, "latency_run", json_object_new_boolean(j->latency_run));
	}
	if (j->ss_dur_ns) {
		json_object_object_add(o, "steadystate", json_object_new_string(ss_name(j->ss)));
		json_object_object_add(o, "steadystate_limit", json_dbl(j->ss_limit));
		json_object_object_add(o, "steadystate_pct", json_object_new_boolean(j->ss_pct));
		json_object_object_add(o, "steadystate_duration_ns", json_u64(j->ss_dur_ns));
		json_object_object_add(o, "steadystate_ramp_ns", json_u64(j->ss_ramp_ns));
		json_object_object_add(o, "steadystate_interval_ns", json_u64(j->ss_interval_ns));
	}
	if (!json_object_object_length(o)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static const char *fail_name(int fail)
{
	switch (fail) {
	case BQ_RATE_MIN_FAILED:
		return "rate_min";
	case BQ_RATE_MAX_LATENCY:
		return "max_latency";
	case BQ_RATE_LATENCY_TARGET:
		return "latency_target";
	default:
		return "";
	}
}

json_object *rates_json(const struct bq_job *j, const struct bq_rate_result *r)
{
	json_object *o = json_object_new_object();

	if (j->thinktime_ns)
		json_object_object_add(o, "thinktime_pauses", json_u64(r->think_pauses));
	if (r->fail) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "what", json_object_new_string(fail_name(r->fail)));
		json_object_object_add(f, "dir", json_object_new_string(dir_word[r->fail_dir & 1]));
		json_object_object_add(f, "got", json_u64(r->fail_got));
		json_object_object_add(f, "limit", json_u64(r->fail_limit));
		json_object_object_add(o, "failed", f);
	}
	if (j->latency_target_ns)
		json_object_object_add(o, "latency_target_depth", json_u64(r->lat_depth));
	if (j->ss_dur_ns) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "criterion", json_object_new_string(ss_name(j->ss)));
		json_object_object_add(s, "limit", json_dbl(j->ss_limit));
		json_object_object_add(s, "pct", json_object_new_boolean(j->ss_pct));
		json_object_object_add(s, "duration_ns", json_u64(j->ss_dur_ns));
		json_object_object_add(s, "attained", json_object_new_boolean(r->ss_attained));
		json_object_object_add(s, "samples", json_u64(r->ss_samples));
		json_object_object_add(s, "value", json_dbl(r->ss_criterion));
		json_object_object_add(s, "iops_mean", json_dbl(r->ss_iops_mean));
		json_object_object_add(s, "bw_mean", json_dbl(r->ss_bw_mean));
		json_object_object_add(s, "lat_mean_ns", json_dbl(r->ss_lat_mean));
		json_object_object_add(o, "steadystate", s);
	}
	return o;
}

void rates_print(FILE *out, const struct bq_job_result *jr)
{
	const struct bq_job *j = &jr->job;

	if (!rates_used(j))
		return;
	for (int i = 0; i < jr->nr_threads; i++) {
		const struct bq_rate_result *r = &jr->threads[i].rates;
		char who[32] = "";

		if (jr->nr_threads > 1)
			snprintf(who, sizeof(who), " (thread %d)", i);
		if (j->thinktime_ns)
			fprintf(out, "  thinktime%s: %" PRIu64 " pauses\n", who, r->think_pauses);
		if (j->latency_target_ns)
			fprintf(out, "  latency_target%s: depth %u meets %.3g ms\n", who, r->lat_depth,
				(double)j->latency_target_ns / 1e6);
		if (j->ss_dur_ns)
			fprintf(out, "  steadystate%s: %s (%s %.4g%s, limit %.4g%s)\n", who,
				r->ss_attained ? "attained, the job was ended" : "not attained",
				ss_name(j->ss), r->ss_criterion, ss_unit(j), j->ss_limit, ss_unit(j));
		if (r->fail == BQ_RATE_MIN_FAILED)
			fprintf(out, "  error%s: %s rate_min not met: %" PRIu64 " < %" PRIu64
				" (%s), the job was ended\n", who, dir_word[r->fail_dir & 1],
				r->fail_got, r->fail_limit, j->rate_min[r->fail_dir & 1] ?
				"bytes/s" : "IOPS");
		else if (r->fail)
			fprintf(out, "  error%s: a %s latency of %.3f ms exceeds %s %.3f ms\n", who,
				dir_word[r->fail_dir & 1], (double)r->fail_got / 1e6,
				fail_name(r->fail), (double)r->fail_limit / 1e6);
	}
}

const char *rates_fault(const struct bq_job_result *jr, char *buf, size_t len)
{
	for (int i = 0; i < jr->nr_threads; i++) {
		const struct bq_rate_result *r = &jr->threads[i].rates;
		int d = r->fail_dir & 1;

		if (r->fail == BQ_RATE_MIN_FAILED && jr->job.rate_min[d])
			snprintf(buf, len, "%s rate_min=%" PRIu64 "B/s not met, got %" PRIu64 "B/s",
				 dir_word[d], r->fail_limit, r->fail_got);
		else if (r->fail == BQ_RATE_MIN_FAILED)
			snprintf(buf, len, "%s rate_iops_min=%" PRIu64 " not met, got %" PRIu64 " IOPS",
				 dir_word[d], r->fail_limit, r->fail_got);
		else if (r->fail)
			snprintf(buf, len, "a %s took %.3f ms, over %s=%.3f ms", dir_word[d],
				 (double)r->fail_got / 1e6, fail_name(r->fail),
				 (double)r->fail_limit / 1e6);
		else
			continue;
		return buf;
	}
	return NULL;
}

bool rates_failed(const struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_threads; i++)
		if (jr->threads[i].rates.fail)
			return true;
	return false;
}
