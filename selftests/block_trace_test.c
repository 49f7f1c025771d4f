// SPDX-License-Identifier: GPL-2.0-only
/*
 * block_trace_test.c - run --trace=block: the block layer's own view of a
 * job, checked against the kernel's counters and the job's latency
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/blkpg.h>
#include <linux/loop.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/spawn.h"

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* The first device of the block_trace of @o (a job, or blkqual trace's document). */
static json_object *traced_dev0(json_object *o)
{
	return json_object_array_get_idx(json_object_object_get(json_object_object_get(o,
		"block_trace"), "devices"), 0);
}

/*
 * Why this machine cannot trace @dev, or NULL: a skip needs a reason.
 * blkqual itself is asked (blkqual trace, a moment long), so a machine
 * without BTF, BPF privileges or libbpf at build time skips with the
 * line the user would read; anything else is a failure, not a skip.
 */
static const char *cannot_trace(const char *dev)
{
	static char why[512];
	struct run_result r;

	if (run_blkqual(&r, "trace", "-t", "0.05", "-o", "json", dev, NULL))
		return "cannot run blkqual";
	why[0] = '\0';
	if (r.status == 1)
		snprintf(why, sizeof(why), "%s", r.err ? r.err : "blkqual trace: exit 1");
	run_result_free(&r);
	why[strcspn(why, "\n")] = '\0';
	return why[0] ? why : NULL;
}

/* The skip, as every traced test begins. */
#define NEED_TRACE(dev) do { \
	const char *why_not = cannot_trace(dev); \
	if (why_not) \
		SKIP(return, "%s", why_not); \
} while (0)

SCRATCH_DEV_FIXTURE(SCRATCH_SIZE)

/*
 * With nomerges=2 each I/O is one request: the requests traced per
 * direction are the job's I/Os and the device's own count; the device
 * stage never takes longer on average than the tester's whole latency,
 * nor do both stages together.
 */
TEST_F(dev, requests_traced_are_the_devices_and_the_jobs)
{
	const char *args[] = { self->opt, "--name=tr", "--rw=randrw", "--bs=4k", "--iodepth=8",
			       "--direct=1", "--size=32m", "--trace=block", NULL };
	static const char *const dirs[] = { "read", "write" };
	json_object *root, *j, *t, *dev;
	struct run_result r;
	char key[96];

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	j = job0(root);
	t = json_object_array_get_idx(json_object_object_get(j, "targets"), 0);
	dev = traced_dev0(j);
	ASSERT_NE(NULL, dev);
	EXPECT_STREQ(strrchr(self->s.dev, '/') + 1, json_str(dev, "device"));
	for (int d = 0; d < 2; d++) {
		long long ios, disk, traced;
		double tester, queue, device;

		snprintf(key, sizeof(key), "total.%s.ios", dirs[d]);
		ios = json_int(j, key, -1);
		snprintf(key, sizeof(key), "disk_stats.%s_ios", dirs[d]);
		disk = json_int(t, key, -2);
		snprintf(key, sizeof(key), "requests.%s", dirs[d]);
		traced = json_int(dev, key, -3);
		snprintf(key, sizeof(key), "total.%s.lat_ns.mean", dirs[d]);
		tester = json_dbl(j, key, 0);
		snprintf(key, sizeof(key), "stages.%s.queue.mean", dirs[d]);
		queue = json_dbl(dev, key, -1);
		snprintf(key, sizeof(key), "stages.%s.device.mean", dirs[d]);
		device = json_dbl(dev, key, -1);
		TH_LOG("%s: %lld I/Os, the device %lld, traced %lld; tester %.1f us, queued %.1f us, "
		       "device %.1f us", dirs[d], ios, disk, traced, tester / 1e3, queue / 1e3,
		       device / 1e3);
		EXPECT_LT(0, ios);
		EXPECT_EQ(ios, traced);
		EXPECT_EQ(disk, traced);
		EXPECT_LT(0, device);
		EXPECT_LE(0, queue);
		EXPECT_LE(device, tester);
		EXPECT_LE(queue + device, tester);
	}
	EXPECT_EQ(0, json_int(dev, "untracked", -1));
	EXPECT_EQ(0, json_int(dev, "splits", -1));
	/* Every completion is somewhere in the map, on one node here or more. */
	EXPECT_EQ(json_int(j, "total.read.ios", 0) + json_int(j, "total.write.ios", 0),
		  json_int(j, "block_trace.completions.total", -1));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * A partition's requests are queued on its disk: a job on loopNp1 is
 * traced on loopN, and the requests still equal the job's reads.
 */
TEST_F(dev, a_partition_is_traced_on_its_disk)
{
	struct blkpg_partition bp = { .start = 1 << 20, .length = 64 << 20, .pno = 1 };
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION, .datalen = sizeof(bp), .data = &bp,
	};
	char part[80], opt[96];
	const char *args[] = { opt, "--name=pt", "--rw=randread", "--bs=4k", "--iodepth=4",
			       "--direct=1", "--size=8m", "--trace=block", NULL };
	struct loop_info64 li;
	struct run_result r;
	json_object *root, *j, *dev;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	ASSERT_EQ(0, ioctl(self->s.hold_fd, LOOP_GET_STATUS64, &li));
	li.lo_flags |= LO_FLAGS_PARTSCAN;
	ASSERT_EQ(0, ioctl(self->s.hold_fd, LOOP_SET_STATUS64, &li));
	ASSERT_EQ(0, ioctl(self->s.hold_fd, BLKPG, &arg));
	snprintf(part, sizeof(part), "%sp1", self->s.dev);
	for (int i = 0; i < 100 && access(part, F_OK); i++)
		sleep_ms(20);
	ASSERT_EQ(0, access(part, F_OK));
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	snprintf(opt, sizeof(opt), "--filename=%s", part);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	j = job0(root);
	dev = traced_dev0(j);
	EXPECT_STREQ(strrchr(self->s.dev, '/') + 1, json_str(dev, "device"));
	EXPECT_EQ(2048, json_int(j, "total.read.ios", -1));
	EXPECT_EQ(2048, json_int(dev, "requests.read", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* Two jobs on two devices at once: each reports its own device, not the other's. */
TEST_F(dev, each_job_reports_its_own_devices)
{
	char job[512], jobfile[320];
	const char *args[] = { jobfile, "--trace=block", NULL };
	struct scratch other;
	struct run_result r;
	json_object *root;
	FILE *f;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	ASSERT_EQ(0, scratch_make(&other, 64 << 20));
	ASSERT_EQ(0, scratch_attach(&other)) {
		scratch_destroy(&other);
	}
	snprintf(jobfile, sizeof(jobfile), "%s/two.fio", self->s.dir);
	snprintf(job, sizeof(job), "[global]\nrw=randread\nbs=4k\ndirect=1\nsize=4m\n"
		 "[a]\nfilename=%s\n[b]\nfilename=%s\n", self->s.dev, other.dev);
	f = fopen(jobfile, "w");
	ASSERT_NE(NULL, f);
	fputs(job, f);
	fclose(f);
	root = blkqual_run_json(&r, args);
	scratch_destroy(&other);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	for (int k = 0; k < 2; k++) {
		json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), k);
		json_object *devs = json_object_object_get(json_object_object_get(j,
			"block_trace"), "devices");

		EXPECT_EQ(1, (int)json_object_array_length(devs));
		EXPECT_STREQ(strrchr(k ? other.dev : self->s.dev, '/') + 1,
			     json_str(traced_dev0(j), "device"));
		EXPECT_EQ(1024, json_int(traced_dev0(j), "requests.read", -1));
	}
	json_object_put(root);
	run_result_free(&r);
}

/* 4 KiB writes to consecutive blocks, merges allowed: the device counts fewer requests. */
TEST_F(dev, merges_are_counted_and_requests_still_match)
{
	const char *args[] = { self->opt, "--name=mg", "--rw=write", "--bs=4k", "--iodepth=32",
			       "--direct=1", "--size=16m", "--trace=block", NULL };
	json_object *root, *j, *t, *dev;
	struct run_result r;
	long long traced, disk, merges;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	j = job0(root);
	t = json_object_array_get_idx(json_object_object_get(j, "targets"), 0);
	dev = traced_dev0(j);
	traced = json_int(dev, "requests.write", -1);
	disk = json_int(t, "disk_stats.write_ios", -2);
	merges = json_int(dev, "merges", -1);
	TH_LOG("4096 writes: %lld requests traced, the device %lld, %lld merges (the device %lld)",
	       traced, disk, merges, json_int(t, "disk_stats.write_merges", -1));
	EXPECT_EQ(disk, traced);
	EXPECT_EQ(4096, traced + merges);
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, text_report_says_where_the_time_went)
{
	struct run_result r;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "run", self->opt, "--name=txt", "--rw=randread",
				 "--bs=4k", "--direct=1", "--size=4m", "--trace=block",
				 "--no-status", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "where the time went"));
	EXPECT_NE(NULL, strstr(r.out, "device   mean="));
	EXPECT_NE(NULL, strstr(r.out, "on the submitting CPU"));
	run_result_free(&r);
}

/* Reads the device has completed (/sys/block/NAME/stat, field 1). */
static long long device_reads(const char *dev)
{
	char path[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", strrchr(dev, '/') + 1);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/*
 * blkqual trace follows a device while another process uses it, and
 * issues nothing itself: it counts what the device's own counter counted
 * over the other run (the job's 4096 reads, and the few its set-up and
 * report read to describe the device).
 */
TEST_F(dev, trace_counts_another_processs_requests)
{
	const char *job[] = { self->opt, "--name=other", "--rw=randread", "--bs=4k",
			      "--iodepth=4", "--direct=1", "--size=16m", NULL };
	/* Ended by SIGINT once the job is done: no window to guess. */
	const char *argv[] = { blkqual_path(), "trace", "-t", "120", "-o", "json", self->s.dev,
			       NULL };
	json_object *root, *dev, *doc;
	char log[320], *text;
	long long before, after;
	struct run_result r;
	int status = -1;
	pid_t pid;
	bool ok;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	snprintf(log, sizeof(log), "%s/trace.json", self->s.dir);
	pid = spawn_logged(argv, log);
	ASSERT_LT(0, pid);
	ok = wait_log_ms(pid, log, "blkqual trace: tracing", 60000) >= 0;
	if (!ok)
		wait_exit_or_kill_ms(pid, 0, &status);
	ASSERT_TRUE(ok);
	before = device_reads(self->s.dev);
	root = blkqual_run_json(&r, job);
	after = device_reads(self->s.dev);
	kill(pid, SIGINT);
	ASSERT_LE(0, wait_exit_or_kill_ms(pid, 30000, &status));
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(4096, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	text = slurp(log);
	ASSERT_NE(NULL, text);
	doc = strchr(text, '{') ? json_tokener_parse(strchr(text, '{')) : NULL;
	free(text);
	ASSERT_NE(NULL, doc);
	EXPECT_STREQ("trace", json_str(doc, "command"));
	dev = traced_dev0(doc);
	TH_LOG("the job: 4096 reads; the device: %lld; traced: %lld", after - before,
	       json_int(dev, "requests.read", -1));
	EXPECT_LE(4096, after - before);
	EXPECT_EQ(after - before, json_int(dev, "requests.read", -1));
	EXPECT_EQ(0, json_int(dev, "requests.write", -1));
	EXPECT_LT(0, json_dbl(dev, "stages.read.device.mean", 0));
	/* No tester latency to take the stages from. */
	EXPECT_EQ(NULL, json_object_object_get(json_object_object_get(json_object_object_get(dev,
		"stages"), "read"), "tester_remainder_mean_ns"));
	json_object_put(doc);
}

/*
 * compare shows the stages of traced runs beside its verdict: 32 reads in
 * flight on a loop device wait in its queue, so the device stage grows.
 */
TEST_F(dev, compare_shows_which_stage_moved)
{
	char base[320], cur[320], out_b[340], out_n[340];
	json_object *doc, *stages;
	struct run_result r;
	bool device_mean = false;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	snprintf(base, sizeof(base), "%s/base.json", self->s.dir);
	snprintf(cur, sizeof(cur), "%s/new.json", self->s.dir);
	snprintf(out_b, sizeof(out_b), "--output=%s", base);
	snprintf(out_n, sizeof(out_n), "--output=%s", cur);
	for (int side = 0; side < 2; side++) {
		ASSERT_EQ(0, run_blkqual(&r, "run", self->opt, "--name=j", "--rw=randread",
					 "--bs=4k", "--direct=1", side ? "--iodepth=32" : "--iodepth=1",
					 "--runtime=0.3", "--time_based", "--repeat=2", "--trace=block",
					 "-o", "json", side ? out_n : out_b, "--no-status", NULL));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--force", "-o", "json", base, cur, NULL));
	doc = json_tokener_parse(r.out);
	ASSERT_NE(NULL, doc) TH_LOG("%s", r.err);
	stages = json_object_object_get(doc, "block_stages");
	ASSERT_NE(NULL, stages);
	for (size_t i = 0; i < json_object_array_length(stages); i++) {
		json_object *s = json_object_array_get_idx(stages, i);

		if (strcmp(json_str(s, "stage"), "device") || strcmp(json_str(s, "figure"), "mean"))
			continue;
		device_mean = true;
		TH_LOG("device stage mean: %.1f us -> %.1f us", json_dbl(s, "base_ns", 0) / 1e3,
		       json_dbl(s, "new_ns", 0) / 1e3);
		EXPECT_LT(0.5, json_dbl(s, "change", 0));
	}
	EXPECT_TRUE(device_mean);
	json_object_put(doc);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--force", base, cur, NULL));
	EXPECT_NE(NULL, strstr(r.out, "block-layer stages"));
	EXPECT_NE(NULL, strstr(r.out, "the stage that moved most:"));
	run_result_free(&r);
}

/* blkqual report draws each traced device's stages, well-formed, with their table. */
TEST_F(dev, report_draws_the_stages)
{
	char json[320], html[320], out[340], helper[512], title[128], *text;
	const char *argv[] = { "python3", helper, html, NULL };
	struct run_result r;

	PREP_READY(&self->p);
	NEED_TRACE(self->s.dev);
	snprintf(json, sizeof(json), "%s/r.json", self->s.dir);
	snprintf(html, sizeof(html), "%s/r.html", self->s.dir);
	snprintf(out, sizeof(out), "--output=%s", json);
	ASSERT_EQ(0, run_blkqual(&r, "run", self->opt, "--name=j", "--rw=randrw", "--bs=4k",
				 "--direct=1", "--size=8m", "--trace=block", "-o", "json", out,
				 "--no-status", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "report", json, "-o", html, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	snprintf(helper, sizeof(helper), "%s/selftests/helpers/html_check.py", srctree_path());
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_NE(NULL, strstr(r.out, "wellformed")) TH_LOG("%s", r.out);
	for (int d = 0; d < 2; d++) {
		snprintf(title, sizeof(title), "\ntitle Where the time went: %s %s\n",
			 strrchr(self->s.dev, '/') + 1, d ? "write" : "read");
		EXPECT_NE(NULL, strstr(r.out, title)) TH_LOG("%s", r.out);
	}
	run_result_free(&r);
	text = slurp(html);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "The stages at each percentile"));
	EXPECT_NE(NULL, strstr(text, "Where completions ran"));
	free(text);
}

/* Without the privilege: one line, exit 1, and the target is not read at all. */
TEST(unprivileged_is_refused_before_any_io)
{
	char dir[] = "/tmp/blkqual-trace.XXXXXX", file[96], opt[128];
	const char *argv[16];
	struct run_result r;
	FILE *f;
	int n = 0;

	if (geteuid())
		SKIP(return, "needs root, to run blkqual as nobody");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, chmod(dir, 0755));
	snprintf(file, sizeof(file), "%s/data", dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	for (int i = 0; i < 512; i++)
		fputc('x', f);
	fclose(f);
	ASSERT_EQ(0, chmod(file, 0644));
	snprintf(opt, sizeof(opt), "--filename=%s", file);
	argv[n++] = "setpriv";
	argv[n++] = "--reuid=65534";
	argv[n++] = "--regid=65534";
	argv[n++] = "--clear-groups";
	argv[n++] = blkqual_path();
	argv[n++] = "run";
	argv[n++] = opt;
	argv[n++] = "--name=np";
	argv[n++] = "--rw=read";
	argv[n++] = "--bs=512";
	argv[n++] = "--size=512";
	argv[n++] = "--trace=block";
	argv[n] = NULL;
	ASSERT_EQ(0, run_argv(argv, &r));
	unlink(file);
	rmdir(dir);
	TH_LOG("%s", r.err);
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	/* Root's refusal, or what the build or the machine lacks: the environment's. */
	EXPECT_NE(NULL, strstr(r.err, "blkqual: run: --trace=block: "));
	EXPECT_EQ(NULL, strstr(r.out, "IOPS"));
	run_result_free(&r);
}

TEST(trace_command_bad_input)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "trace", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "missing device"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "trace", "-t", "soon", "/dev/null", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "-t soon: not a duration"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "trace", "-t", "1", "/dev/no-such-device", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
}

TEST(bad_trace_name_is_bad_input)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "run", "--filename=/dev/null", "--name=x", "--rw=read",
				 "--trace=blk", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "--trace=blk: the one trace is 'block'"));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
