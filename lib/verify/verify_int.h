/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify_int.h - private: the checksums, building and judging a verified
 * block, and adding up what was found (the library's and the tests');
 * the verify state (a file, or anonymous memory) and the per-job and
 * per-thread verify data the run engine carries
 */
#ifndef BLKQUAL_VERIFY_INT_H
#define BLKQUAL_VERIFY_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_verify.h"
#include "internal.h"

/* ---- checksums --------------------------------------------------------- */

/**
 * bq_crc32c() - CRC-32C (Castagnoli), as iSCSI, ext4 and NVMe use it
 * @crc: 0 to start, or the result of the previous call to continue
 * @buf: data
 * @len: bytes
 *
 * The SSE4.2 crc32 instruction where the CPU has it, else a table.
 * bq_crc32c(0, "123456789", 9) is 0xe3069283.
 *
 * Return: the CRC.
 */
uint32_t bq_crc32c(uint32_t crc, const void *buf, size_t len);

/**
 * bq_crc32c_sw() - bq_crc32c() without the instruction, for comparing
 * @crc: as for bq_crc32c()
 * @buf: data
 * @len: bytes
 *
 * Return: the CRC.
 */
uint32_t bq_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/**
 * bq_crc32c_hw() - whether bq_crc32c() uses the CPU's crc32 instruction
 *
 * Return: true on an x86-64 CPU with SSE4.2.
 */
bool bq_crc32c_hw(void);

/**
 * bq_xxh64() - XXH64, as its specification (xxhash_spec.md) defines it
 * @buf: data
 * @len: bytes
 * @seed: seed
 *
 * bq_xxh64("", 0, 0) is 0xef46db3751d8e999.
 *
 * Return: the hash.
 */
uint64_t bq_xxh64(const void *buf, size_t len, uint64_t seed);

/**
 * bq_crc7() - fio's crc7: x^7 + x^3 + 1, MSB first, as MMC and SD use it
 * @crc: 0 to start, or the previous result to continue
 * @buf: data
 * @len: bytes
 *
 * bq_crc7(0, "123456789", 9) is 0x75 (CRC-7/MMC).
 *
 * Return: the CRC, 7 bits.
 */
uint8_t bq_crc7(uint8_t crc, const void *buf, size_t len);

/**
 * bq_crc16() - fio's crc16: 0x8005 reflected, from 0 (CRC-16/ARC)
 * @crc: 0 to start, or the previous result to continue
 * @buf: data
 * @len: bytes
 *
 * bq_crc16(0, "123456789", 9) is 0xbb3d.
 *
 * Return: the CRC.
 */
uint16_t bq_crc16(uint16_t crc, const void *buf, size_t len);

/**
 * bq_crc32() - fio's crc32: 0x04c11db7 MSB first, from 0, no inversion
 * @crc: 0 to start, or the previous result to continue
 * @buf: data
 * @len: bytes
 *
 * Inverted, it is CRC-32/CKSUM: ~bq_crc32(0, "123456789", 9) is
 * 0x765e7680; continued over the length's bytes first, it is what
 * cksum(1) prints.
 *
 * Return: the CRC.
 */
uint32_t bq_crc32(uint32_t crc, const void *buf, size_t len);

/**
 * bq_crc64() - fio's crc64: Jones' polynomial reflected, from 0
 * @crc: 0 to start, or the previous result to continue
 * @buf: data
 * @len: bytes
 *
 * bq_crc64(0, "123456789", 9) is 0xe9c6d914c4b8d9ca (CRC-64/REDIS).
 *
 * Return: the CRC.
 */
uint64_t bq_crc64(uint64_t crc, const void *buf, size_t len);

#define BQ_DIGEST_MAX 64		/* sha512, sha3-512 */

/**
 * bq_digest_method() - whether a method is a libcrypto digest
 * @m: the method
 *
 * Return: true for md5, sha1, sha2 and sha3.
 */
bool bq_digest_method(enum bq_verify_method m);

/**
 * bq_digest_len() - bytes of a method's digest
 * @m: the method
 *
 * Return: the length, or 0 when @m is no digest or libcrypto lacks it.
 */
uint32_t bq_digest_len(enum bq_verify_method m);

/**
 * bq_digest() - a digest over two pieces, one after the other
 * @m: the method (a digest)
 * @a: first piece
 * @alen: its bytes
 * @b: second piece
 * @blen: its bytes (0: none)
 * @out: receives bq_digest_len(@m) bytes
 *
 * Return: 0, -EOPNOTSUPP (libcrypto lacks it), -ENOMEM or -EIO.
 */
int bq_digest(enum bq_verify_method m, const void *a, size_t alen, const void *b, size_t blen,
	      uint8_t *out);

/* ---- the block --------------------------------------------------------- */

#define BQ_VERIFY_SECTOR 512		/* smallest verify block; unit of torn-write analysis */
#define BQ_VERIFY_MAX_PATTERN 256

/**
 * struct bq_vparams - what every block of a job shares
 * @method: checksum or pattern
 * @block_size: bytes per verified block, a multiple of BQ_VERIFY_SECTOR
 * @hdr_len: bytes before the payload: the header, and a digest's room
 *           (its length rounded up to 8) after it
 * @digest_len: bytes of the digest at byte BQ_VHDR_SIZE, 0 for the others
 * @pattern: the pattern method's bytes, @pattern_len of them
 * @tmpl: @pattern repeated over a whole block (from its first byte)
 */
struct bq_vparams {
	enum bq_verify_method method;
	uint32_t block_size;
	uint32_t hdr_len;
	uint32_t digest_len;
	uint8_t pattern[BQ_VERIFY_MAX_PATTERN];
	uint32_t pattern_len;
	uint8_t *tmpl;
};

/**
 * bq_vhdr_encode() - write a header's 64 bytes
 * @buf: the block (at least BQ_VHDR_SIZE bytes)
 * @h: the header; its checksum is written as given
 */
void bq_vhdr_encode(void *buf, const struct bq_vhdr *h);

/**
 * bq_vhdr_decode() - read a header's 64 bytes
 * @buf: the block
 * @h: filled in, whatever the bytes are
 *
 * Return: true when magic, version and header size are blkqual's.
 */
bool bq_vhdr_decode(const void *buf, struct bq_vhdr *h);

/**
 * bq_vparams_init() - set up block parameters
 * @p: filled in; release with bq_vparams_free()
 * @method: the method (not BQ_VERIFY_NONE)
 * @block_size: bytes, a multiple of BQ_VERIFY_SECTOR
 * @pattern: for BQ_VERIFY_PATTERN, or NULL for 0xdeadbeef
 * @pattern_len: bytes of @pattern
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (libcrypto lacks the digest) or -ENOMEM.
 */
int bq_vparams_init(struct bq_vparams *p, enum bq_verify_method method, uint32_t block_size,
		    const uint8_t *pattern, uint32_t pattern_len);

/**
 * bq_vparams_free() - release what bq_vparams_init() allocated
 * @p: the parameters
 */
void bq_vparams_free(struct bq_vparams *p);

/**
 * bq_verify_fill() - build one block: payload, header, checksum
 * @buf: @p->block_size bytes, 8-byte aligned
 * @p: parameters
 * @offset: the block's byte offset in the target
 * @gen: its generation
 * @seed: payload seed
 * @timestamp_ns: for the header
 * @thread: for the header
 *
 * The payload is a function of (@seed, @offset, @gen) only, so a reader
 * can rebuild any generation's image to tell a torn write from garbage.
 */
void bq_verify_fill(void *buf, const struct bq_vparams *p, uint64_t offset, uint64_t gen,
		    uint64_t seed, uint64_t timestamp_ns, uint32_t thread);

/**
 * bq_verify_sum() - the checksum a block's header should hold
 * @buf: the block, @len bytes
 * @len: its length
 * @method: how
 *
 * For a digest, its first 8 bytes (little-endian); bq_verify_digest()
 * gives all of it.
 *
 * Return: the checksum (0 for BQ_VERIFY_NONE, BQ_VERIFY_NULL, or a
 * digest that cannot be computed).
 */
uint64_t bq_verify_sum(const void *buf, uint32_t len, enum bq_verify_method method);

/**
 * bq_verify_digest() - the digest a block of a digest method should hold
 * @buf: the block, @len bytes
 * @len: its length
 * @method: a digest method
 * @out: receives bq_digest_len(@method) bytes
 *
 * Covers bytes 8..63 and the payload after the digest's room, so the
 * stored digest (and the header's copy of it) is outside what it covers.
 *
 * Return: 0 or -errno.
 */
int bq_verify_digest(const void *buf, uint32_t len, enum bq_verify_method method,
		     uint8_t *out);

/**
 * bq_vmethod_hdr_len() - bytes before a method's payload
 * @method: the method
 *
 * Return: BQ_VHDR_SIZE, plus a digest's length rounded up to 8.
 */
uint32_t bq_vmethod_hdr_len(enum bq_verify_method method);

/**
 * bq_verify_parse_pattern() - fio's verify_pattern syntax
 * @s: "0xdeadbeef", "\"text\"", a decimal number, or several joined
 *     ("0xff\"abc\"12")
 * @out: receives the bytes (hex digits in the order written; a decimal
 *       number as its little-endian bytes, at least one)
 * @max: room in @out
 * @len: receives the number of bytes
 *
 * Return: 0, -EINVAL (not a pattern), -E2BIG (longer than @max) or
 * -EOPNOTSUPP (fio's %o and 'file' forms).
 */
int bq_verify_parse_pattern(const char *s, uint8_t *out, size_t max, size_t *len);

int bq_verify_owns(int fd, uint64_t off, uint32_t len, struct bq_vhdr *h);

/* ---- judging a block read back ----------------------------------------- */

/* Set in bq_verify_block()'s @flags. */
#define BQ_VFLAG_IN_FLIGHT 1u	/* accepted the older of two generations, or no data */
#define BQ_VFLAG_AHEAD 2u	/* intact, newer than the state recorded */

/**
 * bq_verify_block() - judge one block read back
 * @buf: the block as read, @p->block_size bytes
 * @p: parameters
 * @e: what it should hold
 * @bad: filled in when the block is not OK (may be NULL)
 * @flags: receives BQ_VFLAG_* (may be NULL)
 *
 * Intact means the magic, the block length and method, and the checksum
 * (the pattern byte for byte) all hold.  An intact block at the wrong
 * offset is misdirected; with an older generation, or another seed than
 * the state's, stale.  A block whose checksum fails is torn when each of
 * its sectors holds one of two generations' data, else corrupted.  No
 * header and none of our data is never written: without a state, any
 * block without a header; with one, a block holding one repeated byte
 * (zeros after a discard or on a fresh device).
 *
 * Return: the class.
 */
enum bq_verify_class bq_verify_block(const void *buf, const struct bq_vparams *p,
				     const struct bq_vexpect *e, struct bq_vbad *bad,
				     unsigned int *flags);

/* ---- results ----------------------------------------------------------- */

/**
 * bq_verify_report_add() - count one judged block
 * @r: the report
 * @cls: its class
 * @bad: the details when not OK (may be NULL for OK)
 * @flags: BQ_VFLAG_* from bq_verify_block()
 *
 * Keeps the BQ_VERIFY_MAX_BAD bad blocks with the lowest offsets.
 */
void bq_verify_report_add(struct bq_verify_report *r, enum bq_verify_class cls,
			  const struct bq_vbad *bad, unsigned int flags);

/**
 * bq_verify_report_merge() - add @src's counts and bad blocks to @dst
 * @dst: the sum
 * @src: one part (its phase figures are not merged)
 */
void bq_verify_report_merge(struct bq_verify_report *dst, const struct bq_verify_report *src);

/**
 * bq_verify_report_add_run() - another run of the same job (run --repeat)
 * @dst: the sum so far, its phase histograms initialised
 * @src: the repetition
 *
 * Counts, bad blocks and the verify phase's figures and runtime add up.
 */
void bq_verify_report_add_run(struct bq_verify_report *dst, const struct bq_verify_report *src);

/**
 * bq_verify_report_free() - free a report's histograms
 * @r: the report (not itself freed)
 */
void bq_verify_report_free(struct bq_verify_report *r);

/* ---- the state file ---------------------------------------------------- */

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

/* One write a thread completed, for verify_backlog. */
struct bq_vio {
	uint64_t offset;
	uint32_t len;
	uint32_t seq;			/* verify passes: its order among the pass's writes */
};

/* A FIFO of them: [head, n) of @io, grown as needed. */
struct bq_vhist {
	struct bq_vio *io;
	size_t head;
	size_t n;
	size_t cap;
};

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
	struct bq_vhist hist;		/* verify_backlog: writes done, not yet read back */
	uint32_t batch;			/* verify_backlog: reads left in this batch */
	uint8_t last_dir;		/* direction of the last I/O issued */
	struct bq_thread_result *saved_res;
	uint64_t saved_depth_sum;
	uint64_t saved_depth_samples;
	struct bq_thread_cpu cpu_mark;	/* at the start of the verify phase */
	/* trimming verified blocks (issue 19; verify_trim.c) */
	struct bq_vhist trims;		/* written blocks drawn for a trim, not trimmed yet */
	uint64_t logged;		/* fio's count of logged writes (less the dropped) */
	uint32_t trim_batch;		/* trims left in this turn */
	uint64_t trim_rng;		/* the trim_percentage draws */
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
	bool check_seed;		/* verify_header_seed */
	bool check_gen;			/* verify_write_sequence */
	uint32_t backlog;		/* verify_backlog: writes between read-backs; 0: none */
	uint32_t backlog_batch;		/* reads per read-back */
	uint32_t swap_at;		/* verify_offset: the header is swapped to here; 0: not */
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
	/* verify_dump (issue 19; verify_dump.c): bad blocks tried, and dumped */
	unsigned int dumps;
	unsigned int dumped;
	/* verify passes (issue 19): threads still in them, and the barrier's round */
	int members;
	unsigned int round;
	bool io_done_called;
	/* trimming verified blocks (issue 19; verify_trim.c): one bit per block */
	uint64_t *trimmed;
	bool trims;			/* trim_percentage and trim_backlog: the job trims */
	bool zero_trims;		/* trim_verify_zero: trimmed blocks are read, as zeros */
};

int bq_vhist_push(struct bq_vhist *h, uint64_t offset, uint32_t len);
bool bq_vhist_pop(struct bq_vhist *h, struct bq_vio *io);
size_t bq_vhist_len(const struct bq_vhist *h);
void bq_vhist_free(struct bq_vhist *h);
void bq_vhist_sort_latest(struct bq_vhist *h);
int bq_vhist_push_latest(struct bq_vhist *h, uint64_t offset, uint32_t len);
bool bq_vbacklog_next(struct bq_worker *w, struct bq_vworker *v, struct bq_slot *s,
		      uint64_t now);

int bq_verify_job_setup(struct bq_ctx *ctx, struct bq_job_result *jr, int fd, uint64_t base,
			uint64_t span, const char *state_path, struct bq_vjob **out,
			struct bq_parse_error *err);
int bq_verify_worker_init(struct bq_vjob *vj, struct bq_worker *w, int index);
void bq_verify_job_end(struct bq_vjob *vj, struct bq_job_result *jr, bool ran);

/* verify_trim.c: trim_percentage, trim_backlog, trim_verify_zero */
int bq_vtrim_setup(struct bq_vjob *vj, const struct bq_job *j);
void bq_vtrim_write_issued(struct bq_vworker *v, uint64_t off, uint32_t len);
void bq_vtrim_write_done(struct bq_worker *w, struct bq_vworker *v, uint64_t off, uint32_t len);
bool bq_vtrim_next(struct bq_worker *w, struct bq_vworker *v, uint64_t now);
bool bq_vtrim_is_trimmed(const struct bq_vjob *vj, uint64_t idx);
bool bq_vtrim_check(struct bq_worker *w, struct bq_vworker *v, const uint8_t *buf, uint64_t off,
		    uint64_t idx);

/* verify_dump.c: verify_dump=1's two files for a bad block */
struct bq_worker;
void bq_verify_dump(struct bq_worker *w, struct bq_vjob *vj, int file, const uint8_t *blk,
		    const struct bq_vparams *p, const struct bq_vbad *bad);

#endif /* BLKQUAL_VERIFY_INT_H */
