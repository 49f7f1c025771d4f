/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_io.h - public interface of libblkqual's I/O side: jobs, placement,
 * latency histograms, device counters and the run engine
 *
 * Like the rest of libblkqual: 0 (or a count) on success, -errno on
 * failure, nothing printed.
 */
#ifndef BLKQUAL_IO_H
#define BLKQUAL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

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
 * bq_engine_parse() - the engine a name (or one of fio's aliases) means
 * @name: "io_uring", "psync", "sync", "null", ...
 * @e: receives the engine
 *
 * Return: 0, or -ENOENT when no engine has that name.
 */
int bq_engine_parse(const char *name, enum bq_engine *e);

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
/* Threads of all jobs of one run together (numjobs summed over the jobs). */
#define BQ_MAX_THREADS 4096
/* The most entries an io_uring submission queue may have (IORING_MAX_ENTRIES). */
#define BQ_URING_MAX_DEPTH 32768

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
};

/**
 * struct bq_jobset - the jobs of one run, in the order given
 */
struct bq_jobset {
	struct bq_job *jobs;
	size_t nr;
};

/**
 * struct bq_parse_error - where and why an option or job file was rejected
 * @where: "job.fio:12", "--bs" or "-bs"
 * @msg: the problem, one line, no trailing period
 */
struct bq_parse_error {
	char where[256];
	char msg[256];
};

/**
 * bq_job_defaults() - a job with fio's defaults
 * @job: filled in (name "job", rw read, bs 4k, iodepth 1, numjobs 1,
 *       io_uring, direct 0, randrepeat 1, poll auto, fixedbufs and
 *       registerfiles on)
 */
void bq_job_defaults(struct bq_job *job);

/**
 * bq_job_copy() - deep copy of a job (its filename strings too)
 * @dst: receives the copy; whatever it held is not freed
 * @src: the job
 *
 * Return: 0 or -ENOMEM (then @dst owns nothing).
 */
int bq_job_copy(struct bq_job *dst, const struct bq_job *src);

/**
 * bq_job_release() - free what a job owns (its filenames)
 * @job: the job; its filename list is left empty
 */
void bq_job_release(struct bq_job *job);

/**
 * bq_job_set() - set one option by its fio name
 * @job: the job
 * @key: option name, e.g. "bs", "rw", "iodepth"
 * @value: its value, or NULL for a flag given without one ("time_based")
 * @err: filled in on failure (msg only; the caller sets where)
 *
 * On failure @job is unchanged.  Filenames are copied; free them with
 * bq_job_release() or bq_jobset_free().
 *
 * Return: 0; -EINVAL for a bad value; -ENOENT for an unknown option;
 * -EOPNOTSUPP for an option or value fio has that blkqual does not
 * implement ("verify=md5", "ioengine=mmap", "rw=trim").
 */
int bq_job_set(struct bq_job *job, const char *key, const char *value,
	       struct bq_parse_error *err);

/**
 * bq_job_check() - the whole job is consistent (run after the last option)
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (no filename, bsrange min > max, bssplit not
 * adding up to 100, iodepth 0, ...).
 */
int bq_job_check(const struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_jobfile_parse() - read a fio job file
 * @path: the file ("-" for standard input)
 * @set: receives the jobs: each section but [global], with the options of
 *       every [global] above it applied first; each job passed
 *       bq_job_check()
 * @err: filled in on failure, @err->where is "path:line"
 *
 * ';' and '#' start comments, ${VAR} expands from the environment.
 *
 * Return: 0 or -errno.
 */
int bq_jobfile_parse(const char *path, struct bq_jobset *set, struct bq_parse_error *err);

/**
 * bq_jobs_from_args() - jobs from a fio-style command line
 * @argc: number of arguments
 * @argv: "--rw=read", "-rw=read", "--bs", "4k", "--name=a", ...; no
 *        program name; an argument not starting with '-' is a job file
 * @set: receives the jobs: options before the first --name are global
 *       (and the defaults of job files), each --name starts a job; with
 *       no --name and no job file the globals are one job named "job";
 *       each job passed bq_job_check()
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

/* ---- offsets ------------------------------------------------------------ */

/**
 * struct bq_offgen - where the next I/O of one thread goes, in blocks
 *
 * Sequential: 0, 1, 2, ... wrapping at @nblocks.  Random with the random
 * map (fio's default): a keyed permutation of [0, nblocks), so every block
 * is visited exactly once per pass without a bitmap; each pass draws a new
 * key.  norandommap: independent uniform draws.  zipf and pareto: skewed
 * draws, scattered over the range by the same permutation so the hot
 * blocks are not adjacent.  Everything is reproducible from the seed.
 * Fixed size: nothing is allocated, whatever the device size.
 */
struct bq_offgen {
	uint64_t nblocks;
	uint64_t pos;		/* sequential position or index within the pass */
	uint64_t pass;
	uint64_t rng[4];	/* xoshiro256** state */
	uint64_t key[4];	/* permutation round keys of this pass */
	unsigned int half_bits;	/* permutation works on 2 * half_bits bits */
	bool random;
	bool randommap;
	enum bq_dist dist;
	double param;
	double dist_c[4];	/* precomputed constants of the distribution */
};

/**
 * struct bq_offgen_params - how a thread's offsets are drawn
 */
struct bq_offgen_params {
	uint64_t nblocks;	/* >= 1 */
	bool random;
	bool norandommap;
	enum bq_dist dist;
	double param;		/* zipf theta (> 0), or pareto h (0 < h < 1): a fraction
				 * h of the blocks gets 1 - h of the draws, as in fio */
	uint64_t seed;
};

/**
 * bq_offgen_init() - set up a generator
 * @g: the generator
 * @p: parameters
 *
 * Return: 0 or -EINVAL (no blocks, bad distribution parameter).
 */
int bq_offgen_init(struct bq_offgen *g, const struct bq_offgen_params *p);

/**
 * bq_offgen_next() - the next block index, in [0, nblocks)
 * @g: the generator
 *
 * Return: the block index.
 */
uint64_t bq_offgen_next(struct bq_offgen *g);

/**
 * bq_rand_next() - the generator's raw 64-bit random stream (xoshiro256**)
 * @g: the generator
 *
 * Used for the other per-I/O draws (direction of a mixed job, block size
 * of a split) so one seed reproduces the whole workload.
 *
 * Return: 64 random bits.
 */
uint64_t bq_rand_next(struct bq_offgen *g);

/* ---- CPU placement ----------------------------------------------------- */

/**
 * struct bq_topology - NUMA nodes and their online CPUs
 */
struct bq_topology {
	int nr_nodes;
	int *node_ids;		/* nr_nodes entries */
	int **node_cpus;	/* per node, ascending */
	int *node_nr_cpus;
	int nr_cpus;		/* online CPUs in all */
};

/**
 * bq_topology_read() - nodes and CPUs from sysfs (movable root)
 * @ctx: context
 * @t: filled in; a kernel without NUMA gives one node 0 with every CPU
 *
 * Return: 0 or -errno.
 */
int bq_topology_read(struct bq_ctx *ctx, struct bq_topology *t);

/**
 * bq_topology_free() - free a topology
 * @t: the topology
 */
void bq_topology_free(struct bq_topology *t);

/**
 * struct bq_place_req - what placement must satisfy
 * @nr_threads: threads to place
 * @dev_node: NUMA node of each thread's device (-1: unknown)
 * @allowed: CPUs a thread may use (cpus_allowed), or NULL for all
 * @nr_allowed: entries in @allowed
 */
struct bq_place_req {
	int nr_threads;
	const int *dev_node;
	const int *allowed;
	int nr_allowed;
};

/**
 * bq_place() - choose a CPU for every thread
 * @t: the machine
 * @req: the threads
 * @cpu: receives a CPU per thread
 * @node: receives that CPU's node per thread
 *
 * Pure: the same input gives the same answer.  Threads go to CPUs of
 * their device's node first, one thread per CPU before any CPU is shared;
 * threads whose device has no node are spread over all nodes.
 *
 * Return: 0, -EINVAL when no allowed CPU exists, or -ENOMEM.
 */
int bq_place(const struct bq_topology *t, const struct bq_place_req *req, int *cpu, int *node);

/* ---- latency histogram -------------------------------------------------- */

/*
 * Log-linear buckets: values below 2^BQ_HIST_SUB_BITS nanoseconds are
 * exact; above, each power of two is split into 2^BQ_HIST_SUB_BITS
 * buckets, and a bucket is reported by its midpoint, so the relative
 * error is at most 1/2^(BQ_HIST_SUB_BITS + 1) = 1/256.  Powers of two
 * up to 2^BQ_HIST_MAX_LOG2 ns (2.4 hours) are split this way; the top
 * bucket, from 2^44 - 2^36 ns (4.9 hours), also takes every larger value
 * and is reported as the maximum.
 */
#define BQ_HIST_SUB_BITS 7
#define BQ_HIST_MAX_LOG2 43
#define BQ_HIST_BUCKETS (((BQ_HIST_MAX_LOG2 - BQ_HIST_SUB_BITS + 1) << BQ_HIST_SUB_BITS) + \
			 (1 << BQ_HIST_SUB_BITS))

/**
 * struct bq_hist - latency histogram in nanoseconds
 */
struct bq_hist {
	uint64_t *buckets;
	uint64_t count;
	uint64_t min;
	uint64_t max;
	double sum;
	double sumsq;
};

int bq_hist_init(struct bq_hist *h);
void bq_hist_free(struct bq_hist *h);
void bq_hist_reset(struct bq_hist *h);
void bq_hist_merge(struct bq_hist *dst, const struct bq_hist *src);
uint64_t bq_hist_percentile(const struct bq_hist *h, double pct);
double bq_hist_mean(const struct bq_hist *h);
double bq_hist_stdev(const struct bq_hist *h);
void bq_hist_bucket_bounds(unsigned int idx, uint64_t *lower, uint64_t *width);

/**
 * bq_hist_index() - bucket of a value
 * @ns: the value
 *
 * Return: index below BQ_HIST_BUCKETS.
 */
static inline unsigned int bq_hist_index(uint64_t ns)
{
	unsigned int log2, shift;

	if (ns < (1u << BQ_HIST_SUB_BITS))
		return (unsigned int)ns;
	log2 = 63 - (unsigned int)__builtin_clzll(ns);
	if (log2 > BQ_HIST_MAX_LOG2)
		return BQ_HIST_BUCKETS - 1;
	shift = log2 - BQ_HIST_SUB_BITS;
	return ((shift + 1) << BQ_HIST_SUB_BITS) +
	       (unsigned int)((ns >> shift) & ((1u << BQ_HIST_SUB_BITS) - 1));
}

/**
 * bq_hist_add() - record one value (the per-I/O path: no branches taken
 * but the rare min/max updates, no allocation)
 * @h: histogram
 * @ns: latency
 */
static inline void bq_hist_add(struct bq_hist *h, uint64_t ns)
{
	double d = (double)ns;

	h->buckets[bq_hist_index(ns)]++;
	h->count++;
	h->sum += d;
	h->sumsq += d * d;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

/* ---- device counters --------------------------------------------------- */

/**
 * struct bq_diskstats - a block device's own counters (sysfs "stat")
 */
struct bq_diskstats {
	uint64_t ios[BQ_NR_DIRS];
	uint64_t merges[BQ_NR_DIRS];
	uint64_t sectors[BQ_NR_DIRS];
	uint64_t ticks_ms[BQ_NR_DIRS];
	uint64_t in_flight;
	uint64_t io_ticks_ms;
	uint64_t time_in_queue_ms;
	uint64_t discards;
	uint64_t flushes;
};

/**
 * bq_diskstats_read() - read /sys/block/NAME/stat (same as /proc/diskstats)
 * @ctx: context
 * @name: kernel name (a partition works too)
 * @st: filled in
 *
 * Return: 0 or -errno.
 */
int bq_diskstats_read(struct bq_ctx *ctx, const char *name, struct bq_diskstats *st);

/**
 * bq_diskstats_delta() - @after minus @before, field by field
 * @before: earlier sample
 * @after: later sample
 * @delta: receives the difference (in_flight is @after's)
 */
void bq_diskstats_delta(const struct bq_diskstats *before, const struct bq_diskstats *after,
			struct bq_diskstats *delta);

/* ---- NVMe passthrough (ioengine=io_uring_cmd) --------------------------- */

struct nvme_uring_cmd;

/* NLB is a 16-bit, 0-based count: one command moves at most this many blocks. */
#define BQ_NVME_MAX_BLOCKS 65536u

/**
 * bq_nvme_rw_cmd() - build an NVMe Read or Write for IORING_OP_URING_CMD
 * @cmd: the command (<linux/nvme_ioctl.h>), usually the SQE's cmd area of
 *       an IORING_SETUP_SQE128 ring
 * @write: Write (opcode 01h) instead of Read (02h)
 * @nsid: namespace ID
 * @offset: byte offset in the namespace, a multiple of @lba_size
 * @len: bytes, a non-zero multiple of @lba_size, at most
 *       BQ_NVME_MAX_BLOCKS blocks
 * @lba_size: LBA data size of the namespace's format, a power of two
 * @buf: the data
 *
 * Fills opcode, nsid, addr, data_len, the starting LBA (cdw10 low, cdw11
 * high) and the 0-based block count (cdw12); every other field is zero.
 * Pure, so the per-I/O path and the tests build the same bytes.
 *
 * Return: 0; -EINVAL when the numbers make no command (then @cmd is not
 * touched); -EOPNOTSUPP when built without <linux/nvme_ioctl.h>'s
 * struct nvme_uring_cmd.
 */
int bq_nvme_rw_cmd(struct nvme_uring_cmd *cmd, bool write, uint32_t nsid, uint64_t offset,
		   uint32_t len, uint32_t lba_size, void *buf);

/**
 * bq_nvme_ng_to_blk() - the block device of an NVMe generic device
 * @ng: "/dev/ng0n1" or "ng0n1"
 * @blk: receives "/dev/nvme0n1" or "nvme0n1" (the directory part is kept)
 * @len: size of @blk
 *
 * The kernel names a namespace's character and block devices after the
 * same controller (or, with native multipath, subsystem) instance and
 * namespace instance, so the mapping is by name alone.
 *
 * Return: 0, -EINVAL when the last component of @ng is not ngXnY, or
 * -ENAMETOOLONG.
 */
int bq_nvme_ng_to_blk(const char *ng, char *blk, size_t len);

/**
 * struct bq_nvme_ns - a namespace as passthrough I/O sees it
 * @nsid: namespace ID
 * @nsze: size in logical blocks
 * @lba_size: data bytes per logical block; 0 when the format is unreadable
 * @lba_meta: metadata bytes per logical block
 * @lbaf: index of the LBA format in use (FLBAS, high bits included)
 */
struct bq_nvme_ns {
	uint32_t nsid;
	uint64_t nsze;
	uint32_t lba_size;
	uint16_t lba_meta;
	int lbaf;
};

/**
 * bq_nvme_ns_decode() - size and LBA format from Identify Namespace data
 * @id_ns: 4096-byte Identify Namespace data
 * @ns: filled in, except @ns->nsid (the data does not hold it)
 *
 * Shared with bq_nvme_health_decode() so the format index is worked out
 * in one place.  Without libnvme, @ns is zeroed.
 */
void bq_nvme_ns_decode(const void *id_ns, struct bq_nvme_ns *ns);

/**
 * bq_nvme_ns_read() - namespace ID, size and LBA format of an open namespace
 * @fd: /dev/ngXnY (or /dev/nvmeXnY) open for reading
 * @ns: filled in
 *
 * Return: 0; -EOPNOTSUPP when built without libnvme; -EIO when the device
 * answers Identify with an NVMe error status; or -errno.
 */
int bq_nvme_ns_read(int fd, struct bq_nvme_ns *ns);

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
};

#define BQ_MAX_IO_ERRORS 32

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
	uint64_t count;
	uint64_t min_offset;
	uint64_t max_offset;
	uint64_t last_offset;
	uint64_t examples[BQ_ERROR_EXAMPLES];
	int nr_examples;
};

struct bq_thread_result;

/**
 * bq_io_error_count() - count one failed I/O in its group
 * @t: the thread's (or a sum's) results
 * @e: the failure
 */
void bq_io_error_count(struct bq_thread_result *t, const struct bq_io_error *e);

/**
 * bq_io_error_groups_merge() - add another result's error groups
 * @dst: receives them
 * @src: the groups to add
 *
 * Groups of the same kind add up (count, offset range, examples while
 * there is room); @src's later offsets count as the later ones.
 */
void bq_io_error_groups_merge(struct bq_thread_result *dst, const struct bq_thread_result *src);

/**
 * struct bq_dir_result - what one direction did
 */
struct bq_dir_result {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	struct bq_hist lat;
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
 */
struct bq_job_result {
	struct bq_job job;
	struct bq_thread_result *threads;
	int nr_threads;
	struct bq_target_info *targets;
	int nr_targets;
	bool polled;
	char poll_note[256];
	char notes[512];
	uint64_t runtime_ns;
	struct bq_interval *intervals;
	size_t nr_intervals;
	uint64_t stripe_size;		/* bytes of the striped array, 0 when not striped */
	struct bq_verify_report *verify;	/* verify=: what the checks found, else NULL */
	char fault[256];
	struct bq_stall *stalls;
	int nr_stalls;
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
};

/**
 * struct bq_run_opts - how to run
 * @guard: overrides for the safety guard (writes only)
 * @interval_ns: time series period, 0 for none
 * @stop: set non-zero (e.g. from a signal handler) to end the run early
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
	void (*progress)(void *arg, const struct bq_progress *p);
	void *arg;
	const char *verify_state;
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

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_IO_H */
