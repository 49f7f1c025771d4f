// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_state.c - the verify state file, and blkqual verify: reading
 * back every block a state says was written
 *
 * The state is mapped, never read into memory: a 4 TiB device in 4 KiB
 * blocks has a 8 GiB array, of which only the pages a run touches become
 * memory, and the kernel writes them back on its own.  A writer that
 * crashes leaves its in-flight counts in the file; the next writer turns
 * them into "either of the last two generations" before it starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "device/device_int.h"
#include "internal.h"
#include "verify_int.h"

_Static_assert(sizeof(struct bq_vstate_disk) <= BQ_VSTATE_HDR, "state header too big");

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t bq_verify_new_seed(void)
{
	uint64_t seed;

	/* Every run's data differs, so a block left from another run is stale, not ours. */
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = wall_ns() ^ ((uint64_t)getpid() << 32);
	return seed ? seed : 1;
}

void bq_vstate_seal(struct bq_vstate_disk *hdr)
{
	hdr->header_crc = bq_crc32c(0, hdr, offsetof(struct bq_vstate_disk, header_crc));
}

/**
 * bq_vident_read() - who an open target is
 * @ctx: context
 * @path: as named
 * @fd: open descriptor
 * @id: filled in
 *
 * A block device, a regular file, or an NVMe generic device (its namespace).
 *
 * Return: 0 or -errno.
 */
/*
 * An NVMe generic device (io_uring_cmd): its namespace's size and block
 * from Identify, its name and serial from the namespace's block device.
 */
static int vident_ng(struct bq_ctx *ctx, int fd, const struct stat *st, struct bq_vident *id)
{
	const char *base = strrchr(id->target, '/');
	struct bq_nvme_ns ns;
	struct bq_device dev;
	char blk[64];

	if (bq_nvme_ns_read(fd, &ns) || !ns.lba_size || ns.nsze > UINT64_MAX / ns.lba_size)
		return -ENOTBLK;
	id->size = ns.nsze * ns.lba_size;
	id->lbs = ns.lba_size;
	id->dev = (uint64_t)st->st_rdev;
	base = base ? base + 1 : id->target;
	bq_strlcpy(id->devname, base, sizeof(id->devname));
	if (ctx && !bq_nvme_ng_to_blk(base, blk, sizeof(blk)) && !bq_device_load(ctx, blk, &dev)) {
		bq_strlcpy(id->model, dev.model, sizeof(id->model));
		if (dev.serial[0])
			snprintf(id->identity, sizeof(id->identity), "%.200s ns %u", dev.serial,
				 ns.nsid);
		bq_device_release(&dev);
	}
	return 0;
}

int bq_vident_read(struct bq_ctx *ctx, const char *path, int fd, struct bq_vident *id)
{
	char real[PATH_MAX], arg[32], name[64];
	struct bq_device dev;
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (fstat(fd, &st))
		return -errno;
	bq_strlcpy(id->target, realpath(path, real) ? real : path, sizeof(id->target));
	if (S_ISREG(st.st_mode)) {
		id->size = (uint64_t)st.st_size;
		id->lbs = 512;
		id->dev = (uint64_t)st.st_dev;
		id->ino = (uint64_t)st.st_ino;
		return 0;
	}
	if (S_ISCHR(st.st_mode))
		return vident_ng(ctx, fd, &st, id);
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	{
		unsigned long long bytes = 0;
		int lbs = 512;

		if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs))
			return -errno;
		id->size = bytes;
		id->lbs = (uint32_t)lbs;
	}
	id->dev = (uint64_t)st.st_rdev;
	snprintf(arg, sizeof(arg), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (ctx && !bq_device_resolve(ctx, arg, name, sizeof(name)) &&
	    !bq_device_load(ctx, name, &dev)) {
		bq_strlcpy(id->devname, dev.name, sizeof(id->devname));
		bq_strlcpy(id->model, dev.model, sizeof(id->model));
		/* What survives a reboot and a renumbering: the serial, or a loop's file. */
		if (dev.serial[0])
			bq_strlcpy(id->identity, dev.serial, sizeof(id->identity));
		else if (dev.kind == BQ_DEV_LOOP && dev.loop.backing_file[0])
			snprintf(id->identity, sizeof(id->identity), "loop:%.240s",
				 dev.loop.backing_file);
		bq_device_release(&dev);
	}
	return 0;
}

static size_t state_len(uint64_t nblocks)
{
	return BQ_VSTATE_HDR + (size_t)nblocks * sizeof(uint64_t);
}

static int map_state(struct bq_vstate *st, uint64_t nblocks, int prot, int flags)
{
	void *m;

	st->map_len = state_len(nblocks);
	m = mmap(NULL, st->map_len, prot, flags, st->fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	st->hdr = m;
	st->gen = (uint64_t *)(void *)((char *)m + BQ_VSTATE_HDR);
	st->nblocks = nblocks;
	return 0;
}

int bq_vstate_create(const char *path, const struct bq_vstate_disk *tmpl,
		     struct bq_vstate *st)
{
	int ret;

	memset(st, 0, sizeof(*st));
	if (tmpl->nblocks > (SIZE_MAX - BQ_VSTATE_HDR) / sizeof(uint64_t))
		return -EFBIG;
	st->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->fd < 0)
		return -errno;
	/* Sparse: the array costs disk and memory only where blocks are written. */
	if (ftruncate(st->fd, (off_t)state_len(tmpl->nblocks))) {
		ret = -errno;
		goto out_unlink;
	}
	ret = map_state(st, tmpl->nblocks, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (ret)
		goto out_unlink;
	memcpy(st->hdr, tmpl, sizeof(*tmpl));
	st->hdr->flags &= ~BQ_VSTATE_CLEAN;
	st->hdr->runs = 1;
	bq_vstate_seal(st->hdr);
	st->writer = true;
	if (msync(st->hdr, BQ_VSTATE_HDR, MS_SYNC)) {
		ret = -errno;
		munmap(st->hdr, st->map_len);
		goto out_unlink;
	}
	return 0;

out_unlink:
	unlink(path);
	close(st->fd);
	st->fd = -1;
	return ret;
}

int bq_vstate_anon(const struct bq_vstate_disk *tmpl, struct bq_vstate *st)
{
	int ret;

	memset(st, 0, sizeof(*st));
	st->fd = -1;
	if (tmpl->nblocks > (SIZE_MAX - BQ_VSTATE_HDR) / sizeof(uint64_t))
		return -EFBIG;
	ret = map_state(st, tmpl->nblocks, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	if (ret)
		return ret;
	memcpy(st->hdr, tmpl, sizeof(*tmpl));
	st->writer = true;
	return 0;
}

static int bad_state(char *why, size_t len, int ret, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return ret;
}

/* A writer crashed: its in-flight writes may or may not have landed. */
static void settle_in_flight(struct bq_vstate *st)
{
	for (uint64_t i = 0; i < st->nblocks; i++) {
		uint64_t e = st->gen[i];

		if (e >> BQ_VGEN_INFLIGHT_SHIFT)
			st->gen[i] = (e & BQ_VGEN_MASK) | BQ_VGEN_AMBIG;
	}
}

int bq_vstate_open(const char *path, bool writer, struct bq_vstate *st, char *why,
		   size_t len)
{
	struct bq_vstate_disk hdr;
	struct stat sb;
	ssize_t n;
	int ret;

	memset(st, 0, sizeof(*st));
	st->fd = open(path, (writer ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (st->fd < 0)
		return bad_state(why, len, -errno, strerror(errno));
	n = pread(st->fd, &hdr, sizeof(hdr), 0);
	if (fstat(st->fd, &sb) || n != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr.magic, BQ_VSTATE_MAGIC, sizeof(hdr.magic))) {
		ret = bad_state(why, len, -EINVAL, "not a blkqual verify state file");
		goto out_close;
	}
	if (hdr.version != BQ_VSTATE_VERSION || hdr.header_size != BQ_VSTATE_HDR) {
		ret = bad_state(why, len, -EINVAL, "a state file of another version");
		goto out_close;
	}
	if (hdr.header_crc != bq_crc32c(0, &hdr, offsetof(struct bq_vstate_disk, header_crc))) {
		ret = bad_state(why, len, -EINVAL, "the state file's header is damaged (checksum)");
		goto out_close;
	}
	if (hdr.nblocks > (SIZE_MAX - BQ_VSTATE_HDR) / sizeof(uint64_t) ||
	    (uint64_t)sb.st_size != state_len(hdr.nblocks) || !hdr.block_size ||
	    hdr.block_size % BQ_VERIFY_SECTOR || !hdr.method || hdr.method >= BQ_VERIFY_NR ||
	    hdr.pattern_len > BQ_VERIFY_MAX_PATTERN) {
		ret = bad_state(why, len, -EINVAL, "the state file is truncated or damaged");
		goto out_close;
	}
	ret = map_state(st, hdr.nblocks, PROT_READ | (writer ? PROT_WRITE : 0), MAP_SHARED);
	if (ret) {
		bad_state(why, len, ret, strerror(-ret));
		goto out_close;
	}
	st->writer = writer;
	if (!writer)
		return 0;
	if (!(st->hdr->flags & BQ_VSTATE_CLEAN))
		settle_in_flight(st);
	st->hdr->flags &= ~BQ_VSTATE_CLEAN;
	st->hdr->runs++;
	bq_vstate_seal(st->hdr);
	msync(st->hdr, BQ_VSTATE_HDR, MS_SYNC);
	return 0;

out_close:
	close(st->fd);
	st->fd = -1;
	return ret;
}

/**
 * bq_vstate_close() - unmap a state; a writer's is flushed and marked clean
 * @st: the state
 */
void bq_vstate_close(struct bq_vstate *st)
{
	if (!st->hdr)
		goto out_close;
	if (st->writer && st->fd >= 0) {
		/* The array first: "clean" must not reach the disk before it. */
		msync(st->hdr, st->map_len, MS_SYNC);
		st->hdr->flags |= BQ_VSTATE_CLEAN;
		st->hdr->updated_unix_ns = wall_ns();
		bq_vstate_seal(st->hdr);
		msync(st->hdr, BQ_VSTATE_HDR, MS_SYNC);
	}
	munmap(st->hdr, st->map_len);
	st->hdr = NULL;
	st->gen = NULL;
out_close:
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
}

void bq_vstate_fill_info(const struct bq_vstate *st, const char *path,
			 struct bq_vstate_info *info)
{
	const struct bq_vstate_disk *h = st->hdr;

	memset(info, 0, sizeof(*info));
	bq_strlcpy(info->path, path, sizeof(info->path));
	bq_strlcpy(info->target, h->target, sizeof(info->target));
	bq_strlcpy(info->devname, h->devname, sizeof(info->devname));
	bq_strlcpy(info->identity, h->identity, sizeof(info->identity));
	bq_strlcpy(info->model, h->model, sizeof(info->model));
	info->target_size = h->target_size;
	info->lbs = h->lbs;
	info->method = (enum bq_verify_method)h->method;
	info->block_size = h->block_size;
	info->seed = h->seed;
	info->region_offset = h->region_offset;
	info->nblocks = h->nblocks;
	info->clean = h->flags & BQ_VSTATE_CLEAN;
	info->runs = h->runs;
	info->created_unix_ns = h->created_unix_ns;
	info->updated_unix_ns = h->updated_unix_ns;
	for (uint64_t i = 0; i < st->nblocks; i++) {
		uint64_t e = __atomic_load_n(&st->gen[i], __ATOMIC_RELAXED);

		if (e & BQ_VGEN_MASK)
			info->blocks_written++;
		if (bq_vgen_ambiguous(e))
			info->in_flight++;
	}
}

/* ---- blkqual verify ------------------------------------------------------------ */

/* The target named (or recorded) must be the one the state describes. */
static int check_target(const struct bq_vstate_disk *h, const struct bq_vident *id,
			const char *target, bool named, struct bq_parse_error *err)
{
	if (id->size != h->target_size)
		return bq_fail_at(err, target, -EINVAL, "%llu bytes, but the state recorded a "
				  "target of %llu bytes", (unsigned long long)id->size,
				  (unsigned long long)h->target_size);
	if (id->identity[0] && h->identity[0] && strcmp(id->identity, h->identity))
		return bq_fail_at(err, target, -EINVAL, "is %s, but the state recorded %s",
				  id->identity, h->identity);
	if (!named && (id->dev != h->dev || id->ino != h->ino))
		return bq_fail_at(err, target, -EINVAL, "is no longer the device or file the state "
				  "recorded; name the target to check it anyway");
	return 0;
}

static int open_target(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	/* A filesystem without direct I/O: the page cache is all there is. */
	if (*fd < 0 && errno == EINVAL)
		*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

struct check_ctx {
	const struct bq_vstate *st;
	const struct bq_vparams *p;
	struct bq_verify_report *rep;
	int fd;
	uint8_t *buf;
	size_t buf_len;
};

static void expect_of(const struct check_ctx *c, uint64_t i, struct bq_vexpect *e)
{
	uint64_t v = c->st->gen[i], g = v & BQ_VGEN_MASK;

	*e = (struct bq_vexpect){
		.offset = c->st->hdr->region_offset + i * c->p->block_size,
		.seed = c->st->hdr->seed, .have_seed = true, .have_gen = true,
		.gen_lo = bq_vgen_ambiguous(v) ? g - 1 : g, .gen_hi = g,
	};
}

static void judge(struct check_ctx *c, uint64_t i, const uint8_t *blk)
{
	struct bq_vexpect e;
	struct bq_vbad bad;
	enum bq_verify_class cls;
	unsigned int flags;

	expect_of(c, i, &e);
	cls = bq_verify_block(blk, c->p, &e, &bad, &flags);
	bq_verify_report_add(c->rep, cls, &bad, flags);
	c->rep->blocks_checked++;
	c->rep->bytes_checked += c->p->block_size;
}

static void read_failed(struct check_ctx *c, uint64_t i, int errnum)
{
	struct bq_vbad bad = { .cls = BQ_VCLASS_READ_ERROR, .length = c->p->block_size,
			       .sectors = c->p->block_size / BQ_VERIFY_SECTOR, .first_diff = -1,
			       .err = errnum };

	expect_of(c, i, &bad.expected);
	bad.offset = bad.expected.offset;
	bq_verify_report_add(c->rep, BQ_VCLASS_READ_ERROR, &bad, 0);
	c->rep->blocks_checked++;
}

/* Blocks [first, first + n): one read; when it fails, one read per block. */
static void check_run(struct check_ctx *c, uint64_t first, uint64_t n)
{
	uint32_t bs = c->p->block_size;
	off_t off = (off_t)(c->st->hdr->region_offset + first * bs);
	ssize_t got = pread(c->fd, c->buf, (size_t)n * bs, off);

	if (got == (ssize_t)(n * bs)) {
		for (uint64_t k = 0; k < n; k++)
			judge(c, first + k, c->buf + k * bs);
		return;
	}
	for (uint64_t k = 0; k < n; k++) {
		got = pread(c->fd, c->buf, bs, off + (off_t)(k * bs));
		if (got == (ssize_t)bs)
			judge(c, first + k, c->buf);
		else
			read_failed(c, first + k, got < 0 ? errno : EIO);
	}
}

int bq_verify_state_check(struct bq_ctx *ctx, const struct bq_verify_opts *o,
			  struct bq_vstate_info *info, struct bq_verify_report *rep,
			  struct bq_parse_error *err)
{
	struct check_ctx c = { .rep = rep, .fd = -1 };
	const char *target;
	struct bq_vstate st;
	struct bq_vparams p;
	struct bq_vident id;
	char why[256];
	uint64_t done = 0, i = 0, max_run, runs = 0;
	int ret;

	memset(rep, 0, sizeof(*rep));
	memset(err, 0, sizeof(*err));
	ret = bq_vstate_open(o->state, false, &st, why, sizeof(why));
	if (ret)
		return bq_fail_at(err, o->state, ret, "%s", why);
	bq_vstate_fill_info(&st, o->state, info);
	target = o->target ? o->target : st.hdr->target;
	ret = open_target(target, &c.fd);
	if (ret) {
		bq_fail_at(err, target, ret, "%s", strerror(-ret));
		goto out_close_state;
	}
	ret = bq_vident_read(ctx, target, c.fd, &id);
	if (ret) {
		bq_fail_at(err, target, ret, "%s", ret == -ENOTBLK ?
			   "neither a block device nor a regular file" : strerror(-ret));
		goto out_close_target;
	}
	bq_strlcpy(info->target, target, sizeof(info->target));
	ret = check_target(st.hdr, &id, target, o->target != NULL, err);
	if (ret)
		goto out_close_target;
	ret = bq_vparams_init(&p, (enum bq_verify_method)st.hdr->method, st.hdr->block_size,
			      st.hdr->pattern, st.hdr->pattern_len);
	if (ret) {
		bq_fail_at(err, o->state, ret, "the state's method or block size is unusable");
		goto out_close_target;
	}
	rep->method = p.method;
	rep->block_size = p.block_size;
	rep->seed = st.hdr->seed;
	bq_strlcpy(rep->state_path, o->state, sizeof(rep->state_path));
	/* Reads of up to 1 MiB, whole blocks, aligned for O_DIRECT. */
	max_run = p.block_size >= (1u << 20) ? 1 : (1u << 20) / p.block_size;
	c.buf_len = (size_t)max_run * p.block_size;
	if (posix_memalign((void **)&c.buf, 4096, c.buf_len)) {
		ret = -ENOMEM;
		goto out_free_params;
	}
	c.st = &st;
	c.p = &p;
	while (i < st.nblocks && !(o->stop && *o->stop)) {
		uint64_t first, n = 0;

		while (i < st.nblocks && !(st.gen[i] & BQ_VGEN_MASK))
			i++;
		first = i;
		while (i < st.nblocks && n < max_run && (st.gen[i] & BQ_VGEN_MASK)) {
			i++;
			n++;
		}
		if (!n)
			break;
		check_run(&c, first, n);
		done += n;
		if (o->progress && !(++runs % 64))
			o->progress(o->arg, done, info->blocks_written);
	}
	ret = 0;
	free(c.buf);
out_free_params:
	bq_vparams_free(&p);
out_close_target:
	close(c.fd);
out_close_state:
	bq_vstate_close(&st);
	return ret;
}
