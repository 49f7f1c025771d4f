// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_run.c - threads that make system calls, counted per operation
 *
 * The file-level workloads (latency probe, file trees, file sets, loadfile
 * replay) measure what a system call costs, so each thread simply calls
 * and times; this file gives them one start line, one deadline, interval
 * samples taken while they run, and the sums at the end.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "blkqual_ops.h"
#include "internal.h"

struct ops_run {
	const struct bq_ops_opts *o;
	struct bq_ops_thread *threads;
	int gate;			/* 0 wait, 1 go, -1 called off */
	uint64_t start_ns;
	uint64_t deadline_ns;
	int running;			/* threads not yet returned, under @lock */
	pthread_mutex_t lock;
	pthread_cond_t done;
};

struct ops_arg {
	struct ops_run *run;
	struct bq_ops_thread *t;
};

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

void bq_ops_record(struct bq_ops_thread *t, int op, uint64_t bytes, uint64_t lat_ns,
		   bool failed)
{
	struct bq_op_stat *s = &t->op[op];

	/* One writer per counter: plain adds, published for the sampler. */
	store(&s->count, s->count + 1);
	store(&s->bytes, s->bytes + bytes);
	store(&s->lat_sum_ns, s->lat_sum_ns + lat_ns);
	if (failed)
		store(&s->errors, s->errors + 1);
	/* Allocated on first use: most threads do only a few kinds of operation. */
	if (__builtin_expect(!s->lat.buckets, 0) && bq_hist_init(&s->lat))
		return;
	bq_hist_add(&s->lat, lat_ns);
}

void bq_ops_error(struct bq_ops_thread *t, int op, int err, int64_t offset, const char *what)
{
	struct bq_op_error *e;

	if (t->nr_errors >= BQ_OPS_MAX_ERRORS)
		return;
	e = &t->errors[t->nr_errors++];
	e->op = op;
	e->err = err;
	e->offset = offset;
	bq_strlcpy(e->what, what ? what : "", sizeof(e->what));
}

bool bq_ops_should_stop(const struct bq_ops_thread *t)
{
	if (t->stop && *t->stop)
		return true;
	return t->deadline_ns && bq_now_ns() >= t->deadline_ns;
}

static uint64_t thread_cpu(uint64_t *sys_ns)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
		  (uint64_t)ru.ru_stime.tv_usec * 1000ull;
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
	       (uint64_t)ru.ru_utime.tv_usec * 1000ull;
}

static void *ops_thread(void *p)
{
	struct ops_arg *a = p;
	struct ops_run *run = a->run;
	struct bq_ops_thread *t = a->t;
	uint64_t usr0, sys0, sys1;

	pthread_mutex_lock(&run->lock);
	while (!run->gate)
		pthread_cond_wait(&run->done, &run->lock);
	pthread_mutex_unlock(&run->lock);
	if (run->gate > 0) {
		t->deadline_ns = run->deadline_ns;
		usr0 = thread_cpu(&sys0);
		t->ret = run->o->fn(t, run->o->arg);
		t->usr_ns = thread_cpu(&sys1) - usr0;
		t->sys_ns = sys1 - sys0;
	}

	pthread_mutex_lock(&run->lock);
	run->running--;
	pthread_cond_broadcast(&run->done);
	pthread_mutex_unlock(&run->lock);
	return NULL;
}

int bq_cpu_times_read(struct bq_ctx *ctx, struct bq_cpu_times *c)
{
	unsigned long long v[10] = { 0 };
	char path[PATH_MAX];
	FILE *f;
	int n;

	if (ctx)
		bq_path(path, sizeof(path), ctx->proc, "/stat");
	else
		bq_strlcpy(path, "/proc/stat", sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 4)
		return -EINVAL;
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	c->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	c->busy = c->total - v[3] - v[4];
	c->sys = v[2] + v[5] + v[6];
	return 0;
}

double bq_cpu_busy_pct(const struct bq_cpu_times *a, const struct bq_cpu_times *b,
		       double *sys_pct)
{
	double total = (double)(b->total - a->total);

	if (sys_pct)
		*sys_pct = total > 0 ? 100.0 * (double)(b->sys - a->sys) / total : 0;
	return total > 0 ? 100.0 * (double)(b->busy - a->busy) / total : 0;
}

/* Running sums of every thread's published counters. */
static void read_counters(const struct ops_run *run, int nr_ops, uint64_t *count,
			  uint64_t *bytes, uint64_t *errors, uint64_t *lat)
{
	memset(count, 0, sizeof(uint64_t) * BQ_OPS_MAX);
	memset(bytes, 0, sizeof(uint64_t) * BQ_OPS_MAX);
	memset(errors, 0, sizeof(uint64_t) * BQ_OPS_MAX);
	memset(lat, 0, sizeof(uint64_t) * BQ_OPS_MAX);
	for (int i = 0; i < run->o->nr_threads; i++) {
		for (int k = 0; k < nr_ops; k++) {
			const struct bq_op_stat *s = &run->threads[i].op[k];

			count[k] += load(&s->count);
			bytes[k] += load(&s->bytes);
			errors[k] += load(&s->errors);
			lat[k] += load(&s->lat_sum_ns);
		}
	}
}

struct sampler {
	struct bq_ctx *ctx;
	uint64_t count[BQ_OPS_MAX], bytes[BQ_OPS_MAX], errors[BQ_OPS_MAX], lat[BQ_OPS_MAX];
	struct bq_cpu_times cpu;
	bool have_cpu;
	uint64_t last_ns;
};

static int take_sample(struct ops_run *run, struct sampler *sm, struct bq_ops_result *res,
		       uint64_t now)
{
	uint64_t count[BQ_OPS_MAX], bytes[BQ_OPS_MAX], errors[BQ_OPS_MAX], lat[BQ_OPS_MAX];
	const struct bq_ops_opts *o = run->o;
	struct bq_ops_sample *s, *grown;
	struct bq_cpu_times cpu;

	grown = realloc(res->samples, (res->nr_samples + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	res->samples = grown;
	s = &grown[res->nr_samples++];
	memset(s, 0, sizeof(*s));
	s->t_ns = now - run->start_ns;
	s->dt_ns = now - sm->last_ns;
	read_counters(run, o->nr_ops, count, bytes, errors, lat);
	for (int k = 0; k < o->nr_ops; k++) {
		s->count[k] = count[k] - sm->count[k];
		s->bytes[k] = bytes[k] - sm->bytes[k];
		s->errors[k] = errors[k] - sm->errors[k];
		s->mean_ns[k] = s->count[k] ? (double)(lat[k] - sm->lat[k]) / (double)s->count[k]
					    : 0;
	}
	if (sm->have_cpu && !bq_cpu_times_read(sm->ctx, &cpu)) {
		s->cpu_total_pct = bq_cpu_busy_pct(&sm->cpu, &cpu, &s->cpu_sys_pct);
		sm->cpu = cpu;
	}
	memcpy(sm->count, count, sizeof(count));
	memcpy(sm->bytes, bytes, sizeof(bytes));
	memcpy(sm->errors, errors, sizeof(errors));
	memcpy(sm->lat, lat, sizeof(lat));
	sm->last_ns = now;
	if (o->on_sample)
		o->on_sample(o->sample_arg, s);
	return 0;
}

/* Wait until every thread is done, sampling on the way. */
static void monitor(struct ops_run *run, struct sampler *sm, struct bq_ops_result *res)
{
	const struct bq_ops_opts *o = run->o;
	uint64_t next = o->interval_ns ? run->start_ns + o->interval_ns : 0;

	pthread_mutex_lock(&run->lock);
	while (run->running) {
		uint64_t now = bq_now_ns(), wake = now + 100000000ull;
		struct timespec ts;

		if (next && now >= next) {
			pthread_mutex_unlock(&run->lock);
			take_sample(run, sm, res, now);
			pthread_mutex_lock(&run->lock);
			next += o->interval_ns;
			continue;
		}
		if (next && next < wake)
			wake = next;
		if (o->stop && *o->stop)
			res->interrupted = true;
		/* The condition variable runs on CLOCK_REALTIME; a relative wait is enough. */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(wake - now);
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&run->done, &run->lock, &ts);
	}
	pthread_mutex_unlock(&run->lock);
	if (o->stop && *o->stop)
		res->interrupted = true;
}

static void add_up(struct bq_ops_result *res)
{
	for (int i = 0; i < res->nr_threads; i++) {
		const struct bq_ops_thread *t = &res->threads[i];

		res->usr_ns += t->usr_ns;
		res->sys_ns += t->sys_ns;
		if (t->ret)
			res->failed++;
		for (int k = 0; k < res->nr_ops; k++) {
			struct bq_op_stat *sum = &res->total[k];

			sum->count += t->op[k].count;
			sum->bytes += t->op[k].bytes;
			sum->errors += t->op[k].errors;
			sum->lat_sum_ns += t->op[k].lat_sum_ns;
			if (t->op[k].lat.buckets)
				bq_hist_merge(&sum->lat, &t->op[k].lat);
		}
	}
}

static int alloc_result(const struct bq_ops_opts *o, struct bq_ops_result *res)
{
	res->threads = calloc((size_t)o->nr_threads, sizeof(*res->threads));
	if (!res->threads)
		return -ENOMEM;
	res->nr_threads = o->nr_threads;
	res->nr_ops = o->nr_ops;
	for (int k = 0; k < o->nr_ops; k++)
		if (bq_hist_init(&res->total[k].lat))
			return -ENOMEM;
	for (int i = 0; i < o->nr_threads; i++) {
		res->threads[i].id = i;
		res->threads[i].stop = o->stop;
	}
	return 0;
}

int bq_ops_run(struct bq_ctx *ctx, const struct bq_ops_opts *o, struct bq_ops_result *res)
{
	struct ops_run run = { .o = o };
	struct sampler sm = { .ctx = ctx };
	struct bq_cpu_times cpu0, cpu1;
	struct ops_arg *args;
	pthread_t *tids;
	int ret, started = 0;

	memset(res, 0, sizeof(*res));
	if (o->nr_threads < 1 || o->nr_ops < 1 || o->nr_ops > BQ_OPS_MAX || !o->fn)
		return -EINVAL;
	ret = alloc_result(o, res);
	if (ret)
		goto out_free_result;
	run.threads = res->threads;
	run.running = o->nr_threads;
	tids = calloc((size_t)o->nr_threads, sizeof(*tids));
	args = calloc((size_t)o->nr_threads, sizeof(*args));
	if (!tids || !args) {
		ret = -ENOMEM;
		goto out_free_args;
	}
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.done, NULL);

	for (; started < o->nr_threads; started++) {
		args[started] = (struct ops_arg){ .run = &run, .t = &res->threads[started] };
		ret = -pthread_create(&tids[started], NULL, ops_thread, &args[started]);
		if (ret)
			break;
	}
	sm.have_cpu = !bq_cpu_times_read(ctx, &cpu0);
	sm.cpu = cpu0;
	pthread_mutex_lock(&run.lock);
	run.running = started;
	run.start_ns = bq_now_ns();
	sm.last_ns = run.start_ns;
	if (o->duration_ns)
		run.deadline_ns = run.start_ns + o->duration_ns;
	/* All start together, or (a thread could not be made) none starts. */
	run.gate = ret ? -1 : 1;
	pthread_cond_broadcast(&run.done);
	pthread_mutex_unlock(&run.lock);
	if (!ret)
		monitor(&run, &sm, res);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	res->runtime_ns = bq_now_ns() - run.start_ns;
	if (sm.have_cpu && !bq_cpu_times_read(ctx, &cpu1))
		res->cpu_total_pct = bq_cpu_busy_pct(&cpu0, &cpu1, &res->cpu_sys_pct);
	pthread_cond_destroy(&run.done);
	pthread_mutex_destroy(&run.lock);
	add_up(res);
out_free_args:
	free(args);
	free(tids);
	if (!ret)
		return 0;
out_free_result:
	bq_ops_result_free(res);
	return ret;
}

void bq_ops_result_free(struct bq_ops_result *res)
{
	for (int i = 0; i < res->nr_threads; i++)
		for (int k = 0; k < res->nr_ops; k++)
			bq_hist_free(&res->threads[i].op[k].lat);
	for (int k = 0; k < res->nr_ops; k++)
		bq_hist_free(&res->total[k].lat);
	free(res->threads);
	free(res->samples);
	memset(res, 0, sizeof(*res));
}
