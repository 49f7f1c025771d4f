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
#include "result_load.h"

struct report_args {
	json_object *root;
	const char *source;
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	CLI_COMMON_LONGOPTS,
	{ 0 }
};

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
	ret = result_load(&cli, a.source, &(const struct result_want){
		.what = "blkqual or fio JSON result", .dash = true, .utf8 = true, .schema = true,
		.fio = true,
	}, &a.root);
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
