// SPDX-License-Identifier: GPL-2.0-only
/*
 * status_interval_test.c - fio's --status-interval and SIGUSR1 in blkqual
 * run: the whole report so far, in the run's output format, every period
 * and on the signal; counted like fio 3.33's on the same job, each report
 * ahead of the one before it, the earlier phases' jobs as they ended, and
 * all of them in the --output file when there is one.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

#define MAX_DOCS 16

FIXTURE(st)
{
	struct scratch s;
	char target[320];
	char runtime[64];
};

FIXTURE_SETUP(st)
{
	ASSERT_EQ(0, scratch_make(&self->s, 16 << 20));
	snprintf(self->target, sizeof(self->target), "--filename=%s", self->s.file);
	snprintf(self->runtime, sizeof(self->runtime), "--runtime=3500ms");
}

FIXTURE_TEARDOWN(st)
{
	scratch_destroy(&self->s);
}

/* The JSON documents of @s, one after the other (fio's notes between them skipped). */
static int json_docs(const char *s, json_object **docs)
{
	int n = 0;

	while (s && n < MAX_DOCS && (s = strchr(s, '{'))) {
		struct json_tokener *tok = json_tokener_new();
		json_object *doc = json_tokener_parse_ex(tok, s, (int)strlen(s));

		if (!doc) {
			json_tokener_free(tok);
			break;
		}
		s += json_tokener_get_parse_end(tok);
		json_tokener_free(tok);
		docs[n++] = doc;
	}
	return n;
}

static void docs_put(json_object **docs, int n)
{
	while (n > 0)
		json_object_put(docs[--n]);
}

/* jobs[@job].read.@key of a fio-layout document, -1 when it is not there. */
static long long read_figure(json_object *doc, int job, const char *key)
{
	json_object *jobs, *j, *rd, *v;

	if (!json_object_object_get_ex(doc, "jobs", &jobs) ||
	    job >= (int)json_object_array_length(jobs))
		return -1;
	j = json_object_array_get_idx(jobs, job);
	if (!json_object_object_get_ex(j, "read", &rd) || !json_object_object_get_ex(rd, key, &v))
		return -1;
	return json_object_get_int64(v);
}

static const char *job_opts[] = {
	"--name=st", "--ioengine=psync", "--rw=randread", "--bs=4k", "--time_based",
};

/* The job with @extra switches, by blkqual run or by fio: its standard output. */
static char *output(struct __test_metadata *_metadata, bool fio, const char *target,
		    const char *runtime, const char *const *extra)
{
	const char *argv[24];
	struct run_result r;
	char *out = NULL;
	int n = 0;

	argv[n++] = fio ? "fio" : blkqual_path();
	if (!fio)
		argv[n++] = "run";
	for (size_t i = 0; i < sizeof(job_opts) / sizeof(job_opts[0]); i++)
		argv[n++] = job_opts[i];
	argv[n++] = target;
	argv[n++] = runtime;
	while (*extra && n < 23)
		argv[n++] = *extra++;
	argv[n] = NULL;
	if (run_argv(argv, &r))
		return NULL;
	if (!r.status)
		out = strdup(r.out);
	else
		TH_LOG("%s: exit %d: %.300s", argv[0], r.status, r.err ? r.err : "");
	run_result_free(&r);
	return out;
}

/*
 * Each report has the run so far: more I/O and more time than the one
 * before, the last one the run's final report.  fio prints as many.
 */
TEST_F_TIMEOUT(st, json_reports_grow_like_fios, 60)
{
	const char *extra[] = { "--output-format=json", "--status-interval=1", NULL };
	json_object *docs[MAX_DOCS], *fdocs[MAX_DOCS];
	char *out = output(_metadata, false, self->target, self->runtime, extra);
	int n, fn;

	ASSERT_NE(NULL, out);
	n = json_docs(out, docs);
	free(out);
	/* 3.5 s at one a second: three reports and the final one. */
	EXPECT_GE(n, 3);
	EXPECT_LE(n, 5);
	for (int i = 0; i < n; i++) {
		long long ms = read_figure(docs[i], 0, "runtime");

		EXPECT_GT(read_figure(docs[i], 0, "io_bytes"), 0);
		if (i) {
			EXPECT_GT(read_figure(docs[i], 0, "io_bytes"),
				  read_figure(docs[i - 1], 0, "io_bytes"));
			EXPECT_GT(ms, read_figure(docs[i - 1], 0, "runtime"));
		}
		/* The k-th report is about k seconds into the run. */
		if (i < n - 1) {
			EXPECT_GT(ms, (i + 1) * 1000 - 400) TH_LOG("report %d: %lld ms", i, ms);
			EXPECT_LT(ms, (i + 1) * 1000 + 400) TH_LOG("report %d: %lld ms", i, ms);
		}
	}
	EXPECT_GT(read_figure(docs[n - 1], 0, "runtime"), 3300);
	if (have_fio()) {
		out = output(_metadata, true, self->target, self->runtime, extra);
		ASSERT_NE(NULL, out);
		fn = json_docs(out, fdocs);
		free(out);
		TH_LOG("reports: fio %d, blkqual %d", fn, n);
		EXPECT_LE(abs(fn - n), 1);
		docs_put(fdocs, fn);
	}
	docs_put(docs, n);
}

/* The text report, and blkqual's own JSON, are repeated the same way. */
TEST_F_TIMEOUT(st, every_format_is_repeated, 60)
{
	const char *normal[] = { "--output-format=normal", "--status-interval=1", NULL };
	const char *native[] = { "-o", "json", "--status-interval=1", NULL };
	const char *terse[] = { "--minimal", "--status-interval=1", NULL };
	json_object *docs[MAX_DOCS];
	char *out, *p;
	int n = 0;

	snprintf(self->runtime, sizeof(self->runtime), "--runtime=2500ms");
	out = output(_metadata, false, self->target, self->runtime, normal);
	ASSERT_NE(NULL, out);
	for (p = out; (p = strstr(p, "read: IOPS=")); p++)
		n++;
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 4);
	free(out);

	out = output(_metadata, false, self->target, self->runtime, native);
	ASSERT_NE(NULL, out);
	n = json_docs(out, docs);
	free(out);
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 4);
	for (int i = 0; i < n; i++) {
		json_object *jobs;

		EXPECT_TRUE(json_object_object_get_ex(docs[i], "jobs", &jobs));
	}
	docs_put(docs, n);

	out = output(_metadata, false, self->target, self->runtime, terse);
	ASSERT_NE(NULL, out);
	n = count_lines(out);
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 4);
	EXPECT_EQ(0, strncmp(out, "3;", 2)) TH_LOG("%.80s", out);
	free(out);
}

/* With --output, the file has every report, the final one last; stdout nothing. */
TEST_F_TIMEOUT(st, output_file_gets_them_all, 60)
{
	char file[320], arg[340];
	const char *extra[] = { "--output-format=json", "--status-interval=1", arg, NULL };
	json_object *docs[MAX_DOCS];
	char *out, *saved;
	int n;

	snprintf(file, sizeof(file), "%s/out.json", self->s.dir);
	snprintf(arg, sizeof(arg), "--output=%s", file);
	snprintf(self->runtime, sizeof(self->runtime), "--runtime=2500ms");
	out = output(_metadata, false, self->target, self->runtime, extra);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strchr(out, '{')) TH_LOG("%.200s", out);
	free(out);
	saved = slurp(file);
	ASSERT_NE(NULL, saved);
	n = json_docs(saved, docs);
	free(saved);
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 4);
	if (n > 1)
		EXPECT_GT(read_figure(docs[n - 1], 0, "runtime"),
			  read_figure(docs[n - 2], 0, "runtime"));
	docs_put(docs, n);
}

/* A stonewall phase's report holds the earlier phase's job as it ended. */
TEST_F_TIMEOUT(st, earlier_phases_as_they_ended, 60)
{
	char job[340];
	const char *argv[] = { blkqual_path(), "run", "--output-format=json",
			       "--status-interval=1", job, NULL };
	json_object *docs[MAX_DOCS];
	struct run_result r;
	long long first;
	FILE *f;
	int n;

	snprintf(job, sizeof(job), "%s/two.fio", self->s.dir);
	f = fopen(job, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\nioengine=psync\nbs=4k\nrw=randread\ntime_based\nfilename=%s\n"
		"[one]\nruntime=1200ms\n[two]\nstonewall\nruntime=1500ms\n", self->s.file);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	n = json_docs(r.out, docs);
	run_result_free(&r);
	ASSERT_GE(n, 3);
	first = read_figure(docs[n - 1], 0, "io_bytes");
	/* The report at 2 s: job one has ended, job two runs. */
	EXPECT_EQ(first, read_figure(docs[n - 2], 0, "io_bytes"));
	EXPECT_GT(read_figure(docs[n - 2], 1, "io_bytes"), 0);
	EXPECT_LT(read_figure(docs[n - 2], 1, "io_bytes"), read_figure(docs[n - 1], 1, "io_bytes"));
	/* The report at 1 s: job two has not started. */
	EXPECT_LT(read_figure(docs[0], 0, "io_bytes"), first);
	EXPECT_EQ(0, read_figure(docs[0], 1, "io_bytes"));
	docs_put(docs, n);
}

/* SIGUSR1 asks for one report now, as it does of fio; the run goes on. */
TEST_F_TIMEOUT(st, sigusr1_asks_for_one, 60)
{
	char path[320];
	json_object *docs[MAX_DOCS];
	struct timespec ts = { 1, 200000000 };
	int status, fd, n;
	char *out;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/stdout", self->s.dir);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execl(blkqual_path(), "blkqual", "run", "--name=st", "--ioengine=psync",
		      "--rw=randread", "--bs=4k", "--time_based", "--runtime=2500ms",
		      self->target, "--output-format=json", (char *)NULL);
		_exit(127);
	}
	nanosleep(&ts, NULL);
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	EXPECT_EQ(0, WEXITSTATUS(status));
	out = slurp(path);
	ASSERT_NE(NULL, out);
	n = json_docs(out, docs);
	free(out);
	ASSERT_EQ(2, n);
	EXPECT_GT(read_figure(docs[0], 0, "runtime"), 900);
	EXPECT_LT(read_figure(docs[0], 0, "runtime"), 1800);
	EXPECT_GT(read_figure(docs[1], 0, "runtime"), 2300);
	docs_put(docs, n);
}

TEST(bad_values_exit_2)
{
	const char *bad[] = { "--status-interval=0", "--status-interval=soon",
			      "--status-interval" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--name=x", "--ioengine=null", "--size=1m",
					 bad[i], NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s", bad[i]);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
		EXPECT_NE(NULL, strstr(r.err, "status-interval")) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
