// SPDX-License-Identifier: GPL-2.0-only
/*
 * completion_test.c - the bash completion, sourced in bash and asked as
 * bash asks it (COMP_WORDS, COMP_CWORD, then _blkqual): commands, each
 * command's options, fio's job options and their closed sets of values
 * (and sysbench's, after fileio),
 * both as bash splits "--rw=ra" at the '=' and unsplit; file names where
 * nothing else fits; every value offered taken by "blkqual run"; and
 * "make install" putting the script where bash-completion looks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/run.h"

#define MAX_WORDS 16

/*
 * What _blkqual puts in COMPREPLY for @words (after "blkqual"), the last
 * one being completed; one per line, in r->out.
 */
static int complete(struct run_result *r, const char *const *words)
{
	static const char script[] =
		"source \"$1\" || exit 9; shift; COMP_CWORD=$1; shift; COMP_WORDS=(\"$@\"); "
		"_blkqual || exit 8; "
		"((${#COMPREPLY[@]} == 0)) || printf '%s\\n' \"${COMPREPLY[@]}\"";
	const char *argv[MAX_WORDS + 8] = { "bash", "-c", script, "bash" };
	char path[512], cword[16];
	int n = 4, nr = 0;

	snprintf(path, sizeof(path), "%s/tools/completion/blkqual.bash", srctree_path());
	while (words[nr])
		nr++;
	snprintf(cword, sizeof(cword), "%d", nr);
	argv[n++] = path;
	argv[n++] = cword;
	argv[n++] = blkqual_path();
	for (int i = 0; i < nr && i < MAX_WORDS; i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	return run_argv(argv, r);
}

/* Whether @line is one of the lines of @text. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

#define COMPLETE(r, ...) do { \
		const char *const w_[] = { __VA_ARGS__, NULL }; \
		ASSERT_EQ(0, complete(r, w_)); \
		ASSERT_EQ(0, (r)->status) TH_LOG("%s", (r)->err); \
	} while (0)

TEST(commands)
{
	struct run_result r, help;

	COMPLETE(&r, "");
	ASSERT_EQ(0, run_blkqual(&help, "--help", NULL));
	/* every command "blkqual --help" lists, and only those */
	for (char *line = strtok(help.out, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "  ", 2) || line[2] == ' ')
			continue;
		line[2 + strcspn(line + 2, " ")] = '\0';
		EXPECT_TRUE(has_line(r.out, line + 2)) TH_LOG("%s not offered", line + 2);
	}
	EXPECT_FALSE(has_line(r.out, "__complete"));
	run_result_free(&help);
	run_result_free(&r);

	COMPLETE(&r, "str");
	EXPECT_STREQ("stripe-tune\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "fs", "");
	EXPECT_STREQ("create\ndestroy\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "--");
	EXPECT_STREQ("--help\n--version\n", r.out);
	run_result_free(&r);
}

/* Each command's own options, from the table it parses with. */
TEST(command_options)
{
	static const struct {
		const char *cmd, *sub, *cur, *want;
	} rows[] = {
		{ "list", NULL, "--", "--output=" },
		{ "guard", NULL, "--f", "--force-destroy=" },
		{ "raid", "plan", "--ch", "--chunk=" },
		{ "fs", "create", "--m", "--mount=" },
		{ "compare", NULL, "--thr", "--threshold=" },
		{ "latency", NULL, "--co", "--count=" },
		{ "replay", NULL, "-", "-c" },
		{ "fileio", "run", "--file-te", "--file-test-mode" },
		{ "files", NULL, "--st", "--stall-timeout" },
		{ "stripe-tune", NULL, "--ch", "--chunks" },
		{ "run", NULL, "--out", "--output-format" },
		{ "qualify", NULL, "--pro", "--profile=" },
	};
	struct run_result r;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		if (rows[i].sub)
			COMPLETE(&r, rows[i].cmd, rows[i].sub, rows[i].cur);
		else
			COMPLETE(&r, rows[i].cmd, rows[i].cur);
		EXPECT_TRUE(has_line(r.out, rows[i].want))
			TH_LOG("%s %s: no %s in: %s", rows[i].cmd, rows[i].cur, rows[i].want,
			       r.out);
		/* what is offered starts with what was typed */
		for (char *p = r.out; *p; p = strchr(p, '\n') + 1)
			EXPECT_EQ(0, strncmp(p, rows[i].cur, strlen(rows[i].cur)));
		run_result_free(&r);
	}
}

/* Every command answers with its options: none missed the hook. */
TEST(every_command_has_options)
{
	struct run_result cmds, r;

	COMPLETE(&cmds, "");
	for (char *c = strtok(cmds.out, "\n"); c; c = strtok(NULL, "\n")) {
		if (!strcmp(c, "fs") || !strcmp(c, "raid"))
			COMPLETE(&r, c, "destroy", "-");
		else
			COMPLETE(&r, c, "-");
		EXPECT_TRUE(has_line(r.out, "--help") || has_line(r.out, "-h"))
			TH_LOG("%s: %s", c, r.out);
		run_result_free(&r);
	}
	run_result_free(&cmds);
}

/* fio's job options after run and stripe-tune, "=" on those that take a value */
TEST(job_options)
{
	struct run_result r;

	COMPLETE(&r, "run", "--iod");
	EXPECT_TRUE(has_line(r.out, "--iodepth="));
	EXPECT_TRUE(has_line(r.out, "--iodepth_batch_complete_min="));
	run_result_free(&r);
	COMPLETE(&r, "run", "--time_b");
	EXPECT_STREQ("--time_based\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "stripe-tune", "a,b", "--chunks=64k", "--ioe");
	EXPECT_STREQ("--ioengine=\n", r.out);
	run_result_free(&r);
	/* a refused fio option is not offered */
	COMPLETE(&r, "run", "--ioschedu");
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
}

/*
 * Values: bash's COMP_WORDBREAKS cuts "--rw=ra" into "--rw" "=" "ra" and
 * replaces only the "ra"; without '=' in it, the whole word.
 */
TEST(closed_value_sets)
{
	static const char *const engines[] = { "io_uring", "libaio", "psync", "sync", "pvsync",
						"pvsync2", "sg", "nop" };
	static const char *const opts[] = { "rw", "ioengine", "verify", "fallocate", "direct",
					    "zonemode", "sync", "random_generator" };
	struct run_result r;

	COMPLETE(&r, "run", "--rw", "=", "ra");
	EXPECT_STREQ("randread\nrandwrite\nrandrw\nrandtrim\nrandtrimwrite\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "run", "--rw=ra");
	EXPECT_STREQ("--rw=randread\n--rw=randwrite\n--rw=randrw\n--rw=randtrim\n"
		     "--rw=randtrimwrite\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "run", "--ioengine", "=");
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		EXPECT_TRUE(has_line(r.out, engines[i])) TH_LOG("%s: %s", engines[i], r.out);
	}
	run_result_free(&r);
	COMPLETE(&r, "run", "--verify", "=", "crc");
	EXPECT_TRUE(has_line(r.out, "crc32c"));
	EXPECT_TRUE(has_line(r.out, "crc64"));
	EXPECT_FALSE(has_line(r.out, "md5"));
	run_result_free(&r);

	/* every value offered is one "blkqual run" takes */
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		char opt[64];
		int nr = 0;

		snprintf(opt, sizeof(opt), "--%s", opts[i]);
		COMPLETE(&r, "run", opt, "=");
		for (char *v = strtok(r.out, "\n"); v; v = strtok(NULL, "\n"), nr++) {
			struct run_result ok;
			char arg[128];

			snprintf(arg, sizeof(arg), "--%s=%s", opts[i], v);
			ASSERT_EQ(0, run_blkqual(&ok, "run", "--name=x", "--filename=/dev/null",
						 "--size=4k", "--ioengine=nop", arg,
						 "--runtime=1", "--number_ios=1", "-o", "json",
						 "--no-status", NULL));
			/* taken: whatever else happens, no word about the value */
			strcat(arg, ": ");
			EXPECT_EQ(NULL, strstr(ok.err, arg)) TH_LOG("%s", ok.err);
			run_result_free(&ok);
		}
		EXPECT_LE(2, nr) TH_LOG("%s: %d values", opts[i], nr);
		run_result_free(&r);
	}

	/* sysbench's options after fileio, from its own setter */
	COMPLETE(&r, "fileio", "--file-test-mode", "=", "rnd");
	EXPECT_STREQ("rndrd\nrndwr\nrndrw\n", r.out);
	run_result_free(&r);
	COMPLETE(&r, "fileio", "prepare", "--file-fsync-mode=");
	EXPECT_STREQ("--file-fsync-mode=fsync\n--file-fsync-mode=fdatasync\n", r.out);
	run_result_free(&r);

	/* an open value (a size) offers nothing (and bash offers file names) */
	ASSERT_EQ(0, run_blkqual(&r, "__complete", "4", "blkqual", "run", "--bs", "=", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
}

TEST(file_names_where_nothing_else_fits)
{
	char dir[] = "/tmp/blkqual-compl.XXXXXX", file[64], want[80];
	struct run_result r;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/job.fio", dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	snprintf(want, sizeof(want), "%s/jo", dir);
	COMPLETE(&r, "run", want);
	EXPECT_TRUE(has_line(r.out, file)) TH_LOG("%s", r.out);
	run_result_free(&r);
	COMPLETE(&r, "run", "--filename", "=", want);
	EXPECT_TRUE(has_line(r.out, file)) TH_LOG("%s", r.out);
	run_result_free(&r);
	unlink(file);
	rmdir(dir);
}

/* make install: where bash-completion looks, under DESTDIR */
TEST(installed_where_bash_completion_looks)
{
	const char *argv[] = { "make", "-s", "-n", "-C", srctree_path(), "install",
			       "DESTDIR=/destdir", NULL };
	struct run_result r, pc;
	char want[512];
	const char *dir = "/usr/share/bash-completion/completions";
	const char *pcargv[] = { "pkg-config", "--variable=completionsdir", "bash-completion",
				 NULL };

	if (run_argv(pcargv, &pc) == 0 && pc.status == 0 && pc.out[0] == '/') {
		pc.out[strcspn(pc.out, "\n")] = '\0';
		dir = pc.out;
	}
	snprintf(want, sizeof(want), "/destdir%s/blkqual", dir);
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("no %s in: %s", want, r.out);
	EXPECT_NE(NULL, strstr(r.out, "tools/completion/blkqual.bash"));
	run_result_free(&r);
	run_result_free(&pc);
}

TEST_HARNESS_MAIN
