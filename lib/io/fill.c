// SPDX-License-Identifier: GPL-2.0-only
/*
 * fill.c - fill_device and fill_fs: write until the target is full
 *
 * fio makes the job's size unbounded and ends it at the first ENOSPC or
 * EDQUOT, which it does not count as an error.  On a block device that is
 * its end; on a file, the end of its filesystem's free space.  Here the
 * region of a file is the free space (rounded up by a block, so the end
 * comes as ENOSPC, as in fio), and the first full write stops the thread;
 * what was written is what counts.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine.h"
#include "fill.h"
#include "target.h"

int bq_fill_prepare(const struct bq_job *j, int fd, struct bq_target_info *ti,
		    struct bq_parse_error *err)
{
	uint64_t bs = j->bs_max[BQ_WRITE] ? j->bs_max[BQ_WRITE] : 4096, room;
	struct statvfs vfs;

	if (!j->fill_device)
		return 0;
	/*
	 * A device is written to its end, and as fio's unbounded region does,
	 * no shortened block at the end: the write that does not fit whole
	 * fails there and is not counted.
	 */
	if (!S_ISREG(ti->st.st_mode)) {
		if (!j->size && ti->size > j->offset)
			ti->size = j->offset + (ti->size - j->offset) / bs * bs;
		return 0;
	}
	/* fio would lay the file out to ENOSPC first: a write to a file the guard did not pass. */
	if (!bq_job_writes(j))
		return bq_fail_at(err, ti->path, -EOPNOTSUPP, "fill_device: a job that only "
				  "reads a file cannot fill it here (use rw=write first)");
	/* fio unlinks and makes the file again; emptied through the guard's descriptor. */
	if (ftruncate(fd, 0) || fstatvfs(fd, &vfs))
		return bq_fail_at(err, ti->path, -errno, "fill_device: %s", strerror(errno));
	room = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	room = (room + bs - 1) / bs * bs + bs;
	if (j->size && j->size < room)
		room = j->size;
	ti->size = j->offset + room;
	ti->st.st_size = 0;
	ti->laid_out = false;
	return 0;
}

bool bq_fill_full(struct bq_worker *w, const struct bq_slot *s, int err)
{
	if (!w->job->fill_device || s->dir != BQ_WRITE || (err != ENOSPC && err != EDQUOT))
		return false;
	w->stopping = true;
	return true;
}
