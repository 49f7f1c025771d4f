/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify_int.h - private: the verify state (a file, or anonymous memory)
 * and the per-job and per-thread verify data the run engine carries
 */
#ifndef BLKQUAL_VERIFY_INT_H
#define BLKQUAL_VERIFY_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "blkqual_verify.h"

/*
 * One 64-bit entry per block: the generation last issued (47 bits), a flag
 * for "a write was in flight when a writer crashed, the block holds this
 * generation or the one before", and (top 16 bits) how many writes of the
 * block are in flight now.  Writes issued while others of the same block
 * are in flight reuse their generation, so whichever lands last, the
 * block holds that generation: overlapping writes never make a false
 * "stale".
 */
#define BQ_VGEN_MASK ((1ULL << 47) - 1)
#define BQ_VGEN_AMBIG (1ULL << 47)
#define BQ_VGEN_INFLIGHT_SHIFT 48
#define BQ_VGEN_ONE_INFLIGHT (1ULL << BQ_VGEN_INFLIGHT_SHIFT)
#define BQ_VERIFY_MAX_INFLIGHT 65535u

static inline bool bq_vgen_ambiguous(uint64_t e)
{
	return (e >> BQ_VGEN_INFLIGHT_SHIFT) || (e & BQ_VGEN_AMBIG);
}

#define BQ_VSTATE_MAGIC "BQVSTAT1"
#define BQ_VSTATE_VERSION 1
#define BQ_VSTATE_HDR 4096
#define BQ_VSTATE_CLEAN 1u

/*
 * The state file's first 4096 bytes (little-endian, as the host writes
 * them on the platforms blkqual runs on); the generation array follows.
 */
struct bq_vstate_disk {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint32_t method;
	uint32_t block_size;
	uint64_t seed;
	uint64_t region_offset;
	uint64_t nblocks;
	uint64_t target_size;
	uint32_t lbs;
	uint32_t flags;
	uint64_t dev;			/* st_rdev of a block device, st_dev of a file */
	uint64_t ino;			/* a file's inode, 0 for a device */
	uint64_t created_unix_ns;
	uint64_t updated_unix_ns;
	uint64_t runs;
	uint32_t pattern_len;
	uint8_t pattern[BQ_VERIFY_MAX_PATTERN];
	char target[1024];
	char devname[64];
	char identity[256];
	char model[64];
	uint32_t header_crc;		/* crc32c of every byte before it */
};

/**
 * struct bq_vstate - a mapped state
 * @hdr: the header (in the mapping)
 * @gen: the entries, @nblocks of them
 * @map_len: bytes mapped
 * @fd: the file, or -1 for anonymous memory
 * @writer: opened by a job that writes
 */
struct bq_vstate {
	struct bq_vstate_disk *hdr;
	uint64_t *gen;
	uint64_t nblocks;
	size_t map_len;
	int fd;
	bool writer;
};

/* Who the target is, for the state header and for matching it later. */
struct bq_vident {
	char target[1024];
	char devname[64];
	char identity[256];
	char model[64];
	uint64_t size;
	uint32_t lbs;
	uint64_t dev;
	uint64_t ino;
};

int bq_vident_read(struct bq_ctx *ctx, const char *path, int fd, struct bq_vident *id);
int bq_vstate_create(const char *path, const struct bq_vstate_disk *tmpl,
		     struct bq_vstate *st);
int bq_vstate_anon(const struct bq_vstate_disk *tmpl, struct bq_vstate *st);
int bq_vstate_open(const char *path, bool writer, struct bq_vstate *st, char *why,
		   size_t len);
void bq_vstate_close(struct bq_vstate *st);
void bq_vstate_fill_info(const struct bq_vstate *st, const char *path,
			 struct bq_vstate_info *info);
uint64_t bq_verify_new_seed(void);
void bq_vstate_seal(struct bq_vstate_disk *hdr);

/* ---- inside a run ------------------------------------------------------------ */

struct bq_worker;
struct bq_slot;
struct bq_job_result;

/**
 * struct bq_vthread - what one thread of a job found
 * @rep: counts and bad blocks (its phase fields unused)
 * @phase: the verify phase's I/O figures
 * @phase_start_ns: when the thread began reading back
 * @phase_end_ns: when it finished
 * @phase_ran: it read back
 */
struct bq_vthread {
	struct bq_verify_report rep;
	struct bq_thread_result phase;
	uint64_t phase_start_ns;
	uint64_t phase_end_ns;
	bool phase_ran;
};

struct bq_vjob;

/**
 * struct bq_vworker - a thread's verify state, hung off struct bq_worker
 */
struct bq_vworker {
	struct bq_vjob *job;
	struct bq_vthread *t;
	uint32_t thread;
	uint64_t *snap;			/* per slot, per block: oldest generation acceptable */
	uint32_t per_slot;
	uint64_t wall_offset;		/* CLOCK_REALTIME minus CLOCK_MONOTONIC */
	bool phase;
	uint64_t cursor;		/* verify phase: next block, and the end of this thread's share */
	uint64_t end;
	uint32_t max_run;
	struct bq_thread_result *saved_res;
	uint64_t saved_depth_sum;
	uint64_t saved_depth_samples;
	struct bq_thread_cpu cpu_mark;	/* at the start of the verify phase */
};

/**
 * struct bq_vjob - a job's verification
 * @p: block parameters
 * @st: the state; @st.gen is NULL for a read job without one (headers
 *      and checksums are checked on their own)
 * @state_file: @st is a file the user named
 * @created: this run made it (removed again if the run never started)
 * @writes: the job writes, so a verify phase may follow
 * @do_phase: do_verify: read back what was written
 * @seed: payload seed
 * @base: byte offset of block 0
 */
struct bq_vjob {
	struct bq_vparams p;
	struct bq_vstate st;
	bool state_file;
	bool created;
	bool writes;
	bool do_phase;
	bool verify_only;
	bool fatal;
	uint64_t seed;
	uint64_t base;
	int nr_threads;
	struct bq_vthread *threads;
	struct bq_vworker *workers;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int arrived;
	char state_path[1024];
	void (*io_done)(void *a, void *b);	/* the job's I/O is over: its disk stats */
	void *io_done_a;
	void *io_done_b;
};

int bq_verify_job_setup(struct bq_ctx *ctx, struct bq_job_result *jr, int fd, uint64_t base,
			uint64_t span, const char *state_path, struct bq_vjob **out,
			struct bq_parse_error *err);
int bq_verify_worker_init(struct bq_vjob *vj, struct bq_worker *w, int index);
void bq_verify_job_end(struct bq_vjob *vj, struct bq_job_result *jr, bool ran);

#endif /* BLKQUAL_VERIFY_INT_H */
