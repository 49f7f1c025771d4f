/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_ops.h - file-level workloads: threads that make system calls
 * (open, write, fsync, mkdir, ...) with per-operation statistics
 *
 * The latency probe, file trees, file sets and loadfile replay all count
 * operations the same way: a count, bytes, errors and a latency histogram
 * per kind of operation, per thread, summed at the end, and sampled every
 * interval while the run goes on.
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_OPS_H
#define BLKQUAL_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "blkqual.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* Kinds of operation one workload may count (its own numbering, 0-based). */
#define BQ_OPS_MAX 32

/**
 * struct bq_op_stat - one kind of operation
 * @count: operations done, failed ones included
 * @bytes: bytes moved (reads and writes)
 * @errors: operations that failed (or, for replay, got another status
 *          than the loadfile expected)
 * @lat_sum_ns: sum of latencies, for interval means
 * @lat: latency histogram
 *
 * @count, @bytes, @errors and @lat_sum_ns are written by their thread and
 * read by the sampler while the run goes on, always with relaxed atomics;
 * @lat is read only after the threads have ended.
 */
struct bq_op_stat {
	uint64_t count;
	uint64_t bytes;
	uint64_t errors;
	uint64_t lat_sum_ns;
	struct bq_hist lat;
};

/**
 * struct bq_op_error - the first failures of a thread
 * @op: kind of operation
 * @err: positive errno (or, for replay, a status mismatch: EPROTO)
 * @offset: byte offset, or -1 when the operation has none
 * @what: the file or line it happened on
 */
struct bq_op_error {
	int op;
	int err;
	int64_t offset;
	char what[192];
};

#define BQ_OPS_MAX_ERRORS 16

/**
 * struct bq_ops_thread - one worker thread
 * @id: 0 .. nr_threads - 1
 * @op: statistics per kind of operation (nr_ops of them)
 * @errors: the first failures
 * @nr_errors: how many of @errors are filled
 * @usr_ns: user CPU time of the thread (set when it ends)
 * @sys_ns: system CPU time of the thread (set when it ends)
 * @ret: what the thread function returned
 * @msg: why it returned an error, one line
 * @deadline_ns: CLOCK_MONOTONIC time to stop at; 0 for none
 * @stop: the run's stop flag (a signal seen, or another thread stuck)
 * @user_stop: the caller's stop flag, read directly so a stop is never missed
 * @tid: the kernel's id of the thread, for the stall watchdog
 */
struct bq_ops_thread {
	int id;
	int tid;
	struct bq_op_stat op[BQ_OPS_MAX];
	struct bq_op_error errors[BQ_OPS_MAX_ERRORS];
	int nr_errors;
	uint64_t usr_ns;
	uint64_t sys_ns;
	int ret;
	char msg[256];
	uint64_t deadline_ns;
	volatile int *stop;
	volatile int *user_stop;
};

/**
 * struct bq_ops_sample - one interval, every thread added up
 * @t_ns: end of the interval, since the start
 * @dt_ns: its length
 * @count: operations per kind in the interval
 * @bytes: bytes per kind in the interval
 * @errors: failures per kind in the interval
 * @mean_ns: mean latency per kind in the interval (0 when none)
 * @cpu_total_pct: machine-wide CPU busy, percent of all CPUs (/proc/stat)
 * @cpu_sys_pct: the system (kernel) part of it
 */
struct bq_ops_sample {
	uint64_t t_ns;
	uint64_t dt_ns;
	uint64_t count[BQ_OPS_MAX];
	uint64_t bytes[BQ_OPS_MAX];
	uint64_t errors[BQ_OPS_MAX];
	double mean_ns[BQ_OPS_MAX];
	double cpu_total_pct;
	double cpu_sys_pct;
};

/*
 * stall_timeout_ns of the workloads' options: a thread that has finished no
 * operation for this long while blocked in one system call is stuck; 0
 * means BQ_OPS_STALL_DEFAULT_NS, BQ_OPS_NO_STALL_TIMEOUT turns the watchdog
 * off.  The kernel's hung task warning comes after 120 s in D state; an fsync
 * of a large dirty file on a slow disk can take tens of seconds legitimately.
 */
#define BQ_OPS_STALL_DEFAULT_NS (120ull * 1000000000ull)
#define BQ_OPS_NO_STALL_TIMEOUT UINT64_MAX

/**
 * struct bq_ops_stall - a thread stuck in one system call
 * @thread: its id
 * @call: the system call ("fsync", "openat"), or "syscall N"
 * @path: the file it works on, from its descriptor or path argument, or ""
 * @stalled_ns: time since the thread last finished an operation
 */
struct bq_ops_stall {
	int thread;
	char call[32];
	char path[256];
	uint64_t stalled_ns;
};

/**
 * struct bq_ops_result - a whole run
 * @threads: per thread
 * @nr_threads: how many
 * @nr_ops: kinds of operation
 * @total: every thread added up, per kind
 * @runtime_ns: from the start line to the last thread's end
 * @usr_ns: user CPU time of all the threads
 * @sys_ns: system CPU time of all the threads
 * @cpu_total_pct: machine-wide CPU busy over the run, percent
 * @cpu_sys_pct: the system part of it
 * @samples: the interval series
 * @nr_samples: its length
 * @interrupted: ended through the stop flag
 * @failed: threads whose function returned an error
 * @stalls: threads stuck in a system call (stall_timeout_ns), @nr_stalls
 *          of them.  The run returned without waiting for them: @threads
 *          is a snapshot, but the workload's own state (the @arg of its
 *          threads) may still be used by them, so report and end the
 *          process.
 */
struct bq_ops_result {
	struct bq_ops_thread *threads;
	int nr_threads;
	int nr_ops;
	struct bq_op_stat total[BQ_OPS_MAX];
	uint64_t runtime_ns;
	uint64_t usr_ns;
	uint64_t sys_ns;
	double cpu_total_pct;
	double cpu_sys_pct;
	struct bq_ops_sample *samples;
	size_t nr_samples;
	bool interrupted;
	int failed;
	struct bq_ops_stall *stalls;
	int nr_stalls;
};

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_OPS_H */
