// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_faults_test.c - blkqual run when a real device goes away (VM
 * guest): a null_blk device made through configfs is powered off, and a
 * SCSI disk of a scsi_debug host added for the test is deleted, in the
 * middle of a run.  The run must end within two seconds, report what it
 * measured with the failures grouped (offsets and errno), write --output
 * and exit 1, with and without continue_on_error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "helpers/attr.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/spawn.h"

#define NULLB_CFS	"/sys/kernel/config/nullb"
#define NULLB_NAME	"bqfaults"
#define NULLB_DEV	"/dev/" NULLB_NAME

#define NEED_GUEST() do { \
	if (access(NULLB_CFS, W_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

static int nullb_attr(const char *attr, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), NULLB_CFS "/" NULLB_NAME "/%s", attr);
	return attr_write(path, "%s", value);
}

FIXTURE(nullb)
{
	bool made;
};

FIXTURE_SETUP(nullb)
{
	self->made = false;
}

FIXTURE_TEARDOWN(nullb)
{
	if (!self->made)
		return;
	nullb_attr("power", "0");
	rmdir(NULLB_CFS "/" NULLB_NAME);
}

/* A fresh 1 GiB null_blk device, powered on, its node present. */
static int nullb_up(void)
{
	int ret;

	ret = nullb_attr("size", "1024");
	ret = ret ?: nullb_attr("blocksize", "512");
	ret = ret ?: nullb_attr("queue_mode", "2");
	ret = ret ?: nullb_attr("power", "1");
	if (ret)
		return ret;
	/* devtmpfs makes the node asynchronously. */
	for (int t = 0; t < 100 && access(NULLB_DEV, F_OK); t++)
		usleep(20000);
	return access(NULLB_DEV, F_OK) ? -errno : 0;
}

/**
 * wait_reads() - wait until a device has completed @min reads
 * @name: its kernel name
 * @min: reads to wait for
 * @ms: how long at most
 *
 * The run must be well under way before the device goes: a fixed sleep
 * is not enough when the guest is slow (software emulation on a busy
 * host, a sanitizer build).
 */
static void wait_reads(const char *name, unsigned long long min, int ms)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	for (int t = 0; t < ms / 20; t++) {
		unsigned long long reads = 0;
		FILE *f = fopen(path, "re");

		if (f) {
			if (fscanf(f, "%llu", &reads) != 1)
				reads = 0;
			fclose(f);
		}
		if (reads >= min)
			return;
		usleep(20000);
	}
}

/*
 * Powered off mid-run (del_gendisk: the size drops to 0 and I/O fails):
 * the run ends within 2 s, keeps what it measured and names the device.
 */
TEST_F(nullb, power_off_ends_the_run)
{
	for (int coe = 0; coe < 2; coe++) {
		const char *out = "/tmp/faults.json", *log = "/tmp/faults.log";
		const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
				       "--output=/tmp/faults.json", "--filename=" NULLB_DEV,
				       "--rw=randread", "--bs=4k", "--iodepth=16", "--direct=1",
				       "--runtime=20", "--time_based", "--name=gone",
				       coe ? "--continue_on_error=1" : "--continue_on_error=0",
				       NULL };
		json_object *root, *job, *groups;
		long long took;
		int status = 0;
		char *text;
		pid_t pid;

		NEED_GUEST();
		ASSERT_EQ(0, mkdir(NULLB_CFS "/" NULLB_NAME, 0755)) TH_LOG("%s", strerror(errno));
		self->made = true;
		ASSERT_EQ(0, nullb_up());
		unlink(out);
		pid = spawn_logged(argv, log);
		ASSERT_LT(0, pid);
		usleep(200000);
		wait_reads(NULLB_NAME, 4000, 10000);
		ASSERT_EQ(0, nullb_attr("power", "0"));
		took = wait_exit_or_kill_ms(pid, 10000, &status);
		text = slurp(log);
		TH_LOG("continue_on_error=%d: run ended %lld ms after power off; stderr: %.300s",
		       coe, took, text ? text : "");
		free(text);
		ASSERT_LE(0, took);
		EXPECT_GE(2000, took);
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(1, WEXITSTATUS(status));
		text = slurp(out);
		ASSERT_NE(NULL, text) TH_LOG("no --output");
		root = json_tokener_parse(text);
		free(text);
		ASSERT_NE(NULL, root);
		job = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
		EXPECT_LT(1000, json_int(job, "total.read.ios", 0));
		groups = json_object_object_get(job, "error_groups");
		TH_LOG("error groups: %s", json_object_to_json_string(groups));
		TH_LOG("target_gone: %s", json_object_to_json_string(
			json_object_object_get(root, "target_gone")));
		/* Failed reads, if the power-off caught any in flight, are one kind per errno. */
		for (size_t i = 0; i < json_object_array_length(groups); i++) {
			json_object *g = json_object_array_get_idx(groups, i);

			EXPECT_STREQ("read", json_str(g, "direction"));
			EXPECT_STREQ(NULLB_DEV, json_str(g, "target"));
			EXPECT_LE(json_int(g, "min_offset", -1), json_int(g, "max_offset", -2));
		}
		EXPECT_GE(2, (int)json_object_array_length(groups));
		json_object_put(root);
		unlink(out);
		unlink(log);
		rmdir(NULLB_CFS "/" NULLB_NAME);
		self->made = false;
	}
}

#define SDEBUG "/sys/bus/pseudo/drivers/scsi_debug"

FIXTURE(sdebug)
{
	bool added;
	char disk[32];			/* sdX of the added host's first LUN */
};

FIXTURE_SETUP(sdebug)
{
	self->added = false;
	self->disk[0] = '\0';
}

FIXTURE_TEARDOWN(sdebug)
{
	/* -1 removes the host added last, with whatever LUNs it has left. */
	if (self->added)
		attr_write(SDEBUG "/add_host", "-1");
}

/* Whole disks named sd*, as a string of "name " entries. */
static void sd_disks(char *buf, size_t len)
{
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	buf[0] = '\0';
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "sd", 2) && strlen(buf) + strlen(de->d_name) + 2 < len) {
			strcat(buf, de->d_name);
			strcat(buf, " ");
		}
	if (d)
		closedir(d);
}

/*
 * A SCSI disk deleted under a run (echo 1 > device/delete, as a hot
 * unplug does): the run ends within 2 s and says the device went.  The
 * disk belongs to a scsi_debug host added here, not to the LUNs the
 * other guest tests use.
 */
TEST_F(sdebug, deleted_scsi_disk_ends_the_run)
{
	const char *out = "/tmp/sdfaults.json", *log = "/tmp/sdfaults.log";
	char before[512], after[512], opt[64], del[96], *p;
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       "--output=/tmp/sdfaults.json", opt, "--rw=randread", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=20", "--time_based",
			       "--continue_on_error=1", "--name=sdgone", NULL };
	long long took;
	json_object *root;
	int status = 0;
	char *text;
	pid_t pid;

	if (access(SDEBUG "/add_host", W_OK))
		SKIP(return, "not in the blkqual VM; run 'make check-vm'");
	sd_disks(before, sizeof(before));
	ASSERT_EQ(0, attr_write(SDEBUG "/add_host", "1"));
	self->added = true;
	/* The new host's disks appear asynchronously: take the first new one. */
	for (int t = 0; t < 200 && !self->disk[0]; t++) {
		usleep(20000);
		sd_disks(after, sizeof(after));
		for (p = strtok(after, " "); p; p = strtok(NULL, " ")) {
			char want[40];

			snprintf(want, sizeof(want), "%s ", p);
			if (!strstr(before, want)) {
				snprintf(self->disk, sizeof(self->disk), "%s", p);
				break;
			}
		}
	}
	ASSERT_NE(0, self->disk[0]) TH_LOG("no new sd disk after add_host");
	snprintf(opt, sizeof(opt), "--filename=/dev/%s", self->disk);
	for (int t = 0; t < 100 && access(opt + 11, F_OK); t++)
		usleep(20000);
	unlink(out);
	pid = spawn_logged(argv, log);
	ASSERT_LT(0, pid);
	usleep(200000);
	wait_reads(self->disk, 400, 10000);
	snprintf(del, sizeof(del), "/sys/block/%s/device/delete", self->disk);
	ASSERT_EQ(0, attr_write(del, "1"));
	took = wait_exit_or_kill_ms(pid, 10000, &status);
	text = slurp(log);
	TH_LOG("/dev/%s deleted: run ended %lld ms later; stderr: %.300s", self->disk, took,
	       text ? text : "");
	free(text);
	ASSERT_LE(0, took);
	EXPECT_GE(2000, took);
	EXPECT_EQ(1, WEXITSTATUS(status));
	text = slurp(out);
	ASSERT_NE(NULL, text) TH_LOG("no --output");
	root = json_tokener_parse(text);
	free(text);
	ASSERT_NE(NULL, root);
	TH_LOG("error groups: %s", json_object_to_json_string(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(root, "jobs"), 0),
		"error_groups")));
	EXPECT_LT(100, json_int(json_object_array_get_idx(json_object_object_get(root, "jobs"), 0),
				"total.read.ios", 0));
	json_object_put(root);
	unlink(out);
	unlink(log);
}

TEST_HARNESS_MAIN
