// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_report.c - blkqual replay's results in dbench's layout, and as JSON
 *
 * The text is dbench's, line for line where dbench has the line, so that
 * scripts reading dbench's output (the Throughput line above all) read
 * ours: the per-second lines, the Operation/Count/AvgLat/MaxLat table in
 * milliseconds, the Throughput line last.  What dbench does not have (the
 * status mismatches) comes just before the Throughput line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay_report.h"
#include "report_util.h"

void replay_print_progress(FILE *out, int clients, const struct bq_replay_progress *p)
{
	if (p->warmup)
		fprintf(out, "%4d  %8" PRIu64 "  %7.2f MB/sec  warmup %3.0f sec  latency %.03f ms\n",
			clients, p->lines, p->mb_s, (double)p->t_ns / 1e9,
			(double)p->max_lat_ns / 1e6);
	else
		fprintf(out, "%4d  %8" PRIu64 "  %7.2f MB/sec  execute %3.0f sec  latency %.03f ms\n",
			clients, p->lines, p->mb_s, (double)p->exec_ns / 1e9,
			(double)p->max_lat_ns / 1e6);
	fflush(out);
}

static double avg_ms(const struct bq_op_stat *s)
{
	return s->count ? (double)s->lat_sum_ns / (double)s->count / 1e6 : 0;
}

static double max_ms(const struct bq_op_stat *s)
{
	return s->lat.count ? (double)s->lat.max / 1e6 : 0;
}

static void print_table(FILE *out, const struct bq_op_stat *op)
{
	fprintf(out, " Operation      Count    AvgLat    MaxLat\n");
	fprintf(out, " ----------------------------------------\n");
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		if (!op[k].count)
			continue;
		fprintf(out, " %-12s %7" PRIu64 " %9.03f %9.03f\n", bq_replay_kind_name(k),
			op[k].count, avg_ms(&op[k]), max_ms(&op[k]));
	}
	fprintf(out, "\n");
}

static void mismatch_text(char *buf, size_t len, const struct bq_loadfile *lf,
			  const struct bq_replay_mismatch *m)
{
	char code[16];

	if (m->what == BQ_REPLAY_MISMATCH_STATUS)
		snprintf(buf, len, "%s expected %s, got %s", bq_replay_op_name(m->kind),
			 lf->statuses[m->expected].name,
			 bq_nt_status_name((uint32_t)m->got, code, sizeof(code)));
	else
		snprintf(buf, len, "%s expected %" PRIu64 " %s, got %" PRIu64,
			 bq_replay_op_name(m->kind), m->expected,
			 m->kind == BQ_REPLAY_FIND ? "entries" : "bytes", m->got);
}

static uint64_t lines_done(const struct bq_replay_result *res, int clients)
{
	uint64_t n = 0;

	for (int i = 0; i < clients; i++)
		n += res->lines[i];
	return n;
}

void replay_print_report(FILE *out, const struct replay_info *ri, const struct bq_loadfile *lf,
			 const struct bq_replay_result *res)
{
	char text[256];

	fprintf(out, "\n");
	print_table(out, res->ops.total);
	if (ri->per_client) {
		fprintf(out, "Per client results:\n");
		for (int i = 0; i < res->ops.nr_threads; i++) {
			const struct bq_ops_thread *t = &res->ops.threads[i];
			uint64_t bytes = 0;

			for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++)
				bytes += t->op[k].bytes;
			fprintf(out, "Client %d did %" PRIu64 " lines and %" PRIu64 " bytes\n", i,
				res->lines[i], bytes);
			print_table(out, t->op);
		}
	}
	if (!res->warmed)
		fprintf(out, "Stopped during the warmup: the figures include it.\n");
	fprintf(out, "Status mismatches: %" PRIu64 " of %" PRIu64 " operations\n",
		res->mismatches, lines_done(res, ri->clients));
	for (size_t i = 0; i < res->nr_classes && i < 20; i++) {
		const struct bq_replay_mismatch *m = &res->classes[i];

		mismatch_text(text, sizeof(text), lf, m);
		fprintf(out, " %9" PRIu64 "  %s (first at %s:%u)\n", m->count, text, lf->name,
			m->first_line);
	}
	if (res->nr_classes > 20)
		fprintf(out, "       ...  %zu more kinds in the JSON output\n",
			res->nr_classes - 20);
	fprintf(out, "\n");
	if (ri->o->lean)
		fprintf(out, "Lean (--lean): fewer system calls than dbench makes, "
			"so this throughput does not compare with dbench's.\n");
	fprintf(out, "Throughput %g MB/sec%s%s%s  %d clients  %d procs  max_latency=%.03f ms\n",
		res->mb_s, ri->o->sync_open ? " (sync open)" : "",
		ri->o->sync_dirs ? " (sync dirs)" : "", ri->o->lean ? " (lean)" : "",
		ri->clients, ri->procs,
		(double)res->max_lat_ns / 1e6);
}

/* ---- JSON ------------------------------------------------------------------ */

static json_object *ops_json(const struct bq_op_stat *op, const struct bq_loadfile *lf)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		json_object *j;

		if (!op[k].count && !lf->per_kind[k])
			continue;
		j = json_object_new_object();
		json_object_object_add(j, "loadfile_name", json_object_new_string(bq_replay_op_name(k)));
		json_object_object_add(j, "count", json_u64(op[k].count));
		json_object_object_add(j, "avg_lat_ms", json_dbl(avg_ms(&op[k])));
		json_object_object_add(j, "max_lat_ms", json_dbl(max_ms(&op[k])));
		json_object_object_add(j, "bytes", json_u64(op[k].bytes));
		json_object_object_add(j, "mismatches", json_u64(op[k].errors));
		json_object_object_add(j, "latency_ns", hist_json(&op[k].lat));
		json_object_object_add(o, bq_replay_kind_name(k), j);
	}
	return o;
}

static json_object *mismatches_json(const struct replay_info *ri, const struct bq_loadfile *lf,
				    const struct bq_replay_result *res)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char code[16], at[300];

	json_object_object_add(o, "total", json_u64(res->mismatches));
	json_object_object_add(o, "operations", json_u64(lines_done(res, ri->clients)));
	for (size_t i = 0; i < res->nr_classes; i++) {
		const struct bq_replay_mismatch *m = &res->classes[i];
		json_object *j = json_object_new_object();
		bool status = m->what == BQ_REPLAY_MISMATCH_STATUS;

		json_object_object_add(j, "operation",
				       json_object_new_string(bq_replay_op_name(m->kind)));
		json_object_object_add(j, "what", json_object_new_string(status ? "status" :
					m->kind == BQ_REPLAY_FIND ? "entries" : "bytes"));
		if (status) {
			json_object_object_add(j, "expected",
					json_object_new_string(lf->statuses[m->expected].name));
			json_object_object_add(j, "got", json_object_new_string(
					bq_nt_status_name((uint32_t)m->got, code, sizeof(code))));
		} else {
			json_object_object_add(j, "expected", json_u64(m->expected));
			json_object_object_add(j, "got", json_u64(m->got));
		}
		json_object_object_add(j, "count", json_u64(m->count));
		snprintf(at, sizeof(at), "%s:%u", lf->name, m->first_line);
		json_object_object_add(j, "first_at", json_object_new_string(at));
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "classes", a);
	return o;
}

static json_object *progress_json(const struct replay_info *ri)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ri->nr_progress; i++) {
		const struct bq_replay_progress *p = &ri->progress[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "t_s", json_dbl((double)p->t_ns / 1e9));
		json_object_object_add(j, "phase",
				       json_object_new_string(p->warmup ? "warmup" : "execute"));
		json_object_object_add(j, "lines", json_u64(p->lines));
		json_object_object_add(j, "mb_s", json_dbl(p->mb_s));
		json_object_object_add(j, "latency_ms", json_dbl((double)p->max_lat_ns / 1e6));
		json_object_object_add(j, "ops", json_u64(p->ops));
		json_object_object_add(j, "mismatches", json_u64(p->mismatches));
		json_object_array_add(a, j);
	}
	return a;
}

static json_object *clients_json(const struct bq_loadfile *lf, const struct bq_replay_result *res)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < res->ops.nr_threads; i++) {
		const struct bq_ops_thread *t = &res->ops.threads[i];
		json_object *j = json_object_new_object();
		uint64_t bytes = 0;

		for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++)
			bytes += t->op[k].bytes;
		json_object_object_add(j, "client", json_object_new_int(i));
		json_object_object_add(j, "lines", json_u64(res->lines[i]));
		json_object_object_add(j, "bytes", json_u64(bytes));
		json_object_object_add(j, "operations", ops_json(t->op, lf));
		json_object_array_add(a, j);
	}
	return a;
}

json_object *replay_json(const struct replay_info *ri, const struct bq_loadfile *lf,
			 const struct bq_replay_result *res)
{
	const struct bq_replay_opts *o = ri->o;
	json_object *doc = result_json_new("replay"), *j;

	json_object_object_add(doc, "loadfile", json_object_new_string(ri->loadfile));
	json_object_object_add(doc, "directory", json_object_new_string(ri->dir));
	json_object_object_add(doc, "clients", json_object_new_int(ri->clients));
	json_object_object_add(doc, "procs", json_object_new_int(ri->procs));
	json_object_object_add(doc, "time_s", json_dbl((double)o->time_ns / 1e9));
	json_object_object_add(doc, "warmup_s", json_dbl((double)o->warmup_ns / 1e9));

	j = json_object_new_object();
	json_object_object_add(j, "run_once", json_object_new_boolean(o->run_once));
	json_object_object_add(j, "sync_open", json_object_new_boolean(o->sync_open));
	json_object_object_add(j, "sync_dirs", json_object_new_boolean(o->sync_dirs));
	json_object_object_add(j, "fsync_writes", json_object_new_boolean(o->fsync_writes));
	json_object_object_add(j, "case_sensitive", json_object_new_boolean(o->case_sensitive));
	/* Whether the figures are dbench's (its system calls) or the lean ones. */
	json_object_object_add(j, "system_calls", json_object_new_string(o->lean ? "lean" : "dbench"));
	json_object_object_add(j, "target_rate_mb_s", json_dbl(o->target_rate));
	json_object_object_add(doc, "options", j);

	j = json_object_new_object();
	json_object_object_add(j, "lines", json_u64(lf->nr_ops));
	json_object_object_add(j, "paths", json_object_new_int64(lf->nr_paths));
	json_object_object_add(j, "handles", json_object_new_int64(lf->nr_handles));
	json_object_object_add(j, "timestamps", json_object_new_boolean(lf->time_ns != NULL));
	json_object_object_add(j, "parse_s", json_dbl((double)ri->parse_ns / 1e9));
	json_object_object_add(doc, "parsed", j);

	json_object_object_add(doc, "interrupted", json_object_new_boolean(ri->signal != 0));
	json_object_object_add(doc, "warmed", json_object_new_boolean(res->warmed));
	json_object_object_add(doc, "runtime_s", json_dbl((double)res->ops.runtime_ns / 1e9));
	json_object_object_add(doc, "measured_s", json_dbl((double)res->exec_ns / 1e9));
	json_object_object_add(doc, "throughput_mb_s", json_dbl(res->mb_s));
	json_object_object_add(doc, "bytes", json_u64(res->bytes));
	json_object_object_add(doc, "max_latency_ms", json_dbl((double)res->max_lat_ns / 1e6));
	json_object_object_add(doc, "loops", json_u64(res->loops));
	json_object_object_add(doc, "operations", ops_json(res->ops.total, lf));
	json_object_object_add(doc, "mismatches", mismatches_json(ri, lf, res));

	j = json_object_new_object();
	json_object_object_add(j, "total_pct", json_dbl(res->ops.cpu_total_pct));
	json_object_object_add(j, "sys_pct", json_dbl(res->ops.cpu_sys_pct));
	json_object_object_add(j, "usr_s", json_dbl((double)res->ops.usr_ns / 1e9));
	json_object_object_add(j, "sys_s", json_dbl((double)res->ops.sys_ns / 1e9));
	json_object_object_add(doc, "cpu", j);
	json_object_object_add(doc, "progress", progress_json(ri));
	json_object_object_add(doc, "per_client", clients_json(lf, res));
	return doc;
}
