// SPDX-License-Identifier: GPL-2.0-only
/*
 * layout_test.c - files a job names (filename=) laid out before it runs,
 * by fio's rules: on a scratch XFS, the same job file under fio 3.33 and
 * blkqual leaves the same file (size, reserved or filled) and does the
 * same I/O counts, the layout's own writes counted by neither: a reader
 * of a missing or short file, a writer (reserved only, or filled with
 * overwrite=1, or left empty with fallocate=none), a writer and a reader
 * sharing one file in one phase, numjobs clones with offset_increment,
 * wait_for phases; and the guard: a short file that backs a loop device,
 * or a symlink to a short file, is refused, never replaced; with
 * create_on_open, reads that meet the file's end are counted, not failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	/* fio's defaults: lay out, reserve natively, fsync, one job after the other. */
	EXPECT_FALSE(j.overwrite);
	EXPECT_FALSE(j.create_on_open);
	EXPECT_EQ(BQ_FALLOC_NATIVE, j.fallocate);
	EXPECT_TRUE(j.create_fsync);
	EXPECT_TRUE(j.create_serialize);
	EXPECT_TRUE(j.allow_file_create);
	ASSERT_EQ(0, set1("overwrite", NULL, &j, &err));
	EXPECT_TRUE(j.overwrite);
	ASSERT_EQ(0, set1("overwrite", "0", &j, &err));
	EXPECT_FALSE(j.overwrite);
	ASSERT_EQ(0, set1("fallocate", "none", &j, &err));
	EXPECT_EQ(BQ_FALLOC_NONE, j.fallocate);
	ASSERT_EQ(0, set1("fallocate", "posix", &j, &err));
	EXPECT_EQ(BQ_FALLOC_POSIX, j.fallocate);
	ASSERT_EQ(0, set1("create_serialize", "0", &j, &err));
	EXPECT_FALSE(j.create_serialize);
	ASSERT_EQ(0, set1("create_on_open", "1", &j, &err));
	EXPECT_TRUE(j.create_on_open);
}

TEST(parse_refused_values)
{
	struct bq_parse_error err;

	EXPECT_EQ(-EINVAL, set1("overwrite", "maybe", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("fallocate", "sideways", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("create_serialize", "2", NULL, &err));
}

/* ---- runs, against fio -------------------------------------------------- */

FIXTURE(lay)
{
	struct prep p;
	struct scratchfs fs;
	char fdir[400];		/* fio's side */
	char bdir[400];		/* blkqual's side */
};

FIXTURE_SETUP(lay)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->fdir, sizeof(self->fdir), "%s/fio", self->fs.mnt);
	snprintf(self->bdir, sizeof(self->bdir), "%s/bq", self->fs.mnt);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "mkdir", mkdir(self->fdir, 0755) ? -errno : 0);
	if (prep_ok(&self->p))
		prep_fail(&self->p, "mkdir", mkdir(self->bdir, 0755) ? -errno : 0);
}

FIXTURE_TEARDOWN(lay)
{
	if (chdir("/"))
		return;
	scratchfs_destroy(&self->fs);
}

/* What a side left: its counts, and the state of its file "f". */
struct side {
	long long ios[2];
	long long bytes[2];
	long long job_ios[4];	/* per job, in the file's order: reads and writes */
	long long size;		/* -1: no file */
	bool allocated;		/* all of it has blocks */
	bool zeros;		/* its first 64 KiB read as zeros */
	json_object *root;	/* blkqual's document, kept */
};

/* The job text, "@" standing for the side's directory, written to DIR/job.fio. */
static int write_job(const char *dir, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/job.fio", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (const char *p = text; *p; p++) {
		if (*p == '@')
			fputs(dir, f);
		else
			fputc(*p, f);
	}
	return fclose(f) ? -errno : 0;
}

static long long sum_jobs(json_object *root, const char *path)
{
	json_object *jobs = json_object_object_get(root, "jobs");
	long long sum = 0;

	for (size_t i = 0; i < json_object_array_length(jobs); i++)
		sum += json_int(json_object_array_get_idx(jobs, i), path, 0);
	return sum;
}

static void per_job(json_object *root, const char *rd, const char *wr, long long *ios)
{
	json_object *jobs = json_object_object_get(root, "jobs");

	for (size_t i = 0; i < json_object_array_length(jobs) && i < 4; i++) {
		json_object *j = json_object_array_get_idx(jobs, i);

		ios[i] = json_int(j, rd, 0) + json_int(j, wr, 0);
	}
}

static void file_state(const char *dir, struct side *s)
{
	char path[450], buf[65536];
	struct stat sb;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/f", dir);
	s->size = -1;
	if (stat(path, &sb))
		return;
	s->size = sb.st_size;
	s->allocated = (long long)sb.st_blocks * 512 >= sb.st_size;
	s->zeros = true;
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i])
			s->zeros = false;
	if (fd >= 0)
		close(fd);
}

/* One tool on the job in its directory (its cwd); @fio: fio 3.33, else blkqual. */
static int run_side(struct __test_metadata *_metadata, bool fio, const char *dir,
		    const char *text, struct side *s)
{
	char job[450];
	const char *fargv[] = { "fio", "--output-format=json", job, NULL };
	const char *bargs[] = { job, NULL };
	struct run_result r;
	json_object *root;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = write_job(dir, text, job, sizeof(job));
	if (ret)
		return ret;
	if (chdir(dir))
		return -errno;
	if (fio) {
		if (run_argv(fargv, &r))
			return -ENOEXEC;
		root = r.status ? NULL : json_tokener_parse(r.out);
	} else {
		root = blkqual_run_json(&r, bargs);
	}
	if (!root) {
		TH_LOG("%s exit %d: %.400s", fio ? "fio" : "blkqual", r.status, r.err);
		run_result_free(&r);
		return -EIO;
	}
	if (fio) {
		s->ios[0] = sum_jobs(root, "read.total_ios");
		s->ios[1] = sum_jobs(root, "write.total_ios");
		s->bytes[0] = sum_jobs(root, "read.io_bytes");
		s->bytes[1] = sum_jobs(root, "write.io_bytes");
		per_job(root, "read.total_ios", "write.total_ios", s->job_ios);
		json_object_put(root);
	} else {
		s->ios[0] = sum_jobs(root, "total.read.ios");
		s->ios[1] = sum_jobs(root, "total.write.ios");
		s->bytes[0] = sum_jobs(root, "total.read.bytes");
		s->bytes[1] = sum_jobs(root, "total.write.bytes");
		per_job(root, "total.read.ios", "total.write.ios", s->job_ios);
		s->root = root;
	}
	run_result_free(&r);
	file_state(dir, s);
	return 0;
}

/*
 * The same job under fio and blkqual: the same counts and the same file.
 * @pre, when set, makes each side's "f" first (a short file of data).
 */
static void same_as_fio(struct __test_metadata *_metadata, FIXTURE_DATA(lay) *self,
			const char *text, long long pre, struct side *f, struct side *b)
{
	char path[450];

	memset(f, 0, sizeof(*f));
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < 2 && pre; i++) {
		snprintf(path, sizeof(path), "%s/f", i ? self->bdir : self->fdir);
		ASSERT_EQ(0, random_file(path, pre));
	}
	ASSERT_EQ(0, run_side(_metadata, true, self->fdir, text, f));
	ASSERT_EQ(0, run_side(_metadata, false, self->bdir, text, b));
	TH_LOG("fio: %lld reads %lld writes, file %lld bytes%s%s", f->ios[0], f->ios[1], f->size,
	       f->allocated ? ", allocated" : "", f->zeros ? ", zeros" : ", data");
	EXPECT_EQ(f->ios[0], b->ios[0]);
	EXPECT_EQ(f->ios[1], b->ios[1]);
	EXPECT_EQ(f->bytes[0], b->bytes[0]);
	EXPECT_EQ(f->bytes[1], b->bytes[1]);
	EXPECT_EQ(f->size, b->size);
	EXPECT_EQ(f->allocated, b->allocated);
	EXPECT_EQ(f->zeros, b->zeros);
}

#define READY() do { \
	PREP_READY(&self->p); \
	if (need_program("fio")) \
		SKIP(return, "fio is not installed"); \
} while (0)

/* blkqual's job @name: whether its target was laid out, and its note. */
static bool laid_out(json_object *root, const char *name, const char **note)
{
	json_object *job = json_find_by(json_object_object_get(root, "jobs"), "name", name);
	json_object *t = job ? json_object_array_get_idx(json_object_object_get(job, "targets"),
							 0) : NULL;
	const char *s = job ? json_str(job, "note") : NULL;

	/* Notes are one string, "; " between them. */
	*note = s && strstr(s, "laid out") ? s : "";
	return t && json_int(t, "laid_out", 0);
}

/* A reader of a missing file: made, filled to size=, its reads all counted, no writes. */
TEST_F(lay, reader_of_missing_file)
{
	struct side f, b;
	const char *note;

	READY();
	same_as_fio(_metadata, self, "[r]\nfilename=@/f\nrw=read\nbs=4k\nsize=8m\n", 0, &f, &b);
	EXPECT_EQ(2048, b.ios[0]);
	EXPECT_EQ(0, b.ios[1]);
	EXPECT_EQ(8 << 20, b.size);
	EXPECT_FALSE(b.zeros);
	EXPECT_TRUE(laid_out(b.root, "r", &note));
	EXPECT_NE(NULL, strstr(note, "8 MiB written")) TH_LOG("%s", note);
	json_object_put(b.root);
}

/* A reader of a file shorter than its region: replaced by a full one (fio refused nothing). */
TEST_F(lay, reader_of_short_file)
{
	struct side f, b;

	READY();
	same_as_fio(_metadata, self, "[r]\nfilename=@/f\nrw=randread\nbs=8k\nsize=4m\n",
		    256 << 10, &f, &b);
	EXPECT_EQ(512, b.ios[0]);
	EXPECT_EQ(4 << 20, b.size);
	json_object_put(b.root);
}

/* A writer lays out nothing but a reservation: fallocate'd, reading as zeros. */
TEST_F(lay, writer_only_reserves)
{
	struct side f, b;
	const char *note;

	READY();
	same_as_fio(_metadata, self,
		    "[w]\nfilename=@/f\nrw=write\nbs=64k\nsize=8m\ncreate_only=1\n", 0, &f, &b);
	EXPECT_EQ(8 << 20, b.size);
	EXPECT_TRUE(b.zeros);
	EXPECT_TRUE(laid_out(b.root, "w", &note));
	EXPECT_NE(NULL, strstr(note, "8 MiB reserved")) TH_LOG("%s", note);
	json_object_put(b.root);
}

/* overwrite=1: the writer's file is filled before its writes, as a reader's is. */
TEST_F(lay, overwrite_fills)
{
	struct side f, b;

	READY();
	same_as_fio(_metadata, self, "[w]\nfilename=@/f\nrw=randwrite\nbs=16k\nsize=4m\n"
		    "overwrite=1\ncreate_only=1\n", 0, &f, &b);
	EXPECT_EQ(4 << 20, b.size);
	EXPECT_FALSE(b.zeros);
	json_object_put(b.root);
}

/* fallocate=none: a writer's file is made empty; the reader after it lays it out. */
TEST_F(lay, fallocate_none)
{
	struct side f, b;

	READY();
	same_as_fio(_metadata, self, "[w]\nfilename=@/f\nrw=write\nsize=2m\nfallocate=none\n"
		    "create_only=1\n", 0, &f, &b);
	EXPECT_EQ(0, b.size);
	json_object_put(b.root);
	ASSERT_EQ(0, unlink("f"));
	ASSERT_EQ(0, chdir(self->fdir));
	ASSERT_EQ(0, unlink("f"));
	same_as_fio(_metadata, self, "[global]\nfilename=@/f\nsize=2m\nfallocate=none\n"
		    "create_only=1\n[w]\nrw=write\n[r]\nrw=read\n", 0, &f, &b);
	EXPECT_EQ(2 << 20, b.size);
	EXPECT_FALSE(b.zeros);
	json_object_put(b.root);
}

/*
 * create_on_open=1 lays nothing out: a mix's reads that run ahead of its
 * writes meet the end of the file and get nothing.  As fio's libaio, they
 * are counted, with no bytes, and not as errors; blkqual says how many
 * (fio's enospc-pressure.fio verifier).  fio's psync fails the job ("full
 * resid"); blkqual counts them the same way for every engine.
 */
TEST_F(lay, create_on_open_reads_meet_the_end)
{
	static const char *const engines[] = { "libaio", "psync" };
	struct side f, b;

	READY();
	for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		char text[200], path[450];
		long long shorts;

		snprintf(text, sizeof(text), "[m]\nfilename=@/f\nioengine=%s\ndirect=1\n"
			 "create_on_open=1\nrw=rw\nbs=4k\nsize=1m\n", engines[e]);
		if (!e) {
			ASSERT_EQ(0, run_side(_metadata, true, self->fdir, text, &f));
			TH_LOG("fio: %lld reads (%lld bytes), %lld writes", f.ios[0], f.bytes[0],
			       f.ios[1]);
			EXPECT_EQ(256, f.ios[0] + f.ios[1]);
			EXPECT_GT(f.ios[0] * 4096, f.bytes[0]);
		}
		ASSERT_EQ(0, run_side(_metadata, false, self->bdir, text, &b)) TH_LOG("%s", engines[e]);
		shorts = json_int(json_object_array_get_idx(json_object_object_get(b.root, "jobs"), 0),
				  "total.read.short_ios", 0);
		TH_LOG("blkqual %s: %lld reads (%lld bytes, %lld short), %lld writes", engines[e],
		       b.ios[0], b.bytes[0], shorts, b.ios[1]);
		EXPECT_EQ(256, b.ios[0] + b.ios[1]);
		EXPECT_LT(0, shorts);
		/* The file grows by whole blocks: a read gets all of one, or nothing. */
		EXPECT_EQ((b.ios[0] - shorts) * 4096, b.bytes[0]);
		EXPECT_EQ(b.ios[1] * 4096, b.bytes[1]);
		EXPECT_EQ(b.bytes[1], b.size);
		EXPECT_EQ(0, json_int(json_object_array_get_idx(json_object_object_get(b.root,
				"jobs"), 0), "total.read.errors", -1));
		json_object_put(b.root);
		snprintf(path, sizeof(path), "%s/f", self->bdir);
		ASSERT_EQ(0, unlink(path));
	}
}

/*
 * A writer and a reader of one file in one phase (fio's flow.fio): the
 * writer, first, reserves it; the reader finds it long enough.  Every
 * I/O of both jobs is counted, no layout write is.
 */
TEST_F(lay, writer_and_reader_share_a_file)
{
	struct side f, b;
	const char *note;

	READY();
	same_as_fio(_metadata, self, "[global]\nfilename=@/f\nbs=4k\nsize=8m\n"
		    "[w]\nrw=write\n[r]\nrw=randread\n", 0, &f, &b);
	EXPECT_EQ(2048, b.ios[0]);
	EXPECT_EQ(2048, b.ios[1]);
	EXPECT_TRUE(laid_out(b.root, "w", &note));
	EXPECT_FALSE(laid_out(b.root, "r", &note));
	json_object_put(b.root);
	/* The reader first: it fills the file, the writer then finds it long enough. */
	ASSERT_EQ(0, unlink("f"));
	ASSERT_EQ(0, chdir(self->fdir));
	ASSERT_EQ(0, unlink("f"));
	same_as_fio(_metadata, self, "[global]\nfilename=@/f\nbs=4k\nsize=8m\n"
		    "[r]\nrw=read\n[w]\nrw=randwrite\n", 0, &f, &b);
	EXPECT_EQ(2048, b.ios[0]);
	EXPECT_EQ(2048, b.ios[1]);
	EXPECT_TRUE(laid_out(b.root, "r", &note));
	EXPECT_NE(NULL, strstr(note, "8 MiB written")) TH_LOG("%s", note);
	json_object_put(b.root);
}

/* numjobs clones with offset_increment: the file is laid out to the last clone's end. */
TEST_F(lay, clones_with_offset_increment)
{
	struct side f, b;

	READY();
	same_as_fio(_metadata, self, "[r]\nfilename=@/f\nrw=read\nbs=4k\nsize=1m\nnumjobs=3\n"
		    "offset_increment=2m\n", 0, &f, &b);
	EXPECT_EQ(768, b.ios[0]);
	EXPECT_EQ(5 << 20, b.size);
	json_object_put(b.root);
}

/*
 * stonewall phases: with create_serialize=0 each job lays its file out as
 * it starts, the second replacing what the first read by a longer file.
 */
TEST_F(lay, create_serialize_0_per_phase)
{
	struct side f, b;
	const char *note;

	READY();
	same_as_fio(_metadata, self, "[global]\nfilename=@/f\nrw=read\nbs=4k\n"
		    "create_serialize=0\n[r1]\nsize=1m\n[r2]\nstonewall\nsize=2m\n", 0, &f, &b);
	EXPECT_EQ(768, b.ios[0]);
	EXPECT_EQ(2 << 20, b.size);
	EXPECT_TRUE(laid_out(b.root, "r1", &note));
	EXPECT_NE(NULL, strstr(note, "1 MiB written")) TH_LOG("%s", note);
	EXPECT_TRUE(laid_out(b.root, "r2", &note));
	EXPECT_NE(NULL, strstr(note, "2 MiB written")) TH_LOG("%s", note);
	json_object_put(b.root);
}

/* wait_for phases, as in fio's waitfor.fio: each job starts when the one it names ended. */
TEST_F(lay, wait_for_phases)
{
	static const char *const names[] = { "w", "r", "w2" };
	struct side f, b;
	json_object *jobs;
	long long prev_end = 0;

	READY();
	same_as_fio(_metadata, self, "[global]\nfilename=@/f\nbs=4k\nfilesize=4m\n"
		    "[w]\nrw=write\nnumjobs=2\n[r]\nnew_group\nwait_for=w\nrw=randread\n"
		    "[w2]\nwait_for=r\nrw=randwrite\n", 0, &f, &b);
	EXPECT_EQ(1024, b.ios[0]);
	EXPECT_EQ(3072, b.ios[1]);
	jobs = json_object_object_get(b.root, "jobs");
	for (size_t i = 0; i < 3; i++) {
		json_object *j = json_find_by(jobs, "name", names[i]);

		ASSERT_NE(NULL, j);
		/* fio's groups: new_group starts one; w2 stays in r's. */
		EXPECT_EQ(i ? 1 : 0, json_int(j, "groupid", -1));
		EXPECT_LE(prev_end, json_int(j, "start_unix_ns", 0)) TH_LOG("%s", names[i]);
		prev_end = json_int(j, "end_unix_ns", 0);
	}
	json_object_put(b.root);
}

/*
 * fio's flow.fio, shortened: a writer (flow=1, first: it reserves the
 * file) and a reader (flow=8) of one file keep their I/O counts 1:8, in
 * fio and here.  Both end by time, so the ratios are compared, not the
 * counts.
 */
TEST_F(lay, flow_keeps_one_to_eight)
{
	static const char job[] = "[global]\nfilename=@/f\nsize=16m\nbs=8k\ndirect=1\n"
		"ioengine=libaio\niodepth=16\nnorandommap\ntime_based\nruntime=1\n"
		"flow_sleep=1000\n[w]\nrw=write\nflow=1\n[r]\nrw=randread\nflow=8\n";
	struct side f, b;
	double rf, rb;

	READY();
	ASSERT_EQ(0, run_side(_metadata, true, self->fdir, job, &f));
	ASSERT_EQ(0, run_side(_metadata, false, self->bdir, job, &b));
	ASSERT_LT(0, f.job_ios[0]);
	ASSERT_LT(0, b.job_ios[0]);
	rf = (double)f.job_ios[1] / (double)f.job_ios[0];
	rb = (double)b.job_ios[1] / (double)b.job_ios[0];
	TH_LOG("fio w %lld r %lld (%.2f), blkqual w %lld r %lld (%.2f)", f.job_ios[0],
	       f.job_ios[1], rf, b.job_ios[0], b.job_ios[1], rb);
	EXPECT_GT(rf, 7.2);
	EXPECT_LT(rf, 8.8);
	EXPECT_GT(rb, 7.2);
	EXPECT_LT(rb, 8.8);
	/* Only the writer's reservation: no layout write, and the file is its size. */
	EXPECT_EQ(16 << 20, b.size);
	json_object_put(b.root);
}

static int run_status(const char *const *args, struct run_result *r)
{
	const char *argv[20] = { blkqual_path(), "run", "--no-status" };
	int n = 3;

	for (int i = 0; args[i] && n < 19; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_argv(argv, r) ? -1 : r->status;
}

/* A short file that backs a loop device: the guard refuses its layout; it is untouched. */
TEST_F(lay, loop_backing_file_not_laid_out)
{
	const char *args[] = { "--name=r", "--filename=f", "--rw=read", "--size=1m", NULL };
	uint64_t before, after;
	char dev[64];
	struct run_result r;
	int hold = -1;

	PREP_READY(&self->p);
	ASSERT_EQ(0, chdir(self->bdir));
	ASSERT_EQ(0, random_file("f", 65536));
	ASSERT_EQ(0, checksum_path("f", &before));
	ASSERT_EQ(0, loop_attach("f", 0, 0, dev, sizeof(dev), &hold));
	EXPECT_EQ(1, run_status(args, &r));
	close(hold);
	EXPECT_NE(NULL, strstr(r.err, "refusing to lay it out")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path("f", &after));
	EXPECT_EQ(before, after);
}

/* A symlink to a short file: fio would replace the link; blkqual refuses, both stay. */
TEST_F(lay, symlink_to_short_file_not_replaced)
{
	const char *args[] = { "--name=r", "--filename=l", "--rw=read", "--size=1m", NULL };
	struct run_result r;
	struct stat sb;

	PREP_READY(&self->p);
	ASSERT_EQ(0, chdir(self->bdir));
	ASSERT_EQ(0, random_file("f", 65536));
	ASSERT_EQ(0, symlink("f", "l"));
	EXPECT_EQ(1, run_status(args, &r));
	EXPECT_NE(NULL, strstr(r.err, "never replaces a symlink")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, lstat("l", &sb));
	EXPECT_TRUE(S_ISLNK(sb.st_mode));
	ASSERT_EQ(0, stat("f", &sb));
	EXPECT_EQ(65536, sb.st_size);
}

TEST_HARNESS_MAIN
