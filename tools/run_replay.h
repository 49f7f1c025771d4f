/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_replay.h - blkqual run --replay: the jobs of a result file, again
 */
#ifndef BLKQUAL_RUN_REPLAY_H
#define BLKQUAL_RUN_REPLAY_H

#include <json-c/json.h>

#include "cli.h"

/**
 * struct replay - a recorded run to run again
 * @doc: the result file
 * @argv: the recorded jobs' options, each job followed by the user's
 *        overrides; what bq_jobs_from_args() gets
 * @argc: how many
 */
struct replay {
	json_object *doc;
	char **argv;
	int argc;
};

int replay_load(struct cli *cli, struct replay *rp, const char *path, char **overrides,
		int nr_overrides);
void replay_report_differences(const struct replay *rp, json_object *now);
void replay_free(struct replay *rp);

#endif /* BLKQUAL_RUN_REPLAY_H */
