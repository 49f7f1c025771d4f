// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_zbd_nvme_test.c - zonemode=zbd through an NVMe generic device
 * (ioengine=io_uring_cmd) on QEMU's Zoned Namespace (VM guest)
 *
 * vm.sh gives the guest a ZNS namespace on its own controller, serial
 * BQNVMEZNS: 2 GiB in 32 zones of 64 MiB.  The device fails any Write
 * that is not at its zone's write pointer, so a run without errors shows
 * blkqual found the zones through passthrough (Identify, Zone Management
 * Receive) and reset them (Zone Management Send).  After each run the
 * block device's own report (BLKREPORTZONE) must show the data where the
 * job wrote it; verify= reads it back.  fio's uring-cmd-zoned.fio jobs
 * are compared with fio on the same device when the guest has fio
 * (vm.sh with BLKQUAL_VM_BINARIES=$(command -v fio), as
 * tools/compat/fio-examples.sh --vm runs it); without it, with the
 * counts the job implies.  write_mode=zone_append (fio head; fio 3.33
 * has none) must leave its data where the device said it put it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

#define SERIAL		"BQNVMEZNS"
#define MIB		(1LL << 20)
#define ZONE		(64 * MIB)
#define NR_ZONES	32
#define FIO		"/bin/fio"

/* The node in /dev of the first entry of @dir whose device/serial is @want. */
static int find_by_serial(const char *dir, const char *prefix, const char *want, char *dev,
			  size_t len)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while (ret && (de = readdir(d))) {
		char path[512], serial[64] = "";
		FILE *f;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/device/serial", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(serial, sizeof(serial), f))
			serial[strcspn(serial, " \n")] = '\0';
		fclose(f);
		if (!strcmp(serial, want)) {
			snprintf(dev, len, "/dev/%.32s", de->d_name);
			ret = 0;
		}
	}
	closedir(d);
	return ret;
}

FIXTURE(zns)
{
	char ng[64];
	char blk[64];
};

FIXTURE_SETUP(zns)
{
	self->ng[0] = self->blk[0] = '\0';
	if (find_by_serial("/sys/class/nvme-generic", "ng", SERIAL, self->ng, sizeof(self->ng)) ||
	    find_by_serial("/sys/block", "nvme", SERIAL, self->blk, sizeof(self->blk)))
		self->ng[0] = self->blk[0] = '\0';
}

FIXTURE_TEARDOWN(zns)
{
}

#define NEED_ZNS() do { \
	if (!self->ng[0]) \
		SKIP(return, "no NVMe namespace with serial " SERIAL " (not in the blkqual VM; " \
		     "run 'make check-vm')"); \
} while (0)

/* The namespace's zones as the block layer reports them. */
static int report(const char *blk, struct blk_zone *zones)
{
	size_t sz = sizeof(struct blk_zone_report) + NR_ZONES * sizeof(struct blk_zone);
	struct blk_zone_report *rep = calloc(1, sz);
	int fd = open(blk, O_RDONLY | O_CLOEXEC), ret = -1;

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

/* Every zone empty, through the block device, so each run starts alike. */
static int reset_all(const char *blk)
{
	struct blk_zone_range r = { .sector = 0, .nr_sectors = NR_ZONES * (ZONE >> 9) };
	int fd = open(blk, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, BLKRESETZONE, &r) ? -errno : 0;
	close(fd);
	return ret;
}

/* Bytes below each zone's write pointer, and their sum. */
static long long zone_data(const struct blk_zone *z, long long *per)
{
	long long sum = 0;

	for (int i = 0; i < NR_ZONES; i++) {
		long long d = z[i].cond == BLK_ZONE_COND_FULL ? (long long)z[i].capacity << 9 :
			      (long long)(z[i].wp - z[i].start) << 9;

		if (per)
			per[i] = d;
		sum += d;
	}
	return sum;
}

struct figures {
	long long ios[2];
	long long bytes[2];
	long long errors;
	long long resets;
	long long verify_reads;
	long long verify_bad;
};

#define MAX_ARGS 24

/* blkqual run of @opts (NULL-ended) on the ng device: 0 with its figures. */
static int run_bq(struct __test_metadata *_metadata, const char *ng, const char *blk,
		  struct figures *f, const char *const *opts)
{
	char force[96], file[96];
	const char *argv[MAX_ARGS + 12] = { blkqual_path(), "run", "--no-status", "-o", "json",
					    force, "--name=z", file, "--ioengine=io_uring_cmd",
					    "--cmd_type=nvme", "--zonemode=zbd" };
	const char *dirs[] = { "read", "write" };
	struct run_result r;
	json_object *root, *job;
	int n = 11;

	snprintf(force, sizeof(force), "--force-destroy=%s", blk);
	snprintf(file, sizeof(file), "--filename=%s", ng);
	while (*opts && n < MAX_ARGS)
		argv[n++] = *opts++;
	argv[n] = NULL;
	if (run_argv(argv, &r))
		return -1;
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
	f->verify_reads = json_int(job, "verify.phase.read.ios", 0);
	f->verify_bad = json_int(job, "verify.bad_blocks", -1);
	json_object_put(root);
	return 0;
}

/* fio 3.33 with the same options: 0 with its reads, writes and errors. */
static int run_fio(struct __test_metadata *_metadata, const char *ng, struct figures *f,
		   const char *const *opts)
{
	char file[96];
	const char *argv[MAX_ARGS + 12] = { FIO, "--output-format=json", "--name=z", file,
					    "--ioengine=io_uring_cmd", "--cmd_type=nvme",
					    "--zonemode=zbd" };
	struct run_result r;
	json_object *root, *job;
	const char *json;
	int n = 7;

	snprintf(file, sizeof(file), "--filename=%s", ng);
	while (*opts && n < MAX_ARGS)
		argv[n++] = *opts++;
	argv[n] = NULL;
	if (run_argv(argv, &r))
		return -1;
	/* fio prints notes before its JSON. */
	json = strchr(r.out, '{');
	root = json ? json_tokener_parse(json) : NULL;
	if (r.status || !root) {
		TH_LOG("fio exit %d: %.400s", r.status, r.err);
		run_result_free(&r);
		return -1;
	}
	run_result_free(&r);
	job = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	f->ios[0] = json_int(job, "read.total_ios", -1);
	f->bytes[0] = json_int(job, "read.io_bytes", -1);
	f->ios[1] = json_int(job, "write.total_ios", -1);
	f->bytes[1] = json_int(job, "write.io_bytes", -1);
	f->errors = json_int(job, "error", -1);
	json_object_put(root);
	return 0;
}

/*
 * One job of uring-cmd-zoned.fio: blkqual from empty zones, the zones
 * checked, then fio from empty zones; the writes and verify reads equal.
 * Returns the data blkqual left in the zones.
 */
static long long zoned_job(struct __test_metadata *_metadata, const char *ng, const char *blk,
			   const char *const *opts, long long writes, long long bytes)
{
	struct blk_zone z[NR_ZONES];
	struct figures f, fio;
	long long data;
	int ret;

	if (reset_all(blk))
		return -1;
	if (run_bq(_metadata, ng, blk, &f, opts))
		return -1;
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(writes, f.ios[1]);
	EXPECT_EQ(bytes, f.bytes[1]);
	/* verify= reads every block written back, in fio's read counts. */
	EXPECT_EQ(writes, f.verify_reads);
	EXPECT_EQ(0, f.verify_bad);
	if (report(blk, z))
		return -1;
	data = zone_data(z, NULL);
	EXPECT_EQ(bytes, data);

	if (access(FIO, X_OK)) {
		TH_LOG("no fio in the guest: counts checked against the job only");
		return data;
	}
	if (reset_all(blk))
		return -1;
	ret = run_fio(_metadata, ng, &fio, opts);
	if (ret)
		return -1;
	EXPECT_EQ(0, fio.errors);
	EXPECT_EQ(fio.ios[1], f.ios[1]);
	EXPECT_EQ(fio.bytes[1], f.bytes[1]);
	EXPECT_EQ(fio.ios[0], f.ios[0] + f.verify_reads);
	if (report(blk, z))
		return -1;
	EXPECT_EQ(zone_data(z, NULL), data);
	TH_LOG("fio 3.33: %lld writes, %lld reads; blkqual: %lld writes, %lld reads",
	       fio.ios[1], fio.ios[0], f.ios[1], f.ios[0] + f.verify_reads);
	return data;
}

/* uring-cmd-zoned.fio's sequential job, on four zones: each full, read back. */
TEST_F_TIMEOUT(zns, seq_write_verify_as_fio, 300)
{
	static const char *const opts[] = { "--rw=write", "--size=4z", "--iodepth=1",
					    "--bs=256k", "--verify=crc32c", NULL };
	struct blk_zone z[NR_ZONES];

	NEED_ZNS();
	ASSERT_EQ(4 * ZONE, zoned_job(_metadata, self->ng, self->blk, opts, 4 * ZONE / (256 << 10),
				      4 * ZONE));
	ASSERT_EQ(0, report(self->blk, z));
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(BLK_ZONE_COND_FULL, z[i].cond) TH_LOG("zone %d", i);
	}
	for (int i = 4; i < NR_ZONES; i++) {
		EXPECT_EQ(BLK_ZONE_COND_EMPTY, z[i].cond) TH_LOG("zone %d", i);
	}
}

/* Its random job at QD1: 64 MiB over four zones, each write at a write pointer. */
TEST_F_TIMEOUT(zns, randwrite_qd1_verify_as_fio, 300)
{
	static const char *const opts[] = { "--rw=randwrite", "--size=4z", "--io_size=64m",
					    "--iodepth=1", "--bs=256k", "--verify=crc32c", NULL };
	struct blk_zone z[NR_ZONES];
	long long per[NR_ZONES];

	NEED_ZNS();
	ASSERT_EQ(64 * MIB, zoned_job(_metadata, self->ng, self->blk, opts, 64 * MIB / (256 << 10),
				      64 * MIB));
	/* fio's run came last: blkqual's own zones, once more, from empty. */
	ASSERT_EQ(0, reset_all(self->blk));
	{
		struct figures f;

		ASSERT_EQ(0, run_bq(_metadata, self->ng, self->blk, &f, opts));
		ASSERT_EQ(0, report(self->blk, z));
		EXPECT_EQ(f.bytes[1], zone_data(z, per));
	}
	/* Only the job's four zones, and more than one of them (the offsets are random). */
	for (int i = 4; i < NR_ZONES; i++) {
		EXPECT_EQ(0, per[i]) TH_LOG("zone %d", i);
	}
	EXPECT_GT(64 * MIB, per[0] > per[1] ? per[0] : per[1]);
}

/*
 * A full zone is reset before it is written again, through passthrough:
 * a second sequential pass over the same zone with nothing in the way.
 */
TEST_F_TIMEOUT(zns, full_zone_is_reset, 300)
{
	static const char *const opts[] = { "--rw=write", "--size=1z", "--bs=256k", NULL };
	struct blk_zone z[NR_ZONES];
	struct figures f;

	NEED_ZNS();
	ASSERT_EQ(0, reset_all(self->blk));
	for (int pass = 0; pass < 2; pass++) {
		ASSERT_EQ(0, run_bq(_metadata, self->ng, self->blk, &f, opts));
		EXPECT_EQ(0, f.errors);
		EXPECT_EQ(ZONE / (256 << 10), f.ios[1]);
		EXPECT_EQ(pass, f.resets);
		ASSERT_EQ(0, report(self->blk, z));
		EXPECT_EQ(BLK_ZONE_COND_FULL, z[0].cond);
		EXPECT_EQ(BLK_ZONE_COND_EMPTY, z[1].cond);
	}
}

/*
 * uring-cmd-zoned-append.fio: Zone Appends to the zone's start, the
 * device's write pointer deciding where each lands; the completion's
 * block must be where the write was counted, and verify= finds the data
 * there.  Sequential over one zone, then random over two, then Writes
 * and Appends mixed.
 */
TEST_F_TIMEOUT(zns, zone_append_lands_where_verified, 300)
{
	static const char *const seq[] = { "--rw=write", "--size=1z", "--iodepth=4", "--bs=64k",
					   "--write_mode=zone_append", "--verify=crc32c", NULL };
	static const char *const rnd[] = { "--rw=randwrite", "--size=2z", "--io_size=32m",
					   "--iodepth=4", "--bs=64k", "--write_mode=zone_append",
					   "--verify=crc32c", NULL };
	static const char *const mix[] = { "--rw=randwrite", "--size=2z", "--io_size=32m",
					   "--iodepth=4", "--bs=64k",
					   "--write_mode=write/50:zone_append/50", "--verify=crc32c",
					   NULL };
	struct blk_zone z[NR_ZONES];
	long long per[NR_ZONES];
	struct figures f;

	NEED_ZNS();
	ASSERT_EQ(0, reset_all(self->blk));
	ASSERT_EQ(0, run_bq(_metadata, self->ng, self->blk, &f, seq));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(ZONE / (64 << 10), f.ios[1]);
	EXPECT_EQ(f.ios[1], f.verify_reads);
	EXPECT_EQ(0, f.verify_bad);
	ASSERT_EQ(0, report(self->blk, z));
	EXPECT_EQ(BLK_ZONE_COND_FULL, z[0].cond);
	EXPECT_EQ(ZONE, zone_data(z, NULL));

	/* Then random over two zones: Appends alone, and mixed with Writes (fio's head). */
	for (int k = 0; k < 2; k++) {
		ASSERT_EQ(0, reset_all(self->blk));
		ASSERT_EQ(0, run_bq(_metadata, self->ng, self->blk, &f, k ? mix : rnd));
		EXPECT_EQ(0, f.errors) TH_LOG("%s", k ? "mix" : "appends");
		EXPECT_EQ(32 * MIB / (64 << 10), f.ios[1]);
		EXPECT_EQ(f.ios[1], f.verify_reads);
		EXPECT_EQ(0, f.verify_bad);
		ASSERT_EQ(0, report(self->blk, z));
		EXPECT_EQ(32 * MIB, zone_data(z, per));
		EXPECT_EQ(32 * MIB, per[0] + per[1]);
	}
}

/*
 * A namespace that is not zoned (BQNVME0) answers no Zoned Namespace
 * Identify: its zones are emulated from zonesize, as fio's are.
 */
TEST_F_TIMEOUT(zns, emulated_zones_on_a_plain_namespace, 120)
{
	static const char *const opts[] = { "--rw=write", "--size=2z", "--zonesize=4m",
					    "--bs=256k", NULL };
	char ng[64], blk[64];
	struct figures f;

	NEED_ZNS();
	ASSERT_EQ(0, find_by_serial("/sys/class/nvme-generic", "ng", "BQNVME0", ng, sizeof(ng)));
	ASSERT_EQ(0, find_by_serial("/sys/block", "nvme", "BQNVME0", blk, sizeof(blk)));
	ASSERT_EQ(0, run_bq(_metadata, ng, blk, &f, opts));
	EXPECT_EQ(0, f.errors);
	EXPECT_EQ(2 * 4 * MIB / (256 << 10), f.ios[1]);
	EXPECT_EQ(0, f.resets);
}

TEST_HARNESS_MAIN
