/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt.h - what the job file and command line parsers need from the
 * option table, private to libblkqual
 */
#ifndef BLKQUAL_JOBOPT_H
#define BLKQUAL_JOBOPT_H

#include <stdbool.h>

#include "blkqual_io.h"

/*
 * "--bs 4k" takes the next argument only for options that need a value;
 * "--time_based --runtime=10" must not swallow "--runtime=10".
 */
bool bq_job_opt_takes_value(const char *key);

/* Fill @err->msg printf-style and return @ret; @err may be NULL. */
int bq_parse_fail(struct bq_parse_error *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BLKQUAL_JOBOPT_H */
