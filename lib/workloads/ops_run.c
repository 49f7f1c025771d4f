// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_run.c - threads that make system calls, counted per operation
 *
 * The file-level workloads (latency probe, file trees, file sets, loadfile
 * replay) measure what a system call costs, so each thread simply calls
 * and times; this file gives them one deadline, interval samples taken
 * while they run, what a stuck one is blocked in, and the sums at the
 * end.  Starting, watching and leaving threads is lib/core/threads.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ops_int.h"
#include "internal.h"
#include "core/threads.h"

/*
 * On the heap: a thread stuck in a system call is left behind and may
 * come back after bq_ops_run() returned, to its statistics and counters
 * here.  Such runs stay allocated (and reachable).
 */
struct ops_run {
	const struct bq_ops_opts *o;
	struct bq_ops_result *res;	/* stalls and samples, while the monitor runs */
	struct bq_ops_thread *threads;
	struct bq_threads *crew;
	struct bq_thread_cpu *cpu0;	/* each thread's CPU time where its work began */
	uint64_t start_ns;
	uint64_t next_sample;		/* UINT64_MAX: no samples */
	struct sampler *sm;
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

bool bq_ops_halted(const struct bq_ops_thread *t)
{
	return (t->stop && *t->stop) || (t->user_stop && *t->user_stop);
}

bool bq_ops_should_stop(const struct bq_ops_thread *t)
{
	if (bq_ops_halted(t))
		return true;
	return t->deadline_ns && bq_now_ns() >= t->deadline_ns;
}

static void ops_work(void *arg, int i)
{
	struct ops_run *run = arg;
	struct bq_ops_thread *t = &run->threads[i];
	struct bq_thread_cpu cpu;

	__atomic_store_n(&t->tid, (int)gettid(), __ATOMIC_RELAXED);
	if (!bq_threads_arrive(run->crew))
		return;
	if (run->o->duration_ns)
		t->deadline_ns = bq_threads_t0(run->crew) + run->o->duration_ns;
	bq_thread_cpu(&run->cpu0[i]);
	t->ret = run->o->fn(t, run->o->arg);
	bq_thread_cpu(&cpu);
	t->usr_ns = cpu.usr_ns - run->cpu0[i].usr_ns;
	t->sys_ns = cpu.sys_ns - run->cpu0[i].sys_ns;
}

/* ---- the stall watchdog ------------------------------------------------- */

enum arg_kind { ARG_NONE, ARG_FD, ARG_PATH, ARG_AT };

static const struct {
	long nr;
	const char *name;
	enum arg_kind kind;		/* what the first arguments are */
} calls[] = {
	{ SYS_read, "read", ARG_FD }, { SYS_write, "write", ARG_FD },
	{ SYS_pread64, "pread", ARG_FD }, { SYS_pwrite64, "pwrite", ARG_FD },
	{ SYS_readv, "readv", ARG_FD }, { SYS_writev, "writev", ARG_FD },
	{ SYS_preadv, "preadv", ARG_FD }, { SYS_pwritev, "pwritev", ARG_FD },
	{ SYS_fsync, "fsync", ARG_FD }, { SYS_fdatasync, "fdatasync", ARG_FD },
	{ SYS_ftruncate, "ftruncate", ARG_FD }, { SYS_fallocate, "fallocate", ARG_FD },
	{ SYS_getdents64, "getdents64", ARG_FD }, { SYS_close, "close", ARG_FD },
	{ SYS_fstat, "fstat", ARG_FD }, { SYS_sync_file_range, "sync_file_range", ARG_FD },
	{ SYS_syncfs, "syncfs", ARG_FD }, { SYS_flock, "flock", ARG_FD },
	{ SYS_fcntl, "fcntl", ARG_FD }, { SYS_lseek, "lseek", ARG_FD },
	{ SYS_fadvise64, "fadvise64", ARG_FD }, { SYS_sync, "sync", ARG_NONE },
	{ SYS_openat, "openat", ARG_AT }, { SYS_mkdirat, "mkdirat", ARG_AT },
	{ SYS_unlinkat, "unlinkat", ARG_AT }, { SYS_renameat2, "renameat2", ARG_AT },
	{ SYS_newfstatat, "newfstatat", ARG_AT }, { SYS_statx, "statx", ARG_AT },
	{ SYS_faccessat, "faccessat", ARG_AT }, { SYS_utimensat, "utimensat", ARG_AT },
#ifdef SYS_open
	{ SYS_open, "open", ARG_PATH }, { SYS_creat, "creat", ARG_PATH },
	{ SYS_mkdir, "mkdir", ARG_PATH }, { SYS_rmdir, "rmdir", ARG_PATH },
	{ SYS_unlink, "unlink", ARG_PATH }, { SYS_rename, "rename", ARG_PATH },
	{ SYS_stat, "stat", ARG_PATH }, { SYS_lstat, "lstat", ARG_PATH },
	{ SYS_renameat, "renameat", ARG_AT },
#endif
};

/* Waiting on purpose (a paced replay sleeps; a lock's owner is the one stuck). */
static bool is_wait(long nr)
{
	return nr == SYS_nanosleep || nr == SYS_clock_nanosleep || nr == SYS_futex;
}

/* A string in our own memory, read so that a bad pointer is an error, not a crash. */
static void read_user_string(unsigned long addr, char *buf, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), first = page - addr % page;
	struct iovec local = { .iov_base = buf, .iov_len = len - 1 };
	struct iovec remote[2] = {
		{ .iov_base = (void *)addr, .iov_len = first < len - 1 ? first : len - 1 },
		{ .iov_base = (void *)(addr + first), .iov_len = first < len - 1 ? len - 1 - first : 0 },
	};
	ssize_t n = process_vm_readv(getpid(), &local, 1, remote, remote[1].iov_len ? 2 : 1, 0);

	buf[n > 0 ? (size_t)n : 0] = '\0';
}

static void fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n > 0 ? (size_t)n : 0] = '\0';
}

/*
 * What a thread is blocked in, from /proc/self/task/TID/syscall ("NR
 * arg1 ... arg6 sp pc", "running", or "-1 sp pc" outside a system call).
 * Return: true when it is in a system call other than a deliberate wait.
 */
static bool blocked_in(int tid, struct bq_ops_stall *s)
{
	unsigned long a[6] = { 0 };
	char path[64], text[256], name[160] = "";
	long nr;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	if (bq_read_str(path, text, sizeof(text)) ||
	    sscanf(text, "%ld %lx %lx %lx %lx %lx %lx", &nr, &a[0], &a[1], &a[2], &a[3], &a[4],
		   &a[5]) < 2 || nr < 0 || is_wait(nr))
		return false;
	snprintf(s->call, sizeof(s->call), "syscall %ld", nr);
	s->path[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		if (calls[i].nr != nr)
			continue;
		bq_strlcpy(s->call, calls[i].name, sizeof(s->call));
		if (calls[i].kind == ARG_FD) {
			fd_path((int)a[0], s->path, sizeof(s->path));
		} else if (calls[i].kind == ARG_PATH) {
			read_user_string(a[0], s->path, sizeof(s->path));
		} else if (calls[i].kind == ARG_AT) {
			read_user_string(a[1], name, sizeof(name));
			if (name[0] != '/' && (int)a[0] != AT_FDCWD) {
				char dir[200];

				fd_path((int)a[0], dir, sizeof(dir));
				snprintf(s->path, sizeof(s->path), "%s/%s", dir, name);
			} else {
				bq_strlcpy(s->path, name, sizeof(s->path));
			}
		}
		break;
	}
	return true;
}

static int add_stall(struct bq_ops_result *res, const struct bq_ops_stall *s)
{
	struct bq_ops_stall *grown = realloc(res->stalls, ((size_t)res->nr_stalls + 1) *
					     sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	res->stalls = grown;
	grown[res->nr_stalls++] = *s;
	return 0;
}

static uint64_t ops_done(void *arg, int i)
{
	const struct ops_run *run = arg;
	uint64_t c = 0;

	for (int k = 0; k < run->o->nr_ops; k++)
		c += load(&run->threads[i].op[k].count);
	return c;
}

/* No operation for the stall timeout, and sitting in one system call: stuck. */
static bool ops_stuck(void *arg, int i, uint64_t now, uint64_t since)
{
	struct ops_run *run = arg;
	const struct bq_ops_thread *t = &run->threads[i];
	struct bq_ops_stall s = { .thread = t->id, .stalled_ns = now - since };

	if (!blocked_in(__atomic_load_n(&t->tid, __ATOMIC_RELAXED), &s))
		return false;
	return !add_stall(run->res, &s);
}

/* Still running a second after the others were stopped: stuck too. */
static void ops_straggler(void *arg, int i, uint64_t now, uint64_t since)
{
	struct ops_run *run = arg;
	const struct bq_ops_thread *t = &run->threads[i];
	struct bq_ops_stall s = { .thread = t->id };

	if (!blocked_in(__atomic_load_n(&t->tid, __ATOMIC_RELAXED), &s))
		bq_strlcpy(s.call, "(not in a system call)", sizeof(s.call));
	s.stalled_ns = now - (since ? since : run->start_ns);
	add_stall(run->res, &s);
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

/* The monitor's round: an interval sample when one is due. */
static uint64_t ops_tick(void *arg, uint64_t now)
{
	struct ops_run *run = arg;

	if (now >= run->next_sample) {
		take_sample(run, run->sm, run->res, now);
		run->next_sample += run->o->interval_ns;
	}
	return run->next_sample;
}

static const struct bq_threads_ops ops_threads_ops = {
	.work = ops_work,
	.progress = ops_done,
	.stuck = ops_stuck,
	.straggler = ops_straggler,
	.tick = ops_tick,
};

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
	for (int i = 0; i < o->nr_threads; i++)
		res->threads[i].id = i;
	return 0;
}

/*
 * Stuck threads keep the statistics they write to; the result gets a
 * copy, so that the caller may free it whatever those threads do later.
 */
static void snapshot_threads(struct ops_run *run, struct bq_ops_result *res)
{
	struct bq_ops_thread *copy = calloc((size_t)run->o->nr_threads, sizeof(*copy));

	if (!copy)
		return;
	for (int i = 0; i < run->o->nr_threads; i++) {
		copy[i] = run->threads[i];
		for (int k = 0; k < res->nr_ops; k++) {
			const struct bq_hist *h = &run->threads[i].op[k].lat;

			memset(&copy[i].op[k].lat, 0, sizeof(copy[i].op[k].lat));
			if (h->buckets && !bq_hist_init(&copy[i].op[k].lat))
				bq_hist_merge(&copy[i].op[k].lat, h);
		}
	}
	res->threads = copy;
}

static void ops_run_free(struct ops_run *run)
{
	bq_threads_free(run->crew);
	free(run->cpu0);
	free(run);
}

int bq_ops_run(struct bq_ctx *ctx, const struct bq_ops_opts *o, struct bq_ops_result *res)
{
	struct sampler sm = { .ctx = ctx };
	struct bq_cpu_times cpu0, cpu1;
	uint64_t stall_limit;
	struct ops_run *run;
	int ret, started = 0;

	memset(res, 0, sizeof(*res));
	if (o->nr_threads < 1 || o->nr_ops < 1 || o->nr_ops > BQ_OPS_MAX || !o->fn)
		return -EINVAL;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	ret = alloc_result(o, res);
	if (ret)
		goto out_free_result;
	run->o = o;
	run->res = res;
	run->sm = &sm;
	run->threads = res->threads;
	run->crew = bq_threads_new(o->nr_threads, &ops_threads_ops, run, o->stop);
	run->cpu0 = calloc((size_t)o->nr_threads, sizeof(*run->cpu0));
	if (!run->crew || !run->cpu0) {
		ret = -ENOMEM;
		goto out_free_run;
	}
	stall_limit = o->stall_timeout_ns == BQ_OPS_NO_STALL_TIMEOUT ? 0 :
		      o->stall_timeout_ns ? o->stall_timeout_ns : BQ_OPS_STALL_DEFAULT_NS;
	/*
	 * The threads stop on the run's own flag (a signal, or another thread
	 * stuck) and read the caller's directly too: a signal that came before
	 * the monitor's next look must not let them start work.
	 */
	for (int i = 0; i < o->nr_threads; i++) {
		res->threads[i].stop = bq_threads_halt(run->crew);
		res->threads[i].user_stop = o->stop;
		bq_threads_watch(run->crew, i, stall_limit);
	}
	ret = bq_threads_start(run->crew, &started);
	bq_threads_wait_arrived(run->crew);
	sm.have_cpu = !bq_cpu_times_read(ctx, &cpu0);
	sm.cpu = cpu0;
	/* All start together, or (a thread could not be made) none starts. */
	bq_threads_open(run->crew, !ret);
	run->start_ns = ret ? bq_now_ns() : bq_threads_t0(run->crew);
	sm.last_ns = run->start_ns;
	run->next_sample = o->interval_ns ? run->start_ns + o->interval_ns : UINT64_MAX;
	if (!ret)
		bq_threads_monitor(run->crew);
	if (o->stop && *o->stop)
		res->interrupted = true;
	res->runtime_ns = bq_now_ns() - run->start_ns;
	if (sm.have_cpu && !bq_cpu_times_read(ctx, &cpu1))
		res->cpu_total_pct = bq_cpu_busy_pct(&cpu0, &cpu1, &res->cpu_sys_pct);
	/* A thread stuck in the kernel may never return: leave it. */
	if (bq_threads_join(run->crew)) {
		/* A stuck thread never reaches its own count of CPU time: read it from outside. */
		for (int i = 0; i < started; i++)
			if (bq_threads_stalled(run->crew, i))
				bq_threads_cpu_since(run->crew, i, &run->cpu0[i],
						     &run->threads[i].usr_ns, &run->threads[i].sys_ns);
		snapshot_threads(run, res);
		add_up(res);
		run->res = NULL;
		run->sm = NULL;
		bq_threads_abandon(run->crew, run);
		return 0;
	}
	add_up(res);
out_free_run:
	ops_run_free(run);
	if (!ret)
		return 0;
	bq_ops_result_free(res);
	return ret;
out_free_result:
	free(run);
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
	free(res->stalls);
	memset(res, 0, sizeof(*res));
}
