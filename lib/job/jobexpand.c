// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobexpand.c - what fio does to a job file line before reading its value:
 * ${VAR} from the environment, the $ncpus, $mb_memory and $pagesize
 * keywords with their integer arithmetic, and the parenthesised
 * expressions with units that numeric options take
 *
 * fio runs keyword arithmetic through bc(1) and parenthesised expressions
 * through a yacc grammar; both are re-derived here from their documented
 * and observed behaviour, quirks included (a unit binds looser than '*'
 * and '/', so "(8/2k)" is 4k), because a job file must mean the same in
 * both tools.  What fio would silently garble (a 32-bit overflow, a
 * division by zero) is refused instead.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "jobopt.h"
#include "internal.h"

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

static int strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *p = realloc(b->s, cap);

		if (!p)
			return -ENOMEM;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/*
 * ${VAR} from the environment.  As in fio, a variable that is not set
 * stands for the empty string; an unclosed "${" is refused, since fio
 * would keep it as text that no option can mean.
 */
static int expand_env(const char *in, struct strbuf *b, struct bq_parse_error *err)
{
	const char *p = in;
	int ret;

	for (;;) {
		const char *start = strstr(p, "${"), *close, *val;
		char name[128];
		size_t len;

		if (!start)
			return strbuf_add(b, p, strlen(p));
		ret = strbuf_add(b, p, (size_t)(start - p));
		if (ret)
			return ret;
		close = strchr(start + 2, '}');
		if (!close)
			return bq_parse_fail(err, -EINVAL, "'${' without a closing '}'");
		len = (size_t)(close - start - 2);
		if (!len || len >= sizeof(name))
			return bq_parse_fail(err, -EINVAL, "bad variable name in '%.*s'",
					     (int)(close - start + 1), start);
		memcpy(name, start + 2, len);
		name[len] = '\0';
		val = getenv(name);
		if (val) {
			ret = strbuf_add(b, val, strlen(val));
			if (ret)
				return ret;
		}
		p = close + 1;
	}
}

/* fio's keywords, with the values fio gives them on Linux. */
static long keyword_value(int i)
{
	long page = sysconf(_SC_PAGESIZE);

	switch (i) {
	case 0:
		return page;
	case 1:
		return (long)((uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)page >> 20);
	default:
		/* fio counts the configured CPUs, not only the online ones. */
		return sysconf(_SC_NPROCESSORS_CONF);
	}
}

static const char *const keyword_names[] = { "$pagesize", "$mb_memory", "$ncpus" };

/* Replace every keyword in @s (a malloc'd string); *@hit says whether any was. */
static int replace_keywords(char **s, bool *hit)
{
	*hit = false;
	for (size_t i = 0; i < ARRAY_SIZE(keyword_names); i++) {
		char *at;

		while ((at = strstr(*s, keyword_names[i]))) {
			char *n;

			if (asprintf(&n, "%.*s%ld%s", (int)(at - *s), *s, keyword_value((int)i),
				     at + strlen(keyword_names[i])) < 0)
				return -ENOMEM;
			free(*s);
			*s = n;
			*hit = true;
		}
	}
	return 0;
}

/* ---- bc's integer arithmetic, for values with keywords ----------------- */

struct calc {
	const char *p;
	const char *why;	/* set at the first error */
	int depth;		/* of parentheses and signs: a bound on the recursion */
};

/* Deeper than any job file needs, shallow enough for any stack. */
#define MAX_CALC_DEPTH 64

static void calc_space(struct calc *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static bool calc_fail(struct calc *c, const char *why)
{
	if (!c->why)
		c->why = why;
	return false;
}

static bool calc_expr(struct calc *c, int64_t *v);

static bool calc_unary(struct calc *c, int64_t *v)
{
	bool ok;

	calc_space(c);
	if ((*c->p == '-' || *c->p == '(') && c->depth >= MAX_CALC_DEPTH)
		return calc_fail(c, "nested too deeply");
	if (*c->p == '-') {
		c->p++;
		c->depth++;
		ok = calc_unary(c, v);
		c->depth--;
		if (!ok)
			return false;
		if (*v == INT64_MIN)
			return calc_fail(c, "overflow");
		*v = -*v;
		return true;
	}
	if (*c->p == '(') {
		c->p++;
		c->depth++;
		ok = calc_expr(c, v);
		c->depth--;
		if (!ok)
			return false;
		calc_space(c);
		if (*c->p != ')')
			return calc_fail(c, "missing ')'");
		c->p++;
		return true;
	}
	if (!isdigit((unsigned char)*c->p))
		return calc_fail(c, "syntax error");
	*v = 0;
	for (; isdigit((unsigned char)*c->p); c->p++)
		if (__builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, *c->p - '0', v))
			return calc_fail(c, "overflow");
	return true;
}

/* '^' is right-associative and binds tighter than '*', looser than unary '-'. */
static bool calc_power(struct calc *c, int64_t *v)
{
	int64_t e, r = 1;
	bool ok;

	if (!calc_unary(c, v))
		return false;
	calc_space(c);
	if (*c->p != '^')
		return true;
	c->p++;
	if (c->depth >= MAX_CALC_DEPTH)
		return calc_fail(c, "nested too deeply");
	c->depth++;
	ok = calc_power(c, &e);
	c->depth--;
	if (!ok)
		return false;
	if (e < 0)
		return calc_fail(c, "negative exponent");
	/* 0, 1 and -1 never overflow: their powers are known without the loop. */
	if (*v == 0 || *v == 1 || *v == -1) {
		*v = !e ? 1 : *v == -1 && e % 2 == 0 ? 1 : *v;
		return true;
	}
	for (int64_t i = 0; i < e; i++)
		if (__builtin_mul_overflow(r, *v, &r))
			return calc_fail(c, "overflow");
	*v = r;
	return true;
}

static bool calc_term(struct calc *c, int64_t *v)
{
	int64_t r;

	if (!calc_power(c, v))
		return false;
	for (;;) {
		char op;

		calc_space(c);
		op = *c->p;
		if (op != '*' && op != '/' && op != '%')
			return true;
		c->p++;
		if (!calc_power(c, &r))
			return false;
		if (op == '*') {
			if (__builtin_mul_overflow(*v, r, v))
				return calc_fail(c, "overflow");
		} else if (!r) {
			return calc_fail(c, "divide by zero");
		} else if (r == -1 && *v == INT64_MIN) {
			return calc_fail(c, "overflow");
		} else {
			*v = op == '/' ? *v / r : *v % r;
		}
	}
}

static bool calc_expr(struct calc *c, int64_t *v)
{
	int64_t r;

	if (!calc_term(c, v))
		return false;
	for (;;) {
		char op;

		calc_space(c);
		op = *c->p;
		if (op != '+' && op != '-')
			return true;
		c->p++;
		if (!calc_term(c, &r))
			return false;
		if (op == '+' ? __builtin_add_overflow(*v, r, v) : __builtin_sub_overflow(*v, r, v))
			return calc_fail(c, "overflow");
	}
}

/*
 * fio hands a keyword line's value to bc when it holds '+', '-', '*' or
 * '/' (and no quote): bc's integer arithmetic, so "8*$mb_memory" is a
 * byte count and "$mb_memory*2m" is a syntax error, in both tools.
 */
static int keyword_math(char **line, struct bq_parse_error *err)
{
	char *eq = strchr(*line, '='), *n;
	struct calc c;
	int64_t v;

	if (!eq || strchr(*line, '\'') || !strpbrk(eq + 1, "+-*/"))
		return 0;
	c.p = eq + 1;
	c.why = NULL;
	c.depth = 0;
	if (calc_expr(&c, &v)) {
		calc_space(&c);
		if (*c.p)
			calc_fail(&c, "syntax error");
	}
	if (c.why)
		return bq_parse_fail(err, -EINVAL, "%.60s%s: bad arithmetic: %s", *line,
				     strlen(*line) > 60 ? "..." : "", c.why);
	if (asprintf(&n, "%.*s%lld", (int)(eq + 1 - *line), *line, (long long)v) < 0)
		return -ENOMEM;
	free(*line);
	*line = n;
	return 0;
}

/**
 * bq_expand_line() - a job file line as fio reads it
 * @line: the line, comments stripped
 * @keywords: an option line: fio's keywords and their arithmetic too
 * @out: receives the expanded line (malloc'd)
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL (bad variable or arithmetic) or -ENOMEM.
 */
int bq_expand_line(const char *line, bool keywords, char **out, struct bq_parse_error *err)
{
	struct strbuf b = { NULL, 0, 0 };
	bool hit;
	int ret;

	ret = expand_env(line, &b, err);
	if (!ret && !b.s)
		ret = strbuf_add(&b, "", 0);
	if (!ret && keywords)
		ret = replace_keywords(&b.s, &hit);
	else
		hit = false;
	if (!ret && hit)
		ret = keyword_math(&b.s, err);
	if (ret) {
		free(b.s);
		return ret;
	}
	*out = b.s;
	return 0;
}

/* ---- fio's parenthesised expressions ------------------------------------ */

enum {
	TOK_END,
	TOK_NUM,
	TOK_SUFFIX,
	TOK_OP,
	TOK_BAD,
};

struct fval {
	int64_t i;
	double d;
	bool has_d;	/* a fraction is involved: fio then computes with d */
};

struct fexpr {
	const char *p;
	bool is_time;		/* 'm' is minutes, not mebi */
	bool units;		/* a unit was written: no implied unit */
	const char *why;
	int tok;
	char op;
	struct fval val;
};

struct fsuffix {
	const char *name;
	int64_t mult;
	bool has_d;
};

/* fio's units inside an expression: fixed powers of 1024, whatever kb_base says. */
static const struct fsuffix fsuffixes[] = {
	{ "kib", 1000, false }, { "mib", 1000000, false }, { "gib", 1000000000, false },
	{ "pib", 1000000000000, false },
	{ "kb", 1ll << 10, false }, { "mb", 1ll << 20, false }, { "gb", 1ll << 30, false },
	{ "tb", 1ll << 40, false }, { "pb", 1ll << 50, false },
	{ "ms", 1000, true }, { "us", 1, true },
	{ "k", 1ll << 10, false }, { "g", 1ll << 30, false }, { "t", 1ll << 40, false },
	{ "p", 1ll << 50, false }, { "s", 1000000, false }, { "d", 86400000000, false },
	{ "h", 3600000000, false }, { "m", 0, false },
};

static void fx_next(struct fexpr *x)
{
	const char *p = x->p;

	while (*p == ' ' || *p == '\t')
		p++;
	/* fio's lexer ignores everything from a '#', ':' or ',' on. */
	if (!*p || strchr("#:,", *p)) {
		x->tok = TOK_END;
		x->p = p + strlen(p);
		return;
	}
	if (isdigit((unsigned char)*p) || *p == '.') {
		char *end;

		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
			x->val.i = (int64_t)strtoull(p, &end, 16);
			x->val.d = (double)x->val.i;
			x->val.has_d = false;
		} else {
			size_t n = strspn(p, "0123456789");

			if (p[n] == '.' || p[n] == 'e' || p[n] == 'E') {
				x->val.d = strtod(p, &end);
				if (!(x->val.d > -9.2e18 && x->val.d < 9.2e18)) {
					x->tok = TOK_BAD;
					return;
				}
				x->val.i = (int64_t)x->val.d;
				x->val.has_d = true;
			} else {
				errno = 0;
				x->val.i = strtoll(p, &end, 10);
				x->val.d = (double)x->val.i;
				x->val.has_d = false;
				if (errno) {
					x->tok = TOK_BAD;
					return;
				}
			}
		}
		if (end == p) {
			x->tok = TOK_BAD;
			return;
		}
		x->tok = TOK_NUM;
		x->p = end;
		return;
	}
	if (isalpha((unsigned char)*p)) {
		for (size_t i = 0; i < ARRAY_SIZE(fsuffixes); i++) {
			size_t n = strlen(fsuffixes[i].name);

			if (strncasecmp(p, fsuffixes[i].name, n))
				continue;
			x->tok = TOK_SUFFIX;
			x->val.i = fsuffixes[i].mult;
			if (!strcmp(fsuffixes[i].name, "m"))
				x->val.i = x->is_time ? 60000000 : 1ll << 20;
			x->val.d = (double)x->val.i;
			x->val.has_d = fsuffixes[i].has_d;
			x->p = p + n;
			return;
		}
		x->tok = TOK_BAD;
		return;
	}
	if (strchr("+-*/()^%", *p)) {
		x->tok = TOK_OP;
		x->op = *p;
		x->p = p + 1;
		return;
	}
	x->tok = TOK_BAD;
}

static bool fx_fail(struct fexpr *x, const char *why)
{
	if (!x->why)
		x->why = why;
	return false;
}

/* fio's (long long) cast of a double, refusing what does not fit (undefined in C). */
static bool fx_d2i(struct fexpr *x, double d, int64_t *i)
{
	if (!(d > -9.2e18 && d < 9.2e18))
		return fx_fail(x, "overflow");
	*i = (int64_t)d;
	return true;
}

/* fio's yacc precedences: + - lowest, then a unit, then * /, then ^, then %. */
static int fx_prec(char op)
{
	switch (op) {
	case '+':
	case '-':
		return 1;
	case '*':
	case '/':
		return 3;
	case '^':
		return 4;
	case '%':
		return 5;
	default:
		return -1;
	}
}

#define PREC_SUFFIX 2
#define PREC_UMINUS 6

static bool fx_mul(struct fexpr *x, int64_t a, int64_t b, int64_t *r)
{
	if (__builtin_mul_overflow(a, b, r))
		return fx_fail(x, "overflow");
	return true;
}

/* One binary operator as fio's grammar computes it, the result's has_d from @a. */
static bool fx_apply(struct fexpr *x, char op, struct fval *a, const struct fval *b)
{
	bool dbl = a->has_d || b->has_d, ok = true;
	struct fval r = *a;

	switch (op) {
	case '+':
	case '-':
		r.d = op == '+' ? a->d + b->d : a->d - b->d;
		if (dbl)
			ok = fx_d2i(x, r.d, &r.i);
		else if (op == '+' ? __builtin_add_overflow(a->i, b->i, &r.i) :
			 __builtin_sub_overflow(a->i, b->i, &r.i))
			return fx_fail(x, "overflow");
		break;
	case '*':
		r.d = a->d * b->d;
		if (dbl)
			ok = fx_d2i(x, r.d, &r.i);
		else if (!fx_mul(x, a->i, b->i, &r.i))
			return false;
		break;
	case '/':
		if (!b->i || (b->d < 1e-20 && b->d > -1e-20))
			return fx_fail(x, "divide by zero");
		r.d = a->d / b->d;
		if (dbl)
			ok = fx_d2i(x, r.d, &r.i);
		else if (b->i == -1 && a->i == INT64_MIN)
			return fx_fail(x, "overflow");
		else
			r.i = a->i / b->i;
		break;
	case '%':
		if (dbl)
			return fx_fail(x, "modulo of a fraction");
		if (!b->i)
			return fx_fail(x, "divide by zero");
		r.i = b->i == -1 ? 0 : a->i % b->i;
		r.d = (double)r.i;
		break;
	case '^':
		r.d = pow(a->d, b->d);
		if (dbl || b->i < 0 || a->i == 0 || a->i == 1 || a->i == -1) {
			/* pow() is exact for these, and no loop runs b->i times. */
			ok = fx_d2i(x, r.d, &r.i);
		} else {
			r.i = 1;
			for (int64_t k = 0; k < b->i; k++)
				if (!fx_mul(x, r.i, a->i, &r.i))
					return false;
		}
		break;
	}
	if (!ok)
		return false;
	*a = r;
	return true;
}

static bool fx_parse(struct fexpr *x, int min, struct fval *out)
{
	struct fval lhs, rhs;

	if (x->tok == TOK_OP && x->op == '-') {
		fx_next(x);
		if (!fx_parse(x, PREC_UMINUS, &lhs))
			return false;
		if (lhs.i == INT64_MIN)
			return fx_fail(x, "overflow");
		lhs.i = -lhs.i;
		lhs.d = -lhs.d;
	} else if (x->tok == TOK_OP && x->op == '(') {
		fx_next(x);
		if (!fx_parse(x, 0, &lhs))
			return false;
		if (x->tok != TOK_OP || x->op != ')')
			return fx_fail(x, "missing ')'");
		fx_next(x);
	} else if (x->tok == TOK_NUM) {
		lhs = x->val;
		fx_next(x);
	} else {
		return fx_fail(x, "syntax error");
	}
	for (;;) {
		if (x->tok == TOK_SUFFIX) {
			struct fval s = x->val;

			if (PREC_SUFFIX < min)
				break;
			/* fio truncates a fraction before applying its unit. */
			if (!lhs.has_d && !s.has_d) {
				if (!fx_mul(x, lhs.i, s.i, &lhs.i))
					return false;
				lhs.d = (double)lhs.i;
			} else {
				int64_t whole;

				if (!fx_d2i(x, lhs.d, &whole) ||
				    !fx_d2i(x, (double)whole * s.d, &lhs.i))
					return false;
				lhs.d *= s.d;
			}
			x->units = true;
			fx_next(x);
		} else if (x->tok == TOK_OP && fx_prec(x->op) >= 0) {
			char op = x->op;
			int prec = fx_prec(op);

			if (prec < min)
				break;
			fx_next(x);
			if (!fx_parse(x, op == '^' ? prec : prec + 1, &rhs) ||
			    !fx_apply(x, op, &lhs, &rhs))
				return false;
		} else {
			break;
		}
	}
	if (x->tok == TOK_BAD)
		return fx_fail(x, "syntax error");
	*out = lhs;
	return true;
}

/* One "(...)" as fio's str_to_decimal() reads it, into @buf as a plain value. */
static int eval_paren(const char *s, enum bq_expr_kind kind, char *buf, size_t len,
		      const char **why)
{
	struct fexpr x = { .p = s, .is_time = kind != BQ_EXPR_BYTES };
	int64_t implied = kind == BQ_EXPR_SECONDS ? 1000000 : 1;
	struct fval v;

	fx_next(&x);
	if (!fx_parse(&x, 0, &v) || x.tok != TOK_END) {
		*why = x.why ? x.why : "syntax error";
		return -EINVAL;
	}
	if (!x.units) {
		/* fio keeps a unitless result in an int: refuse what it would wrap. */
		if (__builtin_mul_overflow(v.i, implied, &v.i) || v.i > INT32_MAX ||
		    v.i < INT32_MIN) {
			*why = "over 2^31 without a unit (fio would wrap it)";
			return -EINVAL;
		}
	}
	switch (kind) {
	case BQ_EXPR_BYTES:
		snprintf(buf, len, "%lld", (long long)v.i);
		break;
	case BQ_EXPR_SECONDS:
		/* fio keeps whole seconds of a seconds option. */
		snprintf(buf, len, "%llds", (long long)(v.i / 1000000));
		break;
	case BQ_EXPR_USECS:
		snprintf(buf, len, "%lldus", (long long)v.i);
		break;
	}
	return 0;
}

/**
 * bq_expand_paren() - a numeric option's value with its expressions computed
 * @key: the option, for messages
 * @val: the value; each ','-separated part starting with '(' is an expression
 * @kind: what a number without a unit means
 * @out: receives the value to parse (malloc'd), or NULL if @val has none
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_expand_paren(const char *key, const char *val, enum bq_expr_kind kind, char **out,
		    struct bq_parse_error *err)
{
	struct strbuf b = { NULL, 0, 0 };
	const char *p = val;
	int ret = 0;

	*out = NULL;
	if (!val || !strchr(val, '('))
		return 0;
	while (!ret) {
		size_t n = strcspn(p, ",");
		char part[256], num[64];
		const char *why;

		if (*p != '(') {
			ret = strbuf_add(&b, p, n);
		} else if (n >= sizeof(part)) {
			ret = bq_parse_fail(err, -EINVAL, "%s=%s: expression too long", key, val);
		} else {
			memcpy(part, p, n);
			part[n] = '\0';
			ret = eval_paren(part, kind, num, sizeof(num), &why);
			if (ret)
				ret = bq_parse_fail(err, ret, "%s=%s: bad expression: %s", key,
						    val, why);
			else
				ret = strbuf_add(&b, num, strlen(num));
		}
		if (ret || !p[n])
			break;
		ret = strbuf_add(&b, ",", 1);
		p += n + 1;
	}
	if (ret) {
		free(b.s);
		return ret;
	}
	*out = b.s;
	return 0;
}
