// SPDX-License-Identifier: GPL-2.0-only
/*
 * opendir_test.c - fio's opendir=DIR: every regular file below DIR joins
 * the job.  Over a tree of files of different sizes, two levels deep,
 * with a symlink to a file outside it, a FIFO and (as root) a device node
 * in it, a read job does fio 3.33's counts: the regular files' bytes,
 * nothing through the link or the nodes.  A symlink planted under a
 * found file's name between the walk and the run is refused, never
 * followed; the options read back (bq_job_to_args) find the same files
 * again; bad values are refused in one line.
 */
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
#include "blkqual_run.h"

#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/tree.h"

/* The tree's regular files: 3,457,024 bytes, 844 reads of 4 KiB. */
static const struct {
	const char *name;
	long size;
} files[] = {
	{ "a", 1 << 20 },
	{ "sub/b", 300 << 10 },
	{ "sub/deeper/c", 2 << 20 },
	{ "sub/d", 4 << 10 },
};

#define TREE_BYTES ((1 << 20) + (300 << 10) + (2 << 20) + (4 << 10))

FIXTURE(od)
{
	char top[64];		/* temp dir: tree/ and outside */
	char tree[96];
	char opt[128];		/* "--opendir=TREE" */
};

static int put_file(const char *path, long size)
{
	char buf[4096];
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	/* Data, not holes, so that a reader of the file reads what a reader does. */
	memset(buf, 0x5a, sizeof(buf));
	for (long done = 0; !ret && done < size; done += (long)sizeof(buf))
		if (write(fd, buf, size - done < (long)sizeof(buf) ? (size_t)(size - done) :
			  sizeof(buf)) < 0)
			ret = -errno;
	close(fd);
	return ret;
}

FIXTURE_SETUP(od)
{
	char path[256];

	snprintf(self->top, sizeof(self->top), "/tmp/bq-opendir-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->top));
	snprintf(self->tree, sizeof(self->tree), "%s/tree", self->top);
	snprintf(self->opt, sizeof(self->opt), "--opendir=%s", self->tree);
	ASSERT_EQ(0, mkdir(self->tree, 0700));
	snprintf(path, sizeof(path), "%s/sub", self->tree);
	ASSERT_EQ(0, mkdir(path, 0700));
	snprintf(path, sizeof(path), "%s/sub/deeper", self->tree);
	ASSERT_EQ(0, mkdir(path, 0700));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", self->tree, files[i].name);
		ASSERT_EQ(0, put_file(path, files[i].size));
	}
	/* Outside the tree, and bigger than all of it: a reader through the link would show. */
	snprintf(path, sizeof(path), "%s/outside", self->top);
	ASSERT_EQ(0, put_file(path, 8 << 20));
	snprintf(path, sizeof(path), "%s/sub/link", self->tree);
	ASSERT_EQ(0, symlink("../../outside", path));
	snprintf(path, sizeof(path), "%s/sub/deeper/linkdir", self->tree);
	ASSERT_EQ(0, symlink("../../..", path));
	snprintf(path, sizeof(path), "%s/fifo", self->tree);
	ASSERT_EQ(0, mkfifo(path, 0600));
	/* A node of /dev/zero's numbers, where one can be made (root). */
	snprintf(path, sizeof(path), "%s/sub/zero", self->tree);
	if (mknod(path, S_IFCHR | 0600, makedev(1, 5)))
		TH_LOG("no device node in the tree: %s", strerror(errno));
}

FIXTURE_TEARDOWN(od)
{
	tree_remove(self->top);
}

static long long bq_reads(json_object *root, const char *what)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	char path[64];

	snprintf(path, sizeof(path), "total.read.%s", what);
	return json_int(j, path, -1);
}

static long long fio_reads(json_object *root, const char *what)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	char path[64];

	snprintf(path, sizeof(path), "read.%s", what);
	return json_int(j, path, -1);
}

TEST_F(od, reads_as_fio)
{
	static const char *const rws[] = { "--rw=read", "--rw=randread" };

	for (size_t k = 0; k < sizeof(rws) / sizeof(rws[0]); k++) {
		const char *const opts[] = { "--name=od", rws[k], "--bs=4k", self->opt, NULL };
		struct run_result r;
		json_object *bq, *fio;

		bq = blkqual_run_json(&r, opts);
		ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		EXPECT_EQ(TREE_BYTES, bq_reads(bq, "bytes")) TH_LOG("%s", rws[k]);
		EXPECT_EQ(TREE_BYTES / 4096, bq_reads(bq, "ios")) TH_LOG("%s", rws[k]);
		if (!have_fio()) {
			json_object_put(bq);
			SKIP(return, "fio is not installed: counts not compared");
		}
		fio = fio_run_json(opts);
		ASSERT_NE(NULL, fio);
		TH_LOG("%s: fio %lld I/Os, %lld bytes; blkqual %lld, %lld", rws[k],
		       fio_reads(fio, "total_ios"), fio_reads(fio, "io_bytes"),
		       bq_reads(bq, "ios"), bq_reads(bq, "bytes"));
		EXPECT_EQ(fio_reads(fio, "total_ios"), bq_reads(bq, "ios"));
		EXPECT_EQ(fio_reads(fio, "io_bytes"), bq_reads(bq, "bytes"));
		json_object_put(bq);
		json_object_put(fio);
	}
}

/* Two short files, remade for each tool. */
static int short_tree(const char *top, char *opt, size_t len)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/short", top);
	tree_remove(path);
	if (mkdir(path, 0700))
		return -errno;
	snprintf(opt, len, "--opendir=%s/short", top);
	snprintf(path, sizeof(path), "%s/short/s", top);
	if (mkdir(path, 0700))
		return -errno;
	snprintf(path, sizeof(path), "%s/short/a", top);
	ret = put_file(path, 1 << 20);
	snprintf(path, sizeof(path), "%s/short/s/b", top);
	return ret ?: put_file(path, 512 << 10);
}

static long long size_of(const char *top, const char *rel)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/short/%s", top, rel);
	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/*
 * size= over files shorter than their share: laid out first, as fio lays
 * them out (the directory of each opened beneath opendir's), to the same
 * sizes, with the same reads.
 */
TEST_F(od, short_files_laid_out_as_fio)
{
	char opt[128];
	const char *const opts[] = { "--name=od", "--rw=randread", "--bs=4k", "--size=4m", opt,
				     NULL };
	long long a, b;
	struct run_result r;
	json_object *bq, *fio;

	ASSERT_EQ(0, short_tree(self->top, opt, sizeof(opt)));
	bq = blkqual_run_json(&r, opts);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	a = size_of(self->top, "a");
	b = size_of(self->top, "s/b");
	EXPECT_EQ(2 << 20, a);
	EXPECT_EQ(2 << 20, b);
	EXPECT_EQ(1024, bq_reads(bq, "ios"));
	if (!have_fio()) {
		json_object_put(bq);
		SKIP(return, "fio is not installed: not compared");
	}
	ASSERT_EQ(0, short_tree(self->top, opt, sizeof(opt)));
	fio = fio_run_json(opts);
	ASSERT_NE(NULL, fio);
	EXPECT_EQ(a, size_of(self->top, "a"));
	EXPECT_EQ(b, size_of(self->top, "s/b"));
	EXPECT_EQ(fio_reads(fio, "total_ios"), bq_reads(bq, "ios"));
	json_object_put(bq);
	json_object_put(fio);
}

static int parse(const char *opt, const char *rw, struct bq_jobset *set,
		 struct bq_parse_error *err)
{
	char *argv[] = { "--name=od", (char *)rw, "--bs=4k", (char *)opt, NULL };

	memset(set, 0, sizeof(*set));
	return bq_jobs_from_args(4, argv, set, err);
}

/* The walk found four files; read back, the options find the same four. */
TEST_F(od, options_read_back)
{
	struct bq_parse_error err;
	struct bq_jobset set, again;
	struct bq_strv args = { 0 };

	ASSERT_EQ(0, parse(self->opt, "--rw=read", &set, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_EQ(4, set.jobs[0].nr_files);
	EXPECT_EQ(4, set.jobs[0].nr_opendir_files);
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	memset(&again, 0, sizeof(again));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &again, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(1, again.nr);
	EXPECT_EQ(4, again.jobs[0].nr_files);
	for (int i = 0; i < 4 && i < again.jobs[0].nr_files; i++)
		EXPECT_STREQ(set.jobs[0].filenames[i], again.jobs[0].filenames[i]);
	bq_strv_free(&args);
	bq_jobset_free(&set);
	bq_jobset_free(&again);
}

/*
 * A found file replaced by a symlink to a file outside the tree, or by a
 * FIFO, after the walk: the run refuses it rather than open what is there.
 */
TEST_F(od, planted_after_the_walk_refused)
{
	static const char *const what[] = { "symlink", "fifo" };

	for (size_t k = 0; k < 2; k++) {
		struct bq_run_opts ropts = { 0 };
		struct bq_parse_error err;
		struct bq_results res;
		struct bq_jobset set;
		struct bq_ctx *ctx;
		char path[256];
		int ret;

		ASSERT_EQ(0, parse(self->opt, "--rw=read", &set, &err)) TH_LOG("%s", err.msg);
		snprintf(path, sizeof(path), "%s/sub/deeper/c", self->tree);
		ASSERT_EQ(0, unlink(path));
		ret = k ? mkfifo(path, 0600) : symlink("../../../outside", path);
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, bq_ctx_new(&ctx, NULL));
		memset(&res, 0, sizeof(res));
		memset(&err, 0, sizeof(err));
		ret = bq_run(ctx, &set, &ropts, &res, &err);
		EXPECT_NE(0, ret) TH_LOG("%s: the run went ahead", what[k]);
		EXPECT_NE(NULL, strstr(err.msg, k ? "now something else" : "now a symlink"))
			TH_LOG("%s: %s: %s", what[k], err.where, err.msg);
		bq_results_free(&res);
		bq_ctx_free(ctx);
		bq_jobset_free(&set);
		ASSERT_EQ(0, unlink(path));
		ASSERT_EQ(0, put_file(path, 2 << 20));
	}
}

TEST_F(od, bad_values_refused)
{
	char empty[128], missing[128], many[128], dir[128], path[256];
	const char *const bad[][3] = {
		{ missing, "No such file or directory", NULL },
		{ empty, "no regular file below it", NULL },
		{ self->opt, "opendir= with directory= is not supported", dir },
		{ many, "more than 64 files", NULL },
		{ "--opendir=", "opendir", NULL },
	};

	snprintf(missing, sizeof(missing), "--opendir=%s/none", self->top);
	snprintf(empty, sizeof(empty), "--opendir=%s/empty", self->top);
	snprintf(many, sizeof(many), "--opendir=%s/many", self->top);
	snprintf(dir, sizeof(dir), "--directory=%s", self->top);
	snprintf(path, sizeof(path), "%s/empty", self->top);
	ASSERT_EQ(0, mkdir(path, 0700));
	snprintf(path, sizeof(path), "%s/many", self->top);
	ASSERT_EQ(0, mkdir(path, 0700));
	for (int i = 0; i < 65; i++) {
		snprintf(path, sizeof(path), "%s/many/f%d", self->top, i);
		ASSERT_EQ(0, put_file(path, 4096));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--name=od", "--rw=read",
					 bad[i][0], bad[i][2], NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s was not refused", bad[i][0]);
		EXPECT_NE(NULL, r.err && strstr(r.err, bad[i][1]) ? r.err : NULL)
			TH_LOG("%s: %.200s", bad[i][0], r.err ? r.err : "");
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s: one line", bad[i][0]);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
