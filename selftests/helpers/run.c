// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - test helper: run a command, capture stdout, stderr and status
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers/run.h"

/* The build passes BLKQUAL; running a test by hand from the top works too. */
const char *blkqual_path(void)
{
	const char *p = getenv("BLKQUAL");

	return p && *p ? p : "./blkqual";
}

const char *srctree_path(void)
{
	const char *p = getenv("BLKQUAL_SRCTREE");

	return p && *p ? p : ".";
}

struct buf {
	char *data;
	size_t len;
};

static int buf_read(int fd, struct buf *b)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof(chunk));
	char *grown;

	if (n <= 0)
		return (int)n;
	grown = realloc(b->data, b->len + n + 1);
	if (!grown)
		return -1;
	memcpy(grown + b->len, chunk, n);
	b->len += n;
	grown[b->len] = '\0';
	b->data = grown;
	return (int)n;
}

int run_argv(const char *const argv[], struct run_result *res)
{
	struct buf out = { 0 }, err = { 0 };
	int po[2], pe[2], status;
	struct pollfd pfd[2];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	pfd[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			if (buf_read(pfd[i].fd, i ? &err : &out) <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
			}
		}
	}
	waitpid(pid, &status, 0);
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	res->out = out.data ? out.data : strdup("");
	res->err = err.data ? err.data : strdup("");
	return 0;
}

/**
 * run_blkqual() - run blkqual with the given arguments, NULL-terminated
 * @res: receives status and output
 *
 * Return: 0 or -errno when the command could not be started.
 */
int run_blkqual(struct run_result *res, ...)
{
	const char *argv[64];
	va_list ap;
	int n = 0;

	argv[n++] = blkqual_path();
	va_start(ap, res);
	while (n < 63 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_argv(argv, res);
}

void run_result_free(struct run_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

char *slurp(const char *path)
{
	struct buf b = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while (buf_read(fd, &b) > 0)
		;
	close(fd);
	return b.data ? b.data : strdup("");
}
