// SPDX-License-Identifier: GPL-2.0-only
/*
 * help_test.c - "blkqual COMMAND --help" and "-h" for every command and
 * subcommand: the usage on stdout, nothing on stderr, exit 0
 *
 * The commands are the ones "blkqual --help" lists, the subcommands the
 * ones the completion offers after them, so a command added to either
 * table is walked too.  --help after other arguments counts as well: a
 * user who typed half a command line and wants to know the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "helpers/run.h"

#define MAX_WORDS 32

/* The first word of each line of @text that starts with @indent, or each line. */
static int words_of(char *text, const char *indent, char *words[], int max)
{
	int n = 0;

	for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
		size_t len = indent ? strlen(indent) : 0;

		if (indent && (strncmp(line, indent, len) || line[len] == ' '))
			continue;
		line += len;
		line[strcspn(line, " ")] = '\0';
		if (*line)
			words[n++] = line;
	}
	return n;
}

static void expect_usage(struct __test_metadata *_metadata, const char *const *argv,
			 const char *cmd)
{
	char want[64];
	struct run_result r;

	snprintf(want, sizeof(want), "usage: blkqual %s", cmd);
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%s %s %s: exit %d: %s", argv[1], argv[2],
				      argv[3] ? argv[3] : "", r.status, r.err);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s %s: no '%s' in: %s", argv[1], argv[2],
						   want, r.out);
	EXPECT_STREQ("", r.err);
	run_result_free(&r);
}

TEST(every_command_and_subcommand)
{
	static const char *const helps[] = { "--help", "-h" };
	char *cmds[MAX_WORDS];
	struct run_result top;
	int nr;

	ASSERT_EQ(0, run_blkqual(&top, "--help", NULL));
	ASSERT_EQ(0, top.status);
	nr = words_of(top.out, "  ", cmds, MAX_WORDS);
	/* the list is blkqual's whole command table */
	ASSERT_LE(18, nr) TH_LOG("%s", top.out);
	for (int i = 0; i < nr; i++) {
		struct run_result subs;
		char *sub[MAX_WORDS];
		int nr_sub;

		for (size_t h = 0; h < ARRAY_SIZE(helps); h++) {
			const char *argv[] = { blkqual_path(), cmds[i], helps[h], NULL };

			expect_usage(_metadata, argv, cmds[i]);
		}
		/* the subcommands, as the completion knows them */
		ASSERT_EQ(0, run_blkqual(&subs, "__complete", "2", "blkqual", cmds[i], "", NULL));
		ASSERT_EQ(0, subs.status) TH_LOG("%s", subs.err);
		nr_sub = words_of(subs.out, NULL, sub, MAX_WORDS);
		for (int k = 0; k < nr_sub; k++) {
			for (size_t h = 0; h < ARRAY_SIZE(helps); h++) {
				const char *argv[] = { blkqual_path(), cmds[i], sub[k], helps[h],
						       NULL };

				expect_usage(_metadata, argv, cmds[i]);
			}
		}
		run_result_free(&subs);
	}
	run_result_free(&top);
}

/* --help wins over what was typed before it, even what would be wrong */
TEST(help_after_other_arguments)
{
	static const char *const lines[][6] = {
		{ "stripe-tune", "/dev/null,/dev/zero", "--chunks=64k", "--help" },
		{ "stripe-tune", "--chunks=64k", "-h" },
		{ "run", "--name=x", "--rw=randread", "--help" },
		{ "files", "-f", "/nonexistent.parm", "--help" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		const char *argv[8] = { blkqual_path() };

		for (int k = 0; k < 6 && lines[i][k]; k++)
			argv[k + 1] = lines[i][k];
		expect_usage(_metadata, argv, lines[i][0]);
	}
}

TEST_HARNESS_MAIN
