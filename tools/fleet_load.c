// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_load.c - blkqual fleet's model: the figures of each device taken
 * from its run or qualify result
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

static int device_init(struct fleet_device *d, const char *host, const char *name,
		       const char *file)
{
	memset(d, 0, sizeof(*d));
	d->group = -1;
	d->host = dupstr(host);
	d->file = dupstr(file);
	if (!d->host || !d->file || asprintf(&d->id, "%s/%s", host, name) < 0) {
		d->id = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int add_value(struct strpool *pool, struct fleet_device *d, const char *metric,
		     enum fleet_unit unit, double v, const char *workload)
{
	struct fleet_value *grown;

	if (!isfinite(v))
		return 0;
	grown = realloc(d->vals, (d->nr_vals + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	d->vals = grown;
	grown = &d->vals[d->nr_vals];
	grown->metric = strpool_get(pool, metric);
	grown->workload = strpool_get(pool, workload ? workload : "");
	grown->unit = unit;
	grown->v = v;
	if (!grown->metric || !grown->workload)
		return -ENOMEM;
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
static int add_direction(struct strpool *pool, struct fleet_device *d, const char *prefix,
			 const char *dir,
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
		ret = add_value(pool, d, metric, names[i].unit, v, workload);
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
		if (*s)
			strcat(s, " ");
		strcat(s, a);
	}
	return s;
}

static int load_run(struct strpool *pool, struct fleet_device *d, json_object *root, char *err,
		    size_t errlen)
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

			ret = add_direction(pool, d, prefix, dirs[k], t, FIG_IOPS | FIG_BPS |
					    FIG_MEAN | FIG_P99, workload);
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

static int load_qualify(struct strpool *pool, struct fleet_device *d, json_object *root)
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
			ret = add_direction(pool, d, prefix, "read", jpath(cell, "read"), figs,
					    workload);
			if (!ret)
				ret = add_direction(pool, d, prefix, "write", jpath(cell, "write"),
						    figs, workload);
		}
	}
	return ret;
}

int fleet_device_load(struct fleet *f, struct fleet_device *d, const char *host,
		      const char *name, const char *file, json_object *root, char *err,
		      size_t errlen)
{
	const char *cmd = jstr(root, "command");
	size_t n;
	int ret;

	memset(d, 0, sizeof(*d));
	/* run results predate "command": they are known by their jobs. */
	if (cmd ? strcmp(cmd, "qualify") && strcmp(cmd, "run") : !jarr(root, "jobs", &n)) {
		snprintf(err, errlen, "neither a run nor a qualify result (%s%s)",
			 cmd ? "command " : "no \"command\" and no \"jobs\"", cmd ? cmd : "");
		return -EINVAL;
	}
	ret = device_init(d, host, name, file);
	if (ret)
		return ret;
	if (cmd && !strcmp(cmd, "qualify"))
		return load_qualify(&f->strings, d, root);
	return load_run(&f->strings, d, root, err, errlen);
}

int fleet_device_missing(struct fleet_device *d, const char *host, const char *name,
			 const char *file, const char *why)
{
	int ret = device_init(d, host, name, file);

	if (ret)
		return ret;
	d->kind = "missing";
	d->model = dupstr("");
	d->firmware = dupstr("");
	d->serial = dupstr("");
	d->path = dupstr("");
	if (!d->model || !d->firmware || !d->serial || !d->path)
		return -ENOMEM;
	return add_failure(d, "no result: %s", why && *why ? why : "(the note is empty)");
}

void fleet_device_free(struct fleet_device *d)
{
	free(d->vals);
	bq_strv_free(&d->failures);
	free(d->id);
	free(d->host);
	free(d->file);
	free(d->path);
	free(d->model);
	free(d->firmware);
	free(d->serial);
	free(d->verdict);
	memset(d, 0, sizeof(*d));
}
