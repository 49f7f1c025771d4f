// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_report.c - what verify= and blkqual verify found: counts per
 * class, the first bad blocks with what was expected and what was there,
 * and the read-back phase's own figures
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "error_report.h"
#include "report_util.h"
#include "verify_report.h"

static void fmt_time(char *buf, size_t len, uint64_t unix_ns)
{
	time_t t = (time_t)(unix_ns / 1000000000ULL);
	struct tm tm;

	if (!unix_ns || !gmtime_r(&t, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03uZ",
		 (unsigned int)(unix_ns % 1000000000ULL / 1000000ULL));
}

static json_object *hex64(uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%016" PRIx64, v);
	return json_object_new_string(s);
}

static void expected_text(FILE *out, const struct bq_vexpect *e)
{
	fprintf(out, "expected offset %" PRIu64, e->offset);
	if (e->have_gen && e->gen_lo != e->gen_hi)
		fprintf(out, " gen %" PRIu64 " or %" PRIu64, e->gen_lo, e->gen_hi);
	else if (e->have_gen)
		fprintf(out, " gen %" PRIu64, e->gen_hi);
	if (e->have_seed)
		fprintf(out, " seed %016" PRIx64, e->seed);
}

/**
 * verify_bad_line() - one bad block, on one line (no indent, with newline)
 * @out: where
 * @b: the block
 */
void verify_bad_line(FILE *out, const struct bq_vbad *b)
{
	const struct bq_vhdr *h = &b->found;
	char when[40];

	fprintf(out, "offset %" PRIu64 ": %s: ", b->offset, bq_verify_class_name(b->cls));
	expected_text(out, &b->expected);
	if (b->cls == BQ_VCLASS_READ_ERROR) {
		fprintf(out, "; the read failed: %s\n", strerror(b->err));
		return;
	}
	if (!b->found_header) {
		fprintf(out, "; found no header");
	} else {
		fmt_time(when, sizeof(when), h->timestamp_ns);
		fprintf(out, "; found offset %" PRIu64 " gen %" PRIu64 " seed %016" PRIx64
			" (%s, %u bytes, written %s by thread %u), checksum %" PRIx64
			" (computed %" PRIx64 ")", h->offset, h->generation, h->seed,
			bq_verify_method_name((enum bq_verify_method)h->method), h->length, when,
			h->thread, h->checksum, b->computed);
	}
	if (b->cls == BQ_VCLASS_TORN || b->cls == BQ_VCLASS_CORRUPTED)
		fprintf(out, "; %u of %u sectors hold the newest data, %u older data",
			b->sectors_new, b->sectors, b->sectors_old);
	if (b->cls == BQ_VCLASS_CORRUPTED && b->first_diff >= 0)
		fprintf(out, ", first bad byte at +%" PRId64, b->first_diff);
	fputc('\n', out);
}

static void counts_text(FILE *out, const struct bq_verify_report *v)
{
	bool first = true;

	for (int c = 1; c < BQ_VCLASS_NR; c++) {
		if (!v->count[c])
			continue;
		fprintf(out, "%s%s %" PRIu64, first ? " (" : ", ",
			bq_verify_class_name((enum bq_verify_class)c), v->count[c]);
		first = false;
	}
	if (!first)
		fputc(')', out);
}

/**
 * verify_print() - a verify report for people
 * @out: where
 * @v: the report
 * @indent: leading text of every line
 */
void verify_print(FILE *out, const struct bq_verify_report *v, const char *indent)
{
	char size[32], iops[32], bw[32];

	fprintf(out, "%sverify: %s, %u-byte blocks", indent, bq_verify_method_name(v->method),
		v->block_size);
	/* A job that only reads, without a state, takes each block's own seed. */
	if (v->seed)
		fprintf(out, ", seed %016" PRIx64, v->seed);
	fprintf(out, "%s%s\n", v->state_path[0] ? ", state " : "", v->state_path);
	if (v->phase_ran) {
		const struct bq_dir_result *d = &v->phase.d[BQ_READ];

		fmt_count(iops, sizeof(iops), per_second(d->ios, v->phase_runtime_ns));
		fmt_size(bw, sizeof(bw), (uint64_t)per_second(d->bytes, v->phase_runtime_ns));
		fmt_size(size, sizeof(size), d->bytes);
		fprintf(out, "%s  read back: IOPS=%s, BW=%s/s (%s in %.3fs)%s\n", indent, iops, bw,
			size, (double)v->phase_runtime_ns / 1e9, d->errors ? ", with errors" : "");
		if (d->lat.count) {
			char lead[64];

			snprintf(lead, sizeof(lead), "%s    ", indent);
			print_percentiles(out, lead, &d->lat);
		}
		if (v->phase.nr_groups || v->phase.ungrouped) {
			char lead[64];

			snprintf(lead, sizeof(lead), "%s    ", indent);
			print_error_groups(out, lead, &v->phase, NULL, 0);
		}
	}
	fmt_size(size, sizeof(size), v->bytes_checked);
	fprintf(out, "%s  checked %" PRIu64 " blocks (%s): ", indent, v->blocks_checked, size);
	if (!v->bad) {
		fprintf(out, "all good\n");
	} else {
		fprintf(out, "%" PRIu64 " bad", v->bad);
		counts_text(out, v);
		fputc('\n', out);
	}
	if (v->in_flight_accepted)
		fprintf(out, "%s  written while in flight, either generation accepted: %" PRIu64 "\n",
			indent, v->in_flight_accepted);
	if (v->ahead)
		fprintf(out, "%s  intact but newer than the state recorded: %" PRIu64 "\n", indent,
			v->ahead);
	if (v->not_checked)
		fprintf(out, "%s  read but not checked (never written, as far as the state "
			"knows): %" PRIu64 "\n", indent, v->not_checked);
	if (!v->nr_first_bad)
		return;
	fprintf(out, "%s  bad blocks (%d of %" PRIu64 ", by offset):\n", indent, v->nr_first_bad,
		v->bad);
	for (int i = 0; i < v->nr_first_bad; i++) {
		fprintf(out, "%s    ", indent);
		verify_bad_line(out, &v->first_bad[i]);
	}
	if (v->dumped)
		fprintf(out, "%s  verify_dump: %u bad block%s dumped to %s (NAME.OFFSET.expected, "
			".received)\n", indent, v->dumped, v->dumped == 1 ? "" : "s", v->dump_dir);
}

static json_object *expected_json(const struct bq_vexpect *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "offset", json_u64(e->offset));
	json_object_object_add(o, "generation", e->have_gen ? json_u64(e->gen_hi) : NULL);
	json_object_object_add(o, "generation_min", e->have_gen ? json_u64(e->gen_lo) : NULL);
	json_object_object_add(o, "seed", e->have_seed ? hex64(e->seed) : NULL);
	return o;
}

/**
 * verify_bad_json() - one bad block as JSON
 * @b: the block
 *
 * Return: the object.
 */
json_object *verify_bad_json(const struct bq_vbad *b)
{
	json_object *o = json_object_new_object(), *f = NULL;
	char when[40];

	json_object_object_add(o, "offset", json_u64(b->offset));
	json_object_object_add(o, "length", json_u64(b->length));
	json_object_object_add(o, "class", json_object_new_string(bq_verify_class_name(b->cls)));
	json_object_object_add(o, "expected", expected_json(&b->expected));
	if (b->found_header) {
		const struct bq_vhdr *h = &b->found;

		f = json_object_new_object();
		fmt_time(when, sizeof(when), h->timestamp_ns);
		json_object_object_add(f, "offset", json_u64(h->offset));
		json_object_object_add(f, "generation", json_u64(h->generation));
		json_object_object_add(f, "seed", hex64(h->seed));
		json_object_object_add(f, "timestamp_ns", json_u64(h->timestamp_ns));
		json_object_object_add(f, "written", json_object_new_string(when));
		json_object_object_add(f, "length", json_u64(h->length));
		json_object_object_add(f, "method", json_object_new_string(
			bq_verify_method_name((enum bq_verify_method)h->method)));
		json_object_object_add(f, "thread", json_u64(h->thread));
		json_object_object_add(f, "checksum", hex64(h->checksum));
		json_object_object_add(f, "computed_checksum", hex64(b->computed));
	}
	json_object_object_add(o, "found", f);
	json_object_object_add(o, "sectors", json_u64(b->sectors));
	json_object_object_add(o, "sectors_new", json_u64(b->sectors_new));
	json_object_object_add(o, "sectors_old", json_u64(b->sectors_old));
	json_object_object_add(o, "first_bad_byte", b->first_diff >= 0 ?
			       json_object_new_int64(b->first_diff) : NULL);
	if (b->cls == BQ_VCLASS_READ_ERROR)
		json_object_object_add(o, "error", json_object_new_string(strerror(b->err)));
	return o;
}

static json_object *phase_json(const struct bq_verify_report *v)
{
	const struct bq_dir_result *d = &v->phase.d[BQ_READ];
	json_object *o = json_object_new_object(), *r = json_object_new_object();
	json_object *cpu = json_object_new_object(), *errs = json_object_new_array();

	json_object_object_add(o, "runtime_ns", json_u64(v->phase_runtime_ns));
	json_object_object_add(r, "ios", json_u64(d->ios));
	json_object_object_add(r, "bytes", json_u64(d->bytes));
	json_object_object_add(r, "errors", json_u64(d->errors));
	json_object_object_add(r, "iops", json_dbl(per_second(d->ios, v->phase_runtime_ns)));
	json_object_object_add(r, "bytes_per_second",
			       json_dbl(per_second(d->bytes, v->phase_runtime_ns)));
	json_object_object_add(r, "lat_ns", hist_json(&d->lat));
	json_object_object_add(o, "read", r);
	json_object_object_add(cpu, "usr_ns", json_u64(v->phase.usr_ns));
	json_object_object_add(cpu, "sys_ns", json_u64(v->phase.sys_ns));
	json_object_object_add(o, "cpu_usage", cpu);
	json_object_object_add(o, "mean_depth", json_dbl(v->phase.mean_depth));
	for (int i = 0; i < v->phase.nr_errors; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "offset", json_u64(v->phase.errors[i].offset));
		json_object_object_add(e, "length", json_u64(v->phase.errors[i].len));
		json_object_object_add(e, "errno", json_object_new_int(v->phase.errors[i].err));
		json_object_object_add(e, "error",
				       json_object_new_string(strerror(v->phase.errors[i].err)));
		json_object_array_add(errs, e);
	}
	json_object_object_add(o, "errors", errs);
	json_object_object_add(o, "error_groups", error_groups_json(&v->phase, NULL, 0));
	return o;
}

/**
 * verify_json() - a verify report as JSON
 * @v: the report
 *
 * Return: {"method", "block_size", "seed", "state", "blocks_checked",
 * "bytes_checked", "bad_blocks", "counts", "in_flight_accepted",
 * "ahead_of_state", "not_checked", "first_bad", "phase"}.
 */
json_object *verify_json(const struct bq_verify_report *v)
{
	json_object *o = json_object_new_object(), *counts = json_object_new_object();
	json_object *bad = json_object_new_array();

	json_object_object_add(o, "method", json_object_new_string(
		bq_verify_method_name(v->method)));
	json_object_object_add(o, "block_size", json_u64(v->block_size));
	json_object_object_add(o, "seed", hex64(v->seed));
	json_object_object_add(o, "state", v->state_path[0] ?
			       json_object_new_string(v->state_path) : NULL);
	json_object_object_add(o, "blocks_checked", json_u64(v->blocks_checked));
	json_object_object_add(o, "bytes_checked", json_u64(v->bytes_checked));
	json_object_object_add(o, "bad_blocks", json_u64(v->bad));
	for (int c = 0; c < BQ_VCLASS_NR; c++)
		json_object_object_add(counts, bq_verify_class_name((enum bq_verify_class)c),
				       json_u64(v->count[c]));
	json_object_object_add(o, "counts", counts);
	json_object_object_add(o, "in_flight_accepted", json_u64(v->in_flight_accepted));
	json_object_object_add(o, "ahead_of_state", json_u64(v->ahead));
	json_object_object_add(o, "not_checked", json_u64(v->not_checked));
	for (int i = 0; i < v->nr_first_bad; i++)
		json_object_array_add(bad, verify_bad_json(&v->first_bad[i]));
	json_object_object_add(o, "first_bad", bad);
	json_object_object_add(o, "phase", v->phase_ran ? phase_json(v) : NULL);
	/* verify_dump: how many bad blocks have their two files, and where. */
	if (v->dumped) {
		json_object_object_add(o, "dumped", json_u64(v->dumped));
		json_object_object_add(o, "dump_dir", json_object_new_string(v->dump_dir));
	}
	return o;
}
