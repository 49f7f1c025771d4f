// SPDX-License-Identifier: GPL-2.0-only
/*
 * sg.c - fio's "sg" engine: SCSI commands through the sg interface
 *
 * On a SCSI generic node (/dev/sgN) each I/O is an sg_io_hdr written to
 * the node and its answer read back, so that up to iodepth commands are
 * in flight; with direct=1 or sync=1 fio waits for each answer before
 * the next command, and so does this.  On a SCSI disk's block device
 * (/dev/sdX) each I/O is one SG_IO ioctl, which waits.  The commands are
 * built in lib/io/scsi.c.  A failed command is counted with its offset
 * and the sense key, ASC and ASCQ the device returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include <scsi/sg.h>

#include "blkqual_guard.h"
#include "io/engine.h"
#include "io/scsi.h"

/* The sg v4 driver's polled-completion flag; older drivers ignore it. */
#define SGV4_FLAG_HIPRI		0x800
#define SG_TIMEOUT_MS		30000

struct sg_cmd {
	struct sg_io_hdr h;
	struct bq_scsi_rw rw;
	uint8_t sense[BQ_SCSI_SENSE_MAX];
};

/*
 * @lbs, @chr: per file, its logical block size and whether it is an sg node
 * @async: commands to sg nodes are queued (direct=0 and sync=0, as in fio)
 */
struct sg_state {
	struct sg_cmd *cmds;
	uint16_t *free_slots;
	unsigned int nr_free;
	uint32_t lbs[BQ_MAX_FILES];
	bool chr[BQ_MAX_FILES];
	unsigned int inflight_on[BQ_MAX_FILES];
	bool async;
	struct pollfd pfds[BQ_MAX_FILES];
	int own_fds[BQ_MAX_FILES];
	int nr_own;
};

static void sg_teardown(struct bq_worker *w)
{
	struct sg_state *st = w->engine;

	if (!st)
		return;
	for (int i = 0; i < st->nr_own; i++)
		close(st->own_fds[i]);
	free(st->cmds);
	free(st->free_slots);
	free(st);
	w->engine = NULL;
}

static int sg_setup(struct bq_worker *w)
{
	struct sg_state *st = calloc(1, sizeof(*st));

	if (!st) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "out of memory");
		return -ENOMEM;
	}
	w->engine = st;
	st->cmds = calloc(w->depth, sizeof(*st->cmds));
	st->free_slots = calloc(w->depth, sizeof(*st->free_slots));
	if (!st->cmds || !st->free_slots) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < w->depth; i++)
		st->free_slots[i] = (uint16_t)(w->depth - 1 - i);
	st->nr_free = w->depth;
	st->async = !w->job->direct && !w->job->sync;
	for (int i = 0; i < w->nr_fds; i++) {
		struct stat sb;
		uint64_t blocks;
		int lbs = 0, version, ret = 0;

		if (fstat(w->fds[i], &sb))
			ret = -errno;
		/* A SCSI disk's block device answers the sg version too; a loop device does not. */
		else if (ioctl(w->fds[i], SG_GET_VERSION_NUM, &version) || version < 30000)
			ret = -ENOTTY;
		else if (S_ISBLK(sb.st_mode))
			ret = ioctl(w->fds[i], BLKSSZGET, &lbs) ? -errno : 0;
		else if (!S_ISCHR(sb.st_mode))
			ret = -ENOTTY;
		else
			ret = bq_scsi_read_capacity(w->fds[i], &blocks, (uint32_t *)&lbs);
		if (ret || lbs < 512) {
			snprintf(w->setup_msg, sizeof(w->setup_msg),
				 "ioengine=sg: file %d is not a SCSI disk or sg node: %s", i + 1,
				 strerror(ret ? -ret : EINVAL));
			return ret ? ret : -EINVAL;
		}
		st->lbs[i] = (uint32_t)lbs;
		st->chr[i] = S_ISCHR(sb.st_mode);
		/*
		 * An sg node answers on the open file the command was written
		 * to: each thread reopens the job's (guarded) node, so that it
		 * reads back its own commands and no other thread's.
		 */
		if (st->chr[i]) {
			int fd = bq_fd_reopen(w->fds[i], O_RDWR);

			if (fd < 0) {
				snprintf(w->setup_msg, sizeof(w->setup_msg),
					 "cannot open file %d again for this thread: %s", i + 1,
					 strerror(-fd));
				return fd;
			}
			st->own_fds[st->nr_own++] = fd;
			w->fds[i] = fd;
		}
		st->pfds[i].fd = w->fds[i];
	}
	return 0;
}

/* The command of one I/O, in its slot's header. */
static int sg_prep(struct bq_worker *w, struct sg_state *st, unsigned int idx,
		   const struct bq_slot *s)
{
	const struct bq_job *j = w->job;
	struct sg_cmd *c = &st->cmds[idx];
	uint32_t lbs = st->lbs[s->file];
	bool write = s->dir == BQ_WRITE;
	int ret;

	/* Only reads and writes are commands here (no UNMAP yet). */
	if (s->dir != BQ_READ && s->dir != BQ_WRITE)
		return -EOPNOTSUPP;
	/* fio refuses these too ("not sector aligned"). */
	if (s->len % lbs || s->offset % lbs)
		return -EINVAL;
	ret = bq_scsi_build_rw(&c->rw, write, s->offset / lbs, s->len / lbs, lbs,
			       j->sg_write_mode, j->fua[s->dir]);
	if (ret)
		return ret == -ERANGE ? -EINVAL : ret;
	memset(&c->h, 0, sizeof(c->h));
	c->h.interface_id = 'S';
	c->h.cmdp = c->rw.cdb;
	c->h.cmd_len = c->rw.cdb_len;
	c->h.sbp = c->sense;
	c->h.mx_sb_len = sizeof(c->sense);
	c->h.timeout = SG_TIMEOUT_MS;
	c->h.pack_id = (int)idx;
	c->h.usr_ptr = (void *)(uintptr_t)idx;
	c->h.dxferp = w->bufs + (size_t)idx * w->buf_len;
	c->h.dxfer_len = c->rw.xfer;
	c->h.dxfer_direction = !c->rw.xfer ? SG_DXFER_NONE :
			       write ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
	/* As in fio: READ and plain WRITE only, never VERIFY or WRITE SAME. */
	if (j->poll == BQ_POLL_ON && (!write || j->sg_write_mode == BQ_SG_WRITE))
		c->h.flags |= SGV4_FLAG_HIPRI;
	return 0;
}

/* What a finished command means for its I/O: its length, or -errno. */
static int sg_result(struct bq_worker *w, const struct sg_cmd *c, const struct bq_slot *s)
{
	if ((c->h.info & SG_INFO_OK_MASK) == SG_INFO_OK && !c->h.status &&
	    !c->h.host_status && !c->h.driver_status)
		return (int)s->len;
	w->sense = bq_scsi_sense(c->sense, c->h.sb_len_wr);
	return -EIO;
}

static void sg_finish(struct bq_worker *w, struct sg_state *st, unsigned int idx, int res,
		      uint64_t now)
{
	struct bq_slot *s = &w->slots[idx];

	worker_complete(w, s, res, now);
	w->sense = 0;
	slot_done(s);
	st->free_slots[st->nr_free++] = (uint16_t)idx;
}

/* One command, waited for: SG_IO on a block device, write then read on an sg node. */
static int sg_do_sync(struct bq_worker *w, struct sg_state *st, unsigned int idx,
		      const struct bq_slot *s)
{
	struct sg_cmd *c = &st->cmds[idx];
	int fd = w->fds[s->file];

	if (!st->chr[s->file]) {
		if (ioctl(fd, SG_IO, &c->h) < 0)
			return -errno;
	} else {
		if (write(fd, &c->h, sizeof(c->h)) < 0)
			return -errno;
		if (read(fd, &c->h, sizeof(c->h)) < 0)
			return -errno;
	}
	return sg_result(w, c, s);
}

/* Read back every answer that is ready; wait for one when none is. */
static int sg_reap(struct bq_worker *w, struct sg_state *st, unsigned int *inflight,
		   bool stamps)
{
	int n;

	for (int i = 0; i < w->nr_fds; i++)
		st->pfds[i].events = st->inflight_on[i] ? POLLIN : 0;
	n = poll(st->pfds, (nfds_t)w->nr_fds, -1);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0; i < w->nr_fds; i++) {
		struct sg_io_hdr h;
		unsigned int idx;
		uint64_t now;

		if (!(st->pfds[i].revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		if (read(w->fds[i], &h, sizeof(h)) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		idx = (unsigned int)(uintptr_t)h.usr_ptr;
		if (idx >= w->depth)
			return -EIO;
		st->cmds[idx].h = h;
		now = stamps ? worker_now(w) : 0;
		sg_finish(w, st, idx, sg_result(w, &st->cmds[idx], &w->slots[idx]), now);
		st->inflight_on[i]--;
		(*inflight)--;
	}
	return 0;
}

static int sg_loop(struct bq_worker *w)
{
	struct sg_state *st = w->engine;
	bool issuing = true, stamps = !w->job->gtod_reduce;
	unsigned int inflight = 0;
	uint64_t now = worker_now(w);

	for (;;) {
		int ret;

		while (issuing && st->nr_free) {
			unsigned int idx = st->free_slots[st->nr_free - 1];
			struct bq_slot *s = &w->slots[idx];

			if (!worker_may_start(w, inflight, now))
				break;
			if (!worker_next(w, s, now)) {
				issuing = false;
				break;
			}
			st->nr_free--;
			if (stamps)
				now = worker_now(w);
			slot_issued(s, now);
			ret = sg_prep(w, st, idx, s);
			if (!ret && (!st->async || !st->chr[s->file])) {
				ret = sg_do_sync(w, st, idx, s);
				now = worker_now(w);
				sg_finish(w, st, idx, ret, stamps ? now : 0);
				continue;
			}
			if (!ret && write(w->fds[s->file], &st->cmds[idx].h,
					  sizeof(st->cmds[idx].h)) < 0)
				ret = -errno;
			if (ret) {
				sg_finish(w, st, idx, ret, stamps ? worker_now(w) : 0);
				continue;
			}
			st->inflight_on[s->file]++;
			inflight++;
		}
		if (!inflight) {
			if (!issuing)
				return 0;
			if (now < w->next_submit_ns)
				worker_sleep_until(w, w->next_submit_ns);
			now = worker_now(w);
			continue;
		}
		worker_depth_sample(w, inflight);
		ret = sg_reap(w, st, &inflight, stamps);
		if (ret)
			return ret;
		now = worker_now(w);
	}
}

const struct bq_engine_ops bq_engine_sg = {
	.name = "sg",
	.setup = sg_setup,
	.loop = sg_loop,
	.teardown = sg_teardown,
};
