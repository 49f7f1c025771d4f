// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_trace.c - --trace=block in a run: one trace of the block devices
 * under all of a phase's targets, started before any I/O, and each job's
 * window (the same as its diskstats window) read from it
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "blkqual_trace.h"
#include "run_int.h"

/*
 * The block device a target's I/O goes to: the target itself, or the one
 * its file lives on.  0 when there is none (tmpfs, say).
 */
static dev_t target_device(const struct bq_target_info *ti)
{
	if (ti->is_blk)
		return ti->st.st_rdev;
	return S_ISREG(ti->st.st_mode) ? ti->st.st_dev : 0;
}

/*
 * Job @k's devices, found once and kept for its window's end; a target
 * on no block device sysfs knows gets a note.  -E2BIG past the limit.
 */
static int job_devices(struct run_state *st, size_t k, struct bq_trace_devs *devs)
{
	struct bq_job_result *jr = &st->res->jobs[k];
	int ret = 0;

	devs->nr = 0;
	for (int i = 0; ret != -E2BIG && i < jr->nr_targets; i++) {
		dev_t d = target_device(&jr->targets[i]);

		ret = d ? bq_trace_devs_add(st->ctx, devs, d) : -ENODEV;
		/* tmpfs, btrfs, overlayfs: no block device sysfs knows by that number. */
		if (ret && ret != -E2BIG)
			run_job_note(jr, "--trace=block: %s is on no block device blkqual can "
				     "follow (%u:%u): not traced", jr->targets[i].path, major(d),
				     minor(d));
	}
	return ret == -E2BIG ? ret : 0;
}

/* Add @one's devices to @all once each; -E2BIG when they do not fit. */
static int devs_union(struct bq_trace_devs *all, const struct bq_trace_devs *one)
{
	for (int i = 0; i < one->nr; i++) {
		int n;

		for (n = 0; n < all->nr && all->devt[n] != one->devt[i]; n++)
			;
		if (n < all->nr)
			continue;
		if (all->nr == BQ_TRACE_MAX_DEVS)
			return -E2BIG;
		all->devt[all->nr] = one->devt[i];
		memcpy(all->name[all->nr], one->name[i], sizeof(all->name[0]));
		all->nr++;
	}
	return 0;
}

/**
 * run_trace_start() - --trace=block: follow the phase's devices from now
 * @st: the phase, its targets open and no I/O started
 * @err: receives, at "--trace=block", what the environment lacks
 *
 * Return: 0, or -errno with @err set.
 */
int run_trace_start(struct run_state *st, struct bq_parse_error *err)
{
	struct bq_trace_devs devs = { .nr = 0 };
	char why[256];
	int ret = 0;

	if (!st->opts->trace_block)
		return 0;
	for (size_t k = 0; !ret && k < st->res->nr; k++) {
		struct job_state *js = &st->js[k];

		js->trace_devs = calloc(1, sizeof(*js->trace_devs));
		if (!js->trace_devs)
			return -ENOMEM;
		ret = job_devices(st, k, js->trace_devs);
		if (!ret)
			ret = devs_union(&devs, js->trace_devs);
	}
	if (ret == -E2BIG)
		return bq_fail_at(err, "--trace=block", ret,
				  "the targets are on more than %d block devices, with their members",
				  BQ_TRACE_MAX_DEVS);
	if (!devs.nr)
		return bq_fail_at(err, "--trace=block", -ENODEV,
				  "no target is, or is on, a block device");
	ret = bq_trace_start(&devs, &st->trace, why, sizeof(why));
	if (ret)
		return bq_fail_at(err, "--trace=block", ret, "%s", why);
	return 0;
}

/*
 * run_figures.c: job @k's window begins (again, after a ramp).  The
 * monitor marks and a verify job's worker may end the window at once:
 * the mark changes hands by exchange, so exactly one of them frees it.
 */
void run_trace_mark(struct run_state *st, size_t k)
{
	struct bq_trace_mark *m = NULL;

	if (!st->trace)
		return;
	if (bq_trace_mark(st->trace, &m))
		run_job_note(&st->res->jobs[k], "--trace=block: out of memory: no trace");
	bq_trace_mark_free(__atomic_exchange_n(&st->js[k].trace_mark, m, __ATOMIC_ACQ_REL));
}

/* run_figures.c: job @k's window ends */
void run_trace_end(struct run_state *st, size_t k)
{
	struct bq_job_result *jr = &st->res->jobs[k];
	struct bq_trace_mark *m;

	if (!st->trace)
		return;
	m = __atomic_exchange_n(&st->js[k].trace_mark, NULL, __ATOMIC_ACQ_REL);
	if (!m)
		return;
	bq_trace_result_free(jr->trace);
	jr->trace = NULL;
	if (bq_trace_since(st->trace, m, &jr->trace)) {
		run_job_note(jr, "--trace=block: out of memory: no trace");
	} else {
		bq_trace_result_keep(jr->trace, st->js[k].trace_devs);
		bq_trace_facts(st->ctx, jr->trace);
	}
	bq_trace_mark_free(m);
}

/**
 * run_trace_stop() - detach the trace and drop the marks left
 * @st: the phase
 */
void run_trace_stop(struct run_state *st)
{
	for (size_t k = 0; st->js && k < st->res->nr; k++) {
		bq_trace_mark_free(st->js[k].trace_mark);
		st->js[k].trace_mark = NULL;
		free(st->js[k].trace_devs);
		st->js[k].trace_devs = NULL;
	}
	bq_trace_stop(st->trace);
	st->trace = NULL;
}
