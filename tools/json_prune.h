/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_prune.h - dropping the parts of a JSON text a reader does not use,
 * before json-c builds them
 */
#ifndef BLKQUAL_JSON_PRUNE_H
#define BLKQUAL_JSON_PRUNE_H

#include <stddef.h>

/**
 * json_prune() - replace the object and array values of some keys by null
 * @buf: the JSON text, changed in place and kept NUL-terminated
 * @len: its length
 * @keys: the keys, NULL-terminated; a key matches by its raw text
 *
 * Each skipped value becomes "null" followed by as many newlines as it
 * held, so a parser's line numbers still point into the file.  Scalar
 * values are kept; so is the rest of the text from the first place where
 * a string or a skipped value does not end, for the parser to say what
 * is wrong there.  What is skipped is not checked to be JSON.
 *
 * Return: the new length, at most @len.
 */
size_t json_prune(char *buf, size_t len, const char *const *keys);

#endif /* BLKQUAL_JSON_PRUNE_H */
