// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_fleet.c - blkqual fleet RESULTS_DIR: the results of many hosts'
 * devices side by side, grouped by model and firmware, the odd device out
 * and every failed qualification named
 *
 * RESULTS_DIR holds HOST/DEVICE.json, as tools/fleet/playbook.yml fetches
 * them, and HOST/DEVICE.failed for a device that gave no result.  Exit
 * status 1 when anything was found, so a fleet run can gate a rollout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fleet.h"
#include "report_util.h"

struct fleet_cmd {
	struct cli cli;
	struct fleet f;
	struct bq_strv only;	/* --metric: keep metrics whose name contains one of these */
	const char *html;
	struct fleet_reader in;
};

static int emit_html(FILE *out, void *arg)
{
	return fleet_html(out, arg);
}

static int parse_number(struct fleet_cmd *c, const char *opt, const char *arg, double lo,
			double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || v < lo || v > hi)
		return cli_usage_error(&c->cli, "--%s=%s: expected a number from %g to %g", opt,
				       arg, lo, hi);
	*out = v;
	return 0;
}

static int parse(struct fleet_cmd *c, int argc, char **argv)
{
	enum { OPT_THRESHOLD = OPT_FIRST_PRIVATE, OPT_MIN_DIFF, OPT_HTML, OPT_METRIC, OPT_ALPHA };
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "min-diff", required_argument, NULL, OPT_MIN_DIFF },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "output-format", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	double pct;
	int opt;

	c->f.threshold = 3.5;
	c->f.alpha = 0.05;
	c->f.min_diff = 0.10;
	while ((opt = cli_getopt(&c->cli, argc, argv, "o:h", longopts)) != -1) {
		switch (opt) {
		case OPT_THRESHOLD:
			if (parse_number(c, "threshold", optarg, 0, 1e6, &c->f.threshold))
				return EXIT_BADINPUT;
			break;
		case OPT_ALPHA:
			if (parse_number(c, "alpha", optarg, 1e-12, 0.5, &c->f.alpha))
				return EXIT_BADINPUT;
			break;
		case OPT_MIN_DIFF:
			if (parse_number(c, "min-diff", optarg, 0, 1e6, &pct))
				return EXIT_BADINPUT;
			c->f.min_diff = pct / 100;
			break;
		case OPT_HTML:
			if (!*optarg)
				return cli_usage_error(&c->cli, "--html: empty file name");
			c->html = optarg;
			break;
		case OPT_METRIC:
			if (!*optarg)
				return cli_usage_error(&c->cli, "--metric: empty text");
			if (bq_strv_add(&c->only, optarg))
				return cli_usage_error(&c->cli, "out of memory");
			break;
		case 'o':
			if (cli_parse_output(&c->cli, optarg))
				return EXIT_BADINPUT;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind >= argc)
		return cli_usage_error(&c->cli, "needs a results directory (usage: %s)",
				       c->cli.usage);
	if (c->html && cli_check_output(&c->cli, "--html", c->html))
		return EXIT_BADINPUT;
	return 0;
}

static int run(struct fleet_cmd *c, int argc, char **argv)
{
	char source[4096] = "";
	int ret;

	c->in.cli = &c->cli;
	c->in.only = &c->only;
	c->in.progress = isatty(STDERR_FILENO);
	for (int i = optind; i < argc; i++) {
		snprintf(source + strlen(source), sizeof(source) - strlen(source), "%s%s",
			 i > optind ? " " : "", argv[i]);
		ret = fleet_reader_add(&c->in, argv[i]);
		if (ret)
			return ret;
	}
	ret = fleet_read(&c->in, &c->f);
	if (ret)
		return ret;
	/* Nothing readable: the first file's own reason is the one line. */
	if (!c->in.nr_read && (c->in.not_json.n || c->in.not_result.n))
		return cli_usage_error(&c->cli, "%s", c->in.not_json.n ? c->in.not_json.first :
					     c->in.not_result.first);
	if (!c->in.nr_read)
		return cli_usage_error(&c->cli, "%s: no results (expected HOST/DEVICE.json files)",
				       source);
	c->f.source = source;
	ret = fleet_analyse(&c->f);
	if (ret) {
		cli_error(&c->cli, "%s", strerror(-ret));
		return EXIT_REFUSED;
	}
	if (c->cli.output == OUTPUT_JSON)
		ret = fleet_json(stdout, &c->f, &c->in);
	else
		fleet_text(stdout, &c->f, &c->in);
	errno = 0;
	if (!ret && (fflush(stdout) || ferror(stdout)))
		ret = errno ? -errno : -EIO;
	if (ret) {
		cli_error(&c->cli, "(stdout): %s", strerror(-ret));
		return EXIT_REFUSED;
	}
	if (c->html)
		ret = strcmp(c->html, "-") ? write_atomically(c->html, emit_html, &c->f) :
		      fleet_html(stdout, &c->f);
	if (ret) {
		cli_error(&c->cli, "%s: %s", c->html, strerror(-ret));
		return EXIT_REFUSED;
	}
	c->f.source = NULL;
	return c->f.nr_outlier_devs || c->f.nr_failed_devs || c->f.nr_other_job_devs ||
	       c->in.not_json.n || c->in.not_result.n ? 1 : 0;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_cmd c = {
		.cli = {
			.cmd = "fleet",
			.usage = "blkqual fleet [-o table|json] [--html FILE] [--threshold Z] [--alpha P] "
				 "[--min-diff PCT] [--metric TEXT]... RESULTS_DIR|RESULT.json...",
		},
	};
	int ret = parse(&c, argc, argv);

	if (!ret)
		ret = run(&c, argc, argv);
	fleet_free(&c.f);
	bq_strv_free(&c.only);
	fleet_reader_free(&c.in);
	return ret;
}
