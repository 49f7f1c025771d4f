/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - private declarations shared by libblkqual's files
 */
#ifndef BLKQUAL_INTERNAL_H
#define BLKQUAL_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "blkqual.h"
#include "config-host.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

struct bq_ctx {
	char sysfs[PATH_MAX];
	char proc[PATH_MAX];
	char dev[PATH_MAX];
	bool live;
};

/* core: the context, names in natural order, CPU lists */

/**
 * bq_ctx_is_live() - whether the context reads the running system
 * @ctx: the context
 *
 * Device ioctls (NVMe identify, SMART) only make sense on the live system;
 * with a moved root they are skipped rather than sent to the wrong device.
 *
 * Return: true when no root was moved.
 */
bool bq_ctx_is_live(const struct bq_ctx *ctx);

/**
 * bq_natural_cmp() - compare names so that numbers sort by value
 * @a: first name
 * @b: second name
 *
 * Return: <0, 0 or >0 like strcmp(); "nvme2n1" sorts before "nvme10n1".
 */
int bq_natural_cmp(const char *a, const char *b);

/**
 * bq_cpulist_parse() - parse a kernel CPU list ("0-3,8,10-11")
 * @s: the list, as in sysfs cpulist files
 * @cpus: array to fill with CPU numbers, ascending
 * @max: capacity of @cpus
 *
 * libnuma's parser checks the list against this machine's CPUs, which a
 * captured sysfs tree of another machine would fail; this one does not.
 *
 * Return: number of CPUs, -EINVAL for a malformed list, -E2BIG when more
 * than @max.
 */
int bq_cpulist_parse(const char *s, int *cpus, int max);

/**
 * bq_argf() - append a formatted string to a vector (strv.c)
 * @sv: the vector
 * @fmt: printf format
 *
 * The options a job is rebuilt from (jobargs.c) are made with it.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_argf(struct bq_strv *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* sysfs.c: reading small attribute files below a root */
int bq_path(char *buf, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int bq_read_str(const char *path, char *buf, size_t len);
int bq_read_u64(const char *path, uint64_t *val);
int bq_read_int(const char *path, int *val);
int bq_read_bracketed(const char *path, char *buf, size_t len);
int bq_list_dir(const char *path, struct bq_strv *names);
void bq_strlcpy(char *dst, const char *src, size_t len);
void bq_strtrim(char *s);
char *bq_ini_trim(char *s);
void bq_ini_strip_comment(char *s);
uint64_t bq_attr_u64(const char *dir, const char *attr, uint64_t dflt);
int bq_attr_int(const char *dir, const char *attr, int dflt);
void bq_attr_str(const char *dir, const char *attr, char *buf, size_t len);
int bq_fail_at(struct bq_parse_error *err, const char *where, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int bq_find_up(const char *start, const char *stop, const char *attr,
	       char *found, size_t len);

/*
 * core: splitmix64, the one seeded mixer.  bq_fmix64() is its finaliser,
 * bq_mix64() a stateless hash of a word, bq_splitmix64() the generator
 * (any seed, zero included, gives a full-period stream).  Verify payloads,
 * randrepeat offsets and compare's bootstrap depend on these bits staying
 * as they are (selftests/random_test.c).
 */
#define BQ_GOLDEN64 UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t bq_fmix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t bq_mix64(uint64_t x)
{
	return bq_fmix64(x + BQ_GOLDEN64);
}

static inline uint64_t bq_splitmix64(uint64_t *state)
{
	return bq_fmix64(*state += BQ_GOLDEN64);
}

/* The generator's next draw as a double in (0, 1), never 0: -log() of it is finite. */
static inline double bq_uniform01(uint64_t *state)
{
	return ((double)(bq_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* resolve.c: devices by number */
int bq_device_load_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev);
int bq_device_facts_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev);
int bq_device_load_facts(struct bq_ctx *ctx, const char *name, struct bq_device *dev);
int bq_device_unprobed_devt(struct bq_ctx *ctx, dev_t devt, struct bq_device *dev);
int bq_device_load_unprobed(struct bq_ctx *ctx, const char *name, struct bq_device *dev);
int bq_device_name_devt(struct bq_ctx *ctx, dev_t devt, char *name, size_t len);

/* identity.c: names blkqual composes inside a user's tree */
int bq_openat_beneath(int dirfd, const char *path, int flags, mode_t mode);

/* output.c: a new file beside a run's targets, never one that exists */
int bq_guard_create_output(int dirfd, const char *name);

/* loopstack.c: loop devices and their backing stores, by number */
struct bq_loop {
	char name[32];
	dev_t devt;
	bool known;			/* backing numbers below are valid */
	dev_t back_dev;			/* backing file: its filesystem ... */
	ino_t back_ino;			/* ... and inode */
	dev_t back_rdev;		/* backing block device, else 0 */
	uint64_t offset;
	char backing_name[PATH_MAX];	/* as sysfs says it, for messages */
};

struct bq_loops {
	struct bq_loop *v;
	size_t nr;
};

int bq_loops_read(struct bq_ctx *ctx, struct bq_loops *loops);
bool bq_loop_backs(const struct bq_loop *l, const struct stat *st);
bool bq_loop_same_backing(const struct bq_loop *a, const struct bq_loop *b);
void bq_loops_release(struct bq_loops *loops);

/* target.c: what O_DIRECT needs of a file, as its filesystem says */
int bq_fs_dio_align(int fd, const char *path, uint32_t *align);

/**
 * bq_task_cpu() - user and system CPU time of a thread of this process
 * @tid: its kernel thread id
 * @usr_ns: set to its user time
 * @sys_ns: set to its system time
 *
 * The kernel counts in clock ticks (10 ms at USER_HZ 100).
 *
 * Return: 0, -ESRCH when there is no such thread, -EINVAL on an
 * unreadable stat line.
 */
int bq_task_cpu(int tid, uint64_t *usr_ns, uint64_t *sys_ns);

/**
 * struct bq_thread_cpu - a thread's CPU time and context switches so far
 * @usr_ns: user time
 * @sys_ns: system time
 * @vol_cs: voluntary context switches
 * @invol_cs: involuntary ones
 */
struct bq_thread_cpu {
	uint64_t usr_ns, sys_ns, vol_cs, invol_cs;
};

void bq_thread_cpu(struct bq_thread_cpu *c);

/* host.c: CPU and node lists, shared with placement.c */
#define BQ_MAX_CPUS 8192
int bq_read_list(struct bq_ctx *ctx, int *ids, int max, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* mounts.c: mount table and swap list */
/* One mount: strings of their own size (at 8 KiB each, 21 mounts were 170 KiB a read). */
struct bq_mount {
	dev_t devt;
	char *source;
	char *target;
	char fstype[32];
};

struct bq_mounts {
	struct bq_mount *m;
	size_t nr;
	struct bq_strv swaps;
};

int bq_mounts_read(struct bq_ctx *ctx, struct bq_mounts *mt);
void bq_mounts_release(struct bq_mounts *mt);
bool bq_swap_matches(struct bq_ctx *ctx, const struct bq_mounts *mt, const char *name,
		     dev_t devt);

/* blockdev_kind.c: kind-specific facts */
void bq_fill_kind(struct bq_ctx *ctx, const char *sysdir, struct bq_device *dev);

/* blockdev.c */
int bq_device_load_mt(struct bq_ctx *ctx, const char *name, const struct bq_mounts *mt,
		      struct bq_device *dev);

/* placement.c: a CPU for each of a run's threads, near its device */

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

/* diskstats.c: what a device's counters moved over a run */

/**
 * bq_diskstats_delta() - @after minus @before, field by field
 * @before: earlier sample
 * @after: later sample
 * @delta: receives the difference (in_flight is @after's)
 */
void bq_diskstats_delta(const struct bq_diskstats *before, const struct bq_diskstats *after,
			struct bq_diskstats *delta);

/* io_errors.c: failed I/Os, counted by kind */

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

/* histogram.c: reuse after the ramp, and the per-I/O path */
void bq_hist_reset(struct bq_hist *h);

/**
 * bq_hist_add_n() - record one value @n times (the per-I/O path: no
 * branches taken but the rare min/max updates, no allocation)
 * @h: histogram
 * @ns: latency
 * @n: how many I/Os had it
 */
static inline void bq_hist_add_n(struct bq_hist *h, uint64_t ns, uint32_t n)
{
	double d = (double)ns;

	h->buckets[bq_hist_index(ns)] += n;
	h->count += n;
	h->sum += d * n;
	h->sumsq += d * d * n;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

/**
 * bq_hist_add() - record one value
 * @h: histogram
 * @ns: latency
 */
static inline void bq_hist_add(struct bq_hist *h, uint64_t ns)
{
	bq_hist_add_n(h, ns, 1);
}

/* offsets.c: where each I/O of a thread goes */

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

/* engines/uring_cmd.c: NVMe passthrough commands (ioengine=io_uring_cmd) */

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

/* NVM command set opcodes blkqual issues (io_uring_cmd, write_mode=, trims) */
#define BQ_NVME_OP_WRITE 0x01
#define BQ_NVME_OP_READ 0x02
#define BQ_NVME_OP_WRITE_UNCOR 0x04
#define BQ_NVME_OP_WRITE_ZEROES 0x08
#define BQ_NVME_OP_DSM 0x09
#define BQ_NVME_OP_VERIFY 0x0c
/* Zoned Namespace command set: Zone Append (write_mode=zone_append) */
#define BQ_NVME_OP_ZONE_APPEND 0x7d
/* DSM attribute (cdw11): deallocate the ranges; Write Zeroes' DEAC (cdw12) */
#define BQ_NVME_DSM_AD (1u << 2)
#define BQ_NVME_WZ_DEAC (1u << 25)
/* A DSM command takes at most 256 ranges; fio's num_range has the same cap. */
#define BQ_NVME_MAX_DSM_RANGES 256

/**
 * bq_nvme_io_cmd() - build an NVMe I/O command on an LBA range
 * @cmd: the command, as for bq_nvme_rw_cmd()
 * @opcode: BQ_NVME_OP_READ, _WRITE, _WRITE_UNCOR, _WRITE_ZEROES, _VERIFY or
 *          _ZONE_APPEND (then @offset is the zone's start)
 * @nsid: namespace ID
 * @offset: byte offset in the namespace, a multiple of @lba_size
 * @len: bytes, a non-zero multiple of @lba_size, at most
 *       BQ_NVME_MAX_BLOCKS blocks
 * @lba_size: bytes per block in the data buffer: the LBA data size (a power
 *            of two), or with an extended LBA the data and its metadata
 * @buf: the data of a Read or Write; the other commands move none, and
 *       get no address and a zero length
 *
 * Return: 0; -EINVAL when the numbers make no command (then @cmd is not
 * touched); -EOPNOTSUPP when built without struct nvme_uring_cmd.
 */
int bq_nvme_io_cmd(struct nvme_uring_cmd *cmd, uint8_t opcode, uint32_t nsid, uint64_t offset,
		   uint32_t len, uint32_t lba_size, void *buf);

/**
 * struct bq_nvme_dsm_range - one range of a Dataset Management command
 * @cattr: context attributes (0)
 * @nlb: number of blocks, 1-based (unlike a Read's)
 * @slba: starting LBA
 *
 * Little-endian on the wire; blkqual runs on little-endian hosts only.
 */
struct bq_nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

/**
 * bq_nvme_dsm_range() - fill one DSM range from a byte range
 * @r: the range
 * @offset: byte offset, a multiple of @lba_size
 * @len: bytes, a non-zero multiple of @lba_size
 * @lba_size: bytes per block as the I/O counts them: the LBA data size, or
 *            with an extended LBA the data and its metadata
 *
 * Return: 0 or -EINVAL.
 */
int bq_nvme_dsm_range(struct bq_nvme_dsm_range *r, uint64_t offset, uint64_t len,
		      uint32_t lba_size);

/* units.c: the kb_base of the job option being set on this thread (0: none) */
unsigned int bq_units_job_kb_base(unsigned int kb_base);

#endif /* BLKQUAL_INTERNAL_H */
