// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_stages.c - blkqual compare on runs made with --trace=block: how
 * each block-layer stage moved, shown beside the verdict
 *
 * The stages are not tested: they are not in the verdict's family of
 * metrics (which Holm's correction sizes), and a trace's histograms are
 * one per run.  They say where a change the verdict found happened: in
 * the queue, in the device, or outside both (the tester's remainder).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_util.h"

static const char *const stage_dirs[] = { "read", "write" };
static const char *const stage_names[] = { "queue", "device" };
static const struct {
	const char *name;
	const char *key;
} stage_figures[] = {
	{ "mean", "mean" },
	{ "p99", "percentiles/99" },
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The device's entry in a job's block_trace, or NULL. */
static json_object *trace_device(json_object *job, const char *dev)
{
	size_t n;
	json_object *devs = cmp_array(job, "block_trace/devices", &n);

	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(devs, i);
		const char *name = json_object_get_string(cmp_path(d, "device"));

		if (name && !strcmp(name, dev))
			return d;
	}
	return NULL;
}

/* The median over a side's result files of one stage figure; NAN when none has it. */
static double side_median(const struct cmp_side *s, const char *job, const char *dev,
			  const char *path)
{
	double *v = calloc((size_t)s->nr + 1, sizeof(*v)), m = NAN;
	int n = 0;

	if (!v)
		return NAN;
	for (int i = 0; i < s->nr; i++) {
		json_object *j = cmp_find_job(cmp_path(s->docs[i], "jobs"), job);
		json_object *o = j ? cmp_path(trace_device(j, dev), path) : NULL;

		if (o && (json_object_is_type(o, json_type_double) ||
			  json_object_is_type(o, json_type_int)))
			v[n++] = json_object_get_double(o);
	}
	if (n) {
		qsort(v, (size_t)n, sizeof(*v), by_value);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return m;
}

static int add_stage(struct cmp_stage **rows, int *nr, const struct cmp_stage *r)
{
	struct cmp_stage *grown = realloc(*rows, sizeof(*grown) * (size_t)(*nr + 1));

	if (!grown)
		return -1;
	grown[(*nr)++] = *r;
	*rows = grown;
	return 0;
}

/**
 * cmp_stages() - the block-layer stages both sides traced, compared
 * @base: one side
 * @new: the other
 * @jobs: the jobs compared
 * @nr_jobs: how many (NULL entries are skipped)
 * @out: receives the rows (free()); none when a side has no trace
 *
 * Per job, device (as the base side's first file names them), direction,
 * stage and figure: the median over each side's files, and the change.
 *
 * Return: the number of rows, or -1 when out of memory.
 */
int cmp_stages(const struct cmp_side *base, const struct cmp_side *new, const char **jobs,
	       int nr_jobs, struct cmp_stage **out)
{
	int nr = 0;

	*out = NULL;
	for (int j = 0; j < nr_jobs && base->nr; j++) {
		json_object *job = jobs[j] ? cmp_find_job(cmp_path(base->docs[0], "jobs"),
							  jobs[j]) : NULL;
		json_object *devs;
		size_t nd;

		devs = job ? cmp_array(job, "block_trace/devices", &nd) : NULL;
		for (size_t i = 0; devs && i < nd; i++) {
			const char *dev = json_object_get_string(
				cmp_path(json_object_array_get_idx(devs, i), "device"));

			for (int d = 0; dev && d < 2; d++) {
				for (int st = 0; st < 2; st++) {
					for (size_t f = 0; f < ARRAY_LEN(stage_figures); f++) {
						struct cmp_stage r = { .job = jobs[j] };
						char path[96];

						snprintf(path, sizeof(path), "stages/%s/%s/%s",
							 stage_dirs[d], stage_names[st],
							 stage_figures[f].key);
						r.base = side_median(base, jobs[j], dev, path);
						r.new = side_median(new, jobs[j], dev, path);
						if (isnan(r.base) || isnan(r.new) || r.base <= 0)
							continue;
						r.change = r.new / r.base - 1;
						snprintf(r.device, sizeof(r.device), "%s", dev);
						r.dir = stage_dirs[d];
						r.stage = stage_names[st];
						r.figure = stage_figures[f].name;
						if (add_stage(out, &nr, &r)) {
							free(*out);
							*out = NULL;
							return -1;
						}
					}
				}
			}
		}
	}
	return nr;
}

/**
 * cmp_stage_moved_most() - the row whose figure changed the most
 * @rows: cmp_stages()'s rows
 * @nr: how many
 *
 * Return: its index, or -1 when there are none.
 */
int cmp_stage_moved_most(const struct cmp_stage *rows, int nr)
{
	int best = -1;

	for (int i = 0; i < nr; i++)
		if (best < 0 || fabs(rows[i].change) > fabs(rows[best].change))
			best = i;
	return best;
}
