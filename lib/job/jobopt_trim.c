// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_trim.c - fio's trim workloads: rw=trim, randtrim, trimwrite,
 * randtrimwrite (issue 19)
 *
 * A trim job keeps rw= at write or randwrite: the targets are then opened
 * as written ones, through the data-safety guard, and the trims take the
 * write direction's offsets and block sizes (fio gives trims the write
 * value of bs= unless a third value is given, which blkqual refuses).
 * struct bq_job's trim says which I/Os are discards (lib/io/trim.c).
 */
#include <errno.h>
#include <string.h>

#include "jobopt.h"
#include "internal.h"

static const struct {
	const char *name;
	enum bq_rw rw;
	enum bq_trim_mode trim;
} trim_modes[] = {
	{ "trim", BQ_RW_WRITE, BQ_TRIM_ONLY },
	{ "randtrim", BQ_RW_RANDWRITE, BQ_TRIM_ONLY },
	{ "trimwrite", BQ_RW_WRITE, BQ_TRIM_WRITE },
	{ "randtrimwrite", BQ_RW_RANDWRITE, BQ_TRIM_WRITE },
};

static int trim_mode(const char *val, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(trim_modes); i++)
		if (strlen(trim_modes[i].name) == len && !strncmp(val, trim_modes[i].name, len))
			return (int)i;
	return -1;
}

/**
 * bq_job_is_trim_rw() - whether an rw= mode names a trim workload
 * @val: the value
 * @len: the length of its mode (before any ':N')
 *
 * Return: true for trim, randtrim, trimwrite and randtrimwrite.
 */
bool bq_job_is_trim_rw(const char *val, size_t len)
{
	return trim_mode(val, len) >= 0;
}

/**
 * bq_job_set_trim_rw() - set a trim workload from rw=
 * @job: the job
 * @key: the option name, for messages
 * @val: the whole value
 * @len: the length of its mode
 * @modifier: what follows a ':', or NULL
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL (a bad ':N'), or -ENOENT for a mode that is not one.
 */
int bq_job_set_trim_rw(struct bq_job *job, const char *key, const char *val, size_t len,
		       const char *modifier, struct bq_parse_error *err)
{
	int i = trim_mode(val, len);
	enum bq_rw old = job->rw;
	int old_trim = job->trim;
	int ret;

	if (i < 0)
		return -ENOENT;
	job->rw = trim_modes[i].rw;
	job->trim = trim_modes[i].trim;
	ret = bq_job_rw_modifier(job, key, val, modifier, err);
	if (ret) {
		job->rw = old;
		job->trim = old_trim;
	}
	return ret;
}

/*
 * The trim value of rate and rate_iops caps the trims (io/trim_rate.c); a
 * trim-only job has no reads or writes for the others to cap, and the
 * writes of trimwrite, issued between the trims, are not capped here.
 */
static bool trim_rate_limited(const struct bq_job *j)
{
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (j->max_latency_ns[d])
			return true;
	if (j->trim == BQ_TRIM_WRITE && (j->rate[BQ_WRITE] || j->rate_iops_rw[BQ_WRITE] ||
					 j->rate_min[BQ_WRITE] || j->rate_iops_min[BQ_WRITE]))
		return true;
	return j->latency_target_ns;
}

/**
 * bq_job_check_trim() - refuse what a trim job cannot do here
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EOPNOTSUPP.
 */
int bq_job_check_trim(const struct bq_job *job, struct bq_parse_error *err)
{
	const char *rw = bq_job_trim_rw_name(job);

	/* fio 3.33 trims verified blocks only in a job that trims (it asserts otherwise). */
	if (job->verify && job->trim_percentage && job->trim_backlog) {
		if (job->trim != BQ_TRIM_WRITE)
			return bq_parse_fail(err, -EOPNOTSUPP, "trim_backlog with verify= needs "
					     "rw=trimwrite or randtrimwrite (fio 3.33 stops on an "
					     "assertion otherwise)");
		if (job->verify_backlog || job->seq_add || job->zonemode == BQ_ZONEMODE_ZBD)
			return bq_parse_fail(err, -EOPNOTSUPP, "trim_backlog with verify_backlog, "
					     "holes or zonemode=zbd is not supported");
		/*
		 * fio draws a write for a trim when it issues it and may trim
		 * it before it lands (its own verify then fails); blkqual
		 * draws it once it landed, so with several in flight the
		 * counts would not be fio's.
		 */
		if (job->iodepth > 1 && !bq_engine_has(job->engine, BQ_ENGINE_SYNC))
			return bq_parse_fail(err, -EOPNOTSUPP, "trim_backlog with verify= and "
					     "iodepth=%u is not supported (one I/O in flight)",
					     job->iodepth);
	}
	if (!rw)
		return 0;
	/* trimwrite writes what it trimmed: that is verified; a trim alone has nothing. */
	if (job->verify && job->trim != BQ_TRIM_WRITE)
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: verify= of a trim workload is "
				     "not supported", rw);
	if (job->stripe)
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: trims across --stripe members "
				     "are not supported", rw);
	/* fio's sg trims are SCSI UNMAP; BLKDISCARD would fail on /dev/sgN and bypass it. */
	if (job->engine == BQ_ENGINE_SG)
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: trims through ioengine=sg "
				     "(SCSI UNMAP) are not supported", rw);
	if (trim_rate_limited(job))
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: max_latency, latency_target and "
				     "a write rate of trimwrite are not supported (the trim value of "
				     "rate and rate_iops is)", rw);
	/* Trims are issued between the engine's I/Os, where these do not look. */
	if (job->thinktime_ns)
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: thinktime does not apply to "
				     "trims here", rw);
	if (job->ss_dur_ns)
		return bq_parse_fail(err, -EOPNOTSUPP, "rw=%s: steadystate does not sample "
				     "trims here", rw);
	return 0;
}
