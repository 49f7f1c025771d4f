// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_ops.c - one line of a dbench loadfile: an operation becomes the
 * system calls a Samba server would make for it, and its errno the NT
 * status Samba would answer
 *
 * Paths are resolved relative to one directory descriptor with the *at()
 * calls.  What a client does with the status (compare, count, pace) is
 * replay.c's; here is only what the operation itself does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "replay_int.h"

#define LOCKS_MAX 16

/* SMB info levels SET_FILE_INFORMATION acts on differently (MS-CIFS, MS-FSCC) */
#define LEVEL_DISPOSITION_INFO		0x102
#define LEVEL_ALLOCATION_INFO		0x103
#define LEVEL_END_OF_FILE_INFO		0x104
#define LEVEL_FILE_DISPOSITION		1013
#define LEVEL_FILE_POSITION		1014
#define LEVEL_FILE_ALLOCATION		1019
#define LEVEL_FILE_END_OF_FILE		1020

/* ---- the operations ---------------------------------------------------------- */

static struct handle *handle_of(struct client *c, const struct bq_replay_op *op)
{
	struct handle *h;

	if (op->handle == BQ_REPLAY_NONE)
		return NULL;
	h = &c->h[op->handle];
	return h->fd >= 0 ? h : NULL;
}

void rp_handle_close(struct client *c, struct handle *h)
{
	if (h->delete_on_close) {
		const char *path = rp_client_path(c, h->path, c->path2);

		unlinkat(c->rp->rootfd, path, h->is_dir ? AT_REMOVEDIR : 0);
	}
	close(h->fd);
	h->fd = -1;
	h->nr_locks = 0;
	h->delete_on_close = false;
}

/*
 * dbench's look at every name before its operation (a stat(), and a scan
 * of the directory when it is missing); --lean leaves it out.
 */
static void look_up(struct client *c, char *path)
{
	bool changed;

	if (!c->rp->o->lean)
		rp_resolve_name(c, path, &changed);
}

/* Before a create: the look dbench makes, or only the one a server needs. */
static void look_up_create(struct client *c, char *path)
{
	if (c->rp->o->lean)
		rp_case_before_create(c, path);
	else
		look_up(c, path);
}

/* dbench looks at what it opened (is it a directory?); --lean does not. */
static void look_at_opened(struct client *c, int fd)
{
	struct stat st;

	if (!c->rp->o->lean)
		fstat(fd, &st);
}

static bool is_shared(const struct client *c, uint32_t idx)
{
	return c->rp->lf->paths[idx].client_at < 0;
}

static uint32_t do_mkdir(struct client *c, uint32_t idx, char *path, bool exist_ok)
{
	int err;

	for (;;) {
		if (!mkdirat(c->rp->rootfd, path, 0777)) {
			rp_sync_parent(c, path);
			return BQ_NT_STATUS_OK;
		}
		err = errno;
		/*
		 * A directory outside every client's subtree (\clients) is
		 * made by whichever client comes first, and again on each
		 * pass through the file: that it is there is success.
		 */
		if (err == EEXIST && (exist_ok || is_shared(c, idx)))
			return BQ_NT_STATUS_OK;
		if (!rp_retry_case(c, err, path))
			return rp_status_of(c, err, path);
	}
}

static uint32_t op_mkdir(struct client *c, const struct bq_replay_op *op)
{
	char *path = rp_op_path(c, op->path, c->path);

	look_up_create(c, path);
	return do_mkdir(c, op->path, path, false);
}

static uint32_t op_ntcreatex(struct client *c, const struct bq_replay_op *op, int *fdp,
			     bool *is_dir)
{
	char *path = rp_op_path(c, op->path, c->path);
	uint32_t opts = op->a, disp = op->b;
	int fd, flags, err;

	*is_dir = false;
	look_up(c, path);
	if (opts & BQ_NT_FILE_DIRECTORY_FILE) {
		uint32_t st;

		if (opts & BQ_NT_FILE_NON_DIRECTORY_FILE)
			return BQ_NT_STATUS_INVALID_PARAMETER;
		if (disp == BQ_NT_FILE_CREATE || disp == BQ_NT_FILE_OPEN_IF) {
			if (c->rp->o->lean)
				rp_case_before_create(c, path);
			st = do_mkdir(c, op->path, path, disp == BQ_NT_FILE_OPEN_IF);
			if (st != BQ_NT_STATUS_OK)
				return st;
		} else if (disp != BQ_NT_FILE_OPEN) {
			return BQ_NT_STATUS_INVALID_PARAMETER;
		}
		for (;;) {
			fd = openat(c->rp->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0)
				break;
			err = errno;
			if (err == ENOTDIR) {
				struct stat sb;

				if (!fstatat(c->rp->rootfd, path, &sb, 0))
					return BQ_NT_STATUS_NOT_A_DIRECTORY;
			}
			if (!rp_retry_case(c, err, path))
				return rp_status_of(c, err, path);
		}
		*is_dir = true;
		*fdp = fd;
		look_at_opened(c, fd);
		return BQ_NT_STATUS_OK;
	}

	flags = O_RDWR | O_CLOEXEC | (c->rp->o->sync_open ? O_SYNC : 0);
	switch (disp) {
	case BQ_NT_FILE_SUPERSEDE:
	case BQ_NT_FILE_OVERWRITE_IF:
		flags |= O_CREAT | O_TRUNC;
		break;
	case BQ_NT_FILE_CREATE:
		flags |= O_CREAT | O_EXCL;
		break;
	case BQ_NT_FILE_OPEN_IF:
		flags |= O_CREAT;
		break;
	case BQ_NT_FILE_OVERWRITE:
		flags |= O_TRUNC;
		break;
	}
	if ((flags & O_CREAT) && c->rp->o->lean)
		rp_case_before_create(c, path);
	for (;;) {
		fd = bq_openat_beneath(c->rp->rootfd, path, flags, 0644);
		if (fd >= 0)
			break;
		err = errno;
		if (err == EISDIR) {
			/* Without FILE_NON_DIRECTORY_FILE an open may find a directory. */
			if ((opts & BQ_NT_FILE_NON_DIRECTORY_FILE) ||
			    (disp != BQ_NT_FILE_OPEN && disp != BQ_NT_FILE_OPEN_IF))
				return BQ_NT_STATUS_FILE_IS_A_DIRECTORY;
			fd = openat(c->rp->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return rp_status_of(c, errno, path);
			*is_dir = true;
			break;
		}
		/* A create in a directory whose case differs: look the directory up. */
		if (!rp_retry_case(c, err, path))
			return rp_status_of(c, err, path);
	}
	if (flags & O_CREAT)
		rp_sync_parent(c, path);
	*fdp = fd;
	look_at_opened(c, fd);
	return BQ_NT_STATUS_OK;
}

static uint32_t op_rw(struct client *c, const struct bq_replay_op *op, uint64_t *result)
{
	struct handle *h = handle_of(c, op);
	ssize_t n;

	if (!h)
		return BQ_NT_STATUS_INVALID_HANDLE;
	if (op->kind == BQ_REPLAY_READX)
		n = pread(h->fd, c->rbuf, op->size, (off_t)op->offset);
	else
		n = pwrite(h->fd, c->wbuf, op->size, (off_t)op->offset);
	if (n < 0)
		return bq_nt_status_from_errno(errno);
	if (op->kind == BQ_REPLAY_WRITEX && c->rp->o->fsync_writes)
		fsync(h->fd);
	*result = (uint64_t)n;
	return BQ_NT_STATUS_OK;
}

static bool overlaps(const struct lock_range *l, uint64_t off, uint64_t len)
{
	return len && l->len && off < l->off + l->len && l->off < off + len;
}

static uint32_t op_lock(struct client *c, const struct bq_replay_op *op)
{
	struct handle *h = handle_of(c, op);
	struct flock fl = {
		.l_whence = SEEK_SET,
		.l_start = (off_t)op->offset,
		.l_len = (off_t)op->size,
	};
	int i;

	if (!h)
		return BQ_NT_STATUS_INVALID_HANDLE;
	if (op->kind == BQ_REPLAY_LOCKX) {
		if (h->nr_locks >= LOCKS_MAX)
			return BQ_NT_STATUS_NO_MEMORY;
		for (i = 0; i < h->nr_locks; i++)
			if (overlaps(&h->locks[i], op->offset, op->size))
				return BQ_NT_STATUS_LOCK_NOT_GRANTED;
		if (!h->locks) {
			h->locks = calloc(LOCKS_MAX, sizeof(*h->locks));
			if (!h->locks)
				return BQ_NT_STATUS_NO_MEMORY;
		}
		/* A zero-length SMB lock is granted and locks nothing. */
		if (op->size) {
			/* OFD locks belong to the open file, like SMB's, not to the process. */
			fl.l_type = F_WRLCK;
			if (fcntl(h->fd, F_OFD_SETLK, &fl))
				return errno == EACCES ? BQ_NT_STATUS_LOCK_NOT_GRANTED
						       : bq_nt_status_from_errno(errno);
		}
		h->locks[h->nr_locks++] = (struct lock_range){ op->offset, op->size };
		return BQ_NT_STATUS_OK;
	}
	for (i = 0; i < h->nr_locks; i++)
		if (h->locks[i].off == op->offset && h->locks[i].len == op->size)
			break;
	if (i == h->nr_locks)
		return BQ_NT_STATUS_RANGE_NOT_LOCKED;
	if (op->size) {
		fl.l_type = F_UNLCK;
		if (fcntl(h->fd, F_OFD_SETLK, &fl))
			return bq_nt_status_from_errno(errno);
	}
	h->locks[i] = h->locks[--h->nr_locks];
	return BQ_NT_STATUS_OK;
}

static uint32_t op_rename(struct client *c, const struct bq_replay_op *op)
{
	char *from = rp_op_path(c, op->path, c->path);
	char *to = rp_op_path(c, op->path2, c->path2);
	int ret, err;

	look_up(c, from);
	look_up_create(c, to);
	for (;;) {
		/* SMB renames do not replace: the target must not exist. */
		if (!__atomic_load_n(&c->rp->no_renameat2, __ATOMIC_RELAXED)) {
			ret = renameat2(c->rp->rootfd, from, c->rp->rootfd, to, RENAME_NOREPLACE);
			/* A filesystem without it: check, then rename (racy, but alone in its subtree). */
			if (ret && errno == EINVAL) {
				__atomic_store_n(&c->rp->no_renameat2, true, __ATOMIC_RELAXED);
				continue;
			}
		} else {
			struct stat st;

			if (!fstatat(c->rp->rootfd, to, &st, AT_SYMLINK_NOFOLLOW))
				return BQ_NT_STATUS_OBJECT_NAME_COLLISION;
			ret = renameat(c->rp->rootfd, from, c->rp->rootfd, to);
		}
		if (!ret)
			break;
		err = errno;
		if (!rp_retry_case(c, err, from) && !rp_retry_case(c, err, to))
			return rp_status_of(c, err, from);
	}
	rp_sync_parent(c, to);
	return BQ_NT_STATUS_OK;
}

/* Unlink of a pattern removes every file matching it, or says none did. */
static uint32_t unlink_matching(struct client *c, const char *path)
{
	const char *pattern = rp_split_dir(c, path);
	uint32_t st = BQ_NT_STATUS_NO_SUCH_FILE;
	struct rp_dir dir;
	unsigned char type;
	const char *name;

	if (rp_dir_open(c, &dir, c->rp->rootfd, c->tmp))
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	while ((name = rp_dir_next(&dir, &type))) {
		if (type == DT_DIR || !rp_wild_match(pattern, name))
			continue;
		if (unlinkat(dir.fd, name, 0))
			st = bq_nt_status_from_errno(errno);
		else if (st == BQ_NT_STATUS_NO_SUCH_FILE)
			st = BQ_NT_STATUS_OK;
	}
	rp_dir_close(&dir);
	return st;
}

static uint32_t op_unlink(struct client *c, const struct bq_replay_op *op)
{
	char *path = rp_op_path(c, op->path, c->path);
	int err;

	look_up(c, path);
	if (c->rp->lf->paths[op->path].wildcard)
		return unlink_matching(c, path);
	for (;;) {
		if (!unlinkat(c->rp->rootfd, path, 0))
			break;
		err = errno;
		if (!rp_retry_case(c, err, path))
			return rp_status_of(c, err, path);
	}
	rp_sync_parent(c, path);
	return BQ_NT_STATUS_OK;
}

/* rm -rf below an open directory; the first error that is not ENOENT. */
int rp_remove_tree_at(int dirfd, const char *name, int depth)
{
	struct dirent *d;
	int fd, err = 0;
	DIR *dir;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	if (depth > 64)
		return -ELOOP;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((d = readdir(dir))) {
		int ret;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		ret = rp_remove_tree_at(fd, d->d_name, depth + 1);
		if (ret && !err)
			err = ret;
	}
	closedir(dir);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) && errno != ENOENT && !err)
		err = -errno;
	return err;
}

/*
 * Deltree is smbclient's: whatever is there goes, and a tree that is not
 * there is already deleted (client.txt starts with one and expects OK).
 */
static uint32_t op_deltree(struct client *c, const struct bq_replay_op *op)
{
	char *path = rp_op_path(c, op->path, c->path);
	int ret = rp_remove_tree_at(c->rp->rootfd, path, 0);

	return ret ? bq_nt_status_from_errno(-ret) : BQ_NT_STATUS_OK;
}

static uint32_t op_rmdir(struct client *c, const struct bq_replay_op *op)
{
	char *path = rp_op_path(c, op->path, c->path);
	struct stat st;
	int err;

	look_up(c, path);
	for (;;) {
		if (!unlinkat(c->rp->rootfd, path, AT_REMOVEDIR))
			break;
		err = errno;
		if (err == ENOTEMPTY || err == EEXIST)
			return BQ_NT_STATUS_DIRECTORY_NOT_EMPTY;
		if (err == ENOTDIR && !fstatat(c->rp->rootfd, path, &st, AT_SYMLINK_NOFOLLOW))
			return BQ_NT_STATUS_NOT_A_DIRECTORY;
		if (!rp_retry_case(c, err, path))
			return rp_status_of(c, err, path);
	}
	rp_sync_parent(c, path);
	return BQ_NT_STATUS_OK;
}

/*
 * Without --lean the look dbench makes before the operation is its
 * answer too: there, or missing under every case.  -1 when it was not
 * made, or found the name under another case: look again.
 */
static int looked_up(struct client *c, char *path)
{
	bool changed;
	int err;

	if (c->rp->o->lean)
		return -1;
	err = rp_resolve_name(c, path, &changed);
	return changed ? -1 : err;
}

static uint32_t op_qpathinfo(struct client *c, const struct bq_replay_op *op)
{
	char *path = rp_op_path(c, op->path, c->path);
	struct stat st;
	int err;

	err = looked_up(c, path);
	if (!err)
		return BQ_NT_STATUS_OK;
	if (err > 0)
		return rp_status_of(c, err, path);
	for (;;) {
		if (!fstatat(c->rp->rootfd, path, &st, 0))
			return BQ_NT_STATUS_OK;
		err = errno;
		if (!rp_retry_case(c, err, path))
			return rp_status_of(c, err, path);
	}
}

static uint32_t op_sfileinfo(struct client *c, const struct bq_replay_op *op)
{
	struct handle *h = handle_of(c, op);
	struct timespec ts[2];
	struct stat st;

	if (!h)
		return BQ_NT_STATUS_INVALID_HANDLE;
	switch (op->a) {
	case LEVEL_DISPOSITION_INFO:
	case LEVEL_FILE_DISPOSITION:
		h->delete_on_close = true;
		return BQ_NT_STATUS_OK;
	case LEVEL_FILE_POSITION:
		return BQ_NT_STATUS_OK;
	case LEVEL_ALLOCATION_INFO:
	case LEVEL_END_OF_FILE_INFO:
	case LEVEL_FILE_ALLOCATION:
	case LEVEL_FILE_END_OF_FILE:
		/* The loadfile has no size: set the one the file has. */
		if (fstat(h->fd, &st))
			return bq_nt_status_from_errno(errno);
		if (h->is_dir)
			return BQ_NT_STATUS_INVALID_PARAMETER;
		if (ftruncate(h->fd, st.st_size))
			return bq_nt_status_from_errno(errno);
		return BQ_NT_STATUS_OK;
	default:
		/* Basic information: the times, moved back as dbench does. */
		if (fstat(h->fd, &st))
			return bq_nt_status_from_errno(errno);
		ts[0] = st.st_atim;
		ts[0].tv_sec -= 10;
		ts[1] = st.st_mtim;
		ts[1].tv_sec -= 12;
		if (futimens(h->fd, ts))
			return bq_nt_status_from_errno(errno);
		return BQ_NT_STATUS_OK;
	}
}

static uint32_t op_find(struct client *c, const struct bq_replay_op *op, uint64_t *count)
{
	char *path = rp_op_path(c, op->path, c->path);
	const char *pattern, *name;
	struct rp_dir dir;
	struct stat st;
	int err;

	*count = 0;
	if (!c->rp->lf->paths[op->path].wildcard) {
		/* No wildcard: one name, there or not. */
		err = looked_up(c, path);
		if (!err) {
			*count = 1;
			return BQ_NT_STATUS_OK;
		}
		while (err < 0) {
			if (!fstatat(c->rp->rootfd, path, &st, 0)) {
				*count = 1;
				return BQ_NT_STATUS_OK;
			}
			err = errno;
			if (rp_retry_case(c, err, path))
				err = -1;
		}
		if (rp_status_of(c, err, path) == BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND)
			return BQ_NT_STATUS_NO_SUCH_FILE;
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	}
	look_up(c, path);
	pattern = rp_split_dir(c, path);
	for (;;) {
		err = -rp_dir_open(c, &dir, c->rp->rootfd, c->tmp);
		if (!err)
			break;
		/* rp_resolve_case works on c->path; c->tmp is its directory part. */
		if (c->rp->o->case_sensitive || (err != ENOENT && err != ENOTDIR) || pattern == path)
			return err == ENOENT || err == ENOTDIR ? BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND
							      : bq_nt_status_from_errno(err);
		path[pattern - path - 1] = '\0';
		if (!rp_resolve_case(c, path)) {
			path[pattern - path - 1] = '/';
			return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
		}
		path[pattern - path - 1] = '/';
		pattern = rp_split_dir(c, path);
	}
	while ((!op->b || *count < op->b) && (name = rp_dir_next(&dir, NULL)))
		if (rp_wild_match(pattern, name))
			(*count)++;
	rp_dir_close(&dir);
	return *count ? BQ_NT_STATUS_OK : BQ_NT_STATUS_NO_SUCH_FILE;
}

/* ---- one line ----------------------------------------------------------------- */

uint32_t rp_execute(struct client *c, const struct bq_replay_op *op, uint64_t *result,
		    uint64_t *bytes)
{
	struct handle *h;
	struct statvfs sv;
	struct stat st;
	uint32_t status;
	bool is_dir;
	int fd = -1;

	c->missed = NULL;
	switch (op->kind) {
	case BQ_REPLAY_NTCREATEX:
		status = op_ntcreatex(c, op, &fd, &is_dir);
		if (status == BQ_NT_STATUS_OK) {
			const struct bq_replay_status *want = &c->rp->lf->statuses[op->status];

			/* An open the file says failed gets no fnum: nothing refers to it. */
			if (!rp_status_matches(want, BQ_NT_STATUS_OK)) {
				close(fd);
				return status;
			}
			h = &c->h[op->handle];
			if (h->fd >= 0)
				rp_handle_close(c, h);
			h->fd = fd;
			h->is_dir = is_dir;
			h->path = op->path;
		}
		return status;
	case BQ_REPLAY_CLOSE:
		h = handle_of(c, op);
		if (!h)
			return BQ_NT_STATUS_INVALID_HANDLE;
		rp_handle_close(c, h);
		return BQ_NT_STATUS_OK;
	case BQ_REPLAY_RENAME:
		return op_rename(c, op);
	case BQ_REPLAY_UNLINK:
		return op_unlink(c, op);
	case BQ_REPLAY_DELTREE:
		return op_deltree(c, op);
	case BQ_REPLAY_RMDIR:
		return op_rmdir(c, op);
	case BQ_REPLAY_MKDIR:
		return op_mkdir(c, op);
	case BQ_REPLAY_QPATHINFO:
		return op_qpathinfo(c, op);
	case BQ_REPLAY_QFILEINFO:
		h = handle_of(c, op);
		if (!h)
			return BQ_NT_STATUS_INVALID_HANDLE;
		return fstat(h->fd, &st) ? bq_nt_status_from_errno(errno) : BQ_NT_STATUS_OK;
	case BQ_REPLAY_QFSINFO:
		return fstatvfs(c->rp->rootfd, &sv) ? bq_nt_status_from_errno(errno)
						     : BQ_NT_STATUS_OK;
	case BQ_REPLAY_SFILEINFO:
		return op_sfileinfo(c, op);
	case BQ_REPLAY_FIND:
		return op_find(c, op, result);
	case BQ_REPLAY_WRITEX:
	case BQ_REPLAY_READX:
		/* dbench counts the size asked for, whatever came back. */
		*bytes = op->size;
		return op_rw(c, op, result);
	case BQ_REPLAY_LOCKX:
	case BQ_REPLAY_UNLOCKX:
		return op_lock(c, op);
	case BQ_REPLAY_FLUSH:
		h = handle_of(c, op);
		if (!h)
			return BQ_NT_STATUS_INVALID_HANDLE;
		return fsync(h->fd) ? bq_nt_status_from_errno(errno) : BQ_NT_STATUS_OK;
	}
	return BQ_NT_STATUS_OK;
}
