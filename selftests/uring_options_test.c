// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring_options_test.c - fio's io_uring engine options: nonvectored,
 * force_async, sqthread_poll_cpu, cmd_type, readfua and writefua
 *
 * Each is checked against something outside blkqual: the device's own
 * counters and fio 3.33 on the same job for the I/O counts, the kernel's
 * thread list for where the SQ poll thread runs and for io_uring's worker
 * threads.  NVMe commands (FUA, the vectored command) run in the VM.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/spawn.h"
#include "job/jobopt.h"

static int set1(const char *key, const char *value, struct bq_job *out,
		struct bq_parse_error *err)
{
	struct bq_job job;
	int ret;

	bq_job_defaults(&job);
	ret = bq_job_set(&job, key, value, err);
	if (!ret)
		ret = bq_job_set(&job, "filename", "/dev/null", err);
	if (!ret)
		ret = bq_job_check(&job, err);
	if (out)
		*out = job;
	else
		bq_job_release(&job);
	return ret;
}

TEST(values_as_in_fio)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("sqthread_poll_cpu", "1", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.sqpoll_cpu_set);
	EXPECT_EQ(1, job.sqpoll_cpu);
	bq_job_release(&job);
	ASSERT_EQ(0, set1("nonvectored", "0", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.vectored);
	bq_job_release(&job);
	ASSERT_EQ(0, set1("nonvectored", "-1", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_FALSE(job.vectored);
	bq_job_release(&job);
	ASSERT_EQ(0, set1("force_async", "4", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(4, job.force_async);
	bq_job_release(&job);
	EXPECT_EQ(0, set1("cmd_type", "nvme", NULL, &err)) TH_LOG("%s", err.msg);

	EXPECT_EQ(-EINVAL, set1("sqthread_poll_cpu", "x", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("nonvectored", "2", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("cmd_type", "bsg", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("cmd_type", "scsi", NULL, &err));
	/* Engine options of fio's io_uring engines mean nothing elsewhere. */
	EXPECT_EQ(-EINVAL, set1("readfua", NULL, NULL, &err));
	EXPECT_STREQ("readfua needs ioengine=io_uring_cmd or sg", err.msg);
	EXPECT_EQ(-EINVAL, set1("writefua", "1", NULL, &err));
	{
		struct bq_job j;

		bq_job_defaults(&j);
		ASSERT_EQ(0, bq_job_set(&j, "ioengine", "psync", &err));
		ASSERT_EQ(0, bq_job_set(&j, "force_async", "1", &err));
		ASSERT_EQ(0, bq_job_set(&j, "filename", "/dev/null", &err));
		EXPECT_EQ(-EINVAL, bq_job_check(&j, &err));
		EXPECT_STREQ("force_async needs ioengine=io_uring or io_uring_cmd", err.msg);
		bq_job_release(&j);
	}
}

SCRATCH_DEV_FIXTURE(SCRATCH_SIZE)

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/*
 * One size-bounded job through blkqual and through fio: the counts must
 * be the job's size over its block size in both, and the device's.  The
 * device must not merge (nomerges=2) for its count to be one per I/O.
 */
static void same_as_fio_and_device(struct __test_metadata *_metadata, const char *dev_opt,
				   const char *rw, const char *option)
{
	const char *args[] = { dev_opt, rw, "--bs=4k", "--size=16m", "--iodepth=8",
			       "--direct=1", "--ioengine=io_uring", option, "--name=o", NULL };
	const char *dir = strstr(rw, "read") ? "read" : "write";
	char path[64], disk_path[64];
	struct run_result r;
	json_object *root, *fio;

	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%s: exit %d: %s", option, r.status, r.err);
	snprintf(path, sizeof(path), "total.%s.ios", dir);
	snprintf(disk_path, sizeof(disk_path), "disk_stats.%s_ios", dir);
	EXPECT_EQ(4096, json_int(job0(root), path, -1)) TH_LOG("%s", option);
	EXPECT_EQ(4096, json_int(json_object_array_get_idx(
		json_object_object_get(job0(root), "targets"), 0), disk_path, -1))
		TH_LOG("%s: the device's count", option);
	json_object_put(root);
	run_result_free(&r);

	if (!have_fio()) {
		TH_LOG("fio is not installed: not compared with fio");
		return;
	}
	/* fio takes the same options; its own defaults differ only in the engine. */
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio) TH_LOG("%s: fio failed", option);
	EXPECT_EQ(4096, fio_total_ios(fio, dir)) TH_LOG("%s: fio's count", option);
	json_object_put(fio);
}

TEST_F(dev, nonvectored_0_counts_as_fio)
{
	PREP_READY(&self->p);
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	same_as_fio_and_device(_metadata, self->opt, "--rw=randread", "--nonvectored=0");
	same_as_fio_and_device(_metadata, self->opt, "--rw=write", "--nonvectored=0");
}

TEST_F(dev, force_async_counts_as_fio)
{
	PREP_READY(&self->p);
	ASSERT_EQ(0, loop_nomerges(self->s.dev, 2));
	same_as_fio_and_device(_metadata, self->opt, "--rw=randread", "--force_async=1");
	same_as_fio_and_device(_metadata, self->opt, "--rw=write", "--force_async=3");
}

/*
 * Threads of @pid whose name starts with @prefix; with @cpus, the
 * allowed-CPU list of the first one.
 */
static int threads_named(pid_t pid, const char *prefix, char *cpus, size_t len)
{
	char path[320], line[256];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !strncmp(line, prefix, strlen(prefix)) &&
		    !n++ && cpus) {
			FILE *st;

			snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)pid,
				 de->d_name);
			st = fopen(path, "r");
			while (st && fgets(line, sizeof(line), st))
				if (sscanf(line, "Cpus_allowed_list: %63s", cpus) == 1)
					break;
			if (st)
				fclose(st);
		}
		fclose(f);
	}
	closedir(d);
	(void)len;
	return n;
}

/* Start a 3 s run and look at its threads while it runs. */
static pid_t start_run(const char *dev_opt, const char *o1, const char *o2, const char *log)
{
	const char *argv[] = { blkqual_path(), "run", dev_opt, "--rw=randread", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=3", "--time_based",
			       "--name=t", o1, o2, NULL };

	return spawn_logged(argv, log);
}

TEST_F(dev, sq_poll_thread_runs_on_the_named_cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char cpu_opt[48], want[24], cpus[64] = "";
	char log[] = "/tmp/blkqual-sqcpu.XXXXXX";
	int status, fd, seen = 0;
	pid_t pid;

	PREP_READY(&self->p);
	fd = mkstemp(log);
	ASSERT_LE(0, fd);
	close(fd);
	/* The last CPU: placement alone would more likely pick another. */
	snprintf(want, sizeof(want), "%ld", ncpu - 1);
	snprintf(cpu_opt, sizeof(cpu_opt), "--sqthread_poll_cpu=%ld", ncpu - 1);
	pid = start_run(self->opt, "--sqthread_poll=1", cpu_opt, log);
	ASSERT_LT(0, pid);
	for (int i = 0; i < 40 && !seen; i++) {
		sleep_ms(50);
		seen = threads_named(pid, "iou-sqp-", cpus, sizeof(cpus));
	}
	EXPECT_LT(0, wait_exit_ms(pid, 20000, &status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(1, seen) TH_LOG("SQ poll threads seen: %d", seen);
	EXPECT_STREQ(want, cpus);
	unlink(log);
}

TEST_F(dev, sqthread_poll_cpu_not_online_is_refused)
{
	const char *args[] = { self->opt, "--sqthread_poll=1", "--sqthread_poll_cpu=1000",
			       "--size=1m", "--name=o", NULL };
	struct run_result r;

	PREP_READY(&self->p);
	EXPECT_EQ(NULL, blkqual_run_json(&r, args));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "CPU 1000 is not online")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* IOSQE_ASYNC hands each I/O to io_uring's worker threads, iou-wrk-TID. */
TEST_F(dev, force_async_uses_io_workers)
{
	char log[] = "/tmp/blkqual-async.XXXXXX";
	int status, fd, workers = 0;
	pid_t pid;

	PREP_READY(&self->p);
	fd = mkstemp(log);
	ASSERT_LE(0, fd);
	close(fd);
	pid = start_run(self->opt, "--force_async=1", "--gtod_reduce=0", log);
	ASSERT_LT(0, pid);
	for (int i = 0; i < 40 && !workers; i++) {
		sleep_ms(50);
		workers = threads_named(pid, "iou-wrk-", NULL, 0);
	}
	EXPECT_LT(0, wait_exit_ms(pid, 20000, &status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_LT(0, workers);
	unlink(log);
}

TEST_HARNESS_MAIN
