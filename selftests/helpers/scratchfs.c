// SPDX-License-Identifier: GPL-2.0-only
/*
 * scratchfs.c - test helper: an XFS on a scratch loop device
 *
 * The mount lives in a private mount namespace of the test's process, so
 * it cannot outlive the test even when the test crashes; the loop device
 * goes with the last close (autoclear).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/scratchfs.h"

/**
 * scratchfs_init() - an empty scratch filesystem record
 * @fs: the record
 */
void scratchfs_init(struct scratchfs *fs)
{
	scratch_init(&fs->s);
	fs->mnt[0] = '\0';
}

/**
 * scratchfs_xfs_lbs() - make and mount an XFS on a device of a given
 * logical block size
 * @p: the setup record; skip or failure is recorded here
 * @fs: set up with scratchfs_init(); scratchfs_destroy() undoes it
 * @size: size of the device (mkfs.xfs wants 300 MB at least)
 * @lbs: the device's logical block size; 0 for the loop driver's default
 */
void scratchfs_xfs_lbs(struct prep *p, struct scratchfs *fs, off_t size, unsigned int lbs)
{
	if (prep_ok(p) && need_program("mkfs.xfs"))
		prep_skip(p, need_program("mkfs.xfs"));
	if (lbs)
		scratch_device_lbs(p, &fs->s, size, lbs);
	else
		scratch_device(p, &fs->s, size);
	if (!prep_ok(p))
		return;
	prep_fail(p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "making mounts private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "mkfs.xfs", run_quiet("mkfs.xfs -q -f %s", fs->s.dev));
	snprintf(fs->mnt, sizeof(fs->mnt), "%s/mnt", fs->s.dir);
	if (prep_ok(p))
		prep_fail(p, "mkdir mnt", mkdir(fs->mnt, 0755) ? -errno : 0);
	if (prep_ok(p))
		prep_fail(p, "mounting the XFS",
			  mount(fs->s.dev, fs->mnt, "xfs", 0, NULL) ? -errno : 0);
}

/**
 * scratchfs_xfs() - make and mount an XFS for a fixture
 * @p: the setup record; skip or failure is recorded here
 * @fs: set up with scratchfs_init(); scratchfs_destroy() undoes it
 * @size: size of the device (mkfs.xfs wants 300 MB at least)
 */
void scratchfs_xfs(struct prep *p, struct scratchfs *fs, off_t size)
{
	scratchfs_xfs_lbs(p, fs, size, 0);
}

/**
 * scratchfs_destroy() - unmount, detach, remove; whatever got made
 * @fs: the record
 */
void scratchfs_destroy(struct scratchfs *fs)
{
	if (fs->mnt[0]) {
		umount2(fs->mnt, MNT_DETACH);
		rmdir(fs->mnt);
	}
	scratch_destroy(&fs->s);
}
