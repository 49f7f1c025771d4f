// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_trace.c - blkqual trace: where the time of whatever else runs on a
 * device goes (a database, a filesystem under load), from the block
 * layer's tracepoints, without issuing any I/O
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "cli.h"
#include "report_util.h"
#include "trace_report.h"

#define TRACE_DEFAULT_NS	(10ULL * 1000000000ULL)

/* Sleep until @end_ns or a signal sets *@stop. */
static void wait_window(uint64_t end_ns, volatile int *stop)
{
	while (!*stop && bq_now_ns() < end_ns) {
		uint64_t left = end_ns - bq_now_ns();
		struct timespec ts = { 0, 100000000L };

		if (left < 100000000ULL)
			ts.tv_nsec = (long)left;
		nanosleep(&ts, NULL);
	}
}

static int trace_devices(struct cli *cli, struct bq_ctx *ctx, int argc, char **argv,
			 struct bq_trace_devs *devs)
{
	for (int i = optind; i < argc; i++) {
		char name[64], path[96];
		struct stat st;
		int ret;

		ret = cli_resolve_device(cli, ctx, argv[i], name, sizeof(name));
		if (ret)
			return ret;
		snprintf(path, sizeof(path), "/dev/%s", name);
		if (stat(path, &st) || !S_ISBLK(st.st_mode))
			return cli_usage_error(cli, "%s: not a block device", argv[i]);
		ret = bq_trace_devs_add(ctx, devs, st.st_rdev);
		if (ret == -E2BIG)
			return cli_usage_error(cli, "more than %d devices, with their members",
					       BQ_TRACE_MAX_DEVS);
		if (ret)
			return cli_usage_error(cli, "%s: %s", argv[i], strerror(-ret));
	}
	return 0;
}

/*
 * Say on stderr when the window opens: loading and attaching take a
 * moment, and whoever starts the load to watch (a person, a script) needs
 * to know when it will be seen.
 */
static void say_tracing(const struct bq_trace_devs *devs, uint64_t window_ns)
{
	fprintf(stderr, "blkqual trace: tracing");
	for (int i = 0; i < devs->nr; i++)
		fprintf(stderr, " %s", devs->name[i]);
	fprintf(stderr, " for %.1f s; Ctrl-C ends it sooner\n", (double)window_ns / 1e9);
}

static int print_json(const struct bq_trace_result *r)
{
	json_object *doc = result_json_new("trace");
	int ret;

	if (!doc)
		return -ENOMEM;
	json_object_object_add(doc, "block_trace", block_trace_json(r, NULL));
	ret = json_print(stdout, doc);
	json_object_put(doc);
	return ret;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	struct cli cli = {
		.cmd = "trace",
		.usage = "blkqual trace [-t SECONDS] [-o table|json] DEVICE...",
	};
	struct bq_trace_devs devs = { .nr = 0 };
	uint64_t window_ns = TRACE_DEFAULT_NS;
	struct bq_trace_result *r = NULL;
	struct bq_trace_mark *mark = NULL;
	struct bq_trace *t = NULL;
	volatile int *stop;
	struct bq_ctx *ctx;
	char why[256];
	int c, ret;

	while ((c = cli_getopt(&cli, argc, argv, "ht:o:", longopts)) != -1) {
		switch (c) {
		case 't':
			if (bq_parse_time(optarg, 1000000000ULL, &window_ns) || !window_ns)
				return cli_usage_error(&cli, "-t %s: not a duration", optarg);
			break;
		case 'o':
			if (cli_parse_output(&cli, optarg))
				return EXIT_BADINPUT;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind >= argc)
		return cli_usage_error(&cli, "missing device (usage: %s)", cli.usage);
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;
	ret = trace_devices(&cli, ctx, argc, argv, &devs);
	if (ret)
		goto out_free_ctx;
	ret = bq_trace_start(&devs, &t, why, sizeof(why));
	if (ret) {
		/* What the kernel, the privileges or the build lack: never the input. */
		cli_error(&cli, "%s", why);
		ret = EXIT_REFUSED;
		goto out_free_ctx;
	}
	stop = stop_on_signals(NULL);
	ret = bq_trace_mark(t, &mark);
	if (!ret) {
		/* Ctrl-C ends the window early: what was seen is still reported. */
		say_tracing(&devs, window_ns);
		wait_window(bq_now_ns() + window_ns, stop);
		ret = bq_trace_since(t, mark, &r);
	}
	if (ret) {
		cli_error(&cli, "%s", strerror(-ret));
		ret = EXIT_REFUSED;
		goto out_stop;
	}
	bq_trace_facts(ctx, r);
	if (cli.output == OUTPUT_JSON) {
		ret = print_json(r);
	} else {
		printf("%.1f s on", (double)r->window_ns / 1e9);
		for (int i = 0; i < r->nr_devs; i++)
			printf(" %s", r->devs[i].name);
		printf("\n");
		print_block_trace(stdout, "where the time went (block layer):", r, NULL);
		ret = fflush(stdout) ? -errno : 0;
	}
	if (ret) {
		cli_error(&cli, "writing the report: %s", strerror(-ret));
		ret = EXIT_REFUSED;
	}
out_stop:
	bq_trace_result_free(r);
	bq_trace_mark_free(mark);
	bq_trace_stop(t);
out_free_ctx:
	bq_ctx_free(ctx);
	return ret;
}
