// SPDX-License-Identifier: GPL-2.0-only
/*
 * filesets_test.c - jobs without filename=: on a scratch XFS, blkqual
 * makes exactly the files fio 3.33 makes for the same job (names, sizes,
 * directories) and does fio's I/O counts; nrfiles, filesize, directory
 * lists, filename_format, openfiles and file_service_type, unlink,
 * create_only; and what the job's own file names must never do: follow a
 * symlink planted under them, write to a device found there, or unlink
 * what the guard protects.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"

/* ---- parsing ----------------------------------------------------------- */

TEST(parse_good_values)
{
	struct bq_parse_error err;
	struct bq_job j;

	bq_job_defaults(&j);
	/* fio's defaults. */
	EXPECT_EQ(1, j.nrfiles);
	EXPECT_EQ(BQ_FSRV_ROUNDROBIN, j.file_service);
	EXPECT_EQ(1, j.file_service_nr);
	EXPECT_TRUE(j.allow_file_create);
	EXPECT_TRUE(j.create_fsync);
	EXPECT_EQ(BQ_FALLOC_NATIVE, j.fallocate);
	EXPECT_EQ(0, bq_job_check(&j, &err)) TH_LOG("%s", err.msg);

	ASSERT_EQ(0, set1("nrfiles", "8", &j, &err));
	EXPECT_EQ(8, j.nrfiles);
	ASSERT_EQ(0, set1("nr_files", "3", &j, &err));
	EXPECT_EQ(3, j.nrfiles);
	ASSERT_EQ(0, set1("filesize", "64k", &j, &err));
	EXPECT_EQ(65536, j.filesize_lo);
	EXPECT_EQ(65536, j.filesize_hi);
	ASSERT_EQ(0, set1("filesize", "16k-1m", &j, &err));
	EXPECT_EQ(16384, j.filesize_lo);
	EXPECT_EQ(1 << 20, j.filesize_hi);
	ASSERT_EQ(0, set1("filesize", "4k:8k", &j, &err));
	EXPECT_EQ(8192, j.filesize_hi);
	ASSERT_EQ(0, set1("file_service_type", "random:8", &j, &err));
	EXPECT_EQ(BQ_FSRV_RANDOM, j.file_service);
	EXPECT_EQ(8, j.file_service_nr);
	ASSERT_EQ(0, set1("file_service_type", "sequential", &j, &err));
	EXPECT_EQ(BQ_FSRV_SEQUENTIAL, j.file_service);
	ASSERT_EQ(0, set1("file_service_type", "roundrobin:2", &j, &err));
	EXPECT_EQ(2, j.file_service_nr);
	ASSERT_EQ(0, set1("file_service_type", "zipf", &j, &err));
	EXPECT_EQ(BQ_FSRV_ZIPF, j.file_service);
	EXPECT_EQ(1.1, j.file_service_param);
	ASSERT_EQ(0, set1("file_service_type", "pareto:0.3", &j, &err));
	EXPECT_EQ(BQ_FSRV_PARETO, j.file_service);
	EXPECT_EQ(0.3, j.file_service_param);
	ASSERT_EQ(0, set1("directory", "/a:/b\\:c", &j, &err));
	EXPECT_STREQ("/a:/b\\:c", j.directory);
	ASSERT_EQ(0, set1("filename_format", "$jobname.$jobnum.$filenum", &j, &err));
	ASSERT_EQ(0, set1("openfiles", "2", &j, &err));
	EXPECT_EQ(2, j.openfiles);
	ASSERT_EQ(0, set1("fallocate", "keep", &j, &err));
	EXPECT_EQ(BQ_FALLOC_KEEP, j.fallocate);
	ASSERT_EQ(0, set1("fallocate", "0", &j, &err));
	EXPECT_EQ(BQ_FALLOC_NONE, j.fallocate);
	ASSERT_EQ(0, set1("fallocate", "1", &j, &err));
	EXPECT_EQ(BQ_FALLOC_POSIX, j.fallocate);
	ASSERT_EQ(0, set1("fallocate", "truncate", &j, &err));
	ASSERT_EQ(0, set1("unlink", NULL, &j, &err));
	EXPECT_TRUE(j.unlink);
	ASSERT_EQ(0, set1("unlink_each_loop", "1", &j, &err));
	EXPECT_TRUE(j.unlink_each_loop);
	ASSERT_EQ(0, set1("create_on_open", "1", &j, &err));
	ASSERT_EQ(0, set1("create_only", "1", &j, &err));
	ASSERT_EQ(0, set1("allow_file_create", "0", &j, &err));
	EXPECT_FALSE(j.allow_file_create);
	ASSERT_EQ(0, set1("overwrite", "1", &j, &err));
	ASSERT_EQ(0, set1("pre_read", "1", &j, &err));
	ASSERT_EQ(0, set1("create_serialize", "0", &j, &err));
	ASSERT_EQ(0, set1("create_fsync", "0", &j, &err));
	ASSERT_EQ(0, set1("unique_filename", "0", &j, &err));
	ASSERT_EQ(0, set1("file_append", NULL, &j, &err));
	EXPECT_TRUE(j.file_append);
}

TEST(parse_refused_values)
{
	struct bq_parse_error err;

	EXPECT_EQ(-EINVAL, set1("nrfiles", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("nrfiles", "x", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("filesize", "64k-16k", NULL, &err));
	EXPECT_STREQ("filesize=64k-16k: want a size over 0, low before high", err.msg);
	EXPECT_EQ(-EINVAL, set1("filesize", "lots", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("file_service_type", "normal:50", NULL, &err));
	EXPECT_STREQ("file_service_type=normal:50 is not supported (use random, roundrobin, "
		     "sequential, zipf or pareto)", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, set1("file_service_type", "gauss", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("file_service_type", "pareto:1.5", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("file_service_type", "zipf:0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("file_service_type", "random:0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("file_service_type", "sideways", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("fallocate", "2", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("unlink", "yes", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("directory", "a\nb", NULL, &err));
	/* Still fio's, still not blkqual's: refused by name. */
}

TEST(job_checks)
{
	struct bq_parse_error err;
	struct bq_job j;

	bq_job_defaults(&j);
	j.nrfiles = 16;
	j.numjobs = 8;
	EXPECT_EQ(-EOPNOTSUPP, bq_job_check(&j, &err));
	EXPECT_STREQ("nrfiles=16 x numjobs=8 is over 64 files per job", err.msg);
	bq_job_defaults(&j);
	j.size_pct = 50;
	EXPECT_EQ(-EOPNOTSUPP, bq_job_check(&j, &err));
	/* Emptied in place each loop: only a writer's files of its own. */
	bq_job_defaults(&j);
	j.unlink_each_loop = true;
	j.rw = BQ_RW_RANDREAD;
	EXPECT_EQ(-EOPNOTSUPP, bq_job_check(&j, &err));
	EXPECT_NE(NULL, strstr(err.msg, "unlink_each_loop")) TH_LOG("%s", err.msg);
	j.rw = BQ_RW_WRITE;
	EXPECT_EQ(0, bq_job_check(&j, &err)) TH_LOG("%s", err.msg);
	j.numjobs = 2;
	snprintf(j.filename_format, sizeof(j.filename_format), "shared.$filenum");
	EXPECT_EQ(-EOPNOTSUPP, bq_job_check(&j, &err));
}

/* directory= given before filename= puts the file below it, as in fio; after, not. */
TEST(directory_prefixes_filename)
{
	struct bq_parse_error err;
	struct bq_job j;

	bq_job_defaults(&j);
	ASSERT_EQ(0, bq_job_set(&j, "directory", "/mnt/a:/mnt/b", &err));
	ASSERT_EQ(0, bq_job_set(&j, "filename", "x:y", &err));
	EXPECT_STREQ("/mnt/a/x", j.filenames[0]);
	EXPECT_STREQ("/mnt/a/y", j.filenames[1]);
	bq_job_release(&j);
	bq_job_defaults(&j);
	ASSERT_EQ(0, bq_job_set(&j, "filename", "x", &err));
	ASSERT_EQ(0, bq_job_set(&j, "directory", "/mnt/a", &err));
	EXPECT_STREQ("x", j.filenames[0]);
	bq_job_release(&j);
}

/* ---- runs, against fio -------------------------------------------------- */

FIXTURE(fsets)
{
	struct prep p;
	struct scratchfs fs;
	char fdir[400];		/* fio's side */
	char bdir[400];		/* blkqual's side */
};

FIXTURE_SETUP(fsets)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->fdir, sizeof(self->fdir), "%s/fio", self->fs.mnt);
	snprintf(self->bdir, sizeof(self->bdir), "%s/bq", self->fs.mnt);
	for (int i = 0; i < 6 && prep_ok(&self->p); i++) {
		static const char *const sub[] = { "", "/d1", "/d2" };
		char dir[450];

		/* fio wants directory= entries to exist: d1 and d2 on both sides. */
		snprintf(dir, sizeof(dir), "%s%s", i % 2 ? self->bdir : self->fdir, sub[i / 2]);
		prep_fail(&self->p, "mkdir", mkdir(dir, 0755) ? -errno : 0);
	}
}

FIXTURE_TEARDOWN(fsets)
{
	if (chdir("/"))
		return;
	scratchfs_destroy(&self->fs);
}

struct counts {
	long long ios[2];
	long long bytes[2];
	char files[4096];	/* "name size\n" each, sorted */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below @dir (relative names), with its size, sorted. */
static void list_files(const char *dir, const char *rel, char **out, int *n)
{
	char path[2100], name[1024];
	struct dirent *de;
	struct stat sb;
	DIR *d;

	snprintf(path, sizeof(path), "%s%s%s", dir, rel[0] ? "/" : "", rel);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && *n < 256) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(name, sizeof(name), "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (lstat(path, &sb))
			continue;
		if (S_ISDIR(sb.st_mode)) {
			list_files(dir, name, out, n);
			continue;
		}
		if (asprintf(&out[*n], "%s %lld\n", name, (long long)sb.st_size) > 0)
			(*n)++;
	}
	closedir(d);
}

static void files_of(const char *dir, char *buf, size_t len)
{
	char *names[256];
	int n = 0;

	list_files(dir, "", names, &n);
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		strncat(buf, names[i], len - strlen(buf) - 1);
		free(names[i]);
	}
}

/* "@" in an option stands for the side's own directory. */
static void expand(const char *const *opts, const char *dir, char store[][512],
		   const char **argv, int *n)
{
	for (int i = 0; opts[i]; i++) {
		char *o = store[i];

		o[0] = '\0';
		for (const char *p = opts[i]; *p; p++) {
			if (*p == '@')
				strcat(o, dir);
			else
				strncat(o, p, 1);
		}
		argv[(*n)++] = o;
	}
	argv[*n] = NULL;
}

static long long sum_jobs(json_object *root, const char *path)
{
	json_object *jobs = json_object_object_get(root, "jobs");
	long long sum = 0;

	for (size_t i = 0; i < json_object_array_length(jobs); i++)
		sum += json_int(json_object_array_get_idx(jobs, i), path, 0);
	return sum;
}

/* fio 3.33 on @opts in its directory (which is its cwd). */
static int run_fio(struct __test_metadata *_metadata, const char *dir, const char *const *opts,
		   struct counts *c)
{
	char store[16][512];
	const char *argv[24] = { "fio", "--output-format=json" };
	struct run_result r;
	json_object *root;
	int n = 2;

	expand(opts, dir, store, argv, &n);
	if (chdir(dir))
		return -errno;
	if (run_argv(argv, &r))
		return -ENOEXEC;
	root = r.status ? NULL : json_tokener_parse(r.out);
	if (!root) {
		TH_LOG("fio exit %d: %.300s", r.status, r.err);
		run_result_free(&r);
		return -EIO;
	}
	c->ios[0] = sum_jobs(root, "read.total_ios");
	c->ios[1] = sum_jobs(root, "write.total_ios");
	c->bytes[0] = sum_jobs(root, "read.io_bytes");
	c->bytes[1] = sum_jobs(root, "write.io_bytes");
	json_object_put(root);
	run_result_free(&r);
	files_of(dir, c->files, sizeof(c->files));
	return 0;
}

static int run_bq(struct __test_metadata *_metadata, const char *dir, const char *const *opts,
		  struct counts *c)
{
	char store[16][512];
	const char *argv[24];
	struct run_result r;
	json_object *root;
	int n = 0;

	expand(opts, dir, store, argv, &n);
	if (chdir(dir))
		return -errno;
	root = blkqual_run_json(&r, argv);
	if (!root) {
		TH_LOG("blkqual exit %d: %.300s", r.status, r.err);
		run_result_free(&r);
		return -EIO;
	}
	c->ios[0] = sum_jobs(root, "total.read.ios");
	c->ios[1] = sum_jobs(root, "total.write.ios");
	c->bytes[0] = sum_jobs(root, "total.read.bytes");
	c->bytes[1] = sum_jobs(root, "total.write.bytes");
	json_object_put(root);
	run_result_free(&r);
	files_of(dir, c->files, sizeof(c->files));
	return 0;
}

/* The same job under fio and blkqual: the same files and the same counts. */
#define SAME_AS_FIO(...) do { \
	const char *const opts_[] = { __VA_ARGS__, NULL }; \
	struct counts f_ = { 0 }, b_ = { 0 }; \
	\
	PREP_READY(&self->p); \
	if (need_program("fio")) \
		SKIP(return, "fio is not installed"); \
	ASSERT_EQ(0, run_fio(_metadata, self->fdir, opts_, &f_)); \
	ASSERT_EQ(0, run_bq(_metadata, self->bdir, opts_, &b_)); \
	TH_LOG("fio: %lld reads %lld writes, files:\n%s", f_.ios[0], f_.ios[1], f_.files); \
	EXPECT_EQ(f_.ios[0], b_.ios[0]); \
	EXPECT_EQ(f_.ios[1], b_.ios[1]); \
	EXPECT_EQ(f_.bytes[0], b_.bytes[0]); \
	EXPECT_EQ(f_.bytes[1], b_.bytes[1]); \
	EXPECT_STREQ(f_.files, b_.files); \
} while (0)

/* jobname.0.N in the current directory; size= split, whole blocks only. */
TEST_F(fsets, implicit_names_in_cwd)
{
	SAME_AS_FIO("--name=seq", "--rw=read", "--bs=4k", "--size=1m", "--nrfiles=3");
}

/*
 * Several block sizes and the random map: the files' bytes are all done,
 * as fio does them (the map cuts I/Os short differently, so their
 * count is not fio's; fio's iometer-file-access-server.fio).
 */
TEST_F(fsets, bssplit_does_every_byte)
{
	const char *const opts[] = { "--name=mix", "--rw=randread", "--direct=1",
				     "--bssplit=512/10:4k/60:16k/20:64k/10", "--size=4m",
				     "--nrfiles=2", NULL };
	struct counts f = { 0 }, b = { 0 };

	PREP_READY(&self->p);
	if (need_program("fio"))
		SKIP(return, "fio is not installed");
	ASSERT_EQ(0, run_fio(_metadata, self->fdir, opts, &f));
	ASSERT_EQ(0, run_bq(_metadata, self->bdir, opts, &b));
	EXPECT_EQ(4 << 20, f.bytes[0]);
	EXPECT_EQ(f.bytes[0], b.bytes[0]);
	EXPECT_STREQ(f.files, b.files);
}

/*
 * loops=: every file is done again in each loop, as in fio's fsx.fio
 * (whose random read/write mix splits differently in each tool).
 */
TEST_F(fsets, loops_do_every_file_again)
{
	SAME_AS_FIO("--name=file", "--rw=randwrite", "--bs=4k", "--size=256k", "--nrfiles=2",
		    "--norandommap", "--loops=3", "--direct=1");
}

/* Each numjobs clone its own files, its directory the list's next entry. */
TEST_F(fsets, numjobs_over_directory_list)
{
	SAME_AS_FIO("--name=w", "--rw=write", "--bs=4k", "--size=256k", "--nrfiles=2",
		    "--numjobs=3", "--directory=@/d1:@/d2", "--direct=1");
}

/* filename_format with a subdirectory (made), filesize= with size= under it. */
TEST_F(fsets, filename_format_and_filesize)
{
	SAME_AS_FIO("--name=fmt", "--rw=randread", "--bs=4k", "--filesize=64k",
		    "--size=192k", "--nrfiles=4", "--filename_format=set.$jobnum/$jobname-$filenum");
}

TEST_F(fsets, openfiles_sequential_service)
{
	SAME_AS_FIO("--name=o", "--rw=read", "--bs=4k", "--size=256k", "--nrfiles=4",
		    "--openfiles=2", "--file_service_type=sequential");
}

TEST_F(fsets, random_service)
{
	SAME_AS_FIO("--name=r", "--rw=randwrite", "--bs=8k", "--size=320k", "--nrfiles=5",
		    "--file_service_type=random:4", "--overwrite=1");
}

TEST_F(fsets, zipf_service)
{
	SAME_AS_FIO("--name=z", "--rw=randread", "--bs=4k", "--size=256k", "--nrfiles=8",
		    "--file_service_type=zipf:1.2");
}

TEST_F(fsets, roundrobin_service_with_offset)
{
	SAME_AS_FIO("--name=rr", "--rw=write", "--bs=4k", "--size=96k", "--nrfiles=3",
		    "--file_service_type=roundrobin:3", "--offset=8k", "--fallocate=none");
}

/* size= is shared by a filename= list too. */
TEST_F(fsets, named_files_share_size)
{
	SAME_AS_FIO("--name=l", "--rw=read", "--bs=4k", "--size=96k", "--filename=x:y:z");
}

TEST_F(fsets, unlink_leaves_nothing)
{
	SAME_AS_FIO("--name=u", "--rw=randread", "--bs=4k", "--size=64k", "--nrfiles=2",
		    "--unlink=1");
}

/*
 * unlink_each_loop: every loop's I/O, as fio counts it, and the last
 * loop's files left as fio 3.33 leaves them (it unlinks before each loop
 * after the first; blkqual empties the files in place instead: run.rst's
 * "Differences from fio").
 */
TEST_F(fsets, unlink_each_loop_counts_and_files)
{
	SAME_AS_FIO("--name=e", "--rw=write", "--bs=4k", "--size=128k", "--nrfiles=2",
		    "--numjobs=2", "--loops=3", "--unlink_each_loop=1", "--direct=1");
}

TEST_F(fsets, create_only_lays_out)
{
	SAME_AS_FIO("--name=c", "--rw=read", "--bs=4k", "--size=64k", "--nrfiles=2",
		    "--create_only=1");
}

/* io_size over the files' bytes: they are done again, as in fio. */
TEST_F(fsets, io_size_over_the_files)
{
	SAME_AS_FIO("--name=io", "--rw=read", "--bs=4k", "--size=128k", "--nrfiles=2",
		    "--io_size=512k");
}

TEST_F(fsets, create_on_open_and_pre_read)
{
	SAME_AS_FIO("--name=co", "--rw=write", "--bs=4k", "--size=128k", "--nrfiles=2",
		    "--create_on_open=1");
	SAME_AS_FIO("--name=pr", "--rw=read", "--bs=4k", "--size=128k", "--nrfiles=2",
		    "--pre_read=1");
}

/* file_append: the region starts at each file's end; what was there stays. */
TEST_F(fsets, file_append_keeps_the_start)
{
	char f[600], b[600];
	uint64_t before, after;

	PREP_READY(&self->p);
	snprintf(f, sizeof(f), "%s/app.0.0", self->fdir);
	snprintf(b, sizeof(b), "%s/app.0.0", self->bdir);
	ASSERT_EQ(0, random_file(b, 65536));
	ASSERT_EQ(0, checksum_path(b, &before));
	ASSERT_EQ(0, random_file(f, 65536));
	SAME_AS_FIO("--name=app", "--rw=write", "--bs=4k", "--size=64k", "--file_append=1");
	ASSERT_EQ(0, checksum_region(b, 0, 65536, &after));
	EXPECT_EQ(before, after);
}

/* filesize=LOW-HIGH: each file drawn in the range, whole blocks, all of it done. */
TEST_F(fsets, filesize_range)
{
	const char *args[] = { "--name=rng", "--rw=read", "--bs=4k", "--filesize=16k-64k",
			       "--nrfiles=6", NULL };
	long long total = 0, ios;
	struct run_result r;
	json_object *root;
	char path[600];

	PREP_READY(&self->p);
	ASSERT_EQ(0, chdir(self->bdir));
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	ios = json_int(json_object_array_get_idx(json_object_object_get(root, "jobs"), 0),
		       "total.read.ios", -1);
	for (int i = 0; i < 6; i++) {
		struct stat sb;

		snprintf(path, sizeof(path), "%s/rng.0.%d", self->bdir, i);
		ASSERT_EQ(0, stat(path, &sb));
		EXPECT_LE(16384, sb.st_size);
		EXPECT_GE(65536, sb.st_size);
		EXPECT_EQ(0, sb.st_size % 4096);
		total += sb.st_size;
	}
	EXPECT_EQ(total / 4096, ios);
	json_object_put(root);
	run_result_free(&r);
}

/* ---- what the job's own names must never do ---------------------------- */

static int run_status(const char *const *args, struct run_result *r)
{
	const char *argv[20] = { blkqual_path(), "run", "--no-status" };
	int n = 3;

	for (int i = 0; args[i] && n < 19; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_argv(argv, r) ? -1 : r->status;
}

/* A symlink planted as the job's file: refused, its target neither written nor removed. */
TEST_F(fsets, planted_symlink_refused)
{
	const char *args[] = { "--name=a", "--rw=write", "--size=64k", "--unlink=1", NULL };
	char victim[600], link[600];
	uint64_t before, after;
	struct run_result r;
	struct stat sb;

	PREP_READY(&self->p);
	snprintf(victim, sizeof(victim), "%s/victim", self->fs.mnt);
	snprintf(link, sizeof(link), "%s/a.0.0", self->bdir);
	ASSERT_EQ(0, random_file(victim, 65536));
	ASSERT_EQ(0, checksum_path(victim, &before));
	ASSERT_EQ(0, symlink(victim, link));
	ASSERT_EQ(0, chdir(self->bdir));
	EXPECT_EQ(1, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "a symlink where the job's own file should be"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path(victim, &after));
	EXPECT_EQ(before, after);
	ASSERT_EQ(0, stat(victim, &sb));
	EXPECT_EQ(65536, sb.st_size);
	ASSERT_EQ(0, lstat(link, &sb));
	EXPECT_TRUE(S_ISLNK(sb.st_mode));
}

/* A symlinked directory inside a composed name is not walked through. */
TEST_F(fsets, planted_symlink_directory_refused)
{
	const char *args[] = { "--name=a", "--rw=write", "--size=64k",
			       "--filename_format=sub/$filenum", NULL };
	char elsewhere[600], link[600], probe[700];
	struct run_result r;

	PREP_READY(&self->p);
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", self->fs.mnt);
	snprintf(link, sizeof(link), "%s/sub", self->bdir);
	ASSERT_EQ(0, mkdir(elsewhere, 0755));
	ASSERT_EQ(0, symlink(elsewhere, link));
	ASSERT_EQ(0, chdir(self->bdir));
	EXPECT_EQ(1, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "symlink")) TH_LOG("%s", r.err);
	run_result_free(&r);
	snprintf(probe, sizeof(probe), "%s/0", elsewhere);
	EXPECT_NE(0, access(probe, F_OK));
}

/* A block device node where the job's regular file should be: refused, not written. */
TEST_F(fsets, device_in_place_of_file_refused)
{
	const char *args[] = { "--name=a", "--rw=write", "--size=64k", NULL };
	char node[600];
	struct run_result r;
	struct stat sb;

	PREP_READY(&self->p);
	ASSERT_EQ(0, stat(self->fs.s.dev, &sb));
	snprintf(node, sizeof(node), "%s/a.0.0", self->bdir);
	ASSERT_EQ(0, mknod(node, S_IFBLK | 0600, sb.st_rdev));
	ASSERT_EQ(0, chdir(self->bdir));
	EXPECT_EQ(1, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "a block device where the job's own regular file"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	unlink(node);
}

/* unlink=1 on a file the guard protects (it backs a loop device): refused up front. */
TEST_F(fsets, unlink_of_guarded_file_refused)
{
	char opt[400];
	const char *args[] = { "--name=a", "--rw=read", "--size=64k", opt, "--unlink=1", NULL };
	struct run_result r;

	PREP_READY(&self->p);
	snprintf(opt, sizeof(opt), "--filename=%s", self->fs.s.file);
	EXPECT_EQ(1, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "refusing to unlink it after the job")) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_EQ(0, access(self->fs.s.file, F_OK));
}

/* A short file of the job's name that backs a loop device: not replaced, not touched. */
TEST_F(fsets, replacing_a_loop_backing_file_refused)
{
	const char *args[] = { "--name=a", "--rw=read", "--size=1m", NULL };
	uint64_t before, after;
	char file[600], dev[64];
	struct run_result r;
	int hold = -1;

	PREP_READY(&self->p);
	snprintf(file, sizeof(file), "%s/a.0.0", self->bdir);
	ASSERT_EQ(0, random_file(file, 65536));
	ASSERT_EQ(0, checksum_path(file, &before));
	ASSERT_EQ(0, loop_attach(file, 0, 0, dev, sizeof(dev), &hold));
	ASSERT_EQ(0, chdir(self->bdir));
	EXPECT_EQ(1, run_status(args, &r));
	close(hold);
	EXPECT_NE(NULL, strstr(r.err, "refusing to replace it")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path(file, &after));
	EXPECT_EQ(before, after);
}

/* allow_file_create=0: a missing file is an error, not made. */
TEST_F(fsets, allow_file_create_0_refuses_missing)
{
	const char *args[] = { "--name=a", "--rw=read", "--size=64k", "--allow_file_create=0",
			       NULL };
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, chdir(self->bdir));
	EXPECT_EQ(2, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "allow_file_create=0")) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_NE(0, access("a.0.0", F_OK));
}

TEST_HARNESS_MAIN
