/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * error_report.h - failed I/Os as one line per kind, and as JSON
 */
#ifndef BLKQUAL_ERROR_REPORT_H
#define BLKQUAL_ERROR_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"
#include "blkqual_ops.h"

struct cli;

const char *errno_name(int err);
void io_error_line(struct cli *cli, const char *job, const struct bq_thread_result *t,
		   const struct bq_target_info *targets, int nr_targets, bool stopped);
void print_error_groups(FILE *out, const char *indent, const struct bq_thread_result *t,
			const struct bq_target_info *targets, int nr_targets);
json_object *error_groups_json(const struct bq_thread_result *t,
			       const struct bq_target_info *targets, int nr_targets);
int ops_stall_lines(struct cli *cli, const struct bq_ops_result *r);

#endif /* BLKQUAL_ERROR_REPORT_H */
