// SPDX-License-Identifier: GPL-2.0-only
/*
 * error_report.c - failed I/Os as one line per (direction, target, errno)
 *
 * "errors: read of /dev/loop3: 9473 x Input/output error (EIO), offsets
 * 0..1073737728, first 28467200 61132800 ..." says what a flood of
 * identical lines would, and leaves room for the one line that differs.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "error_report.h"
#include "report_util.h"

static const char *const dir_names[BQ_NR_DIRS] = { "read", "write" };

/**
 * errno_name() - "EIO" for EIO
 * @err: positive errno
 *
 * Return: the symbolic name, or "errno N" for one glibc does not know
 * (in a static buffer).
 */
const char *errno_name(int err)
{
	static char buf[32];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* The end-to-end protection statuses (NVMe status code type 2). */
static const char *nvme_status_name(unsigned int st)
{
	switch (st) {
	case 0x282:
		return "end-to-end guard check error";
	case 0x283:
		return "end-to-end application tag check error";
	case 0x284:
		return "end-to-end reference tag check error";
	default:
		return NULL;
	}
}

/* ", sense key ..." or ", NVMe status ..." for a group that has one; else "". */
static void status_text(char *buf, size_t len, uint32_t sense)
{
	const char *name;

	buf[0] = '\0';
	if (!sense)
		return;
	if (!(sense & BQ_NVME_STATUS_VALID)) {
		snprintf(buf, len, ", sense key 0x%x ASC 0x%02x ASCQ 0x%02x", BQ_SENSE_KEY(sense),
			 BQ_SENSE_ASC(sense), BQ_SENSE_ASCQ(sense));
		return;
	}
	name = nvme_status_name(BQ_NVME_STATUS(sense));
	snprintf(buf, len, ", NVMe status 0x%03x%s%s%s%s", BQ_NVME_STATUS(sense),
		 name ? " (" : "", name ? name : "", name ? ")" : "",
		 sense & BQ_NVME_STATUS_HOST ? " found by blkqual's PI check" : "");
}

static const char *target_of(const struct bq_target_info *targets, int nr, int file)
{
	return targets && file >= 0 && file < nr ? targets[file].path : NULL;
}

/**
 * io_error_line() - why a job failed, in one line on standard error
 * @cli: for the program's prefix
 * @job: the job's name
 * @t: the job's results (bq_job_sum())
 * @targets: its targets, for their names
 * @nr_targets: how many
 * @stopped: true when the job stopped at its first failure
 *
 * The report says it all, but it may have gone to a file or a pipe; the
 * exit status 1 needs its reason where the user looks.
 */
void io_error_line(struct cli *cli, const char *job, const struct bq_thread_result *t,
		   const struct bq_target_info *targets, int nr_targets, bool stopped)
{
	uint64_t n = t->d[BQ_READ].errors + t->d[BQ_WRITE].errors;
	const struct bq_io_error_group *g = t->nr_groups ? &t->groups[0] : NULL;
	const char *path = g ? target_of(targets, nr_targets, g->file) : NULL;
	char sense[128] = "";

	if (!n)
		return;
	if (g)
		status_text(sense, sizeof(sense), g->sense);
	if (!g) {
		cli_error(cli, "%s: %" PRIu64 " I/O%s failed", job, n, n == 1 ? "" : "s");
		return;
	}
	cli_error(cli, "%s: %" PRIu64 " I/O%s failed: %s%s%s at offset %" PRIu64 ": %s (%s)%s%s%s",
		  job, n, n == 1 ? "" : "s", dir_names[g->dir], path ? " of " : "",
		  path ? path : "", g->nr_examples ? g->examples[0] : g->min_offset, strerror(g->err), errno_name(g->err), sense,
		  t->nr_groups > 1 ? ", and other errors" : "",
		  stopped ? "; the job stopped there" : "");
}

/**
 * print_error_groups() - one line per kind of failed I/O
 * @out: where to
 * @indent: put before each line
 * @t: a thread's or a job's results (bq_job_sum())
 * @targets: the job's targets, for their names; NULL leaves names out
 * @nr_targets: how many
 */
void print_error_groups(FILE *out, const char *indent, const struct bq_thread_result *t,
			const struct bq_target_info *targets, int nr_targets)
{
	for (int i = 0; i < t->nr_groups; i++) {
		const struct bq_io_error_group *g = &t->groups[i];
		const char *path = target_of(targets, nr_targets, g->file);
		char st[128];

		fprintf(out, "%serrors: %s%s%s: %" PRIu64 " x %s (%s), ", indent, dir_names[g->dir],
			path ? " of " : "", path ? path : "", g->count, strerror(g->err),
			errno_name(g->err));
		status_text(st, sizeof(st), g->sense);
		if (st[0])
			fprintf(out, "%s, ", st + 2);
		if (g->min_offset == g->max_offset)
			fprintf(out, "offset %" PRIu64, g->min_offset);
		else
			fprintf(out, "offsets %" PRIu64 "..%" PRIu64 ", first", g->min_offset,
				g->max_offset);
		for (int k = 0; g->min_offset != g->max_offset && k < g->nr_examples; k++)
			fprintf(out, " %" PRIu64, g->examples[k]);
		fprintf(out, "%s\n", g->count > (uint64_t)g->nr_examples &&
			g->min_offset != g->max_offset ? " ..." : "");
	}
	if (t->ungrouped)
		fprintf(out, "%serrors: %" PRIu64 " more of other kinds\n", indent, t->ungrouped);
}

/**
 * error_groups_json() - the groups as a JSON array
 * @t: a thread's or a job's results
 * @targets: the job's targets, or NULL
 * @nr_targets: how many
 *
 * Return: [{"direction", "target", "errno", "errno_name", "error", "count",
 * "min_offset", "max_offset", "last_offset", "first_offsets"}], with one
 * {"ungrouped": N} element at the end when some did not fit.
 */
json_object *error_groups_json(const struct bq_thread_result *t,
			       const struct bq_target_info *targets, int nr_targets)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < t->nr_groups; i++) {
		const struct bq_io_error_group *g = &t->groups[i];
		const char *path = target_of(targets, nr_targets, g->file);
		json_object *o = json_object_new_object(), *ex = json_object_new_array();

		json_object_object_add(o, "direction", json_object_new_string(dir_names[g->dir]));
		json_object_object_add(o, "target", json_object_new_string(path ? path : ""));
		json_object_object_add(o, "errno", json_object_new_int(g->err));
		json_object_object_add(o, "errno_name", json_object_new_string(errno_name(g->err)));
		json_object_object_add(o, "error", json_object_new_string(strerror(g->err)));
		if (g->sense & BQ_NVME_STATUS_VALID) {
			json_object_object_add(o, "nvme_status",
					       json_object_new_int((int)BQ_NVME_STATUS(g->sense)));
			json_object_object_add(o, "nvme_status_by_host", json_object_new_boolean(
						       g->sense & BQ_NVME_STATUS_HOST));
		} else if (g->sense) {
			json_object_object_add(o, "sense_key", json_object_new_int(BQ_SENSE_KEY(g->sense)));
			json_object_object_add(o, "asc", json_object_new_int(BQ_SENSE_ASC(g->sense)));
			json_object_object_add(o, "ascq", json_object_new_int(BQ_SENSE_ASCQ(g->sense)));
		}
		json_object_object_add(o, "count", json_u64(g->count));
		json_object_object_add(o, "min_offset", json_u64(g->min_offset));
		json_object_object_add(o, "max_offset", json_u64(g->max_offset));
		json_object_object_add(o, "last_offset", json_u64(g->last_offset));
		for (int k = 0; k < g->nr_examples; k++)
			json_object_array_add(ex, json_u64(g->examples[k]));
		json_object_object_add(o, "first_offsets", ex);
		json_object_array_add(arr, o);
	}
	if (t->ungrouped) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "ungrouped", json_u64(t->ungrouped));
		json_object_array_add(arr, o);
	}
	return arr;
}

/**
 * ops_stall_lines() - one line on standard error per thread found stuck
 * @cli: the command, for the "blkqual CMD:" prefix
 * @r: a file-level run's results
 *
 * Return: how many threads were stuck (the run did not wait for them; the
 * caller reports and exits with status 1).
 */
int ops_stall_lines(struct cli *cli, const struct bq_ops_result *r)
{
	for (int i = 0; i < r->nr_stalls; i++) {
		const struct bq_ops_stall *s = &r->stalls[i];

		cli_error(cli, "thread %d stalled: in %s(%s) for %.1fs; not waiting for it",
			  s->thread, s->call, s->path, (double)s->stalled_ns / 1e9);
	}
	return r->nr_stalls;
}
