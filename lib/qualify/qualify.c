// SPDX-License-Identifier: GPL-2.0-only
/*
 * qualify.c - a qualification's plan and bookkeeping: a profile's steps
 * laid out as cells for one device, the engine job of each cell, and the
 * rounds of each step with their steady-state verdict, and what a whole
 * qualification holds
 *
 * Everything here is pure so the tests can feed it synthetic rounds.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/jobopt.h"
#include "qualify_int.h"

#define MIB (1ull << 20)
#define PRECONDITION_BS (128u << 10)

/* ---- plans -------------------------------------------------------------------- */

const char *bq_qcell_rw(const struct bq_qcell *c)
{
	if (c->read_pct == 100)
		return c->random ? "randread" : "read";
	if (c->read_pct == 0)
		return c->random ? "randwrite" : "write";
	return c->random ? "randrw" : "rw";
}

static int plan_fail(const struct bq_profile *p, int line, struct bq_parse_error *err,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int plan_fail(const struct bq_profile *p, int line, struct bq_parse_error *err,
		     const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	if (line)
		snprintf(err->where, sizeof(err->where), "%.240s:%d", p->path, line);
	else
		snprintf(err->where, sizeof(err->where), "%.250s", p->path);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void note_left_out(struct bq_qplan_step *ps, uint32_t bs, const char *why)
{
	char b[32];
	size_t used = strlen(ps->note);

	bq_q_fmt_bs(b, sizeof(b), bs);
	if (strstr(ps->note, why) && used)
		return;
	snprintf(ps->note + used, sizeof(ps->note) - used, "%s%s left out: %s", used ? "; " : "",
		 b, why);
}

static int plan_step(const struct bq_profile *p, const struct bq_qstep *s, uint64_t region,
		     uint32_t lbs, struct bq_qplan_step *ps, struct bq_parse_error *err)
{
	char why[96];

	ps->step = s;
	ps->cells = calloc((size_t)s->nr_mixes * s->nr_bs, sizeof(*ps->cells));
	if (!ps->cells)
		return -ENOMEM;
	for (int m = 0; m < s->nr_mixes; m++) {
		for (int b = 0; b < s->nr_bs; b++) {
			struct bq_qcell *c = &ps->cells[ps->nr_cells];
			char bs[16];

			if (s->bs[b] % lbs) {
				snprintf(why, sizeof(why), "the logical block size is %u bytes", lbs);
				note_left_out(ps, s->bs[b], why);
				continue;
			}
			if (s->bs[b] > region) {
				snprintf(why, sizeof(why), "larger than the tested region");
				note_left_out(ps, s->bs[b], why);
				continue;
			}
			bq_q_fmt_bs(bs, sizeof(bs), s->bs[b]);
			snprintf(c->label, sizeof(c->label), "%u/%u %s", s->read_pct[m],
				 100 - s->read_pct[m], bs);
			c->random = s->random;
			c->read_pct = s->read_pct[m];
			c->bs = s->bs[b];
			c->iodepth = s->iodepth;
			c->numjobs = s->numjobs;
			ps->nr_cells++;
		}
	}
	if (!ps->nr_cells)
		return plan_fail(p, s->line, err, "[step:%s]: no cell can run on this device (%s)",
				 s->name, ps->note);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		int found = 0;

		ps->track_cell[d] = -1;
		if (!s->tracked[d])
			continue;
		for (int i = 0; i < ps->nr_cells; i++) {
			if (bq_q_cell_matches(&s->track[d], s->name, &ps->cells[i])) {
				if (!found++)
					ps->track_cell[d] = i;
			}
		}
		if (!found)
			return plan_fail(p, s->track_line, err, "[step:%s]: tracked '%s' is not a "
					 "cell of the step%s%s", s->name, s->track_text[d],
					 ps->note[0] ? " here: " : "", ps->note);
		if (found > 1)
			return plan_fail(p, s->track_line, err, "[step:%s]: tracked '%s' matches %d "
					 "cells; name its R/W mix and block size", s->name,
					 s->track_text[d], found);
		if (ps->cells[ps->track_cell[d]].read_pct == (d == BQ_READ ? 0u : 100u))
			return plan_fail(p, s->track_line, err, "[step:%s]: tracked '%s': that cell "
					 "does no %ss", s->name, s->track_text[d],
					 d == BQ_READ ? "read" : "write");
	}
	return 0;
}

int bq_qualify_plan(const struct bq_profile *p, uint64_t dev_size, uint32_t lbs,
		    struct bq_qplan *plan, struct bq_parse_error *err)
{
	uint64_t align = lbs > MIB ? lbs : MIB;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (!lbs || lbs % 512)
		return plan_fail(p, 0, err, "logical block size %u is not a multiple of 512", lbs);
	plan->region = (uint64_t)((double)dev_size * p->capacity_fraction);
	/* Whole MiB keep 1 MiB blocks and the 128 KiB preconditioning aligned. */
	if (plan->region >= align)
		plan->region -= plan->region % align;
	else
		plan->region -= plan->region % lbs;
	if (plan->region < PRECONDITION_BS)
		return plan_fail(p, 0, err, "the tested region (%" PRIu64 " bytes of %" PRIu64
				 ") is too small to qualify", plan->region, dev_size);
	if (p->precondition > 0) {
		plan->precondition_bytes = (uint64_t)((double)plan->region * p->precondition);
		plan->precondition_bytes -= plan->precondition_bytes % PRECONDITION_BS;
		if (!plan->precondition_bytes)
			plan->precondition_bytes = PRECONDITION_BS;
	}
	plan->steps = calloc((size_t)p->nr_steps, sizeof(*plan->steps));
	if (!plan->steps)
		return -ENOMEM;
	plan->nr_steps = p->nr_steps;
	for (int i = 0; i < p->nr_steps; i++) {
		ret = plan_step(p, &p->steps[i], plan->region, lbs, &plan->steps[i], err);
		if (ret) {
			bq_qplan_free(plan);
			return ret;
		}
		for (int c = 0; c < plan->steps[i].nr_cells; c++)
			if (!plan->min_bs || plan->steps[i].cells[c].bs < plan->min_bs)
				plan->min_bs = plan->steps[i].cells[c].bs;
	}
	return 0;
}

void bq_qplan_free(struct bq_qplan *plan)
{
	for (int i = 0; i < plan->nr_steps; i++)
		free(plan->steps[i].cells);
	free(plan->steps);
	plan->steps = NULL;
	plan->nr_steps = 0;
}

uint64_t bq_qplan_round_ns(const struct bq_qplan_step *ps)
{
	return (uint64_t)ps->nr_cells * (ps->step->round_ns + ps->step->ramp_ns);
}

/* ---- jobs ----------------------------------------------------------------------- */

static int set(struct bq_job *job, const char *key, const char *val, struct bq_parse_error *err)
{
	int ret = bq_job_set(job, key, val, err);

	if (ret && err)
		snprintf(err->where, sizeof(err->where), "%s", key);
	return ret;
}

static int setf(struct bq_job *job, const char *key, struct bq_parse_error *err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int setf(struct bq_job *job, const char *key, struct bq_parse_error *err,
		const char *fmt, ...)
{
	char val[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	return set(job, key, val, err);
}

/* What every qualification job shares: the target, its region, direct I/O. */
static int common_options(const struct bq_profile *p, const char *path,
			  const struct bq_qplan *plan, struct bq_job *job,
			  struct bq_parse_error *err)
{
	int ret;

	ret = set(job, "filename", path, err);
	if (!ret)
		ret = set(job, "direct", "1", err);
	if (!ret)
		ret = setf(job, "size", err, "%" PRIu64, plan->region);
	if (!ret)
		ret = set(job, "group_reporting", NULL, err);
	if (!ret && p->ioengine[0])
		ret = set(job, "ioengine", p->ioengine, err);
	if (!ret && p->verify[0])
		ret = set(job, "verify", p->verify, err);
	if (!ret && p->verify[0])
		ret = setf(job, "verify_interval", err, "%u", plan->min_bs);
	return ret;
}

int bq_qcell_job(const struct bq_profile *p, const struct bq_qplan *plan,
		 const struct bq_qplan_step *ps, const struct bq_qcell *c, const char *path,
		 uint64_t seed, struct bq_job *job, struct bq_parse_error *err)
{
	const struct bq_qstep *s = ps->step;
	int ret;

	bq_job_defaults(job);
	ret = setf(job, "name", err, "%s-%u-%u-%u", s->name, c->read_pct, 100 - c->read_pct,
		   c->bs);
	if (!ret)
		ret = common_options(p, path, plan, job, err);
	if (!ret)
		ret = set(job, "rw", bq_qcell_rw(c), err);
	if (!ret && c->read_pct && c->read_pct != 100)
		ret = setf(job, "rwmixread", err, "%u", c->read_pct);
	if (!ret)
		ret = setf(job, "bs", err, "%u", c->bs);
	if (!ret)
		ret = setf(job, "iodepth", err, "%u", c->iodepth);
	if (!ret)
		ret = setf(job, "numjobs", err, "%u", c->numjobs);
	if (!ret)
		ret = setf(job, "runtime", err, "%" PRIu64 "ns", s->round_ns);
	if (!ret)
		ret = set(job, "time_based", NULL, err);
	if (!ret && s->ramp_ns)
		ret = setf(job, "ramp_time", err, "%" PRIu64 "ns", s->ramp_ns);
	if (!ret)
		ret = setf(job, "randseed", err, "%" PRIu64, seed);
	if (!ret)
		ret = bq_job_check(job, err);
	if (ret)
		bq_job_release(job);
	return ret;
}

int bq_precondition_job(const struct bq_profile *p, const char *path,
			const struct bq_qplan *plan, struct bq_job *job,
			struct bq_parse_error *err)
{
	int ret;

	bq_job_defaults(job);
	ret = set(job, "name", "precondition", err);
	if (!ret)
		ret = common_options(p, path, plan, job, err);
	if (!ret)
		ret = set(job, "rw", "write", err);
	if (!ret)
		ret = setf(job, "bs", err, "%u", PRECONDITION_BS);
	if (!ret)
		ret = set(job, "iodepth", "32", err);
	if (!ret)
		ret = setf(job, "io_size", err, "%" PRIu64, plan->precondition_bytes);
	if (!ret)
		ret = bq_job_check(job, err);
	if (ret)
		bq_job_release(job);
	return ret;
}

/* ---- results ------------------------------------------------------------------------ */

int bq_qresult_init(struct bq_qresult *r)
{
	memset(r, 0, sizeof(*r));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (bq_hist_init(&r->d[d].lat)) {
			bq_qresult_free(r);
			return -ENOMEM;
		}
	}
	return 0;
}

void bq_qresult_free(struct bq_qresult *r)
{
	for (int d = 0; d < BQ_NR_DIRS; d++)
		bq_hist_free(&r->d[d].lat);
}

void bq_qresult_add(struct bq_qresult *sum, const struct bq_qresult *r)
{
	sum->runtime_ns += r->runtime_ns;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		const struct bq_dir_result *x = &r->d[d];
		struct bq_dir_result *s = &sum->d[d];

		s->ios += x->ios;
		s->bytes += x->bytes;
		s->errors += x->errors;
		if (s->lat.buckets && x->lat.buckets) {
			bq_hist_merge(&s->lat, &x->lat);
		} else if (x->lat.count) {
			/* No buckets: mean, min and max still add up. */
			s->lat.count += x->lat.count;
			s->lat.sum += x->lat.sum;
			s->lat.sumsq += x->lat.sumsq;
			if (x->lat.min < s->lat.min)
				s->lat.min = x->lat.min;
			if (x->lat.max > s->lat.max)
				s->lat.max = x->lat.max;
		}
	}
}

double bq_qresult_value(const struct bq_qresult *r, int dir, enum bq_metric m, double pct)
{
	const struct bq_hist *h;
	uint64_t ios, bytes;

	if (!r->runtime_ns)
		return NAN;
	if (m == BQ_METRIC_IOPS || m == BQ_METRIC_BW) {
		if (dir == BQ_SEL_ANY) {
			ios = r->d[BQ_READ].ios + r->d[BQ_WRITE].ios;
			bytes = r->d[BQ_READ].bytes + r->d[BQ_WRITE].bytes;
		} else {
			ios = r->d[dir].ios;
			bytes = r->d[dir].bytes;
			if (!ios)
				return NAN;
		}
		return (double)(m == BQ_METRIC_IOPS ? ios : bytes) * 1e9 / (double)r->runtime_ns;
	}
	if (dir != BQ_READ && dir != BQ_WRITE)
		return NAN;
	h = &r->d[dir].lat;
	if (!h->count)
		return NAN;
	switch (m) {
	case BQ_METRIC_LAT_MEAN:
		return h->sum / (double)h->count;
	case BQ_METRIC_LAT_MIN:
		return (double)h->min;
	case BQ_METRIC_LAT_MAX:
		return (double)h->max;
	case BQ_METRIC_LAT_PCT:
		return h->buckets ? (double)bq_hist_percentile(h, pct) : NAN;
	default:
		return NAN;
	}
}

/* ---- rounds ---------------------------------------------------------------------------- */

int bq_qstep_run_init(struct bq_qstep_run *run, const struct bq_qplan_step *ps,
		      const struct bq_steady_params *sp)
{
	memset(run, 0, sizeof(*run));
	if (sp->window < 2 || sp->max_rounds < sp->window)
		return -EINVAL;
	run->ps = ps;
	run->sp = *sp;
	return 0;
}

void bq_qstep_run_free(struct bq_qstep_run *run)
{
	for (int i = 0; i < run->nr_rounds * run->ps->nr_cells; i++)
		bq_qresult_free(&run->res[i]);
	free(run->res);
	for (int d = 0; d < BQ_NR_DIRS; d++)
		free(run->track[d]);
	memset(run, 0, sizeof(*run));
}

static int grow(struct bq_qstep_run *run)
{
	int n = run->ps->nr_cells, cap = run->cap ? run->cap * 2 : 8;
	struct bq_qresult *res;

	if (run->nr_rounds < run->cap)
		return 0;
	res = realloc(run->res, (size_t)cap * n * sizeof(*res));
	if (!res)
		return -ENOMEM;
	run->res = res;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		double *t = realloc(run->track[d], (size_t)cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		run->track[d] = t;
	}
	run->cap = cap;
	return 0;
}

int bq_qstep_add_round(struct bq_qstep_run *run, struct bq_qresult *cells, const double *tracked)
{
	const struct bq_qplan_step *ps = run->ps;
	struct bq_qresult *row;
	int n = ps->nr_cells, old, ret;

	ret = grow(run);
	if (ret)
		return ret;
	row = &run->res[run->nr_rounds * n];
	memcpy(row, cells, (size_t)n * sizeof(*row));
	memset(cells, 0, (size_t)n * sizeof(*cells));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		const struct bq_cellsel *sel = &ps->step->track[d];
		double v;

		if (ps->track_cell[d] < 0) {
			run->track[d][run->nr_rounds] = 0;
			continue;
		}
		v = tracked ? tracked[d] :
		    bq_qresult_value(&row[ps->track_cell[d]], d, sel->metric, sel->pct);
		/* A round without a single I/O in the tracked direction tracks as 0. */
		run->track[d][run->nr_rounds] = isfinite(v) ? v : 0;
	}
	run->nr_rounds++;
	/* Only the window's histograms are ever merged again. */
	old = run->nr_rounds - run->sp.window - 1;
	if (old >= 0)
		for (int i = 0; i < n; i++)
			bq_qresult_free(&run->res[old * n + i]);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (ps->track_cell[d] < 0)
			continue;
		ret = bq_steady_eval(run->track[d], run->nr_rounds, &run->sp, &run->steady[d]);
		if (ret)
			return ret;
	}
	return 0;
}

bool bq_qstep_finished(const struct bq_qstep_run *run)
{
	bool any = false;

	if (run->nr_rounds >= run->sp.max_rounds)
		return true;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (run->ps->track_cell[d] < 0)
			continue;
		any = true;
		if (run->steady[d].state != BQ_STEADY_REACHED)
			return false;
	}
	return any;
}

void bq_qstep_window(const struct bq_qstep_run *run, int *first, int *last)
{
	*last = run->nr_rounds - 1;
	*first = *last - run->sp.window + 1;
	if (*first < 0)
		*first = 0;
}

int bq_qstep_window_sum(const struct bq_qstep_run *run, int cell, struct bq_qresult *sum)
{
	int first, last, ret;

	bq_qstep_window(run, &first, &last);
	if (last < 0)
		return -ENOENT;
	ret = bq_qresult_init(sum);
	if (ret)
		return ret;
	for (int i = first; i <= last; i++)
		bq_qresult_add(sum, &run->res[i * run->ps->nr_cells + cell]);
	return 0;
}

/* ---- a qualification ------------------------------------------------------------------ */

int bq_qual_init(struct bq_qual *q, const struct bq_profile *prof, const struct bq_qplan *plan,
		 const char *target, const struct bq_device *dev)
{
	memset(q, 0, sizeof(*q));
	q->prof = prof;
	q->plan = plan;
	q->target = target;
	q->dev = dev;
	q->runs = calloc((size_t)plan->nr_steps + 1, sizeof(*q->runs));
	if (!q->runs)
		return -ENOMEM;
	if (prof->verify[0]) {
		q->verify = calloc(1, sizeof(*q->verify));
		if (!q->verify)
			return -ENOMEM;
		for (int m = BQ_VERIFY_CRC32C; m < BQ_VERIFY_NR; m++)
			if (!strcmp(prof->verify, bq_verify_method_name(m)))
				q->verify->method = m;
	}
	for (int s = 0; s < plan->nr_steps; s++) {
		int ret = bq_qstep_run_init(&q->runs[s], &plan->steps[s], &prof->steady);

		if (ret)
			return ret;
	}
	return 0;
}

void bq_qual_free(struct bq_qual *q)
{
	bq_q_window_free(q);
	/* bq_qual_init() may have stopped before a step: its run is still zero. */
	for (int s = 0; q->runs && s < q->plan->nr_steps; s++)
		if (q->runs[s].ps)
			bq_qstep_run_free(&q->runs[s]);
	free(q->runs);
	free(q->crit);
	free(q->verify);
	memset(q, 0, sizeof(*q));
}
