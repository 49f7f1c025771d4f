/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scratchfs.h - test helper: an XFS on a scratch loop device, mounted in
 * the test's own mount namespace
 */
#ifndef SELFTESTS_SCRATCHFS_H
#define SELFTESTS_SCRATCHFS_H

#include <stddef.h>

#include "helpers/scratchdev.h"

/**
 * struct scratchfs - a mounted scratch filesystem
 * @s: the loop device and its backing file
 * @mnt: mount point, "@s.dir/mnt"
 */
struct scratchfs {
	struct scratch s;
	char mnt[300];
};

void scratchfs_init(struct scratchfs *fs);
void scratchfs_xfs(struct prep *p, struct scratchfs *fs, off_t size);
void scratchfs_xfs_lbs(struct prep *p, struct scratchfs *fs, off_t size, unsigned int lbs);
void scratchfs_destroy(struct scratchfs *fs);

#endif /* SELFTESTS_SCRATCHFS_H */
