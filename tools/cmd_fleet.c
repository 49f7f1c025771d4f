// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_fleet.c - blkqual fleet RESULTS_DIR: the results of many hosts'
 * devices side by side, grouped by model and firmware, the odd device out
 * and every failed qualification named
 *
 * RESULTS_DIR holds HOST/DEVICE.json, as tools/fleet/playbook.yml fetches
 * them, and HOST/DEVICE.failed for a device that gave no result.  Exit
 * status 1 when anything was found, so a fleet run can gate a rollout.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fleet.h"
#include "html/report_html.h"
#include "report_util.h"
#include "result_load.h"
#include "table.h"

/*
 * Files that gave no figures, of one kind: counted, the first few named,
 * and the first one's reason kept (all of it is said when nothing else
 * could be read).
 */
struct fleet_unread {
	size_t n;
	struct bq_strv names;
	char first[512];
};

#define FLEET_NAMED 5

struct fleet_cmd {
	struct cli cli;
	struct fleet f;
	struct bq_strv only;	/* --metric: keep metrics whose name contains one of these */
	const char *html;
	size_t nr_files;
	struct fleet_unread not_json;	/* broken JSON, empty files */
	struct fleet_unread not_result;	/* JSON, but not a result fleet reads */
	bool progress;			/* standard error is a terminal */
	size_t nr_seen;			/* files looked at, for the progress line */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && !strcmp(s + ls - lx, suffix);
}

static void keep_only(struct fleet_cmd *c, struct fleet_device *d)
{
	size_t kept = 0;

	if (!c->only.n)
		return;
	for (size_t i = 0; i < d->nr_vals; i++) {
		bool keep = false;

		for (size_t k = 0; k < c->only.n && !keep; k++)
			keep = strstr(d->vals[i].metric, c->only.v[k]);
		if (keep) {
			d->vals[kept++] = d->vals[i];
		} else {
			free(d->vals[i].metric);
			free(d->vals[i].workload);
		}
	}
	d->nr_vals = kept;
}

static int unread(struct fleet_cmd *c, struct fleet_unread *u, const char *path,
		  const char *why)
{
	c->nr_files--;
	if (!u->n++)
		snprintf(u->first, sizeof(u->first), "%s%s%s", strstr(why, path) ? "" : path,
			 strstr(why, path) ? "" : ": ", why);
	if (u->names.n < FLEET_NAMED && bq_strv_add(&u->names, path))
		return cli_usage_error(&c->cli, "out of memory");
	return 0;
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

static json_object *unread_json(const struct fleet_unread *u)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array();

	json_object_object_add(o, "count", json_object_new_int64((int64_t)u->n));
	for (size_t i = 0; i < u->names.n; i++)
		json_object_array_add(files, json_object_new_string(u->names.v[i]));
	json_object_object_add(o, "first_files", files);
	json_object_object_add(o, "first_reason", u->n ? json_object_new_string(u->first) : NULL);
	return o;
}

/* @base is the file name, @host NULL for a file outside a host directory. */
static int add_file(struct fleet_cmd *c, const char *path, const char *host, const char *base)
{
	char name[512], err[256] = "", why[512] = "";
	bool failed_note = ends_with(base, ".failed");
	json_object *root = NULL;
	int ret;

	snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - (failed_note ? 7 : 5)), base);
	c->nr_files++;
	/* Thousands of files take seconds: say how far it got, on a terminal only. */
	if (c->progress && !(++c->nr_seen % 1000))
		fprintf(stderr, "\rblkqual fleet: %zu files read", c->nr_seen);
	if (failed_note) {
		FILE *f = fopen(path, "r");

		if (!f)
			return cli_usage_error(&c->cli, "%s: %s", path, strerror(errno));
		/* The first line that says something. */
		while (fgets(why, sizeof(why), f) && strspn(why, " \t\r\n") == strlen(why))
			;
		fclose(f);
		why[strcspn(why, "\r\n")] = '\0';
		ret = fleet_add_missing(&c->f, host ? host : "-", name, path, why);
		goto out_ret;
	}
	/* A broken file among thousands is counted, not the end of the run. */
	c->cli.capture = err;
	c->cli.capture_len = sizeof(err);
	ret = result_load(&c->cli, path, &(const struct result_want){ .fio = true }, &root);
	c->cli.capture = NULL;
	if (ret)
		return unread(c, &c->not_json, path, err);
	/* blkqual fleet -o json > RESULTS/fleet.json must not trip the next run. */
	if (jstr(root, "command") && !strcmp(jstr(root, "command"), "fleet")) {
		json_object_put(root);
		c->nr_files--;
		return 0;
	}
	if (!host)
		host = jstr(root, "host.hostname");
	ret = fleet_add_result(&c->f, host && *host ? host : "-", name, path, root, err,
			       sizeof(err));
	json_object_put(root);
	if (ret == -EINVAL)
		return unread(c, &c->not_result, path, err);
	if (!ret)
		keep_only(c, &c->f.devs[c->f.nr_devs - 1]);
out_ret:
	if (ret) {
		cli_error(&c->cli, "%s: %s", path, strerror(-ret));
		return EXIT_REFUSED;
	}
	return 0;
}

static int no_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* RESULTS_DIR/HOST/NAME.json and NAME.failed; NAME.json directly in it too. */
static int add_dir(struct fleet_cmd *c, const char *dir, const char *host)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, no_hidden, alphasort), ret = 0;

	if (n < 0)
		return cli_usage_error(&c->cli, "%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *base = ents[i]->d_name;
		char path[4096];
		struct stat st;

		if (ret)
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, base);
		if (stat(path, &st)) {
			ret = cli_usage_error(&c->cli, "%s: %s", path, strerror(errno));
			goto next;
		}
		if (S_ISDIR(st.st_mode) && !host)
			ret = add_dir(c, path, base);
		else if (S_ISREG(st.st_mode) && (ends_with(base, ".json") ||
						 ends_with(base, ".failed")))
			ret = add_file(c, path, host, base);
next:
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/* ---- table ------------------------------------------------------------- */

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

static void print_group(FILE *out, const struct fleet *f, const struct fleet_group *g)
{
	static const char *const heads[] = { "metric", "n", "median", "MAD", "spread", "min",
					     "max", "outliers" };
	struct table t;

	/* Counts, not names: a group of thousands is one line, not thousands. */
	fprintf(out, "\nmodel %s, firmware %s: %zu device%s", g->model, or_none(g->firmware),
		g->nr_devs, g->nr_devs == 1 ? "" : "s");
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
		char cell[4][48], outl[1024] = "";

		fleet_fmt(cell[0], sizeof(cell[0]), fm->unit, fm->median);
		fleet_fmt(cell[1], sizeof(cell[1]), fm->unit, fm->mad);
		fleet_fmt(cell[2], sizeof(cell[2]), fm->unit, fm->min);
		fleet_fmt(cell[3], sizeof(cell[3]), fm->unit, fm->max);
		for (size_t i = 0; i < fm->n; i++) {
			const struct fleet_point *p = &fm->pts[i];
			char v[48], z[32], d[32];
			size_t used = strlen(outl);

			if (!p->outlier)
				continue;
			fleet_fmt(v, sizeof(v), fm->unit, p->v);
			fmt_z(z, sizeof(z), p->z);
			fmt_diff(d, sizeof(d), p->diff);
			snprintf(outl + used, sizeof(outl) - used, "%s%s %s (%s, z %s, %s)",
				 used ? ", " : "", f->devs[p->dev].id, v, d, z,
				 p->worse ? "worse" : "better");
		}
		if (fm->mixed)
			snprintf(outl + strlen(outl), sizeof(outl) - strlen(outl),
				 "%snot the same workload on every device", *outl ? "; " : "");
		table_cell(&t, "%s", fm->name);
		table_cell(&t, "%zu", fm->n);
		table_cell(&t, "%s", cell[0]);
		table_cell(&t, "%s", cell[1]);
		if (fm->median)
			table_cell(&t, "%.1f%%", 100 * 1.4826 * fm->mad / fabs(fm->median));
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", cell[2]);
		table_cell(&t, "%s", cell[3]);
		table_cell(&t, "%s", outl);
	}
	table_print(&t, out);
	table_free(&t);
}

static void print_table(FILE *out, const struct fleet *f)
{
	fprintf(out, "blkqual fleet: %zu device%s on %zu host%s in %zu group%s; an outlier is "
		"at least %g%% from its group's median and beyond its group's |z| threshold "
		"(Bonferroni over the group's values at alpha %g, at least %g): chance alone "
		"would give about %.2g in all\n", f->nr_devs, f->nr_devs == 1 ? "" : "s",
		f->nr_hosts, f->nr_hosts == 1 ? "" : "s", f->nr_groups,
		f->nr_groups == 1 ? "" : "s", 100 * f->min_diff, f->alpha, f->threshold, f->chance);
	for (size_t g = 0; g < f->nr_groups; g++)
		print_group(out, f, &f->groups[g]);
	if (f->nr_outlier_devs) {
		fprintf(out, "\noutliers:\n");
		for (size_t d = 0; d < f->nr_devs; d++) {
			const struct fleet_device *dev = &f->devs[d];

			if (dev->nr_outliers)
				fprintf(out, "  %s: %d of %zu metrics (model %s, %s)\n", dev->id,
					dev->nr_outliers, dev->nr_vals, dev->model, dev->file);
		}
	}
	if (f->nr_failed_devs) {
		fprintf(out, "\nfailures:\n");
		for (size_t d = 0; d < f->nr_devs; d++)
			for (size_t k = 0; k < f->devs[d].failures.n; k++)
				fprintf(out, "  %s: %s\n", f->devs[d].id, f->devs[d].failures.v[k]);
	}
	fprintf(out, "\n%zu device%s, %zu group%s: ", f->nr_devs, f->nr_devs == 1 ? "" : "s",
		f->nr_groups, f->nr_groups == 1 ? "" : "s");
	if (f->nr_outlier_devs)
		fprintf(out, "%zu outlier device%s, ", f->nr_outlier_devs,
			f->nr_outlier_devs == 1 ? "" : "s");
	else
		fprintf(out, "no outliers, ");
	if (f->nr_failed_devs)
		fprintf(out, "%zu failed device%s\n", f->nr_failed_devs,
			f->nr_failed_devs == 1 ? "" : "s");
	else
		fprintf(out, "no failures\n");
}

/* ---- JSON -------------------------------------------------------------- */

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* A z-score; null for an infinite one (the metric's MAD was 0). */
static json_object *z_json(double z)
{
	return isfinite(z) ? json_object_new_double(z) : NULL;
}

static json_object *device_json(const struct fleet_device *d)
{
	json_object *o = json_object_new_object(), *fails = json_object_new_array();

	json_object_object_add(o, "id", json_object_new_string(d->id));
	json_object_object_add(o, "host", json_object_new_string(d->host));
	json_object_object_add(o, "file", json_object_new_string(d->file));
	json_object_object_add(o, "result", json_object_new_string(d->kind));
	json_object_object_add(o, "path", json_object_new_string(d->path));
	json_object_object_add(o, "model", json_object_new_string(d->model));
	json_object_object_add(o, "firmware", json_object_new_string(d->firmware));
	json_object_object_add(o, "serial", json_object_new_string(d->serial));
	json_object_object_add(o, "verdict", str_or_null(d->verdict));
	json_object_object_add(o, "group", d->group < 0 ? NULL : json_object_new_int(d->group));
	json_object_object_add(o, "outlier_metrics", json_object_new_int(d->nr_outliers));
	for (size_t k = 0; k < d->failures.n; k++)
		json_object_array_add(fails, json_object_new_string(d->failures.v[k]));
	json_object_object_add(o, "failures", fails);
	return o;
}

static json_object *metric_json(const struct fleet *f, const struct fleet_metric *m)
{
	json_object *o = json_object_new_object(), *vals = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "unit", json_object_new_string(fleet_unit_name(m->unit)));
	json_object_object_add(o, "better", json_object_new_string(m->unit == FLEET_NS ?
								     "lower" : "higher"));
	json_object_object_add(o, "n", json_object_new_int((int)m->n));
	json_object_object_add(o, "median", json_dbl(m->median));
	json_object_object_add(o, "mad", json_dbl(m->mad));
	json_object_object_add(o, "min", json_dbl(m->min));
	json_object_object_add(o, "max", json_dbl(m->max));
	json_object_object_add(o, "same_workload", json_object_new_boolean(!m->mixed));
	for (size_t i = 0; i < m->n; i++) {
		const struct fleet_point *p = &m->pts[i];
		json_object *v = json_object_new_object();

		json_object_object_add(v, "device", json_object_new_string(f->devs[p->dev].id));
		json_object_object_add(v, "value", json_dbl(p->v));
		json_object_object_add(v, "z", z_json(p->z));
		json_object_object_add(v, "diff_pct", isnan(p->diff) ? NULL :
				       json_dbl(100 * p->diff));
		json_object_object_add(v, "outlier", json_object_new_boolean(p->outlier));
		if (p->outlier)
			json_object_object_add(v, "side", json_object_new_string(p->worse ?
										   "worse" : "better"));
		json_object_array_add(vals, v);
	}
	json_object_object_add(o, "values", vals);
	return o;
}

/* Which rule judged the outliers, so a reader can tell what "outlier" meant. */
static json_object *rule_json(const struct fleet *f)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string("bonferroni"));
	json_object_object_add(o, "alpha", json_dbl(f->alpha));
	json_object_object_add(o, "z_floor", json_dbl(f->threshold));
	json_object_object_add(o, "min_diff_pct", json_dbl(100 * f->min_diff));
	json_object_object_add(o, "text", json_object_new_string(
		"per group, |z| beyond the Bonferroni threshold for the values it judges "
		"(devices x metrics) at alpha, and never below z_floor; and at least "
		"min_diff_pct from the median"));
	return o;
}

static json_object *fleet_json(const struct fleet *f)
{
	json_object *doc = json_object_new_object(), *devs = json_object_new_array();
	json_object *groups = json_object_new_array(), *outl = json_object_new_array();

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string("fleet"));
	json_object_object_add(doc, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	json_object_object_add(doc, "source", json_object_new_string(f->source));
	json_object_object_add(doc, "threshold", json_dbl(f->threshold));
	json_object_object_add(doc, "min_diff_pct", json_dbl(100 * f->min_diff));
	json_object_object_add(doc, "rule", rule_json(f));
	json_object_object_add(doc, "chance_outliers_expected", json_dbl(f->chance));
	json_object_object_add(doc, "min_devices_judged", json_object_new_int(FLEET_MIN_JUDGED));
	for (size_t d = 0; d < f->nr_devs; d++)
		json_object_array_add(devs, device_json(&f->devs[d]));
	for (size_t g = 0; g < f->nr_groups; g++) {
		const struct fleet_group *grp = &f->groups[g];
		json_object *o = json_object_new_object(), *ids = json_object_new_array();
		json_object *ms = json_object_new_array();

		json_object_object_add(o, "model", json_object_new_string(grp->model));
		json_object_object_add(o, "firmware", json_object_new_string(grp->firmware));
		for (size_t i = 0; i < grp->nr_devs; i++)
			json_object_array_add(ids, json_object_new_string(f->devs[grp->devs[i]].id));
		json_object_object_add(o, "devices", ids);
		json_object_object_add(o, "judged",
				       json_object_new_boolean(grp->nr_devs >= FLEET_MIN_JUDGED));
		json_object_object_add(o, "z_threshold", json_dbl(grp->z_threshold));
		json_object_object_add(o, "chance_outliers_expected", json_dbl(grp->chance));
		for (size_t m = 0; m < grp->nr_metrics; m++) {
			const struct fleet_metric *fm = &grp->metrics[m];

			json_object_array_add(ms, metric_json(f, fm));
			for (size_t i = 0; i < fm->n; i++) {
				const struct fleet_point *p = &fm->pts[i];
				json_object *x;

				if (!p->outlier)
					continue;
				x = json_object_new_object();
				json_object_object_add(x, "device",
						       json_object_new_string(f->devs[p->dev].id));
				json_object_object_add(x, "group", json_object_new_int((int)g));
				json_object_object_add(x, "metric", json_object_new_string(fm->name));
				json_object_object_add(x, "value", json_dbl(p->v));
				json_object_object_add(x, "median", json_dbl(fm->median));
				json_object_object_add(x, "z", z_json(p->z));
				json_object_object_add(x, "diff_pct", isnan(p->diff) ? NULL :
						       json_dbl(100 * p->diff));
				json_object_object_add(x, "side", json_object_new_string(
						       p->worse ? "worse" : "better"));
				json_object_array_add(outl, x);
			}
		}
		json_object_object_add(o, "metrics", ms);
		json_object_array_add(groups, o);
	}
	/* What is wrong first: a reader of 100,000 devices' document stops early. */
	json_object_object_add(doc, "found", json_object_new_boolean(f->nr_outlier_devs ||
								     f->nr_failed_devs));
	json_object_object_add(doc, "outlier_devices", json_object_new_int((int)f->nr_outlier_devs));
	json_object_object_add(doc, "failed_devices", json_object_new_int((int)f->nr_failed_devs));
	json_object_object_add(doc, "outliers", outl);
	json_object_object_add(doc, "groups", groups);
	json_object_object_add(doc, "devices", devs);
	json_object_object_add(doc, "found", json_object_new_boolean(f->nr_outlier_devs ||
								     f->nr_failed_devs));
	return doc;
}

/* ---- command ----------------------------------------------------------- */

static int emit_html(FILE *out, void *arg)
{
	return fleet_html(out, arg);
}

static int parse_number(struct fleet_cmd *c, const char *opt, const char *arg, double lo,
			double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || v < lo || v > hi)
		return cli_usage_error(&c->cli, "--%s=%s: expected a number from %g to %g", opt,
				       arg, lo, hi);
	*out = v;
	return 0;
}

static int parse(struct fleet_cmd *c, int argc, char **argv)
{
	enum { OPT_THRESHOLD = OPT_FIRST_PRIVATE, OPT_MIN_DIFF, OPT_HTML, OPT_METRIC, OPT_ALPHA };
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "min-diff", required_argument, NULL, OPT_MIN_DIFF },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "output-format", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	double pct;
	int opt;

	c->f.threshold = 3.5;
	c->f.alpha = 0.05;
	c->f.min_diff = 0.10;
	while ((opt = cli_getopt(&c->cli, argc, argv, "o:h", longopts)) != -1) {
		switch (opt) {
		case OPT_THRESHOLD:
			if (parse_number(c, "threshold", optarg, 0, 1e6, &c->f.threshold))
				return EXIT_BADINPUT;
			break;
		case OPT_ALPHA:
			if (parse_number(c, "alpha", optarg, 1e-12, 0.5, &c->f.alpha))
				return EXIT_BADINPUT;
			break;
		case OPT_MIN_DIFF:
			if (parse_number(c, "min-diff", optarg, 0, 1e6, &pct))
				return EXIT_BADINPUT;
			c->f.min_diff = pct / 100;
			break;
		case OPT_HTML:
			if (!*optarg)
				return cli_usage_error(&c->cli, "--html: empty file name");
			c->html = optarg;
			break;
		case OPT_METRIC:
			if (!*optarg)
				return cli_usage_error(&c->cli, "--metric: empty text");
			if (bq_strv_add(&c->only, optarg))
				return cli_usage_error(&c->cli, "out of memory");
			break;
		case 'o':
			if (cli_parse_output(&c->cli, optarg))
				return EXIT_BADINPUT;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind >= argc)
		return cli_usage_error(&c->cli, "needs a results directory (usage: %s)",
				       c->cli.usage);
	if (c->html && cli_check_output(&c->cli, "--html", c->html))
		return EXIT_BADINPUT;
	return 0;
}

static int run(struct fleet_cmd *c, int argc, char **argv)
{
	char source[4096] = "";
	int ret;

	c->progress = isatty(STDERR_FILENO);
	for (int i = optind; i < argc; i++) {
		struct stat st;
		const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

		snprintf(source + strlen(source), sizeof(source) - strlen(source), "%s%s",
			 i > optind ? " " : "", argv[i]);
		if (stat(argv[i], &st))
			return cli_usage_error(&c->cli, "%s: %s", argv[i], strerror(errno));
		if (S_ISDIR(st.st_mode))
			ret = add_dir(c, argv[i], NULL);
		else if (ends_with(base, ".json") || ends_with(base, ".failed"))
			ret = add_file(c, argv[i], NULL, base);
		else
			ret = cli_usage_error(&c->cli, "%s: neither a results directory nor a "
					      ".json result", argv[i]);
		if (ret)
			return ret;
	}
	if (c->progress && c->nr_seen >= 1000)
		fputs("\r\033[K", stderr);
	/* Nothing readable: the first file's own reason is the one line. */
	if (!c->nr_files && (c->not_json.n || c->not_result.n))
		return cli_usage_error(&c->cli, "%s", c->not_json.n ? c->not_json.first :
					     c->not_result.first);
	if (!c->nr_files)
		return cli_usage_error(&c->cli, "%s: no results (expected HOST/DEVICE.json files)",
				       source);
	c->f.source = source;
	ret = fleet_analyse(&c->f);
	if (ret) {
		cli_error(&c->cli, "%s", strerror(-ret));
		return EXIT_REFUSED;
	}
	if (c->cli.output == OUTPUT_JSON) {
		json_object *doc = fleet_json(&c->f), *u = json_object_new_object();

		json_object_object_add(u, "not_json", unread_json(&c->not_json));
		json_object_object_add(u, "not_result", unread_json(&c->not_result));
		json_object_object_add(doc, "unreadable", u);
		ret = json_print(stdout, doc);
		json_object_put(doc);
	} else {
		print_table(stdout, &c->f);
		print_unread(stdout, &c->not_json, "file is not a JSON result",
			     "files are not JSON results");
		print_unread(stdout, &c->not_result, "file is not a run or qualify result",
			     "files are not run or qualify results");
	}
	if (!ret && c->html)
		ret = strcmp(c->html, "-") ? write_atomically(c->html, emit_html, &c->f) :
		      fleet_html(stdout, &c->f);
	if (ret) {
		cli_error(&c->cli, "%s: %s", c->html ? c->html : "(stdout)", strerror(-ret));
		return EXIT_REFUSED;
	}
	c->f.source = NULL;
	return c->f.nr_outlier_devs || c->f.nr_failed_devs || c->not_json.n ||
	       c->not_result.n ? 1 : 0;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_cmd c = {
		.cli = {
			.cmd = "fleet",
			.usage = "blkqual fleet [-o table|json] [--html FILE] [--threshold Z] [--alpha P] "
				 "[--min-diff PCT] [--metric TEXT]... RESULTS_DIR|RESULT.json...",
		},
	};
	int ret = parse(&c, argc, argv);

	if (!ret)
		ret = run(&c, argc, argv);
	fleet_free(&c.f);
	bq_strv_free(&c.only);
	bq_strv_free(&c.not_json.names);
	bq_strv_free(&c.not_result.names);
	return ret;
}
