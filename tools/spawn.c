// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn.c - run a helper program (mkfs.xfs, xfs_info, mdadm) from an
 * argument vector, never through a shell, and keep what it printed
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/**
 * run_capture() - run @argv, collecting its stdout and stderr
 * @argv: the program and its arguments, NULL-terminated
 * @out: receives what it printed (NUL-terminated, cut at @len - 1)
 * @len: size of @out
 *
 * Return: its exit status, or -errno when it could not be run.
 */
int run_capture(const char *const *argv, char *out, size_t len)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, ret;
	size_t used = 0;
	char drain[512];
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		return -ret;
	}
	while ((n = read(pipefd[0], used < len - 1 ? out + used : drain,
			 used < len - 1 ? len - 1 - used : sizeof(drain))) > 0)
		if (used < len - 1)
			used += (size_t)n;
	out[used] = '\0';
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}
