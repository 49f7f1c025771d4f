// SPDX-License-Identifier: GPL-2.0-only
/*
 * units.c - sizes and durations as fio job options spell them
 *
 * Both parsers are strict: a value a user mistyped must fail rather than
 * quietly become something else, since it decides how much of a device
 * gets written.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "blkqual_io.h"
#include "internal.h"

/* Leading decimal digits into *val; the caller checks what follows. */
static int parse_digits(const char **s, uint64_t *val)
{
	const char *p = *s;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
			return -ERANGE;
	}
	*s = p;
	*val = v;
	return 0;
}

/*
 * While a job option is being set, the job's kb_base (bq_job_set() puts it
 * here): every size parser of every option then means what fio means by
 * "4k" and "4KiB" without each setter passing it along.  0 outside a job
 * option: blkqual's own flags keep the plain powers of 1024.
 */
static __thread unsigned int job_kb_base;

/**
 * bq_units_job_kb_base() - the kb_base sizes are read with on this thread
 * @kb_base: 1000, 1024, or 0 (not inside a job option)
 *
 * Return: the value it replaces, for the caller to put back.
 */
unsigned int bq_units_job_kb_base(unsigned int kb_base)
{
	unsigned int old = job_kb_base;

	job_kb_base = kb_base;
	return old;
}

/*
 * The multiplier of the unit at @p, fio's rules: "k", "kb" are kb_base,
 * "kib" is the other base (1000 when kb_base is 1024: fio inverts the
 * prefixes for old job files), "ki" without "b" is only "k".
 */
static int size_unit(const char *p, unsigned int kb_base, uint64_t *mult)
{
	static const char prefixes[] = "kmgtp";
	const char *hit = strchr(prefixes, tolower((unsigned char)*p));
	uint64_t base = kb_base;

	if (!hit || !*p)
		return -EINVAL;
	p++;
	if (tolower((unsigned char)p[0]) == 'i' && tolower((unsigned char)p[1]) == 'b' &&
	    kb_base) {
		base = kb_base == 1000 ? 1024 : 1000;
		p += 2;
	} else {
		if (tolower((unsigned char)*p) == 'i')
			p++;
		if (tolower((unsigned char)*p) == 'b')
			p++;
	}
	if (*p)
		return -EINVAL;
	if (!kb_base)
		base = 1024;
	*mult = 1;
	for (const char *q = prefixes; q <= hit; q++)
		*mult *= base;
	return 0;
}

/**
 * bq_parse_size() - parse a size the way fio does
 * @s: "4k", "4ki", "4KiB", "1m", "2g", "512", "1t"
 * @out: bytes
 *
 * Only whole numbers: fio's fractional sizes ("1.5g") are rare and would
 * round in ways a user cannot see.  Inside a job option the job's kb_base
 * applies (see bq_units_job_kb_base()).
 *
 * Return: 0, or -EINVAL (malformed, negative) or -ERANGE (overflow).
 */
int bq_parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t val, mult = 1;
	int ret;

	if (!s)
		return -EINVAL;
	ret = parse_digits(&p, &val);
	if (ret)
		return ret;
	if (*p) {
		if (tolower((unsigned char)*p) == 'b' && !p[1])
			p++;
		else if (size_unit(p, job_kb_base, &mult))
			return -EINVAL;
	}
	if (__builtin_mul_overflow(val, mult, &val))
		return -ERANGE;
	*out = val;
	return 0;
}

struct time_unit {
	const char *name;
	uint64_t ns;
};

static const struct time_unit time_units[] = {
	{ "ns", 1 },
	{ "nsec", 1 },
	{ "us", 1000 },
	{ "usec", 1000 },
	{ "ms", 1000000 },
	{ "msec", 1000000 },
	{ "s", 1000000000ull },
	{ "sec", 1000000000ull },
	{ "m", 60 * 1000000000ull },
	{ "min", 60 * 1000000000ull },
	{ "h", 3600 * 1000000000ull },
	{ "d", 86400 * 1000000000ull },
};

/*
 * The fraction of @unit that digits [@frac, @frac + @n) after the point
 * stand for, truncated to whole nanoseconds.  With at most nine digits,
 * unit = q * 10^n + r keeps every product below 2^64 without 128-bit math.
 */
static uint64_t frac_of(const char *frac, size_t n, uint64_t unit)
{
	uint64_t num = 0, pow10 = 1;

	if (n > 9)
		n = 9;
	for (size_t i = 0; i < n; i++) {
		num = num * 10 + (uint64_t)(frac[i] - '0');
		pow10 *= 10;
	}
	return num * (unit / pow10) + num * (unit % pow10) / pow10;
}

/**
 * bq_parse_time() - parse a duration
 * @s: "10", "10s", "500ms", "250us", "100ns", "2m", "1h", "1.5s"
 * @default_unit_ns: what a bare number means (1e9 for fio's runtime)
 * @out: nanoseconds
 *
 * As in fio, "m" means minutes here, not milli.  A fraction below one
 * nanosecond is dropped.
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int bq_parse_time(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	const char *p = s, *frac = NULL;
	uint64_t whole, unit = default_unit_ns, ns, part;
	size_t nfrac = 0;
	int ret;

	if (!s || !default_unit_ns)
		return -EINVAL;
	ret = parse_digits(&p, &whole);
	if (ret)
		return ret;
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		nfrac = (size_t)(p - frac);
		if (!nfrac)
			return -EINVAL;
	}
	if (*p) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(time_units); i++)
			if (!strcasecmp(p, time_units[i].name))
				break;
		if (i == ARRAY_SIZE(time_units))
			return -EINVAL;
		unit = time_units[i].ns;
	}
	if (__builtin_mul_overflow(whole, unit, &ns))
		return -ERANGE;
	part = nfrac ? frac_of(frac, nfrac, unit) : 0;
	if (__builtin_add_overflow(ns, part, &ns))
		return -ERANGE;
	*out = ns;
	return 0;
}
