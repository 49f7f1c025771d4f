// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbd.c - fio's zonemode=zbd: a job's writes go to the write pointer of
 * a zone, never elsewhere, so that a zoned device (SMR disk, ZNS
 * namespace, null_blk zoned=1) takes every one of them
 *
 * The rules are fio's, because they decide how many I/Os a job does and
 * where: the offset pattern.c draws picks the zone, the write goes to its
 * write pointer, a full zone is reset (BLKRESETZONE) before it is written
 * again, at most max_open_zones zones take writes at once (a write for
 * another zone goes to an open one instead), reads stay below the write
 * pointer unless read_beyond_wp, and zones of a device that is not zoned
 * are emulated from zonesize and zonecapacity.  A zone reset destroys
 * data as a write does: it goes through the job's descriptor, which the
 * guard opened and checked for writing, and only a writing job has one.
 *
 * The threads of a job (numjobs) share its zones, as fio's do.  Each has
 * one I/O in flight, and a zone with an I/O in flight is another
 * thread's until it completes (fio's zone lock): writes reach a zone in
 * the order of its write pointer, no reset overtakes one, and the write
 * pointer moves as writes are issued, as fio moves it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkqual_verify.h"
#include "device/device_int.h"
#include "engine.h"
#include "job/jobopt.h"
#include "job/jobopt_zbd.h"
#include "target.h"
#include "zbd.h"

#define REPORT_BATCH 4096U

/* queue/NAME of the block device behind @ti, or of its whole disk; -ENOENT. */
static int read_queue_attr(const struct bq_target_info *ti, const char *name, char *buf,
			   size_t len)
{
	char path[128];

	/* A partition's queue is its disk's, one directory up. */
	for (int i = 0; i < 2; i++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%squeue/%s",
			 major(ti->st.st_rdev), minor(ti->st.st_rdev), i ? "../" : "", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, len - 1);
		close(fd);
		if (n < 0)
			continue;
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		return 0;
	}
	return -ENOENT;
}

static int zoned_model(const struct bq_target_info *ti)
{
	char buf[64];

	if (!ti->is_blk || read_queue_attr(ti, "zoned", buf, sizeof(buf)))
		return BQ_ZBD_NONE;
	if (!strcmp(buf, "host-managed"))
		return BQ_ZBD_HOST_MANAGED;
	if (!strcmp(buf, "host-aware"))
		return BQ_ZBD_HOST_AWARE;
	return BQ_ZBD_NONE;
}

/* fio's zones for a device that is not zoned: all empty, all sequential. */
static int emulate(struct bq_zbd *zbd, const struct bq_job *j, const struct bq_target_info *ti,
		   struct bq_parse_error *err)
{
	uint64_t cap = j->zone_capacity ? j->zone_capacity : j->zone_size;

	if (!j->zone_size)
		return bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd needs zonesize on a "
				  "device that is not zoned");
	if (j->zone_size < 512)
		return bq_fail_at(err, ti->path, -EINVAL, "zonesize must be at least 512 bytes");
	if (cap > j->zone_size)
		return bq_fail_at(err, ti->path, -EINVAL, "zonecapacity %" PRIu64 " is larger "
				  "than zonesize %" PRIu64, cap, j->zone_size);
	if (ti->size < j->zone_size)
		return bq_fail_at(err, ti->path, -EINVAL, "the target (%" PRIu64 " bytes) is "
				  "smaller than zonesize %" PRIu64, ti->size, j->zone_size);
	zbd->zone_size = j->zone_size;
	zbd->nr = (uint32_t)((ti->size + j->zone_size - 1) / j->zone_size);
	zbd->z = calloc(zbd->nr + 1, sizeof(*zbd->z));
	if (!zbd->z)
		return -ENOMEM;
	for (uint32_t i = 0; i <= zbd->nr; i++) {
		zbd->z[i].start = i * j->zone_size;
		zbd->z[i].wp = zbd->z[i].start;
		zbd->z[i].cap = i < zbd->nr ? cap : 0;
		zbd->z[i].has_wp = i < zbd->nr;
		zbd->z[i].cond = BLK_ZONE_COND_EMPTY;
	}
	return 0;
}

/* One reported zone as fio keeps it: full and conventional zones have no room. */
static void take_zone(struct bq_zbd_zone *z, const struct blk_zone *bz, bool has_cap)
{
	z->start = bz->start << 9;
	z->cap = (has_cap ? bz->capacity : bz->len) << 9;
	z->has_wp = bz->type != BLK_ZONE_TYPE_CONVENTIONAL;
	z->offline = bz->cond == BLK_ZONE_COND_OFFLINE;
	z->cond = bz->cond;
	if (bz->cond == BLK_ZONE_COND_NOT_WP || bz->cond == BLK_ZONE_COND_FULL)
		z->wp = z->start + z->cap;
	else
		z->wp = bz->wp << 9;
}

/* The device's own zones (BLKREPORTZONE), in batches. */
static int report(struct bq_zbd *zbd, int fd, const struct bq_target_info *ti,
		  struct bq_parse_error *err)
{
	size_t sz = sizeof(struct blk_zone_report) + REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = malloc(sz);
	uint32_t zsectors = 0, cnt = 0;
	uint64_t sector = 0;
	int ret = 0;

	if (!rep)
		return -ENOMEM;
	if (ioctl(fd, BLKGETZONESZ, &zsectors) || !zsectors ||
	    ioctl(fd, BLKGETNRZONES, &cnt) || !cnt) {
		ret = bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: the kernel reports no "
				 "zones for this zoned device");
		goto out_free;
	}
	zbd->zone_size = (uint64_t)zsectors << 9;
	zbd->z = calloc((size_t)cnt + 1, sizeof(*zbd->z));
	if (!zbd->z) {
		ret = -ENOMEM;
		goto out_free;
	}
	while (zbd->nr < cnt) {
		memset(rep, 0, sizeof(*rep));
		rep->sector = sector;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep)) {
			ret = bq_fail_at(err, ti->path, -errno, "BLKREPORTZONE at sector %" PRIu64
					 ": %s", sector, strerror(errno));
			goto out_free;
		}
		if (!rep->nr_zones)
			break;
		for (uint32_t i = 0; i < rep->nr_zones && zbd->nr < cnt; i++)
			take_zone(&zbd->z[zbd->nr++], &rep->zones[i],
				  rep->flags & BLK_ZONE_REP_CAPACITY);
		sector = rep->zones[rep->nr_zones - 1].start + rep->zones[rep->nr_zones - 1].len;
	}
	/* The sentinel: where the last zone ends. */
	zbd->z[zbd->nr].start = zbd->nr ? zbd->z[zbd->nr - 1].start + zbd->zone_size : 0;
	zbd->z[zbd->nr].wp = zbd->z[zbd->nr].start;
out_free:
	free(rep);
	return ret;
}

/*
 * An NVMe generic device has no block ioctls: its namespace's Identify
 * data says whether it is zoned, Zone Management Receive lists the zones
 * (fio's io_uring_cmd does the same).  Zone states have the kernel's
 * numbering (BLK_ZONE_COND_*); read-only zones are offline, as in fio.
 */
static int nvme_zoned(int fd, const struct bq_target_info *ti, struct bq_nvme_zns *zns)
{
	int ret = bq_nvme_zns_read(fd, ti->nsid, zns);

	if (ret == -ENODEV || ret == -EOPNOTSUPP)
		return BQ_ZBD_NONE;
	if (ret)
		return ret;
	if (zns->lba_size != ti->lbs || zns->zone_lbas > UINT64_MAX / zns->lba_size)
		return -EINVAL;
	return BQ_ZBD_HOST_MANAGED;
}

static int nvme_report(struct bq_zbd *zbd, int fd, const struct bq_target_info *ti,
		       const struct bq_nvme_zns *zns, struct bq_parse_error *err)
{
	struct bq_nvme_zone *nz;
	int got;

	if (!zns->nr_zones)
		return bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: the namespace holds "
				  "no whole zone");
	nz = calloc(zns->nr_zones, sizeof(*nz));
	zbd->z = calloc((size_t)zns->nr_zones + 1, sizeof(*zbd->z));
	if (!nz || !zbd->z) {
		free(nz);
		return -ENOMEM;
	}
	zbd->zone_size = zns->zone_lbas * zns->lba_size;
	zbd->dev_max_open = zns->max_open;
	got = bq_nvme_zns_report(fd, ti->nsid, zns->zone_lbas, 0, nz, zns->nr_zones);
	if (got < 0) {
		free(nz);
		return bq_fail_at(err, ti->path, got, "NVMe Zone Management Receive: %s",
				  strerror(-got));
	}
	for (int i = 0; i < got; i++) {
		struct bq_zbd_zone *z = &zbd->z[i];
		bool off = nz[i].state == BLK_ZONE_COND_OFFLINE ||
			   nz[i].state == BLK_ZONE_COND_READONLY;

		z->start = nz[i].zslba * zns->lba_size;
		z->cap = nz[i].zcap * zns->lba_size;
		z->has_wp = true;
		z->offline = off;
		z->cond = off ? BLK_ZONE_COND_OFFLINE : nz[i].state;
		if (nz[i].state == BLK_ZONE_COND_FULL)
			z->wp = z->start + z->cap;
		else
			z->wp = off ? z->start : nz[i].wp * zns->lba_size;
	}
	free(nz);
	zbd->nr = (uint32_t)got;
	zbd->z[zbd->nr].start = zbd->nr ? zbd->z[zbd->nr - 1].start + zbd->zone_size : 0;
	zbd->z[zbd->nr].wp = zbd->z[zbd->nr].start;
	return 0;
}

/*
 * fio's zone lock: a zone with another thread's I/O in flight is waited
 * for, so that writes to a zone reach it in order and no reset overtakes
 * one.  A thread has one I/O at a time and holds no zone while it waits.
 */
static void wait_zone(struct bq_zbd *zbd, const struct bq_zbd_zone *z)
{
	while (z->has_wp && z->busy && z->busy != zbd->tid + 1)
		pthread_cond_wait(&zbd->sh->idle, &zbd->sh->lock);
}

static uint32_t zone_idx(const struct bq_zbd *zbd, uint64_t off)
{
	uint64_t i = off / zbd->zone_size;

	return i < zbd->nr ? (uint32_t)i : zbd->nr;
}

static inline uint64_t cap_end(const struct bq_zbd_zone *z)
{
	return z->start + z->cap;
}

static inline bool zone_full(const struct bq_zbd_zone *z, uint64_t need)
{
	return z->has_wp && z->wp + need > cap_end(z);
}

static bool valid_offset(const struct bq_zbd *zbd, uint64_t off)
{
	return off - zbd->lo < zbd->io_size;
}

/* fio's max open zones: the job's, capped by a host-managed device's own. */
static int open_limit(struct bq_zbd *zbd, const struct bq_job *j,
		      const struct bq_target_info *ti, struct bq_parse_error *err)
{
	char buf[32];
	unsigned long dev = 0;

	zbd->max_open = j->max_open_zones;
	if (zbd->model == BQ_ZBD_HOST_MANAGED && !j->ignore_zone_limits && ti->nsid)
		dev = zbd->dev_max_open;
	else if (zbd->model == BQ_ZBD_HOST_MANAGED && !j->ignore_zone_limits &&
		 !read_queue_attr(ti, "max_open_zones", buf, sizeof(buf)))
		dev = strtoul(buf, NULL, 10);
	if (dev && !j->max_open_zones)
		zbd->max_open = (unsigned int)dev;
	else if (dev && j->max_open_zones > dev)
		return bq_fail_at(err, ti->path, -EINVAL, "max_open_zones=%u is larger than "
				  "the device's %lu", j->max_open_zones, dev);
	if (zbd->max_open > BQ_ZBD_MAX_OPEN_ZONES)
		return bq_fail_at(err, ti->path, -EINVAL, "max_open_zones %u is larger than %u",
				  zbd->max_open, BQ_ZBD_MAX_OPEN_ZONES);
	if (j->job_max_open_zones && !zbd->max_open)
		return bq_fail_at(err, ti->path, -EINVAL, "job_max_open_zones needs a "
				  "max_open_zones limit (the job's or the device's)");
	zbd->job_max_open = j->job_max_open_zones;
	if (zbd->max_open) {
		zbd->open = calloc(zbd->max_open, sizeof(*zbd->open));
		if (!zbd->open)
			return -ENOMEM;
	}
	return 0;
}

/* fio aligns a writing job's region to whole zones (zbd_zone_align_file_sizes). */
static int align_region(struct bq_zbd *zbd, const struct bq_job *j,
			const struct bq_target_info *ti, uint64_t *base, uint64_t *span,
			struct bq_parse_error *err)
{
	bool read_only = j->rw == BQ_RW_READ || j->rw == BQ_RW_RANDREAD;
	uint64_t end = *base + *span, lo = *base;
	const struct bq_zbd_zone *z;
	bool seq = false;

	if (*base >= ti->size)
		return 0;
	for (uint32_t i = zone_idx(zbd, *base); i <= zone_idx(zbd, end - 1) && i < zbd->nr; i++)
		seq |= zbd->z[i].has_wp;
	if (!seq)
		return 0;
	if (j->zone_size && j->zone_size != zbd->zone_size)
		return bq_fail_at(err, ti->path, -EINVAL, "zonesize %" PRIu64 " does not match "
				  "the device's zone size %" PRIu64, j->zone_size, zbd->zone_size);
	if (read_only)
		return 0;
	z = &zbd->z[zone_idx(zbd, lo)];
	if (lo != z->start) {
		lo = z[1].start;
		if (lo >= end)
			return bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: the region must "
					  "hold at least one whole zone");
	}
	z = &zbd->z[zone_idx(zbd, end)];
	if (z->start <= lo)
		return bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: the region must hold "
				  "at least one whole zone");
	end = z->start < end ? z->start : end;
	*base = lo;
	*span = end - lo;
	return 0;
}

static uint64_t smallest_bs(const struct bq_job *j, int dir)
{
	uint64_t m = j->bs_min[dir];

	for (int i = 0; i < j->nr_bssplit[dir]; i++)
		if (j->bssplit[dir][i].bs < m)
			m = j->bssplit[dir][i].bs;
	return m ? m : 512;
}

static int reset_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z);
static bool open_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z);
static void close_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z);

/* The zones and what the threads share: read by thread 0, the others' point to its. */
static int load_shared(struct bq_zbd *zbd, const struct bq_job *j, int fd,
		       const struct bq_target_info *ti, const struct bq_zbd *owner,
		       struct bq_parse_error *err)
{
	int ret;

	if (owner) {
		zbd->model = owner->model;
		zbd->zone_size = owner->zone_size;
		zbd->nr = owner->nr;
		zbd->z = owner->z;
		zbd->max_open = owner->max_open;
		zbd->job_max_open = j->job_max_open_zones;
		zbd->open = owner->open;
		zbd->sh = owner->sh;
		zbd->dev_max_open = owner->dev_max_open;
		return 0;
	}
	zbd->owner = true;
	zbd->sh = calloc(1, sizeof(*zbd->sh));
	if (!zbd->sh)
		return -ENOMEM;
	zbd->sh->thread_open = calloc(1, sizeof(unsigned int));
	if (!zbd->sh->thread_open)
		return -ENOMEM;
	zbd->sh->nr_threads = 1;
	pthread_mutex_init(&zbd->sh->lock, NULL);
	pthread_cond_init(&zbd->sh->idle, NULL);
	if (ti->nsid) {
		struct bq_nvme_zns zns;

		ret = nvme_zoned(fd, ti, &zns);
		if (ret < 0)
			return bq_fail_at(err, ti->path, ret, "zonemode=zbd: Identify of the zoned "
					  "namespace: %s", strerror(-ret));
		zbd->model = ret;
		ret = zbd->model == BQ_ZBD_NONE ? emulate(zbd, j, ti, err) :
						  nvme_report(zbd, fd, ti, &zns, err);
		return ret ?: open_limit(zbd, j, ti, err);
	}
	zbd->model = zoned_model(ti);
	if (zbd->model == BQ_ZBD_NONE)
		ret = emulate(zbd, j, ti, err);
	else
		ret = report(zbd, fd, ti, err);
	return ret ?: open_limit(zbd, j, ti, err);
}

/* Thread 0 counts the data and takes over the zones the device has open. */
static int first_thread(struct bq_zbd *zbd, const struct bq_target_info *ti,
			struct bq_parse_error *err)
{
	for (uint32_t i = zbd->min_zone; i < zbd->max_zone; i++) {
		struct bq_zbd_zone *z = &zbd->z[i];

		zbd->sh->swd += z->wp - z->start;
		if (z->has_wp)
			zbd->sh->wp_swd += z->wp - z->start;
	}
	/* Zones the device has open count against the limits; those over them are reset. */
	for (uint32_t i = zbd->min_zone; zbd->writes && i < zbd->max_zone; i++) {
		struct bq_zbd_zone *z = &zbd->z[i];
		int ret;

		if (z->cond != BLK_ZONE_COND_IMP_OPEN && z->cond != BLK_ZONE_COND_EXP_OPEN)
			continue;
		if (open_zone(zbd, z))
			continue;
		ret = reset_zone(zbd, z);
		if (ret)
			return bq_fail_at(err, ti->path, ret, "zone reset of zone %u: %s", i,
					  strerror(-ret));
	}
	zbd->sh->write_cnt = zbd->reset_frequency ? (uint32_t)(1.0 / zbd->reset_frequency) :
			     UINT_MAX;
	return 0;
}

/*
 * verify=: fio resets the region's zones before the job writes, so that
 * no reset is needed while it writes (a reset would lose data still to
 * be read back): all of them closed, those with data reset.
 */
static int verify_reset(struct bq_zbd *zbd, const struct bq_target_info *ti,
			struct bq_parse_error *err)
{
	for (uint32_t i = zbd->min_zone; zbd->verify && zbd->writes && i < zbd->max_zone; i++) {
		struct bq_zbd_zone *z = &zbd->z[i];
		int ret;

		if (!z->has_wp)
			continue;
		close_zone(zbd, z);
		ret = reset_zone(zbd, z);
		if (ret)
			return bq_fail_at(err, ti->path, ret, "zone reset of zone %u: %s", i,
					  strerror(-ret));
	}
	return 0;
}

static int zbd_setup(struct bq_zbd *zbd, const struct bq_job *j, int fd,
		     const struct bq_target_info *ti, uint64_t *base, uint64_t *span,
		     const struct bq_zbd *owner, int tid, bool run, bool job_first,
		     struct bq_parse_error *err)
{
	int ret;

	memset(zbd, 0, sizeof(*zbd));
	zbd->fd = fd;
	zbd->tid = tid;
	zbd->nsid = ti->nsid;
	zbd->lbs = ti->lbs;
	ret = load_shared(zbd, j, fd, ti, owner, err);
	ret = ret ?: align_region(zbd, j, ti, base, span, err);
	if (ret)
		goto out_free;
	zbd->lo = *base;
	zbd->io_size = *span;
	zbd->min_zone = zone_idx(zbd, zbd->lo);
	zbd->max_zone = zone_idx(zbd, zbd->lo + zbd->io_size);
	zbd->writes = j->rw != BQ_RW_READ && j->rw != BQ_RW_RANDREAD;
	zbd->random = j->rw == BQ_RW_RANDREAD || j->rw == BQ_RW_RANDWRITE ||
		      j->rw == BQ_RW_RANDRW;
	zbd->mixed = j->rw == BQ_RW_RW || j->rw == BQ_RW_RANDRW;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		zbd->min_bs[d] = smallest_bs(j, d);
	zbd->reset_threshold = j->zone_reset_threshold;
	zbd->reset_frequency = j->zone_reset_frequency;
	zbd->read_beyond_wp = j->read_beyond_wp;
	zbd->verify = j->verify != BQ_VERIFY_NONE;
	zbd->trims = j->trim == BQ_TRIM_ONLY;
	if (zbd->owner)
		ret = first_thread(zbd, ti, err);
	/* For the run, not the check before it: the job's first thread. */
	if (!ret && run && job_first)
		ret = verify_reset(zbd, ti, err);
	if (!ret)
		return 0;
out_free:
	bq_zbd_free(zbd);
	return ret;
}

int bq_zbd_load(struct bq_zbd *zbd, const struct bq_job *j, int fd,
		const struct bq_target_info *ti, uint64_t *base, uint64_t *span,
		struct bq_parse_error *err)
{
	return zbd_setup(zbd, j, fd, ti, base, span, NULL, 0, false, false, err);
}

/*
 * fio keeps one set of zones per file for all the jobs of a run, so that
 * a job sees the writes, resets and open zones of the others (a randtrim
 * job beside a randwrite job, one job after another).  The runs' zones,
 * by target; set up one thread after the other, freed by their owners.
 */
static struct bq_zbd_shared *shared_zones;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static void target_key(const struct bq_target_info *ti, dev_t *dev, ino_t *ino)
{
	*dev = ti->is_blk ? ti->st.st_rdev : ti->st.st_dev;
	*ino = ti->is_blk ? 0 : ti->st.st_ino;
}

static void zones_unshare(struct bq_zbd_shared *sh)
{
	pthread_mutex_lock(&shared_lock);
	for (struct bq_zbd_shared **p = &shared_zones; sh && *p; p = &(*p)->next) {
		if (*p == sh) {
			*p = sh->next;
			break;
		}
	}
	pthread_mutex_unlock(&shared_lock);
}

/**
 * bq_zbd_free() - free what bq_zbd_load() allocated
 * @zbd: the zones; may be partly set up.  Only thread 0's frees the
 *	 shared parts, so it goes last (or the others' are not used again).
 */
void bq_zbd_free(struct bq_zbd *zbd)
{
	if (zbd->owner)
		zones_unshare(zbd->sh);
	if (zbd->owner) {
		free(zbd->z);
		free(zbd->open);
		if (zbd->sh) {
			pthread_mutex_destroy(&zbd->sh->lock);
			pthread_cond_destroy(&zbd->sh->idle);
			free(zbd->sh->thread_open);
		}
		free(zbd->sh);
	}
	zbd->z = NULL;
	zbd->open = NULL;
	zbd->sh = NULL;
}

/* fio resets a zone only when it has data; an emulated one needs no command. */
static int reset_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z)
{
	uint64_t data = z->wp - z->start;

	if (!data)
		return 0;
	if (!zbd->writes)
		return -EBADF;
	if (zbd->model != BQ_ZBD_NONE && zbd->nsid) {
		int ret = bq_nvme_zns_reset(zbd->fd, zbd->nsid, z->start / zbd->lbs);

		if (ret)
			return ret;
	} else if (zbd->model != BQ_ZBD_NONE) {
		struct blk_zone_range r = {
			.sector = z->start >> 9, .nr_sectors = (z[1].start - z->start) >> 9,
		};

		if (ioctl(zbd->fd, BLKRESETZONE, &r))
			return -errno;
	}
	zbd->sh->swd -= data;
	zbd->sh->wp_swd -= data;
	z->wp = z->start;
	zbd->resets++;
	return 0;
}

static void close_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z)
{
	unsigned int i;

	if (!z->open)
		return;
	for (i = 0; i < zbd->sh->nr_open; i++)
		if (&zbd->z[zbd->open[i]] == z)
			break;
	if (i == zbd->sh->nr_open)
		return;
	memmove(zbd->open + i, zbd->open + i + 1, (zbd->sh->nr_open - i - 1) * sizeof(*zbd->open));
	zbd->sh->nr_open--;
	zbd->sh->thread_open[z->opener]--;
	z->open = false;
}

/* fio's zbd_open_zone(): false when the zone cannot take writes now. */
static bool open_zone(struct bq_zbd *zbd, struct bq_zbd_zone *z)
{
	if (z->offline)
		return false;
	/* verify=: a full zone is not written again, its data is still to be read back. */
	if (zbd->verify && zone_full(z, zbd->min_bs[BQ_WRITE]))
		return false;
	if (!zbd->max_open)
		return true;
	if (z->open)
		return z->wp < cap_end(z);
	if (zbd->job_max_open && zbd->sh->thread_open[zbd->tid] >= zbd->job_max_open)
		return false;
	if (zbd->sh->nr_open >= zbd->max_open)
		return false;
	zbd->open[zbd->sh->nr_open++] = (uint32_t)(z - zbd->z);
	zbd->sh->thread_open[zbd->tid]++;
	z->opener = zbd->tid;
	z->open = true;
	return true;
}

/**
 * bq_zbd_pick_zone() - which open zone fio tries first for a write at @off
 * @zbd: the zones
 * @off: the offset drawn
 *
 * Return: an index into the open zones (0 when none is open).
 */
int bq_zbd_pick_zone(const struct bq_zbd *zbd, uint64_t off)
{
	return (int)((off - zbd->lo) * zbd->sh->nr_open / zbd->io_size);
}

/*
 * fio's zbd_convert_to_open_zone(): a write whose zone cannot be opened
 * goes to an open zone with room, else opens the next zone that can be.
 */
static struct bq_zbd_zone *convert_to_open(struct bq_zbd *zbd, uint64_t off, uint64_t min_bs)
{
	struct bq_zbd_zone *z;
	uint32_t idx;

	if (zbd->max_open || zbd->job_max_open)
		idx = zbd->sh->nr_open ? zbd->open[bq_zbd_pick_zone(zbd, off)] : 0;
	else
		idx = zone_idx(zbd, off);
	if (idx < zbd->min_zone)
		idx = zbd->min_zone;
	else if (idx >= zbd->max_zone)
		idx = zbd->max_zone - 1;
	for (;;) {
		unsigned int start, k;

		z = &zbd->z[idx];
		wait_zone(zbd, z);
		if (z->has_wp) {
			if (!z->offline && !zbd->max_open && !zbd->job_max_open)
				goto examine;
			if (!zbd->sh->nr_open)
				goto open_other;
		}
		start = (unsigned int)bq_zbd_pick_zone(zbd, off);
		for (k = 0; k < zbd->sh->nr_open; k++, start++) {
			if (start >= zbd->sh->nr_open)
				start = 0;
			if (zbd->open[start] >= zbd->min_zone && zbd->open[start] < zbd->max_zone)
				break;
		}
		if (k == zbd->sh->nr_open)
			return NULL;
		if (zbd->open[start] == idx)
			break;
		idx = zbd->open[start];
	}
examine:
	if (z->wp + min_bs <= cap_end(z))
		return z;
open_other:
	for (uint64_t i = zbd->io_size / zbd->zone_size; i > 0; i--) {
		idx++;
		z++;
		if (!valid_offset(zbd, z->start)) {
			idx = zbd->min_zone;
			z = &zbd->z[idx];
		}
		if (!z->has_wp)
			continue;
		wait_zone(zbd, z);
		if (z->open)
			continue;
		if (open_zone(zbd, z))
			return z;
	}
	for (unsigned int k = 0; k < zbd->sh->nr_open; k++) {
		idx = zbd->open[k];
		if (idx < zbd->min_zone || idx >= zbd->max_zone)
			continue;
		z = &zbd->z[idx];
		wait_zone(zbd, z);
		if (z->wp + min_bs <= cap_end(z))
			return z;
	}
	return NULL;
}

/* fio's zbd_find_zone(): the next zone (or nearest, random) with @need bytes of data. */
static struct bq_zbd_zone *find_data_zone(struct bq_zbd *zbd, uint64_t need, uint32_t from)
{
	int64_t z1 = (int64_t)from + 1, z2 = (int64_t)from - 1;
	int64_t last = zbd->max_zone, first = zbd->min_zone;

	for (; z1 < last || z2 >= first; z1++, z2--) {
		if (z1 < last && !zbd->z[z1].offline) {
			wait_zone(zbd, &zbd->z[z1]);
			if (zbd->z[z1].start + need <= zbd->z[z1].wp)
				return &zbd->z[z1];
		} else if (!zbd->random) {
			break;
		}
		if (!zbd->random || z2 < first || zbd->z[z2].offline)
			continue;
		wait_zone(zbd, &zbd->z[z2]);
		if (zbd->z[z2].start + need <= zbd->z[z2].wp)
			return &zbd->z[z2];
	}
	return NULL;
}

/**
 * bq_zbd_adjust_dir() - fio's first read of a mixed job on empty zones is a write
 * @zbd: the zones
 * @dir: the direction drawn
 *
 * Return: the direction to do.
 */
int bq_zbd_adjust_dir(const struct bq_zbd *zbd, int dir)
{
	if (dir != BQ_READ || !zbd->mixed)
		return dir;
	return zbd->sh->swd || zbd->read_beyond_wp ? BQ_READ : BQ_WRITE;
}

/**
 * bq_zbd_seq_jump() - a sequential writer at a zone's capacity goes on at its end
 * @zbd: the zones
 * @base: the region's start (@last_pos counts from there)
 * @dir: the direction
 * @last_pos: the sequential position, moved when the zone's capacity is reached
 */
void bq_zbd_seq_jump(const struct bq_zbd *zbd, uint64_t base, int dir, uint64_t *last_pos)
{
	uint32_t i = zone_idx(zbd, base + *last_pos);
	const struct bq_zbd_zone *z = &zbd->z[i];

	if (i < zbd->nr && z->cap < zbd->zone_size && !zbd->random && dir == BQ_WRITE &&
	    !zbd->trims &&
	    base + *last_pos >= cap_end(z))
		*last_pos = z[1].start - base;
}

/* A write to a conventional zone must not run into the sequential zone after it. */
static int conventional_write(struct bq_zbd *zbd, struct bq_zbd_zone *z, uint64_t *off,
			      uint32_t *len)
{
	uint64_t min_bs = zbd->min_bs[BQ_WRITE], next = z[1].start, n;

	if (!z[1].has_wp || *off + *len <= next)
		return 0;
	if (*off + min_bs > next) {
		*off = z->start + next - *off;
		n = *len < next - *off ? *len : next - *off;
	} else {
		n = next - *off;
	}
	*len = (uint32_t)(n / min_bs * min_bs);
	return 0;
}

static int adjust_read(struct bq_zbd *zbd, struct bq_zbd_zone **zp, uint64_t *off,
		       uint32_t *len)
{
	struct bq_zbd_zone *zb = *zp;
	uint64_t min_bs = zbd->min_bs[BQ_READ], range, n;
	const struct bq_zbd_zone *orig = zb;

	range = zb->offline ? 0 : zb->wp - zb->start;
	if (range < min_bs || (!zbd->random && *off + min_bs > zb->wp)) {
		zb = find_data_zone(zbd, min_bs, (uint32_t)(zb - zbd->z));
		if (!zb)
			return -ENOSPC;
		*zp = zb;
		range = zb->wp - zb->start;
		if (!zbd->random)
			*off = zb->start;
	}
	if (range <= *len)
		*off = zb->start;
	else if (zbd->random)
		*off = zb->start + ((*off - orig->start) % (range - *len)) / min_bs * min_bs;
	if (!zb->has_wp)
		return 0;
	n = *len < zb->wp - *off ? *len : zb->wp - *off;
	n = n / min_bs * min_bs;
	if (n < *len)
		*len = (uint32_t)n;
	return 0;
}

/*
 * fio's trim on zones: a random trim of an empty zone goes to the nearest
 * zone with data instead (none: the job ends); the trim itself is a zone
 * reset (bq_zbd_trim()).
 */
static int adjust_trim(struct bq_zbd *zbd, struct bq_zbd_zone **zp, uint64_t *off)
{
	struct bq_zbd_zone *zb = *zp;

	if (!zbd->random || zb->wp > zb->start)
		return 0;
	zb = find_data_zone(zbd, 1, (uint32_t)(zb - zbd->z));
	if (!zb)
		return -ENOSPC;
	*zp = zb;
	*off = zb->start;
	return 0;
}

static int adjust_write(struct bq_zbd *zbd, struct bq_zbd_zone **zp, uint64_t *off,
			uint32_t *len)
{
	struct bq_zbd_zone *zb = *zp;
	uint64_t min_bs = zbd->min_bs[BQ_WRITE], n;
	bool reset = false;

	if (*len > zbd->zone_size)
		return -EINVAL;
	if (!open_zone(zbd, zb)) {
		zb = convert_to_open(zbd, *off, min_bs);
		if (!zb)
			return -ENOSPC;
		*zp = zb;
	}
	/* zone_reset_frequency: past the threshold, every 1/frequency-th write resets. */
	if (zbd->reset_frequency &&
	    (double)zbd->sh->wp_swd >= (double)zbd->io_size * zbd->reset_threshold) {
		if (zbd->sh->write_cnt)
			zbd->sh->write_cnt--;
		if (!zbd->sh->write_cnt) {
			zbd->sh->write_cnt = (uint32_t)(1.0 / zbd->reset_frequency);
			reset = true;
		}
	}
	if (reset || zone_full(zb, min_bs)) {
		int ret = reset_zone(zbd, zb);

		if (ret)
			return ret;
		if (zb->cap < min_bs)
			return -EINVAL;
	}
	*off = zb->wp;
	if (!valid_offset(zbd, *off))
		return -EINVAL;
	n = *len < cap_end(zb) - *off ? *len : cap_end(zb) - *off;
	n = n / min_bs * min_bs;
	if (n == *len)
		return 0;
	if (n < min_bs)
		return -EIO;
	*len = (uint32_t)n;
	return 0;
}

/**
 * bq_zbd_adjust() - where an I/O goes on the zones, as fio's zbd_adjust_block()
 * @zbd: the zones
 * @dir: the direction
 * @off: the byte offset drawn on the target; moved (a write to its zone's
 *	 write pointer, a read below it)
 * @len: the length; shortened to what the zone has room or data for
 *
 * A zone that is full is reset first (BLKRESETZONE on a zoned device).
 *
 * Return: 0, or -errno when the job has nowhere to go (fio's end of the
 * job): -ENOSPC no zone can take it, -EINVAL or -EIO a size that cannot
 * fit, or the reset's error.
 */
int bq_zbd_adjust(struct bq_zbd *zbd, int dir, uint64_t *off, uint32_t *len)
{
	struct bq_zbd_zone *zb = &zbd->z[zone_idx(zbd, *off)];
	int ret;

	if (!zb->has_wp)
		return dir == BQ_WRITE && !zbd->trims ? conventional_write(zbd, zb, off, len) : 0;
	if (!zb->offline && dir == BQ_READ && zbd->read_beyond_wp)
		return 0;
	pthread_mutex_lock(&zbd->sh->lock);
	wait_zone(zbd, zb);
	if (zbd->trims)
		ret = adjust_trim(zbd, &zb, off);
	else if (dir == BQ_READ)
		ret = adjust_read(zbd, &zb, off, len);
	else
		ret = adjust_write(zbd, &zb, off, len);
	/* Held until the I/O completes (bq_zbd_complete()). */
	if (!ret && zb->has_wp)
		zb->busy = zbd->tid + 1;
	pthread_mutex_unlock(&zbd->sh->lock);
	return ret;
}

/**
 * bq_zbd_issued() - a write was issued: its zone's write pointer moves
 * @zbd: the zones
 * @dir: the direction
 * @off: its byte offset on the target
 * @len: its length
 *
 * A zone filled to its capacity is closed, so another can be opened.
 */
void bq_zbd_issued(struct bq_zbd *zbd, int dir, uint64_t off, uint32_t len)
{
	struct bq_zbd_zone *z = &zbd->z[zone_idx(zbd, off)];
	uint64_t end;

	if (dir != BQ_WRITE || !z->has_wp || zbd->trims)
		return;
	pthread_mutex_lock(&zbd->sh->lock);
	end = off + len < cap_end(z) ? off + len : cap_end(z);
	if (z->wp <= end) {
		zbd->sh->swd += end - z->wp;
		zbd->sh->wp_swd += end - z->wp;
	}
	z->wp = end;
	if (off + len >= cap_end(z))
		close_zone(zbd, z);
	pthread_mutex_unlock(&zbd->sh->lock);
}

/**
 * bq_zbd_complete() - an I/O completed: its zone is free for other threads
 * @zbd: the zones
 * @off: the I/O's byte offset on the target
 */
void bq_zbd_complete(struct bq_zbd *zbd, uint64_t off)
{
	struct bq_zbd_zone *z = &zbd->z[zone_idx(zbd, off)];

	if (!z->has_wp)
		return;
	pthread_mutex_lock(&zbd->sh->lock);
	if (z->busy == zbd->tid + 1) {
		z->busy = 0;
		pthread_cond_broadcast(&zbd->sh->idle);
	}
	pthread_mutex_unlock(&zbd->sh->lock);
}

/**
 * bq_zbd_trim() - a trim on zones, as fio does it: a zone reset
 * @zbd: the zones
 * @off: the trim's byte offset, where bq_zbd_adjust() put it
 * @len: its length (the zone size, as bq_zbd_check() made sure)
 *
 * A trim of a sequential zone resets it (BLKRESETZONE on a zoned device,
 * through the job's guarded descriptor); an empty one needs nothing.
 * The zone is free for the other threads afterwards.
 *
 * Return: 0 done, 1 a conventional zone (the caller discards it as any
 * trim), -EINVAL an offset that is not a zone start, or the reset's error.
 */
int bq_zbd_trim(struct bq_zbd *zbd, uint64_t off, uint32_t len)
{
	struct bq_zbd_zone *z = &zbd->z[zone_idx(zbd, off)];
	int ret;

	(void)len;
	if (!z->has_wp)
		return 1;
	pthread_mutex_lock(&zbd->sh->lock);
	ret = off == z->start ? reset_zone(zbd, z) : -EINVAL;
	if (z->busy == zbd->tid + 1) {
		z->busy = 0;
		pthread_cond_broadcast(&zbd->sh->idle);
	}
	pthread_mutex_unlock(&zbd->sh->lock);
	return ret;
}

/*
 * The zones an earlier job of the run set up on this target, when they
 * are the ones this job would have (the same zone size and capacity).
 */
static const struct bq_zbd *find_owner(const struct bq_job *j, const struct bq_target_info *ti)
{
	const struct bq_zbd *found = NULL;
	struct bq_zbd_shared *sh;
	dev_t dev;
	ino_t ino;

	target_key(ti, &dev, &ino);
	pthread_mutex_lock(&shared_lock);
	for (sh = shared_zones; sh; sh = sh->next)
		if (sh->dev == dev && sh->ino == ino)
			break;
	pthread_mutex_unlock(&shared_lock);
	if (!sh)
		return NULL;
	found = sh->owner;
	if (found->model == BQ_ZBD_NONE &&
	    (j->zone_size != found->zone_size ||
	     (j->zone_capacity ? j->zone_capacity : j->zone_size) != found->z[0].cap))
		return NULL;
	return found;
}

/* One more thread shares @sh: its index, or -ENOMEM. */
static int add_thread(struct bq_zbd_shared *sh)
{
	unsigned int *t = realloc(sh->thread_open, (sh->nr_threads + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	t[sh->nr_threads] = 0;
	sh->thread_open = t;
	return (int)sh->nr_threads++;
}

/**
 * bq_zbd_worker_init() - a zonemode=zbd thread's zones, before its offsets
 * @w: the worker, its descriptor set
 * @ti: its target
 * @f: its file state, @f->base and @f->span set; aligned to whole zones
 *     for a writing job, as fio does
 *
 * The run checked the job with bq_zbd_load() already, so a failure here
 * is one of memory or of the device since.
 *
 * Return: 0 or -errno.
 */
int bq_zbd_worker_init(struct bq_worker *w, const struct bq_target_info *ti,
		       struct bq_file_state *f)
{
	const struct bq_zbd *owner;
	int ret, tid;

	w->zbd = calloc(1, sizeof(*w->zbd));
	if (!w->zbd)
		return -ENOMEM;
	/* The job's workers are consecutive: thread 0's zones are shared. */
	owner = w->index ? (w - w->index)->zbd : find_owner(w->job, ti);
	if (w->index && !owner) {
		free(w->zbd);
		w->zbd = NULL;
		return -EINVAL;
	}
	tid = owner ? add_thread(owner->sh) : 0;
	ret = tid < 0 ? tid : zbd_setup(w->zbd, w->job, w->fds[0], ti, &f->base, &f->span,
					owner, tid, true, !w->index, NULL);
	if (ret) {
		free(w->zbd);
		w->zbd = NULL;
		return ret;
	}
	if (!owner) {
		struct bq_zbd_shared *sh = w->zbd->sh;

		target_key(ti, &sh->dev, &sh->ino);
		sh->owner = w->zbd;
		pthread_mutex_lock(&shared_lock);
		sh->next = shared_zones;
		shared_zones = sh;
		pthread_mutex_unlock(&shared_lock);
	}
	f->limit = ti->size - f->base;
	/* A reset must not overtake a write to its zone: one I/O at a time. */
	w->depth = 1;
	return 0;
}

/**
 * bq_zbd_worker_free() - free a thread's zones
 * @w: the worker
 */
void bq_zbd_worker_free(struct bq_worker *w)
{
	if (!w->zbd)
		return;
	bq_zbd_free(w->zbd);
	free(w->zbd);
	w->zbd = NULL;
}

/**
 * bq_zbd_zone_units() - the zone counts of a job ("size=8z") in bytes
 * @j: the job; its size, io_size, offset, offset_increment and zone_skip
 *     are set from its *_nz counts
 * @fd: its first target, open
 * @ti: what that is
 * @err: filled in on failure
 *
 * A zone is the device's with zonemode=zbd on a zoned device, else
 * zonesize bytes, as fio counts them once it has the zones.  Without a
 * zone size the options stay 0, as they do in fio (size=0: the rest of
 * the target).
 *
 * Return: 0 or -EINVAL (a count of bytes past 64 bits, or a zoned device
 * that reports no zone size).
 */
int bq_zbd_zone_units(struct bq_job *j, int fd, const struct bq_target_info *ti,
		      struct bq_parse_error *err)
{
	uint32_t counts[] = { j->size_nz, j->io_size_nz, j->offset_nz,
			      j->offset_increment_nz, j->zone_skip_nz };
	uint64_t *fields[] = { &j->size, &j->io_size, &j->offset,
			       &j->offset_increment, &j->zone_skip };
	uint64_t zs = j->zone_size;

	if (!(j->size_nz | j->io_size_nz | j->offset_nz | j->offset_increment_nz |
	      j->zone_skip_nz))
		return 0;
	if (j->zonemode == BQ_ZONEMODE_ZBD && ti->nsid) {
		struct bq_nvme_zns zns;
		int ret = nvme_zoned(fd, ti, &zns);

		if (ret < 0)
			return bq_fail_at(err, ti->path, ret, "zonemode=zbd: Identify of the zoned "
					  "namespace: %s", strerror(-ret));
		if (ret != BQ_ZBD_NONE)
			zs = zns.zone_lbas * zns.lba_size;
	} else if (j->zonemode == BQ_ZONEMODE_ZBD && zoned_model(ti) != BQ_ZBD_NONE) {
		uint32_t sectors = 0;

		if (ioctl(fd, BLKGETZONESZ, &sectors) || !sectors)
			return bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: the kernel "
					  "reports no zone size for this zoned device");
		zs = (uint64_t)sectors << 9;
	}
	if (!zs)
		return 0;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (!counts[i])
			continue;
		if (counts[i] > UINT64_MAX / zs)
			return bq_fail_at(err, ti->path, -EINVAL, "%" PRIu32 " zones of %" PRIu64
					  " bytes do not fit in 64 bits", counts[i], zs);
		*fields[i] = counts[i] * zs;
	}
	return 0;
}

/**
 * bq_zbd_check() - a zonemode=zbd job fits its target, before the run
 * @j: the job
 * @fd: the target, open
 * @ti: what it is
 * @span: the job's region in bytes
 * @err: filled in on failure
 *
 * Return: 0 or -errno, with @err saying why.
 */
int bq_zbd_check(const struct bq_job *j, int fd, const struct bq_target_info *ti,
		 uint64_t span, struct bq_parse_error *err)
{
	struct bq_zbd zbd;
	uint64_t base = j->offset;
	int ret;

	if (j->zonemode != BQ_ZONEMODE_ZBD)
		return 0;
	if (j->stripe)
		return bq_fail_at(err, ti->path, -EOPNOTSUPP, "zonemode=zbd with --stripe is "
				  "not supported");
	if (bq_engine_has(j->engine, BQ_ENGINE_DISKLESS) || !ti->size)
		return 0;
	ret = bq_zbd_load(&zbd, j, fd, ti, &base, &span, err);
	if (ret)
		return ret;
	if (bq_job_writes(j) && zbd.min_bs[BQ_WRITE] > zbd.zone_size)
		ret = bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd: block size %" PRIu64
				 " is larger than the zone size %" PRIu64,
				 zbd.min_bs[BQ_WRITE], zbd.zone_size);
	/* fio's zbd_verify_bs(): a trim is a reset of one whole zone. */
	if (!ret && j->trim != BQ_TRIM_NONE &&
	    (j->bs_min[BQ_WRITE] != j->bs_max[BQ_WRITE] || j->nr_bssplit[BQ_WRITE]))
		ret = bq_fail_at(err, ti->path, -EINVAL, "bsrange and bssplit are not allowed "
				 "for trim with zonemode=zbd");
	if (!ret && j->trim != BQ_TRIM_NONE && j->bs[BQ_WRITE] != zbd.zone_size)
		ret = bq_fail_at(err, ti->path, -EINVAL, "trim block size %" PRIu32 " is not the "
				 "zone size %" PRIu64, j->bs[BQ_WRITE], zbd.zone_size);
	/* fio's zbd_verify_bs(): with verify=, every block size divides the zone size. */
	for (int d = 0; !ret && j->verify != BQ_VERIFY_NONE && d < BQ_NR_DIRS; d++)
		if (j->bs[d] && zbd.zone_size % j->bs[d])
			ret = bq_fail_at(err, ti->path, -EINVAL, "zonemode=zbd with verify: block "
					 "size %" PRIu64 " is not a divisor of the zone size %"
					 PRIu64, (uint64_t)j->bs[d], zbd.zone_size);
	bq_zbd_free(&zbd);
	return ret;
}
