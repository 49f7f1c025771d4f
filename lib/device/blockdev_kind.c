// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockdev_kind.c - what drives a block device, and the facts of each kind
 *
 * The kind is read from sysfs structure (a loop/ or md/ directory, the bus
 * device's attributes), not guessed from the name alone, because names
 * like "sd" are shared by ATA, SAS, USB and iSCSI disks alike.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static const char *const kind_names[] = {
	[BQ_DEV_OTHER] = "other",
	[BQ_DEV_NVME] = "nvme",
	[BQ_DEV_SCSI] = "scsi",
	[BQ_DEV_VIRTIO] = "virtio",
	[BQ_DEV_LOOP] = "loop",
	[BQ_DEV_MD] = "md",
	[BQ_DEV_DM] = "dm",
	[BQ_DEV_ZRAM] = "zram",
	[BQ_DEV_NULLB] = "null_blk",
	[BQ_DEV_RAM] = "ram",
};

const char *bq_dev_kind_name(enum bq_dev_kind kind)
{
	if ((size_t)kind >= ARRAY_SIZE(kind_names) || !kind_names[kind])
		return "other";
	return kind_names[kind];
}

static bool has(const char *dir, const char *entry)
{
	char path[PATH_MAX];
	struct stat st;

	return !bq_path(path, sizeof(path), dir, "/%s", entry) && !stat(path, &st);
}

static void link_basename(const char *dir, const char *link, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	buf[0] = '\0';
	if (bq_path(path, sizeof(path), dir, "/%s", link))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	bq_strlcpy(buf, basename(target), len);
}

static bool is_pci_address(const char *s)
{
	unsigned int dom, bus, slot, fn;
	char tail;

	return sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &slot, &fn, &tail) == 4;
}

/* The last path component, without modifying the caller's string. */
static void base_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	bq_strlcpy(buf, slash ? slash + 1 : path, len);
}

/* A multipath head's "device" is the subsystem; report its first controller. */
static void nvme_ctrl_dir(const char *devreal, char *ctrl, size_t len)
{
	struct bq_strv names = { 0 };

	bq_strlcpy(ctrl, devreal, len);
	if (!strstr(devreal, "/nvme-subsys") || bq_list_dir(devreal, &names))
		return;
	for (size_t i = 0; i < names.n; i++) {
		unsigned int n;
		char tail;

		if (sscanf(names.v[i], "nvme%u%c", &n, &tail) == 1) {
			bq_path(ctrl, len, devreal, "/%s", names.v[i]);
			break;
		}
	}
	bq_strv_free(&names);
}

static void fill_nvme(struct bq_ctx *ctx, const char *sysdir, const char *devreal,
		      struct bq_device *dev)
{
	struct bq_nvme_info *n = &dev->nvme;
	char ctrl[PATH_MAX];

	nvme_ctrl_dir(devreal, ctrl, sizeof(ctrl));
	base_of(ctrl, n->ctrl, sizeof(n->ctrl));
	bq_attr_str(ctrl, "model", dev->model, sizeof(dev->model));
	bq_attr_str(ctrl, "serial", dev->serial, sizeof(dev->serial));
	bq_attr_str(ctrl, "firmware_rev", dev->firmware, sizeof(dev->firmware));
	bq_attr_str(ctrl, "transport", n->transport, sizeof(n->transport));
	bq_attr_str(ctrl, "address", n->address, sizeof(n->address));
	bq_attr_str(ctrl, "subsysnqn", n->subsysnqn, sizeof(n->subsysnqn));
	n->cntlid = (uint32_t)bq_attr_u64(ctrl, "cntlid", 0);
	n->queue_count = bq_attr_int(ctrl, "queue_count", 0);
	n->nsid = (uint32_t)bq_attr_u64(sysdir, "nsid", 0);
	n->metadata_bytes = (uint32_t)bq_attr_u64(sysdir, "metadata_bytes", 0);
	/* Poll queues are a module parameter; io_poll says whether this one polls. */
	n->poll_queues = bq_attr_int(ctx->sysfs, "module/nvme/parameters/poll_queues", -1);
}

static void fill_scsi(const char *devreal, struct bq_device *dev)
{
	struct bq_scsi_info *s = &dev->scsi;
	char host[PATH_MAX], parent[PATH_MAX], path[PATH_MAX];
	char *slash;

	base_of(devreal, s->hctl, sizeof(s->hctl));
	bq_attr_str(devreal, "vendor", s->vendor, sizeof(s->vendor));
	bq_attr_str(devreal, "model", s->model, sizeof(s->model));
	bq_attr_str(devreal, "rev", s->rev, sizeof(s->rev));
	s->queue_depth = (uint32_t)bq_attr_u64(devreal, "queue_depth", 0);
	snprintf(dev->model, sizeof(dev->model), "%s%s%s", s->vendor,
		 s->vendor[0] && s->model[0] ? " " : "", s->model);
	bq_strlcpy(dev->firmware, s->rev, sizeof(dev->firmware));

	/* LUN -> target -> hostN -> the adapter (a PCI function, usually). */
	bq_strlcpy(host, devreal, sizeof(host));
	while ((slash = strrchr(host, '/'))) {
		unsigned int n;
		char tail;

		if (sscanf(slash + 1, "host%u%c", &n, &tail) == 1)
			break;
		*slash = '\0';
	}
	if (!slash)
		return;
	base_of(host, s->host, sizeof(s->host));
	if (!bq_path(path, sizeof(path), host, "/scsi_host/%s", s->host))
		bq_attr_str(path, "proc_name", s->host_driver, sizeof(s->host_driver));
	/* The adapter's PCI function: right above a SAS host, above ataN for AHCI. */
	bq_strlcpy(parent, host, sizeof(parent));
	while ((slash = strrchr(parent, '/'))) {
		*slash = '\0';
		slash = strrchr(parent, '/');
		if (slash && is_pci_address(slash + 1)) {
			bq_strlcpy(s->host_address, slash + 1, sizeof(s->host_address));
			break;
		}
	}
}

static void fill_loop(const char *sysdir, struct bq_device *dev)
{
	struct bq_loop_info *l = &dev->loop;
	char loopdir[PATH_MAX];

	if (bq_path(loopdir, sizeof(loopdir), sysdir, "/loop"))
		return;
	bq_attr_str(loopdir, "backing_file", l->backing_file, sizeof(l->backing_file));
	l->offset = bq_attr_u64(loopdir, "offset", 0);
	l->sizelimit = bq_attr_u64(loopdir, "sizelimit", 0);
	l->direct_io = bq_attr_int(loopdir, "dio", 0) == 1;
	l->autoclear = bq_attr_int(loopdir, "autoclear", 0) == 1;
}

static void fill_md(const char *sysdir, struct bq_device *dev)
{
	struct bq_md_info *m = &dev->md;
	char mddir[PATH_MAX];

	if (bq_path(mddir, sizeof(mddir), sysdir, "/md"))
		return;
	bq_attr_str(mddir, "level", m->level, sizeof(m->level));
	bq_attr_str(mddir, "metadata_version", m->metadata, sizeof(m->metadata));
	bq_attr_str(mddir, "array_state", m->state, sizeof(m->state));
	m->chunk_size = bq_attr_u64(mddir, "chunk_size", 0);
	m->raid_disks = bq_attr_int(mddir, "raid_disks", 0);
	m->layout = bq_attr_int(mddir, "layout", 0);
}

static enum bq_dev_kind detect(const char *sysdir, const char *devreal, const char *name)
{
	/* An unbound loop device has no loop/ directory, only its name. */
	if (has(sysdir, "loop") || !strncmp(name, "loop", 4))
		return BQ_DEV_LOOP;
	if (has(sysdir, "md"))
		return BQ_DEV_MD;
	if (has(sysdir, "dm"))
		return BQ_DEV_DM;
	if (!strncmp(name, "zram", 4))
		return BQ_DEV_ZRAM;
	if (!strncmp(name, "nullb", 5))
		return BQ_DEV_NULLB;
	if (!strncmp(name, "ram", 3))
		return BQ_DEV_RAM;
	if (!devreal)
		return BQ_DEV_OTHER;
	if (strstr(devreal, "/nvme/") || strstr(devreal, "/nvme-subsys"))
		return BQ_DEV_NVME;
	if (has(devreal, "scsi_level"))
		return BQ_DEV_SCSI;
	if (strstr(devreal, "/virtio"))
		return BQ_DEV_VIRTIO;
	return BQ_DEV_OTHER;
}

/* NUMA node and driver of the nearest bus device above @devreal. */
static void bus_facts(struct bq_ctx *ctx, const char *devreal, int *numa_node,
		      char *driver, size_t len)
{
	char stop[PATH_MAX], real_stop[PATH_MAX], found[PATH_MAX];

	*numa_node = -1;
	if (bq_path(stop, sizeof(stop), ctx->sysfs, "/devices"))
		return;
	/* Compare resolved paths: the sysfs root may itself be a link. */
	if (!realpath(stop, real_stop))
		bq_strlcpy(real_stop, stop, sizeof(real_stop));
	if (!bq_find_up(devreal, real_stop, "numa_node", found, sizeof(found)))
		*numa_node = bq_attr_int(found, "numa_node", -1);
	if (driver && !bq_find_up(devreal, real_stop, "driver", found, sizeof(found)))
		link_basename(found, "driver", driver, len);
}

/*
 * A stacked device (md, dm) has no bus of its own; it lives where all of
 * its members live, which is what thread placement needs to know.
 */
static int slaves_numa_node(struct bq_ctx *ctx, const char *sysdir)
{
	struct bq_strv slaves = { 0 };
	char path[PATH_MAX], devreal[PATH_MAX];
	int node = -1;

	if (bq_path(path, sizeof(path), sysdir, "/slaves") || bq_list_dir(path, &slaves))
		return -1;
	for (size_t i = 0; i < slaves.n; i++) {
		int n = -1;

		if (!bq_path(path, sizeof(path), sysdir, "/slaves/%s/device", slaves.v[i]) &&
		    realpath(path, devreal))
			bus_facts(ctx, devreal, &n, NULL, 0);
		if (n < 0 || (i && n != node)) {
			node = -1;
			break;
		}
		node = n;
	}
	bq_strv_free(&slaves);
	return node;
}

/**
 * bq_fill_kind() - detect the device's kind and read its kind's facts
 * @ctx: context
 * @sysdir: the whole disk's sysfs directory
 * @dev: device to fill (name already set)
 *
 * Also sets the NUMA node and driver of the nearest bus device.
 */
void bq_fill_kind(struct bq_ctx *ctx, const char *sysdir, struct bq_device *dev)
{
	char link[PATH_MAX], devreal[PATH_MAX];
	const char *disk = dev->is_partition ? dev->parent : dev->name;
	bool bus = false;

	if (!bq_path(link, sizeof(link), sysdir, "/device") && realpath(link, devreal))
		bus = true;
	dev->kind = detect(sysdir, bus ? devreal : NULL, disk);
	if (bus)
		bus_facts(ctx, devreal, &dev->numa_node, dev->driver, sizeof(dev->driver));
	else
		dev->numa_node = slaves_numa_node(ctx, sysdir);

	switch (dev->kind) {
	case BQ_DEV_NVME:
		fill_nvme(ctx, sysdir, devreal, dev);
		break;
	case BQ_DEV_SCSI:
		fill_scsi(devreal, dev);
		break;
	case BQ_DEV_VIRTIO:
		bq_attr_str(sysdir, "serial", dev->serial, sizeof(dev->serial));
		break;
	case BQ_DEV_LOOP:
		fill_loop(sysdir, dev);
		break;
	case BQ_DEV_MD:
		fill_md(sysdir, dev);
		break;
	case BQ_DEV_ZRAM:
		if (bq_path(link, sizeof(link), sysdir, "/comp_algorithm") ||
		    bq_read_bracketed(link, dev->zram_algorithm, sizeof(dev->zram_algorithm)))
			dev->zram_algorithm[0] = '\0';
		break;
	default:
		break;
	}
}
