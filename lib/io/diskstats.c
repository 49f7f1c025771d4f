// SPDX-License-Identifier: GPL-2.0-only
/*
 * diskstats.c - a block device's own counters, before and after a run
 *
 * What the device says it did is the check on what blkqual measured: a
 * run that counted a million reads on a disk whose counters moved by ten
 * thousand was served from a cache.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "blkqual_io.h"

/*
 * Linux 4.18 added four discard fields to the original eleven, 5.5 two
 * flush fields; whatever a later kernel appends is ignored.
 */
#define STAT_MIN_FIELDS 11
#define STAT_MAX_FIELDS 17

enum {
	F_READ_IOS,
	F_READ_MERGES,
	F_READ_SECTORS,
	F_READ_TICKS,
	F_WRITE_IOS,
	F_WRITE_MERGES,
	F_WRITE_SECTORS,
	F_WRITE_TICKS,
	F_IN_FLIGHT,
	F_IO_TICKS,
	F_TIME_IN_QUEUE,
	F_DISCARD_IOS,
	F_DISCARD_MERGES,
	F_DISCARD_SECTORS,
	F_DISCARD_TICKS,
	F_FLUSH_IOS,
	F_FLUSH_TICKS,
};

static int parse_fields(const char *s, uint64_t *f, int max)
{
	int n = 0;

	for (;;) {
		char *end;
		uint64_t v;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			return n;
		/* strtoull() would take a sign or "0x"; the kernel prints neither. */
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno)
			return -EINVAL;
		if (*end && *end != ' ' && *end != '\t' && *end != '\n')
			return -EINVAL;
		if (n < max)
			f[n] = v;
		n++;
		s = end;
	}
}

/**
 * bq_diskstats_read() - read a block device's counters from sysfs
 * @ctx: context
 * @name: kernel name ("nvme0n1", or a partition such as "nvme0n1p1")
 * @st: filled in; fields an older kernel does not print are 0
 *
 * class/block lists partitions as well as disks, so both work.
 *
 * Return: 0; -EINVAL for a name that is not a plain kernel name or a
 * file with fewer than 11 numbers; -ENOENT when there is no such device;
 * or another -errno.
 */
int bq_diskstats_read(struct bq_ctx *ctx, const char *name, struct bq_diskstats *st)
{
	uint64_t f[STAT_MAX_FIELDS] = { 0 };
	char path[PATH_MAX], buf[1024];
	int n, ret;

	/* The name is a path component; keep it from climbing out of sysfs. */
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	ret = bq_path(path, sizeof(path), ctx->sysfs, "/class/block/%s/stat", name);
	if (ret)
		return ret;
	ret = bq_read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	n = parse_fields(buf, f, STAT_MAX_FIELDS);
	if (n < 0)
		return n;
	if (n < STAT_MIN_FIELDS)
		return -EINVAL;

	memset(st, 0, sizeof(*st));
	st->ios[BQ_READ] = f[F_READ_IOS];
	st->merges[BQ_READ] = f[F_READ_MERGES];
	st->sectors[BQ_READ] = f[F_READ_SECTORS];
	st->ticks_ms[BQ_READ] = f[F_READ_TICKS];
	st->ios[BQ_WRITE] = f[F_WRITE_IOS];
	st->merges[BQ_WRITE] = f[F_WRITE_MERGES];
	st->sectors[BQ_WRITE] = f[F_WRITE_SECTORS];
	st->ticks_ms[BQ_WRITE] = f[F_WRITE_TICKS];
	st->in_flight = f[F_IN_FLIGHT];
	st->io_ticks_ms = f[F_IO_TICKS];
	st->time_in_queue_ms = f[F_TIME_IN_QUEUE];
	st->discards = f[F_DISCARD_IOS];
	st->flushes = f[F_FLUSH_IOS];
	return 0;
}

/*
 * The kernel prints the tick fields as unsigned int, and a 32-bit kernel
 * every field: a counter below 2^32 that went backwards has wrapped.  A
 * 64-bit counter does not wrap in a run's lifetime; one that went
 * backwards belongs to a device that was removed and added again, whose
 * counters started over.
 */
static uint64_t counter_delta(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before;
	if (before <= UINT32_MAX)
		return (uint32_t)(after - before);
	return after;
}

/**
 * bq_diskstats_delta() - what a device did between two samples
 * @before: earlier sample
 * @after: later sample
 * @delta: receives @after minus @before field by field; in_flight, a
 *         level rather than a count, is @after's
 *
 * @delta may be the same object as @before or @after.
 */
double bq_diskstats_util(const struct bq_diskstats *delta, uint64_t window_ns)
{
	double pct;

	if (!window_ns)
		return 0;
	pct = 100.0 * (double)delta->io_ticks_ms * 1e6 / (double)window_ns;
	return pct > 100 ? 100 : pct;
}

void bq_diskstats_delta(const struct bq_diskstats *before, const struct bq_diskstats *after,
			struct bq_diskstats *delta)
{
	struct bq_diskstats d;

	for (int dir = 0; dir < BQ_NR_DIRS; dir++) {
		d.ios[dir] = counter_delta(before->ios[dir], after->ios[dir]);
		d.merges[dir] = counter_delta(before->merges[dir], after->merges[dir]);
		d.sectors[dir] = counter_delta(before->sectors[dir], after->sectors[dir]);
		d.ticks_ms[dir] = counter_delta(before->ticks_ms[dir], after->ticks_ms[dir]);
	}
	d.in_flight = after->in_flight;
	d.io_ticks_ms = counter_delta(before->io_ticks_ms, after->io_ticks_ms);
	d.time_in_queue_ms = counter_delta(before->time_in_queue_ms, after->time_in_queue_ms);
	d.discards = counter_delta(before->discards, after->discards);
	d.flushes = counter_delta(before->flushes, after->flushes);
	*delta = d;
}
