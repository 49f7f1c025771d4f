/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_report.h - --trace=block's part of run's reports
 */
#ifndef BLKQUAL_TRACE_REPORT_H
#define BLKQUAL_TRACE_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"

json_object *block_trace_json(const struct bq_trace_result *t, const struct bq_thread_result *sum);
void print_block_trace(FILE *out, const char *title, const struct bq_trace_result *t,
		       const struct bq_thread_result *sum);

#endif /* BLKQUAL_TRACE_REPORT_H */
