/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobopt.h - private to libblkqual: what the job file and command line
 * parsers need from the option table, and the job calls that only the
 * library (qualify's profiles among them) and the tests make
 */
#ifndef BLKQUAL_JOBOPT_H
#define BLKQUAL_JOBOPT_H

#include <stdbool.h>

#include "blkqual_io.h"

/* Threads of all jobs of one run together (numjobs summed over the jobs). */
#define BQ_MAX_THREADS 4096
/* The most entries an io_uring submission queue may have (IORING_MAX_ENTRIES). */
#define BQ_URING_MAX_DEPTH 32768

/*
 * "--bs 4k" takes the next argument only for options that need a value;
 * "--time_based --runtime=10" must not swallow "--runtime=10".
 */
bool bq_job_opt_takes_value(const char *key);

/* Fill @err->msg printf-style and return @ret; @err may be NULL. */
int bq_parse_fail(struct bq_parse_error *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * bq_engine_parse() - the engine a name (or one of fio's aliases) means
 * @name: "io_uring", "psync", "sync", "null", ...
 * @e: receives the engine
 *
 * Return: 0, or -ENOENT when no engine has that name.
 */
int bq_engine_parse(const char *name, enum bq_engine *e);

/**
 * bq_job_release() - free what a job owns (its filenames)
 * @job: the job; its filename list is left empty
 */
void bq_job_release(struct bq_job *job);

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
 * bq_job_check() - the whole job is consistent (run after the last option)
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (no filename, bsrange min > max, bssplit not
 * adding up to 100, iodepth 0, ...).
 */
int bq_job_check(const struct bq_job *job, struct bq_parse_error *err);

/* jobopt_sync.c: the sync-family options fit the engine (issue 19). */
int bq_job_check_sync(const struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_jobfile_parse() - read a fio job file
 * @path: the file ("-" for standard input)
 * @set: receives the jobs: each section but [global], with the options of
 *       every [global] above it applied first; each job passed
 *       bq_job_check()
 * @err: filled in on failure, @err->where is "path:line"
 *
 * ';' and '#' start comments; "include FILE", ${VAR}, $ncpus and the
 * other keywords, and "(...)" expressions are read as fio reads them.
 *
 * Return: 0 or -errno.
 */
int bq_jobfile_parse(const char *path, struct bq_jobset *set, struct bq_parse_error *err);

/* Why a fio option is refused, or NULL when it is not (refused.c). */
const char *bq_job_opt_refusal(const char *key);
/* Each refused fio option with its reason, until @fn returns non-zero. */
int bq_job_refused_each(int (*fn)(const char *name, const char *reason, void *arg), void *arg);

/* What a number without a unit means inside a "(...)" expression. */
enum bq_expr_kind {
	BQ_EXPR_BYTES,		/* sizes and counts */
	BQ_EXPR_SECONDS,	/* runtime and the like: whole seconds */
	BQ_EXPR_USECS,		/* thinktime and the like */
};

/**
 * bq_expand_line() - a job file line as fio reads it (jobexpand.c)
 * @line: the line, comments stripped
 * @keywords: an option line (not a section header or an include)
 * @out: receives the expanded line (malloc'd)
 * @err: filled in on failure
 *
 * ${VAR} from the environment (unset: empty); on option lines also
 * $ncpus, $mb_memory and $pagesize, and bc's integer arithmetic on a
 * value holding a keyword and one of + - * /, all as fio does.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_expand_line(const char *line, bool keywords, char **out, struct bq_parse_error *err);

/**
 * bq_expand_paren() - a numeric value's "(...)" expressions computed, as fio
 * @key: the option, for messages
 * @val: the value
 * @kind: what a number without a unit means
 * @out: receives the plain value (malloc'd), or NULL when @val has no '('
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_expand_paren(const char *key, const char *val, enum bq_expr_kind kind, char **out,
		    struct bq_parse_error *err);

/**
 * bq_jobfile_parse_sections() - bq_jobfile_parse(), keeping only some jobs
 * @path: the file ("-" for standard input)
 * @sections: NULL-terminated job names to keep (fio's --section), or NULL
 * @set: receives the jobs
 * @err: filled in on failure
 *
 * Return: 0 or -errno.
 */
int bq_jobfile_parse_sections(const char *path, const char *const *sections,
			      struct bq_jobset *set, struct bq_parse_error *err);
/* fileset_opt.c: the file set options (issue 19) */
struct bq_strv;
int bq_fileset_opt(const char *key, const char *val, struct bq_job *job,
		   struct bq_parse_error *err);
void bq_fileset_defaults(struct bq_job *job);
int bq_fileset_dir_prefix(const struct bq_job *job, char **name);
int bq_fileset_check(const struct bq_job *job, struct bq_parse_error *err);
int bq_fileset_to_args(const struct bq_job *job, struct bq_strv *args);
/* jobopt_patterns.c: the I/O pattern options (setters of the option table) */
struct job_opt;

int bq_job_rw_modifier(struct bq_job *job, const char *key, const char *val, const char *mod,
		       struct bq_parse_error *err);
int bq_job_set_distribution(struct bq_job *job, const char *key, const char *val,
			    struct bq_parse_error *err);
int bq_set_rw_sequencer(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err);
int bq_set_percentage_random(const struct job_opt *o, const char *key, const char *val,
			     struct bq_job *job, struct bq_parse_error *err);
int bq_set_random_generator(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err);
int bq_set_zonemode(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err);
int bq_set_zone_bytes(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);
int bq_set_offset(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err);
int bq_set_offset_increment(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err);
int bq_set_size_u64(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err);
int bq_set_number_ios(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);
int bq_set_unified_rw_reporting(const struct job_opt *o, const char *key, const char *val,
				struct bq_job *job, struct bq_parse_error *err);
int bq_set_bs_unaligned(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err);
int bq_job_check_patterns(const struct bq_job *job, struct bq_parse_error *err);
bool bq_job_strided(const struct bq_job *job);
bool bq_job_has_pattern(const struct bq_job *job);

/* ---- rates, thinktime and latency targets (jobopt_rates.c) ---------- */

/**
 * bq_job_set_rates() - set an option of the rate family, by its name
 * @o: the table row (unused: the name says which)
 * @key: "rate", "rate_min", "thinktime_blocks", "ss", ...
 * @val: its value, or NULL for a bare flag
 * @job: the job, unchanged on failure
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL, or -EOPNOTSUPP for a value fio has that blkqual
 * does not (a trim rate, a latency steady state criterion).
 */
int bq_job_set_rates(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err);

/**
 * bq_job_rates_defaults() - fio's defaults for the rate family
 * @job: the job (ratecycle 1000 ms, thinktime_blocks 1, ...)
 */
void bq_job_rates_defaults(struct bq_job *job);

/**
 * bq_job_check_rates() - fio's consistency rules for the rate family
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL (rate with rate_iops, a minimum over its cap, ...).
 */
int bq_job_check_rates(const struct bq_job *job, struct bq_parse_error *err);

/* Plain decimal, as fio's integer options (jobopt.c): 0, -EINVAL or -ERANGE. */
int bq_parse_dec(const char *s, uint64_t *v);

/* jobopt_trim.c: rw=trim, randtrim, trimwrite, randtrimwrite (issue 19) */
bool bq_job_is_trim_rw(const char *val, size_t len);
int bq_job_set_trim_rw(struct bq_job *job, const char *key, const char *val, size_t len,
		       const char *modifier, struct bq_parse_error *err);
int bq_job_check_trim(const struct bq_job *job, struct bq_parse_error *err);
/* jobopt_sg.c: fio's sg engine options */
int bq_set_sg_write_mode(const struct job_opt *o, const char *key, const char *val,
			 struct bq_job *job, struct bq_parse_error *err);
int bq_job_check_sg(const struct bq_job *job, struct bq_parse_error *err);
const char *bq_sg_write_mode_name(int mode);
/* jobopt_nvme.c: io_uring_cmd's write_mode, deac and num_range (issue 19) */
int bq_job_set_write_mode(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err);
void bq_job_write_mode_str(const struct bq_job *job, char *buf, size_t len);
int bq_job_check_nvme(const struct bq_job *job, struct bq_parse_error *err);
int bq_job_set_pi_chk(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);
int bq_job_set_apptag(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err);

/* jobopt_dp.c: fdp, dataplacement, plid_select, plids and dp_scheme (issue 19) */
int bq_job_set_dp(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err);
enum bq_dp_type bq_job_dp_type(const struct bq_job *job);
int bq_job_check_dp(const struct bq_job *job, struct bq_parse_error *err);
int bq_job_dp_args(const struct bq_job *job, struct bq_strv *args);

/* jobopt_stats.c: percentile_list, clat_percentiles, lat_percentiles, significant_figures */
int bq_opt_set_stats(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err);
int bq_job_stats_args(const struct bq_job *job, struct bq_strv *args);

#endif /* BLKQUAL_JOBOPT_H */
