// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_trace.c - --trace=block in a run: one trace of the block devices
 * under all of a phase's targets, started before any I/O, and each job's
 * window (the same as its diskstats window) read from it
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blkqual_trace.h"
#include "run_int.h"

/*
 * The block device a target's I/O goes to: the target itself, or the one
 * its file lives on.  0 when there is none (tmpfs, say).
 */
static dev_t target_device(struct run_state *st, const struct bq_target_info *ti, char *name,
			   size_t len)
{
	struct bq_device dev;
	dev_t devt;

	if (ti->is_blk) {
		bq_strlcpy(name, ti->devname, len);
		return ti->st.st_rdev;
	}
	if (!S_ISREG(ti->st.st_mode) || bq_device_facts_devt(st->ctx, ti->st.st_dev, &dev))
		return 0;
	bq_strlcpy(name, dev.name, len);
	devt = dev.devt;
	bq_device_release(&dev);
	return devt;
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
	dev_t devs[BQ_TRACE_MAX_DEVS];
	char names[BQ_TRACE_MAX_DEVS][64], why[256];
	const char *np[BQ_TRACE_MAX_DEVS];
	int nr = 0, ret;

	if (!st->opts->trace_block)
		return 0;
	for (size_t k = 0; k < st->res->nr; k++) {
		const struct bq_job_result *jr = &st->res->jobs[k];

		for (int i = 0; i < jr->nr_targets; i++) {
			char name[64] = "";
			dev_t d = target_device(st, &jr->targets[i], name, sizeof(name));
			int n;

			for (n = 0; n < nr && devs[n] != d; n++)
				;
			if (!d || n < nr)
				continue;
			if (nr == BQ_TRACE_MAX_DEVS)
				return bq_fail_at(err, "--trace=block", -E2BIG,
						  "the targets are on more than %d block devices",
						  BQ_TRACE_MAX_DEVS);
			devs[nr] = d;
			bq_strlcpy(names[nr], name, sizeof(names[nr]));
			np[nr] = names[nr];
			nr++;
		}
	}
	if (!nr)
		return bq_fail_at(err, "--trace=block", -ENODEV,
				  "no target is, or is on, a block device");
	ret = bq_trace_start(devs, np, nr, &st->trace, why, sizeof(why));
	if (ret)
		return bq_fail_at(err, "--trace=block", ret, "%s", why);
	return 0;
}

/* run_figures.c: job @k's window begins (again, after a ramp) */
void run_trace_mark(struct run_state *st, size_t k)
{
	struct job_state *js = &st->js[k];

	if (!st->trace)
		return;
	bq_trace_mark_free(js->trace_mark);
	js->trace_mark = NULL;
	if (bq_trace_mark(st->trace, &js->trace_mark))
		run_job_note(&st->res->jobs[k], "--trace=block: out of memory: no trace");
}

/* What the completion map is read against: nodes of CPUs and devices, rq_affinity. */
static void trace_facts(struct run_state *st, struct bq_trace_result *r)
{
	struct bq_topology topo;

	for (int c = 0; c < BQ_TRACE_MAX_CPUS; c++)
		r->cpu_node[c] = -1;
	if (!bq_topology_read(st->ctx, &topo)) {
		for (int n = 0; n < topo.nr_nodes; n++)
			for (int i = 0; i < topo.node_nr_cpus[n]; i++)
				if (topo.node_cpus[n][i] < BQ_TRACE_MAX_CPUS)
					r->cpu_node[topo.node_cpus[n][i]] = topo.node_ids[n];
		bq_topology_free(&topo);
	}
	for (int i = 0; i < r->nr_devs; i++) {
		struct bq_trace_dev *d = &r->devs[i];
		struct bq_device dev;

		d->numa_node = -1;
		d->rq_affinity = -1;
		if (bq_device_facts_devt(st->ctx, d->devt, &dev))
			continue;
		d->numa_node = dev.numa_node;
		d->rq_affinity = dev.q.rq_affinity;
		bq_device_release(&dev);
	}
}

/* run_figures.c: job @k's window ends */
void run_trace_end(struct run_state *st, size_t k)
{
	struct job_state *js = &st->js[k];
	struct bq_job_result *jr = &st->res->jobs[k];

	if (!st->trace || !js->trace_mark)
		return;
	bq_trace_result_free(jr->trace);
	jr->trace = NULL;
	if (bq_trace_since(st->trace, js->trace_mark, &jr->trace))
		run_job_note(jr, "--trace=block: out of memory: no trace");
	else
		trace_facts(st, jr->trace);
	bq_trace_mark_free(js->trace_mark);
	js->trace_mark = NULL;
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
	}
	bq_trace_stop(st->trace);
	st->trace = NULL;
}
