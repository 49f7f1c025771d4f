/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * device_int.h - private: what the inventory's files offer the rest of
 * libblkqual and the tests, but not the command
 */
#ifndef BLKQUAL_DEVICE_INT_H
#define BLKQUAL_DEVICE_INT_H

#include "blkqual_device.h"
#include "blkqual_passthru.h"

/**
 * struct bq_nvme_ns - a namespace as passthrough I/O sees it
 * @nsid: namespace ID
 * @nsze: size in logical blocks
 * @lba_size: data bytes per logical block; 0 when the format is unreadable
 * @lba_meta: metadata bytes per logical block
 * @lbaf: index of the LBA format in use (FLBAS, high bits included)
 * @meta_ext: the metadata is transferred after each block's data
 *            (extended LBA, FLBAS bit 4), else in a separate buffer
 * @pi_type: protection type (DPS bits 2:0): 0 none, 1, 2 or 3
 * @pi_first: the PI is the first bytes of the metadata (DPS bit 3)
 * @pi_size: bytes of the PI tuple: 8 (16-bit guard), 16 (64-bit guard);
 *           0 without PI or with a guard format blkqual does not know
 * @sts: storage tag bits of the format (extended LBA formats); 0: none
 */
struct bq_nvme_ns {
	uint32_t nsid;
	uint64_t nsze;
	uint32_t lba_size;
	uint16_t lba_meta;
	int lbaf;
	bool meta_ext;
	uint8_t pi_type;
	bool pi_first;
	uint8_t pi_size;
	uint8_t sts;
};

/**
 * bq_nvme_ns_decode() - size and LBA format from Identify Namespace data
 * @id_ns: 4096-byte Identify Namespace data
 * @ns: filled in, except @ns->nsid (the data does not hold it)
 *
 * Shared with bq_nvme_health_decode() so the format index is worked out
 * in one place.  Without libnvme, @ns is zeroed.
 */
void bq_nvme_ns_decode(const void *id_ns, struct bq_nvme_ns *ns);

/**
 * bq_nvme_health_decode() - decode raw identify and SMART log pages
 * @id_ctrl: 4096-byte Identify Controller data
 * @id_ns: 4096-byte Identify Namespace data, or NULL
 * @smart: 512-byte SMART / Health Information log page
 * @h: filled in
 *
 * Split from the ioctls so the decoding is testable without a device.
 */
void bq_nvme_health_decode(const void *id_ctrl, const void *id_ns,
			   const void *smart, struct bq_nvme_health *h);

/**
 * bq_nvme_ns_read() - namespace ID, size and LBA format of an open namespace
 * @fd: /dev/ngXnY (or /dev/nvmeXnY) open for reading
 * @ns: filled in; with PI, the guard's size comes from the NVM command
 *      set's Identify Namespace when the controller has extended LBA
 *      formats (64-bit guards), else it is the 16-bit guard's
 *
 * Return: 0; -EOPNOTSUPP when built without libnvme; -EIO when the device
 * answers Identify with an NVMe error status; or -errno.
 */
int bq_nvme_ns_read(int fd, struct bq_nvme_ns *ns);

/**
 * struct bq_nvme_zns - a Zoned Namespace's zones, from its Identify data
 * @zone_lbas: logical blocks per zone (ZSZE of the LBA format in use)
 * @lba_size: data bytes per logical block
 * @nr_zones: whole zones in the namespace
 * @max_open: Max Open Resources + 1; 0: no limit
 */
struct bq_nvme_zns {
	uint64_t zone_lbas;
	uint32_t lba_size;
	uint32_t nr_zones;
	uint32_t max_open;
};

/**
 * struct bq_nvme_zone - one Zone Descriptor, in logical blocks
 * @type: Zone Type (2: sequential write required)
 * @state: Zone State (1 empty, 2/3 implicitly/explicitly open, 4 closed,
 *	   0xd read only, 0xe full, 0xf offline: the BLK_ZONE_COND_* values)
 * @zslba: first block
 * @zcap: blocks that can be written
 * @wp: write pointer
 */
struct bq_nvme_zone {
	uint8_t type;
	uint8_t state;
	uint64_t zslba;
	uint64_t zcap;
	uint64_t wp;
};

/**
 * bq_nvme_zns_read() - whether a namespace is zoned, and its zones' size
 * @fd: /dev/ngXnY (or /dev/nvmeXnY), open
 * @nsid: its namespace ID
 * @zns: filled in
 *
 * Return: 0 for a Zoned Namespace; -ENODEV for any other; -EOPNOTSUPP
 * without libnvme; or -errno.
 */
int bq_nvme_zns_read(int fd, uint32_t nsid, struct bq_nvme_zns *zns);

/**
 * struct bq_nvme_ruh - one Reclaim Unit Handle Status descriptor (FDP)
 * @pid: Placement Identifier: what a write's directive names
 * @ruhid: the Reclaim Unit Handle it stands for
 * @ruamw: writes (logical blocks) its current reclaim unit still takes
 */
struct bq_nvme_ruh {
	uint16_t pid;
	uint16_t ruhid;
	uint64_t ruamw;
};

/**
 * bq_nvme_fdp_status() - a namespace's placement handles (I/O Management
 * Receive, Reclaim Unit Handle Status), as fio's fdp=1 reads them
 * @fd: /dev/ngXnY (or /dev/nvmeXnY), open
 * @nsid: its namespace ID
 * @ruhs: receives up to @max descriptors, in the device's order
 * @max: room in @ruhs; 0 asks for the count alone (the header: one command)
 *
 * Return: the number of descriptors the namespace has (more than @max
 * when it has more); -ENODEV when the device refuses the command (no
 * FDP); -EOPNOTSUPP without libnvme; or -errno.
 */
int bq_nvme_fdp_status(int fd, uint32_t nsid, struct bq_nvme_ruh *ruhs, unsigned int max);

/**
 * bq_nvme_zns_decode() - one 64-byte Zone Descriptor
 * @desc: the descriptor, as the device returns it
 * @z: filled in
 */
void bq_nvme_zns_decode(const void *desc, struct bq_nvme_zone *z);

/**
 * bq_nvme_zns_report() - Zone Management Receive (Report Zones)
 * @fd: the namespace, open
 * @nsid: its namespace ID
 * @zone_lbas: blocks per zone (where the next batch starts)
 * @slba: a block of the first zone wanted
 * @zones: receives up to @max descriptors
 * @max: size of @zones
 *
 * Return: the number of zones filled in, or -errno (-EIO for an NVMe status).
 */
int bq_nvme_zns_report(int fd, uint32_t nsid, uint64_t zone_lbas, uint64_t slba,
		       struct bq_nvme_zone *zones, uint32_t max);

/**
 * bq_nvme_zns_reset() - Zone Management Send, Reset Zone
 * @fd: the namespace, open for writing (the guard's)
 * @nsid: its namespace ID
 * @zslba: the zone's first block
 *
 * Return: 0 or -errno (-EIO for an NVMe status).
 */
int bq_nvme_zns_reset(int fd, uint32_t nsid, uint64_t zslba);

#endif /* BLKQUAL_DEVICE_INT_H */
