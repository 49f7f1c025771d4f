// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_result_load.c - fio's JSON output in blkqual's result layout
 *
 * Only what compare and report read is carried over; the units are made
 * blkqual's (bytes per second, nanoseconds), and fio's percentile keys
 * ("99.900000") become blkqual's ("99.9").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_job.h"
#include "fio_result_load.h"

bool fio_result_is(json_object *doc)
{
	json_object *v;

	return json_object_is_type(doc, json_type_object) &&
	       json_object_object_get_ex(doc, "fio version", &v) &&
	       json_object_is_type(v, json_type_string);
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* Copy a number of @from under @key to @to under @as, when there is one. */
static void copy_number(json_object *to, const char *as, json_object *from, const char *key)
{
	json_object *v = member(from, key);

	if (!is_number(v))
		return;
	if (json_object_is_type(v, json_type_int))
		json_object_object_add(to, as, json_object_new_int64(json_object_get_int64(v)));
	else
		json_object_object_add(to, as, json_object_new_double(json_object_get_double(v)));
}

static json_object *percentiles(json_object *fio)
{
	json_object *out = json_object_new_object();

	json_object_object_foreach(fio, key, v) {
		char name[32];
		char *end;
		double p = strtod(key, &end);

		if (*end || !is_number(v) || !(p > 0 && p <= 100))
			continue;
		snprintf(name, sizeof(name), "%g", p);
		json_object_object_add(out, name, json_object_new_int64(json_object_get_int64(v)));
	}
	return out;
}

struct fio_bin {
	uint64_t lower;
	uint64_t upper;
	uint64_t count;
};

static int bin_cmp(const void *a, const void *b)
{
	const struct fio_bin *x = a, *y = b;

	return x->lower < y->lower ? -1 : x->lower > y->lower;
}

/*
 * json+'s "bins" as blkqual's histogram buckets, [lower, upper, count] in
 * ns, for report's plot.  fio's histogram is exact below 128 ns, then 64
 * bins per power of two, each keyed by its midpoint: a key of k bits
 * stands for a bin 2^(k-7) wide centred on it.
 */
static json_object *bins_histogram(json_object *bins)
{
	json_object *hist, *arr;
	struct fio_bin *b;
	size_t n = 0;

	if (!json_object_is_type(bins, json_type_object) || !json_object_object_length(bins))
		return NULL;
	b = calloc((size_t)json_object_object_length(bins), sizeof(*b));
	if (!b)
		return NULL;
	json_object_object_foreach(bins, key, v) {
		char *end;
		unsigned long long mid = strtoull(key, &end, 10);
		uint64_t width = 1;

		if (*end || end == key || !is_number(v) || json_object_get_int64(v) <= 0)
			continue;
		if (mid >= 128)
			width = 1ULL << (63 - __builtin_clzll(mid) - 6);
		b[n].lower = mid - width / 2;
		b[n].upper = b[n].lower + width;
		b[n++].count = (uint64_t)json_object_get_int64(v);
	}
	qsort(b, n, sizeof(*b), bin_cmp);
	arr = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *one = json_object_new_array();

		json_object_array_add(one, json_object_new_int64((int64_t)b[i].lower));
		json_object_array_add(one, json_object_new_int64((int64_t)b[i].upper));
		json_object_array_add(one, json_object_new_int64((int64_t)b[i].count));
		json_object_array_add(arr, one);
	}
	free(b);
	hist = json_object_new_object();
	json_object_object_add(hist, "unit", json_object_new_string("ns"));
	json_object_object_add(hist, "buckets", arr);
	return hist;
}

static json_object *latency(json_object *dir)
{
	json_object *lat = member(dir, "lat_ns"), *clat = member(dir, "clat_ns");
	json_object *out = json_object_new_object(), *pct, *hist;

	copy_number(out, "count", lat, "N");
	copy_number(out, "min", lat, "min");
	copy_number(out, "max", lat, "max");
	copy_number(out, "mean", lat, "mean");
	copy_number(out, "stdev", lat, "stddev");
	/* fio keeps the percentiles of the completion latency unless asked for lat_percentiles. */
	pct = member(lat, "percentile");
	json_object_object_add(out, "percentiles_of", json_object_new_string(pct ? "lat" : "clat"));
	if (!pct)
		pct = member(clat, "percentile");
	if (pct)
		json_object_object_add(out, "percentiles", percentiles(pct));
	/* --output-format=json+: the histogram of the latency the percentiles are of. */
	hist = bins_histogram(member(member(dir, member(lat, "percentile") ? "lat_ns" : "clat_ns"),
				     "bins"));
	if (hist)
		json_object_object_add(out, "histogram", hist);
	return out;
}

static json_object *direction(json_object *dir)
{
	json_object *out = json_object_new_object();

	copy_number(out, "ios", dir, "total_ios");
	copy_number(out, "bytes", dir, "io_bytes");
	copy_number(out, "iops", dir, "iops");
	copy_number(out, "bytes_per_second", dir, "bw_bytes");
	json_object_object_add(out, "lat_ns", latency(dir));
	return out;
}

/* fio's CPU shares of the job's runtime, as I/Os per CPU-second. */
static json_object *cpu_usage(json_object *job)
{
	json_object *out = json_object_new_object();
	double usr = json_object_get_double(member(job, "usr_cpu"));
	double sys = json_object_get_double(member(job, "sys_cpu"));
	double ms = json_object_get_double(member(job, "job_runtime"));
	double ios = 0, cpu_s = (usr + sys) / 100 * ms / 1000;
	static const char *const dirs[] = { "read", "write", "trim" };

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		ios += json_object_get_double(member(member(job, dirs[d]), "total_ios"));
	json_object_object_add(out, "usr_ns", json_object_new_int64((int64_t)(usr / 100 * ms * 1e6)));
	json_object_object_add(out, "sys_ns", json_object_new_int64((int64_t)(sys / 100 * ms * 1e6)));
	json_object_object_add(out, "ios_per_cpu_second",
			       json_object_new_double(cpu_s > 0 ? ios / cpu_s : 0));
	return out;
}

/* @key's value among the job's options, else the global ones (fio writes strings). */
static const char *option(json_object *job, json_object *global, const char *key)
{
	json_object *v = member(member(job, "job options"), key);

	if (!v)
		v = member(global, key);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void add_count(json_object *to, const char *as, const char *v)
{
	char *end;
	long long n;

	if (!v)
		return;
	n = strtoll(v, &end, 10);
	if (!*end && end != v && n >= 0)
		json_object_object_add(to, as, json_object_new_int64(n));
}

/* What report shows of a job's options, from fio's "job options" and "global options". */
static json_object *options(json_object *job, json_object *global)
{
	json_object *out = json_object_new_object(), *files = json_object_new_array();
	const char *v = option(job, global, "filename");
	char bs[64], *comma;
	uint64_t n;

	for (const char *p = v; p && *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t len = strcspn(p, ":");

		json_object_array_add(files, json_object_new_string_len(p, (int)len));
	}
	json_object_object_add(out, "filename", files);
	v = option(job, global, "rw") ?: option(job, global, "readwrite");
	json_object_object_add(out, "rw", json_object_new_string(v ? v : "read"));
	add_count(out, "rwmixread", option(job, global, "rwmixread"));
	add_count(out, "iodepth", option(job, global, "iodepth"));
	add_count(out, "numjobs", option(job, global, "numjobs"));
	v = option(job, global, "ioengine");
	if (v)
		json_object_object_add(out, "ioengine", json_object_new_string(v));
	v = option(job, global, "direct");
	json_object_object_add(out, "direct", json_object_new_boolean(v && strcmp(v, "0")));
	v = option(job, global, "bs") ?: option(job, global, "blocksize");
	snprintf(bs, sizeof(bs), "%s", v ? v : "4k");
	comma = strchr(bs, ',');
	if (comma)
		*comma++ = '\0';
	if (!bq_parse_size(bs, &n))
		json_object_object_add(out, "bs_read", json_object_new_int64((int64_t)n));
	if (!bq_parse_size(comma && *comma ? comma : bs, &n))
		json_object_object_add(out, "bs_write", json_object_new_int64((int64_t)n));
	return out;
}

json_object *fio_result_native(json_object *doc)
{
	json_object *jobs = member(doc, "jobs"), *out, *list;
	size_t nr;

	if (!fio_result_is(doc) || !json_object_is_type(jobs, json_type_array))
		return NULL;
	out = json_object_new_object();
	list = json_object_new_array();
	json_object_object_add(out, "schema_version", json_object_new_int(1));
	/* Who made the figures: "fio-3.33", or "blkqual-..." for blkqual's fio layout. */
	json_object_object_add(out, "fio_version",
			       json_object_get(member(doc, "fio version")));
	if (is_number(member(doc, "timestamp_ms")))
		json_object_object_add(out, "start_unix_ns", json_object_new_int64(
			json_object_get_int64(member(doc, "timestamp_ms")) * 1000000));
	nr = json_object_array_length(jobs);
	for (size_t i = 0; i < nr; i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		json_object *o = json_object_new_object(), *total = json_object_new_object();

		json_object_object_add(o, "name", json_object_get(member(job, "jobname")));
		json_object_object_add(o, "options", options(job, member(doc, "global options")));
		json_object_object_add(total, "read", direction(member(job, "read")));
		json_object_object_add(total, "write", direction(member(job, "write")));
		json_object_object_add(total, "trim", direction(member(job, "trim")));
		json_object_object_add(total, "cpu_usage", cpu_usage(job));
		json_object_object_add(o, "total", total);
		json_object_object_add(o, "runtime_ns", json_object_new_int64(
			(int64_t)(json_object_get_double(member(job, "job_runtime")) * 1e6)));
		json_object_array_add(list, o);
	}
	json_object_object_add(out, "jobs", list);
	return out;
}
