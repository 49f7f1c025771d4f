// SPDX-License-Identifier: GPL-2.0-only
/*
 * groups_test.c - job ordering and reporting groups as fio has them:
 * stonewall phases that do not overlap, new_group and fio's group ids,
 * group_reporting entries that add up as fio's, loops=N doing N times
 * the I/O, exitall stopping the others (and the job waiting for it),
 * wait_for starting a job when the named one ends.  Every job file is
 * also run by fio 3.33 and the counts compared; the parse cases need
 * neither root nor fio.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

/* A loop device over 64 MiB: the jobs here move a few MiB each. */
#define GROUPS_DEV_SIZE (64LL << 20)

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char jobfile[400];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, GROUPS_DEV_SIZE);
	if (prep_ok(&self->p))
		snprintf(self->jobfile, sizeof(self->jobfile), "%s/job.fio", self->s.dir);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/* The job file: a [global] naming the device, then @body. */
static int write_job(const char *path, const char *dev, const char *body)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "[global]\nfilename=%s\ndirect=1\nbs=4k\nioengine=psync\n%s", dev, body);
	return fclose(f);
}

static json_object *run_blkqual_json(struct __test_metadata *_metadata, const char *jobfile)
{
	const char *args[] = { jobfile, NULL };
	struct run_result r;
	json_object *root = blkqual_run_json(&r, args);

	if (!root)
		TH_LOG("blkqual exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

static json_object *run_fio_json(struct __test_metadata *_metadata, const char *jobfile)
{
	const char *argv[] = { "fio", "--output-format=json", jobfile, NULL };
	struct run_result r;
	json_object *root = NULL;

	if (!run_argv(argv, &r) && !r.status && r.out) {
		/* fio may print notes before the document. */
		const char *brace = strchr(r.out, '{');

		root = brace ? json_tokener_parse(brace) : NULL;
	}
	if (!root)
		TH_LOG("fio exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

static json_object *job_named(json_object *root, const char *key, const char *name)
{
	return json_find_by(json_object_object_get(root, "jobs"), key, name);
}

/* blkqual's job @name did what fio's did: I/Os per direction. */
static void same_counts(struct __test_metadata *_metadata, json_object *bq, json_object *fio,
			const char *name)
{
	json_object *b = job_named(bq, "name", name), *f = job_named(fio, "jobname", name);

	ASSERT_NE(NULL, b) TH_LOG("blkqual has no job %s", name);
	ASSERT_NE(NULL, f) TH_LOG("fio has no job %s", name);
	EXPECT_EQ(json_int(f, "read.total_ios", -1), json_int(b, "total.read.ios", -2))
		TH_LOG("%s: reads", name);
	EXPECT_EQ(json_int(f, "write.total_ios", -1), json_int(b, "total.write.ios", -2))
		TH_LOG("%s: writes", name);
	EXPECT_EQ(json_int(f, "read.io_bytes", -1), json_int(b, "total.read.bytes", -2));
	EXPECT_EQ(json_int(f, "write.io_bytes", -1), json_int(b, "total.write.bytes", -2));
	EXPECT_EQ(json_int(f, "groupid", -1), json_int(b, "groupid", -2)) TH_LOG("%s: group", name);
}

/* Both runs of @body, or a skip without fio. */
#define RUN_BOTH(body, bq, fio) do { \
	PREP_READY(&self->p); \
	if (need_program("fio")) \
		SKIP(return, "%s", need_program("fio")); \
	ASSERT_EQ(0, write_job(self->jobfile, self->s.dev, body)); \
	bq = run_blkqual_json(_metadata, self->jobfile); \
	ASSERT_NE(NULL, bq); \
	fio = run_fio_json(_metadata, self->jobfile); \
	ASSERT_NE(NULL, fio); \
} while (0)

TEST_F_TIMEOUT(dev, stonewall_phases_do_not_overlap, 60)
{
	json_object *bq, *fio, *w, *r, *x;

	RUN_BOTH("[w]\nrw=write\nsize=8M\n"
		 "[r]\nrw=read\nsize=8M\nstonewall\n"
		 "[x]\nrw=randread\nsize=4M\nnew_group\n", bq, fio);
	same_counts(_metadata, bq, fio, "w");
	same_counts(_metadata, bq, fio, "r");
	same_counts(_metadata, bq, fio, "x");
	w = job_named(bq, "name", "w");
	r = job_named(bq, "name", "r");
	x = job_named(bq, "name", "x");
	/* The second phase starts after the first ended; x runs beside r. */
	EXPECT_GE(json_int(r, "start_unix_ns", 0), json_int(w, "end_unix_ns", 1));
	EXPECT_GE(json_int(x, "start_unix_ns", 0), json_int(w, "end_unix_ns", 1));
	EXPECT_LT(json_int(x, "start_unix_ns", 1), json_int(r, "end_unix_ns", 0));
	EXPECT_EQ(0, json_int(w, "groupid", -1));
	EXPECT_EQ(1, json_int(r, "groupid", -1));
	EXPECT_EQ(2, json_int(x, "groupid", -1));
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, group_reporting_sums_as_fio, 60)
{
	json_object *bq, *fio, *groups, *fjobs;

	RUN_BOTH("group_reporting\n"
		 "[a]\nrw=write\nsize=4M\nnumjobs=2\n"
		 "[b]\nrw=read\nsize=4M\noffset=16M\n"
		 "[c]\nrw=randread\nsize=2M\nstonewall\n", bq, fio);
	groups = json_object_object_get(bq, "groups");
	fjobs = json_object_object_get(fio, "jobs");
	/* fio reports one entry per group; so does blkqual's groups[]. */
	ASSERT_EQ(json_object_array_length(fjobs), json_object_array_length(groups));
	for (size_t i = 0; i < json_object_array_length(fjobs); i++) {
		json_object *f = json_object_array_get_idx(fjobs, i);
		json_object *g = json_object_array_get_idx(groups, i);

		EXPECT_STREQ(json_str(f, "jobname"), json_str(g, "name"));
		EXPECT_EQ(json_int(f, "groupid", -1), json_int(g, "groupid", -2));
		EXPECT_EQ(json_int(f, "read.total_ios", -1), json_int(g, "read.ios", -2))
			TH_LOG("group %zu reads", i);
		EXPECT_EQ(json_int(f, "write.total_ios", -1), json_int(g, "write.ios", -2))
			TH_LOG("group %zu writes", i);
		EXPECT_EQ(json_int(f, "read.io_bytes", -1), json_int(g, "read.bytes", -2));
		EXPECT_EQ(json_int(f, "write.io_bytes", -1), json_int(g, "write.bytes", -2));
	}
	/* Group 0: a's two threads and b; every job is still reported as itself. */
	EXPECT_EQ(3, json_int(json_object_array_get_idx(groups, 0), "threads", 0));
	EXPECT_EQ(2048, json_int(json_object_array_get_idx(groups, 0), "write.ios", 0));
	EXPECT_EQ(3, json_object_array_length(json_object_object_get(bq, "jobs")));
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, loops_repeat_the_job, 60)
{
	json_object *bq, *fio;

	RUN_BOTH("[l]\nrw=randread\nsize=4M\nloops=3\n"
		 "[s]\nrw=write\nsize=8M\nio_size=2M\nloops=3\nstonewall\n", bq, fio);
	same_counts(_metadata, bq, fio, "l");
	same_counts(_metadata, bq, fio, "s");
	EXPECT_EQ(3 * 1024, json_int(job_named(bq, "name", "l"), "total.read.ios", 0));
	EXPECT_EQ(3 * 512, json_int(job_named(bq, "name", "s"), "total.write.ios", 0));
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, exitall_stops_the_others, 60)
{
	json_object *bq, *fio, *lng, *shrt, *after;

	RUN_BOTH("[long]\nrw=read\nruntime=20\ntime_based\n"
		 "[short]\nrw=write\nsize=1M\nexitall\n"
		 "[after]\nrw=randread\nsize=1M\nwait_for=short\n", bq, fio);
	same_counts(_metadata, bq, fio, "short");
	same_counts(_metadata, bq, fio, "after");
	lng = job_named(bq, "name", "long");
	shrt = job_named(bq, "name", "short");
	after = job_named(bq, "name", "after");
	/* long stopped when short ended, not after its 20 s. */
	EXPECT_LT(json_int(lng, "runtime_ns", 0), 5000000000LL);
	EXPECT_LT(json_int(lng, "end_unix_ns", 0), json_int(shrt, "end_unix_ns", 0) + 1000000000LL);
	EXPECT_EQ(0, json_int(after, "total.read.ios", -1));
	EXPECT_EQ(256, json_int(shrt, "total.write.ios", 0));
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, exit_what_all_skips_later_phases, 60)
{
	json_object *bq, *fio, *last;

	RUN_BOTH("[long]\nrw=read\nruntime=20\ntime_based\n"
		 "[short]\nrw=write\nsize=1M\nexitall\nexit_what=all\n"
		 "[last]\nrw=read\nsize=1M\nstonewall\n", bq, fio);
	same_counts(_metadata, bq, fio, "short");
	same_counts(_metadata, bq, fio, "last");
	last = job_named(bq, "name", "last");
	EXPECT_EQ(1, json_object_get_boolean(json_object_object_get(last, "not_started")));
	EXPECT_LT(json_int(job_named(bq, "name", "long"), "runtime_ns", 0), 5000000000LL);
	json_object_put(bq);
	json_object_put(fio);
}

/* exit_what=stonewall stops what runs, and the next phase still runs. */
TEST_F_TIMEOUT(dev, exit_what_stonewall_goes_on_with_the_next_phase, 60)
{
	json_object *bq, *fio;

	RUN_BOTH("[long]\nrw=read\nruntime=20\ntime_based\n"
		 "[short]\nrw=write\nsize=1M\nexitall\nexit_what=stonewall\n"
		 "[last]\nrw=read\nsize=1M\nstonewall\n", bq, fio);
	same_counts(_metadata, bq, fio, "short");
	same_counts(_metadata, bq, fio, "last");
	EXPECT_EQ(256, json_int(job_named(bq, "name", "last"), "total.read.ios", 0));
	EXPECT_LT(json_int(job_named(bq, "name", "long"), "runtime_ns", 0), 5000000000LL);
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, wait_for_starts_when_the_waitee_ends, 60)
{
	json_object *bq, *fio, *lng, *shrt, *after;

	RUN_BOTH("[long]\nrw=read\nruntime=2\ntime_based\n"
		 "[short]\nrw=write\nsize=2M\n"
		 "[after]\nrw=randread\nsize=1M\nwait_for=short\nstartdelay=0-100ms\n", bq, fio);
	same_counts(_metadata, bq, fio, "short");
	same_counts(_metadata, bq, fio, "after");
	lng = job_named(bq, "name", "long");
	shrt = job_named(bq, "name", "short");
	after = job_named(bq, "name", "after");
	EXPECT_GE(json_int(after, "start_unix_ns", 0), json_int(shrt, "end_unix_ns", 1));
	/* It did not wait for long, which was still running. */
	EXPECT_LT(json_int(after, "end_unix_ns", 1), json_int(lng, "end_unix_ns", 0));
	EXPECT_EQ(256, json_int(after, "total.read.ios", 0));
	json_object_put(bq);
	json_object_put(fio);
}

/* ---- parsing: good and refused values, no device needed ------------------- */

static int run_nop(struct run_result *r, const char *a, const char *b, const char *c)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       "--ioengine=null", "--size=1m", "--name=one", a, "--name=two", b, c,
			       NULL };

	return run_argv(argv, r);
}

TEST(ordering_values_parse)
{
	static const char *const good[][3] = {
		{ "--loops=2", "--stonewall", "--new_group" },
		{ "--exitall", "--wait_for=one", "--exit_what=stonewall" },
		{ "--exit_what=all", "--wait_for_previous", "--exitall_on_error" },
		{ "--startdelay=0-10ms", "--startdelay=5ms:10ms", "--loops=0" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_nop(&r, good[i][0], good[i][1], good[i][2]));
		EXPECT_EQ(0, r.status) TH_LOG("%s %s %s: %.200s", good[i][0], good[i][1],
					     good[i][2], r.err ? r.err : "");
		run_result_free(&r);
	}
}

TEST(ordering_values_refused)
{
	static const char *const bad[][2] = {
		{ "--exit_what=some", "exit_what" },
		{ "--loops=-1", "loops" },
		{ "--loops=x", "loops" },
		{ "--startdelay=10ms-5ms", "startdelay" },
		{ "--startdelay=-", "startdelay" },
		{ "--wait_for=nobody", "wait_for" },
		{ "--wait_for=one", "itself" },
		{ "--stonewall=2", "stonewall" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_nop(&r, bad[i][0], NULL, NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s was not refused", bad[i][0]);
		EXPECT_NE(NULL, r.err && strstr(r.err, bad[i][1]) ? r.err : NULL)
			TH_LOG("%s: %.200s", bad[i][0], r.err ? r.err : "");
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s: one line", bad[i][0]);
		run_result_free(&r);
	}
}

/* A waitee must come first, as fio requires. */
TEST(wait_for_a_later_job_is_refused)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "--ioengine=null",
			       "--size=1m", "--name=one", "--wait_for=two", "--name=two", NULL };
	struct run_result r;

	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, r.err ? strstr(r.err, "comes later") : NULL) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* Phases on the null engine: groups numbered as fio numbers them. */
TEST(group_ids_follow_fio)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       "--ioengine=null", "--size=1m", "--group_reporting",
			       "--name=a", "--name=b", "--new_group", "--name=c", "--stonewall",
			       "--name=d", "--stonewall", "--new_group", "--name=e", NULL };
	static const int want[] = { 0, 1, 2, 3, 3 };
	struct run_result r;
	json_object *root, *jobs;

	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	jobs = json_object_object_get(root, "jobs");
	ASSERT_EQ(5, json_object_array_length(jobs));
	for (size_t i = 0; i < 5; i++) {
		EXPECT_EQ(want[i], json_int(json_object_array_get_idx(jobs, i), "groupid", -1))
			TH_LOG("job %zu", i);
	}
	/* group_reporting: one entry per group, 256 reads of 4 KiB per job. */
	ASSERT_EQ(4, json_object_array_length(json_object_object_get(root, "groups")));
	EXPECT_EQ(512, json_int(json_object_array_get_idx(json_object_object_get(root, "groups"),
							  3), "read.ios", 0));
	json_object_put(root);
	run_result_free(&r);
}

/* As in fio, a second job file starts with a stonewall: a new phase and group. */
TEST(second_job_file_is_a_stonewall)
{
	char dir[] = "/tmp/groups_test.XXXXXX", f1[64], f2[64];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", f1, f2, NULL };
	static const int want[] = { 0, 0, 1 };
	struct run_result r;
	json_object *root, *jobs;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(f1, sizeof(f1), "%s/1.fio", dir);
	snprintf(f2, sizeof(f2), "%s/2.fio", dir);
	f = fopen(f1, "w");
	ASSERT_NE(NULL, f);
	fputs("[global]\nioengine=null\nsize=1m\n[a]\n[b]\n", f);
	fclose(f);
	f = fopen(f2, "w");
	ASSERT_NE(NULL, f);
	fputs("[c]\nioengine=null\nsize=1m\n", f);
	fclose(f);
	ASSERT_EQ(0, run_argv(argv, &r));
	unlink(f1);
	unlink(f2);
	rmdir(dir);
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	jobs = json_object_object_get(root, "jobs");
	ASSERT_EQ(3, json_object_array_length(jobs));
	for (size_t i = 0; i < 3; i++) {
		EXPECT_EQ(want[i], json_int(json_object_array_get_idx(jobs, i), "groupid", -1))
			TH_LOG("job %zu", i);
	}
	EXPECT_GE(json_int(json_object_array_get_idx(jobs, 2), "start_unix_ns", 0),
		  json_int(json_object_array_get_idx(jobs, 1), "end_unix_ns", 1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
