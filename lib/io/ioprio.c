// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioprio.c - fio's prio= and prioclass=: the I/O priority of each of a
 * job's threads, set by the thread itself before its first I/O
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine.h"

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_BE		2
#define IOPRIO_WHO_PROCESS	1

/**
 * bq_ioprio_apply() - give the calling worker thread its job's I/O priority
 * @w: the worker
 *
 * As in fio, a job that names neither option keeps the priority it
 * inherited, and prioclass=0 (or none, with prio=) means best effort.
 * Who 0 is the calling thread, so each worker sets its own.
 *
 * Return: 0, or -1 with errno and @w->setup_msg saying why.
 */
int bq_ioprio_apply(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	unsigned int class = j->ioprio_class ? j->ioprio_class : IOPRIO_CLASS_BE;
	int err;

	if (!j->ioprio_set)
		return 0;
	if (!syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		     (int)(class << IOPRIO_CLASS_SHIFT | j->ioprio)))
		return 0;
	err = errno;
	snprintf(w->setup_msg, sizeof(w->setup_msg), "ioprio_set(class %u, prio %u): %s%s",
		 class, j->ioprio, strerror(err),
		 err == EPERM ? " (the real-time class needs CAP_SYS_ADMIN or CAP_SYS_NICE)" : "");
	errno = err;
	return -1;
}
