// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_stats.c - fio's options for the percentiles a report shows
 *
 * percentile_list (up to 20, colon-separated, 0 to 100; the report lists
 * them in ascending order, as fio does), clat_percentiles (on unless
 * set to 0), lat_percentiles and significant_figures (1 to 10, for the
 * text report).  They change what is reported, not what is measured.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int set_list(const char *key, const char *val, struct bq_job *job,
		    struct bq_parse_error *err)
{
	double list[BQ_PCT_LIST_MAX];
	unsigned int precision = 0;
	const char *p = val;
	int n = 0;

	do {
		size_t len = strcspn(p, ":");
		const char *dot;
		char num[64], *end;
		double v;

		if (!len || len >= sizeof(num))
			return bq_parse_fail(err, -EINVAL, "%s=%s: '%.*s' is not a percentage",
					     key, val, (int)len, p);
		snprintf(num, sizeof(num), "%.*s", (int)len, p);
		v = strtod(num, &end);
		if (*end || !isfinite(v) || v <= 0 || v > 100)
			return bq_parse_fail(err, -EINVAL, "%s=%s: '%s' is not a percentage over "
					     "0 and at most 100", key, val, num);
		if (n == BQ_PCT_LIST_MAX)
			return bq_parse_fail(err, -EINVAL, "%s=%s: more than %d percentiles", key,
					     val, BQ_PCT_LIST_MAX);
		/* fio shows the list with as many decimals as it was written with. */
		dot = strchr(num, '.');
		if (dot && strlen(dot + 1) > precision)
			precision = (unsigned int)strlen(dot + 1);
		list[n++] = v;
		p += len;
	} while (*p++ == ':');
	qsort(list, (size_t)n, sizeof(list[0]), cmp_double);
	memcpy(job->pct_list, list, (size_t)n * sizeof(list[0]));
	job->nr_pct_list = (uint8_t)n;
	job->pct_precision = (uint8_t)(precision > 9 ? 9 : precision);
	return 0;
}

static int parse_flag(const char *key, const char *val, bool *b, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1")) {
		*b = true;
		return 0;
	}
	if (!strcmp(val, "0")) {
		*b = false;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
}

/**
 * bq_opt_set_stats() - set one of fio's percentile options
 * @o: the option (unused: one setter for the four)
 * @key: its name
 * @val: its value (NULL for a bare flag)
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_opt_set_stats(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;
	bool b = false;
	int ret;

	(void)o;
	if (!strcmp(key, "percentile_list"))
		return set_list(key, val, job, err);
	if (!strcmp(key, "significant_figures")) {
		if (bq_parse_dec(val, &v) || v < 1 || v > 10)
			return bq_parse_fail(err, -EINVAL, "%s=%s: a whole number from 1 to 10",
					     key, val);
		job->sig_figs = (uint8_t)v;
		return 0;
	}
	ret = parse_flag(key, val, &b, err);
	if (ret)
		return ret;
	if (!strcmp(key, "clat_percentiles"))
		job->clat_pct_off = !b;
	else
		job->lat_pct = b;
	return 0;
}

/**
 * bq_job_stats_args() - the percentile options a job was given, as options
 * @job: the job
 * @args: receives them (appended)
 *
 * Return: 0 or -ENOMEM.
 */
int bq_job_stats_args(const struct bq_job *job, struct bq_strv *args)
{
	char buf[BQ_PCT_LIST_MAX * 24 + 32];
	size_t used;
	int ret = 0;

	if (job->nr_pct_list) {
		used = (size_t)snprintf(buf, sizeof(buf), "--percentile_list=");
		for (int i = 0; i < job->nr_pct_list && used < sizeof(buf); i++)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%.*f",
						 i ? ":" : "", job->pct_precision,
						 job->pct_list[i]);
		ret = bq_strv_add(args, buf);
	}
	if (!ret && job->clat_pct_off)
		ret = bq_strv_add(args, "--clat_percentiles=0");
	if (!ret && job->lat_pct)
		ret = bq_strv_add(args, "--lat_percentiles=1");
	if (!ret && job->sig_figs) {
		snprintf(buf, sizeof(buf), "--significant_figures=%u", job->sig_figs);
		ret = bq_strv_add(args, buf);
	}
	return ret;
}
