// SPDX-License-Identifier: GPL-2.0-only
/*
 * host.c - the machine a test runs on: CPUs, sockets, NUMA nodes, kernel
 *
 * Read from sysfs and procfs below the context's roots, so the host
 * section of a captured two-socket server is reported as that server's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/**
 * bq_read_list() - read a sysfs list attribute ("0-7,16-23") below the root
 * @ctx: context
 * @ids: receives the numbers, ascending
 * @max: capacity of @ids
 * @fmt: printf format of the path below the sysfs root
 *
 * Return: how many numbers; 0 for a missing file, since a kernel without
 * NUMA has no node directory; -EINVAL, -E2BIG or another -errno.
 */
int bq_read_list(struct bq_ctx *ctx, int *ids, int max, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX], list[4096];
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	ret = bq_path(path, sizeof(path), ctx->sysfs, "%s", rel);
	if (ret)
		return ret;
	ret = bq_read_str(path, list, sizeof(list));
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	return bq_cpulist_parse(list, ids, max);
}

static void read_file(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (bq_path(path, sizeof(path), root, "%s", rel) || bq_read_str(path, buf, len))
		buf[0] = '\0';
}

static void read_cpu_model(struct bq_ctx *ctx, struct bq_host *h)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (bq_path(path, sizeof(path), ctx->proc, "/cpuinfo"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, "model name", 10)) {
			bq_strlcpy(h->cpu_model, colon + 1, sizeof(h->cpu_model));
			bq_strtrim(h->cpu_model);
			break;
		}
	}
	free(line);
	fclose(f);
}

/* "Node 0 MemTotal:  65748392 kB" in node meminfo, "MemTotal: ..." in /proc. */
static uint64_t meminfo_total(const char *path)
{
	char *line = NULL, *p;
	size_t cap = 0;
	uint64_t kb = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		p = strstr(line, "MemTotal:");
		if (p) {
			kb = strtoull(p + 9, NULL, 10);
			break;
		}
	}
	free(line);
	fclose(f);
	return kb * 1024;
}

/* A benchmark on "powersave" is not comparable to one on "performance". */
static void read_governor(struct bq_ctx *ctx, struct bq_host *h, const int *cpus, int n)
{
	char path[PATH_MAX], gov[32];

	for (int i = 0; i < n; i++) {
		if (bq_path(path, sizeof(path), ctx->sysfs,
			    "/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[i]) ||
		    bq_read_str(path, gov, sizeof(gov)))
			continue;
		if (!h->cpu_governor[0]) {
			bq_strlcpy(h->cpu_governor, gov, sizeof(h->cpu_governor));
		} else if (strcmp(h->cpu_governor, gov)) {
			bq_strlcpy(h->cpu_governor, "mixed", sizeof(h->cpu_governor));
			return;
		}
	}
}

static int count_topology(struct bq_ctx *ctx, struct bq_host *h)
{
	char path[PATH_MAX];
	int *cpus, *pkg, *core, n, ret = 0;

	cpus = calloc(BQ_MAX_CPUS, sizeof(*cpus));
	pkg = calloc(BQ_MAX_CPUS, sizeof(*pkg));
	core = calloc(BQ_MAX_CPUS, sizeof(*core));
	if (!cpus || !pkg || !core) {
		ret = -ENOMEM;
		goto out_free;
	}
	n = bq_read_list(ctx, cpus, BQ_MAX_CPUS, "/devices/system/cpu/online");
	if (n < 0) {
		ret = n;
		goto out_free;
	}
	h->threads = n;
	for (int i = 0; i < n; i++) {
		bool new_pkg = true, new_core = true;

		pkg[i] = core[i] = -1;
		if (!bq_path(path, sizeof(path), ctx->sysfs,
			     "/devices/system/cpu/cpu%d/topology/physical_package_id", cpus[i]))
			bq_read_int(path, &pkg[i]);
		if (!bq_path(path, sizeof(path), ctx->sysfs,
			     "/devices/system/cpu/cpu%d/topology/core_id", cpus[i]))
			bq_read_int(path, &core[i]);
		for (int j = 0; j < i; j++) {
			if (pkg[j] == pkg[i]) {
				new_pkg = false;
				if (core[j] == core[i])
					new_core = false;
			}
		}
		h->sockets += new_pkg;
		h->cores += new_core;
	}
	read_governor(ctx, h, cpus, n);
out_free:
	free(cpus);
	free(pkg);
	free(core);
	return ret;
}

static int read_nodes(struct bq_ctx *ctx, struct bq_host *h)
{
	char path[PATH_MAX];
	int ids[1024], n, cpus[BQ_MAX_CPUS / 8];

	n = bq_read_list(ctx, ids, (int)ARRAY_SIZE(ids), "/devices/system/node/online");
	if (n <= 0)
		return n;	/* no NUMA in this kernel: nothing to report */
	h->nodes = calloc(n, sizeof(*h->nodes));
	if (!h->nodes)
		return -ENOMEM;
	h->nr_nodes = n;
	for (int i = 0; i < n; i++) {
		struct bq_numa_node *node = &h->nodes[i];
		int nr;

		node->id = ids[i];
		if (!bq_path(path, sizeof(path), ctx->sysfs,
			     "/devices/system/node/node%d/cpulist", ids[i]))
			bq_read_str(path, node->cpulist, sizeof(node->cpulist));
		nr = bq_cpulist_parse(node->cpulist, cpus, (int)ARRAY_SIZE(cpus));
		node->nr_cpus = nr > 0 ? nr : 0;
		if (!bq_path(path, sizeof(path), ctx->sysfs,
			     "/devices/system/node/node%d/meminfo", ids[i]))
			node->mem_total = meminfo_total(path);
	}
	return 0;
}

int bq_host_scan(struct bq_ctx *ctx, struct bq_host *h)
{
	char path[PATH_MAX];
	int ret;

	memset(h, 0, sizeof(*h));
	read_file(ctx->proc, "/sys/kernel/hostname", h->hostname, sizeof(h->hostname));
	read_file(ctx->proc, "/sys/kernel/osrelease", h->kernel, sizeof(h->kernel));
	read_file(ctx->proc, "/cmdline", h->cmdline, sizeof(h->cmdline));
	read_cpu_model(ctx, h);
	if (!bq_path(path, sizeof(path), ctx->proc, "/meminfo"))
		h->mem_total = meminfo_total(path);
	ret = count_topology(ctx, h);
	if (!ret)
		ret = read_nodes(ctx, h);
	if (ret)
		bq_host_release(h);
	return ret;
}

void bq_host_release(struct bq_host *h)
{
	free(h->nodes);
	h->nodes = NULL;
	h->nr_nodes = 0;
}
