// SPDX-License-Identifier: GPL-2.0-only
/*
 * inventory_test.c - list and info against captured machines
 *
 * Each fixture under selftests/fixtures/inventory/ is the sysfs, procfs and
 * /dev of a machine we cannot plug in here.  blkqual runs from inside the
 * fixture with relative roots, so its output names no checkout path and is
 * compared byte for byte with the golden files beside the tree.  Run with
 * BLKQUAL_UPDATE_GOLDEN=1 to rewrite the goldens after a deliberate change,
 * then review the diff.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/run.h"

FIXTURE(machine)
{
	char dir[PATH_MAX];
	char blkqual[PATH_MAX];
};

FIXTURE_VARIANT(machine)
{
	const char *name;
	const char *info_dev;	/* the device whose info output is kept */
};

FIXTURE_VARIANT_ADD(machine, two_socket_nvme)
{
	.name = "two-socket-nvme",
	.info_dev = "nvme2n1",
};

FIXTURE_VARIANT_ADD(machine, ssd910)
{
	.name = "ssd910",
	.info_dev = "sdc",
};

FIXTURE_VARIANT_ADD(machine, virtio_vm)
{
	.name = "virtio-vm",
	.info_dev = "vdb",
};

FIXTURE_VARIANT_ADD(machine, md_raid0)
{
	.name = "md-raid0",
	.info_dev = "md0",
};

FIXTURE_SETUP(machine)
{
	ASSERT_NE(NULL, realpath(blkqual_path(), self->blkqual))
		TH_LOG("blkqual binary %s not found; set BLKQUAL", blkqual_path());
	snprintf(self->dir, sizeof(self->dir), "%s/selftests/fixtures/inventory/%s",
		 srctree_path(), variant->name);
	ASSERT_EQ(0, chdir(self->dir)) TH_LOG("no fixture %s", self->dir);
}

FIXTURE_TEARDOWN(machine)
{
}

/* Run blkqual inside the fixture with its roots; up to three extra args. */
static int run_fixture(const char *blkqual, struct run_result *r, const char *a1,
		       const char *a2, const char *a3)
{
	const char *argv[12] = {
		blkqual, a1, "--sysfs-root", "sys", "--proc-root", "proc", "--dev-root", "dev",
	};
	int n = 8;

	if (a2)
		argv[n++] = a2;
	if (a3)
		argv[n++] = a3;
	argv[n] = NULL;
	return run_argv(argv, r);
}

static bool matches_golden(const char *golden, const char *out)
{
	const char *update = getenv("BLKQUAL_UPDATE_GOLDEN");
	char *want;
	bool same;

	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(golden, "w");

		if (!f)
			return false;
		fputs(out, f);
		return !fclose(f);
	}
	want = slurp(golden);
	same = want && !strcmp(want, out);
	free(want);
	return same;
}

static void show_diff(const char *golden, const char *out)
{
	char cmd[PATH_MAX + 64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "diff -u '%s' - | head -40 | sed 's/^/# /' >&2", golden);
	p = popen(cmd, "w");
	if (p) {
		fputs(out, p);
		pclose(p);
	}
}

#define EXPECT_GOLDEN(golden, out) do { \
	if (!matches_golden(golden, out)) { \
		show_diff(golden, out); \
		EXPECT_TRUE(false) TH_LOG("%s/%s differs (see diff above)", self->dir, golden); \
	} \
} while (0)

TEST_F(machine, list_table)
{
	struct run_result r;

	ASSERT_EQ(0, run_fixture(self->blkqual, &r, "list", NULL, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_STREQ("", r.err);
	EXPECT_GOLDEN("golden/list.txt", r.out);
	run_result_free(&r);
}

TEST_F(machine, list_json)
{
	struct run_result r;
	json_object *root;

	ASSERT_EQ(0, run_fixture(self->blkqual, &r, "list", "-o", "json"));
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("list -o json is not valid JSON");
	json_object_put(root);
	EXPECT_GOLDEN("golden/list.json", r.out);
	run_result_free(&r);
}

TEST_F(machine, info_table)
{
	char golden[128];
	struct run_result r;

	snprintf(golden, sizeof(golden), "golden/info-%s.txt", variant->info_dev);
	ASSERT_EQ(0, run_fixture(self->blkqual, &r, "info", variant->info_dev, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_GOLDEN(golden, r.out);
	run_result_free(&r);
}

TEST_F(machine, info_json)
{
	char golden[128], devpath[64];
	struct run_result r;
	json_object *root;

	/* Named as /dev/X this time: the captured tree maps it to X. */
	snprintf(golden, sizeof(golden), "golden/info-%s.json", variant->info_dev);
	snprintf(devpath, sizeof(devpath), "/dev/%s", variant->info_dev);
	ASSERT_EQ(0, run_fixture(self->blkqual, &r, "info", "--output=json", devpath));
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	json_object_put(root);
	EXPECT_GOLDEN(golden, r.out);
	run_result_free(&r);
}

/*
 * What a tester must be able to rely on, stated directly rather than only
 * through the goldens: a golden can be regenerated wrongly, these cannot.
 */
static struct bq_ctx *open_fixture(struct __test_metadata *_metadata, const char *name,
				   struct bq_devlist *list)
{
	char sys[PATH_MAX], proc[PATH_MAX], dev[PATH_MAX];
	struct bq_roots roots = { .sysfs = sys, .proc = proc, .dev = dev };
	struct bq_ctx *ctx;

	snprintf(sys, sizeof(sys), "%s/selftests/fixtures/inventory/%s/sys", srctree_path(), name);
	snprintf(proc, sizeof(proc), "%s/selftests/fixtures/inventory/%s/proc", srctree_path(),
		 name);
	snprintf(dev, sizeof(dev), "%s/selftests/fixtures/inventory/%s/dev", srctree_path(), name);
	if (bq_ctx_new(&ctx, &roots))
		return NULL;
	if (bq_devices_scan(ctx, list)) {
		bq_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

static const struct bq_device *find(const struct bq_devlist *list, const char *name)
{
	for (size_t i = 0; i < list->nr; i++)
		if (!strcmp(list->devs[i].name, name))
			return &list->devs[i];
	return NULL;
}

TEST(two_socket_nvme_numa_and_polling)
{
	static const int want_node[] = { 0, 0, 1, 1 };
	struct bq_devlist list;
	struct bq_host host;
	struct bq_ctx *ctx = open_fixture(_metadata, "two-socket-nvme", &list);

	ASSERT_NE(NULL, ctx);
	for (int i = 0; i < 4; i++) {
		char name[16];
		const struct bq_device *d;

		snprintf(name, sizeof(name), "nvme%dn1", i);
		d = find(&list, name);
		ASSERT_NE(NULL, d) TH_LOG("%s missing", name);
		EXPECT_EQ(BQ_DEV_NVME, d->kind);
		EXPECT_EQ(want_node[i], d->numa_node) TH_LOG("%s", name);
		EXPECT_EQ(4, d->nvme.poll_queues);
		/* Only the controller reset after poll_queues was set can poll. */
		EXPECT_EQ(i == 2, d->q.io_poll) TH_LOG("%s io_poll", name);
	}
	/* The OS disk is in use through its partitions: mounts and swap. */
	EXPECT_TRUE(bq_device_in_use(find(&list, "nvme0n1")));
	EXPECT_FALSE(bq_device_in_use(find(&list, "nvme1n1")));
	EXPECT_TRUE(find(&list, "nvme0n1")->parts[2].swap);
	ASSERT_EQ(0, bq_host_scan(ctx, &host));
	EXPECT_EQ(2, host.sockets);
	EXPECT_EQ(32, host.threads);
	ASSERT_EQ(2, host.nr_nodes);
	EXPECT_EQ(16, host.nodes[1].nr_cpus);
	EXPECT_STREQ("8-15,24-31", host.nodes[1].cpulist);
	bq_host_release(&host);
	bq_devlist_free(&list);
	bq_ctx_free(ctx);
}

TEST(ssd910_is_one_card_with_four_luns)
{
	struct bq_adapter *a;
	struct bq_devlist list;
	struct bq_ctx *ctx = open_fixture(_metadata, "ssd910", &list);
	size_t nr, found = 0;

	ASSERT_NE(NULL, ctx);
	ASSERT_EQ(0, bq_adapters_group(&list, &a, &nr));
	for (size_t i = 0; i < nr; i++) {
		if (strcmp(a[i].model, "INTEL(R) SSD 910 200GB"))
			continue;
		found++;
		EXPECT_EQ(BQ_DEV_SCSI, a[i].kind);
		EXPECT_STREQ("host0", a[i].name);
		EXPECT_STREQ("mpt2sas", a[i].driver);
		EXPECT_STREQ("0000:04:00.0", a[i].address);
		ASSERT_EQ(4, a[i].devices.n);
		EXPECT_STREQ("sdb", a[i].devices.v[0]);
		EXPECT_STREQ("sde", a[i].devices.v[3]);
		EXPECT_EQ(4 * 200049647616ULL, a[i].size);
	}
	EXPECT_EQ(1, found);
	EXPECT_STREQ("0:0:3:0", find(&list, "sde")->scsi.hctl);
	EXPECT_TRUE(find(&list, "zram0")->swap);
	bq_adapters_free(a, nr);
	bq_devlist_free(&list);
	bq_ctx_free(ctx);
}

TEST(virtio_root_mounted_as_dev_root)
{
	struct bq_devlist list;
	struct bq_ctx *ctx = open_fixture(_metadata, "virtio-vm", &list);

	ASSERT_NE(NULL, ctx);
	/* mountinfo says /dev/root: only the device number ties it to vda1. */
	EXPECT_TRUE(bq_device_in_use(find(&list, "vda")));
	EXPECT_FALSE(bq_device_in_use(find(&list, "vdb")));
	EXPECT_STREQ("scratch-01", find(&list, "vdb")->serial);
	EXPECT_EQ(-1, find(&list, "vdb")->numa_node);
	bq_devlist_free(&list);
	bq_ctx_free(ctx);
}

TEST(md_raid0_members_and_xfs)
{
	struct bq_devlist list;
	struct bq_ctx *ctx = open_fixture(_metadata, "md-raid0", &list);
	const struct bq_device *md;

	ASSERT_NE(NULL, ctx);
	md = find(&list, "md0");
	ASSERT_NE(NULL, md);
	EXPECT_EQ(BQ_DEV_MD, md->kind);
	EXPECT_STREQ("raid0", md->md.level);
	EXPECT_EQ(262144, md->md.chunk_size);
	EXPECT_EQ(4, md->slaves.n);
	EXPECT_EQ(1048576, md->q.optimal_io_size);
	EXPECT_EQ(0, md->numa_node);	/* where all its members are */
	ASSERT_EQ(1, md->nr_sigs);
	EXPECT_STREQ("xfs", md->sigs[0].type);
	EXPECT_STREQ("7d5e9a8c-3f51-4c2b-9a6e-2b1f0c4d8e71", md->sigs[0].uuid);
	EXPECT_STREQ("/data", md->mounts.v[0]);
	for (char c = 'b'; c <= 'e'; c++) {
		char name[8] = { 's', 'd', c };

		EXPECT_TRUE(bq_strv_contains(&find(&list, name)->holders, "md0")) TH_LOG("%s", name);
	}
	bq_devlist_free(&list);
	bq_ctx_free(ctx);
}

TEST_HARNESS_MAIN
