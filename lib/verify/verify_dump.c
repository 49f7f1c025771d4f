// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_dump.c - verify_dump=1: a bad block's image as read and as it
 * was written, each in a file of its own, named as fio names them
 *
 * fio writes TARGET.OFFSET.received and TARGET.OFFSET.expected (TARGET
 * the target's last path component, OFFSET the block's byte offset in it,
 * in decimal) to the current directory.  The expected image is rebuilt
 * from what the block should hold: its offset, the run's seed and the
 * generation the state expects, with the header's time and thread taken
 * from what was read when that header survived (and the seed too, when
 * the job has no state to know it), as fio takes its seed from the
 * header it read.  Files are only ever made new (output.c): an
 * existing name is left alone and the report says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engine.h"
#include "verify_int.h"

/* Dumps per job: a device that lost everything must not fill a directory. */
#define MAX_DUMPS 16

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int dump_one(const char *name, const uint8_t *buf, size_t len)
{
	int fd = bq_guard_create_output(AT_FDCWD, name), ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, buf, len);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* The generation the block should hold: the one read, if the state allows it. */
static uint64_t expected_gen(const struct bq_vbad *bad)
{
	const struct bq_vexpect *e = &bad->expected;

	if (!e->have_gen)
		return bad->found_header ? bad->found.generation : 0;
	if (bad->found_header && bad->found.generation >= e->gen_lo &&
	    bad->found.generation <= e->gen_hi)
		return bad->found.generation;
	return e->gen_hi;
}

/* The run's seed; a job without a state learns it from the header read. */
static uint64_t expected_seed(const struct bq_vjob *vj, const struct bq_vbad *bad)
{
	if (bad->expected.have_seed)
		return bad->expected.seed;
	return bad->found_header ? bad->found.seed : vj->seed;
}

/**
 * bq_verify_dump() - write a bad block's two images, when the job asks
 * @w: the worker that read it
 * @vj: its job's verify data
 * @file: the target it was read from
 * @blk: the block as read (header in place)
 * @p: the parameters it was judged with
 * @bad: what bq_verify_block() found
 */
void bq_verify_dump(struct bq_worker *w, struct bq_vjob *vj, int file, const uint8_t *blk,
		    const struct bq_vparams *p, const struct bq_vbad *bad)
{
	const struct bq_run_opts *o = w->run_opts;
	const struct bq_job_result *jr = w->jr;
	char exp_name[NAME_MAX + 1], got_name[NAME_MAX + 1], cwd[PATH_MAX];
	char exp_path[PATH_MAX + NAME_MAX + 2], got_path[PATH_MAX + NAME_MAX + 2];
	const char *path, *base;
	uint8_t *img = NULL;
	int ret;

	if (!w->job->verify_dump ||
	    __atomic_fetch_add(&vj->dumps, 1, __ATOMIC_RELAXED) >= MAX_DUMPS)
		return;
	path = file >= 0 && file < jr->nr_targets ? jr->targets[file].path : "target";
	base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	if (strlen(base) > NAME_MAX - 30) {
		ret = -ENAMETOOLONG;
		goto out_report;
	}
	snprintf(got_name, sizeof(got_name), "%.*s.%" PRIu64 ".received", NAME_MAX - 30, base,
		 bad->offset);
	snprintf(exp_name, sizeof(exp_name), "%.*s.%" PRIu64 ".expected", NAME_MAX - 30, base,
		 bad->offset);
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(got_path, sizeof(got_path), "%s/%s", cwd, got_name);
	snprintf(exp_path, sizeof(exp_path), "%s/%s", cwd, exp_name);

	ret = posix_memalign((void **)&img, 8, p->block_size) ? -ENOMEM : 0;
	if (!ret) {
		bq_verify_fill(img, p, bad->offset, expected_gen(bad), expected_seed(vj, bad),
			       bad->found_header ? bad->found.timestamp_ns : 0,
			       bad->found_header ? bad->found.thread : 0);
		ret = dump_one(got_name, blk, p->block_size);
	}
	if (!ret)
		ret = dump_one(exp_name, img, p->block_size);
	free(img);
	if (!ret)
		__atomic_fetch_add(&vj->dumped, 1, __ATOMIC_RELAXED);
out_report:
	if (o && o->verify_dumped)
		o->verify_dumped(o->arg, jr, file, bad->offset, ret ? NULL : exp_path,
				 ret ? NULL : got_path, ret);
}
