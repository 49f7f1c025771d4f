/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * files_report.h - blkqual files' output: vdbench's summary lines and JSON
 */
#ifndef BLKQUAL_FILES_REPORT_H
#define BLKQUAL_FILES_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "blkqual_files.h"

struct files_report;

/* @text: print to stdout (else only keep it for -o); @columns: bit per operation shown */
struct files_report *files_report_new(bool text, uint32_t columns);
/* "Anchor size: anchor=...: dirs: ...", and the anchor in the JSON */
void files_report_anchor(struct files_report *r, const struct bq_files_fsd *fsd);
/* "Starting RD=..." (or "Simulating"); the run's JSON begins */
void files_report_start(struct files_report *r, const struct bq_files_plan *plan,
			uint64_t elapsed_s, uint64_t interval_s, bool simulate);
/* an interval line: struct bq_files_run_opts.on_sample with @r as argument */
void files_report_sample(void *r, const struct bq_ops_sample *s);
/* the last (short) interval, avg_F-L, errors; 1 with @why when the run failed */
int files_report_end(struct files_report *r, const struct bq_files_result *res,
		     char *why, size_t len);
/* a time-stamped line */
void files_report_note(struct files_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
json_object *files_report_json(struct files_report *r);
/* summary.txt, totals.txt and summary.json into @dir, each written whole */
int files_report_save(struct files_report *r, const char *dir);
void files_report_free(struct files_report *r);

#endif /* BLKQUAL_FILES_REPORT_H */
