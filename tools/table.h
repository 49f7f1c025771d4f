/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - aligned text tables, like lsblk and nvme list print
 */
#ifndef BLKQUAL_TABLE_H
#define BLKQUAL_TABLE_H

#include <stdio.h>

#include "blkqual.h"

/**
 * struct table - cells added row by row, printed with columns aligned
 * @ncols: number of columns
 * @cells: the headers, then every cell in row order
 */
struct table {
	size_t ncols;
	struct bq_strv cells;
};

int table_init(struct table *t, const char *const *headers, size_t ncols);
int table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_print(const struct table *t, FILE *out);
void table_free(struct table *t);

#endif /* BLKQUAL_TABLE_H */
