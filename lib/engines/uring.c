// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring.c - io_uring: registered files and buffers, batched
 * submit-and-wait, DEFER_TASKRUN where the kernel has it, polled or
 * interrupt completions, optional SQPOLL; also the nop engine and NVMe
 * passthrough (io_uring_cmd: URING_CMD on /dev/ngXnY, 128-byte SQEs)
 *
 * One clock read stamps every I/O of a submission batch, and one stamps
 * every completion of a reap round.  With DEFER_TASKRUN (and with IOPOLL)
 * completions are posted inside the same io_uring_enter() that returns to
 * us, so the round's stamp is when they became visible to the tester.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../../raid/raid_int.h"
#include "engines/nvme_dp.h"
#include "job/jobopt.h"
#include "engines/nvme_pi.h"
#include "engines/uring_enter.h"
#include "io/atomic.h"
#include "io/engine.h"
#include "io/target.h"
#include "io/zbd.h"

#if defined(HAVE_IORING_OP_URING_CMD) && defined(HAVE_IORING_SETUP_SQE128) && \
	defined(HAVE_NVME_URING_CMD)
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>
#define HAVE_PASSTHRU 1
#endif

enum uring_kind {
	URING_RW,
	URING_NOP,
	URING_CMD,
};

/*
 * Set in user_data (above the slot index) when a passthrough I/O could not
 * be expressed as a command; it goes in as a NOP and completes as EINVAL.
 */
#define CMD_REJECTED (1ULL << 32)
/* Force Unit Access: command dword 12, bit 30, of an NVMe Read or Write. */
#define NVME_RW_FUA (1u << 30)

struct uring_state {
	struct io_uring ring;
	struct uring_enter enter;
	enum uring_kind kind;
	bool fixed_files;
	bool fixed_bufs;
	uint16_t buf_index_mask;	/* 0: one registered buffer holds every slot's */
	unsigned int batch_wait;
	uint16_t *free_slots;
	unsigned int nr_free;
	pid_t tid;
	uint64_t sqpoll_start;
	struct {
		uint32_t nsid;
		uint32_t lbs;
		bool meta;		/* metadata or PI: see pi_prep() */
		bool pi_host;		/* the host checks the PI reads return */
		struct bq_nvme_pi pi;
		struct bq_nvme_dp *dp;	/* placement directives of its writes, or NULL */
	} ns[BQ_MAX_FILES];		/* per file, for io_uring_cmd */
	bool meta;			/* any file's ns[].meta */
	uint8_t *md;			/* per slot, md_len bytes: separate metadata */
	size_t md_len;
	unsigned int sqes_per_slot;	/* > 1 when a striped I/O is split */
	struct stripe_state *stripe;
	bool ring_up;
	bool plain;			/* plain reads and writes: prep()'s fast path */
	struct iovec *iov;		/* per slot, for nonvectored=0 */
	unsigned int async_every;	/* force_async */
	unsigned int async_count;
	bool fua[BQ_NR_DIRS];		/* readfua, writefua */
	int write_flags;		/* RWF_ATOMIC with atomic=1 */
	/* write_mode=: each write's NVMe command, drawn from 100 shares */
	unsigned int wm_nr;		/* 0: Write; 1: wm[0] for all; else a draw */
	struct {
		uint8_t opcode;
		uint32_t cdw12;		/* FUA, DEAC */
	} wm[100];
	struct bq_offgen *rng;
	/* write_mode=zone_append: bytes per zone; each write goes to its zone's start */
	uint64_t append_zone;
	uint8_t *appended;		/* in a mix, per slot: its write was a Zone Append */
};

static const unsigned int optional_flags[] = {
#ifdef HAVE_IORING_SETUP_DEFER_TASKRUN
	IORING_SETUP_DEFER_TASKRUN,
#endif
#ifdef HAVE_IORING_SETUP_COOP_TASKRUN
	IORING_SETUP_COOP_TASKRUN,
#endif
#ifdef HAVE_IORING_SETUP_SINGLE_ISSUER
	IORING_SETUP_SINGLE_ISSUER,
#endif
};

/* Ask for every helpful flag; drop them one by one while the kernel says EINVAL. */
static int ring_setup(struct bq_worker *w, struct uring_state *u)
{
	unsigned int base = 0, opt = 0, entries = w->depth * u->sqes_per_slot;
	struct io_uring_params p;
	size_t dropped = 0;
	int ret;

	if (w->polled)
		base |= IORING_SETUP_IOPOLL;
#ifdef HAVE_PASSTHRU
	/* An NVMe command fills the 80-byte cmd area; its completion has a 16-byte extra. */
	if (u->kind == URING_CMD)
		base |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
#endif
	if (w->job->sqpoll) {
		base |= IORING_SETUP_SQPOLL;
		if (w->sqpoll_cpu >= 0)
			base |= IORING_SETUP_SQ_AFF;
	}
	for (size_t i = 0; i < ARRAY_SIZE(optional_flags); i++)
		opt |= optional_flags[i];
#ifdef HAVE_IORING_SETUP_DEFER_TASKRUN
	/* DEFER_TASKRUN runs completions in the submitter; SQPOLL has none. */
	if (w->job->sqpoll)
		opt &= ~(unsigned int)IORING_SETUP_DEFER_TASKRUN;
#endif
	for (;;) {
		memset(&p, 0, sizeof(p));
		/*
		 * As many CQEs as SQEs: an SQE completes once, and the slots
		 * bound what is in flight.  The default twice as many cost a
		 * page more per thread (256 KiB at 64 threads).
		 */
		p.flags = base | opt | IORING_SETUP_CQSIZE;
		p.cq_entries = entries;
		p.sq_thread_cpu = w->sqpoll_cpu >= 0 ? (unsigned int)w->sqpoll_cpu : 0;
		p.sq_thread_idle = 1000;
		ret = io_uring_queue_init_params(entries, &u->ring, &p);
		if (ret != -EINVAL || dropped == ARRAY_SIZE(optional_flags))
			break;
		opt &= ~optional_flags[dropped++];
	}
	if (ret)
		return ret;
	w->res->ring_flags = p.flags;
	return 0;
}

/*
 * Registration pins the pages once instead of on every I/O.  One buffer
 * spanning every slot's, where it fits the kernel's 1 GiB per buffer:
 * each I/O then finds the same hot io_mapped_ubuf, where one per slot
 * cost the kernel ~30 ns per I/O more here in cache misses.
 */
static void register_buffers(struct bq_worker *w, struct uring_state *u)
{
	struct iovec one = { .iov_base = w->bufs, .iov_len = w->buf_total }, *iov;

	if (w->buf_total <= (1UL << 30) && !io_uring_register_buffers(&u->ring, &one, 1)) {
		u->fixed_bufs = true;
		u->buf_index_mask = 0;
		return;
	}
	iov = calloc(w->depth, sizeof(*iov));
	if (!iov)
		return;
	for (unsigned int i = 0; i < w->depth; i++) {
		iov[i].iov_base = w->bufs + (size_t)i * w->buf_len;
		iov[i].iov_len = w->buf_len;
	}
	if (!io_uring_register_buffers(&u->ring, iov, w->depth)) {
		u->fixed_bufs = true;
		u->buf_index_mask = UINT16_MAX;
	}
	free(iov);
}

static void register_resources(struct bq_worker *w, struct uring_state *u)
{
	bool registered = false;

#ifdef HAVE_IO_URING_REGISTER_RING_FD
	/* Saves looking the ring's file up on every io_uring_enter(). */
	registered = io_uring_register_ring_fd(&u->ring) == 1;
#endif
	uring_enter_init(&u->enter, &u->ring, registered);
	if (w->job->registerfiles && w->nr_fds &&
	    !io_uring_register_files(&u->ring, w->fds, (unsigned int)w->nr_fds))
		u->fixed_files = true;
	/*
	 * Fixed buffers need IORING_URING_CMD_FIXED (Linux 6.1); commands carry
	 * plain addresses.  nonvectored=0 asks for readv and writev, which
	 * take no fixed buffers.  Nor do atomic writes: Linux 6.18 fails
	 * every RWF_ATOMIC write from a registered buffer with EINVAL.
	 */
	if (w->job->fixedbufs && w->bufs && u->kind != URING_CMD && !u->iov &&
	    !(w->job->atomic && bq_job_writes(w->job)))
		register_buffers(w, u);
}

/*
 * The preparation functions are forced inline: each loop instance
 * (uring_loop_with()) gets its own copy, as the one loop had before.
 */
#define PREP_INLINE static __attribute__((always_inline)) inline

#ifdef HAVE_PASSTHRU
/*
 * A namespace with metadata: the separate buffer, the PRINFO fields, and
 * the PI of a write the host protects (pi_act=0) after its data is final.
 */
static __attribute__((noinline)) void pi_prep(struct uring_state *u, struct nvme_uring_cmd *cmd,
					      const struct bq_slot *s, unsigned int idx,
					      void *buf)
{
	const struct bq_nvme_pi *pi = &u->ns[s->file].pi;
	uint32_t lbs = u->ns[s->file].lbs;
	uint64_t slba = s->offset / lbs;
	uint32_t nlb = s->len / lbs;
	void *md = cmd->data_len && u->md ? u->md + idx * u->md_len : NULL;

	if (cmd->opcode == BQ_NVME_OP_WRITE)
		bq_nvme_pi_generate(pi, buf, md, slba, nlb);
	bq_nvme_pi_cmd(pi, cmd, slba, nlb, md);
}

/*
 * What the host finds wrong in a read's PI, reported as the device would
 * have (NVMe status 0x282 guard, 0x283 application tag, 0x284 reference
 * tag), marked as the host's finding.
 */
static __attribute__((noinline)) int pi_check(struct bq_worker *w, struct uring_state *u,
					      const struct bq_slot *s, unsigned int idx)
{
	const struct bq_nvme_pi *pi = &u->ns[s->file].pi;
	uint32_t lbs = u->ns[s->file].lbs, bad;
	void *buf = w->bufs + (size_t)idx * w->buf_len;
	void *md = u->md ? u->md + idx * u->md_len : NULL;
	int what = bq_nvme_pi_verify(pi, buf, md, s->offset / lbs, s->len / lbs, &bad);

	if (!what)
		return (int)s->len;
	w->sense = BQ_NVME_STATUS_VALID | BQ_NVME_STATUS_HOST | (0x281u + (unsigned int)what);
	return -EIO;
}
#endif

/* nop and io_uring_cmd; returns the SQE's user_data. */
PREP_INLINE uint64_t prep_other(struct uring_state *u, struct io_uring_sqe *sqe,
			   const struct bq_slot *s, unsigned int idx, int fd, void *buf)
{
#ifdef HAVE_PASSTHRU
	if (u->kind == URING_CMD) {
		struct nvme_uring_cmd *cmd = (struct nvme_uring_cmd *)sqe->cmd;

		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
		sqe->cmd_op = NVME_URING_CMD_IO;
		/*
		 * Sizes were checked against the LBA size before the start;
		 * what can still fail is a tail shortened by io_size.  It
		 * must not reach the device, so it completes as a failed NOP.
		 */
		uint8_t op = s->dir == BQ_WRITE ? BQ_NVME_OP_WRITE : BQ_NVME_OP_READ;
		uint32_t flags = u->fua[s->dir] ? NVME_RW_FUA : 0;

		if (s->dir == BQ_WRITE && u->wm_nr) {
			unsigned int i = u->wm_nr == 1 ? 0 : (unsigned int)bq_bounded(u->rng, 100);

			op = u->wm[i].opcode;
			flags = u->wm[i].cdw12;
			if (u->appended)
				u->appended[idx] = op == BQ_NVME_OP_ZONE_APPEND;
		}
		/* A Zone Append names its zone; the device picks the blocks (its write pointer). */
		uint64_t at = op == BQ_NVME_OP_ZONE_APPEND ? s->offset - s->offset % u->append_zone :
			      s->offset;

		if (bq_nvme_io_cmd(cmd, op, u->ns[s->file].nsid, at, s->len,
				   u->ns[s->file].lbs, buf)) {
			io_uring_prep_nop(sqe);
			return idx | CMD_REJECTED;
		}
		cmd->cdw12 |= flags;
		if (__builtin_expect(u->ns[s->file].dp != NULL, 0) && s->dir == BQ_WRITE) {
			struct bq_nvme_dp *dp = u->ns[s->file].dp;

			bq_nvme_dp_cmd(cmd, dp->dtype, bq_nvme_dp_pick(dp, s->offset));
		}
		if (__builtin_expect(u->meta, 0) && u->ns[s->file].meta)
			pi_prep(u, cmd, s, idx, buf);
		/* Write Zeroes, Uncorrectable and Verify carry no buffer, vectored or not. */
		if (u->iov && cmd->data_len) {
			/* The vectored command's address is an iovec array, its length a count. */
			u->iov[idx] = (struct iovec){ .iov_base = buf, .iov_len = s->len };
			sqe->cmd_op = NVME_URING_CMD_IO_VEC;
			cmd->addr = (uint64_t)(uintptr_t)&u->iov[idx];
			cmd->data_len = 1;
		}
		if (u->fixed_files)
			sqe->flags |= IOSQE_FIXED_FILE;
		return idx;
	}
#endif
	io_uring_prep_nop(sqe);
	return idx;
}

/* readv and writev of one iovec: what fio's nonvectored=0 issues. */
PREP_INLINE void prep_vectored(struct uring_state *u, struct io_uring_sqe *sqe,
			  const struct bq_slot *s, unsigned int idx, int fd, void *buf)
{
	struct iovec *iov = &u->iov[idx];

	*iov = (struct iovec){ .iov_base = buf, .iov_len = s->len };
	if (s->dir == BQ_READ)
		io_uring_prep_readv(sqe, fd, iov, 1, s->offset);
	else
		io_uring_prep_writev(sqe, fd, iov, 1, s->offset);
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = idx;
}

static void prep_rw(struct uring_state *u, struct io_uring_sqe *sqe, const struct bq_slot *s,
		    unsigned int idx, int fd, void *buf);

/* Everything but plain reads and writes: nop, commands, readv, force_async. */
PREP_INLINE void prep_special(struct uring_state *u, struct io_uring_sqe *sqe,
			 const struct bq_slot *s, unsigned int idx, int fd, void *buf)
{
	if (u->kind != URING_RW)
		sqe->user_data = prep_other(u, sqe, s, idx, fd, buf);
	else if (u->iov)
		prep_vectored(u, sqe, s, idx, fd, buf);
	else
		prep_rw(u, sqe, s, idx, fd, buf);
	if (u->kind == URING_RW && s->dir == BQ_WRITE)
		sqe->rw_flags |= u->write_flags;
	/* fio's force_async=N: every Nth I/O goes to io_uring's worker threads. */
	if (u->async_every && ++u->async_count == u->async_every) {
		u->async_count = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

PREP_INLINE void prep(struct bq_worker *w, struct uring_state *u, struct io_uring_sqe *sqe,
		  const struct bq_slot *s, unsigned int idx)
{
	int fd = u->fixed_files ? s->file : w->fds[s->file];
	void *buf = w->bufs + (size_t)idx * w->buf_len;

	if (__builtin_expect(!u->plain, 0))
		prep_special(u, sqe, s, idx, fd, buf);
	else
		prep_rw(u, sqe, s, idx, fd, buf);
}

static inline void prep_rw(struct uring_state *u, struct io_uring_sqe *sqe,
			   const struct bq_slot *s, unsigned int idx, int fd, void *buf)
{
	if (s->dir == BQ_READ) {
		if (u->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, s->len, s->offset,
						 (int)(idx & u->buf_index_mask));
		else
			io_uring_prep_read(sqe, fd, buf, s->len, s->offset);
	} else {
		if (u->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, s->len, s->offset,
						  (int)(idx & u->buf_index_mask));
		else
			io_uring_prep_write(sqe, fd, buf, s->len, s->offset);
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = idx;
}

/*
 * nop and io_uring_cmd complete with 0 on success; a passthrough command
 * the device failed completes with its (positive) NVMe status, which the
 * error report keeps.
 */
static inline int other_res(struct bq_worker *w, struct uring_state *u,
			    const struct io_uring_cqe *cqe, const struct bq_slot *s)
{
	int res = cqe->res;

	if (cqe->user_data & CMD_REJECTED)
		return -EINVAL;
	w->sense = res > 0 && u->kind == URING_CMD ?
		   BQ_NVME_STATUS_VALID | ((unsigned int)res & 0x7ff) : 0;
	if (res)
		return res > 0 ? -EIO : res;
#ifdef HAVE_PASSTHRU
	/*
	 * A Zone Append's completion holds the first block written.  One I/O
	 * at a time per zone (zonemode=zbd), so it is the write pointer the
	 * write was counted at, where verify reads it back; anywhere else,
	 * the zone was not as reported, and the write failed.
	 */
	if (u->append_zone && s->dir == BQ_WRITE &&
	    (!u->appended || u->appended[(unsigned int)cqe->user_data]) &&
	    cqe->big_cqe[0] * u->ns[s->file].lbs != s->offset)
		return -EIO;
	if (__builtin_expect(u->meta, 0) && s->dir == BQ_READ && u->ns[s->file].pi_host)
		return pi_check(w, u, s, (unsigned int)cqe->user_data);
#endif
	return (int)s->len;
}

/* CPU time of this ring's SQPOLL kernel thread, "iou-sqp-<tid>". */
static uint64_t sqpoll_cpu_ns(pid_t tid)
{
	char want[32], path[320], comm[32];
	uint64_t total = 0, usr, sys;
	struct dirent *de;
	DIR *d;

	snprintf(want, sizeof(want), "iou-sqp-%d", tid);
	d = opendir("/proc/self/task");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		if (bq_read_str(path, comm, sizeof(comm)) || strcmp(comm, want))
			continue;
		if (!bq_task_cpu(atoi(de->d_name), &usr, &sys))
			total += usr + sys;
	}
	closedir(d);
	return total;
}

/*
 * serialize_overlap: the I/O held back goes first once nothing in flight
 * overlaps it.  It was picked, and taken off the free list, in an earlier
 * round, so it is stamped on its own.
 */
static bool queue_held(struct bq_worker *w, struct uring_state *u)
{
	struct bq_slot *s = &w->slots[w->q.held];
	struct io_uring_sqe *sqe;

	if (bq_queue_overlaps(w, s))
		return false;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return false;
	prep(w, u, sqe, s, (unsigned int)w->q.held);
	if (w->q.cmdprio)
		sqe->ioprio = bq_cmdprio_of(w, s);
	slot_issued(s, worker_now(w));
	w->q.held = -1;
	return true;
}

/*
 * After each I/O queued under fio's rules: iodepth_batch_submit submits
 * every batch as soon as it is complete, and a queue that became full
 * starts draining to iodepth_low.
 */
static int queue_rules_after(struct bq_worker *w, struct uring_state *u, unsigned int unsent,
			     unsigned int *free_before, uint64_t now, unsigned int inflight)
{
	struct bq_queue *q = &w->q;

	if (inflight == w->depth)
		q->draining = q->low < w->depth;
	if (q->submit && unsent == q->submit) {
		int ret;

		slots_stamp_batch(w, u->free_slots, u->nr_free, *free_before, now);
		*free_before = u->nr_free;
		ret = io_uring_submit(&u->ring);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return ret;
	}
	return 0;
}

static int uring_loop(struct bq_worker *w, struct uring_state *u)
{
	struct worker_lat_run run = { .n = 0 };
	bool issuing = true, stamps = !w->job->gtod_reduce;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);

	for (;;) {
		unsigned int free_before = u->nr_free;
		uint64_t done_t;
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0, wait_nr;
		int ret;

		/*
		 * A picked I/O is already counted against the job, so pick only
		 * when the SQ has room (with SQPOLL it can be full even with
		 * free slots: the kernel thread has not consumed it yet).
		 */
		while (issuing && u->nr_free && io_uring_sq_space_left(&u->ring)) {
			struct io_uring_sqe *sqe;
			struct bq_slot *s;
			unsigned int idx;

			if (!worker_may_start(w, inflight, now))
				break;
			idx = u->free_slots[u->nr_free - 1];
			s = &w->slots[idx];
			if (!worker_next(w, s, now)) {
				issuing = false;
				break;
			}
			sqe = io_uring_get_sqe(&u->ring);
			if (!sqe)
				break;
			u->nr_free--;
			slot_queued(s);
			prep(w, u, sqe, s, idx);
			inflight++;
		}
		if (!inflight) {
			if (!issuing)
				break;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		slots_stamp_batch(w, u->free_slots, u->nr_free, free_before, now);
		wait_nr = inflight < u->batch_wait ? 1 : u->batch_wait;
		worker_depth_sample(w, inflight);
		ret = uring_submit_and_wait(&u->enter, &u->ring, wait_nr);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY && ret != -ETIME)
			return ret;
		done_t = stamps ? worker_now(w) : 0;
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			unsigned int idx = (unsigned int)cqe->user_data;
			struct bq_slot *s = &w->slots[idx];
			int res = cqe->res;

			if (__builtin_expect(u->kind != URING_RW, 0))
				res = other_res(w, u, cqe, s);
			worker_complete_in_run(w, &run, s, res, done_t);
			slot_done(s);
			u->free_slots[u->nr_free++] = (uint16_t)idx;
			seen++;
		}
		worker_lat_run_flush(&run, w, done_t);
		io_uring_cq_advance(&u->ring, seen);
		inflight -= seen;
		/* Sampled at the top and the bottom of each sawtooth. */
		worker_depth_sample(w, inflight);
		/* The next batch is picked at the time its slots came free. */
		now = stamps ? done_t : worker_now(w);
	}
	return 0;
}

/*
 * uring_loop() under fio's refill rules (queue.c), for the jobs that set
 * them: a loop of its own, out of line, so that the default one is
 * compiled exactly as it was.
 */
static __attribute__((noinline)) int uring_loop_rules(struct bq_worker *w, struct uring_state *u)
{
	bool issuing = true, stamps = !w->job->gtod_reduce;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);
	struct bq_queue *q = &w->q;

	for (;;) {
		unsigned int free_before = u->nr_free, unsent = 0;
		uint64_t done_t;
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0, wait_nr;
		int ret;

		/*
		 * A picked I/O is already counted against the job, so pick only
		 * when the SQ has room (with SQPOLL it can be full even with
		 * free slots: the kernel thread has not consumed it yet).
		 */
		while (issuing && (u->nr_free || q->held >= 0) &&
		       io_uring_sq_space_left(&u->ring)) {
			struct io_uring_sqe *sqe;
			struct bq_slot *s;
			unsigned int idx;

			if (!worker_may_start(w, inflight, now))
				break;
			/* iodepth_low: a full queue drains to the mark first. */
			if (q->draining && inflight > q->low)
				break;
			q->draining = false;
			if (q->held >= 0) {
				if (!queue_held(w, u))
					break;
				inflight++;
				ret = queue_rules_after(w, u, ++unsent, &free_before, now, inflight);
				if (ret)
					return ret;
				if (unsent == q->submit)
					unsent = 0;
				continue;
			}
			/* flow: held back until the flow's other threads catch up */
			if (w->flow && !*w->stop && (!w->end_ns || now < w->end_ns) &&
			    bq_flow_held(w, inflight))
				break;
			idx = u->free_slots[u->nr_free - 1];
			s = &w->slots[idx];
			if (!worker_next(w, s, now)) {
				issuing = false;
				break;
			}
			if (q->serialize && inflight && bq_queue_overlaps(w, s)) {
				u->nr_free--;
				q->held = (int)idx;
				break;
			}
			sqe = io_uring_get_sqe(&u->ring);
			if (!sqe)
				break;
			u->nr_free--;
			slot_queued(s);
			prep(w, u, sqe, s, idx);
			if (q->cmdprio)
				sqe->ioprio = bq_cmdprio_of(w, s);
			inflight++;
			ret = queue_rules_after(w, u, ++unsent, &free_before, now, inflight);
			if (ret)
				return ret;
			if (unsent == q->submit)
				unsent = 0;
		}
		if (!inflight) {
			if (!issuing)
				break;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		slots_stamp_batch(w, u->free_slots, u->nr_free, free_before, now);
		wait_nr = inflight < u->batch_wait ? 1 : u->batch_wait;
		worker_depth_sample(w, inflight);
		ret = uring_submit_and_wait(&u->enter, &u->ring, wait_nr);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY && ret != -ETIME)
			return ret;
		done_t = stamps ? worker_now(w) : 0;
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			unsigned int idx = (unsigned int)cqe->user_data;
			struct bq_slot *s = &w->slots[idx];
			int res = cqe->res;

			/* iodepth_batch_complete_max: the rest waits for the next round. */
			if (q->reap_max && seen == q->reap_max)
				break;
			if (__builtin_expect(u->kind != URING_RW, 0))
				res = other_res(w, u, cqe, s);
			worker_complete(w, s, res, done_t);
			slot_done(s);
			u->free_slots[u->nr_free++] = (uint16_t)idx;
			seen++;
		}
		io_uring_cq_advance(&u->ring, seen);
		inflight -= seen;
		/* Sampled at the top and the bottom of each sawtooth. */
		worker_depth_sample(w, inflight);
		/* The next batch is picked at the time its slots came free. */
		now = stamps ? done_t : worker_now(w);
	}
	return 0;
}

static int slots_init(struct bq_worker *w, struct uring_state *u)
{
	u->free_slots = calloc(w->depth, sizeof(*u->free_slots));
	if (!u->free_slots) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot allocate the slot list");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < w->depth; i++)
		u->free_slots[i] = (uint16_t)(w->depth - 1 - i);
	u->nr_free = w->depth;
	u->batch_wait = worker_batch(w);
	return 0;
}

#ifdef HAVE_PASSTHRU
/*
 * write_mode=: one command for every write, or a share of 100 draws for
 * each of a mix.  As in fio, writefua sets FUA on every command of a
 * single mode but only on the Writes of a mix; deac is Write Zeroes' own.
 */
static void wmode_init(struct bq_worker *w, struct uring_state *u)
{
	const struct bq_job *j = w->job;
	unsigned int at = 0;

	u->wm_nr = j->nvme_wmode_nr;
	u->rng = &w->rng;
	for (unsigned int i = 0; i < j->nvme_wmode_nr; i++) {
		uint8_t op = j->nvme_wmode[i].opcode;
		uint32_t flags = 0;

		if (op == BQ_NVME_OP_WRITE_ZEROES && j->nvme_deac)
			flags |= BQ_NVME_WZ_DEAC;
		if (j->fua[BQ_WRITE] && (op == BQ_NVME_OP_WRITE || j->nvme_wmode_nr == 1))
			flags |= NVME_RW_FUA;
		for (unsigned int k = 0; k < j->nvme_wmode[i].pct && at < ARRAY_SIZE(u->wm); k++) {
			u->wm[at].opcode = op;
			u->wm[at++].cdw12 = flags;
		}
	}
}
#endif

/*
 * A namespace with metadata: how its blocks carry it, and what the job's
 * pi_act, pi_chk and apptag ask.  Separate metadata needs md_per_io_size
 * bytes for the largest I/O, as fio requires.
 */
static int meta_init(struct bq_worker *w, struct uring_state *u, int i)
{
	const struct bq_target_info *ti = &w->jr->targets[i];
	const struct bq_job *j = w->job;
	struct bq_nvme_pi *pi = &u->ns[i].pi;
	uint64_t need;

	if (!ti->nvme_ms && !ti->nvme_pi_type)
		return 0;
	*pi = (struct bq_nvme_pi){
		.lba_size = ti->nvme_lba_data, .ms = ti->nvme_ms, .ext = ti->nvme_ext,
		.type = ti->nvme_pi_type, .pi_size = ti->nvme_pi_size,
		.first = ti->nvme_pi_first, .apptag = j->nvme_apptag,
		.apptag_mask = j->nvme_apptag_mask,
	};
	if (pi->type)
		pi->prinfo = j->nvme_prchk | (j->nvme_pi_act ? BQ_NVME_PRACT : 0);
	u->ns[i].meta = u->meta = true;
	u->ns[i].pi_host = pi->type && !j->nvme_pi_act && pi->ms;
	if (!pi->ms || pi->ext)
		return 0;
	need = (uint64_t)(j->bs_max[BQ_READ] > j->bs_max[BQ_WRITE] ? j->bs_max[BQ_READ] :
			  j->bs_max[BQ_WRITE]) / pi->lba_size * pi->ms;
	if (j->nvme_md_per_io < need) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "md_per_io_size should be at "
			 "least %" PRIu64 " bytes (%u bytes of metadata per %u-byte block)",
			 need, pi->ms, pi->lba_size);
		return -EINVAL;
	}
	return 0;
}

/* fdp=1, dataplacement=: the directives file @i's writes carry. */
static int dp_init(struct bq_worker *w, struct uring_state *u, int i)
{
	const struct bq_job *j = w->job;

	if (bq_job_dp_type(j) == BQ_DP_NONE)
		return 0;
	u->ns[i].dp = malloc(sizeof(*u->ns[i].dp));
	if (!u->ns[i].dp)
		return -ENOMEM;
	return bq_nvme_dp_init(u->ns[i].dp, j, w->fds[i], u->ns[i].nsid,
			       j->randseed ^ ((uint64_t)w->index << 32) ^ (uint64_t)i,
			       w->setup_msg, sizeof(w->setup_msg));
}

/* What each file's commands need: its namespace and LBA size. */
static int passthru_init(struct bq_worker *w, struct uring_state *u)
{
#ifdef HAVE_PASSTHRU
	int ret;

	for (int i = 0; i < w->nr_files; i++) {
		u->ns[i].nsid = w->jr->targets[i].nsid;
		u->ns[i].lbs = w->jr->targets[i].lbs;
		ret = meta_init(w, u, i);
		if (!ret)
			ret = dp_init(w, u, i);
		if (ret)
			return ret;
	}
	if (w->job->nvme_md_per_io) {
		u->md_len = w->job->nvme_md_per_io;
		u->md = calloc(w->depth, u->md_len);
		if (!u->md)
			return -ENOMEM;
	}
	wmode_init(w, u);
	/* zone_append needs zonemode=zbd (bq_job_check_nvme()), so the zones are known. */
	for (unsigned int i = 0; i < w->job->nvme_wmode_nr; i++) {
		if (w->job->nvme_wmode[i].opcode != BQ_NVME_OP_ZONE_APPEND)
			continue;
		if (!w->zbd || !w->zbd->zone_size)
			return -EINVAL;
		u->append_zone = w->zbd->zone_size;
		/* In a mix, only an Append's completion names where it landed. */
		if (w->job->nvme_wmode_nr > 1 && !u->appended) {
			u->appended = calloc(w->depth, 1);
			if (!u->appended)
				return -ENOMEM;
		}
	}
	return 0;
#else
	snprintf(w->setup_msg, sizeof(w->setup_msg),
		 "io_uring_cmd: blkqual was built without IORING_OP_URING_CMD, "
		 "IORING_SETUP_SQE128 or struct nvme_uring_cmd (liburing or kernel headers "
		 "too old)");
	return -EOPNOTSUPP;
#endif
}

/*
 * --stripe: one logical I/O becomes a request per chunk it touches, on the
 * member md's RAID0 layout names.  The I/O completes, and is timed, when
 * its last piece does; each piece is also counted for its member.
 */
struct stripe_state {
	unsigned int max_pieces;
	uint16_t *pending;		/* per slot: pieces in flight */
	int *err;			/* per slot: first error, positive errno */
	struct stripe_piece {
		uint8_t member;
		uint32_t len;
	} *piece;			/* per slot, max_pieces each */
};

struct split_ctx {
	struct bq_raid0_piece p[BQ_MAX_FILES * 2 + 2];
	unsigned int n;
	unsigned int max;
};

static int collect_piece(const struct bq_raid0_piece *p, void *arg)
{
	struct split_ctx *c = arg;

	if (c->n == c->max)
		return -E2BIG;
	c->p[c->n++] = *p;
	return 0;
}

static int stripe_init(struct bq_worker *w, struct uring_state *u)
{
	struct stripe_state *st = calloc(1, sizeof(*st));
	uint64_t chunk = w->stripe->chunk_sectors << 9;

	if (!st)
		return -ENOMEM;
	u->stripe = st;
	/* A block of B bytes touches at most B / chunk + 1 chunks. */
	st->max_pieces = (unsigned int)(w->buf_len / chunk + 2);
	if (st->max_pieces > ARRAY_SIZE(((struct split_ctx *)0)->p) ||
	    (uint64_t)w->depth * st->max_pieces > 32768) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
			 "--stripe: block size over chunk times iodepth is too large for one ring");
		return -EINVAL;
	}
	st->pending = calloc(w->depth, sizeof(*st->pending));
	st->err = calloc(w->depth, sizeof(*st->err));
	st->piece = calloc((size_t)w->depth * st->max_pieces, sizeof(*st->piece));
	if (!st->pending || !st->err || !st->piece)
		return -ENOMEM;
	u->sqes_per_slot = st->max_pieces;
	return 0;
}

static void stripe_free(struct uring_state *u)
{
	if (!u->stripe)
		return;
	free(u->stripe->pending);
	free(u->stripe->err);
	free(u->stripe->piece);
	free(u->stripe);
}

static void stripe_prep(struct bq_worker *w, struct uring_state *u, const struct bq_slot *s,
			unsigned int idx, const struct split_ctx *c)
{
	struct stripe_state *st = u->stripe;

	for (unsigned int k = 0; k < c->n; k++) {
		const struct bq_raid0_piece *p = &c->p[k];
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		uint8_t *buf = w->bufs + (size_t)idx * w->buf_len +
			       ((p->array_sector << 9) - s->offset);
		uint32_t len = (uint32_t)(p->sectors << 9);
		int fd = u->fixed_files ? p->member : w->fds[p->member];

		if (s->dir == BQ_READ)
			io_uring_prep_read(sqe, fd, buf, len, p->member_sector << 9);
		else
			io_uring_prep_write(sqe, fd, buf, len, p->member_sector << 9);
		if (u->fixed_files)
			sqe->flags |= IOSQE_FIXED_FILE;
		sqe->user_data = idx | (uint64_t)k << 16;
		st->piece[idx * st->max_pieces + k] = (struct stripe_piece){
			.member = (uint8_t)p->member, .len = len,
		};
	}
	st->pending[idx] = (uint16_t)c->n;
	st->err[idx] = 0;
}

/* One piece done: count it for its member; the last one completes the I/O. */
static bool stripe_reap(struct bq_worker *w, struct uring_state *u, uint64_t user_data, int res,
			uint64_t done_t, unsigned int *idxp)
{
	struct stripe_state *st = u->stripe;
	unsigned int idx = (unsigned int)(user_data & 0xffff);
	unsigned int k = (unsigned int)(user_data >> 16);
	const struct stripe_piece *pc = &st->piece[idx * st->max_pieces + k];
	struct bq_member_result *m = &w->res->members[pc->member];
	const struct bq_slot *s = &w->slots[idx];

	if (res == (int)pc->len) {
		m->ios++;
		m->bytes += pc->len;
		if (done_t)
			bq_hist_add(&m->lat, done_t - s->start_ns);
	} else {
		m->errors++;
		if (!st->err[idx])
			st->err[idx] = res < 0 ? -res : EIO;
	}
	*idxp = idx;
	return --st->pending[idx] == 0;
}

static int stripe_loop(struct bq_worker *w, struct uring_state *u)
{
	bool issuing = true, stamps = !w->job->gtod_reduce;
	struct stripe_state *st = u->stripe;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);
	struct split_ctx c;

	c.max = st->max_pieces;
	for (;;) {
		unsigned int free_before = u->nr_free;
		uint64_t done_t;
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int ret;

		while (issuing && u->nr_free && io_uring_sq_space_left(&u->ring) >= st->max_pieces) {
			struct bq_slot *s;
			unsigned int idx;

			if (!worker_may_start(w, inflight, now))
				break;
			idx = u->free_slots[u->nr_free - 1];
			s = &w->slots[idx];
			if (!worker_next(w, s, now)) {
				issuing = false;
				break;
			}
			c.n = 0;
			ret = bq_raid0_split(w->stripe, s->offset >> 9, s->len >> 9, collect_piece, &c);
			if (ret)
				return ret;
			u->nr_free--;
			slot_queued(s);
			stripe_prep(w, u, s, idx, &c);
			inflight++;
		}
		if (!inflight) {
			if (!issuing)
				break;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		slots_stamp_batch(w, u->free_slots, u->nr_free, free_before, now);
		worker_depth_sample(w, inflight);
		ret = uring_submit_and_wait(&u->enter, &u->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY && ret != -ETIME)
			return ret;
		done_t = stamps ? worker_now(w) : 0;
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			unsigned int idx;

			seen++;
			if (!stripe_reap(w, u, cqe->user_data, cqe->res, done_t, &idx))
				continue;
			worker_complete(w, &w->slots[idx], st->err[idx] ? -st->err[idx] :
					(int)w->slots[idx].len, done_t);
			slot_done(&w->slots[idx]);
			u->free_slots[u->nr_free++] = (uint16_t)idx;
			inflight--;
		}
		io_uring_cq_advance(&u->ring, seen);
		worker_depth_sample(w, inflight);
		now = stamps ? done_t : worker_now(w);
	}
	return 0;
}

/* fio's io_uring options that change how each I/O is prepared. */
static int options_init(struct bq_worker *w, struct uring_state *u)
{
	const struct bq_job *j = w->job;

	if (w->stripe && (j->vectored || j->force_async)) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
			 "--stripe: nonvectored=0 and force_async are not supported");
		return -EOPNOTSUPP;
	}
	if (w->stripe && j->atomic) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
			 "--stripe: atomic=1 is not supported (a striped write is several writes)");
		return -EOPNOTSUPP;
	}
	if (w->stripe && w->queue_rules) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
			 "--stripe: iodepth_batch, iodepth_low, iodepth_batch_complete_max and "
			 "serialize_overlap are not supported");
		return -EOPNOTSUPP;
	}
	if (j->vectored && u->kind != URING_NOP) {
		u->iov = calloc(w->depth, sizeof(*u->iov));
		if (!u->iov)
			return -ENOMEM;
	}
	u->async_every = j->force_async;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		u->fua[d] = j->fua[d];
	u->write_flags = j->atomic ? RWF_ATOMIC : 0;
	u->plain = u->kind == URING_RW && !u->iov && !u->async_every && !u->write_flags;
	return 0;
}

static int uring_setup_kind(struct bq_worker *w, enum uring_kind kind)
{
	struct uring_state *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	w->engine = u;
	u->kind = kind;
	u->tid = gettid();
	u->sqes_per_slot = 1;
	ret = slots_init(w, u);
	if (!ret)
		ret = options_init(w, u);
	if (!ret && w->stripe)
		ret = stripe_init(w, u);
	if (!ret && kind == URING_CMD)
		ret = passthru_init(w, u);
	if (ret)
		return ret;
	ret = ring_setup(w, u);
	if (ret) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "io_uring setup: %s%s",
			 strerror(-ret), kind == URING_CMD && ret == -EINVAL ?
			 " (io_uring_cmd needs Linux 5.19 or newer)" : "");
		return ret;
	}
	u->ring_up = true;
	register_resources(w, u);
	return 0;
}

static int uring_setup(struct bq_worker *w)
{
	return uring_setup_kind(w, URING_RW);
}

static int uring_cmd_setup(struct bq_worker *w)
{
	return uring_setup_kind(w, URING_CMD);
}

static int nop_setup(struct bq_worker *w)
{
	return uring_setup_kind(w, URING_NOP);
}

static void uring_begin(struct bq_worker *w)
{
	struct uring_state *u = w->engine;

	if (w->job->sqpoll)
		u->sqpoll_start = sqpoll_cpu_ns(u->tid);
}

/* A verify phase reads through the plain loop: verify= refuses --stripe. */
static int uring_run_loop(struct bq_worker *w)
{
	struct uring_state *u = w->engine;

	if (u->stripe)
		return stripe_loop(w, u);
	return w->queue_rules ? uring_loop_rules(w, u) : uring_loop(w, u);
}

static void uring_ramp_end(struct bq_worker *w)
{
	uring_begin(w);
}

static void uring_end(struct bq_worker *w)
{
	struct uring_state *u = w->engine;

	if (w->job->sqpoll)
		w->res->sqpoll_ns = sqpoll_cpu_ns(u->tid) - u->sqpoll_start;
}

static void uring_teardown(struct bq_worker *w)
{
	struct uring_state *u = w->engine;

	if (!u)
		return;
	if (u->ring_up)
		io_uring_queue_exit(&u->ring);
	stripe_free(u);
	free(u->iov);
	free(u->md);
	free(u->appended);
	for (int i = 0; i < BQ_MAX_FILES; i++)
		free(u->ns[i].dp);
	free(u->free_slots);
	free(u);
	w->engine = NULL;
}

const struct bq_engine_ops bq_engine_uring = {
	.name = "io_uring",
	.caps = BQ_ENGINE_RING | BQ_ENGINE_STRIPES,
	.setup = uring_setup,
	.begin = uring_begin,
	.loop = uring_run_loop,
	.end = uring_end,
	.ramp_end = uring_ramp_end,
	.teardown = uring_teardown,
};

const struct bq_engine_ops bq_engine_uring_cmd = {
	.name = "io_uring_cmd",
	.aliases = { "uring_cmd" },
	.caps = BQ_ENGINE_RING | BQ_ENGINE_PASSTHRU,
	.setup = uring_cmd_setup,
	.begin = uring_begin,
	.loop = uring_run_loop,
	.end = uring_end,
	.ramp_end = uring_ramp_end,
	.teardown = uring_teardown,
};

const struct bq_engine_ops bq_engine_nop = {
	.name = "nop",
	.aliases = { "null" },
	.caps = BQ_ENGINE_DISKLESS,
	.setup = nop_setup,
	.begin = uring_begin,
	.loop = uring_run_loop,
	.end = uring_end,
	.ramp_end = uring_ramp_end,
	.teardown = uring_teardown,
};
