/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomic.h - torn-write protection (fio's atomic=1): RWF_ATOMIC on writes
 */
#ifndef BLKQUAL_IO_ATOMIC_H
#define BLKQUAL_IO_ATOMIC_H

#include "blkqual_job.h"

/* Linux 6.11's value; older headers lack it. */
#ifndef RWF_ATOMIC
#define RWF_ATOMIC	0x00000040
#endif

/**
 * bq_atomic_check() - the target takes the job's writes as atomic writes
 * @fd: the target, as the job will write it
 * @j: the job; nothing is checked unless it writes with atomic=1
 * @path: for messages
 * @err: filled in on failure
 *
 * statx(STATX_WRITE_ATOMIC) gives the sizes the kernel accepts with
 * RWF_ATOMIC: a write of another size, or to a file without torn-write
 * protection, would fail every time with EINVAL, so it is said once here.
 *
 * Return: 0, or -EOPNOTSUPP with @err naming the limits.
 */
int bq_atomic_check(int fd, const struct bq_job *j, const char *path,
		    struct bq_parse_error *err);

#endif
