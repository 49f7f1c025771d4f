// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring_cmd.c - NVMe I/O commands for io_uring's URING_CMD (Read, Write and
 * fio's write_mode= commands), DSM ranges for trims,
 * and the block device behind an NVMe generic (ngXnY) character device
 *
 * Nothing here needs libnvme or a device: the engine calls the builder
 * once per I/O, and the tests check its bytes directly.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

/* Commands that move data; the others (Write Zeroes, ...) carry no buffer. */
static bool moves_data(uint8_t opcode)
{
	return opcode == BQ_NVME_OP_READ || opcode == BQ_NVME_OP_WRITE ||
	       opcode == BQ_NVME_OP_ZONE_APPEND;
}

int bq_nvme_io_cmd(struct nvme_uring_cmd *cmd, uint8_t opcode, uint32_t nsid, uint64_t offset,
		   uint32_t len, uint32_t lba_size, void *buf)
{
#ifdef HAVE_NVME_URING_CMD
	uint64_t slba;
	uint32_t nlb;

	if (!lba_size || !len)
		return -EINVAL;
	if (!(lba_size & (lba_size - 1))) {
		/* LBA data sizes are 2^LBADS; a shift keeps the divisions off the I/O path. */
		unsigned int shift = (unsigned int)__builtin_ctz(lba_size);

		if ((len & (lba_size - 1)) || (offset & (lba_size - 1)))
			return -EINVAL;
		nlb = len >> shift;
		slba = offset >> shift;
	} else {
		/* An extended LBA: each block's data followed by its metadata. */
		if (len % lba_size || offset % lba_size)
			return -EINVAL;
		nlb = len / lba_size;
		slba = offset / lba_size;
	}
	if (nlb > BQ_NVME_MAX_BLOCKS)
		return -EINVAL;

	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = opcode;
	cmd->nsid = nsid;
	if (moves_data(opcode)) {
		cmd->addr = (uint64_t)(uintptr_t)buf;
		cmd->data_len = len;
	}
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = nlb - 1;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

int bq_nvme_rw_cmd(struct nvme_uring_cmd *cmd, bool write, uint32_t nsid, uint64_t offset,
		   uint32_t len, uint32_t lba_size, void *buf)
{
	return bq_nvme_io_cmd(cmd, write ? BQ_NVME_OP_WRITE : BQ_NVME_OP_READ, nsid, offset, len,
			      lba_size, buf);
}

int bq_nvme_dsm_range(struct bq_nvme_dsm_range *r, uint64_t offset, uint64_t len,
		      uint32_t lba_size)
{
	/* With an extended LBA, @lba_size counts each block's metadata too. */
	if (!lba_size || !len || len % lba_size || offset % lba_size ||
	    len / lba_size > UINT32_MAX)
		return -EINVAL;
	r->cattr = 0;
	r->nlb = (uint32_t)(len / lba_size);
	r->slba = offset / lba_size;
	return 0;
}

/* "ngXnY" with X and Y decimal instance numbers, nothing after. */
static bool is_ng_name(const char *s)
{
	const char *p = s + 2;
	size_t n;

	if (strncmp(s, "ng", 2))
		return false;
	n = strspn(p, "0123456789");
	if (!n || p[n] != 'n')
		return false;
	p += n + 1;
	n = strspn(p, "0123456789");
	return n && !p[n];
}

int bq_nvme_ng_to_blk(const char *ng, char *blk, size_t len)
{
	const char *base = strrchr(ng, '/');
	size_t dir;
	int n;

	base = base ? base + 1 : ng;
	if (!is_ng_name(base))
		return -EINVAL;
	dir = (size_t)(base - ng);
	n = snprintf(blk, len, "%.*snvme%s", (int)dir, ng, base + 2);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}
