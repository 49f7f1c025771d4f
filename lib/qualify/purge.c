// SPDX-License-Identifier: GPL-2.0-only
/*
 * purge.c - return a device to its fresh-out-of-box state before a
 * qualification: NVMe Format NVM or Sanitize through libnvme, else the
 * block layer's secure discard or discard
 *
 * A purge the device cannot do is not an error: the qualification goes on
 * from whatever state the device is in and the report says so, which is
 * what the SNIA PTS asks for when no purge is available.
 */
#include <endian.h>
#include <errno.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "device/device_int.h"
#include "internal.h"
#include "qualify_int.h"

#ifdef CONFIG_LIBNVME
#include <nvme/ioctl.h>
#include <nvme/types.h>
#endif

/* A format or sanitize of a large drive takes minutes; an hour is a hang. */
#define NVME_PURGE_TIMEOUT_MS (3600u * 1000u)

static void note(struct bq_purge_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct bq_purge_result *res, const char *fmt, ...)
{
	size_t used = strlen(res->note);
	va_list ap;

	if (used >= sizeof(res->note) - 3)
		return;
	if (used) {
		strcpy(res->note + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(res->note + used, sizeof(res->note) - used, fmt, ap);
	va_end(ap);
}

static int block_discard(int fd, const struct bq_device *dev, bool secure,
			 struct bq_purge_result *res)
{
	uint64_t range[2] = { 0, dev->size };
	const char *what = secure ? "BLKSECDISCARD" : "BLKDISCARD";

	if (!secure && !dev->q.discard_max_bytes) {
		note(res, "no discard: the queue limits say the device cannot (discard_max_bytes 0)");
		return -EOPNOTSUPP;
	}
	if (ioctl(fd, secure ? BLKSECDISCARD : BLKDISCARD, range)) {
		int err = errno;

		if (err == EOPNOTSUPP || err == EINVAL)
			note(res, "%s is not supported by the device", what);
		else
			note(res, "%s failed: %s", what, strerror(err));
		return -err;
	}
	res->method = secure ? BQ_PURGE_SECDISCARD : BQ_PURGE_DISCARD;
	res->done = true;
	note(res, "%s over the whole device (%llu bytes)", what, (unsigned long long)dev->size);
	return 0;
}

#ifdef CONFIG_LIBNVME

/* An NVMe status as words, or errno's when the command never reached the device. */
static void nvme_why(char *buf, size_t len, int ret)
{
	if (ret < 0)
		snprintf(buf, len, "%s", strerror(errno));
	else
		snprintf(buf, len, "NVMe status %#x%s", ret,
			 (ret & 0x7ff) == NVME_SC_INVALID_FIELD ? " (Invalid Field)" :
			 (ret & 0x7ff) == NVME_SC_INVALID_OPCODE ? " (Invalid Opcode)" : "");
}

static int active_namespaces(int fd)
{
	struct nvme_ns_list list;
	int n = 0;

	if (nvme_identify_active_ns_list(fd, 0, &list))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(list.ns) && list.ns[i]; i++)
		n++;
	return n;
}

static int nvme_format(int fd, const struct bq_device *dev, const struct nvme_id_ctrl *ctrl,
		       struct bq_purge_result *res)
{
	struct nvme_format_nvm_args args;
	struct nvme_id_ns ns;
	struct bq_nvme_ns fmt;
	__u32 result = 0;
	char why[96];
	int ret, n;

	if (!(le16toh(ctrl->oacs) & NVME_CTRL_OACS_FORMAT)) {
		note(res, "the controller does not support Format NVM (OACS bit 1 clear)");
		return -EOPNOTSUPP;
	}
	n = active_namespaces(fd);
	if ((ctrl->fna & NVME_CTRL_FNA_FMT_ALL_NAMESPACES) && n != 1) {
		note(res, "Format NVM would format all %d namespaces of the controller (FNA bit 0), "
		     "not only %s", n, dev->name);
		return -EOPNOTSUPP;
	}
	ret = nvme_identify_ns(fd, dev->nvme.nsid, &ns);
	if (ret) {
		nvme_why(why, sizeof(why), ret);
		note(res, "Identify Namespace failed: %s", why);
		return -EIO;
	}
	bq_nvme_ns_decode(&ns, &fmt);
	/* Same LBA format, metadata and protection: a purge, not a reformat. */
	memset(&args, 0, sizeof(args));
	args.args_size = sizeof(args);
	args.fd = fd;
	args.timeout = NVME_PURGE_TIMEOUT_MS;
	args.nsid = dev->nvme.nsid;
	args.lbaf = (__u8)(fmt.lbaf & 0xf);
	args.lbafu = (__u8)((fmt.lbaf >> 4) & 0x3);
	args.mset = (ns.flbas & NVME_NS_FLBAS_META_EXT) ? NVME_FORMAT_MSET_EXTENDED :
			NVME_FORMAT_MSET_SEPARATE;
	args.pi = ns.dps & NVME_NS_DPS_PI_MASK;
	args.pil = (ns.dps & NVME_NS_DPS_PI_FIRST) ? NVME_FORMAT_PIL_FIRST : NVME_FORMAT_PIL_LAST;
	args.ses = NVME_FORMAT_SES_USER_DATA_ERASE;
	args.result = &result;
	ret = nvme_format_nvm(&args);
	/* Generic status (type 0), Invalid Field in Command. */
	if (ret > 0 && (ret & 0x7ff) == NVME_SC_INVALID_FIELD) {
		/* Some controllers (and emulations) take only a plain format. */
		note(res, "User Data Erase refused (Invalid Field), formatted without it");
		args.ses = NVME_FORMAT_SES_NONE;
		ret = nvme_format_nvm(&args);
	}
	if (ret) {
		nvme_why(why, sizeof(why), ret);
		note(res, "Format NVM failed: %s", why);
		return -EIO;
	}
	res->method = BQ_PURGE_FORMAT;
	res->done = true;
	note(res, "Format NVM of namespace %u, LBA format %d kept%s", dev->nvme.nsid, fmt.lbaf,
	     args.ses ? ", User Data Erase" : "");
	return 0;
}

static int nvme_sanitize(int fd, const struct bq_device *dev, const struct nvme_id_ctrl *ctrl,
			 struct bq_purge_result *res)
{
	struct nvme_sanitize_nvm_args args;
	struct nvme_sanitize_log_page log;
	__u32 sanicap = le32toh(ctrl->sanicap), result = 0;
	uint64_t deadline;
	char why[96];
	int ret, n;

	if (!(sanicap & (NVME_CTRL_SANICAP_CES | NVME_CTRL_SANICAP_BES | NVME_CTRL_SANICAP_OWS))) {
		note(res, "the controller does not support Sanitize (SANICAP 0)");
		return -EOPNOTSUPP;
	}
	/* Sanitize erases the whole subsystem: only when this is its one namespace. */
	n = active_namespaces(fd);
	if (n != 1) {
		note(res, "Sanitize would erase all %d namespaces, not only %s", n, dev->name);
		return -EOPNOTSUPP;
	}
	memset(&args, 0, sizeof(args));
	args.args_size = sizeof(args);
	args.fd = fd;
	args.timeout = NVME_PURGE_TIMEOUT_MS;
	args.sanact = sanicap & NVME_CTRL_SANICAP_BES ? NVME_SANITIZE_SANACT_START_BLOCK_ERASE :
		      sanicap & NVME_CTRL_SANICAP_CES ? NVME_SANITIZE_SANACT_START_CRYPTO_ERASE :
		      NVME_SANITIZE_SANACT_START_OVERWRITE;
	args.owpass = 1;
	args.result = &result;
	ret = nvme_sanitize_nvm(&args);
	if (ret) {
		nvme_why(why, sizeof(why), ret);
		note(res, "Sanitize failed: %s", why);
		return -EIO;
	}
	/* The command only starts it; the log says when it is over. */
	deadline = bq_now_ns() + NVME_PURGE_TIMEOUT_MS * 1000000ull;
	for (;;) {
		int status;

		ret = nvme_get_log_sanitize(fd, false, &log);
		if (ret) {
			nvme_why(why, sizeof(why), ret);
			note(res, "reading the Sanitize Status log failed: %s", why);
			return -EIO;
		}
		status = le16toh(log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK;
		if (status == NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS ||
		    status == NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS)
			break;
		if (status == NVME_SANITIZE_SSTAT_STATUS_COMPLETED_FAILED) {
			note(res, "Sanitize completed with a failure");
			return -EIO;
		}
		if (bq_now_ns() > deadline) {
			note(res, "Sanitize still running after an hour");
			return -ETIMEDOUT;
		}
		usleep(200000);
	}
	res->method = BQ_PURGE_SANITIZE;
	res->done = true;
	note(res, "Sanitize (%s)", args.sanact == NVME_SANITIZE_SANACT_START_BLOCK_ERASE ?
	     "block erase" : args.sanact == NVME_SANITIZE_SANACT_START_CRYPTO_ERASE ?
	     "crypto erase" : "overwrite");
	return 0;
}

static int nvme_purge(int fd, const struct bq_device *dev, enum bq_purge want,
		      struct bq_purge_result *res)
{
	struct nvme_id_ctrl ctrl;
	char why[96];
	int ret;

	if (dev->kind != BQ_DEV_NVME || !dev->nvme.nsid) {
		note(res, "%s is not an NVMe namespace", dev->name);
		return -EOPNOTSUPP;
	}
	ret = nvme_identify_ctrl(fd, &ctrl);
	if (ret) {
		nvme_why(why, sizeof(why), ret);
		note(res, "Identify Controller failed: %s", why);
		return -EIO;
	}
	return want == BQ_PURGE_SANITIZE ? nvme_sanitize(fd, dev, &ctrl, res) :
					   nvme_format(fd, dev, &ctrl, res);
}

#else

static int nvme_purge(int fd, const struct bq_device *dev, enum bq_purge want,
		      struct bq_purge_result *res)
{
	note(res, "built without libnvme: no NVMe %s", want == BQ_PURGE_SANITIZE ? "Sanitize" :
	     "Format NVM");
	return -EOPNOTSUPP;
}

#endif

int bq_purge_device(struct bq_ctx *ctx, int fd, const struct bq_device *dev, enum bq_purge want,
		    struct bq_purge_result *res)
{
	uint64_t start = bq_now_ns();

	memset(res, 0, sizeof(*res));
	res->method = BQ_PURGE_NONE;
	switch (want) {
	case BQ_PURGE_NONE:
		note(res, "the profile says purge=none");
		break;
	case BQ_PURGE_DISCARD:
		block_discard(fd, dev, false, res);
		break;
	case BQ_PURGE_SECDISCARD:
		block_discard(fd, dev, true, res);
		break;
	case BQ_PURGE_FORMAT:
	case BQ_PURGE_SANITIZE:
		nvme_purge(fd, dev, want, res);
		break;
	case BQ_PURGE_AUTO:
		if (dev->kind == BQ_DEV_NVME && !nvme_purge(fd, dev, BQ_PURGE_FORMAT, res))
			break;
		if (!block_discard(fd, dev, true, res))
			break;
		block_discard(fd, dev, false, res);
		break;
	default:
		return -EINVAL;
	}
	if (!res->done && want != BQ_PURGE_NONE)
		note(res, "not purged: the results start from the device's current state");
	res->ns = bq_now_ns() - start;
	return 0;
}
