// SPDX-License-Identifier: GPL-2.0-only
/*
 * layout.c - the regular files a job names (filename=) laid out before it
 * runs, by fio's rules (its setup_files() and extend_file()):
 *
 * - A file is laid out when it is missing or shorter than where the
 *   job's region of it ends (the last numjobs clone's, with
 *   offset_increment); never with create_on_open=1, never a device.
 * - A job that reads, or writes with overwrite=1, replaces such a file
 *   by a new one filled with data to that length; a job that only writes
 *   replaces it by a new one that is only reserved (fallocate=), for its
 *   writes to fill; with file_append the file is kept and reserved.
 * - With create_serialize=1 (the default) every job's files are laid out
 *   in the jobs' order before the first job starts, whatever stonewall
 *   and wait_for say; a file several jobs share is laid out by the first
 *   of them it is too short for, and the next ones find it long enough.
 *   With create_serialize=0 a job lays its files out when its phase
 *   starts.
 * - What the layout writes is not the job's I/O and is not counted.
 *
 * Writing goes through the data-safety guard: a file made here (O_EXCL,
 * O_NOFOLLOW) is nobody's; an existing one is judged by the guard on the
 * descriptor that is then unlinked or written, and a symlink is never
 * replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileset.h"
#include "guard/guard_int.h"
#include "internal.h"
#include "layout.h"
#include "run_int.h"

/**
 * bq_layout_reserve() - fallocate=: reserve @len bytes of a file being laid out
 * @j: the job
 * @fd: the file, open for writing
 * @len: its new length
 *
 * native falls back to nothing where the filesystem cannot, as fio's does.
 *
 * Return: 0 or -errno.
 */
int bq_layout_reserve(const struct bq_job *j, int fd, uint64_t len)
{
	int ret = 0;

	switch (j->fallocate) {
	case BQ_FALLOC_NATIVE:
		if (fallocate(fd, 0, 0, (off_t)len) && errno != EOPNOTSUPP)
			ret = -errno;
		break;
	case BQ_FALLOC_POSIX:
		ret = -posix_fallocate(fd, 0, (off_t)len);
		break;
	case BQ_FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)len))
			ret = -errno;
		break;
	case BQ_FALLOC_TRUNCATE:
		if (ftruncate(fd, (off_t)len))
			ret = -errno;
		break;
	default:
		break;
	}
	return ret;
}

/* The largest write block the job has: fio lays files out in writes of that size. */
static uint32_t max_write_bs(const struct bq_job *j)
{
	uint32_t b = j->bs_max[BQ_WRITE] ? j->bs_max[BQ_WRITE] : j->bs[BQ_WRITE];

	for (int i = 0; i < j->nr_bssplit[BQ_WRITE]; i++)
		if (j->bssplit[BQ_WRITE][i].bs > b)
			b = j->bssplit[BQ_WRITE][i].bs;
	return b ? b : 4096;
}

/* A layout write's contents: the job's zero_buffers or buffer_pattern, else random. */
static void fill_buf(const struct bq_job *j, uint8_t *buf, size_t n, struct bq_offgen *rng)
{
	if (j->zero_buffers) {
		memset(buf, 0, n);
	} else if (j->buffer_pattern_len) {
		for (size_t i = 0; i < n; i++)
			buf[i] = j->buffer_pattern[i % j->buffer_pattern_len];
	} else {
		for (size_t i = 0; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
			uint64_t r = bq_rand_next(rng);

			memcpy(buf + i, &r, sizeof(r));
		}
	}
}

/**
 * bq_layout_fill() - write [0, @len) of a file being laid out
 * @j: the job, whose largest write block is the size of each write
 * @fd: the file, open for writing
 * @len: bytes
 *
 * Whole blocks, the last one what is left, as fio's layout writes them.
 *
 * Return: 0 or -errno.
 */
int bq_layout_fill(const struct bq_job *j, int fd, uint64_t len)
{
	struct bq_offgen_params p = { .nblocks = 1, .seed = j->randseed ^ 0x6c6179 };
	size_t bs = max_write_bs(j);
	struct bq_offgen rng;
	uint64_t done = 0;
	uint8_t *buf;
	int ret = 0;

	buf = malloc(bs);
	if (!buf)
		return -ENOMEM;
	bq_offgen_init(&rng, &p);
	while (done < len) {
		size_t n = len - done < bs ? (size_t)(len - done) : bs;
		ssize_t w;

		fill_buf(j, buf, n, &rng);
		w = pwrite(fd, buf, n, (off_t)done);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		done += (uint64_t)w;
	}
	free(buf);
	return ret;
}

/* The directory of a user's name, and its last part. */
static int open_parent(const char *path, const char **base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*base = path;
		return open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	*base = slash + 1;
	return open(slash == path ? "/" : dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/*
 * The directory of a file opendir= found (lib/job/jobopt_opendir.c):
 * beneath opendir's directory only, no symlink followed, so a directory
 * swapped for a link since the walk leads nowhere.  -ENOENT: not such a
 * file (the user's own name: open_parent()).
 */
static int open_found_parent(const struct bq_job *j, const char *path, const char **base)
{
	size_t len = strlen(j->opendir);
	char rel[PATH_MAX];
	const char *slash;
	int root, dfd, e;

	if (!j->nr_opendir_files || strncmp(path, j->opendir, len) || path[len] != '/')
		return -ENOENT;
	slash = strrchr(path + len + 1, '/');
	*base = slash ? slash + 1 : path + len + 1;
	root = open(j->opendir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || !slash)
		return root < 0 ? -errno : root;
	if ((size_t)(slash - (path + len + 1)) >= sizeof(rel)) {
		close(root);
		return -ENAMETOOLONG;
	}
	memcpy(rel, path + len + 1, (size_t)(slash - (path + len + 1)));
	rel[slash - (path + len + 1)] = '\0';
	dfd = bq_openat_beneath(root, rel, O_PATH | O_DIRECTORY, 0);
	e = errno;
	close(root);
	return dfd < 0 ? -e : dfd;
}

/*
 * The existing file @base below @dfd, judged by the guard before the
 * layout unlinks or extends it.  Return: the guard's descriptor or -errno.
 */
static int judge_existing(struct bq_ctx *ctx, int dfd, const char *base, const char *path,
			  const struct stat *lst, const struct bq_guard_opts *gopts,
			  struct bq_parse_error *err)
{
	struct bq_guard_report rep;
	char why[200];
	struct stat pst;
	int pfd, gfd;

	pfd = openat(dfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &pst) || !bq_same_object(&pst, lst) || !S_ISREG(pst.st_mode)) {
		if (pfd >= 0)
			close(pfd);
		return bq_fail_at(err, path, -EBUSY, "refusing to lay it out: it changed while "
				  "being opened");
	}
	gfd = bq_guard_open_fd(ctx, pfd, 0, gopts, &rep);
	close(pfd);
	if (gfd == -EBUSY) {
		bq_guard_explain(path, &rep, why, sizeof(why));
		return bq_fail_at(err, path, -EBUSY, "refusing to lay it out: %s", why);
	}
	if (gfd < 0)
		return bq_fail_at(err, path, gfd, "%s", strerror(-gfd));
	return gfd;
}

/* What fio's extend_file() does to one file that is missing or short of @need. */
static int lay_out_file(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
			uint64_t need, const struct bq_guard_opts *gopts,
			struct bq_layout_tally *t, struct bq_parse_error *err)
{
	bool writes = bq_job_writes(j) && j->trim != BQ_TRIM_ONLY;
	bool reads = !bq_job_writes(j) || j->rw == BQ_RW_RW || j->rw == BQ_RW_RANDRW;
	bool new_layout = reads || (writes && j->overwrite && !j->file_append);
	bool replace = new_layout || (writes && !j->overwrite && !j->file_append);
	const char *base;
	struct stat lst, st;
	bool exists;
	int dfd, fd = -1, ret;

	exists = !lstat(path, &lst);
	if (!exists && errno != ENOENT)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	if (exists && S_ISLNK(lst.st_mode)) {
		if (stat(path, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size >= need)
			return 0;
		return bq_fail_at(err, path, -EBUSY, "refusing to lay it out: a symlink to a file "
				  "shorter than the job's region (%llu bytes); fio would replace "
				  "the link by a new file, blkqual never replaces a symlink",
				  (unsigned long long)need);
	}
	if (exists && (!S_ISREG(lst.st_mode) || (uint64_t)lst.st_size >= need))
		return 0;
	if (j->create_on_open)
		return 0;
	if (!exists && !j->allow_file_create)
		return bq_fail_at(err, path, -ENOENT, "no such file, and allow_file_create=0");
	ret = bq_target_read_only(gopts, err, path, exists ? "lay it out (shorter than the "
				  "job's region)" : "create and lay it out (no such file)");
	if (ret)
		return ret;
	dfd = open_found_parent(j, path, &base);
	if (dfd == -ENOENT)
		dfd = open_parent(path, &base);
	if (dfd < 0)
		return bq_fail_at(err, path, dfd == -1 ? -errno : dfd, "its directory: %s",
				  strerror(dfd == -1 ? errno : -dfd));
	if (exists) {
		int gfd = judge_existing(ctx, dfd, base, path, &lst, gopts, err);

		if (gfd < 0) {
			close(dfd);
			return gfd;
		}
		if (replace) {
			/* fio unlinks it and starts again with a new file. */
			if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) ||
			    !bq_same_object(&st, &lst) || unlinkat(dfd, base, 0)) {
				close(gfd);
				close(dfd);
				return bq_fail_at(err, path, -EBUSY, "refusing to replace it: it "
						  "changed while being judged");
			}
			exists = false;
		} else {
			fd = bq_fd_reopen(gfd, O_WRONLY);
		}
		close(gfd);
	}
	if (!exists) {
		fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		ret = fd;
		close(dfd);
		return bq_fail_at(err, path, ret == -EEXIST ? -EBUSY : ret, "%s",
				  ret == -EEXIST ? "refusing to lay it out: something appeared "
				  "under its name while it was being made" : strerror(-ret));
	}
	close(dfd);
	ret = bq_layout_reserve(j, fd, need);
	if (!ret && new_layout && ftruncate(fd, (off_t)need))
		ret = -errno;
	if (!ret && new_layout)
		ret = bq_layout_fill(j, fd, need);
	if (!ret && j->create_fsync && fsync(fd))
		ret = -errno;
	if (!ret && fstat(fd, &st))
		ret = -errno;
	if (ret) {
		close(fd);
		return bq_fail_at(err, path, ret, "laying it out (%llu bytes): %s",
				  (unsigned long long)need, strerror(-ret));
	}
	/* Reads of it must reach the device, not the pages the layout just wrote. */
	if (j->invalidate)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (t->files < BQ_MAX_FILES) {
		t->dev[t->files] = st.st_dev;
		t->ino[t->files] = st.st_ino;
	}
	t->files++;
	if (new_layout)
		t->filled += need;
	else
		t->reserved += need;
	return 0;
}

/* Where the job's regions of file @i end, over all its numjobs clones. */
static uint64_t region_end(const struct bq_job *j, const char *path, uint64_t off,
			   uint64_t span)
{
	struct stat st;
	uint64_t size = !stat(path, &st) && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	uint64_t end = 0;

	for (unsigned int c = 0; c < (j->numjobs ? j->numjobs : 1); c++) {
		uint64_t base = bq_pattern_base(j, size, (int)c, 1) - j->offset + off;

		if (base + span > end)
			end = base + span;
	}
	return end;
}

static bool pinned(const struct bq_run_opts *opts, const char *name)
{
	for (int i = 0; i < opts->nr_pinned; i++)
		if (opts->pinned[i].name && !strcmp(opts->pinned[i].name, name))
			return true;
	return false;
}

/* Whether fio's setup_files() would lay out this job's named files. */
static bool lays_out(const struct bq_job *j)
{
	return j->nr_files && !j->stripe && !j->read_iolog[0] &&
	       !bq_engine_has(j->engine, BQ_ENGINE_DISKLESS | BQ_ENGINE_PASSTHRU) &&
	       j->engine != BQ_ENGINE_SG;
}

/**
 * bq_layout_jobs() - lay out the named files of jobs [@a, @b) of @set
 * @ctx: context
 * @set: the run's jobs
 * @a: first job
 * @b: one past the last
 * @serialized: true: the jobs with create_serialize=1 (all of them, before
 *	the run's first phase); false: those with create_serialize=0 (a
 *	phase's, as it starts)
 * @opts: the run's options: guard overrides, and the targets its caller
 *	opened already (left alone: the caller's descriptor is the target)
 * @tally: per job of @set, what was done (added to)
 * @err: why not
 *
 * In the jobs' order, each one's files in theirs, as fio does; see the
 * comment at the top of this file for the rules.
 *
 * Return: 0 or -errno.
 */
int bq_layout_jobs(struct bq_ctx *ctx, const struct bq_jobset *set, size_t a, size_t b,
		   bool serialized, const struct bq_run_opts *opts,
		   struct bq_layout_tally *tally, struct bq_parse_error *err)
{
	for (size_t k = a; k < b; k++) {
		const struct bq_job *j = &set->jobs[k];
		uint64_t off[BQ_MAX_FILES], span[BQ_MAX_FILES], bytes;
		int ret;

		if (!lays_out(j) || j->create_serialize != serialized)
			continue;
		ret = bq_fileset_regions(j, off, span, &bytes);
		/* offset past filesize=: the job's own setup says so. */
		if (ret < 0)
			continue;
		for (int i = 0; i < j->nr_files; i++) {
			if (!span[i] || pinned(opts, j->filenames[i]))
				continue;
			ret = lay_out_file(ctx, j, j->filenames[i],
					   region_end(j, j->filenames[i], off[i], span[i]),
					   opts->guard, &tally[k], err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * bq_layout_mark() - a job's targets its layout made: marked, and a note
 * @t: what the layout did for the job
 * @jr: the job, its targets open
 */
void bq_layout_mark(const struct bq_layout_tally *t, struct bq_job_result *jr)
{
	if (!t->files)
		return;
	for (int i = 0; i < jr->nr_targets; i++)
		for (int f = 0; f < t->files && f < BQ_MAX_FILES; f++)
			if (jr->targets[i].st.st_dev == t->dev[f] &&
			    jr->targets[i].st.st_ino == t->ino[f])
				jr->targets[i].laid_out = true;
	run_job_note(jr, "laid out %d file%s before the run: %llu MiB written, %llu MiB "
		     "reserved (not counted as the job's I/O)", t->files, t->files > 1 ? "s" : "",
		     (unsigned long long)(t->filled >> 20),
		     (unsigned long long)(t->reserved >> 20));
}
