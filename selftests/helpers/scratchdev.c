// SPDX-License-Identifier: GPL-2.0-only
/*
 * scratchdev.c - test helper: fixture setup that a test body can act on,
 * a scratch loop device in one call, and proof that a device was not written
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/loop.h>

#include "helpers/scratchdev.h"

/**
 * prep_skip() - record that the test cannot run on this machine
 * @p: the setup record
 * @why: the reason, shown in the TAP output; must outlive the test
 */
void prep_skip(struct prep *p, const char *why)
{
	if (!p->skip && !p->err)
		p->skip = why;
}

/**
 * prep_fail() - record that a setup step failed
 * @p: the setup record
 * @step: what was being done
 * @err: negative errno or positive exit status; 0 records nothing
 *
 * Only the first failure is kept: later ones are usually its consequences.
 */
void prep_fail(struct prep *p, const char *step, int err)
{
	if (!err || p->skip || p->err)
		return;
	p->step = step;
	p->err = err;
}

/**
 * prep_ok() - whether setup may go on
 * @p: the setup record
 *
 * Return: true when nothing was skipped or failed so far.
 */
bool prep_ok(const struct prep *p)
{
	return !p->skip && !p->err;
}

/**
 * scratch_init() - mark a scratch as holding nothing yet
 * @s: the scratch
 *
 * The harness zeroes fixture data, and descriptor 0 is stdin: without this
 * a teardown after a skipped setup would close it.
 */
void scratch_init(struct scratch *s)
{
	memset(s, 0, sizeof(*s));
	s->hold_fd = -1;
}

/**
 * scratch_device() - a sparse file and a loop device over it, for a fixture
 * @p: the setup record; skip or failure is recorded here
 * @s: the scratch, set up with scratch_init(); scratch_destroy() undoes
 *     whatever part of it was made, whatever @p says
 * @size: size of the file and the device
 */
void scratch_device(struct prep *p, struct scratch *s, off_t size)
{
	int ret;

	if (!prep_ok(p))
		return;
	prep_skip(p, need_root());
	/* A kernel without the loop driver is a machine we cannot test on. */
	if (prep_ok(p) && access("/dev/loop-control", F_OK))
		prep_skip(p, "needs /dev/loop-control (loop driver)");
	if (!prep_ok(p))
		return;
	ret = scratch_make(s, size);
	prep_fail(p, "making the scratch file", ret);
	if (!ret)
		prep_fail(p, "attaching a loop device", scratch_attach(s));
}

/**
 * scratch_device_lbs() - scratch_device() with another logical block size
 * @p: what setup recorded so far
 * @s: the scratch file and device
 * @size: the file's size
 * @lbs: the loop device's logical block size (LOOP_SET_BLOCK_SIZE)
 *
 * For the tests of direct I/O that is aligned to 512 bytes but not to
 * the device's blocks.
 */
void scratch_device_lbs(struct prep *p, struct scratch *s, off_t size, unsigned int lbs)
{
	scratch_device(p, s, size);
	if (prep_ok(p))
		prep_fail(p, "LOOP_SET_BLOCK_SIZE",
			  ioctl(s->hold_fd, LOOP_SET_BLOCK_SIZE, (unsigned long)lbs) ? -errno : 0);
}

/**
 * checksum_region() - a checksum of a range of a file or device
 * @path: what to read
 * @off: first byte
 * @len: bytes to hash; a shorter file or device is hashed as far as it goes
 * @sum: receives the checksum
 *
 * FNV-1a over 64-bit words: not cryptographic, but any write the guard
 * might make changes it.
 *
 * Return: 0 or -errno.
 */
int checksum_region(const char *path, off_t off, off_t len, uint64_t *sum)
{
	const size_t bufsz = 1 << 20;
	uint64_t h = 0xcbf29ce484222325ULL;
	uint64_t *buf;
	ssize_t n = 0;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(bufsz);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close_fd;
	}
	while (len > 0 &&
	       (n = pread(fd, buf, len < (off_t)bufsz ? (size_t)len : bufsz, off)) > 0) {
		/* Zero the tail so a short last read hashes deterministically. */
		if (n % 8)
			memset((char *)buf + n, 0, 8 - n % 8);
		for (size_t i = 0; i < ((size_t)n + 7) / 8; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
		h = (h ^ (uint64_t)n) * 0x100000001b3ULL;
		off += n;
		len -= n;
	}
	if (n < 0)
		ret = -errno;
	else
		*sum = h;
	free(buf);
out_close_fd:
	close(fd);
	return ret;
}

/**
 * checksum_path() - a checksum of everything a file or device holds
 * @path: what to read
 * @sum: receives the checksum
 *
 * Return: 0 or -errno.
 */
int checksum_path(const char *path, uint64_t *sum)
{
	return checksum_region(path, 0, INT64_MAX, sum);
}

/**
 * random_file() - a new file of @size bytes from /dev/urandom
 * @path: the file, which must not exist yet
 * @size: a multiple of 64 KiB
 *
 * Return: 0 or -errno.
 */
int random_file(const char *path, off_t size)
{
	char buf[65536];
	int fd, rnd, ret = 0;

	rnd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (rnd < 0)
		return -errno;
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out_close_rnd;
	}
	for (off_t done = 0; !ret && done < size; done += sizeof(buf))
		if (read(rnd, buf, sizeof(buf)) != sizeof(buf) ||
		    write(fd, buf, sizeof(buf)) != sizeof(buf))
			ret = -EIO;
	close(fd);
out_close_rnd:
	close(rnd);
	return ret;
}

/*
 * Behind the tools' backs: @len bytes of @buf at @off of the scratch
 * device's backing file, flushed, and the device's cache dropped, so the
 * next direct read sees them.
 */
int scratch_pwrite(const struct scratch *s, off_t off, const void *buf, size_t len)
{
	int fd, dev, ret = 0;

	fd = open(s->file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pwrite(fd, buf, len, off) != (ssize_t)len || fsync(fd))
		ret = -EIO;
	close(fd);
	dev = open(s->dev, O_RDONLY | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	if (!ret && ioctl(dev, BLKFLSBUF, 0))
		ret = -errno;
	close(dev);
	return ret;
}

/* The same with @len bytes (at most 1 MiB) of random data drawn from @seed. */
int scratch_plant(const struct scratch *s, off_t off, size_t len, unsigned int seed)
{
	static uint8_t buf[1 << 20];

	if (len > sizeof(buf))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)rand_r(&seed);
	return scratch_pwrite(s, off, buf, len);
}

/* Foreign data over the first @size bytes: a block read back unwritten is a bad one. */
int scratch_fill_foreign(const struct scratch *s, off_t size, unsigned int seed)
{
	int ret = 0;

	for (off_t off = 0; !ret && off < size; off += 1 << 20)
		ret = scratch_plant(s, off, 1 << 20, seed + (unsigned int)(off >> 20));
	return ret;
}
