// SPDX-License-Identifier: GPL-2.0-only
/*
 * complete.c - "blkqual __complete CWORD WORD...": shell completion
 *
 * The bash script only hands the words over; the answers come from the
 * tables the parsers use, so they cannot drift: the command names from
 * blkqual's command table, each command's options from the very tables
 * it parses with (cli_complete_options(), called by every parser before
 * it parses), fio's job options from the job option table, and their
 * closed sets of values from the setters themselves (bq_job_opt_values(),
 * bq_fileio_opt_values()).
 *
 * The command is run in a child that prints its options and ends before
 * it parses anything, so completing never touches a device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blkqual_fileio.h"
#include "cli.h"

/* The commands that take a subcommand word first. */
static const struct {
	const char *cmd;
	const char *const subs[5];
} subcommands[] = {
	{ "fs", { "create", "destroy" } },
	{ "raid", { "plan", "create", "destroy" } },
	{ "fileio", { "prepare", "run", "cleanup", "help" } },
};

struct words {
	char **v;
	int nr;
	int cur;		/* index of the word being completed */
	bool split;		/* bash cut "--rw=ra" into "--rw" "=" "ra" */
};

struct want {
	const char *prefix;
	const char *lead;	/* printed before each candidate ("--rw=") */
};

static void offer(const struct want *w, const char *cand)
{
	size_t n = strlen(w->prefix);

	if (!strncmp(cand, w->prefix, n))
		printf("%s%s\n", w->lead, cand);
}

/*
 * Put back together what bash's COMP_WORDBREAKS cut at '=': "--rw" "="
 * "ra" is the one word "--rw=ra".
 */
static int join_words(int cword, int argc, char **argv, struct words *w)
{
	w->v = calloc((size_t)argc + 2, sizeof(char *));
	if (!w->v)
		return -ENOMEM;
	w->cur = -1;
	for (int i = 0; i < argc || i <= cword; i++) {
		const char *a = i < argc ? argv[i] : "";
		bool glue = w->nr && (!strcmp(a, "=") ||
				      (i > 0 && i - 1 < argc && !strcmp(argv[i - 1], "=") &&
				       w->v[w->nr - 1][strlen(w->v[w->nr - 1]) - 1] == '='));

		if (glue) {
			char *prev = w->v[w->nr - 1];
			char *n = malloc(strlen(prev) + strlen(a) + 1);

			if (!n)
				return -ENOMEM;
			strcpy(n, prev);
			strcat(n, a);
			free(prev);
			w->v[w->nr - 1] = n;
			if (i == cword) {
				w->cur = w->nr - 1;
				w->split = true;
			}
		} else {
			w->v[w->nr] = strdup(a);
			if (!w->v[w->nr])
				return -ENOMEM;
			if (i == cword)
				w->cur = w->nr;
			w->nr++;
		}
	}
	return w->cur < 0 ? -EINVAL : 0;
}

static void free_words(struct words *w)
{
	for (int i = 0; i < w->nr; i++)
		free(w->v[i]);
	free(w->v);
}

/*
 * What the command's parser takes, one per line: "-x", "--name",
 * "--name=" for a value, CLI_COMPLETE_JOB_OPTIONS for fio's job options.
 */
static char *command_options(int (*fn)(int, char **), const char *cmd, const char *sub)
{
	char *argv[] = { (char *)cmd, (char *)sub, NULL, NULL };
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	/* If a parser ever missed the hook, --help still does nothing but print. */
	argv[sub ? 2 : 1] = "--help";
	if (pipe(pfd))
		return NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return NULL;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		close(pfd[0]);
		dup2(pfd[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		cli_completing = true;
		_exit(fn(sub ? 3 : 2, argv) & 0xff);
	}
	close(pfd[1]);
	for (;;) {
		if (len + 1024 > cap) {
			char *g = realloc(buf, cap + 4096);

			if (!g)
				break;
			buf = g;
			cap += 4096;
		}
		n = read(pfd[0], buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static int job_option(const char *name, const char *refused, void *arg)
{
	const struct want *w = arg;
	char cand[128];

	if (refused)
		return 0;
	snprintf(cand, sizeof(cand), "%s%s", name, bq_job_opt_takes_value(name) ? "=" : "");
	if (!strncmp(cand, w->prefix, strlen(w->prefix)))
		printf("%s%s\n", w->lead, cand);
	return 0;
}

static int offer_value(const char *value, void *arg)
{
	offer(arg, value);
	return 0;
}

/* "--rw=ra": the values of an option, when they are a closed set */
static void option_values(const char *cur, bool split,
			  int (*values)(const char *name, int (*fn)(const char *, void *),
					void *arg))
{
	const char *name = cur + (cur[1] == '-' ? 2 : 1), *eq = strchr(cur, '=');
	char opt[128], lead[160];
	struct want w;

	snprintf(opt, sizeof(opt), "%.*s", (int)(eq - name), name);
	/* bash replaces only what follows the '=' when it cut the word there */
	snprintf(lead, sizeof(lead), "%s", split ? "" : cur);
	lead[split ? 0 : eq - cur + 1] = '\0';
	w = (struct want){ .prefix = eq + 1, .lead = lead };
	values(opt, offer_value, &w);
}

static void options(const char *list, const char *cur, bool job)
{
	struct want w = { .prefix = cur, .lead = "" };
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (p[0] == '-' && n < 128) {
			char cand[128];

			snprintf(cand, sizeof(cand), "%.*s", (int)n, p);
			offer(&w, cand);
		}
		p += n + (p[n] == '\n');
	}
	if (job && !strncmp(cur, "--", strlen(cur) < 2 ? strlen(cur) : 2)) {
		w.prefix = strlen(cur) > 2 ? cur + 2 : "";
		w.lead = "--";
		bq_job_opt_each(job_option, &w);
	}
}

static const char *const *subs_of(const char *cmd)
{
	for (size_t i = 0; i < ARRAY_LEN(subcommands); i++)
		if (!strcmp(cmd, subcommands[i].cmd))
			return subcommands[i].subs;
	return NULL;
}

/**
 * cmd_complete() - blkqual __complete CWORD WORD...
 * @argc: argument count
 * @argv: "__complete", the index of the word being completed, then the
 *        words (COMP_WORDS: "blkqual" first)
 * @commands: the command names
 * @fns: their functions, in the same order
 * @nr: how many
 *
 * Prints the candidates for the word being completed, one per line, and
 * nothing when the word is a file name (the script then offers files).
 *
 * Return: 0, or EXIT_BADINPUT for a malformed call.
 */
int cmd_complete(int argc, char **argv, const char *const *commands,
		 int (*const *fns)(int, char **), size_t nr)
{
	const char *cmd = NULL, *sub = NULL, *cur, *const *subs = NULL;
	int (*fn)(int, char **) = NULL;
	struct words w = { 0 };
	char *end, *list;
	long cword;
	int ci = -1;

	if (argc < 3)
		return cli_usage_error(NULL, "usage: blkqual __complete CWORD WORD...");
	cword = strtol(argv[1], &end, 10);
	if (*end || cword < 0 || cword > 4096)
		return cli_usage_error(NULL, "__complete: '%s' is not a word index", argv[1]);
	if (join_words((int)cword, argc - 2, argv + 2, &w)) {
		free_words(&w);
		return cli_usage_error(NULL, "__complete: cannot read the words");
	}
	cur = w.v[w.cur];
	for (int i = 1; i < w.cur && !cmd; i++) {
		for (size_t k = 0; k < nr; k++) {
			if (!strcmp(w.v[i], commands[k])) {
				cmd = commands[k];
				fn = fns[k];
				ci = i;
			}
		}
	}
	if (!cmd) {
		struct want want = { .prefix = cur, .lead = "" };

		if (cur[0] == '-') {
			offer(&want, "--help");
			offer(&want, "--version");
		} else {
			for (size_t k = 0; k < nr; k++)
				offer(&want, commands[k]);
		}
		goto out;
	}
	subs = subs_of(cmd);
	for (int i = ci + 1; subs && i < w.cur && !sub; i++)
		for (int k = 0; k < 5 && subs[k]; k++)
			if (!strcmp(w.v[i], subs[k]))
				sub = subs[k];
	if (subs && !sub && cur[0] != '-') {
		struct want want = { .prefix = cur, .lead = "" };

		for (int k = 0; k < 5 && subs[k]; k++)
			offer(&want, subs[k]);
		goto out;
	}
	if (cur[0] != '-')
		goto out;	/* a device, a file, a count: the shell's file names */
	/* fileio's options are the same for each of its subcommands */
	list = command_options(fn, cmd, strcmp(cmd, "fileio") ? sub : NULL);
	if (strchr(cur, '=')) {
		if (list && strstr(list, CLI_COMPLETE_JOB_OPTIONS))
			option_values(cur, w.split, bq_job_opt_values);
		else if (list && strstr(list, CLI_COMPLETE_FILEIO_VALUES))
			option_values(cur, w.split, bq_fileio_opt_values);
	} else {
		options(list, cur, list && strstr(list, CLI_COMPLETE_JOB_OPTIONS));
	}
	free(list);
out:
	free_words(&w);
	return fflush(stdout) ? EXIT_REFUSED : 0;
}
