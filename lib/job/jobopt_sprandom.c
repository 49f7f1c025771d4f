// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_sprandom.c - random_distribution=sequence with
 * random_sequence_stride, and sprandom with its spr_* options (issue 19):
 * their parsing and rules, as fio's head has them
 *
 * A sequence is a list of at most 64 block indices that a random job
 * visits in that order, over and over (lib/io/pattern.c).  SPRandom is
 * SanDisk's preconditioning (lib/io/sprandom.c): fio checks its needs
 * (random writes, random_generator=lfsr, norandommap, one file) and so
 * does blkqual, with the same refusals.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jobopt.h"
#include "jobopt_sprandom.h"

/* One entry: digits only, blanks around it allowed, as fio reads it. */
static int seq_entry(const char *s, size_t len, uint32_t *v)
{
	uint64_t x = 0;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		x = x * 10 + (uint64_t)(s[i] - '0');
		/* fio keeps an int; a bigger index is no block of any target. */
		if (x > INT32_MAX)
			return -ERANGE;
	}
	*v = (uint32_t)x;
	return 0;
}

int bq_job_set_sequence(struct bq_job *job, const char *key, const char *val, const char *list,
			struct bq_parse_error *err)
{
	uint32_t seq[BQ_MAX_DIST_SEQ];
	const char *p = list;
	int nr = 0;

	if (!list || !*list)
		return bq_parse_fail(err, -EINVAL, "%s=%s: the sequence needs block indices, "
				     "like sequence:2,0,1", key, val);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int ret;

		if (nr == BQ_MAX_DIST_SEQ)
			return bq_parse_fail(err, -EINVAL, "%s=%s: at most %d block indices, as in "
					     "fio", key, val, BQ_MAX_DIST_SEQ);
		ret = seq_entry(p, len, &seq[nr]);
		if (ret)
			return bq_parse_fail(err, -EINVAL, "%s=%s: '%.*s' is not a block index "
					     "(0 to %d)", key, val, (int)len, p, INT32_MAX);
		nr++;
		if (!comma)
			break;
		p = comma + 1;
	}
	memset(job->dist_seq, 0, sizeof(job->dist_seq));
	memcpy(job->dist_seq, seq, (size_t)nr * sizeof(seq[0]));
	job->nr_dist_seq = (uint8_t)nr;
	job->dist = BQ_DIST_SEQUENCE;
	job->dist_param = 0;
	job->dist_has_center = false;
	job->dist_center = 0;
	memset(job->dist_zones, 0, sizeof(job->dist_zones));
	memset(job->nr_dist_zones, 0, sizeof(job->nr_dist_zones));
	return 0;
}

int bq_job_set_spr_op(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || *end || !(v > 0.0 && v < 1.0))
		return bq_parse_fail(err, -EINVAL, "%s=%s: the over-provisioning ratio must be "
				     "over 0 and under 1", key, val);
	job->spr_op = v;
	return 0;
}

void bq_sprandom_defaults(struct bq_job *job)
{
	job->spr_num_regions = 100;
	job->spr_op = 0.15;
}

int bq_job_check_sprandom(const struct bq_job *j, struct bq_parse_error *err)
{
	if (!j->sprandom)
		return 0;
	/* fio's own refusals (its init.c and filesetup.c). */
	if (j->rw != BQ_RW_RANDWRITE && j->rw != BQ_RW_RANDRW)
		return bq_parse_fail(err, -EINVAL, "sprandom requires random write, "
				     "random_generator=lfsr, norandommap=1");
	if (j->random_generator_given && j->random_generator != BQ_RANDGEN_LFSR)
		return bq_parse_fail(err, -EINVAL, "sprandom requires random_generator=lfsr");
	if (j->norandommap_given && !j->norandommap)
		return bq_parse_fail(err, -EINVAL, "sprandom requires norandommap=1");
	if (j->nr_files > 1 || j->stripe)
		return bq_parse_fail(err, -EINVAL, "sprandom supports only one file");
	/* fio's example states it; two threads would each write the whole device. */
	if (j->numjobs != 1)
		return bq_parse_fail(err, -EINVAL, "sprandom needs numjobs=1");
	if (!j->spr_num_regions)
		return bq_parse_fail(err, -EINVAL, "spr_num_regions must be at least 1");
	/* Its writes are all of one size: the physical size is counted in them. */
	if (j->nr_bssplit[BQ_WRITE] || j->bs_min[BQ_WRITE] != j->bs_max[BQ_WRITE])
		return bq_parse_fail(err, -EOPNOTSUPP, "sprandom with several write block sizes "
				     "is not supported");
	if (j->time_based || j->verify || bq_job_has_pattern(j) ||
	    j->zonemode == BQ_ZONEMODE_ZBD)
		return bq_parse_fail(err, -EOPNOTSUPP, "sprandom with time_based, verify, zones "
				     "or other offset patterns is not supported");
	return 0;
}

int bq_sprandom_to_args(const struct bq_job *j, struct bq_strv *args)
{
	int ret = 0;

	if (j->dist_seq_stride)
		ret = bq_argf(args, "--random_sequence_stride=1");
	if (j->sprandom)
		ret = ret ?: bq_argf(args, "--sprandom=1");
	ret = ret ?: bq_argf(args, "--spr_num_regions=%u", j->spr_num_regions);
	ret = ret ?: bq_argf(args, "--spr_op=%.17g", j->spr_op);
	ret = ret ?: bq_argf(args, "--spr_cs=%" PRIu64, j->spr_cs);
	return ret;
}
