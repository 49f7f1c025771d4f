// SPDX-License-Identifier: GPL-2.0-only
/*
 * files_test.c - blkqual files, vdbench's file system workloads: the
 * parameter file parser (several definitions on a line, continuations,
 * comments, defaults, lists, abbreviations, $substitutions, and every
 * error naming file:line), plans (threads and fwdrate split as vdbench
 * splits them), the command line's bad input in one line, and real runs on
 * an XFS over a scratch loop device: format plus a read run with its
 * interval and avg lines and JSON, files made and removed with O_DSYNC
 * writes beside them, format=only, and the anchors blkqual refuses to
 * touch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_files.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"

static void fixture_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/selftests/fixtures/files/%s", srctree_path(), name);
}

/* Parse @text as a parameter file (its name ends in "/t.parm"); gone afterwards. */
static int parse_text(const char *text, struct bq_files_parms *p, struct bq_parse_error *err)
{
	char dir[] = "/tmp/blkqual-files.XXXXXX", path[64];
	const char *paths[1] = { path };
	FILE *f;
	int ret;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/t.parm", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	ret = bq_files_parse_files(paths, 1, NULL, 0, p, err);
	unlink(path);
	rmdir(dir);
	return ret;
}

static int count_substr(const char *s, const char *needle)
{
	int n = 0;

	for (; s && (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/* blkqual files ARGS...; up to 16 arguments. */
static int files(struct run_result *r, const char *const *args)
{
	const char *argv[20] = { blkqual_path(), "files" };
	int n = 2;

	for (int i = 0; args[i] && n < 18; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_argv(argv, r);
}

/* ---- the parser ------------------------------------------------------------ */

TEST(multi_definition_file)
{
	struct bq_parse_error err = { 0 };
	struct bq_files_parms p;
	const char *paths[1];
	char path[512];

	fixture_path(path, sizeof(path), "multi.parm");
	paths[0] = path;
	ASSERT_EQ(0, bq_files_parse_files(paths, 1, NULL, 0, &p, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_TRUE(p.create_anchors);

	/* two fsds from one line; fsd=default applied to both */
	ASSERT_EQ(2, p.nr_fsd);
	EXPECT_STREQ("fsd1", p.fsd[0].name);
	EXPECT_STREQ("/tmp/blkqual-multi/a", p.fsd[0].anchor);
	EXPECT_EQ(2, p.fsd[0].depth);
	EXPECT_EQ(3, p.fsd[0].width);
	EXPECT_EQ(4, p.fsd[0].files);
	ASSERT_EQ(2, p.fsd[0].sizes.nr);
	EXPECT_EQ(32768, p.fsd[0].sizes.val[0]);
	EXPECT_EQ(65536, p.fsd[0].sizes.val[1]);
	EXPECT_EQ(50, (int)p.fsd[0].sizes.pct[1]);
	EXPECT_STREQ("fsd2", p.fsd[1].name);
	EXPECT_EQ(1, p.fsd[1].depth);
	EXPECT_EQ(3, p.fsd[1].width);
	EXPECT_NE(NULL, strstr(p.fsd[1].where, "multi.parm:11"));

	/* fwd=default over two lines; "th=" abbreviates threads= */
	ASSERT_EQ(2, p.nr_fwd);
	EXPECT_EQ(BQ_FOP_READ, p.fwd[0].op);
	EXPECT_EQ(4, p.fwd[0].threads);
	EXPECT_EQ(2, p.fwd[0].xfer.nr);
	EXPECT_EQ(8192, p.fwd[0].xfer.val[1]);
	EXPECT_FALSE(p.fwd[0].random_io);
	EXPECT_FALSE(p.fwd[0].select_random);
	/* fwd2 continues on a line starting with a comma */
	EXPECT_EQ(BQ_FOP_WRITE, p.fwd[1].op);
	EXPECT_EQ(2, p.fwd[1].nr_fsd);
	EXPECT_EQ(70, (int)p.fwd[1].rdpct);
	EXPECT_EQ(40, (int)p.fwd[1].skew);
	EXPECT_TRUE(p.fwd[1].select_random);
	EXPECT_EQ(O_DSYNC, p.fwd[1].openflags.flags);
	EXPECT_TRUE(p.fwd[1].openflags.fsync);

	/* rd=default's interval; minutes; format lists; nothing after eof */
	ASSERT_EQ(2, p.nr_rd);
	EXPECT_EQ(600, p.rd[0].elapsed_s);
	EXPECT_EQ(5, p.rd[0].interval_s);
	EXPECT_EQ(1000, (int)p.rd[0].rate);
	EXPECT_FALSE(p.rd[0].rate_max);
	EXPECT_TRUE(p.rd[0].format.requested);
	EXPECT_TRUE(p.rd[0].format.restart);
	EXPECT_TRUE(p.rd[0].format.only);
	EXPECT_TRUE(p.rd[1].rate_max);
	EXPECT_FALSE(p.rd[1].format.requested);
	EXPECT_EQ(10, p.rd[1].warmup_s);
	EXPECT_EQ(5, p.rd[1].interval_s);
	EXPECT_EQ(8, p.format_fwd.threads);
	EXPECT_EQ(128 << 10, p.format_fwd.xfer.val[0]);
	bq_files_parms_free(&p);
}

TEST(plans_split_threads_rate_and_flags)
{
	struct bq_parse_error err = { 0 };
	struct bq_files_plan plan;
	struct bq_files_parms p;
	const char *paths[1];
	char path[512];

	fixture_path(path, sizeof(path), "multi.parm");
	paths[0] = path;
	ASSERT_EQ(0, bq_files_parse_files(paths, 1, NULL, 0, &p, &err));

	/* rd1: fwd1 has no skew, so the 60% fwd2 leaves; fwd2's 40% over two fsds */
	ASSERT_EQ(0, bq_files_plan(&p, 0, false, &plan, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(3, plan.nr_fwg);
	EXPECT_STREQ("fwd1", plan.fwg[0].fwd->name);
	EXPECT_EQ(4, plan.fwg[0].threads);
	EXPECT_EQ(600, (int)(plan.fwg[0].rate + 0.5));
	EXPECT_EQ(2, plan.fwg[1].threads);
	EXPECT_EQ(200, (int)(plan.fwg[1].rate + 0.5));
	EXPECT_EQ(1, plan.fwg[2].fsd);
	EXPECT_EQ(8, plan.nr_threads);
	EXPECT_EQ(1u << BQ_FOP_READ | 1u << BQ_FOP_WRITE, plan.requested);
	EXPECT_EQ(O_DSYNC, plan.fwg[1].openflags.flags);
	bq_files_plan_free(&plan);

	/* rd2: fwdrate=max, the rd's openflags win */
	ASSERT_EQ(0, bq_files_plan(&p, 1, false, &plan, &err));
	EXPECT_EQ(0, (int)plan.fwg[0].rate);
	EXPECT_EQ(O_DIRECT, plan.fwg[1].openflags.flags);
	bq_files_plan_free(&plan);

	/* the format of rd1: one group per fsd, fwd=format's 8 threads each */
	ASSERT_EQ(0, bq_files_plan(&p, 0, true, &plan, &err));
	EXPECT_EQ(2, plan.nr_fwg);
	EXPECT_EQ(16, plan.nr_threads);
	EXPECT_EQ(1u << BQ_FOP_WRITE, plan.requested);
	bq_files_plan_free(&plan);
	bq_files_parms_free(&p);
}

TEST(skew_must_add_up)
{
	struct bq_parse_error err = { 0 };
	struct bq_files_plan plan;
	struct bq_files_parms p;

	ASSERT_EQ(0, parse_text("fsd=f,anchor=/tmp/x\n"
				"fwd=a,fsd=f,skew=70\nfwd=b,fsd=f,skew=20\n"
				"rd=r,fwd=*,fwdrate=100\n", &p, &err));
	EXPECT_EQ(-EINVAL, bq_files_plan(&p, 0, false, &plan, &err));
	EXPECT_NE(NULL, strstr(err.where, "t.parm:4")) TH_LOG("%s", err.where);
	EXPECT_NE(NULL, strstr(err.msg, "adds up to 90")) TH_LOG("%s", err.msg);
	bq_files_parms_free(&p);
}

TEST(dollar_substitution)
{
	struct bq_files_var vars[] = { { "anchor", "/tmp/blkqual-subst" } };
	struct bq_parse_error err = { 0 };
	struct bq_files_parms p;
	const char *paths[1];
	char path[512];

	fixture_path(path, sizeof(path), "read.parm");
	paths[0] = path;
	ASSERT_EQ(0, bq_files_parse_files(paths, 1, vars, 1, &p, &err)) TH_LOG("%s", err.msg);
	EXPECT_STREQ("/tmp/blkqual-subst", p.fsd[0].anchor);
	EXPECT_EQ(16, p.fsd[0].width * p.fsd[0].files);
	EXPECT_TRUE(p.fwd[0].random_io);
	bq_files_parms_free(&p);

	EXPECT_EQ(-EINVAL, bq_files_parse_files(paths, 1, NULL, 0, &p, &err));
	EXPECT_NE(NULL, strstr(err.where, "read.parm:7")) TH_LOG("%s", err.where);
	EXPECT_NE(NULL, strstr(err.msg, "$anchor is not defined")) TH_LOG("%s", err.msg);
}

struct bad {
	const char *text;
	int ret;
	int line;		/* 0: the file, no line */
	const char *msg;
};

static const struct bad bad_files[] = {
	{ "fsd=fsd1,anchor=/a\nfwd=fwd1,fsd=fsd1,bogus=1\nrd=rd1,fwd=fwd1,fwdrate=max\n",
	  -EINVAL, 2, "bogus=: unknown keyword in an fwd" },
	{ "fsd=fsd1,anchor=/a,journal=/j\n", -EOPNOTSUPP, 1, "journal=: not implemented" },
	{ "fsd=fsd1,anchor=/a\nfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,elapsed=5\n",
	  -EINVAL, 3, "fwdrate= is required" },
	{ "fsd=fsd1,anchor=/a,depth=2)\n", -EINVAL, 1, "')' without '('" },
	{ "* comment\n\nfsd=fsd1,anchor=/a,size=4q\n", -EINVAL, 3, "'4q' is not a size" },
	{ "fsd=fsd1,anchor=/a,size=(4k,50,8k,40)\n", -EINVAL, 1, "add up to 90" },
	{ "fsd=fsd1,anchor=/a\nfsd=fsd1,anchor=/b\n", -EINVAL, 2, "defined twice" },
	{ "fsd=fsd1,anchor=/a\n", -EINVAL, 0, "no rd= definition" },
	{ "fsd=fsd1,anchor=/a\nfwd=read,fsd=fsd1\n", -EINVAL, 2, "named as an operation" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f,operation=create,rdpct=50\nrd=r,fwd=w,fwdrate=max\n",
	  -EINVAL, 2, "rdpct= goes with operation=read or write" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f\nrd=r,fwd=w,fwdrate=max,format=once\n",
	  -EOPNOTSUPP, 3, "format=once: not implemented" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f\nrd=r,fwd=w,fwdrate=(10,20)\n",
	  -EOPNOTSUPP, 3, "for-loop" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f,fileio=(random,shared)\n", -EOPNOTSUPP, 2,
	  "shared files are not implemented" },
	{ "fsd=a,anchor=/x\nfsd=b,anchor=/x/y\nfwd=w,fsd=*\nrd=r,fwd=w,fwdrate=max\n",
	  -EINVAL, 2, "is inside fsd=a's anchor" },
	{ "fsd=fsd1,anchor\n", -EINVAL, 1, "expected keyword=value" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f,xfersize=(4k,50,\n  8k,50\n", -EINVAL, 2,
	  "'(' not closed" },
	{ "fsd=f,anchor=/a\nfwd=w,fsd=f,operation=copy\n", -EOPNOTSUPP, 2,
	  "operation=copy is not implemented" },
	{ "sd=sd1,lun=/dev/sdb\n", -EOPNOTSUPP, 1, "raw storage workloads" },
	{ "fsd=f,anchor=/a,depth=33\n", -EINVAL, 1, "depth=33: a whole number from 0 to 32" },
	{ "include=not-there.parm\n", -ENOENT, 1, "include=" },
};

TEST(errors_name_file_and_line)
{
	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		const struct bad *b = &bad_files[i];
		struct bq_parse_error err = { 0 };
		struct bq_files_parms p;
		char where[32];
		int ret = parse_text(b->text, &p, &err);

		if (b->line)
			snprintf(where, sizeof(where), "t.parm:%d", b->line);
		else
			snprintf(where, sizeof(where), "t.parm");
		EXPECT_EQ(b->ret, ret) TH_LOG("case %zu: %s: %s", i, err.where, err.msg);
		EXPECT_NE(NULL, strstr(err.where, where))
			TH_LOG("case %zu: where '%s', want '%s'", i, err.where, where);
		EXPECT_NE(NULL, strstr(err.msg, b->msg))
			TH_LOG("case %zu: msg '%s', want '%s'", i, err.msg, b->msg);
		EXPECT_EQ(NULL, strchr(err.msg, '\n'));
		if (!ret)
			bq_files_parms_free(&p);
	}
}

TEST(command_line_form)
{
	char *ok[] = { "anchor=/tmp/x", "depth=2", "width=4", "files=100", "size=64k",
		       "operation=write", "xfersize=(4k,50,8k,50)", "fileio=random",
		       "threads=4", "elapsed=5", "openflags=o_direct" };
	char *bad1[] = { "anchor=/tmp/x", "fsd=fsd2" };
	char *bad2[] = { "anchor=/tmp/x", "bogus=1" };
	char *bad3[] = { "depth=1" };
	struct bq_parse_error err = { 0 };
	struct bq_files_parms p;

	ASSERT_EQ(0, bq_files_parse_args(11, ok, &p, &err)) TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_EQ(1, p.nr_fsd);
	EXPECT_EQ(2, p.fsd[0].depth);
	EXPECT_EQ(100, p.fsd[0].files);
	EXPECT_EQ(65536, p.fsd[0].sizes.val[0]);
	EXPECT_EQ(BQ_FOP_WRITE, p.fwd[0].op);
	EXPECT_EQ(2, p.fwd[0].xfer.nr);
	EXPECT_TRUE(p.fwd[0].random_io);
	EXPECT_EQ(O_DIRECT, p.fwd[0].openflags.flags);
	EXPECT_EQ(5, p.rd[0].elapsed_s);
	/* without format=, make what is missing; fwdrate max */
	EXPECT_TRUE(p.rd[0].format.restart);
	EXPECT_TRUE(p.rd[0].rate_max);
	bq_files_parms_free(&p);

	EXPECT_EQ(-EINVAL, bq_files_parse_args(2, bad1, &p, &err));
	EXPECT_STREQ("fsd=fsd2", err.where);
	EXPECT_EQ(-EINVAL, bq_files_parse_args(2, bad2, &p, &err));
	EXPECT_STREQ("bogus=1", err.where);
	EXPECT_EQ(-EINVAL, bq_files_parse_args(1, bad3, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, "anchor=DIR is required"));
}

/*
 * A file pasted with its lines run together: each part after a blank that
 * starts a definition is a line of its own; any other text after a blank
 * stays a comment, as in vdbench.
 */
TEST(pasted_on_one_line)
{
	static const char one[] =
		"create_anchors=yes messagescan=no "
		"fsd=fsd1,anchor=/tmp/x,depth=1,width=2,files=4,size=1m   "
		"fwd=fwd1,fsd=fsd1,operation=read\tRD=rd1,fwd=fwd1,fwdrate=max,format=yes,"
		"elapsed=5,interval=1 depth=3 fsd=never\n";
	static const char multi[] =
		"create_anchors=yes\nmessagescan=no\n"
		"fsd=fsd1,anchor=/tmp/x,depth=1,width=2,files=4,size=1m\n"
		"fwd=fwd1,fsd=fsd1,operation=read\n"
		"rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=5,interval=1\n";
	struct bq_parse_error err = { 0 };
	struct bq_files_parms a, b;

	ASSERT_EQ(0, parse_text(one, &a, &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, parse_text(multi, &b, &err)) TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_TRUE(a.create_anchors);
	ASSERT_EQ(1, a.nr_fsd);
	ASSERT_EQ(1, a.nr_fwd);
	ASSERT_EQ(1, a.nr_rd);
	ASSERT_EQ(b.nr_fsd, a.nr_fsd);
	ASSERT_EQ(b.nr_fwd, a.nr_fwd);
	ASSERT_EQ(b.nr_rd, a.nr_rd);
	/* all the same but where they were defined ("depth=3 fsd=never" is a comment) */
	memset(a.fsd[0].where, 0, sizeof(a.fsd[0].where));
	memset(b.fsd[0].where, 0, sizeof(b.fsd[0].where));
	memset(a.fwd[0].where, 0, sizeof(a.fwd[0].where));
	memset(b.fwd[0].where, 0, sizeof(b.fwd[0].where));
	memset(a.rd[0].where, 0, sizeof(a.rd[0].where));
	memset(b.rd[0].where, 0, sizeof(b.rd[0].where));
	EXPECT_EQ(0, memcmp(&a.fsd[0], &b.fsd[0], sizeof(a.fsd[0])));
	EXPECT_EQ(0, memcmp(&a.fwd[0], &b.fwd[0], sizeof(a.fwd[0])));
	EXPECT_EQ(0, memcmp(&a.rd[0], &b.rd[0], sizeof(a.rd[0])));
	EXPECT_EQ(0, memcmp(&a.format_fwd, &b.format_fwd, sizeof(a.format_fwd)));
	EXPECT_EQ(1, a.fsd[0].depth);
	EXPECT_EQ(BQ_FOP_READ, a.fwd[0].op);
	EXPECT_EQ(5, a.rd[0].elapsed_s);
	EXPECT_TRUE(a.rd[0].rate_max);
	bq_files_parms_free(&a);
	bq_files_parms_free(&b);

	/* a quoted blank is no break; a blank inside an open ( ) list is refused */
	ASSERT_EQ(0, parse_text("fsd=f,anchor=\"/tmp/a b\" fwd=w,fsd=f rd=r,fwd=w,fwdrate=max\n",
				&a, &err)) TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_STREQ("/tmp/a b", a.fsd[0].anchor);
	bq_files_parms_free(&a);
	EXPECT_EQ(-EINVAL, parse_text("fsd=f,anchor=/a,size=(4k, 50,8k,50)\n", &a, &err));
	EXPECT_NE(NULL, strstr(err.msg, "a blank inside '( )'")) TH_LOG("%s", err.msg);
}

/* ---- the command line ------------------------------------------------------ */

TEST(bad_input_is_one_line_and_exit_2)
{
	char bad[512], notdir[] = "/tmp/blkqual-files-notdir.XXXXXX", anchor[64];
	const char *o_json[] = { "-o", "json", "-f", bad, NULL };
	const char *kw[] = { "-f", bad, NULL };
	const char *unknown[] = { "--frobnicate", NULL };
	const char *validate[] = { "-v", "-f", bad, NULL };
	const char *nodir[] = { anchor, "operation=read", NULL };
	const char *none[] = { NULL };
	struct {
		const char *const *args;
		const char *want;
	} cases[] = {
		{ o_json, "--output-format=json" },
		{ kw, "bad-keyword.parm:5: foroperations=: for-loops" },
		{ unknown, "unknown option '--frobnicate'" },
		{ validate, "-v: not implemented" },
		{ nodir, "is not a directory" },
		{ none, "needs -f PARMFILE" },
	};
	struct run_result r;
	struct stat st;
	int fd;

	fixture_path(bad, sizeof(bad), "bad-keyword.parm");
	fd = mkstemp(notdir);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "keep", 4));
	close(fd);
	snprintf(anchor, sizeof(anchor), "anchor=%s", notdir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, files(&r, cases[i].args));
		EXPECT_EQ(2, r.status) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_NE(NULL, strstr(r.err, cases[i].want)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_STREQ("", r.out);
		run_result_free(&r);
	}
	/* the would-be anchor is untouched */
	ASSERT_EQ(0, stat(notdir, &st));
	EXPECT_EQ(4, st.st_size);
	unlink(notdir);
}

TEST(simulate_writes_nothing)
{
	const char *args[] = { "-s", "-f", NULL, NULL };
	char path[512];
	struct run_result r;
	struct stat st;

	fixture_path(path, sizeof(path), "multi.parm");
	args[2] = path;
	ASSERT_EQ(0, files(&r, args));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Simulating RD=format_for_rd1")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "Simulating RD=rd2; elapsed=30; fwdrate=max."));
	/* rd1 is format=(restart,only): no run of its own */
	EXPECT_EQ(NULL, strstr(r.out, "Simulating RD=rd1"));
	EXPECT_NE(NULL, strstr(r.out, "Anchor size: anchor=/tmp/blkqual-multi/a: dirs:"));
	run_result_free(&r);
	EXPECT_NE(0, stat("/tmp/blkqual-multi", &st));
}

/* ---- real runs on XFS ------------------------------------------------------- */

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char anchor[400];
	char json[400];
	char outdir[400];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->json, sizeof(self->json), "%s/files.json", self->fs.s.dir);
	snprintf(self->outdir, sizeof(self->outdir), "%s/out", self->fs.s.dir);
}

FIXTURE_TEARDOWN(xfs)
{
	char path[460];

	unlink(self->json);
	snprintf(path, sizeof(path), "%s/summary.txt", self->outdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/totals.txt", self->outdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.json", self->outdir);
	unlink(path);
	rmdir(self->outdir);
	scratchfs_destroy(&self->fs);
}

static long long jint(json_object *o, const char *path)
{
	char buf[256], *save, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, atoi(tok));
		else if (!json_object_object_get_ex(o, tok, &o))
			o = NULL;
	}
	return o ? json_object_get_int64(o) : -1;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

TEST_F(xfs, format_then_random_reads)
{
	char parm[512], var[420], path[600];
	const char *args[] = { "-f", parm, var, "--json", self->json, "-o", self->outdir, NULL };
	struct run_result r;
	json_object *doc;
	char *tot;

	PREP_READY(&self->p);
	fixture_path(parm, sizeof(parm), "read.parm");
	snprintf(var, sizeof(var), "anchor=%s/a", self->fs.mnt);
	ASSERT_EQ(0, files(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Starting RD=format_for_rd1")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "Starting RD=rd1; elapsed=2; fwdrate=max. For loops: None"));
	EXPECT_NE(NULL, strstr(r.out, "..Interval.. .ReqstdOps... ...cpu%...  read ....read....."));
	EXPECT_NE(NULL, strstr(r.out, "rate   resp total  sys   pct   rate   resp"));
	/*
	 * A line per second (a late last one may add a short third) and the
	 * average from the second on; the tiny format is one short interval.
	 */
	EXPECT_EQ(2, count_substr(r.out, "            1 ")) TH_LOG("%s", r.out);
	EXPECT_LE(1, count_substr(r.out, "            2 "));
	EXPECT_EQ(1, count_substr(r.out, "avg_2-")) TH_LOG("%s", r.out);
	EXPECT_EQ(1, count_substr(r.out, "avg_1-1"));
	run_result_free(&r);

	/* the tree vdbench would have made */
	snprintf(path, sizeof(path), "%s/a/vdb.1_2.dir/vdb_f0008.file", self->fs.mnt);
	EXPECT_EQ(65536, file_size(path));
	snprintf(path, sizeof(path), "%s/a/%s", self->fs.mnt, BQ_FILES_CONTROL);
	EXPECT_LT(0, file_size(path));

	doc = json_object_from_file(self->json);
	ASSERT_NE(NULL, doc) TH_LOG("no JSON in %s", self->json);
	EXPECT_EQ(0, jint(doc, "exit_status"));
	EXPECT_EQ(16, jint(doc, "anchors.0.files"));
	EXPECT_EQ(16, jint(doc, "runs.0.tree_after.files"));
	EXPECT_EQ(16, jint(doc, "runs.0.totals.ops.create.count"));
	EXPECT_EQ(16 * 65536, jint(doc, "runs.0.totals.ops.write.bytes"));
	EXPECT_LT(100, jint(doc, "runs.1.totals.ops.read.count"));
	EXPECT_EQ(0, jint(doc, "runs.1.totals.ops.read.errors"));
	EXPECT_LT(0, jint(doc, "runs.1.totals.ops.read.latency_ns.percentiles.99"));
	EXPECT_EQ(jint(doc, "runs.1.totals.ops.open.count"), jint(doc, "runs.1.totals.ops.close.count"));
	EXPECT_EQ(2, jint(doc, "runs.1.workloads.0.threads"));
	EXPECT_LE(2, json_object_array_length(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(doc, "runs"), 1), "intervals")));
	json_object_put(doc);

	/* -o DIR keeps what vdbench's output directory would */
	snprintf(path, sizeof(path), "%s/totals.txt", self->outdir);
	tot = slurp(path);
	ASSERT_NE(NULL, tot);
	EXPECT_NE(NULL, strstr(tot, "avg_2-"));
	EXPECT_NE(NULL, strstr(tot, "Starting RD=rd1"));
	free(tot);
	snprintf(path, sizeof(path), "%s/summary.json", self->outdir);
	EXPECT_LT(0, file_size(path));
}

TEST_F(xfs, files_come_and_go_with_dsync_writes)
{
	char parm[512], var[420];
	const char *args[] = { "-f", parm, var, "--output-format=json", NULL };
	struct run_result r;
	json_object *doc;

	PREP_READY(&self->p);
	fixture_path(parm, sizeof(parm), "createdelete.parm");
	snprintf(var, sizeof(var), "anchor=%s/c", self->fs.mnt);
	ASSERT_EQ(0, files(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	doc = json_tokener_parse(r.out);
	ASSERT_NE(NULL, doc) TH_LOG("not JSON: %s", r.out);
	EXPECT_EQ(2, jint(doc, "runs.0.totals.ops.mkdir.count"));
	EXPECT_LT(0, jint(doc, "runs.0.totals.ops.create.count"));
	EXPECT_LT(0, jint(doc, "runs.0.totals.ops.delete.count"));
	EXPECT_LT(0, jint(doc, "runs.0.totals.ops.write.count"));
	EXPECT_LT(0, jint(doc, "runs.0.totals.ops.getattr.count"));
	EXPECT_EQ(0, jint(doc, "runs.0.totals.ops.write.errors"));
	EXPECT_EQ(0, jint(doc, "runs.0.totals.ops.create.errors"));
	/* the mkdir workload finished early, and says so */
	EXPECT_NE(NULL, strstr(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(doc, "runs"), 0), "note")),
			       "every directory exists"));
	json_object_put(doc);
	EXPECT_NE(NULL, strstr(r.out, "\"o_dsync\""));
	run_result_free(&r);
}

TEST_F(xfs, format_only_and_what_is_never_deleted)
{
	char anchor[420], foreign[420], path[600];
	const char *only[] = { anchor, "depth=2", "width=2", "files=3", "size=8k",
			       "format=only", NULL };
	const char *again[] = { anchor, "depth=2", "width=2", "files=3", "size=8k",
				"format=yes", "elapsed=1", NULL };
	const char *clean[] = { anchor, "depth=2", "width=2", "files=3", "format=clean", NULL };
	const char *refuse[] = { foreign, "format=yes", NULL };
	struct run_result r;
	int fd;

	PREP_READY(&self->p);
	snprintf(anchor, sizeof(anchor), "anchor=%s/o", self->fs.mnt);
	ASSERT_EQ(0, files(&r, only));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Starting RD=format_for_rd1"));
	EXPECT_EQ(NULL, strstr(r.out, "Starting RD=rd1"));
	run_result_free(&r);
	snprintf(path, sizeof(path), "%s/o/vdb.1_2.dir/vdb.2_2.dir/vdb_f0003.file", self->fs.mnt);
	EXPECT_EQ(8192, file_size(path));

	/* a file blkqual did not make stops the clean-up, and survives it */
	snprintf(path, sizeof(path), "%s/o/vdb.1_1.dir/vdb.2_1.dir/notmine", self->fs.mnt);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, files(&r, again));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "did not make")) TH_LOG("%s", r.err);
	EXPECT_EQ(NULL, strstr(r.out, "Starting RD=rd1"));
	run_result_free(&r);
	EXPECT_EQ(0, file_size(path));
	unlink(path);

	/* format=clean leaves an empty anchor */
	ASSERT_EQ(0, files(&r, clean));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	snprintf(path, sizeof(path), "%s/o/vdb.1_1.dir", self->fs.mnt);
	EXPECT_EQ(-1, file_size(path));
	snprintf(path, sizeof(path), "%s/o/%s", self->fs.mnt, BQ_FILES_CONTROL);
	EXPECT_EQ(-1, file_size(path));

	/* an anchor with someone else's files is not formatted at all */
	snprintf(path, sizeof(path), "%s/f", self->fs.mnt);
	ASSERT_EQ(0, mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/f/keep.me", self->fs.mnt);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, write(fd, "hi", 2));
	close(fd);
	snprintf(foreign, sizeof(foreign), "anchor=%s/f", self->fs.mnt);
	ASSERT_EQ(0, files(&r, refuse));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "holds 'keep.me' and no vdb_control.file")) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	EXPECT_EQ(2, file_size(path));
	snprintf(path, sizeof(path), "%s/f/vdb.1_1.dir", self->fs.mnt);
	EXPECT_EQ(-1, file_size(path));
}

TEST_HARNESS_MAIN
