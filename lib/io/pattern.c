// SPDX-License-Identifier: GPL-2.0-only
/*
 * pattern.c - where the I/Os of a job with fio's pattern options go:
 * rw=...:N and rw_sequencer, percentage_random, bs_is_seq_rand,
 * zonemode=strided, random_distribution=zoned, zoned_abs and sequence
 *
 * Jobs without them never come here (worker_pick() keeps its short path).
 * The rules are fio's, step for step, because a job file's offsets are
 * its meaning: the sequential position is kept per direction and per
 * file, holes are added to it, a random offset is drawn every N I/Os and
 * the ones between continue (or repeat) it, and an offset past the region
 * ends the thread, as fio's "no more offsets" does, unless the job is
 * time based, which starts over.
 */
#include "engine.h"
#include "job/jobopt.h"
#include "run_int.h"
#include "zbd.h"

/* Where a backward job jumps to: the region's end, or the target's if nearer. */
static inline uint64_t region_end(const struct bq_file_state *f)
{
	return f->span < f->limit ? f->span : f->limit;
}

/* fio's sequential offset, from the current zone's start; false past the target. */
static bool seq_offset(struct bq_worker *w, struct bq_file_state *f, int dir, uint64_t *off)
{
	const struct bq_job *j = w->job;
	uint64_t pos;

	if (f->last_pos[dir] >= f->span && j->time_based && w->nr_files == 1)
		f->last_pos[dir] = f->zone_off;
	if (f->last_pos[dir] >= f->limit)
		return false;
	/* fio: a backward job away from the target's start begins at the region's end. */
	if (j->seq_add < 0 && f->last_pos[dir] == f->zone_off && f->base + f->zone_off)
		f->last_pos[dir] = region_end(f);
	pos = f->last_pos[dir] - f->zone_off;
	/*
	 * A hole follows every I/O but the first of the zone; the sum is
	 * unsigned, so going backward past the start wraps to a huge
	 * value, and both ends start over as fio does: forward at the
	 * start, backward at the end.
	 */
	if (pos && j->seq_add) {
		pos += (uint64_t)j->seq_add;
		if (pos >= f->limit)
			pos = j->seq_add > 0 ? 0 : region_end(f) + (uint64_t)j->seq_add;
	}
	*off = pos;
	return true;
}

/*
 * random_distribution=zoned and zoned_abs: a percentage (1..100, as fio
 * draws it) picks the zone, the block inside it is uniform.  fio counts
 * blocks of the smallest block size; so does @unit.
 */
static uint64_t zoned_block(struct bq_worker *w, struct bq_file_state *f, int dir)
{
	const struct bq_job *j = w->job;
	const struct bq_dist_zone *z = j->dist_zones[dir];
	uint64_t lastb = f->gen.nblocks, start = 0, prev = 0, len;
	unsigned int v, acc = 0;
	int i;

	/* Several block sizes: fio's zone and offset streams (fiorand.c), and its last block. */
	if (w->fio) {
		lastb = bq_fiodraw_lastb(j, dir, f->span, w->unit);
		v = 1 + (unsigned int)bq_frand_scale(&w->fio->zone, 100);
	} else {
		v = 1 + (unsigned int)bq_bounded(&f->gen, 100);
	}

	for (i = 0; i < j->nr_dist_zones[dir] - 1; i++) {
		if (v <= acc + z[i].pct)
			break;
		acc += z[i].pct;
		prev += z[i].size;
	}
	if (j->dist == BQ_DIST_ZONED_ABS) {
		start = prev / w->unit;
		len = (prev + z[i].size) / w->unit - start;
	} else {
		start = prev * lastb / 100;
		len = lastb * z[i].size / 100;
	}
	if (w->fio)
		return start + bq_frand_scale(&w->fio->off, len);
	return start + (len ? bq_bounded(&f->gen, len) : 0);
}

/*
 * random_distribution=sequence: the I/O's number in its direction picks
 * the entry; with random_sequence_stride each round of the list moves on
 * by its length.  fio counts every I/O of the direction, the sequential
 * ones of percentage_random too, and its blocks are of the smallest size
 * (placed at blockalign).  Past the region the job has no more offsets;
 * an entry of the list itself past it is fio's EINVAL.
 */
static uint64_t sequence_offset(struct bq_worker *w, struct bq_file_state *f, int dir)
{
	const struct bq_job *j = w->job;
	uint64_t n = w->seq_issued[dir], idx = n % j->nr_dist_seq;
	uint64_t b = j->dist_seq[idx], max = f->span / j->bs_min[dir];

	if (j->dist_seq_stride)
		b += n / j->nr_dist_seq * j->nr_dist_seq;
	if (b < max)
		return b * w->unit;
	if (j->dist_seq[idx] >= max && !w->stopping) {
		struct bq_slot bad = {
			.offset = f->base + j->dist_seq[idx] * w->unit, .len = j->bs_min[dir],
			.dir = (uint8_t)dir, .file = (uint8_t)w->next_file,
		};

		worker_record_error(w, &bad, EINVAL);
		w->stopping = true;
	}
	return UINT64_MAX;
}

/*
 * A random offset from the zone's start (the whole region without zones);
 * UINT64_MAX: no more offsets.
 */
static uint64_t rand_offset(struct bq_worker *w, struct bq_file_state *f, int dir,
			    uint32_t *len, bool *mapped)
{
	const struct bq_job *j = w->job;

	/* bs_is_seq_rand: before the map sees the length it will cut. */
	if (j->bs_is_seq_rand)
		*len = worker_pick_len(w, BQ_WRITE);
	if (j->dist == BQ_DIST_ZONED || j->dist == BQ_DIST_ZONED_ABS)
		return zoned_block(w, f, dir) * w->unit;
	if (j->dist == BQ_DIST_SEQUENCE)
		return sequence_offset(w, f, dir);
	/* The map's size is drawn after the offset, to fit, as fio does (bsmap.c). */
	if (f->map) {
		*mapped = true;
		/* fio's own draws: the I/O's direction places it, the random one sizes it. */
		return worker_map_pick(w, f, j->bs_is_seq_rand && !w->fio ? BQ_WRITE : dir, len);
	}
	if (w->fio && f->gen.dist == BQ_DIST_RANDOM)
		return worker_rand_offset(w, f, dir);
	return bq_offgen_next(&f->gen) * w->unit;
}

/* fio's zonemode=strided: after zonesize bytes, the next zone; the target's end wraps. */
static void strided_zone(struct bq_worker *w, struct bq_file_state *f, int dir)
{
	const struct bq_job *j = w->job;
	uint64_t range = j->zone_range ? j->zone_range : j->zone_size;

	if (w->zone_bytes >= j->zone_size) {
		w->zone_bytes = 0;
		f->zone_off += range + j->zone_skip;
		if (f->zone_off >= f->limit)
			f->zone_off = 0;
		f->last_pos[dir] = f->zone_off;
	}
	/* A zonesize over zonerange goes over the same zone again. */
	if (f->last_pos[dir] >= f->zone_off + range)
		f->last_pos[dir] = f->zone_off;
}

/**
 * worker_pattern_restart() - every file's offsets start over (a new round or loop)
 * @w: the worker
 */
void worker_pattern_restart(struct bq_worker *w)
{
	for (int i = 0; i < w->nr_files; i++) {
		struct bq_file_state *f = &w->files[i];

		f->zone_off = 0;
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			f->last_pos[d] = 0;
			f->last_start[d] = UINT64_MAX;
		}
	}
	w->zone_bytes = 0;
}

/* 0..99 for percentage_random: fio's own stream for a job with several block sizes. */
static uint64_t pct_draw(struct bq_worker *w, int dir)
{
	if (w->fio)
		return bq_frand_scale(&w->fio->seq_rand[dir], 100);
	return bq_bounded(&w->rng, 100);
}

/* The offset from the zone's start, or false: no more offsets. */
static bool next_offset(struct bq_worker *w, struct bq_file_state *f, int dir, uint64_t *off,
			bool *is_random, uint32_t *len, bool *mapped)
{
	const struct bq_job *j = w->job;
	bool hit = true;

	if (j->seq_nr > 1 && --w->seq_nr_left) {
		hit = false;
	} else {
		w->seq_nr_left = j->seq_nr;
	}
	*is_random = false;
	if (hit && !w->random)
		return seq_offset(w, f, dir, off);
	if (hit) {
		/* fio draws 1..100 and goes random at or below percentage_random. */
		if (!j->pct_seq[dir] || 1 + pct_draw(w, dir) <= 100 - (uint64_t)j->pct_seq[dir]) {
			*is_random = true;
			*off = rand_offset(w, f, dir, len, mapped);
			return true;
		}
		if (seq_offset(w, f, dir, off))
			return true;
		*off = rand_offset(w, f, dir, len, mapped);
		return true;
	}
	if (j->rw_seq_identical) {
		*off = f->last_start[dir] != UINT64_MAX ? f->last_start[dir] - f->zone_off : 0;
		return true;
	}
	if (seq_offset(w, f, dir, off))
		return true;
	*off = rand_offset(w, f, dir, len, mapped);
	return true;
}

/*
 * zonemode=zbd: the zone decides where the I/O really goes (a write to
 * its write pointer); false when no zone can take it, which ends the
 * job as fio's does, time based or not.
 */
static bool zbd_place(struct bq_worker *w, struct bq_file_state *f, int dir, uint64_t *at,
		      uint32_t *len)
{
	uint64_t off = f->base + *at;

	int ret = bq_zbd_adjust(w->zbd, dir, &off, len);

	w->res->zone_resets = w->zbd->resets;
	if (ret || !*len || off < f->base || off - f->base + *len > f->limit) {
		/* Not issued: its zone is free again for the threads sharing it. */
		if (!ret)
			bq_zbd_complete(w->zbd, off);
		w->zbd_done = true;
		return false;
	}
	*at = off - f->base;
	return true;
}

static bool pick_once(struct bq_worker *w, struct bq_slot *s, int dir)
{
	const struct bq_job *j = w->job;
	struct bq_file_state *f = &w->files[w->next_file];
	uint64_t off, at;
	bool is_random, mapped = false;
	uint32_t len;

	if (bq_job_strided(j))
		strided_zone(w, f, dir);
	if (w->zbd)
		bq_zbd_seq_jump(w->zbd, f->base, dir, &f->last_pos[dir]);
	/* bs_is_seq_rand: the read size is the sequential one, the write size the random. */
	len = worker_pick_len(w, j->bs_is_seq_rand ? BQ_READ : dir);
	if (!next_offset(w, f, dir, &off, &is_random, &len, &mapped))
		return false;
	if (off >= f->span)
		return false;
	at = f->zone_off + off;
	if (at >= f->limit)
		return false;
	/* Several sizes: one that fits from the offset, drawn after it as fio does. */
	if (w->varbs && !mapped) {
		int ld = j->bs_is_seq_rand ? (is_random ? BQ_WRITE : BQ_READ) : dir;
		uint32_t fit = worker_fit_len(w, ld, f->limit - at < f->span - off ?
						  f->limit - at : f->span - off);

		/* fio ends a sequential file there (worker_pattern_pick() may go round). */
		if (!fit && !is_random)
			return false;
		if (fit)
			len = fit;
	}
	if (len > f->limit - at) {
		/* A random block at the end slides back inside, as in worker_pick(). */
		if (!is_random || len > f->limit)
			return false;
		at = (f->limit - len) / w->unit * w->unit;
	}
	if (w->zbd && !zbd_place(w, f, dir, &at, &len))
		return false;
	s->file = (uint8_t)w->next_file;
	s->offset = f->base + at;
	f->last_start[dir] = at;
	f->last_pos[dir] = at + len;
	w->zone_bytes += len;
	if (!j->time_based) {
		if (len >= w->bytes_left) {
			/* fio issues a drawn size whole while it is short of the size. */
			if (!w->varbs)
				len = (uint32_t)w->bytes_left;
			w->bytes_left = 0;
		} else {
			w->bytes_left -= len;
		}
	}
	s->len = len;
	s->dir = (uint8_t)dir;
	w->seq_issued[dir]++;
	if (w->zbd)
		bq_zbd_issued(w->zbd, dir, s->offset, len);
	if (++w->next_file == (unsigned int)w->nr_files)
		w->next_file = 0;
	return true;
}

/**
 * worker_pattern_pick() - the next I/O of a job with pattern options
 * @w: the worker
 * @s: filled in (offset, length, direction, file)
 * @dir: the direction already drawn
 *
 * Return: false when the thread has no more offsets (fio's end of a
 * region with holes, or of a sequential run that reached its end).
 */
bool worker_pattern_pick(struct bq_worker *w, struct bq_slot *s, int dir)
{
	const struct bq_job *j = w->job;

	if (w->zbd)
		dir = bq_zbd_adjust_dir(w->zbd, dir);
	if (pick_once(w, s, dir))
		return true;
	if (w->zbd_done)
		return false;
	/*
	 * fio starts another round, its files reset, when the job is time
	 * based or io_size= asks for more than the round did; otherwise
	 * the holes or a run into the end made the job shorter.  A job
	 * that verifies ends its pass there instead (run_order.c).
	 */
	if (!j->time_based && (w->verify_passes || !(j->io_size && w->bytes_left >= j->bs_max[dir])))
		return false;
	worker_pattern_restart(w);
	return pick_once(w, s, dir);
}

/**
 * worker_pattern_wanted() - whether a job's threads pick through pattern.c
 * @j: the job
 *
 * Return: true for the pattern options, and for rw=rw, whose reads and
 * writes fio keeps in two sequential streams (verify has its own order).
 */
bool worker_pattern_wanted(const struct bq_job *j)
{
	return bq_job_has_pattern(j) || (j->rw == BQ_RW_RW && !j->verify) ||
	       j->zonemode == BQ_ZONEMODE_ZBD;
}

/**
 * worker_pattern_init() - a thread's pattern state before its first I/O
 * @w: the worker, its files set up
 */
void worker_pattern_init(struct bq_worker *w)
{
	worker_pattern_restart(w);
	/* fio's first I/O is already a new random offset. */
	w->seq_nr_left = 1;
}

/**
 * bq_pattern_base() - where thread @index of a job starts on its target
 * @j: the job
 * @target_size: bytes of the target
 * @index: the thread (fio's subjob number)
 * @min_bs: the job's smallest block size
 *
 * fio's offset_increment: each thread of numjobs starts that much further;
 * with a percentage of the target (offset_increment=N% or offset=N%),
 * the offset is rounded up to offset_align, or else to the smallest
 * block size, as fio rounds it.
 *
 * Return: the byte offset.
 */
uint64_t bq_pattern_base(const struct bq_job *j, uint64_t target_size, int index,
			 uint32_t min_bs)
{
	uint64_t inc = j->offset_increment, off, align;

	if (j->offset_increment_pct || j->offset_pct) {
		if (j->offset_increment_pct)
			inc = j->offset_increment_pct * target_size / 100;
		off = j->offset + (uint64_t)index * inc;
		align = j->offset_align ? j->offset_align : min_bs;
		return (off + align - 1) / align * align;
	}
	return j->offset + (uint64_t)index * inc;
}

/**
 * bq_pattern_check() - a job's pattern options fit its target
 * @j: the job
 * @ti: the target
 * @span: bytes of the region of the first thread
 * @min_bs: the job's smallest block size
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_pattern_check(const struct bq_job *j, const struct bq_target_info *ti, uint64_t span,
		     uint32_t min_bs, struct bq_parse_error *err)
{
	uint64_t last = bq_pattern_base(j, ti->size, (int)j->numjobs - 1, min_bs);
	uint64_t total = 0;

	if (last != j->offset && (last >= ti->size || ti->size - last < min_bs ||
				  (j->size && last + span > ti->size)))
		return bq_fail_at(err, ti->path, -EINVAL, "offset_increment: thread %u's region "
				  "(from %llu) ends past the target (%llu bytes)", j->numjobs - 1,
				  (unsigned long long)last, (unsigned long long)ti->size);
	for (unsigned int i = 1; j->direct && last != j->offset && i < j->numjobs; i++)
		if (bq_pattern_base(j, ti->size, (int)i, min_bs) % ti->lbs)
			return bq_fail_at(err, ti->path, -EINVAL, "offset_increment: thread %u "
					  "starts at %llu, not a multiple of %u for direct I/O", i,
					  (unsigned long long)bq_pattern_base(j, ti->size, (int)i,
									      min_bs),
					  ti->lbs);
	if (bq_job_strided(j)) {
		uint64_t range = j->zone_range ? j->zone_range : j->zone_size;

		if (range % min_bs || j->zone_skip % ti->lbs || range < min_bs)
			return bq_fail_at(err, ti->path, -EINVAL, "zonerange must be a multiple of "
					  "the block size %u and zoneskip of %u", min_bs, ti->lbs);
	}
	for (int d = 0; j->dist == BQ_DIST_ZONED_ABS && d < BQ_NR_DIRS; d++) {
		total = 0;
		for (int i = 0; i < j->nr_dist_zones[d]; i++)
			total += j->dist_zones[d][i].size;
		if (total > span)
			return bq_fail_at(err, ti->path, -EINVAL, "zoned_abs zones add up to %llu "
					  "bytes, more than the region's %llu",
					  (unsigned long long)total, (unsigned long long)span);
	}
	return 0;
}
