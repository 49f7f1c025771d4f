// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - a fuzz target without libFuzzer: each input named on the
 * command line (or each file in a directory named there) is run once
 *
 * "make check" replays the seed corpus and the inputs that once crashed
 * a target this way, so a fixed bug stays fixed without clang; built with
 * SANITIZE=1, the replay is checked by ASan and UBSan as well.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/* One input may take this long; a hang is a failure, not a stuck test run. */
#define INPUT_TIMEOUT_S 20

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *exact;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *grown = realloc(buf, cap ? cap * 2 : 4096);

			if (!grown) {
				fprintf(stderr, "replay: %s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = grown;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	fprintf(stderr, "# input %s (%zu bytes)\n", path, len);
	/* libFuzzer hands out a buffer of exactly the input's size. */
	exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	alarm(INPUT_TIMEOUT_S);
	LLVMFuzzerTestOneInput(exact, len);
	alarm(0);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Files of a directory, in name order; returns how many ran, or -1. */
static int replay_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, not_hidden, by_name), ran = 0, ret = 0;

	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!ret) {
			ret = replay_file(path);
			ran++;
		}
		free(ents[i]);
	}
	free(ents);
	return ret ? -1 : ran;
}

int main(int argc, char **argv)
{
	int total = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s INPUT|DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		int n;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		n = S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : !replay_file(argv[i]) ? 1 : -1;
		if (n < 0)
			return 1;
		total += n;
	}
	fprintf(stderr, "replayed %d inputs\n", total);
	return 0;
}
