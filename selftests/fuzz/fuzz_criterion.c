// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_criterion.c - qualify's pass/fail criteria and cell selectors:
 * bq_criterion_parse(), bq_cellsel_parse(), and bq_cellsel_describe() of
 * whatever parsed (what reports print)
 */
#include <stdlib.h>
#include <string.h>

#include "blkqual_qualify.h"
#include "qualify/qualify_int.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), desc[256];
	struct bq_parse_error err;
	struct bq_criterion c;
	struct bq_cellsel sel;

	memset(&c, 0, sizeof(c));
	if (!bq_criterion_parse(text, &c, &err))
		bq_cellsel_describe(&c.sel, desc, sizeof(desc));
	memset(&sel, 0, sizeof(sel));
	if (!bq_cellsel_parse(text, &sel, &err))
		bq_cellsel_describe(&sel, desc, sizeof(desc));
	free(text);
	return 0;
}
