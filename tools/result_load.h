/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_load.h - reading a JSON result or state file, once for every
 * command that takes one
 */
#ifndef BLKQUAL_RESULT_LOAD_H
#define BLKQUAL_RESULT_LOAD_H

#include <stdbool.h>

#include <json-c/json.h>

#include "cli.h"

/**
 * struct result_want - what result_load() accepts
 * @option: the option that named the file ("--resume"), written before
 *          its name in messages; NULL when it was an argument
 * @what: what the file should be, for messages ("blkqual result"); NULL
 *        for "JSON result"
 * @dash: "-" is standard input
 * @utf8: every string must be valid UTF-8 (what goes into a page)
 * @schema: a blkqual result: a top-level object with a positive integer
 *          "schema_version"
 * @jobs: a run's result: a non-empty "jobs" array (with @schema)
 * @kind: a state file: "kind" is this string; NULL for none
 * @fio: fio's JSON output is taken too, in blkqual's layout (with @schema:
 *       see fio_result_native())
 * @prune: keys whose object or array values the reader does not use:
 *         they are read as null, unparsed (see json_prune()); NULL for none
 *
 * Whatever is asked, the file must hold one JSON object and nothing but
 * white space after it.
 */
struct result_want {
	const char *option;
	const char *what;
	bool dash;
	bool utf8;
	bool schema;
	bool jobs;
	const char *kind;
	bool fio;
	const char *const *prune;
};

/**
 * result_load() - read a JSON result or state file
 * @cli: for messages
 * @path: the file (or "-", see @want)
 * @want: what is accepted
 * @doc: receives the document; json_object_put() it
 *
 * Return: 0, or EXIT_BADINPUT after one line naming the file and what is
 * wrong: it cannot be read, is empty, is not JSON (with the line where
 * json-c gave up and why), or is not what @want asks for.
 */
int result_load(struct cli *cli, const char *path, const struct result_want *want,
		json_object **doc);

#endif /* BLKQUAL_RESULT_LOAD_H */
