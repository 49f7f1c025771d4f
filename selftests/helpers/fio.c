// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio.c - test helper: run fio on the same job as blkqual, so that a test
 * can check blkqual's counts against the tool its users compare it with
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/fio.h"
#include "helpers/run.h"

/**
 * have_fio() - whether fio can be run here
 *
 * Return: true when "fio --version" works.
 */
bool have_fio(void)
{
	return system("fio --version >/dev/null 2>&1") == 0;
}

/**
 * fio_run_json_status() - run fio with @args and --output-format=json
 * @args: fio's arguments (job options or a job file), NULL-terminated,
 *        at most 30
 * @status: fio's exit status
 *
 * Return: fio's JSON document (json_object_put() it), whatever fio's exit
 * status (a job that failed its own verify still has one), or NULL when
 * it printed none (its stderr goes to the test's).
 */
json_object *fio_run_json_status(const char *const *args, int *status)
{
	const char *argv[34] = { "fio", "--output-format=json" };
	struct run_result r;
	json_object *root = NULL;
	const char *brace;
	int n = 2;

	*status = -1;
	for (int i = 0; args[i] && n < 33; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_argv(argv, &r))
		return NULL;
	*status = r.status;
	/* fio may print notes before its document. */
	brace = r.out ? strchr(r.out, '{') : NULL;
	if (brace)
		root = json_tokener_parse(brace);
	if (!root || r.status)
		fprintf(stderr, "# fio exit %d: %.300s\n", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

/**
 * fio_run_json() - fio_run_json_status() for a run that must succeed
 * @args: as there
 *
 * Return: fio's JSON document, or NULL when fio failed or printed none.
 */
json_object *fio_run_json(const char *const *args)
{
	int status;
	json_object *root = fio_run_json_status(args, &status);

	if (status) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

/**
 * fio_total_ios() - I/Os of one direction, summed over fio's jobs
 * @root: fio's JSON document
 * @dir: "read", "write" or "trim"
 *
 * Return: the sum of jobs[].@dir.total_ios, or -1 when there is none.
 */
long long fio_total_ios(json_object *root, const char *dir)
{
	json_object *jobs, *d, *v;
	long long sum = 0;
	size_t n;

	if (!json_object_object_get_ex(root, "jobs", &jobs))
		return -1;
	n = json_object_array_length(jobs);
	for (size_t i = 0; i < n; i++) {
		if (!json_object_object_get_ex(json_object_array_get_idx(jobs, i), dir, &d) ||
		    !json_object_object_get_ex(d, "total_ios", &v))
			return -1;
		sum += json_object_get_int64(v);
	}
	return n ? sum : -1;
}
