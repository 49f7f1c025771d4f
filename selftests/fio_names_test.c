// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_names_test.c - every option name fio knows is known here too
 *
 * A fio job file must never meet "unknown option" for a name fio has: it
 * is either supported or refused by name with a reason.  The names come
 * from the installed fio itself (--cmdhelp=all, and --enghelp for each
 * engine blkqual has), so a newer fio shows what is missing.  The table in
 * Documentation/fio-options.rst is the command's own output, kept current.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/run.h"
#include "job/jobopt.h"

/* The engines blkqual has, by fio's names. */
static const char *const our_engines[] = {
	"io_uring", "io_uring_cmd", "libaio", "psync", "sync", "pvsync", "pvsync2", "sg", "null",
};

/*
 * Read "name : description" lines from @cmd into @names; fio indents
 * options of a group and prints the engine's own options the same way.
 */
static int fio_names(const char *cmd, char (*names)[64], int max, int n)
{
	char line[512];
	FILE *p = popen(cmd, "r");

	if (!p)
		return -1;
	while (n < max && fgets(line, sizeof(line), p)) {
		char name[64];

		if (sscanf(line, " %63[a-z0-9_-] :", name) == 1 && strchr(line, ':'))
			strcpy(names[n++], name);
	}
	pclose(p);
	return n;
}

static bool have_fio(void)
{
	return system("fio --version >/dev/null 2>&1") == 0;
}

TEST(every_fio_option_is_supported_or_refused_by_name)
{
	static char names[1024][64];
	char cmd[128];
	int n, unknown = 0;

	if (!have_fio())
		SKIP(return, "fio is not installed");
	n = fio_names("fio --cmdhelp=all 2>/dev/null", names, 1024, 0);
	ASSERT_GT(n, 100) TH_LOG("fio --cmdhelp=all listed %d options", n);
	for (size_t e = 0; e < ARRAY_SIZE(our_engines); e++) {
		snprintf(cmd, sizeof(cmd), "fio --enghelp=%s 2>/dev/null", our_engines[e]);
		n = fio_names(cmd, names, 1024, n);
	}
	for (int i = 0; i < n; i++) {
		struct bq_parse_error err = { 0 };
		struct bq_job job;
		int ret;

		bq_job_defaults(&job);
		ret = bq_job_set(&job, names[i], "1", &err);
		bq_job_release(&job);
		if (ret == -ENOENT && !strncmp(err.msg, "unknown option", 14)) {
			TH_LOG("fio option '%s': %s", names[i], err.msg);
			unknown++;
		}
	}
	EXPECT_EQ(0, unknown);
}

TEST(a_refusal_says_why)
{
	static const char *const refused[] = { "ioscheduler", "exec_prerun", "cgroup" };

	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_job job;

		bq_job_defaults(&job);
		EXPECT_EQ(-EOPNOTSUPP, bq_job_set(&job, refused[i], "1", &err));
		bq_job_release(&job);
		/* "fio option 'X' is not supported by blkqual: REASON" */
		EXPECT_NE(NULL, strstr(err.msg, "blkqual: ")) TH_LOG("%s", err.msg);
	}
}

TEST(documented_table_is_the_code)
{
	struct run_result r;
	char path[4096];
	char *doc;

	snprintf(path, sizeof(path), "%s/Documentation/fio-options.rst", srctree_path());
	doc = slurp(path);
	ASSERT_NE(NULL, doc) TH_LOG("%s: cannot read", path);
	ASSERT_EQ(0, run_blkqual(&r, "options", "-o", "rst", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ(doc, r.out) TH_LOG("%s is stale: run 'make fio-options-doc'", path);
	run_result_free(&r);
	free(doc);
}

TEST(options_command)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "options", "bs", "stonewall", "frobnicate", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(3, count_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "frobnicate")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "unknown")) TH_LOG("%s", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "options", "-o", "yaml", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "options", "-o", "rst", "bs", NULL));
	EXPECT_EQ(2, r.status);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
