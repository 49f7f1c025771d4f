// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobfile.c - jobs from fio job files and fio-style command lines
 *
 * Both forms end in the same bq_job_set() calls in the same order, so a job
 * written either way comes out identical; the tests hold us to that.  (A
 * job file section's kb_base and unit_base go first, as fio sorts them.)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobopt.h"
#include "jobopt_opendir.h"
#include "io/iolog.h"
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

	/* read_iolog: the log's files, directions and sizes become the job's. */
	ret = bq_iolog_job_finish(job, &why);
	/* opendir=: the files below it join filename='s, as fio adds them to the job */
	if (!ret)
		ret = bq_opendir_job_finish(job, &why);
	if (!ret)
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

static bool is_include(const char *line)
{
	return !strncmp(line, "include", 7) && (!line[7] || isspace((unsigned char)line[7]) ||
						line[7] == '=');
}

enum section {
	SECTION_NONE,
	SECTION_GLOBAL,
	SECTION_JOB,
	SECTION_SKIPPED,	/* a job --section did not name: read past, as fio does */
};

/* fio sets these first in a section, wherever they are written in it. */
static bool is_early_option(const char *key)
{
	return !strcmp(key, "kb_base") || !strcmp(key, "unit_base");
}

/**
 * struct pending - one option line of the section being read
 * @key: the option name
 * @value: its value, or NULL for a bare flag
 * @where: "path:line" it came from (an included file's own)
 */
struct pending {
	char *key;
	char *value;
	char where[256];
};

/* Files may include files this deep; a loop is caught before this. */
#define MAX_INCLUDE_DEPTH 16

/**
 * struct jobfile - state while reading one job file and what it includes
 * @path: the file being read now, for error locations
 * @line: current line number in it
 * @section: what the options being read apply to
 * @global: the defaults for the next job, every [global] so far applied
 * @job: the job being read
 * @job_line: where @job's section starts (in the top file)
 * @nr_jobs: jobs this file produced
 * @nr_sections: job sections it has, --section's choice or not
 * @where_set: an error already points at its own line (a job's section)
 * @sections: the jobs to keep (--section), NULL for all
 * @opts: the section's option lines, applied when it ends (kb_base first)
 * @open: real paths of the files being read, outermost first: a loop check
 */
struct jobfile {
	const char *path;
	unsigned int line;
	enum section section;
	struct bq_job global;
	struct bq_job job;
	unsigned int job_line;
	size_t nr_jobs;
	size_t nr_sections;
	bool where_set;
	int first_ret;		/* the first rejected option's, 0 while none was */
	struct bq_parse_error first;	/* its where and msg */
	const char *const *sections;
	struct pending *opts;
	size_t nr_opts;
	char *open[MAX_INCLUDE_DEPTH + 1];
	int depth;
};

static void here(const struct jobfile *jf, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", jf->path, jf->line);
}

/*
 * Every rejected option of a file is reported, not only the first, so a
 * job file from elsewhere takes one round instead of one per option: the
 * first in @err's where and msg, the others in its more.
 */
static void note_bad_option(struct jobfile *jf, struct bq_parse_error *err, int ret,
			    const char *where)
{
	if (!err)
		return;
	if (!jf->first_ret) {
		jf->first_ret = ret;
		bq_strlcpy(jf->first.where, where, sizeof(jf->first.where));
		bq_strlcpy(jf->first.msg, err->msg, sizeof(jf->first.msg));
		return;
	}
	if (err->nr_more == BQ_PARSE_MORE) {
		err->more_dropped++;
		return;
	}
	snprintf(err->more[err->nr_more++], sizeof(err->more[0]), "%s: %s", where, err->msg);
}

static void drop_pending(struct jobfile *jf)
{
	for (size_t i = 0; i < jf->nr_opts; i++) {
		free(jf->opts[i].key);
		free(jf->opts[i].value);
	}
	free(jf->opts);
	jf->opts = NULL;
	jf->nr_opts = 0;
}

/* The section's options onto @job: kb_base and unit_base first, then in order. */
static void apply_pending(struct jobfile *jf, struct bq_job *job, struct bq_parse_error *err)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < jf->nr_opts; i++) {
			struct pending *o = &jf->opts[i];
			int ret;

			if (is_early_option(o->key) != !pass)
				continue;
			ret = bq_job_set(job, o->key, o->value, err);
			if (ret)
				note_bad_option(jf, err, ret, o->where);
		}
	}
	drop_pending(jf);
}

static int end_section(struct jobfile *jf, struct bq_jobset *set, struct bq_parse_error *err)
{
	int ret = 0;

	if (jf->section == SECTION_GLOBAL)
		apply_pending(jf, &jf->global, err);
	if (jf->section == SECTION_JOB) {
		apply_pending(jf, &jf->job, err);
		/* Jobs missing a rejected option would only fail their checks for it. */
		if (jf->first_ret) {
			bq_job_release(&jf->job);
			jf->section = SECTION_NONE;
			return 0;
		}
		ret = finish_job(set, &jf->job, err);
		if (ret) {
			set_where(err, jf->path, jf->job_line);
			jf->where_set = true;
		} else {
			jf->nr_jobs++;
		}
	}
	drop_pending(jf);
	jf->section = SECTION_NONE;
	return ret;
}

static bool keep_section(const struct jobfile *jf, const char *name)
{
	if (!jf->sections)
		return true;
	for (const char *const *s = jf->sections; *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static int start_section(struct jobfile *jf, char *line, struct bq_jobset *set,
			 struct bq_parse_error *err)
{
	size_t len = strlen(line), given;
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
	jf->nr_sections++;
	if (!keep_section(jf, name)) {
		jf->section = SECTION_SKIPPED;
		return 0;
	}
	ret = bq_job_copy(&jf->job, &jf->global);
	if (ret)
		return ret;
	given = strlen(jf->job.fio_given);
	ret = bq_job_set(&jf->job, "name", name, err);
	if (ret) {
		bq_job_release(&jf->job);
		return ret;
	}
	/* fio's "job options" of a job file leave out the section's name. */
	jf->job.fio_given[given] = '\0';
	jf->job.fio_given_own = (unsigned int)given;
	jf->section = SECTION_JOB;
	jf->job_line = jf->line;
	return 0;
}

/* Queue one "key=value" line of the section; it is set when the section ends. */
static int parse_option(struct jobfile *jf, char *line, struct bq_parse_error *err)
{
	char *eq = strchr(line, '='), *key = line, *value = NULL;
	struct pending *opts, *o;

	if (eq) {
		*eq = '\0';
		value = bq_ini_trim(eq + 1);
	}
	key = bq_ini_trim(key);
	if (!*key)
		return bq_parse_fail(err, -EINVAL, "'=' without an option name");
	if (jf->section == SECTION_NONE)
		return bq_parse_fail(err, -EINVAL, "option '%s' before any section", key);
	opts = realloc(jf->opts, (jf->nr_opts + 1) * sizeof(*opts));
	if (!opts)
		return -ENOMEM;
	jf->opts = opts;
	o = &opts[jf->nr_opts];
	o->key = strdup(key);
	o->value = value ? strdup(value) : NULL;
	if (!o->key || (value && !o->value)) {
		free(o->key);
		free(o->value);
		return -ENOMEM;
	}
	here(jf, o->where, sizeof(o->where));
	jf->nr_opts++;
	return 0;
}

static int read_lines(struct jobfile *jf, FILE *f, bool nested, struct bq_jobset *set,
		      struct bq_parse_error *err);

/* Push @path's real path on the stack of open files, refusing a loop. */
static int push_open(struct jobfile *jf, const char *path, struct bq_parse_error *err)
{
	char *real;

	if (!strcmp(path, "-")) {
		real = strdup("-");
	} else {
		real = realpath(path, NULL);
		if (!real)
			return bq_parse_fail(err, -errno, "cannot open '%s': %s", path,
					     strerror(errno));
	}
	if (!real)
		return -ENOMEM;
	for (int i = 0; i < jf->depth; i++) {
		if (strcmp(jf->open[i], real))
			continue;
		free(real);
		return bq_parse_fail(err, -ELOOP, "include loop: '%s' is already being read "
				     "(it includes itself, directly or through other files)", path);
	}
	if (jf->depth > MAX_INCLUDE_DEPTH) {
		free(real);
		return bq_parse_fail(err, -ELOOP, "includes nested deeper than %d files",
				     MAX_INCLUDE_DEPTH);
	}
	jf->open[jf->depth++] = real;
	return 0;
}

static void pop_open(struct jobfile *jf)
{
	free(jf->open[--jf->depth]);
}

/*
 * "include FILE" as fio reads it: only inside a section (its options join
 * that section), FILE as given from the current directory if it exists
 * there, else next to the file that includes it; an included file has
 * options and further includes but no sections.
 */
static int include_file(struct jobfile *jf, const char *name, struct bq_jobset *set,
			struct bq_parse_error *err)
{
	const char *slash = strrchr(jf->path, '/'), *saved_path = jf->path;
	unsigned int saved_line = jf->line;
	char *path = NULL;
	struct stat st;
	FILE *f;
	int ret;

	if (jf->section == SECTION_NONE)
		return bq_parse_fail(err, -EINVAL, "'include %s' before any section", name);
	if (!*name)
		return bq_parse_fail(err, -EINVAL, "'include' without a file name");
	if (access(name, F_OK) && slash && *name != '/') {
		if (asprintf(&path, "%.*s%s", (int)(slash - jf->path + 1), jf->path, name) < 0)
			return -ENOMEM;
	}
	/* A device or a pipe would be read forever or block: fio job files are files. */
	if (!stat(path ? path : name, &st) && !S_ISREG(st.st_mode)) {
		ret = bq_parse_fail(err, -EINVAL, "included '%s' is not a regular file",
				    path ? path : name);
		goto out_free_path;
	}
	f = fopen(path ? path : name, "re");
	if (!f) {
		ret = bq_parse_fail(err, -errno, "cannot open included file '%s': %s",
				    path ? path : name, strerror(errno));
		goto out_free_path;
	}
	ret = push_open(jf, path ? path : name, err);
	if (ret)
		goto out_close_file;
	jf->path = path ? path : name;
	jf->line = 0;
	ret = read_lines(jf, f, true, set, err);
	pop_open(jf);
	jf->path = saved_path;
	jf->line = saved_line;

out_close_file:
	fclose(f);
out_free_path:
	free(path);
	return ret;
}

static int parse_line(struct jobfile *jf, char *raw, bool nested, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	char *expanded = NULL, *line;
	char where[256];
	int ret;

	bq_ini_strip_comment(raw);
	line = bq_ini_trim(raw);
	if (!*line)
		return 0;
	if (*line == '[' && nested)
		return bq_parse_fail(err, -EINVAL, "a section in an included file (fio "
				     "allows only options there)");
	/* fio reads nothing of a section --section left out, not even its includes. */
	if (*line != '[' && jf->section == SECTION_SKIPPED)
		return 0;
	/* Comments go first, so a " #" inside a variable's value is kept as text. */
	ret = bq_expand_line(line, *line != '[' && !is_include(line), &expanded, err);
	if (ret) {
		/* A bad value: report it with the others, read on. */
		here(jf, where, sizeof(where));
		note_bad_option(jf, err, ret, where);
		return 0;
	}
	line = bq_ini_trim(expanded);
	if (!*line)
		ret = 0;
	else if (is_include(line))
		ret = include_file(jf, bq_ini_trim(line + 7 + (line[7] == '=')), set, err);
	else if (*line == '[')
		ret = start_section(jf, line, set, err);
	else
		ret = parse_option(jf, line, err);
	free(expanded);
	return ret;
}

/* The lines of @f: a hard error names its own file and line and ends the read. */
static int read_lines(struct jobfile *jf, FILE *f, bool nested, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	char *buf = NULL;
	size_t cap = 0;
	int ret = 0;

	for (;;) {
		ssize_t n;

		errno = 0;
		n = getline(&buf, &cap, f);
		if (n < 0) {
			ret = errno ? -errno : 0;
			if (ret)
				bq_parse_fail(err, ret, "cannot read: %s", strerror(-ret));
			break;
		}
		jf->line++;
		/* Everything after a NUL would be silently dropped: a name cut short. */
		if (strlen(buf) != (size_t)n) {
			ret = bq_parse_fail(err, -EINVAL, "a NUL byte in the line");
			break;
		}
		ret = parse_line(jf, buf, nested, set, err);
		if (ret)
			break;
	}
	/* A job that failed its check names its own section line. */
	if (ret && !jf->where_set) {
		set_where(err, jf->path, jf->line);
		jf->where_set = true;
	}
	free(buf);
	return ret;
}

static int parse_file(const char *path, const struct bq_job *base,
		      const char *const *sections, struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	struct jobfile jf = { .path = path, .section = SECTION_NONE, .sections = sections };
	FILE *f;
	int ret;

	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		ret = -errno;
		set_where(err, path, 0);
		return bq_parse_fail(err, ret, "cannot open: %s", strerror(-ret));
	}
	ret = push_open(&jf, path, err);
	if (ret) {
		set_where(err, path, 0);
		goto out_close_file;
	}
	ret = bq_job_copy(&jf.global, base);
	if (ret)
		goto out_pop;
	ret = read_lines(&jf, f, false, set, err);
	if (ret)
		goto out_release_job;
	ret = end_section(&jf, set, err);
	if (!ret && jf.first_ret) {
		ret = jf.first_ret;
		if (err) {
			bq_strlcpy(err->where, jf.first.where, sizeof(err->where));
			bq_strlcpy(err->msg, jf.first.msg, sizeof(err->msg));
		}
	}
	if (!ret && !jf.nr_sections) {
		set_where(err, path, 0);
		ret = bq_parse_fail(err, -EINVAL, "no job sections");
	}

out_release_job:
	if (jf.section == SECTION_JOB)
		bq_job_release(&jf.job);
	drop_pending(&jf);
	bq_job_release(&jf.global);
out_pop:
	pop_open(&jf);
out_close_file:
	if (f != stdin)
		fclose(f);
	return ret;
}

/**
 * bq_jobfile_parse_sections() - read a fio job file, keeping some jobs
 * @path: the file ("-" for standard input)
 * @sections: NULL-terminated job names to keep, or NULL for all
 * @set: receives the jobs
 * @err: filled in on failure
 *
 * Return: 0 or -errno; on failure @set is empty.
 */
int bq_jobfile_parse_sections(const char *path, const char *const *sections,
			      struct bq_jobset *set, struct bq_parse_error *err)
{
	struct bq_job base;
	int ret;

	set->jobs = NULL;
	set->nr = 0;
	if (err)
		err->nr_more = err->more_dropped = 0;
	bq_job_defaults(&base);
	ret = parse_file(path, &base, sections, set, err);
	if (ret)
		bq_jobset_free(set);
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
	return bq_jobfile_parse_sections(path, NULL, set, err);
}

/**
 * struct cmdline - state while reading a fio-style command line
 * @global: options before the first --name, the base of every later job
 * @job: the job of the last --name
 * @have_job: whether @job is in use
 * @job_arg: the --name argument that started @job
 * @stray: first global option no job has used yet, or -1
 * @sections: the jobs --section keeps (NULL-terminated), or NULL for all
 */
struct cmdline {
	struct bq_job global;
	struct bq_job job;
	bool have_job;
	const char *job_arg;
	int stray;
	const char **sections;
};

static bool cmdline_keeps(const struct cmdline *cl, const char *name)
{
	if (!cl->sections)
		return true;
	for (const char **s = cl->sections; *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

/*
 * fio's --section=NAME (repeatable, anywhere on the line): only the jobs
 * so named run, from job files and --name alike, with every [global].
 * Return: the number of arguments at @argv[@i] it took (0: not --section).
 */
static int section_arg(struct cmdline *cl, int argc, char **argv, int i,
		       struct bq_parse_error *err)
{
	const char *a = argv[i], *name;
	size_t n = 0;
	int used = 1;

	if (a[0] != '-')
		return 0;
	a += a[1] == '-' ? 2 : 1;
	if (!strncmp(a, "section=", 8)) {
		name = a + 8;
	} else if (!strcmp(a, "section")) {
		if (i + 1 >= argc)
			return bq_parse_fail(err, -EINVAL, "--section needs a value");
		name = argv[i + 1];
		used = 2;
	} else {
		return 0;
	}
	if (!*name)
		return bq_parse_fail(err, -EINVAL, "--section needs a value");
	if (!strcmp(name, "global"))
		return bq_parse_fail(err, -EINVAL, "--section=global: [global] is always read; "
				     "name a job");
	while (cl->sections && cl->sections[n])
		n++;
	if (!cl->sections) {
		cl->sections = calloc((size_t)argc + 1, sizeof(*cl->sections));
		if (!cl->sections)
			return -ENOMEM;
	}
	cl->sections[n] = name;
	return used;
}

static int end_cmdline_job(struct cmdline *cl, struct bq_jobset *set,
			   struct bq_parse_error *err)
{
	int ret;

	if (!cl->have_job)
		return 0;
	cl->have_job = false;
	if (!cmdline_keeps(cl, cl->job.name)) {
		bq_job_release(&cl->job);
		return 0;
	}
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
	cl->job.fio_given_own = (unsigned int)strlen(cl->job.fio_given);
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
	bool files_only = false, *section_args;
	size_t before;
	int files_seen = 0;
	int ret;

	set->jobs = NULL;
	set->nr = 0;
	if (err)
		err->nr_more = err->more_dropped = 0;
	bq_job_defaults(&cl.global);
	/* --section applies to job files before it too, as fio reads all flags first. */
	section_args = calloc((size_t)argc + 1, sizeof(*section_args));
	if (!section_args) {
		ret = -ENOMEM;
		goto out_free_jobs;
	}
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		ret = section_arg(&cl, argc, argv, i, err);
		if (ret < 0) {
			set_where(err, argv[i], 0);
			goto out_free_jobs;
		}
		for (int k = 0; k < ret; k++)
			section_args[i + k] = true;
		i += ret ? ret - 1 : 0;
	}
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!files_only && section_args[i])
			continue;
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
			ret = parse_file(arg, &cl.global, cl.sections, set, err);
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
	if (!set->nr && cl.sections) {
		set_where(err, "--section", 0);
		ret = bq_parse_fail(err, -EINVAL, "no job of that name (%s%s)", cl.sections[0],
				    cl.sections[1] ? ", ..." : "");
		goto out_free_jobs;
	}
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
	free(cl.sections);
	free(section_args);
	return 0;

out_release_job:
	if (cl.have_job)
		bq_job_release(&cl.job);
out_free_jobs:
	bq_job_release(&cl.global);
	bq_jobset_free(set);
	free(cl.sections);
	free(section_args);
	return ret;
}
