// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_dp.c - fio's NVMe data placement options for io_uring_cmd
 * writes: fdp, dataplacement (data_placement), plid_select
 * (fdp_pli_select), plids (fdp_pli) and dp_scheme (issue 19)
 *
 * The directive each write carries is picked in lib/engines/nvme_dp.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "jobopt.h"

/* The values' names, in enum bq_dp_type and enum bq_dp_select order. */
static const char *const types[] = { "none", "fdp", "streams" };
static const char *const selects[] = { "roundrobin", "random", "scheme" };

static int u16_cmp(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

/* One number of a plids= list, as fio reads it (decimal, 0x hex or 0 octal). */
static int plid_number(const char *key, const char *s, size_t len, unsigned long *v,
		       struct bq_parse_error *err)
{
	char num[32], *end;

	if (!len || len >= sizeof(num))
		return bq_parse_fail(err, -EINVAL, "%s: '%.*s' is not a number", key, (int)len, s);
	memcpy(num, s, len);
	num[len] = '\0';
	errno = 0;
	*v = strtoul(num, &end, 0);
	if (errno || *end || num[0] == '-')
		return bq_parse_fail(err, -EINVAL, "%s: '%s' is not a number", key, num);
	if (*v > 0xffff)
		return bq_parse_fail(err, -EINVAL, "%s: %s is more than 0xffff", key, num);
	return 0;
}

/* "1,2-4,5": values and ranges, kept in ascending order as fio keeps them. */
static int set_plids(const char *key, const char *val, struct bq_job *job,
		     struct bq_parse_error *err)
{
	unsigned int n = 0;
	const char *p = val;

	while (*p == ' ')
		p++;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *dash = memchr(p, '-', len);
		unsigned long lo, hi;
		int ret;

		if (!len)
			break;
		ret = plid_number(key, p, dash ? (size_t)(dash - p) : len, &lo, err);
		if (!ret)
			ret = dash ? plid_number(key, dash + 1, len - (size_t)(dash - p) - 1, &hi,
						 err) : (hi = lo, 0);
		if (ret)
			return ret;
		if (lo > hi)
			return bq_parse_fail(err, -EINVAL, "%s=%s: range %lu-%lu runs backwards",
					     key, val, lo, hi);
		for (; lo <= hi; lo++) {
			if (n == BQ_DP_MAX_IDS)
				return bq_parse_fail(err, -EINVAL, "%s=%s: at most %d identifiers",
						     key, val, BQ_DP_MAX_IDS);
			job->dp_ids[n++] = (uint16_t)lo;
		}
		p += len + (p[len] == ',');
	}
	if (!n)
		return bq_parse_fail(err, -EINVAL, "%s=%s: no identifier", key, val);
	qsort(job->dp_ids, n, sizeof(job->dp_ids[0]), u16_cmp);
	job->dp_nr_ids = (uint16_t)n;
	return 0;
}

/**
 * bq_job_set_dp() - dataplacement=, plid_select=, plids= and dp_scheme=,
 * under fio's names and aliases
 * @o: the option
 * @key: as given
 * @val: its value
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_set_dp(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err)
{

	(void)o;
	if (!strcmp(key, "dataplacement") || !strcmp(key, "data_placement")) {
		for (size_t i = 0; i < ARRAY_SIZE(types); i++)
			if (!strcmp(val, types[i])) {
				job->dp_type = (uint8_t)i;
				job->dp_type_set = true;
				return 0;
			}
		return bq_parse_fail(err, -EINVAL, "%s=%s: use none, fdp or streams", key, val);
	}
	if (!strcmp(key, "plid_select") || !strcmp(key, "fdp_pli_select")) {
		for (size_t i = 0; i < ARRAY_SIZE(selects); i++)
			if (!strcmp(val, selects[i])) {
				job->dp_select = (uint8_t)i;
				return 0;
			}
		return bq_parse_fail(err, -EINVAL, "%s=%s: use roundrobin, random or scheme", key,
				     val);
	}
	if (!strcmp(key, "dp_scheme")) {
		if (!*val || strlen(val) >= sizeof(job->dp_scheme))
			return bq_parse_fail(err, -EINVAL, "%s: give the scheme file's path", key);
		strcpy(job->dp_scheme, val);
		return 0;
	}
	return set_plids(key, val, job, err);
}

/**
 * bq_job_dp_type() - the placement directive a job's writes carry
 * @job: the job
 *
 * Return: BQ_DP_NONE, BQ_DP_FDP (dataplacement=fdp or fdp=1) or
 * BQ_DP_STREAMS.
 */
enum bq_dp_type bq_job_dp_type(const struct bq_job *job)
{
	return job->dp_fdp ? BQ_DP_FDP : (enum bq_dp_type)job->dp_type;
}

/**
 * bq_job_check_dp() - fio's rules for the data placement options
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_check_dp(const struct bq_job *job, struct bq_parse_error *err)
{
	enum bq_dp_type type = bq_job_dp_type(job);
	struct stat st;

	if (job->dp_fdp && job->dp_type_set && job->dp_type != BQ_DP_FDP)
		return bq_parse_fail(err, -EINVAL, "fdp=1 does not go with dataplacement=%s",
				     job->dp_type == BQ_DP_STREAMS ? "streams" : "none");
	if (type == BQ_DP_NONE)
		return 0;
	/* fio's io_uring_cmd and xnvme engines place writes; blkqual's io_uring_cmd does. */
	if (job->engine != BQ_ENGINE_URING_CMD)
		return bq_parse_fail(err, -EINVAL, "%s needs ioengine=io_uring_cmd",
				     type == BQ_DP_FDP ? "fdp" : "dataplacement=streams");
	if (type == BQ_DP_STREAMS && !job->dp_nr_ids && job->dp_select != BQ_DP_SCHEME)
		return bq_parse_fail(err, -EINVAL, "dataplacement=streams needs the stream "
				     "identifiers in plids=");
	if (job->dp_select == BQ_DP_SCHEME) {
		if (!job->dp_scheme[0])
			return bq_parse_fail(err, -EINVAL, "plid_select=scheme needs dp_scheme=FILE");
		if (lstat(job->dp_scheme, &st))
			return bq_parse_fail(err, -EINVAL, "dp_scheme=%s: %s", job->dp_scheme,
					     strerror(errno));
		if (!S_ISREG(st.st_mode))
			return bq_parse_fail(err, -EINVAL, "dp_scheme=%s: not a regular file",
					     job->dp_scheme);
	}
	return 0;
}

/**
 * bq_job_dp_args() - the data placement options that make @job again
 * @job: the job
 * @args: receives them
 *
 * Return: 0 or -ENOMEM.
 */
int bq_job_dp_args(const struct bq_job *job, struct bq_strv *args)
{
	char ids[BQ_DP_MAX_IDS * 6 + 1];
	size_t at = 0;
	int ret;

	ret = bq_argf(args, "--dataplacement=%s", types[bq_job_dp_type(job)]);
	ret = ret ?: bq_argf(args, "--plid_select=%s", selects[job->dp_select]);
	for (unsigned int i = 0; i < job->dp_nr_ids; i++)
		at += (size_t)snprintf(ids + at, sizeof(ids) - at, "%s%u", i ? "," : "",
				       job->dp_ids[i]);
	if (job->dp_nr_ids)
		ret = ret ?: bq_argf(args, "--plids=%s", ids);
	if (job->dp_scheme[0])
		ret = ret ?: bq_argf(args, "--dp_scheme=%s", job->dp_scheme);
	return ret;
}
