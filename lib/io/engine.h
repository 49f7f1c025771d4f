/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * engine.h - private: the per-thread worker every I/O engine drives
 *
 * The engines (io_uring, libaio, psync, nop) differ only in how they
 * submit and reap; what to do next, what a completion means and when to
 * stop is here, inline, because it runs once per I/O.
 */
#ifndef BLKQUAL_ENGINE_H
#define BLKQUAL_ENGINE_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "internal.h"
#include "blkqual_io.h"
#include "core/threads.h"
#include "core/tsc.h"
#include "io/buffers.h"
#include "io/rate.h"
#include "io/bsmap.h"
#include "io/fiorand.h"
#include "job/offgen.h"
#include "io/errfilter.h"

/**
 * struct bq_slot - one I/O in flight
 * @busy: set while the I/O is in flight (slot_issued() or slot_queued(),
 *        slot_done()), so
 *        that the run's watchdog can list what a stalled thread waits for
 */
struct bq_slot {
	uint64_t offset;
	uint64_t start_ns;
	uint32_t len;
	uint8_t dir;
	uint8_t file;
	uint8_t busy;
	uint8_t prio;		/* a cmdprio job's: its index in q.prio_val[dir] */
};

/*
 * The watchdog reads a slot from another thread only when its thread has
 * completed nothing for seconds; the release store orders the fields
 * before @busy for it.  On x86 and arm64 both are plain stores.
 */
static inline void slot_issued(struct bq_slot *s, uint64_t now)
{
	s->start_ns = now;
	__atomic_store_n(&s->busy, 1, __ATOMIC_RELEASE);
}

/*
 * Engines that submit in batches mark each I/O busy as it is prepared and
 * stamp the whole batch once, after the last one is prepared and just
 * before it goes to the kernel, so that no I/O's latency carries the
 * preparation of the others.  Between the two the watchdog may see a
 * slot's previous stamp, older, for a thread that is anything but stuck.
 */
static inline void slot_queued(struct bq_slot *s)
{
	__atomic_store_n(&s->busy, 1, __ATOMIC_RELEASE);
}

static inline void slot_done(struct bq_slot *s)
{
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELAXED);
}

/**
 * struct bq_file_state - where a thread is in one file
 * @base: byte offset of the job's region (offset=)
 * @span: bytes of the region
 * @seq_pos: next sequential byte offset within the region
 * @gen: random offsets in units of @unit
 * @map: random map of a job with several block sizes: one bit per unit,
 *       set once the unit is done this pass; NULL otherwise
 * @mapped: units set in @map
 * @limit: bytes of the target from @base on (fio's file size, where its
 *         offsets end); patterns only
 * @zone_off: start of the current strided zone, from @base
 * @last_pos: per direction, where the last I/O ended, from @base (fio's
 *            sequential position, kept per direction as fio does)
 * @last_start: per direction, where it started; UINT64_MAX: none yet
 */
struct bq_file_state {
	uint64_t base;
	uint64_t span;
	uint64_t seq_pos;
	struct bq_offgen gen;
	struct bq_bsmap *map;		/* several block sizes, random map: bsmap.c */
	uint64_t mapped;		/* units of @map done this pass */
	/* I/O patterns (pattern.c) */
	uint64_t limit;
	uint64_t zone_off;
	uint64_t last_pos[BQ_NR_DIRS];
	uint64_t last_start[BQ_NR_DIRS];
};

/* Indexes into struct bq_queue's prio_val[dir]. */
enum { BQ_PRIO_OFF, BQ_PRIO_ON, BQ_PRIO_BSS };

/**
 * struct bq_queue - fio's queue refill rules (queue.c)
 * @submit: submit every this many queued I/Os; 0: once per round
 * @low: once the queue was full, refill only when in flight falls to this
 * @reap_max: completions taken per reap; 0: every one that is ready
 * @serialize: hold an I/O back while one in flight overlaps it
 * @draining: the queue was full and has not yet fallen to @low
 * @held: the slot held back by @serialize; -1: none
 * @cmdprio: per-command priorities (cmdprio_percentage)
 * @prio_pct: per direction, the share of I/Os given @prio_on
 * @prio_on: per direction, cmdprio_class and cmdprio as an ioprio value
 * @prio_off: every other I/O's: the job's prio/prioclass/priohint, or 0
 * @prio_val: per direction, the ioprio values its I/Os may carry: @prio_off
 *            (BQ_PRIO_OFF), @prio_on (BQ_PRIO_ON), then cmdprio_bssplit's
 *            entries (BQ_PRIO_BSS + i); a slot keeps the index
 * @prio_rng: draws for @prio_pct, apart from the workload's own
 */
struct bq_queue {
	unsigned int submit;
	unsigned int low;
	unsigned int reap_max;
	bool serialize;
	bool draining;
	int held;
	bool cmdprio;
	uint8_t prio_pct[BQ_NR_DIRS];
	uint16_t prio_on[BQ_NR_DIRS];
	uint16_t prio_off;
	uint16_t prio_val[BQ_NR_DIRS][BQ_PRIO_BSS + BQ_MAX_BSSPLIT];
	uint64_t prio_rng;
};

struct bq_worker;
struct bq_vworker;
struct bq_fsrv;
struct bq_zbd;

#define BQ_ENGINE_MAX_ALIASES	3

/**
 * struct bq_engine_ops - one way of doing I/O
 * @name: as in ioengine=
 * @aliases: fio's other names for it, NULL after the last
 * @caps: what it can do and needs (BQ_ENGINE_RING, _SYNC, ...)
 * @setup: once the thread is pinned and its buffers exist, before the
 *         start line: rings, contexts, slot lists; state goes in
 *         @w->engine.  On failure, -errno with @w->setup_msg saying why.
 * @begin: optional; at the start line, before the first I/O
 * @loop: the hot loop: issue what worker_next() gives, complete it with
 *        worker_complete(), until worker_next() says done; 0 or -errno.
 *        Called again for a verify phase.
 * @end: optional; after the last loop, while the figures are still open
 * @ramp_end: optional; ramp_time is over: restart the engine's own figures
 * @teardown: optional; after the figures are final, also after a failed
 *            @setup, so it frees whatever part of @w->engine exists
 *
 * worker_run() owns the lifecycle; an engine is its own file plus one
 * line in registry.c.
 */
struct bq_engine_ops {
	const char *name;
	const char *aliases[BQ_ENGINE_MAX_ALIASES];
	unsigned int caps;
	int (*setup)(struct bq_worker *w);
	void (*begin)(struct bq_worker *w);
	int (*loop)(struct bq_worker *w);
	void (*end)(struct bq_worker *w);
	void (*ramp_end)(struct bq_worker *w);
	void (*teardown)(struct bq_worker *w);
};

extern const struct bq_engine_ops bq_engine_uring;
extern const struct bq_engine_ops bq_engine_uring_cmd;
extern const struct bq_engine_ops bq_engine_libaio;
extern const struct bq_engine_ops bq_engine_psync;
extern const struct bq_engine_ops bq_engine_nop;
extern const struct bq_engine_ops bq_engine_syncrw;
extern const struct bq_engine_ops bq_engine_pvsync;
extern const struct bq_engine_ops bq_engine_pvsync2;
extern const struct bq_engine_ops bq_engine_sg;

const struct bq_engine_ops *bq_engine_ops_of(enum bq_engine e);

/**
 * struct bq_worker - one thread of one job
 */
struct bq_worker {
	struct bq_tsc clk;		/* the I/O loops' clock: worker_now() */
	const struct bq_job *job;
	struct bq_job_result *jr;
	struct bq_thread_result *res;
	const struct bq_engine_ops *ops;
	void *engine;			/* the engine's own state, from its setup */
	int index;
	int cpu;
	int node;
	bool polled;
	int sqpoll_cpu;

	int fds[BQ_MAX_FILES];
	int nr_fds;			/* descriptors to register: files, or stripe members */
	int nr_files;			/* regions offsets are drawn over */
	const struct bq_raid0 *stripe;	/* --stripe: split I/O across the members */
	struct bq_file_state *files;	/* nr_files of them: 232 bytes each, 64 threads by 64 files was 1 MiB */
	unsigned int next_file;
	struct bq_fsrv *fsrv;		/* file_service_type, openfiles; NULL: one I/O per file */
	uint32_t unit;			/* offset granularity of random I/O */
	bool random;

	uint8_t *bufs;			/* depth buffers of buf_len bytes */
	size_t buf_len;
	size_t buf_total;
	struct bq_slot *slots;
	unsigned int nr_slots;		/* allocated; psync uses one of them */
	unsigned int depth;
	struct bq_offgen rng;		/* direction and block size draws */

	uint64_t bytes_left;
	uint64_t end_ns;		/* 0: no deadline */
	uint64_t ramp_end_ns;
	bool ramping;
	bool ramp_ended;		/* its figures restarted at the end of ramp_time */
	uint64_t next_submit_ns;	/* an engine with nothing in flight sleeps until then */
	struct bq_rate *rate;		/* rate.c's state while it applies; NULL: none */
	struct bq_rate *rate_mem;	/* the same, kept to be freed */
	unsigned int writes_since_sync;
	uint64_t writes_before_sync;	/* writes done before the last fsync= or fdatasync= */
	uint64_t sync_since_ns;		/* in fsync=N's flush since then; 0: not */
	uint64_t depth_sum;
	uint64_t depth_samples;
	bool stopping;			/* an error without continue_on_error */
	uint64_t streak_ok;		/* I/Os done when the current run of failures began */
	uint64_t streak_errors;		/* failures since then */
	uint64_t streak_start_ns;

	volatile int *stop;
	struct bq_threads *threads;	/* the run's: its start line */
	uint64_t finished_ns;
	uint64_t io_end_ns;		/* the job's I/O ended before a verify phase */
	struct bq_vworker *verify;	/* verify=: NULL unless the job verifies */

	int setup_err;
	char setup_msg[256];
	struct bq_thread_cpu ru_start;

	struct bq_bufgen buf;		/* buffer contents: io/buffers.c */
	/* I/O patterns (pattern.c) */
	bool pattern;			/* the job needs fio's full offset logic */
	uint64_t ios_left;		/* number_ios still to issue; UINT64_MAX: no limit */
	unsigned int seq_nr_left;	/* I/Os until the next new random offset */
	uint64_t zone_bytes;		/* bytes done in the current strided zone */
	/* job ordering (issue 19): startdelay ranges, wait_for, loops, exitall */
	uint64_t delay_ns;		/* its startdelay (drawn from a range) */
	const struct bq_worker *waitee;	/* wait_for: the named job's threads */
	int nr_waitee;
	uint64_t start_ns;		/* when its I/O began; 0: not yet */
	uint64_t loop_bytes;		/* one loop's bytes (loops=) */
	uint64_t loop_began;		/* bytes_left as the current loop began */
	uint64_t loops_left;		/* fio's count for the loops to come: loops x size, less
					 * what earlier loops issued; UINT64_MAX: no cap */
	uint32_t loop_block;		/* the one block size of a job whose loops end in whole
					 * blocks (whole_blocks()); 0: not such a job */
	bool never_ran;			/* exitall called it off before it started */
	void (*on_end)(struct bq_worker *w, bool failed);	/* exitall, exitall_on_error */
	void *run;			/* the run's state, for @on_end */
	/* trim workloads (issue 19; trim.c) */
	bool trim_write_due;		/* trimwrite: the write of the last trim is next */
	struct bq_slot trim_pair;	/* that trim: offset, length, file */
	uint64_t file_kind_known;	/* per file: worker_file_kind() looked it up */
	uint64_t file_blockdev;		/* per file: a block device (trims discard, else punch holes) */
	uint64_t file_regular;		/* per file: a regular file (a read may end at its end) */
	/* I/O logs and trace replay (issue 19; iolog_replay.c) */
	struct bq_iolog *iolog;		/* read_iolog's entries; NULL: not a replay */
	size_t iolog_pos;		/* the next entry */
	uint64_t iolog_last_ns;		/* when the last entry was issued; 0: none yet */
	struct bq_iolog_out *iolog_out;	/* write_iolog; NULL: none */
	/* zoned block devices (issue 19): zonemode=zbd, zbd.c */
	struct bq_zbd *zbd;		/* the target's zones; NULL: not zbd */
	bool zbd_done;			/* no zone can take the next I/O: the job ends */
	/* ioengine=sg: the failing command's sense (io/scsi.h), for the error report */
	uint32_t sense;
	/* queueing (issue 19; queue.c): fio's refill rules, when the job sets them */
	bool queue_rules;		/* the engines run their loop with the rules below */
	struct bq_queue q;
	bool cpu_shared;		/* cpus_allowed_policy=shared: runs anywhere in @cpuset */
	cpu_set_t cpuset;
	struct bq_flow *flow;		/* flow=: its flow (flow.c); NULL: none */
	uint64_t flow_count;		/* its I/Os counted in the flow */
	/* block sizes drawn per I/O (issue 19; bsmap.c): bssplit, bsrange */
	bool varbs;			/* offset first, then a size that fits, as fio */
	/*
	 * The hot paths' switches (worker_set_paths()): false when no rarer
	 * feature is on, so that a plain job's issue and completion skip
	 * their checks in one well-predicted branch.
	 */
	bool rare_next;
	bool rare_done;
	/* error filters and verify dumps (issue 19): the caller's callbacks */
	const struct bq_run_opts *run_opts;
	/* per-I/O log files (issues 19, 20; statlog.c) */
	struct bq_statlog *statlog;	/* write_lat_log and the like; NULL: none */
	/* trim rate caps (issue 19; trim_rate.c) */
	uint64_t trim_rate_t0;		/* the trims' schedule starts here; 0: no trim yet */
	uint64_t trim_rate_bytes;	/* trim bytes let through */
	uint64_t trim_rate_ios;		/* trims let through */
	double trim_rate_next_ns;	/* rate_process=poisson: the next trim, after t0 */
	uint64_t trim_rate_rng;		/* its draws */
	/* sequence distribution and SPRandom (issue 19; pattern.c, sprandom.c) */
	uint64_t seq_issued[BQ_NR_DIRS];	/* I/Os issued per direction (fio's io_issues) */
	struct bq_sprandom *spr;	/* sprandom's state; NULL: not sprandom */
	/* verify passes (issue 19; run_order.c): fio's write, read back, again */
	uint64_t size_bytes;		/* the thread's size: one pass's writes, at most */
	bool verify_passes;		/* a pass ends where the offsets do (no restart) */
	/* several block sizes (issue 19; fiorand.c): fio's own streams; NULL: other jobs */
	struct bq_fiodraw *fio;
};

/*
 * The time, for the I/O loops' stamps and the decisions taken with them:
 * the TSC where it can be trusted (core/tsc.h), else CLOCK_MONOTONIC.
 * An I/O's two stamps always come from the same thread's clock.
 */
static inline uint64_t worker_now(const struct bq_worker *w)
{
	return bq_tsc_ns(&w->clk);
}

/* iolog_replay.c: read_iolog replays, write_iolog records (issue 19) */
struct bq_iolog;
struct bq_iolog_out;
struct bq_target_info;
int bq_iolog_worker_init(struct bq_worker *w, const struct bq_target_info *ti);
bool bq_iolog_pick(struct bq_worker *w, struct bq_slot *s, uint64_t now);
void bq_iolog_record(struct bq_worker *w, const struct bq_slot *s);
void bq_iolog_record_sync(struct bq_worker *w, bool data_only);
void bq_iolog_worker_end(struct bq_worker *w);
void bq_iolog_worker_free(struct bq_worker *w);

/* statlog.c: write_lat_log, write_bw_log, write_iops_log; cmdprio_bssplit */
struct bq_statlog;
int bq_statlog_worker_init(struct bq_worker *w, int thread_number);
void bq_statlog_add(struct bq_worker *w, const struct bq_slot *s, uint64_t now);
void bq_statlog_worker_end(struct bq_worker *w);
int bq_statlog_worker_free(struct bq_worker *w, char *msg, size_t len);
uint16_t bq_cmdprio_of(struct bq_worker *w, struct bq_slot *s);

/* queue.c: iodepth_batch, iodepth_low, iodepth_batch_complete_max, serialize_overlap */
void bq_queue_init(struct bq_worker *w);
bool bq_queue_overlaps(const struct bq_worker *w, const struct bq_slot *s);
int bq_ioprio_apply(struct bq_worker *w);	/* ioprio.c: prio, prioclass */
int bq_numa_apply(struct bq_worker *w);		/* numa_policy.c */
void *bq_numa_alloc(struct bq_worker *w, size_t len);
struct bq_flow;
int bq_flow_join(struct bq_worker *w);		/* flow.c: flow_id, flow, flow_sleep */
void bq_flow_leave(struct bq_worker *w);
bool bq_flow_held(struct bq_worker *w, unsigned int inflight);
unsigned int bq_queue_cmdprio(struct bq_worker *w, int dir);
unsigned int bq_queue_draw100(struct bq_worker *w);

/* run_order.c: a thread's start (startdelay, wait_for) and its loops. */
uint64_t worker_order_start(struct bq_worker *w, uint64_t t0);
int worker_order_loops(struct bq_worker *w);

static inline uint64_t bq_bounded(struct bq_offgen *g, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)bq_rand_next(g) * n) >> 64);
}

static inline uint32_t worker_pick_len(struct bq_worker *w, int dir)
{
	const struct bq_job *j = w->job;

	if (j->nr_bssplit[dir]) {
		unsigned int r = (unsigned int)bq_bounded(&w->rng, 100), acc = 0;

		for (int i = 0; i < j->nr_bssplit[dir]; i++) {
			acc += j->bssplit[dir][i].pct;
			if (r < acc)
				return j->bssplit[dir][i].bs;
		}
		return j->bssplit[dir][j->nr_bssplit[dir] - 1].bs;
	}
	if (j->bs_min[dir] != j->bs_max[dir]) {
		uint32_t steps = (j->bs_max[dir] - j->bs_min[dir]) / j->bs_min[dir];

		return j->bs_min[dir] * (1 + (uint32_t)bq_bounded(&w->rng, steps + 1));
	}
	return j->bs[dir];
}

uint64_t worker_map_pick(struct bq_worker *w, struct bq_file_state *f, int dir, uint32_t *len);
uint64_t worker_varbs_offset(struct bq_worker *w, struct bq_file_state *f, int dir,
			     uint32_t *len);
uint32_t worker_fit_len(struct bq_worker *w, int dir, uint64_t room);
uint64_t worker_rand_offset(struct bq_worker *w, struct bq_file_state *f, int dir);
uint64_t worker_varbs_other_file(struct bq_worker *w, struct bq_slot *s, int *dir, uint32_t *len);
int bq_fsrv_next(struct bq_worker *w, uint32_t *len);	/* fileset_service.c */
void bq_fsrv_done(struct bq_worker *w, int f, uint32_t len);

/* zbd.c: an I/O of a zonemode=zbd job completed */
void bq_zbd_complete(struct bq_zbd *zbd, uint64_t off);

/* sprandom.c: sprandom=1's next write; false when it is done (issue 19) */
bool worker_sprandom_offset(struct bq_worker *w, struct bq_slot *s,
			    const struct bq_file_state *f, int dir);
int bq_sprandom_worker_init(struct bq_worker *w);

/* pattern.c: rw=...:N, percentage_random, strided zones, zoned distributions */
struct bq_target_info;

bool worker_pattern_pick(struct bq_worker *w, struct bq_slot *s, int dir);
void worker_pattern_restart(struct bq_worker *w);
void worker_pattern_init(struct bq_worker *w);
bool worker_pattern_wanted(const struct bq_job *j);
uint64_t bq_pattern_base(const struct bq_job *j, uint64_t target_size, int index,
			 uint32_t min_bs);
int bq_pattern_check(const struct bq_job *j, const struct bq_target_info *ti, uint64_t span,
		     uint32_t min_bs, struct bq_parse_error *err);

/* The direction of the next I/O, as the job's rw= and rwmixread draw it. */
static inline int worker_draw_dir(struct bq_worker *w)
{
	switch (w->job->rw) {
	case BQ_RW_READ:
	case BQ_RW_RANDREAD:
		return BQ_READ;
	case BQ_RW_WRITE:
	case BQ_RW_RANDWRITE:
		return BQ_WRITE;
	default:
		return bq_bounded(&w->rng, 100) < w->job->rwmixread ? BQ_READ : BQ_WRITE;
	}
}

/*
 * worker_pick()'s body, always inlined so that a constant @rare compiles
 * out the rarer features' checks: false only when @w->rare_next is.
 */
static __attribute__((always_inline)) inline bool
worker_pick_as(struct bq_worker *w, struct bq_slot *s, uint64_t now, const bool rare)
{
	const struct bq_job *j = w->job;
	struct bq_file_state *f;
	uint32_t len;
	int dir;

	if (rare && w->iolog != NULL)
		return bq_iolog_pick(w, s, now);
	if (w->stopping || *w->stop || (w->end_ns && now >= w->end_ns) || !w->bytes_left ||
	    (rare && !w->ios_left))
		return false;
	if (rare)
		w->ios_left--;
	/* A rate cap may have let the other direction go (bq_rate_may_start()). */
	if (rare && w->rate != NULL)
		dir = bq_rate_dir(w);
	else if (rare && w->fio != NULL && (j->rw == BQ_RW_RANDRW || j->rw == BQ_RW_RW))
		dir = bq_fiodraw_dir(w->fio, j);	/* fio's mix: its count depends on it */
	else
		dir = worker_draw_dir(w);
	if (rare && w->pattern)
		return worker_pattern_pick(w, s, dir);
	len = worker_pick_len(w, dir);
	if (rare && w->fsrv != NULL) {
		int fi = bq_fsrv_next(w, &len);

		if (fi < 0)
			return false;
		s->file = (uint8_t)fi;
	} else {
		/* fio's draws: files set aside (worker_varbs_other_file()) are skipped. */
		if (rare && w->fio != NULL)
			while (w->fio->done_files & (1ULL << w->next_file) &&
			       ~w->fio->done_files & ((2ULL << (w->nr_files - 1)) - 1))
				w->next_file = w->next_file + 1 == (unsigned int)w->nr_files ? 0 :
					       w->next_file + 1;
		s->file = (uint8_t)w->next_file;
		if (++w->next_file == (unsigned int)w->nr_files)
			w->next_file = 0;
	}
	f = &w->files[s->file];
	if (len > f->span)
		len = (uint32_t)f->span;
	if (rare && w->varbs) {
		uint64_t off = worker_varbs_offset(w, f, dir, &len);

		/* fio's draws: a file with no more offsets gives way to the next. */
		if (off == UINT64_MAX && w->fio != NULL && w->nr_files > 1 && w->fsrv == NULL)
			off = worker_varbs_other_file(w, s, &dir, &len);
		if (off == UINT64_MAX)
			return false;
		f = &w->files[s->file];
		s->offset = f->base + off;
	} else if (rare && w->spr != NULL) {
		if (!worker_sprandom_offset(w, s, f, dir))
			return false;
	} else if (w->random) {
		uint64_t off = bq_offgen_pick(&f->gen) * w->unit;

		/* A large block at the end of the region slides back inside it. */
		if (off + len > f->span)
			off = (f->span - len) / w->unit * w->unit;
		s->offset = f->base + off;
	} else {
		/* As fio, a last block that starts inside the region may end past it, if there is room. */
		if (f->seq_pos + len > f->span && (f->seq_pos >= f->span || f->seq_pos + len > f->limit))
			f->seq_pos = 0;
		s->offset = f->base + f->seq_pos;
		f->seq_pos += len;
	}
	if (!j->time_based) {
		if (__builtin_expect(len >= w->bytes_left, 0)) {
			/* fio issues a drawn size whole while it is short of the size. */
			if (!rare || !w->varbs)
				len = (uint32_t)w->bytes_left;
			w->bytes_left = 0;
		} else {
			w->bytes_left -= len;
		}
	}
	if (rare && w->fsrv != NULL)
		bq_fsrv_done(w, s->file, len);
	s->len = len;
	s->dir = (uint8_t)dir;
	return true;
}

/**
 * worker_pick() - the next I/O of the workload, or false when it is done
 * @w: the worker
 * @s: filled in (offset, length, direction, file)
 * @now: current time, for the deadline and the rate limit
 */
static inline bool worker_pick(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	return worker_pick_as(w, s, now, true);
}

/* trim.c: a job with rw=trim or trimwrite goes through this instead. */
bool worker_trim_next(struct bq_worker *w, struct bq_slot *s, uint64_t now);
int worker_trim_now(struct bq_worker *w, struct bq_slot *s, uint64_t now);
/* trim_nvme.c: io_uring_cmd's trims, NVMe DSM of num_range ranges */
int bq_trim_nvme(struct bq_worker *w, struct bq_slot *s, uint64_t *bytes, uint64_t now);
/* trim_rate.c: wait for the trim's turn under rate's or rate_iops's trim value. */
bool bq_trim_rate_wait(struct bq_worker *w, uint32_t len);

/* verify_run.c: a job with verify= goes through these instead. */
bool worker_verify_next(struct bq_worker *w, struct bq_slot *s, uint64_t now);
void worker_verify_complete(struct bq_worker *w, const struct bq_slot *s, int res);
bool worker_verify_phase(struct bq_worker *w, int ret);
void worker_verify_phase_end(struct bq_worker *w);
void worker_verify_leave(struct bq_worker *w);
bool worker_verify_passes(const struct bq_worker *w);
uint64_t worker_verify_read_bytes(const struct bq_worker *w);

/**
 * worker_next() - the next I/O to issue, or false when the thread is done
 * @w: the worker
 * @s: filled in (offset, length, direction, file); must be one of
 *     @w->slots, whose buffer is the I/O's
 * @now: current time, for the deadline and the rate limit
 */
static inline bool worker_next(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	bool more;

	if (__builtin_expect(!w->rare_next, 1)) {
		if (!worker_pick_as(w, s, now, false))
			return false;
		/* fio scrambles (or refills) every write's buffer, by default too. */
		if (s->dir == BQ_WRITE && w->buf.per_write)
			bq_buf_write(w, s, now);
		return true;
	}
	if (__builtin_expect(w->verify != NULL, 0))
		more = worker_verify_next(w, s, now);
	else if (__builtin_expect(w->job->trim != BQ_TRIM_NONE, 0))
		more = worker_trim_next(w, s, now);
	else
		more = worker_pick(w, s, now);
	if (!more)
		return false;
	if (__builtin_expect(w->iolog_out != NULL, 0))
		bq_iolog_record(w, s);
	/* fio scrambles (or refills) every write's buffer, by default too. */
	if (s->dir == BQ_WRITE && w->buf.per_write && !w->verify)
		bq_buf_write(w, s, now);
	if (__builtin_expect(w->rate != NULL, 0))
		bq_rate_issued(w, s);
	return true;
}

void worker_record_error(struct bq_worker *w, const struct bq_slot *s, int err);
bool worker_file_is_blockdev(struct bq_worker *w, int file);
void worker_complete_short(struct bq_worker *w, const struct bq_slot *s, int res,
			   uint64_t now) __attribute__((cold));
void worker_end_ramp(struct bq_worker *w, uint64_t now);

void worker_complete_rare(struct bq_worker *w, const struct bq_slot *s, int res,
			  uint64_t now);

/* The counts of a finished I/O that moved @len bytes: I/Os, bytes, writes since the flush. */
static inline void worker_count_io(struct bq_worker *w, const struct bq_slot *s, uint32_t len)
{
	struct bq_dir_result *d = &w->res->d[s->dir];

	d->ios++;
	d->bytes += len;
	if (s->dir == BQ_WRITE)
		w->writes_since_sync++;
}

/* What a finished I/O that moved @len bytes adds to the figures; @rare as below. */
static __attribute__((always_inline)) inline void worker_count_done(struct bq_worker *w,
				      const struct bq_slot *s, uint32_t len, uint64_t now, const bool rare)
{
	worker_count_io(w, s, len);
	if (now)
		bq_hist_add(&w->res->d[s->dir].lat, now - s->start_ns);
	if (rare && w->rate != NULL)
		bq_rate_completed(w, s, now);
	if (rare && w->statlog != NULL)
		bq_statlog_add(w, s, now);
}

/* worker_complete()'s body; a constant @rare false compiles the rarer features out. */
static __attribute__((always_inline)) inline void worker_complete_as(struct bq_worker *w, const struct bq_slot *s, int res,
				      uint64_t now, const bool rare)
{
	if (rare && w->ramping && now >= w->ramp_end_ns)
		worker_end_ramp(w, now);
	if (rare && w->verify != NULL)
		worker_verify_complete(w, s, res);
	/* zonemode=zbd: the zone is free for the job's other threads again. */
	if (rare && w->zbd != NULL)
		bq_zbd_complete(w->zbd, s->offset);
	if (__builtin_expect(res != (int)s->len, 0)) {
		worker_complete_short(w, s, res, now);
		return;
	}
	worker_count_done(w, s, s->len, now, rare);
}

/**
 * worker_complete() - account one finished I/O
 * @w: the worker
 * @s: the I/O
 * @res: bytes transferred, or -errno
 * @now: completion time (0 when latency is not measured)
 */
static inline void worker_complete(struct bq_worker *w, const struct bq_slot *s, int res,
				   uint64_t now)
{
	if (__builtin_expect(!w->rare_done, 1))
		worker_complete_as(w, s, res, now, false);
	else
		worker_complete_rare(w, s, res, now);
}

/**
 * struct worker_lat_run - completions of one reap round that share a latency
 * @start: their submission stamp
 * @n: how many (0: none yet)
 * @dir: their direction
 *
 * The I/Os of one submission batch share its stamp, and those reaped in
 * one round share the round's: their latencies are one value, recorded
 * once with its count (as t/io_uring records its batches), where it was
 * one histogram update per I/O.
 */
struct worker_lat_run {
	uint64_t start;
	uint32_t n;
	int dir;
};

/* Record the run so far, at the round's stamp @now. */
static inline void worker_lat_run_flush(struct worker_lat_run *run, struct bq_worker *w,
					uint64_t now)
{
	if (run->n)
		bq_hist_add_n(&w->res->d[run->dir].lat, now - run->start, run->n);
	run->n = 0;
}

/**
 * worker_complete_in_run() - worker_complete() for one I/O of a reap round
 * @w: the worker
 * @run: the round's run, flushed with worker_lat_run_flush() after the round
 * @s: the I/O
 * @res: bytes transferred, or -errno
 * @now: the round's stamp (0 when latency is not measured)
 */
static inline void worker_complete_in_run(struct bq_worker *w, struct worker_lat_run *run,
					  const struct bq_slot *s, int res, uint64_t now)
{
	if (__builtin_expect(w->rare_done || res != (int)s->len || !now, 0)) {
		worker_complete(w, s, res, now);
		return;
	}
	worker_count_io(w, s, s->len);
	if (s->start_ns == run->start && s->dir == run->dir) {
		run->n++;
		return;
	}
	worker_lat_run_flush(run, w, now);
	run->start = s->start_ns;
	run->dir = s->dir;
	run->n = 1;
}

/**
 * worker_set_paths() - choose the hot paths for the features now on
 * @w: the worker, set up
 *
 * Called before each pass of the engine's loop: features are switched on
 * at set-up and only ever off during a run (a ramp ending, a verify phase
 * dropping the rate caps), so a path chosen here stays right until the
 * next pass, at worst slower than it needs to be.
 */
static inline void worker_set_paths(struct bq_worker *w)
{
	w->rare_next = w->iolog || w->ios_left != UINT64_MAX || w->rate || w->pattern ||
		       w->fsrv || w->varbs || w->verify || w->job->trim != BQ_TRIM_NONE ||
		       w->iolog_out || w->spr;
	w->rare_done = w->ramping || w->verify || w->zbd || w->rate || w->statlog;
}

/*
 * Completions to wait for per system call.  When latency is measured,
 * one, as fio does: a completion the tester waited past would be stamped
 * late (with DEFER_TASKRUN it is not even posted until the wait ends).
 * With gtod_reduce=1 nothing is stamped, so wait for half the queue and
 * enter the kernel a fraction as often.  iodepth_batch_complete_min sets
 * it either way; mean_depth in the results shows what the device had.
 */
static inline unsigned int worker_batch(const struct bq_worker *w)
{
	unsigned int b = w->job->batch_complete;

	if (!b)
		b = w->job->gtod_reduce ? w->depth / 2 : 1;
	return b < 1 ? 1 : b > w->depth ? w->depth : b;
}

/*
 * One stamp for a submission batch (see slot_queued()).  The engines'
 * free lists pop from the top: what the batch took is still in
 * free[from, to).  With gtod_reduce nothing is timed, and the watchdog
 * gets the time the batch was picked (@now), without a clock read.
 */
static inline void slots_stamp_batch(struct bq_worker *w, const uint16_t *free,
				     unsigned int from, unsigned int to, uint64_t now)
{
	if (from == to)
		return;
	if (!w->job->gtod_reduce)
		now = worker_now(w);
	for (unsigned int k = from; k < to; k++)
		w->slots[free[k]].start_ns = now;
}

static inline void worker_depth_sample(struct bq_worker *w, unsigned int inflight)
{
	w->depth_sum += inflight;
	w->depth_samples++;
}

/* Whether the writes since the last flush passed a multiple of @every. */
static inline bool worker_sync_crossed(const struct bq_worker *w, unsigned int every)
{
	return every && (w->writes_before_sync + w->writes_since_sync) / every >
			w->writes_before_sync / every;
}

/*
 * Asked before every submission: inline, and false at once without
 * fsync= or fdatasync=.  As in fio, a flush goes before a further I/O
 * only: none follows the job's last write (end_fsync is for that), and
 * with both options a write count that is a multiple of both gets the
 * fsync alone.
 */
static inline bool worker_sync_due(const struct bq_worker *w)
{
	const struct bq_job *j = w->job;

	if (!j->fsync_every && !j->fdatasync_every)
		return false;
	return w->bytes_left && (worker_sync_crossed(w, j->fsync_every) ||
				 worker_sync_crossed(w, j->fdatasync_every));
}

int worker_sync(struct bq_worker *w);
void worker_end_sync(struct bq_worker *w);

/**
 * worker_may_start() - whether the next I/O may be issued now
 * @w: the worker
 * @busy: I/Os in flight or queued but not yet submitted
 * @now: current time
 *
 * fsync=N first drains what is in flight, then syncs; rate caps,
 * thinktime and latency_target's depth must allow it (rate.c).  Every engine asks this before each I/O.
 */
static inline bool worker_may_start(struct bq_worker *w, unsigned int busy, uint64_t now)
{
	if (worker_sync_due(w)) {
		if (busy)
			return false;
		int ret = worker_sync(w);

		/* A failed flush is a write error to fio's filters. */
		if (ret && bq_error_verdict(w->job, BQ_WRITE, -ret) == BQ_ERR_FATAL)
			w->stopping = true;
	}
	if (__builtin_expect(w->rate != NULL, 0))
		return bq_rate_may_start(w, busy, now);
	return true;
}
int worker_run(struct bq_worker *w);
void worker_sleep_until(const struct bq_worker *w, uint64_t t_ns);

/**
 * worker_wait_until() - sleep until @until, or until the run is stopped
 * @w: the worker
 * @until: monotonic time to wake at
 * @now: the time now
 *
 * Return: the time on waking.
 */
uint64_t worker_wait_until(struct bq_worker *w, uint64_t until, uint64_t now);

#endif /* BLKQUAL_ENGINE_H */
