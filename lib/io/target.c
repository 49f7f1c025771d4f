// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - open a job's targets: the guard for writes, files laid out
 * first, sizes and block sizes checked, and whether polling can work;
 * for io_uring_cmd, NVMe generic devices and their block counterparts
 *
 * Everything here runs before the first I/O, so every refusal is one
 * clear message instead of a flood of failed I/Os.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "device/device_int.h"
#include "guard/guard_int.h"
#include "internal.h"
#include "atomic.h"
#include "target.h"

bool bq_job_writes(const struct bq_job *j)
{
	return j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD;
}

/**
 * bq_target_lay_out() - write [@from, @to) of a file, as fio lays files out
 * @fd: the file, open for writing
 * @from: first byte
 * @to: end
 *
 * Written with random data, not left a hole, so that reads later find
 * allocated blocks as they would in fio's files.
 *
 * Return: 0 or -errno.
 */
int bq_target_lay_out(int fd, uint64_t from, uint64_t to)
{
	struct bq_offgen rng;
	struct bq_offgen_params p = { .nblocks = 1, .seed = 0x6c6179 };
	size_t chunk = 1 << 20;
	uint64_t *buf;
	int ret = 0;

	buf = malloc(chunk);
	if (!buf)
		return -ENOMEM;
	bq_offgen_init(&rng, &p);
	for (size_t i = 0; i < chunk / sizeof(*buf); i++)
		buf[i] = bq_rand_next(&rng);
	while (from < to) {
		size_t n = to - from < chunk ? (size_t)(to - from) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)from);

		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		from += (uint64_t)w;
	}
	free(buf);
	return ret;
}

static int ng_name(struct bq_ctx *ctx, const char *path, const struct stat *st, char *name,
		   size_t len);
static int open_held(struct bq_ctx *ctx, const struct bq_job *j, const char *path, int pfd,
		     uint64_t need, const struct bq_guard_opts *gopts, struct bq_held *held,
		     struct bq_target_info *ti, int *fd, struct bq_parse_error *err);

/*
 * O_NOATIME, as fio and t/io_uring open: without it every read of a
 * device node updates the node's access time, 2 % of a 4 KiB random
 * read's CPU on a loop device (atime_needs_update in perf).
 */
static int open_flags(const struct bq_job *j)
{
	return (bq_job_writes(j) ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOATIME |
	       (j->direct ? O_DIRECT : 0) | (!j->sync ? 0 : j->sync_data_only ? O_DSYNC : O_SYNC);
}

static int held_by_name(const struct bq_held *held, const char *path)
{
	for (int i = 0; i < held->nr; i++)
		if (held->borrowed[i] && held->name[i] && !strcmp(held->name[i], path))
			return i;
	return -1;
}

static int held_by_object(const struct bq_held *held, const struct stat *st)
{
	for (int i = 0; i < held->nr; i++)
		if (bq_same_object(&held->st[i], st))
			return i;
	return -1;
}

/*
 * The guard decides about the object behind @pfd; its descriptor is kept
 * (O_EXCL for a device) and is the one every later descriptor reopens.
 * @where is the target as the user named it, @what the device the guard
 * examined when that is another name for the same data (an NVMe generic
 * device's block device).
 */
static int guard_fd(struct bq_ctx *ctx, int pfd, const char *where, const char *what,
		    const struct bq_guard_opts *gopts, struct bq_parse_error *err)
{
	struct bq_guard_report rep;
	char why[sizeof(err->msg)];
	int fd;

	fd = bq_guard_open_fd(ctx, pfd, 0, gopts, &rep);
	if (fd == -EBUSY) {
		/* The override names what was judged: an NVMe generic device's namespace. */
		bq_guard_explain(what ? what : where, &rep, why, sizeof(why));
		if (what)
			return bq_fail_at(err, where, -EBUSY, "refusing to write: %s: %s", what, why);
		return bq_fail_at(err, where, -EBUSY, "refusing to write: %s", why);
	}
	if (fd < 0 && what)
		return bq_fail_at(err, where, fd, "%s: %s", what, strerror(-fd));
	if (fd < 0)
		return bq_fail_at(err, where, fd, "%s", strerror(-fd));
	return fd;
}

/* Record @fd (consumed) as the run's descriptor of the object @st. */
static int hold(struct bq_held *held, int fd, const struct stat *st, bool guarded,
		const char *where, struct bq_parse_error *err)
{
	if (held->nr == BQ_MAX_HELD) {
		close(fd);
		return bq_fail_at(err, where, -E2BIG, "too many distinct targets");
	}
	held->fd[held->nr] = fd;
	held->st[held->nr] = *st;
	held->guarded[held->nr] = guarded;
	held->borrowed[held->nr] = false;
	held->name[held->nr] = NULL;
	return held->nr++;
}

/*
 * A file that is not there yet: made here, with O_EXCL|O_NOFOLLOW so the
 * name cannot be a symlink planted meanwhile.  -EEXIST: something
 * appeared under the name; the caller opens what is there instead.
 */
static int create_file(const char *path, struct bq_target_info *ti, struct bq_parse_error *err)
{
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && (errno == EEXIST || errno == ELOOP))
		return -EEXIST;
	if (fd < 0)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	ti->created = true;
	return fd;
}

/*
 * The run's one descriptor of the object behind @path: the user's name is
 * resolved once here (a symlink followed once), and everything after,
 * guard included, speaks of that object.  A target named twice, under any
 * names, is one entry.
 *
 * Return: its index in @held, or -errno.
 */
static int hold_target(struct bq_ctx *ctx, const struct bq_job *j, const char *path, int pfd,
		       const struct bq_guard_opts *gopts, struct bq_held *held,
		       struct bq_target_info *ti, struct bq_parse_error *err)
{
	bool writes = bq_job_writes(j);
	struct stat st;
	int i, fd;

	/* A file set's file comes resolved already (lib/io/fileset.c). */
	if (pfd >= 0)
		goto resolved;
	i = held_by_name(held, path);
	if (i >= 0)
		return i;
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0 && errno == ENOENT) {
		if (!j->size && !(j->fill_device && writes))
			return bq_fail_at(err, path, -EINVAL,
				    "no such file, and size= is not set to create it");
		i = bq_target_read_only(gopts, err, path, "create it (no such file)");
		if (i)
			return i;
		pfd = create_file(path, ti, err);
		if (pfd == -EEXIST)
			pfd = open(path, O_PATH | O_CLOEXEC);
		else if (pfd < 0)
			return pfd;
	}
	if (pfd < 0)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
resolved:
	if (fstat(pfd, &st)) {
		close(pfd);
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	}
	i = held_by_object(held, &st);
	if (i >= 0 && (held->guarded[i] || !writes)) {
		close(pfd);
		return i;
	}
	if (S_ISDIR(st.st_mode)) {
		close(pfd);
		return bq_fail_at(err, path, -EISDIR, "is a directory, not a device or file");
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		char ng[64];
		bool is_ng = S_ISCHR(st.st_mode) && !ng_name(ctx, path, &st, ng, sizeof(ng));

		close(pfd);
		if (is_ng)
			return bq_fail_at(err, path, -ENOTBLK, "an NVMe generic device: use "
				    "ioengine=io_uring_cmd");
		return bq_fail_at(err, path, -ENOTBLK, "neither a block device nor a regular file");
	}
	/* A file made just now holds nothing of anyone's; anything else is judged. */
	if (!writes || ti->created) {
		fd = pfd;
	} else {
		fd = guard_fd(ctx, pfd, path, NULL, gopts, err);
		close(pfd);
		if (fd < 0)
			return fd;
	}
	if (i >= 0) {
		/* Read first, written later in the run: the guard's descriptor replaces it. */
		close(held->fd[i]);
		held->fd[i] = fd;
		held->guarded[i] = true;
		return i;
	}
	return hold(held, fd, &st, writes || ti->created, path, err);
}

/* Grow a file to @need bytes through the run's descriptor, filled with data. */
static int grow_file(int hfd, const char *path, uint64_t need, struct bq_target_info *ti,
		     struct bq_parse_error *err)
{
	struct stat st;
	int fd, ret = 0;

	fd = bq_fd_reopen(hfd, O_RDWR);
	if (fd < 0)
		return bq_fail_at(err, path, fd, "%s", strerror(-fd));
	if (fstat(fd, &st))
		ret = bq_fail_at(err, path, -errno, "%s", strerror(errno));
	else if ((uint64_t)st.st_size < need)
		ret = bq_target_lay_out(fd, (uint64_t)st.st_size, need) ?:
		      (fsync(fd) ? -errno : 0);
	if (ret && !err->msg[0])
		bq_fail_at(err, path, ret, "laying out %llu bytes: %s", (unsigned long long)need,
		     strerror(-ret));
	ti->laid_out = !ret;
	close(fd);
	return ret;
}

/*
 * invalidate=1, fio's default: what the page cache holds of the target is
 * dropped before the job starts, so that a buffered job measures the
 * device, not what an earlier run left in memory.  A device is flushed
 * and dropped as fio does (BLKFLSBUF, which needs CAP_SYS_ADMIN); where
 * that is refused, and for files, clean pages are dropped (fadvise).
 * Best effort: a page in use stays, as it does for fio.
 */
static void drop_cached_pages(int fd, const struct stat *st)
{
	if (S_ISBLK(st->st_mode) && !ioctl(fd, BLKFLSBUF, 0))
		return;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/**
 * bq_fs_dio_align() - the offset alignment direct I/O to a file needs,
 * as its filesystem reports it through statx(STATX_DIOALIGN)
 * @fd: the open file, or -1 to go by @path
 * @path: the file, when @fd is -1
 * @align: set on success
 *
 * Return: 0; -EOPNOTSUPP when the filesystem says the file takes no direct
 * I/O; -ENODATA when it does not say (an older kernel, or a filesystem
 * that does not report it), and the device's block size is the guess.
 */
int bq_fs_dio_align(int fd, const char *path, uint32_t *align)
{
	struct statx sx;
	int ret;

	ret = fd >= 0 ? statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) :
			statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &sx);
	if (ret || !(sx.stx_mask & STATX_DIOALIGN))
		return -ENODATA;
	if (!sx.stx_dio_offset_align)
		return -EOPNOTSUPP;
	*align = sx.stx_dio_offset_align;
	return 0;
}

/*
 * Thread placement follows the filesystem's device.  So does direct I/O
 * alignment where the filesystem does not say; where it does (ext4 and XFS
 * among others), its word is the rule.  A file that takes no direct I/O
 * keeps the device's: opening it with O_DIRECT says so.
 */
static void file_facts(struct bq_ctx *ctx, int fd, const struct stat *st,
		       struct bq_target_info *ti)
{
	struct bq_device dev;

	ti->size = (uint64_t)st->st_size;
	ti->lbs = 512;
	ti->numa_node = -1;
	if (!bq_device_facts_devt(ctx, st->st_dev, &dev)) {
		if (dev.q.logical_block_size)
			ti->lbs = dev.q.logical_block_size;
		ti->numa_node = dev.numa_node;
		bq_device_release(&dev);
	}
	ti->lbs_from_fs = !bq_fs_dio_align(fd, NULL, &ti->lbs);
}

#define NEED_NG "io_uring_cmd needs an NVMe generic device (/dev/ngXnY)"

/*
 * Kernel name of an NVMe generic device, or -ENODEV for any other
 * character device.  sysfs knows the device by its number whatever the
 * node is called; the node's own name is the fallback when sysfs does not.
 */
static int ng_name(struct bq_ctx *ctx, const char *path, const struct stat *st, char *name,
		   size_t len)
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
	if (n < 0) {
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		if (strncmp(base, "ng", 2))
			return -ENODEV;
		bq_strlcpy(name, base, len);
		return 0;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	ret = bq_path(class, sizeof(class), ctx->sysfs, "/class/nvme-generic/%s", base);
	if (ret)
		return ret;
	if (stat(class, &cst))
		return -ENODEV;
	bq_strlcpy(name, base, len);
	return 0;
}

/*
 * How the job's commands carry the namespace's metadata.  As in fio, with
 * pi_act=1 a format whose metadata is only the PI moves none: the
 * controller inserts the PI on writes and strips it on reads.
 */
static int passthru_meta(const struct bq_job *j, const struct bq_nvme_ns *ns, const char *path,
			 struct bq_target_info *ti, struct bq_parse_error *err)
{
	uint32_t ms = ns->lba_meta;

	if (ns->pi_type && !ns->pi_size)
		return bq_fail_at(err, path, -EOPNOTSUPP, "LBA format %d has a protection "
			    "information format other than the 16- or 64-bit guard", ns->lbaf);
	if (ns->pi_type && ns->sts)
		return bq_fail_at(err, path, -EOPNOTSUPP, "LBA format %d has storage tags, "
			    "which are not supported", ns->lbaf);
	if (j->nvme_pi_act && ns->pi_type && ms == ns->pi_size)
		ms = 0;
	ti->nvme_lba_data = ns->lba_size;
	ti->nvme_ms = (uint16_t)ms;
	ti->nvme_ext = ms && ns->meta_ext;
	ti->nvme_pi_type = ns->pi_type;
	ti->nvme_pi_size = ns->pi_size;
	ti->nvme_pi_first = ns->pi_first;
	ti->lbs = ns->lba_size + (ti->nvme_ext ? ms : 0);
	/* fio: the PI inside an extended LBA would overwrite verify='s header. */
	if (ti->nvme_ext && ns->pi_type && j->verify)
		return bq_fail_at(err, path, -EINVAL, "for extended LBA, verify cannot be used "
			    "when end-to-end data protection is enabled");
	return 0;
}

/* Namespace facts from Identify; the block layer's may be absent or zero. */
static int passthru_facts(const struct bq_job *j, int fd, const char *path,
			  struct bq_target_info *ti, struct bq_parse_error *err)
{
	struct bq_nvme_ns ns;
	int ret;

	ret = bq_nvme_ns_read(fd, &ns);
	if (ret == -EOPNOTSUPP)
		return bq_fail_at(err, path, ret, "io_uring_cmd needs blkqual built with libnvme");
	if (ret)
		return bq_fail_at(err, path, ret, "Identify Namespace: %s", strerror(-ret));
	if (!ns.nsze || ns.lba_size < 512)
		return bq_fail_at(err, path, -EINVAL, "namespace %u has no capacity or no usable LBA "
			    "format", ns.nsid);
	ret = passthru_meta(j, &ns, path, ti, err);
	if (ret)
		return ret;
	if (ns.nsze > UINT64_MAX / ti->lbs)
		return bq_fail_at(err, path, -EOVERFLOW, "namespace size overflows");
	ti->size = ns.nsze * ti->lbs;
	ti->nsid = ns.nsid;
	ti->max_io = ti->lbs > UINT32_MAX / BQ_NVME_MAX_BLOCKS ? UINT32_MAX :
		     BQ_NVME_MAX_BLOCKS * ti->lbs;
	return 0;
}

/*
 * The block device the guard examines for an NVMe generic device: its
 * node, composed here and not followed if it is a symlink, must be the
 * device sysfs names.
 */
static int open_ns_block(const struct bq_device *dev)
{
	struct stat st;
	int fd;

	fd = open(dev->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != dev->devt) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

/**
 * bq_target_guard_block() - judge and hold the block device behind a
 * character device a job writes through (/dev/ngXnY, /dev/sgN)
 * @ctx: context
 * @path: the character device, for messages
 * @dev: the block device sysfs names for it; NULL: none found
 * @blk: its name, for messages
 * @gopts: guard overrides
 * @held: the run's descriptors; the block device is held (O_EXCL) there
 * @ti: its @blk_st is filled in
 * @err: why not
 *
 * The same data has two names; the guard judges the block device's, and
 * holding it exclusively keeps a mount or an array off it while the run
 * writes through the other.
 *
 * Return: 0 or -errno.
 */
int bq_target_guard_block(struct bq_ctx *ctx, const char *path, const struct bq_device *dev,
			  const char *blk, const struct bq_guard_opts *gopts,
			  struct bq_held *held, struct bq_target_info *ti,
			  struct bq_parse_error *err)
{
	int bfd = dev ? open_ns_block(dev) : -ENOENT;
	int ret;

	if (bfd < 0)
		return bq_fail_at(err, path, -EBUSY, "refusing to write: its block device %s, "
			    "which the safety checks examine, cannot be found", blk);
	ret = fstat(bfd, &ti->blk_st) ? -errno : 0;
	if (!ret && held_by_object(held, &ti->blk_st) < 0) {
		ret = guard_fd(ctx, bfd, path, dev->path, gopts, err);
		if (ret >= 0)
			ret = hold(held, ret, &ti->blk_st, true, path, err);
	}
	close(bfd);
	return ret < 0 ? ret : 0;
}

/*
 * io_uring_cmd's target: an NVMe generic device.  The guard, NUMA node,
 * transfer limit and disk stats come from the namespace's block device,
 * which is the same data under another name.
 */
static int passthru_open(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
			 const struct bq_guard_opts *gopts, struct bq_held *held,
			 struct bq_target_info *ti, int *fd, struct bq_parse_error *err)
{
	bool writes = bq_job_writes(j), have_blk;
	char ng[64], blk[64];
	struct bq_device dev;
	int pfd, ret;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	if (fstat(pfd, &ti->st) || !S_ISCHR(ti->st.st_mode) ||
	    ng_name(ctx, path, &ti->st, ng, sizeof(ng)) ||
	    bq_nvme_ng_to_blk(ng, blk, sizeof(blk))) {
		close(pfd);
		return bq_fail_at(err, path, -EINVAL, NEED_NG);
	}
	have_blk = !bq_device_load(ctx, blk, &dev);
	if (writes) {
		ret = bq_target_guard_block(ctx, path, have_blk ? &dev : NULL, blk, gopts, held,
					    ti, err);
		if (ret < 0)
			goto out_close_pfd;
	}
	/* No O_DIRECT: passthrough never touches the page cache, and open() refuses it. */
	*fd = bq_fd_reopen(pfd, writes ? O_RDWR : O_RDONLY);
	if (*fd < 0) {
		ret = bq_fail_at(err, path, *fd, "%s", strerror(-*fd));
		goto out_close_pfd;
	}
	ret = passthru_facts(j, *fd, path, ti, err);
	if (ret)
		goto out_close_pfd;
	ti->numa_node = -1;
	if (have_blk) {
		uint64_t hw = (uint64_t)dev.q.max_hw_sectors_kb * 1024;

		/* The block layer splits large I/O; a passthrough command it cannot split. */
		if (hw && hw < ti->max_io)
			ti->max_io = (uint32_t)hw;
		bq_strlcpy(ti->devname, dev.name, sizeof(ti->devname));
		ti->numa_node = dev.numa_node;
	}
out_close_pfd:
	close(pfd);
	if (have_blk)
		bq_device_release(&dev);
	return ret;
}

/**
 * bq_target_open() - open one of a job's targets for its I/O
 * @ctx: context
 * @j: the job
 * @path: the target
 * @gopts: guard overrides
 * @held: the run's descriptors, one per object, kept for the whole run
 * @ti: receives the target's facts
 * @fd: receives the descriptor the job's threads use
 * @err: why not
 *
 * A block device or a regular file; for ioengine=io_uring_cmd, only an
 * NVMe generic device (/dev/ngXnY), guarded through its block device.
 * @path is resolved once; the job's descriptor is a reopen of the held
 * one (other flags), checked to be the same object, so what the guard
 * judged is what is written.
 *
 * Return: 0 or -errno.
 */
int bq_target_open(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
		   const struct bq_guard_opts *gopts, struct bq_held *held,
		   struct bq_target_info *ti, int *fd, struct bq_parse_error *err)
{
	int ret;

	memset(ti, 0, sizeof(*ti));
	bq_strlcpy(ti->path, path, sizeof(ti->path));
	if (bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU))
		return passthru_open(ctx, j, path, gopts, held, ti, fd, err);
	if (j->engine == BQ_ENGINE_SG) {
		ret = bq_sg_target_open(ctx, j, path, gopts, held, ti, fd, err);
		if (ret <= 0)
			return ret;
	}
	/* fill_device writes a file from empty (fill.c): nothing is laid out first. */
	ret = open_held(ctx, j, path, -1, j->fill_device ? 0 : j->offset + j->size +
			(j->offset_increment_pct ? 0 : (uint64_t)(j->numjobs ? j->numjobs - 1 : 0) *
			 j->offset_increment), gopts, held, ti, fd, err);
	return ret < 0 ? ret : 0;
}

/**
 * bq_target_open_at() - bq_target_open() of a file set's file, resolved
 * and laid out already by lib/io/fileset.c
 * @ctx: context
 * @j: the job
 * @pfd: the file, an O_PATH (or any) descriptor; consumed
 * @path: its name, for messages
 * @created: the run made it just now (nothing of anyone's to guard)
 * @gopts: guard overrides
 * @held: the run's descriptors
 * @ti: receives the target's facts
 * @fd: receives the descriptor the job's threads use
 * @err: why not
 *
 * Return: its index in @held, or -errno.
 */
int bq_target_open_at(struct bq_ctx *ctx, const struct bq_job *j, int pfd, const char *path,
		      bool created, const struct bq_guard_opts *gopts,
		      struct bq_held *held, struct bq_target_info *ti, int *fd,
		      struct bq_parse_error *err)
{
	memset(ti, 0, sizeof(*ti));
	bq_strlcpy(ti->path, path, sizeof(ti->path));
	ti->created = created;
	ti->laid_out = created;
	/* A file the job's writes grow keeps its size: it has not shrunk. */
	return open_held(ctx, j, path, pfd, 0, gopts, held, ti, fd, err);
}

static int open_held(struct bq_ctx *ctx, const struct bq_job *j, const char *path, int pfd,
		     uint64_t need, const struct bq_guard_opts *gopts, struct bq_held *held,
		     struct bq_target_info *ti, int *fd, struct bq_parse_error *err)
{
	bool writes = bq_job_writes(j);
	struct bq_device dev;
	int h, ret;

	h = hold_target(ctx, j, path, pfd, gopts, held, ti, err);
	if (h < 0)
		return h;
	ti->st = held->st[h];
	if (S_ISREG(ti->st.st_mode) && pfd >= 0) {
		file_facts(ctx, held->fd[h], &ti->st, ti);
	} else if (S_ISREG(ti->st.st_mode)) {
		/*
		 * The run laid the file out already where fio would
		 * (lib/io/layout.c); a job that writes fills what is still
		 * short, as fio's does, and one that reads cannot.
		 */
		if ((uint64_t)ti->st.st_size < need && !writes && !ti->created)
			return bq_fail_at(err, path, -EINVAL,
				    "%llu bytes, shorter than offset+size (%llu), and not laid "
				    "out (create_on_open=1, or it changed since)",
				    (unsigned long long)ti->st.st_size, (unsigned long long)need);
		if (ti->created && !writes) {
			ret = grow_file(held->fd[h], path, need, ti, err);
			if (ret)
				return ret;
			if (fstat(held->fd[h], &ti->st))
				return bq_fail_at(err, path, -errno, "%s", strerror(errno));
		}
		file_facts(ctx, held->fd[h], &ti->st, ti);
		/* fio's real_file_size: the region the writes will fill. */
		if (writes && ti->size < need)
			ti->size = need;
	}
	*fd = bq_fd_reopen(held->fd[h], open_flags(j));
	/* Only the owner (or CAP_FOWNER) may ask for O_NOATIME: then without, as fio. */
	if (*fd == -EPERM)
		*fd = bq_fd_reopen(held->fd[h], open_flags(j) & ~O_NOATIME);
	if (*fd < 0) {
		ret = *fd;
		*fd = -1;
		if (ret == -EINVAL && j->direct)
			return bq_fail_at(err, path, ret, "direct I/O is not supported here");
		return bq_fail_at(err, path, ret, "%s", strerror(-ret));
	}
	if (j->invalidate)
		drop_cached_pages(*fd, &ti->st);
	if (S_ISBLK(ti->st.st_mode)) {
		unsigned long long bytes = 0;
		int lbs = 512;

		ti->is_blk = true;
		if (ioctl(*fd, BLKGETSIZE64, &bytes) || ioctl(*fd, BLKSSZGET, &lbs))
			return bq_fail_at(err, path, -errno, "reading its size: %s", strerror(errno));
		ti->size = bytes;
		ti->lbs = (uint32_t)lbs;
		ti->numa_node = -1;
		if (!bq_device_facts_devt(ctx, ti->st.st_rdev, &dev)) {
			bq_strlcpy(ti->devname, dev.name, sizeof(ti->devname));
			ti->numa_node = dev.numa_node;
			bq_device_release(&dev);
		}
	}
	ret = bq_atomic_check(*fd, j, path, err);
	return ret ? ret : h;
}

/*
 * Whether I/O to a target can be polled: its block device decides; a
 * file's is the one it lives on, an NVMe generic device's is the
 * namespace's block device, whose queues it shares.
 */
static bool device_can_poll(struct bq_ctx *ctx, const struct bq_target_info *ti,
			    const struct stat *st, uint32_t largest_io, char *why, size_t len)
{
	struct bq_device dev;
	bool ok = false;
	int ret;

	if (S_ISCHR(st->st_mode))
		ret = ti->devname[0] ? bq_device_load_facts(ctx, ti->devname, &dev) : -ENOENT;
	else
		ret = bq_device_facts_devt(ctx, S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev,
					   &dev);
	if (ret) {
		snprintf(why, len, "cannot read the device's queue limits");
		return false;
	}
	if (dev.kind == BQ_DEV_MD || dev.kind == BQ_DEV_DM)
		snprintf(why, len, "%s is a stacked (%s) device, which cannot poll", dev.name,
			 bq_dev_kind_name(dev.kind));
	else if (dev.q.io_poll == 1 && dev.q.max_sectors_kb &&
		 largest_io > dev.q.max_sectors_kb * 1024ull)
		/*
		 * The block layer splits such an I/O into several requests, and
		 * polling for a split I/O can wait forever (Linux 6.1 on NVMe
		 * poll queues, seen in the VM tests).
		 */
		snprintf(why, len, "I/O of %u KiB is over %s's max_sectors_kb (%u): the kernel "
			 "would split it, and split polled I/O can hang", largest_io >> 10,
			 dev.name, dev.q.max_sectors_kb);
	else if (dev.q.io_poll == 1)
		ok = true;
	else if (dev.kind == BQ_DEV_NVME)
		snprintf(why, len, "%s has no poll queues: load nvme with poll_queues=N "
			 "(nvme.poll_queues=N on the kernel command line)", dev.name);
	else if (dev.kind == BQ_DEV_NULLB)
		snprintf(why, len, "%s has no poll queues: load null_blk with poll_queues=N",
			 dev.name);
	else
		snprintf(why, len, "%s cannot poll (queue/io_poll=0)", dev.name);
	bq_device_release(&dev);
	return ok;
}

/*
 * Whether RWF_HIPRI still polls a synchronous read or write.  Linux 5.16
 * made polling bio based and dropped it for synchronous direct I/O, on
 * block devices and filesystems alike: preadv2() with RWF_HIPRI then
 * sleeps until the interrupt, as without it (the VM tests count the
 * interrupts).  Only io_uring polls since.
 */
static bool sync_hipri_polls(char *why, size_t len)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (!uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	    (major < 5 || (major == 5 && minor < 16)))
		return true;
	snprintf(why, len, "Linux %d.%d does not poll synchronous I/O (since 5.16 RWF_HIPRI "
		 "completes by interrupt); io_uring with hipri=1 polls", major, minor);
	return false;
}

/* write_mode= sends Write Zeroes, Uncorrectable or Verify: commands without data. */
static bool wmode_without_data(const struct bq_job *j)
{
	for (unsigned int i = 0; i < j->nvme_wmode_nr; i++)
		if (j->nvme_wmode[i].opcode != BQ_NVME_OP_WRITE &&
		    j->nvme_wmode[i].opcode != BQ_NVME_OP_ZONE_APPEND)
			return true;
	return false;
}

/**
 * bq_poll_decide() - whether a job's completions will be polled
 * @ctx: context
 * @j: the job
 * @targets: its opened targets
 * @nr: how many
 * @largest_io: the job's largest I/O in bytes
 * @polled: receives the decision
 * @note: receives why, for the output
 * @len: size of @note
 * @err: why poll=on cannot be honoured
 *
 * Return: 0, or -EOPNOTSUPP when poll=on (or hipri=1) asks for the impossible.
 */
int bq_poll_decide(struct bq_ctx *ctx, const struct bq_job *j,
		   const struct bq_target_info *targets, int nr, uint32_t largest_io,
		   bool *polled, char *note, size_t len, struct bq_parse_error *err)
{
	bool hipri = bq_engine_has(j->engine, BQ_ENGINE_HIPRI);
	char why[256] = "";
	bool ok = true;

	*polled = false;
	/*
	 * fio's sg hipri sets SGV4_FLAG_HIPRI, which the sg driver of
	 * mainline Linux (3.5.36) ignores: the commands still complete by
	 * interrupt, and the report says so instead of claiming polling.
	 */
	if (j->engine == BQ_ENGINE_SG) {
		snprintf(note, len, j->poll == BQ_POLL_ON ? "interrupts (hipri=1 sets "
			 "SGV4_FLAG_HIPRI, which Linux's sg driver ignores)" : "interrupts");
		return 0;
	}
	if (j->poll == BQ_POLL_OFF) {
		snprintf(note, len, "interrupts (poll=off)");
		return 0;
	}
	/* pvsync2 polls only when asked, as in fio: a thread spinning on each I/O. */
	if (hipri && j->poll != BQ_POLL_ON) {
		snprintf(note, len, "interrupts (hipri=0)");
		return 0;
	}
	if (!bq_engine_has(j->engine, BQ_ENGINE_RING) && !hipri) {
		ok = false;
		snprintf(why, sizeof(why),
			 "polled I/O needs ioengine=io_uring, io_uring_cmd or pvsync2");
	} else if (wmode_without_data(j)) {
		/* Linux 6.1 polls such a command's (absent) bio and crashes in bio_poll(). */
		ok = false;
		snprintf(why, sizeof(why), "write_mode= commands carry no data, and NVMe "
			 "passthrough polling cannot complete them");
	} else if (!j->direct && !bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU)) {
		/* Passthrough never goes through the page cache: direct is implied. */
		ok = false;
		snprintf(why, sizeof(why), "polled I/O needs direct=1");
	}
	for (int i = 0; ok && i < nr; i++)
		ok = device_can_poll(ctx, &targets[i], &targets[i].st, largest_io, why,
				     sizeof(why));
	if (ok && hipri)
		ok = sync_hipri_polls(why, sizeof(why));
	if (ok) {
		*polled = true;
		if (!hipri)
			snprintf(note, len, "polled (IORING_SETUP_IOPOLL)");
		else if (j->hipri_percentage < 100)
			snprintf(note, len, "polled (RWF_HIPRI on %u%% of I/Os)", j->hipri_percentage);
		else
			snprintf(note, len, "polled (RWF_HIPRI)");
		return 0;
	}
	if (j->poll == BQ_POLL_ON)
		return bq_fail_at(err, "poll=on", -EOPNOTSUPP, "%s", why);
	snprintf(note, len, "interrupts: %s", why);
	return 0;
}

/**
 * bq_held_borrow() - let a run use descriptors its caller already holds
 * @held: the run's set, empty
 * @pins: the caller's guarded descriptors and the names its jobs use
 * @nr: how many
 *
 * A job whose filename= is one of these names uses that descriptor: the
 * name is not resolved again, and the guard's verdict (given when the
 * caller opened it) stands.  They stay open after the run.
 *
 * Return: 0, or -E2BIG.
 */
int bq_held_borrow(struct bq_held *held, const struct bq_pinned_target *pins, int nr)
{
	for (int i = 0; i < nr; i++) {
		if (held->nr == BQ_MAX_HELD)
			return -E2BIG;
		if (fstat(pins[i].fd, &held->st[held->nr]))
			return -errno;
		held->fd[held->nr] = pins[i].fd;
		held->guarded[held->nr] = true;
		held->borrowed[held->nr] = true;
		held->name[held->nr] = pins[i].name;
		held->nr++;
	}
	return 0;
}

void bq_held_release(struct bq_held *held)
{
	for (int i = 0; i < held->nr; i++)
		if (!held->borrowed[i])
			close(held->fd[i]);
	held->nr = 0;
}
