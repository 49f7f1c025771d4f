// SPDX-License-Identifier: GPL-2.0-only
/*
 * worker.c - what every engine's thread does around its I/O loop:
 * pinning, buffers on the right node, the start line, errors, fsync,
 * CPU accounting
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "errfilter.h"
#include "fill.h"
#include "target.h"

/*
 * @t_ns is on the worker's clock (worker_now()), which may drift from
 * CLOCK_MONOTONIC by the TSC rate's error over a long run: sleep for the
 * difference, not until @t_ns on the kernel's clock.
 */
void worker_sleep_until(const struct bq_worker *w, uint64_t t_ns)
{
	uint64_t now = worker_now(w), d;
	struct timespec ts;

	if (t_ns <= now)
		return;
	d = t_ns - now;
	ts.tv_sec = (time_t)(d / 1000000000ULL);
	ts.tv_nsec = (long)(d % 1000000000ULL);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* Long waits are cut into slices, so that a stop (^C) is seen in time. */
#define WAIT_SLICE_NS (100 * 1000000ULL)

uint64_t worker_wait_until(struct bq_worker *w, uint64_t until, uint64_t now)
{
	while (now < until && !*w->stop) {
		worker_sleep_until(w, until - now > WAIT_SLICE_NS ? now + WAIT_SLICE_NS : until);
		now = worker_now(w);
	}
	return now;
}

/* Pin the thread, allocate its buffers on its node; -errno with @w->setup_msg. */
static int worker_prepare(struct bq_worker *w)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	cpu_set_t set;

	char name[16];

	/* "bq:JOB.N" shows in top and lets tests find the worker threads. */
	snprintf(name, sizeof(name), "bq:%.8s.%d", w->job->name, w->index);
	pthread_setname_np(pthread_self(), name);
	/* cpus_allowed_policy=shared: the whole list, as fio sets it (w->cpu is -1) */
	if (w->cpu_shared && pthread_setaffinity_np(pthread_self(), sizeof(w->cpuset),
						    &w->cpuset)) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot set the CPU affinity");
		return -EINVAL;
	}
	if (w->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
			snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot pin to CPU %d", w->cpu);
			return -EINVAL;
		}
	}
	if (bq_rate_init(w)) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot allocate the rate state");
		return -ENOMEM;
	}
	bq_queue_init(w);
	if (bq_ioprio_apply(w) || bq_numa_apply(w))
		return -errno;
	if (bq_flow_join(w))
		return -ENOMEM;
	w->buf_total = (w->buf_len * w->depth + page - 1) / page * page;
	if (!w->buf_total)
		return 0;
	/* numa_mem_policy: plain pages, which follow the thread's policy */
	if (w->job->numa_mem_mode)
		w->bufs = bq_numa_alloc(w, w->buf_total);
	/* numa_alloc_onnode() maps fresh pages bound to the node. */
	else if (w->node >= 0 && numa_available() >= 0)
		w->bufs = numa_alloc_onnode(w->buf_total, w->node);
	else
		w->bufs = numa_alloc_local(w->buf_total);
	if (!w->bufs) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot allocate %zu bytes of buffers",
			 w->buf_total);
		return -ENOMEM;
	}
	bq_buf_prepare(w);
	/* Ask the kernel where the (now touched) pages really are. */
	w->res->buf_node = -1;
	if (get_mempolicy(&w->res->buf_node, NULL, 0, w->bufs, MPOL_F_NODE | MPOL_F_ADDR))
		w->res->buf_node = -1;
	return 0;
}

static void set_deadlines(struct bq_worker *w, uint64_t start)
{
	const struct bq_job *j = w->job;

	w->ramp_end_ns = start + j->ramp_ns;
	w->ramping = j->ramp_ns > 0;
	w->end_ns = j->runtime_ns ? start + j->ramp_ns + j->runtime_ns : 0;
	w->next_submit_ns = start;
	bq_rate_start(w, start);
	/* The default 50 us of slack is a whole period at 20k IOPS. */
	if (w->rate)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

/*
 * Report set-up (0, or why this thread cannot run, with @w->setup_msg),
 * wait for every thread, start together.  False when any thread failed.
 */
static bool worker_start_line(struct bq_worker *w, int setup_err)
{
	uint64_t start;

	w->setup_err = setup_err;
	if (!bq_threads_arrive(w->threads))
		return false;
	start = worker_order_start(w, bq_threads_t0(w->threads));
	set_deadlines(w, start);
	bq_thread_cpu(&w->ru_start);
	return true;
}

static void worker_finish(struct bq_worker *w)
{
	struct bq_thread_cpu end;

	bq_thread_cpu(&end);
	w->res->usr_ns = end.usr_ns - w->ru_start.usr_ns;
	w->res->sys_ns = end.sys_ns - w->ru_start.sys_ns;
	w->res->vol_cs = end.vol_cs - w->ru_start.vol_cs;
	w->res->invol_cs = end.invol_cs - w->ru_start.invol_cs;
	if (w->depth_samples)
		w->res->mean_depth = (double)w->depth_sum / (double)w->depth_samples;
	bq_iolog_worker_end(w);
	bq_statlog_worker_end(w);
	if (w->bufs)
		numa_free(w->bufs, w->buf_total);
	w->bufs = NULL;
	/* A verify phase is not part of the job's runtime. */
	/* The monitor reads it to close the job's device counters as it ends. */
	__atomic_store_n(&w->finished_ns, w->io_end_ns ? w->io_end_ns : bq_now_ns(),
			 __ATOMIC_RELEASE);
}

/**
 * worker_run() - one thread of a job, from set-up to its final figures
 * @w: the worker, filled in by the run
 *
 * The lifecycle every engine shares: pin and allocate, the engine's set-up,
 * the start line, the engine's loop, a verify phase when the job has one,
 * the thread's CPU time and depth, the engine's teardown.  The loop is the
 * engine's own, so each keeps its tight per-I/O path.
 *
 * Return: 0, or how the engine failed (-errno; also counted as an error).
 */
int worker_run(struct bq_worker *w)
{
	const struct bq_engine_ops *e = w->ops;
	int ret;

	/* One I/O per call: fio ignores iodepth for these too. */
	if (e->caps & BQ_ENGINE_SYNC)
		w->depth = 1;
	ret = worker_prepare(w);
	if (!ret && e->setup)
		ret = e->setup(w);
	if (worker_start_line(w, ret) && !ret) {
		if (e->begin)
			e->begin(w);
		ret = worker_order_loops(w);
		if (ret) {
			struct bq_slot none = { .dir = BQ_READ };

			worker_record_error(w, &none, -ret);
		}
		if (e->end)
			e->end(w);
	}
	worker_finish(w);
	bq_flow_leave(w);
	bq_rate_free(w);
	if (e->teardown)
		e->teardown(w);
	return ret;
}

/* Looks file @file's kind up once: a block device, a regular file, or neither (sg). */
static void worker_file_kind(struct bq_worker *w, int file)
{
	uint64_t bit = 1ULL << file;
	struct stat st;

	if ((w->file_kind_known & bit) || file >= w->nr_fds || fstat(w->fds[file], &st))
		return;
	w->file_kind_known |= bit;
	if (S_ISBLK(st.st_mode))
		w->file_blockdev |= bit;
	else if (S_ISREG(st.st_mode))
		w->file_regular |= bit;
}

/**
 * worker_file_is_blockdev() - whether a thread's file is a block device
 * @w: the worker
 * @file: the file's index
 *
 * Return: true for a block device; false for anything else, or when it
 * cannot be told (no descriptor).
 */
bool worker_file_is_blockdev(struct bq_worker *w, int file)
{
	worker_file_kind(w, file);
	return w->file_blockdev & (1ULL << file);
}

/**
 * worker_complete_short() - account an I/O that did not move all it asked
 * @w: the worker
 * @s: the I/O
 * @res: bytes it transferred, or -errno
 * @now: completion time (0 when latency is not measured)
 *
 * A regular file may end before a job's region does: with
 * create_on_open=1 the job's own writes grow it, and a read ahead of
 * them gets what there is, often nothing.  fio's asynchronous engines
 * count such a read as done with the bytes it got, and so does blkqual,
 * for every engine, counting it as short besides (fio's synchronous
 * engines fail the job instead).  A block device, or any write, falling
 * short is a failure; a short write of fill_device is the end of the
 * space (fio's retry of it gets ENOSPC).  Off the hot path: the engines'
 * loops keep only the test for it.
 */
void worker_complete_short(struct bq_worker *w, const struct bq_slot *s, int res, uint64_t now)
{
	if (s->dir == BQ_READ && res >= 0 && res < (int)s->len) {
		worker_file_kind(w, s->file);
		if (w->file_regular & (1ULL << s->file)) {
			w->res->d[BQ_READ].short_ios++;
			worker_count_done(w, s, (uint32_t)res, now, true);
			return;
		}
	}
	worker_record_error(w, s, res < 0 ? -res : w->job->fill_device ? ENOSPC : EIO);
}

#define GIVE_UP_NS 1000000000ULL

/*
 * continue_on_error is for a device with bad spots, not for one that has
 * gone: the kernel says it is gone (ENXIO, ENODEV), or nothing has
 * succeeded for a second while I/Os kept failing (a detached loop device,
 * a truncated backing file, a dead disk fail everything with EIO).  A
 * success ends the streak; it shows as a change in the I/O count, so the
 * I/O path pays nothing for this: the clock is read only on failures.
 */
static bool worker_device_gone(struct bq_worker *w, int err)
{
	const struct bq_thread_result *r = w->res;
	uint64_t ok = r->d[BQ_READ].ios + r->d[BQ_WRITE].ios;

	if (err == ENXIO || err == ENODEV)
		return true;
	if (!w->streak_errors || ok != w->streak_ok) {
		w->streak_ok = ok;
		w->streak_errors = 0;
		w->streak_start_ns = bq_now_ns();
	}
	/* More than a stray failure or two, for at least a second. */
	return ++w->streak_errors >= 4 && bq_now_ns() - w->streak_start_ns >= GIVE_UP_NS;
}

/**
 * worker_record_error() - count a failed I/O, keep the first few in full
 * @w: the worker
 * @s: the I/O
 * @err: positive errno
 */
void worker_record_error(struct bq_worker *w, const struct bq_slot *s, int err)
{
	struct bq_thread_result *r = w->res;
	struct bq_io_error e = {
		.offset = s->offset, .len = s->len, .err = err, .dir = s->dir, .file = s->file,
		.sense = w->sense,
	};
	enum bq_err_verdict v;

	/* fill_device: the target is full, the job is done (fill.c). */
	if (__builtin_expect(w->job->fill_device, 0) && bq_fill_full(w, s, err))
		return;
	r->d[s->dir].errors++;
	if (r->nr_errors < BQ_MAX_IO_ERRORS)
		r->errors[r->nr_errors++] = e;
	bq_io_error_count(r, &e);
	bq_error_dump(w, &e);
	/*
	 * fio's continue_on_error and ignore_error (errfilter.c).  An errno
	 * the job lists is expected, ENOSPC on a full filesystem say: no
	 * streak of them means the device is gone, only the kernel's word.
	 */
	v = bq_error_verdict(w->job, s->dir, err);
	if (v == BQ_ERR_IGNORED)
		r->ignored_errors++;
	if (v == BQ_ERR_FATAL)
		w->stopping = true;
	else if ((v == BQ_ERR_GO_ON || err == ENXIO || err == ENODEV) && worker_device_gone(w, err))
		w->stopping = r->gave_up = true;
}

/**
 * worker_end_ramp() - ramp_time is over: forget what was measured so far
 * @w: the worker
 * @now: the time
 */
void worker_end_ramp(struct bq_worker *w, uint64_t now)
{
	/* Errors stay: a failed I/O is news whenever it happened. */
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		w->res->d[d].ios = 0;
		w->res->d[d].bytes = 0;
		w->res->d[d].short_ios = 0;
		bq_hist_reset(&w->res->d[d].lat);
	}
	w->res->trim.ios = 0;
	w->res->trim.bytes = 0;
	bq_hist_reset(&w->res->trim.lat);
	w->depth_sum = w->depth_samples = 0;
	w->ramping = false;
	w->ramp_ended = true;
	bq_thread_cpu(&w->ru_start);
	bq_rate_ramp_end(w, now ? now : worker_now(w));
	if (w->ops->ramp_end)
		w->ops->ramp_end(w);
}

/* Flush every file, with fsync(2) or fdatasync(2); counted once. */
static int worker_flush(struct bq_worker *w, bool data_only)
{
	int ret = 0;

	/* Nothing is in flight meanwhile: the watchdog needs this to see a stuck flush. */
	__atomic_store_n(&w->sync_since_ns, bq_now_ns(), __ATOMIC_RELEASE);
	for (int i = 0; i < w->nr_fds; i++)
		if (w->fds[i] >= 0 && (data_only ? fdatasync(w->fds[i]) : fsync(w->fds[i])))
			ret = -errno;
	__atomic_store_n(&w->sync_since_ns, 0, __ATOMIC_RELEASE);
	w->res->syncs++;
	return ret;
}

/**
 * worker_sync() - fsync=N or fdatasync=N: flush what was written, with
 * nothing in flight
 * @w: the worker
 *
 * Return: 0 or -errno.
 */
int worker_sync(struct bq_worker *w)
{
	bool data_only = !worker_sync_crossed(w, w->job->fsync_every);
	int ret = worker_flush(w, data_only);

	if (w->iolog_out)
		bq_iolog_record_sync(w, data_only);

	w->writes_before_sync += w->writes_since_sync;
	w->writes_since_sync = 0;
	return ret;
}

/**
 * worker_end_sync() - end_fsync and fsync_on_close: fsync the files once
 * the job's writes are done
 * @w: the worker
 *
 * As in fio, a job that writes nothing does not, and neither does one
 * stopped by an I/O error.  blkqual keeps its files open until the end,
 * so fsync_on_close closes (and flushes) them only then, and fio skips
 * the flush at close when the end's has just been made: one fsync
 * either way.
 */
void worker_end_sync(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_slot none = { .dir = BQ_WRITE };
	int ret;

	if (!(j->end_fsync || j->fsync_on_close) || !bq_job_writes(j) || w->stopping)
		return;
	ret = worker_flush(w, false);
	if (ret)
		worker_record_error(w, &none, -ret);
	/* fio logs end_fsync's flush as an I/O, not fsync_on_close's. */
	if (w->iolog_out && j->end_fsync)
		bq_iolog_record_sync(w, false);
}

/* worker_complete() of a job with a rarer feature on, kept out of the loops. */
void worker_complete_rare(struct bq_worker *w, const struct bq_slot *s, int res, uint64_t now)
{
	worker_complete_as(w, s, res, now, true);
}
