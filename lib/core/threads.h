/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * threads.h - private: a run's threads, from the start line to the stuck
 * ones left behind
 *
 * Block I/O runs (lib/io/run.c) and system-call workloads
 * (lib/workloads/ops_run.c) both start N threads together, watch them
 * while they work, notice one that has made no progress for its stall
 * timeout, stop the others, and leave the stuck ones behind with what
 * they may still touch.  The parts that differ (what progress is, what a
 * stuck thread waits for, what to sample meanwhile) are callbacks.
 */
#ifndef BLKQUAL_CORE_THREADS_H
#define BLKQUAL_CORE_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.h"

struct bq_threads;

/**
 * struct bq_threads_ops - what a run's threads do, and what it watches
 * @work: the body of thread @i; it calls bq_threads_arrive() once set up
 * @progress: a count that moves while thread @i gets work done
 * @stuck: thread @i made no progress since @quiet_since; if it is stuck
 *         (I/O in flight for the whole timeout, blocked in a system
 *         call), record what it waits for and return true
 * @straggler: thread @i still runs a second after the others were told to
 *             stop; record it as stuck (@quiet_since 0: never watched)
 * @tick: optional; the run's periodic work (samples, progress), called
 *        at least every 50 ms; returns when it wants to be called next
 *
 * Every callback but @work runs in the monitoring thread.
 */
struct bq_threads_ops {
	void (*work)(void *arg, int i);
	uint64_t (*progress)(void *arg, int i);
	bool (*stuck)(void *arg, int i, uint64_t now, uint64_t quiet_since);
	void (*straggler)(void *arg, int i, uint64_t now, uint64_t quiet_since);
	uint64_t (*tick)(void *arg, uint64_t now);
};

struct bq_threads *bq_threads_new(int n, const struct bq_threads_ops *ops, void *arg,
				  volatile int *user_stop);
void bq_threads_watch(struct bq_threads *t, int i, uint64_t stall_ns);
void bq_threads_stop_now(struct bq_threads *t, volatile int *now);
int bq_threads_start(struct bq_threads *t, int *started);
void bq_threads_wait_arrived(struct bq_threads *t);
void bq_threads_open(struct bq_threads *t, bool go);
bool bq_threads_arrive(struct bq_threads *t);
uint64_t bq_threads_t0(const struct bq_threads *t);
bool bq_threads_went(const struct bq_threads *t);
volatile int *bq_threads_halt(struct bq_threads *t);
uint64_t bq_threads_monitor(struct bq_threads *t);
bool bq_threads_stalled(const struct bq_threads *t, int i);
int bq_threads_cpu_since(const struct bq_threads *t, int i, const struct bq_thread_cpu *start,
			 uint64_t *usr_ns, uint64_t *sys_ns);
bool bq_threads_join(struct bq_threads *t);
void bq_threads_free(struct bq_threads *t);
void bq_threads_abandon(struct bq_threads *t, void *keep);

#endif /* BLKQUAL_CORE_THREADS_H */
