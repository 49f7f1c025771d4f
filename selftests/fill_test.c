// SPDX-License-Identifier: GPL-2.0-only
/*
 * fill_test.c - fill_device and fill_fs, the trim value of the rate
 * options, io_submit_mode=offload (issue 19)
 *
 * The truth is fio 3.33 on the same job, the device's size, what the
 * filesystem had free, and the loop device's own discard counter.  fio
 * counts the write that met ENOSPC among its I/Os (not its bytes);
 * blkqual counts the writes that succeeded, so I/Os are compared as
 * fio's bytes over the block size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/jobs.h"
#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"
#include "job/jobopt.h"

#define DEV_SIZE	(64LL << 20)

TEST(fill_values)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "rw=write", "fill_device=1")) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.fill_device);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rw=write", "fill_fs")) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.fill_device);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "fill_device=0")) TH_LOG("%s", err.msg);
	EXPECT_FALSE(job.fill_device);
	bq_job_release(&job);
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "fill_device=2"));
	/* Only a sequential pass means "until full". */
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=randwrite", "fill_device=1"));
	EXPECT_NE(NULL, strstr(err.msg, "fill_device")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trim", "fill_fs=1"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=write", "fill_fs=1", "io_size=1m"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=write", "fill_fs=1",
				     "filename=/dev/null:/dev/zero"));
	/* verify=meta checks verify_pattern after its header, as fio's does. */
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=write", "fill_device=1", "verify=meta",
			   "verify_pattern=0x5aa5c33c", "verify_interval=1024", "bs=32k"))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=write", "verify=crc32c",
				 "verify_pattern=0x5aa5c33c"));
}

TEST(rate_trim_values)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "rw=randrw", "rate=300,300,300")) TH_LOG("%s", err.msg);
	EXPECT_EQ(300, job.rate[BQ_READ]);
	EXPECT_EQ(300, job.rate[BQ_WRITE]);
	EXPECT_EQ(300, job.rate_trim);
	bq_job_release(&job);
	/* fio: a value not ended by a comma also applies to the directions after it. */
	ASSERT_EQ(0, PARSE(&job, &err, "rate=1m,500k")) TH_LOG("%s", err.msg);
	EXPECT_EQ(1 << 20, job.rate[BQ_READ]);
	EXPECT_EQ(500 << 10, job.rate[BQ_WRITE]);
	EXPECT_EQ(500 << 10, job.rate_trim);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rate=1m,")) TH_LOG("%s", err.msg);
	EXPECT_EQ(1 << 20, job.rate[BQ_READ]);
	EXPECT_EQ(0, job.rate[BQ_WRITE]);
	EXPECT_EQ(0, job.rate_trim);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rate_iops=,,250")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, job.rate_iops_rw[BQ_READ]);
	EXPECT_EQ(0, job.rate_iops_rw[BQ_WRITE]);
	EXPECT_EQ(250, job.rate_iops_trim);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rate_min=,,1m", "rate_iops_min=1,2,3"))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(1 << 20, job.rate_min_trim);
	EXPECT_EQ(3, job.rate_iops_min_trim);
	bq_job_release(&job);
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rate_iops=1,2,3,4"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rate=,,"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rate=,,1m", "rate_iops=,,10"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rate=,,1m", "rate_min=,,2m"));
	/* A trim job: its trims are capped; a trim minimum is not judged, so refused. */
	ASSERT_EQ(0, PARSE(&job, &err, "rw=randtrim", "rate=1m")) TH_LOG("%s", err.msg);
	EXPECT_EQ(1 << 20, job.rate_trim);
	bq_job_release(&job);
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trim", "rate_min=,,1m"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trimwrite", "rate_iops=100"));
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trimwrite", "rate_iops=,,100")) TH_LOG("%s", err.msg);
	/* max_latency keeps two values. */
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "max_latency=1,2,3"));
}

TEST(offload_values)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "ioengine=libaio", "iodepth=32", "io_submit_mode=offload",
			   "rate_iops=1000")) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.submit_offload);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "io_submit_mode=inline")) TH_LOG("%s", err.msg);
	EXPECT_FALSE(job.submit_offload);
	bq_job_release(&job);
	EXPECT_EQ(0, PARSE(NULL, &err, "ioengine=psync", "io_submit_mode=offload"))
		TH_LOG("%s", err.msg);
	/* fio 3.33 refuses io_uring with offload itself. */
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "ioengine=io_uring", "io_submit_mode=offload"));
	/* fio's pool would run iodepth synchronous I/Os at once. */
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "ioengine=psync", "iodepth=4",
				     "io_submit_mode=offload"));
	EXPECT_NE(NULL, strstr(err.msg, "io_submit_mode=offload")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "io_submit_mode=later"));
}

/* Round trip through bq_job_to_args(): the trim values and fill_device survive. */
TEST(to_args_keeps_them)
{
	struct bq_parse_error err;
	struct bq_jobset set;
	struct bq_strv args = { 0 };
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "rw=write", "rate=1m,2m,", "fill_device=1",
			   "ioengine=libaio", "io_submit_mode=offload")) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&job, &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &set, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_EQ(1 << 20, set.jobs[0].rate[BQ_READ]);
	EXPECT_EQ(2 << 20, set.jobs[0].rate[BQ_WRITE]);
	EXPECT_EQ(0, set.jobs[0].rate_trim);
	EXPECT_TRUE(set.jobs[0].fill_device);
	EXPECT_TRUE(set.jobs[0].submit_offload);
	bq_jobset_free(&set);
	bq_strv_free(&args);
	bq_job_release(&job);
}

static json_object *job_named(json_object *root, const char *name)
{
	return json_find_by(json_object_object_get(root, "jobs"), "name", name);
}

static long long fio_job_bytes(json_object *fio, const char *name, const char *dir)
{
	json_object *j = json_find_by(json_object_object_get(fio, "jobs"), "jobname", name);
	char path[64];

	snprintf(path, sizeof(path), "%s.io_bytes", dir);
	return j ? json_int(j, path, -1) : -1;
}

/* ---- a loop device ------------------------------------------------------ */

SCRATCH_DEV_FIXTURE(DEV_SIZE)

/*
 * The device is written to its end and no further; 48 KiB does not divide
 * 64 MiB, and as in fio the block that would not fit whole is not counted.
 */
TEST_F(dev, fill_device_to_its_end_as_fio)
{
	const char *args[] = { self->opt, "--name=f", "--rw=write", "--bs=48k", "--direct=1",
			       "--ioengine=psync", "--fill_device=1", NULL };
	const long long ios = DEV_SIZE / (48 << 10);
	struct run_result r;
	json_object *root, *fio;

	PREP_READY(&self->p);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(ios, json_int(job_named(root, "f"), "total.write.ios", -1));
	EXPECT_EQ(ios * (48 << 10), json_int(job_named(root, "f"), "total.write.bytes", -1));
	EXPECT_EQ(0, json_int(job_named(root, "f"), "total.write.errors", -1));
	json_object_put(root);
	run_result_free(&r);
	if (!have_fio())
		SKIP(return, "fio is not installed: not compared with fio");
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio) TH_LOG("fio failed");
	EXPECT_EQ(ios, fio_total_ios(fio, "write"));
	EXPECT_EQ(ios * (48 << 10), fio_job_bytes(fio, "f", "write"));
	TH_LOG("64 MiB device, 48 KiB writes: blkqual %lld, fio %lld writes", ios,
	       fio_total_ios(fio, "write"));
	json_object_put(fio);
}

/*
 * The guard judges a file to be filled before it is emptied: the file
 * behind the loop device is refused, and keeps every byte.
 */
TEST_F(dev, guard_refuses_filling_a_loop_backing_file)
{
	char opt[340];
	struct run_result r;
	struct stat before, after;

	PREP_READY(&self->p);
	snprintf(opt, sizeof(opt), "--filename=%s", self->s.file);
	ASSERT_EQ(0, stat(self->s.file, &before));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--name=f", opt, "--rw=write", "--bs=64k",
				 "--fill_fs=1", NULL));
	EXPECT_NE(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	ASSERT_EQ(0, stat(self->s.file, &after));
	EXPECT_EQ(before.st_size, after.st_size);
	run_result_free(&r);
}

/* Discards the loop device has done so far (/sys/block/loopN/stat, field 12). */
static long long discards(const char *dev)
{
	unsigned long long f[12];
	char path[128];
	long long ret = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", strrchr(dev, '/') + 1);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
		   &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
		   &f[11]) == 12)
		ret = (long long)f[11];
	fclose(fp);
	return ret;
}

/*
 * @a against @b: a cap is never passed (one I/O of slack at each end of
 * the run), and under load (two CPUs shared with other tests) an I/O
 * path may fall behind by up to @pct percent.
 */
static bool near(long long a, long long b, double pct, double over_pct)
{
	return (double)a <= (double)b * (100.0 + over_pct) / 100.0 + 2.0 &&
	       (double)a >= (double)b * (100.0 - pct) / 100.0 - 1.0;
}

/*
 * The trim value alone caps the trims (read and write values left at 0):
 * two seconds at 200 trims/s is 400, counted by blkqual, by the device,
 * and by fio; linear and as a byte rate (800 KiB/s of 4 KiB trims).
 */
TEST_F(dev, trim_rate_caps_trims_as_fio)
{
	const char *rates[] = { "--rate_iops=,,200", "--rate=,,800k" };

	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		const char *args[] = { self->opt, "--name=t", "--rw=randtrim", "--bs=4k",
				       rates[i], "--runtime=2", "--time_based", NULL };
		long long d0 = discards(self->s.dev), d1, bq;
		struct run_result r;
		json_object *root, *fio;

		ASSERT_LE(0, d0) TH_LOG("no discard counter in /sys/block/*/stat");
		root = blkqual_run_json(&r, args);
		ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
		d1 = discards(self->s.dev);
		bq = json_int(job_named(root, "t"), "total.trim.ios", -1);
		EXPECT_TRUE(near(bq, 400, 25, 0)) TH_LOG("%s: %lld trims in 2 s", rates[i], bq);
		EXPECT_EQ(bq, d1 - d0) TH_LOG("%s: the device's discards", rates[i]);
		json_object_put(root);
		run_result_free(&r);
		if (!have_fio()) {
			TH_LOG("fio is not installed: not compared with fio");
			continue;
		}
		fio = fio_run_json(args);
		ASSERT_NE(NULL, fio) TH_LOG("fio failed");
		EXPECT_TRUE(near(fio_total_ios(fio, "trim"), 400, 25, 0))
			TH_LOG("%s: blkqual %lld, fio %lld trims", rates[i], bq,
			       fio_total_ios(fio, "trim"));
		TH_LOG("%s, 2 s: blkqual %lld trims (device %lld), fio %lld", rates[i], bq,
		       d1 - d0, fio_total_ios(fio, "trim"));
		json_object_put(fio);
	}
}

/* Reads of a 1 s job at 1000/s, through blkqual and through fio. */
static void one_second_at_1000(struct __test_metadata *_metadata, const char *const *args,
			       const char *const *fio_args, double tol, double over)
{
	struct run_result r;
	json_object *root, *fio;
	long long bq, f;

	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	bq = json_int(job_named(root, "o"), "total.read.ios", -1);
	EXPECT_TRUE(near(bq, 1000, tol, over)) TH_LOG("%s %s: %lld reads in 1 s", args[6], args[9], bq);
	json_object_put(root);
	run_result_free(&r);
	if (!have_fio()) {
		TH_LOG("fio is not installed: not compared with fio");
		return;
	}
	fio = fio_run_json(fio_args);
	ASSERT_NE(NULL, fio) TH_LOG("fio failed");
	f = fio_total_ios(fio, "read");
	/* Both keep the schedule; under load either may lag, so each is held to it. */
	EXPECT_TRUE(near(f, 1000, tol, over)) TH_LOG("%s %s: blkqual %lld, fio %lld reads",
						     args[6], args[9], bq, f);
	TH_LOG("%s %s %s, 1 s at 1000/s: blkqual %lld, fio (%s) %lld reads", args[6], args[9],
	       args[10], bq, fio_args[10], f);
	json_object_put(fio);
}

/*
 * offload: the reads go on the rate schedule whatever is in flight; a
 * second at 1000/s, linear and poisson (fio's fixed- and
 * poisson-rate-submission examples).  fio 3.33 often never finishes a
 * job with offload (its submitter pool hangs at the end: always with
 * libaio here, now and then with psync), so the counts are compared with
 * fio's inline submission of the same job, which a device this fast
 * keeps on schedule too.
 */
TEST_F_TIMEOUT(dev, offload_keeps_the_schedule_as_fio, 60)
{
	const char *procs[] = { "--rate_process=linear", "--rate_process=poisson" };

	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(procs); i++) {
		const char *sync[] = { self->opt, "--name=o", "--rw=randread", "--bs=4k",
				       "--direct=1", "--runtime=1", "--ioengine=psync",
				       "--iodepth=1", "--rate_iops=1000", procs[i],
				       "--io_submit_mode=offload", "--time_based", NULL };
		const char *sync_inline[] = { self->opt, "--name=o", "--rw=randread", "--bs=4k",
					      "--direct=1", "--runtime=1", "--ioengine=psync",
					      "--iodepth=1", "--rate_iops=1000", procs[i],
					      "--io_submit_mode=inline", "--time_based", NULL };
		const char *aio[] = { self->opt, "--name=o", "--rw=randread", "--bs=4k",
				      "--direct=1", "--runtime=1", "--ioengine=libaio",
				      "--iodepth=16", "--rate_iops=1000", procs[i],
				      "--io_submit_mode=offload", "--time_based", NULL };
		const char *aio_inline[] = { self->opt, "--name=o", "--rw=randread", "--bs=4k",
					     "--direct=1", "--runtime=1", "--ioengine=libaio",
					     "--iodepth=16", "--rate_iops=1000", procs[i],
					     "--io_submit_mode=inline", "--time_based", NULL };
		/* Poisson's count varies by about its square root (~3%): it may pass the mean. */
		double tol = i ? 10 : 5, over = i ? 10 : 0;

		one_second_at_1000(_metadata, sync, sync_inline, tol, over);
		one_second_at_1000(_metadata, aio, aio_inline, tol, over);
	}
}

/* ---- a small XFS ------------------------------------------------------- */

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char file[400];
	char opt[420];
	char jobfile[400];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	/* The smallest XFS mkfs.xfs makes: the fills stay short. */
	scratchfs_xfs(&self->p, &self->fs, 300LL << 20);
	snprintf(self->file, sizeof(self->file), "%s/filled", self->fs.mnt);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->file);
	snprintf(self->jobfile, sizeof(self->jobfile), "%s/scan.fio", self->fs.s.dir);
}

FIXTURE_TEARDOWN(xfs)
{
	unlink(self->file);
	unlink(self->jobfile);
	scratchfs_destroy(&self->fs);
}

static long long fs_free(const char *dir)
{
	struct statvfs v;

	return statvfs(dir, &v) ? -1 : (long long)v.f_bavail * (long long)v.f_frsize;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/*
 * fill_fs writes the file until ENOSPC, which ends the job without an
 * error: what it wrote is the free space, less what does not hold a
 * whole block, and exactly what fio writes on the same filesystem (fio
 * makes the file again, so both start from the same free space).
 */
TEST_F_TIMEOUT(xfs, fill_fs_to_enospc_as_fio, 60)
{
	const char *args[] = { self->opt, "--name=f", "--rw=write", "--bs=64k", "--direct=1",
			       "--ioengine=psync", "--fill_fs=1", NULL };
	long long free0, bytes, fbytes;
	struct run_result r;
	json_object *root, *fio;

	PREP_READY(&self->p);
	free0 = fs_free(self->fs.mnt);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	bytes = json_int(job_named(root, "f"), "total.write.bytes", -1);
	EXPECT_EQ(bytes / (64 << 10), json_int(job_named(root, "f"), "total.write.ios", -1));
	EXPECT_EQ(0, json_int(job_named(root, "f"), "total.write.errors", -1));
	EXPECT_LE(bytes, free0);
	EXPECT_GT(bytes, free0 - (1LL << 20)) TH_LOG("%lld of %lld free bytes", bytes, free0);
	EXPECT_EQ(bytes, file_size(self->file));
	EXPECT_LT(fs_free(self->fs.mnt), 64 << 10);
	json_object_put(root);
	run_result_free(&r);
	if (!have_fio())
		SKIP(return, "fio is not installed: not compared with fio");
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio) TH_LOG("fio failed");
	fbytes = fio_job_bytes(fio, "f", "write");
	EXPECT_EQ(fbytes, bytes);
	TH_LOG("%lld bytes free: blkqual wrote %lld, fio %lld (%lld I/Os)", free0, bytes, fbytes,
	       fio_total_ios(fio, "write"));
	/* fio's I/O count has the write that met ENOSPC too. */
	EXPECT_EQ(fbytes / (64 << 10) + 1, fio_total_ios(fio, "write"));
	json_object_put(fio);
}

/*
 * fio's surface scan, in other sizes: fill the filesystem with headers
 * and a pattern, then a stonewalled job reads it all back and checks each
 * 1 KiB block; a byte changed in the pattern is found.
 */
TEST_F_TIMEOUT(xfs, fill_then_verify_scan, 60)
{
	const char *args[] = { self->jobfile, NULL };
	long long bytes, fbytes;
	struct run_result r;
	json_object *root, *fio, *scan;
	FILE *f;
	int fd;

	PREP_READY(&self->p);
	/* fio keeps its verify state (local-*-verify.state) in the current directory. */
	ASSERT_EQ(0, chdir(self->fs.s.dir));
	f = fopen(self->jobfile, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\nbs=32k\ndirect=1\nioengine=sync\nverify=meta\n"
		"verify_pattern=0x5aa5c33c\nverify_interval=1024\nfilename=%s\n"
		"[fill]\nrw=write\nfill_device=1\ndo_verify=0\n"
		"[scan]\nstonewall\ncreate_serialize=0\nrw=read\ndo_verify=1\n", self->file);
	fclose(f);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	bytes = json_int(job_named(root, "fill"), "total.write.bytes", -1);
	EXPECT_LT(300LL << 20 >> 1, bytes);
	scan = job_named(root, "scan");
	EXPECT_EQ(bytes, json_int(scan, "total.read.bytes", -1));
	EXPECT_EQ(bytes / 1024, json_int(scan, "verify.blocks_checked", -1));
	EXPECT_EQ(0, json_int(scan, "verify.bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);

	/* One byte of the pattern, in the middle of the second 1 KiB block. */
	fd = open(self->file, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, pwrite(fd, "\0", 1, 1024 + 700));
	fsync(fd);
	close(fd);
	ASSERT_EQ(0, run_blkqual(&r, "run", "-o", "json", "--section=scan", self->jobfile, NULL));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "1 bad block")) TH_LOG("%s", r.err);
	run_result_free(&r);

	if (!have_fio())
		SKIP(return, "fio is not installed: not compared with fio");
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio) TH_LOG("fio failed");
	fbytes = fio_job_bytes(fio, "fill", "write");
	EXPECT_EQ(fbytes, bytes);
	EXPECT_EQ(fbytes, fio_job_bytes(fio, "scan", "read"));
	TH_LOG("filled and scanned: blkqual %lld bytes, fio %lld", bytes, fbytes);
	json_object_put(fio);
}

TEST_HARNESS_MAIN
