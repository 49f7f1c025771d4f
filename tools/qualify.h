/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qualify.h - blkqual qualify: what the command, its report and its state
 * file share
 */
#ifndef BLKQUAL_TOOLS_QUALIFY_H
#define BLKQUAL_TOOLS_QUALIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual_qualify.h"
#include "blkqual_verify.h"

/**
 * struct qstep - what the state file and the report keep of a step's rounds
 * @rounds: the contract's "rounds" array, one entry per completed round
 *          (rendered when the round ends, while its histograms exist)
 * @raw: per completed round, what a resumed run needs to go on
 */
struct qstep {
	json_object *rounds;
	json_object *raw;
};

/**
 * struct qrun - a whole qualification
 * @prof: the profile
 * @plan: its cells on this device
 * @target: the device as the user named it
 * @dev: what is known about it
 * @started: ISO-8601 UTC start of the first session
 * @prior_s: seconds spent in earlier sessions (resume)
 * @t0_ns: monotonic start of this session
 * @qual: the library's side: what ran, and the verdict
 * @steps: per step of the plan, its rounds as JSON
 */
struct qrun {
	struct bq_profile prof;
	struct bq_qplan plan;
	char target[4096];
	struct bq_device dev;
	char started[32];
	double prior_s;
	uint64_t t0_ns;
	struct bq_qual qual;
	struct qstep *steps;
};

/* qualify_report.c */
double qrun_runtime_s(const struct qrun *q);
json_object *qualify_cell_json(const struct bq_qcell *c, const struct bq_qresult *r);
json_object *qualify_raw_json(const struct bq_qresult *r, bool buckets);
int qualify_raw_restore(json_object *o, struct bq_qresult *r);
json_object *qualify_device_json(const struct qrun *q);
int qualify_verify_restore(struct bq_verify_report *sum, json_object *o);
json_object *qualify_json(const struct qrun *q);
void qualify_human(FILE *out, const struct qrun *q);
void fmt_duration(char *buf, size_t len, double s);

#endif /* BLKQUAL_TOOLS_QUALIFY_H */
