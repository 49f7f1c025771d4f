// SPDX-License-Identifier: GPL-2.0-only
/*
 * placement_policy.c - fio's cpus_allowed_policy (and numa_cpu_nodes)
 * over blkqual's placement
 *
 * blkqual pins each thread to one CPU of its cpus_allowed list, the least
 * loaded near the device.  A job that names the policy is left out of
 * that placement (run.c) and gets fio's meaning instead: with shared
 * every thread may run on the whole list; with split the run's thread N
 * (counted over all jobs, from 0, as fio numbers its threads) gets the
 * list's CPU N modulo the list's length.  A job with numa_cpu_nodes is
 * left unpinned: its threads set their affinity themselves.
 */
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "run_int.h"

/* The node of every CPU in @cpus, or -1 when they span several. */
static int common_node(const int *cpus, int n)
{
	int node = -1;

	if (numa_available() < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int c = numa_node_of_cpu(cpus[i]);

		if (c < 0 || (i && c != node))
			return -1;
		node = c;
	}
	return node;
}

static void apply(struct bq_job_result *jr, struct bq_worker *w, unsigned int i,
		  unsigned int thread_nr, const int *cpus, int n)
{
	/* Not placed by blkqual: an SQ poll thread goes where the kernel puts it. */
	w->sqpoll_cpu = -1;
	if (jr->job.cpus_policy == BQ_CPUS_SPLIT) {
		int cpu = cpus[thread_nr % (unsigned int)n];

		w->cpu = jr->threads[i].cpu = cpu;
		w->node = jr->threads[i].node = common_node(&cpu, 1);
		return;
	}
	w->cpu_shared = true;
	CPU_ZERO(&w->cpuset);
	for (int c = 0; c < n; c++)
		if (cpus[c] < CPU_SETSIZE)
			CPU_SET(cpus[c], &w->cpuset);
	/* No one CPU: the report says -1, and the node only when the list has one. */
	w->cpu = jr->threads[i].cpu = -1;
	w->node = jr->threads[i].node = common_node(cpus, n);
}

/**
 * run_place_policy() - apply cpus_allowed_policy after blkqual's placement
 * @st: the run, its threads placed
 * @err: filled in on failure
 *
 * Return: 0, or -errno with @err.
 */
int run_place_policy(struct run_state *st, struct bq_parse_error *err)
{
	enum { MAX_CPUS = 65536 };
	unsigned int thread_nr = 0;
	int *cpus = NULL;

	for (size_t k = 0; k < st->res->nr; k++) {
		struct bq_job_result *jr = &st->res->jobs[k];
		const struct bq_job *j = &jr->job;
		int n;

		/* numa_cpu_nodes: the thread sets its own affinity (numa_policy.c). */
		for (unsigned int i = 0; j->numa_cpu_nodes[0] && i < j->numjobs; i++) {
			struct bq_worker *w = &st->workers[st->js[k].first_worker + (int)i];

			w->cpu = jr->threads[i].cpu = -1;
			w->node = jr->threads[i].node = -1;
			w->sqpoll_cpu = -1;
		}
		if (j->cpus_policy == BQ_CPUS_PLACED || !j->cpus_allowed[0]) {
			thread_nr += j->numjobs;
			continue;
		}
		if (!cpus) {
			cpus = malloc(MAX_CPUS * sizeof(*cpus));
			if (!cpus)
				return bq_fail_at(err, j->name, -ENOMEM, "out of memory");
		}
		n = bq_cpulist_parse(j->cpus_allowed, cpus, MAX_CPUS);
		if (n <= 0) {
			free(cpus);
			return bq_fail_at(err, "cpus_allowed", -EINVAL, "%s: no CPU", j->name);
		}
		for (unsigned int i = 0; i < j->numjobs; i++, thread_nr++)
			apply(jr, &st->workers[st->js[k].first_worker + (int)i], i, thread_nr,
			      cpus, n);
	}
	free(cpus);
	return 0;
}
