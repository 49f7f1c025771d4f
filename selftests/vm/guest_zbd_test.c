// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_zbd_test.c - zonemode=zbd on a real zoned device (VM guest)
 *
 * Each test makes its own null_blk with zoned=1 through configfs: 256 MiB
 * in 32 zones of 8 MiB, the first two conventional, a zone capacity of
 * 6 MiB and at most 4 open zones, as a ZNS namespace has them.  The kernel
 * fails any write that is not at its zone's write pointer and any that
 * would open a fifth zone, so a run with no errors is the proof that
 * blkqual wrote only where fio would.  After each run the zone report
 * (BLKREPORTZONE) must show what the job wrote: every zone full after a
 * sequential pass, data equal to the bytes written after random writes,
 * no more zones open than max_open_zones; verify= reads back what it
 * wrote, a trim resets its zone.  fio is not in the VM image:
 * the counts checked are those the job itself implies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/attr.h"
#include "helpers/json.h"
#include "helpers/run.h"

#define NULLB_CFS	"/sys/kernel/config/nullb"
#define NAME		"bqzbd"
#define DEV		"/dev/" NAME
#define MIB		(1LL << 20)
#define NR_ZONES	32
#define NR_CONV		2
#define ZONE		(8 * MIB)
#define CAP		(6 * MIB)
#define MAX_OPEN	4

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme0n1", F_OK) || access(NULLB_CFS, W_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

static int nullb_attr(const char *attr, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), NULLB_CFS "/" NAME "/%s", attr);
	return attr_write(path, "%s", value);
}

FIXTURE(zoned)
{
	bool made;
};

FIXTURE_SETUP(zoned)
{
	int ret;

	self->made = false;
	if (access("/sys/block/nvme0n1", F_OK) || access(NULLB_CFS, W_OK))
		return;
	/* One a test killed on its timeout left behind goes first. */
	if (!access(NULLB_CFS "/" NAME, F_OK)) {
		nullb_attr("power", "0");
		rmdir(NULLB_CFS "/" NAME);
	}
	ASSERT_EQ(0, mkdir(NULLB_CFS "/" NAME, 0755)) TH_LOG("%s", strerror(errno));
	self->made = true;
	ret = nullb_attr("size", "256");
	ret = ret ?: nullb_attr("blocksize", "4096");
	ret = ret ?: nullb_attr("memory_backed", "1");
	ret = ret ?: nullb_attr("queue_mode", "2");
	ret = ret ?: nullb_attr("zoned", "1");
	ret = ret ?: nullb_attr("zone_size", "8");
	ret = ret ?: nullb_attr("zone_capacity", "6");
	ret = ret ?: nullb_attr("zone_nr_conv", "2");
	ret = ret ?: nullb_attr("zone_max_open", "4");
	ret = ret ?: nullb_attr("power", "1");
	ASSERT_EQ(0, ret) TH_LOG("configuring a zoned null_blk: %s", strerror(-ret));
	for (int t = 0; t < 100 && access(DEV, F_OK); t++)
		usleep(20000);
	ASSERT_EQ(0, access(DEV, F_OK));
}

FIXTURE_TEARDOWN(zoned)
{
	if (!self->made)
		return;
	nullb_attr("power", "0");
	rmdir(NULLB_CFS "/" NAME);
}

/* The device's zones, as the kernel reports them. */
static int report(struct blk_zone *zones)
{
	size_t sz = sizeof(struct blk_zone_report) + NR_ZONES * sizeof(struct blk_zone);
	struct blk_zone_report *rep = calloc(1, sz);
	int fd = open(DEV, O_RDONLY | O_CLOEXEC), ret = -1;

	if (rep && fd >= 0) {
		rep->nr_zones = NR_ZONES;
		if (!ioctl(fd, BLKREPORTZONE, rep) && rep->nr_zones == NR_ZONES) {
			memcpy(zones, rep->zones, NR_ZONES * sizeof(*zones));
			ret = 0;
		}
	}
	if (fd >= 0)
		close(fd);
	free(rep);
	return ret;
}

static int zones_open(const struct blk_zone *z)
{
	int n = 0;

	for (int i = 0; i < NR_ZONES; i++)
		n += z[i].cond == BLK_ZONE_COND_IMP_OPEN || z[i].cond == BLK_ZONE_COND_EXP_OPEN;
	return n;
}

/* Bytes below the write pointers of the sequential zones. */
static long long zone_data(const struct blk_zone *z)
{
	long long sum = 0;

	for (int i = NR_CONV; i < NR_ZONES; i++)
		sum += z[i].cond == BLK_ZONE_COND_FULL ? (long long)z[i].capacity << 9 :
			(long long)(z[i].wp - z[i].start) << 9;
	return sum;
}

/* blkqual run on the zoned device: 0 with its JSON's job figures, or -1. */
struct figures {
	long long ios[2];
	long long bytes[2];
	long long errors;
	long long resets;
	long long trims;
	long long verify_reads;		/* the verify phase's */
	long long verify_checked;	/* bytes verified */
	long long verify_bad;
};

static int run_job(struct __test_metadata *_metadata, struct figures *f, ...)
{
	const char *argv[24] = { "run", "--no-status", "-o", "json", "--force-destroy=" DEV,
				 "--name=z", "--filename=" DEV, "--ioengine=psync", "--direct=1",
				 "--zonemode=zbd" };
	const char *dirs[] = { "read", "write" };
	struct run_result r;
	json_object *root, *job;
	int n = 10;
	va_list ap;

	va_start(ap, f);
	while (n < 23 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	{
		const char *full[26] = { blkqual_path() };

		for (int i = 0; i <= n; i++)
			full[i + 1] = argv[i];
		if (run_argv(full, &r))
			return -1;
	}
	if (r.status) {
		TH_LOG("blkqual exit %d: %.400s", r.status, r.err);
		run_result_free(&r);
		return -1;
	}
	root = json_tokener_parse(r.out);
	run_result_free(&r);
	if (!root)
		return -1;
	job = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	for (int d = 0; d < 2; d++) {
		char key[32];

		snprintf(key, sizeof(key), "total.%s.ios", dirs[d]);
		f->ios[d] = json_int(job, key, -1);
		snprintf(key, sizeof(key), "total.%s.bytes", dirs[d]);
		f->bytes[d] = json_int(job, key, -1);
	}
	f->errors = json_object_array_length(json_object_object_get(job, "errors"));
	f->resets = json_int(job, "total.zone_resets", 0);
	f->trims = json_int(job, "total.trim.ios", 0);
	f->verify_reads = json_int(job, "verify.phase.read.ios", 0);
	f->verify_checked = json_int(job, "verify.bytes_checked", 0);
	f->verify_bad = json_int(job, "verify.bad_blocks", -1);
	json_object_put(root);
	return 0;
}

/*
 * A sequential pass over the device: the conventional zones whole, each
 * sequential zone to its 6 MiB capacity, then on at its end (fio's jump),
 * with no unaligned write; every zone is full after it.  A second pass
 * finds them full and resets each once.
 */
TEST_F_TIMEOUT(zoned, sequential_writes_fill_every_zone, 180)
{
	const long long writes = (NR_CONV * ZONE + (NR_ZONES - NR_CONV) * CAP) / (64 * 1024);
	struct blk_zone z[NR_ZONES];
	struct figures f;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=write", "--bs=64k", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(writes, f.ios[1]);
	EXPECT_EQ(0, f.resets);
	ASSERT_EQ(0, report(z));
	for (int k = NR_CONV; k < NR_ZONES; k++) {
		EXPECT_EQ(BLK_ZONE_COND_FULL, z[k].cond) TH_LOG("zone %d", k);
	}
	EXPECT_EQ((NR_ZONES - NR_CONV) * CAP, zone_data(z));

	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=write", "--bs=64k", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(writes, f.ios[1]);
	EXPECT_EQ(NR_ZONES - NR_CONV, f.resets);
	ASSERT_EQ(0, report(z));
	for (int k = NR_CONV; k < NR_ZONES; k++) {
		EXPECT_EQ(BLK_ZONE_COND_FULL, z[k].cond) TH_LOG("zone %d", k);
	}

	/* Reading back: all of it, nothing above a write pointer. */
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=read", "--bs=64k", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(writes, f.ios[0]);
}

/*
 * Random writes, max_open_zones=3, past the conventional zones: each at
 * a write pointer (no error), never a fourth zone open, and the zones
 * hold what was written less what resets took.
 */
TEST_F_TIMEOUT(zoned, random_writes_within_max_open_zones, 180)
{
	struct blk_zone z[NR_ZONES];
	struct figures f;
	long long data;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=randwrite", "--bs=16k", "--offset=16m",
			     "--io_size=48m", "--max_open_zones=3", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(48 * MIB / (16 * 1024), f.ios[1]);
	ASSERT_EQ(0, report(z));
	EXPECT_GE(3, zones_open(z));
	data = zone_data(z);
	if (!f.resets)
		EXPECT_EQ(48 * MIB, data);
	EXPECT_GE(48 * MIB, data);
	EXPECT_LE(48 * MIB - f.resets * CAP, data);
	TH_LOG("%lld zone resets, %d zones open", f.resets, zones_open(z));
}

/*
 * fio's zbd-rand-write.fio on this device: sixteen threads share the
 * zones; a write of one never lands at a write pointer another moved.
 */
TEST_F_TIMEOUT(zoned, threads_share_the_zones, 180)
{
	struct blk_zone z[NR_ZONES];
	struct figures f;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=randwrite", "--bs=512k", "--offset=16m",
			     "--numjobs=16", "--max_open_zones=4", "--size=16m", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(16 * 16 * MIB / (512 * 1024), f.ios[1]);
	ASSERT_EQ(0, report(z));
	EXPECT_GE(4, zones_open(z));
	/*
	 * Four sequential writers over the same six zones: each moves on
	 * from the write pointers the others left, and past the capacity
	 * to the zone's end, so each ends its region early; how early is a
	 * race, as in fio.
	 */
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=write", "--bs=64k", "--offset=16m",
			     "--numjobs=4", "--size=48m", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_LT(0, f.ios[1]);
	EXPECT_GE(4 * 48 * MIB / (64 * 1024), f.ios[1]);
	ASSERT_EQ(0, report(z));
	for (int k = NR_CONV; k < NR_CONV + 6; k++) {
		EXPECT_NE(BLK_ZONE_COND_EMPTY, z[k].cond) TH_LOG("zone %d", k);
	}
	TH_LOG("%lld writes, %lld zone resets", f.ios[1], f.resets);
}

/* Without max_open_zones the device's limit (4) holds; over it is refused. */
TEST_F_TIMEOUT(zoned, device_open_limit, 180)
{
	struct blk_zone z[NR_ZONES];
	struct figures f;
	struct run_result r;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=randwrite", "--bs=16k", "--offset=16m",
			     "--io_size=32m", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(32 * MIB / (16 * 1024), f.ios[1]);
	ASSERT_EQ(0, report(z));
	EXPECT_GE(MAX_OPEN, zones_open(z));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--force-destroy=" DEV, "--name=z",
				 "--filename=" DEV, "--direct=1", "--zonemode=zbd",
				 "--rw=randwrite", "--max_open_zones=8", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "larger than the device's")) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* zonesize must be the device's. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--force-destroy=" DEV, "--name=z",
				 "--filename=" DEV, "--direct=1", "--zonemode=zbd",
				 "--zonesize=4m", "--rw=write", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "does not match")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/*
 * verify= on zones that hold data (zones 2 to 9, counted in zones of the
 * device's 8 MiB): fio resets them first, writes each to its capacity
 * once (never a reset while writing, whatever io_size asks), then reads
 * every block back, good.
 */
TEST_F_TIMEOUT(zoned, verify_resets_first_and_reads_back, 180)
{
	const long long writes = 8 * CAP / (64 * 1024);
	struct blk_zone z[NR_ZONES];
	struct figures f;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=write", "--bs=64k", "--offset=2z",
			     "--size=8z", NULL));
	EXPECT_EQ(writes, f.ios[1]);
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=randwrite", "--bs=64k", "--offset=2z",
			     "--size=8z", "--io_size=16z", "--verify=crc32c", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(8, f.resets);
	EXPECT_EQ(writes, f.ios[1]);
	EXPECT_EQ(writes, f.verify_reads);
	EXPECT_EQ(writes * 64 * 1024, f.verify_checked);
	EXPECT_EQ(0, f.verify_bad);
	ASSERT_EQ(0, report(z));
	for (int k = 0; k < NR_ZONES; k++) {
		int want = k >= 2 && k < 10 ? BLK_ZONE_COND_FULL : BLK_ZONE_COND_EMPTY;

		if (k >= NR_CONV)
			EXPECT_EQ(want, z[k].cond) TH_LOG("zone %d", k);
	}
}

/*
 * A trim on zones is a zone reset: rw=trim resets each zone of its
 * region; rw=randtrim goes from an empty zone to one with data and ends
 * when none has any.
 */
TEST_F_TIMEOUT(zoned, trims_reset_zones, 180)
{
	struct blk_zone z[NR_ZONES];
	struct figures f;

	NEED_GUEST();
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=write", "--bs=64k", "--offset=2z",
			     "--size=8z", NULL));
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=trim", "--bs=8m", "--offset=2z",
			     "--size=4z", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(4, f.trims);
	EXPECT_EQ(4, f.resets);
	ASSERT_EQ(0, report(z));
	for (int k = 2; k < 10; k++) {
		EXPECT_EQ(k < 6 ? BLK_ZONE_COND_EMPTY : BLK_ZONE_COND_FULL, z[k].cond)
			TH_LOG("zone %d", k);
	}
	ASSERT_EQ(0, run_job(_metadata, &f, "--rw=randtrim", "--bs=8m", "--offset=2z",
			     "--size=8z", NULL));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(4, f.trims);
	EXPECT_EQ(4, f.resets);
	ASSERT_EQ(0, report(z));
	for (int k = NR_CONV; k < NR_ZONES; k++) {
		EXPECT_EQ(BLK_ZONE_COND_EMPTY, z[k].cond) TH_LOG("zone %d", k);
	}
}

TEST_HARNESS_MAIN
