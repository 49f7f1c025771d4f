// SPDX-License-Identifier: GPL-2.0-only
/*
 * iolog_test.c - fio's I/O logs and trace replay (issue 19): write_iolog
 * writes what fio 3.33 writes for the same sequential job; read_iolog of
 * a fio-written log (v3 as fio writes it, and v2) does the I/Os fio's own
 * replay does and the device counts; a blktrace file made here replays
 * at its offsets and sizes, through replay_redirect, replay_scale,
 * replay_align and replay_skip; merge_blktrace_file merges traces in time
 * order with their scalars and repeats; a 1 s log takes about 1 s, far
 * less with replay_no_stall; malformed logs are refused with file:line and
 * exit 2; a replay job survives bq_job_to_args().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "job/jobopt.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define DEV_SIZE (64LL << 20)

/* ---- parsing ---------------------------------------------------------- */

static int set1(const char *key, const char *value, struct bq_job *out)
{
	struct bq_parse_error err;
	struct bq_job job;
	int ret;

	bq_job_defaults(&job);
	ret = bq_job_set(&job, key, value, &err);
	if (out) {
		*out = job;
		memset(out->filenames, 0, sizeof(out->filenames));
		out->nr_files = 0;
	}
	bq_job_release(&job);
	return ret;
}

TEST(replay_values)
{
	struct bq_job j;

	ASSERT_EQ(0, set1("read_iolog", "/tmp/x.log", &j));
	EXPECT_STREQ("/tmp/x.log", j.read_iolog);
	ASSERT_EQ(0, set1("write_iolog", "/tmp/y.log", &j));
	EXPECT_STREQ("/tmp/y.log", j.write_iolog);
	ASSERT_EQ(0, set1("replay_redirect", "/dev/loop9", &j));
	EXPECT_STREQ("/dev/loop9", j.replay_redirect);
	ASSERT_EQ(0, set1("replay_no_stall", NULL, &j));
	EXPECT_TRUE(j.replay_no_stall);
	ASSERT_EQ(0, set1("read_iolog_chunked", "1", &j));
	EXPECT_TRUE(j.read_iolog_chunked);
	ASSERT_EQ(0, set1("replay_align", "4096", &j));
	EXPECT_EQ(4096, j.replay_align);
	ASSERT_EQ(0, set1("replay_scale", "8", &j));
	EXPECT_EQ(8, j.replay_scale);
	ASSERT_EQ(0, set1("replay_time_scale", "50", &j));
	EXPECT_EQ(50, j.replay_time_scale);
	ASSERT_EQ(0, set1("replay_skip", "write,trim", &j));
	EXPECT_EQ((1 << BQ_WRITE) | 8, j.replay_skip);
	bq_job_defaults(&j);
	EXPECT_EQ(100, j.replay_time_scale);

	EXPECT_EQ(-EOPNOTSUPP, set1("replay_align", "3000", NULL));
	EXPECT_EQ(-EINVAL, set1("replay_align", "4k", NULL));
	EXPECT_EQ(-EINVAL, set1("replay_skip", "read,flush", NULL));
	EXPECT_EQ(-EINVAL, set1("replay_time_scale", "0", NULL));
	EXPECT_EQ(-EINVAL, set1("replay_no_stall", "2", NULL));
	EXPECT_EQ(-EINVAL, set1("read_iolog", "", NULL));
	ASSERT_EQ(0, set1("merge_blktrace_file", "/tmp/m", &j));
	EXPECT_STREQ("/tmp/m", j.merge_blktrace_file);
	ASSERT_EQ(0, set1("merge_blktrace_scalars", "100:50.5", &j));
	EXPECT_EQ(2, j.nr_merge_scalars);
	EXPECT_EQ(50, j.merge_scalars[1]);
	ASSERT_EQ(0, set1("merge_blktrace_iters", "3", &j));
	EXPECT_EQ(1, j.nr_merge_iters);
	EXPECT_EQ(3, j.merge_iters[0]);
	EXPECT_EQ(-EINVAL, set1("merge_blktrace_iters", "0", NULL));
	EXPECT_EQ(-EINVAL, set1("merge_blktrace_scalars", "100:x", NULL));
	EXPECT_EQ(-EINVAL, set1("merge_blktrace_scalars",
				"1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1", NULL));
}

/* ---- logs written here ------------------------------------------------ */

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* include/uapi/linux/blktrace_api.h's struct blk_io_trace */
struct bt {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

#define BT_QUEUE(w)	(1u | (((w) ? 2u : 1u) | 0x10u) << 16)
#define BT_COMPLETE	(8u | (1u << 16))
#define BT_FLUSH_Q	(1u | ((1u << 2) | 0x10u) << 16)
#define BT_DISCARD_Q	(1u | ((1u << 7) | 2u) << 16)
#define BT_NOTIFY	(1u << 26)

static void bt_put(FILE *f, uint64_t t_ns, uint32_t dev, uint32_t action, uint64_t sector,
		   uint32_t bytes, uint16_t pdu)
{
	static uint32_t seq;
	struct bt r = {
		.magic = 0x65617407, .sequence = ++seq, .time = t_ns, .sector = sector,
		.bytes = bytes, .action = action, .pid = 1, .device = dev, .pdu_len = pdu,
	};
	char junk[64] = "pdu";

	fwrite(&r, sizeof(r), 1, f);
	if (pdu)
		fwrite(junk, pdu, 1, f);
}

/* The trace the blktrace tests replay: its queued reads and writes. */
static const struct {
	int w;
	uint64_t sector;
	uint32_t bytes;
} trace[] = {
	{ 0, 0, 4096 }, { 1, 64, 8192 }, { 0, 2048, 65536 }, { 1, 4104, 4096 },
	{ 0, 40000, 16384 }, { 1, 8, 512 },
};

static void make_trace(const char *path, uint32_t dev, bool discard)
{
	FILE *f = fopen(path, "w");
	uint64_t t = 1000;

	if (!f)
		return;
	bt_put(f, 0, dev, BT_NOTIFY | 1, 0, 0, 16);
	for (size_t i = 0; i < ARRAY_SIZE(trace); i++, t += 1000) {
		bt_put(f, t, dev, BT_QUEUE(trace[i].w), trace[i].sector, trace[i].bytes, 0);
		/* Only the queue events are I/Os, as fio reads a trace. */
		bt_put(f, t + 500, dev, BT_COMPLETE, trace[i].sector, trace[i].bytes, 8);
		if (i == 2)
			bt_put(f, t + 600, dev, BT_FLUSH_Q, 0, 0, 0);
	}
	if (discard)
		bt_put(f, t, dev, BT_DISCARD_Q, 100, 4096, 0);
	fclose(f);
}

FIXTURE(tmp)
{
	char dir[64];
};

FIXTURE_SETUP(tmp)
{
	strcpy(self->dir, "/tmp/bq-iolog.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(tmp)
{
	run_quiet("rm -rf '%s'", self->dir);
}

/* blkqual run on @log; exit status, and whether stderr has @want. */
static int run_log(const char *dir, const char *log, const char *want, char *why, size_t len)
{
	char arg[400], target[400];
	struct run_result r;
	int st;

	snprintf(arg, sizeof(arg), "--read_iolog=%s", log);
	snprintf(target, sizeof(target), "--replay_redirect=%s/target", dir);
	if (run_blkqual(&r, "run", "--name=x", "--ioengine=psync", target, arg, NULL))
		return -1;
	st = r.status;
	snprintf(why, len, "%s", r.err ? r.err : "");
	if (want && (!r.err || !strstr(r.err, want)))
		st = -2;
	run_result_free(&r);
	return st;
}

TEST_F(tmp, malformed_logs_are_refused_with_file_and_line)
{
	static const struct {
		const char *text;
		const char *where;
	} bad[] = {
		{ "fio version 4 iolog\n", ":1:" },
		{ "fio version 2 iolog\nf add\nf open\nf frobnicate 0 4096\n", ":4: bad action" },
		{ "fio version 2 iolog\nf add\nf read 0x10 4096\n", ":3: bad offset" },
		{ "fio version 2 iolog\nf add\nf read 0 4096 9\n", ":3:" },
		{ "fio version 3 iolog\n1 f add\nx f read 0 4096\n", ":3: bad time" },
		{ "fio version 3 iolog\n1 f add\n2 f read 0 0\n", ":3: length" },
		{ "fio version 2 iolog\nf add\nf trim 0 4096\n", ":3: trim" },
		{ "fio version 2 iolog\nf add\nf open\nf close\n", "no reads or writes" },
	};
	char path[128], target[128], why[600], want[160];

	snprintf(target, sizeof(target), "%s/target", self->dir);
	put(target, "");
	ASSERT_EQ(0, truncate(target, 1 << 20));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(path, sizeof(path), "%s/bad%zu.log", self->dir, i);
		put(path, bad[i].text);
		snprintf(want, sizeof(want), "%s%s", bad[i].where[0] == ':' ? path : "",
			 bad[i].where);
		EXPECT_EQ(2, run_log(self->dir, path, want, why, sizeof(why)))
			TH_LOG("%s: %s", bad[i].text, why);
	}
	/* A truncated blktrace record, the second. */
	snprintf(path, sizeof(path), "%s/bad.bt", self->dir);
	make_trace(path, 7 << 20, false);
	ASSERT_EQ(0, truncate(path, 48 + 16 + 20));
	snprintf(want, sizeof(want), "%s:2: truncated", path);
	EXPECT_EQ(2, run_log(self->dir, path, want, why, sizeof(why))) TH_LOG("%s", why);
	/* A discard, which blkqual cannot replay, unless replay_skip=trim. */
	make_trace(path, 7 << 20, true);
	EXPECT_EQ(2, run_log(self->dir, path, "replay_skip=trim", why, sizeof(why)))
		TH_LOG("%s", why);
	/* A good log over a regular file replays. */
	snprintf(path, sizeof(path), "%s/good.log", self->dir);
	put(path, "fio version 2 iolog\nf add\nf open\nf read 0 4096\nf write 4096 4096\n"
	    "f close\n");
	EXPECT_EQ(0, run_log(self->dir, path, NULL, why, sizeof(why))) TH_LOG("%s", why);
}

/*
 * A replay job as bq_job_to_args() writes it (blkqual run --replay) is the
 * same job again: the log's file, rw and bs derived from it, the options.
 */
TEST_F(tmp, replay_job_round_trip)
{
	char log[128], target[128], rl[160], rr[160];
	const char *argv[] = { "--name=r", rl, rr, "--replay_no_stall=1", "--replay_align=4096",
			       "--replay_scale=2", "--replay_time_scale=50",
			       "--replay_skip=write,sync", "--read_iolog_chunked=1" };
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err;
	struct bq_strv args = { 0 };
	const struct bq_job *x, *y;

	snprintf(log, sizeof(log), "%s/r.log", self->dir);
	snprintf(target, sizeof(target), "%s/target", self->dir);
	put(log, "fio version 3 iolog\n1 /elsewhere add\n2 /elsewhere read 0 8192\n"
	    "3 /elsewhere read 8192 16384\n4 /elsewhere write 0 4096\n");
	snprintf(rl, sizeof(rl), "--read_iolog=%s", log);
	snprintf(rr, sizeof(rr), "--replay_redirect=%s", target);
	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(argv), (char **)argv, &a, &err))
		TH_LOG("%s", err.msg);
	x = &a.jobs[0];
	ASSERT_EQ(1, x->nr_files);
	EXPECT_STREQ(target, x->filenames[0]);
	EXPECT_EQ(BQ_RW_RW, x->rw);
	EXPECT_EQ(16384, x->bs[BQ_READ]);
	EXPECT_EQ(4096, x->bs[BQ_WRITE]);
	ASSERT_EQ(0, bq_job_to_args(x, &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &b, &err)) TH_LOG("%s", err.msg);
	y = &b.jobs[0];
	EXPECT_EQ(1, y->nr_files);
	EXPECT_STREQ(x->read_iolog, y->read_iolog);
	EXPECT_STREQ(x->replay_redirect, y->replay_redirect);
	EXPECT_EQ(x->rw, y->rw);
	EXPECT_EQ(x->bs[BQ_READ], y->bs[BQ_READ]);
	EXPECT_EQ(x->replay_no_stall, y->replay_no_stall);
	EXPECT_EQ(x->replay_align, y->replay_align);
	EXPECT_EQ(x->replay_scale, y->replay_scale);
	EXPECT_EQ(x->replay_time_scale, y->replay_time_scale);
	EXPECT_EQ(x->replay_skip, y->replay_skip);
	bq_strv_free(&args);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

/* ---- on a device ------------------------------------------------------ */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	bool have_fio;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	self->have_fio = !need_program("fio");
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

struct counts {
	long long ios[2], bytes[2], disk[2];
};

static int bq_counts(struct __test_metadata *_metadata, const char *const *args,
		     struct counts *c)
{
	struct run_result r;
	json_object *root, *j, *t;

	root = blkqual_run_json(&r, args);
	if (!root) {
		TH_LOG("blkqual: exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -1;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	t = json_object_array_get_idx(json_object_object_get(j, "targets"), 0);
	c->ios[BQ_READ] = json_int(j, "total.read.ios", -1);
	c->ios[BQ_WRITE] = json_int(j, "total.write.ios", -1);
	c->bytes[BQ_READ] = json_int(j, "total.read.bytes", -1);
	c->bytes[BQ_WRITE] = json_int(j, "total.write.bytes", -1);
	c->disk[BQ_READ] = json_int(t, "disk_stats.read_ios", -1);
	c->disk[BQ_WRITE] = json_int(t, "disk_stats.write_ios", -1);
	json_object_put(root);
	run_result_free(&r);
	return 0;
}

static int fio_counts(struct __test_metadata *_metadata, const char *const *args,
		      struct counts *c)
{
	const char *argv[16] = { "fio", "--output-format=json" };
	struct run_result r;
	json_object *root, *j;
	const char *doc;
	int n = 2;

	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	if (run_argv(argv, &r))
		return -1;
	doc = r.out ? strchr(r.out, '{') : NULL;
	root = !r.status && doc ? json_tokener_parse(doc) : NULL;
	if (!root) {
		TH_LOG("fio: exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -1;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	c->ios[BQ_READ] = json_int(j, "read.total_ios", -1);
	c->ios[BQ_WRITE] = json_int(j, "write.total_ios", -1);
	c->bytes[BQ_READ] = json_int(j, "read.io_bytes", -1);
	c->bytes[BQ_WRITE] = json_int(j, "write.io_bytes", -1);
	json_object_put(root);
	run_result_free(&r);
	return 0;
}

/* A log's lines without their times: "NAME ACTION [OFFSET LENGTH]". */
static int log_lines(const char *path, char lines[][128], int max, bool timed)
{
	char buf[120];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(buf, sizeof(buf), f)) {
		char *p = buf;

		buf[strcspn(buf, "\n")] = 0;
		if (n && timed) {
			p = strchr(buf, ' ');
			p = p ? p + 1 : buf;
		}
		snprintf(lines[n++], 128, "%s", p);
	}
	fclose(f);
	return n;
}

/* The same sequential job for both, each writing its log to @log. */
static void seq_job(char *path, size_t len, const struct scratch *s, const char *log,
		    const char *extra)
{
	FILE *f;

	snprintf(path, len, "%s/seq.fio", s->dir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "[seq]\nfilename=%s\nrw=write\nbs=16k\nsize=256k\nioengine=psync\n"
		"direct=1\nwrite_iolog=%s\n%s", s->dev, log, extra);
	fclose(f);
}

TEST_F_TIMEOUT(dev, write_iolog_is_fios, 60)
{
	char job[400], fiolog[400], bqlog[400], a[64][128], b[64][128];
	const char *args[] = { job, NULL };
	struct run_result r;
	json_object *root;
	int na, nb;

	PREP_READY(&self->p);
	snprintf(bqlog, sizeof(bqlog), "%s/bq.log", self->s.dir);
	snprintf(fiolog, sizeof(fiolog), "%s/fio.log", self->s.dir);
	unlink(bqlog);
	seq_job(job, sizeof(job), &self->s, bqlog, "");
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err ? r.err : "");
	json_object_put(root);
	run_result_free(&r);
	nb = log_lines(bqlog, b, 64, true);
	/* header, add, open, 16 writes, close */
	ASSERT_EQ(20, nb);
	EXPECT_STREQ("fio version 3 iolog", b[0]);
	for (int i = 0; i < 16; i++) {
		char want[128];

		snprintf(want, sizeof(want), "%s write %d 16384", self->s.dev, i * 16384);
		EXPECT_STREQ(want, b[3 + i]);
	}
	if (!self->have_fio)
		SKIP(return, "fio is not installed: blkqual's log checked alone");
	for (int k = 0; k < 2; k++) {
		/* Flushes are logged too: fsync=N's and end_fsync's, at the last offset. */
		const char *extra = k ? "fsync=3\nend_fsync=1\n" : "";
		struct counts c;

		if (k) {
			seq_job(job, sizeof(job), &self->s, bqlog, extra);
			root = blkqual_run_json(&r, args);
			ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err ? r.err : "");
			json_object_put(root);
			run_result_free(&r);
			nb = log_lines(bqlog, b, 64, true);
			/* Appended to, as fio does: the first run's 20 lines, then 26. */
			EXPECT_EQ(20 + 26, nb);
		}
		seq_job(job, sizeof(job), &self->s, fiolog, extra);
		ASSERT_EQ(0, fio_counts(_metadata, args, &c));
		na = log_lines(fiolog, a, 64, true);
		ASSERT_EQ(na, nb);
		for (int i = 0; i < na; i++)
			EXPECT_STREQ(a[i], b[i]);
	}
	/* Every line after the header starts with microseconds, as fio's do. */
	na = log_lines(bqlog, a, 64, false);
	for (int i = 1; i < na; i++) {
		unsigned long long us;
		char rest[2];

		if (strncmp(a[i], "fio version", 11))
			EXPECT_EQ(2, sscanf(a[i], "%llu %1s", &us, rest)) TH_LOG("%s", a[i]);
	}
}

/* A randrw log written by fio, replayed by both, v3 as written and as v2. */
TEST_F_TIMEOUT(dev, replay_of_fio_log_is_fios, 90)
{
	char job[400], v3[400], v2[400], arg[420], lines[600][128];
	const char *wargs[] = { job, arg, NULL };
	const char *rargs[] = { "--name=r", "--ioengine=psync", "--direct=1", arg, NULL };
	struct counts fio, bq, w;
	FILE *f;
	int n;

	PREP_READY(&self->p);
	if (!self->have_fio)
		SKIP(return, "fio is not installed: nothing to compare with");
	snprintf(job, sizeof(job), "%s/rw.fio", self->s.dir);
	f = fopen(job, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[rw]\nfilename=%s\nrw=randrw\nbssplit=4k/50:16k/30:64k/20\nsize=8m\n"
		"io_size=2m\nioengine=psync\ndirect=1\n", self->s.dev);
	fclose(f);
	snprintf(v3, sizeof(v3), "%s/v3.log", self->s.dir);
	snprintf(arg, sizeof(arg), "--write_iolog=%s", v3);
	ASSERT_EQ(0, fio_counts(_metadata, wargs, &w));
	/* The same log as version 2: no times. */
	snprintf(v2, sizeof(v2), "%s/v2.log", self->s.dir);
	n = log_lines(v3, lines, 600, true);
	ASSERT_GT(n, 10);
	f = fopen(v2, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "fio version 2 iolog\n");
	for (int i = 1; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fclose(f);
	for (int v = 0; v < 2; v++) {
		snprintf(arg, sizeof(arg), "--read_iolog=%s", v ? v2 : v3);
		ASSERT_EQ(0, fio_counts(_metadata, rargs, &fio));
		ASSERT_EQ(0, bq_counts(_metadata, rargs, &bq));
		for (int d = 0; d < 2; d++) {
			EXPECT_EQ(w.ios[d], fio.ios[d]);
			EXPECT_EQ(fio.ios[d], bq.ios[d]) TH_LOG("v%d dir %d", v ? 2 : 3, d);
			EXPECT_EQ(fio.bytes[d], bq.bytes[d]) TH_LOG("v%d dir %d", v ? 2 : 3, d);
			EXPECT_EQ(bq.ios[d], bq.disk[d]) TH_LOG("v%d dir %d", v ? 2 : 3, d);
		}
		TH_LOG("v%d: fio %lld/%lld reads/writes, %lld/%lld bytes; blkqual %lld/%lld, "
		       "%lld/%lld; device %lld/%lld", v ? 2 : 3, fio.ios[0], fio.ios[1],
		       fio.bytes[0], fio.bytes[1], bq.ios[0], bq.ios[1], bq.bytes[0], bq.bytes[1],
		       bq.disk[0], bq.disk[1]);
	}
}

/* What a replay issued, recorded with write_iolog: "ACTION OFFSET LENGTH" lines. */
static int replayed(struct __test_metadata *_metadata, const struct scratch *s,
		    const char *trace_path, const char *extra, char lines[][128], int max)
{
	char arg[420], out[420], olog[400];
	const char *args[] = { "--name=bt", "--ioengine=psync", "--direct=1", arg, out,
			       extra, NULL };
	char raw[64][128];
	struct counts c;
	int n, k = 0;

	snprintf(arg, sizeof(arg), "--read_iolog=%s", trace_path);
	snprintf(olog, sizeof(olog), "%s/replayed.log", s->dir);
	snprintf(out, sizeof(out), "--write_iolog=%s", olog);
	/* write_iolog appends, as fio's does: one replay per log here. */
	unlink(olog);
	if (bq_counts(_metadata, args, &c))
		return -1;
	n = log_lines(olog, raw, 64, true);
	for (int i = 1; i < n && k < max; i++) {
		char *sp = strchr(raw[i], ' ');

		if (sp && (!strncmp(sp, " read ", 6) || !strncmp(sp, " write ", 7)))
			snprintf(lines[k++], 128, "%s", sp + 1);
	}
	return k;
}

TEST_F_TIMEOUT(dev, blktrace_replays_its_offsets_and_sizes, 60)
{
	char path[400], got[64][128], want[128], bad[400];
	struct stat st;
	uint32_t dev;
	int n;

	PREP_READY(&self->p);
	ASSERT_EQ(0, stat(self->s.dev, &st));
	dev = major(st.st_rdev) << 20 | minor(st.st_rdev);
	snprintf(path, sizeof(path), "%s/trace.bin", self->s.dir);
	make_trace(path, dev, false);

	/* Found by its device number, as fio does. */
	n = replayed(_metadata, &self->s, path, NULL, got, 64);
	ASSERT_EQ((int)ARRAY_SIZE(trace), n);
	for (int i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%s %llu %u", trace[i].w ? "write" : "read",
			 (unsigned long long)trace[i].sector * 512, trace[i].bytes);
		EXPECT_STREQ(want, got[i]);
	}
	if (self->have_fio) {
		char arg[420];
		const char *args[] = { "--name=bt", "--ioengine=psync", "--direct=1", arg, NULL };
		struct counts fio, bq;

		snprintf(arg, sizeof(arg), "--read_iolog=%s", path);
		ASSERT_EQ(0, fio_counts(_metadata, args, &fio));
		ASSERT_EQ(0, bq_counts(_metadata, args, &bq));
		for (int d = 0; d < 2; d++) {
			EXPECT_EQ(fio.ios[d], bq.ios[d]);
			EXPECT_EQ(fio.bytes[d], bq.bytes[d]);
		}
		/* The trace's flush is an fsync(2): the device counts its empty write too. */
		EXPECT_EQ(bq.ios[BQ_READ], bq.disk[BQ_READ]);
		EXPECT_EQ(bq.ios[BQ_WRITE] + 1, bq.disk[BQ_WRITE]);
		TH_LOG("blktrace: fio %lld/%lld I/Os %lld/%lld bytes, blkqual %lld/%lld, "
		       "%lld/%lld, device %lld/%lld", fio.ios[0], fio.ios[1], fio.bytes[0],
		       fio.bytes[1], bq.ios[0], bq.ios[1], bq.bytes[0], bq.bytes[1], bq.disk[0],
		       bq.disk[1]);
	}

	/* A device that is not here, redirected to ours; offsets scaled, then aligned. */
	snprintf(bad, sizeof(bad), "%s/other.bin", self->s.dir);
	make_trace(bad, 4095u << 20 | 77, false);
	{
		char redir[420];

		snprintf(redir, sizeof(redir), "--replay_redirect=%s", self->s.dev);
		n = replayed(_metadata, &self->s, bad, redir, got, 64);
		ASSERT_EQ((int)ARRAY_SIZE(trace), n);
		EXPECT_STREQ("write 32768 8192", got[1]);
	}
	/* Without replay_redirect, a device that is not here is refused. */
	EXPECT_EQ(-1, replayed(_metadata, &self->s, bad, NULL, got, 64));
}

TEST_F_TIMEOUT(dev, scale_align_skip, 60)
{
	char path[400], got[64][128], job[400];
	const char *args[] = { job, NULL };
	struct run_result r;
	json_object *root;
	FILE *f;
	int n;

	PREP_READY(&self->p);
	snprintf(path, sizeof(path), "%s/scale.log", self->s.dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "fio version 2 iolog\n%s add\n%s open\n%s read 1052672 4096\n"
		"%s write 20480 4096\n%s read 12288 8192\n%s close\n", self->s.dev, self->s.dev,
		self->s.dev, self->s.dev, self->s.dev, self->s.dev);
	fclose(f);
	n = replayed(_metadata, &self->s, path, "--replay_scale=4", got, 64);
	ASSERT_EQ(3, n);
	EXPECT_STREQ("read 263168 4096", got[0]);
	EXPECT_STREQ("write 5120 4096", got[1]);
	EXPECT_STREQ("read 3072 8192", got[2]);
	n = replayed(_metadata, &self->s, path, "--replay_align=16384", got, 64);
	ASSERT_EQ(3, n);
	EXPECT_STREQ("read 1048576 4096", got[0]);
	EXPECT_STREQ("write 16384 4096", got[1]);
	EXPECT_STREQ("read 0 8192", got[2]);

	/* A job file: scale and align together, fio's order (scale, then align). */
	snprintf(job, sizeof(job), "%s/sa.fio", self->s.dir);
	f = fopen(job, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[sa]\nread_iolog=%s\nreplay_scale=2\nreplay_align=8192\nioengine=psync\n"
		"direct=1\nreplay_no_stall=1\n", path);
	fclose(f);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err ? r.err : "");
	json_object_put(root);
	run_result_free(&r);

	/* replay_skip is for blktrace files in fio 3.33: reads left out. */
	{
		char tpath[400];
		struct stat st;

		ASSERT_EQ(0, stat(self->s.dev, &st));
		snprintf(tpath, sizeof(tpath), "%s/skip.bin", self->s.dir);
		make_trace(tpath, major(st.st_rdev) << 20 | minor(st.st_rdev), false);
		n = replayed(_metadata, &self->s, tpath, "--replay_skip=read", got, 64);
		ASSERT_EQ(3, n);
		for (int i = 0; i < n; i++) {
			EXPECT_EQ(0, strncmp(got[i], "write ", 6)) TH_LOG("%s", got[i]);
		}
	}
}

/*
 * merge_blktrace_file: two traces merged by time, the second one twice
 * (merge_blktrace_iters=1:2) at half its times (merge_blktrace_scalars=100:50);
 * a repeat starts at the trace's last (scaled) event, as in fio.
 */
TEST_F_TIMEOUT(dev, merged_traces_replay_in_time_order, 60)
{
	char a[400], b[400], m[400], list[900], mf[440];
	const char *extra = "--merge_blktrace_iters=1:2";
	struct stat st;
	uint32_t dev;
	FILE *f;
	int n;

	PREP_READY(&self->p);
	ASSERT_EQ(0, stat(self->s.dev, &st));
	dev = major(st.st_rdev) << 20 | minor(st.st_rdev);
	snprintf(a, sizeof(a), "%s/a.bin", self->s.dir);
	snprintf(b, sizeof(b), "%s/b.bin", self->s.dir);
	snprintf(m, sizeof(m), "%s/merged.bin", self->s.dir);
	f = fopen(a, "w");
	ASSERT_NE(NULL, f);
	for (int i = 0; i < 3; i++)
		bt_put(f, 1000 + 2000 * i, dev, BT_QUEUE(0), 8 * i, 4096, 4);
	fclose(f);
	f = fopen(b, "w");
	ASSERT_NE(NULL, f);
	for (int i = 0; i < 2; i++) {
		bt_put(f, 2000 + 2000 * i, dev, BT_QUEUE(1), 100 + 8 * i, 4096, 0);
		bt_put(f, 2100 + 2000 * i, dev, BT_COMPLETE, 100 + 8 * i, 4096, 0);
	}
	fclose(f);
	snprintf(list, sizeof(list), "%s:%s", a, b);
	snprintf(mf, sizeof(mf), "--merge_blktrace_file=%s", m);
	{
		char arg[1000], out[420], olog[400], raw[64][128];
		const char *args[] = { "--name=m", "--ioengine=psync", "--direct=1", arg, out, mf,
				       extra, "--merge_blktrace_scalars=100:50", NULL };
		struct counts c;
		static const char *const want[] = {
			"read 0 4096", "write 51200 4096", "write 55296 4096", "write 51200 4096",
			"read 4096 4096", "write 55296 4096", "read 8192 4096",
		};

		snprintf(arg, sizeof(arg), "--read_iolog=%s", list);
		snprintf(olog, sizeof(olog), "%s/merged.log", self->s.dir);
		snprintf(out, sizeof(out), "--write_iolog=%s", olog);
		ASSERT_EQ(0, bq_counts(_metadata, args, &c));
		EXPECT_EQ(3, c.ios[BQ_READ]);
		EXPECT_EQ(4, c.ios[BQ_WRITE]);
		n = log_lines(olog, raw, 64, true);
		ASSERT_EQ(3 + 7 + 1, n);
		for (int i = 0; i < 7; i++) {
			char *sp = strchr(raw[3 + i], ' ');

			ASSERT_NE(NULL, sp);
			EXPECT_STREQ(want[i], sp + 1);
		}
	}
	/* The merged file holds the queue events alone, without payloads. */
	ASSERT_EQ(0, stat(m, &st));
	EXPECT_EQ(7 * 48, st.st_size);
	/* Two traces, one value: refused. */
	{
		char arg[1000];
		struct run_result r;

		snprintf(arg, sizeof(arg), "--read_iolog=%s", list);
		ASSERT_EQ(0, run_blkqual(&r, "run", "--name=m", arg, mf, "--merge_blktrace_iters=2",
					 NULL));
		EXPECT_EQ(2, r.status);
		EXPECT_NE(NULL, r.err && strstr(r.err, "1 values for 2 traces") ? r.err : NULL)
			TH_LOG("%s", r.err ? r.err : "");
		run_result_free(&r);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST_F_TIMEOUT(dev, replay_keeps_the_logs_time, 60)
{
	char path[400], arg[420];
	const char *stall[] = { "--name=t", "--ioengine=psync", "--direct=1", arg, NULL };
	const char *fast[] = { "--name=t", "--ioengine=psync", "--direct=1", arg,
			       "--replay_no_stall=1", NULL };
	const char *half[] = { "--name=t", "--ioengine=psync", "--direct=1", arg,
			       "--replay_time_scale=200", NULL };
	struct counts c;
	double t0, t1, t2, t3;
	FILE *f;

	PREP_READY(&self->p);
	snprintf(path, sizeof(path), "%s/timed.log", self->s.dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	/* 11 reads 100 ms apart: 1 s from the first to the last. */
	fprintf(f, "fio version 3 iolog\n0 %s add\n1 %s open\n", self->s.dev, self->s.dev);
	for (int i = 0; i < 11; i++)
		fprintf(f, "%d %s read %d 4096\n", 100 + i * 100000, self->s.dev, i * 4096);
	fprintf(f, "1000200 %s close\n", self->s.dev);
	fclose(f);
	snprintf(arg, sizeof(arg), "--read_iolog=%s", path);
	t0 = now_s();
	ASSERT_EQ(0, bq_counts(_metadata, stall, &c));
	t1 = now_s();
	EXPECT_EQ(11, c.ios[BQ_READ]);
	ASSERT_EQ(0, bq_counts(_metadata, fast, &c));
	t2 = now_s();
	EXPECT_EQ(11, c.ios[BQ_READ]);
	ASSERT_EQ(0, bq_counts(_metadata, half, &c));
	t3 = now_s();
	TH_LOG("1 s log: %.3f s; replay_no_stall: %.3f s; replay_time_scale=200: %.3f s",
	       t1 - t0, t2 - t1, t3 - t2);
	EXPECT_GE(t1 - t0, 0.95);
	EXPECT_LE(t1 - t0, 1.8);
	/* Most of what is left is blkqual's own start-up. */
	EXPECT_LE(t2 - t1, (t1 - t0) - 0.8);
	EXPECT_GE(t3 - t2, 0.45);
	EXPECT_LE(t3 - t2, (t1 - t0) - 0.3);
}

TEST_F(dev, write_iolog_never_over_a_target)
{
	char arg[420], tgt[420];
	const char *args[] = { "--name=w", "--ioengine=psync", tgt, "--rw=write", "--size=64k",
			       arg, NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	snprintf(tgt, sizeof(tgt), "--filename=%s", self->s.dev);
	/* The device itself as the log: refused before a single write. */
	snprintf(arg, sizeof(arg), "--write_iolog=%s", self->s.dev);
	root = blkqual_run_json(&r, args);
	EXPECT_EQ(NULL, root);
	EXPECT_NE(0, r.status);
	if (root)
		json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
