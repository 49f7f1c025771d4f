// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_sg.c - fio's sg engine options: sg_write_mode, and what the
 * engine does not take
 *
 * readfua, writefua and hipri are shared with other engines and parsed
 * in jobopt.c; this file says which command a write is, with fio's
 * names (its deprecated spellings included), and refuses what the
 * engine would otherwise silently leave out.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "io/scsi.h"
#include "jobopt.h"

static const struct {
	const char *name;
	int mode;
} sg_modes[] = {
	{ "write", BQ_SG_WRITE },
	{ "write_and_verify", BQ_SG_WRITE_VERIFY },
	{ "verify", BQ_SG_WRITE_VERIFY },		/* fio's deprecated name */
	{ "write_same", BQ_SG_WRITE_SAME },
	{ "same", BQ_SG_WRITE_SAME },			/* fio's deprecated name */
	{ "write_same_ndob", BQ_SG_WRITE_SAME_NDOB },
	{ "verify_bytchk_00", BQ_SG_VERIFY_BYTCHK_00 },
	{ "verify_bytchk_01", BQ_SG_VERIFY_BYTCHK_01 },
	{ "verify_bytchk_11", BQ_SG_VERIFY_BYTCHK_11 },
};

/**
 * bq_set_sg_write_mode() - sg_write_mode=: the SCSI command of a write
 * @o: the option
 * @key: its name
 * @val: one of fio's values
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, -EOPNOTSUPP for write_stream, -EINVAL for a value fio lacks.
 */
int bq_set_sg_write_mode(const struct job_opt *o, const char *key, const char *val,
			 struct bq_job *job, struct bq_parse_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(sg_modes); i++) {
		if (!strcmp(val, sg_modes[i].name)) {
			job->sg_write_mode = sg_modes[i].mode;
			return 0;
		}
	}
	if (!strcmp(val, "write_stream"))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s is not supported (WRITE STREAM "
				     "needs streams opened on the device: not implemented)",
				     key, val);
	return bq_parse_fail(err, -EINVAL, "%s=%s: use write, write_and_verify, write_same, "
			     "write_same_ndob, verify_bytchk_00, verify_bytchk_01 or "
			     "verify_bytchk_11", key, val);
}

/**
 * bq_sg_write_mode_name() - sg_write_mode's value, as fio spells it now
 * @mode: enum bq_sg_write_mode
 *
 * Return: the name ("write" for a value it does not know).
 */
const char *bq_sg_write_mode_name(int mode)
{
	for (size_t i = 0; i < ARRAY_SIZE(sg_modes); i++)
		if (sg_modes[i].mode == mode)
			return sg_modes[i].name;
	return "write";
}

/**
 * bq_job_check_sg() - the sg options fit the job's engine
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EOPNOTSUPP.
 */
int bq_job_check_sg(const struct bq_job *job, struct bq_parse_error *err)
{
	if (job->engine != BQ_ENGINE_SG) {
		if (job->sg_write_mode != BQ_SG_WRITE)
			return bq_parse_fail(err, -EOPNOTSUPP, "sg_write_mode needs ioengine=sg");
		return 0;
	}
	/* fio sends SYNCHRONIZE CACHE for these; blkqual does not yet. */
	if (job->fsync_every || job->fdatasync_every || job->end_fsync || job->fsync_on_close)
		return bq_parse_fail(err, -EOPNOTSUPP, "%s is not supported with ioengine=sg "
				     "(SYNCHRONIZE CACHE is not implemented)",
				     job->fsync_every ? "fsync" : job->fdatasync_every ?
				     "fdatasync" : job->end_fsync ? "end_fsync" :
				     "fsync_on_close");
	return 0;
}
