// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_run.c - verify= inside a run: every write carries a header and a
 * checksum, every read is judged, and a job that writes reads back what
 * it wrote in a verify phase of its own
 *
 * The engines call in here only when a job verifies (one predictable
 * test per I/O when it does not).  A write marks its blocks in flight in
 * the state before it is submitted and clears the mark when it completes,
 * so the state always says which generations a block may hold, also
 * after a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/target.h"
#include "verify_int.h"

/* Marks a block that was never written when its read was issued. */
#define SNAP_NONE UINT64_MAX
/* A block outside the state's region: nothing to compare with. */
#define SNAP_UNTRACKED (UINT64_MAX - 1)

static inline uint8_t *slot_buf(struct bq_worker *w, const struct bq_slot *s)
{
	return w->bufs + (size_t)(s - w->slots) * w->buf_len;
}

static inline bool tracked(const struct bq_vjob *vj, uint64_t off, uint64_t *idx)
{
	uint64_t i;

	if (off < vj->base)
		return false;
	i = (off - vj->base) / vj->p.block_size;
	*idx = i;
	return i < vj->st.nblocks;
}

/* verify_offset: fio swaps the header with the bytes there, and back before judging. */
static void swap_hdr(uint8_t *blk, uint32_t at, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		uint8_t t = blk[i];

		blk[i] = blk[at + i];
		blk[at + i] = t;
	}
}

/* Mark the blocks in flight, take their generations, build them. */
static void issue_write(struct bq_worker *w, struct bq_vworker *v, const struct bq_slot *s,
			uint64_t now)
{
	struct bq_vjob *vj = v->job;
	uint32_t bs = vj->p.block_size;
	uint8_t *buf = slot_buf(w, s);
	uint64_t ts = v->wall_offset + now;

	for (uint64_t off = s->offset; off < s->offset + s->len; off += bs, buf += bs) {
		uint64_t i, e, ne, g = 0;

		if (tracked(vj, off, &i)) {
			uint64_t *ep = &vj->st.gen[i];

			e = __atomic_load_n(ep, __ATOMIC_RELAXED);
			do {
				g = e & BQ_VGEN_MASK;
				/* With writes of it in flight, the block keeps their generation. */
				if (!(e >> BQ_VGEN_INFLIGHT_SHIFT))
					g++;
				ne = (e & ~(BQ_VGEN_MASK | BQ_VGEN_AMBIG)) + BQ_VGEN_ONE_INFLIGHT + g;
			} while (!__atomic_compare_exchange_n(ep, &e, ne, true, __ATOMIC_ACQ_REL,
							      __ATOMIC_RELAXED));
		}
		bq_verify_fill(buf, &vj->p, off, g, vj->seed, ts, v->thread);
		if (vj->swap_at)
			swap_hdr(buf, vj->swap_at, vj->p.hdr_len);
	}
}

/* What each block of a read may hold, as far as the state knows at issue. */
static void issue_read(struct bq_worker *w, struct bq_vworker *v, const struct bq_slot *s)
{
	struct bq_vjob *vj = v->job;
	uint64_t *snap = v->snap + (size_t)(s - w->slots) * v->per_slot;
	uint32_t bs = vj->p.block_size;

	if (!vj->st.gen)
		return;
	for (uint64_t off = s->offset; off < s->offset + s->len; off += bs, snap++) {
		uint64_t i, e, g;

		if (!tracked(vj, off, &i)) {
			*snap = SNAP_UNTRACKED;
			continue;
		}
		e = __atomic_load_n(&vj->st.gen[i], __ATOMIC_ACQUIRE);
		g = e & BQ_VGEN_MASK;
		*snap = !g ? SNAP_NONE : bq_vgen_ambiguous(e) ? g - 1 : g;
	}
}

/* A block the verify phase reads: written, and not dropped by a trim (trim_verify_zero=0). */
static inline bool readable(const struct bq_vjob *vj, uint64_t i)
{
	if (!(vj->st.gen[i] & BQ_VGEN_MASK))
		return false;
	return !vj->trims || vj->zero_trims || !bq_vtrim_is_trimmed(vj, i);
}

/* The verify phase: the next run of written blocks of this thread's share. */
static bool phase_next(struct bq_worker *w, struct bq_vworker *v, struct bq_slot *s)
{
	struct bq_vjob *vj = v->job;
	uint64_t first;
	uint32_t n = 0;

	if (w->stopping || *w->stop)
		return false;
	/* verify_backlog: only what was not read back while writing; passes: their writes. */
	if (vj->backlog || w->verify_passes) {
		struct bq_vio io;

		if (!bq_vhist_pop(&v->hist, &io))
			return false;
		s->offset = io.offset;
		s->len = io.len;
		s->dir = BQ_READ;
		s->file = 0;
		issue_read(w, v, s);
		return true;
	}
	while (v->cursor < v->end && !readable(vj, v->cursor))
		v->cursor++;
	first = v->cursor;
	while (v->cursor < v->end && n < v->max_run && readable(vj, v->cursor)) {
		v->cursor++;
		n++;
	}
	if (!n)
		return false;
	s->offset = vj->base + first * vj->p.block_size;
	s->len = n * vj->p.block_size;
	s->dir = BQ_READ;
	s->file = 0;
	issue_read(w, v, s);
	return true;
}

/**
 * worker_verify_next() - worker_next() for a job that verifies
 * @w: the worker
 * @s: filled in
 * @now: current time
 *
 * Return: false when the thread (or its phase) is done.
 */
bool worker_verify_next(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	struct bq_vworker *v = w->verify;
	uint32_t bs = v->job->p.block_size;

	if (v->phase)
		return phase_next(w, v, s);
	if (v->job->verify_only)
		return false;
	/* trim_backlog: fio's turns of trims come before the next pick (verify_trim.c). */
	while (v->job->trims && bq_vtrim_next(w, v, now))
		now = worker_now(w);
	if (v->job->backlog && bq_vbacklog_next(w, v, s, now)) {
		v->last_dir = BQ_READ;
		issue_read(w, v, s);
		return true;
	}
	/* trimwrite: the workload's trim, then the write of the same block */
	if (w->job->trim != BQ_TRIM_NONE ? !worker_trim_next(w, s, now) : !worker_pick(w, s, now))
		return false;
	/* io_size can cut the last I/O short: only whole blocks are verified. */
	if (s->len % bs) {
		s->len -= s->len % bs;
		if (!s->len)
			return false;
	}
	v->last_dir = s->dir;
	if (s->dir == BQ_WRITE) {
		issue_write(w, v, s, now);
		if (v->job->trims)
			bq_vtrim_write_issued(v, s->offset, s->len);
	} else
		issue_read(w, v, s);
	return true;
}

static void bad_found(struct bq_worker *w, struct bq_vworker *v, enum bq_verify_class cls,
		      const struct bq_vbad *bad, unsigned int flags)
{
	bq_verify_report_add(&v->t->rep, cls, bad, flags);
	if (cls != BQ_VCLASS_OK && v->job->fatal)
		w->stopping = true;
}

/* Without a state: judge each header's block by itself, whatever its length. */
static void check_self(struct bq_worker *w, struct bq_vworker *v, uint8_t *buf,
		       uint64_t off, uint32_t len, int file)
{
	struct bq_vjob *vj = v->job;
	struct bq_vparams p = vj->p;
	struct bq_vexpect e = { 0 };

	for (uint32_t at = 0; at < len;) {
		struct bq_vhdr h;
		enum bq_verify_class cls;
		struct bq_vbad bad;
		unsigned int flags;

		p.block_size = vj->p.block_size;
		/* The header is where verify_offset put it only in blocks of this size. */
		if (vj->swap_at && p.block_size <= len - at)
			swap_hdr(buf + at, vj->swap_at, p.hdr_len);
		/* A block written with another verify_interval is judged whole, if it fits. */
		else if (!vj->p.tmpl && bq_vhdr_decode(buf + at, &h) &&
		    h.length >= BQ_VERIFY_SECTOR && !(h.length % BQ_VERIFY_SECTOR) &&
		    h.length <= len - at)
			p.block_size = h.length;
		if (p.block_size > len - at)
			break;
		e.offset = off + at;
		cls = bq_verify_block(buf + at, &p, &e, &bad, &flags);
		if (cls != BQ_VCLASS_OK && w->job->verify_dump)
			bq_verify_dump(w, vj, file, buf + at, &p, &bad);
		bad_found(w, v, cls, &bad, flags);
		v->t->rep.blocks_checked++;
		v->t->rep.bytes_checked += p.block_size;
		at += p.block_size;
	}
}

static void check_read(struct bq_worker *w, struct bq_vworker *v, const struct bq_slot *s)
{
	struct bq_vjob *vj = v->job;
	const uint64_t *snap = v->snap + (size_t)(s - w->slots) * v->per_slot;
	uint8_t *buf = slot_buf(w, s);
	uint32_t bs = vj->p.block_size;

	if (!vj->st.gen) {
		check_self(w, v, buf, s->offset, s->len, s->file);
		return;
	}
	for (uint64_t off = s->offset; off < s->offset + s->len; off += bs, buf += bs, snap++) {
		struct bq_vexpect e = {
			.offset = off, .seed = vj->seed, .have_seed = vj->check_seed,
			.have_gen = vj->check_gen,
		};
		enum bq_verify_class cls;
		struct bq_vbad bad;
		unsigned int flags;
		uint64_t i, now;

		if (*snap == SNAP_UNTRACKED || !tracked(vj, off, &i)) {
			v->t->rep.not_checked++;
			continue;
		}
		/* A write issued while the read was in flight may have landed too. */
		now = __atomic_load_n(&vj->st.gen[i], __ATOMIC_ACQUIRE) & BQ_VGEN_MASK;
		if (*snap == SNAP_NONE && !now) {
			v->t->rep.not_checked++;
			continue;
		}
		if (vj->trims && bq_vtrim_check(w, v, buf, off, i))
			continue;
		e.gen_lo = *snap == SNAP_NONE ? 0 : *snap;
		e.gen_hi = now;
		if (vj->swap_at)
			swap_hdr(buf, vj->swap_at, vj->p.hdr_len);
		cls = bq_verify_block(buf, &vj->p, &e, &bad, &flags);
		if (cls != BQ_VCLASS_OK && w->job->verify_dump)
			bq_verify_dump(w, vj, s->file, buf, &vj->p, &bad);
		bad_found(w, v, cls, &bad, flags);
		v->t->rep.blocks_checked++;
		v->t->rep.bytes_checked += bs;
	}
}

/**
 * worker_verify_complete() - a verifying job's I/O finished
 * @w: the worker
 * @s: the I/O
 * @res: bytes transferred or -errno
 */
void worker_verify_complete(struct bq_worker *w, const struct bq_slot *s, int res)
{
	struct bq_vworker *v = w->verify;
	struct bq_vjob *vj = v->job;

	if (s->dir == BQ_READ) {
		if (res == (int)s->len)
			check_read(w, v, s);
		return;
	}
	/* A failed write may have landed in part: its blocks stay "either generation". */
	if (res != (int)s->len)
		return;
	/* verify passes with a backlog: fio's offset-sorted log; without: sorted at the end */
	if (vj->trims && !v->phase)
		bq_vtrim_write_done(w, v, s->offset, s->len);
	if (vj->backlog && w->verify_passes && !v->phase)
		bq_vhist_push_latest(&v->hist, s->offset, s->len);
	else if ((vj->backlog || w->verify_passes) && !v->phase)
		bq_vhist_push(&v->hist, s->offset, s->len);
	for (uint64_t off = s->offset; off < s->offset + s->len; off += vj->p.block_size) {
		uint64_t i;

		if (tracked(vj, off, &i))
			__atomic_fetch_sub(&vj->st.gen[i], BQ_VGEN_ONE_INFLIGHT, __ATOMIC_RELEASE);
	}
}

/* All threads are there: the round is over (the mutex held). */
static void barrier_release(struct bq_vjob *vj)
{
	/* The device's counters end here, before the first read-back adds to them. */
	if (!vj->io_done_called && vj->io_done)
		vj->io_done(vj->io_done_a, vj->io_done_b);
	vj->io_done_called = true;
	vj->arrived = 0;
	vj->round++;
	pthread_cond_broadcast(&vj->cond);
}

/*
 * Every thread of the job still writing waits here, so the read-back sees
 * all of its writes; with verify passes this happens once a pass, and a
 * thread whose passes are over leaves (worker_verify_leave()).
 */
static void job_barrier(struct bq_vjob *vj)
{
	unsigned int round;

	pthread_mutex_lock(&vj->lock);
	round = vj->round;
	if (++vj->arrived >= vj->members)
		barrier_release(vj);
	while (round == vj->round)
		pthread_cond_wait(&vj->cond, &vj->lock);
	pthread_mutex_unlock(&vj->lock);
}

/**
 * worker_verify_leave() - a thread's passes are over: the others go on without it
 * @w: the worker (verifying)
 */
void worker_verify_leave(struct bq_worker *w)
{
	struct bq_vjob *vj = w->verify->job;

	pthread_mutex_lock(&vj->lock);
	vj->members--;
	if (vj->arrived && vj->arrived >= vj->members)
		barrier_release(vj);
	pthread_mutex_unlock(&vj->lock);
}

/**
 * worker_verify_passes() - whether a thread writes and reads back in fio's passes
 * @w: the worker
 *
 * fio reads back after each pass over a job's offsets, and a job whose
 * holes end a pass early starts another while its reads and writes are
 * short of io_size (size): so does blkqual, for rw=write:N.  Each pass
 * reads back the writes that pass made and no later one overlaps; so
 * does each of loops=N, as fio's verify reads its own loop's writes.
 *
 * Return: true for a verifying writer (not time based, not zoned) with
 * holes or loops.
 */
bool worker_verify_passes(const struct bq_worker *w)
{
	const struct bq_vworker *v = w->verify;
	const struct bq_job *j = w->job;

	return v && v->job->writes && v->job->do_phase && !v->job->verify_only &&
	       v->job->st.gen && !j->time_based && !w->zbd && (j->seq_add || j->loops > 1);
}

/**
 * worker_verify_read_bytes() - bytes the thread's verify phases have read
 * @w: the worker
 *
 * Return: the sum over its phases so far.
 */
uint64_t worker_verify_read_bytes(const struct bq_worker *w)
{
	return w->verify ? w->verify->t->phase.d[BQ_READ].bytes : 0;
}

/**
 * worker_verify_phase() - the writes are done: read them back?
 * @w: the worker
 * @ret: how its I/O loop ended (0, or -errno)
 *
 * Waits for every thread of the job, then switches the worker to the
 * verify phase: its results go to the phase's figures, no deadline, no
 * rate limit, and its share of the written blocks to read.
 *
 * Return: true to run the I/O loop again for the phase.
 */
bool worker_verify_phase(struct bq_worker *w, int ret)
{
	struct bq_vworker *v = w->verify;
	struct bq_vjob *vj = v->job;
	uint64_t n = vj->st.nblocks, share;

	w->io_end_ns = bq_now_ns();
	job_barrier(vj);
	if (ret || !vj->writes || !vj->do_phase || !vj->st.gen || *w->stop || w->stopping)
		return false;
	if ((vj->backlog || w->verify_passes) && !bq_vhist_len(&v->hist))
		return false;
	if (w->verify_passes)
		bq_vhist_sort_latest(&v->hist);
	share = (n + (uint64_t)vj->nr_threads - 1) / (uint64_t)vj->nr_threads;
	v->cursor = share * v->thread;
	v->end = v->cursor + share < n ? v->cursor + share : n;
	v->max_run = (uint32_t)(w->buf_len / vj->p.block_size);
	v->phase = true;
	v->saved_res = w->res;
	v->saved_depth_sum = w->depth_sum;
	v->saved_depth_samples = w->depth_samples;
	w->depth_sum = w->depth_samples = 0;
	w->res = &v->t->phase;
	w->end_ns = 0;
	w->bytes_left = UINT64_MAX;
	w->ramping = false;
	bq_thread_cpu(&v->cpu_mark);
	v->t->phase_ran = true;
	v->t->phase_start_ns = bq_now_ns();
	return true;
}

/**
 * worker_verify_phase_end() - back from the verify phase
 * @w: the worker
 *
 * The phase's CPU time and queue depth are its own; the job's figures
 * go on as if it had not happened.
 */
void worker_verify_phase_end(struct bq_worker *w)
{
	struct bq_vworker *v = w->verify;
	struct bq_thread_result *ph = &v->t->phase;
	struct bq_thread_cpu m;

	v->t->phase_end_ns = bq_now_ns();
	bq_thread_cpu(&m);
	ph->usr_ns = m.usr_ns - v->cpu_mark.usr_ns;
	ph->sys_ns = m.sys_ns - v->cpu_mark.sys_ns;
	ph->vol_cs = m.vol_cs - v->cpu_mark.vol_cs;
	ph->invol_cs = m.invol_cs - v->cpu_mark.invol_cs;
	w->ru_start.usr_ns += ph->usr_ns;
	w->ru_start.sys_ns += ph->sys_ns;
	w->ru_start.vol_cs += ph->vol_cs;
	w->ru_start.invol_cs += ph->invol_cs;
	if (w->depth_samples)
		ph->mean_depth = (double)w->depth_sum / (double)w->depth_samples;
	w->depth_sum = v->saved_depth_sum;
	w->depth_samples = v->saved_depth_samples;
	w->res = v->saved_res;
	v->phase = false;
}

/* ---- set-up and results ---------------------------------------------------------- */

static int state_mismatch(const struct bq_vstate_disk *h, const struct bq_vident *id,
			  const struct bq_job *j, uint64_t base, uint64_t span,
			  struct bq_parse_error *err, const char *where)
{
	uint64_t end = h->region_offset + h->nblocks * h->block_size;

	if (id->size != h->target_size || id->dev != h->dev || id->ino != h->ino ||
	    (id->identity[0] && h->identity[0] && strcmp(id->identity, h->identity)))
		return bq_fail_at(err, where, -EINVAL, "it records %s (%llu bytes), not this "
				  "target; name another state file", h->target,
				  (unsigned long long)h->target_size);
	if ((int)h->method != j->verify)
		return bq_fail_at(err, where, -EINVAL, "it records verify=%s, the job has verify=%s",
				  bq_verify_method_name((enum bq_verify_method)h->method),
				  bq_verify_method_name((enum bq_verify_method)j->verify));
	if ((h->method == BQ_VERIFY_PATTERN || h->method == BQ_VERIFY_META) &&
	    j->verify_pattern_len &&
	    (h->pattern_len != j->verify_pattern_len ||
	     memcmp(h->pattern, j->verify_pattern, h->pattern_len)))
		return bq_fail_at(err, where, -EINVAL, "it records another verify_pattern");
	if (base < h->region_offset || base + span > end || (base - h->region_offset) %
	    h->block_size)
		return bq_fail_at(err, where, -EINVAL, "the job's region is not inside the one it "
				  "records (offset %llu, %llu bytes)",
				  (unsigned long long)h->region_offset,
				  (unsigned long long)(end - h->region_offset));
	return 0;
}

/* The job's sizes against a block size it did not choose (the state's). */
static int sizes_fit(const struct bq_job *j, uint32_t bs, struct bq_parse_error *err,
		     const char *where)
{
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		bool ok = !(j->bs[d] % bs) && !(j->bs_min[d] % bs);

		for (int i = 0; ok && i < j->nr_bssplit[d]; i++)
			ok = !(j->bssplit[d][i].bs % bs);
		if (!ok)
			return bq_fail_at(err, where, -EINVAL, "its block size %u does not divide the "
					  "job's block sizes", bs);
	}
	if (j->ba % bs || j->offset % bs || j->io_size % bs)
		return bq_fail_at(err, where, -EINVAL, "its block size %u does not divide the job's "
				  "ba, offset or io_size", bs);
	return 0;
}

static void disk_template(struct bq_vstate_disk *d, const struct bq_job *j,
			  const struct bq_vident *id, uint32_t bs, uint64_t base, uint64_t span)
{
	struct timespec ts;

	memset(d, 0, sizeof(*d));
	memcpy(d->magic, BQ_VSTATE_MAGIC, sizeof(d->magic));
	d->version = BQ_VSTATE_VERSION;
	d->header_size = BQ_VSTATE_HDR;
	d->method = (uint32_t)j->verify;
	d->block_size = bs;
	d->seed = bq_verify_new_seed();
	d->region_offset = base;
	d->nblocks = span / bs;
	d->target_size = id->size;
	d->lbs = id->lbs;
	d->dev = id->dev;
	d->ino = id->ino;
	clock_gettime(CLOCK_REALTIME, &ts);
	d->created_unix_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	d->pattern_len = j->verify_pattern_len;
	memcpy(d->pattern, j->verify_pattern, j->verify_pattern_len);
	bq_strlcpy(d->target, id->target, sizeof(d->target));
	bq_strlcpy(d->devname, id->devname, sizeof(d->devname));
	bq_strlcpy(d->identity, id->identity, sizeof(d->identity));
	bq_strlcpy(d->model, id->model, sizeof(d->model));
}

static int open_state(struct bq_ctx *ctx, struct bq_vjob *vj, const struct bq_job_result *jr,
		      int tfd, uint64_t base, uint64_t span, const char *path, uint32_t *bs,
		      struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	struct bq_vstate_disk tmpl;
	struct bq_vident id;
	char why[256];
	int fd, ret;

	/* The run's own descriptor of the target, never its name again. */
	fd = bq_fd_reopen(tfd, O_RDONLY);
	if (fd < 0)
		return bq_fail_at(err, jr->targets[0].path, fd, "%s", strerror(-fd));
	ret = bq_vident_read(ctx, jr->targets[0].path, fd, &id);
	close(fd);
	if (ret)
		return bq_fail_at(err, jr->targets[0].path, ret, "%s", strerror(-ret));
	if (!path) {
		disk_template(&tmpl, j, &id, *bs, base, span);
		ret = bq_vstate_anon(&tmpl, &vj->st);
		return ret ? bq_fail_at(err, "verify", ret, "cannot map the block generations: %s",
					strerror(-ret)) : 0;
	}
	ret = bq_vstate_open(path, vj->writes, &vj->st, why, sizeof(why));
	if (ret == -ENOENT && vj->writes && !j->verify_only) {
		disk_template(&tmpl, j, &id, *bs, base, span);
		ret = bq_vstate_create(path, &tmpl, &vj->st);
		if (ret)
			return bq_fail_at(err, "--verify-state", ret, "%s: %s", path, strerror(-ret));
		vj->created = true;
		return 0;
	}
	if (ret == -ENOENT)
		return bq_fail_at(err, "--verify-state", ret, "%s: no such state file (a job that "
				  "writes with verify= makes one)", path);
	if (ret)
		return bq_fail_at(err, "--verify-state", ret, "%s: %s", path, why);
	snprintf(why, sizeof(why), "--verify-state=%s", path);
	ret = state_mismatch(vj->st.hdr, &id, j, base, span, err, why);
	if (!ret)
		ret = sizes_fit(j, vj->st.hdr->block_size, err, why);
	*bs = vj->st.hdr->block_size;
	return ret;
}

/**
 * bq_verify_job_setup() - a job's verification, before its first I/O
 * @ctx: context
 * @jr: the job, its targets open
 * @fd: the run's descriptor of its target
 * @base: byte offset of its region
 * @span: bytes of the region
 * @state_path: --verify-state, or NULL
 * @out: receives the job's verify data, or NULL when it does not verify
 * @err: why not
 *
 * Return: 0 or -errno.
 */
int bq_verify_job_setup(struct bq_ctx *ctx, struct bq_job_result *jr, int fd, uint64_t base,
			uint64_t span, const char *state_path, struct bq_vjob **out,
			struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	struct bq_vjob *vj;
	uint32_t bs;
	int ret;

	*out = NULL;
	if (!j->verify)
		return 0;
	if (j->stripe)
		return bq_fail_at(err, "verify", -EINVAL, "not supported with --stripe");
	if (jr->nr_targets != 1)
		return bq_fail_at(err, "verify", -EINVAL, "works on one filename per job");
	vj = calloc(1, sizeof(*vj));
	if (!vj)
		return -ENOMEM;
	vj->st.fd = -1;
	vj->writes = bq_job_writes(j);
	vj->do_phase = j->do_verify || j->verify_only;
	vj->verify_only = j->verify_only && vj->writes;
	vj->fatal = j->verify_fatal;
	vj->check_seed = j->verify_header_seed;
	vj->check_gen = j->verify_write_sequence;
	vj->backlog = vj->writes && !j->verify_only ? j->verify_backlog : 0;
	vj->backlog_batch = j->verify_backlog_batch ? j->verify_backlog_batch : j->verify_backlog;
	vj->swap_at = j->verify_offset;
	vj->base = base;
	pthread_mutex_init(&vj->lock, NULL);
	pthread_cond_init(&vj->cond, NULL);
	*out = vj;
	bs = bq_job_verify_block(j);
	if (vj->verify_only && !state_path)
		return bq_fail_at(err, "verify_only", -EINVAL, "needs --verify-state FILE: without "
				  "it nothing records what was written");
	/* The state does not record it, so blkqual verify would find no headers. */
	if (vj->swap_at && state_path)
		return bq_fail_at(err, "verify_offset", -EOPNOTSUPP, "not supported with "
				  "--verify-state");
	if (state_path || vj->writes) {
		ret = open_state(ctx, vj, jr, fd, base, span, state_path, &bs, err);
		if (ret)
			return ret;
		vj->state_file = state_path != NULL;
		vj->seed = vj->st.hdr->seed;
		/* The state's block 0 may lie before the job's region. */
		vj->base = vj->st.hdr->region_offset;
		if (state_path)
			bq_strlcpy(vj->state_path, state_path, sizeof(vj->state_path));
	}
	ret = bq_vtrim_setup(vj, j);
	if (ret)
		return ret;
	vj->zero_trims = j->trim_verify_zero;
	if ((j->direct || bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU)) && bs % jr->targets[0].lbs)
		return bq_fail_at(err, "verify", -EINVAL, "verify block %u is not a multiple of %s "
				  "%u", bs, bq_target_align_name(&jr->targets[0]),
				  jr->targets[0].lbs);
	if (span / bs == 0)
		return bq_fail_at(err, "verify", -EINVAL, "the region holds no whole verify block");
	ret = bq_vparams_init(&vj->p, (enum bq_verify_method)j->verify, bs,
			      vj->st.hdr ? vj->st.hdr->pattern : j->verify_pattern,
			      vj->st.hdr ? vj->st.hdr->pattern_len : j->verify_pattern_len);
	if (ret == -EOPNOTSUPP)
		return bq_fail_at(err, "verify", ret, "libcrypto has no %s here",
				  bq_verify_method_name((enum bq_verify_method)j->verify));
	if (ret)
		return bq_fail_at(err, "verify", ret, "cannot set up blocks of %u bytes", bs);
	if (vj->swap_at && (vj->swap_at < vj->p.hdr_len || vj->swap_at > bs - vj->p.hdr_len))
		return bq_fail_at(err, "verify_offset", -EINVAL, "%u does not leave room for the "
				  "%u-byte header in a %u-byte block", vj->swap_at, vj->p.hdr_len,
				  bs);
	vj->nr_threads = jr->nr_threads;
	vj->members = jr->nr_threads;
	vj->threads = calloc((size_t)vj->nr_threads, sizeof(*vj->threads));
	vj->workers = calloc((size_t)vj->nr_threads, sizeof(*vj->workers));
	if (!vj->threads || !vj->workers)
		return -ENOMEM;
	return 0;
}

/**
 * bq_verify_worker_init() - hang a job's verification off one of its threads
 * @vj: the job's
 * @w: the worker, its buffers sized and its depth set
 * @index: thread index within the job
 *
 * Return: 0 or -ENOMEM.
 */
int bq_verify_worker_init(struct bq_vjob *vj, struct bq_worker *w, int index)
{
	struct bq_vworker *v = &vj->workers[index];
	struct timespec rt, mt;

	v->job = vj;
	v->t = &vj->threads[index];
	v->thread = (uint32_t)index;
	v->trim_rng = vj->seed ^ bq_mix64((uint64_t)index);
	v->per_slot = (uint32_t)(w->buf_len / vj->p.block_size);
	if (!v->per_slot)
		v->per_slot = 1;
	v->snap = calloc((size_t)w->depth * v->per_slot, sizeof(*v->snap));
	if (!v->snap)
		return -ENOMEM;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (bq_hist_init(&v->t->phase.d[d].lat))
			return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mt);
	v->wall_offset = ((uint64_t)rt.tv_sec - (uint64_t)mt.tv_sec) * 1000000000ULL +
			 (uint64_t)rt.tv_nsec - (uint64_t)mt.tv_nsec;
	w->verify = v;
	return 0;
}

static void phase_sum(struct bq_verify_report *r, const struct bq_vjob *vj)
{
	uint64_t start = UINT64_MAX, end = 0;

	for (int i = 0; i < vj->nr_threads; i++) {
		const struct bq_vthread *t = &vj->threads[i];
		const struct bq_thread_result *p = &t->phase;

		if (!t->phase_ran)
			continue;
		r->phase_ran = true;
		if (t->phase_start_ns < start)
			start = t->phase_start_ns;
		if (t->phase_end_ns > end)
			end = t->phase_end_ns;
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			r->phase.d[d].ios += p->d[d].ios;
			r->phase.d[d].bytes += p->d[d].bytes;
			r->phase.d[d].errors += p->d[d].errors;
			if (p->d[d].lat.buckets)
				bq_hist_merge(&r->phase.d[d].lat, &p->d[d].lat);
		}
		r->phase.usr_ns += p->usr_ns;
		r->phase.sys_ns += p->sys_ns;
		r->phase.mean_depth += p->mean_depth / vj->nr_threads;
		for (int e = 0; e < p->nr_errors && r->phase.nr_errors < BQ_MAX_IO_ERRORS; e++)
			r->phase.errors[r->phase.nr_errors++] = p->errors[e];
		bq_io_error_groups_merge(&r->phase, p);
	}
	if (r->phase_ran && end > start)
		r->phase_runtime_ns = end - start;
}

/**
 * bq_verify_job_end() - the run is over: sum up, flush and close the state
 * @vj: the job's verification (NULL: nothing to do); freed
 * @jr: receives the report in @jr->verify
 * @ran: the run started (a state file this run made is removed otherwise)
 */
void bq_verify_job_end(struct bq_vjob *vj, struct bq_job_result *jr, bool ran)
{
	struct bq_verify_report *r;

	if (!vj)
		return;
	r = calloc(1, sizeof(*r));
	if (r && ran) {
		r->method = vj->p.method;
		r->block_size = vj->p.block_size;
		r->seed = vj->seed;
		bq_strlcpy(r->state_path, vj->state_path, sizeof(r->state_path));
		for (int d = 0; d < BQ_NR_DIRS; d++)
			bq_hist_init(&r->phase.d[d].lat);
		for (int i = 0; vj->threads && i < vj->nr_threads; i++)
			bq_verify_report_merge(r, &vj->threads[i].rep);
		if (vj->threads)
			phase_sum(r, vj);
		/* verify_dump wrote its files to the current directory. */
		r->dumped = vj->dumped;
		if (r->dumped && !getcwd(r->dump_dir, sizeof(r->dump_dir)))
			r->dump_dir[0] = '\0';
		jr->verify = r;
	} else {
		free(r);
	}
	/* A trimmed block holds no data now: a later blkqual verify must not expect any. */
	for (uint64_t i = 0; vj->trimmed && vj->st.gen && i < vj->st.nblocks; i++)
		if (bq_vtrim_is_trimmed(vj, i))
			vj->st.gen[i] = 0;
	bq_vstate_close(&vj->st);
	if (vj->created && !ran)
		unlink(vj->state_path);
	for (int i = 0; vj->workers && i < vj->nr_threads; i++) {
		free(vj->workers[i].snap);
		bq_vhist_free(&vj->workers[i].hist);
		bq_vhist_free(&vj->workers[i].trims);
	}
	for (int i = 0; vj->threads && i < vj->nr_threads; i++)
		for (int d = 0; d < BQ_NR_DIRS; d++)
			bq_hist_free(&vj->threads[i].phase.d[d].lat);
	bq_vparams_free(&vj->p);
	free(vj->trimmed);
	pthread_mutex_destroy(&vj->lock);
	pthread_cond_destroy(&vj->cond);
	free(vj->threads);
	free(vj->workers);
	free(vj);
}
