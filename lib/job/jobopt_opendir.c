// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_opendir.c - fio's opendir=DIR: every regular file below DIR,
 * walked recursively when the job is finished, joins the job's files
 * after those filename= names, as in fio
 *
 * As fio, the walk takes regular files and descends into directories; a
 * symlink, a device node or anything else below DIR is passed over.  The
 * user named DIR; the names below it are found here, so no symlink among
 * them is followed: each directory is opened with O_NOFOLLOW below its
 * parent's descriptor, each entry looked at with AT_SYMLINK_NOFOLLOW, and
 * the run opens each file again beneath DIR only (lib/io/run.c), so a
 * link or a device planted there since is refused, never used.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_opendir.h"

/**
 * bq_opt_set_opendir() - opendir=DIR, walked when the job is finished
 * @o: the table entry
 * @key: "opendir"
 * @val: the directory
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_opt_set_opendir(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	size_t len = strlen(val);

	(void)o;
	/* "dir/" and "dir" name the same tree; the run finds files by what follows. */
	while (len > 1 && val[len - 1] == '/')
		len--;
	if (!len || len >= sizeof(job->opendir))
		return bq_parse_fail(err, -EINVAL, "%s=%s: a directory name of 1 to %zu "
				     "characters", key, val, sizeof(job->opendir) - 1);
	memcpy(job->opendir, val, len);
	job->opendir[len] = '\0';
	return 0;
}

struct walk {
	struct bq_job *job;
	struct bq_parse_error *err;
	char path[4096];	/* DIR/sub/..., the name the file is added under */
};

static int add_file(struct walk *wk, size_t len)
{
	struct bq_job *j = wk->job;

	if (j->nr_files == BQ_MAX_FILES)
		return bq_parse_fail(wk->err, -EINVAL, "opendir=%s: more than %d files in the "
				     "job", j->opendir, BQ_MAX_FILES);
	j->filenames[j->nr_files] = strndup(wk->path, len);
	if (!j->filenames[j->nr_files])
		return -ENOMEM;
	j->nr_files++;
	j->nr_opendir_files++;
	return 0;
}

/* The entries of the directory open at @dfd, whose name is @wk->path[0..@len). */
static int walk_dir(struct walk *wk, int dfd, size_t len)
{
	struct dirent *de;
	DIR *d = fdopendir(dfd);
	int ret = 0;

	if (!d) {
		close(dfd);
		return bq_parse_fail(wk->err, -errno, "opendir=%s: %.*s: %s", wk->job->opendir,
				     (int)len, wk->path, strerror(errno));
	}
	/* readdir's order, as fio's: the same directory lists its files the same way. */
	while (!ret && (errno = 0, de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct stat st;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (len + 1 + n >= sizeof(wk->path)) {
			ret = bq_parse_fail(wk->err, -ENAMETOOLONG, "opendir=%s: a name below "
					    "it is too long", wk->job->opendir);
			break;
		}
		wk->path[len] = '/';
		memcpy(wk->path + len + 1, de->d_name, n + 1);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			/* Gone since it was listed: fio passes over it too. */
			if (errno == ENOENT)
				continue;
			ret = bq_parse_fail(wk->err, -errno, "opendir=%s: %s: %s",
					    wk->job->opendir, wk->path, strerror(errno));
			break;
		}
		if (S_ISREG(st.st_mode)) {
			ret = add_file(wk, len + 1 + n);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			ret = bq_parse_fail(wk->err, -errno, "opendir=%s: %s: %s",
					    wk->job->opendir, wk->path, strerror(errno));
			break;
		}
		ret = walk_dir(wk, sub, len + 1 + n);
	}
	if (!ret && errno && !de)
		ret = bq_parse_fail(wk->err, -errno, "opendir=%s: reading %.*s: %s",
				    wk->job->opendir, (int)len, wk->path, strerror(errno));
	closedir(d);
	return ret;
}

/**
 * bq_opendir_job_finish() - add the files below opendir= to a finished job
 * @job: the job; nothing is done without opendir=, or when its files are
 *       in already (a job finished twice)
 * @err: filled in on failure
 *
 * Return: 0, or -errno (the job's files are then as they were).
 */
int bq_opendir_job_finish(struct bq_job *job, struct bq_parse_error *err)
{
	struct walk wk = { .job = job, .err = err };
	int before = job->nr_files, dfd, ret;

	if (!job->opendir[0] || job->nr_opendir_files)
		return 0;
	/* fio would put directory= in front of each file's whole name. */
	if (job->directory[0])
		return bq_parse_fail(err, -EOPNOTSUPP, "opendir= with directory= is not "
				     "supported");
	dfd = open(job->opendir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return bq_parse_fail(err, -errno, "opendir=%s: %s", job->opendir, strerror(errno));
	bq_strlcpy(wk.path, job->opendir, sizeof(wk.path));
	ret = walk_dir(&wk, dfd, strlen(job->opendir));
	if (!ret && !job->nr_opendir_files)
		ret = bq_parse_fail(err, -ENOENT, "opendir=%s: no regular file below it",
				    job->opendir);
	if (ret) {
		while (job->nr_files > before)
			free(job->filenames[--job->nr_files]);
		job->nr_opendir_files = 0;
	}
	return ret;
}
