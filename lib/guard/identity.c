// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity.c - what a target is, by the kernel's numbers, and second
 * descriptors that are provably the same object as the first
 *
 * A name can be made to point elsewhere at any moment (a symlink swapped,
 * a node recreated), so blkqual resolves a target's name once and from
 * then on speaks only of the object behind that descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "guard_int.h"
#include "internal.h"

/**
 * bq_same_object() - whether two stat results are the same target
 * @a: one
 * @b: the other
 *
 * Devices are the same when their device numbers are (two nodes, one
 * device); files when both their filesystem and inode numbers are.
 *
 * Return: true when writing to one writes to the other.
 */
bool bq_same_object(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	if (S_ISCHR(a->st_mode) && S_ISCHR(b->st_mode))
		return a->st_rdev == b->st_rdev;
	if (S_ISREG(a->st_mode) && S_ISREG(b->st_mode))
		return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
	return false;
}

/**
 * bq_fd_reopen() - a second descriptor of the object behind @fd
 * @fd: an open descriptor (O_PATH will do)
 * @flags: open(2) flags for the new one; O_CLOEXEC is added, O_CREAT refused
 *
 * Goes through /proc/self/fd, which names the open file itself rather than
 * any path to it, and checks the result is the same object all the same.
 * O_EXCL carries through for block devices.
 *
 * Return: the new descriptor, or -errno (-ESTALE if it is not the same).
 */
int bq_fd_reopen(int fd, int flags)
{
	struct stat a, b;
	char link[64];
	int nfd;

	if (flags & O_CREAT)
		return -EINVAL;
	if (fstat(fd, &a))
		return -errno;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	nfd = open(link, flags | O_CLOEXEC);
	if (nfd < 0)
		return -errno;
	if (fstat(nfd, &b) || !bq_same_object(&a, &b)) {
		close(nfd);
		return -ESTALE;
	}
	return nfd;
}

/**
 * bq_dev_node() - the device node to hand a child program for a device
 * @ctx: context
 * @rdev: the device's number, from the descriptor the guard judged
 * @buf: receives "/dev/NAME"
 * @len: size of @buf
 *
 * Programs such as mdadm and mkfs.xfs take a path and open it themselves.
 * They get the kernel's name for the device, never the user's spelling
 * (a symlink that could be swapped meanwhile), and only once that node is
 * checked to be the device itself, not a symlink to it.
 *
 * Return: 0, or -ENODEV when no such node is that device.
 */
int bq_dev_node(struct bq_ctx *ctx, dev_t rdev, char *buf, size_t len)
{
	struct stat st;
	char name[64];
	int ret;

	ret = bq_device_name_devt(ctx, rdev, name, sizeof(name));
	if (ret)
		return ret;
	ret = bq_path(buf, len, ctx->dev, "/%s", name);
	if (ret)
		return ret;
	if (lstat(buf, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != rdev)
		return -ENODEV;
	return 0;
}

/**
 * bq_openat_beneath() - open a name blkqual composed, below @dirfd only
 * @dirfd: the tree's root, opened once from the user's name
 * @path: relative path inside it, made by blkqual (a workload's file name)
 * @flags: open(2) flags
 * @mode: for O_CREAT
 *
 * The user named the tree; the names inside it are blkqual's own, so no
 * symlink in them is followed and none may lead out of the tree: a link
 * planted where a workload creates or writes its files sends nothing
 * anywhere.  Kernels without openat2() get O_NOFOLLOW on the last
 * component.
 *
 * Return: a descriptor, or -1 with errno set (ELOOP or EXDEV for a link).
 */
int bq_openat_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int)fd;
	return openat(dirfd, path, flags | O_CLOEXEC | O_NOFOLLOW, mode);
}
