// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockdev.c - enumerate block devices from sysfs
 *
 * Everything is read from sysfs below the context's root rather than
 * through ioctls, so a captured tree of another machine enumerates exactly
 * as that machine did.  Only signatures need the device itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

static void read_queue(const char *qdir, struct bq_queue_limits *q)
{
	char path[PATH_MAX];
	struct bq_strv hctx = { 0 };

	q->logical_block_size = (uint32_t)bq_attr_u64(qdir, "logical_block_size", 0);
	q->physical_block_size = (uint32_t)bq_attr_u64(qdir, "physical_block_size", 0);
	q->minimum_io_size = (uint32_t)bq_attr_u64(qdir, "minimum_io_size", 0);
	q->optimal_io_size = (uint32_t)bq_attr_u64(qdir, "optimal_io_size", 0);
	q->max_sectors_kb = (uint32_t)bq_attr_u64(qdir, "max_sectors_kb", 0);
	q->max_hw_sectors_kb = (uint32_t)bq_attr_u64(qdir, "max_hw_sectors_kb", 0);
	q->max_segments = (uint32_t)bq_attr_u64(qdir, "max_segments", 0);
	q->dma_alignment = (uint32_t)bq_attr_u64(qdir, "dma_alignment", 0);
	q->nr_requests = (uint32_t)bq_attr_u64(qdir, "nr_requests", 0);
	q->discard_granularity = bq_attr_u64(qdir, "discard_granularity", 0);
	q->discard_max_bytes = bq_attr_u64(qdir, "discard_max_bytes", 0);
	q->write_zeroes_max_bytes = bq_attr_u64(qdir, "write_zeroes_max_bytes", 0);
	q->read_ahead_kb = (uint32_t)bq_attr_u64(qdir, "read_ahead_kb", 0);
	q->nomerges = bq_attr_int(qdir, "nomerges", -1);
	q->rq_affinity = bq_attr_int(qdir, "rq_affinity", -1);
	q->rotational = bq_attr_int(qdir, "rotational", -1);
	q->io_poll = bq_attr_int(qdir, "io_poll", -1);
	if (bq_path(path, sizeof(path), qdir, "/scheduler") ||
	    bq_read_bracketed(path, q->scheduler, sizeof(q->scheduler)))
		q->scheduler[0] = '\0';
	if (bq_path(path, sizeof(path), qdir, "/write_cache") ||
	    bq_read_str(path, q->write_cache, sizeof(q->write_cache)))
		q->write_cache[0] = '\0';
	/* One directory per hardware context under mq/, beside queue/. */
	if (!bq_path(path, sizeof(path), qdir, "/../mq") && !bq_list_dir(path, &hctx))
		q->nr_hw_queues = (uint32_t)hctx.n;
	bq_strv_free(&hctx);
}

static int read_devt(const char *sysdir, dev_t *devt)
{
	char path[PATH_MAX], buf[32];
	unsigned int maj, min;
	int ret;

	ret = bq_path(path, sizeof(path), sysdir, "/dev");
	if (!ret)
		ret = bq_read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*devt = makedev(maj, min);
	return 0;
}

static int collect_mounts(const struct bq_mounts *mt, struct bq_device *dev)
{
	for (size_t i = 0; i < mt->nr; i++) {
		int ret;

		if (mt->m[i].devt != dev->devt || bq_strv_contains(&dev->mounts, mt->m[i].target))
			continue;
		ret = bq_strv_add(&dev->mounts, mt->m[i].target);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Through the node sysfs's name leads to, never a symlink in its place,
 * and only when it is that device: what is reported is what is there.
 */
static void probe_signatures(struct bq_ctx *ctx, struct bq_device *dev)
{
	struct stat st;
	int fd, nr;

	fd = open(dev->path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		nr = errno == ELOOP ? -ENOENT : -errno;
	} else if (ctx->live && (fstat(fd, &st) || !S_ISBLK(st.st_mode) ||
				 st.st_rdev != dev->devt)) {
		nr = -ENOENT;
	} else {
		nr = bq_probe_signatures_fd(fd, &dev->sigs);
	}
	if (fd >= 0)
		close(fd);

	if (nr < 0) {
		dev->sig_error = nr;
		dev->nr_sigs = 0;
	} else {
		dev->nr_sigs = nr;
	}
}

static int load_partitions(struct bq_ctx *ctx, const char *sysdir, const struct bq_mounts *mt,
			   struct bq_device *dev)
{
	struct bq_strv names = { 0 };
	int ret;

	ret = bq_list_dir(sysdir, &names);
	if (ret)
		return ret;
	for (size_t i = 0; i < names.n; i++) {
		char path[PATH_MAX];
		struct bq_device *grown;
		struct stat st;

		if (bq_path(path, sizeof(path), sysdir, "/%s/partition", names.v[i]) ||
		    stat(path, &st))
			continue;
		grown = realloc(dev->parts, (dev->nr_parts + 1) * sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		dev->parts = grown;
		ret = bq_device_load_mt(ctx, names.v[i], mt, &dev->parts[dev->nr_parts]);
		if (ret)
			break;
		dev->nr_parts++;
	}
	bq_strv_free(&names);
	return ret;
}

/*
 * With @mt NULL: the sysfs facts alone (queue limits, kind, size,
 * holders), without mounts, swap, signatures or partitions, for a caller
 * that needs no more and should not read the device for them.  With
 * @probe false, all but the device's own signatures (its partitions'
 * are read), for a caller that reads them from its own descriptor.
 */
static int device_load(struct bq_ctx *ctx, const char *name, const struct bq_mounts *mt,
		       bool probe, struct bq_device *dev)
{
	char sysdir[PATH_MAX], real[PATH_MAX], diskdir[PATH_MAX], path[PATH_MAX];
	struct stat st;
	int ret;

	memset(dev, 0, sizeof(*dev));
	dev->numa_node = -1;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT;
	bq_strlcpy(dev->name, name, sizeof(dev->name));
	ret = bq_path(sysdir, sizeof(sysdir), ctx->sysfs, "/class/block/%s", name);
	if (ret)
		return ret;
	if (stat(sysdir, &st) || !realpath(sysdir, real))
		return -ENOENT;
	ret = bq_path(dev->path, sizeof(dev->path), ctx->dev, "/%s", name);
	if (ret)
		return ret;
	ret = read_devt(sysdir, &dev->devt);
	if (ret)
		return ret;

	dev->is_partition = !bq_path(path, sizeof(path), sysdir, "/partition") && !stat(path, &st);
	if (dev->is_partition) {
		char parent[PATH_MAX];

		bq_strlcpy(parent, real, sizeof(parent));
		bq_strlcpy(dev->parent, basename(dirname(parent)), sizeof(dev->parent));
		ret = bq_path(diskdir, sizeof(diskdir), ctx->sysfs, "/class/block/%s",
			      dev->parent);
		if (ret)
			return ret;
	} else {
		bq_strlcpy(diskdir, sysdir, sizeof(diskdir));
	}
	/* A partition shares its disk's queue, bus device and driver. */
	ret = bq_path(path, sizeof(path), diskdir, "/queue");
	if (ret)
		return ret;
	read_queue(path, &dev->q);

	dev->size = bq_attr_u64(sysdir, "size", 0) * 512;
	dev->read_only = bq_attr_int(sysdir, "ro", 0) == 1;
	dev->removable = bq_attr_int(diskdir, "removable", 0) == 1;

	if (bq_path(path, sizeof(path), sysdir, "/holders") == 0)
		ret = bq_list_dir(path, &dev->holders);
	if (!ret && bq_path(path, sizeof(path), sysdir, "/slaves") == 0)
		ret = bq_list_dir(path, &dev->slaves);
	if (!ret && mt)
		ret = collect_mounts(mt, dev);
	if (ret)
		goto out_release;
	bq_fill_kind(ctx, diskdir, dev);
	if (!mt)
		return 0;
	dev->swap = bq_swap_matches(ctx, mt, name, dev->devt);
	if (probe)
		probe_signatures(ctx, dev);
	if (!dev->is_partition)
		ret = load_partitions(ctx, sysdir, mt, dev);
	if (ret)
		goto out_release;
	return 0;

out_release:
	bq_device_release(dev);
	return ret;
}

/**
 * bq_device_load_mt() - bq_device_load() with a mount table already read
 * @ctx: context
 * @name: kernel name
 * @mt: mount table
 * @dev: filled in
 *
 * Return: 0 or -errno.
 */
int bq_device_load_mt(struct bq_ctx *ctx, const char *name, const struct bq_mounts *mt,
		      struct bq_device *dev)
{
	return device_load(ctx, name, mt, true, dev);
}

/**
 * bq_device_load_facts() - a device's sysfs facts only
 * @ctx: context
 * @name: kernel name
 * @dev: filled in (queue limits, kind, size, holders; no mounts, swap,
 *       signatures or partitions); release with bq_device_release()
 *
 * For a question about the queue, such as whether it polls: the
 * signature probe reads a megabyte of the device, a third of a short
 * run's set-up time.
 *
 * Return: 0 or -errno.
 */
int bq_device_load_facts(struct bq_ctx *ctx, const char *name, struct bq_device *dev)
{
	return device_load(ctx, name, NULL, false, dev);
}

static int load_with_mounts(struct bq_ctx *ctx, const char *name, bool probe,
			    struct bq_device *dev)
{
	struct bq_mounts mt;
	int ret;

	ret = bq_mounts_read(ctx, &mt);
	if (ret)
		return ret;
	ret = device_load(ctx, name, &mt, probe, dev);
	bq_mounts_release(&mt);
	return ret;
}

int bq_device_load(struct bq_ctx *ctx, const char *name, struct bq_device *dev)
{
	return load_with_mounts(ctx, name, true, dev);
}

/**
 * bq_device_load_unprobed() - bq_device_load() without the device's own signatures
 * @ctx: context
 * @name: kernel name
 * @dev: filled in, nr_sigs 0; release with bq_device_release()
 *
 * For the guard, which reads a target's signatures through the
 * descriptor it will write: probing the node by name as well would read
 * the device twice, the second time through a name that could point
 * elsewhere.
 *
 * Return: 0 or -errno.
 */
int bq_device_load_unprobed(struct bq_ctx *ctx, const char *name, struct bq_device *dev)
{
	return load_with_mounts(ctx, name, false, dev);
}

static bool unbound_loop(const struct bq_device *dev)
{
	return dev->kind == BQ_DEV_LOOP && !dev->loop.backing_file[0];
}

int bq_devices_scan(struct bq_ctx *ctx, struct bq_devlist *list)
{
	struct bq_strv names = { 0 };
	struct bq_mounts mt;
	char path[PATH_MAX];
	int ret;

	memset(list, 0, sizeof(*list));
	ret = bq_path(path, sizeof(path), ctx->sysfs, "/block");
	if (ret)
		return ret;
	if (access(path, R_OK | X_OK))
		return -errno;
	ret = bq_mounts_read(ctx, &mt);
	if (ret)
		return ret;
	ret = bq_list_dir(path, &names);
	if (ret)
		goto out_release_mounts;
	list->devs = calloc(names.n ? names.n : 1, sizeof(*list->devs));
	if (!list->devs) {
		ret = -ENOMEM;
		goto out_free_names;
	}
	for (size_t i = 0; i < names.n; i++) {
		struct bq_device *dev = &list->devs[list->nr];

		ret = bq_device_load_mt(ctx, names.v[i], &mt, dev);
		if (ret == -ENOENT)
			continue;	/* gone while we looked: hot unplug */
		if (ret)
			break;
		if (unbound_loop(dev)) {
			bq_device_release(dev);
			continue;
		}
		list->nr++;
	}
	if (ret && ret != -ENOENT)
		bq_devlist_free(list);
	else
		ret = 0;
out_free_names:
	bq_strv_free(&names);
out_release_mounts:
	bq_mounts_release(&mt);
	return ret;
}

bool bq_device_in_use(const struct bq_device *dev)
{
	if (dev->mounts.n || dev->holders.n || dev->swap)
		return true;
	for (size_t i = 0; i < dev->nr_parts; i++)
		if (bq_device_in_use(&dev->parts[i]))
			return true;
	return false;
}

void bq_device_release(struct bq_device *dev)
{
	bq_strv_free(&dev->holders);
	bq_strv_free(&dev->slaves);
	bq_strv_free(&dev->mounts);
	for (size_t i = 0; i < dev->nr_parts; i++)
		bq_device_release(&dev->parts[i]);
	free(dev->parts);
	dev->parts = NULL;
	dev->nr_parts = 0;
	free(dev->sigs);
	dev->sigs = NULL;
	dev->nr_sigs = 0;
}

void bq_devlist_free(struct bq_devlist *list)
{
	for (size_t i = 0; i < list->nr; i++)
		bq_device_release(&list->devs[i]);
	free(list->devs);
	list->devs = NULL;
	list->nr = 0;
}
