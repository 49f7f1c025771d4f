/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_raid.h - public interface of libblkqual's md RAID0 layout: where
 * the kernel's raid0 personality puts each sector of an array
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed, nothing allocated.  Sectors are 512 bytes throughout, as in md.
 */
#ifndef BLKQUAL_RAID_H
#define BLKQUAL_RAID_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* md's own limit is higher; 64 members is more than any array we qualify. */
#define BQ_RAID0_MAX_MEMBERS	64

/*
 * md stores the chunk size in bytes in an int in several places (its
 * sysfs chunk_size attribute, the GET_ARRAY_INFO ioctl, raid0's block size
 * check), so no larger chunk can reach raid0.
 */
#define BQ_RAID0_MAX_CHUNK_SECTORS	((uint64_t)INT32_MAX >> 9)

/**
 * enum bq_raid0_layout - how md lays out the zones after the first
 * @BQ_RAID0_UNSET: no layout recorded (md's layout attribute reads 0 or
 *	-1); only valid where the layout makes no difference
 * @BQ_RAID0_ORIGINAL: md's RAID0_ORIG_LAYOUT, the layout before Linux 3.14
 *	(mdadm --layout=original)
 * @BQ_RAID0_ALTERNATE: md's RAID0_ALT_MULTIZONE_LAYOUT, which an unintended
 *	change made Linux 3.14 to 5.3 use (mdadm --layout=alternate)
 *
 * The values are md's.  The layouts differ only from the second zone on,
 * and only when that zone has more than one member.
 */
enum bq_raid0_layout {
	BQ_RAID0_UNSET = 0,
	BQ_RAID0_ORIGINAL = 1,
	BQ_RAID0_ALTERNATE = 2,
};

/**
 * struct bq_raid0_member - one member device, in slot order
 * @sectors: usable size: the data area rounded down to whole chunks, as
 *	md keeps it (/sys/block/mdX/md/dev-NAME/size, in KiB there)
 * @data_offset: where the data area starts on the device
 *	(/sys/block/mdX/md/dev-NAME/offset)
 */
struct bq_raid0_member {
	uint64_t sectors;
	uint64_t data_offset;
};

/**
 * struct bq_raid0_zone - a strip zone: a range of the array striped over
 *	the members that are big enough for it
 * @end: first array sector after the zone
 * @dev_start: where the zone starts inside each member's data area
 * @nr_members: members in the zone
 * @members: their indices, in slot order
 *
 * A zone can be empty (@end equal to the previous zone's end) when a
 * member is smaller than one chunk: md keeps that zone, and so do we.
 */
struct bq_raid0_zone {
	uint64_t end;
	uint64_t dev_start;
	int nr_members;
	uint8_t members[BQ_RAID0_MAX_MEMBERS];
};

/**
 * struct bq_raid0 - an md RAID0 array's layout
 * @nr_members: members (slots)
 * @nr_zones: strip zones, one per distinct member size
 * @chunk_sectors: chunk size
 * @layout: the layout maps are computed with; BQ_RAID0_UNSET becomes
 *	BQ_RAID0_ORIGINAL, which is what md does where it makes no difference
 * @size: array size, as md reports it (see bq_raid0_size())
 * @members: the members, in slot order
 * @zones: the zones, in array order
 *
 * Fill it with bq_raid0_init(); the fields are for reading.
 */
struct bq_raid0 {
	int nr_members;
	int nr_zones;
	uint64_t chunk_sectors;
	enum bq_raid0_layout layout;
	uint64_t size;
	struct bq_raid0_member members[BQ_RAID0_MAX_MEMBERS];
	struct bq_raid0_zone zones[BQ_RAID0_MAX_MEMBERS];
};

/**
 * bq_raid0_init() - compute an array's zones as md's raid0 does
 * @r: the layout to fill
 * @member_sectors: each member's data area in sectors, in slot order (md's
 *	rdev->sectors: the data_size of a 1.x superblock); rounded down to
 *	whole chunks here
 * @data_offsets: each member's data offset in sectors, or NULL for all 0
 * @nr: number of members, 1 to BQ_RAID0_MAX_MEMBERS
 * @chunk_sectors: chunk size, 1 to BQ_RAID0_MAX_CHUNK_SECTORS; any value,
 *	not only powers of two (md itself wants a whole number of the
 *	members' logical blocks)
 * @layout: the array's layout
 *
 * A member smaller than one chunk is accepted, as md accepts it: it
 * rounds to nothing and holds no data.  @layout must be set when the
 * second zone has more than one member; md refuses such an array
 * otherwise (unless raid0.default_layout supplies one).
 *
 * Return: 0, -EINVAL (bad count, chunk, layout or NULL sizes), -EOPNOTSUPP
 * (layout needed but unset) or -EOVERFLOW (sizes beyond 64 bits).
 */
int bq_raid0_init(struct bq_raid0 *r, const uint64_t *member_sectors,
		  const uint64_t *data_offsets, int nr, uint64_t chunk_sectors,
		  enum bq_raid0_layout layout);

/**
 * bq_raid0_size() - the array's size, as md reports it
 * @r: the layout
 *
 * For a power-of-two chunk this is the end of the last zone.  For other
 * chunks md's size computation clears the bits of (chunk - 1) in each
 * member's rounded size rather than rounding it, so the array can be up
 * to a few chunks per member shorter than its zones; the sectors past
 * the end are never used.  This returns md's figure, which is what
 * /sys/block/mdX/size shows.
 *
 * Return: sectors.
 */
uint64_t bq_raid0_size(const struct bq_raid0 *r);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_RAID_H */
