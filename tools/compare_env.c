// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_env.c - what differs between the runs being compared
 *
 * A regression verdict is only worth something when the two sides ran
 * the same job on the same kind of device with the same settings.  The
 * kernel is usually the thing under test, so its change is only noted;
 * device, firmware, queue settings and tool version are warned about;
 * different jobs are refused unless the user insists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

struct diffs {
	struct cmp_diff *d;
	int nr;
	int err;
};

static const char *text_of(json_object *o)
{
	if (!o)
		return "(none)";
	return json_object_get_string(o);
}

static void note_text(struct diffs *ds, const char *what, const char *ta, const char *tb,
		      int severity)
{
	struct cmp_diff *grown;

	if (!strcmp(ta, tb))
		return;
	grown = realloc(ds->d, sizeof(*grown) * (size_t)(ds->nr + 1));
	if (!grown) {
		ds->err = -ENOMEM;
		return;
	}
	ds->d = grown;
	snprintf(grown[ds->nr].what, sizeof(grown[ds->nr].what), "%s", what);
	snprintf(grown[ds->nr].base, sizeof(grown[ds->nr].base), "%s", ta);
	snprintf(grown[ds->nr].new, sizeof(grown[ds->nr].new), "%s", tb);
	grown[ds->nr].severity = severity;
	ds->nr++;
}

static void note(struct diffs *ds, const char *what, json_object *a, json_object *b,
		 int severity)
{
	note_text(ds, what, text_of(a), text_of(b), severity);
}

static void note_path(struct diffs *ds, const char *what, json_object *a, json_object *b,
		      const char *path, int severity)
{
	note(ds, what, cmp_path(a, path), cmp_path(b, path), severity);
}

static const char *const device_keys[] = { "model", "firmware", "serial", "driver" };
static const char *const queue_keys[] = {
	"scheduler", "nr_requests", "io_poll", "write_cache", "read_ahead_kb",
	"rotational", "max_sectors_kb", "nomerges", "rq_affinity",
};

static void targets_diff(struct diffs *ds, const char *job, json_object *a_job,
			 json_object *b_job)
{
	size_t n, nb;
	json_object *ta = cmp_array(a_job, "targets", &n), *tb = cmp_array(b_job, "targets", &nb);
	char what[96], path[64];

	if (n > nb)
		n = nb;
	for (size_t i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(ta, i);
		json_object *b = json_object_array_get_idx(tb, i);

		for (size_t k = 0; k < sizeof(device_keys) / sizeof(device_keys[0]); k++) {
			snprintf(what, sizeof(what), "%s: device %s", job, device_keys[k]);
			snprintf(path, sizeof(path), "device/%s", device_keys[k]);
			note_path(ds, what, a, b, path, 1);
		}
		for (size_t k = 0; k < sizeof(queue_keys) / sizeof(queue_keys[0]); k++) {
			snprintf(what, sizeof(what), "%s: queue %s", job, queue_keys[k]);
			snprintf(path, sizeof(path), "device/queue/%s", queue_keys[k]);
			note_path(ds, what, a, b, path, 1);
		}
	}
}

static void job_diff(struct diffs *ds, json_object *a, json_object *b)
{
	const char *name = json_object_get_string(cmp_path(a, "name"));
	json_object *oa = cmp_path(a, "options"), *ob = cmp_path(b, "options");
	char what[96];

	if (!name)
		name = "?";
	/* Options that are not a set of options differ from whatever is on the other side. */
	if (!json_object_is_type(oa, json_type_object) ||
	    !json_object_is_type(ob, json_type_object)) {
		snprintf(what, sizeof(what), "%s: job options", name);
		note(ds, what, oa, ob, 2);
		goto out_targets;
	}
	json_object_object_foreach(oa, key, va) {
		json_object *vb = NULL;

		json_object_object_get_ex(ob, key, &vb);
		snprintf(what, sizeof(what), "%s: job option %s", name, key);
		/* The same job on another device node is still the same job. */
		note(ds, what, va, vb, strcmp(key, "filename") ? 2 : 1);
	}
	json_object_object_foreach(ob, key2, vb2) {
		if (!json_object_object_get_ex(oa, key2, NULL)) {
			snprintf(what, sizeof(what), "%s: job option %s", name, key2);
			note(ds, what, NULL, vb2, 2);
		}
	}
out_targets:
	targets_diff(ds, name, a, b);
}

/**
 * cmp_env_diff() - list what differs between the first result of each side
 * @base: the base side
 * @new: the new side
 * @diffs: receives the differences (free() them)
 * @nr: receives how many
 *
 * Return: 0 or -ENOMEM.
 */
int cmp_env_diff(const struct cmp_side *base, const struct cmp_side *new,
		 struct cmp_diff **diffs, int *nr)
{
	json_object *a = base->docs[0], *b = new->docs[0];
	size_t n, nb;
	json_object *ja = cmp_array(a, "jobs", &n), *jb = cmp_array(b, "jobs", &nb);
	struct diffs ds = { 0 };
	char na_text[24], nb_text[24];

	note_path(&ds, "blkqual version", a, b, "blkqual_version", 1);
	note_path(&ds, "kernel", a, b, "host/kernel", 0);
	note_path(&ds, "kernel command line", a, b, "host/cmdline", 0);
	note_path(&ds, "CPU model", a, b, "host/cpu_model", 1);
	note_path(&ds, "CPU frequency governor", a, b, "host/cpu_governor", 1);
	snprintf(na_text, sizeof(na_text), "%zu", n);
	snprintf(nb_text, sizeof(nb_text), "%zu", nb);
	note_text(&ds, "number of jobs", na_text, nb_text, 2);
	if (n > nb)
		n = nb;
	for (size_t i = 0; i < n; i++)
		job_diff(&ds, json_object_array_get_idx(ja, i), json_object_array_get_idx(jb, i));
	*diffs = ds.d;
	*nr = ds.nr;
	return ds.err;
}
