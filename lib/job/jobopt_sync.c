// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_sync.c - which engines the sync-family options go with
 *
 * hipri_percentage, uncached and nowait are pvsync2's own options in
 * fio; fio also has uncached and nowait for io_uring (and nowait for
 * libaio), which blkqual does not do yet: refused there by name rather
 * than dropped.  The flushes need a descriptor that has fsync.  atomic=1
 * is RWF_ATOMIC, which only the engines that pass per-I/O flags carry, as
 * in fio; a job that does not write ignores it, as fio does.
 */
#include <errno.h>

#include "internal.h"
#include "io/target.h"
#include "jobopt.h"

/**
 * bq_job_check_sync() - the sync-family options fit the job's engine
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EOPNOTSUPP.
 */
int bq_job_check_sync(const struct bq_job *job, struct bq_parse_error *err)
{
	const char *engine = bq_engine_name(job->engine);
	bool pvsync2 = job->engine == BQ_ENGINE_PVSYNC2;

	if (!pvsync2 && job->nowait)
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "nowait=1 is not supported with ioengine=%s (only pvsync2)",
				     engine);
	if (!pvsync2 && job->uncached)
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "uncached=%u is not supported with ioengine=%s (only pvsync2)",
				     job->uncached, engine);
	if (job->atomic && bq_job_writes(job) && !pvsync2 &&
	    job->engine != BQ_ENGINE_IO_URING && job->engine != BQ_ENGINE_LIBAIO)
		return bq_parse_fail(err, -EOPNOTSUPP, "atomic=1 is not supported with ioengine=%s "
				     "(io_uring, libaio and pvsync2 issue atomic writes)", engine);
	if (!pvsync2 && job->hipri_percentage != 100)
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "hipri_percentage=%u is not supported with ioengine=%s "
				     "(only pvsync2)", job->hipri_percentage, engine);
	/* A character device has no fsync; NVMe Flush is not done. */
	if (bq_engine_has(job->engine, BQ_ENGINE_PASSTHRU) &&
	    (job->fdatasync_every || job->end_fsync || job->fsync_on_close))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s is not supported with ioengine=%s",
				     job->fdatasync_every ? "fdatasync" :
				     job->end_fsync ? "end_fsync" : "fsync_on_close", engine);
	return 0;
}
