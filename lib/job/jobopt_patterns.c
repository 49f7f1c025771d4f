// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_patterns.c - the I/O pattern options, by their fio names:
 * rw=...:N, rw_sequencer, percentage_random, random_generator, the
 * normal and zoned distributions, strided zones, offset_increment,
 * offset_align, number_ios
 *
 * Only parsing lives here; lib/io/pattern.c gives the values their
 * meaning.  Every value fio accepts is either taken with fio's meaning or
 * refused with -EOPNOTSUPP, never dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_verify.h"
#include "jobopt.h"
#include "jobopt_sprandom.h"
#include "internal.h"

/* "N%" with 0 < N <= 100: the N, or -EINVAL; -ENOENT when @s has no '%'. */
static int parse_pct(const char *s, unsigned int *pct)
{
	size_t len = strlen(s);
	char num[8];
	uint64_t v;

	if (!len || s[len - 1] != '%')
		return -ENOENT;
	if (len - 1 >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, len - 1);
	num[len - 1] = '\0';
	if (bq_parse_dec(num, &v) || !v || v > 100)
		return -EINVAL;
	*pct = (unsigned int)v;
	return 0;
}

/**
 * bq_job_rw_modifier() - the ':N' of rw=MODE:N
 * @job: the job; rw is already set from MODE
 * @key: the option name, for messages
 * @val: the whole value, for messages
 * @mod: what follows the ':', or NULL for none
 * @err: filled in on failure
 *
 * As in fio, every rw= resets both modifiers; for a sequential mode N is
 * a size added after each I/O (holes; a negative one goes backward), for
 * a random one a count: a new random offset every N I/Os.
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_rw_modifier(struct bq_job *job, const char *key, const char *val, const char *mod,
		       struct bq_parse_error *err)
{
	bool random = job->rw == BQ_RW_RANDREAD || job->rw == BQ_RW_RANDWRITE ||
		      job->rw == BQ_RW_RANDRW;
	uint64_t v;

	job->seq_add = 0;
	job->seq_nr = 0;
	if (!mod)
		return 0;
	if (random) {
		if (bq_parse_dec(mod, &v) || v > UINT32_MAX)
			return bq_parse_fail(err, -EINVAL, "%s=%s: ':N' of a random mode is a "
					     "number of I/Os", key, val);
		job->seq_nr = (unsigned int)v;
		return 0;
	}
	/* A negative size goes backward, as fio's rw=read:-8k. */
	if (bq_parse_size(*mod == '-' ? mod + 1 : mod, &v) || v > INT64_MAX)
		return bq_parse_fail(err, -EINVAL, "%s=%s: ':N' of a sequential mode is a size "
				     "(like 4k or -8k)", key, val);
	job->seq_add = *mod == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

int bq_set_rw_sequencer(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "sequential"))
		job->rw_seq_identical = false;
	else if (!strcmp(val, "identical"))
		job->rw_seq_identical = true;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use sequential or identical", key, val);
	return 0;
}

/* fio's per-direction form: "R,W"; a lone value is both, an empty side keeps. */
int bq_set_percentage_random(const struct job_opt *o, const char *key, const char *val,
			     struct bq_job *job, struct bq_parse_error *err)
{
	unsigned int pct[BQ_NR_DIRS] = { job->pct_seq[BQ_READ], job->pct_seq[BQ_WRITE] };
	char buf[64], *part, *rest;
	int d = 0;

	if (strlen(val) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s=%s: value is too long", key, val);
	strcpy(buf, val);
	rest = buf;
	while ((part = strsep(&rest, ","))) {
		uint64_t v;

		if (d == BQ_NR_DIRS)
			return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: a third (trim) value is not "
					     "supported", key, val);
		if (*part) {
			if (bq_parse_dec(part, &v) || v > 100)
				return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0..100", key,
						     val);
			pct[d] = 100 - (unsigned int)v;
			if (!rest && d == BQ_READ)
				pct[BQ_WRITE] = pct[BQ_READ];
		}
		d++;
	}
	job->pct_seq[BQ_READ] = pct[BQ_READ];
	job->pct_seq[BQ_WRITE] = pct[BQ_WRITE];
	return 0;
}

int bq_set_random_generator(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "tausworthe"))
		job->random_generator = BQ_RANDGEN_TAUSWORTHE;
	else if (!strcmp(val, "lfsr"))
		job->random_generator = BQ_RANDGEN_LFSR;
	else if (!strcmp(val, "tausworthe64"))
		job->random_generator = BQ_RANDGEN_TAUSWORTHE64;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use tausworthe, lfsr or tausworthe64",
				     key, val);
	job->random_generator_given = true;
	return 0;
}

int bq_set_zonemode(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "none"))
		job->zonemode = BQ_ZONEMODE_NONE;
	else if (!strcmp(val, "strided"))
		job->zonemode = BQ_ZONEMODE_STRIDED;
	else if (!strcmp(val, "zbd"))
		job->zonemode = BQ_ZONEMODE_ZBD;
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use none, strided or zbd", key, val);
	return 0;
}

/* zonesize, zonerange, zoneskip: bytes (fio's 'z' zone counts are zbd's). */
int bq_set_zone_bytes(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (strchr(val, 'z') || strchr(val, '%'))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: only sizes in bytes are supported",
				     key, val);
	if (bq_parse_size(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 64k, 1m)", key, val);
	if (!strcmp(key, "zonesize"))
		job->zone_size = v;
	else if (!strcmp(key, "zonerange"))
		job->zone_range = v;
	else
		job->zone_skip = v;
	return 0;
}

/*
 * offset=: bytes, or fio's percentage of the target, made bytes once the
 * target's size is known (lib/io/run.c), rounded up to offset_align or
 * else the smallest block size, as fio rounds it.
 */
int bq_set_offset(const struct job_opt *o, const char *key, const char *val,
		  struct bq_job *job, struct bq_parse_error *err)
{
	unsigned int pct;
	uint64_t v;
	int ret = parse_pct(val, &pct);

	(void)o;
	if (!ret) {
		job->offset = 0;
		job->offset_pct = pct;
		return 0;
	}
	/* 0% is the start, as fio's uring-cmd-fdp example writes it. */
	if (!strcmp(val, "0%")) {
		job->offset = 0;
		job->offset_pct = 0;
		return 0;
	}
	if (ret != -ENOENT)
		return bq_parse_fail(err, -EINVAL, "%s=%s: percentage must be 1..100", key, val);
	ret = bq_parse_size(val, &v);
	if (ret == -ERANGE)
		return bq_parse_fail(err, -EINVAL, "%s=%s is too big", key, val);
	if (ret)
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 4k, 1g) or percentage",
				     key, val);
	job->offset = v;
	job->offset_pct = 0;
	return 0;
}

int bq_set_offset_increment(const struct job_opt *o, const char *key, const char *val,
			    struct bq_job *job, struct bq_parse_error *err)
{
	unsigned int pct;
	uint64_t v;
	int ret = parse_pct(val, &pct);

	if (!ret) {
		job->offset_increment = 0;
		job->offset_increment_pct = pct;
		return 0;
	}
	if (ret != -ENOENT)
		return bq_parse_fail(err, -EINVAL, "%s=%s: percentage must be 1..100", key, val);
	if (strchr(val, 'z'))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: zone counts are zonemode=zbd's, "
				     "which is not supported", key, val);
	if (bq_parse_size(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 1g) or percentage",
				     key, val);
	job->offset_increment = v;
	job->offset_increment_pct = 0;
	return 0;
}

int bq_set_size_u64(const struct job_opt *o, const char *key, const char *val,
		    struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_size(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a size (like 4k)", key, val);
	if (!strcmp(key, "offset_align"))
		job->offset_align = v;
	return 0;
}

int bq_set_number_ios(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	uint64_t v;

	if (bq_parse_dec(val, &v))
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a whole number", key, val);
	job->number_ios = v;
	return 0;
}

/* Only fio's defaults are taken: they change nothing. */
int bq_set_unified_rw_reporting(const struct job_opt *o, const char *key, const char *val,
				struct bq_job *job, struct bq_parse_error *err)
{
	if (!strcmp(val, "none") || !strcmp(val, "0"))
		return 0;
	if (!strcmp(val, "mixed") || !strcmp(val, "both") || !strcmp(val, "1"))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s is not supported (reads and writes "
				     "are reported apart)", key, val);
	return bq_parse_fail(err, -EINVAL, "%s=%s: use none, mixed or both", key, val);
}

int bq_set_bs_unaligned(const struct job_opt *o, const char *key, const char *val,
			struct bq_job *job, struct bq_parse_error *err)
{
	if (val && !strcmp(val, "0"))
		return 0;
	if (!val || !strcmp(val, "1"))
		return bq_parse_fail(err, -EOPNOTSUPP, "%s=1 is not supported (sizes of a bsrange "
				     "are multiples of its smallest)", key);
	return bq_parse_fail(err, -EINVAL, "%s=%s: must be 0 or 1", key, val);
}

/*
 * One direction of a zoned split: "60/10:30/20:8/30:2/40".  As in fio,
 * the access percentages must add up to exactly 100; zoned's region
 * percentages to at most 100, where one that is missing or 0 ("20/",
 * "20") shares what the others leave equally (rand-zones.fio ends with
 * "20/"), and one over 100 counts as 100.  zoned_abs's sizes are bytes, a
 * missing one 0.
 */
static int parse_zones(const char *key, char *s, bool abs, struct bq_dist_zone *z, int *nr,
		       struct bq_parse_error *err)
{
	unsigned int pct_sum = 0, size_sum = 0, missing = 0;
	bool has_size[BQ_MAX_DIST_ZONES];
	int n = 0;
	char *tok;

	while ((tok = strsep(&s, ":"))) {
		char *slash = strchr(tok, '/');
		uint64_t pct, size = 0;

		if (n == BQ_MAX_DIST_ZONES)
			return bq_parse_fail(err, -EINVAL, "%s: more than %d zones", key,
					     BQ_MAX_DIST_ZONES);
		if (slash)
			*slash++ = '\0';
		if (bq_parse_dec(tok, &pct) || pct > 100)
			return bq_parse_fail(err, -EINVAL, "%s: access percentage '%s' is not "
					     "0..100", key, tok);
		if (slash && *slash && (abs ? bq_parse_size(slash, &size) : bq_parse_dec(slash, &size)))
			return bq_parse_fail(err, -EINVAL, "%s: zone size '%s' is not %s", key,
					     slash, abs ? "a size" : "a percentage");
		if (!abs && size > 100)
			size = 100;
		has_size[n] = abs || size;
		z[n].pct = (uint8_t)pct;
		z[n].size = size;
		pct_sum += (unsigned int)pct;
		if (has_size[n])
			size_sum += abs ? 0 : (unsigned int)size;
		else
			missing++;
		n++;
	}
	if (pct_sum != 100)
		return bq_parse_fail(err, -EINVAL, "%s: access percentages add up to %u, not 100",
				     key, pct_sum);
	if (size_sum > 100)
		return bq_parse_fail(err, -EINVAL, "%s: zone sizes add up to %u%%, over 100%%",
				     key, size_sum);
	for (int i = 0; i < n; i++)
		if (!has_size[i])
			z[i].size = (100 - size_sum) / missing;
	*nr = n;
	return 0;
}

static int set_zoned(struct bq_job *job, const char *key, const char *val, const char *spec,
		     bool abs, struct bq_parse_error *err)
{
	struct bq_dist_zone z[BQ_NR_DIRS][BQ_MAX_DIST_ZONES];
	int nr[BQ_NR_DIRS] = { 0 };
	char buf[4096], *comma;
	int ret;

	if (strlen(spec) >= sizeof(buf))
		return bq_parse_fail(err, -EINVAL, "%s: value is too long", key);
	strcpy(buf, spec);
	comma = strchr(buf, ',');
	if (comma) {
		*comma++ = '\0';
		if (strchr(comma, ','))
			return bq_parse_fail(err, -EOPNOTSUPP, "%s=%s: a third (trim) split is not "
					     "supported", key, val);
	}
	memset(z, 0, sizeof(z));
	ret = parse_zones(key, buf, abs, z[BQ_READ], &nr[BQ_READ], err);
	if (!ret && comma)
		ret = parse_zones(key, comma, abs, z[BQ_WRITE], &nr[BQ_WRITE], err);
	if (ret)
		return ret;
	if (!comma) {
		memcpy(z[BQ_WRITE], z[BQ_READ], sizeof(z[BQ_READ]));
		nr[BQ_WRITE] = nr[BQ_READ];
	}
	memcpy(job->dist_zones, z, sizeof(z));
	memcpy(job->nr_dist_zones, nr, sizeof(nr));
	job->dist = abs ? BQ_DIST_ZONED_ABS : BQ_DIST_ZONED;
	memset(job->dist_seq, 0, sizeof(job->dist_seq));
	job->nr_dist_seq = 0;
	job->dist_param = 0;
	job->dist_has_center = false;
	job->dist_center = 0;
	return 0;
}

/**
 * bq_job_set_distribution() - random_distribution=, every form fio has
 * @job: the job
 * @key: the option name, for messages
 * @val: "random", "zipf[:THETA[:CENTER]]", "pareto[:H[:CENTER]]",
 *       "normal[:DEV[:CENTER]]" ("gauss" too), "zoned:SPLIT[,SPLIT]",
 *       "zoned_abs:SPLIT[,SPLIT]", "sequence:I,J,..."
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (a trim split).
 */
int bq_job_set_distribution(struct bq_job *job, const char *key, const char *val,
			    struct bq_parse_error *err)
{
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	double param, center = 0;
	bool has_center = false;
	enum bq_dist dist;
	char *end;

#define IS(name) (len == strlen(name) && !strncmp(val, name, len))
	if (IS("random") && !colon)
		dist = BQ_DIST_RANDOM;
	else if (IS("zipf"))
		dist = BQ_DIST_ZIPF;
	else if (IS("pareto"))
		dist = BQ_DIST_PARETO;
	else if (IS("normal") || IS("gauss"))
		dist = BQ_DIST_NORMAL;
	else if (IS("sequence"))
		return bq_job_set_sequence(job, key, val, colon ? colon + 1 : NULL, err);
	else if (IS("zoned") || IS("zoned_abs"))
		return colon ? set_zoned(job, key, val, colon + 1, IS("zoned_abs"), err) :
		       bq_parse_fail(err, -EINVAL, "%s=%s needs zones, like %s:60/10:40/90",
				     key, val, val);
	else
		return bq_parse_fail(err, -EINVAL, "%s=%s: use random, zipf:THETA, pareto:H, "
				     "normal:DEV, zoned:SPLIT, zoned_abs:SPLIT or sequence:I,J,...",
				     key, val);
#undef IS
	/* fio's defaults when no parameter is given. */
	param = dist == BQ_DIST_ZIPF ? 1.1 : dist == BQ_DIST_PARETO ? 0.2 : 0.0;
	if (colon) {
		errno = 0;
		param = strtod(colon + 1, &end);
		if (errno || end == colon + 1 || (*end && *end != ':') || !isfinite(param))
			return bq_parse_fail(err, -EINVAL, "%s=%s: parameter is not a number",
					     key, val);
		if (*end == ':') {
			const char *c = end + 1;

			center = strtod(c, &end);
			if (end == c || *end || !(center >= 0.0 && center <= 1.0))
				return bq_parse_fail(err, -EINVAL, "%s=%s: the center must be "
						     "0..1", key, val);
			has_center = true;
		}
	}
	/* fio refuses theta 1.0; the generator handles the harmonic case, so it stays. */
	if (dist == BQ_DIST_ZIPF && !(param > 0.0))
		return bq_parse_fail(err, -EINVAL, "%s=%s: zipf theta must be over 0", key, val);
	if (dist == BQ_DIST_PARETO && !(param > 0.0 && param < 1.0))
		return bq_parse_fail(err, -EINVAL, "%s=%s: pareto h must be over 0, under 1",
				     key, val);
	if (dist == BQ_DIST_NORMAL && !(param >= 0.0 && param < 100.0))
		return bq_parse_fail(err, -EINVAL, "%s=%s: normal deviation must be 0..100 "
				     "(100 excluded)", key, val);
	job->dist = dist;
	job->dist_param = param;
	job->dist_has_center = has_center;
	job->dist_center = center;
	memset(job->dist_zones, 0, sizeof(job->dist_zones));
	memset(job->nr_dist_zones, 0, sizeof(job->nr_dist_zones));
	memset(job->dist_seq, 0, sizeof(job->dist_seq));
	job->nr_dist_seq = 0;
	return 0;
}

/**
 * bq_job_check_patterns() - the pattern options agree with each other
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_check_patterns(const struct bq_job *job, struct bq_parse_error *err)
{
	uint32_t vb;

	/* fio 3.33's zonemode defaults to none: zonesize alone is refused there too. */
	if (job->zonemode != BQ_ZONEMODE_STRIDED && job->zonemode != BQ_ZONEMODE_ZBD &&
	    job->zone_size)
		return bq_parse_fail(err, -EINVAL, "zonesize needs zonemode=strided or zbd");
	if (job->zonemode == BQ_ZONEMODE_STRIDED && !job->zone_size)
		return bq_parse_fail(err, -EINVAL, "zonemode=strided needs zonesize");
	if (bq_job_strided(job) && job->nr_files > 1)
		return bq_parse_fail(err, -EOPNOTSUPP, "zonemode=strided works on one filename "
				     "per job");
	/*
	 * Every other pattern verifies: the state knows each block's last
	 * write, whatever overwrote it (fio 3.33's own verify of
	 * rw=randwrite:N, percentage_random or random strided zones reads
	 * an overwritten block's older write back, and fails).  Holes are
	 * never read, so they must be whole verify blocks.
	 */
	vb = job->verify ? bq_job_verify_block(job) : 0;
	if (vb && job->seq_add && (uint64_t)(job->seq_add < 0 ? -job->seq_add : job->seq_add) % vb)
		return bq_parse_fail(err, -EOPNOTSUPP, "verify with rw=...:%lld: the hole must be "
				     "a multiple of the verify block %u", (long long)job->seq_add, vb);
	return 0;
}

/**
 * bq_job_strided() - whether a job runs fio's zonemode=strided
 * @job: the job
 *
 * Return: true for zonemode=strided.
 */
bool bq_job_strided(const struct bq_job *job)
{
	return job->zonemode == BQ_ZONEMODE_STRIDED;
}

/**
 * bq_job_has_pattern() - whether a job needs fio's full offset logic
 * @job: the job
 *
 * Return: true when any option of this family changes where I/Os go.
 */
bool bq_job_has_pattern(const struct bq_job *job)
{
	return job->seq_add || job->seq_nr > 1 || job->pct_seq[BQ_READ] ||
	       job->pct_seq[BQ_WRITE] || job->bs_is_seq_rand || bq_job_strided(job) ||
	       job->dist == BQ_DIST_ZONED || job->dist == BQ_DIST_ZONED_ABS ||
	       job->dist == BQ_DIST_SEQUENCE;
}
