// SPDX-License-Identifier: GPL-2.0-only
/*
 * libaio.c - Linux native AIO through libaio: the baseline kernel
 * developers compare io_uring against, and what many job files name
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic.h"
#include "io/engine.h"

/* The kernel's (linux/aio_abi.h, which clashes with libaio.h): aio_reqprio is valid. */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO	(1 << 1)
#endif

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;
	struct iocb **queue;
	struct io_event *events;
	uint16_t *free_slots;
	unsigned int nr_free;
	unsigned int batch_wait;
	int write_flags;		/* RWF_ATOMIC with atomic=1 */
};

/* Submit queue[0, n), retrying what the kernel did not take. */
static int aio_submit(struct aio_state *a, unsigned int n)
{
	unsigned int sent = 0;

	while (sent < n) {
		int ret = io_submit(a->ctx, (long)(n - sent), a->queue + sent);

		if (ret == -EAGAIN || ret == -EINTR)
			continue;
		if (ret < 0)
			return ret;
		sent += (unsigned int)ret;
	}
	return 0;
}

static void aio_prep(struct bq_worker *w, struct aio_state *a, const struct bq_slot *s,
		     unsigned int idx)
{
	void *buf = w->bufs + (size_t)idx * w->buf_len;

	if (s->dir == BQ_READ)
		io_prep_pread(&a->iocbs[idx], w->fds[s->file], buf, s->len, (long long)s->offset);
	else {
		io_prep_pwrite(&a->iocbs[idx], w->fds[s->file], buf, s->len,
			       (long long)s->offset);
		a->iocbs[idx].aio_rw_flags = (unsigned int)a->write_flags;
	}
	a->iocbs[idx].data = (void *)(uintptr_t)idx;
}

static int aio_loop(struct bq_worker *w)
{
	struct aio_state *a = w->engine;
	bool issuing = true, stamps = !w->job->gtod_reduce;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);

	for (;;) {
		unsigned int free_before = a->nr_free;
		uint64_t done_t;
		unsigned int queued = 0;
		int n;

		while (issuing && a->nr_free) {
			unsigned int idx;
			struct bq_slot *s;
			void *buf;

			if (!worker_may_start(w, inflight + queued, now))
				break;
			idx = a->free_slots[a->nr_free - 1];
			s = &w->slots[idx];
			if (!worker_next(w, s, now)) {
				issuing = false;
				break;
			}
			a->nr_free--;
			slot_queued(s);
			buf = w->bufs + (size_t)idx * w->buf_len;
			if (s->dir == BQ_READ)
				io_prep_pread(&a->iocbs[idx], w->fds[s->file], buf, s->len,
					      (long long)s->offset);
			else {
				io_prep_pwrite(&a->iocbs[idx], w->fds[s->file], buf, s->len,
					       (long long)s->offset);
				a->iocbs[idx].aio_rw_flags = (unsigned int)a->write_flags;
			}
			a->iocbs[idx].data = (void *)(uintptr_t)idx;
			a->queue[queued++] = &a->iocbs[idx];
		}
		if (queued) {
			unsigned int sent = 0;

			slots_stamp_batch(w, a->free_slots, a->nr_free, free_before, now);
			while (sent < queued) {
				n = io_submit(a->ctx, (long)(queued - sent), a->queue + sent);
				if (n == -EAGAIN || n == -EINTR)
					continue;
				if (n < 0)
					return n;
				sent += (unsigned int)n;
			}
			inflight += queued;
		}
		if (!inflight) {
			if (!issuing)
				return 0;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		worker_depth_sample(w, inflight);
		n = io_getevents(a->ctx, inflight < a->batch_wait ? 1 : a->batch_wait,
				 (long)w->depth, a->events, NULL);
		if (n == -EINTR) {
			now = worker_now(w);
			continue;
		}
		if (n < 0)
			return n;
		done_t = stamps ? worker_now(w) : 0;
		for (int i = 0; i < n; i++) {
			unsigned int idx = (unsigned int)(uintptr_t)a->events[i].data;
			long res = (long)a->events[i].res;

			worker_complete(w, &w->slots[idx], (int)res, done_t);
			slot_done(&w->slots[idx]);
			a->free_slots[a->nr_free++] = (uint16_t)idx;
		}
		inflight -= (unsigned int)n;
		worker_depth_sample(w, inflight);
		now = stamps ? done_t : worker_now(w);
	}
}

/*
 * aio_loop() under fio's refill rules (queue.c), for the jobs that set
 * them: a loop of its own, out of line, so that the default one is
 * compiled exactly as it was.
 */
static __attribute__((noinline)) int aio_loop_rules(struct bq_worker *w)
{
	struct aio_state *a = w->engine;
	bool issuing = true, stamps = !w->job->gtod_reduce;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);
	struct bq_queue *q = &w->q;
	int n;

	for (;;) {
		unsigned int free_before = a->nr_free;
		uint64_t done_t;
		unsigned int queued = 0;

		while (issuing && (a->nr_free || q->held >= 0)) {
			unsigned int idx;
			struct bq_slot *s;

			if (!worker_may_start(w, inflight + queued, now))
				break;
			/* iodepth_low: a full queue drains to the mark first. */
			if (q->draining && inflight + queued > q->low)
				break;
			q->draining = false;
			if (q->held >= 0) {
				/* serialize_overlap: picked in an earlier round, stamped alone */
				idx = (unsigned int)q->held;
				s = &w->slots[idx];
				if (bq_queue_overlaps(w, s))
					break;
				q->held = -1;
				aio_prep(w, a, s, idx);
				slot_issued(s, worker_now(w));
			} else {
				/* flow: held back until the flow's other threads catch up */
				if (w->flow && !*w->stop && (!w->end_ns || now < w->end_ns) &&
				    bq_flow_held(w, inflight + queued))
					break;
				idx = a->free_slots[a->nr_free - 1];
				s = &w->slots[idx];
				if (!worker_next(w, s, now)) {
					issuing = false;
					break;
				}
				a->nr_free--;
				if (q->serialize && inflight + queued && bq_queue_overlaps(w, s)) {
					q->held = (int)idx;
					break;
				}
				slot_queued(s);
				aio_prep(w, a, s, idx);
			}
			if (q->cmdprio) {
				a->iocbs[idx].aio_reqprio = (short)bq_cmdprio_of(w, s);
				a->iocbs[idx].u.c.flags |= IOCB_FLAG_IOPRIO;
			}
			a->queue[queued++] = &a->iocbs[idx];
			/* iodepth_batch_submit: each batch goes as soon as it is complete. */
			if (q->submit && queued == q->submit) {
				slots_stamp_batch(w, a->free_slots, a->nr_free, free_before, now);
				free_before = a->nr_free;
				n = aio_submit(a, queued);
				if (n < 0)
					return n;
				/* a->queue is reused from its start for the next batch */
				inflight += queued;
				queued = 0;
			}
			if (inflight + queued == w->depth)
				q->draining = q->low < w->depth;
		}
		if (queued) {
			slots_stamp_batch(w, a->free_slots, a->nr_free, free_before, now);
			n = aio_submit(a, queued);
			if (n < 0)
				return n;
			inflight += queued;
		}
		if (!inflight) {
			if (!issuing)
				return 0;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		worker_depth_sample(w, inflight);
		n = io_getevents(a->ctx, inflight < a->batch_wait ? 1 : a->batch_wait,
				 q->reap_max ? (long)q->reap_max : (long)w->depth,
				 a->events, NULL);
		if (n == -EINTR) {
			now = worker_now(w);
			continue;
		}
		if (n < 0)
			return n;
		done_t = stamps ? worker_now(w) : 0;
		for (int i = 0; i < n; i++) {
			unsigned int idx = (unsigned int)(uintptr_t)a->events[i].data;
			long res = (long)a->events[i].res;

			worker_complete(w, &w->slots[idx], (int)res, done_t);
			slot_done(&w->slots[idx]);
			a->free_slots[a->nr_free++] = (uint16_t)idx;
		}
		inflight -= (unsigned int)n;
		worker_depth_sample(w, inflight);
		now = stamps ? done_t : worker_now(w);
	}
}

static int aio_run_loop(struct bq_worker *w)
{
	return w->queue_rules ? aio_loop_rules(w) : aio_loop(w);
}

static int aio_setup(struct bq_worker *w)
{
	struct aio_state *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	w->engine = a;
	a->iocbs = calloc(w->depth, sizeof(*a->iocbs));
	a->queue = calloc(w->depth, sizeof(*a->queue));
	a->events = calloc(w->depth, sizeof(*a->events));
	a->free_slots = calloc(w->depth, sizeof(*a->free_slots));
	if (!a->iocbs || !a->queue || !a->events || !a->free_slots) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "cannot allocate AIO control blocks");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < w->depth; i++)
		a->free_slots[i] = (uint16_t)(w->depth - 1 - i);
	a->nr_free = w->depth;
	a->batch_wait = worker_batch(w);
	a->write_flags = w->job->atomic ? RWF_ATOMIC : 0;
	ret = io_setup((int)w->depth, &a->ctx);
	if (ret)
		snprintf(w->setup_msg, sizeof(w->setup_msg), "io_setup: %s (fs.aio-max-nr?)",
			 strerror(-ret));
	return ret;
}

static void aio_teardown(struct bq_worker *w)
{
	struct aio_state *a = w->engine;

	if (!a)
		return;
	if (a->ctx)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->queue);
	free(a->events);
	free(a->free_slots);
	free(a);
	w->engine = NULL;
}

const struct bq_engine_ops bq_engine_libaio = {
	.name = "libaio",
	.setup = aio_setup,
	.loop = aio_run_loop,
	.teardown = aio_teardown,
};
