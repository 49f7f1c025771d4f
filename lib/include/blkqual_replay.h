/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_replay.h - dbench NBENCH loadfiles: parsed once, replayed by N
 * clients on a local directory, each in its own subtree
 *
 * A loadfile line is an SMB operation as a Windows client made it
 * ("NTCreateX \"\\clients\\client1\\~dmtmp\" 0x1 0x2 9937 NT_STATUS_OK"),
 * optionally led by a timestamp, always ended by the status the server
 * answered.  The replay makes the matching system calls and compares the
 * status each one really gets with that one.
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_REPLAY_H
#define BLKQUAL_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual_io.h"
#include "blkqual_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/*
 * Kinds of operation, one per row of dbench's table and in its order;
 * also the operation numbers given to bq_ops_run().
 */
enum bq_replay_kind {
	BQ_REPLAY_NTCREATEX,
	BQ_REPLAY_CLOSE,
	BQ_REPLAY_RENAME,
	BQ_REPLAY_UNLINK,
	BQ_REPLAY_DELTREE,
	BQ_REPLAY_RMDIR,
	BQ_REPLAY_MKDIR,
	BQ_REPLAY_QPATHINFO,
	BQ_REPLAY_QFILEINFO,
	BQ_REPLAY_QFSINFO,
	BQ_REPLAY_SFILEINFO,
	BQ_REPLAY_FIND,
	BQ_REPLAY_WRITEX,
	BQ_REPLAY_READX,
	BQ_REPLAY_LOCKX,
	BQ_REPLAY_UNLOCKX,
	BQ_REPLAY_FLUSH,
	BQ_REPLAY_NR_KINDS,
	/* dbench 4's "Sleep usec": waits, is not counted */
	BQ_REPLAY_SLEEP = BQ_REPLAY_NR_KINDS,
};

/* NTCreateX create_options and create_disposition (MS-SMB) */
#define BQ_NT_FILE_DIRECTORY_FILE	0x0001
#define BQ_NT_FILE_NON_DIRECTORY_FILE	0x0040
#define BQ_NT_FILE_SUPERSEDE		0
#define BQ_NT_FILE_OPEN			1
#define BQ_NT_FILE_CREATE		2
#define BQ_NT_FILE_OPEN_IF		3
#define BQ_NT_FILE_OVERWRITE		4
#define BQ_NT_FILE_OVERWRITE_IF		5

/* NT status codes the replay gives and compares (MS-ERREF) */
#define BQ_NT_STATUS_OK				0x00000000u
#define BQ_NT_STATUS_NO_MORE_FILES		0x80000006u
#define BQ_NT_STATUS_UNSUCCESSFUL		0xC0000001u
#define BQ_NT_STATUS_INVALID_HANDLE		0xC0000008u
#define BQ_NT_STATUS_INVALID_PARAMETER		0xC000000Du
#define BQ_NT_STATUS_NO_SUCH_FILE		0xC000000Fu
#define BQ_NT_STATUS_NO_MEMORY			0xC0000017u
#define BQ_NT_STATUS_ACCESS_DENIED		0xC0000022u
#define BQ_NT_STATUS_OBJECT_NAME_INVALID	0xC0000033u
#define BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND	0xC0000034u
#define BQ_NT_STATUS_OBJECT_NAME_COLLISION	0xC0000035u
#define BQ_NT_STATUS_OBJECT_PATH_NOT_FOUND	0xC000003Au
#define BQ_NT_STATUS_SHARING_VIOLATION		0xC0000043u
#define BQ_NT_STATUS_QUOTA_EXCEEDED		0xC0000044u
#define BQ_NT_STATUS_LOCK_NOT_GRANTED		0xC0000055u
#define BQ_NT_STATUS_RANGE_NOT_LOCKED		0xC000007Eu
#define BQ_NT_STATUS_DISK_FULL			0xC000007Fu
#define BQ_NT_STATUS_MEDIA_WRITE_PROTECTED	0xC00000A2u
#define BQ_NT_STATUS_FILE_IS_A_DIRECTORY	0xC00000BAu
#define BQ_NT_STATUS_NOT_SUPPORTED		0xC00000BBu
#define BQ_NT_STATUS_NOT_SAME_DEVICE		0xC00000D4u
#define BQ_NT_STATUS_DIRECTORY_NOT_EMPTY	0xC0000101u
#define BQ_NT_STATUS_NOT_A_DIRECTORY		0xC0000103u
#define BQ_NT_STATUS_NAME_TOO_LONG		0xC0000106u
#define BQ_NT_STATUS_TOO_MANY_OPENED_FILES	0xC000011Fu
#define BQ_NT_STATUS_IO_DEVICE_ERROR		0xC0000185u
#define BQ_NT_STATUS_TOO_MANY_LINKS		0xC0000265u

/* An expected status: what a loadfile line ends in. */
enum bq_replay_expect {
	BQ_REPLAY_EXPECT_CODE,		/* exactly this code */
	BQ_REPLAY_EXPECT_FAILURE,	/* "ERROR" or an NT_STATUS_ name not known here: any failure */
	BQ_REPLAY_EXPECT_ANY,		/* "*": not compared */
};

/**
 * struct bq_replay_status - one distinct status a loadfile names
 * @name: as written ("NT_STATUS_OK", "0xc0000034", "ERROR", "*")
 * @code: the NT status, for BQ_REPLAY_EXPECT_CODE
 * @expect: how it is compared
 */
struct bq_replay_status {
	char name[48];
	uint32_t code;
	enum bq_replay_expect expect;
};

/**
 * struct bq_replay_path - one distinct path a loadfile names
 * @name: relative to the run's directory, '/'-separated, no leading '/',
 *        "" for the directory itself; its client component still reads
 *        "client1"
 * @len: strlen(@name)
 * @client_at: offset of the "client1" component in @name, which each
 *             client replaces with its own name; -1 for a path all
 *             clients share (such as "clients")
 * @wildcard: its last component has a wildcard (* ? < > "), for FIND_FIRST
 */
struct bq_replay_path {
	char *name;
	uint32_t len;
	int32_t client_at;
	bool wildcard;
};

#define BQ_REPLAY_NONE UINT32_MAX

/**
 * struct bq_replay_op - one loadfile line, compact
 * @kind: enum bq_replay_kind
 * @status: index into struct bq_loadfile.statuses
 * @line: line number in the file
 * @handle: dense handle number (the fnum's index), or BQ_REPLAY_NONE
 * @path: index into struct bq_loadfile.paths, or BQ_REPLAY_NONE
 * @path2: the new name of a Rename, or BQ_REPLAY_NONE
 * @offset: ReadX, WriteX, LockX, UnlockX
 * @size: ReadX, WriteX, LockX, UnlockX; microseconds for Sleep
 * @a: NTCreateX create_options; the info level of the QUERY_ and SET_
 *     operations and FIND_FIRST; Unlink's attributes
 * @b: NTCreateX create_disposition; FIND_FIRST's maximum count
 * @c: the expected result: ReadX/WriteX byte count, FIND_FIRST entry count
 */
struct bq_replay_op {
	uint8_t kind;
	uint8_t pad;
	uint16_t status;
	uint32_t line;
	uint32_t handle;
	uint32_t path;
	uint32_t path2;
	uint32_t a;
	uint64_t offset;
	uint64_t size;
	uint32_t b;
	uint32_t c;
};

/**
 * struct bq_loadfile - a parsed loadfile, shared read-only by all clients
 * @name: the file name given to the parser
 * @ops: the operations in file order
 * @nr_ops: how many
 * @time_ns: per operation, the time since the start of the file at which
 *           to start it (the leading timestamp column), or NULL when the
 *           file has none
 * @paths: distinct paths
 * @nr_paths: how many
 * @statuses: distinct expected statuses
 * @nr_statuses: how many
 * @nr_handles: distinct fnums
 * @max_io: largest ReadX or WriteX size
 * @per_kind: operations per kind (Sleep included)
 */
struct bq_loadfile {
	char *name;
	struct bq_replay_op *ops;
	size_t nr_ops;
	uint64_t *time_ns;
	struct bq_replay_path *paths;
	uint32_t nr_paths;
	struct bq_replay_status *statuses;
	uint32_t nr_statuses;
	uint32_t nr_handles;
	uint64_t max_io;
	uint64_t per_kind[BQ_REPLAY_NR_KINDS + 1];
};

/**
 * bq_loadfile_parse() - read and parse a loadfile
 * @path: the file
 * @lf: filled in; free with bq_loadfile_free() (also after a failure)
 * @err: on -EINVAL, where ("file:line") and what is wrong
 *
 * Accepts dbench 4's lines (no timestamps) and the later ones led by a
 * timestamp; '#' starts a comment line; blank lines are skipped.
 *
 * Return: 0, -EINVAL for a bad line, -ENOMEM, or -errno from reading.
 */
int bq_loadfile_parse(const char *path, struct bq_loadfile *lf, struct bq_parse_error *err);

/**
 * bq_loadfile_free() - release a parsed loadfile
 * @lf: the loadfile (zeroed)
 */
void bq_loadfile_free(struct bq_loadfile *lf);

/**
 * bq_replay_kind_name() - dbench's name of a kind in its table
 * @kind: enum bq_replay_kind
 *
 * Return: "NTCreateX", "Qpathinfo", "Find", ...; "?" when out of range.
 */
const char *bq_replay_kind_name(int kind);

/**
 * bq_replay_op_name() - the loadfile's name of a kind
 * @kind: enum bq_replay_kind
 *
 * Return: "NTCreateX", "QUERY_PATH_INFORMATION", "FIND_FIRST", ...
 */
const char *bq_replay_op_name(int kind);

/**
 * bq_nt_status_name() - the name of an NT status code
 * @code: the status
 * @buf: room for a hex form of codes without a name here
 * @len: size of @buf
 *
 * Return: "NT_STATUS_OK", ... or @buf holding "0xc0000999".
 */
const char *bq_nt_status_name(uint32_t code, char *buf, size_t len);

/* ---- running ------------------------------------------------------------ */

/**
 * struct bq_replay_progress - one second of the run, as dbench prints it
 * @t_ns: since the start
 * @warmup: still warming up
 * @exec_ns: since the end of the warmup (0 while in it)
 * @lines: operations done per client so far (dbench's second column)
 * @mb_s: bytes read and written per second since the start of the phase,
 *        in 10^6 bytes
 * @max_lat_ns: the slowest operation in the second
 * @ops: operations in the second, every client
 * @mismatches: status mismatches in the second
 */
struct bq_replay_progress {
	uint64_t t_ns;
	bool warmup;
	uint64_t exec_ns;
	uint64_t lines;
	double mb_s;
	uint64_t max_lat_ns;
	uint64_t ops;
	uint64_t mismatches;
};

/**
 * struct bq_replay_opts - how to replay
 * @dir: directory to work in (each client under @dir/clients/clientN)
 * @clients: clients, one thread each (>= 1)
 * @time_ns: how long to measure after the warmup; 0 with @run_once
 * @warmup_ns: how long to run first without measuring
 * @run_once: go through the file once instead of looping for @time_ns
 * @sync_open: open files with O_SYNC (dbench -s)
 * @sync_dirs: fsync the parent directory after each change to it (-S)
 * @fsync_writes: fsync after each WriteX (-F)
 * @case_sensitive: names are looked up as written; otherwise a name not
 *                  found is looked for again ignoring case, as an SMB
 *                  server would
 * @lean: leave out the system calls dbench makes that do no work here (a
 *        stat() of every name before its operation, the liveness check of
 *        the parent before every line, an fstat() after every open), so
 *        that the figures are the filesystem's rather than dbench's; they
 *        then no longer compare with dbench's
 * @target_rate: per-client limit in 10^6 bytes per second, 0 for none (-R)
 * @stop: set non-zero to stop early, or NULL
 * @on_progress: called once a second from the calling thread, or NULL
 * @progress_arg: passed to @on_progress
 */
struct bq_replay_opts {
	const char *dir;
	int clients;
	uint64_t time_ns;
	uint64_t warmup_ns;
	uint64_t stall_timeout_ns;
	bool run_once;
	bool sync_open;
	bool sync_dirs;
	bool fsync_writes;
	bool case_sensitive;
	bool lean;
	double target_rate;
	volatile int *stop;
	void (*on_progress)(void *arg, const struct bq_replay_progress *p);
	void *progress_arg;
};

/* What a mismatch was about */
enum bq_replay_what {
	BQ_REPLAY_MISMATCH_STATUS,	/* another status than the file's */
	BQ_REPLAY_MISMATCH_RESULT,	/* right status, another byte or entry count */
};

/**
 * struct bq_replay_mismatch - one class of mismatch, every client added up
 * @kind: enum bq_replay_kind
 * @what: enum bq_replay_what
 * @expected: index into struct bq_loadfile.statuses (@what STATUS), or
 *            the expected count (@what RESULT)
 * @got: the status got (@what STATUS), or the count got (@what RESULT)
 * @count: how often
 * @first_line: loadfile line of the first one seen
 */
struct bq_replay_mismatch {
	int kind;
	enum bq_replay_what what;
	uint64_t expected;
	uint64_t got;
	uint64_t count;
	uint32_t first_line;
};

/**
 * struct bq_replay_result - a whole replay
 * @ops: the runner's result: per client (thread) statistics, the
 *       interval samples, CPU; after the warmup is taken out, so @ops.total
 *       and each thread's counts cover only the measured time
 * @exec_ns: the measured time (after the warmup)
 * @warmed: every client finished its warmup (false when stopped early)
 * @bytes: ReadX and WriteX bytes in the measured time (requested sizes,
 *         as dbench counts them)
 * @mb_s: @bytes per second of @exec_ns, in 10^6 bytes (dbench's Throughput)
 * @max_lat_ns: the slowest operation in the measured time
 * @lines: operations done per client, warmup included
 * @loops: times the clients went through the whole file, summed
 * @mismatches: operations whose status or result differed from the file's
 * @classes: @mismatches by kind, expected and got, most frequent first
 * @nr_classes: how many
 */
struct bq_replay_result {
	struct bq_ops_result ops;
	uint64_t exec_ns;
	bool warmed;
	uint64_t bytes;
	double mb_s;
	uint64_t max_lat_ns;
	uint64_t *lines;
	uint64_t loops;
	uint64_t mismatches;
	struct bq_replay_mismatch *classes;
	size_t nr_classes;
};

/**
 * bq_replay_run() - replay a loadfile with N clients
 * @ctx: context for the runner (/proc/stat), or NULL
 * @lf: the parsed loadfile
 * @o: how
 * @res: the results, also when stopped early; free with
 *       bq_replay_result_free()
 *
 * Each client works in @o->dir/clients/clientN (N from 0), the loadfile's
 * "client1" path component replaced with its own name, and keeps its own
 * table of open handles.  A run-time failure of an operation is a
 * mismatch, not an error of the run.
 *
 * Return: 0 when the clients ran, -EINVAL for bad options, -errno when
 * @o->dir cannot be used or the threads cannot start.
 */
int bq_replay_run(struct bq_ctx *ctx, const struct bq_loadfile *lf,
		  const struct bq_replay_opts *o, struct bq_replay_result *res);

/**
 * bq_replay_result_free() - release a replay's results
 * @res: the results
 */
void bq_replay_result_free(struct bq_replay_result *res);

/**
 * bq_replay_cleanup() - remove what the clients left (dbench's cleanup)
 * @dir: the run's directory
 * @clients: how many clients ran
 *
 * Removes @dir/clients/clientN for each client, then @dir/clients when
 * it is empty.
 *
 * Return: 0, or the first -errno met (the removal goes on past it).
 */
int bq_replay_cleanup(const char *dir, int clients);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_REPLAY_H */
