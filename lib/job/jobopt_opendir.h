/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_opendir.h - private: fio's opendir=DIR, every regular file below
 * DIR added to the job's files (issue 19)
 */
#ifndef BLKQUAL_JOBOPT_OPENDIR_H
#define BLKQUAL_JOBOPT_OPENDIR_H

#include "jobopt.h"

int bq_opt_set_opendir(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err);
int bq_opendir_job_finish(struct bq_job *job, struct bq_parse_error *err);

#endif /* BLKQUAL_JOBOPT_OPENDIR_H */
