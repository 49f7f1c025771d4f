// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_passthru_ns.c - what passthrough I/O needs to know about a
 * namespace (ID, size, LBA format), read through libnvme
 *
 * The block layer's view (size, logical block size) may be missing or
 * zero for a namespace the kernel cannot use as a block device, while
 * its generic device still works; Identify Namespace is the truth.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "device_int.h"
#include "internal.h"

void bq_nvme_ns_decode(const void *id_ns, struct bq_nvme_ns *ns)
{
	const struct nvme_id_ns *id = id_ns;
	/* FLBAS bits 3:0 index the format, bits 6:5 extend it past 16 (NVMe 2.0). */
	int idx = (id->flbas & NVME_NS_FLBAS_LOWER_MASK) |
		  ((id->flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 1);

	memset(ns, 0, sizeof(*ns));
	ns->nsze = le64toh(id->nsze);
	ns->lbaf = idx;
	if (idx < (int)ARRAY_SIZE(id->lbaf) && id->lbaf[idx].ds < 32) {
		ns->lba_size = 1u << id->lbaf[idx].ds;
		ns->lba_meta = le16toh(id->lbaf[idx].ms);
	}
	ns->meta_ext = id->flbas & NVME_NS_FLBAS_META_EXT;
	/* PI needs metadata to live in; DPS without it means nothing. */
	if (ns->lba_meta) {
		ns->pi_type = id->dps & NVME_NS_DPS_PI_MASK;
		ns->pi_first = id->dps & NVME_NS_DPS_PI_FIRST;
		ns->pi_size = ns->pi_type ? 8 : 0;
	}
}

/*
 * The guard format of the namespace's LBA format: 16-bit unless the
 * controller has extended LBA formats and the NVM command set's Identify
 * Namespace says otherwise (NVMe NVM Command Set 1.0, ELBAF).
 */
static int read_guard(int fd, struct bq_nvme_ns *ns)
{
	struct nvme_nvm_id_ns nvm;
	struct nvme_id_ctrl ctrl;
	uint32_t elbaf;
	int ret;

	ret = nvme_identify_ctrl(fd, &ctrl);
	if (ret)
		return ret < 0 ? (errno ? -errno : -EIO) : -EIO;
	if (!(le32toh(ctrl.ctratt) & NVME_CTRL_CTRATT_ELBAS))
		return 0;
	ret = nvme_identify_ns_csi(fd, ns->nsid, 0, NVME_CSI_NVM, &nvm);
	if (ret)
		return ret < 0 ? (errno ? -errno : -EIO) : -EIO;
	if (ns->lbaf >= (int)ARRAY_SIZE(nvm.elbaf))
		return -EIO;
	elbaf = le32toh(nvm.elbaf[ns->lbaf]);
	ns->sts = elbaf & NVME_NVM_ELBAF_STS_MASK;
	switch ((elbaf & NVME_NVM_ELBAF_PIF_MASK) >> 7) {
	case 0:
		ns->pi_size = 8;
		break;
	case 2:
		ns->pi_size = 16;
		break;
	default:
		/* The 32-bit guard (PIF 1) always comes with a storage tag. */
		ns->pi_size = 0;
		break;
	}
	return 0;
}

int bq_nvme_ns_read(int fd, struct bq_nvme_ns *ns)
{
	struct nvme_id_ns id;
	uint32_t nsid;
	int ret;

	memset(ns, 0, sizeof(*ns));
	if (nvme_get_nsid(fd, &nsid))
		return errno ? -errno : -EIO;
	ret = nvme_identify_ns(fd, nsid, &id);
	/* libnvme returns -1 with errno, or a positive NVMe status. */
	if (ret < 0)
		return errno ? -errno : -EIO;
	if (ret > 0)
		return -EIO;
	bq_nvme_ns_decode(&id, ns);
	ns->nsid = nsid;
	return ns->pi_type ? read_guard(fd, ns) : 0;
}
