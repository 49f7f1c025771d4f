// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_qualify.c - blkqual qualify: purge, precondition, then rounds of
 * each step of a profile until its tracked figures are steady, and a
 * pass/fail verdict on the profile's criteria
 *
 * The library runs and judges the qualification (lib/qualify/driver.c and
 * verdict.c); here are the options, finding the profile, the status line
 * and the state file.  A qualification runs for hours, so after every
 * completed round what is done goes to the state file (written whole or
 * not at all) and an interrupted run goes on from the next round with
 * --resume.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "qualify.h"
#include "report_util.h"
#include "result_load.h"
#include "verify_report.h"

#ifndef BLKQUAL_PROFILE_DIR
#define BLKQUAL_PROFILE_DIR "/usr/local/share/blkqual/profiles"
#endif

#define STATE_KIND "blkqual-qualify-state"

enum {
	OPT_PROFILE = OPT_FIRST_PRIVATE,
	OPT_OUTPUT,
	OPT_STATE,
	OPT_RESUME,
	OPT_NO_STATUS,
	OPT_FORCE,
	OPT_PLAN,
	OPT_LIST,
};

struct qcli {
	struct cli cli;
	const char *profile;
	const char *output;
	const char *state;
	const char *resume;
	const char *target;
	const char *force[64];
	size_t nr_force;
	bool status;
	bool plan;
	bool list;
	char state_buf[PATH_MAX];
	char output_buf[PATH_MAX];
	char profile_path[PATH_MAX];
};

/* What the status line shows; refreshed by the engine's progress callback. */
struct status {
	struct qcli *qc;
	struct qrun *q;
	char what[160];
	double cell_s;		/* planned length of what runs now */
	double rest_s;		/* at most this long after it */
	bool shown;
};

/* ---- options ------------------------------------------------------------------ */

static int parse_args(struct qcli *qc, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "output-format", required_argument, NULL, 'o' },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "state", required_argument, NULL, OPT_STATE },
		{ "resume", required_argument, NULL, OPT_RESUME },
		{ "no-status", no_argument, NULL, OPT_NO_STATUS },
		{ "force-destroy", required_argument, NULL, OPT_FORCE },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "list-profiles", no_argument, NULL, OPT_LIST },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli *cli = &qc->cli;
	int c;

	qc->status = isatty(STDERR_FILENO);
	while ((c = cli_getopt(cli, argc, argv, "o:p:h", longopts)) != -1) {
		switch (c) {
		case 'o':
			if (cli_parse_output(cli, optarg))
				return EXIT_BADINPUT;
			break;
		case 'p':
		case OPT_PROFILE:
			qc->profile = optarg;
			break;
		case OPT_OUTPUT:
			qc->output = optarg;
			break;
		case OPT_STATE:
			qc->state = optarg;
			break;
		case OPT_RESUME:
			qc->resume = optarg;
			break;
		case OPT_NO_STATUS:
			qc->status = false;
			break;
		case OPT_FORCE:
			if (qc->nr_force == ARRAY_LEN(qc->force))
				return cli_usage_error(cli, "too many --force-destroy options");
			qc->force[qc->nr_force++] = optarg;
			break;
		case OPT_PLAN:
			qc->plan = true;
			break;
		case OPT_LIST:
			qc->list = true;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (qc->list && optind < argc)
		return cli_usage_error(cli, "--list-profiles takes no device ('%s' is extra)",
				       argv[optind]);
	if (qc->list)
		return 0;
	if (optind < argc)
		qc->target = argv[optind++];
	if (optind < argc)
		return cli_usage_error(cli, "one device at a time ('%s' is extra)", argv[optind]);
	if (!qc->resume && !qc->target)
		return cli_usage_error(cli, "no device given (usage: %s)", cli->usage);
	if (!qc->resume && !qc->profile)
		return cli_usage_error(cli, "no --profile given (blkqual qualify --list-profiles "
				       "shows them)");
	return 0;
}

/* ---- profiles ------------------------------------------------------------------- */

/* Where --profile NAME looks, in order; "" entries are skipped. */
static void profile_dirs(const char **dirs, char *exe_dir, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe_dir[0] = '\0';
	if (n > 0) {
		exe[n] = '\0';
		if (strrchr(exe, '/'))
			*strrchr(exe, '/') = '\0';
		/* An installed binary in PREFIX/sbin finds PREFIX/share. */
		snprintf(exe_dir, len, "%.*s/../share/blkqual/profiles", (int)(len - 32), exe);
	}
	dirs[0] = getenv("BLKQUAL_PROFILES") ? getenv("BLKQUAL_PROFILES") : "";
	dirs[1] = BLKQUAL_PROFILE_DIR;
	dirs[2] = exe_dir;
#ifdef BLKQUAL_SRC_PROFILE_DIR
	dirs[3] = BLKQUAL_SRC_PROFILE_DIR;
#else
	dirs[3] = "";
#endif
}

/* Add the profile files (NAME.ini) of @dir to @names, sorted. */
static void dir_profiles(const char *dir, struct bq_strv *names)
{
	struct dirent *de;
	DIR *d;

	if (!dir[0] || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 4 && !strcmp(de->d_name + n - 4, ".ini"))
			bq_strv_add(names, de->d_name);
	}
	closedir(d);
	bq_strv_sort(names);
}

/* The installed profile closest to a misspelled @name, or NULL. */
static const char *profile_hint(const char *name, char *buf, size_t len)
{
	const char *dirs[4], *hint = NULL;
	char exe_dir[PATH_MAX], file[PATH_MAX];
	struct bq_strv names = { 0 };

	profile_dirs(dirs, exe_dir, sizeof(exe_dir));
	for (size_t i = 0; i < ARRAY_LEN(dirs); i++)
		dir_profiles(dirs[i], &names);
	/* Compared as files, so "quick" is matched against "quick.ini". */
	snprintf(file, sizeof(file), "%s.ini", name);
	if (names.n)
		hint = bq_suggest(file, (const char *const *)names.v, names.n);
	if (hint)
		snprintf(buf, len, "%.*s", (int)(strlen(hint) - 4), hint);
	bq_strv_free(&names);
	return hint ? buf : NULL;
}

static int find_profile(struct qcli *qc, const char *name)
{
	const char *dirs[4], *hint;
	char exe_dir[PATH_MAX], near[64];

	if (strchr(name, '/')) {
		snprintf(qc->profile_path, sizeof(qc->profile_path), "%s", name);
		return 0;
	}
	profile_dirs(dirs, exe_dir, sizeof(exe_dir));
	for (size_t i = 0; i < ARRAY_LEN(dirs); i++) {
		static const char *const suffixes[] = { ".ini", "" };

		if (!dirs[i][0])
			continue;
		for (size_t k = 0; k < ARRAY_LEN(suffixes); k++) {
			snprintf(qc->profile_path, sizeof(qc->profile_path), "%s/%s%s", dirs[i],
				 name, suffixes[k]);
			if (!access(qc->profile_path, R_OK))
				return 0;
		}
	}
	hint = profile_hint(name, near, sizeof(near));
	if (hint)
		return cli_usage_error(&qc->cli, "--profile=%s: no such profile (did you mean "
				       "'%s'?)", name, hint);
	return cli_usage_error(&qc->cli, "--profile=%s: no such profile (blkqual qualify "
			       "--list-profiles shows them; a path needs a '/')", name);
}

static int list_profiles(void)
{
	const char *dirs[4];
	char exe_dir[PATH_MAX], path[PATH_MAX * 2];
	struct bq_strv seen = { 0 };

	profile_dirs(dirs, exe_dir, sizeof(exe_dir));
	for (size_t i = 0; i < ARRAY_LEN(dirs); i++) {
		struct bq_strv names = { 0 };

		dir_profiles(dirs[i], &names);
		for (size_t n = 0; n < names.n; n++) {
			struct bq_parse_error err = { 0 };
			struct bq_profile p;

			/* The first directory that has a name wins, as for --profile. */
			if (bq_strv_contains(&seen, names.v[n]))
				continue;
			bq_strv_add(&seen, names.v[n]);
			snprintf(path, sizeof(path), "%s/%s", dirs[i], names.v[n]);
			if (bq_profile_parse(path, &p, &err))
				printf("%-16s (%s: %s)\n", names.v[n], err.where, err.msg);
			else
				printf("%-16s %s\n%-16s %s\n", p.name, p.description, "", path);
			bq_profile_free(&p);
		}
		bq_strv_free(&names);
	}
	bq_strv_free(&seen);
	return 0;
}

/* ---- status line -------------------------------------------------------------------- */

static void status_show(struct status *st, double in_cell_s)
{
	char el[32], left[32];
	double rest;

	if (!st->qc->status)
		return;
	rest = st->rest_s + (st->cell_s > in_cell_s ? st->cell_s - in_cell_s : 0);
	fmt_duration(el, sizeof(el), qrun_runtime_s(st->q));
	fmt_duration(left, sizeof(left), rest);
	fprintf(stderr, "\r[%s] %s elapsed, at most %s left\033[K", st->what, el, left);
	fflush(stderr);
	st->shown = true;
}

static void status_clear(struct status *st)
{
	if (st->shown)
		fputs("\r\033[K", stderr);
	st->shown = false;
}

/* Seconds the steps from @s on take at most, from cell @c of round @round of step @s. */
static double time_left(const struct qrun *q, int s, int round, int c)
{
	double left = 0;

	for (int i = s; i < q->plan.nr_steps; i++) {
		const struct bq_qplan_step *ps = &q->plan.steps[i];
		double cell = (double)(ps->step->round_ns + ps->step->ramp_ns) / 1e9;
		int rounds = q->qual.runs[i].sp.max_rounds;

		if (i == s)
			left += cell * ((double)(rounds - round - 1) * ps->nr_cells +
					(ps->nr_cells - c - 1));
		else
			left += cell * rounds * ps->nr_cells;
	}
	return left;
}

/* ---- state file ------------------------------------------------------------------------ */

static json_object *state_json(const struct qrun *q, const char *output)
{
	json_object *root = json_object_new_object(), *prof = json_object_new_object();
	json_object *steps = json_object_new_array();

	json_object_object_add(root, "kind", json_object_new_string(STATE_KIND));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(prof, "name", json_object_new_string(q->prof.name));
	json_object_object_add(prof, "path", json_object_new_string(q->prof.path));
	json_object_object_add(prof, "text", json_object_new_string(q->prof.text));
	json_object_object_add(root, "profile", prof);
	json_object_object_add(root, "target", json_object_new_string(q->target));
	json_object_object_add(root, "device", qualify_device_json(q));
	json_object_object_add(root, "started", json_object_new_string(q->started));
	json_object_object_add(root, "runtime_s", json_dbl(qrun_runtime_s(q)));
	json_object_object_add(root, "output", output ? json_object_new_string(output) : NULL);
	if (q->qual.purge_tried) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "method", json_object_new_string(
			bq_purge_name(q->qual.purge.method)));
		json_object_object_add(p, "done", json_object_new_boolean(q->qual.purge.done));
		json_object_object_add(p, "ns", json_u64(q->qual.purge.ns));
		json_object_object_add(p, "note", json_object_new_string(q->qual.purge.note));
		json_object_object_add(root, "purge", p);
	} else {
		json_object_object_add(root, "purge", NULL);
	}
	json_object_object_add(root, "verify", q->qual.verify ? verify_json(q->qual.verify) : NULL);
	json_object_object_add(root, "precondition_done",
			       json_object_new_boolean(q->qual.precond_done));
	json_object_object_add(root, "precondition_ns", json_u64(q->qual.precond_ns));
	for (int s = 0; s < q->plan.nr_steps; s++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(
			q->plan.steps[s].step->name));
		json_object_object_add(o, "rounds", json_object_get(q->steps[s].rounds));
		json_object_object_add(o, "raw", json_object_get(q->steps[s].raw));
		json_object_array_add(steps, o);
	}
	json_object_object_add(root, "steps", steps);
	return root;
}

static int emit_json(FILE *f, void *arg)
{
	return json_print(f, arg);
}

static int write_state(struct qcli *qc, const struct qrun *q)
{
	json_object *doc = state_json(q, qc->output);
	int ret;

	if (!doc)
		return -ENOMEM;
	ret = write_atomically(qc->state, emit_json, doc);
	json_object_put(doc);
	if (ret)
		cli_error(&qc->cli, "writing the state file %s: %s", qc->state, strerror(-ret));
	return ret;
}

static const char *jstr(json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	json_object *v;

	while ((dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path = dot + 1;
	}
	if (!json_object_object_get_ex(o, path, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The state's device must be this device: same size, and same serial where known. */
static int check_resume_device(struct qcli *qc, const struct qrun *q, json_object *doc)
{
	json_object *dev, *v;
	const char *serial;

	if (!json_object_object_get_ex(doc, "device", &dev))
		return cli_usage_error(&qc->cli, "--resume=%s: no device in it", qc->resume);
	if (!json_object_object_get_ex(dev, "size_bytes", &v) ||
	    json_object_get_uint64(v) != q->dev.size)
		return cli_usage_error(&qc->cli, "--resume=%s: %s is not the device it was started "
				       "on (its size differs)", qc->resume, q->target);
	serial = jstr(dev, "serial");
	if (serial && strcmp(serial, q->dev.serial))
		return cli_usage_error(&qc->cli, "--resume=%s: %s is not the device it was started "
				       "on (serial %s, not %s)", qc->resume, q->target,
				       q->dev.serial, serial);
	return 0;
}

static int restore_purge(struct qrun *q, json_object *p)
{
	const char *method = jstr(p, "method"), *note = jstr(p, "note");
	json_object *v;

	q->qual.purge_tried = true;
	for (int m = BQ_PURGE_AUTO; m <= BQ_PURGE_SANITIZE; m++)
		if (method && !strcmp(method, bq_purge_name(m)))
			q->qual.purge.method = m;
	q->qual.purge.done = json_object_object_get_ex(p, "done", &v) && json_object_get_boolean(v);
	q->qual.purge.ns = json_object_object_get_ex(p, "ns", &v) ? json_object_get_uint64(v) : 0;
	snprintf(q->qual.purge.note, sizeof(q->qual.purge.note), "%s", note ? note : "");
	return 0;
}

/* Feed the state's rounds back through the same bookkeeping as live ones. */
static int restore_step(struct qcli *qc, struct qrun *q, int s, json_object *js)
{
	const struct bq_qplan_step *ps = &q->plan.steps[s];
	struct qstep *st = &q->steps[s];
	struct bq_qstep_run *run = &q->qual.runs[s];
	json_object *rounds, *raw;
	struct bq_qresult *cells;
	const char *name = jstr(js, "name");
	size_t n;
	int ret = 0;

	if (!name || strcmp(name, ps->step->name) ||
	    !json_object_object_get_ex(js, "rounds", &rounds) ||
	    !json_object_object_get_ex(js, "raw", &raw) ||
	    json_object_array_length(rounds) != json_object_array_length(raw))
		return cli_usage_error(&qc->cli, "--resume=%s: step %d does not match the profile",
				       qc->resume, s + 1);
	cells = calloc((size_t)ps->nr_cells, sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	n = json_object_array_length(raw);
	for (size_t r = 0; r < n && !ret; r++) {
		json_object *jr = json_object_array_get_idx(raw, r), *jc, *jt;
		double tracked[BQ_NR_DIRS];

		if (!json_object_object_get_ex(jr, "cells", &jc) ||
		    !json_object_object_get_ex(jr, "tracked", &jt) ||
		    json_object_array_length(jc) != (size_t)ps->nr_cells) {
			ret = cli_usage_error(&qc->cli, "--resume=%s: round %zu of step %s is "
					      "malformed", qc->resume, r + 1, name);
			break;
		}
		for (int d = 0; d < BQ_NR_DIRS; d++)
			tracked[d] = json_object_get_double(json_object_array_get_idx(jt, d));
		for (int c = 0; c < ps->nr_cells && !ret; c++)
			ret = qualify_raw_restore(json_object_array_get_idx(jc, c), &cells[c]);
		if (ret) {
			ret = cli_usage_error(&qc->cli, "--resume=%s: round %zu of step %s is "
					      "malformed", qc->resume, r + 1, name);
			break;
		}
		ret = bq_qstep_add_round(run, cells, tracked);
		for (int c = 0; c < ps->nr_cells; c++)
			bq_qresult_free(&cells[c]);
	}
	free(cells);
	if (ret)
		return ret;
	json_object_put(st->rounds);
	json_object_put(st->raw);
	st->rounds = json_object_get(rounds);
	st->raw = json_object_get(raw);
	return 0;
}

static int restore(struct qcli *qc, struct qrun *q, json_object *doc)
{
	json_object *steps, *v;
	const char *started = jstr(doc, "started");
	int ret;

	if (started)
		snprintf(q->started, sizeof(q->started), "%s", started);
	if (json_object_object_get_ex(doc, "runtime_s", &v))
		q->prior_s = json_object_get_double(v);
	if (json_object_object_get_ex(doc, "purge", &v) && v)
		restore_purge(q, v);
	if (q->qual.verify && json_object_object_get_ex(doc, "verify", &v) && v)
		qualify_verify_restore(q->qual.verify, v);
	q->qual.precond_done = json_object_object_get_ex(doc, "precondition_done", &v) &&
			       json_object_get_boolean(v);
	if (json_object_object_get_ex(doc, "precondition_ns", &v))
		q->qual.precond_ns = json_object_get_uint64(v);
	if (!json_object_object_get_ex(doc, "steps", &steps) ||
	    json_object_array_length(steps) != (size_t)q->plan.nr_steps)
		return cli_usage_error(&qc->cli, "--resume=%s: its steps do not match the profile",
				       qc->resume);
	for (int s = 0; s < q->plan.nr_steps; s++) {
		ret = restore_step(qc, q, s, json_object_array_get_idx(steps, s));
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- running ------------------------------------------------------------------------------ */

/* What the library's callbacks need. */
struct runner {
	struct qcli *qc;
	struct qrun *q;
	struct status st;
};

static void progress_cb(void *arg, const struct bq_progress *p)
{
	struct runner *rn = arg;

	status_show(&rn->st, (double)p->elapsed_ns / 1e9);
}

/* The status line's text and time left, as each piece of work begins. */
static void at_cb(void *arg, const struct bq_qual_at *at)
{
	struct runner *rn = arg;
	struct status *st = &rn->st;
	const struct qrun *q = rn->q;
	const struct bq_qplan_step *ps;

	switch (at->phase) {
	case BQ_QUAL_PURGE:
		snprintf(st->what, sizeof(st->what), "purge");
		st->cell_s = 0;
		st->rest_s = time_left(q, 0, -1, -1);
		status_show(st, 0);
		break;
	case BQ_QUAL_PRECONDITION:
		snprintf(st->what, sizeof(st->what), "precondition");
		/* Unknown speed: count a GB/s, then the steps. */
		st->cell_s = (double)q->plan.precondition_bytes / 1e9;
		st->rest_s = time_left(q, 0, -1, -1);
		break;
	case BQ_QUAL_CELL:
		ps = &q->plan.steps[at->step];
		snprintf(st->what, sizeof(st->what), "%s round %d/%d cell %d/%d %s",
			 ps->step->name, at->round + 1, q->qual.runs[at->step].sp.max_rounds,
			 at->cell + 1, ps->nr_cells, ps->cells[at->cell].label);
		st->cell_s = (double)(ps->step->round_ns + ps->step->ramp_ns) / 1e9;
		st->rest_s = time_left(q, at->step, at->round, at->cell);
		break;
	}
}

static void round_line(struct runner *rn, int s)
{
	const struct bq_qplan_step *ps = &rn->q->plan.steps[s];
	const struct bq_qstep_run *run = &rn->q->qual.runs[s];

	if (!rn->qc->status)
		return;
	status_clear(&rn->st);
	fprintf(stderr, "%s round %d:", ps->step->name, run->nr_rounds);
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		char v[32];

		if (ps->track_cell[d] < 0)
			continue;
		if (ps->step->track[d].metric == BQ_METRIC_IOPS)
			fmt_count(v, sizeof(v), run->track[d][run->nr_rounds - 1]);
		else if (ps->step->track[d].metric == BQ_METRIC_BW)
			snprintf(v, sizeof(v), "%.1fMB/s", run->track[d][run->nr_rounds - 1] / 1e6);
		else
			fmt_lat(v, sizeof(v), run->track[d][run->nr_rounds - 1]);
		fprintf(stderr, " %s %s (%s)", d == BQ_READ ? "read" : "write", v,
			bq_steady_state_name(run->steady[d].state));
	}
	fputc('\n', stderr);
}

/* The raw records of rounds the window no longer reaches lose their buckets. */
static void trim_raw(json_object *raw, int window)
{
	int old = (int)json_object_array_length(raw) - window - 1;
	json_object *cells;

	if (old < 0 || !json_object_object_get_ex(json_object_array_get_idx(raw, (size_t)old),
						  "cells", &cells))
		return;
	for (size_t c = 0; c < json_object_array_length(cells); c++) {
		json_object *cell = json_object_array_get_idx(cells, c), *dj;

		if (json_object_object_get_ex(cell, "read", &dj))
			json_object_object_add(dj, "buckets", NULL);
		if (json_object_object_get_ex(cell, "write", &dj))
			json_object_object_add(dj, "buckets", NULL);
	}
}

/* The round as the report and the state file keep it, and a line about it. */
static int round_cb(void *arg, int s)
{
	struct runner *rn = arg;
	struct qrun *q = rn->q;
	const struct bq_qplan_step *ps = &q->plan.steps[s];
	const struct bq_qstep_run *run = &q->qual.runs[s];
	int round = run->nr_rounds - 1;
	const struct bq_qresult *cells = &run->res[round * ps->nr_cells];
	json_object *jround = json_object_new_object(), *jcells = json_object_new_array();
	json_object *raw = json_object_new_object(), *rawcells = json_object_new_array();
	json_object *tracked = json_object_new_array();

	json_object_object_add(jround, "round", json_object_new_int(round + 1));
	for (int c = 0; c < ps->nr_cells; c++) {
		json_object_array_add(jcells, qualify_cell_json(&ps->cells[c], &cells[c]));
		json_object_array_add(rawcells, qualify_raw_json(&cells[c], true));
	}
	json_object_object_add(jround, "cells", jcells);
	for (int d = 0; d < BQ_NR_DIRS; d++)
		json_object_array_add(tracked, json_object_new_double(run->track[d][round]));
	json_object_object_add(raw, "tracked", tracked);
	json_object_object_add(raw, "cells", rawcells);
	json_object_array_add(q->steps[s].rounds, jround);
	json_object_array_add(q->steps[s].raw, raw);
	trim_raw(q->steps[s].raw, run->sp.window);
	round_line(rn, s);
	return 0;
}

static int save_cb(void *arg)
{
	struct runner *rn = arg;

	return write_state(rn->qc, rn->q);
}

/* Purge, precondition and the steps, from wherever the state says. */
static int run_all(struct runner *rn, struct bq_ctx *ctx, const struct bq_guard_opts *gopts,
		   volatile int *stop)
{
	struct qrun *q = rn->q;
	struct bq_pinned_target pin = { .name = q->target };
	struct bq_qual_opts opts = {
		.guard = gopts, .pin = &pin, .stop = stop, .at = at_cb, .progress = progress_cb,
		.round = round_cb, .save = save_cb, .arg = rn,
	};
	struct bq_guard_report rep;
	struct bq_parse_error err;
	int ret;

	/*
	 * The target is opened once, here, for the whole qualification: purge,
	 * preconditioning and every round write through this descriptor.
	 */
	pin.fd = bq_guard_open(ctx, q->target, 0, gopts, &rep);
	if (pin.fd < 0)
		return guard_error(&rn->qc->cli, q->target, pin.fd, &rep);
	ret = bq_qual_run(ctx, &q->qual, &opts, &err);
	close(pin.fd);
	status_clear(&rn->st);
	if (err.msg[0] && strcmp(err.where, "run") && err.where[0])
		cli_error(&rn->qc->cli, "%s: %s", err.where, err.msg);
	else if (err.msg[0])
		cli_error(&rn->qc->cli, "%s", err.msg);
	return ret;
}

/* ---- the plan, for --plan ------------------------------------------------------------------- */

static void print_plan(const struct qrun *q)
{
	double lo = 0, hi = 0;
	char size[32], a[32], b[32];

	printf("profile %s (%s)%s%s\n", q->prof.name, q->prof.path, q->prof.description[0] ?
	       ": " : "", q->prof.description);
	fmt_size(size, sizeof(size), q->plan.region);
	printf("device %s: %s tested from offset 0 (capacity_fraction=%g)\n", q->target, size,
	       q->prof.capacity_fraction);
	printf("purge: %s\n", bq_purge_name(q->prof.purge));
	fmt_size(size, sizeof(size), q->plan.precondition_bytes);
	printf("precondition: %s\n", q->plan.precondition_bytes ? size : "none");
	for (int s = 0; s < q->plan.nr_steps; s++) {
		const struct bq_qplan_step *ps = &q->plan.steps[s];
		double round = (double)bq_qplan_round_ns(ps) / 1e9;

		lo += round * q->prof.steady.window;
		hi += round * q->prof.steady.max_rounds;
		fmt_duration(a, sizeof(a), round * q->prof.steady.window);
		fmt_duration(b, sizeof(b), round * q->prof.steady.max_rounds);
		printf("step %s (%s): %d cells, %d to %d rounds, %s to %s\n", ps->step->name,
		       bq_step_kind_name(ps->step->kind), ps->nr_cells, q->prof.steady.window,
		       q->prof.steady.max_rounds, a, b);
		printf("  cells:");
		for (int c = 0; c < ps->nr_cells; c++)
			printf(" %s%s", ps->cells[c].label, c + 1 < ps->nr_cells ? "," : "\n");
		for (int d = 0; d < BQ_NR_DIRS; d++)
			if (ps->track_cell[d] >= 0)
				printf("  tracked %s: %s\n", d == BQ_READ ? "read" : "write",
				       ps->step->track_text[d]);
		if (ps->note[0])
			printf("  note: %s\n", ps->note);
	}
	printf("criteria: %d\n", q->prof.nr_criteria);
	fmt_duration(a, sizeof(a), lo);
	fmt_duration(b, sizeof(b), hi);
	printf("expected duration: %s to %s, plus purge and preconditioning\n", a, b);
}

/* ---- output ------------------------------------------------------------------------------- */

static int emit_results(struct qcli *qc, struct qrun *q)
{
	json_object *doc;
	int ret = 0;

	if (bq_qual_judge(&q->qual))
		return -ENOMEM;
	doc = qualify_json(q);
	if (!doc)
		return -ENOMEM;
	if (qc->output) {
		ret = write_atomically(qc->output, emit_json, doc);
		if (ret)
			cli_error(&qc->cli, "writing %s: %s", qc->output, strerror(-ret));
	}
	if (qc->cli.output == OUTPUT_JSON)
		json_print(stdout, doc);
	else
		qualify_human(stdout, q);
	fflush(stdout);
	json_object_put(doc);
	return ret;
}

/* ---- setup ----------------------------------------------------------------------------------- */

static bool writable_dir_of(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return !access(".", W_OK);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
	return !access(dir, W_OK);
}

/* Default state file: NAME.state beside --output, else in the current directory. */
static void default_state(struct qcli *qc, const char *name)
{
	const char *slash = qc->output ? strrchr(qc->output, '/') : NULL;

	if (slash)
		snprintf(qc->state_buf, sizeof(qc->state_buf), "%.*s/%s.state",
			 (int)(slash - qc->output), qc->output, name);
	else
		snprintf(qc->state_buf, sizeof(qc->state_buf), "%s.state", name);
	qc->state = qc->state_buf;
}

static int load_profile(struct qcli *qc, struct qrun *q, json_object *doc)
{
	struct bq_parse_error err = { 0 };
	int ret;

	if (doc) {
		const char *text = jstr(doc, "profile.text"), *path = jstr(doc, "profile.path");

		if (!text || !path)
			return cli_usage_error(&qc->cli, "--resume=%s: no profile in it", qc->resume);
		ret = bq_profile_parse_text(path, text, &q->prof, &err);
		if (ret)
			return cli_usage_error(&qc->cli, "--resume=%s: its profile: %s: %s",
					       qc->resume, err.where, err.msg);
		if (qc->profile) {
			struct bq_profile other;

			ret = find_profile(qc, qc->profile);
			if (ret)
				return ret;
			ret = bq_profile_parse(qc->profile_path, &other, &err);
			if (!ret && strcmp(other.text, q->prof.text))
				ret = cli_usage_error(&qc->cli, "--resume=%s was started with another "
						      "profile than %s", qc->resume,
						      qc->profile_path);
			else if (ret)
				ret = cli_usage_error(&qc->cli, "%s: %s", err.where, err.msg);
			bq_profile_free(&other);
			return ret;
		}
		return 0;
	}
	ret = find_profile(qc, qc->profile);
	if (ret)
		return ret;
	ret = bq_profile_parse(qc->profile_path, &q->prof, &err);
	if (ret)
		return cli_usage_error(&qc->cli, "%s: %s", err.where, err.msg);
	return 0;
}

static int setup(struct qcli *qc, struct qrun *q, struct bq_ctx **ctx, json_object **doc)
{
	struct bq_parse_error err = { 0 };
	char name[64];
	int ret;

	if (qc->resume) {
		const char *target, *output;

		ret = result_load(&qc->cli, qc->resume, &(const struct result_want){
			.option = "--resume", .what = "blkqual qualify state file",
			.kind = STATE_KIND,
		}, doc);
		if (ret)
			return ret;
		target = jstr(*doc, "target");
		if (!target)
			return cli_usage_error(&qc->cli, "--resume=%s: no target in it", qc->resume);
		/*
		 * Device names change across reboots: a device named here takes the
		 * recorded one's place, as long as size and serial agree (below).
		 */
		snprintf(q->target, sizeof(q->target), "%s", qc->target ? qc->target : target);
		output = jstr(*doc, "output");
		if (!qc->output && output) {
			snprintf(qc->output_buf, sizeof(qc->output_buf), "%s", output);
			qc->output = qc->output_buf;
		}
		if (!qc->state)
			qc->state = qc->resume;
	} else {
		snprintf(q->target, sizeof(q->target), "%s", qc->target);
	}
	ret = load_profile(qc, q, *doc);
	if (ret)
		return ret;
	if (!qc->state)
		default_state(qc, q->prof.name);
	if (qc->output && !writable_dir_of(qc->output))
		return cli_usage_error(&qc->cli, "--output=%s: cannot write there: %s", qc->output,
				       strerror(errno));
	if (!qc->plan && !writable_dir_of(qc->state))
		return cli_usage_error(&qc->cli, "--state=%s: cannot write there: %s", qc->state,
				       strerror(errno));
	ret = cli_open_ctx(&qc->cli, ctx);
	if (ret)
		return ret;
	ret = cli_resolve_device(&qc->cli, *ctx, q->target, name, sizeof(name));
	if (ret)
		return ret;
	ret = bq_device_load(*ctx, name, &q->dev);
	if (ret)
		return cli_usage_error(&qc->cli, "%s: %s", q->target, strerror(-ret));
	if (*doc) {
		ret = check_resume_device(qc, q, *doc);
		if (ret)
			return ret;
	}
	ret = bq_qualify_plan(&q->prof, q->dev.size, q->dev.q.logical_block_size ?
			      q->dev.q.logical_block_size : 512, &q->plan, &err);
	if (ret)
		return cli_usage_error(&qc->cli, "%s: %s", err.where, err.msg);
	ret = bq_qual_init(&q->qual, &q->prof, &q->plan, q->target, &q->dev);
	if (ret == -EINVAL)
		return cli_usage_error(&qc->cli, "%s: bad steady-state settings", q->prof.path);
	q->steps = calloc((size_t)q->plan.nr_steps, sizeof(*q->steps));
	if (ret || !q->steps)
		return cli_usage_error(&qc->cli, "out of memory");
	for (int s = 0; s < q->plan.nr_steps; s++) {
		q->steps[s].rounds = json_object_new_array();
		q->steps[s].raw = json_object_new_array();
	}
	return *doc ? restore(qc, q, *doc) : 0;
}

static void qrun_free(struct qrun *q)
{
	for (int s = 0; q->steps && s < q->plan.nr_steps; s++) {
		json_object_put(q->steps[s].rounds);
		json_object_put(q->steps[s].raw);
	}
	free(q->steps);
	bq_qual_free(&q->qual);
	bq_qplan_free(&q->plan);
	bq_profile_free(&q->prof);
	bq_device_release(&q->dev);
}

static void iso_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int cmd_qualify(int argc, char **argv)
{
	struct qcli qc = {
		.cli = {
			.cmd = "qualify",
			.usage = "blkqual qualify --profile NAME|PATH [-o table|json] [--output FILE] "
				 "[--state FILE] [--no-status] [--force-destroy DEV]... [--plan] DEV; "
				 "blkqual qualify --resume STATE [DEV]; "
				 "blkqual qualify --list-profiles",
		},
	};
	struct qrun q;
	struct runner rn = { .qc = &qc, .q = &q };
	struct bq_parse_error err = { 0 };
	struct bq_guard_opts gopts;
	json_object *doc = NULL;
	struct bq_ctx *ctx = NULL;
	volatile int *stop;
	const char *tgt;
	int ret;

	memset(&q, 0, sizeof(q));
	ret = parse_args(&qc, argc, argv);
	if (ret)
		return ret;
	if (qc.list)
		return list_profiles();
	iso_now(q.started, sizeof(q.started));
	q.t0_ns = bq_now_ns();
	ret = setup(&qc, &q, &ctx, &doc);
	if (ret)
		goto out_free;
	if (qc.plan) {
		print_plan(&q);
		goto out_free;
	}
	ret = bq_qual_check(&q.qual, &err);
	if (ret) {
		ret = cli_usage_error(&qc.cli, "%s: %s", err.where, err.msg);
		goto out_free;
	}
	gopts = (struct bq_guard_opts){ .force_destroy = qc.force, .nr_force = qc.nr_force };
	tgt = q.target;
	ret = cli_check_force(&qc.cli, &gopts, &tgt, 1);
	if (ret)
		goto out_free;
	rn.st = (struct status){ .qc = &qc, .q = &q };
	stop = stop_on_signals(NULL);
	ret = run_all(&rn, ctx, &gopts, stop);
	if (ret == -EINTR || *stop) {
		q.qual.interrupted = true;
		write_state(&qc, &q);
		emit_results(&qc, &q);
		fprintf(stderr, "blkqual: qualify: interrupted; the state is in %s: go on with "
			"'blkqual qualify --resume %s'\n", qc.state, qc.state);
		ret = 128 + (*stop ? *stop : 2);
		goto out_free;
	}
	if (ret) {
		/* What ran is kept: the state file can still be resumed. */
		ret = ret < 0 ? EXIT_REFUSED : ret;
		goto out_free;
	}
	ret = emit_results(&qc, &q) ? EXIT_REFUSED : q.qual.verdict == BQ_QUAL_PASS ? 0 :
	      EXIT_REFUSED;
out_free:
	json_object_put(doc);
	qrun_free(&q);
	if (ctx)
		bq_ctx_free(ctx);
	return ret;
}
