/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_guard.h - the data-safety guard and target identity
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_GUARD_H
#define BLKQUAL_GUARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* ---- the data-safety guard --------------------------------------------- */

/**
 * enum bq_guard_reason - why the guard refuses to write
 * @BQ_GUARD_MOUNTED: the device or one of its partitions is mounted
 * @BQ_GUARD_HOLDERS: md, dm or LVM is built on it
 * @BQ_GUARD_SWAP: it is active swap
 * @BQ_GUARD_BUSY: an exclusive open failed: someone else holds it
 * @BQ_GUARD_LOOP_BACKING: it (or its whole disk, or a partition of it) is
 *	the backing file or device of a loop device
 * @BQ_GUARD_SIGNATURE: libblkid found a filesystem, RAID, LVM or crypto signature
 * @BQ_GUARD_PARTTABLE: libblkid found a partition table
 * @BQ_GUARD_STACKED: a loop device whose backing store is in use below it
 *	or shared with another loop device that is mounted, held or holds data
 * @BQ_GUARD_READONLY: the device or filesystem takes no writes
 *
 * All but @BQ_GUARD_SIGNATURE and @BQ_GUARD_PARTTABLE mean "in use": no
 * flag overrides them, since writing would corrupt a live system (or
 * cannot work).  Those two mean "holds data": the --force-destroy override
 * for the named device lifts them.
 */
enum bq_guard_reason {
	BQ_GUARD_MOUNTED,
	BQ_GUARD_HOLDERS,
	BQ_GUARD_SWAP,
	BQ_GUARD_BUSY,
	BQ_GUARD_LOOP_BACKING,
	BQ_GUARD_SIGNATURE,
	BQ_GUARD_PARTTABLE,
	BQ_GUARD_STACKED,
	BQ_GUARD_READONLY,
};

#define BQ_GUARD_MAX_FINDINGS 16
#define BQ_GUARD_MAX_OWN 4

/**
 * struct bq_guard_finding - one reason to refuse
 * @reason: what was found
 * @overridable: whether --force-destroy lifts it
 * @detail: human-readable detail ("xfs filesystem, UUID=...")
 */
struct bq_guard_finding {
	enum bq_guard_reason reason;
	bool overridable;
	char detail[256];
};

/**
 * struct bq_guard_report - what the guard found on one target
 * @findings: reasons, @nr of them
 * @forced: the override named this target and lifted its findings
 * @st: what was examined (fstat of the one descriptor), valid when a
 *	descriptor is returned and when the target was refused
 * @own: signatures whose magic lies in a verify block blkqual wrote there
 *	(rebuilt byte for byte from its header), so not data of anyone's and
 *	no finding; what each is, in words, @nr_own of them
 */
struct bq_guard_report {
	struct bq_guard_finding findings[BQ_GUARD_MAX_FINDINGS];
	int nr;
	bool forced;
	struct stat st;
	char own[BQ_GUARD_MAX_OWN][448];
	int nr_own;
};

/**
 * struct bq_guard_opts - the user's overrides
 * @force_destroy: targets the user allowed to overwrite, @nr_force of them;
 *   matched by identity (device number, or inode for files), not by spelling
 * @read_only: nothing may be written at all (run --readonly): a job's file
 *   that would be created, laid out or replaced is refused too
 */
struct bq_guard_opts {
	const char *const *force_destroy;
	size_t nr_force;
	bool read_only;
};

/**
 * bq_guard_open() - open a target for writing only if that is safe
 * @ctx: context
 * @path: block device or regular file
 * @flags: extra open(2) flags (e.g. O_DIRECT); O_RDWR is implied
 * @opts: overrides, or NULL
 * @rep: receives the findings
 *
 * Every blkqual feature that writes to a target opens it here.  A block
 * device is opened O_EXCL and kept so, which both detects holders the
 * kernel knows of (mounts, md, dm) and keeps new ones away while the
 * caller writes.
 *
 * Return: a file descriptor; -EBUSY when refused (see @rep); -ENOENT,
 * -ENOTBLK (neither block device nor regular file), -EISDIR, -EACCES,
 * -EXDEV when @ctx reads a captured tree instead of this machine, an error
 * that kept the signatures from being read, or another -errno.
 */
int bq_guard_open(struct bq_ctx *ctx, const char *path, int flags,
		  const struct bq_guard_opts *opts, struct bq_guard_report *rep);

/**
 * bq_guard_open_fd() - bq_guard_open() of an object already resolved
 * @ctx: context
 * @fd: a descriptor of the target (O_PATH will do); it is not consumed
 * @flags: as for bq_guard_open()
 * @opts: overrides, or NULL
 * @rep: receives the findings
 *
 * For callers that resolved the user's name once and hold the result:
 * nothing here looks at a name again, so what is checked is what is
 * written.  The returned descriptor is a reopen of @fd's object.
 *
 * Return: as bq_guard_open().
 */
int bq_guard_open_fd(struct bq_ctx *ctx, int fd, int flags, const struct bq_guard_opts *opts,
		     struct bq_guard_report *rep);

/**
 * bq_fd_reopen() - a second descriptor of the object behind @fd
 * @fd: an open descriptor (O_PATH will do)
 * @flags: open(2) flags for the new one; O_CLOEXEC is added, O_CREAT refused
 *
 * Through /proc/self/fd, which names the open file rather than a path to
 * it; the result is checked to be the same object all the same.
 *
 * Return: the new descriptor, or -errno (-ESTALE if not the same object).
 */
int bq_fd_reopen(int fd, int flags);

/**
 * bq_dev_node() - the device node to hand a child program for a device
 * @ctx: context
 * @rdev: the device's number, from the descriptor the guard judged
 * @buf: receives "/dev/NAME", the kernel's name, checked to be that
 *	device's node and not a symlink
 * @len: size of @buf
 *
 * Return: 0, or -ENODEV.
 */
int bq_dev_node(struct bq_ctx *ctx, dev_t rdev, char *buf, size_t len);

/**
 * bq_guard_force_named() - whether a --force-destroy value names a target
 * @force: the value as the user gave it
 * @targets: the command's targets, @nr of them (names that do not exist
 *	yet, such as files a run will create, simply match nothing)
 * @nr: how many
 *
 * An override that names nothing, or nothing the command will touch, is
 * almost certainly a typo for the device the user meant.
 *
 * Return: 0; -ENOENT (or another stat(2) error) when @force does not
 * exist; -ENXIO when it exists but is none of @targets.
 */
int bq_guard_force_named(const char *force, const char *const *targets, size_t nr);

/**
 * bq_guard_explain() - the guard's findings as one line for the user
 * @path: the target as the user named it
 * @rep: the report from bq_guard_open()
 * @buf: receives "xfs filesystem (UUID ...); pass --force-destroy=PATH to
 *       overwrite it", or the in-use findings and that nothing overrides them
 * @len: size of @buf
 */
void bq_guard_explain(const char *path, const struct bq_guard_report *rep, char *buf,
		      size_t len);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_GUARD_H */
