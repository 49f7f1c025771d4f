// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_units.c - sizes and durations: bq_parse_size(), bq_parse_time()
 *
 * Besides not crashing, a value that parses must read back the same when
 * written out in the plainest unit: the parsers decide how much of a
 * device gets written, so a silent change of value is a bug too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "blkqual_io.h"
#include "fuzz.h"

static const uint64_t default_units[] = { 1, 1000, 1000000, 1000000000ull };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), again[32];
	uint64_t v, w;

	if (!bq_parse_size(s, &v)) {
		snprintf(again, sizeof(again), "%" PRIu64, v);
		if (bq_parse_size(again, &w) || w != v)
			abort();
	}
	for (size_t i = 0; i < sizeof(default_units) / sizeof(default_units[0]); i++) {
		if (bq_parse_time(s, default_units[i], &v))
			continue;
		snprintf(again, sizeof(again), "%" PRIu64 "ns", v);
		if (bq_parse_time(again, 1, &w) || w != v)
			abort();
	}
	free(s);
	return 0;
}
