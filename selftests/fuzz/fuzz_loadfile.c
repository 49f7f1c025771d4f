// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_loadfile.c - dbench NBENCH loadfiles: bq_loadfile_parse_buf()
 */
#include "blkqual_replay.h"
#include "workloads/replay/replay_int.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bq_loadfile lf;
	struct bq_parse_error err;

	bq_loadfile_parse_buf("client.txt", (const char *)data, size, &lf, &err);
	bq_loadfile_free(&lf);
	return 0;
}
