// SPDX-License-Identifier: GPL-2.0-only
/*
 * block_trace.bpf.c - the block layer's view of the followed devices'
 * requests, aggregated in the kernel: per device and direction, a
 * histogram of the time queued (the request's start to its issue to the
 * driver) and of the time in the device (issue to completion); where
 * completions ran against the CPU that submitted; merges, splits and
 * hardware queues.
 *
 * BTF tracepoints (tp_btf): no tracefs mount needed, and the request is
 * read through CO-RE relocations against the running kernel's BTF.  The
 * few kernel types used are declared here with preserve_access_index, so
 * building needs no vmlinux.h from the build machine's kernel.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "block_trace_maps.h"

typedef __u64 u64;
typedef __u32 u32;
typedef __u32 dev_t;

struct gendisk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

struct blk_mq_ctx {
	unsigned int cpu;
} __attribute__((preserve_access_index));

struct blk_mq_hw_ctx {
	unsigned int queue_num;
} __attribute__((preserve_access_index));

struct request {
	struct request_queue *q;
	struct blk_mq_ctx *mq_ctx;
	struct blk_mq_hw_ctx *mq_hctx;
	unsigned int cmd_flags;
	u64 start_time_ns;
} __attribute__((preserve_access_index));

struct block_device {
	struct gendisk *bd_disk;
} __attribute__((preserve_access_index));

struct bio {
	struct block_device *bi_bdev;
} __attribute__((preserve_access_index));

#define REQ_OP_MASK	0xff
#define REQ_OP_READ	0
#define REQ_OP_WRITE	1
/* The kernel's dev_t: 12 bits of major above 20 of minor. */
#define MKDEV(ma, mi)	(((u32)(ma) << 20) | (u32)(mi))

char LICENSE[] SEC("license") = "GPL";

/*
 * Device number -> its index, filled in before the programs are attached.
 * The arrays below are mapped by user space, which reads them without a
 * system call per element.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BT_MAX_DEVS);
	__type(key, u32);
	__type(value, u32);
} devs SEC(".maps");

/* Issue time and slot of each request in flight; requeued until issued again. */
struct inflight {
	u64 issue_ns;
	u32 slot;
	u32 submit_cpu;
	u32 requeued;
	u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BT_MAX_INFLIGHT);
	__type(key, u64);
	__type(value, struct inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, BT_SLOTS * BT_HIST_BUCKETS);
	__type(key, u32);
	__type(value, u64);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, BT_SLOTS);
	__type(key, u32);
	__type(value, struct bt_sum);
} sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, BT_MAX_DEVS);
	__type(key, u32);
	__type(value, struct bt_dev);
} devstat SEC(".maps");

/* Completions by [submitting CPU][completing CPU]. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, BT_MAX_CPUS * BT_MAX_CPUS);
	__type(key, u32);
	__type(value, u64);
} cpus SEC(".maps");

static __always_inline int dev_slot(u32 devt, u32 *slot)
{
	u32 *s = bpf_map_lookup_elem(&devs, &devt);

	if (!s)
		return -1;
	*slot = *s;
	return 0;
}

/*
 * Requests belong to the whole disk, whichever partition their bios
 * came through: devices are followed by their disk's number.
 */
static __always_inline int disk_dev(struct gendisk *disk, u32 *dev)
{
	if (!disk)
		return -1;
	return dev_slot(MKDEV(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor)), dev);
}

static __always_inline int rq_dev(struct request *rq, u32 *dev)
{
	return disk_dev(BPF_CORE_READ(rq, q, disk), dev);
}

/* Highest set bit of @ns (at least 1 << BT_HIST_SUB_BITS): BPF has no clz. */
static __always_inline u32 ilog2_u64(u64 ns)
{
	u32 log2 = 0;

	if (ns >> 32) { log2 += 32; ns >>= 32; }
	if (ns >> 16) { log2 += 16; ns >>= 16; }
	if (ns >> 8) { log2 += 8; ns >>= 8; }
	if (ns >> 4) { log2 += 4; ns >>= 4; }
	if (ns >> 2) { log2 += 2; ns >>= 2; }
	if (ns >> 1)
		log2 += 1;
	return log2;
}

/* One request's time in a stage, in the bucket bq_hist_index() would pick. */
static __always_inline void record(u32 slot, u64 ns)
{
	u32 log2, shift, idx;
	struct bt_sum *s;
	u64 *b;

	if (ns < (1u << BT_HIST_SUB_BITS)) {
		idx = (u32)ns;
	} else {
		log2 = ilog2_u64(ns);
		if (log2 > BT_HIST_MAX_LOG2) {
			idx = BT_HIST_BUCKETS - 1;
		} else {
			shift = log2 - BT_HIST_SUB_BITS;
			idx = ((shift + 1) << BT_HIST_SUB_BITS) +
			      (u32)((ns >> shift) & ((1u << BT_HIST_SUB_BITS) - 1));
		}
	}
	idx += slot * BT_HIST_BUCKETS;
	b = bpf_map_lookup_elem(&hist, &idx);
	if (b)
		__sync_fetch_and_add(b, 1);
	s = bpf_map_lookup_elem(&sums, &slot);
	if (s) {
		__sync_fetch_and_add(&s->count, 1);
		__sync_fetch_and_add(&s->sum_ns, ns);
	}
}

static __always_inline struct bt_dev *dev_counters(u32 dev)
{
	return bpf_map_lookup_elem(&devstat, &dev);
}

/*
 * A request issued again after a requeue already has its entry (the
 * requeue marked it): its queued stage was counted the first time.  The
 * first issue inserts, so the common case costs one map operation, as it
 * did before requeues were followed; only a failed insert looks further.
 */
static __always_inline int issued_again(u64 key, const struct inflight *f, struct bt_dev *d)
{
	struct inflight *again;

	if (!bpf_map_update_elem(&inflight, &key, f, BPF_NOEXIST))
		return 0;
	again = bpf_map_lookup_elem(&inflight, &key);
	if (again && again->requeued) {
		again->issue_ns = f->issue_ns;
		again->requeued = 0;
		return 1;
	}
	/* A stale entry is replaced; a full table leaves the request untracked. */
	if (bpf_map_update_elem(&inflight, &key, f, BPF_ANY))
		__sync_fetch_and_add(&d->untracked, 1);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	u32 dev, op = BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK, hq;
	struct inflight f = { .issue_ns = bpf_ktime_get_ns() };
	u64 key = (u64)rq, start;
	struct bt_dev *d;

	if (rq_dev(rq, &dev))
		return 0;
	d = dev_counters(dev);
	if (!d)
		return 0;
	hq = BPF_CORE_READ(rq, mq_hctx, queue_num);
	hq = hq < BT_MAX_HCTX ? hq : BT_MAX_HCTX - 1;
	if (op != REQ_OP_READ && op != REQ_OP_WRITE) {
		__sync_fetch_and_add(&d->hctx[hq], 1);
		__sync_fetch_and_add(&d->other, 1);
		return 0;
	}
	f.slot = BT_SLOT(dev, op, 0);
	f.submit_cpu = BPF_CORE_READ(rq, mq_ctx, cpu);
	if (issued_again(key, &f, d))
		return 0;
	__sync_fetch_and_add(&d->hctx[hq], 1);
	start = BPF_CORE_READ(rq, start_time_ns);
	if (start && start <= f.issue_ns)
		record(f.slot + BT_QUEUE, f.issue_ns - start);
	else
		__sync_fetch_and_add(&d->no_start, 1);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
	u64 key = (u64)rq, now = bpf_ktime_get_ns();
	struct inflight *f = bpf_map_lookup_elem(&inflight, &key);
	u32 cpu = bpf_get_smp_processor_id(), sub, idx;
	u64 *c;

	if (!f)
		return 0;
	record(f->slot + BT_DEVICE, now - f->issue_ns);
	sub = f->submit_cpu < BT_MAX_CPUS ? f->submit_cpu : BT_MAX_CPUS - 1;
	idx = sub * BT_MAX_CPUS + (cpu < BT_MAX_CPUS ? cpu : BT_MAX_CPUS - 1);
	c = bpf_map_lookup_elem(&cpus, &idx);
	if (c)
		__sync_fetch_and_add(c, 1);
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

static __always_inline void count_in(u32 dev, int what)
{
	struct bt_dev *d = dev_counters(dev);

	if (!d)
		return;
	if (what == BT_COUNT_MERGE)
		__sync_fetch_and_add(&d->merges, 1);
	else if (what == BT_COUNT_SPLIT)
		__sync_fetch_and_add(&d->splits, 1);
	else
		__sync_fetch_and_add(&d->requeues, 1);
}

static __always_inline void count_bio(struct bio *bio, int what)
{
	u32 dev;

	if (!disk_dev(BPF_CORE_READ(bio, bi_bdev, bd_disk), &dev))
		count_in(dev, what);
}

/* A request merged into another, as the device's diskstats count it. */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(rq_merge, struct request *rq)
{
	u32 dev;

	if (!rq_dev(rq, &dev))
		count_in(dev, BT_COUNT_MERGE);
	return 0;
}

/* Back to the queue: its device time so far is dropped, and it is issued again. */
SEC("tp_btf/block_rq_requeue")
int BPF_PROG(rq_requeue, struct request *rq)
{
	u64 key = (u64)rq;
	struct inflight *f = bpf_map_lookup_elem(&inflight, &key);
	u32 dev;

	if (f)
		f->requeued = 1;
	if (!rq_dev(rq, &dev))
		count_in(dev, BT_COUNT_REQUEUE);
	return 0;
}

SEC("tp_btf/block_bio_backmerge")
int BPF_PROG(bio_backmerge, struct bio *bio)
{
	count_bio(bio, BT_COUNT_MERGE);
	return 0;
}

SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(bio_frontmerge, struct bio *bio)
{
	count_bio(bio, BT_COUNT_MERGE);
	return 0;
}

SEC("tp_btf/block_split")
int BPF_PROG(bio_split, struct bio *bio, unsigned int new_sector)
{
	count_bio(bio, BT_COUNT_SPLIT);
	return 0;
}
