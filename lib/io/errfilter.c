// SPDX-License-Identifier: GPL-2.0-only
/*
 * errfilter.c - fio's rule for a failed I/O: fatal, or counted and gone
 * past (continue_on_error, ignore_error), and error_dump's report of each
 *
 * fio sorts an error into a type first: EILSEQ (a verify failure) is a
 * verify error whatever the direction, a failed read a read error, and
 * anything else (writes, trims, flushes) a write error.  The type must be
 * among continue_on_error's; then the errno must be in the type's list,
 * which is EIO and EILSEQ unless ignore_error gave one.
 */
#include <errno.h>

#include "blkqual_io.h"
#include "engine.h"
#include "errfilter.h"

/**
 * bq_error_verdict() - whether a failed I/O stops its thread
 * @j: the job
 * @dir: BQ_READ or BQ_WRITE (trims and flushes are writes)
 * @err: positive errno
 *
 * Return: BQ_ERR_FATAL, BQ_ERR_GO_ON or BQ_ERR_IGNORED.
 */
enum bq_err_verdict bq_error_verdict(const struct bq_job *j, int dir, int err)
{
	int t = err == EILSEQ ? BQ_ERR_VERIFY : dir == BQ_READ ? BQ_ERR_READ : BQ_ERR_WRITE;

	if (!(j->error_types & (1u << t)))
		return BQ_ERR_FATAL;
	for (int i = 0; j->ignore_set[t] && i < j->nr_ignore[t]; i++)
		if (j->ignore[t][i] == err)
			return BQ_ERR_IGNORED;
	/* blkqual's own --continue-on-error: a bad sector may well say ENODATA. */
	if (j->continue_any)
		return BQ_ERR_GO_ON;
	if (!j->ignore_set[t])
		return err == EIO || err == EILSEQ ? BQ_ERR_GO_ON : BQ_ERR_FATAL;
	return BQ_ERR_FATAL;
}

/**
 * bq_error_dump() - error_dump=1: hand one failed I/O to the caller's
 * callback as it happens (fio prints each; lib/ prints nothing)
 * @w: the worker
 * @e: the failure
 */
void bq_error_dump(struct bq_worker *w, const struct bq_io_error *e)
{
	const struct bq_run_opts *o = w->run_opts;

	if (w->job->error_dump && o && o->io_error)
		o->io_error(o->arg, w->jr, e);
}
