// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_verify.c - blkqual verify: after a reboot, a crash or a power cut,
 * read back every block a --verify-state file says was written
 *
 * Exit status 0: every block as recorded; 1: bad blocks (or unreadable
 * ones); 2: bad input (no state, a damaged one, the wrong target).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report_util.h"
#include "verify_report.h"

struct verify_cli {
	struct cli cli;
	const char *state;
	const char *target;
	const char *output_file;
	bool status;
};

struct verify_out {
	const struct bq_vstate_info *info;
	const struct bq_verify_report *rep;
	uint64_t started_unix_ns;
	uint64_t runtime_ns;
	bool interrupted;
	enum cli_output format;
};

/* Find out before reading a whole device that the result cannot be saved. */
static bool writable_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash)
		return !access(".", W_OK);
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return !access(dir, W_OK);
}

static int parse(struct verify_cli *vc, int argc, char **argv)
{
	enum { OPT_STATE = OPT_FIRST_PRIVATE, OPT_OUTPUT, OPT_FORMAT, OPT_NO_STATUS };
	static const struct option longopts[] = {
		{ "verify-state", required_argument, NULL, OPT_STATE },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "output-format", required_argument, NULL, OPT_FORMAT },
		{ "no-status", no_argument, NULL, OPT_NO_STATUS },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	int c;

	vc->status = isatty(STDERR_FILENO);
	while ((c = cli_getopt(&vc->cli, argc, argv, "ho:", longopts)) != -1) {
		switch (c) {
		case OPT_STATE:
			vc->state = optarg;
			break;
		case OPT_OUTPUT:
			vc->output_file = optarg;
			break;
		case 'o':
		case OPT_FORMAT:
			if (cli_parse_output(&vc->cli, optarg))
				return EXIT_BADINPUT;
			break;
		case OPT_NO_STATUS:
			vc->status = false;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (!vc->state)
		return cli_usage_error(&vc->cli, "--verify-state FILE is required (usage: %s)",
				       vc->cli.usage);
	if (optind + 1 < argc)
		return cli_usage_error(&vc->cli, "at most one target (usage: %s)", vc->cli.usage);
	if (optind < argc)
		vc->target = argv[optind];
	if (vc->output_file && !writable_dir_of(vc->output_file))
		return cli_usage_error(&vc->cli, "--output=%s: cannot write there: %s",
				       vc->output_file, strerror(errno));
	return 0;
}

static void fmt_when(char *buf, size_t len, uint64_t unix_ns)
{
	time_t t = (time_t)(unix_ns / 1000000000ULL);
	struct tm tm;

	if (!unix_ns || !gmtime_r(&t, &tm))
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void progress(void *arg, uint64_t done, uint64_t total)
{
	struct verify_cli *vc = arg;

	if (vc->status && total)
		fprintf(stderr, "\r[%.0f%% of %" PRIu64 " blocks]   ", 100.0 * (double)done /
			(double)total, total);
}

static void print_human(FILE *out, const struct verify_out *o)
{
	const struct bq_vstate_info *i = o->info;
	char size[32], when[40], rate[32];

	fmt_size(size, sizeof(size), i->target_size);
	fmt_when(when, sizeof(when), i->updated_unix_ns ? i->updated_unix_ns :
		 i->created_unix_ns);
	fprintf(out, "state: %s: %" PRIu64 " of %" PRIu64 " blocks written, by %" PRIu64
		" run%s, last %s\n", i->path, i->blocks_written, i->nblocks, i->runs,
		i->runs == 1 ? "" : "s", when);
	if (!i->clean || i->in_flight)
		fprintf(out, "  %s; %" PRIu64 " blocks had a write in flight, either generation "
			"is accepted for them\n", i->clean ? "closed cleanly" :
			"the last writer did not close it (a crash or power cut)", i->in_flight);
	fprintf(out, "target: %s (%s%s%s%s%s)\n", i->target, i->devname[0] ? i->devname : "file",
		", ", size, i->identity[0] ? ", " : "", i->identity);
	verify_print(out, o->rep, "");
	fmt_size(rate, sizeof(rate), (uint64_t)per_second(o->rep->bytes_checked, o->runtime_ns));
	fprintf(out, "  read in %.3fs (%s/s)\n", (double)o->runtime_ns / 1e9, rate);
	if (o->interrupted)
		fprintf(out, "\ninterrupted: the figures cover the blocks checked until the stop\n");
}

static json_object *info_json(const struct bq_vstate_info *i)
{
	json_object *o = json_object_new_object();
	char seed[24], when[40];

	json_object_object_add(o, "path", json_object_new_string(i->path));
	json_object_object_add(o, "target", json_object_new_string(i->target));
	json_object_object_add(o, "devname", json_object_new_string(i->devname));
	json_object_object_add(o, "identity", json_object_new_string(i->identity));
	json_object_object_add(o, "model", json_object_new_string(i->model));
	json_object_object_add(o, "target_size", json_u64(i->target_size));
	json_object_object_add(o, "logical_block_size", json_u64(i->lbs));
	json_object_object_add(o, "method", json_object_new_string(
		bq_verify_method_name(i->method)));
	json_object_object_add(o, "block_size", json_u64(i->block_size));
	snprintf(seed, sizeof(seed), "0x%016" PRIx64, i->seed);
	json_object_object_add(o, "seed", json_object_new_string(seed));
	json_object_object_add(o, "region_offset", json_u64(i->region_offset));
	json_object_object_add(o, "blocks", json_u64(i->nblocks));
	json_object_object_add(o, "blocks_written", json_u64(i->blocks_written));
	json_object_object_add(o, "in_flight", json_u64(i->in_flight));
	json_object_object_add(o, "clean", json_object_new_boolean(i->clean));
	json_object_object_add(o, "runs", json_u64(i->runs));
	fmt_when(when, sizeof(when), i->created_unix_ns);
	json_object_object_add(o, "created", json_object_new_string(when));
	fmt_when(when, sizeof(when), i->updated_unix_ns);
	json_object_object_add(o, "updated", json_object_new_string(when));
	return o;
}

static int emit(FILE *f, void *arg)
{
	const struct verify_out *o = arg;
	json_object *doc, *tool;
	char when[40];
	int ret;

	if (o->format != OUTPUT_JSON) {
		print_human(f, o);
		return ferror(f) ? -EIO : 0;
	}
	doc = json_object_new_object();
	tool = json_object_new_object();
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string("verify"));
	json_object_object_add(tool, "name", json_object_new_string("blkqual"));
	json_object_object_add(tool, "version", json_object_new_string(BLKQUAL_VERSION));
	json_object_object_add(doc, "tool", tool);
	fmt_when(when, sizeof(when), o->started_unix_ns);
	json_object_object_add(doc, "started", json_object_new_string(when));
	json_object_object_add(doc, "runtime_s", json_dbl((double)o->runtime_ns / 1e9));
	json_object_object_add(doc, "interrupted", json_object_new_boolean(o->interrupted));
	json_object_object_add(doc, "state", info_json(o->info));
	json_object_object_add(doc, "target", json_object_new_string(o->info->target));
	json_object_object_add(doc, "verify", verify_json(o->rep));
	ret = json_print(f, doc);
	json_object_put(doc);
	return ret;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_cli vc = {
		.cli = {
			.cmd = "verify",
			.usage = "blkqual verify --verify-state FILE [-o table|json] [--output FILE] "
				 "[--no-status] [TARGET]",
		},
	};
	struct bq_verify_opts vo = { .progress = progress, .arg = &vc };
	struct bq_verify_report rep;
	struct bq_vstate_info info;
	struct bq_parse_error err;
	struct verify_out out = { .info = &info, .rep = &rep };
	struct bq_ctx *ctx;
	uint64_t t0;
	int ret;

	ret = parse(&vc, argc, argv);
	if (ret)
		return ret;
	ret = cli_open_ctx(&vc.cli, &ctx);
	if (ret)
		return ret;
	vo.state = vc.state;
	vo.target = vc.target;
	vo.stop = stop_on_signals(NULL);
	out.started_unix_ns = clock_ns(CLOCK_REALTIME);
	t0 = bq_now_ns();
	ret = bq_verify_state_check(ctx, &vo, &info, &rep, &err);
	out.runtime_ns = bq_now_ns() - t0;
	if (vc.status)
		fputs("\r\033[K", stderr);
	if (ret) {
		cli_error(&vc.cli, "%s: %s", err.where, err.msg);
		ret = ret == -ENOMEM ? EXIT_REFUSED : EXIT_BADINPUT;
		goto out_free_ctx;
	}
	out.interrupted = *vo.stop != 0;
	out.format = vc.cli.output;
	if (vc.output_file) {
		ret = write_atomically(vc.output_file, emit, &out);
		if (ret)
			cli_error(&vc.cli, "writing %s: %s", vc.output_file, strerror(-ret));
	} else {
		ret = emit(stdout, &out);
	}
	if (ret)
		ret = EXIT_REFUSED;
	else if (out.interrupted)
		ret = 128 + *vo.stop;
	else
		ret = rep.bad ? EXIT_REFUSED : 0;
out_free_ctx:
	bq_ctx_free(ctx);
	return ret;
}
