// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_util.c - what the fuzz targets share: a private working directory,
 * inputs as files, strings and argument vectors
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char workdir[128];
static int workdir_fd = -1, home_fd = -1;
static pid_t owner;

static void die(const char *what)
{
	perror(what);
	abort();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* Only the process that made the directory removes it: commands may fork. */
static void remove_workdir(void)
{
	if (getpid() == owner)
		nftw(workdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * A target that crashes leaves its directory behind (libFuzzer ends it
 * with _exit()): remove those of processes that are gone.
 */
static void remove_stale(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[512];
		int pid;

		if (sscanf(e->d_name, "blkqual-fuzz.%d.", &pid) != 1 || pid <= 0 ||
		    !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	closedir(d);
}

static bool make_workdir(const char *base)
{
	snprintf(workdir, sizeof(workdir), "%s/blkqual-fuzz.%d.XXXXXX", base, (int)getpid());
	if (!mkdtemp(workdir))
		return false;
	remove_stale(base);
	return true;
}

const char *fuzz_setup(void)
{
	int fd;

	if (owner)
		return workdir;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0)
		die("fuzz: /dev/null");
	close(fd);
	/*
	 * Inputs are written as files thousands of times a second: tmpfs, as
	 * a disk filesystem may write each one out on close after a truncate.
	 */
	if (!make_workdir("/dev/shm") && !make_workdir("/tmp"))
		die("fuzz: mkdtemp");
	workdir_fd = open(workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (workdir_fd < 0)
		die(workdir);
	owner = getpid();
	atexit(remove_workdir);
	return workdir;
}

void fuzz_enter(void)
{
	home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (home_fd < 0 || fchdir(workdir_fd))
		die("fuzz: fuzz_enter");
}

void fuzz_leave(void)
{
	if (fchdir(home_fd))
		die("fuzz: fuzz_leave");
	close(home_fd);
	home_fd = -1;
}

void fuzz_write_file(const char *name, const void *data, size_t size)
{
	int fd = openat(workdir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		die(name);
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, (const char *)data + done, size - done);

		if (n <= 0)
			die(name);
		done += (size_t)n;
	}
	close(fd);
}

char *fuzz_strndup(const void *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		die("fuzz: malloc");
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char **fuzz_split(const void *data, size_t size, char sep, int *nr)
{
	const char *p = data, *end = p + size;
	char **pieces;
	int n = 1, i = 0;

	for (size_t k = 0; k < size; k++)
		n += p[k] == sep;
	pieces = calloc((size_t)n + 1, sizeof(*pieces));
	if (!pieces)
		die("fuzz: calloc");
	for (;;) {
		const char *q = memchr(p, sep, (size_t)(end - p));

		if (!q)
			q = end;
		pieces[i++] = fuzz_strndup(p, (size_t)(q - p));
		if (q == end)
			break;
		p = q + 1;
	}
	*nr = n;
	return pieces;
}

void fuzz_free_split(char **pieces)
{
	for (char **p = pieces; *p; p++)
		free(*p);
	free(pieces);
}

void fuzz_reset_getopt(void)
{
	/* glibc starts over, static state included, when optind is 0. */
	optind = 0;
	opterr = 0;
}
