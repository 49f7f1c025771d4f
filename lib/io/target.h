/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * target.h - private: opening a job's targets before a run
 */
#ifndef BLKQUAL_TARGET_H
#define BLKQUAL_TARGET_H

#include <sys/stat.h>
#include <sys/types.h>

#include "blkqual.h"

#define BQ_MAX_HELD 256

/**
 * struct bq_held - targets opened for a run, one entry per object
 * @fd: the guard's descriptor (O_EXCL for devices) for written targets,
 *	else the one read descriptor; held for the whole run so nothing can
 *	claim a written device meanwhile
 * @st: what each is (fstat of @fd)
 * @guarded: whether @fd came from the guard
 * @borrowed: the caller's descriptor (see struct bq_run_opts): not closed here
 * @name: for @borrowed ones, the name the caller's jobs use for it
 */
struct bq_held {
	int fd[BQ_MAX_HELD];
	struct stat st[BQ_MAX_HELD];
	bool guarded[BQ_MAX_HELD];
	bool borrowed[BQ_MAX_HELD];
	const char *name[BQ_MAX_HELD];
	int nr;
};

bool bq_job_writes(const struct bq_job *j);
int bq_target_lay_out(int fd, uint64_t from, uint64_t to);

/* --readonly: making or laying out a job's file is a write too. */
static inline int bq_target_read_only(const struct bq_guard_opts *gopts,
				      struct bq_parse_error *err, const char *path,
				      const char *what)
{
	if (!gopts || !gopts->read_only)
		return 0;
	return bq_fail_at(err, path, -EROFS, "--readonly: refusing to %s", what);
}

/* For refusals: which rule @ti->lbs stands for. */
static inline const char *bq_target_align_name(const struct bq_target_info *ti)
{
	return ti->lbs_from_fs ? "the filesystem's direct I/O alignment" :
				 "the logical block size";
}

int bq_target_open(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
		   const struct bq_guard_opts *gopts, struct bq_held *held,
		   struct bq_target_info *ti, int *fd, struct bq_parse_error *err);
int bq_target_open_at(struct bq_ctx *ctx, const struct bq_job *j, int pfd, const char *path,
		      bool created, const struct bq_guard_opts *gopts,
		      struct bq_held *held, struct bq_target_info *ti, int *fd,
		      struct bq_parse_error *err);
struct bq_device;
int bq_target_guard_block(struct bq_ctx *ctx, const char *path, const struct bq_device *dev,
			  const char *blk, const struct bq_guard_opts *gopts,
			  struct bq_held *held, struct bq_target_info *ti,
			  struct bq_parse_error *err);
/* target_sg.c: ioengine=sg on /dev/sgN; 1: a block device, opened as any other */
int bq_sg_target_open(struct bq_ctx *ctx, const struct bq_job *j, const char *path,
		      const struct bq_guard_opts *gopts, struct bq_held *held,
		      struct bq_target_info *ti, int *fd, struct bq_parse_error *err);
int bq_poll_decide(struct bq_ctx *ctx, const struct bq_job *j,
		   const struct bq_target_info *targets, int nr, uint32_t largest_io,
		   bool *polled, char *note, size_t len, struct bq_parse_error *err);
int bq_held_borrow(struct bq_held *held, const struct bq_pinned_target *pins, int nr);
void bq_held_release(struct bq_held *held);

#endif /* BLKQUAL_TARGET_H */
