// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic.c - what a target says of torn-write protection
 *
 * The C library's struct statx predates the atomic write fields, so the
 * kernel's layout (Linux 6.11) is spelled out here and statx(2) called
 * directly; a kernel without them leaves STATX_WRITE_ATOMIC out of the
 * mask, which reads as "no protection".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "io/atomic.h"
#include "io/target.h"

#define STATX_MASK_WRITE_ATOMIC	0x00010000U

struct statx_atomic {
	uint32_t mask;
	uint32_t blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, pad1;
	uint64_t ino, size, blocks, attributes_mask;
	uint8_t times[4][16];
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint32_t dio_mem_align, dio_offset_align;
	uint64_t subvol;
	uint32_t unit_min, unit_max, segments_max;
	uint32_t spare[3];
	uint64_t spare3[8];
};

_Static_assert(sizeof(struct statx_atomic) == 256, "the kernel's struct statx is 256 bytes");

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int bq_atomic_check(int fd, const struct bq_job *j, const char *path,
		    struct bq_parse_error *err)
{
	struct statx_atomic sx;
	uint32_t lo = j->bs_min[BQ_WRITE], hi = j->bs_max[BQ_WRITE];

	if (!j->atomic || !bq_job_writes(j))
		return 0;
	memset(&sx, 0, sizeof(sx));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_MASK_WRITE_ATOMIC, &sx) ||
	    !(sx.mask & STATX_MASK_WRITE_ATOMIC) || !sx.unit_max)
		return bq_fail_at(err, path, -EOPNOTSUPP,
				  "atomic=1: no torn-write protection here (statx reports no "
				  "atomic write unit)");
	if (lo < sx.unit_min || hi > sx.unit_max || !pow2(lo) || !pow2(hi))
		return bq_fail_at(err, path, -EOPNOTSUPP,
				  "atomic=1: writes of %u to %u bytes; atomic writes here are "
				  "powers of two from %u to %u bytes", lo, hi, sx.unit_min,
				  sx.unit_max);
	return 0;
}
