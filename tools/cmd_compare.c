// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - blkqual compare BASE NEW: regression, improvement or
 * noise, per metric, with an exit status a CI can act on
 *
 * The samples come from the result files (compare_load.c); the verdict is
 * the library's (lib/stats/verdict.c); this file parses options and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_stats.h"
#include "compare.h"
#include "report_util.h"

enum format { FMT_TABLE, FMT_MARKDOWN, FMT_JSON, FMT_TAP };

static const struct cmp_metric metrics[] = {
	{ "IOPS", "iops", HIGHER_IS_BETTER, "iops", "iops" },
	{ "bandwidth", "bytes_per_second", HIGHER_IS_BETTER, "bytes_per_second",
	  "bytes_per_second" },
	{ "mean latency", "ns", LOWER_IS_BETTER, "lat_ns/mean", "mean_ns" },
	{ "p50 latency", "ns", LOWER_IS_BETTER, "lat_ns/percentiles/50", NULL },
	{ "p99 latency", "ns", LOWER_IS_BETTER, "lat_ns/percentiles/99", "p99_ns" },
	{ "p99.9 latency", "ns", LOWER_IS_BETTER, "lat_ns/percentiles/99.9", NULL },
	{ "p99.99 latency", "ns", LOWER_IS_BETTER, "lat_ns/percentiles/99.99", NULL },
	{ "max latency", "ns", LOWER_IS_BETTER, "lat_ns/max", NULL },
};

static const struct cmp_metric cpu_metric = {
	"I/Os per CPU-second", "iops", HIGHER_IS_BETTER, "cpu_usage/ios_per_cpu_second", NULL,
};

struct row {
	const char *job;
	const char *dir;
	const struct cmp_metric *m;
	enum cmp_source sb, sn;
	struct bq_metric_cmp c;
};

struct compare {
	struct cli cli;
	double threshold;	/* fraction */
	double confidence;
	enum format format;
	bool force;
	struct cmp_side base, new;
	struct row *rows;
	int nr_rows;
	struct cmp_diff *diffs;
	int nr_diffs;
	struct cmp_stage *stages;	/* --trace=block runs on both sides */
	int nr_stages;
};

static int parse_pct(struct cli *cli, const char *opt, const char *arg, double lo, double hi,
		     double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || (*end && strcmp(end, "%")) || !(v > lo && v < hi))
		return cli_usage_error(cli, "--%s=%s: a percentage above %g and below %g", opt,
				       arg, lo, hi);
	*out = v / 100;
	return 0;
}

static int parse(struct compare *c, int argc, char **argv)
{
	enum { OPT_THRESHOLD = OPT_FIRST_PRIVATE, OPT_CONFIDENCE, OPT_FORCE };
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "output-format", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	static const char *const formats[] = { "table", "markdown", "json", "tap" };
	int opt;

	while ((opt = cli_getopt(&c->cli, argc, argv, "o:h", longopts)) != -1) {
		switch (opt) {
		case OPT_THRESHOLD:
			if (parse_pct(&c->cli, "threshold", optarg, 0, 1000, &c->threshold))
				return EXIT_BADINPUT;
			break;
		case OPT_CONFIDENCE:
			if (parse_pct(&c->cli, "confidence", optarg, 50, 100, &c->confidence))
				return EXIT_BADINPUT;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case 'o': {
			size_t k = 0;

			while (k < ARRAY_LEN(formats) && strcmp(optarg, formats[k]))
				k++;
			if (k == ARRAY_LEN(formats))
				return cli_usage_error(&c->cli, "unknown output format '%s' (use "
						       "table, markdown, json or tap)", optarg);
			c->format = (enum format)k;
			break;
		}
		default:
			return EXIT_BADINPUT;
		}
	}
	if (argc - optind != 2)
		return cli_usage_error(&c->cli, "needs BASE and NEW (usage: %s)", c->cli.usage);
	return 0;
}

/* The rows' metrics, for the library's verdict; NULL on no memory. */
static struct bq_metric_cmp **row_metrics(const struct compare *c)
{
	struct bq_metric_cmp **v = calloc((size_t)c->nr_rows + 1, sizeof(*v));

	for (int i = 0; v && i < c->nr_rows; i++)
		v[i] = &c->rows[i].c;
	return v;
}

static int add_row(struct compare *c, const char *job, const char *dir,
		   const struct cmp_metric *m)
{
	double *b = NULL, *n = NULL;
	struct row r = { .job = job, .dir = dir, .m = m }, *grown;

	int nb = cmp_samples(&c->base, job, dir, m, &b, &r.sb);
	int nn = cmp_samples(&c->new, job, dir, m, &n, &r.sn);

	if (nb && nn) {
		r.c.higher_is_better = m->sense == HIGHER_IS_BETTER;
		r.c.intervals = r.sb == SRC_INTERVALS || r.sn == SRC_INTERVALS;
		bq_metric_judge(&r.c, b, nb, n, nn, c->confidence);
		grown = realloc(c->rows, sizeof(*grown) * (size_t)(c->nr_rows + 1));
		if (grown) {
			c->rows = grown;
			c->rows[c->nr_rows++] = r;
		}
	}
	free(b);
	free(n);
	return 0;
}

static enum bq_verdict overall(const struct compare *c)
{
	struct bq_metric_cmp **v = row_metrics(c);
	enum bq_verdict o = v ? bq_verdict_overall(v, c->nr_rows) : BQ_VERDICT_UNKNOWN;

	free(v);
	return o;
}

static void fmt_value(char *buf, size_t len, const struct cmp_metric *m, double v)
{
	if (!strcmp(m->unit, "ns")) {
		fmt_lat(buf, len, v);
	} else if (!strcmp(m->unit, "bytes_per_second")) {
		fmt_size(buf, len, (uint64_t)v);
		strncat(buf, "/s", len - strlen(buf) - 1);
	} else {
		fmt_count(buf, len, v);
	}
}

static void fmt_change(char *buf, size_t len, double ch)
{
	snprintf(buf, len, "%+.1f%%", ch * 100);
}

static void row_texts(const struct compare *c, const struct row *r, char *b, char *n,
		      char *ch, char *ci, char *p, size_t len)
{
	char lo[24], hi[24];

	fmt_value(b, len, r->m, r->c.base);
	fmt_value(n, len, r->m, r->c.new);
	fmt_change(ch, len, r->c.change);
	fmt_change(lo, sizeof(lo), r->c.lo);
	fmt_change(hi, sizeof(hi), r->c.hi);
	if (isnan(r->c.p)) {
		snprintf(ci, len, "-");
		snprintf(p, len, "-");
	} else {
		snprintf(ci, len, "[%s, %s]", lo, hi);
		snprintf(p, len, "%.3g", r->c.p);
	}
}

static void print_diffs(const struct compare *c, FILE *out, const char *prefix)
{
	for (int i = 0; i < c->nr_diffs; i++) {
		const struct cmp_diff *d = &c->diffs[i];

		fprintf(out, "%s%s %s differs: %s -> %s\n", prefix,
			d->severity ? "warning:" : "note:", d->what, d->base, d->new);
	}
}

static void runs_needed_text(char *buf, size_t len, const struct row *r)
{
	if (r->c.runs_needed > 0)
		snprintf(buf, len, "%s %s%s%s could only have seen %.1f%% and needs %d runs a side",
			 r->job, r->dir, *r->dir ? " " : "", r->m->name, r->c.detectable * 100,
			 r->c.runs_needed);
	else
		snprintf(buf, len, "%s %s%s%s needs more than 1000 runs a side", r->job, r->dir,
			 *r->dir ? " " : "", r->m->name);
}

/*
 * An inconclusive verdict says what would settle it: the first metric
 * (in table order, so IOPS before the tails) and the most demanding one,
 * with the runs a side each needs at the variances seen.
 */
static void inconclusive_line(const struct compare *c, FILE *out, const char *prefix)
{
	const struct row *first = NULL, *worst = NULL;
	int n = 0, intervals = 0;
	char text[256];

	for (int i = 0; i < c->nr_rows; i++) {
		const struct row *r = &c->rows[i];

		if (r->c.v != BQ_VERDICT_INCONCLUSIVE)
			continue;
		n++;
		intervals += !r->c.welch;
		if (!r->c.welch)
			continue;
		if (!first)
			first = r;
		if (!worst || r->c.runs_needed < 0 ||
		    (worst->c.runs_needed >= 0 && r->c.runs_needed > worst->c.runs_needed))
			worst = r;
	}
	if (!n)
		return;
	fprintf(out, "%sinconclusive: %d metric%s could not have shown a change of %.3g%%", prefix,
		n, n == 1 ? "" : "s", c->threshold * 100);
	if (intervals)
		fprintf(out, "; intervals of single runs cannot show how runs differ: use blkqual "
			"run --repeat N");
	if (first) {
		runs_needed_text(text, sizeof(text), first);
		fprintf(out, "; %s", text);
	}
	if (worst && worst != first) {
		runs_needed_text(text, sizeof(text), worst);
		fprintf(out, "; the most demanding: %s", text);
	}
	fputc('\n', out);
}

static void print_table(const struct compare *c, FILE *out, bool markdown)
{
	char b[64], n[64], ch[64], ci[64], p[64], head[160];
	enum bq_verdict v = overall(c);

	snprintf(head, sizeof(head), "threshold %.3g%%, confidence %.3g%%", c->threshold * 100,
		 c->confidence * 100);
	if (markdown) {
		fprintf(out, "**blkqual compare: %s** (%s)\n\n", bq_verdict_name(v), head);
		print_diffs(c, out, "- ");
		if (c->nr_diffs)
			fputc('\n', out);
		fprintf(out, "| job | dir | metric | base | new | change | %.3g%% CI | p | "
			"samples | verdict |\n", c->confidence * 100);
		fprintf(out, "|---|---|---|---:|---:|---:|---|---:|---|---|\n");
	} else {
		print_diffs(c, out, "");
		fprintf(out, "%-12s %-5s %-19s %10s %10s %8s %-19s %7s %-7s %s\n", "job", "dir",
			"metric", "base", "new", "change", "CI", "p", "samples", "verdict");
	}
	for (int i = 0; i < c->nr_rows; i++) {
		const struct row *r = &c->rows[i];
		char samples[32];

		row_texts(c, r, b, n, ch, ci, p, 64);
		snprintf(samples, sizeof(samples), "%d/%d", r->c.nb, r->c.nn);
		if (markdown)
			fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n",
				r->job, *r->dir ? r->dir : "-", r->m->name, b, n, ch, ci, p,
				samples, r->c.v == BQ_VERDICT_REGRESSION ? "**" : "", bq_verdict_name(r->c.v),
				r->c.v == BQ_VERDICT_REGRESSION ? "**" : "");
		else
			fprintf(out, "%-12s %-5s %-19s %10s %10s %8s %-19s %7s %-7s %s\n", r->job,
				*r->dir ? r->dir : "-", r->m->name, b, n, ch, ci, p, samples,
				bq_verdict_name(r->c.v));
	}
	if (!markdown)
		fprintf(out, "\nverdict: %s (%s; samples from %s vs %s)\n", bq_verdict_name(v),
			head, c->nr_rows ? cmp_source_name(c->rows[0].sb) : "-",
			c->nr_rows ? cmp_source_name(c->rows[0].sn) : "-");
	if (v == BQ_VERDICT_INCONCLUSIVE)
		inconclusive_line(c, out, markdown ? "\n" : "");
	else if (c->nr_rows && (c->rows[0].sb == SRC_INTERVALS || c->rows[0].sn == SRC_INTERVALS))
		fprintf(out, "%sthe samples are intervals of single runs, which cannot show how "
			"much runs differ from each other; use blkqual run --repeat N (N >= 6) "
			"for a sound verdict\n", markdown ? "\n" : "note: ");
	else if (v == BQ_VERDICT_UNKNOWN)
		fprintf(out, "%sone sample on a side gives no noise estimate; use blkqual run "
			"--repeat N (N >= 6), --interval, or a directory of results\n",
			markdown ? "\n" : "note: ");
}

/*
 * The block-layer stages, after the verdict and apart from it: which
 * stage moved says where a change happened, not whether it did.
 */
static void print_stages(const struct compare *c, FILE *out, bool markdown)
{
	int most = cmp_stage_moved_most(c->stages, c->nr_stages);

	if (!c->nr_stages)
		return;
	if (markdown)
		fprintf(out, "\n**block-layer stages** (--trace=block; medians of each side's files, "
			"not part of the verdict)\n\n| job | device | dir | stage | figure | base "
			"| new | change |\n|---|---|---|---|---|---:|---:|---:|\n");
	else
		fprintf(out, "\nblock-layer stages (--trace=block; medians of each side's files, not "
			"part of the verdict):\n%-12s %-10s %-5s %-7s %-6s %10s %10s %8s\n", "job",
			"device", "dir", "stage", "figure", "base", "new", "change");
	for (int i = 0; i < c->nr_stages; i++) {
		const struct cmp_stage *s = &c->stages[i];
		char b[32], n[32], ch[32];

		fmt_lat(b, sizeof(b), s->base);
		fmt_lat(n, sizeof(n), s->new);
		fmt_change(ch, sizeof(ch), s->change);
		fprintf(out, markdown ? "| %s | %s | %s | %s | %s | %s | %s | %s |\n" :
			"%-12s %-10s %-5s %-7s %-6s %10s %10s %8s\n", s->job, s->device, s->dir,
			s->stage, s->figure, b, n, ch);
	}
	fprintf(out, "%sthe stage that moved most: %s %s %s %s %+.1f%%\n", markdown ? "\n" : "",
		c->stages[most].device, c->stages[most].dir, c->stages[most].stage,
		c->stages[most].figure, c->stages[most].change * 100);
}

static json_object *stages_json(const struct compare *c)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < c->nr_stages; i++) {
		const struct cmp_stage *s = &c->stages[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "job", json_object_new_string(s->job));
		json_object_object_add(o, "device", json_object_new_string(s->device));
		json_object_object_add(o, "direction", json_object_new_string(s->dir));
		json_object_object_add(o, "stage", json_object_new_string(s->stage));
		json_object_object_add(o, "figure", json_object_new_string(s->figure));
		json_object_object_add(o, "base_ns", json_dbl(s->base));
		json_object_object_add(o, "new_ns", json_dbl(s->new));
		json_object_object_add(o, "change", json_dbl(s->change));
		json_object_array_add(arr, o);
	}
	return arr;
}

static void print_tap(const struct compare *c, FILE *out)
{
	char b[64], n[64], ch[64], ci[64], p[64];

	fprintf(out, "TAP version 13\n1..%d\n", c->nr_rows);
	print_diffs(c, out, "# ");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct row *r = &c->rows[i];

		row_texts(c, r, b, n, ch, ci, p, 64);
		fprintf(out, "%s %d - %s %s %s: %s -> %s (%s, p=%s) %s%s\n",
			r->c.v == BQ_VERDICT_REGRESSION ? "not ok" : "ok", i + 1, r->job, *r->dir ? r->dir : "",
			r->m->name, b, n, ch, p, r->c.v == BQ_VERDICT_UNKNOWN ||
			r->c.v == BQ_VERDICT_INCONCLUSIVE ? "# SKIP " : "", bq_verdict_name(r->c.v));
	}
	inconclusive_line(c, out, "# ");
}

static json_object *sources_json(const struct cmp_side *s)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array();

	json_object_object_add(o, "argument", json_object_new_string(s->arg));
	for (int i = 0; i < s->nr; i++)
		json_object_array_add(files, json_object_new_string(s->paths[i]));
	json_object_object_add(o, "files", files);
	return o;
}

static json_object *row_json(const struct row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "job", json_object_new_string(r->job));
	json_object_object_add(o, "direction", *r->dir ? json_object_new_string(r->dir) : NULL);
	json_object_object_add(o, "metric", json_object_new_string(r->m->name));
	json_object_object_add(o, "unit", json_object_new_string(r->m->unit));
	json_object_object_add(o, "higher_is_better",
			       json_object_new_boolean(r->m->sense == HIGHER_IS_BETTER));
	json_object_object_add(o, "base", json_dbl(r->c.base));
	json_object_object_add(o, "new", json_dbl(r->c.new));
	json_object_object_add(o, "change", json_dbl(r->c.change));
	json_object_object_add(o, "change_ci", isnan(r->c.p) ? NULL : json_object_new_array());
	if (!isnan(r->c.p)) {
		json_object_array_add(json_object_object_get(o, "change_ci"), json_dbl(r->c.lo));
		json_object_array_add(json_object_object_get(o, "change_ci"), json_dbl(r->c.hi));
	}
	json_object_object_add(o, "p_value", isnan(r->c.p) ? NULL : json_dbl(r->c.p));
	json_object_object_add(o, "base_samples", json_object_new_int(r->c.nb));
	json_object_object_add(o, "new_samples", json_object_new_int(r->c.nn));
	json_object_object_add(o, "base_source", json_object_new_string(cmp_source_name(r->sb)));
	json_object_object_add(o, "new_source", json_object_new_string(cmp_source_name(r->sn)));
	json_object_object_add(o, "test", isnan(r->c.p) ? NULL :
			       json_object_new_string(r->c.welch ? "welch-log" : "mann-whitney"));
	json_object_object_add(o, "detectable_change", r->c.welch && !isnan(r->c.p) ?
			       json_dbl(r->c.detectable) : NULL);
	json_object_object_add(o, "runs_needed", r->c.runs_needed ?
			       json_object_new_int(r->c.runs_needed) : NULL);
	json_object_object_add(o, "verdict", json_object_new_string(bq_verdict_name(r->c.v)));
	return o;
}

static int print_json(const struct compare *c, FILE *out)
{
	json_object *doc = json_object_new_object(), *rows = json_object_new_array();
	json_object *diffs = json_object_new_array();
	int ret;

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string("compare"));
	json_object_object_add(doc, "threshold", json_dbl(c->threshold));
	json_object_object_add(doc, "confidence", json_dbl(c->confidence));
	json_object_object_add(doc, "base", sources_json(&c->base));
	json_object_object_add(doc, "new", sources_json(&c->new));
	for (int i = 0; i < c->nr_diffs; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "what", json_object_new_string(c->diffs[i].what));
		json_object_object_add(d, "base", json_object_new_string(c->diffs[i].base));
		json_object_object_add(d, "new", json_object_new_string(c->diffs[i].new));
		json_object_object_add(d, "severity", json_object_new_string(
			c->diffs[i].severity == 2 ? "job" : c->diffs[i].severity ? "warning" :
			"note"));
		json_object_array_add(diffs, d);
	}
	json_object_object_add(doc, "differences", diffs);
	for (int i = 0; i < c->nr_rows; i++)
		json_object_array_add(rows, row_json(&c->rows[i]));
	json_object_object_add(doc, "metrics", rows);
	json_object_object_add(doc, "verdict", json_object_new_string(bq_verdict_name(overall(c))));
	if (c->nr_stages)
		json_object_object_add(doc, "block_stages", stages_json(c));
	ret = json_print(out, doc);
	json_object_put(doc);
	return ret;
}

/* Different jobs are refused; other differences are warned about on stderr too. */
static int check_diffs(struct compare *c)
{
	int jobs = 0, first = -1;

	for (int i = 0; i < c->nr_diffs; i++) {
		if (c->diffs[i].severity == 2 && jobs++ == 0)
			first = i;
		else if (c->diffs[i].severity == 1 && c->format != FMT_TABLE)
			fprintf(stderr, "blkqual compare: warning: %s differs: %s -> %s\n",
				c->diffs[i].what, c->diffs[i].base, c->diffs[i].new);
	}
	if (jobs && !c->force)
		return cli_usage_error(&c->cli, "the runs differ: %s: %s -> %s%s (--force compares "
				       "anyway)", c->diffs[first].what, c->diffs[first].base,
				       c->diffs[first].new, jobs > 1 ? ", and more" : "");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare c = {
		.cli = {
			.cmd = "compare",
			.usage = "blkqual compare [--threshold PCT] [--confidence PCT] [--force] "
				 "[-o table|markdown|json|tap] BASE NEW",
		},
		.threshold = 0.05,
		.confidence = 0.95,
	};
	const char **jobs = NULL;
	struct bq_metric_cmp **metrics_v;
	int ret, nr_jobs;

	ret = parse(&c, argc, argv);
	if (ret)
		return ret;
	ret = cmp_side_load(&c.cli, &c.base, argv[optind]);
	if (!ret)
		ret = cmp_side_load(&c.cli, &c.new, argv[optind + 1]);
	if (ret)
		goto out_free;
	if (cmp_env_diff(&c.base, &c.new, &c.diffs, &c.nr_diffs)) {
		ret = cli_usage_error(&c.cli, "out of memory");
		goto out_free;
	}
	ret = check_diffs(&c);
	if (ret)
		goto out_free;
	nr_jobs = cmp_job_names(&c.base, &jobs);
	for (int j = 0; j < nr_jobs; j++) {
		if (!jobs[j])
			continue;
		for (int d = 0; d < 2; d++)
			for (size_t k = 0; k < ARRAY_LEN(metrics); k++)
				add_row(&c, jobs[j], d ? "write" : "read", &metrics[k]);
		add_row(&c, jobs[j], "", &cpu_metric);
	}
	c.nr_stages = cmp_stages(&c.base, &c.new, jobs, nr_jobs, &c.stages);
	metrics_v = row_metrics(&c);
	if (!metrics_v || c.nr_stages < 0 ||
	    bq_verdict_decide(metrics_v, c.nr_rows, c.confidence, c.threshold)) {
		free(metrics_v);
		cli_error(&c.cli, "out of memory");
		ret = EXIT_REFUSED;
		goto out_free;
	}
	free(metrics_v);
	if (c.format == FMT_JSON)
		print_json(&c, stdout);
	else if (c.format == FMT_TAP)
		print_tap(&c, stdout);
	else
		print_table(&c, stdout, c.format == FMT_MARKDOWN);
	if (c.format == FMT_TABLE || c.format == FMT_MARKDOWN)
		print_stages(&c, stdout, c.format == FMT_MARKDOWN);
	switch (overall(&c)) {
	case BQ_VERDICT_REGRESSION:
		ret = EXIT_REFUSED;
		break;
	case BQ_VERDICT_INCONCLUSIVE:
		ret = EXIT_INCONCLUSIVE;
		break;
	default:
		ret = 0;
	}
out_free:
	free(jobs);
	free(c.stages);
	free(c.rows);
	free(c.diffs);
	cmp_side_free(&c.base);
	cmp_side_free(&c.new);
	return ret;
}
