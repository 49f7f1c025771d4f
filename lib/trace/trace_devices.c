// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_devices.c - which devices a block trace follows, and the facts
 * its figures are read against (nodes, rq_affinity, arrays' members)
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_trace.h"
#include "internal.h"

/* Add one device by number and name; -E2BIG when there is no room. */
static int follow_one(struct bq_trace_devs *f, dev_t devt, const char *name)
{
	for (int n = 0; n < f->nr; n++)
		if (f->devt[n] == devt)
			return 0;
	if (f->nr == BQ_TRACE_MAX_DEVS)
		return -E2BIG;
	f->devt[f->nr] = devt;
	bq_strlcpy(f->name[f->nr], name, sizeof(f->name[f->nr]));
	f->nr++;
	return 0;
}

/*
 * A partition's requests are its disk's (the block layer queues them on
 * the disk): the disk is followed, under its own name.
 */
static int follow(struct bq_ctx *ctx, struct bq_trace_devs *f, const struct bq_device *dev)
{
	struct bq_device disk;
	int ret;

	if (!dev->is_partition || !dev->parent[0] ||
	    bq_device_load_facts(ctx, dev->parent, &disk))
		return follow_one(f, dev->devt, dev->name);
	ret = follow_one(f, disk.devt, disk.name);
	bq_device_release(&disk);
	return ret;
}

/*
 * A stacked device (md, dm) issues no requests of its own: its bios
 * become requests on the devices below it, which are followed too.
 */
static int follow_members(struct bq_ctx *ctx, struct bq_trace_devs *f,
			  const struct bq_device *dev, int depth)
{
	int ret = 0;

	for (size_t i = 0; !ret && depth < 8 && i < dev->slaves.n; i++) {
		struct bq_device m;

		if (bq_device_load_facts(ctx, dev->slaves.v[i], &m))
			continue;
		ret = follow(ctx, f, &m);
		if (!ret)
			ret = follow_members(ctx, f, &m, depth + 1);
		bq_device_release(&m);
	}
	return ret;
}

/**
 * bq_trace_devs_add() - follow a device (a partition's disk), and the members under it
 * @ctx: context
 * @devs: the set so far
 * @devt: the device's number
 *
 * Return: 0, -ENOENT when sysfs knows no such block device, or -E2BIG
 * when the set would pass BQ_TRACE_MAX_DEVS.
 */
int bq_trace_devs_add(struct bq_ctx *ctx, struct bq_trace_devs *devs, dev_t devt)
{
	struct bq_device dev;
	int ret;

	ret = bq_device_facts_devt(ctx, devt, &dev);
	if (ret)
		return ret;
	ret = follow(ctx, devs, &dev);
	if (!ret)
		ret = follow_members(ctx, devs, &dev, 0);
	bq_device_release(&dev);
	return ret;
}

/*
 * Where the interrupts of the device's bus function (the NVMe controller,
 * the SCSI host adapter) are delivered: with rq_affinity 0 a request
 * completes there.
 */
static void irq_facts(struct bq_ctx *ctx, const struct bq_device *dev, struct bq_trace_dev *d)
{
	char sysdir[PATH_MAX], real[PATH_MAX], stop[PATH_MAX], found[PATH_MAX], path[PATH_MAX];
	struct bq_strv irqs = { 0 };

	d->nr_irqs = 0;
	if (bq_path(sysdir, sizeof(sysdir), ctx->sysfs, "/class/block/%s/device", dev->name) ||
	    !realpath(sysdir, real) || bq_path(path, sizeof(path), ctx->sysfs, "/devices") ||
	    !realpath(path, stop) || bq_find_up(real, stop, "msi_irqs", found, sizeof(found)) ||
	    bq_path(path, sizeof(path), found, "/msi_irqs") || bq_list_dir(path, &irqs))
		return;
	for (size_t i = 0; i < irqs.n && d->nr_irqs < (int)ARRAY_SIZE(d->irqs); i++) {
		int n = d->nr_irqs;

		if (bq_path(path, sizeof(path), ctx->proc, "/irq/%s/effective_affinity_list",
			    irqs.v[i]) || bq_read_str(path, d->irqs[n].cpus, sizeof(d->irqs[n].cpus)))
			continue;
		d->irqs[n].irq = atoi(irqs.v[i]);
		d->nr_irqs++;
	}
	bq_strv_free(&irqs);
}

/**
 * bq_trace_facts() - what a trace's figures are read against
 * @ctx: context
 * @r: the figures: each CPU's node, and each device's node, rq_affinity
 *	the followed array it is a member of and its interrupts' CPUs are
 *	filled in
 */
void bq_trace_facts(struct bq_ctx *ctx, struct bq_trace_result *r)
{
	struct bq_topology topo;

	for (int c = 0; c < BQ_TRACE_MAX_CPUS; c++)
		r->cpu_node[c] = -1;
	if (!bq_topology_read(ctx, &topo)) {
		for (int n = 0; n < topo.nr_nodes; n++)
			for (int i = 0; i < topo.node_nr_cpus[n]; i++)
				if (topo.node_cpus[n][i] < BQ_TRACE_MAX_CPUS)
					r->cpu_node[topo.node_cpus[n][i]] = topo.node_ids[n];
		bq_topology_free(&topo);
	}
	for (int i = 0; i < r->nr_devs; i++) {
		struct bq_trace_dev *d = &r->devs[i];
		struct bq_device dev;

		d->numa_node = -1;
		d->rq_affinity = -1;
		if (bq_device_facts_devt(ctx, d->devt, &dev))
			continue;
		d->numa_node = dev.numa_node;
		d->rq_affinity = dev.q.rq_affinity;
		irq_facts(ctx, &dev, d);
		/* A member under a followed array is shown under it. */
		for (size_t h = 0; h < dev.holders.n; h++)
			for (int o = 0; o < r->nr_devs; o++)
				if (!strcmp(dev.holders.v[h], r->devs[o].name))
					bq_strlcpy(d->member_of, r->devs[o].name,
						   sizeof(d->member_of));
		bq_device_release(&dev);
	}
}
