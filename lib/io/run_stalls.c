// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_stalls.c - a run's stuck threads: the watchdog's measure of
 * progress, what a stuck thread waits for, and leaving it behind with
 * figures of its own
 */
#include <stdlib.h>
#include <string.h>

#include "run_int.h"

/* The watchdog's measure of progress: I/Os completed, well or not. */
uint64_t run_completions(void *arg, int i)
{
	const struct run_state *st = arg;
	const struct bq_thread_result *r = st->workers[i].res;

	return r->d[BQ_READ].ios + r->d[BQ_READ].errors + r->d[BQ_WRITE].ios +
	       r->d[BQ_WRITE].errors;
}

static int cmp_stall_io(const void *a, const void *b)
{
	const struct bq_stall_io *x = a, *y = b;

	return x->age_ns < y->age_ns ? 1 : x->age_ns > y->age_ns ? -1 : 0;
}

/*
 * What a stuck thread waits for: its I/Os in flight, the oldest first.
 * @since: when it last completed something; 0 when it was never watched
 * (stall_timeout=0), so it has waited since the start.
 */
void run_record_stall(void *arg, int i, uint64_t now, uint64_t since)
{
	struct run_state *st = arg;
	struct bq_worker *w = &st->workers[i];
	struct bq_job_result *jr = w->jr;
	struct bq_stall_io *all;
	struct bq_stall *grown, *s;
	unsigned int n = 0;

	grown = realloc(jr->stalls, ((size_t)jr->nr_stalls + 1) * sizeof(*grown));
	if (!grown)
		return;
	jr->stalls = grown;
	s = &grown[jr->nr_stalls++];
	memset(s, 0, sizeof(*s));
	s->thread = w->index;
	s->cpu = w->cpu;
	s->in_fsync = __atomic_load_n(&w->sync_since_ns, __ATOMIC_ACQUIRE) != 0;
	s->stalled_ns = now - (since ? since : st->t0);
	all = calloc(w->nr_slots, sizeof(*all));
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		const struct bq_slot *sl = &w->slots[k];

		if (!__atomic_load_n(&sl->busy, __ATOMIC_ACQUIRE))
			continue;
		s->outstanding++;
		if (!all)
			continue;
		all[n++] = (struct bq_stall_io){
			.offset = sl->offset, .len = sl->len, .dir = sl->dir, .file = sl->file,
			.age_ns = now > sl->start_ns ? now - sl->start_ns : 0,
		};
	}
	if (all) {
		qsort(all, n, sizeof(*all), cmp_stall_io);
		s->nr_ios = n < BQ_STALL_MAX_IOS ? (int)n : BQ_STALL_MAX_IOS;
		memcpy(s->ios, all, (size_t)s->nr_ios * sizeof(*all));
		free(all);
	}
}

/* The oldest I/O of @w in flight, as its submission time; 0 when none is. */
static uint64_t oldest_inflight(const struct bq_worker *w)
{
	uint64_t oldest = 0;

	for (unsigned int k = 0; k < w->nr_slots; k++) {
		const struct bq_slot *s = &w->slots[k];

		if (__atomic_load_n(&s->busy, __ATOMIC_ACQUIRE) && (!oldest || s->start_ns < oldest))
			oldest = s->start_ns;
	}
	return oldest;
}

/*
 * stall_timeout: a thread that has completed nothing for that long is
 * stuck if it has had I/O in flight, or a flush outstanding, for as long
 * (a frozen filesystem under a loop device, a lost command).
 */
bool run_worker_stuck(void *arg, int i, uint64_t now, uint64_t since)
{
	struct run_state *st = arg;
	struct bq_worker *w = &st->workers[i];
	uint64_t oldest = oldest_inflight(w), limit = w->job->stall_timeout_ns;

	(void)since;
	if (!oldest)
		oldest = __atomic_load_n(&w->sync_since_ns, __ATOMIC_ACQUIRE);
	if (!oldest || now < oldest + limit)
		return false;
	run_record_stall(st, i, now, since);
	return true;
}

/*
 * The threads that are stuck keep their worker, slots, descriptors and
 * the run's halt flag; they get results and a job of their own, so that
 * the caller may report and free the run's results while they wait.
 */
void run_abandon_stuck(struct run_state *st)
{
	struct run_state *keep = malloc(sizeof(*keep));

	for (int i = 0; i < st->nr_workers; i++) {
		struct bq_worker *w = &st->workers[i];
		struct bq_thread_result *r;
		struct bq_job *job;
		bool ok = true;

		if (!bq_threads_stalled(st->threads, i))
			continue;
		/* A stuck worker never reaches worker_finish(): its CPU time is read from outside. */
		bq_threads_cpu_since(st->threads, i, &w->ru_start, &w->res->usr_ns, &w->res->sys_ns);
		r = malloc(sizeof(*r));
		job = malloc(sizeof(*job));
		if (!r || !job) {
			free(r);
			free(job);
			continue;
		}
		*r = *w->res;
		*job = *w->job;
		for (int d = 0; d < BQ_NR_DIRS; d++)
			ok = !bq_hist_init(&r->d[d].lat) && ok;
		ok = !bq_hist_init(&r->trim.lat) && ok;
		if (r->nr_members) {
			r->members = calloc((size_t)r->nr_members, sizeof(*r->members));
			for (int m = 0; r->members && m < r->nr_members; m++)
				ok = !bq_hist_init(&r->members[m].lat) && ok;
			ok = ok && r->members;
		}
		if (!ok)
			continue;
		__atomic_store_n(&w->job, job, __ATOMIC_RELEASE);
		__atomic_store_n(&w->res, r, __ATOMIC_RELEASE);
	}
	if (keep)
		*keep = *st;
	bq_threads_abandon(st->threads, keep);
}
