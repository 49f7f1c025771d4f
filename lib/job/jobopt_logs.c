// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_logs.c - fio's per-I/O log options (write_lat_log, write_bw_log,
 * write_iops_log, write_hist_log, log_avg_msec, log_hist_msec, log_max_value, log_offset, log_prio,
 * per_job_logs, the epochs) and cmdprio_bssplit, whose priorities the
 * log_prio column shows
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "blkqual_core.h"
#include "jobopt.h"
#include "jobopt_logs.h"

static const char *const log_opt[BQ_NR_STATLOG] = {
	[BQ_STATLOG_LAT] = "write_lat_log",
	[BQ_STATLOG_BW] = "write_bw_log",
	[BQ_STATLOG_IOPS] = "write_iops_log",
	[BQ_STATLOG_HIST] = "write_hist_log",
};

/* fio's booleans: 0 or 1 (and the bare name, for 1). */
static int parse_flag(const char *key, const char *val, bool *b, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1"))
		*b = true;
	else if (!strcmp(val, "0"))
		*b = false;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	return 0;
}

static int parse_uint(const char *key, const char *val, uint64_t max, uint64_t *v,
		      struct bq_parse_error *err)
{
	if (!val || bq_parse_dec(val, v) || *v > max)
		return bq_parse_fail(err, -EINVAL, "%s=%s: a whole number up to %llu", key,
				     val ? val : "", (unsigned long long)max);
	return 0;
}

static int set_log_name(struct bq_job *job, int kind, const char *key, const char *val,
			struct bq_parse_error *err)
{
	/* The bare option (or an empty value) means the job's name, as in fio. */
	if (val && strlen(val) >= sizeof(job->log_names[kind]))
		return bq_parse_fail(err, -EINVAL, "%s: a name is at most %zu characters", key,
				     sizeof(job->log_names[kind]) - 1);
	snprintf(job->log_names[kind], sizeof(job->log_names[kind]), "%s", val ? val : "");
	job->logs |= 1U << kind;
	return 0;
}

/**
 * bq_opt_set_statlog() - one of fio's per-I/O log options
 * @o: the table entry
 * @key: the option's name
 * @val: its value; NULL for a bare flag
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_opt_set_statlog(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;
	bool b = false;
	int ret;

	(void)o;
	for (int k = 0; k < BQ_NR_STATLOG; k++)
		if (!strcmp(key, log_opt[k]))
			return set_log_name(job, k, key, val, err);
	if (!strcmp(key, "log_avg_msec")) {
		ret = parse_uint(key, val, UINT32_MAX, &v, err);
		if (!ret)
			job->log_avg_msec = (unsigned int)v;
		return ret;
	}
	if (!strcmp(key, "log_hist_msec") || !strcmp(key, "log_hist_coarseness")) {
		bool coarse = !strcmp(key, "log_hist_coarseness");

		ret = parse_uint(key, val, coarse ? 6 : UINT32_MAX, &v, err);
		if (!ret && coarse)
			job->log_hist_coarseness = (unsigned int)v;
		else if (!ret)
			job->log_hist_msec = (unsigned int)v;
		return ret;
	}
	if (!strcmp(key, "log_alternate_epoch_clock_id")) {
		ret = parse_uint(key, val, INT32_MAX, &v, err);
		if (!ret)
			job->log_epoch_clock = (int)v;
		return ret;
	}
	/* Only how fio sizes its buffer before the run: blkqual writes in batches. */
	if (!strcmp(key, "log_entries"))
		return parse_uint(key, val, UINT32_MAX, &v, err);
	ret = parse_flag(key, val, &b, err);
	if (ret)
		return ret;
	if (!strcmp(key, "log_max_value"))
		job->log_max_value = b;
	else if (!strcmp(key, "log_offset"))
		job->log_offset = b;
	else if (!strcmp(key, "log_prio"))
		job->log_prio = b;
	else if (!strcmp(key, "per_job_logs"))
		job->shared_logs = !b;
	else if (!strcmp(key, "log_unix_epoch"))
		job->log_epoch = (uint8_t)((job->log_epoch & ~1U) | b);
	else if (!strcmp(key, "log_alternate_epoch"))
		job->log_epoch = (uint8_t)((job->log_epoch & ~2U) | (unsigned int)b << 1);
	else
		return bq_parse_fail(err, -EINVAL, "%s: not a log option", key);
	return 0;
}

/* One entry: "bs/", "bs/pct", "bs/pct/class/level" or "bs/pct/class/level/hint". */
static int parse_bss_entry(const char *key, char *s, struct bq_cmdprio_bss *e,
			   struct bq_parse_error *err)
{
	static const unsigned long max[] = { 0, 100, 3, 7, BQ_IOPRIO_MAX_HINT };
	static const char *const what[] = { "", "percentage", "priority class",
					    "priority level", "priority hint" };
	char *f[5] = { NULL };
	unsigned long n[4] = { 0 };
	int nf = 0;
	uint64_t bs;

	for (char *p = s; p; nf++) {
		if (nf == 5)
			return bq_parse_fail(err, -EINVAL, "%s: '%s...': BS/PERCENT, "
					     "BS/PERCENT/CLASS/LEVEL or "
					     "BS/PERCENT/CLASS/LEVEL/HINT", key, s);
		f[nf] = p;
		p = strchr(p, '/');
		if (p)
			*p++ = '\0';
	}
	if (nf == 3)
		return bq_parse_fail(err, -EINVAL, "%s: '%s': BS/PERCENT, BS/PERCENT/CLASS/LEVEL "
				     "or BS/PERCENT/CLASS/LEVEL/HINT", key, s);
	if (bq_parse_size(f[0], &bs) || bs < 512 || bs > (1U << 30))
		return bq_parse_fail(err, -EINVAL, "%s: '%s' is not a block size of 512..1g",
				     key, f[0]);
	for (int i = 1; i < nf; i++) {
		char *end;

		/* "bs/" is an entry of 0 percent, as fio reads it. */
		if (i == 1 && !*f[1] && nf == 2)
			break;
		errno = 0;
		n[i - 1] = strtoul(f[i], &end, 10);
		if (!isdigit((unsigned char)*f[i]) || *end || errno || n[i - 1] > max[i])
			return bq_parse_fail(err, -EINVAL, "%s: '%s' is not a %s (0 to %lu)", key,
					     f[i], what[i], max[i]);
	}
	e->bs = (uint32_t)bs;
	e->pct = (uint8_t)n[0];
	e->own = nf >= 4;
	e->ioprio_class = (uint8_t)n[1];
	e->level = (uint8_t)n[2];
	e->hint = (uint16_t)n[3];
	return 0;
}

static int cmp_bss(const void *a, const void *b)
{
	const struct bq_cmdprio_bss *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* The entries of one direction, ':'-separated; entries of 0 percent are dropped. */
static int parse_bss_dir(const char *key, char *s, struct bq_cmdprio_bss *out, uint8_t *nr,
			 struct bq_parse_error *err)
{
	struct bq_cmdprio_bss e;
	char *save = NULL;
	int n = 0, ret;

	for (char *t = strtok_r(s, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
		if (n == BQ_MAX_BSSPLIT)
			return bq_parse_fail(err, -EINVAL, "%s: at most %d entries per direction",
					     key, BQ_MAX_BSSPLIT);
		memset(&e, 0, sizeof(e));
		ret = parse_bss_entry(key, t, &e, err);
		if (ret)
			return ret;
		if (e.pct)
			out[n++] = e;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_bss);
	/* The shares of one block size are drawn from one 100. */
	for (int i = 0, sum = 0; i < n; i++) {
		sum = i && out[i].bs == out[i - 1].bs ? sum + out[i].pct : out[i].pct;
		if (sum > 100)
			return bq_parse_fail(err, -EINVAL, "%s: the percentages for block size %u "
					     "add up to more than 100", key, out[i].bs);
	}
	*nr = (uint8_t)n;
	return 0;
}

/**
 * bq_opt_set_cmdprio_bssplit() - cmdprio_bssplit=READS[,WRITES]
 * @o: the table entry
 * @key: "cmdprio_bssplit"
 * @val: fio's syntax: "64k/40:1m/10", "64k/25/1/1:64k/75/3/2" or with
 *       a priority hint, "1m/10/2/0/1:1m/90/2/0/0", a
 *       second list after ',' for writes (one list is both directions';
 *       a third, for trims, is ignored as in fio)
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (@job unchanged).
 */
int bq_opt_set_cmdprio_bssplit(const struct job_opt *o, const char *key, const char *val,
			       struct bq_job *job, struct bq_parse_error *err)
{
	struct bq_cmdprio_bss bss[BQ_NR_DIRS][BQ_MAX_BSSPLIT] = { { { 0 } } };
	uint8_t nr[BQ_NR_DIRS] = { 0 };
	char buf[1024], *lists[3] = { buf, NULL, NULL };
	int ret;

	(void)o;
	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s: too long", key);
	strcpy(buf, val);
	for (int i = 0; i < 2 && lists[i]; i++) {
		lists[i + 1] = strchr(lists[i], ',');
		if (lists[i + 1])
			*lists[i + 1]++ = '\0';
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		char *l = lists[d] ? lists[d] : lists[0];
		char copy[1024];

		snprintf(copy, sizeof(copy), "%s", l);
		ret = parse_bss_dir(key, copy, bss[d], &nr[d], err);
		if (ret)
			return ret;
	}
	memcpy(job->cmdprio_bss, bss, sizeof(bss));
	memcpy(job->nr_cmdprio_bss, nr, sizeof(nr));
	return 0;
}

/**
 * bq_job_check_statlog() - the log options and cmdprio_bssplit fit the job
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int bq_job_check_statlog(const struct bq_job *job, struct bq_parse_error *err)
{
	bool bss = job->nr_cmdprio_bss[BQ_READ] || job->nr_cmdprio_bss[BQ_WRITE];

	if (bss && (job->cmdprio_pct[BQ_READ] || job->cmdprio_pct[BQ_WRITE]))
		return bq_parse_fail(err, -EINVAL, "cmdprio_bssplit and cmdprio_percentage "
				     "exclude each other, as in fio");
	if (bss && job->engine != BQ_ENGINE_IO_URING && job->engine != BQ_ENGINE_LIBAIO)
		return bq_parse_fail(err, -EINVAL, "cmdprio_bssplit needs ioengine=io_uring "
				     "or libaio");
	/* fio's gtod_reduce turns the latency logs off; blkqual stamps nothing to log. */
	if (job->logs && job->gtod_reduce)
		return bq_parse_fail(err, -EOPNOTSUPP, "%s with gtod_reduce=1 is not supported: "
				     "nothing is timed to log",
				     log_opt[__builtin_ctz(job->logs)]);
	return 0;
}

static int add_bss(struct bq_strv *args, const struct bq_job *j)
{
	char buf[1024];
	size_t n = 0;

	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (d)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ",");
		/* An empty list is "no entry" for that direction: fio's "512/0". */
		if (!j->nr_cmdprio_bss[d])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "512/0");
		for (int i = 0; i < j->nr_cmdprio_bss[d] && n < sizeof(buf); i++) {
			const struct bq_cmdprio_bss *e = &j->cmdprio_bss[d][i];

			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u/%u", i ? ":" : "",
					      e->bs, e->pct);
			if (e->own && n < sizeof(buf))
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "/%u/%u/%u",
						      e->ioprio_class, e->level, e->hint);
		}
		if (n >= sizeof(buf))
			return -ENAMETOOLONG;
	}
	return bq_argf(args, "--cmdprio_bssplit=%s", buf);
}

/**
 * bq_statlog_to_args() - the log options and cmdprio_bssplit as options again
 * @job: the job
 * @args: receives them (appended)
 *
 * Return: 0, -ENAMETOOLONG or -ENOMEM.
 */
int bq_statlog_to_args(const struct bq_job *job, struct bq_strv *args)
{
	const struct bq_job *j = job;
	int ret = 0;

	for (int k = 0; k < BQ_NR_STATLOG; k++)
		if (j->logs & (1U << k))
			ret = ret ?: bq_argf(args, j->log_names[k][0] ? "--%s=%s" : "--%s%s",
					 log_opt[k], j->log_names[k]);
	if (j->logs || j->log_avg_msec || j->log_max_value || j->log_offset || j->log_prio ||
	    j->shared_logs || j->log_epoch || j->log_epoch_clock || j->log_hist_msec ||
	    j->log_hist_coarseness) {
		ret = ret ?: bq_argf(args, "--log_avg_msec=%u", j->log_avg_msec);
		ret = ret ?: bq_argf(args, "--log_max_value=%d", j->log_max_value);
		ret = ret ?: bq_argf(args, "--log_offset=%d", j->log_offset);
		ret = ret ?: bq_argf(args, "--log_prio=%d", j->log_prio);
		ret = ret ?: bq_argf(args, "--per_job_logs=%d", !j->shared_logs);
		ret = ret ?: bq_argf(args, "--log_unix_epoch=%d", j->log_epoch & 1);
		ret = ret ?: bq_argf(args, "--log_alternate_epoch=%d", j->log_epoch >> 1);
		ret = ret ?: bq_argf(args, "--log_alternate_epoch_clock_id=%d", j->log_epoch_clock);
		ret = ret ?: bq_argf(args, "--log_hist_msec=%u", j->log_hist_msec);
		ret = ret ?: bq_argf(args, "--log_hist_coarseness=%u", j->log_hist_coarseness);
	}
	if (j->nr_cmdprio_bss[BQ_READ] || j->nr_cmdprio_bss[BQ_WRITE])
		ret = ret ?: add_bss(args, j);
	return ret;
}
