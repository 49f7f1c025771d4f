// SPDX-License-Identifier: GPL-2.0-only
/*
 * result_load.c - reading a JSON result or state file: report, fleet,
 * compare, run --replay and qualify --resume all read one
 *
 * One reader, so that a file is JSON or not the same way for every
 * command, and every command says what is wrong with it the same way,
 * with the line where the JSON goes wrong.  What differs between the
 * commands is only what they take the document for (struct result_want).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_result_load.h"
#include "json_prune.h"
#include "result_load.h"

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1), *grown;

	if (!buf)
		return NULL;
	errno = 0;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		cap *= 2;
		grown = realloc(buf, cap + 1);
		if (!grown) {
			free(buf);
			errno = ENOMEM;
			return NULL;
		}
		buf = grown;
	}
	if (ferror(f)) {
		/* A directory reads as EISDIR: worth more than "I/O error". */
		int err = errno ? errno : EIO;

		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int line_of(const char *buf, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && buf[i]; i++)
		line += buf[i] == '\n';
	return line;
}

static bool blank(const char *s, size_t len)
{
	return strspn(s, " \t\r\n") >= len;
}

/* The document, or NULL after saying where and why it is not JSON. */
static json_object *parse(struct cli *cli, const char *name, const char *buf, size_t len,
			  bool utf8)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *o;
	size_t end;

	if (!tok) {
		cli_usage_error(cli, "out of memory");
		return NULL;
	}
	if (utf8)
		json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, buf, len > INT_MAX ? INT_MAX : (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		/* A document cut short ends "continue": say so, not "success". */
		cli_usage_error(cli, "%s:%d: not JSON (%s)", name, line_of(buf, end),
				jerr == json_tokener_continue ? "ends in the middle of the document" :
				json_tokener_error_desc(jerr));
		json_object_put(o);
		return NULL;
	}
	if (!blank(buf + end, len - end)) {
		cli_usage_error(cli, "%s:%d: not JSON (text after the end of the document)", name,
				line_of(buf, end));
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* 0, or EXIT_BADINPUT after saying how @o is not what @want asks for. */
static int check(struct cli *cli, const char *name, json_object *o,
		 const struct result_want *want)
{
	const char *what = want->what ? want->what : "JSON result";
	json_object *v = NULL;

	if (want->schema && !json_object_object_get_ex(o, "schema_version", &v))
		return cli_usage_error(cli, "%s: not a %s (no \"schema_version\" in a top-level "
				       "object)", name, what);
	if (!json_object_is_type(o, json_type_object))
		return cli_usage_error(cli, "%s: not a %s (not a JSON object)", name, what);
	if (want->schema && (!json_object_is_type(v, json_type_int) ||
			     json_object_get_int64(v) < 1))
		return cli_usage_error(cli, "%s: \"schema_version\" is not a positive integer",
				       name);
	if (want->jobs && (!json_object_object_get_ex(o, "jobs", &v) ||
			   !json_object_is_type(v, json_type_array) ||
			   !json_object_array_length(v)))
		return cli_usage_error(cli, "%s: not a %s (no \"jobs\")", name, what);
	if (want->kind && (!json_object_object_get_ex(o, "kind", &v) ||
			   !json_object_is_type(v, json_type_string) ||
			   strcmp(json_object_get_string(v), want->kind)))
		return cli_usage_error(cli, "%s: not a %s (\"kind\" is not \"%s\")", name, what,
				       want->kind);
	return 0;
}

int result_load(struct cli *cli, const char *path, const struct result_want *want,
		json_object **doc)
{
	bool in = want->dash && !strcmp(path, "-");
	char name[PATH_MAX + 64];
	FILE *f = in ? stdin : fopen(path, "r");
	size_t len = 0;
	json_object *o;
	char *buf;
	int ret;

	snprintf(name, sizeof(name), "%s%s%s", want->option ? want->option : "",
		 want->option ? "=" : "", in ? "(stdin)" : path);
	if (!f)
		return cli_usage_error(cli, "%s: %s", name, strerror(errno));
	buf = read_all(f, &len);
	if (!in)
		fclose(f);
	if (!buf)
		return cli_usage_error(cli, "%s: %s", name, strerror(errno));
	if (blank(buf, len)) {
		free(buf);
		return cli_usage_error(cli, "%s: empty, not JSON", name);
	}
	if (want->prune)
		len = json_prune(buf, len, want->prune);
	o = parse(cli, name, buf, len, want->utf8);
	free(buf);
	if (!o)
		return EXIT_BADINPUT;
	if (want->fio && fio_result_is(o)) {
		json_object *native = fio_result_native(o);

		json_object_put(o);
		if (!native)
			return cli_usage_error(cli, "%s: fio's JSON without a \"jobs\" array", name);
		o = native;
	}
	ret = check(cli, name, o, want);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*doc = o;
	return 0;
}
