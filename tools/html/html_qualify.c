// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_qualify.c - the report page of a `blkqual qualify` result: the
 * verdict and its criteria first, then what was tested and how, then per
 * step the steady-state convergence of each direction, the IOPS matrix as
 * a table and a heat map, throughput bars, latency curves, and every
 * cell's figures
 *
 * Steady-state windows name rounds as the "round" members of "rounds" do:
 * 1-based.  A window starting at 0 can only be 0-based and is read so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_qualify.h"
#include "report_html.h"

static const char *const dirs[] = { "read", "write" };
static const char *const dir_colours[] = { COLOUR_READ, COLOUR_WRITE };

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void fmt_mbps_axis(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.4g", v / 1e6);
}

static void fmt_int(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.0f", v);
}

static void fmt_iops(char *buf, size_t len, double v)
{
	svg_fmt_si(buf, len, v);
}

/* A measured value or bound in its unit, for the criteria table. */
static void fmt_unit(char *buf, size_t len, double v, const char *unit)
{
	if (!unit)
		unit = "";
	if (!strcmp(unit, "ns"))
		svg_fmt_ns(buf, len, v);
	else if (!strcmp(unit, "iops"))
		snprintf(buf, len, "%.0f IOPS", v);
	else if (!strcmp(unit, "bytes_per_second"))
		fmt_mbps(buf, len, v);
	else if (!strcmp(unit, "bytes"))
		fmt_bytes(buf, len, v);
	else
		snprintf(buf, len, "%.6g%s%s", v, *unit ? " " : "", unit);
}

static void verdict_banner(FILE *out, json_object *root)
{
	const char *v = jstr(root, "verdict");
	const char *cls = v && (!strcmp(v, "pass") || !strcmp(v, "fail")) ? v : "incomplete";
	size_t n, met = 0;
	json_object *c = jarr(root, "criteria", &n);

	for (size_t i = 0; i < n; i++)
		met += json_object_get_boolean(jpath(json_object_array_get_idx(c, i), "pass"));
	fprintf(out, "<p><span class=\"verdict %s\">Verdict: ", cls);
	xml_puts(out, v ? v : "unknown");
	fprintf(out, "</span> %zu of %zu criteria met.</p>\n", met, n);
	if (jstr(root, "verdict_note") && *jstr(root, "verdict_note"))
		html_note(out, "%s", jstr(root, "verdict_note"));
	if (json_object_get_boolean(jpath(root, "interrupted")))
		html_note(out, "The qualification was interrupted: it can be resumed from its "
			  "state file.");
	if (!v)
		html_note(out, "The result has no verdict: the qualification may have been cut short.");
}

static void criteria_table(FILE *out, json_object *root)
{
	size_t n;
	json_object *c = jarr(root, "criteria", &n);

	if (!c) {
		html_note(out, "The result lists no criteria.");
		return;
	}
	if (!n) {
		html_note(out, "The profile sets no pass/fail criteria.");
		return;
	}
	html_table_begin(out, "Pass/fail criteria", "criterion", "metric", "measured", "bound",
			 "result", "note", NULL);
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(c, i);
		const char *unit = jstr(x, "unit"), *op = jstr(x, "op");
		bool pass = json_object_get_boolean(jpath(x, "pass"));
		char measured[64] = "not measured", bound[80] = "-", b[64];
		double v;

		if (jnum(x, "measured", &v))
			fmt_unit(measured, sizeof(measured), v, unit);
		if (jnum(x, "bound", &v)) {
			fmt_unit(b, sizeof(b), v, unit);
			snprintf(bound, sizeof(bound), "%s %s", or_dash(op), b);
		}
		html_row(out, pass ? "pass" : "fail", or_dash(jstr(x, "text")),
			 or_dash(jstr(x, "metric")), measured, bound, pass ? "pass" : "FAIL",
			 jstr(x, "note") ? jstr(x, "note") : "", NULL);
	}
	html_table_end(out);
}

static void setup_tables(FILE *out, json_object *root)
{
	json_object *d = jpath(root, "device"), *p = jpath(root, "precondition");
	char v[3][64];
	double x;

	html_heading(out, 2, "What was tested");
	html_table_begin(out, "Device and run", "field", "value", NULL);
	html_row(out, NULL, "device", or_dash(jstr(d, "path")), NULL);
	html_row(out, NULL, "kernel name", or_dash(jstr(d, "name")), NULL);
	html_row(out, NULL, "model", or_dash(jstr(d, "model")), NULL);
	html_row(out, NULL, "serial", or_dash(jstr(d, "serial")), NULL);
	html_row(out, NULL, "firmware", or_dash(jstr(d, "firmware")), NULL);
	if (jnum(d, "size_bytes", &x))
		fmt_bytes(v[0], sizeof(v[0]), x);
	else
		snprintf(v[0], sizeof(v[0]), "-");
	html_row(out, NULL, "capacity", v[0], NULL);
	fmt_num(v[0], sizeof(v[0]), d, "logical_block_size", svg_fmt_plain);
	html_row(out, NULL, "logical block size (bytes)", v[0], NULL);
	html_row(out, NULL, "profile", or_dash(jstr(root, "profile.name")), NULL);
	html_row(out, NULL, "started", or_dash(jstr(root, "started")), NULL);
	if (jnum(root, "runtime_s", &x))
		snprintf(v[0], sizeof(v[0]), "%.0f s (%.1f min)", x, x / 60);
	else
		snprintf(v[0], sizeof(v[0]), "-");
	html_row(out, NULL, "run time", v[0], NULL);
	html_row(out, NULL, "host", or_dash(jstr(root, "host.hostname")), NULL);
	html_row(out, NULL, "kernel", or_dash(jstr(root, "host.kernel")), NULL);
	html_row(out, NULL, "blkqual", or_dash(jstr(root, "tool.version")), NULL);
	html_table_end(out);

	html_table_begin(out, "Preparation", "step", "what happened", NULL);
	if (jpath(root, "purge")) {
		bool done = json_object_get_boolean(jpath(root, "purge.done"));

		snprintf(v[1], sizeof(v[1]), "%s, %s", or_dash(jstr(root, "purge.method")),
			 done ? "done" : "not done");
		html_row(out, done ? NULL : "incomplete", "purge", v[1], NULL);
		if (jstr(root, "purge.note") && *jstr(root, "purge.note"))
			html_row(out, NULL, "purge note", jstr(root, "purge.note"), NULL);
	} else {
		html_row(out, "incomplete", "purge", "not in the result", NULL);
	}
	if (json_object_is_type(p, json_type_object)) {
		fmt_num(v[0], sizeof(v[0]), p, "bytes", svg_fmt_si);
		if (jnum(p, "bytes", &x))
			fmt_bytes(v[0], sizeof(v[0]), x);
		fmt_num(v[1], sizeof(v[1]), p, "seconds", svg_fmt_plain);
		if (jnum(p, "bytes_per_second", &x))
			fmt_mbps(v[2], sizeof(v[2]), x);
		else
			snprintf(v[2], sizeof(v[2]), "-");
		snprintf(v[1] + strlen(v[1]), sizeof(v[1]) - strlen(v[1]), " s");
		{
			char line[200];

			snprintf(line, sizeof(line), "%s of 128 KiB sequential writes in %s, %s",
				 v[0], v[1], v[2]);
			html_row(out, NULL, "preconditioning", line, NULL);
		}
	} else {
		html_row(out, "incomplete", "preconditioning", "skipped", NULL);
	}
	html_table_end(out);
}

/*
 * What the tracked variable of a step is measured in: the axis title, the
 * axis labels and the table's numbers (with the unit).  The contract does
 * not say, so the label and the kind of step tell.
 */
static svg_fmt tracked_fmt(const char *kind, const char *label, const char **axis,
			   svg_fmt *table)
{
	if ((label && (strcasestr(label, "lat") || strstr(label, " p9"))) ||
	    (kind && !strcmp(kind, "latency") && !(label && strcasestr(label, "iops")))) {
		*axis = "latency";
		*table = svg_fmt_ns;
		return svg_fmt_ns;
	}
	if ((label && (strcasestr(label, "MB/s") || strcasestr(label, "bandwidth") ||
		       strcasestr(label, "bytes") || strcasestr(label, "bw"))) ||
	    (kind && !strcmp(kind, "throughput") && !(label && strcasestr(label, "iops")))) {
		*axis = "throughput, MB/s";
		*table = fmt_mbps;
		return fmt_mbps_axis;
	}
	if (kind && strcmp(kind, "iops") && !(label && strcasestr(label, "iops"))) {
		*axis = "tracked value";
		*table = svg_fmt_si;
		return svg_fmt_si;
	}
	*axis = "IOPS";
	*table = fmt_iops;
	return fmt_iops;
}

static void steady_plot(FILE *out, json_object *step, const char *sname, int d)
{
	struct bq_steady_params pts = BQ_STEADY_PARAMS_PTS;
	json_object *s = jpath(jpath(step, "steady"), dirs[d]), *w = jpath(s, "window");
	const char *tracked = jstr(jpath(step, "tracked"), dirs[d]), *state = jstr(s, "state");
	const char *kind = jstr(step, "kind"), *axis;
	svg_fmt tfmt, fmt = tracked_fmt(kind, tracked, &axis, &tfmt);
	double *x, *y, first = 0, last = 0, mean = 0, slope = NAN, icpt = NAN, left, reached;
	bool have_w, steady, left_it;
	struct svg_plot p = { 0 };
	char title[256], ylabel[192], c[4][64], range[160], fit[160], band[96], limit[96];
	size_t n;
	json_object *r = jarr(s, "rounds", &n);

	if (!s)
		return;
	/* A profile may set its own limits; the PTS ones otherwise. */
	if (!jnum(s, "range_pct", &pts.range_pct))
		jnum(step, "range_pct", &pts.range_pct);
	if (!jnum(s, "slope_pct", &pts.slope_pct))
		jnum(step, "slope_pct", &pts.slope_pct);
	if (!n) {
		html_note(out, "Step %s, %s: no rounds recorded.", sname, dirs[d]);
		return;
	}
	x = calloc(n, sizeof(*x));
	y = calloc(n, sizeof(*y));
	if (!x || !y)
		goto out_free;
	for (size_t i = 0; i < n; i++) {
		char k[24];

		x[i] = (double)i + 1;
		snprintf(k, sizeof(k), "%zu", i);
		if (!jnum(r, k, &y[i]))
			y[i] = NAN;
	}
	have_w = json_object_is_type(w, json_type_object) && jnum(w, "first", &first) &&
		 jnum(w, "last", &last) && jnum(w, "mean", &mean) && last >= first;
	if (have_w && first == 0) {
		first++;
		last++;
	}
	if (have_w && (!jnum(w, "slope", &slope) || !jnum(w, "intercept", &icpt))) {
		slope = NAN;
		icpt = NAN;
	}

	snprintf(ylabel, sizeof(ylabel), "%s: %s", axis, or_dash(tracked));
	svg_axis_init(&p.x, SVG_LINEAR, "round", svg_fmt_plain);
	svg_axis_init(&p.y, SVG_LINEAR, ylabel, fmt);
	svg_axis_include(&p.x, 0);
	svg_axis_include(&p.x, (double)n + 0.5);
	svg_axis_include(&p.y, 0);
	for (size_t i = 0; i < n; i++)
		svg_axis_include(&p.y, y[i]);
	svg_legend(&p, dir_colours[d], tracked ? tracked : dirs[d], false);
	if (have_w) {
		svg_axis_include(&p.y, mean * (1 + pts.range_pct / 200));
		snprintf(band, sizeof(band), "window, rounds %g-%g", first, last);
		svg_legend(&p, COLOUR_BAND, band, true);
		snprintf(limit, sizeof(limit), "mean \xc2\xb1%g%% (range limit %g%%)",
			 pts.range_pct / 2, pts.range_pct);
		svg_legend(&p, "#2ca02c", limit, true);
		svg_legend(&p, "#000000", "least-squares fit", false);
		svg_legend(&p, "#888888", "steepest fit allowed", false);
	}
	snprintf(title, sizeof(title), "Steady state, step %s, %s: %s", sname, dirs[d],
		 or_dash(state));
	html_figure_begin(out);
	svg_plot_begin(&p, out, title, "The tracked value per round. Steady state needs the "
		       "last rounds (the window) to stay within a band around their mean and "
		       "their fitted line to be nearly flat.");
	if (have_w) {
		double xa[2] = { first, last }, ya[2], xc = (first + last) / 2;
		double lim = pts.slope_pct / 100 * mean / fmax(last - first, 1);

		svg_rect(&p, first - 0.4, last + 0.4, NAN, NAN, COLOUR_BAND, 0.22);
		svg_rect(&p, first - 0.4, last + 0.4, mean * (1 - pts.range_pct / 200),
			 mean * (1 + pts.range_pct / 200), "#2ca02c", 0.18);
		ya[0] = ya[1] = mean;
		svg_line(&p, xa, ya, 2, "#2ca02c", "4 3", 1);
		for (int sgn = -1; sgn <= 1; sgn += 2) {
			ya[0] = mean - sgn * lim * (xc - first);
			ya[1] = mean + sgn * lim * (last - xc);
			svg_line(&p, xa, ya, 2, "#888888", "2 3", 1.5);
		}
		if (isfinite(slope)) {
			ya[0] = icpt;
			ya[1] = icpt + slope * (last - first);
			svg_line(&p, xa, ya, 2, "#000000", "7 3", 2);
		}
	}
	svg_line(&p, x, y, n, dir_colours[d], NULL, 2);
	svg_markers(&p, x, y, n, dir_colours[d]);
	if (jnum(s, "left_round", &left)) {
		double lx[2] = { left, left }, ly[2] = { p.y.min, p.y.max };

		svg_line(&p, lx, ly, 2, "#b3261e", "5 3", 1.5);
		svg_label(&p, left, p.y.max * 0.95, "left steady state", "#b3261e");
	}
	svg_plot_end(&p);

	steady = state && !strcmp(state, "steady");
	left_it = state && !strcmp(state, "left steady state");
	html_table_begin(out, "Steady state", "direction", "state", "rounds", "window",
			 "window mean", "range (max - min)", "fit across the window", NULL);
	snprintf(c[0], sizeof(c[0]), "%zu", n);
	if (jnum(s, "reached_round", &reached))
		snprintf(c[0] + strlen(c[0]), sizeof(c[0]) - strlen(c[0]), ", steady at %g",
			 reached);
	if (have_w) {
		double wmin = mean, wmax = mean;

		jnum(w, "min", &wmin);
		jnum(w, "max", &wmax);
		snprintf(c[1], sizeof(c[1]), "rounds %g-%g", first, last);
		tfmt(c[2], sizeof(c[2]), mean);
		tfmt(c[3], sizeof(c[3]), wmax - wmin);
		snprintf(range, sizeof(range), "%s = %.1f%% of mean (limit %g%%): %s", c[3],
			 mean ? 100 * (wmax - wmin) / fabs(mean) : 0, pts.range_pct,
			 json_object_get_boolean(jpath(w, "range_ok")) ? "ok" : "too wide");
		if (isfinite(slope)) {
			tfmt(c[3], sizeof(c[3]), fabs(slope) * (last - first));
			snprintf(fit, sizeof(fit), "%s = %.1f%% of mean (limit %g%%): %s", c[3],
				 mean ? 100 * fabs(slope) * (last - first) / fabs(mean) : 0,
				 pts.slope_pct, json_object_get_boolean(jpath(w, "slope_ok")) ?
				 "ok" : "too steep");
		} else {
			snprintf(fit, sizeof(fit), "-");
		}
	} else {
		snprintf(c[1], sizeof(c[1]), "none yet");
		snprintf(c[2], sizeof(c[2]), "-");
		snprintf(range, sizeof(range), "-");
		snprintf(fit, sizeof(fit), "-");
	}
	html_row(out, steady ? "pass" : left_it ? "incomplete" : "fail", dirs[d], or_dash(state),
		 c[0], c[1], c[2], range, fit, NULL);
	html_table_end(out);
	if (jnum(s, "left_round", &left))
		html_note(out, "Step %s, %s: steady state was reached, then left at round %g.",
			  sname, dirs[d], left);
	html_figure_end(out);
out_free:
	free(x);
	free(y);
}

/* Sum of both directions' @key; NaN when neither has it. */
static double cell_sum(json_object *cell, const char *key)
{
	double r = 0, w = 0;
	bool hr = jnum(jpath(cell, "read"), key, &r), hw = jnum(jpath(cell, "write"), key, &w);

	return hr || hw ? r + w : NAN;
}

static int desc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

/* Distinct values of @key over the cells, largest first; returns how many. */
static size_t distinct(json_object *cells, size_t n, const char *key, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double x;
		bool seen = false;

		if (!jnum(json_object_array_get_idx(cells, i), key, &x))
			continue;
		for (size_t j = 0; j < k; j++)
			seen |= v[j] == x;
		if (!seen)
			v[k++] = x;
	}
	qsort(v, k, sizeof(*v), desc_cmp);
	return k;
}

#define MAX_AXIS 32

static void iops_matrix(FILE *out, json_object *step, const char *sname)
{
	size_t n, nr, nc;
	json_object *cells = jarr(step, "cells", &n);
	double mix[MAX_AXIS], bs[MAX_AXIS], *v;
	char rl[MAX_AXIS][32], cl[MAX_AXIS][32], title[192], cellbuf[MAX_AXIS][24];
	const char *rows[MAX_AXIS], *cols[MAX_AXIS];

	if (n > MAX_AXIS * MAX_AXIS)
		n = MAX_AXIS * MAX_AXIS;
	nr = distinct(cells, n, "read_pct", mix);
	nc = distinct(cells, n, "bs", bs);
	if (nr > MAX_AXIS)
		nr = MAX_AXIS;
	if (nc > MAX_AXIS)
		nc = MAX_AXIS;
	if (nr < 2 && nc < 2)
		return;
	v = calloc(nr * nc, sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < nr * nc; i++)
		v[i] = NAN;
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i);
		double m, b;

		if (!jnum(c, "read_pct", &m) || !jnum(c, "bs", &b))
			continue;
		for (size_t r = 0; r < nr; r++)
			for (size_t k = 0; k < nc; k++)
				if (mix[r] == m && bs[k] == b)
					v[r * nc + k] = cell_sum(c, "iops");
	}
	for (size_t r = 0; r < nr; r++) {
		snprintf(rl[r], sizeof(rl[r]), "%g/%g", mix[r], 100 - mix[r]);
		rows[r] = rl[r];
	}
	for (size_t k = 0; k < nc; k++) {
		snprintf(cl[k], sizeof(cl[k]), "%gk", bs[k] / 1024);
		cols[k] = cl[k];
	}
	snprintf(title, sizeof(title), "IOPS matrix, step %s", sname);
	html_figure_begin(out);
	svg_heatmap(out, &(struct svg_heatmap){
		.title = title,
		.desc = "IOPS (reads plus writes) of each read/write mix and block size; the "
			"colour is on a log scale.",
		.rows = rows, .nr_rows = nr, .cols = cols, .nr_cols = nc, .v = v, .log = true,
		.fmt = svg_fmt_si, .row_title = "read/write mix, %",
		.col_title = "block size (KiB)",
	});
	/* The table holds the same grid, for reading exact values and for screen readers. */
	fputs("<table>\n<caption>IOPS matrix (reads plus writes per second)</caption>\n"
	      "<thead><tr><th scope=\"col\">R/W mix</th>", out);
	for (size_t k = 0; k < nc; k++) {
		fputs("<th scope=\"col\">", out);
		xml_puts(out, cols[k]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < nr; r++) {
		fputs("<tr><th scope=\"row\">", out);
		xml_puts(out, rows[r]);
		fputs("</th>", out);
		for (size_t k = 0; k < nc; k++) {
			if (isfinite(v[r * nc + k]))
				snprintf(cellbuf[k], sizeof(cellbuf[k]), "%.0f", v[r * nc + k]);
			else
				snprintf(cellbuf[k], sizeof(cellbuf[k]), "-");
			fputs("<td>", out);
			xml_puts(out, cellbuf[k]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	html_table_end(out);
	html_figure_end(out);
	free(v);
}

static void throughput_bars(FILE *out, json_object *step, const char *sname)
{
	size_t n;
	json_object *cells = jarr(step, "cells", &n);
	const char **rows = calloc(n ? n : 1, sizeof(*rows));
	double *v = calloc(2 * (n ? n : 1), sizeof(*v));
	char title[192];

	if (!rows || !v || !n)
		goto out_free;
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i);

		rows[i] = or_dash(jstr(c, "label"));
		for (int d = 0; d < 2; d++) {
			double x;

			v[i * 2 + d] = jnum(jpath(c, dirs[d]), "bytes_per_second", &x) && x > 0 ?
				       x : NAN;
		}
	}
	snprintf(title, sizeof(title), "Throughput, step %s", sname);
	html_figure_begin(out);
	svg_hbars(out, &(struct svg_hbars){
		.title = title,
		.desc = "Read and write throughput of each cell of the step.",
		.rows = rows, .nr_rows = n, .series = dirs, .colours = dir_colours,
		.nr_series = 2, .v = v, .fmt = fmt_mbps_axis,
		.label = "MB/s (10^6 bytes per second)",
	});
	html_figure_end(out);
out_free:
	free(rows);
	free(v);
}

/* One chart per direction: a dozen curves in one chart cannot be told apart. */
static void step_latency(FILE *out, json_object *step, const char *sname)
{
	struct lat_series s[SVG_MAX_LEGEND];
	char labels[SVG_MAX_LEGEND][96], what[160];
	size_t n, k, total = 0, more;
	json_object *cells = jarr(step, "cells", &n);

	for (int d = 0; d < 2; d++) {
		k = more = 0;
		for (size_t i = 0; i < n; i++) {
			json_object *c = json_object_array_get_idx(cells, i);
			json_object *h = jpath(jpath(c, dirs[d]), "lat_ns");

			if (!is_hist(h))
				continue;
			if (k == SVG_MAX_LEGEND) {
				more++;
				continue;
			}
			snprintf(labels[k], sizeof(labels[k]), "%s", or_dash(jstr(c, "label")));
			s[k] = (struct lat_series){ labels[k], report_palette[k % report_palette_len],
						    h };
			k++;
		}
		if (!k)
			continue;
		snprintf(what, sizeof(what), "step %s, %ss", sname, dirs[d]);
		lat_plots(out, what, s, k);
		if (more)
			html_note(out, "%zu more %s histograms are in the result but not drawn.", more,
				  dirs[d]);
		total += k;
	}
	if (!total)
		html_note(out, "Step %s: no latency histograms in its cells.", sname);
}

static void cells_table(FILE *out, json_object *step)
{
	size_t n;
	json_object *cells = jarr(step, "cells", &n);
	char c[12][40];

	if (!n) {
		html_note(out, "The step reports no cells.");
		return;
	}
	html_table_begin(out, "Every cell", "cell",
			 "QD x jobs", "read IOPS", "write IOPS", "read MB/s", "write MB/s",
			 "read mean", "read p99.99", "read max", "write mean", "write p99.99",
			 "write max", NULL);
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(cells, i);
		double qd = 0, nj = 0;

		jnum(x, "iodepth", &qd);
		jnum(x, "numjobs", &nj);
		snprintf(c[0], sizeof(c[0]), "%g x %g", qd, nj);
		for (int d = 0; d < 2; d++) {
			json_object *dj = jpath(x, dirs[d]), *lat = jpath(dj, "lat_ns");
			double v;

			fmt_num(c[1 + d], sizeof(c[1 + d]), dj, "iops", svg_fmt_si);
			if (jnum(dj, "bytes_per_second", &v))
				snprintf(c[3 + d], sizeof(c[3 + d]), "%.1f", v / 1e6);
			else
				snprintf(c[3 + d], sizeof(c[3 + d]), "-");
			fmt_num(c[5 + 3 * d], sizeof(c[0]), lat, "mean", svg_fmt_ns);
			fmt_num(c[6 + 3 * d], sizeof(c[0]),
				json_object_object_get(jpath(lat, "percentiles"), "99.99"), "",
				svg_fmt_ns);
			fmt_num(c[7 + 3 * d], sizeof(c[0]), lat, "max", svg_fmt_ns);
		}
		html_row(out, NULL, or_dash(jstr(x, "label")), c[0], c[1], c[2], c[3], c[4], c[5],
			 c[6], c[7], c[8], c[9], c[10], NULL);
	}
	html_table_end(out);
}

static void step_section(FILE *out, json_object *step, size_t idx)
{
	const char *kind = jstr(step, "kind");
	char sname[96];
	double a, b;
	size_t nr;

	snprintf(sname, sizeof(sname), "%s", jstr(step, "name") ? jstr(step, "name") : "?");
	jarr(step, "rounds", &nr);
	html_heading(out, 2, "Step %zu: %s (%s, %zu rounds)", idx + 1, sname, or_dash(kind), nr);
	if (jstr(step, "note") && *jstr(step, "note"))
		html_note(out, "%s", jstr(step, "note"));
	if (json_object_is_type(jpath(step, "steady"), json_type_object)) {
		html_heading(out, 3, "Steady state");
		for (int d = 0; d < 2; d++)
			steady_plot(out, step, sname, d);
	} else {
		html_note(out, "Step %s tracks no steady state.", sname);
	}
	html_heading(out, 3, "Results");
	if (jnum(step, "cells_from_rounds.0", &a) && jnum(step, "cells_from_rounds.1", &b))
		fprintf(out, "<p>The figures are the average of rounds %g to %g.</p>\n", a, b);
	if (kind && !strcmp(kind, "iops"))
		iops_matrix(out, step, sname);
	else if (kind && !strcmp(kind, "throughput"))
		throughput_bars(out, step, sname);
	if (kind && !strcmp(kind, "latency"))
		step_latency(out, step, sname);
	cells_table(out, step);
}

/* An object's members as "key=value, ...", whatever they hold. */
static void kv_line(char *buf, size_t len, json_object *o)
{
	size_t at = 0;

	buf[0] = '\0';
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(buf, len, "%s", o ? json_object_get_string(o) : "null");
		return;
	}
	json_object_object_foreach(o, k, x) {
		if (at >= len)
			break;
		at += snprintf(buf + at, len - at, "%s%s=%s", at ? ", " : "", k,
			       x ? json_object_get_string(x) : "null");
	}
}

static void verify_section(FILE *out, json_object *root)
{
	json_object *v = jpath(root, "verify"), *bad;
	double nbad = 0;
	size_t n;
	char line[512];

	html_heading(out, 2, "Data integrity");
	if (!json_object_is_type(v, json_type_object)) {
		html_note(out, "Data was not verified in this qualification.");
		return;
	}
	jnum(v, "bad_blocks", &nbad);
	html_table_begin(out, "Verification", "field", "value", NULL);
	html_row(out, NULL, "method", or_dash(jstr(v, "method")), NULL);
	fmt_num(line, sizeof(line), v, "blocks_checked", fmt_int);
	html_row(out, NULL, "blocks checked", line, NULL);
	fmt_num(line, sizeof(line), v, "bad_blocks", fmt_int);
	html_row(out, nbad > 0 ? "fail" : "pass", "bad blocks", line, NULL);
	bad = jarr(v, "first_bad", &n);
	for (size_t i = 0; i < n; i++) {
		kv_line(line, sizeof(line), json_object_array_get_idx(bad, i));
		html_row(out, "fail", i ? "" : "first bad blocks", line, NULL);
	}
	html_table_end(out);
}

/**
 * html_qualify() - the page of a qualification
 * @out: where
 * @root: the result
 */
void html_qualify(FILE *out, json_object *root)
{
	size_t n;
	json_object *steps = jarr(root, "steps", &n);
	char title[256];

	snprintf(title, sizeof(title), "blkqual qualify: %s on %s",
		 or_dash(jstr(root, "profile.name")), or_dash(jstr(root, "device.path")));
	html_begin(out, title);
	verdict_banner(out, root);
	criteria_table(out, root);
	setup_tables(out, root);
	if (!n)
		html_note(out, "The result holds no steps.");
	for (size_t i = 0; i < n; i++)
		step_section(out, json_object_array_get_idx(steps, i), i);
	verify_section(out, root);
	if (jstr(root, "profile.text")) {
		html_heading(out, 2, "Profile");
		fputs("<pre>", out);
		xml_puts(out, jstr(root, "profile.text"));
		fputs("</pre>\n", out);
	}
}
