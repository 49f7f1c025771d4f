// SPDX-License-Identifier: GPL-2.0-only
/*
 * units.c - sizes for people: binary units as lsblk prints them
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

void fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGTPE";
	double v = (double)bytes;
	int u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 "B", bytes);
		return;
	}
	while (v >= 1024.0 && u < 6) {
		v /= 1024.0;
		u++;
	}
	/* Whole numbers without ".0", as lsblk does: "20G", "186.3G". */
	if ((bytes & ((1ULL << (10 * u)) - 1)) == 0)
		snprintf(buf, len, "%.0f%c", v, units[u]);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
}
