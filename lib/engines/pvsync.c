// SPDX-License-Identifier: GPL-2.0-only
/*
 * pvsync.c - fio's "pvsync" engine: preadv(2)/pwritev(2), one vector
 *
 * The same transfer as psync through the vectored calls, which take a
 * different path into the kernel (import of an iovec array).
 */
#include <sys/uio.h>

#include "sync_loop.h"

static ssize_t pvsync_io(struct bq_worker *w, const struct bq_slot *s, void *buf)
{
	struct iovec iov = { .iov_base = buf, .iov_len = s->len };

	if (s->dir == BQ_READ)
		return preadv(w->fds[s->file], &iov, 1, (off_t)s->offset);
	return pwritev(w->fds[s->file], &iov, 1, (off_t)s->offset);
}

static int pvsync_loop(struct bq_worker *w)
{
	return sync_engine_loop(w, pvsync_io);
}

const struct bq_engine_ops bq_engine_pvsync = {
	.name = "pvsync",
	.caps = BQ_ENGINE_SYNC,
	.loop = pvsync_loop,
};
