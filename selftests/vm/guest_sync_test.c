// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_sync_test.c - pvsync2 and polling on a real NVMe with poll queues
 * (VM guest): the NVMe controller's I/O queue interrupts tell polled
 * completions (none) from interrupt-driven ones (one each).  They show
 * whether this kernel polls a synchronous preadv2() with RWF_HIPRI, and
 * blkqual's pvsync2 hipri=1 must agree: polled where the kernel polls,
 * refused with the reason where it does not.  io_uring's polling is the
 * control that the count works.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

#define DEV "/dev/nvme0n1"
#define NR_IOS 1024

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme0n1/queue/io_poll", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

/*
 * Interrupts of nvme0's I/O queues, over all CPUs: the lines of
 * /proc/interrupts named nvme0q1, nvme0q2, ... (q0 is the admin queue;
 * poll queues have no interrupt).
 */
static long long nvme_io_irqs(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];
	long long sum = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *name = strstr(line, "nvme0q"), *p;

		if (!name || !strncmp(name, "nvme0q0", 7) || !isdigit((unsigned char)name[6]))
			continue;
		/* "  24:   12   34   PCI-MSIX-...  1-edge  nvme0q1": the counts follow the colon. */
		p = strchr(line, ':');
		if (!p)
			continue;
		for (p++;;) {
			char *end;
			long long v;

			while (*p == ' ')
				p++;
			v = strtoll(p, &end, 10);
			if (end == p || (*end != ' ' && *end != '\n'))
				break;
			sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

/* NR_IOS direct 4 KiB reads with @flags; the I/O queue interrupts they raised. */
static long long preadv2_irqs(struct __test_metadata *_metadata, int flags)
{
	struct iovec iov = { .iov_len = 4096 };
	long long before, after;
	int fd;

	fd = open(DEV, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&iov.iov_base, 4096, 4096))
		return -1;
	before = nvme_io_irqs();
	for (int i = 0; i < NR_IOS; i++)
		if (preadv2(fd, &iov, 1, (off_t)i * 8192, flags) != 4096) {
			TH_LOG("preadv2 %d failed", i);
			break;
		}
	after = nvme_io_irqs();
	free(iov.iov_base);
	close(fd);
	return after - before;
}

/*
 * blkqual with NR_IOS random 4 KiB reads of DEV; the I/O queue interrupts
 * it raised, a few dozen of them for the reads of its own set-up.
 */
static json_object *run_counted(struct run_result *r, const char *engine, const char *poll,
				long long *irqs)
{
	long long before = nvme_io_irqs();
	json_object *root = NULL;

	if (run_blkqual(r, "run", "--no-status", "-o", "json", "--filename=" DEV,
			"--rw=randread", "--bs=4k", "--io_size=4m", "--direct=1", engine, poll,
			"--name=p", NULL))
		return NULL;
	*irqs = nvme_io_irqs() - before;
	if (!r->status)
		root = json_tokener_parse(r->out);
	return root;
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

TEST(pvsync2_hipri_polls_only_where_the_kernel_does)
{
	long long plain, hipri, irqs;
	struct run_result r;
	json_object *root;
	bool kernel_polls;

	NEED_GUEST();
	ASSERT_EQ(0, access("/proc/interrupts", R_OK));
	plain = preadv2_irqs(_metadata, 0);
	hipri = preadv2_irqs(_metadata, RWF_HIPRI);
	TH_LOG("%d synchronous reads raised %lld interrupts, %lld with RWF_HIPRI", NR_IOS, plain,
	       hipri);
	/* Each read on its own raises its completion's interrupt: the count works. */
	ASSERT_LE(NR_IOS * 3 / 4, plain);
	kernel_polls = hipri < NR_IOS / 4;

	/* Control: io_uring's polled completions raise none. */
	root = run_counted(&r, "--ioengine=io_uring", "--poll=on", &irqs);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	TH_LOG("io_uring, polled: %lld interrupts for %d reads", irqs, NR_IOS);
	EXPECT_TRUE(json_object_get_boolean(json_object_object_get(
		json_object_object_get(job0(root), "completions"), "polled")));
	EXPECT_GT(NR_IOS / 4, irqs);
	json_object_put(root);
	run_result_free(&r);

	root = run_counted(&r, "--ioengine=pvsync2", "--hipri=1", &irqs);
	if (kernel_polls) {
		ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
		EXPECT_STREQ("polled (RWF_HIPRI)", json_str(job0(root), "completions.note"));
		EXPECT_EQ(NR_IOS, json_int(job0(root), "total.read.ios", -1));
		EXPECT_GT(NR_IOS / 4, irqs);
		json_object_put(root);
	} else {
		/* Refused before any I/O, with the reason, as poll=on always is. */
		EXPECT_EQ(NULL, root);
		EXPECT_EQ(2, r.status);
		EXPECT_NE(NULL, strstr(r.err, "does not poll synchronous I/O")) TH_LOG("%s", r.err);
	}
	run_result_free(&r);

	/* Without hipri pvsync2 runs on interrupts, and counts what the device counts. */
	root = run_counted(&r, "--ioengine=pvsync2", "--hipri=0", &irqs);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	TH_LOG("pvsync2, hipri=0: %lld interrupts for %d reads", irqs, NR_IOS);
	EXPECT_STREQ("interrupts (hipri=0)", json_str(job0(root), "completions.note"));
	EXPECT_EQ(NR_IOS, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(NR_IOS, json_int(json_object_array_get_idx(json_object_object_get(job0(root),
		"targets"), 0), "disk_stats.read_ios", -1));
	EXPECT_LE(NR_IOS * 3 / 4, irqs);
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
