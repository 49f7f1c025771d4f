// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_order.c - the order of jobs inside one phase of a run, as fio has
 * it: startdelay (ranges drawn per thread), wait_for (a job starts when
 * the one it names has ended), loops=N (the whole job again), exitall
 * and exitall_on_error (a thread that ends stops others, as exit_what
 * says).  The phases themselves (stonewall) are run_phases.c's.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileset.h"
#include "run_int.h"

/* A thread not yet started looks at its stop flags this often. */
#define ORDER_POLL_NS	2000000ULL

static bool called_off(const struct bq_worker *w)
{
	return __atomic_load_n(&w->stopping, __ATOMIC_RELAXED) || *w->stop;
}

static bool waitees_done(const struct bq_worker *w)
{
	for (int i = 0; i < w->nr_waitee; i++)
		if (!__atomic_load_n(&w->waitee[i].finished_ns, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/**
 * worker_order_start() - wait for this thread's turn
 * @w: the worker
 * @t0: the run's start line
 *
 * Sleeps through its startdelay and, with wait_for, until every thread of
 * the named job has ended, looking every few milliseconds whether exitall
 * called the thread off meanwhile (then it starts at once and does
 * nothing, as fio's never-started job does).
 *
 * Return: when its I/O begins, also in @w->start_ns.
 */
uint64_t worker_order_start(struct bq_worker *w, uint64_t t0)
{
	uint64_t start = t0 + w->delay_ns, now = worker_now(w);

	while (now < start && !called_off(w)) {
		worker_sleep_until(w, start - now > ORDER_POLL_NS ? now + ORDER_POLL_NS : start);
		now = worker_now(w);
	}
	while (w->nr_waitee && !called_off(w) && !waitees_done(w)) {
		worker_sleep_until(w, worker_now(w) + ORDER_POLL_NS);
		now = worker_now(w);
	}
	if (now > start)
		start = now;
	/* As a job fio never started, it stops nobody when it ends (worker_ended()). */
	w->never_ran = called_off(w);
	__atomic_store_n(&w->start_ns, start, __ATOMIC_RELEASE);
	return start;
}

/*
 * unlink_each_loop: fio unlinks the job's files before each loop after
 * the first, and the loop creates them anew, empty; the last loop's are
 * left.  The guard's rule is one judged descriptor per target for the
 * whole run, so blkqual empties each file through the descriptor it holds
 * instead (cut to 0 bytes, then back to its size as a hole): the
 * filesystem frees the blocks as for an unlink and the loop allocates
 * afresh.  Only the thread's own files get here (bq_fileset_check()).
 */
static void empty_files(struct bq_worker *w)
{
	for (int i = 0; i < w->nr_files; i++) {
		struct stat st;

		if (fstat(w->fds[i], &st) || !S_ISREG(st.st_mode))
			continue;
		if (ftruncate(w->fds[i], 0) || ftruncate(w->fds[i], st.st_size)) {
			struct bq_slot s = { .file = (uint8_t)i, .dir = BQ_WRITE };

			worker_record_error(w, &s, errno);
		}
	}
}

/*
 * loops=N: set up the job's next loop, if it has one; true to run it.
 * As in fio, each loop starts its sequential offsets and its random map
 * afresh and moves io_size (or size) bytes again; time_based jobs run
 * for their runtime whatever loops says, and runtime bounds all loops
 * together.
 */
/*
 * What fio still counts for the loops to come, in whole blocks: a loop of
 * whole blocks moves a little more than size, and fio's loops end
 * together at loops x size, so the last one may be shorter.
 */
static uint64_t loops_cap(const struct bq_worker *w)
{
	return (w->loops_left + w->loop_block - 1) / w->loop_block * w->loop_block;
}

static void restart_loop(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	uint64_t issued = w->loop_began - w->bytes_left;

	w->bytes_left = w->loop_bytes;
	if (w->loops_left != UINT64_MAX) {
		w->loops_left = w->loops_left > issued ? w->loops_left - issued : 0;
		if (loops_cap(w) < w->bytes_left)
			w->bytes_left = loops_cap(w);
	}
	w->loop_began = w->bytes_left;
	if (j->unlink_each_loop)
		empty_files(w);
	/* A file set's files are each done again, as in fio's next loop. */
	if (w->fsrv)
		bq_fsrv_new_pass(w);
	if (w->fio)
		bq_fiodraw_new_pass(w->fio, j);
	for (int i = 0; i < w->nr_files; i++) {
		struct bq_file_state *f = &w->files[i];

		f->seq_pos = 0;
		if (f->map) {
			bq_bsmap_reset(f->map);
			f->mapped = 0;
		}
	}
	/* rw=...:N and the like keep their own positions (pattern.c). */
	if (w->pattern)
		worker_pattern_restart(w);
}

static bool next_loop(struct bq_worker *w, unsigned int *done)
{
	const struct bq_job *j = w->job;
	unsigned int loops = j->loops ? j->loops : 1;

	if (++*done >= loops || j->time_based || called_off(w) ||
	    (w->end_ns && bq_now_ns() >= w->end_ns))
		return false;
	restart_loop(w);
	return true;
}

/*
 * Verify passes (verify_run.c): past its loops, fio goes on while the
 * job's reads and writes, the read-back's among them, are short of
 * io_size (size) by a block or more; a pass that wrote nothing ends it.
 */
static bool next_pass(struct bq_worker *w, uint64_t left, bool wrote)
{
	const struct bq_job *j = w->job;
	const struct bq_thread_result *r = w->res;
	uint64_t done = r->d[BQ_READ].bytes + r->d[BQ_WRITE].bytes + r->trim.bytes +
			worker_verify_read_bytes(w);
	uint32_t max_bs = j->bs_max[BQ_READ] > j->bs_max[BQ_WRITE] ? j->bs_max[BQ_READ] :
			  j->bs_max[BQ_WRITE];

	if (!wrote || !left || called_off(w) || w->stopping ||
	    (w->end_ns && bq_now_ns() >= w->end_ns) || done >= w->loop_bytes ||
	    w->loop_bytes - done < max_bs)
		return false;
	restart_loop(w);
	return true;
}

/**
 * worker_order_loops() - a thread's I/O: its loops, each with its verify
 * phase, then exitall's stop of the others
 * @w: the worker, started
 *
 * Return: how the engine's loop ended (0 or -errno).
 */
int worker_order_loops(struct bq_worker *w)
{
	const struct bq_engine_ops *e = w->ops;
	void (*on_end)(struct bq_worker *w, bool failed);
	unsigned int loops = 0;
	bool passes = worker_verify_passes(w);
	/* fio's cap on a verify pass's writes: the size, and io_size in all */
	uint64_t left = w->loop_bytes * (w->job->loops ? w->job->loops : 1), start = 0;
	int ret;

	if (w->loops_left != UINT64_MAX)
		left = loops_cap(w);

	w->verify_passes = passes;
	do {
		if (passes) {
			w->bytes_left = left < w->size_bytes ? left : w->size_bytes;
			start = w->bytes_left;
		}
		worker_set_paths(w);
		ret = e->loop(w);
		if (passes)
			left -= start - w->bytes_left;
		if (!ret)
			worker_end_sync(w);
		if (w->verify) {
			/* A verify phase runs without caps, pauses or targets. */
			bq_rate_end(w);
			if (worker_verify_phase(w, ret)) {
				worker_set_paths(w);
				ret = e->loop(w);
				worker_verify_phase_end(w);
			}
		}
	} while (!ret && (next_loop(w, &loops) ||
			  (passes && next_pass(w, left, start != w->bytes_left))));
	if (w->verify)
		worker_verify_leave(w);
	/* The rate family's results (depth found, steady state) cover every loop. */
	bq_rate_end(w);
	on_end = __atomic_load_n(&w->on_end, __ATOMIC_ACQUIRE);
	if (on_end)
		on_end(w, ret || w->res->d[BQ_READ].errors || w->res->d[BQ_WRITE].errors);
	return ret;
}

static void call_off(struct bq_worker *w)
{
	__atomic_store_n(&w->stopping, true, __ATOMIC_RELAXED);
}

/*
 * A thread ended: with exitall (any job's, it is global in fio) or its
 * job's exitall_on_error after a failure, stop the jobs exit_what names.
 * Runs in the ending thread, as fio's does, so the others stop at once.
 */
static void worker_ended(struct bq_worker *w, bool failed)
{
	struct run_state *st = w->run;
	const struct bq_job *j = w->job;
	size_t me = (size_t)(w->jr - st->res->jobs);

	if (w->never_ran || (!st->order->exitall && !(j->exitall_on_error && failed)))
		return;
	if (j->exit_what == BQ_EXIT_ALL)
		__atomic_store_n(&st->order->end_all, true, __ATOMIC_RELAXED);
	for (size_t k = 0; k < st->res->nr; k++) {
		bool same = st->order->groupid[k] == st->order->groupid[me];

		for (int i = 0; i < st->res->jobs[k].nr_threads; i++) {
			struct bq_worker *o = &st->workers[st->js[k].first_worker + i];

			/* exit_what=stonewall: the running ones; the rest still start. */
			if (j->exit_what == BQ_EXIT_STONEWALL &&
			    !__atomic_load_n(&o->start_ns, __ATOMIC_ACQUIRE))
				continue;
			if (j->exit_what == BQ_EXIT_GROUP && !same)
				continue;
			call_off(o);
		}
	}
}

/**
 * run_order_detach() - threads left stuck must not reach the run's state
 * @st: the run, about to return without them
 *
 * A stuck thread that comes back after bq_run() returned would otherwise
 * call worker_ended() on state that is gone.
 */
void run_order_detach(struct run_state *st)
{
	for (int i = 0; i < st->nr_workers; i++)
		__atomic_store_n(&st->workers[i].on_end, NULL, __ATOMIC_RELEASE);
}

/**
 * run_order_offset() - how long the run had gone when this phase started
 * @st: the run
 *
 * Interval samples and progress count from the start of the run, so that
 * a later phase's series follows the earlier ones'.
 *
 * Return: nanoseconds.
 */
uint64_t run_order_offset(const struct run_state *st)
{
	if (!st->order || !st->order->first_t0_ns || st->t0 < st->order->first_t0_ns)
		return 0;
	return st->t0 - st->order->first_t0_ns;
}

/**
 * run_order_progress() - a phase's progress as the whole run's
 * @st: the run
 * @p: the phase's figures, made the run's: time since the run began, the
 *     earlier phases' I/O added
 */
void run_order_progress(const struct run_state *st, struct bq_progress *p)
{
	p->elapsed_ns += run_order_offset(st);
	if (!st->order)
		return;
	p->ios += st->order->ios_before;
	p->bytes += st->order->bytes_before;
}

/**
 * run_order_link() - tie a phase's threads to what they wait for
 * @st: the run, its workers set up
 * @err: why not
 *
 * wait_for naming a job of an earlier phase has nothing left to wait for.
 *
 * Return: 0.
 */
int run_order_link(struct run_state *st, struct bq_parse_error *err)
{
	(void)err;
	for (size_t k = 0; k < st->res->nr; k++) {
		const struct bq_job *j = &st->res->jobs[k].job;
		const struct bq_worker *waitee = NULL;
		int nr_waitee = 0;

		for (size_t o = 0; j->wait_for[0] && o < k; o++)
			if (!strcmp(st->res->jobs[o].job.name, j->wait_for)) {
				waitee = &st->workers[st->js[o].first_worker];
				nr_waitee = st->res->jobs[o].nr_threads;
			}
		for (int i = 0; i < st->res->jobs[k].nr_threads; i++) {
			struct bq_worker *w = &st->workers[st->js[k].first_worker + i];
			uint64_t span = j->startdelay_max_ns ? j->startdelay_max_ns - j->startdelay_ns : 0;
			uint64_t seed = j->randrepeat ? j->randseed : j->randseed ^ bq_now_ns();

			w->waitee = waitee;
			w->nr_waitee = nr_waitee;
			w->delay_ns = j->startdelay_ns;
			if (span)
				w->delay_ns += bq_mix64(seed ^ bq_mix64((uint64_t)k << 32 | (uint64_t)i)) %
					       (span + 1);
			w->loop_bytes = w->loop_began = w->bytes_left;
			w->on_end = worker_ended;
			w->run = st;
		}
	}
	return 0;
}

/**
 * run_order_tick() - the monitor's part: device counters from a late start
 * @st: the run
 * @now: the time
 *
 * A job that starts after the others (startdelay, wait_for) has its disk
 * stats read again where it starts, so its utilisation is over its own
 * window.
 *
 * Return: when to look again (UINT64_MAX: no need).
 */
uint64_t run_order_tick(struct run_state *st, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (size_t k = 0; k < st->res->nr; k++) {
		struct job_state *js = &st->js[k];
		const struct bq_worker *w = &st->workers[js->first_worker];
		bool held = false;
		uint64_t s = 0;

		if (js->start_sampled)
			continue;
		/*
		 * Only a job held back on purpose starts late: one that is just
		 * slow to be scheduled (64 threads on 2 CPUs) has I/O of its
		 * other threads under way already, which a new reading would lose.
		 */
		for (int i = 0; i < st->res->jobs[k].nr_threads; i++) {
			const struct bq_worker *t = &st->workers[js->first_worker + i];
			uint64_t ts = __atomic_load_n(&t->start_ns, __ATOMIC_ACQUIRE);

			held |= t->delay_ns || t->nr_waitee;
			if (ts && (!s || ts < s))
				s = ts;
		}
		if (!held) {
			js->start_sampled = true;
			continue;
		}
		if (!s) {
			/* Not started: look again when it should, or soon while it waits. */
			uint64_t due = w->nr_waitee ? now + ORDER_POLL_NS : st->t0 + w->delay_ns;

			/* Due but not there yet: the thread is on its way; no busy loop meanwhile. */
			if (due <= now)
				due = now + ORDER_POLL_NS / 8;

			next = due < next ? due : next;
			continue;
		}
		js->start_sampled = true;
		if (s > st->t0 + ORDER_POLL_NS && !js->stats_done)
			run_sample_diskstats(st, &st->res->jobs[k]);
	}
	return next;
}
