// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_values.c - what a job option takes, asked of the parser itself
 *
 * Shell completion wants the closed sets ("rw=" read, write, randread...).
 * Rather than a second list that would drift from the setters, the setter
 * is asked: a value no option takes makes it name the ones it does ("use
 * a, b or c", "one of a, b", "must be 0 or 1"), and every name offered is
 * then set on a fresh job to prove it is taken.  An open value (a size, a
 * path, "zipf:THETA") is never offered.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_core.h"
#include "blkqual_job.h"
#include "jobopt.h"

/* A value no option takes: it names no mode, number or path. */
#define PROBE_VALUE "\x01"

static int try_set(const char *name, const char *value, struct bq_parse_error *err)
{
	struct bq_job *job = malloc(sizeof(*job));
	int ret;

	if (!job)
		return -ENOMEM;
	bq_job_defaults(job);
	memset(err, 0, sizeof(*err));
	ret = bq_job_set(job, name, value, err);
	bq_job_release(job);
	free(job);
	return ret;
}

static bool job_takes(const char *word, void *name)
{
	struct bq_parse_error err;

	return !try_set(name, word, &err);
}

/**
 * bq_job_opt_values() - the values a job option takes from a closed set
 * @name: the option's fio name
 * @fn: gets each value the parser takes, in the order it names them; a
 *      non-zero return stops the walk
 * @arg: passed through
 *
 * Return: what @fn returned last, 0 when the option takes an open value
 * (or none at all), -ENOENT for an unknown option, -EOPNOTSUPP for a
 * refused one.
 */
int bq_job_opt_values(const char *name, int (*fn)(const char *value, void *arg), void *arg)
{
	struct bq_parse_error err;
	int ret;

	ret = try_set(name, PROBE_VALUE, &err);
	if (ret == -ENOENT || ret == -ENOMEM)
		return ret;
	if (ret == -EOPNOTSUPP && strstr(err.msg, "not supported by blkqual"))
		return -EOPNOTSUPP;
	if (!ret)
		return 0;
	return bq_values_named(err.msg, job_takes, (void *)name, fn, arg);
}
