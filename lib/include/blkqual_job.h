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
	/* the synchronous engines (issue 19) */
	BQ_ENGINE_SYNCRW,	/* fio's sync: lseek, then read or write */
	BQ_ENGINE_PVSYNC,	/* preadv/pwritev */
	BQ_ENGINE_PVSYNC2,	/* preadv2/pwritev2, with RWF_ flags */
	BQ_ENGINE_SG,		/* SCSI commands: /dev/sgN, or SG_IO on /dev/sdX (issue 19) */
};

/**
 * enum bq_engine_cap - what an engine can do, or is
 * @BQ_ENGINE_RING: drives an io_uring ring (its depth limit, polled
 *	completions, an optional SQ poll thread)
 * @BQ_ENGINE_PASSTHRU: sends NVMe commands to /dev/ngXnY; no page cache
 * @BQ_ENGINE_DISKLESS: needs no target at all (measures the tool)
 * @BQ_ENGINE_SYNC: one I/O per call, so iodepth has no effect
 * @BQ_ENGINE_STRIPES: can run --stripe
 * @BQ_ENGINE_HIPRI: polls per I/O (RWF_HIPRI) when hipri=1 asks, not by default
 */
enum bq_engine_cap {
	BQ_ENGINE_RING = 1u << 0,
	BQ_ENGINE_PASSTHRU = 1u << 1,
	BQ_ENGINE_DISKLESS = 1u << 2,
	BQ_ENGINE_SYNC = 1u << 3,
	BQ_ENGINE_STRIPES = 1u << 4,
	BQ_ENGINE_HIPRI = 1u << 5,
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
	BQ_DIST_NORMAL,		/* fio's normal (gauss): a bell of hits, scattered */
	BQ_DIST_ZONED,		/* access percentages over percentages of the region */
	BQ_DIST_ZONED_ABS,	/* access percentages over byte ranges */
	BQ_DIST_SEQUENCE,	/* fio's sequence: a fixed list of block indices */
};

/* fio's limit for random_distribution=sequence */
#define BQ_MAX_DIST_SEQ 64

/* random_generator= (see struct bq_job) */
enum bq_randgen {
	BQ_RANDGEN_TAUSWORTHE,
	BQ_RANDGEN_LFSR,
	BQ_RANDGEN_TAUSWORTHE64,
};

/* zonemode=; not given is none, as in fio 3.33 */
enum bq_zonemode {
	BQ_ZONEMODE_UNSET,
	BQ_ZONEMODE_NONE,
	BQ_ZONEMODE_STRIDED,
	BQ_ZONEMODE_ZBD,
};

/* fio's limit for random_distribution=zoned and zoned_abs */
#define BQ_MAX_DIST_ZONES 256

/**
 * struct bq_dist_zone - one zone of random_distribution=zoned or zoned_abs
 * @pct: share of the I/Os in percent
 * @size: share of the region in percent (zoned), or bytes (zoned_abs)
 */
struct bq_dist_zone {
	uint64_t size;
	uint8_t pct;
};

enum bq_dir {
	BQ_READ,
	BQ_WRITE,
	BQ_NR_DIRS,
};

#define BQ_MAX_FILES 64

/* fio's data placement (dataplacement=, plid_select=): its limits and kinds */
#define BQ_DP_MAX_IDS 128
#define BQ_DP_MAX_SCHEME 32
enum bq_dp_type { BQ_DP_NONE, BQ_DP_FDP, BQ_DP_STREAMS };
enum bq_dp_select { BQ_DP_ROUNDROBIN, BQ_DP_RANDOM, BQ_DP_SCHEME };
#define BQ_MAX_BSSPLIT 16
/* An I/O priority hint: 10 bits above the level (linux/ioprio.h, IOPRIO_HINT_*). */
#define BQ_IOPRIO_MAX_HINT 1023

/* fio's error types: what continue_on_error and ignore_error distinguish */
enum bq_err_type {
	BQ_ERR_READ,			/* a failed read */
	BQ_ERR_WRITE,			/* a failed write, trim or flush */
	BQ_ERR_VERIFY,			/* EILSEQ, whatever the direction */
	BQ_ERR_NR_TYPES,
};

#define BQ_ERR_TYPES_ALL 0xffffu	/* continue_on_error=all, as fio's mask */
#define BQ_MAX_IGNORE 32		/* errnos listed per type */

/**
 * struct bq_bssplit - one entry of a block size split
 * @bs: block size in bytes
 * @pct: share of I/Os in percent
 */
struct bq_bssplit {
	uint32_t bs;
	uint32_t pct;
};

/* percentile_list holds at most this many, as fio's */
#define BQ_PCT_LIST_MAX 20

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
	bool os_clock;			/* clocksource=clock_gettime: stamps from CLOCK_MONOTONIC, not the TSC */
	bool continue_on_error;
	uint64_t stall_timeout_ns;	/* report a thread whose I/O is stuck this long; 0: never */

	enum bq_engine engine;
	enum bq_poll poll;		/* hipri=1 means BQ_POLL_ON */
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	bool sqpoll_cpu_set;		/* sqthread_poll_cpu was given */
	unsigned int sqpoll_cpu;	/* the SQ poll thread's CPU, when set */
	unsigned int force_async;	/* IOSQE_ASYNC on every Nth I/O; 0: never */
	bool vectored;			/* nonvectored=0: readv/writev, or NVMe's vectored command */
	bool fua[BQ_NR_DIRS];		/* readfua, writefua: the NVMe FUA bit (io_uring_cmd) */
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

	/* job files as vendors write them (issue 19) */
	unsigned int kb_base;		/* what "k" means in sizes: 1024 (0 too) or 1000 */
	unsigned int unit_base;		/* fio's output unit: 0 auto, 8 bytes (1, bits, refused) */
	/* the synchronous engines and the sync-family file options (issue 19) */
	bool sync_data_only;		/* sync=dsync: O_DSYNC; sync=1|sync: O_SYNC */
	unsigned int fdatasync_every;	/* fdatasync after this many writes; 0: never */
	bool end_fsync;			/* fsync each file once the writes are done */
	bool fsync_on_close;		/* the same, and again as the file is closed */
	unsigned int write_barrier;	/* accepted as in fio: none of these engines has barriers */
	unsigned int hipri_percentage;	/* pvsync2: share of I/Os with RWF_HIPRI; 100 */
	unsigned int uncached;		/* pvsync2: RWF_DONTCACHE on buffered I/O */
	bool nowait;			/* pvsync2: RWF_NOWAIT */
	bool atomic;			/* RWF_ATOMIC on writes (newer fio's atomic=1) */
	/*
	 * Buffer contents (zero_buffers, refill_buffers, scramble_buffers,
	 * buffer_pattern, buffer_compress_*, dedupe_*): lib/job/bufopt.c sets
	 * them as fio's option callbacks do, lib/io/buffers.c writes them.
	 * The *_set flags are fio's "given in the job", which its rules test.
	 */
	bool zero_buffers;
	bool zero_buffers_set;
	bool refill_buffers;
	bool refill_buffers_set;
	bool scramble_buffers;		/* default on */
	bool scramble_buffers_set;
	bool compress_given;		/* buffer_compress_percentage or dedupe_percentage given */
	uint8_t compress_pct;		/* buffer_compress_percentage */
	uint32_t compress_chunk;	/* bytes; default 512, 0: the smallest write */
	uint8_t dedupe_pct;
	uint8_t dedupe_mode;		/* enum bq_dedupe_mode */
	uint8_t dedupe_ws_pct;		/* dedupe_working_set_percentage, default 5 */
	bool dedupe_global;
	uint32_t buffer_pattern_len;
	uint8_t buffer_pattern[512];	/* fio's MAX_PATTERN_SIZE */
	/* verify methods and options (issue 19, the digest family) */
	uint32_t verify_backlog;	/* read back after every N writes; 0: only at the end */
	uint32_t verify_backlog_batch;	/* I/Os read back each time; 0: verify_backlog */
	uint32_t verify_offset;		/* the header swapped to this byte; 0: none */
	uint32_t verify_async;		/* fio's offload threads: accepted, changes nothing */
	bool verify_header_seed;	/* a block's seed must be the run's (default 1) */
	bool verify_write_sequence;	/* generation must be the state's (default 1) */
	/*
	 * File sets (issue 19): the files fio names itself when a job has no
	 * filename=, jobname.jobnum.filenum in directory= or the current one.
	 */
	char directory[1024];		/* ':'-separated; empty: the current directory */
	char filename_format[256];	/* $jobname, $jobnum, $filenum; empty: fio's */
	bool unique_filename;
	unsigned int nrfiles;		/* files per job (per numjobs clone) */
	uint64_t filesize_lo;		/* 0: size= split over the files */
	uint64_t filesize_hi;		/* above filesize_lo for a range */
	unsigned int openfiles;		/* files open at a time; 0: all */
	int file_service;		/* enum bq_file_service */
	unsigned int file_service_nr;	/* I/Os before switching files; 0: a whole file */
	double file_service_param;	/* zipf theta or pareto h of file_service_type */
	bool create_on_open;
	bool create_only;		/* lay the files out, do no I/O */
	bool allow_file_create;
	bool overwrite;
	int fallocate;			/* enum bq_fallocate */
	bool pre_read;
	bool unlink;
	bool unlink_each_loop;		/* each loop after the first starts on emptied files */
	bool create_fsync;
	bool create_serialize;
	bool file_append;		/* each file's region starts at its end */
	/* ---- I/O patterns family (issue 19) ---- */
	int64_t seq_add;		/* rw=read:N: bytes skipped after each sequential I/O */
	unsigned int seq_nr;		/* rw=randread:N: a new random offset every N I/Os; 0: 1 */
	bool rw_seq_identical;		/* rw_sequencer=identical: repeat the offset instead */
	unsigned int pct_seq[BQ_NR_DIRS];	/* 100 - percentage_random, so 0 is fio's default */
	int random_generator;		/* enum bq_randgen */
	bool allrandrepeat;		/* every generator repeatable, whatever randrepeat says */
	bool softrandommap;		/* no memory for the random map: go on without it */
	bool dist_has_center;		/* random_distribution=NAME:PARAM:CENTER was given */
	double dist_center;		/* that center, in [0, 1] */
	struct bq_dist_zone dist_zones[BQ_NR_DIRS][BQ_MAX_DIST_ZONES];
	int nr_dist_zones[BQ_NR_DIRS];
	int zonemode;			/* enum bq_zonemode */
	uint64_t zone_size;		/* strided: bytes done in a zone before the next */
	uint64_t zone_range;		/* strided: bytes from one zone's start to the next's,
					 * before zone_skip; 0: zone_size */
	uint64_t zone_skip;		/* strided: bytes skipped after each zone */
	uint64_t offset_increment;	/* thread N of numjobs starts N times this further */
	unsigned int offset_increment_pct;	/* offset_increment=N%; 0: use the bytes */
	uint64_t offset_align;		/* alignment of a percentage offset; 0: smallest bs */
	uint64_t number_ios;		/* stop each thread after this many I/Os; 0: no limit */
	bool bs_is_seq_rand;		/* bs=SEQ,RAND instead of READ,WRITE */
	/* rates, thinktime and latency targets (issue 19; lib/io/rate.c) */
	uint64_t rate[BQ_NR_DIRS];		/* bytes/s per thread; 0: no cap */
	uint64_t rate_iops_rw[BQ_NR_DIRS];	/* I/Os per second per thread; 0: no cap */
	uint64_t rate_min[BQ_NR_DIRS];		/* bytes/s below which the job fails */
	uint64_t rate_iops_min[BQ_NR_DIRS];	/* I/Os per second below which it fails */
	uint32_t ratecycle_ms;			/* averaging window of rate_min */
	bool rate_poisson;			/* rate_process=poisson */
	bool rate_ignore_thinktime;
	uint64_t thinktime_spin_ns;		/* spun, the rest of thinktime slept */
	uint32_t thinktime_blocks;		/* I/Os between pauses */
	bool thinktime_blocks_set;		/* given: counts even with thinktime_iotime */
	bool thinktime_blocks_issue;		/* count issued I/Os, not completed ones */
	uint64_t thinktime_iotime_ns;		/* or pause after this much I/O time */
	uint64_t max_latency_ns[BQ_NR_DIRS];	/* 0: none */
	uint64_t latency_target_ns;		/* 0: no depth search */
	uint64_t latency_window_ns;
	double latency_percentile;		/* share of I/Os that must meet the target */
	bool latency_run;			/* keep adjusting, never end at the depth found */
	int ss;					/* enum bq_ss; read only with ss_dur_ns */
	double ss_limit;
	bool ss_pct;				/* ss_limit is a percentage of the mean */
	uint64_t ss_dur_ns;			/* 0: no steady state detection */
	uint64_t ss_ramp_ns;
	uint64_t ss_interval_ns;		/* one sample per interval (fio's ss_interval) */
	/* job ordering and groups (issue 19): fio's stonewall, wait_for, loops, exitall */
	bool stonewall;			/* start once every earlier job has ended */
	bool new_group;			/* start a new reporting group */
	char wait_for[64];		/* start once this job has ended; empty: no wait */
	unsigned int loops;		/* the whole job this many times; 0 and 1: once */
	bool exitall;			/* a thread that ends stops others (exit_what) */
	int exit_what;			/* enum bq_exit_what */
	bool exitall_on_error;		/* a thread that ends in error stops others */
	uint64_t startdelay_max_ns;	/* startdelay=a-b: b, each thread draws; 0: no range */
	/*
	 * Trim workloads (issue 19; lib/job/jobopt_trim.c, lib/io/trim.c):
	 * rw=trim and randtrim keep rw= at write or randwrite, whose offsets
	 * and block sizes they use, and every I/O picked is a trim;
	 * trimwrite and randtrimwrite write each block right after its trim.
	 */
	int trim;			/* enum bq_trim_mode */
	/* I/O logs and trace replay (issue 19; lib/io/iolog*.c, lib/job/jobopt_iolog.c) */
	char read_iolog[1024];		/* fio iolog v2/v3 or blktrace file; empty: none */
	char write_iolog[1024];		/* fio iolog v3 written here; empty: none */
	char replay_redirect[1024];	/* every logged I/O goes to this target */
	bool replay_no_stall;		/* replay as fast as possible */
	bool read_iolog_chunked;	/* accepted: the log is read whole */
	uint32_t replay_align;		/* offsets rounded down to this (power of 2) */
	uint32_t replay_scale;		/* offsets divided by this; 0: 1 */
	uint32_t replay_time_scale;	/* percent of the logged speed; 100 */
	uint8_t replay_skip;		/* blktrace: 1 << BQ_READ, BQ_WRITE, 4 sync, 8 trim */
	char merge_blktrace_file[1024];	/* read_iolog's blktrace files merged here; empty: no */
	uint32_t merge_scalars[20];	/* percent of each trace's time; none given: 100 */
	uint32_t merge_iters[20];	/* times each trace is repeated; none given: 1 */
	uint8_t nr_merge_scalars;
	uint8_t nr_merge_iters;
	/* zoned block devices (issue 19; lib/job/jobopt_zbd.c, lib/io/zbd.c) */
	unsigned int max_open_zones;	/* zones written at once; 0: the device's limit */
	unsigned int job_max_open_zones;	/* of those, this job's; 0: no own limit */
	uint64_t zone_capacity;		/* zonecapacity= for emulated zones; 0: zonesize */
	bool read_beyond_wp;		/* reads ignore the write pointer */
	bool ignore_zone_limits;	/* do not ask the device for its open zone limit */
	double zone_reset_threshold;	/* share of the region with data before resets */
	double zone_reset_frequency;	/* reset every 1/this writes past the threshold */
	/* SCSI through fio's sg engine (issue 19; lib/engines/sg.c) */
	int sg_write_mode;		/* enum bq_sg_write_mode (io/scsi.h) */
	/* queueing, priorities and placement (issue 19; lib/io/queue.c) */
	unsigned int iodepth_batch;	/* submit every this many I/Os; 0: once a round */
	unsigned int iodepth_low;	/* refill once in flight falls to this; 0: iodepth */
	unsigned int batch_complete_max;	/* completions reaped at once; 0: all ready */
	bool serialize_overlap;		/* hold an I/O that overlaps one in flight */
	bool ioprio_set;		/* prio= or prioclass= given: ioprio_set() each thread */
	unsigned int ioprio;		/* prio=, 0 (highest) to 7 */
	unsigned int ioprio_class;	/* prioclass=, 0 (none: best effort) to 3 */
	uint8_t cmdprio_pct[BQ_NR_DIRS];	/* I/Os given cmdprio_class/cmdprio, percent */
	uint8_t cmdprio_class[BQ_NR_DIRS];	/* 0: real time (1), as fio defaults it */
	uint8_t cmdprio_level[BQ_NR_DIRS];	/* cmdprio=, 0 to 7 */
	int cpus_policy;		/* enum bq_cpus_policy: cpus_allowed_policy */
	char numa_cpu_nodes[64];	/* run on these nodes' CPUs; empty: placed */
	int numa_mem_mode;		/* enum bq_numa_mem: numa_mem_policy's mode */
	char numa_mem_nodes[64];	/* its node list */
	unsigned int flow_id;		/* jobs sharing it share flow control */
	unsigned int flow;		/* weight in the flow; 0: not in one */
	uint64_t flow_sleep_ns;		/* pause when held back; 0: keep trying */
	/*
	 * Error filters and verify dumps (issue 19; lib/job/errfilter_opt.c,
	 * lib/io/errfilter.c, lib/verify/verify_dump.c): fio's continue_on_error
	 * kinds and ignore_error lists, indexed by enum bq_err_type.
	 */
	unsigned int error_types;	/* kinds continued on: 1 << BQ_ERR_* bits */
	bool ignore_set[BQ_ERR_NR_TYPES];	/* a list was given: it replaces EIO, EILSEQ */
	uint8_t nr_ignore[BQ_ERR_NR_TYPES];
	int ignore[BQ_ERR_NR_TYPES][BQ_MAX_IGNORE];	/* positive errnos */
	bool error_dump;		/* a line for every failed I/O, as it fails */
	bool verify_dump;		/* a bad block's images to NAME.OFF.expected/.received */
	bool continue_any;		/* run --continue-on-error: go on after any errno */
	/* per-I/O log files (issues 19, 20; lib/job/jobopt_logs.c, lib/io/statlog.c) */
	unsigned int logs;		/* 1 << BQ_STATLOG_LAT, _BW, _IOPS, _HIST: which are written */
	char log_names[4][256];		/* each one's file prefix; empty: the job's name */
	unsigned int log_avg_msec;	/* average (or max) over windows; 0: every I/O */
	bool log_max_value;		/* the window's maximum rather than its mean */
	bool log_offset;		/* an offset column */
	bool log_prio;			/* the whole ioprio value, not just "real time" */
	bool shared_logs;		/* per_job_logs=0: one file per name, appended */
	uint8_t log_epoch;		/* 1: log_unix_epoch, 2: log_alternate_epoch */
	int log_epoch_clock;		/* log_alternate_epoch_clock_id; 0: CLOCK_REALTIME */
	unsigned int log_hist_msec;	/* a latency histogram line per this; 0: none */
	unsigned int log_hist_coarseness;	/* 0..6: bins summed by 1 << this */
	struct bq_cmdprio_bss {
		uint32_t bs;
		uint8_t pct;
		bool own;		/* bs/pct/class/level: its own; else cmdprio's */
		uint8_t ioprio_class;
		uint8_t level;
		uint16_t hint;		/* bs/pct/class/level/hint: 0..1023, 0: none */
	} cmdprio_bss[BQ_NR_DIRS][BQ_MAX_BSSPLIT];	/* cmdprio_bssplit= */
	uint8_t nr_cmdprio_bss[BQ_NR_DIRS];
	/* io_uring_cmd NVMe extras (issue 19; lib/job/jobopt_nvme.c) */
	uint8_t nvme_wmode_nr;		/* write_mode entries; 0: plain Write commands */
	struct bq_nvme_wmode {
		uint8_t opcode;		/* NVMe opcode: Write, Write Uncorrectable, ... */
		uint8_t pct;		/* share of the writes, percent */
	} nvme_wmode[4];
	bool nvme_deac;			/* deac: Write Zeroes deallocates */
	unsigned int num_range;		/* DSM ranges per trim; 0 or 1: one */
	/* zoned devices, part two (issue 19; lib/job/jobopt_zbd.c, lib/io/zbd.c) */
	uint32_t size_nz;		/* size=Nz: N zones, set at run time; 0: bytes */
	uint32_t io_size_nz;		/* io_size=Nz (io_limit) */
	uint32_t offset_nz;		/* offset=Nz */
	uint32_t offset_increment_nz;	/* offset_increment=Nz */
	uint32_t zone_skip_nz;		/* zoneskip=Nz */
	/* fill_device, trim rates, offload submission (issue 19; lib/job/jobopt_fill.c) */
	bool fill_device;		/* fill_device, fill_fs: write until ENOSPC */
	bool submit_offload;		/* io_submit_mode=offload (async engines only) */
	uint64_t rate_trim;		/* rate's third value: trim bytes/s per thread */
	uint64_t rate_iops_trim;	/* rate_iops's: trims per second per thread */
	uint64_t rate_min_trim;		/* rate_min's (a trim job refuses it: not judged) */
	uint64_t rate_iops_min_trim;	/* rate_iops_min's, likewise */
	/* sequence distribution and SPRandom (issue 19; jobopt_sprandom.c, io/sprandom.c) */
	uint32_t dist_seq[BQ_MAX_DIST_SEQ];	/* random_distribution=sequence:I,J,...: blocks */
	uint8_t nr_dist_seq;		/* entries of @dist_seq */
	bool dist_seq_stride;		/* random_sequence_stride: the list moves on each round */
	bool sprandom;			/* sprandom: SanDisk's steady-state preconditioning */
	uint32_t spr_num_regions;	/* spr_num_regions (fio's default 100) */
	double spr_op;			/* spr_op: over-provisioning in (0, 1) (default 0.15) */
	uint64_t spr_cs;		/* spr_cs: device cache bytes; 0: no deferral */
	bool random_generator_given;	/* random_generator= given (sprandom's rule) */
	bool norandommap_given;		/* norandommap given (sprandom's rule) */

	/*
	 * fio's output (issue 20): the options as given, "key=value" lines
	 * ("key" for a bare flag),
	 * for its JSON's "job options" and "global options".  The first
	 * @fio_given_own bytes came from [global] (or the options before the
	 * first --name); a job file's section name is not among them, as in
	 * fio.  Options beyond the buffer are not listed.
	 */
	char fio_given[2048];
	unsigned int fio_given_own;
	/* fio's percentile options (issue 20; lib/job/jobopt_stats.c); 0: fio's default */
	double pct_list[BQ_PCT_LIST_MAX];	/* percentile_list, ascending */
	uint8_t nr_pct_list;
	uint8_t pct_precision;		/* decimals the list was written with */
	bool clat_pct_off;		/* clat_percentiles=0 */
	bool lat_pct;			/* lat_percentiles=1 */
	uint8_t sig_figs;		/* significant_figures, 1..10; 0: 4 */
	/* I/O priority hints (issue 19; lib/job/jobopt_queue.c, lib/io/ioprio.c) */
	unsigned int ioprio_hint;	/* priohint=, 0..1023 (0: none); sets ioprio_set */
	uint16_t cmdprio_hint[BQ_NR_DIRS];	/* cmdprio_hint=, 0..1023 (0: none) */
	/* opendir= (issue 19; lib/job/jobopt_opendir.c) */
	char opendir[1024];		/* every regular file below it joins the job's files */
	int nr_opendir_files;		/* the last this many filenames[] were found there */
	/* offset=N% (issue 19; lib/job/jobopt_patterns.c, set in lib/io/run.c) */
	unsigned int offset_pct;	/* percent of the target; 0: offset= is bytes */
	/* trimming verified blocks (issue 19; lib/verify/verify_trim.c) */
	uint32_t trim_percentage;	/* share of the logged writes trimmed, 0..100 */
	bool trim_verify_zero;		/* a trimmed block reads back as zeros (else: not read) */
	uint32_t trim_backlog;		/* trim every this many logged writes; 0: never */
	uint32_t trim_backlog_batch;	/* trims per turn; 0: trim_backlog */
	/* NVMe protection information (issue 19; jobopt_nvme.c, lib/engines/nvme_pi.c) */
	uint32_t nvme_md_per_io;	/* md_per_io_size: separate metadata bytes per I/O */
	bool nvme_pi_act;		/* pi_act: PRACT, the controller inserts/strips PI */
	uint32_t nvme_prchk;		/* pi_chk: BQ_NVME_PRCHK_* (engines/nvme_pi.h) */
	uint16_t nvme_apptag;		/* apptag (fio's default 0x1234) */
	uint16_t nvme_apptag_mask;	/* apptag_mask (0xffff) */
	/* NVMe data placement (issue 19; lib/job/jobopt_dp.c, lib/engines/nvme_dp.c) */
	bool dp_fdp;			/* fdp=1: dataplacement=fdp */
	bool dp_type_set;		/* dataplacement= was given */
	uint8_t dp_type;		/* dataplacement=: BQ_DP_NONE, BQ_DP_FDP, BQ_DP_STREAMS */
	uint8_t dp_select;		/* plid_select=: BQ_DP_ROUNDROBIN, _RANDOM, _SCHEME */
	uint16_t dp_nr_ids;		/* plids=: how many; 0: every handle (FDP) */
	uint16_t dp_ids[BQ_DP_MAX_IDS];	/* FDP: indices into the namespace's handles;
					 * streams: stream identifiers; ascending */
	char dp_scheme[1024];		/* dp_scheme=: "start,end,id" lines */
};

/* struct bq_job's logs: write_lat_log, write_bw_log, write_iops_log, write_hist_log. */
enum bq_statlog_kind {
	BQ_STATLOG_LAT,
	BQ_STATLOG_BW,
	BQ_STATLOG_IOPS,
	BQ_STATLOG_HIST,
	BQ_NR_STATLOG,
};

/* numa_mem_policy: unset keeps the buffers on the thread's node. */
enum bq_numa_mem {
	BQ_NUMA_MEM_UNSET,
	BQ_NUMA_MEM_DEFAULT,
	BQ_NUMA_MEM_PREFER,
	BQ_NUMA_MEM_BIND,
	BQ_NUMA_MEM_INTERLEAVE,
	BQ_NUMA_MEM_LOCAL,
};

/* cpus_allowed_policy: unset keeps blkqual's one CPU per thread, placed. */
enum bq_cpus_policy {
	BQ_CPUS_PLACED,
	BQ_CPUS_SHARED,		/* each thread may run on every CPU of the list */
	BQ_CPUS_SPLIT,		/* thread N of the run gets the list's CPU N (modulo) */
};

/**
 * enum bq_trim_mode - what rw= said about trims
 * @BQ_TRIM_NONE: no trims
 * @BQ_TRIM_ONLY: rw=trim or randtrim: every I/O is a discard
 * @BQ_TRIM_WRITE: rw=trimwrite or randtrimwrite: a discard, then a write
 *	of the same block
 */
enum bq_trim_mode {
	BQ_TRIM_NONE,
	BQ_TRIM_ONLY,
	BQ_TRIM_WRITE,
};

/**
 * bq_job_trim_rw_name() - fio's rw= name of a trim job
 * @j: the job
 *
 * Return: "trim", "randtrim", "trimwrite" or "randtrimwrite", or NULL
 * for a job without trims.
 */
const char *bq_job_trim_rw_name(const struct bq_job *j);

/* dedupe_mode= */
enum bq_dedupe_mode {
	BQ_DEDUPE_REPEAT,
	BQ_DEDUPE_WORKING_SET,
};

/* file_service_type= */
enum bq_file_service {
	BQ_FSRV_ROUNDROBIN,
	BQ_FSRV_SEQUENTIAL,
	BQ_FSRV_RANDOM,
	BQ_FSRV_ZIPF,
	BQ_FSRV_PARETO,
};

/* fallocate=: how a file is reserved when it is laid out */
enum bq_fallocate {
	BQ_FALLOC_NATIVE,	/* fallocate(2) mode 0, fio's default on Linux */
	BQ_FALLOC_NONE,
	BQ_FALLOC_POSIX,	/* posix_fallocate(3) */
	BQ_FALLOC_KEEP,		/* fallocate(2) FALLOC_FL_KEEP_SIZE */
	BQ_FALLOC_TRUNCATE,	/* ftruncate(2) */
};

/**
 * enum bq_ss - fio's steadystate= criteria
 * @BQ_SS_IOPS: every IOPS sample within the limit of the mean
 * @BQ_SS_IOPS_SLOPE: the least squares slope of IOPS under the limit
 * @BQ_SS_BW: every bandwidth sample within the limit of the mean
 * @BQ_SS_BW_SLOPE: the slope of bandwidth under the limit
 * @BQ_SS_LAT: every sample's mean completion latency within the limit of
 *	the window's mean (newer fio)
 * @BQ_SS_LAT_SLOPE: the slope of the mean completion latency under the limit
 */
enum bq_ss {
	BQ_SS_IOPS,
	BQ_SS_IOPS_SLOPE,
	BQ_SS_BW,
	BQ_SS_BW_SLOPE,
	BQ_SS_LAT,
	BQ_SS_LAT_SLOPE,
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
 * bq_job_opt_each() - every fio option name blkqual knows, and its status
 * @fn: gets the name, NULL for a supported option or the one-line reason
 *      it is refused, and @arg; a non-zero return stops the walk
 * @arg: passed through
 *
 * Return: what @fn returned last (0 when every name was seen).
 */
int bq_job_opt_each(int (*fn)(const char *name, const char *refused, void *arg), void *arg);

/* jobopt_values.c: the closed sets of values, asked of the parser (shell completion) */
int bq_job_opt_values(const char *name, int (*fn)(const char *value, void *arg), void *arg);
/* whether a job option needs "=VALUE" (false for a flag such as time_based) */
bool bq_job_opt_takes_value(const char *key);

/**
 * bq_jobs_from_args() - jobs from a fio-style command line
 * @argc: number of arguments
 * @argv: "--rw=read", "-rw=read", "--bs", "4k", "--name=a", ...; no
 *        program name; an argument not starting with '-' is a job file
 * @set: receives the jobs: options before the first --name are global
 *       (and the defaults of job files), each --name starts a job; with
 *       no --name and no job file the globals are one job named "job";
 *       each job checked as a whole (a filename, bssplit adding up to
 *       100, ...); "--section=NAME" (repeatable) keeps only the jobs so
 *       named, as fio's --section does
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
