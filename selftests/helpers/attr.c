// SPDX-License-Identifier: GPL-2.0-only
/*
 * attr.c - test helper: reading and writing one sysfs or configfs attribute
 *
 * One write(2) of the whole value: configfs and sysfs take a value in a
 * single write, and report a refused value as that write's error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "attr.h"

/**
 * attr_write() - write a formatted value to an attribute
 * @path: the attribute's file
 * @fmt: printf format of the value
 *
 * Return: 0, or -errno of the open or the write.
 */
int attr_write(const char *path, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	ssize_t n;
	int fd, len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(buf))
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, (size_t)len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

/**
 * attr_read_ll() - read an attribute holding one integer
 * @path: the attribute's file
 * @val: the value read
 *
 * Return: 0, -errno of the open, or -EIO when nothing could be read.
 */
int attr_read_ll(const char *path, long long *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	*val = strtoll(buf, NULL, 10);
	return 0;
}
