// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileset_service.c - which of a thread's files its next I/O goes to:
 * file_service_type (roundrobin, sequential, random, each with ":N" I/Os
 * per turn; zipf and pareto) over at most openfiles files open at a time
 *
 * As in fio, a file is done once its bytes for this pass are moved; it is
 * then closed (leaves the open set) and the next unopened file takes its
 * place.  When every file is done and the thread still has work (a
 * time_based job, or io_size over the files), all start a new pass.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fileset.h"

/**
 * bq_fsrv_new_pass() - every file of the thread to be done again
 * @w: the worker, its file service set up
 *
 * A new pass over the files, as at the start, and as each of fio's loops
 * begins.
 */
void bq_fsrv_new_pass(struct bq_worker *w)
{
	struct bq_fsrv *s = w->fsrv;
	unsigned int open = w->job->openfiles;

	if (!open || open > (unsigned int)w->nr_files)
		open = (unsigned int)w->nr_files;
	for (int i = 0; i < w->nr_files; i++) {
		s->left[i] = w->files[i].span;
		if (i < (int)open)
			s->open[i] = (uint8_t)i;
	}
	s->nr_open = (int)open;
	s->next_open = (int)open;
	s->cur = -1;
	s->ios = 0;
}

/**
 * bq_fsrv_init() - set up a thread's file service, when it needs one
 * @w: the worker, its files set up
 *
 * The plain round robin of one I/O per file over all files needs none
 * (worker_pick() does that itself) unless the files are a file set, whose
 * sizes differ.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_fsrv_init(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_offgen_params p = {
		.nblocks = (uint64_t)w->nr_files, .random = true, .norandommap = true,
		.dist = j->file_service == BQ_FSRV_ZIPF ? BQ_DIST_ZIPF : BQ_DIST_PARETO,
		.param = j->file_service_param,
	};

	w->fsrv = calloc(1, sizeof(*w->fsrv));
	if (!w->fsrv)
		return -ENOMEM;
	bq_fsrv_new_pass(w);
	if (j->file_service != BQ_FSRV_ZIPF && j->file_service != BQ_FSRV_PARETO)
		return 0;
	/* Drawn from the thread's stream only here, so other jobs' draws stay as they were. */
	p.seed = bq_rand_next(&w->rng);
	return bq_offgen_init(&w->fsrv->gen, &p);
}

/*
 * zipf, pareto: a skewed draw over all the thread's files, as fio draws;
 * one that is done or not open is drawn again, a few times, before the
 * next open file in turn takes the I/O.
 */
static int skewed_pick(struct bq_fsrv *s)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t f = bq_offgen_next(&s->gen);

		for (int i = 0; i < s->nr_open; i++)
			if (s->open[i] == f)
				return i;
	}
	return (s->cur + 1) % s->nr_open;
}

/* The file at @pos is done: closed, and the next unopened one opened. */
static void close_done(struct bq_fsrv *s, int pos, int nr_files)
{
	memmove(&s->open[pos], &s->open[pos + 1], (size_t)(s->nr_open - pos - 1));
	s->nr_open--;
	if (s->next_open < nr_files)
		s->open[s->nr_open++] = (uint8_t)s->next_open++;
	/* The next pick moves on from the slot before: round robin keeps its place. */
	s->cur = pos - 1;
	s->ios = 0;
}

/**
 * bq_fsrv_next() - the file of the next I/O (bq_fsrv_done() takes its bytes off)
 * @w: the worker
 * @len: the I/O's length
 *
 * A file whose rest is shorter than the I/O is done, as in fio, which
 * moves whole blocks only.  A new pass starts only for a job that goes on
 * past its files (time_based, io_size).
 *
 * Return: the file's index in @w->files, or -1 when every file is done.
 */
int bq_fsrv_next(struct bq_worker *w, uint32_t *len)
{
	const struct bq_job *j = w->job;
	struct bq_fsrv *s = w->fsrv;
	unsigned int per = j->file_service_nr;
	bool renewed = false;
	int f;

	for (;;) {
		if (!s->nr_open) {
			if ((!j->time_based && !j->io_size) || renewed)
				return -1;
			bq_fsrv_new_pass(w);
			renewed = true;
		}
		if (s->cur < 0 || s->cur >= s->nr_open || (per && s->ios >= per)) {
			switch (j->file_service) {
			case BQ_FSRV_SEQUENTIAL:
				s->cur = 0;
				break;
			case BQ_FSRV_RANDOM:
				s->cur = (int)bq_bounded(&w->rng, (uint64_t)s->nr_open);
				break;
			case BQ_FSRV_ZIPF:
			case BQ_FSRV_PARETO:
				s->cur = skewed_pick(s);
				break;
			default:
				s->cur = (s->cur + 1) % s->nr_open;
				break;
			}
			s->ios = 0;
		}
		f = s->open[s->cur];
		if (s->left[f] >= *len)
			break;
		/*
		 * With several block sizes fio picks a smaller one that fits the
		 * rest; the rest in whole smallest blocks does the same bytes.
		 */
		if (s->left[f] >= w->unit) {
			*len = (uint32_t)(s->left[f] / w->unit * w->unit);
			break;
		}
		s->left[f] = 0;
		close_done(s, s->cur, w->nr_files);
	}
	s->ios++;
	return f;
}

/**
 * bq_fsrv_done() - take an I/O's bytes off its file
 * @w: the worker
 * @f: the file bq_fsrv_next() gave
 * @len: the I/O's length, after the random map may have cut it short
 *
 * Taken once the length is final: an I/O the map cut short leaves the
 * rest of its file to do, as in fio.
 */
void bq_fsrv_done(struct bq_worker *w, int f, uint32_t len)
{
	struct bq_fsrv *s = w->fsrv;

	s->left[f] -= len < s->left[f] ? len : s->left[f];
	if (!s->left[f])
		close_done(s, s->cur, w->nr_files);
}
