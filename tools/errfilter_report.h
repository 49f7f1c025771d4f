/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errfilter_report.h - error_dump's and verify_dump's lines, and what
 * ignore_error's expected errors mean for the exit status
 */
#ifndef BLKQUAL_ERRFILTER_REPORT_H
#define BLKQUAL_ERRFILTER_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual.h"

struct cli;

void error_dump_line(const struct cli *cli, const struct bq_job_result *jr,
		     const struct bq_io_error *e);
void verify_dump_line(const struct cli *cli, const struct bq_job_result *jr, int file,
		      uint64_t offset, const char *expected, const char *received, int ret);
bool errors_all_ignored(const struct bq_thread_result *t);

#endif /* BLKQUAL_ERRFILTER_REPORT_H */
