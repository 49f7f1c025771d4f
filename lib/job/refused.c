// SPDX-License-Identifier: GPL-2.0-only
/*
 * refused.c - the fio options blkqual does not implement, and why
 *
 * A fio job file must not run here with part of it silently dropped, and
 * its author should learn in the same line whether the option is coming
 * or is outside what blkqual is for.  So every fio name that is not in
 * the option table is listed here, in groups that share one reason.
 * Command-line-only fio switches are here too: they show up when a fio
 * command line is pasted.
 */
#include <string.h>

#include "jobopt.h"
#include "internal.h"

struct refused_group {
	const char *reason;
	const char *const *names;
};

#define GROUP(why, ...) { .reason = (why), .names = (const char *const[]){ __VA_ARGS__, NULL } }

static const struct refused_group refused[] = {
	GROUP("blkqual does not change its user, group or CPU priority",
	      "uid", "gid", "nice"),
	GROUP("locking a file between jobs is not implemented", "lockfile"),
	GROUP("page-cache hints are not implemented", "fadvise_hint", "fadvise_stream"),
	GROUP("the guard decides what may be written: see blkqual guard and --force-destroy",
	      "allow_mounted_write"),
	GROUP("this flush option is not implemented yet (fsync, fdatasync, end_fsync, "
	      "fsync_on_close and sync are)",
	      "sync_file_range", "end_syncfs"),
	GROUP("blkqual allocates its own aligned buffers on the device's NUMA node",
	      "iomem", "mem", "iomem_align", "mem_align", "hugepage-size", "lockmem"),
	GROUP("cgroups are not implemented", "cgroup", "cgroup_weight", "cgroup_nodelete"),
	GROUP("blkqual keeps the verify state in --verify-state FILE (see verify.rst)",
	      "verify_state_save", "verify_state_load"),
	GROUP("compressed logs are not implemented: blkqual writes its logs as plain text, "
	      "in batches", "log_compression", "log_compression_cpus", "log_store_compressed"),
	GROUP("this statistics option is not implemented yet",
	      "block_error_percentiles", "bwavgtime", "iopsavgtime", "disable_lat",
	      "disable_clat", "disable_slat", "disable_bw_measurement", "slat_percentiles",
	      "stats"),
	GROUP("blkqual reads the clock on the CPU doing the I/O", "gtod_cpu"),
	GROUP("disk utilisation is always reported", "disk_util"),
	GROUP("blkqual runs no programs around a job", "exec_prerun", "exec_postrun"),
	GROUP("blkqual does not change the device's I/O scheduler", "ioscheduler"),
	GROUP("this engine option is not implemented yet",
	      "userspace_reap", "write_hint"),
	/* io_uring_cmd NVMe extras (issue 19): what stays refused */
	GROUP("io_uring_cmd's SCSI commands (cmd_type=bsg) are not supported: use ioengine=sg",
	      "cdb_len", "read_mode", "verify_bytchk"),
	GROUP("NVMe Compare in the verify phase (verify_mode=compare) is not implemented: "
	      "verify= reads back", "verify_mode"),
	GROUP("sg's WRITE STREAM (sg_write_mode=write_stream) is not implemented",
	      "stream_id"),
	GROUP("a switch of blkqual run's command line, as of fio's, not a job option",
	      "output", "output-format", "minimal", "append-terse", "terse-version", "eta",
	      "eta-newline", "eta-interval", "parse-only", "readonly", "showcmd",
	      "status-interval"),
	GROUP("fio command-line switch: blkqual run has its own (blkqual run --help)",
	      "bandwidth-log", "warnings-fatal", "max-jobs", "server",
	      "client", "alloc-size", "trigger-file", "trigger-timeout", "trigger",
	      "trigger-remote", "aux-path", "debug", "cmdhelp", "enghelp",
	      "crctest", "idle-prof", "inflate-log", "profile"),
};

/**
 * bq_job_opt_refusal() - why blkqual refuses a fio option
 * @key: the option's name
 *
 * Return: the reason, or NULL when @key is not a refused fio option.
 */
const char *bq_job_opt_refusal(const char *key)
{
	for (size_t g = 0; g < ARRAY_SIZE(refused); g++)
		for (const char *const *n = refused[g].names; *n; n++)
			if (!strcmp(*n, key))
				return refused[g].reason;
	return NULL;
}

/**
 * bq_job_refused_each() - call @fn for every refused fio option
 * @fn: gets the name, the reason and @arg; a non-zero return stops
 * @arg: passed through
 *
 * Return: what @fn returned last.
 */
int bq_job_refused_each(int (*fn)(const char *name, const char *reason, void *arg), void *arg)
{
	int ret = 0;

	for (size_t g = 0; g < ARRAY_SIZE(refused) && !ret; g++)
		for (const char *const *n = refused[g].names; *n && !ret; n++)
			ret = fn(*n, refused[g].reason, arg);
	return ret;
}
