// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard.c - the data-safety guard: the one way blkqual opens a target to write
 *
 * Two classes of finding.  "In use" (mounted, held by md/dm/LVM, swap,
 * exclusively opened, backing a loop device): writing would corrupt a live
 * system, so nothing overrides it.  "Holds data" (a signature or partition
 * table): the user may say this exact target is scratch with
 * --force-destroy, matched by device number or inode, never by spelling.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "guard_int.h"
#include "internal.h"
#include "verify/verify_int.h"

static const char *const reason_names[] = {
	[BQ_GUARD_MOUNTED] = "mounted",
	[BQ_GUARD_HOLDERS] = "holders",
	[BQ_GUARD_SWAP] = "swap",
	[BQ_GUARD_BUSY] = "busy",
	[BQ_GUARD_LOOP_BACKING] = "loop-backing",
	[BQ_GUARD_SIGNATURE] = "signature",
	[BQ_GUARD_PARTTABLE] = "partition-table",
	[BQ_GUARD_STACKED] = "stacked",
	[BQ_GUARD_READONLY] = "read-only",
};

/* Loop stacks deeper than this are not followed further. */
#define MAX_STACK_DEPTH 8

const char *bq_guard_reason_name(enum bq_guard_reason reason)
{
	if ((size_t)reason >= ARRAY_SIZE(reason_names))
		return "unknown";
	return reason_names[reason];
}

static void add_finding(struct bq_guard_report *rep, enum bq_guard_reason reason,
			const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_finding(struct bq_guard_report *rep, enum bq_guard_reason reason,
			const char *fmt, ...)
{
	struct bq_guard_finding *f;
	va_list ap;

	if (rep->nr >= BQ_GUARD_MAX_FINDINGS)
		return;
	f = &rep->findings[rep->nr++];
	f->reason = reason;
	f->overridable = reason == BQ_GUARD_SIGNATURE || reason == BQ_GUARD_PARTTABLE;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

/* "ext4 filesystem (UUID ..., LABEL ...)" */
static void signature_words(const struct bq_signature *s, char *buf, size_t len)
{
	char extra[192] = "";
	const char *what;

	if (!strcmp(s->usage, "filesystem"))
		what = "filesystem";
	else if (!strcmp(s->usage, "raid"))
		what = strstr(s->type, "LVM") ? "LVM physical volume" : "RAID member";
	else if (!strcmp(s->usage, "crypto"))
		what = "encrypted volume";
	else if (!strcmp(s->usage, "partition table"))
		what = "partition table";
	else
		what = "signature";
	if (s->uuid[0] || s->label[0])
		snprintf(extra, sizeof(extra), " (%s%s%s%s%s)", s->uuid[0] ? "UUID " : "", s->uuid,
			 s->uuid[0] && s->label[0] ? ", " : "", s->label[0] ? "LABEL " : "",
			 s->label);
	snprintf(buf, len, "%s %s%s", s->type, what, extra);
}

static void describe_signature(struct bq_guard_report *rep, const struct bq_signature *s,
			       const char *where)
{
	char words[320];

	signature_words(s, words, sizeof(words));
	add_finding(rep, strcmp(s->usage, "partition table") ? BQ_GUARD_SIGNATURE :
		    BQ_GUARD_PARTTABLE, "%s%s%s", words, where ? " on " : "", where ? where : "");
}

/*
 * Drop from @sigs, read through @rfd, those whose magic lies in blkqual's
 * own verify data, saying so in @rep->own.  Return: how many are left.
 */
static int drop_own_signatures(int rfd, struct bq_signature *sigs, int nr,
			       struct bq_guard_report *rep)
{
	int kept = 0;

	for (int i = 0; i < nr; i++) {
		const struct bq_signature *s = &sigs[i];
		struct bq_vhdr h;
		char words[320];

		if (!s->magic_len || bq_verify_owns(rfd, s->offset, s->magic_len, &h) != 1) {
			sigs[kept++] = *s;
			continue;
		}
		if (rep->nr_own >= BQ_GUARD_MAX_OWN)
			continue;
		signature_words(s, words, sizeof(words));
		snprintf(rep->own[rep->nr_own++], sizeof(rep->own[0]),
			 "%s at byte %" PRIu64 " is blkqual's own verify data (the %s block of "
			 "%u bytes at %" PRIu64 ", seed %#" PRIx64 ", generation %" PRIu64 ")",
			 words, s->offset, bq_verify_method_name((enum bq_verify_method)h.method),
			 h.length, h.offset, h.seed, h.generation);
	}
	return kept;
}

/*
 * What makes a device live: mounts, holders, swap.  @who names it when it
 * is not the target itself ("loop3p1 ", "whole disk loop3 ").
 */
static void use_findings(struct bq_guard_report *rep, const struct bq_device *dev,
			 const char *who)
{
	for (size_t i = 0; i < dev->mounts.n; i++)
		add_finding(rep, BQ_GUARD_MOUNTED, "%smounted at %s", who, dev->mounts.v[i]);
	for (size_t i = 0; i < dev->holders.n; i++)
		add_finding(rep, BQ_GUARD_HOLDERS, "%sheld by %s", who, dev->holders.v[i]);
	if (dev->swap)
		add_finding(rep, BQ_GUARD_SWAP, "%s%sactive swap", who, *who ? "is " : "");
}

/* In-use and data findings of a device and its partitions. */
static void check_use(struct bq_guard_report *rep, const struct bq_device *dev, bool part)
{
	char who[80] = "";

	if (part)
		snprintf(who, sizeof(who), "%s ", dev->name);
	use_findings(rep, dev, who);
	for (int i = 0; i < dev->nr_sigs; i++)
		describe_signature(rep, &dev->sigs[i], part ? dev->name : NULL);
	for (size_t i = 0; i < dev->nr_parts; i++)
		check_use(rep, &dev->parts[i], true);
}

/* Whether any of the guard's findings so far make the target live. */
static bool any_in_use(const struct bq_guard_report *rep)
{
	for (int i = 0; i < rep->nr; i++)
		if (!rep->findings[i].overridable)
			return true;
	return false;
}

/* A device, its whole disk and its partitions: writing one writes the others. */
struct family {
	dev_t devt[64];
	int nr;
};

/* @parent: the whole disk's number when @dev is a partition, else 0. */
static void family_of(const struct bq_device *dev, dev_t parent, struct family *f)
{
	f->nr = 0;
	f->devt[f->nr++] = dev->devt;
	if (parent)
		f->devt[f->nr++] = parent;
	for (size_t i = 0; i < dev->nr_parts && f->nr < (int)ARRAY_SIZE(f->devt); i++)
		f->devt[f->nr++] = dev->parts[i].devt;
}

/* The whole disk's device number of a partition, or 0. */
static dev_t parent_devt(struct bq_ctx *ctx, const struct bq_device *dev)
{
	struct bq_device parent;
	dev_t devt = 0;

	if (dev->is_partition && dev->parent[0] && !bq_device_load(ctx, dev->parent, &parent)) {
		devt = parent.devt;
		bq_device_release(&parent);
	}
	return devt;
}

static bool in_family(const struct family *f, dev_t devt)
{
	for (int i = 0; i < f->nr; i++)
		if (f->devt[i] == devt)
			return true;
	return false;
}

/*
 * Why a loop device that shares data with the target makes it live: the
 * first of its mounts, holders, swap or signature, in words.
 */
static bool loop_is_live(struct bq_ctx *ctx, const struct bq_loop *l, char *why, size_t len)
{
	struct bq_device dev;
	bool live = true;

	if (bq_device_load(ctx, l->name, &dev)) {
		snprintf(why, len, "cannot be examined");
		return true;
	}
	if (dev.mounts.n)
		snprintf(why, len, "is mounted at %s", dev.mounts.v[0]);
	else if (dev.holders.n)
		snprintf(why, len, "is held by %s", dev.holders.v[0]);
	else if (dev.swap)
		snprintf(why, len, "is active swap");
	else if (dev.nr_sigs) {
		char words[320];

		signature_words(&dev.sigs[0], words, sizeof(words));
		snprintf(why, len, "holds %s", words);
	} else if (dev.nr_parts)
		snprintf(why, len, "has partitions");
	else
		live = false;
	bq_device_release(&dev);
	return live;
}

static void check_stack(struct bq_ctx *ctx, const struct bq_loops *loops, dev_t devt,
			const struct family *fam, struct bq_guard_report *rep, int depth);

/*
 * The target @self is a loop device: the data it writes is its backing
 * store's.  Refuse when that store is live below it, or when another loop
 * device over the same store is live (mounted, held, holds data).
 */
static void check_below(struct bq_ctx *ctx, const struct bq_loops *loops,
			const struct bq_loop *self, struct bq_guard_report *rep, int depth)
{
	struct family below = { .nr = 0 };
	struct bq_device bdev;
	char why[384];

	if (!self->known) {
		add_finding(rep, BQ_GUARD_STACKED, "%s: its backing store %s cannot be identified",
			    self->name, self->backing_name);
		return;
	}
	if (self->back_rdev && !bq_device_load_devt(ctx, self->back_rdev, &bdev)) {
		char who[192];

		snprintf(who, sizeof(who), "its backing device %s is ", bdev.name);
		use_findings(rep, &bdev, who);
		/*
		 * Data on the device below is that device's to give up: a force
		 * naming this loop device does not reach it.
		 */
		for (int i = 0; i < bdev.nr_sigs; i++) {
			char words[320];

			signature_words(&bdev.sigs[i], words, sizeof(words));
			add_finding(rep, BQ_GUARD_STACKED, "its backing device %s holds %s",
				    bdev.name, words);
		}
		for (size_t i = 0; i < bdev.nr_parts; i++) {
			snprintf(who, sizeof(who), "%s, a partition of its backing device, is ",
				 bdev.parts[i].name);
			use_findings(rep, &bdev.parts[i], who);
		}
		family_of(&bdev, parent_devt(ctx, &bdev), &below);
		bq_device_release(&bdev);
		if (depth < MAX_STACK_DEPTH)
			check_stack(ctx, loops, self->back_rdev, NULL, rep, depth + 1);
	}
	for (size_t i = 0; i < loops->nr; i++) {
		const struct bq_loop *o = &loops->v[i];

		if (o->devt == self->devt || !o->known)
			continue;
		if (!bq_loop_same_backing(self, o) &&
		    !(o->back_rdev && in_family(&below, o->back_rdev)))
			continue;
		if (loop_is_live(ctx, o, why, sizeof(why)))
			add_finding(rep, BQ_GUARD_STACKED, "its backing store %s also backs %s, "
				    "which %s", self->backing_name, o->name, why);
	}
}

/*
 * Loop devices built on the target @devt (or on its whole disk or a
 * partition of it, @fam) read and write its blocks: it backs them, so it
 * is theirs.  Below the target (@fam NULL) only that question is left out.
 * Either way, if @devt is itself a loop device, what is below it counts.
 */
static void check_stack(struct bq_ctx *ctx, const struct bq_loops *loops, dev_t devt,
			const struct family *fam, struct bq_guard_report *rep, int depth)
{
	for (size_t i = 0; i < loops->nr; i++) {
		const struct bq_loop *l = &loops->v[i];

		if (l->devt == devt)
			check_below(ctx, loops, l, rep, depth);
		else if (fam && l->back_rdev && in_family(fam, l->back_rdev))
			add_finding(rep, BQ_GUARD_LOOP_BACKING, "backs loop device %s%s",
				    l->name, l->back_rdev == devt ? "" : " (through its disk or "
				    "a partition)");
	}
}

/*
 * In-use and data findings of a block device; @rfd reads it.  @probe_err
 * receives why its signatures could not be read (then it cannot be
 * called blank); @ro whether it is read-only.
 */
static int check_block(struct bq_ctx *ctx, int rfd, const struct stat *st,
		       struct bq_guard_report *rep, int *probe_err, bool *ro)
{
	struct bq_loops loops;
	struct bq_device dev;
	struct family fam;
	dev_t parent = 0;
	int ret, nr;

	ret = bq_device_unprobed_devt(ctx, st->st_rdev, &dev);
	if (ret)
		return ret;
	/* What this descriptor reads is what is judged, whatever /dev says. */
	nr = rfd >= 0 ? bq_probe_signatures_fd(rfd, &dev.sigs) : rfd;
	if (nr >= 0)
		dev.nr_sigs = drop_own_signatures(rfd, dev.sigs, nr, rep);
	else if (nr != -ENOMEDIUM)
		*probe_err = nr;
	*ro = dev.read_only;
	check_use(rep, &dev, false);
	if (dev.is_partition && dev.parent[0]) {
		struct bq_device disk;
		char who[96];

		/* A partition is part of its disk: a mounted or held disk is live. */
		if (!bq_device_load(ctx, dev.parent, &disk)) {
			snprintf(who, sizeof(who), "its whole disk %s is ", disk.name);
			use_findings(rep, &disk, who);
			parent = disk.devt;
			bq_device_release(&disk);
		}
	}
	family_of(&dev, parent, &fam);
	bq_device_release(&dev);
	ret = bq_loops_read(ctx, &loops);
	if (ret)
		return ret;
	check_stack(ctx, &loops, st->st_rdev, &fam, rep, 0);
	bq_loops_release(&loops);
	return 0;
}

static int check_file(struct bq_ctx *ctx, int rfd, const struct stat *st,
		      struct bq_guard_report *rep, int *probe_err)
{
	struct bq_signature *sigs;
	struct bq_loops loops;
	struct bq_mounts mt;
	int nr, ret;

	/* A file behind a loop device is that device's data, whatever its name now. */
	ret = bq_loops_read(ctx, &loops);
	if (ret)
		return ret;
	for (size_t i = 0; i < loops.nr; i++)
		if (bq_loop_backs(&loops.v[i], st))
			add_finding(rep, BQ_GUARD_LOOP_BACKING, "backing file of %s",
				    loops.v[i].name);
	bq_loops_release(&loops);

	ret = bq_mounts_read(ctx, &mt);
	if (ret)
		return ret;
	for (size_t i = 0; i < mt.swaps.n; i++) {
		struct stat sst;

		if (!stat(mt.swaps.v[i], &sst) && bq_same_object(st, &sst))
			add_finding(rep, BQ_GUARD_SWAP, "active swap file");
	}
	bq_mounts_release(&mt);

	nr = rfd >= 0 ? bq_probe_signatures_fd(rfd, &sigs) : rfd;
	if (nr < 0) {
		*probe_err = nr;
		return 0;
	}
	nr = drop_own_signatures(rfd, sigs, nr, rep);
	for (int i = 0; i < nr; i++)
		describe_signature(rep, &sigs[i], NULL);
	free(sigs);
	return 0;
}

static bool is_forced(const struct stat *st, const struct bq_guard_opts *opts)
{
	for (size_t i = 0; opts && i < opts->nr_force; i++) {
		struct stat fs;

		if (!stat(opts->force_destroy[i], &fs) && bq_same_object(st, &fs))
			return true;
	}
	return false;
}

int bq_guard_force_named(const char *force, const char *const *targets, size_t nr)
{
	struct stat fs;

	if (stat(force, &fs))
		return -errno;
	for (size_t i = 0; i < nr; i++) {
		struct stat ts;

		if (!stat(targets[i], &ts) && bq_same_object(&fs, &ts))
			return 0;
	}
	return -ENXIO;
}

int bq_guard_open_fd(struct bq_ctx *ctx, int pfd, int flags, const struct bq_guard_opts *opts,
		     struct bq_guard_report *rep)
{
	int fd, rfd, ret, open_err = 0, probe_err = 0;
	bool blk, busy = false, ro = false;
	struct stat st;

	memset(rep, 0, sizeof(*rep));
	if (!ctx->live)
		return -EXDEV;	/* a captured tree says nothing about this machine */
	if (fstat(pfd, &st))
		return -errno;
	rep->st = st;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	blk = S_ISBLK(st.st_mode);
	if (!blk && !S_ISREG(st.st_mode))
		return -ENOTBLK;

	/*
	 * Open first, exclusively for a block device: from here on no new
	 * mount or array can claim it while the caller writes.  A failed open
	 * still gets the checks, so "mounted at /" is said before "permission
	 * denied".  Everything below reads this object, never a name.
	 */
	fd = bq_fd_reopen(pfd, O_RDWR | (flags & ~O_CREAT) | (blk ? O_EXCL : 0));
	if (fd < 0) {
		busy = blk && fd == -EBUSY;
		ro = fd == -EROFS;
		open_err = busy || ro ? 0 : fd;
	}
	rfd = bq_fd_reopen(pfd, O_RDONLY | O_NONBLOCK);
	if (blk) {
		bool dev_ro = false;
		int flag = 0;

		ret = check_block(ctx, rfd, &st, rep, &probe_err, &dev_ro);
		if (fd >= 0 && !ioctl(fd, BLKROGET, &flag) && flag)
			dev_ro = true;
		if (dev_ro) {
			ro = true;
			if (open_err == -EACCES || open_err == -EPERM)
				open_err = 0;
		}
	} else {
		ret = check_file(ctx, rfd, &st, rep, &probe_err);
	}
	if (rfd >= 0)
		close(rfd);
	if (ret)
		goto out_close_fd;
	if (ro)
		add_finding(rep, BQ_GUARD_READONLY, blk ? "read-only device" :
			    "on a read-only filesystem");
	/* EBUSY alone is worth a finding; beside a mount it only repeats it. */
	if (busy && !any_in_use(rep))
		add_finding(rep, BQ_GUARD_BUSY, "opened exclusively by another program");
	ret = any_in_use(rep) ? -EBUSY : open_err ? open_err : probe_err;
	if (ret)
		goto out_close_fd;
	if (rep->nr) {
		if (!is_forced(&st, opts)) {
			ret = -EBUSY;
			goto out_close_fd;
		}
		rep->forced = true;
	}
	return fd;

out_close_fd:
	if (fd >= 0)
		close(fd);
	return ret;
}

int bq_guard_open(struct bq_ctx *ctx, const char *path, int flags,
		  const struct bq_guard_opts *opts, struct bq_guard_report *rep)
{
	int pfd, ret;

	memset(rep, 0, sizeof(*rep));
	if (!ctx->live)
		return -EXDEV;
	/* The one place the user's name is resolved: symlinks followed here, once. */
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	ret = bq_guard_open_fd(ctx, pfd, flags, opts, rep);
	close(pfd);
	return ret;
}

void bq_guard_explain(const char *path, const struct bq_guard_report *rep, char *buf, size_t len)
{
	bool in_use = false;
	size_t used;

	buf[0] = '\0';
	for (int i = 0; i < rep->nr; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", i ? "; " : "", rep->findings[i].detail);
		in_use |= !rep->findings[i].overridable;
	}
	used = strlen(buf);
	if (in_use)
		snprintf(buf + used, len - used, " (in use: no flag overrides this)");
	else if (!rep->forced)
		snprintf(buf + used, len - used, "; pass --force-destroy=%s to overwrite it", path);
}
