// SPDX-License-Identifier: GPL-2.0-only
/*
 * qualify_report.c - a qualification's verdict for people (pass/fail
 * table first, then each step and its matrix) and for programs (the JSON
 * contract that `blkqual report` reads; Documentation/qualify.rst)
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli.h"
#include "qualify.h"
#include "report_util.h"
#include "run_report.h"
#include "table.h"
#include "verify_report.h"

static const char *const dir_names[BQ_NR_DIRS] = { "read", "write" };

double qrun_runtime_s(const struct qrun *q)
{
	return q->prior_s + ((double)bq_now_ns() - (double)q->t0_ns) / 1e9;
}

void fmt_duration(char *buf, size_t len, double s)
{
	uint64_t t = s > 0 ? (uint64_t)(s + 0.5) : 0;

	if (s > 0 && s < 10 && fabs(s - round(s)) > 0.01)
		snprintf(buf, len, "%.3gs", s);
	else if (t >= 3600)
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", t / 60, t % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", t);
}

/* ---- cells ------------------------------------------------------------------ */

json_object *qualify_cell_json(const struct bq_qcell *c, const struct bq_qresult *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "label", json_object_new_string(c->label));
	json_object_object_add(o, "rw", json_object_new_string(bq_qcell_rw(c)));
	json_object_object_add(o, "read_pct", json_object_new_int((int)c->read_pct));
	json_object_object_add(o, "bs", json_u64(c->bs));
	json_object_object_add(o, "iodepth", json_u64(c->iodepth));
	json_object_object_add(o, "numjobs", json_u64(c->numjobs));
	json_object_object_add(o, "runtime_ns", json_u64(r->runtime_ns));
	for (int d = 0; d < BQ_NR_DIRS; d++)
		json_object_object_add(o, dir_names[d], dir_json(&r->d[d], r->runtime_ns));
	return o;
}

/*
 * What a resumed qualification needs of a round: counts, and the
 * histogram's buckets for the rounds the window may still merge.
 */
json_object *qualify_raw_json(const struct bq_qresult *r, bool buckets)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "runtime_ns", json_u64(r->runtime_ns));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		const struct bq_dir_result *x = &r->d[d];
		json_object *dj = json_object_new_object(), *b = NULL;

		json_object_object_add(dj, "ios", json_u64(x->ios));
		json_object_object_add(dj, "bytes", json_u64(x->bytes));
		json_object_object_add(dj, "errors", json_u64(x->errors));
		json_object_object_add(dj, "count", json_u64(x->lat.count));
		json_object_object_add(dj, "min", json_u64(x->lat.min));
		json_object_object_add(dj, "max", json_u64(x->lat.max));
		json_object_object_add(dj, "sum", json_object_new_double(x->lat.sum));
		json_object_object_add(dj, "sumsq", json_object_new_double(x->lat.sumsq));
		if (buckets && x->lat.buckets) {
			b = json_object_new_array();
			for (unsigned int i = 0; i < BQ_HIST_BUCKETS; i++) {
				json_object *pair;

				if (!x->lat.buckets[i])
					continue;
				pair = json_object_new_array();
				json_object_array_add(pair, json_object_new_int((int)i));
				json_object_array_add(pair, json_u64(x->lat.buckets[i]));
				json_object_array_add(b, pair);
			}
		}
		json_object_object_add(dj, "buckets", b);
		json_object_object_add(o, dir_names[d], dj);
	}
	return o;
}

static uint64_t get_u64(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_uint64(v) : 0;
}

static double get_dbl(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

/**
 * qualify_raw_restore() - a round's cell back from qualify_raw_json()
 * @o: the JSON
 * @r: receives it; its histograms have buckets only when the JSON had them
 *
 * Return: 0, -EINVAL for malformed JSON, or -ENOMEM.
 */
int qualify_raw_restore(json_object *o, struct bq_qresult *r)
{
	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	r->runtime_ns = get_u64(o, "runtime_ns");
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		struct bq_dir_result *x = &r->d[d];
		json_object *dj, *b;

		if (!json_object_object_get_ex(o, dir_names[d], &dj) ||
		    !json_object_is_type(dj, json_type_object))
			return -EINVAL;
		x->ios = get_u64(dj, "ios");
		x->bytes = get_u64(dj, "bytes");
		x->errors = get_u64(dj, "errors");
		if (json_object_object_get_ex(dj, "buckets", &b) &&
		    json_object_is_type(b, json_type_array)) {
			if (bq_hist_init(&x->lat)) {
				bq_qresult_free(r);
				return -ENOMEM;
			}
			for (size_t i = 0; i < json_object_array_length(b); i++) {
				json_object *pair = json_object_array_get_idx(b, i);
				int idx = json_object_get_int(json_object_array_get_idx(pair, 0));

				if (idx < 0 || idx >= BQ_HIST_BUCKETS) {
					bq_qresult_free(r);
					return -EINVAL;
				}
				x->lat.buckets[idx] = json_object_get_uint64(
					json_object_array_get_idx(pair, 1));
			}
		}
		x->lat.count = get_u64(dj, "count");
		x->lat.min = get_u64(dj, "min");
		x->lat.max = get_u64(dj, "max");
		x->lat.sum = get_dbl(dj, "sum");
		x->lat.sumsq = get_dbl(dj, "sumsq");
	}
	return 0;
}

/* ---- data integrity (verify=) -------------------------------------------- */

/**
 * qualify_verify_restore() - the counts of a state file's "verify" object
 * @sum: receives them (the bad blocks' details stay with the session that
 *       found them)
 * @o: verify_json() of an earlier session
 *
 * Return: 0, or -EINVAL when @o is not such an object.
 */
int qualify_verify_restore(struct bq_verify_report *sum, json_object *o)
{
	json_object *counts;

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	sum->blocks_checked = get_u64(o, "blocks_checked");
	sum->bytes_checked = get_u64(o, "bytes_checked");
	sum->bad = get_u64(o, "bad_blocks");
	sum->not_checked = get_u64(o, "not_checked");
	sum->in_flight_accepted = get_u64(o, "in_flight_accepted");
	sum->ahead = get_u64(o, "ahead_of_state");
	if (json_object_object_get_ex(o, "counts", &counts))
		for (int c = 0; c < BQ_VCLASS_NR; c++)
			sum->count[c] = get_u64(counts,
						bq_verify_class_name((enum bq_verify_class)c));
	return 0;
}

/* ---- JSON ----------------------------------------------------------------------- */

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *qualify_device_json(const struct qrun *q)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(q->target));
	json_object_object_add(o, "name", json_object_new_string(q->dev.name));
	json_object_object_add(o, "kind", json_object_new_string(bq_dev_kind_name(q->dev.kind)));
	json_object_object_add(o, "model", json_object_new_string(q->dev.model));
	json_object_object_add(o, "serial", json_object_new_string(q->dev.serial));
	json_object_object_add(o, "firmware", json_object_new_string(q->dev.firmware));
	json_object_object_add(o, "size_bytes", json_u64(q->dev.size));
	json_object_object_add(o, "logical_block_size", json_u64(q->dev.q.logical_block_size));
	json_object_object_add(o, "tested_bytes", json_u64(q->plan.region));
	return o;
}

static json_object *window_json(const struct bq_steady_window *w)
{
	json_object *o = json_object_new_object();

	/* Round numbers, 1-based like rounds[].round. */
	json_object_object_add(o, "first", json_object_new_int(w->first + 1));
	json_object_object_add(o, "last", json_object_new_int(w->last + 1));
	json_object_object_add(o, "mean", json_dbl(w->mean));
	json_object_object_add(o, "min", json_dbl(w->min));
	json_object_object_add(o, "max", json_dbl(w->max));
	json_object_object_add(o, "slope", json_dbl(w->slope));
	json_object_object_add(o, "intercept", json_dbl(w->intercept));
	json_object_object_add(o, "range_ok", json_object_new_boolean(w->range_ok));
	json_object_object_add(o, "slope_ok", json_object_new_boolean(w->slope_ok));
	return o;
}

static json_object *steady_json(const struct bq_qstep_run *run, int d)
{
	const struct bq_steady_result *r = &run->steady[d];
	json_object *o = json_object_new_object(), *rounds = json_object_new_array();

	json_object_object_add(o, "state", json_object_new_string(bq_steady_state_name(r->state)));
	for (int i = 0; i < run->nr_rounds; i++)
		json_object_array_add(rounds, json_dbl(run->track[d][i]));
	json_object_object_add(o, "rounds", rounds);
	json_object_object_add(o, "window", run->nr_rounds >= run->sp.window ?
			       window_json(&r->latest) : NULL);
	json_object_object_add(o, "left_round", r->state == BQ_STEADY_LEFT ?
			       json_object_new_int(r->left_round + 1) : NULL);
	json_object_object_add(o, "reached_round", r->state == BQ_STEADY_REACHED ||
			       r->state == BQ_STEADY_LEFT ?
			       json_object_new_int(r->steady.last + 1) : NULL);
	return o;
}

static void track_label(char *buf, size_t len, const struct bq_qplan_step *ps, int d)
{
	const struct bq_cellsel *sel = &ps->step->track[d];
	char what[160], *colon;

	bq_cellsel_describe(sel, what, sizeof(what));
	colon = strstr(what, ": ");
	snprintf(buf, len, "%s %s", ps->cells[ps->track_cell[d]].label, colon ? colon + 2 : what);
}

/* A step's figures over its window, NULL when it did not run. */
static const struct bq_qresult *step_window(const struct qrun *q, int s)
{
	return q->qual.window ? q->qual.window[s] : NULL;
}

static json_object *step_json(const struct qrun *q, int s)
{
	const struct bq_qplan_step *ps = &q->plan.steps[s];
	const struct bq_qstep_run *run = &q->qual.runs[s];
	const struct bq_qresult *window = step_window(q, s);
	json_object *o = json_object_new_object(), *tracked = json_object_new_object();
	json_object *steady = json_object_new_object(), *cells = json_object_new_array();
	int first, last;

	json_object_object_add(o, "name", json_object_new_string(ps->step->name));
	json_object_object_add(o, "kind",
			       json_object_new_string(bq_step_kind_name(ps->step->kind)));
	json_object_object_add(o, "round_time_s", json_dbl((double)ps->step->round_ns / 1e9));
	json_object_object_add(o, "ramp_s", json_dbl((double)ps->step->ramp_ns / 1e9));
	json_object_object_add(o, "max_rounds", json_object_new_int(run->sp.max_rounds));
	json_object_object_add(o, "window_rounds", json_object_new_int(run->sp.window));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		char label[192];

		if (ps->track_cell[d] < 0) {
			json_object_object_add(tracked, dir_names[d], NULL);
			json_object_object_add(steady, dir_names[d], NULL);
			continue;
		}
		track_label(label, sizeof(label), ps, d);
		json_object_object_add(tracked, dir_names[d], json_object_new_string(label));
		json_object_object_add(steady, dir_names[d], steady_json(run, d));
	}
	json_object_object_add(o, "tracked", tracked);
	json_object_object_add(o, "steady", steady);
	json_object_object_add(o, "finished", json_object_new_boolean(
		run->nr_rounds && bq_qstep_finished(run)));
	json_object_object_add(o, "note", json_object_new_string(ps->note));
	json_object_object_add(o, "rounds", json_object_get(q->steps[s].rounds));
	bq_qstep_window(run, &first, &last);
	if (last >= 0) {
		json_object *w = json_object_new_array();

		json_object_array_add(w, json_object_new_int(first + 1));
		json_object_array_add(w, json_object_new_int(last + 1));
		json_object_object_add(o, "cells_from_rounds", w);
	} else {
		json_object_object_add(o, "cells_from_rounds", NULL);
	}
	for (int c = 0; window && c < ps->nr_cells; c++)
		json_object_array_add(cells, qualify_cell_json(&ps->cells[c], &window[c]));
	json_object_object_add(o, "cells", cells);
	return o;
}

static json_object *criterion_json(const struct bq_criterion *c,
				   const struct bq_criterion_result *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "text", json_object_new_string(c->text));
	json_object_object_add(o, "line", json_object_new_int(c->line));
	json_object_object_add(o, "metric", json_object_new_string(r->metric));
	json_object_object_add(o, "measured", isnan(r->measured) ? NULL : json_dbl(r->measured));
	json_object_object_add(o, "unit", json_object_new_string(bq_metric_unit(c->sel.metric)));
	json_object_object_add(o, "op", json_object_new_string(bq_cmp_name(c->op)));
	json_object_object_add(o, "bound", json_dbl(c->bound));
	json_object_object_add(o, "pass", json_object_new_boolean(r->pass));
	json_object_object_add(o, "note", json_object_new_string(r->note));
	return o;
}

static json_object *purge_json(const struct qrun *q)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "requested",
			       json_object_new_string(bq_purge_name(q->prof.purge)));
	json_object_object_add(o, "method",
			       json_object_new_string(bq_purge_name(q->qual.purge.method)));
	json_object_object_add(o, "done", json_object_new_boolean(q->qual.purge.done));
	json_object_object_add(o, "seconds", json_dbl((double)q->qual.purge.ns / 1e9));
	json_object_object_add(o, "note", json_object_new_string(q->qual.purge_tried ?
				q->qual.purge.note : "not reached"));
	return o;
}

static json_object *precondition_json(const struct qrun *q)
{
	json_object *o;
	double s = (double)q->qual.precond_ns / 1e9;

	if (!q->plan.precondition_bytes || !q->qual.precond_done)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "bytes", json_u64(q->plan.precondition_bytes));
	json_object_object_add(o, "seconds", json_dbl(s));
	json_object_object_add(o, "bytes_per_second",
			       json_dbl(s > 0 ? (double)q->plan.precondition_bytes / s : 0));
	json_object_object_add(o, "block_size", json_u64(128 << 10));
	return o;
}

/**
 * qualify_json() - the whole qualification as the contract's JSON
 * @q: the qualification, judged with bq_qual_judge()
 *
 * Return: the document, or NULL without memory.
 */
json_object *qualify_json(const struct qrun *q)
{
	json_object *root = json_object_new_object(), *tool = json_object_new_object();
	json_object *host = json_object_new_object(), *prof = json_object_new_object();
	json_object *steps = json_object_new_array(), *crit = json_object_new_array();
	struct utsname u;

	json_object_object_add(root, "schema_version", json_object_new_int(1));
	json_object_object_add(root, "command", json_object_new_string("qualify"));
	json_object_object_add(tool, "name", json_object_new_string("blkqual"));
	json_object_object_add(tool, "version", json_object_new_string(BLKQUAL_VERSION));
	json_object_object_add(root, "tool", tool);
	json_object_object_add(root, "started", json_object_new_string(q->started));
	json_object_object_add(root, "runtime_s", json_dbl(qrun_runtime_s(q)));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_object_add(host, "kernel", json_object_new_string(u.release));
	json_object_object_add(host, "hostname", json_object_new_string(u.nodename));
	json_object_object_add(root, "host", host);
	json_object_object_add(prof, "name", json_object_new_string(q->prof.name));
	json_object_object_add(prof, "description", json_object_new_string(q->prof.description));
	json_object_object_add(prof, "path", json_object_new_string(q->prof.path));
	json_object_object_add(prof, "text", str_or_null(q->prof.text));
	json_object_object_add(root, "profile", prof);
	json_object_object_add(root, "device", qualify_device_json(q));
	json_object_object_add(root, "purge", purge_json(q));
	json_object_object_add(root, "precondition", precondition_json(q));
	for (int s = 0; s < q->plan.nr_steps; s++)
		json_object_array_add(steps, step_json(q, s));
	json_object_object_add(root, "steps", steps);
	for (int i = 0; q->qual.crit && i < q->prof.nr_criteria; i++)
		json_object_array_add(crit, criterion_json(&q->prof.criteria[i],
							   &q->qual.crit[i]));
	json_object_object_add(root, "criteria", crit);
	json_object_object_add(root, "verdict",
			       json_object_new_string(bq_qual_verdict_name(q->qual.verdict)));
	json_object_object_add(root, "verdict_note", json_object_new_string(q->qual.why));
	json_object_object_add(root, "interrupted", json_object_new_boolean(q->qual.interrupted));
	json_object_object_add(root, "verify",
			       q->qual.verify ? verify_json(q->qual.verify) : NULL);
	return root;
}

/* ---- for people -------------------------------------------------------------------- */

static void fmt_value(char *buf, size_t len, enum bq_metric m, double v)
{
	char x[32];

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (m) {
	case BQ_METRIC_IOPS:
		fmt_count(x, sizeof(x), v);
		snprintf(buf, len, "%s IOPS", x);
		break;
	case BQ_METRIC_BW:
		snprintf(buf, len, "%.1f MB/s", v / 1e6);
		break;
	default:
		fmt_lat(buf, len, v);
		break;
	}
}

static void print_criteria(FILE *out, const struct qrun *q)
{
	static const char *const headers[] = { "RESULT", "CRITERION", "MEASURED", "WHERE" };
	struct table t;

	if (!q->prof.nr_criteria) {
		fprintf(out, "criteria: none in this profile\n");
		return;
	}
	if (table_init(&t, headers, ARRAY_LEN(headers)))
		return;
	for (int i = 0; i < q->prof.nr_criteria; i++) {
		const struct bq_criterion_result *r = &q->qual.crit[i];
		char v[48];

		fmt_value(v, sizeof(v), q->prof.criteria[i].sel.metric, r->measured);
		table_cell(&t, "%s", r->pass ? "pass" : "FAIL");
		table_cell(&t, "%s", q->prof.criteria[i].text);
		table_cell(&t, "%s", v);
		table_cell(&t, "%s", r->note);
	}
	table_print(&t, out);
	table_free(&t);
}

static void matrix_cell(struct table *t, enum bq_step_kind kind, const struct bq_qresult *r)
{
	char a[32], p[32], x[32];
	struct bq_hist h;

	if (!r) {
		table_cell(t, "-");
		return;
	}
	if (kind == BQ_STEP_THROUGHPUT) {
		table_cell(t, "%.1f", bq_qresult_value(r, BQ_SEL_ANY, BQ_METRIC_BW, 0) / 1e6);
		return;
	}
	if (kind != BQ_STEP_LATENCY) {
		fmt_count(a, sizeof(a), bq_qresult_value(r, BQ_SEL_ANY, BQ_METRIC_IOPS, 0));
		table_cell(t, "%s", a);
		return;
	}
	/* Both directions together: one figure per cell. */
	if (bq_hist_init(&h)) {
		table_cell(t, "?");
		return;
	}
	bq_hist_merge(&h, &r->d[BQ_READ].lat);
	bq_hist_merge(&h, &r->d[BQ_WRITE].lat);
	fmt_lat(a, sizeof(a), bq_hist_mean(&h));
	fmt_lat(p, sizeof(p), (double)bq_hist_percentile(&h, 99));
	fmt_lat(x, sizeof(x), (double)h.max);
	table_cell(t, "%s/%s/%s", a, p, x);
	bq_hist_free(&h);
}

/* The step's matrix: R/W mixes down, block sizes across. */
static void print_matrix(FILE *out, const struct bq_qplan_step *ps,
			 const struct bq_qresult *window)
{
	const struct bq_qstep *s = ps->step;
	const char *headers[BQ_QSTEP_MAX_LIST + 1];
	uint32_t bs[BQ_QSTEP_MAX_LIST];
	struct table t;
	int cols = 0;

	/* Block sizes left out on this device get no column; labels say "4k". */
	for (int b = 0; b < s->nr_bs; b++) {
		for (int c = 0; c < ps->nr_cells; c++) {
			const char *sp = strchr(ps->cells[c].label, ' ');

			if (ps->cells[c].bs != s->bs[b])
				continue;
			headers[cols + 1] = sp ? sp + 1 : ps->cells[c].label;
			bs[cols++] = s->bs[b];
			break;
		}
	}
	headers[0] = s->kind == BQ_STEP_THROUGHPUT ? "MB/s" :
		     s->kind == BQ_STEP_LATENCY ? "mean/p99/max" : "IOPS";
	if (table_init(&t, headers, (size_t)cols + 1))
		return;
	for (int m = 0; m < s->nr_mixes; m++) {
		table_cell(&t, "%u/%u", s->read_pct[m], 100 - s->read_pct[m]);
		for (int b = 0; b < cols; b++) {
			const struct bq_qresult *r = NULL;

			for (int c = 0; c < ps->nr_cells; c++)
				if (ps->cells[c].read_pct == s->read_pct[m] &&
				    ps->cells[c].bs == bs[b])
					r = &window[c];
			matrix_cell(&t, s->kind, r);
		}
	}
	table_print(&t, out);
	table_free(&t);
}

static void print_step(FILE *out, const struct qrun *q, int s)
{
	const struct bq_qplan_step *ps = &q->plan.steps[s];
	const struct bq_qstep_run *run = &q->qual.runs[s];
	const struct bq_qresult *window = step_window(q, s);
	const struct bq_qstep *step = ps->step;
	char rt[32];
	int first, last;

	fmt_duration(rt, sizeof(rt), (double)step->round_ns / 1e9);
	fprintf(out, "\nstep %s (%s, %d cells, qd%u x %u thread%s, %s per cell): %d round%s",
		step->name, bq_step_kind_name(step->kind), ps->nr_cells, step->iodepth,
		step->numjobs, step->numjobs == 1 ? "" : "s", rt, run->nr_rounds,
		run->nr_rounds == 1 ? "" : "s");
	bq_qstep_window(run, &first, &last);
	if (last >= 0)
		fprintf(out, ", figures from rounds %d-%d", first + 1, last + 1);
	fputc('\n', out);
	if (ps->note[0])
		fprintf(out, "  note: %s\n", ps->note);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		const struct bq_steady_result *r = &run->steady[d];
		char label[192], v[32];

		if (ps->track_cell[d] < 0)
			continue;
		track_label(label, sizeof(label), ps, d);
		fprintf(out, "  %s: %s (%s):", dir_names[d],
			run->nr_rounds ? bq_steady_state_name(r->state) : "not started", label);
		for (int i = 0; i < run->nr_rounds; i++) {
			fmt_value(v, sizeof(v), step->track[d].metric, run->track[d][i]);
			/* The unit once is enough. */
			if (strchr(v, ' '))
				*strchr(v, ' ') = '\0';
			fprintf(out, " %s", v);
		}
		if (r->state == BQ_STEADY_LEFT)
			fprintf(out, " (left at round %d)", r->left_round + 1);
		fputc('\n', out);
	}
	if (window)
		print_matrix(out, ps, window);
}

void qualify_human(FILE *out, const struct qrun *q)
{
	char size[32], tested[32], dur[32];

	fmt_size(size, sizeof(size), q->dev.size);
	fmt_size(tested, sizeof(tested), q->plan.region);
	fmt_duration(dur, sizeof(dur), qrun_runtime_s(q));
	fprintf(out, "qualify %s on %s (%s, %s, %s tested): %s after %s%s%s\n", q->prof.name,
		q->target, bq_dev_kind_name(q->dev.kind), size, tested,
		q->qual.verdict == BQ_QUAL_PASS ? "PASS" :
		q->qual.verdict == BQ_QUAL_FAIL ? "FAIL" : "INCOMPLETE", dur,
		q->qual.why[0] ? ": " : "", q->qual.why);
	print_criteria(out, q);
	fprintf(out, "\npurge: %s%s; %s\n", bq_purge_name(q->qual.purge.method),
		q->qual.purge.done ? ", done" : "",
		q->qual.purge_tried ? q->qual.purge.note : "not reached");
	if (q->plan.precondition_bytes && q->qual.precond_done) {
		double s = (double)q->qual.precond_ns / 1e9;

		fmt_size(size, sizeof(size), q->plan.precondition_bytes);
		fprintf(out, "precondition: %s of sequential 128 KiB writes in %.1fs (%.1f MB/s)\n",
			size, s, s > 0 ? (double)q->plan.precondition_bytes / s / 1e6 : 0);
	} else {
		fprintf(out, "precondition: %s\n", q->plan.precondition_bytes ? "not done" :
			"none (precondition=none)");
	}
	if (q->qual.verify) {
		verify_print(out, q->qual.verify, "");
	}
	for (int s = 0; s < q->plan.nr_steps; s++)
		print_step(out, q, s);
	if (q->qual.interrupted)
		fprintf(out, "\ninterrupted: resume with blkqual qualify --resume STATE\n");
}
