// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_zbd.c - the options of fio's zonemode=zbd: max_open_zones,
 * job_max_open_zones, zonecapacity, read_beyond_wp, ignore_zone_limits,
 * zone_reset_threshold and zone_reset_frequency; and the zone counts
 * ("524z") fio takes for size, io_size, offset, offset_increment and
 * zoneskip in any zone mode
 *
 * The ranges are fio's, so a job file fio refuses is refused here too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_zbd.h"

static int parse_flag(const char *val, bool *b)
{
	if (!val || !strcmp(val, "1"))
		*b = true;
	else if (!strcmp(val, "0"))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

/* A fraction in [0, 1], as fio's zone_reset_* take it. */
static int parse_fraction(const char *val, double *out)
{
	char *end;
	double v;

	if (!val || !*val)
		return -EINVAL;
	errno = 0;
	v = strtod(val, &end);
	if (errno || *end || v < 0 || v > 1)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_zones(const char *val, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!val || !*val || *val == '-')
		return -EINVAL;
	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || *end || v > BQ_ZBD_MAX_OPEN_ZONES)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/**
 * bq_job_set_zbd() - set one zonemode=zbd option
 * @o: the table entry
 * @key: the option's name
 * @val: its value; NULL for a flag without one
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_set_zbd(const struct job_opt *o, const char *key, const char *val,
		   struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (!strcmp(key, "max_open_zones") || !strcmp(key, "job_max_open_zones")) {
		unsigned int n;

		if (parse_zones(val, &n))
			return bq_parse_fail(err, -EINVAL, "%s=%s: a number of zones, 0..%u", key,
					     val ? val : "", BQ_ZBD_MAX_OPEN_ZONES);
		if (key[0] == 'm')
			job->max_open_zones = n;
		else
			job->job_max_open_zones = n;
	} else if (!strcmp(key, "zonecapacity")) {
		if (!val || bq_parse_size(val, &v))
			return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 256m)", key,
					     val ? val : "");
		job->zone_capacity = v;
	} else if (!strcmp(key, "read_beyond_wp") || !strcmp(key, "ignore_zone_limits")) {
		bool b;

		if (parse_flag(val, &b))
			return bq_parse_fail(err, -EINVAL, "%s=%s: use 0 or 1", key, val);
		if (key[0] == 'r')
			job->read_beyond_wp = b;
		else
			job->ignore_zone_limits = b;
	} else {
		double f;

		if (parse_fraction(val, &f))
			return bq_parse_fail(err, -EINVAL, "%s=%s: a fraction from 0 to 1", key,
					     val ? val : "");
		if (!strcmp(key, "zone_reset_threshold"))
			job->zone_reset_threshold = f;
		else
			job->zone_reset_frequency = f;
	}
	return 0;
}

/* The options fio lets count zones ("524z"), and where their counts go. */
static uint32_t *zone_units_field(const char *key, struct bq_job *job)
{
	if (!strcmp(key, "size"))
		return &job->size_nz;
	if (!strcmp(key, "io_size") || !strcmp(key, "io_limit"))
		return &job->io_size_nz;
	if (!strcmp(key, "offset"))
		return &job->offset_nz;
	if (!strcmp(key, "offset_increment"))
		return &job->offset_increment_nz;
	if (!strcmp(key, "zoneskip"))
		return &job->zone_skip_nz;
	return NULL;
}

/**
 * bq_job_set_zone_units() - size, io_size, offset, offset_increment or
 * zoneskip given as a number of zones
 * @key: the option's name
 * @val: its value; NULL for a flag
 * @job: the job
 * @err: filled in on failure
 *
 * fio takes "Nz" for these five and turns it into bytes once it knows the
 * zone size (the device's with zonemode=zbd, else zonesize); until then
 * the option's bytes are 0, as in fio, and stay 0 when there is no zone
 * size.  Any other value of these options clears the count, so the last
 * one given wins.
 *
 * Return: 0 (set), -ENOENT (not a zone count: the option's own setter
 * takes it) or -EINVAL.
 */
int bq_job_set_zone_units(const char *key, const char *val, struct bq_job *job,
			  struct bq_parse_error *err)
{
	uint32_t *nz = val ? zone_units_field(key, job) : NULL;
	size_t len = val ? strlen(val) : 0;
	unsigned long n;
	char *end;

	if (!nz)
		return -ENOENT;
	if (!len || val[len - 1] != 'z') {
		*nz = 0;
		return -ENOENT;
	}
	errno = 0;
	n = strtoul(val, &end, 10);
	if (errno || end == val || *end != 'z' || end[1] || *val == '-' || n > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: a number of zones (like 8z)", key, val);
	*nz = (uint32_t)n;
	if (nz == &job->size_nz) {
		job->size = 0;
		job->size_pct = 0;
	} else if (nz == &job->io_size_nz) {
		job->io_size = 0;
	} else if (nz == &job->offset_nz) {
		job->offset = 0;
		job->offset_pct = 0;
	} else if (nz == &job->offset_increment_nz) {
		job->offset_increment = 0;
		job->offset_increment_pct = 0;
	} else {
		job->zone_skip = 0;
	}
	return 0;
}

/**
 * bq_job_check_zbd() - the zonemode=zbd options fit the rest of the job
 * @job: the job
 * @err: filled in on failure
 *
 * What fio checks before it knows the device (zonecapacity over
 * zonesize); and what blkqual does not do with zones yet.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int bq_job_check_zbd(const struct bq_job *job, struct bq_parse_error *err)
{
	if (job->zonemode != BQ_ZONEMODE_ZBD)
		return 0;
	if (job->zone_capacity && job->zone_size && job->zone_capacity > job->zone_size)
		return bq_parse_fail(err, -EINVAL, "zonecapacity %" PRIu64 " is larger than "
				     "zonesize %" PRIu64, job->zone_capacity, job->zone_size);
	if (job->nr_files > 1 || job->nrfiles > 1 || job->directory[0])
		return bq_parse_fail(err, -EOPNOTSUPP, "zonemode=zbd works on one filename "
				     "per job");
	/* fio 3.33 stops on an assertion here; fio head reads back before the reset. */
	if (job->verify && job->zone_reset_frequency > 0)
		return bq_parse_fail(err, -EOPNOTSUPP, "zonemode=zbd: verify with "
				     "zone_reset_frequency is not supported");
	if (job->verify && job->loops > 1)
		return bq_parse_fail(err, -EOPNOTSUPP, "zonemode=zbd: verify with loops=%u is "
				     "not supported", job->loops);
	if (job->trim == BQ_TRIM_WRITE)
		return bq_parse_fail(err, -EOPNOTSUPP, "zonemode=zbd: rw=%s is not supported",
				     job->rw == BQ_RW_RANDWRITE ? "randtrimwrite" : "trimwrite");
	if (job->zone_skip || job->zone_skip_nz)
		return bq_parse_fail(err, -EOPNOTSUPP, "zoneskip with zonemode=zbd is not "
				     "supported");
	return 0;
}

/**
 * bq_zbd_to_args() - the zonemode=zbd options as the options that make them
 * @job: the job
 * @args: appended to
 *
 * Return: 0 or -ENOMEM.
 */
int bq_zbd_to_args(const struct bq_job *job, struct bq_strv *args)
{
	char buf[96];
	int ret = 0;

#define ADD(...) do { \
	snprintf(buf, sizeof(buf), __VA_ARGS__); \
	ret = ret ?: bq_strv_add(args, buf); \
} while (0)
	/* After --size= and the others, so the zone counts win. */
	if (job->size_nz)
		ADD("--size=%" PRIu32 "z", job->size_nz);
	if (job->io_size_nz)
		ADD("--io_size=%" PRIu32 "z", job->io_size_nz);
	if (job->offset_nz)
		ADD("--offset=%" PRIu32 "z", job->offset_nz);
	if (job->offset_increment_nz)
		ADD("--offset_increment=%" PRIu32 "z", job->offset_increment_nz);
	if (job->zone_skip_nz)
		ADD("--zoneskip=%" PRIu32 "z", job->zone_skip_nz);
	if (job->zonemode != BQ_ZONEMODE_ZBD)
		return ret;
	ADD("--max_open_zones=%u", job->max_open_zones);
	ADD("--job_max_open_zones=%u", job->job_max_open_zones);
	if (job->zone_capacity)
		ADD("--zonecapacity=%" PRIu64, job->zone_capacity);
	ADD("--read_beyond_wp=%d", job->read_beyond_wp);
	ADD("--ignore_zone_limits=%d", job->ignore_zone_limits);
	ADD("--zone_reset_threshold=%.17g", job->zone_reset_threshold);
	ADD("--zone_reset_frequency=%.17g", job->zone_reset_frequency);
#undef ADD
	return ret;
}
