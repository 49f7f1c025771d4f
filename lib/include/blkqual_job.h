/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_job.h - jobs: sizes and durations, job options, offsets
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_JOB_H
#define BLKQUAL_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_verify_report;

/* ---- units ------------------------------------------------------------- */

/**
 * bq_parse_size() - parse a size the way fio does
 * @s: "4k", "4ki", "4KiB", "1m", "2g", "512", "1t"
 * @out: bytes
 *
 * k/m/g/t/p and ki/mi/gi/ti/pi (any case, optional trailing "b") are all
 * powers of 1024, as in fio with its default kb_base=1024.
 *
 * Return: 0, or -EINVAL (malformed, negative) or -ERANGE (overflow).
 */
int bq_parse_size(const char *s, uint64_t *out);

/**
 * bq_parse_time() - parse a duration
 * @s: "10", "10s", "500ms", "250us", "100ns", "2m", "1h"
 * @default_unit_ns: what a bare number means (1e9 for fio's runtime)
 * @out: nanoseconds
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int bq_parse_time(const char *s, uint64_t default_unit_ns, uint64_t *out);

/* ---- jobs -------------------------------------------------------------- */

enum bq_rw {
	BQ_RW_READ,
	BQ_RW_WRITE,
	BQ_RW_RANDREAD,
	BQ_RW_RANDWRITE,
	BQ_RW_RW,	/* sequential mix, rwmixread percent reads */
	BQ_RW_RANDRW,
};

enum bq_engine {
	BQ_ENGINE_IO_URING,
	BQ_ENGINE_LIBAIO,
	BQ_ENGINE_PSYNC,
	BQ_ENGINE_NOP,
	BQ_ENGINE_URING_CMD,	/* NVMe passthrough on /dev/ngXnY */
};

/**
 * enum bq_engine_cap - what an engine can do, or is
 * @BQ_ENGINE_RING: drives an io_uring ring (its depth limit, polled
 *	completions, an optional SQ poll thread)
 * @BQ_ENGINE_PASSTHRU: sends NVMe commands to /dev/ngXnY; no page cache
 * @BQ_ENGINE_DISKLESS: needs no target at all (measures the tool)
 * @BQ_ENGINE_SYNC: one I/O per call, so iodepth has no effect
 * @BQ_ENGINE_STRIPES: can run --stripe
 */
enum bq_engine_cap {
	BQ_ENGINE_RING = 1u << 0,
	BQ_ENGINE_PASSTHRU = 1u << 1,
	BQ_ENGINE_DISKLESS = 1u << 2,
	BQ_ENGINE_SYNC = 1u << 3,
	BQ_ENGINE_STRIPES = 1u << 4,
};

/**
 * bq_engine_name() - an engine's name, as a job file spells it
 * @e: the engine
 *
 * Return: a static string ("?" for an id no engine has).
 */
const char *bq_engine_name(enum bq_engine e);

/**
 * bq_engine_has() - whether an engine has every capability in @caps
 * @e: the engine
 * @caps: BQ_ENGINE_* capabilities, or'ed
 *
 * Return: true when it has them all.
 */
bool bq_engine_has(enum bq_engine e, unsigned int caps);

enum bq_poll {
	BQ_POLL_AUTO,
	BQ_POLL_ON,
	BQ_POLL_OFF,
};

enum bq_dist {
	BQ_DIST_RANDOM,
	BQ_DIST_ZIPF,
	BQ_DIST_PARETO,
};

enum bq_dir {
	BQ_READ,
	BQ_WRITE,
	BQ_NR_DIRS,
};

#define BQ_MAX_FILES 64
#define BQ_MAX_BSSPLIT 16

/**
 * struct bq_bssplit - one entry of a block size split
 * @bs: block size in bytes
 * @pct: share of I/Os in percent
 */
struct bq_bssplit {
	uint32_t bs;
	uint32_t pct;
};

/**
 * struct bq_job - one job, with fio's option names and meanings
 *
 * Per-direction fields are indexed by enum bq_dir; fio's "bs=4k,64k"
 * gives reads 4k and writes 64k.  Times are nanoseconds, sizes bytes.
 * A size of 0 means "the whole target" (fio's default).
 */
struct bq_job {
	char name[64];
	char *filenames[BQ_MAX_FILES];
	int nr_files;

	enum bq_rw rw;
	unsigned int rwmixread;
	uint32_t bs[BQ_NR_DIRS];
	uint32_t bs_min[BQ_NR_DIRS];	/* bsrange; equal to bs when not a range */
	uint32_t bs_max[BQ_NR_DIRS];
	struct bq_bssplit bssplit[BQ_NR_DIRS][BQ_MAX_BSSPLIT];
	int nr_bssplit[BQ_NR_DIRS];
	uint32_t ba;			/* alignment of random offsets; 0: bs */

	unsigned int iodepth;
	unsigned int batch_complete;	/* completions to wait for per call; 0: 1, or
					 * iodepth/2 with gtod_reduce */
	unsigned int numjobs;
	uint64_t size;
	unsigned int size_pct;		/* size=N%: percent of the target; 0: use size */
	uint64_t offset;
	uint64_t io_size;		/* bytes to transfer; 0: size */

	uint64_t runtime_ns;		/* 0: until io_size is done */
	bool time_based;
	uint64_t ramp_ns;
	uint64_t startdelay_ns;
	uint64_t thinktime_ns;

	bool direct;
	bool invalidate;		/* drop the target's cached pages before I/O */
	bool sync;			/* O_DSYNC */
	unsigned int fsync_every;	/* fsync after this many writes; 0: never */

	bool randrepeat;
	uint64_t randseed;
	bool norandommap;
	enum bq_dist dist;
	double dist_param;		/* zipf theta, or pareto h: the hot fraction of blocks */

	uint64_t rate_iops;		/* per thread; 0: unlimited */
	bool group_reporting;
	bool gtod_reduce;		/* no per-I/O latency */
	bool continue_on_error;
	uint64_t stall_timeout_ns;	/* report a thread whose I/O is stuck this long; 0: never */

	enum bq_engine engine;
	enum bq_poll poll;		/* hipri=1 means BQ_POLL_ON */
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	char cpus_allowed[256];		/* CPU list; empty: automatic placement */
	bool stripe;			/* the filenames are RAID0 members, striped here */
	uint64_t stripe_chunk;		/* bytes */
	int stripe_layout;		/* enum bq_raid0_layout */

	int verify;			/* enum bq_verify_method (blkqual_verify.h); 0: off */
	bool do_verify;			/* read back what was written, after the writes */
	bool verify_fatal;		/* end the job at the first bad block */
	bool verify_only;		/* no writes, only the read-back of a --verify-state */
	uint32_t verify_interval;	/* bytes per verified block; 0: the smallest I/O */
	uint32_t verify_pattern_len;
	uint8_t verify_pattern[256];

	/* job ordering and groups (issue 19): fio's stonewall, wait_for, loops, exitall */
	bool stonewall;			/* start once every earlier job has ended */
	bool new_group;			/* start a new reporting group */
	char wait_for[64];		/* start once this job has ended; empty: no wait */
	unsigned int loops;		/* the whole job this many times; 0 and 1: once */
	bool exitall;			/* a thread that ends stops others (exit_what) */
	int exit_what;			/* enum bq_exit_what */
	bool exitall_on_error;		/* a thread that ends in error stops others */
	uint64_t startdelay_max_ns;	/* startdelay=a-b: b, each thread draws; 0: no range */
};

/**
 * enum bq_exit_what - what exitall (and exitall_on_error) stop, as in fio
 * @BQ_EXIT_GROUP: the jobs of the ending thread's reporting group
 * @BQ_EXIT_STONEWALL: every job running then; later phases still run
 * @BQ_EXIT_ALL: every job, those not yet started included
 */
enum bq_exit_what {
	BQ_EXIT_GROUP,
	BQ_EXIT_STONEWALL,
	BQ_EXIT_ALL,
};

/**
 * struct bq_jobset - the jobs of one run, in the order given
 */
struct bq_jobset {
	struct bq_job *jobs;
	size_t nr;
};

#define BQ_PARSE_MORE	15

/**
 * struct bq_parse_error - where and why an option or job file was rejected
 * @where: "job.fio:12", "--bs" or "-bs"
 * @msg: the problem, one line, no trailing period
 * @nr_more: a job file's further rejected options, after the first (which
 *           is @where and @msg): all of a file's are reported at once
 * @more: each as "where: msg"
 * @more_dropped: how many more there were beyond BQ_PARSE_MORE
 */
struct bq_parse_error {
	char where[256];
	char msg[256];
	int nr_more;
	char more[BQ_PARSE_MORE][520];
	int more_dropped;
};

/**
 * bq_job_set() - set one option by its fio name
 * @job: the job
 * @key: option name, e.g. "bs", "rw", "iodepth"
 * @value: its value, or NULL for a flag given without one ("time_based")
 * @err: filled in on failure (msg only; the caller sets where)
 *
 * On failure @job is unchanged.  Filenames are copied; bq_jobset_free()
 * frees them.
 *
 * Return: 0; -EINVAL for a bad value; -ENOENT for an unknown option;
 * -EOPNOTSUPP for an option or value fio has that blkqual does not
 * implement ("verify=md5", "ioengine=mmap", "rw=trim").
 */
int bq_job_set(struct bq_job *job, const char *key, const char *value,
	       struct bq_parse_error *err);

/**
 * bq_jobs_from_args() - jobs from a fio-style command line
 * @argc: number of arguments
 * @argv: "--rw=read", "-rw=read", "--bs", "4k", "--name=a", ...; no
 *        program name; an argument not starting with '-' is a job file
 * @set: receives the jobs: options before the first --name are global
 *       (and the defaults of job files), each --name starts a job; with
 *       no --name and no job file the globals are one job named "job";
 *       each job checked as a whole (a filename, bssplit adding up to
 *       100, ...)
 * @err: filled in on failure, @err->where is the option as typed
 *
 * Return: 0 or -errno.
 */
int bq_jobs_from_args(int argc, char **argv, struct bq_jobset *set,
		      struct bq_parse_error *err);

struct bq_strv;

/**
 * bq_job_to_args() - a job as the options that make it again
 * @job: the job
 * @args: receives "--name=...", "--rw=...", ... (appended)
 *
 * Every option blkqual has is written, defaults included, in units that
 * lose nothing, so bq_jobs_from_args() on them gives back the same job
 * whatever the defaults are then.  A striped job is refused: striping is
 * a run option (--stripe), not a job option.
 *
 * Return: 0, -EOPNOTSUPP for a striped job, -ENAMETOOLONG or -ENOMEM.
 */
int bq_job_to_args(const struct bq_job *job, struct bq_strv *args);

/**
 * bq_jobset_free() - free what the parsers allocated
 * @set: the jobs
 */
void bq_jobset_free(struct bq_jobset *set);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_JOB_H */
