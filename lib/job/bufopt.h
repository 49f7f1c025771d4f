/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bufopt.h - private to libblkqual: the buffer-contents job options
 * (zero_buffers, refill_buffers, scramble_buffers, buffer_pattern,
 * buffer_compress_*, dedupe_*), kept apart from the main option table
 */
#ifndef BLKQUAL_BUFOPT_H
#define BLKQUAL_BUFOPT_H

#include "blkqual.h"
#include "blkqual_core.h"

/**
 * bq_bufopt_defaults() - fio's defaults for the buffer options
 * @job: the job (scramble_buffers=1, buffer_compress_chunk=512,
 *       dedupe_working_set_percentage=5)
 */
void bq_bufopt_defaults(struct bq_job *job);

/**
 * bq_bufopt_set() - set one buffer option, with the side effects fio's
 * option callbacks have (buffer_pattern turns scrambling and zeroing off
 * and refill on for a job that reads; dedupe_percentage turns refill on)
 * @key: the option's name
 * @val: its value, NULL for a bare flag
 * @job: the job, unchanged on failure
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL, -ENOENT (not a buffer option) or -EOPNOTSUPP.
 */
int bq_bufopt_set(const char *key, const char *val, struct bq_job *job,
		  struct bq_parse_error *err);

/**
 * bq_bufopt_check() - the buffer options fit the rest of the job
 * @job: the whole job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (what blkqual cannot combine yet).
 */
int bq_bufopt_check(const struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_bufopt_to_args() - the buffer options that differ from the defaults,
 * in an order that gives back the same job when parsed after the rest
 * @job: the job
 * @args: appended to
 *
 * Return: 0 or -ENOMEM.
 */
int bq_bufopt_to_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_BUFOPT_H */
