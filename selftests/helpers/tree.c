// SPDX-License-Identifier: GPL-2.0-only
/*
 * tree.c - test helper: small sysfs/procfs trees written into a temp dir
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers/tree.h"

/**
 * tree_put() - write @content to @root/@rel, making the directories on the way
 * @root: the tree's top
 * @rel: path below it, e.g. "sys/class/block/sda/stat"
 * @content: what the file holds
 *
 * Return: 0 or -errno.
 */
int tree_put(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(content, f);
	return fclose(f) ? -errno : 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* rm -rf @root. */
int tree_remove(const char *root)
{
	return nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}
