// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_report.c - blkqual latency's output, line for line as ioping
 * prints it, so that what parses ioping's output parses ours; the
 * percentiles and the JSON histogram come on top
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "latency_report.h"
#include "report_util.h"

struct unit {
	const char *txt;
	long long mul;
};

static const struct unit size_units[] = {
	{ "PiB", 1LL << 50 }, { "TiB", 1LL << 40 }, { "GiB", 1LL << 30 },
	{ "MiB", 1LL << 20 }, { "KiB", 1LL << 10 }, { "B", 1 },
};

static const struct unit time_units[] = {
	{ "hour", 3600000000000LL }, { "min", 60000000000LL }, { "s", 1000000000LL },
	{ "ms", 1000000LL }, { "us", 1000LL }, { "ns", 1 },
};

static const struct unit count_units[] = {
	{ "T", 1000000000000LL }, { "G", 1000000000LL }, { "M", 1000000LL },
	{ "k", 1000LL }, { "", 1 },
};

/*
 * ioping's number format: the largest unit not above the value, no
 * decimals when it divides evenly, else one decimal from ten units up
 * and two below.  Fractions are cut off before scaling, as ioping does.
 */
static void put_scaled(FILE *out, double v, const struct unit *u)
{
	long long val = (long long)v;
	int prec;

	while (val < u->mul && u->mul > 1)
		u++;
	if (val % u->mul == 0)
		prec = 0;
	else if (val >= u->mul * 10)
		prec = 1;
	else
		prec = 2;
	fprintf(out, "%.*f", prec, (double)val / (double)u->mul);
	if (*u->txt)
		fprintf(out, " %s", u->txt);
}

static void put_size(FILE *out, double v)
{
	put_scaled(out, v, size_units);
}

static void put_time(FILE *out, double v)
{
	put_scaled(out, v, time_units);
}

static void put_count(FILE *out, double v)
{
	put_scaled(out, v, count_units);
}

/* "(xfs /dev/loop3 1.9 GiB)", "(block device 512 MiB)" */
static void put_target(FILE *out, const struct bq_latency_target *t)
{
	fprintf(out, "%s (%s %s ", t->path, t->fstype, t->device);
	put_size(out, (double)t->device_size);
	fputc(')', out);
}

static void put_localtime(char *buf, size_t len, const struct timespec *when, const char *fmt)
{
	struct tm tm;

	localtime_r(&when->tv_sec, &tm);
	/* -I takes strftime()'s format from the user, as ioping does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (!strftime(buf, len, fmt, &tm))
		buf[0] = '\0';
#pragma GCC diagnostic pop
}

static json_object *target_json(const struct bq_latency_target *t)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(t->path));
	json_object_object_add(o, "fstype", json_object_new_string(t->fstype));
	json_object_object_add(o, "device", json_object_new_string(t->device));
	json_object_object_add(o, "device_size", json_u64(t->device_size));
	return o;
}

/* ioping's "timestamp" (seconds, six decimals) and "localtime" (ISO 8601). */
static void add_times(json_object *o, const struct timespec *when)
{
	char stamp[64], local[64];
	double secs = (double)when->tv_sec + (double)when->tv_nsec / 1e9;

	snprintf(stamp, sizeof(stamp), "%f", secs);
	put_localtime(local, sizeof(local), when, "%FT%T%z");
	json_object_object_add(o, "timestamp", json_object_new_double_s(secs, stamp));
	json_object_object_add(o, "localtime", json_object_new_string(local));
}

void latency_json_begin(struct latency_out *lo)
{
	fputc('[', lo->out);
}

void latency_json_add(struct latency_out *lo, json_object *obj)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

	fprintf(lo->out, "%s%s", lo->nr_json++ ? "," : "", s ? s : "null");
	if (lo->flush)
		fflush(lo->out);
}

void latency_json_end(struct latency_out *lo)
{
	fputs("]\n", lo->out);
}

/**
 * latency_print_request() - one request: ioping's line, or its JSON object
 * @lo: the output
 * @req: the request
 */
void latency_print_request(struct latency_out *lo, const struct bq_latency_req *req)
{
	FILE *out = lo->out;

	if (lo->quiet)
		return;
	if (lo->json) {
		json_object *o = json_object_new_object(), *io = json_object_new_object();

		add_times(o, &req->when);
		json_object_object_add(o, "target", target_json(lo->t));
		json_object_object_add(io, "request", json_u64(req->index));
		json_object_object_add(io, "operation",
				       json_object_new_string(req->write ? "write" : "read"));
		json_object_object_add(io, "size", json_u64(req->bytes));
		json_object_object_add(io, "time", json_u64(req->time_ns));
		json_object_object_add(io, "ignored", json_object_new_boolean(!req->valid));
		json_object_object_add(o, "io", io);
		latency_json_add(lo, o);
		json_object_put(o);
		return;
	}
	if (lo->time_fmt) {
		char buf[128];

		put_localtime(buf, sizeof(buf), &req->when, lo->time_fmt);
		fprintf(out, "%s ", buf);
	}
	put_size(out, (double)req->bytes);
	fprintf(out, " %s ", req->write ? ">>>" : "<<<");
	put_target(out, lo->t);
	fprintf(out, ": request=%llu time=", (unsigned long long)req->index);
	put_time(out, (double)req->time_ns);
	if (req->notice)
		fprintf(out, " (%s)", req->notice);
	fputc('\n', out);
	if (req->burst_end)
		fputc('\n', out);
	if (lo->flush)
		fflush(out);
}

/**
 * latency_print_raw() - ioping's raw statistics line (-p, -P, -B)
 * @out: where
 * @s: finished statistics
 *
 * Requests counted, their summed time (ns), IOPS, bytes/s, min, avg, max
 * and mdev (ns), every request made, and the wall-clock time (ns).
 */
void latency_print_raw(FILE *out, const struct bq_latency_stats *s)
{
	struct bq_latency_summary m;

	bq_latency_summarize(s, &m);
	fprintf(out, "%llu %.0f %.0f %.0f %llu %.0f %llu %.0f %llu %llu\n",
		(unsigned long long)m.valid, m.time_ns, m.iops, m.bps,
		(unsigned long long)m.min_ns, m.avg_ns, (unsigned long long)m.max_ns, m.mdev_ns,
		(unsigned long long)m.count, (unsigned long long)m.load_ns);
}

/**
 * latency_print_summary() - ioping's closing statistics, then percentiles
 * @out: where
 * @t: the target
 * @s: the whole run
 * @read_write: reads and writes alternated (-G)
 * @write: the requests wrote
 */
void latency_print_summary(FILE *out, const struct bq_latency_target *t,
			   const struct bq_latency_stats *s, bool read_write, bool write)
{
	struct bq_latency_summary m;

	bq_latency_summarize(s, &m);
	fputs("\n--- ", out);
	put_target(out, t);
	fputs(" ioping statistics ---\n", out);
	put_count(out, (double)m.valid);
	fputs(" requests completed in ", out);
	put_time(out, m.time_ns);
	fputs(", ", out);
	put_size(out, (double)m.bytes);
	fprintf(out, "%s, ", read_write ? "" : write ? " written" : " read");
	put_count(out, m.iops);
	fputs(" iops, ", out);
	put_size(out, m.bps);
	fputs("/s\n", out);
	if (m.too_fast) {
		put_count(out, (double)m.too_fast);
		fputs(" too fast, ", out);
	}
	if (m.too_slow) {
		put_count(out, (double)m.too_slow);
		fputs(" too slow, ", out);
	}
	fputs("generated ", out);
	put_count(out, (double)m.count);
	fputs(" requests in ", out);
	put_time(out, (double)m.load_ns);
	fputs(", ", out);
	put_size(out, (double)m.load_bytes);
	fputs(", ", out);
	put_count(out, m.load_iops);
	fputs(" iops, ", out);
	put_size(out, m.load_bps);
	fputs("/s\n", out);
	fputs("min/avg/max/mdev = ", out);
	put_time(out, (double)m.min_ns);
	fputs(" / ", out);
	put_time(out, m.avg_ns);
	fputs(" / ", out);
	put_time(out, (double)m.max_ns);
	fputs(" / ", out);
	put_time(out, m.mdev_ns);
	fputc('\n', out);
	print_percentiles(out, "", &s->lat);
}

/**
 * latency_stats_json() - ioping's statistics object, with the histogram
 * @t: the target
 * @s: finished statistics
 *
 * Return: {"timestamp", "localtime", "target", "stat", "load", "latency"};
 * "latency" is hist_json() of the requests in the statistics, or null.
 */
json_object *latency_stats_json(const struct bq_latency_target *t,
				const struct bq_latency_stats *s)
{
	json_object *o = json_object_new_object(), *st = json_object_new_object();
	json_object *load = json_object_new_object();
	struct bq_latency_summary m;
	struct timespec now;

	bq_latency_summarize(s, &m);
	clock_gettime(CLOCK_REALTIME, &now);
	add_times(o, &now);
	json_object_object_add(o, "target", target_json(t));
	json_object_object_add(st, "count", json_u64(m.valid));
	json_object_object_add(st, "size", json_u64(m.bytes));
	json_object_object_add(st, "time", json_u64((uint64_t)(m.time_ns + 0.5)));
	json_object_object_add(st, "iops", json_dbl(m.iops));
	json_object_object_add(st, "bps", json_u64((uint64_t)(m.bps + 0.5)));
	json_object_object_add(st, "min", json_u64(m.min_ns));
	json_object_object_add(st, "avg", json_u64((uint64_t)(m.avg_ns + 0.5)));
	json_object_object_add(st, "max", json_u64(m.max_ns));
	json_object_object_add(st, "mdev", json_u64((uint64_t)(m.mdev_ns + 0.5)));
	json_object_object_add(st, "too_fast", json_u64(m.too_fast));
	json_object_object_add(st, "too_slow", json_u64(m.too_slow));
	json_object_object_add(o, "stat", st);
	json_object_object_add(load, "count", json_u64(m.count));
	json_object_object_add(load, "size", json_u64(m.load_bytes));
	json_object_object_add(load, "time", json_u64(m.load_ns));
	json_object_object_add(load, "iops", json_dbl(m.load_iops));
	json_object_object_add(load, "bps", json_u64((uint64_t)(m.load_bps + 0.5)));
	json_object_object_add(o, "load", load);
	json_object_object_add(o, "latency", hist_json(&s->lat));
	return o;
}
