/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ops_int.h - private: the system-call runner (ops_run.c) as the file
 * workloads and the tests drive it; the command only reads its results
 */
#ifndef BLKQUAL_OPS_INT_H
#define BLKQUAL_OPS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual_ops.h"

/**
 * bq_ops_record() - count one finished operation
 * @t: the thread
 * @op: kind of operation
 * @bytes: bytes it moved
 * @lat_ns: how long it took
 * @failed: it failed (it is still counted, and its latency recorded)
 */
void bq_ops_record(struct bq_ops_thread *t, int op, uint64_t bytes, uint64_t lat_ns,
		   bool failed);

/**
 * bq_ops_error() - keep one failure for the report (the first
 * BQ_OPS_MAX_ERRORS per thread; later ones are only counted)
 * @t: the thread
 * @op: kind of operation
 * @err: positive errno
 * @offset: byte offset, or -1
 * @what: file name or loadfile line
 */
void bq_ops_error(struct bq_ops_thread *t, int op, int err, int64_t offset, const char *what);

/**
 * bq_ops_should_stop() - the run is over for this thread
 * @t: the thread
 *
 * True once the deadline has passed or the stop flag is set; cheap enough
 * to call before every operation.
 *
 * Return: true to stop.
 */
bool bq_ops_should_stop(const struct bq_ops_thread *t);

/**
 * bq_ops_halted() - the run was stopped (a signal, or a thread stuck),
 * whatever the deadline says
 * @t: the thread
 *
 * For phases with no deadline, such as laying out a file tree.
 *
 * Return: true to stop.
 */
bool bq_ops_halted(const struct bq_ops_thread *t);

/**
 * typedef bq_ops_fn - body of a worker thread
 * @t: the thread; call bq_ops_should_stop() before each operation and
 *     bq_ops_record() after it
 * @arg: struct bq_ops_opts.arg
 *
 * Return: 0 when it stopped as asked (or ran out of work), or -errno with
 * @t->msg saying why; a failing thread does not stop the others.
 */
typedef int (*bq_ops_fn)(struct bq_ops_thread *t, void *arg);

/**
 * struct bq_ops_opts - how to run
 * @nr_threads: threads (>= 1)
 * @nr_ops: kinds of operation counted (<= BQ_OPS_MAX)
 * @duration_ns: stop after this long; 0 runs until every thread returns
 * @interval_ns: sample period; 0 for no samples
 * @stop: set non-zero (a signal handler) to end early, or NULL
 * @fn: the thread body
 * @arg: passed to @fn
 * @on_sample: called from the calling thread after each sample, or NULL
 * @sample_arg: passed to @on_sample
 * @stall_timeout_ns: a thread that has finished no operation for this long
 *                    while blocked in one system call is stuck; 0 means
 *                    BQ_OPS_STALL_DEFAULT_NS, BQ_OPS_NO_STALL_TIMEOUT turns
 *                    the watchdog off
 */
struct bq_ops_opts {
	int nr_threads;
	int nr_ops;
	uint64_t duration_ns;
	uint64_t interval_ns;
	volatile int *stop;
	bq_ops_fn fn;
	void *arg;
	void (*on_sample)(void *sample_arg, const struct bq_ops_sample *s);
	void *sample_arg;
	uint64_t stall_timeout_ns;
};

/**
 * bq_ops_run() - start the threads together, sample, wait, add up
 * @ctx: context (its proc root gives /proc/stat), or NULL for /proc
 * @o: what to run
 * @res: receives the results, also when the run ended early; free with
 *       bq_ops_result_free()
 *
 * Return: 0 when the threads ran (look at @res->failed and each thread's
 * @ret), -EINVAL for bad options, -ENOMEM, or -errno from pthread_create
 * (then no thread was left running).
 */
int bq_ops_run(struct bq_ctx *ctx, const struct bq_ops_opts *o, struct bq_ops_result *res);

/**
 * bq_ops_result_free() - free a run's results
 * @res: the results
 */
void bq_ops_result_free(struct bq_ops_result *res);

/**
 * struct bq_cpu_times - machine-wide CPU counters (/proc/stat "cpu" line)
 */
struct bq_cpu_times {
	uint64_t busy;
	uint64_t sys;
	uint64_t total;
};

/**
 * bq_cpu_times_read() - read the counters
 * @ctx: context or NULL
 * @c: filled in (clock ticks)
 *
 * Return: 0 or -errno.
 */
int bq_cpu_times_read(struct bq_ctx *ctx, struct bq_cpu_times *c);

/**
 * bq_cpu_busy_pct() - busy and system percentages between two readings
 * @a: earlier
 * @b: later
 * @sys_pct: receives the system part, or NULL
 *
 * Return: busy percent of all CPUs.
 */
double bq_cpu_busy_pct(const struct bq_cpu_times *a, const struct bq_cpu_times *b,
		       double *sys_pct);

#endif /* BLKQUAL_OPS_INT_H */
