// SPDX-License-Identifier: GPL-2.0-only
/*
 * filetree.c - vdbench-style file trees: the format and the workload
 *
 * Below an anchor, depth levels of width directories each, named
 * vdb.LEVEL_N.dir, and files named vdb_fNNNN.file in the bottom ones (or
 * in all, with distribution=all): the names vdbench gives them, so a tree
 * either tool made can be used by the other.  BQ_FILES_CONTROL in the
 * anchor marks a tree as made by one of them; without it blkqual formats
 * only an empty anchor, and it never deletes a name it would not make.
 *
 * The tree's state (which files and directories exist, which one a thread
 * is working on) lives in memory under one lock per anchor, taken once per
 * file or directory picked, never around a system call.  A thread owns
 * what it picked until it lets go: no two threads ever work on one file,
 * as in vdbench.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blkqual_files.h"
#include "internal.h"

#define FT_NONE UINT32_MAX
#define FT_MAX_CONSECUTIVE_FAILURES 1000
#define FT_WAIT_NS 500000ull	/* between looks for a file another thread holds */

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

/* ---- small things -------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64*: cheap, and plenty for picking files and offsets */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* A value from a distribution; @r uniform in [0, 1). */
static uint64_t dist_pick(const struct bq_files_dist *d, double r)
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

static double unit(uint64_t v)
{
	return (double)(v >> 11) / (double)(1ull << 53);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

static uint64_t dist_max(const struct bq_files_dist *d)
{
	uint64_t m = 0;

	for (int i = 0; i < d->nr; i++)
		if (d->val[i] > m)
			m = d->val[i];
	return m;
}

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

static int tree_build(struct ft_tree *tr, const struct bq_files_fsd *fsd)
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
			tr->files[f].size = dist_pick(&fsd->sizes, unit(mix(f)));
			f++;
		}
	}
	return 0;
}

static void tree_free(struct ft_tree *tr)
{
	if (tr->fsd)
		pthread_mutex_destroy(&tr->lock);
	free(tr->dirs);
	free(tr->files);
	memset(tr, 0, sizeof(*tr));
}

static int dir_path(const struct ft_tree *tr, uint32_t d, char *buf, size_t len)
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

static int file_path(const struct ft_tree *tr, uint32_t fi, char *buf, size_t len)
{
	const struct ft_file *f = &tr->files[fi];
	size_t off;
	int ret = dir_path(tr, f->dir, buf, len);

	if (ret)
		return ret;
	off = strlen(buf);
	if ((size_t)snprintf(buf + off, len - off, "/vdb_f%04u.file", f->no) >= len - off)
		return -ENAMETOOLONG;
	return 0;
}

/* What exists already: one stat per directory and file. */
static void tree_scan(struct ft_tree *tr)
{
	char path[PATH_MAX];
	struct stat st;

	for (uint32_t d = 0; d < tr->nr_dirs; d++) {
		struct ft_dir *dir = &tr->dirs[d];

		dir->exists = !dir_path(tr, d, path, sizeof(path)) && !stat(path, &st) &&
			      S_ISDIR(st.st_mode);
		if (dir->exists && dir->parent != FT_NONE)
			tr->dirs[dir->parent].children++;
	}
	for (uint32_t i = 0; i < tr->nr_files; i++) {
		struct ft_file *f = &tr->files[i];

		if (f->dir != FT_NONE && !tr->dirs[f->dir].exists)
			continue;
		f->exists = !file_path(tr, i, path, sizeof(path)) && !stat(path, &st) &&
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
static bool our_dir_name(const char *name)
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
static bool our_file_name(const char *name)
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

/* ---- picking files and directories --------------------------------------- */

enum want { W_EXISTS, W_MISSING, W_ANY };

static bool parent_ok(const struct ft_tree *tr, uint32_t d)
{
	return d == FT_NONE || tr->dirs[d].exists;
}

static bool file_fits(const struct ft_tree *tr, const struct ft_file *f, enum want want)
{
	if (f->busy || !parent_ok(tr, f->dir))
		return false;
	return want == W_ANY || (want == W_EXISTS) == f->exists;
}

/*
 * A file for this thread alone: -EBUSY when the only fitting ones are held
 * by other threads, -ENOENT when none fits at all.
 */
static int pick_file(struct worker *w, enum want want, uint32_t *idx)
{
	struct ft_tree *tr = w->tree;
	uint32_t n = tr->nr_files, start;
	bool busy = false;

	if (!n)
		return -ENOENT;
	pthread_mutex_lock(&tr->lock);
	if (w->g->fwd->select_random) {
		/* a few random tries, then a scan, so a nearly full (or empty) tree works */
		for (int k = 0; k < 8; k++) {
			uint32_t i = (uint32_t)(rnd(&w->rng) % n);

			if (file_fits(tr, &tr->files[i], want)) {
				start = i;
				goto found;
			}
		}
		start = (uint32_t)(rnd(&w->rng) % n);
	} else {
		start = w->r->cursor[w->gi] % n;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (start + k) % n;
		struct ft_file *f = &tr->files[i];

		if (file_fits(tr, f, want)) {
			start = i;
			goto found;
		}
		if (f->busy && parent_ok(tr, f->dir) &&
		    (want == W_ANY || (want == W_EXISTS) == f->exists))
			busy = true;
	}
	pthread_mutex_unlock(&tr->lock);
	return busy ? -EBUSY : -ENOENT;

found:
	tr->files[start].busy = true;
	if (tr->files[start].dir != FT_NONE)
		tr->dirs[tr->files[start].dir].users++;
	if (!w->g->fwd->select_random)
		w->r->cursor[w->gi] = start + 1;
	pthread_mutex_unlock(&tr->lock);
	*idx = start;
	return 0;
}

/* Let go of a file, saying whether it exists now and how big it is. */
static void release_file(struct worker *w, uint32_t i, bool exists, uint64_t cur)
{
	struct ft_tree *tr = w->tree;
	struct ft_file *f = &tr->files[i];

	pthread_mutex_lock(&tr->lock);
	if (f->dir != FT_NONE) {
		struct ft_dir *d = &tr->dirs[f->dir];

		d->users--;
		if (exists && !f->exists)
			d->nfiles++;
		else if (!exists && f->exists)
			d->nfiles--;
	}
	f->exists = exists;
	f->cur = exists ? cur : 0;
	f->busy = false;
	pthread_mutex_unlock(&tr->lock);
}

static bool dir_fits(const struct ft_tree *tr, const struct ft_dir *d, bool make)
{
	if (d->busy || d->exists == make || !parent_ok(tr, d->parent))
		return false;
	/* rmdir: only an empty directory nobody is working in */
	return make || (!d->children && !d->nfiles && !d->users);
}

static int pick_dir(struct worker *w, bool make, uint32_t *idx)
{
	struct ft_tree *tr = w->tree;
	uint32_t n = tr->nr_dirs, start;
	bool busy = false;

	if (!n)
		return -ENOENT;
	pthread_mutex_lock(&tr->lock);
	start = w->g->fwd->select_random ? (uint32_t)(rnd(&w->rng) % n) : w->r->cursor[w->gi] % n;
	for (uint32_t k = 0; k < n; k++) {
		/* rmdir goes from the bottom up, mkdir from the top down */
		uint32_t i = make ? (start + k) % n : (start + n - k) % n;
		struct ft_dir *d = &tr->dirs[i];

		if (dir_fits(tr, d, make)) {
			d->busy = true;
			if (d->parent != FT_NONE)
				tr->dirs[d->parent].users++;
			if (!w->g->fwd->select_random)
				w->r->cursor[w->gi] = i + 1;
			pthread_mutex_unlock(&tr->lock);
			*idx = i;
			return 0;
		}
		busy |= d->busy;
	}
	pthread_mutex_unlock(&tr->lock);
	return busy ? -EBUSY : -ENOENT;
}

static void release_dir(struct worker *w, uint32_t i, bool exists)
{
	struct ft_tree *tr = w->tree;
	struct ft_dir *d = &tr->dirs[i];

	pthread_mutex_lock(&tr->lock);
	if (d->parent != FT_NONE) {
		struct ft_dir *p = &tr->dirs[d->parent];

		p->users--;
		if (exists && !d->exists)
			p->children++;
		else if (!exists && d->exists)
			p->children--;
	}
	d->exists = exists;
	d->busy = false;
	pthread_mutex_unlock(&tr->lock);
}

static void ran_out(struct worker *w, const char *what)
{
	struct ft_run *r = w->r;

	pthread_mutex_lock(&r->note_lock);
	if (!r->ran_out) {
		r->ran_out = true;
		snprintf(r->note, sizeof(r->note), "fwd=%s (%s) on anchor %.120s: %s",
			 w->g->fwd->name, bq_files_op_name(w->g->op), w->tree->fsd->anchor, what);
	}
	pthread_mutex_unlock(&r->note_lock);
}

/*
 * Nothing to pick: wait while another thread holds what we want, or while
 * a thread runs that could make some (@from, an enum role); false when
 * this thread is done (stopped, or nobody left who could change that).
 */
static bool wait_for_work(struct worker *w, int got, enum role from, const char *what)
{
	if (got == -ENOENT && !__atomic_load_n(&w->tree->alive[from], __ATOMIC_RELAXED)) {
		ran_out(w, what);
		return false;
	}
	sleep_ns(FT_WAIT_NS);
	return !bq_ops_should_stop(w->t);
}

/* ---- operations ----------------------------------------------------------- */

/* fwdrate: each thread keeps its share, catching up at most a second. */
static void throttle(struct worker *w)
{
	uint64_t now;

	if (!w->gap_ns)
		return;
	now = bq_now_ns();
	if (w->next_ns > now) {
		uint64_t until = w->next_ns;

		if (w->t->deadline_ns && until > w->t->deadline_ns)
			until = w->t->deadline_ns;
		if (until > now)
			sleep_ns(until - now);
	} else if (now - w->next_ns > 1000000000ull) {
		w->next_ns = now;
	}
	w->next_ns += w->gap_ns;
}

static void failed(struct worker *w, int op, int err, int64_t off, const char *path)
{
	bq_ops_error(w->t, op, err, off, path);
	w->failures++;
}

static bool too_many_failures(struct worker *w)
{
	if (w->failures < FT_MAX_CONSECUTIVE_FAILURES)
		return false;
	snprintf(w->t->msg, sizeof(w->t->msg), "%d operations in a row failed; thread stopped",
		 w->failures);
	return true;
}

static int timed_open(struct worker *w, int op, const char *path, int flags)
{
	uint64_t t0 = bq_now_ns();
	int fd = open(path, flags | O_CLOEXEC, 0644);
	int err = fd < 0 ? errno : 0;

	bq_ops_record(w->t, op, 0, bq_now_ns() - t0, fd < 0);
	if (fd < 0)
		failed(w, op, err, -1, path);
	return fd;
}

static void timed_close(struct worker *w, int fd, const char *path)
{
	uint64_t t0 = bq_now_ns();
	int ret = 0;

	/* openflags=fsync: the flush is part of what the close costs */
	if (w->g->openflags.fsync)
		ret = fsync(fd);
	if (close(fd) && !ret)
		ret = -1;
	bq_ops_record(w->t, BQ_FOP_CLOSE, 0, bq_now_ns() - t0, ret != 0);
	if (ret)
		failed(w, BQ_FOP_CLOSE, errno, -1, path);
}

static bool is_write(struct worker *w)
{
	const struct bq_files_fwd *f = w->g->fwd;

	if (f->rdpct >= 0)
		return (double)(rnd(&w->rng) % 100) >= f->rdpct;
	return w->g->op == BQ_FOP_WRITE;
}

/* read, write, and their mix (rdpct=): whole files, or random blocks of them */
static int do_rw(struct worker *w)
{
	const struct bq_files_fwd *fwd = w->g->fwd;
	bool seq_write = w->g->op == BQ_FOP_WRITE && !fwd->random_io && fwd->rdpct < 0;
	bool ro = w->g->op == BQ_FOP_READ && fwd->rdpct < 0;
	char path[PATH_MAX];

	while (!bq_ops_should_stop(w->t)) {
		uint64_t size, pos = 0, done = 0, blocks = 0;
		bool exists;
		uint32_t fi;
		int fd, ret, flags;

		ret = pick_file(w, seq_write ? W_ANY : W_EXISTS, &fi);
		if (ret) {
			if (!wait_for_work(w, ret, seq_write ? MAKES_DIRS : MAKES_FILES,
					   seq_write ? "no directory to write files in (format the "
					   "anchor: format=yes)" : ro ? "no file to read (format the "
					   "anchor: format=yes)" : "no file to write (format the anchor: "
					   "format=yes)"))
				return 0;
			continue;
		}
		file_path(w->tree, fi, path, sizeof(path));
		exists = w->tree->files[fi].exists;
		if (exists && fwd->delete_first) {
			uint64_t t0 = bq_now_ns();

			ret = unlink(path);
			bq_ops_record(w->t, BQ_FOP_DELETE, 0, bq_now_ns() - t0, ret != 0);
			if (ret) {
				failed(w, BQ_FOP_DELETE, errno, -1, path);
				release_file(w, fi, true, w->tree->files[fi].cur);
				if (too_many_failures(w))
					return -EIO;
				continue;
			}
			exists = false;
		}
		flags = (ro ? O_RDONLY : fwd->rdpct >= 0 ? O_RDWR : O_WRONLY) |
			w->g->openflags.flags;
		if (!exists)
			flags |= O_CREAT | O_EXCL;
		fd = timed_open(w, exists ? BQ_FOP_OPEN : BQ_FOP_CREATE, path, flags);
		if (fd < 0) {
			release_file(w, fi, exists, w->tree->files[fi].cur);
			if (too_many_failures(w))
				return -EIO;
			continue;
		}
		/* reads go as far as the file is; writes to the size it should be */
		size = ro ? w->tree->files[fi].cur : w->tree->files[fi].size;
		while (!bq_ops_should_stop(w->t)) {
			uint64_t xfer = dist_pick(&fwd->xfer, unit(rnd(&w->rng))), off, len;
			bool wr = is_write(w);
			uint64_t t0;
			ssize_t got;

			if (!fwd->random_io) {
				if (pos >= size)
					break;
				off = pos;
				len = size - pos < xfer ? size - pos : xfer;
			} else {
				uint64_t nblocks = size / xfer;

				if (!size || (fwd->stopafter ? blocks >= fwd->stopafter
							     : done >= size))
					break;
				off = nblocks ? (rnd(&w->rng) % nblocks) * xfer : 0;
				len = nblocks ? xfer : size;
			}
			throttle(w);
			t0 = bq_now_ns();
			got = wr ? pwrite(fd, w->buf, len, (off_t)off)
				 : pread(fd, w->buf, len, (off_t)off);
			ret = got < 0 ? errno : 0;
			bq_ops_record(w->t, wr ? BQ_FOP_WRITE : BQ_FOP_READ,
				      got > 0 ? (uint64_t)got : 0, bq_now_ns() - t0, got < 0);
			if (got < 0) {
				failed(w, wr ? BQ_FOP_WRITE : BQ_FOP_READ, ret, (int64_t)off, path);
				break;
			}
			w->failures = 0;
			if (wr && off + (uint64_t)got > w->tree->files[fi].cur)
				w->tree->files[fi].cur = off + (uint64_t)got;
			if (!got)
				break;	/* the file is shorter than it was */
			pos = off + (uint64_t)got;
			done += (uint64_t)got;
			blocks++;
		}
		timed_close(w, fd, path);
		release_file(w, fi, true, w->tree->files[fi].cur);
		if (too_many_failures(w))
			return -EIO;
	}
	return 0;
}

/* create, delete, open, close, getattr, setattr: one call (or two) per file */
static int do_file_op(struct worker *w)
{
	int op = w->g->op;
	char path[PATH_MAX];

	while (!bq_ops_should_stop(w->t)) {
		enum want want = op == BQ_FOP_CREATE ? W_MISSING : W_EXISTS;
		bool exists = true;
		uint64_t t0, cur;
		struct stat st;
		int ret, fd, before = w->failures;
		uint32_t fi;

		ret = pick_file(w, want, &fi);
		if (ret) {
			if (!wait_for_work(w, ret, op == BQ_FOP_CREATE ? REMOVES_FILES : MAKES_FILES,
					   op == BQ_FOP_CREATE ? "every file exists" :
					   "no file left (every file deleted, or none made)"))
				return 0;
			continue;
		}
		file_path(w->tree, fi, path, sizeof(path));
		cur = w->tree->files[fi].cur;
		throttle(w);
		switch (op) {
		case BQ_FOP_CREATE:
			exists = false;
			fd = timed_open(w, BQ_FOP_CREATE, path,
					O_WRONLY | O_CREAT | O_EXCL | w->g->openflags.flags);
			if (fd >= 0) {
				exists = true;
				cur = 0;
				timed_close(w, fd, path);
			}
			break;
		case BQ_FOP_DELETE:
			t0 = bq_now_ns();
			ret = unlink(path);
			bq_ops_record(w->t, op, 0, bq_now_ns() - t0, ret != 0);
			if (ret)
				failed(w, op, errno, -1, path);
			exists = ret != 0;
			break;
		case BQ_FOP_OPEN:
		case BQ_FOP_CLOSE:
			fd = timed_open(w, BQ_FOP_OPEN, path, O_RDONLY | w->g->openflags.flags);
			if (fd >= 0)
				timed_close(w, fd, path);
			break;
		case BQ_FOP_GETATTR:
			t0 = bq_now_ns();
			ret = stat(path, &st);
			bq_ops_record(w->t, op, 0, bq_now_ns() - t0, ret != 0);
			if (ret)
				failed(w, op, errno, -1, path);
			break;
		case BQ_FOP_SETATTR: {
			/* as vdbench: a new modification time */
			struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT },
						  { .tv_nsec = UTIME_NOW } };

			t0 = bq_now_ns();
			ret = utimensat(AT_FDCWD, path, ts, 0);
			bq_ops_record(w->t, op, 0, bq_now_ns() - t0, ret != 0);
			if (ret)
				failed(w, op, errno, -1, path);
			break;
		}
		}
		if (w->failures == before)
			w->failures = 0;
		release_file(w, fi, exists, cur);
		if (too_many_failures(w))
			return -EIO;
	}
	return 0;
}

static int do_dir_op(struct worker *w)
{
	bool make = w->g->op == BQ_FOP_MKDIR;
	char path[PATH_MAX];

	while (!bq_ops_should_stop(w->t)) {
		uint32_t di;
		uint64_t t0;
		int ret;

		ret = pick_dir(w, make, &di);
		if (ret) {
			if (!wait_for_work(w, ret, make ? REMOVES_DIRS : REMOVES_FILES,
					   make ? "every directory exists" : "no empty directory left"))
				return 0;
			continue;
		}
		dir_path(w->tree, di, path, sizeof(path));
		throttle(w);
		t0 = bq_now_ns();
		ret = make ? mkdir(path, 0755) : rmdir(path);
		bq_ops_record(w->t, w->g->op, 0, bq_now_ns() - t0, ret != 0);
		if (ret)
			failed(w, w->g->op, errno, -1, path);
		else
			w->failures = 0;
		release_dir(w, di, ret ? !make : make);
		if (too_many_failures(w))
			return -EIO;
	}
	return 0;
}

/* ---- the format ------------------------------------------------------------ */

/* Remove what blkqual names, below @path; foreign entries stay (and rmdir says so). */
static int clean_dir(struct worker *w, const char *path)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int ret = 0;

	dir = opendir(path);
	if (!dir) {
		ret = -errno;
		snprintf(w->t->msg, sizeof(w->t->msg), "%.200s: %s", path, strerror(-ret));
		return ret;
	}
	while ((de = readdir(dir)) && !ret) {
		bool is_file = our_file_name(de->d_name);
		uint64_t t0;

		if (!is_file && !our_dir_name(de->d_name))
			continue;	/* not ours: never touched */
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= sizeof(sub))
			continue;
		if (w->t->stop && *w->t->stop) {
			ret = -EINTR;
			break;
		}
		if (!is_file) {
			ret = clean_dir(w, sub);
			if (ret)
				break;
		}
		t0 = bq_now_ns();
		if ((is_file ? unlink(sub) : rmdir(sub))) {
			ret = -errno;
			bq_ops_record(w->t, is_file ? BQ_FOP_DELETE : BQ_FOP_RMDIR, 0,
				      bq_now_ns() - t0, true);
			bq_ops_error(w->t, is_file ? BQ_FOP_DELETE : BQ_FOP_RMDIR, -ret, -1, sub);
			snprintf(w->t->msg, sizeof(w->t->msg), "%.160s: %s%s", sub, strerror(-ret),
				 ret == -ENOTEMPTY ? " (it holds files blkqual did not make)" : "");
			break;
		}
		bq_ops_record(w->t, is_file ? BQ_FOP_DELETE : BQ_FOP_RMDIR, 0, bq_now_ns() - t0,
			      false);
	}
	closedir(dir);
	return ret;
}

static int write_control(const struct ft_tree *tr, char *msg, size_t len)
{
	const struct bq_files_fsd *f = tr->fsd;
	char path[PATH_MAX];
	FILE *out;
	int ret = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", f->anchor, BQ_FILES_CONTROL) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	out = fopen(path, "we");
	if (!out) {
		ret = -errno;
		snprintf(msg, len, "%.200s: %s", path, strerror(-ret));
		return ret;
	}
	/* vdbench's own first lines, so either tool recognises the shape */
	fprintf(out, "* made by blkqual files; only vdb.*.dir and vdb_f*.file below are its\n");
	fprintf(out, "depth %d\nwidth %d\nfiles %u\ndist  %s\n", f->depth, f->width, f->files,
		f->dist_all ? "all" : "bottom");
	for (int i = 0; i < f->sizes.nr; i++)
		fprintf(out, "size  %llu\n", (unsigned long long)f->sizes.val[i]);
	if (fclose(out)) {
		ret = -errno;
		snprintf(msg, len, "%.200s: %s", path, strerror(-ret));
	}
	return ret;
}

static bool tree_failed(struct worker *w)
{
	return __atomic_load_n(&w->tree->failed, __ATOMIC_RELAXED) ||
	       (w->t->stop && *w->t->stop);
}

static int format_fail(struct worker *w, int ret)
{
	__atomic_store_n(&w->tree->failed, 1, __ATOMIC_RELAXED);
	return ret;
}

static int format_files(struct worker *w)
{
	struct ft_tree *tr = w->tree;
	uint64_t xfer = w->g->fwd->xfer.val[0];
	char path[PATH_MAX];

	for (;;) {
		uint32_t i = __atomic_fetch_add(&tr->next_file, 1, __ATOMIC_RELAXED);
		struct ft_file *f;
		uint64_t pos;
		bool exists;
		int fd;

		if (i >= tr->nr_files || tree_failed(w))
			return 0;
		f = &tr->files[i];
		if (f->exists && f->cur >= f->size)
			continue;	/* format=restart: complete already */
		if (f->dir != FT_NONE && !tr->dirs[f->dir].exists)
			continue;	/* its mkdir failed, and was counted */
		file_path(tr, i, path, sizeof(path));
		exists = f->exists;
		fd = timed_open(w, exists ? BQ_FOP_OPEN : BQ_FOP_CREATE, path,
				O_WRONLY | (exists ? 0 : O_CREAT | O_TRUNC) | w->g->openflags.flags);
		if (fd < 0) {
			if (too_many_failures(w))
				return format_fail(w, -EIO);
			continue;
		}
		f->exists = true;
		for (pos = f->cur; pos < f->size && !(w->t->stop && *w->t->stop);) {
			uint64_t len = f->size - pos < xfer ? f->size - pos : xfer;
			uint64_t t0 = bq_now_ns();
			ssize_t got = pwrite(fd, w->buf, len, (off_t)pos);

			bq_ops_record(w->t, BQ_FOP_WRITE, got > 0 ? (uint64_t)got : 0,
				      bq_now_ns() - t0, got <= 0);
			if (got <= 0) {
				failed(w, BQ_FOP_WRITE, got < 0 ? errno : EIO, (int64_t)pos, path);
				break;
			}
			pos += (uint64_t)got;
			f->cur = pos;
		}
		timed_close(w, fd, path);
		if (too_many_failures(w))
			return format_fail(w, -EIO);
	}
}

/*
 * The group's first thread deletes the old tree and writes the control
 * file; then all make directories (each after its parent), then files.
 */
static int do_format(struct worker *w)
{
	struct ft_tree *tr = w->tree;
	const struct bq_files_format *fm = &w->r->plan->rd->format;
	char path[PATH_MAX];
	int ret;

	if (w->r->thread_idx[w->t->id] == 0) {
		ret = 0;
		if (!fm->restart)
			ret = clean_dir(w, tr->fsd->anchor);
		if (!ret && fm->clean) {
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", tr->fsd->anchor,
					     BQ_FILES_CONTROL) >= sizeof(path))
				ret = -ENAMETOOLONG;
			else if (unlink(path) && errno != ENOENT)
				ret = -errno;
		} else if (!ret) {
			ret = write_control(tr, w->t->msg, sizeof(w->t->msg));
		}
		if (!ret && !fm->restart) {
			/* the old tree is gone: nothing exists any more */
			for (uint32_t d = 0; d < tr->nr_dirs; d++)
				tr->dirs[d].exists = false;
			for (uint32_t i = 0; i < tr->nr_files; i++)
				tr->files[i].exists = false, tr->files[i].cur = 0;
		}
		__atomic_store_n(&tr->clean_state, ret ? -1 : 1, __ATOMIC_RELEASE);
		if (ret)
			return format_fail(w, ret);
	}
	while (!__atomic_load_n(&tr->clean_state, __ATOMIC_ACQUIRE))
		sleep_ns(FT_WAIT_NS);
	if (tr->clean_state < 0 || fm->clean)
		return 0;

	for (;;) {
		uint32_t d = __atomic_fetch_add(&tr->next_dir, 1, __ATOMIC_RELAXED);
		struct ft_dir *dir;
		uint32_t parent;

		if (d >= tr->nr_dirs)
			break;
		dir = &tr->dirs[d];
		parent = dir->parent;
		/* the parent came earlier and is being made by someone: wait for it */
		while (parent != FT_NONE &&
		       !__atomic_load_n(&tr->dirs[parent].exists, __ATOMIC_ACQUIRE) &&
		       !__atomic_load_n(&tr->dirs[parent].failed, __ATOMIC_ACQUIRE) &&
		       !tree_failed(w))
			sched_yield();
		if (!dir->exists && !tree_failed(w)) {
			uint64_t t0 = bq_now_ns();

			dir_path(tr, d, path, sizeof(path));
			ret = (parent != FT_NONE && tr->dirs[parent].failed) ? -ENOENT
				: mkdir(path, 0755) ? -errno : 0;
			bq_ops_record(w->t, BQ_FOP_MKDIR, 0, bq_now_ns() - t0, ret != 0);
			if (ret) {
				failed(w, BQ_FOP_MKDIR, -ret, -1, path);
				__atomic_store_n(&dir->failed, true, __ATOMIC_RELEASE);
			} else {
				__atomic_store_n(&dir->exists, true, __ATOMIC_RELEASE);
			}
		}
		__atomic_fetch_add(&tr->dirs_done, 1, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&tr->dirs_done, __ATOMIC_ACQUIRE) < tr->nr_dirs && !tree_failed(w))
		sleep_ns(FT_WAIT_NS);
	if (fm->dirs)
		return 0;
	return format_files(w);
}

/* ---- a run ------------------------------------------------------------------ */

static uint32_t roles_of(const struct bq_files_fwg *g, bool format)
{
	const struct bq_files_fwd *f = g->fwd;

	if (format)
		return 0;	/* a format waits for nobody but itself */
	switch (g->op) {
	case BQ_FOP_CREATE:
		return 1u << MAKES_FILES;
	case BQ_FOP_DELETE:
		return 1u << REMOVES_FILES;
	case BQ_FOP_MKDIR:
		return 1u << MAKES_DIRS;
	case BQ_FOP_RMDIR:
		return 1u << REMOVES_DIRS;
	case BQ_FOP_WRITE:
		if (f->random_io || f->rdpct >= 0)
			return 0;
		return 1u << MAKES_FILES | (f->delete_first ? 1u << REMOVES_FILES : 0);
	default:
		return 0;
	}
}

static void count_roles(struct ft_tree *tr, uint32_t roles, int n)
{
	for (int k = 0; k < 4; k++)
		if (roles & (1u << k))
			__atomic_fetch_add(&tr->alive[k], n, __ATOMIC_RELAXED);
}

static int thread_fn(struct bq_ops_thread *t, void *arg)
{
	struct ft_run *r = arg;
	const struct bq_files_plan *plan = r->plan;
	struct worker w = {
		.r = r,
		.gi = r->thread_fwg[t->id],
		.t = t,
	};
	size_t len;
	int ret;

	w.g = &plan->fwg[w.gi];
	w.tree = &r->trees[w.g->fsd];
	w.roles = roles_of(w.g, plan->format);
	w.rng = mix(r->seed + (uint64_t)t->id) | 1;
	if (w.g->rate > 0)
		w.gap_ns = (uint64_t)(1e9 * w.g->threads / w.g->rate);
	w.next_ns = bq_now_ns();
	len = dist_max(&w.g->fwd->xfer);
	len = (len + 4095) & ~(size_t)4095;
	if (posix_memalign((void **)&w.buf, 4096, len ? len : 4096)) {
		snprintf(t->msg, sizeof(t->msg), "no memory for a %zu-byte buffer", len);
		ret = -ENOMEM;
		goto out;
	}
	/* written data: not all zeroes, which some storage would not store */
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t v = rnd(&w.rng);

		memcpy(w.buf + i, &v, 8);
	}
	if (plan->format)
		ret = do_format(&w);
	else if (w.g->op == BQ_FOP_READ || w.g->op == BQ_FOP_WRITE)
		ret = do_rw(&w);
	else if (w.g->op == BQ_FOP_MKDIR || w.g->op == BQ_FOP_RMDIR)
		ret = do_dir_op(&w);
	else
		ret = do_file_op(&w);
	free(w.buf);
out:
	count_roles(w.tree, w.roles, -1);
	if (ret && !t->msg[0])
		snprintf(t->msg, sizeof(t->msg), "%s", strerror(-ret));
	return ret;
}

/* Make a missing anchor (and its parents with create_anchors=yes). */
static int make_anchor(const char *anchor, bool parents, char *msg, size_t len)
{
	char buf[PATH_MAX];
	struct stat st;

	if (!stat(anchor, &st))
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	bq_strlcpy(buf, anchor, sizeof(buf));
	for (char *p = buf + 1; parents && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			break;
		*p = '/';
	}
	if (mkdir(anchor, 0755) && errno != EEXIST) {
		int ret = -errno;

		snprintf(msg, len, "making anchor %.200s: %s", anchor, strerror(-ret));
		return ret;
	}
	return 0;
}

struct sample_hook {
	const struct bq_files_run_opts *o;
	struct bq_cpu_times cpu;
	bool have_cpu;
};

static void on_sample(void *arg, const struct bq_ops_sample *s)
{
	struct sample_hook *h = arg;

	h->have_cpu = !bq_cpu_times_read(h->o->ctx, &h->cpu);
	if (h->o->on_sample)
		h->o->on_sample(h->o->sample_arg, s);
}

/* What happened after the last sample: the run's end seldom meets an interval's. */
static void make_tail(struct bq_files_result *res, struct sample_hook *h, uint64_t interval_ns)
{
	struct bq_ops_result *ops = &res->ops;
	struct bq_ops_sample *t = &res->tail;
	uint64_t last = ops->nr_samples ? ops->samples[ops->nr_samples - 1].t_ns : 0;
	struct bq_cpu_times now;
	bool any = false;

	memset(t, 0, sizeof(*t));
	if (ops->runtime_ns <= last)
		return;
	for (int k = 0; k < ops->nr_ops; k++) {
		double lat = (double)ops->total[k].lat_sum_ns;

		t->count[k] = ops->total[k].count;
		t->bytes[k] = ops->total[k].bytes;
		t->errors[k] = ops->total[k].errors;
		for (size_t i = 0; i < ops->nr_samples; i++) {
			t->count[k] -= ops->samples[i].count[k];
			t->bytes[k] -= ops->samples[i].bytes[k];
			t->errors[k] -= ops->samples[i].errors[k];
			lat -= ops->samples[i].mean_ns[k] * (double)ops->samples[i].count[k];
		}
		t->mean_ns[k] = t->count[k] && lat > 0 ? lat / (double)t->count[k] : 0;
		any |= t->count[k] != 0;
	}
	t->t_ns = ops->runtime_ns;
	t->dt_ns = ops->runtime_ns - last;
	/* a sliver of an interval with nothing in it is not worth a line */
	if (ops->nr_samples && !any && interval_ns && t->dt_ns < interval_ns / 2) {
		t->dt_ns = 0;
		return;
	}
	if (ops->nr_samples && interval_ns && t->dt_ns < interval_ns / 10) {
		t->dt_ns = 0;
		return;
	}
	if (h->have_cpu && !bq_cpu_times_read(h->o->ctx, &now))
		t->cpu_total_pct = bq_cpu_busy_pct(&h->cpu, &now, &t->cpu_sys_pct);
	else
		t->cpu_total_pct = ops->cpu_total_pct, t->cpu_sys_pct = ops->cpu_sys_pct;
}

int bq_files_run(const struct bq_files_plan *plan, const struct bq_files_run_opts *o,
		 struct bq_files_result *res)
{
	const struct bq_files_parms *p = plan->p;
	struct ft_run r = { .plan = plan };
	struct sample_hook hook = { .o = o };
	struct bq_ops_opts opts = {
		.nr_threads = plan->nr_threads,
		.nr_ops = BQ_FOP_NR,
		.duration_ns = plan->format ? 0 : o->elapsed_ns,
		.interval_ns = o->interval_ns,
		.stop = o->stop,
		.fn = thread_fn,
		.arg = &r,
		.on_sample = on_sample,
		.sample_arg = &hook,
	};
	int ret = 0, n = 0;

	memset(res, 0, sizeof(*res));
	if (!plan->nr_fwg || plan->nr_threads < 1)
		return -EINVAL;
	r.trees = calloc(p->nr_fsd, sizeof(*r.trees));
	r.thread_fwg = calloc((size_t)plan->nr_threads, sizeof(int));
	r.thread_idx = calloc((size_t)plan->nr_threads, sizeof(int));
	r.cursor = calloc(plan->nr_fwg, sizeof(*r.cursor));
	if (!r.trees || !r.thread_fwg || !r.thread_idx || !r.cursor) {
		ret = -ENOMEM;
		goto out_free;
	}
	pthread_mutex_init(&r.note_lock, NULL);
	r.seed = mix((uint64_t)bq_now_ns());
	for (size_t g = 0; g < plan->nr_fwg; g++) {
		const struct bq_files_fwg *fwg = &plan->fwg[g];
		struct ft_tree *tr = &r.trees[fwg->fsd];

		if (!tr->fsd) {
			ret = make_anchor(p->fsd[fwg->fsd].anchor, p->create_anchors, res->note,
					  sizeof(res->note));
			if (!ret)
				ret = tree_build(tr, &p->fsd[fwg->fsd]);
			if (ret) {
				if (!res->note[0])
					snprintf(res->note, sizeof(res->note), "anchor %.200s: %s",
						 p->fsd[fwg->fsd].anchor, strerror(-ret));
				goto out_trees;
			}
			tree_scan(tr);
		}
		for (int i = 0; i < fwg->threads; i++, n++) {
			r.thread_fwg[n] = (int)g;
			r.thread_idx[n] = i;
		}
		count_roles(tr, roles_of(fwg, plan->format), fwg->threads);
	}
	ret = bq_ops_run(o->ctx, &opts, &res->ops);
	if (ret) {
		snprintf(res->note, sizeof(res->note), "starting threads: %s", strerror(-ret));
		goto out_trees;
	}
	make_tail(res, &hook, o->interval_ns);
	res->ran_out = r.ran_out;
	if (r.ran_out)
		bq_strlcpy(res->note, r.note, sizeof(res->note));
	for (size_t f = 0; f < p->nr_fsd; f++) {
		const struct ft_tree *tr = &r.trees[f];

		for (uint32_t d = 0; d < tr->nr_dirs; d++)
			res->dirs += tr->dirs[d].exists;
		for (uint32_t i = 0; i < tr->nr_files; i++)
			res->files += tr->files[i].exists;
	}
out_trees:
	for (size_t f = 0; f < p->nr_fsd; f++)
		tree_free(&r.trees[f]);
	pthread_mutex_destroy(&r.note_lock);
out_free:
	free(r.trees);
	free(r.thread_fwg);
	free(r.thread_idx);
	free(r.cursor);
	return ret;
}

void bq_files_result_free(struct bq_files_result *res)
{
	bq_ops_result_free(&res->ops);
	memset(res, 0, sizeof(*res));
}
