/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_passthru.h - NVMe passthrough (ioengine=io_uring_cmd)
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_PASSTHRU_H
#define BLKQUAL_PASSTHRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_verify_report;

/* ---- NVMe passthrough (ioengine=io_uring_cmd) --------------------------- */

struct nvme_uring_cmd;

/* NLB is a 16-bit, 0-based count: one command moves at most this many blocks. */
#define BQ_NVME_MAX_BLOCKS 65536u

/**
 * bq_nvme_rw_cmd() - build an NVMe Read or Write for IORING_OP_URING_CMD
 * @cmd: the command (<linux/nvme_ioctl.h>), usually the SQE's cmd area of
 *       an IORING_SETUP_SQE128 ring
 * @write: Write (opcode 01h) instead of Read (02h)
 * @nsid: namespace ID
 * @offset: byte offset in the namespace, a multiple of @lba_size
 * @len: bytes, a non-zero multiple of @lba_size, at most
 *       BQ_NVME_MAX_BLOCKS blocks
 * @lba_size: LBA data size of the namespace's format, a power of two
 * @buf: the data
 *
 * Fills opcode, nsid, addr, data_len, the starting LBA (cdw10 low, cdw11
 * high) and the 0-based block count (cdw12); every other field is zero.
 * Pure, so the per-I/O path and the tests build the same bytes.
 *
 * Return: 0; -EINVAL when the numbers make no command (then @cmd is not
 * touched); -EOPNOTSUPP when built without <linux/nvme_ioctl.h>'s
 * struct nvme_uring_cmd.
 */
int bq_nvme_rw_cmd(struct nvme_uring_cmd *cmd, bool write, uint32_t nsid, uint64_t offset,
		   uint32_t len, uint32_t lba_size, void *buf);

/**
 * bq_nvme_ng_to_blk() - the block device of an NVMe generic device
 * @ng: "/dev/ng0n1" or "ng0n1"
 * @blk: receives "/dev/nvme0n1" or "nvme0n1" (the directory part is kept)
 * @len: size of @blk
 *
 * The kernel names a namespace's character and block devices after the
 * same controller (or, with native multipath, subsystem) instance and
 * namespace instance, so the mapping is by name alone.
 *
 * Return: 0, -EINVAL when the last component of @ng is not ngXnY, or
 * -ENAMETOOLONG.
 */
int bq_nvme_ng_to_blk(const char *ng, char *blk, size_t len);

/**
 * struct bq_nvme_ns - a namespace as passthrough I/O sees it
 * @nsid: namespace ID
 * @nsze: size in logical blocks
 * @lba_size: data bytes per logical block; 0 when the format is unreadable
 * @lba_meta: metadata bytes per logical block
 * @lbaf: index of the LBA format in use (FLBAS, high bits included)
 */
struct bq_nvme_ns {
	uint32_t nsid;
	uint64_t nsze;
	uint32_t lba_size;
	uint16_t lba_meta;
	int lbaf;
};

/**
 * bq_nvme_ns_decode() - size and LBA format from Identify Namespace data
 * @id_ns: 4096-byte Identify Namespace data
 * @ns: filled in, except @ns->nsid (the data does not hold it)
 *
 * Shared with bq_nvme_health_decode() so the format index is worked out
 * in one place.  Without libnvme, @ns is zeroed.
 */
void bq_nvme_ns_decode(const void *id_ns, struct bq_nvme_ns *ns);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_PASSTHRU_H */
