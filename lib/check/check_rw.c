// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_rw.c - conformance checks on plain reads and writes: data
 * integrity across request splits, O_DIRECT alignment rules, the end of
 * the device, and flushes
 *
 * What the kernel does at the edges (block/fops.c, Linux 6.1 to 6.18):
 * an O_DIRECT request whose offset or length is off the logical block
 * size fails with EINVAL before any I/O (a buffer off dma_alignment too,
 * except that 6.18 takes one that fits a single segment); a read
 * starting at or past the end returns 0 bytes; a write starting there
 * fails with ENOSPC; a request across the end is cut at the end and
 * returns the short count.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fs.h>

#include "check.h"

#define MIB (1ull << 20)

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* ---- read_after_write ------------------------------------------------- */

static int add_size(uint64_t *sizes, int n, int max, uint64_t s, uint64_t lbs, uint64_t cap)
{
	if (!s || s % lbs || s > cap || n == max)
		return n;
	for (int i = 0; i < n; i++)
		if (sizes[i] == s)
			return n;
	sizes[n] = s;
	return n + 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Write @len bytes at @off from a buffer @boff bytes into a page, then
 * read back one block more on each side: the range must hold the new
 * pattern and its neighbours what they held before.
 */
static enum bq_check_status write_and_verify(struct bq_check_dev *cd,
					     struct bq_check_result *res, uint64_t off,
					     uint64_t len, size_t boff, char *wbuf, char *rbuf)
{
	uint64_t lbs = cd->lbs, seed = chk_seed(cd);
	char what[128], sz[32];
	int ret;

	chk_size(sz, sizeof(sz), len);
	snprintf(what, sizeof(what), "O_DIRECT write of %s at byte %llu", sz,
		 (unsigned long long)off);
	/* The neighbours as they are now. */
	ret = chk_pread(cd->fd, rbuf, lbs, off - lbs);
	ret = ret ?: chk_pread(cd->fd, rbuf + lbs, lbs, off + len);
	if (ret)
		return chk_fail(res, "%s: reading its neighbours first: %s", what, strerror(-ret));
	memcpy(wbuf + boff + len, rbuf, 2 * lbs);	/* stash them past the data */
	chk_fill(wbuf + boff, len, off, seed);
	ret = chk_pwrite(cd->fd, wbuf + boff, len, off);
	if (ret)
		return chk_fail(res, "%s: %s", what, strerror(-ret));
	chk_tamper(cd, off, len);
	/* One read larger than the write, so the read is split too. */
	ret = chk_pread(cd->fd, rbuf, len + 2 * lbs, off - lbs);
	if (ret)
		return chk_fail(res, "%s: reading it back: %s", what, strerror(-ret));
	if (memcmp(rbuf, wbuf + boff + len, lbs))
		return chk_fail(res, "%s: the block before it (byte %llu) changed", what,
				(unsigned long long)(off - lbs));
	if (memcmp(rbuf + lbs + len, wbuf + boff + len + lbs, lbs))
		return chk_fail(res, "%s: the block after it (byte %llu) changed", what,
				(unsigned long long)(off + len));
	return chk_compare(cd, res, rbuf + lbs, off, len, seed, what);
}

/*
 * One block per iovec, each in a page of its own, more iovecs than
 * max_segments: the kernel has to split by segment count, not size.
 */
static enum bq_check_status vectored(struct bq_check_dev *cd, struct bq_check_result *res,
				     uint64_t off, int *nr_iov)
{
	uint64_t lbs = cd->lbs, seed = chk_seed(cd);
	int n = (int)min_u64(cd->dev.q.max_segments ? cd->dev.q.max_segments + 3 : 260, 1024);
	size_t stride = lbs < 4096 ? 4096 : lbs;
	enum bq_check_status st = BQ_CHECK_PASS;
	struct iovec *iov;
	char what[128];
	char *buf;
	ssize_t w;

	snprintf(what, sizeof(what), "pwritev of %d one-block iovecs at byte %llu", n,
		 (unsigned long long)off);
	iov = calloc((size_t)n, sizeof(*iov));
	buf = chk_alloc((size_t)n * stride);
	if (!iov || !buf) {
		st = chk_fail(res, "%s: out of memory", what);
		goto out_free;
	}
	for (int i = 0; i < n; i++) {
		iov[i].iov_base = buf + (size_t)i * stride;
		iov[i].iov_len = lbs;
		chk_fill(iov[i].iov_base, lbs, off + (uint64_t)i * lbs, seed);
	}
	w = pwritev(cd->fd, iov, n, (off_t)off);
	if (w != (ssize_t)(n * lbs)) {
		st = chk_fail(res, "%s: %s", what, w < 0 ? strerror(errno) : "short write");
		goto out_free;
	}
	chk_tamper(cd, off, (size_t)n * lbs);
	st = chk_verify(cd, res, off, (size_t)n * lbs, seed, what);
	*nr_iov = n;
out_free:
	free(buf);
	free(iov);
	return st;
}

/*
 * Buffered writes at byte offsets: the page cache reads, modifies and
 * writes back whole blocks around them, which O_DIRECT never exercises.
 */
static enum bq_check_status buffered(struct bq_check_dev *cd, struct bq_check_result *res,
				     uint64_t base, uint64_t boff, uint64_t len)
{
	uint64_t lbs = cd->lbs, first = base, span = round_up(boff + len, lbs);
	uint64_t seed = chk_seed(cd), seed2 = chk_seed(cd);
	enum bq_check_status st = BQ_CHECK_PASS;
	char *expect, *got, what[128];
	int ret;

	snprintf(what, sizeof(what), "buffered write of %llu bytes at byte %llu",
		 (unsigned long long)len, (unsigned long long)(first + boff));
	expect = chk_alloc(span);
	got = chk_alloc(span);
	if (!expect || !got) {
		st = chk_fail(res, "%s: out of memory", what);
		goto out_free;
	}
	ret = chk_write_pattern(cd, first, span, seed);
	chk_fill(expect, span, first, seed);
	chk_fill(got, span, first, seed2);
	memcpy(expect + boff, got + boff, len);
	if (!ret)
		ret = chk_pwrite(cd->bfd, expect + boff, len, first + boff);
	if (!ret && fdatasync(cd->bfd))
		ret = -errno;
	if (ret) {
		st = chk_fail(res, "%s: %s", what, strerror(-ret));
		goto out_free;
	}
	chk_tamper(cd, first, span);
	ret = chk_pread(cd->fd, got, span, first);
	if (ret) {
		st = chk_fail(res, "%s: reading it back: %s", what, strerror(-ret));
		goto out_free;
	}
	for (uint64_t i = 0; i < span; i++) {
		if (got[i] != expect[i]) {
			st = chk_fail(res, "%s: data mismatch at byte %llu (%s)", what,
				      (unsigned long long)(first + i),
				      i >= boff && i < boff + len ? "inside the write" :
				      "beside the write, in the same block");
			break;
		}
	}
out_free:
	free(got);
	free(expect);
	return st;
}

enum bq_check_status bq_check_read_after_write(struct bq_check_dev *cd,
					       struct bq_check_result *res)
{
	uint64_t lbs = cd->lbs, ms = cd->max_io, mhw = cd->dev.q.max_hw_sectors_kb * 1024ull;
	uint64_t sizes[24], cap, base = MIB, offs[3];
	size_t boff[2] = { 0, 0 };
	char *wbuf, *rbuf, lo[32], hi[32], msz[32];
	enum bq_check_status st = BQ_CHECK_PASS;
	int n = 0, ios = 0, nr_iov = 0;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 16 * MIB))
		return res->status;
	/* Sizes that must split stay within a quarter of the device and 64 MiB. */
	cap = min_u64(cd->size / 4, 64 * MIB) / lbs * lbs;
	n = add_size(sizes, n, 24, lbs, lbs, cap);
	n = add_size(sizes, n, 24, 2 * lbs, lbs, cap);
	n = add_size(sizes, n, 24, 4096, lbs, cap);
	n = add_size(sizes, n, 24, 4096 + lbs, lbs, cap);
	n = add_size(sizes, n, 24, 7 * lbs, lbs, cap);
	n = add_size(sizes, n, 24, 65536 - lbs, lbs, cap);
	n = add_size(sizes, n, 24, 65536, lbs, cap);
	n = add_size(sizes, n, 24, 131072 + lbs, lbs, cap);
	n = add_size(sizes, n, 24, ms - lbs, lbs, cap);
	n = add_size(sizes, n, 24, ms, lbs, cap);
	n = add_size(sizes, n, 24, ms + lbs, lbs, cap);
	n = add_size(sizes, n, 24, 2 * ms + 3 * lbs, lbs, cap);
	if (mhw > ms)
		n = add_size(sizes, n, 24, mhw + lbs, lbs, cap);
	n = add_size(sizes, n, 24, 4 * ms, lbs, cap);
	qsort(sizes, (size_t)n, sizeof(*sizes), cmp_u64);
	/* Buffers off the page start, where dma_alignment allows it. */
	if (cd->dev.q.dma_alignment < lbs)
		boff[1] = lbs;
	wbuf = chk_alloc(sizes[n - 1] + 4 * lbs + 4096);
	rbuf = chk_alloc(sizes[n - 1] + 4 * lbs + 4096);
	if (!wbuf || !rbuf) {
		st = chk_fail(res, "out of memory for %llu bytes", (unsigned long long)sizes[n - 1]);
		goto out_free;
	}
	for (int i = 0; i < n && st == BQ_CHECK_PASS; i++) {
		/* Aligned to a MiB, one block off it, and an odd block count off 4 KiB. */
		offs[0] = base;
		offs[1] = base + lbs;
		offs[2] = base + 4096 + 3 * lbs;
		for (int j = 0; j < 3 && st == BQ_CHECK_PASS; j++, ios++)
			st = write_and_verify(cd, res, offs[j], sizes[i], boff[(i + j) % 2], wbuf,
					      rbuf);
	}
	if (st == BQ_CHECK_PASS)
		st = vectored(cd, res, base + lbs, &nr_iov);
	if (st == BQ_CHECK_PASS)
		st = buffered(cd, res, base, 333 % lbs, 1000);
	if (st == BQ_CHECK_PASS)
		st = buffered(cd, res, base + 4 * lbs, lbs - 7, 4096 + 14);
	if (st == BQ_CHECK_PASS)
		st = buffered(cd, res, base + 8 * lbs, 1, ms + 77);
	if (st != BQ_CHECK_PASS)
		goto out_free;
	chk_size(lo, sizeof(lo), sizes[0]);
	chk_size(hi, sizeof(hi), sizes[n - 1]);
	chk_size(msz, sizeof(msz), ms);
	st = chk_pass(res, "%d O_DIRECT writes of %d sizes from %s to %s (max_sectors %s) at "
		      "3 alignments, a %d-iovec pwritev and 3 buffered writes at byte offsets "
		      "read back intact, neighbours untouched", ios, n, lo, hi, msz, nr_iov);
out_free:
	free(rbuf);
	free(wbuf);
	return st;
}

/* ---- misaligned_direct ------------------------------------------------- */

static const char *errname(int err)
{
	switch (err) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EIO: return "EIO";
	case EAGAIN: return "EAGAIN";
	default: return strerror(err);
	}
}

/* One misaligned O_DIRECT call: it must fail with EINVAL. */
static enum bq_check_status expect_einval(struct bq_check_result *res, bool write, int fd,
					  char *buf, size_t len, uint64_t off, const char *how)
{
	ssize_t n = write ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);

	if (n < 0 && errno == EINVAL)
		return BQ_CHECK_PASS;
	if (n >= 0)
		return chk_fail(res, "O_DIRECT %s %s: transferred %zd bytes instead of failing "
				"with EINVAL", write ? "write" : "read", how, n);
	return chk_fail(res, "O_DIRECT %s %s: %s instead of EINVAL", write ? "write" : "read",
			how, errname(errno));
}

static int uring_one(struct io_uring *ring, bool write, int fd, void *buf, size_t len,
		     uint64_t off, int rw_flags)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned int)len, off);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned int)len, off);
	sqe->rw_flags = rw_flags;
	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	do
		ret = io_uring_wait_cqe(ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/*
 * A buffer off dma_alignment: older kernels refuse every one with EINVAL;
 * Linux 6.18 takes one that fits a single segment and moves the data
 * correctly.  Either is right; anything else, or wrong data, is not.
 */
static enum bq_check_status misaligned_buffer(struct bq_check_dev *cd,
					      struct bq_check_result *res, uint64_t at,
					      char *buf, int *accepted)
{
	uint64_t lbs = cd->lbs, keep = chk_seed(cd), seed = chk_seed(cd);
	enum bq_check_status st;
	ssize_t n;
	int ret;

	ret = chk_write_pattern(cd, at, lbs, keep);
	if (ret)
		return chk_fail(res, "O_DIRECT write of the reference data: %s", strerror(-ret));
	n = pread(cd->fd, buf + 1, lbs, (off_t)at);
	if (n < 0 && errno != EINVAL)
		return chk_fail(res, "O_DIRECT read into a buffer one byte off: %s instead of "
				"EINVAL", errname(errno));
	if (n >= 0) {
		if ((uint64_t)n != lbs)
			return chk_fail(res, "O_DIRECT read into a buffer one byte off: %zd bytes "
					"of %llu", n, (unsigned long long)lbs);
		(*accepted)++;
		st = chk_compare(cd, res, buf + 1, at, lbs, keep,
				 "O_DIRECT read into a buffer one byte off");
		if (st != BQ_CHECK_PASS)
			return st;
	}
	chk_fill(buf + 1, lbs, at, seed);
	n = pwrite(cd->fd, buf + 1, lbs, (off_t)at);
	if (n < 0 && errno != EINVAL)
		return chk_fail(res, "O_DIRECT write from a buffer one byte off: %s instead of "
				"EINVAL", errname(errno));
	if (n >= 0 && (uint64_t)n != lbs)
		return chk_fail(res, "O_DIRECT write from a buffer one byte off: %zd bytes of %llu",
				n, (unsigned long long)lbs);
	*accepted += n >= 0;
	chk_tamper(cd, at, lbs);
	return chk_verify(cd, res, at, lbs, n < 0 ? keep : seed,
			  n < 0 ? "after a refused O_DIRECT write from a buffer one byte off" :
			  "O_DIRECT write from a buffer one byte off");
}

enum bq_check_status bq_check_misaligned(struct bq_check_dev *cd, struct bq_check_result *res)
{
	uint64_t lbs = cd->lbs, base = 2 * MIB, len = 4 * (lbs < 4096 ? 4096 : lbs);
	uint64_t seed = chk_seed(cd);
	enum bq_check_status st = BQ_CHECK_PASS;
	uint32_t dma = cd->dev.q.dma_alignment;
	int ret, nr = 0, uret = -1, accepted = 0;
	struct io_uring ring;
	char *buf, bufnote[96];

	if (chk_zoned(cd, res) || !chk_room(cd, res, 4 * MIB))
		return res->status;
	buf = chk_alloc(len + 4096);
	if (!buf)
		return chk_fail(res, "out of memory");
	ret = chk_write_pattern(cd, base, len, seed);
	if (ret) {
		st = chk_fail(res, "O_DIRECT write of the reference data: %s", strerror(-ret));
		goto out_free;
	}
	chk_fill(buf, len + 4096, base, chk_seed(cd));	/* what must not land */
	for (int w = 0; w < 2 && st == BQ_CHECK_PASS; w++) {
		char how[96];

		snprintf(how, sizeof(how), "at byte %llu (half a block off)",
			 (unsigned long long)(base + lbs / 2));
		st = expect_einval(res, w, cd->fd, buf, lbs, base + lbs / 2, how);
		nr++;
		if (st == BQ_CHECK_PASS) {
			snprintf(how, sizeof(how), "of %llu bytes (half a block)",
				 (unsigned long long)(lbs / 2));
			st = expect_einval(res, w, cd->fd, buf, lbs / 2, base, how);
			nr++;
		}
		if (st == BQ_CHECK_PASS) {
			snprintf(how, sizeof(how), "of %llu bytes (a block and one byte)",
				 (unsigned long long)(lbs + 1));
			st = expect_einval(res, w, cd->fd, buf, lbs + 1, base, how);
			nr++;
		}
	}
	if (st != BQ_CHECK_PASS)
		goto out_free;
	/* io_uring goes through the same checks; its answer arrives in the CQE. */
	uret = io_uring_queue_init(4, &ring, 0);
	if (!uret) {
		for (int w = 0; w < 2 && st == BQ_CHECK_PASS; w++, nr++) {
			ret = uring_one(&ring, w, cd->fd, buf, lbs, base + lbs / 2, 0);
			if (ret != -EINVAL)
				st = chk_fail(res, "io_uring O_DIRECT %s half a block off: %s instead "
					      "of EINVAL", w ? "write" : "read",
					      ret >= 0 ? "success" : errname(-ret));
		}
		io_uring_queue_exit(&ring);
	}
	if (st != BQ_CHECK_PASS)
		goto out_free;
	chk_tamper(cd, base, len);
	st = chk_verify(cd, res, base, len, seed, "after the refused O_DIRECT I/O");
	/* dma_alignment 0 lets any address through: nothing to try. */
	if (st == BQ_CHECK_PASS && dma)
		st = misaligned_buffer(cd, res, base + len, buf, &accepted);
	if (st != BQ_CHECK_PASS)
		goto out_free;
	if (!dma)
		snprintf(bufnote, sizeof(bufnote), "no buffer test: dma_alignment is 0");
	else if (accepted)
		snprintf(bufnote, sizeof(bufnote), "a one-byte-off buffer was taken %d of 2 times "
			 "and moved correctly", accepted);
	else
		snprintf(bufnote, sizeof(bufnote), "a one-byte-off buffer failed with EINVAL too");
	st = chk_pass(res, "%d O_DIRECT reads and writes off the block size in offset or length "
		      "failed with EINVAL and wrote nothing%s; %s", nr,
		      uret ? " (io_uring unavailable)" : ", io_uring included", bufnote);
out_free:
	free(buf);
	return st;
}

/* ---- end_of_device ----------------------------------------------------- */

static enum bq_check_status expect_n(struct bq_check_result *res, ssize_t n, int err,
				     ssize_t want, int want_err, const char *what)
{
	if (want_err) {
		if (n < 0 && err == want_err)
			return BQ_CHECK_PASS;
		if (n >= 0)
			return chk_fail(res, "%s: returned %zd instead of failing with %s", what, n,
					errname(want_err));
		return chk_fail(res, "%s: %s instead of %s", what, errname(err),
				errname(want_err));
	}
	if (n == want)
		return BQ_CHECK_PASS;
	if (n < 0)
		return chk_fail(res, "%s: %s instead of returning %zd", what, errname(err), want);
	return chk_fail(res, "%s: returned %zd instead of %zd", what, n, want);
}

enum bq_check_status bq_check_end_of_device(struct bq_check_dev *cd,
					    struct bq_check_result *res)
{
	uint64_t lbs = cd->lbs, size = cd->size, seed = chk_seed(cd);
	enum bq_check_status st = BQ_CHECK_PASS;
	const char *names[2] = { "O_DIRECT", "buffered" };
	int fds[2] = { cd->fd, cd->bfd };
	struct io_uring ring;
	char what[128], *buf;
	int nr = 0, uret;
	ssize_t n;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 4 * MIB))
		return res->status;
	buf = chk_alloc(2 * lbs);
	if (!buf)
		return chk_fail(res, "out of memory");
	for (int f = 0; f < 2 && st == BQ_CHECK_PASS; f++) {
		struct {
			bool write;
			uint64_t off;
			size_t len;
			ssize_t want;
			int want_err;
			const char *where;
		} cases[] = {
			{ false, size, lbs, 0, 0, "read at the end" },
			{ false, size + lbs, lbs, 0, 0, "read a block past the end" },
			{ false, size - lbs, 2 * lbs, (ssize_t)lbs, 0, "two-block read across the end" },
			{ true, size, lbs, 0, ENOSPC, "write at the end" },
			{ true, size + MIB, lbs, 0, ENOSPC, "write a MiB past the end" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(cases) && st == BQ_CHECK_PASS; i++, nr++) {
			size_t len = cases[i].len;

			snprintf(what, sizeof(what), "%s %s (byte %llu)", names[f], cases[i].where,
				 (unsigned long long)cases[i].off);
			chk_fill(buf, 2 * lbs, cases[i].off, seed);
			n = cases[i].write ? pwrite(fds[f], buf, len, (off_t)cases[i].off) :
					     pread(fds[f], buf, len, (off_t)cases[i].off);
			st = expect_n(res, n, errno, cases[i].want, cases[i].want_err, what);
		}
		if (st != BQ_CHECK_PASS)
			break;
		/* A write across the end is cut at the end, and the part inside lands. */
		seed = chk_seed(cd);
		chk_fill(buf, 2 * lbs, size - lbs, seed);
		snprintf(what, sizeof(what), "%s two-block write across the end (byte %llu)",
			 names[f], (unsigned long long)(size - lbs));
		n = pwrite(fds[f], buf, 2 * lbs, (off_t)(size - lbs));
		st = expect_n(res, n, errno, (ssize_t)lbs, 0, what);
		nr++;
		if (st == BQ_CHECK_PASS && f == 1 && fdatasync(cd->bfd))
			st = chk_fail(res, "%s: fdatasync: %s", what, strerror(errno));
		if (st == BQ_CHECK_PASS) {
			chk_tamper(cd, size - lbs, lbs);
			st = chk_verify(cd, res, size - lbs, lbs, seed, what);
		}
	}
	if (st != BQ_CHECK_PASS)
		goto out_free;
	uret = io_uring_queue_init(4, &ring, 0);
	if (!uret) {
		int r = uring_one(&ring, false, cd->fd, buf, lbs, size, 0);

		st = expect_n(res, r < 0 ? -1 : r, -r, 0, 0, "io_uring read at the end");
		if (st == BQ_CHECK_PASS) {
			r = uring_one(&ring, true, cd->fd, buf, lbs, size, 0);
			st = expect_n(res, r < 0 ? -1 : r, -r, 0, ENOSPC,
				      "io_uring write at the end");
		}
		nr += 2;
		io_uring_queue_exit(&ring);
	}
	if (st == BQ_CHECK_PASS)
		st = chk_pass(res, "%d reads and writes at and past the end: reads return 0 bytes, "
			      "writes fail with ENOSPC, across the end both stop at it%s", nr,
			      uret ? " (io_uring unavailable)" : ", io_uring included");
out_free:
	free(buf);
	return st;
}

/* ---- flush_fua --------------------------------------------------------- */

static enum bq_check_status dsync_write(struct bq_check_dev *cd, struct bq_check_result *res,
					int fd, int rwf, uint64_t off, size_t len, const char *how)
{
	uint64_t seed = chk_seed(cd);
	struct iovec iov;
	char *buf = chk_alloc(len);
	ssize_t n;

	if (!buf)
		return chk_fail(res, "%s: out of memory", how);
	chk_fill(buf, len, off, seed);
	iov = (struct iovec){ .iov_base = buf, .iov_len = len };
	n = pwritev2(fd, &iov, 1, (off_t)off, rwf);
	free(buf);
	if (n != (ssize_t)len)
		return chk_fail(res, "%s write of %zu bytes at byte %llu: %s", how, len,
				(unsigned long long)off, n < 0 ? errname(errno) : "short write");
	chk_tamper(cd, off, len);
	return chk_verify(cd, res, off, len, seed, how);
}

static enum bq_check_status uring_sync(struct bq_check_dev *cd, struct bq_check_result *res,
				       uint64_t off, size_t len, int *nr)
{
	enum bq_check_status st = BQ_CHECK_PASS;
	uint64_t seed = chk_seed(cd);
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	char *buf;
	int ret;

	if (io_uring_queue_init(4, &ring, 0))
		return BQ_CHECK_PASS;	/* no io_uring here: psync covered the rest */
	buf = chk_alloc(len);
	if (!buf) {
		st = chk_fail(res, "out of memory");
		goto out_exit;
	}
	for (unsigned int f = 0; f < 2 && st == BQ_CHECK_PASS; f++, (*nr)++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_fsync(sqe, cd->fd, f ? IORING_FSYNC_DATASYNC : 0);
		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret >= 0)
			ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret >= 0) {
			ret = cqe->res;
			io_uring_cqe_seen(&ring, cqe);
		}
		if (ret < 0)
			st = chk_fail(res, "io_uring %s: %s", f ? "fdatasync" : "fsync",
				      errname(-ret));
	}
	if (st == BQ_CHECK_PASS) {
		chk_fill(buf, len, off, seed);
		ret = uring_one(&ring, true, cd->fd, buf, len, off, RWF_DSYNC);
		(*nr)++;
		if (ret != (int)len)
			st = chk_fail(res, "io_uring RWF_DSYNC write of %zu bytes: %s", len,
				      ret < 0 ? errname(-ret) : "short write");
	}
	if (st == BQ_CHECK_PASS) {
		chk_tamper(cd, off, len);
		st = chk_verify(cd, res, off, len, seed, "io_uring RWF_DSYNC write");
	}
	free(buf);
out_exit:
	io_uring_queue_exit(&ring);
	return st;
}

enum bq_check_status bq_check_flush_fua(struct bq_check_dev *cd, struct bq_check_result *res)
{
	uint64_t base = 3 * MIB, len = 8 * (uint64_t)cd->lbs;
	enum bq_check_status st = BQ_CHECK_PASS;
	char wc[32] = "", how[160];
	int nr = 0, fd;
	long fua;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 4 * MIB))
		return res->status;
	if (fsync(cd->fd) || fdatasync(cd->fd) || fsync(cd->bfd))
		return chk_fail(res, "fsync on the device: %s", errname(errno));
	nr += 3;
	if (ioctl(cd->fd, BLKFLSBUF, 0))
		return chk_fail(res, "BLKFLSBUF: %s", errname(errno));
	nr++;
	st = dsync_write(cd, res, cd->fd, RWF_DSYNC, base, len, "O_DIRECT RWF_DSYNC");
	if (st == BQ_CHECK_PASS)
		st = dsync_write(cd, res, cd->fd, RWF_SYNC, base + len, len, "O_DIRECT RWF_SYNC");
	if (st == BQ_CHECK_PASS)
		st = dsync_write(cd, res, cd->bfd, RWF_DSYNC, base + 2 * len, len,
				 "buffered RWF_DSYNC");
	nr += 3;
	if (st != BQ_CHECK_PASS)
		return st;
	fd = bq_fd_reopen(cd->fd, O_RDWR | O_DIRECT | O_DSYNC);
	if (fd < 0)
		return chk_fail(res, "opening with O_DSYNC: %s", errname(-fd));
	st = dsync_write(cd, res, fd, 0, base + 4 * len, len, "O_DIRECT|O_DSYNC");
	close(fd);
	nr++;
	if (st != BQ_CHECK_PASS)
		return st;
	st = uring_sync(cd, res, base + 5 * len, len, &nr);
	if (st != BQ_CHECK_PASS)
		return st;
	chk_attr_str(cd, "write_cache", wc, sizeof(wc));
	fua = (long)chk_attr(cd, "fua", (uint64_t)-1);
	if (!strcmp(wc, "write through"))
		snprintf(how, sizeof(how), "write through: the kernel sends no flushes");
	else if (fua == 1)
		snprintf(how, sizeof(how), "%s, fua 1: FUA writes reach the device",
			 wc[0] ? wc : "write cache unknown");
	else if (fua == 0)
		snprintf(how, sizeof(how), "%s, fua 0: the kernel follows each FUA write with a "
			 "flush", wc[0] ? wc : "write cache unknown");
	else
		snprintf(how, sizeof(how), "%s, no fua attribute", wc[0] ? wc : "write cache unknown");
	return chk_pass(res, "%d flushes and synchronous writes accepted, their data read back "
			"(%s)", nr, how);
}
