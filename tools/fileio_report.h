/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fileio_report.h - blkqual fileio's text (sysbench's layout) and JSON
 */
#ifndef BLKQUAL_FILEIO_REPORT_H
#define BLKQUAL_FILEIO_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual_fileio.h"

void fileio_print_flags(FILE *out, const struct bq_fileio_opts *o);
void fileio_print_header(FILE *out, const struct bq_fileio_opts *o);
void fileio_print_interval(FILE *out, const struct bq_ops_sample *s);
void fileio_print_report(FILE *out, const struct bq_fileio_opts *o,
			 const struct bq_fileio_result *res);
json_object *fileio_options_json(const struct bq_fileio_opts *o);
json_object *fileio_json(const struct bq_fileio_opts *o, const struct bq_fileio_result *res);

#endif /* BLKQUAL_FILEIO_REPORT_H */
