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

/* The list after "use ", "one of " or "must be " in a setter's message. */
static const char *value_list(const char *msg)
{
	static const char *const lead[] = { ": use ", "(use ", ": one of ", ": must be " };

	for (size_t i = 0; i < sizeof(lead) / sizeof(lead[0]); i++) {
		const char *p = strstr(msg, lead[i]);

		if (p)
			return p + strlen(lead[i]);
	}
	return NULL;
}

static bool plain_word(const char *w, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    w[i]))
			return false;
	return true;
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
	struct bq_parse_error err, ok;
	const char *p;
	char word[64];
	int ret;

	ret = try_set(name, PROBE_VALUE, &err);
	if (ret == -ENOENT || ret == -ENOMEM)
		return ret;
	if (ret == -EOPNOTSUPP && strstr(err.msg, "not supported by blkqual"))
		return -EOPNOTSUPP;
	p = ret ? value_list(err.msg) : NULL;
	while (p && *p) {
		size_t len = strcspn(p, ", ()");
		bool or = len == 2 && !strncmp(p, "or", 2);

		if (plain_word(p, len) && len < sizeof(word) && !or) {
			memcpy(word, p, len);
			word[len] = '\0';
			if (!try_set(name, word, &ok)) {
				ret = fn(word, arg);
				if (ret)
					return ret;
			}
		}
		p += len;
		if (*p == '(')
			break;	/* "(with an optional :N)": an aside, not values */
		p += strspn(p, ", )");
	}
	return 0;
}
