/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vdbench_int.h - what the vdbench folder's files share, private to
 * libblkqual: the parser's limit on a tree, a tree in memory, a run, one
 * thread's state
 */
#ifndef BLKQUAL_FILETREE_INT_H
#define BLKQUAL_FILETREE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_files.h"
#include "internal.h"
#include "workloads/ops_int.h"

#define BQ_FILES_MAX_FILES (128u << 20)	/* per anchor, as vdbench */

#define FT_NONE UINT32_MAX

struct ft_dir {
	uint32_t parent;	/* FT_NONE: the anchor */
	uint32_t no;		/* 1-based among its siblings */
	uint32_t level;		/* 1-based */
	uint32_t children;	/* existing child directories */
	uint32_t nfiles;	/* existing files in it */
	uint32_t users;		/* threads holding a file in it */
	bool exists;
	bool busy;
	bool failed;		/* format: its mkdir failed */
};

struct ft_file {
	uint32_t dir;		/* FT_NONE: the anchor */
	uint32_t no;		/* 1-based within its directory */
	uint64_t size;		/* what it should be */
	uint64_t cur;		/* what it is */
	bool exists;
	bool busy;
};

struct ft_tree {
	const struct bq_files_fsd *fsd;
	struct ft_dir *dirs;
	uint32_t nr_dirs;
	struct ft_file *files;
	uint32_t nr_files;
	pthread_mutex_t lock;
	/* format progress, atomics */
	int clean_state;	/* 0 running, 1 done, -1 failed */
	uint32_t next_dir;
	uint32_t dirs_done;
	uint32_t next_file;
	int failed;
	/* threads of this anchor still running, per what they change (enum role) */
	int alive[4];
};

/* What a thread may change in the tree, so a waiting thread knows whom to wait for. */
enum role { MAKES_FILES, REMOVES_FILES, MAKES_DIRS, REMOVES_DIRS };

struct ft_run {
	const struct bq_files_plan *plan;
	struct ft_tree *trees;		/* per fsd; nr_dirs/files 0 when unused */
	int *thread_fwg;
	int *thread_idx;
	uint32_t *cursor;		/* per group: next file for fileselect=sequential */
	uint64_t seed;
	pthread_mutex_t note_lock;
	bool ran_out;
	char note[256];
};

struct worker {
	struct ft_run *r;
	const struct bq_files_fwg *g;
	struct ft_tree *tree;
	struct bq_ops_thread *t;
	int gi;
	uint64_t rng;
	uint64_t gap_ns;
	uint64_t next_ns;
	char *buf;
	size_t buf_len;
	int failures;
	uint32_t roles;		/* bit per enum role */
};

/* ---- small things, used by every piece ------------------------------------ */

static inline uint64_t ft_rnd(uint64_t *s)
{
	/* xorshift64*: cheap, and plenty for picking files and offsets */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}


/* A value from a distribution; @r uniform in [0, 1). */
static inline uint64_t ft_dist_pick(const struct bq_files_dist *d, double r)
{
	double acc = 0;

	if (d->nr <= 1)
		return d->val[0];
	for (int i = 0; i < d->nr; i++) {
		acc += d->pct[i] / 100.0;
		if (r < acc)
			return d->val[i];
	}
	return d->val[d->nr - 1];
}

static inline double ft_unit(uint64_t v)
{
	return (double)(v >> 11) / (double)(1ull << 53);
}

/* ---- vdbench_tree.c: the tree's shape and names --------------------------------- */

/* The tree of @fsd in memory, every directory after its parent; nothing exists yet. */
int ft_tree_build(struct ft_tree *tr, const struct bq_files_fsd *fsd);
void ft_tree_free(struct ft_tree *tr);
/* What exists already: one stat per directory and file. */
void ft_tree_scan(struct ft_tree *tr);
/* The path of directory @d (FT_NONE: the anchor); -ENAMETOOLONG when it does not fit. */
int ft_dir_path(const struct ft_tree *tr, uint32_t d, char *buf, size_t len);
/* The path of file @fi; -ENAMETOOLONG when it does not fit. */
int ft_file_path(const struct ft_tree *tr, uint32_t fi, char *buf, size_t len);
/* Whether @name is one blkqual (and vdbench) makes: vdb.LEVEL_N.dir, vdb_fNNNN.file */
bool ft_our_dir_name(const char *name);
bool ft_our_file_name(const char *name);

/* ---- vdbench_ops.c: what a thread does, until stopped or out of work ------- */

/* read, write and their mix (rdpct=) */
int ft_do_rw(struct worker *w);
/* create, delete, open, close, getattr, setattr */
int ft_do_file_op(struct worker *w);
/* mkdir, rmdir */
int ft_do_dir_op(struct worker *w);
/* The format: the old tree deleted, the control file, directories, files. */
int ft_do_format(struct worker *w);

#endif /* BLKQUAL_FILETREE_INT_H */
