/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbd.h - private: fio's zonemode=zbd, the zones of a job's target and
 * where its writes may go in them (zbd.c)
 */
#ifndef BLKQUAL_ZBD_H
#define BLKQUAL_ZBD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "blkqual.h"

/**
 * struct bq_zbd_zone - one zone as zbd.c tracks it
 * @start: first byte
 * @cap: bytes that can be written (zone capacity)
 * @wp: write pointer; start + cap for a conventional or full zone
 * @has_wp: a sequential zone (conventional zones have none)
 * @offline: neither readable nor writable
 * @open: counted among the open zones
 */
struct bq_zbd_zone {
	uint64_t start;
	uint64_t cap;
	uint64_t wp;
	bool has_wp;
	bool offline;
	bool open;
	uint8_t cond;
	int busy;		/* 1 + the thread whose I/O is in flight here; 0: none */
	int opener;		/* the thread that opened it */		/* BLK_ZONE_COND_* as reported; EMPTY when emulated */
};

struct bq_zbd;

/**
 * struct bq_zbd_shared - what the threads of a run's jobs on one target
 * share of its zones
 * @lock: guards the zones' state, this and @idle's waits
 * @idle: signalled when a zone's I/O completes
 * @nr_open: zones in the open list
 * @swd: bytes with data in the region (conventional zones count whole)
 * @wp_swd: of those, bytes in sequential zones
 * @write_cnt: writes until zone_reset_frequency resets a zone again
 * @thread_open: per thread, the open zones it opened (job_max_open_zones)
 */
struct bq_zbd_shared {
	pthread_mutex_t lock;
	pthread_cond_t idle;
	unsigned int nr_open;
	uint64_t swd;
	uint64_t wp_swd;
	uint32_t write_cnt;
	unsigned int *thread_open;
	/* zoned devices, part two: the jobs of a run on one target share these */
	unsigned int nr_threads;	/* threads sharing them; the size of @thread_open */
	dev_t dev;			/* the target: its device, or file system and inode */
	ino_t ino;
	struct bq_zbd_shared *next;	/* the run's other shared zones */
	const struct bq_zbd *owner;	/* the thread that set them up */
};

/* enum bq_zbd_model - what the kernel says the device is (queue/zoned) */
enum bq_zbd_model {
	BQ_ZBD_NONE,		/* not zoned: zones of zonesize are emulated */
	BQ_ZBD_HOST_AWARE,
	BQ_ZBD_HOST_MANAGED,
};

/**
 * struct bq_zbd - the zones of one thread's target
 * @fd: the target's descriptor (the guard's, reopened), for reports and resets
 * @model: the device's zoned model
 * @zone_size: bytes per zone
 * @nr: zones; @z[@nr] is a sentinel starting where the last zone ends
 * @min_zone: first zone of the job's region
 * @max_zone: first zone past it
 * @lo: the region's first byte (zone aligned for writing jobs, as in fio)
 * @io_size: the region's bytes
 * @max_open: open zone limit; 0: none, and open zones are not tracked
 * @job_max_open: the job's own limit (job_max_open_zones)
 * @open: indexes of the open zones, @sh->nr_open of them, in opening order
 * @sh: what the job's threads share (the zones and @open are shared too)
 * @owner: this thread allocated the shared parts (thread 0)
 * @tid: the thread's index in its job
 * @resets: zone resets this thread did
 * @writes: whether the job writes (only then may it reset zones)
 * @random: the job's offsets are random (fio's td_random())
 * @mixed: the job both reads and writes (fio's td_rw())
 * @min_bs: smallest block size per direction
 */
struct bq_zbd {
	int fd;
	int model;
	uint64_t zone_size;
	uint32_t nr;
	uint32_t min_zone;
	uint32_t max_zone;
	uint64_t lo;
	uint64_t io_size;
	unsigned int max_open;
	unsigned int job_max_open;
	uint32_t *open;
	struct bq_zbd_shared *sh;
	bool owner;
	int tid;
	uint64_t resets;
	bool writes;
	bool random;
	bool mixed;
	uint64_t min_bs[BQ_NR_DIRS];
	double reset_threshold;
	double reset_frequency;
	bool read_beyond_wp;
	struct bq_zbd_zone *z;
	/* zoned devices, part two: verify= (zones are reset before, never during, writes) */
	bool verify;
	bool trims;		/* rw=trim or randtrim: each I/O resets its zone */
	/* An NVMe generic device (io_uring_cmd): zones through passthrough (zbd_nvme.c) */
	uint32_t nsid;		/* its namespace; 0: a block device or file */
	uint32_t lbs;		/* its logical block size */
	unsigned int dev_max_open;	/* the namespace's open zone limit; 0: none */
};

struct bq_worker;
struct bq_file_state;
struct bq_target_info;

/**
 * bq_zbd_load() - the zones of a target, as fio sees them for a job
 * @zbd: filled in; bq_zbd_free() frees it
 * @j: the job
 * @fd: the target, open
 * @ti: what it is
 * @base: the job's region start in bytes; moved up to a zone start for a
 *	  writing job, as fio does
 * @span: the region's bytes; cut down to whole zones for a writing job
 * @err: filled in on failure
 *
 * A zoned device (queue/zoned host-aware or host-managed) is asked for
 * its zones (BLKREPORTZONE); anything else gets zones of zonesize bytes,
 * all empty, as fio emulates them.
 *
 * Return: 0, -EINVAL (a size that does not fit), -ENOMEM or -errno of the
 * report.
 */
int bq_zbd_load(struct bq_zbd *zbd, const struct bq_job *j, int fd,
		const struct bq_target_info *ti, uint64_t *base, uint64_t *span,
		struct bq_parse_error *err);
void bq_zbd_free(struct bq_zbd *zbd);

int bq_zbd_pick_zone(const struct bq_zbd *zbd, uint64_t off);
int bq_zbd_adjust_dir(const struct bq_zbd *zbd, int dir);
void bq_zbd_seq_jump(const struct bq_zbd *zbd, uint64_t base, int dir, uint64_t *last_pos);
int bq_zbd_adjust(struct bq_zbd *zbd, int dir, uint64_t *off, uint32_t *len);
void bq_zbd_issued(struct bq_zbd *zbd, int dir, uint64_t off, uint32_t len);
void bq_zbd_complete(struct bq_zbd *zbd, uint64_t off);

int bq_zbd_worker_init(struct bq_worker *w, const struct bq_target_info *ti,
		       struct bq_file_state *f);
void bq_zbd_worker_free(struct bq_worker *w);
int bq_zbd_trim(struct bq_zbd *zbd, uint64_t off, uint32_t len);
int bq_zbd_zone_units(struct bq_job *j, int fd, const struct bq_target_info *ti,
		      struct bq_parse_error *err);
int bq_zbd_check(const struct bq_job *j, int fd, const struct bq_target_info *ti,
		 uint64_t span, struct bq_parse_error *err);

#endif /* BLKQUAL_ZBD_H */
