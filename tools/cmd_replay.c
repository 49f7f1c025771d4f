// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_replay.c - blkqual replay: dbench's NBENCH loadfiles on a local
 * directory
 *
 * dbench's command line works unchanged after "blkqual replay" replaces
 * "dbench": "dbench -c client.txt 4 -D /mnt -t 10" is "blkqual replay -c
 * client.txt 4 -D /mnt -t 10", with the same defaults (600 seconds, a
 * fifth of them warmup first, the current directory, Debian's
 * client.txt).  A loadfile may also be given where the client count goes
 * ("blkqual replay small.txt", one client).  What differs is blkqual's:
 * each operation's status is compared with the loadfile's and mismatches
 * are counted, bad input is one line and exit status 2, and -o json
 * gives the whole result with latency histograms.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "error_report.h"
#include "replay_report.h"
#include "report_util.h"

#define DEFAULT_LOADFILE "/usr/share/dbench/client.txt"
#define NS_PER_S 1000000000.0

struct replay_cli {
	struct cli cli;
	struct bq_replay_opts o;
	const char *loadfile;
	const char *output_file;
	double time_s;
	double warmup_s;
	bool have_time;
	bool have_warmup;
	int nprocs;
	int per_process;
	bool skip_cleanup;
	bool per_client;
	bool strict;
};

enum {
	OPT_WARMUP = OPT_FIRST_PRIVATE,
	OPT_NO_RESOLVE,
	OPT_LEAN,
	OPT_CLIENTS_PER_PROCESS,
	OPT_SKIP_CLEANUP,
	OPT_PER_CLIENT,
	OPT_RUN_ONCE,
	OPT_OUTPUT,
	OPT_OUTPUT_FORMAT,
	OPT_STRICT,
	OPT_NOT_DONE,
	OPT_STALL_TIMEOUT,
};

static const struct option longopts[] = {
	{ "loadfile", required_argument, NULL, 'c' },
	{ "directory", required_argument, NULL, 'D' },
	{ "timelimit", required_argument, NULL, 't' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "target-rate", required_argument, NULL, 'R' },
	{ "sync", no_argument, NULL, 's' },
	{ "sync-dir", no_argument, NULL, 'S' },
	{ "fsync", no_argument, NULL, 'F' },
	{ "no-resolve", no_argument, NULL, OPT_NO_RESOLVE },
	{ "case-sensitive", no_argument, NULL, OPT_NO_RESOLVE },
	{ "lean", no_argument, NULL, OPT_LEAN },
	{ "clients-per-process", required_argument, NULL, OPT_CLIENTS_PER_PROCESS },
	{ "skip-cleanup", no_argument, NULL, OPT_SKIP_CLEANUP },
	{ "per-client-results", no_argument, NULL, OPT_PER_CLIENT },
	{ "run-once", no_argument, NULL, OPT_RUN_ONCE },
	{ "backend", required_argument, NULL, 'B' },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "stall-timeout", required_argument, NULL, OPT_STALL_TIMEOUT },
	/* dbench's, refused by name below */
	{ "xattr", no_argument, NULL, 'x' },
	{ "tcp-options", required_argument, NULL, 'T' },
	{ "one-byte-write-fix", no_argument, NULL, OPT_NOT_DONE },
	{ "stat-check", no_argument, NULL, OPT_NOT_DONE },
	{ "fake-io", no_argument, NULL, OPT_NOT_DONE },
	CLI_COMMON_LONGOPTS,
	{ 0 }
};

static const char usage[] =
	"blkqual replay [options] [-c LOADFILE] NPROCS | blkqual replay [options] LOADFILE\n"
	"\n"
	"Replays a dbench NBENCH loadfile with NPROCS clients (threads), each in\n"
	"DIR/clients/clientN, comparing each operation's status with the file's.\n"
	"\n"
	"dbench's options:\n"
	"  -c, --loadfile FILE        the loadfile (" DEFAULT_LOADFILE ")\n"
	"  -D, --directory DIR        where to work (.)\n"
	"  -t, --timelimit SECONDS    measured time after the warmup (600)\n"
	"      --warmup SECONDS       unmeasured time first (a fifth of -t)\n"
	"  -R, --target-rate MB/S     at most this many 10^6 bytes/s per client\n"
	"  -s, --sync                 open files with O_SYNC\n"
	"  -S, --sync-dir             fsync a directory after changing it\n"
	"  -F, --fsync                fsync after each WriteX\n"
	"      --no-resolve           names as written, no case-insensitive retry\n"
	"      --clients-per-process N  clients = NPROCS x N\n"
	"      --skip-cleanup         leave DIR/clients behind\n"
	"      --per-client-results   a table per client too\n"
	"      --run-once             go through the file once\n"
	"  -B, --backend fileio       the only backend\n"
	"blkqual's:\n"
	"  -o, --output-format table|json   dbench's text (table) or one JSON document\n"
	"      --output FILE          the JSON document to FILE too, written whole\n"
	"      --strict               exit 1 when any status or result mismatched\n"
	"      --lean                 skip the system calls dbench makes that do no\n"
	"                             work (figures then do not compare with dbench's)\n"
	"      --stall-timeout=DUR    a client stuck in one system call this long is\n"
	"                             reported and the run ends [120s; 0: never]\n"
	"\n"
	"See blkqual(8) and Documentation/replay.rst.";

static int parse_seconds(struct replay_cli *rc, const char *opt, const char *arg, bool zero_ok,
			 double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0) || v > 1e6 || (!zero_ok && v == 0))
		return cli_usage_error(&rc->cli, "%s %s: a number of seconds%s", opt, arg,
				       zero_ok ? "" : " above 0");
	*out = v;
	return 0;
}

static int parse_count(struct replay_cli *rc, const char *opt, const char *arg, int max,
		       int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > max)
		return cli_usage_error(&rc->cli, "%s %s: a count from 1 to %d", opt, arg, max);
	*out = (int)v;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int apply_option(struct replay_cli *rc, int c, char **argv)
{
	struct bq_replay_opts *o = &rc->o;
	double v;

	switch (c) {
	case 'c':
		rc->loadfile = optarg;
		return 0;
	case 'D':
		o->dir = optarg;
		return 0;
	case 't':
		rc->have_time = true;
		return parse_seconds(rc, "-t", optarg, false, &rc->time_s);
	case OPT_WARMUP:
		rc->have_warmup = true;
		return parse_seconds(rc, "--warmup", optarg, true, &rc->warmup_s);
	case 'R':
		if (parse_seconds(rc, "-R", optarg, true, &v))
			return EXIT_BADINPUT;
		o->target_rate = v;
		return 0;
	case 's':
		o->sync_open = true;
		return 0;
	case 'S':
		o->sync_dirs = true;
		return 0;
	case 'F':
		o->fsync_writes = true;
		return 0;
	case OPT_NO_RESOLVE:
		o->case_sensitive = true;
		return 0;
	case OPT_LEAN:
		o->lean = true;
		return 0;
	case OPT_CLIENTS_PER_PROCESS:
		return parse_count(rc, "--clients-per-process", optarg, 1000, &rc->per_process);
	case OPT_SKIP_CLEANUP:
		rc->skip_cleanup = true;
		return 0;
	case OPT_PER_CLIENT:
		rc->per_client = true;
		return 0;
	case OPT_RUN_ONCE:
		o->run_once = true;
		return 0;
	case 'B':
		if (strcmp(optarg, "fileio"))
			return cli_usage_error(&rc->cli, "-B %s: only the fileio backend (a local "
					       "directory) is here", optarg);
		return 0;
	case 'o':
	case OPT_OUTPUT_FORMAT:
		return cli_parse_output(&rc->cli, optarg);
	case OPT_OUTPUT:
		rc->output_file = optarg;
		return 0;
	case OPT_STRICT:
		rc->strict = true;
		return 0;
	case OPT_STALL_TIMEOUT:
		if (bq_parse_time(optarg, 1000000000ull, &o->stall_timeout_ns))
			return cli_usage_error(&rc->cli, "--stall-timeout %s: not a duration", optarg);
		if (!o->stall_timeout_ns)
			o->stall_timeout_ns = BQ_OPS_NO_STALL_TIMEOUT;
		return 0;
	case 'x':
	case 'T':
	case OPT_NOT_DONE:
		return cli_usage_error(&rc->cli, "%s: dbench's option is not implemented here "
				       "(see Documentation/replay.rst)", argv[optind - 1 -
				       (c == 'T' && optarg == argv[optind - 1])]);
	default:
		return EXIT_BADINPUT;
	}
}

static int parse(struct replay_cli *rc, int argc, char **argv)
{
	struct stat st;
	int c;

	while ((c = cli_getopt(&rc->cli, argc, argv, "c:D:t:R:sSFB:o:xT:h", longopts)) != -1)
		if (c == '?' || apply_option(rc, c, argv))
			return EXIT_BADINPUT;
	for (int i = optind; i < argc; i++) {
		if (all_digits(argv[i])) {
			if (rc->nprocs)
				return cli_usage_error(&rc->cli, "two client counts: %d and %s",
						       rc->nprocs, argv[i]);
			if (parse_count(rc, "NPROCS", argv[i], 10000, &rc->nprocs))
				return EXIT_BADINPUT;
		} else {
			if (rc->loadfile)
				return cli_usage_error(&rc->cli, "two loadfiles: '%s' and '%s'",
						       rc->loadfile, argv[i]);
			rc->loadfile = argv[i];
		}
	}
	if (!rc->nprocs && !rc->loadfile)
		return cli_usage_error(&rc->cli, "you need to specify NPROCS (usage: blkqual "
				       "replay [-c LOADFILE] NPROCS, or blkqual replay LOADFILE)");
	if (!rc->nprocs)
		rc->nprocs = 1;
	if ((long)rc->nprocs * rc->per_process > 10000)
		return cli_usage_error(&rc->cli, "%d x %d clients: at most 10000", rc->nprocs,
				       rc->per_process);
	if (!rc->loadfile) {
		if (access(DEFAULT_LOADFILE, R_OK))
			return cli_usage_error(&rc->cli, "no loadfile: give -c FILE (dbench's "
					       DEFAULT_LOADFILE " is not here)");
		rc->loadfile = DEFAULT_LOADFILE;
	}
	if (stat(rc->o.dir, &st))
		return cli_usage_error(&rc->cli, "-D %s: %s", rc->o.dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(&rc->cli, "-D %s: not a directory", rc->o.dir);
	if (access(rc->o.dir, W_OK | X_OK))
		return cli_usage_error(&rc->cli, "-D %s: cannot write there: %s", rc->o.dir,
				       strerror(errno));

	rc->o.clients = rc->nprocs * rc->per_process;
	/* dbench's whole-second warmup: a fifth of the time limit, rounded down. */
	if (!rc->have_warmup)
		rc->warmup_s = rc->o.run_once ? 0 : floor(rc->time_s / 5);
	if (rc->o.run_once && !rc->have_time)
		rc->time_s = 0;
	rc->o.time_ns = (uint64_t)(rc->time_s * NS_PER_S);
	rc->o.warmup_ns = (uint64_t)(rc->warmup_s * NS_PER_S);
	return 0;
}

struct progress_state {
	struct replay_cli *rc;
	struct bq_replay_progress *p;
	size_t nr;
	size_t cap;
};

static void on_progress(void *arg, const struct bq_replay_progress *p)
{
	struct progress_state *ps = arg;

	if (ps->nr == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 64;
		struct bq_replay_progress *n = realloc(ps->p, cap * sizeof(*n));

		if (n) {
			ps->p = n;
			ps->cap = cap;
		}
	}
	if (ps->nr < ps->cap)
		ps->p[ps->nr++] = *p;
	if (ps->rc->cli.output == OUTPUT_TABLE)
		replay_print_progress(stdout, ps->rc->o.clients, p);
}

struct emit_args {
	const struct replay_info *ri;
	const struct bq_loadfile *lf;
	const struct bq_replay_result *res;
};

static int emit_json(FILE *out, void *arg)
{
	const struct emit_args *ea = arg;
	json_object *doc = replay_json(ea->ri, ea->lf, ea->res);
	int ret = doc ? json_print(out, doc) : -ENOMEM;

	json_object_put(doc);
	return ret;
}

static double secs_since(uint64_t start_ns)
{
	uint64_t now = bq_now_ns();

	return now > start_ns ? (double)(now - start_ns) / NS_PER_S : 0;
}

/* dbench counts the cleanup's seconds from the end of the warmup. */
static void cleanup(struct replay_cli *rc, uint64_t start_ns)
{
	bool text = rc->cli.output == OUTPUT_TABLE;
	int ret;

	if (rc->skip_cleanup)
		return;
	if (text)
		printf("%4d  cleanup %3.0f sec\n", rc->o.clients, secs_since(start_ns));
	fflush(stdout);
	ret = bq_replay_cleanup(rc->o.dir, rc->o.clients);
	if (ret)
		cli_error(&rc->cli, "cleaning up %s/clients: %s", rc->o.dir, strerror(-ret));
	if (text)
		printf("%4d  cleanup %3.0f sec\n", 0, secs_since(start_ns));
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cli rc = {
		.cli = { .cmd = "replay", .usage = usage },
		.o = { .dir = "." },
		.time_s = 600,
		.per_process = 1,
	};
	struct progress_state ps = { .rc = &rc };
	struct bq_parse_error perr = { 0 };
	struct bq_replay_result res;
	struct replay_info ri = { 0 };
	struct emit_args ea = { .ri = &ri, .res = &res };
	struct bq_loadfile lf;
	struct bq_ctx *ctx;
	volatile int *stop;
	uint64_t t0;
	int ret, status = 0;

	if (parse(&rc, argc, argv))
		return EXIT_BADINPUT;
	t0 = bq_now_ns();
	ret = bq_loadfile_parse(rc.loadfile, &lf, &perr);
	if (ret) {
		bq_loadfile_free(&lf);
		if (ret == -EINVAL || ret == -ENOENT || ret == -EACCES || ret == -EISDIR)
			return cli_usage_error(&rc.cli, "%s: %s", perr.where, perr.msg);
		cli_error(&rc.cli, "%s: %s", rc.loadfile, perr.msg[0] ? perr.msg : strerror(-ret));
		return EXIT_REFUSED;
	}
	ri = (struct replay_info){
		.loadfile = rc.loadfile, .dir = rc.o.dir, .clients = rc.o.clients,
		.procs = rc.nprocs, .o = &rc.o, .parse_ns = bq_now_ns() - t0,
		.per_client = rc.per_client,
	};
	ea.lf = &lf;
	status = cli_open_ctx(&rc.cli, &ctx);
	if (status)
		goto out_free_loadfile;

	if (rc.cli.output == OUTPUT_TABLE) {
		printf("blkqual replay %s - dbench loadfile replay\n\n", BLKQUAL_VERSION);
		if (rc.o.run_once)
			printf("Running once through load '%s' and minimum warmup %.0f secs\n",
			       rc.loadfile, rc.warmup_s);
		else
			printf("Running for %g seconds with load '%s' and minimum warmup %g secs\n",
			       rc.time_s, rc.loadfile, rc.warmup_s);
		printf("%zu lines parsed in %.2f sec: %u paths, %u handles%s\n", lf.nr_ops,
		       (double)ri.parse_ns / NS_PER_S, lf.nr_paths, lf.nr_handles,
		       lf.time_ns ? ", timestamps" : "");
		printf("%d of %d processes prepared for launch   0 sec\n", rc.nprocs, rc.nprocs);
		printf("releasing clients\n");
		fflush(stdout);
	}
	stop = stop_on_signals(NULL);
	rc.o.stop = stop;
	rc.o.on_progress = on_progress;
	rc.o.progress_arg = &ps;
	t0 = bq_now_ns() + rc.o.warmup_ns;
	ret = bq_replay_run(ctx, &lf, &rc.o, &res);
	if (ret) {
		cli_error(&rc.cli, "cannot run in %s: %s", rc.o.dir, strerror(-ret));
		status = EXIT_REFUSED;
		goto out_free_ctx;
	}
	ri.signal = *stop;
	/* One line: the first client's failure; the JSON lists them all. */
	for (int i = 0; res.ops.failed && i < res.ops.nr_threads; i++) {
		if (res.ops.threads[i].ret) {
			cli_error(&rc.cli, "%s", res.ops.threads[i].msg);
			status = EXIT_REFUSED;
			break;
		}
	}
	if (ops_stall_lines(&rc.cli, &res.ops))
		status = EXIT_REFUSED;
	ri.progress = ps.p;
	ri.nr_progress = ps.nr;
	cleanup(&rc, t0);

	if (rc.cli.output == OUTPUT_JSON)
		emit_json(stdout, &ea);
	else
		replay_print_report(stdout, &ri, &lf, &res);
	fflush(stdout);
	if (rc.output_file) {
		ret = write_atomically(rc.output_file, emit_json, &ea);
		if (ret) {
			cli_error(&rc.cli, "--output %s: %s", rc.output_file, strerror(-ret));
			status = EXIT_REFUSED;
		}
	}
	if (!status && rc.strict && res.mismatches)
		status = EXIT_REFUSED;
	if (ri.signal)
		status = 128 + ri.signal;
	bq_replay_result_free(&res);
out_free_ctx:
	bq_ctx_free(ctx);
out_free_loadfile:
	free(ps.p);
	bq_loadfile_free(&lf);
	return status;
}
