// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_profile.c - qualify profiles: bq_profile_parse_text()
 */
#include <stdlib.h>

#include "blkqual_qualify.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct bq_parse_error err;
	struct bq_profile p;

	bq_profile_parse_text("profile.ini", text, &p, &err);
	bq_profile_free(&p);
	free(text);
	return 0;
}
