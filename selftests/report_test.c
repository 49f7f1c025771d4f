// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_test.c - blkqual report: pages from a run fixture, a qualify
 * fixture, a real short run and other commands' results are well-formed
 * XML, hold the expected charts and nothing that would leave the file;
 * results with missing or mistyped fields still make a page; bad input is
 * one line and exit 2 with nothing written; the latency histogram in the
 * JSON adds up; and in a real headless chromium the pages render without
 * console errors and the screenshot shows the plots' colours.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "helpers/run.h"
#include "helpers/tree.h"

/* The series and heat-map colours the report draws with (report_html.h, svg.c). */
#define READ_COLOUR "#1f77b4"
#define WRITE_COLOUR "#d62728"
#define BAND_COLOUR "#f2b705"
#define HEAT_LOW "#440154"
#define HEAT_HIGH "#fde725"

FIXTURE(rep)
{
	char dir[64];
	char path[256];
};

FIXTURE_SETUP(rep)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/blkqual-report.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(rep)
{
	if (tree_remove(self->dir))
		TH_LOG("could not remove %s", self->dir);
}

static const char *in_dir(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static const char *fixture(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/selftests/fixtures/report/%s", srctree_path(), name);
	return buf;
}

static int put(const char *path, const char *content)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(content, f);
	return fclose(f);
}

/* html_check.py's report on a page: "wellformed", "svg N", titles, "external N". */
static char *check_html(const char *html, const char *before)
{
	char helper[512];
	const char *argv[] = { "python3", helper, html, before ? "--before" : NULL, before, NULL };
	struct run_result r;

	snprintf(helper, sizeof(helper), "%s/selftests/helpers/html_check.py", srctree_path());
	if (run_argv(argv, &r))
		return NULL;
	free(r.err);
	return r.out;
}

static int svg_count(const char *check)
{
	const char *p = check ? strstr(check, "\nsvg ") : NULL;

	return p ? atoi(p + 5) : -1;
}

static bool has_title(const char *check, const char *title)
{
	char line[256];

	snprintf(line, sizeof(line), "\ntitle %s\n", title);
	return check && strstr(check, line);
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Entries in @dir whose name contains @part. */
static int files_named(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strstr(e->d_name, part) != NULL;
	closedir(d);
	return n;
}

TEST_F(rep, run_fixture)
{
	static const char *const titles[] = {
		"IOPS over time, job r", "Throughput over time, job r",
		"Latency over time (mean and p99), job r", "Latency percentiles, job r",
		"Latency histogram, job r",
	};
	char in[512], out[256];
	struct run_result r;
	char *check, *html;

	fixture(in, sizeof(in), "run.json");
	in_dir(out, sizeof(out), self->dir, "run.html");
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_STREQ("", r.err);
	run_result_free(&r);

	check = check_html(out, NULL);
	ASSERT_NE(NULL, check);
	EXPECT_NE(NULL, strstr(check, "wellformed")) TH_LOG("%s", check);
	EXPECT_EQ(5, svg_count(check)) TH_LOG("%s", check);
	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
		EXPECT_TRUE(has_title(check, titles[i])) TH_LOG("no chart '%s' in\n%s", titles[i],
								 check);
	}
	EXPECT_NE(NULL, strstr(check, "\nexternal 0\n")) TH_LOG("%s", check);
	free(check);

	html = slurp(out);
	ASSERT_NE(NULL, html);
	/* A table of numbers under the plots, and the tool's own numbers in it. */
	EXPECT_NE(NULL, strstr(html, "Latency, key numbers"));
	EXPECT_NE(NULL, strstr(html, "Over the intervals"));
	EXPECT_NE(NULL, strstr(html, "randrw"));
	EXPECT_EQ(NULL, strstr(html, "<script"));
	EXPECT_EQ(0, files_named(self->dir, ".tmp"));
	free(html);
}

/* The IOPS of the 100/0 4k cell of the iops step, as the matrix table prints it. */
static void cell_iops(const char *path, char *buf, size_t len)
{
	json_object *root = json_object_from_file(path), *steps, *cells;

	snprintf(buf, len, "?");
	if (!root)
		return;
	steps = json_object_object_get(root, "steps");
	cells = json_object_object_get(json_object_array_get_idx(steps, 0), "cells");
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i), *rd, *wr;

		if (strcmp(json_object_get_string(json_object_object_get(c, "label")), "100/0 4k"))
			continue;
		json_object_object_get_ex(c, "read", &rd);
		json_object_object_get_ex(c, "write", &wr);
		snprintf(buf, len, "<td>%.0f</td>",
			 json_object_get_double(json_object_object_get(rd, "iops")) +
			 json_object_get_double(json_object_object_get(wr, "iops")));
	}
	json_object_put(root);
}

TEST_F(rep, qualify_fixture)
{
	static const char *const titles[] = {
		"Steady state, step iops, read: steady",
		"Steady state, step iops, write: steady",
		"IOPS matrix, step iops",
		"Steady state, step throughput, read: steady",
		"Steady state, step throughput, write: left steady state",
		"Throughput, step throughput",
		"Steady state, step latency, read: steady",
		"Steady state, step latency, write: steady state not reached",
		"Latency percentiles, step latency, reads",
		"Latency histogram, step latency, reads",
		"Latency percentiles, step latency, writes",
		"Latency histogram, step latency, writes",
	};
	char in[512], out[256], cell[64];
	struct run_result r;
	char *check, *html;

	fixture(in, sizeof(in), "qualify.json");
	in_dir(out, sizeof(out), self->dir, "qualify.html");
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);

	check = check_html(out, "Pass/fail criteria");
	ASSERT_NE(NULL, check);
	EXPECT_NE(NULL, strstr(check, "wellformed")) TH_LOG("%s", check);
	EXPECT_EQ(12, svg_count(check)) TH_LOG("%s", check);
	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
		EXPECT_TRUE(has_title(check, titles[i])) TH_LOG("no chart '%s' in\n%s", titles[i],
								 check);
	}
	EXPECT_NE(NULL, strstr(check, "\nexternal 0\n")) TH_LOG("%s", check);
	/* The verdict and its criteria come before any chart. */
	EXPECT_NE(NULL, strstr(check, "before-first-svg yes Pass/fail criteria"));
	free(check);

	html = slurp(out);
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "Verdict: fail"));
	EXPECT_EQ(2, count_of(html, ">FAIL<")) TH_LOG("two criteria fail in the fixture");
	EXPECT_NE(NULL, strstr(html, "no such cell"));
	EXPECT_NE(NULL, strstr(html, "randread 4k qd1 p99.99 &lt;= 5 ms"));
	/* The matrix table: 7 mixes by 8 block sizes, and the exact value of one cell. */
	EXPECT_NE(NULL, strstr(html, "IOPS matrix (reads plus writes per second)"));
	EXPECT_NE(NULL, strstr(html, "<th scope=\"row\">35/65</th>"));
	EXPECT_NE(NULL, strstr(html, "<th scope=\"col\">0.5k</th>"));
	cell_iops(in, cell, sizeof(cell));
	EXPECT_NE(NULL, strstr(html, cell)) TH_LOG("no %s in the matrix", cell);
	/* The window is shaded and the limits are drawn. */
	EXPECT_NE(NULL, strstr(html, "window, rounds 4-8"));
	EXPECT_NE(NULL, strstr(html, "least-squares fit"));
	EXPECT_NE(NULL, strstr(html, "left steady state"));
	free(html);
}

/* A run on a temp file, its JSON through report: what a user does. */
TEST_F(rep, real_run)
{
	char file[256], json[256], out[256];
	struct run_result r;
	json_object *root, *lat, *b;
	uint64_t sum = 0, prev_upper = 0;
	char *check;
	size_t n;
	char fopt[300];

	in_dir(file, sizeof(file), self->dir, "target");
	in_dir(json, sizeof(json), self->dir, "real.json");
	in_dir(out, sizeof(out), self->dir, "real.html");
	snprintf(fopt, sizeof(fopt), "--filename=%s", file);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", fopt, "--size=16m", "--rw=randrw",
				 "--bs=4k", "--runtime=2", "--time_based", "--interval=0.2",
				 "--name=real", "-o", "json", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("run: %s", r.err);
	ASSERT_EQ(0, put(json, r.out));

	/* hist_json()'s "histogram": ordered, disjoint, within 200 bars, adding up. */
	root = json_tokener_parse(r.out);
	run_result_free(&r);
	ASSERT_NE(NULL, root);
	lat = json_object_object_get(json_object_object_get(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(root, "jobs"), 0), "total"),
		"read"), "lat_ns");
	b = json_object_object_get(json_object_object_get(lat, "histogram"), "buckets");
	ASSERT_NE(NULL, b);
	EXPECT_STREQ("ns", json_object_get_string(json_object_object_get(
		json_object_object_get(lat, "histogram"), "unit")));
	n = json_object_array_length(b);
	EXPECT_LT(0, n);
	EXPECT_GE(200, n);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(b, i);
		uint64_t lo = json_object_get_uint64(json_object_array_get_idx(e, 0));
		uint64_t hi = json_object_get_uint64(json_object_array_get_idx(e, 1));
		uint64_t c = json_object_get_uint64(json_object_array_get_idx(e, 2));

		EXPECT_LT(lo, hi);
		EXPECT_LE(prev_upper, lo);
		EXPECT_LT(0, c);
		prev_upper = hi;
		sum += c;
	}
	EXPECT_EQ(json_object_get_uint64(json_object_object_get(lat, "count")), sum);
	json_object_put(root);

	ASSERT_EQ(0, run_blkqual(&r, "report", json, "-o", out, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("report: %s", r.err);
	run_result_free(&r);
	check = check_html(out, NULL);
	ASSERT_NE(NULL, check);
	EXPECT_NE(NULL, strstr(check, "wellformed")) TH_LOG("%s", check);
	EXPECT_EQ(5, svg_count(check)) TH_LOG("%s", check);
	EXPECT_TRUE(has_title(check, "IOPS over time, job real"));
	EXPECT_TRUE(has_title(check, "Latency histogram, job real"));
	EXPECT_NE(NULL, strstr(check, "\nexternal 0\n")) TH_LOG("%s", check);
	free(check);
}

/* A latency histogram as hist_json() writes it, in a made-up result. */
static const char hist_a[] =
	"{\"count\": 1000, \"min\": 900, \"max\": 90000, \"mean\": 2100, \"stdev\": 900, "
	"\"percentiles\": {\"1\": 950, \"50\": 2000, \"90\": 3000, \"99\": 9000, \"99.9\": 40000, "
	"\"99.99\": 90000}, \"histogram\": {\"unit\": \"ns\", \"buckets\": [[896, 960, 10], "
	"[1984, 2048, 700], [2944, 3072, 280], [8960, 9216, 9], [88064, 90112, 1]]}}";

TEST_F(rep, other_commands)
{
	char in[256], out[256], doc[4096];
	struct run_result r;
	char *check;

	/* fileio-like: per-operation latency objects and interval samples. */
	snprintf(doc, sizeof(doc),
		 "{\"schema_version\": 1, \"command\": \"fileio\", \"ops\": {"
		 "\"read\": {\"count\": 1000, \"latency\": %s}, "
		 "\"write\": {\"count\": 1000, \"latency\": %s}, \"fsync\": {\"latency\": null}}, "
		 "\"samples\": [{\"t_ns\": 1000000000, \"reads\": 500, \"read_mib_per_second\": 1.5, "
		 "\"latency_mean_ns\": 2100, \"cpu_busy_pct\": 20}, {\"t_ns\": 2000000000, "
		 "\"reads\": 500, \"read_mib_per_second\": 1.7, \"latency_mean_ns\": 0, "
		 "\"cpu_busy_pct\": 25}, {\"t_ns\": 3000000000, \"reads\": 450, "
		 "\"read_mib_per_second\": 1.4, \"latency_mean_ns\": 2300, \"cpu_busy_pct\": 21}]}",
		 hist_a, hist_a);
	in_dir(in, sizeof(in), self->dir, "fileio.json");
	in_dir(out, sizeof(out), self->dir, "fileio.html");
	ASSERT_EQ(0, put(in, doc));
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	check = check_html(out, NULL);
	ASSERT_NE(NULL, check);
	EXPECT_NE(NULL, strstr(check, "wellformed")) TH_LOG("%s", check);
	EXPECT_EQ(6, svg_count(check)) TH_LOG("%s", check);
	EXPECT_TRUE(has_title(check, "Latency percentiles, every histogram in the result"));
	EXPECT_TRUE(has_title(check, "Latency histogram, every histogram in the result"));
	EXPECT_TRUE(has_title(check, "Latency over time, samples"));
	EXPECT_TRUE(has_title(check, "Throughput over time, samples"));
	EXPECT_TRUE(has_title(check, "Percentages over time, samples"));
	EXPECT_TRUE(has_title(check, "Counts over time, samples"));
	free(check);

	/* A command with nothing to plot still gets a page, saying so. */
	ASSERT_EQ(0, put(in, "{\"schema_version\": 1, \"command\": \"files\", \"dirs\": 3}"));
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out, NULL));
	EXPECT_EQ(0, r.status);
	run_result_free(&r);
	check = check_html(out, NULL);
	EXPECT_EQ(0, svg_count(check)) TH_LOG("%s", check);
	free(check);
	check = slurp(out);
	EXPECT_NE(NULL, strstr(check, "No latency histogram in this result."));
	EXPECT_NE(NULL, strstr(check, "<h1>blkqual files</h1>"));
	free(check);
}

/* Valid JSON with fields missing or of the wrong type: a page with notes, never a crash. */
TEST_F(rep, missing_fields)
{
	static const char *const docs[] = {
		"{\"schema_version\": 1, \"jobs\": [{\"name\": \"x\"}]}",
		"{\"schema_version\": 1, \"jobs\": \"none\"}",
		"{\"schema_version\": 1, \"jobs\": [7, {\"name\": 5, \"total\": {\"read\": "
		"{\"lat_ns\": {\"percentiles\": {\"50\": \"x\", \"99\": 1e400, \"abc\": 3}, "
		"\"histogram\": {\"buckets\": [[1], [0, 5, 2], [\"a\", 2, 3], [10, 5, 1]]}}}}, "
		"\"intervals\": [{\"t_ns\": \"a\"}, {}, {\"read\": {\"ios\": 3, \"iops\": -1}}]}]}",
		"{\"schema_version\": 1, \"command\": \"qualify\"}",
		"{\"schema_version\": 1, \"command\": \"qualify\", \"verdict\": 7, \"steps\": "
		"[{\"name\": 3, \"kind\": \"iops\", \"steady\": {\"read\": {\"rounds\": [\"a\", null, "
		"1], \"window\": {\"first\": 0, \"last\": 1, \"mean\": 0}, \"left_round\": 99}, "
		"\"write\": null}, \"cells\": [{\"read_pct\": \"x\"}, 5, {\"read_pct\": 50, \"bs\": "
		"4096, \"read\": {\"iops\": 1}}], \"rounds\": 7}, 4, {\"kind\": \"throughput\", "
		"\"cells\": [{}]}, {\"kind\": \"latency\", \"cells\": [{\"read\": {\"lat_ns\": "
		"{\"percentiles\": {}}}}]}], \"criteria\": [{}, {\"measured\": \"x\", \"unit\": 5, "
		"\"bound\": 1}], \"verify\": {\"first_bad\": [1, {\"offset\": 2}]}, "
		"\"precondition\": 3, \"purge\": []}",
		"{\"schema_version\": 1, \"command\": \"latency\", \"latency\": {\"percentiles\": {}}, "
		"\"samples\": [{\"a\": {\"b\": {\"c\": 1}}}, {\"a\": 2}]}",
		"{\"schema_version\": 2, \"command\": \"replay\", \"x\": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]"
		"]]]]]]]]]]]]}",
	};
	enum { NR_DOCS = sizeof(docs) / sizeof(docs[0]) };
	char in[256], out[NR_DOCS][256], helper[512];
	const char *argv[NR_DOCS + 4] = { "python3", helper, "--wellformed" };
	struct run_result r;

	in_dir(in, sizeof(in), self->dir, "odd.json");
	for (size_t i = 0; i < NR_DOCS; i++) {
		snprintf(out[i], sizeof(out[i]), "%s/odd%zu.html", self->dir, i);
		argv[3 + i] = out[i];
		ASSERT_EQ(0, put(in, docs[i]));
		ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out[i], NULL));
		EXPECT_EQ(0, r.status) TH_LOG("doc %zu: status %d, %s", i, r.status, r.err);
		run_result_free(&r);
	}
	/* One parser start for all the pages. */
	snprintf(helper, sizeof(helper), "%s/selftests/helpers/html_check.py", srctree_path());
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_EQ((int)NR_DOCS, count_of(r.out, "wellformed ")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

/* The member at a dotted path ("steps.0.steady"), or NULL. */
static json_object *walk_to(json_object *o, const char *where)
{
	char path[128], *save = NULL;

	snprintf(path, sizeof(path), "%s", where);
	for (char *seg = strtok_r(path, ".", &save); seg && o; seg = strtok_r(NULL, ".", &save))
		o = json_object_is_type(o, json_type_array) ?
		    json_object_array_get_idx(o, strtoul(seg, NULL, 10)) :
		    json_object_object_get(o, seg);
	return o;
}

/* The qualify fixture with one member taken away at a time, at every level. */
TEST_F(rep, qualify_without_each_field)
{
	static const char *const where[] = { "", "steps.0", "steps.1.steady.write" };
	char in[512], tmp[256], out[256];
	json_object *orig;
	int runs = 0;

	orig = json_object_from_file(fixture(in, sizeof(in), "qualify.json"));
	ASSERT_NE(NULL, orig);
	in_dir(tmp, sizeof(tmp), self->dir, "q.json");
	in_dir(out, sizeof(out), self->dir, "q.html");
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		json_object *at = walk_to(orig, where[w]);
		size_t nkeys;

		ASSERT_TRUE(json_object_is_type(at, json_type_object)) TH_LOG("%s", where[w]);
		nkeys = (size_t)json_object_object_length(at);
		for (size_t k = 0; k < nkeys; k++) {
			json_object *copy = NULL, *node;
			struct run_result r;
			char key[64] = "";
			size_t i = 0;

			ASSERT_EQ(0, json_object_deep_copy(orig, &copy, NULL));
			node = walk_to(copy, where[w]);
			json_object_object_foreach(node, name, val) {
				(void)val;
				if (i++ == k)
					snprintf(key, sizeof(key), "%s", name);
			}
			/* schema_version is what makes it a result at all. */
			if (!strcmp(key, "schema_version")) {
				json_object_put(copy);
				continue;
			}
			json_object_object_del(node, key);
			ASSERT_EQ(0, json_object_to_file(tmp, copy));
			json_object_put(copy);
			ASSERT_EQ(0, run_blkqual(&r, "report", tmp, "-o", out, NULL));
			EXPECT_EQ(0, r.status) TH_LOG("without %s.%s: %s", where[w], key, r.err);
			run_result_free(&r);
			runs++;
		}
	}
	json_object_put(orig);
	EXPECT_LT(30, runs);
}

/* Bad input: one line naming the file and why, exit 2, nothing written. */
TEST_F(rep, bad_input)
{
	static const struct {
		const char *content;	/* NULL: the file does not exist */
		const char *says;
	} cases[] = {
		{ NULL, "No such file or directory" },
		{ "", "empty, not JSON" },
		{ "  \n", "empty, not JSON" },
		{ "<html></html>", "bad.json:1: not JSON" },
		{ "{\n\"a\": 1,\n\"b\": tru }\n", "bad.json:3: not JSON" },
		{ "{\"schema_version\": 1,\n\"jobs\": [\n", "ends in the middle of the document" },
		{ "{\"schema_version\": 1} {}", "text after the end of the document" },
		{ "[{\"schema_version\": 1}]", "no \"schema_version\"" },
		{ "{\"jobs\": []}", "no \"schema_version\"" },
		{ "{\"schema_version\": \"1\"}", "\"schema_version\" is not a positive integer" },
		{ "{\"schema_version\": 1, \"x\": \"\xff\xfe\"}", "not JSON" },
	};
	char in[256], out[256], old[256];
	struct run_result r;
	char *kept;

	in_dir(in, sizeof(in), self->dir, "bad.json");
	in_dir(out, sizeof(out), self->dir, "out.html");
	in_dir(old, sizeof(old), self->dir, "old.html");
	ASSERT_EQ(0, put(old, "earlier report\n"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unlink(in);
		if (cases[i].content)
			ASSERT_EQ(0, put(in, cases[i].content));
		ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", out, NULL));
		EXPECT_EQ(2, r.status) TH_LOG("case %zu", i);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_NE(NULL, strstr(r.err, "bad.json")) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_NE(NULL, strstr(r.err, cases[i].says)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_NE(0, access(out, F_OK)) TH_LOG("case %zu wrote a page", i);
		run_result_free(&r);
		/* An earlier report is left as it was. */
		ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", old, NULL));
		EXPECT_EQ(2, r.status);
		run_result_free(&r);
	}
	kept = slurp(old);
	EXPECT_STREQ("earlier report\n", kept);
	free(kept);

	ASSERT_EQ(0, run_blkqual(&r, "report", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "report", in, in, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "report", "--outptu=x", in, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "did you mean '--output'")) TH_LOG("%s", r.err);
	run_result_free(&r);
	EXPECT_EQ(0, files_named(self->dir, ".tmp"));
}

/* -o - writes to stdout; without -o the page goes beside the result. */
TEST_F(rep, output_choices)
{
	char in[512], copy[256], derived[256];
	struct run_result r;
	char *json;

	fixture(in, sizeof(in), "run.json");
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", "-", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, strncmp(r.out, "<!DOCTYPE html>\n", 16));
	EXPECT_NE(NULL, strstr(r.out, "</html>\n"));
	run_result_free(&r);

	json = slurp(in);
	ASSERT_NE(NULL, json);
	in_dir(copy, sizeof(copy), self->dir, "mine.json");
	ASSERT_EQ(0, put(copy, json));
	free(json);
	ASSERT_EQ(0, run_blkqual(&r, "report", copy, NULL));
	EXPECT_EQ(0, r.status);
	run_result_free(&r);
	EXPECT_EQ(0, access(in_dir(derived, sizeof(derived), self->dir, "mine.html"), F_OK));
}

/* ---- a real browser ------------------------------------------------------ */

static const char *chromium_path(void)
{
	static char found[512];
	const char *env = getenv("BLKQUAL_CHROMIUM"), *path = getenv("PATH");
	char *dirs, *save = NULL;

	if (env && *env)
		return access(env, X_OK) ? NULL : env;
	dirs = strdup(path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof(found), "%s/chromium", d);
		if (!access(found, X_OK)) {
			free(dirs);
			return found;
		}
	}
	free(dirs);
	return NULL;
}

/*
 * Open @html in headless chromium: the DOM it built (stdout) and a
 * screenshot in @png; console messages about the page fail the test.
 * Returns the number of <svg> elements in the rendered DOM, -1 on failure.
 */
static int render(struct __test_metadata *_metadata, const char *chromium, const char *dir,
		  const char *html, const char *png)
{
	char shot[300], profile[300], url[300];
	const char *argv[] = { "timeout", "60", chromium, "--headless", "--no-sandbox",
			       "--disable-gpu", "--enable-logging=stderr", "--v=0", profile,
			       shot, "--window-size=1200,3000", "--dump-dom", url, NULL };
	struct run_result r;
	int svgs, bad = 0;

	snprintf(shot, sizeof(shot), "--screenshot=%s", png);
	snprintf(profile, sizeof(profile), "--user-data-dir=%s/chromium", dir);
	snprintf(url, sizeof(url), "file://%s", html);
	if (run_argv(argv, &r))
		return -1;
	EXPECT_EQ(0, r.status) TH_LOG("chromium: %s", r.err);
	/* Headless chromium logs page console output as ":CONSOLE" lines with the URL. */
	for (char *line = r.err, *end; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if ((strstr(line, "CONSOLE") && strstr(line, html)) || strstr(line, "Uncaught")) {
			TH_LOG("console: %s", line);
			bad++;
		}
		if (!end)
			break;
	}
	EXPECT_EQ(0, bad);
	svgs = count_of(r.out, "<svg");
	run_result_free(&r);
	return svgs;
}

/* png_stats.py's count for one line ("nonwhite", "colours", "colour #rrggbb"). */
static long png_stat(const char *stats, const char *what)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "%s ", what);
	p = stats ? strstr(stats, key) : NULL;
	return p ? atol(p + strlen(key)) : -1;
}

static char *png_stats(const char *png)
{
	char helper[512];
	const char *argv[] = { "python3", helper, png, READ_COLOUR, WRITE_COLOUR, BAND_COLOUR,
			       HEAT_LOW, HEAT_HIGH, NULL };
	struct run_result r;

	snprintf(helper, sizeof(helper), "%s/selftests/helpers/png_stats.py", srctree_path());
	if (run_argv(argv, &r))
		return NULL;
	if (r.status)
		fprintf(stderr, "# png_stats: %s", r.err);
	free(r.err);
	return r.out;
}

TEST_F(rep, chromium_renders)
{
	const char *chromium = chromium_path();
	char in[512], html[256], png[256];
	struct run_result r;
	char *stats;
	int svgs;

	if (!chromium)
		SKIP(return, "chromium is not installed (make deps installs it)");
	setenv("HOME", self->dir, 1);

	/* The run page: both directions' colours in the time series and legends. */
	fixture(in, sizeof(in), "run.json");
	in_dir(html, sizeof(html), self->dir, "run.html");
	in_dir(png, sizeof(png), self->dir, "run.png");
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", html, NULL));
	ASSERT_EQ(0, r.status);
	run_result_free(&r);
	svgs = render(_metadata, chromium, self->dir, html, png);
	EXPECT_EQ(5, svgs);
	stats = png_stats(png);
	ASSERT_NE(NULL, stats);
	TH_LOG("run page: %s", stats);
	EXPECT_LT(100000, png_stat(stats, "nonwhite")) TH_LOG("blank screenshot?");
	EXPECT_LT(50, png_stat(stats, "colours"));
	EXPECT_LT(200, png_stat(stats, "colour " READ_COLOUR));
	EXPECT_LT(200, png_stat(stats, "colour " WRITE_COLOUR));
	free(stats);

	/* The qualify page: the window band and both ends of the heat map's scale. */
	fixture(in, sizeof(in), "qualify.json");
	in_dir(html, sizeof(html), self->dir, "qualify.html");
	in_dir(png, sizeof(png), self->dir, "qualify.png");
	ASSERT_EQ(0, run_blkqual(&r, "report", in, "-o", html, NULL));
	ASSERT_EQ(0, r.status);
	run_result_free(&r);
	svgs = render(_metadata, chromium, self->dir, html, png);
	EXPECT_EQ(12, svgs);
	stats = png_stats(png);
	ASSERT_NE(NULL, stats);
	TH_LOG("qualify page: %s", stats);
	EXPECT_LT(100000, png_stat(stats, "nonwhite"));
	EXPECT_LT(50, png_stat(stats, "colour " READ_COLOUR));
	EXPECT_LT(50, png_stat(stats, "colour " WRITE_COLOUR));
	EXPECT_LT(50, png_stat(stats, "colour " BAND_COLOUR));
	EXPECT_LT(50, png_stat(stats, "colour " HEAT_LOW));
	EXPECT_LT(50, png_stat(stats, "colour " HEAT_HIGH));
	free(stats);
}

TEST_HARNESS_MAIN
