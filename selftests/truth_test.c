// SPDX-License-Identifier: GPL-2.0-only
/*
 * truth_test.c - the figures of a run against what must be true of them
 *
 * Each test here is a way a figure was once wrong, checked against
 * something outside the figure: the run's own wall time, the count of
 * I/Os, the device's counters, arithmetic.
 */
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* Run a job, parse its JSON, saying why when that fails. */
static json_object *run_json(struct __test_metadata *_metadata, struct run_result *r,
			     const char *const *args)
{
	json_object *root = blkqual_run_json(r, args);

	if (!root)
		TH_LOG("exit %d: %.200s%.200s", r->status, r->err ? r->err : "",
		       r->out ? r->out : "");
	return root;
}

/* A zeroed 16 MiB file under /tmp for a job, and its --filename=; 0 or -1. */
static int temp_target(char *file, char *opt, size_t len)
{
	int fd = mkstemp(file);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, 16 << 20)) {
		close(fd);
		unlink(file);
		return -1;
	}
	close(fd);
	snprintf(opt, len, "--filename=%s", file);
	return 0;
}

/*
 * An I/O's latency starts when its batch goes to the kernel, not when the
 * batch began to be picked: with 256 nops per batch, all reaped at once,
 * picking with a Zipf distribution costs about as much as the nops.  The
 * sum of the latencies is then about half of runtime x depth (what the
 * kernel spends); stamped before picking, it was 90% of it.
 */
TEST(latency_excludes_preparing_the_batch)
{
	const char *args[] = { "--name=stamp", "--ioengine=nop", "--rw=randread",
			       "--random_distribution=zipf:1.2", "--bs=4k", "--iodepth=256",
			       "--iodepth_batch_complete_min=256", "--size=64g", "--runtime=1",
			       "--time_based", NULL };
	struct run_result r;
	json_object *root = run_json(_metadata, &r, args), *j;
	double busy;

	ASSERT_NE(NULL, root);
	j = job0(root);
	busy = json_dbl(j, "total.read.lat_ns.mean", 0) *
	       (double)json_int(j, "total.read.ios", 0) /
	       ((double)json_int(j, "runtime_ns", 1) * 256);
	TH_LOG("latency x I/Os / (runtime x depth) = %.2f", busy);
	EXPECT_GT(busy, 0.05);
	EXPECT_LT(busy, 0.8);
	json_object_put(root);
	run_result_free(&r);
}

/*
 * Completions of one round that share a latency are recorded at once:
 * the histogram still holds one value per I/O (a count equal to the
 * I/Os, in buckets that add up to it), with a queue of 32 reaped whole
 * and with one completion at a time, reads and writes.
 */
TEST(the_histogram_holds_every_io)
{
	static const char *const waits[] = { "--iodepth_batch_complete_min=32",
					     "--iodepth_batch_complete_min=1" };

	for (size_t i = 0; i < 2; i++) {
		const char *args[] = { "--name=every", "--ioengine=nop", "--rw=randrw", "--bs=4k",
				       "--iodepth=32", "--size=64m", waits[i], NULL };
		struct run_result r;
		json_object *root = run_json(_metadata, &r, args), *j;

		ASSERT_NE(NULL, root);
		j = job0(root);
		for (int d = 0; d < 2; d++) {
			const char *dir = d ? "write" : "read";
			char path[64];
			json_object *b;
			long long ios, sum = 0;

			snprintf(path, sizeof(path), "total.%s.ios", dir);
			ios = json_int(j, path, -1);
			snprintf(path, sizeof(path), "total.%s.lat_ns.count", dir);
			EXPECT_EQ(ios, json_int(j, path, -2));
			snprintf(path, sizeof(path), "total.%s.lat_ns.histogram.buckets", dir);
			b = json_get(j, path);
			ASSERT_NE(NULL, b);
			for (size_t k = 0; k < json_object_array_length(b); k++)
				sum += json_object_get_int64(json_object_array_get_idx(
					json_object_array_get_idx(b, k), 2));
			EXPECT_EQ(ios, sum);
			EXPECT_GT(ios, 1000);
		}
		json_object_put(root);
		run_result_free(&r);
	}
}

/*
 * --size=16m --ramp_time=1: the job ends long before its ramp would.
 * It reports the I/Os it did over the time it took, never a rate of 0
 * beside a count, and says that its figures include the ramp.
 */
TEST(a_job_that_ends_inside_its_ramp_reports_what_it_did)
{
	const char *args[] = { "--name=ramp", "--ioengine=nop", "--rw=randread", "--bs=4k",
			       "--size=16m", "--ramp_time=1", NULL };
	struct run_result r;
	json_object *root = run_json(_metadata, &r, args), *j;
	const char *note;

	ASSERT_NE(NULL, root);
	j = job0(root);
	EXPECT_EQ(4096, json_int(j, "total.read.ios", 0));
	EXPECT_LT(0, json_int(j, "runtime_ns", 0));
	EXPECT_LT(0, json_dbl(j, "total.read.iops", 0));
	note = json_str(j, "note");
	ASSERT_NE(NULL, note);
	EXPECT_NE(NULL, strstr(note, "inside its ramp_time"));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * The SQPOLL thread's CPU time restarts with the figures at the end of
 * ramp_time: a CPU time cannot exceed the wall time it was measured over.
 */
TEST(sqpoll_time_restarts_after_the_ramp)
{
	char file[] = "/tmp/blkqual-truth.XXXXXX", opt[64];
	const char *args[] = { "--name=sq", "--ioengine=io_uring", "--sqpoll", opt, "--size=16m",
			       "--rw=randread", "--direct=0", "--ramp_time=2", "--runtime=1",
			       "--time_based", NULL };
	struct run_result r;
	json_object *root, *t;

	ASSERT_EQ(0, temp_target(file, opt, sizeof(opt)));
	root = run_json(_metadata, &r, args);
	unlink(file);
	ASSERT_NE(NULL, root);
	t = json_object_array_get_idx(json_object_object_get(job0(root), "threads"), 0);
	TH_LOG("sqpoll %.2fs over a runtime of %.2fs",
	       json_int(t, "cpu_usage.sqpoll_ns", 0) / 1e9,
	       json_int(job0(root), "runtime_ns", 0) / 1e9);
	EXPECT_LT(0, json_int(t, "cpu_usage.sqpoll_ns", 0));
	EXPECT_GE(json_int(job0(root), "runtime_ns", 0) * 11 / 10,
		  json_int(t, "cpu_usage.sqpoll_ns", 0));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * Depth is a mean of samples per thread; what a job's threads keep in
 * flight together is their sum, given beside it.
 */
TEST(job_depth_is_the_sum_of_its_threads)
{
	const char *args[] = { "--name=depth", "--ioengine=nop", "--bs=4k", "--size=64m",
			       "--iodepth=8", "--numjobs=2", NULL };
	struct run_result r;
	json_object *root = run_json(_metadata, &r, args), *j;
	double per_thread, all;

	ASSERT_NE(NULL, root);
	j = job0(root);
	per_thread = json_dbl(j, "total.mean_depth", 0);
	all = json_dbl(j, "mean_depth_all_threads", 0);
	EXPECT_LT(0, per_thread);
	EXPECT_LE(per_thread, 8);
	EXPECT_LT(fabs(all - 2 * per_thread), 1e-9);
	json_object_put(root);
	run_result_free(&r);
}

/*
 * The stretch after the last whole interval (the drain, or the end of a
 * runtime that is not a multiple of the interval) joins the interval
 * before it when it is shorter than half an interval: no rate is taken
 * over a sliver, and the intervals still add up to the whole.
 */
TEST(a_short_last_stretch_joins_the_interval_before)
{
	char *argv_run[] = { (char *)blkqual_path(), "run", "--no-status", "-o", "json",
			     "--interval", "1s", "--name=iv", "--ioengine=nop", "--size=1g",
			     "--rw=randread", "--runtime=2200ms", "--time_based",
			     "--rate_iops=1000", NULL };
	struct run_result r;
	json_object *root, *ivs;
	long long sum = 0, prev_t = 0;
	size_t n;

	ASSERT_EQ(0, run_argv((const char *const *)argv_run, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	ivs = json_object_object_get(job0(root), "intervals");
	n = json_object_array_length(ivs);
	EXPECT_EQ(2, n);
	for (size_t i = 0; i < n; i++) {
		json_object *iv = json_object_array_get_idx(ivs, i);
		long long t = json_int(iv, "t_ns", 0);

		TH_LOG("interval %zu: %.3fs, %lld reads", i, (t - prev_t) / 1e9,
		       json_int(iv, "read.ios", 0));
		EXPECT_LE(990000000LL, t - prev_t);
		sum += json_int(iv, "read.ios", 0);
		prev_t = t;
	}
	EXPECT_EQ(json_int(job0(root), "total.read.ios", -1), sum);
	json_object_put(root);
	run_result_free(&r);
}

/* 4 KiB blocks of @path that are all zero. */
static long zero_blocks(const char *path, long *total)
{
	static const char zero[4096];
	char buf[4096];
	long zeros = 0;
	FILE *f = fopen(path, "rb");

	*total = 0;
	if (!f)
		return -1;
	while (fread(buf, 1, sizeof(buf), f) == sizeof(buf)) {
		zeros += !memcmp(buf, zero, sizeof(buf));
		(*total)++;
	}
	fclose(f);
	return zeros;
}

/*
 * Random writes of mixed sizes over a zeroed region write every 4 KiB
 * block, as fio's random map does, and exactly the region's bytes; the
 * options say which sizes were used.  Before, a third of the blocks were
 * never written: a 64 KiB write from a 4 KiB start covers fifteen more
 * starts that the permutation still visited.
 */
TEST(mixed_size_random_writes_cover_every_block)
{
	static const char *const sizes[] = { "--bsrange=4k-64k", "--bssplit=4k/50:64k/50" };
	static const char *const keys[] = { "bsrange_write", "bssplit_write" };

	for (int v = 0; v < 2; v++) {
		char file[] = "/tmp/blkqual-truth.XXXXXX", opt[64];
		const char *args[] = { "--name=map", opt, "--rw=randwrite", sizes[v], "--size=16m",
				       NULL };
		struct run_result r;
		json_object *root, *o;
		long zeros, total;

		ASSERT_EQ(0, temp_target(file, opt, sizeof(opt)));
		root = run_json(_metadata, &r, args);
		zeros = zero_blocks(file, &total);
		unlink(file);
		ASSERT_NE(NULL, root);
		TH_LOG("%s: %ld of %ld blocks left unwritten", sizes[v], zeros, total);
		EXPECT_EQ(4096, total);
		EXPECT_EQ(0, zeros);
		EXPECT_EQ(16 << 20, json_int(job0(root), "total.write.bytes", 0));
		o = json_object_object_get(job0(root), "options");
		EXPECT_NE(NULL, json_object_object_get(o, keys[v]));
		json_object_put(root);
		run_result_free(&r);
	}
}

SCRATCH_DEV_FIXTURE(SCRATCH_SIZE)

/*
 * A short job beside a long one on the same device: its device counters
 * end when it does, so its utilisation is over its own time (it was
 * 1426 % when the whole run's io_ticks were divided by its runtime).
 */
TEST_F(dev, utilisation_of_a_short_job_is_at_most_100_percent)
{
	const char *args[] = { "--name=short", self->opt, "--rw=randread", "--bs=4k",
			       "--size=8m", "--direct=1", "--name=long", self->opt,
			       "--rw=randread", "--bs=4k", "--direct=1", "--runtime=1",
			       "--time_based", NULL };
	struct run_result r;
	json_object *root, *jobs;

	PREP_READY(&self->p);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	jobs = json_object_object_get(root, "jobs");
	for (size_t k = 0; k < json_object_array_length(jobs); k++) {
		json_object *j = json_object_array_get_idx(jobs, k);
		json_object *t = json_object_array_get_idx(json_object_object_get(j, "targets"), 0);
		double util = json_dbl(t, "disk_stats.util_pct", -1);

		TH_LOG("%s: util %.1f%% over %.3fs", json_str(j, "name"), util,
		       json_int(j, "runtime_ns", 0) / 1e9);
		EXPECT_LE(0, util);
		EXPECT_GE(100, util);
	}
	json_object_put(root);
	run_result_free(&r);
}

/*
 * The truth test: direct random I/O on a device nobody else uses, with
 * nomerges=2 so that each I/O is one request.  The job's reads and writes
 * and their sectors equal the device's own counters, its mean latency is
 * never below the block layer's own mean time per request, and the
 * utilisation is above 0 and at most 100 %.
 */
TEST_F(dev, figures_agree_with_the_kernels_counters)
{
	const char *args[] = { "--name=truth", self->opt, "--rw=randrw", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=1", "--time_based", NULL };
	static const char *const dirs[] = { "read", "write" };
	char key[64];
	struct run_result r;
	json_object *root, *j, *t;

	PREP_READY(&self->p);
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	j = job0(root);
	t = json_object_array_get_idx(json_object_object_get(j, "targets"), 0);
	for (int d = 0; d < 2; d++) {
		long long ios, dev_ios, ticks_ms;
		double mean;

		snprintf(key, sizeof(key), "total.%s.ios", dirs[d]);
		ios = json_int(j, key, -1);
		snprintf(key, sizeof(key), "disk_stats.%s_ios", dirs[d]);
		dev_ios = json_int(t, key, -2);
		EXPECT_LT(0, ios);
		EXPECT_EQ(ios, dev_ios) TH_LOG("%s: %lld I/Os, the device %lld", dirs[d], ios,
					       dev_ios);
		snprintf(key, sizeof(key), "disk_stats.%s_sectors", dirs[d]);
		EXPECT_EQ(ios * 8, json_int(t, key, -1));
		snprintf(key, sizeof(key), "disk_stats.%s_ticks_ms", dirs[d]);
		ticks_ms = json_int(t, key, -1);
		snprintf(key, sizeof(key), "total.%s.lat_ns.mean", dirs[d]);
		mean = json_dbl(j, key, 0);
		TH_LOG("%s: mean latency %.1f us, the block layer's %.1f us per request", dirs[d],
		       mean / 1e3, dev_ios > 0 ? ticks_ms * 1e3 / dev_ios : 0);
		if (dev_ios > 0)
			EXPECT_GE(mean, (double)ticks_ms * 1e6 / (double)dev_ios);
	}
	/* Eight requests in flight for a second: the device was busy, and said so. */
	EXPECT_LT(0, json_dbl(t, "disk_stats.util_pct", 0));
	EXPECT_GE(100, json_dbl(t, "disk_stats.util_pct", 101));
	json_object_put(root);
	run_result_free(&r);
}

/* Device bytes read by job 0, and its note. */
static long long device_read_bytes(json_object *root)
{
	json_object *t = json_object_array_get_idx(json_object_object_get(job0(root), "targets"), 0);

	return json_int(t, "disk_stats.read_sectors", -1) * 512;
}

/*
 * invalidate=1, fio's default: a buffered job starts with the target's
 * pages dropped, so it reads the device even right after another run
 * read the same region.  With invalidate=0 the page cache serves it, and
 * the report says so.
 */
TEST_F(dev, buffered_jobs_read_the_device_unless_told_not_to)
{
	const char *args[] = { "--name=cache", self->opt, "--rw=randread", "--bs=4k",
			       "--size=8m", "--direct=0", "--runtime=300ms", "--time_based",
			       NULL, NULL };
	struct run_result r;
	json_object *root;
	const char *note;

	PREP_READY(&self->p);
	/* Warm the cache, then read again with the default. */
	for (int pass = 0; pass < 2; pass++) {
		root = run_json(_metadata, &r, args);
		ASSERT_NE(NULL, root);
		if (pass) {
			TH_LOG("invalidate=1: the device read %lld bytes", device_read_bytes(root));
			EXPECT_LE(8LL << 20, device_read_bytes(root));
		}
		json_object_put(root);
		run_result_free(&r);
	}
	args[8] = "--invalidate=0";
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	TH_LOG("invalidate=0: the device read %lld bytes", device_read_bytes(root));
	EXPECT_GT(1LL << 20, device_read_bytes(root));
	note = json_str(job0(root), "note");
	EXPECT_NE(NULL, note ? strstr(note, "from the page cache") : NULL);
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
