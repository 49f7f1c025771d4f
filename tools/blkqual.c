// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkqual.c - the blkqual command: dispatch to subcommands
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "list", cmd_list, "list block devices with the facts a tester needs" },
	{ "info", cmd_info, "everything known about one device, NVMe health, the host" },
	{ "guard", cmd_guard, "say whether blkqual may write to a device or file" },
	{ "run", cmd_run, "fio-compatible jobs: io_uring, libaio, the sync engines, sg, nop" },
	{ "options", cmd_options, "every fio job option: supported, or refused and why" },
	{ "stripe-tune", cmd_stripe_tune, "the same workload at each RAID0 chunk size: which is best" },
	{ "fs", cmd_fs, "make (and remove) an aligned XFS on a device and mount it" },
	{ "compare", cmd_compare, "two sets of results: regression, improvement or noise" },
	{ "raid", cmd_raid, "plan an md RAID0 with XFS: mdadm, mkfs.xfs and mount commands" },
	{ "fileio", cmd_fileio, "sysbench fileio: prepare, run and clean up a set of test files" },
	{ "replay", cmd_replay, "dbench: replay an NBENCH loadfile with N clients, statuses checked" },
	{ "files", cmd_files, "vdbench file trees: fsd/fwd/rd parameter files, format, run" },
	{ "latency", cmd_latency, "ioping: one request at a time, latency per request and percentiles" },
	{ "check", cmd_check, "conformance suite against one device, as TAP (writes: guarded)" },
	{ "qualify", cmd_qualify, "SSD qualification: purge, precondition, steady state, verdict" },
	{ "report", cmd_report, "one self-contained HTML page with plots from any JSON result" },
	{ "verify", cmd_verify, "read back every block a --verify-state file says was written" },
	{ "fleet", cmd_fleet, "many hosts' results by model and firmware: outliers, failures" },
	{ "trace", cmd_trace, "where the time of a device's requests goes (BPF), issuing none" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: blkqual [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_LEN(subcommands); i++)
		fprintf(out, "  %-11s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\n'blkqual COMMAND --help' shows a command's options; man blkqual(8).\n");
}

int main(int argc, char **argv)
{
	const char *names[ARRAY_LEN(subcommands)];
	int (*fns[ARRAY_LEN(subcommands)])(int, char **);
	const char *hint;

	if (argc < 2)
		return cli_usage_error(NULL, "missing command (see 'blkqual --help')");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("blkqual %s\n", BLKQUAL_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_LEN(subcommands); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
		names[i] = subcommands[i].name;
		fns[i] = subcommands[i].fn;
	}
	/* Hidden: the bash completion script's questions (complete.c). */
	if (!strcmp(argv[1], "__complete"))
		return cmd_complete(argc - 1, argv + 1, names, fns, ARRAY_LEN(subcommands));
	if (argv[1][0] == '-')
		return cli_usage_error(NULL, "unknown option '%s' (options follow the command)",
				       argv[1]);
	hint = bq_suggest(argv[1], names, ARRAY_LEN(names));
	if (hint)
		return cli_usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", argv[1],
				       hint);
	return cli_usage_error(NULL, "unknown command '%s' (see 'blkqual --help')", argv[1]);
}
