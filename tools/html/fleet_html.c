// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_html.c - blkqual fleet --html: one self-contained page with the
 * verdict, the devices, and per group and metric a plot of every device's
 * figure against the group's median, outliers in red
 *
 * Built on the report's page frame and SVG module (report_html.h, svg.h),
 * so it looks like and works offline like a blkqual report page.
 *
 * It must stay readable, and small, at 10,000 devices and more: what is
 * wrong comes first (outliers, failures); a large group's metric is drawn
 * as a histogram with its outliers marked and named, not a dot per
 * device; the per-device tables are folded away, and left out (for the
 * JSON, -o json) past FLEET_HTML_ROWS rows.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "report_html.h"

#define COLOUR_DEVICE COLOUR_READ
#define COLOUR_OUTLIER COLOUR_WRITE
#define COLOUR_MEDIAN "#444444"

/* Past this many devices a metric is a histogram, and its table is left out. */
#define FLEET_HTML_DOTS 200
#define FLEET_HTML_ROWS 1000
#define FLEET_HTML_BINS 40
#define FLEET_HTML_NAMED 20

/* A <details> fold: the table inside stays out of the way until asked for. */
static void fold_begin(FILE *out, const char *summary)
{
	fputs("<details><summary>", out);
	xml_puts(out, summary);
	fputs("</summary>\n", out);
}

static void fold_end(FILE *out)
{
	fputs("</details>\n", out);
}

/* Every device, folded; past FLEET_HTML_ROWS only those with a finding. */
static void device_table(FILE *out, const struct fleet *f)
{
	bool all = f->nr_devs <= FLEET_HTML_ROWS;
	char summary[160];

	snprintf(summary, sizeof(summary), all ? "All %zu devices" :
		 "The devices with an outlier or a failure (%zu devices in all: -o json lists "
		 "every one)", f->nr_devs);
	fold_begin(out, summary);
	html_table_begin(out, "Devices", "device", "model", "firmware", "serial", "result",
			 "verdict", "outlier metrics", "failures", NULL);
	for (size_t d = 0; d < f->nr_devs; d++) {
		const struct fleet_device *dev = &f->devs[d];
		char outl[32], fails[32];

		if (!all && !dev->nr_outliers && !dev->failures.n)
			continue;
		snprintf(outl, sizeof(outl), "%d of %zu", dev->nr_outliers, dev->nr_vals);
		snprintf(fails, sizeof(fails), "%zu", dev->failures.n);
		html_row(out, dev->nr_outliers || dev->failures.n ? "fail" : "pass", dev->id,
			 *dev->model ? dev->model : "-", *dev->firmware ? dev->firmware : "-",
			 *dev->serial ? dev->serial : "-", dev->kind,
			 dev->verdict ? dev->verdict : "-", outl, fails, NULL);
	}
	html_table_end(out);
	fold_end(out);
}

/* Every outlier once, first on the page: what to look at. */
static void outlier_table(FILE *out, const struct fleet *f)
{
	char c[4][48];

	if (!f->nr_outlier_devs)
		return;
	html_heading(out, 2, "Outliers");
	html_table_begin(out, "Every outlier: device, metric, figure against its group",
			 "device", "group", "metric", "value", "median", "from the median",
			 "robust z", "side", NULL);
	for (size_t g = 0; g < f->nr_groups; g++) {
		const struct fleet_group *grp = &f->groups[g];

		for (size_t m = 0; m < grp->nr_metrics; m++) {
			const struct fleet_metric *fm = &grp->metrics[m];

			for (size_t i = 0; i < fm->n; i++) {
				const struct fleet_point *pt = &fm->pts[i];
				char group[160];

				if (!pt->outlier)
					continue;
				snprintf(group, sizeof(group), "%s %s", grp->model, grp->firmware);
				fleet_fmt(c[0], sizeof(c[0]), fm->unit, pt->v);
				fleet_fmt(c[1], sizeof(c[1]), fm->unit, fm->stats.median);
				snprintf(c[2], sizeof(c[2]), "%+.1f%%", 100 * pt->diff);
				if (isinf(pt->z))
					snprintf(c[3], sizeof(c[3]), "%sinf", pt->z < 0 ? "-" : "");
				else
					snprintf(c[3], sizeof(c[3]), "%.1f", pt->z);
				html_row(out, "fail", f->devs[pt->dev].id, group, fm->name, c[0], c[1],
					 isnan(pt->diff) ? "-" : c[2], c[3],
					 pt->worse ? "worse" : "better", NULL);
			}
		}
	}
	html_table_end(out);
}

static void failure_table(FILE *out, const struct fleet *f)
{
	if (!f->nr_failed_devs)
		return;
	html_heading(out, 2, "Failures");
	html_table_begin(out, "What failed, per device", "device", "failure", NULL);
	for (size_t d = 0; d < f->nr_devs; d++)
		for (size_t k = 0; k < f->devs[d].failures.n; k++)
			html_row(out, "fail", f->devs[d].id, f->devs[d].failures.v[k], NULL);
	html_table_end(out);
}

static svg_fmt unit_fmt(enum fleet_unit unit)
{
	return unit == FLEET_NS ? svg_fmt_ns : svg_fmt_si;
}

static const char *unit_label(enum fleet_unit unit)
{
	switch (unit) {
	case FLEET_IOPS:
		return "IOPS";
	case FLEET_BPS:
		return "bytes per second";
	default:
		return "latency";
	}
}

/* Where a device's figure would count as an outlier: the band between is normal. */
static void normal_band(const struct fleet *f, const struct fleet_metric *m, double *lo,
			double *hi)
{
	double by_diff = f->min_diff * fabs(m->stats.median);

	/* An outlier is beyond both: the band is where either holds. */
	*lo = fmin(m->stats.band_lo, m->stats.median - by_diff);
	*hi = fmax(m->stats.band_hi, m->stats.median + by_diff);
}

/*
 * A large group's metric: how many devices fall in each of
 * FLEET_HTML_BINS bins, the median and the band within which a figure is
 * not an outlier, and each outlier as a red dot (the first
 * FLEET_HTML_NAMED named; the outlier table names them all).
 */
static void metric_histogram(FILE *out, const struct fleet *f, const struct fleet_group *g,
			     const struct fleet_metric *m)
{
	double xa[FLEET_HTML_BINS], xb[FLEET_HTML_BINS], y[FLEET_HTML_BINS] = { 0 };
	double width = (m->max - m->min) / FLEET_HTML_BINS, top = 0, lo, hi, mx[2], my[2];
	struct svg_plot p = { 0 };
	char title[512], ylabel[64];
	int named = 0;

	if (!(width > 0))
		width = fabs(m->stats.median) > 0 ? fabs(m->stats.median) / 1000 : 1;
	for (int b = 0; b < FLEET_HTML_BINS; b++) {
		xa[b] = m->min + b * width;
		xb[b] = xa[b] + width;
	}
	for (size_t i = 0; i < m->n; i++) {
		int b = (int)((m->pts[i].v - m->min) / width);

		y[b < 0 ? 0 : b >= FLEET_HTML_BINS ? FLEET_HTML_BINS - 1 : b]++;
	}
	for (int b = 0; b < FLEET_HTML_BINS; b++)
		top = fmax(top, y[b]);
	normal_band(f, m, &lo, &hi);
	snprintf(ylabel, sizeof(ylabel), "devices (of %zu)", m->n);
	svg_axis_init(&p.x, SVG_LINEAR, unit_label(m->unit), unit_fmt(m->unit));
	svg_axis_init(&p.y, SVG_LINEAR, ylabel, svg_fmt_si);
	svg_axis_include(&p.x, m->min);
	svg_axis_include(&p.x, m->max + width);
	svg_axis_include(&p.y, 0);
	svg_axis_include(&p.y, top);
	svg_legend(&p, COLOUR_DEVICE, "devices per bin", true);
	svg_legend(&p, COLOUR_OUTLIER, "outlier", true);
	svg_legend(&p, COLOUR_MEDIAN, "median", false);
	svg_legend(&p, COLOUR_BAND, "not an outlier within", true);
	snprintf(title, sizeof(title), "%s (%s)", m->name, g->model);
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "How many devices had each figure, the group's median "
		       "as a dashed line; red dots are outliers, named.");
	svg_rect(&p, lo, hi, NAN, NAN, COLOUR_BAND, 0.18);
	svg_bars(&p, xa, xb, y, FLEET_HTML_BINS, COLOUR_DEVICE, 0.8);
	mx[0] = mx[1] = m->stats.median;
	my[0] = 0;
	my[1] = top;
	svg_line(&p, mx, my, 2, COLOUR_MEDIAN, "6 4", 1.5);
	for (size_t i = 0; i < m->n; i++) {
		double one = 1;

		if (!m->pts[i].outlier)
			continue;
		svg_markers(&p, &m->pts[i].v, &one, 1, COLOUR_OUTLIER);
		if (named++ < FLEET_HTML_NAMED)
			svg_label(&p, m->pts[i].v, one, f->devs[m->pts[i].dev].id, COLOUR_OUTLIER);
	}
	svg_plot_end(&p);
	html_figure_end(out);
}

/* A small group's metric: one dot per device, named when they fit. */
static void metric_dots(FILE *out, const struct fleet *f, const struct fleet_group *g,
			const struct fleet_metric *m)
{
	struct svg_plot p = { 0 };
	double *x = calloc(m->n + 1, sizeof(double)), *y = calloc(m->n + 1, sizeof(double));
	double lo, hi, mx[2], my[2];
	char title[512], xlabel[64];
	size_t k = 0;
	bool logy;

	if (!x || !y)
		goto out_free;
	normal_band(f, m, &lo, &hi);
	/* Latency spans decades when one device queues; IOPS read better from 0. */
	logy = m->unit == FLEET_NS && m->min > 0 && m->max / m->min > 20;
	snprintf(xlabel, sizeof(xlabel), "device (1 to %zu, named in the table)", m->n);
	svg_axis_init(&p.x, SVG_LINEAR, xlabel, svg_fmt_plain);
	svg_axis_init(&p.y, logy ? SVG_LOG : SVG_LINEAR, unit_label(m->unit), unit_fmt(m->unit));
	svg_axis_include(&p.x, 0.5);
	svg_axis_include(&p.x, (double)m->n + 0.5);
	if (!logy)
		svg_axis_include(&p.y, 0);
	svg_axis_include(&p.y, m->min);
	svg_axis_include(&p.y, m->max);
	svg_legend(&p, COLOUR_DEVICE, "device", true);
	svg_legend(&p, COLOUR_OUTLIER, "outlier", true);
	svg_legend(&p, COLOUR_MEDIAN, "median", false);
	if (g->nr_devs >= FLEET_MIN_JUDGED)
		svg_legend(&p, COLOUR_BAND, "not an outlier within", true);
	snprintf(title, sizeof(title), "%s (%s)", m->name, g->model);
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "Each device's figure as a dot, the group's median as a "
		       "dashed line; red dots are outliers.");
	if (g->nr_devs >= FLEET_MIN_JUDGED)
		svg_rect(&p, NAN, NAN, logy ? fmax(lo, m->min / 10) : lo, hi, COLOUR_BAND, 0.18);
	mx[0] = 0.5;
	mx[1] = (double)m->n + 0.5;
	my[0] = my[1] = m->stats.median;
	svg_line(&p, mx, my, 2, COLOUR_MEDIAN, "6 4", 1.5);
	for (int pass = 0; pass < 2; pass++) {
		k = 0;
		for (size_t i = 0; i < m->n; i++) {
			if (m->pts[i].outlier != (pass == 1))
				continue;
			x[k] = (double)i + 1;
			y[k++] = m->pts[i].v;
		}
		svg_markers(&p, x, y, k, pass ? COLOUR_OUTLIER : COLOUR_DEVICE);
	}
	/* Names where they fit; an outlier is always named. */
	for (size_t i = 0; i < m->n; i++)
		if (m->pts[i].outlier || m->n <= 12)
			svg_label(&p, (double)i + 1, m->pts[i].v, f->devs[m->pts[i].dev].id,
				  m->pts[i].outlier ? COLOUR_OUTLIER : COLOUR_MEDIAN);
	svg_plot_end(&p);
	html_figure_end(out);
out_free:
	free(x);
	free(y);
}

/* The metric's figures as a table, folded; left out for the largest groups. */
static void metric_table(FILE *out, const struct fleet *f, const struct fleet_metric *m)
{
	char title[512], c[3][48];

	fleet_fmt(c[0], sizeof(c[0]), m->unit, m->stats.median);
	fleet_fmt(c[1], sizeof(c[1]), m->unit, m->stats.mad);
	snprintf(title, sizeof(title), "%s: median %s, MAD %s", m->name, c[0], c[1]);
	if (m->n > FLEET_HTML_ROWS) {
		html_note(out, "%s.  The figures of its %zu devices are in the JSON output "
			  "(blkqual fleet -o json).", title, m->n);
		return;
	}
	fold_begin(out, title);
	html_table_begin(out, title, "#", "device", "value", "from the median", "robust z",
			 "outlier", NULL);
	for (size_t i = 0; i < m->n; i++) {
		const struct fleet_point *pt = &m->pts[i];
		char num[24];

		snprintf(num, sizeof(num), "%zu", i + 1);
		fleet_fmt(c[0], sizeof(c[0]), m->unit, pt->v);
		if (isnan(pt->diff))
			snprintf(c[1], sizeof(c[1]), "-");
		else
			snprintf(c[1], sizeof(c[1]), "%+.1f%%", 100 * pt->diff);
		if (isinf(pt->z))
			snprintf(c[2], sizeof(c[2]), "%sinf (MAD 0)", pt->z < 0 ? "-" : "");
		else
			snprintf(c[2], sizeof(c[2]), "%.2f", pt->z);
		html_row(out, pt->outlier ? "fail" : NULL, num, f->devs[pt->dev].id, c[0], c[1],
			 c[2], pt->outlier ? (pt->worse ? "yes, worse" : "yes, better") : "no",
			 NULL);
	}
	html_table_end(out);
	fold_end(out);
}

int fleet_html(FILE *out, const struct fleet *f)
{
	bool found = f->nr_outlier_devs || f->nr_failed_devs || f->nr_other_job_devs;
	char title[256];

	snprintf(title, sizeof(title), "blkqual fleet: %zu devices on %zu hosts", f->nr_devs,
		 f->nr_hosts);
	html_begin(out, title);
	fprintf(out, "<p><span class=\"verdict %s\">%s</span></p>\n", found ? "fail" : "pass",
		f->nr_outlier_devs && f->nr_failed_devs ? "outliers and failures" :
		f->nr_outlier_devs ? "outliers found" : f->nr_failed_devs ? "failures" :
		f->nr_other_job_devs ? "results from another job" : "no outliers, no failures");
	fprintf(out, "<p>%zu outlier device%s, %zu failed device%s.  A figure is an outlier when "
		"its robust z-score, 0.6745 (ln x - median) / MAD of the logarithms within its "
		"group (same model and firmware), is beyond the group's threshold, Bonferroni's "
		"for its values at "
		"alpha %g and at least %g, and it is at least %g%% from the median; chance alone "
		"would give about %.2g outliers in all.  Groups of fewer than %d devices are "
		"shown but not judged.</p>\n", f->nr_outlier_devs,
		f->nr_outlier_devs == 1 ? "" : "s", f->nr_failed_devs,
		f->nr_failed_devs == 1 ? "" : "s", f->alpha, f->threshold, 100 * f->min_diff,
		f->chance, FLEET_MIN_JUDGED);
	if (f->nr_other_job_devs)
		html_note(out, "%zu result%s from another job than most devices ran: %s set "
			  "aside, not compared (the list is in blkqual fleet's text and JSON).",
			  f->nr_other_job_devs, f->nr_other_job_devs == 1 ? " is" : "s are",
			  f->nr_other_job_devs == 1 ? "its figures are" : "their figures are");
	outlier_table(out, f);
	failure_table(out, f);
	device_table(out, f);
	for (size_t g = 0; g < f->nr_groups; g++) {
		const struct fleet_group *grp = &f->groups[g];

		html_heading(out, 2, "Model %s, firmware %s: %zu device%s on %zu host%s%s",
			     grp->model, *grp->firmware ? grp->firmware : "(none)", grp->nr_devs,
			     grp->nr_devs == 1 ? "" : "s", grp->nr_hosts,
			     grp->nr_hosts == 1 ? "" : "s",
			     grp->nr_devs >= FLEET_MIN_JUDGED ? "" : " (not judged)");
		if (grp->nr_devs < FLEET_MIN_JUDGED)
			html_note(out, "Fewer than %d devices: no majority to compare with, so no "
				  "outlier is judged.", FLEET_MIN_JUDGED);
		if (!grp->nr_metrics)
			html_note(out, "No figures in these results.");
		for (size_t m = 0; m < grp->nr_metrics; m++) {
			if (grp->metrics[m].n > FLEET_HTML_DOTS)
				metric_histogram(out, f, grp, &grp->metrics[m]);
			else
				metric_dots(out, f, grp, &grp->metrics[m]);
			metric_table(out, f, &grp->metrics[m]);
		}
	}
	fputs("<footer>Made by blkqual " BLKQUAL_VERSION " (blkqual fleet) from ", out);
	xml_puts(out, f->source);
	fputs(".</footer>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
