/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_check.h - the conformance suite: functional checks against one
 * block device (blkqual check)
 *
 * Each check writes only inside the device it was given, after the
 * safety guard has allowed it, and answers pass, fail or skip with one
 * line saying why.  Nothing here prints; the command turns the answers
 * into TAP.
 */
#ifndef BLKQUAL_CHECK_H
#define BLKQUAL_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkqual.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum bq_check_status - the answer of one check
 * @BQ_CHECK_PASS: the device behaved as the kernel documents
 * @BQ_CHECK_FAIL: it did not; the reason says where
 * @BQ_CHECK_SKIP: the check cannot run here; the reason says why
 */
enum bq_check_status {
	BQ_CHECK_PASS,
	BQ_CHECK_FAIL,
	BQ_CHECK_SKIP,
};

#define BQ_CHECK_REASON_LEN 512

/**
 * struct bq_check_result - what a check found
 * @status: pass, fail or skip
 * @reason: one line, no trailing period: what was verified (pass), the
 *          first thing that went wrong (fail) or what is missing (skip)
 * @elapsed_ns: how long the check took
 * @fault_injected: the fault named in &struct bq_check_opts was applied
 */
struct bq_check_result {
	enum bq_check_status status;
	char reason[BQ_CHECK_REASON_LEN];
	uint64_t elapsed_ns;
	bool fault_injected;
};

struct bq_check_dev;

/**
 * struct bq_check - one entry of the suite
 * @name: short name, as --only and --skip take it
 * @description: one line for --list
 * @compares_data: reads back what it wrote, so a fault can be injected
 * @fn: the check; fills @res->reason and returns the status, never prints
 */
struct bq_check {
	const char *name;
	const char *description;
	bool compares_data;
	enum bq_check_status (*fn)(struct bq_check_dev *cd, struct bq_check_result *res);
};

/**
 * bq_checks() - the suite, in the order it runs
 * @nr: receives the number of checks
 *
 * Return: the table, static.
 */
const struct bq_check *bq_checks(size_t *nr);

/**
 * bq_check_find() - a check by name
 * @name: its name
 *
 * Return: the entry, or NULL.
 */
const struct bq_check *bq_check_find(const char *name);

/**
 * struct bq_check_opts - how to open the device for the suite
 * @guard: overrides for the safety guard (--force-destroy), or NULL
 * @fault: name of a check that should see its data corrupted once,
 *         between writing and reading back, through a second descriptor:
 *         a testing aid that simulates a device returning wrong data;
 *         NULL in normal use
 */
struct bq_check_opts {
	const struct bq_guard_opts *guard;
	const char *fault;
};

/**
 * bq_check_open() - open a block device for the suite
 * @ctx: context (must be live: the guard checks this machine)
 * @path: the device node
 * @opts: guard overrides and fault injection, or NULL
 * @rep: receives the guard's findings
 * @cdp: receives the handle; release with bq_check_close()
 *
 * The device is opened through bq_guard_open() (O_EXCL, O_DIRECT) and
 * its facts are read from sysfs with bq_device_load().
 *
 * Return: 0; -EBUSY when the guard refuses (see @rep); -ENOTBLK when
 * @path is not a block device; -ENOENT, -EXDEV, -EACCES or another -errno.
 */
int bq_check_open(struct bq_ctx *ctx, const char *path, const struct bq_check_opts *opts,
		  struct bq_guard_report *rep, struct bq_check_dev **cdp);

/**
 * bq_check_device() - what sysfs says about the device under test
 * @cd: the handle
 *
 * Return: the device's facts, valid until bq_check_close().
 */
const struct bq_device *bq_check_device(const struct bq_check_dev *cd);

/**
 * bq_check_run() - run one check
 * @cd: the handle
 * @check: the check, from bq_checks()
 * @res: receives the answer
 *
 * Return: @res->status.
 */
enum bq_check_status bq_check_run(struct bq_check_dev *cd, const struct bq_check *check,
				  struct bq_check_result *res);

/**
 * bq_check_close() - close the device and free the handle
 * @cd: the handle, may be NULL
 */
void bq_check_close(struct bq_check_dev *cd);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_CHECK_H */
