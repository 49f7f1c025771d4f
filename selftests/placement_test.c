// SPDX-License-Identifier: GPL-2.0-only
/*
 * placement_test.c - NUMA topology from sysfs and the choice of CPUs
 *
 * The two-socket capture (node0 = 0-7,16-23, node1 = 8-15,24-31) is the
 * machine placement matters on; this one has a single node.  Hand-built
 * topologies cover what no capture has: sparse node ids, nodes without
 * CPUs.  Odd sysfs trees are written to a temp dir.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "internal.h"
#include "helpers/tree.h"
#include "helpers/run.h"

#define MAX_THREADS 64

static int fixture_ctx(const char *machine, struct bq_ctx **ctx)
{
	char sys[PATH_MAX], proc[PATH_MAX], dev[PATH_MAX];
	struct bq_roots roots = { .sysfs = sys, .proc = proc, .dev = dev };
	const char *top = srctree_path();

	snprintf(sys, sizeof(sys), "%s/selftests/fixtures/inventory/%s/sys", top, machine);
	snprintf(proc, sizeof(proc), "%s/selftests/fixtures/inventory/%s/proc", top, machine);
	snprintf(dev, sizeof(dev), "%s/selftests/fixtures/inventory/%s/dev", top, machine);
	return bq_ctx_new(ctx, &roots);
}

/* Place @n threads, all with the device node @dev_node. */
static int place_all(const struct bq_topology *t, int n, int dev_node, const int *allowed,
		     int nr_allowed, int *cpu, int *node)
{
	int nodes[MAX_THREADS];
	struct bq_place_req req = {
		.nr_threads = n,
		.dev_node = nodes,
		.allowed = allowed,
		.nr_allowed = nr_allowed,
	};

	for (int i = 0; i < n; i++)
		nodes[i] = dev_node;
	return bq_place(t, &req, cpu, node);
}

FIXTURE(two_socket)
{
	struct bq_ctx *ctx;
	struct bq_topology t;
	int cpu[MAX_THREADS];
	int node[MAX_THREADS];
};

FIXTURE_SETUP(two_socket)
{
	ASSERT_EQ(0, fixture_ctx("two-socket-nvme", &self->ctx));
	ASSERT_EQ(0, bq_topology_read(self->ctx, &self->t));
}

FIXTURE_TEARDOWN(two_socket)
{
	bq_topology_free(&self->t);
	bq_ctx_free(self->ctx);
}

TEST_F(two_socket, topology)
{
	const struct bq_topology *t = &self->t;

	ASSERT_EQ(2, t->nr_nodes);
	EXPECT_EQ(32, t->nr_cpus);
	EXPECT_EQ(0, t->node_ids[0]);
	EXPECT_EQ(1, t->node_ids[1]);
	ASSERT_EQ(16, t->node_nr_cpus[0]);
	ASSERT_EQ(16, t->node_nr_cpus[1]);
	EXPECT_EQ(0, t->node_cpus[0][0]);
	EXPECT_EQ(7, t->node_cpus[0][7]);
	EXPECT_EQ(16, t->node_cpus[0][8]);
	EXPECT_EQ(23, t->node_cpus[0][15]);
	EXPECT_EQ(8, t->node_cpus[1][0]);
	EXPECT_EQ(24, t->node_cpus[1][8]);
	EXPECT_EQ(31, t->node_cpus[1][15]);
}

TEST_F(two_socket, four_threads_on_the_device_node)
{
	ASSERT_EQ(0, place_all(&self->t, 4, 1, NULL, 0, self->cpu, self->node));
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(8 + i, self->cpu[i]);
		EXPECT_EQ(1, self->node[i]);
	}
}

TEST_F(two_socket, more_threads_than_node_cpus_share_but_stay_local)
{
	static const int want[20] = {
		8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31, 8, 9, 10, 11,
	};
	int uses[32] = { 0 };

	ASSERT_EQ(0, place_all(&self->t, 20, 1, NULL, 0, self->cpu, self->node));
	for (int i = 0; i < 20; i++) {
		EXPECT_EQ(want[i], self->cpu[i]);
		EXPECT_EQ(1, self->node[i]);
		if (i < 16)
			uses[self->cpu[i]]++;
	}
	/* The first sixteen took every node-1 CPU once. */
	for (int c = 0; c < 32; c++) {
		int local = c >= 8 && (c < 16 || c >= 24);

		EXPECT_EQ(local, uses[c]) TH_LOG("cpu %d", c);
	}
}

TEST_F(two_socket, one_device_per_node)
{
	int dev_node[4] = { 0, 1, 0, 1 };
	struct bq_place_req req = { .nr_threads = 4, .dev_node = dev_node };

	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	EXPECT_EQ(0, self->cpu[0]);
	EXPECT_EQ(8, self->cpu[1]);
	EXPECT_EQ(1, self->cpu[2]);
	EXPECT_EQ(9, self->cpu[3]);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(dev_node[i], self->node[i]);
	/* Threads listed device by device land the same way. */
	dev_node[1] = 0;
	dev_node[2] = 1;
	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	EXPECT_EQ(0, self->cpu[0]);
	EXPECT_EQ(1, self->cpu[1]);
	EXPECT_EQ(8, self->cpu[2]);
	EXPECT_EQ(9, self->cpu[3]);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(dev_node[i], self->node[i]);
}

TEST_F(two_socket, unknown_node_alternates)
{
	static const int want[6] = { 0, 8, 1, 9, 2, 10 };
	struct bq_place_req req = { .nr_threads = 6 };

	ASSERT_EQ(0, place_all(&self->t, 6, -1, NULL, 0, self->cpu, self->node));
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(want[i], self->cpu[i]);
		EXPECT_EQ(i % 2, self->node[i]);
	}
	/* No dev_node array at all means the same. */
	memset(self->cpu, 0xff, sizeof(self->cpu));
	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(want[i], self->cpu[i]);
	/* Nor does a node the machine lacks pin anything. */
	ASSERT_EQ(0, place_all(&self->t, 6, 7, NULL, 0, self->cpu, self->node));
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(want[i], self->cpu[i]);
}

TEST_F(two_socket, unknown_fill_around_local_threads)
{
	int dev_node[18];
	struct bq_place_req req = { .nr_threads = 18, .dev_node = dev_node };

	/* Two unknown threads first, then sixteen for node 1. */
	dev_node[0] = dev_node[1] = -1;
	for (int i = 2; i < 18; i++)
		dev_node[i] = 1;
	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	EXPECT_EQ(0, self->cpu[0]);
	EXPECT_EQ(1, self->cpu[1]);
	EXPECT_EQ(8, self->cpu[2]);
	EXPECT_EQ(31, self->cpu[17]);
	for (int i = 2; i < 18; i++)
		EXPECT_EQ(1, self->node[i]);
}

TEST_F(two_socket, local_threads_placed_before_the_others)
{
	static const int allowed[] = { 0, 8 };
	int dev_node[2] = { -1, 0 };
	struct bq_place_req req = {
		.nr_threads = 2,
		.dev_node = dev_node,
		.allowed = allowed,
		.nr_allowed = 2,
	};

	/*
	 * In thread order the unknown one would take CPU 0 and leave the
	 * node-0 thread to share it.
	 */
	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	EXPECT_EQ(8, self->cpu[0]);
	EXPECT_EQ(0, self->cpu[1]);
}

TEST_F(two_socket, cpus_allowed_off_node_falls_back)
{
	static const int allowed[] = { 0, 1, 2, 3 };
	static const int want[6] = { 0, 1, 2, 3, 0, 1 };

	ASSERT_EQ(0, place_all(&self->t, 6, 1, allowed, 4, self->cpu, self->node));
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(want[i], self->cpu[i]);
		EXPECT_EQ(0, self->node[i]);
	}
}

TEST_F(two_socket, cpus_allowed_within_node)
{
	static const int allowed[] = { 0, 1, 9, 30 };

	/* One allowed CPU on the device's node is enough to keep it local. */
	ASSERT_EQ(0, place_all(&self->t, 3, 1, allowed, 4, self->cpu, self->node));
	EXPECT_EQ(9, self->cpu[0]);
	EXPECT_EQ(30, self->cpu[1]);
	EXPECT_EQ(9, self->cpu[2]);
}

TEST_F(two_socket, nothing_allowed)
{
	static const int offline[] = { 32, 100, 4095 };
	static const int none[1];

	EXPECT_EQ(-EINVAL, place_all(&self->t, 2, 1, offline, 3, self->cpu, self->node));
	EXPECT_EQ(-EINVAL, place_all(&self->t, 2, -1, none, 0, self->cpu, self->node));
	/* Placing nothing still needs somewhere it could go. */
	EXPECT_EQ(-EINVAL, place_all(&self->t, 0, 1, offline, 3, self->cpu, self->node));
	EXPECT_EQ(0, place_all(&self->t, 0, 1, NULL, 0, self->cpu, self->node));
}

TEST_F(two_socket, deterministic)
{
	static const int allowed[] = { 1, 2, 3, 9, 10, 17, 25, 26, 27, 28 };
	int dev_node[MAX_THREADS], cpu2[MAX_THREADS], node2[MAX_THREADS];
	struct bq_place_req req = {
		.nr_threads = 40,
		.dev_node = dev_node,
		.allowed = allowed,
		.nr_allowed = 10,
	};

	for (int i = 0; i < 40; i++)
		dev_node[i] = i % 3 - 1;
	ASSERT_EQ(0, bq_place(&self->t, &req, self->cpu, self->node));
	ASSERT_EQ(0, bq_place(&self->t, &req, cpu2, node2));
	EXPECT_EQ(0, memcmp(self->cpu, cpu2, 40 * sizeof(int)));
	EXPECT_EQ(0, memcmp(self->node, node2, 40 * sizeof(int)));
	for (int i = 0; i < 40; i++)
		EXPECT_EQ(self->cpu[i] >= 8 && self->cpu[i] < 16 ? 1 :
			  self->cpu[i] >= 24 ? 1 : 0, self->node[i]);
}

/* Sparse node ids and a node without CPUs, which no capture has. */
TEST(hand_built_topology)
{
	int n0[] = { 0, 1 }, n2[] = { 0 }, n3[] = { 4, 5 };
	int *cpus[] = { n0, n2, n3 };
	int ids[] = { 0, 2, 3 }, nr[] = { 2, 0, 2 };
	struct bq_topology t = {
		.nr_nodes = 3,
		.node_ids = ids,
		.node_cpus = cpus,
		.node_nr_cpus = nr,
		.nr_cpus = 4,
	};
	int dev_node[3] = { 3, 2, 2 }, cpu[3], node[3];
	struct bq_place_req req = { .nr_threads = 3, .dev_node = dev_node };

	ASSERT_EQ(0, bq_place(&t, &req, cpu, node));
	/* node[] holds node ids, not positions in the topology. */
	EXPECT_EQ(4, cpu[0]);
	EXPECT_EQ(3, node[0]);
	/* Node 2 has no CPU: the node with fewer threads (0) takes it. */
	EXPECT_EQ(0, cpu[1]);
	EXPECT_EQ(0, node[1]);
	/* Then a tie on threads and load: the lower node id. */
	EXPECT_EQ(1, cpu[2]);
	EXPECT_EQ(0, node[2]);
}

FIXTURE(single_node)
{
	struct bq_ctx *ctx;
	struct bq_topology t;
};

FIXTURE_VARIANT(single_node)
{
	const char *name;
	int nr_cpus;
};

FIXTURE_VARIANT_ADD(single_node, virtio_vm)
{
	.name = "virtio-vm",
	.nr_cpus = 2,
};

FIXTURE_VARIANT_ADD(single_node, ssd910)
{
	.name = "ssd910",
	.nr_cpus = 12,
};

FIXTURE_VARIANT_ADD(single_node, md_raid0)
{
	.name = "md-raid0",
	.nr_cpus = 24,
};

FIXTURE_SETUP(single_node)
{
	ASSERT_EQ(0, fixture_ctx(variant->name, &self->ctx));
	ASSERT_EQ(0, bq_topology_read(self->ctx, &self->t));
}

FIXTURE_TEARDOWN(single_node)
{
	bq_topology_free(&self->t);
	bq_ctx_free(self->ctx);
}

TEST_F(single_node, one_node_every_cpu)
{
	const struct bq_topology *t = &self->t;
	int n = variant->nr_cpus + 1, cpu[MAX_THREADS], node[MAX_THREADS];

	ASSERT_EQ(1, t->nr_nodes);
	EXPECT_EQ(0, t->node_ids[0]);
	EXPECT_EQ(variant->nr_cpus, t->nr_cpus);
	ASSERT_EQ(variant->nr_cpus, t->node_nr_cpus[0]);
	for (int i = 0; i < variant->nr_cpus; i++)
		EXPECT_EQ(i, t->node_cpus[0][i]);
	/* Known node or not, one thread per CPU, then the first again. */
	ASSERT_EQ(0, place_all(t, n, 0, NULL, 0, cpu, node));
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(i % variant->nr_cpus, cpu[i]);
		EXPECT_EQ(0, node[i]);
	}
	ASSERT_EQ(0, place_all(t, n, -1, NULL, 0, cpu, node));
	for (int i = 0; i < n; i++)
		EXPECT_EQ(i % variant->nr_cpus, cpu[i]);
}

/* This machine: whatever it has, sysfs and sched agree on it. */
TEST(live_machine)
{
	struct bq_roots roots = { .sysfs = "/sys", .proc = "/proc", .dev = "/dev" };
	int *cpu, *node, *seen, n, total = 0;
	struct bq_topology t;
	struct bq_ctx *ctx;

	ASSERT_EQ(0, bq_ctx_new(&ctx, &roots));
	ASSERT_TRUE(bq_ctx_is_live(ctx));
	ASSERT_EQ(0, bq_topology_read(ctx, &t));
	n = t.nr_cpus;
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), n);
	ASSERT_GE(t.nr_nodes, 1);
	for (int i = 0; i < t.nr_nodes; i++)
		total += t.node_nr_cpus[i];
	EXPECT_EQ(n, total);
	cpu = calloc(n, sizeof(*cpu));
	node = calloc(n, sizeof(*node));
	seen = calloc(8192, sizeof(*seen));
	ASSERT_TRUE(cpu && node && seen);
	{
		struct bq_place_req req = { .nr_threads = n };

		ASSERT_EQ(0, bq_place(&t, &req, cpu, node));
	}
	/* As many threads as CPUs: each CPU exactly once. */
	for (int i = 0; i < n; i++) {
		ASSERT_GE(cpu[i], 0);
		ASSERT_LT(cpu[i], 8192);
		EXPECT_EQ(0, seen[cpu[i]]++) TH_LOG("cpu %d twice", cpu[i]);
	}
	free(seen);
	free(node);
	free(cpu);
	bq_topology_free(&t);
	bq_ctx_free(ctx);
}

FIXTURE(tree)
{
	char dir[64];
	struct bq_ctx *ctx;
	struct bq_topology t;
};

static void put(const char *dir, const char *rel, const char *content)
{
	char path[256];

	snprintf(path, sizeof(path), "sys/%s", rel);
	tree_put(dir, path, content);
}

FIXTURE_SETUP(tree)
{
	char sys[128];
	struct bq_roots roots = { .sysfs = sys, .proc = "/nonexistent", .dev = "/nonexistent" };

	snprintf(self->dir, sizeof(self->dir), "/tmp/blkqual-place.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(sys, sizeof(sys), "%s/sys", self->dir);
	ASSERT_EQ(0, mkdir(sys, 0755));
	ASSERT_EQ(0, bq_ctx_new(&self->ctx, &roots));
	memset(&self->t, 0, sizeof(self->t));
}

FIXTURE_TEARDOWN(tree)
{
	bq_topology_free(&self->t);
	bq_ctx_free(self->ctx);
	if (self->dir[0] && tree_remove(self->dir))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(tree, no_numa_is_one_node)
{
	put(self->dir, "devices/system/cpu/online", "0-3\n");
	ASSERT_EQ(0, bq_topology_read(self->ctx, &self->t));
	ASSERT_EQ(1, self->t.nr_nodes);
	EXPECT_EQ(0, self->t.node_ids[0]);
	ASSERT_EQ(4, self->t.node_nr_cpus[0]);
	EXPECT_EQ(4, self->t.nr_cpus);
	EXPECT_EQ(3, self->t.node_cpus[0][3]);
}

TEST_F(tree, offline_cpus_are_left_out)
{
	put(self->dir, "devices/system/cpu/online", "0-2,4-7\n");
	put(self->dir, "devices/system/node/online", "0-1\n");
	put(self->dir, "devices/system/node/node0/cpulist", "0-3\n");
	put(self->dir, "devices/system/node/node1/cpulist", "4-7\n");
	ASSERT_EQ(0, bq_topology_read(self->ctx, &self->t));
	ASSERT_EQ(2, self->t.nr_nodes);
	EXPECT_EQ(7, self->t.nr_cpus);
	ASSERT_EQ(3, self->t.node_nr_cpus[0]);
	EXPECT_EQ(2, self->t.node_cpus[0][2]);
	ASSERT_EQ(4, self->t.node_nr_cpus[1]);
	EXPECT_EQ(4, self->t.node_cpus[1][0]);
}

TEST_F(tree, memory_only_node)
{
	int dev_node[2] = { 2, 2 }, cpu[2], node[2];
	struct bq_place_req req = { .nr_threads = 2, .dev_node = dev_node };

	put(self->dir, "devices/system/cpu/online", "0-3\n");
	put(self->dir, "devices/system/node/online", "0,2\n");
	put(self->dir, "devices/system/node/node0/cpulist", "0-3\n");
	put(self->dir, "devices/system/node/node2/cpulist", "\n");
	ASSERT_EQ(0, bq_topology_read(self->ctx, &self->t));
	ASSERT_EQ(2, self->t.nr_nodes);
	EXPECT_EQ(2, self->t.node_ids[1]);
	EXPECT_EQ(0, self->t.node_nr_cpus[1]);
	/* A device on a CPU-less node (CXL memory, say) runs anywhere. */
	ASSERT_EQ(0, bq_place(&self->t, &req, cpu, node));
	EXPECT_EQ(0, cpu[0]);
	EXPECT_EQ(1, cpu[1]);
	EXPECT_EQ(0, node[1]);
}

TEST_F(tree, broken_trees_fail)
{
	EXPECT_EQ(-ENOENT, bq_topology_read(self->ctx, &self->t));
	put(self->dir, "devices/system/cpu/online", "0-3,2\n");
	EXPECT_EQ(-EINVAL, bq_topology_read(self->ctx, &self->t));
	put(self->dir, "devices/system/cpu/online", "0-3\n");
	put(self->dir, "devices/system/node/online", "0\n");
	put(self->dir, "devices/system/node/node0/cpulist", "zero\n");
	EXPECT_EQ(-EINVAL, bq_topology_read(self->ctx, &self->t));
	EXPECT_EQ(0, self->t.nr_nodes);
}

TEST_HARNESS_MAIN
