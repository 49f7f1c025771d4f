// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_fdp.c - Flexible Data Placement: the placement handles a namespace
 * offers (Reclaim Unit Handle Status, through libnvme), which fio's
 * fdp=1 writes choose among (issue 19)
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "device_int.h"
#include "internal.h"

int bq_nvme_fdp_status(int fd, uint32_t nsid, struct bq_nvme_ruh *ruhs, unsigned int max)
{
	struct nvme_fdp_ruh_status head, *all;
	size_t len;
	unsigned int nr;
	int ret;

	/* The header first, for the count; then every descriptor. */
	memset(&head, 0, sizeof(head));
	ret = nvme_fdp_reclaim_unit_handle_status(fd, nsid, sizeof(head), &head);
	if (ret < 0)
		return errno ? -errno : -EIO;
	if (ret > 0)
		return -ENODEV;
	nr = le16toh(head.nruhsd);
	/* Only the count asked for: the header answers it. */
	if (!nr || !max)
		return (int)nr;
	len = sizeof(*all) + (size_t)nr * sizeof(all->ruhss[0]);
	all = calloc(1, len);
	if (!all)
		return -ENOMEM;
	ret = nvme_fdp_reclaim_unit_handle_status(fd, nsid, (uint32_t)len, all);
	if (ret) {
		ret = ret < 0 ? (errno ? -errno : -EIO) : -ENODEV;
		goto out_free;
	}
	/* The count may have changed in between: trust the second answer. */
	nr = le16toh(all->nruhsd) < nr ? le16toh(all->nruhsd) : nr;
	for (unsigned int i = 0; i < nr && i < max; i++) {
		ruhs[i].pid = le16toh(all->ruhss[i].pid);
		ruhs[i].ruhid = le16toh(all->ruhss[i].ruhid);
		ruhs[i].ruamw = le64toh(all->ruhss[i].ruamw);
	}
	ret = (int)nr;
out_free:
	free(all);
	return ret;
}
