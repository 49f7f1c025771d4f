// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_output_test.c - blkqual run's fio layouts (issue 20) against fio
 * 3.33's for the same job on a loop device: every key of fio's JSON and
 * json+ present in blkqual's with the same type, the job's options as
 * fio lists them, terse lines of each version with fio's fields in fio's
 * order, fio's text report's lines, json+ read by Debian's
 * fio_jsonplus_clat2csv, and the figures checked against fio's counts
 * and the kernel's own (disk_util).  Without root or fio: skipped.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define DEV_SIZE (64LL << 20)
#define JOB_IOS 2048	/* size=8M of bs=4k */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char jobfile[400];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	if (prep_ok(&self->p)) {
		FILE *f;

		snprintf(self->jobfile, sizeof(self->jobfile), "%s/job.fio", self->s.dir);
		f = fopen(self->jobfile, "w");
		if (!f) {
			prep_fail(&self->p, "writing the job file", -1);
			return;
		}
		fprintf(f, "[global]\nfilename=%s\ndirect=1\nbs=4k\nioengine=psync\n"
			"[x]\nrw=randread\nsize=8M\n", self->s.dev);
		fclose(f);
	}
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

#define NEED_FIO() do { \
	PREP_READY(&self->p); \
	if (need_program("fio")) \
		SKIP(return, "%s", need_program("fio")); \
} while (0)

/* stdout of fio or blkqual run with @fmt on the job file; NULL on failure. */
static char *output_of(struct __test_metadata *_metadata, bool fio, const char *jobfile,
		       const char *fmt, const char *more)
{
	const char *argv[8] = { fio ? "fio" : blkqual_path() }, **a = argv + 1;
	struct run_result r;
	char *out = NULL;

	if (!fio)
		*a++ = "run";
	*a++ = fmt;
	if (more)
		*a++ = more;
	*a++ = jobfile;
	if (!run_argv(argv, &r) && !r.status)
		out = r.out, r.out = NULL;
	else
		TH_LOG("%s %s: exit %d: %.300s", argv[0], fmt, r.status, r.err ? r.err : "");
	run_result_free(&r);
	return out;
}

static json_object *json_of(struct __test_metadata *_metadata, bool fio, const char *jobfile,
			    const char *fmt)
{
	char *out = output_of(_metadata, fio, jobfile, fmt, NULL);
	json_object *root = NULL;

	if (out) {
		/* fio may print notes before the document. */
		const char *brace = strchr(out, '{');

		root = brace ? json_tokener_parse(brace) : NULL;
	}
	free(out);
	return root;
}

/*
 * Every key of @fio is in @bq with the same JSON type; arrays by their
 * first element.  A histogram's bins are keyed by values: only their type
 * is compared.  Return: the first difference's path in @why, or false.
 */
static bool tree_differs(json_object *fio, json_object *bq, const char *path, char *why,
			 size_t len)
{
	enum json_type t = json_object_get_type(fio);
	char sub[512];

	if (!bq) {
		snprintf(why, len, "%s: missing", path);
		return true;
	}
	if (t != json_object_get_type(bq)) {
		snprintf(why, len, "%s: %s in fio, %s in blkqual", path, json_type_to_name(t),
			 json_type_to_name(json_object_get_type(bq)));
		return true;
	}
	if (t == json_type_array) {
		if (!json_object_array_length(fio))
			return false;
		snprintf(sub, sizeof(sub), "%s[0]", path);
		return tree_differs(json_object_array_get_idx(fio, 0),
				    json_object_array_get_idx(bq, 0), sub, why, len);
	}
	if (t != json_type_object || strstr(path, ".bins"))
		return false;
	json_object_object_foreach(fio, key, val) {
		json_object *other = NULL;

		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		json_object_object_get_ex(bq, key, &other);
		if (tree_differs(val, other, sub, why, len))
			return true;
	}
	return false;
}

static json_object *path_get(json_object *o, const char *const *keys)
{
	for (; o && *keys; keys++)
		o = json_object_object_get(o, *keys);
	return o;
}

/* The figures are the run's: fio's counts for the same job, the kernel's. */
static void figures_hold(struct __test_metadata *_metadata, json_object *bq, json_object *fio,
			 const char *dev)
{
	static const char *const p50[] = { "read", "clat_ns", "percentile", "50.000000", NULL };
	static const char *const p99[] = { "read", "clat_ns", "percentile", "99.000000", NULL };
	json_object *j = json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0);
	json_object *fj = json_object_array_get_idx(json_object_object_get(fio, "jobs"), 0);
	json_object *disk = json_object_array_get_idx(json_object_object_get(bq, "disk_util"), 0);
	double runtime_s;

	ASSERT_NE(NULL, j);
	ASSERT_NE(NULL, disk);
	runtime_s = (double)json_int(j, "read.runtime", 0) / 1000;
	EXPECT_EQ(JOB_IOS, json_int(j, "read.total_ios", -1));
	EXPECT_EQ(json_int(fj, "read.total_ios", -1), json_int(j, "read.total_ios", -2));
	EXPECT_EQ(json_int(fj, "read.io_bytes", -1), json_int(j, "read.io_bytes", -2));
	EXPECT_EQ(json_int(j, "read.io_bytes", 0) >> 10, json_int(j, "read.io_kbytes", -1));
	EXPECT_EQ(JOB_IOS, json_int(j, "read.clat_ns.N", -1));
	EXPECT_EQ(0, json_int(j, "write.total_ios", -1));
	/* Every read reached the device: the kernel counted them. */
	EXPECT_STREQ(strrchr(dev, '/') + 1, json_str(disk, "name"));
	EXPECT_EQ(JOB_IOS, json_int(disk, "read_ios", -1) + json_int(disk, "read_merges", -1));
	/*
	 * The kernel's io_ticks grow only by the jiffies that pass while a
	 * request is in flight: a short QD1 run, mostly in user space (under
	 * ASan, say), may see none, and fio says 0 too.  truth_test checks a
	 * busy device's.
	 */
	EXPECT_LE(0, json_dbl(disk, "util", -1));
	EXPECT_LE(json_dbl(disk, "util", 101), 100);
	/*
	 * bw and iops are the bytes and I/Os over the runtime, which fio
	 * prints in whole milliseconds: half of one is the rounding's share
	 * (2 % of a 25 ms run), beside 1 % for the rest.
	 */
	ASSERT_GT(runtime_s, 0);
	EXPECT_LT(fabs(json_dbl(j, "read.iops", 0) * runtime_s - JOB_IOS),
		  json_dbl(j, "read.iops", 0) * 0.0005 + JOB_IOS * 0.01);
	EXPECT_EQ(json_int(j, "read.bw_bytes", 0) / 1024, json_int(j, "read.bw", -1));
	EXPECT_LE(json_int(j, "read.clat_ns.min", 1),
		  json_object_get_int64(path_get(j, p50)));
	EXPECT_LE(json_object_get_int64(path_get(j, p50)), json_object_get_int64(path_get(j, p99)));
	EXPECT_LE(json_object_get_int64(path_get(j, p99)), json_int(j, "read.clat_ns.max", 0));
}

/* The options as fio lists them: the same strings for the same job file. */
static void same_options(struct __test_metadata *_metadata, json_object *bq, json_object *fio)
{
	json_object *bj = json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0);
	json_object *fj = json_object_array_get_idx(json_object_object_get(fio, "jobs"), 0);
	static const char *const keys[] = { "global options", "job options" };

	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		json_object *f = json_object_object_get(k ? fj : fio, keys[k]);
		json_object *b = json_object_object_get(k ? bj : bq, keys[k]);

		ASSERT_NE(NULL, f);
		ASSERT_NE(NULL, b) TH_LOG("no %s", keys[k]);
		/* Readers look them up by name: the same names and values, in any order. */
		EXPECT_EQ(json_object_object_length(f), json_object_object_length(b))
			TH_LOG("%s: %s", keys[k], json_object_to_json_string(b));
		json_object_object_foreach(f, key, val) {
			json_object *other = json_object_object_get(b, key);

			EXPECT_STREQ(json_object_get_string(val),
				     other ? json_object_get_string(other) : "(none)")
				TH_LOG("%s: %s", keys[k], key);
		}
	}
}

static void same_tree(struct __test_metadata *_metadata, json_object *bq, json_object *fio)
{
	char why[600];

	EXPECT_FALSE(tree_differs(fio, bq, "", why, sizeof(why))) TH_LOG("%s", why);
}

TEST_F_TIMEOUT(dev, json_has_fios_keys_and_figures, 120)
{
	json_object *bq, *fio;

	NEED_FIO();
	fio = json_of(_metadata, true, self->jobfile, "--output-format=json");
	ASSERT_NE(NULL, fio);
	bq = json_of(_metadata, false, self->jobfile, "--output-format=json");
	ASSERT_NE(NULL, bq);
	same_tree(_metadata, bq, fio);
	same_options(_metadata, bq, fio);
	figures_hold(_metadata, bq, fio, self->s.dev);
	EXPECT_EQ(0, strncmp("blkqual-", json_str(bq, "fio version"), 8));
	/* json has no histogram; json+ has. */
	EXPECT_EQ(-1, json_int(json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0),
			       "read.clat_ns.bins", -1));
	json_object_put(bq);
	json_object_put(fio);
}

/* A bin key is one of fio's bin values: exact under 128, else a bin's middle. */
static bool fio_bin_value(unsigned long long v)
{
	unsigned int msb;
	unsigned long long step, base;

	if (v < 128)
		return true;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	step = 1ULL << (msb - 6);
	base = 1ULL << msb;
	/* v = base + (k + 1/2) * step for k in 0..63 */
	return step >= 2 && (v - base) % step == step / 2;
}

TEST_F_TIMEOUT(dev, json_plus_has_fios_bins, 120)
{
	json_object *bq, *fio, *j, *bins;
	long long sum = 0;

	NEED_FIO();
	fio = json_of(_metadata, true, self->jobfile, "--output-format=json+");
	ASSERT_NE(NULL, fio);
	bq = json_of(_metadata, false, self->jobfile, "--output-format=json+");
	ASSERT_NE(NULL, bq);
	same_tree(_metadata, bq, fio);
	figures_hold(_metadata, bq, fio, self->s.dev);
	j = json_object_array_get_idx(json_object_object_get(bq, "jobs"), 0);
	bins = path_get(j, (const char *const[]){ "read", "clat_ns", "bins", NULL });
	ASSERT_NE(NULL, bins);
	json_object_object_foreach(bins, key, val) {
		EXPECT_TRUE(fio_bin_value(strtoull(key, NULL, 10))) TH_LOG("bin %s", key);
		sum += json_object_get_int64(val);
	}
	EXPECT_EQ(JOB_IOS, sum);
	json_object_put(bq);
	json_object_put(fio);
}

/* What a terse field is: fio's and blkqual's agree field by field. */
static char field_kind(const char *f)
{
	const char *p = f;

	if (!*f)
		return 'e';
	if (strchr(f, '='))
		return '=';
	if (f[strlen(f) - 1] == '%')
		return '%';
	while (isdigit((unsigned char)*p))
		p++;
	if (!*p)
		return 'i';
	if (*p == '.' && p > f) {
		for (p++; isdigit((unsigned char)*p); p++)
			;
		if (!*p)
			return 'f';
	}
	return 's';
}

static void kinds(const char *line, char *out, size_t len, int *nr)
{
	char *copy = strndup(line, strcspn(line, "\n")), *save = NULL, *tok, *p = copy;
	size_t n = 0;

	*nr = 0;
	/* strsep keeps empty fields, which fio has none of. */
	while ((tok = strsep(&p, ";")) && n + 1 < len) {
		out[n++] = field_kind(tok);
		(*nr)++;
	}
	out[n] = '\0';
	(void)save;
	free(copy);
}

TEST_F_TIMEOUT(dev, terse_versions_have_fios_fields, 180)
{
	NEED_FIO();
	for (int v = 2; v <= 5; v++) {
		char ver[32], fk[512], bk[512];
		char *f, *b;
		int fn, bn;

		snprintf(ver, sizeof(ver), "--terse-version=%d", v);
		f = output_of(_metadata, true, self->jobfile, "--output-format=terse", ver);
		/* --minimal is fio's other name for it */
		b = output_of(_metadata, false, self->jobfile, v == 3 ? "--output-format=terse" :
			      "--minimal", ver);
		ASSERT_NE(NULL, f);
		ASSERT_NE(NULL, b);
		kinds(f, fk, sizeof(fk), &fn);
		kinds(b, bk, sizeof(bk), &bn);
		EXPECT_EQ(fn, bn) TH_LOG("version %d: fio %d fields, blkqual %d", v, fn, bn);
		EXPECT_STREQ(fk, bk) TH_LOG("version %d", v);
		EXPECT_EQ(v, atoi(b));
		if (v > 2)
			EXPECT_EQ(0, strncmp(b + 2, "blkqual-", 8));
		/* The read I/O count: field 6 (KiB read) is the job's 8 MiB. */
		EXPECT_NE(NULL, strstr(b, ";x;0;0;8192;"));
		free(f);
		free(b);
	}
}

/* A line's label: up to its first figure, '=', '[' or '('. */
static size_t label_len(const char *line)
{
	return strcspn(line, "0123456789=[(\n");
}

TEST_F_TIMEOUT(dev, normal_has_fios_lines, 120)
{
	char *f, *b, *line;
	int checked = 0;

	NEED_FIO();
	f = output_of(_metadata, true, self->jobfile, "--output-format=normal", NULL);
	b = output_of(_metadata, false, self->jobfile, "--output-format=normal", NULL);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, b);
	/* The job's line as fio starts it: the same. */
	EXPECT_EQ(strcspn(f, "\n"), strcspn(b, "\n"));
	EXPECT_EQ(0, strncmp(f, b, strcspn(f, "\n"))) TH_LOG("%.200s", b);
	line = strstr(f, "x: (groupid=");
	ASSERT_NE(NULL, line);
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t n = label_len(line);
		char want[160];
		bool found = false;

		/*
		 * The ranges a run's latencies fall in differ from run to run;
		 * fio's bandwidth and IOPS samples (every 500 ms) are not taken
		 * by blkqual, so it has no lines for them (run.rst says so).
		 */
		if (!n || n >= sizeof(want) || !strncmp(line, "  lat (", 7) ||
		    !strncmp(line, "     |", 6) || !strncmp(line, "   bw (", 7) ||
		    !strncmp(line, "   iops ", 8))
			continue;
		snprintf(want, sizeof(want), "%.*s", (int)n, line);
		for (const char *p = b; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, want, n) && label_len(p) == n)
				found = true;
		EXPECT_TRUE(found) TH_LOG("fio's line '%s' is not in blkqual's report", want);
		checked++;
	}
	EXPECT_GE(checked, 12);
	EXPECT_NE(NULL, strstr(b, "  read: IOPS="));
	EXPECT_NE(NULL, strstr(b, "issued rwts: total=2048,0,0,0"));
	free(f);
	free(b);
}

/* Debian's fio_jsonplus_clat2csv reads blkqual's json+ and writes its CSV. */
TEST_F_TIMEOUT(dev, jsonplus_clat2csv_reads_it, 120)
{
	char out[400], csv[400], csv0[400], *text, *line;
	const char *argv[8];
	struct run_result r;
	long long count = 0;
	double last_pct = 0;
	int col = -1;

	PREP_READY(&self->p);
	if (need_program("fio_jsonplus_clat2csv"))
		SKIP(return, "%s", need_program("fio_jsonplus_clat2csv"));
	snprintf(out, sizeof(out), "--output=%s/plus.json", self->s.dir);
	text = output_of(_metadata, false, self->jobfile, "--output-format=json+", out);
	ASSERT_NE(NULL, text);
	free(text);
	snprintf(out, sizeof(out), "%s/plus.json", self->s.dir);
	snprintf(csv, sizeof(csv), "%s/lat.csv", self->s.dir);
	snprintf(csv0, sizeof(csv0), "%s/lat_job0.csv", self->s.dir);
	argv[0] = "fio_jsonplus_clat2csv", argv[1] = out, argv[2] = csv, argv[3] = NULL;
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err ? r.err : "");
	run_result_free(&r);
	/* Its own check: the CSV's counts are the json+ bins. */
	argv[3] = "--validate", argv[4] = NULL;
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, r.out ? strstr(r.out, "validated") : NULL) TH_LOG("%s", r.out);
	run_result_free(&r);
	text = slurp(csv0);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, strncmp(text, "nsec, read_slat_ns_count", 24));
	/* The read clat count column adds up to the run's reads. */
	line = text;
	for (int c = 0; line[0] && line[0] != '\n'; c++) {
		if (!strncmp(line, " read_clat_ns_count", 19))
			col = c;
		line += strcspn(line, ",\n");
		if (*line == ',')
			line++;
	}
	ASSERT_GE(col, 0);
	for (line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		const char *p = line + 1;

		for (int c = 0; c < col; c++)
			p = strchr(p, ',') + 1;
		if (*p != ' ' || p[1] != ',') {
			count += strtoll(p, NULL, 10);
			for (int c = 0; c < 2; c++)
				p = strchr(p, ',') + 1;
			last_pct = strtod(p, NULL);
		}
	}
	EXPECT_EQ(JOB_IOS, count);
	EXPECT_EQ(1.0, last_pct);
	free(text);
}

TEST_F_TIMEOUT(dev, format_lists_and_native_json, 120)
{
	char *b, *brace;
	json_object *doc;

	PREP_READY(&self->p);
	/* fio's order: terse first, then the JSON document. */
	b = output_of(_metadata, false, self->jobfile, "--output-format=json,terse", NULL);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, strncmp(b, "3;blkqual-", 10));
	brace = strchr(b, '{');
	ASSERT_NE(NULL, brace);
	doc = json_tokener_parse(brace);
	ASSERT_NE(NULL, doc);
	EXPECT_NE(NULL, json_object_object_get(doc, "fio version"));
	json_object_put(doc);
	free(b);
	/* -o json stays blkqual's own document. */
	b = output_of(_metadata, false, self->jobfile, "-o", "json");
	ASSERT_NE(NULL, b);
	doc = json_tokener_parse(b);
	ASSERT_NE(NULL, doc);
	EXPECT_EQ(1, json_int(doc, "schema_version", -1));
	EXPECT_EQ(JOB_IOS, json_int(json_object_array_get_idx(json_object_object_get(doc, "jobs"),
							       0), "total.read.ios", -1));
	json_object_put(doc);
	free(b);
}

/* stdout of fio or blkqual run with @args (NULL-terminated), on the null engine. */
static char *null_run(struct __test_metadata *_metadata, bool fio, const char *const *args)
{
	const char *argv[24] = { fio ? "fio" : blkqual_path() };
	struct run_result r;
	char *out = NULL;
	int n = 1;

	if (!fio)
		argv[n++] = "run";
	for (; *args && n < 20; args++)
		argv[n++] = *args;
	argv[n++] = "--name=x";
	argv[n++] = "--ioengine=null";
	argv[n++] = "--size=1M";
	if (!run_argv(argv, &r) && !r.status)
		out = r.out, r.out = NULL;
	else
		TH_LOG("%s: exit %d: %.300s", argv[0], r.status, r.err ? r.err : "");
	run_result_free(&r);
	return out;
}

static json_object *read_dir(json_object *doc)
{
	return json_object_object_get(json_object_array_get_idx(
		json_object_object_get(doc, "jobs"), 0), "read");
}

/* An object's keys, space-separated; "" for none. */
static void keys_of(json_object *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!o)
		return;
	json_object_object_foreach(o, key, val) {
		(void)val;
		if (strlen(buf) + strlen(key) + 2 < len) {
			strcat(buf, key);
			strcat(buf, " ");
		}
	}
}

/* percentile_list, lat_percentiles, clat_percentiles put them where fio does. */
TEST(percentile_options_as_fio)
{
	static const char *const cases[][4] = {
		{ "--percentile_list=50:99.5", "--lat_percentiles=1", "--description=d e", NULL },
		{ "--clat_percentiles=0", NULL },
		{ "--percentile_list=10:90", "--lat_percentiles=0", NULL },
	};

	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		const char *args[6] = { "--output-format=json" };
		json_object *doc[2];

		for (int k = 0; cases[c][k]; k++)
			args[k + 1] = cases[c][k];
		for (int side = 0; side < 2; side++) {
			char *out = null_run(_metadata, side, args), *brace;

			ASSERT_NE(NULL, out);
			brace = strchr(out, '{');
			doc[side] = brace ? json_tokener_parse(brace) : NULL;
			free(out);
			ASSERT_NE(NULL, doc[side]);
		}
		/* doc[1] is fio's */
		same_tree(_metadata, doc[0], doc[1]);
		for (int l = 0; l < 2; l++) {
			const char *lat = l ? "lat_ns" : "clat_ns";
			json_object *fp = json_object_object_get(json_object_object_get(
				read_dir(doc[1]), lat), "percentile");
			json_object *bp = json_object_object_get(json_object_object_get(
				read_dir(doc[0]), lat), "percentile");
			char fk[256], bk[256];

			EXPECT_EQ(!fp, !bp) TH_LOG("case %zu: %s", c, lat);
			keys_of(fp, fk, sizeof(fk));
			keys_of(bp, bk, sizeof(bk));
			EXPECT_STREQ(fk, bk) TH_LOG("case %zu: %s", c, lat);
		}
		json_object_put(doc[0]);
		json_object_put(doc[1]);
	}
}

/* The terse line pads a custom list to fio's 20 the same way. */
TEST(terse_with_a_percentile_list)
{
	const char *args[] = { "--minimal", "--percentile_list=50:99.5", "--continue_on_error=all",
			       "--description=a job", NULL };
	char fk[512], bk[512];
	char *f, *b;
	int fn, bn;

	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	f = null_run(_metadata, true, args);
	b = null_run(_metadata, false, args);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, b);
	kinds(f, fk, sizeof(fk), &fn);
	kinds(b, bk, sizeof(bk), &bn);
	EXPECT_EQ(fn, bn);
	EXPECT_STREQ(fk, bk);
	EXPECT_NE(NULL, strstr(b, ";50.000000%="));
	EXPECT_NE(NULL, strstr(b, ";99.500000%="));
	/* continue_on_error's error count and first error, then the description */
	EXPECT_NE(NULL, strstr(b, ";0;0;a job\n"));
	free(f);
	free(b);
}

/* fio reports each thread, or a group_reporting group as one: as many, as much. */
TEST(threads_and_groups_as_fio)
{
	for (int t = 0; t < 4; t++) {
		bool gr = t & 1, timed = t & 2;
		const char *args[] = { "--output-format=json", "--numjobs=3",
				       gr ? "--group_reporting=1" : "--group_reporting=0",
				       timed ? "--runtime=200ms" : NULL, "--time_based", NULL };
		json_object *doc[2], *jobs[2];

		for (int side = 0; side < 2; side++) {
			char *out = null_run(_metadata, side, args), *brace;

			ASSERT_NE(NULL, out);
			brace = strchr(out, '{');
			doc[side] = brace ? json_tokener_parse(brace) : NULL;
			free(out);
			ASSERT_NE(NULL, doc[side]);
			jobs[side] = json_object_object_get(doc[side], "jobs");
		}
		ASSERT_EQ(json_object_array_length(jobs[1]), json_object_array_length(jobs[0]));
		EXPECT_EQ(gr ? 1 : 3, json_object_array_length(jobs[0]));
		for (size_t i = 0; i < json_object_array_length(jobs[0]); i++) {
			json_object *f = json_object_array_get_idx(jobs[1], i);
			json_object *b = json_object_array_get_idx(jobs[0], i);
			double want = (double)json_int(b, "read.runtime", 0) * (gr ? 3 : 1);

			if (!timed) {
				EXPECT_EQ(json_int(f, "read.total_ios", -1),
					  json_int(b, "read.total_ios", -2));
				continue;
			}
			/*
			 * job_runtime adds up the threads' run times, as fio's does
			 * (fio's also counts each thread's start-up: not compared).
			 */
			EXPECT_LT(fabs((double)json_int(b, "job_runtime", 0) - want),
				  want * 0.1 + 2);
		}
		json_object_put(doc[0]);
		json_object_put(doc[1]);
	}
}

/* Nth ';' field of a terse line (0-based), as a number. */
static double terse_field(const char *line, int n)
{
	for (; n > 0 && line; n--) {
		line = strchr(line, ';');
		line = line ? line + 1 : NULL;
	}
	return line ? strtod(line, NULL) : -1;
}

/* One run's layouts say the same: terse and fio's JSON, field for field. */
TEST_F_TIMEOUT(dev, layouts_of_one_run_agree, 120)
{
	json_object *doc, *j, *pct, *disk;
	char *out, *brace;
	uint64_t v[4];

	PREP_READY(&self->p);
	out = output_of(_metadata, false, self->jobfile, "--output-format=terse,json", NULL);
	ASSERT_NE(NULL, out);
	brace = strchr(out, '{');
	ASSERT_NE(NULL, brace);
	doc = json_tokener_parse(brace);
	ASSERT_NE(NULL, doc);
	j = json_object_array_get_idx(json_object_object_get(doc, "jobs"), 0);
	disk = json_object_array_get_idx(json_object_object_get(doc, "disk_util"), 0);
	ASSERT_NE(NULL, disk);
	/* version 3: 5 io_kbytes, 6 bw, 7 iops, 8 runtime; 13-16 clat in us */
	EXPECT_EQ(json_int(j, "read.io_kbytes", -1), terse_field(out, 5));
	EXPECT_EQ(json_int(j, "read.bw", -1), terse_field(out, 6));
	EXPECT_EQ((long long)json_dbl(j, "read.iops", -1), terse_field(out, 7));
	EXPECT_EQ(json_int(j, "read.runtime", -1), terse_field(out, 8));
	EXPECT_EQ(json_int(j, "read.clat_ns.min", -1) / 1000, terse_field(out, 13));
	EXPECT_EQ(json_int(j, "read.clat_ns.max", -1) / 1000, terse_field(out, 14));
	EXPECT_LT(fabs(json_dbl(j, "read.clat_ns.mean", -1) / 1000 - terse_field(out, 15)), 1e-5);
	/* the 99th percentile is the 13th of the list, field 17 + 12 */
	pct = json_object_object_get(json_object_object_get(json_object_object_get(j, "read"),
							    "clat_ns"), "percentile");
	v[0] = (uint64_t)json_object_get_int64(json_object_object_get(pct, "99.000000"));
	v[1] = (uint64_t)strtoull(strchr(strstr(out, ";99.000000%="), '=') + 1, NULL, 10);
	EXPECT_EQ(v[0] / 1000, v[1]);
	/* the disk's fields: its name, then reads */
	v[2] = (uint64_t)json_int(disk, "read_ios", -1);
	brace = strstr(out, json_str(disk, "name"));
	ASSERT_NE(NULL, brace);
	v[3] = strtoull(strchr(brace, ';') + 1, NULL, 10);
	EXPECT_EQ(v[2], v[3]);
	json_object_put(doc);
	free(out);
}

TEST(bad_switches_exit_2)
{
	static const char *const bad[][3] = {
		{ "--output-format=xml", "xml" },
		{ "--output-format=json,", "''" },
		{ "--terse-version=6", "2, 3, 4 or 5" },
		{ "-o", "json", },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct run_result r;
		const char *more = i == 3 ? "--output-format=json" : "--name=x";

		ASSERT_EQ(0, run_blkqual(&r, "run", bad[i][0], i == 3 ? bad[i][1] : "--name=x",
					 more, "--ioengine=null", "--size=1M", NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s: %s", bad[i][0], r.err);
		if (i < 3)
			EXPECT_NE(NULL, r.err ? strstr(r.err, bad[i][1]) : NULL)
				TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
