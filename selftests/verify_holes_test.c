// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_holes_test.c - verify= with holes (rw=write:N, rw=write:-N), as
 * fio's cross-stripe-verify.fio runs it
 *
 * - parsing: holes of whole verify blocks are accepted with verify, a hole
 *   that splits a verify block is refused, with the reason (the other
 *   patterns with verify: verify_patterns_test.c);
 * - side by side with fio 3.33 on a scratch loop device filled with
 *   foreign (random) data: the same writes and the same reads (fio counts
 *   its read-back as the job's reads; blkqual splits them into the
 *   verify_backlog reads and the verify phase's), no bad block (a hole
 *   read back would be one), forward and backward holes, verify_backlog
 *   and its batches, io_size, loops and threads moved by offset_increment;
 *   the counts are also checked against what the job implies;
 * - a written block overwritten behind blkqual's back is found at its
 *   offset, and a hole overwritten the same way is never read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "job/jobopt.h"

#include "helpers/fio.h"
#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DEV_SIZE (32LL << 20)
#define BS 16384

/* ---- parsing ------------------------------------------------------------ */

TEST(holes_parse)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 };

	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write:112k", "--bs=16k",
			     "--verify=crc32c", "--verify_backlog=1", "--offset=120k", NULL)) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(112 * 1024, set.jobs[0].seq_add);
	bq_jobset_free(&set);
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write:-48k", "--bs=16k",
			     "--verify=md5", NULL)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-48 * 1024, set.jobs[0].seq_add);
	bq_jobset_free(&set);
	/* a hole that splits a verify block would leave blocks half written */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write:8k",
				       "--bs=16k", "--verify=crc32c", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "multiple of the verify block 16384")) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write:8k", "--bs=16k",
			     "--verify_interval=4k", "--verify=crc32c", NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
}

/* ---- fio, side by side ------------------------------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
	char state[320];
	char state_opt[340];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
	snprintf(self->state, sizeof(self->state), "%s/holes.state", self->s.dir);
	snprintf(self->state_opt, sizeof(self->state_opt), "--verify-state=%s", self->state);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->state);
	scratch_destroy(&self->s);
}

#define MAX_OPTS 9

/*
 * Each job: its options beyond filename, psync, direct=1, bs=16k,
 * verify=crc32c, and the reads and writes it implies.  fio ends a pass of
 * a job with holes where its offsets end, reads back, and starts again
 * while reads and writes are short of io_size (size): 8m with holes of
 * 112k is 64 writes a pass, 1 MiB written and 1 MiB read, so 4 passes.
 */
static const struct side {
	const char *opt[MAX_OPTS];
	long long reads, writes;
} sides[] = {
	{ { "--rw=write:112k", "--size=8m" }, 256, 256 },
	{ { "--rw=write:112k", "--size=8m", "--verify_backlog=1" }, 256, 256 },
	{ { "--rw=write:112k", "--size=8m", "--verify_backlog=3" }, 256, 256 },
	/* 6 MiB: 3 passes */
	{ { "--rw=write:112k", "--size=8m", "--io_size=6m", "--verify_backlog=1" }, 192, 192 },
	/* loops are passes too: 5 of 2 MiB go past size */
	{ { "--rw=write:112k", "--size=8m", "--loops=5" }, 320, 320 },
	/* backward: offsets wrap at the region's start, so blocks are written twice */
	{ { "--rw=write:-48k", "--size=8m" }, 256, 512 },
	{ { "--rw=write:-48k", "--size=8m", "--verify_backlog=1" }, 512, 512 },
	/* a batch shorter than the backlog: an overwritten block is read back once */
	{ { "--rw=write:-48k", "--size=8m", "--verify_backlog=4", "--verify_backlog_batch=2" },
	  509, 512 },
	/* cross-stripe-verify.fio, smaller: two threads, 16k of every 128k */
	{ { "--rw=write:112k", "--offset=120k", "--offset_increment=8m", "--numjobs=2",
	    "--size=6m", "--io_size=4m", "--loops=2", "--verify_backlog=1",
	    "--group_reporting" }, 288, 288 },
};

static int fio_counts(const char *const *args, long long *reads, long long *writes,
		      long long *error)
{
	int status;
	json_object *root = fio_run_json_status(args, &status), *j;

	j = root ? json_object_array_get_idx(json_object_object_get(root, "jobs"), 0) : NULL;
	if (j) {
		*reads = json_int(j, "read.total_ios", -1);
		*writes = json_int(j, "write.total_ios", -1);
		*error = json_int(j, "error", -1);
	}
	json_object_put(root);
	return j ? 0 : -1;
}

TEST_F_TIMEOUT(dev, same_counts_as_fio, 300)
{
	bool have_fio = !need_program("fio");

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(sides); k++) {
		const char *argv[24] = { "--name=a", self->filename, "--ioengine=psync",
					 "--direct=1", "--bs=16k", "--verify=crc32c",
					 "--verify_state_save=0" };
		const char *bargs[20] = { "--name=a", self->filename, "--ioengine=psync",
					  "--direct=1", "--bs=16k", "--verify=crc32c" };
		long long fr = -1, fw = -1, ferr = -1, reads, bad;
		struct run_result r;
		json_object *root, *jb;
		char what[256] = "";
		int a = 7, b = 6;

		for (int i = 0; i < MAX_OPTS && sides[k].opt[i]; i++) {
			argv[a++] = sides[k].opt[i];
			bargs[b++] = sides[k].opt[i];
			strncat(what, sides[k].opt[i], sizeof(what) - strlen(what) - 2);
			strcat(what, " ");
		}
		/* Foreign data everywhere: a hole read back would be a bad block. */
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 97));
		root = blkqual_run_json(&r, bargs);
		ASSERT_NE(NULL, root) TH_LOG("blkqual %s: %.300s", what, r.err);
		EXPECT_EQ(0, r.status) TH_LOG("blkqual %s: %.300s", what, r.err);
		jb = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
		reads = json_int(jb, "total.read.ios", -1) +
			json_int(jb, "verify.phase.read.ios", 0);
		bad = json_int(jb, "verify.bad_blocks", -1);
		EXPECT_EQ(0, bad) TH_LOG("%s", what);
		EXPECT_EQ(sides[k].writes, json_int(jb, "total.write.ios", -1)) TH_LOG("%s", what);
		EXPECT_EQ(sides[k].reads, reads) TH_LOG("%s", what);
		/* every read is of whole written blocks, each judged */
		EXPECT_EQ(reads, json_int(jb, "verify.blocks_checked", -1)) TH_LOG("%s", what);
		json_object_put(root);
		run_result_free(&r);
		if (!have_fio)
			continue;
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 97));
		ASSERT_EQ(0, fio_counts(argv, &fr, &fw, &ferr)) TH_LOG("fio %s", what);
		EXPECT_EQ(0, ferr) TH_LOG("fio %s: its verify failed", what);
		EXPECT_EQ(fw, sides[k].writes) TH_LOG("fio %s: writes", what);
		EXPECT_EQ(fr, sides[k].reads) TH_LOG("fio %s: reads", what);
	}
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual's counts were not compared with fio's");
}

/* ---- corruption ------------------------------------------------------------- */

/* blkqual with @args (up to 18); stdout parsed as JSON, whatever the exit status. */
static json_object *run_json(struct run_result *r, const char *const *args)
{
	const char *argv[20] = { blkqual_path() };
	int n = 1;

	for (int i = 0; args[i] && n < 19; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_argv(argv, r))
		return NULL;
	return json_tokener_parse(r->out);
}

static json_object *verify0(json_object *root)
{
	json_object *jobs = json_object_object_get(root, "jobs");

	return json_object_object_get(json_object_array_get_idx(jobs, 0), "verify");
}

TEST_F_TIMEOUT(dev, a_corrupted_written_block_is_found_and_holes_are_never_read, 120)
{
	/* 16k written at 120k of every 128k from offset 0: 64 blocks in 8m */
	const char *w[] = { "run", "--no-status", "-o", "json", self->filename,
			    "--ioengine=psync", "--direct=1", "--bs=16k", "--rw=write:112k",
			    "--size=8m", "--verify=crc32c", self->state_opt, "--name=w", NULL };
	const char *ro[] = { "run", "--no-status", "-o", "json", self->filename,
			     "--ioengine=psync", "--direct=1", "--bs=16k", "--rw=write:112k",
			     "--size=8m", "--verify=crc32c", "--verify_only", self->state_opt,
			     "--name=ro", NULL };
	const off_t written = 37 * 131072, hole = 12 * 131072 + BS;
	struct run_result r;
	json_object *root, *v;

	PREP_READY(&self->p);
	ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, 5));
	root = run_json(&r, w);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	ASSERT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	v = verify0(root);
	EXPECT_EQ(0, json_int(v, "bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);

	/* A hole overwritten: nothing to find.  A written block: found there. */
	ASSERT_EQ(0, scratch_plant(&self->s, hole, BS, 11));
	root = run_json(&r, ro);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	v = verify0(root);
	EXPECT_EQ(64, json_int(v, "blocks_checked", -1));
	EXPECT_EQ(0, json_int(v, "bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);

	ASSERT_EQ(0, scratch_plant(&self->s, written, BS, 12));
	root = run_json(&r, ro);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	EXPECT_EQ(1, r.status) TH_LOG("%.300s", r.err);
	v = verify0(root);
	EXPECT_EQ(64, json_int(v, "blocks_checked", -1));
	EXPECT_EQ(1, json_int(v, "bad_blocks", -1));
	EXPECT_EQ((long long)written, json_int(json_object_array_get_idx(
		json_object_object_get(v, "first_bad"), 0), "offset", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
