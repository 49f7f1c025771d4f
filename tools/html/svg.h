/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * svg.h - a tiny SVG plotting module for the HTML reports: axes with
 * nice ticks on linear, logarithmic and "nines" (percentile) scales, line
 * series, markers, bars, shaded bands, heat maps and legends
 *
 * Everything is written straight to a FILE as XML-compatible SVG that
 * sits inline in an HTML page: no script, no external reference.
 */
#ifndef BLKQUAL_SVG_H
#define BLKQUAL_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_scale {
	SVG_LINEAR,
	SVG_LOG,	/* positive values only; ticks at powers of ten */
	SVG_NINES,	/* percentiles 0..100: -log10(1 - p/100), so p99.99 gets room */
};

/* Formats one tick label (or table value) into @buf. */
typedef void (*svg_fmt)(char *buf, size_t len, double v);

void svg_fmt_plain(char *buf, size_t len, double v);	/* 0.5, 12, 1500 */
void svg_fmt_si(char *buf, size_t len, double v);	/* 950, 12k, 1.5M */
void svg_fmt_ns(char *buf, size_t len, double v);	/* 800ns, 12us, 1.5ms, 2s */
void svg_fmt_pct(char *buf, size_t len, double v);	/* p50, p99.9 */

/**
 * struct svg_axis - one axis: scale, data range and labels
 * @scale: how values map to pixels
 * @min: smallest value shown (widened to a tick by svg_plot_begin())
 * @max: largest value shown
 * @label: axis title, with the unit
 * @fmt: tick label format
 * @set: @min and @max hold at least one value
 */
struct svg_axis {
	enum svg_scale scale;
	double min;
	double max;
	const char *label;
	svg_fmt fmt;
	bool set;
};

#define SVG_MAX_LEGEND 12

struct svg_legend_entry {
	const char *colour;
	const char *label;
	bool swatch;		/* a filled box (bars, bands) rather than a line */
};

/**
 * struct svg_plot - one chart being written
 * @out: where
 * @id: unique id of the <svg>, for aria references
 * @w: image width in pixels
 * @h: image height
 * @x0: plot area, left edge
 * @x1: right edge
 * @y0: top edge
 * @y1: bottom edge
 * @x: horizontal axis
 * @y: vertical axis
 * @legend: entries drawn by svg_plot_end()
 * @nr_legend: how many
 */
struct svg_plot {
	FILE *out;
	int id;
	double w, h;
	double x0, x1, y0, y1;
	struct svg_axis x, y;
	struct svg_legend_entry legend[SVG_MAX_LEGEND];
	int nr_legend;
};

/**
 * svg_axis_init() - an empty axis
 * @a: the axis
 * @scale: linear, log or nines
 * @label: title with unit (kept by reference)
 * @fmt: tick label format
 */
void svg_axis_init(struct svg_axis *a, enum svg_scale scale, const char *label, svg_fmt fmt);

/**
 * svg_axis_include() - widen an axis to show @v
 * @a: the axis
 * @v: a value; non-finite values, and non-positive ones on a log
 *     scale, are ignored
 */
void svg_axis_include(struct svg_axis *a, double v);

/**
 * svg_plot_begin() - open a chart: frame, grid, ticks, axis titles
 * @p: the chart; set its axes with svg_axis_init()/svg_axis_include() first
 * @out: where
 * @title: the chart's title, shown and given to screen readers
 * @desc: one sentence of what it shows, for screen readers
 */
void svg_plot_begin(struct svg_plot *p, FILE *out, const char *title, const char *desc);

/**
 * svg_plot_end() - draw the legend and close the chart
 * @p: the chart
 */
void svg_plot_end(struct svg_plot *p);

/**
 * svg_legend() - add a legend entry
 * @p: the chart
 * @colour: CSS colour
 * @label: text (kept by reference until svg_plot_end())
 * @swatch: a filled box rather than a line
 */
void svg_legend(struct svg_plot *p, const char *colour, const char *label, bool swatch);

/**
 * svg_line() - a polyline through points; NaNs (and values a log scale
 * cannot show) break it
 * @p: the chart
 * @x: abscissae
 * @y: ordinates
 * @n: points
 * @colour: stroke colour
 * @dash: stroke-dasharray, or NULL for a solid line
 * @width: stroke width in pixels
 */
void svg_line(struct svg_plot *p, const double *x, const double *y, size_t n,
	      const char *colour, const char *dash, double width);

/**
 * svg_markers() - a dot at each point
 * @p: the chart
 * @x: abscissae
 * @y: ordinates
 * @n: points
 * @colour: fill colour
 */
void svg_markers(struct svg_plot *p, const double *x, const double *y, size_t n,
		 const char *colour);

/**
 * svg_bars() - bars from the bottom of the plot (or 0) up to @y
 * @p: the chart
 * @xa: left edge of each bar
 * @xb: right edge of each bar
 * @y: height of each bar
 * @n: bars
 * @colour: fill colour
 * @opacity: fill opacity, 0..1
 */
void svg_bars(struct svg_plot *p, const double *xa, const double *xb, const double *y,
	      size_t n, const char *colour, double opacity);

/**
 * svg_rect() - a shaded rectangle in data coordinates, clipped to the plot;
 * NaN for an edge means the plot's edge
 * @p: the chart
 * @xa: left
 * @xb: right
 * @ya: bottom
 * @yb: top
 * @colour: fill colour
 * @opacity: fill opacity, 0..1
 */
void svg_rect(struct svg_plot *p, double xa, double xb, double ya, double yb,
	      const char *colour, double opacity);

/**
 * svg_label() - a small text at a data point
 * @p: the chart
 * @x: abscissa
 * @y: ordinate
 * @text: the text
 * @colour: its colour
 */
void svg_label(struct svg_plot *p, double x, double y, const char *text, const char *colour);

/**
 * struct svg_heatmap - a grid of coloured cells with their values
 * @title: chart title
 * @desc: one sentence for screen readers
 * @rows: row labels, top to bottom
 * @nr_rows: how many
 * @cols: column labels, left to right
 * @nr_cols: how many
 * @v: values, row-major; NaN for a cell that was not measured
 * @log: colour by the logarithm of the value
 * @fmt: how a cell prints its value
 * @row_title: what the rows are
 * @col_title: what the columns are
 */
struct svg_heatmap {
	const char *title;
	const char *desc;
	const char *const *rows;
	size_t nr_rows;
	const char *const *cols;
	size_t nr_cols;
	const double *v;
	bool log;
	svg_fmt fmt;
	const char *row_title;
	const char *col_title;
};

/**
 * svg_heatmap() - draw a heat map with a colour scale
 * @out: where
 * @hm: what
 */
void svg_heatmap(FILE *out, const struct svg_heatmap *hm);

/**
 * struct svg_hbars - horizontal bars, one group per row, one bar per series
 * @title: chart title
 * @desc: one sentence for screen readers
 * @rows: row labels, top to bottom
 * @nr_rows: how many
 * @series: series names, for the legend
 * @colours: series colours
 * @nr_series: how many (at most SVG_MAX_LEGEND)
 * @v: values, row-major (@nr_rows x @nr_series); NaN for none
 * @fmt: how a bar prints its value
 * @label: value axis title, with the unit
 */
struct svg_hbars {
	const char *title;
	const char *desc;
	const char *const *rows;
	size_t nr_rows;
	const char *const *series;
	const char *const *colours;
	size_t nr_series;
	const double *v;
	svg_fmt fmt;
	const char *label;
};

/**
 * svg_hbars() - draw a horizontal bar chart
 * @out: where
 * @hb: what
 */
void svg_hbars(FILE *out, const struct svg_hbars *hb);

/**
 * svg_heat_colour() - the heat map's colour for a fraction of its range
 * @buf: receives "#rrggbb"
 * @len: its size (8 or more)
 * @f: 0 (lowest) to 1 (highest)
 */
void svg_heat_colour(char *buf, size_t len, double f);

/**
 * xml_puts() - text escaped for XML and HTML (text and attribute values);
 * control characters that XML cannot carry are dropped
 * @out: where
 * @s: the text (NULL prints nothing)
 */
void xml_puts(FILE *out, const char *s);

#endif /* BLKQUAL_SVG_H */
