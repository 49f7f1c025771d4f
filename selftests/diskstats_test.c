// SPDX-License-Identifier: GPL-2.0-only
/*
 * diskstats_test.c - block device counters and their differences
 *
 * Stat files of the three kernel generations (11, 15 and 17 fields) are
 * written to a temp tree; the live check only reads.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "internal.h"
#include "helpers/tree.h"

/* A stat file as the kernel prints it: %8 columns, one line. */
static void put_stat(const char *dir, const char *name, const char *content)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/class/block/%s/stat", name);
	tree_put(dir, rel, content);
}

FIXTURE(tree)
{
	char dir[64];
	struct bq_ctx *ctx;
};

FIXTURE_SETUP(tree)
{
	char sys[128];
	struct bq_roots roots = { .sysfs = sys, .proc = "/nonexistent", .dev = "/nonexistent" };

	snprintf(self->dir, sizeof(self->dir), "/tmp/blkqual-diskstats.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(sys, sizeof(sys), "%s/sys", self->dir);
	/* 6.x: 17 fields. */
	put_stat(self->dir, "nvme0n1",
		 "  123456     7890  9876543    45678   654321      321 87654321    98765"
		 "        3    56789   144443      111        2   222222       33      444"
		 "       55\n");
	/* A partition reads the same way; flushes are not tracked on one. */
	put_stat(self->dir, "nvme0n1p1",
		 "     100        1      800       10      200        2     1600       20"
		 "        0       25       30        5        0       40        1        0"
		 "        0\n");
	/* 4.18 to 5.4: 15 fields, no flushes. */
	put_stat(self->dir, "sda",
		 "       1        2        3        4        5        6        7        8"
		 "        9       10       11       12       13       14       15\n");
	/* Before 4.18: 11 fields, no discards. */
	put_stat(self->dir, "sdb",
		 "       1        2        3        4        5        6        7        8"
		 "        9       10       11\n");
	/* A later kernel's extra fields are ignored. */
	put_stat(self->dir, "sdc",
		 "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n");
	/* 64-bit counters beyond 32 bits. */
	put_stat(self->dir, "sdd",
		 "18446744073709551615 0 8589934592 4294967295 0 0 0 0 0 0 0\n");
	put_stat(self->dir, "short", "1 2 3 4 5 6 7 8 9 10\n");
	put_stat(self->dir, "junk", "1 2 3 4 5 6 7 8 9 10 11x\n");
	put_stat(self->dir, "negative", "1 2 3 4 5 6 7 8 9 -10 11\n");
	put_stat(self->dir, "hex", "1 2 3 4 5 6 7 8 9 0x10 11\n");
	put_stat(self->dir, "overflow", "1 2 3 4 5 6 7 8 9 18446744073709551616 11\n");
	put_stat(self->dir, "empty", "");
	ASSERT_EQ(0, bq_ctx_new(&self->ctx, &roots));
}

FIXTURE_TEARDOWN(tree)
{
	bq_ctx_free(self->ctx);
	if (self->dir[0] && tree_remove(self->dir))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(tree, seventeen_fields)
{
	struct bq_diskstats st;

	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "nvme0n1", &st));
	EXPECT_EQ(123456, st.ios[BQ_READ]);
	EXPECT_EQ(7890, st.merges[BQ_READ]);
	EXPECT_EQ(9876543, st.sectors[BQ_READ]);
	EXPECT_EQ(45678, st.ticks_ms[BQ_READ]);
	EXPECT_EQ(654321, st.ios[BQ_WRITE]);
	EXPECT_EQ(321, st.merges[BQ_WRITE]);
	EXPECT_EQ(87654321, st.sectors[BQ_WRITE]);
	EXPECT_EQ(98765, st.ticks_ms[BQ_WRITE]);
	EXPECT_EQ(3, st.in_flight);
	EXPECT_EQ(56789, st.io_ticks_ms);
	EXPECT_EQ(144443, st.time_in_queue_ms);
	EXPECT_EQ(111, st.discards);
	EXPECT_EQ(444, st.flushes);
}

TEST_F(tree, partition)
{
	struct bq_diskstats st;

	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "nvme0n1p1", &st));
	EXPECT_EQ(100, st.ios[BQ_READ]);
	EXPECT_EQ(1600, st.sectors[BQ_WRITE]);
	EXPECT_EQ(5, st.discards);
	EXPECT_EQ(0, st.flushes);
}

TEST_F(tree, fifteen_fields)
{
	struct bq_diskstats st;

	memset(&st, 0xff, sizeof(st));
	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "sda", &st));
	EXPECT_EQ(1, st.ios[BQ_READ]);
	EXPECT_EQ(8, st.ticks_ms[BQ_WRITE]);
	EXPECT_EQ(11, st.time_in_queue_ms);
	EXPECT_EQ(12, st.discards);
	EXPECT_EQ(0, st.flushes);
}

TEST_F(tree, eleven_fields)
{
	struct bq_diskstats st;

	memset(&st, 0xff, sizeof(st));
	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "sdb", &st));
	EXPECT_EQ(2, st.merges[BQ_READ]);
	EXPECT_EQ(7, st.sectors[BQ_WRITE]);
	EXPECT_EQ(9, st.in_flight);
	EXPECT_EQ(10, st.io_ticks_ms);
	EXPECT_EQ(11, st.time_in_queue_ms);
	EXPECT_EQ(0, st.discards);
	EXPECT_EQ(0, st.flushes);
}

TEST_F(tree, extra_fields_ignored)
{
	struct bq_diskstats st;

	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "sdc", &st));
	EXPECT_EQ(12, st.discards);
	EXPECT_EQ(16, st.flushes);
}

TEST_F(tree, wide_values)
{
	struct bq_diskstats st;

	ASSERT_EQ(0, bq_diskstats_read(self->ctx, "sdd", &st));
	EXPECT_EQ(UINT64_MAX, st.ios[BQ_READ]);
	EXPECT_EQ(UINT64_C(8589934592), st.sectors[BQ_READ]);
	EXPECT_EQ(UINT32_MAX, st.ticks_ms[BQ_READ]);
}

TEST_F(tree, malformed)
{
	struct bq_diskstats st;

	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "short", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "junk", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "negative", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "hex", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "overflow", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "empty", &st));
}

TEST_F(tree, names)
{
	struct bq_diskstats st;

	EXPECT_EQ(-ENOENT, bq_diskstats_read(self->ctx, "nvme9n1", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "..", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "../block/sda", &st));
	EXPECT_EQ(-EINVAL, bq_diskstats_read(self->ctx, "sda/../sdb", &st));
}

static void sample(struct bq_diskstats *st, uint64_t base)
{
	for (int dir = 0; dir < BQ_NR_DIRS; dir++) {
		st->ios[dir] = base + 1 + dir;
		st->merges[dir] = base + 3 + dir;
		st->sectors[dir] = base + 5 + dir;
		st->ticks_ms[dir] = base + 7 + dir;
	}
	st->in_flight = base + 9;
	st->io_ticks_ms = base + 10;
	st->time_in_queue_ms = base + 11;
	st->discards = base + 12;
	st->flushes = base + 13;
}

TEST(delta)
{
	struct bq_diskstats a, b, d;

	sample(&a, 1000);
	sample(&b, 1500);
	b.in_flight = 4;
	bq_diskstats_delta(&a, &b, &d);
	for (int dir = 0; dir < BQ_NR_DIRS; dir++) {
		EXPECT_EQ(500, d.ios[dir]);
		EXPECT_EQ(500, d.merges[dir]);
		EXPECT_EQ(500, d.sectors[dir]);
		EXPECT_EQ(500, d.ticks_ms[dir]);
	}
	/* A level, not a count: the later sample's. */
	EXPECT_EQ(4, d.in_flight);
	EXPECT_EQ(500, d.io_ticks_ms);
	EXPECT_EQ(500, d.time_in_queue_ms);
	EXPECT_EQ(500, d.discards);
	EXPECT_EQ(500, d.flushes);
	/* The result may overwrite an input. */
	bq_diskstats_delta(&a, &b, &b);
	EXPECT_EQ(500, b.ios[BQ_READ]);
	EXPECT_EQ(4, b.in_flight);
}

TEST(delta_of_wrapped_and_restarted_counters)
{
	struct bq_diskstats a, b, d;

	sample(&a, 0);
	sample(&b, 0);
	/* Tick fields are 32 bits wide in the kernel's output. */
	a.ticks_ms[BQ_READ] = UINT32_MAX - 99;
	b.ticks_ms[BQ_READ] = 50;
	a.io_ticks_ms = 4294967000u;
	b.io_ticks_ms = 296;
	/* A 64-bit counter that went backwards: the device came back. */
	a.sectors[BQ_WRITE] = UINT64_C(1) << 40;
	b.sectors[BQ_WRITE] = 4096;
	bq_diskstats_delta(&a, &b, &d);
	EXPECT_EQ(150, d.ticks_ms[BQ_READ]);
	EXPECT_EQ(592, d.io_ticks_ms);
	EXPECT_EQ(4096, d.sectors[BQ_WRITE]);
	EXPECT_EQ(0, d.ios[BQ_READ]);
}

/* Whatever block device this machine has first: its counters parse. */
TEST(live)
{
	struct bq_roots roots = { .sysfs = "/sys", .proc = "/proc", .dev = "/dev" };
	struct bq_diskstats st, again, d;
	char name[256] = "";
	struct bq_ctx *ctx;
	struct dirent *de;
	DIR *dir;

	dir = opendir("/sys/block");
	if (!dir)
		SKIP(return, "no /sys/block");
	while ((de = readdir(dir))) {
		if (de->d_name[0] != '.') {
			snprintf(name, sizeof(name), "%s", de->d_name);
			break;
		}
	}
	closedir(dir);
	if (!name[0])
		SKIP(return, "no block device");
	ASSERT_EQ(0, bq_ctx_new(&ctx, &roots));
	ASSERT_EQ(0, bq_diskstats_read(ctx, name, &st)) TH_LOG("%s", name);
	ASSERT_EQ(0, bq_diskstats_read(ctx, name, &again));
	/* Counters only grow between two reads this close. */
	bq_diskstats_delta(&st, &again, &d);
	EXPECT_GE(again.ios[BQ_READ], st.ios[BQ_READ]);
	EXPECT_LT(d.ios[BQ_READ], UINT64_C(1) << 32);
	bq_ctx_free(ctx);
}

TEST_HARNESS_MAIN
