/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rate.h - private: rate caps, thinktime, rate_min, max_latency,
 * latency_target and steadystate, behind the few calls the worker makes
 *
 * A job with none of these options has no rate state (w->rate is NULL)
 * and pays one predictable branch per I/O.
 */
#ifndef BLKQUAL_RATE_H
#define BLKQUAL_RATE_H

#include <stdbool.h>
#include <stdint.h>

struct bq_worker;
struct bq_slot;
struct bq_job;

/**
 * bq_rate_wanted() - whether a job needs rate state at all
 * @j: the job
 *
 * Return: true when any option of the family is set.
 */
bool bq_rate_wanted(const struct bq_job *j);

/**
 * bq_rate_init() - allocate a thread's rate state
 * @w: the worker; @w->rate is set, or left NULL when the job needs none
 *
 * Return: 0 or -ENOMEM.
 */
int bq_rate_init(struct bq_worker *w);

/**
 * bq_rate_start() - the thread starts its I/O now
 * @w: the worker
 * @start: the start line, in bq_now_ns() time
 */
void bq_rate_start(struct bq_worker *w, uint64_t start);

/**
 * bq_rate_ramp_end() - ramp_time is over: start the clocks again, as fio does
 * @w: the worker
 * @now: the time
 *
 * The rate schedules, rate_min's two seconds of grace, ss_ramp and
 * latency_target's depth search all start again from here.
 */
void bq_rate_ramp_end(struct bq_worker *w, uint64_t now);

/**
 * bq_rate_may_start() - whether the next I/O may be issued now
 * @w: the worker
 * @busy: I/Os in flight
 * @now: current time
 *
 * Takes a due thinktime pause (after draining what is in flight), holds
 * the depth to latency_target's, and keeps each direction to its rate.
 * When it says no with nothing in flight, the engine sleeps until
 * @w->next_submit_ns.
 *
 * Return: true to issue.
 */
bool bq_rate_may_start(struct bq_worker *w, unsigned int busy, uint64_t now);

/**
 * bq_rate_dir() - the direction of the next I/O
 * @w: the worker
 *
 * Return: the one bq_rate_may_start() let through: the mix's draw, or
 * the other direction when only it was within its rate (fio switches so
 * rather than idle).
 */
int bq_rate_dir(struct bq_worker *w);

/**
 * bq_rate_issued() - account an I/O as it is issued
 * @w: the worker
 * @s: the I/O
 */
void bq_rate_issued(struct bq_worker *w, const struct bq_slot *s);

/**
 * bq_rate_completed() - account a successful I/O; run the periodic checks
 * @w: the worker
 * @s: the I/O
 * @now: completion time, 0 when not measured (gtod_reduce)
 */
void bq_rate_completed(struct bq_worker *w, const struct bq_slot *s, uint64_t now);

/**
 * bq_rate_end() - the thread's I/O is over: final figures, no more limits
 * @w: the worker (a verify phase after this runs unlimited)
 */
void bq_rate_end(struct bq_worker *w);

/**
 * bq_rate_free() - free the state
 * @w: the worker
 */
void bq_rate_free(struct bq_worker *w);

/* ---- steadystate (rate_ss.c) --------------------------------------- */

struct bq_ss_window;
struct bq_rate_result;

/**
 * bq_ss_get() - a steady state window
 * @j: the job (ss_dur under a second: none)
 * @key: NULL for a thread's own window; the job's (its result) for the
 *       one its threads share under group_reporting
 * @out: receives the window, or NULL when the job has none
 *
 * Return: 0 or -ENOMEM.
 */
int bq_ss_get(const struct bq_job *j, const void *key, struct bq_ss_window **out);

/**
 * bq_ss_put() - a thread is done with its window
 * @ss: the window, or NULL
 */
void bq_ss_put(struct bq_ss_window *ss);

/**
 * bq_ss_start() - the first member's start starts the window's clock
 * @ss: the window, or NULL
 * @now: the time
 */
void bq_ss_start(struct bq_ss_window *ss, uint64_t now);

/**
 * bq_ss_ramp_end() - ramp_time is over: the window starts again
 * @ss: the window, or NULL
 * @now: the time
 */
void bq_ss_ramp_end(struct bq_ss_window *ss, uint64_t now);

/**
 * bq_ss_done() - count a completed I/O
 * @ss: the window
 * @len: its bytes
 * @lat_ns: its completion latency
 */
void bq_ss_done(struct bq_ss_window *ss, uint32_t len, uint64_t lat_ns);

/**
 * bq_ss_check() - take the interval's sample when it is due, judge the window
 * @ss: the window
 * @now: the time
 *
 * Return: true once steady state is attained: the thread ends.
 */
bool bq_ss_check(struct bq_ss_window *ss, uint64_t now);

/**
 * bq_ss_result() - the window's verdict and means, for a thread's result
 * @ss: the window, or NULL
 * @out: its ss_* fields are filled in
 */
void bq_ss_result(struct bq_ss_window *ss, struct bq_rate_result *out);

#endif /* BLKQUAL_RATE_H */
