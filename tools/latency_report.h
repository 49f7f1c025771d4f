/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_report.h - blkqual latency's output: ioping's lines, summary,
 * raw statistics and JSON, plus the percentiles ioping lacks
 */
#ifndef BLKQUAL_LATENCY_REPORT_H
#define BLKQUAL_LATENCY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual_latency.h"

/**
 * struct latency_out - how the report is printed
 * @out: where (stdout)
 * @t: the target, for every line
 * @time_fmt: strftime() format of -I, or NULL for no time stamps
 * @json: a JSON array instead of text (-J)
 * @quiet: no line per request (-q, -R, -B)
 * @flush: flush after every line (requests are paced, so someone watches)
 * @nr_json: objects printed into the JSON array so far
 */
struct latency_out {
	FILE *out;
	const struct bq_latency_target *t;
	const char *time_fmt;
	bool json;
	bool quiet;
	bool flush;
	unsigned long nr_json;
};

void latency_print_request(struct latency_out *lo, const struct bq_latency_req *req);
void latency_print_raw(FILE *out, const struct bq_latency_stats *s);
void latency_print_summary(FILE *out, const struct bq_latency_target *t,
			   const struct bq_latency_stats *s, bool read_write, bool write);
json_object *latency_stats_json(const struct bq_latency_target *t,
				const struct bq_latency_stats *s);
void latency_json_add(struct latency_out *lo, json_object *obj);
void latency_json_begin(struct latency_out *lo);
void latency_json_end(struct latency_out *lo);

#endif /* BLKQUAL_LATENCY_REPORT_H */
