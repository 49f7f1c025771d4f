// SPDX-License-Identifier: GPL-2.0-only
/*
 * criteria.c - pass/fail bounds of a qualification: "randread 4k qd1
 * p99.99 <= 5 ms", parsed into cell selectors, a metric and a bound, and
 * judged against the measured cells
 *
 * The grammar is small on purpose: words in any order, so a criterion
 * reads the way a datasheet states it, and every word either means one
 * thing or is refused by name, so a typo can never silently widen what
 * a criterion checks.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/jobopt.h"
#include "qualify_int.h"

int bq_q_parse_bytes(const char *s, uint32_t *out)
{
	static const struct {
		const char *unit;
		double mult;
	} units[] = {
		{ "", 1 }, { "b", 1 }, { "k", 1024 }, { "kb", 1024 }, { "kib", 1024 },
		{ "m", 1048576 }, { "mb", 1048576 }, { "mib", 1048576 },
	};
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		double bytes = v * units[i].mult;

		if (strcasecmp(end, units[i].unit))
			continue;
		if (bytes != floor(bytes) || bytes >= 4294967296.0)
			return -EINVAL;
		*out = (uint32_t)bytes;
		return 0;
	}
	return -EINVAL;
}

int bq_q_parse_mix(const char *s, unsigned int *read_pct)
{
	unsigned int r, w;
	int n = 0;

	if (sscanf(s, "%3u/%3u%n", &r, &w, &n) != 2 || s[n] || !isdigit((unsigned char)*s) ||
	    r + w != 100)
		return -EINVAL;
	*read_pct = r;
	return 0;
}

void bq_q_fmt_bs(char *buf, size_t len, uint32_t bs)
{
	if (bs % 1024 == 0)
		snprintf(buf, len, "%uk", bs / 1024);
	else if (bs % 512 == 0)
		snprintf(buf, len, "%gk", bs / 1024.0);
	else
		snprintf(buf, len, "%ub", bs);
}

const char *bq_metric_unit(enum bq_metric m)
{
	switch (m) {
	case BQ_METRIC_IOPS:
		return "iops";
	case BQ_METRIC_BW:
		return "bytes_per_second";
	default:
		return "ns";
	}
}

const char *bq_cmp_name(enum bq_cmp op)
{
	static const char *const names[] = {
		[BQ_CMP_LE] = "<=", [BQ_CMP_LT] = "<", [BQ_CMP_GE] = ">=", [BQ_CMP_GT] = ">",
	};

	return (size_t)op < ARRAY_SIZE(names) ? names[op] : "?";
}

static bool is_latency(enum bq_metric m)
{
	return m != BQ_METRIC_IOPS && m != BQ_METRIC_BW;
}

/* ---- words -------------------------------------------------------------- */

struct words {
	struct bq_cellsel *sel;
	bool have_metric;
	int dir;		/* as written, BQ_SEL_ANY when not */
	int rw_dir;		/* implied by randread/randwrite/seqread/seqwrite */
	bool have_rw;
	bool have_mix;
};

static const struct {
	const char *word;
	int random;
	int read_pct;
	int dir;
} rw_words[] = {
	{ "randread", 1, 100, BQ_READ },
	{ "randwrite", 1, 0, BQ_WRITE },
	{ "randrw", 1, BQ_SEL_MIXED, BQ_SEL_ANY },
	{ "seqread", 0, 100, BQ_READ },
	{ "seqwrite", 0, 0, BQ_WRITE },
	{ "seqrw", 0, BQ_SEL_MIXED, BQ_SEL_ANY },
	{ "random", 1, BQ_SEL_ANY, BQ_SEL_ANY },
	{ "rand", 1, BQ_SEL_ANY, BQ_SEL_ANY },
	{ "sequential", 0, BQ_SEL_ANY, BQ_SEL_ANY },
	{ "seq", 0, BQ_SEL_ANY, BQ_SEL_ANY },
};

static const struct {
	const char *word;
	enum bq_metric metric;
	double pct;
} metric_words[] = {
	{ "iops", BQ_METRIC_IOPS, 0 },
	{ "mbps", BQ_METRIC_BW, 0 },
	{ "mb/s", BQ_METRIC_BW, 0 },
	{ "bw", BQ_METRIC_BW, 0 },
	{ "bandwidth", BQ_METRIC_BW, 0 },
	{ "throughput", BQ_METRIC_BW, 0 },
	{ "mean", BQ_METRIC_LAT_MEAN, 0 },
	{ "avg", BQ_METRIC_LAT_MEAN, 0 },
	{ "average", BQ_METRIC_LAT_MEAN, 0 },
	{ "min", BQ_METRIC_LAT_MIN, 0 },
	{ "max", BQ_METRIC_LAT_MAX, 0 },
	{ "median", BQ_METRIC_LAT_PCT, 50 },
};

static int set_metric(struct words *w, enum bq_metric m, double pct, const char *word,
		      struct bq_parse_error *err)
{
	if (w->have_metric)
		return bq_parse_fail(err, -EINVAL, "'%s': a criterion measures one figure", word);
	w->have_metric = true;
	w->sel->metric = m;
	w->sel->pct = pct;
	return 0;
}

/* pNN or pNN.NN: a percentile strictly between 0 and 100, p100 is the maximum. */
static int percentile_word(struct words *w, const char *word, struct bq_parse_error *err)
{
	char *end;
	double p;

	if (!isdigit((unsigned char)word[1]))
		return -ENOENT;
	p = strtod(word + 1, &end);
	if (*end)
		return -ENOENT;
	if (!(p > 0 && p <= 100))
		return bq_parse_fail(err, -EINVAL, "'%s': a percentile is above 0 and at most 100",
				     word);
	return p == 100 ? set_metric(w, BQ_METRIC_LAT_MAX, 0, word, err) :
			  set_metric(w, BQ_METRIC_LAT_PCT, p, word, err);
}

static int rw_word(struct words *w, size_t i, const char *word, struct bq_parse_error *err)
{
	struct bq_cellsel *s = w->sel;

	if (w->have_rw)
		return bq_parse_fail(err, -EINVAL, "'%s': the I/O pattern is given twice", word);
	if (w->have_mix && rw_words[i].read_pct != BQ_SEL_ANY)
		return bq_parse_fail(err, -EINVAL, "'%s' and a R/W mix both say the mix", word);
	w->have_rw = true;
	s->random = rw_words[i].random;
	if (rw_words[i].read_pct != BQ_SEL_ANY)
		s->read_pct = rw_words[i].read_pct;
	w->rw_dir = rw_words[i].dir;
	return 0;
}

static int one_word(struct words *w, const char *word, struct bq_parse_error *err)
{
	struct bq_cellsel *s = w->sel;
	unsigned int u;
	uint32_t bytes;
	int ret, n;

	if (!strcasecmp(word, "read") || !strcasecmp(word, "reads") ||
	    !strcasecmp(word, "write") || !strcasecmp(word, "writes")) {
		int dir = tolower((unsigned char)word[0]) == 'r' ? BQ_READ : BQ_WRITE;

		if (w->dir != BQ_SEL_ANY && w->dir != dir)
			return bq_parse_fail(err, -EINVAL, "'%s': two directions", word);
		w->dir = dir;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rw_words); i++)
		if (!strcasecmp(word, rw_words[i].word))
			return rw_word(w, i, word, err);
	for (size_t i = 0; i < ARRAY_SIZE(metric_words); i++)
		if (!strcasecmp(word, metric_words[i].word))
			return set_metric(w, metric_words[i].metric, metric_words[i].pct, word,
					  err);
	if (!strcasecmp(word, "latency") || !strcasecmp(word, "lat"))
		return 0;
	if (tolower((unsigned char)word[0]) == 'p') {
		ret = percentile_word(w, word, err);
		if (ret != -ENOENT)
			return ret;
	}
	if (!strncasecmp(word, "step:", 5)) {
		if (!word[5] || strlen(word + 5) >= sizeof(s->step))
			return bq_parse_fail(err, -EINVAL, "'%s': bad step name", word);
		snprintf(s->step, sizeof(s->step), "%s", word + 5);
		return 0;
	}
	if (!strncasecmp(word, "qd", 2) && isdigit((unsigned char)word[2])) {
		if (sscanf(word + 2, "%u%n", &u, &n) != 1 || word[2 + n] || !u || u > 65536)
			return bq_parse_fail(err, -EINVAL, "'%s': queue depth from qd1 to qd65536",
					     word);
		s->iodepth = u;
		return 0;
	}
	if (strchr(word, '/') && isdigit((unsigned char)word[0])) {
		if (bq_q_parse_mix(word, &u))
			return bq_parse_fail(err, -EINVAL, "'%s': a R/W mix is two percentages "
					     "adding up to 100, like 65/35", word);
		if (w->have_mix || (w->have_rw && s->read_pct != BQ_SEL_ANY))
			return bq_parse_fail(err, -EINVAL, "'%s': the R/W mix is given twice", word);
		w->have_mix = true;
		s->read_pct = (int)u;
		return 0;
	}
	if (isdigit((unsigned char)word[0]) || word[0] == '.') {
		if (strspn(word, "0123456789.") == strlen(word))
			return bq_parse_fail(err, -EINVAL, "'%s': a block size needs its unit "
					     "(512b, 4k, 1m)", word);
		if (bq_q_parse_bytes(word, &bytes) || bytes % 512)
			return bq_parse_fail(err, -EINVAL, "'%s': not a block size (512b, 0.5k, 4k, "
					     "1m: a multiple of 512 bytes)", word);
		if (s->bs)
			return bq_parse_fail(err, -EINVAL, "'%s': the block size is given twice",
					     word);
		s->bs = bytes;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "unknown word '%s'", word);
}

static void sel_init(struct bq_cellsel *s)
{
	memset(s, 0, sizeof(*s));
	s->random = BQ_SEL_ANY;
	s->read_pct = BQ_SEL_ANY;
	s->dir = BQ_SEL_ANY;
	s->metric = BQ_METRIC_IOPS;
}

/* The words before the operator; @w->have_metric says whether one was named. */
static int parse_words(char *text, struct words *w, struct bq_parse_error *err)
{
	char *save = NULL;
	int ret;

	w->dir = BQ_SEL_ANY;
	w->rw_dir = BQ_SEL_ANY;
	for (char *word = strtok_r(text, " \t,", &save); word;
	     word = strtok_r(NULL, " \t,", &save)) {
		ret = one_word(w, word, err);
		if (ret)
			return ret;
	}
	w->sel->dir = w->dir != BQ_SEL_ANY ? w->dir : w->rw_dir;
	if (w->dir != BQ_SEL_ANY && w->rw_dir != BQ_SEL_ANY && w->dir != w->rw_dir)
		return bq_parse_fail(err, -EINVAL, "%s cells have no %s figures",
				     w->rw_dir == BQ_READ ? "read-only" : "write-only",
				     w->dir == BQ_READ ? "read" : "write");
	return 0;
}

int bq_cellsel_parse(const char *text, struct bq_cellsel *sel, struct bq_parse_error *err)
{
	struct words w = { .sel = sel };
	char *copy = strdup(text);
	int ret;

	sel_init(sel);
	if (!copy)
		return -ENOMEM;
	ret = parse_words(copy, &w, err);
	free(copy);
	if (ret)
		return ret;
	if (!w.have_metric)
		return bq_parse_fail(err, -EINVAL, "'%s' names no figure (iops, mbps, mean, max, "
				     "pNN, ...)", text);
	return 0;
}

/* ---- the bound ---------------------------------------------------------- */

enum unit_kind { UNIT_PLAIN, UNIT_COUNT, UNIT_TIME, UNIT_BW };

static const struct {
	const char *unit;
	enum unit_kind kind;
	double mult;
	bool exact_case;	/* "M" (million) is not "m" */
} units[] = {
	{ "", UNIT_PLAIN, 1, false },
	{ "k", UNIT_COUNT, 1e3, false },
	{ "M", UNIT_COUNT, 1e6, true },
	{ "ns", UNIT_TIME, 1, false },
	{ "us", UNIT_TIME, 1e3, false },
	{ "\xc2\xb5s", UNIT_TIME, 1e3, false },
	{ "usec", UNIT_TIME, 1e3, false },
	{ "ms", UNIT_TIME, 1e6, false },
	{ "msec", UNIT_TIME, 1e6, false },
	{ "s", UNIT_TIME, 1e9, false },
	{ "sec", UNIT_TIME, 1e9, false },
	{ "B/s", UNIT_BW, 1, false },
	{ "kB/s", UNIT_BW, 1e3, false },
	{ "MB/s", UNIT_BW, 1e6, false },
	{ "GB/s", UNIT_BW, 1e9, false },
	{ "KiB/s", UNIT_BW, 1024.0, false },
	{ "MiB/s", UNIT_BW, 1048576.0, false },
	{ "GiB/s", UNIT_BW, 1073741824.0, false },
};

static int parse_bound(char *rhs, struct words *w, struct bq_criterion *c,
		       struct bq_parse_error *err)
{
	struct bq_cellsel *s = &c->sel;
	char *end, *unit, *tail;
	size_t len;
	double v;

	while (isspace((unsigned char)*rhs))
		rhs++;
	if (!isdigit((unsigned char)*rhs) && *rhs != '.')
		return bq_parse_fail(err, -EINVAL, "no number after '%s'", bq_cmp_name(c->op));
	v = strtod(rhs, &end);
	if (end == rhs || !isfinite(v) || v < 0)
		return bq_parse_fail(err, -EINVAL, "'%s' is not a number", rhs);
	unit = end;
	while (isspace((unsigned char)*unit))
		unit++;
	len = strlen(unit);
	while (len && isspace((unsigned char)unit[len - 1]))
		unit[--len] = '\0';
	/* "500k IOPS", "500000 iops": the metric may follow the number. */
	tail = strrchr(unit, ' ');
	if ((tail && !strcasecmp(tail + 1, "iops")) || !strcasecmp(unit, "iops")) {
		if (tail && !strcasecmp(tail + 1, "iops"))
			*tail = '\0';
		else
			*unit = '\0';
		len = strlen(unit);
		while (len && isspace((unsigned char)unit[len - 1]))
			unit[--len] = '\0';
		if (w->have_metric && s->metric != BQ_METRIC_IOPS)
			return bq_parse_fail(err, -EINVAL, "the bound is in IOPS, the figure is not");
		if (!w->have_metric)
			set_metric(w, BQ_METRIC_IOPS, 0, "iops", NULL);
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		bool same = units[i].exact_case ? !strcmp(unit, units[i].unit) :
						  !strcasecmp(unit, units[i].unit);

		if (!same)
			continue;
		if (!w->have_metric) {
			if (units[i].kind != UNIT_BW)
				return bq_parse_fail(err, -EINVAL, "no figure named: say iops, mbps, "
						     "mean, max, min or pNN before '%s'",
						     bq_cmp_name(c->op));
			set_metric(w, BQ_METRIC_BW, 0, "mbps", NULL);
		}
		switch (units[i].kind) {
		case UNIT_PLAIN:
		case UNIT_COUNT:
			if (s->metric == BQ_METRIC_BW)
				return bq_parse_fail(err, -EINVAL, "a bandwidth bound needs a unit "
						     "(B/s, kB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s)");
			if (is_latency(s->metric))
				return bq_parse_fail(err, -EINVAL, "a latency bound needs a unit "
						     "(ns, us, ms, s)");
			break;
		case UNIT_TIME:
			if (!is_latency(s->metric))
				return bq_parse_fail(err, -EINVAL, "unit '%s' is a time; the figure "
						     "is %s", unit, s->metric == BQ_METRIC_IOPS ?
						     "IOPS" : "a bandwidth");
			break;
		case UNIT_BW:
			if (s->metric != BQ_METRIC_BW)
				return bq_parse_fail(err, -EINVAL, "unit '%s' is a bandwidth; the "
						     "figure is %s", unit, is_latency(s->metric) ?
						     "a latency" : "IOPS");
			break;
		}
		c->bound = v * units[i].mult;
		return 0;
	}
	return bq_parse_fail(err, -EINVAL, "unknown unit '%s' (ns us ms s; k M for IOPS; "
			     "B/s kB/s MB/s GB/s KiB/s MiB/s GiB/s)", unit);
}

int bq_criterion_parse(const char *text, struct bq_criterion *c, struct bq_parse_error *err)
{
	struct words w = { .sel = &c->sel };
	char *copy, *op, *rhs;
	int ret;

	memset(c, 0, sizeof(*c));
	sel_init(&c->sel);
	snprintf(c->text, sizeof(c->text), "%s", text);
	if (strlen(text) >= sizeof(c->text))
		return bq_parse_fail(err, -EINVAL, "criterion longer than %zu characters",
				     sizeof(c->text) - 1);
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	op = strpbrk(copy, "<>=!");
	if (!op || *op == '=' || *op == '!') {
		ret = bq_parse_fail(err, -EINVAL, "no comparison (<=, <, >=, >) in '%s'", text);
		goto out_free_copy;
	}
	if (op[1] == '=') {
		c->op = *op == '<' ? BQ_CMP_LE : BQ_CMP_GE;
		rhs = op + 2;
	} else {
		c->op = *op == '<' ? BQ_CMP_LT : BQ_CMP_GT;
		rhs = op + 1;
	}
	if (strpbrk(rhs, "<>=!")) {
		ret = bq_parse_fail(err, -EINVAL, "more than one comparison in '%s'", text);
		goto out_free_copy;
	}
	*op = '\0';
	ret = parse_words(copy, &w, err);
	if (!ret)
		ret = parse_bound(rhs, &w, c, err);
out_free_copy:
	free(copy);
	return ret;
}

/* ---- descriptions ---------------------------------------------------------- */

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static const char *pattern_name(int random, int read_pct)
{
	if (read_pct == 100)
		return random == 1 ? "randread" : random == 0 ? "seqread" : NULL;
	if (read_pct == 0)
		return random == 1 ? "randwrite" : random == 0 ? "seqwrite" : NULL;
	if (read_pct == BQ_SEL_MIXED)
		return random == 1 ? "randrw" : random == 0 ? "seqrw" : "mixed";
	if (read_pct == BQ_SEL_ANY)
		return random == 1 ? "random" : random == 0 ? "sequential" : NULL;
	return random == 1 ? "random" : random == 0 ? "sequential" : NULL;
}

void bq_cellsel_describe(const struct bq_cellsel *s, char *buf, size_t len)
{
	const char *pattern = pattern_name(s->random, s->read_pct);
	char bs[32];

	buf[0] = '\0';
	if (s->step[0])
		append(buf, len, " step:%s", s->step);
	if (pattern)
		append(buf, len, " %s", pattern);
	if (s->read_pct >= 1 && s->read_pct <= 99)
		append(buf, len, " %d/%d", s->read_pct, 100 - s->read_pct);
	else if ((s->read_pct == 0 || s->read_pct == 100) && s->random == BQ_SEL_ANY)
		append(buf, len, " %d/%d", s->read_pct, 100 - s->read_pct);
	if (s->bs) {
		bq_q_fmt_bs(bs, sizeof(bs), s->bs);
		append(buf, len, " %s", bs);
	}
	if (s->iodepth)
		append(buf, len, " qd%u", s->iodepth);
	if (!buf[0])
		append(buf, len, " all cells");
	memmove(buf, buf + 1, strlen(buf));
	append(buf, len, ": %s", s->dir == BQ_READ ? "read " : s->dir == BQ_WRITE ? "write " : "");
	switch (s->metric) {
	case BQ_METRIC_IOPS:
		append(buf, len, "IOPS");
		break;
	case BQ_METRIC_BW:
		append(buf, len, "bandwidth");
		break;
	case BQ_METRIC_LAT_MEAN:
		append(buf, len, "mean latency");
		break;
	case BQ_METRIC_LAT_MIN:
		append(buf, len, "min latency");
		break;
	case BQ_METRIC_LAT_MAX:
		append(buf, len, "max latency");
		break;
	case BQ_METRIC_LAT_PCT:
		append(buf, len, "p%g latency", s->pct);
		break;
	}
}

/* ---- judging ---------------------------------------------------------------- */

bool bq_q_cell_matches(const struct bq_cellsel *s, const char *step, const struct bq_qcell *c)
{
	if (s->step[0] && strcmp(s->step, step))
		return false;
	if (s->random != BQ_SEL_ANY && s->random != (int)c->random)
		return false;
	if (s->read_pct == BQ_SEL_MIXED && (c->read_pct == 0 || c->read_pct == 100))
		return false;
	if (s->read_pct >= 0 && s->read_pct <= 100 && (unsigned int)s->read_pct != c->read_pct)
		return false;
	if (s->bs && s->bs != c->bs)
		return false;
	if (s->iodepth && s->iodepth != c->iodepth)
		return false;
	return true;
}

static enum bq_step_kind home_kind(enum bq_metric m)
{
	if (m == BQ_METRIC_IOPS)
		return BQ_STEP_IOPS;
	if (m == BQ_METRIC_BW)
		return BQ_STEP_THROUGHPUT;
	return BQ_STEP_LATENCY;
}

static bool worse(double v, double than, enum bq_cmp op)
{
	return op == BQ_CMP_LE || op == BQ_CMP_LT ? v > than : v < than;
}

static bool holds(double v, enum bq_cmp op, double bound)
{
	switch (op) {
	case BQ_CMP_LE:
		return v <= bound;
	case BQ_CMP_LT:
		return v < bound;
	case BQ_CMP_GE:
		return v >= bound;
	case BQ_CMP_GT:
		return v > bound;
	}
	return false;
}

void bq_criterion_eval(const struct bq_criterion *c, const struct bq_qcell_view *cells, int n,
		       struct bq_criterion_result *res)
{
	const struct bq_cellsel *s = &c->sel;
	bool narrow = false;
	int dirs[2], nr_dirs = 0;

	memset(res, 0, sizeof(*res));
	res->measured = NAN;
	res->cell = -1;
	res->dir = BQ_SEL_ANY;
	bq_cellsel_describe(s, res->metric, sizeof(res->metric));
	if (s->dir != BQ_SEL_ANY) {
		dirs[nr_dirs++] = s->dir;
	} else if (is_latency(s->metric)) {
		dirs[nr_dirs++] = BQ_READ;
		dirs[nr_dirs++] = BQ_WRITE;
	} else {
		dirs[nr_dirs++] = BQ_SEL_ANY;
	}
	/* "4k randread IOPS" means the IOPS test, not the qd1 latency test's cell. */
	if (!s->step[0] && !s->iodepth)
		for (int i = 0; i < n && !narrow; i++)
			narrow = cells[i].kind == home_kind(s->metric) &&
				 bq_q_cell_matches(s, cells[i].step, cells[i].cell);
	for (int i = 0; i < n; i++) {
		if (!bq_q_cell_matches(s, cells[i].step, cells[i].cell))
			continue;
		if (narrow && cells[i].kind != home_kind(s->metric))
			continue;
		for (int k = 0; k < nr_dirs; k++) {
			double v = bq_qresult_value(cells[i].res, dirs[k], s->metric, s->pct);

			if (isnan(v))
				continue;
			if (res->cell < 0 || worse(v, res->measured, c->op)) {
				res->measured = v;
				res->cell = i;
				res->dir = dirs[k];
			}
		}
	}
	if (res->cell < 0) {
		res->pass = false;
		snprintf(res->note, sizeof(res->note), "no such cell");
		return;
	}
	res->pass = holds(res->measured, c->op, c->bound);
	snprintf(res->note, sizeof(res->note), "%s: step %s, cell %s%s",
		 res->pass ? "worst" : "fails", cells[res->cell].step, cells[res->cell].cell->label,
		 res->dir == BQ_READ ? ", reads" : res->dir == BQ_WRITE ? ", writes" : "");
}
