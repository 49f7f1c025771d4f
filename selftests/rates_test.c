// SPDX-License-Identifier: GPL-2.0-only
/*
 * rates_test.c - fio's rate family: bandwidth and IOPS caps per direction,
 * rate_process=poisson, rate_min over ratecycle, thinktime_blocks and
 * thinktime_iotime, max_latency, latency_target's depth search and
 * steadystate, each against arithmetic, the device's counters and fio 3.33
 * running the same job file
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fs.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "io/engine.h"
#include "io/rate.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/scratchfs.h"
#include "helpers/spawn.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

/* ---- parsing ------------------------------------------------------------ */

TEST(rate_options_parse_as_in_fio)
{
	struct bq_parse_error err;
	struct bq_job j;

	bq_job_defaults(&j);
	EXPECT_EQ(1000, j.ratecycle_ms);
	EXPECT_EQ(1, j.thinktime_blocks);
	EXPECT_EQ(100.0, j.latency_percentile);
	EXPECT_EQ(BQ_SS_IOPS_SLOPE, j.ss);

	ASSERT_EQ(0, set1("rate", "1m", &j, &err));
	EXPECT_EQ(MiB, j.rate[BQ_READ]);
	EXPECT_EQ(MiB, j.rate[BQ_WRITE]);
	ASSERT_EQ(0, set1("rate", ",500k", &j, &err));
	EXPECT_EQ(0, j.rate[BQ_READ]);
	EXPECT_EQ(500 * KiB, j.rate[BQ_WRITE]);
	ASSERT_EQ(0, set1("rate", "1m,", &j, &err));
	EXPECT_EQ(MiB, j.rate[BQ_READ]);
	EXPECT_EQ(0, j.rate[BQ_WRITE]);
	ASSERT_EQ(0, set1("rate_iops", "500,200", &j, &err));
	EXPECT_EQ(500, j.rate_iops_rw[BQ_READ]);
	EXPECT_EQ(200, j.rate_iops_rw[BQ_WRITE]);
	ASSERT_EQ(0, set1("ratemin", "100k", &j, &err));
	EXPECT_EQ(100 * KiB, j.rate_min[BQ_WRITE]);
	ASSERT_EQ(0, set1("rate_iops_min", "10,20", &j, &err));
	EXPECT_EQ(20, j.rate_iops_min[BQ_WRITE]);
	ASSERT_EQ(0, set1("rate_cycle", "250", &j, &err));
	EXPECT_EQ(250, j.ratecycle_ms);
	ASSERT_EQ(0, set1("rate_process", "poisson", &j, &err));
	EXPECT_TRUE(j.rate_poisson);
	ASSERT_EQ(0, set1("rate_ignore_thinktime", NULL, &j, &err));
	EXPECT_TRUE(j.rate_ignore_thinktime);
	/* Times without a unit: microseconds, but thinktime_iotime's are seconds. */
	ASSERT_EQ(0, set1("thinktime_spin", "50", &j, &err));
	EXPECT_EQ(50 * NS_PER_US, j.thinktime_spin_ns);
	ASSERT_EQ(0, set1("thinktime_iotime", "2", &j, &err));
	EXPECT_EQ(2 * NS_PER_S, j.thinktime_iotime_ns);
	ASSERT_EQ(0, set1("thinktime_blocks", "10", &j, &err));
	EXPECT_EQ(10, j.thinktime_blocks);
	EXPECT_TRUE(j.thinktime_blocks_set);
	ASSERT_EQ(0, set1("thinktime_blocks_type", "issue", &j, &err));
	EXPECT_TRUE(j.thinktime_blocks_issue);
	ASSERT_EQ(0, set1("max_latency", "10ms,20", &j, &err));
	EXPECT_EQ(10 * NS_PER_MS, j.max_latency_ns[BQ_READ]);
	EXPECT_EQ(20 * NS_PER_US, j.max_latency_ns[BQ_WRITE]);
	ASSERT_EQ(0, set1("latency_target", "5ms", &j, &err));
	EXPECT_EQ(5 * NS_PER_MS, j.latency_target_ns);
	ASSERT_EQ(0, set1("latency_window", "100000", &j, &err));
	EXPECT_EQ(100 * NS_PER_MS, j.latency_window_ns);
	ASSERT_EQ(0, set1("latency_percentile", "99.5", &j, &err));
	EXPECT_EQ(99.5, j.latency_percentile);
	ASSERT_EQ(0, set1("latency_run", "1", &j, &err));
	EXPECT_TRUE(j.latency_run);
	ASSERT_EQ(0, set1("ss", "iops:2", &j, &err));
	EXPECT_EQ(BQ_SS_IOPS, j.ss);
	EXPECT_EQ(2.0, j.ss_limit);
	EXPECT_FALSE(j.ss_pct);
	ASSERT_EQ(0, set1("steadystate", "bw_slope:0.5%", &j, &err));
	EXPECT_EQ(BQ_SS_BW_SLOPE, j.ss);
	EXPECT_TRUE(j.ss_pct);
	ASSERT_EQ(0, set1("ss", "lat:5%", &j, &err));
	EXPECT_EQ(BQ_SS_LAT, j.ss);
	EXPECT_TRUE(j.ss_pct);
	/* An absolute latency limit is a time; bare numbers are microseconds. */
	ASSERT_EQ(0, set1("ss", "lat_slope:250", &j, &err));
	EXPECT_EQ(BQ_SS_LAT_SLOPE, j.ss);
	EXPECT_EQ(250000.0, j.ss_limit);
	EXPECT_FALSE(j.ss_pct);
	ASSERT_EQ(0, set1("ss", "lat:2ms", &j, &err));
	EXPECT_EQ(2000000.0, j.ss_limit);
	EXPECT_EQ(-EINVAL, set1("ss", "lat:soon", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ss", "clat:5%", NULL, &err));
	ASSERT_EQ(0, set1("steadystate_check_interval", "10", &j, &err));
	EXPECT_EQ(10 * NS_PER_S, j.ss_interval_ns);
	ASSERT_EQ(0, set1("ss_interval", "500ms", &j, &err));
	EXPECT_EQ(NS_PER_S / 2, j.ss_interval_ns);
	/* An absolute bandwidth limit is a size, as fio reads it. */
	ASSERT_EQ(0, set1("ss", "bw:2m", &j, &err));
	EXPECT_EQ((double)(2 * MiB), j.ss_limit);
	ASSERT_EQ(0, set1("ss_dur", "30", &j, &err));
	EXPECT_EQ(30 * NS_PER_S, j.ss_dur_ns);
	ASSERT_EQ(0, set1("steadystate_ramp_time", "5s", &j, &err));
	EXPECT_EQ(5 * NS_PER_S, j.ss_ramp_ns);

	/* rate's third (trim) value is fill_test.c's; max_latency's stays refused. */
	EXPECT_EQ(-EOPNOTSUPP, set1("max_latency", "1,2,3", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "max_latency=1,2,3")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("rate", "fast", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rate", ",", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rate_iops", "5k", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rate_iops", "4294967296", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rate_process", "bursty", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ratecycle", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("thinktime_blocks", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("thinktime_blocks_type", "submit", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("max_latency", "soon", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("latency_percentile", "101", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ss", "iops", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ss", "mbps:1", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "ss=mbps:1")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("rate_ignore_thinktime", "yes", NULL, &err));
}

/* fio refuses these combinations when the job is checked, and so does blkqual. */
TEST(rate_rules_of_fio)
{
	static const char *const bad[][4] = {
		{ "--rate=1m", "--rate_iops=100" },
		{ "--rate_min=1m", "--rate_iops_min=100" },
		{ "--rate=1m", "--rate_min=2m" },
		{ "--rate_iops=100", "--rate_iops_min=200" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *argv[] = { "--filename=/dev/x", (char *)bad[i][0], (char *)bad[i][1] };
		struct bq_parse_error err = { 0 };
		struct bq_jobset set = { 0 };

		EXPECT_EQ(-EINVAL, bq_jobs_from_args(3, argv, &set, &err)) TH_LOG("%s %s",
			bad[i][0], bad[i][1]);
		bq_jobset_free(&set);
	}
}

/* ---- the schedule, on a clock the test moves ------------------------------ */

/*
 * Gaps between I/O starts of a thread capped at @iops, on a virtual clock:
 * whenever the gate says wait, the clock jumps to the time it names.
 */
static int schedule_gaps(bool poisson, unsigned int iops, int n, double *mean, double *cv)
{
	struct bq_thread_result res = { 0 };
	struct bq_slot s = { .len = 4096, .dir = BQ_READ };
	struct bq_worker w = { 0 };
	volatile int stop = 0;
	struct bq_job j;
	uint64_t now = 0, prev = 0;
	double sum = 0, sq = 0;
	int ret;

	bq_job_defaults(&j);
	j.rate_iops_rw[BQ_READ] = iops;
	j.rate_poisson = poisson;
	w.job = &j;
	w.res = &res;
	w.depth = 1;
	w.stop = &stop;
	w.bytes_left = UINT64_MAX;
	ret = bq_rate_init(&w);
	if (ret || !w.rate)
		return ret ? ret : -EINVAL;
	bq_rate_start(&w, 0);
	for (int i = 0; i <= n; i++) {
		while (!bq_rate_may_start(&w, 0, now))
			now = w.next_submit_ns;
		if (i) {
			double gap = (double)(now - prev);

			sum += gap;
			sq += gap * gap;
		}
		prev = now;
		s.dir = (uint8_t)bq_rate_dir(&w);
		bq_rate_issued(&w, &s);
	}
	bq_rate_free(&w);
	*mean = sum / n;
	*cv = sqrt(sq / n - *mean * *mean) / *mean;
	return 0;
}

/* Poisson arrivals: exponential gaps, so their mean is 1/rate and their CV 1. */
TEST(poisson_gaps_are_exponential)
{
	double mean, cv;

	ASSERT_EQ(0, schedule_gaps(true, 1000, 20000, &mean, &cv));
	TH_LOG("poisson at 1000 IOPS: mean gap %.1f us, CV %.3f", mean / 1e3, cv);
	EXPECT_LT(fabs(mean - 1e6), 0.03 * 1e6);
	EXPECT_LT(fabs(cv - 1.0), 0.05);
	ASSERT_EQ(0, schedule_gaps(false, 1000, 2000, &mean, &cv));
	TH_LOG("linear at 1000 IOPS: mean gap %.1f us, CV %.4f", mean / 1e3, cv);
	EXPECT_LT(fabs(mean - 1e6), 1e3);
	EXPECT_LT(cv, 0.01);
}

/* ---- on a scratch loop device, beside fio ------------------------------------ */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char job[400];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, 256LL << 20);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->job);
	scratch_destroy(&self->s);
}

/*
 * The job file both tools run: [NAME] with filename= the device, then
 * @body; always the same file, which teardown removes.
 */
static const char *write_job(FIXTURE_DATA(dev) *self, const char *name, const char *body)
{
	FILE *f;

	snprintf(self->job, sizeof(self->job), "%s/job.fio", self->s.dir);
	f = fopen(self->job, "w");
	if (!f)
		return NULL;
	fprintf(f, "[%s]\nfilename=%s\nioengine=io_uring\n%s", name, self->s.dev, body);
	fclose(f);
	return self->job;
}

/* Parse what a command printed from its first '{' (fio may print notes first). */
static json_object *parse_out(const struct run_result *r)
{
	const char *brace = r->out ? strchr(r->out, '{') : NULL;

	return brace ? json_tokener_parse(brace) : NULL;
}

/* blkqual on the job file, JSON whatever the exit status. */
static json_object *blkqual_job(const char *path, struct run_result *r)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", path, NULL };

	if (run_argv(argv, r))
		return NULL;
	return parse_out(r);
}

/* fio on the same file; NULL when fio is missing (@have_fio false) or failed to print. */
static json_object *fio_job(const char *path, struct run_result *r, bool *have_fio)
{
	const char *argv[] = { "fio", "--output-format=json", path, NULL };

	*have_fio = !need_program("fio");
	memset(r, 0, sizeof(*r));
	if (!*have_fio || run_argv(argv, r))
		return NULL;
	return parse_out(r);
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

static json_object *thread0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(job0(root), "threads"), 0);
}

/* Bytes per second of a direction of blkqual's job over its runtime. */
static double bq_bps(json_object *root, const char *dir)
{
	char path[64];

	snprintf(path, sizeof(path), "total.%s.bytes", dir);
	return (double)json_int(job0(root), path, 0) * 1e9 /
	       (double)json_int(job0(root), "runtime_ns", 1);
}

#define NEAR(got, want, tol) (fabs((double)(got) - (double)(want)) <= (tol) * (double)(want))

/*
 * rate=1m,256k on a mixed job: each direction at its own cap, within 3%,
 * the device's counters agreeing with blkqual's bytes, and fio's rates
 * within 3% of the same caps.
 */
TEST_F(dev, bandwidth_caps_per_direction)
{
	const char *path;
	json_object *bq, *fio, *disk;
	struct run_result r, f;
	bool have_fio;
	double dev_bytes;

	PREP_READY(&self->p);
	path = write_job(self, "cap", "rw=rw\nbs=4k\ndirect=1\niodepth=4\nrate=1m,256k\nruntime=2\n"
			 "time_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(0, r.status);
	TH_LOG("blkqual: read %.0f B/s, write %.0f B/s", bq_bps(bq, "read"), bq_bps(bq, "write"));
	EXPECT_TRUE(NEAR(bq_bps(bq, "read"), MiB, 0.03));
	EXPECT_TRUE(NEAR(bq_bps(bq, "write"), 256 * KiB, 0.03));
	disk = json_object_array_get_idx(json_object_object_get(job0(bq), "targets"), 0);
	dev_bytes = 512.0 * (double)(json_int(disk, "disk_stats.read_sectors", 0) +
				     json_int(disk, "disk_stats.write_sectors", 0));
	TH_LOG("the device moved %.0f bytes, blkqual %lld", dev_bytes,
	       json_int(job0(bq), "total.read.bytes", 0) +
	       json_int(job0(bq), "total.write.bytes", 0));
	EXPECT_TRUE(NEAR(dev_bytes, json_int(job0(bq), "total.read.bytes", 0) +
			 json_int(job0(bq), "total.write.bytes", 0), 0.02));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		ASSERT_NE(NULL, fio) TH_LOG("fio exit %d: %.300s", f.status, f.err);
		TH_LOG("fio: read %lld B/s, write %lld B/s",
		       json_int(job0(fio), "read.bw_bytes", 0), json_int(job0(fio), "write.bw_bytes", 0));
		EXPECT_TRUE(NEAR(json_int(job0(fio), "read.bw_bytes", 0), MiB, 0.03));
		EXPECT_TRUE(NEAR(json_int(job0(fio), "write.bw_bytes", 0), 256 * KiB, 0.03));
		json_object_put(fio);
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/* A capped job bounded by size: the same I/Os as fio, in the time the cap gives. */
TEST_F(dev, capped_job_by_size_matches_fio)
{
	const char *path;
	json_object *bq, *fio;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "sized", "rw=read\nbs=4k\ndirect=1\nsize=1m\nrate_iops=256\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(256, json_int(job0(bq), "total.read.ios", -1));
	EXPECT_EQ(MiB, json_int(job0(bq), "total.read.bytes", -1));
	/* The first I/O goes at once, the 256th after 255/256 s. */
	TH_LOG("blkqual runtime %.3f s", (double)json_int(job0(bq), "runtime_ns", 0) / 1e9);
	EXPECT_TRUE(NEAR(json_int(job0(bq), "runtime_ns", 0), NS_PER_S, 0.05));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		ASSERT_NE(NULL, fio);
		EXPECT_EQ(json_int(job0(bq), "total.read.ios", -1),
			  json_int(job0(fio), "read.total_ios", -2));
		EXPECT_EQ(json_int(job0(bq), "total.read.bytes", -1),
			  json_int(job0(fio), "read.io_bytes", -2));
		TH_LOG("fio runtime %lld ms", json_int(job0(fio), "job_runtime", 0));
		EXPECT_TRUE(NEAR(json_int(job0(fio), "job_runtime", 0), 1000, 0.05));
		json_object_put(fio);
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/*
 * rate_process=poisson on a device, bounded by size: the same 512 I/Os as
 * fio, in about the time their rate gives (512 / 500 s; the sum of 511
 * exponential gaps is within 13% of that at 3 sigma).  Bounded by size,
 * a thread that a busy machine held up catches up, so the check holds.
 */
TEST_F(dev, poisson_keeps_the_mean_rate)
{
	const double want_ms = 512 * 1000.0 / 500;
	const char *path;
	json_object *bq, *fio;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "poisson", "rw=randread\nbs=4k\ndirect=1\niodepth=4\nrate_iops=500\n"
			 "rate_process=poisson\nsize=2m\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(512, json_int(job0(bq), "total.read.ios", -1));
	TH_LOG("blkqual: 512 I/Os in %.0f ms (%.0f expected)",
	       (double)json_int(job0(bq), "runtime_ns", 0) / 1e6, want_ms);
	EXPECT_TRUE(NEAR((double)json_int(job0(bq), "runtime_ns", 0) / 1e6, want_ms, 0.13));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		ASSERT_NE(NULL, fio);
		EXPECT_EQ(512, json_int(job0(fio), "read.total_ios", -1));
		TH_LOG("fio: %lld I/Os in %lld ms", json_int(job0(fio), "read.total_ios", -1),
		       json_int(job0(fio), "job_runtime", 0));
		/* fio, the reference, runs some 7% slow at this rate here: more slack. */
		EXPECT_TRUE(NEAR(json_int(job0(fio), "job_runtime", 0), want_ms, 0.2));
		json_object_put(fio);
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/*
 * rate_min=1m with a thread that pauses 100 ms per I/O: after fio's two
 * seconds of grace and one ratecycle, the job fails (fio: EIO, exit 1).
 */
TEST_F(dev, rate_min_not_met_fails_the_job)
{
	const char *path;
	json_object *bq, *fio;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "slow", "rw=read\nbs=4k\ndirect=1\nthinktime=100ms\n"
			 "rate_min=1m\nratecycle=200\nruntime=6\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("rate_min", json_str(thread0(bq), "rates.failed.what"));
	EXPECT_EQ(MiB, json_int(thread0(bq), "rates.failed.limit", 0));
	EXPECT_GT(100 * KiB, json_int(thread0(bq), "rates.failed.got", MiB));
	/* Judged at 2 s, failed one ratecycle later; not the 6 s asked for. */
	EXPECT_GT(4 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	EXPECT_LT(2 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		EXPECT_EQ(1, f.status);
		EXPECT_NE(NULL, f.err ? strstr(f.err, "rate_min") : NULL);
		if (fio) {
			EXPECT_EQ(EIO, json_int(job0(fio), "error", 0));
			EXPECT_GT(4000, json_int(job0(fio), "job_runtime", 0));
			json_object_put(fio);
		}
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/*
 * thinktime pauses after every thinktime_blocks I/Os, counted as they
 * complete or as they are issued, the last one too: 100 I/Os give 10
 * pauses every 10, 14 every 7; with thinktime_iotime, one per
 * iotime + thinktime.  fio does the same I/Os, in at least that much time.
 */
TEST_F(dev, thinktime_blocks_pause_counts)
{
	static const struct {
		const char *body;
		long long pauses, slack;
	} cases[] = {
		{ "thinktime_blocks=10\n", 10, 0 },
		{ "thinktime_blocks=7\nthinktime_blocks_type=issue\niodepth=8\n", 14, 0 },
		{ "thinktime_blocks=25\nthinktime_spin=500\n", 4, 0 },
	};
	bool have_fio = true;

	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char body[256];
		const char *path;
		json_object *bq, *fio;
		struct run_result r, f;

		snprintf(body, sizeof(body), "rw=read\nbs=4k\ndirect=1\nsize=400k\nthinktime=2ms\n%s",
			 cases[i].body);
		path = write_job(self, "think", body);
		ASSERT_NE(NULL, path);
		bq = blkqual_job(path, &r);
		ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
		EXPECT_EQ(100, json_int(job0(bq), "total.read.ios", -1));
		EXPECT_EQ(cases[i].pauses, json_int(thread0(bq), "rates.thinktime_pauses", -1))
			TH_LOG("%s", cases[i].body);
		EXPECT_LE(cases[i].pauses * 2 * NS_PER_MS, json_int(job0(bq), "runtime_ns", 0));
		fio = fio_job(path, &f, &have_fio);
		if (have_fio) {
			ASSERT_NE(NULL, fio);
			EXPECT_EQ(100, json_int(job0(fio), "read.total_ios", -1));
			TH_LOG("%zu: %lld pauses; blkqual %.1f ms, fio %lld ms", i, cases[i].pauses,
			       (double)json_int(job0(bq), "runtime_ns", 0) / 1e6,
			       json_int(job0(fio), "job_runtime", 0));
			EXPECT_LE(cases[i].pauses * 2, json_int(job0(fio), "job_runtime", 0));
			json_object_put(fio);
		}
		run_result_free(&f);
		json_object_put(bq);
		run_result_free(&r);
	}
	/*
	 * 200 IOPS, a 400 ms pause every 20 I/Os, 1 s: by default the thread
	 * catches up the I/O each pause skipped (20, then 20 at 0.5 s and at
	 * 0.9 s: 60); rate_ignore_thinktime goes on at the rate (20 and 20: 40).
	 */
	for (int ign = 0; ign < 2; ign++) {
		static const long long want[] = { 60, 40 };
		char body[256];
		const char *path;
		json_object *bq, *fio;
		struct run_result r, f;

		snprintf(body, sizeof(body), "rw=read\nbs=4k\ndirect=1\nrate_iops=200\n"
			 "thinktime=400ms\nthinktime_blocks=20\nrate_ignore_thinktime=%d\n"
			 "runtime=1\ntime_based\n", ign);
		path = write_job(self, "ignore", body);
		ASSERT_NE(NULL, path);
		bq = blkqual_job(path, &r);
		ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
		TH_LOG("rate_ignore_thinktime=%d: blkqual %lld I/Os", ign,
		       json_int(job0(bq), "total.read.ios", -1));
		EXPECT_GE(3, llabs(want[ign] - json_int(job0(bq), "total.read.ios", -1)));
		fio = fio_job(path, &f, &have_fio);
		if (have_fio) {
			ASSERT_NE(NULL, fio);
			TH_LOG("rate_ignore_thinktime=%d: fio %lld I/Os", ign,
			       json_int(job0(fio), "read.total_ios", -1));
			/* fio, the reference, gets a little more slack on a busy machine. */
			EXPECT_GE(5, llabs(want[ign] - json_int(job0(fio), "read.total_ios", -1)));
			json_object_put(fio);
		}
		run_result_free(&f);
		json_object_put(bq);
		run_result_free(&r);
	}
	{
		/* 200 ms of I/O, 100 ms of pause: pauses at 0.2, 0.5 and 0.8 s of 1 s. */
		const char *path = write_job(self, "iotime", "rw=read\nbs=4k\ndirect=1\n"
					     "thinktime=100ms\nthinktime_iotime=200ms\nruntime=1\n"
					     "time_based\n");
		struct run_result r;
		json_object *bq;

		ASSERT_NE(NULL, path);
		bq = blkqual_job(path, &r);
		ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
		EXPECT_EQ(3, json_int(thread0(bq), "rates.thinktime_pauses", -1));
		json_object_put(bq);
		run_result_free(&r);
	}
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

static bool ss_attained(json_object *thread)
{
	return json_object_get_boolean(json_object_object_get(json_object_object_get(
		json_object_object_get(thread, "rates"), "steadystate"), "attained"));
}

/*
 * A job capped at 500 IOPS is steady from its first second: ss=iops:20%
 * (loose enough for a busy machine) over 2 s ends it long before its
 * 20 s, in blkqual as in fio, and both say steady state was attained.
 * With two threads of 250 and group_reporting, the window is the pair's,
 * as fio's is the group's: 500 IOPS, both threads ended together.
 */
TEST_F(dev, steadystate_ends_the_job_early)
{
	const char *path;
	json_object *bq, *fio, *threads;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "steady", "rw=randread\nbs=4k\ndirect=1\niodepth=4\nrate_iops=500\n"
			 "ss=iops:20%\nss_dur=2\nruntime=20\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(0, r.status);
	EXPECT_TRUE(ss_attained(thread0(bq)));
	TH_LOG("blkqual ran %.2f s, criterion %.3f%%",
	       (double)json_int(job0(bq), "runtime_ns", 0) / 1e9,
	       json_dbl(thread0(bq), "rates.steadystate.value", -1));
	EXPECT_GT(10 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	EXPECT_TRUE(NEAR(json_dbl(thread0(bq), "rates.steadystate.iops_mean", 0), 500, 0.10));
	json_object_put(bq);
	run_result_free(&r);

	path = write_job(self, "steady", "rw=randread\nbs=4k\ndirect=1\niodepth=4\nrate_iops=250\n"
			 "numjobs=2\ngroup_reporting\nss=iops:20%\nss_dur=2\nruntime=20\n"
			 "time_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	threads = json_object_object_get(job0(bq), "threads");
	for (int i = 0; i < 2; i++) {
		json_object *t = json_object_array_get_idx(threads, (size_t)i);

		EXPECT_TRUE(ss_attained(t)) TH_LOG("thread %d", i);
		EXPECT_TRUE(NEAR(json_dbl(t, "rates.steadystate.iops_mean", 0), 500, 0.10));
	}
	EXPECT_GT(10 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		ASSERT_NE(NULL, fio);
		TH_LOG("fio ran %lld ms", json_int(job0(fio), "job_runtime", 0));
		EXPECT_EQ(1, json_int(job0(fio), "steadystate.attained", 0));
		/* fio's group mean is the pair's too. */
		EXPECT_TRUE(NEAR(json_dbl(job0(fio), "steadystate.data.iops_mean", 0), 500, 0.10));
		/* job_runtime adds up the two threads' runtimes. */
		EXPECT_GT(10000 * 2, json_int(job0(fio), "job_runtime", 0));
		json_object_put(fio);
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/*
 * Newer fio's latency criterion, sampled every ss_interval: a job capped
 * at 500 IOPS has a steady completion latency, so ss=lat:200% (no sample
 * three times the mean: loose, for a busy machine) over 2 s of 500 ms
 * samples ends it early, with 4 samples in the window whose mean agrees
 * with the job's own latency mean.  A limit of 0% is never
 * met: the job runs its time.  (fio 3.33 has no lat criterion; the check
 * is against the job's own latency figures.)
 */
TEST_F(dev, steadystate_on_latency_with_an_interval)
{
	const char *path;
	struct run_result r;
	json_object *bq;
	double lat, job_lat;

	PREP_READY(&self->p);
	path = write_job(self, "steadylat", "rw=randread\nbs=4k\ndirect=1\niodepth=1\n"
			 "rate_iops=500\nss=lat:200%\nss_dur=2\nss_interval=500ms\n"
			 "runtime=20\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(0, r.status);
	EXPECT_TRUE(ss_attained(thread0(bq)));
	EXPECT_GT(10 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	EXPECT_LE(4, json_int(thread0(bq), "rates.steadystate.samples", 0));
	lat = json_dbl(thread0(bq), "rates.steadystate.lat_mean_ns", 0);
	job_lat = json_dbl(job0(bq), "total.read.lat_ns.mean", 0);
	TH_LOG("window mean %.0f ns, job mean %.0f ns, criterion %.1f%%", lat, job_lat,
	       json_dbl(thread0(bq), "rates.steadystate.value", -1));
	EXPECT_TRUE(lat > job_lat / 2 && lat < job_lat * 2);
	json_object_put(bq);
	run_result_free(&r);

	path = write_job(self, "steadylat", "rw=randread\nbs=4k\ndirect=1\niodepth=1\n"
			 "rate_iops=500\nss=lat_slope:0%\nss_dur=1\nss_interval=250ms\n"
			 "runtime=2\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_FALSE(ss_attained(thread0(bq)));
	EXPECT_LE(2 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	/* Four samples a second after the first interval: 7 in 2 s, give or take one. */
	EXPECT_LE(6, json_int(thread0(bq), "rates.steadystate.samples", 0));
	json_object_put(bq);
	run_result_free(&r);
}

/*
 * max_latency below any real I/O (1 us): the first I/O trips it, the job
 * ends with ETIMEDOUT and exit 1, as fio's does.  A limit of 10 s never
 * trips.  (The frozen fixture below trips it with a real slow I/O.)
 */
TEST_F(dev, max_latency_trips)
{
	const char *path;
	json_object *bq, *fio;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "maxlat", "rw=read\nbs=64k\ndirect=1\nmax_latency=1\n"
			 "runtime=3\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("max_latency", json_str(thread0(bq), "rates.failed.what"));
	EXPECT_EQ(1, json_int(job0(bq), "total.read.errors", 0));
	EXPECT_GT(NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		EXPECT_EQ(1, f.status);
		if (fio) {
			EXPECT_EQ(ETIMEDOUT, json_int(job0(fio), "error", 0));
			json_object_put(fio);
		}
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);

	path = write_job(self, "maxlat", "rw=read\nbs=64k\ndirect=1\nmax_latency=10s\nsize=4m\n");
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(64, json_int(job0(bq), "total.read.ios", -1));
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/*
 * latency_target: a target every I/O meets lets the depth double up to
 * iodepth (1, 2, 4, 8), where it stays; one more window and the job ends,
 * reporting depth 8, as fio's latency_depth does.  A target no I/O meets
 * at depth 1 fails the job with ETIMEDOUT.
 */
TEST_F(dev, latency_target_finds_the_depth)
{
	const char *path;
	json_object *bq, *fio;
	struct run_result r, f;
	bool have_fio;

	PREP_READY(&self->p);
	path = write_job(self, "target", "rw=randread\nbs=4k\ndirect=1\niodepth=8\n"
			 "latency_target=10s\nlatency_window=100ms\nruntime=5\ntime_based\n");
	ASSERT_NE(NULL, path);
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(8, json_int(thread0(bq), "rates.latency_target_depth", -1));
	EXPECT_GT(2 * NS_PER_S, json_int(job0(bq), "runtime_ns", 0));
	fio = fio_job(path, &f, &have_fio);
	if (have_fio) {
		ASSERT_NE(NULL, fio);
		EXPECT_EQ(8, json_int(job0(fio), "latency_depth", -1));
		json_object_put(fio);
	}
	run_result_free(&f);
	json_object_put(bq);
	run_result_free(&r);

	path = write_job(self, "target", "rw=randread\nbs=4k\ndirect=1\niodepth=8\n"
			 "latency_target=1\nruntime=3\ntime_based\n");
	bq = blkqual_job(path, &r);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("latency_target", json_str(thread0(bq), "rates.failed.what"));
	json_object_put(bq);
	run_result_free(&r);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
}

/* ---- a slow path: a loop device over a file on an XFS that is frozen a while ---- */

FIXTURE(frozen)
{
	struct prep p;
	struct scratchfs fs;
	struct scratch inner;		/* the loop device the jobs write to */
	bool frozen;
	pid_t pid;
	char job[400];
	char out[400];
	char log[400];
};

static int freeze(const char *mnt, bool on)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, on ? FIFREEZE : FITHAW, 0) ? -errno : 0;
	close(fd);
	return ret;
}

FIXTURE_SETUP(frozen)
{
	int fd;

	self->pid = -1;
	scratchfs_init(&self->fs);
	scratch_init(&self->inner);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	if (!prep_ok(&self->p))
		return;
	if (snprintf(self->inner.file, sizeof(self->inner.file), "%s/inner.img",
		     self->fs.mnt) >= (int)sizeof(self->inner.file)) {
		prep_fail(&self->p, "naming the inner file", -ENAMETOOLONG);
		return;
	}
	fd = open(self->inner.file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	prep_fail(&self->p, "making the inner file", fd < 0 ? -errno : 0);
	if (fd >= 0) {
		prep_fail(&self->p, "sizing the inner file", ftruncate(fd, 64 << 20) ? -errno : 0);
		close(fd);
	}
	if (prep_ok(&self->p))
		prep_fail(&self->p, "attaching the inner loop device", scratch_attach(&self->inner));
	snprintf(self->job, sizeof(self->job), "%s/slow.fio", self->fs.s.dir);
	snprintf(self->out, sizeof(self->out), "%s/result.json", self->fs.s.dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->fs.s.dir);
}

FIXTURE_TEARDOWN(frozen)
{
	int status;

	/* Thaw first, always: nothing under a frozen filesystem can finish. */
	if (self->frozen && freeze(self->fs.mnt, false))
		TH_LOG("thawing %s: %s", self->fs.mnt, strerror(errno));
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, &status, 0);
	}
	unlink(self->job);
	unlink(self->out);
	unlink(self->log);
	scratch_destroy(&self->inner);
	scratchfs_destroy(&self->fs);
}

/* fio's full path (execv() does not search $PATH), or false. */
static bool fio_path(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dir[4096], *save = NULL;

	snprintf(dir, sizeof(dir), "%s", path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dir, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/fio", d);
		if (!access(buf, X_OK))
			return true;
	}
	return false;
}

/*
 * Run @argv (its JSON goes to self->out); with @stall, freeze the backing
 * filesystem 1.2 s in for 400 ms, so that the writes in flight then take
 * that long.  Return: the parsed JSON or NULL; the exit status in @status.
 */
static json_object *run_slowed(FIXTURE_DATA(frozen) *self, const char *const *argv, bool stall,
			       int *status)
{
	char *text;
	json_object *root;

	unlink(self->out);
	self->pid = spawn_logged(argv, self->log);
	if (self->pid <= 0)
		return NULL;
	if (stall) {
		/* Late enough for fio, slower to start, to be writing by then. */
		sleep_ms(1200);
		if (freeze(self->fs.mnt, true))
			return NULL;
		self->frozen = true;
		sleep_ms(400);
		if (freeze(self->fs.mnt, false))
			return NULL;
		self->frozen = false;
	}
	if (wait_exit_ms(self->pid, 10000, status) < 0)
		return NULL;
	self->pid = -1;
	text = slurp(self->out);
	root = text && strchr(text, '{') ? json_tokener_parse(strchr(text, '{')) : NULL;
	free(text);
	return root;
}

/*
 * max_latency=100ms: met by every write of a quiet loop device, tripped by
 * the writes held 400 ms by a freeze of the filesystem under it.  blkqual
 * ends the job with ETIMEDOUT and exit 1, as fio does on the same job.
 */
/* The job both tools run on the inner device: writes, max_latency=100ms. */
static int write_slow_job(FIXTURE_DATA(frozen) *self, const char *runtime)
{
	FILE *f = fopen(self->job, "w");

	if (!f)
		return -errno;
	fprintf(f, "[slow]\nfilename=%s\nioengine=io_uring\nrw=write\nbs=4k\ndirect=1\n"
		"max_latency=100ms\nruntime=%s\ntime_based\n", self->inner.dev, runtime);
	return fclose(f) ? -errno : 0;
}

TEST_F(frozen, max_latency_trips_on_a_slow_write)
{
	char output[420];
	const char *bq[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			     self->job, NULL };
	char fio_bin[4200];
	const char *fio[] = { fio_bin, "--output-format=json", output, self->job, NULL };
	json_object *root;
	bool have_fio = fio_path(fio_bin, sizeof(fio_bin));
	int status;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	ASSERT_EQ(0, write_slow_job(self, "500ms"));
	root = run_slowed(self, bq, false, &status);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NULL, json_object_object_get(json_object_object_get(thread0(root), "rates"),
					       "failed"));
	json_object_put(root);

	ASSERT_EQ(0, write_slow_job(self, "2500ms"));
	root = run_slowed(self, bq, true, &status);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(1, WEXITSTATUS(status));
	EXPECT_STREQ("max_latency", json_str(thread0(root), "rates.failed.what"));
	TH_LOG("blkqual: a write took %.0f ms", json_int(thread0(root), "rates.failed.got", 0) / 1e6);
	EXPECT_LE(200 * NS_PER_MS, json_int(thread0(root), "rates.failed.got", 0));
	EXPECT_LE(1, json_int(job0(root), "total.write.errors", 0));
	json_object_put(root);

	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual checked, not compared");
	root = run_slowed(self, fio, true, &status);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(1, WEXITSTATUS(status));
	EXPECT_EQ(ETIMEDOUT, json_int(job0(root), "error", 0));
	json_object_put(root);
}

TEST_HARNESS_MAIN
