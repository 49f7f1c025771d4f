/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spawn.h - test helper: a program running in the background while the
 * test breaks something under it, and how long it took to end
 */
#ifndef SELFTESTS_SPAWN_H
#define SELFTESTS_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

long long now_ms(void);
void sleep_ms(long ms);
pid_t spawn_logged(const char *const *argv, const char *log);
long long wait_exit_ms(pid_t pid, long long ms, int *status);
long long wait_exit_or_kill_ms(pid_t pid, long long ms, int *status);
long long wait_log_ms(pid_t pid, const char *log, const char *text, long long ms);

#endif /* SELFTESTS_SPAWN_H */
