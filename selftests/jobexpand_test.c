// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobexpand_test.c - job files as vendors write them: include, ${VAR},
 * $ncpus / $mb_memory / $pagesize with their arithmetic, "(...)"
 * expressions, kb_base and unit_base, --section
 *
 * Each value is checked against what fio 3.33 was seen to make of it, and
 * one job file using all of it runs under both tools on a scratch loop
 * device: the bytes each job moves must be the same.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "job/jobopt.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define NS_PER_US 1000ull
#define NS_PER_S 1000000000ull

/* ---- helpers ------------------------------------------------------------ */

FIXTURE(dir)
{
	char dir[64];
};

FIXTURE_SETUP(dir)
{
	strcpy(self->dir, "/tmp/blkqual-expand.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* Write @text to @dir/@name (subdirectories made as needed); @path receives it. */
static int put(const char *dir, const char *name, const char *text, char *path, size_t len)
{
	char tmp[PATH_MAX];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/%s", dir, name);
	for (char *s = strchr(tmp + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(tmp, 0755);
		*s = '/';
	}
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	if (path)
		snprintf(path, len, "%s", tmp);
	return 0;
}

/* One job file, parsed; the first job (of one) into @job. */
static int parse1(const char *dir, const char *text, struct bq_jobset *set,
		  struct bq_parse_error *err)
{
	char path[PATH_MAX];
	int ret = put(dir, "job.fio", text, path, sizeof(path));

	memset(err, 0, sizeof(*err));
	if (ret)
		return ret;
	return bq_jobfile_parse(path, set, err);
}

static long ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static long long mb_memory(void)
{
	return (long long)((unsigned long long)sysconf(_SC_PHYS_PAGES) *
			   (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
}

/* ---- include ------------------------------------------------------------ */

/*
 * fio's rules: an include joins the section it is in, its path is taken
 * from the current directory or else next to the including file (so a
 * nested one is next to its own includer).
 */
TEST_F(dir, include_nested_and_relative)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, put(self->dir, "common.fio", "bs=8k\niodepth=4\n", NULL, 0));
	ASSERT_EQ(0, put(self->dir, "sub/job.fio", "; the job's own\ninclude more.fio\n"
			 "rw=randread\n", NULL, 0));
	ASSERT_EQ(0, put(self->dir, "sub/more.fio", "size=1m\n", NULL, 0));
	ASSERT_EQ(0, parse1(self->dir, "[global]\ninclude common.fio\nfilename=/dev/x\n"
			    "[a]\ninclude sub/job.fio\n[b]\nrw=write\n", &set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(2, set.nr);
	EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_READ]);
	EXPECT_EQ(4, set.jobs[0].iodepth);
	EXPECT_EQ(BQ_RW_RANDREAD, set.jobs[0].rw);
	EXPECT_EQ(1 * MiB, set.jobs[0].size);
	/* What [a] included stays in [a]. */
	EXPECT_EQ(BQ_RW_WRITE, set.jobs[1].rw);
	EXPECT_EQ(0, set.jobs[1].size);
	EXPECT_EQ(4, set.jobs[1].iodepth);
	bq_jobset_free(&set);
}

TEST_F(dir, include_errors_name_file_and_line)
{
	static const struct {
		const char *main;
		const char *inc;	/* inc.fio's text, or NULL */
		int ret;
		const char *where;	/* file:line, relative to the directory */
		const char *msg;
	} cases[] = {
		{ "[a]\nfilename=/dev/x\ninclude missing.fio\n", NULL, -ENOENT, "job.fio:3",
		  "missing.fio" },
		{ "[a]\nfilename=/dev/x\ninclude inc.fio\n", "bs=4k\ninclude job.fio\n", -ELOOP,
		  "inc.fio:2", "include loop" },
		{ "[a]\ninclude job.fio\n", NULL, -ELOOP, "job.fio:2", "include loop" },
		{ "[a]\nfilename=/dev/x\ninclude inc.fio\n", "bs=4k\n\n[b]\n", -EINVAL,
		  "inc.fio:3", "section in an included file" },
		{ "include inc.fio\n[a]\n", "bs=4k\n", -EINVAL, "job.fio:1", "before any section" },
		{ "[a]\nfilename=/dev/x\ninclude inc.fio\n", "bs=4q\n", -EINVAL, "inc.fio:1",
		  "'4q' is not a size" },
		{ "[a]\nfilename=/dev/x\ninclude /dev/zero\n", NULL, -EINVAL, "job.fio:3",
		  "not a regular file" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_jobset set;
		struct bq_parse_error err;
		char where[PATH_MAX];

		unlink(strcat(strcpy(where, self->dir), "/inc.fio"));
		if (cases[i].inc)
			ASSERT_EQ(0, put(self->dir, "inc.fio", cases[i].inc, NULL, 0));
		EXPECT_EQ(cases[i].ret, parse1(self->dir, cases[i].main, &set, &err))
			TH_LOG("case %zu: %s: %s", i, err.where, err.msg);
		snprintf(where, sizeof(where), "%s/%s", self->dir, cases[i].where);
		EXPECT_STREQ(where, err.where) TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].msg)) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_EQ(0, set.nr);
	}
}

/* The command: exit 2 and one line, naming the file and line. */
TEST_F(dir, include_missing_exits_2_with_one_line)
{
	struct run_result r;
	char path[PATH_MAX], want[PATH_MAX + 16];

	ASSERT_EQ(0, put(self->dir, "job.fio", "[a]\nioengine=null\nfilename=/dev/null\n"
			 "size=1m\ninclude nope.fio\n", path, sizeof(path)));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", path, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	snprintf(want, sizeof(want), "%s:5:", path);
	EXPECT_NE(NULL, strstr(r.err, want)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "nope.fio")) TH_LOG("%s", r.err);
	run_result_free(&r);

	ASSERT_EQ(0, put(self->dir, "job.fio", "[a]\nioengine=null\nfilename=/dev/null\n"
			 "size=$mb_memory*2m\n", path, sizeof(path)));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", path, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	snprintf(want, sizeof(want), "%s:4:", path);
	EXPECT_NE(NULL, strstr(r.err, want)) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/* ---- variables and arithmetic -------------------------------------------- */

/* What fio 3.33 makes of each (its --debug=parse "out=" value). */
TEST_F(dir, keywords_and_bc_arithmetic)
{
	const struct {
		const char *opt;
		unsigned long long want;
	} cases[] = {
		{ "size=$pagesize", (unsigned long long)sysconf(_SC_PAGESIZE) },
		{ "size=8*$mb_memory", 8ull * mb_memory() },
		{ "size=$ncpus*2", 2ull * ncpus() },
		{ "size=($ncpus+1)*3", 3ull * (ncpus() + 1) },
		{ "size=$pagesize/3", (unsigned long long)sysconf(_SC_PAGESIZE) / 3 },
		{ "size=1+ 2*$ncpus", 1ull + 2 * ncpus() },
		{ "size=$ncpus*5000000000000", 5000000000000ull * ncpus() },
		/* No operator, no bc: the unit after the number is fio's as usual. */
		{ "size=$ncpusk", ncpus() * KiB },
		{ "size=2^3*$ncpus", 8ull * ncpus() },
		{ "size=-2^2*$ncpus", 4ull * ncpus() },
		{ "size=17%5+$ncpus", 2ull + ncpus() },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_jobset set;
		struct bq_parse_error err;
		char text[256];

		snprintf(text, sizeof(text), "[a]\nfilename=/dev/x\n%s\n", cases[i].opt);
		ASSERT_EQ(0, parse1(self->dir, text, &set, &err))
			TH_LOG("%s: %s: %s", cases[i].opt, err.where, err.msg);
		EXPECT_EQ(cases[i].want, set.jobs[0].size) TH_LOG("%s", cases[i].opt);
		bq_jobset_free(&set);
	}
}

TEST_F(dir, bad_arithmetic_refused)
{
	static const char *const bad[] = {
		"size=$mb_memory*2m",	/* bc: syntax error, in fio too */
		"size=$ncpus/0",
		"size=$ncpus*(2",
		"filename=/dev/sd$ncpus",
		"size=(1+)",
		"size=(2*)k",
		"size=(3*1024*1024*1024)",	/* fio would keep 32 bits of it */
		"size=(4%0)",
		"size=(1tib)",
		"size=(-(0x8000000000000000))",
		"size=$ncpus+((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct bq_jobset set;
		struct bq_parse_error err;
		char text[256], where[PATH_MAX];

		snprintf(text, sizeof(text), "[a]\nfilename=/dev/x\n\n%s\n", bad[i]);
		EXPECT_EQ(-EINVAL, parse1(self->dir, text, &set, &err)) TH_LOG("%s", bad[i]);
		snprintf(where, sizeof(where), "%s/job.fio:4", self->dir);
		EXPECT_STREQ(where, err.where) TH_LOG("%s: %s", bad[i], err.msg);
		EXPECT_EQ(0, set.nr);
	}
	/* Powers of 1 are known at once, however large the exponent. */
	{
		struct bq_jobset set;
		struct bq_parse_error err;

		ASSERT_EQ(0, parse1(self->dir, "[a]\nfilename=/dev/x\n"
				    "size=1^999999999999999+$ncpus\nio_size=(1^999999999999999)\n",
				    &set, &err))
			TH_LOG("%s: %s", err.where, err.msg);
		EXPECT_EQ(1 + ncpus(), set.jobs[0].size);
		EXPECT_EQ(1, set.jobs[0].io_size);
		bq_jobset_free(&set);
	}
}

/* fio's HOWTO grammar: a unit binds looser than '*' and '/', times are in us. */
TEST_F(dir, parenthesised_expressions)
{
	const struct {
		const char *opt;
		unsigned long long want;
		size_t off;
	} cases[] = {
		{ "size=(2*1m)", 2 * MiB, offsetof(struct bq_job, size) },
		{ "size=(1+2k)", 2049, offsetof(struct bq_job, size) },
		{ "size=(8/2k)", 4 * KiB, offsetof(struct bq_job, size) },
		{ "size=(2^10)", 1024, offsetof(struct bq_job, size) },
		{ "size=(1kib)", 1000, offsetof(struct bq_job, size) },
		{ "size=(1.5k)", 1024, offsetof(struct bq_job, size) },
		{ "size=(0x10 * 4)", 64, offsetof(struct bq_job, size) },
		{ "size=(-(-3))", 3, offsetof(struct bq_job, size) },
		{ "size=(10%3k)", 1024, offsetof(struct bq_job, size) },
		{ "size=(1g)", 1024 * MiB, offsetof(struct bq_job, size) },
		{ "runtime=(1m+30s)", 90 * NS_PER_S, offsetof(struct bq_job, runtime_ns) },
		{ "runtime=(1500ms)", 1 * NS_PER_S, offsetof(struct bq_job, runtime_ns) },
		{ "runtime=(5)", 5 * NS_PER_S, offsetof(struct bq_job, runtime_ns) },
		{ "thinktime=(2ms)", 2000 * NS_PER_US, offsetof(struct bq_job, thinktime_ns) },
		{ "thinktime=(250)", 250 * NS_PER_US, offsetof(struct bq_job, thinktime_ns) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_jobset set;
		struct bq_parse_error err;
		char text[256];

		snprintf(text, sizeof(text), "[a]\nfilename=/dev/x\n%s\n", cases[i].opt);
		ASSERT_EQ(0, parse1(self->dir, text, &set, &err))
			TH_LOG("%s: %s: %s", cases[i].opt, err.where, err.msg);
		EXPECT_EQ(cases[i].want, *(uint64_t *)((char *)&set.jobs[0] + cases[i].off))
			TH_LOG("%s", cases[i].opt);
		bq_jobset_free(&set);
	}
	{
		struct bq_jobset set;
		struct bq_parse_error err;

		ASSERT_EQ(0, parse1(self->dir, "[a]\nfilename=/dev/x\niodepth=(4*2)\n"
				    "bs=(2*2k),(8k)\n", &set, &err))
			TH_LOG("%s: %s", err.where, err.msg);
		EXPECT_EQ(8, set.jobs[0].iodepth);
		EXPECT_EQ(4 * KiB, set.jobs[0].bs[BQ_READ]);
		EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_WRITE]);
		bq_jobset_free(&set);
	}
}

/* An unset variable is the empty string in fio, not an error. */
TEST_F(dir, env_variables)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	setenv("BQ_EXPAND_SIZE", "64m", 1);
	setenv("BQ_EXPAND_JOBS", "$ncpus", 1);
	unsetenv("BQ_EXPAND_UNSET");
	ASSERT_EQ(0, parse1(self->dir, "[a]\nfilename=/dev/x\nsize=${BQ_EXPAND_SIZE}\n"
			    "bs=4${BQ_EXPAND_UNSET}k\nnumjobs=${BQ_EXPAND_JOBS}\n", &set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_EQ(64 * MiB, set.jobs[0].size);
	EXPECT_EQ(4 * KiB, set.jobs[0].bs[BQ_READ]);
	EXPECT_EQ(ncpus(), set.jobs[0].numjobs);
	bq_jobset_free(&set);

	/* fio replaces keywords in option lines only: a section keeps its name. */
	ASSERT_EQ(0, parse1(self->dir, "[j$ncpus-${BQ_EXPAND_SIZE}]\nfilename=/dev/x\n", &set,
			    &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_STREQ("j$ncpus-64m", set.jobs[0].name);
	bq_jobset_free(&set);
}

/* ---- kb_base and unit_base ------------------------------------------------ */

TEST_F(dir, kb_base_as_fio)
{
	const struct {
		const char *text;
		unsigned long long size;
		unsigned int bs;
	} cases[] = {
		/* kb_base=1024: fio swaps the prefixes, 1KiB is 1000. */
		{ "size=1k\nbs=4KiB\n", 1024, 4000 },
		{ "size=1ki\nbs=4kB\n", 1024, 4096 },
		{ "size=1MiB\n", 1000000, 4096 },
		/* kb_base=1000: the standards; later in the section counts too. */
		{ "size=1k\nbs=4KiB\nkb_base=1000\n", 1000, 4096 },
		{ "kb_base=1000\nsize=1m\nbs=8ki\n", 1000000, 8000 },
		{ "kb_base=1000\nsize=1MiB\nbs=(4k)\n", MiB, 4096 },
		{ "kb_base=1024\nsize=1m\n", MiB, 4096 },
		{ "unit_base=8\nsize=1m\n", MiB, 4096 },
		{ "unit_base=0\nsize=1m\n", MiB, 4096 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_jobset set;
		struct bq_parse_error err;
		char text[256];

		snprintf(text, sizeof(text), "[a]\nfilename=/dev/x\n%s", cases[i].text);
		ASSERT_EQ(0, parse1(self->dir, text, &set, &err))
			TH_LOG("case %zu: %s: %s", i, err.where, err.msg);
		EXPECT_EQ(cases[i].size, set.jobs[0].size) TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].bs, set.jobs[0].bs[BQ_READ]) TH_LOG("case %zu", i);
		bq_jobset_free(&set);
	}
}

TEST_F(dir, kb_base_from_global_and_refusals)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, parse1(self->dir, "[global]\nkb_base=1000\nfilename=/dev/x\n"
			    "[a]\nsize=2k\n[b]\nkb_base=1024\nsize=2k\n", &set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_EQ(2000, set.jobs[0].size);
	EXPECT_EQ(2048, set.jobs[1].size);
	bq_jobset_free(&set);

	EXPECT_EQ(-EINVAL, parse1(self->dir, "[a]\nfilename=/dev/x\nkb_base=1001\n", &set,
				  &err));
	EXPECT_NE(NULL, strstr(err.msg, "kb_base=1001")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, parse1(self->dir, "[a]\nfilename=/dev/x\nunit_base=1\n", &set,
				      &err));
	EXPECT_NE(NULL, strstr(err.msg, "unit_base=1")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, parse1(self->dir, "[a]\nfilename=/dev/x\nunit_base=2\n", &set,
				  &err));
}

/* A result file's options (bq_job_to_args()) give back the same job. */
TEST_F(dir, kb_base_round_trip)
{
	struct bq_jobset a, b;
	struct bq_parse_error err;
	struct bq_strv out = { 0 };
	struct bq_job x, y;

	ASSERT_EQ(0, parse1(self->dir, "[a]\nfilename=/dev/x\nkb_base=1000\nunit_base=8\n"
			    "bs=4KiB\nsize=10m\n", &a, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	x = a.jobs[0];
	y = b.jobs[0];
	EXPECT_STREQ(x.filenames[0], y.filenames[0]);
	memset(x.filenames, 0, sizeof(x.filenames));
	memset(y.filenames, 0, sizeof(y.filenames));
	/* How the options were spelled (fio's "job options"), not what they mean. */
	memset(x.fio_given, 0, sizeof(x.fio_given));
	memset(y.fio_given, 0, sizeof(y.fio_given));
	x.fio_given_own = y.fio_given_own = 0;
	EXPECT_EQ(0, memcmp(&x, &y, sizeof(x)));
	EXPECT_EQ(10000000, y.size);
	EXPECT_EQ(1000, y.kb_base);
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

/* ---- --section ------------------------------------------------------------ */

static int from_args(struct bq_jobset *set, struct bq_parse_error *err, int argc, ...)
{
	char *argv[16];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc && i < 16; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return bq_jobs_from_args(argc, argv, set, err);
}

TEST_F(dir, section_keeps_named_jobs_and_global)
{
	struct bq_jobset set;
	struct bq_parse_error err;
	char path[PATH_MAX];

	ASSERT_EQ(0, put(self->dir, "job.fio", "[global]\nfilename=/dev/x\nbs=8k\n"
			 "[a]\nrw=read\n[b]\nrw=write\nbs=4q\n[c]\nrw=randread\n"
			 "include nowhere.fio\n", path, sizeof(path)));
	ASSERT_EQ(0, from_args(&set, &err, 2, "--section=a", path))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_STREQ("a", set.jobs[0].name);
	EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_READ]);
	bq_jobset_free(&set);

	/* Repeated, either spelling, after the file: file order. */
	ASSERT_EQ(0, from_args(&set, &err, 4, path, "--section", "a", "-section=a"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	bq_jobset_free(&set);

	/* What is not run is not read: [b]'s bad value and [c]'s include are skipped. */
	EXPECT_EQ(-EINVAL, from_args(&set, &err, 2, "--section=b", path));
	EXPECT_EQ(-ENOENT, from_args(&set, &err, 2, "--section=c", path));
	EXPECT_EQ(-EINVAL, from_args(&set, &err, 2, "--section=nope", path));
	EXPECT_NE(NULL, strstr(err.msg, "nope")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, from_args(&set, &err, 2, "--section=global", path));
	EXPECT_EQ(-EINVAL, from_args(&set, &err, 2, path, "--section"));

	/* --name jobs are chosen the same way. */
	ASSERT_EQ(0, from_args(&set, &err, 5, "--filename=/dev/x", "--name=x", "--name=y",
			       "--rw=write", "--section=y"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_STREQ("y", set.jobs[0].name);
	EXPECT_EQ(BQ_RW_WRITE, set.jobs[0].rw);
	bq_jobset_free(&set);
}

/* ---- a run, next to fio ---------------------------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, 64 << 20);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/* fio's JSON for @job; NULL (with the reason logged) when it did not run. */
static json_object *fio_json(struct __test_metadata *_metadata, const char *job)
{
	const char *argv[] = { "fio", "--output-format=json", job, NULL };
	struct run_result r;
	json_object *root = NULL;

	if (run_argv(argv, &r))
		return NULL;
	if (!r.status && r.out)
		root = json_tokener_parse(strchr(r.out, '{') ? strchr(r.out, '{') : r.out);
	if (!root)
		TH_LOG("fio exit %d: %.300s", r.status, r.err ? r.err : "");
	run_result_free(&r);
	return root;
}

/*
 * include + ${VAR} + $ncpus/$pagesize arithmetic + kb_base=1000, each
 * job ending by size: blkqual must move what fio moves, job by job.
 */
TEST_F_TIMEOUT(dev, same_bytes_as_fio, 60)
{
	static const char *const names[] = { "seqwrite", "randread", "kbread" };
	char main_path[PATH_MAX + 16], inc[PATH_MAX + 16];
	const char *args[] = { main_path, NULL };
	json_object *bq, *fio;
	struct run_result r;
	FILE *f;

	PREP_READY(&self->p);
	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	snprintf(inc, sizeof(inc), "%s/common.fio", self->s.dir);
	f = fopen(inc, "w");
	ASSERT_NE(NULL, f);
	fputs("ioengine=psync\ndirect=1\nbs=${BQ_EXPAND_BS}\n", f);
	fclose(f);
	snprintf(inc, sizeof(inc), "%s/reader.fio", self->s.dir);
	f = fopen(inc, "w");
	ASSERT_NE(NULL, f);
	fputs("ioengine=libaio\niodepth=4\nrw=randread\n", f);
	fclose(f);
	snprintf(main_path, sizeof(main_path), "%s/main.fio", self->s.dir);
	f = fopen(main_path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\ninclude common.fio\nfilename=${BQ_EXPAND_DEV}\n"
		"[seqwrite]\nrw=write\nsize=$ncpus*1048576\n"
		"[randread]\ninclude reader.fio\nsize=8*$pagesize*64\noffset=${BQ_EXPAND_OFF}\n"
		"[kbread]\nkb_base=1000\nbs=4KiB\nsize=4096k\noffset=8m\n");
	fclose(f);
	setenv("BQ_EXPAND_DEV", self->s.dev, 1);
	setenv("BQ_EXPAND_BS", "16k", 1);
	setenv("BQ_EXPAND_OFF", "16m", 1);

	fio = fio_json(_metadata, main_path);
	ASSERT_NE(NULL, fio);
	bq = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, bq) TH_LOG("exit %d: %.300s", r.status, r.err ? r.err : "");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		json_object *fj = json_find_by(json_object_object_get(fio, "jobs"), "jobname",
					       names[i]);
		json_object *bj = json_find_by(json_object_object_get(bq, "jobs"), "name",
					       names[i]);
		long long f_rd, f_wr, b_rd, b_wr;

		ASSERT_NE(NULL, fj) TH_LOG("fio: no job %s", names[i]);
		ASSERT_NE(NULL, bj) TH_LOG("blkqual: no job %s", names[i]);
		f_rd = json_int(fj, "read.io_bytes", -1);
		f_wr = json_int(fj, "write.io_bytes", -1);
		b_rd = json_int(bj, "total.read.bytes", -1);
		b_wr = json_int(bj, "total.write.bytes", -1);
		TH_LOG("%s: fio read %lld write %lld, blkqual read %lld write %lld", names[i],
		       f_rd, f_wr, b_rd, b_wr);
		EXPECT_EQ(f_rd, b_rd);
		EXPECT_EQ(f_wr, b_wr);
		EXPECT_EQ(json_int(fj, "read.total_ios", -1), json_int(bj, "total.read.ios", -2));
		EXPECT_EQ(json_int(fj, "write.total_ios", -1),
			  json_int(bj, "total.write.ios", -2));
	}
	/* The figures themselves: $ncpus MiB written, 2 MiB and 4,096,000 bytes read. */
	EXPECT_EQ(ncpus() * (long long)MiB,
		  json_int(json_find_by(json_object_object_get(bq, "jobs"), "name", "seqwrite"),
			   "total.write.bytes", -1));
	EXPECT_EQ(4096000, json_int(json_find_by(json_object_object_get(bq, "jobs"), "name",
						 "kbread"), "total.read.bytes", -1));
	json_object_put(bq);
	json_object_put(fio);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
