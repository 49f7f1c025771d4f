// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - every I/O engine once: its names, what it can do, its code
 *
 * The rest of blkqual asks here instead of comparing engine ids: what an
 * engine is called (and which of fio's names mean it), and whether it
 * drives a ring, needs no target, sends NVMe commands, does one I/O per
 * call or can stripe.  An engine is its own file in this folder (its
 * struct bq_engine_ops: names, capabilities, set-up, loop, teardown) plus
 * one line in the table below, and an id in enum bq_engine.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "io/engine.h"
#include "job/jobopt.h"

static const struct engine_entry {
	enum bq_engine id;
	const struct bq_engine_ops *ops;
} engines[] = {
	{ BQ_ENGINE_IO_URING, &bq_engine_uring },
	{ BQ_ENGINE_LIBAIO, &bq_engine_libaio },
	{ BQ_ENGINE_PSYNC, &bq_engine_psync },
	{ BQ_ENGINE_NOP, &bq_engine_nop },
	{ BQ_ENGINE_URING_CMD, &bq_engine_uring_cmd },
	{ BQ_ENGINE_SYNCRW, &bq_engine_syncrw },
	{ BQ_ENGINE_PVSYNC, &bq_engine_pvsync },
	{ BQ_ENGINE_PVSYNC2, &bq_engine_pvsync2 },
	{ BQ_ENGINE_SG, &bq_engine_sg },
};

static const struct bq_engine_ops *entry(enum bq_engine e)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (engines[i].id == e)
			return engines[i].ops;
	return NULL;
}

const char *bq_engine_name(enum bq_engine e)
{
	const struct bq_engine_ops *en = entry(e);

	return en ? en->name : "?";
}

int bq_engine_parse(const char *name, enum bq_engine *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		const struct bq_engine_ops *en = engines[i].ops;
		bool match = !strcmp(name, en->name);

		for (int a = 0; !match && a < BQ_ENGINE_MAX_ALIASES && en->aliases[a]; a++)
			match = !strcmp(name, en->aliases[a]);
		if (match) {
			*e = engines[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

bool bq_engine_has(enum bq_engine e, unsigned int caps)
{
	const struct bq_engine_ops *en = entry(e);

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
	return entry(e);
}
