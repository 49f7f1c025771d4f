// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - aligned text tables
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

int table_init(struct table *t, const char *const *headers, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	for (size_t i = 0; i < ncols; i++) {
		int ret = bq_strv_add(&t->cells, headers[i]);

		if (ret)
			return ret;
	}
	return 0;
}

int table_cell(struct table *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return bq_strv_add(&t->cells, buf);
}

void table_print(const struct table *t, FILE *out)
{
	size_t *width = calloc(t->ncols, sizeof(*width));

	if (!width)
		return;
	for (size_t i = 0; i < t->cells.n; i++) {
		size_t w = strlen(t->cells.v[i]);

		if (w > width[i % t->ncols])
			width[i % t->ncols] = w;
	}
	for (size_t i = 0; i < t->cells.n; i++) {
		size_t col = i % t->ncols;

		/* No padding after the last column: no trailing blanks. */
		if (col == t->ncols - 1 || i == t->cells.n - 1)
			fprintf(out, "%s\n", t->cells.v[i]);
		else
			fprintf(out, "%-*s ", (int)width[col], t->cells.v[i]);
	}
	free(width);
}

void table_free(struct table *t)
{
	bq_strv_free(&t->cells);
}
