/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_util.h - what every report shares: number formats, latency
 * histograms as JSON and text, result files written whole, Ctrl-C
 */
#ifndef BLKQUAL_REPORT_UTIL_H
#define BLKQUAL_REPORT_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"

/* The percentiles every report lists (fio's, plus the deep tail). */
extern const double report_percentiles[];
extern const size_t report_nr_percentiles;

double per_second(uint64_t n, uint64_t ns);
void fmt_count(char *buf, size_t len, double v);	/* 12.3k, 1.20M */
void fmt_lat(char *buf, size_t len, double ns);		/* 850ns, 12.3us, 1.20ms, 2.00s */

json_object *json_u64(uint64_t v);
json_object *json_dbl(double v);			/* NaN and infinities become 0 */

/**
 * hist_json() - a latency histogram as JSON
 * @h: the histogram
 *
 * Return: {"count","min","max","mean","stdev","percentiles":{"50":..},
 * "histogram":{"unit":"ns","buckets":[[lower, upper, count], ...]}} in
 * nanoseconds, or a JSON null when @h is empty.  The buckets are the
 * non-empty ones, upper bound exclusive, merged into at most 200.
 */
json_object *hist_json(const struct bq_hist *h);

/**
 * print_percentiles() - "    percentiles: 50=1.2ms 90=..." on one line
 * @out: where
 * @indent: leading text
 * @h: the histogram (nothing printed when empty)
 */
void print_percentiles(FILE *out, const char *indent, const struct bq_hist *h);

/**
 * result_json_new() - a new result document with the members every result has
 * @command: the blkqual subcommand that made it
 *
 * "schema_version", "command" and "blkqual_version" come first, so that
 * ``report``, ``compare`` and ``fleet`` can tell what a file holds.
 *
 * Return: the document, or NULL when out of memory.
 */
json_object *result_json_new(const char *command);

/**
 * json_print() - a JSON document, pretty, newline-terminated
 * @out: where
 * @doc: the document (not freed)
 *
 * Return: 0 or -ENOMEM.
 */
int json_print(FILE *out, json_object *doc);

/**
 * write_atomically() - write a file through a temp file and rename
 * @path: the result file
 * @emit: writes the content to the FILE it is given
 * @arg: passed to @emit
 *
 * Whole or absent, never half-written, even after kill -9.
 *
 * Return: 0 or -errno.
 */
int write_atomically(const char *path, int (*emit)(FILE *, void *), void *arg);

/**
 * stop_on_signals() - SIGINT/SIGTERM set the stop flag to the signal;
 * SIGPIPE is ignored
 * @now: NULL, or where to return a second flag: a second signal sets it
 *       (stop without waiting for I/O) and a third exits at once.  Without
 *       it, the second signal exits at once with 128 + signal.
 *
 * The same signal again within 100 ms of the first is the same request:
 * timeout(1), CI runners and supervisors signal the process and then its
 * process group.
 *
 * Return: the flag the handlers set, for struct bq_run_opts.stop and
 * the file workloads' stop flags.
 */
volatile int *stop_on_signals(volatile int **now);

#endif /* BLKQUAL_REPORT_UTIL_H */
