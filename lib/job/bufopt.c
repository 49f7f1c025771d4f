// SPDX-License-Identifier: GPL-2.0-only
/*
 * bufopt.c - the job options that say what writes carry: zero_buffers,
 * refill_buffers, scramble_buffers, buffer_pattern,
 * buffer_compress_percentage, buffer_compress_chunk, dedupe_percentage,
 * dedupe_mode, dedupe_working_set_percentage, dedupe_global
 *
 * fio's option callbacks have side effects that depend on the order of
 * the options in the job (buffer_pattern turns zero_buffers and
 * scramble_buffers off, and sets refill_buffers from whether the job
 * reads or compresses so far); they are reproduced here as they are, so
 * that a job file means what it means to fio.  What the options add up
 * to for each write is lib/io/buffers.c's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufopt.h"
#include "internal.h"
#include "jobopt.h"
#include "verify/verify_int.h"

#define COMPRESS_CHUNK_DEFAULT	512
#define DEDUPE_WS_DEFAULT	5

void bq_bufopt_defaults(struct bq_job *job)
{
	job->scramble_buffers = true;
	job->compress_chunk = COMPRESS_CHUNK_DEFAULT;
	job->dedupe_ws_pct = DEDUPE_WS_DEFAULT;
}

static int parse_flag(const char *key, const char *val, bool *b, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1"))
		*b = true;
	else if (!strcmp(val, "0"))
		*b = false;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
	return 0;
}

static int parse_pct(const char *key, const char *val, uint8_t *v, struct bq_parse_error *err)
{
	char *end;
	unsigned long n;

	if (!val || *val < '0' || *val > '9')
		return bq_parse_fail(err, -EINVAL, "%s=%s: want 0..100", key, val ? val : "");
	n = strtoul(val, &end, 10);
	if (*end || n > 100)
		return bq_parse_fail(err, -EINVAL, "%s=%s: want 0..100", key, val);
	*v = (uint8_t)n;
	return 0;
}

static bool job_reads(const struct bq_job *job)
{
	return job->rw != BQ_RW_WRITE && job->rw != BQ_RW_RANDWRITE;
}

/* A 'file' part: as many of its first bytes as there is room for. */
static int read_part(const char *name, size_t len, uint8_t *out, size_t room, size_t *n)
{
	char path[4096];
	ssize_t got;
	int fd, ret = 0;

	if (!len || len >= sizeof(path))
		return -EINVAL;
	memcpy(path, name, len);
	path[len] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, out, room);
	if (got < 0)
		ret = -errno;
	else if (!got)
		ret = -ENODATA;
	else
		*n = (size_t)got;
	close(fd);
	return ret;
}

/*
 * fio's syntax: "text", 0xHEX, decimals and 'file' parts, joined.  The
 * parts other than files go to the verify_pattern parser; a file part
 * contributes its first bytes, as many as fit.
 */
static int parse_pattern(const char *s, uint8_t *out, size_t max, size_t *len,
			 const char **bad_file, int *file_err)
{
	size_t n = 0;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		const char *end;
		size_t got = 0;
		int ret;

		if (*s == '\'') {
			end = strchr(s + 1, '\'');
			if (!end)
				return -EINVAL;
			if (n == max)
				return -E2BIG;
			ret = read_part(s + 1, (size_t)(end - s - 1), out + n, max - n, &got);
			if (ret) {
				*bad_file = s;
				*file_err = ret;
				return -ENOENT;
			}
			s = end + 1;
		} else {
			char part[2 * sizeof(((struct bq_job *)0)->buffer_pattern) + 64];

			/* Up to the next file part; a quoted string may hold a '. */
			end = s;
			while (*end && *end != '\'') {
				if (*end == '"') {
					end = strchr(end + 1, '"');
					if (!end)
						return -EINVAL;
				}
				end++;
			}
			if ((size_t)(end - s) >= sizeof(part))
				return -E2BIG;
			memcpy(part, s, (size_t)(end - s));
			part[end - s] = '\0';
			ret = bq_verify_parse_pattern(part, out + n, max - n, &got);
			if (ret)
				return ret;
			s = end;
		}
		n += got;
	}
	*len = n;
	return 0;
}

static int set_pattern(const char *key, const char *val, struct bq_job *job,
		       struct bq_parse_error *err)
{
	uint8_t pat[sizeof(job->buffer_pattern)];
	const char *file = NULL;
	size_t len = 0;
	int ferr = 0;
	int ret = parse_pattern(val, pat, sizeof(pat), &len, &file, &ferr);

	if (ret == -ENOENT)
		return bq_parse_fail(err, -EINVAL, "%s=%s: cannot read %.*s: %s", key, val,
				     (int)(strchr(file + 1, '\'') - file + 1), file,
				     ferr == -ENODATA ? "empty file" : strerror(-ferr));
	if (ret == -EOPNOTSUPP)
		return bq_parse_fail(err, -EINVAL, "%s=%s: %%o has no meaning here (fio refuses "
				     "it too)", key, val);
	if (ret == -E2BIG)
		return bq_parse_fail(err, -EINVAL, "%s=%s is longer than %zu bytes", key, val,
				     sizeof(pat));
	if (ret)
		return bq_parse_fail(err, -EINVAL,
				     "%s=%s: want 0xHEX, a number, \"text\" or 'file'", key, val);
	memset(job->buffer_pattern, 0, sizeof(job->buffer_pattern));
	memcpy(job->buffer_pattern, pat, len);
	job->buffer_pattern_len = (uint32_t)len;
	/*
	 * As fio's callback: reads (or compression) would leave other data in
	 * a buffer, so the pattern is written afresh each time; and the
	 * pattern replaces zeroing and scrambling, whatever came before.
	 */
	job->refill_buffers = job->compress_pct || job_reads(job);
	job->scramble_buffers = false;
	job->zero_buffers = false;
	return 0;
}

static int set_chunk(const char *key, const char *val, struct bq_job *job,
		     struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_size(val, &v) || v > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s is not a size", key, val);
	job->compress_chunk = (uint32_t)v;
	return 0;
}

static int set_dedupe_mode(const char *key, const char *val, struct bq_job *job,
			   struct bq_parse_error *err)
{
	if (!strcmp(val, "repeat"))
		job->dedupe_mode = BQ_DEDUPE_REPEAT;
	else if (!strcmp(val, "working_set"))
		job->dedupe_mode = BQ_DEDUPE_WORKING_SET;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use repeat or working_set", key, val);
	return 0;
}

int bq_bufopt_set(const char *key, const char *val, struct bq_job *job,
		  struct bq_parse_error *err)
{
	bool b;
	uint8_t pct;
	int ret;

	if (!strcmp(key, "zero_buffers")) {
		ret = parse_flag(key, val, &b, err);
		if (!ret) {
			job->zero_buffers = b;
			job->zero_buffers_set = true;
		}
	} else if (!strcmp(key, "refill_buffers")) {
		ret = parse_flag(key, val, &b, err);
		if (!ret) {
			job->refill_buffers = b;
			job->refill_buffers_set = true;
		}
	} else if (!strcmp(key, "scramble_buffers")) {
		ret = parse_flag(key, val, &b, err);
		if (!ret) {
			job->scramble_buffers = b;
			job->scramble_buffers_set = true;
		}
	} else if (!strcmp(key, "dedupe_global")) {
		ret = parse_flag(key, val, &b, err);
		if (!ret)
			job->dedupe_global = b;
	} else if (!strcmp(key, "buffer_pattern")) {
		ret = set_pattern(key, val, job, err);
	} else if (!strcmp(key, "buffer_compress_percentage")) {
		ret = parse_pct(key, val, &pct, err);
		if (!ret) {
			job->compress_pct = pct;
			job->compress_given = true;
		}
	} else if (!strcmp(key, "buffer_compress_chunk")) {
		ret = set_chunk(key, val, job, err);
	} else if (!strcmp(key, "dedupe_percentage")) {
		ret = parse_pct(key, val, &pct, err);
		if (!ret) {
			job->dedupe_pct = pct;
			job->compress_given = true;
			/* As fio: without refill, every buffer would be the same. */
			job->refill_buffers = true;
		}
	} else if (!strcmp(key, "dedupe_mode")) {
		ret = set_dedupe_mode(key, val, job, err);
	} else if (!strcmp(key, "dedupe_working_set_percentage")) {
		ret = parse_pct(key, val, &pct, err);
		if (!ret)
			job->dedupe_ws_pct = pct;
	} else {
		ret = bq_parse_fail(err, -ENOENT, "unknown option '%s'", key);
	}
	return ret;
}

int bq_bufopt_check(const struct bq_job *job, struct bq_parse_error *err)
{
	/*
	 * fio fills a verified block's payload with compressible data; the
	 * payload of blkqual's verify is a function of the block's offset and
	 * generation, which is what tells torn and stale blocks apart.  With
	 * verify, fio ignores the other buffer options for the payload, as
	 * blkqual does.
	 */
	if (job->verify && job->compress_pct && job->compress_pct < 100)
		return bq_parse_fail(err, -EOPNOTSUPP,
				     "buffer_compress_percentage=%u with verify is not supported",
				     job->compress_pct);
	if (!job->dedupe_pct || job->dedupe_mode != BQ_DEDUPE_WORKING_SET)
		return 0;
	/* fio's own rules for a working set. */
	if (!job->size && !job->size_pct)
		return bq_parse_fail(err, -EINVAL, "dedupe_mode=working_set needs size=");
	if (job->nr_files > 1)
		return bq_parse_fail(err, -EINVAL,
				     "dedupe_mode=working_set works on one filename per job");
	if (job->dedupe_ws_pct + job->dedupe_pct > 100)
		return bq_parse_fail(err, -EINVAL, "dedupe_percentage=%u cannot be reached with "
				     "dedupe_working_set_percentage=%u (over 100%% together)",
				     job->dedupe_pct, job->dedupe_ws_pct);
	return 0;
}

/* ---- written back as options ------------------------------------------------ */

/* The buffer fields of a job, from the first to the end of the last. */
#define BUF_FIRST	offsetof(struct bq_job, zero_buffers)
#define BUF_END		(offsetof(struct bq_job, buffer_pattern) + \
			 sizeof(((struct bq_job *)0)->buffer_pattern))

static bool same_buffers(const struct bq_job *a, const struct bq_job *b)
{
	return !memcmp((const char *)a + BUF_FIRST, (const char *)b + BUF_FIRST,
		       BUF_END - BUF_FIRST);
}

enum { ARG_PATTERN, ARG_COMPRESS, ARG_DEDUPE, NR_ORDERED };

/* The options whose callbacks change others, in the six possible orders. */
static const uint8_t orders[6][NR_ORDERED] = {
	{ ARG_PATTERN, ARG_COMPRESS, ARG_DEDUPE }, { ARG_PATTERN, ARG_DEDUPE, ARG_COMPRESS },
	{ ARG_COMPRESS, ARG_PATTERN, ARG_DEDUPE }, { ARG_COMPRESS, ARG_DEDUPE, ARG_PATTERN },
	{ ARG_DEDUPE, ARG_PATTERN, ARG_COMPRESS }, { ARG_DEDUPE, ARG_COMPRESS, ARG_PATTERN },
};

struct arglist {
	char v[16][2 * sizeof(((struct bq_job *)0)->buffer_pattern) + 64];
	int n;
};

static void arg(struct arglist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void arg(struct arglist *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->v[l->n++], sizeof(l->v[0]), fmt, ap);
	va_end(ap);
}

/* @j's options in order @ord, then the plain ones; the explicit refill last. */
static void build(const struct bq_job *j, const uint8_t *ord, struct arglist *l)
{
	char hex[2 * sizeof(j->buffer_pattern) + 3] = "0x";

	l->n = 0;
	for (int k = 0; k < NR_ORDERED; k++) {
		switch (ord[k]) {
		case ARG_PATTERN:
			if (!j->buffer_pattern_len)
				break;
			for (uint32_t i = 0; i < j->buffer_pattern_len; i++)
				snprintf(hex + 2 + 2 * i, 3, "%02x", j->buffer_pattern[i]);
			arg(l, "--buffer_pattern=%s", hex);
			break;
		case ARG_COMPRESS:
			if (j->compress_given)
				arg(l, "--buffer_compress_percentage=%u", j->compress_pct);
			break;
		case ARG_DEDUPE:
			if (j->dedupe_pct)
				arg(l, "--dedupe_percentage=%u", j->dedupe_pct);
			break;
		}
	}
	if (j->compress_chunk != COMPRESS_CHUNK_DEFAULT)
		arg(l, "--buffer_compress_chunk=%" PRIu32, j->compress_chunk);
	if (j->dedupe_mode != BQ_DEDUPE_REPEAT)
		arg(l, "--dedupe_mode=working_set");
	if (j->dedupe_ws_pct != DEDUPE_WS_DEFAULT)
		arg(l, "--dedupe_working_set_percentage=%u", j->dedupe_ws_pct);
	if (j->dedupe_global)
		arg(l, "--dedupe_global=1");
	if (j->zero_buffers_set)
		arg(l, "--zero_buffers=%d", j->zero_buffers);
	if (j->scramble_buffers_set)
		arg(l, "--scramble_buffers=%d", j->scramble_buffers);
	if (j->refill_buffers_set)
		arg(l, "--refill_buffers=%d", j->refill_buffers);
}

/* Parse @l over @j's other options, as the command line would. */
static bool replays(const struct bq_job *j, const struct arglist *l)
{
	struct bq_job *t = malloc(sizeof(*t));
	bool same;

	if (!t)
		return false;
	*t = *j;
	memset((char *)t + BUF_FIRST, 0, BUF_END - BUF_FIRST);
	bq_bufopt_defaults(t);
	for (int i = 0; i < l->n; i++) {
		char *eq = strchr(l->v[i], '=');
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - l->v[i] - 2), l->v[i] + 2);
		bq_bufopt_set(key, eq + 1, t, NULL);
	}
	same = same_buffers(t, j);
	free(t);
	return same;
}

int bq_bufopt_to_args(const struct bq_job *job, struct bq_strv *args)
{
	struct arglist *l = malloc(sizeof(*l));
	int ret = 0, pick = 0;

	if (!l)
		return -ENOMEM;
	/*
	 * The callbacks' side effects depend on their order: take the first
	 * order that gives the job back (one does unless rw= changed after
	 * buffer_pattern=, which the command line cannot say).
	 */
	for (int o = 0; o < (int)ARRAY_SIZE(orders); o++) {
		build(job, orders[o], l);
		if (replays(job, l)) {
			pick = o;
			break;
		}
	}
	build(job, orders[pick], l);
	for (int i = 0; !ret && i < l->n; i++)
		ret = bq_strv_add(args, l->v[i]);
	free(l);
	return ret;
}
