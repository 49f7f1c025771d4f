// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_text.c - blkqual fleet's text report
 *
 * Read by a person, at 10 devices or 100,000: what is wrong first (the
 * verdict, failures, outliers, files that gave nothing), each kind a
 * bounded number of lines with the rest counted; then one table per group,
 * whose lines hold counts, never a list of every device.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet.h"
#include "report_util.h"
#include "table.h"

/* Lines of one kind in the text; -o json lists every one. */
#define FLEET_TEXT_LINES 50

/* Devices named in a group table's outlier cell. */
#define FLEET_CELL_NAMED 3

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void fmt_z(char *buf, size_t len, double z)
{
	if (isinf(z))
		snprintf(buf, len, "%sinf", z < 0 ? "-" : "");
	else
		snprintf(buf, len, "%.1f", z);
}

static void fmt_diff(char *buf, size_t len, double diff)
{
	if (isnan(diff))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100 * diff);
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "(none)";
}

/* "N files are not JSON results: a, b, c and N more" on one line; nothing when none. */
static void print_unread(FILE *out, const struct fleet_unread *u, const char *one,
			 const char *many)
{
	if (!u->n)
		return;
	fprintf(out, "%zu %s:", u->n, u->n == 1 ? one : many);
	for (size_t i = 0; i < u->names.n; i++)
		fprintf(out, "%s %s", i ? "," : "", u->names.v[i]);
	if (u->n > u->names.n)
		fprintf(out, " and %zu more", u->n - u->names.n);
	fprintf(out, " (the first: %s)\n", u->first);
}

/*
 * The first word of @a that @b does not have, cut and with control
 * characters shown as '?': a profile's text is many lines, a job's
 * options can be long, and the line about them is one line.
 */
static bool first_word_not_in(const char *a, const char *b, char *out, size_t len)
{
	static const char space[] = " \t\r\n";

	for (a += strspn(a, space); *a; a += strspn(a, space)) {
		size_t n = strcspn(a, space), cut = n + 4 <= len ? n : len - 4;
		const char *p = b;
		bool found = false;

		for (p += strspn(p, space); *p && !found; p += strspn(p, space)) {
			size_t m = strcspn(p, space);

			found = m == n && !strncmp(a, p, n);
			p += m;
		}
		if (!found) {
			for (size_t i = 0; i < cut; i++)
				out[i] = (unsigned char)a[i] < 0x20 || a[i] == 0x7f ? '?' : a[i];
			strcpy(out + cut, n > cut ? "..." : "");
			return true;
		}
		a += n;
	}
	return false;
}

/* Results whose figures of another job were set aside, on one line. */
static void print_other_job(FILE *out, const struct fleet *f)
{
	const struct fleet_device *first = NULL;
	const char *usual = NULL;
	char theirs[64], ours[64];
	size_t named = 0;

	if (!f->nr_other_job_devs)
		return;
	fprintf(out, "%zu result%s from another job than most of its group ran, not compared:",
		f->nr_other_job_devs, f->nr_other_job_devs == 1 ? " is" : "s are");
	for (size_t d = 0; d < f->nr_devs && named < FLEET_NAMED; d++) {
		if (!f->devs[d].other_metric)
			continue;
		first = first ? first : &f->devs[d];
		fprintf(out, "%s %s", named++ ? "," : "", f->devs[d].file);
	}
	if (f->nr_other_job_devs > named)
		fprintf(out, " and %zu more", f->nr_other_job_devs - named);
	for (size_t m = 0; first->group >= 0 && m < f->groups[first->group].nr_metrics; m++)
		if (!strcmp(f->groups[first->group].metrics[m].name, first->other_metric))
			usual = f->groups[first->group].metrics[m].workload;
	if (usual && first_word_not_in(first->other_workload, usual, theirs, sizeof(theirs))) {
		if (!first_word_not_in(usual, first->other_workload, ours, sizeof(ours)))
			snprintf(ours, sizeof(ours), "without it");
		fprintf(out, " (the first ran %s for %s, where most ran %s)\n", theirs,
			first->other_metric, ours);
	} else {
		fprintf(out, " (the first ran %s with other options; -o json gives them)\n",
			first->other_metric);
	}
}

/* "a 1.2k (-48.0%, z -9.1, worse), b ... and 4 more" */
static void outlier_cell(char *buf, size_t len, const struct fleet *f,
			 const struct fleet_metric *fm)
{
	size_t named = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < fm->n; i++) {
		const struct fleet_point *p = &fm->pts[i];
		char v[48], z[32], d[32];
		size_t used = strlen(buf);

		if (!p->outlier)
			continue;
		if (named++ >= FLEET_CELL_NAMED) {
			n++;
			continue;
		}
		fleet_fmt(v, sizeof(v), fm->unit, p->v);
		fmt_z(z, sizeof(z), p->z);
		fmt_diff(d, sizeof(d), p->diff);
		snprintf(buf + used, len - used, "%s%s %s (%s, z %s, %s)", used ? ", " : "",
			 f->devs[p->dev].id, v, d, z, p->worse ? "worse" : "better");
	}
	if (n)
		snprintf(buf + strlen(buf), len - strlen(buf), " and %zu more", n);
}

static void print_group(FILE *out, const struct fleet *f, const struct fleet_group *g)
{
	static const char *const heads[] = { "metric", "n", "median", "MAD", "spread", "min",
					     "max", "outliers" };
	struct table t;

	/* Counts, not names: a group of thousands is one line, not thousands. */
	fprintf(out, "\nmodel %s, firmware %s: %zu device%s on %zu host%s", g->model,
		or_none(g->firmware), g->nr_devs, plural(g->nr_devs), g->nr_hosts,
		plural(g->nr_hosts));
	if (g->nr_devs >= FLEET_MIN_JUDGED)
		fprintf(out, "; outlier beyond |z| %.2f (chance alone: %.2g)", g->z_threshold,
			g->chance);
	fputc('\n', out);
	if (g->nr_devs < FLEET_MIN_JUDGED)
		fprintf(out, "fewer than %d devices: the distribution is shown, no outlier is "
			"judged\n", FLEET_MIN_JUDGED);
	if (!g->nr_metrics) {
		fprintf(out, "no figures\n");
		return;
	}
	if (table_init(&t, heads, ARRAY_LEN(heads)))
		return;
	for (size_t m = 0; m < g->nr_metrics; m++) {
		const struct fleet_metric *fm = &g->metrics[m];
		char cell[4][48], outl[1024];

		fleet_fmt(cell[0], sizeof(cell[0]), fm->unit, fm->stats.median);
		fleet_fmt(cell[1], sizeof(cell[1]), fm->unit, fm->stats.mad);
		fleet_fmt(cell[2], sizeof(cell[2]), fm->unit, fm->min);
		fleet_fmt(cell[3], sizeof(cell[3]), fm->unit, fm->max);
		outlier_cell(outl, sizeof(outl), f, fm);
		table_cell(&t, "%s", fm->name);
		table_cell(&t, "%zu", fm->n);
		table_cell(&t, "%s", cell[0]);
		table_cell(&t, "%s", cell[1]);
		if (fm->stats.median)
			table_cell(&t, "%.1f%%", 100 * 1.4826 * fm->stats.mad / fabs(fm->stats.median));
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", cell[2]);
		table_cell(&t, "%s", cell[3]);
		table_cell(&t, "%s", outl);
	}
	table_print(&t, out);
	table_free(&t);
}

/* "3 devices, 1 group: 1 outlier device, no failures[, ...]" */
static void print_verdict(FILE *out, const struct fleet *f, const struct fleet_reader *in)
{
	size_t unread = in->not_json.n + in->not_result.n;

	fprintf(out, "%zu device%s, %zu group%s: ", f->nr_devs, plural(f->nr_devs),
		f->nr_groups, plural(f->nr_groups));
	if (f->nr_outlier_devs)
		fprintf(out, "%zu outlier device%s, ", f->nr_outlier_devs,
			plural(f->nr_outlier_devs));
	else
		fprintf(out, "no outliers, ");
	if (f->nr_failed_devs)
		fprintf(out, "%zu failed device%s", f->nr_failed_devs, plural(f->nr_failed_devs));
	else
		fprintf(out, "no failures");
	if (f->nr_other_job_devs)
		fprintf(out, ", %zu from another job", f->nr_other_job_devs);
	if (unread)
		fprintf(out, ", %zu unreadable file%s", unread, plural(unread));
	fputc('\n', out);
}

void fleet_text(FILE *out, const struct fleet *f, const struct fleet_reader *in)
{
	size_t lines = 0;

	fprintf(out, "blkqual fleet: %zu device%s on %zu host%s in %zu group%s; an outlier is "
		"at least %g%% from its group's median and beyond its group's |z| threshold "
		"(Bonferroni over the group's values at alpha %g, at least %g): chance alone "
		"would give about %.2g in all\n", f->nr_devs, plural(f->nr_devs),
		f->nr_hosts, plural(f->nr_hosts), f->nr_groups, plural(f->nr_groups),
		100 * f->min_diff, f->alpha, f->threshold, f->chance);
	print_verdict(out, f, in);
	if (f->nr_failed_devs) {
		fprintf(out, "\nfailures:\n");
		for (size_t d = 0; d < f->nr_devs; d++)
			for (size_t k = 0; k < f->devs[d].failures.n; k++)
				if (lines++ < FLEET_TEXT_LINES)
					fprintf(out, "  %s: %s\n", f->devs[d].id,
						f->devs[d].failures.v[k]);
		if (lines > FLEET_TEXT_LINES)
			fprintf(out, "  and %zu more (-o json lists every one)\n",
				lines - FLEET_TEXT_LINES);
	}
	if (f->nr_outlier_devs) {
		fprintf(out, "\noutliers:\n");
		lines = 0;
		for (size_t d = 0; d < f->nr_devs; d++) {
			const struct fleet_device *dev = &f->devs[d];

			if (dev->nr_outliers && lines++ < FLEET_TEXT_LINES)
				fprintf(out, "  %s: %d of %zu metrics (model %s, %s)\n", dev->id,
					dev->nr_outliers, dev->nr_vals, dev->model, dev->file);
		}
		if (lines > FLEET_TEXT_LINES)
			fprintf(out, "  and %zu more devices (-o json lists every one)\n",
				lines - FLEET_TEXT_LINES);
	}
	if (f->nr_other_job_devs || in->not_json.n || in->not_result.n)
		fputc('\n', out);
	print_other_job(out, f);
	print_unread(out, &in->not_json, "file is not a JSON result", "files are not JSON results");
	print_unread(out, &in->not_result, "file is not a run or qualify result",
		     "files are not run or qualify results");
	for (size_t g = 0; g < f->nr_groups; g++)
		print_group(out, f, &f->groups[g]);
	fputc('\n', out);
	print_verdict(out, f, in);
}
