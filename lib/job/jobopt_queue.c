// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_queue.c - the values of fio's queueing options that are not
 * plain numbers or flags (those use jobopt.c's setters)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_queue.h"

int bq_opt_set_submit_mode(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "inline"))
		return 0;
	if (!strcmp(val, "offload"))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=offload is not supported: each blkqual "
				     "thread submits and reaps its own I/O, with no submitter pool",
				     key);
	return bq_parse_fail(err, -EINVAL, "%s=%s: one of inline, offload", key, val);
}

/* prio= and prioclass=: the thread's I/O priority, as ioprio_set(2) takes it. */
int bq_opt_set_ioprio(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	bool is_class = !strcmp(key, "prioclass");
	unsigned int max = is_class ? 3 : 7;
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (!*val || *end || errno || v < 0 || v > max)
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 to %u", key, val, max);
	if (is_class)
		job->ioprio_class = (unsigned int)v;
	else
		job->ioprio = (unsigned int)v;
	job->ioprio_set = true;
	return 0;
}
