/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_logs.h - private: fio's per-I/O log options (write_lat_log,
 * write_bw_log, write_iops_log, log_*) and cmdprio_bssplit, for
 * lib/job/jobopt.c's option table and the job's round trip
 */
#ifndef BLKQUAL_JOBOPT_LOGS_H
#define BLKQUAL_JOBOPT_LOGS_H

#include "blkqual_io.h"

struct job_opt;
struct bq_strv;

int bq_opt_set_statlog(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_cmdprio_bssplit(const struct job_opt *o, const char *key, const char *val,
			       struct bq_job *job, struct bq_parse_error *err);
int bq_job_check_statlog(const struct bq_job *job, struct bq_parse_error *err);
int bq_statlog_to_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_JOBOPT_LOGS_H */
