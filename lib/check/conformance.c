// SPDX-License-Identifier: GPL-2.0-only
/*
 * conformance.c - the conformance suite (blkqual check): the table of
 * checks, opening the device through the guard, and the helpers every
 * check shares: unique data patterns, verified read-back and the fault
 * injection that proves a check can fail
 *
 * Every comparison reads through the O_DIRECT descriptor, so the page
 * cache cannot hand back what was written when the device lost it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "check.h"

static const struct bq_check checks[] = {
	{ "limits", "queue limits in sysfs agree with each other and with the ioctls",
	  false, bq_check_limits },
	{ "read_after_write", "O_DIRECT data reads back intact at many sizes and alignments, "
	  "past max_sectors so the kernel splits", true, bq_check_read_after_write },
	{ "misaligned_direct", "O_DIRECT off the block size in offset or length fails with "
	  "EINVAL and writes nothing; an unaligned buffer fails or moves the right data", true,
	  bq_check_misaligned },
	{ "end_of_device", "reads at the end return 0 bytes, writes there fail with ENOSPC, "
	  "I/O across it is cut short", true, bq_check_end_of_device },
	{ "flush_fua", "fsync, fdatasync, RWF_DSYNC, O_DSYNC and io_uring fsync are accepted",
	  true, bq_check_flush_fua },
	{ "discard", "BLKDISCARD as discard_max_bytes advertises, never touching neighbours",
	  true, bq_check_discard },
	{ "write_zeroes", "BLKZEROOUT and fallocate zero ranges read back as zeroes",
	  true, bq_check_write_zeroes },
	{ "polled_io", "io_uring IOPOLL works where io_poll is 1 and is refused where it is 0",
	  true, bq_check_polled },
	{ "engines_agree", "psync, io_uring and libaio read back the same data each wrote",
	  true, bq_check_engines },
	{ "concurrent_writers", "threads writing interleaved disjoint blocks never corrupt "
	  "each other", true, bq_check_concurrent },
};

const struct bq_check *bq_checks(size_t *nr)
{
	*nr = ARRAY_SIZE(checks);
	return checks;
}

const struct bq_check *bq_check_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(checks); i++)
		if (!strcmp(checks[i].name, name))
			return &checks[i];
	return NULL;
}

int bq_check_open(struct bq_ctx *ctx, const char *path, const struct bq_check_opts *opts,
		  struct bq_guard_report *rep, struct bq_check_dev **cdp)
{
	struct bq_check_dev *cd;
	struct stat st;
	int lbs, ret;

	memset(rep, 0, sizeof(*rep));
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return -ENOMEM;
	cd->ctx = ctx;
	cd->fd = -1;
	cd->bfd = -1;
	cd->fault = opts ? opts->fault : NULL;
	bq_strlcpy(cd->path, path, sizeof(cd->path));

	/* The guard decides before anything else touches the device. */
	cd->fd = bq_guard_open(ctx, path, O_DIRECT, opts ? opts->guard : NULL, rep);
	if (cd->fd < 0) {
		ret = cd->fd;
		goto out_free_cd;
	}
	/* The device the guard judged, by number: the name is not looked at again. */
	ret = -ENOTBLK;	/* what the name led to when the guard opened it */
	if (!S_ISBLK(rep->st.st_mode))
		goto out_close_fd;
	ret = bq_device_load_devt(ctx, rep->st.st_rdev, &cd->dev);
	if (ret)
		goto out_close_fd;
	ret = bq_path(cd->qdir, sizeof(cd->qdir), bq_ctx_root(ctx, 's'), "/class/block/%s/queue",
		      cd->dev.is_partition && cd->dev.parent[0] ? cd->dev.parent : cd->dev.name);
	if (ret)
		goto out_release_dev;
	/* Buffered: the same device as the guard's descriptor, reopened through it. */
	cd->bfd = bq_fd_reopen(cd->fd, O_RDWR);
	if (cd->bfd < 0) {
		ret = cd->bfd;
		goto out_release_dev;
	}
	if (ioctl(cd->fd, BLKGETSIZE64, &cd->size) || ioctl(cd->fd, BLKSSZGET, &lbs)) {
		ret = -errno;
		goto out_close_bfd;
	}
	if (lbs < 512 || lbs & (lbs - 1)) {
		ret = -EINVAL;
		goto out_close_bfd;
	}
	cd->lbs = (uint32_t)lbs;
	cd->max_io = cd->dev.q.max_sectors_kb * 1024u;
	if (!cd->max_io) {
		unsigned short sect = 0;

		cd->max_io = ioctl(cd->fd, BLKSECTGET, &sect) || !sect ? 128u << 10 : sect * 512u;
	}
	*cdp = cd;
	return 0;

out_close_bfd:
	close(cd->bfd);
out_release_dev:
	bq_device_release(&cd->dev);
out_close_fd:
	close(cd->fd);
out_free_cd:
	free(cd);
	return ret;
}

const struct bq_device *bq_check_device(const struct bq_check_dev *cd)
{
	return &cd->dev;
}

enum bq_check_status bq_check_run(struct bq_check_dev *cd, const struct bq_check *check,
				  struct bq_check_result *res)
{
	uint64_t t0;

	memset(res, 0, sizeof(*res));
	cd->running = check->name;
	cd->fault_done = false;
	t0 = bq_now_ns();
	res->status = check->fn(cd, res);
	res->elapsed_ns = bq_now_ns() - t0;
	res->fault_injected = cd->fault_done;
	if (!res->reason[0])
		snprintf(res->reason, sizeof(res->reason), "%s",
			 res->status == BQ_CHECK_PASS ? "passed" : "no reason given");
	cd->running = NULL;
	return res->status;
}

void bq_check_close(struct bq_check_dev *cd)
{
	if (!cd)
		return;
	close(cd->bfd);
	close(cd->fd);
	bq_device_release(&cd->dev);
	free(cd);
}

/* ---- answers ----------------------------------------------------------- */

static enum bq_check_status answer(struct bq_check_result *res, enum bq_check_status st,
				   const char *fmt, va_list ap)
{
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	res->status = st;
	/* One line, whatever an error string held. */
	for (char *p = res->reason; *p; p++)
		if (*p == '\n' || *p == '#')
			*p = ' ';
	return st;
}

enum bq_check_status chk_pass(struct bq_check_result *res, const char *fmt, ...)
{
	enum bq_check_status st;
	va_list ap;

	va_start(ap, fmt);
	st = answer(res, BQ_CHECK_PASS, fmt, ap);
	va_end(ap);
	return st;
}

enum bq_check_status chk_fail(struct bq_check_result *res, const char *fmt, ...)
{
	enum bq_check_status st;
	va_list ap;

	va_start(ap, fmt);
	st = answer(res, BQ_CHECK_FAIL, fmt, ap);
	va_end(ap);
	return st;
}

enum bq_check_status chk_skip(struct bq_check_result *res, const char *fmt, ...)
{
	enum bq_check_status st;
	va_list ap;

	va_start(ap, fmt);
	st = answer(res, BQ_CHECK_SKIP, fmt, ap);
	va_end(ap);
	return st;
}

/* ---- data -------------------------------------------------------------- */

/* Page-aligned, so any offset into it that is a block multiple suits O_DIRECT. */
void *chk_alloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	return p;
}

/**
 * chk_seed() - a pattern seed no earlier write of this run used
 * @cd: the device
 *
 * Return: a non-zero seed (zero stands for "all zeroes").
 */
uint64_t chk_seed(struct bq_check_dev *cd)
{
	return bq_mix64(++cd->gen ^ (uint64_t)getpid() << 32) | 1;
}

/*
 * Every 8-byte word depends on the seed and on its byte offset on the
 * device, so data that landed at the wrong offset, stale data from an
 * earlier write and another thread's data all fail the comparison.
 */
static inline uint64_t pattern_word(uint64_t seed, uint64_t dev_off)
{
	return seed == CHK_ZEROES ? 0 : bq_mix64(seed ^ (dev_off * 0xd6e8feb86659fd93ull));
}

/*
 * Buffers may start at any byte (the alignment checks use odd offsets),
 * so words go through memcpy rather than a uint64_t pointer.
 */
void chk_fill(void *buf, size_t len, uint64_t dev_off, uint64_t seed)
{
	unsigned char *p = buf;

	for (size_t i = 0; i < len / 8; i++) {
		uint64_t w = pattern_word(seed, dev_off + i * 8);

		memcpy(p + i * 8, &w, sizeof(w));
	}
}

/* Offset of the first byte that differs from the pattern, or @len. */
size_t chk_first_diff(const void *got, size_t len, uint64_t dev_off, uint64_t seed)
{
	const unsigned char *p = got;

	for (size_t i = 0; i < len / 8; i++) {
		uint64_t w;

		memcpy(&w, p + i * 8, sizeof(w));
		if (w != pattern_word(seed, dev_off + i * 8))
			return i * 8;
	}
	return len;
}

int chk_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = pwrite(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int chk_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/**
 * chk_write_pattern() - write a pattern with O_DIRECT
 * @cd: the device
 * @off: byte offset, block aligned
 * @len: bytes, a block multiple
 * @seed: the pattern
 *
 * Return: 0 or -errno.
 */
int chk_write_pattern(struct bq_check_dev *cd, uint64_t off, size_t len, uint64_t seed)
{
	void *buf = chk_alloc(len);
	int ret;

	if (!buf)
		return -ENOMEM;
	chk_fill(buf, len, off, seed);
	ret = chk_pwrite(cd->fd, buf, len, off);
	free(buf);
	return ret;
}

static void describe_block(char *out, size_t len, const void *blk, size_t bytes)
{
	const uint64_t *w = blk;
	bool zero = true, same = true;

	for (size_t i = 0; i < bytes / 8; i++) {
		zero &= !w[i];
		same &= w[i] == w[0];
	}
	if (zero)
		snprintf(out, len, "zeroes");
	else if (same)
		snprintf(out, len, "0x%016llx repeated", (unsigned long long)w[0]);
	else
		snprintf(out, len, "other data");
}

/**
 * chk_compare() - compare a buffer read from the device with a pattern
 * @cd: the device
 * @res: filled in on a mismatch
 * @got: what was read from @off
 * @off: device offset it came from
 * @len: bytes
 * @seed: the pattern expected, CHK_ZEROES for zeroes
 * @what: the operation being verified, for the reason ("write of 4 KiB at 0")
 *
 * Return: BQ_CHECK_PASS, or BQ_CHECK_FAIL with the first bad byte, what
 * the bad block holds and how many blocks are bad.
 */
enum bq_check_status chk_compare(struct bq_check_dev *cd, struct bq_check_result *res,
				 const void *got, uint64_t off, size_t len, uint64_t seed,
				 const char *what)
{
	size_t first = chk_first_diff(got, len, off, seed), bad = 0;
	char looks[48];

	if (first == len)
		return BQ_CHECK_PASS;
	for (size_t b = 0; b < len; b += cd->lbs) {
		size_t n = len - b < cd->lbs ? len - b : cd->lbs;

		if (chk_first_diff((const char *)got + b, n, off + b, seed) != n)
			bad++;
	}
	first -= first % cd->lbs;
	describe_block(looks, sizeof(looks), (const char *)got + first,
		       len - first < cd->lbs ? len - first : cd->lbs);
	return chk_fail(res, "%s: data mismatch at byte %llu: the block holds %s instead of %s "
			"(%zu of %zu blocks wrong)", what, (unsigned long long)(off + first), looks,
			seed == CHK_ZEROES ? "zeroes" : "what was written", bad,
			(len + cd->lbs - 1) / cd->lbs);
}

/**
 * chk_verify() - read a range with O_DIRECT and compare it with a pattern
 * @cd: the device
 * @res: filled in on failure
 * @off: byte offset
 * @len: bytes
 * @seed: the pattern expected, CHK_ZEROES for zeroes
 * @what: the operation being verified
 *
 * Return: BQ_CHECK_PASS or BQ_CHECK_FAIL.
 */
enum bq_check_status chk_verify(struct bq_check_dev *cd, struct bq_check_result *res,
				uint64_t off, size_t len, uint64_t seed, const char *what)
{
	enum bq_check_status st;
	void *buf = chk_alloc(len);
	int ret;

	if (!buf)
		return chk_fail(res, "%s: out of memory for %zu bytes", what, len);
	ret = chk_pread(cd->fd, buf, len, off);
	if (ret)
		st = chk_fail(res, "%s: reading it back: %s", what, strerror(-ret));
	else
		st = chk_compare(cd, res, buf, off, len, seed, what);
	free(buf);
	return st;
}

/**
 * chk_tamper() - the fault injection point between writing and reading back
 * @cd: the device
 * @off: start of the range about to be verified
 * @len: its length
 *
 * Does nothing unless the user named the running check in the fault
 * option.  Then, once per check, one block in the middle of the range is
 * overwritten through a descriptor of its own, as a device that loses or
 * misplaces a write would leave it, and the check must say so.
 */
void chk_tamper(struct bq_check_dev *cd, uint64_t off, size_t len)
{
	uint64_t at = off + (len / 2) / cd->lbs * cd->lbs;
	void *blk;
	int fd;

	if (!cd->fault || !cd->running || strcmp(cd->fault, cd->running) || cd->fault_done ||
	    len < cd->lbs)
		return;
	blk = chk_alloc(cd->lbs);
	if (!blk)
		return;
	memset(blk, 0xa5, cd->lbs);
	fd = bq_fd_reopen(cd->fd, O_WRONLY | O_DIRECT);
	if (fd >= 0) {
		cd->fault_done = !chk_pwrite(fd, blk, cd->lbs, at);
		close(fd);
	}
	free(blk);
}

/* ---- facts ------------------------------------------------------------- */

uint64_t chk_attr(struct bq_check_dev *cd, const char *attr, uint64_t dflt)
{
	return bq_attr_u64(cd->qdir, attr, dflt);
}

void chk_attr_str(struct bq_check_dev *cd, const char *attr, char *buf, size_t len)
{
	bq_attr_str(cd->qdir, attr, buf, len);
}

/**
 * chk_zoned() - whether the device is zoned, which the writing checks skip
 * @cd: the device
 * @res: receives the skip reason when it is
 *
 * Return: true when the check must skip.
 */
bool chk_zoned(struct bq_check_dev *cd, struct bq_check_result *res)
{
	char zoned[32] = "";

	chk_attr_str(cd, "zoned", zoned, sizeof(zoned));
	if (!zoned[0] || !strcmp(zoned, "none"))
		return false;
	chk_skip(res, "%s zoned device: writes must follow the write pointer, which these "
		 "checks do not", zoned);
	return true;
}

/**
 * chk_room() - whether the device is large enough for a check
 * @cd: the device
 * @res: receives the skip reason when not
 * @need: bytes the check writes within
 *
 * Return: true when there is room.
 */
bool chk_room(struct bq_check_dev *cd, struct bq_check_result *res, uint64_t need)
{
	char have[32], want[32];

	if (cd->size >= need)
		return true;
	chk_size(have, sizeof(have), cd->size);
	chk_size(want, sizeof(want), need);
	chk_skip(res, "device too small: %s, the check needs %s", have, want);
	return false;
}

/* Sizes as the reasons print them: exact, in the largest unit that divides. */
void chk_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;

	while (u + 1 < ARRAY_SIZE(units) && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[u]);
}
