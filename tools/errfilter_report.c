// SPDX-License-Identifier: GPL-2.0-only
/*
 * errfilter_report.c - error_dump's and verify_dump's lines, and what
 * ignore_error's expected errors mean for the exit status
 *
 * Both callbacks run in the job's threads, several at once: each holds
 * standard error's lock for its whole line, so lines never interleave.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "error_report.h"
#include "errfilter_report.h"

static const char *target_path(const struct bq_job_result *jr, int file)
{
	return file >= 0 && file < jr->nr_targets ? jr->targets[file].path : "?";
}

/**
 * error_dump_line() - error_dump=1: one failed I/O, as it failed
 * @cli: for the prefix
 * @jr: its job
 * @e: the failure
 */
void error_dump_line(const struct cli *cli, const struct bq_job_result *jr,
		     const struct bq_io_error *e)
{
	flockfile(stderr);
	cli_error(cli, "%s: %s of %s at offset %" PRIu64 ", length %" PRIu32 " failed: %s (%s)",
		  jr->job.name, e->dir == BQ_READ ? "read" : "write", target_path(jr, e->file),
		  e->offset, e->len, strerror(e->err), errno_name(e->err));
	funlockfile(stderr);
}

/**
 * verify_dump_line() - verify_dump=1: where a bad block's images went
 * @cli: for the prefix
 * @jr: its job
 * @file: its target
 * @offset: the block's offset there
 * @expected: the file with what was written, or NULL
 * @received: the file with what was read, or NULL
 * @ret: 0, or -errno when the files could not be made (-EEXIST: a file of
 *	that name is there already and is left alone)
 */
void verify_dump_line(const struct cli *cli, const struct bq_job_result *jr, int file,
		      uint64_t offset, const char *expected, const char *received, int ret)
{
	flockfile(stderr);
	if (ret)
		cli_error(cli, "%s: verify_dump: bad block at offset %" PRIu64 " of %s not dumped: "
			  "%s%s", jr->job.name, offset, target_path(jr, file), strerror(-ret),
			  ret == -EEXIST ? " (an existing file is never overwritten)" : "");
	else
		cli_error(cli, "%s: verify_dump: bad block at offset %" PRIu64 " of %s: expected "
			  "data dumped as %s, received as %s", jr->job.name, offset,
			  target_path(jr, file), expected, received);
	funlockfile(stderr);
}

/**
 * errors_all_ignored() - whether every failed I/O was one ignore_error lists
 * @t: a job's sum (bq_job_sum())
 *
 * fio counts those and goes on with no error: they fail nothing here either.
 *
 * Return: true when there were failures and all of them were listed.
 */
bool errors_all_ignored(const struct bq_thread_result *t)
{
	uint64_t n = t->d[BQ_READ].errors + t->d[BQ_WRITE].errors + t->trim.errors;

	return n && n == t->ignored_errors;
}
