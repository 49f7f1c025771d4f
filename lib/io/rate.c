// SPDX-License-Identifier: GPL-2.0-only
/*
 * rate.c - fio's rate family: rate and rate_iops caps (linear or
 * poisson), rate_min over ratecycle, thinktime with its blocks, spin and
 * iotime, max_latency, latency_target's depth search, steadystate
 *
 * Everything is per thread, as in fio, where each of numjobs is a job of
 * its own.  The schedule of a capped direction is absolute from the
 * thread's start: a thread that fell behind catches up, as fio's does.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/rate.h"

#define NS_PER_S 1000000000ULL
/* fio gives a job two seconds before rate_min is first judged. */
#define RATE_MIN_SETTLE_NS (2 * NS_PER_S)
/* Long waits are cut into slices, so that a stop (^C) is seen in time. */
#define WAIT_SLICE_NS (100 * 1000000ULL)

struct rate_dir {
	uint64_t bps;		/* 0: this direction is not capped */
	double gap_ns;		/* poisson mean gap, or rate_iops with bssplit's period */
	bool per_io;		/* the schedule advances per I/O, not per byte */
	uint64_t issued;	/* bytes issued, for the linear schedule */
	double last_ns;		/* per-I/O schedule, since the start */
	uint64_t next_ns;	/* the next I/O may go this long after the start */
	uint64_t done_bytes;	/* never reset (ramp_time resets the report's) */
	uint64_t done_ios;
	bool cycle_on;		/* rate_min: a ratecycle is being measured */
	uint64_t cycle_start;
	uint64_t cycle_bytes;
	uint64_t cycle_ios;
};

struct bq_rate {
	uint64_t t0;
	bool capped;
	bool mixed;
	int pending;		/* the direction the gate let through, or -1 */
	struct rate_dir d[BQ_NR_DIRS];
	uint64_t rng;

	int last_dir;
	bool think_due;
	uint64_t think_issued;
	uint64_t think_done;
	uint64_t think_last;	/* the count at the last pause */
	uint64_t think_last_ns;

	bool check_min;

	unsigned int qd, qd_low, qd_high, stable;
	bool quiesce;
	bool end_run;
	uint64_t win_start, win_ios, win_failed;

	struct bq_ss_window *ss;	/* steadystate's window (rate_ss.c), or NULL */
};

static uint64_t done_ios(const struct bq_rate *r);
static void lat_new_cycle(struct bq_rate *r, uint64_t now);

bool bq_rate_wanted(const struct bq_job *j)
{
	/* A trim-only job has no reads or writes to cap: its trim value is trim_rate.c's. */
	bool rw = j->trim != BQ_TRIM_ONLY;

	for (int d = 0; d < BQ_NR_DIRS; d++)
		if ((rw && (j->rate[d] || j->rate_iops_rw[d] || j->rate_min[d] ||
			    j->rate_iops_min[d])) || j->max_latency_ns[d])
			return true;
	return j->thinktime_ns || j->latency_target_ns || j->ss_dur_ns >= NS_PER_S;
}

int bq_rate_init(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_rate *r;

	w->rate = w->rate_mem = NULL;
	if (!bq_rate_wanted(j))
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->pending = -1;
	r->mixed = j->rw == BQ_RW_RW || j->rw == BQ_RW_RANDRW;
	/* Its own stream, so that capping a job does not change its offsets. */
	r->rng = ((j->randrepeat ? j->randseed : j->randseed ^ bq_now_ns()) +
		  0x5851f42d4c957f2dULL) * 0x9e3779b97f4a7c15ULL + (uint64_t)w->index;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		struct rate_dir *rd = &r->d[d];
		uint64_t bs = j->bs_min[d] ? j->bs_min[d] : 1;

		/* rate_iops is a byte rate at the smallest block size, as in fio. */
		rd->bps = j->rate[d] ? j->rate[d] : j->rate_iops_rw[d] * bs;
		if (!rd->bps)
			continue;
		r->capped = true;
		if (j->rate_poisson) {
			rd->per_io = true;
			rd->gap_ns = (double)NS_PER_S * (double)bs / (double)rd->bps;
		} else if (!j->rate[d] && j->nr_bssplit[d]) {
			/* fio keeps the IOPS asked for, whatever sizes bssplit draws. */
			rd->per_io = true;
			rd->gap_ns = (double)NS_PER_S / (double)j->rate_iops_rw[d];
		}
	}
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (j->rate_min[d] || j->rate_iops_min[d])
			r->check_min = true;
	r->qd = j->latency_target_ns ? 1 : w->depth;
	r->qd_low = 1;
	r->qd_high = w->depth;
	/* fio judges a group's summed figures; here a job's threads are its group. */
	if (bq_ss_get(j, j->group_reporting && j->numjobs > 1 ? (const void *)w->jr : NULL,
		      &r->ss)) {
		free(r);
		return -ENOMEM;
	}
	w->rate = w->rate_mem = r;
	return 0;
}

void bq_rate_start(struct bq_worker *w, uint64_t start)
{
	struct bq_rate *r = w->rate;

	if (!r)
		return;
	r->t0 = start;
	r->think_last_ns = start;
	r->win_start = start;
	bq_ss_start(r->ss, start);
	w->next_submit_ns = start;
}

void bq_rate_ramp_end(struct bq_worker *w, uint64_t now)
{
	struct bq_rate *r = w->rate;

	if (!r)
		return;
	/* fio restarts its clock here: schedules, rate_min's grace, ss_ramp, the depth search. */
	r->t0 = now;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		struct rate_dir *rd = &r->d[d];

		rd->issued = 0;
		rd->last_ns = 0;
		rd->next_ns = 0;
		rd->cycle_on = false;
	}
	r->think_last_ns = now;
	bq_ss_ramp_end(r->ss, now);
	if (w->job->latency_target_ns && !r->end_run) {
		r->qd = 1;
		r->qd_low = 1;
		r->qd_high = w->depth;
		r->stable = 0;
		lat_new_cycle(r, now);
	}
}

static uint64_t clip_to_end(const struct bq_worker *w, uint64_t t)
{
	return w->end_ns && t > w->end_ns ? w->end_ns : t;
}

/*
 * thinktime: drain, spin thinktime_spin, sleep the rest of thinktime,
 * never past the job's end.  With rate_ignore_thinktime the schedule of
 * the last I/O's direction moves on by the pause, less one I/O, so that
 * the thread goes on at its rate instead of catching up in a burst.
 */
static void think_pause(struct bq_worker *w, struct bq_rate *r, uint64_t now)
{
	const struct bq_job *j = w->job;
	uint64_t spin_end = clip_to_end(w, now + j->thinktime_spin_ns), t = now, total;
	struct rate_dir *rd = &r->d[r->last_dir];

	while (j->thinktime_spin_ns && t < spin_end)
		t = worker_now(w);
	total = t - now;
	if (total < j->thinktime_ns) {
		t = worker_wait_until(w, clip_to_end(w, t + (j->thinktime_ns - total)), t);
		total = t - now;
	}
	if (total && rd->bps && j->rate_ignore_thinktime) {
		uint64_t missed = (uint64_t)((unsigned __int128)rd->bps * total / NS_PER_S);
		uint64_t bs = j->bs_min[r->last_dir];
		uint64_t per_op = (uint64_t)((unsigned __int128)bs * NS_PER_S / rd->bps);
		uint64_t over = per_op <= total ? bs : 0;

		if (missed > over)
			rd->issued += missed - over;
		rd->last_ns += (double)total;
		rd->next_ns = rd->per_io ? (uint64_t)rd->last_ns :
			      (uint64_t)((unsigned __int128)rd->issued * NS_PER_S / rd->bps);
	}
	w->res->rates.think_pauses++;
	if (j->thinktime_iotime_ns)
		r->think_last_ns = t;
}

/* fio's rule for when a pause is due: every thinktime_iotime, or every thinktime_blocks. */
static bool think_due(const struct bq_job *j, struct bq_rate *r, uint64_t now)
{
	uint64_t b = j->thinktime_blocks_issue ? r->think_issued : r->think_done;

	if (j->thinktime_iotime_ns) {
		if (now >= r->think_last_ns + j->thinktime_iotime_ns) {
			r->think_last = b;
			return true;
		}
		/* Its default of 1 would pause after every I/O: iotime alone decides. */
		if (!j->thinktime_blocks_set)
			return false;
	}
	if (b < r->think_last + j->thinktime_blocks)
		return false;
	r->think_last = b;
	return true;
}

/*
 * fio's choice between directions: the one drawn if it is due; if not,
 * the other if it is due (and the mix has any); else wait for whichever
 * comes due first.  Return: 0 to issue now, or the time to wait for.
 */
static uint64_t rate_gate(struct bq_worker *w, struct bq_rate *r, uint64_t now)
{
	const struct bq_job *j = w->job;
	uint64_t rel = now > r->t0 ? now - r->t0 : 0, wait;
	int dir, odir;

	if (r->pending < 0)
		r->pending = worker_draw_dir(w);
	dir = r->pending;
	odir = dir ^ 1;
	if (r->d[dir].next_ns <= rel)
		return 0;
	if (r->mixed && (odir == BQ_READ ? j->rwmixread : 100 - j->rwmixread)) {
		if (r->d[odir].next_ns <= rel) {
			r->pending = odir;
			return 0;
		}
		if (r->d[odir].next_ns < r->d[dir].next_ns)
			r->pending = odir;
	}
	wait = r->d[r->pending].next_ns;
	return r->t0 + wait;
}

bool bq_rate_may_start(struct bq_worker *w, unsigned int busy, uint64_t now)
{
	struct bq_rate *r = w->rate;
	const struct bq_job *j = w->job;
	uint64_t until;

	/* The workload's end is worker_pick()'s to find. */
	if (w->stopping || *w->stop || (w->end_ns && now >= w->end_ns))
		return true;
	/* fio pauses after the I/O that completes a count, the last one too. */
	if (j->thinktime_ns) {
		if (!r->think_due)
			r->think_due = think_due(j, r, now);
		if (r->think_due) {
			if (busy)
				return false;
			r->think_due = false;
			think_pause(w, r, now);
			now = worker_now(w);
			if (w->end_ns && now >= w->end_ns)
				return true;
		}
	}
	if (!w->bytes_left)
		return true;
	if (r->quiesce) {
		if (busy)
			return false;
		r->quiesce = false;
	}
	if (j->latency_target_ns && busy >= r->qd)
		return false;
	if (!r->capped)
		return true;
	until = rate_gate(w, r, now);
	if (!until)
		return true;
	/* Ahead of the rate: fio lets what is in flight finish, then sleeps. */
	if (until > now + WAIT_SLICE_NS)
		until = now + WAIT_SLICE_NS;
	w->next_submit_ns = clip_to_end(w, until);
	return false;
}

int bq_rate_dir(struct bq_worker *w)
{
	struct bq_rate *r = w->rate;
	int dir = r->pending;

	r->pending = -1;
	return dir < 0 ? worker_draw_dir(w) : dir;
}

void bq_rate_issued(struct bq_worker *w, const struct bq_slot *s)
{
	struct bq_rate *r = w->rate;
	struct rate_dir *rd = &r->d[s->dir];

	r->last_dir = s->dir;
	r->think_issued++;
	if (!rd->bps)
		return;
	rd->issued += s->len;
	if (w->job->rate_poisson) {
		/* Exponential gaps: a Poisson process of rate bps / smallest block. */
		rd->last_ns += rd->gap_ns * -log(bq_uniform01(&r->rng));
		rd->next_ns = (uint64_t)rd->last_ns;
	} else if (rd->per_io) {
		rd->last_ns += rd->gap_ns;
		rd->next_ns = (uint64_t)rd->last_ns;
	} else {
		rd->next_ns = (uint64_t)((unsigned __int128)rd->issued * NS_PER_S / rd->bps);
	}
}

static void fail(struct bq_worker *w, int why, int dir, uint64_t got, uint64_t limit)
{
	struct bq_rate_result *rr = &w->res->rates;

	if (rr->fail)
		return;
	rr->fail = why;
	rr->fail_dir = dir;
	rr->fail_got = got;
	rr->fail_limit = limit;
}

/*
 * rate_min / rate_iops_min: after two seconds, each ratecycle's average
 * must reach the minimum, or the thread ends with an error (fio's EIO).
 */
static void check_min_rate(struct bq_worker *w, struct bq_rate *r, uint64_t now)
{
	const struct bq_job *j = w->job;

	if (now < r->t0 + RATE_MIN_SETTLE_NS || w->ramping)
		return;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		struct rate_dir *rd = &r->d[d];
		uint64_t spent, got;

		if (!rd->done_bytes || (!j->rate_min[d] && !j->rate_iops_min[d]))
			continue;
		if (rd->cycle_on) {
			if (now < rd->cycle_start + (uint64_t)j->ratecycle_ms * 1000000ULL)
				continue;
			spent = now - rd->cycle_start;
			if (j->rate_min[d]) {
				got = (uint64_t)((unsigned __int128)(rd->done_bytes - rd->cycle_bytes) *
						 NS_PER_S / spent);
				if (got < j->rate_min[d]) {
					fail(w, BQ_RATE_MIN_FAILED, d, got, j->rate_min[d]);
					w->stopping = true;
					return;
				}
			} else {
				got = (rd->done_ios - rd->cycle_ios) * NS_PER_S / spent;
				if (got < j->rate_iops_min[d]) {
					fail(w, BQ_RATE_MIN_FAILED, d, got, j->rate_iops_min[d]);
					w->stopping = true;
					return;
				}
			}
		}
		rd->cycle_on = true;
		rd->cycle_start = now;
		rd->cycle_bytes = rd->done_bytes;
		rd->cycle_ios = rd->done_ios;
	}
}

static uint64_t done_ios(const struct bq_rate *r)
{
	return r->d[BQ_READ].done_ios + r->d[BQ_WRITE].done_ios;
}

static void lat_new_cycle(struct bq_rate *r, uint64_t now)
{
	r->win_start = now;
	r->win_ios = done_ios(r);
	r->win_failed = 0;
}

/* Over the target: halve the way down to the last good depth.  False at depth 1. */
static bool lat_ramp_down(struct bq_rate *r, uint64_t now)
{
	if (r->qd == 1)
		return false;
	r->qd_high = r->qd;
	if (r->qd == r->qd_low)
		r->qd_low--;
	r->qd = (r->qd + r->qd_low) / 2;
	r->stable = 0;
	r->quiesce = true;
	lat_new_cycle(r, now);
	return true;
}

/*
 * A window met the target: double the depth until one fails, then
 * bisect.  The same depth twice is the answer: one more window there,
 * then the thread ends (unless latency_run).
 */
static void lat_ramp_up(struct bq_worker *w, struct bq_rate *r, uint64_t now)
{
	unsigned int qd = r->qd, max = w->depth;

	r->qd_low = r->qd;
	if (r->qd + 1 == r->qd_high && ++r->stable >= 3) {
		/* Stuck one under a failing depth: try it again now and then. */
		r->qd_high++;
		r->stable = 0;
	}
	if (r->qd_high != max)
		r->qd = (r->qd + r->qd_high) / 2;
	else
		r->qd *= 2;
	if (r->qd > max)
		r->qd = max;
	if (!w->job->latency_run && r->qd == qd) {
		if (r->end_run) {
			w->stopping = true;
		} else {
			r->quiesce = true;
			r->end_run = true;
		}
	}
	lat_new_cycle(r, now);
}

static void lat_window(struct bq_worker *w, struct bq_rate *r, uint64_t now)
{
	uint64_t ios;
	double ok;

	if (w->ramping || now < r->win_start + w->job->latency_window_ns)
		return;
	ios = done_ios(r) - r->win_ios;
	if (!ios)
		return;
	ok = 100.0 * (double)(ios - r->win_failed) / (double)ios;
	if (ok >= w->job->latency_percentile)
		lat_ramp_up(w, r, now);
	else
		lat_ramp_down(r, now);
}

void bq_rate_completed(struct bq_worker *w, const struct bq_slot *s, uint64_t now)
{
	struct bq_rate *r = w->rate;
	const struct bq_job *j = w->job;
	uint64_t t = now ? now : worker_now(w);

	r->think_done++;
	r->d[s->dir].done_bytes += s->len;
	r->d[s->dir].done_ios++;
	/* Latency is measured only with timestamps (not with gtod_reduce), as in fio. */
	if (now) {
		uint64_t lat = now - s->start_ns, max = j->max_latency_ns[s->dir];

		if (max && lat > max) {
			fail(w, BQ_RATE_MAX_LATENCY, s->dir, lat, max);
			worker_record_error(w, s, ETIMEDOUT);
		}
		if (j->latency_target_ns && lat > j->latency_target_ns) {
			if (j->latency_percentile < 100.0) {
				r->win_failed++;
			} else if (!lat_ramp_down(r, t)) {
				fail(w, BQ_RATE_LATENCY_TARGET, s->dir, lat, j->latency_target_ns);
				worker_record_error(w, s, ETIMEDOUT);
			}
		}
	}
	if (r->check_min)
		check_min_rate(w, r, t);
	if (j->latency_target_ns)
		lat_window(w, r, t);
	if (r->ss) {
		bq_ss_done(r->ss, s->len, now ? now - s->start_ns : 0);
		if (bq_ss_check(r->ss, t))
			w->stopping = true;
	}
}

void bq_rate_end(struct bq_worker *w)
{
	struct bq_rate *r = w->rate;

	if (!r)
		return;
	if (w->job->latency_target_ns)
		w->res->rates.lat_depth = r->qd;
	bq_ss_result(r->ss, &w->res->rates);
	w->rate = NULL;
}

void bq_rate_free(struct bq_worker *w)
{
	struct bq_rate *r = w->rate_mem;

	if (!r)
		return;
	bq_ss_put(r->ss);
	free(r);
	w->rate = w->rate_mem = NULL;
}
