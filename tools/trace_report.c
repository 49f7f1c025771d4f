// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_report.c - --trace=block in run's reports: per device and
 * direction, the time requests spent queued and in the device beside the
 * tester's own latency, and where completions ran
 */
#include <inttypes.h>
#include <stdio.h>

#include "report_util.h"
#include "trace_report.h"

static const char *const trace_dirs[] = { "read", "write" };

/*
 * What the tester saw beyond the block layer's two stages: submission,
 * interrupt, reaping.  The callers give it only for a device the job's
 * I/O went to whole (not an array's member) and with the job's latency.
 */
static double remainder_ns(const struct bq_dir_result *d, const struct bq_hist *stage)
{
	if (!d->lat.count || !stage[BQ_STAGE_DEVICE].count)
		return 0;
	return bq_hist_mean(&d->lat) - bq_hist_mean(&stage[BQ_STAGE_QUEUE]) -
	       bq_hist_mean(&stage[BQ_STAGE_DEVICE]);
}

/* Completions on the submitting CPU, and on its node, in per cent of all known. */
static void completion_shares(const struct bq_trace_result *t, double *cpu_pct, double *node_pct,
			      uint64_t *total)
{
	uint64_t all = 0, same_cpu = 0, same_node = 0, known = 0;

	for (int s = 0; s < BQ_TRACE_MAX_CPUS; s++) {
		for (int c = 0; c < BQ_TRACE_MAX_CPUS; c++) {
			uint64_t n = t->cpus[s][c];

			all += n;
			if (s == c)
				same_cpu += n;
			if (t->cpu_node[s] >= 0 && t->cpu_node[c] >= 0) {
				known += n;
				if (t->cpu_node[s] == t->cpu_node[c])
					same_node += n;
			}
		}
	}
	*total = all;
	*cpu_pct = all ? 100.0 * (double)same_cpu / (double)all : 0;
	*node_pct = known ? 100.0 * (double)same_node / (double)known : 0;
}

static json_object *dev_json(const struct bq_trace_dev *d, const struct bq_thread_result *sum)
{
	json_object *o = json_object_new_object(), *rq = json_object_new_object();
	json_object *stages = json_object_new_object(), *hq = json_object_new_array();
	json_object *irqs = json_object_new_array();

	json_object_object_add(o, "device", json_object_new_string(d->name));
	json_object_object_add(o, "numa_node", json_object_new_int(d->numa_node));
	json_object_object_add(o, "rq_affinity", json_object_new_int(d->rq_affinity));
	if (d->member_of[0])
		json_object_object_add(o, "member_of", json_object_new_string(d->member_of));
	for (int dir = 0; dir < 2; dir++) {
		json_object *s = json_object_new_object();

		json_object_object_add(rq, trace_dirs[dir],
				       json_u64(d->stage[dir][BQ_STAGE_DEVICE].count));
		json_object_object_add(s, "queue", hist_json(&d->stage[dir][BQ_STAGE_QUEUE]));
		json_object_object_add(s, "device", hist_json(&d->stage[dir][BQ_STAGE_DEVICE]));
		if (sum && !d->member_of[0])
			json_object_object_add(s, "tester_remainder_mean_ns",
					       json_dbl(remainder_ns(&sum->d[dir], d->stage[dir])));
		json_object_object_add(stages, trace_dirs[dir], s);
	}
	json_object_object_add(rq, "other", json_u64(d->other));
	json_object_object_add(o, "requests", rq);
	json_object_object_add(o, "merges", json_u64(d->merges));
	json_object_object_add(o, "splits", json_u64(d->splits));
	json_object_object_add(o, "no_start_time", json_u64(d->no_start));
	json_object_object_add(o, "untracked", json_u64(d->untracked));
	json_object_object_add(o, "requeues", json_u64(d->requeues));
	json_object_object_add(o, "stages", stages);
	for (int q = 0; q < BQ_TRACE_MAX_HCTX; q++) {
		json_object *e;

		if (!d->hctx[q])
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "hw_queue", json_object_new_int(q));
		json_object_object_add(e, "requests", json_u64(d->hctx[q]));
		json_object_array_add(hq, e);
	}
	json_object_object_add(o, "hw_queues", hq);
	for (int i = 0; i < d->nr_irqs; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "irq", json_object_new_int(d->irqs[i].irq));
		json_object_object_add(e, "effective_cpus", json_object_new_string(d->irqs[i].cpus));
		json_object_array_add(irqs, e);
	}
	json_object_object_add(o, "interrupts", irqs);
	return o;
}

/**
 * block_trace_json() - a trace's figures: a job's "block_trace" object
 * @t: the trace's figures
 * @sum: the job's threads' totals, for the tester's latency; NULL when
 *	the I/O was someone else's (blkqual trace)
 *
 * Return: the object.
 */
json_object *block_trace_json(const struct bq_trace_result *t, const struct bq_thread_result *sum)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array();
	json_object *map = json_object_new_array(), *c = json_object_new_object();
	double cpu_pct, node_pct;
	uint64_t total;

	json_object_object_add(o, "window_ns", json_u64(t->window_ns));
	for (int i = 0; i < t->nr_devs; i++)
		json_object_array_add(devs, dev_json(&t->devs[i], sum));
	json_object_object_add(o, "devices", devs);
	completion_shares(t, &cpu_pct, &node_pct, &total);
	json_object_object_add(c, "total", json_u64(total));
	json_object_object_add(c, "on_submitter_cpu_pct", json_dbl(cpu_pct));
	json_object_object_add(c, "on_submitter_node_pct", json_dbl(node_pct));
	for (int s = 0; s < BQ_TRACE_MAX_CPUS; s++) {
		for (int cpu = 0; cpu < BQ_TRACE_MAX_CPUS; cpu++) {
			json_object *e;

			if (!t->cpus[s][cpu])
				continue;
			e = json_object_new_object();
			json_object_object_add(e, "submit_cpu", json_object_new_int(s));
			json_object_object_add(e, "complete_cpu", json_object_new_int(cpu));
			json_object_object_add(e, "submit_node", json_object_new_int(t->cpu_node[s]));
			json_object_object_add(e, "complete_node",
					       json_object_new_int(t->cpu_node[cpu]));
			json_object_object_add(e, "requests", json_u64(t->cpus[s][cpu]));
			json_object_array_add(map, e);
		}
	}
	json_object_object_add(c, "map", map);
	json_object_object_add(o, "completions", c);
	return o;
}

/*
 * What the completion figures are read against: the device's node,
 * rq_affinity, interrupts, and the hardware queues its requests used.
 */
static void print_device_facts(FILE *out, const struct bq_trace_dev *d)
{
	bool first = true;

	fprintf(out, "    %s: NUMA node %d, rq_affinity %d", d->name, d->numa_node, d->rq_affinity);
	for (int i = 0; i < d->nr_irqs; i++)
		fprintf(out, "%s%d->%s", i ? ", " : "; interrupts (irq->CPUs) ", d->irqs[i].irq,
			d->irqs[i].cpus);
	for (int q = 0; q < BQ_TRACE_MAX_HCTX; q++) {
		if (!d->hctx[q])
			continue;
		fprintf(out, "%s%d: %" PRIu64, first ? "; requests per hardware queue " : ", ", q,
			d->hctx[q]);
		first = false;
	}
	fputc('\n', out);
}

/* The completion map: submitting CPU (node) -> completing CPU (node), requests. */
static void print_cpu_map(FILE *out, const struct bq_trace_result *t)
{
	bool first = true;

	for (int s = 0; s < BQ_TRACE_MAX_CPUS; s++) {
		for (int c = 0; c < BQ_TRACE_MAX_CPUS; c++) {
			if (!t->cpus[s][c])
				continue;
			fprintf(out, "%s      %d (node %d) -> %d (node %d): %" PRIu64 "\n",
				first ? "    completions by CPU, submitting -> completing:\n" : "",
				s, t->cpu_node[s], c, t->cpu_node[c], t->cpus[s][c]);
			first = false;
		}
	}
}

static void print_stage_line(FILE *out, const char *what, const struct bq_hist *h)
{
	char mean[32], p50[32], p99[32];

	fmt_lat(mean, sizeof(mean), bq_hist_mean(h));
	fmt_lat(p50, sizeof(p50), (double)bq_hist_percentile(h, 50));
	fmt_lat(p99, sizeof(p99), (double)bq_hist_percentile(h, 99));
	fprintf(out, "      %-8s mean=%s p50=%s p99=%s\n", what, mean, p50, p99);
}

/**
 * print_block_trace() - the text report's "where the time went" block
 * @out: where
 * @title: its first line
 * @t: the trace's figures
 * @sum: the job's threads' totals, or NULL (blkqual trace)
 */
void print_block_trace(FILE *out, const char *title, const struct bq_trace_result *t,
		       const struct bq_thread_result *sum)
{
	double cpu_pct, node_pct;
	uint64_t total;

	fprintf(out, "%s\n", title);
	for (int i = 0; i < t->nr_devs; i++) {
		const struct bq_trace_dev *d = &t->devs[i];

		fprintf(out, "    %s%s%s: %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
			" other requests; %" PRIu64 " merges, %" PRIu64 " splits\n", d->name,
			d->member_of[0] ? ", member of " : "", d->member_of,
			d->stage[0][BQ_STAGE_DEVICE].count, d->stage[1][BQ_STAGE_DEVICE].count,
			d->other, d->merges, d->splits);
		for (int dir = 0; dir < 2; dir++) {
			char rest[32];

			if (!d->stage[dir][BQ_STAGE_DEVICE].count)
				continue;
			fprintf(out, "    %s:\n", trace_dirs[dir]);
			print_stage_line(out, "queued", &d->stage[dir][BQ_STAGE_QUEUE]);
			print_stage_line(out, "device", &d->stage[dir][BQ_STAGE_DEVICE]);
			if (sum && sum->d[dir].lat.count && !d->member_of[0]) {
				fmt_lat(rest, sizeof(rest), remainder_ns(&sum->d[dir], d->stage[dir]));
				fprintf(out, "      %-8s mean=%s (submission, completion, reaping)\n",
					"tester", rest);
			}
		}
	}
	completion_shares(t, &cpu_pct, &node_pct, &total);
	if (total)
		fprintf(out, "    completions: %.1f%% on the submitting CPU, %.1f%% on its node\n",
			cpu_pct, node_pct);
	print_cpu_map(out, t);
	for (int i = 0; i < t->nr_devs; i++)
		print_device_facts(out, &t->devs[i]);
}
