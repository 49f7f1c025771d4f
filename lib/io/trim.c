// SPDX-License-Identifier: GPL-2.0-only
/*
 * trim.c - fio's trim workloads: rw=trim, randtrim, trimwrite, randtrimwrite
 *
 * A trim job is a write job (rw= keeps write or randwrite, so that its
 * targets are opened through the data-safety guard as writes are) whose
 * picked I/Os are discards.  As fio 3.33 does for every engine blkqual
 * has, a discard is issued synchronously by the thread: BLKDISCARD on a
 * block device, and on a regular file a punched hole (where fio's
 * BLKDISCARD fails with ENOTTY); with io_uring_cmd, NVMe Dataset Management
 * (trim_nvme.c).  Only the writes of trimwrite reach the
 * engine.  Discards go through the job's descriptors, which for a
 * writing job are the guard's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "zbd.h"

const char *bq_job_trim_rw_name(const struct bq_job *j)
{
	bool rnd = j->rw == BQ_RW_RANDWRITE;

	switch (j->trim) {
	case BQ_TRIM_ONLY:
		return rnd ? "randtrim" : "trim";
	case BQ_TRIM_WRITE:
		return rnd ? "randtrimwrite" : "trimwrite";
	default:
		return NULL;
	}
}

/* One discard; 0 or -errno. */
static int trim_issue(struct bq_worker *w, const struct bq_slot *s)
{
	uint64_t range[2] = { s->offset, s->len };
	int fd;

	/* The nop engine has no target: its trims cost nothing, as fio's null engine's. */
	if (!w->nr_fds)
		return 0;
	/* zonemode=zbd: fio trims a sequential zone by resetting it (zbd.c). */
	if (w->zbd) {
		int ret = bq_zbd_trim(w->zbd, s->offset, s->len);

		w->res->zone_resets = w->zbd->resets;
		if (ret <= 0)
			return ret;
	}
	fd = w->fds[s->file];
	if (worker_file_is_blockdev(w, s->file)) {
		if (!ioctl(fd, BLKDISCARD, range))
			return 0;
		/*
		 * The guard holds the device exclusively, so the kernel can only
		 * invalidate the range's cached pages, not drop them, and dirty
		 * ones (buffered writes, another thread's) make that EBUSY.
		 * Written back, they go: then the discard is what fio's is.
		 */
		if (errno != EBUSY || fdatasync(fd))
			return -errno;
		return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
	}
	/* KEEP_SIZE: a trim frees blocks, it never shortens the file. */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)s->offset,
		      (off_t)s->len))
		return -errno;
	return 0;
}

/* Count one finished discard in the trim direction. */
static void trim_complete(struct bq_worker *w, const struct bq_slot *s, int ret,
			  uint64_t bytes, uint64_t start, uint64_t now)
{
	struct bq_dir_result *d = &w->res->trim;

	if (__builtin_expect(w->ramping, 0) && now >= w->ramp_end_ns)
		worker_end_ramp(w, now);
	if (ret) {
		/* Listed with the I/O errors (as writes), counted as trims. */
		worker_record_error(w, s, -ret);
		w->res->d[s->dir].errors--;
		d->errors++;
		return;
	}
	d->ios++;
	d->bytes += bytes;
	if (!w->job->gtod_reduce)
		bq_hist_add(&d->lat, now - start);
}

/**
 * worker_trim_now() - one discard now, counted in the trim direction
 * @w: the worker
 * @s: what to discard (offset, length, file; dir BQ_WRITE for the error list)
 * @now: current time
 *
 * For trims a job's verification asks for (lib/verify/verify_trim.c).
 *
 * Return: 0 or -errno.
 */
int worker_trim_now(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	uint64_t start = w->job->gtod_reduce ? now : worker_now(w), bytes = s->len;
	int ret;

	if (bq_engine_has(w->job->engine, BQ_ENGINE_PASSTHRU))
		ret = bq_trim_nvme(w, s, &bytes, now);
	else
		ret = trim_issue(w, s);
	trim_complete(w, s, ret, bytes, start, worker_now(w));
	return ret;
}

/**
 * worker_trim_next() - the next write to issue, after the trims before it
 * @w: the worker of a job with trims
 * @s: filled in as worker_pick() does
 * @now: current time
 *
 * Trims are done here, one at a time, as the workload picks them; a
 * trim-only job therefore returns false once its trims are done.  With
 * trimwrite the write of each trimmed block follows its trim, same offset
 * and length.  As in fio, size, io_size and number_ios count the trims
 * alone: fio doubles them for trimwrite, each byte trimmed, then written.
 *
 * Return: true with a write in @s, false when the thread is done.
 */
bool worker_trim_next(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	const struct bq_job *j = w->job;

	for (;;) {
		uint64_t start, bytes = 0;
		int ret;

		if (w->trim_write_due) {
			w->trim_write_due = false;
			if (w->stopping || *w->stop || (w->end_ns && now >= w->end_ns))
				return false;
			s->offset = w->trim_pair.offset;
			s->file = w->trim_pair.file;
			s->len = w->trim_pair.len;
			s->dir = BQ_WRITE;
			return true;
		}
		if (!worker_pick(w, s, now))
			return false;
		if (!bq_trim_rate_wait(w, s->len))
			return false;
		start = j->gtod_reduce ? now : worker_now(w);
		if (bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU)) {
			ret = bq_trim_nvme(w, s, &bytes, now);
		} else {
			ret = trim_issue(w, s);
			bytes = s->len;
		}
		now = worker_now(w);
		trim_complete(w, s, ret, bytes, start, now);
		if (j->trim == BQ_TRIM_WRITE) {
			w->trim_pair = *s;
			w->trim_write_due = true;
		}
	}
}
