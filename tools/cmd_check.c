// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - blkqual check: the conformance suite against one device,
 * as TAP 13 with kselftest's exit codes
 *
 * The output is what a kselftest or blktests run expects of a test
 * program: "TAP version 13", the plan, one "ok"/"not ok" line per check
 * (a skip carries "# SKIP" and its reason, a failure its reason),
 * diagnostics as "# " lines, and kselftest's totals line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blkqual_check.h"
#include "cli.h"
#include "report_util.h"

/* kselftest's exit codes (tools/testing/selftests/kselftest.h). */
#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4

#define MAX_NAMES 64

struct check_cli {
	struct cli cli;
	bool list;
	const char *only[MAX_NAMES];
	const char *skip[MAX_NAMES];
	size_t nr_only, nr_skip;
	const char *force[64];
	size_t nr_force;
};

/* Split a comma-separated option value into names (in place). */
static int add_names(struct check_cli *cc, const char *opt, char *arg, const char **names,
		     size_t *nr)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		if (*nr == MAX_NAMES)
			return cli_usage_error(&cc->cli, "%s: too many names", opt);
		names[(*nr)++] = tok;
	}
	if (!*nr)
		return cli_usage_error(&cc->cli, "%s needs a check name (see 'blkqual check --list')",
				       opt);
	return 0;
}

static int unknown_check(struct check_cli *cc, const char *opt, const char *name)
{
	const char *names[MAX_NAMES];
	const struct bq_check *checks;
	const char *hint;
	size_t nr;

	checks = bq_checks(&nr);
	for (size_t i = 0; i < nr && i < MAX_NAMES; i++)
		names[i] = checks[i].name;
	hint = bq_suggest(name, names, nr);
	if (hint)
		return cli_usage_error(&cc->cli, "%s: unknown check '%s' (did you mean '%s'?)", opt,
				       name, hint);
	return cli_usage_error(&cc->cli, "%s: unknown check '%s' (see 'blkqual check --list')",
			       opt, name);
}

/* Which checks run: all, or those --only names, less those --skip names. */
static int select_checks(struct check_cli *cc, bool *run, size_t *nr_run)
{
	const struct bq_check *checks;
	size_t nr;

	checks = bq_checks(&nr);
	for (size_t i = 0; i < nr; i++)
		run[i] = !cc->nr_only;
	for (size_t j = 0; j < cc->nr_only; j++) {
		const struct bq_check *c = bq_check_find(cc->only[j]);

		if (!c)
			return unknown_check(cc, "--only", cc->only[j]);
		run[c - checks] = true;
	}
	for (size_t j = 0; j < cc->nr_skip; j++) {
		const struct bq_check *c = bq_check_find(cc->skip[j]);

		if (!c)
			return unknown_check(cc, "--skip", cc->skip[j]);
		run[c - checks] = false;
	}
	*nr_run = 0;
	for (size_t i = 0; i < nr; i++)
		*nr_run += run[i];
	if (!*nr_run)
		return cli_usage_error(&cc->cli, "--skip leaves no check to run");
	return 0;
}

static int parse_args(struct check_cli *cc, int argc, char **argv)
{
	enum { OPT_LIST = OPT_FIRST_PRIVATE, OPT_ONLY, OPT_SKIP, OPT_FORCE };
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, OPT_LIST },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "force-destroy", required_argument, NULL, OPT_FORCE },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	int c, ret;

	while ((c = cli_getopt(&cc->cli, argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case OPT_LIST:
			cc->list = true;
			break;
		case OPT_ONLY:
			ret = add_names(cc, "--only", optarg, cc->only, &cc->nr_only);
			if (ret)
				return ret;
			break;
		case OPT_SKIP:
			ret = add_names(cc, "--skip", optarg, cc->skip, &cc->nr_skip);
			if (ret)
				return ret;
			break;
		case OPT_FORCE:
			if (cc->nr_force == ARRAY_LEN(cc->force))
				return cli_usage_error(&cc->cli, "too many --force-destroy options");
			cc->force[cc->nr_force++] = optarg;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	return 0;
}

/* The testing aid: BLKQUAL_CHECK_FAULT names a check whose data gets corrupted. */
static int fault_from_env(struct check_cli *cc, const char **fault)
{
	const char *name = getenv("BLKQUAL_CHECK_FAULT");
	const struct bq_check *c;

	*fault = NULL;
	if (!name || !*name)
		return 0;
	c = bq_check_find(name);
	if (!c)
		return unknown_check(cc, "BLKQUAL_CHECK_FAULT", name);
	if (!c->compares_data)
		return cli_usage_error(&cc->cli, "BLKQUAL_CHECK_FAULT=%s: that check reads back no "
				       "data to corrupt", name);
	*fault = name;
	return 0;
}

static void list_checks(const bool *run)
{
	const struct bq_check *checks;
	size_t nr;

	checks = bq_checks(&nr);
	for (size_t i = 0; i < nr; i++)
		if (run[i])
			printf("%-20s %s\n", checks[i].name, checks[i].description);
}

static void describe_device(const char *path, const struct bq_device *d)
{
	char size[32], dmax[32], wz[32];

	fmt_size(size, sizeof(size), d->size);
	fmt_size(dmax, sizeof(dmax), d->q.discard_max_bytes);
	fmt_size(wz, sizeof(wz), d->q.write_zeroes_max_bytes);
	printf("# %s: %s %s, %s, logical block %u, max_sectors_kb %u, io_poll %d, %s, "
	       "discard %s, write zeroes %s\n", path, bq_dev_kind_name(d->kind), d->name, size,
	       d->q.logical_block_size, d->q.max_sectors_kb, d->q.io_poll,
	       d->q.write_cache[0] ? d->q.write_cache : "write cache unknown",
	       d->q.discard_max_bytes ? dmax : "none",
	       d->q.write_zeroes_max_bytes ? wz : "none");
}

static int run_checks(struct bq_check_dev *cd, const char *path,
		      const bool *run, size_t nr_run, const char *fault)
{
	volatile int *stop = stop_on_signals(NULL);
	int pass = 0, fail = 0, skip = 0, n = 0;
	const struct bq_check *checks;
	size_t nr;

	checks = bq_checks(&nr);
	printf("TAP version 13\n1..%zu\n", nr_run);
	describe_device(path, bq_check_device(cd));
	if (fault && run[bq_check_find(fault) - checks])
		printf("# BLKQUAL_CHECK_FAULT=%s: that check's data will be corrupted once on "
		       "purpose\n", fault);
	else if (fault)
		printf("# BLKQUAL_CHECK_FAULT=%s names a check not selected: nothing will be "
		       "corrupted\n", fault);
	fflush(stdout);
	for (size_t i = 0; i < nr; i++) {
		struct bq_check_result res;

		if (!run[i])
			continue;
		if (*stop)
			break;
		n++;
		switch (bq_check_run(cd, &checks[i], &res)) {
		case BQ_CHECK_PASS:
			printf("# %s: %s (%.2f s)\n", checks[i].name, res.reason,
			       res.elapsed_ns / 1e9);
			printf("ok %d %s\n", n, checks[i].name);
			pass++;
			break;
		case BQ_CHECK_FAIL:
			printf("not ok %d %s # %s\n", n, checks[i].name, res.reason);
			fail++;
			break;
		case BQ_CHECK_SKIP:
			printf("ok %d %s # SKIP %s\n", n, checks[i].name, res.reason);
			skip++;
			break;
		}
		if (fault && !strcmp(fault, checks[i].name) && !res.fault_injected)
			printf("# BLKQUAL_CHECK_FAULT=%s: the check reached no point where the fault "
			       "applies\n", fault);
		fflush(stdout);
	}
	if (*stop)
		printf("Bail out! interrupted by signal %d after %d of %zu checks\n", *stop, n,
		       nr_run);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", pass, fail, skip);
	fflush(stdout);
	if (*stop)
		return 128 + *stop;
	if (fail)
		return KSFT_FAIL;
	return pass ? KSFT_PASS : KSFT_SKIP;
}

int cmd_check(int argc, char **argv)
{
	struct check_cli cc = {
		.cli = {
			.cmd = "check",
			.usage = "blkqual check [--list] [--only CHECK[,CHECK...]] "
				 "[--skip CHECK[,CHECK...]] [--force-destroy DEV] DEV",
		},
	};
	struct bq_guard_opts gopts = { .force_destroy = cc.force };
	struct bq_check_opts copts = { .guard = &gopts };
	bool run[MAX_NAMES] = { false };
	struct bq_guard_report rep;
	struct bq_check_dev *cd;
	struct bq_ctx *ctx;
	char name[64], why[2048];
	const char *dev;
	size_t nr_run;
	int ret;

	ret = parse_args(&cc, argc, argv);
	ret = ret ?: select_checks(&cc, run, &nr_run);
	ret = ret ?: fault_from_env(&cc, &copts.fault);
	if (ret)
		return ret;
	if (cc.list && optind < argc)
		return cli_usage_error(&cc.cli, "--list takes no device ('%s' is extra)",
				       argv[optind]);
	if (cc.list) {
		list_checks(run);
		return 0;
	}
	if (optind >= argc)
		return cli_usage_error(&cc.cli, "missing device (usage: %s)", cc.cli.usage);
	if (argc - optind > 1)
		return cli_usage_error(&cc.cli, "one device at a time: '%s' is extra",
				       argv[optind + 1]);
	dev = argv[optind];
	gopts.nr_force = cc.nr_force;
	ret = cli_open_ctx(&cc.cli, &ctx);
	if (ret)
		return ret;
	ret = cli_resolve_device(&cc.cli, ctx, dev, name, sizeof(name));
	ret = ret ?: cli_check_force(&cc.cli, &gopts, &dev, 1);
	if (ret)
		goto out_free_ctx;
	ret = bq_check_open(ctx, dev, &copts, &rep, &cd);
	if (ret) {
		ret = guard_error(&cc.cli, dev, ret, &rep);
		goto out_free_ctx;
	}
	if (rep.forced) {
		bq_guard_explain(dev, &rep, why, sizeof(why));
		fprintf(stderr, "blkqual: check: %s: forced: will overwrite %s\n", dev, why);
	}
	ret = run_checks(cd, dev, run, nr_run, copts.fault);
	bq_check_close(cd);
out_free_ctx:
	bq_ctx_free(ctx);
	return ret;
}
