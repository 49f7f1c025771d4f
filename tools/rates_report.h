/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rates_report.h - what rate caps, thinktime, rate_min, max_latency,
 * latency_target and steadystate did, in the run's reports
 */
#ifndef BLKQUAL_RATES_REPORT_H
#define BLKQUAL_RATES_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"

/**
 * rates_used() - whether a job has any option of the family
 * @j: the job
 *
 * Return: true when its threads have rate figures to report.
 */
bool rates_used(const struct bq_job *j);

/**
 * rates_options_json() - the job's options of the family, for "options"
 * @j: the job
 *
 * Return: those that differ from fio's defaults, so that compare tells a
 * capped job from an uncapped one; NULL when none does.
 */
json_object *rates_options_json(const struct bq_job *j);

/**
 * rates_json() - one thread's figures
 * @j: the job
 * @r: the thread's
 *
 * Return: {"thinktime_pauses", "failed", "latency_target_depth",
 * "steadystate": {...}}, only the parts the job asked for.
 */
json_object *rates_json(const struct bq_job *j, const struct bq_rate_result *r);

/**
 * rates_print() - the job's lines in the human report
 * @out: the stream
 * @jr: the job
 */
void rates_print(FILE *out, const struct bq_job_result *jr);

/**
 * rates_fault() - why the rate family failed the job, in one line
 * @jr: the job
 * @buf: receives the line
 * @len: its size
 *
 * Return: @buf ("read rate_min=1048576B/s not met, got 40960B/s"), or
 * NULL when nothing failed.
 */
const char *rates_fault(const struct bq_job_result *jr, char *buf, size_t len);

/**
 * rates_failed() - whether a thread of the job ended with a rate error
 * @jr: the job
 *
 * Return: true when rate_min, max_latency or latency_target failed it, as
 * fio fails such a job.
 */
bool rates_failed(const struct bq_job_result *jr);

#endif /* BLKQUAL_RATES_REPORT_H */
