// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_jobfile.c - fio job files: bq_jobfile_parse()
 *
 * Every job that parses must also survive the trip through its own
 * options (bq_job_to_args(), what a result file records for --replay):
 * parsed again, it must give the very same options.
 */
#include <stdlib.h>
#include <string.h>

#include "blkqual.h"
#include "blkqual_io.h"
#include "job/jobopt.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	return 0;
}

static void same_options(const struct bq_strv *a, const struct bq_strv *b)
{
	if (a->n != b->n)
		abort();
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			abort();
}

/* job -> options -> job -> options: both option lists must match. */
static void round_trip(const struct bq_job *job)
{
	struct bq_strv args = { 0 }, again = { 0 };
	struct bq_parse_error err;
	struct bq_jobset set;

	if (bq_job_to_args(job, &args))
		goto out_free_args;
	if (bq_jobs_from_args((int)args.n, args.v, &set, &err) || set.nr != 1)
		abort();
	if (bq_job_to_args(&set.jobs[0], &again))
		abort();
	same_options(&args, &again);
	bq_jobset_free(&set);
	bq_strv_free(&again);
out_free_args:
	bq_strv_free(&args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bq_parse_error err;
	struct bq_jobset set;

	fuzz_write_file("job.fio", data, size);
	fuzz_enter();
	if (!bq_jobfile_parse("job.fio", &set, &err)) {
		for (size_t i = 0; i < set.nr; i++)
			round_trip(&set.jobs[i]);
		bq_jobset_free(&set);
	}
	fuzz_leave();
	return 0;
}
