/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - test helper: run the blkqual binary and capture what it says
 */
#ifndef SELFTESTS_RUN_H
#define SELFTESTS_RUN_H

/**
 * struct run_result - what a finished command left behind
 * @status: exit status, or 128 + signal number
 * @out: everything written to stdout (NUL-terminated)
 * @err: everything written to stderr (NUL-terminated)
 */
struct run_result {
	int status;
	char *out;
	char *err;
};

const char *blkqual_path(void);
const char *srctree_path(void);
int run_argv(const char *const argv[], struct run_result *res);
int run_blkqual(struct run_result *res, ...) __attribute__((sentinel));
void run_result_free(struct run_result *res);
int count_lines(const char *s);
char *slurp(const char *path);

#endif /* SELFTESTS_RUN_H */
