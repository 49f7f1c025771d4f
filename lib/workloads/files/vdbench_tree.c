// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdbench_tree.c - vdbench-style file trees: their shape, the names in them,
 * and the check of an anchor before a run
 *
 * Below an anchor, depth levels of width directories each, named
 * vdb.LEVEL_N.dir, and files named vdb_fNNNN.file in the bottom ones (or
 * in all, with distribution=all): the names vdbench gives them, so a tree
 * either tool made can be used by the other.  BQ_FILES_CONTROL in the
 * anchor marks a tree as made by one of them; without it blkqual formats
 * only an empty anchor, and it never deletes a name it would not make.
 *
 * What threads do to a tree, the format included, is in vdbench_ops.c
 * and a run in vdbench_run.c: here is only what a tree looks like, which
 * the parser, the command and its report need without running anything.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vdbench_int.h"

/* ---- the tree's shape ------------------------------------------------------ */

void bq_files_tree_size(const struct bq_files_fsd *fsd, uint64_t *dirs, uint64_t *files,
			uint64_t *bytes)
{
	uint64_t level = 1, nd = 0, holders;
	double avg = 0;
	bool big = false;

	for (int i = 0; i < fsd->depth && !big; i++) {
		level *= (uint64_t)fsd->width;
		nd += level;
		big = nd > BQ_FILES_MAX_FILES;
	}
	if (big) {
		*dirs = *files = UINT64_MAX;
		*bytes = UINT64_MAX;
		return;
	}
	/* bottom: the deepest level only (the anchor itself when depth is 0) */
	holders = fsd->depth ? (fsd->dist_all ? nd : level) : 1;
	*dirs = nd;
	*files = holders * fsd->files;
	if (fsd->sizes.nr <= 1)
		avg = (double)fsd->sizes.val[0];
	else
		for (int i = 0; i < fsd->sizes.nr; i++)
			avg += (double)fsd->sizes.val[i] * fsd->sizes.pct[i] / 100.0;
	*bytes = (uint64_t)(avg * (double)*files);
}

int ft_tree_build(struct ft_tree *tr, const struct bq_files_fsd *fsd)
{
	uint64_t nd, nf, bytes;
	uint32_t d = 0, f = 0, level_start = 0, level_end = 0;

	memset(tr, 0, sizeof(*tr));
	tr->fsd = fsd;
	pthread_mutex_init(&tr->lock, NULL);
	bq_files_tree_size(fsd, &nd, &nf, &bytes);
	if (nd > BQ_FILES_MAX_FILES || nf > BQ_FILES_MAX_FILES)
		return -E2BIG;
	tr->dirs = calloc(nd ? nd : 1, sizeof(*tr->dirs));
	tr->files = calloc(nf ? nf : 1, sizeof(*tr->files));
	if (!tr->dirs || !tr->files)
		return -ENOMEM;
	tr->nr_dirs = (uint32_t)nd;
	tr->nr_files = (uint32_t)nf;

	/* Breadth first: a directory always comes after its parent. */
	for (int lv = 1; lv <= fsd->depth; lv++) {
		uint32_t parents = lv == 1 ? 1 : level_end - level_start;

		for (uint32_t pi = 0; pi < parents; pi++) {
			for (int w = 1; w <= fsd->width; w++) {
				tr->dirs[d].parent = lv == 1 ? FT_NONE : level_start + pi;
				tr->dirs[d].no = (uint32_t)w;
				tr->dirs[d].level = (uint32_t)lv;
				d++;
			}
		}
		level_start = lv == 1 ? 0 : level_end;
		level_end = d;
	}
	/* Files: the anchor with depth 0, else bottom directories (or all). */
	for (uint32_t di = 0; di < (fsd->depth ? tr->nr_dirs : 1); di++) {
		uint32_t dir = fsd->depth ? di : FT_NONE;

		if (fsd->depth && !fsd->dist_all && tr->dirs[di].level != (uint32_t)fsd->depth)
			continue;
		for (uint32_t k = 1; k <= fsd->files; k++) {
			tr->files[f].dir = dir;
			tr->files[f].no = k;
			/* fixed per file, so a second run finds the sizes the format made */
			tr->files[f].size = ft_dist_pick(&fsd->sizes, ft_unit(bq_mix64(f)));
			f++;
		}
	}
	return 0;
}

void ft_tree_free(struct ft_tree *tr)
{
	if (tr->fsd)
		pthread_mutex_destroy(&tr->lock);
	free(tr->dirs);
	free(tr->files);
	memset(tr, 0, sizeof(*tr));
}

int ft_dir_path(const struct ft_tree *tr, uint32_t d, char *buf, size_t len)
{
	uint32_t chain[40];
	int n = 0, off;

	for (; d != FT_NONE && n < 40; d = tr->dirs[d].parent)
		chain[n++] = d;
	off = snprintf(buf, len, "%s", tr->fsd->anchor);
	while (n-- > 0 && off > 0 && (size_t)off < len)
		off += snprintf(buf + off, len - (size_t)off, "/vdb.%u_%u.dir",
				tr->dirs[chain[n]].level, tr->dirs[chain[n]].no);
	return off > 0 && (size_t)off < len ? 0 : -ENAMETOOLONG;
}

int ft_file_path(const struct ft_tree *tr, uint32_t fi, char *buf, size_t len)
{
	const struct ft_file *f = &tr->files[fi];
	size_t off;
	int ret = ft_dir_path(tr, f->dir, buf, len);

	if (ret)
		return ret;
	off = strlen(buf);
	if ((size_t)snprintf(buf + off, len - off, "/vdb_f%04u.file", f->no) >= len - off)
		return -ENAMETOOLONG;
	return 0;
}

/* What exists already: one stat per directory and file. */
void ft_tree_scan(struct ft_tree *tr)
{
	char path[PATH_MAX];
	struct stat st;

	for (uint32_t d = 0; d < tr->nr_dirs; d++) {
		struct ft_dir *dir = &tr->dirs[d];

		dir->exists = !ft_dir_path(tr, d, path, sizeof(path)) && !stat(path, &st) &&
			      S_ISDIR(st.st_mode);
		if (dir->exists && dir->parent != FT_NONE)
			tr->dirs[dir->parent].children++;
	}
	for (uint32_t i = 0; i < tr->nr_files; i++) {
		struct ft_file *f = &tr->files[i];

		if (f->dir != FT_NONE && !tr->dirs[f->dir].exists)
			continue;
		f->exists = !ft_file_path(tr, i, path, sizeof(path)) && !stat(path, &st) &&
			    S_ISREG(st.st_mode);
		f->cur = f->exists ? (uint64_t)st.st_size : 0;
		if (f->exists && f->dir != FT_NONE)
			tr->dirs[f->dir].nfiles++;
	}
}

/* ---- names blkqual (and vdbench) make ------------------------------------ */

static bool is_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* vdb.LEVEL_N.dir */
bool ft_our_dir_name(const char *name)
{
	const char *us, *end;
	size_t n = strlen(name);

	if (n < 10 || strncmp(name, "vdb.", 4) || strcmp(name + n - 4, ".dir"))
		return false;
	end = name + n - 4;
	us = memchr(name + 4, '_', (size_t)(end - (name + 4)));
	return us && is_digits(name + 4, (size_t)(us - (name + 4))) &&
	       is_digits(us + 1, (size_t)(end - (us + 1)));
}

/* vdb_fNNNN.file */
bool ft_our_file_name(const char *name)
{
	size_t n = strlen(name);

	return n > 10 && !strncmp(name, "vdb_f", 5) && !strcmp(name + n - 5, ".file") &&
	       is_digits(name + 5, n - 10);
}

int bq_files_anchor_check(const struct bq_files_fsd *fsd, bool create_anchors, bool formatting,
			  struct bq_parse_error *err)
{
	char parent[PATH_MAX], *slash;
	char foreign[256] = "";
	bool control = false;
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int ret = 0;

	if (stat(fsd->anchor, &st)) {
		ret = -errno;
		if (ret != -ENOENT)
			return bq_fail_at(err, fsd->anchor, ret, "anchor of fsd=%s: %s", fsd->name,
					  strerror(-ret));
		bq_strlcpy(parent, fsd->anchor, sizeof(parent));
		while ((slash = strrchr(parent, '/')) && slash != parent && !slash[1])
			*slash = '\0';
		slash = strrchr(parent, '/');
		if (!slash)
			strcpy(parent, ".");
		else if (slash == parent)
			parent[1] = '\0';
		else
			*slash = '\0';
		if (create_anchors || (!stat(parent, &st) && S_ISDIR(st.st_mode)))
			return 0;
		return bq_fail_at(err, fsd->anchor, -ENOENT,
				  "anchor of fsd=%s does not exist, nor does its parent (add "
				  "create_anchors=yes to make both)", fsd->name);
	}
	if (!S_ISDIR(st.st_mode))
		return bq_fail_at(err, fsd->anchor, -ENOTDIR, "anchor of fsd=%s is not a directory",
				  fsd->name);
	if (!formatting)
		return 0;
	dir = opendir(fsd->anchor);
	if (!dir) {
		ret = -errno;
		return bq_fail_at(err, fsd->anchor, ret, "anchor of fsd=%s: %s", fsd->name,
				  strerror(-ret));
	}
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "lost+found"))
			continue;
		if (!strcmp(de->d_name, BQ_FILES_CONTROL))
			control = true;
		else if (!foreign[0])
			bq_strlcpy(foreign, de->d_name, sizeof(foreign));
	}
	closedir(dir);
	if (foreign[0] && !control)
		return bq_fail_at(err, fsd->anchor, -EEXIST,
				  "anchor of fsd=%s holds '%s' and no %s: blkqual formats only "
				  "an empty anchor or one it (or vdbench) formatted", fsd->name,
				  foreign, BQ_FILES_CONTROL);
	return 0;
}
