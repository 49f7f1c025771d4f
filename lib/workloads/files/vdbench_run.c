// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdbench_run.c - a file-tree run, bq_files_run(): the anchors made, the
 * trees built and scanned, the threads started on bq_ops_run(), samples,
 * and what the tree holds at the end
 *
 * Each thread is told here what it may change in the tree (enum role), so
 * one that finds nothing to pick knows whether a thread still running
 * could change that, or whether it has run out of work.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vdbench_int.h"

static uint64_t dist_max(const struct bq_files_dist *d)
{
	uint64_t m = 0;

	for (int i = 0; i < d->nr; i++)
		if (d->val[i] > m)
			m = d->val[i];
	return m;
}

/* ---- a run ------------------------------------------------------------------ */

static uint32_t roles_of(const struct bq_files_fwg *g, bool format)
{
	const struct bq_files_fwd *f = g->fwd;

	if (format)
		return 0;	/* a format waits for nobody but itself */
	switch (g->op) {
	case BQ_FOP_CREATE:
		return 1u << MAKES_FILES;
	case BQ_FOP_DELETE:
		return 1u << REMOVES_FILES;
	case BQ_FOP_MKDIR:
		return 1u << MAKES_DIRS;
	case BQ_FOP_RMDIR:
		return 1u << REMOVES_DIRS;
	case BQ_FOP_WRITE:
		if (f->random_io || f->rdpct >= 0)
			return 0;
		return 1u << MAKES_FILES | (f->delete_first ? 1u << REMOVES_FILES : 0);
	default:
		return 0;
	}
}

static void count_roles(struct ft_tree *tr, uint32_t roles, int n)
{
	for (int k = 0; k < 4; k++)
		if (roles & (1u << k))
			__atomic_fetch_add(&tr->alive[k], n, __ATOMIC_RELAXED);
}

static int thread_fn(struct bq_ops_thread *t, void *arg)
{
	struct ft_run *r = arg;
	const struct bq_files_plan *plan = r->plan;
	struct worker w = {
		.r = r,
		.gi = r->thread_fwg[t->id],
		.t = t,
	};
	size_t len;
	int ret;

	w.g = &plan->fwg[w.gi];
	w.tree = &r->trees[w.g->fsd];
	w.roles = roles_of(w.g, plan->format);
	w.rng = bq_mix64(r->seed + (uint64_t)t->id) | 1;
	if (w.g->rate > 0)
		w.gap_ns = (uint64_t)(1e9 * w.g->threads / w.g->rate);
	w.next_ns = bq_now_ns();
	len = dist_max(&w.g->fwd->xfer);
	len = (len + 4095) & ~(size_t)4095;
	if (posix_memalign((void **)&w.buf, 4096, len ? len : 4096)) {
		snprintf(t->msg, sizeof(t->msg), "no memory for a %zu-byte buffer", len);
		ret = -ENOMEM;
		goto out;
	}
	/* written data: not all zeroes, which some storage would not store */
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t v = ft_rnd(&w.rng);

		memcpy(w.buf + i, &v, 8);
	}
	if (plan->format)
		ret = ft_do_format(&w);
	else if (w.g->op == BQ_FOP_READ || w.g->op == BQ_FOP_WRITE)
		ret = ft_do_rw(&w);
	else if (w.g->op == BQ_FOP_MKDIR || w.g->op == BQ_FOP_RMDIR)
		ret = ft_do_dir_op(&w);
	else
		ret = ft_do_file_op(&w);
	free(w.buf);
out:
	count_roles(w.tree, w.roles, -1);
	if (ret && !t->msg[0])
		snprintf(t->msg, sizeof(t->msg), "%s", strerror(-ret));
	return ret;
}

/* Make a missing anchor (and its parents with create_anchors=yes). */
static int make_anchor(const char *anchor, bool parents, char *msg, size_t len)
{
	char buf[PATH_MAX];
	struct stat st;

	if (!stat(anchor, &st))
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	bq_strlcpy(buf, anchor, sizeof(buf));
	for (char *p = buf + 1; parents && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			break;
		*p = '/';
	}
	if (mkdir(anchor, 0755) && errno != EEXIST) {
		int ret = -errno;

		snprintf(msg, len, "making anchor %.200s: %s", anchor, strerror(-ret));
		return ret;
	}
	return 0;
}

struct sample_hook {
	const struct bq_files_run_opts *o;
	struct bq_cpu_times cpu;
	bool have_cpu;
};

static void on_sample(void *arg, const struct bq_ops_sample *s)
{
	struct sample_hook *h = arg;

	h->have_cpu = !bq_cpu_times_read(h->o->ctx, &h->cpu);
	if (h->o->on_sample)
		h->o->on_sample(h->o->sample_arg, s);
}

/* What happened after the last sample: the run's end seldom meets an interval's. */
static void make_tail(struct bq_files_result *res, struct sample_hook *h, uint64_t interval_ns)
{
	struct bq_ops_result *ops = &res->ops;
	struct bq_ops_sample *t = &res->tail;
	uint64_t last = ops->nr_samples ? ops->samples[ops->nr_samples - 1].t_ns : 0;
	struct bq_cpu_times now;
	bool any = false;

	memset(t, 0, sizeof(*t));
	if (ops->runtime_ns <= last)
		return;
	for (int k = 0; k < ops->nr_ops; k++) {
		double lat = (double)ops->total[k].lat_sum_ns;

		t->count[k] = ops->total[k].count;
		t->bytes[k] = ops->total[k].bytes;
		t->errors[k] = ops->total[k].errors;
		for (size_t i = 0; i < ops->nr_samples; i++) {
			t->count[k] -= ops->samples[i].count[k];
			t->bytes[k] -= ops->samples[i].bytes[k];
			t->errors[k] -= ops->samples[i].errors[k];
			lat -= ops->samples[i].mean_ns[k] * (double)ops->samples[i].count[k];
		}
		t->mean_ns[k] = t->count[k] && lat > 0 ? lat / (double)t->count[k] : 0;
		any |= t->count[k] != 0;
	}
	t->t_ns = ops->runtime_ns;
	t->dt_ns = ops->runtime_ns - last;
	/* a sliver of an interval with nothing in it is not worth a line */
	if (ops->nr_samples && !any && interval_ns && t->dt_ns < interval_ns / 2) {
		t->dt_ns = 0;
		return;
	}
	if (ops->nr_samples && interval_ns && t->dt_ns < interval_ns / 10) {
		t->dt_ns = 0;
		return;
	}
	if (h->have_cpu && !bq_cpu_times_read(h->o->ctx, &now))
		t->cpu_total_pct = bq_cpu_busy_pct(&h->cpu, &now, &t->cpu_sys_pct);
	else
		t->cpu_total_pct = ops->cpu_total_pct, t->cpu_sys_pct = ops->cpu_sys_pct;
}

int bq_files_run(const struct bq_files_plan *plan, const struct bq_files_run_opts *o,
		 struct bq_files_result *res)
{
	const struct bq_files_parms *p = plan->p;
	struct ft_run r = { .plan = plan };
	struct sample_hook hook = { .o = o };
	struct bq_ops_opts opts = {
		.nr_threads = plan->nr_threads,
		.nr_ops = BQ_FOP_NR,
		.duration_ns = plan->format ? 0 : o->elapsed_ns,
		.interval_ns = o->interval_ns,
		.stall_timeout_ns = o->stall_timeout_ns,
		.stop = o->stop,
		.fn = thread_fn,
		.arg = &r,
		.on_sample = on_sample,
		.sample_arg = &hook,
	};
	int ret = 0, n = 0;

	memset(res, 0, sizeof(*res));
	if (!plan->nr_fwg || plan->nr_threads < 1)
		return -EINVAL;
	r.trees = calloc(p->nr_fsd, sizeof(*r.trees));
	r.thread_fwg = calloc((size_t)plan->nr_threads, sizeof(int));
	r.thread_idx = calloc((size_t)plan->nr_threads, sizeof(int));
	r.cursor = calloc(plan->nr_fwg, sizeof(*r.cursor));
	if (!r.trees || !r.thread_fwg || !r.thread_idx || !r.cursor) {
		ret = -ENOMEM;
		goto out_free;
	}
	pthread_mutex_init(&r.note_lock, NULL);
	r.seed = bq_mix64((uint64_t)bq_now_ns());
	for (size_t g = 0; g < plan->nr_fwg; g++) {
		const struct bq_files_fwg *fwg = &plan->fwg[g];
		struct ft_tree *tr = &r.trees[fwg->fsd];

		if (!tr->fsd) {
			ret = make_anchor(p->fsd[fwg->fsd].anchor, p->create_anchors, res->note,
					  sizeof(res->note));
			if (!ret)
				ret = ft_tree_build(tr, &p->fsd[fwg->fsd]);
			if (ret) {
				if (!res->note[0])
					snprintf(res->note, sizeof(res->note), "anchor %.200s: %s",
						 p->fsd[fwg->fsd].anchor, strerror(-ret));
				goto out_trees;
			}
			ft_tree_scan(tr);
		}
		for (int i = 0; i < fwg->threads; i++, n++) {
			r.thread_fwg[n] = (int)g;
			r.thread_idx[n] = i;
		}
		count_roles(tr, roles_of(fwg, plan->format), fwg->threads);
	}
	ret = bq_ops_run(o->ctx, &opts, &res->ops);
	if (ret) {
		snprintf(res->note, sizeof(res->note), "starting threads: %s", strerror(-ret));
		goto out_trees;
	}
	make_tail(res, &hook, o->interval_ns);
	res->ran_out = r.ran_out;
	if (r.ran_out)
		bq_strlcpy(res->note, r.note, sizeof(res->note));
	for (size_t f = 0; f < p->nr_fsd; f++) {
		const struct ft_tree *tr = &r.trees[f];

		for (uint32_t d = 0; d < tr->nr_dirs; d++)
			res->dirs += tr->dirs[d].exists;
		for (uint32_t i = 0; i < tr->nr_files; i++)
			res->files += tr->files[i].exists;
	}
out_trees:
	for (size_t f = 0; f < p->nr_fsd; f++)
		ft_tree_free(&r.trees[f]);
	pthread_mutex_destroy(&r.note_lock);
out_free:
	free(r.trees);
	free(r.thread_fwg);
	free(r.thread_idx);
	free(r.cursor);
	return ret;
}

void bq_files_result_free(struct bq_files_result *res)
{
	bq_ops_result_free(&res->ops);
	memset(res, 0, sizeof(*res));
}
