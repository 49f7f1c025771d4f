// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_health.c - NVMe identify and SMART/health data through libnvme
 *
 * libnvme builds and sends the admin commands; this file only picks the
 * fields a tester reads before and after a qualification run.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "device_int.h"
#include "internal.h"

/* 128-bit little-endian counters; saturate rather than wrap past 2^64. */
static uint64_t le128_to_u64(const uint8_t b[16])
{
	uint64_t v = 0;

	for (int i = 15; i >= 8; i--)
		if (b[i])
			return UINT64_MAX;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Identify strings are space-padded and not NUL-terminated. */
static void copy_id_string(char *dst, size_t dlen, const char *src, size_t slen)
{
	size_t n = slen < dlen - 1 ? slen : dlen - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
	bq_strtrim(dst);
}

void bq_nvme_health_decode(const void *id_ctrl, const void *id_ns,
			   const void *smart, struct bq_nvme_health *h)
{
	const struct nvme_id_ctrl *c = id_ctrl;
	const struct nvme_smart_log *s = smart;

	memset(h, 0, sizeof(*h));
	h->vid = le16toh(c->vid);
	h->ssvid = le16toh(c->ssvid);
	copy_id_string(h->model, sizeof(h->model), c->mn, sizeof(c->mn));
	copy_id_string(h->serial, sizeof(h->serial), c->sn, sizeof(c->sn));
	copy_id_string(h->firmware, sizeof(h->firmware), c->fr, sizeof(c->fr));
	h->nn = le32toh(c->nn);
	h->mdts = c->mdts;
	h->oncs = le16toh(c->oncs);
	h->vwc = c->vwc;

	if (id_ns) {
		const struct nvme_id_ns *ns = id_ns;
		struct bq_nvme_ns fmt;

		bq_nvme_ns_decode(id_ns, &fmt);
		h->nsze = fmt.nsze;
		h->ncap = le64toh(ns->ncap);
		h->nuse = le64toh(ns->nuse);
		h->nr_lbaf = ns->nlbaf + 1;
		h->cur_lbaf = fmt.lbaf;
		h->lba_size = fmt.lba_size;
		h->lba_meta = fmt.lba_meta;
	}

	h->critical_warning = s->critical_warning;
	/* Composite temperature is in kelvin. */
	h->temperature = (int)(s->temperature[0] | s->temperature[1] << 8) - 273;
	h->avail_spare = s->avail_spare;
	h->spare_thresh = s->spare_thresh;
	h->percent_used = s->percent_used;
	/* Data units are thousands of 512-byte units. */
	h->data_read = mul_sat(le128_to_u64(s->data_units_read), 512000);
	h->data_written = mul_sat(le128_to_u64(s->data_units_written), 512000);
	h->host_reads = le128_to_u64(s->host_reads);
	h->host_writes = le128_to_u64(s->host_writes);
	h->power_cycles = le128_to_u64(s->power_cycles);
	h->power_on_hours = le128_to_u64(s->power_on_hours);
	h->unsafe_shutdowns = le128_to_u64(s->unsafe_shutdowns);
	h->media_errors = le128_to_u64(s->media_errors);
	h->error_log_entries = le128_to_u64(s->num_err_log_entries);
}

int bq_nvme_health_read(struct bq_ctx *ctx, const struct bq_device *dev,
			struct bq_nvme_health *h)
{
	struct nvme_id_ctrl id_ctrl;
	struct nvme_id_ns id_ns;
	struct nvme_smart_log smart;
	bool have_ns;
	int fd, ret;

	if (!ctx->live)
		return -EOPNOTSUPP;
	if (dev->kind != BQ_DEV_NVME)
		return -ENODEV;
	/* Admin commands work on the namespace node; no write access needed. */
	fd = open(dev->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = nvme_identify_ctrl(fd, &id_ctrl);
	if (ret)
		goto out_close_fd;
	have_ns = dev->nvme.nsid && !nvme_identify_ns(fd, dev->nvme.nsid, &id_ns);
	ret = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &smart);
	if (ret)
		goto out_close_fd;
	bq_nvme_health_decode(&id_ctrl, have_ns ? &id_ns : NULL, &smart, h);
out_close_fd:
	close(fd);
	/* libnvme returns -1 with errno, or a positive NVMe status. */
	if (ret < 0)
		ret = -errno;
	else if (ret > 0)
		ret = -EIO;
	return ret;
}
