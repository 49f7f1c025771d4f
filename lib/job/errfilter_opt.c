// SPDX-License-Identifier: GPL-2.0-only
/*
 * errfilter_opt.c - fio's error filters: continue_on_error's kinds and
 * ignore_error's lists of errnos, read, write and verify
 *
 * The rules are fio's (3.33).  continue_on_error picks the kinds of error
 * a job goes on after; within a kind only EIO and EILSEQ are "non-fatal"
 * unless ignore_error lists that kind's errnos, which then replace the
 * two and switch the kind on.  ignore_error names errnos as fio does:
 * the 34 classic names (EPERM .. ERANGE) or numbers; anything else is an
 * error, as in fio, which asks for the number instead.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "errfilter_opt.h"

/* fio's names, in errno order: name i is errno i + 1 on Linux. */
static const char *const err_names[] = {
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
	"ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST",
	"EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY",
	"ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE",
};

static const struct {
	const char *name;
	unsigned int types;
} coe_values[] = {
	{ "none", 0 },
	{ "read", 1u << BQ_ERR_READ },
	{ "write", 1u << BQ_ERR_WRITE },
	{ "io", 1u << BQ_ERR_READ | 1u << BQ_ERR_WRITE },
	{ "verify", 1u << BQ_ERR_VERIFY },
	{ "all", BQ_ERR_TYPES_ALL },
	{ "0", 0 },
	{ "1", BQ_ERR_TYPES_ALL },
};

/**
 * bq_set_continue_on_error() - continue_on_error=none|read|write|io|verify|all|0|1
 * @o: the option
 * @key: its name
 * @val: the value
 * @job: the job
 * @err: receives the message
 *
 * Return: 0, or -EINVAL.
 */
int bq_set_continue_on_error(const struct job_opt *o, const char *key, const char *val,
			     struct bq_job *job, struct bq_parse_error *err)
{
	for (size_t i = 0; val && i < ARRAY_SIZE(coe_values); i++) {
		if (strcmp(val, coe_values[i].name))
			continue;
		job->error_types = coe_values[i].types;
		job->continue_on_error = job->error_types != 0;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL,
			     "%s=%s: use none, read, write, io, verify, all, 0 or 1", key,
			     val ? val : "");
}

/* One errno of a list: a name fio knows, or a number (its sign dropped, as fio does). */
static int parse_errno(const char *s, int *out)
{
	char *end;
	long v;

	if (s[0] == 'E') {
		for (size_t i = 0; i < ARRAY_SIZE(err_names); i++) {
			if (!strcmp(s, err_names[i])) {
				*out = (int)i + 1;
				return 0;
			}
		}
		return -EINVAL;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > 4095 || v < -4095)
		return -EINVAL;
	*out = (int)(v < 0 ? -v : v);
	return 0;
}

/* One type's ':'-list; an empty element ends it, as in fio. */
static int parse_type(struct bq_job *job, int t, char *list, const char *key, const char *val,
		      struct bq_parse_error *err)
{
	int errs[BQ_MAX_IGNORE], n = 0;
	char *save = NULL;

	for (char *p = list; p; p = save) {
		save = strchr(p, ':');
		if (save)
			*save++ = '\0';
		if (!*p)
			break;
		if (n == BQ_MAX_IGNORE)
			return bq_parse_fail(err, -EOPNOTSUPP,
					     "%s=%s: more than %d errors for one type", key, val,
					     BQ_MAX_IGNORE);
		if (parse_errno(p, &errs[n]))
			return bq_parse_fail(err, -EINVAL,
					     "%s=%s: unknown error %s: use its number", key, val, p);
		n++;
	}
	/* An empty slot leaves a type as it was, but clears a list given before. */
	if (!n) {
		job->nr_ignore[t] = 0;
		return 0;
	}
	memcpy(job->ignore[t], errs, n * sizeof(errs[0]));
	job->nr_ignore[t] = (uint8_t)n;
	job->ignore_set[t] = true;
	job->error_types |= 1u << t;
	job->continue_on_error = true;
	return 0;
}

/**
 * bq_set_ignore_error() - ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST
 * @o: the option
 * @key: its name
 * @val: the value: ':'-separated errnos per type, types ','-separated
 * @job: the job
 * @err: receives the message
 *
 * Return: 0, or -EINVAL (an unknown name, a fourth type).
 */
int bq_set_ignore_error(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	int keep[BQ_ERR_NR_TYPES][BQ_MAX_IGNORE];
	uint8_t keep_nr[BQ_ERR_NR_TYPES];
	bool keep_set[BQ_ERR_NR_TYPES];
	unsigned int keep_types = job->error_types;
	char buf[1024], *p, *next;
	size_t len;
	int t = 0, ret = 0;

	if (!val)
		return bq_parse_fail(err, -EINVAL, "%s: needs a value", key);
	while (isspace((unsigned char)*val))
		val++;
	len = strlen(val);
	while (len && isspace((unsigned char)val[len - 1]))
		len--;
	if (len >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s: value is too long", key);
	memcpy(buf, val, len);
	buf[len] = '\0';
	memcpy(keep, job->ignore, sizeof(keep));
	memcpy(keep_nr, job->nr_ignore, sizeof(keep_nr));
	memcpy(keep_set, job->ignore_set, sizeof(keep_set));
	for (p = buf; p && !ret; p = next, t++) {
		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		if (t == BQ_ERR_NR_TYPES)
			ret = bq_parse_fail(err, -EINVAL,
					    "%s=%s: only three types: read, write, verify", key, val);
		else
			ret = parse_type(job, t, p, key, val, err);
	}
	/* Nothing of a refused value stays. */
	if (ret) {
		memcpy(job->ignore, keep, sizeof(keep));
		memcpy(job->nr_ignore, keep_nr, sizeof(keep_nr));
		memcpy(job->ignore_set, keep_set, sizeof(keep_set));
		job->error_types = keep_types;
		job->continue_on_error = keep_types != 0;
	}
	return ret;
}

/**
 * bq_errfilter_to_args() - the job's error options as command-line arguments
 * @job: the job
 * @args: appended to
 *
 * continue_on_error is written without the kinds ignore_error switches
 * on, which reading the lists back switches on again.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_errfilter_to_args(const struct bq_job *job, struct bq_strv *args)
{
	unsigned int base = job->error_types;
	char buf[1024];
	size_t at;
	int ret = 0;

	for (int t = 0; t < BQ_ERR_NR_TYPES && base != BQ_ERR_TYPES_ALL; t++)
		if (job->ignore_set[t] && job->nr_ignore[t])
			base &= ~(1u << t);
	for (size_t i = 0; i < ARRAY_SIZE(coe_values); i++) {
		if (coe_values[i].types == base) {
			snprintf(buf, sizeof(buf), "--continue_on_error=%s", coe_values[i].name);
			ret = bq_strv_add(args, buf);
			break;
		}
	}
	at = (size_t)snprintf(buf, sizeof(buf), "--ignore_error=");
	for (int t = 0; t < BQ_ERR_NR_TYPES; t++) {
		for (int i = 0; i < job->nr_ignore[t] && at < sizeof(buf); i++)
			at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%d", i ? ":" : "",
					       job->ignore[t][i]);
		if (t < BQ_ERR_NR_TYPES - 1 && at < sizeof(buf))
			at += (size_t)snprintf(buf + at, sizeof(buf) - at, ",");
	}
	if (job->nr_ignore[0] || job->nr_ignore[1] || job->nr_ignore[2])
		ret = ret ?: bq_strv_add(args, buf);
	snprintf(buf, sizeof(buf), "--error_dump=%d", job->error_dump);
	ret = ret ?: bq_strv_add(args, buf);
	snprintf(buf, sizeof(buf), "--verify_dump=%d", job->verify_dump);
	return ret ?: bq_strv_add(args, buf);
}
