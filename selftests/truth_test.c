// SPDX-License-Identifier: GPL-2.0-only
/*
 * truth_test.c - the figures of a run against what must be true of them
 *
 * Each test here is a way a figure was once wrong, checked against
 * something outside the figure: the run's own wall time, the count of
 * I/Os, the device's counters, arithmetic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* Run a job, parse its JSON, saying why when that fails. */
static json_object *run_json(struct __test_metadata *_metadata, struct run_result *r,
			     const char *const *args)
{
	json_object *root = blkqual_run_json(r, args);

	if (!root)
		TH_LOG("exit %d: %.200s%.200s", r->status, r->err ? r->err : "",
		       r->out ? r->out : "");
	return root;
}

/*
 * An I/O's latency starts when its batch goes to the kernel, not when the
 * batch began to be picked: with 256 nops per batch, all reaped at once,
 * picking with a Zipf distribution costs about as much as the nops.  The
 * sum of the latencies is then about half of runtime x depth (what the
 * kernel spends); stamped before picking, it was 90% of it.
 */
TEST(latency_excludes_preparing_the_batch)
{
	const char *args[] = { "--name=stamp", "--ioengine=nop", "--rw=randread",
			       "--random_distribution=zipf:1.2", "--bs=4k", "--iodepth=256",
			       "--iodepth_batch_complete_min=256", "--size=64g", "--runtime=1",
			       "--time_based", NULL };
	struct run_result r;
	json_object *root = run_json(_metadata, &r, args), *j;
	double busy;

	ASSERT_NE(NULL, root);
	j = job0(root);
	busy = json_dbl(j, "total.read.lat_ns.mean", 0) *
	       (double)json_int(j, "total.read.ios", 0) /
	       ((double)json_int(j, "runtime_ns", 1) * 256);
	TH_LOG("latency x I/Os / (runtime x depth) = %.2f", busy);
	EXPECT_GT(busy, 0.05);
	EXPECT_LT(busy, 0.8);
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
