// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg.c - a tiny SVG plotting module for the HTML reports
 *
 * Charts are written as they are drawn, so nothing is kept but the axes.
 * Coordinates are clamped to the plot area instead of clipped: a clip path
 * needs an id reference, and every series here is fitted to its axes
 * anyway, so clamping only ever touches rounding.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

#define PLOT_W 760.0
#define PLOT_H 330.0
#define MARGIN_LEFT 76.0
#define MARGIN_RIGHT 44.0
#define MARGIN_BOTTOM 48.0
#define TITLE_H 30.0
#define LEGEND_ROW_H 18.0
#define NINES_MAX 9.0	/* p99.9999999: beyond that a double says 100 */

/* Every <svg> gets its own id, for the aria-labelledby references. */
static int next_id;

void xml_puts(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 has no way to carry the other C0 controls. */
			if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r')
				fputc(c, out);
		}
	}
}

void svg_fmt_plain(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.4g", v);
}

void svg_fmt_si(char *buf, size_t len, double v)
{
	static const struct { double f; const char *s; } u[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (fabs(v) >= u[i].f) {
			snprintf(buf, len, "%.3g%s", v / u[i].f, u[i].s);
			return;
		}
	}
	snprintf(buf, len, "%.3g", v);
}

void svg_fmt_ns(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e9)
		snprintf(buf, len, "%.3gs", v / 1e9);
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.3gms", v / 1e6);
	else if (fabs(v) >= 1e3)
		snprintf(buf, len, "%.3gus", v / 1e3);
	else
		snprintf(buf, len, "%.3gns", v);
}

void svg_fmt_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "p%.10g", v);
}

void svg_axis_init(struct svg_axis *a, enum svg_scale scale, const char *label, svg_fmt fmt)
{
	memset(a, 0, sizeof(*a));
	a->scale = scale;
	a->label = label;
	a->fmt = fmt ? fmt : svg_fmt_plain;
}

void svg_axis_include(struct svg_axis *a, double v)
{
	if (!isfinite(v) || (a->scale == SVG_LOG && v <= 0) ||
	    (a->scale == SVG_NINES && (v < 0 || v >= 100)))
		return;
	if (!a->set || v < a->min)
		a->min = v;
	if (!a->set || v > a->max)
		a->max = v;
	a->set = true;
}

static double nines(double p)
{
	double t = -log10(1 - p / 100);

	return isfinite(t) && t < NINES_MAX ? t : NINES_MAX;
}

/* The axis coordinate before the linear map to pixels. */
static double transform(const struct svg_axis *a, double v)
{
	switch (a->scale) {
	case SVG_LOG:
		return log10(v);
	case SVG_NINES:
		return nines(v);
	case SVG_LINEAR:
		break;
	}
	return v;
}

/* 1, 2, 2.5 or 5 times a power of ten, near @range / @ticks. */
static double nice_step(double range, int ticks)
{
	double raw = range / ticks, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

/* Widen the range to whole ticks so the frame starts and ends on a label. */
static void axis_finish(struct svg_axis *a)
{
	double step;

	switch (a->scale) {
	case SVG_LOG:
		if (!a->set) {
			a->min = 1;
			a->max = 10;
		}
		a->min = pow(10, floor(log10(a->min)));
		a->max = pow(10, ceil(log10(a->max)));
		if (a->max <= a->min)
			a->max = a->min * 10;
		return;
	case SVG_NINES:
		a->min = 0;
		a->max = 100 - 100 * pow(10, -fmax(2, ceil(nines(a->set ? a->max : 99) - 1e-6)));
		return;
	case SVG_LINEAR:
		break;
	}
	if (!a->set) {
		a->min = 0;
		a->max = 1;
	}
	if (a->max <= a->min) {
		double d = a->min ? fabs(a->min) / 10 : 1;

		a->min -= a->min > 0 && a->min - d < 0 ? a->min : d;
		a->max += d;
	}
	step = nice_step(a->max - a->min, 5);
	a->min = floor(a->min / step + 1e-9) * step;
	a->max = ceil(a->max / step - 1e-9) * step;
}

/* Tick values, in data units, into @t; returns how many. */
static int axis_ticks(const struct svg_axis *a, double *t, int max)
{
	int n = 0;

	switch (a->scale) {
	case SVG_LOG: {
		double decades = log10(a->max / a->min);
		int every = decades > 8 ? 2 : 1;

		for (double v = a->min; v <= a->max * 1.0001 && n < max; v *= 10) {
			int k = (int)lround(log10(v / a->min));

			if (k % every == 0)
				t[n++] = v;
			if (decades <= 2 && v * 2 < a->max && n + 2 <= max) {
				t[n++] = v * 2;
				t[n++] = v * 5;
			}
		}
		return n;
	}
	case SVG_NINES: {
		static const double p[] = { 0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999,
					    99.99999, 99.999999 };

		for (size_t i = 0; i < sizeof(p) / sizeof(p[0]) && n < max; i++)
			if (p[i] <= a->max + 1e-9)
				t[n++] = p[i];
		return n;
	}
	case SVG_LINEAR:
		break;
	}
	{
		double step = nice_step(a->max - a->min, 5);

		for (double v = a->min; v <= a->max + step / 1000 && n < max; v += step)
			t[n++] = fabs(v) < step / 1e6 ? 0 : v;
	}
	return n;
}

static double frac(const struct svg_axis *a, double v)
{
	double lo = transform(a, a->min), hi = transform(a, a->max);
	double f = (transform(a, v) - lo) / (hi - lo);

	return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* Whether @v can be placed on @a at all. */
static bool shows(const struct svg_axis *a, double v)
{
	return isfinite(v) && !(a->scale == SVG_LOG && v <= 0) && !(a->scale == SVG_NINES && v < 0);
}

static double px_x(const struct svg_plot *p, double v)
{
	return p->x0 + frac(&p->x, v) * (p->x1 - p->x0);
}

static double px_y(const struct svg_plot *p, double v)
{
	return p->y1 - frac(&p->y, v) * (p->y1 - p->y0);
}

void svg_legend(struct svg_plot *p, const char *colour, const char *label, bool swatch)
{
	if (p->nr_legend == SVG_MAX_LEGEND)
		return;
	p->legend[p->nr_legend++] = (struct svg_legend_entry){ colour, label, swatch };
}

/* Legend entries flow left to right under the title; returns the rows used. */
static int legend_draw(const struct svg_plot *p, bool draw)
{
	double x = MARGIN_LEFT, y = TITLE_H + 4;
	int rows = p->nr_legend ? 1 : 0;

	for (int i = 0; i < p->nr_legend; i++) {
		const struct svg_legend_entry *e = &p->legend[i];
		double w = 30 + 7 * (double)strlen(e->label);

		if (x + w > p->w - MARGIN_RIGHT && x > MARGIN_LEFT) {
			x = MARGIN_LEFT;
			y += LEGEND_ROW_H;
			rows++;
		}
		if (draw) {
			if (e->swatch)
				fprintf(p->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" "
					"fill=\"%s\"/>", x, y, e->colour);
			else
				fprintf(p->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"4\" "
					"fill=\"%s\"/>", x, y + 4, e->colour);
			fprintf(p->out, "<text x=\"%.1f\" y=\"%.1f\">", x + 22, y + 11);
			xml_puts(p->out, e->label);
			fputs("</text>\n", p->out);
		}
		x += w;
	}
	return rows;
}

static void svg_open(FILE *out, int id, double w, double h, const char *title, const char *desc)
{
	fprintf(out, "<svg class=\"plot\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" aria-labelledby=\"svg%d-t svg%d-d\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n<title id=\"svg%d-t\">", w, h, w, h, id, id, id);
	xml_puts(out, title);
	fprintf(out, "</title>\n<desc id=\"svg%d-d\">", id);
	xml_puts(out, desc);
	fprintf(out, "</desc>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", w, h);
	fputs("<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", out);
	xml_puts(out, title);
	fputs("</text>\n", out);
}

void svg_plot_begin(struct svg_plot *p, FILE *out, const char *title, const char *desc)
{
	double ticks[64];
	char lab[48];
	int n;

	p->out = out;
	p->id = ++next_id;
	p->w = PLOT_W;
	p->h = PLOT_H;
	axis_finish(&p->x);
	axis_finish(&p->y);
	p->x0 = MARGIN_LEFT;
	p->x1 = p->w - MARGIN_RIGHT;
	p->y0 = TITLE_H + 12 + LEGEND_ROW_H * legend_draw(p, false);
	p->y1 = p->h - MARGIN_BOTTOM;

	svg_open(out, p->id, p->w, p->h, title, desc);
	legend_draw(p, true);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" "
		"stroke=\"#444444\"/>\n", p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);

	n = axis_ticks(&p->x, ticks, 64);
	for (int i = 0; i < n; i++) {
		double x = px_x(p, ticks[i]);

		p->x.fmt(lab, sizeof(lab), ticks[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, p->y0, x, p->y1,
			x, p->y1 + 16);
		xml_puts(out, lab);
		fputs("</text>\n", out);
	}
	n = axis_ticks(&p->y, ticks, 64);
	for (int i = 0; i < n; i++) {
		double y = px_y(p, ticks[i]);

		p->y.fmt(lab, sizeof(lab), ticks[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p->x0, y, p->x1, y,
			p->x0 - 6, y + 4);
		xml_puts(out, lab);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (p->x0 + p->x1) / 2,
		p->h - 10);
	xml_puts(out, p->x.label);
	fprintf(out, "</text>\n<text transform=\"translate(14 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">", (p->y0 + p->y1) / 2);
	xml_puts(out, p->y.label);
	fputs("</text>\n", out);
}

void svg_plot_end(struct svg_plot *p)
{
	fputs("</svg>\n", p->out);
}

void svg_line(struct svg_plot *p, const double *x, const double *y, size_t n,
	      const char *colour, const char *dash, double width)
{
	bool pen = false, any = false;

	for (size_t i = 0; i < n; i++) {
		if (!shows(&p->x, x[i]) || !shows(&p->y, y[i])) {
			pen = false;
			continue;
		}
		if (!any)
			fputs("<path d=\"", p->out);
		fprintf(p->out, "%s%.1f %.1f ", pen ? "L" : "M", px_x(p, x[i]), px_y(p, y[i]));
		pen = any = true;
	}
	if (!any)
		return;
	fprintf(p->out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
		"stroke-linejoin=\"round\"", colour, width);
	if (dash)
		fprintf(p->out, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", p->out);
}

void svg_markers(struct svg_plot *p, const double *x, const double *y, size_t n,
		 const char *colour)
{
	for (size_t i = 0; i < n; i++)
		if (shows(&p->x, x[i]) && shows(&p->y, y[i]))
			fprintf(p->out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
				px_x(p, x[i]), px_y(p, y[i]), colour);
}

void svg_bars(struct svg_plot *p, const double *xa, const double *xb, const double *y,
	      size_t n, const char *colour, double opacity)
{
	/* Bars rise from zero, or from the frame when zero is off the scale. */
	double base = p->y.scale == SVG_LINEAR && p->y.min <= 0 ? px_y(p, 0) : p->y1;

	fprintf(p->out, "<g fill=\"%s\" fill-opacity=\"%.2f\">\n", colour, opacity);
	for (size_t i = 0; i < n; i++) {
		double l, r, top;

		if (!shows(&p->x, xa[i]) || !shows(&p->x, xb[i]) || !shows(&p->y, y[i]))
			continue;
		l = px_x(p, xa[i]);
		r = px_x(p, xb[i]);
		top = px_y(p, y[i]);
		/* A bar narrower than a pixel would vanish in the rendering. */
		if (r - l < 1)
			r = l + 1;
		fprintf(p->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", l,
			fmin(top, base), r - l, fabs(base - top));
	}
	fputs("</g>\n", p->out);
}

void svg_rect(struct svg_plot *p, double xa, double xb, double ya, double yb,
	      const char *colour, double opacity)
{
	double l = isnan(xa) ? p->x0 : px_x(p, xa), r = isnan(xb) ? p->x1 : px_x(p, xb);
	double b = isnan(ya) ? p->y1 : px_y(p, ya), t = isnan(yb) ? p->y0 : px_y(p, yb);

	fprintf(p->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"%.2f\"/>\n", fmin(l, r), fmin(t, b), fabs(r - l), fabs(b - t),
		colour, opacity);
}

void svg_label(struct svg_plot *p, double x, double y, const char *text, const char *colour)
{
	if (!shows(&p->x, x) || !shows(&p->y, y))
		return;
	fprintf(p->out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" font-size=\"11\">",
		px_x(p, x) + 4, px_y(p, y) - 4, colour);
	xml_puts(p->out, text);
	fputs("</text>\n", p->out);
}

void svg_hbars(FILE *out, const struct svg_hbars *hb)
{
	struct svg_plot p = { 0 };
	size_t ns = hb->nr_series < SVG_MAX_LEGEND ? hb->nr_series : SVG_MAX_LEGEND;
	double ticks[64], left = 150, bar_h = 14, group_h, top;
	char lab[48];
	int n;

	svg_axis_init(&p.x, SVG_LINEAR, hb->label, hb->fmt);
	svg_axis_include(&p.x, 0);
	for (size_t i = 0; i < hb->nr_rows * hb->nr_series; i++)
		svg_axis_include(&p.x, hb->v[i]);
	/* Room for the value printed after the longest bar. */
	if (p.x.set)
		svg_axis_include(&p.x, p.x.max * 1.12);
	axis_finish(&p.x);
	for (size_t s = 0; s < ns; s++)
		svg_legend(&p, hb->colours[s], hb->series[s], true);
	p.out = out;
	p.id = ++next_id;
	p.w = PLOT_W;
	p.x0 = left;
	p.x1 = p.w - MARGIN_RIGHT;
	group_h = bar_h * (double)ns + 10;
	p.y0 = TITLE_H + 12 + LEGEND_ROW_H * legend_draw(&p, false);
	p.y1 = p.y0 + group_h * (double)hb->nr_rows;
	p.h = p.y1 + MARGIN_BOTTOM;
	svg_open(out, p.id, p.w, p.h, hb->title, hb->desc);
	legend_draw(&p, true);
	n = axis_ticks(&p.x, ticks, 64);
	for (int i = 0; i < n; i++) {
		double x = px_x(&p, ticks[i]);

		hb->fmt(lab, sizeof(lab), ticks[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, p.y0, x, p.y1, x,
			p.y1 + 16);
		xml_puts(out, lab);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (p.x0 + p.x1) / 2,
		p.h - 10);
	xml_puts(out, hb->label);
	fputs("</text>\n", out);
	for (size_t r = 0; r < hb->nr_rows; r++) {
		top = p.y0 + group_h * (double)r + 5;
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
			top + bar_h * (double)ns / 2 + 4);
		xml_puts(out, hb->rows[r]);
		fputs("</text>\n", out);
		for (size_t s = 0; s < ns; s++) {
			double v = hb->v[r * hb->nr_series + s], y = top + bar_h * (double)s;

			if (!isfinite(v))
				continue;
			hb->fmt(lab, sizeof(lab), v);
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", p.x0, y,
				fmax(px_x(&p, v) - p.x0, 1), bar_h - 2, hb->colours[s],
				fmax(px_x(&p, v), p.x0 + 1) + 4, y + bar_h - 4);
			xml_puts(out, lab);
			fputs("</text>\n", out);
		}
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444444\"/>\n",
		p.x0, p.y0, p.x0, p.y1);
	fputs("</svg>\n", out);
}

void svg_heat_colour(char *buf, size_t len, double f)
{
	/* Viridis at five stops: ordered in lightness, readable in grey. */
	static const unsigned char stop[5][3] = {
		{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c },
		{ 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
	};
	double pos;
	int i;

	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	pos = f * 4;
	i = pos >= 4 ? 3 : (int)pos;
	pos -= i;
	snprintf(buf, len, "#%02x%02x%02x",
		 (unsigned int)lround(stop[i][0] + (stop[i + 1][0] - stop[i][0]) * pos),
		 (unsigned int)lround(stop[i][1] + (stop[i + 1][1] - stop[i][1]) * pos),
		 (unsigned int)lround(stop[i][2] + (stop[i + 1][2] - stop[i][2]) * pos));
}

void svg_heatmap(FILE *out, const struct svg_heatmap *hm)
{
	double cw, ch = 30, left = 120, top = TITLE_H + 44, lo = INFINITY, hi = -INFINITY;
	double w, h, grid_w, bar_x;
	int id = ++next_id;
	char lab[48], col[8];

	for (size_t i = 0; i < hm->nr_rows * hm->nr_cols; i++) {
		double v = hm->v[i];

		if (!isfinite(v) || (hm->log && v <= 0))
			continue;
		lo = fmin(lo, hm->log ? log10(v) : v);
		hi = fmax(hi, hm->log ? log10(v) : v);
	}
	cw = hm->nr_cols ? fmax(56, fmin(90, 520.0 / (double)hm->nr_cols)) : 56;
	grid_w = cw * (double)hm->nr_cols;
	bar_x = left + grid_w + 24;
	w = bar_x + 90;
	h = top + ch * (double)hm->nr_rows + 20;
	svg_open(out, id, w, h, hm->title, hm->desc);

	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", left + grid_w / 2,
		TITLE_H + 10);
	xml_puts(out, hm->col_title);
	fprintf(out, "</text>\n<text x=\"8\" y=\"%.1f\">", top - 8);
	xml_puts(out, hm->row_title);
	fputs("</text>\n", out);
	for (size_t c = 0; c < hm->nr_cols; c++) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			left + cw * ((double)c + 0.5), top - 8);
		xml_puts(out, hm->cols[c]);
		fputs("</text>\n", out);
	}
	for (size_t r = 0; r < hm->nr_rows; r++) {
		double y = top + ch * (double)r;

		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
			y + ch / 2 + 4);
		xml_puts(out, hm->rows[r]);
		fputs("</text>\n", out);
		for (size_t c = 0; c < hm->nr_cols; c++) {
			double v = hm->v[r * hm->nr_cols + c], f, x = left + cw * (double)c;
			bool dark;

			if (!isfinite(v) || (hm->log && v <= 0)) {
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					"fill=\"#eeeeee\" stroke=\"#ffffff\"/><text x=\"%.1f\" "
					"y=\"%.1f\" text-anchor=\"middle\" fill=\"#888888\">n/a</text>\n",
					x, y, cw, ch, x + cw / 2, y + ch / 2 + 4);
				continue;
			}
			f = hi > lo ? ((hm->log ? log10(v) : v) - lo) / (hi - lo) : 1;
			svg_heat_colour(col, sizeof(col), f);
			/* The dark half of the scale takes white text. */
			dark = f < 0.55;
			hm->fmt(lab, sizeof(lab), v);
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\" stroke=\"#ffffff\"/><text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\" fill=\"%s\">", x, y, cw, ch, col, x + cw / 2,
				y + ch / 2 + 4, dark ? "#ffffff" : "#000000");
			xml_puts(out, lab);
			fputs("</text>\n", out);
		}
	}
	/* The colour scale: twenty steps, highest at the top. */
	for (int i = 0; i < 20; i++) {
		double bh = ch * (double)hm->nr_rows / 20;

		svg_heat_colour(col, sizeof(col), (19 - i) / 19.0);
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%.2f\" fill=\"%s\"/>\n",
			bar_x, top + bh * i, bh + 0.5, col);
	}
	if (isfinite(lo)) {
		hm->fmt(lab, sizeof(lab), hm->log ? pow(10, hi) : hi);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", bar_x + 20, top + 10);
		xml_puts(out, lab);
		hm->fmt(lab, sizeof(lab), hm->log ? pow(10, lo) : lo);
		fprintf(out, "</text>\n<text x=\"%.1f\" y=\"%.1f\">", bar_x + 20,
			top + ch * (double)hm->nr_rows);
		xml_puts(out, lab);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}
