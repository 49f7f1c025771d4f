// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio_test.c - blkqual fileio, sysbench's fileio test: its options
 * parsed (and refused) as sysbench does, a set that cannot fit refused
 * before anything is written, prepare / run / cleanup on a scratch XFS,
 * the fsync schedule counted exactly, JSON, direct I/O.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_fileio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"

/* ---- options, no target needed ------------------------------------------ */

TEST(sysbench_options_parse)
{
	struct bq_parse_error err = { 0 };
	struct bq_fileio_opts o;

	bq_fileio_defaults(&o);
	EXPECT_EQ(128, o.file_num);
	EXPECT_EQ(2ull << 30, o.total_size);
	EXPECT_EQ(16384, o.block_size);
	EXPECT_EQ(100, o.fsync_freq);
	EXPECT_TRUE(o.fsync_end);
	EXPECT_FALSE(o.fsync_all);
	EXPECT_EQ(10000000000ull, o.time_ns);
	EXPECT_EQ(95, o.percentile);
	EXPECT_EQ(BQ_FILEIO_NONE, o.mode);

	ASSERT_EQ(0, bq_fileio_set(&o, "file-num", "8", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-total-size", "32M", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-block-size", "4K", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-test-mode", "rndrw", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-extra-flags", "direct,dsync", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-fsync-all", NULL, &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-fsync-end", "off", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-rw-ratio", "2.5", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-fsync-mode", "fdatasync", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "num-threads", "4", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "max-time", "3", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "events", "1000", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "file-io-mode", "sync", &err));
	ASSERT_EQ(0, bq_fileio_set(&o, "test", "fileio", &err));
	EXPECT_EQ(8, o.file_num);
	EXPECT_EQ(32ull << 20, o.total_size);
	EXPECT_EQ(4ull << 20, bq_fileio_file_size(&o));
	EXPECT_EQ(4096, o.block_size);
	EXPECT_EQ(BQ_FILEIO_RNDRW, o.mode);
	EXPECT_EQ(BQ_FILEIO_DIRECT | BQ_FILEIO_DSYNC, o.extra_flags);
	EXPECT_TRUE(o.fsync_all);
	EXPECT_FALSE(o.fsync_end);
	EXPECT_TRUE(o.fdatasync);
	EXPECT_TRUE(fabs(o.rw_ratio - 2.5) < 1e-9);
	EXPECT_EQ(4, o.threads);
	EXPECT_EQ(3000000000ull, o.time_ns);
	EXPECT_EQ(1000, o.events);
	EXPECT_EQ(0, bq_fileio_check(&o, true, &err)) TH_LOG("%s: %s", err.where, err.msg);
	/* An empty list is sysbench's default: no flags. */
	ASSERT_EQ(0, bq_fileio_set(&o, "file-extra-flags", "", &err));
	EXPECT_EQ(0, o.extra_flags);
}

TEST(bad_values_name_the_option)
{
	static const struct {
		const char *key, *value;
		int ret;
	} bad[] = {
		{ "file-num", "abc", -EINVAL },
		{ "file-num", "0", -EINVAL },
		{ "file-total-size", "2X", -EINVAL },
		{ "file-block-size", "0", -EINVAL },
		{ "file-test-mode", "seqread", -EINVAL },
		{ "file-extra-flags", "direct,nocache", -EINVAL },
		{ "file-fsync-end", "maybe", -EINVAL },
		{ "file-rw-ratio", "-1", -EINVAL },
		{ "threads", "0", -EINVAL },
		{ "time", "soon", -EINVAL },
		{ "percentile", "101", -EINVAL },
		{ "file-num", NULL, -EINVAL },
		{ "file-io-mode", "async", -EOPNOTSUPP },
		{ "file-io-mode", "mmap", -EOPNOTSUPP },
		{ "validate", "on", -EOPNOTSUPP },
		{ "file-frob", "1", -ENOENT },
	};
	struct bq_parse_error err;
	struct bq_fileio_opts o;
	char where[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bq_fileio_defaults(&o);
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(bad[i].ret, bq_fileio_set(&o, bad[i].key, bad[i].value, &err))
			TH_LOG("--%s=%s", bad[i].key, bad[i].value);
		snprintf(where, sizeof(where), "--%s", bad[i].key);
		if (bad[i].ret != -ENOENT) {
			EXPECT_STREQ(where, err.where);
			EXPECT_NE(0, err.msg[0]);
		}
	}

	/* What only the whole set of options can tell. */
	bq_fileio_defaults(&o);
	EXPECT_EQ(-EINVAL, bq_fileio_check(&o, true, &err));
	EXPECT_STREQ("--file-test-mode", err.where);
	EXPECT_EQ(0, bq_fileio_check(&o, false, &err));
	o.mode = BQ_FILEIO_SEQRD;
	o.extra_flags = BQ_FILEIO_DIRECT;
	o.block_size = 1000;
	EXPECT_EQ(-EINVAL, bq_fileio_check(&o, true, &err));
	EXPECT_STREQ("--file-block-size", err.where);
	o.block_size = 4096;
	o.time_ns = 0;
	EXPECT_EQ(-EINVAL, bq_fileio_check(&o, true, &err));
	EXPECT_STREQ("--time", err.where);
	o.events = 10;
	EXPECT_EQ(0, bq_fileio_check(&o, true, &err));
	o.total_size = 100;
	EXPECT_EQ(-EINVAL, bq_fileio_check(&o, true, &err));
	EXPECT_STREQ("--file-total-size", err.where);
}

static void expect_refused(struct __test_metadata *_metadata, struct run_result *r,
			   const char *needle)
{
	EXPECT_EQ(2, r->status) TH_LOG("%s", r->err);
	EXPECT_EQ(1, count_lines(r->err)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, needle)) TH_LOG("%s", r->err);
	run_result_free(r);
}

TEST(command_line_refusals)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-fsync-frq=3", "run", NULL));
	expect_refused(_metadata, &r, "did you mean '--file-fsync-freq'");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-test-mode=rndrd", NULL));
	expect_refused(_metadata, &r, "missing command");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-test-mode=rndrd", "runn", NULL));
	expect_refused(_metadata, &r, "did you mean 'run'");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=x", "prepare", NULL));
	expect_refused(_metadata, &r, "--file-num");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-io-mode=mmap", "--file-test-mode=seqrd",
				 "run", NULL));
	expect_refused(_metadata, &r, "not implemented");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-extra-flags=direct",
				 "--file-block-size=1000", "prepare", NULL));
	expect_refused(_metadata, &r, "--file-block-size");
	/* sysbench's old spelling and word order are fine. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--test=fileio", "--num-threads=2", "fileio",
				 "help", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "--file-fsync-freq"));
	run_result_free(&r);
}

/* ---- on a scratch XFS ---------------------------------------------------- */

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char dir[340];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->dir, sizeof(self->dir), "--directory=%s", self->fs.mnt);
}

FIXTURE_TEARDOWN(xfs)
{
	/* A test may have worked inside the mount. */
	if (chdir("/"))
		perror("chdir /");
	scratchfs_destroy(&self->fs);
}

static json_object *parse_json(struct __test_metadata *_metadata, struct run_result *r)
{
	json_object *doc;

	EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
	doc = json_tokener_parse(r->out);
	EXPECT_NE(NULL, doc) TH_LOG("not JSON: %.300s", r->out);
	run_result_free(r);
	return doc;
}

static int count_test_files(const char *dir)
{
	char path[400];
	int n = 0;

	for (int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/test_file.%d", dir, i);
		n += !access(path, F_OK);
	}
	return n;
}

TEST_F(xfs, set_that_cannot_fit_is_refused_before_writing)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-total-size=2G", self->dir, "prepare",
				 NULL));
	EXPECT_EQ(2, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "2048.0 MiB")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "free")) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_EQ(0, count_test_files(self->fs.mnt));
}

TEST_F(xfs, prepare_run_cleanup_in_the_current_directory)
{
	char keep[400];
	struct stat st;
	struct run_result r;
	json_object *doc;
	double reads, writes;
	int fd;

	PREP_READY(&self->p);
	/* Like sysbench, the set lives in the current directory. */
	ASSERT_EQ(0, chdir(self->fs.mnt));
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=8", "--file-total-size=32M",
				 "prepare", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Creating file test_file.7")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "33554432 bytes written in")) TH_LOG("%s", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, stat("test_file.7", &st));
	EXPECT_EQ(4 << 20, st.st_size);
	EXPECT_EQ(8, count_test_files("."));

	/* The report in sysbench's layout, section by section. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=8", "--file-total-size=32M",
				 "--file-test-mode=seqrd", "--time=1", "run", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "File operations:\n    reads/s:  ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "Throughput:\n    read, MiB/s:  ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "General statistics:\n    total time:  "));
	EXPECT_NE(NULL, strstr(r.out, "Latency (ms):\n         min:  "));
	EXPECT_NE(NULL, strstr(r.out, "         95th percentile:  "));
	EXPECT_NE(NULL, strstr(r.out, "         percentiles: p1="));
	EXPECT_NE(NULL, strstr(r.out, "Threads fairness:\n    events (avg/stddev):  "));
	run_result_free(&r);

	/* rndrw: 1.5 reads per write, from the thread's own counts. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=8", "--file-total-size=32M",
				 "--file-test-mode=rndrw", "--time=1", "--threads=2", "-o", "json",
				 "run", NULL));
	doc = parse_json(_metadata, &r);
	ASSERT_NE(NULL, doc);
	reads = (double)json_int(doc, "reads.count", 0);
	writes = (double)json_int(doc, "writes.count", 0);
	EXPECT_LT(100, writes);
	EXPECT_TRUE(fabs(reads / writes - 1.5) < 0.01) TH_LOG("%.0f reads, %.0f writes", reads,
								writes);
	EXPECT_EQ(json_int(doc, "reads.count", 0) + json_int(doc, "writes.count", 0) +
		  json_int(doc, "fsyncs.count", 0), json_int(doc, "events.count", -1));
	EXPECT_EQ(json_int(doc, "events.count", 0), json_int(doc, "events.latency.count", -1));
	EXPECT_LT(0, json_int(doc, "events.latency.percentiles.99", 0));
	EXPECT_EQ(2 * 8, json_int(doc, "end_fsyncs.count", 0));
	EXPECT_EQ(0, json_int(doc, "failed_threads", -1));
	json_object_put(doc);

	/* cleanup takes the set and nothing else. */
	fd = open("keep.me", O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	fd = open("test_file.x", O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=8", "cleanup", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Removing test files...")) TH_LOG("%s", r.out);
	run_result_free(&r);
	EXPECT_EQ(0, count_test_files("."));
	snprintf(keep, sizeof(keep), "%s/keep.me", self->fs.mnt);
	EXPECT_EQ(0, access(keep, F_OK));
	EXPECT_EQ(0, access("test_file.x", F_OK));
}

TEST_F(xfs, run_needs_the_prepared_set)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=8M",
				 "--file-test-mode=rndrd", "--time=1", self->dir, "run", NULL));
	expect_refused(_metadata, &r, "prepare");
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=8M",
				 self->dir, "prepare", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* A larger --file-total-size than prepared: the files are short. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-test-mode=rndrd", "--time=1", self->dir, "run", NULL));
	expect_refused(_metadata, &r, "4194304 expected");
}

/*
 * sysbench's schedule is exact once --events fixes the length: with 4
 * files and --file-fsync-freq=10, every 10 writes a round of 4 fsyncs,
 * so 1000 events are 71 rounds of 14 and 6 writes: 716 writes, 284
 * fsyncs (sysbench 1.0.20 prints the same figures), and 4 more at the end.
 */
TEST_F(xfs, fsync_schedule_is_sysbenchs)
{
	static const char *const modes[] = { "--file-test-mode=rndwr", "--file-test-mode=seqwr" };
	struct run_result r;
	json_object *doc;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 self->dir, "prepare", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	for (size_t i = 0; i < 2; i++) {
		ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
					 "--file-block-size=4k", modes[i], "--file-fsync-freq=10",
					 "--time=0", "--events=1000", "-o", "json", self->dir, "run",
					 NULL));
		doc = parse_json(_metadata, &r);
		ASSERT_NE(NULL, doc);
		EXPECT_EQ(716, json_int(doc, "writes.count", 0)) TH_LOG("%s", modes[i]);
		EXPECT_EQ(284, json_int(doc, "fsyncs.count", 0)) TH_LOG("%s", modes[i]);
		EXPECT_EQ(4, json_int(doc, "end_fsyncs.count", 0));
		EXPECT_EQ(1000, json_int(doc, "events.count", 0));
		json_object_put(doc);
	}

	/* seqwr made the files anew, as far as it got: back to a whole set. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 self->dir, "prepare", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Extending existing file test_file.0")) TH_LOG("%s", r.out);
	run_result_free(&r);

	/* --file-fsync-all: one fsync per write, and no other. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-block-size=4k", "--file-test-mode=seqrewr",
				 "--file-fsync-all", "--time=0", "--events=300", "-o", "json",
				 self->dir, "run", NULL));
	doc = parse_json(_metadata, &r);
	ASSERT_NE(NULL, doc);
	EXPECT_LT(0, json_int(doc, "writes.count", 0));
	EXPECT_EQ(json_int(doc, "writes.count", 0), json_int(doc, "fsyncs.count", -1));
	EXPECT_EQ(0, json_int(doc, "end_fsyncs.count", -1));
	json_object_put(doc);

	/* --file-fsync-freq=0 --file-fsync-end=off: none at all. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-test-mode=rndwr", "--file-fsync-freq=0",
				 "--file-fsync-end=off", "--time=0", "--events=200", "-o", "json",
				 self->dir, "run", NULL));
	doc = parse_json(_metadata, &r);
	ASSERT_NE(NULL, doc);
	EXPECT_EQ(200, json_int(doc, "writes.count", 0));
	EXPECT_EQ(0, json_int(doc, "fsyncs.count", -1) + json_int(doc, "end_fsyncs.count", -1));
	json_object_put(doc);
}

TEST_F(xfs, direct_io_and_the_output_file)
{
	char out[400], opt[420];
	struct run_result r;
	json_object *doc;
	char *text;

	PREP_READY(&self->p);
	snprintf(out, sizeof(out), "%s/result.json", self->fs.s.dir);
	snprintf(opt, sizeof(opt), "--output=%s", out);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-block-size=4k", "--file-extra-flags=direct", self->dir,
				 "prepare", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Extra file open flags: directio")) TH_LOG("%s", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-block-size=4k", "--file-extra-flags=direct",
				 "--file-test-mode=rndrw", "--time=1", "--output-format=json", opt,
				 self->dir, "run", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, r.out[0]) TH_LOG("the document went to stdout: %.200s", r.out);
	run_result_free(&r);
	text = slurp(out);
	ASSERT_NE(NULL, text);
	doc = json_tokener_parse(text);
	free(text);
	ASSERT_NE(NULL, doc);
	EXPECT_LT(0, json_int(doc, "reads.count", 0));
	EXPECT_EQ(4096 * json_int(doc, "reads.count", 0), json_int(doc, "reads.bytes", -1));
	EXPECT_STREQ("direct", json_object_get_string(json_object_array_get_idx(
		json_object_object_get(json_object_object_get(doc, "options"),
				       "file_extra_flags"), 0)));
	json_object_put(doc);
	/* O_DIRECT cannot move 1000 bytes: refused before anything runs. */
	ASSERT_EQ(0, run_blkqual(&r, "fileio", "--file-num=4", "--file-total-size=16M",
				 "--file-block-size=1000", "--file-extra-flags=direct",
				 "--file-test-mode=rndrd", "--time=1", self->dir, "run", NULL));
	expect_refused(_metadata, &r, "direct I/O needs a multiple of 512");
}

TEST_HARNESS_MAIN
