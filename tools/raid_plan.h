/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raid_plan.h - the exact mdadm, mkfs.xfs and mount commands for an md
 * RAID0 with XFS on top, and the geometry they should produce
 */
#ifndef BLKQUAL_RAID_PLAN_H
#define BLKQUAL_RAID_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#define PLAN_MAX_MEMBERS 64
#define PLAN_MAX_ARGS (PLAN_MAX_MEMBERS + 16)

/**
 * struct plan_cmd - one command as an argument vector (never a shell line)
 */
struct plan_cmd {
	const char *argv[PLAN_MAX_ARGS];
	int argc;
	char buf[PLAN_MAX_ARGS][64];
};

/**
 * struct xfs_preview - what mkfs.xfs -N says it would make
 */
struct xfs_preview {
	bool valid;
	unsigned int agcount;
	unsigned int sunit_blocks;
	unsigned int swidth_blocks;
	unsigned int log_sunit_blocks;
	unsigned int block_size;
	char note[256];		/* mkfs.xfs's own warnings, e.g. the log stripe unit */
};

/**
 * struct raid_plan - an md RAID0 + XFS plan
 */
struct raid_plan {
	const char *members[PLAN_MAX_MEMBERS];
	uint64_t member_bytes[PLAN_MAX_MEMBERS];
	int nr;
	uint64_t chunk;
	const char *layout;		/* "original", "alternate", or NULL (equal members) */
	const char *md;
	const char *mountpoint;
	uint64_t array_bytes;		/* md's size before its metadata (data offset) */
	uint64_t io_min;
	uint64_t io_opt;
	uint64_t log_su;		/* log stripe unit mkfs.xfs will use */
	const char *logbsize;		/* mount option, or NULL when none fits */
	struct plan_cmd mdadm;
	struct plan_cmd mkfs;
	struct plan_cmd mount;
	struct xfs_preview xfs;
};

int raid_plan_make(struct raid_plan *p);
void plan_cmd_add(struct plan_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int xfs_geometry(const char *dir, unsigned int *bsize, unsigned int *sunit,
		 unsigned int *swidth);
bool raid_have_md(char *why, size_t len);
void raid_plan_undo(const struct raid_plan *p);
void plan_cmd_print(const struct plan_cmd *c, char *out, size_t len);
json_object *raid_plan_json(const struct raid_plan *p);

#endif /* BLKQUAL_RAID_PLAN_H */
