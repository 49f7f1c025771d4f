// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_terse.c - --output-format=terse (--minimal): fio's one line of
 * semicolon-separated fields per thread report, versions 2 to 5
 *
 * Field for field as fio 3.33 writes them: sizes in KiB, bandwidth in
 * KiB/s, latencies in microseconds, the percentile list padded to fio's
 * 20 entries with "0%=0".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fio_output.h"
#include "report_util.h"

#define FIO_LIST_MAX 20

static void lat_fields(FILE *f, const struct bq_hist *h)
{
	if (!h->count) {
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", h->min / 1000, h->max / 1000,
		bq_hist_mean(h) / 1000, bq_hist_stdev(h) / 1000);
}

static void dir_fields(FILE *f, const struct fio_entry *e, int d, int ver)
{
	const struct bq_dir_result *r = fio_dir(e, d);
	uint64_t rt = e->runtime_ns[d];
	struct fio_pcts pct;
	int nr;

	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, r->bytes >> 10,
		(uint64_t)per_second(r->bytes, rt) / 1024, (uint64_t)per_second(r->ios, rt),
		fio_ms(rt));
	/* No submission latency is measured: fio's zeros for it. */
	fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	lat_fields(f, &r->lat);
	fio_pcts_of(&e->jr->job, &pct);
	nr = pct.clat || pct.lat ? pct.nr : 0;
	for (int i = 0; i < FIO_LIST_MAX; i++) {
		if (i >= nr || !r->lat.count)
			fputs(";0%=0", f);
		else
			fprintf(f, ";%f%%=%" PRIu64, pct.list[i],
				bq_hist_percentile(&r->lat, pct.list[i]) / 1000);
	}
	lat_fields(f, &r->lat);
	/* Bandwidth samples: blkqual takes none. */
	fprintf(f, ";0;0;%f%%;%f;%f", 0.0, 0.0, 0.0);
	if (ver == 5)
		fprintf(f, ";0;0;0;%f;%f;0", 0.0, 0.0);
}

static void entry_line(FILE *f, const struct fio_report *r, const struct fio_entry *e)
{
	const struct bq_job *j = &e->jr->job;
	int ver = r->terse_version, err = e->t->nr_errors ? e->t->errors[0].err : 0;
	double n[FIO_LAT_N], u[FIO_LAT_U], m[FIO_LAT_M], depth[FIO_DEPTHS];
	double per_cpu;
	char desc[512];

	if (ver == 2)
		fprintf(f, "2;%s;%d;%d", j->name, e->jr->groupid, err);
	else
		fprintf(f, "%d;%s;%s;%d;%d", ver, fio_version(), j->name, e->jr->groupid, err);
	dir_fields(f, e, BQ_READ, ver);
	dir_fields(f, e, BQ_WRITE, ver);
	if (ver != 3)
		dir_fields(f, e, BQ_NR_DIRS, ver);
	per_cpu = (double)e->thread_ns;
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";0;0",
		per_cpu > 0 ? 100.0 * (double)e->t->usr_ns / per_cpu : 0,
		per_cpu > 0 ? 100.0 * (double)e->t->sys_ns / per_cpu : 0,
		e->t->vol_cs + e->t->invol_cs);
	fio_depth_dist(e, depth);
	for (int i = 0; i < FIO_DEPTHS; i++)
		fprintf(f, ";%3.1f%%", depth[i]);
	fio_lat_dist(e, n, u, m);
	/* Terse has no nanosecond ranges: fio counts them as under 2 us. */
	for (int i = 0; i < FIO_LAT_N; i++)
		u[0] += n[i];
	for (int i = 0; i < FIO_LAT_U; i++)
		fprintf(f, ";%3.2f%%", u[i]);
	for (int i = 0; i < FIO_LAT_M; i++)
		fprintf(f, ";%3.2f%%", m[i]);
	if (ver >= 3) {
		struct fio_disk disks[64];
		size_t nr = fio_disks(r->res, disks, ARRAY_LEN(disks));

		for (size_t i = 0; i < nr; i++) {
			const struct bq_diskstats *d = disks[i].d;

			fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
				";%" PRIu64 ";%" PRIu64 ";%3.2f%%", disks[i].name,
				d->ios[BQ_READ], d->ios[BQ_WRITE], d->merges[BQ_READ],
				d->merges[BQ_WRITE], d->ticks_ms[BQ_READ], d->ticks_ms[BQ_WRITE],
				d->time_in_queue_ms, disks[i].util);
		}
	}
	if (j->continue_on_error)
		fprintf(f, ";%" PRIu64 ";%d", e->t->d[BQ_READ].errors + e->t->d[BQ_WRITE].errors +
			e->t->trim.errors, err);
	if (fio_given_value(j, "description", desc, sizeof(desc)) && desc[0])
		fprintf(f, "%s;%s", ver == 2 ? "\n" : "", desc);
	fputc('\n', f);
}

/**
 * fio_terse() - the run as fio's terse lines
 * @f: where to
 * @r: the run as fio's reports; @r->terse_version says which layout
 *
 * Return: 0 or -EIO.
 */
int fio_terse(FILE *f, const struct fio_report *r)
{
	for (size_t i = 0; i < r->nr; i++)
		entry_line(f, r, &r->entries[i]);
	return ferror(f) ? -EIO : 0;
}
