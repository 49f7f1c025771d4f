// SPDX-License-Identifier: GPL-2.0-only
/*
 * queue.c - fio's queue refill rules: iodepth_batch_submit, iodepth_low,
 * iodepth_batch_complete_max and serialize_overlap; and the per-command
 * priorities (cmdprio_percentage), set as each I/O is prepared
 *
 * blkqual's own loop fills every free slot, submits them at once and
 * takes every completion that is ready.  A job that sets one of these
 * options gets fio's rules instead, from a second instance of the
 * engine's loop (uring.c, libaio.c), so that the default loop pays
 * nothing for them.
 */
#include <string.h>

#include "engine.h"

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_HINT_SHIFT	3
#define IOPRIO_CLASS_RT		1
#define IOPRIO_CLASS_BE		2

/* fio's ioprio_value(): class 0 is best effort; the hint sits above the level. */
static uint16_t ioprio_value(unsigned int class, unsigned int level, unsigned int hint)
{
	return (uint16_t)((class ? class : IOPRIO_CLASS_BE) << IOPRIO_CLASS_SHIFT |
			  hint << IOPRIO_HINT_SHIFT | level);
}

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
	q->cmdprio = j->cmdprio_pct[BQ_READ] || j->cmdprio_pct[BQ_WRITE] ||
		     j->nr_cmdprio_bss[BQ_READ] || j->nr_cmdprio_bss[BQ_WRITE];
	if (j->ioprio_set)
		q->prio_off = ioprio_value(j->ioprio_class, j->ioprio, j->ioprio_hint);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		unsigned int class = j->cmdprio_class[d] ? j->cmdprio_class[d] : IOPRIO_CLASS_RT;

		q->prio_pct[d] = j->cmdprio_pct[d];
		q->prio_on[d] = ioprio_value(class, j->cmdprio_level[d], j->cmdprio_hint[d]);
		/* The values an I/O may carry, by the index its slot keeps (statlog.c). */
		q->prio_val[d][BQ_PRIO_OFF] = q->prio_off;
		q->prio_val[d][BQ_PRIO_ON] = q->prio_on[d];
		for (int i = 0; i < j->nr_cmdprio_bss[d]; i++) {
			const struct bq_cmdprio_bss *e = &j->cmdprio_bss[d][i];

			q->prio_val[d][BQ_PRIO_BSS + i] = e->own ?
				ioprio_value(e->ioprio_class, e->level, e->hint) : q->prio_on[d];
		}
	}
	/* Any odd number; the thread's index keeps the threads' draws apart. */
	q->prio_rng = (j->randseed ^ 0x9e3779b97f4a7c15ULL) * (2 * (uint64_t)w->index + 1) | 1;
	w->queue_rules = q->submit || q->low < w->depth || q->reap_max || q->serialize ||
			 q->cmdprio || j->flow;
}

/**
 * bq_queue_cmdprio() - the priority of the next I/O of a cmdprio job
 * @w: the worker
 * @dir: its direction
 *
 * As in fio, each I/O draws whether it is one of cmdprio_percentage
 * percent; those get cmdprio_class and cmdprio, the others the job's
 * own priority (0, the thread's, without prio and prioclass).
 *
 * Return: BQ_PRIO_ON or BQ_PRIO_OFF, an index into @w->q.prio_val[@dir].
 */
unsigned int bq_queue_cmdprio(struct bq_worker *w, int dir)
{
	return bq_queue_draw100(w) < w->q.prio_pct[dir] ? BQ_PRIO_ON : BQ_PRIO_OFF;
}

/**
 * bq_queue_draw100() - the next of the priority draws, 0 to 99
 * @w: the worker
 *
 * One xorshift64 stream per thread serves cmdprio_percentage and
 * cmdprio_bssplit, apart from the workload's draws.
 *
 * Return: the draw.
 */
unsigned int bq_queue_draw100(struct bq_worker *w)
{
	uint64_t x = w->q.prio_rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	w->q.prio_rng = x;
	return (unsigned int)((x >> 11) % 100);
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
