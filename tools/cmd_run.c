// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - blkqual run: fio-compatible jobs on the I/O engine
 *
 * Three ways to say the same job: blkqual options (--rw=randread), fio's
 * single-dash command line (-rw=randread -name=x) and fio job files.  The
 * run-level options below are blkqual's (and fio's --output-format,
 * --minimal, --terse-version, --append-terse and --output); everything
 * else is a job option for the parser.  -o json is blkqual's own JSON,
 * --output-format=json fio's.
 */
#include <errno.h>
#include <malloc.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "error_report.h"
#include "errfilter_report.h"
#include "fio_output.h"
#include "inventory.h"
#include "rates_report.h"
#include "report_util.h"
#include "run_replay.h"
#include "run_report.h"
#include "run_switches.h"
#include "verify_report.h"

struct run_cli {
	struct cli cli;
	const char *output_file;
	unsigned int fio_formats;	/* FIO_OUT_*: fio's layouts, else blkqual's own */
	int terse_version;
	const char *csv_file;
	const char *verify_state;
	const char *cpus;
	uint64_t interval_ns;
	uint64_t stall_timeout_ns;
	bool stall_timeout_set;
	const char *force[64];
	size_t nr_force;
	bool sqpoll;
	bool continue_on_error;
	bool trace_block;
	char *stripe_files;		/* "--filename=A:B:..." made from --stripe */
	uint64_t stripe_chunk;
	int stripe_layout;
	bool status;
	struct run_switches sw;
	unsigned int repeat;
	const char *replay;
	char **job_args;
	int nr_job_args;
	int argc;
	char **argv;
};

static bool is_flag(const char *arg, const char *name)
{
	return !strcmp(arg, name);
}

/*
 * A job option the parser does not know may be a misspelled run option
 * ("--repaly"): the parser can only suggest job options, so say the error
 * here with the closest run option when there is one.
 */
/* A job file's other rejected options, after the first: all of them at once. */
static void more_job_errors(struct cli *cli, const struct bq_parse_error *perr)
{
	for (int i = 0; i < perr->nr_more; i++)
		cli_error(cli, "%s", perr->more[i]);
	if (perr->more_dropped)
		cli_error(cli, "and %d more rejected option%s", perr->more_dropped,
			  perr->more_dropped == 1 ? "" : "s");
}

/* run's own long options, beside fio's job options (hints and completion) */
static const char *const run_own_opts[] = {
	"output-format", "output", "csv", "verify-state", "interval", "force-destroy",
	"stripe", "repeat", "replay", "cpus", "sqpoll", "continue-on-error", "no-status",
	"stall-timeout", "minimal", "terse-version", "append-terse", "eta", "eta-newline",
	"eta-interval", "status-interval", "parse-only", "showcmd", "readonly", "trace", "help", NULL
};

static int job_args_error(struct cli *cli, const struct bq_parse_error *perr)
{
	const char *w = perr->where, *hint;
	char word[64];

	if (strncmp(perr->msg, "unknown option '", 16) || strstr(perr->msg, "did you mean") ||
	    w[0] != '-') {
		cli_usage_error(cli, "%s: %s", perr->where, perr->msg);
		more_job_errors(cli, perr);
		return EXIT_BADINPUT;
	}
	w += w[1] == '-' ? 2 : 1;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(w, "="), w);
	hint = bq_suggest(word, run_own_opts, ARRAY_LEN(run_own_opts) - 1);
	/* The argument is the unknown name itself: the reason first, then the name. */
	if (!hint)
		return cli_usage_error(cli, "unknown option '--%.*s'", (int)strcspn(w, "="), w);
	return cli_usage_error(cli, "%s: unknown option '--%s' (did you mean '--%s'?)",
			       perr->where, word, hint);
}

/* Whether a file can be created beside @path (the temp file goes there). */
static bool writable_dir_of(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return !access(".", W_OK);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
	return !access(dir, W_OK);
}

/*
 * --stripe=DEV1,DEV2,...[,chunk=SIZE][,layout=original|alternate]: the
 * devices become every job's filenames, striped with md's RAID0 layout.
 */
static int parse_stripe(struct run_cli *rc, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	size_t len = strlen(arg) + 16;
	int members = 0;

	if (!copy || !(rc->stripe_files = calloc(1, len)))
		return cli_usage_error(&rc->cli, "out of memory");
	strcpy(rc->stripe_files, "--filename=");
	rc->stripe_chunk = 256 << 10;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "chunk=", 6)) {
			if (bq_parse_size(tok + 6, &rc->stripe_chunk) || !rc->stripe_chunk ||
			    rc->stripe_chunk % 512) {
				free(copy);
				return cli_usage_error(&rc->cli, "--stripe: chunk=%s is not a multiple "
						       "of 512 bytes", tok + 6);
			}
		} else if (!strncmp(tok, "layout=", 7)) {
			if (!strcmp(tok + 7, "original")) {
				rc->stripe_layout = 1;
			} else if (!strcmp(tok + 7, "alternate")) {
				rc->stripe_layout = 2;
			} else {
				free(copy);
				return cli_usage_error(&rc->cli, "--stripe: layout=%s: use original or "
						       "alternate", tok + 7);
			}
		} else {
			if (members++)
				strcat(rc->stripe_files, ":");
			strcat(rc->stripe_files, tok);
		}
	}
	free(copy);
	if (members < 2)
		return cli_usage_error(&rc->cli, "--stripe needs at least two devices");
	rc->job_args[rc->nr_job_args++] = rc->stripe_files;
	return 0;
}

/* fio's --output-format: a comma list of normal, terse (minimal, csv), json, json+. */
static int parse_fio_formats(struct run_cli *rc, const char *v)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "normal", FIO_OUT_NORMAL }, { "terse", FIO_OUT_TERSE },
		{ "minimal", FIO_OUT_TERSE }, { "csv", FIO_OUT_TERSE },
		{ "json", FIO_OUT_JSON }, { "json+", FIO_OUT_JSONP },
	};
	const char *p = v;

	do {
		size_t len = strcspn(p, ",");
		size_t k;

		for (k = 0; k < ARRAY_LEN(names); k++)
			if (strlen(names[k].name) == len && !strncmp(p, names[k].name, len))
				break;
		if (k == ARRAY_LEN(names))
			return cli_usage_error(&rc->cli, "--output-format=%s: '%.*s' is not one of "
					       "normal, terse, minimal, csv, json, json+", v,
					       (int)len, p);
		rc->fio_formats |= names[k].bit;
		p += len;
	} while (*p++ == ',');
	return 0;
}

static int parse_run_args(struct run_cli *rc, int argc, char **argv)
{
	struct cli *cli = &rc->cli;
	struct stat st;
	int ret;

	rc->job_args = calloc((size_t)argc + 1, sizeof(char *));
	if (!rc->job_args)
		return cli_usage_error(cli, "out of memory");
	rc->status = isatty(STDERR_FILENO);
	cli_complete_options("ho", NULL, run_own_opts, true);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool bad = false;

		if (is_flag(a, "-h") || is_flag(a, "--help")) {
			printf("usage: %s\n", cli->usage);
			exit(0);
		}
		if (a[0] != '-' || !a[1]) {
			rc->job_args[rc->nr_job_args++] = argv[i];
			continue;
		}
		if (is_flag(a, "-o")) {
			if (i + 1 >= argc)
				return cli_usage_error(cli, "option '-o' needs a value");
			if (cli_parse_output(cli, argv[++i]))
				return EXIT_BADINPUT;
		} else if ((v = run_switch_value(argc, argv, &i, "output-format", &bad))) {
			/* "table" was the way to ask for blkqual's text before fio's layouts. */
			if (strcmp(v, "table") && parse_fio_formats(rc, v))
				return EXIT_BADINPUT;
		} else if (is_flag(a, "--minimal") || is_flag(a, "--append-terse")) {
			/* --append-terse adds terse to the other formats; --minimal is terse. */
			rc->fio_formats |= FIO_OUT_TERSE;
		} else if ((v = run_switch_value(argc, argv, &i, "terse-version", &bad))) {
			if (strlen(v) != 1 || v[0] < '2' || v[0] > '5')
				return cli_usage_error(cli, "--terse-version=%s: 2, 3, 4 or 5", v);
			rc->terse_version = v[0] - '0';
		} else if ((v = run_switch_value(argc, argv, &i, "output", &bad))) {
			rc->output_file = v;
		} else if ((v = run_switch_value(argc, argv, &i, "csv", &bad))) {
			rc->csv_file = v;
		} else if ((v = run_switch_value(argc, argv, &i, "verify-state", &bad))) {
			rc->verify_state = v;
		} else if ((v = run_switch_value(argc, argv, &i, "interval", &bad))) {
			if (bq_parse_time(v, 1000000000ULL, &rc->interval_ns) || !rc->interval_ns)
				return cli_usage_error(cli, "--interval=%s: not a duration", v);
		} else if ((v = run_switch_value(argc, argv, &i, "stall-timeout", &bad))) {
			if (bq_parse_time(v, 1000000000ULL, &rc->stall_timeout_ns))
				return cli_usage_error(cli, "--stall-timeout=%s: not a duration", v);
			rc->stall_timeout_set = true;
		} else if ((v = run_switch_value(argc, argv, &i, "force-destroy", &bad))) {
			if (rc->nr_force == ARRAY_LEN(rc->force))
				return cli_usage_error(cli, "too many --force-destroy options");
			rc->force[rc->nr_force++] = v;
		} else if ((v = run_switch_value(argc, argv, &i, "stripe", &bad))) {
			if (parse_stripe(rc, v))
				return EXIT_BADINPUT;
		} else if ((v = run_switch_value(argc, argv, &i, "repeat", &bad))) {
			char *end;
			unsigned long n = strtoul(v, &end, 10);

			if (*end || !n || n > 1000 || v[0] == '-')
				return cli_usage_error(cli, "--repeat=%s: a count from 1 to 1000", v);
			rc->repeat = (unsigned int)n;
		} else if ((v = run_switch_value(argc, argv, &i, "replay", &bad))) {
			rc->replay = v;
		} else if ((v = run_switch_value(argc, argv, &i, "cpus", &bad))) {
			rc->cpus = v;
		} else if (is_flag(a, "--sqpoll")) {
			rc->sqpoll = true;
		} else if (is_flag(a, "--continue-on-error")) {
			rc->continue_on_error = true;
		} else if (is_flag(a, "--no-status")) {
			rc->status = false;
		} else if ((v = run_switch_value(argc, argv, &i, "trace", &bad))) {
			if (strcmp(v, "block"))
				return cli_usage_error(cli, "--trace=%s: the one trace is 'block'", v);
			rc->trace_block = true;
		} else if ((ret = run_switch(&rc->sw, cli, argc, argv, &i))) {
			if (ret != 1)
				return ret;
		} else if (bad) {
			return cli_usage_error(cli, "option '%s' needs a value", a);
		} else {
			rc->job_args[rc->nr_job_args++] = argv[i];
		}
		if (bad)
			return cli_usage_error(cli, "option '%s' needs a value", a);
	}
	/* fio's --eta: the status line when stderr is a terminal, always, or never. */
	if (rc->sw.eta == RUN_ETA_ALWAYS)
		rc->status = true;
	else if (rc->sw.eta == RUN_ETA_NEVER)
		rc->status = false;
	if (!rc->nr_job_args && !rc->replay)
		return cli_usage_error(cli, "no job given (usage: %s)", cli->usage);
	if (rc->fio_formats && cli->output == OUTPUT_JSON)
		return cli_usage_error(cli, "-o json (blkqual's JSON) and --output-format (fio's "
				       "layouts) do not go together");
	if (rc->replay && rc->stripe_files)
		return cli_usage_error(cli, "--replay and --stripe do not go together");
	/* Find out now, not after a long run, that the results cannot be saved. */
	if (rc->output_file && !writable_dir_of(rc->output_file))
		return cli_usage_error(cli, "--output=%s: cannot write there: %s", rc->output_file,
				       strerror(errno));
	if (rc->output_file && !stat(rc->output_file, &st) && S_ISDIR(st.st_mode))
		return cli_usage_error(cli, "--output=%s: is a directory", rc->output_file);
	if (rc->csv_file && !stat(rc->csv_file, &st) && S_ISDIR(st.st_mode))
		return cli_usage_error(cli, "--csv=%s: is a directory", rc->csv_file);
	if (rc->csv_file && !writable_dir_of(rc->csv_file))
		return cli_usage_error(cli, "--csv=%s: cannot write there: %s", rc->csv_file,
				       strerror(errno));
	return 0;
}

/* --cpus, --sqpoll and --continue-on-error apply to every job, over what the jobs say. */
static int apply_run_options(struct run_cli *rc, struct bq_jobset *set)
{
	for (size_t k = 0; k < set->nr; k++) {
		struct bq_job *j = &set->jobs[k];
		struct bq_parse_error err = { 0 };

		if (rc->sqpoll) {
			if (!bq_engine_has(j->engine, BQ_ENGINE_RING))
				return cli_usage_error(&rc->cli, "--sqpoll: job '%s' does not use "
						       "ioengine=io_uring", j->name);
			j->sqpoll = true;
		}
		if (rc->continue_on_error) {
			j->continue_on_error = true;
			j->error_types = BQ_ERR_TYPES_ALL;
			j->continue_any = true;
		}
		if (rc->stall_timeout_set)
			j->stall_timeout_ns = rc->stall_timeout_ns;
		if (rc->stripe_files) {
			j->stripe = true;
			j->stripe_chunk = rc->stripe_chunk;
			j->stripe_layout = rc->stripe_layout;
		}
		if (rc->cpus && strcmp(rc->cpus, "auto") &&
		    bq_job_set(j, "cpus_allowed", rc->cpus, &err))
			return cli_usage_error(&rc->cli, "--cpus=%s: %s", rc->cpus, err.msg);
		if (rc->cpus && !strcmp(rc->cpus, "auto"))
			j->cpus_allowed[0] = '\0';
	}
	return 0;
}

static void status_line(void *arg, const struct bq_progress *p)
{
	struct run_cli *rc = arg;
	static uint64_t last_ios, last_bytes, last_ns, last_newline_ns;
	char bw[32];
	double dt = (double)(p->elapsed_ns - last_ns) / 1e9;
	bool newline;

	if (!rc->status || dt <= 0 || p->elapsed_ns - last_ns < rc->sw.eta_interval_ns)
		return;
	/* --eta-newline: the line is kept, a new one started, once a period. */
	newline = rc->sw.eta_newline_ns &&
		  p->elapsed_ns - last_newline_ns >= rc->sw.eta_newline_ns;
	if (newline)
		last_newline_ns = p->elapsed_ns;
	fmt_size(bw, sizeof(bw), dt > 0 ? (uint64_t)((double)(p->bytes - last_bytes) / dt) : 0);
	fprintf(stderr, "\r[%.0fs elapsed%s", (double)p->elapsed_ns / 1e9, p->eta_ns ? ", " : "");
	if (p->eta_ns)
		fprintf(stderr, "%.0fs left", (double)p->eta_ns / 1e9);
	fprintf(stderr, "] %.0f IOPS, %s/s   %s", dt > 0 ? (double)(p->ios - last_ios) / dt : 0,
		bw, newline ? "\n" : "");
	last_ios = p->ios;
	last_bytes = p->bytes;
	last_ns = p->elapsed_ns;
}

struct live_report {
	struct run_cli *rc;
	struct bq_results *res;
	struct bq_ctx *ctx;
	FILE *status_log;		/* --status-interval with --output: the reports so far */
	char *status_buf;
	size_t status_len;
};

struct emit_args {
	struct bq_ctx *ctx;
	const struct bq_results *res;
	enum cli_output format;
	const struct run_cli *rc;
	json_object *repetitions;
	json_object *doc;		/* the JSON once made, for --replay's comparison */
	const struct live_report *lr;	/* the status reports to put first, or NULL */
};

/* What makes the result reproducible beyond the jobs: how it was asked for. */
static void add_invocation(json_object *doc, const struct emit_args *a)
{
	json_object *cmd = json_object_new_array();

	json_object_array_add(cmd, json_object_new_string("blkqual"));
	for (int i = 0; i < a->rc->argc; i++)
		json_object_array_add(cmd, json_object_new_string(a->rc->argv[i]));
	json_object_object_add(doc, "command_line", cmd);
	if (a->rc->replay)
		json_object_object_add(doc, "replay_of", json_object_new_string(a->rc->replay));
	if (a->repetitions)
		json_object_object_add(doc, "repetitions", json_object_get(a->repetitions));
}

static json_object *result_doc(struct emit_args *a)
{
	if (!a->doc) {
		a->doc = report_json(a->ctx, a->res);
		if (a->doc)
			add_invocation(a->doc, a);
	}
	return a->doc;
}

/* fio writes its formats in this order: terse, JSON, then its text. */
static int emit_fio(FILE *f, const struct emit_args *a)
{
	unsigned int fmt = a->rc->fio_formats;
	struct fio_report r;
	int ret;

	ret = fio_report_init(&r, a->res);
	if (ret)
		return ret;
	if (a->rc->terse_version)
		r.terse_version = a->rc->terse_version;
	if (fmt & FIO_OUT_TERSE)
		ret = fio_terse(f, &r);
	if (!ret && (fmt & (FIO_OUT_JSON | FIO_OUT_JSONP))) {
		json_object *doc = fio_json(&r, fmt & FIO_OUT_JSONP);

		ret = doc ? json_print(f, doc) : -ENOMEM;
		json_object_put(doc);
	}
	if (!ret && (fmt & FIO_OUT_NORMAL))
		ret = fio_normal(f, &r);
	fio_report_free(&r);
	return ret;
}

static int emit_results(FILE *f, void *arg)
{
	struct emit_args *a = arg;

	/* The file gets what fio's would: the status reports, then the final one. */
	if (a->lr && a->lr->status_len &&
	    fwrite(a->lr->status_buf, 1, a->lr->status_len, f) != a->lr->status_len)
		return -EIO;
	if (a->rc->fio_formats)
		return emit_fio(f, a);
	if (a->format == OUTPUT_JSON) {
		json_object *doc = result_doc(a);

		return doc ? json_print(f, doc) : -ENOMEM;
	}
	report_human(f, a->res);
	return 0;
}

static int emit_csv(FILE *f, void *arg)
{
	struct emit_args *a = arg;

	return report_csv(f, a->res);
}

static int status_of(const struct bq_results *res, int sig)
{
	if (res->interrupted)
		return 128 + sig;
	if (res->stalled || res->gone)
		return EXIT_REFUSED;
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_verify_report *v = res->jobs[k].verify;

		/* A bad block, or a failed read-back, fails the run as a failed I/O does. */
		if (v && (v->bad || v->phase.d[BQ_READ].errors))
			return EXIT_REFUSED;
		/* rate_min and latency limits fail a job in fio too. */
		if (rates_failed(&res->jobs[k]))
			return EXIT_REFUSED;
		for (int i = 0; i < res->jobs[k].nr_threads; i++)
			if ((res->jobs[k].threads[i].d[BQ_READ].errors ||
			     res->jobs[k].threads[i].d[BQ_WRITE].errors) &&
			    !errors_all_ignored(&res->jobs[k].threads[i]))
				return EXIT_REFUSED;
	}
	return 0;
}

/*
 * Why a job fails the run (failed I/Os, bad blocks), a stall or a target
 * that went away: news even when the report goes to a file.
 */
static void fault_lines(struct run_cli *rc, const struct bq_results *res)
{
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];
		const struct bq_verify_report *v = jr->verify;
		struct bq_thread_result sum;
		char line[160];

		if (!job_total(jr, &sum) && !errors_all_ignored(&sum))
			io_error_line(&rc->cli, jr->job.name, &sum, jr->targets, jr->nr_targets,
				      !jr->job.continue_on_error);
		job_total_free(&sum);
		if (v && v->bad)
			cli_error(&rc->cli, "%s: verify found %" PRIu64 " bad block%s, the first at "
				  "offset %" PRIu64, jr->job.name, v->bad, v->bad == 1 ? "" : "s",
				  v->nr_first_bad ? v->first_bad[0].offset : 0);

		if (rates_fault(jr, line, sizeof(line)))
			cli_error(&rc->cli, "%s: %s; the job was ended", jr->job.name, line);
		if (jr->fault[0])
			cli_error(&rc->cli, "%s: %s; the run was ended", jr->job.name, jr->fault);
		for (int i = 0; i < jr->nr_stalls; i++) {
			const struct bq_stall *s = &jr->stalls[i];

			if (res->interrupted)
				cli_error(&rc->cli, "%s: thread %d left at a second signal with %u "
					  "I/O%s in flight%s", jr->job.name, s->thread, s->outstanding,
					  s->outstanding == 1 ? "" : "s", s->in_fsync ? " and a flush" : "");
			else if (s->in_fsync)
				cli_error(&rc->cli, "%s: thread %d stalled: in fsync for %.1fs; "
					  "not waiting for it", jr->job.name, s->thread,
					  (double)s->stalled_ns / 1e9);
			else
				cli_error(&rc->cli, "%s: thread %d stalled: no I/O completed for "
					  "%.1fs, %u in flight; not waiting for them",
					  jr->job.name, s->thread, (double)s->stalled_ns / 1e9,
					  s->outstanding);
		}
	}
}

static void io_error_cb(void *arg, const struct bq_job_result *jr, const struct bq_io_error *e)
{
	const struct live_report *lr = arg;

	error_dump_line(&lr->rc->cli, jr, e);
}

static void verify_dumped_cb(void *arg, const struct bq_job_result *jr, int file,
			     uint64_t offset, const char *expected, const char *received, int ret)
{
	const struct live_report *lr = arg;

	verify_dump_line(&lr->rc->cli, jr, file, offset, expected, received, ret);
}

static void progress_cb(void *arg, const struct bq_progress *p)
{
	struct live_report *lr = arg;

	status_line(lr->rc, p);
	if (p->interval_done && lr->rc->cli.output == OUTPUT_TABLE && !lr->rc->fio_formats) {
		if (lr->rc->status)
			fputs("\r\033[K", stderr);
		report_interval_lines(stdout, p->phase ? p->phase : lr->res);
	}
}

/*
 * fio's --status-interval and SIGUSR1: the whole report so far, in the
 * run's output format, on standard output as the run goes on, or kept
 * for the --output file.
 */
static void status_cb(void *arg, const struct bq_results *sofar)
{
	struct live_report *lr = arg;
	struct emit_args ea = { .ctx = lr->ctx, .res = sofar, .format = lr->rc->cli.output,
				.rc = lr->rc };
	FILE *f = stdout;

	if (lr->rc->output_file) {
		if (!lr->status_log)
			lr->status_log = open_memstream(&lr->status_buf, &lr->status_len);
		if (!lr->status_log)
			return;
		f = lr->status_log;
	}
	if (lr->rc->status)
		fputs("\r\033[K", stderr);
	emit_results(f, &ea);
	json_object_put(ea.doc);
	fflush(f);
}

static volatile int status_asked;

static void ask_status(int sig)
{
	(void)sig;
	status_asked = 1;
}

/* One line per repetition of --repeat, so the spread is visible as it happens. */
static void repetition_line(const struct run_cli *rc, unsigned int r,
			    const struct bq_results *res)
{
	if (rc->cli.output != OUTPUT_TABLE || rc->fio_formats)
		return;
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];
		struct bq_thread_result sum;

		if (job_total(jr, &sum))
			continue;
		printf("repetition %u/%u: %s:", r, rc->repeat, jr->job.name);
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			char iops[32], bw[32], p99[32];

			if (!sum.d[d].ios)
				continue;
			fmt_count(iops, sizeof(iops), per_second(sum.d[d].ios, jr->runtime_ns));
			fmt_size(bw, sizeof(bw), (uint64_t)per_second(sum.d[d].bytes,
								      jr->runtime_ns));
			fmt_lat(p99, sizeof(p99), (double)bq_hist_percentile(&sum.d[d].lat, 99));
			printf(" %s IOPS=%s BW=%s/s p99=%s", d ? "write" : "read", iops, bw,
			       sum.d[d].lat.count ? p99 : "-");
		}
		putchar('\n');
		job_total_free(&sum);
	}
	fflush(stdout);
}

/*
 * --repeat N: the same jobs N times, one after the other.  The results add
 * up (rates stay rates); each repetition is also kept in brief, because
 * the spread between repetitions is what blkqual compare calls noise.
 */
static int run_repeated(struct run_cli *rc, struct bq_ctx *ctx, const struct bq_jobset *set,
			struct bq_run_opts *ropts, struct live_report *lr,
			struct bq_results *res, json_object **reps, struct bq_parse_error *perr)
{
	int ret;

	lr->res = res;
	ret = bq_run(ctx, set, ropts, res, perr);
	if (ret || rc->repeat <= 1 || res->stalled || res->gone)
		return ret;
	*reps = json_object_new_array();
	json_object_array_add(*reps, report_repetition_json(res));
	repetition_line(rc, 1, res);
	for (unsigned int r = 1; r < rc->repeat && !*ropts->stop; r++) {
		struct bq_results one;

		lr->res = &one;
		ret = bq_run(ctx, set, ropts, &one, perr);
		if (!ret && (one.stalled || one.gone)) {
			/* What went wrong in this repetition is the news: report it alone. */
			bq_results_free(res);
			*res = one;
			lr->res = res;
			return 0;
		}
		if (!ret) {
			json_object_array_add(*reps, report_repetition_json(&one));
			repetition_line(rc, r + 1, &one);
			ret = bq_results_add(res, &one);
			if (ret) {
				snprintf(perr->where, sizeof(perr->where), "run");
				snprintf(perr->msg, sizeof(perr->msg), "repetition %u: %s", r + 1,
					 strerror(-ret));
			}
		}
		bq_results_free(&one);
		lr->res = res;
		if (ret)
			return ret;
	}
	return 0;
}

/* --force-destroy must name one of the run's targets, as in every command. */
static int check_force_names(const struct cli *cli, const struct bq_guard_opts *gopts,
			     const struct bq_jobset *set)
{
	size_t nr = 0, most = set->nr * BQ_MAX_FILES * 2 + 1;
	char (*blk)[80];
	const char **names;
	int ret;

	if (!gopts->nr_force)
		return 0;
	names = calloc(most, sizeof(*names));
	blk = calloc(most, sizeof(*blk));
	if (!names || !blk) {
		free(names);
		free(blk);
		return cli_usage_error(cli, "out of memory");
	}
	for (size_t k = 0; k < set->nr; k++) {
		const struct bq_job *j = &set->jobs[k];

		for (int i = 0; i < j->nr_files; i++) {
			const char *base = strrchr(j->filenames[i], '/');
			char ns[64];

			names[nr++] = j->filenames[i];
			/* Passthrough writes the namespace's data: the guard judges its block device. */
			if (bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU) &&
			    !bq_nvme_ng_to_blk(base ? base + 1 : j->filenames[i], ns, sizeof(ns))) {
				snprintf(blk[nr], sizeof(blk[nr]), "/dev/%s", ns);
				names[nr] = blk[nr];
				nr++;
			}
		}
	}
	ret = cli_check_force(cli, gopts, names, nr);
	free(names);
	free(blk);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli rc = {
		.cli = {
			.cmd = "run",
			.usage = "blkqual run [-o table|json] "
				 "[--output-format normal|terse|json|json+[,...]] [--minimal] "
				 "[--terse-version 2..5] [--append-terse] "
				 "[--output FILE] [--csv FILE] "
				 "[--interval T] [--repeat N] [--cpus auto|LIST] [--sqpoll] [--trace block] "
				 "[--stall-timeout T] [--eta always|never|auto] [--status-interval T] "
				 "[--parse-only] [--showcmd] [--readonly] "
				 "[--continue-on-error] [--verify-state FILE] "
				 "[--stripe DEV,DEV,...[,chunk=SIZE][,layout=L]] "
				 "[--force-destroy DEV]... "
				 "JOB-OPTIONS|JOBFILE... | --replay RESULT.json [JOB-OPTIONS]",
		},
		.repeat = 1,
		.argc = argc - 1,
		.argv = argv + 1,
	};
	struct bq_guard_opts gopts = { .force_destroy = rc.force };
	struct bq_parse_error perr = { 0 };
	struct live_report lr = { .rc = &rc };
	struct bq_run_opts ropts = { .guard = &gopts };
	struct emit_args ea = { .rc = &rc };
	struct replay rp = { 0 };
	struct bq_jobset set = { 0 };
	struct bq_results res;
	struct bq_ctx *ctx;
	int ret, status;

	/*
	 * The I/O threads allocate only while they set up, never per I/O:
	 * an arena of their own each buys nothing but its pages.
	 */
	mallopt(M_ARENA_MAX, 1);
	ret = parse_run_args(&rc, argc, argv);
	if (ret)
		goto out_free_args;
	gopts.nr_force = rc.nr_force;
	if (rc.replay) {
		ret = replay_load(&rc.cli, &rp, rc.replay, rc.job_args, rc.nr_job_args);
		if (ret)
			goto out_free_args;
		ret = bq_jobs_from_args(rp.argc, rp.argv, &set, &perr);
	} else {
		ret = bq_jobs_from_args(rc.nr_job_args, rc.job_args, &set, &perr);
	}
	if (ret) {
		ret = job_args_error(&rc.cli, &perr);
		goto out_free_args;
	}
	ret = apply_run_options(&rc, &set);
	if (!ret)
		ret = check_force_names(&rc.cli, &gopts, &set);
	if (!ret)
		ret = run_switches_check(&rc.sw, &rc.cli, &set);
	if (ret)
		goto out_free_jobs;
	gopts.read_only = rc.sw.readonly;
	/* fio's --showcmd and --parse-only: the jobs are good; nothing is opened. */
	if (rc.sw.showcmd || rc.sw.parse_only) {
		if (rc.sw.showcmd && run_showcmd(stdout, &set)) {
			cli_error(&rc.cli, "writing to standard output: %s", strerror(errno));
			ret = EXIT_REFUSED;
		}
		goto out_free_jobs;
	}
	ret = cli_open_ctx(&rc.cli, &ctx);
	if (ret)
		goto out_free_jobs;

	ropts.stop = stop_on_signals(&ropts.stop_now);
	/* fio's SIGUSR1: a status report now. */
	signal(SIGUSR1, ask_status);
	ropts.status_now = &status_asked;
	ropts.status_interval_ns = rc.sw.status_interval_ns;
	ropts.status = status_cb;
	lr.ctx = ctx;
	ropts.interval_ns = rc.interval_ns;
	ropts.verify_state = rc.verify_state;
	ropts.trace_block = rc.trace_block;
	ropts.progress = progress_cb;
	ropts.io_error = io_error_cb;
	ropts.verify_dumped = verify_dumped_cb;
	ropts.arg = &lr;
	ret = run_repeated(&rc, ctx, &set, &ropts, &lr, &res, &ea.repetitions, &perr);
	if (rc.status)
		fputs("\r\033[K", stderr);
	if (ret) {
		if (strcmp(perr.where, "run"))
			cli_error(&rc.cli, "%s: %s", perr.where, perr.msg);
		else
			cli_error(&rc.cli, "%s", perr.msg);
		/* The guard's refusal, or a system that cannot trace: not the input. */
		ret = ret == -EBUSY || !strcmp(perr.where, "--trace=block") ? EXIT_REFUSED :
									      EXIT_BADINPUT;
		goto out_free_results;
	}
	status = status_of(&res, *ropts.stop);
	fault_lines(&rc, &res);
	ea.ctx = ctx;
	ea.res = &res;
	if (lr.status_log && !fflush(lr.status_log))
		ea.lr = &lr;
	ea.format = rc.cli.output;
	if (rc.replay && result_doc(&ea))
		replay_report_differences(&rp, ea.doc);
	if (rc.output_file) {
		ret = write_atomically(rc.output_file, emit_results, &ea);
		if (ret)
			cli_error(&rc.cli, "writing %s: %s", rc.output_file, strerror(-ret));
	} else {
		ret = emit_results(stdout, &ea);
		/* SIGPIPE is ignored: a closed pipe is a write error, said once. */
		errno = 0;
		if (!ret && (fflush(stdout) || ferror(stdout))) {
			ret = errno ? -errno : -EIO;
			cli_error(&rc.cli, "writing the results to standard output: %s",
				  strerror(-ret));
		}
	}
	if (!ret && rc.csv_file) {
		ret = write_atomically(rc.csv_file, emit_csv, &ea);
		if (ret)
			cli_error(&rc.cli, "writing %s: %s", rc.csv_file, strerror(-ret));
	}
	ret = ret ? EXIT_REFUSED : status;
out_free_results:
	if (lr.status_log)
		fclose(lr.status_log);
	free(lr.status_buf);
	json_object_put(ea.doc);
	json_object_put(ea.repetitions);
	bq_results_free(&res);
	bq_ctx_free(ctx);
out_free_jobs:
	bq_jobset_free(&set);
out_free_args:
	replay_free(&rp);
	free(rc.job_args);
	free(rc.stripe_files);
	return ret;
}
