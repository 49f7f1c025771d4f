/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * layout.h - private: the regular files a job names (filename=) laid
 * out before it runs, as fio's setup_files() lays them out
 */
#ifndef BLKQUAL_LAYOUT_H
#define BLKQUAL_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "blkqual.h"

struct bq_job_result;

/**
 * struct bq_layout_tally - what the layout did for one job
 * @files: files it laid out (filled or only reserved)
 * @filled: bytes it wrote into them; never counted as the job's I/O
 * @reserved: bytes it only reserved or made room for
 * @dev: per file, the filesystem it is on
 * @ino: per file, its inode, to mark the job's target laid out
 */
struct bq_layout_tally {
	int files;
	uint64_t filled;
	uint64_t reserved;
	dev_t dev[BQ_MAX_FILES];
	ino_t ino[BQ_MAX_FILES];
};

int bq_layout_reserve(const struct bq_job *j, int fd, uint64_t len);
int bq_layout_fill(const struct bq_job *j, int fd, uint64_t len);
int bq_layout_jobs(struct bq_ctx *ctx, const struct bq_jobset *set, size_t a, size_t b,
		   bool serialized, const struct bq_run_opts *opts,
		   struct bq_layout_tally *tally, struct bq_parse_error *err);
void bq_layout_mark(const struct bq_layout_tally *t, struct bq_job_result *jr);

#endif /* BLKQUAL_LAYOUT_H */
