// SPDX-License-Identifier: GPL-2.0-only
/*
 * trim_nvme.c - trims of ioengine=io_uring_cmd: NVMe Dataset Management
 * (deallocate) commands on the NVMe generic device, with fio's num_range
 * ranges each (issue 19)
 *
 * fio's io_uring_cmd issues a trim as a DSM command of one range, or of
 * num_range ranges picked one after the other, counted as one I/O of
 * their total length.  The character device has no BLKDISCARD, so the
 * command goes through the NVMe I/O passthrough ioctl on the job's
 * descriptor, the one the guard checked; like the other trims here it
 * is synchronous.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "engine.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

/* One DSM (deallocate) of @n ranges through @fd; 0, -errno, or -EIO for an NVMe status. */
static int dsm_issue(int fd, uint32_t nsid, const struct bq_nvme_dsm_range *r, unsigned int n)
{
#ifdef HAVE_NVME_URING_CMD
	struct nvme_passthru_cmd cmd;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = BQ_NVME_OP_DSM;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)r;
	cmd.data_len = n * (uint32_t)sizeof(*r);
	cmd.cdw10 = n - 1;
	cmd.cdw11 = BQ_NVME_DSM_AD;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);
	if (ret < 0)
		return -errno;
	return ret ? -EIO : 0;
#else
	return -EOPNOTSUPP;
#endif
}

/**
 * bq_trim_nvme() - trim @s and the next picks, up to num_range, in one DSM
 * @w: the worker of an io_uring_cmd trim job (one file: see bq_job_check_nvme())
 * @s: the first range, picked; its length is set to the total on return
 * @bytes: receives the bytes of all ranges
 * @now: current time, for worker_pick()
 *
 * Return: 0 or -errno.
 */
int bq_trim_nvme(struct bq_worker *w, struct bq_slot *s, uint64_t *bytes, uint64_t now)
{
	static __thread struct bq_nvme_dsm_range r[BQ_NVME_MAX_DSM_RANGES];
	const struct bq_target_info *ti = &w->jr->targets[s->file];
	unsigned int max = w->job->num_range > 1 ? w->job->num_range : 1, n = 0;
	struct bq_slot next = *s;
	int ret;

	*bytes = 0;
	for (;;) {
		ret = bq_nvme_dsm_range(&r[n], next.offset, next.len, ti->lbs);
		if (ret)
			return ret;
		*bytes += next.len;
		if (++n == max || !worker_pick(w, &next, now))
			break;
	}
	/* The nop engine's trims cost nothing; a passthrough job always has its fd. */
	return dsm_issue(w->fds[s->file], ti->nsid, r, n);
}
