// SPDX-License-Identifier: GPL-2.0-only
/*
 * numa_policy.c - fio's numa_cpu_nodes and numa_mem_policy, applied by
 * each worker thread to itself before its buffers are allocated
 *
 * The system calls are made here rather than through libnuma's setters,
 * which print their failures: the library returns them instead.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#ifndef MPOL_LOCAL
#define MPOL_LOCAL	4
#endif

/* @list ("all" or "0-1,3") as a node mask of existing nodes; NULL with the reason. */
static struct bitmask *node_mask(struct bq_worker *w, const char *key, const char *list)
{
	int max = numa_max_node(), *nodes = NULL, n = 0;
	struct bitmask *mask = numa_allocate_nodemask();

	if (!mask)
		goto out_nomem;
	if (!strcmp(list, "all")) {
		copy_bitmask_to_bitmask(numa_all_nodes_ptr, mask);
		return mask;
	}
	nodes = malloc(1024 * sizeof(*nodes));
	if (!nodes)
		goto out_nomem;
	n = bq_cpulist_parse(list, nodes, 1024);
	for (int i = 0; i < n; i++) {
		if (nodes[i] > max || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)nodes[i])) {
			snprintf(w->setup_msg, sizeof(w->setup_msg), "%s: node %d does not exist",
				 key, nodes[i]);
			numa_free_nodemask(mask);
			free(nodes);
			errno = EINVAL;
			return NULL;
		}
		numa_bitmask_setbit(mask, (unsigned int)nodes[i]);
	}
	free(nodes);
	return mask;
out_nomem:
	if (mask)
		numa_free_nodemask(mask);
	snprintf(w->setup_msg, sizeof(w->setup_msg), "%s: out of memory", key);
	errno = ENOMEM;
	return NULL;
}

static const int mem_modes[] = {
	[BQ_NUMA_MEM_DEFAULT] = MPOL_DEFAULT, [BQ_NUMA_MEM_PREFER] = MPOL_PREFERRED,
	[BQ_NUMA_MEM_BIND] = MPOL_BIND, [BQ_NUMA_MEM_INTERLEAVE] = MPOL_INTERLEAVE,
	[BQ_NUMA_MEM_LOCAL] = MPOL_LOCAL,
};

/* The thread's policy (@addr NULL), or that of the mapping @addr, @len. */
static int set_policy(struct bq_worker *w, const struct bq_job *j, void *addr, size_t len)
{
	struct bitmask *mask = NULL;
	int ret;

	if (j->numa_mem_nodes[0]) {
		mask = node_mask(w, "numa_mem_policy", j->numa_mem_nodes);
		if (!mask)
			return -1;
	}
	if (addr)
		ret = (int)mbind(addr, len, mem_modes[j->numa_mem_mode],
				 mask ? mask->maskp : NULL, mask ? mask->size + 1 : 0, 0);
	else
		ret = set_mempolicy(mem_modes[j->numa_mem_mode], mask ? mask->maskp : NULL,
				    mask ? mask->size + 1 : 0);
	if (ret)
		snprintf(w->setup_msg, sizeof(w->setup_msg), "numa_mem_policy=%s: %s",
			 j->numa_mem_nodes, strerror(errno));
	if (mask)
		numa_free_nodemask(mask);
	return ret;
}

/**
 * bq_numa_apply() - the job's NUMA options for the calling worker thread
 * @w: the worker, pinned as placed
 *
 * numa_cpu_nodes lets the thread run on every CPU of those nodes (the
 * run left it unpinned, run_place_policy()); numa_mem_policy becomes the
 * thread's memory policy, which its buffers then follow.
 *
 * Return: 0, or -1 with errno and @w->setup_msg.
 */
int bq_numa_apply(struct bq_worker *w)
{
	const struct bq_job *j = w->job;

	if (!j->numa_cpu_nodes[0] && !j->numa_mem_mode)
		return 0;
	if (numa_available() < 0) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "%s: NUMA is not available here",
			 j->numa_cpu_nodes[0] ? "numa_cpu_nodes" : "numa_mem_policy");
		errno = EOPNOTSUPP;
		return -1;
	}
	if (j->numa_cpu_nodes[0]) {
		struct bitmask *mask = node_mask(w, "numa_cpu_nodes", j->numa_cpu_nodes);
		int ret;

		if (!mask)
			return -1;
		ret = numa_run_on_node_mask(mask);
		numa_free_nodemask(mask);
		if (ret) {
			snprintf(w->setup_msg, sizeof(w->setup_msg), "numa_cpu_nodes=%s: %s",
				 j->numa_cpu_nodes, strerror(errno));
			return -1;
		}
	}
	return j->numa_mem_mode ? set_policy(w, j, NULL, 0) : 0;
}

/**
 * bq_numa_alloc() - a numa_mem_policy job's buffers
 * @w: the worker, its policy set (bq_numa_apply())
 * @len: bytes, whole pages
 *
 * The mapping gets the thread's policy as its own too, before a page is
 * touched: the same placement, and one that /proc/PID/numa_maps shows.
 *
 * Return: the buffers, or NULL with @w->setup_msg.
 */
void *bq_numa_alloc(struct bq_worker *w, size_t len)
{
	void *p = numa_alloc(len);

	if (p && set_policy(w, w->job, p, len)) {
		numa_free(p, len);
		return NULL;
	}
	return p;
}
