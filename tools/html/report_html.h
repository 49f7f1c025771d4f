/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_html.h - the HTML report: page frame, tables, notes, looking into
 * result JSON, and the latency plots every kind of result shares
 *
 * A page is written as XHTML-compatible HTML (every element closed, no
 * named entities but XML's own), so it parses as XML as well as HTML.
 */
#ifndef BLKQUAL_REPORT_HTML_H
#define BLKQUAL_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "svg.h"

/* Series colours; the test looks for them in the rendered page. */
#define COLOUR_READ "#1f77b4"
#define COLOUR_WRITE "#d62728"
#define COLOUR_BAND "#f2b705"

extern const char *const report_palette[];
extern const size_t report_palette_len;

/* ---- looking into the result ------------------------------------------- */

/**
 * jpath() - the value at a dotted path ("total.read.lat_ns"); a segment
 * that is a number indexes an array
 * @o: where to start (may be NULL)
 * @path: the path; "" is @o itself
 *
 * Return: the value, or NULL when a step is missing or of the wrong type.
 */
json_object *jpath(json_object *o, const char *path);

/**
 * jnum() - a number at a path
 * @o: where to start
 * @path: dotted path
 * @v: receives the number (untouched when there is none)
 *
 * Return: true when the value exists and is a finite number.
 */
bool jnum(json_object *o, const char *path, double *v);

/**
 * jstr() - a string at a path
 * @o: where to start
 * @path: dotted path
 *
 * Return: the string, or NULL when missing or not a string.
 */
const char *jstr(json_object *o, const char *path);

/**
 * jarr() - an array at a path
 * @o: where to start
 * @path: dotted path
 * @n: receives its length (0 when there is none)
 *
 * Return: the array, or NULL.
 */
json_object *jarr(json_object *o, const char *path, size_t *n);

/**
 * is_hist() - whether a value looks like hist_json(): an object with a
 * "percentiles" object
 * @o: the value
 *
 * Return: true when it does.
 */
bool is_hist(json_object *o);

/* ---- page -------------------------------------------------------------- */

/**
 * html_begin() - doctype, head with the style sheet, body, the <h1>
 * @out: where
 * @title: the page title and heading
 */
void html_begin(FILE *out, const char *title);

/**
 * html_end() - the footer and closing tags
 * @out: where
 * @source: the result file the page was made from
 */
void html_end(FILE *out, const char *source);

/**
 * html_heading() - a section heading
 * @out: where
 * @level: 2 or 3
 * @fmt: printf format of the text (escaped)
 */
void html_heading(FILE *out, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * html_note() - a paragraph in the note style: what is missing and why
 * @out: where
 * @fmt: printf format of the text (escaped)
 */
void html_note(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * html_table_begin() - a table with a caption and a header row
 * @out: where
 * @caption: what the table holds
 * @...: column headers, then NULL
 */
void html_table_begin(FILE *out, const char *caption, ...) __attribute__((sentinel));

/**
 * html_row() - one table row
 * @out: where
 * @cls: class of the row ("pass", "fail") or NULL
 * @...: cell texts, then NULL; the first is a header cell
 */
void html_row(FILE *out, const char *cls, ...) __attribute__((sentinel));

/**
 * html_table_end() - close a table
 * @out: where
 */
void html_table_end(FILE *out);

/**
 * html_figure_begin() - open a figure (a plot and its table of numbers)
 * @out: where
 */
void html_figure_begin(FILE *out);

/**
 * html_figure_end() - close it
 * @out: where
 */
void html_figure_end(FILE *out);

/**
 * html_scalars() - a two-column table of an object's strings, numbers and
 * booleans (nested objects one level down as "outer.inner")
 * @out: where
 * @caption: the table's caption
 * @o: the object (nothing when NULL)
 * @skip: keys to leave out, NULL-terminated, or NULL
 */
void html_scalars(FILE *out, const char *caption, json_object *o, const char *const *skip);

/* ---- numbers as text --------------------------------------------------- */

void fmt_num(char *buf, size_t len, json_object *o, const char *path, svg_fmt fmt);
void fmt_mbps(char *buf, size_t len, double bytes_per_second);	/* "123.4 MB/s" */
void fmt_bytes(char *buf, size_t len, double bytes);		/* "64 MiB" */

/* ---- plots every result shares ----------------------------------------- */

/**
 * struct lat_series - one latency histogram to draw
 * @label: legend text
 * @colour: series colour
 * @hist: a hist_json() object
 */
struct lat_series {
	const char *label;
	const char *colour;
	json_object *hist;
};

/**
 * lat_plots() - the percentile curve of each histogram in one chart, and
 * the histograms' buckets (hist_json()'s "histogram") in another, each
 * with its table of numbers; what a series lacks is said in a note
 * @out: where
 * @what: what is measured ("job r", "step latency"), for the titles
 * @s: the series
 * @n: how many (at most SVG_MAX_LEGEND are drawn)
 */
void lat_plots(FILE *out, const char *what, const struct lat_series *s, size_t n);

/**
 * time_plot() - one time-series chart and its table of min, mean and max
 * @out: where
 * @title: chart title
 * @ylabel: vertical axis title with the unit
 * @scale: linear or log
 * @fmt: value format
 * @t: times in seconds, @n of them
 * @n: samples
 * @labels: series names
 * @colours: series colours
 * @v: the values, series-major (@nr_series rows of @n); NaN for a gap
 * @nr_series: series
 */
void time_plot(FILE *out, const char *title, const char *ylabel, enum svg_scale scale,
	       svg_fmt fmt, const double *t, size_t n, const char *const *labels,
	       const char *const *colours, const double *v, size_t nr_series);

/* ---- one page per kind of result --------------------------------------- */

void html_run(FILE *out, json_object *root);
void html_block_trace(FILE *out, json_object *job);
void html_qualify(FILE *out, json_object *root);
void html_generic(FILE *out, json_object *root);

#endif /* BLKQUAL_REPORT_HTML_H */
