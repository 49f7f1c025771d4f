// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobfile.c - jobs from fio job files and fio-style command lines
 *
 * Both forms end in the same bq_job_set() calls in the same order, so a job
 * written either way comes out identical; the tests hold us to that.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobopt.h"
#include "internal.h"

static void set_where(struct bq_parse_error *err, const char *path, unsigned int line)
{
	if (!err)
		return;
	if (line)
		snprintf(err->where, sizeof(err->where), "%s:%u", path, line);
	else
		snprintf(err->where, sizeof(err->where), "%s", path);
}

/* Move @job into @set; @job owns no filenames afterwards either way. */
static int jobset_append(struct bq_jobset *set, struct bq_job *job)
{
	struct bq_job *jobs;

	jobs = realloc(set->jobs, (set->nr + 1) * sizeof(*jobs));
	if (!jobs) {
		bq_job_release(job);
		return -ENOMEM;
	}
	memcpy(&jobs[set->nr++], job, sizeof(*job));
	set->jobs = jobs;
	memset(job->filenames, 0, sizeof(job->filenames));
	job->nr_files = 0;
	return 0;
}

/*
 * A finished job is checked where it was started, so "no filename" points
 * at its section or --name rather than at the end of the input.
 */
static int finish_job(struct bq_jobset *set, struct bq_job *job, struct bq_parse_error *err)
{
	struct bq_parse_error why;
	unsigned long threads = job->numjobs;
	int ret;

	ret = bq_job_check(job, &why);
	if (ret) {
		bq_job_release(job);
		return bq_parse_fail(err, ret, "job '%s': %s", job->name, why.msg);
	}
	for (size_t k = 0; k < set->nr; k++)
		threads += set->jobs[k].numjobs;
	if (threads > BQ_MAX_THREADS) {
		bq_job_release(job);
		return bq_parse_fail(err, -EINVAL, "job '%s': %lu threads in all (numjobs of "
				     "every job), over the maximum of %d", job->name, threads,
				     BQ_MAX_THREADS);
	}
	return jobset_append(set, job);
}

void bq_jobset_free(struct bq_jobset *set)
{
	for (size_t i = 0; i < set->nr; i++)
		bq_job_release(&set->jobs[i]);
	free(set->jobs);
	set->jobs = NULL;
	set->nr = 0;
}

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

static int strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *p = realloc(b->s, cap);

		if (!p)
			return -ENOMEM;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* ${VAR} from the environment; a variable that is not set is an error. */
static int expand_env(const char *in, char **out, struct bq_parse_error *err)
{
	struct strbuf b = { NULL, 0, 0 };
	const char *p = in;
	int ret;

	for (;;) {
		const char *start = strstr(p, "${"), *close, *val;
		char name[128];
		size_t len;

		if (!start) {
			ret = strbuf_add(&b, p, strlen(p));
			if (ret)
				goto out_free_buf;
			break;
		}
		ret = strbuf_add(&b, p, (size_t)(start - p));
		if (ret)
			goto out_free_buf;
		close = strchr(start + 2, '}');
		if (!close) {
			ret = bq_parse_fail(err, -EINVAL, "'${' without a closing '}'");
			goto out_free_buf;
		}
		len = (size_t)(close - start - 2);
		if (!len || len >= sizeof(name)) {
			ret = bq_parse_fail(err, -EINVAL, "bad variable name in '%.*s'",
					    (int)(close - start + 1), start);
			goto out_free_buf;
		}
		memcpy(name, start + 2, len);
		name[len] = '\0';
		val = getenv(name);
		if (!val) {
			ret = bq_parse_fail(err, -EINVAL, "environment variable '%s' is not set",
					    name);
			goto out_free_buf;
		}
		ret = strbuf_add(&b, val, strlen(val));
		if (ret)
			goto out_free_buf;
		p = close + 1;
	}
	*out = b.s;
	return 0;

out_free_buf:
	free(b.s);
	return ret;
}

static bool is_include(const char *line)
{
	return !strncmp(line, "include", 7) && (!line[7] || isspace((unsigned char)line[7]) ||
						line[7] == '=');
}

enum section {
	SECTION_NONE,
	SECTION_GLOBAL,
	SECTION_JOB,
};

/**
 * struct jobfile - state while reading one job file
 * @path: as given, for error locations
 * @line: current line number
 * @section: what the options being read apply to
 * @global: the defaults for the next job, every [global] so far applied
 * @job: the job being read
 * @job_line: where @job's section starts
 * @nr_jobs: jobs this file produced
 * @where_set: an error already points at its own line (a job's section)
 */
struct jobfile {
	const char *path;
	unsigned int line;
	enum section section;
	struct bq_job global;
	struct bq_job job;
	unsigned int job_line;
	size_t nr_jobs;
	bool where_set;
	bool bad_option;	/* the line's error is an option's: go on to the next */
	int first_ret;		/* the first rejected option's, 0 while none was */
	struct bq_parse_error first;	/* its where and msg */
};

static int end_section(struct jobfile *jf, struct bq_jobset *set, struct bq_parse_error *err)
{
	int ret = 0;

	if (jf->section == SECTION_JOB) {
		ret = finish_job(set, &jf->job, err);
		if (ret) {
			set_where(err, jf->path, jf->job_line);
			jf->where_set = true;
		} else {
			jf->nr_jobs++;
		}
	}
	jf->section = SECTION_NONE;
	return ret;
}

static int start_section(struct jobfile *jf, char *line, struct bq_jobset *set,
			 struct bq_parse_error *err)
{
	size_t len = strlen(line);
	char *name;
	int ret;

	if (line[len - 1] != ']')
		return bq_parse_fail(err, -EINVAL, "section header without a closing ']'");
	line[len - 1] = '\0';
	name = bq_ini_trim(line + 1);
	if (!*name)
		return bq_parse_fail(err, -EINVAL, "section without a name");
	ret = end_section(jf, set, err);
	if (ret)
		return ret;
	/* fio lets [global] come back: it changes only the jobs after it. */
	if (!strcmp(name, "global")) {
		jf->section = SECTION_GLOBAL;
		return 0;
	}
	ret = bq_job_copy(&jf->job, &jf->global);
	if (ret)
		return ret;
	ret = bq_job_set(&jf->job, "name", name, err);
	if (ret) {
		bq_job_release(&jf->job);
		return ret;
	}
	jf->section = SECTION_JOB;
	jf->job_line = jf->line;
	return 0;
}

static int parse_option(struct jobfile *jf, char *line, struct bq_parse_error *err)
{
	char *eq = strchr(line, '='), *key = line, *value = NULL;

	if (eq) {
		*eq = '\0';
		value = bq_ini_trim(eq + 1);
	}
	key = bq_ini_trim(key);
	if (!*key)
		return bq_parse_fail(err, -EINVAL, "'=' without an option name");
	if (jf->section == SECTION_NONE)
		return bq_parse_fail(err, -EINVAL, "option '%s' before any section", key);
	jf->bad_option = true;
	return bq_job_set(jf->section == SECTION_GLOBAL ? &jf->global : &jf->job, key, value,
			  err);
}

static int parse_line(struct jobfile *jf, char *raw, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	char *expanded = NULL, *line;
	int ret;

	bq_ini_strip_comment(raw);
	line = bq_ini_trim(raw);
	if (!*line)
		return 0;
	/* Comments go first, so a " #" inside a variable's value is kept as text. */
	ret = expand_env(line, &expanded, err);
	if (ret)
		return ret;
	line = bq_ini_trim(expanded);
	if (!*line)
		ret = 0;
	else if (is_include(line))
		ret = bq_parse_fail(err, -EOPNOTSUPP,
				    "'include' is not supported: give each file as an argument");
	else if (*line == '[')
		ret = start_section(jf, line, set, err);
	else
		ret = parse_option(jf, line, err);
	free(expanded);
	return ret;
}

/*
 * Every rejected option of a file is reported, not only the first, so a
 * job file from elsewhere takes one round instead of one per option: the
 * first in @err's where and msg, the others in its more.
 */
static void note_bad_option(struct jobfile *jf, struct bq_parse_error *err, int ret)
{
	if (!err)
		return;
	if (!jf->first_ret) {
		jf->first_ret = ret;
		set_where(&jf->first, jf->path, jf->line);
		bq_strlcpy(jf->first.msg, err->msg, sizeof(jf->first.msg));
		return;
	}
	if (err->nr_more == BQ_PARSE_MORE) {
		err->more_dropped++;
		return;
	}
	snprintf(err->more[err->nr_more++], sizeof(err->more[0]), "%s:%u: %s", jf->path,
		 jf->line, err->msg);
}

static int parse_file(const char *path, const struct bq_job *base, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	struct jobfile jf = { .path = path, .section = SECTION_NONE };
	char *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int ret;

	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		ret = -errno;
		set_where(err, path, 0);
		return bq_parse_fail(err, ret, "cannot open: %s", strerror(-ret));
	}
	ret = bq_job_copy(&jf.global, base);
	if (ret)
		goto out_close_file;
	for (;;) {
		ssize_t n;

		errno = 0;
		n = getline(&buf, &cap, f);
		if (n < 0) {
			ret = errno ? -errno : 0;
			if (ret) {
				set_where(err, path, jf.line);
				bq_parse_fail(err, ret, "cannot read: %s", strerror(-ret));
				goto out_release_job;
			}
			break;
		}
		jf.line++;
		/* Everything after a NUL would be silently dropped: a name cut short. */
		if (strlen(buf) != (size_t)n) {
			set_where(err, path, jf.line);
			ret = bq_parse_fail(err, -EINVAL, "a NUL byte in the line");
			goto out_release_job;
		}
		jf.bad_option = false;
		ret = parse_line(&jf, buf, set, err);
		if (ret && jf.bad_option) {
			/* A rejected option: say so, and read on for the others. */
			note_bad_option(&jf, err, ret);
			continue;
		}
		if (ret) {
			/* A job that failed its check names its own section line. */
			if (!jf.where_set)
				set_where(err, path, jf.line);
			goto out_release_job;
		}
	}
	/* Jobs missing a rejected option would only fail their checks for it. */
	ret = jf.first_ret ? jf.first_ret : end_section(&jf, set, err);
	if (jf.first_ret && err) {
		bq_strlcpy(err->where, jf.first.where, sizeof(err->where));
		bq_strlcpy(err->msg, jf.first.msg, sizeof(err->msg));
	}
	if (!ret && !jf.nr_jobs) {
		set_where(err, path, 0);
		ret = bq_parse_fail(err, -EINVAL, "no job sections");
	}

out_release_job:
	if (jf.section == SECTION_JOB)
		bq_job_release(&jf.job);
	bq_job_release(&jf.global);
out_close_file:
	free(buf);
	if (f != stdin)
		fclose(f);
	return ret;
}

/**
 * bq_jobfile_parse() - read a fio job file
 * @path: the file ("-" for standard input)
 * @set: receives the jobs
 * @err: filled in on failure
 *
 * Return: 0 or -errno; on failure @set is empty.
 */
int bq_jobfile_parse(const char *path, struct bq_jobset *set, struct bq_parse_error *err)
{
	struct bq_job base;
	int ret;

	set->jobs = NULL;
	set->nr = 0;
	if (err)
		err->nr_more = err->more_dropped = 0;
	bq_job_defaults(&base);
	ret = parse_file(path, &base, set, err);
	if (ret)
		bq_jobset_free(set);
	return ret;
}

/**
 * struct cmdline - state while reading a fio-style command line
 * @global: options before the first --name, the base of every later job
 * @job: the job of the last --name
 * @have_job: whether @job is in use
 * @job_arg: the --name argument that started @job
 * @stray: first global option no job has used yet, or -1
 */
struct cmdline {
	struct bq_job global;
	struct bq_job job;
	bool have_job;
	const char *job_arg;
	int stray;
};

static int end_cmdline_job(struct cmdline *cl, struct bq_jobset *set,
			   struct bq_parse_error *err)
{
	int ret;

	if (!cl->have_job)
		return 0;
	cl->have_job = false;
	ret = finish_job(set, &cl->job, err);
	if (ret)
		set_where(err, cl->job_arg, 0);
	return ret;
}

static int start_cmdline_job(struct cmdline *cl, const char *arg, const char *name,
			     struct bq_jobset *set, struct bq_parse_error *err)
{
	int ret;

	/* A failed check of the job before names that job's --name: where is set. */
	ret = end_cmdline_job(cl, set, err);
	if (ret)
		return ret;
	ret = bq_job_copy(&cl->job, &cl->global);
	if (ret)
		return ret;
	ret = bq_job_set(&cl->job, "name", name, err);
	if (ret) {
		bq_job_release(&cl->job);
		set_where(err, arg, 0);
		return ret;
	}
	cl->have_job = true;
	cl->job_arg = arg;
	cl->stray = -1;
	return 0;
}

/*
 * One "--key=value", "-key=value" or "--key value" at @argv[*i]; the
 * separate form takes the next argument only when the option needs one.
 */
static int cmdline_option(struct cmdline *cl, int argc, char **argv, int *i,
			  struct bq_jobset *set, struct bq_parse_error *err)
{
	const char *arg = argv[*i], *body, *eq, *value = NULL;
	char where[sizeof(err->where)];
	int first = *i, ret;
	char *key;

	body = arg + (arg[1] == '-' ? 2 : 1);
	eq = strchr(body, '=');
	key = eq ? strndup(body, (size_t)(eq - body)) : strdup(body);
	if (!key)
		return -ENOMEM;
	snprintf(where, sizeof(where), "%s", arg);
	if (!*key) {
		ret = bq_parse_fail(err, -EINVAL, "option without a name");
		goto out_set_where;
	}
	if (eq) {
		value = eq + 1;
	} else if (bq_job_opt_takes_value(key)) {
		/* No value is negative, so "--direct --name=x" lacks one rather than being one. */
		if (*i + 1 >= argc || (argv[*i + 1][0] == '-' && argv[*i + 1][1])) {
			ret = bq_parse_fail(err, -EINVAL, "%s needs a value", key);
			goto out_set_where;
		}
		value = argv[++*i];
		snprintf(where, sizeof(where), "%s %s", arg, value);
	}
	if (!strcmp(key, "name")) {
		ret = start_cmdline_job(cl, arg, value, set, err);
		goto out_free_key;
	}
	ret = bq_job_set(cl->have_job ? &cl->job : &cl->global, key, value, err);
	if (ret)
		goto out_set_where;
	if (!cl->have_job && cl->stray < 0)
		cl->stray = first;
	goto out_free_key;

out_set_where:
	set_where(err, where, 0);
out_free_key:
	free(key);
	return ret;
}

/**
 * bq_jobs_from_args() - jobs from a fio-style command line
 * @argc: number of arguments
 * @argv: the arguments, no program name
 * @set: receives the jobs
 * @err: filled in on failure
 *
 * Return: 0 or -errno; on failure @set is empty.
 */
int bq_jobs_from_args(int argc, char **argv, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	struct cmdline cl = { .have_job = false, .stray = -1 };
	bool files_only = false;
	size_t before;
	int files_seen = 0;
	int ret;

	set->jobs = NULL;
	set->nr = 0;
	if (err)
		err->nr_more = err->more_dropped = 0;
	bq_job_defaults(&cl.global);
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!files_only && !strcmp(arg, "--")) {
			files_only = true;
			continue;
		}
		if (files_only || arg[0] != '-' || !arg[1]) {
			ret = end_cmdline_job(&cl, set, err);
			if (ret)
				goto out_free_jobs;
			/* The options given so far are the job file's defaults, as in fio. */
			before = set->nr;
			ret = parse_file(arg, &cl.global, set, err);
			if (ret)
				goto out_free_jobs;
			/* As in fio, a job file after the first waits for those before it. */
			if (files_seen++ && set->nr > before)
				set->jobs[before].stonewall = true;
			cl.stray = -1;
			continue;
		}
		ret = cmdline_option(&cl, argc, argv, &i, set, err);
		if (ret)
			goto out_release_job;
	}
	ret = end_cmdline_job(&cl, set, err);
	if (ret)
		goto out_free_jobs;
	if (!set->nr) {
		set_where(err, "command line", 0);
		if (!argc) {
			ret = bq_parse_fail(err, -EINVAL, "no job given");
			goto out_free_jobs;
		}
		/* No --name and no job file: the options describe one job. */
		ret = finish_job(set, &cl.global, err);
		if (ret)
			goto out_free_jobs;
	} else if (cl.stray >= 0) {
		set_where(err, argv[cl.stray], 0);
		ret = bq_parse_fail(err, -EINVAL,
				    "applies to no job: put it before a job file or a --name");
		goto out_free_jobs;
	}
	bq_job_release(&cl.global);
	return 0;

out_release_job:
	if (cl.have_job)
		bq_job_release(&cl.job);
out_free_jobs:
	bq_job_release(&cl.global);
	bq_jobset_free(set);
	return ret;
}
