// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - errors, option parsing and device lookup shared by subcommands
 *
 * Bad input always ends in one line on stderr that names the problem and
 * exit status 2; nothing has been opened for writing by then.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Words longer than this are shortened in messages, keeping both ends. */
#define MSG_LONG_WORD 120
#define MSG_WORD_END 48

/*
 * One line, whatever the input held: control bytes from a job file or an
 * argument are shown escaped (a terminal would act on them), and an
 * absurdly long word (an option name, a path) keeps its two ends, so the
 * reason around it is never pushed off the line.
 */
static void put_clean(const char *msg)
{
	const unsigned char *p = (const unsigned char *)msg;

	while (*p) {
		size_t word = strcspn((const char *)p, " '\"");

		if (word > MSG_LONG_WORD) {
			for (size_t i = 0; i < MSG_WORD_END; i++)
				fputc(p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i], stderr);
			fputs("...", stderr);
			p += word - MSG_WORD_END;
			for (size_t i = 0; i < MSG_WORD_END; i++, p++)
				fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stderr);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
		p++;
	}
}

static void verror(const struct cli *cli, const char *fmt, va_list ap)
{
	char msg[4096];

	if (cli && cli->capture) {
		vsnprintf(cli->capture, cli->capture_len, fmt, ap);
		return;
	}
	fflush(stdout);
	if (cli && cli->cmd)
		fprintf(stderr, "blkqual: %s: ", cli->cmd);
	else
		fputs("blkqual: ", stderr);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	put_clean(msg);
	fputc('\n', stderr);
}

void cli_error(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cli, fmt, ap);
	va_end(ap);
}

int cli_usage_error(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cli, fmt, ap);
	va_end(ap);
	return EXIT_BADINPUT;
}

static void unknown_option(const struct cli *cli, const char *arg, const struct option *longopts)
{
	const char *names[64];
	char word[64];
	size_t n = 0;
	const char *hint;

	if (strncmp(arg, "--", 2)) {
		cli_error(cli, "unknown option '%s'", arg);
		return;
	}
	snprintf(word, sizeof(word), "%s", arg + 2);
	word[strcspn(word, "=")] = '\0';
	for (; longopts[n].name && n < 64; n++)
		names[n] = longopts[n].name;
	hint = bq_suggest(word, names, n);
	for (size_t i = 0; !hint && *word && i < n; i++)
		if (!strncmp(names[i], word, strlen(word)))
			hint = names[i];
	if (hint)
		cli_error(cli, "unknown option '--%s' (did you mean '--%s'?)", word, hint);
	else
		cli_error(cli, "unknown option '--%s'", word);
}

static int set_root(struct cli *cli, const char **slot, const char *opt, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return cli_usage_error(cli, "%s: %s: %s", opt, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(cli, "%s: %s: not a directory", opt, dir);
	*slot = dir;
	return 0;
}

/*
 * getopt_long() accepts any unambiguous prefix, so "--force /dev/sdb" would
 * silently mean --force-destroy=/dev/sdb.  For a tool that destroys data on
 * request, only whole option names count.
 */
static int check_whole_names(const struct cli *cli, int argc, char **argv,
			     const struct option *longopts)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		size_t len;
		bool known = false;

		if (!strcmp(arg, "--"))
			break;
		if (strncmp(arg, "--", 2))
			continue;
		len = strcspn(arg + 2, "=");
		for (const struct option *o = longopts; o->name && !known; o++)
			known = strlen(o->name) == len && !strncmp(o->name, arg + 2, len);
		if (!known) {
			unknown_option(cli, arg, longopts);
			return -1;
		}
		/* Skip the separate value of an option that takes one. */
		for (const struct option *o = longopts; o->name; o++)
			if (o->has_arg == required_argument && !arg[2 + len] &&
			    strlen(o->name) == len && !strncmp(o->name, arg + 2, len))
				i++;
	}
	return 0;
}

bool cli_completing;

/**
 * cli_complete_options() - under "blkqual __complete", print a command's options and end
 * @shortopts: its short options in getopt's form, or NULL
 * @longopts: its long options, or NULL
 * @names: more long option names (without "--"; a trailing '=' marks a value), or NULL
 * @job_options: whether the command takes fio's job options as well
 *
 * Every command calls this with the tables its parser uses, before it
 * parses, so the completion offers what the parser takes.  Does nothing
 * unless completing.
 */
void cli_complete_options(const char *shortopts, const struct option *longopts,
			  const char *const *names, bool job_options)
{
	if (!cli_completing)
		return;
	for (const char *c = shortopts; c && *c; c++)
		if (*c != ':')
			printf("-%c\n", *c);
	for (const struct option *o = longopts; o && o->name; o++)
		printf("--%s%s\n", o->name, o->has_arg == required_argument ? "=" : "");
	for (const char *const *n = names; n && *n; n++)
		printf("--%s\n", *n);
	if (job_options)
		printf("%s\n", CLI_COMPLETE_JOB_OPTIONS);
	fflush(stdout);
	_exit(0);
}

/**
 * cli_getopt() - getopt_long() that handles the common options and errors
 * @cli: invocation state
 * @argc: argument count
 * @argv: arguments
 * @shortopts: the subcommand's short options (without a leading ':')
 * @longopts: the subcommand's long options, including CLI_COMMON_LONGOPTS
 *
 * Return: the next subcommand option, -1 at the end, or '?' after an error
 * has been printed (the caller exits with EXIT_BADINPUT).
 */
int cli_getopt(struct cli *cli, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	char optstring[64];
	int c;

	cli_complete_options(shortopts, longopts, NULL, false);
	if (optind <= 1 && check_whole_names(cli, argc, argv, longopts))
		return '?';
	snprintf(optstring, sizeof(optstring), ":%s", shortopts);
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, optstring, longopts, NULL);
		switch (c) {
		case OPT_SYSFS_ROOT:
			if (set_root(cli, &cli->roots.sysfs, "--sysfs-root", optarg))
				return '?';
			continue;
		case OPT_PROC_ROOT:
			if (set_root(cli, &cli->roots.proc, "--proc-root", optarg))
				return '?';
			continue;
		case OPT_DEV_ROOT:
			if (set_root(cli, &cli->roots.dev, "--dev-root", optarg))
				return '?';
			continue;
		case 'h':
			printf("usage: %s\n", cli->usage);
			exit(0);
		case '?':
			if (optopt && optopt < 0x100 && !strchr(shortopts, optopt) &&
			    strncmp(argv[optind - 1], "--", 2))
				cli_error(cli, "unknown option '-%c'", optopt);
			else
				unknown_option(cli, argv[optind - 1], longopts);
			return '?';
		case ':':
			cli_error(cli, "option '%s' needs a value", argv[optind - 1]);
			return '?';
		default:
			return c;
		}
	}
}

int cli_parse_output(struct cli *cli, const char *arg)
{
	if (!strcmp(arg, "json")) {
		cli->output = OUTPUT_JSON;
		return 0;
	}
	if (!strcmp(arg, "table")) {
		cli->output = OUTPUT_TABLE;
		return 0;
	}
	return cli_usage_error(cli, "unknown output format '%s' (use table or json)", arg);
}

int cli_open_ctx(struct cli *cli, struct bq_ctx **ctx)
{
	int ret = bq_ctx_new(ctx, &cli->roots);

	if (ret) {
		cli_error(cli, "cannot set up: %s", strerror(-ret));
		return ret == -ENAMETOOLONG ? EXIT_BADINPUT : EXIT_REFUSED;
	}
	return 0;
}

/**
 * cli_resolve_device() - map a user's device argument to a kernel name
 * @cli: invocation state
 * @ctx: library context
 * @arg: what the user typed
 * @name: receives the kernel name
 * @len: size of @name
 *
 * Return: 0, or EXIT_BADINPUT after printing why @arg is not a block device.
 */
int cli_resolve_device(struct cli *cli, struct bq_ctx *ctx, const char *arg,
		       char *name, size_t len)
{
	int ret = bq_device_resolve(ctx, arg, name, len);

	switch (ret) {
	case 0:
		return 0;
	case -ENOENT:
		return cli_usage_error(cli, "%s: no such block device", arg);
	case -EISDIR:
		return cli_usage_error(cli, "%s: is a directory, not a block device", arg);
	case -ENOTBLK:
		return cli_usage_error(cli, "%s: not a block device", arg);
	default:
		return cli_usage_error(cli, "%s: %s", arg, strerror(-ret));
	}
}

/**
 * cli_check_output() - whether a result file can be written where the user said
 * @cli: invocation state
 * @opt: the option that named it, for the message ("--html")
 * @path: the file; "-" (standard output) always can
 *
 * Results are written at the end, by write_atomically() into a temporary
 * file beside @path: find out before a long run that this will fail.
 *
 * Return: 0, or EXIT_BADINPUT after printing why not.
 */
int cli_check_output(const struct cli *cli, const char *opt, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *sep = strncmp(opt, "--", 2) ? " " : "=";
	char dir[4096];
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return cli_usage_error(cli, "%s%s%s: is a directory", opt, sep, path);
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash > path ? (int)(slash - path) : 1, path);
	if (access(dir, W_OK))
		return cli_usage_error(cli, "%s%s%s: cannot write there: %s", opt, sep, path,
				       strerror(errno));
	return 0;
}

/**
 * cli_output_options() - parse a command that takes only -o and the common options
 * @cli: invocation state
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 0, or EXIT_BADINPUT after printing why.
 */
int cli_output_options(struct cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	int c;

	while ((c = cli_getopt(cli, argc, argv, "o:h", longopts)) != -1)
		if (c != 'o' || cli_parse_output(cli, optarg))
			return EXIT_BADINPUT;
	return 0;
}
