// SPDX-License-Identifier: GPL-2.0-only
/*
 * checksum.c - CRC-32C (the SSE4.2 instruction, or slicing-by-8 tables)
 * and XXH64, written from their specifications
 *
 * Both run once per verified block, so they are the cost of --verify:
 * the instruction does about 8 bytes in 3 cycles, the tables about a
 * third of that, XXH64 about 8 bytes per cycle.
 */
#include <pthread.h>
#include <string.h>

#include "blkqual_verify.h"
#include "verify_int.h"

#define CRC32C_POLY 0x82f63b78u	/* Castagnoli, bit-reflected */

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_tables_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		crc_table[0][i] = c;
	}
	/* Table k: a byte followed by k zero bytes, so 8 bytes fold in one step. */
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
					  crc_table[0][crc_table[k - 1][i] & 0xff];
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return v;
#else
	return __builtin_bswap64(v);
#endif
}

static inline uint32_t load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return v;
#else
	return __builtin_bswap32(v);
#endif
}

/* Raw CRC register in, raw register out: no pre- or post-inversion. */
static uint32_t crc32c_table(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
		len--;
	}
	while (len >= 8) {
		uint64_t v = load_le64(p) ^ crc;

		crc = crc_table[7][v & 0xff] ^ crc_table[6][(v >> 8) & 0xff] ^
		      crc_table[5][(v >> 16) & 0xff] ^ crc_table[4][(v >> 24) & 0xff] ^
		      crc_table[3][(v >> 32) & 0xff] ^ crc_table[2][(v >> 40) & 0xff] ^
		      crc_table[1][(v >> 48) & 0xff] ^ crc_table[0][v >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc;

	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}
#endif

typedef uint32_t (*crc_fn)(uint32_t crc, const uint8_t *p, size_t len);

static crc_fn crc_impl;

static crc_fn crc_pick(void)
{
	crc_fn fn = __atomic_load_n(&crc_impl, __ATOMIC_ACQUIRE);

	if (fn)
		return fn;
	pthread_once(&crc_once, crc_tables_init);
	fn = crc32c_table;
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2"))
		fn = crc32c_sse42;
#endif
	__atomic_store_n(&crc_impl, fn, __ATOMIC_RELEASE);
	return fn;
}

uint32_t bq_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return ~crc_pick()(~crc, buf, len);
}

uint32_t bq_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc_tables_init);
	return ~crc32c_table(~crc, buf, len);
}

bool bq_crc32c_hw(void)
{
	return crc_pick() != crc32c_table;
}

/* ---- XXH64 ---------------------------------------------------------------- */

#define XXH_P1 0x9e3779b185ebca87ULL
#define XXH_P2 0xc2b2ae3d27d4eb4fULL
#define XXH_P3 0x165667b19e3779f9ULL
#define XXH_P4 0x85ebca77c2b2ae63ULL
#define XXH_P5 0x27d4eb2f165667c5ULL

static inline uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t xxh_round(uint64_t acc, uint64_t lane)
{
	acc += lane * XXH_P2;
	acc = rotl64(acc, 31);
	return acc * XXH_P1;
}

static inline uint64_t xxh_merge(uint64_t acc, uint64_t v)
{
	acc ^= xxh_round(0, v);
	return acc * XXH_P1 + XXH_P4;
}

uint64_t bq_xxh64(const void *buf, size_t len, uint64_t seed)
{
	const uint8_t *p = buf, *end = p + len;
	uint64_t acc;

	if (len >= 32) {
		uint64_t v1 = seed + XXH_P1 + XXH_P2, v2 = seed + XXH_P2;
		uint64_t v3 = seed, v4 = seed - XXH_P1;
		const uint8_t *limit = end - 32;

		do {
			v1 = xxh_round(v1, load_le64(p));
			v2 = xxh_round(v2, load_le64(p + 8));
			v3 = xxh_round(v3, load_le64(p + 16));
			v4 = xxh_round(v4, load_le64(p + 24));
			p += 32;
		} while (p <= limit);
		acc = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
		acc = xxh_merge(acc, v1);
		acc = xxh_merge(acc, v2);
		acc = xxh_merge(acc, v3);
		acc = xxh_merge(acc, v4);
	} else {
		acc = seed + XXH_P5;
	}
	acc += (uint64_t)len;
	while (end - p >= 8) {
		acc ^= xxh_round(0, load_le64(p));
		acc = rotl64(acc, 27) * XXH_P1 + XXH_P4;
		p += 8;
	}
	if (end - p >= 4) {
		acc ^= (uint64_t)load_le32(p) * XXH_P1;
		acc = rotl64(acc, 23) * XXH_P2 + XXH_P3;
		p += 4;
	}
	while (p < end) {
		acc ^= (uint64_t)*p++ * XXH_P5;
		acc = rotl64(acc, 11) * XXH_P1;
	}
	acc ^= acc >> 33;
	acc *= XXH_P2;
	acc ^= acc >> 29;
	acc *= XXH_P3;
	acc ^= acc >> 32;
	return acc;
}
