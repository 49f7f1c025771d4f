// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_phases.c - a run as fio orders it: stonewall (wait_for_previous)
 * splits the jobs into phases run one after the other, each through
 * run_phase(), their results put together in the jobs' order; stonewall
 * and new_group number fio's reporting groups; exit_what=all ends the
 * run before the next phase.  Named files are laid out first
 * (lib/io/layout.c): all of them before the first phase, as fio's
 * create_serialize=1 does, or a job's as its phase starts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"
#include "verify/verify_int.h"

/* fio's rule: stonewall or new_group starts a group, unless the current one is empty. */
static void number_groups(const struct bq_jobset *set, int *groupid)
{
	int gid = 0, in_group = 0;

	for (size_t k = 0; k < set->nr; k++) {
		const struct bq_job *j = &set->jobs[k];

		if ((j->stonewall || j->new_group) && in_group) {
			gid++;
			in_group = 0;
		}
		groupid[k] = gid;
		in_group++;
	}
}

/* What fio refuses before it starts, and what blkqual cannot do yet. */
static int check_order(const struct bq_jobset *set, const struct bq_run_opts *opts,
		       struct bq_parse_error *err)
{
	int verifying = 0;

	for (size_t k = 0; k < set->nr; k++) {
		const struct bq_job *j = &set->jobs[k];
		int found = 0;

		verifying += j->verify != 0;
		if (!j->wait_for[0])
			continue;
		if (!strcmp(j->wait_for, j->name))
			return bq_fail_at(err, j->name, -EINVAL, "wait_for=%s: a job cannot wait "
					  "for itself", j->wait_for);
		for (size_t o = 0; o < set->nr; o++)
			found += o != k && !strcmp(set->jobs[o].name, j->wait_for);
		if (!found)
			return bq_fail_at(err, j->name, -EINVAL, "wait_for=%s: no job of that name",
					  j->wait_for);
		if (found > 1)
			return bq_fail_at(err, j->name, -EINVAL, "wait_for=%s: %d jobs have that "
					  "name; it must name one", j->wait_for, found);
		for (size_t o = k + 1; o < set->nr; o++)
			if (!strcmp(set->jobs[o].name, j->wait_for))
				return bq_fail_at(err, j->name, -EINVAL, "wait_for=%s: that job "
						  "comes later; it must come first", j->wait_for);
	}
	/* Each phase would otherwise check only its own jobs. */
	if (opts->verify_state && verifying > 1)
		return bq_fail_at(err, "--verify-state", -EINVAL, "one state file is for one job; "
				  "%d jobs have verify=", verifying);
	return 0;
}

/**
 * run_job_not_started() - the result of a job that did not run (yet)
 * @jr: receives it: zero figures, a note saying why
 * @j: the job
 * @groupid: its reporting group
 * @why: for the note
 *
 * exit_what=all or a stop ended the run before its phase, or (in a
 * status report) the run has not reached it yet.
 *
 * Return: 0 or -ENOMEM; bq_results_free() frees what was made either way.
 */
int run_job_not_started(struct bq_job_result *jr, const struct bq_job *j, int groupid,
			const char *why)
{
	memset(jr, 0, sizeof(*jr));
	jr->job = *j;
	jr->groupid = groupid;
	jr->not_started = true;
	jr->nr_threads = (int)(j->numjobs ? j->numjobs : 1);
	jr->job.numjobs = (unsigned int)jr->nr_threads;
	jr->threads = calloc((size_t)jr->nr_threads, sizeof(*jr->threads));
	if (!jr->threads)
		return -ENOMEM;
	for (int i = 0; i < jr->nr_threads; i++) {
		jr->threads[i].cpu = jr->threads[i].node = jr->threads[i].buf_node = -1;
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			int ret = bq_hist_init(&jr->threads[i].d[d].lat);

			if (ret)
				return ret;
		}
	}
	run_job_note(jr, "not started: %s", why);
	return 0;
}

/* Move a phase's jobs to the end of the run's, timed from the run's start. */
static int take_phase(struct bq_results *res, struct bq_results *one, const struct bq_job *orig,
		      const int *groupid, struct run_order *order)
{
	struct bq_job_result *jobs = realloc(res->jobs, (res->nr + one->nr) * sizeof(*jobs));

	if (!jobs)
		return -ENOMEM;
	res->jobs = jobs;
	if (!res->nr)
		res->start_unix_ns = one->start_unix_ns;
	for (size_t k = 0; k < one->nr; k++) {
		struct bq_job_result *jr = &jobs[res->nr + k];

		*jr = one->jobs[k];
		order->threads_before += jr->nr_threads;
		for (int i = 0; i < jr->nr_threads; i++)
			for (int d = 0; d < BQ_NR_DIRS; d++) {
				order->ios_before += jr->threads[i].d[d].ios;
				order->bytes_before += jr->threads[i].d[d].bytes;
			}
		/* The job as given: its startdelay was shortened by the phases before. */
		jr->job.startdelay_ns = orig[k].startdelay_ns;
		jr->job.startdelay_max_ns = orig[k].startdelay_max_ns;
		jr->groupid = groupid[k];
	}
	res->nr += one->nr;
	res->interrupted |= one->interrupted;
	res->stalled |= one->stalled;
	res->gone |= one->gone;
	free(one->jobs);
	one->jobs = NULL;
	one->nr = 0;
	return 0;
}

/* One past the last job of the phase starting at @a: the next stonewall. */
static size_t phase_end(const struct bq_jobset *set, size_t a)
{
	size_t b = a + 1;

	while (b < set->nr && !set->jobs[b].stonewall)
		b++;
	return b;
}

int bq_run(struct bq_ctx *ctx, const struct bq_jobset *set, const struct bq_run_opts *opts,
	   struct bq_results *res, struct bq_parse_error *err)
{
	struct run_order order = { 0 };
	struct bq_layout_tally *layout;
	struct bq_job *sub;
	uint64_t genesis = bq_now_ns();
	int *groupid, ret = 0;
	size_t a = 0;

	memset(res, 0, sizeof(*res));
	memset(err, 0, sizeof(*err));
	ret = check_order(set, opts, err);
	if (ret)
		return ret;
	groupid = calloc(set->nr ? set->nr : 1, sizeof(*groupid));
	sub = calloc(set->nr ? set->nr : 1, sizeof(*sub));
	layout = calloc(set->nr ? set->nr : 1, sizeof(*layout));
	if (!groupid || !sub || !layout) {
		ret = -ENOMEM;
		goto out_free;
	}
	number_groups(set, groupid);
	order.genesis_ns = genesis;
	order.done = res;
	order.all = set;
	order.groupid_all = groupid;
	for (size_t k = 0; k < set->nr; k++)
		order.exitall |= set->jobs[k].exitall;
	order.groupid = groupid;
	/* fio's create_serialize=1: every job's files, in order, before the first job. */
	ret = bq_layout_jobs(ctx, set, 0, set->nr, true, opts, layout, err);
	if (ret)
		goto out_free;
	while (a < set->nr) {
		size_t b = phase_end(set, a);
		struct bq_jobset phase = { .jobs = sub + a, .nr = b - a };
		uint64_t spent = bq_now_ns() - genesis;
		struct bq_results one;

		if (order.end_all || res->stalled || res->gone ||
		    (opts->stop && *opts->stop))
			break;
		/* startdelay counts from the start of the run, as fio's does, not of the phase. */
		for (size_t k = a; k < b; k++) {
			sub[k] = set->jobs[k];
			sub[k].startdelay_ns = sub[k].startdelay_ns > spent ?
					       sub[k].startdelay_ns - spent : 0;
			if (sub[k].startdelay_max_ns)
				sub[k].startdelay_max_ns = sub[k].startdelay_max_ns > spent ?
							   sub[k].startdelay_max_ns - spent : 0;
		}
		order.groupid = groupid + a;
		order.phase_end = b;
		order.layout = layout + a;
		/* create_serialize=0: a job lays its files out as it starts. */
		ret = bq_layout_jobs(ctx, set, a, b, false, opts, layout, err);
		if (ret) {
			bq_results_free(res);
			memset(res, 0, sizeof(*res));
			goto out_free;
		}
		ret = run_phase(ctx, &phase, opts, &order, &one, err);
		if (ret) {
			/* The phase could not start: nothing of the run is reported. */
			if (!one.stalled)
				bq_results_free(&one);
			bq_results_free(res);
			memset(res, 0, sizeof(*res));
			goto out_free;
		}
		ret = take_phase(res, &one, set->jobs + a, groupid + a, &order);
		if (ret)
			goto out_free;
		a = b;
	}
	/* A stop before a phase began interrupts the run as much as one during it. */
	if (opts->stop && *opts->stop)
		res->interrupted = true;
	if (a < set->nr) {
		struct bq_job_result *jobs = realloc(res->jobs, set->nr * sizeof(*jobs));

		if (!jobs) {
			ret = -ENOMEM;
			goto out_free;
		}
		res->jobs = jobs;
		for (; a < set->nr; a++) {
			ret = run_job_not_started(&res->jobs[res->nr], &set->jobs[a], groupid[a],
					  order.end_all ? "exitall with exit_what=all ended the run" :
					  "the run ended before its phase");
			res->nr++;
			if (ret)
				goto out_free;
		}
	}
out_free:
	free(layout);
	free(groupid);
	free(sub);
	return ret;
}
