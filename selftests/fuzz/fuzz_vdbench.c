// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_vdbench.c - vdbench parameter files: bq_files_parse_files() and
 * bq_files_plan() for every run definition, its format run too
 *
 * The private directory holds the input as "parm" and a file it may
 * include, "inc.parm".  include= with a path is skipped: /dev/zero is a
 * file too, and reading it would take all the memory there is.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blkqual_files.h"
#include "fuzz.h"

static const char inc_parm[] = "fsd=inc,anchor=/tmp/inc,depth=1,width=2,files=3,size=4k\n";

static const struct bq_files_var vars[] = {
	{ "anchor", "/tmp/anchor" },
	{ "n", "2" },
	{ "op", "read" },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	fuzz_write_file("inc.parm", inc_parm, strlen(inc_parm));
	return 0;
}

/* A line with include and a path (or a $variable that could hold one). */
static bool includes_a_path(const char *s)
{
	for (const char *p = s; (p = strcasestr(p, "include")); p++) {
		size_t line = strcspn(p, "\n");

		if (strcspn(p, "/$") < line)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *paths[] = { "parm" };
	struct bq_files_parms p = { 0 };
	struct bq_files_plan plan;
	struct bq_parse_error err;
	char *text = fuzz_strndup(data, size);

	/* getline() reads past a NUL: look at every line. */
	for (size_t i = 0; i < size; i++)
		if (!text[i])
			text[i] = ' ';
	if (includes_a_path(text))
		goto out_free_text;
	fuzz_write_file("parm", data, size);
	fuzz_enter();
	if (bq_files_parse_files(paths, 1, vars, sizeof(vars) / sizeof(vars[0]), &p, &err))
		goto out_free_parms;
	for (size_t rd = 0; rd < p.nr_rd; rd++) {
		for (int format = 0; format < 2; format++) {
			if (bq_files_plan(&p, rd, format, &plan, &err))
				continue;
			bq_files_plan_free(&plan);
		}
	}
	for (size_t i = 0; i < p.nr_fsd; i++) {
		uint64_t dirs, files, bytes;

		bq_files_tree_size(&p.fsd[i], &dirs, &files, &bytes);
	}
out_free_parms:
	bq_files_parms_free(&p);
	fuzz_leave();
out_free_text:
	free(text);
	return 0;
}
