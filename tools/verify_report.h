/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify_report.h - what verify= and blkqual verify found, for people and
 * as JSON; shared by run, verify and qualify
 */
#ifndef BLKQUAL_VERIFY_REPORT_H
#define BLKQUAL_VERIFY_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual_verify.h"

void verify_print(FILE *out, const struct bq_verify_report *v, const char *indent);
json_object *verify_json(const struct bq_verify_report *v);
json_object *verify_bad_json(const struct bq_vbad *b);
void verify_bad_line(FILE *out, const struct bq_vbad *b);

#endif /* BLKQUAL_VERIFY_REPORT_H */
