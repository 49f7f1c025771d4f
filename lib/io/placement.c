// SPDX-License-Identifier: GPL-2.0-only
/*
 * placement.c - which CPU each I/O thread runs on
 *
 * A thread submitting to an NVMe drive on the other socket pays for the
 * interconnect on every completion, and two threads sharing a CPU while
 * another idles halve what either can submit.  Placement keeps threads on
 * their device's node and spreads them one per CPU.
 *
 * bq_place() is pure so the engine, the dry-run listing and the tests all
 * see the same answer for the same machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "blkqual_io.h"

/**
 * bq_topology_free() - free a topology
 * @t: the topology; safe on one that bq_topology_read() failed to fill
 */
void bq_topology_free(struct bq_topology *t)
{
	if (t->node_cpus) {
		for (int i = 0; i < t->nr_nodes; i++)
			free(t->node_cpus[i]);
	}
	free(t->node_cpus);
	free(t->node_nr_cpus);
	free(t->node_ids);
	memset(t, 0, sizeof(*t));
}

static int topology_alloc(struct bq_topology *t, int nr_nodes)
{
	t->node_ids = calloc(nr_nodes, sizeof(*t->node_ids));
	t->node_cpus = calloc(nr_nodes, sizeof(*t->node_cpus));
	t->node_nr_cpus = calloc(nr_nodes, sizeof(*t->node_nr_cpus));
	if (!t->node_ids || !t->node_cpus || !t->node_nr_cpus)
		return -ENOMEM;
	t->nr_nodes = nr_nodes;
	return 0;
}

/* Keep the CPUs of @cpus that are online, in order; both lists ascend. */
static int keep_online(struct bq_topology *t, int i, const int *cpus, int n,
		       const int *online, int nr_online)
{
	int j = 0, kept = 0;

	t->node_cpus[i] = calloc(n ? n : 1, sizeof(int));
	if (!t->node_cpus[i])
		return -ENOMEM;
	for (int k = 0; k < n; k++) {
		while (j < nr_online && online[j] < cpus[k])
			j++;
		if (j < nr_online && online[j] == cpus[k])
			t->node_cpus[i][kept++] = cpus[k];
	}
	t->node_nr_cpus[i] = kept;
	t->nr_cpus += kept;
	return 0;
}

/**
 * bq_topology_read() - NUMA nodes and their online CPUs from sysfs
 * @ctx: context (a captured tree works like the live /sys)
 * @t: filled in; release with bq_topology_free()
 *
 * A kernel without NUMA has no node directory and gives one node 0 with
 * every online CPU.  A node without online CPUs (memory only, or all its
 * CPUs offline) is listed with none, so a device on it is recognised as
 * having no local CPU.
 *
 * Return: 0; -ENOENT when sysfs lists no online CPU; or -errno.
 */
int bq_topology_read(struct bq_ctx *ctx, struct bq_topology *t)
{
	int *online, *cpus, ids[1024];
	int nr_online, nr_ids, n, ret;

	memset(t, 0, sizeof(*t));
	online = calloc(BQ_MAX_CPUS, sizeof(*online));
	cpus = calloc(BQ_MAX_CPUS, sizeof(*cpus));
	if (!online || !cpus) {
		ret = -ENOMEM;
		goto out_free_lists;
	}
	nr_online = bq_read_list(ctx, online, BQ_MAX_CPUS, "/devices/system/cpu/online");
	if (nr_online <= 0) {
		ret = nr_online ? nr_online : -ENOENT;
		goto out_free_lists;
	}
	nr_ids = bq_read_list(ctx, ids, (int)ARRAY_SIZE(ids), "/devices/system/node/online");
	if (nr_ids < 0) {
		ret = nr_ids;
		goto out_free_lists;
	}

	ret = topology_alloc(t, nr_ids ? nr_ids : 1);
	if (ret)
		goto out_free_topology;
	for (int i = 0; i < t->nr_nodes; i++) {
		const int *list = online;

		n = nr_online;
		t->node_ids[i] = nr_ids ? ids[i] : 0;
		if (nr_ids) {
			n = bq_read_list(ctx, cpus, BQ_MAX_CPUS,
					 "/devices/system/node/node%d/cpulist", ids[i]);
			if (n < 0) {
				ret = n;
				goto out_free_topology;
			}
			list = cpus;
		}
		ret = keep_online(t, i, list, n, online, nr_online);
		if (ret)
			goto out_free_topology;
	}

out_free_topology:
	if (ret)
		bq_topology_free(t);
out_free_lists:
	free(cpus);
	free(online);
	return ret;
}

/*
 * Working state of one bq_place() call.  CPUs are numbered by their
 * position in the topology (node by node, each node's list in order), so
 * "lowest position" is "lowest CPU of the node's list".
 */
struct place_state {
	const struct bq_topology *t;
	int *first;		/* position of each node's first CPU */
	bool *allowed;		/* per position */
	int *load;		/* threads per position */
	int *node_threads;	/* threads per node index */
	int *node_allowed;	/* allowed CPUs per node index */
};

static void place_state_free(struct place_state *s)
{
	free(s->first);
	free(s->allowed);
	free(s->load);
	free(s->node_threads);
	free(s->node_allowed);
}

/*
 * cpus_allowed as a map indexed by CPU number, sized by the machine so
 * that a wild number in the list costs nothing.
 */
static bool *allowed_map(const struct bq_topology *t, const struct bq_place_req *req,
			 int *nr)
{
	int max = -1;
	bool *map;

	for (int i = 0; i < t->nr_nodes; i++) {
		for (int j = 0; j < t->node_nr_cpus[i]; j++) {
			if (t->node_cpus[i][j] > max)
				max = t->node_cpus[i][j];
		}
	}
	*nr = max + 1;
	map = calloc(*nr ? *nr : 1, sizeof(*map));
	if (!map)
		return NULL;
	for (int i = 0; i < req->nr_allowed; i++) {
		if (req->allowed[i] >= 0 && req->allowed[i] < *nr)
			map[req->allowed[i]] = true;
	}
	return map;
}

/* Return: allowed CPUs in all, or -ENOMEM. */
static int place_state_init(struct place_state *s, const struct bq_topology *t,
			    const struct bq_place_req *req)
{
	int nr_pos = 0, nr_allowed = 0, nodes = t->nr_nodes > 0 ? t->nr_nodes : 1;
	bool *map = NULL;
	int nr_map = 0;

	memset(s, 0, sizeof(*s));
	s->t = t;
	if (req->allowed) {
		map = allowed_map(t, req, &nr_map);
		if (!map)
			return -ENOMEM;
	}
	for (int i = 0; i < t->nr_nodes; i++)
		nr_pos += t->node_nr_cpus[i];
	s->first = calloc(nodes, sizeof(*s->first));
	s->node_threads = calloc(nodes, sizeof(*s->node_threads));
	s->node_allowed = calloc(nodes, sizeof(*s->node_allowed));
	s->allowed = calloc(nr_pos ? nr_pos : 1, sizeof(*s->allowed));
	s->load = calloc(nr_pos ? nr_pos : 1, sizeof(*s->load));
	if (!s->first || !s->node_threads || !s->node_allowed || !s->allowed || !s->load) {
		free(map);
		return -ENOMEM;
	}

	for (int i = 0, pos = 0; i < t->nr_nodes; i++) {
		s->first[i] = pos;
		for (int j = 0; j < t->node_nr_cpus[i]; j++, pos++) {
			int cpu = t->node_cpus[i][j];

			s->allowed[pos] = !map || (cpu < nr_map && map[cpu]);
			s->node_allowed[i] += s->allowed[pos];
		}
		nr_allowed += s->node_allowed[i];
	}
	free(map);
	return nr_allowed;
}

/* Least-loaded allowed CPU of node index @i; ties go to the earlier one. */
static int least_loaded(const struct place_state *s, int i)
{
	int best = -1;

	for (int j = 0; j < s->t->node_nr_cpus[i]; j++) {
		int pos = s->first[i] + j;

		if (s->allowed[pos] && (best < 0 || s->load[pos] < s->load[best]))
			best = pos;
	}
	return best;
}

/*
 * Over all nodes: the least-loaded allowed CPU; among equally loaded
 * ones the node with the fewest threads so far, then the lowest node id.
 * Load comes first so that no CPU takes a second thread while another
 * allowed CPU is idle.
 */
static int least_loaded_anywhere(const struct place_state *s, int *node_idx)
{
	const struct bq_topology *t = s->t;
	int best = -1, best_node = -1;

	for (int i = 0; i < t->nr_nodes; i++) {
		int pos = least_loaded(s, i);

		if (pos < 0)
			continue;
		if (best >= 0) {
			if (s->load[pos] > s->load[best])
				continue;
			if (s->load[pos] == s->load[best]) {
				if (s->node_threads[i] > s->node_threads[best_node])
					continue;
				if (s->node_threads[i] == s->node_threads[best_node] &&
				    t->node_ids[i] > t->node_ids[best_node])
					continue;
			}
		}
		best = pos;
		best_node = i;
	}
	*node_idx = best_node;
	return best;
}

static int node_index(const struct bq_topology *t, int id)
{
	for (int i = 0; i < t->nr_nodes; i++) {
		if (t->node_ids[i] == id)
			return i;
	}
	return -1;
}

static void assign(struct place_state *s, int thread, int i, int pos, int *cpu, int *node)
{
	s->load[pos]++;
	s->node_threads[i]++;
	cpu[thread] = s->t->node_cpus[i][pos - s->first[i]];
	node[thread] = s->t->node_ids[i];
}

/**
 * bq_place() - choose a CPU for every thread
 * @t: the machine, from bq_topology_read()
 * @req: the threads; @req->dev_node may be NULL when no device's node is
 *       known, and allowed CPUs that are not online are ignored
 * @cpu: receives a CPU per thread
 * @node: receives that CPU's node per thread
 *
 * A thread whose device is on a node with an allowed CPU runs on that
 * node's least-loaded allowed CPU (ties to the lowest in the node's
 * list), sharing CPUs once every one of them has a thread rather than
 * crossing to another node.  The other threads - device node unknown, or
 * no allowed CPU on it - take the least-loaded allowed CPU anywhere,
 * ties to the node with the fewest threads so far, then the lowest node
 * id, which alternates them over the nodes.  Node-bound threads are
 * placed first so that the others fill in around them instead of taking
 * the CPUs local threads need.
 *
 * Pure: the same input gives the same answer.
 *
 * Return: 0; -EINVAL when no CPU is allowed (or @req is malformed);
 * -ENOMEM.
 */
int bq_place(const struct bq_topology *t, const struct bq_place_req *req, int *cpu, int *node)
{
	struct place_state s;
	int ret;

	if (req->nr_threads < 0 || req->nr_allowed < 0 || (req->nr_allowed && !req->allowed))
		return -EINVAL;
	ret = place_state_init(&s, t, req);
	if (ret < 0)
		goto out_free_state;
	if (!ret) {
		ret = -EINVAL;
		goto out_free_state;
	}

	for (int k = 0; k < req->nr_threads; k++) {
		int i = req->dev_node ? node_index(t, req->dev_node[k]) : -1;

		if (i < 0 || !s.node_allowed[i])
			continue;
		assign(&s, k, i, least_loaded(&s, i), cpu, node);
	}
	for (int k = 0; k < req->nr_threads; k++) {
		int i = req->dev_node ? node_index(t, req->dev_node[k]) : -1;
		int pos;

		if (i >= 0 && s.node_allowed[i])
			continue;
		pos = least_loaded_anywhere(&s, &i);
		assign(&s, k, i, pos, cpu, node);
	}
	ret = 0;

out_free_state:
	place_state_free(&s);
	return ret;
}
