// SPDX-License-Identifier: GPL-2.0-only
/*
 * iolog_replay.c - a worker's side of fio's I/O logs: read_iolog hands
 * out the log's entries at their times, write_iolog records what is issued
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "io/iolog.h"

/**
 * struct bq_iolog_out - a write_iolog being written
 * @f: the log
 * @t0: fio's times are microseconds since the log was opened
 * @names: each file's name as the job gives it
 * @last_off: the offset of the last I/O logged, which fio's sync lines carry
 */
struct bq_iolog_out {
	FILE *f;
	uint64_t t0;
	const char *names[BQ_MAX_FILES];
	uint64_t last_off;
};

static unsigned long long out_us(const struct bq_iolog_out *o)
{
	return (unsigned long long)((bq_now_ns() - o->t0) / 1000);
}

/*
 * The log is an output of the run, never a target: it is made or
 * appended to (as fio does: each run adds its own header and lines) only
 * as a regular file that is none of the job's targets, and never through
 * a symlink, so a mistyped write_iolog=/dev/sdX cannot write to a disk.
 */
static int open_out(struct bq_worker *w, const char *path)
{
	struct stat st, ts;
	int fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out_refuse;
	for (int i = 0; i < w->nr_fds; i++)
		if (w->fds[i] >= 0 && !fstat(w->fds[i], &ts) && ts.st_dev == st.st_dev &&
		    ts.st_ino == st.st_ino)
			goto out_refuse;
	return fd;

out_refuse:
	close(fd);
	return -EINVAL;
}

static int out_init(struct bq_worker *w, const struct bq_target_info *ti)
{
	const struct bq_job *j = w->job;
	struct bq_iolog_out *o;
	int fd;

	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->t0 = bq_now_ns();
	fd = open_out(w, j->write_iolog);
	if (fd < 0) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "write_iolog %.150s: %s", j->write_iolog,
			 fd == -EINVAL ? "not a regular file apart from the targets" :
			 strerror(-fd));
		free(o);
		return fd;
	}
	o->f = fdopen(fd, "a");
	if (!o->f) {
		close(fd);
		free(o);
		return -ENOMEM;
	}
	for (int i = 0; i < w->nr_files; i++)
		o->names[i] = i < j->nr_files ? j->filenames[i] : ti ? ti[i].path : "none";
	fprintf(o->f, "fio version 3 iolog\n");
	for (int i = 0; i < w->nr_files; i++)
		fprintf(o->f, "%llu %s add\n", out_us(o), o->names[i]);
	for (int i = 0; i < w->nr_files; i++)
		fprintf(o->f, "%llu %s open\n", out_us(o), o->names[i]);
	w->iolog_out = o;
	return 0;
}

/**
 * bq_iolog_worker_init() - a worker's read_iolog and write_iolog
 * @w: the worker, its files set up
 * @ti: the targets of its files, in order
 *
 * Return: 0 or -errno (with @w->setup_msg when it says more).
 */
int bq_iolog_worker_init(struct bq_worker *w, const struct bq_target_info *ti)
{
	const struct bq_job *j = w->job;
	struct bq_parse_error err;
	int ret;

	if (j->read_iolog[0]) {
		w->iolog = calloc(1, sizeof(*w->iolog));
		if (!w->iolog)
			return -ENOMEM;
		/* Read and checked as the job was parsed: only a change since can fail. */
		ret = bq_iolog_load(j, w->iolog, &err);
		if (ret) {
			snprintf(w->setup_msg, sizeof(w->setup_msg), "%s", err.msg);
			free(w->iolog);
			w->iolog = NULL;
			return ret;
		}
		if (w->iolog->nr_names > w->nr_files) {
			snprintf(w->setup_msg, sizeof(w->setup_msg), "read_iolog %.150s names a file "
				 "the job does not have", j->read_iolog);
			return -EINVAL;
		}
	}
	if (j->write_iolog[0])
		return out_init(w, ti);
	return 0;
}

/* Sleep until @t, in slices, so that a stopped run does not wait out a long gap. */
static bool sleep_until(struct bq_worker *w, uint64_t t)
{
	uint64_t now = worker_now(w);

	while (now < t) {
		if (*w->stop || (w->end_ns && now >= w->end_ns))
			return false;
		worker_sleep_until(w, t - now > 500000000ULL ? now + 500000000ULL : t);
		now = worker_now(w);
	}
	return true;
}

static void do_sync(struct bq_worker *w, const struct bq_iolog_entry *e)
{
	int fd = w->fds[e->file];

	if (fd >= 0 && (e->act == BQ_LOG_DATASYNC ? fdatasync(fd) : fsync(fd))) {
		struct bq_slot none = { .dir = BQ_WRITE, .file = e->file };

		worker_record_error(w, &none, errno);
	}
	w->res->syncs++;
}

/**
 * bq_iolog_pick() - worker_pick() of a replay: the log's next I/O
 * @w: the worker
 * @s: filled in
 * @now: the time
 *
 * As fio does, each entry waits for its delay after the previous entry
 * was issued (none with replay_no_stall, where the delays are 0), and a
 * v2 "wait" until its time since the start; syncs are made here, in
 * order, and file actions only keep their place in time.
 *
 * Return: false once the log is done (or the run stops).
 */
bool bq_iolog_pick(struct bq_worker *w, struct bq_slot *s, uint64_t now)
{
	const struct bq_iolog *log = w->iolog;

	/* An engine may pass 0 (gtod_reduce): the log's times need the clock. */
	if (!now)
		now = worker_now(w);
	while (w->iolog_pos < log->nr) {
		const struct bq_iolog_entry *e = &log->e[w->iolog_pos];
		uint64_t due;

		if (w->stopping || *w->stop || (w->end_ns && now >= w->end_ns) || !w->ios_left)
			return false;
		if (!w->iolog_last_ns)
			w->iolog_last_ns = now;
		if (e->act == BQ_LOG_WAIT)
			due = (w->start_ns ? w->start_ns : w->iolog_last_ns) + e->offset * 1000000ULL;
		else
			due = w->iolog_last_ns + e->delay_ns;
		if (due > now) {
			if (!sleep_until(w, due))
				return false;
			now = worker_now(w);
		}
		w->iolog_pos++;
		if (e->act == BQ_LOG_WAIT)
			continue;
		w->iolog_last_ns = now;
		if (e->act == BQ_LOG_FILE)
			continue;
		if (e->act == BQ_LOG_SYNC || e->act == BQ_LOG_DATASYNC) {
			do_sync(w, e);
			continue;
		}
		w->ios_left--;
		s->offset = e->offset;
		s->len = e->len;
		s->dir = e->act;
		s->file = e->file;
		return true;
	}
	return false;
}

/**
 * bq_iolog_record() - write_iolog: one issued I/O, as fio logs it
 * @w: the worker
 * @s: the I/O
 */
void bq_iolog_record(struct bq_worker *w, const struct bq_slot *s)
{
	struct bq_iolog_out *o = w->iolog_out;

	fprintf(o->f, "%llu %s %s %" PRIu64 " %u\n", out_us(o), o->names[s->file],
		s->dir == BQ_WRITE ? "write" : "read", s->offset, s->len);
	o->last_off = s->offset;
}

/**
 * bq_iolog_record_sync() - write_iolog: an fsync=, fdatasync= or end_fsync flush
 * @w: the worker
 * @data_only: fdatasync(2) rather than fsync(2)
 *
 * fio logs its flush as an I/O of length 0 at the offset of the I/O
 * before it (end_fsync's too); blkqual flushes every file.
 */
void bq_iolog_record_sync(struct bq_worker *w, bool data_only)
{
	struct bq_iolog_out *o = w->iolog_out;

	for (int i = 0; i < w->nr_files; i++)
		fprintf(o->f, "%llu %s %s %" PRIu64 " 0\n", out_us(o), o->names[i],
			data_only ? "datasync" : "sync", o->last_off);
}

/**
 * bq_iolog_worker_end() - the worker is done: close write_iolog's log
 * @w: the worker
 */
void bq_iolog_worker_end(struct bq_worker *w)
{
	struct bq_iolog_out *o = w->iolog_out;

	if (!o)
		return;
	for (int i = 0; i < w->nr_files; i++)
		fprintf(o->f, "%llu %s close\n", out_us(o), o->names[i]);
	fclose(o->f);
	free(o);
	w->iolog_out = NULL;
}

/**
 * bq_iolog_worker_free() - free what bq_iolog_worker_init() made
 * @w: the worker
 */
void bq_iolog_worker_free(struct bq_worker *w)
{
	bq_iolog_worker_end(w);
	if (w->iolog) {
		bq_iolog_free(w->iolog);
		free(w->iolog);
		w->iolog = NULL;
	}
}
