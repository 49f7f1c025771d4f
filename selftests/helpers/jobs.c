// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobs.c - test helper: one job option set on a job with fio's defaults
 */
#include <stdarg.h>
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
