// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_groups.c - the values of fio's job ordering options: wait_for,
 * exit_what, loops and startdelay ranges (the flags use the plain setters)
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_groups.h"

int bq_opt_set_wait_for(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	if (strlen(val) >= sizeof(job->wait_for))
		return bq_parse_fail(err, -EINVAL, "%s=%s: a job name is at most %zu characters",
				     key, val, sizeof(job->wait_for) - 1);
	/* Which job it names is checked once all jobs are known (bq_run). */
	strcpy(job->wait_for, val);
	return 0;
}

int bq_opt_set_exit_what(const struct job_opt *o, const char *key, const char *val,
			 struct bq_job *job, struct bq_parse_error *err)
{
	static const char *const names[] = {
		[BQ_EXIT_GROUP] = "group",
		[BQ_EXIT_STONEWALL] = "stonewall",
		[BQ_EXIT_ALL] = "all",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(val, names[i])) {
			job->exit_what = (int)i;
			return 0;
		}
	return bq_parse_fail(err, -EINVAL, "%s=%s: one of group, stonewall, all", key, val);
}

int bq_opt_set_loops(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)*val) ? strtoull(val, &end, 10) : 0;
	if (!isdigit((unsigned char)*val) || *end || errno || v > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a count (0..%u)", key, val,
				     UINT32_MAX);
	/* fio runs loops=0 once, as loops=1. */
	job->loops = (unsigned int)v;
	return 0;
}

static int one_time(const char *key, const char *s, uint64_t *ns, struct bq_parse_error *err)
{
	int ret = bq_parse_time(s, 1000000000ULL, ns);

	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too long", key, s);
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a duration (like 10, 500ms, 2m)",
				     key, s);
	return 0;
}

/* "5", "500ms", or fio's range "1-5" / "1:5": each thread draws from it. */
int bq_opt_set_startdelay(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err)
{
	char lo[64];
	const char *sep = strpbrk(val, "-:");
	uint64_t a, b = 0;
	int ret;

	if (!sep) {
		ret = one_time(key, val, &a, err);
		if (ret)
			return ret;
		job->startdelay_ns = a;
		job->startdelay_max_ns = 0;
		return 0;
	}
	if ((size_t)(sep - val) >= sizeof(lo) || sep == val)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a duration range (like 1-5)",
				     key, val);
	memcpy(lo, val, (size_t)(sep - val));
	lo[sep - val] = '\0';
	ret = one_time(key, lo, &a, err);
	if (!ret)
		ret = one_time(key, sep + 1, &b, err);
	if (ret)
		return ret;
	if (b < a)
		return bq_parse_fail(err, -EINVAL, "%s=%s: the range ends before it begins",
				     key, val);
	job->startdelay_ns = a;
	job->startdelay_max_ns = b == a ? 0 : b;
	return 0;
}
