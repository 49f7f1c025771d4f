/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_zbd.h - private: the zonemode=zbd options (issue 19)
 */
#ifndef BLKQUAL_JOBOPT_ZBD_H
#define BLKQUAL_JOBOPT_ZBD_H

#include "blkqual_job.h"

struct job_opt;
struct bq_strv;

/* fio's ZBD_MAX_OPEN_ZONES: the most zones one device's jobs keep open */
#define BQ_ZBD_MAX_OPEN_ZONES 4096

int bq_job_set_zbd(const struct job_opt *o, const char *key, const char *val,
		   struct bq_job *job, struct bq_parse_error *err);
int bq_job_set_zone_units(const char *key, const char *val, struct bq_job *job,
			  struct bq_parse_error *err);
int bq_job_check_zbd(const struct bq_job *job, struct bq_parse_error *err);
int bq_zbd_to_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_JOBOPT_ZBD_H */
