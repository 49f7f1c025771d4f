/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobs.h - test helpers: one job option set on a job with fio's defaults,
 * or jobs made from an argument list
 */
#ifndef SELFTESTS_JOBS_H
#define SELFTESTS_JOBS_H

#include "blkqual.h"

int set1(const char *key, const char *value, struct bq_job *out, struct bq_parse_error *err);
int jobs_of(struct bq_jobset *set, struct bq_parse_error *err, ...) __attribute__((sentinel));
int job_of_opts(const char *const *opts, struct bq_job *out, struct bq_parse_error *err);

/* job_of_opts() of a literal list: PARSE(&job, &err, "rw=trim", "bs=64k") */
#define PARSE(out, err, ...) job_of_opts((const char *const[]){ __VA_ARGS__, NULL }, out, err)

#endif /* SELFTESTS_JOBS_H */
