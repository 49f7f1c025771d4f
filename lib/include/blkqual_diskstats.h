/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_diskstats.h - a block device's own counters
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_DISKSTATS_H
#define BLKQUAL_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_job.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_verify_report;

/* ---- device counters --------------------------------------------------- */

/**
 * struct bq_diskstats - a block device's own counters (sysfs "stat")
 */
struct bq_diskstats {
	uint64_t ios[BQ_NR_DIRS];
	uint64_t merges[BQ_NR_DIRS];
	uint64_t sectors[BQ_NR_DIRS];
	uint64_t ticks_ms[BQ_NR_DIRS];
	uint64_t in_flight;
	uint64_t io_ticks_ms;
	uint64_t time_in_queue_ms;
	uint64_t discards;
	uint64_t flushes;
};

/**
 * bq_diskstats_read() - read /sys/block/NAME/stat (same as /proc/diskstats)
 * @ctx: context
 * @name: kernel name (a partition works too)
 * @st: filled in
 *
 * Return: 0 or -errno.
 */
int bq_diskstats_read(struct bq_ctx *ctx, const char *name, struct bq_diskstats *st);

/**
 * bq_diskstats_util() - how busy the device was, as iostat's %util
 * @delta: counters over a window
 * @window_ns: the window's length
 *
 * io_ticks over the time the counters were read apart (not a job's
 * runtime, which may be shorter than the window), at most 100: io_ticks
 * advance in whole jiffies, so a window of a few milliseconds can see one
 * more than it lasted.
 *
 * Return: percent, 0 for an empty window.
 */
double bq_diskstats_util(const struct bq_diskstats *delta, uint64_t window_ns);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_DISKSTATS_H */
