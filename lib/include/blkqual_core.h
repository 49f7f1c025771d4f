/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_core.h - time, the context and its movable roots, string vectors
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_CORE_H
#define BLKQUAL_CORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* ---- time ------------------------------------------------------------- */

/**
 * bq_now_ns() - CLOCK_MONOTONIC in nanoseconds, blkqual's one clock
 *
 * Inline: the I/O engines stamp every request with it (about 32 ns
 * through the vDSO here).
 *
 * Return: the time.
 */
static inline uint64_t bq_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- context: where the system is read from ---------------------------- */

/**
 * struct bq_roots - where sysfs, procfs and /dev are read from
 * @sysfs: replaces /sys (NULL: $BLKQUAL_SYSFS_ROOT, else /sys)
 * @proc:  replaces /proc (NULL: $BLKQUAL_PROC_ROOT, else /proc)
 * @dev:   replaces /dev (NULL: $BLKQUAL_DEV_ROOT, else /dev)
 *
 * Moving the roots lets the inventory be tested against captured trees of
 * machines we cannot plug in here.
 */
struct bq_roots {
	const char *sysfs;
	const char *proc;
	const char *dev;
};

/**
 * bq_ctx_new() - create a library context
 * @ctxp: where the new context is stored
 * @roots: root overrides, or NULL for the environment and the live system
 *
 * Return: 0 or -errno.
 */
int bq_ctx_new(struct bq_ctx **ctxp, const struct bq_roots *roots);

/**
 * bq_ctx_free() - release a context from bq_ctx_new()
 * @ctx: the context, may be NULL
 */
void bq_ctx_free(struct bq_ctx *ctx);

/**
 * bq_ctx_root() - the directory that stands for /sys, /proc or /dev
 * @ctx: the context
 * @which: 's' for sysfs, 'p' for proc, 'd' for dev
 *
 * Return: the root path, never NULL.
 */
const char *bq_ctx_root(const struct bq_ctx *ctx, char which);

/* ---- string vectors ------------------------------------------------------ */

/**
 * struct bq_strv - a growable, NULL-terminated vector of strings
 * @v: the strings (NULL-terminated when @n > 0)
 * @n: number of strings
 */
struct bq_strv {
	char **v;
	size_t n;
};

/**
 * bq_strv_add() - append a copy of a string
 * @sv: the vector
 * @s: string to copy
 *
 * Return: 0 or -ENOMEM.
 */
int bq_strv_add(struct bq_strv *sv, const char *s);

/**
 * bq_strv_contains() - whether the vector holds a string
 * @sv: the vector
 * @s: the string
 *
 * Return: true when found.
 */
bool bq_strv_contains(const struct bq_strv *sv, const char *s);

/**
 * bq_strv_sort() - sort the strings in natural order (sdb before sdaa)
 * @sv: the vector
 */
void bq_strv_sort(struct bq_strv *sv);

/**
 * bq_strv_free() - free the strings and reset the vector
 * @sv: the vector
 */
void bq_strv_free(struct bq_strv *sv);

/**
 * bq_suggest() - the candidate closest to a misspelled word
 * @word: what the user typed
 * @candidates: valid words, @n of them
 * @n: count
 *
 * Closeness is the edit distance, a swap of two neighbours counting as one
 * edit; one edit is allowed in words of up to 4 characters, two in longer.
 *
 * Return: the closest candidate within that distance, or NULL.
 */
const char *bq_suggest(const char *word, const char *const *candidates, size_t n);

/* values.c: the values a setter's refusal names and takes (shell completion) */
int bq_values_named(const char *msg, bool (*takes)(const char *word, void *ctx), void *ctx,
		    int (*fn)(const char *value, void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_CORE_H */
