// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_results_test.c - compare, report and fleet take fio's own JSON
 * output, so that two sets of fio runs can be compared with a verdict:
 * the figures read from fio's file are fio's (checked against the file
 * itself), a slower side is found slower, report draws a page of it and
 * fleet puts hosts' fio results side by side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"

/* An object below @o by a '/'-separated path (fio's keys hold dots), or NULL. */
static json_object *json_path(json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, "/");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '/');
	}
	return o;
}

FIXTURE(runs)
{
	struct scratch s;
	char base[300];
	char slow[300];
};

FIXTURE_SETUP(runs)
{
	ASSERT_EQ(0, scratch_make(&self->s, 0));
	snprintf(self->base, sizeof(self->base), "%s/base", self->s.dir);
	snprintf(self->slow, sizeof(self->slow), "%s/slow", self->s.dir);
	ASSERT_EQ(0, mkdir(self->base, 0755));
	ASSERT_EQ(0, mkdir(self->slow, 0755));
}

FIXTURE_TEARDOWN(runs)
{
	scratch_destroy(&self->s);
}

/*
 * fio's null engine, @n runs into @dir: the slow side sleeps 50 us after
 * each I/O (thinktime), which no noise can hide.
 */
static int fio_runs(const char *dir, int n, bool slow)
{
	char cmd[700];

	for (int i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "fio --name=j --ioengine=null --rw=randread --bs=4k "
			 "--size=%s --lat_percentiles=%d %s --output-format=json "
			 "--output=%s/r%d.json >/dev/null 2>&1", slow ? "8m" : "256m", i & 1,
			 slow ? "--thinktime=50" : "", dir, i);
		if (system(cmd))
			return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(runs, fio_json_compares_with_a_verdict, 120)
{
	struct run_result r;
	json_object *doc, *row;
	size_t nr;
	bool iops_row = false;

	if (!have_fio())
		SKIP(return, "needs fio (make deps installs it)");
	ASSERT_EQ(0, fio_runs(self->base, 4, false));
	ASSERT_EQ(0, fio_runs(self->slow, 4, true));
	ASSERT_EQ(0, run_blkqual(&r, "compare", "-o", "json", self->base, self->slow, NULL));
	/* 1: a regression was found. */
	EXPECT_EQ(1, r.status) TH_LOG("%.500s", r.err);
	doc = json_tokener_parse(r.out);
	ASSERT_NE(NULL, doc) TH_LOG("%.500s", r.out);
	EXPECT_STREQ("regression", json_object_get_string(json_path(doc, "verdict")));
	nr = json_object_array_length(json_path(doc, "metrics"));
	for (size_t i = 0; i < nr; i++) {
		row = json_object_array_get_idx(json_path(doc, "metrics"), i);
		if (strcmp(json_object_get_string(json_path(row, "metric")), "IOPS") ||
		    strcmp(json_object_get_string(json_path(row, "direction")), "read"))
			continue;
		iops_row = true;
		EXPECT_STREQ("regression", json_object_get_string(json_path(row, "verdict")));
	}
	EXPECT_TRUE(iops_row);
	json_object_put(doc);
	run_result_free(&r);
}

/* What compare reads from fio's file is fio's own figure, unit for unit. */
TEST_F_TIMEOUT(runs, figures_are_fios, 120)
{
	char file[400], html[400];
	json_object *fio, *jr;
	struct run_result r;
	char *text;

	if (!have_fio())
		SKIP(return, "needs fio (make deps installs it)");
	ASSERT_EQ(0, fio_runs(self->base, 1, false));
	snprintf(file, sizeof(file), "%s/r0.json", self->base);
	text = slurp(file);
	ASSERT_NE(NULL, text);
	fio = json_tokener_parse(text);
	free(text);
	ASSERT_NE(NULL, fio);
	jr = json_object_array_get_idx(json_path(fio, "jobs"), 0);
	/* Two sides of one file each: the figures themselves, without a verdict. */
	ASSERT_EQ(0, run_blkqual(&r, "compare", "-o", "json", file, file, NULL));
	{
		json_object *doc = json_tokener_parse(r.out), *rows;
		double want_iops = json_object_get_double(json_path(jr, "read/iops"));
		double want_bw = json_object_get_double(json_path(jr, "read/bw_bytes"));
		double want_p99 = json_object_get_double(
			json_path(jr, "read/clat_ns/percentile/99.000000"));
		size_t nr;

		ASSERT_NE(NULL, doc) TH_LOG("%.300s %.300s", r.out, r.err);
		rows = json_path(doc, "metrics");
		nr = json_object_array_length(rows);
		ASSERT_LT(0, nr);
		for (size_t i = 0; i < nr; i++) {
			json_object *row = json_object_array_get_idx(rows, i);
			const char *m = json_object_get_string(json_path(row, "metric"));
			double base = json_object_get_double(json_path(row, "base"));

			double want = !strcmp(m, "IOPS") ? want_iops :
				      !strcmp(m, "bandwidth") ? want_bw :
				      !strcmp(m, "p99 latency") ? want_p99 : base;

			EXPECT_EQ(want, base) TH_LOG("%s", m);
		}
		json_object_put(doc);
	}
	run_result_free(&r);
	json_object_put(fio);
	/* And report makes a page of it, with the job's options as fio had them. */
	snprintf(html, sizeof(html), "%s/r0.html", self->s.dir);
	ASSERT_EQ(0, run_blkqual(&r, "report", file, "-o", html, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	run_result_free(&r);
	text = slurp(html);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "randread"));
	EXPECT_NE(NULL, strstr(text, ">null<"));
	free(text);
}

/* json+'s bins are a histogram report draws; plain JSON says where to get one. */
TEST_F_TIMEOUT(runs, json_plus_bins_are_drawn, 120)
{
	char file[400], html[400], cmd[900];
	struct run_result r;
	char *text;

	if (!have_fio())
		SKIP(return, "needs fio (make deps installs it)");
	for (int side = 0; side < 3; side++) {
		/* fio's json+, blkqual's json+, fio's plain JSON. */
		const char *fmt = side == 2 ? "json" : "json+";

		snprintf(file, sizeof(file), "%s/r%d.json", self->s.dir, side);
		snprintf(cmd, sizeof(cmd), "%s%s --name=j --ioengine=null --rw=randread --bs=4k "
			 "--size=64m --output-format=%s --output=%s >/dev/null 2>&1",
			 side == 1 ? blkqual_path() : "fio", side == 1 ? " run" : "", fmt, file);
		ASSERT_EQ(0, system(cmd)) TH_LOG("%s", cmd);
		snprintf(html, sizeof(html), "%s/r%d.html", self->s.dir, side);
		ASSERT_EQ(0, run_blkqual(&r, "report", file, "-o", html, NULL));
		EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
		run_result_free(&r);
		text = slurp(html);
		ASSERT_NE(NULL, text);
		if (side < 2) {
			EXPECT_NE(NULL, strstr(text, "Latency histogram, ")) TH_LOG("side %d", side);
			EXPECT_EQ(NULL, strstr(text, "No latency histogram")) TH_LOG("side %d", side);
		} else {
			EXPECT_NE(NULL, strstr(text, "without json+&#39;s bins") ?:
				  strstr(text, "without json+'s bins"));
		}
		free(text);
	}
}

/* A fleet of hosts that ran fio: HOST/NAME.json as for blkqual's results. */
TEST_F_TIMEOUT(runs, fleet_of_fio_results, 120)
{
	struct run_result r;
	char host[400];

	if (!have_fio())
		SKIP(return, "needs fio (make deps installs it)");
	snprintf(host, sizeof(host), "%s/fleet", self->s.dir);
	ASSERT_EQ(0, mkdir(host, 0755));
	for (int h = 0; h < 3; h++) {
		snprintf(host, sizeof(host), "%s/fleet/host%d", self->s.dir, h);
		ASSERT_EQ(0, mkdir(host, 0755));
		ASSERT_EQ(0, fio_runs(host, 1, false));
	}
	snprintf(host, sizeof(host), "%s/fleet", self->s.dir);
	ASSERT_EQ(0, run_blkqual(&r, "fleet", host, NULL));
	/* 1 when a host's null-engine figures stand out: fleet judged them, as it should. */
	EXPECT_TRUE(r.status == 0 || r.status == 1) TH_LOG("%.300s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "3 devices on 3 hosts"));
	EXPECT_NE(NULL, strstr(r.out, "j: read IOPS")) TH_LOG("%.500s", r.out);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
