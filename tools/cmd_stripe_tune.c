// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stripe_tune.c - blkqual stripe-tune: the same workload at each chunk
 * size of a RAID0 over the members, and which chunk served it best
 *
 * The array is striped in userspace with md's exact layout (run --stripe),
 * so a sweep needs no md and no re-created array per chunk.  A member's
 * blocks are the same whatever the chunk, so a workload that reads gets
 * the members written once, before the sweep, instead of once per chunk.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report_util.h"
#include "inventory.h"
#include "run_report.h"
#include "raid_plan.h"
#include "table.h"

#define MAX_CHUNKS 16

struct tune_row {
	uint64_t chunk;
	double iops;
	double bytes_per_s;
	uint64_t p99_ns;
	double load_cv;
	uint64_t errors;
};

static volatile int *tune_stop;

static int parse_chunks(struct cli *cli, const char *arg, uint64_t *chunks, int *nr)
{
	char *copy = strdup(arg), *save = NULL, *tok;

	if (!copy)
		return cli_usage_error(cli, "out of memory");
	*nr = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*nr == MAX_CHUNKS || bq_parse_size(tok, &chunks[*nr]) || !chunks[*nr] ||
		    chunks[*nr] % 4096) {
			/* tok points into copy: say so before freeing it. */
			int ret = cli_usage_error(cli, "--chunks: '%s' is not a multiple of 4 KiB "
						  "(at most %d sizes)", tok, MAX_CHUNKS);

			free(copy);
			return ret;
		}
		(*nr)++;
	}
	free(copy);
	return *nr ? 0 : cli_usage_error(cli, "--chunks names no size");
}

/*
 * Everything stripe-tune does not know goes to the job parser, so a
 * misspelled option of its own ("--chnks") would be reported as a missing
 * --chunks or an unknown job option: catch it first.
 */
/* stripe-tune's own long options, beside fio's job options */
static const char *const own[] = { "chunks", "layout", "backend", "md", "force-destroy", "help",
				   NULL };

static const char *own_option_hint(const char *arg)
{
	const char *hint;
	char word[64];

	if (strncmp(arg, "--", 2))
		return NULL;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	hint = bq_suggest(word, own, ARRAY_LEN(own) - 1);
	return hint && strcmp(hint, word) ? hint : NULL;
}

/* The job options, with the members as filenames, for one chunk size. */
static int make_jobs(struct cli *cli, char *files, int argc, char **argv, uint64_t chunk,
		     int layout, bool stripe, struct bq_jobset *set)
{
	struct bq_parse_error err = { 0 };
	char **args = calloc((size_t)argc + 2, sizeof(char *));
	int ret;

	if (!args)
		return cli_usage_error(cli, "out of memory");
	args[0] = files;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	ret = bq_jobs_from_args(argc + 1, args, set, &err);
	free(args);
	if (ret)
		return cli_usage_error(cli, "%s: %s", err.where, err.msg);
	for (size_t k = 0; stripe && k < set->nr; k++) {
		set->jobs[k].stripe = true;
		set->jobs[k].stripe_chunk = chunk;
		set->jobs[k].stripe_layout = layout;
	}
	return 0;
}

/* The members, each opened once by the guard for the whole sweep. */
static struct bq_pinned_target pins[BQ_MAX_FILES];
static int nr_pins;

static int run_set(struct cli *cli, struct bq_ctx *ctx, const struct bq_jobset *set,
		   const struct bq_guard_opts *g, struct bq_results *res)
{
	struct bq_run_opts opts = { .guard = g, .stop = tune_stop, .pinned = pins,
				    .nr_pinned = nr_pins };
	struct bq_parse_error err;
	int ret = bq_run(ctx, set, &opts, res, &err);

	if (ret) {
		cli_error(cli, "%s: %s", err.where, err.msg);
		return ret == -EBUSY ? EXIT_REFUSED : EXIT_BADINPUT;
	}
	return 0;
}

static bool reads(const struct bq_jobset *set)
{
	for (size_t k = 0; k < set->nr; k++)
		if (set->jobs[k].rw != BQ_RW_WRITE && set->jobs[k].rw != BQ_RW_RANDWRITE)
			return true;
	return false;
}

/*
 * Write every block the job will read once, so reads do not measure empty
 * flash: the job's region (offset=, size=) of each target, or all of it.
 */
static int fill_members(struct cli *cli, struct bq_ctx *ctx, char *files,
			const struct bq_guard_opts *g, const struct bq_job *job)
{
	char offset[48], size[48];
	char *argv[] = { "--rw=write", "--bs=1m", "--iodepth=8", "--direct=1", offset, size,
			 "--name=fill" };
	struct bq_jobset set = { 0 };
	struct bq_results res;
	int ret;

	snprintf(offset, sizeof(offset), "--offset=%llu", (unsigned long long)job->offset);
	if (job->size)
		snprintf(size, sizeof(size), "--size=%llu", (unsigned long long)job->size);
	else
		snprintf(size, sizeof(size), "--thread");

	/* One member after another, unstriped: the same blocks, in one pass each. */
	ret = make_jobs(cli, files, (int)ARRAY_LEN(argv), argv, 1 << 20, 1, false, &set);
	if (ret)
		return ret;
	ret = run_set(cli, ctx, &set, g, &res);
	if (!ret)
		bq_results_free(&res);
	bq_jobset_free(&set);
	return ret;
}

static void summarise(const struct bq_results *res, uint64_t chunk, struct tune_row *row)
{
	memset(row, 0, sizeof(*row));
	row->chunk = chunk;
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];
		struct bq_thread_result sum;
		double sec = (double)jr->runtime_ns / 1e9, mean = 0, var = 0;
		int dir;

		if (job_total(jr, &sum) || sec <= 0)
			continue;
		dir = sum.d[BQ_READ].ios >= sum.d[BQ_WRITE].ios ? BQ_READ : BQ_WRITE;
		row->iops += (double)(sum.d[0].ios + sum.d[1].ios) / sec;
		row->bytes_per_s += (double)(sum.d[0].bytes + sum.d[1].bytes) / sec;
		if (sum.d[dir].lat.count) {
			uint64_t p99 = bq_hist_percentile(&sum.d[dir].lat, 99);

			if (p99 > row->p99_ns)
				row->p99_ns = p99;
		}
		row->errors += sum.d[0].errors + sum.d[1].errors;
		for (int m = 0; m < sum.nr_members; m++)
			mean += (double)sum.members[m].ios / sum.nr_members;
		for (int m = 0; m < sum.nr_members; m++)
			var += pow((double)sum.members[m].ios - mean, 2) / sum.nr_members;
		if (mean > 0 && sqrt(var) / mean > row->load_cv)
			row->load_cv = sqrt(var) / mean;
		job_total_free(&sum);
	}
}

/* I/Os each member's own counters saw, for the load spread under md. */
static void member_ios(struct bq_ctx *ctx, const struct raid_plan *p, uint64_t *ios)
{
	for (int i = 0; i < p->nr; i++) {
		struct bq_diskstats st;
		char name[64];

		ios[i] = 0;
		if (!bq_device_resolve(ctx, p->members[i], name, sizeof(name)) &&
		    !bq_diskstats_read(ctx, name, &st))
			ios[i] = st.ios[BQ_READ] + st.ios[BQ_WRITE];
	}
}

static double spread(const uint64_t *before, const uint64_t *after, int n)
{
	double mean = 0, var = 0;

	for (int i = 0; i < n; i++)
		mean += (double)(after[i] - before[i]) / n;
	for (int i = 0; i < n; i++)
		var += pow((double)(after[i] - before[i]) - mean, 2) / n;
	return mean > 0 ? sqrt(var) / mean : 0;
}

/*
 * --backend=md: the array is made by mdadm for each chunk, filled once when
 * the job reads, measured, and taken down again.
 */
static int md_chunk(struct cli *cli, struct bq_ctx *ctx, struct raid_plan *p, int nr_job,
		    char **job_args, const struct bq_job *job, bool fill, struct tune_row *row)
{
	char files[128], out[1024];
	uint64_t before[PLAN_MAX_MEMBERS], after[PLAN_MAX_MEMBERS];
	/* The array is new and made from members the guard passed: it is ours. */
	const char *ours[] = { p->md };
	struct bq_guard_opts mine = { .force_destroy = ours, .nr_force = 1 };
	struct bq_jobset set = { 0 };
	struct bq_results res;
	int ret;

	if (raid_plan_make(p))
		return cli_usage_error(cli, "every member must hold at least one chunk");
	ret = run_capture(p->mdadm.argv, out, sizeof(out));
	if (ret) {
		cli_error(cli, "mdadm --create failed: %.*s", (int)strcspn(out, "\n"),
			  ret < 0 ? strerror(-ret) : out);
		return EXIT_REFUSED;
	}
	snprintf(files, sizeof(files), "--filename=%s", p->md);
	if (fill)
		ret = fill_members(cli, ctx, files, &mine, job);
	if (!ret)
		ret = make_jobs(cli, files, nr_job, job_args, 0, 0, false, &set);
	member_ios(ctx, p, before);
	if (!ret)
		ret = run_set(cli, ctx, &set, &mine, &res);
	member_ios(ctx, p, after);
	if (!ret) {
		summarise(&res, p->chunk, row);
		row->load_cv = spread(before, after, p->nr);
		bq_results_free(&res);
	}
	bq_jobset_free(&set);
	raid_plan_undo(p);
	return ret;
}

/* Members by size, and each judged by the guard once before the sweep. */
static int md_members(struct cli *cli, struct bq_ctx *ctx, const char *list,
		      const struct bq_guard_opts *g, struct raid_plan *p, char *buf, size_t len)
{
	char *save = NULL, *tok, *end, node[96];

	/* The user's list first, then the kernel's node names after it. */
	snprintf(buf, len, "%s", list);
	end = buf + strlen(buf) + 1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct bq_guard_report rep;
		struct bq_device dev;
		char name[64];
		int fd, ret;

		if (p->nr == PLAN_MAX_MEMBERS)
			return cli_usage_error(cli, "more than %d members", PLAN_MAX_MEMBERS);
		ret = cli_resolve_device(cli, ctx, tok, name, sizeof(name));
		if (ret)
			return ret;
		if (bq_device_load(ctx, name, &dev))
			return cli_usage_error(cli, "%s: cannot read it", tok);
		p->member_bytes[p->nr++] = dev.size;
		bq_device_release(&dev);
		fd = bq_guard_open(ctx, tok, 0, g, &rep);
		if (fd < 0)
			return guard_error(cli, tok, fd, &rep);
		close(fd);
		/* mdadm gets the kernel's node for what was judged, not the user's spelling. */
		if (!S_ISBLK(rep.st.st_mode) || bq_dev_node(ctx, rep.st.st_rdev, node, sizeof(node)) ||
		    (size_t)(end - buf) + strlen(node) + 1 > len)
			return cli_usage_error(cli, "%s: md members are block devices with a node "
					       "in /dev", tok);
		p->members[p->nr - 1] = end;
		end = stpcpy(end, node) + 1;
	}
	return p->nr >= 2 ? 0 : cli_usage_error(cli, "needs at least two members");
}

/* Most I/Os per second; a tie within 2% goes to the lower p99. */
static int best_row(const struct tune_row *rows, int nr)
{
	int best = 0;

	for (int i = 1; i < nr; i++) {
		double a = rows[i].iops, b = rows[best].iops;

		if (a > b * 1.02 || (a >= b * 0.98 && rows[i].p99_ns < rows[best].p99_ns))
			best = i;
	}
	return best;
}

static void print_rows(const struct tune_row *rows, int nr, int best)
{
	static const char *const headers[] = {
		"CHUNK", "IOPS", "MB/s", "P99", "LOAD-CV", "ERRORS", "",
	};
	struct table t;

	if (table_init(&t, headers, ARRAY_LEN(headers)))
		return;
	for (int i = 0; i < nr; i++) {
		char chunk[32];

		fmt_size(chunk, sizeof(chunk), rows[i].chunk);
		table_cell(&t, "%s", chunk);
		table_cell(&t, "%.0f", rows[i].iops);
		table_cell(&t, "%.1f", rows[i].bytes_per_s / 1e6);
		table_cell(&t, "%.1fus", (double)rows[i].p99_ns / 1e3);
		table_cell(&t, "%.3f", rows[i].load_cv);
		table_cell(&t, "%" PRIu64, rows[i].errors);
		table_cell(&t, "%s", i == best ? "<- best" : "");
	}
	table_print(&t, stdout);
	table_free(&t);
}

static int print_rows_json(const struct tune_row *rows, int nr, int best)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	int ret;

	for (int i = 0; i < nr; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "chunk", json_object_new_uint64(rows[i].chunk));
		json_object_object_add(o, "iops", json_object_new_double(rows[i].iops));
		json_object_object_add(o, "bytes_per_second",
				       json_object_new_double(rows[i].bytes_per_s));
		json_object_object_add(o, "p99_ns", json_object_new_uint64(rows[i].p99_ns));
		json_object_object_add(o, "load_cv", json_object_new_double(rows[i].load_cv));
		json_object_object_add(o, "errors", json_object_new_uint64(rows[i].errors));
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "schema_version", json_object_new_int(1));
	json_object_object_add(root, "chunks", arr);
	json_object_object_add(root, "best_chunk", json_object_new_uint64(rows[best].chunk));
	ret = print_json(root);
	json_object_put(root);
	return ret;
}

int cmd_stripe_tune(int argc, char **argv)
{
	struct cli cli = {
		.cmd = "stripe-tune",
		.usage = "blkqual stripe-tune DEV,DEV,... --chunks SIZE,SIZE,... "
			 "[--layout original|alternate] [--backend=stripe|md [--md=DEV]] "
			 "[--force-destroy=DEV]... [-o table|json] "
			 "JOB-OPTIONS...",
	};
	const char *force[64];
	struct bq_guard_opts gopts = { .force_destroy = force };
	uint64_t chunks[MAX_CHUNKS];
	struct tune_row rows[MAX_CHUNKS];
	char **job_args, *files = NULL;
	int nr_chunks = 0, nr_job = 0, layout = 0, ret = 0, done = 0;
	struct bq_jobset probe = { 0 };
	struct raid_plan plan = { .md = "/dev/md0", .mountpoint = "/nonexistent" };
	struct bq_ctx *ctx = NULL;
	char why[600], member_buf[4096];
	bool use_md = false;

	cli_complete_options("ho", NULL, own, true);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: %s\n", cli.usage);
			return 0;
		}
	}
	if (argc < 2 || argv[1][0] == '-')
		return cli_usage_error(&cli, "the members come first (usage: %s)", cli.usage);
	files = calloc(1, strlen(argv[1]) + 16);
	job_args = calloc((size_t)argc, sizeof(char *));
	if (!files || !job_args) {
		ret = cli_usage_error(&cli, "out of memory");
		goto out_free;
	}
	/* "a,b,c" becomes fio's "a:b:c". */
	snprintf(files, strlen(argv[1]) + 16, "--filename=%s", argv[1]);
	for (char *p = files; *p; p++)
		if (*p == ',')
			*p = ':';
	for (int i = 2; i < argc && !ret; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--chunks=", 9))
			ret = parse_chunks(&cli, a + 9, chunks, &nr_chunks);
		else if (!strcmp(a, "--chunks") && i + 1 < argc)
			ret = parse_chunks(&cli, argv[++i], chunks, &nr_chunks);
		else if (!strcmp(a, "--backend=md"))
			use_md = true;
		else if (!strcmp(a, "--backend=stripe"))
			use_md = false;
		else if (!strncmp(a, "--md=", 5))
			plan.md = a + 5;
		else if (!strcmp(a, "--layout=original"))
			layout = 1;
		else if (!strcmp(a, "--layout=alternate"))
			layout = 2;
		else if (!strncmp(a, "--force-destroy", 15) && (a[15] == '=' || !a[15])) {
			const char *v = a[15] ? a + 16 : i + 1 < argc ? argv[++i] : NULL;

			if (!v)
				ret = cli_usage_error(&cli, "--force-destroy needs a value");
			else if (gopts.nr_force == ARRAY_LEN(force))
				ret = cli_usage_error(&cli, "too many --force-destroy options");
			else
				force[gopts.nr_force++] = v;
		}
		else if (!strcmp(a, "-o") && i + 1 < argc)
			ret = cli_parse_output(&cli, argv[++i]);
		else if (!strncmp(a, "--layout", 8) && (!a[8] || a[8] == '='))
			ret = cli_usage_error(&cli, "%s: use --layout=original or "
					      "--layout=alternate", a);
		else if (!strncmp(a, "--backend", 9) && (!a[9] || a[9] == '='))
			ret = cli_usage_error(&cli, "%s: use --backend=stripe or --backend=md", a);
		else if (own_option_hint(a))
			ret = cli_usage_error(&cli, "unknown option '%.*s' (did you mean '--%s'?)",
					      (int)strcspn(a, "="), a, own_option_hint(a));
		else
			job_args[nr_job++] = argv[i];
	}
	if (!ret && !nr_chunks)
		ret = cli_usage_error(&cli, "missing --chunks (usage: %s)", cli.usage);

	/* Parse once up front: bad job options are bad input before any I/O. */
	if (!ret)
		ret = make_jobs(&cli, files, nr_job, job_args, chunks[0], layout, true, &probe);
	if (!ret)
		ret = cli_check_force(&cli, &gopts, (const char *const *)probe.jobs[0].filenames,
				      (size_t)probe.jobs[0].nr_files);
	if (!ret && !probe.jobs[0].runtime_ns && !probe.jobs[0].io_size)
		ret = cli_usage_error(&cli, "give runtime= (with time_based) or io_size= so each "
				      "chunk runs the same amount");
	if (!ret)
		ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		goto out_free;
	if (use_md) {
		if (!raid_have_md(why, sizeof(why))) {
			cli_error(&cli, "--backend=md: the md driver is not available here: %s "
				  "(the default backend stripes in userspace)", why);
			ret = EXIT_REFUSED;
			goto out_free;
		}
		plan.layout = layout == 2 ? "alternate" : layout == 1 ? "original" : NULL;
		ret = md_members(&cli, ctx, argv[1], &gopts, &plan, member_buf,
				 sizeof(member_buf));
		if (ret)
			goto out_free;
	}

	/* Every sweep writes (fills, or the job's own writes): judge the members first. */
	for (int i = 0; !use_md && !ret && i < probe.jobs[0].nr_files; i++) {
		struct bq_guard_report rep;
		const char *m = probe.jobs[0].filenames[i];

		pins[i].name = m;
		pins[i].fd = bq_guard_open(ctx, m, 0, &gopts, &rep);
		if (pins[i].fd < 0)
			ret = guard_error(&cli, m, pins[i].fd, &rep);
		else
			nr_pins = i + 1;
	}
	if (ret)
		goto out_free;
	tune_stop = stop_on_signals(NULL);
	fprintf(stderr, "stripe-tune: %d chunk sizes x %.1f s%s\n", nr_chunks,
		(double)(probe.jobs[0].runtime_ns + probe.jobs[0].ramp_ns) / 1e9,
		!reads(&probe) ? "" : use_md ? ", each after writing the new array once" :
		", after writing every member once");
	if (reads(&probe) && !use_md)
		ret = fill_members(&cli, ctx, files, &gopts, &probe.jobs[0]);
	for (int c = 0; !ret && c < nr_chunks && !*tune_stop; c++) {
		struct bq_jobset set = { 0 };
		struct bq_results res;

		if (use_md) {
			plan.chunk = chunks[c];
			ret = md_chunk(&cli, ctx, &plan, nr_job, job_args, &probe.jobs[0],
				       reads(&probe), &rows[done]);
			done += !ret;
			continue;
		}
		ret = make_jobs(&cli, files, nr_job, job_args, chunks[c], layout, true, &set);
		if (!ret)
			ret = run_set(&cli, ctx, &set, &gopts, &res);
		if (!ret) {
			summarise(&res, chunks[c], &rows[done++]);
			bq_results_free(&res);
		}
		bq_jobset_free(&set);
	}
	if (!ret && done) {
		int best = best_row(rows, done);

		if (cli.output == OUTPUT_JSON) {
			ret = print_rows_json(rows, done, best) ? EXIT_REFUSED : 0;
		} else {
			char size[32];

			print_rows(rows, done, best);
			fmt_size(size, sizeof(size), rows[best].chunk);
			printf("best chunk for this workload: %s\n", size);
		}
	}
	if (*tune_stop)
		ret = 128 + *tune_stop;
out_free:
	for (int i = 0; i < nr_pins; i++)
		close(pins[i].fd);
	nr_pins = 0;
	bq_jobset_free(&probe);
	bq_ctx_free(ctx);
	free(job_args);
	free(files);
	return ret;
}
