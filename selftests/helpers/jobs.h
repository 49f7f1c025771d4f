/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobs.h - test helper: one job option set on a job with fio's defaults
 */
#ifndef SELFTESTS_JOBS_H
#define SELFTESTS_JOBS_H

#include "blkqual.h"

int set1(const char *key, const char *value, struct bq_job *out, struct bq_parse_error *err);

#endif /* SELFTESTS_JOBS_H */
