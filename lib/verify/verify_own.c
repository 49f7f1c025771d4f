// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_own.c - whether bytes of a target are blkqual's own verify data
 *
 * A verify job's payload is pseudo-random, so now and then a block holds
 * two bytes that libblkid takes for a magic (ext's 0xEF53 at byte 1080
 * with the journal-device bit is one write in 2^17), and the guard would
 * refuse the next run on the device blkqual itself just wrote.  Such a
 * block proves itself: its header names its place, method, seed and
 * generation, and rebuilding it from them gives every byte read.  A
 * filesystem or table written over it breaks the header or the payload,
 * so a magic inside an intact, rebuilt block was written by blkqual.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify_int.h"

/* Headers further back than this are not looked for. */
#define OWN_MAX_BLOCK (16u << 20)

static int read_exact(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENODATA;
}

/* Whether the block at @at, headed by @h, is what blkqual writes there. */
static int block_rebuilds(int fd, uint64_t at, const struct bq_vhdr *h)
{
	struct bq_vparams p;
	uint8_t *read_back, *built;
	int ret;

	if (bq_vparams_init(&p, (enum bq_verify_method)h->method, h->length, NULL, 0))
		return 0;	/* a method this build cannot rebuild: not claimed */
	read_back = malloc(h->length);
	built = malloc(h->length);
	ret = read_back && built ? read_exact(fd, read_back, h->length, at) : -ENOMEM;
	if (!ret) {
		bq_verify_fill(built, &p, h->offset, h->generation, h->seed, h->timestamp_ns,
			       h->thread);
		ret = !memcmp(read_back, built, h->length);
	} else if (ret == -ENODATA) {
		ret = 0;	/* the block would end past the target's end */
	}
	free(built);
	free(read_back);
	bq_vparams_free(&p);
	return ret;
}

/**
 * bq_verify_owns() - whether bytes of a target lie in a block blkqual wrote
 * @fd: the target, open for reading
 * @off: the first byte
 * @len: how many (at least 1)
 * @h: receives the header of the block that holds them
 *
 * Looks back from @off, sector by sector up to 16 MiB, for the nearest
 * verify header; it must name its own place, its block must reach past
 * the bytes, and the block must rebuild byte for byte from the header.  Blocks of the
 * pattern method rebuild only with the default pattern, since the header
 * does not carry the pattern; a block that does not rebuild is not ours.
 *
 * Return: 1 when it is blkqual's, 0 when not, or -errno (a read failed,
 * no memory).
 */
int bq_verify_owns(int fd, uint64_t off, uint32_t len, struct bq_vhdr *h)
{
	uint64_t first = off - off % BQ_VERIFY_SECTOR;
	uint64_t last = first >= OWN_MAX_BLOCK ? first - OWN_MAX_BLOCK : 0;
	uint8_t hdr[BQ_VHDR_SIZE];

	if (!len)
		return 0;
	for (uint64_t at = first + BQ_VERIFY_SECTOR; at > last; ) {
		int ret;

		at -= BQ_VERIFY_SECTOR;
		ret = read_exact(fd, hdr, sizeof(hdr), at);
		if (ret)
			return ret == -ENODATA ? 0 : ret;
		if (!bq_vhdr_decode(hdr, h))
			continue;
		/*
		 * The nearest header at or before the bytes starts the block
		 * that holds them, if any does: one further back would span it.
		 */
		if (h->offset != at || h->length > OWN_MAX_BLOCK || h->length < BQ_VERIFY_SECTOR ||
		    at + h->length < off + len)
			return 0;
		return block_rebuilds(fd, at, h);
	}
	return 0;
}
