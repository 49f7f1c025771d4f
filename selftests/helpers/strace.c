// SPDX-License-Identifier: GPL-2.0-only
/*
 * strace.c - test helper: a command's system calls, as strace records them
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/strace.h"

int strace_with(const char *const opts[], const char *const argv[], const char *out,
		struct run_result *res)
{
	const char *args[64] = { "strace", "-f", "-o", out };
	const char *was = getenv("ASAN_OPTIONS");
	char *had = was ? strdup(was) : NULL;
	char asan[512];
	size_t n = 4;
	int ret;

	while (*opts && n < sizeof(args) / sizeof(args[0]) - 1)
		args[n++] = *opts++;
	while (*argv && n < sizeof(args) / sizeof(args[0]) - 1)
		args[n++] = *argv++;
	args[n] = NULL;
	snprintf(asan, sizeof(asan), "%s%sdetect_leaks=0", had ? had : "", had ? ":" : "");
	setenv("ASAN_OPTIONS", asan, 1);
	ret = run_argv(args, res);
	if (had)
		setenv("ASAN_OPTIONS", had, 1);
	else
		unsetenv("ASAN_OPTIONS");
	free(had);
	return ret;
}

int strace_run(const char *const argv[], const char *out, struct run_result *res)
{
	static const char *const count[] = { "-c", NULL };

	return strace_with(count, argv, out, res);
}

long long strace_calls(const char *text, const char *name)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n') + 1) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[160], last[64];
		long long calls = -1, n;
		double pct, secs;
		long long usecs;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		/* "% time  seconds  usecs/call  calls  [errors]  syscall" */
		if (sscanf(buf, "%lf %lf %lld %lld %lld %63s", &pct, &secs, &usecs, &calls, &n,
			   last) == 6 && !strcmp(last, name))
			return calls;
		if (sscanf(buf, "%lf %lf %lld %lld %63s", &pct, &secs, &usecs, &calls, last) == 5 &&
		    !strcmp(last, name))
			return calls;
		if (!end)
			break;
	}
	return 0;
}
