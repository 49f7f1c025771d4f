// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_run_test.c - the runner under the file-level workloads: threads
 * start together, stop on time or when told, counters add up, interval
 * samples cover the run, a failing thread does not take the others down.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_ops.h"
#include "workloads/ops_int.h"

enum { OP_A, OP_B, NR_OPS };

struct spin {
	uint64_t limit;		/* operations per thread; 0: until told */
	int fail_thread;	/* this one returns -EIO at once; -1: none */
	volatile int *stop_after;
};

static int spin_fn(struct bq_ops_thread *t, void *arg)
{
	struct spin *sp = arg;

	if (t->id == sp->fail_thread) {
		snprintf(t->msg, sizeof(t->msg), "thread %d gives up", t->id);
		return -EIO;
	}
	for (uint64_t n = 0; !bq_ops_should_stop(t); n++) {
		if (sp->limit && n == sp->limit)
			break;
		bq_ops_record(t, (int)(n % NR_OPS), 4096, 1000 + n % 7, false);
		if (n % 100 == 99)
			usleep(100);
	}
	bq_ops_record(t, OP_B, 0, 5, true);
	bq_ops_error(t, OP_B, ENOSPC, 8192, "file-x");
	return 0;
}

TEST(counts_add_up)
{
	struct spin sp = { .limit = 1000, .fail_thread = -1 };
	struct bq_ops_opts o = { .nr_threads = 3, .nr_ops = NR_OPS, .fn = spin_fn, .arg = &sp };
	struct bq_ops_result res;

	ASSERT_EQ(0, bq_ops_run(NULL, &o, &res));
	EXPECT_EQ(3, res.nr_threads);
	EXPECT_EQ(0, res.failed);
	EXPECT_EQ(1500, res.total[OP_A].count);
	EXPECT_EQ(1503, res.total[OP_B].count);
	EXPECT_EQ(3, res.total[OP_B].errors);
	EXPECT_EQ(3000ull * 4096, res.total[OP_A].bytes + res.total[OP_B].bytes);
	EXPECT_EQ(res.total[OP_A].count, res.total[OP_A].lat.count);
	EXPECT_EQ(5, res.total[OP_B].lat.min);
	EXPECT_EQ(1, res.threads[2].nr_errors);
	EXPECT_EQ(8192, res.threads[2].errors[0].offset);
	EXPECT_STREQ("file-x", res.threads[2].errors[0].what);
	EXPECT_FALSE(res.interrupted);
	bq_ops_result_free(&res);
}

static void count_samples(void *arg, const struct bq_ops_sample *s)
{
	(*(int *)arg)++;
}

TEST(deadline_and_intervals)
{
	struct spin sp = { .fail_thread = -1 };
	int seen = 0;
	struct bq_ops_opts o = {
		.nr_threads = 2, .nr_ops = NR_OPS, .fn = spin_fn, .arg = &sp,
		.duration_ns = 500000000ull, .interval_ns = 100000000ull,
		.on_sample = count_samples, .sample_arg = &seen,
	};
	struct bq_ops_result res;
	uint64_t sampled = 0;

	ASSERT_EQ(0, bq_ops_run(NULL, &o, &res));
	EXPECT_GE(res.runtime_ns, 500000000ull);
	EXPECT_LT(res.runtime_ns, 1500000000ull);
	/* 4 or 5 samples: the last may race the deadline. */
	EXPECT_GE(res.nr_samples, 4);
	EXPECT_LE(res.nr_samples, 5);
	EXPECT_EQ((int)res.nr_samples, seen);
	for (size_t i = 0; i < res.nr_samples; i++) {
		sampled += res.samples[i].count[OP_A];
		EXPECT_GE(res.samples[i].cpu_total_pct, 0);
		EXPECT_LE(res.samples[i].cpu_total_pct, 100.0);
		if (res.samples[i].count[OP_A]) {
			EXPECT_GE(res.samples[i].mean_ns[OP_A], 1000);
			EXPECT_LE(res.samples[i].mean_ns[OP_A], 1006);
		}
	}
	EXPECT_LE(sampled, res.total[OP_A].count);
	EXPECT_GT(sampled, 0);
	EXPECT_GT(res.total[OP_A].count, 0);
	bq_ops_result_free(&res);
}

TEST(stop_flag)
{
	static volatile int stop = 1;
	struct spin sp = { .fail_thread = -1 };
	struct bq_ops_opts o = { .nr_threads = 2, .nr_ops = NR_OPS, .fn = spin_fn, .arg = &sp,
				 .stop = &stop };
	struct bq_ops_result res;

	ASSERT_EQ(0, bq_ops_run(NULL, &o, &res));
	EXPECT_TRUE(res.interrupted);
	EXPECT_EQ(0, res.total[OP_A].count);
	bq_ops_result_free(&res);
}

TEST(failing_thread)
{
	struct spin sp = { .limit = 10, .fail_thread = 1 };
	struct bq_ops_opts o = { .nr_threads = 3, .nr_ops = NR_OPS, .fn = spin_fn, .arg = &sp };
	struct bq_ops_result res;

	ASSERT_EQ(0, bq_ops_run(NULL, &o, &res));
	EXPECT_EQ(1, res.failed);
	EXPECT_EQ(-EIO, res.threads[1].ret);
	EXPECT_STREQ("thread 1 gives up", res.threads[1].msg);
	EXPECT_EQ(10, res.total[OP_A].count);
	bq_ops_result_free(&res);
}

TEST(bad_options)
{
	struct bq_ops_opts o = { .nr_threads = 0, .nr_ops = 1, .fn = spin_fn };
	struct bq_ops_result res;

	EXPECT_EQ(-EINVAL, bq_ops_run(NULL, &o, &res));
	o.nr_threads = 1;
	o.nr_ops = BQ_OPS_MAX + 1;
	EXPECT_EQ(-EINVAL, bq_ops_run(NULL, &o, &res));
}

TEST(cpu_percent)
{
	struct bq_cpu_times a = { .busy = 100, .sys = 20, .total = 400 };
	struct bq_cpu_times b = { .busy = 200, .sys = 70, .total = 600 };
	double sys;

	EXPECT_EQ(50.0, bq_cpu_busy_pct(&a, &b, &sys));
	EXPECT_EQ(25.0, sys);
	EXPECT_EQ(0.0, bq_cpu_busy_pct(&a, &a, &sys));
	ASSERT_EQ(0, bq_cpu_times_read(NULL, &a));
	EXPECT_GT(a.total, 0);
}

TEST_HARNESS_MAIN
