// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileset_opt.c - the file set options (issue 19): the files fio names
 * itself when a job has no filename=, how big they are, how they are laid
 * out, served and removed
 *
 * jobopt.c's table sends every one of these names here; the run uses
 * them in lib/io/fileset.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "io/target.h"
#include "jobopt.h"

static int fs_bool(const char *key, const char *val, bool *b, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1"))
		*b = true;
	else if (!strcmp(val, "0"))
		*b = false;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	return 0;
}

static int fs_uint(const char *key, const char *val, unsigned int lo, unsigned int hi,
		   unsigned int *out, struct bq_parse_error *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)*val) ? strtoull(val, &end, 10) : 0;
	if (!isdigit((unsigned char)*val) || errno || *end || v < lo || v > hi)
		return bq_parse_fail(err, -EINVAL, "%s=%s: want a whole number %u..%u", key, val,
				     lo, hi);
	*out = (unsigned int)v;
	return 0;
}

/* filesize=N or filesize=LOW-HIGH: each file's size, or a range to draw it from. */
static int set_filesize(const char *key, const char *val, struct bq_job *job,
			struct bq_parse_error *err)
{
	char buf[128], *dash;
	uint64_t lo, hi;

	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s=%s: too long", key, val);
	if (strchr(val, ','))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: only one size or range is "
				     "supported", key, val);
	strcpy(buf, val);
	/* fio writes a range LOW-HIGH or LOW:HIGH. */
	dash = strpbrk(buf, "-:");
	if (dash)
		*dash++ = '\0';
	if (bq_parse_size(buf, &lo) || (dash && bq_parse_size(dash, &hi)))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size or LOW-HIGH range", key,
				     val);
	if (!dash)
		hi = lo;
	if (!lo || lo > hi)
		return bq_parse_fail(err, -EINVAL, "%s=%s: want a size over 0, low before high",
				     key, val);
	job->filesize_lo = lo;
	job->filesize_hi = hi;
	return 0;
}

static int set_file_service(const char *key, const char *val, struct bq_job *job,
			    struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		enum bq_file_service fs;
	} types[] = {
		{ "roundrobin", BQ_FSRV_ROUNDROBIN },
		{ "sequential", BQ_FSRV_SEQUENTIAL },
		{ "random", BQ_FSRV_RANDOM },
	};
	static const char *const fio_only[] = { "normal", "gauss" };
	size_t len = strcspn(val, ":");
	unsigned int nr = 1;

	for (size_t i = 0; i < ARRAY_SIZE(fio_only); i++)
		if (strlen(fio_only[i]) == len && !strncmp(val, fio_only[i], len))
			return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s is not supported (use random, "
					     "roundrobin, sequential, zipf or pareto)", key, val);
	if ((len == 4 && !strncmp(val, "zipf", 4)) || (len == 6 && !strncmp(val, "pareto", 6))) {
		bool zipf = len == 4;
		double v = zipf ? 1.1 : 0.2;	/* fio's defaults */
		char *end;

		if (val[len]) {
			errno = 0;
			v = strtod(val + len + 1, &end);
			if (errno || *end || !val[len + 1] || !(v > 0) || (!zipf && v >= 1.0))
				return bq_parse_fail(err, -EINVAL, "%s=%s: want %s", key, val, zipf ?
						     "zipf:THETA, THETA over 0" :
						     "pareto:H, H between 0 and 1");
		}
		job->file_service = zipf ? BQ_FSRV_ZIPF : BQ_FSRV_PARETO;
		job->file_service_nr = 1;
		job->file_service_param = v;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		if (strlen(types[i].name) != len || strncmp(val, types[i].name, len))
			continue;
		if (val[len] && fs_uint(key, val + len + 1, 1, UINT32_MAX, &nr, err))
			return -EINVAL;
		job->file_service = types[i].fs;
		job->file_service_param = 0;
		/* sequential finishes a file first; ":N" has no say in that. */
		job->file_service_nr = types[i].fs == BQ_FSRV_SEQUENTIAL ? 0 : nr;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "%s=%s: use random, roundrobin or sequential (with "
			     "an optional :N), zipf or pareto", key, val);
}

static int set_fallocate(const char *key, const char *val, struct bq_job *job,
			 struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		enum bq_fallocate mode;
	} modes[] = {
		{ "native", BQ_FALLOC_NATIVE }, { "none", BQ_FALLOC_NONE },
		{ "0", BQ_FALLOC_NONE }, { "posix", BQ_FALLOC_POSIX }, { "1", BQ_FALLOC_POSIX },
		{ "keep", BQ_FALLOC_KEEP }, { "truncate", BQ_FALLOC_TRUNCATE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!strcmp(val, modes[i].name)) {
			job->fallocate = modes[i].mode;
			return 0;
		}
	}
	return bq_parse_fail(err, -EINVAL, "%s=%s: use none, native, posix, keep, truncate, 0 "
			     "or 1", key, val);
}

/* Path lists: kept as written; ':' separates, "\:" is a ':' inside a name. */
static int set_text(const char *key, const char *val, char *dst, size_t len,
		    struct bq_parse_error *err)
{
	for (const unsigned char *c = (const unsigned char *)val; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return bq_parse_fail(err, -EINVAL, "%s=: contains the control character "
					     "0x%02x", key, *c);
	if (strlen(val) >= len)
		return bq_parse_fail(err, -EINVAL, "%s is longer than %zu characters", key,
				     len - 1);
	memset(dst, 0, len);
	bq_strlcpy(dst, val, len);
	return 0;
}

/**
 * bq_fileset_opt() - set one of the file set options
 * @key: the option's name
 * @val: its value, or NULL for a flag given bare
 * @job: the job, unchanged on failure
 * @err: why not
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP, or -ENOENT for a name that is not one.
 */
int bq_fileset_opt(const char *key, const char *val, struct bq_job *job,
		   struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		size_t off;
	} bools[] = {
		{ "unique_filename", offsetof(struct bq_job, unique_filename) },
		{ "create_on_open", offsetof(struct bq_job, create_on_open) },
		{ "create_only", offsetof(struct bq_job, create_only) },
		{ "allow_file_create", offsetof(struct bq_job, allow_file_create) },
		{ "overwrite", offsetof(struct bq_job, overwrite) },
		{ "pre_read", offsetof(struct bq_job, pre_read) },
		{ "unlink", offsetof(struct bq_job, unlink) },
		{ "unlink_each_loop", offsetof(struct bq_job, unlink_each_loop) },
		{ "create_fsync", offsetof(struct bq_job, create_fsync) },
		{ "create_serialize", offsetof(struct bq_job, create_serialize) },
		{ "file_append", offsetof(struct bq_job, file_append) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bools); i++)
		if (!strcmp(key, bools[i].name))
			return fs_bool(key, val, (bool *)((char *)job + bools[i].off), err);
	if (!val)
		return bq_parse_fail(err, -EINVAL, "%s needs a value", key);
	if (!strcmp(key, "directory"))
		return set_text(key, val, job->directory, sizeof(job->directory), err);
	if (!strcmp(key, "filename_format"))
		return set_text(key, val, job->filename_format, sizeof(job->filename_format), err);
	if (!strcmp(key, "nrfiles") || !strcmp(key, "nr_files"))
		return fs_uint(key, val, 1, BQ_MAX_FILES, &job->nrfiles, err);
	if (!strcmp(key, "openfiles"))
		return fs_uint(key, val, 0, UINT32_MAX, &job->openfiles, err);
	if (!strcmp(key, "filesize"))
		return set_filesize(key, val, job, err);
	if (!strcmp(key, "file_service_type"))
		return set_file_service(key, val, job, err);
	if (!strcmp(key, "fallocate"))
		return set_fallocate(key, val, job, err);
	return bq_parse_fail(err, -ENOENT, "unknown option '%s'", key);
}

/**
 * bq_fileset_dir_prefix() - a filename= name as fio opens it: below the
 * first entry of a directory= given before it
 * @job: the job, its directory= as set so far
 * @name: a malloc'ed name, replaced by the prefixed one
 *
 * fio prefixes the directory when it reads filename=, so the order of the
 * two options matters there, and here.
 *
 * Return: 0, -ENOMEM or -ENAMETOOLONG.
 */
int bq_fileset_dir_prefix(const struct bq_job *job, char **name)
{
	const char *p = job->directory;
	char dir[sizeof(job->directory)], *out;
	size_t n = 0, len;

	while (*p == ':')
		p++;
	if (!*p)
		return 0;
	for (; *p && *p != ':'; p++) {
		if (p[0] == '\\' && p[1] == ':')
			p++;
		dir[n++] = *p;
	}
	dir[n] = '\0';
	len = n + strlen(*name) + 2;
	if (len > 4096)
		return -ENAMETOOLONG;
	out = malloc(len);
	if (!out)
		return -ENOMEM;
	memcpy(out, dir, n);
	out[n] = '/';
	memcpy(out + n + 1, *name, strlen(*name) + 1);
	free(*name);
	*name = out;
	return 0;
}

/**
 * bq_fileset_defaults() - fio's defaults of the file set options
 * @job: the job
 */
void bq_fileset_defaults(struct bq_job *job)
{
	job->unique_filename = true;
	job->nrfiles = 1;
	job->file_service = BQ_FSRV_ROUNDROBIN;
	job->file_service_nr = 1;
	job->allow_file_create = true;
	job->fallocate = BQ_FALLOC_NATIVE;
	job->create_fsync = true;
	job->create_serialize = true;
}

/**
 * bq_fileset_check() - the file set options of a whole job agree
 * @job: the job
 * @err: why not
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int bq_fileset_check(const struct bq_job *job, struct bq_parse_error *err)
{
	bool implicit = !job->nr_files && !bq_engine_has(job->engine, BQ_ENGINE_DISKLESS);

	/* Made bytes from the one target's size (run.c); fio sizes it per file. */
	if (job->offset_pct && (job->nr_files > 1 || implicit || job->stripe))
		return bq_parse_fail(err, -EOPNOTSUPP, "offset=%u%% is supported with one "
				     "filename= only", job->offset_pct);

	if (job->verify && job->file_append)
		return bq_parse_fail(err, -EOPNOTSUPP, "verify with file_append is not supported");
	/*
	 * Each loop empties the thread's own files in place (see run_order.c):
	 * files another thread or job may use, or that the job only reads,
	 * would lose what they are there for.
	 */
	if (job->unlink_each_loop && (!implicit || !bq_job_writes(job) ||
				      (job->numjobs > 1 && job->filename_format[0] &&
				       !strcasestr(job->filename_format, "$jobnum"))))
		return bq_parse_fail(err, -EOPNOTSUPP, "unlink_each_loop is supported for jobs "
				     "that write files of their own (no filename=, each thread "
				     "its own names)");
	if (!implicit)
		return 0;
	if (bq_engine_has(job->engine, BQ_ENGINE_PASSTHRU))
		return bq_parse_fail(err, -EINVAL, "ioengine=io_uring_cmd needs filename= (an "
				     "NVMe generic device)");
	if (job->stripe)
		return bq_parse_fail(err, -EINVAL, "--stripe needs filename=");
	if (job->size_pct)
		return bq_parse_fail(err, -EOPNOTSUPP, "size=%u%% without filename= is not "
				     "supported", job->size_pct);
	if ((uint64_t)job->nrfiles * job->numjobs > BQ_MAX_FILES)
		return bq_parse_fail(err, -EOPNOTSUPP, "nrfiles=%u x numjobs=%u is over %d files "
				     "per job", job->nrfiles, job->numjobs, BQ_MAX_FILES);
	if (job->verify && job->nrfiles * job->numjobs > 1)
		return bq_parse_fail(err, -EINVAL, "verify works on one file per job "
				     "(nrfiles=1, numjobs=1)");
	return 0;
}

/**
 * bq_fileset_to_args() - the file set options as the options that make them
 * @job: the job
 * @args: appended to
 *
 * Return: 0 or -ENOMEM.
 */
int bq_fileset_to_args(const struct bq_job *job, struct bq_strv *args)
{
	static const char *const fsrv[] = { "roundrobin", "sequential", "random", "zipf",
					    "pareto" };
	static const char *const falloc[] = { "native", "none", "posix", "keep", "truncate" };
	char buf[1400];
	int ret = 0;

#define ADD(...) do { \
	snprintf(buf, sizeof(buf), __VA_ARGS__); \
	ret = ret ?: bq_strv_add(args, buf); \
} while (0)
	if (job->directory[0])
		ADD("--directory=%s", job->directory);
	if (job->filename_format[0])
		ADD("--filename_format=%s", job->filename_format);
	ADD("--unique_filename=%d", job->unique_filename);
	ADD("--nrfiles=%u", job->nrfiles);
	if (job->filesize_lo)
		ADD("--filesize=%" PRIu64 "-%" PRIu64, job->filesize_lo, job->filesize_hi);
	ADD("--openfiles=%u", job->openfiles);
	if (job->file_service == BQ_FSRV_SEQUENTIAL)
		ADD("--file_service_type=sequential");
	else if (job->file_service >= BQ_FSRV_ZIPF)
		ADD("--file_service_type=%s:%.17g", fsrv[job->file_service],
		    job->file_service_param);
	else
		ADD("--file_service_type=%s:%u", fsrv[job->file_service], job->file_service_nr);
	ADD("--create_on_open=%d", job->create_on_open);
	ADD("--create_only=%d", job->create_only);
	ADD("--allow_file_create=%d", job->allow_file_create);
	ADD("--overwrite=%d", job->overwrite);
	ADD("--fallocate=%s", falloc[job->fallocate]);
	ADD("--pre_read=%d", job->pre_read);
	ADD("--unlink=%d", job->unlink);
	ADD("--unlink_each_loop=%d", job->unlink_each_loop);
	ADD("--create_fsync=%d", job->create_fsync);
	ADD("--create_serialize=%d", job->create_serialize);
	ADD("--file_append=%d", job->file_append);
#undef ADD
	return ret;
}
