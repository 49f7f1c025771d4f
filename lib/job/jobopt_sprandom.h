/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_sprandom.h - private: random_distribution=sequence,
 * random_sequence_stride, sprandom and the spr_* options (issue 19)
 */
#ifndef BLKQUAL_JOBOPT_SPRANDOM_H
#define BLKQUAL_JOBOPT_SPRANDOM_H

#include "jobopt.h"

struct bq_strv;
struct job_opt;

/**
 * bq_job_set_sequence() - random_distribution=sequence:I,J,...
 * @job: the job
 * @key: the option name, for messages
 * @val: the whole value, for messages
 * @list: the block indices after the colon; NULL when there is none
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (no list, more than 64 entries, an entry that is
 * not a whole number).
 */
int bq_job_set_sequence(struct bq_job *job, const char *key, const char *val, const char *list,
			struct bq_parse_error *err);

/**
 * bq_job_set_spr_op() - spr_op=RATIO, the over-provisioning in (0, 1)
 * @o: the option
 * @key: its name
 * @val: its value
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_set_spr_op(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_sprandom_defaults() - fio's defaults of the spr_* options
 * @job: the job
 */
void bq_sprandom_defaults(struct bq_job *job);

/**
 * bq_job_check_sprandom() - what sprandom needs of the rest of the job
 * @j: the job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL (fio's refusals) or -EOPNOTSUPP.
 */
int bq_job_check_sprandom(const struct bq_job *j, struct bq_parse_error *err);

/**
 * bq_sprandom_to_args() - this family's options, as bq_job_to_args() writes them
 * @j: the job
 * @args: appended to
 *
 * Return: 0 or -errno.
 */
int bq_sprandom_to_args(const struct bq_job *j, struct bq_strv *args);

#endif /* BLKQUAL_JOBOPT_SPRANDOM_H */
