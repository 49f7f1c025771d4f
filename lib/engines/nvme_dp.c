// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_dp.c - which placement directive each io_uring_cmd write carries
 * (fio's fdp=1, dataplacement=fdp|streams, plid_select, plids, dp_scheme;
 * issue 19)
 *
 * With FDP the namespace is asked for its placement handles once per
 * file: plids= are indices into that list, as fio has them (fio's
 * "nvme fdp status" order), and all of them are used when plids= is not
 * given.  With streams, plids= are the stream identifiers themselves.
 * Reads carry nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_int.h"
#include "internal.h"
#include "job/jobopt.h"
#include "nvme_dp.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

/* fio's scheme file: "start,end,id" lines, the first 32 taken; the rest ignored as in fio. */
static int read_scheme(struct bq_nvme_dp *dp, const char *path, char *msg, size_t len)
{
	unsigned long long start, end;
	unsigned short id;
	FILE *f = fopen(path, "re");

	if (!f) {
		int ret = -errno;

		snprintf(msg, len, "dp_scheme=%.200s: %s", path, strerror(-ret));
		return ret;
	}
	while (dp->nr_scheme < BQ_DP_MAX_SCHEME &&
	       fscanf(f, "%llu,%llu,%hu\n", &start, &end, &id) == 3) {
		dp->scheme[dp->nr_scheme].start = start;
		dp->scheme[dp->nr_scheme].end = end;
		dp->scheme[dp->nr_scheme++].id = id;
	}
	fclose(f);
	return 0;
}

/* FDP: the handles' placement identifiers, all or those plids= picks by index. */
static int fdp_ids(struct bq_nvme_dp *dp, const struct bq_job *j, int fd, uint32_t nsid,
		   char *msg, size_t len)
{
	struct bq_nvme_ruh *ruhs = NULL;
	int nr, again;

	/* The count first, then the descriptors. */
	nr = bq_nvme_fdp_status(fd, nsid, NULL, 0);
	if (nr > 0) {
		ruhs = calloc((size_t)nr, sizeof(*ruhs));
		if (!ruhs)
			return -ENOMEM;
		again = bq_nvme_fdp_status(fd, nsid, ruhs, (unsigned int)nr);
		nr = again < nr ? again : nr;
	}
	if (nr < 0) {
		snprintf(msg, len, "fdp: namespace %" PRIu32 " %s", nsid,
			 nr == -ENODEV ? "refuses Reclaim Unit Handle Status: it has no "
			 "Flexible Data Placement" : nr == -EOPNOTSUPP ?
			 "cannot be asked for its placement handles: blkqual was built "
			 "without libnvme" : strerror(-nr));
		goto out_free;
	}
	if (!nr) {
		snprintf(msg, len, "fdp: namespace %" PRIu32 " has no placement handle", nsid);
		nr = -ENODEV;
		goto out_free;
	}
	if (!j->dp_nr_ids) {
		dp->nr = nr < BQ_DP_MAX_IDS ? (uint16_t)nr : BQ_DP_MAX_IDS;
		for (unsigned int i = 0; i < dp->nr; i++)
			dp->ids[i] = ruhs[i].pid;
		nr = 0;
		goto out_free;
	}
	for (unsigned int i = 0; i < j->dp_nr_ids; i++) {
		if (j->dp_ids[i] >= nr) {
			snprintf(msg, len, "plids: index %u, but namespace %" PRIu32 " has %d "
				 "placement handles (indices 0 to %d)", j->dp_ids[i], nsid, nr,
				 nr - 1);
			nr = -EINVAL;
			goto out_free;
		}
		dp->ids[i] = ruhs[j->dp_ids[i]].pid;
	}
	dp->nr = j->dp_nr_ids;
	nr = 0;
out_free:
	free(ruhs);
	return nr;
}

/**
 * bq_nvme_dp_init() - what one file's writes may name
 * @dp: filled in
 * @j: the job (bq_job_dp_type() not BQ_DP_NONE)
 * @fd: the file, an NVMe generic device, open
 * @nsid: its namespace
 * @seed: plid_select=random: the draws' seed
 * @msg: why not, for the user
 * @len: room in @msg
 *
 * Return: 0 or -errno with @msg filled in.
 */
int bq_nvme_dp_init(struct bq_nvme_dp *dp, const struct bq_job *j, int fd, uint32_t nsid,
		    uint64_t seed, char *msg, size_t len)
{
	int ret = 0;

	memset(dp, 0, sizeof(*dp));
	dp->select = j->dp_select;
	dp->rng = seed | 1;
	if (bq_job_dp_type(j) == BQ_DP_STREAMS) {
		dp->dtype = BQ_NVME_DTYPE_STREAMS;
		dp->nr = j->dp_nr_ids;
		memcpy(dp->ids, j->dp_ids, sizeof(dp->ids));
	} else {
		dp->dtype = BQ_NVME_DTYPE_FDP;
		ret = fdp_ids(dp, j, fd, nsid, msg, len);
	}
	if (!ret && dp->select == BQ_DP_SCHEME)
		ret = read_scheme(dp, j->dp_scheme, msg, len);
	return ret;
}

/**
 * bq_nvme_dp_pick() - the identifier the next write at @offset carries
 * @dp: the file's placement
 * @offset: the write's byte offset (plid_select=scheme)
 *
 * Return: the directive specific: in turn (round robin, from the first),
 * drawn uniformly, or by the scheme's first range holding @offset (0,
 * the default handle, when none does), as fio picks it.
 */
uint16_t bq_nvme_dp_pick(struct bq_nvme_dp *dp, uint64_t offset)
{
	switch (dp->select) {
	case BQ_DP_SCHEME:
		for (unsigned int i = 0; i < dp->nr_scheme; i++)
			if (offset >= dp->scheme[i].start && offset < dp->scheme[i].end)
				return dp->scheme[i].id;
		return 0;
	case BQ_DP_RANDOM:
		/* xorshift64: cheap, and apart from the offsets' generator. */
		dp->rng ^= dp->rng << 13;
		dp->rng ^= dp->rng >> 7;
		dp->rng ^= dp->rng << 17;
		return dp->ids[(uint64_t)(((unsigned __int128)dp->rng * dp->nr) >> 64)];
	default:
		if (dp->next >= dp->nr)
			dp->next = 0;
		return dp->ids[dp->next++];
	}
}

/**
 * bq_nvme_dp_cmd() - put a placement directive on a write command
 * @cmd: the command, built (bq_nvme_io_cmd())
 * @dtype: BQ_NVME_DTYPE_FDP or BQ_NVME_DTYPE_STREAMS
 * @dspec: the identifier
 */
void bq_nvme_dp_cmd(struct nvme_uring_cmd *cmd, uint8_t dtype, uint16_t dspec)
{
#ifdef HAVE_NVME_URING_CMD
	cmd->cdw12 |= (uint32_t)dtype << 20;
	cmd->cdw13 = (uint32_t)dspec << 16;
#else
	(void)cmd;
	(void)dtype;
	(void)dspec;
#endif
}
