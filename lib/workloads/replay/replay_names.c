// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_names.c - the names of a dbench loadfile as one client's, and as
 * an SMB server on a case-sensitive filesystem finds them: the client
 * component swapped, a second look ignoring case, Windows wildcards, and
 * which NT status a missing name gets
 *
 * Apart from the operations (replay_ops.c) because every one of them
 * resolves names the same way, and this is where Samba and Linux differ.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_int.h"

#define CLIENT1_LEN 7	/* strlen("client1") */

/* ---- names ----------------------------------------------------------------- */

/* The loadfile's path as this client's: its client1 component swapped. */
const char *rp_client_path(struct client *c, uint32_t idx, char *out)
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
uint32_t rp_status_of(struct client *c, int err, const char *path)
{
	const char *slash;
	struct stat st;
	size_t n;

	/* openat2() met a symlink, or one leading out of the tree: never followed. */
	if ((err == ELOOP || err == EXDEV) && !c->link_at[0])
		bq_strlcpy(c->link_at, path, sizeof(c->link_at));
	if (err == ENOTDIR)
		return BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
	if (err != ENOENT)
		return bq_nt_status_from_errno(err);
	/* dbench's look has just scanned the directory: no second look. */
	if (c->missed == path)
		return c->missed_dir_found ? BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND
					   : BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND;
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
const char *rp_split_dir(struct client *c, const char *path)
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
void rp_sync_parent(struct client *c, const char *path)
{
	int fd;

	if (!c->rp->o->sync_dirs)
		return;
	rp_split_dir(c, path);
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
bool rp_wild_match(const char *p, const char *n)
{
	for (; *p; p++) {
		switch (*p) {
		case '*':
			while (p[1] == '*')
				p++;
			if (!p[1])
				return true;
			for (;; n++) {
				if (rp_wild_match(p + 1, n))
					return true;
				if (!*n)
					return false;
			}
		case '<': {
			const char *ldot = strrchr(n, '.');

			for (;; n++) {
				if (rp_wild_match(p + 1, n))
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
static bool resolve_case(struct client *c, char *path, bool *dir_found)
{
	char *slash = strrchr(path, '/');
	char *leaf = slash ? slash + 1 : path;
	size_t len = strlen(leaf);
	bool changed = false;
	struct rp_dir dir;
	const char *name;
	int ret;

	if (slash)
		*slash = '\0';
	ret = rp_dir_open(c, &dir, c->rp->rootfd, slash ? path : ".");
	if ((ret == -ENOENT || ret == -ENOTDIR) && slash && rp_resolve_case(c, path)) {
		changed = true;
		ret = rp_dir_open(c, &dir, c->rp->rootfd, path);
	}
	if (slash)
		*slash = '/';
	*dir_found = !ret;
	if (ret)
		return changed;
	while ((name = rp_dir_next(&dir, NULL))) {
		if (strlen(name) == len && !strcasecmp(name, leaf)) {
			if (strcmp(name, leaf)) {
				memcpy(leaf, name, len);
				changed = true;
			}
			break;
		}
	}
	rp_dir_close(&dir);
	return changed;
}

bool rp_resolve_case(struct client *c, char *path)
{
	bool dir_found;

	return resolve_case(c, path, &dir_found);
}

int rp_resolve_name(struct client *c, char *path, bool *changed)
{
	bool dir_found;
	struct stat st;
	int err;

	*changed = false;
	if (!fstatat(c->rp->rootfd, path, &st, 0))
		return 0;
	err = errno;
	/* dbench --no-resolve keeps the stat() and drops the scan. */
	if (c->rp->o->case_sensitive || !strcmp(path, "."))
		return err;
	*changed = resolve_case(c, path, &dir_found);
	if (!*changed && err == ENOENT) {
		c->missed = path;
		c->missed_dir_found = dir_found;
	}
	return err;
}

/* ---- directories, read as opendir() and readdir() would ---------------------- */

int rp_dir_open(struct client *c, struct rp_dir *d, int dirfd, const char *path)
{
	struct stat st;

	d->pos = d->len = 0;
	d->buf = c->dirbuf;
	d->fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	/* opendir() looks at what it opened; fdopendir() adds two fcntl()s. */
	if (!c->rp->o->lean)
		fstat(d->fd, &st);
	return 0;
}

const char *rp_dir_next(struct rp_dir *d, unsigned char *type)
{
	struct dirent64 *e;

	if (d->pos >= d->len) {
		ssize_t n = getdents64(d->fd, d->buf, RP_DIRBUF_SIZE);

		if (n <= 0)
			return NULL;
		d->len = (size_t)n;
		d->pos = 0;
	}
	e = (struct dirent64 *)(d->buf + d->pos);
	d->pos += e->d_reclen;
	if (type)
		*type = e->d_type;
	return e->d_name;
}

void rp_dir_close(struct rp_dir *d)
{
	close(d->fd);
	d->fd = -1;
}

/*
 * The path of an operation as this client's, in @buf, where a second look
 * ignoring case may rewrite it.
 */
char *rp_op_path(struct client *c, uint32_t idx, char *buf)
{
	const struct bq_replay_path *p = &c->rp->lf->paths[idx];

	if (!p->len)
		strcpy(buf, ".");
	else if (rp_client_path(c, idx, buf) != buf)
		memcpy(buf, p->name, p->len + 1);
	return buf;
}

/* The operation failed on @path: true when a name differing in case was found. */
bool rp_retry_case(struct client *c, int err, char *path)
{
	if (c->rp->o->case_sensitive || (err != ENOENT && err != ENOTDIR) || !strcmp(path, ".") ||
	    c->missed == path)
		return false;
	return rp_resolve_case(c, path);
}

/*
 * @path is about to be created: when it is there under another case, a
 * server uses that one (an open finds it, a create collides with it).
 * The same stat() and scan dbench's resolve_name() makes.
 */
void rp_case_before_create(struct client *c, char *path)
{
	struct stat st;

	if (!c->rp->o->case_sensitive && fstatat(c->rp->rootfd, path, &st, AT_SYMLINK_NOFOLLOW))
		rp_resolve_case(c, path);
}
