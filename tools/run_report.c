// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_report.c - a run's results for people (fio-like), for programs
 * (one JSON document) and for spreadsheets (the interval series as CSV)
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error_report.h"
#include "inventory.h"
#include "report_util.h"
#include "rates_report.h"
#include "run_report.h"
#include "trace_report.h"
#include "verify_report.h"


/* Trims (issue 19) are reported after the two directions, as fio does. */
#define TRIM_DIR BQ_NR_DIRS
static const char *const dir_names[BQ_NR_DIRS + 1] = { "read", "write", "trim" };

static const char *rw_name(enum bq_rw rw)
{
	static const char *const names[] = {
		[BQ_RW_READ] = "read", [BQ_RW_WRITE] = "write", [BQ_RW_RANDREAD] = "randread",
		[BQ_RW_RANDWRITE] = "randwrite", [BQ_RW_RW] = "rw", [BQ_RW_RANDRW] = "randrw",
	};

	return (size_t)rw < ARRAY_LEN(names) ? names[rw] : "?";
}

/**
 * job_total() - a job's threads summed; release with job_total_free()
 * @jr: the job
 * @sum: receives the sum
 *
 * Return: 0 or -ENOMEM.
 */
int job_total(const struct bq_job_result *jr, struct bq_thread_result *sum)
{
	int members = jr->nr_threads ? jr->threads[0].nr_members : 0;

	memset(sum, 0, sizeof(*sum));
	for (int d = 0; d < BQ_NR_DIRS; d++)
		if (bq_hist_init(&sum->d[d].lat))
			return -ENOMEM;
	if (bq_hist_init(&sum->trim.lat))
		return -ENOMEM;
	if (members) {
		sum->members = calloc((size_t)members, sizeof(*sum->members));
		if (!sum->members)
			return -ENOMEM;
		sum->nr_members = members;
		for (int m = 0; m < members; m++)
			if (bq_hist_init(&sum->members[m].lat))
				return -ENOMEM;
	}
	bq_job_sum(jr, sum);
	return 0;
}

void job_total_free(struct bq_thread_result *sum)
{
	for (int d = 0; d < BQ_NR_DIRS; d++)
		bq_hist_free(&sum->d[d].lat);
	bq_hist_free(&sum->trim.lat);
	for (int m = 0; m < sum->nr_members; m++)
		bq_hist_free(&sum->members[m].lat);
	free(sum->members);
}

void print_dir(FILE *out, const struct bq_dir_result *d, int dir, uint64_t runtime)
{
	char iops[32], bw[32], total[32], a[32], b[32], c[32], e[32];

	if (!d->ios && !d->errors)
		return;
	fmt_count(iops, sizeof(iops), per_second(d->ios, runtime));
	fmt_size(bw, sizeof(bw), (uint64_t)per_second(d->bytes, runtime));
	fmt_size(total, sizeof(total), d->bytes);
	fprintf(out, "  %s: IOPS=%s, BW=%s/s (%.1fMB/s) (%s in %.3fs)%s\n", dir_names[dir], iops, bw,
		per_second(d->bytes, runtime) / 1e6, total, (double)runtime / 1e9,
		d->errors ? ", with errors" : "");
	if (d->short_ios)
		fprintf(out, "    short: %" PRIu64 " met the end of the file (counted with the bytes "
			"they got)\n", d->short_ios);
	if (!d->lat.count)
		return;
	fmt_lat(a, sizeof(a), (double)d->lat.min);
	fmt_lat(b, sizeof(b), (double)d->lat.max);
	fmt_lat(c, sizeof(c), bq_hist_mean(&d->lat));
	fmt_lat(e, sizeof(e), bq_hist_stdev(&d->lat));
	fprintf(out, "    lat: min=%s max=%s avg=%s stdev=%s\n", a, b, c, e);
	print_percentiles(out, "    ", &d->lat);
}

static void print_thread_dir(FILE *out, const struct bq_dir_result *d, int dir,
			     uint64_t runtime)
{
	char iops[32], p99[32];

	if (!d->ios && !d->errors)
		return;
	fmt_count(iops, sizeof(iops), per_second(d->ios, runtime));
	fmt_lat(p99, sizeof(p99), (double)bq_hist_percentile(&d->lat, 99));
	fprintf(out, " %s IOPS=%s p99=%s%s", dir_names[dir], iops, d->lat.count ? p99 : "-",
		d->errors ? " (errors)" : "");
}

static void print_thread_line(FILE *out, const struct bq_thread_result *t, int i,
			      uint64_t runtime)
{
	fprintf(out, "    thread %d (CPU %d):", i, t->cpu);
	for (int d = 0; d < BQ_NR_DIRS; d++)
		print_thread_dir(out, &t->d[d], d, runtime);
	print_thread_dir(out, &t->trim, TRIM_DIR, runtime);
	fputc('\n', out);
}

static void print_errors(FILE *out, const struct bq_job_result *jr,
			 const struct bq_thread_result *sum)
{
	if (!sum->d[BQ_READ].errors && !sum->d[BQ_WRITE].errors && !sum->trim.errors)
		return;
	print_error_groups(out, "  ", sum, jr->targets, jr->nr_targets);
}

static const char *target_name(const struct bq_job_result *jr, int file)
{
	return file >= 0 && file < jr->nr_targets ? jr->targets[file].path : "-";
}

/* One block per stuck thread: how long, and what it waits for. */
static void print_stalls(FILE *out, const struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_stalls; i++) {
		const struct bq_stall *s = &jr->stalls[i];
		char t[32], age[32];

		fmt_lat(t, sizeof(t), (double)s->stalled_ns);
		if (s->in_fsync) {
			fprintf(out, "  stalled: thread %d (CPU %d): in fsync, no I/O completed "
				"for %s\n", s->thread, s->cpu, t);
			continue;
		}
		fprintf(out, "  stalled: thread %d (CPU %d): no I/O completed for %s, %u I/O%s "
			"outstanding%s\n", s->thread, s->cpu, t, s->outstanding,
			s->outstanding == 1 ? "" : "s", s->nr_ios ? ", the oldest:" : "");
		for (int k = 0; k < s->nr_ios; k++) {
			const struct bq_stall_io *io = &s->ios[k];

			fmt_lat(age, sizeof(age), (double)io->age_ns);
			fprintf(out, "    %s of %u bytes at offset %" PRIu64 " of %s, in flight for %s\n",
				dir_names[io->dir], io->len, io->offset, target_name(jr, io->file), age);
		}
		if (s->outstanding > (unsigned int)s->nr_ios)
			fprintf(out, "    and %u more\n", s->outstanding - (unsigned int)s->nr_ios);
	}
}

static void print_disk(FILE *out, const struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_targets; i++) {
		const struct bq_target_info *t = &jr->targets[i];
		const struct bq_diskstats *d = &t->delta;

		if (!t->have_stats)
			continue;
		fprintf(out, "  disk stats (%s): ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 "ms, in_queue=%" PRIu64 "ms, util=%.1f%%",
			t->devname, d->ios[0], d->ios[1], d->merges[0], d->merges[1], d->ticks_ms[0],
			d->ticks_ms[1], d->time_in_queue_ms,
			bq_diskstats_util(d, t->stats_window_ns));
		/* Only where there were some: the line stays as it was for other jobs. */
		if (d->discards)
			fprintf(out, ", discards=%" PRIu64, d->discards);
		fputc('\n', out);
	}
}

/* Spread of the members' I/O counts: standard deviation over the mean. */
static double member_cv(const struct bq_thread_result *sum)
{
	double mean = 0, var = 0;

	for (int m = 0; m < sum->nr_members; m++)
		mean += (double)sum->members[m].ios / sum->nr_members;
	for (int m = 0; m < sum->nr_members; m++) {
		double d = (double)sum->members[m].ios - mean;

		var += d * d / sum->nr_members;
	}
	return mean > 0 ? sqrt(var) / mean : 0;
}

static void print_stripe(FILE *out, const struct bq_job_result *jr,
			 const struct bq_thread_result *sum)
{
	char size[32], chunk[32], iops[32], mean[32];

	if (!jr->stripe_size)
		return;
	fmt_size(size, sizeof(size), jr->stripe_size);
	fmt_size(chunk, sizeof(chunk), jr->job.stripe_chunk);
	fprintf(out, "  stripe: %d members, chunk %s, %s; load spread (cv) %.3f\n",
		sum->nr_members, chunk, size, member_cv(sum));
	for (int m = 0; m < sum->nr_members; m++) {
		fmt_count(iops, sizeof(iops), per_second(sum->members[m].ios, jr->runtime_ns));
		fmt_lat(mean, sizeof(mean), bq_hist_mean(&sum->members[m].lat));
		fprintf(out, "    %s: %" PRIu64 " I/Os (%s IOPS), mean %s%s\n",
			jr->targets[m].path, sum->members[m].ios, iops, mean,
			sum->members[m].errors ? ", with errors" : "");
	}
}

/* One direction's block sizes as fio writes them: 4096, 4096-65536 or 4096/50:65536/50. */
static void fmt_bs(char *buf, size_t len, const struct bq_job *j, int d)
{
	size_t n = 0;

	if (j->nr_bssplit[d]) {
		for (int i = 0; i < j->nr_bssplit[d] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%u/%u", i ? ":" : "",
					      j->bssplit[d][i].bs, j->bssplit[d][i].pct);
	} else if (j->bs_min[d] != j->bs_max[d]) {
		snprintf(buf, len, "%u-%u", j->bs_min[d], j->bs_max[d]);
	} else {
		snprintf(buf, len, "%u", j->bs[d]);
	}
}

static void print_job(FILE *out, const struct bq_job_result *jr)
{
	const struct bq_job *j = &jr->job;
	struct bq_thread_result sum;
	char rate[32], bs_r[160], bs_w[160];
	uint64_t cpu_ns, ios;
	bool split, range;

	fmt_bs(bs_r, sizeof(bs_r), j, BQ_READ);
	fmt_bs(bs_w, sizeof(bs_w), j, BQ_WRITE);
	split = j->nr_bssplit[BQ_READ] || j->nr_bssplit[BQ_WRITE];
	range = j->bs_min[BQ_READ] != j->bs_max[BQ_READ] || j->bs_min[BQ_WRITE] != j->bs_max[BQ_WRITE];
	/* One size per direction as bs=R/W; ranges and splits as fio's options, R,W. */
	fprintf(out, "%s: rw=%s, %s=%s%s%s, ioengine=%s, iodepth=%u, numjobs=%u%s, group %d\n",
		j->name, bq_job_trim_rw_name(j) ?: rw_name(j->rw), split ? "bssplit" : range ? "bsrange" : "bs", bs_r,
		split || range ? "," : "/", bs_w, bq_engine_name(j->engine), j->iodepth,
		j->numjobs, j->direct ? ", direct" : "", jr->groupid);
	if (print_order(out, jr))
		return;
	for (int i = 0; i < jr->nr_targets; i++) {
		char size[32];

		fmt_size(size, sizeof(size), jr->targets[i].size);
		fprintf(out, "  target: %s (%s%s%s, logical block %u, NUMA node %d)%s\n",
			jr->targets[i].path, jr->targets[i].devname[0] ? jr->targets[i].devname : "file",
			", ", size, jr->targets[i].lbs, jr->targets[i].numa_node,
			jr->targets[i].laid_out ? ", laid out first" : "");
	}
	fprintf(out, "  completions: %s\n", jr->poll_note[0] ? jr->poll_note : "interrupts");
	fprintf(out, "  threads:");
	for (int i = 0; i < jr->nr_threads; i++)
		fprintf(out, " CPU %d (node %d)%s", jr->threads[i].cpu, jr->threads[i].node,
			i + 1 < jr->nr_threads ? "," : "\n");
	for (const char *n = jr->notes; *n;) {
		size_t len = strcspn(n, "\n");

		fprintf(out, "  note: %.*s\n", (int)len, n);
		n += len + (n[len] == '\n');
	}
	if (job_total(jr, &sum))
		return;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		print_dir(out, &sum.d[d], d, jr->runtime_ns);
	print_dir(out, &sum.trim, TRIM_DIR, jr->runtime_ns);
	/* An SQPOLL kernel thread works for the tester: its time counts too. */
	/* Without group_reporting, as in fio, each thread gets its own line too. */
	for (int i = 0; !j->group_reporting && jr->nr_threads > 1 && i < jr->nr_threads; i++)
		print_thread_line(out, &jr->threads[i], i, jr->runtime_ns);
	cpu_ns = sum.usr_ns + sum.sys_ns + sum.sqpoll_ns;
	ios = sum.d[BQ_READ].ios + sum.d[BQ_WRITE].ios + sum.trim.ios;
	fmt_count(rate, sizeof(rate), cpu_ns ? (double)ios * 1e9 / (double)cpu_ns : 0);
	fprintf(out, "  cpu: usr=%.1f%% sys=%.1f%% ctx=%" PRIu64 " (%s I/Os per CPU-second)",
		jr->runtime_ns ? 100.0 * (double)sum.usr_ns / (double)jr->runtime_ns : 0,
		jr->runtime_ns ? 100.0 * (double)sum.sys_ns / (double)jr->runtime_ns : 0,
		sum.vol_cs + sum.invol_cs, rate);
	if (j->sqpoll)
		fprintf(out, ", sqpoll=%.1f%%",
			jr->runtime_ns ? 100.0 * (double)sum.sqpoll_ns / (double)jr->runtime_ns : 0);
	fputc('\n', out);
	/* A sampled mean, per thread: say so, and what the job's threads add up to. */
	if (sum.mean_depth > 0 && jr->nr_threads > 1)
		fprintf(out, "  depth: %.1f in flight per thread, %.1f over its %d threads (mean of "
			"samples at each submit and reap; iodepth=%u)\n", sum.mean_depth,
			sum.mean_depth * jr->nr_threads, jr->nr_threads, j->iodepth);
	else if (sum.mean_depth > 0)
		fprintf(out, "  depth: %.1f in flight (mean of samples at each submit and reap; "
			"iodepth=%u)\n", sum.mean_depth, j->iodepth);
	if (sum.syncs)
		fprintf(out, "  fsync: %" PRIu64 " calls\n", sum.syncs);
	if (sum.zone_resets)
		fprintf(out, "  zone resets: %" PRIu64 "\n", sum.zone_resets);
	print_stripe(out, jr, &sum);
	print_disk(out, jr);
	if (jr->trace)
		print_block_trace(out, "  where the time went (block layer, --trace=block):",
				  jr->trace, &sum);
	print_errors(out, jr, &sum);
	for (int i = 0; i < jr->nr_threads; i++)
		if (jr->threads[i].gave_up)
			fprintf(out, "  thread %d gave up despite continue_on_error: the device is gone "
				"or failed every I/O for a second\n", i);
	if (jr->fault[0])
		fprintf(out, "  target gone: %s; the run was ended\n", jr->fault);
	print_stalls(out, jr);
	rates_print(out, jr);
	if (jr->verify)
		verify_print(out, jr->verify, "  ");
	job_total_free(&sum);
}

void report_human(FILE *out, const struct bq_results *res)
{
	for (size_t k = 0; k < res->nr; k++) {
		print_job(out, &res->jobs[k]);
		if (k + 1 < res->nr)
			fputc('\n', out);
	}
	print_groups(out, res);
	if (res->interrupted)
		fprintf(out, "\nrun interrupted: the figures cover the time until the stop\n");
	if (res->gone)
		fprintf(out, "\nrun ended: a target went away; the figures cover the time until then\n");
	if (res->stalled && res->interrupted)
		fprintf(out, "\nrun stopped at a second signal: the threads above still waiting "
			"for I/O were left; the figures cover the time until then\n");
	else if (res->stalled)
		fprintf(out, "\nrun stalled: I/O stopped completing (stall_timeout); the figures cover "
			"the time until then and the stuck I/Os were not waited for\n");
}

/**
 * report_interval_line() - the newest interval of each job, as a line
 * @out: where to
 * @res: results so far
 */
void report_interval_lines(FILE *out, const struct bq_results *res)
{
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];
		const struct bq_interval *iv, *prev;
		uint64_t span;

		if (!jr->nr_intervals)
			continue;
		iv = &jr->intervals[jr->nr_intervals - 1];
		prev = jr->nr_intervals > 1 ? &jr->intervals[jr->nr_intervals - 2] : NULL;
		span = iv->t_ns - (prev ? prev->t_ns : 0);
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			char iops[32], bw[32], mean[32], p99[32];

			if (!iv->ios[d] && !(d == BQ_READ && !iv->ios[BQ_WRITE]))
				continue;
			fmt_count(iops, sizeof(iops), per_second(iv->ios[d], span));
			fmt_size(bw, sizeof(bw), (uint64_t)per_second(iv->bytes[d], span));
			fmt_lat(mean, sizeof(mean), iv->mean_ns[d]);
			fmt_lat(p99, sizeof(p99), (double)iv->p99_ns[d]);
			fprintf(out, "%8.1fs %-12s %-5s %8s IOPS %9s/s  mean %8s  p99 %8s\n",
				(double)iv->t_ns / 1e9, jr->job.name, dir_names[d], iops, bw, mean, p99);
		}
	}
	fflush(out);
}

int report_csv(FILE *out, const struct bq_results *res)
{
	fprintf(out, "time_s,job,direction,iops,bytes_per_s,mean_ns,p99_ns\n");
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];

		for (size_t i = 0; i < jr->nr_intervals; i++) {
			const struct bq_interval *iv = &jr->intervals[i];
			uint64_t span = iv->t_ns - (i ? jr->intervals[i - 1].t_ns : 0);

			for (int d = 0; d < BQ_NR_DIRS; d++)
				fprintf(out, "%.3f,%s,%s,%.1f,%.0f,%.0f,%" PRIu64 "\n",
					(double)iv->t_ns / 1e9, jr->job.name, dir_names[d],
					per_second(iv->ios[d], span), per_second(iv->bytes[d], span),
					iv->mean_ns[d], iv->p99_ns[d]);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- JSON --------------------------------------------------------------- */

json_object *dir_json(const struct bq_dir_result *d, uint64_t runtime)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ios", json_u64(d->ios));
	json_object_object_add(o, "bytes", json_u64(d->bytes));
	json_object_object_add(o, "errors", json_u64(d->errors));
	if (d->short_ios)
		json_object_object_add(o, "short_ios", json_u64(d->short_ios));
	json_object_object_add(o, "iops", json_dbl(per_second(d->ios, runtime)));
	json_object_object_add(o, "bytes_per_second", json_dbl(per_second(d->bytes, runtime)));
	json_object_object_add(o, "lat_ns", hist_json(&d->lat));
	return o;
}

static json_object *job_options_json(const struct bq_job *j)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array(), *rates;

	json_object_object_add(o, "name", json_object_new_string(j->name));
	for (int i = 0; i < j->nr_files; i++)
		json_object_array_add(files, json_object_new_string(j->filenames[i]));
	json_object_object_add(o, "filename", files);
	json_object_object_add(o, "rw", json_object_new_string(bq_job_trim_rw_name(j) ?: rw_name(j->rw)));
	json_object_object_add(o, "rwmixread", json_u64(j->rwmixread));
	json_object_object_add(o, "bs_read", json_u64(j->bs[BQ_READ]));
	json_object_object_add(o, "bs_write", json_u64(j->bs[BQ_WRITE]));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		static const char *const range_key[] = { "bsrange_read", "bsrange_write" };
		static const char *const split_key[] = { "bssplit_read", "bssplit_write" };
		json_object *a;

		if (j->nr_bssplit[d]) {
			a = json_object_new_array();
			for (int i = 0; i < j->nr_bssplit[d]; i++) {
				json_object *e = json_object_new_object();

				json_object_object_add(e, "bs", json_u64(j->bssplit[d][i].bs));
				json_object_object_add(e, "pct", json_u64(j->bssplit[d][i].pct));
				json_object_array_add(a, e);
			}
			json_object_object_add(o, split_key[d], a);
		} else if (j->bs_min[d] != j->bs_max[d]) {
			a = json_object_new_array();
			json_object_array_add(a, json_u64(j->bs_min[d]));
			json_object_array_add(a, json_u64(j->bs_max[d]));
			json_object_object_add(o, range_key[d], a);
		}
	}
	json_object_object_add(o, "ba", json_u64(j->ba));
	json_object_object_add(o, "iodepth", json_u64(j->iodepth));
	json_object_object_add(o, "iodepth_batch_complete_min", json_u64(j->batch_complete));
	json_object_object_add(o, "numjobs", json_u64(j->numjobs));
	json_object_object_add(o, "size", json_u64(j->size));
	json_object_object_add(o, "offset", json_u64(j->offset));
	json_object_object_add(o, "io_size", json_u64(j->io_size));
	json_object_object_add(o, "runtime_ns", json_u64(j->runtime_ns));
	json_object_object_add(o, "time_based", json_object_new_boolean(j->time_based));
	json_object_object_add(o, "ramp_time_ns", json_u64(j->ramp_ns));
	json_object_object_add(o, "direct", json_object_new_boolean(j->direct));
	json_object_object_add(o, "invalidate", json_object_new_boolean(j->invalidate));
	json_object_object_add(o, "sync", json_object_new_boolean(j->sync));
	json_object_object_add(o, "fsync", json_u64(j->fsync_every));
	json_object_object_add(o, "randrepeat", json_object_new_boolean(j->randrepeat));
	json_object_object_add(o, "randseed", json_u64(j->randseed));
	json_object_object_add(o, "norandommap", json_object_new_boolean(j->norandommap));
	json_object_object_add(o, "random_distribution",
			       json_object_new_string(j->dist == BQ_DIST_ZIPF ? "zipf" :
						      j->dist == BQ_DIST_PARETO ? "pareto" :
						      j->dist == BQ_DIST_NORMAL ? "normal" :
						      j->dist == BQ_DIST_ZONED ? "zoned" :
						      j->dist == BQ_DIST_ZONED_ABS ? "zoned_abs" :
						      j->dist == BQ_DIST_SEQUENCE ? "sequence" :
						      "random"));
	json_object_object_add(o, "distribution_param", json_dbl(j->dist_param));
	json_object_object_add(o, "rate_iops", json_u64(j->rate_iops));
	json_object_object_add(o, "ioengine", json_object_new_string(bq_engine_name(j->engine)));
	json_object_object_add(o, "poll", json_object_new_string(j->poll == BQ_POLL_ON ? "on" :
				j->poll == BQ_POLL_OFF ? "off" : "auto"));
	json_object_object_add(o, "fixedbufs", json_object_new_boolean(j->fixedbufs));
	json_object_object_add(o, "registerfiles", json_object_new_boolean(j->registerfiles));
	json_object_object_add(o, "sqthread_poll", json_object_new_boolean(j->sqpoll));
	json_object_object_add(o, "gtod_reduce", json_object_new_boolean(j->gtod_reduce));
	json_object_object_add(o, "cpus_allowed", json_object_new_string(j->cpus_allowed));
	json_object_object_add(o, "continue_on_error", json_object_new_boolean(j->continue_on_error));
	json_object_object_add(o, "verify", json_object_new_string(
		bq_verify_method_name((enum bq_verify_method)j->verify)));
	if (j->verify) {
		json_object_object_add(o, "do_verify", json_object_new_boolean(j->do_verify));
		json_object_object_add(o, "verify_interval", json_u64(bq_job_verify_block(j)));
		json_object_object_add(o, "verify_fatal", json_object_new_boolean(j->verify_fatal));
		json_object_object_add(o, "verify_only", json_object_new_boolean(j->verify_only));
		json_object_object_add(o, "verify_backlog", json_u64(j->verify_backlog));
		json_object_object_add(o, "verify_backlog_batch", json_u64(j->verify_backlog_batch ?
			j->verify_backlog_batch : j->verify_backlog));
		json_object_object_add(o, "verify_offset", json_u64(j->verify_offset));
		json_object_object_add(o, "verify_header_seed",
				       json_object_new_boolean(j->verify_header_seed));
		json_object_object_add(o, "verify_write_sequence",
				       json_object_new_boolean(j->verify_write_sequence));
	}
	/* No filename=: the files fio names (targets lists each). */
	if (!j->nr_files && !bq_engine_has(j->engine, BQ_ENGINE_DISKLESS)) {
		json_object_object_add(o, "directory", json_object_new_string(j->directory));
		json_object_object_add(o, "filename_format",
				       json_object_new_string(j->filename_format));
		json_object_object_add(o, "nrfiles", json_u64(j->nrfiles));
		json_object_object_add(o, "filesize_min", json_u64(j->filesize_lo));
		json_object_object_add(o, "filesize_max", json_u64(j->filesize_hi));
		json_object_object_add(o, "openfiles", json_u64(j->openfiles));
		json_object_object_add(o, "unlink", json_object_new_boolean(j->unlink));
	}
	rates = rates_options_json(j);
	if (rates)
		json_object_object_add(o, "rates", rates);
	job_order_options_json(o, j);
	return o;
}

/*
 * @probe false: a stalled run must not read its targets for their
 * inventory, as a read queued behind the stuck I/O would hang the report.
 */
static json_object *targets_json(struct bq_ctx *ctx, const struct bq_job_result *jr, bool probe)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < jr->nr_targets; i++) {
		const struct bq_target_info *t = &jr->targets[i];
		json_object *o = json_object_new_object();
		struct bq_device dev;

		json_object_object_add(o, "path", json_object_new_string(t->path));
		json_object_object_add(o, "size", json_u64(t->size));
		json_object_object_add(o, "logical_block_size", json_u64(t->lbs));
		json_object_object_add(o, "numa_node", json_object_new_int(t->numa_node));
		json_object_object_add(o, "laid_out", json_object_new_boolean(t->laid_out));
		if (probe && t->devname[0] && !bq_device_load(ctx, t->devname, &dev)) {
			json_object_object_add(o, "device", device_to_json(&dev));
			bq_device_release(&dev);
		}
		if (t->have_stats) {
			const struct bq_diskstats *d = &t->delta;
			json_object *s = json_object_new_object();

			json_object_object_add(s, "read_ios", json_u64(d->ios[0]));
			json_object_object_add(s, "write_ios", json_u64(d->ios[1]));
			json_object_object_add(s, "read_merges", json_u64(d->merges[0]));
			json_object_object_add(s, "write_merges", json_u64(d->merges[1]));
			json_object_object_add(s, "read_sectors", json_u64(d->sectors[0]));
			json_object_object_add(s, "write_sectors", json_u64(d->sectors[1]));
			json_object_object_add(s, "read_ticks_ms", json_u64(d->ticks_ms[0]));
			json_object_object_add(s, "write_ticks_ms", json_u64(d->ticks_ms[1]));
			json_object_object_add(s, "discard_ios", json_u64(d->discards));
			json_object_object_add(s, "in_flight", json_u64(d->in_flight));
			json_object_object_add(s, "io_ticks_ms", json_u64(d->io_ticks_ms));
			json_object_object_add(s, "time_in_queue_ms", json_u64(d->time_in_queue_ms));
			json_object_object_add(s, "util_pct",
					       json_dbl(bq_diskstats_util(d, t->stats_window_ns)));
			json_object_object_add(o, "disk_stats", s);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *errors_json(const struct bq_job_result *jr, const struct bq_thread_result *sum)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < sum->nr_errors; i++) {
		const struct bq_io_error *e = &sum->errors[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "direction", json_object_new_string(dir_names[e->dir]));
		json_object_object_add(o, "target", json_object_new_string(jr->nr_targets ?
				       jr->targets[e->file].path : ""));
		json_object_object_add(o, "offset", json_u64(e->offset));
		json_object_object_add(o, "length", json_u64(e->len));
		json_object_object_add(o, "errno", json_object_new_int(e->err));
		json_object_object_add(o, "error", json_object_new_string(strerror(e->err)));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *stalls_json(const struct bq_job_result *jr)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < jr->nr_stalls; i++) {
		const struct bq_stall *s = &jr->stalls[i];
		json_object *o = json_object_new_object(), *ios = json_object_new_array();

		json_object_object_add(o, "thread", json_object_new_int(s->thread));
		json_object_object_add(o, "cpu", json_object_new_int(s->cpu));
		json_object_object_add(o, "stalled_ns", json_u64(s->stalled_ns));
		json_object_object_add(o, "outstanding", json_u64(s->outstanding));
		json_object_object_add(o, "in_fsync", json_object_new_boolean(s->in_fsync));
		for (int k = 0; k < s->nr_ios; k++) {
			const struct bq_stall_io *io = &s->ios[k];
			json_object *x = json_object_new_object();

			json_object_object_add(x, "direction", json_object_new_string(dir_names[io->dir]));
			json_object_object_add(x, "target", json_object_new_string(target_name(jr, io->file)));
			json_object_object_add(x, "offset", json_u64(io->offset));
			json_object_object_add(x, "length", json_u64(io->len));
			json_object_object_add(x, "age_ns", json_u64(io->age_ns));
			json_object_array_add(ios, x);
		}
		json_object_object_add(o, "ios", ios);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *intervals_json(const struct bq_job_result *jr)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < jr->nr_intervals; i++) {
		const struct bq_interval *iv = &jr->intervals[i];
		uint64_t span = iv->t_ns - (i ? jr->intervals[i - 1].t_ns : 0);
		json_object *o = json_object_new_object();

		json_object_object_add(o, "t_ns", json_u64(iv->t_ns));
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "ios", json_u64(iv->ios[d]));
			json_object_object_add(x, "iops", json_dbl(per_second(iv->ios[d], span)));
			json_object_object_add(x, "bytes_per_second", json_dbl(per_second(iv->bytes[d], span)));
			json_object_object_add(x, "mean_ns", json_dbl(iv->mean_ns[d]));
			json_object_object_add(x, "p99_ns", json_u64(iv->p99_ns[d]));
			json_object_object_add(o, dir_names[d], x);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *thread_json(const struct bq_thread_result *t, uint64_t runtime)
{
	json_object *o = json_object_new_object(), *cpu = json_object_new_object();
	uint64_t ios = t->d[BQ_READ].ios + t->d[BQ_WRITE].ios + t->trim.ios;
	uint64_t cpu_ns = t->usr_ns + t->sys_ns + t->sqpoll_ns;

	json_object_object_add(o, "cpu", json_object_new_int(t->cpu));
	json_object_object_add(o, "node", json_object_new_int(t->node));
	json_object_object_add(o, "buffer_node", json_object_new_int(t->buf_node));
	for (int d = 0; d < BQ_NR_DIRS; d++)
		json_object_object_add(o, dir_names[d], dir_json(&t->d[d], runtime));
	json_object_object_add(o, dir_names[TRIM_DIR], dir_json(&t->trim, runtime));
	json_object_object_add(cpu, "usr_ns", json_u64(t->usr_ns));
	json_object_object_add(cpu, "sys_ns", json_u64(t->sys_ns));
	json_object_object_add(cpu, "voluntary_ctx", json_u64(t->vol_cs));
	json_object_object_add(cpu, "involuntary_ctx", json_u64(t->invol_cs));
	json_object_object_add(cpu, "sqpoll_ns", json_u64(t->sqpoll_ns));
	json_object_object_add(cpu, "ios_per_cpu_second", json_dbl(cpu_ns ? (double)ios * 1e9 /
							   (double)cpu_ns : 0));
	json_object_object_add(o, "cpu_usage", cpu);
	json_object_object_add(o, "fsyncs", json_u64(t->syncs));
	/* zonemode=zbd: fio's "zone resets" */
	if (t->zone_resets)
		json_object_object_add(o, "zone_resets", json_u64(t->zone_resets));
	json_object_object_add(o, "mean_depth", json_dbl(t->mean_depth));
	json_object_object_add(o, "ring_flags", json_u64(t->ring_flags));
	return o;
}

static json_object *stripe_json(const struct bq_job_result *jr,
				const struct bq_thread_result *sum)
{
	json_object *o = json_object_new_object(), *members = json_object_new_array();

	json_object_object_add(o, "chunk", json_u64(jr->job.stripe_chunk));
	json_object_object_add(o, "layout", json_object_new_string(
		jr->job.stripe_layout == 1 ? "original" : jr->job.stripe_layout == 2 ?
		"alternate" : "none"));
	json_object_object_add(o, "size", json_u64(jr->stripe_size));
	json_object_object_add(o, "load_cv", json_dbl(member_cv(sum)));
	for (int m = 0; m < sum->nr_members; m++) {
		const struct bq_member_result *r = &sum->members[m];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "path", json_object_new_string(jr->targets[m].path));
		json_object_object_add(x, "ios", json_u64(r->ios));
		json_object_object_add(x, "bytes", json_u64(r->bytes));
		json_object_object_add(x, "errors", json_u64(r->errors));
		json_object_object_add(x, "mean_ns", json_dbl(bq_hist_mean(&r->lat)));
		json_object_object_add(x, "p99_ns", json_u64(r->lat.count ?
					bq_hist_percentile(&r->lat, 99) : 0));
		json_object_array_add(members, x);
	}
	json_object_object_add(o, "members", members);
	return o;
}

/* The job's threads added up: what compare and report read. */
static json_object *total_json(const struct bq_job_result *jr, const struct bq_thread_result *sum)
{
	json_object *total = thread_json(sum, jr->runtime_ns);

	json_object_object_del(total, "cpu");
	json_object_object_del(total, "node");
	json_object_object_del(total, "buffer_node");
	json_object_object_del(total, "ring_flags");
	return total;
}

/* The job as options that make it again ("blkqual run --replay"). */
static json_object *job_args_json(const struct bq_job *j)
{
	struct bq_strv args = { 0 };
	json_object *arr;

	if (bq_job_to_args(j, &args)) {
		bq_strv_free(&args);
		return NULL;
	}
	arr = json_object_new_array();
	for (size_t i = 0; i < args.n; i++)
		json_object_array_add(arr, json_object_new_string(args.v[i]));
	bq_strv_free(&args);
	return arr;
}

static json_object *job_json(struct bq_ctx *ctx, const struct bq_job_result *jr, bool probe)
{
	json_object *o = json_object_new_object(), *placement = json_object_new_array();
	json_object *threads = json_object_new_array(), *compl = json_object_new_object();
	struct bq_thread_result sum;

	json_object_object_add(o, "name", json_object_new_string(jr->job.name));
	json_object_object_add(o, "options", job_options_json(&jr->job));
	json_object_object_add(o, "job_args", job_args_json(&jr->job));
	json_object_object_add(o, "targets", targets_json(ctx, jr, probe));
	json_object_object_add(compl, "polled", json_object_new_boolean(jr->polled));
	json_object_object_add(compl, "note", json_object_new_string(jr->poll_note));
	json_object_object_add(o, "completions", compl);
	json_object_object_add(o, "clock", json_object_new_string(jr->clock_mhz ? "tsc" :
										 "clock_gettime"));
	json_object_object_add(o, "clock_mhz", json_dbl(jr->clock_mhz));
	for (int i = 0; i < jr->nr_threads; i++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "thread", json_object_new_int(i));
		json_object_object_add(p, "cpu", json_object_new_int(jr->threads[i].cpu));
		json_object_object_add(p, "node", json_object_new_int(jr->threads[i].node));
		json_object_object_add(p, "buffer_node", json_object_new_int(jr->threads[i].buf_node));
		json_object_array_add(placement, p);
		json_object_array_add(threads, thread_json(&jr->threads[i], jr->runtime_ns));
	}
	json_object_object_add(o, "placement", placement);
	json_object_object_add(o, "runtime_ns", json_u64(jr->runtime_ns));
	job_order_json(o, jr);
	if (!job_total(jr, &sum)) {
		json_object_object_add(o, "total", total_json(jr, &sum));
		/* total.mean_depth is per thread, like each thread's. */
		json_object_object_add(o, "mean_depth_all_threads",
				       json_dbl(sum.mean_depth * jr->nr_threads));
		json_object_object_add(o, "errors", errors_json(jr, &sum));
		json_object_object_add(o, "error_groups",
				       error_groups_json(&sum, jr->targets, jr->nr_targets));
		/* ignore_error's: counted among the errors, but expected. */
		if (sum.ignored_errors)
			json_object_object_add(o, "ignored_errors", json_u64(sum.ignored_errors));
		if (jr->stripe_size)
			json_object_object_add(o, "stripe", stripe_json(jr, &sum));
		if (jr->trace)
			json_object_object_add(o, "block_trace", block_trace_json(jr->trace, &sum));
		job_total_free(&sum);
	}
	json_object_object_add(o, "threads", threads);
	json_object_object_add(o, "intervals", intervals_json(jr));
	if (jr->verify)
		json_object_object_add(o, "verify", verify_json(jr->verify));
	if (jr->notes[0])
		json_object_object_add(o, "note", json_object_new_string(jr->notes));
	if (jr->fault[0])
		json_object_object_add(o, "target_gone", json_object_new_string(jr->fault));
	if (jr->nr_stalls)
		json_object_object_add(o, "stalls", stalls_json(jr));
	for (int i = 0; i < jr->nr_threads; i++)
		if (jr->threads[i].gave_up)
			json_object_object_add(json_object_array_get_idx(threads, (size_t)i), "gave_up",
					       json_object_new_boolean(true));
	for (int i = 0; rates_used(&jr->job) && i < jr->nr_threads; i++)
		json_object_object_add(json_object_array_get_idx(threads, (size_t)i), "rates",
				       rates_json(&jr->job, &jr->threads[i].rates));
	return o;
}

/**
 * report_repetition_json() - one repetition of a --repeat run, in brief
 * @res: that repetition's results
 *
 * Return: {"start_unix_ns", "interrupted", "jobs": [{"name", "runtime_ns",
 * "total"}]}, the totals shaped as in report_json(), or NULL.
 */
json_object *report_repetition_json(const struct bq_results *res)
{
	json_object *root = json_object_new_object(), *jobs = json_object_new_array();

	json_object_object_add(root, "start_unix_ns", json_u64(res->start_unix_ns));
	json_object_object_add(root, "interrupted", json_object_new_boolean(res->interrupted));
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];
		json_object *o = json_object_new_object();
		struct bq_thread_result sum;

		json_object_object_add(o, "name", json_object_new_string(jr->job.name));
		json_object_object_add(o, "runtime_ns", json_u64(jr->runtime_ns));
		if (!job_total(jr, &sum)) {
			json_object_object_add(o, "total", total_json(jr, &sum));
			job_total_free(&sum);
		}
		json_object_array_add(jobs, o);
	}
	json_object_object_add(root, "jobs", jobs);
	return root;
}

/**
 * report_json() - the whole run as one JSON document
 * @ctx: context, for the device inventory of each target and the host
 * @res: the results
 *
 * Return: the document (json_object_put() it), or NULL without memory.
 */
json_object *report_json(struct bq_ctx *ctx, const struct bq_results *res)
{
	json_object *root = json_object_new_object(), *jobs = json_object_new_array();
	struct bq_host host;

	json_object_object_add(root, "schema_version", json_object_new_int(1));
	json_object_object_add(root, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	json_object_object_add(root, "start_unix_ns", json_u64(res->start_unix_ns));
	json_object_object_add(root, "interrupted", json_object_new_boolean(res->interrupted));
	json_object_object_add(root, "stalled", json_object_new_boolean(res->stalled));
	json_object_object_add(root, "target_gone", json_object_new_boolean(res->gone));
	if (!bq_host_scan(ctx, &host)) {
		json_object_object_add(root, "host", host_to_json(&host));
		bq_host_release(&host);
	}
	for (size_t k = 0; k < res->nr; k++)
		json_object_array_add(jobs, job_json(ctx, &res->jobs[k], !res->stalled));
	json_object_object_add(root, "jobs", jobs);
	json_object_object_add(root, "groups", groups_json(res));
	return root;
}
