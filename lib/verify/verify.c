// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify.c - the verified block: its header, its payload, and how a block
 * read back is judged (ok, misdirected, stale, torn, corrupted, never
 * written)
 *
 * The payload is a function of (seed, offset, generation) only.  Writing
 * costs one pass to generate it and one to checksum it; reading costs the
 * checksum.  Only a block that fails is looked at closely: each 512-byte
 * sector is compared with the images of the generations it could hold,
 * which is what tells a torn write (every sector is somebody's) from
 * corruption (some sector is nobody's).
 */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_verify.h"
#include "internal.h"
#include "verify_int.h"

static const char *const class_names[BQ_VCLASS_NR] = {
	[BQ_VCLASS_OK] = "ok",
	[BQ_VCLASS_MISDIRECTED] = "misdirected",
	[BQ_VCLASS_STALE] = "stale",
	[BQ_VCLASS_TORN] = "torn",
	[BQ_VCLASS_CORRUPTED] = "corrupted",
	[BQ_VCLASS_NEVER_WRITTEN] = "never_written",
	[BQ_VCLASS_READ_ERROR] = "read_error",
};

const char *bq_verify_class_name(enum bq_verify_class c)
{
	return (unsigned int)c < BQ_VCLASS_NR ? class_names[c] : "?";
}

static const char *const method_names[BQ_VERIFY_NR] = {
	[BQ_VERIFY_NONE] = "none",
	[BQ_VERIFY_CRC32C] = "crc32c",
	[BQ_VERIFY_XXHASH] = "xxhash",
	[BQ_VERIFY_PATTERN] = "pattern",
	[BQ_VERIFY_MD5] = "md5",
	[BQ_VERIFY_SHA1] = "sha1",
	[BQ_VERIFY_SHA224] = "sha224",
	[BQ_VERIFY_SHA256] = "sha256",
	[BQ_VERIFY_SHA384] = "sha384",
	[BQ_VERIFY_SHA512] = "sha512",
	[BQ_VERIFY_SHA3_224] = "sha3-224",
	[BQ_VERIFY_SHA3_256] = "sha3-256",
	[BQ_VERIFY_SHA3_384] = "sha3-384",
	[BQ_VERIFY_SHA3_512] = "sha3-512",
	[BQ_VERIFY_CRC64] = "crc64",
	[BQ_VERIFY_CRC32] = "crc32",
	[BQ_VERIFY_CRC16] = "crc16",
	[BQ_VERIFY_CRC7] = "crc7",
	[BQ_VERIFY_META] = "meta",
	[BQ_VERIFY_NULL] = "null",
};

const char *bq_verify_method_name(enum bq_verify_method m)
{
	return (unsigned int)m < BQ_VERIFY_NR ? method_names[m] : "?";
}

int bq_verify_method_parse(const char *name)
{
	if (!strcmp(name, "0"))
		return BQ_VERIFY_NONE;
	/* fio's two names for one CRC: the instruction is used where there is one. */
	if (!strcmp(name, "crc32c-intel"))
		return BQ_VERIFY_CRC32C;
	for (int m = BQ_VERIFY_NONE + 1; m < BQ_VERIFY_NR; m++)
		if (!strcmp(name, method_names[m]))
			return m;
	return -EINVAL;
}

static uint32_t smallest_bs(const struct bq_job *j, int d)
{
	uint32_t lo = j->bs_min[d] && j->bs_min[d] < j->bs[d] ? j->bs_min[d] : j->bs[d];

	for (int i = 0; i < j->nr_bssplit[d]; i++)
		if (j->bssplit[d][i].bs < lo)
			lo = j->bssplit[d][i].bs;
	return lo;
}

uint32_t bq_job_verify_block(const struct bq_job *j)
{
	bool writes = j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD;

	if (j->verify_interval)
		return j->verify_interval;
	/* bs_is_seq_rand: a write takes the sequential or the random size. */
	if (j->bs_is_seq_rand && writes) {
		uint32_t seq = smallest_bs(j, BQ_READ), rnd = smallest_bs(j, BQ_WRITE);

		return seq < rnd ? seq : rnd;
	}
	return smallest_bs(j, writes ? BQ_WRITE : BQ_READ);
}

/* ---- header --------------------------------------------------------------- */

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

void bq_vhdr_encode(void *buf, const struct bq_vhdr *h)
{
	uint8_t *p = buf;

	put64(p, h->checksum);
	put32(p + 8, h->magic);
	p[12] = h->version;
	p[13] = h->method;
	p[14] = (uint8_t)h->header_size;
	p[15] = (uint8_t)(h->header_size >> 8);
	put32(p + 16, h->length);
	put32(p + 20, h->thread);
	put64(p + 24, h->offset);
	put64(p + 32, h->generation);
	put64(p + 40, h->seed);
	put64(p + 48, h->timestamp_ns);
	put64(p + 56, 0);
}

bool bq_vhdr_decode(const void *buf, struct bq_vhdr *h)
{
	const uint8_t *p = buf;

	h->checksum = get64(p);
	h->magic = get32(p + 8);
	h->version = p[12];
	h->method = p[13];
	h->header_size = (uint16_t)(p[14] | p[15] << 8);
	h->length = get32(p + 16);
	h->thread = get32(p + 20);
	h->offset = get64(p + 24);
	h->generation = get64(p + 32);
	h->seed = get64(p + 40);
	h->timestamp_ns = get64(p + 48);
	return h->magic == BQ_VHDR_MAGIC && h->version == BQ_VHDR_VERSION &&
	       h->header_size == BQ_VHDR_SIZE;
}

/* ---- payload --------------------------------------------------------------- */

static uint64_t payload_key(uint64_t seed, uint64_t offset, uint64_t gen)
{
	return bq_fmix64(seed ^ bq_fmix64(offset ^ bq_fmix64(gen ^ 0x6a09e667f3bcc909ULL)));
}

/*
 * Word i of a block: independent of the others, so the loop pipelines,
 * and every generation's image differs from every other's in every word.
 */
static inline uint64_t payload_word(uint64_t key, uint64_t i)
{
	uint64_t a = key + i * 0x9e3779b97f4a7c15ULL;

	return htole64((a ^ (a >> 29)) * 0xbf58476d1ce4e5b9ULL);
}

static void payload_fill(uint8_t *buf, uint32_t from, uint32_t to, uint64_t key)
{
	uint64_t *w = (uint64_t *)(void *)buf;

	for (uint32_t i = from / 8; i < to / 8; i++)
		w[i] = payload_word(key, i);
}

int bq_vparams_init(struct bq_vparams *p, enum bq_verify_method method, uint32_t block_size,
		    const uint8_t *pattern, uint32_t pattern_len)
{
	static const uint8_t deadbeef[] = { 0xde, 0xad, 0xbe, 0xef };

	memset(p, 0, sizeof(*p));
	if (method == BQ_VERIFY_NONE || (unsigned int)method >= BQ_VERIFY_NR ||
	    block_size < BQ_VERIFY_SECTOR || block_size % BQ_VERIFY_SECTOR ||
	    pattern_len > BQ_VERIFY_MAX_PATTERN)
		return -EINVAL;
	p->method = method;
	p->block_size = block_size;
	p->hdr_len = BQ_VHDR_SIZE;
	if (bq_digest_method(method)) {
		p->digest_len = bq_digest_len(method);
		if (!p->digest_len)
			return -EOPNOTSUPP;
		p->hdr_len = bq_vmethod_hdr_len(method);
	}
	/* verify=meta with verify_pattern: fio fills and checks the payload with it too. */
	if (method != BQ_VERIFY_PATTERN && (method != BQ_VERIFY_META || !pattern_len))
		return 0;
	if (!pattern || !pattern_len) {
		pattern = deadbeef;
		pattern_len = sizeof(deadbeef);
	}
	memcpy(p->pattern, pattern, pattern_len);
	p->pattern_len = pattern_len;
	p->tmpl = malloc(block_size);
	if (!p->tmpl)
		return -ENOMEM;
	for (uint32_t i = 0; i < block_size; i++)
		p->tmpl[i] = pattern[i % pattern_len];
	return 0;
}

void bq_vparams_free(struct bq_vparams *p)
{
	free(p->tmpl);
	p->tmpl = NULL;
}

uint32_t bq_vmethod_hdr_len(enum bq_verify_method method)
{
	return BQ_VHDR_SIZE + ((bq_digest_len(method) + 7) & ~7u);
}

int bq_verify_digest(const void *buf, uint32_t len, enum bq_verify_method method,
		     uint8_t *out)
{
	const uint8_t *p = buf;
	uint32_t hl = bq_vmethod_hdr_len(method);

	if (len < hl)
		return -EINVAL;
	return bq_digest(method, p + 8, BQ_VHDR_SIZE - 8, p + hl, len - hl, out);
}

uint64_t bq_verify_sum(const void *buf, uint32_t len, enum bq_verify_method method)
{
	const uint8_t *p = buf;
	uint8_t d[BQ_DIGEST_MAX];

	switch (method) {
	case BQ_VERIFY_CRC32C:
		return bq_crc32c(0, p + 8, len - 8);
	case BQ_VERIFY_XXHASH:
		return bq_xxh64(p + 8, len - 8, 0);
	case BQ_VERIFY_CRC64:
		return bq_crc64(0, p + 8, len - 8);
	case BQ_VERIFY_CRC32:
		return bq_crc32(0, p + 8, len - 8);
	case BQ_VERIFY_CRC16:
		return bq_crc16(0, p + 8, len - 8);
	case BQ_VERIFY_CRC7:
		return bq_crc7(0, p + 8, len - 8);
	case BQ_VERIFY_PATTERN:
	case BQ_VERIFY_META:
		/* The payload is compared byte for byte (or not at all); this covers the header. */
		return bq_crc32c(0, p + 8, BQ_VHDR_SIZE - 8);
	case BQ_VERIFY_MD5:
	case BQ_VERIFY_SHA1:
	case BQ_VERIFY_SHA224:
	case BQ_VERIFY_SHA256:
	case BQ_VERIFY_SHA384:
	case BQ_VERIFY_SHA512:
	case BQ_VERIFY_SHA3_224:
	case BQ_VERIFY_SHA3_256:
	case BQ_VERIFY_SHA3_384:
	case BQ_VERIFY_SHA3_512:
		if (bq_verify_digest(buf, len, method, d))
			return 0;
		return get64(d);
	case BQ_VERIFY_NONE:
	case BQ_VERIFY_NULL:
	case BQ_VERIFY_NR:
		break;
	}
	return 0;
}

void bq_verify_fill(void *buf, const struct bq_vparams *p, uint64_t offset, uint64_t gen,
		    uint64_t seed, uint64_t timestamp_ns, uint32_t thread)
{
	struct bq_vhdr h = {
		.magic = BQ_VHDR_MAGIC, .version = BQ_VHDR_VERSION, .method = (uint8_t)p->method,
		.header_size = BQ_VHDR_SIZE, .length = p->block_size, .thread = thread,
		.offset = offset, .generation = gen, .seed = seed, .timestamp_ns = timestamp_ns,
	};
	uint8_t *b = buf;

	if (p->tmpl)
		memcpy(b + BQ_VHDR_SIZE, p->tmpl + BQ_VHDR_SIZE, p->block_size - BQ_VHDR_SIZE);
	else
		payload_fill(b, p->hdr_len, p->block_size, payload_key(seed, offset, gen));
	bq_vhdr_encode(b, &h);
	if (p->digest_len) {
		uint8_t d[BQ_DIGEST_MAX];

		/* The room after the digest is zero, so the block is a function of its inputs. */
		memset(b + BQ_VHDR_SIZE, 0, p->hdr_len - BQ_VHDR_SIZE);
		if (bq_verify_digest(b, p->block_size, p->method, d))
			memset(d, 0, sizeof(d));
		memcpy(b + BQ_VHDR_SIZE, d, p->digest_len);
		put64(b, get64(d));
		return;
	}
	put64(b, bq_verify_sum(b, p->block_size, p->method));
}

/* ---- verify_pattern= -------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool at_hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Hex digits in the order written; an odd count makes the first byte one digit. */
static const char *parse_hex(const char *s, uint8_t *out, size_t max, size_t *n)
{
	const char *d = s + 2, *e = d;
	size_t digits;

	while (hexval(*e) >= 0)
		e++;
	/* "0xff0x14": the last '0' starts the next number. */
	if ((*e == 'x' || *e == 'X') && e > d && e[-1] == '0')
		e--;
	digits = (size_t)(e - d);
	if (!digits)
		return NULL;
	if (*n + (digits + 1) / 2 > max)
		return (const char *)-1;
	if (digits & 1)
		out[(*n)++] = (uint8_t)hexval(*d++);
	for (; d < e; d += 2)
		out[(*n)++] = (uint8_t)(hexval(d[0]) << 4 | hexval(d[1]));
	return e;
}

/* A decimal int as its little-endian bytes, as many as it needs (0 is one byte). */
static const char *parse_dec(const char *s, uint8_t *out, size_t max, size_t *n)
{
	const char *p = s;
	long long v = 0;
	bool neg = false;
	uint32_t u;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9')
		return NULL;
	/* Stop where a hex number starts: "-100xab" is -10 and 0xab. */
	while (*p >= '0' && *p <= '9' && !at_hex_prefix(p)) {
		v = v * 10 + (*p++ - '0');
		if (v > (long long)INT_MAX + 1)
			return NULL;
	}
	if (p == s || (p == s + 1 && (*s == '-' || *s == '+')))
		return NULL;
	v = neg ? -v : v;
	if (v > INT_MAX || v < INT_MIN)
		return NULL;
	u = (uint32_t)(int32_t)v;
	do {
		if (*n == max)
			return (const char *)-1;
		out[(*n)++] = (uint8_t)u;
		u >>= 8;
	} while (u);
	return p;
}

int bq_verify_parse_pattern(const char *s, uint8_t *out, size_t max, size_t *len)
{
	size_t n = 0;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		const char *next;

		if (*s == '%' || *s == '\'')
			return -EOPNOTSUPP;
		if (*s == '"') {
			const char *end = strchr(s + 1, '"');

			if (!end || end == s + 1)
				return -EINVAL;
			if (n + (size_t)(end - s - 1) > max)
				return -E2BIG;
			memcpy(out + n, s + 1, (size_t)(end - s - 1));
			n += (size_t)(end - s - 1);
			next = end + 1;
		} else if (at_hex_prefix(s)) {
			next = parse_hex(s, out, max, &n);
		} else {
			next = parse_dec(s, out, max, &n);
		}
		if (next == (const char *)-1)
			return -E2BIG;
		if (!next)
			return -EINVAL;
		s = next;
	}
	*len = n;
	return 0;
}

/* ---- judging ---------------------------------------------------------------- */

static bool uniform(const uint8_t *p, size_t len)
{
	return len && p[0] == p[len - 1] && !memcmp(p, p + 1, len - 1);
}

static bool sector_is_image(const uint8_t *buf, const struct bq_vparams *p, uint32_t sector,
			    uint64_t key)
{
	const uint64_t *w = (const uint64_t *)(const void *)buf;
	uint32_t first = sector * (BQ_VERIFY_SECTOR / 8), last = first + BQ_VERIFY_SECTOR / 8;

	if (!sector)
		first = p->hdr_len / 8;
	for (uint32_t i = first; i < last; i++)
		if (w[i] != payload_word(key, i))
			return false;
	return true;
}

static bool sector_is_pattern(const uint8_t *buf, uint32_t sector, const struct bq_vparams *p)
{
	uint32_t from = sector * BQ_VERIFY_SECTOR, to = from + BQ_VERIFY_SECTOR;

	if (!sector)
		from = BQ_VHDR_SIZE;
	return !memcmp(buf + from, p->tmpl + from, to - from);
}

/* First byte of the payload that differs from the image, or -1. */
static int64_t first_diff(const uint8_t *buf, const struct bq_vparams *p, uint64_t key)
{
	uint8_t img[8];

	for (uint32_t i = p->hdr_len; i < p->block_size; i += 8) {
		if (p->tmpl) {
			memcpy(img, p->tmpl + i, 8);
		} else {
			uint64_t w = payload_word(key, i / 8);

			memcpy(img, &w, 8);
		}
		for (int k = 0; k < 8; k++)
			if (buf[i + k] != img[k])
				return i + k;
	}
	return -1;
}

#define MAX_CANDS 6
#define SRC_UNIFORM (1u << MAX_CANDS)	/* a sector of a never-written block */

struct cands {
	uint64_t gen[MAX_CANDS];
	int n;
};

static void cand_add(struct cands *c, uint64_t gen)
{
	if (!gen || c->n == MAX_CANDS)
		return;
	for (int i = 0; i < c->n; i++)
		if (c->gen[i] == gen)
			return;
	c->gen[c->n++] = gen;
}

/*
 * The checksum failed (or there is no header): which generation's data,
 * if anyone's, is in each sector?
 */
static enum bq_verify_class analyse(const uint8_t *buf, const struct bq_vparams *p,
				    const struct bq_vexpect *e, bool hdr,
				    const struct bq_vhdr *h, struct bq_vbad *bad)
{
	uint32_t nsec = p->block_size / BQ_VERIFY_SECTOR, all = ~0u, other = 0;
	bool hdr_here = hdr && h->offset == e->offset && (!e->have_seed || h->seed == e->seed);
	uint64_t seed = e->have_seed ? e->seed : h->seed;
	uint64_t newest = e->have_gen ? e->gen_hi : hdr_here ? h->generation : 0;
	uint64_t key[MAX_CANDS];
	struct cands c = { .n = 0 };
	bool pattern = p->tmpl != NULL;

	if (!e->have_seed && !hdr)
		return BQ_VCLASS_NEVER_WRITTEN;
	if (!hdr && uniform(buf, p->block_size))
		return BQ_VCLASS_NEVER_WRITTEN;
	/* The pattern is the same in every generation: one image. */
	cand_add(&c, newest ? newest : 1);
	if (e->have_gen && !pattern) {
		cand_add(&c, e->gen_lo);
		cand_add(&c, e->gen_hi - 1);
		if (e->gen_lo)
			cand_add(&c, e->gen_lo - 1);
	}
	if (hdr_here && !pattern) {
		cand_add(&c, h->generation);
		cand_add(&c, h->generation - 1);
		if (!e->have_gen)
			cand_add(&c, h->generation + 1);
	}
	for (int i = 0; i < c.n; i++)
		key[i] = payload_key(seed, e->offset, c.gen[i]);
	bad->first_diff = newest || pattern ? first_diff(buf, p, key[0]) : -1;
	for (uint32_t s = 0; s < nsec; s++) {
		const uint8_t *sec = buf + (size_t)s * BQ_VERIFY_SECTOR;
		uint32_t mask = 0;

		for (int i = 0; i < c.n; i++) {
			bool match = pattern ? sector_is_pattern(buf, s, p) :
				     sector_is_image(buf, p, s, key[i]);

			/* Sector 0 is a generation's only with that generation's header. */
			if (match && (s || (hdr_here && (pattern || h->generation == c.gen[i]))))
				mask |= 1u << i;
		}
		/* Before a block's first write it held anything: a blank sector is that. */
		if (!mask && newest == 1 && uniform(sec, BQ_VERIFY_SECTOR))
			mask = SRC_UNIFORM;
		if (!mask)
			other++;
		else if (mask & 1u)
			bad->sectors_new++;
		else
			bad->sectors_old++;
		all &= mask;
	}
	if (other || pattern)
		return BQ_VCLASS_CORRUPTED;
	/* Every sector one generation's: only the header or checksum bytes are damaged. */
	if (all)
		return BQ_VCLASS_CORRUPTED;
	return BQ_VCLASS_TORN;
}

enum bq_verify_class bq_verify_block(const void *buf, const struct bq_vparams *p,
				     const struct bq_vexpect *e, struct bq_vbad *bad,
				     unsigned int *flags)
{
	uint32_t bs = p->block_size;
	struct bq_vbad scratch;
	enum bq_verify_class cls;
	unsigned int fl = 0;
	bool hdr, fits, intact = false;
	struct bq_vhdr h;
	uint64_t sum = 0;

	/* fio's null method pretends: the block is read, nothing is looked at. */
	if (p->method == BQ_VERIFY_NULL) {
		if (flags)
			*flags = 0;
		return BQ_VCLASS_OK;
	}
	hdr = bq_vhdr_decode(buf, &h);
	fits = hdr && h.method == p->method && h.length == bs;
	if (fits && p->digest_len) {
		uint8_t d[BQ_DIGEST_MAX];

		if (!bq_verify_digest(buf, bs, p->method, d)) {
			sum = get64(d);
			intact = sum == h.checksum &&
				 !memcmp((const uint8_t *)buf + BQ_VHDR_SIZE, d, p->digest_len);
		}
	} else if (fits) {
		sum = bq_verify_sum(buf, bs, p->method);
		intact = sum == h.checksum;
		if (intact && p->tmpl)
			intact = !memcmp((const uint8_t *)buf + BQ_VHDR_SIZE,
					 p->tmpl + BQ_VHDR_SIZE, bs - BQ_VHDR_SIZE);
	}
	if (!bad)
		bad = &scratch;
	memset(bad, 0, sizeof(*bad));
	bad->first_diff = -1;
	if (intact) {
		if (h.offset != e->offset) {
			cls = BQ_VCLASS_MISDIRECTED;
		} else if (e->have_seed && h.seed != e->seed) {
			cls = BQ_VCLASS_STALE;
		} else if (e->have_gen && h.generation < e->gen_lo) {
			cls = BQ_VCLASS_STALE;
		} else {
			if (e->have_gen && h.generation > e->gen_hi)
				fl |= BQ_VFLAG_AHEAD;
			else if (e->have_gen && h.generation < e->gen_hi)
				fl |= BQ_VFLAG_IN_FLIGHT;
			cls = BQ_VCLASS_OK;
		}
	} else {
		cls = analyse(buf, p, e, hdr, &h, bad);
	}
	/*
	 * The block's first write was in flight: it may still hold whatever
	 * was there before, which is nobody's business.
	 */
	if (cls != BQ_VCLASS_OK && e->have_gen && !e->gen_lo) {
		fl |= BQ_VFLAG_IN_FLIGHT;
		cls = BQ_VCLASS_OK;
	}
	if (flags)
		*flags = fl;
	if (cls == BQ_VCLASS_OK)
		return cls;
	if (!fits && hdr)
		sum = bq_verify_sum(buf, bs, p->method);
	bad->offset = e->offset;
	bad->length = bs;
	bad->cls = cls;
	bad->expected = *e;
	bad->found_header = hdr;
	bad->found = h;
	bad->computed = sum;
	bad->sectors = bs / BQ_VERIFY_SECTOR;
	return cls;
}

/* ---- counting ---------------------------------------------------------------- */

static void keep_bad(struct bq_verify_report *r, const struct bq_vbad *b)
{
	int i;

	if (r->nr_first_bad == BQ_VERIFY_MAX_BAD &&
	    b->offset >= r->first_bad[BQ_VERIFY_MAX_BAD - 1].offset)
		return;
	if (r->nr_first_bad < BQ_VERIFY_MAX_BAD)
		r->nr_first_bad++;
	/* Insertion into the sorted list; the highest falls off the end. */
	for (i = r->nr_first_bad - 1; i > 0 && r->first_bad[i - 1].offset > b->offset; i--)
		r->first_bad[i] = r->first_bad[i - 1];
	r->first_bad[i] = *b;
}

void bq_verify_report_add(struct bq_verify_report *r, enum bq_verify_class cls,
			  const struct bq_vbad *bad, unsigned int flags)
{
	r->count[cls]++;
	if (flags & BQ_VFLAG_IN_FLIGHT)
		r->in_flight_accepted++;
	if (flags & BQ_VFLAG_AHEAD)
		r->ahead++;
	if (cls == BQ_VCLASS_OK)
		return;
	r->bad++;
	if (bad)
		keep_bad(r, bad);
}

void bq_verify_report_merge(struct bq_verify_report *dst, const struct bq_verify_report *src)
{
	dst->blocks_checked += src->blocks_checked;
	dst->bytes_checked += src->bytes_checked;
	dst->not_checked += src->not_checked;
	dst->in_flight_accepted += src->in_flight_accepted;
	dst->ahead += src->ahead;
	dst->bad += src->bad;
	for (int c = 0; c < BQ_VCLASS_NR; c++)
		dst->count[c] += src->count[c];
	for (int i = 0; i < src->nr_first_bad; i++)
		keep_bad(dst, &src->first_bad[i]);
}

void bq_verify_report_add_run(struct bq_verify_report *dst, const struct bq_verify_report *src)
{
	bq_verify_report_merge(dst, src);
	if (!src->phase_ran)
		return;
	dst->phase_ran = true;
	dst->phase_runtime_ns += src->phase_runtime_ns;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		dst->phase.d[d].ios += src->phase.d[d].ios;
		dst->phase.d[d].bytes += src->phase.d[d].bytes;
		dst->phase.d[d].errors += src->phase.d[d].errors;
		if (dst->phase.d[d].lat.buckets && src->phase.d[d].lat.buckets)
			bq_hist_merge(&dst->phase.d[d].lat, &src->phase.d[d].lat);
	}
	dst->phase.usr_ns += src->phase.usr_ns;
	dst->phase.sys_ns += src->phase.sys_ns;
	for (int e = 0; e < src->phase.nr_errors && dst->phase.nr_errors < BQ_MAX_IO_ERRORS; e++)
		dst->phase.errors[dst->phase.nr_errors++] = src->phase.errors[e];
	bq_io_error_groups_merge(&dst->phase, &src->phase);
}

void bq_verify_report_free(struct bq_verify_report *r)
{
	for (int d = 0; d < BQ_NR_DIRS; d++)
		bq_hist_free(&r->phase.d[d].lat);
}
