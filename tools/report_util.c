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

static volatile int stop_signal;

static void on_signal(int sig)
{
	/* A second Ctrl-C means now: nothing more will be written. */
	if (stop_signal)
		_exit(128 + sig);
	stop_signal = sig;
}

volatile int *stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_signal;
}
