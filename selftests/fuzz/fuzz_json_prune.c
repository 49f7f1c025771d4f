// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_json_prune.c - json_prune() against json-c, on any text
 *
 * blkqual fleet prunes result files gathered from many hosts before
 * json-c reads them, with a scanner that knows only strings and brackets.
 * Whatever the text, the scanner must stay inside it and keep every
 * newline (errors name lines).  Where the text is strict JSON, the pruned
 * text must parse to the same tree, except that a pruned key's object or
 * array value may now be null: nothing else may move.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "json_prune.h"

/* fleet's keys (fleet_read.c) */
static const char *const keys[] = { "histogram", "bins", "intervals", "threads", NULL };

static bool pruned_key(const char *key)
{
	for (const char *const *k = keys; *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

static bool is_container(json_object *o)
{
	return json_object_is_type(o, json_type_object) || json_object_is_type(o, json_type_array);
}

/* @pruned is @orig, but for pruned keys' containers, which may be null. */
static bool same_but_pruned(json_object *orig, json_object *pruned)
{
	enum json_type t = json_object_get_type(orig);

	if (t != json_object_get_type(pruned))
		return false;
	if (t == json_type_array) {
		size_t n = json_object_array_length(orig);

		if (n != json_object_array_length(pruned))
			return false;
		for (size_t i = 0; i < n; i++)
			if (!same_but_pruned(json_object_array_get_idx(orig, i),
					     json_object_array_get_idx(pruned, i)))
				return false;
		return true;
	}
	if (t != json_type_object)
		return json_object_equal(orig, pruned);
	if (json_object_object_length(orig) != json_object_object_length(pruned))
		return false;
	json_object_object_foreach(orig, key, val) {
		json_object *other;

		if (!json_object_object_get_ex(pruned, key, &other))
			return false;
		if (pruned_key(key) && is_container(val) && !other)
			continue;
		if (!same_but_pruned(val, other))
			return false;
	}
	return true;
}

static size_t newlines(const char *s, size_t n)
{
	size_t nl = 0;

	for (size_t i = 0; i < n; i++)
		nl += s[i] == '\n';
	return nl;
}

/* The whole text as strict JSON, or NULL. */
static json_object *parse_strict(const char *s, size_t n)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;
	size_t end;

	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, s, (int)n);
	end = json_tokener_get_parse_end(tok);
	if (json_tokener_get_error(tok) != json_tokener_success || end > n ||
	    strspn(s + end, " \t\r\n") != n - end) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *buf;
	size_t len = strlen(text), n;
	json_object *orig, *pruned;

	buf = strdup(text);
	if (!buf)
		abort();
	n = json_prune(buf, len, keys);
	if (n > len || buf[n] || strlen(buf) != n || newlines(buf, n) != newlines(text, len))
		abort();
	orig = parse_strict(text, len);
	if (orig) {
		pruned = parse_strict(buf, n);
		if (!pruned || !same_but_pruned(orig, pruned))
			abort();
		json_object_put(pruned);
	}
	json_object_put(orig);
	free(buf);
	free(text);
	return 0;
}
