// SPDX-License-Identifier: GPL-2.0-only
/*
 * flow_sync_test.c - fio's flow with the engines that do one I/O per call
 * (psync, sync, pvsync): two jobs of one flow, weights 1 and 4, ending by
 * size and by number_ios, do the same I/O counts as fio 3.33 on the same
 * job; run by time, both tools keep the counts in the ratio of the
 * weights; and sg, whose loop has no flow check, is refused.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/tree.h"

FIXTURE(flow)
{
	char dir[64];
	char file[128];		/* "--filename=DIR/f" */
};

FIXTURE_SETUP(flow)
{
	int fd;

	snprintf(self->dir, sizeof(self->dir), "/tmp/bq-flow-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "--filename=%s/f", self->dir);
	fd = open(self->file + strlen("--filename="), O_CREAT | O_WRONLY, 0600);
	ASSERT_LE(0, fd);
	/* Laid out already, so that neither tool writes to it first. */
	ASSERT_EQ(0, ftruncate(fd, 8 << 20));
	close(fd);
}

FIXTURE_TEARDOWN(flow)
{
	tree_remove(self->dir);
}

static long long ios_of(json_object *root, int k, bool fio)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), k);

	return json_int(j, fio ? "read.total_ios" : "total.read.ios", -1);
}

static json_object *bq_json(struct __test_metadata *_metadata, const char *const *args)
{
	struct run_result r;
	json_object *root = blkqual_run_json(&r, args);

	if (!root)
		TH_LOG("blkqual exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

/* a ends by size (2048 I/Os), b by number_ios (500), held 1:4 on the way. */
TEST_F(flow, counts_as_fio)
{
	static const char *const engines[] = { "psync", "sync", "pvsync" };

	for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		char eng[32];
		const char *const opts[] = { eng, self->file, "--bs=4k", "--size=8m",
					     "--rw=randread", "--flow_id=7", "--name=a",
					     "--flow=1", "--name=b", "--flow=4",
					     "--number_ios=500", NULL };
		json_object *bq, *fio;

		snprintf(eng, sizeof(eng), "--ioengine=%s", engines[e]);
		bq = bq_json(_metadata, opts);
		ASSERT_NE(NULL, bq) TH_LOG("%s", eng);
		EXPECT_EQ(2048, ios_of(bq, 0, false)) TH_LOG("%s", eng);
		EXPECT_EQ(500, ios_of(bq, 1, false)) TH_LOG("%s", eng);
		if (!have_fio()) {
			json_object_put(bq);
			SKIP(return, "fio is not installed: counts not compared");
		}
		fio = fio_run_json(opts);
		ASSERT_NE(NULL, fio) TH_LOG("%s", eng);
		TH_LOG("%s: fio a %lld b %lld, blkqual a %lld b %lld", engines[e],
		       ios_of(fio, 0, true), ios_of(fio, 1, true), ios_of(bq, 0, false),
		       ios_of(bq, 1, false));
		EXPECT_EQ(ios_of(fio, 0, true), ios_of(bq, 0, false)) TH_LOG("%s", eng);
		EXPECT_EQ(ios_of(fio, 1, true), ios_of(bq, 1, false)) TH_LOG("%s", eng);
		json_object_put(bq);
		json_object_put(fio);
	}
}

/* Run by time, the counts are 1:4, in both tools. */
TEST_F(flow, keeps_the_weights_ratio)
{
	const char *const opts[] = { "--ioengine=psync", self->file, "--bs=4k", "--size=8m",
				     "--rw=randread", "--time_based", "--runtime=1s",
				     "--flow_id=3", "--name=a", "--flow=1", "--name=b",
				     "--flow=4", NULL };
	json_object *bq, *fio;
	double ratio;

	bq = bq_json(_metadata, opts);
	ASSERT_NE(NULL, bq);
	ASSERT_LT(0, ios_of(bq, 0, false));
	ratio = (double)ios_of(bq, 1, false) / (double)ios_of(bq, 0, false);
	TH_LOG("blkqual: a %lld, b %lld I/Os", ios_of(bq, 0, false), ios_of(bq, 1, false));
	EXPECT_GT(ratio, 3.8);
	EXPECT_LT(ratio, 4.2);
	json_object_put(bq);
	if (!have_fio())
		SKIP(return, "fio is not installed: its ratio not compared");
	fio = fio_run_json(opts);
	ASSERT_NE(NULL, fio);
	ASSERT_LT(0, ios_of(fio, 0, true));
	ratio = (double)ios_of(fio, 1, true) / (double)ios_of(fio, 0, true);
	TH_LOG("fio: a %lld, b %lld I/Os", ios_of(fio, 0, true), ios_of(fio, 1, true));
	EXPECT_GT(ratio, 3.8);
	EXPECT_LT(ratio, 4.2);
	json_object_put(fio);
}

/* sg's loop has no flow check: refused, in one line. */
TEST_F(flow, sg_refused)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=sg", self->file,
				 "--size=64k", "--name=a", "--flow=1", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, r.err ? strstr(r.err, "flow is not implemented for ioengine=sg") : NULL)
		TH_LOG("%.200s", r.err ? r.err : "");
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
