// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdbench_ops.c - what a thread of a file-tree run does: pick a file or
 * directory, work on it, let it go; and the format, which makes the tree
 *
 * The tree's state (which files and directories exist, which one a thread
 * is working on) lives in memory under one lock per anchor, taken once per
 * file or directory picked, never around a system call.  A thread owns
 * what it picked until it lets go: no two threads ever work on one file,
 * as in vdbench.  All that touches the lock is in this file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vdbench_int.h"

#define FT_MAX_CONSECUTIVE_FAILURES 1000
#define FT_WAIT_NS 500000ull	/* between looks for a file another thread holds */

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
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
			uint32_t i = (uint32_t)(ft_rnd(&w->rng) % n);

			if (file_fits(tr, &tr->files[i], want)) {
				start = i;
				goto found;
			}
		}
		start = (uint32_t)(ft_rnd(&w->rng) % n);
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
	start = w->g->fwd->select_random ? (uint32_t)(ft_rnd(&w->rng) % n)
					 : w->r->cursor[w->gi] % n;
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
	/* The tree's names are blkqual's own: a symlink planted in it is not followed. */
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0644);
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
		return (double)(ft_rnd(&w->rng) % 100) >= f->rdpct;
	return w->g->op == BQ_FOP_WRITE;
}

/* read, write, and their mix (rdpct=): whole files, or random blocks of them */
int ft_do_rw(struct worker *w)
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
		ft_file_path(w->tree, fi, path, sizeof(path));
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
			uint64_t xfer = ft_dist_pick(&fwd->xfer, ft_unit(ft_rnd(&w->rng)));
			uint64_t off, len;
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
				off = nblocks ? (ft_rnd(&w->rng) % nblocks) * xfer : 0;
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
int ft_do_file_op(struct worker *w)
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
		ft_file_path(w->tree, fi, path, sizeof(path));
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

int ft_do_dir_op(struct worker *w)
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
		ft_dir_path(w->tree, di, path, sizeof(path));
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
		bool is_file = ft_our_file_name(de->d_name);
		uint64_t t0;

		if (!is_file && !ft_our_dir_name(de->d_name))
			continue;	/* not ours: never touched */
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= sizeof(sub))
			continue;
		if (bq_ops_halted(w->t)) {
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
	int fd, ret = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", f->anchor, BQ_FILES_CONTROL) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	/* Its name is blkqual's own: a symlink planted there is not followed. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
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
	       bq_ops_halted(w->t);
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
		ft_file_path(tr, i, path, sizeof(path));
		exists = f->exists;
		fd = timed_open(w, exists ? BQ_FOP_OPEN : BQ_FOP_CREATE, path,
				O_WRONLY | (exists ? 0 : O_CREAT | O_TRUNC) | w->g->openflags.flags);
		if (fd < 0) {
			if (too_many_failures(w))
				return format_fail(w, -EIO);
			continue;
		}
		f->exists = true;
		for (pos = f->cur; pos < f->size && !bq_ops_halted(w->t);) {
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
int ft_do_format(struct worker *w)
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

			ft_dir_path(tr, d, path, sizeof(path));
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
