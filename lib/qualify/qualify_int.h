/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qualify_int.h - what profile.c, criteria.c, qualify.c and verdict.c
 * share, private to libblkqual
 */
#ifndef BLKQUAL_QUALIFY_INT_H
#define BLKQUAL_QUALIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_qualify.h"
#include "internal.h"

/* "4k", "0.5k", "512b", "1m", "128KiB": a whole number of bytes, 0 < n < 4 GiB. */
int bq_q_parse_bytes(const char *s, uint32_t *out);

/* "65/35": percent reads; -EINVAL unless both parts add up to 100. */
int bq_q_parse_mix(const char *s, unsigned int *read_pct);

/* A block size as cell labels spell it: "4k", "0.5k", "1024k". */
void bq_q_fmt_bs(char *buf, size_t len, uint32_t bs);

/* Whether @c of step @step matches the selectors of @sel (not its metric). */
bool bq_q_cell_matches(const struct bq_cellsel *sel, const char *step, const struct bq_qcell *c);

/* Release the window sums of bq_qual_judge(); @q->window is left NULL. */
void bq_q_window_free(struct bq_qual *q);

#endif /* BLKQUAL_QUALIFY_INT_H */
