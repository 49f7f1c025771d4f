/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sync_loop.h - private: the loop of the engines that do one I/O per
 * system call (psync, sync, pvsync, pvsync2)
 *
 * They differ only in the call that moves the data; the loop around it
 * (the rate limit, fsync=/fdatasync=, stamps, completion) is the same,
 * so it is written once and inlined into each engine with its own call.
 */
#ifndef BLKQUAL_SYNC_LOOP_H
#define BLKQUAL_SYNC_LOOP_H

#include <errno.h>
#include <sched.h>

#include "io/engine.h"

/* One I/O: bytes moved, or -1 with errno set, as read(2) returns. */
typedef ssize_t (*sync_io_fn)(struct bq_worker *w, const struct bq_slot *s, void *buf);

/**
 * sync_engine_loop() - issue the job's I/Os one at a time until it is done
 * @w: the worker
 * @io: the engine's call; inlined, since @io is a constant at each caller
 *
 * Return: 0 (failed I/Os are counted, not returned).
 */
static __attribute__((always_inline)) inline int sync_engine_loop(struct bq_worker *w,
								  sync_io_fn io)
{
	bool stamps = !w->job->gtod_reduce;
	struct bq_slot *s = &w->slots[0];
	uint64_t now = worker_now(w);

	for (;;) {
		ssize_t n;

		if (!worker_may_start(w, 0, now)) {
			worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		/*
		 * flow: held back until the flow's other threads catch up; as
		 * fio, the thread tries again at once (after flow_sleep, when
		 * set), but gives up its CPU to them in between.
		 */
		if (w->flow && !*w->stop && (!w->end_ns || now < w->end_ns) &&
		    bq_flow_held(w, 0)) {
			if (!w->job->flow_sleep_ns)
				sched_yield();
			now = worker_now(w);
			continue;
		}
		if (!worker_next(w, s, now))
			return 0;
		/* Stamped once picked, so that the pick is not part of its latency. */
		if (stamps)
			now = worker_now(w);
		slot_issued(s, now);
		n = io(w, s, w->bufs);
		now = worker_now(w);
		worker_complete(w, s, n < 0 ? -errno : (int)n, stamps ? now : 0);
		slot_done(s);
	}
}

#endif /* BLKQUAL_SYNC_LOOP_H */
