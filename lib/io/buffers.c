// SPDX-License-Identifier: GPL-2.0-only
/*
 * buffers.c - what a thread's writes carry, as fio's buffer options mean
 * it (HOWTO "Buffers and memory")
 *
 * With none of them set, fio fills each buffer with random bytes once
 * and then, before every write, stamps each 512-byte sector with its
 * offset and the time (scramble_buffers=1, its default), so that no two
 * writes are alike for a device that deduplicates.  refill_buffers fills
 * afresh instead.  buffer_compress_percentage=N makes each chunk of
 * buffer_compress_chunk bytes (100 - N)% random bytes followed by zeros
 * (or buffer_pattern); dedupe_percentage=N makes N% of the buffers a
 * repeat of another one, the last unique one or (working_set) one of the
 * first unique ones.  The random bytes are blkqual's own; the
 * proportions are fio's.
 *
 * Costs: the default adds three stores per sector of a write; only
 * refill_buffers (and compression or dedupe, which turn it on) fill
 * every write's whole buffer.
 */
#include <string.h>

#include "engine.h"

/* The seed of chunk @c of unique buffer @k of the stream @seed. */
static inline uint64_t chunk_seed(uint64_t seed, uint64_t k, uint32_t c)
{
	return bq_fmix64(seed ^ bq_fmix64(k * BQ_GOLDEN64 + c + 1));
}

/* @len random bytes from @seed: every word independent, so the loop pipelines. */
static void fill_random(uint8_t *buf, uint32_t len, uint64_t seed)
{
	uint32_t words = len / 8, i;
	uint64_t w;

	for (i = 0; i < words; i++) {
		w = bq_fmix64(seed + (uint64_t)i * BQ_GOLDEN64);
		memcpy(buf + 8 * (size_t)i, &w, 8);
	}
	if (len % 8) {
		w = bq_fmix64(seed + (uint64_t)i * BQ_GOLDEN64);
		memcpy(buf + 8 * (size_t)i, &w, len % 8);
	}
}

/* The pattern from the start of @buf, repeated to its end (zeros without one). */
static void fill_fixed(const struct bq_bufgen *g, uint8_t *buf, uint32_t len)
{
	uint32_t have;

	if (!g->pattern_len) {
		memset(buf, 0, len);
		return;
	}
	have = g->pattern_len < len ? g->pattern_len : len;
	memcpy(buf, g->pattern, have);
	/* Doubling copies: log2(len / pattern) memcpy calls. */
	while (have < len) {
		uint32_t n = have < len - have ? have : len - have;

		memcpy(buf + have, buf, n);
		have += n;
	}
}

/* One chunk: (100 - pct)% random bytes first, then the fixed fill. */
static void fill_chunk(const struct bq_bufgen *g, uint8_t *buf, uint32_t len, uint64_t seed)
{
	uint32_t rnd = (uint32_t)((uint64_t)len * (100 - g->pct) / 100);

	fill_random(buf, rnd, seed);
	if (rnd < len)
		fill_fixed(g, buf + rnd, len - rnd);
}

static inline uint64_t draw(struct bq_bufgen *g, uint64_t n)
{
	g->draw += BQ_GOLDEN64;
	return (uint64_t)(((unsigned __int128)bq_fmix64(g->draw) * n) >> 64);
}

/* The stream of thread @u of the run: a function of its job's seed and its number. */
static uint64_t stream_of(const struct bq_bufgen *g, int u)
{
	const struct bq_job *j = g->peers[u].job;

	return bq_fmix64((j->randrepeat ? j->randseed : g->salt) ^ bq_fmix64((uint64_t)u + 1));
}

/* A buffer: unique buffer @k of the stream @seed. */
struct pick {
	uint64_t seed;
	uint64_t k;
};

/*
 * Which buffer this one is.  A repeat takes the one the stream is at
 * without moving it on, so the next unique buffer is the same again, as
 * in fio; a working-set repeat takes one of the first ws_n unique
 * buffers, which with dedupe_global are spread over every thread of the
 * run, the first ws_n / threads of each, starting with this one's.
 */
static struct pick pick_buffer(struct bq_bufgen *g)
{
	struct pick p = { .seed = g->seed };
	uint64_t i, per;

	if (!g->dedupe_pct || g->dedupe_pct == 100 || draw(g, 100) >= g->dedupe_pct) {
		p.k = g->next++;
		return p;
	}
	if (!g->working_set) {
		p.k = g->next;
		return p;
	}
	i = draw(g, g->ws_n);
	if (!g->global || !g->peers) {
		p.k = i;
		return p;
	}
	per = g->ws_n / (uint64_t)g->nr_peers;
	if (!per)
		per = 1;
	p.seed = stream_of(g, (int)((g->self + i / per) % (uint64_t)g->nr_peers));
	p.k = i % per;
	return p;
}

/* The compressible or deduplicable fill: chunks of at most the smallest write. */
static void fill_mixed(struct bq_bufgen *g, uint8_t *buf, uint32_t len)
{
	struct pick p = pick_buffer(g);
	uint32_t c = 0;

	for (uint32_t at = 0; at < len; c++) {
		uint32_t n = len - at < g->min_write ? len - at : g->min_write;

		if (g->chunk && g->chunk < n)
			n = g->chunk;
		/* dedupe_percentage=100: every chunk of every buffer is the first one. */
		fill_chunk(g, buf + at, n, g->dedupe_pct == 100 ? chunk_seed(p.seed, 0, 0) :
			   chunk_seed(p.seed, p.k, c));
		at += n;
	}
}

static void fill(struct bq_bufgen *g, uint8_t *buf, uint32_t len)
{
	if (g->mixed)
		fill_mixed(g, buf, len);
	else if (g->pattern_len)
		fill_fixed(g, buf, len);
	else if (g->zero)
		memset(buf, 0, len);
	else
		fill_random(buf, len, chunk_seed(g->seed, g->next++, 0));
}

/*
 * Each sector gets its byte offset in one of its eight cache lines (the
 * same one for the whole write, chosen by time and offset) and the time
 * at the end of its first line: a handful of stores per sector.
 */
static void scramble(uint8_t *buf, uint32_t len, uint64_t off, uint64_t now)
{
	uint64_t sec = now / 1000000000ULL, nsec = now - sec * 1000000000ULL;
	uint8_t *p = buf, *end = buf + (len & ~511u);
	size_t line = (size_t)((now ^ off) & 7) * 64;

	for (; p < end; p += 512, off += 512) {
		memcpy(p + line, &off, 8);
		memcpy(p + 48, &sec, 8);
		memcpy(p + 56, &nsec, 8);
	}
}

static uint32_t smallest_write(const struct bq_job *j)
{
	uint32_t lo = j->bs_min[BQ_WRITE] && j->bs_min[BQ_WRITE] < j->bs[BQ_WRITE] ?
		      j->bs_min[BQ_WRITE] : j->bs[BQ_WRITE];

	for (int i = 0; i < j->nr_bssplit[BQ_WRITE]; i++)
		if (j->bssplit[BQ_WRITE][i].bs < lo)
			lo = j->bssplit[BQ_WRITE][i].bs;
	return lo ? lo : 512;
}

/**
 * bq_buf_prepare() - the thread's buffer contents, and its buffers filled
 * @w: the worker, its buffers just allocated
 *
 * fio's rules, applied where fio applies them once the job is parsed:
 * buffer_compress_percentage=100 means zero_buffers; any other
 * percentage turns refill_buffers on unless the job set it; scrambling
 * is on unless zero_buffers was set, and off with compression, dedupe or
 * verify (verify's own payload is written then, see verify_run.c).
 */
void bq_buf_prepare(struct bq_worker *w)
{
	const struct bq_job *j = w->job;
	struct bq_bufgen *g = &w->buf;
	bool writes = j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD;
	const struct bq_worker *peers = g->peers;
	int nr_peers = g->nr_peers, self = g->self;
	uint64_t salt = g->salt;
	bool scramble;

	memset(g, 0, sizeof(*g));
	g->peers = peers;
	g->nr_peers = nr_peers;
	g->self = self;
	g->salt = salt;
	g->pct = j->compress_pct == 100 ? 0 : j->compress_pct;
	g->zero = j->zero_buffers || j->compress_pct == 100;
	g->dedupe_pct = j->dedupe_pct;
	g->mixed = g->pct || g->dedupe_pct;
	g->refill = j->refill_buffers || (g->pct && !j->refill_buffers_set);
	scramble = j->scramble_buffers &&
		   (j->scramble_buffers_set || !(g->zero && j->zero_buffers_set));
	g->scramble = scramble && !j->compress_given && !j->verify;
	g->per_write = writes && !j->verify && (g->refill || g->scramble);
	g->chunk = j->compress_chunk;
	g->min_write = smallest_write(j);
	g->pattern = j->buffer_pattern;
	g->pattern_len = j->buffer_pattern_len;
	g->working_set = j->dedupe_mode == BQ_DEDUPE_WORKING_SET;
	g->global = j->dedupe_global;
	/* size=N% is known once the target is: the region's span, as fio resolves it. */
	g->ws_n = (j->size ? j->size : w->files[0].span) * j->dedupe_ws_pct / 100 / g->min_write;
	if (!g->ws_n)
		g->ws_n = 1;

	if (!writes || (!g->mixed && !g->pattern_len && !g->zero && !g->refill)) {
		/* Random bytes, drawn as blkqual always drew them. */
		uint64_t *p = (uint64_t *)(void *)w->bufs;

		for (size_t i = 0; i < w->buf_total / sizeof(*p); i++)
			p[i] = bq_rand_next(&w->rng);
		return;
	}
	g->seed = g->peers ? stream_of(g, g->self) : bq_rand_next(&w->rng);
	g->draw = bq_fmix64(g->seed ^ 0x3c6ef372fe94f82bULL);
	for (size_t off = 0; off + w->buf_len <= w->buf_total; off += w->buf_len)
		fill(g, w->bufs + off, (uint32_t)w->buf_len);
}

void bq_buf_write(struct bq_worker *w, const struct bq_slot *s, uint64_t now)
{
	uint8_t *buf = w->bufs + (size_t)(s - w->slots) * w->buf_len;

	if (w->buf.refill)
		fill(&w->buf, buf, s->len);
	else
		scramble(buf, s->len, s->offset, now);
}

void bq_buf_link(struct bq_worker *workers, int nr)
{
	uint64_t salt = bq_now_ns();

	for (int i = 0; i < nr; i++) {
		workers[i].buf.peers = workers;
		workers[i].buf.nr_peers = nr;
		workers[i].buf.self = i;
		workers[i].buf.salt = salt;
	}
}
