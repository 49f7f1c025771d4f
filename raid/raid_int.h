/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raid_int.h - private: the md RAID0 layout's calls that only libblkqual
 * (its own code, the io_uring engine's striping) and the tests make, not
 * the command
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

/**
 * struct bq_raid0_piece - part of an I/O that goes to one member
 * @array_sector: where the piece starts in the array
 * @sectors: its length
 * @member: the member it goes to
 * @member_sector: where it starts on the member, data offset included
 */
struct bq_raid0_piece {
	uint64_t array_sector;
	uint64_t sectors;
	int member;
	uint64_t member_sector;
};

/**
 * typedef bq_raid0_piece_fn - called by bq_raid0_split() for each piece
 * @piece: the piece
 * @arg: the caller's argument
 *
 * Return: 0 to go on; anything else stops the split and is returned.
 */
typedef int (*bq_raid0_piece_fn)(const struct bq_raid0_piece *piece, void *arg);

/**
 * bq_raid0_split() - cut an I/O into the pieces md would send to members
 * @r: the layout
 * @array_sector: start of the I/O
 * @nr_sectors: its length; 0 calls nothing
 * @fn: called for each piece, in array order
 * @arg: passed to @fn
 *
 * md splits every I/O at chunk boundaries and sends each part to one
 * member; so does this, so a striper in userspace issues what md would.
 *
 * Return: 0, -ERANGE (the I/O does not fit in the array; nothing called)
 * or the first non-zero value @fn returned.
 */
int bq_raid0_split(const struct bq_raid0 *r, uint64_t array_sector, uint64_t nr_sectors,
		   bq_raid0_piece_fn fn, void *arg);

#endif /* BLKQUAL_RAID_INT_H */
