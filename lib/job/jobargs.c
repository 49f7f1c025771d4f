// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobargs.c - a parsed job written back as fio-style options
 *
 * A result file must say exactly what ran, in a form that runs again:
 * the job as parsed (whatever mix of job files, defaults and command
 * line made it) is written out option by option, in units that lose
 * nothing (bytes, nanoseconds), and parsing those options gives back the
 * same job.  That is what "blkqual run --replay" feeds the parser.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blkqual.h"
#include "blkqual_verify.h"
#include "internal.h"

static int add(struct bq_strv *args, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add(struct bq_strv *args, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	return bq_strv_add(args, buf);
}

/* File names are ':'-separated, so a ':' inside a name is escaped as fio does. */
static int add_filenames(struct bq_strv *args, const struct bq_job *j)
{
	char buf[4096];
	size_t n = 0;

	for (int f = 0; f < j->nr_files; f++) {
		for (const char *p = j->filenames[f]; *p; p++) {
			if (n + 3 >= sizeof(buf))
				return -ENAMETOOLONG;
			if (*p == ':')
				buf[n++] = '\\';
			buf[n++] = *p;
		}
		if (f + 1 < j->nr_files)
			buf[n++] = ':';
	}
	buf[n] = '\0';
	return n ? add(args, "--filename=%s", buf) : 0;
}

static const char *rw_name(enum bq_rw rw)
{
	static const char *const names[] = {
		[BQ_RW_READ] = "read", [BQ_RW_WRITE] = "write", [BQ_RW_RANDREAD] = "randread",
		[BQ_RW_RANDWRITE] = "randwrite", [BQ_RW_RW] = "rw", [BQ_RW_RANDRW] = "randrw",
	};

	return names[rw];
}

/* One direction's split, or nothing: "--bssplit=4096/100," sets reads only. */
static int add_split(struct bq_strv *args, const struct bq_job *j)
{
	char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (d)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ",");
		for (int i = 0; i < j->nr_bssplit[d]; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%" PRIu32 "/%" PRIu32,
					      i ? ":" : "", j->bssplit[d][i].bs,
					      j->bssplit[d][i].pct);
	}
	return add(args, "--bssplit=%s", buf);
}

/*
 * A split sets its direction's bs and bsrange too, and a later bs= changes
 * them without dropping the split: the split first, then bs and bsrange
 * as they are, gives back the very same job.
 */
static int add_sizes(struct bq_strv *args, const struct bq_job *j)
{
	int ret = 0;

	if (j->nr_bssplit[BQ_READ] || j->nr_bssplit[BQ_WRITE])
		ret = add_split(args, j);
	ret = ret ?: add(args, "--bs=%" PRIu32 ",%" PRIu32, j->bs[BQ_READ], j->bs[BQ_WRITE]);
	if (!ret && (j->bs_min[BQ_READ] != j->bs_max[BQ_READ] ||
		     j->bs_min[BQ_WRITE] != j->bs_max[BQ_WRITE]))
		ret = add(args, "--bsrange=%" PRIu32 "-%" PRIu32 ",%" PRIu32 "-%" PRIu32,
			  j->bs_min[BQ_READ], j->bs_max[BQ_READ], j->bs_min[BQ_WRITE],
			  j->bs_max[BQ_WRITE]);
	return ret;
}

/* verify= and its options, where they differ from the defaults. */
static int add_verify(struct bq_strv *args, const struct bq_job *j)
{
	char hex[2 * sizeof(j->verify_pattern) + 3] = "0x";
	int ret = 0;

	/* A pattern implies verify=pattern, so verify= comes after it. */
	for (uint32_t i = 0; i < j->verify_pattern_len; i++)
		snprintf(hex + 2 + 2 * i, 3, "%02x", j->verify_pattern[i]);
	if (j->verify_pattern_len)
		ret = add(args, "--verify_pattern=%s", hex);
	if (j->verify || j->verify_pattern_len)
		ret = ret ?: add(args, "--verify=%s", j->verify ?
				 bq_verify_method_name((enum bq_verify_method)j->verify) : "0");
	if (!j->do_verify)
		ret = ret ?: add(args, "--do_verify=0");
	if (j->verify_fatal)
		ret = ret ?: add(args, "--verify_fatal=1");
	if (j->verify_only)
		ret = ret ?: add(args, "--verify_only=1");
	if (j->verify_interval)
		ret = ret ?: add(args, "--verify_interval=%" PRIu32, j->verify_interval);
	return ret;
}

static const char *dist_text(const struct bq_job *j, char *buf, size_t len)
{
	if (j->dist == BQ_DIST_RANDOM)
		return "random";
	snprintf(buf, len, "%s:%.17g", j->dist == BQ_DIST_ZIPF ? "zipf" : "pareto",
		 j->dist_param);
	return buf;
}

/* job ordering and groups: stonewall, wait_for, loops, exitall */
static int add_ordering(struct bq_strv *args, const struct bq_job *j)
{
	static const char *const what[] = { "group", "stonewall", "all" };
	int ret;

	ret = add(args, "--stonewall=%d", j->stonewall);
	ret = ret ?: add(args, "--new_group=%d", j->new_group);
	if (j->wait_for[0])
		ret = ret ?: add(args, "--wait_for=%s", j->wait_for);
	ret = ret ?: add(args, "--loops=%u", j->loops);
	ret = ret ?: add(args, "--exitall=%d", j->exitall);
	ret = ret ?: add(args, "--exit_what=%s", what[j->exit_what]);
	ret = ret ?: add(args, "--exitall_on_error=%d", j->exitall_on_error);
	return ret;
}

int bq_job_to_args(const struct bq_job *job, struct bq_strv *args)
{
	const struct bq_job *j = job;
	char dist[64];
	int ret;

	if (j->stripe)
		return -EOPNOTSUPP;
	ret = add(args, "--name=%s", j->name);
	ret = ret ?: add_filenames(args, j);
	ret = ret ?: add(args, "--rw=%s", rw_name(j->rw));
	ret = ret ?: add(args, "--rwmixread=%u", j->rwmixread);
	ret = ret ?: add_sizes(args, j);
	if (j->ba)
		ret = ret ?: add(args, "--ba=%" PRIu32, j->ba);
	ret = ret ?: add(args, "--iodepth=%u", j->iodepth);
	if (j->batch_complete)
		ret = ret ?: add(args, "--iodepth_batch_complete_min=%u", j->batch_complete);
	ret = ret ?: add(args, "--numjobs=%u", j->numjobs);
	if (j->size_pct)
		ret = ret ?: add(args, "--size=%u%%", j->size_pct);
	else
		ret = ret ?: add(args, "--size=%" PRIu64, j->size);
	ret = ret ?: add(args, "--offset=%" PRIu64, j->offset);
	ret = ret ?: add(args, "--io_size=%" PRIu64, j->io_size);
	ret = ret ?: add(args, "--runtime=%" PRIu64 "ns", j->runtime_ns);
	ret = ret ?: add(args, "--time_based=%d", j->time_based);
	ret = ret ?: add(args, "--ramp_time=%" PRIu64 "ns", j->ramp_ns);
	if (j->startdelay_max_ns)
		ret = ret ?: add(args, "--startdelay=%" PRIu64 "ns-%" PRIu64 "ns", j->startdelay_ns,
				 j->startdelay_max_ns);
	else
		ret = ret ?: add(args, "--startdelay=%" PRIu64 "ns", j->startdelay_ns);
	ret = ret ?: add(args, "--thinktime=%" PRIu64 "ns", j->thinktime_ns);
	ret = ret ?: add(args, "--direct=%d", j->direct);
	ret = ret ?: add(args, "--invalidate=%d", j->invalidate);
	ret = ret ?: add(args, "--sync=%d", j->sync);
	ret = ret ?: add(args, "--fsync=%u", j->fsync_every);
	ret = ret ?: add(args, "--randrepeat=%d", j->randrepeat);
	ret = ret ?: add(args, "--randseed=%" PRIu64, j->randseed);
	ret = ret ?: add(args, "--norandommap=%d", j->norandommap);
	ret = ret ?: add(args, "--random_distribution=%s", dist_text(j, dist, sizeof(dist)));
	ret = ret ?: add(args, "--rate_iops=%" PRIu64, j->rate_iops);
	ret = ret ?: add(args, "--group_reporting=%d", j->group_reporting);
	ret = ret ?: add(args, "--gtod_reduce=%d", j->gtod_reduce);
	ret = ret ?: add(args, "--continue_on_error=%d", j->continue_on_error);
	ret = ret ?: add(args, "--stall_timeout=%" PRIu64 "ns", j->stall_timeout_ns);
	ret = ret ?: add(args, "--ioengine=%s", bq_engine_name(j->engine));
	ret = ret ?: add(args, "--poll=%s", j->poll == BQ_POLL_ON ? "on" :
			 j->poll == BQ_POLL_OFF ? "off" : "auto");
	ret = ret ?: add(args, "--fixedbufs=%d", j->fixedbufs);
	ret = ret ?: add(args, "--registerfiles=%d", j->registerfiles);
	ret = ret ?: add(args, "--sqthread_poll=%d", j->sqpoll);
	if (j->cpus_allowed[0])
		ret = ret ?: add(args, "--cpus_allowed=%s", j->cpus_allowed);
	ret = ret ?: add_verify(args, j);
	ret = ret ?: add_ordering(args, j);
	return ret;
}
