// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - every I/O engine once: its names, what it can do, its code
 *
 * The rest of blkqual asks here instead of comparing engine ids: what an
 * engine is called (and which of fio's names mean it), and whether it
 * drives a ring, needs no target, sends NVMe commands, does one I/O per
 * call or can stripe.  An engine is its own file in this folder plus one
 * line in the table below.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "io/engine.h"

#define MAX_ALIASES 3

static const struct engine_entry {
	enum bq_engine id;
	const char *name;
	const char *aliases[MAX_ALIASES];
	unsigned int caps;
	const struct bq_engine_ops *ops;
} engines[] = {
	{ BQ_ENGINE_IO_URING, "io_uring", { NULL },
	  BQ_ENGINE_RING | BQ_ENGINE_STRIPES, &bq_engine_uring },
	{ BQ_ENGINE_LIBAIO, "libaio", { NULL }, 0, &bq_engine_libaio },
	/* For a block device sync and pvsync do what psync does, one I/O per call. */
	{ BQ_ENGINE_PSYNC, "psync", { "sync", "pvsync", NULL }, BQ_ENGINE_SYNC, &bq_engine_psync },
	{ BQ_ENGINE_NOP, "nop", { "null", NULL }, BQ_ENGINE_DISKLESS, &bq_engine_nop },
	{ BQ_ENGINE_URING_CMD, "io_uring_cmd", { "uring_cmd", NULL },
	  BQ_ENGINE_RING | BQ_ENGINE_PASSTHRU, &bq_engine_uring },
};

static const struct engine_entry *entry(enum bq_engine e)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (engines[i].id == e)
			return &engines[i];
	return NULL;
}

const char *bq_engine_name(enum bq_engine e)
{
	const struct engine_entry *en = entry(e);

	return en ? en->name : "?";
}

int bq_engine_parse(const char *name, enum bq_engine *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		bool match = !strcmp(name, engines[i].name);

		for (int a = 0; !match && a < MAX_ALIASES && engines[i].aliases[a]; a++)
			match = !strcmp(name, engines[i].aliases[a]);
		if (match) {
			*e = engines[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

bool bq_engine_has(enum bq_engine e, unsigned int caps)
{
	const struct engine_entry *en = entry(e);

	return en && (en->caps & caps) == caps;
}

/**
 * bq_engine_ops_of() - an engine's code
 * @e: the engine
 *
 * Return: its operations, or NULL for an id no engine has.
 */
const struct bq_engine_ops *bq_engine_ops_of(enum bq_engine e)
{
	const struct engine_entry *en = entry(e);

	return en ? en->ops : NULL;
}
