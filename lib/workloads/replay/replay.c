// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - dbench loadfiles replayed on a local directory: the clients
 * and the run
 *
 * Each client is a thread of bq_ops_run() going through the shared,
 * parsed loadfile again and again.  Each operation (replay_ops.c) answers
 * with an NT status, which is compared with the status the loadfile
 * recorded.  dbench's own fileio backend mostly ignores that status; here
 * every difference is counted, by kind of operation, expected and got.
 *
 * Paths are resolved relative to one directory descriptor with the *at()
 * calls, so a client's path is the loadfile's with one component swapped
 * (replay_names.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "replay_int.h"
#include "workloads/ops_int.h"

#define SAMPLE_NS 1000000000ull

/* ---- one client ---------------------------------------------------------------- */

/* Sleep in slices so a stop is noticed. */
static void nap(struct bq_ops_thread *t, uint64_t ns)
{
	uint64_t end = bq_now_ns() + ns;

	while (!bq_ops_should_stop(t)) {
		uint64_t now = bq_now_ns(), d;
		struct timespec ts;

		if (now >= end)
			return;
		d = end - now < 100000000ull ? end - now : 100000000ull;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)d;
		nanosleep(&ts, NULL);
	}
}

static void count_mismatch(struct client *c, struct bq_ops_thread *t, const struct bq_replay_op *op,
			   enum bq_replay_what what, uint64_t expected, uint64_t got)
{
	const struct bq_loadfile *lf = c->rp->lf;
	struct mm_class *m;
	size_t i;

	for (i = 0; i < c->nr_mm; i++) {
		m = &c->mm[i];
		if (m->kind == op->kind && m->what == what && m->expected == expected && m->got == got) {
			m->count++;
			goto out_report;
		}
	}
	if (c->nr_mm == c->cap_mm) {
		size_t cap = c->cap_mm ? c->cap_mm * 2 : 16;
		struct mm_class *n = realloc(c->mm, cap * sizeof(*n));

		if (!n)
			goto out_report;
		c->mm = n;
		c->cap_mm = cap;
	}
	c->mm[c->nr_mm++] = (struct mm_class){
		.kind = op->kind, .what = (uint8_t)what, .first_line = op->line,
		.expected = expected, .got = got, .count = 1,
	};
out_report:
	if (t->nr_errors < BQ_OPS_MAX_ERRORS) {
		char what_s[192], b1[16];

		if (what == BQ_REPLAY_MISMATCH_STATUS)
			snprintf(what_s, sizeof(what_s), "%.60s:%u: %s expected %s, got %s",
				 lf->name, op->line, bq_replay_op_name(op->kind),
				 lf->statuses[expected].name,
				 bq_nt_status_name((uint32_t)got, b1, sizeof(b1)));
		else
			snprintf(what_s, sizeof(what_s), "%.60s:%u: %s expected %llu, got %llu",
				 lf->name, op->line, bq_replay_op_name(op->kind),
				 (unsigned long long)expected, (unsigned long long)got);
		bq_ops_error(t, op->kind, EPROTO, -1, what_s);
	}
}

static void take_warmup_snapshot(struct client *c, struct bq_ops_thread *t)
{
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		struct bq_op_stat *s = &t->op[k];

		c->snap[k] = (struct snap){ s->count, s->bytes, s->errors, s->lat_sum_ns };
		/* Only this thread touches its histograms until it returns. */
		if (s->lat.buckets)
			bq_hist_reset(&s->lat);
	}
	c->warmed = true;
}

static void rate_limit(struct client *c, struct bq_ops_thread *t, double rate)
{
	uint64_t now = bq_now_ns();
	double due;

	if (!c->rate_ns) {
		c->rate_ns = now;
		c->rate_bytes = c->bytes;
		return;
	}
	due = (double)(c->bytes - c->rate_bytes) / (rate * 1e6) * 1e9 - (double)(now - c->rate_ns);
	if (due > 0)
		nap(t, (uint64_t)due);
	c->rate_ns = bq_now_ns();
	c->rate_bytes = c->bytes;
}
static void max_store(uint64_t *p, uint64_t v)
{
	/* One writer; the sampler only swaps in 0, so a lost race loses one second's max. */
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static int client_fn(struct bq_ops_thread *t, void *arg)
{
	struct replay *rp = arg;
	struct client *c = &rp->clients[t->id];
	const struct bq_loadfile *lf = rp->lf;
	const struct bq_replay_opts *o = rp->o;
	uint64_t warm_end, loop_start;

	warm_end = bq_now_ns() + rp->warmup_ns;
	if (t->deadline_ns && o->time_ns)
		warm_end = t->deadline_ns - o->time_ns;
	if (!rp->warmup_ns)
		take_warmup_snapshot(c, t);

	for (;;) {
		loop_start = bq_now_ns();
		for (size_t i = 0; i < lf->nr_ops; i++) {
			const struct bq_replay_op *op = &lf->ops[i];
			const struct bq_replay_status *want = &lf->statuses[op->status];
			uint64_t t0, t1, result = 0, bytes = 0;
			uint32_t got;
			bool bad = false;

			if (bq_ops_should_stop(t))
				goto out_stopped;
			if (lf->time_ns && lf->time_ns[i] && !o->target_rate) {
				uint64_t due = loop_start + lf->time_ns[i], now = bq_now_ns();

				if (due > now)
					nap(t, due - now);
			} else if (o->target_rate > 0) {
				rate_limit(c, t, o->target_rate);
			}
			if (op->kind == BQ_REPLAY_SLEEP) {
				nap(t, op->size * 1000);
				continue;
			}
			/*
			 * A dbench client checks that its parent is alive before
			 * each line: a system call a line that its figures pay for.
			 */
			if (!o->lean)
				kill(rp->pid, 0);
			t0 = bq_now_ns();
			if (!c->warmed && t0 >= warm_end)
				take_warmup_snapshot(c, t);
			got = rp_execute(c, op, &result, &bytes);
			t1 = bq_now_ns();
			if (c->link_at[0]) {
				t->ret = -ELOOP;
				snprintf(t->msg, sizeof(t->msg), "%.180s: a symlink in the replay's "
					 "tree; not followed, client stopped", c->link_at);
				goto out_stopped;
			}
			if (!rp_status_matches(want, got)) {
				count_mismatch(c, t, op, BQ_REPLAY_MISMATCH_STATUS, op->status, got);
				bad = true;
			} else if (got == BQ_NT_STATUS_OK && want->expect == BQ_REPLAY_EXPECT_CODE &&
				   (op->kind == BQ_REPLAY_READX || op->kind == BQ_REPLAY_WRITEX ||
				    op->kind == BQ_REPLAY_FIND) && result != op->c) {
				count_mismatch(c, t, op, BQ_REPLAY_MISMATCH_RESULT, op->c, result);
				bad = true;
			}
			c->bytes += bytes;
			bq_ops_record(t, op->kind, bytes, t1 - t0, bad);
			max_store(&c->max_lat_ns, t1 - t0);
			__atomic_store_n(&c->lines, c->lines + 1, __ATOMIC_RELAXED);
		}
		c->loops++;
		if (o->run_once)
			break;
	}
out_stopped:
	for (uint32_t i = 0; i < lf->nr_handles; i++)
		if (c->h[i].fd >= 0)
			rp_handle_close(c, &c->h[i]);
	return t->ret;
}

/* ---- the run -------------------------------------------------------------------- */

static void on_sample(void *arg, const struct bq_ops_sample *s)
{
	struct replay *rp = arg;
	const struct bq_replay_opts *o = rp->o;
	struct bq_replay_progress p = { .t_ns = s->t_ns };
	uint64_t bytes = 0, lines = 0;

	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		bytes += s->bytes[k];
		p.ops += s->count[k];
		p.mismatches += s->errors[k];
	}
	for (int i = 0; i < o->clients; i++) {
		struct client *c = &rp->clients[i];
		uint64_t m = __atomic_exchange_n(&c->max_lat_ns, 0, __ATOMIC_RELAXED);

		lines += __atomic_load_n(&c->lines, __ATOMIC_RELAXED);
		if (m > p.max_lat_ns)
			p.max_lat_ns = m;
	}
	p.lines = lines / (uint64_t)o->clients;
	rp->bytes_all += bytes;
	/* Like dbench: the second the warmup ends starts the measured time, unprinted. */
	if (rp->warmup_ns && s->t_ns < rp->warmup_ns + SAMPLE_NS / 2) {
		if (s->t_ns + SAMPLE_NS / 2 >= rp->warmup_ns) {
			rp->exec_started = true;
			rp->exec_start_ns = s->t_ns;
			return;
		}
		p.warmup = true;
		p.mb_s = (double)rp->bytes_all * 1e3 / (double)s->t_ns;
	} else {
		if (!rp->exec_started) {
			rp->exec_started = true;
			rp->exec_start_ns = s->t_ns - s->dt_ns;
		}
		rp->bytes_exec += bytes;
		p.exec_ns = s->t_ns - rp->exec_start_ns;
		p.mb_s = p.exec_ns ? (double)rp->bytes_exec * 1e3 / (double)p.exec_ns : 0;
	}
	if (o->on_progress)
		o->on_progress(o->progress_arg, &p);
}

static int mm_cmp(const void *a, const void *b)
{
	const struct bq_replay_mismatch *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->first_line < y->first_line ? -1 : x->first_line > y->first_line;
}

/* Every client's mismatch classes, merged. */
static int gather_mismatches(struct replay *rp, struct bq_replay_result *res)
{
	for (int i = 0; i < rp->o->clients; i++) {
		const struct client *c = &rp->clients[i];

		for (size_t j = 0; j < c->nr_mm; j++) {
			const struct mm_class *m = &c->mm[j];
			struct bq_replay_mismatch *r = NULL;

			res->mismatches += m->count;
			for (size_t k = 0; k < res->nr_classes; k++) {
				struct bq_replay_mismatch *x = &res->classes[k];

				if (x->kind == m->kind && x->what == m->what &&
				    x->expected == m->expected && x->got == m->got)
					r = x;
			}
			if (r) {
				r->count += m->count;
				if (m->first_line < r->first_line)
					r->first_line = m->first_line;
				continue;
			}
			r = realloc(res->classes, (res->nr_classes + 1) * sizeof(*r));
			if (!r)
				return -ENOMEM;
			res->classes = r;
			res->classes[res->nr_classes++] = (struct bq_replay_mismatch){
				.kind = m->kind, .what = m->what, .expected = m->expected,
				.got = m->got, .count = m->count, .first_line = m->first_line,
			};
		}
	}
	if (res->nr_classes)
		qsort(res->classes, res->nr_classes, sizeof(*res->classes), mm_cmp);
	return 0;
}

/* Take the warmup out of the counts; the histograms were reset at its end. */
static void drop_warmup(struct replay *rp, struct bq_replay_result *res)
{
	struct bq_ops_result *r = &res->ops;

	res->warmed = true;
	for (int i = 0; i < r->nr_threads; i++)
		if (!rp->clients[i].warmed)
			res->warmed = false;
	if (!res->warmed) {
		/* Stopped in the warmup: what was measured is all there is. */
		res->exec_ns = r->runtime_ns;
		return;
	}
	for (int i = 0; i < r->nr_threads; i++) {
		const struct client *c = &rp->clients[i];

		for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
			struct bq_op_stat *s = &r->threads[i].op[k];

			s->count -= c->snap[k].count;
			s->bytes -= c->snap[k].bytes;
			s->errors -= c->snap[k].errors;
			s->lat_sum_ns -= c->snap[k].lat_sum;
			r->total[k].count -= c->snap[k].count;
			r->total[k].bytes -= c->snap[k].bytes;
			r->total[k].errors -= c->snap[k].errors;
			r->total[k].lat_sum_ns -= c->snap[k].lat_sum;
		}
	}
	res->exec_ns = r->runtime_ns > rp->warmup_ns ? r->runtime_ns - rp->warmup_ns : 0;
}

static void clients_free(struct replay *rp)
{
	if (!rp->clients)
		return;
	for (int i = 0; i < rp->o->clients; i++) {
		struct client *c = &rp->clients[i];

		if (c->h)
			for (uint32_t j = 0; j < rp->lf->nr_handles; j++)
				free(c->h[j].locks);
		free(c->h);
		free(c->rbuf);
		free(c->wbuf);
		free(c->dirbuf);
		free(c->mm);
	}
	free(rp->clients);
}

static int clients_alloc(struct replay *rp)
{
	const struct bq_loadfile *lf = rp->lf;
	size_t io = lf->max_io ? lf->max_io : 4096;

	rp->clients = calloc((size_t)rp->o->clients, sizeof(*rp->clients));
	if (!rp->clients)
		return -ENOMEM;
	for (int i = 0; i < rp->o->clients; i++) {
		struct client *c = &rp->clients[i];

		c->rp = rp;
		c->id = i;
		/* dbench numbers its clients from 0: client0, client1, ... */
		c->name_len = (size_t)snprintf(c->name, sizeof(c->name), "client%d", i);
		c->h = calloc(lf->nr_handles ? lf->nr_handles : 1, sizeof(*c->h));
		c->dirbuf = malloc(RP_DIRBUF_SIZE);
		if (!c->h || !c->dirbuf || posix_memalign((void **)&c->rbuf, 4096, io) ||
		    posix_memalign((void **)&c->wbuf, 4096, io))
			return -ENOMEM;
		/* WriteX writes zeros, as dbench 4 does. */
		memset(c->wbuf, 0, io);
		for (uint32_t j = 0; j < lf->nr_handles; j++)
			c->h[j].fd = -1;
	}
	return 0;
}

int bq_replay_run(struct bq_ctx *ctx, const struct bq_loadfile *lf,
		  const struct bq_replay_opts *o, struct bq_replay_result *res)
{
	struct replay rp = { .lf = lf, .o = o, .rootfd = -1, .pid = getpid() };
	struct bq_ops_opts oo = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	if (!o->dir || o->clients < 1 || o->clients > 100000 || !lf->nr_ops ||
	    (!o->time_ns && !o->run_once))
		return -EINVAL;
	rp.warmup_ns = o->warmup_ns;
	rp.rootfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rp.rootfd < 0)
		return -errno;
	ret = clients_alloc(&rp);
	if (ret)
		goto out_free_clients;
	res->lines = calloc((size_t)o->clients, sizeof(*res->lines));
	if (!res->lines) {
		ret = -ENOMEM;
		goto out_free_clients;
	}

	oo.nr_threads = o->clients;
	oo.nr_ops = BQ_REPLAY_NR_KINDS;
	oo.duration_ns = o->time_ns ? o->warmup_ns + o->time_ns : 0;
	oo.interval_ns = SAMPLE_NS;
	oo.stall_timeout_ns = o->stall_timeout_ns;
	oo.stop = o->stop;
	oo.fn = client_fn;
	oo.arg = &rp;
	oo.on_sample = on_sample;
	oo.sample_arg = &rp;
	ret = bq_ops_run(ctx, &oo, &res->ops);
	if (ret)
		goto out_free_lines;

	drop_warmup(&rp, res);
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		res->bytes += res->ops.total[k].bytes;
		if (res->ops.total[k].lat.count && res->ops.total[k].lat.max > res->max_lat_ns)
			res->max_lat_ns = res->ops.total[k].lat.max;
	}
	res->mb_s = res->exec_ns ? (double)res->bytes * 1e3 / (double)res->exec_ns : 0;
	for (int i = 0; i < o->clients; i++) {
		res->lines[i] = rp.clients[i].lines;
		res->loops += rp.clients[i].loops;
	}
	ret = gather_mismatches(&rp, res);
	if (ret)
		goto out_free_ops;
	clients_free(&rp);
	close(rp.rootfd);
	return 0;

out_free_ops:
	bq_ops_result_free(&res->ops);
out_free_lines:
	free(res->lines);
	res->lines = NULL;
out_free_clients:
	clients_free(&rp);
	close(rp.rootfd);
	return ret;
}

void bq_replay_result_free(struct bq_replay_result *res)
{
	bq_ops_result_free(&res->ops);
	free(res->lines);
	free(res->classes);
	memset(res, 0, sizeof(*res));
}

int bq_replay_cleanup(const char *dir, int clients)
{
	char name[32];
	int fd, err = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (int i = 0; i < clients; i++) {
		int ret;

		snprintf(name, sizeof(name), "clients/client%d", i);
		ret = rp_remove_tree_at(fd, name, 0);
		if (ret && !err)
			err = ret;
	}
	if (unlinkat(fd, "clients", AT_REMOVEDIR) && errno != ENOENT && errno != ENOTEMPTY &&
	    errno != EEXIST && !err)
		err = -errno;
	close(fd);
	return err;
}
