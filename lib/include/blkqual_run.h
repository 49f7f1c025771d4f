/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_run.h - running jobs: targets, results, the run
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_RUN_H
#define BLKQUAL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "blkqual_histogram.h"
#include "blkqual_diskstats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;
struct bq_trace_result;
struct bq_verify_report;

/* ---- running jobs -------------------------------------------------------- */

struct bq_guard_opts;

/**
 * struct bq_io_error - one failed I/O
 * @offset: byte offset in the target
 * @len: bytes
 * @err: positive errno
 * @dir: BQ_READ or BQ_WRITE
 * @file: index into the job's targets
 */
struct bq_io_error {
	uint64_t offset;
	uint32_t len;
	int err;
	int dir;
	int file;
	uint32_t sense;		/* ioengine=sg: BQ_SENSE_VALID | key, ASC, ASCQ; 0: none */
};

#define BQ_MAX_IO_ERRORS 32

/* A SCSI sense (ioengine=sg) packed into one number: 0 is none. */
#define BQ_SENSE_VALID		(1u << 24)
#define BQ_SENSE_KEY(s)		(((s) >> 16) & 0xf)
#define BQ_SENSE_ASC(s)		(((s) >> 8) & 0xff)
#define BQ_SENSE_ASCQ(s)	((s) & 0xff)
/*
 * ioengine=io_uring_cmd: the failing command's NVMe status (type and code,
 * 0x282 is an end-to-end guard check error) in the same number, marked
 * as found by blkqual when the host's own PI check failed (pi_act=0).
 */
#define BQ_NVME_STATUS_VALID	(1u << 28)
#define BQ_NVME_STATUS_HOST	(1u << 29)
#define BQ_NVME_STATUS(s)	((s) & 0x7ff)

#define BQ_MAX_ERROR_GROUPS 8
#define BQ_ERROR_EXAMPLES 4

/**
 * struct bq_io_error_group - every failed I/O of one kind, counted once
 * @dir: BQ_READ or BQ_WRITE
 * @file: index into the job's targets
 * @err: positive errno
 * @count: failed I/Os of this kind
 * @min_offset: lowest byte offset among them
 * @max_offset: highest byte offset among them
 * @last_offset: offset of the latest one
 * @examples: offsets of the first ones, @nr_examples of them
 *
 * A device that fails every I/O fails thousands a second; one line per
 * (direction, target, errno) with a count says the same without a flood.
 */
struct bq_io_error_group {
	int dir;
	int file;
	int err;
	uint32_t sense;		/* as in struct bq_io_error */
	uint64_t count;
	uint64_t min_offset;
	uint64_t max_offset;
	uint64_t last_offset;
	uint64_t examples[BQ_ERROR_EXAMPLES];
	int nr_examples;
};

/**
 * struct bq_dir_result - what one direction did
 * @short_ios: reads of a regular file that met its end and got less than
 *             they asked (counted in @ios with the bytes they got)
 */
struct bq_dir_result {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	struct bq_hist lat;
	uint64_t short_ios;
};

/**
 * struct bq_member_result - what a striped job sent to one member
 */
struct bq_member_result {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	struct bq_hist lat;
};

/**
 * enum bq_rate_fail - why the rate family ended a thread with an error
 * @BQ_RATE_OK: it did not
 * @BQ_RATE_MIN_FAILED: rate_min or rate_iops_min was not met over a
 *	ratecycle (fio: EIO, "check_min_rate")
 * @BQ_RATE_MAX_LATENCY: an I/O took longer than max_latency (fio: ETIMEDOUT)
 * @BQ_RATE_LATENCY_TARGET: latency_target missed at depth 1 (fio: ETIMEDOUT)
 */
enum bq_rate_fail {
	BQ_RATE_OK,
	BQ_RATE_MIN_FAILED,
	BQ_RATE_MAX_LATENCY,
	BQ_RATE_LATENCY_TARGET,
};

/**
 * struct bq_rate_result - what rates, thinktime and latency targets did
 * @fail: enum bq_rate_fail
 * @fail_dir: the direction that failed
 * @fail_got: bytes/s or IOPS measured (rate_min), or the latency in ns
 * @fail_limit: what the job asked for, in the same unit
 * @think_pauses: thinktime pauses taken
 * @lat_depth: latency_target: the depth found (or in use at the end)
 * @ss_attained: steadystate was reached and ended the thread
 * @ss_criterion: the last slope or deviation computed (% when ss_pct)
 * @ss_samples: one-second samples taken (after ss_ramp)
 * @ss_iops_mean: mean IOPS over the last full window
 * @ss_bw_mean: mean bandwidth over it, bytes/s
 * @ss_lat_mean: mean of its samples' mean completion latencies, ns
 */
struct bq_rate_result {
	int fail;
	int fail_dir;
	uint64_t fail_got;
	uint64_t fail_limit;
	uint64_t think_pauses;
	unsigned int lat_depth;
	bool ss_attained;
	double ss_criterion;
	uint64_t ss_samples;
	double ss_iops_mean;
	double ss_bw_mean;
	double ss_lat_mean;
};

/**
 * struct bq_thread_result - one thread of a job
 * @cpu: CPU it was pinned to
 * @node: NUMA node of that CPU
 * @buf_node: node the kernel placed the thread's I/O buffers on (-1: unknown)
 * @d: per direction
 * @syncs: fsync calls made (fsync=N)
 * @usr_ns: user CPU time of the thread
 * @sys_ns: system CPU time of the thread
 * @vol_cs: voluntary context switches
 * @invol_cs: involuntary context switches
 * @sqpoll_ns: CPU time of its SQPOLL kernel thread, 0 without SQPOLL
 * @mean_depth: I/Os in flight on average (sampled before and after each wait)
 * @ring_flags: io_uring setup flags the kernel accepted
 * @errors: the first failed I/Os, @nr_errors of them
 * @groups: every failed I/O, grouped by direction, target and errno
 * @nr_groups: groups in use
 * @ungrouped: failed I/Os of kinds beyond BQ_MAX_ERROR_GROUPS (only counted)
 * @gave_up: the thread stopped although continue_on_error was set, because
 *           the device is gone (ENXIO, ENODEV) or no I/O had succeeded for
 *           a second while they kept failing
 */
struct bq_thread_result {
	int cpu;
	int node;
	int buf_node;
	struct bq_dir_result d[BQ_NR_DIRS];
	uint64_t syncs;
	uint64_t usr_ns;
	uint64_t sys_ns;
	uint64_t vol_cs;
	uint64_t invol_cs;
	uint64_t sqpoll_ns;
	double mean_depth;
	unsigned int ring_flags;
	struct bq_io_error errors[BQ_MAX_IO_ERRORS];
	int nr_errors;
	struct bq_io_error_group groups[BQ_MAX_ERROR_GROUPS];
	int nr_groups;
	uint64_t ungrouped;
	bool gave_up;
	struct bq_member_result *members;	/* per member of a striped job */
	int nr_members;

	/* rates, thinktime and latency targets (issue 19) */
	struct bq_rate_result rates;
	/* trim workloads (issue 19): the discards, a direction of their own */
	struct bq_dir_result trim;
	/* zoned block devices (issue 19): zonemode=zbd */
	uint64_t zone_resets;		/* zones reset (BLKRESETZONE, or emulated) */
	/* error filters (issue 19): failed I/Os whose errno ignore_error lists */
	uint64_t ignored_errors;
};

/**
 * struct bq_interval - one --interval sample of a job
 */
struct bq_interval {
	uint64_t t_ns;			/* end of the interval, since the start */
	uint64_t ios[BQ_NR_DIRS];
	uint64_t bytes[BQ_NR_DIRS];
	double mean_ns[BQ_NR_DIRS];
	uint64_t p99_ns[BQ_NR_DIRS];
};

#define BQ_STALL_MAX_IOS 16

/**
 * struct bq_stall_io - one I/O that did not complete
 * @offset: byte offset in the target
 * @age_ns: how long it had been in flight when the stall was reported
 * @len: bytes
 * @dir: BQ_READ or BQ_WRITE
 * @file: index into the job's targets
 */
struct bq_stall_io {
	uint64_t offset;
	uint64_t age_ns;
	uint32_t len;
	int dir;
	int file;
};

/**
 * struct bq_stall - a thread whose I/O stopped completing
 * @thread: index of the thread in its job
 * @cpu: the CPU it was pinned to
 * @stalled_ns: time since its last completion (or since it was noticed
 *              to have none)
 * @outstanding: I/Os in flight
 * @in_fsync: it waits in fsync=N's flush, with no I/O in flight
 * @ios: the oldest ones, @nr_ios of them (at most BQ_STALL_MAX_IOS)
 */
struct bq_stall {
	int thread;
	int cpu;
	uint64_t stalled_ns;
	unsigned int outstanding;
	bool in_fsync;
	struct bq_stall_io ios[BQ_STALL_MAX_IOS];
	int nr_ios;
};

/**
 * struct bq_target_info - a job's target, as opened
 */
struct bq_target_info {
	char path[4096];
	char devname[64];		/* kernel name for diskstats; empty for files */
	bool is_blk;
	bool laid_out;			/* regular file created or extended first */
	bool created;			/* regular file made by this run */
	struct stat st;			/* what was opened (fstat) */
	struct stat blk_st;		/* io_uring_cmd: the namespace's block device */
	uint64_t size;
	uint32_t lbs;			/* alignment direct I/O needs, in bytes */
	bool lbs_from_fs;		/* @lbs is the filesystem's (STATX_DIOALIGN) */
	uint32_t nsid;			/* NVMe namespace (io_uring_cmd), else 0 */
	uint32_t max_io;		/* largest single I/O in bytes; 0: any */
	int numa_node;
	bool have_stats;
	struct bq_diskstats before;
	struct bq_diskstats delta;
	uint64_t stats_t0_ns;		/* when @before was read */
	uint64_t stats_window_ns;	/* from @before to the reading @delta ends at */
	/* io_uring_cmd on a namespace with metadata (issue 19; lib/engines/nvme_pi.c) */
	uint32_t nvme_lba_data;		/* data bytes per block (@lbs adds any metadata in it) */
	uint16_t nvme_ms;		/* metadata bytes per block each command moves; 0: none */
	bool nvme_ext;			/* ... after each block's data (extended LBA) */
	uint8_t nvme_pi_type;		/* protection type; 0: none */
	uint8_t nvme_pi_size;		/* PI tuple: 8 (16-bit guard) or 16 (64-bit guard) */
	bool nvme_pi_first;		/* the PI leads the metadata, else ends it */
};

/**
 * struct bq_job_result - one job's outcome
 * @job: the job as run
 * @threads: per thread, numjobs of them
 * @targets: per file
 * @polled: completions were polled (IORING_SETUP_IOPOLL)
 * @poll_note: why polling is on or off, for the user
 * @notes: other things the user should know, one per line
 * @runtime_ns: measured time, ramp excluded
 * @intervals: time series when asked for
 * @fault: why the run was ended early because of this job's target (it
 *         shrank or went away), or empty
 * @stalls: threads found stalled (stall_timeout), @nr_stalls of them
 * @groupid: fio's reporting group (stonewall and new_group start one)
 * @start_unix_ns: when its measured window began (after startdelay,
 *                 wait_for and ramp_time)
 * @end_unix_ns: when its last thread ended its I/O
 * @not_started: it never ran: exitall with exit_what=all ended the run
 *               first (all its figures are zero)
 */
struct bq_job_result {
	struct bq_job job;
	struct bq_thread_result *threads;
	int nr_threads;
	struct bq_target_info *targets;
	int nr_targets;
	bool polled;
	char poll_note[256];
	double clock_mhz;		/* the TSC's rate its I/Os were stamped with; 0: CLOCK_MONOTONIC */
	char notes[512];
	uint64_t runtime_ns;
	struct bq_interval *intervals;
	size_t nr_intervals;
	uint64_t stripe_size;		/* bytes of the striped array, 0 when not striped */
	struct bq_verify_report *verify;	/* verify=: what the checks found, else NULL */
	char fault[256];
	struct bq_stall *stalls;
	int nr_stalls;
	struct bq_trace_result *trace;	/* --trace=block: its targets' requests, else NULL */

	/* job ordering and groups (issue 19) */
	int groupid;			/* fio's reporting group */
	uint64_t start_unix_ns;		/* its measured window, wall clock */
	uint64_t end_unix_ns;
	bool not_started;		/* exitall ended the run before its turn */
};

/**
 * struct bq_progress - what a run has done so far, for a status line
 */
struct bq_progress {
	uint64_t elapsed_ns;
	uint64_t eta_ns;		/* 0 when unknown */
	uint64_t ios;
	uint64_t bytes;
	bool interval_done;		/* a new interval sample was just added */
	const struct bq_results *phase;	/* the jobs running now (a stonewall phase) */
};

/**
 * struct bq_run_opts - how to run
 * @guard: overrides for the safety guard (writes only)
 * @interval_ns: time series period, 0 for none
 * @stop: set non-zero (e.g. from a signal handler) to end the run early;
 *        the threads finish what they have in flight
 * @stop_now: or NULL; set non-zero (a second signal) to end it at once:
 *            threads still waiting for I/O 100 ms later are left behind,
 *            listed as stalled, and the run returns what it measured
 * @progress: called about every 250 ms and after each interval, or NULL
 * @arg: passed to @progress
 * @verify_state: the state file of the (one) job with verify=, or NULL;
 *                created by a job that writes, read by one that only reads
 */
/**
 * struct bq_pinned_target - a target its caller opened through the guard
 * @name: the filename= its jobs use for it (compared as a string)
 * @fd: the guard's descriptor; stays the caller's
 */
struct bq_pinned_target {
	const char *name;
	int fd;
};

struct bq_run_opts {
	const struct bq_guard_opts *guard;
	const struct bq_pinned_target *pinned;	/* targets opened by the caller */
	int nr_pinned;
	uint64_t interval_ns;
	volatile int *stop;
	volatile int *stop_now;
	void (*progress)(void *arg, const struct bq_progress *p);
	void *arg;
	const char *verify_state;
	/*
	 * error_dump and verify_dump (issue 19): called from the job's
	 * threads, with @arg, for each failed I/O of a job with error_dump=1
	 * and each bad block a job with verify_dump=1 wrote to files
	 * (@expected and @received, or NULL with -errno in @ret when not).
	 */
	void (*io_error)(void *arg, const struct bq_job_result *jr, const struct bq_io_error *e);
	void (*verify_dumped)(void *arg, const struct bq_job_result *jr, int file, uint64_t offset,
			      const char *expected, const char *received, int ret);
	/*
	 * fio's --status-interval and SIGUSR1 (issue 20): every
	 * @status_interval_ns (0: never) from the start of the run, and
	 * soon after *@status_now is set (the run clears it), @status is
	 * called, with @arg, from the monitoring thread with the whole run
	 * so far: the jobs of earlier phases as they ended, the running
	 * ones with their figures and runtime up to now, and the jobs still
	 * to come without any.  @sofar is the callee's only for the call.
	 */
	uint64_t status_interval_ns;
	volatile int *status_now;
	void (*status)(void *arg, const struct bq_results *sofar);
	/*
	 * --trace=block (issue 22): follow the requests of the targets'
	 * block devices through BPF; a run that cannot fails before any I/O,
	 * at "--trace=block", saying why.
	 */
	bool trace_block;
};

/**
 * struct bq_results - a whole run
 * @jobs: per job
 * @nr: how many
 * @start_unix_ns: wall clock at the start
 * @interrupted: stopped early through @stop
 * @stalled: a thread's I/O stopped completing for longer than its job's
 *           stall_timeout.  The run returned without waiting for those
 *           threads: they may still run and write to these results, so
 *           report and end the process; do not bq_results_free() them.
 * @gone: a target shrank or went away during the run, which ended it
 */
struct bq_results {
	struct bq_job_result *jobs;
	size_t nr;
	uint64_t start_unix_ns;
	bool interrupted;
	bool stalled;
	bool gone;
};

/**
 * bq_run() - open the targets, place the threads, run every job at once
 * @ctx: context (live)
 * @set: the jobs
 * @opts: run options
 * @res: receives the results, also when the run ends early; release with
 *       bq_results_free()
 * @err: why the run could not start
 *
 * Everything that can be refused (a target the guard refuses, polling
 * that cannot work, a block size the device cannot do) is refused before
 * the first I/O; failed I/Os during the run are recorded, not fatal.
 *
 * Return: 0 when the jobs ran (check the results for I/O errors);
 * -EINVAL, -EBUSY (guard), -EOPNOTSUPP (poll=on impossible) or another
 * -errno when they could not start, with @err saying why.
 */
int bq_run(struct bq_ctx *ctx, const struct bq_jobset *set, const struct bq_run_opts *opts,
	   struct bq_results *res, struct bq_parse_error *err);

/**
 * bq_results_free() - free a run's results
 * @res: the results
 */
void bq_results_free(struct bq_results *res);

/**
 * bq_results_add() - add a repetition of the same jobs to a run's results
 * @dst: results so far
 * @src: the repetition (not changed)
 *
 * Counts, bytes, CPU times and histograms add up; the interval series of
 * @src is appended after @dst's; runtimes add, so rates stay rates.
 *
 * Return: 0, -EINVAL when the runs do not have the same jobs and threads,
 * or -ENOMEM.
 */
int bq_results_add(struct bq_results *dst, const struct bq_results *src);

/**
 * bq_job_sum() - a job's threads added up (group_reporting)
 * @jr: the job's results
 * @sum: receives the sum; its histograms must be initialised
 */
void bq_job_sum(const struct bq_job_result *jr, struct bq_thread_result *sum);

/**
 * struct bq_group_sum - one entry of fio's group_reporting: the threads of
 * consecutive jobs of one reporting group, added up as fio adds them
 * @groupid: the reporting group
 * @first_job: index of the job of the entry's first thread
 * @first_thread: that thread's index in its job
 * @nr_threads: threads in the entry, in job order from there
 * @sum: counts, bytes, errors, latency histograms and CPU times summed;
 *       mean_depth is the mean over the threads
 * @runtime_ns: per direction, the longest runtime among the entry's jobs
 *              that did I/O in it (fio's); rates are the sums over it
 * @trim_runtime_ns: the same for trims (issue 19)
 */
struct bq_group_sum {
	int groupid;
	size_t first_job;
	int first_thread;
	int nr_threads;
	struct bq_thread_result sum;
	uint64_t runtime_ns[BQ_NR_DIRS];
	uint64_t trim_runtime_ns;
};

/**
 * bq_group_sums() - the entries fio's group_reporting makes of a run
 * @res: the results
 * @out: receives the entries that have a job with group_reporting (a
 *       thread of a job without it is reported as itself, as in fio);
 *       free with bq_group_sums_free()
 * @nr: how many
 *
 * fio walks the threads in job order: a thread joins the entry before it
 * when its job has group_reporting and the same group as the previous
 * thread's; otherwise it starts an entry.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_group_sums(const struct bq_results *res, struct bq_group_sum **out, size_t *nr);

/**
 * bq_group_sums_free() - free what bq_group_sums() made
 * @g: the entries
 * @nr: how many
 */
void bq_group_sums_free(struct bq_group_sum *g, size_t nr);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_RUN_H */
