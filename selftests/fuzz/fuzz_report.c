// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_report.c - any JSON result as "blkqual report" reads it: the whole
 * command, from the JSON reader to the HTML page with its plots
 */
#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[] = { "report", "-o", "-", "result.json", NULL };

	fuzz_write_file("result.json", data, size);
	fuzz_reset_getopt();
	fuzz_enter();
	cmd_report(4, argv);
	fuzz_leave();
	return 0;
}
