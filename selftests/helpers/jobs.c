// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobs.c - test helper: one job option set on a job with fio's defaults
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "helpers/jobs.h"
#include "job/jobopt.h"

/**
 * set1() - bq_job_set() of one option on a job with fio's defaults
 * @key: the option
 * @value: its value, or NULL for a bare flag
 * @out: receives the job without its filenames (freed here), or NULL
 * @err: filled in on failure
 *
 * Return: what bq_job_set() returned.
 */
int set1(const char *key, const char *value, struct bq_job *out, struct bq_parse_error *err)
{
	struct bq_job job;
	int ret;

	bq_job_defaults(&job);
	memset(err, 0, sizeof(*err));
	ret = bq_job_set(&job, key, value, err);
	if (out) {
		*out = job;
		memset(out->filenames, 0, sizeof(out->filenames));
		out->nr_files = 0;
	}
	bq_job_release(&job);
	return ret;
}

/**
 * jobs_of() - bq_jobs_from_args() of a NULL-terminated list of arguments
 * @set: receives the jobs
 * @err: filled in on failure
 *
 * Return: what bq_jobs_from_args() returned.
 */
int jobs_of(struct bq_jobset *set, struct bq_parse_error *err, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, err);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return bq_jobs_from_args(argc, argv, set, err);
}

/**
 * job_of_opts() - a job on /dev/null with @opts applied, then checked whole
 * @opts: NULL-terminated "key=value" or "key"
 * @out: receives the job (the caller releases it), or NULL
 * @err: filled in on failure
 *
 * Return: the first failure of bq_job_set() or bq_job_check(), or 0.
 */
int job_of_opts(const char *const *opts, struct bq_job *out, struct bq_parse_error *err)
{
	struct bq_job job;
	int ret;

	bq_job_defaults(&job);
	memset(err, 0, sizeof(*err));
	ret = bq_job_set(&job, "filename", "/dev/null", err);
	for (int i = 0; !ret && opts[i]; i++) {
		char key[64];
		const char *eq = strchr(opts[i], '=');

		snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - opts[i]) : (int)strlen(opts[i]),
			 opts[i]);
		ret = bq_job_set(&job, key, eq ? eq + 1 : NULL, err);
	}
	if (!ret)
		ret = bq_job_check(&job, err);
	if (out)
		*out = job;
	else
		bq_job_release(&job);
	return ret;
}
