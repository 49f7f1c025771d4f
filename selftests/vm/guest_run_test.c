// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_run_test.c - blkqual run on real drivers (VM guest): polled I/O
 * really polls on NVMe and null_blk, threads and buffers land on the
 * device's NUMA node, md cannot poll, and the counts match the device's;
 * a kernel without I/O priority hints fails a job that asks for them in
 * one line (Debian's 6.1.0-57 takes hints already: that case SKIPs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/attr.h"
#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme1n1", F_OK) || access("/sys/block/nullb0", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

#define IORING_SETUP_IOPOLL_BIT 1u
#define SDEBUG_OPTS "/sys/bus/pseudo/drivers/scsi_debug/opts"

static json_object *run(struct __test_metadata *_metadata, struct run_result *r,
			const char *dev, const char *poll)
{
	char filename[64], pollopt[32];
	json_object *root;

	snprintf(filename, sizeof(filename), "--filename=%s", dev);
	snprintf(pollopt, sizeof(pollopt), "--poll=%s", poll);
	if (run_blkqual(r, "run", "--no-status", "-o", "json", filename, "--rw=randread",
			"--bs=4k", "--iodepth=8", "--io_size=4m", "--direct=1", pollopt,
			"--name=vm", NULL))
		return NULL;
	if (r->status) {
		TH_LOG("%s: exit %d: %s", dev, r->status, r->err);
		return NULL;
	}
	root = json_tokener_parse(r->out);
	return root;
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

static json_object *thread0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(job0(root), "threads"), 0);
}

static bool polled(json_object *root)
{
	return json_object_get_boolean(json_object_object_get(
		json_object_object_get(job0(root), "completions"), "polled"));
}

TEST(nvme_on_node1_polls_from_node1)
{
	struct run_result r;
	json_object *root, *place;

	NEED_GUEST();
	/* nvme1n1 sits behind the pxb-pcie bridge on node 1 (see vm.sh). */
	root = run(_metadata, &r, "/dev/nvme1n1", "on");
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(polled(root));
	EXPECT_TRUE(json_int(thread0(root), "ring_flags", 0) & IORING_SETUP_IOPOLL_BIT);
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.read.errors", -1));
	place = json_object_array_get_idx(json_object_object_get(job0(root), "placement"), 0);
	EXPECT_EQ(1, json_int(place, "node", -2));
	EXPECT_EQ(1, json_int(place, "cpu", -2));
	/* Where the kernel really put the buffers, not where we asked. */
	EXPECT_EQ(1, json_int(place, "buffer_node", -2));
	json_object_put(root);
	run_result_free(&r);
}

TEST(null_blk_polls)
{
	struct run_result r;
	json_object *root;

	NEED_GUEST();
	root = run(_metadata, &r, "/dev/nullb0", "on");
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(polled(root));
	EXPECT_TRUE(json_int(thread0(root), "ring_flags", 0) & IORING_SETUP_IOPOLL_BIT);
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST(auto_polls_where_it_can)
{
	struct run_result r;
	json_object *root;

	NEED_GUEST();
	root = run(_metadata, &r, "/dev/nvme0n1", "auto");
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(polled(root));
	json_object_put(root);
	run_result_free(&r);
}

TEST(md_cannot_poll)
{
	struct run_result r;
	json_object *root;

	NEED_GUEST();
	ASSERT_EQ(0, run_quiet("mdadm --create /dev/md0 --run --level=0 --chunk=256 "
			       "--metadata=1.2 --raid-devices=4 "
			       "/dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3"));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--filename=/dev/md0",
				 "--rw=randread", "--direct=1", "--poll=on", "--name=md", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "cannot poll")) TH_LOG("%s", r.err);
	run_result_free(&r);
	root = run(_metadata, &r, "/dev/md0", "auto");
	run_quiet("mdadm --stop /dev/md0");
	run_quiet("mdadm --zero-superblock /dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3");
	ASSERT_NE(NULL, root);
	EXPECT_FALSE(polled(root));
	EXPECT_NE(NULL, strstr(json_str(job0(root), "completions.note"), "stacked"));
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST(nvme_counts_match_the_device)
{
	struct run_result r;
	json_object *root, *target;

	NEED_GUEST();
	root = run(_metadata, &r, "/dev/nvme0n1", "off");
	ASSERT_NE(NULL, root);
	target = json_object_array_get_idx(json_object_object_get(job0(root), "targets"), 0);
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(1024, json_int(target, "disk_stats.read_ios", -1));
	EXPECT_STREQ("nvme", json_str(target, "device.kind"));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * scsi_debug's medium-error option fails reads of sectors 0x1234 and the
 * nine after: the run reports each failed I/O with its offset and keeps
 * going with --continue-on-error; without it, it stops at the first.
 */
TEST(io_errors_reported_with_offsets)
{
	struct run_result r;
	json_object *root, *errors, *e;
	long long off;

	NEED_GUEST();
	/* The driver attribute, not the module parameter: only it arms injection. */
	if (access(SDEBUG_OPTS, W_OK))
		SKIP(return, "%s not writable", SDEBUG_OPTS);
	ASSERT_EQ(0, attr_write(SDEBUG_OPTS, "2"));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--filename=/dev/sda",
				 "--rw=read", "--bs=4k", "--size=4m", "--direct=1",
				 "--continue-on-error", "--name=err", NULL));
	attr_write(SDEBUG_OPTS, "0");
	EXPECT_EQ(1, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	errors = json_object_object_get(job0(root), "errors");
	ASSERT_LT(0, (int)json_object_array_length(errors));
	e = json_object_array_get_idx(errors, 0);
	off = json_int(e, "offset", -1);
	/* 0x1234 * 512 falls in the 4 KiB read that starts at 0x246000. */
	EXPECT_EQ(0x246000, off);
	EXPECT_EQ(4096, json_int(e, "length", -1));
	EXPECT_NE(0, json_int(e, "errno", 0));
	/* Kept going: every other read of the 4 MiB was done. */
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", 0) +
			json_int(job0(root), "total.read.errors", 0));
	json_object_put(root);
	run_result_free(&r);
}

/* NVMe passthrough: io_uring URING_CMD on the generic char device, polled. */
TEST(passthrough_reads_and_writes)
{
	struct run_result r;
	json_object *root;

	NEED_GUEST();
	if (access("/dev/ng0n1", F_OK))
		SKIP(return, "no /dev/ng0n1 (kernel without NVMe generic devices)");
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--name=pt",
				 "--ioengine=io_uring_cmd", "--filename=/dev/ng0n1", "--rw=randread",
				 "--bs=4k", "--iodepth=16", "--io_size=4m", "--poll=on", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(polled(root));
	EXPECT_EQ(1024, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.read.errors", -1));
	/* 128-byte SQEs and 32-byte CQEs, as NVMe commands need. */
	EXPECT_EQ(0xc00, json_int(thread0(root), "ring_flags", 0) & 0xc00);
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--name=ptw",
				 "--ioengine=io_uring_cmd", "--filename=/dev/ng0n1", "--rw=randwrite",
				 "--bs=4k", "--iodepth=16", "--io_size=4m", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(1024, json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.write.errors", -1));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * fio's io_uring_cmd options: the vectored NVMe command (nonvectored=0)
 * and the FUA bit on writes and reads.  The device must take every
 * command; a malformed one fails with an NVMe status.
 */
TEST(passthrough_vectored_with_fua)
{
	static const char *const rw[] = { "--rw=randwrite", "--rw=randread" };
	static const char *const dir[] = { "total.write", "total.read" };

	NEED_GUEST();
	if (access("/dev/ng0n1", F_OK))
		SKIP(return, "no /dev/ng0n1 (kernel without NVMe generic devices)");
	for (int i = 0; i < 2; i++) {
		char ios[32], errs[32];
		struct run_result r;
		json_object *root;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", "--name=vec",
					 "--ioengine=io_uring_cmd", "--cmd_type=nvme",
					 "--nonvectored=0", "--readfua=1", "--writefua=1",
					 "--filename=/dev/ng0n1", rw[i], "--bs=4k", "--iodepth=8",
					 "--size=4m", NULL));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		root = json_tokener_parse(r.out);
		ASSERT_NE(NULL, root);
		snprintf(ios, sizeof(ios), "%s.ios", dir[i]);
		snprintf(errs, sizeof(errs), "%s.errors", dir[i]);
		EXPECT_EQ(1024, json_int(job0(root), ios, -1)) TH_LOG("%s", rw[i]);
		EXPECT_EQ(0, json_int(job0(root), errs, -1)) TH_LOG("%s", rw[i]);
		json_object_put(root);
		run_result_free(&r);
	}
}

/*
 * A kernel that takes no priority hints reads them as part of the level
 * and refuses the value (EINVAL): blkqual says so before the first I/O,
 * for each way a job asks for a hint.
 */
TEST(priority_hints_refused_in_one_line)
{
	static const char *const asks[][3] = {
		{ "--ioengine=io_uring", "--cmdprio_bssplit=4k/50/2/0/1", "--iodepth=4" },
		{ "--ioengine=libaio", "--cmdprio_hint=2", "--cmdprio_percentage=50" },
		{ "--ioengine=psync", "--priohint=3", "--prio=0" },
	};
	pid_t pid;
	int st;

	NEED_GUEST();
	/* The kernel's own answer, from a child so that ours stays. */
	pid = fork();
	if (!pid)
		_exit(syscall(SYS_ioprio_set, 1, 0, 2 << 13 | 1 << 3) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		SKIP(return, "this kernel takes priority hints (ioprio_hint_test checks them)");
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--filename=/dev/nullb0",
					 "--rw=randread", "--bs=4k", "--size=1m", "--direct=1",
					 asks[i][0], asks[i][1], asks[i][2],
					 "--name=hint", NULL));
		EXPECT_EQ(1, r.status) TH_LOG("%s", asks[i][1]);
		EXPECT_NE(NULL, r.err ? strstr(r.err, "takes no I/O priority hints") : NULL)
			TH_LOG("%s: %.300s", asks[i][1], r.err ? r.err : "");
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s: %.300s", asks[i][1], r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
