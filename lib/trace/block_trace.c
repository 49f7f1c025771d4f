// SPDX-License-Identifier: GPL-2.0-only
/*
 * block_trace.c - load block_trace.bpf.c, follow a set of devices, and
 * read what it aggregated over a window
 *
 * The program's arrays are mapped read-only here: a mark is a copy of
 * the followed devices' part of them, and a window's figures are the
 * difference between the arrays now and a mark.  No event reaches user
 * space, however many requests there are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "config-host.h"
#include "blkqual_trace.h"
#include "internal.h"

#ifdef CONFIG_LIBBPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace/block_trace_maps.h"
#include "trace/trace_int.h"
#include "block_trace.skel.h"

_Static_assert(BT_HIST_BUCKETS == BQ_HIST_BUCKETS, "the program's buckets are blkqual's");
_Static_assert(BT_MAX_DEVS == BQ_TRACE_MAX_DEVS && BT_MAX_CPUS == BQ_TRACE_MAX_CPUS &&
	       BT_MAX_HCTX == BQ_TRACE_MAX_HCTX, "the program's limits are the header's");

/* One of the program's arrays, mapped. */
struct mapped {
	void *p;
	size_t len;
};

struct bq_trace {
	struct block_trace_bpf *skel;
	struct mapped hist, sums, devstat, cpus;
	int nr;
	dev_t devt[BT_MAX_DEVS];
	char name[BT_MAX_DEVS][64];
};

struct bq_trace_mark {
	uint64_t *hist;				/* [nr slots' buckets] */
	struct bt_sum sums[BT_SLOTS];
	struct bt_dev devs[BT_MAX_DEVS];
	uint64_t cpus[BT_MAX_CPUS * BT_MAX_CPUS];
	uint64_t t_ns;
};

#define HIST_BYTES(nr)	((size_t)(nr) * BT_DIRS * BT_STAGES * BT_HIST_BUCKETS * sizeof(uint64_t))

static int map_array(struct bpf_map *map, size_t bytes, struct mapped *m)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = bpf_map__fd(map);

	if (fd < 0)
		return fd;
	m->len = (bytes + page - 1) & ~(page - 1);
	m->p = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, 0);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return -errno;
	}
	return 0;
}

static void unmap_array(struct mapped *m)
{
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
}

/*
 * Why the program could not be loaded, in the terms of what the user can
 * change: the privilege, the kernel, or the build.
 */
static int load_failed(int ret, char *why, size_t len)
{
	if (ret == -EPERM || ret == -EACCES)
		snprintf(why, len, "tracing needs root (CAP_BPF and CAP_PERFMON)");
	else if (ret == -ENOENT || ret == -ESRCH || ret == -EINVAL)
		snprintf(why, len, "this kernel cannot attach to its block tracepoints through BTF "
			 "(block_rq_issue, block_rq_complete): %s", strerror(-ret));
	else
		snprintf(why, len, "loading the block tracer: %s", strerror(-ret));
	return ret;
}

/**
 * bq_trace_start() - follow the requests of @devs from now on
 * @devs: the devices (bq_trace_devs_add())
 * @out: receives the trace; end it with bq_trace_stop()
 * @why: receives, on failure, a line saying what the environment lacks
 * @len: size of @why
 *
 * Return: 0, -EINVAL for bad arguments, or the -errno of what is
 * missing: -EOPNOTSUPP (built without libbpf, or the kernel without
 * BTF), -ENOSYS (libbpf cannot be loaded), -EPERM (not privileged).
 */
int bq_trace_start(const struct bq_trace_devs *devs, struct bq_trace **out, char *why,
		   size_t len)
{
	int nr = devs->nr, ret;
	struct bq_trace *t;
	struct stat st;

	if (nr <= 0 || nr > BT_MAX_DEVS) {
		snprintf(why, len, "a trace follows 1 to %d devices, not %d", BT_MAX_DEVS, nr);
		return -EINVAL;
	}
	if (stat("/sys/kernel/btf/vmlinux", &st)) {
		snprintf(why, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux): "
			 "it was built without CONFIG_DEBUG_INFO_BTF");
		return -EOPNOTSUPP;
	}
	if (!bq_libbpf_loadable()) {
		snprintf(why, len, "%s cannot be loaded (Debian: libbpf1)", BQ_LIBBPF_SONAME);
		return -ENOSYS;
	}
	libbpf_set_print(NULL);
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	t->skel = block_trace_bpf__open();
	if (!t->skel) {
		ret = load_failed(-errno, why, len);
		goto out_free;
	}
	ret = block_trace_bpf__load(t->skel);
	if (ret) {
		load_failed(ret, why, len);
		goto out_destroy;
	}
	t->nr = nr;
	for (int i = 0; i < nr; i++) {
		dev_t d = devs->devt[i];
		uint32_t key = (uint32_t)(major(d) << 20 | minor(d)), val = (uint32_t)i;

		t->devt[i] = d;
		bq_strlcpy(t->name[i], devs->name[i], sizeof(t->name[i]));
		ret = bpf_map_update_elem(bpf_map__fd(t->skel->maps.devs), &key, &val, BPF_ANY);
		if (ret) {
			ret = -errno;
			snprintf(why, len, "following %s: %s", devs->name[i], strerror(errno));
			goto out_destroy;
		}
	}
	ret = map_array(t->skel->maps.hist, HIST_BYTES(BT_MAX_DEVS), &t->hist);
	if (!ret)
		ret = map_array(t->skel->maps.sums, sizeof(struct bt_sum) * BT_SLOTS, &t->sums);
	if (!ret)
		ret = map_array(t->skel->maps.devstat, sizeof(struct bt_dev) * BT_MAX_DEVS,
				&t->devstat);
	if (!ret)
		ret = map_array(t->skel->maps.cpus, sizeof(uint64_t) * BT_MAX_CPUS * BT_MAX_CPUS,
				&t->cpus);
	if (ret) {
		snprintf(why, len, "mapping the tracer's counters: %s", strerror(-ret));
		goto out_unmap;
	}
	ret = block_trace_bpf__attach(t->skel);
	if (ret) {
		load_failed(ret, why, len);
		goto out_unmap;
	}
	*out = t;
	return 0;

out_unmap:
	unmap_array(&t->hist);
	unmap_array(&t->sums);
	unmap_array(&t->devstat);
	unmap_array(&t->cpus);
out_destroy:
	block_trace_bpf__destroy(t->skel);
out_free:
	free(t);
	return ret;
}

/**
 * bq_trace_mark() - remember the counters now, to measure a window from
 * @t: the trace
 * @out: receives the mark; free it with bq_trace_mark_free()
 *
 * Return: 0 or -ENOMEM.
 */
int bq_trace_mark(struct bq_trace *t, struct bq_trace_mark **out)
{
	struct bq_trace_mark *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->hist = malloc(HIST_BYTES(t->nr));
	if (!m->hist) {
		free(m);
		return -ENOMEM;
	}
	m->t_ns = bq_now_ns();
	memcpy(m->hist, t->hist.p, HIST_BYTES(t->nr));
	memcpy(m->sums, t->sums.p, sizeof(m->sums));
	memcpy(m->devs, t->devstat.p, sizeof(m->devs));
	memcpy(m->cpus, t->cpus.p, sizeof(m->cpus));
	*out = m;
	return 0;
}

/* One stage's histogram over the window: the buckets' differences. */
static int stage_since(const uint64_t *now, const uint64_t *then, const struct bt_sum *sum_now,
		       const struct bt_sum *sum_then, struct bq_hist *h)
{
	int ret = bq_hist_init(h);

	if (ret)
		return ret;
	for (unsigned int b = 0; b < BT_HIST_BUCKETS; b++) {
		uint64_t n = now[b] - then[b], lower, width;

		if (!n)
			continue;
		/* The midpoint, as a percentile reports a bucket. */
		bq_hist_bucket_bounds(b, &lower, &width);
		for (; n > UINT32_MAX; n -= UINT32_MAX)
			bq_hist_add_n(h, lower + width / 2, UINT32_MAX);
		bq_hist_add_n(h, lower + width / 2, (uint32_t)n);
	}
	/* The kernel kept the exact total: the mean is not a bucket's. */
	if (h->count)
		h->sum = (double)(sum_now->sum_ns - sum_then->sum_ns);
	return 0;
}

/**
 * bq_trace_since() - what the followed devices did since @m
 * @t: the trace
 * @m: a mark of @t
 * @out: receives the figures; free them with bq_trace_result_free()
 *
 * Return: 0 or -ENOMEM.
 */
int bq_trace_since(struct bq_trace *t, const struct bq_trace_mark *m,
		   struct bq_trace_result **out)
{
	const uint64_t *hist = t->hist.p;
	const struct bt_sum *sums = t->sums.p;
	const struct bt_dev *devs = t->devstat.p;
	const uint64_t *cpus = t->cpus.p;
	struct bq_trace_result *r = calloc(1, sizeof(*r));
	int ret = 0;

	if (!r)
		return -ENOMEM;
	r->window_ns = bq_now_ns() - m->t_ns;
	r->nr_devs = t->nr;
	for (int i = 0; i < t->nr; i++) {
		struct bq_trace_dev *d = &r->devs[i];

		d->devt = t->devt[i];
		bq_strlcpy(d->name, t->name[i], sizeof(d->name));
		for (int dir = 0; dir < BT_DIRS; dir++) {
			for (int s = 0; s < BT_STAGES; s++) {
				size_t slot = BT_SLOT(i, dir, s), at = slot * BT_HIST_BUCKETS;

				ret = stage_since(hist + at, m->hist + at, &sums[slot],
						  &m->sums[slot], &d->stage[dir][s]);
				if (ret)
					goto out_free;
			}
		}
		d->other = devs[i].other - m->devs[i].other;
		d->merges = devs[i].merges - m->devs[i].merges;
		d->splits = devs[i].splits - m->devs[i].splits;
		d->no_start = devs[i].no_start - m->devs[i].no_start;
		d->untracked = devs[i].untracked - m->devs[i].untracked;
		d->requeues = devs[i].requeues - m->devs[i].requeues;
		for (int q = 0; q < BT_MAX_HCTX; q++)
			d->hctx[q] = devs[i].hctx[q] - m->devs[i].hctx[q];
	}
	for (int s = 0; s < BT_MAX_CPUS; s++)
		for (int c = 0; c < BT_MAX_CPUS; c++)
			r->cpus[s][c] = cpus[s * BT_MAX_CPUS + c] - m->cpus[s * BT_MAX_CPUS + c];
	*out = r;
	return 0;

out_free:
	bq_trace_result_free(r);
	return ret;
}

/**
 * bq_trace_mark_free() - free a mark
 * @m: the mark, or NULL
 */
void bq_trace_mark_free(struct bq_trace_mark *m)
{
	if (!m)
		return;
	free(m->hist);
	free(m);
}

/**
 * bq_trace_stop() - detach the programs and free the trace
 * @t: the trace, or NULL
 */
void bq_trace_stop(struct bq_trace *t)
{
	if (!t)
		return;
	unmap_array(&t->hist);
	unmap_array(&t->sums);
	unmap_array(&t->devstat);
	unmap_array(&t->cpus);
	block_trace_bpf__destroy(t->skel);
	free(t);
}

#else /* !CONFIG_LIBBPF */

int bq_trace_start(const struct bq_trace_devs *devs, struct bq_trace **out, char *why,
		   size_t len)
{
	snprintf(why, len, "blkqual was built without libbpf (Debian: libbpf-dev, bpftool, clang; "
		 "then rebuild)");
	return -EOPNOTSUPP;
}

int bq_trace_mark(struct bq_trace *t, struct bq_trace_mark **out)
{
	return -EOPNOTSUPP;
}

int bq_trace_since(struct bq_trace *t, const struct bq_trace_mark *m,
		   struct bq_trace_result **out)
{
	return -EOPNOTSUPP;
}

void bq_trace_mark_free(struct bq_trace_mark *m)
{
}

void bq_trace_stop(struct bq_trace *t)
{
}
#endif /* CONFIG_LIBBPF */

/**
 * bq_trace_result_add() - add a later window of the same devices
 * @dst: the figures so far (run --repeat: the earlier repetitions)
 * @src: the next window's; devices @dst lacks are left out
 */
void bq_trace_result_add(struct bq_trace_result *dst, const struct bq_trace_result *src)
{
	for (int i = 0; i < dst->nr_devs && i < src->nr_devs; i++) {
		struct bq_trace_dev *d = &dst->devs[i];
		const struct bq_trace_dev *s = &src->devs[i];

		if (d->devt != s->devt)
			continue;
		for (int dir = 0; dir < 2; dir++)
			for (int st = 0; st < BQ_NR_STAGES; st++)
				bq_hist_merge(&d->stage[dir][st], &s->stage[dir][st]);
		d->other += s->other;
		d->merges += s->merges;
		d->splits += s->splits;
		d->no_start += s->no_start;
		d->untracked += s->untracked;
		d->requeues += s->requeues;
		for (int q = 0; q < BQ_TRACE_MAX_HCTX; q++)
			d->hctx[q] += s->hctx[q];
	}
	for (int s = 0; s < BQ_TRACE_MAX_CPUS; s++)
		for (int c = 0; c < BQ_TRACE_MAX_CPUS; c++)
			dst->cpus[s][c] += src->cpus[s][c];
	dst->window_ns += src->window_ns;
}

/**
 * bq_trace_result_keep() - drop the devices a window's owner did not use
 * @r: the figures
 * @keep: the devices to keep (a job's targets' and their members)
 *
 * One trace follows a whole phase's devices; each job reports its own.
 * The completion map stays the trace's: it cannot tell devices apart.
 */
void bq_trace_result_keep(struct bq_trace_result *r, const struct bq_trace_devs *keep)
{
	int n = 0;

	for (int i = 0; i < r->nr_devs; i++) {
		bool wanted = false;

		for (int k = 0; k < keep->nr && !wanted; k++)
			wanted = keep->devt[k] == r->devs[i].devt;
		if (!wanted) {
			for (int dir = 0; dir < 2; dir++)
				for (int s = 0; s < BQ_NR_STAGES; s++)
					bq_hist_free(&r->devs[i].stage[dir][s]);
			continue;
		}
		if (n != i)
			r->devs[n] = r->devs[i];
		n++;
	}
	r->nr_devs = n;
}

/**
 * bq_trace_result_free() - free what bq_trace_since() returned
 * @r: the figures, or NULL
 */
void bq_trace_result_free(struct bq_trace_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nr_devs; i++)
		for (int dir = 0; dir < 2; dir++)
			for (int s = 0; s < BQ_NR_STAGES; s++)
				bq_hist_free(&r->devs[i].stage[dir][s]);
	free(r);
}
