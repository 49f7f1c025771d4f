/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_files.h - vdbench-style file trees: an anchor directory with
 * depth x width directories and files of a given size, formatted, then
 * worked on by threads doing read, write, create, delete, open, close,
 * getattr, setattr, mkdir and rmdir
 *
 * The definitions come from vdbench parameter files (fsd=, fwd=, rd=) or
 * from key=value command-line arguments forming one of each.  Like the rest
 * of libblkqual: 0 on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_FILES_H
#define BLKQUAL_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "blkqual_io.h"
#include "blkqual_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* Kinds of operation, in the order vdbench reports them. */
enum bq_files_op {
	BQ_FOP_READ,
	BQ_FOP_WRITE,
	BQ_FOP_MKDIR,
	BQ_FOP_RMDIR,
	BQ_FOP_CREATE,
	BQ_FOP_OPEN,
	BQ_FOP_CLOSE,
	BQ_FOP_DELETE,
	BQ_FOP_GETATTR,
	BQ_FOP_SETATTR,
	BQ_FOP_NR,
};

#define BQ_FILES_NAME_MAX 64
#define BQ_FILES_WHERE_MAX 256
#define BQ_FILES_MAX_LIST 16	/* values in a list: names, sizes, percentages */

/* Names vdbench gives what it makes below an anchor (kept, for mixed use). */
#define BQ_FILES_CONTROL "vdb_control.file"

/**
 * struct bq_files_dist - one value, or a distribution of values
 * @val: the values (bytes)
 * @pct: with @nr > 1, the percentage of each (adding up to 100)
 * @nr: how many
 */
struct bq_files_dist {
	uint64_t val[BQ_FILES_MAX_LIST];
	double pct[BQ_FILES_MAX_LIST];
	int nr;
};

/**
 * struct bq_files_openflags - openflags=
 * @flags: O_DSYNC, O_SYNC, O_DIRECT for open(2)
 * @fsync: fsync(2) before each close
 * @set: given (a later level's flags replace an earlier one's)
 */
struct bq_files_openflags {
	int flags;
	bool fsync;
	bool set;
};

/**
 * struct bq_files_fsd - a file system definition: where, and what shape
 * @name: fsd=NAME
 * @where: "file:line" of its definition, or "command line"
 * @anchor: the directory everything lives under
 * @depth: directory levels below the anchor (0: files in the anchor)
 * @width: directories in each directory
 * @files: files in each directory that holds files
 * @dist_all: distribution=all: files in every directory, not only the
 *            bottom ones
 * @sizes: file size, or sizes with percentages
 * @openflags: openflags= of the fsd
 */
struct bq_files_fsd {
	char name[BQ_FILES_NAME_MAX];
	char where[BQ_FILES_WHERE_MAX];
	char anchor[PATH_MAX];
	int depth;
	int width;
	uint32_t files;
	bool dist_all;
	struct bq_files_dist sizes;
	struct bq_files_openflags openflags;
};

/**
 * struct bq_files_fwd - a file system workload definition
 * @name: fwd=NAME
 * @where: where it was defined
 * @fsd: fsd= names, '*' wildcards allowed
 * @nr_fsd: how many
 * @op: operation= (enum bq_files_op)
 * @rdpct: rdpct=, reads in a read/write mix; negative when not given
 * @xfer: xfersize=, one size or sizes with percentages
 * @random_io: fileio=random (else sequential)
 * @delete_first: fileio=(sequential,delete): delete a file before writing it
 * @select_random: fileselect=random (else sequential)
 * @threads: threads=
 * @skew: skew=, percent of a numeric fwdrate; 0 when not given
 * @stopafter: stopafter=, blocks of random I/O per file; 0 for the file's size
 * @openflags: openflags= of the fwd
 */
struct bq_files_fwd {
	char name[BQ_FILES_NAME_MAX];
	char where[BQ_FILES_WHERE_MAX];
	char fsd[BQ_FILES_MAX_LIST][BQ_FILES_NAME_MAX];
	int nr_fsd;
	int op;
	double rdpct;
	struct bq_files_dist xfer;
	bool random_io;
	bool delete_first;
	bool select_random;
	int threads;
	double skew;
	uint64_t stopafter;
	struct bq_files_openflags openflags;
};

/**
 * struct bq_files_format - format=
 * @requested: anything but format=no
 * @restart: format=restart: complete what is missing, delete nothing
 * @clean: format=clean: delete the tree, create nothing (implies @only)
 * @only: format=only: stop after the format
 * @dirs: format=directories: make the directories only
 */
struct bq_files_format {
	bool requested;
	bool restart;
	bool clean;
	bool only;
	bool dirs;
};

/**
 * struct bq_files_rd - a run definition
 * @name: rd=NAME
 * @where: where it was defined
 * @fwd: fwd= names, '*' wildcards allowed
 * @nr_fwd: how many
 * @have_rate: fwdrate= was given
 * @rate_max: fwdrate=max
 * @rate: fwdrate=N, requested operations per second
 * @format: format=
 * @elapsed_s: elapsed=
 * @interval_s: interval=
 * @warmup_s: warmup=
 * @pause_s: pause=, seconds to sleep after the run
 * @ops: operations=, overriding each fwd's operation
 * @nr_ops: how many (0: each fwd's own)
 * @openflags: openflags= of the rd
 */
struct bq_files_rd {
	char name[BQ_FILES_NAME_MAX];
	char where[BQ_FILES_WHERE_MAX];
	char fwd[BQ_FILES_MAX_LIST][BQ_FILES_NAME_MAX];
	int nr_fwd;
	bool have_rate;
	bool rate_max;
	double rate;
	struct bq_files_format format;
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	uint64_t pause_s;
	int ops[BQ_FOP_NR];
	int nr_ops;
	struct bq_files_openflags openflags;
};

/**
 * struct bq_files_parms - everything a parameter file defined
 * @fsd: file system definitions, in order
 * @nr_fsd: how many
 * @fwd: workload definitions, in order
 * @nr_fwd: how many
 * @rd: run definitions, in the order they run
 * @nr_rd: how many
 * @format_fwd: fwd=format when given, else vdbench's format defaults
 *              (8 threads, 128 KiB transfers); only threads, xfersize
 *              and openflags are used
 * @create_anchors: create_anchors=yes: make missing parents of anchors
 */
struct bq_files_parms {
	struct bq_files_fsd *fsd;
	size_t nr_fsd;
	struct bq_files_fwd *fwd;
	size_t nr_fwd;
	struct bq_files_rd *rd;
	size_t nr_rd;
	struct bq_files_fwd format_fwd;
	bool create_anchors;
};

/**
 * struct bq_files_var - a $name substitution from the command line
 * @name: without the '$'
 * @value: what replaces it
 */
struct bq_files_var {
	const char *name;
	const char *value;
};

/**
 * bq_files_op_name() - an operation's vdbench name
 * @op: enum bq_files_op
 *
 * Return: "read", "write", ... or "?".
 */
const char *bq_files_op_name(int op);

/**
 * bq_files_parse_files() - read vdbench parameter files
 * @paths: the files, read as one stream in this order (as vdbench -f a b)
 * @nr: how many
 * @vars: $name substitutions (name=value arguments beside -f)
 * @nr_vars: how many
 * @p: receives the definitions; free with bq_files_parms_free()
 * @err: on failure, where ("file:line") and why
 *
 * Parameters are keyword=value pairs separated by commas or line ends;
 * a definition starts with fsd=, fwd= or rd= and takes every parameter
 * up to the next one.  '*', '#' and '/' start comment lines, text after
 * the first blank of a line is a comment, "eof" ends a file, a line
 * ending in a comma continues on the next, (a,b) is a list, include=FILE
 * reads another file.  Keywords blkqual does not implement are refused
 * by name, never ignored.
 *
 * Return: 0, -ENOENT (a file), -EINVAL (bad parameters), -EOPNOTSUPP
 * (a vdbench keyword or value blkqual does not implement), -ENOMEM.
 */
int bq_files_parse_files(const char *const *paths, size_t nr, const struct bq_files_var *vars,
			 size_t nr_vars, struct bq_files_parms *p, struct bq_parse_error *err);

/**
 * bq_files_parse_args() - one fsd, fwd and rd from key=value arguments
 * @argc: number of arguments
 * @argv: "anchor=/mnt", "depth=2", "operation=read", "elapsed=5", ...
 * @p: receives fsd1, fwd1 and rd1; format defaults to restart (make what
 *     is missing) and fwdrate to max
 * @err: on failure, @err->where is the argument
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP or -ENOMEM.
 */
int bq_files_parse_args(int argc, char *const *argv, struct bq_files_parms *p,
			struct bq_parse_error *err);

/**
 * bq_files_parms_free() - free what the parsers allocated
 * @p: the definitions
 */
void bq_files_parms_free(struct bq_files_parms *p);

/**
 * struct bq_files_fwg - one workload group: an fwd on one fsd doing one
 * operation (vdbench splits an fwd this way)
 * @fwd: the workload definition
 * @fsd: index into struct bq_files_parms.fsd
 * @op: the operation
 * @threads: threads of this group
 * @rate: operations per second for the whole group; 0 for no limit
 * @openflags: the flags in force (rd over fwd over fsd)
 */
struct bq_files_fwg {
	const struct bq_files_fwd *fwd;
	size_t fsd;
	int op;
	int threads;
	double rate;
	struct bq_files_openflags openflags;
};

/**
 * struct bq_files_plan - what one run (or its format) does
 * @p: the definitions
 * @rd: the run definition
 * @format: this is the format run of @rd ("format_for_" + name)
 * @fwg: the workload groups
 * @nr_fwg: how many
 * @nr_threads: threads of all groups
 * @requested: bit per operation that counts as requested (ReqstdOps)
 */
struct bq_files_plan {
	const struct bq_files_parms *p;
	const struct bq_files_rd *rd;
	bool format;
	struct bq_files_fwg *fwg;
	size_t nr_fwg;
	int nr_threads;
	uint32_t requested;
};

/**
 * bq_files_plan() - resolve a run definition into workload groups
 * @p: the definitions
 * @rd: index of the run definition
 * @format: plan its format run instead (one group per fsd, fwd=format's
 *          threads each)
 * @plan: filled in; free with bq_files_plan_free()
 * @err: on failure, where and why (an fwd or fsd name that matches
 *       nothing, a skew that does not add up to 100)
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_files_plan(const struct bq_files_parms *p, size_t rd, bool format,
		  struct bq_files_plan *plan, struct bq_parse_error *err);

/**
 * bq_files_plan_free() - free a plan
 * @plan: the plan
 */
void bq_files_plan_free(struct bq_files_plan *plan);

/**
 * bq_files_tree_size() - how big an fsd's tree is
 * @fsd: the definition
 * @dirs: receives the number of directories
 * @files: receives the number of files
 * @bytes: receives the bytes of all files
 */
void bq_files_tree_size(const struct bq_files_fsd *fsd, uint64_t *dirs, uint64_t *files,
			uint64_t *bytes);

/**
 * bq_files_anchor_check() - may this anchor be used?  Writes nothing.
 * @fsd: the definition
 * @create_anchors: missing parents may be made
 * @formatting: a format will run on it
 * @err: on failure, where (the anchor) and why
 *
 * An anchor is a directory, or missing with an existing parent (or with
 * @create_anchors).  To be formatted it must also be empty (lost+found
 * aside) or hold BQ_FILES_CONTROL, the mark of a tree blkqual or vdbench
 * made: nothing else is ever deleted.
 *
 * Return: 0; -ENOTDIR (not a directory), -ENOENT (no parent), -EEXIST
 * (foreign content and a format asked for), or another -errno from stat.
 */
int bq_files_anchor_check(const struct bq_files_fsd *fsd, bool create_anchors, bool formatting,
			  struct bq_parse_error *err);

/**
 * struct bq_files_run_opts - how to run a plan
 * @ctx: context for /proc/stat (CPU), or NULL
 * @elapsed_ns: run length (ignored for a format, which runs to the end)
 * @interval_ns: sample period
 * @stop: set non-zero to end early (a signal handler), or NULL
 * @on_sample: called after each interval, or NULL
 * @sample_arg: passed to @on_sample
 */
struct bq_files_run_opts {
	struct bq_ctx *ctx;
	uint64_t elapsed_ns;
	uint64_t interval_ns;
	uint64_t stall_timeout_ns;
	volatile int *stop;
	void (*on_sample)(void *sample_arg, const struct bq_ops_sample *s);
	void *sample_arg;
};

/**
 * struct bq_files_result - a run
 * @ops: counts, latencies, samples; indexes are enum bq_files_op
 * @tail: the part after the last sample (a run rarely ends on an interval
 *        boundary); @tail.dt_ns is 0 when there is none worth reporting
 * @ran_out: a group found no more files or directories to work on (every
 *           file deleted, every directory made) and stopped early
 * @note: which group ran out, or why the run could not start; one line
 * @dirs: directories in the tree afterwards
 * @files: files in the tree afterwards
 */
struct bq_files_result {
	struct bq_ops_result ops;
	struct bq_ops_sample tail;
	bool ran_out;
	char note[256];
	uint64_t dirs;
	uint64_t files;
};

/**
 * bq_files_run() - run a plan: the format, or the workload
 * @plan: from bq_files_plan()
 * @o: how
 * @res: the results, also when the run ended early; free with
 *       bq_files_result_free()
 *
 * Anchors must have passed bq_files_anchor_check(); a missing one is made
 * here.  A format deletes the old tree first (only entries named as
 * blkqual names them), writes BQ_FILES_CONTROL, makes the directories,
 * then creates and writes each file.  A workload group's threads each
 * hold a file (or directory) alone while working on it.
 *
 * Return: 0 when the run happened (failed operations are in @res), or
 * -errno when it could not start (@res->note says why).
 */
int bq_files_run(const struct bq_files_plan *plan, const struct bq_files_run_opts *o,
		 struct bq_files_result *res);

/**
 * bq_files_result_free() - free a run's results
 * @res: the results
 */
void bq_files_result_free(struct bq_files_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_FILES_H */
