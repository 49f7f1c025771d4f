/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errfilter_opt.h - private: fio's error filters and verify_dump (issue 19)
 */
#ifndef BLKQUAL_ERRFILTER_OPT_H
#define BLKQUAL_ERRFILTER_OPT_H

#include "blkqual_job.h"

struct job_opt;
struct bq_strv;

int bq_set_continue_on_error(const struct job_opt *o, const char *key, const char *val,
			     struct bq_job *job, struct bq_parse_error *err);
int bq_set_ignore_error(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err);
int bq_errfilter_to_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_ERRFILTER_OPT_H */
