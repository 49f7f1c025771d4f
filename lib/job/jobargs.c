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
#include <stdio.h>
#include <string.h>

#include "blkqual.h"
#include "blkqual_verify.h"
#include "bufopt.h"
#include "internal.h"
#include "jobopt.h"
#include "jobopt_logs.h"
#include "engines/nvme_pi.h"
#include "io/iolog.h"
#include "jobopt_zbd.h"
#include "errfilter_opt.h"
#include "jobopt_fill.h"
#include "jobopt_sprandom.h"

/* File names are ':'-separated, so a ':' inside a name is escaped as fio does. */
static int add_filenames(struct bq_strv *args, const struct bq_job *j)
{
	int nr = j->nr_files - j->nr_opendir_files, ret;
	char buf[4096];
	size_t n = 0;

	/* opendir='s files are found again when the options are read back. */
	if (j->opendir[0]) {
		ret = bq_argf(args, "--opendir=%s", j->opendir);
		if (ret)
			return ret;
	}
	for (int f = 0; f < nr; f++) {
		for (const char *p = j->filenames[f]; *p; p++) {
			if (n + 3 >= sizeof(buf))
				return -ENAMETOOLONG;
			if (*p == ':')
				buf[n++] = '\\';
			buf[n++] = *p;
		}
		if (f + 1 < nr)
			buf[n++] = ':';
	}
	buf[n] = '\0';
	return n ? bq_argf(args, "--filename=%s", buf) : 0;
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
	return bq_argf(args, "--bssplit=%s", buf);
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
	ret = ret ?: bq_argf(args, "--bs=%" PRIu32 ",%" PRIu32, j->bs[BQ_READ], j->bs[BQ_WRITE]);
	if (!ret && (j->bs_min[BQ_READ] != j->bs_max[BQ_READ] ||
		     j->bs_min[BQ_WRITE] != j->bs_max[BQ_WRITE]))
		ret = bq_argf(args, "--bsrange=%" PRIu32 "-%" PRIu32 ",%" PRIu32 "-%" PRIu32,
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
		ret = bq_argf(args, "--verify_pattern=%s", hex);
	if (j->verify || j->verify_pattern_len)
		ret = ret ?: bq_argf(args, "--verify=%s", j->verify ?
				 bq_verify_method_name((enum bq_verify_method)j->verify) : "0");
	if (!j->do_verify)
		ret = ret ?: bq_argf(args, "--do_verify=0");
	if (j->verify_fatal)
		ret = ret ?: bq_argf(args, "--verify_fatal=1");
	if (j->verify_only)
		ret = ret ?: bq_argf(args, "--verify_only=1");
	if (j->verify_interval)
		ret = ret ?: bq_argf(args, "--verify_interval=%" PRIu32, j->verify_interval);
	if (j->verify_backlog)
		ret = ret ?: bq_argf(args, "--verify_backlog=%" PRIu32, j->verify_backlog);
	if (j->verify_backlog_batch)
		ret = ret ?: bq_argf(args, "--verify_backlog_batch=%" PRIu32,
					   j->verify_backlog_batch);
	if (j->verify_offset)
		ret = ret ?: bq_argf(args, "--verify_offset=%" PRIu32, j->verify_offset);
	if (j->verify_async)
		ret = ret ?: bq_argf(args, "--verify_async=%" PRIu32, j->verify_async);
	if (!j->verify_header_seed)
		ret = ret ?: bq_argf(args, "--verify_header_seed=0");
	if (!j->verify_write_sequence)
		ret = ret ?: bq_argf(args, "--verify_write_sequence=0");
	if (j->trim_percentage)
		ret = ret ?: bq_argf(args, "--trim_percentage=%" PRIu32, j->trim_percentage);
	if (!j->trim_verify_zero)
		ret = ret ?: bq_argf(args, "--trim_verify_zero=0");
	if (j->trim_backlog)
		ret = ret ?: bq_argf(args, "--trim_backlog=%" PRIu32, j->trim_backlog);
	if (j->trim_backlog_batch)
		ret = ret ?: bq_argf(args, "--trim_backlog_batch=%" PRIu32, j->trim_backlog_batch);
	return ret;
}

/* The rate family (jobopt_rates.c), every option, so that nothing is left to defaults. */
static int add_rates(struct bq_strv *args, const struct bq_job *j)
{
	static const char *const ss[] = { "iops", "iops_slope", "bw", "bw_slope", "lat",
					  "lat_slope" };
	int ret;

	ret = bq_argf(args, "--rate=%" PRIu64 ",%" PRIu64 ",%" PRIu64, j->rate[BQ_READ],
		  j->rate[BQ_WRITE], j->rate_trim);
	ret = ret ?: bq_argf(args, "--rate_min=%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				   j->rate_min[BQ_READ],
			 j->rate_min[BQ_WRITE], j->rate_min_trim);
	ret = ret ?: bq_argf(args, "--rate_iops_min=%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			 j->rate_iops_min[BQ_READ], j->rate_iops_min[BQ_WRITE],
			 j->rate_iops_min_trim);
	ret = ret ?: bq_argf(args, "--ratecycle=%" PRIu32, j->ratecycle_ms);
	ret = ret ?: bq_argf(args, "--rate_process=%s", j->rate_poisson ? "poisson" : "linear");
	ret = ret ?: bq_argf(args, "--rate_ignore_thinktime=%d", j->rate_ignore_thinktime);
	ret = ret ?: bq_argf(args, "--thinktime_spin=%" PRIu64 "ns", j->thinktime_spin_ns);
	/* Given or not matters with thinktime_iotime: write it only when given. */
	if (j->thinktime_blocks_set)
		ret = ret ?: bq_argf(args, "--thinktime_blocks=%" PRIu32, j->thinktime_blocks);
	ret = ret ?: bq_argf(args, "--thinktime_blocks_type=%s",
			 j->thinktime_blocks_issue ? "issue" : "complete");
	ret = ret ?: bq_argf(args, "--thinktime_iotime=%" PRIu64 "ns", j->thinktime_iotime_ns);
	ret = ret ?: bq_argf(args, "--max_latency=%" PRIu64 "ns,%" PRIu64 "ns",
			 j->max_latency_ns[BQ_READ], j->max_latency_ns[BQ_WRITE]);
	ret = ret ?: bq_argf(args, "--latency_target=%" PRIu64 "ns", j->latency_target_ns);
	ret = ret ?: bq_argf(args, "--latency_window=%" PRIu64 "ns", j->latency_window_ns);
	ret = ret ?: bq_argf(args, "--latency_percentile=%.17g", j->latency_percentile);
	ret = ret ?: bq_argf(args, "--latency_run=%d", j->latency_run);
	if (j->ss >= 0 && j->ss < (int)ARRAY_SIZE(ss))
		ret = ret ?: bq_argf(args, "--steadystate=%s:%.17g%s", ss[j->ss], j->ss_limit,
				 j->ss_pct ? "%" : j->ss >= BQ_SS_LAT ? "ns" : "");
	ret = ret ?: bq_argf(args, "--ss_dur=%" PRIu64 "ns", j->ss_dur_ns);
	ret = ret ?: bq_argf(args, "--ss_ramp=%" PRIu64 "ns", j->ss_ramp_ns);
	ret = ret ?: bq_argf(args, "--ss_interval=%" PRIu64 "ns", j->ss_interval_ns);
	return ret;
}

/* One direction's zones of random_distribution=zoned or zoned_abs. */
static size_t zones_text(const struct bq_job *j, int d, char *buf, size_t len)
{
	size_t n = 0;

	for (int i = 0; i < j->nr_dist_zones[d] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u/%" PRIu64, i ? ":" : "",
				      j->dist_zones[d][i].pct, j->dist_zones[d][i].size);
	return n;
}

static int add_dist(struct bq_strv *args, const struct bq_job *j)
{
	static const char *const names[] = {
		[BQ_DIST_RANDOM] = "random", [BQ_DIST_ZIPF] = "zipf", [BQ_DIST_PARETO] = "pareto",
		[BQ_DIST_NORMAL] = "normal", [BQ_DIST_ZONED] = "zoned",
		[BQ_DIST_ZONED_ABS] = "zoned_abs", [BQ_DIST_SEQUENCE] = "sequence",
	};
	/* 2 x 256 zones of "100/" and a 20-digit size, with separators */
	char buf[2 * BQ_MAX_DIST_ZONES * 26 + 64];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "--random_distribution=%s",
				    names[j->dist]);

	if (j->dist == BQ_DIST_ZONED || j->dist == BQ_DIST_ZONED_ABS) {
		buf[n++] = ':';
		n += zones_text(j, BQ_READ, buf + n, sizeof(buf) - n);
		buf[n++] = ',';
		n += zones_text(j, BQ_WRITE, buf + n, sizeof(buf) - n);
	} else if (j->dist == BQ_DIST_SEQUENCE) {
		for (int i = 0; i < j->nr_dist_seq && n < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%c%" PRIu32, i ? ',' : ':',
					      j->dist_seq[i]);
	} else if (j->dist != BQ_DIST_RANDOM) {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ":%.17g", j->dist_param);
		if (j->dist_has_center)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ":%.17g", j->dist_center);
	}
	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	return bq_strv_add(args, buf);
}

/* The I/O pattern options (issue 19), where they differ from the defaults. */
static int add_patterns(struct bq_strv *args, const struct bq_job *j)
{
	static const char *const gens[] = { "tausworthe", "lfsr", "tausworthe64" };
	int ret = 0;

	if (j->rw_seq_identical)
		ret = bq_argf(args, "--rw_sequencer=identical");
	if (j->pct_seq[BQ_READ] || j->pct_seq[BQ_WRITE])
		ret = ret ?: bq_argf(args, "--percentage_random=%u,%u", 100 - j->pct_seq[BQ_READ],
				 100 - j->pct_seq[BQ_WRITE]);
	if (j->random_generator || j->random_generator_given)
		ret = ret ?: bq_argf(args, "--random_generator=%s", gens[j->random_generator]);
	if (j->allrandrepeat)
		ret = ret ?: bq_argf(args, "--allrandrepeat=1");
	if (j->softrandommap)
		ret = ret ?: bq_argf(args, "--softrandommap=1");
	if (j->zonemode)
		ret = ret ?: bq_argf(args, "--zonemode=%s",
				 j->zonemode == BQ_ZONEMODE_STRIDED ? "strided" :
				 j->zonemode == BQ_ZONEMODE_ZBD ? "zbd" : "none");
	if (j->zone_size)
		ret = ret ?: bq_argf(args, "--zonesize=%" PRIu64, j->zone_size);
	if (j->zone_range)
		ret = ret ?: bq_argf(args, "--zonerange=%" PRIu64, j->zone_range);
	if (j->zone_skip)
		ret = ret ?: bq_argf(args, "--zoneskip=%" PRIu64, j->zone_skip);
	if (j->offset_increment_pct)
		ret = ret ?: bq_argf(args, "--offset_increment=%u%%", j->offset_increment_pct);
	else if (j->offset_increment)
		ret = ret ?: bq_argf(args, "--offset_increment=%" PRIu64, j->offset_increment);
	if (j->offset_align)
		ret = ret ?: bq_argf(args, "--offset_align=%" PRIu64, j->offset_align);
	if (j->number_ios)
		ret = ret ?: bq_argf(args, "--number_ios=%" PRIu64, j->number_ios);
	if (j->bs_is_seq_rand)
		ret = ret ?: bq_argf(args, "--bs_is_seq_rand=1");
	return ret;
}

/* job ordering and groups: stonewall, wait_for, loops, exitall */
static int add_ordering(struct bq_strv *args, const struct bq_job *j)
{
	static const char *const what[] = { "group", "stonewall", "all" };
	int ret;

	ret = bq_argf(args, "--stonewall=%d", j->stonewall);
	ret = ret ?: bq_argf(args, "--new_group=%d", j->new_group);
	if (j->wait_for[0])
		ret = ret ?: bq_argf(args, "--wait_for=%s", j->wait_for);
	ret = ret ?: bq_argf(args, "--loops=%u", j->loops);
	ret = ret ?: bq_argf(args, "--exitall=%d", j->exitall);
	ret = ret ?: bq_argf(args, "--exit_what=%s", what[j->exit_what]);
	ret = ret ?: bq_argf(args, "--exitall_on_error=%d", j->exitall_on_error);
	return ret;
}

/* queueing (issue 19): fio's refill rules, at their defaults when unset */
static int add_queue(struct bq_strv *args, const struct bq_job *j)
{
	int ret;

	ret = bq_argf(args, "--iodepth_batch=%u", j->iodepth_batch);
	ret = ret ?: bq_argf(args, "--iodepth_low=%u", j->iodepth_low);
	ret = ret ?: bq_argf(args, "--iodepth_batch_complete_max=%u", j->batch_complete_max);
	ret = ret ?: bq_argf(args, "--serialize_overlap=%d", j->serialize_overlap);
	/* cmdprio_bssplit's BS/PCT entries take cmdprio_class, cmdprio and cmdprio_hint too. */
	if (j->cmdprio_pct[BQ_READ] || j->cmdprio_pct[BQ_WRITE] || j->nr_cmdprio_bss[BQ_READ] ||
	    j->nr_cmdprio_bss[BQ_WRITE]) {
		if (j->cmdprio_pct[BQ_READ] || j->cmdprio_pct[BQ_WRITE])
			ret = ret ?: bq_argf(args, "--cmdprio_percentage=%u,%u",
					 j->cmdprio_pct[BQ_READ], j->cmdprio_pct[BQ_WRITE]);
		ret = ret ?: bq_argf(args, "--cmdprio_class=%u,%u",
				 j->cmdprio_class[BQ_READ] ? j->cmdprio_class[BQ_READ] : 1,
				 j->cmdprio_class[BQ_WRITE] ? j->cmdprio_class[BQ_WRITE] : 1);
		ret = ret ?: bq_argf(args, "--cmdprio=%u,%u", j->cmdprio_level[BQ_READ],
				 j->cmdprio_level[BQ_WRITE]);
		ret = ret ?: bq_argf(args, "--cmdprio_hint=%u,%u", j->cmdprio_hint[BQ_READ],
				 j->cmdprio_hint[BQ_WRITE]);
	}
	if (j->cpus_policy != BQ_CPUS_PLACED)
		ret = ret ?: bq_argf(args, "--cpus_allowed_policy=%s",
				 j->cpus_policy == BQ_CPUS_SHARED ? "shared" : "split");
	if (j->numa_cpu_nodes[0])
		ret = ret ?: bq_argf(args, "--numa_cpu_nodes=%s", j->numa_cpu_nodes);
	if (j->numa_mem_mode) {
		static const char *const modes[] = { "", "default", "prefer", "bind",
						     "interleave", "local" };

		ret = ret ?: bq_argf(args, "--numa_mem_policy=%s%s%s", modes[j->numa_mem_mode],
				 j->numa_mem_nodes[0] ? ":" : "", j->numa_mem_nodes);
	}
	if (j->flow) {
		ret = ret ?: bq_argf(args, "--flow_id=%u", j->flow_id);
		ret = ret ?: bq_argf(args, "--flow=%u", j->flow);
		ret = ret ?: bq_argf(args, "--flow_sleep=%" PRIu64, j->flow_sleep_ns / 1000);
	}
	if (j->ioprio_set) {
		ret = ret ?: bq_argf(args, "--prioclass=%u", j->ioprio_class);
		ret = ret ?: bq_argf(args, "--prio=%u", j->ioprio);
		ret = ret ?: bq_argf(args, "--priohint=%u", j->ioprio_hint);
	}
	return ret;
}

int bq_job_to_args(const struct bq_job *job, struct bq_strv *args)
{
	const struct bq_job *j = job;
	int ret;

	if (j->stripe)
		return -EOPNOTSUPP;
	ret = bq_argf(args, "--name=%s", j->name);
	ret = ret ?: add_filenames(args, j);
	if (j->seq_add)
		ret = ret ?: bq_argf(args, "--rw=%s:%" PRId64,
					   bq_job_trim_rw_name(j) ?: rw_name(j->rw), j->seq_add);
	else if (j->seq_nr)
		ret = ret ?: bq_argf(args, "--rw=%s:%u",
					   bq_job_trim_rw_name(j) ?: rw_name(j->rw), j->seq_nr);
	else
		ret = ret ?: bq_argf(args, "--rw=%s", bq_job_trim_rw_name(j) ?: rw_name(j->rw));
	ret = ret ?: bq_argf(args, "--rwmixread=%u", j->rwmixread);
	ret = ret ?: add_sizes(args, j);
	if (j->ba)
		ret = ret ?: bq_argf(args, "--ba=%" PRIu32, j->ba);
	ret = ret ?: bq_argf(args, "--iodepth=%u", j->iodepth);
	if (j->batch_complete)
		ret = ret ?: bq_argf(args, "--iodepth_batch_complete_min=%u", j->batch_complete);
	ret = ret ?: bq_argf(args, "--numjobs=%u", j->numjobs);
	if (j->size_pct)
		ret = ret ?: bq_argf(args, "--size=%u%%", j->size_pct);
	else
		ret = ret ?: bq_argf(args, "--size=%" PRIu64, j->size);
	if (j->offset_pct)
		ret = ret ?: bq_argf(args, "--offset=%u%%", j->offset_pct);
	else
		ret = ret ?: bq_argf(args, "--offset=%" PRIu64, j->offset);
	ret = ret ?: bq_argf(args, "--io_size=%" PRIu64, j->io_size);
	ret = ret ?: bq_argf(args, "--runtime=%" PRIu64 "ns", j->runtime_ns);
	ret = ret ?: bq_argf(args, "--time_based=%d", j->time_based);
	ret = ret ?: bq_argf(args, "--ramp_time=%" PRIu64 "ns", j->ramp_ns);
	if (j->startdelay_max_ns)
		ret = ret ?: bq_argf(args, "--startdelay=%" PRIu64 "ns-%" PRIu64 "ns",
					   j->startdelay_ns,
				 j->startdelay_max_ns);
	else
		ret = ret ?: bq_argf(args, "--startdelay=%" PRIu64 "ns", j->startdelay_ns);
	ret = ret ?: bq_argf(args, "--thinktime=%" PRIu64 "ns", j->thinktime_ns);
	ret = ret ?: bq_argf(args, "--direct=%d", j->direct);
	ret = ret ?: bq_argf(args, "--invalidate=%d", j->invalidate);
	ret = ret ?: bq_argf(args, "--sync=%s",
			 !j->sync ? "none" : j->sync_data_only ? "dsync" : "sync");
	ret = ret ?: bq_argf(args, "--fsync=%u", j->fsync_every);
	ret = ret ?: bq_argf(args, "--randrepeat=%d", j->randrepeat);
	ret = ret ?: bq_argf(args, "--randseed=%" PRIu64, j->randseed);
	if (j->norandommap || j->norandommap_given)
		ret = ret ?: bq_argf(args, "--norandommap=%d", j->norandommap);
	ret = ret ?: add_dist(args, j);
	ret = ret ?: bq_argf(args, "--rate_iops=%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			 j->rate_iops_rw[BQ_READ], j->rate_iops_rw[BQ_WRITE], j->rate_iops_trim);
	ret = ret ?: bq_argf(args, "--group_reporting=%d", j->group_reporting);
	ret = ret ?: bq_argf(args, "--gtod_reduce=%d", j->gtod_reduce);
	if (j->os_clock)
		ret = ret ?: bq_argf(args, "--clocksource=clock_gettime");
	ret = ret ?: bq_errfilter_to_args(j, args);
	ret = ret ?: bq_argf(args, "--stall_timeout=%" PRIu64 "ns", j->stall_timeout_ns);
	ret = ret ?: bq_argf(args, "--ioengine=%s", bq_engine_name(j->engine));
	ret = ret ?: bq_argf(args, "--poll=%s", j->poll == BQ_POLL_ON ? "on" :
			 j->poll == BQ_POLL_OFF ? "off" : "auto");
	ret = ret ?: bq_argf(args, "--fixedbufs=%d", j->fixedbufs);
	ret = ret ?: bq_argf(args, "--registerfiles=%d", j->registerfiles);
	ret = ret ?: bq_argf(args, "--sqthread_poll=%d", j->sqpoll);
	if (j->sqpoll_cpu_set)
		ret = ret ?: bq_argf(args, "--sqthread_poll_cpu=%u", j->sqpoll_cpu);
	/* io_uring's own options: other engines refuse them even at their defaults. */
	if (j->force_async)
		ret = ret ?: bq_argf(args, "--force_async=%u", j->force_async);
	if (j->vectored)
		ret = ret ?: bq_argf(args, "--nonvectored=0");
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (j->fua[d])
			ret = ret ?: bq_argf(args, d == BQ_READ ? "--readfua=1" : "--writefua=1");
	if (j->cpus_allowed[0])
		ret = ret ?: bq_argf(args, "--cpus_allowed=%s", j->cpus_allowed);
	ret = ret ?: add_verify(args, j);
	/* Sizes above are bytes, so kb_base changes none of them: it is kept as set. */
	if (j->kb_base)
		ret = ret ?: bq_argf(args, "--kb_base=%u", j->kb_base);
	if (j->unit_base)
		ret = ret ?: bq_argf(args, "--unit_base=%u", j->unit_base);
	/* the synchronous engines and the sync-family file options (issue 19) */
	ret = ret ?: bq_argf(args, "--fdatasync=%u", j->fdatasync_every);
	ret = ret ?: bq_argf(args, "--end_fsync=%d", j->end_fsync);
	ret = ret ?: bq_argf(args, "--fsync_on_close=%d", j->fsync_on_close);
	ret = ret ?: bq_argf(args, "--write_barrier=%u", j->write_barrier);
	if (j->atomic)
		ret = ret ?: bq_argf(args, "--atomic=1");
	/* pvsync2's own options; any other engine has them at their defaults. */
	if (j->engine == BQ_ENGINE_PVSYNC2) {
		ret = ret ?: bq_argf(args, "--hipri_percentage=%u", j->hipri_percentage);
		ret = ret ?: bq_argf(args, "--uncached=%u", j->uncached);
		ret = ret ?: bq_argf(args, "--nowait=%d", j->nowait);
	}
	/* sg's own option; any other engine refuses it even at its default. */
	if (j->engine == BQ_ENGINE_SG)
		ret = ret ?: bq_argf(args, "--sg_write_mode=%s",
					   bq_sg_write_mode_name(j->sg_write_mode));
	ret = ret ?: bq_bufopt_to_args(j, args);
	ret = ret ?: bq_fileset_to_args(j, args);
	ret = ret ?: add_patterns(args, j);
	ret = ret ?: add_rates(args, j);
	ret = ret ?: add_ordering(args, j);
	ret = ret ?: bq_iolog_to_args(j, args);
	ret = ret ?: bq_zbd_to_args(j, args);
	ret = ret ?: add_queue(args, j);
	ret = ret ?: bq_statlog_to_args(j, args);
	/* io_uring_cmd's own options, written where fio has them. */
	if (j->engine == BQ_ENGINE_URING_CMD) {
		char mode[64];

		bq_job_write_mode_str(j, mode, sizeof(mode));
		ret = ret ?: bq_argf(args, "--write_mode=%s", mode);
		ret = ret ?: bq_argf(args, "--deac=%d", j->nvme_deac);
		ret = ret ?: bq_argf(args, "--md_per_io_size=%u", j->nvme_md_per_io);
		ret = ret ?: bq_argf(args, "--pi_act=%d", j->nvme_pi_act);
		if (j->nvme_prchk)
			ret = ret ?: bq_argf(args, "--pi_chk=%s%s%s",
					     j->nvme_prchk & BQ_NVME_PRCHK_GUARD ? "GUARD," : "",
					     j->nvme_prchk & BQ_NVME_PRCHK_REF ? "REFTAG," : "",
					     j->nvme_prchk & BQ_NVME_PRCHK_APP ? "APPTAG" : "");
		ret = ret ?: bq_argf(args, "--apptag=0x%x", j->nvme_apptag);
		ret = ret ?: bq_argf(args, "--apptag_mask=0x%x", j->nvme_apptag_mask);
		ret = ret ?: bq_job_dp_args(j, args);
	}
	ret = ret ?: bq_argf(args, "--num_range=%u", j->num_range);
	ret = ret ?: bq_fill_to_args(j, args);
	ret = ret ?: bq_sprandom_to_args(j, args);
	ret = ret ?: bq_job_stats_args(j, args);
	return ret;
}
