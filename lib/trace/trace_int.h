/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_int.h - private to lib/trace: the block trace's pieces
 */
#ifndef BLKQUAL_TRACE_INT_H
#define BLKQUAL_TRACE_INT_H

#include <stdbool.h>

/* bpf_lazy.c: whether libbpf could be loaded at all */
bool bq_libbpf_loadable(void);

#endif /* BLKQUAL_TRACE_INT_H */
