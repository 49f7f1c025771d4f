// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_files.c - blkqual files: vdbench's file system workloads
 *
 * "vdbench -f params" becomes "blkqual files -f params": the parameter
 * files, vdbench's execution options (-f, -o, -e, -i, -w, -s, -c,
 * name=value substitutions) and its summary lines.  Without -f, key=value
 * arguments (anchor=/mnt depth=1 ...) make one fsd, fwd and rd.
 *
 * vdbench's -o names an output directory, so JSON is asked for with
 * --output-format=json (on stdout) or --json FILE; -o json is refused
 * with that hint rather than making a directory called "json".
 *
 * Everything is checked before anything is written: every definition,
 * every plan (names, skews), every anchor (a directory or makeable, and,
 * when formatted, empty or marked as a tree blkqual or vdbench made).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "error_report.h"
#include "files_report.h"
#include "report_util.h"

#define MAX_FILES 32
#define MAX_ARGS 128

struct files_cli {
	struct cli cli;
	const char *files[MAX_FILES];
	size_t nr_files;
	char *kv[MAX_ARGS];
	int nr_kv;
	const char *outdir;
	const char *json_file;
	bool json_stdout;
	bool simulate;
	char force_format;	/* -cy, -cn, -co */
	int64_t elapsed;	/* -e, -i, -w; -1 when not given */
	int64_t interval;
	int64_t warmup;
	uint64_t stall_timeout_ns;
};

static void usage(void)
{
	printf("usage: blkqual files [-f PARMFILE...] [-o DIR] [-e SECS] [-i SECS] [-w SECS]\n"
	       "                     [-s] [-cy|-cn|-co] [--output-format=text|json] [--json FILE]\n"
	       "                     [--stall-timeout=DURATION]\n"
	       "                     [NAME=VALUE...]\n"
	       "       blkqual files anchor=DIR [depth=N width=N files=N size=S operation=OP\n"
	       "                     xfersize=S fileio=random|sequential threads=N ...]\n\n"
	       "vdbench file system workloads: -f reads vdbench parameter files (fsd=, fwd=,\n"
	       "rd=), NAME=VALUE beside -f replaces $NAME in them; without -f, key=value\n"
	       "arguments make one fsd, fwd and rd.  -o DIR keeps summary.txt, totals.txt and\n"
	       "summary.json there.  See blkqual(8) and Documentation/files.rst.\n");
}

/* "-e 10" or "-e10" */
static int opt_value(struct files_cli *fc, int argc, char **argv, int *i, const char **val)
{
	const char *a = argv[*i];

	if (a[2]) {
		*val = a + 2;
		return 0;
	}
	if (*i + 1 >= argc)
		return cli_usage_error(&fc->cli, "%s needs a value", a);
	*val = argv[++*i];
	return 0;
}

static int opt_secs(struct files_cli *fc, const char *opt, const char *val, int64_t min,
		    int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(val, &end, 10);
	if (errno || *end || end == val || v < min || v > 1000000000)
		return cli_usage_error(&fc->cli, "%s %s: whole seconds%s", opt, val,
				       min ? ", at least 1" : "");
	*out = v;
	return 0;
}

static int refuse(struct files_cli *fc, const char *arg, const char *why)
{
	return cli_usage_error(&fc->cli, "%s: not implemented: %s", arg, why);
}

/* files' own long options; its short ones are vdbench's letters */
static const char *const longs[] = { "output-format", "json", "help", "stall-timeout", NULL };

static int parse(struct files_cli *fc, int argc, char **argv)
{
	bool files_follow = false;
	const char *val = NULL;
	int ret;

	cli_complete_options("hfoeiws", NULL, longs, false);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			return -1;
		}
		if (!strncmp(a, "--output-format", 15)) {
			val = a[15] == '=' ? a + 16 : a[15] ? NULL : i + 1 < argc ? argv[++i] : "";
			if (!val)
				return cli_usage_error(&fc->cli, "unknown option '%s'", a);
			if (!strcmp(val, "json"))
				fc->json_stdout = true;
			else if (!strcmp(val, "text") || !strcmp(val, "normal"))
				fc->json_stdout = false;
			else
				return cli_usage_error(&fc->cli, "--output-format=%s: text or json",
						       val);
			files_follow = false;
			continue;
		}
		if (!strncmp(a, "--stall-timeout", 15) && (!a[15] || a[15] == '=')) {
			val = a[15] ? a + 16 : i + 1 < argc ? argv[++i] : NULL;
			if (!val || bq_parse_time(val, 1000000000ull, &fc->stall_timeout_ns))
				return cli_usage_error(&fc->cli, "--stall-timeout=%s: not a duration",
						       val ? val : "");
			if (!fc->stall_timeout_ns)
				fc->stall_timeout_ns = BQ_OPS_NO_STALL_TIMEOUT;
			files_follow = false;
			continue;
		}
		if (!strncmp(a, "--json", 6) && (!a[6] || a[6] == '=')) {
			val = a[6] ? a + 7 : i + 1 < argc ? argv[++i] : NULL;
			if (!val || !*val)
				return cli_usage_error(&fc->cli, "--json needs a file name");
			fc->json_file = val;
			files_follow = false;
			continue;
		}
		if (!strncmp(a, "--", 2)) {
			char word[64];
			const char *hint;

			snprintf(word, sizeof(word), "%.*s", (int)strcspn(a + 2, "="), a + 2);
			hint = bq_suggest(word, longs, ARRAY_LEN(longs) - 1);
			if (hint)
				return cli_usage_error(&fc->cli, "unknown option '--%s' (did you "
						       "mean '--%s'?)", word, hint);
			return cli_usage_error(&fc->cli, "unknown option '%s' (see 'blkqual files "
					       "--help')", a);
		}
		if (a[0] == '+')
			return refuse(fc, a, "additions to one-line rd= parameters");
		if (!strcmp(a, "-"))
			return refuse(fc, a, "parameters on the command line after '-' (vdbench "
				      "no longer has them either); use -f or key=value");
		if (a[0] == '-') {
			files_follow = false;
			switch (a[1]) {
			case 'f':
				if (a[2] && fc->nr_files < MAX_FILES)
					fc->files[fc->nr_files++] = a + 2;
				files_follow = true;
				continue;
			case 'o':
				ret = opt_value(fc, argc, argv, &i, &val);
				if (ret)
					return ret;
				if (!strcmp(val, "json") || !strcmp(val, "table"))
					return cli_usage_error(&fc->cli,
							       "-o is vdbench's output directory; "
							       "for JSON use --output-format=json "
							       "or --json FILE");
				fc->outdir = val;
				continue;
			case 'e':
			case 'i':
			case 'w': {
				int64_t *slot = a[1] == 'e' ? &fc->elapsed :
						a[1] == 'i' ? &fc->interval : &fc->warmup;
				char opt[3] = { '-', a[1], '\0' };

				ret = opt_value(fc, argc, argv, &i, &val);
				if (!ret)
					ret = opt_secs(fc, opt, val, a[1] == 'w' ? 0 : 1, slot);
				if (ret)
					return ret;
				continue;
			}
			case 's':
				if (a[2])
					break;
				fc->simulate = true;
				continue;
			case 'c':
				if (!strcmp(a, "-cy") || !strcmp(a, "-cn") || !strcmp(a, "-co")) {
					if (fc->force_format && fc->force_format != a[2])
						return cli_usage_error(&fc->cli,
							"-c%c and %s do not go together: "
							"one format choice",
							fc->force_format, a);
					fc->force_format = a[2];
					continue;
				}
				return refuse(fc, a, "only -cy, -cn and -co (force format=yes, no, "
					      "only) are");
			case 'v':
			case 'j':
				return refuse(fc, a, "data validation and journaling");
			case 'm':
			case 'k':
			case 'p':
			case 'd':
			case 'l':
			case 't':
				return refuse(fc, a, "vdbench's JVM, kstat, port, debug, loop and "
					      "quick-test options");
			default:
				break;
			}
			return cli_usage_error(&fc->cli, "unknown option '%s' (see 'blkqual files "
					       "--help')", a);
		}
		if (strchr(a, '=')) {
			if (fc->nr_kv == MAX_ARGS)
				return cli_usage_error(&fc->cli, "too many name=value arguments");
			fc->kv[fc->nr_kv++] = argv[i];
			continue;
		}
		if (files_follow) {
			if (fc->nr_files == MAX_FILES)
				return cli_usage_error(&fc->cli, "more than %d parameter files",
						       MAX_FILES);
			fc->files[fc->nr_files++] = a;
			continue;
		}
		return cli_usage_error(&fc->cli, "unexpected argument '%s' (a parameter file "
				       "follows -f)", a);
	}
	if (files_follow && !fc->nr_files)
		return cli_usage_error(&fc->cli, "-f needs a parameter file");
	if (!fc->nr_files && !fc->nr_kv)
		return cli_usage_error(&fc->cli, "needs -f PARMFILE or key=value arguments (usage: "
				       "%s)", fc->cli.usage);
	return 0;
}

static int parse_error(struct files_cli *fc, int ret, const struct bq_parse_error *err)
{
	if (ret == -ENOMEM) {
		cli_error(&fc->cli, "out of memory");
		return EXIT_REFUSED;
	}
	return cli_usage_error(&fc->cli, "%s: %s", err->where, err->msg);
}

static int load(struct files_cli *fc, struct bq_files_parms *p)
{
	struct bq_files_var vars[MAX_ARGS];
	struct bq_parse_error err = { 0 };
	int ret;

	if (!fc->nr_files) {
		ret = bq_files_parse_args(fc->nr_kv, fc->kv, p, &err);
		return ret ? parse_error(fc, ret, &err) : 0;
	}
	for (int i = 0; i < fc->nr_kv; i++) {
		char *eq = strchr(fc->kv[i], '=');

		*eq = '\0';
		vars[i] = (struct bq_files_var){ .name = fc->kv[i], .value = eq + 1 };
	}
	ret = bq_files_parse_files(fc->files, fc->nr_files, vars, (size_t)fc->nr_kv, p, &err);
	for (int i = 0; i < fc->nr_kv; i++)
		fc->kv[i][strlen(fc->kv[i])] = '=';
	return ret ? parse_error(fc, ret, &err) : 0;
}

/* -e, -i, -w and -c replace what every rd says, as in vdbench. */
static void overrides(const struct files_cli *fc, struct bq_files_parms *p)
{
	for (size_t i = 0; i < p->nr_rd; i++) {
		struct bq_files_rd *rd = &p->rd[i];

		if (fc->elapsed >= 0)
			rd->elapsed_s = (uint64_t)fc->elapsed;
		if (fc->interval >= 0)
			rd->interval_s = (uint64_t)fc->interval;
		if (fc->warmup >= 0)
			rd->warmup_s = (uint64_t)fc->warmup;
		if (fc->force_format == 'n')
			memset(&rd->format, 0, sizeof(rd->format));
		else if (fc->force_format == 'y')
			rd->format = (struct bq_files_format){ .requested = true };
		else if (fc->force_format == 'o')
			rd->format.requested = rd->format.only = true;
	}
}

struct plans {
	struct bq_files_plan *fmt;	/* per rd; nr_fwg 0 when no format */
	struct bq_files_plan *run;	/* per rd; nr_fwg 0 with format=only */
	size_t nr;
};

static void plans_free(struct plans *pl)
{
	for (size_t i = 0; i < pl->nr; i++) {
		bq_files_plan_free(&pl->fmt[i]);
		bq_files_plan_free(&pl->run[i]);
	}
	free(pl->fmt);
	free(pl->run);
}

/* Every plan up front, so a bad skew or name stops the run before it starts. */
static int make_plans(struct files_cli *fc, const struct bq_files_parms *p, struct plans *pl,
		      uint32_t *columns)
{
	struct bq_parse_error err = { 0 };
	int ret;

	pl->fmt = calloc(p->nr_rd, sizeof(*pl->fmt));
	pl->run = calloc(p->nr_rd, sizeof(*pl->run));
	if (!pl->fmt || !pl->run)
		return parse_error(fc, -ENOMEM, &err);
	pl->nr = p->nr_rd;
	*columns = 0;
	for (size_t i = 0; i < p->nr_rd; i++) {
		const struct bq_files_format *fm = &p->rd[i].format;

		if (fm->requested) {
			ret = bq_files_plan(p, i, true, &pl->fmt[i], &err);
			if (ret)
				return parse_error(fc, ret, &err);
			*columns |= 1u << BQ_FOP_MKDIR | 1u << BQ_FOP_CREATE;
			if (!fm->restart)
				*columns |= 1u << BQ_FOP_RMDIR | 1u << BQ_FOP_DELETE;
		}
		if (fm->only)
			continue;
		ret = bq_files_plan(p, i, false, &pl->run[i], &err);
		if (ret)
			return parse_error(fc, ret, &err);
		for (size_t g = 0; g < pl->run[i].nr_fwg; g++) {
			const struct bq_files_fwg *fwg = &pl->run[i].fwg[g];

			*columns |= 1u << fwg->op;
			if (fwg->fwd->delete_first)
				*columns |= 1u << BQ_FOP_DELETE;
			if (fwg->op == BQ_FOP_WRITE && !fwg->fwd->random_io)
				*columns |= 1u << BQ_FOP_CREATE;
		}
	}
	return 0;
}

static int check_anchors(struct files_cli *fc, const struct bq_files_parms *p,
			 const struct plans *pl)
{
	for (size_t f = 0; f < p->nr_fsd; f++) {
		struct bq_parse_error err = { 0 };
		bool used = false, formatted = false;
		int ret;

		for (size_t i = 0; i < pl->nr; i++) {
			for (size_t g = 0; g < pl->fmt[i].nr_fwg; g++)
				if (pl->fmt[i].fwg[g].fsd == f)
					used = formatted = true;
			for (size_t g = 0; g < pl->run[i].nr_fwg; g++)
				used |= pl->run[i].fwg[g].fsd == f;
		}
		if (!used)
			continue;
		ret = bq_files_anchor_check(&p->fsd[f], p->create_anchors, formatted, &err);
		if (ret == -ENOTDIR || ret == -ENOENT)
			return cli_usage_error(&fc->cli, "%s: %s", err.where, err.msg);
		if (ret) {
			cli_error(&fc->cli, "%s: %s", err.where, err.msg);
			return EXIT_REFUSED;
		}
	}
	return 0;
}

static int check_outdir(struct files_cli *fc)
{
	struct stat st;

	if (!fc->outdir)
		return 0;
	if (!stat(fc->outdir, &st))
		return S_ISDIR(st.st_mode) ? 0 : cli_usage_error(&fc->cli, "-o %s: not a directory",
								  fc->outdir);
	if (errno != ENOENT)
		return cli_usage_error(&fc->cli, "-o %s: %s", fc->outdir, strerror(errno));
	return 0;
}

static int emit_json(FILE *out, void *arg)
{
	return json_print(out, arg);
}

static int run_one(struct files_cli *fc, struct files_report *rep, const struct bq_files_plan *plan,
		   volatile int *stop, bool *interrupted)
{
	const struct bq_files_rd *rd = plan->rd;
	struct bq_files_run_opts o = {
		.ctx = NULL,	/* the live /proc: files reads no captured trees */
		.elapsed_ns = rd->elapsed_s * 1000000000ull,
		.interval_ns = rd->interval_s * 1000000000ull,
		.stall_timeout_ns = fc->stall_timeout_ns,
		.stop = stop,
		.on_sample = files_report_sample,
		.sample_arg = rep,
	};
	struct bq_files_result res;
	char why[320] = "";
	bool stalled;
	int ret;

	files_report_start(rep, plan, rd->elapsed_s, rd->interval_s, false);
	ret = bq_files_run(plan, &o, &res);
	if (ret) {
		cli_error(&fc->cli, "rd=%s: %s", rd->name, res.note[0] ? res.note : strerror(-ret));
		return EXIT_REFUSED;
	}
	*interrupted = res.ops.interrupted;
	stalled = ops_stall_lines(&fc->cli, &res.ops) > 0;
	ret = files_report_end(rep, &res, why, sizeof(why));
	bq_files_result_free(&res);
	if (ret < 0) {
		cli_error(&fc->cli, "out of memory");
		return EXIT_REFUSED;
	}
	if (ret) {
		cli_error(&fc->cli, "rd=%s%s: %s", plan->format ? "format_for_" : "", rd->name,
			  why);
		return EXIT_REFUSED;
	}
	return stalled ? EXIT_REFUSED : 0;
}

static int run_all(struct files_cli *fc, const struct bq_files_parms *p, const struct plans *pl,
		   struct files_report *rep)
{
	volatile int *stop = stop_on_signals(NULL);
	bool interrupted = false;
	int status = 0, ret;

	for (size_t i = 0; i < pl->nr && !interrupted; i++) {
		if (pl->fmt[i].nr_fwg) {
			ret = run_one(fc, rep, &pl->fmt[i], stop, &interrupted);
			if (ret) {
				/* the tree is not what the run needs: stop here */
				status = ret;
				break;
			}
		}
		if (interrupted || !pl->run[i].nr_fwg)
			continue;
		ret = run_one(fc, rep, &pl->run[i], stop, &interrupted);
		if (ret && !status)
			status = ret;
		if (p->rd[i].pause_s && !interrupted && i + 1 < pl->nr) {
			for (uint64_t s = 0; s < p->rd[i].pause_s * 10 && !*stop; s++)
				usleep(100000);
		}
		interrupted |= *stop != 0;
	}
	if (interrupted || *stop)
		return 128 + (*stop ? *stop : 2);
	return status;
}

static void simulate(const struct bq_files_parms *p, const struct plans *pl,
		     struct files_report *rep)
{
	for (size_t i = 0; i < pl->nr; i++) {
		if (pl->fmt[i].nr_fwg)
			files_report_start(rep, &pl->fmt[i], 0, p->rd[i].interval_s, true);
		if (pl->run[i].nr_fwg)
			files_report_start(rep, &pl->run[i], p->rd[i].elapsed_s,
					   p->rd[i].interval_s, true);
	}
}

int cmd_files(int argc, char **argv)
{
	struct files_cli fc = {
		.cli = {
			.cmd = "files",
			.usage = "blkqual files [-f PARMFILE...] [-o DIR] [NAME=VALUE...] | "
				 "blkqual files anchor=DIR [key=value...]",
		},
		.elapsed = -1,
		.interval = -1,
		.warmup = -1,
	};
	struct bq_files_parms p;
	struct files_report *rep;
	struct plans pl = { 0 };
	uint32_t columns;
	int ret;

	ret = parse(&fc, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = load(&fc, &p);
	if (ret)
		return ret;
	overrides(&fc, &p);
	ret = make_plans(&fc, &p, &pl, &columns);
	if (!ret)
		ret = check_outdir(&fc);
	if (!ret && !fc.simulate)
		ret = check_anchors(&fc, &p, &pl);
	if (ret)
		goto out_free;
	rep = files_report_new(!fc.json_stdout, columns);
	if (!rep) {
		cli_error(&fc.cli, "out of memory");
		ret = EXIT_REFUSED;
		goto out_free;
	}
	if (fc.outdir && mkdir(fc.outdir, 0755) && errno != EEXIST) {
		cli_error(&fc.cli, "-o %s: %s", fc.outdir, strerror(errno));
		ret = EXIT_REFUSED;
		goto out_report;
	}
	for (size_t f = 0; f < p.nr_fsd; f++)
		files_report_anchor(rep, &p.fsd[f]);
	if (fc.simulate)
		simulate(&p, &pl, rep);
	else
		ret = run_all(&fc, &p, &pl, rep);

	/* Results are written whole whatever happened, interrupted runs included. */
	json_object_object_add(files_report_json(rep), "exit_status", json_object_new_int(ret));
	if (fc.json_stdout)
		json_print(stdout, files_report_json(rep));
	if (fc.json_file) {
		int err = write_atomically(fc.json_file, emit_json, files_report_json(rep));

		if (err) {
			cli_error(&fc.cli, "--json %s: %s", fc.json_file, strerror(-err));
			ret = ret ? ret : EXIT_REFUSED;
		}
	}
	if (fc.outdir && files_report_save(rep, fc.outdir)) {
		cli_error(&fc.cli, "-o %s: cannot write the results", fc.outdir);
		ret = ret ? ret : EXIT_REFUSED;
	}
out_report:
	files_report_free(rep);
out_free:
	plans_free(&pl);
	bq_files_parms_free(&p);
	return ret;
}
