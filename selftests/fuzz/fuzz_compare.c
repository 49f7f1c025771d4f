// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_compare.c - result files as "blkqual compare" reads them: the
 * whole command, loading, environment differences, samples, statistics
 * and every output format
 *
 * The input is the base result, then a NUL byte, then the new result; an
 * input without a NUL is compared with itself.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

static const char *const formats[] = { "json", "table", "markdown", "tap" };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	char *argv[] = { "compare", "--force", "-o", NULL, "base.json", "new.json", NULL };

	if (nul) {
		fuzz_write_file("base.json", data, (size_t)(nul - data));
		fuzz_write_file("new.json", nul + 1, size - (size_t)(nul - data) - 1);
	} else {
		fuzz_write_file("base.json", data, size);
		fuzz_write_file("new.json", data, size);
	}
	/* The format changes with the input, so each one gets fuzzed. */
	argv[3] = (char *)formats[size % 4];
	fuzz_reset_getopt();
	fuzz_enter();
	cmd_compare(6, argv);
	fuzz_leave();
	return 0;
}
