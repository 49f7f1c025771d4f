// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_ns.c - test helper: an NVMe namespace found by its controller's
 * serial and its namespace ID, through sysfs
 */
#include <dirent.h>
#include <endian.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "config-host.h"
#include "nvme_ns.h"
#include "run.h"

#ifdef CONFIG_LIBNVME
#include <nvme/types.h>
#include <nvme/ioctl.h>
#include <nvme/util.h>
#endif

/* Whether the sysfs file @path holds the decimal @want (and a newline). */
static bool holds_number(const char *path, unsigned int want)
{
	char *s = slurp(path), buf[16];
	size_t n;
	bool yes;

	if (!s)
		return false;
	n = (size_t)snprintf(buf, sizeof(buf), "%u", want);
	yes = !strncmp(s, buf, n) && (s[n] == '\n' || !s[n]);
	free(s);
	return yes;
}

/*
 * The devices of namespace entry @name: nvmeXnY itself, or for a path
 * of a subsystem's shared namespace, nvmeXcZnY, the head nvmeXnY that
 * the kernel's multipathing puts in front of it.
 */
static int dev_names(const char *name, char *blk, char *ng, size_t len)
{
	unsigned int x, z, y;
	char tail;

	if (sscanf(name, "nvme%uc%un%u%c", &x, &z, &y, &tail) == 3) {
		snprintf(blk, len, "/dev/nvme%un%u", x, y);
		snprintf(ng, len, "/dev/ng%un%u", x, y);
		return 0;
	}
	snprintf(blk, len, "/dev/%.32s", name);
	snprintf(ng, len, "/dev/ng%.32s", name + 4);
	return 0;
}

/* Namespace @nsid among the entries of /sys/class/nvme/@ctrl. */
static int ns_of(const char *ctrl, unsigned int nsid, char *ng, char *blk, size_t len)
{
	char path[1024];
	struct dirent *n;
	int ret = -1;
	DIR *cd;

	snprintf(path, sizeof(path), "/sys/class/nvme/%s", ctrl);
	cd = opendir(path);
	while (cd && ret && (n = readdir(cd))) {
		if (strncmp(n->d_name, ctrl, strlen(ctrl)) || !strchr(n->d_name + strlen(ctrl), 'n'))
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/%s/nsid", ctrl, n->d_name);
		if (!holds_number(path, nsid))
			continue;
		ret = dev_names(n->d_name, blk, ng, len);
	}
	if (cd)
		closedir(cd);
	return ret;
}

/* The controller (nvmeN) whose serial starts with @serial, into @ctrl. */
static int ctrl_by_serial(const char *serial, char *ctrl, size_t len)
{
	char path[1024];
	struct dirent *c;
	int ret = -1;
	DIR *d;

	d = opendir("/sys/class/nvme");
	if (!d)
		return -1;
	while (ret && (c = readdir(d))) {
		char *s;

		if (c->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/serial", c->d_name);
		s = slurp(path);
		if (s && !strncmp(s, serial, strlen(serial))) {
			snprintf(ctrl, len, "%.60s", c->d_name);
			ret = 0;
		}
		free(s);
	}
	closedir(d);
	return ret;
}

int nvme_ns_attach_by_serial(const char *serial, unsigned int nsid)
{
#ifdef CONFIG_LIBNVME
	char ctrl[64], dev[80], ng[256], blk[256];
	struct timespec tick = { 0, 100000000 };
	struct nvme_ctrl_list list;
	struct nvme_id_ctrl id;
	__u16 cntlid;
	int fd, ret;

	if (ctrl_by_serial(serial, ctrl, sizeof(ctrl)))
		return -1;
	snprintf(dev, sizeof(dev), "/dev/%s", ctrl);
	fd = open(dev, O_RDWR);
	if (fd < 0)
		return -1;
	ret = nvme_identify_ctrl(fd, &id);
	if (!ret) {
		cntlid = le16toh(id.cntlid);
		nvme_init_ctrl_list(&list, 1, &cntlid);
		/* Attached already (status 118h) is as good. */
		ret = nvme_ns_attach_ctrls(fd, nsid, &list);
		if (ret > 0 && (ret & 0x7ff) == 0x118)
			ret = 0;
	}
	if (!ret)
		ret = ioctl(fd, NVME_IOCTL_RESCAN);
	close(fd);
	for (int i = 0; !ret && i < 100; i++) {
		if (!ns_of(ctrl, nsid, ng, blk, sizeof(ng)) && !access(ng, F_OK))
			return 0;
		nanosleep(&tick, NULL);
	}
	return -1;
#else
	(void)serial;
	(void)nsid;
	return -1;
#endif
}

int nvme_ns_by_serial(const char *serial, unsigned int nsid, char *ng, char *blk, size_t len)
{
	char ctrl[64];

	if (ctrl_by_serial(serial, ctrl, sizeof(ctrl)) || ns_of(ctrl, nsid, ng, blk, len))
		return -1;
	return access(ng, F_OK);
}
