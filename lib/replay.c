// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - dbench loadfiles replayed on a local directory
 *
 * Each client is a thread of bq_ops_run() going through the shared,
 * parsed loadfile again and again.  An operation becomes the system calls
 * a Samba server would make for it, and its errno the NT status Samba
 * would answer, which is compared with the status the loadfile recorded.
 * dbench's own fileio backend mostly ignores that status; here every
 * difference is counted, by kind of operation, expected and got.
 *
 * Paths are resolved relative to one directory descriptor with the *at()
 * calls, so a client's path is the loadfile's with one component swapped.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "blkqual_replay.h"
#include "internal.h"

/* The parser's longest path, plus room for the longest client name. */
#define PATH_ROOM (4096 + 64)
#define CLIENT1_LEN 7	/* strlen("client1") */
#define LOCKS_MAX 16
#define SAMPLE_NS 1000000000ull

/* SMB info levels SET_FILE_INFORMATION acts on differently (MS-CIFS, MS-FSCC) */
#define LEVEL_DISPOSITION_INFO		0x102
#define LEVEL_ALLOCATION_INFO		0x103
#define LEVEL_END_OF_FILE_INFO		0x104
#define LEVEL_FILE_DISPOSITION		1013
#define LEVEL_FILE_POSITION		1014
#define LEVEL_FILE_ALLOCATION		1019
#define LEVEL_FILE_END_OF_FILE		1020

struct lock_range {
	uint64_t off;
	uint64_t len;
};

/*
 * One open fnum of one client.  @nr_locks counts the byte ranges this
 * handle holds, which SMB (unlike fcntl) never merges: unlocking must
 * name a held range exactly, and a handle's lock conflicts with its own.
 */
struct handle {
	int fd;
	bool delete_on_close;
	bool is_dir;
	uint8_t nr_locks;
	uint32_t path;
	struct lock_range *locks;
};

/* One mismatch class as a client counts it. */
struct mm_class {
	uint8_t kind;
	uint8_t what;
	uint32_t first_line;
	uint64_t expected;
	uint64_t got;
	uint64_t count;
};

struct snap {
	uint64_t count, bytes, errors, lat_sum;
};

struct replay;

struct client {
	struct replay *rp;
	int id;
	char name[24];
	size_t name_len;
	struct handle *h;
	char *rbuf;
	char *wbuf;
	char path[PATH_ROOM];
	char path2[PATH_ROOM];
	char tmp[PATH_ROOM];
	/* Read by the progress sampler while the client runs (relaxed atomics). */
	uint64_t lines;
	uint64_t max_lat_ns;
	/* The client's own. */
	struct mm_class *mm;
	size_t nr_mm;
	size_t cap_mm;
	bool warmed;
	struct snap snap[BQ_REPLAY_NR_KINDS];
	uint64_t loops;
	uint64_t bytes;
	uint64_t rate_ns;
	uint64_t rate_bytes;
};

struct replay {
	const struct bq_loadfile *lf;
	const struct bq_replay_opts *o;
	int rootfd;
	bool no_renameat2;
	struct client *clients;
	uint64_t warmup_ns;
	/* The progress sampler's running sums. */
	uint64_t bytes_all;
	uint64_t bytes_exec;
	uint64_t exec_start_ns;
	bool exec_started;
};

/* ---- names ----------------------------------------------------------------- */

/* The loadfile's path as this client's: its client1 component swapped. */
static const char *client_path(struct client *c, uint32_t idx, char *out)
{
	const struct bq_replay_path *p = &c->rp->lf->paths[idx];
	size_t at, rest;

	if (!p->len)
		return ".";
	if (p->client_at < 0)
		return p->name;
	at = (size_t)p->client_at;
	rest = p->len - at - CLIENT1_LEN;
	memcpy(out, p->name, at);
	memcpy(out + at, c->name, c->name_len);
	memcpy(out + at + c->name_len, p->name + at + CLIENT1_LEN, rest + 1);
	return out;
}

/*
 * ENOENT is OBJECT_NAME_NOT_FOUND when only the last component is
 * missing and OBJECT_PATH_NOT_FOUND when a directory on the way is.
 */
static uint32_t status_of(struct client *c, int err, const char *path)
{
	const char *slash;
	struct stat st;
	size_t n;

	if (err == ENOTDIR)
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	if (err != ENOENT)
		return bq_nt_status_from_errno(err);
	slash = strrchr(path, '/');
	if (!slash)
		return BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND;
	n = (size_t)(slash - path);
	memcpy(c->tmp, path, n);
	c->tmp[n] = '\0';
	if (fstatat(c->rp->rootfd, c->tmp, &st, 0) || !S_ISDIR(st.st_mode))
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	return BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND;
}

/* Split "dir/name" into c->tmp ("dir" or ".") and the name. */
static const char *split_dir(struct client *c, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		strcpy(c->tmp, ".");
		return path;
	}
	n = (size_t)(slash - path);
	memcpy(c->tmp, path, n);
	c->tmp[n] = '\0';
	return slash + 1;
}

/* -S: what knfsd does after a directory change, flush the directory. */
static void sync_parent(struct client *c, const char *path)
{
	int fd;

	if (!c->rp->o->sync_dirs)
		return;
	split_dir(c, path);
	fd = openat(c->rp->rootfd, c->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

/*
 * Windows wildcards, case-insensitive as SMB matches them: '*' and '?' as
 * usual, '<' any run of characters up to the last dot, '>' one character
 * other than a dot (or none at a dot or the end), '"' a dot or the end.
 */
static bool wild_match(const char *p, const char *n)
{
	for (; *p; p++) {
		switch (*p) {
		case '*':
			while (p[1] == '*')
				p++;
			if (!p[1])
				return true;
			for (;; n++) {
				if (wild_match(p + 1, n))
					return true;
				if (!*n)
					return false;
			}
		case '<': {
			const char *ldot = strrchr(n, '.');

			for (;; n++) {
				if (wild_match(p + 1, n))
					return true;
				if (!*n || n == ldot)
					return false;
			}
		}
		case '>':
			if (*n && *n != '.')
				n++;
			break;
		case '"':
			if (*n == '.')
				n++;
			else if (*n)
				return false;
			break;
		case '?':
			if (!*n)
				return false;
			n++;
			break;
		default:
			if (tolower((unsigned char)*p) != tolower((unsigned char)*n))
				return false;
			n++;
			break;
		}
	}
	return !*n;
}

/*
 * A name not found as written is looked for again ignoring case, as an
 * SMB server on a case-sensitive filesystem does: one scan of the parent
 * directory, the very scan dbench pays for (and then ignores).  Only when
 * the parent is missing too is it looked for the same way, and so on up.
 * Rewrites @path in place; true when it changed.
 */
static bool resolve_case(struct client *c, char *path)
{
	char *slash = strrchr(path, '/');
	char *leaf = slash ? slash + 1 : path;
	size_t len = strlen(leaf);
	bool changed = false;
	struct dirent *d;
	DIR *dir;
	int fd;

	if (slash)
		*slash = '\0';
	fd = openat(c->rp->rootfd, slash ? path : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && slash && (errno == ENOENT || errno == ENOTDIR) && resolve_case(c, path)) {
		changed = true;
		fd = openat(c->rp->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (slash)
		*slash = '/';
	if (fd < 0)
		return changed;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return changed;
	}
	while ((d = readdir(dir))) {
		if (strlen(d->d_name) == len && !strcasecmp(d->d_name, leaf)) {
			if (strcmp(d->d_name, leaf)) {
				memcpy(leaf, d->d_name, len);
				changed = true;
			}
			break;
		}
	}
	closedir(dir);
	return changed;
}

/*
 * The path of an operation as this client's, in @buf, where a second look
 * ignoring case may rewrite it.
 */
static char *op_path(struct client *c, uint32_t idx, char *buf)
{
	const struct bq_replay_path *p = &c->rp->lf->paths[idx];

	if (!p->len)
		strcpy(buf, ".");
	else if (client_path(c, idx, buf) != buf)
		memcpy(buf, p->name, p->len + 1);
	return buf;
}

/* The operation failed on @path: true when a name differing in case was found. */
static bool retry_case(struct client *c, int err, char *path)
{
	if (c->rp->o->case_sensitive || (err != ENOENT && err != ENOTDIR) || !strcmp(path, "."))
		return false;
	return resolve_case(c, path);
}

/*
 * @path is about to be created: when it is there under another case, a
 * server uses that one (an open finds it, a create collides with it).
 * The same stat() and scan dbench's resolve_name() makes.
 */
static void case_before_create(struct client *c, char *path)
{
	struct stat st;

	if (!c->rp->o->case_sensitive && fstatat(c->rp->rootfd, path, &st, AT_SYMLINK_NOFOLLOW))
		resolve_case(c, path);
}

/* ---- the operations ---------------------------------------------------------- */

static struct handle *handle_of(struct client *c, const struct bq_replay_op *op)
{
	struct handle *h;

	if (op->handle == BQ_REPLAY_NONE)
		return NULL;
	h = &c->h[op->handle];
	return h->fd >= 0 ? h : NULL;
}

static void handle_close(struct client *c, struct handle *h)
{
	if (h->delete_on_close) {
		const char *path = client_path(c, h->path, c->path2);

		unlinkat(c->rp->rootfd, path, h->is_dir ? AT_REMOVEDIR : 0);
	}
	close(h->fd);
	h->fd = -1;
	h->nr_locks = 0;
	h->delete_on_close = false;
}

static bool is_shared(const struct client *c, uint32_t idx)
{
	return c->rp->lf->paths[idx].client_at < 0;
}

static uint32_t do_mkdir(struct client *c, uint32_t idx, char *path, bool exist_ok)
{
	int err;

	case_before_create(c, path);
	for (;;) {
		if (!mkdirat(c->rp->rootfd, path, 0777)) {
			sync_parent(c, path);
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
		if (!retry_case(c, err, path))
			return status_of(c, err, path);
	}
}

static uint32_t op_ntcreatex(struct client *c, const struct bq_replay_op *op, int *fdp,
			     bool *is_dir)
{
	char *path = op_path(c, op->path, c->path);
	uint32_t opts = op->a, disp = op->b;
	int fd, flags, err;

	*is_dir = false;
	if (opts & BQ_NT_FILE_DIRECTORY_FILE) {
		uint32_t st;

		if (opts & BQ_NT_FILE_NON_DIRECTORY_FILE)
			return BQ_NT_STATUS_INVALID_PARAMETER;
		if (disp == BQ_NT_FILE_CREATE || disp == BQ_NT_FILE_OPEN_IF) {
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
			if (!retry_case(c, err, path))
				return status_of(c, err, path);
		}
		*is_dir = true;
		*fdp = fd;
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
	if (flags & O_CREAT)
		case_before_create(c, path);
	for (;;) {
		fd = openat(c->rp->rootfd, path, flags, 0644);
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
				return status_of(c, errno, path);
			*is_dir = true;
			break;
		}
		/* A create in a directory whose case differs: look the directory up. */
		if (!retry_case(c, err, path))
			return status_of(c, err, path);
	}
	if (flags & O_CREAT)
		sync_parent(c, path);
	*fdp = fd;
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
	char *from = op_path(c, op->path, c->path);
	char *to = op_path(c, op->path2, c->path2);
	int ret, err;

	case_before_create(c, to);
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
		if (!retry_case(c, err, from) && !retry_case(c, err, to))
			return status_of(c, err, from);
	}
	sync_parent(c, to);
	return BQ_NT_STATUS_OK;
}

/* Unlink of a pattern removes every file matching it, or says none did. */
static uint32_t unlink_matching(struct client *c, const char *path)
{
	const char *pattern = split_dir(c, path);
	uint32_t st = BQ_NT_STATUS_NO_SUCH_FILE;
	struct dirent *d;
	DIR *dir;
	int fd;

	fd = openat(c->rp->rootfd, c->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return BQ_NT_STATUS_NO_MEMORY;
	}
	while ((d = readdir(dir))) {
		if (d->d_type == DT_DIR || !wild_match(pattern, d->d_name))
			continue;
		if (unlinkat(fd, d->d_name, 0))
			st = bq_nt_status_from_errno(errno);
		else if (st == BQ_NT_STATUS_NO_SUCH_FILE)
			st = BQ_NT_STATUS_OK;
	}
	closedir(dir);
	return st;
}

static uint32_t op_unlink(struct client *c, const struct bq_replay_op *op)
{
	char *path = op_path(c, op->path, c->path);
	int err;

	if (c->rp->lf->paths[op->path].wildcard)
		return unlink_matching(c, path);
	for (;;) {
		if (!unlinkat(c->rp->rootfd, path, 0))
			break;
		err = errno;
		if (!retry_case(c, err, path))
			return status_of(c, err, path);
	}
	sync_parent(c, path);
	return BQ_NT_STATUS_OK;
}

/* rm -rf below an open directory; the first error that is not ENOENT. */
static int remove_tree_at(int dirfd, const char *name, int depth)
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
		ret = remove_tree_at(fd, d->d_name, depth + 1);
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
	char *path = op_path(c, op->path, c->path);
	int ret = remove_tree_at(c->rp->rootfd, path, 0);

	return ret ? bq_nt_status_from_errno(-ret) : BQ_NT_STATUS_OK;
}

static uint32_t op_rmdir(struct client *c, const struct bq_replay_op *op)
{
	char *path = op_path(c, op->path, c->path);
	struct stat st;
	int err;

	for (;;) {
		if (!unlinkat(c->rp->rootfd, path, AT_REMOVEDIR))
			break;
		err = errno;
		if (err == ENOTEMPTY || err == EEXIST)
			return BQ_NT_STATUS_DIRECTORY_NOT_EMPTY;
		if (err == ENOTDIR && !fstatat(c->rp->rootfd, path, &st, AT_SYMLINK_NOFOLLOW))
			return BQ_NT_STATUS_NOT_A_DIRECTORY;
		if (!retry_case(c, err, path))
			return status_of(c, err, path);
	}
	sync_parent(c, path);
	return BQ_NT_STATUS_OK;
}

static uint32_t op_qpathinfo(struct client *c, const struct bq_replay_op *op)
{
	char *path = op_path(c, op->path, c->path);
	struct stat st;
	int err;

	for (;;) {
		if (!fstatat(c->rp->rootfd, path, &st, 0))
			return BQ_NT_STATUS_OK;
		err = errno;
		if (!retry_case(c, err, path))
			return status_of(c, err, path);
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
	char *path = op_path(c, op->path, c->path);
	const char *pattern;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd, err;

	*count = 0;
	if (!c->rp->lf->paths[op->path].wildcard) {
		/* No wildcard: one name, there or not. */
		for (;;) {
			if (!fstatat(c->rp->rootfd, path, &st, 0)) {
				*count = 1;
				return BQ_NT_STATUS_OK;
			}
			err = errno;
			if (!retry_case(c, err, path))
				break;
		}
		if (status_of(c, err, path) == BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND)
			return BQ_NT_STATUS_NO_SUCH_FILE;
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	}
	pattern = split_dir(c, path);
	for (;;) {
		fd = openat(c->rp->rootfd, c->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			break;
		err = errno;
		/* resolve_case works on c->path; c->tmp is its directory part. */
		if (c->rp->o->case_sensitive || (err != ENOENT && err != ENOTDIR) || pattern == path)
			return err == ENOENT || err == ENOTDIR ? BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND
							      : bq_nt_status_from_errno(err);
		path[pattern - path - 1] = '\0';
		if (!resolve_case(c, path)) {
			path[pattern - path - 1] = '/';
			return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
		}
		path[pattern - path - 1] = '/';
		pattern = split_dir(c, path);
	}
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return BQ_NT_STATUS_NO_MEMORY;
	}
	while ((d = readdir(dir)) && (!op->b || *count < op->b))
		if (wild_match(pattern, d->d_name))
			(*count)++;
	closedir(dir);
	return *count ? BQ_NT_STATUS_OK : BQ_NT_STATUS_NO_SUCH_FILE;
}

/* Sleep in slices so a stop is noticed. */
static void nap(struct bq_ops_thread *t, uint64_t ns)
{
	uint64_t end = bq_now_ns() + ns;

	while (!bq_ops_should_stop(t)) {
		uint64_t now = bq_now_ns(), d;
		struct timespec ts;

		if (now >= end)
			return;
		d = end - now < 100000000ull ? end - now : 100000000ull;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)d;
		nanosleep(&ts, NULL);
	}
}

/* ---- one client ---------------------------------------------------------------- */

static bool status_matches(const struct bq_replay_status *st, uint32_t got)
{
	switch (st->expect) {
	case BQ_REPLAY_EXPECT_CODE:
		return got == st->code;
	case BQ_REPLAY_EXPECT_FAILURE:
		return got != BQ_NT_STATUS_OK;
	default:
		return true;
	}
}

static void count_mismatch(struct client *c, struct bq_ops_thread *t, const struct bq_replay_op *op,
			   enum bq_replay_what what, uint64_t expected, uint64_t got)
{
	const struct bq_loadfile *lf = c->rp->lf;
	struct mm_class *m;
	size_t i;

	for (i = 0; i < c->nr_mm; i++) {
		m = &c->mm[i];
		if (m->kind == op->kind && m->what == what && m->expected == expected && m->got == got) {
			m->count++;
			goto out_report;
		}
	}
	if (c->nr_mm == c->cap_mm) {
		size_t cap = c->cap_mm ? c->cap_mm * 2 : 16;
		struct mm_class *n = realloc(c->mm, cap * sizeof(*n));

		if (!n)
			goto out_report;
		c->mm = n;
		c->cap_mm = cap;
	}
	c->mm[c->nr_mm++] = (struct mm_class){
		.kind = op->kind, .what = (uint8_t)what, .first_line = op->line,
		.expected = expected, .got = got, .count = 1,
	};
out_report:
	if (t->nr_errors < BQ_OPS_MAX_ERRORS) {
		char what_s[192], b1[16];

		if (what == BQ_REPLAY_MISMATCH_STATUS)
			snprintf(what_s, sizeof(what_s), "%.60s:%u: %s expected %s, got %s",
				 lf->name, op->line, bq_replay_op_name(op->kind),
				 lf->statuses[expected].name,
				 bq_nt_status_name((uint32_t)got, b1, sizeof(b1)));
		else
			snprintf(what_s, sizeof(what_s), "%.60s:%u: %s expected %llu, got %llu",
				 lf->name, op->line, bq_replay_op_name(op->kind),
				 (unsigned long long)expected, (unsigned long long)got);
		bq_ops_error(t, op->kind, EPROTO, -1, what_s);
	}
}

static void take_warmup_snapshot(struct client *c, struct bq_ops_thread *t)
{
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		struct bq_op_stat *s = &t->op[k];

		c->snap[k] = (struct snap){ s->count, s->bytes, s->errors, s->lat_sum_ns };
		/* Only this thread touches its histograms until it returns. */
		if (s->lat.buckets)
			bq_hist_reset(&s->lat);
	}
	c->warmed = true;
}

static void rate_limit(struct client *c, struct bq_ops_thread *t, double rate)
{
	uint64_t now = bq_now_ns();
	double due;

	if (!c->rate_ns) {
		c->rate_ns = now;
		c->rate_bytes = c->bytes;
		return;
	}
	due = (double)(c->bytes - c->rate_bytes) / (rate * 1e6) * 1e9 - (double)(now - c->rate_ns);
	if (due > 0)
		nap(t, (uint64_t)due);
	c->rate_ns = bq_now_ns();
	c->rate_bytes = c->bytes;
}

static uint32_t execute(struct client *c, const struct bq_replay_op *op, uint64_t *result,
			uint64_t *bytes)
{
	struct handle *h;
	struct statvfs sv;
	struct stat st;
	uint32_t status;
	bool is_dir;
	int fd = -1;

	switch (op->kind) {
	case BQ_REPLAY_NTCREATEX:
		status = op_ntcreatex(c, op, &fd, &is_dir);
		if (status == BQ_NT_STATUS_OK) {
			const struct bq_replay_status *want = &c->rp->lf->statuses[op->status];

			/* An open the file says failed gets no fnum: nothing refers to it. */
			if (!status_matches(want, BQ_NT_STATUS_OK)) {
				close(fd);
				return status;
			}
			h = &c->h[op->handle];
			if (h->fd >= 0)
				handle_close(c, h);
			h->fd = fd;
			h->is_dir = is_dir;
			h->path = op->path;
		}
		return status;
	case BQ_REPLAY_CLOSE:
		h = handle_of(c, op);
		if (!h)
			return BQ_NT_STATUS_INVALID_HANDLE;
		handle_close(c, h);
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
		return do_mkdir(c, op->path, op_path(c, op->path, c->path), false);
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

static void max_store(uint64_t *p, uint64_t v)
{
	/* One writer; the sampler only swaps in 0, so a lost race loses one second's max. */
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static int client_fn(struct bq_ops_thread *t, void *arg)
{
	struct replay *rp = arg;
	struct client *c = &rp->clients[t->id];
	const struct bq_loadfile *lf = rp->lf;
	const struct bq_replay_opts *o = rp->o;
	uint64_t warm_end, loop_start;

	warm_end = bq_now_ns() + rp->warmup_ns;
	if (t->deadline_ns && o->time_ns)
		warm_end = t->deadline_ns - o->time_ns;
	if (!rp->warmup_ns)
		take_warmup_snapshot(c, t);

	for (;;) {
		loop_start = bq_now_ns();
		for (size_t i = 0; i < lf->nr_ops; i++) {
			const struct bq_replay_op *op = &lf->ops[i];
			const struct bq_replay_status *want = &lf->statuses[op->status];
			uint64_t t0, t1, result = 0, bytes = 0;
			uint32_t got;
			bool bad = false;

			if (bq_ops_should_stop(t))
				goto out_stopped;
			if (lf->time_ns && lf->time_ns[i] && !o->target_rate) {
				uint64_t due = loop_start + lf->time_ns[i], now = bq_now_ns();

				if (due > now)
					nap(t, due - now);
			} else if (o->target_rate > 0) {
				rate_limit(c, t, o->target_rate);
			}
			if (op->kind == BQ_REPLAY_SLEEP) {
				nap(t, op->size * 1000);
				continue;
			}
			t0 = bq_now_ns();
			if (!c->warmed && t0 >= warm_end)
				take_warmup_snapshot(c, t);
			got = execute(c, op, &result, &bytes);
			t1 = bq_now_ns();
			if (!status_matches(want, got)) {
				count_mismatch(c, t, op, BQ_REPLAY_MISMATCH_STATUS, op->status, got);
				bad = true;
			} else if (got == BQ_NT_STATUS_OK && want->expect == BQ_REPLAY_EXPECT_CODE &&
				   (op->kind == BQ_REPLAY_READX || op->kind == BQ_REPLAY_WRITEX ||
				    op->kind == BQ_REPLAY_FIND) && result != op->c) {
				count_mismatch(c, t, op, BQ_REPLAY_MISMATCH_RESULT, op->c, result);
				bad = true;
			}
			c->bytes += bytes;
			bq_ops_record(t, op->kind, bytes, t1 - t0, bad);
			max_store(&c->max_lat_ns, t1 - t0);
			__atomic_store_n(&c->lines, c->lines + 1, __ATOMIC_RELAXED);
		}
		c->loops++;
		if (o->run_once)
			break;
	}
out_stopped:
	for (uint32_t i = 0; i < lf->nr_handles; i++)
		if (c->h[i].fd >= 0)
			handle_close(c, &c->h[i]);
	return 0;
}

/* ---- the run -------------------------------------------------------------------- */

static void on_sample(void *arg, const struct bq_ops_sample *s)
{
	struct replay *rp = arg;
	const struct bq_replay_opts *o = rp->o;
	struct bq_replay_progress p = { .t_ns = s->t_ns };
	uint64_t bytes = 0, lines = 0;

	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		bytes += s->bytes[k];
		p.ops += s->count[k];
		p.mismatches += s->errors[k];
	}
	for (int i = 0; i < o->clients; i++) {
		struct client *c = &rp->clients[i];
		uint64_t m = __atomic_exchange_n(&c->max_lat_ns, 0, __ATOMIC_RELAXED);

		lines += __atomic_load_n(&c->lines, __ATOMIC_RELAXED);
		if (m > p.max_lat_ns)
			p.max_lat_ns = m;
	}
	p.lines = lines / (uint64_t)o->clients;
	rp->bytes_all += bytes;
	/* Like dbench: the second the warmup ends starts the measured time, unprinted. */
	if (rp->warmup_ns && s->t_ns < rp->warmup_ns + SAMPLE_NS / 2) {
		if (s->t_ns + SAMPLE_NS / 2 >= rp->warmup_ns) {
			rp->exec_started = true;
			rp->exec_start_ns = s->t_ns;
			return;
		}
		p.warmup = true;
		p.mb_s = (double)rp->bytes_all * 1e3 / (double)s->t_ns;
	} else {
		if (!rp->exec_started) {
			rp->exec_started = true;
			rp->exec_start_ns = s->t_ns - s->dt_ns;
		}
		rp->bytes_exec += bytes;
		p.exec_ns = s->t_ns - rp->exec_start_ns;
		p.mb_s = p.exec_ns ? (double)rp->bytes_exec * 1e3 / (double)p.exec_ns : 0;
	}
	if (o->on_progress)
		o->on_progress(o->progress_arg, &p);
}

static int mm_cmp(const void *a, const void *b)
{
	const struct bq_replay_mismatch *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->first_line < y->first_line ? -1 : x->first_line > y->first_line;
}

/* Every client's mismatch classes, merged. */
static int gather_mismatches(struct replay *rp, struct bq_replay_result *res)
{
	for (int i = 0; i < rp->o->clients; i++) {
		const struct client *c = &rp->clients[i];

		for (size_t j = 0; j < c->nr_mm; j++) {
			const struct mm_class *m = &c->mm[j];
			struct bq_replay_mismatch *r = NULL;

			res->mismatches += m->count;
			for (size_t k = 0; k < res->nr_classes; k++) {
				struct bq_replay_mismatch *x = &res->classes[k];

				if (x->kind == m->kind && x->what == m->what &&
				    x->expected == m->expected && x->got == m->got)
					r = x;
			}
			if (r) {
				r->count += m->count;
				if (m->first_line < r->first_line)
					r->first_line = m->first_line;
				continue;
			}
			r = realloc(res->classes, (res->nr_classes + 1) * sizeof(*r));
			if (!r)
				return -ENOMEM;
			res->classes = r;
			res->classes[res->nr_classes++] = (struct bq_replay_mismatch){
				.kind = m->kind, .what = m->what, .expected = m->expected,
				.got = m->got, .count = m->count, .first_line = m->first_line,
			};
		}
	}
	if (res->nr_classes)
		qsort(res->classes, res->nr_classes, sizeof(*res->classes), mm_cmp);
	return 0;
}

/* Take the warmup out of the counts; the histograms were reset at its end. */
static void drop_warmup(struct replay *rp, struct bq_replay_result *res)
{
	struct bq_ops_result *r = &res->ops;

	res->warmed = true;
	for (int i = 0; i < r->nr_threads; i++)
		if (!rp->clients[i].warmed)
			res->warmed = false;
	if (!res->warmed) {
		/* Stopped in the warmup: what was measured is all there is. */
		res->exec_ns = r->runtime_ns;
		return;
	}
	for (int i = 0; i < r->nr_threads; i++) {
		const struct client *c = &rp->clients[i];

		for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
			struct bq_op_stat *s = &r->threads[i].op[k];

			s->count -= c->snap[k].count;
			s->bytes -= c->snap[k].bytes;
			s->errors -= c->snap[k].errors;
			s->lat_sum_ns -= c->snap[k].lat_sum;
			r->total[k].count -= c->snap[k].count;
			r->total[k].bytes -= c->snap[k].bytes;
			r->total[k].errors -= c->snap[k].errors;
			r->total[k].lat_sum_ns -= c->snap[k].lat_sum;
		}
	}
	res->exec_ns = r->runtime_ns > rp->warmup_ns ? r->runtime_ns - rp->warmup_ns : 0;
}

static void clients_free(struct replay *rp)
{
	if (!rp->clients)
		return;
	for (int i = 0; i < rp->o->clients; i++) {
		struct client *c = &rp->clients[i];

		if (c->h)
			for (uint32_t j = 0; j < rp->lf->nr_handles; j++)
				free(c->h[j].locks);
		free(c->h);
		free(c->rbuf);
		free(c->wbuf);
		free(c->mm);
	}
	free(rp->clients);
}

static int clients_alloc(struct replay *rp)
{
	const struct bq_loadfile *lf = rp->lf;
	size_t io = lf->max_io ? lf->max_io : 4096;

	rp->clients = calloc((size_t)rp->o->clients, sizeof(*rp->clients));
	if (!rp->clients)
		return -ENOMEM;
	for (int i = 0; i < rp->o->clients; i++) {
		struct client *c = &rp->clients[i];

		c->rp = rp;
		c->id = i;
		/* dbench numbers its clients from 0: client0, client1, ... */
		c->name_len = (size_t)snprintf(c->name, sizeof(c->name), "client%d", i);
		c->h = calloc(lf->nr_handles ? lf->nr_handles : 1, sizeof(*c->h));
		if (!c->h || posix_memalign((void **)&c->rbuf, 4096, io) ||
		    posix_memalign((void **)&c->wbuf, 4096, io))
			return -ENOMEM;
		/* WriteX writes zeros, as dbench 4 does. */
		memset(c->wbuf, 0, io);
		for (uint32_t j = 0; j < lf->nr_handles; j++)
			c->h[j].fd = -1;
	}
	return 0;
}

int bq_replay_run(struct bq_ctx *ctx, const struct bq_loadfile *lf,
		  const struct bq_replay_opts *o, struct bq_replay_result *res)
{
	struct replay rp = { .lf = lf, .o = o, .rootfd = -1 };
	struct bq_ops_opts oo = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	if (!o->dir || o->clients < 1 || o->clients > 100000 || !lf->nr_ops ||
	    (!o->time_ns && !o->run_once))
		return -EINVAL;
	rp.warmup_ns = o->warmup_ns;
	rp.rootfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rp.rootfd < 0)
		return -errno;
	ret = clients_alloc(&rp);
	if (ret)
		goto out_free_clients;
	res->lines = calloc((size_t)o->clients, sizeof(*res->lines));
	if (!res->lines) {
		ret = -ENOMEM;
		goto out_free_clients;
	}

	oo.nr_threads = o->clients;
	oo.nr_ops = BQ_REPLAY_NR_KINDS;
	oo.duration_ns = o->time_ns ? o->warmup_ns + o->time_ns : 0;
	oo.interval_ns = SAMPLE_NS;
	oo.stop = o->stop;
	oo.fn = client_fn;
	oo.arg = &rp;
	oo.on_sample = on_sample;
	oo.sample_arg = &rp;
	ret = bq_ops_run(ctx, &oo, &res->ops);
	if (ret)
		goto out_free_lines;

	drop_warmup(&rp, res);
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		res->bytes += res->ops.total[k].bytes;
		if (res->ops.total[k].lat.count && res->ops.total[k].lat.max > res->max_lat_ns)
			res->max_lat_ns = res->ops.total[k].lat.max;
	}
	res->mb_s = res->exec_ns ? (double)res->bytes * 1e3 / (double)res->exec_ns : 0;
	for (int i = 0; i < o->clients; i++) {
		res->lines[i] = rp.clients[i].lines;
		res->loops += rp.clients[i].loops;
	}
	ret = gather_mismatches(&rp, res);
	if (ret)
		goto out_free_ops;
	clients_free(&rp);
	close(rp.rootfd);
	return 0;

out_free_ops:
	bq_ops_result_free(&res->ops);
out_free_lines:
	free(res->lines);
	res->lines = NULL;
out_free_clients:
	clients_free(&rp);
	close(rp.rootfd);
	return ret;
}

void bq_replay_result_free(struct bq_replay_result *res)
{
	bq_ops_result_free(&res->ops);
	free(res->lines);
	free(res->classes);
	memset(res, 0, sizeof(*res));
}

int bq_replay_cleanup(const char *dir, int clients)
{
	char name[32];
	int fd, err = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (int i = 0; i < clients; i++) {
		int ret;

		snprintf(name, sizeof(name), "clients/client%d", i);
		ret = remove_tree_at(fd, name, 0);
		if (ret && !err)
			err = ret;
	}
	if (unlinkat(fd, "clients", AT_REMOVEDIR) && errno != ENOENT && errno != ENOTEMPTY &&
	    errno != EEXIST && !err)
		err = -errno;
	close(fd);
	return err;
}
