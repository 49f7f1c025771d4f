/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_switches.h - fio's command-line switches that shape a run rather
 * than a job: --eta, --eta-newline, --eta-interval, --status-interval,
 * --parse-only, --showcmd and --readonly
 */
#ifndef BLKQUAL_RUN_SWITCHES_H
#define BLKQUAL_RUN_SWITCHES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

enum run_eta { RUN_ETA_AUTO, RUN_ETA_ALWAYS, RUN_ETA_NEVER };

/**
 * struct run_switches - what fio's run switches asked for
 * @eta: when the status line is shown (fio's --eta)
 * @eta_newline_ns: the status line goes on a line of its own this often
 *	(fio's --eta-newline), 0 to update it in place
 * @eta_interval_ns: how often the status line is updated (fio's
 *	--eta-interval), 0 for the default
 * @parse_only: check the jobs and stop (fio's --parse-only)
 * @showcmd: print the jobs as one command line and stop (fio's --showcmd)
 * @readonly: refuse every write, trim and file creation (fio's --readonly)
 * @status_interval_ns: the whole report so far, this often (fio's
 *	--status-interval), 0 for none
 */
struct run_switches {
	enum run_eta eta;
	uint64_t eta_newline_ns;
	uint64_t eta_interval_ns;
	bool parse_only;
	bool showcmd;
	bool readonly;
	uint64_t status_interval_ns;
};

/*
 * run_switch_value() - the value of a run option written "--key=value",
 * "--key value" or with one dash; NULL when @argv[*i] is not --@key, or
 * (with *@missing set) when its value is missing at the end of @argv.
 */
const char *run_switch_value(int argc, char **argv, int *i, const char *key, bool *missing);

/*
 * Take @argv[*i] when it is one of the switches above (with its value,
 * "--eta=never" or "--eta never").  Return: 1 taken, 0 not one of them,
 * EXIT_BADINPUT for a bad value (said on stderr).
 */
int run_switch(struct run_switches *sw, struct cli *cli, int argc, char **argv, int *i);

/* --readonly: refuse jobs that write, trim or remove files.  0 or EXIT_BADINPUT. */
int run_switches_check(const struct run_switches *sw, struct cli *cli,
		       const struct bq_jobset *set);

/* --showcmd: the jobs as one "blkqual run" command line on @out. */
int run_showcmd(FILE *out, const struct bq_jobset *set);

#endif /* BLKQUAL_RUN_SWITCHES_H */
