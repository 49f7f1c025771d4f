// SPDX-License-Identifier: GPL-2.0-only
/*
 * task_cpu.c - CPU time of a thread: the calling thread's own, through
 * getrusage(RUSAGE_THREAD), and another thread's, read from outside it (a
 * thread stuck in the kernel cannot call getrusage() for itself, and an
 * SQPOLL thread is the kernel's, not ours)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

/**
 * bq_thread_cpu() - the calling thread's CPU time and context switches
 * @c: filled in; all zero if the kernel does not say
 */
void bq_thread_cpu(struct bq_thread_cpu *c)
{
	struct rusage ru;

	memset(c, 0, sizeof(*c));
	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	c->usr_ns = tv_ns(&ru.ru_utime);
	c->sys_ns = tv_ns(&ru.ru_stime);
	c->vol_cs = (uint64_t)ru.ru_nvcsw;
	c->invol_cs = (uint64_t)ru.ru_nivcsw;
}

int bq_task_cpu(int tid, uint64_t *usr_ns, uint64_t *sys_ns)
{
	unsigned long long ut, st;
	char path[64], stat[1024];
	long tick = sysconf(_SC_CLK_TCK);
	const char *end_of_comm;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (tid <= 0 || tick <= 0 || bq_read_str(path, stat, sizeof(stat)))
		return -ESRCH;
	/* comm may hold anything, ")" too: the fields start after the last one. */
	end_of_comm = strrchr(stat, ')');
	if (!end_of_comm || sscanf(end_of_comm + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
				   "%*u %llu %llu", &ut, &st) != 2)
		return -EINVAL;
	*usr_ns = ut * (1000000000ULL / (uint64_t)tick);
	*sys_ns = st * (1000000000ULL / (uint64_t)tick);
	return 0;
}
