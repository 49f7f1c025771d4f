// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - blkqual report: one self-contained HTML page from any
 * blkqual JSON result
 *
 * The page carries its plots as inline SVG and its style inline: no
 * script, no font or image to fetch, so it can be mailed, archived and
 * opened offline years later.  run and qualify results get their own
 * pages; anything else gets every latency histogram and interval series
 * found in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "html/report_html.h"
#include "report_util.h"

struct report_args {
	json_object *root;
	const char *source;
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	CLI_COMMON_LONGOPTS,
	{ 0 }
};

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1), *grown;

	if (!buf)
		return NULL;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		cap *= 2;
		grown = realloc(buf, cap + 1);
		if (!grown) {
			free(buf);
			return NULL;
		}
		buf = grown;
	}
	if (ferror(f)) {
		free(buf);
		errno = EIO;
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

/* The result as JSON, or EXIT_BADINPUT after one line saying why not. */
static int load(struct cli *cli, const char *path, json_object **root)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "(stdin)";
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	json_object *o, *sv;
	size_t len = 0, end;
	char *buf;

	if (!f)
		return cli_usage_error(cli, "%s: %s", name, strerror(errno));
	buf = read_all(f, &len);
	if (f != stdin)
		fclose(f);
	if (!buf)
		return cli_usage_error(cli, "%s: %s", name, strerror(errno));
	if (strspn(buf, " \t\r\n") == len) {
		free(buf);
		return cli_usage_error(cli, "%s: empty, not a JSON result", name);
	}
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return cli_usage_error(cli, "out of memory");
	}
	json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		/* A document cut short ends "continue": say so, not "success". */
		int ret = cli_usage_error(cli, "%s:%d: not JSON (%s)", name, line_of(buf, end),
					  jerr == json_tokener_continue ? "ends in the middle of "
					  "the document" : json_tokener_error_desc(jerr));

		json_object_put(o);
		free(buf);
		return ret;
	}
	if (strspn(buf + end, " \t\r\n") != len - end) {
		int ret = cli_usage_error(cli, "%s:%d: not JSON (text after the end of the "
					  "document)", name, line_of(buf, end));

		json_object_put(o);
		free(buf);
		return ret;
	}
	free(buf);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "schema_version", &sv)) {
		json_object_put(o);
		return cli_usage_error(cli, "%s: not a blkqual result (no \"schema_version\" in a "
				       "top-level object)", name);
	}
	if (!json_object_is_type(sv, json_type_int) || json_object_get_int64(sv) < 1) {
		json_object_put(o);
		return cli_usage_error(cli, "%s: \"schema_version\" is not a positive integer",
				       name);
	}
	*root = o;
	return 0;
}

static int emit(FILE *out, void *arg)
{
	const struct report_args *a = arg;
	const char *cmd = jstr(a->root, "command");
	size_t n;

	if (cmd && !strcmp(cmd, "qualify"))
		html_qualify(out, a->root);
	/* run results predate "command": they are known by their jobs. */
	else if ((cmd && !strcmp(cmd, "run")) || (!cmd && jarr(a->root, "jobs", &n)))
		html_run(out, a->root);
	else
		html_generic(out, a->root);
	html_end(out, a->source);
	return ferror(out) ? -EIO : 0;
}

/* RESULTS.json -> RESULTS.html, beside it. */
static char *default_output(const char *in)
{
	size_t len = strlen(in);
	char *out = malloc(len + 6);

	if (!out)
		return NULL;
	memcpy(out, in, len + 1);
	if (len > 5 && !strcmp(in + len - 5, ".json"))
		out[len - 5] = '\0';
	strcat(out, ".html");
	return out;
}

int cmd_report(int argc, char **argv)
{
	struct cli cli = {
		.cmd = "report",
		.usage = "blkqual report [-o FILE.html|-] RESULTS.json",
	};
	struct report_args a = { 0 };
	const char *output = NULL;
	char *derived = NULL;
	int c, ret;

	while ((c = cli_getopt(&cli, argc, argv, "ho:", longopts)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind != argc - 1)
		return cli_usage_error(&cli, "needs exactly one result file (usage: %s)", cli.usage);
	if (output && !*output)
		return cli_usage_error(&cli, "-o: empty file name");
	if (output && cli_check_output(&cli, "-o", output))
		return EXIT_BADINPUT;
	a.source = argv[optind];
	ret = load(&cli, a.source, &a.root);
	if (ret)
		return ret;
	if (!output) {
		output = strcmp(a.source, "-") ? (derived = default_output(a.source)) : "-";
		if (!output) {
			json_object_put(a.root);
			cli_error(&cli, "out of memory");
			return EXIT_REFUSED;
		}
	}
	if (!strcmp(a.source, "-"))
		a.source = "(stdin)";
	if (!strcmp(output, "-")) {
		ret = emit(stdout, &a);
		if (fflush(stdout) && !ret)
			ret = -errno;
	} else {
		ret = write_atomically(output, emit, &a);
	}
	json_object_put(a.root);
	if (ret) {
		cli_error(&cli, "%s: %s", strcmp(output, "-") ? output : "(stdout)", strerror(-ret));
		free(derived);
		return EXIT_REFUSED;
	}
	free(derived);
	return 0;
}
