// SPDX-License-Identifier: GPL-2.0-only
/*
 * rate_ss.c - fio's steadystate: once an interval (ss_interval, a second by
 * default), the IOPS, bandwidth and mean completion latency of that
 * interval; over a window of ss_dur, the largest deviation from the mean
 * or the least squares slope, against the limit
 *
 * A thread has a window of its own; with group_reporting the threads of a
 * job share one, over their summed figures, and all end when it is met,
 * as fio's group does.  Whichever thread's completion finds the second
 * over takes the sample; the others only add to the counters.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "io/rate.h"

#define NS_PER_S 1000000000ULL

struct bq_ss_window {
	struct bq_ss_window *next;	/* in the list of shared windows */
	const void *key;	/* the job's, when shared; NULL: one thread's */
	int refs;
	pthread_mutex_t lock;
	const struct bq_job *job;

	uint64_t ios;		/* added to by every member, atomically */
	uint64_t bytes;
	uint64_t lat_ns;	/* completion latencies summed */
	uint64_t next_t;	/* the next sample is due then (read without the lock) */
	bool attained;		/* read without the lock */

	bool started;
	bool ramp_over;
	uint64_t interval;
	uint64_t t0, prev_t, prev_ios, prev_bytes, prev_lat;
	unsigned int n, count, head;
	uint64_t *iops, *bw, *lat;
	uint64_t samples;
	double crit, iops_mean, bw_mean, lat_mean;
};

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bq_ss_window *shared;

static void ss_free(struct bq_ss_window *ss)
{
	pthread_mutex_destroy(&ss->lock);
	free(ss->iops);
	free(ss->bw);
	free(ss->lat);
	free(ss);
}

static struct bq_ss_window *ss_new(const struct bq_job *j, const void *key)
{
	struct bq_ss_window *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	ss->key = key;
	ss->refs = 1;
	ss->job = j;
	ss->interval = j->ss_interval_ns;
	ss->n = (unsigned int)(j->ss_dur_ns / ss->interval);
	ss->iops = calloc(ss->n, sizeof(*ss->iops));
	ss->bw = calloc(ss->n, sizeof(*ss->bw));
	ss->lat = calloc(ss->n, sizeof(*ss->lat));
	if (!ss->iops || !ss->bw || !ss->lat || pthread_mutex_init(&ss->lock, NULL)) {
		free(ss->iops);
		free(ss->bw);
		free(ss->lat);
		free(ss);
		return NULL;
	}
	return ss;
}

int bq_ss_get(const struct bq_job *j, const void *key, struct bq_ss_window **out)
{
	struct bq_ss_window *ss;

	*out = NULL;
	if (!j->ss_interval_ns || j->ss_dur_ns < j->ss_interval_ns)
		return 0;
	if (!key) {
		*out = ss_new(j, NULL);
		return *out ? 0 : -ENOMEM;
	}
	pthread_mutex_lock(&shared_lock);
	for (ss = shared; ss && ss->key != key; ss = ss->next)
		;
	if (ss) {
		ss->refs++;
	} else {
		ss = ss_new(j, key);
		if (ss) {
			ss->next = shared;
			shared = ss;
		}
	}
	pthread_mutex_unlock(&shared_lock);
	*out = ss;
	return ss ? 0 : -ENOMEM;
}

void bq_ss_put(struct bq_ss_window *ss)
{
	struct bq_ss_window **p;

	if (!ss)
		return;
	if (!ss->key) {
		ss_free(ss);
		return;
	}
	pthread_mutex_lock(&shared_lock);
	if (--ss->refs) {
		pthread_mutex_unlock(&shared_lock);
		return;
	}
	for (p = &shared; *p && *p != ss; p = &(*p)->next)
		;
	if (*p)
		*p = ss->next;
	pthread_mutex_unlock(&shared_lock);
	ss_free(ss);
}

/* The clock starts (again) at @now: the first member's start, or ramp_time's end. */
static void ss_restart(struct bq_ss_window *ss, uint64_t now)
{
	ss->t0 = now;
	ss->prev_t = now;
	ss->prev_ios = __atomic_load_n(&ss->ios, __ATOMIC_RELAXED);
	ss->prev_bytes = __atomic_load_n(&ss->bytes, __ATOMIC_RELAXED);
	ss->prev_lat = __atomic_load_n(&ss->lat_ns, __ATOMIC_RELAXED);
	ss->ramp_over = !ss->job->ss_ramp_ns;
	ss->count = ss->head = 0;
	__atomic_store_n(&ss->next_t, now + ss->interval, __ATOMIC_RELAXED);
}

void bq_ss_start(struct bq_ss_window *ss, uint64_t now)
{
	if (!ss)
		return;
	pthread_mutex_lock(&ss->lock);
	if (!ss->started)
		ss_restart(ss, now);
	ss->started = true;
	pthread_mutex_unlock(&ss->lock);
}

void bq_ss_ramp_end(struct bq_ss_window *ss, uint64_t now)
{
	if (!ss)
		return;
	pthread_mutex_lock(&ss->lock);
	/* The group's members end their ramps within moments: the first restarts it. */
	if (now >= ss->t0 + ss->job->ramp_ns)
		ss_restart(ss, now);
	pthread_mutex_unlock(&ss->lock);
}

void bq_ss_done(struct bq_ss_window *ss, uint32_t len, uint64_t lat_ns)
{
	__atomic_fetch_add(&ss->ios, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ss->bytes, len, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ss->lat_ns, lat_ns, __ATOMIC_RELAXED);
}

static const uint64_t *ss_series(const struct bq_ss_window *ss)
{
	switch (ss->job->ss) {
	case BQ_SS_IOPS:
	case BQ_SS_IOPS_SLOPE:
		return ss->iops;
	case BQ_SS_BW:
	case BQ_SS_BW_SLOPE:
		return ss->bw;
	default:
		return ss->lat;
	}
}

static void ss_judge(struct bq_ss_window *ss)
{
	const struct bq_job *j = ss->job;
	const uint64_t *y = ss_series(ss);
	unsigned int n = ss->n;
	double sum = 0, mean, crit, iops = 0, bw = 0, lat = 0;

	for (unsigned int i = 0; i < n; i++) {
		sum += (double)y[i];
		iops += (double)ss->iops[i];
		bw += (double)ss->bw[i];
		lat += (double)ss->lat[i];
	}
	mean = sum / n;
	ss->iops_mean = iops / n;
	ss->bw_mean = bw / n;
	ss->lat_mean = lat / n;
	if (j->ss == BQ_SS_IOPS_SLOPE || j->ss == BQ_SS_BW_SLOPE || j->ss == BQ_SS_LAT_SLOPE) {
		/* Least squares over x = 0..n-1, oldest first; n = 1 gives NaN, never met. */
		double sx = 0, sxx = 0, sxy = 0;

		for (unsigned int i = 0; i < n; i++) {
			double v = (double)y[(ss->head + i) % n];

			sx += i;
			sxx += (double)i * i;
			sxy += i * v;
		}
		crit = (sxy - sx * sum / n) / (sxx - sx * sx / n);
		if (j->ss_pct)
			crit = 100.0 * crit / mean;
		crit = fabs(crit);
	} else {
		double dev = 0;

		for (unsigned int i = 0; i < n; i++)
			dev = fmax(dev, fabs((double)y[i] - mean));
		crit = j->ss_pct ? 100.0 * dev / mean : dev;
	}
	ss->crit = crit;
	if (crit < j->ss_limit)
		__atomic_store_n(&ss->attained, true, __ATOMIC_RELAXED);
}

static void ss_sample(struct bq_ss_window *ss, uint64_t now)
{
	uint64_t ios = __atomic_load_n(&ss->ios, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&ss->bytes, __ATOMIC_RELAXED);
	uint64_t lat = __atomic_load_n(&ss->lat_ns, __ATOMIC_RELAXED);
	uint64_t spent = now > ss->prev_t ? now - ss->prev_t : 0, next = ss->next_t;

	while (next <= now)
		next += ss->interval;
	__atomic_store_n(&ss->next_t, next, __ATOMIC_RELAXED);
	/* Collection starts one interval after ss_ramp, as in fio. */
	if (!ss->ramp_over && now >= ss->t0 + ss->job->ss_ramp_ns + ss->interval)
		ss->ramp_over = true;
	if (ss->ramp_over && spent) {
		ss->iops[ss->head] = (ios - ss->prev_ios) * NS_PER_S / spent;
		ss->bw[ss->head] = (uint64_t)((unsigned __int128)(bytes - ss->prev_bytes) *
					      NS_PER_S / spent);
		/* The interval's mean completion latency; none completed: as the last. */
		if (ios > ss->prev_ios)
			ss->lat[ss->head] = (lat - ss->prev_lat) / (ios - ss->prev_ios);
		else
			ss->lat[ss->head] = ss->lat[(ss->head + ss->n - 1) % ss->n];
		ss->head = (ss->head + 1) % ss->n;
		if (ss->count < ss->n)
			ss->count++;
		ss->samples++;
		if (ss->count == ss->n)
			ss_judge(ss);
	}
	ss->prev_t = now;
	ss->prev_ios = ios;
	ss->prev_bytes = bytes;
	ss->prev_lat = lat;
}

bool bq_ss_check(struct bq_ss_window *ss, uint64_t now)
{
	if (__atomic_load_n(&ss->attained, __ATOMIC_RELAXED))
		return true;
	if (now < __atomic_load_n(&ss->next_t, __ATOMIC_RELAXED))
		return false;
	/* Another member is taking this second's sample. */
	if (pthread_mutex_trylock(&ss->lock))
		return false;
	if (now >= ss->next_t && !ss->attained)
		ss_sample(ss, now);
	pthread_mutex_unlock(&ss->lock);
	return __atomic_load_n(&ss->attained, __ATOMIC_RELAXED);
}

void bq_ss_result(struct bq_ss_window *ss, struct bq_rate_result *out)
{
	if (!ss)
		return;
	pthread_mutex_lock(&ss->lock);
	out->ss_attained = ss->attained;
	out->ss_criterion = ss->crit;
	out->ss_samples = ss->samples;
	out->ss_iops_mean = ss->iops_mean;
	out->ss_bw_mean = ss->bw_mean;
	out->ss_lat_mean = ss->lat_mean;
	pthread_mutex_unlock(&ss->lock);
}
