// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_replay.c - blkqual run --replay RESULTS.json: the same jobs again
 *
 * A result file carries each job as the options that make it
 * ("job_args"), so a replay does not depend on the job file still being
 * there or on today's defaults.  Options the user adds override the
 * recorded ones in every job (typically --filename, to replay on another
 * device), and whatever differs from the recorded environment is pointed
 * out, since that is what makes two results incomparable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result_load.h"
#include "run_replay.h"

static int push(struct replay *rp, const char *arg)
{
	char **grown = realloc(rp->argv, sizeof(*grown) * (size_t)(rp->argc + 2));

	if (!grown)
		return -ENOMEM;
	rp->argv = grown;
	rp->argv[rp->argc] = strdup(arg);
	if (!rp->argv[rp->argc])
		return -ENOMEM;
	rp->argv[++rp->argc] = NULL;
	return 0;
}

static int check_overrides(struct cli *cli, char **overrides, int nr)
{
	for (int i = 0; i < nr; i++) {
		const char *o = overrides[i];

		if (o[0] != '-')
			return cli_usage_error(cli, "'%s': --replay takes its jobs from the result "
					       "file, not from a job file", o);
		if (!strncmp(o, "--name", 6) || !strncmp(o, "-name", 5))
			return cli_usage_error(cli, "'%s': --replay cannot add jobs, only change "
					       "the recorded ones", o);
	}
	return 0;
}

/**
 * replay_load() - the jobs of a result file, with the user's overrides
 * @cli: for messages
 * @rp: filled in; replay_free() it
 * @path: the result file
 * @overrides: job options given on the command line (applied to every job)
 * @nr_overrides: how many
 *
 * Return: 0, or EXIT_BADINPUT after saying why.
 */
int replay_load(struct cli *cli, struct replay *rp, const char *path, char **overrides,
		int nr_overrides)
{
	json_object *jobs;
	size_t n;

	memset(rp, 0, sizeof(*rp));
	if (check_overrides(cli, overrides, nr_overrides))
		return EXIT_BADINPUT;
	if (result_load(cli, path, &(const struct result_want){
		.option = "--replay", .what = "'blkqual run' result", .schema = true, .jobs = true,
	}, &rp->doc))
		return EXIT_BADINPUT;
	jobs = cmp_array(rp->doc, "jobs", &n);
	for (size_t k = 0; k < n; k++) {
		json_object *job = json_object_array_get_idx(jobs, k);
		size_t nr_args;
		json_object *args = cmp_array(job, "job_args", &nr_args);
		const char *name = json_object_get_string(cmp_path(job, "name"));

		if (!args)
			return cli_usage_error(cli, "--replay=%s: job '%s' has no job_args (a "
					       "striped job, or a result from an older blkqual)",
					       path, name ? name : "?");
		for (size_t i = 0; i < nr_args; i++) {
			json_object *arg = json_object_array_get_idx(args, i);

			if (!json_object_is_type(arg, json_type_string))
				return cli_usage_error(cli, "--replay=%s: job '%s': job_args[%zu] "
						       "is not a string", path, name ? name : "?",
						       i);
			if (push(rp, json_object_get_string(arg)))
				return cli_usage_error(cli, "out of memory");
		}
		for (int i = 0; i < nr_overrides; i++)
			if (push(rp, overrides[i]))
				return cli_usage_error(cli, "out of memory");
	}
	return 0;
}

/**
 * replay_report_differences() - say on stderr what differs from the recording
 * @rp: the replay
 * @now: the new run's result document
 */
void replay_report_differences(const struct replay *rp, json_object *now)
{
	json_object *docs[2] = { rp->doc, now };
	char *paths[2] = { "recorded", "now" };
	struct cmp_side then = { .docs = &docs[0], .paths = &paths[0], .nr = 1 };
	struct cmp_side cur = { .docs = &docs[1], .paths = &paths[1], .nr = 1 };
	struct cmp_diff *d = NULL;
	int nr = 0;

	if (cmp_env_diff(&then, &cur, &d, &nr))
		return;
	for (int i = 0; i < nr; i++)
		fprintf(stderr, "blkqual run: replay: %s differs: %s -> %s\n", d[i].what,
			d[i].base, d[i].new);
	free(d);
}

void replay_free(struct replay *rp)
{
	for (int i = 0; i < rp->argc; i++)
		free(rp->argv[i]);
	free(rp->argv);
	json_object_put(rp->doc);
	memset(rp, 0, sizeof(*rp));
}
