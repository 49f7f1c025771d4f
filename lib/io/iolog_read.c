// SPDX-License-Identifier: GPL-2.0-only
/*
 * iolog_read.c - read_iolog: fio's iolog v2 and v3 text files and
 * blktrace binary files (as blkparse -d merges them) into entries
 *
 * The options that change what is replayed (replay_redirect, _scale,
 * _align, _time_scale, _no_stall, _skip) are applied here, as fio
 * applies them while it reads the log.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "io/iolog.h"
#include "job/jobopt.h"

/* include/uapi/linux/blktrace_api.h: a stable kernel ABI */
#define BT_MAGIC		0x65617400u
#define BT_VERSION		0x07u
#define BT_TA_QUEUE		1u
#define BT_TC_WRITE		(1u << 1)
#define BT_TC_FLUSH		(1u << 2)
#define BT_TC_DISCARD		(1u << 7)
#define BT_TC_NOTIFY		(1u << 10)
#define BT_TC_ACT(c)		((c) << 16)
#define BT_MINORBITS		20

struct bt_record {
	uint32_t magic;
	uint32_t sequence;
	uint64_t time;
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;
};

_Static_assert(sizeof(struct bt_record) == 48, "struct blk_io_trace is 48 bytes");

#define MAX_LEN (1u << 30)

struct reader {
	const struct bq_job *j;
	struct bq_iolog *log;
	struct bq_parse_error *err;
	const char *path;
	unsigned long line;
	uint64_t last_t;	/* fio's last timestamp; 0: none yet */
};

static int fail(struct reader *r, int ret, const char *fmt, const char *what)
{
	char where[300];

	snprintf(where, sizeof(where), "%.200s:%lu", r->path, r->line);
	return bq_fail_at(r->err, where, ret, "read_iolog %s: %s%.60s", where, fmt, what);
}

/* Where @name is in the log's file list, added when new. */
static int file_index(struct reader *r, const char *name)
{
	struct bq_iolog *log = r->log;

	if (r->j->replay_redirect[0])
		name = r->j->replay_redirect;
	for (int i = 0; i < log->nr_names; i++)
		if (!strcmp(log->names[i], name))
			return i;
	if (log->nr_names == BQ_MAX_FILES)
		return fail(r, -EINVAL, "more files than the limit of 64: ", name);
	log->names[log->nr_names] = strdup(name);
	if (!log->names[log->nr_names])
		return -ENOMEM;
	return log->nr_names++;
}

/* fio's delay since the previous timestamp, scaled by replay_time_scale. */
static uint64_t delay_since(struct reader *r, uint64_t t)
{
	uint64_t last = r->last_t;
	unsigned int scale = r->j->replay_time_scale ? r->j->replay_time_scale : 100;

	r->last_t = t;
	if (!last || r->j->replay_no_stall || t < last)
		return 0;
	return (uint64_t)((double)(t - last) * 100.0 / scale);
}

static int add_entry(struct reader *r, int act, int file, uint64_t off, uint64_t len,
		     uint64_t delay_ns)
{
	struct bq_iolog *log = r->log;
	struct bq_iolog_entry *e;

	if (act == BQ_LOG_READ || act == BQ_LOG_WRITE) {
		if (!len || len > MAX_LEN)
			return fail(r, -EINVAL, "length outside 1..1g", "");
		if (r->j->replay_scale)
			off /= r->j->replay_scale;
		if (r->j->replay_align)
			off &= ~((uint64_t)r->j->replay_align - 1);
		log->ios[act]++;
		if (len > log->max_len[act])
			log->max_len[act] = (uint32_t)len;
	}
	if (log->nr == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 1024;

		e = realloc(log->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		log->e = e;
		log->cap = cap;
	}
	e = &log->e[log->nr++];
	e->offset = off;
	e->len = (uint32_t)len;
	e->delay_ns = delay_ns;
	e->act = (uint8_t)act;
	e->file = (uint8_t)(file < 0 ? 0 : file);
	return 0;
}

static int io_act(const char *a)
{
	static const char *const names[] = {
		[BQ_LOG_READ] = "read", [BQ_LOG_WRITE] = "write", [BQ_LOG_SYNC] = "sync",
		[BQ_LOG_DATASYNC] = "datasync", [BQ_LOG_WAIT] = "wait",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i] && !strcmp(a, names[i]))
			return (int)i;
	return -1;
}

/* One line of a v2 or v3 log: "[TIME] NAME ACTION [OFFSET LENGTH]". */
static int text_line(struct reader *r, char *p, int version)
{
	char *tok[6], *save = NULL, *end;
	int n = 0, act, file, base = version == 3;
	unsigned long long t = 0, off = 0, len = 0;
	uint64_t delay = 0;

	for (char *s = strtok_r(p, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 6)
			return fail(r, -EINVAL, "too many fields", "");
		tok[n++] = s;
	}
	if (!n)
		return 0;
	if (n != base + 2 && n != base + 4)
		return fail(r, -EINVAL, "expected ", version == 3 ?
			    "TIME FILE ACTION [OFFSET LENGTH]" : "FILE ACTION [OFFSET LENGTH]");
	if (base) {
		errno = 0;
		t = strtoull(tok[0], &end, 10);
		if (!isdigit((unsigned char)*tok[0]) || *end || errno)
			return fail(r, -EINVAL, "bad time ", tok[0]);
		/* fio's v3 timestamps are microseconds. */
		delay = delay_since(r, t) * 1000;
	}
	if (n == base + 2) {
		if (strcmp(tok[base + 1], "add") && strcmp(tok[base + 1], "open") &&
		    strcmp(tok[base + 1], "close"))
			return fail(r, -EINVAL, "bad file action ", tok[base + 1]);
		file = file_index(r, tok[base]);
		if (file < 0)
			return file;
		return add_entry(r, BQ_LOG_FILE, file, 0, 0, delay);
	}
	act = io_act(tok[base + 1]);
	if (act < 0)
		return fail(r, -EINVAL, !strcmp(tok[base + 1], "trim") ?
			    "trim entries are not replayed yet" : "bad action ",
			    !strcmp(tok[base + 1], "trim") ? "" : tok[base + 1]);
	errno = 0;
	off = strtoull(tok[base + 2], &end, 10);
	if (!isdigit((unsigned char)*tok[base + 2]) || *end || errno)
		return fail(r, -EINVAL, "bad offset ", tok[base + 2]);
	len = strtoull(tok[base + 3], &end, 10);
	if (!isdigit((unsigned char)*tok[base + 3]) || *end || errno)
		return fail(r, -EINVAL, "bad length ", tok[base + 3]);
	if (act == BQ_LOG_WAIT) {
		/* fio ignores "wait" in v3 logs; in v2 it waits until OFFSET ms. */
		if (version == 3 || r->j->replay_no_stall)
			return 0;
		return add_entry(r, act, 0, off, 0, 0);
	}
	file = file_index(r, tok[base]);
	if (file < 0)
		return file;
	if (act == BQ_LOG_SYNC || act == BQ_LOG_DATASYNC)
		len = 0;
	return add_entry(r, act, file, off, len, delay);
}

static int read_text(struct reader *r, FILE *f, int version)
{
	char buf[4096];
	int ret;

	while (fgets(buf, sizeof(buf), f)) {
		r->line++;
		if (!strchr(buf, '\n') && !feof(f))
			return fail(r, -EINVAL, "line too long", "");
		ret = text_line(r, buf, version);
		if (ret)
			return ret;
	}
	return ferror(f) ? -EIO : 0;
}

static void bt_swap(struct bt_record *t)
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

/* The traced device's node, as fio finds it: by its device number. */
static int bt_device(struct reader *r, uint32_t dev)
{
	char path[128], line[256], name[300] = "";
	FILE *f;

	if (r->j->replay_redirect[0])
		return file_index(r, r->j->replay_redirect);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", dev >> BT_MINORBITS,
		 dev & ((1u << BT_MINORBITS) - 1));
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "DEVNAME=", 8)) {
				line[strcspn(line, "\n")] = 0;
				snprintf(name, sizeof(name), "/dev/%s", line + 8);
			}
		fclose(f);
	}
	if (!name[0]) {
		snprintf(path, sizeof(path), "%u:%u", dev >> BT_MINORBITS,
			 dev & ((1u << BT_MINORBITS) - 1));
		return fail(r, -ENODEV, "no block device here has the traced number ", path);
	}
	return file_index(r, name);
}

/* blktrace records; the line number is the record's. */
static int read_blktrace(struct reader *r, FILE *f, bool swap)
{
	struct bt_record t;
	uint8_t skip = r->j->replay_skip;
	int ret, file;

	for (;;) {
		size_t got = fread(&t, 1, sizeof(t), f);
		uint64_t delay;
		uint32_t a;

		if (!got && feof(f))
			break;
		r->line++;
		if (got != sizeof(t))
			return fail(r, -EINVAL, "truncated blktrace record", "");
		if (swap)
			bt_swap(&t);
		if ((t.magic & 0xffffff00u) != BT_MAGIC || (t.magic & 0xffu) != BT_VERSION)
			return fail(r, -EINVAL, "not a blktrace record (magic or version)", "");
		if (t.pdu_len && fseek(f, t.pdu_len, SEEK_CUR))
			return -errno;
		a = t.action;
		if ((a & 0xffffu) != BT_TA_QUEUE || (a & BT_TC_ACT(BT_TC_NOTIFY)))
			continue;
		/* Skipped I/Os still move fio's clock: the next one waits from here. */
		delay = delay_since(r, t.time);
		if (r->j->replay_align)
			t.bytes = (t.bytes + r->j->replay_align - 1) & ~(r->j->replay_align - 1);
		if (a & BT_TC_ACT(BT_TC_DISCARD)) {
			if (skip & 8)
				continue;
			return fail(r, -EOPNOTSUPP, "a discard: replaying trims is not implemented yet; "
				    "replay_skip=trim leaves them out", "");
		}
		if (a & BT_TC_ACT(BT_TC_FLUSH)) {
			if (skip & 4)
				continue;
			file = bt_device(r, t.device);
			if (file < 0)
				return file;
			ret = add_entry(r, BQ_LOG_SYNC, file, 0, 0, delay);
		} else {
			int dir = a & BT_TC_ACT(BT_TC_WRITE) ? BQ_WRITE : BQ_READ;

			if (skip & (1u << dir) || !t.bytes)
				continue;
			file = bt_device(r, t.device);
			if (file < 0)
				return file;
			ret = add_entry(r, dir, file, t.sector * 512, t.bytes, delay);
		}
		if (ret)
			return ret;
	}
	return ferror(f) ? -EIO : 0;
}

/**
 * bq_iolog_load() - read a job's read_iolog
 * @j: the job: read_iolog names the log, the replay options apply
 * @log: filled in; its file list starts with the job's filenames, so an
 *	 entry's file is the job's filename of that index
 * @err: "PATH:LINE" and why, on failure
 *
 * Return: 0, -EINVAL for a malformed log (or one with nothing to replay),
 * -EOPNOTSUPP for entries blkqual cannot replay, or another -errno.
 */
int bq_iolog_load(const struct bq_job *j, struct bq_iolog *log, struct bq_parse_error *err)
{
	/* With merge_blktrace_file, read_iolog lists the traces merged into it. */
	const char *path = j->merge_blktrace_file[0] ? j->merge_blktrace_file : j->read_iolog;
	struct reader r = { .j = j, .log = log, .err = err, .path = path };
	char head[64] = "";
	uint32_t magic = 0;
	FILE *f;
	int ret = 0;

	memset(log, 0, sizeof(*log));
	for (int i = 0; i < j->nr_files; i++) {
		log->names[i] = strdup(j->filenames[i]);
		if (!log->names[i]) {
			bq_iolog_free(log);
			return -ENOMEM;
		}
		log->nr_names++;
	}
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		bq_iolog_free(log);
		return bq_fail_at(err, path, ret, "read_iolog %s: %s", path,
				  strerror(-ret));
	}
	if (fread(&magic, 1, sizeof(magic), f) == sizeof(magic) &&
	    ((magic & 0xffffff00u) == BT_MAGIC ||
	     (__builtin_bswap32(magic) & 0xffffff00u) == BT_MAGIC)) {
		rewind(f);
		ret = read_blktrace(&r, f, (magic & 0xffffff00u) != BT_MAGIC);
	} else {
		rewind(f);
		if (fgets(head, sizeof(head), f))
			r.line = 1;
		head[strcspn(head, "\r\n")] = 0;
		if (!strcmp(head, "fio version 2 iolog"))
			ret = read_text(&r, f, 2);
		else if (!strcmp(head, "fio version 3 iolog"))
			ret = read_text(&r, f, 3);
		else
			ret = fail(&r, -EINVAL, "not a fio iolog (version 2 or 3) nor a "
				   "blktrace file", "");
	}
	fclose(f);
	if (!ret && !log->ios[BQ_READ] && !log->ios[BQ_WRITE])
		ret = bq_fail_at(err, path, -EINVAL, "read_iolog %s: no reads or "
				 "writes to replay", path);
	if (ret)
		bq_iolog_free(log);
	return ret;
}

/**
 * bq_iolog_free() - free a log read by bq_iolog_load()
 * @log: the log
 */
void bq_iolog_free(struct bq_iolog *log)
{
	free(log->e);
	for (int i = 0; i < log->nr_names; i++)
		free(log->names[i]);
	memset(log, 0, sizeof(*log));
}
