/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_verify.h - data integrity: the checksums, the header every
 * verified block carries, how a block read back is judged, the state file
 * that records what was written, and checking a device against it
 *
 * Like the rest of libblkqual: 0 (or a count) on success, -errno on
 * failure, nothing printed.  Documentation/verify.rst describes the
 * formats.
 */
#ifndef BLKQUAL_VERIFY_H
#define BLKQUAL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_io.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* ---- checksums ----------------------------------------------------------- */

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

/* ---- the block header ---------------------------------------------------- */

enum bq_verify_method {
	BQ_VERIFY_NONE,
	BQ_VERIFY_CRC32C,
	BQ_VERIFY_XXHASH,
	BQ_VERIFY_PATTERN,
};

#define BQ_VHDR_SIZE 64
#define BQ_VHDR_MAGIC 0x46565142u	/* "BQVF" in the little-endian bytes */
#define BQ_VHDR_VERSION 1
#define BQ_VERIFY_SECTOR 512		/* smallest verify block; unit of torn-write analysis */
#define BQ_VERIFY_MAX_PATTERN 256
#define BQ_VERIFY_MAX_BAD 32

/**
 * struct bq_vhdr - the first 64 bytes of every verified block, decoded
 * @checksum: over bytes 8..length of the block (crc32c zero-extended, or
 *            XXH64); for the pattern method, crc32c over bytes 8..63
 * @magic: BQ_VHDR_MAGIC
 * @version: BQ_VHDR_VERSION
 * @method: enum bq_verify_method
 * @header_size: BQ_VHDR_SIZE
 * @length: bytes of the block
 * @thread: index of the writing thread within its job
 * @offset: byte offset of the block in the target
 * @generation: how many times the block was written (1 first)
 * @seed: the payload's seed (one per state, or per run without one)
 * @timestamp_ns: wall clock of the write, Unix nanoseconds
 *
 * On disk: little-endian, in this order, 8 reserved zero bytes at 56.
 */
struct bq_vhdr {
	uint64_t checksum;
	uint32_t magic;
	uint8_t version;
	uint8_t method;
	uint16_t header_size;
	uint32_t length;
	uint32_t thread;
	uint64_t offset;
	uint64_t generation;
	uint64_t seed;
	uint64_t timestamp_ns;
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
 * struct bq_vparams - what every block of a job shares
 * @method: checksum or pattern
 * @block_size: bytes per verified block, a multiple of BQ_VERIFY_SECTOR
 * @pattern: the pattern method's bytes, @pattern_len of them
 * @tmpl: @pattern repeated over a whole block (from its first byte)
 */
struct bq_vparams {
	enum bq_verify_method method;
	uint32_t block_size;
	uint8_t pattern[BQ_VERIFY_MAX_PATTERN];
	uint32_t pattern_len;
	uint8_t *tmpl;
};

/**
 * bq_vparams_init() - set up block parameters
 * @p: filled in; release with bq_vparams_free()
 * @method: the method (not BQ_VERIFY_NONE)
 * @block_size: bytes, a multiple of BQ_VERIFY_SECTOR
 * @pattern: for BQ_VERIFY_PATTERN, or NULL for 0xdeadbeef
 * @pattern_len: bytes of @pattern
 *
 * Return: 0, -EINVAL or -ENOMEM.
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
 * Return: the checksum (0 for BQ_VERIFY_NONE).
 */
uint64_t bq_verify_sum(const void *buf, uint32_t len, enum bq_verify_method method);

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

/* ---- judging a block read back ------------------------------------------ */

enum bq_verify_class {
	BQ_VCLASS_OK,
	BQ_VCLASS_MISDIRECTED,		/* intact, but written for another offset */
	BQ_VCLASS_STALE,		/* intact, but an older generation or another seed */
	BQ_VCLASS_TORN,			/* sectors of two generations */
	BQ_VCLASS_CORRUPTED,		/* checksum fails, bytes that are nobody's */
	BQ_VCLASS_NEVER_WRITTEN,	/* no header and none of our data */
	BQ_VCLASS_READ_ERROR,		/* the read failed (blkqual verify) */
	BQ_VCLASS_NR,
};

/**
 * bq_verify_class_name() - "ok", "misdirected", "stale", "torn",
 * "corrupted", "never_written", "read_error"
 * @c: the class
 *
 * Return: a constant string.
 */
const char *bq_verify_class_name(enum bq_verify_class c);

/**
 * bq_verify_method_name() - "none", "crc32c", "xxhash", "pattern"
 * @m: the method
 *
 * Return: a constant string.
 */
const char *bq_verify_method_name(enum bq_verify_method m);

/**
 * struct bq_vexpect - what a block should hold
 * @offset: its byte offset
 * @seed: the seed, when @have_seed
 * @have_seed: a state says which; without one any seed is the writer's own
 * @have_gen: a state says which generations are acceptable
 * @gen_lo: oldest acceptable (a write was in flight); 0 accepts a block
 *          never written as well
 * @gen_hi: newest acceptable, what the state recorded last
 */
struct bq_vexpect {
	uint64_t offset;
	uint64_t seed;
	bool have_seed;
	bool have_gen;
	uint64_t gen_lo;
	uint64_t gen_hi;
};

/**
 * struct bq_vbad - one bad block, for the report
 * @offset: where it was read
 * @length: bytes
 * @cls: what is wrong
 * @expected: what it should have held
 * @found_header: the first bytes are a blkqual header (magic, version)
 * @found: the header as found (meaningful when @found_header)
 * @computed: the checksum of the bytes as found
 * @sectors: 512-byte sectors in the block
 * @sectors_new: of them, holding the newest acceptable generation's data
 * @sectors_old: holding an older generation's (or a never-written
 *               block's uniform) data
 * @first_diff: first byte that differs from the expected image, or -1
 * @err: the read's errno, for BQ_VCLASS_READ_ERROR
 */
struct bq_vbad {
	uint64_t offset;
	uint32_t length;
	enum bq_verify_class cls;
	struct bq_vexpect expected;
	bool found_header;
	struct bq_vhdr found;
	uint64_t computed;
	uint32_t sectors;
	uint32_t sectors_new;
	uint32_t sectors_old;
	int64_t first_diff;
	int err;
};

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

/**
 * bq_job_verify_block() - bytes per verified block of a job
 * @j: the job
 *
 * verify_interval when set, else the smallest block size the job writes
 * (reads, for a job that only reads).  A state file's block size takes
 * precedence when the job runs.
 *
 * Return: the size in bytes.
 */
uint32_t bq_job_verify_block(const struct bq_job *j);

/* ---- results ------------------------------------------------------------- */

/**
 * struct bq_verify_report - what a job's (or blkqual verify's) checks found
 * @method: the method
 * @block_size: bytes per verified block
 * @seed: payload seed of the blocks written (0 when only read)
 * @state_path: the state file, or empty
 * @blocks_checked: blocks read back and judged
 * @bytes_checked: their bytes
 * @not_checked: blocks read whose content nothing recorded (never written
 *               according to the state)
 * @in_flight_accepted: blocks accepted with the older of two generations
 *                      (a write was in flight) or with no data yet
 * @ahead: intact blocks newer than the state recorded (a state file not
 *         flushed before a power cut); not counted as bad
 * @count: blocks per class (count[BQ_VCLASS_OK] are the good ones)
 * @bad: blocks not OK, all classes together
 * @first_bad: the bad blocks with the lowest offsets, @nr_first_bad of them
 * @phase_ran: a verify phase read back what the job wrote
 * @phase_runtime_ns: how long it took
 * @phase: its reads (threads summed), errors included
 */
struct bq_verify_report {
	enum bq_verify_method method;
	uint32_t block_size;
	uint64_t seed;
	char state_path[1024];
	uint64_t blocks_checked;
	uint64_t bytes_checked;
	uint64_t not_checked;
	uint64_t in_flight_accepted;
	uint64_t ahead;
	uint64_t count[BQ_VCLASS_NR];
	uint64_t bad;
	struct bq_vbad first_bad[BQ_VERIFY_MAX_BAD];
	int nr_first_bad;
	bool phase_ran;
	uint64_t phase_runtime_ns;
	struct bq_thread_result phase;
};

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

/* ---- the state file, and checking a device against it ------------------- */

/**
 * struct bq_vstate_info - what a state file records
 * @path: the state file
 * @target: the target as named when it was written
 * @devname: its kernel name, or empty for a file
 * @identity: serial number, or a loop device's backing file, or empty
 * @model: device model, or empty
 * @target_size: bytes of the target
 * @lbs: its logical block size
 * @method: the method
 * @block_size: bytes per verified block
 * @seed: payload seed
 * @region_offset: byte offset of block 0
 * @nblocks: blocks in the region
 * @blocks_written: blocks with a generation recorded
 * @in_flight: blocks with a write in flight when the state was last closed
 *             (a crash), or left ambiguous by one
 * @clean: the last writer closed it (no crash since)
 * @runs: write runs that used it
 * @created_unix_ns: when it was made
 * @updated_unix_ns: when a writer last closed it
 */
struct bq_vstate_info {
	char path[1024];
	char target[1024];
	char devname[64];
	char identity[256];
	char model[64];
	uint64_t target_size;
	uint32_t lbs;
	enum bq_verify_method method;
	uint32_t block_size;
	uint64_t seed;
	uint64_t region_offset;
	uint64_t nblocks;
	uint64_t blocks_written;
	uint64_t in_flight;
	bool clean;
	uint64_t runs;
	uint64_t created_unix_ns;
	uint64_t updated_unix_ns;
};

/**
 * struct bq_verify_opts - how blkqual verify checks
 * @state: the state file
 * @target: the device or file to read, or NULL for the one recorded
 * @stop: set non-zero to stop early (what was checked is reported)
 * @progress: called now and then with blocks done and to do, or NULL
 * @arg: passed to @progress
 */
struct bq_verify_opts {
	const char *state;
	const char *target;
	volatile int *stop;
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *arg;
};

/**
 * bq_verify_state_check() - read back every block a state says was written
 * @ctx: context (live)
 * @o: options
 * @info: receives what the state records, and the target actually read in
 *        @info->target
 * @rep: receives the findings
 * @err: why the check could not be done
 *
 * Opens the target read-only (O_DIRECT where it can), refuses a target
 * that is not the one recorded (size, or serial or backing file where
 * known), and reads the written blocks in order.  A block whose write was
 * in flight at a crash may hold either generation.
 *
 * Return: 0 when the blocks were checked (@rep->bad says how it went; a
 * failed read is a bad block of class BQ_VCLASS_READ_ERROR); -ENOENT,
 * -EINVAL (no state, a damaged one, the wrong target) or another -errno
 * with @err saying why.
 */
int bq_verify_state_check(struct bq_ctx *ctx, const struct bq_verify_opts *o,
			  struct bq_vstate_info *info, struct bq_verify_report *rep,
			  struct bq_parse_error *err);

/**
 * bq_verify_report_free() - free a report's histograms
 * @r: the report (not itself freed)
 */
void bq_verify_report_free(struct bq_verify_report *r);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_VERIFY_H */
