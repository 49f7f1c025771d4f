/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - private declarations of the conformance suite (blkqual check):
 * the device handle and the helpers every check shares
 */
#ifndef BLKQUAL_CHECK_PRIV_H
#define BLKQUAL_CHECK_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "blkqual_check.h"
#include "internal.h"

/**
 * struct bq_check_dev - the device under test
 * @ctx: the library context
 * @dev: its facts from sysfs
 * @path: the device node
 * @qdir: its sysfs queue directory (the whole disk's for a partition)
 * @fd: the guard's descriptor: O_RDWR, O_EXCL, O_DIRECT
 * @bfd: a second, buffered descriptor of the same device
 * @size: bytes, from BLKGETSIZE64
 * @lbs: logical block size
 * @max_io: max_sectors_kb in bytes: the largest request before a split
 * @fault: the check whose data is to be corrupted once, or NULL
 * @running: the check now running
 * @fault_done: the fault has been applied
 * @gen: counter that makes every write's pattern unique
 */
struct bq_check_dev {
	struct bq_ctx *ctx;
	struct bq_device dev;
	char path[PATH_MAX];
	char qdir[PATH_MAX];
	int fd;
	int bfd;
	uint64_t size;
	uint32_t lbs;
	uint32_t max_io;
	const char *fault;
	const char *running;
	bool fault_done;
	uint64_t gen;
};

/* Pattern seed that stands for "all zeroes" in chk_verify(). */
#define CHK_ZEROES 0

enum bq_check_status chk_pass(struct bq_check_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum bq_check_status chk_fail(struct bq_check_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum bq_check_status chk_skip(struct bq_check_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void *chk_alloc(size_t len);
uint64_t chk_seed(struct bq_check_dev *cd);
void chk_fill(void *buf, size_t len, uint64_t dev_off, uint64_t seed);
size_t chk_first_diff(const void *got, size_t len, uint64_t dev_off, uint64_t seed);
int chk_pwrite(int fd, const void *buf, size_t len, uint64_t off);
int chk_pread(int fd, void *buf, size_t len, uint64_t off);
int chk_write_pattern(struct bq_check_dev *cd, uint64_t off, size_t len, uint64_t seed);
enum bq_check_status chk_verify(struct bq_check_dev *cd, struct bq_check_result *res,
				uint64_t off, size_t len, uint64_t seed, const char *what);
enum bq_check_status chk_compare(struct bq_check_dev *cd, struct bq_check_result *res,
				 const void *got, uint64_t off, size_t len, uint64_t seed,
				 const char *what);
void chk_tamper(struct bq_check_dev *cd, uint64_t off, size_t len);
uint64_t chk_attr(struct bq_check_dev *cd, const char *attr, uint64_t dflt);
void chk_attr_str(struct bq_check_dev *cd, const char *attr, char *buf, size_t len);
bool chk_zoned(struct bq_check_dev *cd, struct bq_check_result *res);
bool chk_room(struct bq_check_dev *cd, struct bq_check_result *res, uint64_t need);
void chk_size(char *buf, size_t len, uint64_t bytes);

/* check_limits.c */
enum bq_check_status bq_check_limits(struct bq_check_dev *cd, struct bq_check_result *res);
enum bq_check_status bq_check_discard(struct bq_check_dev *cd, struct bq_check_result *res);
enum bq_check_status bq_check_write_zeroes(struct bq_check_dev *cd,
					   struct bq_check_result *res);

/* check_rw.c */
enum bq_check_status bq_check_read_after_write(struct bq_check_dev *cd,
					       struct bq_check_result *res);
enum bq_check_status bq_check_misaligned(struct bq_check_dev *cd, struct bq_check_result *res);
enum bq_check_status bq_check_end_of_device(struct bq_check_dev *cd,
					    struct bq_check_result *res);
enum bq_check_status bq_check_flush_fua(struct bq_check_dev *cd, struct bq_check_result *res);

/* check_engines.c */
enum bq_check_status bq_check_polled(struct bq_check_dev *cd, struct bq_check_result *res);
enum bq_check_status bq_check_engines(struct bq_check_dev *cd, struct bq_check_result *res);
enum bq_check_status bq_check_concurrent(struct bq_check_dev *cd, struct bq_check_result *res);

#endif /* BLKQUAL_CHECK_PRIV_H */
