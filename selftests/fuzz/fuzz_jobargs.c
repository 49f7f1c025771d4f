// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_jobargs.c - fio-style command lines: bq_jobs_from_args()
 *
 * The input is the argument vector, one argument per line.  An argument
 * that is not an option names a job file: the private directory, the
 * working directory meanwhile, holds one, "job.fio", and nothing else, so
 * other names are simply missing.
 */
#include <stdlib.h>
#include <string.h>

#include "blkqual_io.h"
#include "fuzz.h"

static const char job_fio[] =
	"[global]\nrw=randread\nbs=4k\nfilename=/dev/null\n[a]\niodepth=4\n[b]\nrw=write\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	fuzz_write_file("job.fio", job_fio, strlen(job_fio));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bq_parse_error err;
	struct bq_jobset set;
	char **argv;
	int argc;

	argv = fuzz_split(data, size, '\n', &argc);
	/* Absolute names could reach a device or a FIFO: keep to this directory. */
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-' && strchr(argv[i], '/'))
			goto out_free;
	fuzz_enter();
	if (!bq_jobs_from_args(argc, argv, &set, &err))
		bq_jobset_free(&set);
	fuzz_leave();
out_free:
	fuzz_free_split(argv);
	return 0;
}
