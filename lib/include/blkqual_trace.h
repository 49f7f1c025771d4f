/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_trace.h - the block layer's view of a run: where each
 * request's time went, from the kernel's block tracepoints through BPF
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_TRACE_H
#define BLKQUAL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blkqual_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Devices one trace follows, and CPUs and hardware queues it tells apart. */
#define BQ_TRACE_MAX_DEVS	16
#define BQ_TRACE_MAX_CPUS	64
#define BQ_TRACE_MAX_HCTX	64

enum bq_trace_stage { BQ_STAGE_QUEUE, BQ_STAGE_DEVICE, BQ_NR_STAGES };

/**
 * struct bq_trace_dev - one device's requests over a window
 * @devt: its number
 * @name: its kernel name
 * @stage: per direction (BQ_READ, BQ_WRITE), the time each request spent
 *	queued (from its start to its issue to the driver) and in the
 *	device (issue to completion), in blkqual's latency buckets; a
 *	stage's count is its requests, its sum the exact total
 * @other: requests that neither read nor write (flushes, discards)
 * @merges: bios merged into a queued request, and requests merged into
 *	another (what the device's diskstats count as merges)
 * @splits: bios split to fit the queue's limits
 * @requeues: requests the driver sent back to the queue (their device
 *	stage starts again at the next issue)
 * @no_start: requests with no start time (the queue keeps no
 *	statistics), so no queue stage
 * @untracked: requests issued when the in-flight table was full
 * @hctx: requests per hardware queue (the last takes any higher one)
 * @numa_node: the device's node, -1 unknown
 * @rq_affinity: its queue's rq_affinity (0, 1 or 2), -1 unknown
 * @member_of: the followed array (md, dm) it is a member of, or empty
 * @irqs: the interrupts of its bus device (MSI/MSI-X), with the CPUs each
 *	is delivered to (/proc/irq/N/effective_affinity_list)
 * @nr_irqs: how many (none for a loop, md or dm device)
 */
struct bq_trace_dev {
	dev_t devt;
	char name[64];
	int numa_node;
	int rq_affinity;
	char member_of[64];
	struct {
		int irq;
		char cpus[32];
	} irqs[BQ_TRACE_MAX_HCTX + 1];
	int nr_irqs;
	struct bq_hist stage[2][BQ_NR_STAGES];
	uint64_t other;
	uint64_t merges;
	uint64_t splits;
	uint64_t no_start;
	uint64_t untracked;
	uint64_t requeues;
	uint64_t hctx[BQ_TRACE_MAX_HCTX];
};

/**
 * struct bq_trace_result - what a trace saw over a window
 * @devs: per followed device
 * @nr_devs: how many
 * @cpus: completions of all followed devices, by [submitting CPU]
 *	[completing CPU] (the last row and column take any higher CPU)
 * @cpu_node: each CPU's NUMA node, -1 unknown
 * @window_ns: how long the window was
 */
struct bq_trace_result {
	struct bq_trace_dev devs[BQ_TRACE_MAX_DEVS];
	int nr_devs;
	uint64_t cpus[BQ_TRACE_MAX_CPUS][BQ_TRACE_MAX_CPUS];
	int cpu_node[BQ_TRACE_MAX_CPUS];
	uint64_t window_ns;
};

/**
 * struct bq_trace_devs - the devices a trace is to follow
 * @devt: their numbers
 * @name: their kernel names
 * @nr: how many
 */
struct bq_trace_devs {
	dev_t devt[BQ_TRACE_MAX_DEVS];
	char name[BQ_TRACE_MAX_DEVS][64];
	int nr;
};

struct bq_ctx;
struct bq_trace;
struct bq_trace_mark;

int bq_trace_devs_add(struct bq_ctx *ctx, struct bq_trace_devs *devs, dev_t devt);
int bq_trace_start(const struct bq_trace_devs *devs, struct bq_trace **out, char *why,
		   size_t len);
void bq_trace_facts(struct bq_ctx *ctx, struct bq_trace_result *r);
int bq_trace_mark(struct bq_trace *t, struct bq_trace_mark **out);
int bq_trace_since(struct bq_trace *t, const struct bq_trace_mark *m,
		   struct bq_trace_result **out);
void bq_trace_mark_free(struct bq_trace_mark *m);
void bq_trace_result_keep(struct bq_trace_result *r, const struct bq_trace_devs *keep);
void bq_trace_result_add(struct bq_trace_result *dst, const struct bq_trace_result *src);
void bq_trace_result_free(struct bq_trace_result *r);
void bq_trace_stop(struct bq_trace *t);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_TRACE_H */
