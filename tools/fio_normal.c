// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_normal.c - --output-format=normal: fio 3.33's text report
 *
 * The lines fio prints for each thread report, its group's run status
 * and the disks' statistics, with fio's units and rounding (four
 * significant figures, KiB/MiB with MB in brackets).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fio_output.h"
#include "report_util.h"

enum n2s_unit { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };

/*
 * fio's short numbers: at most @digits digits, scaled by 1000 or 1024
 * (SI or IEC prefix), with as many decimals as fit after the scaling.
 */
static void short_num(char *buf, size_t len, uint64_t v, int digits, bool pow2,
		      enum n2s_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const units[] = { "", "B", "B/s" };
	const uint64_t k = pow2 ? 1024 : 1000;
	const char *const *pre = pow2 ? iec : si;
	uint64_t rest = 0;
	bool scaled = false;
	size_t p = 0;
	char ip[32], frac[16];
	int room;

	while (p < ARRAY_LEN(si) - 1 && snprintf(ip, sizeof(ip), "%" PRIu64, v) > digits) {
		rest = v % k;
		v /= k;
		scaled = true;
		p++;
	}
	room = digits - snprintf(ip, sizeof(ip), "%" PRIu64, v);
	if (!scaled || room <= 1) {
		if (scaled && rest >= k / 2)
			v++;
		snprintf(buf, len, "%" PRIu64 "%s%s", v, pre[p], units[unit]);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)rest / (double)k);
	if (frac[0] == '1')
		v++;
	snprintf(buf, len, "%" PRIu64 ".%s%s%s", v, frac + 2, pre[p], units[unit]);
}

static void lat_line(FILE *f, const char *name, const struct bq_hist *h)
{
	uint64_t min = h->min, max = h->max;
	double mean = bq_hist_mean(h), dev = bq_hist_stdev(h);
	const char *base = "(nsec)";
	char a[32], b[32];

	if (!h->count)
		return;
	if (min > 2000000 && max > 99999999 && dev > 1e6) {
		base = "(msec)";
		min /= 1000000, max /= 1000000, mean /= 1e6, dev /= 1e6;
	} else if (min > 2000 && max > 99999 && dev > 1000) {
		base = "(usec)";
		min /= 1000, max /= 1000, mean /= 1e3, dev /= 1e3;
	}
	short_num(a, sizeof(a), min, 6, false, N2S_NONE);
	short_num(b, sizeof(b), max, 6, false, N2S_NONE);
	fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base, a, b,
		mean, dev);
}

static void percentile_lines(FILE *f, const char *name, const struct bq_hist *h,
			     const struct fio_pcts *p)
{
	uint64_t v[BQ_PCT_LIST_MAX], lo, hi, div = 1;
	const char *unit = "nsec";
	int width, per_line, n = p->nr;

	if (!h->count || !n)
		return;
	for (int i = 0; i < n; i++)
		v[i] = bq_hist_percentile(h, p->list[i]);
	lo = v[0];
	hi = v[n - 1];
	if (lo > 2000000 && hi > 99999999) {
		div = 1000000;
		unit = "msec";
	} else if (lo > 2000 && hi > 99999) {
		div = 1000;
		unit = "usec";
	}
	fprintf(f, "    %s percentiles (%s):\n     |", name, unit);
	width = (int)log10((double)(hi / div ? hi / div : 1)) + 1;
	if (width < 5)
		width = 5;
	per_line = 73 / (p->precision + 10 + width);
	if (per_line < 1)
		per_line = 1;
	for (int i = 0; i < n; i++) {
		uint64_t x = div == 1 ? v[i] : (v[i] + div - 1) / div;

		if (i && i % per_line == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%*" PRIu64 "]%c", p->precision + 3, p->precision, p->list[i],
			width, x, i == n - 1 ? '\n' : ',');
		if (i != n - 1 && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

static void dir_block(FILE *f, const struct fio_entry *e, int d)
{
	static const char *const names[FIO_NR_DIRS] = { "read", "write", "trim" };
	const struct bq_dir_result *r = fio_dir(e, d);
	uint64_t rt = e->runtime_ns[d], bw, ms = fio_ms(rt);
	char iops[32], bwp[32], bwa[32], io[32];
	struct fio_pcts p;
	int sig;

	if (!rt)
		return;
	fio_pcts_of(&e->jr->job, &p);
	sig = p.sig_figs;
	bw = (uint64_t)per_second(r->bytes, rt);
	short_num(iops, sizeof(iops), (uint64_t)per_second(r->ios, rt), sig, false, N2S_NONE);
	short_num(bwp, sizeof(bwp), bw, sig, true, N2S_BYTEPERSEC);
	short_num(bwa, sizeof(bwa), bw, sig, false, N2S_BYTEPERSEC);
	short_num(io, sizeof(io), r->bytes, sig, true, N2S_BYTE);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", names[d], iops, bwp, bwa,
		io, ms);
	lat_line(f, "clat", &r->lat);
	lat_line(f, " lat", &r->lat);
	if (p.clat)
		percentile_lines(f, "clat", &r->lat, &p);
	if (p.lat)
		percentile_lines(f, "lat", &r->lat, &p);
}

static void dist_line(FILE *f, const char *label, const char *unit, const double *pct,
		      int n, int first)
{
	bool any = false;

	for (int i = first; i < n; i++) {
		if (pct[i] < 0.01)
			continue;
		fprintf(f, "%s%s=%3.2f%%", any ? ", " : label, fio_lat_keys[i], pct[i]);
		any = true;
	}
	if (any)
		fputc('\n', f);
	(void)unit;
}

static void entry_block(FILE *f, const struct fio_entry *e)
{
	static const char *const submit[FIO_DEPTHS] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct bq_thread_result *t = e->t;
	double n[FIO_LAT_N], u[FIO_LAT_U], m[FIO_LAT_M], depth[FIO_DEPTHS], per_cpu;
	int err = t->nr_errors ? t->errors[0].err : 0;
	char when[64];
	time_t end = (time_t)(e->jr->end_unix_ns / 1000000000);
	struct tm tm;

	localtime_r(&end, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(f, "%s: (groupid=%d, jobs=%d): err=%2d: pid=0: %s\n", e->jr->job.name,
		e->jr->groupid, e->nr_threads, err, when);
	for (int d = 0; d < FIO_NR_DIRS; d++)
		dir_block(f, e, d);
	fio_lat_dist(e, n, u, m);
	dist_line(f, "  lat (nsec)   : ", "", n, FIO_LAT_N, 0);
	dist_line(f, "  lat (usec)   : ", "", u, FIO_LAT_U, 0);
	dist_line(f, "  lat (msec)   : ", "", m, FIO_LAT_M, 0);
	per_cpu = (double)e->thread_ns;
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=0, minf=0\n",
		per_cpu > 0 ? 100.0 * (double)t->usr_ns / per_cpu : 0,
		per_cpu > 0 ? 100.0 * (double)t->sys_ns / per_cpu : 0, t->vol_cs + t->invol_cs);
	fio_depth_dist(e, depth);
	fputs("  IO depths    :", f);
	for (int i = 0; i < FIO_DEPTHS; i++)
		fprintf(f, " %s=%3.1f%%%s", fio_depth_keys[i], depth[i],
			i < FIO_DEPTHS - 1 ? "," : "\n");
	for (int s = 0; s < 2; s++) {
		fprintf(f, "     %-10s:", s ? "complete" : "submit");
		for (int i = 0; i < FIO_DEPTHS; i++)
			fprintf(f, " %s=0.0%%%s", submit[i], i < FIO_DEPTHS - 1 ? "," : "\n");
	}
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 short=%" PRIu64
		",0,0,0 dropped=0,0,0,0\n", t->d[BQ_READ].ios, t->d[BQ_WRITE].ios, t->trim.ios,
		t->d[BQ_READ].short_ios);
	fprintf(f, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, "
		"depth=%u\n", e->jr->job.latency_target_ns / 1000,
		e->jr->job.latency_window_ns / 1000, e->jr->job.latency_percentile,
		t->rates.lat_depth ? t->rates.lat_depth : e->jr->job.iodepth);
}

/* fio's "Run status group": each direction's bandwidth over the group's entries. */
static void group_status(FILE *f, const struct fio_report *r, int group)
{
	static const char *const names[FIO_NR_DIRS] = { "READ", "WRITE", "TRIM" };

	struct fio_pcts p = { .sig_figs = 4 };
	int sig;

	for (size_t i = 0; i < r->nr; i++)
		if (r->entries[i].jr->groupid == group) {
			fio_pcts_of(&r->entries[i].jr->job, &p);
			break;
		}
	sig = p.sig_figs;
	fprintf(f, "\nRun status group %d (all jobs):\n", group);
	for (int d = 0; d < FIO_NR_DIRS; d++) {
		uint64_t bytes = 0, rt_max = 0, rt_min = UINT64_MAX;
		uint64_t bw_min = UINT64_MAX, bw_max = 0;
		char agg[32], agga[32], lo[32], loa[32], hi[32], hia[32], io[32], ioa[32];

		for (size_t i = 0; i < r->nr; i++) {
			const struct fio_entry *e = &r->entries[i];
			uint64_t rt = e->runtime_ns[d], bw;

			if (e->jr->groupid != group || !rt)
				continue;
			bytes += fio_dir(e, d)->bytes;
			bw = (uint64_t)per_second(fio_dir(e, d)->bytes, rt);
			rt_max = rt > rt_max ? rt : rt_max;
			rt_min = rt < rt_min ? rt : rt_min;
			bw_min = bw < bw_min ? bw : bw_min;
			bw_max = bw > bw_max ? bw : bw_max;
		}
		if (!rt_max)
			continue;
		short_num(agg, sizeof(agg), (uint64_t)per_second(bytes, rt_max), sig, true,
			  N2S_BYTEPERSEC);
		short_num(agga, sizeof(agga), (uint64_t)per_second(bytes, rt_max), sig, false,
			  N2S_BYTEPERSEC);
		short_num(lo, sizeof(lo), bw_min, sig, true, N2S_BYTEPERSEC);
		short_num(loa, sizeof(loa), bw_min, sig, false, N2S_BYTEPERSEC);
		short_num(hi, sizeof(hi), bw_max, sig, true, N2S_BYTEPERSEC);
		short_num(hia, sizeof(hia), bw_max, sig, false, N2S_BYTEPERSEC);
		short_num(io, sizeof(io), bytes, sig, true, N2S_BYTE);
		short_num(ioa, sizeof(ioa), bytes, sig, false, N2S_BYTE);
		fprintf(f, "  %5s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			"msec\n", names[d], agg, agga, lo, hi, loa, hia, io, ioa,
			fio_ms(rt_min), fio_ms(rt_max));
	}
}

static const char *rw_text(const struct bq_job *j)
{
	static const char *const names[] = {
		[BQ_RW_READ] = "read", [BQ_RW_WRITE] = "write", [BQ_RW_RANDREAD] = "randread",
		[BQ_RW_RANDWRITE] = "randwrite", [BQ_RW_RW] = "rw", [BQ_RW_RANDRW] = "randrw",
	};
	const char *trim = bq_job_trim_rw_name(j);

	if (trim)
		return trim;
	return (size_t)j->rw < ARRAY_LEN(names) && names[j->rw] ? names[j->rw] : "?";
}

/*
 * The lines fio prints as it starts: each job's description, then the
 * version and how many threads run.  A trim takes the write's sizes, as
 * fio's do when bs= gives fewer than three.
 */
static void start_lines(FILE *f, const struct fio_report *r)
{
	int threads = 0;

	for (size_t k = 0; k < r->res->nr; k++) {
		const struct bq_job_result *jr = &r->res->jobs[k];
		const struct bq_job *j = &jr->job;
		char lo[BQ_NR_DIRS][32], hi[BQ_NR_DIRS][32], engine[64];

		/* The engine as the job named it (null is blkqual's nop). */
		if (!fio_given_value(j, "ioengine", engine, sizeof(engine)))
			snprintf(engine, sizeof(engine), "%s", bq_engine_name(j->engine));
		threads += jr->nr_threads;
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			short_num(lo[d], sizeof(lo[d]), j->bs_min[d] != j->bs_max[d] ?
				  j->bs_min[d] : j->bs[d], 4, true, N2S_BYTE);
			short_num(hi[d], sizeof(hi[d]), j->bs_min[d] != j->bs_max[d] ?
				  j->bs_max[d] : j->bs[d], 4, true, N2S_BYTE);
		}
		fprintf(f, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
			"iodepth=%u\n", j->name, jr->groupid, rw_text(j), lo[BQ_READ], hi[BQ_READ],
			lo[BQ_WRITE], hi[BQ_WRITE], lo[BQ_WRITE], hi[BQ_WRITE],
			engine, j->iodepth);
	}
	fprintf(f, "%s\nStarting %d thread%s\n\n", fio_version(), threads,
		threads == 1 ? "" : "s");
}

/**
 * fio_normal() - the run as fio's text report
 * @f: where to
 * @r: the run as fio's reports
 *
 * Return: 0 or -EIO.
 */
int fio_normal(FILE *f, const struct fio_report *r)
{
	struct fio_disk disks[64];
	size_t nr = fio_disks(r->res, disks, ARRAY_LEN(disks));
	int last = -1;

	start_lines(f, r);
	for (size_t i = 0; i < r->nr; i++)
		entry_block(f, &r->entries[i]);
	for (size_t i = 0; i < r->nr; i++) {
		int g = r->entries[i].jr->groupid;

		if (g == last)
			continue;
		group_status(f, r, g);
		last = g;
	}
	if (nr)
		fputs("\nDisk stats (read/write):\n", f);
	for (size_t i = 0; i < nr; i++) {
		const struct bq_diskstats *d = disks[i].d;

		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
			disks[i].name, d->ios[BQ_READ], d->ios[BQ_WRITE], d->merges[BQ_READ],
			d->merges[BQ_WRITE], d->ticks_ms[BQ_READ], d->ticks_ms[BQ_WRITE],
			d->time_in_queue_ms, disks[i].util);
	}
	return ferror(f) ? -EIO : 0;
}
