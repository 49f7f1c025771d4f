// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_qualify_test.c - blkqual qualify on QEMU's NVMe (VM guest): the
 * purge by NVMe Format NVM through libnvme really runs (or the report
 * says why the controller refused it), Sanitize, which QEMU's controller
 * does not advertise, is skipped with its reason, and the qualification
 * goes on to a verdict either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

#define DEV "/dev/nvme1n1"

#define NEED_GUEST() do { \
	if (access("/sys/block/nvme1n1", F_OK) || access("/sys/block/nullb0", F_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

/*
 * quick, scaled to the emulated machine: 1/8 of the 1 GiB namespace,
 * 300 ms cells, 2 to 3 rounds; the purge method is the test's.
 */
static const char profile_fmt[] =
	"[profile]\n"
	"name=vm-quick\n"
	"purge=%s\n"
	"precondition=%s\n"
	"capacity_fraction=0.125\n"
	"round_time=300ms\n"
	"max_rounds=3\n"
	"window=2\n"
	"iodepth=8\n"
	"require_steady=no\n"
	"[step:iops]\n"
	"kind=iops\n"
	"mixes=100/0,0/100\n"
	"bs=4k\n"
	"tracked=0/100 4k write iops\n"
	"[step:latency]\n"
	"kind=latency\n"
	"mixes=100/0\n"
	"bs=4k\n"
	"tracked=100/0 4k read mean\n"
	"[criteria]\n"
	"4k randread IOPS >= 10\n"
	"max read latency <= 10 s\n";

static json_object *qualify(struct __test_metadata *_metadata, const char *purge,
			    const char *precondition)
{
	char path[] = "/tmp/vmq.ini", state[] = "/tmp/vmq.state";
	struct run_result r;
	json_object *root;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return NULL;
	fprintf(f, profile_fmt, purge, precondition);
	fclose(f);
	if (run_blkqual(&r, "qualify", "--profile", path, "--no-status", "-o", "json",
			"--state", state, "--force-destroy=" DEV, DEV, NULL))
		return NULL;
	unlink(path);
	unlink(state);
	root = json_tokener_parse(r.out);
	if (!root)
		TH_LOG("exit %d: %s", r.status, r.err);
	else if (r.status)
		TH_LOG("exit %d: %s (%s)", r.status, json_str(root, "verdict"),
		       json_str(root, "verdict_note"));
	run_result_free(&r);
	return root;
}

TEST(nvme_format_purge)
{
	json_object *root, *step, *cell;
	const char *method, *note;

	NEED_GUEST();
	root = qualify(_metadata, "format", "1x");
	ASSERT_NE(NULL, root);
	method = json_str(root, "purge.method");
	note = json_str(root, "purge.note");
	ASSERT_NE(NULL, method);
	ASSERT_NE(NULL, note);
	TH_LOG("purge: %s: %s", method, note);
	EXPECT_STREQ("nvme-format", json_str(root, "purge.requested"));
	if (!strcmp(method, "nvme-format")) {
		EXPECT_TRUE(json_object_get_boolean(json_object_object_get(
			json_object_object_get(root, "purge"), "done")));
		EXPECT_NE(NULL, strstr(note, "Format NVM of namespace"));
	} else {
		/* QEMU refused: the report must say what and why. */
		EXPECT_STREQ("none", method);
		EXPECT_NE(NULL, strstr(note, "Format NVM")) TH_LOG("%s", note);
		EXPECT_NE(NULL, strstr(note, "not purged"));
	}
	/* After the purge the namespace still works: the steps ran. */
	EXPECT_EQ(128LL << 20, json_int(root, "precondition.bytes", 0));
	EXPECT_STREQ("pass", json_str(root, "verdict"));
	step = json_object_array_get_idx(json_object_object_get(root, "steps"), 0);
	ASSERT_NE(NULL, step);
	cell = json_object_array_get_idx(json_object_object_get(step, "cells"), 0);
	ASSERT_NE(NULL, cell);
	EXPECT_LT(0, json_int(cell, "read.ios", 0));
	EXPECT_STREQ("nvme", json_str(root, "device.kind"));
	EXPECT_STREQ("BQNVME1", json_str(root, "device.serial"));
	json_object_put(root);
}

TEST(nvme_sanitize_skipped_with_reason)
{
	json_object *root;
	const char *note;

	NEED_GUEST();
	root = qualify(_metadata, "sanitize", "none");
	ASSERT_NE(NULL, root);
	note = json_str(root, "purge.note");
	ASSERT_NE(NULL, note);
	TH_LOG("purge: %s: %s", json_str(root, "purge.method"), note);
	if (!strcmp(json_str(root, "purge.method"), "nvme-sanitize")) {
		/* A QEMU that grew Sanitize: then it must have completed. */
		EXPECT_TRUE(json_object_get_boolean(json_object_object_get(
			json_object_object_get(root, "purge"), "done")));
	} else {
		EXPECT_STREQ("none", json_str(root, "purge.method"));
		EXPECT_NE(NULL, strstr(note, "Sanitize")) TH_LOG("%s", note);
	}
	EXPECT_EQ(NULL, json_object_object_get(root, "precondition"));
	EXPECT_STREQ("pass", json_str(root, "verdict"));
	json_object_put(root);
}

TEST_HARNESS_MAIN
