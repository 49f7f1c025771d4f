// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_fileio.c - blkqual fileio: sysbench's fileio test, command line and all
 *
 * "sysbench fileio --file-test-mode=rndrw run" becomes "blkqual fileio
 * --file-test-mode=rndrw run": sysbench's options, its prepare / run /
 * cleanup words anywhere on the line, its report layout.  Ours on top:
 * -o json (--output-format=json), --output FILE, --directory DIR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "error_report.h"
#include "fileio_report.h"
#include "report_util.h"

enum fileio_cmd { FILEIO_NONE, FILEIO_PREPARE, FILEIO_RUN, FILEIO_CLEANUP, FILEIO_HELP };

struct fileio_cli {
	struct cli cli;
	struct bq_fileio_opts o;
	enum fileio_cmd cmd;
	const char *output_file;
};

static const char *const own_options[] = { "output-format", "output", "directory", "help" };

static void print_help(void)
{
	printf("usage: blkqual fileio [OPTIONS] prepare|run|cleanup|help\n\n"
	       "sysbench's fileio test with its option names and defaults:\n"
	       "  --file-num=N                  number of files to create [128]\n"
	       "  --file-block-size=N           block size to use in all IO operations [16384]\n"
	       "  --file-total-size=SIZE        total size of files to create [2G]\n"
	       "  --file-test-mode=STRING       test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, "
	       "rndrw}\n"
	       "  --file-io-mode=STRING         file operations mode {sync} [sync]\n"
	       "  --file-extra-flags=[LIST,...] additional flags to open files with "
	       "{sync,dsync,direct} []\n"
	       "  --file-fsync-freq=N           do fsync() after this number of requests "
	       "(0 - don't use fsync()) [100]\n"
	       "  --file-fsync-all[=on|off]     do fsync() after each write operation [off]\n"
	       "  --file-fsync-end[=on|off]     do fsync() at the end of test [on]\n"
	       "  --file-fsync-mode=STRING      {fsync, fdatasync} [fsync]\n"
	       "  --file-merged-requests=N      merge at most this number of IO requests "
	       "(sequential) [0]\n"
	       "  --file-rw-ratio=N             reads/writes ratio for combined test [1.5]\n"
	       "  --threads=N                   number of threads to use [1]\n"
	       "  --time=N                      limit for total execution time in seconds [10]\n"
	       "  --events=N                    limit for total number of events [0]\n"
	       "  --report-interval=N           intermediate report every N seconds [0]\n"
	       "  --stall-timeout=N             a thread stuck in one system call this long\n"
	       "                                is reported and the run ends [120; 0: never]\n"
	       "  --percentile=N                percentile to show, 0 for none [95]\n"
	       "  --histogram[=on|off]          print latency histogram in report [off]\n"
	       "  --rand-seed=N                 seed, 0 for the current time [0]\n"
	       "blkqual's own:\n"
	       "  -o, --output-format=json      the results as JSON\n"
	       "  --output=FILE                 write the results to FILE (whole or not at all)\n"
	       "  --directory=DIR               the files go in DIR, not the current directory\n");
}

static int unknown_option(struct fileio_cli *fc, const char *arg, const char *key)
{
	const char *names[64];
	const char *const *lib;
	const char *hint;
	size_t n, k = 0;

	lib = bq_fileio_option_names(&n);
	for (size_t i = 0; i < n && k < ARRAY_LEN(names); i++)
		names[k++] = lib[i];
	for (size_t i = 0; i < ARRAY_LEN(own_options) && k < ARRAY_LEN(names); i++)
		names[k++] = own_options[i];
	hint = bq_suggest(key, names, k);
	if (hint)
		return cli_usage_error(&fc->cli, "unknown option '%s' (did you mean '--%s'?)", arg,
				       hint);
	return cli_usage_error(&fc->cli, "unknown option '%s' (see 'blkqual fileio help')", arg);
}

static int set_command(struct fileio_cli *fc, const char *word, bool *saw_test_name)
{
	static const char *const words[] = { "prepare", "run", "cleanup", "help", "fileio" };
	const char *hint;
	enum fileio_cmd cmd = FILEIO_NONE;

	if (!strcmp(word, "prepare"))
		cmd = FILEIO_PREPARE;
	else if (!strcmp(word, "run"))
		cmd = FILEIO_RUN;
	else if (!strcmp(word, "cleanup"))
		cmd = FILEIO_CLEANUP;
	else if (!strcmp(word, "help"))
		cmd = FILEIO_HELP;
	/* "sysbench --threads=4 fileio run" keeps its test name after the options. */
	if (!strcmp(word, "fileio") && !*saw_test_name) {
		*saw_test_name = true;
		return 0;
	}
	if (cmd == FILEIO_NONE) {
		hint = bq_suggest(word, words, ARRAY_LEN(words));
		if (hint)
			return cli_usage_error(&fc->cli, "unknown command '%s' (did you mean '%s'?)",
					       word, hint);
		return cli_usage_error(&fc->cli, "unknown command '%s' (use prepare, run or "
				       "cleanup)", word);
	}
	if (fc->cmd != FILEIO_NONE)
		return cli_usage_error(&fc->cli, "two commands given: '%s' after another", word);
	fc->cmd = cmd;
	return 0;
}

/* The value of one of our own options: "--opt=V" or "--opt V". */
static const char *own_value(int argc, char **argv, int *i, const char *eq)
{
	if (eq)
		return eq + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse_output(struct fileio_cli *fc, const char *v)
{
	if (v && (!strcmp(v, "normal") || !strcmp(v, "human")))
		v = "table";
	if (!v)
		return cli_usage_error(&fc->cli, "--output-format needs a value (json or table)");
	return cli_parse_output(&fc->cli, v) ? EXIT_BADINPUT : 0;
}

/* Under "blkqual __complete": sysbench's options and fileio's own. */
static void complete_options(void)
{
	static const char *const own[] = { "output-format", "output", "directory", "help" };
	const char *names[128];
	size_t nr, n = 0;
	const char *const *sb = bq_fileio_option_names(&nr);

	if (!cli_completing)
		return;
	for (size_t i = 0; i < nr && n < ARRAY_LEN(names) - ARRAY_LEN(own) - 1; i++)
		names[n++] = sb[i];
	for (size_t i = 0; i < ARRAY_LEN(own); i++)
		names[n++] = own[i];
	names[n] = NULL;
	printf("%s\n", CLI_COMPLETE_FILEIO_VALUES);
	cli_complete_options("ho", NULL, names, false);
}

static int parse(struct fileio_cli *fc, int argc, char **argv)
{
	bool saw_test_name = false;

	complete_options();

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *v;
		struct bq_parse_error err = { 0 };
		char key[64];
		int ret;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fc->cmd = FILEIO_HELP;
			return 0;
		}
		if (!strcmp(a, "-o")) {
			if (i + 1 >= argc)
				return cli_usage_error(&fc->cli, "option '-o' needs a value");
			if (cli_parse_output(&fc->cli, argv[++i]))
				return EXIT_BADINPUT;
			continue;
		}
		if (a[0] != '-') {
			ret = set_command(fc, a, &saw_test_name);
			if (ret)
				return ret;
			continue;
		}
		if (strncmp(a, "--", 2) || !a[2])
			return cli_usage_error(&fc->cli, "unknown option '%s' (see 'blkqual fileio "
					       "help')", a);
		eq = strchr(a, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - a - 2 : (long)strlen(a + 2)),
			 a + 2);
		if (!strcmp(key, "output-format")) {
			ret = parse_output(fc, own_value(argc, argv, &i, eq));
			if (ret)
				return ret;
		} else if (!strcmp(key, "output") || !strcmp(key, "directory")) {
			v = own_value(argc, argv, &i, eq);
			if (!v || !*v)
				return cli_usage_error(&fc->cli, "--%s needs a value", key);
			if (!strcmp(key, "output"))
				fc->output_file = v;
			else
				fc->o.dir = v;
		} else {
			ret = bq_fileio_set(&fc->o, key, eq ? eq + 1 : NULL, &err);
			if (ret == -ENOENT)
				return unknown_option(fc, eq ? strndupa(a, (size_t)(eq - a)) : a, key);
			if (ret)
				return cli_usage_error(&fc->cli, "%s: %s", err.where, err.msg);
		}
	}
	if (fc->cmd == FILEIO_NONE)
		return cli_usage_error(&fc->cli, "missing command: prepare, run or cleanup (usage: "
				       "%s)", fc->cli.usage);
	return 0;
}

/* A directory that is not there, or a set that cannot fit, is bad input. */
static int exit_for(int err)
{
	switch (err) {
	case -EINVAL:
	case -ENOENT:
	case -ENOTDIR:
	case -ENOSPC:
	case -EOPNOTSUPP:
		return EXIT_BADINPUT;
	default:
		return EXIT_REFUSED;
	}
}

static int fail(struct fileio_cli *fc, int ret, const struct bq_parse_error *err)
{
	cli_error(&fc->cli, "%s: %s", err->where, err->msg);
	return exit_for(ret);
}

struct emit {
	const struct fileio_cli *fc;
	json_object *doc;
	const struct bq_fileio_result *res;
};

static int emit_result(FILE *f, void *arg)
{
	struct emit *e = arg;

	if (e->doc)
		return json_print(f, e->doc);
	fileio_print_report(f, &e->fc->o, e->res);
	return 0;
}

/* The final report or document, to stdout or whole into --output. */
static int deliver(struct fileio_cli *fc, struct emit *e)
{
	int ret;

	if (!fc->output_file)
		return emit_result(stdout, e);
	ret = write_atomically(fc->output_file, emit_result, e);
	if (ret)
		cli_error(&fc->cli, "writing %s: %s", fc->output_file, strerror(-ret));
	return ret;
}

/* sysbench's banner line, once the input has passed its checks. */
static void banner(const struct fileio_cli *fc)
{
	if (fc->cli.output != OUTPUT_JSON)
		printf("blkqual %s fileio (sysbench fileio compatible)\n\n", BLKQUAL_VERSION);
}

static void on_file(void *arg, unsigned int i, enum bq_fileio_file_state st)
{
	static const char *const what[] = {
		[BQ_FILEIO_CREATED] = "Creating", [BQ_FILEIO_EXTENDED] = "Extending existing",
		[BQ_FILEIO_REUSED] = "Reusing existing",
	};

	printf("%s file test_file.%u\n", what[st], i);
	(void)arg;
}

static int do_prepare(struct fileio_cli *fc)
{
	struct bq_parse_error err = { 0 };
	struct bq_fileio_prepared done;
	struct bq_fileio_space sp;
	struct emit e = { .fc = fc };
	bool json = fc->cli.output == OUTPUT_JSON;
	uint64_t file_size = bq_fileio_file_size(&fc->o);
	double secs;
	int ret;

	ret = bq_fileio_check(&fc->o, false, &err);
	if (!ret)
		ret = bq_fileio_check_space(&fc->o, false, &sp, &err);
	if (ret)
		return fail(fc, ret, &err);
	banner(fc);
	if (!json) {
		printf("%u files, %lluKb each, %lluMb total\n", fc->o.file_num,
		       (unsigned long long)(file_size / 1024),
		       (unsigned long long)(file_size * fc->o.file_num / (1024 * 1024)));
		printf("Creating files for the test...\n");
		fileio_print_flags(stdout, &fc->o);
	}
	ret = bq_fileio_prepare(&fc->o, json ? NULL : on_file, NULL, &done, &err);
	if (ret) {
		cli_error(&fc->cli, "%s: %s", err.where, err.msg);
		return EXIT_REFUSED;
	}
	secs = (double)done.ns / 1e9;
	if (json) {
		e.doc = result_json_new("fileio");
		json_object_object_add(e.doc, "phase", json_object_new_string("prepare"));
		json_object_object_add(e.doc, "options", fileio_options_json(&fc->o));
		json_object_object_add(e.doc, "bytes_written", json_u64(done.bytes));
		json_object_object_add(e.doc, "seconds", json_dbl(secs));
		json_object_object_add(e.doc, "mib_per_second",
				       json_dbl(secs > 0 ? (double)done.bytes / 1048576.0 / secs : 0));
		json_object_object_add(e.doc, "space_needed", json_u64(sp.need));
		json_object_object_add(e.doc, "space_available", json_u64(sp.avail));
		ret = deliver(fc, &e) ? EXIT_REFUSED : 0;
		json_object_put(e.doc);
		return ret;
	}
	if (done.bytes)
		printf("%llu bytes written in %.2f seconds (%.2f MiB/sec).\n",
		       (unsigned long long)done.bytes, secs,
		       secs > 0 ? (double)done.bytes / 1048576.0 / secs : 0);
	else
		printf("No bytes written.\n");
	return 0;
}

static int do_cleanup(struct fileio_cli *fc)
{
	struct bq_parse_error err = { 0 };
	struct emit e = { .fc = fc };
	unsigned int removed;
	int ret;

	banner(fc);
	if (fc->cli.output != OUTPUT_JSON)
		printf("Removing test files...\n");
	ret = bq_fileio_cleanup(&fc->o, &removed, &err);
	if (ret)
		return fail(fc, ret, &err);
	if (fc->cli.output != OUTPUT_JSON)
		return 0;
	e.doc = result_json_new("fileio");
	json_object_object_add(e.doc, "phase", json_object_new_string("cleanup"));
	json_object_object_add(e.doc, "removed", json_u64(removed));
	ret = deliver(fc, &e) ? EXIT_REFUSED : 0;
	json_object_put(e.doc);
	return ret;
}

static void on_sample(void *arg, const struct bq_ops_sample *s)
{
	fileio_print_interval(stdout, s);
	(void)arg;
}

static int do_run(struct fileio_cli *fc)
{
	struct bq_parse_error err = { 0 };
	bool json = fc->cli.output == OUTPUT_JSON;
	struct bq_fileio_result res;
	struct emit e = { .fc = fc, .res = &res };
	volatile int *stop;
	struct bq_ctx *ctx;
	int ret, status = 0;

	ret = bq_fileio_check(&fc->o, true, &err);
	if (!ret)
		ret = bq_fileio_check_set(&fc->o, &err);
	if (ret)
		return fail(fc, ret, &err);
	ret = cli_open_ctx(&fc->cli, &ctx);
	if (ret)
		return ret;
	banner(fc);
	if (!json) {
		fileio_print_header(stdout, &fc->o);
		fflush(stdout);
	}
	stop = stop_on_signals(NULL);
	ret = bq_fileio_run(ctx, &fc->o, stop, json ? NULL : on_sample, NULL, &res, &err);
	if (ret) {
		cli_error(&fc->cli, "%s: %s", err.where, err.msg);
		bq_ctx_free(ctx);
		return EXIT_REFUSED;
	}
	if (res.ops.failed) {
		/* One line: the first thread's failure; the JSON lists them all. */
		for (int i = 0; i < res.ops.nr_threads; i++) {
			if (res.ops.threads[i].ret) {
				cli_error(&fc->cli, "%s", res.ops.threads[i].msg);
				break;
			}
		}
		status = EXIT_REFUSED;
	}
	if (ops_stall_lines(&fc->cli, &res.ops))
		status = EXIT_REFUSED;
	if (res.ops.interrupted)
		status = 128 + *stop;
	if (json) {
		e.doc = fileio_json(&fc->o, &res);
		if (!e.doc) {
			cli_error(&fc->cli, "out of memory");
			status = EXIT_REFUSED;
		}
	}
	if ((!json || e.doc) && deliver(fc, &e))
		status = EXIT_REFUSED;
	json_object_put(e.doc);
	bq_fileio_result_free(&res);
	bq_ctx_free(ctx);
	return status;
}

static bool writable_dir_of(const char *path)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return !access(".", W_OK);
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return !access(dir, W_OK);
}

int cmd_fileio(int argc, char **argv)
{
	struct fileio_cli fc = {
		.cli = {
			.cmd = "fileio",
			.usage = "blkqual fileio [--file-test-mode=MODE] [--file-num=N] "
				 "[--file-total-size=SIZE] [sysbench options] [-o json] "
				 "[--output FILE] [--directory DIR] prepare|run|cleanup",
		},
	};
	int ret;

	bq_fileio_defaults(&fc.o);
	ret = parse(&fc, argc, argv);
	if (ret)
		return ret;
	if (fc.cmd == FILEIO_HELP) {
		print_help();
		return 0;
	}
	/* Find out now, not after a long run, that the results cannot be saved. */
	if (fc.output_file && !writable_dir_of(fc.output_file))
		return cli_usage_error(&fc.cli, "--output=%s: cannot write there: %s",
				       fc.output_file, strerror(errno));
	switch (fc.cmd) {
	case FILEIO_PREPARE:
		return do_prepare(&fc);
	case FILEIO_CLEANUP:
		return do_cleanup(&fc);
	default:
		return do_run(&fc);
	}
}
