// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn.c - test helper: a program running in the background while the
 * test breaks something under it (a device removed, a filesystem frozen,
 * a signal sent), and how long it took to end
 *
 * run_blkqual() waits for the program; the fault tests must act while it
 * runs and then time its end, so they start it here with its output in
 * a file to read afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "run.h"
#include "spawn.h"

/* Milliseconds on the monotonic clock. */
long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleep @ms milliseconds, whatever signals arrive meanwhile. */
void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/**
 * spawn_logged() - start a program with its stdout and stderr in a file
 * @argv: the program (argv[0] is its path) and its arguments
 * @log: the file, created or truncated
 *
 * Return: the child's pid, or -1 when fork failed.
 */
pid_t spawn_logged(const char *const *argv, const char *log)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/**
 * wait_exit_ms() - wait a while for a child to end
 * @pid: the child
 * @ms: how long to wait at the most
 * @status: its wait status, once it ended
 *
 * Return: how many milliseconds it took, or -1 when it still runs (the
 * caller decides whether to kill it).
 */
long long wait_exit_ms(pid_t pid, long long ms, int *status)
{
	long long t0 = now_ms();

	while (now_ms() - t0 < ms) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return now_ms() - t0;
		sleep_ms(10);
	}
	return -1;
}

/**
 * wait_exit_or_kill_ms() - wait_exit_ms(), killing and reaping a child
 * that still runs when the time is up
 * @pid: the child
 * @ms: how long to wait at the most
 * @status: its wait status (SIGKILL's when it had to be killed)
 *
 * Return: how many milliseconds it took, or -1 when it was killed.
 */
long long wait_exit_or_kill_ms(pid_t pid, long long ms, int *status)
{
	long long took = wait_exit_ms(pid, ms, status);

	if (took < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, status, 0);
	}
	return took;
}

/* Whether @pid has ended, leaving it for wait_exit_ms() to reap. */
static bool child_ended(pid_t pid)
{
	siginfo_t info = { .si_pid = 0 };

	return waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) || info.si_pid == pid;
}

/**
 * wait_log_ms() - wait a while for a background program to write a line
 * @pid: the program, whose end stops the wait early
 * @log: the file its output goes to
 * @text: what to look for in it, followed by the end of its line
 * @ms: how long to wait at the most
 *
 * A fixed sleep guesses how long the program takes to get ready, and a
 * slow machine (a sanitized build, a loaded CI runner) guesses wrong.
 * The line's end is waited for too: stderr is written in pieces, and the
 * rest of the line is what the caller checks.
 *
 * Return: how many milliseconds it took, or -1 when the time is up or
 * the program ended without writing it.
 */
long long wait_log_ms(pid_t pid, const char *log, const char *text, long long ms)
{
	long long t0 = now_ms();

	while (now_ms() - t0 < ms) {
		char *out = slurp(log);
		char *at = out ? strstr(out, text) : NULL;
		bool seen = at && strchr(at, '\n');

		free(out);
		if (seen)
			return now_ms() - t0;
		if (child_ended(pid))
			return -1;
		sleep_ms(20);
	}
	return -1;
}
