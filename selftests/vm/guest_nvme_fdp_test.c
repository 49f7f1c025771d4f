// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_nvme_fdp_test.c - NVMe Flexible Data Placement through
 * io_uring_cmd on QEMU's emulated FDP subsystem (VM guest): each write
 * lands in the reclaim unit of the placement handle blkqual named, as
 * fdp, plids, plid_select and dp_scheme chose it, and fio's
 * uring-cmd-fdp example runs.
 *
 * The controller (serial BQNVMEFDP, selftests/vm/vm.sh) belongs to a
 * subsystem with FDP on, reclaim units of 64 MiB and 8 reclaim unit
 * handles; its namespace 1 has placement handles for all 8.  QEMU counts
 * each handle's room left in its current reclaim unit (RUAMW, in logical
 * blocks) down by every block written with that handle's placement
 * identifier, and writes without a directive go to handle 0: reading the
 * handles' status before and after a job tells where its writes went.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "device/device_int.h"
#include "helpers/nvme_ns.h"
#include "helpers/run.h"

#define SERIAL "BQNVMEFDP"
#define NR_RUH 8

FIXTURE(fdp)
{
	char ng[256];
	char blk[256];
	char file[300];
	unsigned int lba;
	int fd;
};

FIXTURE_SETUP(fdp)
{
	char path[512], *s;

	self->fd = -1;
	if (nvme_ns_by_serial(SERIAL, 1, self->ng, self->blk, sizeof(self->ng)))
		SKIP(return, "no NVMe controller " SERIAL " (not in the blkqual VM, or its QEMU "
		     "has no FDP: 8.0 or later has)");
	snprintf(self->file, sizeof(self->file), "--filename=%s", self->ng);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size", self->blk + 5);
	s = slurp(path);
	ASSERT_NE(NULL, s);
	self->lba = (unsigned int)atoi(s);
	free(s);
	ASSERT_LT(0, self->lba);
	self->fd = open(self->ng, O_RDONLY);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(fdp)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Blocks each handle took since @before (a reclaim unit is far larger than a test). */
static void status(struct __test_metadata *_metadata, int fd, struct bq_nvme_ruh *r)
{
	ASSERT_EQ(NR_RUH, bq_nvme_fdp_status(fd, 1, r, NR_RUH));
}

static void taken(const struct bq_nvme_ruh *before, const struct bq_nvme_ruh *after,
		  uint64_t *blocks)
{
	for (int i = 0; i < NR_RUH; i++)
		blocks[i] = before[i].ruamw - after[i].ruamw;
}

/* A new temp file from the template @path, open for writing; NULL if not. */
static FILE *temp_file(char *path)
{
	int fd = mkstemp(path);

	return fd < 0 ? NULL : fdopen(fd, "w");
}

/* A sequential write job of @mib MiB with @extra options; exit status 0. */
static void write_job(struct __test_metadata *_metadata, const char *file, int mib,
		      const char *const *extra)
{
	const char *argv[24] = { NULL, "run", "--no-status", "--name=w",
				 "--ioengine=io_uring_cmd", "--cmd_type=nvme", "--rw=write",
				 "--bs=4k", "--iodepth=8" };
	struct run_result r;
	char size[32];
	int n = 9;

	argv[0] = blkqual_path();
	argv[n++] = file;
	snprintf(size, sizeof(size), "--size=%dm", mib);
	argv[n++] = size;
	while (*extra && n < 23)
		argv[n++] = *extra++;
	argv[n] = NULL;
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* plids=1,3: every other write to each, nothing anywhere else. */
TEST_F_TIMEOUT(fdp, plids_split_round_robin, 120)
{
	const char *extra[] = { "--fdp=1", "--plids=3,1", NULL };
	struct bq_nvme_ruh before[NR_RUH], after[NR_RUH];
	uint64_t blocks[NR_RUH], half = (2u << 20) / self->lba;

	status(_metadata, self->fd, before);
	write_job(_metadata, self->file, 4, extra);
	status(_metadata, self->fd, after);
	taken(before, after, blocks);
	for (int i = 0; i < NR_RUH; i++) {
		EXPECT_EQ(i == 1 || i == 3 ? half : 0, blocks[i]) TH_LOG("handle %d", i);
	}
}

/* No plids=: every handle in turn, the same share each. */
TEST_F_TIMEOUT(fdp, all_handles_by_default, 120)
{
	const char *extra[] = { "--dataplacement=fdp", NULL };
	struct bq_nvme_ruh before[NR_RUH], after[NR_RUH];
	uint64_t blocks[NR_RUH];

	status(_metadata, self->fd, before);
	write_job(_metadata, self->file, 8, extra);
	status(_metadata, self->fd, after);
	taken(before, after, blocks);
	for (int i = 0; i < NR_RUH; i++) {
		EXPECT_EQ((1u << 20) / self->lba, blocks[i]) TH_LOG("handle %d", i);
	}
}

/* plid_select=random over 0-3: all four used, none other, the total all the writes. */
TEST_F_TIMEOUT(fdp, random_over_four, 120)
{
	const char *extra[] = { "--fdp=1", "--plids=0-3", "--plid_select=random", NULL };
	struct bq_nvme_ruh before[NR_RUH], after[NR_RUH];
	uint64_t blocks[NR_RUH], sum = 0, all = (8u << 20) / self->lba;

	status(_metadata, self->fd, before);
	write_job(_metadata, self->file, 8, extra);
	status(_metadata, self->fd, after);
	taken(before, after, blocks);
	for (int i = 0; i < NR_RUH; i++) {
		sum += blocks[i];
		if (i < 4) {
			/* 2048 writes: each share within 6 standard deviations of 512. */
			EXPECT_GT(blocks[i], all / 4 - all / 8) TH_LOG("handle %d", i);
			EXPECT_LT(blocks[i], all / 4 + all / 8) TH_LOG("handle %d", i);
		} else {
			EXPECT_EQ(0, blocks[i]) TH_LOG("handle %d", i);
		}
	}
	EXPECT_EQ(all, sum);
}

/* plid_select=scheme: by offset, the identifiers of the file; outside every range, 0. */
TEST_F_TIMEOUT(fdp, scheme_by_offset, 120)
{
	char scheme[] = "/tmp/blkqual-scheme.XXXXXX", arg[64];
	const char *extra[] = { "--fdp=1", "--plid_select=scheme", arg, NULL };
	struct bq_nvme_ruh before[NR_RUH], after[NR_RUH];
	uint64_t blocks[NR_RUH], mib = (1u << 20) / self->lba;
	FILE *f;

	status(_metadata, self->fd, before);
	f = temp_file(scheme);
	ASSERT_NE(NULL, f);
	/* 1 MiB to the handle of placement identifier 5, 2 MiB to 6's, the last MiB to 0. */
	fprintf(f, "0, 1048576, %u\n1048576, 3145728, %u\n", before[5].pid, before[6].pid);
	ASSERT_EQ(0, fclose(f));
	snprintf(arg, sizeof(arg), "--dp_scheme=%s", scheme);
	write_job(_metadata, self->file, 4, extra);
	unlink(scheme);
	status(_metadata, self->fd, after);
	taken(before, after, blocks);
	for (int i = 0; i < NR_RUH; i++) {
		EXPECT_EQ(i == 5 ? mib : i == 6 ? 2 * mib : i == 0 ? mib : 0, blocks[i])
			TH_LOG("handle %d", i);
	}
}

/* plids= names indices into the namespace's handles: one past them is refused (exit 2). */
TEST_F(fdp, index_past_the_handles)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=w", "--ioengine=io_uring_cmd",
				 "--rw=write", "--size=1m", self->file, "--fdp=1", "--plids=8",
				 NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "8 placement handles")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* A namespace without FDP says so before the first write: the job does not fit it (exit 2). */
TEST(no_fdp_namespace)
{
	char ng[256], blk[256], file[300];
	struct run_result r;

	if (nvme_ns_by_serial("BQNVME0", 1, ng, blk, sizeof(ng)))
		SKIP(return, "no NVMe controller BQNVME0 (not in the blkqual VM)");
	snprintf(file, sizeof(file), "--filename=%s", ng);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=w", "--ioengine=io_uring_cmd",
				 "--rw=write", "--size=1m", file, "--fdp=1", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "no Flexible Data Placement")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* fio's uring-cmd-fdp example, capped: three jobs on three ranges, eight handles. */
TEST_F_TIMEOUT(fdp, fio_example_runs, 120)
{
	char job[] = "/tmp/blkqual-fdp.XXXXXX";
	const char *argv[] = { blkqual_path(), "run", "--no-status", job, NULL };
	struct bq_nvme_ruh before[NR_RUH], after[NR_RUH];
	uint64_t blocks[NR_RUH];
	struct run_result r;
	FILE *f;

	status(_metadata, self->fd, before);
	f = temp_file(job);
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\nfilename=%s\nioengine=io_uring_cmd\ncmd_type=nvme\niodepth=32\n"
		"bs=4K\nfdp=1\ntime_based=1\nruntime=2\n"
		"[write-heavy]\nrw=randrw\nrwmixwrite=90\nfdp_pli=0,1,2,3\noffset=0%%\nsize=30%%\n"
		"[write-mid]\nrw=randrw\nrwmixwrite=30\nfdp_pli=4,5\noffset=30%%\nsize=30%%\n"
		"[write-light]\nrw=randrw\nrwmixwrite=10\nfdp_pli=6\noffset=60%%\nsize=30%%\n",
		self->ng);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, run_argv(argv, &r));
	unlink(job);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	status(_metadata, self->fd, after);
	taken(before, after, blocks);
	for (int i = 0; i < NR_RUH; i++) {
		if (i < 7) {
			EXPECT_LT(0, blocks[i]) TH_LOG("handle %d", i);
		} else {
			EXPECT_EQ(0, blocks[i]) TH_LOG("handle %d", i);
		}
	}
}

TEST_HARNESS_MAIN
