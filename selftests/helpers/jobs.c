// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobs.c - test helper: one job option set on a job with fio's defaults
 */
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
	ret = bq_job_set(&job, key, value, err);
	if (out) {
		*out = job;
		memset(out->filenames, 0, sizeof(out->filenames));
		out->nr_files = 0;
	}
	bq_job_release(&job);
	return ret;
}
