// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_fill.c - fill_device and fill_fs, io_submit_mode=offload and
 * the trim values of the rate options (issue 19): their rules
 *
 * fill_device writes until the target is full: the end of a device, or
 * ENOSPC (EDQUOT) from the filesystem under a file, which ends the job
 * cleanly (lib/io/fill.c).  offload is fio's pool of submitting threads;
 * an asynchronous engine here already issues on the rate schedule while
 * earlier I/Os are in flight, up to iodepth, which is what the pool buys.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_fill.h"

static int check_fill(const struct bq_job *j, struct bq_parse_error *err)
{
	if (!j->fill_device)
		return 0;
	/*
	 * fio sizes the region "unbounded": only a sequential pass means
	 * "until full"; random offsets over it would mean offsets past any end.
	 */
	if (j->rw != BQ_RW_WRITE && j->rw != BQ_RW_READ)
		return bq_parse_fail(err, -EOPNOTSUPP, "fill_device: only with rw=write (or "
				     "rw=read of a device): fio fills sequentially");
	if (j->trim != BQ_TRIM_NONE)
		return bq_parse_fail(err, -EOPNOTSUPP, "fill_device: not with trims");
	if (j->nr_files != 1)
		return bq_parse_fail(err, -EOPNOTSUPP, "fill_device: one filename= is needed "
				     "(filling a file set is not supported)");
	if (j->stripe)
		return bq_parse_fail(err, -EOPNOTSUPP, "fill_device: not across --stripe members");
	if (j->size_pct || j->io_size)
		return bq_parse_fail(err, -EOPNOTSUPP, "fill_device: size=N%% and io_size "
				     "are not supported with it");
	return 0;
}

static int check_trim_rates(const struct bq_job *j, struct bq_parse_error *err)
{
	if (j->rate_trim && j->rate_iops_trim)
		return bq_parse_fail(err, -EINVAL, "rate and rate_iops are mutually exclusive, "
				     "as in fio (trims)");
	if ((j->rate_trim && j->rate_trim < j->rate_min_trim) ||
	    (j->rate_iops_trim && j->rate_iops_trim < j->rate_iops_min_trim))
		return bq_parse_fail(err, -EINVAL, "rate_min for trims is over its rate");
	/* A job without trims has nothing the trim values could limit or judge. */
	if (j->trim != BQ_TRIM_NONE && (j->rate_min_trim || j->rate_iops_min_trim))
		return bq_parse_fail(err, -EOPNOTSUPP, "rate_min and rate_iops_min for trims "
				     "(their third value) are not supported");
	return 0;
}

static int check_offload(const struct bq_job *j, struct bq_parse_error *err)
{
	if (!j->submit_offload)
		return 0;
	/* fio 3.33 refuses these itself (FIO_NO_OFFLOAD). */
	if (bq_engine_has(j->engine, BQ_ENGINE_RING))
		return bq_parse_fail(err, -EINVAL, "io_submit_mode=offload: ioengine=%s cannot "
				     "be used with offloaded submission (fio refuses it too)",
				     bq_engine_name(j->engine));
	/* fio's pool would have iodepth synchronous I/Os in flight; here there is one. */
	if (bq_engine_has(j->engine, BQ_ENGINE_SYNC) && j->iodepth > 1)
		return bq_parse_fail(err, -EOPNOTSUPP, "io_submit_mode=offload: ioengine=%s "
				     "with iodepth=%u would need a pool of %u submitting threads, "
				     "which is not implemented (iodepth=1 is)",
				     bq_engine_name(j->engine), j->iodepth, j->iodepth);
	return 0;
}

int bq_job_check_fill(const struct bq_job *job, struct bq_parse_error *err)
{
	return check_fill(job, err) ?: check_trim_rates(job, err) ?: check_offload(job, err);
}

int bq_fill_to_args(const struct bq_job *j, struct bq_strv *args)
{
	char buf[64];
	int ret;

	snprintf(buf, sizeof(buf), "--fill_device=%d", j->fill_device);
	ret = bq_strv_add(args, buf);
	if (!ret && j->submit_offload)
		ret = bq_strv_add(args, "--io_submit_mode=offload");
	return ret;
}
