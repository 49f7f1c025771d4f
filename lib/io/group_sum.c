// SPDX-License-Identifier: GPL-2.0-only
/*
 * group_sum.c - fio's group_reporting: the threads of a reporting group
 * added up into one entry, as fio's final report does
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_io.h"
#include "internal.h"

void bq_group_sums_free(struct bq_group_sum *g, size_t nr)
{
	for (size_t i = 0; g && i < nr; i++) {
		for (int d = 0; d < BQ_NR_DIRS; d++)
			bq_hist_free(&g[i].sum.d[d].lat);
		bq_hist_free(&g[i].sum.trim.lat);
	}
	free(g);
}

static int entry_new(struct bq_group_sum **g, size_t *nr, int groupid, size_t job, int thread)
{
	struct bq_group_sum *n = realloc(*g, (*nr + 1) * sizeof(*n));
	struct bq_group_sum *e;

	if (!n)
		return -ENOMEM;
	*g = n;
	e = &n[*nr];
	memset(e, 0, sizeof(*e));
	e->groupid = groupid;
	e->first_job = job;
	e->first_thread = thread;
	(*nr)++;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (bq_hist_init(&e->sum.d[d].lat))
			return -ENOMEM;
	if (bq_hist_init(&e->sum.trim.lat))
		return -ENOMEM;
	return 0;
}

/* Add thread @i of @jr; fio takes each direction's longest runtime. */
static void entry_add(struct bq_group_sum *e, const struct bq_job_result *jr, int i)
{
	struct bq_job_result one = *jr;

	one.threads = &jr->threads[i];
	one.nr_threads = 1;
	bq_job_sum(&one, &e->sum);
	e->nr_threads++;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (jr->threads[i].d[d].bytes && jr->runtime_ns > e->runtime_ns[d])
			e->runtime_ns[d] = jr->runtime_ns;
	if (jr->threads[i].trim.bytes && jr->runtime_ns > e->trim_runtime_ns)
		e->trim_runtime_ns = jr->runtime_ns;
}

int bq_group_sums(const struct bq_results *res, struct bq_group_sum **out, size_t *nr)
{
	struct bq_group_sum *g = NULL;
	bool *reporting = NULL;
	size_t n = 0, keep = 0;
	int last = -1, ret = 0;

	*out = NULL;
	*nr = 0;
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];

		for (int i = 0; i < jr->nr_threads; i++) {
			bool join = n && jr->job.group_reporting && last == jr->groupid;
			bool *r;

			if (!join) {
				ret = entry_new(&g, &n, jr->groupid, k, i);
				r = realloc(reporting, n * sizeof(*r));
				if (ret || !r) {
					ret = -ENOMEM;
					goto out_free;
				}
				reporting = r;
				reporting[n - 1] = false;
			}
			reporting[n - 1] |= jr->job.group_reporting;
			entry_add(&g[n - 1], jr, i);
			last = jr->groupid;
		}
	}
	/* The mean depth of the entry's threads, not a sum of depths. */
	for (size_t e = 0; e < n; e++)
		if (g[e].nr_threads > 1) {
			double s = 0;
			size_t k = g[e].first_job;
			int i = g[e].first_thread;

			for (int t = 0; t < g[e].nr_threads; t++) {
				while (i >= res->jobs[k].nr_threads) {
					k++;
					i = 0;
				}
				s += res->jobs[k].threads[i++].mean_depth;
			}
			g[e].sum.mean_depth = s / g[e].nr_threads;
		}
	/* Only the entries group_reporting made; the rest are each job's own figures. */
	for (size_t e = 0; e < n; e++) {
		if (reporting[e]) {
			g[keep++] = g[e];
			continue;
		}
		for (int d = 0; d < BQ_NR_DIRS; d++)
			bq_hist_free(&g[e].sum.d[d].lat);
		bq_hist_free(&g[e].sum.trim.lat);
	}
	free(reporting);
	*out = g;
	*nr = keep;
	return 0;
out_free:
	free(reporting);
	bq_group_sums_free(g, n);
	return ret;
}
