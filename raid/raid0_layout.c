// SPDX-License-Identifier: GPL-2.0-only
/*
 * raid0_layout.c - where md's raid0 personality puts each array sector
 *
 * The point is to predict the kernel, so this follows what Linux's md
 * raid0 does (Linux 6.1's drivers/md/raid0.c), quirks included, and the
 * VM test compares it with the kernel sector by sector.
 *
 * md cuts the array into strip zones, one per distinct member size.  Zone
 * 0 stripes over every member up to the smallest size; each later zone
 * stripes over the members that are still left, from where the previous
 * zone stopped on them up to the next size.  Inside a zone, chunks go round
 * robin over its members in slot order.  The two layouts differ only in
 * which member a zone's first chunk goes to.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "blkqual_raid.h"
#include "raid_int.h"

int bq_raid0_check_chunk(uint64_t chunk_sectors, unsigned int logical_block_size)
{
	if (!chunk_sectors || chunk_sectors > BQ_RAID0_MAX_CHUNK_SECTORS)
		return -EINVAL;
	if (logical_block_size < 512 || (logical_block_size & (logical_block_size - 1)))
		return -EINVAL;
	return (chunk_sectors * 512) % logical_block_size ? -EINVAL : 0;
}

/* The distinct values of @v in ascending order, into @out; returns how many. */
static int distinct_ascending(const uint64_t *v, int nr, uint64_t *out)
{
	int n = 0;

	for (int i = 0; i < nr; i++) {
		int pos = 0;

		while (pos < n && out[pos] < v[i])
			pos++;
		if (pos < n && out[pos] == v[i])
			continue;
		memmove(out + pos + 1, out + pos, (size_t)(n - pos) * sizeof(*out));
		out[pos] = v[i];
		n++;
	}
	return n;
}

int bq_raid0_init(struct bq_raid0 *r, const uint64_t *member_sectors,
		  const uint64_t *data_offsets, int nr, uint64_t chunk_sectors,
		  enum bq_raid0_layout layout)
{
	uint64_t rounded[BQ_RAID0_MAX_MEMBERS], sizes[BQ_RAID0_MAX_MEMBERS];
	uint64_t end = 0, prev = 0;
	int nr_sizes;

	if (!r || !member_sectors || nr < 1 || nr > BQ_RAID0_MAX_MEMBERS)
		return -EINVAL;
	if (!chunk_sectors || chunk_sectors > BQ_RAID0_MAX_CHUNK_SECTORS)
		return -EINVAL;
	if (layout != BQ_RAID0_UNSET && layout != BQ_RAID0_ORIGINAL &&
	    layout != BQ_RAID0_ALTERNATE)
		return -EINVAL;

	memset(r, 0, sizeof(*r));
	r->nr_members = nr;
	r->chunk_sectors = chunk_sectors;
	for (int i = 0; i < nr; i++) {
		struct bq_raid0_member *m = &r->members[i];

		/*
		 * md rounds a member smaller than one chunk down to nothing
		 * rather than refusing it; it then holds no data at all.
		 */
		m->sectors = member_sectors[i] / chunk_sectors * chunk_sectors;
		m->data_offset = data_offsets ? data_offsets[i] : 0;
		if (m->data_offset > UINT64_MAX - m->sectors)
			return -EOVERFLOW;
		rounded[i] = m->sectors;
	}

	nr_sizes = distinct_ascending(rounded, nr, sizes);
	for (int z = 0; z < nr_sizes; z++) {
		struct bq_raid0_zone *zone = &r->zones[z];
		uint64_t zone_sectors;

		zone->dev_start = prev;
		/* Slot order, not size order: md lists a zone's members by role. */
		for (int i = 0; i < nr; i++) {
			if (r->members[i].sectors >= sizes[z])
				zone->members[zone->nr_members++] = (uint8_t)i;
		}
		if (__builtin_mul_overflow(sizes[z] - prev, (uint64_t)zone->nr_members,
					   &zone_sectors) ||
		    __builtin_add_overflow(end, zone_sectors, &end))
			return -EOVERFLOW;
		zone->end = end;
		prev = sizes[z];
	}
	r->nr_zones = nr_sizes;

	/*
	 * Past zone 0 the layouts differ, unless zone 1 has a single member
	 * (and then every later zone has one too).  md refuses to guess.
	 */
	if (layout == BQ_RAID0_UNSET) {
		if (r->nr_zones > 1 && r->zones[1].nr_members > 1)
			return -EOPNOTSUPP;
		layout = BQ_RAID0_ORIGINAL;
	}
	r->layout = layout;

	/*
	 * md sizes the array by masking each member with (chunk - 1), which
	 * rounds only power-of-two chunks; for others it cuts a little more
	 * off.  Copy it: the capacity md exports is what users get.
	 */
	for (int i = 0; i < nr; i++)
		r->size += r->members[i].sectors & ~(chunk_sectors - 1);
	return 0;
}

uint64_t bq_raid0_size(const struct bq_raid0 *r)
{
	return r->size;
}

int bq_raid0_map(const struct bq_raid0 *r, uint64_t array_sector, int *member,
		 uint64_t *member_sector, uint64_t *sectors_to_chunk_end)
{
	const struct bq_raid0_zone *zone = r->zones;
	uint64_t chunk = r->chunk_sectors, zone_start = 0;
	uint64_t in_zone, in_chunk, nth, row;
	int m;

	if (array_sector >= r->size)
		return -ERANGE;
	/* Cannot run off the end: the size never exceeds the last zone's end. */
	while (array_sector >= zone->end) {
		zone_start = zone->end;
		zone++;
	}

	in_zone = array_sector - zone_start;
	/* Zones start on chunk boundaries, so this is the offset either way. */
	in_chunk = in_zone % chunk;
	/*
	 * The original layout counts chunks from the start of the array when
	 * it picks the member, the alternate one from the start of the zone.
	 * Both count rows (chunks down each member) from the zone's start.
	 */
	nth = (r->layout == BQ_RAID0_ALTERNATE ? in_zone : array_sector) / chunk;
	row = in_zone / chunk / (uint64_t)zone->nr_members;
	m = zone->members[nth % (uint64_t)zone->nr_members];

	*member = m;
	*member_sector = r->members[m].data_offset + zone->dev_start + row * chunk + in_chunk;
	if (sectors_to_chunk_end) {
		uint64_t left = chunk - in_chunk;

		/* The array can end inside a chunk: see bq_raid0_init(). */
		if (left > r->size - array_sector)
			left = r->size - array_sector;
		*sectors_to_chunk_end = left;
	}
	return 0;
}

int bq_raid0_split(const struct bq_raid0 *r, uint64_t array_sector, uint64_t nr_sectors,
		   bq_raid0_piece_fn fn, void *arg)
{
	if (nr_sectors > r->size || array_sector > r->size - nr_sectors)
		return -ERANGE;

	while (nr_sectors) {
		struct bq_raid0_piece p = { .array_sector = array_sector };
		uint64_t left;
		int ret;

		ret = bq_raid0_map(r, array_sector, &p.member, &p.member_sector, &left);
		if (ret)
			return ret;
		p.sectors = left < nr_sectors ? left : nr_sectors;
		ret = fn(&p, arg);
		if (ret)
			return ret;
		array_sector += p.sectors;
		nr_sectors -= p.sectors;
	}
	return 0;
}
