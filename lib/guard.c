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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

static const char *const reason_names[] = {
	[BQ_GUARD_MOUNTED] = "mounted",
	[BQ_GUARD_HOLDERS] = "holders",
	[BQ_GUARD_SWAP] = "swap",
	[BQ_GUARD_BUSY] = "busy",
	[BQ_GUARD_LOOP_BACKING] = "loop-backing",
	[BQ_GUARD_SIGNATURE] = "signature",
	[BQ_GUARD_PARTTABLE] = "partition-table",
};

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

static void describe_signature(struct bq_guard_report *rep, const struct bq_signature *s,
			       const char *where)
{
	char extra[192] = "";
	const char *what;

	if (!strcmp(s->usage, "partition table")) {
		add_finding(rep, BQ_GUARD_PARTTABLE, "%s partition table%s%s", s->type,
			    where ? " on " : "", where ? where : "");
		return;
	}
	if (!strcmp(s->usage, "filesystem"))
		what = "filesystem";
	else if (!strcmp(s->usage, "raid"))
		what = strstr(s->type, "LVM") ? "LVM physical volume" : "RAID member";
	else if (!strcmp(s->usage, "crypto"))
		what = "encrypted volume";
	else
		what = "signature";
	if (s->uuid[0] || s->label[0])
		snprintf(extra, sizeof(extra), " (%s%s%s%s%s)", s->uuid[0] ? "UUID " : "", s->uuid,
			 s->uuid[0] && s->label[0] ? ", " : "", s->label[0] ? "LABEL " : "",
			 s->label);
	add_finding(rep, BQ_GUARD_SIGNATURE, "%s %s%s%s%s", s->type, what, extra,
		    where ? " on " : "", where ? where : "");
}

/* In-use findings of a device; a partition's are named with it. */
static void check_use(struct bq_guard_report *rep, const struct bq_device *dev, bool part)
{
	const char *who = part ? dev->name : NULL;

	for (size_t i = 0; i < dev->mounts.n; i++)
		add_finding(rep, BQ_GUARD_MOUNTED, "%s%smounted at %s", who ? who : "",
			    who ? " " : "", dev->mounts.v[i]);
	for (size_t i = 0; i < dev->holders.n; i++)
		add_finding(rep, BQ_GUARD_HOLDERS, "%s%sheld by %s", who ? who : "",
			    who ? " " : "", dev->holders.v[i]);
	if (dev->swap)
		add_finding(rep, BQ_GUARD_SWAP, "%s%sactive swap", who ? who : "", who ? " is " : "");
	for (int i = 0; i < dev->nr_sigs; i++)
		describe_signature(rep, &dev->sigs[i], who);
	for (size_t i = 0; i < dev->nr_parts; i++)
		check_use(rep, &dev->parts[i], true);
}

static bool same_target(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	if (S_ISREG(a->st_mode) && S_ISREG(b->st_mode))
		return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
	return false;
}

static bool is_forced(const struct stat *st, const struct bq_guard_opts *opts)
{
	for (size_t i = 0; opts && i < opts->nr_force; i++) {
		struct stat fs;

		if (!stat(opts->force_destroy[i], &fs) && same_target(st, &fs))
			return true;
	}
	return false;
}

/*
 * In-use and data findings of a block device.  @probe_err receives why its
 * signatures could not be read (then it cannot be called blank).
 */
static int check_block(struct bq_ctx *ctx, const char *path, const struct stat *st,
		       struct bq_guard_report *rep, int *probe_err)
{
	struct bq_device dev;
	char devt[32], name[64];
	int ret;

	snprintf(devt, sizeof(devt), "%u:%u", major(st->st_rdev), minor(st->st_rdev));
	ret = bq_device_resolve(ctx, devt, name, sizeof(name));
	if (ret)
		return ret;
	ret = bq_device_load(ctx, name, &dev);
	if (ret)
		return ret;
	/* No /dev/NAME on this system (a renamed node): read the path given. */
	if (dev.sig_error == -ENOENT) {
		int nr = bq_probe_signatures(path, &dev.sigs);

		dev.sig_error = nr < 0 ? nr : 0;
		dev.nr_sigs = nr < 0 ? 0 : nr;
	}
	if (dev.sig_error && dev.sig_error != -ENOMEDIUM)
		*probe_err = dev.sig_error;
	check_use(rep, &dev, false);
	bq_device_release(&dev);
	return 0;
}

static int check_file(struct bq_ctx *ctx, const char *path, const struct stat *st,
		      struct bq_guard_report *rep, int *probe_err)
{
	struct bq_strv loops = { 0 };
	struct bq_signature *sigs;
	struct bq_mounts mt;
	char dir[PATH_MAX];
	int nr, ret;

	/* A file behind a loop device is that device's data. */
	ret = bq_path(dir, sizeof(dir), ctx->sysfs, "/block");
	if (!ret)
		ret = bq_list_dir(dir, &loops);
	for (size_t i = 0; !ret && i < loops.n; i++) {
		char attr[PATH_MAX], backing[PATH_MAX];
		struct stat bst;

		if (bq_path(attr, sizeof(attr), ctx->sysfs, "/block/%s/loop/backing_file",
			    loops.v[i]) ||
		    bq_read_str(attr, backing, sizeof(backing)))
			continue;
		if (!stat(backing, &bst) && same_target(st, &bst))
			add_finding(rep, BQ_GUARD_LOOP_BACKING, "backing file of %s", loops.v[i]);
	}
	bq_strv_free(&loops);
	if (ret)
		return ret;

	ret = bq_mounts_read(ctx, &mt);
	if (ret)
		return ret;
	for (size_t i = 0; i < mt.swaps.n; i++) {
		struct stat sst;

		if (!stat(mt.swaps.v[i], &sst) && same_target(st, &sst))
			add_finding(rep, BQ_GUARD_SWAP, "active swap file");
	}
	bq_mounts_release(&mt);

	nr = bq_probe_signatures(path, &sigs);
	if (nr < 0) {
		*probe_err = nr;
		return 0;
	}
	for (int i = 0; i < nr; i++)
		describe_signature(rep, &sigs[i], NULL);
	free(sigs);
	return 0;
}

int bq_guard_open(struct bq_ctx *ctx, const char *path, int flags,
		  const struct bq_guard_opts *opts, struct bq_guard_report *rep)
{
	int fd, ret, open_err = 0, probe_err = 0;
	bool blk, busy = false, in_use = false;
	struct stat st;

	memset(rep, 0, sizeof(*rep));
	if (!ctx->live)
		return -EXDEV;	/* a captured tree says nothing about this machine */
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	blk = S_ISBLK(st.st_mode);
	if (!blk && !S_ISREG(st.st_mode))
		return -ENOTBLK;

	/*
	 * Open first, exclusively for a block device: from here on no new
	 * mount or array can claim it while the caller writes.  A failed open
	 * still gets the checks, so "mounted at /" is said before "permission
	 * denied".
	 */
	fd = open(path, O_RDWR | O_CLOEXEC | flags | (blk ? O_EXCL : 0));
	if (fd < 0) {
		busy = blk && errno == EBUSY;
		open_err = busy ? 0 : -errno;
	}
	ret = blk ? check_block(ctx, path, &st, rep, &probe_err) :
		    check_file(ctx, path, &st, rep, &probe_err);
	if (ret)
		goto out_close_fd;

	for (int i = 0; i < rep->nr; i++)
		if (!rep->findings[i].overridable)
			in_use = true;
	/* EBUSY alone is worth a finding; beside a mount it only repeats it. */
	if (busy && !in_use) {
		add_finding(rep, BQ_GUARD_BUSY, "opened exclusively by another program");
		in_use = true;
	}
	ret = in_use ? -EBUSY : open_err ? open_err : probe_err;
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
