// SPDX-License-Identifier: GPL-2.0-only
/*
 * errors_test.c - fio's error filters and verify dumps: continue_on_error's
 * kinds, ignore_error, error_dump and verify_dump
 *
 * The truth is fio 3.33 on the same job file: a small tmpfs that fills up
 * gives the same ENOSPC at the same I/O to both, so their counts must
 * match; fio's own verify_dump names its files, and blkqual's must be
 * the same names with the bytes the block held and was meant to hold.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/jobs.h"
#include "io/errfilter.h"
#include "job/jobopt.h"

/* ---- parsing ------------------------------------------------------------- */

TEST(continue_on_error_kinds)
{
	static const struct {
		const char *val;
		unsigned int types;
	} cases[] = {
		{ "none", 0 }, { "0", 0 }, { "read", 1 }, { "write", 2 }, { "io", 3 },
		{ "verify", 4 }, { "all", BQ_ERR_TYPES_ALL }, { "1", BQ_ERR_TYPES_ALL },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bq_job_defaults(&job);
		EXPECT_EQ(0, bq_job_set(&job, "continue_on_error", cases[i].val, &err));
		EXPECT_EQ(cases[i].types, job.error_types) TH_LOG("%s", cases[i].val);
		EXPECT_EQ(cases[i].types != 0, job.continue_on_error);
	}
	EXPECT_EQ(-EINVAL, set1("continue_on_error", "some", NULL, &err));
}

TEST(ignore_error_lists)
{
	struct bq_parse_error err;
	struct bq_job job;

	/* fio's HOWTO example: EAGAIN for reads; ENOSPC and 122 (EDQUOT) for writes. */
	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", "EAGAIN,ENOSPC:122", &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, job.nr_ignore[BQ_ERR_READ]);
	EXPECT_EQ(EAGAIN, job.ignore[BQ_ERR_READ][0]);
	EXPECT_EQ(2, job.nr_ignore[BQ_ERR_WRITE]);
	EXPECT_EQ(ENOSPC, job.ignore[BQ_ERR_WRITE][0]);
	EXPECT_EQ(122, job.ignore[BQ_ERR_WRITE][1]);
	EXPECT_EQ(0, job.nr_ignore[BQ_ERR_VERIFY]);
	/* A list switches its kind on, as if continue_on_error named it. */
	EXPECT_EQ(3u, job.error_types);
	EXPECT_TRUE(job.continue_on_error);

	/* Empty slots, blanks around, a negative number, and an empty element ends a list. */
	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", " ,ENOSPC::EIO,-84 ", &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(0, job.nr_ignore[BQ_ERR_READ]);
	EXPECT_FALSE(job.ignore_set[BQ_ERR_READ]);
	EXPECT_EQ(1, job.nr_ignore[BQ_ERR_WRITE]);
	EXPECT_EQ(1, job.nr_ignore[BQ_ERR_VERIFY]);
	EXPECT_EQ(EILSEQ, job.ignore[BQ_ERR_VERIFY][0]);
	EXPECT_EQ(6u, job.error_types);

	/* fio knows 34 names (EPERM .. ERANGE); others by number only. */
	EXPECT_EQ(-EINVAL, set1("ignore_error", "EILSEQ", NULL, &err));
	EXPECT_STREQ("ignore_error=EILSEQ: unknown error EILSEQ: use its number", err.msg);
	EXPECT_EQ(-EINVAL, set1("ignore_error", ",ENOSPACE", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ignore_error", "nospc", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ignore_error", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("ignore_error", "EIO,EIO,EIO,EIO", NULL, &err));
	EXPECT_STREQ("ignore_error=EIO,EIO,EIO,EIO: only three types: read, write, verify",
		     err.msg);
	EXPECT_EQ(0, set1("ignore_error", "ERANGE,EPERM,28", NULL, &err)) TH_LOG("%s", err.msg);

	/* A refused value changes nothing. */
	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", ",ENOSPC", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "ignore_error", "EIO,EBOGUS", &err));
	EXPECT_EQ(0, job.nr_ignore[BQ_ERR_READ]);
	EXPECT_EQ(1, job.nr_ignore[BQ_ERR_WRITE]);
	EXPECT_EQ(2u, job.error_types);

	EXPECT_EQ(0, set1("error_dump", "1", &job, &err));
	EXPECT_TRUE(job.error_dump);
	EXPECT_EQ(0, set1("verify_dump", NULL, &job, &err));
	EXPECT_TRUE(job.verify_dump);
	EXPECT_EQ(-EINVAL, set1("verify_dump", "2", NULL, &err));
}

/* fio's td_error_type() and td_non_fatal_error(), case by case. */
TEST(verdicts_are_fios)
{
	struct bq_parse_error err;
	struct bq_job job;

	bq_job_defaults(&job);
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_READ, EIO));
	ASSERT_EQ(0, bq_job_set(&job, "continue_on_error", "all", &err));
	/* Only EIO and EILSEQ go on by default. */
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_READ, EIO));
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_WRITE, EILSEQ));
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_WRITE, ENOSPC));
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_READ, EINVAL));

	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "continue_on_error", "write", &err));
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", ",ENOSPC", &err));
	EXPECT_EQ(BQ_ERR_IGNORED, bq_error_verdict(&job, BQ_WRITE, ENOSPC));
	/* The list replaces EIO for writes, and reads were never on. */
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_WRITE, EIO));
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_READ, ENOSPC));
	/* EILSEQ is a verify error whatever the direction: that kind is off. */
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_WRITE, EILSEQ));

	/* run --continue-on-error goes on after any errno; listed ones stay expected. */
	bq_job_defaults(&job);
	job.continue_on_error = job.continue_any = true;
	job.error_types = BQ_ERR_TYPES_ALL;
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_WRITE, ENOSPC));
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_READ, ENODATA));
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", ",ENOSPC", &err));
	EXPECT_EQ(BQ_ERR_IGNORED, bq_error_verdict(&job, BQ_WRITE, ENOSPC));
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_WRITE, EINVAL));

	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "continue_on_error", "write", &err));
	ASSERT_EQ(0, bq_job_set(&job, "ignore_error", ",ENOSPC", &err));
	/* continue_on_error after ignore_error sets the kinds anew, as in fio. */
	ASSERT_EQ(0, bq_job_set(&job, "continue_on_error", "read", &err));
	EXPECT_EQ(BQ_ERR_FATAL, bq_error_verdict(&job, BQ_WRITE, ENOSPC));
	EXPECT_EQ(BQ_ERR_GO_ON, bq_error_verdict(&job, BQ_READ, EIO));
}

/* ---- a tmpfs that fills up ------------------------------------------------- */

#define FS_SIZE		(2 << 20)	/* 32 writes of 64 KiB fit */
#define FILE_SIZE	(8 << 20)	/* 128 writes are asked for */

FIXTURE(full)
{
	struct prep p;
	char dir[64];
	char mnt[96];
	char file[128];
	char jobfile[128];
	bool mounted;
};

FIXTURE_SETUP(full)
{
	const char *why = need_root();

	if (why) {
		prep_skip(&self->p, why);
		return;
	}
	snprintf(self->dir, sizeof(self->dir), "/tmp/blkqual-errors-XXXXXX");
	prep_fail(&self->p, "mkdtemp", mkdtemp(self->dir) ? 0 : -errno);
	snprintf(self->mnt, sizeof(self->mnt), "%s/mnt", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/data", self->mnt);
	snprintf(self->jobfile, sizeof(self->jobfile), "%s/job.fio", self->dir);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "mkdir", mkdir(self->mnt, 0755) ? -errno : 0);
	/* A mount namespace of the test's own: the tmpfs goes with it. */
	if (prep_ok(&self->p))
		prep_fail(&self->p, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS) ? -errno : 0);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "making mounts private",
			  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? -errno : 0);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "mounting a tmpfs",
			  mount("none", self->mnt, "tmpfs", 0, "size=2m") ? -errno : 0);
	self->mounted = prep_ok(&self->p);
}

FIXTURE_TEARDOWN(full)
{
	if (self->mounted) {
		unlink(self->file);
		umount2(self->mnt, MNT_DETACH);
	}
	if (self->dir[0] == '/') {
		unlink(self->jobfile);
		rmdir(self->mnt);
		rmdir(self->dir);
	}
}

/* A sparse file bigger than the filesystem, freshly made for each tool. */
static int fresh_file(const char *path)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, FILE_SIZE)) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

static int write_job(const char *path, const char *file, const char *extra)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "[fill]\nfilename=%s\nioengine=psync\nrw=write\nbs=64k\nsize=%d\n%s",
		file, FILE_SIZE, extra);
	return fclose(f) ? -errno : 0;
}

static json_object *blkqual_job_json(struct run_result *r, const char *jobfile, bool want_ok)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", jobfile, NULL };

	if (run_argv(argv, r))
		return NULL;
	if (want_ok != !r->status)
		return NULL;
	return json_tokener_parse(r->out);
}

/* The first job of a JSON document (blkqual's or fio's). */
static json_object *job0(json_object *root)
{
	json_object *jobs;

	if (!root || !json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_array_length(jobs))
		return NULL;
	return json_object_array_get_idx(jobs, 0);
}

static int count_str(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * ignore_error=,ENOSPC: every write past the 32nd fails, each is counted
 * and gone past, and none fails the run; fio counts the same.
 */
TEST_F(full, ignored_enospc_counts_match_fio)
{
	struct run_result r;
	json_object *root, *froot;
	long long ios, bytes, errors;

	PREP_READY(&self->p);
	ASSERT_EQ(0, write_job(self->jobfile, self->file,
			       "continue_on_error=write\nignore_error=,ENOSPC\n"));
	ASSERT_EQ(0, fresh_file(self->file));
	root = blkqual_job_json(&r, self->jobfile, true);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	ios = json_int(job0(root), "total.write.ios", -1);
	bytes = json_int(job0(root), "total.write.bytes", -1);
	errors = json_int(job0(root), "total.write.errors", -1);
	EXPECT_EQ(FS_SIZE / (64 << 10), ios);
	EXPECT_EQ(FS_SIZE, bytes);
	EXPECT_EQ((FILE_SIZE - FS_SIZE) / (64 << 10), errors);
	EXPECT_EQ(errors, json_int(job0(root), "ignored_errors", -1));
	/* error_dump is off (fio's default too): no line per failure. */
	EXPECT_EQ(0, count_str(r.err, "failed: No space left on device")) TH_LOG("%s", r.err);
	json_object_put(root);
	run_result_free(&r);

	if (!have_fio())
		SKIP(return, "fio is not installed: blkqual's counts were not compared with fio's");
	ASSERT_EQ(0, fresh_file(self->file));
	froot = fio_run_json((const char *const[]){ self->jobfile, NULL });
	ASSERT_NE(NULL, froot);
	/* fio's total_ios counts the failed I/Os too. */
	EXPECT_EQ(ios + errors, fio_total_ios(froot, "write"));
	EXPECT_EQ(bytes, json_int(job0(froot), "write.io_bytes", -2));
	EXPECT_EQ(errors, json_int(job0(froot), "total_err", -2));
	json_object_put(froot);
}

/* error_dump=1: one line on standard error per failed I/O, as fio prints them. */
TEST_F(full, error_dump_is_one_line_per_failure)
{
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, write_job(self->jobfile, self->file, "ignore_error=,ENOSPC\nerror_dump=1\n"));
	ASSERT_EQ(0, fresh_file(self->file));
	root = blkqual_job_json(&r, self->jobfile, true);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ((FILE_SIZE - FS_SIZE) / (64 << 10),
		  count_str(r.err, "failed: No space left on device (ENOSPC)")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "fill: write of ")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, " at offset 2097152, length 65536 failed")) TH_LOG("%s", r.err);
	json_object_put(root);
	run_result_free(&r);
}

/*
 * Plain continue_on_error goes on after EIO only: ENOSPC stops the job
 * at the first full write (fio: 33 I/Os issued, 32 done), and fails it.
 */
TEST_F(full, enospc_without_ignore_error_is_fatal)
{
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, write_job(self->jobfile, self->file, "continue_on_error=all\n"));
	ASSERT_EQ(0, fresh_file(self->file));
	root = blkqual_job_json(&r, self->jobfile, false);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(FS_SIZE / (64 << 10), json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ(1, json_int(job0(root), "total.write.errors", -1));
	EXPECT_EQ(-1, json_int(job0(root), "ignored_errors", -1));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * blkqual's own run --continue-on-error goes on after any errno: every
 * write is tried, the failures are counted and fail the run.
 */
TEST_F(full, cli_continue_on_error_goes_on_after_any_errno)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       "--continue-on-error", self->jobfile, NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, write_job(self->jobfile, self->file, ""));
	ASSERT_EQ(0, fresh_file(self->file));
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(1, r.status);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(FS_SIZE / (64 << 10), json_int(job0(root), "total.write.ios", -1));
	EXPECT_EQ((FILE_SIZE - FS_SIZE) / (64 << 10),
		  json_int(job0(root), "total.write.errors", -1));
	EXPECT_EQ(-1, json_int(job0(root), "ignored_errors", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* ---- verify_dump ------------------------------------------------------------ */

#define DEV_SIZE	(16LL << 20)
#define BAD_OFF		(5 * 4096LL)

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char cwd[300];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->cwd, sizeof(self->cwd), "%s/dumps", self->s.dir);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "mkdir", mkdir(self->cwd, 0755) ? -errno : 0);
}

FIXTURE_TEARDOWN(dev)
{
	/* The dumps, and the verify state blkqual keeps in the current directory. */
	DIR *d = self->cwd[0] == '/' ? opendir(self->cwd) : NULL;
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	if (self->cwd[0] == '/')
		rmdir(self->cwd);
	scratch_destroy(&self->s);
}

static int read_at(const char *path, off_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, off);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/* Damage the block behind the loop device's back, in its backing file. */
static int corrupt(const char *file, off_t off)
{
	static const char junk[] = "corrupted by errors_test";
	int fd = open(file, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (pwrite(fd, junk, sizeof(junk), off) != (ssize_t)sizeof(junk) || fsync(fd))
		ret = -EIO;
	close(fd);
	return ret;
}

static int file_equals(const char *path, const void *want, size_t len)
{
	char *got = malloc(len + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0 || !got) {
		ret = -errno;
	} else {
		ssize_t n = read(fd, got, len + 1);

		ret = n == (ssize_t)len && !memcmp(got, want, len) ? 1 : 0;
	}
	if (fd >= 0)
		close(fd);
	free(got);
	return ret;
}

/*
 * A block written with verify=crc32c, damaged in the backing file, read
 * back with verify_dump=1: DEV.OFFSET.received holds what the device
 * returned, DEV.OFFSET.expected what was written, in the current
 * directory; a second run leaves both alone.
 */
TEST_F(dev, verify_dump_writes_both_images_once)
{
	char devopt[96], exp_path[512], got_path[512];
	uint8_t orig[4096], bad[4096];
	const char *base = strrchr(self->s.dev, '/') + 1;
	struct run_result r;
	struct stat st;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, chdir(self->cwd));
	snprintf(devopt, sizeof(devopt), "--filename=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", devopt, "--name=w", "--rw=write",
				 "--bs=4k", "--size=1m", "--direct=1", "--verify=crc32c",
				 "--do_verify=0", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, read_at(self->s.file, BAD_OFF, orig, sizeof(orig)));
	ASSERT_EQ(0, corrupt(self->s.file, BAD_OFF + 1000));
	ASSERT_EQ(0, read_at(self->s.file, BAD_OFF, bad, sizeof(bad)));
	ASSERT_NE(0, memcmp(orig, bad, sizeof(bad)));

	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "-o", "json", devopt, "--name=r",
				 "--rw=read", "--bs=4k", "--size=1m", "--direct=1",
				 "--verify=crc32c", "--verify_dump=1", NULL));
	EXPECT_EQ(1, r.status);
	snprintf(got_path, sizeof(got_path), "%s/%s.%lld.received", self->cwd, base, BAD_OFF);
	snprintf(exp_path, sizeof(exp_path), "%s/%s.%lld.expected", self->cwd, base, BAD_OFF);
	EXPECT_NE(NULL, strstr(r.err, got_path)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, exp_path)) TH_LOG("%s", r.err);
	EXPECT_EQ(1, file_equals(got_path, bad, sizeof(bad)));
	EXPECT_EQ(1, file_equals(exp_path, orig, sizeof(orig)));
	/* The report says how many were dumped, and where. */
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.out);
	EXPECT_EQ(1, json_int(job0(root), "verify.bad_blocks", -1));
	EXPECT_EQ(1, json_int(job0(root), "verify.dumped", -1));
	EXPECT_STREQ(self->cwd, json_str(job0(root), "verify.dump_dir"));
	json_object_put(root);
	run_result_free(&r);

	/* Again: the files are there, so nothing is written and the report says why. */
	ASSERT_EQ(0, unlink(exp_path));
	ASSERT_EQ(0, symlink(self->s.file, exp_path));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", devopt, "--name=r", "--rw=read",
				 "--bs=4k", "--size=1m", "--direct=1", "--verify=crc32c",
				 "--verify_dump=1", NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "not dumped: File exists")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, file_equals(got_path, bad, sizeof(bad)));
	/* The planted link was not followed: the backing file still has the damage. */
	ASSERT_EQ(0, lstat(exp_path, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	ASSERT_EQ(0, read_at(self->s.file, BAD_OFF, orig, sizeof(orig)));
	EXPECT_EQ(0, memcmp(orig, bad, sizeof(bad)));
	unlink(exp_path);
	run_result_free(&r);
}

/* fio names its dumps the same way: the same block gives the same two names. */
TEST_F(dev, fio_names_its_dumps_alike)
{
	char fopt[96], exp_path[512], got_path[512];
	const char *base = strrchr(self->s.dev, '/') + 1;
	struct run_result r;

	PREP_READY(&self->p);
	if (!have_fio())
		SKIP(return, "fio is not installed: the dump names were not compared with fio's");
	snprintf(fopt, sizeof(fopt), "--filename=%s", self->s.dev);
	ASSERT_EQ(0, chdir(self->cwd));
	{
		const char *const w[] = { "fio", "--name=w", fopt, "--rw=write", "--bs=4k",
					  "--size=1m", "--direct=1", "--verify=crc32c",
					  "--do_verify=0", NULL };

		ASSERT_EQ(0, run_argv(w, &r));
		ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
	ASSERT_EQ(0, corrupt(self->s.file, BAD_OFF + 1000));
	{
		const char *const rd[] = { "fio", "--name=r", fopt, "--rw=read", "--bs=4k",
					   "--size=1m", "--direct=1", "--verify=crc32c",
					   "--verify_dump=1", NULL };

		ASSERT_EQ(0, run_argv(rd, &r));
		EXPECT_NE(0, r.status);
		run_result_free(&r);
	}
	snprintf(got_path, sizeof(got_path), "%s/%s.%lld.received", self->cwd, base, BAD_OFF);
	snprintf(exp_path, sizeof(exp_path), "%s/%s.%lld.expected", self->cwd, base, BAD_OFF);
	EXPECT_EQ(0, access(got_path, F_OK)) TH_LOG("fio made no %s", got_path);
	EXPECT_EQ(0, access(exp_path, F_OK)) TH_LOG("fio made no %s", exp_path);
}

TEST_HARNESS_MAIN
