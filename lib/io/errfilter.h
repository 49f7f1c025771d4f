/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errfilter.h - private: which failed I/Os a job goes on after (fio's
 * continue_on_error and ignore_error), and error_dump's lines
 */
#ifndef BLKQUAL_IO_ERRFILTER_H
#define BLKQUAL_IO_ERRFILTER_H

#include <stdbool.h>

#include "blkqual_job.h"

struct bq_worker;
struct bq_io_error;

/**
 * enum bq_err_verdict - what a failed I/O means for its job
 * @BQ_ERR_FATAL: the thread stops
 * @BQ_ERR_GO_ON: continue_on_error's default non-fatal errors (EIO, EILSEQ)
 * @BQ_ERR_IGNORED: an errno the job's ignore_error lists for its type
 */
enum bq_err_verdict {
	BQ_ERR_FATAL,
	BQ_ERR_GO_ON,
	BQ_ERR_IGNORED,
};

enum bq_err_verdict bq_error_verdict(const struct bq_job *j, int dir, int err);
void bq_error_dump(struct bq_worker *w, const struct bq_io_error *e);

#endif /* BLKQUAL_IO_ERRFILTER_H */
