// SPDX-License-Identifier: GPL-2.0-only
/*
 * raid_plan.c - the commands for md RAID0 + XFS, and what they will give
 *
 * The XFS geometry is not guessed: mkfs.xfs -N is asked what it would do
 * for an array of that size (it writes nothing; its file= form is pointed
 * at a name in a temp dir, which it only creates empty).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "blkqual_raid.h"
#include "raid_plan.h"

/* mkfs.xfs keeps the log stripe unit at or below 256 KiB; above, it uses 32 KiB. */
#define XFS_MAX_LOG_SU (256u << 10)
#define XFS_FALLBACK_LOG_SU (32u << 10)

void plan_cmd_add(struct plan_cmd *c, const char *fmt, ...)
{
	va_list ap;

	if (c->argc >= PLAN_MAX_ARGS - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(c->buf[c->argc], sizeof(c->buf[c->argc]), fmt, ap);
	va_end(ap);
	c->argv[c->argc] = c->buf[c->argc];
	c->argv[++c->argc] = NULL;
}

/* "256k", "1m": how mdadm and mkfs.xfs like sizes spelled. */
static void kib(char *buf, size_t len, uint64_t bytes)
{
	if (!(bytes % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", bytes >> 20);
	else
		snprintf(buf, len, "%" PRIu64 "k", bytes >> 10);
}

static unsigned int field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? (unsigned int)strtoul(p + strlen(key), NULL, 10) : 0;
}

static void xfs_preview(struct raid_plan *p)
{
	char dir[] = "/tmp/blkqual-plan.XXXXXX", file[64], d[160], l[32], su[32], text[4096];
	const char *argv[8] = { "mkfs.xfs", "-N", "-d", d, "-l", l, NULL };
	char *line;

	if (!mkdtemp(dir))
		return;
	snprintf(file, sizeof(file), "%s/array", dir);
	kib(su, sizeof(su), p->chunk);
	snprintf(d, sizeof(d), "file=1,name=%s,size=%" PRIu64 ",su=%s,sw=%d", file,
		 p->array_bytes, su, p->nr);
	snprintf(l, sizeof(l), "su=%" PRIu64, p->log_su);
	if (!run_capture(argv, text, sizeof(text))) {
		p->xfs.valid = true;
		p->xfs.agcount = field(text, "agcount=");
		p->xfs.block_size = field(text, "bsize=");
		p->xfs.sunit_blocks = field(text, "sunit=");
		p->xfs.swidth_blocks = field(text, "swidth=");
		line = strstr(text, "\nlog ");
		p->xfs.log_sunit_blocks = line ? field(line, "sunit=") : 0;
	} else {
		/* mkfs.xfs says why (too small, bad stripe unit): keep its first line. */
		snprintf(p->xfs.note, sizeof(p->xfs.note), "%.*s", (int)strcspn(text, "\n"), text);
	}
	unlink(file);
	rmdir(dir);
}

/**
 * raid_plan_make() - fill in commands and geometry from members and chunk
 * @p: the plan, with members, sizes, chunk, md, mountpoint and layout set
 *
 * Return: 0, or -EINVAL with nothing computed.
 */
int raid_plan_make(struct raid_plan *p)
{
	static const uint64_t logbsizes[] = { 256u << 10, 128u << 10, 64u << 10, 32u << 10 };
	static const char *const logbsize_names[] = { "256k", "128k", "64k", "32k" };
	uint64_t sectors[PLAN_MAX_MEMBERS];
	char chunk[32], su[32];
	bool unequal = false;
	struct bq_raid0 r;

	if (p->nr < 2 || p->nr > PLAN_MAX_MEMBERS || !p->chunk || p->chunk % 4096)
		return -EINVAL;
	for (int i = 0; i < p->nr; i++) {
		if (p->member_bytes[i] < p->chunk)
			return -EINVAL;
		if (p->member_bytes[i] / p->chunk != p->member_bytes[0] / p->chunk)
			unequal = true;
		sectors[i] = p->member_bytes[i] >> 9;
	}
	/* md's own arithmetic (its size rounds oddly for odd chunks): ask the layout library. */
	if (bq_raid0_init(&r, sectors, NULL, p->nr, p->chunk >> 9,
			  unequal ? (p->layout && !strcmp(p->layout, "alternate") ?
				     BQ_RAID0_ALTERNATE : BQ_RAID0_ORIGINAL) : BQ_RAID0_UNSET))
		return -EINVAL;
	p->array_bytes = bq_raid0_size(&r) << 9;
	/* The layout only matters from a second zone on, i.e. with unequal members. */
	if (!unequal)
		p->layout = NULL;
	else if (!p->layout)
		p->layout = "original";
	p->io_min = p->chunk;
	p->io_opt = p->chunk * (uint64_t)p->nr;
	p->log_su = p->chunk <= XFS_MAX_LOG_SU ? p->chunk : XFS_FALLBACK_LOG_SU;
	p->logbsize = NULL;
	for (size_t i = 0; i < ARRAY_LEN(logbsizes); i++)
		if (!(logbsizes[i] % p->log_su)) {
			p->logbsize = logbsize_names[i];
			break;
		}

	kib(chunk, sizeof(chunk), p->chunk);
	memset(&p->mdadm, 0, sizeof(p->mdadm));
	plan_cmd_add(&p->mdadm, "mdadm");
	plan_cmd_add(&p->mdadm, "--create");
	plan_cmd_add(&p->mdadm, "%s", p->md);
	plan_cmd_add(&p->mdadm, "--run");
	plan_cmd_add(&p->mdadm, "--level=0");
	plan_cmd_add(&p->mdadm, "--chunk=%" PRIu64 "K", p->chunk >> 10);
	plan_cmd_add(&p->mdadm, "--metadata=1.2");
	if (p->layout)
		plan_cmd_add(&p->mdadm, "--layout=%s", p->layout);
	plan_cmd_add(&p->mdadm, "--raid-devices=%d", p->nr);
	for (int i = 0; i < p->nr; i++)
		plan_cmd_add(&p->mdadm, "%s", p->members[i]);

	kib(su, sizeof(su), p->log_su);
	memset(&p->mkfs, 0, sizeof(p->mkfs));
	plan_cmd_add(&p->mkfs, "mkfs.xfs");
	plan_cmd_add(&p->mkfs, "-L");
	plan_cmd_add(&p->mkfs, "blkqual");
	plan_cmd_add(&p->mkfs, "-d");
	plan_cmd_add(&p->mkfs, "su=%s,sw=%d", chunk, p->nr);
	plan_cmd_add(&p->mkfs, "-l");
	plan_cmd_add(&p->mkfs, "su=%s", su);
	plan_cmd_add(&p->mkfs, "%s", p->md);

	memset(&p->mount, 0, sizeof(p->mount));
	plan_cmd_add(&p->mount, "mount");
	plan_cmd_add(&p->mount, "-o");
	if (p->logbsize)
		plan_cmd_add(&p->mount, "noatime,logbsize=%s", p->logbsize);
	else
		plan_cmd_add(&p->mount, "noatime");
	plan_cmd_add(&p->mount, "%s", p->md);
	plan_cmd_add(&p->mount, "%s", p->mountpoint);

	memset(&p->xfs, 0, sizeof(p->xfs));
	xfs_preview(p);
	return 0;
}

/**
 * plan_cmd_print() - a command as one line a user can paste
 * @c: the command
 * @out: receives the line
 * @len: size of @out
 */
void plan_cmd_print(const struct plan_cmd *c, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < c->argc && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", c->argv[i]);
}

static json_object *cmd_json(const struct plan_cmd *c)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < c->argc; i++)
		json_object_array_add(arr, json_object_new_string(c->argv[i]));
	return arr;
}

json_object *raid_plan_json(const struct raid_plan *p)
{
	json_object *o = json_object_new_object(), *members = json_object_new_array();
	json_object *geo = json_object_new_object(), *xfs = json_object_new_object();

	for (int i = 0; i < p->nr; i++) {
		json_object *m = json_object_new_object();

		json_object_object_add(m, "path", json_object_new_string(p->members[i]));
		json_object_object_add(m, "size", json_object_new_uint64(p->member_bytes[i]));
		json_object_array_add(members, m);
	}
	json_object_object_add(o, "members", members);
	json_object_object_add(o, "chunk", json_object_new_uint64(p->chunk));
	json_object_object_add(o, "layout", p->layout ? json_object_new_string(p->layout) : NULL);
	json_object_object_add(o, "md", json_object_new_string(p->md));
	json_object_object_add(o, "mountpoint", json_object_new_string(p->mountpoint));
	json_object_object_add(geo, "array_bytes_before_metadata",
			       json_object_new_uint64(p->array_bytes));
	json_object_object_add(geo, "minimum_io_size", json_object_new_uint64(p->io_min));
	json_object_object_add(geo, "optimal_io_size", json_object_new_uint64(p->io_opt));
	json_object_object_add(o, "expected_geometry", geo);
	json_object_object_add(xfs, "log_stripe_unit", json_object_new_uint64(p->log_su));
	json_object_object_add(xfs, "logbsize", p->logbsize ?
			       json_object_new_string(p->logbsize) : NULL);
	if (p->xfs.valid) {
		json_object_object_add(xfs, "agcount", json_object_new_int((int)p->xfs.agcount));
		json_object_object_add(xfs, "block_size", json_object_new_int((int)p->xfs.block_size));
		json_object_object_add(xfs, "sunit_blocks",
				       json_object_new_int((int)p->xfs.sunit_blocks));
		json_object_object_add(xfs, "swidth_blocks",
				       json_object_new_int((int)p->xfs.swidth_blocks));
		json_object_object_add(xfs, "log_sunit_blocks",
				       json_object_new_int((int)p->xfs.log_sunit_blocks));
	} else {
		json_object_object_add(xfs, "mkfs_says", json_object_new_string(p->xfs.note));
	}
	json_object_object_add(o, "xfs", xfs);
	json_object_object_add(o, "mdadm", cmd_json(&p->mdadm));
	json_object_object_add(o, "mkfs", cmd_json(&p->mkfs));
	json_object_object_add(o, "mount", cmd_json(&p->mount));
	return o;
}

/**
 * xfs_geometry() - block size, sunit and swidth of a mounted XFS, as xfs_info
 * reports them (xfs_info is a script around xfs_spaceman that also needs
 * findmnt; the mount point is known, so xfs_spaceman is asked directly)
 * @dir: its mount point
 * @bsize: receives the block size in bytes
 * @sunit: receives the stripe unit in blocks
 * @swidth: receives the stripe width in blocks
 *
 * Return: 0 or -EIO.
 */
int xfs_geometry(const char *dir, unsigned int *bsize, unsigned int *sunit,
		 unsigned int *swidth)
{
	const char *argv[] = { "xfs_spaceman", "-p", "xfs_info", "-c", "info", dir, NULL };
	char text[4096], *data, *b;

	if (run_capture(argv, text, sizeof(text)))
		return -EIO;
	data = strstr(text, "\ndata");
	b = data ? strstr(data, "bsize=") : NULL;
	if (!b || sscanf(b, "bsize=%u", bsize) != 1)
		return -EIO;
	data = strstr(data, "sunit=");
	if (!data || sscanf(data, "sunit=%u swidth=%u", sunit, swidth) != 2)
		return -EIO;
	return 0;
}

/* md is there, or can be loaded: /proc/mdstat appears with the driver. */
bool raid_have_md(char *why, size_t len)
{
	const char *argv[] = { "modprobe", "md_mod", NULL };
	char out[512];
	int ret;

	if (!access("/proc/mdstat", F_OK))
		return true;
	ret = run_capture(argv, out, sizeof(out));
	if (!access("/proc/mdstat", F_OK))
		return true;
	snprintf(why, len, "no /proc/mdstat, and 'modprobe md_mod' %s%.*s",
		 ret < 0 ? "could not run: " : "failed: ", (int)strcspn(out, "\n"),
		 ret < 0 ? strerror(-ret) : out);
	return false;
}

/* Take a planned array down again: unmount, stop, zero the members. */
void raid_plan_undo(const struct raid_plan *p)
{
	struct plan_cmd stop = { 0 }, zero = { 0 };
	char out[1024];
	int fd;

	umount2(p->mountpoint, 0);
	/* The default mount point is raid create's own; an empty one goes with it. */
	if (!strncmp(p->mountpoint, "/mnt/blkqual-", 13))
		rmdir(p->mountpoint);
	/* A new array over the same members would show this filesystem again. */
	fd = open(p->md, O_RDWR | O_EXCL | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		bq_wipe_signatures(fd);
		close(fd);
	}
	plan_cmd_add(&stop, "mdadm");
	plan_cmd_add(&stop, "--stop");
	plan_cmd_add(&stop, "%s", p->md);
	plan_cmd_add(&zero, "mdadm");
	plan_cmd_add(&zero, "--zero-superblock");
	for (int i = 0; i < p->nr; i++)
		plan_cmd_add(&zero, "%s", p->members[i]);
	if (!run_capture(stop.argv, out, sizeof(out)))
		run_capture(zero.argv, out, sizeof(out));
}

