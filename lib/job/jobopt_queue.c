// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_queue.c - the values of fio's queueing options that are not
 * plain numbers or flags (those use jobopt.c's setters)
 */
#include <errno.h>
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
