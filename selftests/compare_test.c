// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_test.c - blkqual compare, run --repeat and run --replay:
 * verdicts on made-up repetitions where the answer is known, two real runs
 * of one job within noise, a slowed run caught as a regression, runs of
 * different jobs refused, every output format, and a job replayed from
 * its result file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/run.h"

FIXTURE(dir)
{
	char path[64];
	char a[128], b[128], c[128];
};

FIXTURE_SETUP(dir)
{
	snprintf(self->path, sizeof(self->path), "/tmp/blkqual-compare.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->path));
	snprintf(self->a, sizeof(self->a), "%s/a.json", self->path);
	snprintf(self->b, sizeof(self->b), "%s/b.json", self->path);
	snprintf(self->c, sizeof(self->c), "%s/c.json", self->path);
}

FIXTURE_TEARDOWN(dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->path);
	if (system(cmd))
		TH_LOG("could not remove %s", self->path);
}

/* The total of one repetition: IOPS and a latency that follows it. */
static void total(FILE *f, double iops)
{
	double lat = 1e9 / iops;

	fprintf(f, "{\"read\": {\"ios\": 1000, \"iops\": %.1f, \"bytes_per_second\": %.1f, "
		"\"lat_ns\": {\"mean\": %.1f, \"max\": %.1f, \"percentiles\": {\"50\": %.1f, "
		"\"99\": %.1f, \"99.9\": %.1f, \"99.99\": %.1f}}}, "
		"\"write\": {\"ios\": 0}, \"cpu_usage\": {\"ios_per_cpu_second\": %.1f}}",
		iops, iops * 4096, lat, lat * 4, lat, lat * 2, lat * 3, lat * 3.5, iops * 2);
}

/* A result file with the given repetitions, as blkqual run --repeat writes. */
static int write_result(const char *path, const char *bs, const char *firmware,
			const double *iops, int n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{\"schema_version\": 1, \"blkqual_version\": \"0.1.0\", "
		"\"host\": {\"kernel\": \"6.18\"}, \"jobs\": [{\"name\": \"j\", "
		"\"options\": {\"rw\": \"randread\", \"bs_read\": \"%s\"}, "
		"\"targets\": [{\"device\": {\"model\": \"M\", \"firmware\": \"%s\"}}], "
		"\"total\": ", bs, firmware);
	total(f, iops[0]);
	fprintf(f, "}], \"repetitions\": [");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"jobs\": [{\"name\": \"j\", \"total\": ", i ? ", " : "");
		total(f, iops[i]);
		fprintf(f, "}]}");
	}
	fprintf(f, "]}\n");
	return fclose(f);
}

static const double steady[8] = { 100e3, 101e3, 99e3, 100.5e3, 99.5e3, 100.2e3, 99.8e3, 100e3 };
static const double same[8] = { 99.7e3, 100.4e3, 100.1e3, 99.2e3, 100.9e3, 99.6e3, 100e3, 100.3e3 };
static const double slower[8] = { 90e3, 91e3, 89e3, 90.5e3, 89.5e3, 90.2e3, 89.8e3, 90e3 };
static const double faster[8] = { 110e3, 111e3, 109e3, 110.5e3, 109.5e3, 110.2e3, 109.8e3, 110e3 };

TEST_F(dir, same_distribution_is_within_noise)
{
	struct run_result r;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, write_result(self->b, "4096", "F1", same, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", self->a, self->b, NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "verdict: within noise"));
	EXPECT_NE(NULL, strstr(r.out, "repetitions vs repetitions"));
	run_result_free(&r);
}

TEST_F(dir, ten_percent_slower_is_a_regression)
{
	struct run_result r;
	json_object *doc, *rows;
	int regressions = 0;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, write_result(self->b, "4096", "F1", slower, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", "-o", "json", self->a, self->b, NULL));
	EXPECT_EQ(1, r.status);
	doc = json_tokener_parse(r.out);
	ASSERT_NE(NULL, doc);
	EXPECT_STREQ("regression", json_str(doc, "verdict"));
	rows = json_object_object_get(doc, "metrics");
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i);

		regressions += !strcmp(json_str(row, "verdict"), "regression");
		if (!strcmp(json_str(row, "metric"), "IOPS")) {
			EXPECT_LT(json_object_get_double(json_object_object_get(row, "change")),
				  -0.09);
		}
	}
	/* IOPS, bandwidth, CPU cost and the five latencies all got worse. */
	EXPECT_EQ(9, regressions);
	json_object_put(doc);
	run_result_free(&r);
}

TEST_F(dir, faster_is_an_improvement_and_exit_0)
{
	struct run_result r;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, write_result(self->b, "4096", "F1", faster, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", self->a, self->b, NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "verdict: improvement"));
	run_result_free(&r);
}

TEST_F(dir, threshold_decides_what_matters)
{
	struct run_result r;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, write_result(self->b, "4096", "F1", slower, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--threshold=15%", self->a, self->b, NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "verdict: within noise"));
	run_result_free(&r);
}

TEST_F(dir, one_sample_each_gives_no_verdict)
{
	struct run_result r;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 1));
	ASSERT_EQ(0, write_result(self->b, "4096", "F1", slower, 1));
	ASSERT_EQ(0, run_blkqual(&r, "compare", self->a, self->b, NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "verdict: unknown"));
	run_result_free(&r);
}

TEST_F(dir, directories_give_one_sample_per_file)
{
	char base[128], cur[128], path[192];
	struct run_result r;

	snprintf(base, sizeof(base), "%s/base", self->path);
	snprintf(cur, sizeof(cur), "%s/new", self->path);
	ASSERT_EQ(0, mkdir(base, 0755));
	ASSERT_EQ(0, mkdir(cur, 0755));
	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/%d.json", base, i);
		ASSERT_EQ(0, write_result(path, "4096", "F1", &steady[i], 1));
		snprintf(path, sizeof(path), "%s/%d.json", cur, i);
		ASSERT_EQ(0, write_result(path, "4096", "F1", &slower[i], 1));
	}
	ASSERT_EQ(0, run_blkqual(&r, "compare", "-o", "tap", base, cur, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(0, strncmp(r.out, "TAP version 13\n1..9\n", 20));
	EXPECT_NE(NULL, strstr(r.out, "not ok 1 - j read IOPS"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "compare", "-o", "markdown", base, cur, NULL));
	EXPECT_EQ(0, strncmp(r.out, "**blkqual compare: regression**", 31));
	EXPECT_NE(NULL, strstr(r.out, "| j | read | IOPS |"));
	run_result_free(&r);
}

TEST_F(dir, different_jobs_refused_firmware_warned)
{
	struct run_result r;

	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, write_result(self->b, "8192", "F1", steady, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", self->a, self->b, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "job option bs_read: 4096 -> 8192"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--force", self->a, self->b, NULL));
	EXPECT_EQ(0, r.status);
	run_result_free(&r);
	ASSERT_EQ(0, write_result(self->c, "4096", "F2", same, 8));
	ASSERT_EQ(0, run_blkqual(&r, "compare", self->a, self->c, NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "warning: j: device firmware differs: F1 -> F2"));
	run_result_free(&r);
}

TEST_F(dir, bad_input)
{
	static const char *const bad[][4] = {
		{ "/nonexistent.json", "A" },
		{ "NOTJSON", "A" },
		{ "NOTRESULT", "A" },
		{ "A", "EMPTYDIR" },
		{ "--threshold=-5%", "A", "A" },
		{ "--confidence=100", "A", "A" },
		{ "-o", "yaml", "A", "A" },
		{ "A" },
		{ "--thresh=5", "A", "A" },
	};
	char notjson[160], notresult[160], empty[160];

	snprintf(notjson, sizeof(notjson), "%s/x.json", self->path);
	snprintf(notresult, sizeof(notresult), "%s/y.json", self->path);
	snprintf(empty, sizeof(empty), "%s/empty", self->path);
	ASSERT_EQ(0, write_result(self->a, "4096", "F1", steady, 8));
	ASSERT_EQ(0, mkdir(empty, 0755));
	{
		FILE *f = fopen(notjson, "w");

		ASSERT_NE(NULL, f);
		fputs("{ not json", f);
		fclose(f);
		f = fopen(notresult, "w");
		ASSERT_NE(NULL, f);
		fputs("{\"hello\": 1}", f);
		fclose(f);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *argv[8] = { blkqual_path(), "compare" };
		struct run_result r;
		int n = 2;

		for (int k = 0; k < 4 && bad[i][k]; k++) {
			const char *a = bad[i][k];

			argv[n++] = !strcmp(a, "A") ? self->a : !strcmp(a, "NOTJSON") ? notjson :
				    !strcmp(a, "NOTRESULT") ? notresult :
				    !strcmp(a, "EMPTYDIR") ? empty : a;
		}
		argv[n] = NULL;
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) {
			TH_LOG("case %zu: %s", i, r.err);
		}
		EXPECT_EQ(1, count_lines(r.err)) {
			TH_LOG("case %zu: %s", i, r.err);
		}
		run_result_free(&r);
	}
}

/*
 * Real runs on a file: the same job twice is noise; the same job held back
 * is not.  The threshold is 10% because two runs on a shared 2-CPU test
 * machine differ by more than 5% often enough.  The two sets of the same
 * job are interleaved, one run each in turn, as an A/A test on a shared
 * machine must be: two bursts one after the other see the machine drift
 * between them, and the tail latencies rightly call that a difference.
 */
TEST_F(dir, real_runs_noise_and_slowdown)
{
	char file[160], fopt[192], base[200], cur[200], out[240];
	struct run_result r;

#ifdef __SANITIZE_ADDRESS__
	/* Tail latencies of 0.15 s runs jitter by several times under ASan. */
	SKIP(return, "timing: built with AddressSanitizer (make check SANITIZE=1)");
#endif
	snprintf(file, sizeof(file), "%s/data", self->path);
	snprintf(fopt, sizeof(fopt), "--filename=%s", file);
	snprintf(base, sizeof(base), "%s/base", self->path);
	snprintf(cur, sizeof(cur), "%s/new", self->path);
	ASSERT_EQ(0, mkdir(base, 0755));
	ASSERT_EQ(0, mkdir(cur, 0755));
	for (int i = 0; i < 12; i++) {
		snprintf(out, sizeof(out), "%s/%d.json", i % 2 ? cur : base, i / 2);
		ASSERT_EQ(0, run_blkqual(&r, "run", fopt, "--size=16m", "--rw=randread",
					 "--bs=4k", "--runtime=0.15", "--time_based", "-o", "json",
					 "--output", out, NULL));
		ASSERT_EQ(0, r.status);
		run_result_free(&r);
	}
	ASSERT_EQ(0, run_blkqual(&r, "run", fopt, "--size=16m", "--rw=randread", "--bs=4k",
				 "--runtime=0.15", "--time_based", "--repeat=6", "--rate_iops=500",
				 "-o", "json", "--output", self->c, NULL));
	ASSERT_EQ(0, r.status);
	run_result_free(&r);

	/*
	 * Identical jobs: never a regression.  Runs of 0.15 s differ by 10 %
	 * and more from one another, so six of them may not be able to show
	 * a change of 10 %: then the verdict says so, and how many would.
	 */
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--threshold=10%", base, cur, NULL));
	EXPECT_TRUE(r.status == 0 || r.status == 3) {
		TH_LOG("%s", r.out);
	}
	if (r.status == 3)
		EXPECT_NE(NULL, strstr(r.out, "runs a side"));
	EXPECT_NE(NULL, strstr(r.out, "files vs files"));
	run_result_free(&r);
	/* rate_iops changes the job: refused unless forced, then a regression. */
	ASSERT_EQ(0, run_blkqual(&r, "compare", base, self->c, NULL));
	EXPECT_EQ(2, r.status);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--force", "--threshold=10%", base, self->c,
				 NULL));
	EXPECT_EQ(1, r.status) {
		TH_LOG("%s", r.out);
	}
	EXPECT_NE(NULL, strstr(r.out, "verdict: regression"));
	run_result_free(&r);

	/*
	 * Three runs a side are enough to see a throttled device, even when
	 * other load slows the unthrottled runs to a few thousand IOPS and
	 * makes them differ: throttled hard, so that Welch's test with two
	 * degrees of freedom still clears Holm's bound.
	 */
	snprintf(out, sizeof(out), "%s/r3.json", self->path);
	for (int side = 0; side < 2; side++) {
		ASSERT_EQ(0, run_blkqual(&r, "run", fopt, "--size=16m", "--rw=randread",
					 "--bs=4k", "--runtime=0.15", "--time_based", "--repeat=3",
					 side ? "--rate_iops=100" : "--rate_iops=0", "-o", "json",
					 "--output", side ? self->c : out, NULL));
		ASSERT_EQ(0, r.status);
		run_result_free(&r);
	}
	ASSERT_EQ(0, run_blkqual(&r, "compare", "--force", out, self->c, NULL));
	EXPECT_EQ(1, r.status) {
		TH_LOG("%s", r.out);
	}
	EXPECT_NE(NULL, strstr(r.out, "verdict: regression"));
	run_result_free(&r);
}

TEST_F(dir, repeat_and_replay)
{
	char file[160], other[160], fopt[192], oopt[192];
	json_object *a, *b, *args_a, *args_b;
	struct run_result r;

	snprintf(file, sizeof(file), "%s/data", self->path);
	snprintf(other, sizeof(other), "%s/other", self->path);
	snprintf(fopt, sizeof(fopt), "--filename=%s", file);
	snprintf(oopt, sizeof(oopt), "--filename=%s", other);
	ASSERT_EQ(0, run_blkqual(&r, "run", fopt, "--size=8m", "--rw=randrw", "--bs=4k,8k",
				 "--iodepth=4", "--runtime=0.2", "--time_based", "--repeat=3",
				 "-o", "json", "--output", self->a, NULL));
	ASSERT_EQ(0, r.status);
	run_result_free(&r);
	a = json_object_from_file(self->a);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(3, json_object_array_length(json_object_object_get(a, "repetitions")));
	EXPECT_STREQ("blkqual", json_object_get_string(json_object_array_get_idx(
		json_object_object_get(a, "command_line"), 0)));

	/* Replayed on another file: the same job but for the file name, and it says so. */
	ASSERT_EQ(0, run_blkqual(&r, "run", "--replay", self->a, oopt, "-o", "json", "--output",
				 self->b, NULL));
	ASSERT_EQ(0, r.status) {
		TH_LOG("%s", r.err);
	}
	EXPECT_NE(NULL, strstr(r.err, "job option filename differs"));
	run_result_free(&r);
	b = json_object_from_file(self->b);
	ASSERT_NE(NULL, b);
	args_a = json_object_object_get(json_object_array_get_idx(json_object_object_get(a,
					 "jobs"), 0), "job_args");
	args_b = json_object_object_get(json_object_array_get_idx(json_object_object_get(b,
					 "jobs"), 0), "job_args");
	ASSERT_EQ(json_object_array_length(args_a), json_object_array_length(args_b));
	for (size_t i = 0; i < json_object_array_length(args_a); i++) {
		const char *x = json_object_get_string(json_object_array_get_idx(args_a, i));
		const char *y = json_object_get_string(json_object_array_get_idx(args_b, i));

		if (!strncmp(x, "--filename=", 11)) {
			EXPECT_STREQ(oopt, y);
		} else {
			EXPECT_STREQ(x, y);
		}
	}
	json_object_put(a);
	json_object_put(b);

	ASSERT_EQ(0, run_blkqual(&r, "run", "--replay", self->a, "some.fio", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--replay", "/nonexistent.json", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
