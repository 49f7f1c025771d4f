// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpulist.c - parse the kernel's CPU list format
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static int parse_cpu(const char **s, long *cpu)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	errno = 0;
	*cpu = strtol(*s, &end, 10);
	if (errno || *cpu > 65535)
		return -EINVAL;
	*s = end;
	return 0;
}

int bq_cpulist_parse(const char *s, int *cpus, int max)
{
	int n = 0, last = -1;

	while (*s == ' ')
		s++;
	if (*s == '\n' || !*s)
		return 0;
	for (;;) {
		long lo, hi;

		if (parse_cpu(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (parse_cpu(&s, &hi) || hi < lo)
				return -EINVAL;
		}
		/* Keep the result ascending; sysfs never prints lists out of order. */
		if (lo <= last)
			return -EINVAL;
		for (long c = lo; c <= hi; c++) {
			if (n >= max)
				return -E2BIG;
			cpus[n++] = (int)c;
		}
		last = (int)hi;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n')
			s++;
		return *s ? -EINVAL : n;
	}
}
