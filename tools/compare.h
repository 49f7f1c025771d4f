/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - blkqual compare: result files, the samples in them, and
 * what differs between two sets of runs
 */
#ifndef BLKQUAL_COMPARE_H
#define BLKQUAL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "cli.h"

/**
 * struct cmp_side - one side of a comparison: result files of the same job
 * @arg: as the user gave it (a file or a directory)
 * @docs: parsed result documents
 * @paths: their files
 * @nr: how many
 */
struct cmp_side {
	const char *arg;
	json_object **docs;
	char **paths;
	int nr;
};

enum cmp_sense { HIGHER_IS_BETTER, LOWER_IS_BETTER };

/**
 * struct cmp_metric - one figure compared per job and direction
 * @name: as shown ("IOPS", "p99 latency")
 * @unit: "iops", "bytes_per_second", "ns"
 * @sense: which way is better
 * @total_key: path below the job's per-direction total ("iops",
 *             "lat_ns.percentiles.99")
 * @interval_key: key in an interval's per-direction object, or NULL
 */
struct cmp_metric {
	const char *name;
	const char *unit;
	enum cmp_sense sense;
	const char *total_key;
	const char *interval_key;
};

/**
 * enum cmp_source - where a side's samples came from
 */
enum cmp_source {
	SRC_FILES,		/* one sample per result file */
	SRC_REPETITIONS,	/* one per --repeat repetition */
	SRC_INTERVALS,		/* one per --interval sample */
	SRC_SINGLE,		/* one sample in all: no noise estimate */
};

int cmp_side_load(struct cli *cli, struct cmp_side *s, const char *arg);
void cmp_side_free(struct cmp_side *s);
int cmp_job_names(const struct cmp_side *s, const char ***names);
int cmp_samples(const struct cmp_side *s, const char *job, const char *dir,
		const struct cmp_metric *m, double **out, enum cmp_source *src);
const char *cmp_source_name(enum cmp_source src);

/**
 * struct cmp_diff - one thing that differs between the two sides
 * @what: "job option bs_read", "device firmware", "kernel"
 * @base: its value on the base side
 * @new: its value on the new side
 * @severity: 0 informational (the kernel: usually what is being tested),
 *            1 warning (device, queue settings, tool version),
 *            2 the jobs themselves differ (refused without --force)
 */
struct cmp_diff {
	char what[96];
	char base[128];
	char new[128];
	int severity;
};

int cmp_env_diff(const struct cmp_side *base, const struct cmp_side *new,
		 struct cmp_diff **diffs, int *nr);

json_object *cmp_path(json_object *o, const char *path);
json_object *cmp_array(json_object *o, const char *path, size_t *n);
json_object *cmp_find_job(json_object *jobs, const char *name);

/**
 * struct cmp_stage - one block-layer stage figure of runs made with
 * --trace=block, on both sides (compare_stages.c)
 * @job: the job
 * @device: the traced device
 * @dir: "read" or "write"
 * @stage: "queue" or "device"
 * @figure: "mean" or "p99"
 * @base: the median over the base side's files, in ns
 * @new: the same for the new side
 * @change: @new / @base - 1
 */
struct cmp_stage {
	const char *job;
	char device[64];
	const char *dir;
	const char *stage;
	const char *figure;
	double base;
	double new;
	double change;
};

int cmp_stages(const struct cmp_side *base, const struct cmp_side *new, const char **jobs,
	       int nr_jobs, struct cmp_stage **out);
int cmp_stage_moved_most(const struct cmp_stage *rows, int nr);

#endif /* BLKQUAL_COMPARE_H */
