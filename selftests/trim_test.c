// SPDX-License-Identifier: GPL-2.0-only
/*
 * trim_test.c - fio's trim workloads: rw=trim, randtrim, trimwrite,
 * randtrimwrite
 *
 * The truth is outside blkqual: the loop device's discard counters
 * (/sys/block/loopN/stat, fields 12 and 14), the blocks its backing file
 * still has allocated (a loop device discards by punching holes), and
 * fio 3.33 run on the same job.  The data-safety guard must refuse trims
 * wherever it refuses writes.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/jobs.h"
#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "job/jobopt.h"

#define DEV_SIZE	(64LL << 20)
#define JOB_SIZE	(16LL << 20)
#define JOB_BS		(64 << 10)
#define JOB_IOS		(JOB_SIZE / JOB_BS)

TEST(rw_trim_values)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, PARSE(&job, &err, "rw=trim")) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_TRIM_ONLY, job.trim);
	EXPECT_EQ(BQ_RW_WRITE, job.rw);
	EXPECT_STREQ("trim", bq_job_trim_rw_name(&job));
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "readwrite=randtrim:8")) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_TRIM_ONLY, job.trim);
	EXPECT_EQ(BQ_RW_RANDWRITE, job.rw);
	EXPECT_EQ(8, job.seq_nr);
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rw=trimwrite")) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_TRIM_WRITE, job.trim);
	EXPECT_STREQ("trimwrite", bq_job_trim_rw_name(&job));
	bq_job_release(&job);
	ASSERT_EQ(0, PARSE(&job, &err, "rw=randtrimwrite")) TH_LOG("%s", err.msg);
	EXPECT_STREQ("randtrimwrite", bq_job_trim_rw_name(&job));
	bq_job_release(&job);
	/* A later rw= that is no trim forgets the trims. */
	ASSERT_EQ(0, PARSE(&job, &err, "rw=trim", "rw=randread")) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_TRIM_NONE, job.trim);
	EXPECT_EQ(NULL, bq_job_trim_rw_name(&job));
	bq_job_release(&job);
	/* ...and a bad one keeps them. */
	EXPECT_EQ(-EINVAL, PARSE(&job, &err, "rw=trim", "rw=read:x"));
	EXPECT_EQ(BQ_TRIM_ONLY, job.trim);
	bq_job_release(&job);
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trim", "ioengine=null")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trim", "ioengine=psync", "bs=4k,64k"))
		TH_LOG("%s", err.msg);

	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=trims"));
	EXPECT_EQ(-EINVAL, PARSE(NULL, &err, "rw=randtrim:x"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trim", "verify=crc32c"));
	EXPECT_STREQ("rw=trim: verify= of a trim workload is not supported", err.msg);
	/* rate's trim value caps the trims (fill_test.c); trimwrite's writes are not capped. */
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=randtrim", "rate=1m"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trimwrite", "rate_iops=100"));
	/* io_uring_cmd trims are NVMe DSM commands (nvme_cmd_opts_test, guest_nvme_cmd_test). */
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trim", "ioengine=io_uring_cmd"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trim", "thinktime=100"));
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=randtrim", "ss_dur=10", "ss=iops:1%"));
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trim", "rate=0", "number_ios=8", "ramp_time=1"))
		TH_LOG("%s", err.msg);
	/* A third (trim) block size stays refused, named. */
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=trim", "bs=4k,4k,8k"));
	/* fio's verify trims: with verify, only where fio 3.33 does them (trim_verify_test.c) */
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=write", "trim_percentage=10")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, PARSE(NULL, &err, "rw=write", "verify=md5", "trim_percentage=10",
				     "trim_backlog=4"));
	EXPECT_NE(NULL, strstr(err.msg, "trimwrite")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, PARSE(NULL, &err, "rw=trimwrite", "verify=md5", "trim_verify_zero=1",
			   "trim_percentage=10", "trim_backlog=4", "trim_backlog_batch=4"))
		TH_LOG("%s", err.msg);
}

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char opt[96];
};

/* Fill the whole device with non-zero data, to the backing file's disk. */
static int fill(const char *dev)
{
	size_t chunk = 1 << 20;
	uint8_t *buf;
	int fd, ret = 0;

	if (posix_memalign((void **)&buf, 4096, chunk))
		return -ENOMEM;
	for (size_t i = 0; i < chunk; i++)
		buf[i] = (uint8_t)(i * 7 + 1) | 1;
	fd = open(dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (off_t off = 0; off < DEV_SIZE && !ret; off += (off_t)chunk)
		if (pwrite(fd, buf, chunk, off) != (ssize_t)chunk)
			ret = -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	close(fd);
	free(buf);
	return ret;
}

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "filling the device", fill(self->s.dev));
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/* The device's discard I/Os and sectors so far (fields 12 and 14). */
static void discards(const char *dev, long long *ios, long long *sectors)
{
	char path[128], buf[512];
	unsigned long long f[17] = { 0 };
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", strrchr(dev, '/') + 1);
	*ios = *sectors = -1;
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (fgets(buf, sizeof(buf), fp) &&
	    sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
		   &f[11], &f[12], &f[13], &f[14]) == 14) {
		*ios = (long long)f[12];
		*sectors = (long long)f[14];
	}
	fclose(fp);
}

/* Whether [off, off + len) of @path reads back as zeros. */
static int zeros(const char *path, off_t off, size_t len)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC), ret = -1;
	uint8_t *buf = NULL;

	/* O_DIRECT: what the device holds, not what its page cache kept. */
	if (posix_memalign((void **)&buf, 4096, len))
		buf = NULL;
	if (fd >= 0 && buf && pread(fd, buf, len, off) == (ssize_t)len) {
		ret = 1;
		for (size_t i = 0; i < len; i++)
			if (buf[i]) {
				ret = 0;
				break;
			}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* Bytes the backing file has allocated, once what the loop device wrote is on disk. */
static long long allocated(const char *file)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	struct stat st;
	long long ret = -1;

	if (fd < 0)
		return -1;
	if (!fsync(fd) && !fstat(fd, &st))
		ret = (long long)st.st_blocks * 512;
	close(fd);
	return ret;
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/*
 * One job through blkqual, then through fio: the trims (and writes) each
 * counted must be the size over the block size, in both tools and in the
 * device's discard counters.
 */
static void same_as_fio_and_device(struct __test_metadata *_metadata, const struct scratch *sc,
				   const char *rw, const char *engine, long long writes,
				   long long *after, bool *data)
{
	const char *dev = sc->dev, *backing = sc->file;
	char dev_opt[96];
	const char *args[] = { dev_opt, rw, "--bs=64k", "--size=16m", "--iodepth=4",
			       "--direct=1", engine, "--name=t", NULL };
	long long ios0, sec0, ios1, sec1;
	struct run_result r;
	json_object *root, *fio;

	snprintf(dev_opt, sizeof(dev_opt), "--filename=%s", dev);
	discards(dev, &ios0, &sec0);
	ASSERT_LE(0, ios0) TH_LOG("no discard fields in /sys/block/*/stat");
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%s: exit %d: %s", rw, r.status, r.err);
	discards(dev, &ios1, &sec1);
	*after = allocated(backing);
	*data = !zeros(dev, 0, JOB_BS) && !zeros(dev, JOB_SIZE - JOB_BS, JOB_BS);
	EXPECT_EQ(JOB_IOS, json_int(job0(root), "total.trim.ios", -1)) TH_LOG("%s", rw);
	EXPECT_EQ(JOB_SIZE, json_int(job0(root), "total.trim.bytes", -1)) TH_LOG("%s", rw);
	EXPECT_EQ(0, json_int(job0(root), "total.trim.errors", -1)) TH_LOG("%s", rw);
	EXPECT_EQ(writes, json_int(job0(root), "total.write.ios", -1)) TH_LOG("%s", rw);
	EXPECT_EQ(0, json_int(job0(root), "total.read.ios", -1)) TH_LOG("%s", rw);
	EXPECT_EQ(JOB_IOS, ios1 - ios0) TH_LOG("%s: the device's discards", rw);
	EXPECT_EQ(JOB_SIZE / 512, sec1 - sec0) TH_LOG("%s: the device's discarded sectors", rw);
	json_object_put(root);
	run_result_free(&r);
	if (!have_fio()) {
		TH_LOG("fio is not installed: not compared with fio");
		return;
	}
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio) TH_LOG("%s: fio failed", rw);
	EXPECT_EQ(JOB_IOS, fio_total_ios(fio, "trim")) TH_LOG("%s: fio's trims", rw);
	EXPECT_EQ(writes, fio_total_ios(fio, "write")) TH_LOG("%s: fio's writes", rw);
	EXPECT_EQ(0, fio_total_ios(fio, "read")) TH_LOG("%s: fio's reads", rw);
	json_object_put(fio);

}

TEST_F(dev, trim_counts_as_fio_and_device)
{
	long long before = -1, after;
	bool data;

	PREP_READY(&self->p);
	before = allocated(self->s.file);
	same_as_fio_and_device(_metadata, &self->s, "--rw=trim", "--ioengine=io_uring", 0,
			       &after, &data);
	/* The loop device punched the holes: 16 MiB fewer blocks behind it. */
	EXPECT_EQ(before - JOB_SIZE, after);
	EXPECT_FALSE(data);
	same_as_fio_and_device(_metadata, &self->s, "--rw=randtrim", "--ioengine=libaio", 0,
			       &after, &data);
	same_as_fio_and_device(_metadata, &self->s, "--rw=trim", "--ioengine=psync", 0,
			       &after, &data);
}

/*
 * trimwrite: each block trimmed, then written, as fio alternates them
 * (trim at the write's offset when the last two starts are equal, write
 * otherwise); in the other order the region would be holes reading zeros.
 */
TEST_F(dev, trimwrite_alternates_as_fio)
{
	long long before, after;
	bool data;

	PREP_READY(&self->p);
	before = allocated(self->s.file);
	same_as_fio_and_device(_metadata, &self->s, "--rw=trimwrite", "--ioengine=io_uring",
			       JOB_IOS, &after, &data);
	EXPECT_EQ(before, after);
	EXPECT_TRUE(data);
	ASSERT_EQ(0, fill(self->s.dev));
	same_as_fio_and_device(_metadata, &self->s, "--rw=randtrimwrite", "--ioengine=libaio",
			       JOB_IOS, &after, &data);
	EXPECT_EQ(before, after);
}

/*
 * Two threads trimming and writing the same blocks through the page cache,
 * summed by group_reporting: as many trims and writes as fio's, every one
 * a discard the device counted.
 */
TEST_F(dev, group_of_buffered_threads_as_fio)
{
	const char *args[] = { self->opt, "--rw=trimwrite", "--bs=64k", "--size=8m",
			       "--numjobs=2", "--group_reporting", "--name=t", NULL };
	long long ios0, sec0, ios1, sec1;
	struct run_result r;
	json_object *root, *g, *fio;

	PREP_READY(&self->p);
	discards(self->s.dev, &ios0, &sec0);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	discards(self->s.dev, &ios1, &sec1);
	g = json_object_array_get_idx(json_object_object_get(root, "groups"), 0);
	EXPECT_EQ(JOB_IOS, json_int(g, "trim.ios", -1));
	EXPECT_EQ(JOB_IOS, json_int(g, "write.ios", -1));
	EXPECT_EQ(0, json_int(g, "trim.errors", -1));
	EXPECT_EQ(JOB_IOS, ios1 - ios0);
	json_object_put(root);
	run_result_free(&r);
	if (!have_fio())
		SKIP(return, "fio is not installed: not compared with fio");
	fio = fio_run_json(args);
	ASSERT_NE(NULL, fio);
	EXPECT_EQ(JOB_IOS, fio_total_ios(fio, "trim"));
	EXPECT_EQ(JOB_IOS, fio_total_ios(fio, "write"));
	json_object_put(fio);
}

/* A regular file's trims are punched holes; the file keeps its size. */
TEST_F(dev, file_trims_punch_holes)
{
	char path[400], opt[420];
	const char *args[] = { opt, "--rw=trim", "--bs=64k", "--size=8m", "--name=t", NULL };
	struct run_result r;
	json_object *root;
	struct stat st;

	PREP_READY(&self->p);
	snprintf(path, sizeof(path), "%s/file", self->s.dir);
	snprintf(opt, sizeof(opt), "--filename=%s", path);
	ASSERT_EQ(0, random_file(path, JOB_SIZE));
	ASSERT_EQ(0, stat(path, &st));
	ASSERT_LE(JOB_SIZE, (long long)st.st_blocks * 512);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(JOB_IOS / 2, json_int(job0(root), "total.trim.ios", -1));
	EXPECT_EQ(JOB_SIZE / 2, json_int(job0(root), "total.trim.bytes", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(JOB_SIZE, (long long)st.st_size);
	EXPECT_EQ(JOB_SIZE / 2, (long long)st.st_blocks * 512);
	EXPECT_EQ(1, zeros(path, 0, JOB_SIZE / 2));
	unlink(path);
}

/* Trims are writes to the guard: an ext4 device is refused for both. */
TEST_F(dev, guard_refuses_trims_where_it_refuses_writes)
{
	const char *rws[] = { "--rw=trim", "--rw=randtrim", "--rw=trimwrite", "--rw=write" };
	long long ios0, sec0, ios1, sec1;
	uint64_t sum0, sum1;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s.dev));
	ASSERT_EQ(0, checksum_path(self->s.dev, &sum0));
	discards(self->s.dev, &ios0, &sec0);
	for (size_t i = 0; i < sizeof(rws) / sizeof(rws[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--name=t", self->opt, rws[i], "--bs=64k",
					 "--size=16m", (char *)NULL));
		EXPECT_NE(0, r.status) TH_LOG("%s ran on an ext4 device", rws[i]);
		EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s: %s", rws[i], r.err);
		EXPECT_NE(NULL, strstr(r.err, "ext4")) TH_LOG("%s: %s", rws[i], r.err);
		run_result_free(&r);
	}
	discards(self->s.dev, &ios1, &sec1);
	EXPECT_EQ(ios0, ios1) TH_LOG("a refused job discarded");
	ASSERT_EQ(0, checksum_path(self->s.dev, &sum1));
	EXPECT_EQ(sum0, sum1);
}

TEST_HARNESS_MAIN
