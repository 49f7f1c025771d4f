// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdbench_parse.c - vdbench parameter files (fsd=, fwd=, rd=) and the
 * key=value command line of blkqual files
 *
 * vdbench reads its parameter files as one stream of keyword=value
 * parameters; where a line breaks matters only for comments.  A
 * definition starts at fsd=, fwd= or rd= and owns every parameter up to
 * the next one, so "fsd=" inside an fwd names the fsd it works on, and
 * "fwd=" inside an rd the workloads it runs.  The definitions come in
 * that order (fsds, fwds, rds), as vdbench requires.
 *
 * A keyword may be shortened as vdbench allows ("anch=", "th="), to at
 * least two letters when that is unambiguous.  Every keyword vdbench has
 * that blkqual does not implement is refused by name: a run that
 * silently lost its "forthreads=" would measure something else.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "blkqual_files.h"
#include "internal.h"
#include "vdbench_int.h"

static const char *const op_names[BQ_FOP_NR] = {
	[BQ_FOP_READ] = "read",
	[BQ_FOP_WRITE] = "write",
	[BQ_FOP_MKDIR] = "mkdir",
	[BQ_FOP_RMDIR] = "rmdir",
	[BQ_FOP_CREATE] = "create",
	[BQ_FOP_OPEN] = "open",
	[BQ_FOP_CLOSE] = "close",
	[BQ_FOP_DELETE] = "delete",
	[BQ_FOP_GETATTR] = "getattr",
	[BQ_FOP_SETATTR] = "setattr",
};

const char *bq_files_op_name(int op)
{
	return op >= 0 && op < BQ_FOP_NR ? op_names[op] : "?";
}

static int op_by_name(const char *s)
{
	for (int i = 0; i < BQ_FOP_NR; i++)
		if (!strcasecmp(s, op_names[i]))
			return i;
	return -1;
}

/* vdbench operations blkqual does not do. */
static bool op_refused(const char *s)
{
	static const char *const other[] = { "access", "copy", "move", "put", "get" };

	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strcasecmp(s, other[i]))
			return true;
	return false;
}

/* ---- the parameter stream ---------------------------------------------- */

struct vparm {
	char kw[64];
	char *val;
	char where[BQ_FILES_WHERE_MAX];
};

struct vstream {
	struct vparm *v;
	size_t nr;
	size_t cap;
	/* the parameter being collected, which may run over lines inside ( ) */
	char *cur;
	size_t cur_len;
	size_t cur_cap;
	char cur_where[BQ_FILES_WHERE_MAX];
	int depth;
};

static void stream_free(struct vstream *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i].val);
	free(s->v);
	free(s->cur);
	memset(s, 0, sizeof(*s));
}

static int cur_add(struct vstream *s, char c)
{
	if (s->cur_len + 2 > s->cur_cap) {
		size_t cap = s->cur_cap ? s->cur_cap * 2 : 128;
		char *n = realloc(s->cur, cap);

		if (!n)
			return -ENOMEM;
		s->cur = n;
		s->cur_cap = cap;
	}
	s->cur[s->cur_len++] = c;
	s->cur[s->cur_len] = '\0';
	return 0;
}

/* The collected text becomes one keyword=value parameter. */
static int emit(struct vstream *s, struct bq_parse_error *err)
{
	struct vparm *vp;
	char *eq;
	size_t klen;

	if (!s->cur_len)
		return 0;	/* ",," and a leading comma: nothing */
	s->cur_len = 0;
	eq = strchr(s->cur, '=');
	if (!eq || eq == s->cur)
		return bq_fail_at(err, s->cur_where, -EINVAL, "'%s': expected keyword=value",
				  s->cur);
	klen = (size_t)(eq - s->cur);
	if (klen >= sizeof(vp->kw))
		return bq_fail_at(err, s->cur_where, -EINVAL, "'%.*s': no such keyword",
				  (int)klen, s->cur);
	if (!eq[1])
		return bq_fail_at(err, s->cur_where, -EINVAL, "%.*s=: no value", (int)klen,
				  s->cur);
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct vparm *n = realloc(s->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->v = n;
		s->cap = cap;
	}
	vp = &s->v[s->nr];
	for (size_t i = 0; i < klen; i++)
		vp->kw[i] = (char)tolower((unsigned char)s->cur[i]);
	vp->kw[klen] = '\0';
	vp->val = strdup(eq + 1);
	if (!vp->val)
		return -ENOMEM;
	bq_strlcpy(vp->where, s->cur_where, sizeof(vp->where));
	s->nr++;
	return 0;
}

/*
 * One line, comments already gone: split at commas outside parentheses
 * and quotes.  A parameter still inside "(" at the end of the line goes
 * on with the next line.
 */
static int stream_line(struct vstream *s, const char *line, const char *where,
		       struct bq_parse_error *err)
{
	bool inq = false;
	int ret;

	for (const char *c = line; *c; c++) {
		if (!s->cur_len)
			bq_strlcpy(s->cur_where, where, sizeof(s->cur_where));
		if (*c == '"') {
			inq = !inq;
			continue;
		}
		if (!inq && *c == '(') {
			s->depth++;
		} else if (!inq && *c == ')') {
			if (!s->depth)
				return bq_fail_at(err, where, -EINVAL, "')' without '('");
			s->depth--;
		} else if (!inq && *c == ',' && !s->depth) {
			ret = emit(s, err);
			if (ret)
				return ret;
			continue;
		}
		ret = cur_add(s, *c);
		if (ret)
			return ret;
	}
	if (inq)
		return bq_fail_at(err, where, -EINVAL, "quote not closed on this line");
	return s->depth ? 0 : emit(s, err);
}

/* $name from the command line; an unknown one is an error, not empty. */
static int substitute(const char *in, const struct bq_files_var *vars, size_t nr_vars,
		      char **out, const char *where, struct bq_parse_error *err)
{
	size_t cap = strlen(in) + 1, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (const char *c = in; *c;) {
		const char *val = NULL;
		size_t n = 0, vlen;

		if (*c == '$') {
			while (isalnum((unsigned char)c[1 + n]) || c[1 + n] == '_')
				n++;
		}
		if (n) {
			for (size_t i = 0; i < nr_vars && !val; i++)
				if (strlen(vars[i].name) == n && !strncmp(vars[i].name, c + 1, n))
					val = vars[i].value;
			if (!val) {
				free(buf);
				return bq_fail_at(err, where, -EINVAL,
						  "$%.*s is not defined (give %.*s=VALUE on the "
						  "command line)", (int)n, c + 1, (int)n, c + 1);
			}
			vlen = strlen(val);
			c += n + 1;
		} else {
			val = c++;
			vlen = 1;
		}
		if (len + vlen + 1 > cap) {
			char *g;

			cap = (len + vlen + 1) * 2;
			g = realloc(buf, cap);
			if (!g) {
				free(buf);
				return -ENOMEM;
			}
			buf = g;
		}
		memcpy(buf + len, val, vlen);
		len += vlen;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/*
 * End a line at its first blank outside quotes, as vdbench does; returns
 * what follows the blanks there (maybe ""), or NULL when there is no blank.
 */
static char *cut_at_blank(char *line)
{
	bool inq = false;

	for (char *c = line; *c; c++) {
		if (*c == '"') {
			inq = !inq;
		} else if (!inq && (*c == ' ' || *c == '\t')) {
			*c++ = '\0';
			return c + strspn(c, " \t");
		}
	}
	return NULL;
}

static bool general_keyword(const char *s);

/*
 * Text after a blank is a comment to vdbench, but a file pasted with its
 * lines run together ("fsd=... fwd=... rd=...") has its next line there:
 * a part that starts with a definition ("fsd=", "rd=") or a general
 * parameter ("messagescan=") is a line of its own.  Other comments stay
 * comments.
 */
static bool starts_line(const char *s)
{
	static const char *const defs[] = { "fsd=", "fwd=", "rd=", "hd=", "host=", "sd=",
					     "wd=", "rg=" };

	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		if (!strncasecmp(s, defs[i], strlen(defs[i])) && s[strlen(defs[i])])
			return true;
	return general_keyword(s);
}

static int read_file(struct vstream *s, const char *path, const struct bq_files_var *vars,
		     size_t nr_vars, bool nested, const char *from, struct bq_parse_error *err);

/* include=FILE: relative to the including file's directory, then to the cwd. */
static int include(struct vstream *s, const char *name, const char *path,
		   const struct bq_files_var *vars, size_t nr_vars, const char *where,
		   struct bq_parse_error *err)
{
	char inc[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!strchr(name, '/') && slash)
		snprintf(inc, sizeof(inc), "%.*s/%s", (int)(slash - path), path, name);
	else
		bq_strlcpy(inc, name, sizeof(inc));
	if (access(inc, R_OK))
		bq_strlcpy(inc, name, sizeof(inc));
	return read_file(s, inc, vars, nr_vars, true, where, err);
}

static int read_file(struct vstream *s, const char *path, const struct bq_files_var *vars,
		     size_t nr_vars, bool nested, const char *from, struct bq_parse_error *err)
{
	char where[BQ_FILES_WHERE_MAX];
	char *line = NULL, *subst = NULL, *rest;
	size_t cap = 0;
	int lineno = 0, ret = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		if (from)
			return bq_fail_at(err, from, ret, "include=%s: %s", path, strerror(-ret));
		return bq_fail_at(err, path, ret, "%s", strerror(-ret));
	}
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *end;

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		while (isspace((unsigned char)*p))
			p++;
		end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*p || *p == '*' || *p == '#' || *p == '/')
			continue;
		if (!strncasecmp(p, "eof", 3))
			break;
		ret = substitute(p, vars, nr_vars, &subst, where, err);
		if (ret)
			break;
		rest = cut_at_blank(subst);
		if (!strncasecmp(subst, "include=", 8)) {
			if (nested)
				ret = bq_fail_at(err, where, -EINVAL,
						 "include= inside an included file");
			else if (s->depth)
				ret = bq_fail_at(err, where, -EINVAL,
						 "include= inside an open '('");
			else
				ret = include(s, subst + 8, path, vars, nr_vars, where, err);
			rest = NULL;
		} else {
			ret = stream_line(s, subst, where, err);
		}
		while (!ret && rest && *rest) {
			char *part = rest;

			if (s->depth && strchr(part, ')')) {
				/* vdbench would take "(4k, 8k)" as "(4k," and a comment */
				ret = bq_fail_at(err, where, -EINVAL,
						 "a blank inside '( )': it ends the line there "
						 "(write the list without blanks)");
				break;
			}
			if (s->depth || !starts_line(part))
				break;	/* a comment */
			rest = cut_at_blank(part);
			ret = stream_line(s, part, where, err);
		}
		free(subst);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* ---- values ------------------------------------------------------------- */

#define MAX_ITEMS 64

/* "(a,b,c)" or "a" into items; the buffer @buf holds them. */
static int split_list(const char *val, char *buf, size_t len, char **items, int *nr,
		      const struct vparm *vp, struct bq_parse_error *err)
{
	size_t n = strlen(val);
	char *save, *tok;

	*nr = 0;
	if (n >= len)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=: value too long", vp->kw);
	if (val[0] == '(') {
		if (val[n - 1] != ')')
			return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: text after ')'",
					  vp->kw, val);
		memcpy(buf, val + 1, n - 2);
		buf[n - 2] = '\0';
	} else {
		memcpy(buf, val, n + 1);
	}
	if (strpbrk(buf, "()"))
		return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: nested parentheses", vp->kw,
				  val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*nr == MAX_ITEMS)
			return bq_fail_at(err, vp->where, -EINVAL, "%s=: more than %d values",
					  vp->kw, MAX_ITEMS);
		items[(*nr)++] = tok;
	}
	if (!*nr)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: no value", vp->kw, val);
	return 0;
}

/* A number with vdbench's binary k/m/g/t (and an optional trailing b). */
static int parse_num(const char *s, double *out)
{
	char *end;
	double v, mult = 1;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -EINVAL;
	if (*end) {
		switch (tolower((unsigned char)*end)) {
		case 'k':
			mult = 1024.0;
			break;
		case 'm':
			mult = 1024.0 * 1024;
			break;
		case 'g':
			mult = 1024.0 * 1024 * 1024;
			break;
		case 't':
			mult = 1024.0 * 1024 * 1024 * 1024;
			break;
		default:
			return -EINVAL;
		}
		end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
		if (*end)
			return -EINVAL;
	}
	*out = v * mult;
	return 0;
}

static int get_u64(const struct vparm *vp, const char *s, uint64_t min, uint64_t max,
		   uint64_t *out, struct bq_parse_error *err)
{
	double v;

	if (parse_num(s, &v) || v < (double)min || v > (double)max || v != floor(v))
		return bq_fail_at(err, vp->where, -EINVAL,
				  "%s=%s: a whole number from %llu to %llu", vp->kw, s,
				  (unsigned long long)min, (unsigned long long)max);
	*out = (uint64_t)v;
	return 0;
}

static int get_int(const struct vparm *vp, uint64_t min, uint64_t max, int *out,
		   struct bq_parse_error *err)
{
	uint64_t v;
	int ret = get_u64(vp, vp->val, min, max, &v, err);

	if (!ret)
		*out = (int)v;
	return ret;
}

/* Seconds; as vdbench, "m" means minutes and "h" hours here. */
static int get_secs(const struct vparm *vp, uint64_t min, uint64_t *out,
		    struct bq_parse_error *err)
{
	char *end;
	double v, mult = 1;

	errno = 0;
	v = strtod(vp->val, &end);
	if (!errno && end != vp->val && isdigit((unsigned char)vp->val[0])) {
		if (!strcasecmp(end, "m"))
			mult = 60;
		else if (!strcasecmp(end, "h"))
			mult = 3600;
		else if (*end && strcasecmp(end, "s"))
			end = NULL;
		if (end && v * mult >= (double)min && v * mult <= 1e9 &&
		    v * mult == floor(v * mult)) {
			*out = (uint64_t)(v * mult);
			return 0;
		}
	}
	return bq_fail_at(err, vp->where, -EINVAL,
			  "%s=%s: whole seconds%s (or with m for minutes, h for hours)", vp->kw,
			  vp->val, min ? ", at least 1" : "");
}

/* size, or (size,pct,size,pct,...) adding up to 100 */
static int get_dist(const struct vparm *vp, bool allow_zero, struct bq_files_dist *d,
		    struct bq_parse_error *err)
{
	char buf[1024], *items[MAX_ITEMS];
	double sum = 0, v;
	int nr, ret;

	ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
	if (ret)
		return ret;
	if (nr > 1 && nr % 2)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "%s=%s: one size, or pairs of size and percentage", vp->kw,
				  vp->val);
	if (nr / 2 > BQ_FILES_MAX_LIST)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=: at most %d sizes", vp->kw,
				  BQ_FILES_MAX_LIST);
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < nr; i += nr > 1 ? 2 : 1) {
		if (strchr(items[i], '-'))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "%s=%s: size ranges are not implemented", vp->kw,
					  vp->val);
		if (parse_num(items[i], &v) || v != floor(v) || v > 1e15 ||
		    (!v && !allow_zero))
			return bq_fail_at(err, vp->where, -EINVAL, "%s=: '%s' is not a size%s",
					  vp->kw, items[i], allow_zero ? "" : " above 0");
		d->val[d->nr] = (uint64_t)v;
		if (nr > 1) {
			char *end;
			double pct = strtod(items[i + 1], &end);

			if (*end || end == items[i + 1] || pct < 0 || pct > 100)
				return bq_fail_at(err, vp->where, -EINVAL,
						  "%s=: '%s' is not a percentage", vp->kw,
						  items[i + 1]);
			if (!pct)
				return bq_fail_at(err, vp->where, -EOPNOTSUPP,
						  "%s=: a percentage of 0 (vdbench's random "
						  "sizes) is not implemented", vp->kw);
			d->pct[d->nr] = pct;
			sum += pct;
		}
		d->nr++;
	}
	if (nr > 1 && fabs(sum - 100) > 0.01)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "%s=: percentages add up to %g, not 100", vp->kw, sum);
	return 0;
}

static int get_names(const struct vparm *vp, char (*names)[BQ_FILES_NAME_MAX], int *nr,
		     struct bq_parse_error *err)
{
	char buf[1024], *items[MAX_ITEMS];
	int n, ret;

	ret = split_list(vp->val, buf, sizeof(buf), items, &n, vp, err);
	if (ret)
		return ret;
	if (n > BQ_FILES_MAX_LIST)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=: at most %d names", vp->kw,
				  BQ_FILES_MAX_LIST);
	for (int i = 0; i < n; i++) {
		if (strlen(items[i]) >= BQ_FILES_NAME_MAX)
			return bq_fail_at(err, vp->where, -EINVAL, "%s=: name '%s' too long",
					  vp->kw, items[i]);
		bq_strlcpy(names[i], items[i], BQ_FILES_NAME_MAX);
	}
	*nr = n;
	return 0;
}

static int get_openflags(const struct vparm *vp, struct bq_files_openflags *of,
			 struct bq_parse_error *err)
{
	char buf[512], *items[MAX_ITEMS];
	int nr, ret;

	ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
	if (ret)
		return ret;
	memset(of, 0, sizeof(*of));
	of->set = true;
	for (int i = 0; i < nr; i++) {
		const char *f = items[i];

		if (!strcasecmp(f, "o_dsync"))
			of->flags |= O_DSYNC;
		else if (!strcasecmp(f, "o_sync") || !strcasecmp(f, "o_rsync"))
			of->flags |= O_SYNC;	/* Linux's O_RSYNC is O_SYNC */
		else if (!strcasecmp(f, "o_direct") || !strcasecmp(f, "directio"))
			of->flags |= O_DIRECT;
		else if (!strcasecmp(f, "fsync"))
			of->fsync = true;
		else if (!strncasecmp(f, "0x", 2) || !strcasecmp(f, "directio_off") ||
			 !strcasecmp(f, "clear_cache") || !strcasecmp(f, "clearcache") ||
			 !strcasecmp(f, "f_nocache"))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "openflags=%s is not implemented (o_dsync, o_sync, "
					  "o_rsync, o_direct, directio and fsync are)", f);
		else
			return bq_fail_at(err, vp->where, -EINVAL,
					  "openflags=%s: not o_dsync, o_sync, o_rsync, o_direct, "
					  "directio or fsync", f);
	}
	return 0;
}

static int get_op(const struct vparm *vp, const char *s, int *op, struct bq_parse_error *err)
{
	*op = op_by_name(s);
	if (*op >= 0)
		return 0;
	if (op_refused(s))
		return bq_fail_at(err, vp->where, -EOPNOTSUPP,
				  "%s=%s is not implemented (read, write, create, delete, open, "
				  "close, getattr, setattr, mkdir and rmdir are)", vp->kw, s);
	return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: no such operation", vp->kw, s);
}

static bool is_word(const char *val, const char *word, size_t min)
{
	size_t n = strlen(val);

	return n >= min && n <= strlen(word) && !strncasecmp(val, word, n);
}

/* ---- keywords ----------------------------------------------------------- */

enum {
	KW_UNKNOWN = -1,
	KW_AMBIGUOUS = -2,
	/* refused: known to vdbench, not implemented here */
	KW_REFUSED = 0,
	/* general */
	KW_CREATE_ANCHORS,
	KW_MESSAGESCAN,
	/* fsd */
	KW_ANCHOR,
	KW_DEPTH,
	KW_WIDTH,
	KW_FILES,
	KW_SIZES,
	KW_DIST,
	KW_SHARED,
	/* fwd */
	KW_FSD,
	KW_OPERATION,
	KW_RDPCT,
	KW_XFERSIZE,
	KW_FILEIO,
	KW_FILESELECT,
	KW_THREADS,
	KW_SKEW,
	KW_STOPAFTER,
	/* rd */
	KW_FWD,
	KW_FWDRATE,
	KW_FORMAT,
	KW_ELAPSED,
	KW_INTERVAL,
	KW_WARMUP,
	KW_PAUSE,
	KW_OPERATIONS,
	/* several */
	KW_OPENFLAGS,
};

/**
 * struct kw - a keyword of one kind of definition
 * @name: its full name
 * @id: KW_*
 * @exact: only the full name, no abbreviation (vdbench's own rule for
 *         a few, so "fsd" never reads as an abbreviation)
 * @why: for KW_REFUSED, what to say
 */
struct kw {
	const char *name;
	int id;
	bool exact;
	const char *why;
};

#define REFUSE(n, w) { n, KW_REFUSED, false, w }

static const struct kw general_kws[] = {
	{ "create_anchors", KW_CREATE_ANCHORS, false, NULL },
	{ "messagescan", KW_MESSAGESCAN, false, NULL },
	REFUSE("compratio", "data patterns are not implemented"),
	REFUSE("compressionseed", "data patterns are not implemented"),
	REFUSE("dedupratio", "dedup is not implemented"),
	REFUSE("dedupunit", "dedup is not implemented"),
	REFUSE("dedupsets", "dedup is not implemented"),
	REFUSE("dedup", "dedup is not implemented"),
	REFUSE("pattern", "data patterns are not implemented"),
	REFUSE("pattern_buffer", "data patterns are not implemented"),
	REFUSE("data_errors", "data validation is not implemented"),
	REFUSE("validate", "data validation is not implemented"),
	REFUSE("journal", "journaling is not implemented"),
	REFUSE("startcmd", "start and end commands are not implemented"),
	REFUSE("start_cmd", "start and end commands are not implemented"),
	REFUSE("endcmd", "start and end commands are not implemented"),
	REFUSE("end_cmd", "start and end commands are not implemented"),
	REFUSE("histogram", "histogram buckets are fixed (the JSON has percentiles)"),
	REFUSE("report", "report selection is not implemented"),
	REFUSE("report_run_totals", "report selection is not implemented"),
	REFUSE("formatxfersize", "it is for sd= formats; use fwd=format,xfersize="),
	REFUSE("formatsds", "sd= workloads are blkqual run's"),
	REFUSE("concatenatesds", "sd= workloads are blkqual run's"),
	REFUSE("debug", "vdbench debug codes are not implemented"),
	REFUSE("swat", "swat is not implemented"),
	REFUSE("port", "remote slaves are not implemented"),
	REFUSE("heartbeat_error", "remote slaves are not implemented"),
	REFUSE("psrset", "processor sets are not implemented"),
	REFUSE("auxreport", "auxiliary reports are not implemented"),
	REFUSE("monitor", "the monitor file is not implemented"),
	REFUSE("abort_failed_skew", "skew checks are not implemented"),
	REFUSE("showlba", "showlba is not implemented"),
	REFUSE("loop", "loop= is not implemented"),
	REFUSE("unix2windows", "unix2windows is not implemented"),
	REFUSE("misc", "misc= is not implemented"),
};

static const struct kw fsd_kws[] = {
	{ "anchor", KW_ANCHOR, false, NULL },
	{ "depth", KW_DEPTH, false, NULL },
	{ "width", KW_WIDTH, false, NULL },
	{ "files", KW_FILES, false, NULL },
	{ "sizes", KW_SIZES, false, NULL },
	{ "distribution", KW_DIST, false, NULL },
	{ "openflags", KW_OPENFLAGS, false, NULL },
	{ "shared", KW_SHARED, false, NULL },
	REFUSE("journal", "journaling is not implemented"),
	REFUSE("count", "fsd count=(start,count) is not implemented"),
	REFUSE("totalsize", "totalsize= is not implemented"),
	REFUSE("total_size", "totalsize= is not implemented"),
	REFUSE("workingsetsize", "workingsetsize= is not implemented"),
	REFUSE("wss", "workingsetsize= is not implemented"),
	REFUSE("log", "the read/write log is not implemented"),
	REFUSE("dedup", "dedup is not implemented"),
	REFUSE("cleanup", "vdbench made cleanup= obsolete"),
};

static const struct kw fwd_kws[] = {
	{ "fsd", KW_FSD, true, NULL },
	{ "operation", KW_OPERATION, false, NULL },
	{ "operations", KW_OPERATION, true, NULL },
	{ "rdpct", KW_RDPCT, false, NULL },
	{ "readpct", KW_RDPCT, false, NULL },
	{ "xfersizes", KW_XFERSIZE, false, NULL },
	{ "fileio", KW_FILEIO, true, NULL },
	{ "fileselect", KW_FILESELECT, false, NULL },
	{ "threads", KW_THREADS, false, NULL },
	{ "skew", KW_SKEW, false, NULL },
	{ "stopafter", KW_STOPAFTER, false, NULL },
	{ "openflags", KW_OPENFLAGS, false, NULL },
	REFUSE("target", "copy and move are not implemented"),
};

static const struct kw rd_kws[] = {
	{ "fwd", KW_FWD, true, NULL },
	{ "fwdrate", KW_FWDRATE, false, NULL },
	{ "format", KW_FORMAT, false, NULL },
	{ "elapsed", KW_ELAPSED, false, NULL },
	{ "interval", KW_INTERVAL, false, NULL },
	{ "warmup", KW_WARMUP, false, NULL },
	{ "pause", KW_PAUSE, false, NULL },
	{ "operations", KW_OPERATIONS, false, NULL },
	{ "openflags", KW_OPENFLAGS, false, NULL },
	REFUSE("iorate", "iorate= is for sd= workloads (blkqual run); use fwdrate="),
	REFUSE("curve", "curves are not implemented"),
	REFUSE("stopcurve", "curves are not implemented"),
	REFUSE("maxdata", "maxdata= is not implemented"),
	REFUSE("maxdataread", "maxdata= is not implemented"),
	REFUSE("maxdatawritten", "maxdata= is not implemented"),
	REFUSE("replay", "replay is not implemented here (blkqual replay)"),
	REFUSE("distribution", "arrival distributions are not implemented"),
	REFUSE("startcmd", "start and end commands are not implemented"),
	REFUSE("start_cmd", "start and end commands are not implemented"),
	REFUSE("endcmd", "start and end commands are not implemented"),
	REFUSE("end_cmd", "start and end commands are not implemented"),
	REFUSE("mount", "mount= is not implemented"),
	REFUSE("fsd", "rd-level fsd= is not implemented; name fsds in the fwd"),
};

/*
 * Exact name first; otherwise an unambiguous abbreviation of at least two
 * letters.  "for..." keywords are vdbench's loops, all refused.
 */
/* "messagescan=no": a general parameter, spelled in full, with its value */
static bool general_keyword(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(general_kws); i++) {
		size_t n = strlen(general_kws[i].name);

		if (!strncasecmp(s, general_kws[i].name, n) && s[n] == '=' && s[n + 1])
			return true;
	}
	return false;
}

static int lookup(const struct kw *tab, size_t n, const char *kw, const struct kw **hit)
{
	size_t len = strlen(kw);

	*hit = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(tab[i].name, kw)) {
			*hit = &tab[i];
			return tab[i].id;
		}
	}
	if (len < 2)
		return KW_UNKNOWN;
	for (size_t i = 0; i < n; i++) {
		if (tab[i].exact || strncmp(tab[i].name, kw, len))
			continue;
		if (*hit && (*hit)->id != tab[i].id)
			return KW_AMBIGUOUS;
		*hit = &tab[i];
	}
	return *hit ? (*hit)->id : KW_UNKNOWN;
}

/* The keyword of @tab a misspelling most likely meant, or NULL; refused ones never. */
static const char *kw_suggest(const struct kw *tab, size_t n, const char *kw)
{
	const char *names[64];
	size_t k = 0;

	for (size_t i = 0; i < n && k < ARRAY_SIZE(names); i++)
		if (tab[i].id > 0)
			names[k++] = tab[i].name;
	return bq_suggest(kw, names, k);
}

static int kw_problem(int id, const struct kw *hit, const struct kw *tab, size_t n,
		      const struct vparm *vp, const char *what, struct bq_parse_error *err)
{
	const char *hint;

	if (id == KW_AMBIGUOUS)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=: ambiguous abbreviation in %s",
				  vp->kw, what);
	if (id == KW_REFUSED)
		return bq_fail_at(err, vp->where, -EOPNOTSUPP, "%s=: not implemented: %s",
				  hit->name, hit->why);
	if (!strncmp(vp->kw, "for", 3) && strlen(vp->kw) > 3)
		return bq_fail_at(err, vp->where, -EOPNOTSUPP,
				  "%s=: for-loops (forxxx=) are not implemented; write one rd "
				  "per value", vp->kw);
	hint = kw_suggest(tab, n, vp->kw);
	if (hint)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "%s=: unknown keyword in %s (did you mean '%s'?)", vp->kw, what,
				  hint);
	return bq_fail_at(err, vp->where, -EINVAL, "%s=: unknown keyword in %s", vp->kw, what);
}

/* ---- definitions -------------------------------------------------------- */

static void fsd_defaults(struct bq_files_fsd *f)
{
	memset(f, 0, sizeof(*f));
	f->depth = 1;
	f->width = 1;
	f->files = 10;
	f->sizes.nr = 1;
	f->sizes.val[0] = 4096;
}

static void fwd_defaults(struct bq_files_fwd *f)
{
	memset(f, 0, sizeof(*f));
	f->op = BQ_FOP_READ;
	f->rdpct = -1;
	f->xfer.nr = 1;
	f->xfer.val[0] = 4096;
	f->threads = 1;
}

static void format_fwd_defaults(struct bq_files_fwd *f)
{
	fwd_defaults(f);
	bq_strlcpy(f->name, "format", sizeof(f->name));
	f->threads = 8;
	f->xfer.val[0] = 128 << 10;
	f->op = BQ_FOP_WRITE;
}

static void rd_defaults(struct bq_files_rd *r)
{
	memset(r, 0, sizeof(*r));
	r->elapsed_s = 30;
	r->interval_s = 1;
}

static int set_fsd(struct bq_files_fsd *f, const struct vparm *vp, struct bq_parse_error *err)
{
	const struct kw *hit;
	int id = lookup(fsd_kws, ARRAY_SIZE(fsd_kws), vp->kw, &hit);
	uint64_t v;
	int ret;

	switch (id) {
	case KW_ANCHOR:
		if (strlen(vp->val) >= sizeof(f->anchor))
			return bq_fail_at(err, vp->where, -EINVAL, "anchor=: path too long");
		bq_strlcpy(f->anchor, vp->val, sizeof(f->anchor));
		return 0;
	case KW_DEPTH:
		return get_int(vp, 0, 32, &f->depth, err);
	case KW_WIDTH:
		return get_int(vp, 1, 1u << 20, &f->width, err);
	case KW_FILES:
		ret = get_u64(vp, vp->val, 1, BQ_FILES_MAX_FILES, &v, err);
		if (!ret)
			f->files = (uint32_t)v;
		return ret;
	case KW_SIZES:
		return get_dist(vp, true, &f->sizes, err);
	case KW_DIST:
		if (!strcasecmp(vp->val, "bottom"))
			f->dist_all = false;
		else if (!strcasecmp(vp->val, "all"))
			f->dist_all = true;
		else
			return bq_fail_at(err, vp->where, -EINVAL,
					  "distribution=%s: bottom or all", vp->val);
		return 0;
	case KW_SHARED:
		if (is_word(vp->val, "no", 1))
			return 0;
		if (is_word(vp->val, "yes", 1))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "shared=yes: not implemented (one host only)");
		return bq_fail_at(err, vp->where, -EINVAL, "shared=%s: yes or no", vp->val);
	case KW_OPENFLAGS:
		return get_openflags(vp, &f->openflags, err);
	default:
		return kw_problem(id, hit, fsd_kws, ARRAY_SIZE(fsd_kws), vp,
				  "an fsd", err);
	}
}

static int set_fwd(struct bq_files_fwd *f, const struct vparm *vp, bool format_fwd,
		   struct bq_parse_error *err)
{
	char buf[512], *items[MAX_ITEMS];
	const struct kw *hit;
	int id = lookup(fwd_kws, ARRAY_SIZE(fwd_kws), vp->kw, &hit);
	uint64_t v;
	int nr, ret;

	if (format_fwd && id != KW_THREADS && id != KW_XFERSIZE && id != KW_OPENFLAGS &&
	    id >= 0)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "%s=: fwd=format takes only threads=, xfersize= and "
				  "openflags=", vp->kw);
	switch (id) {
	case KW_FSD:
		return get_names(vp, f->fsd, &f->nr_fsd, err);
	case KW_OPERATION:
		ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
		if (ret)
			return ret;
		if (nr > 1)
			return bq_fail_at(err, vp->where, -EINVAL,
					  "%s=%s: an fwd does one operation (list several in "
					  "the rd's operations=)", vp->kw, vp->val);
		return get_op(vp, items[0], &f->op, err);
	case KW_RDPCT:
		ret = get_u64(vp, vp->val, 0, 100, &v, err);
		if (!ret)
			f->rdpct = (double)v;
		return ret;
	case KW_XFERSIZE:
		ret = get_dist(vp, false, &f->xfer, err);
		/* fwd=format uses the first size only, as vdbench. */
		if (!ret && format_fwd)
			f->xfer.nr = 1;
		return ret;
	case KW_FILEIO:
		ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
		if (ret)
			return ret;
		f->delete_first = false;
		if (is_word(items[0], "random", 1))
			f->random_io = true;
		else if (is_word(items[0], "sequential", 1))
			f->random_io = false;
		else
			return bq_fail_at(err, vp->where, -EINVAL,
					  "fileio=%s: random or sequential", vp->val);
		if (nr > 2)
			return bq_fail_at(err, vp->where, -EINVAL, "fileio=%s: too many values",
					  vp->val);
		if (nr == 2 && !f->random_io && is_word(items[1], "delete", 1))
			f->delete_first = true;
		else if (nr == 2 && f->random_io && is_word(items[1], "shared", 1))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "fileio=(random,shared): shared files are not "
					  "implemented");
		else if (nr == 2)
			return bq_fail_at(err, vp->where, -EINVAL,
					  "fileio=%s: (random,shared) or (sequential,delete)",
					  vp->val);
		return 0;
	case KW_FILESELECT:
		ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
		if (ret)
			return ret;
		for (int i = 0; i < nr; i++) {
			if (is_word(items[i], "random", 1))
				f->select_random = true;
			else if (is_word(items[i], "sequential", 1))
				f->select_random = false;
			else if (!strcasecmp(items[i], "once") ||
				 !strcasecmp(items[i], "poisson") ||
				 !strcasecmp(items[i], "skewed") ||
				 !strncasecmp(items[i], "midpoint", 8) ||
				 isdigit((unsigned char)items[i][0]))
				return bq_fail_at(err, vp->where, -EOPNOTSUPP,
						  "fileselect=%s: not implemented (random and "
						  "sequential are)", items[i]);
			else
				return bq_fail_at(err, vp->where, -EINVAL,
						  "fileselect=%s: random or sequential",
						  items[i]);
		}
		return 0;
	case KW_THREADS:
		return get_int(vp, 1, 4096, &f->threads, err);
	case KW_SKEW:
		ret = get_u64(vp, vp->val, 0, 100, &v, err);
		if (!ret)
			f->skew = (double)v;
		return ret;
	case KW_STOPAFTER:
		if (strchr(vp->val, '%'))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "stopafter=%s: percentages are not implemented", vp->val);
		return get_u64(vp, vp->val, 1, UINT32_MAX, &f->stopafter, err);
	case KW_OPENFLAGS:
		return get_openflags(vp, &f->openflags, err);
	default:
		return kw_problem(id, hit, fwd_kws, ARRAY_SIZE(fwd_kws), vp,
				  "an fwd", err);
	}
}

static int set_format(struct bq_files_format *fm, const struct vparm *vp,
		      struct bq_parse_error *err)
{
	char buf[256], *items[MAX_ITEMS];
	int nr, ret;

	ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
	if (ret)
		return ret;
	memset(fm, 0, sizeof(*fm));
	for (int i = 0; i < nr; i++) {
		const char *w = items[i];

		if (is_word(w, "no", 1)) {
			/* vdbench: "no" anywhere switches the whole format off */
			memset(fm, 0, sizeof(*fm));
			return 0;
		}
		if (is_word(w, "yes", 1)) {
			fm->requested = true;
		} else if (!strcasecmp(w, "only")) {
			fm->requested = fm->only = true;
		} else if (!strcasecmp(w, "restart")) {
			fm->requested = fm->restart = true;
		} else if (!strcasecmp(w, "clean")) {
			fm->requested = fm->clean = fm->only = true;
		} else if (is_word(w, "directories", 3)) {
			fm->requested = fm->dirs = true;
		} else if (!strcasecmp(w, "once") || !strcasecmp(w, "limited") ||
			   !strcasecmp(w, "complete")) {
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "format=%s: not implemented (yes, no, only, restart, "
					  "clean and directories are)", w);
		} else {
			return bq_fail_at(err, vp->where, -EINVAL,
					  "format=%s: yes, no, only, restart, clean or directories",
					  w);
		}
	}
	if (fm->clean && fm->restart)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "format=%s: clean and restart contradict", vp->val);
	return 0;
}

static int set_rd(struct bq_files_rd *r, const struct vparm *vp, bool is_default,
		  struct bq_parse_error *err)
{
	char buf[512], *items[MAX_ITEMS];
	const struct kw *hit;
	int id = lookup(rd_kws, ARRAY_SIZE(rd_kws), vp->kw, &hit);
	int nr, ret;
	double v;

	switch (id) {
	case KW_FWD:
		return get_names(vp, r->fwd, &r->nr_fwd, err);
	case KW_FWDRATE:
		ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
		if (ret)
			return ret;
		if (nr > 1)
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "fwdrate=%s: several rates (a for-loop) are not "
					  "implemented; write one rd per rate", vp->val);
		r->have_rate = true;
		r->rate_max = !strcasecmp(items[0], "max");
		if (r->rate_max)
			return 0;
		if (!strcasecmp(items[0], "curve"))
			return bq_fail_at(err, vp->where, -EOPNOTSUPP,
					  "fwdrate=curve: curves are not implemented");
		if (parse_num(items[0], &v) || v <= 0 || v > 1e9)
			return bq_fail_at(err, vp->where, -EINVAL,
					  "fwdrate=%s: max, or operations per second", items[0]);
		r->rate = v;
		return 0;
	case KW_FORMAT:
		if (is_default)
			return bq_fail_at(err, vp->where, -EINVAL,
					  "format= is not allowed in rd=default");
		return set_format(&r->format, vp, err);
	case KW_ELAPSED:
		return get_secs(vp, 1, &r->elapsed_s, err);
	case KW_INTERVAL:
		return get_secs(vp, 1, &r->interval_s, err);
	case KW_WARMUP:
		return get_secs(vp, 0, &r->warmup_s, err);
	case KW_PAUSE:
		return get_secs(vp, 0, &r->pause_s, err);
	case KW_OPERATIONS:
		ret = split_list(vp->val, buf, sizeof(buf), items, &nr, vp, err);
		if (ret)
			return ret;
		if (nr > BQ_FOP_NR)
			return bq_fail_at(err, vp->where, -EINVAL, "operations=: too many");
		for (int i = 0; i < nr; i++) {
			ret = get_op(vp, items[i], &r->ops[i], err);
			if (ret)
				return ret;
			for (int j = 0; j < i; j++)
				if (r->ops[j] == r->ops[i])
					return bq_fail_at(err, vp->where, -EINVAL,
							  "operations=: %s twice", items[i]);
		}
		r->nr_ops = nr;
		return 0;
	case KW_OPENFLAGS:
		return get_openflags(vp, &r->openflags, err);
	default:
		return kw_problem(id, hit, rd_kws, ARRAY_SIZE(rd_kws), vp,
				  "an rd", err);
	}
}

static int set_general(struct bq_files_parms *p, const struct vparm *vp,
		       struct bq_parse_error *err)
{
	const struct kw *hit;
	int id = lookup(general_kws, ARRAY_SIZE(general_kws), vp->kw, &hit);

	switch (id) {
	case KW_CREATE_ANCHORS:
		if (is_word(vp->val, "yes", 1))
			p->create_anchors = true;
		else if (is_word(vp->val, "no", 1))
			p->create_anchors = false;
		else
			return bq_fail_at(err, vp->where, -EINVAL, "create_anchors=%s: yes or no",
					  vp->val);
		return 0;
	case KW_MESSAGESCAN:
		/* vdbench scans the system log for device errors; blkqual never does. */
		if (is_word(vp->val, "yes", 1) || is_word(vp->val, "no", 1))
			return 0;
		return bq_fail_at(err, vp->where, -EINVAL, "messagescan=%s: yes or no", vp->val);
	default:
		if (id == KW_UNKNOWN && lookup(fsd_kws, ARRAY_SIZE(fsd_kws), vp->kw, &hit) > 0)
			return bq_fail_at(err, vp->where, -EINVAL,
					  "%s= before any fsd= (a definition starts with fsd=, "
					  "fwd= or rd=)", vp->kw);
		return kw_problem(id, hit, general_kws, ARRAY_SIZE(general_kws), vp,
				  "the general parameters", err);
	}
}

/* ---- building the definitions ------------------------------------------ */

static void *grow(void *arr, size_t nr, size_t size)
{
	/* One at a time: parameter files hold tens of definitions, not millions. */
	return realloc(arr, (nr + 1) * size);
}

static int check_name(const struct vparm *vp, const char *what, struct bq_parse_error *err)
{
	if (strchr(vp->val, '(') || strchr(vp->val, '*') || strchr(vp->val, '/'))
		return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: not a name", what, vp->val);
	if (strlen(vp->val) >= BQ_FILES_NAME_MAX)
		return bq_fail_at(err, vp->where, -EINVAL, "%s=%s: name too long", what, vp->val);
	return 0;
}

enum section { S_GENERAL, S_FSD, S_FWD, S_RD };

struct builder {
	struct bq_files_parms *p;
	struct bq_files_fsd dflt_fsd;
	struct bq_files_fwd dflt_fwd;
	struct bq_files_rd dflt_rd;
	enum section sec;
	/* what the following parameters go to */
	struct bq_files_fsd *fsd;
	struct bq_files_fwd *fwd;
	struct bq_files_rd *rd;
	bool in_default;
	bool in_format_fwd;
	bool format_fwd_given;
};

static int start_fsd(struct builder *b, const struct vparm *vp, struct bq_parse_error *err)
{
	struct bq_files_parms *p = b->p;
	struct bq_files_fsd *n;
	int ret = check_name(vp, "fsd", err);

	if (ret)
		return ret;
	b->sec = S_FSD;
	b->in_default = !strcmp(vp->val, "default");
	if (b->in_default) {
		b->fsd = &b->dflt_fsd;
		return 0;
	}
	for (size_t i = 0; i < p->nr_fsd; i++)
		if (!strcasecmp(p->fsd[i].name, vp->val))
			return bq_fail_at(err, vp->where, -EINVAL, "fsd=%s defined twice (first "
					  "at %s)", vp->val, p->fsd[i].where);
	n = grow(p->fsd, p->nr_fsd, sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->fsd = n;
	b->fsd = &n[p->nr_fsd++];
	*b->fsd = b->dflt_fsd;
	bq_strlcpy(b->fsd->name, vp->val, sizeof(b->fsd->name));
	bq_strlcpy(b->fsd->where, vp->where, sizeof(b->fsd->where));
	return 0;
}

static int start_fwd(struct builder *b, const struct vparm *vp, struct bq_parse_error *err)
{
	struct bq_files_parms *p = b->p;
	struct bq_files_fwd *n;
	int ret = check_name(vp, "fwd", err);

	if (ret)
		return ret;
	b->sec = S_FWD;
	b->in_default = !strcmp(vp->val, "default");
	b->in_format_fwd = !strcmp(vp->val, "format");
	if (b->in_default) {
		b->fwd = &b->dflt_fwd;
		return 0;
	}
	if (op_by_name(vp->val) >= 0)
		return bq_fail_at(err, vp->where, -EINVAL,
				  "fwd=%s: an fwd may not be named as an operation", vp->val);
	if (b->in_format_fwd) {
		if (b->format_fwd_given)
			return bq_fail_at(err, vp->where, -EINVAL, "fwd=format defined twice");
		b->format_fwd_given = true;
		/* as vdbench: fwd=default's threads, but the format's own transfer size */
		p->format_fwd = b->dflt_fwd;
		p->format_fwd.xfer.nr = 1;
		p->format_fwd.xfer.val[0] = 128 << 10;
		p->format_fwd.op = BQ_FOP_WRITE;
		bq_strlcpy(p->format_fwd.name, "format", sizeof(p->format_fwd.name));
		bq_strlcpy(p->format_fwd.where, vp->where, sizeof(p->format_fwd.where));
		b->fwd = &p->format_fwd;
		return 0;
	}
	for (size_t i = 0; i < p->nr_fwd; i++)
		if (!strcasecmp(p->fwd[i].name, vp->val))
			return bq_fail_at(err, vp->where, -EINVAL, "fwd=%s defined twice (first "
					  "at %s)", vp->val, p->fwd[i].where);
	n = grow(p->fwd, p->nr_fwd, sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->fwd = n;
	b->fwd = &n[p->nr_fwd++];
	*b->fwd = b->dflt_fwd;
	bq_strlcpy(b->fwd->name, vp->val, sizeof(b->fwd->name));
	bq_strlcpy(b->fwd->where, vp->where, sizeof(b->fwd->where));
	return 0;
}

static int start_rd(struct builder *b, const struct vparm *vp, struct bq_parse_error *err)
{
	struct bq_files_parms *p = b->p;
	struct bq_files_rd *n;
	int ret = check_name(vp, "rd", err);

	if (ret)
		return ret;
	b->sec = S_RD;
	b->in_default = !strcmp(vp->val, "default");
	if (b->in_default) {
		b->rd = &b->dflt_rd;
		return 0;
	}
	for (size_t i = 0; i < p->nr_rd; i++)
		if (!strcasecmp(p->rd[i].name, vp->val))
			return bq_fail_at(err, vp->where, -EINVAL, "rd=%s defined twice (first "
					  "at %s)", vp->val, p->rd[i].where);
	n = grow(p->rd, p->nr_rd, sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->rd = n;
	b->rd = &n[p->nr_rd++];
	*b->rd = b->dflt_rd;
	/* format= is per rd in vdbench, never inherited from rd=default */
	memset(&b->rd->format, 0, sizeof(b->rd->format));
	bq_strlcpy(b->rd->name, vp->val, sizeof(b->rd->name));
	bq_strlcpy(b->rd->where, vp->where, sizeof(b->rd->where));
	return 0;
}

static int build_one(struct builder *b, const struct vparm *vp, struct bq_parse_error *err)
{
	if (!strcmp(vp->kw, "hd") || !strcmp(vp->kw, "host"))
		return bq_fail_at(err, vp->where, -EOPNOTSUPP,
				  "%s=: host definitions are not implemented (blkqual runs on "
				  "this host only)", vp->kw);
	if (!strcmp(vp->kw, "sd") || !strcmp(vp->kw, "wd") || !strcmp(vp->kw, "rg"))
		return bq_fail_at(err, vp->where, -EOPNOTSUPP,
				  "%s=: raw storage workloads are not implemented here (blkqual "
				  "run does block devices)", vp->kw);
	if (!strcmp(vp->kw, "fsd") && b->sec <= S_FSD)
		return start_fsd(b, vp, err);
	if (!strcmp(vp->kw, "fwd") && b->sec <= S_FWD)
		return start_fwd(b, vp, err);
	if (!strcmp(vp->kw, "rd"))
		return start_rd(b, vp, err);
	switch (b->sec) {
	case S_GENERAL:
		return set_general(b->p, vp, err);
	case S_FSD:
		return set_fsd(b->fsd, vp, err);
	case S_FWD:
		return set_fwd(b->fwd, vp, b->in_format_fwd, err);
	case S_RD:
		return set_rd(b->rd, vp, b->in_default, err);
	}
	return -EINVAL;
}

static bool name_matches(const char *pattern, const char *name)
{
	return !fnmatch(pattern, name, FNM_CASEFOLD);
}

static bool nested(const char *a, const char *b)
{
	size_t n = strlen(a);

	while (n > 1 && a[n - 1] == '/')
		n--;
	return !strncmp(a, b, n) && b[n] == '/';
}

/* What vdbench checks once everything is read. */
static int finish(struct bq_files_parms *p, const char *where_end, struct bq_parse_error *err)
{
	if (!p->nr_rd)
		return bq_fail_at(err, where_end, -EINVAL, "no rd= definition: nothing to run");
	for (size_t i = 0; i < p->nr_fsd; i++) {
		const struct bq_files_fsd *f = &p->fsd[i];
		uint64_t dirs, files, bytes;

		if (!f->anchor[0])
			return bq_fail_at(err, f->where, -EINVAL, "fsd=%s: anchor= is required",
					  f->name);
		for (size_t j = 0; j < p->nr_fsd; j++)
			if (nested(f->anchor, p->fsd[j].anchor))
				return bq_fail_at(err, p->fsd[j].where, -EINVAL,
						  "fsd=%s: anchor %s is inside fsd=%s's anchor "
						  "%s", p->fsd[j].name, p->fsd[j].anchor, f->name,
						  f->anchor);
		bq_files_tree_size(f, &dirs, &files, &bytes);
		if (files > BQ_FILES_MAX_FILES || dirs > BQ_FILES_MAX_FILES)
			return bq_fail_at(err, f->where, -EINVAL,
					  "fsd=%s: %llu directories and %llu files: more than %u",
					  f->name, (unsigned long long)dirs,
					  (unsigned long long)files, BQ_FILES_MAX_FILES);
	}
	for (size_t i = 0; i < p->nr_fwd; i++) {
		const struct bq_files_fwd *w = &p->fwd[i];

		if (!w->nr_fsd)
			return bq_fail_at(err, w->where, -EINVAL, "fwd=%s: fsd= is required",
					  w->name);
		for (int k = 0; k < w->nr_fsd; k++) {
			bool hit = false;

			for (size_t j = 0; j < p->nr_fsd && !hit; j++)
				hit = name_matches(w->fsd[k], p->fsd[j].name);
			if (!hit)
				return bq_fail_at(err, w->where, -EINVAL,
						  "fwd=%s: fsd=%s matches no fsd", w->name,
						  w->fsd[k]);
		}
		if (w->rdpct >= 0 && w->op != BQ_FOP_READ && w->op != BQ_FOP_WRITE)
			return bq_fail_at(err, w->where, -EINVAL,
					  "fwd=%s: rdpct= goes with operation=read or write",
					  w->name);
		if (w->rdpct >= 0 && w->delete_first)
			return bq_fail_at(err, w->where, -EINVAL,
					  "fwd=%s: rdpct= and fileio=(sequential,delete) exclude "
					  "each other", w->name);
	}
	for (size_t i = 0; i < p->nr_rd; i++) {
		const struct bq_files_rd *r = &p->rd[i];

		if (!r->nr_fwd)
			return bq_fail_at(err, r->where, -EINVAL, "rd=%s: fwd= is required",
					  r->name);
		for (int k = 0; k < r->nr_fwd; k++) {
			bool hit = false;

			for (size_t j = 0; j < p->nr_fwd && !hit; j++)
				hit = name_matches(r->fwd[k], p->fwd[j].name);
			if (!hit)
				return bq_fail_at(err, r->where, -EINVAL,
						  "rd=%s: fwd=%s matches no fwd", r->name,
						  r->fwd[k]);
		}
		if (!r->have_rate)
			return bq_fail_at(err, r->where, -EINVAL,
					  "rd=%s: fwdrate= is required (max, or operations per "
					  "second)", r->name);
	}
	return 0;
}

static int build(struct bq_files_parms *p, const struct vstream *s, const char *where_end,
		 struct bq_parse_error *err)
{
	struct builder b = { .p = p };
	int ret;

	fsd_defaults(&b.dflt_fsd);
	fwd_defaults(&b.dflt_fwd);
	rd_defaults(&b.dflt_rd);
	for (size_t i = 0; i < s->nr; i++) {
		ret = build_one(&b, &s->v[i], err);
		if (ret)
			return ret;
	}
	return finish(p, where_end, err);
}

static void parms_init(struct bq_files_parms *p)
{
	memset(p, 0, sizeof(*p));
	format_fwd_defaults(&p->format_fwd);
}

int bq_files_parse_files(const char *const *paths, size_t nr, const struct bq_files_var *vars,
			 size_t nr_vars, struct bq_files_parms *p, struct bq_parse_error *err)
{
	struct vstream s = { 0 };
	char end[BQ_FILES_WHERE_MAX];
	int ret = 0;

	parms_init(p);
	if (!nr)
		return bq_fail_at(err, "-f", -EINVAL, "no parameter file");
	for (size_t i = 0; i < nr && !ret; i++)
		ret = read_file(&s, paths[i], vars, nr_vars, false, NULL, err);
	if (!ret && s.depth)
		ret = bq_fail_at(err, s.cur_where, -EINVAL, "'(' not closed");
	snprintf(end, sizeof(end), "%s", paths[nr - 1]);
	if (!ret)
		ret = build(p, &s, end, err);
	stream_free(&s);
	if (ret)
		bq_files_parms_free(p);
	return ret;
}

/* On the command line every keyword is spelled in full, so a near miss is a typo. */
static int unknown_argument(const char *arg, const char *kw, struct bq_parse_error *err)
{
	const char *hint = kw_suggest(fsd_kws, ARRAY_SIZE(fsd_kws), kw);

	if (!hint)
		hint = kw_suggest(fwd_kws, ARRAY_SIZE(fwd_kws), kw);
	if (!hint)
		hint = kw_suggest(rd_kws, ARRAY_SIZE(rd_kws), kw);
	if (hint)
		return bq_fail_at(err, arg, -EINVAL, "unknown keyword (did you mean '%s='?)", hint);
	return bq_fail_at(err, arg, -EINVAL, "unknown keyword (spell keywords in full here)");
}

int bq_files_parse_args(int argc, char *const *argv, struct bq_files_parms *p,
			struct bq_parse_error *err)
{
	struct bq_files_fsd *fsd;
	struct bq_files_fwd *fwd;
	struct bq_files_rd *rd;
	bool have_format = false;
	int ret = 0;

	parms_init(p);
	p->fsd = calloc(1, sizeof(*p->fsd));
	p->fwd = calloc(1, sizeof(*p->fwd));
	p->rd = calloc(1, sizeof(*p->rd));
	if (!p->fsd || !p->fwd || !p->rd) {
		bq_files_parms_free(p);
		return -ENOMEM;
	}
	p->nr_fsd = p->nr_fwd = p->nr_rd = 1;
	fsd = p->fsd;
	fwd = p->fwd;
	rd = p->rd;
	fsd_defaults(fsd);
	fwd_defaults(fwd);
	rd_defaults(rd);
	strcpy(fsd->name, "fsd1");
	strcpy(fwd->name, "fwd1");
	strcpy(rd->name, "rd1");
	strcpy(fsd->where, "command line");
	strcpy(fwd->where, "command line");
	strcpy(rd->where, "command line");
	strcpy(fwd->fsd[0], "fsd1");
	fwd->nr_fsd = 1;
	strcpy(rd->fwd[0], "fwd1");
	rd->nr_fwd = 1;
	rd->have_rate = rd->rate_max = true;

	for (int i = 0; i < argc && !ret; i++) {
		struct vparm vp = { 0 };
		const char *eq = strchr(argv[i], '=');
		const struct kw *hit;
		size_t klen;

		if (!eq || eq == argv[i] || !eq[1]) {
			ret = bq_fail_at(err, argv[i], -EINVAL, "expected keyword=value");
			break;
		}
		klen = (size_t)(eq - argv[i]);
		if (klen >= sizeof(vp.kw)) {
			ret = bq_fail_at(err, argv[i], -EINVAL, "no such keyword");
			break;
		}
		for (size_t k = 0; k < klen; k++)
			vp.kw[k] = (char)tolower((unsigned char)argv[i][k]);
		vp.val = (char *)eq + 1;
		bq_strlcpy(vp.where, argv[i], sizeof(vp.where));
		if (!strcmp(vp.kw, "fsd") || !strcmp(vp.kw, "fwd") || !strcmp(vp.kw, "rd")) {
			ret = bq_fail_at(err, argv[i], -EINVAL,
					 "definitions (fsd=, fwd=, rd=) go in a parameter file "
					 "(-f FILE); key=value arguments make one of each");
			break;
		}
		/* Each keyword by its full name; openflags= belongs to the fwd. */
		if (!strcmp(vp.kw, "openflags")) {
			ret = set_fwd(fwd, &vp, false, err);
		} else if (lookup(fsd_kws, ARRAY_SIZE(fsd_kws), vp.kw, &hit) > 0 &&
			   (!strcmp(hit->name, vp.kw) || !strcmp(vp.kw, "size"))) {
			ret = set_fsd(fsd, &vp, err);
		} else if (lookup(fwd_kws, ARRAY_SIZE(fwd_kws), vp.kw, &hit) > 0 &&
			   (!strcmp(hit->name, vp.kw) || !strcmp(vp.kw, "xfersize"))) {
			ret = set_fwd(fwd, &vp, false, err);
		} else if (lookup(rd_kws, ARRAY_SIZE(rd_kws), vp.kw, &hit) > 0 &&
			   !strcmp(hit->name, vp.kw)) {
			have_format |= !strcmp(vp.kw, "format");
			ret = set_rd(rd, &vp, false, err);
		} else if (lookup(general_kws, ARRAY_SIZE(general_kws), vp.kw, &hit) > 0 &&
			   !strcmp(hit->name, vp.kw)) {
			ret = set_general(p, &vp, err);
		} else {
			int id = lookup(fwd_kws, ARRAY_SIZE(fwd_kws), vp.kw, &hit);

			if (id != KW_REFUSED)
				id = lookup(fsd_kws, ARRAY_SIZE(fsd_kws), vp.kw, &hit);
			if (id != KW_REFUSED)
				id = lookup(rd_kws, ARRAY_SIZE(rd_kws), vp.kw, &hit);
			if (id == KW_REFUSED)
				ret = kw_problem(id, hit, NULL, 0, &vp, "the arguments", err);
			else
				ret = unknown_argument(argv[i], vp.kw, err);
		}
	}
	if (!ret && !have_format) {
		/* Make what is missing, keep what is there: usable on first try. */
		rd->format.requested = rd->format.restart = true;
	}
	if (!ret && !fsd->anchor[0])
		ret = bq_fail_at(err, "anchor", -EINVAL, "anchor=DIR is required");
	if (!ret && fwd->rdpct >= 0 && fwd->op != BQ_FOP_READ && fwd->op != BQ_FOP_WRITE)
		ret = bq_fail_at(err, "rdpct", -EINVAL, "rdpct= goes with operation=read or write");
	if (!ret && fwd->rdpct >= 0 && fwd->delete_first)
		ret = bq_fail_at(err, "rdpct", -EINVAL,
				 "rdpct= and fileio=(sequential,delete) exclude each other");
	if (!ret) {
		uint64_t dirs, files, bytes;

		bq_files_tree_size(fsd, &dirs, &files, &bytes);
		if (files > BQ_FILES_MAX_FILES || dirs > BQ_FILES_MAX_FILES)
			ret = bq_fail_at(err, "files", -EINVAL,
					 "%llu directories and %llu files: more than %u",
					 (unsigned long long)dirs, (unsigned long long)files,
					 BQ_FILES_MAX_FILES);
	}
	if (ret)
		bq_files_parms_free(p);
	return ret;
}

void bq_files_parms_free(struct bq_files_parms *p)
{
	free(p->fsd);
	free(p->fwd);
	free(p->rd);
	memset(p, 0, sizeof(*p));
}
