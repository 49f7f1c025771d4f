// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioprio.c - fio's prio=, prioclass= and priohint=: the I/O priority of
 * each of a job's threads, set by the thread itself before its first
 * I/O; and whether the kernel takes the priority hints a job's commands
 * carry (cmdprio_hint, cmdprio_bssplit's fifth field)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine.h"

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_HINT_SHIFT	3
#define IOPRIO_CLASS_BE		2
#define IOPRIO_WHO_PROCESS	1

/*
 * A kernel without priority hints reads the hint bits as part of the
 * level and refuses the value with EINVAL, in ioprio_set(2) and in each
 * command alike (both go through the kernel's one check of an ioprio
 * value); said in the same line, so that it is not taken for a bad job.
 */
static const char *hint_note(int err, unsigned int hint)
{
	return err == EINVAL && hint ? " (this kernel takes no I/O priority hints)" : "";
}

/* The probe runs on a thread of its own, so that no worker's priority changes. */
static void *probe_hint(void *arg)
{
	unsigned int hint = *(unsigned int *)arg;

	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    (int)(IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT | hint << IOPRIO_HINT_SHIFT)))
		return (void *)(long)errno;
	return NULL;
}

/* 0, or the errno the kernel gives a best-effort priority carrying @hint. */
static int kernel_takes_hint(unsigned int hint)
{
	pthread_t t;
	void *ret;
	int err;

	err = pthread_create(&t, NULL, probe_hint, &hint);
	if (err)
		return err;
	pthread_join(t, &ret);
	return (int)(long)ret;
}

/* The first nonzero hint of the job's per-command priorities; 0: none. */
static unsigned int cmdprio_hint_of(const struct bq_worker *w)
{
	const struct bq_queue *q = &w->q;

	if (!q->cmdprio)
		return 0;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		for (unsigned int i = 0; i < BQ_PRIO_BSS + BQ_MAX_BSSPLIT; i++)
			if (q->prio_val[d][i] >> IOPRIO_HINT_SHIFT & BQ_IOPRIO_MAX_HINT)
				return q->prio_val[d][i] >> IOPRIO_HINT_SHIFT & BQ_IOPRIO_MAX_HINT;
	return 0;
}

/**
 * bq_ioprio_apply() - give the calling worker thread its job's I/O priority
 * @w: the worker, its queue rules set (bq_queue_init())
 *
 * As in fio, a job that names none of the options keeps the priority it
 * inherited, and prioclass=0 (or none, with prio= or priohint=) means
 * best effort.  Who 0 is the calling thread, so each worker sets its own.
 * A job whose commands carry priority hints first learns whether the
 * kernel takes them, so that a kernel without them fails the job before
 * its first I/O, in one line, rather than every I/O with EINVAL.
 *
 * Return: 0, or -1 with errno and @w->setup_msg saying why.
 */
int bq_ioprio_apply(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	unsigned int class = j->ioprio_class ? j->ioprio_class : IOPRIO_CLASS_BE;
	unsigned int hint = cmdprio_hint_of(w);
	int err;

	if (hint) {
		err = kernel_takes_hint(hint);
		if (err) {
			snprintf(w->setup_msg, sizeof(w->setup_msg),
				 "I/O priority hint %u (cmdprio_hint or cmdprio_bssplit): %s%s",
				 hint, strerror(err), hint_note(err, hint));
			errno = err;
			return -1;
		}
	}
	if (!j->ioprio_set)
		return 0;
	if (!syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		     (int)(class << IOPRIO_CLASS_SHIFT | j->ioprio_hint << IOPRIO_HINT_SHIFT |
			   j->ioprio)))
		return 0;
	err = errno;
	snprintf(w->setup_msg, sizeof(w->setup_msg),
		 "ioprio_set(class %u, prio %u, hint %u): %s%s%s", class, j->ioprio,
		 j->ioprio_hint, strerror(err),
		 err == EPERM ? " (the real-time class needs CAP_SYS_ADMIN or CAP_SYS_NICE)" : "",
		 hint_note(err, j->ioprio_hint));
	errno = err;
	return -1;
}
