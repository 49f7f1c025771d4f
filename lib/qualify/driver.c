// SPDX-License-Identifier: GPL-2.0-only
/*
 * driver.c - running a qualification: purge, precondition, then rounds of
 * each step until its tracked figures are steady
 *
 * A qualification runs for hours and may be stopped and resumed, so it
 * goes on from whatever struct bq_qual says is done, and after each piece
 * of work hands the caller the chance to keep it (the command's state
 * file).  What the caller shows or keeps of a round is up to it: the
 * callbacks get the live state, this file prints and keeps nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/jobopt.h"
#include "qualify_int.h"
#include "verify/verify_int.h"

struct driver {
	struct bq_ctx *ctx;
	struct bq_qual *q;
	const struct bq_qual_opts *o;
	struct bq_parse_error *err;
	bool said;		/* a callback failed and said why */
};

static bool stopped(const struct driver *dr)
{
	return dr->o->stop && *dr->o->stop;
}

static void at(const struct driver *dr, enum bq_qual_phase phase, int s, int round, int c)
{
	struct bq_qual_at where = { .phase = phase, .step = s, .round = round, .cell = c };

	if (dr->o->at)
		dr->o->at(dr->o->arg, &where);
}

static int save(struct driver *dr)
{
	int ret = dr->o->save ? dr->o->save(dr->o->arg) : 0;

	dr->said = ret;
	return ret;
}

static void set_where(struct bq_parse_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_where(struct bq_parse_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->where, sizeof(err->where), fmt, ap);
	va_end(ap);
}

/* Different per round and cell, so that rounds do not replay the same offsets. */
static uint64_t cell_seed(int s, int round, int c)
{
	return ((uint64_t)(s + 1) << 40) ^ ((uint64_t)(round + 1) << 20) ^ (uint64_t)(c + 1);
}

static int precondition_job(const struct bq_qual *q, struct bq_job *job,
			    struct bq_parse_error *err)
{
	struct bq_parse_error why = { 0 };
	int ret = bq_precondition_job(q->prof, q->target, q->plan, job, &why);

	if (ret) {
		set_where(err, "precondition: %s", why.where);
		memcpy(err->msg, why.msg, sizeof(err->msg));
	}
	return ret;
}

static int cell_job(const struct bq_qual *q, int s, int round, int c, struct bq_job *job,
		    struct bq_parse_error *err)
{
	const struct bq_qplan_step *ps = &q->plan->steps[s];
	struct bq_parse_error why = { 0 };
	int ret = bq_qcell_job(q->prof, q->plan, ps, &ps->cells[c], q->target,
			       cell_seed(s, round, c), job, &why);

	if (ret) {
		set_where(err, "step %s, cell %s: %s", ps->step->name, ps->cells[c].label,
			  why.where);
		memcpy(err->msg, why.msg, sizeof(err->msg));
	}
	return ret;
}

int bq_qual_check(const struct bq_qual *q, struct bq_parse_error *err)
{
	struct bq_job job;
	int ret;

	if (q->plan->precondition_bytes && !q->precond_done) {
		ret = precondition_job(q, &job, err);
		if (ret)
			return ret;
		bq_job_release(&job);
	}
	for (int s = 0; s < q->plan->nr_steps; s++) {
		for (int c = 0; c < q->plan->steps[s].nr_cells; c++) {
			ret = cell_job(q, s, q->runs[s].nr_rounds, c, &job, err);
			if (ret)
				return ret;
			bq_job_release(&job);
		}
	}
	return 0;
}

/* One job through the engine; *@out is its threads summed, released on failure. */
static int run_job(struct driver *dr, struct bq_job *job, struct bq_qresult *out)
{
	const struct bq_qual_opts *o = dr->o;
	struct bq_run_opts ropts = { .guard = o->guard, .stop = o->stop,
				     .progress = o->progress, .arg = o->arg,
				     .pinned = o->pin, .nr_pinned = 1 };
	struct bq_jobset set = { .jobs = job, .nr = 1 };
	struct bq_thread_result sum;
	struct bq_results res;
	int ret;

	ret = bq_run(dr->ctx, &set, &ropts, &res, dr->err);
	if (ret)
		return ret;
	memset(&sum, 0, sizeof(sum));
	ret = bq_qresult_init(out);
	if (!ret) {
		for (int d = 0; d < BQ_NR_DIRS; d++)
			sum.d[d].lat = out->d[d].lat;
		bq_job_sum(&res.jobs[0], &sum);
		for (int d = 0; d < BQ_NR_DIRS; d++)
			out->d[d] = sum.d[d];
		out->runtime_ns = res.jobs[0].runtime_ns;
		dr->q->errors += sum.d[BQ_READ].errors + sum.d[BQ_WRITE].errors;
		if (dr->q->verify && res.jobs[0].verify) {
			dr->q->verify->method = res.jobs[0].verify->method;
			dr->q->verify->block_size = res.jobs[0].verify->block_size;
			bq_verify_report_merge(dr->q->verify, res.jobs[0].verify);
		}
		if (res.interrupted) {
			bq_qresult_free(out);
			ret = -EINTR;
		}
	}
	bq_results_free(&res);
	return ret;
}

static int purge(struct driver *dr)
{
	struct bq_qual *q = dr->q;
	int ret;

	at(dr, BQ_QUAL_PURGE, 0, 0, 0);
	ret = bq_purge_device(dr->ctx, dr->o->pin->fd, q->dev, q->prof->purge, &q->purge);
	if (ret) {
		snprintf(dr->err->where, sizeof(dr->err->where), "purge");
		return ret;
	}
	q->purge_tried = true;
	return save(dr);
}

static int precondition(struct driver *dr)
{
	struct bq_qual *q = dr->q;
	struct bq_qresult r;
	struct bq_job job;
	uint64_t t0;
	int ret;

	ret = precondition_job(q, &job, dr->err);
	if (ret)
		return ret;
	at(dr, BQ_QUAL_PRECONDITION, 0, 0, 0);
	t0 = bq_now_ns();
	ret = run_job(dr, &job, &r);
	bq_job_release(&job);
	if (ret)
		return ret;
	q->precond_ns = bq_now_ns() - t0;
	q->precond_done = true;
	bq_qresult_free(&r);
	return save(dr);
}

static int one_round(struct driver *dr, int s)
{
	struct bq_qual *q = dr->q;
	struct bq_qstep_run *run = &q->runs[s];
	int n = q->plan->steps[s].nr_cells, round = run->nr_rounds, done = 0, ret = 0;
	struct bq_qresult *cells;

	cells = calloc((size_t)n, sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (int c = 0; c < n; c++) {
		struct bq_job job;

		if (stopped(dr)) {
			ret = -EINTR;
			break;
		}
		ret = cell_job(q, s, round, c, &job, dr->err);
		if (ret)
			break;
		at(dr, BQ_QUAL_CELL, s, round, c);
		ret = run_job(dr, &job, &cells[c]);
		bq_job_release(&job);
		if (ret)
			break;
		done = c + 1;
	}
	if (ret) {
		/* A round counts whole or not at all. */
		for (int c = 0; c < done; c++)
			bq_qresult_free(&cells[c]);
		free(cells);
		return ret;
	}
	ret = bq_qstep_add_round(run, cells, NULL);
	free(cells);
	if (ret)
		return ret;
	ret = dr->o->round ? dr->o->round(dr->o->arg, s) : 0;
	dr->said = ret;
	return ret ? ret : save(dr);
}

int bq_qual_run(struct bq_ctx *ctx, struct bq_qual *q, const struct bq_qual_opts *opts,
		struct bq_parse_error *err)
{
	struct driver dr = { .ctx = ctx, .q = q, .o = opts, .err = err };
	int ret = 0;

	memset(err, 0, sizeof(*err));
	q->interrupted = false;
	if (!q->purge_tried)
		ret = purge(&dr);
	if (!ret && stopped(&dr))
		ret = -EINTR;
	if (!ret && q->plan->precondition_bytes && !q->precond_done)
		ret = precondition(&dr);
	for (int s = 0; !ret && s < q->plan->nr_steps; s++)
		while (!ret && (!q->runs[s].nr_rounds || !bq_qstep_finished(&q->runs[s])))
			ret = one_round(&dr, s);
	/* A job cut short by the signal fails in its own way: it is still a stop. */
	if (ret == -EINTR || stopped(&dr)) {
		q->interrupted = true;
		return -EINTR;
	}
	if (ret && !dr.said && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "%s", strerror(-ret));
	return ret;
}
