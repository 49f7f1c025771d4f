// SPDX-License-Identifier: GPL-2.0-only
/*
 * loopdev.c - test helper: scratch loop devices that cannot be leaked
 *
 * Tests never touch a device they did not make: each makes a sparse file
 * in its own temp dir, binds a free loop device to it with LOOP_CONFIGURE
 * and autoclear, and keeps one descriptor open.  When the test process
 * ends, however it ends, the kernel detaches the device.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/loop.h>

#include "helpers/attr.h"
#include "helpers/loopdev.h"

/* Return NULL when running as root, else the reason to skip. */
const char *need_root(void)
{
	return geteuid() ? "needs root (loop devices)" : NULL;
}

const char *need_program(const char *prog)
{
	static char reason[128];
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	if (!system(cmd))
		return NULL;
	snprintf(reason, sizeof(reason), "needs %s (not installed)", prog);
	return reason;
}

int run_quiet(const char *fmt, ...)
{
	char cmd[1024];
	size_t n;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	n = strlen(cmd);
	snprintf(cmd + n, sizeof(cmd) - n, " >/dev/null 2>&1");
	ret = system(cmd);
	return ret == -1 ? -errno : WEXITSTATUS(ret);
}

int scratch_make(struct scratch *s, off_t size)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	memset(s, 0, sizeof(*s));
	s->hold_fd = -1;
	snprintf(s->dir, sizeof(s->dir), "%s/blkqual-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir))
		return -errno;
	snprintf(s->file, sizeof(s->file), "%s/backing.img", s->dir);
	fd = open(s->file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, size)) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

/**
 * loop_nomerges() - set a loop device's queue/nomerges
 * @dev: "/dev/loopN"
 * @mode: 0 merges as the kernel likes, 2 never merges (one request per I/O)
 *
 * A loop device keeps its queue settings when it is detached and attached
 * again, so one test's setting would otherwise reach the next test that
 * happens to get the same device.
 *
 * Return: 0 or -errno.
 */
int loop_nomerges(const char *dev, int mode)
{
	char attr[96];
	const char *name = strrchr(dev, '/');

	snprintf(attr, sizeof(attr), "/sys/block/%s/queue/nomerges", name ? name + 1 : dev);
	return attr_write(attr, "%d", mode);
}

/**
 * loop_attach() - a free loop device over a file or device, as losetup -f
 * @backing: the file or block device behind it
 * @flags: LO_FLAGS_READ_ONLY, LO_FLAGS_PARTSCAN, or 0; autoclear is added
 * @offset: where in @backing the device starts
 * @dev: receives "/dev/loopN"
 * @len: size of @dev
 * @hold_fd: receives our descriptor of it: the device goes away when the
 *	last descriptor closes, even if the test crashes
 *
 * The device merges requests as a fresh one does (nomerges=0).
 *
 * Return: 0 or -errno.
 */
int loop_attach(const char *backing, unsigned int flags, uint64_t offset, char *dev,
		size_t len, int *hold_fd)
{
	struct loop_config cfg = { 0 };
	int ctl, bfd, fd = -1, ret = -EBUSY;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	bfd = open(backing, (flags & LO_FLAGS_READ_ONLY ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (bfd < 0) {
		ret = -errno;
		goto out_close_ctl;
	}
	cfg.fd = bfd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | flags;
	cfg.info.lo_offset = offset;
	/* Another process may grab the free device first: try again. */
	for (int tries = 0; tries < 16 && ret == -EBUSY; tries++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (nr < 0) {
			ret = -errno;
			break;
		}
		snprintf(dev, len, "/dev/loop%d", nr);
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
		if (ret) {
			close(fd);
			fd = -1;
		}
	}
	if (fd >= 0) {
		*hold_fd = fd;
		/* The kernel's default, whatever the device's last user set. */
		loop_nomerges(dev, 0);
	} else {
		dev[0] = '\0';
	}
	close(bfd);
out_close_ctl:
	close(ctl);
	return ret;
}

int scratch_attach(struct scratch *s)
{
	return loop_attach(s->file, 0, 0, s->dev, sizeof(s->dev), &s->hold_fd);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void scratch_destroy(struct scratch *s)
{
	if (s->hold_fd >= 0) {
		/* The free device is left as a fresh one is. */
		loop_nomerges(s->dev, 0);
		/* Autoclear detaches on this last close; clear it anyway if held. */
		ioctl(s->hold_fd, LOOP_CLR_FD, 0);
		close(s->hold_fd);
		s->hold_fd = -1;
	}
	if (s->file[0])
		unlink(s->file);
	/*
	 * Tests leave job files, logs and results beside the backing file;
	 * take them too, never following a link or crossing a mount.
	 */
	if (s->dir[0])
		nftw(s->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
