// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_sg.c - ioengine=sg's targets: a SCSI generic node (/dev/sgN)
 *
 * /dev/sgN reaches the same disk as /dev/sdX under another name, one the
 * block layer does not know: it cannot be mounted, holds no filesystem
 * and is never opened exclusively.  A write through it is therefore
 * judged as a write to its disk: sysfs names the disk
 * (/sys/class/scsi_generic/sgN/device/block/), and the guard examines and
 * holds that block device for the whole run.  An sg node without a disk
 * (a tape, an enclosure) is refused for writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/device_int.h"
#include "internal.h"
#include "io/scsi.h"
#include "target.h"

#define NEED_SG "ioengine=sg needs an sg node (/dev/sgN) or a SCSI disk's block device"

/* Kernel name of an sg node, found by its device number; -ENODEV: not one. */
static int sg_name(struct bq_ctx *ctx, const struct stat *st, char *name, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX], class[PATH_MAX];
	const char *base;
	struct stat cst;
	ssize_t n;
	int ret;

	ret = bq_path(link, sizeof(link), ctx->sysfs, "/dev/char/%u:%u", major(st->st_rdev),
		      minor(st->st_rdev));
	if (ret)
		return ret;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENODEV;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	ret = bq_path(class, sizeof(class), ctx->sysfs, "/class/scsi_generic/%s", base);
	if (ret)
		return ret;
	if (stat(class, &cst))
		return -ENODEV;
	bq_strlcpy(name, base, len);
	return 0;
}

/* The disk an sg node reaches, by sysfs; -ENOENT: none (not a disk). */
static int sg_disk(struct bq_ctx *ctx, const char *sg, char *blk, size_t len)
{
	struct bq_strv names = { 0 };
	char dir[PATH_MAX];
	int ret;

	ret = bq_path(dir, sizeof(dir), ctx->sysfs, "/class/scsi_generic/%s/device/block", sg);
	if (ret)
		return ret;
	ret = bq_list_dir(dir, &names);
	if (ret)
		return ret;
	if (names.n != 1)
		ret = -ENOENT;
	else
		bq_strlcpy(blk, names.v[0], len);
	bq_strv_free(&names);
	return ret;
}

/**
 * bq_sg_target_open() - open an sg node for ioengine=sg
 * @ctx: context
 * @j: the job
 * @path: the target
 * @gopts: guard overrides
 * @held: the run's descriptors
 * @ti: receives the target's facts (size and block size from READ
 *      CAPACITY, the disk's name for its statistics)
 * @fd: receives the descriptor the job's threads use
 * @err: why not
 *
 * Return: 0, 1 when @path is a block device (opened and guarded as any
 * other), or -errno.
 */
int bq_sg_target_open(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
		      const struct bq_guard_opts *gopts, struct bq_held *held,
		      struct bq_target_info *ti, int *fd, struct bq_parse_error *err)
{
	char sg[64] = "", blk[64] = "";
	bool have_blk = false;
	struct bq_device dev;
	uint64_t blocks;
	int pfd, ret;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	if (fstat(pfd, &ti->st)) {
		ret = bq_fail_at(err, path, -errno, "%s", strerror(errno));
		goto out_close_pfd;
	}
	if (S_ISBLK(ti->st.st_mode)) {
		ret = 1;
		goto out_close_pfd;
	}
	if (!S_ISCHR(ti->st.st_mode) || sg_name(ctx, &ti->st, sg, sizeof(sg))) {
		ret = bq_fail_at(err, path, -EINVAL, NEED_SG);
		goto out_close_pfd;
	}
	have_blk = !sg_disk(ctx, sg, blk, sizeof(blk)) && !bq_device_load(ctx, blk, &dev);
	if (bq_job_writes(j)) {
		ret = bq_target_guard_block(ctx, path, have_blk ? &dev : NULL,
					    blk[0] ? blk : "(none)", gopts, held, ti, err);
		if (ret)
			goto out_release;
	}
	/* sg takes its commands by write(2), reads included. */
	*fd = bq_fd_reopen(pfd, O_RDWR);
	if (*fd < 0) {
		ret = bq_fail_at(err, path, *fd, "%s", strerror(-*fd));
		goto out_release;
	}
	ret = bq_scsi_read_capacity(*fd, &blocks, &ti->lbs);
	if (ret) {
		ret = bq_fail_at(err, path, ret, "READ CAPACITY: %s", strerror(-ret));
		goto out_close_fd;
	}
	if (blocks > UINT64_MAX / ti->lbs) {
		ret = bq_fail_at(err, path, -EOVERFLOW, "capacity overflows");
		goto out_close_fd;
	}
	ti->size = blocks * ti->lbs;
	ti->numa_node = -1;
	if (have_blk) {
		bq_strlcpy(ti->devname, dev.name, sizeof(ti->devname));
		ti->numa_node = dev.numa_node;
	}
	goto out_release;
out_close_fd:
	close(*fd);
	*fd = -1;
out_release:
	if (have_blk)
		bq_device_release(&dev);
out_close_pfd:
	close(pfd);
	return ret;
}
