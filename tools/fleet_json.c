// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_json.c - blkqual fleet -o json, written as it is made
 *
 * 100,000 devices' document is hundreds of megabytes as a json-c tree,
 * and needs none of it at once: each device, outlier, failure and
 * metric is built, written and freed in turn, laid out as json_print()
 * lays out a whole document.  What is wrong comes first, so a reader of a
 * large document can stop early.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet.h"
#include "report_util.h"

#define PRETTY (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		JSON_C_TO_STRING_NOSLASHESCAPE)

struct json_out {
	FILE *out;
	int depth;		/* of the container being written */
	bool first;		/* nothing in it yet */
	bool nomem;
};

/* A value, indented to the depth it is written at; @v is put. */
static void put_value(struct json_out *j, json_object *v)
{
	const char *s = v ? json_object_to_json_string_ext(v, PRETTY) : "null";

	if (!s) {
		j->nomem = true;
		s = "null";
	}
	/* JSON strings hold no raw newline: every one is a line of the layout. */
	for (const char *nl; (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(j->out, "%.*s\n%*s", (int)(nl - s), s, 2 * j->depth, "");
	fputs(s, j->out);
	json_object_put(v);
}

static void next_item(struct json_out *j)
{
	fprintf(j->out, "%s\n%*s", j->first ? "" : ",", 2 * j->depth, "");
	j->first = false;
}

static void put_key(struct json_out *j, const char *key)
{
	json_object *k = json_object_new_string(key);

	next_item(j);
	fprintf(j->out, "%s: ", k ? json_object_to_json_string_ext(k, PRETTY) : "\"\"");
	json_object_put(k);
}

static void put_member(struct json_out *j, const char *key, json_object *v)
{
	put_key(j, key);
	put_value(j, v);
}

static void open_container(struct json_out *j, const char *key, char bracket)
{
	if (key)
		put_key(j, key);
	else
		next_item(j);
	fputc(bracket, j->out);
	j->depth++;
	j->first = true;
}

static void close_container(struct json_out *j, char bracket)
{
	j->depth--;
	if (!j->first)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->out);
	j->first = false;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* A z-score; null for an infinite one (the metric's MAD was 0). */
static json_object *z_json(double z)
{
	return isfinite(z) ? json_object_new_double(z) : NULL;
}

static json_object *diff_json(double diff)
{
	return isnan(diff) ? NULL : json_dbl(100 * diff);
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
	json_object_object_add(o, "other_job_metric", str_or_null(d->other_metric));
	for (size_t k = 0; k < d->failures.n; k++)
		json_object_array_add(fails, json_object_new_string(d->failures.v[k]));
	json_object_object_add(o, "failures", fails);
	return o;
}

static json_object *outlier_json(const struct fleet *f, int g, const struct fleet_metric *m,
				 const struct fleet_point *p)
{
	json_object *x = json_object_new_object();

	json_object_object_add(x, "device", json_object_new_string(f->devs[p->dev].id));
	json_object_object_add(x, "group", json_object_new_int(g));
	json_object_object_add(x, "metric", json_object_new_string(m->name));
	json_object_object_add(x, "value", json_dbl(p->v));
	json_object_object_add(x, "median", json_dbl(m->stats.median));
	json_object_object_add(x, "z", z_json(p->z));
	json_object_object_add(x, "diff_pct", diff_json(p->diff));
	json_object_object_add(x, "side", json_object_new_string(p->worse ? "worse" : "better"));
	return x;
}

static json_object *point_json(const struct fleet *f, const struct fleet_point *p)
{
	json_object *v = json_object_new_object();

	json_object_object_add(v, "device", json_object_new_string(f->devs[p->dev].id));
	json_object_object_add(v, "value", json_dbl(p->v));
	json_object_object_add(v, "z", z_json(p->z));
	json_object_object_add(v, "diff_pct", diff_json(p->diff));
	json_object_object_add(v, "outlier", json_object_new_boolean(p->outlier));
	if (p->outlier)
		json_object_object_add(v, "side", json_object_new_string(p->worse ? "worse" :
									   "better"));
	return v;
}

static void put_metric(struct json_out *j, const struct fleet *f, const struct fleet_metric *m)
{
	open_container(j, NULL, '{');
	put_member(j, "name", json_object_new_string(m->name));
	put_member(j, "unit", json_object_new_string(fleet_unit_name(m->unit)));
	put_member(j, "better", json_object_new_string(m->unit == FLEET_NS ? "lower" : "higher"));
	put_member(j, "n", json_object_new_int64((int64_t)m->n));
	put_member(j, "median", json_dbl(m->stats.median));
	put_member(j, "mad", json_dbl(m->stats.mad));
	put_member(j, "min", json_dbl(m->min));
	put_member(j, "max", json_dbl(m->max));
	put_member(j, "workload", json_object_new_string(m->workload ? m->workload : ""));
	open_container(j, "values", '[');
	for (size_t i = 0; i < m->n; i++) {
		next_item(j);
		put_value(j, point_json(f, &m->pts[i]));
	}
	close_container(j, ']');
	close_container(j, '}');
}

static void put_group(struct json_out *j, const struct fleet *f, const struct fleet_group *g)
{
	open_container(j, NULL, '{');
	put_member(j, "model", json_object_new_string(g->model));
	put_member(j, "firmware", json_object_new_string(g->firmware));
	put_member(j, "device_count", json_object_new_int64((int64_t)g->nr_devs));
	put_member(j, "host_count", json_object_new_int64((int64_t)g->nr_hosts));
	put_member(j, "judged", json_object_new_boolean(g->nr_devs >= FLEET_MIN_JUDGED));
	put_member(j, "z_threshold", json_dbl(g->z_threshold));
	put_member(j, "chance_outliers_expected", json_dbl(g->chance));
	open_container(j, "metrics", '[');
	for (size_t m = 0; m < g->nr_metrics; m++)
		put_metric(j, f, &g->metrics[m]);
	close_container(j, ']');
	close_container(j, '}');
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

/* Devices whose figures of another job were set aside: counted, the first named. */
static json_object *other_job_json(const struct fleet *f)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array();
	const struct fleet_device *first = NULL;
	size_t named = 0;

	for (size_t d = 0; d < f->nr_devs && named < FLEET_NAMED; d++) {
		if (!f->devs[d].other_metric)
			continue;
		first = first ? first : &f->devs[d];
		json_object_array_add(files, json_object_new_string(f->devs[d].file));
		named++;
	}
	json_object_object_add(o, "count", json_object_new_int64((int64_t)f->nr_other_job_devs));
	json_object_object_add(o, "first_files", files);
	json_object_object_add(o, "first_metric", first ? json_object_new_string(
				       first->other_metric) : NULL);
	json_object_object_add(o, "first_workload", first ? json_object_new_string(
				       first->other_workload) : NULL);
	return o;
}

int fleet_json(FILE *out, const struct fleet *f, const struct fleet_reader *in)
{
	struct json_out j = { .out = out, .first = true };
	json_object *u = json_object_new_object();

	fputc('{', out);
	j.depth = 1;
	put_member(&j, "schema_version", json_object_new_int(1));
	put_member(&j, "command", json_object_new_string("fleet"));
	put_member(&j, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	put_member(&j, "source", json_object_new_string(f->source));
	put_member(&j, "found", json_object_new_boolean(f->nr_outlier_devs || f->nr_failed_devs ||
						       f->nr_other_job_devs || in->not_json.n ||
						       in->not_result.n));
	put_member(&j, "outlier_devices", json_object_new_int64((int64_t)f->nr_outlier_devs));
	put_member(&j, "failed_devices", json_object_new_int64((int64_t)f->nr_failed_devs));
	put_member(&j, "other_job_devices", json_object_new_int64((int64_t)f->nr_other_job_devs));
	open_container(&j, "outliers", '[');
	for (size_t g = 0; g < f->nr_groups; g++)
		for (size_t m = 0; m < f->groups[g].nr_metrics; m++)
			for (size_t i = 0; i < f->groups[g].metrics[m].n; i++) {
				const struct fleet_metric *fm = &f->groups[g].metrics[m];

				if (!fm->pts[i].outlier)
					continue;
				next_item(&j);
				put_value(&j, outlier_json(f, (int)g, fm, &fm->pts[i]));
			}
	close_container(&j, ']');
	open_container(&j, "failures", '[');
	for (size_t d = 0; d < f->nr_devs; d++)
		for (size_t k = 0; k < f->devs[d].failures.n; k++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "device", json_object_new_string(f->devs[d].id));
			json_object_object_add(x, "failure",
					       json_object_new_string(f->devs[d].failures.v[k]));
			next_item(&j);
			put_value(&j, x);
		}
	close_container(&j, ']');
	json_object_object_add(u, "not_json", unread_json(&in->not_json));
	json_object_object_add(u, "not_result", unread_json(&in->not_result));
	put_member(&j, "unreadable", u);
	put_member(&j, "other_job", other_job_json(f));
	put_member(&j, "threshold", json_dbl(f->threshold));
	put_member(&j, "min_diff_pct", json_dbl(100 * f->min_diff));
	put_member(&j, "rule", rule_json(f));
	put_member(&j, "chance_outliers_expected", json_dbl(f->chance));
	put_member(&j, "min_devices_judged", json_object_new_int(FLEET_MIN_JUDGED));
	put_member(&j, "host_count", json_object_new_int64((int64_t)f->nr_hosts));
	open_container(&j, "groups", '[');
	for (size_t g = 0; g < f->nr_groups; g++)
		put_group(&j, f, &f->groups[g]);
	close_container(&j, ']');
	open_container(&j, "devices", '[');
	for (size_t d = 0; d < f->nr_devs; d++) {
		next_item(&j);
		put_value(&j, device_json(&f->devs[d]));
	}
	close_container(&j, ']');
	fputs("\n}\n", out);
	if (j.nomem)
		return -ENOMEM;
	return ferror(out) ? -EIO : 0;
}
