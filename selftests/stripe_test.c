// SPDX-License-Identifier: GPL-2.0-only
/*
 * stripe_test.c - blkqual run --stripe on 2 to 8 scratch loop devices:
 * every member receives exactly the bytes md's RAID0 layout (the library)
 * assigns it, its own diskstats agree, and writes pass the guard on every
 * member.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_raid.h"
#include "../raid/raid_int.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define MAX_MEMBERS 8
#define CHUNK (64 << 10)

FIXTURE(array)
{
	struct prep p;
	struct scratch s[MAX_MEMBERS];
	char stripe[1024];
};

FIXTURE_VARIANT(array)
{
	int members;
	bool small_last;	/* a smaller last member: two zones */
	const char *layout;	/* for two zones */
	int layout_id;
};

FIXTURE_VARIANT_ADD(array, two_equal)
{
	.members = 2,
};

FIXTURE_VARIANT_ADD(array, eight_equal)
{
	.members = 8,
};

FIXTURE_VARIANT_ADD(array, four_unequal_original)
{
	.members = 4, .small_last = true, .layout = "original", .layout_id = BQ_RAID0_ORIGINAL,
};

FIXTURE_VARIANT_ADD(array, four_unequal_alternate)
{
	.members = 4, .small_last = true, .layout = "alternate", .layout_id = BQ_RAID0_ALTERNATE,
};

FIXTURE_SETUP(array)
{
	size_t used;

	for (int i = 0; i < MAX_MEMBERS; i++)
		scratch_init(&self->s[i]);
	for (int i = 0; i < variant->members && prep_ok(&self->p); i++)
		scratch_device(&self->p, &self->s[i], variant->small_last &&
			       i == variant->members - 1 ? 40 << 20 : 64 << 20);
	used = (size_t)snprintf(self->stripe, sizeof(self->stripe), "--stripe=");
	for (int i = 0; i < variant->members; i++)
		used += (size_t)snprintf(self->stripe + used, sizeof(self->stripe) - used, "%s%s",
					 i ? "," : "", self->s[i].dev);
	used += (size_t)snprintf(self->stripe + used, sizeof(self->stripe) - used,
				 ",chunk=%d", CHUNK);
	if (variant->layout)
		snprintf(self->stripe + used, sizeof(self->stripe) - used, ",layout=%s",
			 variant->layout);
}

FIXTURE_TEARDOWN(array)
{
	for (int i = 0; i < MAX_MEMBERS; i++)
		scratch_destroy(&self->s[i]);
}

static json_object *run_stripe(struct __test_metadata *_metadata, const char *stripe,
			       const char *rw, const char *bs, struct run_result *r)
{
	json_object *root;

	if (run_blkqual(r, "run", "--no-status", "-o", "json", stripe, rw, bs, "--iodepth=8",
			"--direct=1", "--name=stripe", NULL))
		return NULL;
	if (r->status) {
		TH_LOG("exit %d: %s", r->status, r->err);
		return NULL;
	}
	root = json_tokener_parse(r->out);
	return root;
}

/* A sequential pass over the whole array, a chunk per I/O, against the library. */
TEST_F(array, members_get_what_the_layout_says)
{
	uint64_t sectors[MAX_MEMBERS], want[MAX_MEMBERS] = { 0 }, size;
	struct run_result r;
	json_object *root, *job, *members, *targets;
	struct bq_raid0 raid;
	int n = variant->members;

	PREP_READY(&self->p);
	for (int i = 0; i < n; i++)
		sectors[i] = (variant->small_last && i == n - 1 ? 40 << 20 : 64 << 20) >> 9;
	ASSERT_EQ(0, bq_raid0_init(&raid, sectors, NULL, n, CHUNK >> 9,
				   (enum bq_raid0_layout)variant->layout_id));
	size = bq_raid0_size(&raid);
	for (uint64_t sec = 0; sec < size; sec += CHUNK >> 9) {
		uint64_t msec, left;
		int m;

		ASSERT_EQ(0, bq_raid0_map(&raid, sec, &m, &msec, &left));
		want[m] += CHUNK;
	}
	root = run_stripe(_metadata, self->stripe, "--rw=read", "--bs=64k", &r);
	ASSERT_NE(NULL, root);
	job = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	EXPECT_EQ((long long)size << 9, json_int(job, "stripe.size", -1));
	EXPECT_EQ((long long)size << 9, json_int(job, "total.read.bytes", -1));
	members = json_object_object_get(json_object_object_get(job, "stripe"), "members");
	targets = json_object_object_get(job, "targets");
	ASSERT_EQ(n, (int)json_object_array_length(members));
	for (int i = 0; i < n; i++) {
		json_object *m = json_object_array_get_idx(members, i);
		json_object *t = json_object_array_get_idx(targets, i);

		EXPECT_EQ((long long)want[i], json_int(m, "bytes", -1)) TH_LOG("member %d", i);
		/* The member's own counters saw the same. */
		EXPECT_EQ((long long)want[i], json_int(t, "disk_stats.read_sectors", -1) * 512)
			TH_LOG("member %d diskstats", i);
	}
	json_object_put(root);
	run_result_free(&r);
}

/* Random I/O smaller than a chunk: each I/O is one member request. */
TEST_F(array, random_reads_add_up)
{
	struct run_result r;
	json_object *root, *job, *members;
	long long sum = 0;

	PREP_READY(&self->p);
	root = run_stripe(_metadata, self->stripe, "--rw=randread", "--bs=4k", &r);
	ASSERT_NE(NULL, root);
	job = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	members = json_object_object_get(json_object_object_get(job, "stripe"), "members");
	for (int i = 0; i < variant->members; i++)
		sum += json_int(json_object_array_get_idx(members, i), "ios", 0);
	EXPECT_EQ(json_int(job, "total.read.ios", -1), sum);
	EXPECT_LT(0, sum);
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(array, writes_pass_the_guard_on_every_member)
{
	struct run_result r;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s[1].dev));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->stripe, "--rw=write",
				 "--bs=64k", "--io_size=1m", "--direct=1", "--name=w", NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, self->s[1].dev)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ext4")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* stripe-tune: one row per chunk size, the best one named, one JSON document. */
FIXTURE(tune)
{
	struct prep p;
	struct scratch s[4];
	char members[512];
};

FIXTURE_SETUP(tune)
{
	size_t used = 0;

	for (int i = 0; i < 4; i++)
		scratch_init(&self->s[i]);
	for (int i = 0; i < 4 && prep_ok(&self->p); i++)
		scratch_device(&self->p, &self->s[i], 64 << 20);
	for (int i = 0; i < 4; i++)
		used += (size_t)snprintf(self->members + used, sizeof(self->members) - used,
					 "%s%s", i ? "," : "", self->s[i].dev);
}

FIXTURE_TEARDOWN(tune)
{
	for (int i = 0; i < 4; i++)
		scratch_destroy(&self->s[i]);
}

TEST_F(tune, table_and_json)
{
	struct run_result r;
	json_object *root, *rows;
	long long best;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "stripe-tune", self->members, "--chunks=16k,64k,256k",
				 "--rw=randread", "--bs=16k", "--iodepth=8", "--direct=1",
				 "--runtime=500ms", "--time_based", "--name=t", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "16K ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "256K ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "best chunk for this workload: "));
	/* The cost is announced before the sweep, with the one-time fill. */
	EXPECT_NE(NULL, strstr(r.err, "3 chunk sizes x 0.5 s, after writing every member once"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "stripe-tune", self->members, "--chunks=64k,128k", "-o",
				 "json", "--rw=randwrite", "--bs=4k", "--io_size=1m", "--direct=1",
				 "--name=t", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	rows = json_object_object_get(root, "chunks");
	ASSERT_EQ(2, (int)json_object_array_length(rows));
	best = json_int(root, "best_chunk", 0);
	EXPECT_TRUE(best == 65536 || best == 131072);
	EXPECT_LT(0, json_int(json_object_array_get_idx(rows, 0), "iops", 0));
	json_object_put(root);
	run_result_free(&r);
}

TEST(tune_bad_input)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "stripe-tune", "/dev/null,/dev/null", "--rw=read",
				 "--name=t", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "missing --chunks")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "stripe-tune", "/dev/null,/dev/null", "--chunks=3k",
				 "--name=t", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
