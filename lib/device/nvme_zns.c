// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_zns.c - a Zoned Namespace through its NVMe generic device: whether
 * it is zoned, its zones (Zone Management Receive) and zone resets (Zone
 * Management Send), through libnvme (issue 19)
 *
 * /dev/ngXnY has no block ioctls: zonemode=zbd on it asks the namespace
 * itself, as fio's io_uring_cmd engine does.  A reset is a write: callers
 * pass the descriptor the guard opened for writing.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "device_int.h"
#include "internal.h"

#define ZNS_TIMEOUT_MS 30000
#define ZNS_BATCH 1024U

/* libnvme: -1 with errno, a positive NVMe status, or 0. */
static int nvme_ret(int ret)
{
	if (ret < 0)
		return errno ? -errno : -EIO;
	return ret ? -EIO : 0;
}

int bq_nvme_zns_read(int fd, uint32_t nsid, struct bq_nvme_zns *zns)
{
	struct nvme_zns_id_ns id;
	struct bq_nvme_ns ns;
	uint32_t mor;
	int ret;

	memset(zns, 0, sizeof(*zns));
	ret = bq_nvme_ns_read(fd, &ns);
	if (ret)
		return ret;
	if (ns.nsid != nsid || !ns.lba_size)
		return -EINVAL;
	ret = nvme_zns_identify_ns(fd, nsid, &id);
	if (ret < 0)
		return errno ? -errno : -EIO;
	/* A namespace of another command set: the controller refuses the ZNS Identify. */
	if (ret > 0)
		return -ENODEV;
	if (ns.lbaf < 0 || ns.lbaf >= (int)ARRAY_SIZE(id.lbafe))
		return -EINVAL;
	zns->zone_lbas = le64toh(id.lbafe[ns.lbaf].zsze);
	if (!zns->zone_lbas)
		return -ENODEV;
	zns->lba_size = ns.lba_size;
	zns->nr_zones = ns.nsze / zns->zone_lbas;
	/* MOR is 0's based; all ones: no limit (0 here, as fio and the kernel have it). */
	mor = le32toh(id.mor);
	zns->max_open = mor == UINT32_MAX ? 0 : mor + 1;
	return 0;
}

void bq_nvme_zns_decode(const void *desc, struct bq_nvme_zone *z)
{
	const struct nvme_zns_desc *d = desc;

	z->type = d->zt & 0x0f;
	z->state = d->zs >> 4;
	z->zslba = le64toh(d->zslba);
	z->zcap = le64toh(d->zcap);
	z->wp = le64toh(d->wp);
}

int bq_nvme_zns_report(int fd, uint32_t nsid, uint64_t zone_lbas, uint64_t slba,
		       struct bq_nvme_zone *zones, uint32_t max)
{
	uint32_t batch = max < ZNS_BATCH ? max : ZNS_BATCH, got = 0;
	size_t len = sizeof(struct nvme_zone_report) + batch * sizeof(struct nvme_zns_desc);
	struct nvme_zone_report *rep;
	int ret = 0;

	if (!max)
		return 0;
	rep = calloc(1, len);
	if (!rep)
		return -ENOMEM;
	while (got < max) {
		uint32_t want = max - got < batch ? max - got : batch;
		uint64_t n;

		len = sizeof(*rep) + want * sizeof(struct nvme_zns_desc);
		memset(rep, 0, len);
		/* Partial: the count is of the descriptors returned, not of all zones. */
		ret = nvme_ret(nvme_zns_report_zones(fd, nsid, slba, NVME_ZNS_ZRAS_REPORT_ALL, false,
						     true, (uint32_t)len, rep, ZNS_TIMEOUT_MS,
						     NULL));
		if (ret)
			break;
		n = le64toh(rep->nr_zones);
		if (!n)
			break;
		if (n > want)
			n = want;
		for (uint64_t i = 0; i < n; i++)
			bq_nvme_zns_decode(&rep->entries[i], &zones[got++]);
		/* A report starts at the zone holding @slba: the next one, after the last. */
		slba = zones[got - 1].zslba + zone_lbas;
	}
	free(rep);
	return ret ? ret : (int)got;
}

int bq_nvme_zns_reset(int fd, uint32_t nsid, uint64_t zslba)
{
	struct nvme_zns_mgmt_send_args args = {
		.slba = zslba,
		.args_size = sizeof(args),
		.fd = fd,
		.timeout = ZNS_TIMEOUT_MS,
		.nsid = nsid,
		.zsa = NVME_ZNS_ZSA_RESET,
	};

	return nvme_ret(nvme_zns_mgmt_send(&args));
}
