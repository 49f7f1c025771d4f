// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c - read small attribute files below a movable root
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/**
 * bq_path() - join a root and a formatted relative path
 * @buf: output buffer
 * @len: its size
 * @root: root directory ("/sys" or a fixture)
 * @fmt: printf format of the path below @root, starting with '/'
 *
 * Return: 0 or -ENAMETOOLONG.
 */
int bq_path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, len, "%s", root);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

void bq_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Trim surrounding white space: SCSI vendor and model are blank-padded. */
void bq_strtrim(char *s)
{
	size_t len = strlen(s), lead = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	while (s[lead] == ' ' || s[lead] == '\t')
		lead++;
	if (lead)
		memmove(s, s + lead, len - lead + 1);
}

/**
 * bq_read_str() - read a whole attribute, trimmed
 * @path: file
 * @buf: output
 * @len: size of @buf
 *
 * Return: 0 or -errno.
 */
int bq_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	bq_strtrim(buf);
	return 0;
}

int bq_read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int ret;

	ret = bq_read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || buf[0] == '-')
		return -EINVAL;
	return 0;
}

int bq_read_int(const char *path, int *val)
{
	char buf[64], *end;
	long v;
	int ret;

	ret = bq_read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

/**
 * bq_read_bracketed() - read the selected word of a "[x] y z" attribute
 * @path: file such as queue/scheduler
 * @buf: receives the word in brackets, or the whole value if none
 * @len: size of @buf
 *
 * Return: 0 or -errno.
 */
int bq_read_bracketed(const char *path, char *buf, size_t len)
{
	char raw[256], *open_br, *close_br;
	int ret;

	ret = bq_read_str(path, raw, sizeof(raw));
	if (ret)
		return ret;
	open_br = strchr(raw, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (open_br && close_br) {
		*close_br = '\0';
		bq_strlcpy(buf, open_br + 1, len);
	} else {
		bq_strlcpy(buf, raw, len);
	}
	return 0;
}

/**
 * bq_list_dir() - names in a directory, naturally sorted, without dot files
 * @path: directory
 * @names: receives the names (appended)
 *
 * Return: 0 (also when the directory does not exist) or -errno.
 */
int bq_list_dir(const char *path, struct bq_strv *names)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ret = bq_strv_add(names, de->d_name);
		if (ret)
			break;
	}
	closedir(d);
	bq_strv_sort(names);
	return ret;
}

/**
 * bq_find_up() - find an attribute in a directory or its ancestors
 * @start: resolved directory to start in
 * @stop: do not climb above this directory
 * @attr: attribute file name, e.g. "numa_node"
 * @found: receives the directory holding it
 * @len: size of @found
 *
 * Bus devices keep numa_node on the PCI function, several levels above the
 * block device's own parent (SCSI LUN -> target -> host -> HBA).
 *
 * Return: 0 or -ENOENT.
 */
int bq_find_up(const char *start, const char *stop, const char *attr,
	       char *found, size_t len)
{
	char dir[PATH_MAX], probe[PATH_MAX + 64];
	size_t stop_len = strlen(stop);

	bq_strlcpy(dir, start, sizeof(dir));
	while (strlen(dir) > stop_len && !strncmp(dir, stop, stop_len)) {
		struct stat st;
		char *slash;

		snprintf(probe, sizeof(probe), "%s/%s", dir, attr);
		if (!stat(probe, &st)) {
			bq_strlcpy(found, dir, len);
			return 0;
		}
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return -ENOENT;
}

/**
 * bq_attr_u64() - an attribute of a sysfs directory as a number
 * @dir: the directory
 * @attr: attribute below it (may contain '/')
 * @dflt: value when the attribute is missing or not a number
 *
 * Return: the value or @dflt.
 */
uint64_t bq_attr_u64(const char *dir, const char *attr, uint64_t dflt)
{
	char path[PATH_MAX];
	uint64_t v;

	if (bq_path(path, sizeof(path), dir, "/%s", attr) || bq_read_u64(path, &v))
		return dflt;
	return v;
}

int bq_attr_int(const char *dir, const char *attr, int dflt)
{
	char path[PATH_MAX];
	int v;

	if (bq_path(path, sizeof(path), dir, "/%s", attr) || bq_read_int(path, &v))
		return dflt;
	return v;
}

/* An attribute as a trimmed string; empty when missing. */
void bq_attr_str(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (bq_path(path, sizeof(path), dir, "/%s", attr) || bq_read_str(path, buf, len))
		buf[0] = '\0';
}
