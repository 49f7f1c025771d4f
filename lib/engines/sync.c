// SPDX-License-Identifier: GPL-2.0-only
/*
 * sync.c - fio's "sync" engine: lseek(2), then read(2) or write(2)
 *
 * Two calls where psync needs one; jobs written for fio's default-era
 * engine measure that cost, so it is kept.  As fio does, the seek is
 * left out when the file position is already where the I/O starts
 * (sequential I/O), which read and write leave behind them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkqual_guard.h"
#include "sync_loop.h"

/*
 * The threads of a job share its descriptors, and a file position lives
 * in the open file, not the descriptor: one thread's lseek would move
 * another's read.  Each thread works through its own reopen of the
 * job's (guarded) descriptors, as each fio job opens its own files.
 * @pos: where each one's position is; -1: not known
 */
struct sync_state {
	int fds[BQ_MAX_FILES];
	int nr;
	off_t pos[BQ_MAX_FILES];
};

static void sync_teardown(struct bq_worker *w)
{
	struct sync_state *st = w->engine;

	if (!st)
		return;
	for (int i = 0; i < st->nr; i++)
		close(st->fds[i]);
	free(st);
	w->engine = NULL;
}

static int sync_setup(struct bq_worker *w)
{
	struct sync_state *st = calloc(1, sizeof(*st));

	if (!st) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "out of memory");
		return -ENOMEM;
	}
	w->engine = st;
	for (int i = 0; i < w->nr_fds; i++) {
		int flags = fcntl(w->fds[i], F_GETFL);
		int fd = flags < 0 ? -errno : bq_fd_reopen(w->fds[i], flags & ~O_CLOEXEC);

		if (fd < 0) {
			snprintf(w->setup_msg, sizeof(w->setup_msg),
				 "cannot open file %d again for this thread: %s", i + 1,
				 strerror(-fd));
			return fd;
		}
		st->fds[st->nr++] = fd;
		st->pos[i] = 0;
		w->fds[i] = fd;
	}
	return 0;
}

static ssize_t sync_io(struct bq_worker *w, const struct bq_slot *s, void *buf)
{
	struct sync_state *st = w->engine;
	int fd = w->fds[s->file];
	ssize_t n;

	if (st->pos[s->file] != (off_t)s->offset &&
	    lseek(fd, (off_t)s->offset, SEEK_SET) < 0) {
		st->pos[s->file] = -1;
		return -1;
	}
	if (s->dir == BQ_READ)
		n = read(fd, buf, s->len);
	else
		n = write(fd, buf, s->len);
	st->pos[s->file] = n < 0 ? -1 : (off_t)(s->offset + (uint64_t)n);
	return n;
}

static int sync_loop(struct bq_worker *w)
{
	return sync_engine_loop(w, sync_io);
}

const struct bq_engine_ops bq_engine_syncrw = {
	.name = "sync",
	.caps = BQ_ENGINE_SYNC,
	.setup = sync_setup,
	.loop = sync_loop,
	.teardown = sync_teardown,
};
