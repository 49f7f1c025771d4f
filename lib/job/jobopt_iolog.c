// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_iolog.c - fio's I/O log and trace replay options: read_iolog,
 * write_iolog, replay_* and read_iolog_chunked; and what a read_iolog
 * job becomes once its log is read (its files, directions, block sizes)
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "blkqual_core.h"
#include "io/iolog.h"
#include "jobopt.h"

static int set_path(const char *key, const char *val, char *dst, size_t len,
		    struct bq_parse_error *err)
{
	if (!*val)
		return bq_parse_fail(err, -EINVAL, "%s needs a file name", key);
	if (strlen(val) >= len)
		return bq_parse_fail(err, -EINVAL, "%s: a path is at most %zu characters", key,
				     len - 1);
	strcpy(dst, val);
	return 0;
}

static int set_count(const char *key, const char *val, uint32_t *v, struct bq_parse_error *err)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(val, &end, 10);
	if (!isdigit((unsigned char)*val) || *end || errno || n > UINT32_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a whole number", key, val);
	*v = (uint32_t)n;
	return 0;
}

static int set_bool01(const char *key, const char *val, bool *b, struct bq_parse_error *err)
{
	if (!val || !strcmp(val, "1")) {
		*b = true;
		return 0;
	}
	if (!strcmp(val, "0")) {
		*b = false;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "%s=%s: 0 or 1", key, val);
}

/*
 * fio's float lists: values split by ':', each used as a whole number
 * (fio truncates them); at most 20.
 */
static int set_list(const char *key, const char *val, uint32_t *v, uint8_t *nr,
		    struct bq_parse_error *err)
{
	char buf[512], *save = NULL, *end;
	int n = 0;

	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s=%s: too long", key, val);
	strcpy(buf, val);
	for (char *s = strtok_r(buf, ":", &save); s; s = strtok_r(NULL, ":", &save)) {
		double d;

		errno = 0;
		d = strtod(s, &end);
		if (n == 20 || !isdigit((unsigned char)*s) || *end || errno || d < 1 ||
		    d > UINT32_MAX)
			return bq_parse_fail(err, -EINVAL, "%s=%s: up to 20 numbers of at least 1, "
					     "split by ':'", key, val);
		v[n++] = (uint32_t)d;
	}
	if (!n)
		return bq_parse_fail(err, -EINVAL, "%s needs a value", key);
	*nr = (uint8_t)n;
	return 0;
}

/* fio's replay_skip: a comma list of read, write, trim, sync. */
static int set_skip(const char *key, const char *val, struct bq_job *job,
		    struct bq_parse_error *err)
{
	char buf[256], *save = NULL;
	uint8_t mask = 0;

	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s=%s: too long", key, val);
	strcpy(buf, val);
	for (char *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (!strcmp(s, "read"))
			mask |= 1u << BQ_READ;
		else if (!strcmp(s, "write"))
			mask |= 1u << BQ_WRITE;
		else if (!strcmp(s, "sync"))
			mask |= 4;
		else if (!strcmp(s, "trim"))
			mask |= 8;
		else
			return bq_parse_fail(err, -EINVAL, "%s=%s: '%s' is not one of read, write, "
					     "trim, sync", key, val, s);
	}
	job->replay_skip = mask;
	return 0;
}

/**
 * bq_iolog_opt_set() - the setter of every I/O log and replay option
 * @o: the option table's entry (unused: the name says which)
 * @key: the option's name
 * @val: its value (NULL for a bare flag)
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int bq_iolog_opt_set(const struct job_opt *o, const char *key, const char *val,
		     struct bq_job *job, struct bq_parse_error *err)
{
	int ret;

	if (!strcmp(key, "read_iolog"))
		return set_path(key, val, job->read_iolog, sizeof(job->read_iolog), err);
	if (!strcmp(key, "write_iolog"))
		return set_path(key, val, job->write_iolog, sizeof(job->write_iolog), err);
	if (!strcmp(key, "replay_redirect"))
		return set_path(key, val, job->replay_redirect, sizeof(job->replay_redirect), err);
	if (!strcmp(key, "replay_no_stall"))
		return set_bool01(key, val, &job->replay_no_stall, err);
	if (!strcmp(key, "read_iolog_chunked"))
		return set_bool01(key, val, &job->read_iolog_chunked, err);
	if (!strcmp(key, "replay_skip"))
		return set_skip(key, val, job, err);
	if (!strcmp(key, "merge_blktrace_file"))
		return set_path(key, val, job->merge_blktrace_file,
				sizeof(job->merge_blktrace_file), err);
	if (!strcmp(key, "merge_blktrace_scalars"))
		return set_list(key, val, job->merge_scalars, &job->nr_merge_scalars, err);
	if (!strcmp(key, "merge_blktrace_iters"))
		return set_list(key, val, job->merge_iters, &job->nr_merge_iters, err);
	if (!strcmp(key, "replay_align")) {
		ret = set_count(key, val, &job->replay_align, err);
		/* fio masks the offset with it: anything but a power of two is nonsense. */
		if (!ret && job->replay_align & (job->replay_align - 1))
			return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: not a power of two", key,
					     val);
		return ret;
	}
	if (!strcmp(key, "replay_scale"))
		return set_count(key, val, &job->replay_scale, err);
	ret = set_count(key, val, &job->replay_time_scale, err);
	if (!ret && !job->replay_time_scale)
		return bq_parse_fail(err, -EINVAL, "%s=%s: at least 1 (percent)", key, val);
	return ret;
}

/**
 * bq_iolog_defaults() - fio's defaults of the replay options
 * @job: the job
 */
void bq_iolog_defaults(struct bq_job *job)
{
	job->replay_time_scale = 100;
}

/**
 * bq_iolog_job_finish() - a read_iolog job as its log makes it
 * @job: the job, all options set; with read_iolog, the log's files are
 *	 added to its filenames (so that each is judged and opened as a
 *	 filename= target is), and its directions and largest block sizes
 *	 become rw= and bs=, as fio derives them from the log
 * @err: "PATH:LINE" and why, for a log that cannot be replayed
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP or -ENOMEM.
 */
int bq_iolog_job_finish(struct bq_job *job, struct bq_parse_error *err)
{
	struct bq_iolog log;
	int ret;

	if (job->write_iolog[0] && job->numjobs > 1)
		return bq_parse_fail(err, -EOPNOTSUPP, "write_iolog with numjobs=%u: one log "
				     "per job only", job->numjobs);
	if (!job->read_iolog[0])
		return job->merge_blktrace_file[0] ? bq_parse_fail(err, -EINVAL,
			"merge_blktrace_file needs read_iolog (the traces, split by ':')") : 0;
	if (job->verify)
		return bq_parse_fail(err, -EOPNOTSUPP, "read_iolog with verify: a replay "
				     "does not verify");
	if (job->stripe)
		return bq_parse_fail(err, -EOPNOTSUPP, "read_iolog with --stripe");
	if (bq_engine_has(job->engine, BQ_ENGINE_DISKLESS))
		return bq_parse_fail(err, -EOPNOTSUPP, "read_iolog with ioengine=%s: it has no "
				     "files", bq_engine_name(job->engine));
	/* As fio does, at set-up: the merged file is what the job replays. */
	if (job->merge_blktrace_file[0]) {
		ret = bq_iolog_merge(job, err);
		if (ret)
			return ret;
	}
	ret = bq_iolog_load(job, &log, err);
	if (ret)
		return ret;
	for (int i = job->nr_files; i < log.nr_names; i++) {
		job->filenames[i] = log.names[i];
		log.names[i] = NULL;
		job->nr_files = i + 1;
	}
	if (log.ios[BQ_READ] && log.ios[BQ_WRITE])
		job->rw = BQ_RW_RW;
	else
		job->rw = log.ios[BQ_WRITE] ? BQ_RW_WRITE : BQ_RW_READ;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (log.max_len[d]) {
			job->bs[d] = job->bs_min[d] = job->bs_max[d] = log.max_len[d];
			job->nr_bssplit[d] = 0;
		}
	bq_iolog_free(&log);
	return 0;
}

/**
 * bq_iolog_to_args() - the I/O log options as command-line arguments
 * @job: the job
 * @args: appended to
 *
 * Return: 0 or -errno.
 */
int bq_iolog_to_args(const struct bq_job *job, struct bq_strv *args)
{
	static const char *const skip[] = { "read", "write", "sync", "trim" };
	char buf[1100];
	int ret = 0;

	if (job->read_iolog[0]) {
		snprintf(buf, sizeof(buf), "--read_iolog=%s", job->read_iolog);
		ret = ret ?: bq_strv_add(args, buf);
	}
	if (job->write_iolog[0]) {
		snprintf(buf, sizeof(buf), "--write_iolog=%s", job->write_iolog);
		ret = ret ?: bq_strv_add(args, buf);
	}
	if (job->replay_redirect[0]) {
		snprintf(buf, sizeof(buf), "--replay_redirect=%s", job->replay_redirect);
		ret = ret ?: bq_strv_add(args, buf);
	}
	snprintf(buf, sizeof(buf), "--replay_no_stall=%d", job->replay_no_stall);
	ret = ret ?: bq_strv_add(args, buf);
	snprintf(buf, sizeof(buf), "--replay_align=%u", job->replay_align);
	ret = ret ?: bq_strv_add(args, buf);
	snprintf(buf, sizeof(buf), "--replay_scale=%u", job->replay_scale);
	ret = ret ?: bq_strv_add(args, buf);
	snprintf(buf, sizeof(buf), "--replay_time_scale=%u", job->replay_time_scale);
	ret = ret ?: bq_strv_add(args, buf);
	if (job->merge_blktrace_file[0]) {
		snprintf(buf, sizeof(buf), "--merge_blktrace_file=%s", job->merge_blktrace_file);
		ret = ret ?: bq_strv_add(args, buf);
	}
	for (int l = 0; l < 2; l++) {
		const uint32_t *v = l ? job->merge_iters : job->merge_scalars;
		int nr = l ? job->nr_merge_iters : job->nr_merge_scalars;
		size_t n;

		if (!nr)
			continue;
		n = snprintf(buf, sizeof(buf), "--merge_blktrace_%s=", l ? "iters" : "scalars");
		for (int i = 0; i < nr; i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? ":" : "", v[i]);
		ret = ret ?: bq_strv_add(args, buf);
	}
	if (job->replay_skip) {
		size_t n = snprintf(buf, sizeof(buf), "--replay_skip=");

		for (int i = 0; i < 4; i++)
			if (job->replay_skip & (1u << i))
				n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
					      buf[n - 1] == '=' ? "" : ",", skip[i]);
		ret = ret ?: bq_strv_add(args, buf);
	}
	return ret;
}
