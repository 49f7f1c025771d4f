// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_latency.c - blkqual latency: ioping, under blkqual's rules
 *
 * ioping's command line works unchanged after "blkqual latency" replaces
 * "ioping": the same letters, the same single-dash long names (-count,
 * -interval; getopt_long_only, as ioping parses them), the same number
 * suffixes and defaults.  What differs is blkqual's: bad input is one
 * line and exit status 2, writes to a file or device pass the guard,
 * Ctrl-C prints the summary and exits 128 + signal, and the summary ends
 * with percentiles (in JSON, the whole histogram).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "latency_report.h"
#include "report_util.h"

#define DEFAULT_TIME_FMT "%b %d %T"

struct latency_cli {
	struct cli cli;
	struct bq_latency_opts o;
	const char *force[16];
	size_t nr_force;
	const char *output_file;
	const char *time_fmt;
	bool custom_interval;
	bool custom_deadline;
	bool quiet;
	bool batch;
	bool json;
	char **argv;
};

enum {
	OPT_FORCE = OPT_FIRST_PRIVATE,
	OPT_OUTPUT,
	OPT_OUTPUT_FORMAT,
};

/* ioping's letters; the leading ':' reports a missing value apart. */
static const char shortopts[] = ":hvkALRDNHCWGEUYBqyi:t:T:w:s:S:c:o:p:P:l:r:a:I::Je:b:";

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ "keep", no_argument, NULL, 'k' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "batch", no_argument, NULL, 'B' },
	{ "time", optional_argument, NULL, 'I' },
	{ "json", no_argument, NULL, 'J' },
	{ "rapid", no_argument, NULL, 'R' },
	{ "linear", no_argument, NULL, 'L' },
	{ "direct", no_argument, NULL, 'D' },
	{ "cached", no_argument, NULL, 'C' },
	{ "nowait", no_argument, NULL, 'N' },
	{ "hipri", no_argument, NULL, 'H' },
	{ "sync", no_argument, NULL, 'Y' },
	{ "dsync", no_argument, NULL, 'y' },
	{ "async", no_argument, NULL, 'A' },
	{ "uring", no_argument, NULL, 'U' },
	{ "write", no_argument, NULL, 'W' },
	{ "read-write", no_argument, NULL, 'G' },
	{ "ignore-error", no_argument, NULL, 'E' },
	{ "size", required_argument, NULL, 's' },
	{ "work-size", required_argument, NULL, 'S' },
	{ "work-offset", required_argument, NULL, 'o' },
	{ "count", required_argument, NULL, 'c' },
	{ "work-time", required_argument, NULL, 'w' },
	{ "interval", required_argument, NULL, 'i' },
	{ "burst", required_argument, NULL, 'b' },
	{ "speed-limit", required_argument, NULL, 'l' },
	{ "rate-limit", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, 'a' },
	{ "min-time", required_argument, NULL, 't' },
	{ "max-time", required_argument, NULL, 'T' },
	{ "print-count", required_argument, NULL, 'p' },
	{ "print-interval", required_argument, NULL, 'P' },
	{ "entropy", required_argument, NULL, 'e' },
	{ "force-destroy", required_argument, NULL, OPT_FORCE },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
	{ 0 }
};

static void usage(void)
{
	printf("usage: blkqual latency [options...] directory|file|device\n"
	       "       blkqual latency -h | -v\n"
	       "\n"
	       "One request at a time, as ioping makes them; ioping's options, spelled\n"
	       "-x, -long or --long.\n"
	       "\n"
	       "modes:\n"
	       "  -A, -async               Linux AIO (io_submit) at depth 1\n"
	       "  -U, -uring               io_uring at depth 1\n"
	       "  -C, -cached              keep the page cache (no drop before a request,\n"
	       "                           no fdatasync after a write)\n"
	       "  -D, -direct              O_DIRECT\n"
	       "  -G, -read-write          alternate writes and reads\n"
	       "  -L, -linear              sequential offsets (request size 256k)\n"
	       "  -N, -nowait              RWF_NOWAIT: EAGAIN is noted, not fatal\n"
	       "  -H, -hipri               RWF_HIPRI\n"
	       "  -W, -write               write; a file or device needs -WWW and the guard\n"
	       "  -Y, -sync                O_SYNC\n"
	       "  -y, -dsync               O_DSYNC\n"
	       "  -E, -ignore-error        note a failed request and go on\n"
	       "  -R, -rapid               seek rate: -q -i 0 -w 3, working set 64m\n"
	       "  -k, -keep                keep and reuse DIR/ioping.tmp\n"
	       "\n"
	       "parameters:\n"
	       "  -a, -warmup COUNT        requests left out of the statistics first (1)\n"
	       "  -b, -burst COUNT         requests back to back between intervals (0)\n"
	       "  -c, -count COUNT         stop after COUNT requests (0: never)\n"
	       "  -e, -entropy SEED        random seed (0: from the clock)\n"
	       "  -i, -interval TIME       from one request to the next (1s)\n"
	       "  -s, -size SIZE           request size (4k)\n"
	       "  -S, -work-size SIZE      working set (1m for a directory, else all)\n"
	       "  -o, -work-offset SIZE    working set offset (0)\n"
	       "  -w, -work-time TIME      stop after TIME (0: never)\n"
	       "  -l, -speed-limit SIZE    bytes per second at most\n"
	       "  -r, -rate-limit COUNT    requests per second at most\n"
	       "  -t, -min-time TIME       quicker requests are left out (0)\n"
	       "  -T, -max-time TIME       slower requests are left out\n"
	       "\n"
	       "output:\n"
	       "  -B, -batch               only the raw statistics of the whole run\n"
	       "  -I, -time[=FORMAT]       time stamp on each line (strftime, \"%%b %%d %%T\")\n"
	       "  -J, -json                a JSON array: requests, then statistics with the\n"
	       "                           latency histogram (also --output-format=json)\n"
	       "  -p, -print-count COUNT   raw statistics every COUNT requests\n"
	       "  -P, -print-interval TIME raw statistics every TIME\n"
	       "  -q, -quiet               no line per request\n"
	       "  --output FILE            the closing statistics as JSON, written whole\n"
	       "  --force-destroy PATH     let -WWW overwrite a file or device that holds data\n"
	       "\n"
	       "TIME: 10ms, 250us, 2min, bare seconds; SIZE: 4k, 1m, 8sector, 2page;\n"
	       "COUNT: 10, 2k.  See blkqual(8) and Documentation/latency.rst.\n");
}

/* The option as typed: the element before a separate value, else the last one. */
static const char *typed_option(char **argv)
{
	if (optarg && optarg == argv[optind - 1] && optind >= 2)
		return argv[optind - 2];
	return argv[optind - 1];
}

/*
 * getopt_long_only() takes any unambiguous prefix ("-inter" for
 * -interval); blkqual takes only whole names, as its other commands do.
 */
static int check_whole_name(struct latency_cli *lc, char **argv, int idx)
{
	const char *typed = typed_option(argv);
	const char *name = typed + strspn(typed, "-");
	size_t len = strcspn(name, "=");

	if (strlen(longopts[idx].name) == len && !strncmp(longopts[idx].name, name, len))
		return 0;
	return cli_usage_error(&lc->cli, "'%.*s': spell the option out ('-%s')",
			       (int)(name - typed + len), typed, longopts[idx].name);
}

/* The long option closest to a misspelled @name ("intervl"), or NULL. */
static const char *long_hint(const char *name, size_t len)
{
	const char *names[ARRAY_LEN(longopts)];
	char word[64];
	size_t n = 0;

	if (!len || len >= sizeof(word))
		return NULL;
	for (const struct option *o = longopts; o->name; o++)
		names[n++] = o->name;
	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	return bq_suggest(word, names, n);
}

static int bad_value(struct latency_cli *lc, int c, const char *what)
{
	const char *typed = lc->argv[optind - 1], *hint;

	/* "-intervl" is -i with "ntervl", as in ioping: likely a misspelling. */
	if (optarg == typed + 2 && typed[0] == '-' &&
	    (hint = long_hint(typed + 1, strcspn(typed + 1, "="))))
		return cli_usage_error(&lc->cli, "unknown option '%s' (did you mean '-%s'?)",
				       typed, hint);
	return cli_usage_error(&lc->cli, "-%c %s: %s", c, optarg, what);
}

static int parse_value(struct latency_cli *lc, int c, uint64_t *out)
{
	int ret;

	switch (c) {
	case 's': case 'S': case 'o': case 'l':
		ret = bq_latency_parse_size(optarg, out);
		if (ret && c == 'o' && (!strcmp(optarg, "json") || !strcmp(optarg, "table")))
			return bad_value(lc, c, "-o is ioping's working set offset here; "
					 "JSON is -J (or --output-format=json)");
		if (ret)
			return bad_value(lc, c, ret == -ERANGE ? "too large" :
					 "not a size (4096, 4k, 1m, 8sector, 2page)");
		return 0;
	case 'i': case 'w': case 't': case 'T': case 'P':
		ret = bq_latency_parse_time(optarg, out);
		if (ret)
			return bad_value(lc, c, ret == -ERANGE ? "too long" :
					 "not a time (1, 0.5, 10ms, 250us, 2min)");
		return 0;
	default:
		ret = bq_latency_parse_count(optarg, out);
		if (ret)
			return bad_value(lc, c, ret == -ERANGE ? "more than 2147483647" :
					 "not a count (10, 2k, 1M)");
		return 0;
	}
}

/* What ioping's letters set; the defaults that depend on others come after. */
static int apply_option(struct latency_cli *lc, int c)
{
	struct bq_latency_opts *o = &lc->o;
	uint64_t v = 0;
	char *end;

	if (strchr("sSoliwtTPcpab", c) && parse_value(lc, c, &v))
		return EXIT_BADINPUT;
	switch (c) {
	case 'k': o->keep = true; break;
	case 'q': lc->quiet = true; break;
	case 'B': lc->quiet = lc->batch = true; break;
	case 'I': lc->time_fmt = optarg ? optarg : DEFAULT_TIME_FMT; break;
	case 'J': lc->json = true; break;
	case 'R':
		if (!lc->custom_interval)
			o->interval_ns = 0;
		if (!lc->custom_deadline)
			o->deadline_ns = 3000000000ULL;
		o->dir_work_size = 64ULL << 20;
		lc->quiet = true;
		break;
	case 'L': o->linear = true; break;
	case 'D': o->direct = true; break;
	case 'C': o->cached = true; break;
	case 'N': o->nowait = true; break;
	case 'H': o->hipri = true; break;
	case 'Y': o->sync = true; break;
	case 'y': o->dsync = true; break;
	case 'A':
	case 'U':
		/* Both would leave one silently unused: make the user choose. */
		if (o->engine != (c == 'A' ? BQ_LATENCY_LIBAIO : BQ_LATENCY_URING) &&
		    o->engine != BQ_LATENCY_PSYNC)
			return cli_usage_error(&lc->cli, "-A (-async) and -U (-uring) do not go "
					       "together: one engine at a time");
		o->engine = c == 'A' ? BQ_LATENCY_LIBAIO : BQ_LATENCY_URING;
		break;
	case 'W': o->writes++; break;
	case 'G': o->writes++; o->read_write = true; break;
	case 'E': o->ignore_errors = true; break;
	case 's':
		if (!v)
			return bad_value(lc, c, "the request size must be above zero");
		o->size = v;
		break;
	case 'S':
		if (!v)
			return bad_value(lc, c, "the working set must be above zero");
		o->work_size = v;
		break;
	case 'o': o->offset = v; break;
	case 'c': o->count = v; break;
	case 'w': o->deadline_ns = v; lc->custom_deadline = true; break;
	case 'i': o->interval_ns = v; lc->custom_interval = true; break;
	case 'b': o->burst = v; break;
	case 'l':
		if (!lc->custom_interval)
			o->interval_ns = 0;
		o->speed_limit = v;
		break;
	case 'r':
		if (!lc->custom_interval)
			o->interval_ns = 0;
		o->rate_limit = (double)v;
		break;
	case 'a': o->warmup = v; break;
	case 't': o->min_valid_ns = v; break;
	case 'T':
		if (!v)
			return bad_value(lc, c, "would leave every request out");
		o->max_valid_ns = v;
		break;
	case 'p': o->period_requests = v; break;
	case 'P': o->period_ns = v; break;
	case 'e':
		errno = 0;
		o->seed = strtoull(optarg, &end, 0);
		if (errno || end == optarg || *end || *optarg == '-')
			return bad_value(lc, c, "not a number");
		break;
	case OPT_FORCE:
		if (lc->nr_force == ARRAY_LEN(lc->force))
			return cli_usage_error(&lc->cli, "too many --force-destroy options");
		lc->force[lc->nr_force++] = optarg;
		break;
	case OPT_OUTPUT: lc->output_file = optarg; break;
	case OPT_OUTPUT_FORMAT:
		if (!strcmp(optarg, "json"))
			lc->json = true;
		else if (!strcmp(optarg, "normal") || !strcmp(optarg, "table"))
			lc->json = false;
		else
			return cli_usage_error(&lc->cli, "--output-format=%s: use normal or json",
					       optarg);
		break;
	}
	return 0;
}

/* getopt_long_only() says only '?': tell unknown from ambiguous. */
static int unknown_option(struct latency_cli *lc, const char *arg)
{
	const char *name = arg + strspn(arg, "-"), *first = NULL, *second = NULL;
	size_t len = strcspn(name, "="), n = 0;

	for (const struct option *o = longopts; o->name; o++) {
		if (!len || strncmp(o->name, name, len))
			continue;
		if (n++ == 0)
			first = o->name;
		else if (n == 2)
			second = o->name;
	}
	if (n > 1)
		return cli_usage_error(&lc->cli, "ambiguous option '%s' (-%s, -%s%s)", arg,
				       first, second, n > 2 ? ", ..." : "");
	if (optopt && optopt < 0x100 && strlen(arg) > 2 && arg[1] != '-')
		return cli_usage_error(&lc->cli, "unknown option '-%c' in '%s'", optopt, arg);
	if (long_hint(name, len))
		return cli_usage_error(&lc->cli, "unknown option '%s' (did you mean '-%s'?)",
				       arg, long_hint(name, len));
	return cli_usage_error(&lc->cli, "unknown option '%s'", arg);
}

static int parse(struct latency_cli *lc, int argc, char **argv)
{
	int c, idx;

	lc->argv = argv;
	cli_complete_options(shortopts, longopts, NULL, false);
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long_only(argc, argv, shortopts, longopts, &idx);
		if (c == -1)
			break;
		if (c == '?')
			return unknown_option(lc, argv[optind - 1]);
		if (c == ':')
			return cli_usage_error(&lc->cli, "option '%s' needs a value",
					       argv[optind - 1]);
		if (idx >= 0 && check_whole_name(lc, argv, idx))
			return EXIT_BADINPUT;
		if (c == 'h') {
			usage();
			exit(0);
		}
		if (c == 'v') {
			printf("blkqual %s (latency: ioping 1.3 compatible)\n", BLKQUAL_VERSION);
			exit(0);
		}
		if (apply_option(lc, c))
			return EXIT_BADINPUT;
	}
	if (optind == argc)
		return cli_usage_error(&lc->cli, "no target given: a directory, file or device "
				       "(usage: %s)", lc->cli.usage);
	if (optind + 1 < argc)
		return cli_usage_error(&lc->cli, "more than one target: '%s' and '%s'",
				       argv[optind], argv[optind + 1]);
	lc->o.path = argv[optind];
	if (lc->nr_force && !lc->o.writes)
		return cli_usage_error(&lc->cli, "--force-destroy without -W: nothing is written");
	return 0;
}

struct run_state {
	struct latency_cli *lc;
	struct latency_out lo;
};

static void on_request(const struct bq_latency_req *req, void *arg)
{
	struct run_state *rs = arg;

	latency_print_request(&rs->lo, req);
}

static void on_period(const struct bq_latency_stats *part, void *arg)
{
	struct run_state *rs = arg;

	if (rs->lo.json) {
		json_object *o = latency_stats_json(rs->lo.t, part);

		latency_json_add(&rs->lo, o);
		json_object_put(o);
	} else {
		latency_print_raw(rs->lo.out, part);
	}
	fflush(rs->lo.out);
}

struct emit_args {
	const struct bq_latency_target *t;
	const struct bq_latency_stats *s;
};

static int emit_json(FILE *out, void *arg)
{
	struct emit_args *ea = arg;
	json_object *o = latency_stats_json(ea->t, ea->s), *doc = result_json_new("latency");
	int ret;

	if (!o || !doc) {
		json_object_put(o);
		json_object_put(doc);
		return -ENOMEM;
	}
	json_object_object_foreach(o, key, val)
		json_object_object_add(doc, key, json_object_get(val));
	ret = json_print(out, doc);
	json_object_put(o);
	json_object_put(doc);
	return ret;
}

/* The end of the run, in the form the options asked for. */
static void report(struct run_state *rs, const struct bq_latency_stats *total)
{
	struct latency_cli *lc = rs->lc;

	if (lc->json) {
		json_object *o = latency_stats_json(rs->lo.t, total);

		latency_json_add(&rs->lo, o);
		json_object_put(o);
		latency_json_end(&rs->lo);
	} else if (lc->batch) {
		latency_print_raw(stdout, total);
	} else if (!(lc->quiet && (lc->o.period_requests || lc->o.period_ns))) {
		latency_print_summary(stdout, rs->lo.t, total, lc->o.read_write,
				      lc->o.writes > 0);
	}
	fflush(stdout);
}

/* Bad input exits 2; the guard's refusal and failures to prepare exit 1. */
static int open_status(int ret)
{
	switch (ret) {
	case -EBUSY: case -EIO: case -ENOSPC: case -EDQUOT: case -ENOMEM: case -EROFS:
		return EXIT_REFUSED;
	default:
		return EXIT_BADINPUT;
	}
}

int cmd_latency(int argc, char **argv)
{
	struct latency_cli lc = {
		.cli = {
			.cmd = "latency",
			.usage = "blkqual latency [-ACDGLNHWYykqRJB] [-c count] [-w deadline] "
				 "[-i interval] [-s size] [-S wsize] [-o offset] [-p period] "
				 "[-P period] directory|file|device",
		},
		.o = {
			.interval_ns = 1000000000ULL,
			.warmup = 1,
		},
	};
	struct bq_guard_opts gopts = { .force_destroy = lc.force };
	struct run_state rs = { .lc = &lc };
	struct bq_latency_stats total;
	struct bq_parse_error perr;
	struct bq_latency *l = NULL;
	struct bq_ctx *ctx = NULL;
	struct emit_args ea;
	volatile int *stop;
	int ret, status;

	ret = parse(&lc, argc, argv);
	if (ret)
		return ret;
	gopts.nr_force = lc.nr_force;
	ret = cli_check_force(&lc.cli, &gopts, &lc.o.path, 1);
	if (ret)
		return ret;
	lc.o.guard = &gopts;
	lc.o.on_request = on_request;
	lc.o.on_period = on_period;
	lc.o.arg = &rs;
	/* Ctrl-C from here on ends the run with its summary, not the process. */
	lc.o.stop = stop = stop_on_signals(NULL);
	ret = cli_open_ctx(&lc.cli, &ctx);
	if (ret)
		return ret;
	ret = bq_latency_open(ctx, &lc.o, &l, &perr);
	if (ret) {
		cli_error(&lc.cli, "%s: %s", perr.where, perr.msg);
		status = open_status(ret);
		goto out_free_ctx;
	}
	ret = bq_latency_stats_init(&total, 0, 0);
	if (ret) {
		cli_error(&lc.cli, "out of memory");
		status = EXIT_REFUSED;
		goto out_close;
	}

	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	rs.lo = (struct latency_out){
		.out = stdout,
		.t = bq_latency_target(l),
		.time_fmt = lc.time_fmt,
		.json = lc.json,
		.quiet = lc.quiet,
		.flush = lc.o.interval_ns || lc.o.rate_limit > 0 || lc.o.speed_limit,
	};
	if (lc.json)
		latency_json_begin(&rs.lo);
	ret = bq_latency_run(l, &total, &perr);
	report(&rs, &total);
	status = *stop ? 128 + *stop : 0;
	if (ret) {
		cli_error(&lc.cli, "%s: %s", perr.where, perr.msg);
		status = EXIT_REFUSED;
	}
	if (lc.output_file) {
		ea = (struct emit_args){ .t = bq_latency_target(l), .s = &total };
		ret = write_atomically(lc.output_file, emit_json, &ea);
		if (ret) {
			cli_error(&lc.cli, "writing %s: %s", lc.output_file, strerror(-ret));
			status = EXIT_REFUSED;
		}
	}
	bq_latency_stats_free(&total);
out_close:
	bq_latency_close(l);
out_free_ctx:
	bq_ctx_free(ctx);
	return status;
}
