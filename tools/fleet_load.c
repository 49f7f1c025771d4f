// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_load.c - blkqual fleet's model: the figures of each device taken
 * from its run or qualify result, the devices grouped by model and
 * firmware, and every metric of a group judged with a robust z-score
 *
 * Results come from many hosts and possibly several blkqual versions, so
 * a missing figure is skipped, never guessed; only a file that is not a
 * result at all is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_stats.h"
#include "cli.h"
#include "fleet.h"
#include "html/report_html.h"
#include "report_util.h"

const char *fleet_unit_name(enum fleet_unit unit)
{
	switch (unit) {
	case FLEET_IOPS:
		return "iops";
	case FLEET_BPS:
		return "bytes_per_second";
	default:
		return "ns";
	}
}

void fleet_fmt(char *buf, size_t len, enum fleet_unit unit, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (unit == FLEET_IOPS)
		fmt_count(buf, len, v);
	else if (unit == FLEET_BPS)
		fmt_mbps(buf, len, v);
	else
		fmt_lat(buf, len, v);
}

static char *dupstr(const char *s)
{
	return strdup(s ? s : "");
}

static struct fleet_device *new_device(struct fleet *f, const char *host, const char *name,
				       const char *file)
{
	struct fleet_device *grown = realloc(f->devs, (f->nr_devs + 1) * sizeof(*grown)), *d;
	size_t len = strlen(host) + strlen(name) + 2;

	if (!grown)
		return NULL;
	f->devs = grown;
	d = &f->devs[f->nr_devs];
	memset(d, 0, sizeof(*d));
	d->group = -1;
	d->id = malloc(len);
	d->host = dupstr(host);
	d->file = dupstr(file);
	if (!d->id || !d->host || !d->file) {
		free(d->id);
		free(d->host);
		free(d->file);
		return NULL;
	}
	snprintf(d->id, len, "%s/%s", host, name);
	f->nr_devs++;
	return d;
}

static int add_value(struct fleet_device *d, const char *metric, enum fleet_unit unit, double v,
		     const char *workload)
{
	struct fleet_value *grown;

	if (!isfinite(v))
		return 0;
	grown = realloc(d->vals, (d->nr_vals + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	d->vals = grown;
	grown = &d->vals[d->nr_vals];
	grown->metric = strdup(metric);
	grown->workload = dupstr(workload);
	grown->unit = unit;
	grown->v = v;
	if (!grown->metric || !grown->workload) {
		free(grown->metric);
		free(grown->workload);
		return -ENOMEM;
	}
	d->nr_vals++;
	return 0;
}

static int add_failure(struct fleet_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_failure(struct fleet_device *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return bq_strv_add(&d->failures, buf);
}

/* A percentile of a hist_json() object: "99.99" is one key, not a path. */
static bool percentile(json_object *hist, const char *key, double *v)
{
	return jnum(json_object_object_get(jpath(hist, "percentiles"), key), "", v);
}

enum dir_figures {
	FIG_IOPS = 1,
	FIG_BPS = 2,
	FIG_MEAN = 4,
	FIG_P99 = 8,
	FIG_P9999 = 16,
};

/* The figures of one direction ({"ios","iops","bytes_per_second","lat_ns"}). */
static int add_direction(struct fleet_device *d, const char *prefix, const char *dir,
			 json_object *o, unsigned int figs, const char *workload)
{
	static const struct {
		unsigned int fig;
		const char *what;
		enum fleet_unit unit;
	} names[] = {
		{ FIG_IOPS, "IOPS", FLEET_IOPS },
		{ FIG_BPS, "MB/s", FLEET_BPS },
		{ FIG_MEAN, "mean latency", FLEET_NS },
		{ FIG_P99, "p99 latency", FLEET_NS },
		{ FIG_P9999, "p99.99 latency", FLEET_NS },
	};
	json_object *lat = jpath(o, "lat_ns");
	char metric[512];
	double ios, v;
	int ret = 0;

	if (!jnum(o, "ios", &ios) || ios <= 0)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(names) && !ret; i++) {
		bool have;

		if (!(figs & names[i].fig))
			continue;
		switch (names[i].fig) {
		case FIG_IOPS:
			have = jnum(o, "iops", &v);
			break;
		case FIG_BPS:
			have = jnum(o, "bytes_per_second", &v);
			break;
		case FIG_MEAN:
			have = is_hist(lat) && jnum(lat, "mean", &v);
			break;
		case FIG_P99:
			have = is_hist(lat) && percentile(lat, "99", &v);
			break;
		default:
			have = is_hist(lat) && percentile(lat, "99.99", &v);
			break;
		}
		if (!have)
			continue;
		snprintf(metric, sizeof(metric), "%s: %s %s", prefix, dir, names[i].what);
		ret = add_value(d, metric, names[i].unit, v, workload);
	}
	return ret;
}

/* "KIND (no model)" when the device reports none: loop devices, files. */
static int set_identity(struct fleet_device *d, json_object *dev, const char *path)
{
	const char *model = jstr(dev, "model"), *kind = jstr(dev, "kind");
	char buf[256];

	if (!model || !*model)
		model = jstr(dev, "vendor");
	if (!model || !*model) {
		snprintf(buf, sizeof(buf), "%s (no model)", kind && *kind ? kind : "unknown");
		model = buf;
	}
	d->model = dupstr(model);
	d->firmware = dupstr(jstr(dev, "firmware"));
	d->serial = dupstr(jstr(dev, "serial"));
	d->path = dupstr(path ? path : jstr(dev, "path"));
	return d->model && d->firmware && d->serial && d->path ? 0 : -ENOMEM;
}

/* The job as its options give it, less the file: the same on every device. */
static char *job_workload(json_object *job)
{
	size_t n, len = 0;
	json_object *args = jarr(job, "job_args", &n);
	char *s;

	for (size_t i = 0; i < n; i++) {
		const char *a = json_object_get_string(json_object_array_get_idx(args, i));

		len += a ? strlen(a) + 1 : 0;
	}
	s = calloc(1, len + 1);
	for (size_t i = 0; s && i < n; i++) {
		const char *a = json_object_get_string(json_object_array_get_idx(args, i));

		if (!a || !strncmp(a, "--filename=", 11))
			continue;
		strcat(s, a);
		strcat(s, " ");
	}
	return s;
}

static int load_run(struct fleet_device *d, json_object *root, char *err, size_t errlen)
{
	static const char *const dirs[] = { "read", "write" };
	size_t nr_jobs, nt;
	json_object *jobs = jarr(root, "jobs", &nr_jobs);
	json_object *tgt;
	int ret;

	if (!nr_jobs) {
		snprintf(err, errlen, "a run result without jobs");
		return -EINVAL;
	}
	d->kind = "run";
	jarr(json_object_array_get_idx(jobs, 0), "targets", &nt);
	tgt = nt ? jpath(json_object_array_get_idx(jobs, 0), "targets.0") : NULL;
	ret = set_identity(d, jpath(tgt, "device"), jstr(tgt, "path"));
	if (!ret && json_object_get_boolean(jpath(root, "interrupted")))
		ret = add_failure(d, "the run was interrupted");
	for (size_t j = 0; j < nr_jobs && !ret; j++) {
		json_object *job = json_object_array_get_idx(jobs, j);
		const char *name = jstr(job, "name");
		char prefix[256], *workload = job_workload(job);

		if (!workload)
			return -ENOMEM;
		snprintf(prefix, sizeof(prefix), "%s", name ? name : "job");
		for (size_t k = 0; k < 2 && !ret; k++) {
			json_object *t = jpath(jpath(job, "total"), dirs[k]);
			double errors;

			ret = add_direction(d, prefix, dirs[k], t, FIG_IOPS | FIG_BPS | FIG_MEAN |
					    FIG_P99, workload);
			if (!ret && jnum(t, "errors", &errors) && errors > 0)
				ret = add_failure(d, "job %s: %.0f %s errors", prefix, errors, dirs[k]);
		}
		free(workload);
	}
	return ret;
}

/* Which figures a qualification step's cells are about. */
static unsigned int step_figures(const char *kind)
{
	if (kind && !strcmp(kind, "iops"))
		return FIG_IOPS | FIG_P99;
	if (kind && !strcmp(kind, "throughput"))
		return FIG_BPS;
	if (kind && !strcmp(kind, "latency"))
		return FIG_MEAN | FIG_P99 | FIG_P9999;
	return FIG_IOPS | FIG_BPS | FIG_MEAN | FIG_P99;
}

/* A criterion's number in its unit: "7.20ms", "812.0k IOPS", "85.1 MB/s". */
static void fmt_in_unit(char *buf, size_t len, double v, const char *unit)
{
	if (!unit)
		unit = "";
	if (!strcmp(unit, "ns")) {
		fmt_lat(buf, len, v);
	} else if (!strcmp(unit, "bytes_per_second")) {
		fmt_mbps(buf, len, v);
	} else if (!strcmp(unit, "iops")) {
		fmt_count(buf, len, v);
		strncat(buf, " IOPS", len - strlen(buf) - 1);
	} else {
		snprintf(buf, len, "%.6g%s%s", v, *unit ? " " : "", unit);
	}
}

static int criteria_failures(struct fleet_device *d, json_object *root)
{
	size_t n;
	json_object *crit = jarr(root, "criteria", &n);
	int ret = 0, failed = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		json_object *c = json_object_array_get_idx(crit, i);
		json_object *pass = jpath(c, "pass");
		const char *text = jstr(c, "text"), *note = jstr(c, "note");
		const char *unit = jstr(c, "unit");
		char measured[64], bound[64];
		double v;

		if (!json_object_is_type(pass, json_type_boolean) || json_object_get_boolean(pass))
			continue;
		failed++;
		if (!jnum(c, "measured", &v)) {
			ret = add_failure(d, "criterion \"%s\" failed: not measured%s%s",
					  text ? text : "?", note && *note ? ": " : "",
					  note ? note : "");
			continue;
		}
		fmt_in_unit(measured, sizeof(measured), v, unit);
		if (jnum(c, "bound", &v))
			fmt_in_unit(bound, sizeof(bound), v, unit);
		else
			snprintf(bound, sizeof(bound), "?");
		ret = add_failure(d, "criterion \"%s\" failed: measured %s, bound %s %s",
				  text ? text : "?", measured, jstr(c, "op") ? jstr(c, "op") : "?",
				  bound);
	}
	if (!ret && !failed && d->verdict && strcmp(d->verdict, "pass")) {
		const char *note = jstr(root, "verdict_note");

		ret = add_failure(d, "qualification verdict \"%s\"%s%s", d->verdict,
				  note && *note ? ": " : "", note ? note : "");
	}
	return ret;
}

static int load_qualify(struct fleet_device *d, json_object *root)
{
	size_t nr_steps;
	json_object *steps = jarr(root, "steps", &nr_steps);
	const char *profile = jstr(root, "profile.name");
	const char *workload = jstr(root, "profile.text");
	int ret;

	d->kind = "qualify";
	d->verdict = jstr(root, "verdict") ? strdup(jstr(root, "verdict")) : NULL;
	ret = set_identity(d, jpath(root, "device"), NULL);
	if (!ret)
		ret = criteria_failures(d, root);
	if (!ret && json_object_get_boolean(jpath(root, "interrupted")))
		ret = add_failure(d, "the qualification was interrupted");
	for (size_t s = 0; s < nr_steps && !ret; s++) {
		json_object *step = json_object_array_get_idx(steps, s);
		unsigned int figs = step_figures(jstr(step, "kind"));
		size_t nr_cells;
		json_object *cells = jarr(step, "cells", &nr_cells);

		for (size_t c = 0; c < nr_cells && !ret; c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			const char *label = jstr(cell, "label");
			char prefix[256];

			snprintf(prefix, sizeof(prefix), "%s %s %s", profile ? profile : "profile",
				 jstr(step, "name") ? jstr(step, "name") : "step", label ? label : "cell");
			ret = add_direction(d, prefix, "read", jpath(cell, "read"), figs, workload);
			if (!ret)
				ret = add_direction(d, prefix, "write", jpath(cell, "write"), figs,
						    workload);
		}
	}
	return ret;
}

int fleet_add_result(struct fleet *f, const char *host, const char *name, const char *file,
		     json_object *root, char *err, size_t errlen)
{
	const char *cmd = jstr(root, "command");
	struct fleet_device *d;
	size_t n;

	/* run results predate "command": they are known by their jobs. */
	if (cmd ? strcmp(cmd, "qualify") && strcmp(cmd, "run") : !jarr(root, "jobs", &n)) {
		snprintf(err, errlen, "neither a run nor a qualify result (%s%s)",
			 cmd ? "command " : "no \"command\" and no \"jobs\"", cmd ? cmd : "");
		return -EINVAL;
	}
	d = new_device(f, host, name, file);
	if (!d)
		return -ENOMEM;
	if (cmd && !strcmp(cmd, "qualify"))
		return load_qualify(d, root);
	return load_run(d, root, err, errlen);
}

int fleet_add_missing(struct fleet *f, const char *host, const char *name, const char *file,
		      const char *why)
{
	struct fleet_device *d = new_device(f, host, name, file);

	if (!d)
		return -ENOMEM;
	d->kind = "missing";
	d->model = dupstr("");
	d->firmware = dupstr("");
	d->serial = dupstr("");
	d->path = dupstr("");
	if (!d->model || !d->firmware || !d->serial || !d->path)
		return -ENOMEM;
	return add_failure(d, "no result: %s", why && *why ? why : "(the note is empty)");
}

/* ---- judging ----------------------------------------------------------- */

static int find_group(struct fleet *f, const struct fleet_device *d)
{
	struct fleet_group *grown;

	for (size_t g = 0; g < f->nr_groups; g++)
		if (!strcmp(f->groups[g].model, d->model) &&
		    !strcmp(f->groups[g].firmware, d->firmware))
			return (int)g;
	grown = realloc(f->groups, (f->nr_groups + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	f->groups = grown;
	grown = &f->groups[f->nr_groups];
	memset(grown, 0, sizeof(*grown));
	grown->model = strdup(d->model);
	grown->firmware = strdup(d->firmware);
	if (!grown->model || !grown->firmware) {
		free(grown->model);
		free(grown->firmware);
		return -ENOMEM;
	}
	return (int)f->nr_groups++;
}

static int group_add(struct fleet_group *g, int dev)
{
	int *grown = realloc(g->devs, (g->nr_devs + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	g->devs = grown;
	g->devs[g->nr_devs++] = dev;
	return 0;
}

static struct fleet_metric *find_metric(struct fleet_group *g, const struct fleet_value *v)
{
	struct fleet_metric *grown;

	for (size_t m = 0; m < g->nr_metrics; m++)
		if (!strcmp(g->metrics[m].name, v->metric) && g->metrics[m].unit == v->unit)
			return &g->metrics[m];
	grown = realloc(g->metrics, (g->nr_metrics + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	g->metrics = grown;
	grown = &g->metrics[g->nr_metrics];
	memset(grown, 0, sizeof(*grown));
	grown->name = strdup(v->metric);
	if (!grown->name)
		return NULL;
	grown->unit = v->unit;
	g->nr_metrics++;
	return grown;
}

static int add_point(struct fleet_group *g, struct fleet *f, int dev, const struct fleet_value *v)
{
	struct fleet_metric *m = find_metric(g, v);
	struct fleet_point *grown;

	if (!m)
		return -ENOMEM;
	grown = realloc(m->pts, (m->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->pts = grown;
	m->pts[m->n++] = (struct fleet_point){ .dev = dev, .v = v->v, .z = 0, .diff = 0 };
	/* Compare against the first device's workload for this metric. */
	if (m->n > 1) {
		const struct fleet_device *first = &f->devs[m->pts[0].dev];

		for (size_t i = 0; i < first->nr_vals; i++)
			if (!strcmp(first->vals[i].metric, v->metric) &&
			    strcmp(first->vals[i].workload, v->workload))
				m->mixed = true;
	}
	return 0;
}

/*
 * The group's |z| threshold: Bonferroni's over every value it judges
 * (devices x metrics), never below --threshold, so that chance alone
 * gives a group an outlier with probability at most --alpha however
 * many devices it has; and how many chance alone would give.
 */
static void group_threshold(struct fleet *f, struct fleet_group *g)
{
	double tests = 0;

	for (size_t m = 0; m < g->nr_metrics; m++)
		tests += (double)g->metrics[m].n;
	g->z_threshold = bq_outlier_threshold(f->threshold, f->alpha, tests);
	g->chance = g->nr_devs >= FLEET_MIN_JUDGED ? bq_outlier_chance(g->z_threshold, tests) : 0;
	f->chance += g->chance;
}

static int judge(struct fleet *f, struct fleet_group *g, struct fleet_metric *m)
{
	/* The group size that counts is its devices', not this metric's values. */
	const struct bq_outlier_rule rule = {
		.threshold = g->z_threshold, .min_diff = f->min_diff, .min_group = 0,
	};
	struct bq_outlier *o = malloc(m->n * sizeof(*o));
	double *v = malloc(m->n * sizeof(*v));
	int ret = -ENOMEM;

	if (!v || !o)
		goto out_free;
	m->min = INFINITY;
	m->max = -INFINITY;
	for (size_t i = 0; i < m->n; i++) {
		v[i] = m->pts[i].v;
		m->min = fmin(m->min, v[i]);
		m->max = fmax(m->max, v[i]);
	}
	ret = bq_outliers(v, (int)m->n, &rule, &m->median, &m->mad, o);
	for (size_t i = 0; !ret && i < m->n; i++) {
		struct fleet_point *p = &m->pts[i];

		p->z = o[i].z;
		p->diff = o[i].diff;
		p->outlier = g->nr_devs >= FLEET_MIN_JUDGED && o[i].outlier;
		p->worse = m->unit == FLEET_NS ? p->v > m->median : p->v < m->median;
		if (p->outlier)
			f->devs[p->dev].nr_outliers++;
	}
out_free:
	free(v);
	free(o);
	return ret;
}

int fleet_analyse(struct fleet *f)
{
	struct bq_strv hosts = { 0 };
	int ret = 0;

	for (size_t d = 0; d < f->nr_devs && !ret; d++) {
		struct fleet_device *dev = &f->devs[d];
		int g;

		if (!bq_strv_contains(&hosts, dev->host))
			ret = bq_strv_add(&hosts, dev->host);
		if (ret || !strcmp(dev->kind, "missing"))
			continue;
		g = find_group(f, dev);
		ret = g < 0 ? g : group_add(&f->groups[g], (int)d);
		dev->group = g;
	}
	f->nr_hosts = hosts.n;
	bq_strv_free(&hosts);
	for (size_t g = 0; g < f->nr_groups && !ret; g++) {
		struct fleet_group *grp = &f->groups[g];

		for (size_t i = 0; i < grp->nr_devs && !ret; i++) {
			const struct fleet_device *dev = &f->devs[grp->devs[i]];

			for (size_t k = 0; k < dev->nr_vals && !ret; k++)
				ret = add_point(grp, f, grp->devs[i], &dev->vals[k]);
		}
		group_threshold(f, grp);
		for (size_t m = 0; m < grp->nr_metrics && !ret; m++)
			ret = judge(f, grp, &grp->metrics[m]);
	}
	for (size_t d = 0; d < f->nr_devs; d++) {
		f->nr_outlier_devs += f->devs[d].nr_outliers > 0;
		f->nr_failed_devs += f->devs[d].failures.n > 0;
	}
	return ret;
}

void fleet_free(struct fleet *f)
{
	for (size_t d = 0; d < f->nr_devs; d++) {
		struct fleet_device *dev = &f->devs[d];

		for (size_t i = 0; i < dev->nr_vals; i++) {
			free(dev->vals[i].metric);
			free(dev->vals[i].workload);
		}
		free(dev->vals);
		bq_strv_free(&dev->failures);
		free(dev->id);
		free(dev->host);
		free(dev->file);
		free(dev->path);
		free(dev->model);
		free(dev->firmware);
		free(dev->serial);
		free(dev->verdict);
	}
	free(f->devs);
	for (size_t g = 0; g < f->nr_groups; g++) {
		for (size_t m = 0; m < f->groups[g].nr_metrics; m++) {
			free(f->groups[g].metrics[m].name);
			free(f->groups[g].metrics[m].pts);
		}
		free(f->groups[g].metrics);
		free(f->groups[g].devs);
		free(f->groups[g].model);
		free(f->groups[g].firmware);
	}
	free(f->groups);
	memset(f, 0, sizeof(*f));
}
