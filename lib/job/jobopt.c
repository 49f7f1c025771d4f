// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt.c - the job options blkqual understands, by their fio names
 *
 * One table row per name (aliases get their own row).  Anything fio has
 * that blkqual does not do is refused by name, never ignored: a job file
 * written for fio must not run here with part of it silently dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_verify.h"
#include "bufopt.h"
#include "jobopt.h"
#include "jobopt_groups.h"
#include "io/iolog.h"
#include "jobopt_logs.h"
#include "jobopt_zbd.h"
#include "errfilter_opt.h"
#include "jobopt_queue.h"
#include "jobopt_opendir.h"
#include "jobopt_fill.h"
#include "jobopt_sprandom.h"
#include "internal.h"
#include "verify/verify_int.h"

#define BS_MIN 512u
#define BS_MAX (1u << 30)

/* Room for the longest value split into parts: a 16-entry bssplit pair. */
#define VALUE_MAX 1024

int bq_parse_fail(struct bq_parse_error *err, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return ret;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * bq_fail_at() - fill @err with where and why, return @ret
 * @err: the error, may be NULL
 * @where: "path:line", an option, a target
 * @ret: what to return
 * @fmt: printf format of the message
 *
 * Return: @ret.
 */
int bq_fail_at(struct bq_parse_error *err, const char *where, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return ret;
	snprintf(err->where, sizeof(err->where), "%s", where);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return ret;
}

struct job_opt;

typedef int (*opt_setter)(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err);

enum opt_kind {
	OPT_VALUE,	/* needs a value */
	OPT_FLAG,	/* the bare name means 1; "=0" and "=1" work too */
};

/**
 * struct job_opt - one option name
 * @name: the fio name or alias
 * @kind: whether a value is required
 * @set: parses the value and stores it
 * @off: the field, for setters shared by several options
 * @lo: lowest integer allowed, or the unit of a bare number for times
 * @hi: highest integer allowed
 */
struct job_opt {
	const char *name;
	enum opt_kind kind;
	opt_setter set;
	size_t off;
	uint64_t lo;
	uint64_t hi;
};

#define FIELD(job, o, type) ((type *)((char *)(job) + (o)->off))

/**
 * bq_parse_dec() - plain decimal, as fio's integer options: no sign, no unit
 * @s: the text
 * @v: the value
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int bq_parse_dec(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

static int parse_bool(const char *val, bool *b)
{
	if (!val || !strcmp(val, "1"))
		*b = true;
	else if (!strcmp(val, "0"))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

/* A block size in the range blkqual can allocate buffers for. */
static int parse_bs(const char *key, const char *s, uint32_t *bs, struct bq_parse_error *err)
{
	uint64_t v;
	int ret = bq_parse_size(s, &v);

	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s: '%s' is not a size", key, s);
	if (v < BS_MIN || v > BS_MAX)
		return bq_parse_fail(err, -EINVAL, "%s: %s is outside 512..1g", key, s);
	*bs = (uint32_t)v;
	return 0;
}

/*
 * Split fio's per-direction "read,write" form.  A value without a comma
 * is both directions; an empty side is NULL and keeps what was there.
 */
static int split_dirs(const char *key, const char *val, char *buf,
		      char *part[BQ_NR_DIRS], struct bq_parse_error *err)
{
	char *comma;

	if (strlen(val) >= VALUE_MAX)
		return bq_parse_fail(err, -EINVAL, "%s: value is too long", key);
	strcpy(buf, val);
	comma = strchr(buf, ',');
	if (!comma) {
		if (!*buf)
			return bq_parse_fail(err, -EINVAL, "%s needs a value", key);
		part[BQ_READ] = part[BQ_WRITE] = buf;
		return 0;
	}
	*comma = '\0';
	if (strchr(comma + 1, ','))
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "%s=%s: a third (trim) value is not supported", key, val);
	part[BQ_READ] = *buf ? buf : NULL;
	part[BQ_WRITE] = comma[1] ? comma + 1 : NULL;
	if (!part[BQ_READ] && !part[BQ_WRITE])
		return bq_parse_fail(err, -EINVAL, "%s=%s: no value for either direction",
				     key, val);
	return 0;
}

static int set_bool(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	*FIELD(job, o, bool) = b;
	return 0;
}

/* norandommap, remembering that it was given: sprandom refuses norandommap=0. */
static int set_norandommap(const struct job_opt *o, const char *key, const char *val,
			      struct bq_job *job, struct bq_parse_error *err)
{
	job->norandommap_given = true;
	return set_bool(o, key, val, job, err);
}

static int set_uint(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a whole number", key, val);
	if (v < o->lo || v > o->hi)
		return bq_parse_fail(err, -EINVAL, "%s=%s is out of range (%llu..%llu)", key, val,
				     (unsigned long long)o->lo, (unsigned long long)o->hi);
	*FIELD(job, o, unsigned int) = (unsigned int)v;
	return 0;
}

static int set_u64(const struct job_opt *o, const char *key, const char *val,
		   struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a whole number", key, val);
	*FIELD(job, o, uint64_t) = v;
	return 0;
}

static int set_time(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t ns;
	int ret = bq_parse_time(val, o->lo, &ns);

	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too long", key, val);
	if (ret)
		return bq_parse_fail(err, -EINVAL,
				     "%s=%s: not a duration (like 10, 500ms, 2m)", key, val);
	*FIELD(job, o, uint64_t) = ns;
	return 0;
}

/* io_size: bytes only, fio's percentage form is not done. */
static int set_bytes(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;
	int ret;

	if (strchr(val, '%'))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s as a percentage is not supported", key);
	ret = bq_parse_size(val, &v);
	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too big", key, val);
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 4k, 1g)", key, val);
	*FIELD(job, o, uint64_t) = v;
	return 0;
}

static int set_ignored(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	return 0;
}

/* buffered=1 is fio's other way of saying direct=0. */
static int set_buffered(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	job->direct = !b;
	return 0;
}

/* description= is for people reading the job file: any text, no effect. */
static int set_description(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	return 0;
}

static int set_name(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	if (!*val)
		return bq_parse_fail(err, -EINVAL, "%s is empty", key);
	if (strlen(val) >= sizeof(job->name))
		return bq_parse_fail(err, -EINVAL, "%s is longer than %zu characters", key,
				     sizeof(job->name) - 1);
	/* Zero the tail too, so equal jobs compare equal byte for byte. */
	memset(job->name, 0, sizeof(job->name));
	bq_strlcpy(job->name, val, sizeof(job->name));
	return 0;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++) {
		free(names[i]);
		names[i] = NULL;
	}
}

/* ':' separates files; fio writes a ':' inside a name as "\:". */
static int set_filename(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	char *names[BQ_MAX_FILES] = { NULL };
	const char *p = val;
	int n = 0, ret;

	/* A name no one can type or read back is a damaged job file, not a target. */
	for (const unsigned char *c = (const unsigned char *)val; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return bq_parse_fail(err, -EINVAL, "%s=: contains the control character "
					     "0x%02x", key, *c);
	for (;;) {
		size_t len = 0;
		char *name;

		if (n == BQ_MAX_FILES) {
			ret = bq_parse_fail(err, -EINVAL, "%s: more than %d files", key,
					    BQ_MAX_FILES);
			goto out_free_names;
		}
		name = malloc(strlen(p) + 1);
		if (!name) {
			ret = -ENOMEM;
			goto out_free_names;
		}
		names[n++] = name;
		for (; *p && *p != ':'; p++) {
			if (p[0] == '\\' && p[1] == ':')
				p++;
			name[len++] = *p;
		}
		name[len] = '\0';
		if (!len) {
			ret = bq_parse_fail(err, -EINVAL, "%s=%s: empty file name", key, val);
			goto out_free_names;
		}
		ret = bq_fileset_dir_prefix(job, &names[n - 1]);
		if (ret) {
			bq_parse_fail(err, ret, "%s=%s: name too long below directory=", key, val);
			goto out_free_names;
		}
		if (!*p)
			break;
		p++;
	}
	bq_job_release(job);
	memcpy(job->filenames, names, sizeof(names));
	job->nr_files = n;
	return 0;

out_free_names:
	free_names(names, n);
	return ret;
}

static int set_rw(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		enum bq_rw rw;
	} modes[] = {
		{ "read", BQ_RW_READ },
		{ "write", BQ_RW_WRITE },
		{ "randread", BQ_RW_RANDREAD },
		{ "randwrite", BQ_RW_RANDWRITE },
		{ "rw", BQ_RW_RW },
		{ "readwrite", BQ_RW_RW },
		{ "randrw", BQ_RW_RANDRW },
	};
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (strlen(modes[i].name) == len && !strncmp(val, modes[i].name, len)) {
			enum bq_rw old = job->rw;
			int old_trim = job->trim;
			int ret;

			job->rw = modes[i].rw;
			job->trim = BQ_TRIM_NONE;
			ret = bq_job_rw_modifier(job, key, val, colon ? colon + 1 : NULL, err);
			if (ret) {
				job->rw = old;
				job->trim = old_trim;
			}
			return ret;
		}
	}
	if (bq_job_is_trim_rw(val, len))
		return bq_job_set_trim_rw(job, key, val, len, colon ? colon + 1 : NULL, err);
	return bq_parse_fail(err, -EINVAL,
			     "%s=%s: use read, write, randread, randwrite, rw, randrw, trim, "
			     "randtrim, trimwrite or randtrimwrite", key, val);
}

static int set_rwmixwrite(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v) || v > 100)
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0..100", key, val);
	job->rwmixread = 100 - (unsigned int)v;
	return 0;
}

static int set_bs(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err)
{
	char buf[VALUE_MAX], *part[BQ_NR_DIRS];
	uint32_t bs[BQ_NR_DIRS];
	int ret;

	ret = split_dirs(key, val, buf, part, err);
	if (ret)
		return ret;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (part[d] && parse_bs(key, part[d], &bs[d], err))
			return -EINVAL;
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (!part[d])
			continue;
		job->bs[d] = job->bs_min[d] = job->bs_max[d] = bs[d];
	}
	return 0;
}

static int set_bsrange(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	char buf[VALUE_MAX], *part[BQ_NR_DIRS];
	uint32_t lo[BQ_NR_DIRS], hi[BQ_NR_DIRS];
	int ret;

	ret = split_dirs(key, val, buf, part, err);
	if (ret)
		return ret;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		char *dash;

		if (!part[d])
			continue;
		/* A single range was cut up parsing reads; it is the same for writes. */
		if (d == BQ_WRITE && part[d] == part[BQ_READ]) {
			lo[d] = lo[BQ_READ];
			hi[d] = hi[BQ_READ];
			continue;
		}
		dash = strchr(part[d], '-');
		if (!dash)
			return bq_parse_fail(err, -EINVAL, "%s=%s: want MIN-MAX, like 4k-64k",
					     key, val);
		*dash = '\0';
		if (parse_bs(key, part[d], &lo[d], err) || parse_bs(key, dash + 1, &hi[d], err))
			return -EINVAL;
		if (lo[d] > hi[d])
			return bq_parse_fail(err, -EINVAL, "%s=%s: minimum is over maximum",
					     key, val);
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (!part[d])
			continue;
		job->bs_min[d] = lo[d];
		job->bs_max[d] = hi[d];
		job->bs[d] = lo[d];
	}
	return 0;
}

/*
 * One direction of a bssplit: "4k/50:64k/30:1m/".  Entries without a
 * percentage share what the others leave, equally; a remainder that does
 * not divide evenly goes one percent each to the first of them, so the
 * split always adds up to exactly 100.
 */
static int parse_bssplit(const char *key, char *s, struct bq_bssplit *split, int *nr,
			 struct bq_parse_error *err)
{
	bool has_pct[BQ_MAX_BSSPLIT];
	unsigned int sum = 0, missing = 0, share, extra;
	int n = 0;
	char *tok;

	while ((tok = strsep(&s, ":"))) {
		char *slash = strchr(tok, '/');
		uint64_t pct;

		if (n == BQ_MAX_BSSPLIT)
			return bq_parse_fail(err, -EINVAL, "%s: more than %d entries", key,
					     BQ_MAX_BSSPLIT);
		if (slash)
			*slash++ = '\0';
		if (!*tok)
			return bq_parse_fail(err, -EINVAL, "%s: an entry has no block size", key);
		if (parse_bs(key, tok, &split[n].bs, err))
			return -EINVAL;
		has_pct[n] = slash && *slash;
		if (has_pct[n]) {
			if (bq_parse_dec(slash, &pct) || pct > 100)
				return bq_parse_fail(err, -EINVAL,
						     "%s: percentage '%s' is not 0..100", key,
						     slash);
			split[n].pct = (uint32_t)pct;
			sum += (unsigned int)pct;
		} else {
			missing++;
		}
		n++;
	}
	if (sum > 100)
		return bq_parse_fail(err, -EINVAL, "%s: percentages add up to %u, over 100", key,
				     sum);
	if (!missing && sum != 100)
		return bq_parse_fail(err, -EINVAL, "%s: percentages add up to %u, not 100", key,
				     sum);
	share = missing ? (100 - sum) / missing : 0;
	extra = missing ? (100 - sum) % missing : 0;
	for (int i = 0; i < n; i++) {
		if (has_pct[i])
			continue;
		split[i].pct = share + (extra ? 1 : 0);
		if (extra)
			extra--;
	}
	*nr = n;
	return 0;
}

static int set_bssplit(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	char buf[VALUE_MAX], *part[BQ_NR_DIRS];
	struct bq_bssplit split[BQ_NR_DIRS][BQ_MAX_BSSPLIT];
	int nr[BQ_NR_DIRS] = { 0 };
	int ret;

	ret = split_dirs(key, val, buf, part, err);
	if (ret)
		return ret;
	memset(split, 0, sizeof(split));
	if (part[BQ_READ] && part[BQ_READ] == part[BQ_WRITE]) {
		ret = parse_bssplit(key, part[BQ_READ], split[BQ_READ], &nr[BQ_READ], err);
		if (ret)
			return ret;
		memcpy(split[BQ_WRITE], split[BQ_READ], sizeof(split[BQ_READ]));
		nr[BQ_WRITE] = nr[BQ_READ];
	} else {
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			if (!part[d])
				continue;
			ret = parse_bssplit(key, part[d], split[d], &nr[d], err);
			if (ret)
				return ret;
		}
	}
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		uint32_t lo = UINT32_MAX, hi = 0;

		if (!part[d])
			continue;
		memcpy(job->bssplit[d], split[d], sizeof(split[d]));
		job->nr_bssplit[d] = nr[d];
		/* Buffers and alignment are sized from these, as for a bsrange. */
		for (int i = 0; i < nr[d]; i++) {
			if (split[d][i].bs < lo)
				lo = split[d][i].bs;
			if (split[d][i].bs > hi)
				hi = split[d][i].bs;
		}
		job->bs[d] = job->bs_min[d] = lo;
		job->bs_max[d] = hi;
	}
	return 0;
}

static int set_ba(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err)
{
	uint32_t ba;

	if (strchr(val, ','))
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "%s=%s: a value per direction is not supported", key, val);
	if (parse_bs(key, val, &ba, err))
		return -EINVAL;
	job->ba = ba;
	return 0;
}

static int set_size(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	size_t len = strlen(val);
	uint64_t v;
	int ret;

	if (len && val[len - 1] == '%') {
		char num[16];

		if (len >= sizeof(num))
			return bq_parse_fail(err, -EINVAL, "%s=%s: not a percentage", key, val);
		memcpy(num, val, len - 1);
		num[len - 1] = '\0';
		if (bq_parse_dec(num, &v) || !v || v > 100)
			return bq_parse_fail(err, -EINVAL, "%s=%s: percentage must be 1..100",
					     key, val);
		job->size = 0;
		job->size_pct = (unsigned int)v;
		return 0;
	}
	ret = bq_parse_size(val, &v);
	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too big", key, val);
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 1g) or percentage",
				     key, val);
	job->size = v;
	job->size_pct = 0;
	return 0;
}

static int set_sync(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	/* As in fio: 1 and sync are O_SYNC, dsync is O_DSYNC. */
	if (!strcmp(val, "1") || !strcmp(val, "sync") || !strcmp(val, "dsync")) {
		job->sync = true;
		job->sync_data_only = !strcmp(val, "dsync");
	} else if (!strcmp(val, "0") || !strcmp(val, "none")) {
		job->sync = false;
		job->sync_data_only = false;
	} else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use 0, 1, none, sync or dsync", key,
				     val);
	return 0;
}

static int set_distribution(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err)
{
	return bq_job_set_distribution(job, key, val, err);
}

#define ENGINE_HINT "use io_uring, libaio, psync, sync, pvsync, pvsync2, sg or nop"

static int set_ioengine(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	static const char *const fio_only[] = {
		"vsync", "posixaio", "solarisaio", "windowsaio", "mmap", "splice",
		"net", "netsplice", "cpuio", "rdma", "falloc", "ftruncate", "e4defrag",
		"rbd", "rados", "http", "gfapi", "gfapi_async", "libhdfs", "mtd", "pmemblk",
		"dev-dax", "libpmem", "ime_psync", "ime_psyncv", "ime_aio", "libiscsi", "nbd",
		"nfs", "xnvme", "dfs", "filecreate", "filestat", "filedelete", "dircreate",
		"dirstat", "dirdelete", "exec", "libcufile", "guasi", "libzbc", "spdk",
		"external",
	};
	size_t len = strcspn(val, ":");

	if (!bq_engine_parse(val, &job->engine))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(fio_only); i++)
		if (strlen(fio_only[i]) == len && !strncmp(val, fio_only[i], len))
			return bq_parse_fail(err, -EOPNOTSUPP,
					     "%s=%s is not supported (" ENGINE_HINT ")", key, val);
	return bq_parse_fail(err, -EINVAL, "%s=%s: unknown engine (" ENGINE_HINT ")", key, val);
}

static int set_hipri(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	job->poll = b ? BQ_POLL_ON : BQ_POLL_AUTO;
	return 0;
}

static int set_poll(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "on"))
		job->poll = BQ_POLL_ON;
	else if (!strcmp(val, "off"))
		job->poll = BQ_POLL_OFF;
	else if (!strcmp(val, "auto"))
		job->poll = BQ_POLL_AUTO;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use on, off or auto", key, val);
	return 0;
}

static int set_cpus_allowed(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err)
{
	/* bq_cpulist_parse() accepts CPU numbers up to 65535. */
	enum { MAX_CPUS = 65536 };
	int *cpus, n;

	if (strlen(val) >= sizeof(job->cpus_allowed))
		return bq_parse_fail(err, -EINVAL, "%s: list is longer than %zu characters", key,
				     sizeof(job->cpus_allowed) - 1);
	cpus = malloc(MAX_CPUS * sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	n = bq_cpulist_parse(val, cpus, MAX_CPUS);
	free(cpus);
	if (n <= 0)
		return bq_parse_fail(err, -EINVAL,
				     "%s=%s: not an ascending CPU list, like 0-3,8", key, val);
	memset(job->cpus_allowed, 0, sizeof(job->cpus_allowed));
	bq_strlcpy(job->cpus_allowed, val, sizeof(job->cpus_allowed));
	return 0;
}

static int set_verify(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	int m = bq_verify_method_parse(val);

	if (m < 0)
		return bq_parse_fail(err, -EINVAL, "%s=%s: use 0, crc32c, crc32c-intel, "
				     "xxhash, pattern, md5, sha1, sha224, sha256, sha384, sha512, "
				     "sha3-224, sha3-256, sha3-384, sha3-512, crc64, crc32, crc16, "
				     "crc7, meta or null", key, val);
	job->verify = m;
	return 0;
}

static int set_verify_interval(const struct job_opt *o, const char *key, const char *val,
			       struct bq_job *job, struct bq_parse_error *err)
{
	uint32_t v = 0;

	if (parse_bs(key, val, &v, err))
		return -EINVAL;
	if (v % BQ_VERIFY_SECTOR)
		return bq_parse_fail(err, -EINVAL, "%s=%s is not a multiple of %u", key, val,
				     BQ_VERIFY_SECTOR);
	job->verify_interval = v;
	return 0;
}

/* fio: a pattern alone means verify=pattern. */
static int set_verify_pattern(const struct job_opt *o, const char *key, const char *val,
			      struct bq_job *job, struct bq_parse_error *err)
{
	uint8_t pat[sizeof(job->verify_pattern)];
	size_t len;
	int ret = bq_verify_parse_pattern(val, pat, sizeof(pat), &len);

	if (ret == -EOPNOTSUPP)
		return bq_parse_fail(err, ret, "%s=%s: %%o and 'file' are not supported", key, val);
	if (ret == -E2BIG)
		return bq_parse_fail(err, -EINVAL, "%s=%s is longer than %zu bytes", key, val,
				     sizeof(pat));
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: want 0xHEX, a number or \"text\"",
				     key, val);
	memset(job->verify_pattern, 0, sizeof(job->verify_pattern));
	memcpy(job->verify_pattern, pat, len);
	job->verify_pattern_len = (uint32_t)len;
	if (!job->verify)
		job->verify = BQ_VERIFY_PATTERN;
	return 0;
}

/* fio's two prefix bases; given after a size in the same section, it still applies to it. */
static int set_kb_base(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	if (strcmp(val, "1024") && strcmp(val, "1000"))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 1024 or 1000", key, val);
	job->kb_base = (unsigned int)atoi(val);
	return 0;
}

/* Bytes (8, or 0 for fio's auto) is what blkqual reports; bits (1) it cannot. */
static int set_unit_base(const struct job_opt *o, const char *key, const char *val,
			 struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "1"))
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "%s=%s: bit-based output is not supported", key, val);
	if (strcmp(val, "0") && strcmp(val, "8"))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0, 8 or 1", key, val);
	job->unit_base = (unsigned int)atoi(val);
	return 0;
}

/* Buffer contents: bufopt.c, which gives fio's callbacks' side effects too. */
static int set_buffers(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	return bq_bufopt_set(key, val, job, err);
}

/* verify_backlog=1k and verify_offset=512 take sizes, as in fio. */
static int set_u32_size(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_size(val, &v) || v > o->hi)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a number up to %llu", key, val,
				     (unsigned long long)o->hi);
	*FIELD(job, o, uint32_t) = (uint32_t)v;
	return 0;
}

/*
 * experimental_verify replays the offsets instead of recording them:
 * blkqual records every block's generation, there is nothing to replay.
 */
static int set_off_only(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	if (b)
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s is not supported: %s", key,
				     val ? val : "1",
				     "blkqual records each block's generation, it replays nothing");
	return 0;
}

/*
 * fio pins its verify_async threads here; blkqual has none (it verifies
 * in the completing thread), so the list is only checked, as fio checks it.
 */
static int set_verify_async_cpus(const struct job_opt *o, const char *key, const char *val,
				 struct bq_job *job, struct bq_parse_error *err)
{
	char keep[sizeof(job->cpus_allowed)];
	int ret;

	memcpy(keep, job->cpus_allowed, sizeof(keep));
	ret = set_cpus_allowed(o, key, val, job, err);
	memcpy(job->cpus_allowed, keep, sizeof(keep));
	return ret;
}

/* verify_offset: the header, and a digest's room, fit where they are swapped to. */
static int check_verify_opts(const struct bq_job *job, uint32_t vb, struct bq_parse_error *err)
{
	uint32_t hl;

	if (!job->verify_offset)
		return 0;
	hl = bq_vmethod_hdr_len((enum bq_verify_method)job->verify);
	if (job->verify_offset < hl || job->verify_offset > vb - hl)
		return bq_parse_fail(err, -EINVAL, "verify_offset=%u: must be from %u (verify=%s's "
				     "header) to %u (the verify block %u less the header)",
				     job->verify_offset, hl,
				     bq_verify_method_name((enum bq_verify_method)job->verify),
				     vb >= 2 * hl ? vb - hl : 0, vb);
	return 0;
}

#define NS_PER_US 1000ull
static int set_sqpoll_cpu(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v) || v >= CPU_SETSIZE)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a CPU number", key, val);
	job->sqpoll_cpu = (unsigned int)v;
	job->sqpoll_cpu_set = true;
	return 0;
}

/* fio's nonvectored: 1 (and -1, "when the kernel can") is what blkqual does anyway. */
static int set_nonvectored(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "1") || !strcmp(val, "-1"))
		job->vectored = false;
	else if (!strcmp(val, "0"))
		job->vectored = true;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be -1, 0 or 1", key, val);
	return 0;
}

/*
 * fio's clocksource: cpu (the TSC, fio's choice where it is invariant, and
 * blkqual's default), or the kernel's clock; gettimeofday is fio's
 * microsecond wall clock, for which blkqual reads CLOCK_MONOTONIC too.
 */
static int set_clocksource(const struct job_opt *o, const char *key, const char *val,
			   struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "cpu"))
		job->os_clock = false;
	else if (!strcmp(val, "clock_gettime") || !strcmp(val, "gettimeofday"))
		job->os_clock = true;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be cpu, clock_gettime or gettimeofday",
				     key, val);
	return 0;
}

static int set_cmd_type(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "nvme"))
		return 0;
	if (!strcmp(val, "bsg"))
		return bq_parse_fail(err, -EOPNOTSUPP, "cmd_type=bsg is not supported (no "
				     "io_uring passthrough of SCSI commands in this kernel's "
				     "headers): use cmd_type=nvme, or ioengine=sg");
	return bq_parse_fail(err, -EINVAL, "cmd_type=%s: must be nvme", val);
}

#define NS_PER_S 1000000000ull
/* File sets: fileset_opt.c parses them all. */
static int set_fileset(const struct job_opt *o, const char *key, const char *val,
		       struct bq_job *job, struct bq_parse_error *err)
{
	return bq_fileset_opt(key, val, job, err);
}

#define OPT(n, k, fn) { .name = (n), .kind = (k), .set = (fn) }
#define OPT_AT(n, k, fn, field, l, h) \
	{ .name = (n), .kind = (k), .set = (fn), .off = offsetof(struct bq_job, field), \
	  .lo = (l), .hi = (h) }

static const struct job_opt job_opts[] = {
	OPT("name", OPT_VALUE, set_name),
	OPT("description", OPT_VALUE, set_description),
	OPT("filename", OPT_VALUE, set_filename),
	OPT("rw", OPT_VALUE, set_rw),
	OPT("readwrite", OPT_VALUE, set_rw),
	OPT_AT("rwmixread", OPT_VALUE, set_uint, rwmixread, 0, 100),
	OPT("rwmixwrite", OPT_VALUE, set_rwmixwrite),
	OPT("bs", OPT_VALUE, set_bs),
	OPT("blocksize", OPT_VALUE, set_bs),
	OPT("bsrange", OPT_VALUE, set_bsrange),
	OPT("blocksize_range", OPT_VALUE, set_bsrange),
	OPT("bssplit", OPT_VALUE, set_bssplit),
	OPT("ba", OPT_VALUE, set_ba),
	OPT("blockalign", OPT_VALUE, set_ba),
	OPT_AT("iodepth", OPT_VALUE, set_uint, iodepth, 1, 65536),
	OPT_AT("iodepth_batch_complete_min", OPT_VALUE, set_uint, batch_complete, 1, 65536),
	OPT_AT("iodepth_batch_complete", OPT_VALUE, set_uint, batch_complete, 1, 65536),
	OPT_AT("numjobs", OPT_VALUE, set_uint, numjobs, 1, 4096),
	OPT("size", OPT_VALUE, set_size),
	OPT("offset", OPT_VALUE, bq_set_offset),
	OPT_AT("io_size", OPT_VALUE, set_bytes, io_size, 0, 0),
	OPT_AT("io_limit", OPT_VALUE, set_bytes, io_size, 0, 0),
	OPT_AT("runtime", OPT_VALUE, set_time, runtime_ns, NS_PER_S, 0),
	OPT_AT("timeout", OPT_VALUE, set_time, runtime_ns, NS_PER_S, 0),
	OPT_AT("time_based", OPT_FLAG, set_bool, time_based, 0, 0),
	OPT_AT("ramp_time", OPT_VALUE, set_time, ramp_ns, NS_PER_S, 0),
	OPT("startdelay", OPT_VALUE, bq_opt_set_startdelay),
	OPT_AT("thinktime", OPT_VALUE, set_time, thinktime_ns, NS_PER_US, 0),
	OPT_AT("direct", OPT_VALUE, set_bool, direct, 0, 0),
	OPT("buffered", OPT_VALUE, set_buffered),
	OPT_AT("invalidate", OPT_VALUE, set_bool, invalidate, 0, 0),
	OPT("sync", OPT_VALUE, set_sync),
	OPT_AT("fsync", OPT_VALUE, set_uint, fsync_every, 0, UINT32_MAX),
	OPT_AT("randrepeat", OPT_VALUE, set_bool, randrepeat, 0, 0),
	OPT_AT("randseed", OPT_VALUE, set_u64, randseed, 0, 0),
	OPT_AT("norandommap", OPT_FLAG, set_norandommap, norandommap, 0, 0),
	OPT("random_distribution", OPT_VALUE, set_distribution),
	OPT("rate_iops", OPT_VALUE, bq_job_set_rates),
	OPT_AT("group_reporting", OPT_FLAG, set_bool, group_reporting, 0, 0),
	OPT("ioengine", OPT_VALUE, set_ioengine),
	OPT("hipri", OPT_FLAG, set_hipri),
	OPT("poll", OPT_VALUE, set_poll),
	OPT_AT("fixedbufs", OPT_FLAG, set_bool, fixedbufs, 0, 0),
	OPT_AT("registerfiles", OPT_FLAG, set_bool, registerfiles, 0, 0),
	OPT_AT("sqthread_poll", OPT_FLAG, set_bool, sqpoll, 0, 0),
	OPT("sqthread_poll_cpu", OPT_VALUE, set_sqpoll_cpu),
	OPT_AT("force_async", OPT_VALUE, set_uint, force_async, 0, UINT32_MAX),
	OPT("nonvectored", OPT_VALUE, set_nonvectored),
	OPT("cmd_type", OPT_VALUE, set_cmd_type),
	OPT_AT("readfua", OPT_FLAG, set_bool, fua[BQ_READ], 0, 0),
	OPT_AT("writefua", OPT_FLAG, set_bool, fua[BQ_WRITE], 0, 0),
	OPT_AT("gtod_reduce", OPT_VALUE, set_bool, gtod_reduce, 0, 0),
	OPT("clocksource", OPT_VALUE, set_clocksource),
	OPT("cpus_allowed", OPT_VALUE, set_cpus_allowed),
	OPT("continue_on_error", OPT_VALUE, bq_set_continue_on_error),
	OPT_AT("stall_timeout", OPT_VALUE, set_time, stall_timeout_ns, NS_PER_S, 0),
	/* blkqual always runs jobs as threads. */
	OPT("thread", OPT_FLAG, set_ignored),
	/*
	 * fio registers its tiobench profile's "threads" for every job, where
	 * it does nothing; fio's own steadystate.fio and waitfor.fio set it.
	 */
	OPT("threads", OPT_VALUE, set_ignored),
	OPT("verify", OPT_VALUE, set_verify),
	OPT_AT("do_verify", OPT_FLAG, set_bool, do_verify, 0, 0),
	OPT("verify_interval", OPT_VALUE, set_verify_interval),
	OPT("verify_pattern", OPT_VALUE, set_verify_pattern),
	OPT_AT("verify_fatal", OPT_FLAG, set_bool, verify_fatal, 0, 0),
	OPT_AT("verify_only", OPT_FLAG, set_bool, verify_only, 0, 0),
	/* job files as vendors write them (issue 19): read first in a section, as in fio */
	OPT("kb_base", OPT_VALUE, set_kb_base),
	OPT("unit_base", OPT_VALUE, set_unit_base),
	/* the synchronous engines and the sync-family file options (issue 19) */
	OPT_AT("fdatasync", OPT_VALUE, set_uint, fdatasync_every, 0, UINT32_MAX),
	OPT_AT("end_fsync", OPT_VALUE, set_bool, end_fsync, 0, 0),
	OPT_AT("fsync_on_close", OPT_VALUE, set_bool, fsync_on_close, 0, 0),
	OPT_AT("write_barrier", OPT_VALUE, set_uint, write_barrier, 0, UINT32_MAX),
	OPT_AT("hipri_percentage", OPT_VALUE, set_uint, hipri_percentage, 0, 100),
	OPT_AT("uncached", OPT_VALUE, set_uint, uncached, 0, UINT32_MAX),
	OPT_AT("nowait", OPT_VALUE, set_bool, nowait, 0, 0),
	OPT_AT("atomic", OPT_FLAG, set_bool, atomic, 0, 0),
	/* buffer contents (issue 19): bufopt.c */
	OPT("zero_buffers", OPT_FLAG, set_buffers),
	OPT("refill_buffers", OPT_FLAG, set_buffers),
	OPT("scramble_buffers", OPT_FLAG, set_buffers),
	OPT("buffer_pattern", OPT_VALUE, set_buffers),
	OPT("buffer_compress_percentage", OPT_VALUE, set_buffers),
	OPT("buffer_compress_chunk", OPT_VALUE, set_buffers),
	OPT("dedupe_percentage", OPT_VALUE, set_buffers),
	OPT("dedupe_mode", OPT_VALUE, set_buffers),
	OPT("dedupe_working_set_percentage", OPT_VALUE, set_buffers),
	OPT("dedupe_global", OPT_FLAG, set_buffers),
	/* verify methods and options (issue 19, the digest family) */
	OPT_AT("verify_backlog", OPT_VALUE, set_u32_size, verify_backlog, 0, UINT32_MAX),
	OPT_AT("verify_backlog_batch", OPT_VALUE, set_uint, verify_backlog_batch, 0, UINT32_MAX),
	OPT_AT("verify_offset", OPT_VALUE, set_u32_size, verify_offset, 0, UINT32_MAX),
	OPT_AT("verify_async", OPT_VALUE, set_uint, verify_async, 0, UINT32_MAX),
	OPT("verify_async_cpus", OPT_VALUE, set_verify_async_cpus),
	OPT_AT("verify_header_seed", OPT_FLAG, set_bool, verify_header_seed, 0, 0),
	OPT_AT("verify_write_sequence", OPT_FLAG, set_bool, verify_write_sequence, 0, 0),
	OPT("experimental_verify", OPT_FLAG, set_off_only),
	/* file sets: implicit filenames, their layout and service (issue 19) */
	OPT("directory", OPT_VALUE, set_fileset),
	OPT("filename_format", OPT_VALUE, set_fileset),
	OPT("unique_filename", OPT_FLAG, set_fileset),
	OPT("nrfiles", OPT_VALUE, set_fileset),
	OPT("nr_files", OPT_VALUE, set_fileset),
	OPT("filesize", OPT_VALUE, set_fileset),
	OPT("openfiles", OPT_VALUE, set_fileset),
	OPT("file_service_type", OPT_VALUE, set_fileset),
	OPT("create_on_open", OPT_FLAG, set_fileset),
	OPT("create_only", OPT_FLAG, set_fileset),
	OPT("allow_file_create", OPT_FLAG, set_fileset),
	OPT("overwrite", OPT_FLAG, set_fileset),
	OPT("fallocate", OPT_VALUE, set_fileset),
	OPT("pre_read", OPT_FLAG, set_fileset),
	OPT("unlink", OPT_FLAG, set_fileset),
	OPT("unlink_each_loop", OPT_FLAG, set_fileset),
	OPT("create_fsync", OPT_FLAG, set_fileset),
	OPT("create_serialize", OPT_FLAG, set_fileset),
	OPT("file_append", OPT_FLAG, set_fileset),
	/* I/O patterns family (issue 19); parsers in jobopt_patterns.c */
	OPT("rw_sequencer", OPT_VALUE, bq_set_rw_sequencer),
	OPT("percentage_random", OPT_VALUE, bq_set_percentage_random),
	OPT("random_generator", OPT_VALUE, bq_set_random_generator),
	OPT_AT("allrandrepeat", OPT_FLAG, set_bool, allrandrepeat, 0, 0),
	OPT_AT("softrandommap", OPT_FLAG, set_bool, softrandommap, 0, 0),
	OPT("zonemode", OPT_VALUE, bq_set_zonemode),
	OPT("zonesize", OPT_VALUE, bq_set_zone_bytes),
	OPT("zonerange", OPT_VALUE, bq_set_zone_bytes),
	OPT("zoneskip", OPT_VALUE, bq_set_zone_bytes),
	OPT("offset_increment", OPT_VALUE, bq_set_offset_increment),
	OPT("offset_align", OPT_VALUE, bq_set_size_u64),
	OPT("number_ios", OPT_VALUE, bq_set_number_ios),
	OPT_AT("bs_is_seq_rand", OPT_FLAG, set_bool, bs_is_seq_rand, 0, 0),
	OPT("bs_unaligned", OPT_FLAG, bq_set_bs_unaligned),
	OPT("blocksize_unaligned", OPT_FLAG, bq_set_bs_unaligned),
	OPT("unified_rw_reporting", OPT_VALUE, bq_set_unified_rw_reporting),
	/* rates, thinktime and latency targets (issue 19; jobopt_rates.c) */
	OPT("rate", OPT_VALUE, bq_job_set_rates),
	OPT("rate_min", OPT_VALUE, bq_job_set_rates),
	OPT("ratemin", OPT_VALUE, bq_job_set_rates),
	OPT("rate_iops_min", OPT_VALUE, bq_job_set_rates),
	OPT("rate_cycle", OPT_VALUE, bq_job_set_rates),
	OPT("ratecycle", OPT_VALUE, bq_job_set_rates),
	OPT("rate_process", OPT_VALUE, bq_job_set_rates),
	OPT("rate_ignore_thinktime", OPT_FLAG, bq_job_set_rates),
	OPT("thinktime_spin", OPT_VALUE, bq_job_set_rates),
	OPT("thinktime_blocks", OPT_VALUE, bq_job_set_rates),
	OPT("thinktime_blocks_type", OPT_VALUE, bq_job_set_rates),
	OPT("thinktime_iotime", OPT_VALUE, bq_job_set_rates),
	OPT("max_latency", OPT_VALUE, bq_job_set_rates),
	OPT("latency_target", OPT_VALUE, bq_job_set_rates),
	OPT("latency_window", OPT_VALUE, bq_job_set_rates),
	OPT("latency_percentile", OPT_VALUE, bq_job_set_rates),
	OPT("latency_run", OPT_FLAG, bq_job_set_rates),
	OPT("steadystate", OPT_VALUE, bq_job_set_rates),
	OPT("ss", OPT_VALUE, bq_job_set_rates),
	OPT("steadystate_duration", OPT_VALUE, bq_job_set_rates),
	OPT("ss_dur", OPT_VALUE, bq_job_set_rates),
	OPT("steadystate_ramp_time", OPT_VALUE, bq_job_set_rates),
	OPT("ss_ramp", OPT_VALUE, bq_job_set_rates),
	OPT("steadystate_check_interval", OPT_VALUE, bq_job_set_rates),
	OPT("ss_interval", OPT_VALUE, bq_job_set_rates),
	/* job ordering and groups (issue 19) */
	OPT_AT("stonewall", OPT_FLAG, set_bool, stonewall, 0, 0),
	OPT_AT("wait_for_previous", OPT_FLAG, set_bool, stonewall, 0, 0),
	OPT_AT("new_group", OPT_FLAG, set_bool, new_group, 0, 0),
	OPT("wait_for", OPT_VALUE, bq_opt_set_wait_for),
	OPT("loops", OPT_VALUE, bq_opt_set_loops),
	OPT_AT("exitall", OPT_FLAG, set_bool, exitall, 0, 0),
	OPT("exit_what", OPT_VALUE, bq_opt_set_exit_what),
	OPT_AT("exitall_on_error", OPT_FLAG, set_bool, exitall_on_error, 0, 0),
	/* I/O logs and trace replay (issue 19; jobopt_iolog.c, lib/io/iolog*.c) */
	OPT("read_iolog", OPT_VALUE, bq_iolog_opt_set),
	OPT("write_iolog", OPT_VALUE, bq_iolog_opt_set),
	OPT("read_iolog_chunked", OPT_FLAG, bq_iolog_opt_set),
	OPT("replay_no_stall", OPT_FLAG, bq_iolog_opt_set),
	OPT("replay_redirect", OPT_VALUE, bq_iolog_opt_set),
	OPT("replay_align", OPT_VALUE, bq_iolog_opt_set),
	OPT("replay_scale", OPT_VALUE, bq_iolog_opt_set),
	OPT("replay_time_scale", OPT_VALUE, bq_iolog_opt_set),
	OPT("replay_skip", OPT_VALUE, bq_iolog_opt_set),
	OPT("merge_blktrace_file", OPT_VALUE, bq_iolog_opt_set),
	OPT("merge_blktrace_scalars", OPT_VALUE, bq_iolog_opt_set),
	OPT("merge_blktrace_iters", OPT_VALUE, bq_iolog_opt_set),
	/* zoned block devices, zonemode=zbd (issue 19; jobopt_zbd.c) */
	OPT("max_open_zones", OPT_VALUE, bq_job_set_zbd),
	OPT("job_max_open_zones", OPT_VALUE, bq_job_set_zbd),
	OPT("zonecapacity", OPT_VALUE, bq_job_set_zbd),
	OPT("read_beyond_wp", OPT_FLAG, bq_job_set_zbd),
	OPT("ignore_zone_limits", OPT_FLAG, bq_job_set_zbd),
	OPT("zone_reset_threshold", OPT_VALUE, bq_job_set_zbd),
	OPT("zone_reset_frequency", OPT_VALUE, bq_job_set_zbd),
	/* SCSI through fio's sg engine (issue 19; jobopt_sg.c) */
	OPT("sg_write_mode", OPT_VALUE, bq_set_sg_write_mode),
	/* queueing, priorities and placement (issue 19; lib/job/jobopt_queue.c) */
	OPT_AT("iodepth_batch", OPT_VALUE, set_uint, iodepth_batch, 0, 65536),
	OPT_AT("iodepth_batch_submit", OPT_VALUE, set_uint, iodepth_batch, 0, 65536),
	OPT_AT("iodepth_batch_complete_max", OPT_VALUE, set_uint, batch_complete_max, 0, 65536),
	OPT_AT("iodepth_low", OPT_VALUE, set_uint, iodepth_low, 0, 65536),
	OPT_AT("serialize_overlap", OPT_FLAG, set_bool, serialize_overlap, 0, 0),
	OPT("io_submit_mode", OPT_VALUE, bq_opt_set_submit_mode),
	OPT("prio", OPT_VALUE, bq_opt_set_ioprio),
	OPT("prioclass", OPT_VALUE, bq_opt_set_ioprio),
	OPT("cmdprio_percentage", OPT_VALUE, bq_opt_set_cmdprio),
	OPT("cmdprio_class", OPT_VALUE, bq_opt_set_cmdprio),
	OPT("cmdprio", OPT_VALUE, bq_opt_set_cmdprio),
	OPT("cpumask", OPT_VALUE, bq_opt_set_cpumask),
	OPT("cpus_allowed_policy", OPT_VALUE, bq_opt_set_cpus_policy),
	OPT("numa_cpu_nodes", OPT_VALUE, bq_opt_set_numa),
	OPT("numa_mem_policy", OPT_VALUE, bq_opt_set_numa),
	OPT_AT("flow_id", OPT_VALUE, set_uint, flow_id, 0, UINT32_MAX),
	OPT_AT("flow", OPT_VALUE, set_uint, flow, 0, UINT32_MAX),
	OPT("flow_sleep", OPT_VALUE, bq_opt_set_flow_sleep),
	OPT("flow_watermark", OPT_VALUE, bq_opt_set_flow_sleep),
	/* error filters and verify dumps (issue 19; lib/job/errfilter_opt.c) */
	OPT("ignore_error", OPT_VALUE, bq_set_ignore_error),
	OPT_AT("error_dump", OPT_FLAG, set_bool, error_dump, 0, 0),
	OPT_AT("verify_dump", OPT_FLAG, set_bool, verify_dump, 0, 0),
	/* per-I/O log files (issues 19, 20; lib/job/jobopt_logs.c, lib/io/statlog.c) */
	OPT("write_lat_log", OPT_FLAG, bq_opt_set_statlog),
	OPT("write_bw_log", OPT_FLAG, bq_opt_set_statlog),
	OPT("write_iops_log", OPT_FLAG, bq_opt_set_statlog),
	OPT("write_hist_log", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_hist_msec", OPT_VALUE, bq_opt_set_statlog),
	OPT("log_hist_coarseness", OPT_VALUE, bq_opt_set_statlog),
	OPT("log_avg_msec", OPT_VALUE, bq_opt_set_statlog),
	OPT("log_max_value", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_offset", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_prio", OPT_FLAG, bq_opt_set_statlog),
	OPT("per_job_logs", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_unix_epoch", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_alternate_epoch", OPT_FLAG, bq_opt_set_statlog),
	OPT("log_alternate_epoch_clock_id", OPT_VALUE, bq_opt_set_statlog),
	OPT("log_entries", OPT_VALUE, bq_opt_set_statlog),
	OPT("cmdprio_bssplit", OPT_VALUE, bq_opt_set_cmdprio_bssplit),
	/* io_uring_cmd NVMe extras (issue 19; lib/job/jobopt_nvme.c) */
	OPT("write_mode", OPT_VALUE, bq_job_set_write_mode),
	OPT_AT("deac", OPT_FLAG, set_bool, nvme_deac, 0, 0),
	OPT_AT("num_range", OPT_VALUE, set_uint, num_range, 0, BQ_NVME_MAX_DSM_RANGES),
	/* fill_device, trim rates, offload submission (issue 19; jobopt_fill.c, io/fill.c) */
	OPT_AT("fill_device", OPT_FLAG, set_bool, fill_device, 0, 0),
	OPT_AT("fill_fs", OPT_FLAG, set_bool, fill_device, 0, 0),
	/* sequence distribution and SPRandom (issue 19; jobopt_sprandom.c, io/sprandom.c) */
	OPT_AT("random_sequence_stride", OPT_VALUE, set_bool, dist_seq_stride, 0, 0),
	OPT_AT("sprandom", OPT_VALUE, set_bool, sprandom, 0, 0),
	OPT_AT("spr_num_regions", OPT_VALUE, set_uint, spr_num_regions, 1, UINT32_MAX),
	OPT("spr_op", OPT_VALUE, bq_job_set_spr_op),
	OPT_AT("spr_cs", OPT_VALUE, set_bytes, spr_cs, 0, 0),
	/* fio's percentile options (issue 20; lib/job/jobopt_stats.c) */
	OPT("percentile_list", OPT_VALUE, bq_opt_set_stats),
	OPT("clat_percentiles", OPT_FLAG, bq_opt_set_stats),
	OPT("lat_percentiles", OPT_FLAG, bq_opt_set_stats),
	OPT("significant_figures", OPT_VALUE, bq_opt_set_stats),
	/* I/O priority hints (issue 19; jobopt_queue.c, io/ioprio.c, io/queue.c) */
	OPT("priohint", OPT_VALUE, bq_opt_set_ioprio),
	OPT("cmdprio_hint", OPT_VALUE, bq_opt_set_cmdprio),
	/* opendir= (issue 19; jobopt_opendir.c, walked in jobfile.c's finish_job()) */
	OPT("opendir", OPT_VALUE, bq_opt_set_opendir),
	/* trimming verified blocks (issue 19; lib/verify/verify_trim.c) */
	OPT_AT("trim_percentage", OPT_VALUE, set_uint, trim_percentage, 0, 100),
	OPT_AT("trim_verify_zero", OPT_FLAG, set_bool, trim_verify_zero, 0, 0),
	OPT_AT("trim_backlog", OPT_VALUE, set_uint, trim_backlog, 0, UINT32_MAX),
	OPT_AT("trim_backlog_batch", OPT_VALUE, set_uint, trim_backlog_batch, 0, UINT32_MAX),
	/* NVMe protection information (issue 19; lib/job/jobopt_nvme.c) */
	OPT_AT("md_per_io_size", OPT_VALUE, set_uint, nvme_md_per_io, 0, 1u << 30),
	OPT_AT("pi_act", OPT_FLAG, set_bool, nvme_pi_act, 0, 0),
	OPT("pi_chk", OPT_VALUE, bq_job_set_pi_chk),
	OPT("apptag", OPT_VALUE, bq_job_set_apptag),
	OPT("apptag_mask", OPT_VALUE, bq_job_set_apptag),
	/* NVMe data placement (issue 19; lib/job/jobopt_dp.c) */
	OPT_AT("fdp", OPT_FLAG, set_bool, dp_fdp, 0, 0),
	OPT("dataplacement", OPT_VALUE, bq_job_set_dp),
	OPT("data_placement", OPT_VALUE, bq_job_set_dp),
	OPT("plid_select", OPT_VALUE, bq_job_set_dp),
	OPT("fdp_pli_select", OPT_VALUE, bq_job_set_dp),
	OPT("plids", OPT_VALUE, bq_job_set_dp),
	OPT("fdp_pli", OPT_VALUE, bq_job_set_dp),
	OPT("dp_scheme", OPT_VALUE, bq_job_set_dp),
};

static const struct job_opt *find_opt(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(job_opts); i++)
		if (!strcmp(job_opts[i].name, key))
			return &job_opts[i];
	return NULL;
}

bool bq_job_opt_takes_value(const char *key)
{
	const struct job_opt *o = find_opt(key);

	return o && o->kind == OPT_VALUE;
}

/* The supported name a typo most likely meant, or NULL. */
static const char *suggest(const char *key)
{
	const char *names[ARRAY_SIZE(job_opts)];
	const char *pick;

	for (size_t i = 0; i < ARRAY_SIZE(job_opts); i++)
		names[i] = job_opts[i].name;
	pick = bq_suggest(key, names, ARRAY_SIZE(names));
	if (pick)
		return pick;
	/* A cut-off name ("iodep") is as clear a hint as a typo. */
	for (size_t i = 0; strlen(key) >= 3 && i < ARRAY_SIZE(job_opts); i++)
		if (!strncmp(job_opts[i].name, key, strlen(key)))
			return job_opts[i].name;
	return NULL;
}

/**
 * bq_job_defaults() - a job with fio's defaults
 * @job: filled in; owns no filenames yet
 */
void bq_job_defaults(struct bq_job *job)
{
	/* Zero padding and unused bytes as well, so jobs compare with memcmp(). */
	memset(job, 0, sizeof(*job));
	bq_strlcpy(job->name, "job", sizeof(job->name));
	job->rw = BQ_RW_READ;
	job->rwmixread = 50;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		job->bs[d] = job->bs_min[d] = job->bs_max[d] = 4096;
	job->iodepth = 1;
	job->numjobs = 1;
	job->randrepeat = true;
	job->randseed = 0x89;		/* fio's default: its seeds are fio's (fiorand.c) */
	job->invalidate = true;
	job->dist = BQ_DIST_RANDOM;
	bq_sprandom_defaults(job);
	job->engine = BQ_ENGINE_IO_URING;
	job->poll = BQ_POLL_AUTO;
	job->fixedbufs = true;
	job->registerfiles = true;
	job->do_verify = true;
	job->verify_header_seed = true;
	job->verify_write_sequence = true;
	job->trim_verify_zero = true;
	job->stall_timeout_ns = 30 * NS_PER_S;
	job->hipri_percentage = 100;
	job->nvme_pi_act = true;
	job->nvme_apptag = 0x1234;
	job->nvme_apptag_mask = 0xffff;
	bq_bufopt_defaults(job);
	bq_fileset_defaults(job);
	bq_job_rates_defaults(job);
	bq_iolog_defaults(job);
}

/**
 * bq_job_copy() - deep copy of a job
 * @dst: receives the copy
 * @src: the job
 *
 * Return: 0 or -ENOMEM.
 */
int bq_job_copy(struct bq_job *dst, const struct bq_job *src)
{
	memcpy(dst, src, sizeof(*dst));
	for (int i = 0; i < src->nr_files; i++) {
		dst->filenames[i] = strdup(src->filenames[i]);
		if (!dst->filenames[i]) {
			free_names(dst->filenames, i);
			dst->nr_files = 0;
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * bq_job_release() - free a job's filenames
 * @job: the job
 */
void bq_job_release(struct bq_job *job)
{
	free_names(job->filenames, job->nr_files);
	job->nr_files = 0;
}

/* What a number means in @o's value, or -1 for an option that takes no number. */
static int expr_kind(const struct job_opt *o)
{
	if (o->set == set_time)
		return o->lo == NS_PER_S ? BQ_EXPR_SECONDS : BQ_EXPR_USECS;
	if (o->set == set_uint || o->set == set_u64 || o->set == set_bytes ||
	    o->set == set_size || o->set == set_bs || o->set == set_ba ||
	    o->set == set_verify_interval)
		return BQ_EXPR_BYTES;
	return -1;
}

/*
 * @o's setter with fio's "(...)" expressions computed and the job's
 * kb_base in force for every size the setter reads.
 */
static int set_expanded(const struct job_opt *o, const char *key, const char *value,
			struct bq_job *job, struct bq_parse_error *err)
{
	int kind = expr_kind(o);
	unsigned int old_base;
	char *plain = NULL;
	int ret;

	if (kind >= 0) {
		ret = bq_expand_paren(key, value, (enum bq_expr_kind)kind, &plain, err);
		if (ret)
			return ret;
	}
	/* fio's N zones ("524z") for the options that take them (jobopt_zbd.c). */
	ret = bq_job_set_zone_units(key, plain ? plain : value, job, err);
	if (ret != -ENOENT) {
		free(plain);
		return ret;
	}
	old_base = bq_units_job_kb_base(job->kb_base ? job->kb_base : 1024);
	ret = o->set(o, key, plain ? plain : value, job, err);
	bq_units_job_kb_base(old_base);
	free(plain);
	return ret;
}

/*
 * fio's JSON lists the options a job was given, as given: kept as
 * "key=value" lines; what does not fit is left out of that list only.
 * fio leaves out a bare flag (no value) there; it is kept as "key".
 */
static void note_given(struct bq_job *job, const char *key, const char *value)
{
	size_t used = strnlen(job->fio_given, sizeof(job->fio_given));

	if (used + strlen(key) + (value ? strlen(value) : 0) + 3 > sizeof(job->fio_given))
		return;
	/* A bare flag is a line without '=': fio's JSON skips it, --showcmd does not. */
	snprintf(job->fio_given + used, sizeof(job->fio_given) - used, value ? "%s=%s\n" : "%s\n",
		 key, value ? value : "");
}

/**
 * bq_job_set() - set one option by its fio name
 * @job: the job, unchanged on failure
 * @key: option name
 * @value: its value, or NULL for a flag given bare
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL, -ENOENT, -EOPNOTSUPP or -ENOMEM.
 */
int bq_job_set(struct bq_job *job, const char *key, const char *value,
	       struct bq_parse_error *err)
{
	const struct job_opt *o;
	const char *hint, *why;

	if (!key)
		return bq_parse_fail(err, -EINVAL, "option without a name");
	o = find_opt(key);
	if (o) {
		int ret;

		if (!value && o->kind == OPT_VALUE)
			return bq_parse_fail(err, -EINVAL, "%s needs a value", key);
		ret = set_expanded(o, key, value, job, err);
		if (!ret)
			note_given(job, key, value);
		return ret;
	}
	why = bq_job_opt_refusal(key);
	if (why)
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "fio option '%s' is not supported by blkqual: %s", key, why);
	hint = suggest(key);
	if (hint)
		return bq_parse_fail(err, -ENOENT, "unknown option '%s' (did you mean '%s'?)",
				     key, hint);
	return bq_parse_fail(err, -ENOENT, "unknown option '%s'", key);
}

static int check_dir(const struct bq_job *job, int d, struct bq_parse_error *err)
{
	const char *dir = d == BQ_READ ? "reads" : "writes";
	unsigned int sum = 0;

	if (job->bs[d] < BS_MIN || job->bs[d] > BS_MAX)
		return bq_parse_fail(err, -EINVAL, "bs %u for %s is outside 512..1g",
				     job->bs[d], dir);
	if (job->bs_min[d] < BS_MIN || job->bs_max[d] > BS_MAX)
		return bq_parse_fail(err, -EINVAL, "bsrange for %s is outside 512..1g", dir);
	if (job->bs_min[d] > job->bs_max[d])
		return bq_parse_fail(err, -EINVAL, "bsrange for %s: minimum %u is over maximum %u",
				     dir, job->bs_min[d], job->bs_max[d]);
	if (job->nr_bssplit[d] < 0 || job->nr_bssplit[d] > BQ_MAX_BSSPLIT)
		return bq_parse_fail(err, -EINVAL, "bssplit for %s has %d entries", dir,
				     job->nr_bssplit[d]);
	for (int i = 0; i < job->nr_bssplit[d]; i++) {
		const struct bq_bssplit *e = &job->bssplit[d][i];

		if (e->bs < BS_MIN || e->bs > BS_MAX)
			return bq_parse_fail(err, -EINVAL, "bssplit for %s: bs %u not in 512..1g",
					     dir, e->bs);
		sum += e->pct;
	}
	if (job->nr_bssplit[d] && sum != 100)
		return bq_parse_fail(err, -EINVAL, "bssplit for %s adds up to %u%%, not 100%%",
				     dir, sum);
	return 0;
}

/* Every I/O must cover whole verified blocks, at their boundaries. */
static int check_verify(const struct bq_job *job, struct bq_parse_error *err)
{
	uint32_t vb;

	if (!job->verify)
		return 0;
	if (bq_engine_has(job->engine, BQ_ENGINE_DISKLESS))
		return bq_parse_fail(err, -EINVAL, "verify needs a target; ioengine=nop has none");
	if (job->nr_files > 1)
		return bq_parse_fail(err, -EINVAL, "verify works on one filename per job");
	/* fio checks the pattern after meta's header too (fill family, issue 19). */
	if (job->verify_pattern_len && job->verify != BQ_VERIFY_PATTERN &&
	    job->verify != BQ_VERIFY_META)
		return bq_parse_fail(err, -EINVAL, "verify_pattern needs verify=pattern or meta");
	vb = bq_job_verify_block(job);
	if (vb < BQ_VERIFY_SECTOR || vb % BQ_VERIFY_SECTOR)
		return bq_parse_fail(err, -EINVAL, "verify block %u is not a multiple of %u", vb,
				     BQ_VERIFY_SECTOR);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		uint32_t bad = job->bs[d] % vb ? job->bs[d] : job->bs_min[d] % vb ?
			       job->bs_min[d] : 0;

		for (int i = 0; !bad && i < job->nr_bssplit[d]; i++)
			if (job->bssplit[d][i].bs % vb)
				bad = job->bssplit[d][i].bs;
		if (bad)
			return bq_parse_fail(err, -EINVAL, "verify: block size %u is not a multiple "
					     "of the verify block %u (set verify_interval)", bad, vb);
	}
	if (job->ba % vb || job->io_size % vb)
		return bq_parse_fail(err, -EINVAL, "verify: ba and io_size must be "
				     "multiples of the verify block %u", vb);
	if ((uint64_t)job->iodepth * job->numjobs > 65535)
		return bq_parse_fail(err, -EINVAL, "verify: at most 65535 I/Os in flight per job "
				     "(iodepth x numjobs)");
	return check_verify_opts(job, vb, err);
}

/* Each option family's own rules, in the order their refusals are reported. */
static int (*const family_checks[])(const struct bq_job *, struct bq_parse_error *) = {
	bq_job_check_sync, bq_job_check_sg, bq_job_check_queue, bq_fileset_check,
	bq_job_check_patterns, bq_job_check_rates, bq_job_check_zbd, check_verify,
	bq_job_check_trim, bq_bufopt_check, bq_job_check_statlog, bq_job_check_nvme,
	bq_job_check_fill, bq_job_check_sprandom, bq_job_check_dp,
};

/**
 * bq_job_check() - the whole job is consistent
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_check(const struct bq_job *job, struct bq_parse_error *err)
{
	int ret;

	/* The nop engine measures the tool itself: it needs no target. */
	if (job->nr_files > BQ_MAX_FILES)
		return bq_parse_fail(err, -EINVAL, "more than %d filenames", BQ_MAX_FILES);
	for (int i = 0; i < job->nr_files; i++)
		if (!job->filenames[i] || !*job->filenames[i])
			return bq_parse_fail(err, -EINVAL, "filename %d is empty", i + 1);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		ret = check_dir(job, d, err);
		if (ret)
			return ret;
	}
	if (job->ba > BS_MAX)
		return bq_parse_fail(err, -EINVAL, "ba %u is over 1g", job->ba);
	if (job->rwmixread > 100)
		return bq_parse_fail(err, -EINVAL, "rwmixread %u is over 100", job->rwmixread);
	if (job->iodepth < 1 || job->iodepth > 65536)
		return bq_parse_fail(err, -EINVAL, "iodepth %u is outside 1..65536",
				     job->iodepth);
	if (job->numjobs < 1 || job->numjobs > BQ_MAX_THREADS)
		return bq_parse_fail(err, -EINVAL, "numjobs %u is outside 1..%d",
				     job->numjobs, BQ_MAX_THREADS);
	/* Refused here rather than by io_uring_setup()'s bare EINVAL later. */
	if (bq_engine_has(job->engine, BQ_ENGINE_RING) && job->iodepth > BQ_URING_MAX_DEPTH)
		return bq_parse_fail(err, -EINVAL, "iodepth %u is over io_uring's ring limit "
				     "of %d", job->iodepth, BQ_URING_MAX_DEPTH);
	/* Other engines would ignore it, and the report would claim an SQ thread. */
	if (job->sqpoll && !bq_engine_has(job->engine, BQ_ENGINE_RING))
		return bq_parse_fail(err, -EINVAL, "sqthread_poll needs ioengine=io_uring");
	/* fio has these only for its io_uring engines: elsewhere they would do nothing. */
	if ((job->force_async || job->vectored) && !bq_engine_has(job->engine, BQ_ENGINE_RING))
		return bq_parse_fail(err, -EINVAL, "%s needs ioengine=io_uring or io_uring_cmd",
				     job->force_async ? "force_async" : "nonvectored=0");
	if ((job->fua[BQ_READ] || job->fua[BQ_WRITE]) &&
	    !bq_engine_has(job->engine, BQ_ENGINE_PASSTHRU) && job->engine != BQ_ENGINE_SG)
		return bq_parse_fail(err, -EINVAL, "%s needs ioengine=io_uring_cmd or sg",
				     job->fua[BQ_READ] ? "readfua" : "writefua");
	if (job->size_pct > 100)
		return bq_parse_fail(err, -EINVAL, "size %u%% is over 100%%", job->size_pct);
	if (job->time_based && !job->runtime_ns)
		return bq_parse_fail(err, -EINVAL, "time_based needs runtime");
	for (size_t i = 0; i < ARRAY_SIZE(family_checks); i++) {
		ret = family_checks[i](job, err);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * bq_job_opt_each() - every fio option name blkqual knows, and its status
 * @fn: gets the name, NULL for a supported option or the reason it is
 *      refused, and @arg; a non-zero return stops the walk
 * @arg: passed through
 *
 * Supported names come first, in the option table's order, then the
 * refused ones by group.
 *
 * Return: what @fn returned last.
 */
int bq_job_opt_each(int (*fn)(const char *name, const char *refused, void *arg), void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(job_opts) && !ret; i++)
		ret = fn(job_opts[i].name, NULL, arg);
	return ret ? ret : bq_job_refused_each(fn, arg);
}
