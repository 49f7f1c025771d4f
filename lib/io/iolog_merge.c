// SPDX-License-Identifier: GPL-2.0-only
/*
 * iolog_merge.c - merge_blktrace_file: several blktrace files (read_iolog
 * as a ':' list) merged by time into one, which is then replayed, with
 * merge_blktrace_scalars and merge_blktrace_iters as fio means them
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "io/iolog.h"
#include "job/jobopt.h"

#define MERGE_MAX 20

/* include/uapi/linux/blktrace_api.h */
struct bt_record {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

#define BT_MAGIC	0x65617400u
#define BT_TA_QUEUE	1u
#define BT_NOTIFY	(1u << 26)

struct cursor {
	FILE *f;
	bool swap;
	struct bt_record t;
	uint32_t iter, nr_iter, scalar;
	uint64_t length;	/* the trace's span: its last queue event's time */
};

static void swap_rec(struct bt_record *t)
{
	t->magic = __builtin_bswap32(t->magic);
	t->sequence = __builtin_bswap32(t->sequence);
	t->time = __builtin_bswap64(t->time);
	t->sector = __builtin_bswap64(t->sector);
	t->bytes = __builtin_bswap32(t->bytes);
	t->action = __builtin_bswap32(t->action);
	t->pid = __builtin_bswap32(t->pid);
	t->device = __builtin_bswap32(t->device);
	t->cpu = __builtin_bswap32(t->cpu);
	t->error = __builtin_bswap16(t->error);
	t->pdu_len = __builtin_bswap16(t->pdu_len);
}

/* The cursor's next queue event, its time moved by its iteration and scaled: 1, 0 at the end. */
static int next_event(struct cursor *c)
{
	struct bt_record t;

	for (;;) {
		size_t got = fread(&t, 1, sizeof(t), c->f);

		if (!got && feof(c->f)) {
			/* A repeat starts where the trace's last event was. */
			if (!c->length)
				c->length = c->t.time;
			return 0;
		}
		if (got != sizeof(t))
			return -EINVAL;
		if (c->swap)
			swap_rec(&t);
		if ((t.magic & 0xffffff00u) != BT_MAGIC)
			return -EINVAL;
		if (t.pdu_len && fseek(c->f, t.pdu_len, SEEK_CUR))
			return -errno;
		if ((t.action & 0xffffu) != BT_TA_QUEUE || (t.action & BT_NOTIFY))
			continue;
		t.time = (t.time + c->iter * c->length) * c->scalar / 100;
		t.pdu_len = 0;
		c->t = t;
		return 1;
	}
}

/*
 * The next event of cursor @i, repeating its trace when it ends: 1, or 0
 * when it is done (closed, and the last cursor moved into its place), or
 * -errno.
 */
static int advance(struct cursor *cs, int i, int *nr)
{
	int ret = next_event(&cs[i]);

	while (!ret && ++cs[i].iter < cs[i].nr_iter) {
		rewind(cs[i].f);
		ret = next_event(&cs[i]);
	}
	if (ret)
		return ret;
	fclose(cs[i].f);
	cs[i] = cs[--*nr];
	return 0;
}

/* The merged file: a regular file, not through a symlink, none of the inputs. */
static int open_out(const struct bq_job *j, const char *path, struct cursor *cs, int nr)
{
	struct stat st, is;
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out_refuse;
	for (int i = 0; i < nr; i++)
		if (!fstat(fileno(cs[i].f), &is) && is.st_dev == st.st_dev &&
		    is.st_ino == st.st_ino)
			goto out_refuse;
	/* Nor a target the job names: that is the guard's to open, not ours. */
	for (int i = 0; i < j->nr_files; i++)
		if (!stat(j->filenames[i], &is) && is.st_dev == st.st_dev &&
		    is.st_ino == st.st_ino)
			goto out_refuse;
	if (ftruncate(fd, 0)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;

out_refuse:
	close(fd);
	return -EINVAL;
}

/**
 * bq_iolog_merge() - merge read_iolog's blktrace files into merge_blktrace_file
 * @j: the job
 * @err: why not
 *
 * Only queue events are kept, without their payloads, in time order
 * across the traces; each trace's times are first moved by its repeats
 * (merge_blktrace_iters; each repeat starts at the trace's last event)
 * and scaled (merge_blktrace_scalars, percent), as fio does.
 *
 * Return: 0, -EINVAL for a list or file that does not fit, or -errno.
 */
int bq_iolog_merge(const struct bq_job *j, struct bq_parse_error *err)
{
	struct cursor cs[MERGE_MAX];
	char list[sizeof(j->read_iolog)], *save = NULL;
	int nr = 0, ret = 0, fd;
	FILE *out = NULL;

	strcpy(list, j->read_iolog);
	for (char *name = strtok_r(list, ":", &save); name; name = strtok_r(NULL, ":", &save)) {
		uint32_t magic = 0;

		if (nr == MERGE_MAX) {
			ret = bq_parse_fail(err, -EINVAL, "merge_blktrace_file: more than %d "
					    "traces", MERGE_MAX);
			goto out_close;
		}
		memset(&cs[nr], 0, sizeof(cs[nr]));
		cs[nr].f = fopen(name, "re");
		if (!cs[nr].f) {
			ret = -errno;
			bq_parse_fail(err, ret, "read_iolog %.200s: %s", name, strerror(-ret));
			goto out_close;
		}
		nr++;
		if (fread(&magic, 1, 4, cs[nr - 1].f) != 4 ||
		    ((magic & 0xffffff00u) != BT_MAGIC &&
		     (__builtin_bswap32(magic) & 0xffffff00u) != BT_MAGIC)) {
			ret = bq_parse_fail(err, -EINVAL, "merge_blktrace_file: %.200s is not a "
					    "blktrace file", name);
			goto out_close;
		}
		rewind(cs[nr - 1].f);
		cs[nr - 1].swap = (magic & 0xffffff00u) != BT_MAGIC;
	}
	if ((j->nr_merge_scalars && j->nr_merge_scalars != nr) ||
	    (j->nr_merge_iters && j->nr_merge_iters != nr)) {
		ret = bq_parse_fail(err, -EINVAL, "merge_blktrace_%s: %u values for %d traces",
				    j->nr_merge_scalars && j->nr_merge_scalars != nr ? "scalars" :
				    "iters", j->nr_merge_scalars && j->nr_merge_scalars != nr ?
				    j->nr_merge_scalars : j->nr_merge_iters, nr);
		goto out_close;
	}
	for (int i = 0; i < nr; i++) {
		cs[i].scalar = j->nr_merge_scalars ? j->merge_scalars[i] : 100;
		cs[i].nr_iter = j->nr_merge_iters ? j->merge_iters[i] : 1;
	}
	fd = open_out(j, j->merge_blktrace_file, cs, nr);
	if (fd < 0) {
		ret = bq_parse_fail(err, fd, "merge_blktrace_file %.200s: %s",
				    j->merge_blktrace_file, fd == -EINVAL ?
				    "not a regular file apart from the traces" : strerror(-fd));
		goto out_close;
	}
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		ret = -ENOMEM;
		goto out_close;
	}
	/* A trace that is done leaves an unread one in its place: read that. */
	for (int i = 0; i < nr;) {
		ret = advance(cs, i, &nr);
		if (ret < 0)
			goto out_bad;
		i += ret;
	}
	while (nr) {
		int k = 0;

		for (int i = 1; i < nr; i++)
			if (cs[i].t.time < cs[k].t.time)
				k = i;
		if (fwrite(&cs[k].t, sizeof(cs[k].t), 1, out) != 1) {
			ret = -EIO;
			goto out_close;
		}
		ret = advance(cs, k, &nr);
		if (ret < 0)
			goto out_bad;
	}
	ret = 0;
	if (fclose(out))
		ret = -errno;
	return ret;

out_bad:
	ret = bq_parse_fail(err, -EINVAL, "merge_blktrace_file: a trace ends in a broken "
			    "record");
out_close:
	for (int i = 0; i < nr; i++)
		fclose(cs[i].f);
	if (out)
		fclose(out);
	return ret;
}
