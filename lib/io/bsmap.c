// SPDX-License-Identifier: GPL-2.0-only
/*
 * bsmap.c - block sizes drawn per I/O (bssplit, bsrange) and the random
 * map that keeps such a job from doing a unit twice in a pass
 *
 * fio draws a random job's offset first and its size second: a block
 * uniformly over the region, moved to the next free unit when the map
 * has it already, then a size that still fits in the region, cut short
 * at the first unit that is already done.  A size drawn first and a
 * random unit in the middle of a free run cut the runs up much finer,
 * which showed as twice fio's I/O count for the same bytes.
 *
 * The map is a bitmap with a summary above it: each bit of a level says
 * its word below is full, so the next free unit is found in a few words
 * however full the map is.  Bits past the end are set from the start,
 * so they are never free and never make a word look emptier than it is.
 *
 * None of this is on the path of a job with one block size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "bsmap.h"

#define NONE UINT64_MAX

/*
 * Whether a file whose units are all done (or whose end no size fits in)
 * ends the job, as it ends fio's: unless it is time based or its io_size
 * asks for more than a pass, when the next pass starts.  A job of several
 * files goes on too (their passes end at nearly the same I/O).
 */
static bool pass_ends(const struct bq_worker *w)
{
	if (w->job->time_based || w->job->io_size)
		return false;
	/* With fio's draws, a file of several is set aside (worker_varbs_other_file()). */
	return w->nr_files == 1 || (w->fio && !w->fsrv);
}

static void set_tails(struct bq_bsmap *m)
{
	for (int l = 0; l < m->nr_levels; l++) {
		unsigned int used = (unsigned int)(m->nbits[l] % 64);

		if (used)
			m->lvl[l][m->nbits[l] / 64] |= ~0ULL << used;
	}
}

/**
 * bq_bsmap_new() - an empty map of @nbits units
 * @nbits: units in the region (at least 1)
 *
 * Return: the map, or NULL without memory.
 */
struct bq_bsmap *bq_bsmap_new(uint64_t nbits)
{
	uint64_t n = nbits, words = 0, nw[BQ_BSMAP_LEVELS];
	struct bq_bsmap *m;
	int levels = 0;

	do {
		nw[levels] = (n + 63) / 64;
		words += nw[levels];
		levels++;
		n = (n + 63) / 64;
	} while (n > 1 && levels < BQ_BSMAP_LEVELS);
	m = calloc(1, sizeof(*m) + words * sizeof(uint64_t));
	if (!m)
		return NULL;
	m->nr_levels = levels;
	m->words = words;
	n = nbits;
	words = 0;
	for (int l = 0; l < levels; l++) {
		m->nbits[l] = n;
		m->lvl[l] = m->w + words;
		words += nw[l];
		n = nw[l];
	}
	set_tails(m);
	return m;
}

/**
 * bq_bsmap_reset() - forget every unit done: the next pass starts
 * @m: the map (its file's count of units done is the caller's to clear)
 */
void bq_bsmap_reset(struct bq_bsmap *m)
{
	memset(m->w, 0, m->words * sizeof(uint64_t));
	set_tails(m);
}

static inline bool bsmap_isset(const struct bq_bsmap *m, uint64_t b)
{
	return m->lvl[0][b / 64] & (1ULL << (b % 64));
}

/* The first free bit of level @l at or after @b, or NONE. */
static uint64_t first_free(const struct bq_bsmap *m, int l, uint64_t b)
{
	uint64_t w, free;

	if (b >= m->nbits[l])
		return NONE;
	w = b / 64;
	free = ~m->lvl[l][w] & (~0ULL << (b % 64));
	if (free)
		return w * 64 + (uint64_t)__builtin_ctzll(free);
	if (l + 1 == m->nr_levels)
		return NONE;
	/* A clear bit above is a word here with a free (real) bit in it. */
	w = first_free(m, l + 1, w + 1);
	if (w == NONE)
		return NONE;
	return w * 64 + (uint64_t)__builtin_ctzll(~m->lvl[l][w]);
}

/* fio's rule for a unit already done: the next free one after it, wrapping round. */
static uint64_t next_free(const struct bq_bsmap *m, uint64_t b)
{
	uint64_t next = b + 1 == m->nbits[0] ? 0 : b + 1, r;

	r = first_free(m, 0, next);
	if (r == NONE && next)
		r = first_free(m, 0, 0);
	return r;
}

/* A word of level @l became full: say so in the levels above. */
static void mark_full(struct bq_bsmap *m, int l, uint64_t w)
{
	while (++l < m->nr_levels) {
		uint64_t *word = &m->lvl[l][w / 64];

		*word |= 1ULL << (w % 64);
		if (*word != ~0ULL)
			return;
		w /= 64;
	}
}

/* Mark up to @n units from @b, stopping at one already done; how many were marked. */
static uint64_t mark_run(struct bq_bsmap *m, uint64_t b, uint64_t n)
{
	uint64_t done = 0;

	if (n > m->nbits[0] - b)
		n = m->nbits[0] - b;
	while (done < n) {
		uint64_t *word = &m->lvl[0][b / 64];
		unsigned int bit = (unsigned int)(b % 64);
		uint64_t take = n - done < 64 - bit ? n - done : 64 - bit;
		uint64_t mask = (take == 64 ? ~0ULL : (1ULL << take) - 1) << bit;
		uint64_t busy = *word & mask;

		if (busy) {
			/* Only the free units before the first busy one. */
			take = (uint64_t)__builtin_ctzll(busy) - bit;
			mask = (take == 64 ? ~0ULL : (1ULL << take) - 1) << bit;
		}
		*word |= mask;
		if (*word == ~0ULL)
			mark_full(m, 0, b / 64);
		done += take;
		b += take;
		if (busy)
			break;
	}
	return done;
}

/**
 * worker_fit_len() - fio's block size for an I/O that has its offset
 * @w: the worker
 * @dir: the direction whose sizes apply
 * @room: bytes from the offset to the end of the region
 *
 * A bssplit entry drawn that does not fit gives way to the next one
 * that does; when none does, or a bsrange size does not fit, the size
 * is drawn again.  A bsrange size is fio's: bs_min plus a uniform part
 * of bs_max, rounded down to a multiple of bs_min and capped at bs_max.
 *
 * Return: the size, or 0 when not even the smallest fits.
 */
uint32_t worker_fit_len(struct bq_worker *w, int dir, uint64_t room)
{
	const struct bq_job *j = w->job;
	uint32_t lo = j->bs_min[dir], hi = j->bs_max[dir], len = 0;
	int nr = j->nr_bssplit[dir], tries = 0;

	if (w->fio)
		return bq_fiodraw_len(w->fio, j, dir, room);
	if (!nr && lo == hi)
		return j->bs[dir];
	if (lo > room)
		return 0;
	do {
		if (nr) {
			unsigned int r = (unsigned int)bq_bounded(&w->rng, 100), acc = 0;

			for (int i = 0; i < nr; i++) {
				const struct bq_bssplit *e = &j->bssplit[dir][i];

				if (!e->pct)
					continue;
				len = e->bs;
				acc += e->pct;
				if (r < acc && len <= room)
					break;
			}
		} else {
			len = lo + (uint32_t)bq_bounded(&w->rng, hi);
		}
		len -= len % lo;
		if (len > hi)
			len = hi;
		/* Only the smallest fits but it has no share: fio would spin. */
		if (++tries == 1000 && len > room)
			return lo;
	} while (len > room);
	return len;
}

/*
 * fio aligns each direction's random offsets on its own smallest size
 * unless blockalign is set: a job whose reads and writes have different
 * smallest sizes draws its writes' blocks over fewer, larger units.
 */
static uint32_t dir_unit(const struct bq_worker *w, int dir)
{
	if (!w->fio || w->job->ba)
		return w->unit;
	return w->job->bs_min[dir];
}

/*
 * A uniform block of the region, of the alignment unit: fio's last block
 * leaves room for the smallest size.  With tausworthe, fio's own draw
 * from its offset stream (fiorand.c).
 */
static uint64_t random_block(struct bq_worker *w, struct bq_file_state *f, int dir)
{
	uint64_t lastb = bq_fiodraw_lastb(w->job, dir, f->span, dir_unit(w, dir));

	if (!lastb)
		lastb = 1;
	if (w->fio && w->job->random_generator != BQ_RANDGEN_LFSR)
		return bq_frand_scale(&w->fio->off, lastb);
	return bq_bounded(&f->gen, lastb);
}

/*
 * fio's units, as it mixes them: the block drawn (and looked up in the
 * map) is of the direction's alignment, the map's bits are of the
 * smallest size of all, and the run marked is counted from the offset
 * in the direction's smallest size.  With one smallest size, and no
 * blockalign over it, they are all the same.
 */
static uint64_t fio_map_len(struct bq_worker *w, struct bq_file_state *f, int dir, uint64_t u,
			    uint32_t *len)
{
	uint64_t off = u * dir_unit(w, dir), n;
	uint32_t lo = w->job->bs_min[dir], l;
	/* bs_is_seq_rand: a random I/O takes the write sizes, whatever its direction */
	int sdir = w->job->bs_is_seq_rand ? BQ_WRITE : dir;

	if (off >= f->span)
		return UINT64_MAX;
	l = worker_fit_len(w, sdir, f->span - off);
	if (!l)
		return UINT64_MAX;
	n = mark_run(f->map, off / lo, (l + lo - 1) / lo);
	f->mapped += n;
	if (n && n * lo < l)
		l = (uint32_t)(n * lo);
	*len = l;
	return off;
}

/**
 * worker_rand_offset() - a uniform random offset of a job with several
 * block sizes, without the map: fio's own draw, on the direction's alignment
 * @w: the worker
 * @f: the file
 * @dir: the I/O's direction
 *
 * Return: the byte offset within the region.
 */
uint64_t worker_rand_offset(struct bq_worker *w, struct bq_file_state *f, int dir)
{
	return random_block(w, f, dir) * dir_unit(w, dir);
}

/**
 * worker_map_pick() - a random I/O of a job with several block sizes and
 * the random map
 * @w: the worker
 * @f: the file
 * @dir: the direction whose sizes apply
 * @len: set to the I/O's size: drawn to fit, then cut at the first unit
 *       already done this pass
 *
 * fio's order: a unit drawn uniformly, the next free unit after it when
 * it is done, then the size.  A full map starts the next pass, or ends
 * the job as in fio: a size that is not a whole number of units marks
 * the unit it ends in, so fio's bytes can fall short of the size.
 *
 * Return: the byte offset within the region, or UINT64_MAX: the job is done.
 */
uint64_t worker_map_pick(struct bq_worker *w, struct bq_file_state *f, int dir, uint32_t *len)
{
	struct bq_bsmap *m = f->map;
	uint64_t nbits = m->nbits[0], u, n;
	uint32_t l;

	/* fio finds its map full only when a draw lands in it (below). */
	if (f->mapped == nbits && !w->fio) {
		/* fio's file is done; another pass only for time or io_size. */
		if (pass_ends(w))
			return UINT64_MAX;
		bq_bsmap_reset(m);
		f->mapped = 0;
		if (w->fio)
			bq_fiodraw_new_pass(w->fio, w->job);
	}
	u = random_block(w, f, dir);
	if (w->fio) {
		/* fio looks a block past its map's end up as free. */
		if (u < nbits && bsmap_isset(m, u))
			u = next_free(m, u);
		if (u == NONE) {
			if (pass_ends(w))
				return UINT64_MAX;
			bq_bsmap_reset(m);
			f->mapped = 0;
			/*
			 * A time based job clears its map and draws again on
			 * the spot; io_size's next pass starts the job's
			 * streams over as fio's next round does.
			 */
			if (!w->job->time_based)
				bq_fiodraw_new_pass(w->fio, w->job);
			u = random_block(w, f, dir);
		}
		return fio_map_len(w, f, dir, u, len);
	}
	if (u >= nbits)
		u = nbits - 1;
	if (bsmap_isset(m, u))
		u = next_free(m, u);
	l = worker_fit_len(w, dir, f->span - u * w->unit);
	if (!l)
		l = w->unit;
	n = mark_run(m, u, (l + w->unit - 1) / w->unit);
	f->mapped += n;
	if (n * w->unit < l)
		l = (uint32_t)(n * w->unit);
	*len = l;
	return u * w->unit;
}

/**
 * worker_varbs_offset() - offset and size of an I/O of a job with several
 * block sizes, in fio's order (see worker_pick())
 * @w: the worker
 * @f: the file
 * @dir: the I/O's direction
 * @len: set to its size
 *
 * Return: the byte offset within the region, or UINT64_MAX when the job
 * is done: its map is full, or not even the smallest size fits where a
 * sequential job stands (fio ends the file there, a few bytes short of
 * the size).
 */
uint64_t worker_varbs_offset(struct bq_worker *w, struct bq_file_state *f, int dir, uint32_t *len)
{
	const struct bq_job *j = w->job;
	uint64_t off;
	uint32_t lo;

	if (!w->random) {
		int d = j->bs_is_seq_rand ? BQ_READ : dir;

		*len = worker_fit_len(w, d, f->span - f->seq_pos);
		if (!*len) {
			if (pass_ends(w))
				return UINT64_MAX;
			f->seq_pos = 0;
			*len = worker_fit_len(w, d, f->span);
			if (!*len)
				return UINT64_MAX;
		}
		off = f->seq_pos;
		f->seq_pos += *len;
		return off;
	}
	if (j->bs_is_seq_rand)
		dir = BQ_WRITE;
	if (f->map)
		return worker_map_pick(w, f, dir, len);
	lo = j->bs_min[dir];
	if (f->gen.dist == BQ_DIST_RANDOM) {
		off = random_block(w, f, dir) * dir_unit(w, dir);
	} else {
		off = bq_offgen_next(&f->gen) * w->unit;
	}
	*len = worker_fit_len(w, dir, f->span - off);
	if (!*len) {
		/* Only a skewed draw at the very end: slide back inside. */
		*len = lo < f->span ? lo : (uint32_t)f->span;
		off = (f->span - *len) / w->unit * w->unit;
	}
	return off;
}

/**
 * worker_varbs_other_file() - fio's I/O from the next file when the one
 * drawn has no more offsets
 * @w: the worker (fio's draws, several files, round robin)
 * @s: the I/O; its file is set aside and replaced
 * @dir: its direction, drawn again for the new file as fio fills the
 *       I/O again from the start
 * @len: set to its size
 *
 * fio marks a file whose map is full (or whose end no size fits in)
 * done, and the job goes on with the others until its size is done or
 * every file is.
 *
 * Return: the byte offset within the new file's region, or UINT64_MAX
 * when every file is done.
 */
uint64_t worker_varbs_other_file(struct bq_worker *w, struct bq_slot *s, int *dir, uint32_t *len)
{
	struct bq_fiodraw *d = w->fio;
	const struct bq_job *j = w->job;
	uint64_t all = w->nr_files == 64 ? ~0ULL : (1ULL << w->nr_files) - 1, off;

	for (;;) {
		d->done_files |= 1ULL << s->file;
		if ((d->done_files & all) == all)
			return UINT64_MAX;
		while (d->done_files & (1ULL << w->next_file))
			w->next_file = w->next_file + 1 == (unsigned int)w->nr_files ? 0 :
				       w->next_file + 1;
		s->file = (uint8_t)w->next_file;
		if (++w->next_file == (unsigned int)w->nr_files)
			w->next_file = 0;
		if (j->rw == BQ_RW_RANDRW || j->rw == BQ_RW_RW) {
			d->issued[*dir]--;
			*dir = bq_fiodraw_dir(d, j);
		}
		off = worker_varbs_offset(w, &w->files[s->file], *dir, len);
		if (off != UINT64_MAX)
			return off;
	}
}
