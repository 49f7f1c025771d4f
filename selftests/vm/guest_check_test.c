// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_check_test.c - blkqual check on real drivers (VM guest): on an
 * NVMe namespace with poll queues and on a memory-backed null_blk device
 * with a poll queue and discard, every check passes, and the polled and
 * discard checks really run there instead of skipping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "kselftest_harness.h"

#include "blkqual_check.h"
#include "helpers/attr.h"
#include "helpers/run.h"

#define NULLB_CFS	"/sys/kernel/config/nullb"
#define NULLB_NAME	"bqcheck"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme0n1", F_OK) || access(NULLB_CFS, W_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

/* One attribute of a null_blk device made through configfs. */
static int nullb_attr(const char *name, const char *attr, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), NULLB_CFS "/%s/%s", name, attr);
	return attr_write(path, "%s", value);
}

/* Result lines only, as harness diagnostics: raw "not ok" would fool the runner. */
static void log_results(struct __test_metadata *_metadata, const char *out)
{
	char *copy = strdup(out), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		TH_LOG("| %s", l);
	free(copy);
}

/*
 * Run the whole suite on @dev and hold it to the promise of the VM's
 * drivers: nothing fails, nothing skips, and the polled and discard
 * checks ran the way io_poll 1 and a non-zero discard_max_bytes say.
 */
static void check_device(struct __test_metadata *_metadata, const char *dev)
{
	char force[96], totals[96];
	struct run_result r;
	size_t nr;

	bq_checks(&nr);
	snprintf(totals, sizeof(totals), "\n# Totals: pass:%zu fail:0 xfail:0 xpass:0 skip:0 ", nr);
	snprintf(force, sizeof(force), "--force-destroy=%s", dev);
	ASSERT_EQ(0, run_blkqual(&r, "check", force, dev, NULL));
	EXPECT_EQ(0, r.status) {
		TH_LOG("%s: exit %d: %s", dev, r.status, r.err);
		log_results(_metadata, r.out);
	}
	EXPECT_EQ(NULL, strstr(r.out, "not ok ")) {
		log_results(_metadata, r.out);
	}
	EXPECT_EQ(NULL, strstr(r.out, "# SKIP")) {
		log_results(_metadata, r.out);
	}
	EXPECT_NE(NULL, strstr(r.out, "\n# polled_io: io_poll is 1: ")) {
		log_results(_metadata, r.out);
	}
	EXPECT_NE(NULL, strstr(r.out, "\n# discard: discarded ")) {
		log_results(_metadata, r.out);
	}
	EXPECT_NE(NULL, strstr(r.out, totals)) {
		log_results(_metadata, r.out);
	}
	run_result_free(&r);
}

TEST(nvme_namespace_passes_with_polling_and_discard)
{
	uint64_t range[2] = { 0, 0 };
	int fd;

	NEED_GUEST();
	check_device(_metadata, "/dev/nvme0n1");
	/* Leave the namespace blank for the programs after this one. */
	fd = open("/dev/nvme0n1", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, BLKGETSIZE64, &range[1]));
	EXPECT_EQ(0, ioctl(fd, BLKZEROOUT, range)) TH_LOG("BLKZEROOUT: %s", strerror(errno));
	close(fd);
}

FIXTURE(nullb)
{
	bool made;
};

FIXTURE_SETUP(nullb)
{
	self->made = false;
}

FIXTURE_TEARDOWN(nullb)
{
	if (!self->made)
		return;
	nullb_attr(NULLB_NAME, "power", "0");
	rmdir(NULLB_CFS "/" NULLB_NAME);
}

/*
 * The module's nullb0..3 have a poll queue but no discard (the module
 * default), so the suite gets a device of its own through configfs with
 * both.
 */
TEST_F(nullb, null_blk_passes_with_polling_and_discard)
{
	int ret;

	NEED_GUEST();
	ASSERT_EQ(0, mkdir(NULLB_CFS "/" NULLB_NAME, 0755)) TH_LOG("%s", strerror(errno));
	self->made = true;
	ret = nullb_attr(NULLB_NAME, "size", "256");
	ret = ret ?: nullb_attr(NULLB_NAME, "blocksize", "512");
	ret = ret ?: nullb_attr(NULLB_NAME, "memory_backed", "1");
	ret = ret ?: nullb_attr(NULLB_NAME, "discard", "1");
	ret = ret ?: nullb_attr(NULLB_NAME, "queue_mode", "2");
	ret = ret ?: nullb_attr(NULLB_NAME, "poll_queues", "1");
	ret = ret ?: nullb_attr(NULLB_NAME, "power", "1");
	ASSERT_EQ(0, ret) TH_LOG("configuring null_blk: %s", strerror(-ret));
	/* devtmpfs makes the node asynchronously. */
	for (int t = 0; t < 100 && access("/dev/" NULLB_NAME, F_OK); t++)
		usleep(20000);
	ASSERT_EQ(0, access("/dev/" NULLB_NAME, F_OK));
	check_device(_metadata, "/dev/" NULLB_NAME);
}

TEST_HARNESS_MAIN
