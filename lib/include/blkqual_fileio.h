/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_fileio.h - a set of test files read and written the way
 * sysbench's fileio test does it: prepare, run, cleanup
 *
 * The options carry sysbench's names and defaults (--file-num=128,
 * --file-total-size=2G, --file-block-size=16K, ...), so an old command
 * line keeps its meaning.  The files are test_file.0 .. test_file.N-1 in
 * one directory.
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_FILEIO_H
#define BLKQUAL_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_io.h"
#include "blkqual_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* --file-test-mode */
enum bq_fileio_mode {
	BQ_FILEIO_NONE,		/* not given: prepare and cleanup need none */
	BQ_FILEIO_SEQWR,	/* sequential write, the files made anew */
	BQ_FILEIO_SEQREWR,	/* sequential rewrite of the prepared files */
	BQ_FILEIO_SEQRD,
	BQ_FILEIO_RNDRD,
	BQ_FILEIO_RNDWR,
	BQ_FILEIO_RNDRW,	/* random, --file-rw-ratio reads per write */
};

/* --file-extra-flags */
#define BQ_FILEIO_SYNC		(1u << 0)	/* O_SYNC */
#define BQ_FILEIO_DSYNC		(1u << 1)	/* O_DSYNC */
#define BQ_FILEIO_DIRECT	(1u << 2)	/* O_DIRECT */

/* Kinds of operation counted by a run (struct bq_ops_result.total[]). */
enum bq_fileio_op {
	BQ_FILEIO_OP_READ,
	BQ_FILEIO_OP_WRITE,
	BQ_FILEIO_OP_FSYNC,	/* --file-fsync-freq and --file-fsync-all */
	BQ_FILEIO_OP_FSYNC_END,	/* --file-fsync-end: after the run, not events */
	BQ_FILEIO_NR_OPS,
};

/**
 * struct bq_fileio_opts - a file set and how to use it
 * @file_num: --file-num, files in the set (128)
 * @total_size: --file-total-size, bytes over all files (2G)
 * @block_size: --file-block-size, bytes per request (16K)
 * @mode: --file-test-mode
 * @extra_flags: --file-extra-flags, BQ_FILEIO_SYNC | DSYNC | DIRECT
 * @fsync_freq: --file-fsync-freq, fsync every file after this many
 *              requests of all threads (100); 0 for never
 * @fsync_all: --file-fsync-all, fsync after every write (turns the two
 *             others off, as in sysbench)
 * @fsync_end: --file-fsync-end, each thread fsyncs every file at the end
 *             of a run that wrote (on)
 * @fdatasync: --file-fsync-mode=fdatasync
 * @rw_ratio: --file-rw-ratio, reads per write in rndrw (1.5)
 * @merged_requests: --file-merged-requests, sequential requests of up to
 *                   this many blocks (0: one block)
 * @threads: --threads (1)
 * @time_ns: --time, 0 for no limit (10 s)
 * @events: --events, requests of all threads, fsyncs included; 0 for no
 *          limit
 * @report_interval_ns: --report-interval, 0 for none
 * @percentile: --percentile, 0 to 100 (95); 0 for none
 * @histogram: --histogram
 * @rand_seed: --rand-seed, 0 for the time of day
 * @dir: where the files are; NULL for the current directory
 */
struct bq_fileio_opts {
	unsigned int file_num;
	uint64_t total_size;
	uint32_t block_size;
	enum bq_fileio_mode mode;
	unsigned int extra_flags;
	unsigned int fsync_freq;
	bool fsync_all;
	bool fsync_end;
	bool fdatasync;
	double rw_ratio;
	unsigned int merged_requests;
	unsigned int threads;
	uint64_t time_ns;
	uint64_t events;
	uint64_t report_interval_ns;
	uint64_t stall_timeout_ns;
	unsigned int percentile;
	bool histogram;
	uint64_t rand_seed;
	const char *dir;
};

/**
 * bq_fileio_defaults() - sysbench's defaults
 * @o: filled in
 */
void bq_fileio_defaults(struct bq_fileio_opts *o);

/**
 * bq_fileio_set() - set one option by its sysbench name
 * @o: the options
 * @key: "file-num", "threads", ... (no leading dashes)
 * @value: its value, or NULL when given bare ("--file-fsync-all")
 * @err: on failure, where is "--KEY" and msg says what is wrong
 *
 * Sizes take k/m/g/t suffixes (powers of 1024, as sysbench), on/off
 * options also take yes/no, true/false and 1/0.  The deprecated aliases
 * --num-threads, --max-time, --max-requests and --test=fileio work.
 *
 * Return: 0; -EINVAL for a bad value; -ENOENT for an unknown name;
 * -EOPNOTSUPP for something sysbench has and blkqual does not do
 * (--file-io-mode=async or mmap, --validate).
 */
int bq_fileio_set(struct bq_fileio_opts *o, const char *key, const char *value,
		  struct bq_parse_error *err);

/**
 * bq_fileio_option_names() - every name bq_fileio_set() knows
 * @n: receives the count
 *
 * Return: the names, for "did you mean" hints.
 */
const char *const *bq_fileio_option_names(size_t *n);

/* fileio_values.c: the values an option takes from a closed set (shell completion) */
int bq_fileio_opt_values(const char *name, int (*fn)(const char *value, void *arg), void *arg);

/**
 * bq_fileio_check() - the options together make sense
 * @o: the options
 * @run: for a run (which needs --file-test-mode and a limit)
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (no test mode, files of 0 bytes, direct I/O with
 * a block or file size that is not a multiple of 512, --histogram with
 * --percentile=0, neither --time nor --events).
 */
int bq_fileio_check(const struct bq_fileio_opts *o, bool run, struct bq_parse_error *err);

/**
 * bq_fileio_file_size() - bytes per file: --file-total-size / --file-num
 * @o: the options
 *
 * Return: the size (sysbench rounds down too).
 */
uint64_t bq_fileio_file_size(const struct bq_fileio_opts *o);

/**
 * struct bq_fileio_space - what a prepare (or a seqwr run) will allocate
 * @need: bytes still to be written: each file grown to its size in whole
 *        blocks, less what it has already (for seqwr, every file anew)
 * @avail: bytes free for unprivileged users (statvfs f_bavail), plus,
 *         for seqwr, what the old files hold
 */
struct bq_fileio_space {
	uint64_t need;
	uint64_t avail;
};

/**
 * bq_fileio_check_space() - refuse a set that cannot fit
 * @o: the options
 * @for_seqwr: size it for a seqwr run, which deletes and rewrites the set
 * @sp: receives the figures, also on -ENOSPC
 * @err: on -ENOSPC, where is "--file-total-size" and msg has both figures
 *
 * Return: 0, -ENOSPC, or -errno from statvfs/stat (where is the path).
 */
int bq_fileio_check_space(const struct bq_fileio_opts *o, bool for_seqwr,
			  struct bq_fileio_space *sp, struct bq_parse_error *err);

/* What prepare did with one file, for the caller's progress lines. */
enum bq_fileio_file_state {
	BQ_FILEIO_CREATED,
	BQ_FILEIO_EXTENDED,
	BQ_FILEIO_REUSED,	/* already long enough: not written */
};

/**
 * struct bq_fileio_prepared - what bq_fileio_prepare() wrote
 * @bytes: bytes written
 * @ns: how long it took, the final fsyncs included
 */
struct bq_fileio_prepared {
	uint64_t bytes;
	uint64_t ns;
};

/**
 * bq_fileio_prepare() - create the files and write each one fully
 * @o: the options (checked with bq_fileio_check(); call
 *     bq_fileio_check_space() first: this does not)
 * @on_file: called before each file is written, or NULL
 * @arg: passed to @on_file
 * @res: receives the figures
 * @err: on failure, where is the file and msg why
 *
 * As sysbench: a file shorter than its size is extended from its end in
 * whole blocks, a long enough one is left alone, each file is fsynced.
 * The data is pseudo-random (sysbench writes zeros, which compressing
 * drives do not store).
 *
 * Return: 0 or -errno.
 */
int bq_fileio_prepare(const struct bq_fileio_opts *o,
		      void (*on_file)(void *arg, unsigned int i, enum bq_fileio_file_state st),
		      void *arg, struct bq_fileio_prepared *res, struct bq_parse_error *err);

/**
 * bq_fileio_check_set() - the prepared set is there for a run
 * @o: the options
 * @err: filled in on failure, where is the file
 *
 * Every mode but seqwr needs each file to exist and to be at least its
 * size; direct I/O needs the block size to suit the filesystem's
 * alignment (statx STATX_DIOALIGN where the kernel reports it).  seqwr
 * makes the files itself and needs the room (bq_fileio_check_space()).
 *
 * Return: 0, -ENOENT (a file is missing), -EINVAL (one is short, or the
 * block size does not suit direct I/O), -ENOSPC, or another -errno.
 */
int bq_fileio_check_set(const struct bq_fileio_opts *o, struct bq_parse_error *err);

/**
 * struct bq_fileio_result - a run
 * @ops: per thread and in all, per enum bq_fileio_op
 * @seed: the random seed used (the time of day when --rand-seed=0)
 * @file_size: bytes per file
 */
struct bq_fileio_result {
	struct bq_ops_result ops;
	uint64_t seed;
	uint64_t file_size;
};

/**
 * bq_fileio_run() - run the test on the set
 * @ctx: context (for /proc/stat), or NULL
 * @o: the options, checked (bq_fileio_check(), bq_fileio_check_set())
 * @stop: set non-zero to end early (a signal handler), or NULL
 * @on_sample: called every @o->report_interval_ns, or NULL
 * @sample_arg: passed to @on_sample
 * @res: receives the results when 0 is returned; free with
 *       bq_fileio_result_free()
 * @err: on failure, where and why
 *
 * Threads share the set, the sequential position and the fsync schedule,
 * as in sysbench: every --file-fsync-freq requests (of all threads) with
 * writes since the last round, each file in turn is fsynced, one file per
 * request.  A failed read, write or fsync ends the run; it is in
 * @res->ops (errors, thread msg).
 *
 * Return: 0 when the run took place (look at @res->ops.failed), or
 * -errno when it could not start (a file would not open).
 */
int bq_fileio_run(struct bq_ctx *ctx, const struct bq_fileio_opts *o, volatile int *stop,
		  void (*on_sample)(void *arg, const struct bq_ops_sample *s), void *sample_arg,
		  struct bq_fileio_result *res, struct bq_parse_error *err);

/**
 * bq_fileio_result_free() - free a run's results
 * @res: the results
 */
void bq_fileio_result_free(struct bq_fileio_result *res);

/**
 * bq_fileio_cleanup() - remove the set
 * @o: the options (@o->file_num and @o->dir)
 * @removed: receives how many files were removed
 * @err: on failure, where is the file
 *
 * Removes test_file.0 .. test_file.N-1, and after them test_file.N,
 * N+1, ... as long as they exist (a set prepared with a larger
 * --file-num); nothing else.
 *
 * Return: 0 or -errno.
 */
int bq_fileio_cleanup(const struct bq_fileio_opts *o, unsigned int *removed,
		      struct bq_parse_error *err);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_FILEIO_H */
