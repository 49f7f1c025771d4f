// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_json.c - --output-format=json and json+: fio 3.33's JSON layout
 *
 * Same keys, nesting, types and units as fio's (latencies in ns, bw in
 * KiB/s, runtime in ms), so scripts written for fio read it unchanged.
 * blkqual times each I/O once, from its submission to its completion:
 * that is clat_ns, and lat_ns as well (no submission latency is
 * measured, so slat_ns has N=0, as fio's has for its sync engines).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fio_output.h"
#include "report_util.h"

static const char *const dir_keys[FIO_NR_DIRS] = { "read", "write", "trim" };

static json_object *lat_stats(const struct bq_hist *h, const struct fio_pcts *pct, bool plus)
{
	json_object *o = json_object_new_object(), *p, *bins;
	char key[40];

	json_object_object_add(o, "min", json_u64(h->count ? h->min : 0));
	json_object_object_add(o, "max", json_u64(h->count ? h->max : 0));
	json_object_object_add(o, "mean", json_dbl(bq_hist_mean(h)));
	json_object_object_add(o, "stddev", json_dbl(bq_hist_stdev(h)));
	json_object_object_add(o, "N", json_u64(h->count));
	if (!pct || !h->count)
		return o;
	p = json_object_new_object();
	for (int i = 0; i < pct->nr; i++) {
		snprintf(key, sizeof(key), "%f", pct->list[i]);
		json_object_object_add(p, key, json_u64(bq_hist_percentile(h, pct->list[i])));
	}
	json_object_object_add(o, "percentile", p);
	if (!plus)
		return o;
	/* fio's bins, each the sum of the two of blkqual's it is made of. */
	bins = json_object_new_object();
	for (unsigned int i = 0, prev = FIO_PLAT_NR; i < BQ_HIST_BUCKETS; i++) {
		uint64_t lower, width, c = h->buckets[i];
		unsigned int idx;
		json_object *have;

		if (!c)
			continue;
		bq_hist_bucket_bounds(i, &lower, &width);
		idx = fio_plat_idx(lower);
		snprintf(key, sizeof(key), "%" PRIu64, fio_plat_val(idx));
		if (idx == prev && json_object_object_get_ex(bins, key, &have))
			c += (uint64_t)json_object_get_int64(have);
		json_object_object_add(bins, key, json_u64(c));
		prev = idx;
	}
	json_object_object_add(o, "bins", bins);
	return o;
}

static json_object *zero_stats(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "min", json_u64(0));
	json_object_object_add(o, "max", json_u64(0));
	json_object_object_add(o, "mean", json_dbl(0));
	json_object_object_add(o, "stddev", json_dbl(0));
	json_object_object_add(o, "N", json_u64(0));
	return o;
}

static json_object *dir_json_fio(const struct fio_entry *e, int d, bool plus)
{
	const struct bq_dir_result *r = fio_dir(e, d);
	uint64_t rt = e->runtime_ns[d];
	double bw_bytes = per_second(r->bytes, rt);
	json_object *o = json_object_new_object();
	struct fio_pcts pct;
	static const char *const zeros_i[] = { "bw_min", "bw_max" };
	static const char *const zeros_f[] = { "bw_agg", "bw_mean", "bw_dev" };

	json_object_object_add(o, "io_bytes", json_u64(r->bytes));
	json_object_object_add(o, "io_kbytes", json_u64(r->bytes >> 10));
	json_object_object_add(o, "bw_bytes", json_u64((uint64_t)bw_bytes));
	json_object_object_add(o, "bw", json_u64((uint64_t)(bw_bytes / 1024)));
	json_object_object_add(o, "iops", json_dbl(per_second(r->ios, rt)));
	json_object_object_add(o, "runtime", json_u64(fio_ms(rt)));
	json_object_object_add(o, "total_ios", json_u64(r->ios));
	/* Reads that met the end of a file; any other short I/O is a failed one. */
	json_object_object_add(o, "short_ios", json_u64(r->short_ios));
	json_object_object_add(o, "drop_ios", json_u64(0));
	json_object_object_add(o, "slat_ns", zero_stats());
	/* One latency is measured: clat_ns and lat_ns show it as each is asked to. */
	fio_pcts_of(&e->jr->job, &pct);
	json_object_object_add(o, "clat_ns", lat_stats(&r->lat, pct.clat ? &pct : NULL, plus));
	json_object_object_add(o, "lat_ns", lat_stats(&r->lat, pct.lat ? &pct : NULL, plus));
	/* fio's periodic bandwidth and IOPS samples: blkqual takes none (N=0). */
	for (size_t i = 0; i < ARRAY_LEN(zeros_i); i++)
		json_object_object_add(o, zeros_i[i], json_u64(0));
	for (size_t i = 0; i < ARRAY_LEN(zeros_f); i++)
		json_object_object_add(o, zeros_f[i], json_dbl(0));
	json_object_object_add(o, "bw_samples", json_u64(0));
	json_object_object_add(o, "iops_min", json_u64(0));
	json_object_object_add(o, "iops_max", json_u64(0));
	json_object_object_add(o, "iops_mean", json_dbl(0));
	json_object_object_add(o, "iops_stddev", json_dbl(0));
	json_object_object_add(o, "iops_samples", json_u64(0));
	return o;
}

/* "key=value" lines from @from on, as an object of strings. */
static json_object *given_json(const char *given, size_t from, size_t to)
{
	json_object *o = json_object_new_object();
	const char *p = given + from, *end = given + to;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq;
		char key[256];

		if (!nl)
			break;
		eq = memchr(p, '=', (size_t)(nl - p));
		if (eq) {
			snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
			json_object_object_add(o, key, json_object_new_string_len(eq + 1,
							(int)(nl - eq - 1)));
		}
		p = nl + 1;
	}
	return o;
}

static json_object *dist_json(const char *const *keys, const double *v, int n)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++)
		json_object_object_add(o, keys[i], json_dbl(v[i]));
	return o;
}

static json_object *entry_json(const struct fio_entry *e, bool plus)
{
	static const char *const submit_keys[FIO_DEPTHS] = { "0", "4", "8", "16", "32", "64",
							     ">=64" };
	const struct bq_job *j = &e->jr->job;
	json_object *o = json_object_new_object(), *sync;
	double n[FIO_LAT_N], u[FIO_LAT_U], m[FIO_LAT_M], depth[FIO_DEPTHS];
	double none[FIO_DEPTHS] = { 0 };
	uint64_t err = e->t->nr_errors ? (uint64_t)e->t->errors[0].err : 0;
	double per_cpu;
	char desc[512];

	json_object_object_add(o, "jobname", json_object_new_string(j->name));
	json_object_object_add(o, "groupid", json_object_new_int(e->jr->groupid));
	json_object_object_add(o, "error", json_u64(err));
	json_object_object_add(o, "eta", json_u64(0));
	json_object_object_add(o, "elapsed", json_u64((e->jr->runtime_ns + 999999999) /
						      1000000000));
	json_object_object_add(o, "job options",
			       given_json(j->fio_given, j->fio_given_own,
					  strnlen(j->fio_given, sizeof(j->fio_given))));
	for (int d = 0; d < FIO_NR_DIRS; d++)
		json_object_object_add(o, dir_keys[d], dir_json_fio(e, d, plus));
	sync = json_object_new_object();
	json_object_object_add(sync, "total_ios", json_u64(e->t->syncs));
	/* blkqual counts the flushes but does not time them: N=0. */
	json_object_object_add(sync, "lat_ns", zero_stats());
	json_object_object_add(o, "sync", sync);
	json_object_object_add(o, "job_runtime", json_u64(fio_ms(e->thread_ns)));
	per_cpu = (double)e->thread_ns;
	json_object_object_add(o, "usr_cpu", json_dbl(per_cpu > 0 ? 100.0 *
						      (double)e->t->usr_ns / per_cpu : 0));
	json_object_object_add(o, "sys_cpu", json_dbl(per_cpu > 0 ? 100.0 *
						      (double)e->t->sys_ns / per_cpu : 0));
	json_object_object_add(o, "ctx", json_u64(e->t->vol_cs + e->t->invol_cs));
	/* Page faults are not counted by blkqual. */
	json_object_object_add(o, "majf", json_u64(0));
	json_object_object_add(o, "minf", json_u64(0));
	fio_depth_dist(e, depth);
	json_object_object_add(o, "iodepth_level", dist_json(fio_depth_keys, depth, FIO_DEPTHS));
	/* How many I/Os each submission and reap took: not counted by blkqual. */
	json_object_object_add(o, "iodepth_submit", dist_json(submit_keys, none, FIO_DEPTHS));
	json_object_object_add(o, "iodepth_complete", dist_json(submit_keys, none, FIO_DEPTHS));
	fio_lat_dist(e, n, u, m);
	json_object_object_add(o, "latency_ns", dist_json(fio_lat_keys, n, FIO_LAT_N));
	json_object_object_add(o, "latency_us", dist_json(fio_lat_keys, u, FIO_LAT_U));
	json_object_object_add(o, "latency_ms", dist_json(fio_lat_keys, m, FIO_LAT_M));
	json_object_object_add(o, "latency_depth", json_u64(e->t->rates.lat_depth ?
							    e->t->rates.lat_depth : j->iodepth));
	json_object_object_add(o, "latency_target", json_u64(j->latency_target_ns / 1000));
	json_object_object_add(o, "latency_percentile", json_dbl(j->latency_percentile));
	json_object_object_add(o, "latency_window", json_u64(j->latency_window_ns / 1000));
	if (fio_given_value(j, "description", desc, sizeof(desc)) && desc[0])
		json_object_object_add(o, "desc", json_object_new_string(desc));
	return o;
}

static json_object *disk_util_json(const struct bq_results *res)
{
	json_object *arr = json_object_new_array();
	struct fio_disk disks[64];
	size_t nr = fio_disks(res, disks, ARRAY_LEN(disks));

	for (size_t i = 0; i < nr; i++) {
		const struct bq_diskstats *d = disks[i].d;
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(disks[i].name));
		json_object_object_add(o, "read_ios", json_u64(d->ios[BQ_READ]));
		json_object_object_add(o, "write_ios", json_u64(d->ios[BQ_WRITE]));
		json_object_object_add(o, "read_merges", json_u64(d->merges[BQ_READ]));
		json_object_object_add(o, "write_merges", json_u64(d->merges[BQ_WRITE]));
		json_object_object_add(o, "read_ticks", json_u64(d->ticks_ms[BQ_READ]));
		json_object_object_add(o, "write_ticks", json_u64(d->ticks_ms[BQ_WRITE]));
		json_object_object_add(o, "in_queue", json_u64(d->time_in_queue_ms));
		json_object_object_add(o, "util", json_dbl(disks[i].util));
		json_object_array_add(arr, o);
	}
	return arr;
}

/**
 * fio_json() - the run as fio's JSON document
 * @r: the run as fio's reports
 * @plus: json+: each clat_ns also has fio's histogram ("bins")
 *
 * Return: the document (json_object_put() it).
 */
json_object *fio_json(const struct fio_report *r, bool plus)
{
	json_object *root = json_object_new_object(), *jobs = json_object_new_array();
	char when[64];
	struct tm tm;

	localtime_r(&r->now.tv_sec, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	json_object_object_add(root, "fio version", json_object_new_string(fio_version()));
	json_object_object_add(root, "timestamp", json_u64((uint64_t)r->now.tv_sec));
	json_object_object_add(root, "timestamp_ms", json_u64((uint64_t)r->now.tv_sec * 1000 +
							      (uint64_t)r->now.tv_nsec / 1000000));
	json_object_object_add(root, "time", json_object_new_string(when));
	if (r->res->nr && r->res->jobs[0].job.fio_given_own) {
		const struct bq_job *j = &r->res->jobs[0].job;

		json_object_object_add(root, "global options",
				       given_json(j->fio_given, 0, j->fio_given_own));
	}
	for (size_t i = 0; i < r->nr; i++)
		json_object_array_add(jobs, entry_json(&r->entries[i], plus));
	json_object_object_add(root, "jobs", jobs);
	json_object_object_add(root, "disk_util", disk_util_json(r->res));
	return root;
}
