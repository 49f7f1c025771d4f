// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_limits.c - conformance checks on what the queue limits promise:
 * the limits themselves, discard and write-zeroes
 *
 * Discard only promises that the blocks may be forgotten: since Linux
 * 4.12 no queue advertises that discarded blocks read back as zeroes
 * (discard_zeroes_data is always 0), so what a discarded range reads back
 * is reported, not judged, unless that attribute says 1.  What is judged
 * is that discard is accepted exactly where discard_max_bytes says so and
 * never touches a block outside its range.  Write-zeroes (BLKZEROOUT,
 * fallocate) must read back zeroes always: the kernel writes zero pages
 * itself when the device cannot zero.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "check.h"

#define MIB (1ull << 20)

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ---- limits ------------------------------------------------------------ */

struct rules {
	int nr;
	int bad;
	char first[320];
};

static void rule(struct rules *r, bool holds, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void rule(struct rules *r, bool holds, const char *fmt, ...)
{
	va_list ap;

	r->nr++;
	if (holds || r->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(r->first, sizeof(r->first), fmt, ap);
	va_end(ap);
}

enum bq_check_status bq_check_limits(struct bq_check_dev *cd, struct bq_check_result *res)
{
	const struct bq_queue_limits *q = &cd->dev.q;
	uint64_t hw_sector = chk_attr(cd, "hw_sector_size", 0);
	uint64_t dmax_hw = chk_attr(cd, "discard_max_hw_bytes", q->discard_max_bytes);
	uint64_t seg_size = chk_attr(cd, "max_segment_size", 0);
	uint64_t dzd = chk_attr(cd, "discard_zeroes_data", 0);
	uint64_t fua = chk_attr(cd, "fua", 0), lbs = q->logical_block_size, size64 = 0;
	uint64_t msb = q->max_sectors_kb * 1024ull, align_sys;
	unsigned int pbs = 0, iomin = 0, ioopt = 0, dzd_ioctl = 0;
	int ssz = 0, alignoff = 0, ro = 0;
	unsigned short sect = 0;
	bool ok_ssz, ok_pbs, ok_iomin, ok_ioopt, ok_size, ok_sect, ok_align, ok_ro, ok_dzd;
	char devdir[PATH_MAX], dmax[32], wz[32];
	struct rules r = { 0 };

	if (bq_path(devdir, sizeof(devdir), bq_ctx_root(cd->ctx, 's'), "/class/block/%s",
		    cd->dev.name))
		return chk_fail(res, "sysfs path too long");
	align_sys = bq_attr_u64(devdir, "alignment_offset", 0);

	/* The values themselves. */
	rule(&r, lbs >= 512 && lbs <= 65536 && is_pow2(lbs),
	     "logical_block_size %llu is not a power of two from 512 to 65536",
	     (unsigned long long)lbs);
	rule(&r, !hw_sector || hw_sector == lbs, "hw_sector_size %llu differs from "
	     "logical_block_size %llu", (unsigned long long)hw_sector, (unsigned long long)lbs);
	rule(&r, is_pow2(q->physical_block_size) && q->physical_block_size >= lbs,
	     "physical_block_size %u is not a power of two at least logical_block_size %llu",
	     q->physical_block_size, (unsigned long long)lbs);
	rule(&r, q->minimum_io_size >= lbs && lbs && q->minimum_io_size % lbs == 0,
	     "minimum_io_size %u is not a multiple of logical_block_size %llu",
	     q->minimum_io_size, (unsigned long long)lbs);
	rule(&r, lbs && q->optimal_io_size % lbs == 0, "optimal_io_size %u is not a multiple "
	     "of logical_block_size %llu", q->optimal_io_size, (unsigned long long)lbs);
	rule(&r, q->max_sectors_kb && q->max_sectors_kb <= q->max_hw_sectors_kb,
	     "max_sectors_kb %u is 0 or above max_hw_sectors_kb %u", q->max_sectors_kb,
	     q->max_hw_sectors_kb);
	rule(&r, lbs && msb >= lbs && msb % lbs == 0, "max_sectors_kb %u is not a multiple of "
	     "logical_block_size %llu", q->max_sectors_kb, (unsigned long long)lbs);
	rule(&r, q->max_segments >= 1, "max_segments is 0");
	rule(&r, !seg_size || seg_size >= lbs, "max_segment_size %llu is below "
	     "logical_block_size %llu", (unsigned long long)seg_size, (unsigned long long)lbs);
	rule(&r, is_pow2((uint64_t)q->dma_alignment + 1) && q->dma_alignment < 65536,
	     "dma_alignment %u is not a power of two minus one", q->dma_alignment);
	rule(&r, q->discard_max_bytes <= dmax_hw, "discard_max_bytes %llu is above "
	     "discard_max_hw_bytes %llu", (unsigned long long)q->discard_max_bytes,
	     (unsigned long long)dmax_hw);
	if (q->discard_max_bytes) {
		rule(&r, q->discard_granularity >= lbs && lbs &&
		     q->discard_granularity % lbs == 0, "discard_granularity %llu is not a "
		     "multiple of logical_block_size %llu while discard_max_bytes is %llu",
		     (unsigned long long)q->discard_granularity, (unsigned long long)lbs,
		     (unsigned long long)q->discard_max_bytes);
		/*
		 * Not necessarily a multiple of the block size (loop says 4 GiB
		 * less 512 bytes whatever its block size): the kernel rounds
		 * each request down.  But it must hold one block.
		 */
		rule(&r, q->discard_max_bytes >= lbs, "discard_max_bytes %llu is below "
		     "logical_block_size %llu", (unsigned long long)q->discard_max_bytes,
		     (unsigned long long)lbs);
	}
	rule(&r, !q->write_zeroes_max_bytes || q->write_zeroes_max_bytes >= lbs,
	     "write_zeroes_max_bytes %llu is below logical_block_size %llu",
	     (unsigned long long)q->write_zeroes_max_bytes, (unsigned long long)lbs);
	rule(&r, dzd <= 1, "discard_zeroes_data is %llu", (unsigned long long)dzd);
	rule(&r, q->io_poll == 0 || q->io_poll == 1, "io_poll is %d, not 0 or 1", q->io_poll);
	rule(&r, !strcmp(q->write_cache, "write back") || !strcmp(q->write_cache, "write through"),
	     "write_cache is '%s', not 'write back' or 'write through'", q->write_cache);
	rule(&r, fua <= 1, "fua is %llu, not 0 or 1", (unsigned long long)fua);
	rule(&r, lbs && cd->dev.size % lbs == 0, "size %llu bytes is not a multiple of "
	     "logical_block_size %llu", (unsigned long long)cd->dev.size, (unsigned long long)lbs);

	/*
	 * sysfs against what the ioctls tell a program that opens the device.
	 * The ioctls run first: rule()'s arguments are evaluated in no set
	 * order, and its message must show what the ioctl returned.
	 */
	ok_ssz = !ioctl(cd->fd, BLKSSZGET, &ssz);
	ok_pbs = !ioctl(cd->fd, BLKPBSZGET, &pbs);
	ok_iomin = !ioctl(cd->fd, BLKIOMIN, &iomin);
	ok_ioopt = !ioctl(cd->fd, BLKIOOPT, &ioopt);
	ok_size = !ioctl(cd->fd, BLKGETSIZE64, &size64);
	ok_sect = !ioctl(cd->fd, BLKSECTGET, &sect);
	ok_align = !ioctl(cd->fd, BLKALIGNOFF, &alignoff);
	ok_ro = !ioctl(cd->fd, BLKROGET, &ro);
	ok_dzd = !ioctl(cd->fd, BLKDISCARDZEROES, &dzd_ioctl);
	rule(&r, ok_ssz && (uint64_t)ssz == lbs,
	     "BLKSSZGET says %d, logical_block_size %llu", ssz, (unsigned long long)lbs);
	rule(&r, ok_pbs && pbs == q->physical_block_size,
	     "BLKPBSZGET says %u, physical_block_size %u", pbs, q->physical_block_size);
	rule(&r, ok_iomin && iomin == q->minimum_io_size,
	     "BLKIOMIN says %u, minimum_io_size %u", iomin, q->minimum_io_size);
	rule(&r, ok_ioopt && ioopt == q->optimal_io_size,
	     "BLKIOOPT says %u, optimal_io_size %u", ioopt, q->optimal_io_size);
	rule(&r, ok_size && size64 == cd->dev.size,
	     "BLKGETSIZE64 says %llu, size %llu", (unsigned long long)size64,
	     (unsigned long long)cd->dev.size);
	/*
	 * BLKSECTGET answers in an unsigned short of 512-byte sectors;
	 * max_sectors_kb is that halved and rounded down (255 sectors show
	 * as 127).
	 */
	rule(&r, ok_sect && (sect == 65535 ? q->max_sectors_kb >= 32767 :
			     sect / 2u == q->max_sectors_kb),
	     "BLKSECTGET says %u sectors, max_sectors_kb %u", sect, q->max_sectors_kb);
	rule(&r, ok_align && (uint64_t)alignoff == align_sys,
	     "BLKALIGNOFF says %d, alignment_offset %llu", alignoff, (unsigned long long)align_sys);
	rule(&r, ok_ro && !ro == !cd->dev.read_only,
	     "BLKROGET says %d, ro %d", ro, cd->dev.read_only);
	rule(&r, ok_dzd && dzd_ioctl == dzd,
	     "BLKDISCARDZEROES says %u, discard_zeroes_data %llu", dzd_ioctl,
	     (unsigned long long)dzd);

	if (r.bad)
		return chk_fail(res, "%s%s", r.first, r.bad > 1 ? " (and more: see blkqual info)" :
				"");
	chk_size(dmax, sizeof(dmax), q->discard_max_bytes);
	chk_size(wz, sizeof(wz), q->write_zeroes_max_bytes);
	return chk_pass(res, "%d rules hold: logical %llu, physical %u, io_min %u, io_opt %u, "
			"max_sectors_kb %u of %u, max_segments %u, dma_alignment %u, discard %s "
			"(granularity %llu), write zeroes %s, io_poll %d, %s, fua %llu", r.nr,
			(unsigned long long)lbs, q->physical_block_size, q->minimum_io_size,
			q->optimal_io_size, q->max_sectors_kb, q->max_hw_sectors_kb,
			q->max_segments, q->dma_alignment, dmax,
			(unsigned long long)q->discard_granularity, wz, q->io_poll, q->write_cache,
			(unsigned long long)fua);
}

/* ---- shared by discard and write_zeroes -------------------------------- */

/*
 * A range to discard or zero, with a guard band on each side: the pattern
 * goes over all of it first (zone_prepare), the operation works on the
 * range, and zone_verify then checks the guard bands, since neither
 * operation may touch a block it was not given, and leaves what the range
 * reads back in @got for the caller.  The fault, when asked for, lands
 * where the caller's verdict is: in the range when it must hold zeroes,
 * else in a guard band.
 */
struct zone_op {
	uint64_t off;
	uint64_t len;
	uint64_t guard;
	uint64_t seed;
	char *got;
};

static int zone_prepare(struct bq_check_dev *cd, struct zone_op *z)
{
	z->seed = chk_seed(cd);
	z->got = chk_alloc(z->len);
	if (!z->got)
		return -ENOMEM;
	return chk_write_pattern(cd, z->off - z->guard, z->len + 2 * z->guard, z->seed);
}

static enum bq_check_status zone_verify(struct bq_check_dev *cd, struct bq_check_result *res,
					struct zone_op *z, bool tamper_range, const char *what)
{
	enum bq_check_status st;
	int ret;

	if (tamper_range)
		chk_tamper(cd, z->off, z->len);
	else
		chk_tamper(cd, z->off - z->guard, z->guard);
	st = chk_verify(cd, res, z->off - z->guard, z->guard, z->seed, what);
	if (st == BQ_CHECK_PASS)
		st = chk_verify(cd, res, z->off + z->len, z->guard, z->seed, what);
	if (st != BQ_CHECK_PASS)
		return st;
	ret = chk_pread(cd->fd, z->got, z->len, z->off);
	if (ret)
		return chk_fail(res, "%s: reading the range back: %s", what, strerror(-ret));
	return BQ_CHECK_PASS;
}

static int range_ioctl(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	return ioctl(fd, req, range) ? -errno : 0;
}

static const char *errname(int err)
{
	switch (err) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(err);
	}
}

/* Misaligned and past-the-end ranges must be refused with EINVAL. */
static enum bq_check_status bad_ranges(struct bq_check_dev *cd, struct bq_check_result *res,
				       unsigned long req, const char *name, uint64_t base)
{
	uint64_t lbs = cd->lbs;
	const struct {
		uint64_t off, len;
		const char *how;
	} bad[] = {
		{ base + lbs / 2, lbs, "starting half a block off" },
		{ base, lbs / 2, "of half a block" },
		{ cd->size - lbs, 2 * lbs, "across the end of the device" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = range_ioctl(cd->fd, req, bad[i].off, bad[i].len);

		if (ret != -EINVAL)
			return chk_fail(res, "%s of a range %s: %s instead of EINVAL", name,
					bad[i].how, errname(-ret));
	}
	return BQ_CHECK_PASS;
}

/* ---- discard ----------------------------------------------------------- */

struct discard_tally {
	uint64_t zero, kept, other;
};

static void tally(struct bq_check_dev *cd, const struct zone_op *z, struct discard_tally *t)
{
	for (uint64_t b = 0; b < z->len; b += cd->lbs) {
		const char *blk = z->got + b;
		size_t n = cd->lbs;

		if (chk_first_diff(blk, n, z->off + b, CHK_ZEROES) == n)
			t->zero++;
		else if (chk_first_diff(blk, n, z->off + b, z->seed) == n)
			t->kept++;
		else
			t->other++;
	}
}

static enum bq_check_status discard_one(struct bq_check_dev *cd, struct bq_check_result *res,
					struct zone_op *z, bool zeroes_promised,
					struct discard_tally *t)
{
	char what[128], sz[32];
	enum bq_check_status st;
	int ret;

	chk_size(sz, sizeof(sz), z->len);
	snprintf(what, sizeof(what), "BLKDISCARD of %s at byte %llu", sz,
		 (unsigned long long)z->off);
	ret = zone_prepare(cd, z);
	if (!ret)
		ret = range_ioctl(cd->fd, BLKDISCARD, z->off, z->len);
	if (ret) {
		st = chk_fail(res, "%s: %s", what, errname(-ret));
		goto out_free;
	}
	st = zone_verify(cd, res, z, zeroes_promised, what);
	if (st != BQ_CHECK_PASS)
		goto out_free;
	if (zeroes_promised)
		st = chk_compare(cd, res, z->got, z->off, z->len, CHK_ZEROES, what);
	tally(cd, z, t);
out_free:
	free(z->got);
	return st;
}

enum bq_check_status bq_check_discard(struct bq_check_dev *cd, struct bq_check_result *res)
{
	const struct bq_queue_limits *q = &cd->dev.q;
	uint64_t lbs = cd->lbs, g = q->discard_granularity >= lbs ? q->discard_granularity : lbs;
	uint64_t dmax = q->discard_max_bytes, base, len, guard;
	bool promised = chk_attr(cd, "discard_zeroes_data", 0) == 1;
	struct discard_tally t = { 0 };
	enum bq_check_status st;
	char gsz[32], lsz[32], split[96] = "";
	struct zone_op z;
	int ret;

	if (chk_zoned(cd, res) || !chk_room(cd, res, 64 * MIB))
		return res->status;
	guard = round_up(64 * 1024, g);
	base = round_up(8 * MIB, g) + guard;
	if (!dmax) {
		/* Refused, and nothing lost by the refusal. */
		z = (struct zone_op){ .off = base, .len = 8 * lbs, .guard = 0 };
		ret = zone_prepare(cd, &z);
		free(z.got);
		if (ret)
			return chk_fail(res, "writing the reference data: %s", strerror(-ret));
		ret = range_ioctl(cd->fd, BLKDISCARD, z.off, z.len);
		if (ret != -EOPNOTSUPP)
			return chk_fail(res, "discard_max_bytes is 0 but BLKDISCARD %s",
					ret ? errname(-ret) : "succeeded");
		chk_tamper(cd, z.off, z.len);
		st = chk_verify(cd, res, z.off, z.len, z.seed, "refused BLKDISCARD");
		if (st != BQ_CHECK_PASS)
			return st;
		return chk_pass(res, "discard_max_bytes is 0 and BLKDISCARD is refused with "
				"EOPNOTSUPP, the data kept");
	}
	len = round_up(MIB, g);
	if (len > 16 * MIB)
		return chk_skip(res, "discard_granularity %llu is too large to test within 64 MiB",
				(unsigned long long)g);
	z = (struct zone_op){ .off = base, .len = len, .guard = guard };
	st = discard_one(cd, res, &z, promised, &t);
	/* More than one request's worth, so the kernel splits the discard. */
	if (st == BQ_CHECK_PASS && dmax + 2 * g <= 16 * MIB) {
		z = (struct zone_op){ .off = base + 2 * MIB + 16 * MIB, .len = round_up(dmax + g, g),
				      .guard = guard };
		st = discard_one(cd, res, &z, promised, &t);
		chk_size(lsz, sizeof(lsz), z.len);
		snprintf(split, sizeof(split), " and %s (over discard_max_bytes)", lsz);
	}
	/* One block inside a granule: a hint the device may ignore, never spill over. */
	if (st == BQ_CHECK_PASS) {
		z = (struct zone_op){ .off = base + g + lbs, .len = lbs, .guard = g + lbs };
		st = discard_one(cd, res, &z, promised, &t);
	}
	if (st == BQ_CHECK_PASS)
		st = bad_ranges(cd, res, BLKDISCARD, "BLKDISCARD", base);
	if (st != BQ_CHECK_PASS)
		return st;
	chk_size(lsz, sizeof(lsz), len);
	chk_size(gsz, sizeof(gsz), g);
	return chk_pass(res, "discarded %s%s and one block inside a %s granule, neighbours "
			"intact; misaligned and past-the-end ranges EINVAL; read back %llu blocks "
			"of zeroes, %llu unchanged, %llu other (%s)", lsz, split, gsz,
			(unsigned long long)t.zero, (unsigned long long)t.kept,
			(unsigned long long)t.other,
			promised ? "zeroes promised: discard_zeroes_data 1" :
			"not judged: discard_zeroes_data 0 promises nothing");
}

/* ---- write_zeroes ------------------------------------------------------ */

enum zero_how { ZERO_IOCTL, ZERO_RANGE, ZERO_PUNCH };

static const char *const zero_names[] = {
	[ZERO_IOCTL] = "BLKZEROOUT",
	[ZERO_RANGE] = "fallocate(FALLOC_FL_ZERO_RANGE)",
	[ZERO_PUNCH] = "fallocate(FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE)",
};

static enum bq_check_status zero_one(struct bq_check_dev *cd, struct bq_check_result *res,
				     enum zero_how how, uint64_t off, uint64_t len,
				     bool *unsupported)
{
	struct zone_op z = { .off = off, .len = len, .guard = 64 * 1024 };
	char what[160], sz[32];
	enum bq_check_status st;
	int ret;

	chk_size(sz, sizeof(sz), len);
	snprintf(what, sizeof(what), "%s of %s at byte %llu", zero_names[how], sz,
		 (unsigned long long)off);
	ret = zone_prepare(cd, &z);
	if (!ret) {
		if (how == ZERO_IOCTL)
			ret = range_ioctl(cd->fd, BLKZEROOUT, off, len);
		else if (fallocate(cd->fd, how == ZERO_RANGE ? FALLOC_FL_ZERO_RANGE :
				   FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
			ret = -errno;
	}
	/* Punching needs the device to zero: without write-zeroes it is refused. */
	if (ret == -EOPNOTSUPP && how == ZERO_PUNCH && !cd->dev.q.write_zeroes_max_bytes) {
		*unsupported = true;
		st = BQ_CHECK_PASS;
		goto out_free;
	}
	if (ret) {
		st = chk_fail(res, "%s: %s", what, errname(-ret));
		goto out_free;
	}
	st = zone_verify(cd, res, &z, true, what);
	if (st == BQ_CHECK_PASS)
		st = chk_compare(cd, res, z.got, off, len, CHK_ZEROES, what);
out_free:
	free(z.got);
	return st;
}

enum bq_check_status bq_check_write_zeroes(struct bq_check_dev *cd,
					   struct bq_check_result *res)
{
	uint64_t lbs = cd->lbs, wz = cd->dev.q.write_zeroes_max_bytes;
	uint64_t base = 40 * MIB, len = MIB + 3 * lbs;
	enum bq_check_status st = BQ_CHECK_PASS;
	bool punch_refused = false;
	char lsz[32], wsz[32], split[96] = "", who[128];

	if (chk_zoned(cd, res) || !chk_room(cd, res, 64 * MIB))
		return res->status;
	for (int how = ZERO_IOCTL; how <= ZERO_PUNCH && st == BQ_CHECK_PASS; how++)
		st = zero_one(cd, res, how, base + (uint64_t)how * 2 * MIB + lbs, len,
			      &punch_refused);
	/* Beyond one request, so the kernel splits it. */
	if (st == BQ_CHECK_PASS && wz && 2 * wz + lbs <= 16 * MIB) {
		chk_size(lsz, sizeof(lsz), 2 * wz + lbs);
		snprintf(split, sizeof(split), ", BLKZEROOUT of %s (over write_zeroes_max_bytes)",
			 lsz);
		st = zero_one(cd, res, ZERO_IOCTL, base - 18 * MIB, 2 * wz + lbs, &punch_refused);
	}
	if (st == BQ_CHECK_PASS)
		st = bad_ranges(cd, res, BLKZEROOUT, "BLKZEROOUT", base);
	if (st != BQ_CHECK_PASS)
		return st;
	chk_size(lsz, sizeof(lsz), len);
	chk_size(wsz, sizeof(wsz), wz);
	if (wz)
		snprintf(who, sizeof(who), "write_zeroes_max_bytes %s: the device zeroes", wsz);
	else
		snprintf(who, sizeof(who), "write_zeroes_max_bytes 0: the kernel writes zero "
			 "pages%s", punch_refused ? " and refuses FALLOC_FL_PUNCH_HOLE" : "");
	return chk_pass(res, "BLKZEROOUT, FALLOC_FL_ZERO_RANGE%s of %s%s read back zeroes, "
			"neighbours intact; misaligned and past-the-end ranges EINVAL; %s",
			punch_refused ? "" : " and FALLOC_FL_PUNCH_HOLE", lsz, split, who);
}
