/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fill.h - private: fill_device and fill_fs (issue 19)
 */
#ifndef BLKQUAL_FILL_H
#define BLKQUAL_FILL_H

#include <stdbool.h>

struct bq_job;
struct bq_target_info;
struct bq_parse_error;
struct bq_worker;
struct bq_slot;

/**
 * bq_fill_prepare() - make a fill_device job's target ready to be filled
 * @j: the job
 * @fd: the job's descriptor of the target (the guard's, reopened)
 * @ti: the target; its size becomes the most the job can write
 * @err: why not
 *
 * A block device is filled to its end: nothing changes.  A file starts
 * empty, as fio makes it again, and its region is what its filesystem
 * has free (size= caps it, as in fio); ENOSPC is expected before the end.
 *
 * Return: 0 or -errno.
 */
int bq_fill_prepare(const struct bq_job *j, int fd, struct bq_target_info *ti,
		    struct bq_parse_error *err);

/**
 * bq_fill_full() - whether a failed I/O means "the target is full"
 * @w: the worker
 * @s: the I/O
 * @err: its positive errno
 *
 * For a fill_device job's write, ENOSPC and EDQUOT end the thread cleanly,
 * not as an error, as fio ends the job there.
 *
 * Return: true when the failure was that (the thread is stopping).
 */
bool bq_fill_full(struct bq_worker *w, const struct bq_slot *s, int err);

#endif /* BLKQUAL_FILL_H */
