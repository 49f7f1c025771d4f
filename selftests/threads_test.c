// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads_test.c - a run's threads (lib/core/threads.c) on their own
 *
 * Block runs and system-call workloads reach the harness through devices
 * and frozen filesystems (faults_test); here its rules are checked with
 * threads whose progress and stalls the test decides: everyone starts at
 * one instant, a run called off starts no work, a thread that stands
 * still is found and the others are stopped, one that ignores the stop is
 * a straggler (also when the caller wants to stop now), and the monitor's
 * tick comes when it asked.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "core/threads.h"

#define MS	1000000ULL
#define NR	4

struct crew {
	struct bq_threads *t;
	atomic_uint_fast64_t count[NR];	/* each thread's progress */
	uint64_t went_ns[NR];		/* when each began its work */
	bool went[NR];
	int stuck_thread;		/* -1: none stands still */
	int deaf_thread;		/* -1: every thread stops when told */
	atomic_int release;		/* lets a stuck thread go at the end */
	int stuck_calls, stragglers, ticks;
	uint64_t tick_every;
	int iterations;			/* of 1 ms each, for a thread that works */
};

static void work(void *arg, int i)
{
	struct crew *c = arg;
	volatile int *halt = bq_threads_halt(c->t);

	if (!bq_threads_arrive(c->t))
		return;
	c->went[i] = true;
	c->went_ns[i] = bq_now_ns();
	if (i == c->stuck_thread || i == c->deaf_thread) {
		while (!atomic_load(&c->release))
			usleep(1000);
		return;
	}
	for (int n = 0; n < c->iterations && !*halt; n++) {
		atomic_fetch_add(&c->count[i], 1);
		usleep(1000);
	}
}

static uint64_t progress(void *arg, int i)
{
	struct crew *c = arg;

	return atomic_load(&c->count[i]);
}

static bool stuck(void *arg, int i, uint64_t now, uint64_t since)
{
	struct crew *c = arg;

	(void)now;
	(void)since;
	c->stuck_calls++;
	return i == c->stuck_thread;
}

static void straggler(void *arg, int i, uint64_t now, uint64_t since)
{
	struct crew *c = arg;

	(void)i;
	(void)now;
	(void)since;
	c->stragglers++;
}

static uint64_t tick(void *arg, uint64_t now)
{
	struct crew *c = arg;

	c->ticks++;
	return now + c->tick_every;
}

static const struct bq_threads_ops ops = {
	.work = work, .progress = progress, .stuck = stuck, .straggler = straggler,
	.tick = tick,
};

static struct crew *crew_new(uint64_t stall_ns)
{
	struct crew *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->stuck_thread = c->deaf_thread = -1;
	c->tick_every = 10 * MS;
	c->iterations = 200;
	c->t = bq_threads_new(NR, &ops, c, NULL);
	for (int i = 0; c->t && i < NR; i++)
		bq_threads_watch(c->t, i, stall_ns);
	return c;
}

static int crew_go(struct crew *c, bool go)
{
	int started, ret = bq_threads_start(c->t, &started);

	if (ret)
		return ret;
	bq_threads_wait_arrived(c->t);
	bq_threads_open(c->t, go);
	return started;
}

TEST(all_start_at_one_instant)
{
	struct crew *c = crew_new(0);
	uint64_t stall;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, c->t);
	ASSERT_EQ(NR, crew_go(c, true));
	stall = bq_threads_monitor(c->t);
	EXPECT_EQ(0, stall);
	EXPECT_FALSE(bq_threads_join(c->t));
	EXPECT_TRUE(bq_threads_went(c->t));
	for (int i = 0; i < NR; i++) {
		EXPECT_TRUE(c->went[i]);
		EXPECT_GE(c->went_ns[i], bq_threads_t0(c->t));
		EXPECT_EQ(200, atomic_load(&c->count[i]));
	}
	/* The run took ~200 ms; the tick asked for every 10 ms. */
	EXPECT_GE(c->ticks, 10);
	bq_threads_free(c->t);
	free(c);
}

TEST(called_off_runs_no_work)
{
	struct crew *c = crew_new(0);

	ASSERT_NE(NULL, c);
	ASSERT_EQ(NR, crew_go(c, false));
	EXPECT_EQ(0, bq_threads_monitor(c->t));
	EXPECT_FALSE(bq_threads_join(c->t));
	EXPECT_FALSE(bq_threads_went(c->t));
	for (int i = 0; i < NR; i++)
		EXPECT_FALSE(c->went[i]);
	bq_threads_free(c->t);
	free(c);
}

TEST(a_thread_standing_still_is_found)
{
	struct crew *c = crew_new(50 * MS);
	uint64_t t0, stall;

	ASSERT_NE(NULL, c);
	c->stuck_thread = 2;
	c->iterations = 5000;
	ASSERT_EQ(NR, crew_go(c, true));
	t0 = bq_now_ns();
	stall = bq_threads_monitor(c->t);
	ASSERT_NE(0, stall);
	/* Found after its timeout, and the others were stopped, not run out. */
	EXPECT_GE(stall - t0, 50 * MS);
	EXPECT_LT(stall - t0, 2000 * MS);
	EXPECT_EQ(0, c->stragglers);
	EXPECT_TRUE(bq_threads_stalled(c->t, 2));
	for (int i = 0; i < NR; i++) {
		if (i == 2)
			continue;
		EXPECT_FALSE(bq_threads_stalled(c->t, i));
		EXPECT_LT(atomic_load(&c->count[i]), 5000);
	}
	EXPECT_TRUE(bq_threads_join(c->t));
	/* Left behind, the stuck thread may still come back: the run stays. */
	bq_threads_abandon(c->t, c);
	atomic_store(&c->release, 1);
}

TEST(a_thread_ignoring_the_stop_is_a_straggler)
{
	struct crew *c = crew_new(50 * MS);
	uint64_t stall;

	ASSERT_NE(NULL, c);
	c->stuck_thread = 0;
	c->deaf_thread = 3;
	c->iterations = 5000;
	ASSERT_EQ(NR, crew_go(c, true));
	stall = bq_threads_monitor(c->t);
	ASSERT_NE(0, stall);
	/* Thread 3 counts nothing either, but only thread 0 is "stuck"; 3 is found by settling. */
	EXPECT_TRUE(bq_threads_stalled(c->t, 0));
	EXPECT_TRUE(bq_threads_stalled(c->t, 3));
	EXPECT_EQ(1, c->stragglers);
	EXPECT_FALSE(bq_threads_stalled(c->t, 1));
	EXPECT_TRUE(bq_threads_join(c->t));
	bq_threads_abandon(c->t, c);
	atomic_store(&c->release, 1);
}

/* A stop-now request leaves a thread that does not stop within 100 ms. */
TEST(stop_now_leaves_the_deaf_thread)
{
	struct crew *c = crew_new(0);
	volatile int now = 0;
	uint64_t t0, stall;

	ASSERT_NE(NULL, c);
	c->deaf_thread = 1;
	c->iterations = 5000;
	bq_threads_stop_now(c->t, &now);
	ASSERT_EQ(NR, crew_go(c, true));
	usleep(100000);
	now = 1;
	t0 = bq_now_ns();
	stall = bq_threads_monitor(c->t);
	ASSERT_NE(0, stall);
	EXPECT_LT(stall - t0, 1000 * MS);
	EXPECT_EQ(1, c->stragglers);
	EXPECT_TRUE(bq_threads_stalled(c->t, 1));
	EXPECT_FALSE(bq_threads_stalled(c->t, 0));
	EXPECT_TRUE(bq_threads_join(c->t));
	bq_threads_abandon(c->t, c);
	atomic_store(&c->release, 1);
}

TEST(unwatched_threads_are_never_stuck)
{
	struct crew *c = crew_new(0);

	ASSERT_NE(NULL, c);
	c->stuck_thread = 1;
	ASSERT_EQ(NR, crew_go(c, true));
	/* Let it go after 300 ms: without a timeout nobody judges it. */
	usleep(300000);
	atomic_store(&c->release, 1);
	EXPECT_EQ(0, bq_threads_monitor(c->t));
	EXPECT_EQ(0, c->stuck_calls);
	EXPECT_FALSE(bq_threads_join(c->t));
	bq_threads_free(c->t);
	free(c);
}

TEST_HARNESS_MAIN
