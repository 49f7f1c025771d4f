// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads.c - a run's threads: one start line, one watchdog, one way of
 * leaving stuck threads behind
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/threads.h"

/* How often the monitor looks at a stop flag and the watchdog at least. */
#define MONITOR_MAX_SLEEP_NS	50000000ULL
/* How long the others get to finish once one thread is stuck. */
#define SETTLE_NS		1000000000ULL
/* How long they get when the caller wants to stop now. */
#define STOP_NOW_NS		100000000ULL

struct thread_slot {
	struct bq_threads *run;
	int index;
	pthread_t tid;
	int kernel_tid;			/* for reading its CPU time from outside */
	bool returned;			/* under the run's lock */
	uint64_t stall_ns;		/* its stall timeout; 0: not watched */
	uint64_t count;			/* progress when last seen to move */
	uint64_t since_ns;		/* when that was; 0: not looked at yet */
	bool stalled;
};

/*
 * On the heap, and never freed while a stuck thread may come back: such a
 * thread still reads the halt flag and the gate, and takes the lock.
 */
struct bq_threads {
	const struct bq_threads_ops *ops;
	void *arg;
	volatile int *user_stop;	/* the caller's: a signal */
	volatile int *stop_now;		/* the caller's: stop without waiting */
	volatile int halt;		/* the threads': a signal, a stall, the caller */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC: arrivals, the gate, returns */
	int nr;
	int started;
	int arrived;
	int running;
	int gate;			/* 0 closed, 1 go, -1 called off */
	uint64_t t0;
	struct thread_slot *slots;
	void *keep;			/* the caller's state, kept with an abandoned run */
	struct bq_threads *next;	/* in the list of abandoned runs */
};

static struct bq_threads *abandoned_runs;
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * bq_threads_new() - a run of @n threads, not started yet
 * @n: how many
 * @ops: their work and how to watch it
 * @arg: passed to every callback
 * @user_stop: the caller's stop flag (a signal), or NULL
 *
 * Return: the run, or NULL without memory.
 */
struct bq_threads *bq_threads_new(int n, const struct bq_threads_ops *ops, void *arg,
				  volatile int *user_stop)
{
	struct bq_threads *t = calloc(1, sizeof(*t));
	pthread_condattr_t ca;

	if (!t)
		return NULL;
	t->slots = calloc((size_t)(n > 0 ? n : 1), sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->ops = ops;
	t->arg = arg;
	t->user_stop = user_stop;
	t->nr = n;
	for (int i = 0; i < n; i++) {
		t->slots[i].run = t;
		t->slots[i].index = i;
	}
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cond, &ca);
	pthread_condattr_destroy(&ca);
	return t;
}

/**
 * bq_threads_watch() - give thread @i a stall timeout
 * @t: the run
 * @i: the thread
 * @stall_ns: no progress for this long, and stuck by ops->stuck(): a stall;
 *            0 leaves the thread unwatched
 */
void bq_threads_watch(struct bq_threads *t, int i, uint64_t stall_ns)
{
	t->slots[i].stall_ns = stall_ns;
}

/**
 * bq_threads_stop_now() - a flag that ends the run without waiting for I/O
 * @t: the run
 * @now: set non-zero (a second signal) to stop: threads still running
 *       100 ms later are stragglers, left behind like stuck ones
 */
void bq_threads_stop_now(struct bq_threads *t, volatile int *now)
{
	t->stop_now = now;
}

static void *thread_main(void *p)
{
	struct thread_slot *s = p;
	struct bq_threads *t = s->run;

	__atomic_store_n(&s->kernel_tid, (int)gettid(), __ATOMIC_RELAXED);
	t->ops->work(t->arg, s->index);
	pthread_mutex_lock(&t->lock);
	__atomic_store_n(&s->returned, true, __ATOMIC_RELEASE);
	t->running--;
	/* A thread that never reached the start line must not hold it up. */
	if (!t->gate)
		t->arrived++;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/**
 * bq_threads_start() - start every thread; each sets up, then waits at the line
 * @t: the run
 * @started: how many threads were started, also on failure
 *
 * Return: 0, or -errno from the thread that could not be made.
 */
int bq_threads_start(struct bq_threads *t, int *started)
{
	int ret = 0;

	for (*started = 0; *started < t->nr; (*started)++) {
		pthread_mutex_lock(&t->lock);
		t->running++;
		pthread_mutex_unlock(&t->lock);
		ret = -pthread_create(&t->slots[*started].tid, NULL, thread_main,
				      &t->slots[*started]);
		if (ret) {
			pthread_mutex_lock(&t->lock);
			t->running--;
			pthread_mutex_unlock(&t->lock);
			break;
		}
	}
	t->started = *started;
	return ret;
}

/**
 * bq_threads_arrive() - in a thread: set up, wait for the others to be
 * @t: the run
 *
 * Return: true to go (at bq_threads_t0()), false when the run was called off.
 */
bool bq_threads_arrive(struct bq_threads *t)
{
	int gate;

	pthread_mutex_lock(&t->lock);
	t->arrived++;
	pthread_cond_broadcast(&t->cond);
	while (!t->gate)
		pthread_cond_wait(&t->cond, &t->lock);
	gate = t->gate;
	pthread_mutex_unlock(&t->lock);
	return gate > 0;
}

/**
 * bq_threads_wait_arrived() - wait until every started thread is set up
 * @t: the run
 */
void bq_threads_wait_arrived(struct bq_threads *t)
{
	pthread_mutex_lock(&t->lock);
	while (t->arrived < t->started)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

/**
 * bq_threads_open() - let every thread go at once, or call the run off
 * @t: the run
 * @go: false when some thread (or the caller) could not set up
 */
void bq_threads_open(struct bq_threads *t, bool go)
{
	pthread_mutex_lock(&t->lock);
	if (go)
		t->t0 = bq_now_ns();
	t->gate = go ? 1 : -1;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

/**
 * bq_threads_t0() - when the threads were let go
 * @t: the run
 */
uint64_t bq_threads_t0(const struct bq_threads *t)
{
	return t->t0;
}

/**
 * bq_threads_went() - whether the gate opened (rather than the run being called off)
 * @t: the run
 */
bool bq_threads_went(const struct bq_threads *t)
{
	return t->gate > 0;
}

/**
 * bq_threads_halt() - the flag the threads stop on
 * @t: the run
 *
 * Set on a signal (the caller's stop flag), a stall, or by the caller.
 */
volatile int *bq_threads_halt(struct bq_threads *t)
{
	return &t->halt;
}

/* Under the lock: sleep until @deadline or until a thread returns. */
static void wait_until(struct bq_threads *t, uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000ULL),
		.tv_nsec = (long)(deadline % 1000000000ULL),
	};

	pthread_cond_timedwait(&t->cond, &t->lock, &ts);
}

/*
 * A watched thread whose progress has not moved for its stall timeout,
 * and that ops->stuck() finds waiting on something, is stuck.  Progress is
 * a count the run keeps anyway; only a thread that stood still is looked
 * at more closely.
 */
static bool watchdog(struct bq_threads *t, uint64_t now)
{
	bool found = false;

	for (int i = 0; i < t->started; i++) {
		struct thread_slot *s = &t->slots[i];
		uint64_t c;

		if (!s->stall_ns || s->stalled || __atomic_load_n(&s->returned, __ATOMIC_RELAXED))
			continue;
		c = t->ops->progress(t->arg, i);
		if (c != s->count || !s->since_ns) {
			s->count = c;
			s->since_ns = now;
			continue;
		}
		if (now - s->since_ns < s->stall_ns || !t->ops->stuck(t->arg, i, now, s->since_ns))
			continue;
		s->stalled = found = true;
	}
	return found;
}

/* Stop the threads; any still running after @grace_ns is stuck. */
static void settle(struct bq_threads *t, uint64_t grace_ns)
{
	uint64_t deadline = bq_now_ns() + grace_ns;
	int stuck = 0;

	t->halt = 1;
	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->started; i++)
		stuck += t->slots[i].stalled && !t->slots[i].returned;
	while (t->running > stuck && bq_now_ns() < deadline)
		wait_until(t, deadline);
	pthread_mutex_unlock(&t->lock);
	for (int i = 0; i < t->started; i++) {
		struct thread_slot *s = &t->slots[i];

		if (s->stalled || __atomic_load_n(&s->returned, __ATOMIC_ACQUIRE))
			continue;
		t->ops->straggler(t->arg, i, bq_now_ns(), s->since_ns);
		s->stalled = true;
	}
}

/**
 * bq_threads_monitor() - watch the threads until every one has returned
 * @t: the run, its gate open
 *
 * Passes the caller's stop flag on, calls ops->tick, runs the watchdog.
 * When a thread is stuck, the others are stopped (settle()) and
 * the monitor returns at once; so it does when the stop-now flag leaves
 * threads behind.
 *
 * Return: when a stall was found, 0 if none was.
 */
uint64_t bq_threads_monitor(struct bq_threads *t)
{
	pthread_mutex_lock(&t->lock);
	while (t->running) {
		uint64_t now, wake;

		pthread_mutex_unlock(&t->lock);
		now = bq_now_ns();
		if (t->user_stop && *t->user_stop)
			t->halt = 1;
		if (watchdog(t, now)) {
			settle(t, SETTLE_NS);
			return now;
		}
		if (t->stop_now && *t->stop_now) {
			settle(t, STOP_NOW_NS);
			for (int i = 0; i < t->started; i++)
				if (t->slots[i].stalled)
					return now;
		}
		wake = now + MONITOR_MAX_SLEEP_NS;
		if (t->ops->tick) {
			uint64_t want = t->ops->tick(t->arg, now);

			if (want < wake)
				wake = want;
		}
		pthread_mutex_lock(&t->lock);
		if (t->running && wake > now)
			wait_until(t, wake);
	}
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/**
 * bq_threads_stalled() - whether thread @i was found stuck
 * @t: the run
 * @i: the thread
 */
bool bq_threads_stalled(const struct bq_threads *t, int i)
{
	return t->slots[i].stalled;
}

/**
 * bq_threads_cpu_since() - CPU time of thread @i since @start, read from outside
 * @t: the run
 * @i: the thread (a stuck one never counts its own)
 * @start: its CPU time when its work began
 * @usr_ns: user time since then
 * @sys_ns: system time since then
 *
 * Return: 0 or -errno.
 */
int bq_threads_cpu_since(const struct bq_threads *t, int i, const struct bq_thread_cpu *start,
			 uint64_t *usr_ns, uint64_t *sys_ns)
{
	uint64_t usr, sys;
	int ret;

	ret = bq_task_cpu(__atomic_load_n(&t->slots[i].kernel_tid, __ATOMIC_RELAXED), &usr, &sys);
	if (ret)
		return ret;
	*usr_ns = usr > start->usr_ns ? usr - start->usr_ns : 0;
	*sys_ns = sys > start->sys_ns ? sys - start->sys_ns : 0;
	return 0;
}

/**
 * bq_threads_join() - wait for the threads; stuck ones are left to themselves
 * @t: the run
 *
 * Return: true when some thread is stuck (then abandon the run, not free it).
 */
bool bq_threads_join(struct bq_threads *t)
{
	bool stuck = false;

	for (int i = 0; i < t->started; i++) {
		if (t->slots[i].stalled) {
			pthread_detach(t->slots[i].tid);
			stuck = true;
		} else {
			pthread_join(t->slots[i].tid, NULL);
		}
	}
	return stuck;
}

/**
 * bq_threads_free() - free a run whose threads have all been joined
 * @t: the run, or NULL
 */
void bq_threads_free(struct bq_threads *t)
{
	if (!t)
		return;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t->slots);
	free(t);
}

/**
 * bq_threads_abandon() - keep a run with stuck threads, and @keep, for good
 * @t: the run
 * @keep: what those threads may still touch (the caller's state), or NULL
 *
 * A thread stuck in the kernel may come back at any time, or never; what
 * it reaches stays allocated, and reachable for leak checkers.
 */
void bq_threads_abandon(struct bq_threads *t, void *keep)
{
	t->keep = keep;
	pthread_mutex_lock(&abandoned_lock);
	t->next = abandoned_runs;
	abandoned_runs = t;
	pthread_mutex_unlock(&abandoned_lock);
}
