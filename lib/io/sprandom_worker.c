// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom_worker.c - sprandom=1 in a job's thread (issue 19): the
 * preconditioning state of io/sprandom.c sized to the thread's file, and
 * its blocks as the writes' offsets
 */
#include <errno.h>
#include <stdio.h>

#include "engine.h"
#include "sprandom.h"

/**
 * bq_sprandom_worker_init() - a sprandom job's thread, its file set up
 * @w: the worker
 *
 * fio sizes the job to the physical capacity: that is its io_size,
 * whatever the job said.
 *
 * Return: 0, or -errno with @w->setup_msg.
 */
int bq_sprandom_worker_init(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	const struct bq_file_state *f = &w->files[0];
	uint64_t logical = f->span < f->limit ? f->span : f->limit;
	struct bq_sprandom_params p = {
		.nblocks = logical / w->unit, .bs = j->bs[BQ_WRITE], .nr_regions = j->spr_num_regions,
		.op = j->spr_op, .cache_bytes = j->spr_cs,
		.seed = bq_rand_next(&w->rng),
	};
	uint64_t region;

	p.physical = bq_sprandom_physical(logical, j->spr_op, p.bs);
	region = p.physical / p.nr_regions;
	if (j->spr_cs && j->spr_cs > region) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "sprandom: spr_cs %llu must be "
			 "smaller than the region size %llu (at most %llu regions)",
			 (unsigned long long)j->spr_cs, (unsigned long long)region,
			 (unsigned long long)(p.physical / j->spr_cs));
		return -EINVAL;
	}
	if (!p.nblocks || region < p.bs) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "sprandom: %llu bytes make no "
			 "region of spr_num_regions=%u of a block each",
			 (unsigned long long)logical, p.nr_regions);
		return -EINVAL;
	}
	w->spr = bq_sprandom_new(&p);
	if (!w->spr) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "sprandom: out of memory");
		return -ENOMEM;
	}
	w->bytes_left = p.physical;
	return 0;
}

/**
 * worker_sprandom_offset() - where sprandom's next write goes
 * @w: the worker
 * @s: gets the offset
 * @f: the file
 * @dir: the I/O's direction (a read of randrw takes a block as fio's does)
 *
 * Return: false when the preconditioning is done (or failed, counted).
 */
bool worker_sprandom_offset(struct bq_worker *w, struct bq_slot *s,
			    const struct bq_file_state *f, int dir)
{
	uint64_t b;
	int ret = dir == BQ_WRITE ? bq_sprandom_next(w->spr, &b) :
		  bq_sprandom_next_read(w->spr, &b);

	if (ret < 0) {
		struct bq_slot none = { .dir = BQ_WRITE };

		worker_record_error(w, &none, -ret);
	}
	if (ret)
		return false;
	s->offset = f->base + b * w->unit;
	return true;
}
