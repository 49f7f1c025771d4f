// SPDX-License-Identifier: GPL-2.0-only
/*
 * files_report.c - blkqual files' output
 *
 * The text is vdbench's summary layout, column for column: a date and a
 * row of dotted group names, a row of field names, then one line per
 * interval starting with the time of day, and an avg_F-L line over the
 * intervals after the warmup (vdbench always leaves out the first).  A
 * number too wide for its column loses decimals, as in vdbench, so the
 * columns stay put.  Scripts written for vdbench's summary.html find the
 * same fields in the same places.
 *
 * The same text is kept for -o DIR (summary.txt, and the avg lines in
 * totals.txt); the JSON has every interval, the averages, and per
 * operation counts, errors and latency histograms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "files_report.h"
#include "report_util.h"

#define MB (1024.0 * 1024.0)

/**
 * struct col - one group of columns
 * @h1: the group's name, centred in dots over its columns
 * @h2a: first column's name
 * @wa: its width
 * @da: its decimals
 * @h2b: second column's name, or NULL for a single column
 * @wb: its width
 * @db: its decimals
 */
struct col {
	const char *h1;
	const char *h2a;
	int wa, da;
	const char *h2b;
	int wb, db;
};

static const struct col c_interval = { "Interval", "", 12, 0, NULL, 0, 0 };
static const struct col c_reqstd = { "ReqstdOps.", "rate", 6, 1, "resp", 6, 3 };
static const struct col c_cpu = { "cpu%", "total", 5, 1, "sys", 4, 2 };
static const struct col c_pct = { " read", "pct", 5, 1, NULL, 0, 0 };
static const struct col c_read = { "read", "rate", 6, 1, "resp", 6, 3 };
static const struct col c_write = { "write", "rate", 6, 1, "resp", 6, 3 };
static const struct col c_mb = { "mb/sec", "read", 5, 2, "write", 5, 2 };
static const struct col c_mbt = { "mb/sec", "total", 6, 2, NULL, 0, 0 };
static const struct col c_xfer = { "xfer", "size", 7, 0, NULL, 0, 0 };

/* The per-operation groups, in vdbench's order; open and close always show. */
static const int op_cols[] = {
	BQ_FOP_MKDIR, BQ_FOP_RMDIR, BQ_FOP_CREATE, BQ_FOP_OPEN, BQ_FOP_CLOSE,
	BQ_FOP_DELETE, BQ_FOP_GETATTR, BQ_FOP_SETATTR,
};

struct files_report {
	bool text;			/* to stdout */
	uint32_t columns;		/* bit per operation shown */
	char *sum_buf;			/* everything printed, for summary.txt */
	size_t sum_len;
	FILE *sum;
	char *tot_buf;			/* Starting and avg lines, for totals.txt */
	size_t tot_len;
	FILE *tot;
	json_object *doc;
	json_object *anchors;
	json_object *runs;
	json_object *run;		/* the run being reported */
	json_object *intervals;
	const struct bq_files_plan *plan;
	uint64_t interval_s;
	uint64_t warmup_s;
	int nr_lines;
};

/* Where a line goes: stdout (unless JSON is asked for) and summary.txt; totals.txt. */
enum { TO_MAIN = 1, TO_TOT = 2 };

static void __attribute__((format(printf, 3, 4)))
emit(struct files_report *r, int to, const char *fmt, ...)
{
	va_list ap;

	if ((to & TO_MAIN) && r->text) {
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	if ((to & TO_MAIN) && r->sum) {
		va_start(ap, fmt);
		vfprintf(r->sum, fmt, ap);
		va_end(ap);
	}
	if ((to & TO_TOT) && r->tot) {
		va_start(ap, fmt);
		vfprintf(r->tot, fmt, ap);
		va_end(ap);
	}
}

static void tod(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03ld", ts.tv_nsec / 1000000);
}

/* A number in @w characters: fewer decimals when it does not fit. */
static void fit(char *buf, size_t len, double v, int w, int d)
{
	for (;; d--) {
		snprintf(buf, len, " %*.*f", w, d > 0 ? d : 0, v);
		if ((int)strlen(buf) <= w + 1 || d <= 0)
			return;
	}
}

static void head1(char *out, size_t len, const struct col *c)
{
	int width = c->h2b ? c->wa + c->wb + 1 : c->wa;
	int extra = width - (int)strlen(c->h1), left = extra / 2;
	size_t n = strlen(out);

	snprintf(out + n, len - n, " %.*s%s%.*s", left, "....................", c->h1,
		 extra - left, "....................");
}

static void head2(char *out, size_t len, const struct col *c)
{
	size_t n = strlen(out);

	if (c->h2b)
		snprintf(out + n, len - n, " %*s %*s", c->wa, c->h2a, c->wb, c->h2b);
	else
		snprintf(out + n, len - n, " %*s", c->wa, c->h2a);
}

static void data(char *out, size_t len, const struct col *c, double a, double b)
{
	char num[64];
	size_t n = strlen(out);

	fit(num, sizeof(num), a, c->wa, c->da);
	snprintf(out + n, len - n, "%s", num);
	if (c->h2b) {
		n = strlen(out);
		fit(num, sizeof(num), b, c->wb, c->db);
		snprintf(out + n, len - n, "%s", num);
	}
}

static const struct col *op_col(int op)
{
	static struct col cols[BQ_FOP_NR];
	struct col *c = &cols[op];

	if (!c->h1)
		*c = (struct col){ bq_files_op_name(op), "rate", 5, 1, "resp", 6, 3 };
	return c;
}

static bool shown(const struct files_report *r, int op)
{
	return op == BQ_FOP_OPEN || op == BQ_FOP_CLOSE || (r->columns & (1u << op));
}

static const struct col *const fixed_cols[] = {
	&c_interval, &c_reqstd, &c_cpu, &c_pct, &c_read, &c_write, &c_mb, &c_mbt, &c_xfer,
};

static void headers(struct files_report *r, int to)
{
	char h1[1024], h2[1024], date[32];
	time_t now = time(NULL);
	struct tm tm;

	/* vdbench's date is as wide as its time of day: "Mar 04, 2020" */
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%b %d, %Y", &tm);
	snprintf(h1, sizeof(h1), "%s", date);
	snprintf(h2, sizeof(h2), "%12s", "");
	for (size_t i = 0; i < ARRAY_LEN(fixed_cols); i++) {
		head1(h1, sizeof(h1), fixed_cols[i]);
		head2(h2, sizeof(h2), fixed_cols[i]);
	}
	for (size_t i = 0; i < ARRAY_LEN(op_cols); i++) {
		if (!shown(r, op_cols[i]))
			continue;
		head1(h1, sizeof(h1), op_col(op_cols[i]));
		head2(h2, sizeof(h2), op_col(op_cols[i]));
	}
	emit(r, to, "\n%s\n%s\n", h1, h2);
}

/* The figures of one line, from a sample or a sum of samples. */
struct figures {
	double secs;
	double reqstd_rate, reqstd_resp_ms;
	double cpu_total, cpu_sys;
	double read_pct;
	double mb_read, mb_write;
	double xfer;
	double rate[BQ_FOP_NR], resp_ms[BQ_FOP_NR];
	uint64_t count[BQ_FOP_NR], errors[BQ_FOP_NR];
};

static void figures_of(const struct files_report *r, const struct bq_ops_sample *s,
		       struct figures *f)
{
	uint64_t req = 0, rw;
	double req_lat = 0;

	memset(f, 0, sizeof(*f));
	f->secs = (double)s->dt_ns / 1e9;
	for (int k = 0; k < BQ_FOP_NR; k++) {
		f->count[k] = s->count[k];
		f->errors[k] = s->errors[k];
		f->rate[k] = per_second(s->count[k], s->dt_ns);
		f->resp_ms[k] = s->mean_ns[k] / 1e6;
		if (r->plan->requested & (1u << k)) {
			req += s->count[k];
			req_lat += s->mean_ns[k] * (double)s->count[k];
		}
	}
	f->reqstd_rate = per_second(req, s->dt_ns);
	f->reqstd_resp_ms = req ? req_lat / (double)req / 1e6 : 0;
	f->cpu_total = s->cpu_total_pct;
	f->cpu_sys = s->cpu_sys_pct;
	rw = s->count[BQ_FOP_READ] + s->count[BQ_FOP_WRITE];
	f->read_pct = rw ? 100.0 * (double)s->count[BQ_FOP_READ] / (double)rw : 0;
	f->mb_read = f->secs > 0 ? (double)s->bytes[BQ_FOP_READ] / MB / f->secs : 0;
	f->mb_write = f->secs > 0 ? (double)s->bytes[BQ_FOP_WRITE] / MB / f->secs : 0;
	f->xfer = rw ? (double)((s->bytes[BQ_FOP_READ] + s->bytes[BQ_FOP_WRITE]) / rw) : 0;
}

static void line(struct files_report *r, int to, const char *label, const struct figures *f)
{
	char out[1024], when[32];

	tod(when, sizeof(when));
	snprintf(out, sizeof(out), "%s %12s", when, label);
	data(out, sizeof(out), &c_reqstd, f->reqstd_rate, f->reqstd_resp_ms);
	data(out, sizeof(out), &c_cpu, f->cpu_total, f->cpu_sys);
	data(out, sizeof(out), &c_pct, f->read_pct, 0);
	data(out, sizeof(out), &c_read, f->rate[BQ_FOP_READ], f->resp_ms[BQ_FOP_READ]);
	data(out, sizeof(out), &c_write, f->rate[BQ_FOP_WRITE], f->resp_ms[BQ_FOP_WRITE]);
	data(out, sizeof(out), &c_mb, f->mb_read, f->mb_write);
	data(out, sizeof(out), &c_mbt, f->mb_read + f->mb_write, 0);
	data(out, sizeof(out), &c_xfer, f->xfer, 0);
	for (size_t i = 0; i < ARRAY_LEN(op_cols); i++)
		if (shown(r, op_cols[i]))
			data(out, sizeof(out), op_col(op_cols[i]), f->rate[op_cols[i]],
			     f->resp_ms[op_cols[i]]);
	emit(r, to, "%s\n", out);
}

static json_object *figures_json(const struct files_report *r, const struct figures *f)
{
	json_object *o = json_object_new_object(), *ops = json_object_new_object();

	json_object_object_add(o, "seconds", json_dbl(f->secs));
	json_object_object_add(o, "reqstd_rate", json_dbl(f->reqstd_rate));
	json_object_object_add(o, "reqstd_resp_ms", json_dbl(f->reqstd_resp_ms));
	json_object_object_add(o, "cpu_total_pct", json_dbl(f->cpu_total));
	json_object_object_add(o, "cpu_sys_pct", json_dbl(f->cpu_sys));
	json_object_object_add(o, "read_pct", json_dbl(f->read_pct));
	json_object_object_add(o, "mb_read", json_dbl(f->mb_read));
	json_object_object_add(o, "mb_write", json_dbl(f->mb_write));
	json_object_object_add(o, "mb_total", json_dbl(f->mb_read + f->mb_write));
	json_object_object_add(o, "xfer", json_dbl(f->xfer));
	for (int k = 0; k < BQ_FOP_NR; k++) {
		json_object *op;

		if (!f->count[k] && !(r->plan->requested & (1u << k)))
			continue;
		op = json_object_new_object();
		json_object_object_add(op, "count", json_u64(f->count[k]));
		json_object_object_add(op, "errors", json_u64(f->errors[k]));
		json_object_object_add(op, "rate", json_dbl(f->rate[k]));
		json_object_object_add(op, "resp_ms", json_dbl(f->resp_ms[k]));
		json_object_object_add(ops, bq_files_op_name(k), op);
	}
	json_object_object_add(o, "ops", ops);
	return o;
}

struct files_report *files_report_new(bool text, uint32_t columns)
{
	struct files_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->text = text;
	r->columns = columns;
	r->sum = open_memstream(&r->sum_buf, &r->sum_len);
	r->tot = open_memstream(&r->tot_buf, &r->tot_len);
	r->doc = result_json_new("files");
	r->anchors = json_object_new_array();
	r->runs = json_object_new_array();
	if (!r->sum || !r->tot || !r->doc || !r->anchors || !r->runs) {
		files_report_free(r);
		return NULL;
	}
	json_object_object_add(r->doc, "anchors", json_object_get(r->anchors));
	json_object_object_add(r->doc, "runs", json_object_get(r->runs));
	return r;
}

/* "1,234,567", as vdbench prints counts */
static void commas(char *buf, size_t len, uint64_t v)
{
	char digits[32];
	size_t n, o = 0;

	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

void files_report_anchor(struct files_report *r, const struct bq_files_fsd *fsd)
{
	char when[32], d[32], f[32], b[32], size[32];
	uint64_t dirs, files, bytes;
	json_object *a = json_object_new_object(), *sizes = json_object_new_array();

	bq_files_tree_size(fsd, &dirs, &files, &bytes);
	tod(when, sizeof(when));
	commas(d, sizeof(d), dirs);
	commas(f, sizeof(f), files);
	commas(b, sizeof(b), bytes);
	fmt_size(size, sizeof(size), bytes);
	emit(r, TO_MAIN, "%s Anchor size: anchor=%s: dirs: %12s; files: %12s; bytes: %10s (%s)\n",
	     when, fsd->anchor, d, f, size, b);
	json_object_object_add(a, "fsd", json_object_new_string(fsd->name));
	json_object_object_add(a, "anchor", json_object_new_string(fsd->anchor));
	json_object_object_add(a, "depth", json_object_new_int(fsd->depth));
	json_object_object_add(a, "width", json_object_new_int(fsd->width));
	json_object_object_add(a, "files_per_dir", json_u64(fsd->files));
	json_object_object_add(a, "distribution",
			       json_object_new_string(fsd->dist_all ? "all" : "bottom"));
	for (int i = 0; i < fsd->sizes.nr; i++)
		json_object_array_add(sizes, json_u64(fsd->sizes.val[i]));
	json_object_object_add(a, "sizes", sizes);
	json_object_object_add(a, "dirs", json_u64(dirs));
	json_object_object_add(a, "files", json_u64(files));
	json_object_object_add(a, "bytes", json_u64(bytes));
	json_object_array_add(r->anchors, a);
}

static json_object *dist_json(const struct bq_files_dist *d)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < d->nr; i++) {
		json_object *e;

		if (d->nr == 1) {
			json_object_array_add(a, json_u64(d->val[i]));
			continue;
		}
		e = json_object_new_object();
		json_object_object_add(e, "size", json_u64(d->val[i]));
		json_object_object_add(e, "pct", json_dbl(d->pct[i]));
		json_object_array_add(a, e);
	}
	return a;
}

static json_object *flags_json(const struct bq_files_openflags *of)
{
	json_object *a = json_object_new_array();

	if (of->flags & O_DIRECT)
		json_object_array_add(a, json_object_new_string("o_direct"));
	if ((of->flags & O_SYNC) == O_SYNC)
		json_object_array_add(a, json_object_new_string("o_sync"));
	else if (of->flags & O_DSYNC)
		json_object_array_add(a, json_object_new_string("o_dsync"));
	if (of->fsync)
		json_object_array_add(a, json_object_new_string("fsync"));
	return a;
}

void files_report_start(struct files_report *r, const struct bq_files_plan *plan,
			uint64_t elapsed_s, uint64_t interval_s, bool simulate)
{
	const struct bq_files_rd *rd = plan->rd;
	json_object *wl = json_object_new_array();
	char when[32], rate[32];

	r->plan = plan;
	r->interval_s = interval_s;
	r->warmup_s = rd->warmup_s;
	r->nr_lines = 0;
	if (rd->rate_max)
		snprintf(rate, sizeof(rate), "max. ");
	else
		snprintf(rate, sizeof(rate), "%.0f; ", rd->rate);
	tod(when, sizeof(when));
	if (plan->format)
		emit(r, TO_MAIN | TO_TOT, "\n%s %s RD=format_for_%s\n", when,
		     simulate ? "Simulating" : "Starting", rd->name);
	else
		emit(r, TO_MAIN | TO_TOT, "\n%s %s RD=%s; elapsed=%llu; fwdrate=%sFor loops: None\n", when,
		     simulate ? "Simulating" : "Starting", rd->name,
		     (unsigned long long)elapsed_s, rate);

	r->run = json_object_new_object();
	r->intervals = json_object_new_array();
	json_object_object_add(r->run, "rd", json_object_new_string(rd->name));
	json_object_object_add(r->run, "format", json_object_new_boolean(plan->format));
	if (!plan->format)
		json_object_object_add(r->run, "elapsed_s", json_u64(elapsed_s));
	json_object_object_add(r->run, "interval_s", json_u64(interval_s));
	if (plan->format || rd->rate_max)
		json_object_object_add(r->run, "fwdrate", json_object_new_string("max"));
	else
		json_object_object_add(r->run, "fwdrate", json_dbl(rd->rate));
	for (size_t g = 0; g < plan->nr_fwg; g++) {
		const struct bq_files_fwg *fwg = &plan->fwg[g];
		const struct bq_files_fwd *fwd = fwg->fwd;
		json_object *w = json_object_new_object();

		json_object_object_add(w, "fwd", json_object_new_string(fwd->name));
		json_object_object_add(w, "fsd",
				       json_object_new_string(plan->p->fsd[fwg->fsd].name));
		json_object_object_add(w, "operation",
				       json_object_new_string(plan->format ? "format" :
							      bq_files_op_name(fwg->op)));
		if (fwd->rdpct >= 0)
			json_object_object_add(w, "rdpct", json_dbl(fwd->rdpct));
		json_object_object_add(w, "threads", json_object_new_int(fwg->threads));
		json_object_object_add(w, "xfersize", dist_json(&fwd->xfer));
		json_object_object_add(w, "fileio", json_object_new_string(
					       fwd->random_io ? "random" : "sequential"));
		json_object_object_add(w, "fileselect", json_object_new_string(
					       fwd->select_random ? "random" : "sequential"));
		json_object_object_add(w, "openflags", flags_json(&fwg->openflags));
		json_object_object_add(w, "rate", json_dbl(fwg->rate));
		json_object_array_add(wl, w);
	}
	json_object_object_add(r->run, "workloads", wl);
	json_object_object_add(r->run, "intervals", r->intervals);
	json_object_array_add(r->runs, r->run);
}

static void interval_line(struct files_report *r, const struct bq_ops_sample *s)
{
	struct figures f;
	char label[32];
	json_object *j;

	/* vdbench repeats the headers every 30 intervals */
	if (r->nr_lines++ % 30 == 0)
		headers(r, TO_MAIN);
	figures_of(r, s, &f);
	snprintf(label, sizeof(label), "%d", r->nr_lines);
	line(r, TO_MAIN, label, &f);
	j = figures_json(r, &f);
	json_object_object_add(j, "interval", json_object_new_int(r->nr_lines));
	json_object_array_add(r->intervals, j);
	if (r->text)
		fflush(stdout);
}

void files_report_sample(void *arg, const struct bq_ops_sample *s)
{
	interval_line(arg, s);
}

void files_report_note(struct files_report *r, const char *fmt, ...)
{
	char msg[512], when[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tod(when, sizeof(when));
	emit(r, TO_MAIN | TO_TOT, "%s %s\n", when, msg);
}

/* Intervals first..last (1-based) added up into one sample. */
static void add_up(const struct bq_ops_sample *const *iv, int first, int last,
		   struct bq_ops_sample *sum)
{
	double lat[BQ_FOP_NR] = { 0 }, cpu = 0, sys = 0;

	memset(sum, 0, sizeof(*sum));
	for (int i = first - 1; i < last; i++) {
		const struct bq_ops_sample *s = iv[i];

		sum->dt_ns += s->dt_ns;
		for (int k = 0; k < BQ_FOP_NR; k++) {
			sum->count[k] += s->count[k];
			sum->bytes[k] += s->bytes[k];
			sum->errors[k] += s->errors[k];
			lat[k] += s->mean_ns[k] * (double)s->count[k];
		}
		cpu += s->cpu_total_pct * (double)s->dt_ns;
		sys += s->cpu_sys_pct * (double)s->dt_ns;
	}
	for (int k = 0; k < BQ_FOP_NR; k++)
		sum->mean_ns[k] = sum->count[k] ? lat[k] / (double)sum->count[k] : 0;
	sum->cpu_total_pct = sum->dt_ns ? cpu / (double)sum->dt_ns : 0;
	sum->cpu_sys_pct = sum->dt_ns ? sys / (double)sum->dt_ns : 0;
}

static json_object *totals_json(const struct bq_files_result *res)
{
	const struct bq_ops_result *ops = &res->ops;
	json_object *t = json_object_new_object(), *per = json_object_new_object();

	json_object_object_add(t, "runtime_s", json_dbl((double)ops->runtime_ns / 1e9));
	json_object_object_add(t, "threads", json_object_new_int(ops->nr_threads));
	json_object_object_add(t, "cpu_usr_s", json_dbl((double)ops->usr_ns / 1e9));
	json_object_object_add(t, "cpu_sys_s", json_dbl((double)ops->sys_ns / 1e9));
	json_object_object_add(t, "cpu_total_pct", json_dbl(ops->cpu_total_pct));
	json_object_object_add(t, "cpu_sys_pct", json_dbl(ops->cpu_sys_pct));
	for (int k = 0; k < ops->nr_ops; k++) {
		const struct bq_op_stat *s = &ops->total[k];
		json_object *o, *lat;

		if (!s->count)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "count", json_u64(s->count));
		json_object_object_add(o, "bytes", json_u64(s->bytes));
		json_object_object_add(o, "errors", json_u64(s->errors));
		json_object_object_add(o, "rate", json_dbl(per_second(s->count,
								       ops->runtime_ns)));
		lat = hist_json(&s->lat);
		json_object_object_add(o, "latency_ns", lat ? lat : NULL);
		json_object_object_add(per, bq_files_op_name(k), o);
	}
	json_object_object_add(t, "ops", per);
	return t;
}

int files_report_end(struct files_report *r, const struct bq_files_result *res,
		     char *why, size_t len)
{
	const struct bq_ops_result *ops = &res->ops;
	const struct bq_ops_sample **iv;
	json_object *errs = json_object_new_array(), *avg, *tree;
	struct bq_ops_sample sum;
	struct figures f;
	uint64_t failed = 0, req = 0;
	int n = 0, first, warm, status = 0;
	bool why_thread = false;
	char label[48];

	iv = calloc(ops->nr_samples + 1, sizeof(*iv));
	if (!iv)
		return -ENOMEM;
	for (size_t i = 0; i < ops->nr_samples; i++)
		iv[n++] = &ops->samples[i];
	if (res->tail.dt_ns) {
		interval_line(r, &res->tail);
		iv[n++] = &res->tail;
	}
	/* vdbench: warmup intervals, at least one, are left out of the average */
	warm = r->interval_s ? (int)(r->warmup_s / r->interval_s) : 0;
	if (warm < 1)
		warm = 1;
	first = n > warm ? warm + 1 : 1;
	if (n) {
		add_up(iv, first, n, &sum);
		figures_of(r, &sum, &f);
		snprintf(label, sizeof(label), "avg_%d-%d", first, n);
		/* summary: right after the intervals; totals: under its own headers */
		headers(r, TO_TOT);
		line(r, TO_MAIN | TO_TOT, label, &f);
		avg = figures_json(r, &f);
		json_object_object_add(avg, "label", json_object_new_string(label));
		json_object_object_add(r->run, "average", avg);
	}
	free(iv);

	for (int k = 0; k < ops->nr_ops; k++) {
		failed += ops->total[k].errors;
		if (r->plan->requested & (1u << k))
			req += ops->total[k].count;
	}
	for (int i = 0; i < ops->nr_threads; i++) {
		const struct bq_ops_thread *t = &ops->threads[i];

		for (int e = 0; e < t->nr_errors; e++) {
			const struct bq_op_error *er = &t->errors[e];
			json_object *o = json_object_new_object();

			json_object_object_add(o, "op", json_object_new_string(
						       bq_files_op_name(er->op)));
			json_object_object_add(o, "errno", json_object_new_int(er->err));
			json_object_object_add(o, "error",
					       json_object_new_string(strerror(er->err)));
			json_object_object_add(o, "path", json_object_new_string(er->what));
			if (er->offset >= 0)
				json_object_object_add(o, "offset", json_u64((uint64_t)er->offset));
			json_object_array_add(errs, o);
			if (json_object_array_length(errs) <= 5)
				files_report_note(r, "error: %s %s: %s", bq_files_op_name(er->op),
						  er->what, strerror(er->err));
			if (!status && !why_thread)
				snprintf(why, len, "%s %.200s: %s", bq_files_op_name(er->op),
					 er->what, strerror(er->err));
			status = 1;
		}
		if (t->ret) {
			files_report_note(r, "thread %d: %s", i, t->msg);
			/* a thread's own account says more than its errno */
			if (!why_thread)
				snprintf(why, len, "%s", t->msg);
			why_thread = true;
			status = 1;
		}
	}
	if (failed && !status) {
		snprintf(why, len, "%llu operations failed", (unsigned long long)failed);
		status = 1;
	}
	if (failed)
		files_report_note(r, "%llu operations failed", (unsigned long long)failed);
	if (res->ran_out) {
		files_report_note(r, "%s", res->note);
		/* a workload with nothing to work on did not measure anything */
		if (!req && !status) {
			snprintf(why, len, "nothing done: %s", res->note);
			status = 1;
		}
	}
	json_object_object_add(r->run, "totals", totals_json(res));
	tree = json_object_new_object();
	json_object_object_add(tree, "dirs", json_u64(res->dirs));
	json_object_object_add(tree, "files", json_u64(res->files));
	json_object_object_add(r->run, "tree_after", tree);
	json_object_object_add(r->run, "errors", errs);
	if (res->ran_out)
		json_object_object_add(r->run, "note", json_object_new_string(res->note));
	json_object_object_add(r->run, "interrupted", json_object_new_boolean(ops->interrupted));
	if (r->text)
		fflush(stdout);
	return status;
}

json_object *files_report_json(struct files_report *r)
{
	return r->doc;
}

static int emit_text(FILE *out, void *arg)
{
	const char *text = arg;

	return fputs(text, out) < 0 ? -EIO : 0;
}

static int emit_json(FILE *out, void *arg)
{
	return json_print(out, arg);
}

int files_report_save(struct files_report *r, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	fflush(r->sum);
	fflush(r->tot);
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	ret = write_atomically(path, emit_text, r->sum_buf ? r->sum_buf : (char *)"");
	if (!ret) {
		snprintf(path, sizeof(path), "%s/totals.txt", dir);
		ret = write_atomically(path, emit_text, r->tot_buf ? r->tot_buf : (char *)"");
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/summary.json", dir);
		ret = write_atomically(path, emit_json, r->doc);
	}
	return ret;
}

void files_report_free(struct files_report *r)
{
	if (!r)
		return;
	if (r->sum)
		fclose(r->sum);
	if (r->tot)
		fclose(r->tot);
	free(r->sum_buf);
	free(r->tot_buf);
	json_object_put(r->anchors);
	json_object_put(r->runs);
	json_object_put(r->doc);
	free(r);
}
