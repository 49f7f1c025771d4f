// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_run.c - the report page of a `blkqual run` result (run_report.c's
 * report_json()): per job, what ran, the totals, the interval time series
 * and the latency percentiles and histogram
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_html.h"

static const char *const dirs[] = { "read", "write" };
static const char *const dir_colours[] = { COLOUR_READ, COLOUR_WRITE };

static void fmt_mb(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.4g", v);
}

static void run_summary(FILE *out, json_object *root)
{
	char started[64] = "-", kernel[160] = "-", host[160] = "-";
	const char *s;
	double v;

	if (jnum(root, "start_unix_ns", &v) && v > 0) {
		time_t t = (time_t)(v / 1e9);
		struct tm tm;

		if (gmtime_r(&t, &tm))
			strftime(started, sizeof(started), "%Y-%m-%d %H:%M:%S UTC", &tm);
	}
	if ((s = jstr(root, "host.kernel")))
		snprintf(kernel, sizeof(kernel), "%s", s);
	if ((s = jstr(root, "host.hostname")))
		snprintf(host, sizeof(host), "%s (%s)", s,
			 jstr(root, "host.cpu_model") ? jstr(root, "host.cpu_model") : "-");
	html_table_begin(out, "The run", "field", "value", NULL);
	html_row(out, NULL, "blkqual version", jstr(root, "blkqual_version") ?
		 jstr(root, "blkqual_version") : "-", NULL);
	html_row(out, NULL, "started", started, NULL);
	html_row(out, NULL, "host", host, NULL);
	html_row(out, NULL, "kernel", kernel, NULL);
	if (json_object_get_boolean(jpath(root, "interrupted")))
		html_row(out, "fail", "interrupted", "yes: the numbers cover the time until the "
			 "stop", NULL);
	html_table_end(out);
}

static void job_options(FILE *out, json_object *job)
{
	json_object *o = jpath(job, "options");
	char files[512] = "", bs[64], v[64];
	size_t nf;
	json_object *f = jarr(o, "filename", &nf);
	double r, w;

	for (size_t i = 0; i < nf; i++) {
		const char *s = jstr(f, (snprintf(v, sizeof(v), "%zu", i), v));

		if (s)
			snprintf(files + strlen(files), sizeof(files) - strlen(files), "%s%s",
				 i ? ", " : "", s);
	}
	if (jnum(o, "bs_read", &r) && jnum(o, "bs_write", &w) && r != w)
		snprintf(bs, sizeof(bs), "%g read, %g write", r, w);
	else
		fmt_num(bs, sizeof(bs), o, "bs_read", svg_fmt_plain);
	html_table_begin(out, "What ran", "option", "value", NULL);
	html_row(out, NULL, "filename", *files ? files : "-", NULL);
	html_row(out, NULL, "rw", jstr(o, "rw") ? jstr(o, "rw") : "-", NULL);
	if (jstr(o, "rw") && strstr(jstr(o, "rw"), "rw")) {
		fmt_num(v, sizeof(v), o, "rwmixread", svg_fmt_plain);
		html_row(out, NULL, "rwmixread (%)", v, NULL);
	}
	html_row(out, NULL, "bs (bytes)", bs, NULL);
	fmt_num(v, sizeof(v), o, "iodepth", svg_fmt_plain);
	html_row(out, NULL, "iodepth", v, NULL);
	fmt_num(v, sizeof(v), o, "numjobs", svg_fmt_plain);
	html_row(out, NULL, "numjobs", v, NULL);
	html_row(out, NULL, "ioengine", jstr(o, "ioengine") ? jstr(o, "ioengine") : "-", NULL);
	html_row(out, NULL, "direct", json_object_get_boolean(jpath(o, "direct")) ? "yes" : "no",
		 NULL);
	if (jnum(job, "runtime_ns", &r)) {
		snprintf(v, sizeof(v), "%.2f s", r / 1e9);
		html_row(out, NULL, "runtime", v, NULL);
	}
	html_table_end(out);
}

static void job_totals(FILE *out, json_object *job)
{
	char c[9][32];

	html_table_begin(out, "Totals", "direction", "I/Os", "IOPS", "throughput", "mean latency",
			 "p50", "p99", "p99.9", "max", "errors", NULL);
	for (int d = 0; d < 2; d++) {
		json_object *x = jpath(jpath(job, "total"), dirs[d]), *lat;
		double v;

		if (!x)
			continue;
		lat = jpath(x, "lat_ns");
		fmt_num(c[0], sizeof(c[0]), x, "ios", svg_fmt_si);
		fmt_num(c[1], sizeof(c[1]), x, "iops", svg_fmt_si);
		if (jnum(x, "bytes_per_second", &v))
			fmt_mbps(c[2], sizeof(c[2]), v);
		else
			snprintf(c[2], sizeof(c[2]), "-");
		fmt_num(c[3], sizeof(c[3]), lat, "mean", svg_fmt_ns);
		fmt_num(c[4], sizeof(c[4]), json_object_object_get(jpath(lat, "percentiles"), "50"), "",
			svg_fmt_ns);
		fmt_num(c[5], sizeof(c[5]), json_object_object_get(jpath(lat, "percentiles"), "99"), "",
			svg_fmt_ns);
		fmt_num(c[6], sizeof(c[6]), json_object_object_get(jpath(lat, "percentiles"), "99.9"),
			"", svg_fmt_ns);
		fmt_num(c[7], sizeof(c[7]), lat, "max", svg_fmt_ns);
		fmt_num(c[8], sizeof(c[8]), x, "errors", svg_fmt_plain);
		html_row(out, NULL, dirs[d], c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8],
			 NULL);
	}
	html_table_end(out);
}

/* One interval value per direction: v[d * n + i]; NaN where missing. */
static bool series(json_object *iv, size_t n, const char *key, double scale, double *v,
		   bool *used)
{
	bool any = false;

	for (int d = 0; d < 2; d++) {
		used[d] = false;
		for (size_t i = 0; i < n; i++) {
			char path[64];
			double x;

			snprintf(path, sizeof(path), "%zu.%s.%s", i, dirs[d], key);
			v[d * n + i] = jnum(iv, path, &x) ? x * scale : NAN;
			snprintf(path, sizeof(path), "%zu.%s.ios", i, dirs[d]);
			if (jnum(iv, path, &x) && x > 0)
				used[d] = any = true;
		}
	}
	return any;
}

static void job_timeseries(FILE *out, json_object *job, const char *name)
{
	size_t n, k;
	json_object *iv = jarr(job, "intervals", &n);
	double *t, *v, *lat;
	const char *labels[4], *colours[4];
	bool used[2];
	char title[256];

	if (n < 2) {
		html_note(out, "No time series for job %s: %s.", name, n ? "only one interval "
			  "sample" : "the run was made without --interval (or ended before the "
			  "first sample)");
		return;
	}
	t = calloc(n, sizeof(*t));
	v = calloc(2 * n, sizeof(*v));
	lat = calloc(4 * n, sizeof(*lat));
	if (!t || !v || !lat)
		goto out_free;
	for (size_t i = 0; i < n; i++) {
		char path[32];
		double x;

		snprintf(path, sizeof(path), "%zu.t_ns", i);
		t[i] = jnum(iv, path, &x) ? x / 1e9 : NAN;
	}

	if (!series(iv, n, "iops", 1, v, used)) {
		html_note(out, "The intervals of job %s hold no I/O.", name);
		goto out_free;
	}
	/* Only the directions that did I/O, so a read job shows one line. */
	k = 0;
	for (int d = 0; d < 2; d++) {
		if (!used[d])
			continue;
		memmove(v + k * n, v + d * n, n * sizeof(*v));
		labels[k] = dirs[d];
		colours[k++] = dir_colours[d];
	}
	snprintf(title, sizeof(title), "IOPS over time, job %s", name);
	time_plot(out, title, "I/Os per second", SVG_LINEAR, svg_fmt_si, t, n, labels, colours,
		  v, k);

	series(iv, n, "bytes_per_second", 1e-6, v, used);
	k = 0;
	for (int d = 0; d < 2; d++) {
		if (!used[d])
			continue;
		memmove(v + k * n, v + d * n, n * sizeof(*v));
		k++;
	}
	snprintf(title, sizeof(title), "Throughput over time, job %s", name);
	time_plot(out, title, "MB/s (10^6 bytes per second)", SVG_LINEAR, fmt_mb, t, n, labels,
		  colours, v, k);

	{
		static const char *const lat_labels[] = { "read mean", "read p99", "write mean",
							  "write p99" };
		static const char *const lat_colours[] = { COLOUR_READ, "#6baed6", COLOUR_WRITE,
							   "#fc9272" };
		size_t m = 0;

		for (int d = 0; d < 2; d++) {
			for (int q = 0; q < 2; q++) {
				series(iv, n, q ? "p99_ns" : "mean_ns", 1, v, used);
				if (!used[d])
					continue;
				/* An interval without I/O has no latency, not zero. */
				for (size_t i = 0; i < n; i++)
					lat[m * n + i] = v[d * n + i] > 0 ? v[d * n + i] : NAN;
				labels[m] = lat_labels[d * 2 + q];
				colours[m++] = lat_colours[d * 2 + q];
			}
		}
		snprintf(title, sizeof(title), "Latency over time (mean and p99), job %s", name);
		time_plot(out, title, "latency per interval (log scale)", SVG_LOG, svg_fmt_ns, t, n,
			  labels, colours, lat, m);
	}
out_free:
	free(t);
	free(v);
	free(lat);
}

static void job_latency(FILE *out, json_object *job, const char *name)
{
	struct lat_series s[2];
	size_t n = 0;
	char what[192];

	for (int d = 0; d < 2; d++) {
		char path[32];

		snprintf(path, sizeof(path), "total.%s.lat_ns", dirs[d]);
		if (is_hist(jpath(job, path)))
			s[n++] = (struct lat_series){ dirs[d], dir_colours[d], jpath(job, path) };
	}
	if (!n) {
		html_note(out, "No latency figures for job %s (no I/O completed, or the result "
			  "has no \"total\").", name);
		return;
	}
	snprintf(what, sizeof(what), "job %s", name);
	lat_plots(out, what, s, n);
}

static void job_errors(FILE *out, json_object *job)
{
	size_t n;
	json_object *e = jarr(job, "errors", &n);
	char c[3][64];

	if (!n)
		return;
	html_table_begin(out, "First I/O errors", "direction", "target", "offset", "length",
			 "error", NULL);
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(e, i);

		fmt_num(c[0], sizeof(c[0]), x, "offset", svg_fmt_plain);
		fmt_num(c[1], sizeof(c[1]), x, "length", svg_fmt_plain);
		snprintf(c[2], sizeof(c[2]), "%s", jstr(x, "error") ? jstr(x, "error") : "-");
		html_row(out, "fail", jstr(x, "direction") ? jstr(x, "direction") : "-",
			 jstr(x, "target") ? jstr(x, "target") : "-", c[0], c[1], c[2], NULL);
	}
	html_table_end(out);
}

/**
 * html_run() - the page of a run result
 * @out: where
 * @root: the result
 */
void html_run(FILE *out, json_object *root)
{
	size_t n;
	json_object *jobs = jarr(root, "jobs", &n);

	html_begin(out, "blkqual run");
	run_summary(out, root);
	if (!n)
		html_note(out, "The result holds no jobs.");
	for (size_t k = 0; k < n; k++) {
		json_object *job = json_object_array_get_idx(jobs, k);
		char name[128];

		snprintf(name, sizeof(name), "%s", jstr(job, "name") ? jstr(job, "name") : "?");
		html_heading(out, 2, "Job %s", name);
		if (jstr(job, "note"))
			html_note(out, "%s", jstr(job, "note"));
		job_options(out, job);
		job_totals(out, job);
		job_errors(out, job);
		html_heading(out, 3, "Over time");
		job_timeseries(out, job, name);
		html_heading(out, 3, "Latency");
		job_latency(out, job, name);
		html_block_trace(out, job);
	}
}
