// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_test.c - blkqual run on a scratch loop device: the numbers are true
 * (the I/O count equals the device's own counters), every engine counts
 * the same, polling is refused or falls back cleanly, writes pass the
 * guard, threads are pinned where the output says, an interrupted run
 * still reports, and the JSON is one valid document.
 */
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/spawn.h"
#include "helpers/scratchdev.h"

SCRATCH_DEV_FIXTURE(SCRATCH_SIZE)

/* Run blkqual with up to 14 arguments and parse its JSON, saying why when it fails. */
static json_object *run_json(struct __test_metadata *_metadata, struct run_result *r,
			     const char *const *args)
{
	json_object *root = blkqual_run_json(r, args);

	if (!root)
		TH_LOG("exit %d: %.200s%.200s", r->status, r->err ? r->err : "",
		       r->out ? r->out : "");
	return root;
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

TEST_F(dev, io_count_matches_diskstats)
{
	const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--iodepth=32",
			       "--direct=1", "--runtime=2", "--time_based", "--name=truth", NULL };
	long long ios, disk;
	struct run_result r;
	json_object *root, *j;

	PREP_READY(&self->p);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	j = job0(root);
	ios = json_int(j, "total.read.ios", -1);
	disk = json_int(json_object_array_get_idx(json_object_object_get(j, "targets"), 0),
			"disk_stats.read_ios", -1);
	TH_LOG("blkqual counted %lld reads, the device %lld", ios, disk);
	ASSERT_LT(1000, ios);
	/* Within 1%: the device may merge a few adjacent random reads. */
	EXPECT_LE(llabs(ios - disk) * 100, ios);
	EXPECT_EQ(1, json_int(root, "schema_version", 0));
	EXPECT_LT(0, json_int(j, "total.read.lat_ns.percentiles.99", 0));
	EXPECT_NE(NULL, json_object_object_get(root, "host"));
	EXPECT_STREQ("loop", json_str(json_object_array_get_idx(json_object_object_get(j,
		"targets"), 0), "device.kind"));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, size_based_sequential_read_is_exact)
{
	const char *args[] = { self->opt, "--rw=read", "--bs=1m", "--size=64m", "--direct=1",
			       "--name=seq", NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(64, json_int(job0(root), "total.read.ios", -1));
	EXPECT_EQ(64LL << 20, json_int(job0(root), "total.read.bytes", -1));
	EXPECT_EQ(0, json_int(job0(root), "total.write.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, every_engine_counts_the_same)
{
	static const char *const engines[] = { "io_uring", "libaio", "psync" };

	PREP_READY(&self->p);
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		char engine[32];
		const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--io_size=16m",
				       "--iodepth=16", "--direct=1", engine, "--name=e", NULL };
		struct run_result r;
		json_object *root;

		snprintf(engine, sizeof(engine), "--ioengine=%s", engines[i]);
		root = run_json(_metadata, &r, args);
		ASSERT_NE(NULL, root) TH_LOG("%s", engines[i]);
		EXPECT_EQ(4096, json_int(job0(root), "total.read.ios", -1)) TH_LOG("%s", engines[i]);
		json_object_put(root);
		run_result_free(&r);
	}
}

TEST(nop_engine_needs_no_device)
{
	const char *args[] = { "--ioengine=nop", "--bs=4k", "--size=64m", "--iodepth=32",
			       "--name=nop", NULL };
	struct run_result r;
	json_object *root;

	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(16384, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, polling_refused_or_fallen_back)
{
	const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--io_size=1m",
			       "--direct=1", "--name=p", NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	/* poll=on cannot work on a loop device: one line, before any I/O. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->opt, "--rw=randread",
				 "--direct=1", "--poll=on", "--name=p", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "cannot poll")) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	/* auto falls back to interrupts and says why. */
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	EXPECT_FALSE(json_object_get_boolean(json_object_object_get(json_object_object_get(
		job0(root), "completions"), "polled")));
	EXPECT_NE(NULL, strstr(json_str(job0(root), "completions.note"), "cannot poll"));
	EXPECT_EQ(256, json_int(job0(root), "total.read.ios", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, writes_pass_the_guard)
{
	char force[96];
	struct run_result r;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s.dev));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->opt, "--rw=write", "--bs=64k",
				 "--io_size=1m", "--direct=1", "--name=w", NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ext4"));
	run_result_free(&r);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", force, self->opt, "--rw=write",
				 "--bs=64k", "--io_size=1m", "--direct=1", "--fsync=4", "--name=w",
				 "-o", "json", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_F(dev, fsync_every_n_writes)
{
	const char *args[] = { self->opt, "--rw=write", "--bs=4k", "--io_size=64k", "--fsync=4",
			       "--direct=1", "--name=f", NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(16, json_int(job0(root), "total.write.ios", -1));
	/* As in fio: none after the last write (end_fsync is the option for that). */
	EXPECT_EQ(3, json_int(job0(root), "total.fsyncs", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* The same job three ways: the results carry identical options. */
TEST_F(dev, three_forms_agree)
{
	char jobfile[300], fio_filename[96];
	const char *a1[] = { self->opt, "--rw=randread", "--bs=4k", "--iodepth=8", "--direct=1",
			     "--io_size=2m", "--name=same", NULL };
	const char *a2[] = { fio_filename, "-rw=randread", "-bs=4k", "-iodepth=8", "-direct=1",
			     "-io_size=2m", "-name=same", NULL };
	const char *a3[] = { jobfile, NULL };
	json_object *r1, *r2, *r3;
	struct run_result x, y, z;
	FILE *f;

	PREP_READY(&self->p);
	snprintf(fio_filename, sizeof(fio_filename), "-filename=%s", self->s.dev);
	snprintf(jobfile, sizeof(jobfile), "%s/same.fio", self->s.dir);
	f = fopen(jobfile, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "; the same job as a file\n[global]\ndirect=1\nbs=4k\n\n[same]\n"
		"filename=%s\nrw=randread\niodepth=8 # comment\nio_size=2m\n", self->s.dev);
	fclose(f);
	r1 = run_json(_metadata, &x, a1);
	r2 = run_json(_metadata, &y, a2);
	r3 = run_json(_metadata, &z, a3);
	unlink(jobfile);
	ASSERT_NE(NULL, r1);
	ASSERT_NE(NULL, r2);
	ASSERT_NE(NULL, r3);
	EXPECT_STREQ(json_object_to_json_string(json_object_object_get(job0(r1), "options")),
		     json_object_to_json_string(json_object_object_get(job0(r2), "options")));
	EXPECT_STREQ(json_object_to_json_string(json_object_object_get(job0(r1), "options")),
		     json_object_to_json_string(json_object_object_get(job0(r3), "options")));
	EXPECT_EQ(512, json_int(job0(r3), "total.read.ios", -1));
	json_object_put(r1);
	json_object_put(r2);
	json_object_put(r3);
	run_result_free(&x);
	run_result_free(&y);
	run_result_free(&z);
}

/* CPUs each "bq:" worker thread of @pid may run on, as one CPU each. */
static int worker_cpus(pid_t pid, int *cpus, int max)
{
	char dir[64], path[400], line[256];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", dir, de->d_name);
		f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "bq:", 3)) {
			if (f)
				fclose(f);
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s/status", dir, de->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "Cpus_allowed_list:", 18))
				cpus[n++] = strchr(line, '-') || strchr(line, ',') ? -1 :
					    atoi(line + 18);
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

TEST_F(dev, threads_pinned_where_reported)
{
	char out[300];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", self->opt,
			       "--rw=randread", "--bs=4k", "--numjobs=2", "--cpus=0-1",
			       "--runtime=3", "--time_based", "--direct=1", "--name=pin", NULL };
	int cpus[8], n = 0, status;
	json_object *root;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	snprintf(out, sizeof(out), "%s/pin.json", self->s.dir);
	pid = spawn_logged(argv, out);
	ASSERT_LT(0, pid);
	for (int tries = 0; tries < 40 && n < 2; tries++) {
		usleep(50000);
		n = worker_cpus(pid, cpus, 8);
	}
	ASSERT_EQ(2, n);
	/* One CPU each, and not the same one. */
	EXPECT_LE(0, cpus[0]);
	EXPECT_LE(0, cpus[1]);
	EXPECT_NE(cpus[0], cpus[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	text = slurp(out);
	root = text ? json_tokener_parse(text) : NULL;
	ASSERT_NE(NULL, root);
	/* The placement the results report is the one the kernel enforced. */
	for (int i = 0; i < 2; i++) {
		json_object *p = json_object_array_get_idx(json_object_object_get(job0(root),
							   "placement"), i);
		long long cpu = json_int(p, "cpu", -1);

		EXPECT_TRUE(cpu == cpus[0] || cpu == cpus[1]) TH_LOG("thread %d on %lld", i, cpu);
	}
	json_object_put(root);
	free(text);
	unlink(out);
}

TEST_F(dev, interrupted_run_still_reports)
{
	char out[300], file[300];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", "--output",
			       file, self->opt, "--rw=randread", "--bs=4k", "--runtime=60",
			       "--time_based", "--direct=1", "--name=int", NULL };
	json_object *root;
	int status;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	snprintf(out, sizeof(out), "%s/int.log", self->s.dir);
	snprintf(file, sizeof(file), "%s/int.json", self->s.dir);
	pid = spawn_logged(argv, out);
	ASSERT_LT(0, pid);
	sleep(1);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(128 + SIGINT, WEXITSTATUS(status));
	text = slurp(file);
	ASSERT_NE(NULL, text) TH_LOG("no result file after SIGINT");
	root = json_tokener_parse(text);
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(json_object_get_boolean(json_object_object_get(root, "interrupted")));
	EXPECT_LT(100, json_int(job0(root), "total.read.ios", 0));
	EXPECT_GT(30e9, (double)json_int(job0(root), "runtime_ns", 0));
	json_object_put(root);
	free(text);
	unlink(file);
	unlink(out);
}

TEST_F(dev, intervals_and_csv)
{
	char csv[300];
	const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--runtime=2",
			       "--time_based", "--direct=1", "--interval=500ms", "--csv", csv,
			       "--name=iv", NULL };
	struct run_result r;
	json_object *root, *iv;
	char *text;

	PREP_READY(&self->p);
	snprintf(csv, sizeof(csv), "%s/iv.csv", self->s.dir);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	iv = json_object_object_get(job0(root), "intervals");
	EXPECT_LE(3, (int)json_object_array_length(iv));
	EXPECT_GE(5, (int)json_object_array_length(iv));
	EXPECT_LT(0, json_int(json_object_array_get_idx(iv, 1), "read.ios", 0));
	text = slurp(csv);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(text, "time_s,job,direction,", 21));
	EXPECT_LE(7, count_lines(text));
	free(text);
	unlink(csv);
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, sqpoll_cpu_is_reported)
{
	const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--iodepth=16",
			       "--runtime=1", "--time_based", "--direct=1", "--sqpoll", "--name=sq",
			       NULL };
	struct run_result r;
	json_object *root, *t;

	PREP_READY(&self->p);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	t = json_object_array_get_idx(json_object_object_get(job0(root), "threads"), 0);
	EXPECT_TRUE(json_int(t, "ring_flags", 0) & 2) TH_LOG("no IORING_SETUP_SQPOLL");
	/* The poller's CPU time is the kernel thread's, not in the tester's usr/sys. */
	EXPECT_LT(0, json_int(t, "cpu_usage.sqpoll_ns", 0));
	EXPECT_LT(1000, json_int(job0(root), "total.read.ios", 0));
	json_object_put(root);
	run_result_free(&r);
}

/* Two one-thread jobs spread over the CPUs instead of sharing the first. */
TEST_F(dev, jobs_spread_over_cpus)
{
	const char *args[] = { self->opt, "--rw=randread", "--bs=4k", "--io_size=1m",
			       "--direct=1", "--name=a", "--name=b", NULL };
	struct run_result r;
	json_object *root, *jobs;
	long long cpu[2];

	PREP_READY(&self->p);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	jobs = json_object_object_get(root, "jobs");
	ASSERT_EQ(2, (int)json_object_array_length(jobs));
	for (int k = 0; k < 2; k++)
		cpu[k] = json_int(json_object_array_get_idx(json_object_object_get(
			json_object_array_get_idx(jobs, k), "placement"), 0), "cpu", -1);
	EXPECT_LE(0, cpu[0]);
	EXPECT_NE(cpu[0], cpu[1]);
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, cpus_allowed_must_exist)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->opt, "--rw=read",
				 "--cpus_allowed=4095", "--name=c", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "CPU 4095 is not online")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_F(dev, misaligned_direct_io_refused)
{
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->opt, "--rw=read", "--bs=4k",
				 "--offset=100", "--direct=1", "--name=m", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "logical block size")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST(file_target_laid_out)
{
	char dir[] = "/tmp/blkqual-run.XXXXXX", name[96], opt[128];
	const char *args[] = { opt, "--rw=randread", "--bs=4k", "--size=8m", "--name=file",
			       NULL };
	struct run_result r;
	json_object *root;
	struct stat st;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(name, sizeof(name), "%s/data", dir);
	snprintf(opt, sizeof(opt), "--filename=%s", name);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(2048, json_int(job0(root), "total.read.ios", -1));
	EXPECT_TRUE(json_object_get_boolean(json_object_object_get(json_object_array_get_idx(
		json_object_object_get(job0(root), "targets"), 0), "laid_out")));
	ASSERT_EQ(0, stat(name, &st));
	EXPECT_EQ(8 << 20, st.st_size);
	json_object_put(root);
	run_result_free(&r);
	unlink(name);
	rmdir(dir);
}

/*
 * The jobs people run with fio, as a matrix: every one must move exactly
 * the bytes it says, and the device must have seen exactly those bytes
 * (sectors, not requests: large I/Os are split and adjacent ones merged).
 */
FIXTURE(job)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_VARIANT(job)
{
	const char *rw;
	const char *bs;
	const char *engine;
	const char *numjobs;
	const char *iodepth;
	long long io_size;
};

FIXTURE_VARIANT_ADD(job, read_4k_psync)
{
	.rw = "read", .bs = "4k", .engine = "psync", .numjobs = "1", .iodepth = "1",
	.io_size = 8 << 20,
};

FIXTURE_VARIANT_ADD(job, randread_4k_uring_64_jobs)
{
	.rw = "randread", .bs = "4k", .engine = "io_uring", .numjobs = "64", .iodepth = "4",
	.io_size = 2 << 20,
};

FIXTURE_VARIANT_ADD(job, write_1m_uring)
{
	.rw = "write", .bs = "1m", .engine = "io_uring", .numjobs = "4", .iodepth = "8",
	.io_size = 32 << 20,
};

FIXTURE_VARIANT_ADD(job, randwrite_64k_libaio)
{
	.rw = "randwrite", .bs = "64k", .engine = "libaio", .numjobs = "8", .iodepth = "16",
	.io_size = 8 << 20,
};

FIXTURE_VARIANT_ADD(job, read_32m_uring)
{
	.rw = "read", .bs = "32m", .engine = "io_uring", .numjobs = "2", .iodepth = "2",
	.io_size = 128 << 20,
};

FIXTURE_VARIANT_ADD(job, randrw_16k_psync)
{
	.rw = "randrw", .bs = "16k", .engine = "psync", .numjobs = "4", .iodepth = "1",
	.io_size = 4 << 20,
};

FIXTURE_SETUP(job)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
}

FIXTURE_TEARDOWN(job)
{
	scratch_destroy(&self->s);
}

TEST_F_TIMEOUT(job, bytes_match_the_device, 120)
{
	char filename[96], rw[32], bs[32], engine[32], numjobs[32], iodepth[32], io_size[48];
	const char *args[] = { filename, rw, bs, engine, numjobs, iodepth, io_size, "--direct=1",
			       "--group_reporting", "--name=matrix", NULL };
	long long bytes[2], sectors[2], want;
	struct run_result r;
	json_object *root, *target;

	PREP_READY(&self->p);
	snprintf(filename, sizeof(filename), "--filename=%s", self->s.dev);
	snprintf(rw, sizeof(rw), "--rw=%s", variant->rw);
	snprintf(bs, sizeof(bs), "--bs=%s", variant->bs);
	snprintf(engine, sizeof(engine), "--ioengine=%s", variant->engine);
	snprintf(numjobs, sizeof(numjobs), "--numjobs=%s", variant->numjobs);
	snprintf(iodepth, sizeof(iodepth), "--iodepth=%s", variant->iodepth);
	snprintf(io_size, sizeof(io_size), "--io_size=%lld", variant->io_size);
	root = run_json(_metadata, &r, args);
	ASSERT_NE(NULL, root);
	target = json_object_array_get_idx(json_object_object_get(job0(root), "targets"), 0);
	bytes[0] = json_int(job0(root), "total.read.bytes", -1);
	bytes[1] = json_int(job0(root), "total.write.bytes", -1);
	sectors[0] = json_int(target, "disk_stats.read_sectors", -1);
	sectors[1] = json_int(target, "disk_stats.write_sectors", -1);
	want = variant->io_size * atoi(variant->numjobs);
	EXPECT_EQ(want, bytes[0] + bytes[1]);
	EXPECT_EQ(0, json_int(job0(root), "total.read.errors", -1) +
		     json_int(job0(root), "total.write.errors", -1));
	EXPECT_EQ(bytes[0], sectors[0] * 512) TH_LOG("read: blkqual %lld, device %lld",
						    bytes[0], sectors[0] * 512);
	EXPECT_EQ(bytes[1], sectors[1] * 512) TH_LOG("write: blkqual %lld, device %lld",
						    bytes[1], sectors[1] * 512);
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
