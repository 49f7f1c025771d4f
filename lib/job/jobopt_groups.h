/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_groups.h - private: the setters of the job ordering and group
 * options (stonewall, wait_for, loops, exitall, exit_what, startdelay
 * ranges), for lib/job/jobopt.c's option table
 */
#ifndef BLKQUAL_JOBOPT_GROUPS_H
#define BLKQUAL_JOBOPT_GROUPS_H

#include "blkqual_io.h"

struct job_opt;

int bq_opt_set_wait_for(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_exit_what(const struct job_opt *o, const char *key, const char *val,
			 struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_startdelay(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err);
int bq_opt_set_loops(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err);

#endif /* BLKQUAL_JOBOPT_GROUPS_H */
