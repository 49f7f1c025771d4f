// SPDX-License-Identifier: GPL-2.0-only
/*
 * strv.c - small string vectors and natural ordering of device names
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int bq_strv_add(struct bq_strv *sv, const char *s)
{
	char **v;
	char *copy;

	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	v = realloc(sv->v, (sv->n + 2) * sizeof(*v));
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	v[sv->n++] = copy;
	v[sv->n] = NULL;
	sv->v = v;
	return 0;
}

int bq_argf(struct bq_strv *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	ret = bq_strv_add(sv, s);
	free(s);
	return ret;
}

bool bq_strv_contains(const struct bq_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

int bq_natural_cmp(const char *a, const char *b)
{
	const char *start = a;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long long x = strtoull(a, (char **)&a, 10);
			unsigned long long y = strtoull(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			break;
		a++;
		b++;
	}
	/*
	 * "sdb" < "sdaa": after a shared prefix, a shorter letter run sorts
	 * first, as the kernel hands out sd names.
	 */
	if (a != start && isalpha((unsigned char)*a) && isalpha((unsigned char)*b)) {
		size_t la = strlen(a), lb = strlen(b);

		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int natural_qsort_cmp(const void *a, const void *b)
{
	return bq_natural_cmp(*(char *const *)a, *(char *const *)b);
}

void bq_strv_sort(struct bq_strv *sv)
{
	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof(*sv->v), natural_qsort_cmp);
}

void bq_strv_free(struct bq_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}
