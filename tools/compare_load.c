// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_load.c - result files for blkqual compare, and the samples in
 * them
 *
 * Noise can only be judged from repeated measurements, so each side
 * yields, per job and metric, the best set of samples it has: one per
 * result file when a directory (or several files) is given, one per
 * repetition of "blkqual run --repeat N", else one per --interval sample.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "result_load.h"

/**
 * cmp_path() - an object below @o by a '/'-separated path
 * @o: the object
 * @path: "total/read/lat_ns/percentiles/99.9" (keys may contain dots)
 *
 * Return: the object, or NULL when any step is missing or null.
 */
json_object *cmp_path(json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, "/");

		if (n >= sizeof(key) || !json_object_is_type(o, json_type_object))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '/');
	}
	return o;
}

/**
 * cmp_array() - an array below @o by a '/'-separated path
 * @o: the object
 * @path: as for cmp_path()
 * @n: receives its length (0 when there is no array)
 *
 * json-c aborts when asked for the length of anything but an array, and a
 * result file may hold anything where an array belongs.
 *
 * Return: the array, or NULL when it is missing or not an array.
 */
json_object *cmp_array(json_object *o, const char *path, size_t *n)
{
	json_object *a = cmp_path(o, path);

	*n = 0;
	if (!json_object_is_type(a, json_type_array))
		return NULL;
	*n = json_object_array_length(a);
	return a;
}

static int load_one(struct cli *cli, struct cmp_side *s, const char *path)
{
	json_object *doc, **docs;
	char **paths;
	int ret;

	ret = result_load(cli, path, &(const struct result_want){
		.what = "'blkqual run' or fio JSON result", .schema = true, .jobs = true,
		.fio = true,
	}, &doc);
	if (ret)
		return ret;
	docs = realloc(s->docs, sizeof(*docs) * (size_t)(s->nr + 1));
	if (docs)
		s->docs = docs;
	paths = realloc(s->paths, sizeof(*paths) * (size_t)(s->nr + 1));
	if (paths)
		s->paths = paths;
	if (!docs || !paths || !(s->paths[s->nr] = strdup(path))) {
		json_object_put(doc);
		return cli_usage_error(cli, "out of memory");
	}
	s->docs[s->nr++] = doc;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int only_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/**
 * cmp_side_load() - read a result file, or every *.json in a directory
 * @cli: for messages
 * @s: the side (zeroed)
 * @arg: file or directory
 *
 * Return: 0, or EXIT_BADINPUT after saying why.
 */
int cmp_side_load(struct cli *cli, struct cmp_side *s, const char *arg)
{
	struct dirent **ents;
	struct stat st;
	int n, ret = 0;

	s->arg = arg;
	if (stat(arg, &st))
		return cli_usage_error(cli, "%s: %s", arg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return load_one(cli, s, arg);
	n = scandir(arg, &ents, only_json, by_name);
	if (n < 0)
		return cli_usage_error(cli, "%s: %s", arg, strerror(errno));
	for (int i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", arg, ents[i]->d_name);
		if (!ret)
			ret = load_one(cli, s, path);
		free(ents[i]);
	}
	free(ents);
	if (!ret && !s->nr)
		ret = cli_usage_error(cli, "%s: no *.json result files in this directory", arg);
	return ret;
}

void cmp_side_free(struct cmp_side *s)
{
	for (int i = 0; i < s->nr; i++) {
		json_object_put(s->docs[i]);
		free(s->paths[i]);
	}
	free(s->docs);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}

/**
 * cmp_job_names() - the job names of a side's first result, in order
 * @s: the side
 * @names: receives an array of borrowed strings; free() it
 *
 * Return: how many, or -ENOMEM.
 */
int cmp_job_names(const struct cmp_side *s, const char ***names)
{
	json_object *jobs = cmp_path(s->docs[0], "jobs");
	int n = (int)json_object_array_length(jobs);

	*names = calloc((size_t)n + 1, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		(*names)[i] = json_object_get_string(cmp_path(json_object_array_get_idx(jobs,
							(size_t)i), "name"));
	return n;
}

/**
 * cmp_find_job() - a job of a result's "jobs" array, by name
 * @jobs: the array
 * @name: the job's name
 *
 * Return: the job, or NULL.
 */
json_object *cmp_find_job(json_object *jobs, const char *name)
{
	size_t nr = json_object_is_type(jobs, json_type_array) ? json_object_array_length(jobs) : 0;

	for (size_t i = 0; i < nr; i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		const char *n = json_object_get_string(cmp_path(j, "name"));

		if (n && !strcmp(n, name))
			return j;
	}
	return NULL;
}

struct samples {
	double *v;
	int n;
};

static void add_value(struct samples *sm, json_object *o)
{
	double *grown, d;

	if (!o || !(json_object_is_type(o, json_type_double) ||
		    json_object_is_type(o, json_type_int)))
		return;
	d = json_object_get_double(o);
	if (!isfinite(d))
		return;
	grown = realloc(sm->v, sizeof(*grown) * (size_t)(sm->n + 1));
	if (!grown)
		return;
	sm->v = grown;
	sm->v[sm->n++] = d;
}

static void add_total(struct samples *sm, json_object *job, const char *dir,
		      const struct cmp_metric *m)
{
	char path[128];

	if (!*dir) {
		/* Figures of the whole job, such as CPU cost. */
		snprintf(path, sizeof(path), "total/%s", m->total_key);
		add_value(sm, cmp_path(job, path));
		return;
	}
	/* A direction that did no I/O has no figures to compare. */
	snprintf(path, sizeof(path), "total/%s/ios", dir);
	if (!json_object_get_int64(cmp_path(job, path)))
		return;
	snprintf(path, sizeof(path), "total/%s/%s", dir, m->total_key);
	add_value(sm, cmp_path(job, path));
}

static bool has_repetitions(json_object *doc)
{
	size_t n;

	cmp_array(doc, "repetitions", &n);
	return n > 1;
}

static void add_repetitions(struct samples *sm, json_object *doc, const char *job,
			    const char *dir, const struct cmp_metric *m)
{
	size_t n;
	json_object *reps = cmp_array(doc, "repetitions", &n);

	for (size_t r = 0; r < n; r++) {
		json_object *j = cmp_find_job(cmp_path(json_object_array_get_idx(reps, r), "jobs"),
					  job);

		if (j)
			add_total(sm, j, dir, m);
	}
}

/**
 * cmp_samples() - a side's samples of one metric of one job
 * @s: the side
 * @job: job name
 * @dir: "read" or "write", or "" for a figure of the whole job
 * @m: the metric
 * @out: receives a malloc'ed array (NULL when there are none)
 * @src: receives where they came from
 *
 * Return: how many samples.
 */
int cmp_samples(const struct cmp_side *s, const char *job, const char *dir,
		const struct cmp_metric *m, double **out, enum cmp_source *src)
{
	struct samples sm = { 0 };
	bool reps = false;

	for (int i = 0; i < s->nr; i++)
		reps |= has_repetitions(s->docs[i]);
	if (reps) {
		*src = SRC_REPETITIONS;
		for (int i = 0; i < s->nr; i++)
			add_repetitions(&sm, s->docs[i], job, dir, m);
	} else if (s->nr > 1) {
		*src = SRC_FILES;
		for (int i = 0; i < s->nr; i++) {
			json_object *j = cmp_find_job(cmp_path(s->docs[i], "jobs"), job);

			if (j)
				add_total(&sm, j, dir, m);
		}
	} else {
		json_object *j = cmp_find_job(cmp_path(s->docs[0], "jobs"), job);
		size_t nr_iv;
		json_object *iv = cmp_array(j, "intervals", &nr_iv);
		char path[96];

		*src = SRC_SINGLE;
		if (*dir && m->interval_key && nr_iv > 1) {
			*src = SRC_INTERVALS;
			snprintf(path, sizeof(path), "%s/%s", dir, m->interval_key);
			for (size_t k = 0; k < nr_iv; k++) {
				json_object *x = json_object_array_get_idx(iv, k);
				char ios[32];

				/* An interval in which this direction did nothing says nothing. */
				snprintf(ios, sizeof(ios), "%s/ios", dir);
				if (json_object_get_int64(cmp_path(x, ios)))
					add_value(&sm, cmp_path(x, path));
			}
		} else if (j) {
			add_total(&sm, j, dir, m);
		}
	}
	*out = sm.v;
	return sm.n;
}

const char *cmp_source_name(enum cmp_source src)
{
	static const char *const names[] = {
		[SRC_FILES] = "files", [SRC_REPETITIONS] = "repetitions",
		[SRC_INTERVALS] = "intervals", [SRC_SINGLE] = "single",
	};

	return names[src];
}
