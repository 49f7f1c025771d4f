/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_queue.h - private: the setters of the queueing, priority and
 * placement options, for lib/job/jobopt.c's option table
 */
#ifndef BLKQUAL_JOBOPT_QUEUE_H
#define BLKQUAL_JOBOPT_QUEUE_H

#include "blkqual_io.h"

struct job_opt;

int bq_opt_set_submit_mode(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err);

int bq_opt_set_ioprio(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);

int bq_opt_set_cmdprio(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_cpumask(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_cpus_policy(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_numa(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_flow_sleep(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err);
int bq_job_check_queue(const struct bq_job *job, struct bq_parse_error *err);

#endif /* BLKQUAL_JOBOPT_QUEUE_H */
