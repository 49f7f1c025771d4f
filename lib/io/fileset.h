/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fileset.h - private: the files fio names itself (a job without
 * filename=), laid out before the run and unlinked after it; and which of
 * a thread's files serves its next I/O (file_service_type, openfiles)
 */
#ifndef BLKQUAL_FILESET_H
#define BLKQUAL_FILESET_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual.h"
#include "internal.h"

struct run_state;
struct job_state;
struct bq_worker;

/**
 * struct bq_fileset - a job's file set, numjobs x nrfiles files
 * @nr: files in all; thread t has [@first[t], @first[t] + @count[t])
 * @first: per thread (numjobs clone), its first file
 * @count: per thread, how many
 * @off: per file, where its region starts (offset=, or its end with file_append)
 * @span: per file, the bytes the job covers (fio's io_size of the file)
 * @bytes: per thread, the bytes it moves (fio's size, capped by its files)
 * @dirfd: per file, the directory it is in (-1: none kept)
 * @base: per file, its name in @dirfd
 */
struct bq_fileset {
	int nr;
	int *first;
	int *count;
	uint64_t off[BQ_MAX_FILES];
	uint64_t span[BQ_MAX_FILES];
	uint64_t *bytes;
	int dirfd[BQ_MAX_FILES];
	char base[BQ_MAX_FILES][256];
};

int bq_fileset_open(struct run_state *st, struct bq_job_result *jr, struct job_state *js,
		    struct bq_parse_error *err);
int bq_fileset_plan(struct run_state *st, struct bq_job_result *jr, struct job_state *js,
		    struct bq_parse_error *err);
int bq_fileset_regions(const struct bq_job *j, uint64_t *off, uint64_t *span, uint64_t *bytes);
int bq_fileset_judge_unlink(struct run_state *st, struct bq_job_result *jr, int i,
			    struct bq_parse_error *err);
int bq_fileset_pre_read(int fd, uint64_t off, uint64_t len);
void bq_fileset_end(struct bq_job_result *jr, struct job_state *js, bool unlink_files);
void bq_fileset_free(struct bq_fileset *fs);

/**
 * struct bq_fsrv - which of a thread's files its next I/O goes to
 * @left: per file, bytes still to do this pass
 * @open: the files open now, in the order they were opened (openfiles=)
 * @nr_open: how many
 * @next_open: the next file to open when one is done
 * @cur: position in @open of the file being served, -1 for none
 * @ios: I/Os given to it since it was picked
 * @gen: file_service_type=zipf or pareto: the skewed draw of a file
 */
struct bq_fsrv {
	uint64_t left[BQ_MAX_FILES];
	uint8_t open[BQ_MAX_FILES];
	int nr_open;
	int next_open;
	int cur;
	unsigned int ios;
	struct bq_offgen gen;
};

int bq_fsrv_init(struct bq_worker *w);
void bq_fsrv_new_pass(struct bq_worker *w);
int bq_fsrv_next(struct bq_worker *w, uint32_t *len);
void bq_fsrv_done(struct bq_worker *w, int f, uint32_t len);

#endif /* BLKQUAL_FILESET_H */
