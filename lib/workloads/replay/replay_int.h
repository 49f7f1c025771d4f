/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay_int.h - what the replay folder's files share, private to
 * libblkqual: the loadfile parser's calls that the command does not make,
 * a replay, its clients and their open handles
 */
#ifndef BLKQUAL_REPLAY_INT_H
#define BLKQUAL_REPLAY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_replay.h"
#include "internal.h"

/**
 * bq_loadfile_parse_buf() - parse a loadfile held in memory
 * @name: the file name for messages
 * @buf: its text (need not be NUL-terminated)
 * @len: its length
 * @lf: as for bq_loadfile_parse()
 * @err: as for bq_loadfile_parse()
 *
 * Return: as bq_loadfile_parse().
 */
int bq_loadfile_parse_buf(const char *name, const char *buf, size_t len, struct bq_loadfile *lf,
			  struct bq_parse_error *err);

/**
 * bq_nt_status_from_errno() - the NT status a Samba-like server would
 * answer for a failed system call
 * @err: positive errno
 *
 * ENOENT gives OBJECT_NAME_NOT_FOUND here; the replay itself tells it
 * apart from OBJECT_PATH_NOT_FOUND, which needs a look at the parent.
 *
 * Return: the status.
 */
uint32_t bq_nt_status_from_errno(int err);

/* The parser's longest path, plus room for the longest client name. */
#define PATH_ROOM (4096 + 64)

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
	/* Directory entries as getdents64() returns them, for one scan at a time. */
	char *dirbuf;
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
	/*
	 * The name dbench's look found missing under every case in this
	 * operation, and whether its directory was there: not looked for twice.
	 */
	const char *missed;
	bool missed_dir_found;
	/* A link found where the replay's own names go: the client stops. */
	char link_at[PATH_ROOM];
};

struct replay {
	const struct bq_loadfile *lf;
	const struct bq_replay_opts *o;
	int rootfd;
	/* Checked alive before every line, as a dbench client checks its parent. */
	int pid;
	bool no_renameat2;
	struct client *clients;
	uint64_t warmup_ns;
	/* The progress sampler's running sums. */
	uint64_t bytes_all;
	uint64_t bytes_exec;
	uint64_t exec_start_ns;
	bool exec_started;
};

/* Whether @got is what the loadfile said the operation answered. */
static inline bool rp_status_matches(const struct bq_replay_status *st, uint32_t got)
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

/* ---- replay_names.c: a loadfile's names as a client's, as SMB finds them ------ */

/* The loadfile's path @idx as this client's, in @out unless it needs no change. */
const char *rp_client_path(struct client *c, uint32_t idx, char *out);
/* The NT status of @err from an operation on @path, ENOENT told apart by where. */
uint32_t rp_status_of(struct client *c, int err, const char *path);
/* Split "dir/name" into c->tmp ("dir" or ".") and the name. */
const char *rp_split_dir(struct client *c, const char *path);
/* -S: flush the directory @path was changed in. */
void rp_sync_parent(struct client *c, const char *path);
/* Whether name @n matches the Windows wildcard pattern @p, ignoring case. */
bool rp_wild_match(const char *p, const char *n);
/* Rewrite @path to a name that differs only in case and exists; true when it changed. */
bool rp_resolve_case(struct client *c, char *path);
/* The path of an operation as this client's, in @buf, which rp_retry_case may rewrite. */
char *rp_op_path(struct client *c, uint32_t idx, char *buf);
/* After @err on @path: true when a name differing in case was found, to try again. */
bool rp_retry_case(struct client *c, int err, char *path);
/* Before creating @path: take the name it already has under another case. */
void rp_case_before_create(struct client *c, char *path);
/*
 * dbench's look at a name before its operation: stat() it and, when it
 * is not there, scan its directory for it ignoring case (rewriting @path
 * here, where dbench ignores what it finds).  0 when it was there,
 * else the stat's errno; *@changed when the scan rewrote @path.
 */
int rp_resolve_name(struct client *c, char *path, bool *changed);

/* One directory read straight with getdents64(), into the client's buffer. */
struct rp_dir {
	int fd;
	size_t pos;
	size_t len;
	char *buf;
};

#define RP_DIRBUF_SIZE 32768

/* Open @path below @dirfd for reading its entries; 0 or -errno. */
int rp_dir_open(struct client *c, struct rp_dir *d, int dirfd, const char *path);
/* The next entry's name (and its d_type in @type), or NULL at the end. */
const char *rp_dir_next(struct rp_dir *d, unsigned char *type);
void rp_dir_close(struct rp_dir *d);

/* ---- replay_ops.c: one operation of the loadfile ------------------------------ */

/* Close an open fnum, deleting its file first when it was marked so. */
void rp_handle_close(struct client *c, struct handle *h);
/* rm -rf of @name below the open directory @dirfd; the first error not ENOENT. */
int rp_remove_tree_at(int dirfd, const char *name, int depth);
/*
 * Run @op as the system calls a server would make for it: its NT status,
 * with what a ReadX, WriteX or Find got in @result and the bytes it
 * counts in @bytes.
 */
uint32_t rp_execute(struct client *c, const struct bq_replay_op *op, uint64_t *result,
		    uint64_t *bytes);

#endif /* BLKQUAL_REPLAY_INT_H */
