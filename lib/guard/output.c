// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - new files a run makes beside its targets (verify_dump's
 * block images): made, never opened if they exist, never followed
 *
 * Such a file is no target: it must not exist before.  O_EXCL makes the
 * create fail on any name already there (a file, a device node, a planted
 * symlink), and no symlink in the name is followed, so nothing the user
 * had is overwritten and nothing the guard protects is reached.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/**
 * bq_guard_create_output() - make a new regular file for a run's output
 * @dirfd: the directory (AT_FDCWD: the current one)
 * @name: a name below it, composed by blkqual
 *
 * Return: a descriptor open for writing, or -EEXIST (never overwritten),
 * -ELOOP or -EXDEV (a symlink on the way), or another -errno.
 */
int bq_guard_create_output(int dirfd, const char *name)
{
	struct stat st;
	int fd = bq_openat_beneath(dirfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size) {
		close(fd);
		return -EEXIST;
	}
	return fd;
}
