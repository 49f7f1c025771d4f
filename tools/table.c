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
	char line[4096];
	size_t used = 0;

	if (!width)
		return;
	for (size_t i = 0; i < t->cells.n; i++) {
		size_t w = strlen(t->cells.v[i]);

		if (w > width[i % t->ncols])
			width[i % t->ncols] = w;
	}
	for (size_t i = 0; i < t->cells.n; i++) {
		size_t col = i % t->ncols;

		if (used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%-*s ",
						 (int)width[col], t->cells.v[i]);
		if (col == t->ncols - 1 || i == t->cells.n - 1) {
			/* Empty trailing cells leave no blanks at the end of the line. */
			if (used > sizeof(line) - 1)
				used = sizeof(line) - 1;
			while (used && line[used - 1] == ' ')
				used--;
			line[used] = '\0';
			fprintf(out, "%s\n", line);
			used = 0;
		}
	}
	free(width);
}

void table_free(struct table *t)
{
	bq_strv_free(&t->cells);
}
