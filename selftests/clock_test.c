// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock_test.c - the I/O loops' TSC clock against CLOCK_MONOTONIC
 *
 * The TSC's ticks become nanoseconds through a rate blkqual measures
 * itself, so every check here holds it to an outside clock: the
 * kernel's CLOCK_MONOTONIC read beside it, a rate cap's count of I/Os
 * over the run's wall time, and latencies that must add up to no more
 * than the time a one-at-a-time job ran.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"

#include "core/tsc.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/*
 * Over 200 ms, each TSC reading falls between the CLOCK_MONOTONIC reads
 * around it, give or take 50 us: a rate off by 0.025% would break it,
 * and the time never goes back.
 */
TEST(tsc_stays_with_clock_monotonic)
{
	uint64_t end, last = 0, worst = 0;
	struct bq_tsc t;

	bq_tsc_begin();
	ASSERT_EQ(0, bq_tsc_anchor(&t, true));
	if (!t.on)
		SKIP(return, "no invariant TSC that the kernel keeps its clock on here");
	TH_LOG("TSC %.3f MHz", bq_tsc_mhz(&t));
	end = bq_now_ns() + 200000000ULL;
	for (;;) {
		uint64_t a = bq_now_ns(), x = bq_tsc_ns(&t), b = bq_now_ns();
		uint64_t off = x < a ? a - x : x > b ? x - b : 0;

		if (off > worst)
			worst = off;
		ASSERT_GE(x, last);
		last = x;
		if (b >= end)
			break;
	}
	TH_LOG("largest gap to CLOCK_MONOTONIC: %llu ns", (unsigned long long)worst);
	EXPECT_LT(worst, 50000);
}

/* Not wanted (clocksource=clock_gettime): the clock is CLOCK_MONOTONIC itself. */
TEST(not_wanted_reads_clock_monotonic)
{
	struct bq_tsc t;
	uint64_t a, x, b;

	ASSERT_EQ(0, bq_tsc_anchor(&t, false));
	EXPECT_FALSE(t.on);
	EXPECT_EQ(0, bq_tsc_mhz(&t));
	a = bq_now_ns();
	x = bq_tsc_ns(&t);
	b = bq_now_ns();
	EXPECT_LE(a, x);
	EXPECT_LE(x, b);
}

/* fio's three values; anything else is bad input, said in one line, exit 2. */
TEST(clocksource_values)
{
	static const char *const vals[] = { "cpu", "clock_gettime", "gettimeofday" };
	struct run_result r;

	for (size_t i = 0; i < 3; i++) {
		char opt[64];
		json_object *root;
		const char *clock;

		snprintf(opt, sizeof(opt), "--clocksource=%s", vals[i]);
		ASSERT_EQ(0, run_blkqual(&r, "run", "-o", "json", "--no-status", "--name=c",
					 "--ioengine=nop", "--size=4m", opt, NULL));
		ASSERT_EQ(0, r.status) TH_LOG("%s: %s", opt, r.err);
		root = json_tokener_parse(r.out);
		ASSERT_NE(NULL, root);
		clock = json_str(job0(root), "clock");
		ASSERT_NE(NULL, clock);
		if (i) {
			EXPECT_STREQ("clock_gettime", clock);
		} else {
			EXPECT_TRUE(!strcmp(clock, "tsc") || !strcmp(clock, "clock_gettime"));
		}
		json_object_put(root);
		run_result_free(&r);
	}
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=c", "--ioengine=nop", "--size=4m",
				 "--clocksource=hpet", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "clocksource=hpet"));
	run_result_free(&r);
}

/*
 * rate_iops paces with the loop's clock: 2000 a second for one second
 * of the run's own wall time is 2000 I/Os, give or take 5%, with the
 * TSC and without it.
 */
TEST(rate_cap_keeps_time_with_either_clock)
{
	static const char *const vals[] = { "--clocksource=cpu", "--clocksource=clock_gettime" };

	for (size_t i = 0; i < 2; i++) {
		struct run_result r;
		json_object *root;
		double ios, secs;

		ASSERT_EQ(0, run_blkqual(&r, "run", "-o", "json", "--no-status", "--name=rate",
					 "--ioengine=nop", "--rw=randread", "--size=1g",
					 "--rate_iops=2000", "--runtime=1", "--time_based", vals[i],
					 NULL));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		root = json_tokener_parse(r.out);
		ASSERT_NE(NULL, root);
		ios = (double)json_int(job0(root), "total.read.ios", 0);
		secs = (double)json_int(job0(root), "runtime_ns", 0) / 1e9;
		TH_LOG("%s: %.0f I/Os in %.3f s", vals[i], ios, secs);
		EXPECT_GT(ios / secs, 1900);
		EXPECT_LT(ios / secs, 2100);
		json_object_put(root);
		run_result_free(&r);
	}
}

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, 64 << 20);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/*
 * One direct read at a time: the latencies, stamped with the TSC, add up
 * to most of the run's wall time (CLOCK_MONOTONIC) and never to more.
 * The same with clock_gettime, as a control.
 */
TEST_F(dev, latencies_add_up_to_the_runtime)
{
	static const char *const vals[] = { "--clocksource=cpu", "--clocksource=clock_gettime" };

	PREP_READY(&self->p);
	for (size_t i = 0; i < 2; i++) {
		struct run_result r;
		json_object *root, *j;
		double busy;

		ASSERT_EQ(0, run_blkqual(&r, "run", "-o", "json", "--no-status", "--name=qd1",
					 self->filename, "--ioengine=psync", "--rw=randread",
					 "--bs=4k", "--direct=1", "--runtime=1", "--time_based",
					 vals[i], NULL));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		root = json_tokener_parse(r.out);
		ASSERT_NE(NULL, root);
		j = job0(root);
		busy = json_dbl(j, "total.read.lat_ns.mean", 0) *
		       (double)json_int(j, "total.read.ios", 0) /
		       (double)json_int(j, "runtime_ns", 1);
		TH_LOG("%s (%s): latency x I/Os / runtime = %.3f", vals[i], json_str(j, "clock"),
		       busy);
		EXPECT_GT(busy, 0.5);
		EXPECT_LT(busy, 1.002);
		json_object_put(root);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
