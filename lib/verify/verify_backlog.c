// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_backlog.c - fio's verify_backlog: read back what a thread wrote
 * while it goes on writing, not only after all of its writes
 *
 * As in fio, a thread keeps the writes it completed and has not read
 * back yet, oldest first.  Whenever that count reaches a multiple of
 * verify_backlog after a write, the next verify_backlog_batch I/Os it
 * issues are reads of them (fewer when it runs out: the batch goes on as
 * writes complete).  What is left at the end is read back in the verify
 * phase, so every write is read back once; with a batch smaller than the
 * backlog the count grows and more is left for the end, as in fio.
 * Writes are kept only once they completed, so a read never overtakes the
 * write it checks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "verify_int.h"

/**
 * bq_vhist_push() - keep a completed write
 * @h: the FIFO
 * @offset: its byte offset
 * @len: its bytes
 *
 * Return: 0 or -ENOMEM (the write is then not read back early; the
 * verify phase still reads it when the job has no backlog FIFO).
 */
int bq_vhist_push(struct bq_vhist *h, uint64_t offset, uint32_t len)
{
	if (h->n == h->cap) {
		size_t live = h->n - h->head, cap;
		struct bq_vio *io;

		/* Reuse the consumed front before growing. */
		if (h->head >= h->cap / 2 && h->head) {
			memmove(h->io, h->io + h->head, live * sizeof(*h->io));
			h->head = 0;
			h->n = live;
		} else {
			cap = h->cap ? 2 * h->cap : 64;
			io = realloc(h->io, cap * sizeof(*io));
			if (!io)
				return -ENOMEM;
			h->io = io;
			h->cap = cap;
		}
	}
	h->io[h->n].offset = offset;
	h->io[h->n].len = len;
	h->n++;
	return 0;
}

/**
 * bq_vhist_pop() - the oldest write kept
 * @h: the FIFO
 * @io: receives it
 *
 * Return: false when there is none.
 */
bool bq_vhist_pop(struct bq_vhist *h, struct bq_vio *io)
{
	if (h->head == h->n)
		return false;
	*io = h->io[h->head++];
	if (h->head == h->n)
		h->head = h->n = 0;
	return true;
}

/**
 * bq_vhist_len() - writes kept and not read back yet
 * @h: the FIFO
 *
 * Return: the count.
 */
size_t bq_vhist_len(const struct bq_vhist *h)
{
	return h->n - h->head;
}

/**
 * bq_vhist_free() - release a FIFO
 * @h: the FIFO
 */
void bq_vhist_free(struct bq_vhist *h)
{
	free(h->io);
	memset(h, 0, sizeof(*h));
}

/**
 * bq_vbacklog_next() - a read of the backlog instead of the next write?
 * @w: the worker
 * @v: its verify state
 * @s: filled in (offset, length, direction) when a read is due
 * @now: current time (past the job's end, the rest is left to the phase)
 *
 * Return: true when @s is a read of a completed write to issue now.
 */
bool bq_vbacklog_next(struct bq_worker *w, struct bq_vworker *v, struct bq_slot *s, uint64_t now)
{
	const struct bq_vjob *vj = v->job;
	size_t n = bq_vhist_len(&v->hist);
	struct bq_vio io;

	if (!n || w->stopping || *w->stop || (w->end_ns && now >= w->end_ns))
		return false;
	/*
	 * Once verify_backlog writes wait: one at a time (psync) the count
	 * meets each multiple, as in fio; an engine that reaps several
	 * completions at once can step over one, and a test for the multiple
	 * itself then read nothing back while writing (seen at QD8).
	 */
	if (!v->batch && n >= vj->backlog && v->last_dir != BQ_READ)
		v->batch = vj->backlog_batch;
	if (!v->batch || !bq_vhist_pop(&v->hist, &io))
		return false;
	v->batch--;
	s->offset = io.offset;
	s->len = io.len;
	s->dir = BQ_READ;
	s->file = 0;
	return true;
}

static int by_offset(const void *a, const void *b)
{
	const struct bq_vio *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/**
 * bq_vhist_sort_latest() - what fio reads back of a pass that may overwrite
 * @h: the FIFO of the pass's writes, oldest first
 *
 * fio keeps the writes of a job that can overwrite in offset order, and
 * a write that overlaps an older one drops the older one whole: those
 * are the reads it issues.  The same here: the writes no later write
 * overlaps, lowest offset first.
 */
void bq_vhist_sort_latest(struct bq_vhist *h)
{
	size_t n = h->n - h->head, kept = 0;
	struct bq_vio *io = h->io + h->head;
	bool *dead;

	if (n < 2)
		return;
	dead = calloc(n, sizeof(*dead));
	if (!dead)
		return;		/* then every write is read back, in the order written */
	for (size_t i = 0; i < n; i++)
		io[i].seq = (uint32_t)i;
	qsort(io, n, sizeof(*io), by_offset);
	/* Sorted by offset, whatever overlaps entry i starts before its end. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n && io[k].offset < io[i].offset + io[i].len; k++) {
			if (io[k].seq > io[i].seq)
				dead[i] = true;
			else
				dead[k] = true;
		}
	for (size_t i = 0; i < n; i++)
		if (!dead[i])
			io[kept++] = io[i];
	free(dead);
	h->n = h->head + kept;
}

/**
 * bq_vhist_push_latest() - keep a completed write as fio's offset-sorted log does
 * @h: the writes kept, sorted by offset, none overlapping another
 * @offset: its byte offset
 * @len: its bytes
 *
 * Kept writes that the new one overlaps are dropped whole (fio reads back
 * only the latest), and bq_vhist_pop() then gives the lowest offset first,
 * as fio's verify_backlog takes them from a job that may overwrite.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_vhist_push_latest(struct bq_vhist *h, uint64_t offset, uint32_t len)
{
	size_t lo = h->head, hi = h->n, k;
	int ret;

	/* The first kept write that ends after the new one starts. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->io[mid].offset + h->io[mid].len <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < h->n && h->io[k].offset < offset + len; k++)
		;
	if (k > lo) {
		/* Overlapped ones go; the new one takes the first's place. */
		memmove(h->io + lo + 1, h->io + k, (h->n - k) * sizeof(*h->io));
		h->n -= k - lo - 1;
	} else {
		size_t head = h->head;

		ret = bq_vhist_push(h, 0, 0);	/* room at the end */
		if (ret)
			return ret;
		lo -= head - h->head;		/* it may have moved the live ones to the front */
		memmove(h->io + lo + 1, h->io + lo, (h->n - 1 - lo) * sizeof(*h->io));
	}
	h->io[lo].offset = offset;
	h->io[lo].len = len;
	return 0;
}
