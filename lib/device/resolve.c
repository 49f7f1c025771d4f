// SPDX-License-Identifier: GPL-2.0-only
/*
 * resolve.c - turn what the user typed into a kernel device name
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

static int name_from_devt(struct bq_ctx *ctx, unsigned int maj, unsigned int min,
			  char *name, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;
	int ret;

	ret = bq_path(path, sizeof(path), ctx->sysfs, "/dev/block/%u:%u", maj, min);
	if (ret)
		return ret;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	target[n] = '\0';
	slash = strrchr(target, '/');
	bq_strlcpy(name, slash ? slash + 1 : target, len);
	return 0;
}

static int name_exists(struct bq_ctx *ctx, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	int ret;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return -ENOENT;
	ret = bq_path(path, sizeof(path), ctx->sysfs, "/class/block/%s", name);
	if (ret)
		return ret;
	return stat(path, &st) ? -ENOENT : 0;
}

int bq_device_resolve(struct bq_ctx *ctx, const char *arg, char *name, size_t len)
{
	unsigned int maj, min;
	struct stat st;
	char tail;
	size_t dlen;

	if (sscanf(arg, "%u:%u%c", &maj, &min, &tail) == 2)
		return name_from_devt(ctx, maj, min, name, len);
	if (!strchr(arg, '/')) {
		if (name_exists(ctx, arg))
			return -ENOENT;
		bq_strlcpy(name, arg, len);
		return 0;
	}
	if (!ctx->live) {
		/* A captured tree has no device nodes to stat: map /dev/X to X. */
		dlen = strlen(ctx->dev);
		if (!strncmp(arg, "/dev/", 5))
			arg += 5;
		else if (!strncmp(arg, ctx->dev, dlen) && arg[dlen] == '/')
			arg += dlen + 1;
		if (name_exists(ctx, arg))
			return -ENOENT;
		bq_strlcpy(name, arg, len);
		return 0;
	}
	if (stat(arg, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return name_from_devt(ctx, major(st.st_rdev), minor(st.st_rdev), name, len);
}

/* @load (all, or the sysfs facts) of the device that has number @devt. */
static int load_by_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev,
			int (*load)(struct bq_ctx *, const char *, struct bq_device *))
{
	char name[64];
	int ret;

	ret = name_from_devt(ctx, major(devt), minor(devt), name, sizeof(name));
	return ret ? ret : load(ctx, name, dev);
}

/**
 * bq_device_load_devt() - load the block device with this number
 * @ctx: context
 * @devt: its device number (a descriptor's st_rdev, say)
 * @dev: filled in; release with bq_device_release()
 *
 * By number, so no name that could point elsewhere is involved.
 *
 * Return: 0 or -errno (-ENOENT when sysfs knows no such device).
 */
int bq_device_load_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev)
{
	return load_by_devt(ctx, devt, dev, bq_device_load);
}

/**
 * bq_device_unprobed_devt() - bq_device_load_unprobed() of the device with this number
 * @ctx: context
 * @devt: its device number
 * @dev: filled in; release with bq_device_release()
 *
 * Return: 0 or -errno.
 */
int bq_device_unprobed_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev)
{
	return load_by_devt(ctx, devt, dev, bq_device_load_unprobed);
}

/**
 * bq_device_facts_devt() - bq_device_load_facts() of the device with this number
 * @ctx: context
 * @devt: its device number
 * @dev: filled in
 *
 * Return: 0 or -errno.
 */
int bq_device_facts_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev)
{
	return load_by_devt(ctx, devt, dev, bq_device_load_facts);
}

/**
 * bq_device_name_devt() - kernel name of the block device with this number
 * @ctx: context
 * @devt: its device number
 * @name: receives "sdb", "nvme0n1p1"
 * @len: size of @name
 *
 * Return: 0 or -errno.
 */
int bq_device_name_devt(struct bq_ctx *ctx, dev_t devt, char *name, size_t len)
{
	return name_from_devt(ctx, major(devt), minor(devt), name, len);
}
