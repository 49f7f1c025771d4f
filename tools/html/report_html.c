// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_html.c - the HTML report's page frame, tables and notes, looking
 * into result JSON, and the latency and time-series plots all results share
 *
 * Results come from files a user hands us, possibly from another version
 * or cut short: every lookup here tolerates a missing or mistyped value,
 * and what cannot be drawn is said in a note instead.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

const char *const report_palette[] = {
	COLOUR_READ, COLOUR_WRITE, "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
	"#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#ad494a",
};
const size_t report_palette_len = sizeof(report_palette) / sizeof(report_palette[0]);

/* Kept free of '<' and '&' so the page stays well-formed XML. */
static const char style[] =
	"body{font-family:sans-serif;color:#222222;max-width:1120px;margin:0 auto;"
	"padding:16px 24px;line-height:1.4}\n"
	"h1{font-size:1.6em;margin:0.4em 0}h2{font-size:1.3em;margin-top:1.6em;"
	"border-bottom:2px solid #cccccc}h3{font-size:1.1em;margin-top:1.2em}\n"
	"table{border-collapse:collapse;margin:8px 0 16px 0;font-size:0.9em}\n"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	"th,td{border:1px solid #cccccc;padding:3px 8px;text-align:left;vertical-align:top}\n"
	"td{font-variant-numeric:tabular-nums;overflow-wrap:anywhere}\n"
	"thead th{background:#eeeeee}\n"
	"tr.pass td,tr.pass th{background:#dff3df}tr.fail td,tr.fail th{background:#f9dcdc}\n"
	"tr.incomplete td,tr.incomplete th{background:#fdf0cc}\n"
	".verdict{display:inline-block;padding:6px 18px;border-radius:6px;font-size:1.3em;"
	"font-weight:bold;color:#ffffff}\n"
	".verdict.pass{background:#1e7b34}.verdict.fail{background:#b3261e}"
	".verdict.incomplete{background:#9a6700}\n"
	".note{color:#6b4e00;background:#fff8e1;border-left:4px solid #f2b705;"
	"padding:4px 10px}\n"
	"figure{margin:16px 0 24px 0}svg.plot{max-width:100%;height:auto;"
	"border:1px solid #dddddd}\n"
	"pre{background:#f6f6f6;padding:8px;overflow-x:auto}\n"
	"footer{margin-top:32px;color:#777777;font-size:0.85em}\n";

/* ---- looking into the result ------------------------------------------- */

json_object *jpath(json_object *o, const char *path)
{
	char seg[128];

	while (o && path && *path) {
		size_t len = strcspn(path, ".");

		if (len >= sizeof(seg))
			return NULL;
		memcpy(seg, path, len);
		seg[len] = '\0';
		path += len + (path[len] == '.');
		if (json_object_is_type(o, json_type_object)) {
			if (!json_object_object_get_ex(o, seg, &o))
				return NULL;
		} else if (json_object_is_type(o, json_type_array)) {
			char *end;
			unsigned long i = strtoul(seg, &end, 10);

			if (*end || end == seg || i >= json_object_array_length(o))
				return NULL;
			o = json_object_array_get_idx(o, i);
		} else {
			return NULL;
		}
	}
	return o;
}

bool jnum(json_object *o, const char *path, double *v)
{
	json_object *x = jpath(o, path);
	double d;

	if (!x || !(json_object_is_type(x, json_type_int) ||
		    json_object_is_type(x, json_type_double)))
		return false;
	d = json_object_get_double(x);
	if (!isfinite(d))
		return false;
	*v = d;
	return true;
}

const char *jstr(json_object *o, const char *path)
{
	json_object *x = jpath(o, path);

	return json_object_is_type(x, json_type_string) ? json_object_get_string(x) : NULL;
}

json_object *jarr(json_object *o, const char *path, size_t *n)
{
	json_object *x = jpath(o, path);

	if (!json_object_is_type(x, json_type_array)) {
		*n = 0;
		return NULL;
	}
	*n = json_object_array_length(x);
	return x;
}

bool is_hist(json_object *o)
{
	return json_object_is_type(o, json_type_object) &&
	       json_object_is_type(jpath(o, "percentiles"), json_type_object);
}

/* ---- page -------------------------------------------------------------- */

static void vputs_escaped(FILE *out, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	xml_puts(out, buf);
}

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>", out);
	xml_puts(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	xml_puts(out, title);
	fputs("</h1>\n", out);
}

void html_end(FILE *out, const char *source)
{
	fputs("<footer>Made by blkqual " BLKQUAL_VERSION " (blkqual report) from ", out);
	xml_puts(out, source);
	fputs(".</footer>\n</body>\n</html>\n", out);
}

void html_heading(FILE *out, int level, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "<h%d>", level);
	va_start(ap, fmt);
	vputs_escaped(out, fmt, ap);
	va_end(ap);
	fprintf(out, "</h%d>\n", level);
}

void html_note(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fputs("<p class=\"note\">", out);
	va_start(ap, fmt);
	vputs_escaped(out, fmt, ap);
	va_end(ap);
	fputs("</p>\n", out);
}

void html_table_begin(FILE *out, const char *caption, ...)
{
	const char *h;
	va_list ap;

	fputs("<table>\n<caption>", out);
	xml_puts(out, caption);
	fputs("</caption>\n<thead><tr>", out);
	va_start(ap, caption);
	while ((h = va_arg(ap, const char *))) {
		fputs("<th scope=\"col\">", out);
		xml_puts(out, h);
		fputs("</th>", out);
	}
	va_end(ap);
	fputs("</tr></thead>\n<tbody>\n", out);
}

void html_row(FILE *out, const char *cls, ...)
{
	const char *c;
	bool first = true;
	va_list ap;

	if (cls)
		fprintf(out, "<tr class=\"%s\">", cls);
	else
		fputs("<tr>", out);
	va_start(ap, cls);
	while ((c = va_arg(ap, const char *))) {
		fputs(first ? "<th scope=\"row\">" : "<td>", out);
		xml_puts(out, c);
		fputs(first ? "</th>" : "</td>", out);
		first = false;
	}
	va_end(ap);
	fputs("</tr>\n", out);
}

void html_table_end(FILE *out)
{
	fputs("</tbody>\n</table>\n", out);
}

void html_figure_begin(FILE *out)
{
	fputs("<figure>\n", out);
}

void html_figure_end(FILE *out)
{
	fputs("</figure>\n", out);
}

static bool skipped(const char *key, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (!strcmp(key, *skip))
			return true;
	return false;
}

static bool is_scalar(json_object *v)
{
	return !v || json_object_is_type(v, json_type_string) ||
	       json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double) ||
	       json_object_is_type(v, json_type_boolean);
}

static void scalar_text(char *buf, size_t len, json_object *v)
{
	if (!v)
		snprintf(buf, len, "(none)");
	else if (json_object_is_type(v, json_type_double))
		snprintf(buf, len, "%.6g", json_object_get_double(v));
	else
		snprintf(buf, len, "%s", json_object_get_string(v));
}

void html_scalars(FILE *out, const char *caption, json_object *o, const char *const *skip)
{
	char val[2048], key[160];

	if (!json_object_is_type(o, json_type_object))
		return;
	html_table_begin(out, caption, "field", "value", NULL);
	json_object_object_foreach(o, k, v) {
		if (skipped(k, skip))
			continue;
		if (is_scalar(v)) {
			scalar_text(val, sizeof(val), v);
			html_row(out, NULL, k, val, NULL);
			continue;
		}
		if (!json_object_is_type(v, json_type_object))
			continue;
		json_object_object_foreach(v, k2, v2) {
			if (!is_scalar(v2))
				continue;
			snprintf(key, sizeof(key), "%s.%s", k, k2);
			scalar_text(val, sizeof(val), v2);
			html_row(out, NULL, key, val, NULL);
		}
	}
	html_table_end(out);
}

/* ---- numbers as text --------------------------------------------------- */

void fmt_num(char *buf, size_t len, json_object *o, const char *path, svg_fmt fmt)
{
	double v;

	if (jnum(o, path, &v))
		fmt(buf, len, v);
	else
		snprintf(buf, len, "-");
}

void fmt_mbps(char *buf, size_t len, double bytes_per_second)
{
	snprintf(buf, len, "%.1f MB/s", bytes_per_second / 1e6);
}

void fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int i = 0;

	while (bytes >= 1024 && i < 5) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%.4g %s", bytes, unit[i]);
}

/* ---- latency ----------------------------------------------------------- */

struct pct_point {
	double p;
	double ns;
};

static int pct_cmp(const void *a, const void *b)
{
	double x = ((const struct pct_point *)a)->p, y = ((const struct pct_point *)b)->p;

	return x < y ? -1 : x > y;
}

/* The "percentiles" object as sorted points; returns how many. */
static size_t pct_points(json_object *hist, struct pct_point *pt, size_t max)
{
	json_object *pct = jpath(hist, "percentiles");
	size_t n = 0;

	if (!json_object_is_type(pct, json_type_object))
		return 0;
	json_object_object_foreach(pct, k, v) {
		char *end;
		double p = strtod(k, &end);
		double ns;

		if (*end || !(p >= 0 && p < 100) || n == max)
			continue;
		if (!(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
			continue;
		ns = json_object_get_double(v);
		if (!isfinite(ns))
			continue;
		pt[n++] = (struct pct_point){ p, ns };
	}
	qsort(pt, n, sizeof(*pt), pct_cmp);
	return n;
}

#define MAX_PCT 64

static void percentile_plot(FILE *out, const char *what, const struct lat_series *s, size_t n)
{
	static const char *const keys[] = { "50", "90", "99", "99.9", "99.99" };
	struct pct_point pt[MAX_PCT];
	double x[MAX_PCT], y[MAX_PCT];
	struct svg_plot p = { 0 };
	char title[256], cell[9][32];
	bool any = false;

	svg_axis_init(&p.x, SVG_NINES, "percentile (nines scale: each step is ten times rarer)",
		      svg_fmt_pct);
	svg_axis_init(&p.y, SVG_LOG, "latency (log scale)", svg_fmt_ns);
	for (size_t i = 0; i < n; i++) {
		size_t k = pct_points(s[i].hist, pt, MAX_PCT);

		for (size_t j = 0; j < k; j++) {
			svg_axis_include(&p.x, pt[j].p);
			svg_axis_include(&p.y, pt[j].ns);
		}
		if (k) {
			svg_legend(&p, s[i].colour, s[i].label, false);
			any = true;
		}
	}
	if (!any) {
		html_note(out, "No latency percentiles for %s.", what);
		return;
	}
	snprintf(title, sizeof(title), "Latency percentiles, %s", what);
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "Latency at each percentile: how slow the slowest "
		       "1 in 100, 1 in 1000, ... I/Os were.");
	for (size_t i = 0; i < n; i++) {
		size_t k = pct_points(s[i].hist, pt, MAX_PCT);

		for (size_t j = 0; j < k; j++) {
			x[j] = pt[j].p;
			y[j] = pt[j].ns;
		}
		svg_line(&p, x, y, k, s[i].colour, NULL, 2);
		svg_markers(&p, x, y, k, s[i].colour);
	}
	svg_plot_end(&p);
	html_table_begin(out, "Latency, key numbers", "series", "I/Os", "min", "mean", "p50",
			 "p90", "p99", "p99.9", "p99.99", "max", NULL);
	for (size_t i = 0; i < n; i++) {
		json_object *pct = jpath(s[i].hist, "percentiles");

		if (!is_hist(s[i].hist))
			continue;
		fmt_num(cell[0], sizeof(cell[0]), s[i].hist, "count", svg_fmt_si);
		fmt_num(cell[1], sizeof(cell[1]), s[i].hist, "min", svg_fmt_ns);
		fmt_num(cell[2], sizeof(cell[2]), s[i].hist, "mean", svg_fmt_ns);
		/* jpath() splits at dots, and "99.9" is one key. */
		for (size_t j = 0; j < 5; j++)
			fmt_num(cell[3 + j], sizeof(cell[3 + j]), json_object_object_get(pct, keys[j]),
				"", svg_fmt_ns);
		fmt_num(cell[8], sizeof(cell[8]), s[i].hist, "max", svg_fmt_ns);
		html_row(out, NULL, s[i].label, cell[0], cell[1], cell[2], cell[3], cell[4], cell[5],
			 cell[6], cell[7], cell[8], NULL);
	}
	html_table_end(out);
	html_figure_end(out);
}

/* Bucket [lower, upper, count] number @j of a histogram; false if malformed. */
static bool bucket(json_object *b, size_t j, double *lo, double *hi, double *count)
{
	json_object *e = json_object_array_get_idx(b, j);

	if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) < 3)
		return false;
	if (!jnum(e, "0", lo) || !jnum(e, "1", hi) || !jnum(e, "2", count))
		return false;
	return *lo > 0 && *hi > *lo && *count > 0;
}

/* The outline of the bars: along each top, down to the floor at each gap. */
static void histogram_outline(struct svg_plot *p, const double *xa, const double *xb,
			      const double *y, size_t k, const char *colour)
{
	double *px = calloc(4 * k + 1, sizeof(double)), *py = calloc(4 * k + 1, sizeof(double));
	double floor = p->y.min;
	size_t m = 0;

	if (!px || !py)
		goto out_free;
	for (size_t j = 0; j < k; j++) {
		if (!j || xa[j] > xb[j - 1]) {
			if (j) {
				px[m] = xb[j - 1];
				py[m++] = floor;
			}
			px[m] = xa[j];
			py[m++] = floor;
		}
		px[m] = xa[j];
		py[m++] = y[j];
		px[m] = xb[j];
		py[m++] = y[j];
	}
	if (k) {
		px[m] = xb[k - 1];
		py[m++] = floor;
	}
	svg_line(p, px, py, m, colour, NULL, 1.5);
out_free:
	free(px);
	free(py);
}

static void histogram_plot(FILE *out, const char *what, const struct lat_series *s, size_t n)
{
	struct svg_plot p = { 0 };
	char title[256], c[6][48];
	size_t with = 0;

	svg_axis_init(&p.x, SVG_LOG, "latency (log scale)", svg_fmt_ns);
	svg_axis_init(&p.y, SVG_LOG, "I/Os in the bucket (log scale)", svg_fmt_si);
	for (size_t i = 0; i < n; i++) {
		size_t nb;
		json_object *b = jarr(s[i].hist, "histogram.buckets", &nb);
		double lo, hi, cnt;
		bool any = false;

		for (size_t j = 0; j < nb; j++) {
			if (!bucket(b, j, &lo, &hi, &cnt))
				continue;
			svg_axis_include(&p.x, lo);
			svg_axis_include(&p.x, hi);
			svg_axis_include(&p.y, cnt);
			any = true;
		}
		if (any) {
			svg_legend(&p, s[i].colour, s[i].label, n <= 2);
			with++;
		}
	}
	if (!with) {
		html_note(out, "No latency histogram for %s: the result has percentiles only "
			  "(fio's JSON without json+'s bins, or a blkqual result without "
			  "\"histogram\" in its latency objects).", what);
		return;
	}
	/* Counts of one must still show as a bar above the frame. */
	svg_axis_include(&p.y, 0.5);
	snprintf(title, sizeof(title), "Latency histogram, %s", what);
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "How many I/Os took each latency; both axes are "
		       "logarithmic so rare slow I/Os stay visible.");
	for (size_t i = 0; i < n; i++) {
		size_t nb, k = 0;
		json_object *b = jarr(s[i].hist, "histogram.buckets", &nb);
		double *xa = calloc(nb + 1, sizeof(double)), *xb = calloc(nb + 1, sizeof(double));
		double *y = calloc(nb + 1, sizeof(double));

		if (xa && xb && y)
			for (size_t j = 0; j < nb; j++)
				if (bucket(b, j, &xa[k], &xb[k], &y[k]))
					k++;
		/* Two filled series still read; more would only be a blur. */
		if (with <= 2)
			svg_bars(&p, xa, xb, y, k, s[i].colour, with > 1 ? 0.55 : 0.85);
		else
			histogram_outline(&p, xa, xb, y, k, s[i].colour);
		free(xa);
		free(xb);
		free(y);
	}
	svg_plot_end(&p);
	html_table_begin(out, "Histogram, key numbers", "series", "bars", "I/Os",
			 "most common latency", "its share", "slowest bucket", NULL);
	for (size_t i = 0; i < n; i++) {
		size_t nb, bars = 0;
		json_object *b = jarr(s[i].hist, "histogram.buckets", &nb);
		double lo, hi, cnt, total = 0, best = 0, blo = 0, bhi = 0, slo = 0, shi = 0;

		for (size_t j = 0; j < nb; j++) {
			if (!bucket(b, j, &lo, &hi, &cnt))
				continue;
			bars++;
			total += cnt;
			if (cnt > best) {
				best = cnt;
				blo = lo;
				bhi = hi;
			}
			slo = lo;
			shi = hi;
		}
		if (!bars)
			continue;
		snprintf(c[0], sizeof(c[0]), "%zu", bars);
		svg_fmt_si(c[1], sizeof(c[1]), total);
		svg_fmt_ns(c[2], sizeof(c[2]), blo);
		svg_fmt_ns(c[5], sizeof(c[5]), bhi);
		snprintf(c[2] + strlen(c[2]), sizeof(c[2]) - strlen(c[2]), " to %s", c[5]);
		snprintf(c[3], sizeof(c[3]), "%.1f%%", 100 * best / total);
		svg_fmt_ns(c[4], sizeof(c[4]), slo);
		svg_fmt_ns(c[5], sizeof(c[5]), shi);
		snprintf(c[4] + strlen(c[4]), sizeof(c[4]) - strlen(c[4]), " to %s", c[5]);
		html_row(out, NULL, s[i].label, c[0], c[1], c[2], c[3], c[4], NULL);
	}
	html_table_end(out);
	html_figure_end(out);
}

void lat_plots(FILE *out, const char *what, const struct lat_series *s, size_t n)
{
	if (n > SVG_MAX_LEGEND)
		n = SVG_MAX_LEGEND;
	percentile_plot(out, what, s, n);
	histogram_plot(out, what, s, n);
}

/* ---- time series ------------------------------------------------------- */

void time_plot(FILE *out, const char *title, const char *ylabel, enum svg_scale scale,
	       svg_fmt fmt, const double *t, size_t n, const char *const *labels,
	       const char *const *colours, const double *v, size_t nr_series)
{
	struct svg_plot p = { 0 };
	char c[3][32];

	svg_axis_init(&p.x, SVG_LINEAR, "time since the start (s)", svg_fmt_plain);
	svg_axis_init(&p.y, scale, ylabel, fmt);
	svg_axis_include(&p.x, 0);
	if (scale == SVG_LINEAR)
		svg_axis_include(&p.y, 0);
	for (size_t i = 0; i < n; i++) {
		svg_axis_include(&p.x, t[i]);
		for (size_t s = 0; s < nr_series; s++)
			svg_axis_include(&p.y, v[s * n + i]);
	}
	for (size_t s = 0; s < nr_series && s < SVG_MAX_LEGEND; s++)
		svg_legend(&p, colours[s], labels[s], false);
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "How the value changed over the run, one point per "
		       "sampling interval.");
	for (size_t s = 0; s < nr_series && s < SVG_MAX_LEGEND; s++) {
		svg_line(&p, t, v + s * n, n, colours[s], NULL, 2);
		if (n <= 60)
			svg_markers(&p, t, v + s * n, n, colours[s]);
	}
	svg_plot_end(&p);
	html_table_begin(out, "Over the intervals", "series", "min", "mean", "max", NULL);
	for (size_t s = 0; s < nr_series && s < SVG_MAX_LEGEND; s++) {
		double lo = INFINITY, hi = -INFINITY, sum = 0;
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			double x = v[s * n + i];

			if (!isfinite(x))
				continue;
			lo = fmin(lo, x);
			hi = fmax(hi, x);
			sum += x;
			k++;
		}
		if (!k) {
			html_row(out, NULL, labels[s], "-", "-", "-", NULL);
			continue;
		}
		fmt(c[0], sizeof(c[0]), lo);
		fmt(c[1], sizeof(c[1]), sum / (double)k);
		fmt(c[2], sizeof(c[2]), hi);
		html_row(out, NULL, labels[s], c[0], c[1], c[2], NULL);
	}
	html_table_end(out);
	html_figure_end(out);
}
