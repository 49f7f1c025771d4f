/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * block_trace_maps.h - private: the layout of the maps that
 * block_trace.bpf.c fills in the kernel and block_trace.c reads, shared
 * by the BPF program and the library, so both index them alike.
 */
#ifndef BLKQUAL_BLOCK_TRACE_MAPS_H
#define BLKQUAL_BLOCK_TRACE_MAPS_H

/* Devices followed at once: a job's targets, or an md array's members. */
#define BT_MAX_DEVS		16
#define BT_DIRS			2	/* read, write */
#define BT_STAGES		2	/* queue, device */
#define BT_SLOTS		(BT_MAX_DEVS * BT_DIRS * BT_STAGES)
/* The completion map and hardware queues shown; higher ones are counted in the last. */
#define BT_MAX_CPUS		64
#define BT_MAX_HCTX		64
/* Requests in flight at once across the followed devices. */
#define BT_MAX_INFLIGHT		65536

/* blkqual's own latency buckets (blkqual_histogram.h, checked in block_trace.c). */
#define BT_HIST_SUB_BITS	7
#define BT_HIST_MAX_LOG2	43
#define BT_HIST_BUCKETS		(((BT_HIST_MAX_LOG2 - BT_HIST_SUB_BITS + 1) << BT_HIST_SUB_BITS) + \
				 (1 << BT_HIST_SUB_BITS))

enum bt_stage { BT_QUEUE, BT_DEVICE };
enum bt_count { BT_COUNT_MERGE, BT_COUNT_SPLIT, BT_COUNT_REQUEUE };

/* A histogram slot: which device, direction and stage. */
#define BT_SLOT(dev, dir, stage)	(((dev) * BT_DIRS + (dir)) * BT_STAGES + (stage))

/**
 * struct bt_sum - count and total of one slot, for the mean
 * @count: requests
 * @sum_ns: their total time in the stage
 */
struct bt_sum {
	__u64 count;
	__u64 sum_ns;
};

/**
 * struct bt_dev - what is counted per followed device
 * @other: completed requests that neither read nor write (flush, discard)
 * @merges: bios merged into a request already queued, and requests
 *	merged into another (the device's diskstats merges)
 * @splits: bios split to fit the queue's limits
 * @requeues: requests sent back to the queue by the driver
 * @no_start: requests without a start time (queue statistics off): no
 *	queue stage for them
 * @untracked: issues that found the in-flight table full
 * @hctx: requests per hardware queue
 */
struct bt_dev {
	__u64 other;
	__u64 merges;
	__u64 splits;
	__u64 no_start;
	__u64 untracked;
	__u64 requeues;
	__u64 hctx[BT_MAX_HCTX];
};

#endif /* BLKQUAL_BLOCK_TRACE_MAPS_H */
