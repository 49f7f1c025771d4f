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
 * struct qstep - one step of a qualification in progress
 * @run: its rounds and steady-state verdicts
 * @rounds: the contract's "rounds" array, one entry per completed round
 *          (rendered when the round ends, while its histograms exist)
 * @raw: per completed round, what a resumed run needs to go on
 * @window: per cell, the figures summed over the window (qualify_judge())
 */
struct qstep {
	struct bq_qstep_run run;
	json_object *rounds;
	json_object *raw;
	struct bq_qresult *window;
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
 * @purge_tried: the purge is behind us (done or skipped)
 * @purge: what it did
 * @precond_done: preconditioning finished
 * @precond_ns: how long it took
 * @steps: per step of the plan
 * @interrupted: stopped by a signal before the end
 * @errors: I/O errors seen in any round
 * @verify: with verify=, every job's checks added up, else NULL
 * @crit: per criterion, the verdict (qualify_judge())
 * @verdict: "pass", "fail" or "incomplete" (qualify_judge())
 * @why: reasons for a fail other than criteria, "" if none
 */
struct qrun {
	struct bq_profile prof;
	struct bq_qplan plan;
	char target[4096];
	struct bq_device dev;
	char started[32];
	double prior_s;
	uint64_t t0_ns;
	bool purge_tried;
	struct bq_purge_result purge;
	bool precond_done;
	uint64_t precond_ns;
	struct qstep *steps;
	bool interrupted;
	uint64_t errors;
	struct bq_verify_report *verify;
	struct bq_criterion_result *crit;
	const char *verdict;
	char why[256];
};

/* qualify_report.c */
double qrun_runtime_s(const struct qrun *q);
json_object *qualify_cell_json(const struct bq_qcell *c, const struct bq_qresult *r);
json_object *qualify_raw_json(const struct bq_qresult *r, bool buckets);
int qualify_raw_restore(json_object *o, struct bq_qresult *r);
int qualify_judge(struct qrun *q);
json_object *qualify_device_json(const struct qrun *q);
void qualify_verify_add(struct bq_verify_report *sum, const struct bq_verify_report *v);
int qualify_verify_restore(struct bq_verify_report *sum, json_object *o);
json_object *qualify_json(const struct qrun *q);
void qualify_human(FILE *out, const struct qrun *q);
void fmt_duration(char *buf, size_t len, double s);

#endif /* BLKQUAL_TOOLS_QUALIFY_H */
