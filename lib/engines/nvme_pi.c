// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_pi.c - NVMe end-to-end protection information: the guard CRCs,
 * the PI a host-protected write carries and the check of what a read
 * returns, and the command fields that ask the controller to insert or
 * check it (fio's pi_act, pi_chk, apptag, apptag_mask)
 *
 * A PI tuple is 8 bytes with a 16-bit guard (guard, application tag,
 * 32-bit reference tag) or 16 with a 64-bit guard (guard, application
 * tag, 48-bit reference tag), big-endian, at the start or the end of a
 * block's metadata; the guard covers the block's data and the metadata
 * before the tuple.  Pure functions, tested in selftests/nvme_pi_test.c.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "engines/nvme_pi.h"

#ifdef HAVE_NVME_URING_CMD
#include <linux/nvme_ioctl.h>
#endif

#define T10DIF_POLY 0x8bb7u			/* MSB first */
#define CRC64_NVME_POLY 0xad93d23594c93659ull	/* normal form; used reflected */

static uint16_t t16[256];
static uint64_t t64[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint64_t reflect64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

static void tables_init(void)
{
	uint64_t rpoly = reflect64(CRC64_NVME_POLY);

	for (uint32_t i = 0; i < 256; i++) {
		uint16_t c16 = (uint16_t)(i << 8);
		uint64_t c64 = i;

		for (int k = 0; k < 8; k++) {
			c16 = (uint16_t)(c16 & 0x8000 ? (unsigned int)(c16 << 1) ^ T10DIF_POLY :
					       (unsigned int)(c16 << 1));
			c64 = c64 & 1 ? (c64 >> 1) ^ rpoly : c64 >> 1;
		}
		t16[i] = c16;
		t64[i] = c64;
	}
}

uint16_t bq_crc16_t10dif(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&tables_once, tables_init);
	while (len--)
		crc = (uint16_t)((crc << 8) ^ t16[((crc >> 8) ^ *p++) & 0xff]);
	return crc;
}

uint64_t bq_crc64_nvme(uint64_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&tables_once, tables_init);
	crc = ~crc;
	while (len--)
		crc = t64[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

uint32_t bq_nvme_pi_offset(const struct bq_nvme_pi *pi)
{
	uint32_t at = pi->first ? 0 : pi->ms - pi->pi_size;

	return pi->ext ? pi->lba_size + at : at;
}

/* Guard, tag and reference tag widths of the tuple. */
static int guard_bytes(const struct bq_nvme_pi *pi)
{
	return pi->pi_size == 16 ? 8 : 2;
}

static int ref_bytes(const struct bq_nvme_pi *pi)
{
	return pi->pi_size == 16 ? 6 : 4;
}

/* The guard of one block: its data, then the metadata before the tuple. */
static uint64_t block_guard(const struct bq_nvme_pi *pi, const uint8_t *data, const uint8_t *md,
			    uint32_t at)
{
	if (pi->pi_size == 16)
		return pi->ext ? bq_crc64_nvme(0, data, at) :
		       bq_crc64_nvme(bq_crc64_nvme(0, data, pi->lba_size), md, at);
	return pi->ext ? bq_crc16_t10dif(0, data, at) :
	       bq_crc16_t10dif(bq_crc16_t10dif(0, data, pi->lba_size), md, at);
}

/* Step from one block to the next: data pointer, metadata pointer. */
static void next_block(const struct bq_nvme_pi *pi, const uint8_t **data, const uint8_t **md)
{
	if (pi->ext) {
		*data += pi->lba_size + pi->ms;
	} else {
		*data += pi->lba_size;
		*md += pi->ms;
	}
}

void bq_nvme_pi_generate(const struct bq_nvme_pi *pi, void *buf, void *md, uint64_t slba,
			 uint32_t nlb)
{
	const uint8_t *d = buf, *m = md;
	uint32_t at = bq_nvme_pi_offset(pi);
	int gb = guard_bytes(pi), rb = ref_bytes(pi);
	uint64_t ref_mask = rb == 6 ? 0xffffffffffffull : 0xffffffffull;

	if (!pi->type || pi->prinfo & BQ_NVME_PRACT || !pi->ms)
		return;
	for (uint32_t i = 0; i < nlb; i++, next_block(pi, &d, &m)) {
		uint8_t *t = (uint8_t *)(pi->ext ? d : m) + at;

		if (pi->prinfo & BQ_NVME_PRCHK_GUARD)
			put_be(t, block_guard(pi, d, m, at), gb);
		if (pi->prinfo & BQ_NVME_PRCHK_APP)
			put_be(t + gb, pi->apptag, 2);
		if (pi->prinfo & BQ_NVME_PRCHK_REF && pi->type != 3)
			put_be(t + gb + 2, (slba + i) & ref_mask, rb);
	}
}

int bq_nvme_pi_verify(const struct bq_nvme_pi *pi, const void *buf, const void *md,
		      uint64_t slba, uint32_t nlb, uint32_t *bad)
{
	const uint8_t *d = buf, *m = md;
	uint32_t at = bq_nvme_pi_offset(pi);
	int gb = guard_bytes(pi), rb = ref_bytes(pi);
	uint64_t ref_mask = rb == 6 ? 0xffffffffffffull : 0xffffffffull;

	if (!pi->type || pi->prinfo & BQ_NVME_PRACT || !pi->ms)
		return 0;
	for (uint32_t i = 0; i < nlb; i++, next_block(pi, &d, &m)) {
		const uint8_t *t = (pi->ext ? d : m) + at;
		uint16_t app = (uint16_t)get_be(t + gb, 2);
		uint64_t ref = get_be(t + gb + 2, rb);
		int what = 0;

		/* The escapes: such a block is not checked, by the device either. */
		if (app == 0xffff && (pi->type != 3 || ref == ref_mask))
			continue;
		if (pi->prinfo & BQ_NVME_PRCHK_GUARD && get_be(t, gb) != block_guard(pi, d, m, at))
			what = BQ_PI_GUARD;
		else if (pi->prinfo & BQ_NVME_PRCHK_APP &&
			 (app & pi->apptag_mask) != (pi->apptag & pi->apptag_mask))
			what = BQ_PI_APPTAG;
		else if (pi->prinfo & BQ_NVME_PRCHK_REF && pi->type != 3 &&
			 ref != ((slba + i) & ref_mask))
			what = BQ_PI_REFTAG;
		if (what) {
			*bad = i;
			return what;
		}
	}
	return 0;
}

void bq_nvme_pi_cmd(const struct bq_nvme_pi *pi, struct nvme_uring_cmd *cmd, uint64_t slba,
		    uint32_t nlb, void *md)
{
#ifdef HAVE_NVME_URING_CMD
	cmd->cdw12 |= pi->prinfo;
	if (pi->type && pi->type != 3 && pi->prinfo & BQ_NVME_PRCHK_REF) {
		cmd->cdw14 = (uint32_t)slba;
		/* A 48-bit reference tag's upper 16 bits go in dword 3. */
		if (pi->pi_size == 16)
			cmd->cdw3 = (uint32_t)(slba >> 32) & 0xffff;
	}
	if (pi->type && pi->prinfo & BQ_NVME_PRCHK_APP)
		cmd->cdw15 = (uint32_t)pi->apptag_mask << 16 | pi->apptag;
	if (md && pi->ms && !pi->ext) {
		cmd->metadata = (uint64_t)(uintptr_t)md;
		cmd->metadata_len = nlb * pi->ms;
	}
#endif
}

int bq_nvme_pi_chk_parse(const char *val, uint32_t *prchk)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} words[] = {
		{ "GUARD", BQ_NVME_PRCHK_GUARD },
		{ "REFTAG", BQ_NVME_PRCHK_REF },
		{ "APPTAG", BQ_NVME_PRCHK_APP },
	};
	const char *p = val;
	uint32_t bits = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (len == strlen(words[i].name) && !strncasecmp(p, words[i].name, len))
				break;
		if (i == ARRAY_SIZE(words))
			return -EINVAL;
		bits |= words[i].bit;
		p += len;
		if (*p)
			p++;
	}
	*prchk = bits;
	return 0;
}
