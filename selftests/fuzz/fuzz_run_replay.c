// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_run_replay.c - a result file as "blkqual run --replay" reads it:
 * replay_load() and the job options it recovers, through
 * bq_jobs_from_args() as cmd_run passes them
 */
#include <string.h>

#include "blkqual_io.h"
#include "cli.h"
#include "fuzz.h"
#include "run_replay.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *overrides[] = { "--runtime=1" };
	struct cli cli = { .cmd = "run" };
	struct bq_parse_error err;
	struct bq_jobset set;
	struct replay rp;

	fuzz_write_file("result.json", data, size);
	fuzz_enter();
	if (replay_load(&cli, &rp, "result.json", overrides, 1))
		goto out_free;
	/* A recorded argument that is not an option names a job file: stay here. */
	for (int i = 0; i < rp.argc; i++)
		if (rp.argv[i][0] != '-' && strchr(rp.argv[i], '/'))
			goto out_free;
	if (!bq_jobs_from_args(rp.argc, rp.argv, &set, &err))
		bq_jobset_free(&set);
out_free:
	replay_free(&rp);
	fuzz_leave();
	return 0;
}
