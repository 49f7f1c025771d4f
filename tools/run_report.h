/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_report.h - printing a run's results
 */
#ifndef BLKQUAL_RUN_REPORT_H
#define BLKQUAL_RUN_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"

int job_total(const struct bq_job_result *jr, struct bq_thread_result *sum);
void job_total_free(struct bq_thread_result *sum);
void report_human(FILE *out, const struct bq_results *res);
void report_interval_lines(FILE *out, const struct bq_results *res);
int report_csv(FILE *out, const struct bq_results *res);
json_object *report_json(struct bq_ctx *ctx, const struct bq_results *res);
/* run's per-direction object; qualify's cells use it too */
json_object *dir_json(const struct bq_dir_result *d, uint64_t runtime);
json_object *report_repetition_json(const struct bq_results *res);
/* one direction of a job or group, as the text report shows it */
void print_dir(FILE *out, const struct bq_dir_result *d, int dir, uint64_t runtime);

/* run_groups.c: job ordering and fio's reporting groups */
bool print_order(FILE *out, const struct bq_job_result *jr);
void print_groups(FILE *out, const struct bq_results *res);
void job_order_json(json_object *o, const struct bq_job_result *jr);
void job_order_options_json(json_object *o, const struct bq_job *j);
json_object *groups_json(const struct bq_results *res);

#endif /* BLKQUAL_RUN_REPORT_H */
