// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - test helper: blkqual's JSON output, read by dotted paths
 */
#include <stdlib.h>
#include <string.h>

#include "helpers/json.h"
#include "helpers/run.h"

/**
 * blkqual_json() - run "blkqual CMD -o json [ARG]" and parse what it prints
 * @cmd: subcommand
 * @arg: one argument, or NULL
 *
 * Return: the parsed document (json_object_put() it), or NULL when the
 * command failed or printed something that is not JSON.
 */
json_object *blkqual_json(const char *cmd, const char *arg)
{
	struct run_result r;
	json_object *root = NULL;

	if (run_blkqual(&r, cmd, "-o", "json", arg, NULL))
		return NULL;
	if (r.status == 0)
		root = json_tokener_parse(r.out);
	run_result_free(&r);
	return root;
}

/**
 * blkqual_run_json() - run "blkqual run --no-status -o json ARGS..." and parse it
 * @r: what the command left (free with run_result_free()), also on failure
 * @args: its arguments, NULL after the last (at most 14)
 *
 * Return: the parsed document, or NULL when the command could not run,
 * exited non-zero or printed something that is not JSON (see @r).
 */
json_object *blkqual_run_json(struct run_result *r, const char *const *args)
{
	const char *argv[20] = { blkqual_path(), "run", "--no-status", "-o", "json" };
	int n = 5;

	for (int i = 0; args[i] && n < 19; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_argv(argv, r))
		return NULL;
	return r->status ? NULL : json_tokener_parse(r->out);
}

json_object *json_find_by(json_object *array, const char *key, const char *value)
{
	size_t n = array ? json_object_array_length(array) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *item = json_object_array_get_idx(array, i), *v;
		const char *s;

		if (!json_object_object_get_ex(item, key, &v))
			continue;
		s = json_object_get_string(v);	/* NULL for a JSON null */
		if (s && !strcmp(s, value))
			return item;
	}
	return NULL;
}

/* Walk "a.b.c" through nested objects. */
static json_object *walk(json_object *obj, const char *path)
{
	char buf[256], *save = NULL;

	strncpy(buf, path, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	for (char *k = strtok_r(buf, ".", &save); k && obj; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(obj, k, &obj))
			return NULL;
	return obj;
}

/* The value at a dotted @path, or NULL. */
json_object *json_get(json_object *obj, const char *path)
{
	return walk(obj, path);
}

const char *json_str(json_object *obj, const char *path)
{
	json_object *v = walk(obj, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

long long json_int(json_object *obj, const char *path, long long dflt)
{
	json_object *v = walk(obj, path);

	if (!v || json_object_is_type(v, json_type_null))
		return dflt;
	return json_object_get_int64(v);
}

double json_dbl(json_object *obj, const char *path, double dflt)
{
	json_object *v = walk(obj, path);

	if (!v || json_object_is_type(v, json_type_null))
		return dflt;
	return json_object_get_double(v);
}
