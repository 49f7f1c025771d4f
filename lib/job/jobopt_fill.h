/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt_fill.h - private: fill_device and fill_fs, io_submit_mode, and
 * the trim values of the rate options (issue 19)
 */
#ifndef BLKQUAL_JOBOPT_FILL_H
#define BLKQUAL_JOBOPT_FILL_H

#include "jobopt.h"

struct bq_strv;

/**
 * bq_job_check_fill() - what fill_device, io_submit_mode=offload and the
 * trim rates need of the rest of the job
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int bq_job_check_fill(const struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_fill_to_args() - this family's options, as bq_job_to_args() writes them
 * @j: the job
 * @args: appended to
 *
 * Return: 0 or -errno.
 */
int bq_fill_to_args(const struct bq_job *j, struct bq_strv *args);

#endif /* BLKQUAL_JOBOPT_FILL_H */
