/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvme_dp.h - NVMe data placement for ioengine=io_uring_cmd writes: the
 * directive (Flexible Data Placement or Streams) each write carries, as
 * fio's fdp, dataplacement, plid_select, plids and dp_scheme choose it
 */
#ifndef BLKQUAL_NVME_DP_H
#define BLKQUAL_NVME_DP_H

#include <stddef.h>
#include <stdint.h>

#include "blkqual_job.h"

struct nvme_uring_cmd;

/* Command dword 12's DTYPE values of a Write (NVMe base spec, Directives) */
#define BQ_NVME_DTYPE_STREAMS 1
#define BQ_NVME_DTYPE_FDP 2

/**
 * struct bq_nvme_dp - one file's placement: what its writes may name
 * @dtype: the directive type its writes carry
 * @select: how the next identifier is chosen (enum bq_dp_select)
 * @nr: identifiers in @ids
 * @next: round robin: the index in @ids of the next write's
 * @nr_scheme: ranges in @scheme
 * @rng: random: the draw's state (its own, so offsets are as without)
 * @ids: the directive specifics (FDP: placement identifiers; streams:
 *	stream identifiers)
 * @scheme: plid_select=scheme: offsets [start, end) and the identifier
 *	their writes carry (as fio, the number in the file itself)
 */
struct bq_nvme_dp {
	uint8_t dtype;
	uint8_t select;
	uint16_t nr;
	uint32_t next;
	uint16_t nr_scheme;
	uint64_t rng;
	uint16_t ids[BQ_DP_MAX_IDS];
	struct {
		uint64_t start;
		uint64_t end;
		uint16_t id;
	} scheme[BQ_DP_MAX_SCHEME];
};

int bq_nvme_dp_init(struct bq_nvme_dp *dp, const struct bq_job *j, int fd, uint32_t nsid,
		    uint64_t seed, char *msg, size_t len);
uint16_t bq_nvme_dp_pick(struct bq_nvme_dp *dp, uint64_t offset);
void bq_nvme_dp_cmd(struct nvme_uring_cmd *cmd, uint8_t dtype, uint16_t dspec);

#endif /* BLKQUAL_NVME_DP_H */
