/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strace.h - test helper: the system calls a command makes, counted by
 * strace -f -c, as an outside truth for "makes the calls its original makes"
 */
#ifndef SELFTESTS_STRACE_H
#define SELFTESTS_STRACE_H

#include "helpers/run.h"

/**
 * strace_with() - run @argv under "strace -f -o @out" and the options @opts
 * @opts: strace's own options, NULL-terminated ("-e", "trace=openat", say)
 * @argv: the command, NULL-terminated
 * @out: where strace writes its record
 * @res: the command's exit status and output (free with run_result_free())
 *
 * LeakSanitizer cannot work under ptrace (a sanitized command would exit
 * with ASan's status before its first call): the command runs without it.
 *
 * Return: 0, or -errno when it could not be started.
 */
int strace_with(const char *const opts[], const char *const argv[], const char *out,
		struct run_result *res);

/**
 * strace_run() - run @argv under "strace -f -c -o @out"
 * @argv: the command, NULL-terminated
 * @out: where strace writes its table
 * @res: the command's exit status and output (free with run_result_free())
 *
 * Return: as strace_with().
 */
int strace_run(const char *const argv[], const char *out, struct run_result *res);

/* How many calls of @name the "strace -c" table @text counts (0 when none). */
long long strace_calls(const char *text, const char *name);

#endif /* SELFTESTS_STRACE_H */
