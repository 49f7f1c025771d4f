// SPDX-License-Identifier: GPL-2.0-only
/*
 * psync.c - one pread/pwrite per I/O, one I/O at a time
 *
 * fio's default engine and the baseline of many published command lines;
 * iodepth has no effect, as in fio.
 */
#include <errno.h>
#include <unistd.h>

#include "sync_loop.h"

static ssize_t psync_io(struct bq_worker *w, const struct bq_slot *s, void *buf)
{
	if (s->dir == BQ_READ)
		return pread(w->fds[s->file], buf, s->len, (off_t)s->offset);
	return pwrite(w->fds[s->file], buf, s->len, (off_t)s->offset);
}

static int psync_loop(struct bq_worker *w)
{
	return sync_engine_loop(w, psync_io);
}

const struct bq_engine_ops bq_engine_psync = {
	.name = "psync",
	.caps = BQ_ENGINE_SYNC,
	.loop = psync_loop,
};
