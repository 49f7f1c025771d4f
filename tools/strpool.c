// SPDX-License-Identifier: GPL-2.0-only
/*
 * strpool.c - one copy of each string many records repeat
 *
 * A fleet of 100,000 result files names the same few metrics and job
 * options in every file: kept once each, they cost kilobytes instead of
 * a few hundred megabytes.  The threads that read the files share the
 * pool, under its lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

int strpool_init(struct strpool *p, size_t distinct)
{
	memset(p, 0, sizeof(*p));
	/* glibc's table is full at its size: leave it a quarter spare. */
	if (!hcreate_r(distinct + distinct / 4 + 1, &p->index))
		return -ENOMEM;
	p->room = distinct;
	p->ready = true;
	pthread_mutex_init(&p->lock, NULL);
	return 0;
}

static char *keep(struct strpool *p, const char *s)
{
	char *copy;

	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		char **grown = realloc(p->all, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		p->all = grown;
		p->cap = cap;
	}
	copy = strdup(s);
	if (copy)
		p->all[p->nr++] = copy;
	return copy;
}

const char *strpool_get(struct strpool *p, const char *s)
{
	ENTRY want = { .key = (char *)s }, *found = NULL;
	char *copy = NULL;

	pthread_mutex_lock(&p->lock);
	if (hsearch_r(want, FIND, &found, &p->index) && found) {
		copy = found->key;
		goto out_unlock;
	}
	copy = keep(p, s);
	if (copy && p->room) {
		want.key = copy;
		if (hsearch_r(want, ENTER, &found, &p->index))
			p->room--;
	}
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return copy;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->all[i]);
	free(p->all);
	if (p->ready) {
		hdestroy_r(&p->index);
		pthread_mutex_destroy(&p->lock);
	}
	memset(p, 0, sizeof(*p));
}
