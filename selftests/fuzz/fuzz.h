/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - what the fuzz targets share
 *
 * Each target is built twice: with libFuzzer for "make fuzz", and with
 * replay.c's main() for "make check", which runs the seed corpus and the
 * inputs of past crashes once each (selftests/fuzz_replay.sh).
 */
#ifndef BLKQUAL_FUZZ_H
#define BLKQUAL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The libFuzzer entry points. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/**
 * fuzz_setup() - a quiet, private place for a target to work in
 *
 * Standard input and output become /dev/null (commands print their
 * results; a parser asked for "-" reads standard input), and a new empty
 * temporary directory is made (in /dev/shm when it can), removed at exit.
 * Aborts on failure: a target that cannot set up must not run at all.
 *
 * Return: the directory's path.
 */
const char *fuzz_setup(void);

/**
 * fuzz_enter() - make the private directory the working directory
 *
 * For the time of one input only, so that relative names in it find
 * nothing but what the target put there; fuzz_leave() goes back, since
 * libFuzzer's corpus and artifact paths may be relative.  When a target
 * crashes in between, a relative -artifact_prefix lands in the private
 * directory: give an absolute one (selftests/fuzz/run.sh does).
 */
void fuzz_enter(void);
void fuzz_leave(void);

/**
 * fuzz_write_file() - an input as a file in the private directory
 * @name: file name (no '/')
 * @data: the bytes
 * @size: how many
 *
 * The file is rewritten for each input; an input that is not text stays
 * as it is, the parsers must cope.  Aborts on failure.
 */
void fuzz_write_file(const char *name, const void *data, size_t size);

/**
 * fuzz_strndup() - an input as a NUL-terminated string (cut at a NUL)
 * @data: the bytes
 * @size: how many
 *
 * Return: a malloc'ed string; aborts when out of memory.
 */
char *fuzz_strndup(const void *data, size_t size);

/**
 * fuzz_split() - split an input into NUL-terminated pieces
 * @data: the bytes
 * @size: how many
 * @sep: the separator byte (the separator itself is dropped)
 * @nr: receives the number of pieces (at least one)
 *
 * Return: a NULL-terminated array of pieces; free it with fuzz_free_split().
 * Aborts when out of memory.
 */
char **fuzz_split(const void *data, size_t size, char sep, int *nr);
void fuzz_free_split(char **pieces);

/**
 * fuzz_reset_getopt() - let a command parse its options again
 */
void fuzz_reset_getopt(void);

#endif /* BLKQUAL_FUZZ_H */
