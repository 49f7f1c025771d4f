// SPDX-License-Identifier: GPL-2.0-only
/*
 * queue_options_test.c - fio's queueing and priority options: the refill
 * rules (iodepth_batch_submit, iodepth_low, iodepth_batch_complete_max,
 * serialize_overlap) change how the queue fills and not what is done, so
 * the counts equal fio 3.33's on the same job (null engine without root,
 * libaio and io_uring on a loop device with it), and the depth the
 * threads report shows each rule at work; prio= and prioclass= are read
 * back from the kernel with ioprio_get() on the running worker threads,
 * and per-command priorities (cmdprio_percentage) are checked by the
 * kernel refusing real-time commands from a thread without the
 * capabilities for them: EPERM on exactly those I/Os.  cpumask and
 * cpus_allowed_policy are read back from /proc/PID/task/TID/status, and
 * numa_mem_policy from /proc/PID/numa_maps.  flow keeps two jobs' I/O in
 * the ratio of their weights, in blkqual as in fio.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/spawn.h"

#define QUEUE_DEV_SIZE (32LL << 20)

static json_object *bq_json(struct __test_metadata *_metadata, const char *const *args)
{
	struct run_result r;
	json_object *root = blkqual_run_json(&r, args);

	if (!root)
		TH_LOG("blkqual exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

static double mean_depth(json_object *root)
{
	json_object *jobs = json_object_object_get(root, "jobs");

	return json_dbl(json_object_array_get_idx(jobs, 0), "total.mean_depth", -1);
}

/* blkqual and fio did the same I/O: counts and bytes per direction. */
static void same_as_fio(struct __test_metadata *_metadata, json_object *bq, json_object *fio)
{
	json_object *b = json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0);
	json_object *f = json_object_array_get_idx(json_object_object_get(fio, "jobs"), 0);

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(fio_total_ios(fio, "read"), json_int(b, "total.read.ios", -2));
	EXPECT_EQ(fio_total_ios(fio, "write"), json_int(b, "total.write.ios", -2));
	EXPECT_EQ(json_int(f, "read.io_bytes", -1), json_int(b, "total.read.bytes", -2));
	EXPECT_EQ(json_int(f, "write.io_bytes", -1), json_int(b, "total.write.bytes", -2));
	TH_LOG("fio %lld/%lld blkqual %lld/%lld reads/writes, blkqual mean depth %.2f",
	       fio_total_ios(fio, "read"), fio_total_ios(fio, "write"),
	       json_int(b, "total.read.ios", -2), json_int(b, "total.write.ios", -2),
	       mean_depth(bq));
}

/* The same job through both, the options as command-line switches. */
static void both(struct __test_metadata *_metadata, const char *const *opts, json_object **bq,
		 json_object **fio)
{
	*bq = bq_json(_metadata, opts);
	ASSERT_NE(NULL, *bq);
	*fio = NULL;
	if (!have_fio())
		return;
	*fio = fio_run_json(opts);
	ASSERT_NE(NULL, *fio);
	same_as_fio(_metadata, *bq, *fio);
}

/* ---- the refill rules on the null engine: no device, no root ------------- */

#define NULL_JOB "--name=q", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=64m", \
	"--iodepth=32", "--io_size=16m"

/*
 * Reaping one completion at a time keeps the queue full; with
 * iodepth_low=4 it drains to 4 before each refill, so the depth seen
 * averages about (32 + 4) / 2.
 */
TEST(iodepth_low_drains_before_refill)
{
	const char *const full[] = { NULL_JOB, "--iodepth_batch_complete_max=1", NULL };
	const char *const low[] = { NULL_JOB, "--iodepth_batch_complete_max=1", "--iodepth_low=4",
				    NULL };
	json_object *bq, *fio;

	both(_metadata, full, &bq, &fio);
	EXPECT_GT(mean_depth(bq), 30.0) TH_LOG("full queue: %.2f", mean_depth(bq));
	json_object_put(bq);
	json_object_put(fio);
	both(_metadata, low, &bq, &fio);
	EXPECT_LT(mean_depth(bq), 20.0) TH_LOG("iodepth_low=4: %.2f", mean_depth(bq));
	EXPECT_GT(mean_depth(bq), 14.0) TH_LOG("iodepth_low=4: %.2f", mean_depth(bq));
	json_object_put(bq);
	json_object_put(fio);
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

/* Writes over two blocks: never more than two can be in flight at once. */
TEST(serialize_overlap_holds_overlapping_writes)
{
	const char *const plain[] = { "--name=q", "--ioengine=null", "--rw=randwrite", "--bs=4k",
				      "--size=8k", "--iodepth=16", "--io_size=1m", NULL };
	const char *const ser[] = { "--name=q", "--ioengine=null", "--rw=randwrite", "--bs=4k",
				    "--size=8k", "--iodepth=16", "--io_size=1m",
				    "--serialize_overlap=1", NULL };
	json_object *bq, *fio;

	both(_metadata, plain, &bq, &fio);
	EXPECT_GT(mean_depth(bq), 4.0) TH_LOG("without: %.2f", mean_depth(bq));
	json_object_put(bq);
	json_object_put(fio);
	both(_metadata, ser, &bq, &fio);
	EXPECT_LE(mean_depth(bq), 1.0) TH_LOG("serialize_overlap: %.2f", mean_depth(bq));
	json_object_put(bq);
	json_object_put(fio);
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

TEST(batch_submit_counts_as_fio)
{
	const char *const opts[] = { NULL_JOB, "--iodepth_batch_submit=4",
				     "--iodepth_batch_complete_max=8",
				     "--iodepth_batch_complete_min=2", "--io_submit_mode=inline",
				     NULL };
	json_object *bq, *fio;

	both(_metadata, opts, &bq, &fio);
	json_object_put(bq);
	json_object_put(fio);
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

/* ---- the same rules on a device, libaio and io_uring --------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[300];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, QUEUE_DEV_SIZE);
	if (prep_ok(&self->p))
		snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

static void device_rules(struct __test_metadata *_metadata, const char *filename,
			 const char *engine)
{
	const char *const opts[] = { "--name=q", filename, engine, "--direct=1", "--rw=randwrite",
				     "--bs=4k", "--size=1m", "--io_size=8m", "--iodepth=16",
				     "--iodepth_batch=4", "--iodepth_low=4",
				     "--iodepth_batch_complete_max=2", "--serialize_overlap=1",
				     "--randseed=7", NULL };
	json_object *bq, *fio;

	both(_metadata, opts, &bq, &fio);
	json_object_put(bq);
	json_object_put(fio);
}

TEST_F_TIMEOUT(dev, rules_on_libaio_and_io_uring, 60)
{
	PREP_READY(&self->p);
	device_rules(_metadata, self->filename, "--ioengine=libaio");
	device_rules(_metadata, self->filename, "--ioengine=io_uring");
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

/*
 * Per-command priorities: the same job through fio, half the writes
 * best effort at level 3 (cmdprio_class=R,W and cmdprio=R,W).
 */
static void device_cmdprio(struct __test_metadata *_metadata, const char *filename,
			   const char *engine)
{
	const char *const opts[] = { "--name=c", filename, engine, "--direct=1", "--rw=randwrite",
				     "--bs=4k", "--size=1m", "--io_size=4m", "--iodepth=8",
				     "--cmdprio_percentage=50", "--cmdprio_class=3,2",
				     "--cmdprio=0,3", NULL };
	json_object *bq, *fio;

	both(_metadata, opts, &bq, &fio);
	json_object_put(bq);
	json_object_put(fio);
}

/*
 * The kernel's verdict on each command's priority: without CAP_SYS_ADMIN
 * and CAP_SYS_NICE a real-time command fails with EPERM, so the failed
 * I/Os are exactly the ones given cmdprio_class=1.
 */
static json_object *cmdprio_without_caps(struct __test_metadata *_metadata,
					 const char *filename, const char *pct)
{
	const char *argv[] = { "setpriv", "--inh-caps=-sys_admin,-sys_nice",
			       "--bounding-set=-sys_admin,-sys_nice", blkqual_path(), "run",
			       "--no-status", "-o", "json", "--name=c", filename,
			       "--ioengine=io_uring", "--direct=1", "--rw=randread", "--bs=4k",
			       "--size=1m", "--io_size=1m", "--iodepth=8", "--cmdprio_class=1",
			       "--ignore_error=EPERM", pct, NULL };
	struct run_result r;
	json_object *root = NULL;

	if (!run_argv(argv, &r) && r.out)
		root = json_tokener_parse(r.out);
	if (!root)
		TH_LOG("%s: exit %d: %.300s", pct, r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

static long long read_errors(json_object *root)
{
	json_object *jobs = json_object_object_get(root, "jobs");

	return json_int(json_object_array_get_idx(jobs, 0), "total.read.errors", -1);
}

TEST_F_TIMEOUT(dev, cmdprio_reaches_each_command, 60)
{
	json_object *none, *half, *all;

	PREP_READY(&self->p);
	if (need_program("setpriv"))
		SKIP(return, "%s", need_program("setpriv"));
	none = cmdprio_without_caps(_metadata, self->filename, "--cmdprio_percentage=0");
	half = cmdprio_without_caps(_metadata, self->filename, "--cmdprio_percentage=50");
	all = cmdprio_without_caps(_metadata, self->filename, "--cmdprio_percentage=100");
	ASSERT_NE(NULL, none);
	ASSERT_NE(NULL, half);
	ASSERT_NE(NULL, all);
	EXPECT_EQ(0, read_errors(none));
	EXPECT_EQ(256, read_errors(all));
	/* 256 draws of one in two: 128, give or take 8 (one sigma) */
	EXPECT_GT(read_errors(half), 80);
	EXPECT_LT(read_errors(half), 176);
	TH_LOG("EPERM with cmdprio_percentage 0, 50, 100: %lld, %lld, %lld of 256",
	       read_errors(none), read_errors(half), read_errors(all));
	json_object_put(none);
	json_object_put(half);
	json_object_put(all);
	PREP_READY(&self->p);
	device_cmdprio(_metadata, self->filename, "--ioengine=libaio");
	device_cmdprio(_metadata, self->filename, "--ioengine=io_uring");
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

/* ---- prio and prioclass: the kernel's view of the worker threads ---------- */

#define IOPRIO_WHO_PROCESS 1

/* ioprio_get() of the first "bq:" worker thread of @pid; -1: none found. */
static int worker_ioprio(pid_t pid)
{
	char path[64], comm[64];
	struct dirent *de;
	int prio = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while (prio < 0 && (de = readdir(d))) {
		char cpath[320];
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/comm", pid, de->d_name);
		f = fopen(cpath, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "bq:", 3))
			prio = (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, atoi(de->d_name));
		fclose(f);
	}
	closedir(d);
	return prio;
}

/* Run a slow null job with @opt and read its worker's priority while it runs. */
static int running_ioprio(struct __test_metadata *_metadata, const char *opt, const char *opt2)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "--name=p",
			       "--ioengine=null", "--size=1m", "--time_based", "--runtime=3s",
			       "--rate_iops=500", opt, opt2, NULL };
	long long t0 = now_ms();
	int status, prio = -1;
	pid_t pid;

	pid = spawn_logged(argv, "/dev/null");
	if (pid < 0)
		return -2;
	while (prio < 0 && now_ms() - t0 < 2500) {
		sleep_ms(100);
		prio = worker_ioprio(pid);
	}
	kill(pid, SIGINT);
	wait_exit_ms(pid, 10000, &status);
	return prio;
}

TEST(prio_and_prioclass_reach_the_thread)
{
	/* prio alone is best effort (2) at that level, as in fio */
	EXPECT_EQ(2 << 13 | 5, running_ioprio(_metadata, "--prio=5", NULL));
	EXPECT_EQ(3 << 13 | 0, running_ioprio(_metadata, "--prioclass=3", NULL));
	EXPECT_EQ(2 << 13 | 1, running_ioprio(_metadata, "--prioclass=0", "--prio=1"));
	/* Without either, the thread keeps what it inherited: none. */
	EXPECT_EQ(0, running_ioprio(_metadata, "--iodepth=1", NULL));
}

/* ---- cpumask and cpus_allowed_policy: where the threads may run ---------- */

/*
 * Each worker thread's Cpus_allowed_list from /proc, in thread order
 * (bq:a.0, bq:a.1, ...), into @lists; the number found.
 */
static int worker_affinity(pid_t pid, char lists[][32], int max)
{
	char path[64], line[256];
	struct dirent *de;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char spath[320], comm[64] = "";
		int idx = -1;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(spath, sizeof(spath), "/proc/%d/task/%s/status", pid, de->d_name);
		f = fopen(spath, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "Name: %63s", comm) == 1 && sscanf(comm, "bq:a.%d", &idx) != 1)
				idx = -1;
			if (idx >= 0 && idx < max &&
			    sscanf(line, "Cpus_allowed_list: %31s", lists[idx]) == 1)
				found++;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* Three threads of job a over CPUs 0 and 1 (cpumask=0x3), then job b on CPU 1. */
static void run_policy(struct __test_metadata *_metadata, const char *policy,
		       char lists[3][32], json_object **root)
{
	char out[64], log[64];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", "--output",
			       out, "--ioengine=null", "--size=1m", "--time_based",
			       "--runtime=2s", "--rate_iops=200", "--name=a", "--numjobs=3",
			       "--cpumask=0x3", policy, "--name=b", "--cpus_allowed=1", policy,
			       NULL };
	long long t0 = now_ms();
	int status;
	pid_t pid;

	snprintf(out, sizeof(out), "/tmp/queue_test.%d.json", getpid());
	snprintf(log, sizeof(log), "/tmp/queue_test.%d.log", getpid());
	pid = spawn_logged(argv, log);
	ASSERT_LT(0, pid);
	while (worker_affinity(pid, lists, 3) < 3 && now_ms() - t0 < 1500)
		sleep_ms(100);
	wait_exit_ms(pid, 10000, &status);
	*root = json_object_from_file(out);
	unlink(out);
	unlink(log);
	ASSERT_NE(NULL, *root);
}

static long long thread_cpu(json_object *root, int job, int thread)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), job);
	json_object *t = json_object_array_get_idx(json_object_object_get(j, "threads"), thread);

	return json_int(t, "cpu", -2);
}

TEST(cpus_allowed_policy_split_and_shared)
{
	char lists[3][32] = { "", "", "" };
	json_object *root;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs CPUs 0 and 1 online");
	/* split: the run's thread N gets the mask's CPU N modulo its two */
	run_policy(_metadata, "--cpus_allowed_policy=split", lists, &root);
	EXPECT_STREQ("0", lists[0]);
	EXPECT_STREQ("1", lists[1]);
	EXPECT_STREQ("0", lists[2]);
	EXPECT_EQ(0, thread_cpu(root, 0, 0));
	EXPECT_EQ(1, thread_cpu(root, 0, 1));
	EXPECT_EQ(0, thread_cpu(root, 0, 2));
	/* b's thread is the run's fourth: CPU 3 modulo its list of one */
	EXPECT_EQ(1, thread_cpu(root, 1, 0));
	json_object_put(root);
	/* shared: every thread may run on the whole mask; no one CPU to report */
	memset(lists, 0, sizeof(lists));
	run_policy(_metadata, "--cpus_allowed_policy=shared", lists, &root);
	for (int i = 0; i < 3; i++) {
		EXPECT_STREQ("0-1", lists[i]) TH_LOG("thread %d", i);
		EXPECT_EQ(-1, thread_cpu(root, 0, i));
	}
	json_object_put(root);
}

TEST(cpumask_counts_as_fio)
{
	const char *const opts[] = { "--name=q", "--ioengine=null", "--rw=randread", "--bs=4k",
				     "--size=4m", "--numjobs=3", "--cpumask=0x3",
				     "--cpus_allowed_policy=split", NULL };
	json_object *bq, *fio;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs CPUs 0 and 1 online");
	bq = bq_json(_metadata, opts);
	ASSERT_NE(NULL, bq);
	if (!have_fio()) {
		json_object_put(bq);
		SKIP(return, "fio is not installed: counts not compared");
	}
	fio = fio_run_json(opts);
	ASSERT_NE(NULL, fio);
	/* three threads of 1024 reads each, in both */
	EXPECT_EQ(3072, fio_total_ios(fio, "read"));
	EXPECT_EQ(fio_total_ios(fio, "read"),
		  json_int(json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0),
			   "total.read.ios", -2));
	json_object_put(bq);
	json_object_put(fio);
}

/* ---- numa_cpu_nodes and numa_mem_policy ---------------------------------- */

/* The first line of @path containing @what, into @line; false when none. */
static bool file_line(const char *path, const char *what, char *line, size_t len)
{
	FILE *f = fopen(path, "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, (int)len, f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

/* A line of @path holding both @what and @also. */
static bool file_line2(const char *path, const char *what, const char *also, char *line,
		       size_t len)
{
	FILE *f = fopen(path, "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, (int)len, f))
		found = strstr(line, what) && strstr(line, also);
	fclose(f);
	return found;
}

/*
 * The worker's affinity, and the policy of its buffers' mapping in
 * numa_maps: a mapping of 1 MiB (64k x iodepth 16, 256 pages) with the
 * job's policy.  Under AddressSanitizer other mappings of that size
 * exist, with the default policy, so the policy is part of the match.
 */
TEST(numa_options_reach_the_thread)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "--name=a",
			       "--ioengine=null", "--bs=64k", "--iodepth=16", "--size=1m",
			       "--time_based", "--runtime=2s", "--rate_iops=200",
			       "--numa_cpu_nodes=0", "--numa_mem_policy=interleave:0", NULL };
	char node0[256] = "", aff[1][32] = { "" }, maps[64], line[512] = "";
	long long t0 = now_ms();
	bool seen = false;
	int status;
	pid_t pid;

	if (!file_line("/sys/devices/system/node/node0/cpulist", "", node0, sizeof(node0)))
		SKIP(return, "no NUMA node 0 in sysfs");
	node0[strcspn(node0, "\n")] = 0;
	pid = spawn_logged(argv, "/dev/null");
	ASSERT_LT(0, pid);
	snprintf(maps, sizeof(maps), "/proc/%d/numa_maps", pid);
	while ((!aff[0][0] || !seen) && now_ms() - t0 < 1800) {
		sleep_ms(100);
		worker_affinity(pid, aff, 1);
		seen = file_line2(maps, "anon=256 ", " interleave:0 ", line, sizeof(line));
	}
	kill(pid, SIGINT);
	wait_exit_ms(pid, 10000, &status);
	EXPECT_STREQ(node0, aff[0]) TH_LOG("numa_cpu_nodes=0: node 0's CPUs");
	EXPECT_TRUE(seen) TH_LOG("no 1 MiB mapping with interleave:0 in numa_maps");
}

TEST(numa_counts_as_fio)
{
	const char *const opts[] = { "--name=q", "--ioengine=null", "--rw=randread", "--bs=4k",
				     "--size=4m", "--numa_cpu_nodes=0",
				     "--numa_mem_policy=bind:0", NULL };
	json_object *bq, *fio;

	if (access("/sys/devices/system/node/node0", F_OK))
		SKIP(return, "no NUMA node 0 in sysfs");
	both(_metadata, opts, &bq, &fio);
	json_object_put(bq);
	json_object_put(fio);
	if (!have_fio())
		SKIP(return, "fio is not installed: counts not compared");
}

/* ---- flow control ---------------------------------------------------------- */

static long long job_reads(json_object *root, int k, bool fio)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), k);

	return json_int(j, fio ? "read.total_ios" : "total.read.ios", -1);
}

/* Weights 2 and 1 in one flow: two I/Os of a for each of b, in both tools. */
TEST(flow_keeps_the_weights_ratio)
{
	const char *const opts[] = { "--ioengine=null", "--bs=4k", "--size=1g", "--time_based",
				     "--runtime=1s", "--flow_id=1", "--flow_watermark=10",
				     "--name=a", "--flow=2", "--name=b", "--flow=1", NULL };
	json_object *bq, *fio;
	double ratio;

	bq = bq_json(_metadata, opts);
	ASSERT_NE(NULL, bq);
	ratio = (double)job_reads(bq, 0, false) / (double)job_reads(bq, 1, false);
	TH_LOG("blkqual: a %lld, b %lld I/Os", job_reads(bq, 0, false), job_reads(bq, 1, false));
	EXPECT_GT(ratio, 1.9);
	EXPECT_LT(ratio, 2.1);
	json_object_put(bq);
	if (!have_fio())
		SKIP(return, "fio is not installed: its ratio not compared");
	fio = fio_run_json(opts);
	ASSERT_NE(NULL, fio);
	ratio = (double)job_reads(fio, 0, true) / (double)job_reads(fio, 1, true);
	TH_LOG("fio: a %lld, b %lld I/Os", job_reads(fio, 0, true), job_reads(fio, 1, true));
	EXPECT_GT(ratio, 1.9);
	EXPECT_LT(ratio, 2.1);
	json_object_put(fio);
}

/* Size-bound jobs in a flow do all their I/O, as fio's do. */
TEST(flow_counts_as_fio)
{
	const char *const opts[] = { "--ioengine=null", "--bs=4k", "--size=16m",
				     "--flow_id=2", "--flow_sleep=50", "--iodepth=4",
				     "--name=a", "--flow=3", "--name=b", "--flow=1", NULL };
	json_object *bq, *fio;

	bq = bq_json(_metadata, opts);
	ASSERT_NE(NULL, bq);
	EXPECT_EQ(4096, job_reads(bq, 0, false));
	EXPECT_EQ(4096, job_reads(bq, 1, false));
	if (!have_fio()) {
		json_object_put(bq);
		SKIP(return, "fio is not installed: counts not compared");
	}
	fio = fio_run_json(opts);
	ASSERT_NE(NULL, fio);
	EXPECT_EQ(job_reads(fio, 0, true), job_reads(bq, 0, false));
	EXPECT_EQ(job_reads(fio, 1, true), job_reads(bq, 1, false));
	json_object_put(bq);
	json_object_put(fio);
}

/* ---- parsing ------------------------------------------------------------- */

static int run_opt(struct run_result *r, const char *a, const char *b)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       "--ioengine=null", "--size=64k", "--iodepth=8", "--name=one", a, b,
			       NULL };

	return run_argv(argv, r);
}

TEST(queue_values_parse)
{
	static const char *const good[][2] = {
		{ "--iodepth_batch=0", "--iodepth_low=0" },
		{ "--iodepth_batch=1", "--iodepth_low=8" },
		{ "--iodepth_batch_submit=64", "--iodepth_low=100" },
		{ "--iodepth_batch_complete_max=1", "--iodepth_batch_complete_min=4" },
		{ "--serialize_overlap", "--rw=randwrite" },
		{ "--serialize_overlap=0", "--io_submit_mode=inline" },
		{ "--io_submit_mode=offload", "--rate_iops=100" },
		{ "--prio=0", "--prioclass=2" },
		{ "--prio=7", "--prioclass=3" },
		{ "--cmdprio_class=2,3", "--cmdprio=0,7" },
		{ "--cpumask=1", "--cpus_allowed_policy=shared" },
		{ "--cpus_allowed=0", "--cpus_allowed_policy=split" },
		{ "--cpus_allowed_policy=split", "--iodepth=2" },
		{ "--numa_cpu_nodes=all", "--numa_mem_policy=local" },
		{ "--numa_cpu_nodes=0", "--numa_mem_policy=bind:0" },
		{ "--numa_mem_policy=prefer:0", "--numa_mem_policy=default" },
		{ "--flow_id=3", "--flow=1" },
		{ "--flow_sleep=100", "--flow_watermark=5" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_opt(&r, good[i][0], good[i][1]));
		EXPECT_EQ(0, r.status) TH_LOG("%s %s: %.200s", good[i][0], good[i][1],
					     r.err ? r.err : "");
		run_result_free(&r);
	}
}

TEST(queue_values_refused)
{
	static const char *const bad[][2] = {
		{ "--io_submit_mode=fast", "io_submit_mode" },
		{ "--iodepth_low=x", "iodepth_low" },
		{ "--iodepth_batch=-1", "iodepth_batch" },
		{ "--iodepth_batch_complete_max=70000", "iodepth_batch_complete_max" },
		{ "--serialize_overlap=2", "serialize_overlap" },
		{ "--prio=8", "prio" },
		{ "--prioclass=4", "prioclass" },
		{ "--prio=", "prio" },
		{ "--cmdprio_percentage=10", "needs ioengine=io_uring or libaio" },
		{ "--cmdprio_bssplit=4k/50", "cmdprio_bssplit needs ioengine=io_uring or libaio" },
		{ "--cmdprio_class=0", "cmdprio_class" },
		{ "--cmdprio=8", "cmdprio" },
		{ "--cmdprio_percentage=101", "cmdprio_percentage" },
		{ "--cmdprio_percentage=1,2,3", "cmdprio_percentage" },
		{ "--cpumask=0", "no CPU" },
		{ "--cpumask=0x100000000", "cpumask" },
		{ "--cpus_allowed_policy=mixed", "cpus_allowed_policy" },
		{ "--numa_cpu_nodes=x", "node list" },
		{ "--numa_mem_policy=interleave", "needs a node list" },
		{ "--numa_mem_policy=local:0", "takes no node list" },
		{ "--numa_mem_policy=prefer:0-1", "one node" },
		{ "--numa_mem_policy=spread:0", "numa_mem_policy" },
		{ "--numa_cpu_nodes=999", "does not exist" },
		{ "--flow=-1", "flow" },
		{ "--flow_sleep=x", "flow_sleep" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_opt(&r, bad[i][0], NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s was not refused", bad[i][0]);
		EXPECT_NE(NULL, r.err && strstr(r.err, bad[i][1]) ? r.err : NULL)
			TH_LOG("%s: %.200s", bad[i][0], r.err ? r.err : "");
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s: one line", bad[i][0]);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
