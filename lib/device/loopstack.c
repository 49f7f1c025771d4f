// SPDX-License-Identifier: GPL-2.0-only
/*
 * loopstack.c - which loop devices sit on what, by the kernel's numbers
 *
 * sysfs names a loop device's backing file, but a name can be stale
 * ("... (deleted)"), renamed, or a second link to the same inode.  The
 * loop driver itself keeps the backing store's numbers: LOOP_GET_STATUS64
 * gives the device and inode of a backing file and the device number of a
 * backing block device, which is what the guard compares with a target.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

/* The kernel hands dev_t to user space in its "huge" 32-bit encoding. */
static dev_t kernel_devt(uint64_t v)
{
	return makedev((unsigned int)((v & 0xfff00) >> 8),
		       (unsigned int)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

/*
 * The loop device's own node, composed here and never followed through a
 * symlink, checked to be that device before it is asked anything.
 */
static int loop_status(struct bq_ctx *ctx, const char *name, dev_t devt,
		       struct loop_info64 *info)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, ret = 0;

	ret = bq_path(path, sizeof(path), ctx->dev, "/%s", name);
	if (ret)
		return ret;
	/* Cleared: tools that do not know this ioctl (valgrind) see it filled. */
	memset(info, 0, sizeof(*info));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != devt)
		ret = -ESTALE;
	else if (ioctl(fd, LOOP_GET_STATUS64, info))
		ret = -errno;
	close(fd);
	return ret;
}

static int add_loop(struct bq_loops *loops, const struct bq_loop *l)
{
	struct bq_loop *grown;

	grown = realloc(loops->v, (loops->nr + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	loops->v = grown;
	loops->v[loops->nr++] = *l;
	return 0;
}

/**
 * bq_loops_read() - every bound loop device and its backing store
 * @ctx: context (live)
 * @loops: receives the list; bq_loops_release() frees it
 *
 * A loop device whose status cannot be read (detached meanwhile, or its
 * node missing) is left out; one that is bound is never left out silently:
 * its sysfs backing_file is the fallback, matched by name.
 *
 * Return: 0 or -errno.
 */
int bq_loops_read(struct bq_ctx *ctx, struct bq_loops *loops)
{
	struct bq_strv names = { 0 };
	char dir[PATH_MAX];
	int ret;

	memset(loops, 0, sizeof(*loops));
	ret = bq_path(dir, sizeof(dir), ctx->sysfs, "/block");
	if (!ret)
		ret = bq_list_dir(dir, &names);
	for (size_t i = 0; !ret && i < names.n; i++) {
		char attr[PATH_MAX], buf[PATH_MAX];
		struct loop_info64 info;
		unsigned int maj, min;
		struct bq_loop l = { 0 };

		if (strncmp(names.v[i], "loop", 4) ||
		    bq_path(attr, sizeof(attr), ctx->sysfs, "/block/%s/loop/backing_file",
			    names.v[i]) || bq_read_str(attr, buf, sizeof(buf)))
			continue;	/* not a loop device, or not bound */
		bq_strlcpy(l.name, names.v[i], sizeof(l.name));
		bq_strlcpy(l.backing_name, buf, sizeof(l.backing_name));
		if (bq_path(attr, sizeof(attr), ctx->sysfs, "/block/%s/dev", names.v[i]) ||
		    bq_read_str(attr, buf, sizeof(buf)) || sscanf(buf, "%u:%u", &maj, &min) != 2)
			continue;
		l.devt = makedev(maj, min);
		if (!loop_status(ctx, l.name, l.devt, &info)) {
			l.known = true;
			l.back_dev = kernel_devt(info.lo_device);
			l.back_ino = (ino_t)info.lo_inode;
			l.back_rdev = kernel_devt(info.lo_rdevice);
			l.offset = info.lo_offset;
		} else {
			struct stat st;
			char *del = strstr(l.backing_name, " (deleted)");

			/* Only the name is known: the best the kernel offers us. */
			if (del)
				*del = '\0';
			if (!stat(l.backing_name, &st)) {
				l.known = true;
				l.back_dev = st.st_dev;
				l.back_ino = st.st_ino;
				l.back_rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
			}
		}
		ret = add_loop(loops, &l);
	}
	bq_strv_free(&names);
	if (ret)
		bq_loops_release(loops);
	return ret;
}

/**
 * bq_loop_backs() - whether @l's backing store is the object @st describes
 * @l: a loop device
 * @st: a block device or regular file
 *
 * Return: true when @l reads and writes @st's data.
 */
bool bq_loop_backs(const struct bq_loop *l, const struct stat *st)
{
	if (!l->known)
		return false;
	if (S_ISBLK(st->st_mode))
		return l->back_rdev && l->back_rdev == st->st_rdev;
	return S_ISREG(st->st_mode) && l->back_dev == st->st_dev && l->back_ino == st->st_ino;
}

/**
 * bq_loop_same_backing() - whether two loop devices sit on the same data
 * @a: one
 * @b: the other
 *
 * Return: true for the same backing file (device and inode) or device.
 */
bool bq_loop_same_backing(const struct bq_loop *a, const struct bq_loop *b)
{
	if (!a->known || !b->known)
		return false;
	if (a->back_rdev || b->back_rdev)
		return a->back_rdev == b->back_rdev;
	return a->back_dev == b->back_dev && a->back_ino == b->back_ino;
}

void bq_loops_release(struct bq_loops *loops)
{
	free(loops->v);
	loops->v = NULL;
	loops->nr = 0;
}
