// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_engines.c - conformance checks across submission paths: polled
 * io_uring, io_uring against libaio against psync, and threads writing
 * side by side
 *
 * Polled I/O where the queue cannot poll: Linux 6.1 quietly drops the
 * polled flag and completes the request through interrupts; newer kernels
 * (6.18 here) fail it with EOPNOTSUPP.  Both are accepted when io_poll is
 * 0, as long as the data is right; what io_poll 1 promises, that polled
 * I/O works, is required.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "check.h"

#define MIB (1ull << 20)

/* One read or write of a batch, and how it ended (bytes or -errno). */
struct chk_op {
	bool write;
	char *buf;
	size_t len;
	uint64_t off;
	long res;
};

static const char *errname(long err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAGAIN: return "EAGAIN";
	default: return strerror((int)err);
	}
}

static int uring_batch(struct io_uring *ring, int fd, struct chk_op *ops, int n)
{
	struct io_uring_cqe *cqe;
	int done = 0, next = 0, ret;

	while (done < n) {
		struct io_uring_sqe *sqe;

		while (next < n && (sqe = io_uring_get_sqe(ring))) {
			if (ops[next].write)
				io_uring_prep_write(sqe, fd, ops[next].buf, (unsigned int)ops[next].len,
						    ops[next].off);
			else
				io_uring_prep_read(sqe, fd, ops[next].buf, (unsigned int)ops[next].len,
						   ops[next].off);
			io_uring_sqe_set_data64(sqe, (uint64_t)next);
			next++;
		}
		ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0 && ret != -EINTR)
			return ret;
		while (!io_uring_peek_cqe(ring, &cqe)) {
			ops[io_uring_cqe_get_data64(cqe)].res = cqe->res;
			io_uring_cqe_seen(ring, cqe);
			done++;
		}
	}
	return 0;
}

static int aio_batch(int fd, struct chk_op *ops, int n)
{
	struct iocb *cbs, **ptrs;
	struct io_event *ev;
	io_context_t ctx = 0;
	int ret, sent = 0, done = 0;

	ret = io_setup(n, &ctx);
	if (ret < 0)
		return ret;
	cbs = calloc((size_t)n, sizeof(*cbs));
	ptrs = calloc((size_t)n, sizeof(*ptrs));
	ev = calloc((size_t)n, sizeof(*ev));
	if (!cbs || !ptrs || !ev) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (int i = 0; i < n; i++) {
		if (ops[i].write)
			io_prep_pwrite(&cbs[i], fd, ops[i].buf, ops[i].len, (long long)ops[i].off);
		else
			io_prep_pread(&cbs[i], fd, ops[i].buf, ops[i].len, (long long)ops[i].off);
		cbs[i].data = &ops[i];
		ptrs[i] = &cbs[i];
	}
	while (sent < n) {
		ret = io_submit(ctx, n - sent, ptrs + sent);
		if (ret <= 0) {
			ret = ret ? ret : -EAGAIN;
			/* What was sent must still be reaped before the buffers go. */
			n = sent;
			break;
		}
		sent += ret;
	}
	while (done < sent) {
		int got = io_getevents(ctx, 1, sent - done, ev, NULL);

		if (got == -EINTR)
			continue;
		if (got < 0) {
			ret = got;
			break;
		}
		for (int i = 0; i < got; i++)
			((struct chk_op *)ev[i].data)->res = (long)ev[i].res;
		done += got;
	}
	if (ret > 0)
		ret = 0;
out_free:
	free(ev);
	free(ptrs);
	free(cbs);
	io_destroy(ctx);
	return ret;
}

static int psync_batch(int fd, struct chk_op *ops, int n)
{
	for (int i = 0; i < n; i++) {
		ssize_t r = ops[i].write ? pwrite(fd, ops[i].buf, ops[i].len, (off_t)ops[i].off) :
					   pread(fd, ops[i].buf, ops[i].len, (off_t)ops[i].off);

		ops[i].res = r < 0 ? -errno : (long)r;
	}
	return 0;
}

/*
 * A run of requests of mixed sizes laid end to end from @base, each in a
 * buffer of its own, none larger than @limit.  Return: the number of
 * requests.
 */
static int lay_out(struct bq_check_dev *cd, struct chk_op *ops, char *buf, uint64_t base,
		   uint64_t limit, uint64_t *total)
{
	uint64_t lbs = cd->lbs, big = cd->max_io + lbs;
	uint64_t sizes[] = { lbs, 4096, 3 * lbs, 65536, 131072 + lbs, 7 * lbs, 8192, big };
	uint64_t off = base;
	int n = 0;

	if (big > 4 * MIB)
		sizes[ARRAY_SIZE(sizes) - 1] = 4 * MIB;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (sizes[i] % lbs || sizes[i] > limit)
			continue;
		ops[n] = (struct chk_op){ .buf = buf + (off - base), .len = sizes[i], .off = off };
		off += sizes[i];
		n++;
	}
	*total = off - base;
	return n;
}

/* ---- polled_io --------------------------------------------------------- */

static enum bq_check_status polled_works(struct bq_check_dev *cd, struct bq_check_result *res,
					 struct io_uring *ring, uint64_t base)
{
	struct chk_op ops[8];
	uint64_t seed = chk_seed(cd), total;
	enum bq_check_status st = BQ_CHECK_PASS;
	char *wbuf, *rbuf, what[128];
	int n, ret;

	wbuf = chk_alloc(8 * MIB);
	rbuf = chk_alloc(8 * MIB);
	if (!wbuf || !rbuf) {
		st = chk_fail(res, "out of memory");
		goto out_free;
	}
	/*
	 * Nothing the kernel must split: a split polled I/O can wait forever
	 * (Linux 6.1 on NVMe and null_blk poll queues), and blkqual run
	 * refuses to poll such I/O for that reason.
	 */
	n = lay_out(cd, ops, wbuf, base, cd->max_io, &total);
	chk_fill(wbuf, total, base, seed);
	for (int i = 0; i < n; i++)
		ops[i].write = true;
	ret = uring_batch(ring, cd->fd, ops, n);
	for (int i = 0; i < n && !ret; i++)
		if (ops[i].res != (long)ops[i].len)
			ret = ops[i].res < 0 ? (int)ops[i].res : -EIO;
	if (ret) {
		st = chk_fail(res, "io_poll is 1 but polled writes failed: %s", errname(-ret));
		goto out_free;
	}
	chk_tamper(cd, base, total);
	for (int i = 0; i < n; i++) {
		ops[i].write = false;
		ops[i].buf = rbuf + (ops[i].off - base);
	}
	ret = uring_batch(ring, cd->fd, ops, n);
	for (int i = 0; i < n && !ret; i++)
		if (ops[i].res != (long)ops[i].len)
			ret = ops[i].res < 0 ? (int)ops[i].res : -EIO;
	if (ret) {
		st = chk_fail(res, "io_poll is 1 but polled reads failed: %s", errname(-ret));
		goto out_free;
	}
	for (int i = 0; i < n && st == BQ_CHECK_PASS; i++) {
		snprintf(what, sizeof(what), "polled write and read of %zu bytes at byte %llu",
			 ops[i].len, (unsigned long long)ops[i].off);
		st = chk_compare(cd, res, ops[i].buf, ops[i].off, ops[i].len, seed, what);
	}
	if (st == BQ_CHECK_PASS)
		st = chk_pass(res, "io_poll is 1: %d polled writes and reads of %zu to %zu bytes "
			      "(IORING_SETUP_IOPOLL, O_DIRECT) read back intact", n, ops[0].len,
			      ops[n - 1].len);
out_free:
	free(rbuf);
	free(wbuf);
	return st;
}

static enum bq_check_status polled_refused(struct bq_check_dev *cd, struct bq_check_result *res,
					   struct io_uring *ring, uint64_t base)
{
	uint64_t lbs = cd->lbs, keep = chk_seed(cd), seed = chk_seed(cd);
	struct chk_op op[2];
	char *buf = chk_alloc(2 * lbs);
	enum bq_check_status st;
	int ret;

	if (!buf)
		return chk_fail(res, "out of memory");
	ret = chk_write_pattern(cd, base, lbs, keep);
	if (ret) {
		st = chk_fail(res, "O_DIRECT write of the reference data: %s", strerror(-ret));
		goto out_free;
	}
	chk_fill(buf, lbs, base, seed);
	op[0] = (struct chk_op){ .write = true, .buf = buf, .len = lbs, .off = base };
	op[1] = (struct chk_op){ .buf = buf + lbs, .len = lbs, .off = base };
	/* One at a time: the read must see what the write did or did not do. */
	ret = uring_batch(ring, cd->fd, &op[0], 1);
	ret = ret ?: uring_batch(ring, cd->fd, &op[1], 1);
	if (ret) {
		st = chk_fail(res, "io_uring: %s", errname(-ret));
		goto out_free;
	}
	if (op[0].res == -EOPNOTSUPP && op[1].res == -EOPNOTSUPP) {
		chk_tamper(cd, base, lbs);
		st = chk_verify(cd, res, base, lbs, keep, "refused polled write");
		if (st == BQ_CHECK_PASS)
			st = chk_pass(res, "io_poll is 0 and polled reads and writes are refused with "
				      "EOPNOTSUPP, nothing written");
	} else if (op[0].res == (long)lbs && op[1].res == (long)lbs) {
		chk_tamper(cd, base, lbs);
		st = chk_verify(cd, res, base, lbs, seed, "polled write where io_poll is 0");
		if (st == BQ_CHECK_PASS)
			st = chk_compare(cd, res, buf + lbs, base, lbs, seed,
					 "polled read where io_poll is 0");
		if (st == BQ_CHECK_PASS)
			st = chk_pass(res, "io_poll is 0 and this kernel completes polled I/O through "
				      "interrupts instead of refusing it (Linux 6.1 does; newer "
				      "kernels return EOPNOTSUPP), data intact");
	} else {
		st = chk_fail(res, "io_poll is 0: polled write %s, polled read %s; expected both "
			      "refused with EOPNOTSUPP (or, on older kernels, both completed)",
			      op[0].res < 0 ? errname(-op[0].res) : "completed",
			      op[1].res < 0 ? errname(-op[1].res) : "completed");
	}
out_free:
	free(buf);
	return st;
}

enum bq_check_status bq_check_polled(struct bq_check_dev *cd, struct bq_check_result *res)
{
	int io_poll = cd->dev.q.io_poll, ret;
	enum bq_check_status st;
	struct io_uring ring;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 32 * MIB))
		return res->status;
	if (io_poll != 0 && io_poll != 1)
		return chk_skip(res, "the queue has no io_poll attribute to hold the device to");
	ret = io_uring_queue_init(16, &ring, IORING_SETUP_IOPOLL);
	if (ret)
		return chk_skip(res, "io_uring with IORING_SETUP_IOPOLL unavailable: %s",
				strerror(-ret));
	if (io_poll)
		st = polled_works(cd, res, &ring, 20 * MIB);
	else
		st = polled_refused(cd, res, &ring, 20 * MIB);
	io_uring_queue_exit(&ring);
	return st;
}

/* ---- engines_agree ----------------------------------------------------- */

enum engine { ENG_PSYNC, ENG_URING, ENG_AIO, ENG_BUFFERED, NR_ENGINES };

static const char *const engine_names[] = {
	[ENG_PSYNC] = "psync",
	[ENG_URING] = "io_uring",
	[ENG_AIO] = "libaio",
	[ENG_BUFFERED] = "buffered psync",
};

static int engine_batch(struct bq_check_dev *cd, struct io_uring *ring, enum engine e,
			struct chk_op *ops, int n)
{
	switch (e) {
	case ENG_URING:
		return uring_batch(ring, cd->fd, ops, n);
	case ENG_AIO:
		return aio_batch(cd->fd, ops, n);
	case ENG_BUFFERED:
		/* Nothing cached may answer for the device. */
		if (ioctl(cd->bfd, BLKFLSBUF, 0))
			posix_fadvise(cd->bfd, 0, 0, POSIX_FADV_DONTNEED);
		return psync_batch(cd->bfd, ops, n);
	default:
		return psync_batch(cd->fd, ops, n);
	}
}

static enum bq_check_status engines_round(struct bq_check_dev *cd, struct bq_check_result *res,
					  struct io_uring *ring, const bool *have, enum engine w,
					  uint64_t base, char *wbuf, char *rbuf, uint64_t *bytes)
{
	struct chk_op ops[8];
	uint64_t seed = chk_seed(cd), total;
	enum bq_check_status st = BQ_CHECK_PASS;
	char what[128];
	int n, ret;

	n = lay_out(cd, ops, wbuf, base, UINT64_MAX, &total);
	chk_fill(wbuf, total, base, seed);
	for (int i = 0; i < n; i++)
		ops[i].write = true;
	ret = engine_batch(cd, ring, w, ops, n);
	for (int i = 0; i < n && !ret; i++)
		if (ops[i].res != (long)ops[i].len)
			ret = ops[i].res < 0 ? (int)ops[i].res : -EIO;
	if (ret)
		return chk_fail(res, "%s writes: %s", engine_names[w], errname(-ret));
	chk_tamper(cd, base, total);
	for (int r = 0; r < NR_ENGINES && st == BQ_CHECK_PASS; r++) {
		if (!have[r])
			continue;
		memset(rbuf, 0, total);
		for (int i = 0; i < n; i++) {
			ops[i].write = false;
			ops[i].buf = rbuf + (ops[i].off - base);
			ops[i].res = 0;
		}
		ret = engine_batch(cd, ring, (enum engine)r, ops, n);
		for (int i = 0; i < n && !ret; i++)
			if (ops[i].res != (long)ops[i].len)
				ret = ops[i].res < 0 ? (int)ops[i].res : -EIO;
		if (ret)
			return chk_fail(res, "%s reads of what %s wrote: %s", engine_names[r],
					engine_names[w], errname(-ret));
		snprintf(what, sizeof(what), "written with %s, read with %s", engine_names[w],
			 engine_names[r]);
		st = chk_compare(cd, res, rbuf, base, total, seed, what);
		*bytes += total;
	}
	return st;
}

enum bq_check_status bq_check_engines(struct bq_check_dev *cd, struct bq_check_result *res)
{
	bool have[NR_ENGINES] = { true, true, true, true };
	enum bq_check_status st = BQ_CHECK_PASS;
	uint64_t base = 12 * MIB, bytes = 0;
	struct io_uring ring;
	io_context_t actx = 0;
	char *wbuf, *rbuf, sz[32], missing[64] = "";
	int writers = 0;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 32 * MIB))
		return res->status;
	if (io_uring_queue_init(16, &ring, 0)) {
		have[ENG_URING] = false;
		strcat(missing, " io_uring");
	}
	if (io_setup(1, &actx)) {
		have[ENG_AIO] = false;
		strcat(missing, " libaio");
	} else {
		io_destroy(actx);
	}
	if (!have[ENG_URING] && !have[ENG_AIO]) {
		st = chk_skip(res, "neither io_uring nor libaio is available to compare with psync");
		goto out_exit;
	}
	wbuf = chk_alloc(8 * MIB);
	rbuf = chk_alloc(8 * MIB);
	if (!wbuf || !rbuf) {
		st = chk_fail(res, "out of memory");
		goto out_free;
	}
	for (int w = ENG_PSYNC; w <= ENG_AIO && st == BQ_CHECK_PASS; w++) {
		if (!have[w])
			continue;
		st = engines_round(cd, res, &ring, have, (enum engine)w, base, wbuf, rbuf, &bytes);
		writers++;
	}
	if (st != BQ_CHECK_PASS)
		goto out_free;
	chk_size(sz, sizeof(sz), bytes);
	st = chk_pass(res, "%d engines wrote, psync%s%s and buffered psync read back the same "
		      "data: %s compared%s%s", writers, have[ENG_URING] ? ", io_uring" : "",
		      have[ENG_AIO] ? ", libaio" : "", sz, missing[0] ? "; unavailable:" : "",
		      missing);
out_free:
	free(rbuf);
	free(wbuf);
out_exit:
	if (have[ENG_URING])
		io_uring_queue_exit(&ring);
	return st;
}

/* ---- concurrent_writers ------------------------------------------------ */

#define WRITERS 4
#define PASSES 2

struct span {
	uint32_t first;
	uint32_t nr;
};

struct writer {
	struct bq_check_dev *cd;
	pthread_barrier_t *start;
	int fd;
	bool buffered;
	uint64_t base;
	uint64_t seed[PASSES];
	struct span *spans;
	int nr_spans;
	int err;
	uint64_t err_off;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	uint64_t lbs = w->cd->lbs, r = w->seed[0] | 1;
	char *buf = chk_alloc(16 * lbs);

	pthread_barrier_wait(w->start);
	if (!buf) {
		w->err = ENOMEM;
		return NULL;
	}
	for (int p = 0; p < PASSES && !w->err; p++) {
		/* A different order each pass, so neighbours race differently. */
		for (int i = w->nr_spans - 1; i > 0; i--) {
			int j = (int)(rnd(&r) % (uint64_t)(i + 1));
			struct span t = w->spans[i];

			w->spans[i] = w->spans[j];
			w->spans[j] = t;
		}
		for (int i = 0; i < w->nr_spans && !w->err; i++) {
			uint64_t off = w->base + w->spans[i].first * lbs;
			size_t len = w->spans[i].nr * lbs;
			ssize_t n;

			chk_fill(buf, len, off, w->seed[p]);
			n = pwrite(w->fd, buf, len, (off_t)off);
			if (n != (ssize_t)len) {
				w->err = n < 0 ? errno : EIO;
				w->err_off = off;
			}
		}
	}
	if (!w->err && w->buffered && fdatasync(w->fd)) {
		w->err = errno;
		w->err_off = w->base;
	}
	free(buf);
	return NULL;
}

/*
 * The region's blocks are dealt out: one at a time round-robin in its
 * first half (every neighbour belongs to another thread, and with 512-byte
 * blocks every 4 KiB page holds blocks of all four), in runs of 1 to 16 blocks in
 * its second half.
 */
static void deal(uint8_t *owner, uint32_t nr)
{
	uint32_t i = 0, run = 0;

	for (; i < nr / 2; i++)
		owner[i] = (uint8_t)(i % WRITERS);
	while (i < nr) {
		uint32_t len = 1 + (uint32_t)(((uint64_t)run * 0x9e3779b97f4a7c15ull) >> 60);

		for (uint32_t k = 0; k < len && i < nr; k++)
			owner[i++] = (uint8_t)(run % WRITERS);
		run++;
	}
}

static int spans_of(const uint8_t *owner, uint32_t nr, int t, struct span *spans)
{
	int n = 0;

	for (uint32_t i = 0; i < nr; i++) {
		if (owner[i] != t)
			continue;
		/* Runs longer than 16 blocks do not occur; keep them under the buffer. */
		if (n && spans[n - 1].first + spans[n - 1].nr == i && spans[n - 1].nr < 16)
			spans[n - 1].nr++;
		else
			spans[n++] = (struct span){ .first = i, .nr = 1 };
	}
	return n;
}

static enum bq_check_status writers_phase(struct bq_check_dev *cd, struct bq_check_result *res,
					  struct writer *w, bool buffered, const uint8_t *owner,
					  uint32_t nr, uint64_t base, char *rbuf)
{
	const char *how = buffered ? "buffered" : "O_DIRECT";
	pthread_barrier_t start;
	pthread_t tid[WRITERS];
	uint64_t lbs = cd->lbs;
	int started = 0, ret = 0;

	pthread_barrier_init(&start, NULL, WRITERS);
	for (int t = 0; t < WRITERS; t++) {
		w[t].start = &start;
		w[t].fd = buffered ? cd->bfd : cd->fd;
		w[t].buffered = buffered;
		w[t].err = 0;
		for (int p = 0; p < PASSES; p++)
			w[t].seed[p] = chk_seed(cd);
	}
	for (; started < WRITERS; started++) {
		ret = pthread_create(&tid[started], NULL, writer_fn, &w[started]);
		if (ret)
			break;
	}
	/* A thread that could not start leaves the others waiting at the barrier. */
	if (ret) {
		for (int t = started; t < WRITERS; t++)
			pthread_barrier_wait(&start);
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&start);
	if (ret)
		return chk_fail(res, "starting %d threads: %s", WRITERS, strerror(ret));
	for (int t = 0; t < WRITERS; t++)
		if (w[t].err)
			return chk_fail(res, "%s writer %d at byte %llu: %s", how, t,
					(unsigned long long)w[t].err_off, strerror(w[t].err));
	chk_tamper(cd, base, nr * lbs);
	ret = chk_pread(cd->fd, rbuf, nr * lbs, base);
	if (ret)
		return chk_fail(res, "reading the region back: %s", strerror(-ret));
	for (uint32_t i = 0; i < nr; i++) {
		const char *blk = rbuf + i * lbs;
		uint64_t off = base + i * lbs;
		char holds[64] = "other data";

		if (chk_first_diff(blk, lbs, off, w[owner[i]].seed[PASSES - 1]) == lbs)
			continue;
		for (int t = 0; t < WRITERS; t++)
			for (int p = 0; p < PASSES; p++)
				if (chk_first_diff(blk, lbs, off, w[t].seed[p]) == lbs)
					snprintf(holds, sizeof(holds), "writer %d's pass %d data", t,
						 p + 1);
		if (chk_first_diff(blk, lbs, off, CHK_ZEROES) == lbs)
			snprintf(holds, sizeof(holds), "zeroes");
		return chk_fail(res, "%d %s writers: data mismatch at byte %llu: writer %d's block "
				"holds %s instead of its pass %d data", WRITERS, how,
				(unsigned long long)off, owner[i], holds, PASSES);
	}
	return BQ_CHECK_PASS;
}

enum bq_check_status bq_check_concurrent(struct bq_check_dev *cd, struct bq_check_result *res)
{
	uint64_t lbs = cd->lbs, base = 28 * MIB, region = 2 * MIB;
	uint32_t nr = (uint32_t)(region / lbs);
	enum bq_check_status st = BQ_CHECK_PASS;
	struct writer w[WRITERS] = { 0 };
	uint8_t *owner;
	char *rbuf, bsz[32];
	int writes = 0;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 32 * MIB))
		return res->status;
	owner = calloc(nr, 1);
	rbuf = chk_alloc(region);
	if (!owner || !rbuf) {
		st = chk_fail(res, "out of memory");
		goto out_free;
	}
	deal(owner, nr);
	for (int t = 0; t < WRITERS; t++) {
		w[t].cd = cd;
		w[t].base = base;
		w[t].spans = calloc(nr, sizeof(*w[t].spans));
		if (!w[t].spans) {
			st = chk_fail(res, "out of memory");
			goto out_free;
		}
		w[t].nr_spans = spans_of(owner, nr, t, w[t].spans);
		writes += w[t].nr_spans;
	}
	st = writers_phase(cd, res, w, false, owner, nr, base, rbuf);
	if (st == BQ_CHECK_PASS)
		st = writers_phase(cd, res, w, true, owner, nr, base, rbuf);
	if (st != BQ_CHECK_PASS)
		goto out_free;
	chk_size(bsz, sizeof(bsz), lbs);
	st = chk_pass(res, "%d threads, %d passes each, O_DIRECT then buffered: %d writes to "
		      "%u interleaved %s blocks, every block holds its own writer's last data",
		      WRITERS, PASSES, 2 * PASSES * writes, nr, bsz);
out_free:
	for (int t = 0; t < WRITERS; t++)
		free(w[t].spans);
	free(rbuf);
	free(owner);
	return st;
}
