// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_generic.c - the report page of any other result: its top-level
 * facts, every latency histogram found anywhere in it (a hist_json()
 * object: one with "percentiles") as percentile curves and histograms, and
 * every "intervals" or "samples" array as time series
 *
 * New commands get a useful page without the report knowing them; a page
 * of their own can come later.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

#define MAX_HISTS 24
#define MAX_SERIES_ARRAYS 4
#define MAX_FIELDS 32
#define MAX_DEPTH 8
#define HISTS_PER_PLOT 6

struct found {
	char path[MAX_HISTS][160];
	json_object *hist[MAX_HISTS];
	size_t nr_hists;
	size_t more_hists;
	char spath[MAX_SERIES_ARRAYS][160];
	json_object *series[MAX_SERIES_ARRAYS];
	size_t nr_series;
};

static bool is_sample_array(const char *key, json_object *v)
{
	return (!strcmp(key, "intervals") || !strcmp(key, "samples")) &&
	       json_object_is_type(v, json_type_array) &&
	       json_object_is_type(json_object_array_get_idx(v, 0), json_type_object);
}

static void walk(json_object *o, const char *path, int depth, struct found *f)
{
	char sub[160];

	if (depth > MAX_DEPTH)
		return;
	if (is_hist(o)) {
		if (f->nr_hists == MAX_HISTS) {
			f->more_hists++;
			return;
		}
		snprintf(f->path[f->nr_hists], sizeof(f->path[0]), "%s", *path ? path : "(top)");
		f->hist[f->nr_hists++] = o;
		return;
	}
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
			if (is_sample_array(k, v)) {
				if (f->nr_series < MAX_SERIES_ARRAYS) {
					snprintf(f->spath[f->nr_series], sizeof(f->spath[0]), "%s", sub);
					f->series[f->nr_series++] = v;
				}
				continue;
			}
			walk(v, sub, depth + 1, f);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);

		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			walk(json_object_array_get_idx(o, i), sub, depth + 1, f);
		}
	}
}

static void latency_section(FILE *out, struct found *f)
{
	html_heading(out, 2, "Latency");
	if (!f->nr_hists) {
		html_note(out, "No latency histogram in this result.");
		return;
	}
	for (size_t first = 0; first < f->nr_hists; first += HISTS_PER_PLOT) {
		struct lat_series s[HISTS_PER_PLOT];
		size_t n = 0;
		char what[96];

		for (size_t i = first; i < f->nr_hists && n < HISTS_PER_PLOT; i++, n++)
			s[n] = (struct lat_series){ f->path[i], report_palette[n % report_palette_len],
						    f->hist[i] };
		if (f->nr_hists > HISTS_PER_PLOT)
			snprintf(what, sizeof(what), "histograms %zu to %zu", first + 1, first + n);
		else
			snprintf(what, sizeof(what), "every histogram in the result");
		lat_plots(out, what, s, n);
	}
	if (f->more_hists)
		html_note(out, "%zu more latency histograms are in the result but not drawn.",
			  f->more_hists);
}

/*
 * What kind of quantity a field is, from its name: each kind gets its
 * own chart, since a chart has one vertical unit.
 */
enum kind { K_LATENCY, K_BYTES_RATE, K_MIB_RATE, K_RATE, K_PCT, K_COUNT, NR_KINDS };

static const struct {
	const char *title;
	const char *ylabel;
	enum svg_scale scale;
	svg_fmt fmt;
} kinds[NR_KINDS] = {
	[K_LATENCY] = { "Latency", "latency (log scale)", SVG_LOG, svg_fmt_ns },
	[K_BYTES_RATE] = { "Throughput", "bytes per second", SVG_LINEAR, svg_fmt_si },
	[K_MIB_RATE] = { "Throughput", "MiB per second", SVG_LINEAR, svg_fmt_plain },
	[K_RATE] = { "Rates", "per second", SVG_LINEAR, svg_fmt_si },
	[K_PCT] = { "Percentages", "percent", SVG_LINEAR, svg_fmt_plain },
	[K_COUNT] = { "Counts", "per interval", SVG_LINEAR, svg_fmt_si },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static enum kind kind_of(const char *name)
{
	if (ends_with(name, "_ns"))
		return K_LATENCY;
	if (ends_with(name, "bytes_per_second") || ends_with(name, "bps"))
		return K_BYTES_RATE;
	if (ends_with(name, "mib_per_second"))
		return K_MIB_RATE;
	if (ends_with(name, "per_second") || ends_with(name, "iops"))
		return K_RATE;
	if (ends_with(name, "_pct"))
		return K_PCT;
	return K_COUNT;
}

/* Numeric fields of a sample, nested objects as "a.b", into @names. */
static size_t fields(json_object *o, const char *prefix, char names[][96], size_t n)
{
	char sub[96];

	json_object_object_foreach(o, k, v) {
		snprintf(sub, sizeof(sub), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_object_is_type(v, json_type_object) && !*prefix) {
			n = fields(v, sub, names, n);
			continue;
		}
		if (!(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
			continue;
		/* The time axis, not a series. */
		if (!strcmp(sub, "t_ns") || !strcmp(sub, "dt_ns") || n == MAX_FIELDS)
			continue;
		snprintf(names[n++], sizeof(names[0]), "%s", sub);
	}
	return n;
}

static void series_section(FILE *out, const char *path, json_object *arr)
{
	size_t n = json_object_array_length(arr), nf;
	char names[MAX_FIELDS][96], title[256];
	double *t = calloc(n ? n : 1, sizeof(*t)), *v = calloc((n ? n : 1) * SVG_MAX_LEGEND,
							       sizeof(*v));
	bool have_t = true;

	html_heading(out, 2, "Time series: %s", path);
	if (!t || !v)
		goto out_free;
	nf = fields(json_object_array_get_idx(arr, 0), "", names, 0);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(arr, i);

		if (!jnum(s, "t_ns", &t[i]))
			have_t = false;
		t[i] /= 1e9;
	}
	/* Without timestamps, sample i is drawn at i seconds: say so. */
	if (!have_t) {
		for (size_t i = 0; i < n; i++)
			t[i] = (double)i;
		html_note(out, "The samples carry no \"t_ns\": they are drawn one second apart.");
	}
	if (n < 2 || !nf) {
		html_note(out, "%s: %s.", path, n < 2 ? "fewer than two samples" :
			  "no numeric fields in the samples");
		goto out_free;
	}
	for (int k = 0; k < NR_KINDS; k++) {
		const char *labels[SVG_MAX_LEGEND], *colours[SVG_MAX_LEGEND];
		size_t m = 0;

		for (size_t f = 0; f < nf && m < SVG_MAX_LEGEND; f++) {
			if (kind_of(names[f]) != (enum kind)k)
				continue;
			for (size_t i = 0; i < n; i++) {
				double x;
				char p[128];

				snprintf(p, sizeof(p), "%zu.%s", i, names[f]);
				v[m * n + i] = jnum(arr, p, &x) && !(k == K_LATENCY && x <= 0) ? x : NAN;
			}
			labels[m] = names[f];
			colours[m] = report_palette[m % report_palette_len];
			m++;
		}
		if (!m)
			continue;
		snprintf(title, sizeof(title), "%s over time, %s", kinds[k].title, path);
		time_plot(out, title, kinds[k].ylabel, kinds[k].scale, kinds[k].fmt, t, n, labels,
			  colours, v, m);
	}
out_free:
	free(t);
	free(v);
}

/**
 * html_generic() - the page of a result the report has no page for
 * @out: where
 * @root: the result
 */
void html_generic(FILE *out, json_object *root)
{
	static const char *const skip[] = { "schema_version", NULL };
	struct found *f = calloc(1, sizeof(*f));
	const char *cmd = jstr(root, "command");
	char title[128];

	snprintf(title, sizeof(title), "blkqual %s", cmd ? cmd : "result");
	html_begin(out, title);
	html_scalars(out, "The result", root, skip);
	if (!f) {
		html_note(out, "Out of memory: the plots are left out.");
		return;
	}
	walk(root, "", 0, f);
	latency_section(out, f);
	for (size_t i = 0; i < f->nr_series; i++)
		series_section(out, f->spath[i], f->series[i]);
	if (!f->nr_series)
		html_note(out, "No \"intervals\" or \"samples\" series in this result.");
	free(f);
}
