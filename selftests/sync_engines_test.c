// SPDX-License-Identifier: GPL-2.0-only
/*
 * sync_engines_test.c - the synchronous engines and the sync-family file
 * options (issue 19): sync, pvsync and pvsync2 each make their own calls
 * and count what the device and fio 3.33 count for the same job file;
 * fsync, fdatasync, end_fsync, fsync_on_close and sync= flush the device
 * as often as fio does; pvsync2 hipri=1 on a loop device, which cannot
 * poll, is refused before any I/O; uncached=1 leaves nothing in the page
 * cache; values fio does not have, and options the engine lacks, are
 * refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "job/jobopt.h"
#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/scratchfs.h"
#include "helpers/strace.h"

#define SYNC_DEV_SIZE (64LL << 20)

/* ---- parsing ---------------------------------------------------------- */

/* A command line, checked as a whole job; the set is freed. */
static int args_job(struct bq_parse_error *err, int argc, const char **argv)
{
	struct bq_jobset set = { 0 };
	int ret;

	memset(err, 0, sizeof(*err));
	ret = bq_jobs_from_args(argc, (char **)argv, &set, err);
	bq_jobset_free(&set);
	return ret;
}

TEST(engines_are_their_own)
{
	static const struct {
		const char *s;
		enum bq_engine e;
	} ok[] = {
		{ "sync", BQ_ENGINE_SYNCRW }, { "pvsync", BQ_ENGINE_PVSYNC },
		{ "pvsync2", BQ_ENGINE_PVSYNC2 }, { "psync", BQ_ENGINE_PSYNC },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, set1("ioengine", ok[i].s, &job, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(ok[i].e, job.engine) TH_LOG("%s", ok[i].s);
		EXPECT_STREQ(ok[i].s, bq_engine_name(job.engine));
		EXPECT_TRUE(bq_engine_has(job.engine, BQ_ENGINE_SYNC));
	}
	EXPECT_TRUE(bq_engine_has(BQ_ENGINE_PVSYNC2, BQ_ENGINE_HIPRI));
	EXPECT_FALSE(bq_engine_has(BQ_ENGINE_PSYNC, BQ_ENGINE_HIPRI));
	/* vsync (readv/writev) is fio's too, and still refused by name. */
	EXPECT_EQ(-EOPNOTSUPP, set1("ioengine", "vsync", NULL, &err));
}

TEST(sync_values_are_fios)
{
	static const char *const o_sync[] = { "1", "sync" };
	static const char *const none[] = { "0", "none" };
	static const char *const bad[] = { "2", "fsync", "yes", "" };
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(o_sync); i++) {
		ASSERT_EQ(0, set1("sync", o_sync[i], &job, &err));
		EXPECT_TRUE(job.sync);
		EXPECT_FALSE(job.sync_data_only) TH_LOG("sync=%s is O_SYNC in fio", o_sync[i]);
	}
	ASSERT_EQ(0, set1("sync", "dsync", &job, &err));
	EXPECT_TRUE(job.sync);
	EXPECT_TRUE(job.sync_data_only);
	for (size_t i = 0; i < ARRAY_SIZE(none); i++) {
		ASSERT_EQ(0, set1("sync", none[i], &job, &err));
		EXPECT_FALSE(job.sync);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, set1("sync", bad[i], NULL, &err)) TH_LOG("sync=%s", bad[i]);
	}
}

TEST(sync_family_values)
{
	static const struct {
		const char *key, *val;
		int ret;
	} cases[] = {
		{ "fdatasync", "16", 0 }, { "fdatasync", "0", 0 }, { "fdatasync", "-1", -EINVAL },
		{ "fdatasync", "4k", -EINVAL }, { "end_fsync", "1", 0 }, { "end_fsync", "0", 0 },
		{ "end_fsync", "yes", -EINVAL }, { "end_fsync", NULL, -EINVAL },
		{ "fsync_on_close", "1", 0 }, { "fsync_on_close", "2", -EINVAL },
		{ "write_barrier", "8", 0 }, { "write_barrier", "x", -EINVAL },
		{ "hipri_percentage", "0", 0 }, { "hipri_percentage", "50", 0 },
		{ "hipri_percentage", "100", 0 }, { "hipri_percentage", "101", -EINVAL },
		{ "uncached", "1", 0 }, { "uncached", "on", -EINVAL },
		{ "nowait", "1", 0 }, { "nowait", "2", -EINVAL },
		/* Still fio's only: refused by name, never ignored. */
		{ "sync_file_range", "write:8", -EOPNOTSUPP },
		{ "end_syncfs", "1", -EOPNOTSUPP },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(cases[i].ret, set1(cases[i].key, cases[i].val, NULL, &err))
			TH_LOG("%s=%s: %s", cases[i].key, cases[i].val ? cases[i].val : "(none)",
			       err.msg);
	}
	ASSERT_EQ(0, set1("fdatasync", "16", &job, &err));
	EXPECT_EQ(16, job.fdatasync_every);
	ASSERT_EQ(0, set1("fsync_on_close", "1", &job, &err));
	EXPECT_TRUE(job.fsync_on_close);
	bq_job_defaults(&job);
	EXPECT_EQ(100, job.hipri_percentage);
	EXPECT_EQ(0, job.uncached);
	EXPECT_FALSE(job.nowait);
	EXPECT_FALSE(job.end_fsync);
}

TEST(pvsync2_options_need_pvsync2)
{
	static const struct {
		const char *engine, *opt, *msg;
	} refused[] = {
		{ "--ioengine=psync", "--nowait=1",
		  "nowait=1 is not supported with ioengine=psync (only pvsync2)" },
		{ "--ioengine=io_uring", "--uncached=1",
		  "uncached=1 is not supported with ioengine=io_uring (only pvsync2)" },
		{ "--ioengine=libaio", "--hipri_percentage=50",
		  "hipri_percentage=50 is not supported with ioengine=libaio (only pvsync2)" },
		{ "--ioengine=io_uring_cmd", "--end_fsync=1",
		  "end_fsync is not supported with ioengine=io_uring_cmd" },
		{ "--ioengine=io_uring_cmd", "--fdatasync=8",
		  "fdatasync is not supported with ioengine=io_uring_cmd" },
	};
	const char *good[] = { "--filename=/dev/null", "--ioengine=pvsync2", "--nowait=1",
			       "--uncached=1", "--hipri_percentage=30", "--fdatasync=4",
			       "--end_fsync=1", "--fsync_on_close=1", "--write_barrier=2" };
	struct bq_parse_error err;

	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		const char *argv[] = { "--filename=/dev/null", refused[i].engine, refused[i].opt };

		EXPECT_EQ(-EOPNOTSUPP, args_job(&err, 3, argv)) TH_LOG("%s", refused[i].opt);
		EXPECT_NE(NULL, strstr(err.msg, refused[i].msg)) TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(0, args_job(&err, ARRAY_SIZE(good), good)) TH_LOG("%s", err.msg);
}

/* What bq_job_to_args() writes gives back the same job. */
TEST(pvsync2_job_round_trip)
{
	const char *argv[] = { "--name=r", "--filename=/dev/null", "--ioengine=pvsync2",
			       "--hipri_percentage=30", "--uncached=1", "--nowait=1",
			       "--fdatasync=4", "--end_fsync=1", "--fsync_on_close=1",
			       "--write_barrier=3", "--sync=dsync" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err;
	struct bq_strv args = { 0 };
	const struct bq_job *x, *y;

	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(argv), (char **)argv, &a, &err))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &b, &err)) TH_LOG("%s", err.msg);
	x = &a.jobs[0];
	y = &b.jobs[0];
	EXPECT_EQ(BQ_ENGINE_PVSYNC2, y->engine);
	EXPECT_EQ(x->hipri_percentage, y->hipri_percentage);
	EXPECT_EQ(x->uncached, y->uncached);
	EXPECT_EQ(x->nowait, y->nowait);
	EXPECT_EQ(x->fdatasync_every, y->fdatasync_every);
	EXPECT_EQ(x->end_fsync, y->end_fsync);
	EXPECT_EQ(x->fsync_on_close, y->fsync_on_close);
	EXPECT_EQ(x->write_barrier, y->write_barrier);
	EXPECT_TRUE(y->sync);
	EXPECT_TRUE(y->sync_data_only);
	bq_strv_free(&args);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

/* ---- on a device ------------------------------------------------------ */

/* A device's own counters: /sys/block/NAME/stat. */
struct dstat {
	long long rd, wr, flush;
};

static int dstat_read(const char *dev, struct dstat *d)
{
	char path[128], *text;
	long long f[17] = { 0 };
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", strrchr(dev, '/') + 1);
	text = slurp(path);
	if (!text)
		return -errno;
	n = sscanf(text, "%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld "
		   "%lld %lld %lld", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8],
		   &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]);
	free(text);
	if (n < 17)
		return -EPROTO;
	d->rd = f[0];
	d->wr = f[4];
	d->flush = f[15];
	return 0;
}

/* What one program did to the device, by its own count and the device's. */
struct counts {
	long long ios[2], bytes[2];
	struct dstat disk;
};

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	bool have_fio;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SYNC_DEV_SIZE);
	self->have_fio = !need_program("fio");
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

static char *write_job(struct __test_metadata *_metadata, const struct scratch *s,
		       const char *name, const char *body)
{
	static char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.fio", s->dir, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fprintf(f, "[global]\nfilename=%s\nbs=4k\n%s", s->dev, body);
	fclose(f);
	return path;
}

/*
 * blkqual run on a job file.  The device's reads and writes are the ones
 * blkqual reports, counted from its start line: before it, the guard
 * reads the target's first blocks.  Flushes, which it does not report,
 * are counted around the whole run.
 */
static int bq_counts(struct __test_metadata *_metadata, const char *dev, const char *jobfile,
		     struct counts *c)
{
	const char *args[] = { jobfile, NULL };
	struct dstat a, b;
	struct run_result r;
	json_object *root, *j;

	if (dstat_read(dev, &a))
		return -1;
	root = blkqual_run_json(&r, args);
	if (!root || dstat_read(dev, &b)) {
		TH_LOG("blkqual: exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -1;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	c->ios[BQ_READ] = json_int(j, "total.read.ios", -1);
	c->ios[BQ_WRITE] = json_int(j, "total.write.ios", -1);
	c->bytes[BQ_READ] = json_int(j, "total.read.bytes", -1);
	c->bytes[BQ_WRITE] = json_int(j, "total.write.bytes", -1);
	c->disk.rd = json_int(json_object_array_get_idx(json_object_object_get(j, "targets"), 0),
			      "disk_stats.read_ios", -1);
	c->disk.wr = json_int(json_object_array_get_idx(json_object_object_get(j, "targets"), 0),
			      "disk_stats.write_ios", -1);
	c->disk.flush = b.flush - a.flush;
	json_object_put(root);
	run_result_free(&r);
	return 0;
}

/* fio 3.33 on the same job file, JSON output. */
static int fio_counts(struct __test_metadata *_metadata, const char *dev, const char *jobfile,
		      struct counts *c)
{
	const char *argv[] = { "fio", "--output-format=json", jobfile, NULL };
	struct dstat a, b;
	struct run_result r;
	json_object *root, *j;
	const char *doc;

	if (dstat_read(dev, &a) || run_argv(argv, &r))
		return -1;
	/* fio may print a notice before the document. */
	doc = r.out ? strchr(r.out, '{') : NULL;
	root = !r.status && doc ? json_tokener_parse(doc) : NULL;
	if (!root || dstat_read(dev, &b)) {
		TH_LOG("fio: exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -1;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	c->ios[BQ_READ] = json_int(j, "read.total_ios", -1);
	c->ios[BQ_WRITE] = json_int(j, "write.total_ios", -1);
	c->bytes[BQ_READ] = json_int(j, "read.io_bytes", -1);
	c->bytes[BQ_WRITE] = json_int(j, "write.io_bytes", -1);
	c->disk = (struct dstat){ b.rd - a.rd, b.wr - a.wr, b.flush - a.flush };
	json_object_put(root);
	run_result_free(&r);
	return 0;
}

/*
 * Each engine, reading and writing: blkqual's count is the device's, and
 * fio's for the same job file, I/Os and bytes in each direction.
 */
TEST_F_TIMEOUT(dev, engines_count_what_fio_counts, 120)
{
	static const char *const engines[] = { "sync", "pvsync", "pvsync2" };
	static const char *const modes[] = { "read", "randwrite", "randrw" };

	PREP_READY(&self->p);
	for (size_t e = 0; e < ARRAY_SIZE(engines); e++) {
		for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
			char body[256];
			/* A mix once is enough: its split is each tool's own draw. */
			if (!strcmp(modes[m], "randrw") && strcmp(engines[e], "pvsync2"))
				continue;
			struct counts bq, fio;
			const char *job;

			snprintf(body, sizeof(body), "ioengine=%s\ndirect=1\nsize=2m\n"
				 "[%s]\nrw=%s\n", engines[e], modes[m], modes[m]);
			job = write_job(_metadata, &self->s, "engine", body);
			ASSERT_NE(NULL, job);
			ASSERT_EQ(0, bq_counts(_metadata, self->s.dev, job, &bq));
			TH_LOG("%s %s: blkqual %lld reads, %lld writes; the device %lld, %lld",
			       engines[e], modes[m], bq.ios[0], bq.ios[1], bq.disk.rd, bq.disk.wr);
			EXPECT_EQ(512, bq.ios[BQ_READ] + bq.ios[BQ_WRITE]);
			EXPECT_EQ(bq.disk.rd, bq.ios[BQ_READ]);
			EXPECT_EQ(bq.disk.wr, bq.ios[BQ_WRITE]);
			EXPECT_EQ(0, bq.disk.flush);
			if (!self->have_fio)
				continue;
			ASSERT_EQ(0, fio_counts(_metadata, self->s.dev, job, &fio));
			TH_LOG("%s %s: fio %lld reads, %lld writes", engines[e], modes[m],
			       fio.ios[0], fio.ios[1]);
			/* randrw's split is each tool's own draw; the total is the job's. */
			if (strcmp(modes[m], "randrw")) {
				EXPECT_EQ(fio.ios[BQ_READ], bq.ios[BQ_READ]);
				EXPECT_EQ(fio.ios[BQ_WRITE], bq.ios[BQ_WRITE]);
				EXPECT_EQ(fio.bytes[BQ_READ], bq.bytes[BQ_READ]);
				EXPECT_EQ(fio.bytes[BQ_WRITE], bq.bytes[BQ_WRITE]);
			}
			EXPECT_EQ(fio.ios[0] + fio.ios[1], bq.ios[0] + bq.ios[1]);
			EXPECT_EQ(fio.bytes[0] + fio.bytes[1], bq.bytes[0] + bq.bytes[1]);
			EXPECT_EQ(fio.disk.rd + fio.disk.wr, bq.disk.rd + bq.disk.wr);
		}
	}
	if (!self->have_fio)
		SKIP(return, "%s: blkqual checked against the device only", need_program("fio"));
}

/* Each engine moves its data with its own system calls, one per I/O. */
TEST_F_TIMEOUT(dev, each_engine_makes_its_own_calls, 60)
{
	static const struct {
		const char *engine, *call, *not;
	} cases[] = {
		{ "sync", "read", "pread64" }, { "sync", "lseek", "pread64" },
		{ "pvsync", "preadv", "pread64" }, { "pvsync2", "preadv2", "pread64" },
	};
	char out[400];

	PREP_READY(&self->p);
	if (need_program("strace"))
		SKIP(return, "%s", need_program("strace"));
	snprintf(out, sizeof(out), "%s/strace.out", self->s.dir);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char body[128];
		const char *job;
		struct run_result r;
		char *text;

		/* Random reads: sync must seek before every one. */
		snprintf(body, sizeof(body), "ioengine=%s\ndirect=1\nsize=1m\n[c]\nrw=randread\n",
			 cases[i].engine);
		job = write_job(_metadata, &self->s, "calls", body);
		ASSERT_NE(NULL, job);
		{
			const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
					       job, NULL };

			ASSERT_EQ(0, strace_run(argv, out, &r));
		}
		EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err ? r.err : "");
		run_result_free(&r);
		text = slurp(out);
		ASSERT_NE(NULL, text);
		EXPECT_LE(256, strace_calls(text, cases[i].call))
			TH_LOG("%s: %s", cases[i].engine, cases[i].call);
		/* blkqual itself reads a few sysfs files with pread. */
		EXPECT_GT(64, strace_calls(text, cases[i].not))
			TH_LOG("%s: %s", cases[i].engine, cases[i].not);
		free(text);
	}
}

/*
 * Flushes: fsync=N and fdatasync=N flush before the next I/O only (256
 * writes with N=64 make 3), end_fsync and fsync_on_close once at the
 * end, sync=1 and sync=dsync after every write; a read job never.  The
 * device's flush count is fio's for the same job.
 */
TEST_F_TIMEOUT(dev, flushes_are_fios, 120)
{
	static const struct {
		const char *opts;
		long long flushes;
	} cases[] = {
		{ "fsync=64\n", 3 },
		{ "fdatasync=64\n", 3 },
		{ "fsync=64\nfdatasync=96\n", 4 },	/* 64, 96, 128, 192 */
		{ "end_fsync=1\n", 1 },
		{ "fsync_on_close=1\n", 1 },
		{ "fsync=64\nend_fsync=1\n", 4 },
		/* A loop device has a write cache but no FUA: two flushes a write. */
		{ "sync=1\n", 512 },
		{ "sync=dsync\n", 512 },
		{ "write_barrier=8\n", 0 },
	};

	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static const char *const engines[] = { "pvsync2", "sync" };
		char body[256];
		struct counts bq, fio;
		const char *job;

		snprintf(body, sizeof(body),
			 "ioengine=%s\ndirect=1\nsize=1m\n%s[f]\nrw=randwrite\n",
			 engines[i % 2], cases[i].opts);
		job = write_job(_metadata, &self->s, "flush", body);
		ASSERT_NE(NULL, job);
		ASSERT_EQ(0, bq_counts(_metadata, self->s.dev, job, &bq));
		TH_LOG("%s: blkqual: %lld flushes", cases[i].opts, bq.disk.flush);
		EXPECT_EQ(256, bq.ios[BQ_WRITE]);
		EXPECT_EQ(cases[i].flushes, bq.disk.flush) TH_LOG("%s", cases[i].opts);
		if (!self->have_fio)
			continue;
		ASSERT_EQ(0, fio_counts(_metadata, self->s.dev, job, &fio));
		TH_LOG("%s: fio: %lld flushes", cases[i].opts, fio.disk.flush);
		EXPECT_EQ(fio.ios[BQ_WRITE], bq.ios[BQ_WRITE]);
		EXPECT_EQ(fio.disk.flush, bq.disk.flush) TH_LOG("%s", cases[i].opts);
		EXPECT_EQ(fio.disk.wr, bq.disk.wr) TH_LOG("%s", cases[i].opts);
	}
	/* A job that only reads has nothing to flush, in fio neither. */
	{
		struct counts bq;
		const char *job = write_job(_metadata, &self->s, "flushread",
					    "ioengine=psync\ndirect=1\nsize=1m\nend_fsync=1\n"
					    "fsync=8\n[r]\nrw=read\n");

		ASSERT_NE(NULL, job);
		ASSERT_EQ(0, bq_counts(_metadata, self->s.dev, job, &bq));
		EXPECT_EQ(256, bq.ios[BQ_READ]);
		EXPECT_EQ(0, bq.disk.flush);
	}
	if (!self->have_fio)
		SKIP(return, "%s: blkqual checked against the device only", need_program("fio"));
}

/*
 * A loop device cannot poll: pvsync2 with hipri=1 is refused before any
 * I/O, with the reason, as io_uring's poll=on is; without hipri it runs
 * on interrupts and says so.  nowait=1 with direct I/O runs.
 */
TEST_F(dev, pvsync2_hipri_on_loop_is_refused)
{
	const char *job;
	struct dstat a, b;
	struct run_result r;
	struct counts bq;
	char want[128];

	PREP_READY(&self->p);
	job = write_job(_metadata, &self->s, "hipri", "ioengine=pvsync2\ndirect=1\nsize=1m\n"
			"hipri\nhipri_percentage=50\n[h]\nrw=randread\n");
	ASSERT_NE(NULL, job);
	ASSERT_EQ(0, dstat_read(self->s.dev, &a));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", job, NULL));
	ASSERT_EQ(0, dstat_read(self->s.dev, &b));
	EXPECT_EQ(2, r.status);
	snprintf(want, sizeof(want), "poll=on: %s cannot poll (queue/io_poll=0)",
		 strrchr(self->s.dev, '/') + 1);
	EXPECT_NE(NULL, strstr(r.err, want)) TH_LOG("%s", r.err);
	/* Only what the guard reads before its verdict, none of the job's 256. */
	EXPECT_GT(256, b.rd - a.rd);
	run_result_free(&r);

	job = write_job(_metadata, &self->s, "nohipri", "ioengine=pvsync2\ndirect=1\nsize=1m\n"
			"nowait=1\n[h]\nrw=randread\n");
	ASSERT_NE(NULL, job);
	{
		const char *args[] = { job, NULL };
		json_object *root = blkqual_run_json(&r, args), *j;

		ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
		j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
		EXPECT_STREQ("interrupts (hipri=0)", json_str(j, "completions.note"));
		EXPECT_EQ(0, json_int(j, "completions.polled", -1));
		EXPECT_EQ(256, json_int(j, "total.read.ios", -1));
		json_object_put(root);
		run_result_free(&r);
	}
	if (!self->have_fio)
		SKIP(return, "%s", need_program("fio"));
	ASSERT_EQ(0, bq_counts(_metadata, self->s.dev, job, &bq));
	{
		struct counts fio;

		ASSERT_EQ(0, fio_counts(_metadata, self->s.dev, job, &fio));
		EXPECT_EQ(fio.ios[BQ_READ], bq.ios[BQ_READ]);
		EXPECT_EQ(fio.disk.rd, bq.disk.rd);
	}
}

/* ---- uncached, on a filesystem ----------------------------------------- */

FIXTURE(fs)
{
	struct prep p;
	struct scratchfs fs;
};

FIXTURE_SETUP(fs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
}

FIXTURE_TEARDOWN(fs)
{
	scratchfs_destroy(&self->fs);
}

/* Pages of @path in the page cache. */
static long resident_pages(const char *path)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	unsigned char *vec;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !st.st_size)
		return -1;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	vec = calloc((size_t)(st.st_size + page - 1) / (size_t)page, 1);
	if (vec && !mincore(map, (size_t)st.st_size, vec))
		for (long i = 0; i < (st.st_size + page - 1) / page; i++)
			n += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)st.st_size);
	return n;
}

/*
 * uncached=1 reads through the page cache and leaves nothing in it;
 * without it the file stays cached.  A kernel without RWF_DONTCACHE for
 * the file refuses the run before any I/O, naming the flag.
 */
TEST_F_TIMEOUT(fs, uncached_leaves_nothing_cached, 60)
{
	static const char *const vals[] = { "0", "1" };
	char file[400];
	long cached[2];

	PREP_READY(&self->p);
	snprintf(file, sizeof(file), "%s/u.dat", self->fs.mnt);
	ASSERT_EQ(0, random_file(file, 8 << 20));
	for (int i = 0; i < 2; i++) {
		char filename[420], uncached[32];
		struct run_result r;
		json_object *root;
		const char *args[] = { filename, "--name=u", "--ioengine=pvsync2", "--rw=read",
				       "--bs=64k", uncached, NULL };

		snprintf(filename, sizeof(filename), "--filename=%s", file);
		snprintf(uncached, sizeof(uncached), "--uncached=%s", vals[i]);
		root = blkqual_run_json(&r, args);
		if (!root && i == 1 && r.status == 2 && strstr(r.err, "RWF_DONTCACHE")) {
			run_result_free(&r);
			SKIP(return, "the kernel does not take RWF_DONTCACHE on XFS (refused: ok)");
		}
		ASSERT_NE(NULL, root) TH_LOG("exit %d: %.300s", r.status, r.err);
		EXPECT_EQ(128, json_int(json_object_array_get_idx(json_object_object_get(root,
			"jobs"), 0), "total.read.ios", -1));
		json_object_put(root);
		run_result_free(&r);
		cached[i] = resident_pages(file);
	}
	TH_LOG("pages cached after reading 2048: %ld without uncached, %ld with", cached[0],
	       cached[1]);
	EXPECT_LE(2000, cached[0]);
	EXPECT_GE(64, cached[1]);
}

TEST_HARNESS_MAIN
