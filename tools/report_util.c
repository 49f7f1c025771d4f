// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_util.c - what every report shares: number formats, latency
 * histograms as JSON and text, result files written whole, Ctrl-C
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report_util.h"

const double report_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 99.9999,
};
const size_t report_nr_percentiles = ARRAY_LEN(report_percentiles);

double per_second(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0;
}

void fmt_count(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

void fmt_lat(char *buf, size_t len, double ns)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2fs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

json_object *json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

json_object *json_dbl(double v)
{
	return json_object_new_double(isfinite(v) ? v : 0);
}

/* At most this many bars: enough for the shape, small enough for a page. */
#define HIST_JSON_MAX_BARS 200

/* The bucket of @v when each power of two is split in 2^@sub_bits. */
static uint64_t coarse_lower(uint64_t v, unsigned int sub_bits)
{
	unsigned int log2;

	if (v < (UINT64_C(1) << sub_bits))
		return v;
	log2 = 63 - (unsigned int)__builtin_clzll(v);
	return v & ~((UINT64_C(1) << (log2 - sub_bits)) - 1);
}

static uint64_t coarse_width(uint64_t lower, unsigned int sub_bits)
{
	if (lower < (UINT64_C(1) << sub_bits))
		return 1;
	return UINT64_C(1) << (63 - (unsigned int)__builtin_clzll(lower) - sub_bits);
}

/*
 * The non-empty buckets as [lower, upper (exclusive), count], in ns.  When
 * there are too many, each power of two is split in fewer buckets until
 * they fit: every bucket still lies inside one bar, so no count is shared.
 */
static json_object *hist_buckets_json(const struct bq_hist *h)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned int sub = BQ_HIST_SUB_BITS;
	uint64_t lower, width, bar = 0, upper = 0, count = 0;
	bool open = false;

	/* Power-of-two bars (sub 0) always fit: there are only 45. */
	for (; sub > 0; sub--) {
		uint64_t prev = UINT64_MAX;
		size_t bars = 0;

		for (unsigned int i = 0; i < BQ_HIST_BUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			bq_hist_bucket_bounds(i, &lower, &width);
			if (coarse_lower(lower, sub) != prev)
				bars++;
			prev = coarse_lower(lower, sub);
		}
		if (bars <= HIST_JSON_MAX_BARS)
			break;
	}
	for (unsigned int i = 0; i <= BQ_HIST_BUCKETS; i++) {
		uint64_t key = 0;

		if (i < BQ_HIST_BUCKETS) {
			if (!h->buckets[i])
				continue;
			bq_hist_bucket_bounds(i, &lower, &width);
			key = coarse_lower(lower, sub);
		}
		if (open && (i == BQ_HIST_BUCKETS || key != bar)) {
			json_object *b = json_object_new_array();

			json_object_array_add(b, json_u64(bar));
			json_object_array_add(b, json_u64(upper));
			json_object_array_add(b, json_u64(count));
			json_object_array_add(arr, b);
			open = false;
		}
		if (i == BQ_HIST_BUCKETS)
			break;
		if (!open) {
			bar = key;
			count = 0;
			open = true;
		}
		count += h->buckets[i];
		upper = sub < BQ_HIST_SUB_BITS ? bar + coarse_width(bar, sub) : lower + width;
	}
	json_object_object_add(o, "unit", json_object_new_string("ns"));
	json_object_object_add(o, "buckets", arr);
	return o;
}

json_object *hist_json(const struct bq_hist *h)
{
	json_object *lat, *pct;

	if (!h->count)
		return NULL;
	lat = json_object_new_object();
	pct = json_object_new_object();
	json_object_object_add(lat, "count", json_u64(h->count));
	json_object_object_add(lat, "min", json_u64(h->min));
	json_object_object_add(lat, "max", json_u64(h->max));
	json_object_object_add(lat, "mean", json_dbl(bq_hist_mean(h)));
	json_object_object_add(lat, "stdev", json_dbl(bq_hist_stdev(h)));
	for (size_t i = 0; i < report_nr_percentiles; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%g", report_percentiles[i]);
		json_object_object_add(pct, key,
				       json_u64(bq_hist_percentile(h, report_percentiles[i])));
	}
	json_object_object_add(lat, "percentiles", pct);
	json_object_object_add(lat, "histogram", hist_buckets_json(h));
	return lat;
}

void print_percentiles(FILE *out, const char *indent, const struct bq_hist *h)
{
	char v[32];

	if (!h->count)
		return;
	fprintf(out, "%spercentiles:", indent);
	for (size_t i = 0; i < report_nr_percentiles; i++) {
		fmt_lat(v, sizeof(v), (double)bq_hist_percentile(h, report_percentiles[i]));
		/* Six to a line, continuation lines aligned under the first value. */
		if (i && !(i % 6))
			fprintf(out, "\n%*s", (int)strlen(indent) + 12, "");
		fprintf(out, " p%g=%s", report_percentiles[i], v);
	}
	fputc('\n', out);
}

json_object *result_json_new(const char *command)
{
	json_object *doc = json_object_new_object();

	if (!doc)
		return NULL;
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string(command));
	json_object_object_add(doc, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	return doc;
}

int json_print(FILE *out, json_object *doc)
{
	const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	fprintf(out, "%s\n", s);
	return 0;
}

int write_atomically(const char *path, int (*emit)(FILE *, void *), void *arg)
{
	char tmp[4096];
	FILE *f;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = emit(f, arg);
	if (fflush(f) || fsync(fileno(f)))
		ret = ret ? ret : -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (!ret) {
		/* mkstemp made it 0600; results are ordinary files. */
		chmod(path, 0644);
		return 0;
	}
out_unlink:
	unlink(tmp);
	return ret;
}

/* A repeat of the first signal this soon is the same request, sent twice. */
#define SIGNAL_REPEAT_NS	100000000LL

static volatile int stop_signal, stop_now;
static bool stop_now_wanted;
static long long first_signal_ns;

static long long monotonic_ns(void)
{
	struct timespec ts;

	/* clock_gettime() is async-signal-safe. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void on_signal(int sig)
{
	long long now = monotonic_ns();

	if (!stop_signal) {
		first_signal_ns = now;
		stop_signal = sig;
		return;
	}
	if (sig == stop_signal && !stop_now && now - first_signal_ns < SIGNAL_REPEAT_NS)
		return;
	/* A second request: stop without waiting, still writing what was measured. */
	if (stop_now_wanted && !stop_now) {
		stop_now = sig;
		return;
	}
	/* Once more: nothing more will be written. */
	_exit(128 + sig);
}

volatile int *stop_on_signals(volatile int **now)
{
	struct sigaction sa = { .sa_handler = on_signal };

	stop_now_wanted = now != NULL;
	if (now)
		*now = &stop_now;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_signal;
}
