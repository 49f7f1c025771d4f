// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio_values.c - the closed sets of sysbench's fileio options, asked of
 * bq_fileio_set() itself (shell completion: --file-test-mode=rnd...)
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "blkqual_core.h"
#include "blkqual_fileio.h"

static int try_set(const char *name, const char *value, struct bq_parse_error *err)
{
	struct bq_fileio_opts o;

	bq_fileio_defaults(&o);
	memset(err, 0, sizeof(*err));
	return bq_fileio_set(&o, name, value, err);
}

static bool fileio_takes(const char *word, void *name)
{
	struct bq_parse_error err;

	return !try_set(name, word, &err);
}

/**
 * bq_fileio_opt_values() - the values a fileio option takes from a closed set
 * @name: the option's sysbench name, without "--"
 * @fn: gets each value the parser takes; a non-zero return stops the walk
 * @arg: passed through
 *
 * Return: what @fn returned last, 0 for an open value, -ENOENT for an
 * unknown option.
 */
int bq_fileio_opt_values(const char *name, int (*fn)(const char *value, void *arg), void *arg)
{
	struct bq_parse_error err;
	int ret = try_set(name, "\x01", &err);

	if (ret == -ENOENT)
		return ret;
	return ret ? bq_values_named(err.msg, fileio_takes, (void *)name, fn, arg) : 0;
}
