// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_rates.c - the job options of fio's rate family: rate caps and
 * minimums, thinktime's companions, latency limits and targets, steady
 * state; with fio's defaults and its consistency rules
 *
 * One setter for the whole family (it goes by the option's name), so that
 * the option table gets only rows.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobopt.h"
#include "internal.h"

#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull
#define DIR_VALUE_MAX 256

enum val_kind {
	VAL_SIZE,	/* bytes, fio's suffixes: rate, rate_min */
	VAL_COUNT,	/* plain decimal: rate_iops, rate_iops_min */
	VAL_USEC,	/* a time, microseconds when bare: max_latency */
};

static int parse_one(enum val_kind kind, const char *s, uint64_t *v)
{
	switch (kind) {
	case VAL_SIZE:
		return bq_parse_size(s, v);
	case VAL_COUNT:
		return bq_parse_dec(s, v);
	default:
		return bq_parse_time(s, NS_PER_US, v);
	}
}

/*
 * fio's "read,write[,trim]" values: one value is every direction, an
 * empty side keeps what was there, and the last value given applies to
 * the directions after it unless a comma ends the list (so "1m,500k"
 * caps trims at 500k, "1m," reads alone).  The trim value goes to @trim.
 */
static int set_per_dir(const char *key, const char *val, enum val_kind kind,
		       uint64_t out[BQ_NR_DIRS], uint64_t *trim, struct bq_parse_error *err)
{
	static const char *const what[] = {
		[VAL_SIZE] = "a size (like 500k, 1m)",
		[VAL_COUNT] = "a whole number",
		[VAL_USEC] = "a time (like 500, 10ms)",
	};
	char buf[DIR_VALUE_MAX], *part[BQ_NR_DIRS + 1], *comma;
	uint64_t v[BQ_NR_DIRS + 1];
	int n = 1;

	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s: value is too long", key);
	strcpy(buf, val);
	part[0] = buf;
	while (n <= BQ_NR_DIRS && (comma = strchr(part[n - 1], ','))) {
		*comma = '\0';
		part[n++] = comma + 1;
	}
	if (strchr(part[n - 1], ','))
		return bq_parse_fail(err, -EINVAL, "%s=%s: at most three values (read, write, "
				     "trim)", key, val);
	/* A value not ended by a comma is also the following directions'. */
	if (n == 1)
		part[1] = part[0];
	if (n < 3)
		part[2] = part[1];
	if (!*part[BQ_READ] && !*part[BQ_WRITE] && !*part[BQ_NR_DIRS])
		return bq_parse_fail(err, -EINVAL, "%s=%s: no value for any direction", key, val);
	if (!trim && n == 3 && *part[BQ_NR_DIRS])
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "%s=%s: a third (trim) value is not supported", key, val);
	for (int d = 0; d < BQ_NR_DIRS + 1; d++) {
		int ret;

		if (!*part[d])
			continue;
		ret = parse_one(kind, part[d], &v[d]);
		if (ret == -ERANGE)
			return bq_parse_fail(err, -EINVAL, "%s=%s is too big", key, val);
		if (ret)
			return bq_parse_fail(err, -EINVAL, "%s=%s: not %s", key, val, what[kind]);
		/* fio's I/O rates are 32-bit; a larger one would overflow as bytes/s. */
		if (kind == VAL_COUNT && v[d] > UINT32_MAX)
			return bq_parse_fail(err, -EINVAL, "%s=%s is over %u", key, val, UINT32_MAX);
	}
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (*part[d])
			out[d] = v[d];
	if (trim && *part[BQ_NR_DIRS])
		*trim = v[BQ_NR_DIRS];
	return 0;
}

static int set_time(const char *key, const char *val, uint64_t unit, uint64_t *out,
		    struct bq_parse_error *err)
{
	int ret = bq_parse_time(val, unit, out);

	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too long", key, val);
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a duration (like 10, 500ms, 2s)",
				     key, val);
	return 0;
}

static int set_flag(const char *key, const char *val, bool *out, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1"))
		*out = true;
	else if (!strcmp(val, "0"))
		*out = false;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	return 0;
}

static int set_blocks(const char *key, const char *val, struct bq_job *job,
		      struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v) || !v || v > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 1..%u", key, val, UINT32_MAX);
	job->thinktime_blocks = (uint32_t)v;
	job->thinktime_blocks_set = true;
	return 0;
}

static int set_ratecycle(const char *key, const char *val, struct bq_job *job,
			 struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v) || !v || v > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: milliseconds, 1..%u", key, val,
				     UINT32_MAX);
	job->ratecycle_ms = (uint32_t)v;
	return 0;
}

static int set_percentile(const char *key, const char *val, struct bq_job *job,
			  struct bq_parse_error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (!*val || *end || errno || !isfinite(v) || v < 0 || v > 100)
		return bq_parse_fail(err, -EINVAL, "%s=%s: a percentage, 0..100", key, val);
	job->latency_percentile = v;
	return 0;
}

/* "iops_slope:0.1%", "bw:2m", "iops:5": criterion, then limit (fio requires both). */
static int set_steadystate(const char *key, const char *val, struct bq_job *job,
			   struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		enum bq_ss ss;
	} crit[] = {
		{ "iops", BQ_SS_IOPS }, { "iops_slope", BQ_SS_IOPS_SLOPE },
		{ "bw", BQ_SS_BW }, { "bw_slope", BQ_SS_BW_SLOPE },
		{ "lat", BQ_SS_LAT }, { "lat_slope", BQ_SS_LAT_SLOPE },
	};
	const char *colon = strchr(val, ':'), *lim;
	size_t len = colon ? (size_t)(colon - val) : strlen(val), n;
	char num[64], *end;
	bool pct = false;
	int found = -1;
	double v;

	for (size_t i = 0; i < ARRAY_SIZE(crit); i++)
		if (strlen(crit[i].name) == len && !strncmp(val, crit[i].name, len))
			found = (int)i;
	if (found < 0)
		return bq_parse_fail(err, -EINVAL, "%s=%s: use iops, iops_slope, bw, bw_slope, lat "
				     "or lat_slope, then :LIMIT", key, val);
	if (!colon || !colon[1])
		return bq_parse_fail(err, -EINVAL, "%s=%s: a limit is needed (like %.*s:1%%)", key,
				     val, (int)len, val);
	lim = colon + 1;
	n = strlen(lim);
	if (n >= sizeof(num))
		return bq_parse_fail(err, -EINVAL, "%s=%s: limit is too long", key, val);
	memcpy(num, lim, n + 1);
	if (num[n - 1] == '%') {
		num[--n] = '\0';
		pct = true;
	}
	if (!pct && (crit[found].ss == BQ_SS_BW || crit[found].ss == BQ_SS_BW_SLOPE)) {
		/* An absolute bandwidth limit is a size per second, with fio's suffixes. */
		uint64_t b;

		if (bq_parse_size(num, &b))
			return bq_parse_fail(err, -EINVAL, "%s=%s: limit is not a size or a "
					     "percentage", key, val);
		v = (double)b;
	} else if (!pct && crit[found].ss >= BQ_SS_LAT) {
		/* An absolute latency limit is a time; a bare number is in microseconds, as in fio. */
		uint64_t ns;

		if (bq_parse_time(num, 1000, &ns))
			return bq_parse_fail(err, -EINVAL, "%s=%s: limit is not a time or a "
					     "percentage", key, val);
		v = (double)ns;
	} else {
		errno = 0;
		v = strtod(num, &end);
		if (!n || *end || errno || !isfinite(v) || v < 0)
			return bq_parse_fail(err, -EINVAL, "%s=%s: limit is not a number or a "
					     "percentage", key, val);
	}
	job->ss = crit[found].ss;
	job->ss_limit = v;
	job->ss_pct = pct;
	return 0;
}

static int set_choice(const char *key, const char *val, const char *no, const char *yes,
		      bool *out, struct bq_parse_error *err)
{
	if (!strcmp(val, no))
		*out = false;
	else if (!strcmp(val, yes))
		*out = true;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use %s or %s", key, val, no, yes);
	return 0;
}

int bq_job_set_rates(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	struct bq_job j = *job;
	int ret;

	(void)o;
	if (!strcmp(key, "rate"))
		ret = set_per_dir(key, val, VAL_SIZE, j.rate, &j.rate_trim, err);
	else if (!strcmp(key, "rate_iops"))
		ret = set_per_dir(key, val, VAL_COUNT, j.rate_iops_rw, &j.rate_iops_trim, err);
	else if (!strcmp(key, "rate_min") || !strcmp(key, "ratemin"))
		ret = set_per_dir(key, val, VAL_SIZE, j.rate_min, &j.rate_min_trim, err);
	else if (!strcmp(key, "rate_iops_min"))
		ret = set_per_dir(key, val, VAL_COUNT, j.rate_iops_min, &j.rate_iops_min_trim, err);
	else if (!strcmp(key, "ratecycle") || !strcmp(key, "rate_cycle"))
		ret = set_ratecycle(key, val, &j, err);
	else if (!strcmp(key, "rate_process"))
		ret = set_choice(key, val, "linear", "poisson", &j.rate_poisson, err);
	else if (!strcmp(key, "rate_ignore_thinktime"))
		ret = set_flag(key, val, &j.rate_ignore_thinktime, err);
	else if (!strcmp(key, "thinktime_spin"))
		ret = set_time(key, val, NS_PER_US, &j.thinktime_spin_ns, err);
	else if (!strcmp(key, "thinktime_blocks"))
		ret = set_blocks(key, val, &j, err);
	else if (!strcmp(key, "thinktime_blocks_type"))
		ret = set_choice(key, val, "complete", "issue", &j.thinktime_blocks_issue, err);
	else if (!strcmp(key, "thinktime_iotime"))
		ret = set_time(key, val, NS_PER_S, &j.thinktime_iotime_ns, err);
	else if (!strcmp(key, "max_latency"))
		ret = set_per_dir(key, val, VAL_USEC, j.max_latency_ns, NULL, err);
	else if (!strcmp(key, "latency_target"))
		ret = set_time(key, val, NS_PER_US, &j.latency_target_ns, err);
	else if (!strcmp(key, "latency_window"))
		ret = set_time(key, val, NS_PER_US, &j.latency_window_ns, err);
	else if (!strcmp(key, "latency_percentile"))
		ret = set_percentile(key, val, &j, err);
	else if (!strcmp(key, "latency_run"))
		ret = set_flag(key, val, &j.latency_run, err);
	else if (!strcmp(key, "steadystate") || !strcmp(key, "ss"))
		ret = set_steadystate(key, val, &j, err);
	else if (!strcmp(key, "steadystate_duration") || !strcmp(key, "ss_dur"))
		ret = set_time(key, val, NS_PER_S, &j.ss_dur_ns, err);
	else if (!strcmp(key, "steadystate_ramp_time") || !strcmp(key, "ss_ramp"))
		ret = set_time(key, val, NS_PER_S, &j.ss_ramp_ns, err);
	else if (!strcmp(key, "steadystate_check_interval") || !strcmp(key, "ss_interval"))
		ret = set_time(key, val, NS_PER_S, &j.ss_interval_ns, err);
	else
		ret = bq_parse_fail(err, -ENOENT, "unknown option '%s'", key);
	/* The older single field, for reports: the larger of the two caps. */
	j.rate_iops = j.rate_iops_rw[BQ_READ] > j.rate_iops_rw[BQ_WRITE] ?
		      j.rate_iops_rw[BQ_READ] : j.rate_iops_rw[BQ_WRITE];
	if (!ret)
		*job = j;
	return ret;
}

void bq_job_rates_defaults(struct bq_job *job)
{
	job->ratecycle_ms = 1000;
	job->thinktime_blocks = 1;
	job->latency_percentile = 100.0;
	/* fio's default criterion, used once ss_dur is set. */
	job->ss = BQ_SS_IOPS_SLOPE;
	job->ss_limit = 0.01;
	job->ss_pct = true;
	job->ss_interval_ns = NS_PER_S;
}

int bq_job_check_rates(const struct bq_job *job, struct bq_parse_error *err)
{
	static const char *const dir[] = { "reads", "writes" };
	bool rate = false, iops = false, min = false, iops_min = false;

	for (int d = 0; d < BQ_NR_DIRS; d++) {
		rate |= job->rate[d] != 0;
		iops |= job->rate_iops_rw[d] != 0;
		min |= job->rate_min[d] != 0;
		iops_min |= job->rate_iops_min[d] != 0;
	}
	/* fio's rules. */
	if ((rate && iops) || (min && iops_min))
		return bq_parse_fail(err, -EINVAL, "rate and rate_iops (and rate_min and "
				     "rate_iops_min) are mutually exclusive, as in fio");
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if ((job->rate[d] && job->rate[d] < job->rate_min[d]) ||
		    (job->rate_iops_rw[d] && job->rate_iops_rw[d] < job->rate_iops_min[d]))
			return bq_parse_fail(err, -EINVAL, "rate_min for %s is over its rate",
					     dir[d]);
	if (job->ratecycle_ms < 1)
		return bq_parse_fail(err, -EINVAL, "ratecycle must be at least 1 ms");
	if (job->thinktime_blocks < 1)
		return bq_parse_fail(err, -EINVAL, "thinktime_blocks must be at least 1");
	if (job->latency_percentile < 0 || job->latency_percentile > 100)
		return bq_parse_fail(err, -EINVAL, "latency_percentile is outside 0..100");
	if (job->ss < BQ_SS_IOPS || job->ss > BQ_SS_LAT_SLOPE)
		return bq_parse_fail(err, -EINVAL, "steadystate: unknown criterion");
	if (job->ss_dur_ns && job->ss >= BQ_SS_LAT && job->gtod_reduce)
		return bq_parse_fail(err, -EINVAL, "steadystate=%s needs completion latencies: "
				     "not with gtod_reduce", job->ss == BQ_SS_LAT ? "lat" : "lat_slope");
	if (job->ss_interval_ns < NS_PER_MS)
		return bq_parse_fail(err, -EINVAL, "steadystate_check_interval must be at least 1 ms");
	if (job->ss_dur_ns && job->ss_dur_ns < job->ss_interval_ns)
		return bq_parse_fail(err, -EINVAL, "steadystate_duration is shorter than "
				     "steadystate_check_interval: the window would hold no sample");
	return 0;
}
