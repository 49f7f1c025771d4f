// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_probe.c - one request at a time, as ioping makes them
 *
 * A directory gets a temp file laid out over the working set; a file or
 * a device is read in place, and written only after the guard allowed
 * it.  Each request goes to a random (or, with -L, the next) aligned
 * offset of the working set; unless -C, the page cache is told to drop
 * that range first and a write is followed by fdatasync(), inside the
 * timed span, so that what is timed is the device and not memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <linux/fs.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "blkqual_latency.h"
#include "internal.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

#define TEMP_NAME "ioping.tmp"
#define NSEC_PER_SEC 1000000000ULL

/* The largest request Linux moves in one read or write: 2 GiB - 4 KiB. */
#define BQ_LATENCY_MAX_REQUEST 0x7ffff000ULL

struct bq_latency {
	struct bq_latency_opts o;
	struct bq_latency_target t;
	int fd;
	void *buf;
	uint64_t rng;
	int rw_flags;
	io_context_t aio;
	bool aio_ready;
	struct io_uring ring;
	bool ring_ready;
};

/* ---- ioping's numbers: a value, an optional "/divisor", a suffix -------- */

struct suffix {
	const char *txt;
	double mul;
};

static const struct suffix size_suffixes[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	{ "pb", 1ULL << 50 }, { "pib", 1ULL << 50 }, { "eb", 1ULL << 60 },
	{ "sector", 512 }, { "page", 4096 },
	{ NULL, 0 },
};

static const struct suffix time_suffixes[] = {
	{ "", 1e9 }, { "s", 1e9 }, { "sec", 1e9 },
	{ "ms", 1e6 }, { "msec", 1e6 }, { "us", 1e3 }, { "usec", 1e3 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "hour", 3600e9 },
	{ NULL, 0 },
};

static const struct suffix count_suffixes[] = {
	{ "", 1 }, { "da", 10 }, { "k", 1e3 }, { "m", 1e6 }, { "g", 1e9 },
	{ "t", 1e12 }, { "p", 1e15 }, { "e", 1e18 },
	{ NULL, 0 },
};

static int parse_suffixed(const char *s, const struct suffix *sfx, double max, uint64_t *out)
{
	double val, den;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	val = strtod(s, &end);
	if (end == s && *end != '/')
		return -EINVAL;
	if (end == s)
		val = 1;
	if (*end == '/') {
		const char *d = end + 1;

		den = strtod(d, &end);
		if (end == d || den == 0)
			return -EINVAL;
		val /= den;
	}
	if (!isfinite(val) || val < 0)
		return -EINVAL;
	for (; sfx->txt; sfx++) {
		if (strcasecmp(end, sfx->txt))
			continue;
		val *= sfx->mul;
		if (val > max)
			return -ERANGE;
		*out = (uint64_t)val;
		return 0;
	}
	return -EINVAL;
}

int bq_latency_parse_size(const char *s, uint64_t *out)
{
	return parse_suffixed(s, size_suffixes, (double)INT64_MAX, out);
}

int bq_latency_parse_time(const char *s, uint64_t *out)
{
	return parse_suffixed(s, time_suffixes, (double)INT64_MAX, out);
}

int bq_latency_parse_count(const char *s, uint64_t *out)
{
	return parse_suffixed(s, count_suffixes, (double)INT_MAX, out);
}

/* ---- statistics -------------------------------------------------------- */

int bq_latency_stats_init(struct bq_latency_stats *s, uint64_t size, uint64_t start_ns)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->start_ns = start_ns;
	return bq_hist_init(&s->lat);
}

void bq_latency_stats_free(struct bq_latency_stats *s)
{
	bq_hist_free(&s->lat);
}

static void stats_restart(struct bq_latency_stats *s, uint64_t start_ns)
{
	bq_hist_reset(&s->lat);
	s->start_ns = start_ns;
	s->finish_ns = 0;
	s->count = 0;
	s->too_fast = 0;
	s->too_slow = 0;
}

static void stats_merge(struct bq_latency_stats *dst, const struct bq_latency_stats *src)
{
	dst->count += src->count;
	dst->too_fast += src->too_fast;
	dst->too_slow += src->too_slow;
	bq_hist_merge(&dst->lat, &src->lat);
}

void bq_latency_summarize(const struct bq_latency_stats *s, struct bq_latency_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->valid = s->lat.count;
	sum->time_ns = s->lat.sum;
	sum->bytes = sum->valid * s->size;
	if (sum->valid) {
		sum->min_ns = s->lat.min;
		sum->max_ns = s->lat.max;
		sum->avg_ns = bq_hist_mean(&s->lat);
		sum->mdev_ns = bq_hist_stdev(&s->lat);
	}
	if (sum->time_ns > 0)
		sum->iops = 1e9 * (double)sum->valid / sum->time_ns;
	sum->bps = sum->iops * (double)s->size;
	sum->count = s->count;
	sum->load_ns = s->finish_ns > s->start_ns ? s->finish_ns - s->start_ns : 0;
	sum->load_bytes = s->count * s->size;
	if (sum->load_ns)
		sum->load_iops = 1e9 * (double)s->count / (double)sum->load_ns;
	sum->load_bps = sum->load_iops * (double)s->size;
	sum->too_fast = s->too_fast;
	sum->too_slow = s->too_slow;
}

/* ---- the target -------------------------------------------------------- */

static void random_fill(uint64_t *state, void *buf, size_t len)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < len / sizeof(*p); i++)
		p[i] = bq_splitmix64(state);
	if (len % sizeof(*p)) {
		uint64_t last = bq_splitmix64(state);

		memcpy((char *)buf + len / sizeof(*p) * sizeof(*p), &last, len % sizeof(*p));
	}
}

/* Filesystem type and device of a directory or file, from the mount table. */
static void mount_facts(struct bq_ctx *ctx, int fd, const struct stat *st,
			struct bq_latency_target *t)
{
	struct bq_mounts mt = { 0 };
	struct statvfs vfs;

	if (!fstatvfs(fd, &vfs))
		t->device_size = (uint64_t)vfs.f_frsize * vfs.f_blocks;
	if (bq_mounts_read(ctx, &mt))
		goto out_release;
	for (size_t i = 0; i < mt.nr; i++) {
		char *real;

		if (mt.m[i].devt != st->st_dev)
			continue;
		bq_strlcpy(t->fstype, mt.m[i].fstype, sizeof(t->fstype));
		real = realpath(mt.m[i].source, NULL);
		bq_strlcpy(t->device, real ? real : mt.m[i].source, sizeof(t->device));
		free(real);
		break;
	}
out_release:
	bq_mounts_release(&mt);
}

/*
 * What O_DIRECT needs of offsets and sizes: the filesystem says through
 * statx() where it can (0 meaning no direct I/O at all); otherwise the
 * logical block size of the device underneath.
 */
static int file_dio_align(struct bq_ctx *ctx, int fd, dev_t dev, uint32_t *align)
{
	char path[PATH_MAX];
	uint64_t lbs = 0;
	int ret;

	ret = bq_fs_dio_align(fd, NULL, align);
	if (ret != -ENODATA)
		return ret;
	if (!bq_path(path, sizeof(path), bq_ctx_root(ctx, 's'), "/dev/block/%u:%u/queue",
		     major(dev), minor(dev)))
		lbs = bq_attr_u64(path, "logical_block_size", 0);
	if (!lbs && !bq_path(path, sizeof(path), bq_ctx_root(ctx, 's'),
			     "/dev/block/%u:%u/../queue", major(dev), minor(dev)))
		lbs = bq_attr_u64(path, "logical_block_size", 0);
	*align = lbs ? (uint32_t)lbs : 512;
	return 0;
}

static int open_flags(const struct bq_latency_opts *o)
{
	return O_CLOEXEC | (o->sync ? O_SYNC : 0) | (o->dsync ? O_DSYNC : 0);
}

/*
 * A directory's temp file: unnamed (O_TMPFILE, or a name unlinked at
 * once), so that it goes with the last close whatever ends the process;
 * with -k, DIR/ioping.tmp, created if needed and kept.
 */
static int open_temp(struct bq_latency *l, bool *created, struct bq_parse_error *err)
{
	const char *dir = l->o.path;
	int flags = O_RDWR | open_flags(&l->o);
	char name[PATH_MAX];
	int fd;

	*created = false;
	if (l->o.keep) {
		if (snprintf(name, sizeof(name), "%s/%s", dir, TEMP_NAME) >= (int)sizeof(name))
			return bq_fail_at(err, dir, -ENAMETOOLONG, "path too long");
		fd = open(name, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
		if (fd >= 0)
			*created = true;
		else if (errno == EEXIST)
			fd = open(name, flags | O_NOFOLLOW);
		if (fd < 0)
			return bq_fail_at(err, name, -errno, "%s", strerror(errno));
		bq_strlcpy(l->t.tmpfile, name, sizeof(l->t.tmpfile));
		return fd;
	}
	fd = open(dir, flags | O_TMPFILE, 0600);
	if (fd >= 0)
		return fd;
	if (snprintf(name, sizeof(name), "%s/%s.XXXXXX", dir, TEMP_NAME) >= (int)sizeof(name))
		return bq_fail_at(err, dir, -ENAMETOOLONG, "path too long");
	fd = mkostemp(name, open_flags(&l->o));
	if (fd < 0)
		return bq_fail_at(err, dir, -errno, "creating a temp file: %s", strerror(errno));
	if (unlink(name)) {
		int ret = -errno;

		close(fd);
		return bq_fail_at(err, name, ret, "removing the temp file: %s", strerror(-ret));
	}
	return fd;
}

/* Write the working set of the temp file, unless a kept one already has it. */
static int lay_out(struct bq_latency *l, struct bq_parse_error *err)
{
	uint64_t from = l->t.offset, to = l->t.offset + l->t.work_size;
	size_t chunk = 1 << 20;
	struct stat st;
	void *buf;
	int ret = 0;

	if (l->o.keep && !fstat(l->fd, &st) && (uint64_t)st.st_size >= to &&
	    (uint64_t)st.st_blocks >= ((uint64_t)st.st_size + 511) / 512)
		goto out_sync;
	buf = malloc(chunk);
	if (!buf)
		return bq_fail_at(err, l->o.path, -ENOMEM, "out of memory");
	while (from < to) {
		size_t n = to - from < chunk ? (size_t)(to - from) : chunk;
		ssize_t w;

		random_fill(&l->rng, buf, n);
		w = pwrite(l->fd, buf, n, (off_t)from);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		from += (uint64_t)w;
	}
	free(buf);
	if (ret)
		return bq_fail_at(err, l->o.path, ret, "laying out the temp file: %s",
				  strerror(-ret));
	l->t.laid_out = true;
out_sync:
	if (fsync(l->fd))
		return bq_fail_at(err, l->o.path, -errno, "fsync: %s", strerror(errno));
	return 0;
}

/* A block or character device: the guard opens it when it is to be written. */
static int open_device(struct bq_ctx *ctx, struct bq_latency *l, const struct stat *st,
		       uint64_t *tsize, struct bq_parse_error *err)
{
	const struct bq_latency_opts *o = &l->o;
	int flags = open_flags(o) | (o->direct ? O_DIRECT : 0);
	unsigned long long bytes = 0;
	int lbs = 512;

	if (o->writes && S_ISCHR(st->st_mode))
		return bq_fail_at(err, "-W", -EINVAL, "%s is a character device; blkqual "
				  "writes only to block devices and files", o->path);
	if (o->writes) {
		struct bq_guard_report rep;
		char why[200];

		l->fd = bq_guard_open(ctx, o->path, flags, o->guard, &rep);
		if (l->fd == -EBUSY) {
			bq_guard_explain(o->path, &rep, why, sizeof(why));
			return bq_fail_at(err, o->path, -EBUSY, "refusing to write: %s", why);
		}
	} else {
		l->fd = open(o->path, O_RDONLY | flags);
		if (l->fd < 0)
			l->fd = -errno;
	}
	if (l->fd == -EINVAL && o->direct)
		return bq_fail_at(err, "-D", -EINVAL, "%s does not support direct I/O", o->path);
	if (l->fd < 0)
		return bq_fail_at(err, o->path, l->fd, "%s", strerror(-l->fd));
	if (S_ISBLK(st->st_mode)) {
		if (ioctl(l->fd, BLKGETSIZE64, &bytes) || ioctl(l->fd, BLKSSZGET, &lbs))
			return bq_fail_at(err, o->path, -errno, "reading its size: %s",
					  strerror(errno));
		l->t.is_blk = true;
		bq_strlcpy(l->t.fstype, "block", sizeof(l->t.fstype));
		l->t.device_size = bytes;
		*tsize = bytes;
	} else {
		/* A character device without a size: the working set is all there is. */
		bq_strlcpy(l->t.fstype, "character", sizeof(l->t.fstype));
		*tsize = o->offset + (o->work_size ? o->work_size : 1 << 20);
	}
	bq_strlcpy(l->t.device, "device", sizeof(l->t.device));
	l->t.dio_align = (uint32_t)lbs;
	return 0;
}

static int open_file(struct bq_ctx *ctx, struct bq_latency *l, struct bq_parse_error *err)
{
	const struct bq_latency_opts *o = &l->o;
	int flags = open_flags(o) | (o->direct ? O_DIRECT : 0);
	struct bq_guard_report rep;
	char why[200];

	if (!o->writes) {
		l->fd = open(o->path, O_RDONLY | flags);
		if (l->fd < 0)
			l->fd = -errno;
	} else {
		l->fd = bq_guard_open(ctx, o->path, flags, o->guard, &rep);
		if (l->fd == -EBUSY) {
			bq_guard_explain(o->path, &rep, why, sizeof(why));
			return bq_fail_at(err, o->path, -EBUSY, "refusing to write: %s", why);
		}
	}
	if (l->fd == -EINVAL && o->direct)
		return bq_fail_at(err, "-D", -EINVAL, "%s does not support direct I/O", o->path);
	if (l->fd < 0)
		return bq_fail_at(err, o->path, l->fd, "%s", strerror(-l->fd));
	return 0;
}

static int check_direct(struct bq_latency *l, struct bq_parse_error *err)
{
	uint32_t a = l->t.dio_align;

	if (!l->o.direct || !a)
		return 0;
	if (l->t.size % a)
		return bq_fail_at(err, "-s", -EINVAL, "request size %llu is not a multiple of "
				  "%u, the direct I/O alignment of %s",
				  (unsigned long long)l->t.size, a, l->o.path);
	if (l->t.offset % a)
		return bq_fail_at(err, "-o", -EINVAL, "offset %llu is not a multiple of %u, "
				  "the direct I/O alignment of %s",
				  (unsigned long long)l->t.offset, a, l->o.path);
	return 0;
}

/* The working set from the target's size; ioping's rules and defaults. */
static int size_working_set(struct bq_latency *l, uint64_t tsize, struct bq_parse_error *err)
{
	const struct bq_latency_opts *o = &l->o;
	struct bq_latency_target *t = &l->t;

	t->offset = o->offset;
	if (o->work_size) {
		if (o->work_size > tsize || o->offset > tsize - o->work_size)
			return bq_fail_at(err, "-S", -EINVAL, "a working set of %llu bytes at "
					  "offset %llu does not fit in %s (%llu bytes)",
					  (unsigned long long)o->work_size,
					  (unsigned long long)o->offset, o->path,
					  (unsigned long long)tsize);
		t->work_size = o->work_size;
	} else {
		if (o->offset >= tsize)
			return bq_fail_at(err, "-o", -EINVAL, "offset %llu is past the end of %s "
					  "(%llu bytes)", (unsigned long long)o->offset,
					  o->path, (unsigned long long)tsize);
		t->work_size = tsize - o->offset;
	}
	if (t->size > t->work_size)
		return bq_fail_at(err, "-s", -EINVAL, "request size %llu is larger than the "
				  "working set (%llu bytes)", (unsigned long long)t->size,
				  (unsigned long long)t->work_size);
	return 0;
}

static int setup_engine(struct bq_latency *l, struct bq_parse_error *err)
{
	int ret;

	l->rw_flags = (l->o.nowait ? RWF_NOWAIT : 0) | (l->o.hipri ? RWF_HIPRI : 0);
	switch (l->o.engine) {
	case BQ_LATENCY_LIBAIO:
		ret = io_setup(1, &l->aio);
		if (ret)
			return bq_fail_at(err, "-A", ret, "io_setup: %s", strerror(-ret));
		l->aio_ready = true;
		break;
	case BQ_LATENCY_URING:
		ret = io_uring_queue_init(2, &l->ring, 0);
		if (ret)
			return bq_fail_at(err, "-U", ret, "io_uring_setup: %s", strerror(-ret));
		l->ring_ready = true;
		break;
	case BQ_LATENCY_PSYNC:
		break;
	}
	return 0;
}

int bq_latency_open(struct bq_ctx *ctx, const struct bq_latency_opts *o,
		    struct bq_latency **lp, struct bq_parse_error *err)
{
	struct bq_latency *l;
	bool created = false;
	uint64_t tsize = 0;
	struct stat st;
	int ret;

	memset(err, 0, sizeof(*err));
	l = calloc(1, sizeof(*l));
	if (!l)
		return bq_fail_at(err, o->path, -ENOMEM, "out of memory");
	l->o = *o;
	l->fd = -1;
	l->rng = o->seed ? o->seed : bq_now_ns();
	bq_strlcpy(l->t.path, o->path, sizeof(l->t.path));
	l->t.size = o->size ? o->size : o->linear ? 256 << 10 : 4 << 10;
	ret = -EINVAL;
	if (l->t.size > BQ_LATENCY_MAX_REQUEST) {
		bq_fail_at(err, "-s", ret, "request size %llu is larger than Linux moves at "
			   "once (2 GiB - 4 KiB)", (unsigned long long)l->t.size);
		goto out_close;
	}
	if (stat(o->path, &st)) {
		ret = bq_fail_at(err, o->path, -errno, "%s", strerror(errno));
		goto out_close;
	}
	if (!S_ISDIR(st.st_mode) && o->writes && o->writes < 3) {
		ret = bq_fail_at(err, o->read_write ? "-G" : "-W", -EPERM, "writing to %s "
				 "destroys what it holds: give -W three times (-WWW) as "
				 "with ioping, and the guard must allow it", o->path);
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		uint64_t dflt = o->dir_work_size ? o->dir_work_size : 1 << 20;

		l->t.is_dir = true;
		tsize = o->offset + (o->work_size ? o->work_size :
				     l->t.size > dflt ? l->t.size : dflt);
	} else if (S_ISREG(st.st_mode)) {
		tsize = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		ret = open_device(ctx, l, &st, &tsize, err);
		if (ret)
			goto out_close;
	} else {
		ret = bq_fail_at(err, o->path, -ENOTBLK, "neither a directory, a regular file "
				 "nor a device");
		goto out_close;
	}
	ret = size_working_set(l, tsize, err);
	if (ret)
		goto out_close;

	if (l->t.is_dir) {
		ret = open_temp(l, &created, err);
		if (ret < 0)
			goto out_close;
		l->fd = ret;
	} else if (S_ISREG(st.st_mode)) {
		ret = open_file(ctx, l, err);
		if (ret)
			goto out_close;
	}
	if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
		ret = file_dio_align(ctx, l->fd, st.st_dev, &l->t.dio_align);
		if (ret && o->direct) {
			bq_fail_at(err, "-D", ret, "%s does not support direct I/O", o->path);
			goto out_close;
		}
	}
	ret = check_direct(l, err);
	if (ret)
		goto out_close;
	if (l->t.is_dir) {
		ret = lay_out(l, err);
		if (ret)
			goto out_close;
		/* Laid out through the cache; only the requests go direct. */
		if (o->direct && fcntl(l->fd, F_SETFL, O_DIRECT)) {
			ret = bq_fail_at(err, "-D", -errno, "%s does not support direct I/O",
					 o->path);
			goto out_close;
		}
	}
	if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
		mount_facts(ctx, l->fd, &st, &l->t);
	/* Readahead would read past what is timed; without -C it is dropped anyway. */
	if (!o->linear || !o->cached)
		posix_fadvise(l->fd, (off_t)l->t.offset, (off_t)l->t.work_size,
			      POSIX_FADV_RANDOM);
	/*
	 * Dropping one request's range before it is made only frees the
	 * folios wholly inside it; the large ones a layout or an earlier
	 * reader left would stay cached, so drop the whole working set now.
	 */
	if (!o->cached)
		posix_fadvise(l->fd, (off_t)l->t.offset, (off_t)l->t.work_size,
			      POSIX_FADV_DONTNEED);
	if (posix_memalign(&l->buf, 4096, l->t.size)) {
		ret = bq_fail_at(err, o->path, -ENOMEM, "out of memory for a %llu-byte buffer",
				 (unsigned long long)l->t.size);
		goto out_close;
	}
	random_fill(&l->rng, l->buf, l->t.size);
	ret = setup_engine(l, err);
	if (ret)
		goto out_close;
	*lp = l;
	return 0;

out_close:
	if (created)
		unlink(l->t.tmpfile);
	bq_latency_close(l);
	return ret;
}

const struct bq_latency_target *bq_latency_target(const struct bq_latency *l)
{
	return &l->t;
}

void bq_latency_close(struct bq_latency *l)
{
	if (!l)
		return;
	if (l->ring_ready)
		io_uring_queue_exit(&l->ring);
	if (l->aio_ready)
		io_destroy(l->aio);
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	free(l);
}

/* ---- the requests ------------------------------------------------------ */

/* One request: bytes moved, or -errno. */
static long long do_request(struct bq_latency *l, bool write, uint64_t off)
{
	size_t len = (size_t)l->t.size;
	struct iovec iov = { .iov_base = l->buf, .iov_len = len };
	ssize_t r;

	switch (l->o.engine) {
	case BQ_LATENCY_LIBAIO: {
		struct iocb cb, *cbp = &cb;
		struct io_event ev;
		int ret;

		if (write)
			io_prep_pwrite(&cb, l->fd, l->buf, len, (long long)off);
		else
			io_prep_pread(&cb, l->fd, l->buf, len, (long long)off);
		cb.aio_rw_flags = l->rw_flags;
		ret = io_submit(l->aio, 1, &cbp);
		if (ret != 1)
			return ret < 0 ? ret : -EIO;
		do {
			ret = io_getevents(l->aio, 1, 1, &ev, NULL);
		} while (ret == -EINTR);
		if (ret != 1)
			return ret < 0 ? ret : -EIO;
		return (long long)(long)ev.res;
	}
	case BQ_LATENCY_URING: {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);
		struct io_uring_cqe *cqe;
		int ret;

		if (!sqe)
			return -EBUSY;
		if (write)
			io_uring_prep_write(sqe, l->fd, l->buf, (unsigned int)len, off);
		else
			io_uring_prep_read(sqe, l->fd, l->buf, (unsigned int)len, off);
		sqe->rw_flags = l->rw_flags;
		ret = io_uring_submit(&l->ring);
		if (ret < 0)
			return ret;
		do {
			ret = io_uring_wait_cqe(&l->ring, &cqe);
		} while (ret == -EINTR);
		if (ret)
			return ret;
		ret = cqe->res;
		io_uring_cqe_seen(&l->ring, cqe);
		return ret;
	}
	case BQ_LATENCY_PSYNC:
		break;
	}
	if (l->rw_flags)
		r = write ? pwritev2(l->fd, &iov, 1, (off_t)off, l->rw_flags) :
			    preadv2(l->fd, &iov, 1, (off_t)off, l->rw_flags);
	else
		r = write ? pwrite(l->fd, l->buf, len, (off_t)off) :
			    pread(l->fd, l->buf, len, (off_t)off);
	return r < 0 ? -errno : r;
}

static const char *errno_name(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "error";
}

/* ioping's verdict on one request, kept in @part; true when counted. */
static bool classify(const struct bq_latency *l, struct bq_latency_stats *part,
		     struct bq_latency_req *req)
{
	const struct bq_latency_opts *o = &l->o;
	uint64_t t = req->time_ns;

	part->count++;
	if (req->index <= o->warmup) {
		req->notice = "warmup";
		return false;
	}
	if (t < o->min_valid_ns) {
		req->notice = "too fast";
		part->too_fast++;
		return false;
	}
	if (o->max_valid_ns && t > o->max_valid_ns) {
		req->notice = "too slow";
		part->too_slow++;
		return false;
	}
	bq_hist_add(&part->lat, t);
	req->notice = NULL;
	if (part->lat.count > 5) {
		double avg = part->lat.sum / (double)part->lat.count;

		if ((double)t * 2 < avg)
			req->notice = "fast";
		else if ((double)t > avg * 2)
			req->notice = "slow";
	}
	return true;
}

/* Sleep until @until (CLOCK_MONOTONIC), or until asked to stop. */
static void sleep_until(const struct bq_latency *l, uint64_t until)
{
	struct timespec ts = {
		.tv_sec = (time_t)(until / NSEC_PER_SEC),
		.tv_nsec = (long)(until % NSEC_PER_SEC),
	};

	while (!(l->o.stop && *l->o.stop) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static uint64_t effective_interval(const struct bq_latency *l)
{
	const struct bq_latency_opts *o = &l->o;
	uint64_t iv = o->interval_ns;

	if (o->speed_limit) {
		uint64_t i = (uint64_t)((double)l->t.size * 1e9 / (double)o->speed_limit);

		if (i > iv)
			iv = i;
	}
	if (o->rate_limit > 0) {
		uint64_t i = (uint64_t)(1e9 / o->rate_limit);

		if (i > iv)
			iv = i;
	}
	return iv;
}

static int request_failed(struct bq_latency *l, struct bq_latency_req *req, int ret,
			  const char *what, struct bq_parse_error *err)
{
	char where[64];

	snprintf(where, sizeof(where), "request %llu", (unsigned long long)req->index);
	return bq_fail_at(err, where, ret, "%s at offset %llu of %s: %s%s", what,
			  (unsigned long long)req->offset, l->o.path, strerror(-ret),
			  !strcmp(what, "fdatasync") || !strcmp(what, "fadvise") ?
			  " (retry with -C)" : "");
}

int bq_latency_run(struct bq_latency *l, struct bq_latency_stats *total,
		   struct bq_parse_error *err)
{
	const struct bq_latency_opts *o = &l->o;
	const struct bq_latency_target *t = &l->t;
	uint64_t slots = t->work_size / t->size, woff = 0, burst_done = 0, index = 0;
	uint64_t now, next, deadline = 0, period_deadline, interval = effective_interval(l);
	struct bq_latency_stats part;
	int ret;

	memset(err, 0, sizeof(*err));
	now = bq_now_ns();
	ret = bq_latency_stats_init(&part, t->size, now);
	if (ret)
		return bq_fail_at(err, o->path, ret, "out of memory");
	total->start_ns = now;
	total->size = t->size;
	if (o->deadline_ns)
		deadline = now + o->deadline_ns;
	period_deadline = now + o->period_ns;
	next = now;

	while (!(o->stop && *o->stop)) {
		struct bq_latency_req req = { .index = ++index };
		uint64_t start;
		long long r;

		if (!o->linear)
			woff = bq_splitmix64(&l->rng) % slots * t->size;
		req.offset = t->offset + woff;
		req.write = o->read_write ? (req.index & 1) : o->writes > 0;
		if (!o->cached) {
			ret = -posix_fadvise(l->fd, (off_t)req.offset, (off_t)t->size,
					     POSIX_FADV_DONTNEED);
			if (ret) {
				request_failed(l, &req, ret, "fadvise", err);
				break;
			}
		}
		if (req.write)
			random_fill(&l->rng, l->buf, t->size);

		start = bq_now_ns();
		r = do_request(l, req.write, req.offset);
		if (r >= 0 && req.write && !o->cached && fdatasync(l->fd)) {
			ret = -errno;
			request_failed(l, &req, ret, "fdatasync", err);
			break;
		}
		now = bq_now_ns();
		clock_gettime(CLOCK_REALTIME, &req.when);

		if (r < 0) {
			if (!o->ignore_errors && r != -EINTR && !(o->nowait && r == -EAGAIN)) {
				ret = (int)r;
				request_failed(l, &req, ret, req.write ? "write" : "read", err);
				break;
			}
			req.notice = errno_name((int)-r);
			r = 0;
		} else if ((uint64_t)r > t->size) {
			ret = -EIO;
			request_failed(l, &req, ret, req.write ? "write" : "read", err);
			break;
		}
		req.bytes = (uint64_t)r;
		req.time_ns = now - start;

		if (!o->burst || ++burst_done == o->burst) {
			burst_done = 0;
			next += interval;
			req.burst_end = o->burst != 0;
		}
		if (now > next)
			next = now;
		if (req.bytes)
			req.valid = classify(l, &part, &req);
		if (o->on_request)
			o->on_request(&req, o->arg);

		if ((o->period_requests && part.lat.count >= o->period_requests) ||
		    (o->period_ns && next >= period_deadline)) {
			part.finish_ns = now;
			if (o->on_period)
				o->on_period(&part, o->arg);
			stats_merge(total, &part);
			stats_restart(&part, now);
			period_deadline = now + o->period_ns;
		}
		if (o->linear) {
			woff += t->size;
			if (woff + t->size > t->work_size)
				woff = 0;
		}
		if (o->stop && *o->stop)
			break;
		if (o->count && index >= o->count)
			break;
		if (deadline && next >= deadline)
			break;
		if (next > now)
			sleep_until(l, next);
	}
	now = bq_now_ns();
	part.finish_ns = now;
	stats_merge(total, &part);
	total->finish_ns = now;
	bq_latency_stats_free(&part);
	return ret;
}
