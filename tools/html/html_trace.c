// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_trace.c - a run's --trace=block on its report page: per traced
 * device and direction, the stages stacked at each percentile (queued,
 * then in the device) beside the job's own latency at that percentile
 */
#include <math.h>
#include <stdio.h>

#include "report_html.h"

#define COLOUR_QUEUE "#9ecae1"
#define COLOUR_DEVICE "#3182bd"
#define COLOUR_TESTER "#e6550d"

static const char *const pct_keys[] = { "50", "90", "99", "99.9" };
#define NR_PCT (sizeof(pct_keys) / sizeof(pct_keys[0]))

/* The horizontal axis counts the bars: 1 is p50, 2 p90 and so on. */
static void fmt_pct_bar(char *buf, size_t len, double v)
{
	long i = lround(v);

	if (fabs(v - (double)i) > 1e-6 || i < 1 || i > (long)NR_PCT)
		snprintf(buf, len, " ");
	else
		snprintf(buf, len, "p%s", pct_keys[i - 1]);
}

static double pct_of(json_object *hist, const char *key)
{
	json_object *p = jpath(hist, "percentiles");
	json_object *v = p ? json_object_object_get(p, key) : NULL;

	return v ? json_object_get_double(v) : NAN;
}

static void stage_chart(FILE *out, json_object *dev, json_object *job, const char *dir)
{
	char path[64], title[192], c[3][32];
	json_object *queue, *device, *total;
	struct svg_plot p = { 0 };
	double q[NR_PCT], d[NR_PCT], t[NR_PCT], x[NR_PCT];
	bool member = jstr(dev, "member_of") != NULL;

	snprintf(path, sizeof(path), "stages.%s.queue", dir);
	queue = jpath(dev, path);
	snprintf(path, sizeof(path), "stages.%s.device", dir);
	device = jpath(dev, path);
	if (!is_hist(device))
		return;
	snprintf(path, sizeof(path), "total.%s.lat_ns", dir);
	total = member ? NULL : jpath(job, path);
	svg_axis_init(&p.x, SVG_LINEAR, "percentile", fmt_pct_bar);
	svg_axis_init(&p.y, SVG_LINEAR, "latency", svg_fmt_ns);
	svg_axis_include(&p.x, 0.5);
	svg_axis_include(&p.x, NR_PCT + 0.5);
	svg_axis_include(&p.y, 0);
	for (size_t i = 0; i < NR_PCT; i++) {
		x[i] = (double)i + 1;
		q[i] = is_hist(queue) ? pct_of(queue, pct_keys[i]) : 0;
		d[i] = pct_of(device, pct_keys[i]);
		t[i] = is_hist(total) ? pct_of(total, pct_keys[i]) : NAN;
		svg_axis_include(&p.y, q[i] + d[i]);
		svg_axis_include(&p.y, t[i]);
	}
	svg_legend(&p, COLOUR_QUEUE, "queued", true);
	svg_legend(&p, COLOUR_DEVICE, "in the device", true);
	if (total)
		svg_legend(&p, COLOUR_TESTER, "the job's latency", false);
	snprintf(title, sizeof(title), "Where the time went: %s %s%s%s", jstr(dev, "device"), dir,
		 member ? ", member of " : "", member ? jstr(dev, "member_of") : "");
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "At each percentile, the time requests spent queued, "
		       "stacked under the time they spent in the device, beside the job's own "
		       "latency at that percentile.");
	for (size_t i = 0; i < NR_PCT; i++) {
		svg_rect(&p, x[i] - 0.3, x[i] + 0.3, 0, q[i], COLOUR_QUEUE, 0.9);
		svg_rect(&p, x[i] - 0.3, x[i] + 0.3, q[i], q[i] + d[i], COLOUR_DEVICE, 0.9);
	}
	if (total)
		svg_markers(&p, x, t, NR_PCT, COLOUR_TESTER);
	svg_plot_end(&p);
	html_table_begin(out, "The stages at each percentile", "percentile", "queued",
			 "in the device", "the job's latency", NULL);
	for (size_t i = 0; i < NR_PCT; i++) {
		char pct[16];

		snprintf(pct, sizeof(pct), "p%s", pct_keys[i]);
		svg_fmt_ns(c[0], sizeof(c[0]), q[i]);
		svg_fmt_ns(c[1], sizeof(c[1]), d[i]);
		if (isfinite(t[i]))
			svg_fmt_ns(c[2], sizeof(c[2]), t[i]);
		else
			snprintf(c[2], sizeof(c[2]), "-");
		html_row(out, NULL, pct, c[0], c[1], c[2], NULL);
	}
	html_table_end(out);
	html_figure_end(out);
}

/**
 * html_block_trace() - a job's block_trace, if it has one
 * @out: where
 * @job: the job's result
 */
void html_block_trace(FILE *out, json_object *job)
{
	size_t n;
	json_object *devs = jarr(job, "block_trace.devices", &n);
	double v;
	char c[2][32];

	if (!n)
		return;
	html_heading(out, 3, "Where the time went (--trace=block)");
	for (size_t i = 0; i < n; i++) {
		json_object *dev = json_object_array_get_idx(devs, i);

		stage_chart(out, dev, job, "read");
		stage_chart(out, dev, job, "write");
	}
	if (jnum(job, "block_trace.completions.on_submitter_cpu_pct", &v)) {
		snprintf(c[0], sizeof(c[0]), "%.1f%%", v);
		snprintf(c[1], sizeof(c[1]), "%.1f%%",
			 jnum(job, "block_trace.completions.on_submitter_node_pct", &v) ? v : 0);
		html_table_begin(out, "Where completions ran", "on the submitting CPU",
				 "on its NUMA node", NULL);
		html_row(out, NULL, c[0], c[1], NULL);
		html_table_end(out);
	}
}
