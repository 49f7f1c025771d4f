// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_sg_test.c - ioengine=sg on real SCSI devices (issue 19): the
 * scsi_debug LUNs of the VM, through their sg nodes (/dev/sgN, commands
 * written and read back, iodepth of them in flight) and through SG_IO on
 * the disks (/dev/sdX).  What blkqual counts is what the disk counts; data
 * written through sg reads back the same through the block device; a
 * write through an sg node whose disk is mounted or holds a filesystem is
 * refused before any I/O (the sg node is a second name for the disk, one
 * the kernel's exclusive open does not cover); past 2^32 blocks the
 * commands are READ(16), seen in the kernel's SCSI trace.  fio is not in
 * the VM, so fio's own figures are not compared here.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <scsi/sg.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

#define DISK "sdd"
#define VGB "/sys/bus/pseudo/drivers/scsi_debug/virtual_gb"
#define TRACING "/sys/kernel/tracing"

#define NEED_GUEST() do { \
	if (access("/sys/block/" DISK "/device/scsi_generic", F_OK)) \
		SKIP(return, "no scsi_debug LUN with an sg node; run 'make check-vm'"); \
} while (0)

/* /dev/sgN of DISK, waiting for udev-less devtmpfs to show it. */
static int sg_node(char *buf, size_t len)
{
	for (int tries = 0; tries < 50; tries++) {
		DIR *d = opendir("/sys/block/" DISK "/device/scsi_generic");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (strncmp(e->d_name, "sg", 2))
				continue;
			snprintf(buf, len, "/dev/%s", e->d_name);
			closedir(d);
			if (!access(buf, F_OK))
				return 0;
			d = NULL;
			break;
		}
		if (d)
			closedir(d);
		usleep(100000);
	}
	return -ENOENT;
}

static int sh(const char *cmd)
{
	int ret = system(cmd);

	return ret == 0 ? 0 : -1;
}

static int put(const char *path, const char *val)
{
	/* O_TRUNC: writing the trace file empties it only so. */
	int fd = open(path, O_WRONLY | O_TRUNC), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

/* TEST UNIT READY until the device stops reporting unit attentions. */
static void settle(const char *sg)
{
	int fd = open(sg, O_RDWR);

	for (int i = 0; fd >= 0 && i < 5; i++) {
		unsigned char cdb[6] = { 0 }, sense[32];
		struct sg_io_hdr h = {
			.interface_id = 'S', .dxfer_direction = SG_DXFER_NONE, .cmd_len = 6,
			.mx_sb_len = sizeof(sense), .cmdp = cdb, .sbp = sense, .timeout = 5000,
		};

		if (!ioctl(fd, SG_IO, &h) && (h.info & SG_INFO_OK_MASK) == SG_INFO_OK)
			break;
	}
	if (fd >= 0)
		close(fd);
}

/* Lines of the SCSI trace that name @op and, when given, @also. */
static int trace_count2(const char *op, const char *also)
{
	FILE *f = fopen(TRACING "/trace", "r");
	char line[1024];
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, op) && (!also || strstr(line, also)))
			n++;
	if (f)
		fclose(f);
	return n;
}

static int trace_count(const char *op)
{
	return trace_count2(op, NULL);
}

/*
 * Distinct first LBAs in [@lo, @hi) of the traced commands @op with @also;
 * @total receives how many commands there were in that range.  The range
 * keeps out the kernel's own reads of the disk's first blocks.
 */
static int trace_lbas(const char *op, const char *also, unsigned long long lo,
		      unsigned long long hi, int *total)
{
	FILE *f = fopen(TRACING "/trace", "r");
	static unsigned char seen[1 << 16];
	char line[1024];
	int n = 0;

	memset(seen, 0, sizeof(seen));
	*total = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, op);
		unsigned long long lba;

		if (!p || !strstr(line, also) || !(p = strstr(p, "lba=")) ||
		    sscanf(p, "lba=%llu", &lba) != 1 || lba < lo || lba >= hi ||
		    lba - lo >= sizeof(seen))
			continue;
		(*total)++;
		if (!seen[lba - lo]++)
			n++;
	}
	if (f)
		fclose(f);
	return n;
}

/* The kernel's own record of each SCSI command sent; -1: no tracing. */
static int trace_start(void)
{
	if (access(TRACING "/trace", F_OK))
		mount("tracefs", TRACING, "tracefs", 0, NULL);
	if (access(TRACING "/events/scsi/scsi_dispatch_cmd_done/enable", W_OK))
		return -1;
	put(TRACING "/events/scsi/scsi_dispatch_cmd_done/enable", "0");
	put(TRACING "/buffer_size_kb", "8192");
	if (put(TRACING "/trace", ""))
		return -1;
	return put(TRACING "/events/scsi/scsi_dispatch_cmd_done/enable", "1");
}

static void trace_stop(void)
{
	put(TRACING "/events/scsi/scsi_dispatch_cmd_done/enable", "0");
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

static long long disk_stat(json_object *root, const char *what)
{
	char path[64];

	snprintf(path, sizeof(path), "disk_stats.%s", what);
	return json_int(json_object_array_get_idx(json_object_object_get(job0(root), "targets"),
						  0), path, -1);
}

#define RUN_JSON(r, ...) ({ \
	json_object *_root = NULL; \
	if (!run_blkqual(r, "run", "--no-status", "-o", "json", "--name=sg", \
			 "--ioengine=sg", __VA_ARGS__, NULL) && !(r)->status) \
		_root = json_tokener_parse((r)->out); \
	_root; \
})

/*
 * Linux 6.1 leaves SCSI passthrough (SG_IO, sg) out of /proc/diskstats,
 * so the device's count is taken from the kernel's SCSI trace: every
 * command dispatched to the LUNs, with its opcode and length.
 */
TEST(sg_io_on_the_disk_counts_what_the_disk_counts)
{
	struct run_result r;
	json_object *root;
	int places, total;

	NEED_GUEST();
	if (trace_start())
		SKIP(return, "no SCSI tracepoints in this kernel");
	root = RUN_JSON(&r, "--filename=/dev/" DISK, "--rw=randwrite", "--bs=4k",
			"--size=1m", "--direct=1", "--writefua=1");
	trace_stop();
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(256, json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(1 << 20, json_int(job0(root), "total.write.bytes", -1));
	TH_LOG("SG_IO writes: blkqual 256, SCSI trace %d WRITE_10, diskstats %lld",
	       trace_count("WRITE_10"), disk_stat(root, "write_ios"));
	EXPECT_EQ(256, trace_count2("WRITE_10", "txlen=8 "));
	EXPECT_EQ(256, trace_count("WRITE_10"));
	/* writefua=1: the FUA bit is in byte 1 of each (raw=2a 08 ...). */
	EXPECT_EQ(256, trace_count2("WRITE_10", "raw=2a 08 "));
	json_object_put(root);
	run_result_free(&r);

	ASSERT_EQ(0, trace_start());
	/* 1 MiB at 16 MiB: LBAs 32768..34815. */
	root = RUN_JSON(&r, "--filename=/dev/" DISK, "--rw=randread", "--bs=8k",
			"--size=1m", "--offset=16m", "--iodepth=4", "--readfua=1");
	trace_stop();
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(128, json_int(job0(root), "total.read.ios", -1));
	/*
	 * The kernel reads a few blocks of the disk on its own (not with
	 * FUA): the job's reads are the ones with FUA set, all 16 blocks
	 * long, each at its own place in the job's range.
	 */
	places = trace_lbas("READ_10", "raw=28 08 ", 32768, 34816, &total);
	TH_LOG("SG_IO reads: blkqual 128; SCSI trace: %d READ_10 of 16 blocks, %d with FUA "
	       "at the job's LBAs, %d places", trace_count2("READ_10", "txlen=16 "), total,
	       places);
	EXPECT_EQ(128, places);
	EXPECT_EQ(128, total);
	EXPECT_EQ(128, trace_count2("raw=28 08 ", "txlen=16 "));
	/* readfua=1: the FUA bit is in byte 1 of each (raw=28 08 ...). */
	EXPECT_EQ(128, trace_count2("READ_10", "raw=28 08 "));
	json_object_put(root);
	run_result_free(&r);
}

TEST(sg_node_queues_iodepth_commands_per_thread)
{
	struct run_result r;
	json_object *root;
	char sg[288], arg[320];

	NEED_GUEST();
	ASSERT_EQ(0, sg_node(sg, sizeof(sg)));
	snprintf(arg, sizeof(arg), "--filename=%s", sg);
	if (trace_start())
		SKIP(return, "no SCSI tracepoints in this kernel");
	/* 20 KiB, 40 blocks: a length the guard's own reads of the disk do not have. */
	/* Two threads on one node: each reads back its own commands only. */
	root = RUN_JSON(&r, arg, "--rw=randrw", "--bs=20k", "--size=5m", "--iodepth=16",
			"--numjobs=2");
	trace_stop();
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	TH_LOG("reads: blkqual %lld, SCSI trace %d READ_10 of 40 blocks",
	       json_int(job0(root), "total.read.ios", -1), trace_count2("READ_10", "txlen=40 "));
	EXPECT_LE(json_int(job0(root), "total.read.ios", -1),
		  trace_count2("READ_10", "txlen=40 "));
	EXPECT_EQ(json_int(job0(root), "total.write.ios", -1), trace_count("WRITE_10"));
	EXPECT_EQ(512, json_int(job0(root), "total.read.ios", 0) +
			json_int(job0(root), "total.write.ios", 0));
	TH_LOG("%s, 2 threads at depth 16: mean depth %.1f; disk counted %lld reads, %lld writes", sg,
	       json_dbl(job0(root), "total.mean_depth", -1), disk_stat(root, "read_ios"),
	       disk_stat(root, "write_ios"));
	EXPECT_LT(1.5, json_dbl(job0(root), "total.mean_depth", 16));
	json_object_put(root);
	run_result_free(&r);
}

/* Fill the first @len bytes of the disk through its block device, or check them. */
static int disk_io(bool write, size_t len, uint8_t **out)
{
	int fd = open("/dev/" DISK, (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	void *buf = NULL;
	ssize_t n;

	if (fd < 0 || posix_memalign(&buf, 4096, len))
		return -1;
	memset(buf, 0, len);
	n = write ? pwrite(fd, buf, len, 0) : pread(fd, buf, len, 0);
	close(fd);
	if (n != (ssize_t)len) {
		free(buf);
		return -1;
	}
	if (out)
		*out = buf;
	else
		free(buf);
	return 0;
}

TEST(sg_writes_read_back_through_the_block_device)
{
	static const uint8_t pat[4] = { 0x5a, 0xa5, 0xc3, 0x3c };
	const size_t len = 4 << 20;
	struct run_result r;
	json_object *root;
	char sg[288], arg[320];
	size_t bad = 0;
	uint8_t *buf;

	NEED_GUEST();
	ASSERT_EQ(0, sg_node(sg, sizeof(sg)));
	snprintf(arg, sizeof(arg), "--filename=%s", sg);
	ASSERT_EQ(0, disk_io(true, len, NULL));
	root = RUN_JSON(&r, arg, "--rw=write", "--bs=64k", "--size=4m", "--iodepth=4",
			"--buffer_pattern=0x5aa5c33c");
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(64, json_int(job0(root), "total.write.ios", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, disk_io(false, len, &buf));
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pat[i % 4])
			bad++;
	EXPECT_EQ(0, bad) TH_LOG("%zu bytes differ; first bytes %02x %02x %02x %02x", bad,
				 buf[0], buf[1], buf[2], buf[3]);
	free(buf);

	/* verify= through SG_IO on the disk, then checked by reading its block device. */
	unlink("/tmp/sg.vstate");
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--verify-state", "/tmp/sg.vstate",
				 "--name=sg", "--ioengine=sg", "--filename=/dev/" DISK,
				 "--rw=randwrite", "--bs=16k", "--size=4m", "--verify=crc32c",
				 "--randseed=7", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--verify-state", "/tmp/sg.vstate",
				 "--name=sg", "--ioengine=psync", "--filename=/dev/" DISK,
				 "--rw=randwrite", "--bs=16k", "--size=4m", "--direct=1",
				 "--verify=crc32c", "--randseed=7", "--verify_only=1", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	run_result_free(&r);
	/* The check can fail: zero the first 16 KiB behind its back. */
	ASSERT_EQ(0, disk_io(true, 16384, NULL));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--verify-state", "/tmp/sg.vstate",
				 "--name=sg", "--ioengine=psync", "--filename=/dev/" DISK,
				 "--rw=randwrite", "--bs=16k", "--size=4m", "--direct=1",
				 "--verify=crc32c", "--randseed=7", "--verify_only=1", NULL));
	EXPECT_NE(0, r.status) TH_LOG("%s%s", r.out, r.err);
	run_result_free(&r);
	unlink("/tmp/sg.vstate");
}

TEST(sg_write_is_judged_as_its_disk)
{
	struct run_result r;
	char sg[288], arg[320];

	NEED_GUEST();
	ASSERT_EQ(0, sg_node(sg, sizeof(sg)));
	snprintf(arg, sizeof(arg), "--filename=%s", sg);
	ASSERT_EQ(0, sh("mkfs.ext4 -q -F /dev/" DISK " >/dev/null 2>&1"));

	/* A filesystem on the disk, not mounted: its signature refuses the write. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=sg", "--ioengine=sg", arg,
				 "--rw=write", "--bs=4k", "--size=64k", NULL));
	EXPECT_NE(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ext4")) TH_LOG("%s", r.err);
	run_result_free(&r);

	/* Mounted: refused too; the mount point is named. */
	mkdir("/mnt/sg", 0755);
	ASSERT_EQ(0, mount("/dev/" DISK, "/mnt/sg", "ext4", 0, NULL)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=sg", "--ioengine=sg", arg,
				 "--rw=randwrite", "--bs=4k", "--size=64k", NULL));
	EXPECT_NE(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "mounted at /mnt/sg")) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* Another name for the same node: judged by its device number, refused. */
	{
		struct stat st;

		ASSERT_EQ(0, stat(sg, &st));
		unlink("/dev/not-sg");
		ASSERT_EQ(0, mknod("/dev/not-sg", S_IFCHR | 0600, st.st_rdev));
		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=sg", "--ioengine=sg",
					 "--filename=/dev/not-sg", "--rw=write", "--bs=4k",
					 "--size=64k", NULL));
		unlink("/dev/not-sg");
		EXPECT_NE(0, r.status) TH_LOG("%s", r.err);
		EXPECT_NE(NULL, strstr(r.err, "mounted at /mnt/sg")) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
	/* Reading through the sg node writes nothing: allowed. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=sg", "--ioengine=sg", arg,
				 "--rw=read", "--bs=4k", "--size=64k", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* The block device itself through SG_IO: the guard as always. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=sg", "--ioengine=sg",
				 "--filename=/dev/" DISK, "--rw=write", "--bs=4k", "--size=64k",
				 NULL));
	EXPECT_NE(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_EQ(0, umount("/mnt/sg"));
	EXPECT_EQ(0, sh("wipefs -a -q /dev/" DISK " >/dev/null 2>&1"));
}

#define OPTS "/sys/bus/pseudo/drivers/scsi_debug/opts"

/*
 * scsi_debug's opts=2 fails reads of LBAs 0x1234..0x123d with MEDIUM
 * ERROR, UNRECOVERED READ ERROR (03h/11h/00h): the failed I/O is reported
 * at its offset with that sense.
 */
TEST(a_failed_command_is_reported_with_its_sense)
{
	struct run_result r;
	json_object *root, *g;
	char sg[288], arg[320];

	NEED_GUEST();
	ASSERT_EQ(0, sg_node(sg, sizeof(sg)));
	snprintf(arg, sizeof(arg), "--filename=%s", sg);
	ASSERT_EQ(0, put(OPTS, "2"));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--name=sg",
				 "--ioengine=sg", arg, "--rw=read", "--bs=4k", "--size=4k",
				 "--offset=2385920", NULL));
	put(OPTS, "0");
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "at offset 2385920: Input/output error (EIO), sense key 0x3 "
			       "ASC 0x11 ASCQ 0x00")) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	g = json_object_array_get_idx(json_object_object_get(job0(root), "error_groups"), 0);
	ASSERT_NE(NULL, g) TH_LOG("%s", r.out);
	EXPECT_EQ(5, json_int(g, "errno", -1));
	EXPECT_EQ(3, json_int(g, "sense_key", -1));
	EXPECT_EQ(0x11, json_int(g, "asc", -1));
	EXPECT_EQ(0, json_int(g, "ascq", -1));
	EXPECT_EQ(2385920, json_int(g, "min_offset", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST(read_16_past_2_to_the_32_blocks)
{
	struct run_result r;
	char sg[288], arg[320];
	json_object *root;

	NEED_GUEST();
	ASSERT_EQ(0, sg_node(sg, sizeof(sg)));
	if (trace_start())
		SKIP(return, "no SCSI tracepoints in this kernel");
	trace_stop();
	/* 2100 GiB: past 2^32 blocks of 512 bytes; the 64 MiB store repeats. */
	ASSERT_EQ(0, put(VGB, "2100"));
	settle(sg);
	snprintf(arg, sizeof(arg), "--filename=%s", sg);
	ASSERT_EQ(0, trace_start());
	/* LBA 0xfffffffe: READ(10); 0x100000006 and 0x10000000e: READ(16), as in fio. */
	root = RUN_JSON(&r, arg, "--rw=read", "--bs=4k", "--size=12k",
			"--offset=2199023254528", "--direct=1");
	trace_stop();
	put(VGB, "0");
	settle(sg);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(3, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(1, trace_count("READ_10 lba=4294967294"));
	EXPECT_EQ(1, trace_count("READ_16 lba=4294967302"));
	EXPECT_EQ(1, trace_count("READ_16 lba=4294967310"));
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
