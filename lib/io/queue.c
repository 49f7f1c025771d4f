// SPDX-License-Identifier: GPL-2.0-only
/*
 * queue.c - fio's queue refill rules: iodepth_batch_submit, iodepth_low,
 * iodepth_batch_complete_max and serialize_overlap
 *
 * blkqual's own loop fills every free slot, submits them at once and
 * takes every completion that is ready.  A job that sets one of these
 * options gets fio's rules instead, from a second instance of the
 * engine's loop (uring.c, libaio.c), so that the default loop pays
 * nothing for them.
 */
#include <string.h>

#include "engine.h"

/**
 * bq_queue_init() - the refill rules of a worker, from its job
 * @w: the worker; its depth is known
 *
 * Values are settled as fio settles them: a batch or a low mark above
 * the depth is the depth, a reap limit below the completions waited for
 * is that number, and serialize_overlap is off for a job that does not
 * write or has one I/O in flight at most.
 */
void bq_queue_init(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_queue *q = &w->q;
	bool writes = j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD;

	memset(q, 0, sizeof(*q));
	q->held = -1;
	/* A batch of the whole depth is what blkqual's loop does anyway. */
	if (j->iodepth_batch && j->iodepth_batch < w->depth)
		q->submit = j->iodepth_batch;
	q->low = j->iodepth_low && j->iodepth_low < w->depth ? j->iodepth_low : w->depth;
	if (j->batch_complete_max && j->batch_complete_max < w->depth) {
		q->reap_max = j->batch_complete_max;
		if (q->reap_max < worker_batch(w))
			q->reap_max = worker_batch(w);
	}
	q->serialize = j->serialize_overlap && writes && w->depth > 1;
	w->queue_rules = q->submit || q->low < w->depth || q->reap_max || q->serialize;
}

/**
 * bq_queue_overlaps() - whether an I/O in flight overlaps @s
 * @w: the worker
 * @s: the I/O about to be queued, one of @w->slots
 *
 * Return: true when another busy slot of the same file shares a byte
 * with @s: serialize_overlap then holds @s back until none does.
 */
bool bq_queue_overlaps(const struct bq_worker *w, const struct bq_slot *s)
{
	for (unsigned int i = 0; i < w->depth; i++) {
		const struct bq_slot *o = &w->slots[i];

		if (o == s || !__atomic_load_n(&o->busy, __ATOMIC_RELAXED) || o->file != s->file)
			continue;
		if (o->offset < s->offset + s->len && s->offset < o->offset + o->len)
			return true;
	}
	return false;
}
