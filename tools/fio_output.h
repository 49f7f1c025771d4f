/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fio_output.h - a run's results in fio 3.33's layouts (issue 20):
 * --output-format=normal|terse|json|json+ of blkqual run
 */
#ifndef BLKQUAL_FIO_OUTPUT_H
#define BLKQUAL_FIO_OUTPUT_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"

/* --output-format's formats, a set: fio writes each one asked for. */
#define FIO_OUT_NORMAL	(1u << 0)
#define FIO_OUT_TERSE	(1u << 1)
#define FIO_OUT_JSON	(1u << 2)
#define FIO_OUT_JSONP	(1u << 3)

/* fio's three directions: read, write and trim. */
#define FIO_NR_DIRS 3

/**
 * struct fio_entry - one of fio's thread reports: a thread of a job, or
 * the threads of a reporting group added up (group_reporting)
 * @jr: the (first) job of the entry
 * @t: its figures
 * @runtime_ns: per direction, the time the figures are rates over; 0 for
 *              a direction without I/O, as in fio
 * @nr_threads: threads in it
 * @thread_ns: its threads' run times added up (fio's job_runtime, which
 *             CPU use is a share of)
 * @sum: the group's sum, which @t points to when it is one
 */
struct fio_entry {
	const struct bq_job_result *jr;
	const struct bq_thread_result *t;
	uint64_t runtime_ns[FIO_NR_DIRS];
	int nr_threads;
	uint64_t thread_ns;
	struct bq_group_sum *sum;
};

/**
 * struct fio_report - what the fio layouts are made from
 * @res: the run
 * @entries: fio's thread reports, in its order
 * @nr: how many
 * @groups: the group sums @entries point into
 * @nr_groups: how many
 * @terse_version: 2 to 5
 * @now: when the report was made (fio's "time" and "timestamp")
 */
struct fio_report {
	const struct bq_results *res;
	struct fio_entry *entries;
	size_t nr;
	struct bq_group_sum *groups;
	size_t nr_groups;
	int terse_version;
	struct timespec now;
};

int fio_report_init(struct fio_report *r, const struct bq_results *res);
void fio_report_free(struct fio_report *r);

const struct bq_dir_result *fio_dir(const struct fio_entry *e, int d);

/* A runtime in fio's unit, ms: rounded, and at least 1 when there was one, as fio's. */
static inline uint64_t fio_ms(uint64_t ns)
{
	return ns ? (ns + 500000) / 1000000 ?: 1 : 0;
}
const char *fio_version(void);

/**
 * struct fio_pcts - the percentiles a job's report shows (percentile_list,
 * clat_percentiles, lat_percentiles, or fio's defaults)
 */
struct fio_pcts {
	const double *list;
	int nr;
	int precision;		/* decimals in the text report */
	bool clat;		/* in clat_ns */
	bool lat;		/* in lat_ns */
	int sig_figs;		/* the text report's figures */
};
void fio_pcts_of(const struct bq_job *j, struct fio_pcts *p);
bool fio_given_value(const struct bq_job *j, const char *key, char *buf, size_t len);

/* fio's latency distribution: percent of all I/Os in each range */
#define FIO_LAT_N 10
#define FIO_LAT_U 10
#define FIO_LAT_M 12
void fio_lat_dist(const struct fio_entry *e, double n[FIO_LAT_N], double u[FIO_LAT_U],
		  double m[FIO_LAT_M]);
extern const char *const fio_lat_keys[FIO_LAT_M];

/* fio's I/O depth levels (1, 2, 4, ... >=64): percent of I/Os issued at each */
#define FIO_DEPTHS 7
extern const char *const fio_depth_keys[FIO_DEPTHS];
bool fio_depth_dist(const struct fio_entry *e, double pct[FIO_DEPTHS]);

/* fio's histogram bin of a value, and the value it reports for a bin */
unsigned int fio_plat_idx(uint64_t ns);
uint64_t fio_plat_val(unsigned int idx);
#define FIO_PLAT_NR 1856

/**
 * struct fio_disk - one device's counters over the run, as fio's disk_util
 */
struct fio_disk {
	const char *name;
	const struct bq_diskstats *d;
	double util;
};
size_t fio_disks(const struct bq_results *res, struct fio_disk *out, size_t max);

json_object *fio_json(const struct fio_report *r, bool plus);
int fio_terse(FILE *f, const struct fio_report *r);
int fio_normal(FILE *f, const struct fio_report *r);

#endif /* BLKQUAL_FIO_OUTPUT_H */
