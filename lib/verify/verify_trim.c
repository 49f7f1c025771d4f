// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_trim.c - fio's trim_percentage, trim_backlog, trim_backlog_batch
 * and trim_verify_zero: some written blocks are discarded while the job
 * goes on, and read back as zeros instead of their data
 *
 * As in fio 3.33 (which does it only for rw=trimwrite and randtrimwrite),
 * each write the job logs for verify is drawn for a trim with probability
 * trim_percentage/100.  Whenever, before an I/O is picked, the count of
 * logged writes is a multiple of trim_backlog (and the last I/O was no
 * read), a turn of trims starts: this trim and trim_backlog_batch
 * (default trim_backlog) more, oldest drawn write first, each a discard
 * through the job's descriptor (BLKDISCARD, a punched hole on a file).  A
 * trimmed block must read back as zeros; with trim_verify_zero=0 it is
 * dropped from the read-back instead, and from the count, as fio drops
 * it from its log.  A later write of the block makes it data again.
 * fio draws with its own generator, blkqual with its own: the share is
 * the same, the blocks are not, so only 0 and 100 give fio's counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "verify_int.h"

static inline bool tracked(const struct bq_vjob *vj, uint64_t off, uint64_t *idx)
{
	if (off < vj->base)
		return false;
	*idx = (off - vj->base) / vj->p.block_size;
	return *idx < vj->st.nblocks;
}

static void mark(struct bq_vjob *vj, uint64_t off, uint32_t len, bool trimmed)
{
	for (uint64_t o = off; o < off + len; o += vj->p.block_size) {
		uint64_t i, bit;

		if (!tracked(vj, o, &i))
			continue;
		bit = 1ULL << (i % 64);
		if (trimmed)
			__atomic_fetch_or(&vj->trimmed[i / 64], bit, __ATOMIC_RELEASE);
		else
			__atomic_fetch_and(&vj->trimmed[i / 64], ~bit, __ATOMIC_RELEASE);
	}
}

/**
 * bq_vtrim_setup() - whether the job trims written blocks, and its bitmap
 * @vj: the job's verification, its state open
 * @j: the job
 *
 * Return: 0 or -ENOMEM.
 */
int bq_vtrim_setup(struct bq_vjob *vj, const struct bq_job *j)
{
	vj->trims = vj->writes && vj->st.gen && j->trim_percentage && j->trim_backlog;
	if (!vj->trims)
		return 0;
	vj->trimmed = calloc((size_t)(vj->st.nblocks + 63) / 64, sizeof(*vj->trimmed));
	return vj->trimmed ? 0 : -ENOMEM;
}

/**
 * bq_vtrim_write_issued() - a write is issued: logged, and its blocks are data again
 * @v: the thread's verify state
 * @off: its offset
 * @len: its length
 */
void bq_vtrim_write_issued(struct bq_vworker *v, uint64_t off, uint32_t len)
{
	v->logged++;
	mark(v->job, off, len, false);
}

/**
 * bq_vtrim_write_done() - a write landed: draw it for a trim
 * @w: the worker
 * @v: its verify state
 * @off: its offset
 * @len: its length
 */
void bq_vtrim_write_done(struct bq_worker *w, struct bq_vworker *v, uint64_t off, uint32_t len)
{
	uint32_t pct = w->job->trim_percentage;

	if (pct >= 100 || bq_splitmix64(&v->trim_rng) % 100 < pct)
		bq_vhist_push(&v->trims, off, len);
}

/**
 * bq_vtrim_next() - trim a written block now, if a turn is due
 * @w: the worker
 * @v: its verify state
 * @now: current time
 *
 * Return: true when a trim was done (the caller picks again).
 */
bool bq_vtrim_next(struct bq_worker *w, struct bq_vworker *v, uint64_t now)
{
	const struct bq_job *j = w->job;
	struct bq_vjob *vj = v->job;
	struct bq_slot s = { .dir = BQ_WRITE };
	struct bq_vio io;

	if (!bq_vhist_len(&v->trims) || w->stopping || *w->stop)
		return false;
	if (v->trim_batch) {
		v->trim_batch--;
	} else if (!(v->logged % j->trim_backlog) && v->last_dir != BQ_READ) {
		/* fio's turn: this trim, then the batch */
		v->trim_batch = j->trim_backlog_batch ? j->trim_backlog_batch : j->trim_backlog;
	} else {
		return false;
	}
	if (!bq_vhist_pop(&v->trims, &io))
		return false;
	if (!j->trim_verify_zero)
		v->logged--;
	s.offset = io.offset;
	s.len = io.len;
	/* Marked first: a read of the block from now on may find zeros. */
	mark(vj, io.offset, io.len, true);
	if (worker_trim_now(w, &s, now))
		mark(vj, io.offset, io.len, false);
	v->last_dir = BQ_WRITE;
	return true;
}

/**
 * bq_vtrim_is_trimmed() - whether a block was trimmed since it was last written
 * @vj: the job's verification
 * @idx: the block
 *
 * Return: true when it was.
 */
bool bq_vtrim_is_trimmed(const struct bq_vjob *vj, uint64_t idx)
{
	return vj->trimmed &&
	       (__atomic_load_n(&vj->trimmed[idx / 64], __ATOMIC_ACQUIRE) >> (idx % 64)) & 1;
}

/**
 * bq_vtrim_check() - judge a trimmed block read back: zeros
 * @w: the worker
 * @v: its verify state
 * @buf: the block as read
 * @off: its offset
 * @idx: its index
 *
 * Return: false when the block is not trimmed (judge it as data).
 */
bool bq_vtrim_check(struct bq_worker *w, struct bq_vworker *v, const uint8_t *buf, uint64_t off,
		    uint64_t idx)
{
	struct bq_vjob *vj = v->job;
	uint32_t bs = vj->p.block_size;
	struct bq_vbad bad;
	uint32_t i;

	if (!bq_vtrim_is_trimmed(vj, idx))
		return false;
	for (i = 0; i < bs && !buf[i]; i++)
		;
	v->t->rep.blocks_checked++;
	v->t->rep.bytes_checked += bs;
	if (i == bs) {
		bq_verify_report_add(&v->t->rep, BQ_VCLASS_OK, NULL, 0);
		return true;
	}
	memset(&bad, 0, sizeof(bad));
	bad.offset = off;
	bad.length = bs;
	bad.cls = BQ_VCLASS_CORRUPTED;
	bad.expected.offset = off;
	bad.first_diff = i;
	bq_verify_report_add(&v->t->rep, BQ_VCLASS_CORRUPTED, &bad, 0);
	if (vj->fatal)
		w->stopping = true;
	return true;
}
