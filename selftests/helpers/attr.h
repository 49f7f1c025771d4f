/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * attr.h - test helper: reading and writing one sysfs or configfs attribute
 */
#ifndef SELFTESTS_ATTR_H
#define SELFTESTS_ATTR_H

int attr_write(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int attr_read_ll(const char *path, long long *val);

#endif /* SELFTESTS_ATTR_H */
