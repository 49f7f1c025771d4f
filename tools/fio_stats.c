// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_stats.c - blkqual's figures arranged as fio's thread reports, and
 * the distributions fio's layouts show, made from blkqual's histograms
 *
 * Every number in the fio layouts is one of blkqual's own figures of the
 * run (the same ones run -o json shows) or is computed from them here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fio_output.h"

static const double default_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/**
 * fio_pcts_of() - the percentiles a job's report shows, as fio decides
 * @j: the job
 * @p: receives them
 */
void fio_pcts_of(const struct bq_job *j, struct fio_pcts *p)
{
	p->list = j->nr_pct_list ? j->pct_list : default_pcts;
	p->nr = j->nr_pct_list ? j->nr_pct_list : (int)ARRAY_LEN(default_pcts);
	p->precision = j->nr_pct_list ? j->pct_precision : 2;
	p->clat = !j->clat_pct_off;
	p->lat = j->lat_pct;
	p->sig_figs = j->sig_figs ? j->sig_figs : 4;
}

/* Range upper bounds; the last millisecond key is every longer I/O. */
const char *const fio_lat_keys[FIO_LAT_M] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};
static const uint64_t lat_bounds[FIO_LAT_M - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
};

const char *const fio_depth_keys[FIO_DEPTHS] = { "1", "2", "4", "8", "16", "32", ">=64" };

/**
 * fio_given_value() - the value a job was last given for an option
 * @j: the job
 * @key: the option's name
 * @buf: receives the value
 * @len: room in @buf
 *
 * For what blkqual reads but does not keep (description=).
 *
 * Return: whether the job was given @key.
 */
bool fio_given_value(const struct bq_job *j, const char *key, char *buf, size_t len)
{
	const char *p = j->fio_given, *end = p + strnlen(p, sizeof(j->fio_given));
	size_t klen = strlen(key);
	bool found = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		if ((size_t)(nl - p) > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(nl - p - (long)klen - 1), p + klen + 1);
			found = true;
		}
		p = nl + 1;
	}
	return found;
}

const char *fio_version(void)
{
	return "blkqual-" BLKQUAL_VERSION;
}

const struct bq_dir_result *fio_dir(const struct fio_entry *e, int d)
{
	return d < BQ_NR_DIRS ? &e->t->d[d] : &e->t->trim;
}

static void entry_of_thread(struct fio_entry *e, const struct bq_job_result *jr, int i)
{
	e->jr = jr;
	e->t = &jr->threads[i];
	e->nr_threads = 1;
	e->thread_ns = jr->runtime_ns;
	for (int d = 0; d < FIO_NR_DIRS; d++)
		e->runtime_ns[d] = fio_dir(e, d)->ios ? jr->runtime_ns : 0;
}

static void entry_of_group(struct fio_entry *e, const struct bq_results *res,
			   struct bq_group_sum *g)
{
	e->jr = &res->jobs[g->first_job];
	e->t = &g->sum;
	e->sum = g;
	e->nr_threads = g->nr_threads;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		e->runtime_ns[d] = g->runtime_ns[d];
	e->runtime_ns[BQ_NR_DIRS] = g->trim_runtime_ns;
}

/**
 * fio_report_init() - a run's results as fio's thread reports
 * @r: receives them; release with fio_report_free()
 * @res: the run
 *
 * fio reports each thread (numjobs=4 makes four reports of one name),
 * except that the threads of a group_reporting group make one.
 *
 * Return: 0 or -ENOMEM.
 */
int fio_report_init(struct fio_report *r, const struct bq_results *res)
{
	size_t threads = 0, gi = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->res = res;
	r->terse_version = 3;
	clock_gettime(CLOCK_REALTIME, &r->now);
	ret = bq_group_sums(res, &r->groups, &r->nr_groups);
	if (ret)
		return ret;
	for (size_t k = 0; k < res->nr; k++)
		threads += (size_t)res->jobs[k].nr_threads;
	r->entries = calloc(threads + 1, sizeof(*r->entries));
	if (!r->entries) {
		fio_report_free(r);
		return -ENOMEM;
	}
	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];

		for (int i = 0; i < jr->nr_threads; i++) {
			struct bq_group_sum *g = gi < r->nr_groups ? &r->groups[gi] : NULL;

			if (g && g->first_job == k && g->first_thread == i) {
				struct fio_entry *e = &r->entries[r->nr++];

				entry_of_group(e, res, g);
				gi++;
				e->thread_ns = jr->runtime_ns;
				/* The group's other threads are in its sum. */
				for (int left = g->nr_threads - 1; left > 0; left--) {
					if (++i >= res->jobs[k].nr_threads) {
						i = 0;
						if (++k >= res->nr)
							return 0;
					}
					e->thread_ns += res->jobs[k].runtime_ns;
				}
				jr = &res->jobs[k];
				continue;
			}
			entry_of_thread(&r->entries[r->nr++], jr, i);
		}
	}
	return 0;
}

void fio_report_free(struct fio_report *r)
{
	bq_group_sums_free(r->groups, r->nr_groups);
	free(r->entries);
	memset(r, 0, sizeof(*r));
}

/*
 * fio's histogram: values under 128 ns exact, then 64 bins per power of
 * two.  blkqual's has 128 per power of two above the same 128 ns, so
 * each fio bin is exactly two of blkqual's: the mapping loses nothing.
 */
#define PLAT_BITS 6
#define PLAT_VAL (1u << PLAT_BITS)

unsigned int fio_plat_idx(uint64_t ns)
{
	unsigned int msb, err, idx;

	if (ns < 2 * PLAT_VAL)
		return (unsigned int)ns;
	msb = 63 - (unsigned int)__builtin_clzll(ns);
	err = msb - PLAT_BITS;
	idx = ((err + 1) << PLAT_BITS) + (unsigned int)((ns >> err) & (PLAT_VAL - 1));
	return idx < FIO_PLAT_NR - 1 ? idx : FIO_PLAT_NR - 1;
}

uint64_t fio_plat_val(unsigned int idx)
{
	unsigned int err;
	uint64_t base;

	if (idx < 2 * PLAT_VAL)
		return idx;
	err = (idx >> PLAT_BITS) - 1;
	base = UINT64_C(1) << (err + PLAT_BITS);
	/* The bin's middle, as fio reports it. */
	return base + (uint64_t)(((double)(idx % PLAT_VAL) + 0.5) * (double)(UINT64_C(1) << err));
}

/* A blkqual bucket's reported value: its middle, within its run's min and max. */
static uint64_t bucket_value(const struct bq_hist *h, unsigned int i)
{
	uint64_t lower, width, v;

	if (i == BQ_HIST_BUCKETS - 1)
		return h->max;
	bq_hist_bucket_bounds(i, &lower, &width);
	v = lower + width / 2;
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

/**
 * fio_lat_dist() - fio's latency ranges: percent of the entry's I/Os
 * @e: the entry
 * @n: 2 ns to 1000 ns (under 2, under 4, ... under 1000)
 * @u: the same in microseconds
 * @m: the same in milliseconds, then 2000 and longer
 *
 * fio counts every read, write and trim in one distribution; each of
 * blkqual's buckets is counted at its reported value (within 1/256).
 */
void fio_lat_dist(const struct fio_entry *e, double n[FIO_LAT_N], double u[FIO_LAT_U],
		  double m[FIO_LAT_M])
{
	uint64_t cn[FIO_LAT_N] = { 0 }, cu[FIO_LAT_U] = { 0 }, cm[FIO_LAT_M] = { 0 }, total = 0;

	for (int d = 0; d < FIO_NR_DIRS; d++) {
		const struct bq_hist *h = &fio_dir(e, d)->lat;

		total += h->count;
		for (unsigned int i = 0; h->count && i < BQ_HIST_BUCKETS; i++) {
			uint64_t c = h->buckets[i], v, *arr;
			int nb, k;

			if (!c)
				continue;
			v = bucket_value(h, i);
			if (v < 1000) {
				arr = cn;
				nb = FIO_LAT_N;
			} else if (v < 1000000) {
				arr = cu;
				nb = FIO_LAT_U;
				v /= 1000;
			} else {
				arr = cm;
				nb = FIO_LAT_M;
				v /= 1000000;
			}
			for (k = 0; k < nb - 1 && v >= lat_bounds[k]; k++)
				;
			arr[k] += c;
		}
	}
	for (int k = 0; k < FIO_LAT_M; k++) {
		if (k < FIO_LAT_N)
			n[k] = total ? 100.0 * (double)cn[k] / (double)total : 0;
		if (k < FIO_LAT_U)
			u[k] = total ? 100.0 * (double)cu[k] / (double)total : 0;
		m[k] = total ? 100.0 * (double)cm[k] / (double)total : 0;
	}
}

/**
 * fio_depth_dist() - fio's I/O depth levels
 * @e: the entry
 * @pct: receives percent of I/Os per level
 *
 * blkqual keeps the mean depth, not its distribution; only a queue that
 * can hold one I/O (iodepth=1) has a known one: all at depth 1.
 *
 * Return: whether @pct holds the distribution (else it is all 0).
 */
bool fio_depth_dist(const struct fio_entry *e, double pct[FIO_DEPTHS])
{
	uint64_t ios = 0;

	memset(pct, 0, FIO_DEPTHS * sizeof(*pct));
	for (int d = 0; d < FIO_NR_DIRS; d++)
		ios += fio_dir(e, d)->ios;
	if (e->jr->job.iodepth != 1 || !ios)
		return false;
	pct[0] = 100;
	return true;
}

/**
 * fio_disks() - the devices the run used, each once, with their counters
 * @res: the run
 * @out: receives them
 * @max: room in @out
 *
 * The counters are blkqual's diskstats of the first job that used the
 * device, over that job's window; util as fio computes it, the share of
 * that window the device was busy (io_ticks), at most 100%.
 *
 * Return: how many.
 */
size_t fio_disks(const struct bq_results *res, struct fio_disk *out, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < res->nr; k++) {
		const struct bq_job_result *jr = &res->jobs[k];

		for (int i = 0; i < jr->nr_targets && n < max; i++) {
			const struct bq_target_info *t = &jr->targets[i];
			bool seen = false;

			if (!t->have_stats || !t->devname[0])
				continue;
			for (size_t s = 0; s < n; s++)
				seen |= !strcmp(out[s].name, t->devname);
			if (seen)
				continue;
			out[n].name = t->devname;
			out[n].d = &t->delta;
			out[n].util = bq_diskstats_util(&t->delta, t->stats_window_ns);
			if (out[n].util > 100)
				out[n].util = 100;
			n++;
		}
	}
	return n;
}
