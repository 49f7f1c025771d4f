/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay_report.h - blkqual replay's results: dbench's lines and table for
 * people, one JSON document for programs
 */
#ifndef BLKQUAL_REPLAY_REPORT_H
#define BLKQUAL_REPLAY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual_replay.h"

/**
 * struct replay_info - what was asked for, for the report
 * @loadfile: the loadfile's name as given
 * @dir: the directory worked in
 * @clients: clients
 * @procs: dbench's "procs" (clients / --clients-per-process)
 * @o: the replay options
 * @parse_ns: how long parsing the loadfile took
 * @progress: the per-second lines, as printed
 * @nr_progress: how many
 * @per_client: --per-client-results
 * @signal: the signal that stopped the run, or 0
 */
struct replay_info {
	const char *loadfile;
	const char *dir;
	int clients;
	int procs;
	const struct bq_replay_opts *o;
	uint64_t parse_ns;
	struct bq_replay_progress *progress;
	size_t nr_progress;
	bool per_client;
	int signal;
};

void replay_print_progress(FILE *out, int clients, const struct bq_replay_progress *p);
void replay_print_report(FILE *out, const struct replay_info *ri, const struct bq_loadfile *lf,
			 const struct bq_replay_result *res);
json_object *replay_json(const struct replay_info *ri, const struct bq_loadfile *lf,
			 const struct bq_replay_result *res);

#endif /* BLKQUAL_REPLAY_REPORT_H */
