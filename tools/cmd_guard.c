// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_guard.c - blkqual guard: would blkqual be allowed to write here?
 *
 * Runs the same check every writing subcommand runs, without writing, so
 * a user (or a script about to call mkfs) can ask first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/**
 * guard_error() - print why a target cannot be opened for writing
 * @cli: invocation state
 * @path: the target
 * @err: negative errno from bq_guard_open()
 * @rep: the guard's report
 *
 * Return: EXIT_REFUSED for a refusal, EXIT_BADINPUT for a bad target.
 */
int guard_error(const struct cli *cli, const char *path, int err,
		const struct bq_guard_report *rep)
{
	char why[2048];

	switch (err) {
	case -EBUSY:
		bq_guard_explain(path, rep, why, sizeof(why));
		cli_error(cli, "%s: refusing to write: %s", path, why);
		return EXIT_REFUSED;
	case -ENOENT:
		return cli_usage_error(cli, "%s: no such file or device", path);
	case -EISDIR:
		return cli_usage_error(cli, "%s: is a directory, not a device or file", path);
	case -ENOTBLK:
		return cli_usage_error(cli, "%s: neither a block device nor a regular file", path);
	case -EXDEV:
		return cli_usage_error(cli, "%s: the guard checks this machine; drop the root options",
				       path);
	default:
		return cli_usage_error(cli, "%s: %s", path, strerror(-err));
	}
}

/**
 * cli_check_force() - refuse --force-destroy values that name no target
 * @cli: invocation state
 * @opts: the overrides
 * @targets: what the command will write to, @nr of them
 * @nr: how many
 *
 * An override that names nothing, or nothing the command touches, is most
 * likely a typo for the device the user meant: bad input, said before any
 * I/O.
 *
 * Return: 0, or EXIT_BADINPUT after saying why.
 */
int cli_check_force(const struct cli *cli, const struct bq_guard_opts *opts,
		    const char *const *targets, size_t nr)
{
	for (size_t i = 0; opts && i < opts->nr_force; i++) {
		const char *f = opts->force_destroy[i];
		int ret = bq_guard_force_named(f, targets, nr);

		if (ret == -ENXIO)
			return cli_usage_error(cli, "--force-destroy=%s names none of the targets", f);
		if (ret)
			return cli_usage_error(cli, "--force-destroy=%s: %s", f, strerror(-ret));
	}
	return 0;
}

int cmd_guard(int argc, char **argv)
{
	enum { OPT_FORCE = OPT_FIRST_PRIVATE };
	static const struct option longopts[] = {
		{ "force-destroy", required_argument, NULL, OPT_FORCE },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	struct cli cli = {
		.cmd = "guard",
		.usage = "blkqual guard [--force-destroy=TARGET]... TARGET...",
	};
	const char *force[64];
	struct bq_guard_opts opts = { .force_destroy = force };
	struct bq_ctx *ctx;
	int c, ret, status = 0;

	while ((c = cli_getopt(&cli, argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case OPT_FORCE:
			if (opts.nr_force == ARRAY_LEN(force))
				return cli_usage_error(&cli, "too many --force-destroy options");
			force[opts.nr_force++] = optarg;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind >= argc)
		return cli_usage_error(&cli, "missing target (usage: %s)", cli.usage);
	ret = cli_check_force(&cli, &opts, (const char *const *)argv + optind,
			      (size_t)(argc - optind));
	if (ret)
		return ret;
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;

	for (int i = optind; i < argc; i++) {
		struct bq_guard_report rep;
		char why[2048];
		int fd;

		fd = bq_guard_open(ctx, argv[i], 0, &opts, &rep);
		if (fd >= 0) {
			close(fd);
			if (rep.forced) {
				bq_guard_explain(argv[i], &rep, why, sizeof(why));
				printf("%s: forced: will overwrite %s\n", argv[i], why);
			} else {
				printf("%s: safe to write\n", argv[i]);
			}
			for (int k = 0; k < rep.nr_own; k++)
				printf("%s: not data: %s\n", argv[i], rep.own[k]);
			continue;
		}
		ret = guard_error(&cli, argv[i], fd, &rep);
		if (ret > status)
			status = ret;
	}
	bq_ctx_free(ctx);
	return status;
}
