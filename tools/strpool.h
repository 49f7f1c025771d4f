/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strpool.h - one copy of each string many records repeat, shared by
 * threads
 */
#ifndef BLKQUAL_STRPOOL_H
#define BLKQUAL_STRPOOL_H

#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * struct strpool - the strings, each kept once while the index has room
 * @lock: taken by strpool_get()
 * @index: glibc's hash table of the strings kept
 * @room: entries the index may still take (it cannot grow)
 * @all: every string given out, the pool's to free
 * @nr: how many
 * @cap: room in @all
 * @ready: strpool_init() succeeded
 */
struct strpool {
	pthread_mutex_t lock;
	struct hsearch_data index;
	size_t room;
	char **all;
	size_t nr, cap;
	bool ready;
};

/**
 * strpool_init() - an empty pool
 * @p: the pool
 * @distinct: how many different strings to expect; more are still kept,
 *	each as its own copy
 *
 * Return: 0 or -ENOMEM.
 */
int strpool_init(struct strpool *p, size_t distinct);

/**
 * strpool_get() - the pool's copy of a string, made on first use
 * @p: the pool
 * @s: the string
 *
 * Return: the copy, valid until strpool_free(); NULL when out of memory.
 */
const char *strpool_get(struct strpool *p, const char *s);

/**
 * strpool_free() - release the pool and every string it gave out
 * @p: the pool (left zeroed)
 */
void strpool_free(struct strpool *p);

#endif /* BLKQUAL_STRPOOL_H */
