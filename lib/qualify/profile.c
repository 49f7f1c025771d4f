// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile.c - qualification profiles: ini files with a [profile] section,
 * one [step:NAME] section per test and a [criteria] section
 *
 * fio's job file reader knows fio's options and nothing else, so profiles
 * have this small reader of their own; the comment rules are fio's, so a
 * profile reads like a job file.  Anything not understood is refused with
 * its file and line: a qualification spec that silently ignores a line
 * would defend a verdict it never checked.
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

#define PROFILE_MAX_BYTES (1 << 20)
#define NS_PER_S 1000000000ull

/* PTS defaults for each kind of step. */
static const unsigned int pts_mixes[] = { 100, 95, 65, 50, 35, 5, 0 };
static const uint32_t pts_iops_bs[] = { 1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512 };
static const unsigned int tp_mixes[] = { 100, 0 };
static const uint32_t tp_bs[] = { 1048576, 131072 };
static const unsigned int lat_mixes[] = { 100, 65, 0 };
static const uint32_t lat_bs[] = { 8192, 4096, 512 };

const char *bq_step_kind_name(enum bq_step_kind k)
{
	static const char *const names[] = {
		[BQ_STEP_IOPS] = "iops", [BQ_STEP_THROUGHPUT] = "throughput",
		[BQ_STEP_LATENCY] = "latency", [BQ_STEP_CUSTOM] = "custom",
	};

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "?";
}

const char *bq_purge_name(enum bq_purge m)
{
	static const char *const names[] = {
		[BQ_PURGE_AUTO] = "auto", [BQ_PURGE_NONE] = "none",
		[BQ_PURGE_DISCARD] = "blkdiscard", [BQ_PURGE_SECDISCARD] = "blksecdiscard",
		[BQ_PURGE_FORMAT] = "nvme-format", [BQ_PURGE_SANITIZE] = "nvme-sanitize",
	};

	return (size_t)m < ARRAY_SIZE(names) ? names[m] : "?";
}

/* ---- reading -------------------------------------------------------------- */

enum section { SEC_NONE, SEC_PROFILE, SEC_STEP, SEC_CRITERIA };

/*
 * Step fields a section did not set are filled from the profile and the
 * kind's defaults after the whole file is read, so [profile] may come
 * anywhere.
 */
struct step_set {
	bool kind, rw, mixes, bs, iodepth, numjobs, round, ramp, tracked;
};

struct reader {
	struct bq_profile *p;
	const char *path;
	int line;
	enum section sec;
	struct bq_qstep *step;
	struct step_set *set;		/* per step */
	unsigned long long seen;	/* keys of the current section, by table index */
	bool have_profile;
	int verify_line;
	bool have_round, have_ramp, have_iodepth, have_numjobs;
	uint64_t round_ns, ramp_ns;
	unsigned int iodepth, numjobs;
	struct bq_parse_error *err;
	char tracked[BQ_QSTEP_MAX_LIST][256];	/* per step, as written */
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->err)
		return -EINVAL;
	snprintf(r->err->where, sizeof(r->err->where), "%s:%d", r->path, r->line);
	va_start(ap, fmt);
	vsnprintf(r->err->msg, sizeof(r->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool good_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n >= max)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

static int parse_uint(struct reader *r, const char *key, const char *v, unsigned int lo,
		      unsigned int hi, unsigned int *out)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)*v))
		return fail(r, "%s=%s: not a number", key, v);
	n = strtoul(v, &end, 10);
	if (*end || n < lo || n > hi)
		return fail(r, "%s=%s: a whole number from %u to %u", key, v, lo, hi);
	*out = (unsigned int)n;
	return 0;
}

static int parse_double(struct reader *r, const char *key, const char *v, double *out)
{
	char *end;
	double d;

	d = strtod(v, &end);
	if (end == v || *end || !isfinite(d) || d < 0)
		return fail(r, "%s=%s: not a number", key, v);
	*out = d;
	return 0;
}

static int parse_time(struct reader *r, const char *key, const char *v, bool zero_ok,
		      uint64_t *out)
{
	if (bq_parse_time(v, NS_PER_S, out) || (!zero_ok && !*out))
		return fail(r, "%s=%s: not a duration (60s, 500ms, 2m)", key, v);
	return 0;
}

static int parse_bool(struct reader *r, const char *key, const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1")) {
		*out = true;
	} else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0")) {
		*out = false;
	} else {
		return fail(r, "%s=%s: use yes or no", key, v);
	}
	return 0;
}

/* A job option the engine must accept, checked now rather than mid-qualification. */
static int engine_accepts(struct reader *r, const char *key, const char *v)
{
	struct bq_parse_error why = { 0 };
	struct bq_job job;
	int ret;

	bq_job_defaults(&job);
	ret = bq_job_set(&job, key, v, &why);
	bq_job_release(&job);
	if (ret == -EOPNOTSUPP || ret == -ENOENT)
		return fail(r, "%s=%s: this blkqual's engine cannot do that (%s)", key, v,
			    why.msg[0] ? why.msg : "not implemented");
	if (ret)
		return fail(r, "%s", why.msg[0] ? why.msg : "bad value");
	return 0;
}

static int profile_key(struct reader *r, const char *key, const char *v)
{
	struct bq_profile *p = r->p;
	unsigned int u;
	char *end;
	double d;
	int ret;

	if (!strcmp(key, "name")) {
		if (!good_name(v, sizeof(p->name)))
			return fail(r, "name=%s: letters, digits, '.', '_' and '-' only", v);
		snprintf(p->name, sizeof(p->name), "%s", v);
	} else if (!strcmp(key, "description")) {
		snprintf(p->description, sizeof(p->description), "%s", v);
	} else if (!strcmp(key, "purge")) {
		static const struct {
			const char *name;
			enum bq_purge m;
		} purges[] = {
			{ "auto", BQ_PURGE_AUTO }, { "none", BQ_PURGE_NONE },
			{ "discard", BQ_PURGE_DISCARD }, { "blkdiscard", BQ_PURGE_DISCARD },
			{ "secdiscard", BQ_PURGE_SECDISCARD },
			{ "blksecdiscard", BQ_PURGE_SECDISCARD },
			{ "format", BQ_PURGE_FORMAT }, { "nvme-format", BQ_PURGE_FORMAT },
			{ "sanitize", BQ_PURGE_SANITIZE }, { "nvme-sanitize", BQ_PURGE_SANITIZE },
		};

		for (size_t i = 0; i < ARRAY_SIZE(purges); i++) {
			if (!strcmp(v, purges[i].name)) {
				p->purge = purges[i].m;
				return 0;
			}
		}
		return fail(r, "purge=%s: use auto, none, discard, secdiscard, format or sanitize",
			    v);
	} else if (!strcmp(key, "precondition")) {
		if (!strcmp(v, "none") || !strcmp(v, "0")) {
			p->precondition = 0;
			return 0;
		}
		d = strtod(v, &end);
		if (end == v || strcmp(end, "x") || !isfinite(d) || d <= 0 || d > 100)
			return fail(r, "precondition=%s: a multiple of the capacity like 2x or 0.1x, "
				    "or none", v);
		p->precondition = d;
	} else if (!strcmp(key, "capacity_fraction")) {
		d = strtod(v, &end);
		if (end != v && !strcmp(end, "%"))
			d /= 100;
		else if (end == v || *end)
			d = NAN;
		if (!(d > 0 && d <= 1))
			return fail(r, "capacity_fraction=%s: a fraction above 0 and at most 1 "
				    "(0.25 or 25%%)", v);
		p->capacity_fraction = d;
	} else if (!strcmp(key, "round_time")) {
		r->have_round = true;
		return parse_time(r, key, v, false, &r->round_ns);
	} else if (!strcmp(key, "ramp")) {
		r->have_ramp = true;
		return parse_time(r, key, v, true, &r->ramp_ns);
	} else if (!strcmp(key, "max_rounds")) {
		ret = parse_uint(r, key, v, 1, 1000, &u);
		p->steady.max_rounds = (int)u;
		return ret;
	} else if (!strcmp(key, "window")) {
		ret = parse_uint(r, key, v, 2, 100, &u);
		p->steady.window = (int)u;
		return ret;
	} else if (!strcmp(key, "range_pct")) {
		return parse_double(r, key, v, &p->steady.range_pct);
	} else if (!strcmp(key, "slope_pct")) {
		return parse_double(r, key, v, &p->steady.slope_pct);
	} else if (!strcmp(key, "iodepth")) {
		r->have_iodepth = true;
		return parse_uint(r, key, v, 1, 65536, &r->iodepth);
	} else if (!strcmp(key, "numjobs")) {
		r->have_numjobs = true;
		return parse_uint(r, key, v, 1, 1024, &r->numjobs);
	} else if (!strcmp(key, "require_steady")) {
		return parse_bool(r, key, v, &p->require_steady);
	} else if (!strcmp(key, "ioengine")) {
		ret = engine_accepts(r, key, v);
		snprintf(p->ioengine, sizeof(p->ioengine), "%s", v);
		return ret;
	} else if (!strcmp(key, "verify")) {
		if (!strcmp(v, "none") || !strcmp(v, "0")) {
			p->verify[0] = '\0';
			return 0;
		}
		ret = engine_accepts(r, key, v);
		snprintf(p->verify, sizeof(p->verify), "%s", v);
		r->verify_line = r->line;
		return ret;
	} else {
		return fail(r, "unknown key '%s' in [profile]", key);
	}
	return 0;
}

static int parse_list(struct reader *r, const char *key, const char *v, bool mixes,
		      unsigned int *pct, uint32_t *bs, int *nr)
{
	char *copy = strdup(v), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*nr = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *t = bq_ini_trim(tok);

		if (*nr == BQ_QSTEP_MAX_LIST) {
			ret = fail(r, "%s: at most %d entries", key, BQ_QSTEP_MAX_LIST);
			break;
		}
		if (mixes && bq_q_parse_mix(t, &pct[*nr])) {
			ret = fail(r, "%s: '%s' is not a R/W mix like 65/35 (adding up to 100)", key,
				   t);
			break;
		}
		if (!mixes && (bq_q_parse_bytes(t, &bs[*nr]) || bs[*nr] % 512 ||
			       bs[*nr] > (64u << 20))) {
			ret = fail(r, "%s: '%s' is not a block size (0.5k, 4k, 1m: multiples of "
				   "512 bytes up to 64m)", key, t);
			break;
		}
		++*nr;
	}
	if (!ret && !*nr)
		ret = fail(r, "%s= is empty", key);
	free(copy);
	return ret;
}

static int step_key(struct reader *r, const char *key, const char *v)
{
	struct bq_qstep *s = r->step;
	struct step_set *set = &r->set[s - r->p->steps];

	if (!strcmp(key, "kind")) {
		for (int k = BQ_STEP_IOPS; k <= BQ_STEP_CUSTOM; k++) {
			if (!strcmp(v, bq_step_kind_name(k))) {
				s->kind = k;
				set->kind = true;
				return 0;
			}
		}
		return fail(r, "kind=%s: use iops, throughput, latency or custom", v);
	} else if (!strcmp(key, "rw")) {
		if (!strcmp(v, "random") || !strcmp(v, "rand")) {
			s->random = true;
		} else if (!strcmp(v, "sequential") || !strcmp(v, "seq")) {
			s->random = false;
		} else {
			return fail(r, "rw=%s: use random or sequential", v);
		}
		set->rw = true;
	} else if (!strcmp(key, "mixes")) {
		set->mixes = true;
		return parse_list(r, key, v, true, s->read_pct, NULL, &s->nr_mixes);
	} else if (!strcmp(key, "bs")) {
		set->bs = true;
		return parse_list(r, key, v, false, NULL, s->bs, &s->nr_bs);
	} else if (!strcmp(key, "iodepth")) {
		set->iodepth = true;
		return parse_uint(r, key, v, 1, 65536, &s->iodepth);
	} else if (!strcmp(key, "numjobs")) {
		set->numjobs = true;
		return parse_uint(r, key, v, 1, 1024, &s->numjobs);
	} else if (!strcmp(key, "round_time")) {
		set->round = true;
		return parse_time(r, key, v, false, &s->round_ns);
	} else if (!strcmp(key, "ramp")) {
		set->ramp = true;
		return parse_time(r, key, v, true, &s->ramp_ns);
	} else if (!strcmp(key, "tracked")) {
		set->tracked = true;
		s->track_line = r->line;
		snprintf(r->tracked[s - r->p->steps], sizeof(r->tracked[0]), "%s", v);
	} else {
		return fail(r, "unknown key '%s' in [step:%s]", key, s->name);
	}
	return 0;
}

static int new_step(struct reader *r, const char *name)
{
	struct bq_profile *p = r->p;
	struct bq_qstep *steps;
	struct step_set *set;

	if (!good_name(name, sizeof(steps->name)))
		return fail(r, "[step:%s]: a step name is letters, digits, '.', '_' and '-'", name);
	for (int i = 0; i < p->nr_steps; i++)
		if (!strcmp(p->steps[i].name, name))
			return fail(r, "[step:%s] again (first on line %d)", name, p->steps[i].line);
	if (p->nr_steps == BQ_QSTEP_MAX_LIST)
		return fail(r, "at most %d steps", BQ_QSTEP_MAX_LIST);
	steps = realloc(p->steps, (p->nr_steps + 1) * sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	p->steps = steps;
	set = realloc(r->set, (p->nr_steps + 1) * sizeof(*set));
	if (!set)
		return -ENOMEM;
	r->set = set;
	r->step = &p->steps[p->nr_steps];
	memset(r->step, 0, sizeof(*r->step));
	memset(&r->set[p->nr_steps], 0, sizeof(*set));
	snprintf(r->step->name, sizeof(r->step->name), "%s", name);
	r->step->line = r->line;
	r->step->track_line = r->line;
	p->nr_steps++;
	return 0;
}

static int section(struct reader *r, char *line)
{
	char *end = strchr(line, ']'), *name;

	if (!end || bq_ini_trim(end + 1)[0])
		return fail(r, "section header without its closing ']'");
	*end = '\0';
	name = bq_ini_trim(line + 1);
	r->seen = 0;
	if (!strcmp(name, "profile")) {
		if (r->have_profile)
			return fail(r, "[profile] twice");
		r->have_profile = true;
		r->sec = SEC_PROFILE;
	} else if (!strcmp(name, "criteria")) {
		r->sec = SEC_CRITERIA;
	} else if (!strncmp(name, "step:", 5)) {
		r->sec = SEC_STEP;
		return new_step(r, bq_ini_trim(name + 5));
	} else {
		return fail(r, "unknown section [%s] (use [profile], [step:NAME], [criteria])", name);
	}
	return 0;
}

static int criterion(struct reader *r, const char *text)
{
	struct bq_profile *p = r->p;
	struct bq_parse_error why = { 0 };
	struct bq_criterion *c;
	int ret;

	c = realloc(p->criteria, (p->nr_criteria + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	p->criteria = c;
	c = &p->criteria[p->nr_criteria];
	ret = bq_criterion_parse(text, c, &why);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return fail(r, "%s", why.msg);
	c->line = r->line;
	p->nr_criteria++;
	return 0;
}

/* Keys may not repeat within a section: which one would the verdict use? */
static int check_repeat(struct reader *r, const char *key)
{
	static const char *const keys[] = {
		"name", "description", "purge", "precondition", "capacity_fraction",
		"round_time", "ramp", "max_rounds", "window", "range_pct", "slope_pct",
		"iodepth", "numjobs", "require_steady", "ioengine", "verify", "kind", "rw",
		"mixes", "bs", "tracked",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strcmp(key, keys[i]))
			continue;
		if (r->seen & (1ull << i))
			return fail(r, "%s= given twice in this section", key);
		r->seen |= 1ull << i;
	}
	return 0;
}

static int one_line(struct reader *r, char *raw)
{
	char *line, *eq, *key, *val;
	int ret;

	bq_ini_strip_comment(raw);
	line = bq_ini_trim(raw);
	if (!*line)
		return 0;
	if (*line == '[')
		return section(r, line);
	switch (r->sec) {
	case SEC_NONE:
		return fail(r, "'%s' before any section ([profile], [step:NAME], [criteria])", line);
	case SEC_CRITERIA:
		return criterion(r, line);
	default:
		break;
	}
	eq = strchr(line, '=');
	if (!eq)
		return fail(r, "expected key=value, got '%s'", line);
	*eq = '\0';
	key = bq_ini_trim(line);
	val = bq_ini_trim(eq + 1);
	if (!*key)
		return fail(r, "no key before '='");
	if (!*val)
		return fail(r, "%s= has no value", key);
	ret = check_repeat(r, key);
	if (ret)
		return ret;
	return r->sec == SEC_PROFILE ? profile_key(r, key, val) : step_key(r, key, val);
}

/* ---- after the last line ----------------------------------------------------- */

static const char *const default_tracked[] = {
	[BQ_STEP_IOPS] = "0/100 4k write iops",
	[BQ_STEP_THROUGHPUT] = "100/0 1024k read mbps, 0/100 1024k write mbps",
	[BQ_STEP_LATENCY] = "100/0 4k read mean, 0/100 4k write mean",
	[BQ_STEP_CUSTOM] = NULL,
};

static int finish_tracked(struct reader *r, struct bq_qstep *s, const char *text)
{
	char *copy = strdup(text), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	r->line = s->track_line;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct bq_parse_error why = { 0 };
		struct bq_cellsel sel;
		char *t = bq_ini_trim(tok);

		ret = bq_cellsel_parse(t, &sel, &why);
		if (ret) {
			ret = fail(r, "tracked: %s", why.msg);
			break;
		}
		if (sel.dir == BQ_SEL_ANY) {
			ret = fail(r, "tracked: '%s' needs a direction (read or write)", t);
			break;
		}
		if (sel.step[0] && strcmp(sel.step, s->name)) {
			ret = fail(r, "tracked: '%s' names another step", t);
			break;
		}
		if (s->tracked[sel.dir]) {
			ret = fail(r, "tracked: %s is tracked twice", sel.dir == BQ_READ ? "read" :
				   "write");
			break;
		}
		s->tracked[sel.dir] = true;
		s->track[sel.dir] = sel;
		snprintf(s->track_text[sel.dir], sizeof(s->track_text[0]), "%s", t);
	}
	free(copy);
	return ret;
}

static void fill_list(unsigned int *pct, uint32_t *bs, int *nr, const unsigned int *dpct,
		      const uint32_t *dbs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (pct)
			pct[i] = dpct[i];
		if (bs)
			bs[i] = dbs[i];
	}
	*nr = (int)n;
}

static int finish_step(struct reader *r, struct bq_qstep *s, const struct step_set *set,
		       const char *tracked)
{
	r->line = s->line;
	if (!set->kind)
		return fail(r, "[step:%s] has no kind= (iops, throughput, latency, custom)", s->name);
	if (s->kind == BQ_STEP_CUSTOM) {
		if (!set->rw || !set->mixes || !set->bs)
			return fail(r, "[step:%s]: kind=custom needs rw=, mixes= and bs=", s->name);
		if (!set->tracked)
			return fail(r, "[step:%s]: kind=custom needs tracked=", s->name);
	} else if (set->rw) {
		return fail(r, "[step:%s]: rw= is for kind=custom only", s->name);
	}
	switch (s->kind) {
	case BQ_STEP_IOPS:
		s->random = true;
		if (!set->mixes)
			fill_list(s->read_pct, NULL, &s->nr_mixes, pts_mixes, NULL,
				  ARRAY_SIZE(pts_mixes));
		if (!set->bs)
			fill_list(NULL, s->bs, &s->nr_bs, NULL, pts_iops_bs,
				  ARRAY_SIZE(pts_iops_bs));
		break;
	case BQ_STEP_THROUGHPUT:
		s->random = false;
		if (!set->mixes)
			fill_list(s->read_pct, NULL, &s->nr_mixes, tp_mixes, NULL,
				  ARRAY_SIZE(tp_mixes));
		if (!set->bs)
			fill_list(NULL, s->bs, &s->nr_bs, NULL, tp_bs, ARRAY_SIZE(tp_bs));
		break;
	case BQ_STEP_LATENCY:
		s->random = true;
		if (!set->mixes)
			fill_list(s->read_pct, NULL, &s->nr_mixes, lat_mixes, NULL,
				  ARRAY_SIZE(lat_mixes));
		if (!set->bs)
			fill_list(NULL, s->bs, &s->nr_bs, NULL, lat_bs, ARRAY_SIZE(lat_bs));
		/* One outstanding I/O is what a latency test is. */
		if (!set->iodepth)
			s->iodepth = 1;
		if (!set->numjobs)
			s->numjobs = 1;
		break;
	case BQ_STEP_CUSTOM:
		break;
	}
	if (!set->iodepth && s->kind != BQ_STEP_LATENCY)
		s->iodepth = r->have_iodepth ? r->iodepth : 32;
	if (!set->numjobs && s->kind != BQ_STEP_LATENCY)
		s->numjobs = r->have_numjobs ? r->numjobs : 1;
	if (!set->round)
		s->round_ns = r->have_round ? r->round_ns : 60 * NS_PER_S;
	if (!set->ramp)
		s->ramp_ns = r->have_ramp ? r->ramp_ns : 0;
	return finish_tracked(r, s, set->tracked ? tracked : default_tracked[s->kind]);
}

static int finish(struct reader *r, int last_line)
{
	struct bq_profile *p = r->p;
	int ret;

	r->line = last_line;
	if (!p->nr_steps)
		return fail(r, "no [step:NAME] section: a profile runs at least one step");
	if (p->steady.max_rounds < p->steady.window)
		return fail(r, "max_rounds=%d is less than window=%d", p->steady.max_rounds,
			    p->steady.window);
	/* A random read of a block nothing wrote would count as a bad block. */
	if (p->verify[0] && !p->precondition) {
		r->line = r->verify_line;
		return fail(r, "verify=%s needs precondition= (every block written before it is "
			    "read)", p->verify);
	}
	for (int i = 0; i < p->nr_steps; i++) {
		ret = finish_step(r, &p->steps[i], &r->set[i], r->tracked[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void profile_init(struct bq_profile *p, const char *path)
{
	const char *base = strrchr(path, '/');
	struct bq_steady_params pts = BQ_STEADY_PARAMS_PTS;
	size_t n;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	snprintf(p->name, sizeof(p->name), "%.*s", (int)(n < sizeof(p->name) ? n :
		 sizeof(p->name) - 1), base);
	if (!good_name(p->name, sizeof(p->name)))
		snprintf(p->name, sizeof(p->name), "profile");
	p->purge = BQ_PURGE_AUTO;
	p->precondition = 2;
	p->capacity_fraction = 1;
	p->steady = pts;
	p->require_steady = true;
}

int bq_profile_parse_text(const char *path, const char *text, struct bq_profile *p,
			  struct bq_parse_error *err)
{
	struct reader r = { .p = p, .path = path, .err = err };
	char *copy, *line, *nl;
	int ret = 0, lineno = 0;

	profile_init(p, path);
	p->text = strdup(text);
	copy = strdup(text);
	if (!p->text || !copy) {
		free(copy);
		return -ENOMEM;
	}
	/* strtok would fold empty lines and put every later error on the wrong line. */
	line = copy;
	while (line && !ret) {
		nl = strchr(line, '\n');
		if (!nl && !*line)
			break;
		if (nl)
			*nl = '\0';
		r.line = ++lineno;
		ret = one_line(&r, line);
		line = nl ? nl + 1 : NULL;
	}
	if (!ret)
		ret = finish(&r, lineno ? lineno : 1);
	free(r.set);
	free(copy);
	return ret;
}

int bq_profile_parse(const char *path, struct bq_profile *p, struct bq_parse_error *err)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int ret;

	profile_init(p, path);
	if (!f)
		return bq_fail_at(err, path, -errno, "%s", strerror(errno));
	buf = malloc(PROFILE_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, PROFILE_MAX_BYTES + 1, f);
	if (ferror(f)) {
		ret = bq_fail_at(err, path, -EIO, "read error");
		goto out_free_buf;
	}
	if (n > PROFILE_MAX_BYTES) {
		ret = bq_fail_at(err, path, -EFBIG, "larger than %d bytes: not a profile",
				 PROFILE_MAX_BYTES);
		goto out_free_buf;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		ret = bq_fail_at(err, path, -EINVAL, "binary data: not a profile");
		goto out_free_buf;
	}
	ret = bq_profile_parse_text(path, buf, p, err);
out_free_buf:
	free(buf);
	fclose(f);
	return ret;
}

void bq_profile_free(struct bq_profile *p)
{
	free(p->text);
	free(p->steps);
	free(p->criteria);
	p->text = NULL;
	p->steps = NULL;
	p->criteria = NULL;
	p->nr_steps = 0;
	p->nr_criteria = 0;
}
