// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio_report.c - blkqual fileio's results: sysbench 1.0's text layout,
 * field for field, so scripts that read it keep working, plus the full
 * percentiles; and the same figures as JSON
 *
 * sysbench counts an "event" per request: reads, writes and the periodic
 * fsyncs.  Its fsyncs/s also counts the fsyncs at the end of the run,
 * which are no events; both are kept apart here and added where
 * sysbench adds them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fileio_report.h"
#include "report_util.h"

#define MIB (1024.0 * 1024.0)

static const char *const mode_text[] = {
	[BQ_FILEIO_SEQWR] = "sequential write (creation)",
	[BQ_FILEIO_SEQREWR] = "sequential rewrite",
	[BQ_FILEIO_SEQRD] = "sequential read",
	[BQ_FILEIO_RNDRD] = "random read",
	[BQ_FILEIO_RNDWR] = "random write",
	[BQ_FILEIO_RNDRW] = "random r/w",
};

static const char *const mode_name[] = {
	[BQ_FILEIO_NONE] = "", [BQ_FILEIO_SEQWR] = "seqwr", [BQ_FILEIO_SEQREWR] = "seqrewr",
	[BQ_FILEIO_SEQRD] = "seqrd", [BQ_FILEIO_RNDRD] = "rndrd", [BQ_FILEIO_RNDWR] = "rndwr",
	[BQ_FILEIO_RNDRW] = "rndrw",
};

/* sysbench's sizes: "16Ki", "8Mi", "21.333Mi", to which callers add "B". */
static const char *size_str(char *buf, size_t len, double v)
{
	static const char *const units[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	size_t i = 0;

	for (; i + 1 < ARRAY_LEN(units) && v >= 1024; i++)
		v /= 1024;
	snprintf(buf, len, "%.5g%s", v, units[i]);
	return buf;
}

static bool is_random(enum bq_fileio_mode m)
{
	return m == BQ_FILEIO_RNDRD || m == BQ_FILEIO_RNDWR || m == BQ_FILEIO_RNDRW;
}

void fileio_print_flags(FILE *out, const struct bq_fileio_opts *o)
{
	fprintf(out, "Extra file open flags: %s%s%s%s\n", o->extra_flags ? "" : "(none)",
		o->extra_flags & BQ_FILEIO_SYNC ? "sync " : "",
		o->extra_flags & BQ_FILEIO_DSYNC ? "dsync " : "",
		o->extra_flags & BQ_FILEIO_DIRECT ? "directio" : "");
}

void fileio_print_header(FILE *out, const struct bq_fileio_opts *o)
{
	uint64_t file_size = bq_fileio_file_size(o);
	char s[32];

	fprintf(out, "Running the test with following options:\n");
	fprintf(out, "Number of threads: %u\n", o->threads);
	if (o->report_interval_ns)
		fprintf(out, "Report intermediate results every %g second(s)\n",
			(double)o->report_interval_ns / 1e9);
	if (o->rand_seed)
		fprintf(out, "Initializing random number generator from seed (%llu).\n",
			(unsigned long long)o->rand_seed);
	else
		fprintf(out, "Initializing random number generator from current time\n");
	fprintf(out, "\n\n");
	fileio_print_flags(out, o);
	fprintf(out, "%u files, %sB each\n", o->file_num, size_str(s, sizeof(s), (double)file_size));
	fprintf(out, "%sB total file size\n",
		size_str(s, sizeof(s), (double)file_size * o->file_num));
	fprintf(out, "Block size %sB\n", size_str(s, sizeof(s), o->block_size));
	if (o->merged_requests)
		fprintf(out, "Merging requests up to %sB for sequential IO.\n",
			size_str(s, sizeof(s), (double)o->block_size * o->merged_requests));
	if (is_random(o->mode)) {
		fprintf(out, "Number of IO requests: %llu\n", (unsigned long long)o->events);
		fprintf(out, "Read/Write ratio for combined random IO test: %2.2f\n", o->rw_ratio);
	}
	/* --file-fsync-all turns the other two off, as in sysbench. */
	if (o->fsync_freq && !o->fsync_all)
		fprintf(out, "Periodic FSYNC enabled, calling fsync() each %u requests.\n",
			o->fsync_freq);
	if (o->fsync_end && !o->fsync_all)
		fprintf(out, "Calling fsync() at the end of test, Enabled.\n");
	if (o->fsync_all)
		fprintf(out, "Calling fsync() after each write operation.\n");
	fprintf(out, "Using synchronous I/O mode\n");
	fprintf(out, "Doing %s test\n", mode_text[o->mode]);
	fprintf(out, "Initializing worker threads...\n\n");
	fprintf(out, "Threads started!\n\n");
}

static double mean_latency_ns(const struct bq_ops_sample *s)
{
	double sum = 0;
	uint64_t n = 0;

	for (int k = BQ_FILEIO_OP_READ; k <= BQ_FILEIO_OP_FSYNC; k++) {
		sum += s->mean_ns[k] * (double)s->count[k];
		n += s->count[k];
	}
	return n ? sum / (double)n : 0;
}

void fileio_print_interval(FILE *out, const struct bq_ops_sample *s)
{
	double dt = (double)s->dt_ns / 1e9;

	if (dt <= 0)
		return;
	/* sysbench shows a percentile here; the samples carry the mean. */
	fprintf(out, "[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s "
		"latency (ms,avg): %4.3f\n", (double)s->t_ns / 1e9,
		(double)s->bytes[BQ_FILEIO_OP_READ] / MIB / dt,
		(double)s->bytes[BQ_FILEIO_OP_WRITE] / MIB / dt,
		(double)(s->count[BQ_FILEIO_OP_FSYNC] + s->count[BQ_FILEIO_OP_FSYNC_END]) / dt,
		mean_latency_ns(s) / 1e6);
	fflush(out);
}

/* Reads, writes and periodic fsyncs: sysbench's events. */
static int events_hist(const struct bq_ops_result *r, struct bq_hist *h)
{
	int ret = bq_hist_init(h);

	if (ret)
		return ret;
	for (int k = BQ_FILEIO_OP_READ; k <= BQ_FILEIO_OP_FSYNC; k++)
		if (r->total[k].lat.buckets)
			bq_hist_merge(h, &r->total[k].lat);
	return 0;
}

static uint64_t thread_events(const struct bq_ops_thread *t)
{
	return t->op[BQ_FILEIO_OP_READ].count + t->op[BQ_FILEIO_OP_WRITE].count +
	       t->op[BQ_FILEIO_OP_FSYNC].count;
}

static uint64_t thread_busy_ns(const struct bq_ops_thread *t)
{
	return t->op[BQ_FILEIO_OP_READ].lat_sum_ns + t->op[BQ_FILEIO_OP_WRITE].lat_sum_ns +
	       t->op[BQ_FILEIO_OP_FSYNC].lat_sum_ns;
}

struct fairness {
	double events_avg, events_stddev;
	double time_avg_s, time_stddev_s;
};

/* Population deviation across threads, as sysbench prints it. */
static void fairness(const struct bq_ops_result *r, struct fairness *f)
{
	double n = r->nr_threads ? r->nr_threads : 1, se = 0, st = 0;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < r->nr_threads; i++) {
		f->events_avg += (double)thread_events(&r->threads[i]) / n;
		f->time_avg_s += (double)thread_busy_ns(&r->threads[i]) / 1e9 / n;
	}
	for (int i = 0; i < r->nr_threads; i++) {
		double de = (double)thread_events(&r->threads[i]) - f->events_avg;
		double dt = (double)thread_busy_ns(&r->threads[i]) / 1e9 - f->time_avg_s;

		se += de * de;
		st += dt * dt;
	}
	f->events_stddev = sqrt(se / n);
	f->time_stddev_s = sqrt(st / n);
}

/*
 * Where a histogram bucket sits, in ns: the inverse of bq_hist_index(),
 * for drawing only, so the midpoint is good enough.
 */
static double bucket_mid_ns(unsigned int idx)
{
	unsigned int group = idx >> BQ_HIST_SUB_BITS, sub = idx & ((1u << BQ_HIST_SUB_BITS) - 1);
	double width;

	if (!group)
		return idx;
	width = ldexp(1.0, (int)group - 1);
	return ((double)(1u << BQ_HIST_SUB_BITS) + sub) * width + width / 2;
}

/*
 * sysbench's --histogram: 1024 logarithmic steps from 1 us to 100 s, the
 * non-empty ones drawn with up to 40 stars.
 */
#define DRAW_STEPS 1024
#define DRAW_MIN_MS 0.001
#define DRAW_MAX_MS 100000.0

static void print_histogram(FILE *out, const struct bq_hist *h)
{
	static uint64_t steps[DRAW_STEPS];
	double span = log(DRAW_MAX_MS / DRAW_MIN_MS);
	uint64_t top = 0;

	memset(steps, 0, sizeof(steps));
	for (unsigned int i = 0; i < BQ_HIST_BUCKETS; i++) {
		double ms;
		long j;

		if (!h->buckets[i])
			continue;
		ms = bucket_mid_ns(i) / 1e6;
		j = ms <= DRAW_MIN_MS ? 0 : lround(floor(log(ms / DRAW_MIN_MS) / span * DRAW_STEPS));
		if (j >= DRAW_STEPS)
			j = DRAW_STEPS - 1;
		steps[j] += h->buckets[i];
		if (steps[j] > top)
			top = steps[j];
	}
	fprintf(out, "Latency histogram (values are in milliseconds)\n");
	fprintf(out, "       value  ------------- distribution ------------- count\n");
	for (int j = 0; j < DRAW_STEPS; j++) {
		char bar[41];
		int stars;

		if (!steps[j])
			continue;
		stars = (int)((double)steps[j] * 40 / (double)top);
		stars = stars < 1 ? 1 : stars > 40 ? 40 : stars;
		memset(bar, '*', (size_t)stars);
		bar[stars] = '\0';
		fprintf(out, "%12.3f |%-40s %llu\n", DRAW_MIN_MS * exp(span * j / DRAW_STEPS), bar,
			(unsigned long long)steps[j]);
	}
	fprintf(out, " \n");
}

void fileio_print_report(FILE *out, const struct bq_fileio_opts *o,
			 const struct bq_fileio_result *res)
{
	const struct bq_ops_result *r = &res->ops;
	const struct bq_op_stat *t = r->total;
	uint64_t ns = r->runtime_ns;
	struct bq_hist h;
	struct fairness f;

	if (events_hist(r, &h))
		return;
	if (o->histogram && h.count)
		print_histogram(out, &h);
	fprintf(out, "\nFile operations:\n");
	fprintf(out, "    reads/s:                      %4.2f\n",
		per_second(t[BQ_FILEIO_OP_READ].count, ns));
	fprintf(out, "    writes/s:                     %4.2f\n",
		per_second(t[BQ_FILEIO_OP_WRITE].count, ns));
	fprintf(out, "    fsyncs/s:                     %4.2f\n",
		per_second(t[BQ_FILEIO_OP_FSYNC].count + t[BQ_FILEIO_OP_FSYNC_END].count, ns));
	fprintf(out, "\nThroughput:\n");
	fprintf(out, "    read, MiB/s:                  %4.2f\n",
		per_second(t[BQ_FILEIO_OP_READ].bytes, ns) / MIB);
	fprintf(out, "    written, MiB/s:               %4.2f\n",
		per_second(t[BQ_FILEIO_OP_WRITE].bytes, ns) / MIB);
	fprintf(out, "\nGeneral statistics:\n");
	fprintf(out, "    total time:                          %.4fs\n", (double)ns / 1e9);
	fprintf(out, "    total number of events:              %llu\n",
		(unsigned long long)h.count);
	fprintf(out, "\nLatency (ms):\n");
	fprintf(out, "         min:                              %10.2f\n",
		h.count ? (double)h.min / 1e6 : 0.0);
	fprintf(out, "         avg:                              %10.2f\n", bq_hist_mean(&h) / 1e6);
	fprintf(out, "         max:                              %10.2f\n", (double)h.max / 1e6);
	if (o->percentile)
		fprintf(out, "        %3uth percentile:                  %10.2f\n", o->percentile,
			h.count ? (double)bq_hist_percentile(&h, o->percentile) / 1e6 : 0.0);
	else
		fprintf(out, "         percentile stats:               disabled\n");
	fprintf(out, "         sum:                              %10.2f\n", h.sum / 1e6);
	print_percentiles(out, "         ", &h);
	fairness(r, &f);
	fprintf(out, "\nThreads fairness:\n");
	fprintf(out, "    events (avg/stddev):           %.4f/%3.2f\n", f.events_avg,
		f.events_stddev);
	fprintf(out, "    execution time (avg/stddev):   %.4f/%3.2f\n\n", f.time_avg_s,
		f.time_stddev_s);
	bq_hist_free(&h);
}

json_object *fileio_options_json(const struct bq_fileio_opts *o)
{
	json_object *j = json_object_new_object(), *flags = json_object_new_array();

	if (o->extra_flags & BQ_FILEIO_SYNC)
		json_object_array_add(flags, json_object_new_string("sync"));
	if (o->extra_flags & BQ_FILEIO_DSYNC)
		json_object_array_add(flags, json_object_new_string("dsync"));
	if (o->extra_flags & BQ_FILEIO_DIRECT)
		json_object_array_add(flags, json_object_new_string("direct"));
	json_object_object_add(j, "file_num", json_u64(o->file_num));
	json_object_object_add(j, "file_total_size", json_u64(o->total_size));
	json_object_object_add(j, "file_size", json_u64(bq_fileio_file_size(o)));
	json_object_object_add(j, "file_block_size", json_u64(o->block_size));
	json_object_object_add(j, "file_test_mode", o->mode == BQ_FILEIO_NONE ? NULL :
			       json_object_new_string(mode_name[o->mode]));
	json_object_object_add(j, "file_extra_flags", flags);
	json_object_object_add(j, "file_fsync_freq", json_u64(o->fsync_all ? 0 : o->fsync_freq));
	json_object_object_add(j, "file_fsync_all", json_object_new_boolean(o->fsync_all));
	json_object_object_add(j, "file_fsync_end",
			       json_object_new_boolean(o->fsync_end && !o->fsync_all));
	json_object_object_add(j, "file_fsync_mode",
			       json_object_new_string(o->fdatasync ? "fdatasync" : "fsync"));
	json_object_object_add(j, "file_rw_ratio", json_dbl(o->rw_ratio));
	json_object_object_add(j, "file_merged_requests", json_u64(o->merged_requests));
	json_object_object_add(j, "threads", json_u64(o->threads));
	json_object_object_add(j, "time_ns", json_u64(o->time_ns));
	json_object_object_add(j, "events", json_u64(o->events));
	json_object_object_add(j, "directory", json_object_new_string(o->dir ? o->dir : "."));
	return j;
}

static json_object *op_json(const struct bq_op_stat *s, uint64_t ns)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "count", json_u64(s->count));
	json_object_object_add(j, "per_second", json_dbl(per_second(s->count, ns)));
	json_object_object_add(j, "bytes", json_u64(s->bytes));
	json_object_object_add(j, "mib_per_second", json_dbl(per_second(s->bytes, ns) / MIB));
	json_object_object_add(j, "errors", json_u64(s->errors));
	json_object_object_add(j, "latency", s->lat.buckets ? hist_json(&s->lat) : NULL);
	return j;
}

static json_object *intervals_json(const struct bq_ops_result *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->nr_samples; i++) {
		const struct bq_ops_sample *s = &r->samples[i];
		json_object *j = json_object_new_object();
		uint64_t fsyncs = s->count[BQ_FILEIO_OP_FSYNC] + s->count[BQ_FILEIO_OP_FSYNC_END];

		json_object_object_add(j, "t_ns", json_u64(s->t_ns));
		json_object_object_add(j, "dt_ns", json_u64(s->dt_ns));
		json_object_object_add(j, "reads", json_u64(s->count[BQ_FILEIO_OP_READ]));
		json_object_object_add(j, "writes", json_u64(s->count[BQ_FILEIO_OP_WRITE]));
		json_object_object_add(j, "fsyncs", json_u64(fsyncs));
		json_object_object_add(j, "read_mib_per_second",
				       json_dbl(per_second(s->bytes[BQ_FILEIO_OP_READ], s->dt_ns) /
						MIB));
		json_object_object_add(j, "written_mib_per_second",
				       json_dbl(per_second(s->bytes[BQ_FILEIO_OP_WRITE], s->dt_ns) /
						MIB));
		json_object_object_add(j, "fsyncs_per_second", json_dbl(per_second(fsyncs, s->dt_ns)));
		json_object_object_add(j, "latency_mean_ns", json_dbl(mean_latency_ns(s)));
		json_object_object_add(j, "cpu_busy_pct", json_dbl(s->cpu_total_pct));
		json_object_object_add(j, "cpu_sys_pct", json_dbl(s->cpu_sys_pct));
		json_object_array_add(a, j);
	}
	return a;
}

static json_object *threads_json(const struct bq_ops_result *r, json_object *errors)
{
	static const char *const op_names[] = { "read", "write", "fsync", "end_fsync" };
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nr_threads; i++) {
		const struct bq_ops_thread *t = &r->threads[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "id", json_u64((uint64_t)t->id));
		json_object_object_add(j, "events", json_u64(thread_events(t)));
		json_object_object_add(j, "execution_time_ns", json_u64(thread_busy_ns(t)));
		json_object_object_add(j, "reads", json_u64(t->op[BQ_FILEIO_OP_READ].count));
		json_object_object_add(j, "writes", json_u64(t->op[BQ_FILEIO_OP_WRITE].count));
		json_object_object_add(j, "fsyncs", json_u64(t->op[BQ_FILEIO_OP_FSYNC].count));
		json_object_object_add(j, "end_fsyncs",
				       json_u64(t->op[BQ_FILEIO_OP_FSYNC_END].count));
		json_object_object_add(j, "usr_ns", json_u64(t->usr_ns));
		json_object_object_add(j, "sys_ns", json_u64(t->sys_ns));
		json_object_object_add(j, "error", t->ret ? json_object_new_string(t->msg) : NULL);
		json_object_array_add(a, j);
		for (int e = 0; e < t->nr_errors; e++) {
			const struct bq_op_error *oe = &t->errors[e];
			json_object *je = json_object_new_object();

			json_object_object_add(je, "thread", json_u64((uint64_t)t->id));
			json_object_object_add(je, "op", json_object_new_string(op_names[oe->op]));
			json_object_object_add(je, "errno", json_u64((uint64_t)oe->err));
			json_object_object_add(je, "error", json_object_new_string(strerror(oe->err)));
			json_object_object_add(je, "offset", oe->offset < 0 ? NULL :
					       json_u64((uint64_t)oe->offset));
			json_object_object_add(je, "file", json_object_new_string(oe->what));
			json_object_array_add(errors, je);
		}
	}
	return a;
}

json_object *fileio_json(const struct bq_fileio_opts *o, const struct bq_fileio_result *res)
{
	const struct bq_ops_result *r = &res->ops;
	const struct bq_op_stat *t = r->total;
	json_object *root, *ev, *fair, *cpu, *errors;
	uint64_t ns = r->runtime_ns;
	struct fairness f;
	struct bq_hist h;

	if (events_hist(r, &h))
		return NULL;
	root = result_json_new("fileio");
	json_object_object_add(root, "phase", json_object_new_string("run"));
	json_object_object_add(root, "options", fileio_options_json(o));
	json_object_object_add(root, "seed", json_u64(res->seed));
	json_object_object_add(root, "runtime_ns", json_u64(ns));
	json_object_object_add(root, "interrupted", json_object_new_boolean(r->interrupted));
	json_object_object_add(root, "failed_threads", json_u64((uint64_t)r->failed));
	json_object_object_add(root, "reads", op_json(&t[BQ_FILEIO_OP_READ], ns));
	json_object_object_add(root, "writes", op_json(&t[BQ_FILEIO_OP_WRITE], ns));
	json_object_object_add(root, "fsyncs", op_json(&t[BQ_FILEIO_OP_FSYNC], ns));
	json_object_object_add(root, "end_fsyncs", op_json(&t[BQ_FILEIO_OP_FSYNC_END], ns));
	json_object_object_add(root, "fsyncs_per_second",
			       json_dbl(per_second(t[BQ_FILEIO_OP_FSYNC].count +
						   t[BQ_FILEIO_OP_FSYNC_END].count, ns)));
	ev = json_object_new_object();
	json_object_object_add(ev, "count", json_u64(h.count));
	json_object_object_add(ev, "latency_sum_ns", json_dbl(h.sum));
	json_object_object_add(ev, "percentile", json_u64(o->percentile));
	json_object_object_add(ev, "percentile_ns", o->percentile && h.count ?
			       json_u64(bq_hist_percentile(&h, o->percentile)) : NULL);
	json_object_object_add(ev, "latency", hist_json(&h));
	json_object_object_add(root, "events", ev);
	fairness(r, &f);
	fair = json_object_new_object();
	json_object_object_add(fair, "events_avg", json_dbl(f.events_avg));
	json_object_object_add(fair, "events_stddev", json_dbl(f.events_stddev));
	json_object_object_add(fair, "execution_time_avg_s", json_dbl(f.time_avg_s));
	json_object_object_add(fair, "execution_time_stddev_s", json_dbl(f.time_stddev_s));
	json_object_object_add(root, "fairness", fair);
	errors = json_object_new_array();
	json_object_object_add(root, "threads", threads_json(r, errors));
	json_object_object_add(root, "errors", errors);
	cpu = json_object_new_object();
	json_object_object_add(cpu, "usr_ns", json_u64(r->usr_ns));
	json_object_object_add(cpu, "sys_ns", json_u64(r->sys_ns));
	json_object_object_add(cpu, "machine_busy_pct", json_dbl(r->cpu_total_pct));
	json_object_object_add(cpu, "machine_sys_pct", json_dbl(r->cpu_sys_pct));
	json_object_object_add(root, "cpu", cpu);
	json_object_object_add(root, "intervals", intervals_json(r));
	bq_hist_free(&h);
	return root;
}
