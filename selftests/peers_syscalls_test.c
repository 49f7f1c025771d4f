// SPDX-License-Identifier: GPL-2.0-only
/*
 * peers_syscalls_test.c - blkqual's emulations make the system calls
 * their originals make, per unit of work, so that the figures compare
 * with the ones people took with dbench, sysbench and ioping:
 *
 * - blkqual replay against dbench, per loadfile line (it used to make
 *   fewer, and reported 17-31% more throughput); --lean leaves out the
 *   ones that do no work, and says so;
 * - blkqual fileio against sysbench fileio, per event;
 * - blkqual latency against ioping, per request.
 *
 * The outside truth is strace -c on both tools doing the same work.
 * dbench's lines are counted by the liveness check each dbench client
 * (and blkqual, by default) makes before every line.  The two tools get
 * through different numbers of lines in the same time, so the loadfile
 * is a prefix of client.txt that each goes through several times.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/strace.h"

#define CLIENT_TXT "/usr/share/dbench/client.txt"
#define PREFIX_LINES 2000

/* The calls a line of a loadfile turns into, as one name per kind. */
static const struct {
	const char *kind;
	const char *names[3];
} kinds[] = {
	{ "stat", { "newfstatat", "stat", NULL } },
	{ "getdents", { "getdents64", NULL } },
	{ "open", { "openat", "openat2", NULL } },
	{ "close", { "close", NULL } },
	{ "pread", { "pread64", NULL } },
	{ "pwrite", { "pwrite64", NULL } },
	{ "statfs", { "statfs", "fstatfs", NULL } },
	{ "fsync", { "fsync", NULL } },
	{ "utimens", { "utimensat", NULL } },
};

static double abs_diff(double a, double b)
{
	return a > b ? a - b : b - a;
}

static long long calls_of(const char *text, size_t k)
{
	long long n = 0;

	for (const char *const *name = kinds[k].names; *name; name++)
		n += strace_calls(text, *name);
	return n;
}

FIXTURE(trace)
{
	struct scratch s;
	char loadfile[300];
};

FIXTURE_SETUP(trace)
{
	char cmd[700];

	ASSERT_EQ(0, scratch_make(&self->s, 0));
	snprintf(self->loadfile, sizeof(self->loadfile), "%s/prefix.txt", self->s.dir);
	snprintf(cmd, sizeof(cmd), "head -n %d %s > %s", PREFIX_LINES, CLIENT_TXT,
		 self->loadfile);
	if (!access(CLIENT_TXT, R_OK))
		ASSERT_EQ(0, system(cmd));
}

FIXTURE_TEARDOWN(trace)
{
	scratch_destroy(&self->s);
}

#define NEED(prog) do { \
	if (need_program("strace")) \
		SKIP(return, "%s", need_program("strace")); \
	if (need_program(prog)) \
		SKIP(return, "%s", need_program(prog)); \
} while (0)

#define NEED_DBENCH() do { \
	NEED("dbench"); \
	if (access(CLIENT_TXT, R_OK)) \
		SKIP(return, "no %s (dbench's package)", CLIENT_TXT); \
} while (0)

/* strace's table of @argv run in @sub below the scratch dir; NULL on failure. */
static char *traced(struct __test_metadata *_metadata, struct scratch *s, const char *sub,
		    const char *const argv[], char **said)
{
	char dir[400], out[400];
	struct run_result r;

	snprintf(dir, sizeof(dir), "%s/%s", s->dir, sub);
	snprintf(out, sizeof(out), "%s/%s.strace", s->dir, sub);
	if ((mkdir(dir, 0755) && errno != EEXIST) || strace_run(argv, out, &r))
		return NULL;
	EXPECT_EQ(0, r.status) TH_LOG("%s: %.300s", argv[0], r.err);
	if (said)
		*said = r.out;
	else
		free(r.out);
	free(r.err);
	return slurp(out);
}

/* The number after @label in @text ("10.6 k" as ioping prints it), or -1. */
static long long number_after(const char *text, const char *label)
{
	const char *at = text ? strstr(text, label) : NULL;
	double v;
	char *end;

	if (!at)
		return -1;
	v = strtod(at + strlen(label), &end);
	if (!strncmp(end, " k ", 3))
		v *= 1000;
	else if (!strncmp(end, " M ", 3))
		v *= 1000000;
	return (long long)v;
}

/* @a per @per_a and @b per @per_b agree within @share of the first (and 0.002). */
#define EXPECT_SAME_RATE(what, a, per_a, b, per_b, share) do { \
	double ra = (double)(a) / (per_a), rb = (double)(b) / (per_b); \
	TH_LOG("%-10s original %.4f blkqual %.4f", what, ra, rb); \
	EXPECT_GT(ra * (share) + 0.002, abs_diff(ra, rb)) \
		TH_LOG("%s: %.4f, the original makes %.4f", what, rb, ra); \
} while (0)

/*
 * blkqual goes through the prefix exactly once (--run-once); dbench, which
 * has no such option, loops over it for a few seconds, several times.
 */
TEST_F_TIMEOUT(trace, same_calls_per_line_as_dbench, 120)
{
	char dir_a[400], dir_b[400];
	char *d, *b;
	long long lines_d, lines_b;
	double sum_d = 0, sum_b = 0;

	NEED_DBENCH();
	snprintf(dir_a, sizeof(dir_a), "%s/dbench", self->s.dir);
	snprintf(dir_b, sizeof(dir_b), "%s/blkqual", self->s.dir);
	{
		const char *argv[] = { "dbench", "-c", self->loadfile, "-D", dir_a, "-t", "6",
				       "1", NULL };

		d = traced(_metadata, &self->s, "dbench", argv, NULL);
	}
	{
		const char *argv[] = { blkqual_path(), "replay", "--run-once", "-c",
				       self->loadfile, "-D", dir_b, "1", NULL };

		b = traced(_metadata, &self->s, "blkqual", argv, NULL);
	}
	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, b);
	lines_d = strace_calls(d, "kill");
	lines_b = strace_calls(b, "kill");
	ASSERT_LT(2 * PREFIX_LINES, lines_d) TH_LOG("dbench went through the prefix once only");
	ASSERT_EQ(PREFIX_LINES, lines_b);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		double per_d = (double)calls_of(d, k) / lines_d;
		double per_b = (double)calls_of(b, k) / lines_b;

		TH_LOG("%-9s per line: dbench %.4f blkqual %.4f", kinds[k].kind, per_d, per_b);
		sum_d += per_d;
		sum_b += per_b;
		/* The rarer calls vary more with where in the prefix dbench stopped. */
		EXPECT_GT(per_d * (per_d > 0.1 ? 0.10 : 0.25) + 0.002, abs_diff(per_b, per_d))
			TH_LOG("%s: %.4f calls a line, dbench makes %.4f", kinds[k].kind, per_b,
			       per_d);
	}
	EXPECT_GT(0.05 * sum_d, abs_diff(sum_b, sum_d))
		TH_LOG("%.3f calls a line, dbench makes %.3f", sum_b, sum_d);
	free(d);
	free(b);
}

TEST_F_TIMEOUT(trace, lean_leaves_them_out_and_says_so, 120)
{
	char dir[400], out[400];
	long long stats[2], lines[2];
	struct run_result r;

	NEED_DBENCH();
	for (int lean = 0; lean < 2; lean++) {
		const char *argv[] = { blkqual_path(), "replay", "--run-once", "-c",
				       self->loadfile, "-D", dir, "1", NULL, NULL };
		const char *total;
		char *text;

		if (lean)
			argv[8] = "--lean";
		snprintf(dir, sizeof(dir), "%s/run%d", self->s.dir, lean);
		snprintf(out, sizeof(out), "%s/run%d.strace", self->s.dir, lean);
		ASSERT_EQ(0, mkdir(dir, 0755));
		ASSERT_EQ(0, strace_run(argv, out, &r));
		ASSERT_EQ(0, r.status) TH_LOG("%.300s", r.err);
		total = strstr(r.out, "Status mismatches: 0 of ");
		ASSERT_NE(NULL, total) TH_LOG("%.500s", r.out);
		lines[lean] = atoll(total + strlen("Status mismatches: 0 of "));
		EXPECT_EQ(lean, strstr(r.out, "(lean)") != NULL);
		EXPECT_EQ(lean, strstr(r.out, "does not compare with dbench's") != NULL);
		run_result_free(&r);
		text = slurp(out);
		ASSERT_NE(NULL, text);
		stats[lean] = strace_calls(text, "newfstatat");
		/* One liveness check a line by default, none when lean. */
		EXPECT_EQ(lean ? 0 : lines[lean], strace_calls(text, "kill"));
		free(text);
	}
	/* The same lines, a third or more of the stat() calls gone. */
	EXPECT_EQ(lines[0], lines[1]);
	EXPECT_GT(stats[0] * 2 / 3, stats[1]) TH_LOG("stat: %lld, lean %lld", stats[0], stats[1]);
}

/* sysbench fileio rndrw: the same reads, writes and fsyncs per event. */
TEST_F_TIMEOUT(trace, fileio_calls_per_event_as_sysbench, 120)
{
	static const char *const calls[] = { "pread64", "pwrite64", "fsync" };
	char *text[2], *said[2];
	long long events[2];

	NEED("sysbench");
	for (int i = 0; i < 2; i++) {
		const char *sub = i ? "blkqual" : "sysbench";
		const char *prog = i ? blkqual_path() : "sysbench";
		char dir[400];
		const char *prep[] = { prog, "fileio", "--file-total-size=32M", "--file-num=4",
				       "prepare", NULL };
		const char *argv[] = { prog, "fileio", "--file-total-size=32M", "--file-num=4",
				       "--file-test-mode=rndrw", "--time=2", "run", NULL };
		struct run_result r;

		snprintf(dir, sizeof(dir), "%s/%s", self->s.dir, sub);
		ASSERT_EQ(0, mkdir(dir, 0755));
		/* Both tools work in the current directory, as sysbench does. */
		ASSERT_EQ(0, chdir(dir));
		ASSERT_EQ(0, run_argv(prep, &r));
		ASSERT_EQ(0, r.status) TH_LOG("%s prepare: %.300s", sub, r.err);
		run_result_free(&r);
		text[i] = traced(_metadata, &self->s, sub, argv, &said[i]);
		ASSERT_NE(NULL, text[i]);
		events[i] = number_after(said[i], "total number of events:");
		ASSERT_LT(100, events[i]) TH_LOG("%s: %.500s", sub, said[i]);
		ASSERT_EQ(0, chdir("/"));
	}
	for (size_t k = 0; k < ARRAY_SIZE(calls); k++)
		EXPECT_SAME_RATE(calls[k], strace_calls(text[0], calls[k]), events[0],
				 strace_calls(text[1], calls[k]), events[1], 0.02);
	for (int i = 0; i < 2; i++) {
		free(text[i]);
		free(said[i]);
	}
}

/*
 * ioping -R -D: one read and one page-cache drop per request; with -W
 * (in a directory, on a file of its own) a write, an fdatasync() and the
 * drop.  The file is filled before the requests, by each tool its own
 * way, so writes are compared through the calls made once per request.
 */
TEST_F_TIMEOUT(trace, latency_calls_per_request_as_ioping, 120)
{
	static const struct {
		const char *flags[4];
		const char *calls[3];
		bool dir;
	} modes[] = {
		{ { "-R", "-D", "-w", "2" }, { "pread64", "fadvise64", NULL }, false },
		{ { "-R", "-D", "-W", "-w" }, { "fdatasync", "fadvise64", NULL }, true },
	};
	char file[400];
	int fd;

	NEED("ioping");
	snprintf(file, sizeof(file), "%s/target.img", self->s.dir);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 64 << 20));
	close(fd);
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		char *text[2], *said[2];
		long long requests[2];

		for (int i = 0; i < 2; i++) {
			char sub[64], target[400];
			const char *argv[10] = { i ? blkqual_path() : "ioping" };
			int n = 1;

			if (i)
				argv[n++] = "latency";
			for (int f = 0; f < 4; f++)
				argv[n++] = modes[m].flags[f];
			if (modes[m].dir)
				argv[n++] = "2";
			snprintf(sub, sizeof(sub), "%s%zu", i ? "blkqual" : "ioping", m);
			snprintf(target, sizeof(target), "%s/%s", self->s.dir, sub);
			argv[n++] = modes[m].dir ? target : file;
			argv[n] = NULL;
			text[i] = traced(_metadata, &self->s, sub, argv, &said[i]);
			ASSERT_NE(NULL, text[i]);
			requests[i] = number_after(said[i], "generated ");
			ASSERT_LT(20, requests[i]) TH_LOG("%s: %.500s", sub, said[i]);
		}
		for (size_t k = 0; modes[m].calls[k]; k++)
			EXPECT_SAME_RATE(modes[m].calls[k],
					 strace_calls(text[0], modes[m].calls[k]), requests[0],
					 strace_calls(text[1], modes[m].calls[k]), requests[1],
					 0.02);
		for (int i = 0; i < 2; i++) {
			free(text[i]);
			free(said[i]);
		}
	}
}

TEST_HARNESS_MAIN
