/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_int.h - private: a run's state, shared by run.c (setting up,
 * starting, monitoring), run_figures.c (interval samples, device
 * counters, notes) and run_stalls.c (what stuck threads wait for)
 */
#ifndef BLKQUAL_RUN_INT_H
#define BLKQUAL_RUN_INT_H

#include "blkqual_raid.h"
#include "core/threads.h"
#include "engine.h"
#include "layout.h"
#include "target.h"

struct bq_vjob;

/* The running totals an interval sample is a difference of. */
struct iv_mark {
	uint64_t *buckets[BQ_NR_DIRS];
	uint64_t ios[BQ_NR_DIRS];
	uint64_t bytes[BQ_NR_DIRS];
	double sum[BQ_NR_DIRS];
	uint64_t count[BQ_NR_DIRS];
};

struct job_state {
	int fds[BQ_MAX_FILES];
	struct bq_raid0 raid;		/* the layout of a striped job */
	struct bq_target_info logical;	/* a striped job's array, as one target */
	int first_worker;
	struct iv_mark prev;		/* the threads' totals at the last interval sample */
	struct iv_mark before;		/* and at the one before it, to fold a short last one */
	bool ramp_sampled;
	struct bq_vjob *verify;		/* verify=: the job's state and findings */
	bool stats_done;		/* disk stats taken before a verify phase */
	struct bq_trace_mark *trace_mark;	/* --trace=block: where the job's window began */
	struct bq_trace_devs *trace_devs;	/* --trace=block: its targets' devices */
	struct bq_fileset *fset;	/* no filename=: the files fio would name (fileset.c) */
	bool start_sampled;		/* disk stats re-read where a late start began */
};

/**
 * struct run_order - what one phase of a run (bq_run() in run_order.c)
 * needs to know of the whole run
 * @exitall: some job of the run has exitall (it applies to all, as in fio)
 * @groupid: per job of the phase, its reporting group
 * @end_all: set by the phase: exit_what=all stopped everything
 * @genesis_ns: when the run began (startdelay counts from here)
 * @first_t0_ns: the first phase's start line (intervals count from here)
 * @ios_before: I/Os of the phases before this one
 * @bytes_before: their bytes
 * @layout: per job of the phase, what laying out its named files did
 *	(lib/io/layout.c), or NULL
 * @threads_before: their threads (fio's thread numbers go on across phases)
 * @done: the phases before this one, as they ended (status reports)
 * @all: every job of the run, @groupid_all their groups, @phase_end one
 *	past this phase's last (status reports show the later ones too)
 * @next_status_ns: when the next status report is due (they go on across
 *	phases)
 */
struct run_order {
	bool exitall;
	const int *groupid;
	bool end_all;
	uint64_t genesis_ns;
	uint64_t first_t0_ns;
	uint64_t ios_before;
	uint64_t bytes_before;
	const struct bq_layout_tally *layout;
	int threads_before;
	const struct bq_results *done;
	const struct bq_jobset *all;
	const int *groupid_all;
	size_t phase_end;
	uint64_t next_status_ns;
};

struct run_state {
	struct bq_ctx *ctx;
	const struct bq_run_opts *opts;
	struct bq_results *res;
	struct job_state *js;
	struct bq_worker *workers;
	int nr_workers;
	struct bq_held held;
	struct bq_threads *threads;	/* the workers' start line, watchdog and halt flag */
	uint64_t t0;			/* when they went */
	volatile int local_stop;
	volatile int *stop;		/* the caller's: a signal */
	volatile int *halt;		/* the workers': a signal, a gone target or a stall */
	uint64_t stall_ns;		/* when a stall was found; 0: none */
	uint64_t next_tick;		/* the monitor's next progress line */
	uint64_t next_iv;		/* its next interval sample */
	struct run_order *order;	/* job ordering: exitall, groups */
	struct bq_tsc clk;		/* the workers' clock, anchored as they are set up */
	struct bq_trace *trace;		/* --trace=block, else NULL */
};

/* run.c: when job @k started and when its last thread ended (0: still running) */
uint64_t run_job_began(const struct run_state *st, size_t k);
uint64_t run_job_ended(const struct run_state *st, size_t k);

/* run_phases.c */
int run_job_not_started(struct bq_job_result *jr, const struct bq_job *j, int groupid,
			const char *why);

/* run_status.c */
void run_status_tick(struct run_state *st, uint64_t now);

/* run_figures.c */
void __attribute__((format(printf, 2, 3))) run_job_note(struct bq_job_result *jr,
							const char *fmt, ...);
void run_sample_diskstats(struct run_state *st, struct bq_job_result *jr);
void run_finish_diskstats(struct run_state *st, struct bq_job_result *jr);

/* run_trace.c: --trace=block */
int run_trace_start(struct run_state *st, struct bq_parse_error *err);
void run_trace_mark(struct run_state *st, size_t k);
void run_trace_end(struct run_state *st, size_t k);
void run_trace_stop(struct run_state *st);
void run_mark_copy(struct iv_mark *dst, const struct iv_mark *src);
int run_sample_interval(struct run_state *st, size_t k, uint64_t t_ns);
void run_cache_note(struct bq_job_result *jr);

/* run.c: one phase, the jobs of @set all at once */
int run_phase(struct bq_ctx *ctx, const struct bq_jobset *set, const struct bq_run_opts *opts,
	      struct run_order *order, struct bq_results *res, struct bq_parse_error *err);

/* run_order.c */
uint64_t run_order_tick(struct run_state *st, uint64_t now);
int run_order_link(struct run_state *st, struct bq_parse_error *err);
void run_order_detach(struct run_state *st);
void run_order_progress(const struct run_state *st, struct bq_progress *p);
uint64_t run_order_offset(const struct run_state *st);

/* run_stalls.c */
uint64_t run_completions(void *arg, int i);
void run_record_stall(void *arg, int i, uint64_t now, uint64_t since);
bool run_worker_stuck(void *arg, int i, uint64_t now, uint64_t since);
void run_abandon_stuck(struct run_state *st);

/* placement_policy.c: cpus_allowed_policy (cpumask, cpus_allowed) */
int run_place_policy(struct run_state *st, struct bq_parse_error *err);

#endif /* BLKQUAL_RUN_INT_H */
