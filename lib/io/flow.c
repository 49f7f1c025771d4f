// SPDX-License-Identifier: GPL-2.0-only
/*
 * flow.c - fio's flow control: the threads of jobs that share a flow_id
 * keep their I/O counts in the ratio of their flow= weights
 *
 * As in fio, a flow counts every I/O its threads issue (from 1), each
 * thread its own; a thread whose share of the flow's count is above its
 * share of the weight is held back until the others catch up, sleeping
 * flow_sleep between tries when set.  A thread that ends takes its count
 * and weight out, so that the others are not held back by it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "engine.h"

struct bq_flow {
	unsigned int id;
	unsigned int refs;
	uint64_t count;		/* I/Os of the flow's threads, from 1 */
	uint64_t weight;	/* sum of the threads' flow= */
	struct bq_flow *next;
};

static pthread_mutex_t flows_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bq_flow *flows;

/**
 * bq_flow_join() - a worker of a job with flow= joins its flow
 * @w: the worker, before the start line
 *
 * Return: 0 or -ENOMEM (with @w->setup_msg).
 */
int bq_flow_join(struct bq_worker *w)
{
	struct bq_flow *f;

	if (!w->job->flow)
		return 0;
	pthread_mutex_lock(&flows_lock);
	for (f = flows; f && f->id != w->job->flow_id; f = f->next)
		;
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f) {
			pthread_mutex_unlock(&flows_lock);
			snprintf(w->setup_msg, sizeof(w->setup_msg), "flow: out of memory");
			return -ENOMEM;
		}
		f->id = w->job->flow_id;
		f->count = 1;
		f->next = flows;
		flows = f;
	}
	f->refs++;
	__atomic_add_fetch(&f->weight, w->job->flow, __ATOMIC_RELAXED);
	w->flow = f;
	w->flow_count = 0;
	pthread_mutex_unlock(&flows_lock);
	return 0;
}

/**
 * bq_flow_leave() - a worker is done: its count and weight leave the flow
 * @w: the worker; nothing when it is in no flow
 */
void bq_flow_leave(struct bq_worker *w)
{
	struct bq_flow *f = w->flow, **p;

	if (!f)
		return;
	pthread_mutex_lock(&flows_lock);
	__atomic_sub_fetch(&f->count, w->flow_count, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&f->weight, w->job->flow, __ATOMIC_RELAXED);
	if (!--f->refs) {
		for (p = &flows; *p != f; p = &(*p)->next)
			;
		*p = f->next;
		free(f);
	}
	w->flow = NULL;
	pthread_mutex_unlock(&flows_lock);
}

/**
 * bq_flow_held() - whether the flow holds the thread's next I/O back
 * @w: the worker, in a flow
 * @inflight: its I/Os in flight
 *
 * Counts the I/O when it may go.  Held back with flow_sleep, the thread
 * first lets what it has in flight complete, then sleeps, as fio does.
 *
 * Return: true when the I/O must wait.
 */
bool bq_flow_held(struct bq_worker *w, unsigned int inflight)
{
	struct bq_flow *f = w->flow;
	double mine = (double)w->flow_count / (double)__atomic_load_n(&f->count, __ATOMIC_RELAXED);
	double share = (double)w->job->flow / (double)__atomic_load_n(&f->weight, __ATOMIC_RELAXED);

	if (mine > share) {
		if (w->job->flow_sleep_ns && !inflight)
			worker_sleep_until(w, worker_now(w) + w->job->flow_sleep_ns);
		return true;
	}
	__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED);
	w->flow_count++;
	return false;
}
