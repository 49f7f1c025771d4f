// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileset.c - a job without filename=: the files fio would name
 * (jobname.jobnum.filenum, or filename_format, in directory= or the
 * current directory), sized and laid out as fio lays them out before the
 * run, and unlinked after it with unlink=1
 *
 * These names are blkqual's own making, so no part of them is ever
 * followed through a symlink: each directory below directory= is walked
 * with O_NOFOLLOW, the file is looked at with AT_SYMLINK_NOFOLLOW and made
 * with O_CREAT|O_EXCL|O_NOFOLLOW, and an unlink happens below the
 * directory's descriptor after the name is checked to still be the file
 * the run held.  Something else under a file's name (a symlink, a device,
 * a directory) is refused, never written or removed; an existing file
 * that has to be replaced is judged by the guard first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileset.h"
#include "layout.h"
#include "guard/guard_int.h"
#include "internal.h"
#include "run_int.h"

/* fio's get_next_str(): ':' separates, "\:" is a ':' in a name, empty entries are skipped. */
static int next_entry(const char **p, char *out, size_t len)
{
	size_t n = 0;

	while (**p == ':')
		(*p)++;
	if (!**p)
		return 0;
	for (; **p && **p != ':'; (*p)++) {
		if ((*p)[0] == '\\' && (*p)[1] == ':')
			(*p)++;
		if (n + 1 >= len)
			return -ENAMETOOLONG;
		out[n++] = **p;
	}
	out[n] = '\0';
	return 1;
}

/* directory=: entry @idx modulo how many there are, as fio assigns them to clones. */
static int dir_entry(const char *list, unsigned int idx, char *out, size_t len)
{
	const char *p = list;
	unsigned int nr = 0;
	int ret;

	while ((ret = next_entry(&p, out, len)) > 0)
		nr++;
	if (ret < 0)
		return ret;
	if (!nr)
		return -EINVAL;
	p = list;
	for (unsigned int i = 0; i <= idx % nr; i++)
		ret = next_entry(&p, out, len);
	return ret < 0 ? ret : 0;
}

/* How many entries directory= has; 1 for none (the current directory). */
static unsigned int count_dirs(const char *list)
{
	const char *p = list;
	unsigned int nr = 0;
	char buf[PATH_MAX];

	while (next_entry(&p, buf, sizeof(buf)) > 0)
		nr++;
	return nr ? nr : 1;
}

/* filename_format=: each keyword, any case, replaced wherever it is. */
static int make_name(const struct bq_job *j, unsigned int jobnum, unsigned int filenum,
		     char *out, size_t len)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	const char *fmt = j->filename_format;
	size_t n = 0;

	if (!fmt[0]) {
		int w = snprintf(out, len, "%s.%u.%u", j->name, jobnum, filenum);

		return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
	}
	while (*fmt) {
		char val[80] = "";
		size_t k, klen = 0;

		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			klen = strlen(keys[k]);
			if (!strncasecmp(fmt, keys[k], klen))
				break;
		}
		if (k == ARRAY_SIZE(keys)) {
			if (n + 1 >= len)
				return -ENAMETOOLONG;
			out[n++] = *fmt++;
			continue;
		}
		/* $clientuid names a client of fio's server; blkqual has none, so it is empty. */
		if (k == 0)
			bq_strlcpy(val, j->name, sizeof(val));
		else if (k == 1)
			snprintf(val, sizeof(val), "%u", jobnum);
		else if (k == 2)
			snprintf(val, sizeof(val), "%u", filenum);
		if (n + strlen(val) + 1 >= len)
			return -ENAMETOOLONG;
		memcpy(out + n, val, strlen(val));
		n += strlen(val);
		fmt += klen;
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

/*
 * The directory a composed name lives in, walked from @top without
 * following any symlink, made where missing (0700, as fio makes them);
 * *@base points at the last component.  Return: a directory fd or -errno.
 */
static int walk_dirs(int top, char *name, char **base, const char **why)
{
	int dfd = dup(top);
	char *p = name, *slash;

	if (dfd < 0)
		return -errno;
	while (*p == '/')
		p++;
	while ((slash = strchr(p, '/'))) {
		int nfd;

		*slash = '\0';
		if (!strcmp(p, "..")) {
			close(dfd);
			*why = "'..' in a file name the job composes";
			return -EINVAL;
		}
		if (*p && strcmp(p, ".")) {
			if (mkdirat(dfd, p, 0700) && errno != EEXIST) {
				nfd = -errno;
				close(dfd);
				*why = "making its directory";
				return nfd;
			}
			nfd = openat(dfd, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (nfd < 0) {
				nfd = errno == ENOTDIR || errno == ELOOP ? -ELOOP : -errno;
				close(dfd);
				*why = "a directory of its name is a symlink or not a directory";
				return nfd;
			}
			close(dfd);
			dfd = nfd;
		}
		*slash = '/';
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	if (!*p || !strcmp(p, ".") || !strcmp(p, "..")) {
		close(dfd);
		*why = "the composed name ends in a directory";
		return -EINVAL;
	}
	*base = p;
	return dfd;
}

struct fs_ctx {
	struct run_state *st;
	struct bq_job_result *jr;
	struct job_state *js;
	struct bq_parse_error *err;
	uint64_t laid_out;
	int nr_laid_out;
};

/* The guard's word on an existing file before the run replaces or removes it. */
static int judge(struct fs_ctx *c, int pfd, const char *path, const char *what)
{
	struct bq_guard_report rep;
	char why[200];
	int gfd;

	gfd = bq_guard_open_fd(c->st->ctx, pfd, 0, c->st->opts->guard, &rep);
	if (gfd == -EBUSY) {
		bq_guard_explain(path, &rep, why, sizeof(why));
		return bq_fail_at(c->err, path, -EBUSY, "refusing to %s: %s", what, why);
	}
	if (gfd < 0)
		return bq_fail_at(c->err, path, gfd, "%s", strerror(-gfd));
	close(gfd);
	return 0;
}

/*
 * One file of the set: resolved below @dfd, replaced and laid out where
 * fio would, then held like any target.  @need is where the job's region
 * in it ends; @idx its place among the job's targets.
 */
static int open_one(struct fs_ctx *c, int dfd, const char *base, const char *path,
		    uint64_t need, int idx)
{
	const struct bq_job *j = &c->jr->job;
	bool writes = bq_job_writes(j), reads = !writes || j->rw == BQ_RW_RW ||
		      j->rw == BQ_RW_RANDRW, exists, created = false;
	/* fio neither unlinks nor refills a file a write job appends to. */
	bool append = j->file_append && !reads;
	struct stat lst, pst;
	int pfd = -1, fd, h, ret;

	exists = !fstatat(dfd, base, &lst, AT_SYMLINK_NOFOLLOW);
	if (!exists && errno != ENOENT)
		return bq_fail_at(c->err, path, -errno, "%s", strerror(errno));
	if (exists && S_ISLNK(lst.st_mode))
		return bq_fail_at(c->err, path, -EBUSY, "refusing to use it: a symlink where the "
				  "job's own file should be (blkqual never follows one there)");
	if (exists && !S_ISREG(lst.st_mode))
		return bq_fail_at(c->err, path, -EBUSY, "refusing to use it: %s where the job's "
				  "own regular file should be",
				  S_ISBLK(lst.st_mode) ? "a block device" :
				  S_ISDIR(lst.st_mode) ? "a directory" : "not a regular file");
	if (exists) {
		pfd = openat(dfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (pfd < 0 || fstat(pfd, &pst) || !bq_same_object(&pst, &lst) ||
		    !S_ISREG(pst.st_mode)) {
			if (pfd >= 0)
				close(pfd);
			return bq_fail_at(c->err, path, -EBUSY, "refusing to use it: it changed "
					  "while being opened");
		}
	}
	/* fio lays a file out when it is shorter than the job's region, unless create_on_open. */
	if ((!exists || (uint64_t)lst.st_size < need) && !j->create_on_open && !(exists && append)) {
		bool layout = reads || j->overwrite;

		if (!exists && !j->allow_file_create)
			return bq_fail_at(c->err, path, -ENOENT, "no such file, and "
					  "allow_file_create=0");
		ret = bq_target_read_only(c->st->opts->guard, c->err, path, exists ?
					  "lay it out (shorter than the job's region)" :
					  "create and lay it out (no such file)");
		if (ret)
			return ret;
		if (exists) {
			/* fio unlinks it and starts over; the guard decides first. */
			ret = judge(c, pfd, path, "replace it");
			close(pfd);
			pfd = -1;
			if (ret)
				return ret;
			if (fstatat(dfd, base, &pst, AT_SYMLINK_NOFOLLOW) ||
			    !bq_same_object(&pst, &lst) || unlinkat(dfd, base, 0))
				return bq_fail_at(c->err, path, -EBUSY, "refusing to replace it: it "
						  "changed while being judged");
		}
		fd = openat(dfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return bq_fail_at(c->err, path, errno == EEXIST ? -EBUSY : -errno,
					  errno == EEXIST ? "refusing to use it: something appeared "
					  "under its name while it was being made" : "%s",
					  strerror(errno));
		created = true;
		ret = bq_layout_reserve(j, fd, need);
		if (!ret && layout && ftruncate(fd, (off_t)need))
			ret = -errno;
		if (!ret && layout)
			ret = bq_layout_fill(j, fd, need);
		if (!ret && j->create_fsync && fsync(fd))
			ret = -errno;
		if (ret) {
			close(fd);
			return bq_fail_at(c->err, path, ret, "laying it out (%llu bytes): %s",
					  (unsigned long long)need, strerror(-ret));
		}
		if (layout) {
			c->laid_out += need;
			c->nr_laid_out++;
		}
		pfd = fd;
	} else if (!exists) {
		/* create_on_open: made empty now, as the job's open would make it. */
		if (!j->allow_file_create)
			return bq_fail_at(c->err, path, -ENOENT, "no such file, and "
					  "allow_file_create=0");
		ret = bq_target_read_only(c->st->opts->guard, c->err, path,
					  "create it (no such file)");
		if (ret)
			return ret;
		pfd = openat(dfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (pfd < 0)
			return bq_fail_at(c->err, path, errno == EEXIST ? -EBUSY : -errno,
					  "%s", strerror(errno));
		created = true;
	}
	h = bq_target_open_at(c->st->ctx, j, pfd, path, created, c->st->opts->guard,
			      &c->st->held, &c->jr->targets[idx], &c->js->fds[idx], c->err);
	if (h < 0)
		return h;
	/* file_append: the file stays; its new end is reserved through the judged descriptor. */
	if (exists && append && (uint64_t)lst.st_size < need) {
		ret = bq_layout_reserve(j, c->js->fds[idx], need);
		if (ret)
			return bq_fail_at(c->err, path, ret, "reserving %llu bytes: %s",
					  (unsigned long long)need, strerror(-ret));
	}
	c->jr->targets[idx].laid_out = created;
	/* unlink=1 on a file the job only reads: the guard judges the removal up front. */
	if (j->unlink && !c->st->held.guarded[h])
		return judge(c, c->st->held.fd[h], path, "unlink it after the job");
	return 0;
}

/* fio's file size draw for filesize=LOW-HIGH, whole minimum blocks. */
static uint64_t draw_size(const struct bq_job *j, struct bq_offgen *rng, uint32_t bs)
{
	uint64_t r = j->filesize_lo + (uint64_t)(((unsigned __int128)bq_rand_next(rng) *
				 (j->filesize_hi - j->filesize_lo + 1)) >> 64);

	if (r > j->filesize_hi)
		r = j->filesize_hi;
	return r - r % bs;
}

static uint32_t min_bs(const struct bq_job *j)
{
	uint32_t lo = UINT32_MAX;

	for (int d = 0; d < BQ_NR_DIRS; d++) {
		uint32_t a = j->bs_min[d] ? j->bs_min[d] : j->bs[d];

		for (int i = 0; i < j->nr_bssplit[d]; i++)
			if (j->bssplit[d][i].bs < a)
				a = j->bssplit[d][i].bs;
		if (a < lo)
			lo = a;
	}
	return lo;
}

/*
 * The sizes fio gives one clone's files (filesetup.c's rules): filesize=
 * where the file is not already within it, else size= split evenly with
 * the remainder in whole blocks to the first files, else what is there.
 */
static int plan_sizes(const struct bq_job *j, const uint64_t *real, const uint64_t *off, int n,
		      uint32_t bs, struct bq_offgen *rng, uint64_t *span, uint64_t *bytes)
{
	uint64_t fs = 0, extra = 0, total = 0;

	if (!j->filesize_lo && n) {
		fs = j->size / (uint64_t)n;
		extra = (j->size - fs * (uint64_t)n) / bs;
	}
	for (int i = 0; i < n; i++) {
		uint64_t s;

		if (!j->filesize_lo) {
			s = fs;
			if (extra) {
				extra--;
				s += bs;
			}
			if (!s)
				s = real[i] > off[i] ? real[i] - off[i] : 0;
		} else if (real[i] < j->filesize_lo || real[i] > j->filesize_hi) {
			if (off[i] > j->filesize_lo)
				return -ERANGE;
			s = (j->filesize_lo == j->filesize_hi ? j->filesize_lo :
			     draw_size(j, rng, bs)) - off[i];
		} else {
			if (off[i] > real[i])
				return -ERANGE;
			s = real[i] - off[i];
		}
		span[i] = s;
		total += s;
	}
	*bytes = j->size && j->size < total ? j->size : total;
	return 0;
}

/*
 * fio names the job's one file after the job itself when that name is
 * already something other than a regular file (a "[/dev/sdb]" section).
 */
static bool jobname_is_target(const struct bq_job *j)
{
	struct stat lst;

	return j->nrfiles == 1 && !lstat(j->name, &lst) && !S_ISREG(lst.st_mode);
}

static int alloc_set(struct bq_fileset **out, unsigned int threads)
{
	struct bq_fileset *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->first = calloc(threads, sizeof(*fs->first));
	fs->count = calloc(threads, sizeof(*fs->count));
	fs->bytes = calloc(threads, sizeof(*fs->bytes));
	for (int i = 0; i < BQ_MAX_FILES; i++)
		fs->dirfd[i] = -1;
	*out = fs;
	if (!fs->first || !fs->count || !fs->bytes)
		return -ENOMEM;
	return 0;
}

/* Every numjobs clone uses the one target the job is named after. */
static int open_jobname(struct fs_ctx *c, struct bq_fileset *fs)
{
	const struct bq_job *j = &c->jr->job;
	char path[PATH_MAX];
	int ret;

	ret = snprintf(path, sizeof(path), "%s", j->name);
	if (j->directory[0]) {
		char dir[PATH_MAX];

		ret = dir_entry(j->directory, 0, dir, sizeof(dir));
		if (ret)
			return bq_fail_at(c->err, "directory", -EINVAL, "no directory in '%s'",
					  j->directory);
		ret = snprintf(path, sizeof(path), "%s/%s", dir, j->name);
	}
	if (ret < 0 || (size_t)ret >= sizeof(path))
		return bq_fail_at(c->err, j->name, -ENAMETOOLONG, "name too long");
	ret = bq_target_open(c->st->ctx, j, path, c->st->opts->guard, &c->st->held,
			     &c->jr->targets[0], &c->js->fds[0], c->err);
	if (ret)
		return ret;
	c->jr->nr_targets = 1;
	fs->nr = 1;
	fs->off[0] = j->offset;
	fs->span[0] = j->size ? j->size : c->jr->targets[0].size > j->offset ?
		      c->jr->targets[0].size - j->offset : 0;
	for (unsigned int t = 0; t < j->numjobs; t++) {
		fs->count[t] = 1;
		fs->bytes[t] = fs->span[0];
	}
	return 0;
}

static int open_dir(struct fs_ctx *c, unsigned int clone, char *composed, size_t len)
{
	const struct bq_job *j = &c->jr->job;
	char dir[PATH_MAX];
	struct stat lst;
	int dfd;

	if (!j->directory[0])
		return open(composed[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_entry(j->directory, clone, dir, sizeof(dir)))
		return bq_fail_at(c->err, "directory", -EINVAL, "no directory in '%s'",
				  j->directory);
	/* fio looks with lstat(): a symlink is not a directory to it either. */
	if (lstat(dir, &lst) || !S_ISDIR(lst.st_mode))
		return bq_fail_at(c->err, "directory", -ENOTDIR, "%s is not a directory", dir);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return bq_fail_at(c->err, "directory", -errno, "%s: %s", dir, strerror(errno));
	if (strlen(dir) + 1 + strlen(composed) < len) {
		memmove(composed + strlen(dir) + 1, composed, strlen(composed) + 1);
		memcpy(composed, dir, strlen(dir));
		composed[strlen(dir)] = '/';
	}
	return dfd;
}

/**
 * bq_fileset_open() - make, lay out and open a job's implicit files
 * @st: the run
 * @jr: the job, which has no filename=
 * @js: receives the descriptors and the file set
 * @err: why not
 *
 * Clone t of numjobs gets files t*nrfiles..; each is sized and laid out
 * as fio does (see plan_sizes() and open_one()).
 *
 * Return: 0 or -errno.
 */
int bq_fileset_open(struct run_state *st, struct bq_job_result *jr, struct job_state *js,
		    struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	struct fs_ctx c = { .st = st, .jr = jr, .js = js, .err = err };
	struct bq_offgen_params rp = { .nblocks = 1, .seed = j->randseed ^ 0x66696c65 };
	uint32_t bs = min_bs(j);
	struct bq_offgen rng;
	struct bq_fileset *fs;
	unsigned int nr_dirs;
	int ret;

	if (!j->randrepeat)
		rp.seed ^= bq_now_ns();
	bq_offgen_init(&rng, &rp);
	ret = alloc_set(&js->fset, j->numjobs);
	fs = js->fset;
	if (ret)
		return ret;
	jr->targets = calloc(BQ_MAX_FILES, sizeof(*jr->targets));
	if (!jr->targets)
		return -ENOMEM;
	if (jobname_is_target(j))
		return open_jobname(&c, fs);
	nr_dirs = count_dirs(j->directory);
	for (unsigned int t = 0; t < j->numjobs; t++) {
		char names[BQ_MAX_FILES][PATH_MAX / 4];
		uint64_t real[BQ_MAX_FILES];
		int n = (int)j->nrfiles;

		fs->first[t] = fs->nr;
		fs->count[t] = n;
		for (int f = 0; f < n; f++) {
			int i = fs->nr + f, dfd;
			const char *why = NULL;
			struct stat lst;
			char *base = NULL;

			ret = make_name(j, t, (unsigned int)f, names[f], sizeof(names[f]));
			if (!ret && strlen(names[f]) >= sizeof(fs->base[i]))
				ret = -ENAMETOOLONG;
			if (ret)
				return bq_fail_at(err, j->name, ret, "cannot compose file %d's name: %s",
						  f, strerror(-ret));
			/* The same path as an earlier clone's: fio gives this clone no files. */
			if (t >= nr_dirs && j->filename_format[0] &&
			    !strcasestr(j->filename_format, "$jobnum"))
				return bq_fail_at(err, names[f], -EOPNOTSUPP, "numjobs clones "
						  "share this file (filename_format without $jobnum): "
						  "fio leaves such a clone without files and idle, "
						  "blkqual does not run that");
			bq_strlcpy(fs->base[i], names[f], sizeof(fs->base[i]));
			dfd = open_dir(&c, t, names[f], sizeof(names[f]));
			if (dfd < 0)
				return err->msg[0] ? dfd : bq_fail_at(err, names[f], dfd, "%s",
								       strerror(-dfd));
			fs->dirfd[i] = walk_dirs(dfd, fs->base[i], &base, &why);
			close(dfd);
			if (fs->dirfd[i] < 0) {
				ret = fs->dirfd[i];
				fs->dirfd[i] = -1;
				return bq_fail_at(err, names[f], ret == -ELOOP ? -EBUSY : ret,
						  "%s", why);
			}
			memmove(fs->base[i], base, strlen(base) + 1);
			real[f] = !fstatat(fs->dirfd[i], fs->base[i], &lst, AT_SYMLINK_NOFOLLOW) &&
				  S_ISREG(lst.st_mode) ? (uint64_t)lst.st_size : 0;
			/* file_append: the region starts where the file ends, as fio's does. */
			fs->off[i] = j->file_append ? real[f] : j->offset;
		}
		ret = plan_sizes(j, real, &fs->off[fs->nr], n, bs, &rng, &fs->span[fs->nr],
				 &fs->bytes[t]);
		if (ret)
			return bq_fail_at(err, "offset", -EINVAL, "offset is past filesize");
		if (!fs->bytes[t])
			return bq_fail_at(err, j->name, -EINVAL, "you need to specify size= (or "
					  "filesize=): the files do not exist yet");
		for (int f = 0; f < n; f++) {
			int i = fs->nr;

			if (fs->span[i] < bs)
				return bq_fail_at(err, names[f], -EINVAL, "the block size %u is "
						  "larger than the file's region (%llu bytes)", bs,
						  (unsigned long long)fs->span[i]);
			ret = open_one(&c, fs->dirfd[i], fs->base[i], names[f],
				       fs->off[i] + fs->span[i], i);
			if (ret)
				return ret;
			fs->nr++;
			jr->nr_targets = fs->nr;
		}
	}
	if (c.nr_laid_out)
		run_job_note(jr, "laid out %d file%s, %llu MiB in all, before the run",
			     c.nr_laid_out, c.nr_laid_out > 1 ? "s" : "",
			     (unsigned long long)(c.laid_out >> 20));
	return 0;
}

/**
 * bq_fileset_regions() - where a filename= job's region of each of its
 * files starts and how long it is, as fio shares size= over them
 * @j: the job, with filename=
 * @off: per file, where its region starts
 * @span: per file, its bytes
 * @bytes: the bytes a thread moves over all of them
 *
 * Sizes are read from the names now; nothing is opened.
 *
 * Return: 1 when the files' regions are fio's shares, 0 when the plain
 * rules hold (one file without filesize=, size=N%, --stripe: @off and
 * @span are then offset= and size=), -ERANGE when offset= is past
 * filesize=.
 */
int bq_fileset_regions(const struct bq_job *j, uint64_t *off, uint64_t *span, uint64_t *bytes)
{
	struct bq_offgen_params rp = { .nblocks = 1, .seed = j->randseed ^ 0x66696c65 };
	uint64_t real[BQ_MAX_FILES];
	struct bq_offgen rng;

	if (j->stripe || j->size_pct ||
	    (!j->filesize_lo && !j->file_append && (j->nr_files == 1 || !j->size))) {
		for (int i = 0; i < j->nr_files; i++) {
			off[i] = j->offset;
			span[i] = j->size_pct ? 0 : j->size;
		}
		*bytes = j->size;
		return 0;
	}
	if (!j->randrepeat)
		rp.seed ^= bq_now_ns();
	bq_offgen_init(&rng, &rp);
	for (int i = 0; i < j->nr_files; i++) {
		struct stat sb;

		/* Only sizes are read here; the target is opened (and judged) once, later. */
		real[i] = !stat(j->filenames[i], &sb) && S_ISREG(sb.st_mode) ?
			  (uint64_t)sb.st_size : 0;
		/* file_append is for regular files; a device keeps offset=. */
		off[i] = j->file_append && S_ISREG(sb.st_mode) ? real[i] : j->offset;
	}
	return plan_sizes(j, real, off, j->nr_files, min_bs(j), &rng, span, bytes) ?: 1;
}

/**
 * bq_fileset_plan() - the targets of a job with filename=, and how size=
 * is shared among them
 * @st: the run
 * @jr: the job
 * @js: receives a file set when the files' regions are fio's shares
 * @err: why not
 *
 * fio splits size= over a job's files (the first ones a block more when
 * it does not divide), and filesize= sizes each file that is not already
 * within it; numjobs clones all use the same named files.  One file with
 * neither, or size=N%, or --stripe, keeps the plain rules: no file set.
 *
 * Return: 0 or -errno.
 */
int bq_fileset_plan(struct run_state *st, struct bq_job_result *jr, struct job_state *js,
		    struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	uint64_t off[BQ_MAX_FILES], span[BQ_MAX_FILES], bytes;
	int ret;

	jr->targets = calloc((size_t)j->nr_files, sizeof(*jr->targets));
	if (!jr->targets)
		return -ENOMEM;
	ret = bq_fileset_regions(j, off, span, &bytes);
	if (ret == -ERANGE)
		return bq_fail_at(err, "offset", -EINVAL, "offset is past filesize");
	if (ret <= 0)
		return ret;
	ret = alloc_set(&js->fset, j->numjobs);
	if (ret)
		return ret;
	memcpy(js->fset->off, off, sizeof(off));
	memcpy(js->fset->span, span, sizeof(span));
	js->fset->bytes[0] = bytes;
	js->fset->nr = j->nr_files;
	for (unsigned int t = 0; t < j->numjobs; t++) {
		js->fset->count[t] = j->nr_files;
		js->fset->bytes[t] = js->fset->bytes[0];
	}
	for (int i = 0; i < j->nr_files; i++)
		if (!js->fset->span[i])
			return bq_fail_at(err, j->filenames[i], -EINVAL, "no bytes of it to do: "
					  "give size= or filesize=");
	return 0;
}

/**
 * bq_fileset_judge_unlink() - unlink=1 removes target @i after the job:
 * the guard judges that now, unless it judged the target for writing
 * @st: the run
 * @jr: the job, target @i open
 * @i: the target
 * @err: why not
 *
 * Return: 0, -EBUSY when the guard refuses, or -errno.
 */
int bq_fileset_judge_unlink(struct run_state *st, struct bq_job_result *jr, int i,
			    struct bq_parse_error *err)
{
	struct fs_ctx c = { .st = st, .jr = jr, .err = err };
	const struct bq_target_info *ti = &jr->targets[i];

	if (!jr->job.unlink || !S_ISREG(ti->st.st_mode))
		return 0;
	for (int h = 0; h < st->held.nr; h++)
		if (bq_same_object(&st->held.st[h], &ti->st))
			return st->held.guarded[h] ? 0 :
			       judge(&c, st->held.fd[h], ti->path, "unlink it after the job");
	return 0;
}

/**
 * bq_fileset_pre_read() - pre_read=1: read a region into the page cache
 * @fd: the target (any flags: read through a buffered reopen)
 * @off: where the job's region starts
 * @len: its bytes
 *
 * Return: 0 or -errno.
 */
int bq_fileset_pre_read(int fd, uint64_t off, uint64_t len)
{
	size_t chunk = 1 << 20;
	int rfd, ret = 0;
	char *buf;

	rfd = bq_fd_reopen(fd, O_RDONLY);
	if (rfd < 0)
		return rfd;
	buf = malloc(chunk);
	if (!buf) {
		close(rfd);
		return -ENOMEM;
	}
	while (len) {
		size_t n = len < chunk ? (size_t)len : chunk;
		ssize_t r = pread(rfd, buf, n, (off_t)off);

		if (r <= 0) {
			ret = r < 0 ? -errno : 0;
			break;
		}
		off += (uint64_t)r;
		len -= (uint64_t)r;
	}
	free(buf);
	close(rfd);
	return ret;
}

/* Remove @base below @dfd if it is still the regular file @st the run held. */
static void unlink_below(int dfd, const char *base, const struct stat *st)
{
	struct stat now;

	if (!fstatat(dfd, base, &now, AT_SYMLINK_NOFOLLOW) && S_ISREG(now.st_mode) &&
	    bq_same_object(&now, st))
		unlinkat(dfd, base, 0);
}

/**
 * bq_fileset_end() - after a job: unlink=1, and the file set's resources
 * @jr: the job
 * @js: its state
 * @unlink_files: whether the job got as far as its I/O
 *
 * Only regular files are removed, and only while their name is still the
 * object the run held (never a symlink put there since).
 */
void bq_fileset_end(struct bq_job_result *jr, struct job_state *js, bool unlink_files)
{
	struct bq_fileset *fs = js->fset;

	for (int i = 0; unlink_files && jr->job.unlink && i < jr->nr_targets; i++) {
		const struct bq_target_info *ti = &jr->targets[i];
		char dir[PATH_MAX], *slash;
		int dfd;

		if (!S_ISREG(ti->st.st_mode))
			continue;
		if (fs && fs->dirfd[i] >= 0) {
			unlink_below(fs->dirfd[i], fs->base[i], &ti->st);
			continue;
		}
		/* A name the user gave: its directory is theirs, its last part is not followed. */
		bq_strlcpy(dir, ti->path, sizeof(dir));
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		dfd = open(slash ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			continue;
		unlink_below(dfd, slash ? strrchr(ti->path, '/') + 1 : ti->path, &ti->st);
		close(dfd);
	}
	bq_fileset_free(fs);
	js->fset = NULL;
}

/**
 * bq_fileset_free() - free a file set
 * @fs: the set, or NULL
 */
void bq_fileset_free(struct bq_fileset *fs)
{
	if (!fs)
		return;
	for (int i = 0; i < BQ_MAX_FILES; i++)
		if (fs->dirfd[i] >= 0)
			close(fs->dirfd[i]);
	free(fs->first);
	free(fs->count);
	free(fs->bytes);
	free(fs);
}
