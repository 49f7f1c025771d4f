// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_switches_test.c - fio's command-line switches that shape a run:
 * --showcmd prints the command line fio prints (blkqual run in place of
 * fio), --parse-only checks and stops without opening anything,
 * --readonly refuses every writer and never creates or lays out a file,
 * and --eta, --eta-newline and --eta-interval decide the status line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

FIXTURE(sw)
{
	struct scratch s;
	char job[300];
	char file[300];
};

FIXTURE_SETUP(sw)
{
	FILE *f;

	ASSERT_EQ(0, scratch_make(&self->s, 4 << 20));
	snprintf(self->file, sizeof(self->file), "%s", self->s.file);
	snprintf(self->job, sizeof(self->job), "%s/two.fio", self->s.dir);
	f = fopen(self->job, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\nioengine=psync\nbs=4k\n; a comment\nsize=1m\n"
		"[first]\nrw=randread\nfilename=%s\n[second]\nrw=read\nstonewall\n"
		"filename=%s\n", self->file, self->file);
	ASSERT_EQ(0, fclose(f));
}

FIXTURE_TEARDOWN(sw)
{
	scratch_destroy(&self->s);
}

/* fio's own line for the same file, "fio " swapped for "blkqual run ". */
TEST_F(sw, showcmd_is_fios)
{
	struct run_result r, f;
	const char *fio_argv[] = { "fio", "--showcmd", self->job, NULL };
	char want[1024];
	size_t n;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--showcmd", self->job, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	EXPECT_STREQ("", r.err);
	EXPECT_EQ(0, strncmp(r.out, "blkqual run --ioengine=psync --bs=4k --size=1m --name=first "
			     "--rw=randread", 68)) TH_LOG("%s", r.out);
	/* The command line runs, and is the same jobs. */
	if (have_fio()) {
		ASSERT_EQ(0, run_argv(fio_argv, &f));
		ASSERT_EQ(0, f.status);
		n = strlen(f.out);
		/* fio ends its line with a blank. */
		while (n && (f.out[n - 1] == '\n' || f.out[n - 1] == ' '))
			f.out[--n] = '\0';
		snprintf(want, sizeof(want), "blkqual run %s\n", f.out + strlen("fio "));
		EXPECT_STREQ(want, r.out);
		run_result_free(&f);
	}
	run_result_free(&r);
}

/* --parse-only: the jobs are checked, nothing is opened or created. */
TEST_F(sw, parse_only_checks_and_stops)
{
	struct run_result r;
	char missing[400], opt[450];

	snprintf(missing, sizeof(missing), "%s/not-there", self->s.dir);
	snprintf(opt, sizeof(opt), "--filename=%s", missing);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--parse-only", "--name=x", "--rw=write", "--size=1m",
				 opt, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	EXPECT_NE(0, access(missing, F_OK));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--parse-only", "--name=x", "--rw=sideways", opt,
				 NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "sideways"));
	run_result_free(&r);
}

TEST_F(sw, readonly_refuses_every_writer)
{
	static const char *const writers[][2] = {
		{ "--rw=write", NULL }, { "--rw=randtrim", NULL }, { "--rw=randrw", NULL },
		{ "--rw=read", "--unlink=1" },
	};
	char missing[400], opt[450], fopt[450];
	struct run_result r;
	struct stat st;

	snprintf(fopt, sizeof(fopt), "--filename=%s", self->file);
	for (size_t i = 0; i < ARRAY_SIZE(writers); i++) {
		const char *argv[] = { blkqual_path(), "run", "--readonly", "--name=x",
				       "--size=1m", fopt, writers[i][0], writers[i][1], NULL };

		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) TH_LOG("%s %s", writers[i][0], writers[i][1]);
		EXPECT_NE(NULL, strstr(r.err, "--readonly")) TH_LOG("%.300s", r.err);
		run_result_free(&r);
	}
	/* A read of a file that is not there would lay it out: refused, nothing made. */
	snprintf(missing, sizeof(missing), "%s/not-there", self->s.dir);
	snprintf(opt, sizeof(opt), "--filename=%s", missing);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--readonly", "--no-status", "--name=x", "--rw=read",
				 "--size=1m", opt, NULL));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "--readonly")) TH_LOG("%.300s", r.err);
	run_result_free(&r);
	EXPECT_NE(0, stat(missing, &st));
	/* Reading what is there runs. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--readonly", "--no-status", "--name=x", "--rw=read",
				 "--size=1m", fopt, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	run_result_free(&r);
}

/* The status line goes to stderr: --eta=always even into a pipe, never not at all. */
TEST_F(sw, eta_decides_the_status_line)
{
	struct run_result r;
	int lines = 0;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--eta=always", "--name=x", "--ioengine=nop",
				 "--rw=randread", "--size=1g", "--time_based", "--runtime=1.2s", "-o",
				 "json", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "elapsed")) TH_LOG("%.300s", r.err);
	/* Updated in place: carriage returns, no newline before the end. */
	EXPECT_EQ(NULL, strchr(r.err, '\n'));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--eta=always", "--eta-newline=0.25s", "--name=x",
				 "--ioengine=nop", "--rw=randread", "--size=1g", "--time_based",
				 "--runtime=1.2s", "-o", "json", NULL));
	for (const char *p = r.err; (p = strstr(p, "elapsed")); p++)
		lines += !!strchr(p, '\n');
	/* A line of its own a quarter second: four or so in 1.2 s. */
	EXPECT_LE(3, lines) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--eta=never", "--name=x", "--ioengine=nop",
				 "--rw=randread", "--size=1m", "-o", "json", NULL));
	EXPECT_EQ(NULL, strstr(r.err, "elapsed"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--eta=sometimes", "--name=x", "--ioengine=nop",
				 "--size=1m", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "always, never or auto"));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
