// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio.c - sysbench's fileio test: a set of files, prepared, run on,
 * removed
 *
 * The request schedule is sysbench's, because people compare figures
 * across the two tools: threads share one sequential position and one
 * fsync schedule (every --file-fsync-freq requests of all threads, a
 * round of one fsync per file, each its own request), random requests
 * pick a block uniformly over the whole set, and rndrw chooses between
 * read and write from the thread's own counts so the ratio holds exactly.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "blkqual_fileio.h"
#include "internal.h"
#include "workloads/ops_int.h"

#define MAX_BLOCK_SIZE (1u << 30)
#define MAX_THREADS 4096
#define DIO_ALIGN 512

void bq_fileio_defaults(struct bq_fileio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->file_num = 128;
	o->total_size = 2ull << 30;
	o->block_size = 16384;
	o->fsync_freq = 100;
	o->fsync_end = true;
	o->rw_ratio = 1.5;
	o->threads = 1;
	o->time_ns = 10 * 1000000000ull;
	o->percentile = 95;
}

static const char *const option_names[] = {
	"file-num", "file-block-size", "file-total-size", "file-test-mode", "file-io-mode",
	"file-async-backlog", "file-extra-flags", "file-fsync-freq", "file-fsync-all",
	"file-fsync-end", "file-fsync-mode", "file-merged-requests", "file-rw-ratio",
	"threads", "num-threads", "time", "max-time", "events", "max-requests",
	"report-interval", "percentile", "histogram", "rand-seed", "test", "validate",
	"stall-timeout",
};

const char *const *bq_fileio_option_names(size_t *n)
{
	*n = ARRAY_SIZE(option_names);
	return option_names;
}

static const char *const mode_names[] = {
	[BQ_FILEIO_SEQWR] = "seqwr", [BQ_FILEIO_SEQREWR] = "seqrewr", [BQ_FILEIO_SEQRD] = "seqrd",
	[BQ_FILEIO_RNDRD] = "rndrd", [BQ_FILEIO_RNDWR] = "rndwr", [BQ_FILEIO_RNDRW] = "rndrw",
};

static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const on[] = { "on", "yes", "true", "1" };
	static const char *const off[] = { "off", "no", "false", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
		if (!strcasecmp(s, on[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, off[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int set_flags(struct bq_fileio_opts *o, const char *value, const char *where,
		     struct bq_parse_error *err)
{
	unsigned int flags = 0;
	const char *p = value;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == 4 && !strncmp(p, "sync", 4))
			flags |= BQ_FILEIO_SYNC;
		else if (len == 5 && !strncmp(p, "dsync", 5))
			flags |= BQ_FILEIO_DSYNC;
		else if (len == 6 && !strncmp(p, "direct", 6))
			flags |= BQ_FILEIO_DIRECT;
		else if (len)
			return bq_fail_at(err, where, -EINVAL,
					  "unknown flag '%.*s' (use sync, dsync, direct)", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	o->extra_flags = flags;
	return 0;
}

/* The options that take an unsigned count, with their limits. */
static int set_count(struct bq_fileio_opts *o, const char *key, const char *value,
		     const char *where, struct bq_parse_error *err)
{
	static const struct {
		const char *name;
		uint64_t min, max;
		size_t off;
		bool wide;
	} counts[] = {
		{ "file-num", 1, 1000000, offsetof(struct bq_fileio_opts, file_num), false },
		{ "file-fsync-freq", 0, UINT32_MAX, offsetof(struct bq_fileio_opts, fsync_freq),
		  false },
		{ "file-merged-requests", 0, 65536,
		  offsetof(struct bq_fileio_opts, merged_requests), false },
		{ "threads", 1, MAX_THREADS, offsetof(struct bq_fileio_opts, threads), false },
		{ "num-threads", 1, MAX_THREADS, offsetof(struct bq_fileio_opts, threads), false },
		{ "events", 0, UINT64_MAX, offsetof(struct bq_fileio_opts, events), true },
		{ "max-requests", 0, UINT64_MAX, offsetof(struct bq_fileio_opts, events), true },
		{ "percentile", 0, 100, offsetof(struct bq_fileio_opts, percentile), false },
		{ "rand-seed", 0, UINT64_MAX, offsetof(struct bq_fileio_opts, rand_seed), true },
		{ "file-async-backlog", 1, 1000000, SIZE_MAX, false },
	};
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		if (strcmp(key, counts[i].name))
			continue;
		if (parse_uint(value, counts[i].max, &v) || v < counts[i].min)
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a whole number from "
					  "%llu to %llu", value, (unsigned long long)counts[i].min,
					  (unsigned long long)counts[i].max);
		/* --file-async-backlog only matters to async mode, which is refused. */
		if (counts[i].off == SIZE_MAX)
			return 0;
		if (counts[i].wide)
			*(uint64_t *)((char *)o + counts[i].off) = v;
		else
			*(unsigned int *)((char *)o + counts[i].off) = (unsigned int)v;
		return 0;
	}
	return -ENOENT;
}

int bq_fileio_set(struct bq_fileio_opts *o, const char *key, const char *value,
		  struct bq_parse_error *err)
{
	static const char *const bools[] = {
		"file-fsync-all", "file-fsync-end", "histogram", "validate",
	};
	char where[128];
	uint64_t v;
	bool b;
	int ret;

	snprintf(where, sizeof(where), "--%s", key);
	for (size_t i = 0; i < ARRAY_SIZE(bools); i++) {
		if (strcmp(key, bools[i]))
			continue;
		if (!value)
			b = true;
		else if (parse_bool(value, &b))
			return bq_fail_at(err, where, -EINVAL, "'%s' is not on or off", value);
		if (!strcmp(key, "file-fsync-all"))
			o->fsync_all = b;
		else if (!strcmp(key, "file-fsync-end"))
			o->fsync_end = b;
		else if (!strcmp(key, "histogram"))
			o->histogram = b;
		else if (b)
			return bq_fail_at(err, where, -EOPNOTSUPP,
					  "checksum validation is not implemented");
		return 0;
	}
	if (!value) {
		for (size_t i = 0; i < ARRAY_SIZE(option_names); i++)
			if (!strcmp(key, option_names[i]))
				return bq_fail_at(err, where, -EINVAL, "needs a value (%s=VALUE)",
						  where);
		return -ENOENT;
	}

	ret = set_count(o, key, value, where, err);
	if (ret != -ENOENT)
		return ret;
	if (!strcmp(key, "file-total-size")) {
		if (bq_parse_size(value, &v) || !v)
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a size (2G, 512M)",
					  value);
		o->total_size = v;
	} else if (!strcmp(key, "file-block-size")) {
		if (bq_parse_size(value, &v) || !v || v > MAX_BLOCK_SIZE)
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a size from 1 byte "
					  "to 1G (16K, 4096)", value);
		o->block_size = (uint32_t)v;
	} else if (!strcmp(key, "file-test-mode")) {
		for (size_t m = BQ_FILEIO_SEQWR; m < ARRAY_SIZE(mode_names); m++) {
			if (!strcmp(value, mode_names[m])) {
				o->mode = (enum bq_fileio_mode)m;
				return 0;
			}
		}
		return bq_fail_at(err, where, -EINVAL, "unknown mode '%s' (use seqwr, seqrewr, "
				  "seqrd, rndrd, rndwr or rndrw)", value);
	} else if (!strcmp(key, "file-io-mode")) {
		if (!strcmp(value, "async") || !strcmp(value, "mmap"))
			return bq_fail_at(err, where, -EOPNOTSUPP, "%s I/O mode is not "
					  "implemented: use sync", value);
		if (strcmp(value, "sync"))
			return bq_fail_at(err, where, -EINVAL, "unknown mode '%s' (use sync)",
					  value);
	} else if (!strcmp(key, "file-extra-flags")) {
		return set_flags(o, value, where, err);
	} else if (!strcmp(key, "file-fsync-mode")) {
		if (!strcmp(value, "fsync"))
			o->fdatasync = false;
		else if (!strcmp(value, "fdatasync"))
			o->fdatasync = true;
		else
			return bq_fail_at(err, where, -EINVAL, "unknown mode '%s' (use fsync or "
					  "fdatasync)", value);
	} else if (!strcmp(key, "file-rw-ratio")) {
		char *end;
		double r;

		errno = 0;
		r = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(r) || r < 0)
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a ratio of 0 or more",
					  value);
		o->rw_ratio = r;
	} else if (!strcmp(key, "time") || !strcmp(key, "max-time")) {
		if (bq_parse_time(value, 1000000000ull, &o->time_ns))
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a duration (10, 90s, "
					  "500ms)", value);
	} else if (!strcmp(key, "report-interval")) {
		if (bq_parse_time(value, 1000000000ull, &o->report_interval_ns))
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a duration (1, 500ms)",
					  value);
	} else if (!strcmp(key, "stall-timeout")) {
		if (bq_parse_time(value, 1000000000ull, &o->stall_timeout_ns))
			return bq_fail_at(err, where, -EINVAL, "'%s' is not a duration (120, 5m)",
					  value);
		if (!o->stall_timeout_ns)
			o->stall_timeout_ns = BQ_OPS_NO_STALL_TIMEOUT;
	} else if (!strcmp(key, "test")) {
		if (strcmp(value, "fileio"))
			return bq_fail_at(err, where, -EINVAL, "'%s': blkqual fileio runs the fileio "
					  "test only", value);
	} else {
		return -ENOENT;
	}
	return 0;
}

uint64_t bq_fileio_file_size(const struct bq_fileio_opts *o)
{
	return o->file_num ? o->total_size / o->file_num : 0;
}

int bq_fileio_check(const struct bq_fileio_opts *o, bool run, struct bq_parse_error *err)
{
	uint64_t file_size = bq_fileio_file_size(o);

	if (!file_size)
		return bq_fail_at(err, "--file-total-size", -EINVAL, "%llu bytes over %u files "
				  "leaves them empty", (unsigned long long)o->total_size,
				  o->file_num);
	if ((uint64_t)o->block_size * (o->merged_requests ? o->merged_requests : 1) >
	    MAX_BLOCK_SIZE)
		return bq_fail_at(err, "--file-merged-requests", -EINVAL, "%u blocks of %u bytes "
				  "make requests over 1 GiB", o->merged_requests, o->block_size);
	if (o->extra_flags & BQ_FILEIO_DIRECT) {
		if (o->block_size % DIO_ALIGN)
			return bq_fail_at(err, "--file-block-size", -EINVAL, "%u bytes: direct "
					  "I/O needs a multiple of %u", o->block_size, DIO_ALIGN);
		if (file_size % DIO_ALIGN)
			return bq_fail_at(err, "--file-total-size", -EINVAL, "files of %llu bytes: "
					  "direct I/O needs a multiple of %u (make the total a "
					  "multiple of %u x --file-num)",
					  (unsigned long long)file_size, DIO_ALIGN, DIO_ALIGN);
	}
	if (o->histogram && !o->percentile)
		return bq_fail_at(err, "--histogram", -EINVAL, "cannot be used with "
				  "--percentile=0");
	if (!run)
		return 0;
	if (o->mode == BQ_FILEIO_NONE)
		return bq_fail_at(err, "--file-test-mode", -EINVAL, "missing (seqwr, seqrewr, "
				  "seqrd, rndrd, rndwr or rndrw)");
	if (!o->time_ns && !o->events)
		return bq_fail_at(err, "--time", -EINVAL, "0 needs --events (the run would "
				  "never end)");
	return 0;
}

/* "test_file.N", or "DIR/test_file.N" when a directory was given: for messages. */
static const char *file_label(const struct bq_fileio_opts *o, unsigned int i, char *buf,
			      size_t len)
{
	if (o->dir)
		snprintf(buf, len, "%s/test_file.%u", o->dir, i);
	else
		snprintf(buf, len, "test_file.%u", i);
	return buf;
}

static void file_name(unsigned int i, char *buf, size_t len)
{
	snprintf(buf, len, "test_file.%u", i);
}

static int open_dir(const struct bq_fileio_opts *o, struct bq_parse_error *err)
{
	const char *dir = o->dir ? o->dir : ".";
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return bq_fail_at(err, o->dir ? o->dir : "the current directory", -errno, "%s",
				  strerror(errno));
	return fd;
}

static int open_flags(const struct bq_fileio_opts *o)
{
	int flags = 0;

	if (o->extra_flags & BQ_FILEIO_SYNC)
		flags |= O_SYNC;
	if (o->extra_flags & BQ_FILEIO_DSYNC)
		flags |= O_DSYNC;
	if (o->extra_flags & BQ_FILEIO_DIRECT)
		flags |= O_DIRECT;
	return flags;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static void fmt_mib(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= (10ull << 30))
		snprintf(buf, len, "%.1f GiB", (double)bytes / (1 << 30));
	else
		snprintf(buf, len, "%.1f MiB", (double)bytes / (1 << 20));
}

int bq_fileio_check_space(const struct bq_fileio_opts *o, bool for_seqwr,
			  struct bq_fileio_space *sp, struct bq_parse_error *err)
{
	uint64_t file_size = bq_fileio_file_size(o), frsize;
	char name[32], label[PATH_MAX], need[32], avail[32];
	struct statvfs vfs;
	struct stat st;
	int dirfd, ret = 0;

	memset(sp, 0, sizeof(*sp));
	dirfd = open_dir(o, err);
	if (dirfd < 0)
		return dirfd;
	if (fstatvfs(dirfd, &vfs)) {
		ret = bq_fail_at(err, o->dir ? o->dir : ".", -errno, "statvfs: %s",
				 strerror(errno));
		goto out_close;
	}
	frsize = vfs.f_frsize ? vfs.f_frsize : 4096;
	sp->avail = (uint64_t)vfs.f_bavail * frsize;
	for (unsigned int i = 0; i < o->file_num; i++) {
		uint64_t size = 0, grow;

		file_name(i, name, sizeof(name));
		if (fstatat(dirfd, name, &st, 0)) {
			if (errno != ENOENT) {
				ret = bq_fail_at(err, file_label(o, i, label, sizeof(label)), -errno,
						 "%s", strerror(errno));
				goto out_close;
			}
		} else {
			size = (uint64_t)st.st_size;
		}
		if (for_seqwr) {
			/* The run deletes the old file first and writes exactly its size. */
			if (size)
				sp->avail += (uint64_t)st.st_blocks * 512;
			grow = file_size;
		} else {
			/* prepare extends from the end in whole blocks, as sysbench does. */
			grow = size < file_size ? round_up(file_size - size, o->block_size) : 0;
		}
		sp->need += round_up(grow, frsize);
	}
	if (sp->need > sp->avail) {
		fmt_mib(need, sizeof(need), sp->need);
		fmt_mib(avail, sizeof(avail), sp->avail);
		ret = bq_fail_at(err, "--file-total-size", -ENOSPC, "the set needs %s more, %s "
				 "has %s free", need, o->dir ? o->dir : "the current directory",
				 avail);
	}
out_close:
	close(dirfd);
	return ret;
}

/* Pseudo-random bytes, so compressing or deduplicating drives store them all. */
static void fill_random(void *buf, size_t len, uint64_t seed)
{
	struct bq_offgen_params p = { .nblocks = 1, .random = true, .norandommap = true,
				      .seed = seed };
	struct bq_offgen g;
	uint64_t *w = buf;

	bq_offgen_init(&g, &p);
	for (size_t i = 0; i < len / sizeof(*w); i++)
		w[i] = bq_rand_next(&g);
}

static void *alloc_buffer(size_t len, uint64_t seed)
{
	size_t size = round_up(len, 4096);
	void *buf;

	/* Page-aligned for O_DIRECT, whatever the block size. */
	if (posix_memalign(&buf, 4096, size))
		return NULL;
	fill_random(buf, size, seed);
	return buf;
}

/* Write all of @len at @off, or fail; short writes are retried. */
static int pwrite_full(int fd, const char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int pread_full(int fd, char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The set was checked before the run: end of file means it shrank. */
		if (!n)
			return -ENODATA;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int prepare_file(const struct bq_fileio_opts *o, int dirfd, unsigned int i,
			const char *buf, void (*on_file)(void *, unsigned int,
							 enum bq_fileio_file_state),
			void *arg, uint64_t *written, struct bq_parse_error *err)
{
	uint64_t file_size = bq_fileio_file_size(o);
	char name[32], label[PATH_MAX];
	off_t end;
	int fd, ret = 0;

	file_name(i, name, sizeof(name));
	fd = bq_openat_beneath(dirfd, name, O_CREAT | O_WRONLY | open_flags(o), 0600);
	if (fd < 0)
		return bq_fail_at(err, file_label(o, i, label, sizeof(label)), -errno, "%s",
				  strerror(errno));
	end = lseek(fd, 0, SEEK_END);
	if (end < 0) {
		ret = -errno;
		goto out_close;
	}
	if (on_file)
		on_file(arg, i, (uint64_t)end >= file_size ? BQ_FILEIO_REUSED :
				end ? BQ_FILEIO_EXTENDED : BQ_FILEIO_CREATED);
	for (uint64_t off = (uint64_t)end; off < file_size; off += o->block_size) {
		ret = pwrite_full(fd, buf, o->block_size, off);
		if (ret)
			goto out_close;
		*written += o->block_size;
	}
	/* As sysbench: the cache flush must not land in the run's figures. */
	if (fsync(fd))
		ret = -errno;
out_close:
	close(fd);
	if (ret)
		bq_fail_at(err, file_label(o, i, label, sizeof(label)), ret, "%s", strerror(-ret));
	return ret;
}

int bq_fileio_prepare(const struct bq_fileio_opts *o,
		      void (*on_file)(void *arg, unsigned int i, enum bq_fileio_file_state st),
		      void *arg, struct bq_fileio_prepared *res, struct bq_parse_error *err)
{
	uint64_t t0 = bq_now_ns();
	int dirfd, ret = 0;
	void *buf;

	memset(res, 0, sizeof(*res));
	dirfd = open_dir(o, err);
	if (dirfd < 0)
		return dirfd;
	buf = alloc_buffer(o->block_size, t0);
	if (!buf) {
		ret = bq_fail_at(err, "prepare", -ENOMEM, "out of memory");
		goto out_close;
	}
	for (unsigned int i = 0; i < o->file_num && !ret; i++)
		ret = prepare_file(o, dirfd, i, buf, on_file, arg, &res->bytes, err);
	res->ns = bq_now_ns() - t0;
	free(buf);
out_close:
	close(dirfd);
	return ret;
}

/* Direct I/O must suit the filesystem, which statx tells on kernels since 6.1. */
static int check_dio_align(const struct bq_fileio_opts *o, int dirfd, const char *name,
			   struct bq_parse_error *err)
{
#ifdef STATX_DIOALIGN
	uint64_t file_size = bq_fileio_file_size(o);
	struct statx stx;

	if (statx(dirfd, name, 0, STATX_DIOALIGN, &stx) || !(stx.stx_mask & STATX_DIOALIGN))
		return 0;
	if (!stx.stx_dio_offset_align)
		return bq_fail_at(err, "--file-extra-flags", -EINVAL, "direct I/O is not "
				  "supported on this filesystem");
	if (o->block_size % stx.stx_dio_offset_align || file_size % stx.stx_dio_offset_align)
		return bq_fail_at(err, "--file-block-size", -EINVAL, "%u bytes (files of %llu): "
				  "direct I/O here needs multiples of %u", o->block_size,
				  (unsigned long long)file_size, stx.stx_dio_offset_align);
#else
	(void)o;
	(void)dirfd;
	(void)name;
	(void)err;
#endif
	return 0;
}

int bq_fileio_check_set(const struct bq_fileio_opts *o, struct bq_parse_error *err)
{
	uint64_t file_size = bq_fileio_file_size(o);
	char name[32], label[PATH_MAX];
	struct bq_fileio_space sp;
	struct stat st;
	int dirfd, ret = 0;

	if (o->mode == BQ_FILEIO_SEQWR)
		return bq_fileio_check_space(o, true, &sp, err);
	dirfd = open_dir(o, err);
	if (dirfd < 0)
		return dirfd;
	for (unsigned int i = 0; i < o->file_num && !ret; i++) {
		file_name(i, name, sizeof(name));
		file_label(o, i, label, sizeof(label));
		if (fstatat(dirfd, name, &st, 0))
			ret = errno == ENOENT ?
			      bq_fail_at(err, label, -ENOENT, "missing: run 'blkqual fileio "
					 "prepare' with the same --file-num and --file-total-size "
					 "first") :
			      bq_fail_at(err, label, -errno, "%s", strerror(errno));
		else if (!S_ISREG(st.st_mode))
			ret = bq_fail_at(err, label, -EINVAL, "not a regular file");
		else if ((uint64_t)st.st_size < file_size)
			ret = bq_fail_at(err, label, -EINVAL, "%llu bytes, %llu expected: run "
					 "'blkqual fileio prepare' with the same --file-num and "
					 "--file-total-size first", (unsigned long long)st.st_size,
					 (unsigned long long)file_size);
	}
	if (!ret && (o->extra_flags & BQ_FILEIO_DIRECT))
		ret = check_dio_align(o, dirfd, "test_file.0", err);
	close(dirfd);
	return ret;
}

/* ---- the run ------------------------------------------------------------ */

struct request {
	int op;
	unsigned int file;
	uint64_t pos;
	uint32_t len;
};

struct fileset_run {
	const struct bq_fileio_opts *o;
	int *fds;
	uint64_t file_size;
	uint64_t req_size;
	uint64_t blocks_per_file;
	unsigned int fsync_freq;	/* 0 with --file-fsync-all, as sysbench */
	bool fsync_end;
	bool writes;
	uint64_t seed;

	/* The shared schedule, under @lock. */
	pthread_mutex_t lock;
	unsigned int cur_file;
	uint64_t pos;
	uint64_t req_performed;
	bool dirty;
	unsigned int fsync_file;

	uint64_t events_started;	/* atomic */
	int abort;			/* atomic: a thread failed */
};

static bool is_sequential(enum bq_fileio_mode m)
{
	return m == BQ_FILEIO_SEQWR || m == BQ_FILEIO_SEQREWR || m == BQ_FILEIO_SEQRD;
}

static bool fsync_due(struct fileset_run *run, struct request *req)
{
	if (!run->fsync_freq || !run->dirty || run->req_performed % run->fsync_freq)
		return false;
	req->op = BQ_FILEIO_OP_FSYNC;
	req->file = run->fsync_file;
	req->pos = 0;
	req->len = 0;
	if (++run->fsync_file == run->o->file_num) {
		run->fsync_file = 0;
		run->dirty = false;
	}
	return true;
}

static void next_request(struct fileset_run *run, struct bq_ops_thread *t, struct bq_offgen *g,
			 struct request *req)
{
	const struct bq_fileio_opts *o = run->o;
	uint64_t blk = 0;

	switch (o->mode) {
	case BQ_FILEIO_SEQWR:
	case BQ_FILEIO_SEQREWR:
	case BQ_FILEIO_RNDWR:
		req->op = BQ_FILEIO_OP_WRITE;
		break;
	case BQ_FILEIO_RNDRW:
		req->op = ((double)t->op[BQ_FILEIO_OP_READ].count + 1.0) /
			  ((double)t->op[BQ_FILEIO_OP_WRITE].count + 1.0) < o->rw_ratio ?
			  BQ_FILEIO_OP_READ : BQ_FILEIO_OP_WRITE;
		break;
	default:
		req->op = BQ_FILEIO_OP_READ;
		break;
	}
	if (!is_sequential(o->mode))
		blk = bq_offgen_next(g);

	pthread_mutex_lock(&run->lock);
	/* Sequential reads never fsync; random ones do once anything was written. */
	if ((req->op == BQ_FILEIO_OP_WRITE || !is_sequential(o->mode)) && fsync_due(run, req)) {
		pthread_mutex_unlock(&run->lock);
		return;
	}
	run->req_performed++;
	if (req->op == BQ_FILEIO_OP_WRITE)
		run->dirty = true;
	if (is_sequential(o->mode)) {
		if (run->cur_file == o->file_num) {
			run->cur_file = 0;
			run->pos = 0;
		}
		req->file = run->cur_file;
		req->pos = run->pos;
		req->len = (uint32_t)(run->file_size - run->pos < run->req_size ?
				      run->file_size - run->pos : run->req_size);
		run->pos += req->len;
		if (run->pos == run->file_size) {
			run->cur_file++;
			run->pos = 0;
		}
	}
	pthread_mutex_unlock(&run->lock);
	if (!is_sequential(o->mode)) {
		req->file = (unsigned int)(blk / run->blocks_per_file);
		req->pos = blk % run->blocks_per_file * o->block_size;
		req->len = (uint32_t)(run->file_size - req->pos < o->block_size ?
				      run->file_size - req->pos : o->block_size);
	}
}

static int do_sync(const struct fileset_run *run, int fd)
{
	int r = run->o->fdatasync ? fdatasync(fd) : fsync(fd);

	return r ? -errno : 0;
}

static const char *const op_names[] = { "read", "write", "fsync", "fsync" };

static int timed(struct fileset_run *run, struct bq_ops_thread *t, char *buf, int op,
		 unsigned int file, uint64_t pos, uint32_t len)
{
	int fd = run->fds[file], ret;
	uint64_t t0 = bq_now_ns();

	if (op == BQ_FILEIO_OP_READ)
		ret = pread_full(fd, buf, len, pos);
	else if (op == BQ_FILEIO_OP_WRITE)
		ret = pwrite_full(fd, buf, len, pos);
	else
		ret = do_sync(run, fd);
	bq_ops_record(t, op, ret ? 0 : len, bq_now_ns() - t0, ret != 0);
	if (ret) {
		char label[PATH_MAX];

		file_label(run->o, file, label, sizeof(label));
		bq_ops_error(t, op, -ret, op <= BQ_FILEIO_OP_WRITE ? (int64_t)pos : -1, label);
		if (op <= BQ_FILEIO_OP_WRITE)
			snprintf(t->msg, sizeof(t->msg), "%.160s: %s at offset %llu: %s", label,
				 op_names[op], (unsigned long long)pos,
				 ret == -ENODATA ? "end of file (the file shrank)" : strerror(-ret));
		else
			snprintf(t->msg, sizeof(t->msg), "%.160s: %s: %s", label, op_names[op],
				 strerror(-ret));
	}
	return ret;
}

static int fileset_thread(struct bq_ops_thread *t, void *arg)
{
	struct fileset_run *run = arg;
	const struct bq_fileio_opts *o = run->o;
	/* A stream per thread, apart from the others but fixed by the seed. */
	struct bq_offgen_params p = {
		.nblocks = run->blocks_per_file * o->file_num,
		.random = true,
		.norandommap = true,
		.seed = run->seed + 0x9e3779b97f4a7c15ull * (uint64_t)(t->id + 1),
	};
	struct bq_offgen g;
	struct request req = { 0 };
	char *buf;
	int ret = 0;

	buf = alloc_buffer(run->req_size, p.seed);
	if (!buf) {
		snprintf(t->msg, sizeof(t->msg), "out of memory");
		return -ENOMEM;
	}
	bq_offgen_init(&g, &p);
	while (!bq_ops_should_stop(t) && !__atomic_load_n(&run->abort, __ATOMIC_RELAXED)) {
		if (o->events &&
		    __atomic_fetch_add(&run->events_started, 1, __ATOMIC_RELAXED) >= o->events)
			break;
		next_request(run, t, &g, &req);
		ret = timed(run, t, buf, req.op, req.file, req.pos, req.len);
		if (!ret && req.op == BQ_FILEIO_OP_WRITE && o->fsync_all)
			ret = timed(run, t, buf, BQ_FILEIO_OP_FSYNC, req.file, 0, 0);
		if (ret) {
			__atomic_store_n(&run->abort, 1, __ATOMIC_RELAXED);
			goto out_free;
		}
	}
	/* Like sysbench, every thread flushes every file once at the end. */
	for (unsigned int i = 0; run->fsync_end && i < o->file_num && !ret; i++)
		ret = timed(run, t, buf, BQ_FILEIO_OP_FSYNC_END, i, 0, 0);
out_free:
	free(buf);
	return ret;
}

static void close_files(int *fds, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

static int open_files(const struct bq_fileio_opts *o, int **fdsp, struct bq_parse_error *err)
{
	int flags = O_RDWR | O_CLOEXEC | open_flags(o);
	char name[32], label[PATH_MAX];
	int dirfd, *fds, ret = 0;

	fds = malloc(sizeof(*fds) * o->file_num);
	if (!fds)
		return bq_fail_at(err, "run", -ENOMEM, "out of memory");
	for (unsigned int i = 0; i < o->file_num; i++)
		fds[i] = -1;
	dirfd = open_dir(o, err);
	if (dirfd < 0) {
		free(fds);
		return dirfd;
	}
	for (unsigned int i = 0; i < o->file_num; i++) {
		file_name(i, name, sizeof(name));
		/* seqwr is sysbench's creation test: the files start empty. */
		if (o->mode == BQ_FILEIO_SEQWR) {
			if (unlinkat(dirfd, name, 0) && errno != ENOENT) {
				ret = -errno;
				break;
			}
			fds[i] = bq_openat_beneath(dirfd, name, flags | O_CREAT | O_EXCL, 0600);
		} else {
			fds[i] = bq_openat_beneath(dirfd, name, flags, 0);
		}
		if (fds[i] < 0) {
			ret = -errno;
			break;
		}
	}
	close(dirfd);
	if (ret) {
		for (unsigned int i = 0; i < o->file_num; i++) {
			if (fds[i] < 0) {
				bq_fail_at(err, file_label(o, i, label, sizeof(label)), ret, "%s",
					   strerror(-ret));
				break;
			}
		}
		close_files(fds, o->file_num);
		return ret;
	}
	*fdsp = fds;
	return 0;
}

static uint64_t time_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) ^
	       ((uint64_t)getpid() << 32);
}

int bq_fileio_run(struct bq_ctx *ctx, const struct bq_fileio_opts *o, volatile int *stop,
		  void (*on_sample)(void *arg, const struct bq_ops_sample *s), void *sample_arg,
		  struct bq_fileio_result *res, struct bq_parse_error *err)
{
	struct fileset_run run = {
		.o = o,
		.file_size = bq_fileio_file_size(o),
		.req_size = o->block_size,
		.fsync_freq = o->fsync_all ? 0 : o->fsync_freq,
		.writes = o->mode != BQ_FILEIO_SEQRD && o->mode != BQ_FILEIO_RNDRD,
		.seed = o->rand_seed ? o->rand_seed : time_seed(),
	};
	struct bq_ops_opts oo = {
		.nr_threads = (int)o->threads,
		.nr_ops = BQ_FILEIO_NR_OPS,
		.duration_ns = o->time_ns,
		.interval_ns = o->report_interval_ns,
		.stall_timeout_ns = o->stall_timeout_ns,
		.stop = stop,
		.fn = fileset_thread,
		.arg = &run,
		.on_sample = on_sample,
		.sample_arg = sample_arg,
	};
	int ret;

	memset(res, 0, sizeof(*res));
	ret = bq_fileio_check(o, true, err);
	if (ret)
		return ret;
	/* Merged requests only apply to sequential I/O, as in sysbench. */
	if (o->merged_requests && is_sequential(o->mode))
		run.req_size = (uint64_t)o->block_size * o->merged_requests;
	run.blocks_per_file = (run.file_size + o->block_size - 1) / o->block_size;
	run.fsync_end = o->fsync_end && !o->fsync_all && run.writes;
	ret = open_files(o, &run.fds, err);
	if (ret)
		return ret;
	pthread_mutex_init(&run.lock, NULL);
	ret = bq_ops_run(ctx, &oo, &res->ops);
	pthread_mutex_destroy(&run.lock);
	close_files(run.fds, o->file_num);
	if (ret)
		return bq_fail_at(err, "run", ret, "cannot start the threads: %s", strerror(-ret));
	res->seed = run.seed;
	res->file_size = run.file_size;
	return 0;
}

void bq_fileio_result_free(struct bq_fileio_result *res)
{
	bq_ops_result_free(&res->ops);
}

int bq_fileio_cleanup(const struct bq_fileio_opts *o, unsigned int *removed,
		      struct bq_parse_error *err)
{
	char name[32], label[PATH_MAX];
	int dirfd, ret = 0;

	*removed = 0;
	dirfd = open_dir(o, err);
	if (dirfd < 0)
		return dirfd;
	/* Past --file-num, only as long as the numbering goes on. */
	for (unsigned int i = 0; i < UINT32_MAX; i++) {
		file_name(i, name, sizeof(name));
		if (!unlinkat(dirfd, name, 0)) {
			(*removed)++;
			continue;
		}
		if (errno == ENOENT) {
			if (i >= o->file_num)
				break;
			continue;
		}
		ret = bq_fail_at(err, file_label(o, i, label, sizeof(label)), -errno, "%s",
				 strerror(errno));
		break;
	}
	close(dirfd);
	return ret;
}
