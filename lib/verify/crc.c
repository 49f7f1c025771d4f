// SPDX-License-Identifier: GPL-2.0-only
/*
 * crc.c - the CRCs fio's verify= names that no library on the system
 * ships with fio's parameters: crc7, crc16, crc32 and crc64
 *
 * Each is defined by its polynomial, bit order and initial value, as fio
 * computes it (no final inversion in any of them), and checked in
 * selftests/digest_test.c against the published check values of the
 * same CRCs ("123456789").  zlib's crc32 is the reflected, inverted
 * CRC-32; fio's crc32 is the unreflected one cksum(1) uses, without the
 * length and the final inversion, so zlib would not do here anyway.
 * Byte-at-a-time tables: about 1 GB/s, ample for a block read back.
 */
#include <pthread.h>

#include "verify_int.h"

#define CRC7_POLY 0x09u			/* x^7 + x^3 + 1, MSB first (MMC, SD) */
#define CRC16_POLY 0xa001u		/* 0x8005 reflected: CRC-16/ARC */
#define CRC32_POLY 0x04c11db7u		/* IEEE 802.3, MSB first */
#define CRC64_POLY 0x95ac9329ac4bc9b5ull	/* Jones, reflected: CRC-64/REDIS */

static uint8_t t7[256];
static uint16_t t16[256];
static uint32_t t32[256];
static uint64_t t64[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		/* crc7 kept in the register's top 7 bits, so a byte folds in whole. */
		uint32_t c7 = i;
		uint16_t c16 = (uint16_t)i;
		uint32_t c32 = i << 24;
		uint64_t c64 = i;

		for (int k = 0; k < 8; k++) {
			c7 = (c7 & 0x80 ? (c7 << 1) ^ (CRC7_POLY << 1) : c7 << 1) & 0xff;
			c16 = (uint16_t)(c16 & 1 ? (c16 >> 1) ^ CRC16_POLY : c16 >> 1);
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ CRC32_POLY : c32 << 1;
			c64 = c64 & 1 ? (c64 >> 1) ^ CRC64_POLY : c64 >> 1;
		}
		t7[i] = (uint8_t)c7;
		t16[i] = c16;
		t32[i] = c32;
		t64[i] = c64;
	}
}

uint8_t bq_crc7(uint8_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t c = (uint8_t)(crc << 1);

	pthread_once(&tables_once, tables_init);
	while (len--)
		c = t7[c ^ *p++];
	return c >> 1;
}

uint16_t bq_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&tables_once, tables_init);
	while (len--)
		crc = (uint16_t)((crc >> 8) ^ t16[(crc ^ *p++) & 0xff]);
	return crc;
}

uint32_t bq_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&tables_once, tables_init);
	while (len--)
		crc = (crc << 8) ^ t32[(crc >> 24) ^ *p++];
	return crc;
}

uint64_t bq_crc64(uint64_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&tables_once, tables_init);
	while (len--)
		crc = (crc >> 8) ^ t64[(crc ^ *p++) & 0xff];
	return crc;
}
