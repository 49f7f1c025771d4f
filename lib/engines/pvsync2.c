// SPDX-License-Identifier: GPL-2.0-only
/*
 * pvsync2.c - fio's "pvsync2" engine: preadv2(2)/pwritev2(2) with
 * per-I/O flags
 *
 * hipri=1 sets RWF_HIPRI, so that the thread polls for its own
 * completion instead of sleeping until the interrupt; hipri_percentage
 * sets it on that share of the I/Os only.  Whether the device can poll
 * was decided before the start (bq_poll_decide(): hipri=1 on a device
 * without poll queues is refused, as for io_uring, because the kernel
 * would quietly fall back to interrupts).  uncached=1 sets RWF_DONTCACHE
 * on buffered I/O (dropped from the page cache once done), nowait=1
 * RWF_NOWAIT (fail with EAGAIN rather than block).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/atomic.h"
#include "sync_loop.h"

/* Headers older than Linux 6.14 lack it; the kernel's value is fixed. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE	0x00000080
#endif

/**
 * struct pvsync2_state - one thread's flags
 * @flags: set on every I/O
 * @write_flags: set on writes too (RWF_ATOMIC with atomic=1)
 * @hipri_pct: share of I/Os, in percent, that also get RWF_HIPRI
 * @rng: the draws for @hipri_pct, apart from the workload's, so that a
 *       job picks the same offsets whatever its hipri_percentage
 */
struct pvsync2_state {
	int flags;
	int write_flags;
	unsigned int hipri_pct;
	struct bq_offgen rng;
};

/*
 * A flag the kernel does not take for this file fails every I/O the
 * same way; find out once, with a read at the end of the file, which
 * the kernel checks the flags of but which transfers nothing.
 */
static int probe_flag(struct bq_worker *w, int flag, const char *what)
{
	for (int i = 0; i < w->nr_fds; i++) {
		off_t end = lseek(w->fds[i], 0, SEEK_END);
		struct iovec iov = { .iov_base = w->bufs, .iov_len = w->buf_len };

		if (end < 0 || preadv2(w->fds[i], &iov, 1, end, flag) >= 0)
			continue;
		if (errno != EOPNOTSUPP && errno != EINVAL)
			continue;
		snprintf(w->setup_msg, sizeof(w->setup_msg),
			 "%s: the kernel does not take %s for file %d",
			 what, flag == RWF_DONTCACHE ? "RWF_DONTCACHE (Linux 6.14 and later)" :
			 "RWF_NOWAIT", i + 1);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int pvsync2_setup(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_offgen_params p = { .nblocks = 1, .seed = 0x68697072ULL + (uint64_t)w->index };
	struct pvsync2_state *st = calloc(1, sizeof(*st));
	int ret;

	if (!st) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "out of memory");
		return -ENOMEM;
	}
	w->engine = st;
	/* As in fio, uncached means nothing to direct I/O, which bypasses the cache. */
	if (j->uncached && !j->direct) {
		ret = probe_flag(w, RWF_DONTCACHE, "uncached=1");
		if (ret)
			return ret;
		st->flags |= RWF_DONTCACHE;
	}
	if (j->nowait) {
		ret = probe_flag(w, RWF_NOWAIT, "nowait=1");
		if (ret)
			return ret;
		st->flags |= RWF_NOWAIT;
	}
	st->write_flags = j->atomic ? RWF_ATOMIC : 0;
	st->hipri_pct = w->polled ? j->hipri_percentage : 0;
	bq_offgen_init(&st->rng, &p);
	return 0;
}

static ssize_t pvsync2_io(struct bq_worker *w, const struct bq_slot *s, void *buf)
{
	struct pvsync2_state *st = w->engine;
	struct iovec iov = { .iov_base = buf, .iov_len = s->len };
	int flags = st->flags;

	if (st->hipri_pct && (st->hipri_pct >= 100 || bq_bounded(&st->rng, 100) < st->hipri_pct))
		flags |= RWF_HIPRI;
	if (s->dir == BQ_READ)
		return preadv2(w->fds[s->file], &iov, 1, (off_t)s->offset, flags);
	return pwritev2(w->fds[s->file], &iov, 1, (off_t)s->offset, flags | st->write_flags);
}

static int pvsync2_loop(struct bq_worker *w)
{
	return sync_engine_loop(w, pvsync2_io);
}

static void pvsync2_teardown(struct bq_worker *w)
{
	free(w->engine);
	w->engine = NULL;
}

const struct bq_engine_ops bq_engine_pvsync2 = {
	.name = "pvsync2",
	.caps = BQ_ENGINE_SYNC | BQ_ENGINE_HIPRI,
	.setup = pvsync2_setup,
	.loop = pvsync2_loop,
	.teardown = pvsync2_teardown,
};
