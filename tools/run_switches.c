// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_switches.c - fio's command-line switches that shape a run: when the
 * status line shows (--eta, --eta-newline, --eta-interval), the whole
 * report while the run goes on (--status-interval), stopping after the
 * parse (--parse-only, --showcmd), and --readonly, which fio users give
 * as the safety catch before pointing a read job at a disk that holds
 * data.
 */
#include <errno.h>
#include <string.h>

#include "run_switches.h"

const char *run_switch_value(int argc, char **argv, int *i, const char *key, bool *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(key);

	/* fio spells these with two dashes; one dash is accepted as for job options. */
	a += a[1] == '-' ? 2 : 1;
	if (strncmp(a, key, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static bool is_switch(const char *arg, const char *name)
{
	return !strcmp(arg + (arg[1] == '-' ? 2 : 1), name);
}

static int duration(struct cli *cli, const char *key, const char *v, uint64_t *ns)
{
	/* A bare number is seconds, as in fio. */
	if (bq_parse_time(v, 1000000000ULL, ns) || !*ns)
		return cli_usage_error(cli, "--%s=%s: not a duration", key, v);
	return 1;
}

int run_switch(struct run_switches *sw, struct cli *cli, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	bool missing = false;

	if (is_switch(a, "parse-only")) {
		sw->parse_only = true;
		return 1;
	}
	if (is_switch(a, "showcmd")) {
		sw->showcmd = true;
		return 1;
	}
	if (is_switch(a, "readonly")) {
		sw->readonly = true;
		return 1;
	}
	if ((v = run_switch_value(argc, argv, i, "eta-newline", &missing)))
		return duration(cli, "eta-newline", v, &sw->eta_newline_ns);
	if ((v = run_switch_value(argc, argv, i, "eta-interval", &missing)))
		return duration(cli, "eta-interval", v, &sw->eta_interval_ns);
	if ((v = run_switch_value(argc, argv, i, "status-interval", &missing)))
		return duration(cli, "status-interval", v, &sw->status_interval_ns);
	if ((v = run_switch_value(argc, argv, i, "eta", &missing))) {
		if (!strcmp(v, "always"))
			sw->eta = RUN_ETA_ALWAYS;
		else if (!strcmp(v, "never"))
			sw->eta = RUN_ETA_NEVER;
		else if (!strcmp(v, "auto"))
			sw->eta = RUN_ETA_AUTO;
		else
			return cli_usage_error(cli, "--eta=%s: use always, never or auto", v);
		return 1;
	}
	if (missing)
		return cli_usage_error(cli, "option '%s' needs a value", a);
	return 0;
}

int run_switches_check(const struct run_switches *sw, struct cli *cli,
		       const struct bq_jobset *set)
{
	if (!sw->readonly)
		return 0;
	for (size_t k = 0; k < set->nr; k++) {
		const struct bq_job *j = &set->jobs[k];

		if (j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD)
			return cli_usage_error(cli, "--readonly: job '%s' writes or trims", j->name);
		if (j->unlink || j->unlink_each_loop)
			return cli_usage_error(cli, "--readonly: job '%s' removes its files (%s=1)",
					       j->name, j->unlink ? "unlink" : "unlink_each_loop");
	}
	return 0;
}

/* @s as one shell word: quoted when it holds anything the shell would split or expand. */
static void put_word(FILE *out, const char *s)
{
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789-_=.,:/+%@")]) {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/* The "key=value" lines of @given[from, to) as --key=value words. */
static void put_given(FILE *out, const char *given, size_t from, size_t to)
{
	char word[1100];

	while (from < to) {
		const char *line = given + from, *nl = memchr(line, '\n', to - from);
		size_t len = nl ? (size_t)(nl - line) : to - from;

		from += len + 1;
		/* The job's name is its own word, before its options. */
		if (!len || len >= sizeof(word) - 3 || !strncmp(line, "name=", 5))
			continue;
		/* A flag given without a value ("stonewall") is a line without '='. */
		snprintf(word, sizeof(word), "--%.*s", (int)len, line);
		fputc(' ', out);
		put_word(out, word);
	}
}

int run_showcmd(FILE *out, const struct bq_jobset *set)
{
	fputs("blkqual run", out);
	for (size_t k = 0; k < set->nr; k++) {
		const struct bq_job *j = &set->jobs[k];
		size_t own = j->fio_given_own, len = strnlen(j->fio_given, sizeof(j->fio_given));
		char word[300];

		/* The global options once, as fio prints them, before the first job. */
		if (!k)
			put_given(out, j->fio_given, 0, own);
		snprintf(word, sizeof(word), "--name=%s", j->name);
		fputc(' ', out);
		put_word(out, word);
		put_given(out, j->fio_given, own, len);
	}
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
