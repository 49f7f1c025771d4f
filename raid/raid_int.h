/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raid_int.h - private: the md RAID0 layout's calls that only its own code
 * and the tests make, not the command
 */
#ifndef BLKQUAL_RAID_INT_H
#define BLKQUAL_RAID_INT_H

#include <stdint.h>

#include "blkqual_raid.h"

/**
 * bq_raid0_check_chunk() - whether md accepts a chunk size for members
 *	with a given logical block size
 * @chunk_sectors: chunk size
 * @logical_block_size: the largest logical block size among the members,
 *	in bytes
 *
 * md requires the chunk to be a whole number of logical blocks of every
 * member, nothing more: neither a power of two nor a multiple of the page
 * size.  (mdadm adds that it be a multiple of 1 KiB and at least 4 KiB.)
 *
 * Return: 0, or -EINVAL (chunk 0 or too large, block size not a power of
 * two from 512, chunk not a multiple of it).
 */
int bq_raid0_check_chunk(uint64_t chunk_sectors, unsigned int logical_block_size);

/**
 * bq_raid0_map() - where md puts one sector of the array
 * @r: the layout
 * @array_sector: sector of the array
 * @member: the member's index (slot)
 * @member_sector: the sector on the member device, data offset included
 * @sectors_to_chunk_end: sectors from @array_sector to the end of its
 *	chunk or of the array, whichever comes first; all of them are
 *	contiguous on @member.  May be NULL.
 *
 * Return: 0, or -ERANGE if @array_sector is not inside the array.
 */
int bq_raid0_map(const struct bq_raid0 *r, uint64_t array_sector, int *member,
		 uint64_t *member_sector, uint64_t *sectors_to_chunk_end);

#endif /* BLKQUAL_RAID_INT_H */
