/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guard_int.h - private: what the guard's files offer the rest of
 * libblkqual and the tests, but not the command
 */
#ifndef BLKQUAL_GUARD_INT_H
#define BLKQUAL_GUARD_INT_H

#include <stdbool.h>
#include <sys/stat.h>

#include "blkqual_guard.h"

/**
 * bq_same_object() - whether two stat results are the same target
 * @a: one
 * @b: the other
 *
 * Devices by device number (two nodes, one device), files by filesystem
 * and inode number.
 *
 * Return: true when writing to one writes to the other.
 */
bool bq_same_object(const struct stat *a, const struct stat *b);

/**
 * bq_guard_reason_name() - short name of a refusal reason ("mounted", ...)
 * @reason: the reason
 *
 * Return: a static string.
 */
const char *bq_guard_reason_name(enum bq_guard_reason reason);

#endif /* BLKQUAL_GUARD_INT_H */
