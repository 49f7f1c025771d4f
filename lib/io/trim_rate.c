// SPDX-License-Identifier: GPL-2.0-only
/*
 * trim_rate.c - the trim value of rate and rate_iops (fio's third value)
 *
 * Trims are issued one at a time by the thread (trim.c), so the cap is a
 * schedule the thread waits for before each: linear, so that the trims
 * issued never run ahead of the rate since the first trim (a thread that
 * fell behind catches up, as fio's does), or rate_process=poisson's
 * exponential gaps of the same mean.  rate_iops is counted in trims, the
 * byte rate at the smallest block size being the same thing for fixed
 * sizes.
 */
#include <math.h>

#include "engine.h"

#define NS_PER_S 1000000000ULL

/* The trim's time on the schedule, after the first trim. */
static uint64_t trim_due(const struct bq_worker *w, const struct bq_job *j)
{
	if (j->rate_poisson)
		return (uint64_t)w->trim_rate_next_ns;
	if (j->rate_iops_trim)
		return w->trim_rate_ios * NS_PER_S / j->rate_iops_trim;
	return (uint64_t)((unsigned __int128)w->trim_rate_bytes * NS_PER_S / j->rate_trim);
}

/**
 * bq_trim_rate_wait() - wait until the trim schedule lets the next trim go
 * @w: the worker of a trim job
 * @len: the trim's length
 *
 * Return: false when the job's time ran out (or it was stopped) meanwhile.
 */
bool bq_trim_rate_wait(struct bq_worker *w, uint32_t len)
{
	const struct bq_job *j = w->job;
	uint64_t bs = j->bs_min[BQ_WRITE] ? j->bs_min[BQ_WRITE] : 4096, now, until;

	if (!j->rate_trim && !j->rate_iops_trim)
		return true;
	now = worker_now(w);
	if (!w->trim_rate_t0) {
		/* The schedule runs from the thread's start, as fio's does. */
		w->trim_rate_t0 = w->start_ns && w->start_ns < now ? w->start_ns : now;
		w->trim_rate_rng = (j->randrepeat ? j->randseed : j->randseed ^ now) +
				   (uint64_t)w->index * 0x5851f42d4c957f2dULL;
	}
	until = w->trim_rate_t0 + trim_due(w, j);
	if (w->end_ns && until > w->end_ns)
		until = w->end_ns;
	now = worker_wait_until(w, until, now);
	if (*w->stop || (w->end_ns && now >= w->end_ns))
		return false;
	w->trim_rate_bytes += len;
	w->trim_rate_ios++;
	if (j->rate_poisson) {
		double mean = j->rate_iops_trim ? (double)NS_PER_S / (double)j->rate_iops_trim :
			      (double)NS_PER_S * (double)bs / (double)j->rate_trim;

		w->trim_rate_next_ns += -log(bq_uniform01(&w->trim_rate_rng)) * mean;
	}
	return true;
}
