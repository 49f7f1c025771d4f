// SPDX-License-Identifier: GPL-2.0-only
/*
 * psync.c - one pread/pwrite per I/O, one I/O at a time
 *
 * fio's default engine and the baseline of many published command lines;
 * iodepth has no effect, as in fio.
 */
#include <errno.h>
#include <unistd.h>

#include "io/engine.h"

static int psync_loop(struct bq_worker *w)
{
	bool stamps = !w->job->gtod_reduce;
	struct bq_slot *s = &w->slots[0];
	uint64_t now = bq_now_ns();

	for (;;) {
		ssize_t n;

		if (!worker_may_start(w, 0, now)) {
			worker_sleep_until(w->next_submit_ns);
			now = bq_now_ns();
			continue;
		}
		if (!worker_next(w, s, now))
			return 0;
		/* Stamped once picked, so that the pick is not part of its latency. */
		if (stamps)
			now = bq_now_ns();
		slot_issued(s, now);
		if (s->dir == BQ_READ)
			n = pread(w->fds[s->file], w->bufs, s->len, (off_t)s->offset);
		else
			n = pwrite(w->fds[s->file], w->bufs, s->len, (off_t)s->offset);
		now = bq_now_ns();
		worker_complete(w, s, n < 0 ? -errno : (int)n, stamps ? now : 0);
		slot_done(s);
	}
}

const struct bq_engine_ops bq_engine_psync = {
	.name = "psync",
	.caps = BQ_ENGINE_SYNC,
	.loop = psync_loop,
};
