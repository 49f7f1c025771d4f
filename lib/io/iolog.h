/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iolog.h - private: fio's I/O logs (write_iolog) and trace replay
 * (read_iolog of fio's iolog v2/v3 and of blktrace binary files)
 */
#ifndef BLKQUAL_IOLOG_H
#define BLKQUAL_IOLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blkqual_io.h"

struct bq_worker;
struct bq_slot;
struct bq_strv;

/* What a log entry does; reads and writes are enum bq_dir's values. */
enum bq_iolog_act {
	BQ_LOG_READ = BQ_READ,
	BQ_LOG_WRITE = BQ_WRITE,
	BQ_LOG_SYNC,
	BQ_LOG_DATASYNC,
	BQ_LOG_WAIT,		/* v2's "wait": until @offset ms after the start */
	BQ_LOG_FILE,		/* add, open, close: only its delay matters here */
};

/**
 * struct bq_iolog_entry - one entry to replay
 * @offset: byte offset (replay_scale and replay_align applied)
 * @delay_ns: time after the previous entry (v3, blktrace; replay_time_scale applied)
 * @len: bytes
 * @act: enum bq_iolog_act
 * @file: index in the job's filenames
 */
struct bq_iolog_entry {
	uint64_t offset;
	uint64_t delay_ns;
	uint32_t len;
	uint8_t act;
	uint8_t file;
};

/**
 * struct bq_iolog - a log read into memory
 * @e: the entries, @nr of them
 * @names: files in the order the log names them (@nr_names); with
 *	   replay_redirect, only that one
 * @ios: reads and writes per direction
 * @max_len: the largest I/O per direction
 */
struct bq_iolog {
	struct bq_iolog_entry *e;
	size_t nr;
	size_t cap;
	char *names[BQ_MAX_FILES];
	int nr_names;
	uint64_t ios[BQ_NR_DIRS];
	uint32_t max_len[BQ_NR_DIRS];
};

int bq_iolog_load(const struct bq_job *j, struct bq_iolog *log, struct bq_parse_error *err);
void bq_iolog_free(struct bq_iolog *log);
int bq_iolog_merge(const struct bq_job *j, struct bq_parse_error *err);

/* lib/job/jobopt_iolog.c */
struct job_opt;
int bq_iolog_opt_set(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err);
void bq_iolog_defaults(struct bq_job *job);
int bq_iolog_job_finish(struct bq_job *job, struct bq_parse_error *err);
int bq_iolog_to_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_IOLOG_H */
