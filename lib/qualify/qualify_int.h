/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qualify_int.h - private to libblkqual: what the files of lib/qualify/
 * share, and the steps of a qualification (steady state, criteria, a
 * cell's job, rounds, purge) that only the library and the tests call
 */
#ifndef BLKQUAL_QUALIFY_INT_H
#define BLKQUAL_QUALIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_qualify.h"
#include "internal.h"

/* "4k", "0.5k", "512b", "1m", "128KiB": a whole number of bytes, 0 < n < 4 GiB. */
int bq_q_parse_bytes(const char *s, uint32_t *out);

/* "65/35": percent reads; -EINVAL unless both parts add up to 100. */
int bq_q_parse_mix(const char *s, unsigned int *read_pct);

/* A block size as cell labels spell it: "4k", "0.5k", "1024k". */
void bq_q_fmt_bs(char *buf, size_t len, uint32_t bs);

/* Whether @c of step @step matches the selectors of @sel (not its metric). */
bool bq_q_cell_matches(const struct bq_cellsel *sel, const char *step, const struct bq_qcell *c);

/* Release the window sums of bq_qual_judge(); @q->window is left NULL. */
void bq_q_window_free(struct bq_qual *q);

/* steady.c */

/**
 * bq_steady_judge() - judge the window of rounds ending at @last
 * @v: the tracked variable per round
 * @last: index of the window's last round (>= window - 1)
 * @p: the criteria
 * @w: filled in
 *
 * Return: true when the window is steady.
 */
bool bq_steady_judge(const double *v, int last, const struct bq_steady_params *p,
		     struct bq_steady_window *w);

/**
 * bq_steady_eval() - has a series of rounds reached steady state
 * @v: the tracked variable per round, oldest first
 * @n: rounds so far
 * @p: the criteria
 * @r: the verdict
 *
 * Return: 0, or -EINVAL for bad criteria or a non-finite value.
 */
int bq_steady_eval(const double *v, int n, const struct bq_steady_params *p,
		   struct bq_steady_result *r);

/* criteria.c */

/**
 * bq_criterion_parse() - parse "randread 4k qd1 p99.99 <= 5 ms"
 * @text: the criterion
 * @c: filled in (@c->line is left alone)
 * @err: on failure, @err->msg says why (the caller sets @err->where)
 *
 * Grammar (words in any order before the operator, case-insensitive):
 * selectors randread randwrite randrw seqread seqwrite seqrw random
 * sequential, a mix R/W ("65/35"), a block size with its unit ("4k",
 * "0.5k", "512b", "1m"), qdN, step:NAME; a direction read or write; a
 * metric iops, mbps (or MB/s, bw, throughput), mean (avg), min, max,
 * median, pNN[.NN]; the filler words latency and lat; then one of
 * <= < >= > and a number with a unit: ns us ms s for latency, k or M
 * (thousands, millions) or none for IOPS, B/s kB/s MB/s GB/s KiB/s MiB/s
 * GiB/s for bandwidth.  A bandwidth unit alone implies the metric.
 *
 * Return: 0 or -EINVAL.
 */
int bq_criterion_parse(const char *text, struct bq_criterion *c, struct bq_parse_error *err);

/**
 * bq_cellsel_parse() - parse a cell selector and metric without a bound
 *                      ("0/100 4k write iops", as in tracked=)
 * @text: the words
 * @sel: filled in
 * @err: on failure, @err->msg says why
 *
 * Return: 0 or -EINVAL.
 */
int bq_cellsel_parse(const char *text, struct bq_cellsel *sel, struct bq_parse_error *err);

/**
 * struct bq_qcell_view - a measured cell, as criteria see it
 * @step: step name
 * @kind: step kind
 * @cell: the cell
 * @res: its reported figures (the window's sum)
 */
struct bq_qcell_view {
	const char *step;
	enum bq_step_kind kind;
	const struct bq_qcell *cell;
	const struct bq_qresult *res;
};

/**
 * bq_criterion_eval() - judge a criterion on measured cells
 * @c: the criterion
 * @cells: the cells, @n of them
 * @n: count
 * @res: the verdict
 *
 * Every cell matching the selectors must meet the bound; the worst one is
 * reported.  Without step: or qdN, cells of the steps whose kind fits the
 * metric (IOPS: iops steps, bandwidth: throughput steps, latency: latency
 * steps) are taken when there are any, else every matching cell.
 */
void bq_criterion_eval(const struct bq_criterion *c, const struct bq_qcell_view *cells, int n,
		       struct bq_criterion_result *res);

/* qualify.c: a cell's job, rounds and their sums */

/**
 * bq_qcell_job() - the engine job that runs one cell for one round
 * @p: the profile (engine, verify)
 * @plan: the plan (region, verify block size)
 * @ps: the step
 * @c: the cell
 * @path: the target
 * @seed: random seed, different per round and cell so rounds do not
 *        replay the same offsets
 * @job: filled in through bq_job_set(); release with bq_job_release()
 * @err: on failure, why
 *
 * Return: 0, or what bq_job_set() returned (-EOPNOTSUPP when the engine
 * cannot do what the profile asks, e.g. verify=).
 */
int bq_qcell_job(const struct bq_profile *p, const struct bq_qplan *plan,
		 const struct bq_qplan_step *ps, const struct bq_qcell *c, const char *path,
		 uint64_t seed, struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_precondition_job() - sequential 128 KiB writes over the region
 * @p: the profile
 * @path: the target
 * @plan: region and byte count
 * @job: filled in; release with bq_job_release()
 * @err: on failure, why
 *
 * Return: 0 or -errno.
 */
int bq_precondition_job(const struct bq_profile *p, const char *path,
			const struct bq_qplan *plan, struct bq_job *job,
			struct bq_parse_error *err);

/**
 * bq_qresult_init() - an empty result with both histograms allocated
 * @r: the result
 *
 * Return: 0 or -ENOMEM (then nothing is allocated).
 */
int bq_qresult_init(struct bq_qresult *r);

/**
 * bq_qresult_add() - add one round's figures to a sum
 * @sum: the sum (initialised with bq_qresult_init())
 * @r: the round; its histogram is merged when it still has one
 */
void bq_qresult_add(struct bq_qresult *sum, const struct bq_qresult *r);

/**
 * bq_qstep_run_init() - a step with no round yet
 * @run: filled in; release with bq_qstep_run_free()
 * @ps: the planned step (must outlive @run)
 * @sp: steady-state parameters (copied)
 *
 * Return: 0, or -EINVAL for a window below 2 or above max_rounds.
 */
int bq_qstep_run_init(struct bq_qstep_run *run, const struct bq_qplan_step *ps,
		      const struct bq_steady_params *sp);

/**
 * bq_qstep_run_free() - release a step's rounds
 * @run: the step
 */
void bq_qstep_run_free(struct bq_qstep_run *run);

/**
 * bq_qstep_window_sum() - one cell's figures summed over the window
 * @run: the step
 * @cell: the cell's index
 * @sum: receives the sum; release with bq_qresult_free()
 *
 * Return: 0, -ENOENT when no round ran, or -ENOMEM.
 */
int bq_qstep_window_sum(const struct bq_qstep_run *run, int cell, struct bq_qresult *sum);

/* purge.c */

/**
 * bq_purge_device() - purge a device before preconditioning
 * @ctx: context
 * @fd: the device, opened for writing through bq_guard_open()
 * @dev: the device's facts (kind, queue limits, NVMe namespace)
 * @want: BQ_PURGE_AUTO or a method
 * @res: what was done
 *
 * AUTO takes NVMe Format NVM where the controller supports it and formats
 * one namespace only, else BLKSECDISCARD, else BLKDISCARD where the queue
 * limits say discard works.  A method the device cannot do is skipped with
 * a note, not an error: a qualification reports it and goes on.
 *
 * Return: 0 (what happened is in @res), or -EINVAL for an unknown method.
 */
int bq_purge_device(struct bq_ctx *ctx, int fd, const struct bq_device *dev, enum bq_purge want,
		    struct bq_purge_result *res);

#endif /* BLKQUAL_QUALIFY_INT_H */
