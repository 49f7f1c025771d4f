// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_absent.c - NVMe identify, SMART and namespace facts when built
 * without libnvme
 */
#include <errno.h>
#include <string.h>

#include "device_int.h"
#include "internal.h"

void bq_nvme_health_decode(const void *id_ctrl, const void *id_ns,
			   const void *smart, struct bq_nvme_health *h)
{
	memset(h, 0, sizeof(*h));
}

int bq_nvme_health_read(struct bq_ctx *ctx, const struct bq_device *dev,
			struct bq_nvme_health *h)
{
	return -EOPNOTSUPP;
}

void bq_nvme_ns_decode(const void *id_ns, struct bq_nvme_ns *ns)
{
	memset(ns, 0, sizeof(*ns));
}

int bq_nvme_ns_read(int fd, struct bq_nvme_ns *ns)
{
	memset(ns, 0, sizeof(*ns));
	return -EOPNOTSUPP;
}

int bq_nvme_zns_read(int fd, uint32_t nsid, struct bq_nvme_zns *zns)
{
	memset(zns, 0, sizeof(*zns));
	return -EOPNOTSUPP;
}

void bq_nvme_zns_decode(const void *desc, struct bq_nvme_zone *z)
{
	memset(z, 0, sizeof(*z));
}

int bq_nvme_zns_report(int fd, uint32_t nsid, uint64_t zone_lbas, uint64_t slba,
		       struct bq_nvme_zone *zones, uint32_t max)
{
	return -EOPNOTSUPP;
}

int bq_nvme_zns_reset(int fd, uint32_t nsid, uint64_t zslba)
{
	return -EOPNOTSUPP;
}

int bq_nvme_fdp_status(int fd, uint32_t nsid, struct bq_nvme_ruh *ruhs, unsigned int max)
{
	return -EOPNOTSUPP;
}
