// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_nvme_cmd_test.c - fio's io_uring_cmd NVMe extras on QEMU's
 * emulated NVMe (VM guest): write_mode= sends Write Zeroes, Verify and
 * mixes of them, and trims are Dataset Management commands of num_range
 * ranges, counted as fio counts them (one I/O per command).
 *
 * The device's data is read back through the block device (O_DIRECT) to
 * show which command really ran: Write Zeroes leaves zeros where a
 * pattern was, Verify leaves the pattern.  A DSM's success is the NVMe
 * status the ioctl returns: QEMU's drive here ignores discards, so the
 * blocks keep their data.  offset=N% and offset_increment=N% count from
 * the namespace's size (sysfs's, here): the pattern lands there and
 * nowhere before it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/attr.h"
#include "helpers/json.h"
#include "helpers/run.h"

#define NG "/dev/ng0n1"
#define BLK "/dev/nvme0n1"

#define NEED_NG() do { \
	if (access("/sys/block/nvme1n1", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
	if (access(NG, F_OK)) \
		SKIP(return, "no " NG " (kernel without NVMe generic devices)"); \
} while (0)

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* blkqual run with @extra options on the namespace; the JSON, or NULL. */
static json_object *run_cmd(struct __test_metadata *_metadata, const char *rw,
			    const char *size, const char *const *extra)
{
	const char *argv[32] = { NULL, "run", "--no-status", "-o", "json", "--name=nv",
				 "--ioengine=io_uring_cmd", "--cmd_type=nvme",
				 "--filename=" NG, "--bs=4k", "--iodepth=8" };
	char rwopt[64], sizeopt[64];
	struct run_result r;
	json_object *root;
	int n = 11;

	argv[0] = blkqual_path();
	snprintf(rwopt, sizeof(rwopt), "--rw=%s", rw);
	snprintf(sizeopt, sizeof(sizeopt), "--size=%s", size);
	argv[n++] = rwopt;
	argv[n++] = sizeopt;
	while (extra && *extra)
		argv[n++] = *extra++;
	argv[n] = NULL;
	if (run_argv(argv, &r))
		return NULL;
	/* Exit 1: the run finished with I/O errors, and its JSON counts them. */
	if (r.status && !(r.status == 1 && strstr(r.out, "\"jobs\""))) {
		TH_LOG("%s: exit %d: %s", rw, r.status, r.err);
		run_result_free(&r);
		return NULL;
	}
	root = json_tokener_parse(r.out);
	run_result_free(&r);
	return root;
}

/* Bytes of the first @len of the namespace that are not zero; -1 on error. */
static long nonzero_bytes(size_t len)
{
	unsigned char *buf;
	long nz = 0;
	int fd;

	if (posix_memalign((void **)&buf, 4096, len))
		return -1;
	fd = open(BLK, O_RDONLY | O_DIRECT);
	if (fd < 0 || pread(fd, buf, len, 0) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return -1;
	}
	close(fd);
	for (size_t i = 0; i < len; i++)
		nz += buf[i] != 0;
	free(buf);
	return nz;
}

/* Fill the first @len bytes with 0x5a through the block device (O_DIRECT). */
static void fill(struct __test_metadata *_metadata, size_t len)
{
	unsigned char *buf = NULL;
	int fd;

	ASSERT_EQ(0, posix_memalign((void **)&buf, 4096, len));
	memset(buf, 0x5a, len);
	fd = open(BLK, O_WRONLY | O_DIRECT);
	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)len, pwrite(fd, buf, len, 0));
	close(fd);
	free(buf);
	ASSERT_EQ((long)len, nonzero_bytes(len));
}

TEST(write_mode_zeroes_clears_the_blocks)
{
	static const char *const wz[] = { "--write_mode=zeroes", NULL };
	json_object *root;

	NEED_NG();
	fill(_metadata, 1 << 20);
	root = run_cmd(_metadata, "write", "1m", wz);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(256, json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(1 << 20, json_int(job0(root), "total.write.bytes", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.write.errors", -1));
	json_object_put(root);
	/* A plain Write would have left the buffer's bytes. */
	EXPECT_EQ(0, nonzero_bytes(1 << 20));
}

TEST(write_mode_verify_leaves_the_data)
{
	static const char *const vf[] = { "--write_mode=verify", "--writefua=1", NULL };
	json_object *root;

	NEED_NG();
	fill(_metadata, 1 << 20);
	root = run_cmd(_metadata, "randwrite", "1m", vf);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(256, json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.write.errors", -1));
	json_object_put(root);
	/* Verify reads the medium; nothing is written. */
	EXPECT_EQ(1 << 20, nonzero_bytes(1 << 20));
}

TEST(write_mode_mix_counts_every_command)
{
	static const char *const mix[] = { "--write_mode=write/50:zeroes/:verify/", "--deac=1",
					   "--nonvectored=0", NULL };
	json_object *root;

	NEED_NG();
	root = run_cmd(_metadata, "randwrite", "4m", mix);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(1024, json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(4 << 20, json_int(job0(root), "total.write.bytes", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.write.errors", -1));
	/* Commands without data are not polled (Linux 6.1 crashes polling them). */
	EXPECT_FALSE(json_object_get_boolean(json_object_object_get(
		json_object_object_get(job0(root), "completions"), "polled")));
	json_object_put(root);
}

TEST(write_mode_zeroes_refuses_poll_on)
{
	struct run_result r;

	NEED_NG();
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--name=p",
				 "--ioengine=io_uring_cmd", "--filename=" NG, "--rw=write",
				 "--write_mode=zeroes", "--size=64k", "--poll=on", NULL));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "no data")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/*
 * Write Uncorrectable: QEMU's controller may not have it (ONCS bit 1);
 * then every command fails with its status, none is counted as done.
 */
TEST(write_mode_uncor_is_sent)
{
	static const char *const uc[] = { "--write_mode=uncor", "--continue_on_error=all",
					  "--offset=8m", NULL };
	json_object *root;
	long long ios, errs;

	NEED_NG();
	root = run_cmd(_metadata, "write", "64k", uc);
	ASSERT_NE(NULL, root);
	ios = json_int(job0(root), "total.write.ios", -1);
	errs = json_int(job0(root), "total.write.errors", -1);
	TH_LOG("uncor: %lld done, %lld failed", ios, errs);
	EXPECT_EQ(16, ios + errs);
	json_object_put(root);
}

TEST(trim_multi_range_is_one_io_per_dsm)
{
	static const char *const nr8[] = { "--num_range=8", NULL };
	static const char *const split[] = { "--num_range=8", "--bssplit=4k/10:64k/50:32k/40",
					     NULL };
	json_object *root;

	NEED_NG();
	root = run_cmd(_metadata, "randtrim", "4m", nr8);
	ASSERT_NE(NULL, root);
	/* 1024 blocks of 4k, eight ranges a command: fio's count. */
	EXPECT_EQ(128, json_int(job0(root), "total.trim.ios", -1));
	EXPECT_EQ(4 << 20, json_int(job0(root), "total.trim.bytes", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.trim.errors", -1));
	json_object_put(root);

	root = run_cmd(_metadata, "trim", "4m", split);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(4 << 20, json_int(job0(root), "total.trim.bytes", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.trim.errors", -1));
	json_object_put(root);
}

TEST(trim_single_range)
{
	json_object *root;

	NEED_NG();
	root = run_cmd(_metadata, "trim", "1m", NULL);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(256, json_int(job0(root), "total.trim.ios", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.trim.errors", -1));
	json_object_put(root);
}

/* Bytes of [@off, @off + @len) of the namespace that are not zero; -1 on error. */
static long nonzero_at(off_t off, size_t len)
{
	unsigned char *buf;
	long nz = 0;
	int fd;

	if (posix_memalign((void **)&buf, 4096, len))
		return -1;
	fd = open(BLK, O_RDONLY | O_DIRECT);
	if (fd < 0 || pread(fd, buf, len, off) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return -1;
	}
	close(fd);
	for (size_t i = 0; i < len; i++)
		nz += buf[i] != 0;
	free(buf);
	return nz;
}

static int zero_at(off_t off, size_t len)
{
	void *buf;
	int fd, ret = 0;

	if (posix_memalign(&buf, 4096, len))
		return -1;
	memset(buf, 0, len);
	fd = open(BLK, O_WRONLY | O_DIRECT);
	if (fd < 0 || pwrite(fd, buf, len, off) != (ssize_t)len)
		ret = -1;
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/*
 * offset=50% writes from the middle of the namespace; with numjobs=2 and
 * offset_increment=25%, the second thread from three quarters.  The
 * namespace's size is the kernel's (sysfs), the data read back through
 * the block device.
 */
TEST(offset_percent_counts_from_the_namespace_size)
{
	const char *const extra[] = { "--offset=50%", "--numjobs=2", "--offset_increment=25%",
				      "--buffer_pattern=0x5a", NULL };
	long long sectors;
	json_object *root;
	off_t half, three_q;

	NEED_NG();
	ASSERT_EQ(0, attr_read_ll("/sys/block/nvme0n1/size", &sectors));
	half = (off_t)(sectors * 512 / 100 * 50 + sectors * 512 % 100 * 50 / 100);
	half = (half + 4095) / 4096 * 4096;
	three_q = (off_t)(sectors * 512 / 100 * 75 + sectors * 512 % 100 * 75 / 100);
	three_q = (three_q + 4095) / 4096 * 4096;
	ASSERT_EQ(0, zero_at(half - 65536, 196608));
	ASSERT_EQ(0, zero_at(three_q - 65536, 196608));
	root = run_cmd(_metadata, "write", "64k", extra);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(32, json_int(job0(root), "total.write.ios", -1));
	json_object_put(root);
	EXPECT_EQ(0, nonzero_at(half - 65536, 65536));
	EXPECT_EQ(65536, nonzero_at(half, 65536));
	EXPECT_EQ(0, nonzero_at(half + 65536, 65536));
	EXPECT_EQ(0, nonzero_at(three_q - 65536, 65536));
	EXPECT_EQ(65536, nonzero_at(three_q, 65536));
	EXPECT_EQ(0, nonzero_at(three_q + 65536, 65536));
}

TEST_HARNESS_MAIN
