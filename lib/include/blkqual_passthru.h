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

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_PASSTHRU_H */
