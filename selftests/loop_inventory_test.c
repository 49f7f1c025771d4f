// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop_inventory_test.c - "blkqual list" and "blkqual info" on the live
 * system, checked against a scratch loop device whose facts we chose
 *
 * The live system has other devices too; only ours is looked at closely,
 * and nothing here writes to any device but ours (and only with mkfs).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define XFS_UUID "5d2c8e4a-1f3b-4a69-b7c0-9e8d7f6a5b43"

/* One member of an object; NULL when absent (and json-c's null is NULL). */
static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* ---- a scratch loop device ---------------------------------------------- */

FIXTURE(inventory) {
	struct prep p;
	struct scratch s;
	const char *name;
	long long file_size;
};

FIXTURE_SETUP(inventory)
{
	struct stat st;

	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
	if (!prep_ok(&self->p))
		return;
	self->name = strrchr(self->s.dev, '/') + 1;
	if (stat(self->s.file, &st))
		prep_fail(&self->p, "stat backing file", -errno);
	else
		self->file_size = st.st_size;
}

FIXTURE_TEARDOWN(inventory)
{
	scratch_destroy(&self->s);
}

TEST_F(inventory, list_shows_loop_device)
{
	char name[64], kind[32], size[32];
	struct run_result res;
	const char *next;
	bool found = false;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "list", NULL));
	ASSERT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	EXPECT_EQ(0, strncmp(res.out, "NAME ", 5)) TH_LOG("stdout: %s", res.out);
	for (const char *line = res.out; *line; line = next) {
		const char *eol = strchrnul(line, '\n');
		char row[PATH_MAX + 512];

		next = *eol ? eol + 1 : eol;
		if (sscanf(line, "%63s %31s %31s", name, kind, size) != 3 || strcmp(name, self->name))
			continue;
		found = true;
		snprintf(row, sizeof(row), "%.*s", (int)(eol - line), line);
		EXPECT_STREQ("loop", kind) TH_LOG("row: %s", row);
		/* SCRATCH_SIZE, as lsblk would print it. */
		EXPECT_STREQ("512M", size) TH_LOG("row: %s", row);
		EXPECT_NE(NULL, strstr(row, self->s.file)) TH_LOG("row: %s", row);
	}
	EXPECT_TRUE(found) TH_LOG("%s not in: %s", self->name, res.out);
	run_result_free(&res);
}

TEST_F(inventory, list_json_describes_loop_device)
{
	json_object *root, *dev;
	struct run_result res;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "list", "-o", "json", NULL));
	ASSERT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	root = json_tokener_parse(res.out);
	ASSERT_NE(NULL, root) TH_LOG("not JSON: %s", res.out);

	dev = json_find_by(member(root, "devices"), "name", self->name);
	EXPECT_NE(NULL, dev) TH_LOG("%s not in devices", self->name);
	if (dev) {
		EXPECT_STREQ("loop", json_str(dev, "kind") ?: "(none)");
		EXPECT_STREQ(self->s.dev, json_str(dev, "path") ?: "(none)");
		EXPECT_EQ(self->file_size, json_int(dev, "size", -1));
		EXPECT_STREQ(self->s.file, json_str(dev, "loop.backing_file") ?: "(none)");
		EXPECT_EQ(512, json_int(dev, "queue.logical_block_size", -1));
		/* loopdev.c attaches with autoclear, so the flag must show. */
		EXPECT_TRUE(json_object_get_boolean(member(member(dev, "loop"), "autoclear")));
		EXPECT_TRUE(json_object_is_type(member(dev, "in_use"), json_type_boolean));
		EXPECT_FALSE(json_object_get_boolean(member(dev, "in_use")));
	}
	json_object_put(root);
	run_result_free(&res);
}

/* Every way to name the device reaches the same one. */
TEST_F(inventory, info_by_path_name_and_devt)
{
	char devt[32], head[80];
	const char *args[3];
	struct run_result res;
	struct stat st;

	PREP_READY(&self->p);
	ASSERT_EQ(0, stat(self->s.dev, &st));
	snprintf(devt, sizeof(devt), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	args[0] = self->s.dev;
	args[1] = self->name;
	args[2] = devt;
	snprintf(head, sizeof(head), "%s:\n", self->name);

	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, run_blkqual(&res, "info", args[i], NULL));
		EXPECT_EQ(0, res.status) TH_LOG("info %s: %s", args[i], res.err);
		EXPECT_EQ(0, strncmp(res.out, head, strlen(head)))
			TH_LOG("info %s: %s", args[i], res.out);
		EXPECT_NE(NULL, strstr(res.out, "backing file")) TH_LOG("info %s", args[i]);
		EXPECT_NE(NULL, strstr(res.out, self->s.file)) TH_LOG("info %s", args[i]);
		EXPECT_STREQ("", res.err);
		run_result_free(&res);
	}
}

TEST_F(inventory, info_json_has_device_and_host)
{
	json_object *root, *dev, *sigs;
	struct run_result res;
	struct utsname u;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&res, "info", "-o", "json", self->s.dev, NULL));
	ASSERT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	root = json_tokener_parse(res.out);
	ASSERT_NE(NULL, root) TH_LOG("not JSON: %s", res.out);

	dev = member(root, "device");
	EXPECT_TRUE(json_object_is_type(dev, json_type_object));
	EXPECT_TRUE(json_object_is_type(member(root, "host"), json_type_object));
	EXPECT_STREQ(self->name, json_str(dev, "name") ?: "(none)");
	EXPECT_STREQ("loop", json_str(dev, "kind") ?: "(none)");
	EXPECT_EQ(self->file_size, json_int(dev, "size", -1));
	EXPECT_STREQ(self->s.file, json_str(dev, "loop.backing_file") ?: "(none)");
	/* Blank: probed, and nothing found. */
	sigs = member(dev, "signatures");
	ASSERT_TRUE(json_object_is_type(sigs, json_type_array)) TH_LOG("stdout: %s", res.out);
	EXPECT_EQ((size_t)0, json_object_array_length(sigs));
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.release, json_str(root, "host.kernel") ?: "(none)");
	json_object_put(root);
	run_result_free(&res);
}

TEST_F(inventory, info_lists_xfs_signature)
{
	json_object *root, *sig;
	struct run_result res;
	char want[128];

	PREP_READY(&self->p);
	if (need_program("mkfs.xfs"))
		SKIP(return, "%s", need_program("mkfs.xfs"));
	ASSERT_EQ(0, run_quiet("mkfs.xfs -f -q -K -m uuid=%s %s", XFS_UUID, self->s.dev));

	ASSERT_EQ(0, run_blkqual(&res, "info", "-o", "json", self->s.dev, NULL));
	ASSERT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	root = json_tokener_parse(res.out);
	ASSERT_NE(NULL, root) TH_LOG("not JSON: %s", res.out);
	sig = json_find_by(member(member(root, "device"), "signatures"), "type", "xfs");
	EXPECT_NE(NULL, sig) TH_LOG("no xfs in: %s", res.out);
	if (sig) {
		EXPECT_STREQ("filesystem", json_str(sig, "usage") ?: "(none)");
		EXPECT_STREQ(XFS_UUID, json_str(sig, "uuid") ?: "(none)");
	}
	json_object_put(root);
	run_result_free(&res);

	ASSERT_EQ(0, run_blkqual(&res, "info", self->s.dev, NULL));
	ASSERT_EQ(0, res.status) TH_LOG("stderr: %s", res.err);
	snprintf(want, sizeof(want), "UUID %s", XFS_UUID);
	EXPECT_NE(NULL, strstr(res.out, "\n  xfs ")) TH_LOG("stdout: %s", res.out);
	EXPECT_NE(NULL, strstr(res.out, want)) TH_LOG("stdout: %s", res.out);
	run_result_free(&res);
}

/* Inventory only reads: our device is unchanged after every command. */
TEST_F_TIMEOUT(inventory, list_and_info_only_read, 120)
{
	static const char *const cmds[][4] = {
		{ "list" }, { "list", "-o", "json" }, { "info" }, { "info", "-o", "json" },
	};
	uint64_t before, after;
	struct run_result res;

	PREP_READY(&self->p);
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		const char *argv[6] = { blkqual_path() };
		int n = 1;

		for (int j = 0; j < 4 && cmds[i][j]; j++)
			argv[n++] = cmds[i][j];
		if (!strcmp(cmds[i][0], "info"))
			argv[n++] = self->s.dev;
		ASSERT_EQ(0, run_argv(argv, &res));
		EXPECT_EQ(0, res.status) TH_LOG("%s: %s", cmds[i][0], res.err);
		run_result_free(&res);
	}
	ASSERT_EQ(0, checksum_path(self->s.dev, &after));
	EXPECT_EQ(before, after) TH_LOG("%s changed while only list and info ran", self->s.dev);
}

TEST_HARNESS_MAIN
