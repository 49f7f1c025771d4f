// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_groups.c - job ordering in a run's report: each job's reporting
 * group and run window, and the entries fio's group_reporting makes
 * (text and JSON)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report_util.h"
#include "run_report.h"

static const char *const dir_key[BQ_NR_DIRS] = { "read", "write" };
static const char *const exit_what_name[] = { "group", "stonewall", "all" };

/**
 * print_order() - a job's place in the run's order, under its first line
 * @out: where to
 * @jr: the job
 *
 * Says nothing for a job that started with the run and waited for none.
 *
 * Return: true when the job never ran, and that is all there is to say.
 */
bool print_order(FILE *out, const struct bq_job_result *jr)
{
	const struct bq_job *j = &jr->job;

	if (jr->not_started) {
		fprintf(out, "  %s\n", jr->notes);
		return true;
	}
	if (!j->stonewall && !j->wait_for[0] && j->loops <= 1 && !j->startdelay_max_ns)
		return false;
	fprintf(out, "  order:%s%s%s", j->stonewall ? " stonewall" : "",
		j->wait_for[0] ? " wait_for=" : "", j->wait_for);
	if (j->loops > 1)
		fprintf(out, " loops=%u", j->loops);
	if (j->startdelay_max_ns)
		fprintf(out, " startdelay=%.3g-%.3gs", (double)j->startdelay_ns / 1e9,
			(double)j->startdelay_max_ns / 1e9);
	fputc('\n', out);
	return false;
}

/* The member jobs of an entry, by name, each once. */
static void entry_names(const struct bq_results *res, const struct bq_group_sum *g,
			char *buf, size_t len)
{
	size_t k = g->first_job, n = 0;
	int i = g->first_thread, left = g->nr_threads;

	buf[0] = '\0';
	while (left > 0 && k < res->nr) {
		int here = res->jobs[k].nr_threads - i;

		if (here > left)
			here = left;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      res->jobs[k].job.name);
		left -= here;
		k++;
		i = 0;
	}
}

/**
 * print_groups() - fio's group_reporting entries, after the jobs
 * @out: where to
 * @res: the results
 */
void print_groups(FILE *out, const struct bq_results *res)
{
	struct bq_group_sum *g;
	size_t nr;
	char names[512];

	if (bq_group_sums(res, &g, &nr))
		return;
	for (size_t e = 0; e < nr; e++) {
		entry_names(res, &g[e], names, sizeof(names));
		fprintf(out, "\ngroup %d (group_reporting, %d thread%s of %s):\n", g[e].groupid,
			g[e].nr_threads, g[e].nr_threads == 1 ? "" : "s", names);
		for (int d = 0; d < BQ_NR_DIRS; d++)
			print_dir(out, &g[e].sum.d[d], d, g[e].runtime_ns[d]);
		/* print_dir() numbers trims after the two directions. */
		print_dir(out, &g[e].sum.trim, BQ_NR_DIRS, g[e].trim_runtime_ns);
		fprintf(out, "  cpu: usr=%.3fs sys=%.3fs ctx=%" PRIu64 "\n",
			(double)g[e].sum.usr_ns / 1e9, (double)g[e].sum.sys_ns / 1e9,
			g[e].sum.vol_cs + g[e].sum.invol_cs);
	}
	bq_group_sums_free(g, nr);
}

/**
 * job_order_json() - a job's group and run window, in its JSON object
 * @o: the job's object
 * @jr: the job
 */
void job_order_json(json_object *o, const struct bq_job_result *jr)
{
	json_object_object_add(o, "groupid", json_object_new_int(jr->groupid));
	json_object_object_add(o, "start_unix_ns", json_u64(jr->start_unix_ns));
	json_object_object_add(o, "end_unix_ns", json_u64(jr->end_unix_ns));
	if (jr->not_started)
		json_object_object_add(o, "not_started", json_object_new_boolean(true));
}

/**
 * job_order_options_json() - the ordering options, in a job's "options"
 * @o: the options object
 * @j: the job
 */
void job_order_options_json(json_object *o, const struct bq_job *j)
{
	json_object_object_add(o, "startdelay_ns", json_u64(j->startdelay_ns));
	if (j->startdelay_max_ns)
		json_object_object_add(o, "startdelay_max_ns", json_u64(j->startdelay_max_ns));
	json_object_object_add(o, "group_reporting", json_object_new_boolean(j->group_reporting));
	json_object_object_add(o, "stonewall", json_object_new_boolean(j->stonewall));
	json_object_object_add(o, "new_group", json_object_new_boolean(j->new_group));
	json_object_object_add(o, "wait_for", json_object_new_string(j->wait_for));
	json_object_object_add(o, "loops", json_u64(j->loops ? j->loops : 1));
	json_object_object_add(o, "exitall", json_object_new_boolean(j->exitall));
	json_object_object_add(o, "exit_what", json_object_new_string(
		exit_what_name[j->exit_what]));
	json_object_object_add(o, "exitall_on_error", json_object_new_boolean(j->exitall_on_error));
}

/**
 * groups_json() - fio's group_reporting entries
 * @res: the results
 *
 * Return: an array, one object per entry: "groupid", "name" (its first
 * job's, as fio's jobname), "jobs" (member names), "threads", and per
 * direction the sums with "runtime_ns" (the longest member's), "cpu_usage".
 */
json_object *groups_json(const struct bq_results *res)
{
	json_object *arr = json_object_new_array();
	struct bq_group_sum *g;
	size_t nr;

	if (!arr || bq_group_sums(res, &g, &nr))
		return arr;
	for (size_t e = 0; e < nr; e++) {
		json_object *o = json_object_new_object(), *jobs = json_object_new_array();
		json_object *cpu = json_object_new_object();
		size_t k = g[e].first_job;
		int i = g[e].first_thread, left = g[e].nr_threads;

		json_object_object_add(o, "groupid", json_object_new_int(g[e].groupid));
		json_object_object_add(o, "name",
				       json_object_new_string(res->jobs[g[e].first_job].job.name));
		while (left > 0 && k < res->nr) {
			json_object_array_add(jobs, json_object_new_string(res->jobs[k].job.name));
			left -= res->jobs[k].nr_threads - i;
			k++;
			i = 0;
		}
		json_object_object_add(o, "jobs", jobs);
		json_object_object_add(o, "threads", json_object_new_int(g[e].nr_threads));
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			json_object *dj = dir_json(&g[e].sum.d[d], g[e].runtime_ns[d]);

			json_object_object_add(dj, "runtime_ns", json_u64(g[e].runtime_ns[d]));
			json_object_object_add(o, dir_key[d], dj);
		}
		{
			json_object *dj = dir_json(&g[e].sum.trim, g[e].trim_runtime_ns);

			json_object_object_add(dj, "runtime_ns", json_u64(g[e].trim_runtime_ns));
			json_object_object_add(o, "trim", dj);
		}
		json_object_object_add(cpu, "usr_ns", json_u64(g[e].sum.usr_ns));
		json_object_object_add(cpu, "sys_ns", json_u64(g[e].sum.sys_ns));
		json_object_object_add(cpu, "voluntary_ctx", json_u64(g[e].sum.vol_cs));
		json_object_object_add(cpu, "involuntary_ctx", json_u64(g[e].sum.invol_cs));
		json_object_object_add(o, "cpu_usage", cpu);
		json_object_object_add(o, "mean_depth", json_dbl(g[e].sum.mean_depth));
		json_object_array_add(arr, o);
	}
	bq_group_sums_free(g, nr);
	return arr;
}
