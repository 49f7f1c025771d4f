/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_placement.h - CPU placement of a job's threads near its device
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_PLACEMENT_H
#define BLKQUAL_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_verify_report;

/* ---- CPU placement ----------------------------------------------------- */

/**
 * struct bq_topology - NUMA nodes and their online CPUs
 */
struct bq_topology {
	int nr_nodes;
	int *node_ids;		/* nr_nodes entries */
	int **node_cpus;	/* per node, ascending */
	int *node_nr_cpus;
	int nr_cpus;		/* online CPUs in all */
};

/**
 * bq_topology_read() - nodes and CPUs from sysfs (movable root)
 * @ctx: context
 * @t: filled in; a kernel without NUMA gives one node 0 with every CPU
 *
 * Return: 0 or -errno.
 */
int bq_topology_read(struct bq_ctx *ctx, struct bq_topology *t);

/**
 * bq_topology_free() - free a topology
 * @t: the topology
 */
void bq_topology_free(struct bq_topology *t);

/**
 * struct bq_place_req - what placement must satisfy
 * @nr_threads: threads to place
 * @dev_node: NUMA node of each thread's device (-1: unknown)
 * @allowed: CPUs a thread may use (cpus_allowed), or NULL for all
 * @nr_allowed: entries in @allowed
 */
struct bq_place_req {
	int nr_threads;
	const int *dev_node;
	const int *allowed;
	int nr_allowed;
};

/**
 * bq_place() - choose a CPU for every thread
 * @t: the machine
 * @req: the threads
 * @cpu: receives a CPU per thread
 * @node: receives that CPU's node per thread
 *
 * Pure: the same input gives the same answer.  Threads go to CPUs of
 * their device's node first, one thread per CPU before any CPU is shared;
 * threads whose device has no node are spread over all nodes.
 *
 * Return: 0, -EINVAL when no allowed CPU exists, or -ENOMEM.
 */
int bq_place(const struct bq_topology *t, const struct bq_place_req *req, int *cpu, int *node);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_PLACEMENT_H */
