/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - what every blkqual subcommand shares: errors, options, output
 */
#ifndef BLKQUAL_CLI_H
#define BLKQUAL_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "blkqual.h"

/* Exit statuses: 0 done, 1 refused or failed at run time, 2 bad input. */
#define EXIT_REFUSED 1
#define EXIT_BADINPUT 2
/* compare: the runs could not have shown a change of the threshold's size */
#define EXIT_INCONCLUSIVE 3

enum cli_output { OUTPUT_TABLE, OUTPUT_JSON };

/* Options every subcommand accepts, handled by cli_getopt(). */
enum {
	OPT_SYSFS_ROOT = 0x1000,
	OPT_PROC_ROOT,
	OPT_DEV_ROOT,
	OPT_HELP,
	OPT_FIRST_PRIVATE,
};

#define CLI_COMMON_LONGOPTS \
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT }, \
	{ "proc-root", required_argument, NULL, OPT_PROC_ROOT }, \
	{ "dev-root", required_argument, NULL, OPT_DEV_ROOT }, \
	{ "help", no_argument, NULL, 'h' }

/**
 * struct cli - state of one blkqual invocation
 * @cmd: subcommand name, for messages
 * @usage: one-line usage of the subcommand
 * @roots: root overrides from the command line
 * @output: table or JSON
 */
struct cli {
	const char *cmd;
	const char *usage;
	struct bq_roots roots;
	enum cli_output output;
	/* When set, an error is kept here (its message only) instead of printed. */
	char *capture;
	size_t capture_len;
};

void cli_error(const struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_usage_error(const struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_getopt(struct cli *cli, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);
int cli_parse_output(struct cli *cli, const char *arg);

/* complete.c and every parser: "blkqual __complete" asks a command for its options */
#define CLI_COMPLETE_JOB_OPTIONS "@job-options"
#define CLI_COMPLETE_FILEIO_VALUES "@fileio-values"
extern bool cli_completing;
void cli_complete_options(const char *shortopts, const struct option *longopts,
			  const char *const *names, bool job_options);
int cmd_complete(int argc, char **argv, const char *const *commands,
		 int (*const *fns)(int, char **), size_t nr);
int cli_output_options(struct cli *cli, int argc, char **argv);
int cli_open_ctx(struct cli *cli, struct bq_ctx **ctx);
int cli_resolve_device(struct cli *cli, struct bq_ctx *ctx, const char *arg,
		       char *name, size_t len);
int cli_check_output(const struct cli *cli, const char *opt, const char *path);

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* cmd_guard.c: explaining the safety guard's verdict */
int guard_error(const struct cli *cli, const char *path, int err,
		const struct bq_guard_report *rep);
int cli_check_force(const struct cli *cli, const struct bq_guard_opts *opts,
		    const char *const *targets, size_t nr);

/* spawn.c */
int run_capture(const char *const *argv, char *out, size_t len);

/* units.c */
void fmt_size(char *buf, size_t len, uint64_t bytes);

/* subcommands */
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_guard(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_raid(int argc, char **argv);
int cmd_fs(int argc, char **argv);
int cmd_stripe_tune(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_fileio(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_files(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_qualify(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_fleet(int argc, char **argv);

#endif /* BLKQUAL_CLI_H */
