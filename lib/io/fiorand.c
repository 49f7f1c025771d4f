// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiorand.c - fio 3.33's random streams and the draws of a job with
 * several block sizes, step for step
 *
 * fio gives every thread a stream per purpose, each seeded from one
 * array that its randseed and the thread's number fill: the block sizes
 * (one stream per direction), the read/write mix, the offsets, the
 * zones.  A job with bssplit or bsrange does as many I/Os as it takes
 * for their sizes to add up to its size, and with the random map an
 * I/O is cut short where it meets a block already done, so its count is
 * fio's only when every one of these draws is.  Nothing here runs for a
 * job of one block size.
 */
#include "engine.h"
#include "fiorand.h"

/* fio's fixed seed of a repeatable job's offsets, times its thread number */
#define FIO_OFFSET_SEED		0xb1899bedULL
/* the multiplier between the seeds of one thread's streams */
#define FIO_SEED_STEP		0x9e370001ULL

/* Where each stream's seed sits in fio's array (its FIO_RAND_*_OFF order). */
enum {
	SEED_BS_READ = 0,
	SEED_BS_WRITE = 1,
	SEED_MIX = 4,
	SEED_OFFSET = 6,
	SEED_SEQ_RAND = 10,
	SEED_ZONE = 16,
	NR_SEEDS = 21,
};

/* fio raises a seed word that is too small for its stream's width. */
static uint64_t seed_floor(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

/**
 * bq_frand_seed() - seed one stream as fio's init_rand_seed() does
 * @r: the stream
 * @seed: the seed; the 32-bit stream takes its low 32 bits
 * @use64: the 64-bit stream
 *
 * An LCG spreads the seed over the words, each kept above the floor the
 * generator needs, and six steps mix them.
 */
void bq_frand_seed(struct bq_frand *r, uint64_t seed, bool use64)
{
	/* fio's start value, written there as (2^31) + (2^17) + (2^7): xors, so 53 */
	const uint64_t start = 53;
	static const uint64_t floor64[5] = { 1, 7, 15, 33, 49 };

	r->use64 = use64;
	if (!use64) {
		uint32_t s32 = (uint32_t)seed, x = (uint32_t)start;
		static const uint32_t floor32[3] = { 1, 7, 15 };

		for (int i = 0; i < 3; i++) {
			x = (uint32_t)seed_floor((uint32_t)(x * 69069U ^ s32), floor32[i]);
			r->s[i] = x;
		}
		r->s[3] = r->s[4] = 0;
	} else {
		uint64_t x = start;

		for (int i = 0; i < 5; i++) {
			x = seed_floor(x * 6906969069ULL ^ seed, floor64[i]);
			r->s[i] = x;
		}
	}
	for (int i = 0; i < 6; i++)
		bq_frand_next(r);
}

static void seed_all(struct bq_fiodraw *d, const struct bq_job *j);

/* fio's order of a bssplit: by share, smallest first; equal shares stay as written. */
static void sort_split(struct bq_bssplit *dst, const struct bq_bssplit *src, int nr)
{
	for (int i = 0; i < nr; i++) {
		int k = i;

		while (k > 0 && dst[k - 1].pct > src[i].pct) {
			dst[k] = dst[k - 1];
			k--;
		}
		dst[k] = src[i];
	}
}

/**
 * bq_fiodraw_init() - a thread's streams, seeded as fio seeds them
 * @d: the streams
 * @j: the job
 * @thread_number: fio's number of the thread, from 1, over the whole run
 * @entropy: seeds of a job that is not repeatable (randrepeat=0)
 *
 * A repeatable job's seeds come from randseed (fio's default 0x89) and
 * the thread number; its offsets from a fixed seed and the thread number
 * alone; with allrandrepeat every stream from that fixed seed.
 */
void bq_fiodraw_init(struct bq_fiodraw *d, const struct bq_job *j, int thread_number,
		     uint64_t entropy)
{
	d->thread_number = thread_number;
	d->entropy = entropy;
	d->issued[BQ_READ] = d->issued[BQ_WRITE] = 0;
	d->mix_dir = BQ_READ;
	d->mix_until = 0;
	d->done_files = 0;
	for (int dir = 0; dir < BQ_NR_DIRS; dir++)
		sort_split(d->split[dir], j->bssplit[dir], j->nr_bssplit[dir]);
	seed_all(d, j);
}

/**
 * bq_fiodraw_new_pass() - a new pass over the region (io_size, loops)
 * @d: the streams
 * @j: the job
 *
 * fio seeds a repeatable job's streams again, so that each pass repeats
 * the first, draws the mix anew and takes up the files it set aside; the
 * I/Os issued stay counted.
 */
void bq_fiodraw_new_pass(struct bq_fiodraw *d, const struct bq_job *j)
{
	d->mix_until = 0;
	d->done_files = 0;
	if (j->randrepeat)
		seed_all(d, j);
}

/* Every stream from fio's seed array (its setup_random_seeds(), td_fill_rand_seeds()). */
static void seed_all(struct bq_fiodraw *d, const struct bq_job *j)
{
	uint64_t tn = (uint64_t)d->thread_number, entropy = d->entropy;
	bool use64 = j->random_generator == BQ_RANDGEN_TAUSWORTHE64;
	uint64_t seeds[NR_SEEDS], seed = j->randseed;

	for (int i = 0; i < 4; i++)
		seed *= FIO_SEED_STEP;
	for (int i = 0; i < NR_SEEDS; i++) {
		if (j->allrandrepeat)
			seeds[i] = FIO_OFFSET_SEED * tn + (uint64_t)i;
		else if (j->randrepeat)
			seeds[i] = seed * tn + (uint64_t)i;
		else
			seeds[i] = bq_mix64(entropy + (uint64_t)i);
		seed *= FIO_SEED_STEP;
	}
	/* A verified job's writes draw what its reads will. */
	if (j->verify)
		seeds[SEED_BS_WRITE] = seeds[SEED_BS_READ];
	if (j->randrepeat)
		seeds[SEED_OFFSET] = FIO_OFFSET_SEED * tn;
	bq_frand_seed(&d->bs[BQ_READ], seeds[SEED_BS_READ], use64);
	bq_frand_seed(&d->bs[BQ_WRITE], seeds[SEED_BS_WRITE], use64);
	bq_frand_seed(&d->mix, seeds[SEED_MIX], false);
	bq_frand_seed(&d->off, seeds[SEED_OFFSET], use64);
	bq_frand_seed(&d->zone, seeds[SEED_ZONE], false);
	/* fio seeds both directions' from the same (read's) seed */
	for (int dir = 0; dir < BQ_NR_DIRS; dir++)
		bq_frand_seed(&d->seq_rand[dir], seeds[SEED_SEQ_RAND], false);
}

/**
 * bq_fiodraw_dir() - the direction of a mixed job's next I/O, as fio picks it
 * @d: the streams
 * @j: the job (rw=rw or randrw)
 *
 * fio does not draw per I/O: a draw (1..100, read at or below rwmixread)
 * holds until the direction has issued a number of I/Os, which a change
 * of direction sets from the other direction's count.  The I/O is
 * counted as issued here.
 *
 * Return: BQ_READ or BQ_WRITE.
 */
int bq_fiodraw_dir(struct bq_fiodraw *d, const struct bq_job *j)
{
	if (d->issued[d->mix_dir] >= d->mix_until) {
		uint64_t v = 1 + bq_frand_scale(&d->mix, 100);
		int dir = v <= j->rwmixread ? BQ_READ : BQ_WRITE;

		if (dir != d->mix_dir) {
			unsigned int share = dir == BQ_READ ? j->rwmixread : 100 - j->rwmixread;

			d->mix_until = d->issued[d->mix_dir] * share / 100;
		}
		d->mix_dir = dir;
	}
	d->issued[d->mix_dir]++;
	return d->mix_dir;
}

/**
 * bq_fiodraw_len() - fio's block size for an I/O at a known offset
 * @d: the streams
 * @j: the job
 * @dir: the direction whose sizes apply
 * @room: bytes from the offset to the end of the region
 *
 * A bssplit draw takes the first entry, in fio's order, whose running
 * share covers it and that fits; a bsrange draw is the smallest size
 * plus a uniform part of the largest.  Either is rounded down to a
 * multiple of the smallest and capped at the largest, and drawn again
 * while it does not fit.
 *
 * Return: the size, or 0 when not even the smallest fits.
 */
uint32_t bq_fiodraw_len(struct bq_fiodraw *d, const struct bq_job *j, int dir, uint64_t room)
{
	uint64_t lo = j->bs_min[dir], hi = j->bs_max[dir], len = 0, max;
	struct bq_frand *r = &d->bs[dir];
	int nr = j->nr_bssplit[dir], tries = 0;

	if (!nr && lo == hi)
		return j->bs[dir];
	if (lo > room)
		return 0;
	max = bq_frand_max(r);
	do {
		if (nr) {
			/* fio's v / share <= max / 100, without a division per entry */
			unsigned __int128 v = bq_frand_next(r), step = max / 100 + 1;
			uint64_t acc = 0;

			for (int i = 0; i < nr; i++) {
				const struct bq_bssplit *e = &d->split[dir][i];

				if (!e->pct)
					continue;
				len = e->bs;
				acc += e->pct;
				if (v < step * acc && len <= room)
					break;
			}
		} else {
			len = lo + (uint64_t)((double)hi * ((double)bq_frand_next(r) /
							    ((double)max + 1.0)));
		}
		len -= len % lo;
		if (len > hi)
			len = hi;
		/* Only the smallest fits but it has no share: fio would spin. */
		if (++tries == 1000 && len > room)
			return (uint32_t)lo;
	} while (len > room);
	return (uint32_t)len;
}

/**
 * bq_fiodraw_lastb() - fio's number of blocks a random offset is drawn over
 * @j: the job
 * @dir: the I/O's direction
 * @span: bytes of the region
 * @unit: the offsets' alignment (blockalign, or the smallest size)
 *
 * When the smallest size is over the alignment, the last blocks leave it
 * room.  Return: the count, 0 when not one fits.
 */
uint64_t bq_fiodraw_lastb(const struct bq_job *j, int dir, uint64_t span, uint32_t unit)
{
	uint32_t lo = j->bs_min[dir];

	if (lo > unit) {
		if (span < lo - unit)
			return 0;
		span -= lo - unit;
	}
	return span / unit;
}
