/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_verify.h - data integrity: the header every verified block
 * carries, what a block read back is judged to be, what a run's checks
 * found, the state file that records what was written, and checking a
 * device against it
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

/* ---- the block header ---------------------------------------------------- */

enum bq_verify_method {
	BQ_VERIFY_NONE,
	BQ_VERIFY_CRC32C,
	BQ_VERIFY_XXHASH,
	BQ_VERIFY_PATTERN,
	/* fio's other methods; the values are stored in state files: append only. */
	BQ_VERIFY_MD5,
	BQ_VERIFY_SHA1,
	BQ_VERIFY_SHA224,
	BQ_VERIFY_SHA256,
	BQ_VERIFY_SHA384,
	BQ_VERIFY_SHA512,
	BQ_VERIFY_SHA3_224,
	BQ_VERIFY_SHA3_256,
	BQ_VERIFY_SHA3_384,
	BQ_VERIFY_SHA3_512,
	BQ_VERIFY_CRC64,
	BQ_VERIFY_CRC32,
	BQ_VERIFY_CRC16,
	BQ_VERIFY_CRC7,
	BQ_VERIFY_META,
	BQ_VERIFY_NULL,
	BQ_VERIFY_NR,
};

#define BQ_VHDR_SIZE 64
#define BQ_VHDR_MAGIC 0x46565142u	/* "BQVF" in the little-endian bytes */
#define BQ_VHDR_VERSION 1
#define BQ_VERIFY_MAX_BAD 32

/**
 * struct bq_vhdr - the first 64 bytes of every verified block, decoded
 * @checksum: over bytes 8..length of the block (a CRC zero-extended,
 *            XXH64, or a digest's first 8 bytes read little-endian; a
 *            digest is stored whole at byte 64 and not covered by itself);
 *            for the pattern and meta methods, crc32c over bytes 8..63
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
 * bq_verify_method_name() - "none", "crc32c", "xxhash", "pattern", "md5",
 * "sha256", "crc64", ... as fio spells them in verify=
 * @m: the method
 *
 * Return: a constant string ("?" for an unknown value).
 */
const char *bq_verify_method_name(enum bq_verify_method m);

/**
 * bq_verify_method_parse() - fio's verify= value to a method
 * @name: "crc32c", "crc32c-intel", "md5", "sha3-256", "meta", "null", ...
 *        ("0" is BQ_VERIFY_NONE)
 *
 * Return: the method, or -EINVAL for a name fio does not have.
 */
int bq_verify_method_parse(const char *name);

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
	/* verify_dump (issue 19): bad blocks written to files, in this directory */
	unsigned int dumped;
	char dump_dir[1024];
};

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

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_VERIFY_H */
