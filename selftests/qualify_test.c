// SPDX-License-Identifier: GPL-2.0-only
/*
 * qualify_test.c - blkqual qualify: the profile reader (a good profile,
 * every error at its file:line), the criteria grammar parsed and judged
 * on hand-made cells, the plan of the shipped profiles, the bookkeeping
 * of rounds, and real qualifications on a scratch loop device: the quick
 * profile end to end against the JSON contract, an interrupted run
 * resumed from its state file, and the guard's refusal.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_qualify.h"
#include "job/jobopt.h"
#include "qualify/qualify_int.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

static const char good_profile[] =
	"; a comment line\n"
	"[profile]\n"
	"name=good\n"
	"description=a profile to test the reader   ; trailing comment\n"
	"purge=discard\n"
	"precondition=0.5x\n"
	"capacity_fraction=25%\n"
	"round_time=2s\n"
	"ramp=100ms\n"
	"max_rounds=10\n"
	"window=4\n"
	"range_pct=15\n"
	"slope_pct=5\n"
	"iodepth=8\n"
	"numjobs=2\n"
	"require_steady=no\n"
	"\n"
	"[step:rand]\n"
	"kind=iops\n"
	"mixes=100/0, 70/30 ,0/100\n"
	"bs=0.5k,4k,1m\n"
	"tracked=0/100 4k write iops, 100/0 4k read iops\n"
	"\n"
	"[step:lat]\n"
	"kind=latency\n"
	"bs=4k\n"
	"round_time=500ms\n"
	"\n"
	"[step:seq]\n"
	"kind=custom\n"
	"rw=sequential\n"
	"mixes=50/50\n"
	"bs=128k\n"
	"iodepth=64\n"
	"tracked=50/50 128k read mbps\n"
	"\n"
	"[criteria]\n"
	"randread 4k qd1 p99.99 <= 5 ms\n"
	"max read latency <= 65 ms\n"
	"4k randread IOPS >= 500000\n";

TEST(profile_good)
{
	struct bq_parse_error err = { 0 };
	struct bq_profile p;
	const struct bq_qstep *s;

	ASSERT_EQ(0, bq_profile_parse_text("good.ini", good_profile, &p, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_STREQ("good", p.name);
	EXPECT_STREQ("a profile to test the reader", p.description);
	EXPECT_EQ(BQ_PURGE_DISCARD, p.purge);
	EXPECT_EQ(0.5, p.precondition);
	EXPECT_EQ(0.25, p.capacity_fraction);
	EXPECT_EQ(10, p.steady.max_rounds);
	EXPECT_EQ(4, p.steady.window);
	EXPECT_EQ(15, p.steady.range_pct);
	EXPECT_EQ(5, p.steady.slope_pct);
	EXPECT_FALSE(p.require_steady);
	ASSERT_EQ(3, p.nr_steps);
	s = &p.steps[0];
	EXPECT_STREQ("rand", s->name);
	EXPECT_EQ(BQ_STEP_IOPS, s->kind);
	EXPECT_TRUE(s->random);
	ASSERT_EQ(3, s->nr_mixes);
	EXPECT_EQ(70u, s->read_pct[1]);
	ASSERT_EQ(3, s->nr_bs);
	EXPECT_EQ(512u, s->bs[0]);
	EXPECT_EQ(1048576u, s->bs[2]);
	EXPECT_EQ(8u, s->iodepth);
	EXPECT_EQ(2u, s->numjobs);
	EXPECT_EQ(2000000000ull, s->round_ns);
	EXPECT_EQ(100000000ull, s->ramp_ns);
	EXPECT_TRUE(s->tracked[BQ_READ]);
	EXPECT_TRUE(s->tracked[BQ_WRITE]);
	EXPECT_EQ(BQ_METRIC_IOPS, s->track[BQ_WRITE].metric);
	EXPECT_EQ(0, s->track[BQ_WRITE].read_pct);
	EXPECT_EQ(22, s->track_line);
	/* A latency step is QD1, one thread, whatever the profile's default. */
	s = &p.steps[1];
	EXPECT_EQ(1u, s->iodepth);
	EXPECT_EQ(1u, s->numjobs);
	EXPECT_EQ(3, s->nr_mixes);
	EXPECT_EQ(500000000ull, s->round_ns);
	EXPECT_TRUE(s->tracked[BQ_READ] && s->tracked[BQ_WRITE]);
	EXPECT_EQ(BQ_METRIC_LAT_MEAN, s->track[BQ_READ].metric);
	s = &p.steps[2];
	EXPECT_FALSE(s->random);
	EXPECT_EQ(64u, s->iodepth);
	EXPECT_TRUE(s->tracked[BQ_READ]);
	EXPECT_FALSE(s->tracked[BQ_WRITE]);
	ASSERT_EQ(3, p.nr_criteria);
	EXPECT_EQ(38, p.criteria[0].line);
	EXPECT_STREQ("max read latency <= 65 ms", p.criteria[1].text);
	bq_profile_free(&p);
}

static const struct {
	const char *text;
	int line;
	const char *msg;
} bad_profiles[] = {
	{ "[profile]\nfoo=1\n", 2, "unknown key 'foo'" },
	{ "key=value\n[step:a]\nkind=iops\n", 1, "before any section" },
	{ "[profiles]\n", 1, "unknown section [profiles]" },
	{ "[profile\n", 1, "closing ']'" },
	{ "[profile]\npurge=erase\n", 2, "purge=erase" },
	{ "[profile]\nprecondition=2\n", 2, "precondition=2" },
	{ "[profile]\ncapacity_fraction=1.5\n", 2, "capacity_fraction" },
	{ "[profile]\nround_time=0\n", 2, "round_time=0" },
	{ "[profile]\nwindow=1\n", 2, "window=1" },
	{ "[profile]\nrequire_steady=maybe\n", 2, "yes or no" },
	{ "[profile]\nioengine=carrier-pigeon\n", 2, "ioengine" },
	{ "[profile]\nname\n", 2, "expected key=value" },
	{ "[profile]\nname=\n", 2, "has no value" },
	{ "[step:a]\nkind=bogus\n", 2, "kind=bogus" },
	{ "[step:a]\nkind=iops\nmixes=60/30\n", 3, "'60/30' is not a R/W mix" },
	{ "[step:a]\nkind=iops\nbs=4k,3x\n", 3, "'3x' is not a block size" },
	{ "[step:a]\nkind=iops\nbs=1000\n", 3, "'1000' is not a block size" },
	{ "[step:a]\nkind=iops\nkind=iops\n", 3, "given twice" },
	{ "[step:a]\nkind=iops\nrw=random\n", 1, "rw= is for kind=custom" },
	{ "[step:a]\nmixes=100/0\n", 1, "has no kind=" },
	{ "[step:a]\nkind=custom\nmixes=100/0\nbs=4k\n", 1, "kind=custom needs rw=" },
	{ "[step:a]\nkind=iops\ntracked=0/100 4k iops\n", 3, "needs a direction" },
	{ "[step:a]\nkind=iops\ntracked=0/100 4k write\n", 3, "names no figure" },
	{ "[step:a]\nkind=iops\n[step:a]\n", 3, "[step:a] again" },
	{ "[step:a b]\n", 1, "a step name is" },
	{ "[profile]\nname=x\n", 2, "no [step:NAME] section" },
	{ "[profile]\nmax_rounds=3\n[step:a]\nkind=iops\n", 4, "max_rounds=3 is less than" },
	{ "[profile]\nprecondition=none\nverify=crc32c\n[step:a]\nkind=iops\n", 3,
	  "needs precondition" },
	{ "[step:a]\nkind=iops\n[criteria]\n4k randread IOPS >= 5 furlongs\n", 4,
	  "unknown unit 'furlongs'" },
	{ "[step:a]\nkind=iops\n\n\n[criteria]\nrandread 4k p99 <= 5\n", 6,
	  "latency bound needs a unit" },
	{ "[step:a]\nkind=iops\n[criteria]\nrandread 4k wibble <= 5 ms\n", 4,
	  "unknown word 'wibble'" },
};

TEST(profile_errors_at_file_line)
{
	for (size_t i = 0; i < sizeof(bad_profiles) / sizeof(bad_profiles[0]); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_profile p;
		char where[64];

		snprintf(where, sizeof(where), "t.ini:%d", bad_profiles[i].line);
		EXPECT_EQ(-EINVAL, bq_profile_parse_text("t.ini", bad_profiles[i].text, &p, &err))
			TH_LOG("accepted: %s", bad_profiles[i].text);
		EXPECT_STREQ(where, err.where) TH_LOG("%s -> %s", bad_profiles[i].text, err.msg);
		EXPECT_NE(NULL, strstr(err.msg, bad_profiles[i].msg))
			TH_LOG("'%s' lacks '%s'", err.msg, bad_profiles[i].msg);
		EXPECT_EQ(NULL, strchr(err.msg, '\n'));
		bq_profile_free(&p);
	}
}

TEST(profile_file_missing)
{
	struct bq_parse_error err = { 0 };
	struct bq_profile p;

	EXPECT_EQ(-ENOENT, bq_profile_parse("/nonexistent/x.ini", &p, &err));
	EXPECT_STREQ("/nonexistent/x.ini", err.where);
	bq_profile_free(&p);
}

TEST(criteria_grammar)
{
	struct bq_parse_error err = { 0 };
	struct bq_criterion c;

	ASSERT_EQ(0, bq_criterion_parse("randread 4k qd1 p99.99 <= 5 ms", &c, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, c.sel.random);
	EXPECT_EQ(100, c.sel.read_pct);
	EXPECT_EQ(4096u, c.sel.bs);
	EXPECT_EQ(1u, c.sel.iodepth);
	EXPECT_EQ(BQ_READ, c.sel.dir);
	EXPECT_EQ(BQ_METRIC_LAT_PCT, c.sel.metric);
	EXPECT_EQ(99.99, c.sel.pct);
	EXPECT_EQ(BQ_CMP_LE, c.op);
	EXPECT_EQ(5e6, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("max read latency <= 65 ms", &c, &err));
	EXPECT_EQ(BQ_SEL_ANY, c.sel.random);
	EXPECT_EQ(BQ_SEL_ANY, c.sel.read_pct);
	EXPECT_EQ(0u, c.sel.bs);
	EXPECT_EQ(BQ_READ, c.sel.dir);
	EXPECT_EQ(BQ_METRIC_LAT_MAX, c.sel.metric);
	EXPECT_EQ(65e6, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("4k randread IOPS >= 500000", &c, &err));
	EXPECT_EQ(BQ_METRIC_IOPS, c.sel.metric);
	EXPECT_EQ(BQ_CMP_GE, c.op);
	EXPECT_EQ(500000, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("randread 4k >= 500k IOPS", &c, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_METRIC_IOPS, c.sel.metric);
	EXPECT_EQ(500000, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("4k randwrite iops > 1.2M", &c, &err));
	EXPECT_EQ(BQ_CMP_GT, c.op);
	EXPECT_EQ(1.2e6, c.bound);
	EXPECT_EQ(BQ_WRITE, c.sel.dir);

	ASSERT_EQ(0, bq_criterion_parse("seqwrite 128k >= 1.5 GB/s", &c, &err));
	EXPECT_EQ(BQ_METRIC_BW, c.sel.metric);
	EXPECT_EQ(0, c.sel.random);
	EXPECT_EQ(1.5e9, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("seqread 1m mbps >= 100 MiB/s", &c, &err));
	EXPECT_EQ(100.0 * 1048576, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("65/35 0.5k write mean < 200us", &c, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(65, c.sel.read_pct);
	EXPECT_EQ(512u, c.sel.bs);
	EXPECT_EQ(BQ_WRITE, c.sel.dir);
	EXPECT_EQ(BQ_METRIC_LAT_MEAN, c.sel.metric);
	EXPECT_EQ(BQ_CMP_LT, c.op);
	EXPECT_EQ(200e3, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("step:qd32 randrw 8k read p99.9 <= 2 s", &c, &err));
	EXPECT_STREQ("qd32", c.sel.step);
	EXPECT_EQ(BQ_SEL_MIXED, c.sel.read_pct);
	EXPECT_EQ(2e9, c.bound);

	ASSERT_EQ(0, bq_criterion_parse("randread 4k median <= 80 us", &c, &err));
	EXPECT_EQ(50, c.sel.pct);
}

TEST(criteria_grammar_errors)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "4k randread IOPS >= 5 ms", "is a time" },
		{ "randread 4k p99 <= 5", "needs a unit" },
		{ "randread 4k p99 <= 5 parsecs", "unknown unit 'parsecs'" },
		{ "randread 4k wibble <= 5 ms", "unknown word 'wibble'" },
		{ "randread 4k p99 5 ms", "no comparison" },
		{ "randread 4k p99 = 5 ms", "no comparison" },
		{ "randread 512 p99 <= 5 ms", "needs its unit" },
		{ "60/30 4k iops >= 1", "adding up to 100" },
		{ "randread 4k <= 5 ms", "no figure" },
		{ "randread 4k write p99 <= 5 ms", "no write figures" },
		{ "randread 4k mean p99 <= 5 ms", "one figure" },
		{ "4k iops >= 5 MB/s", "is a bandwidth" },
		{ "randread 4k p0 <= 5 ms", "percentile" },
		{ "randread qd0 p99 <= 5 ms", "queue depth" },
		{ "randread 4k p99 <= 5 ms < 6 ms", "more than one comparison" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_criterion c;

		EXPECT_EQ(-EINVAL, bq_criterion_parse(bad[i].text, &c, &err)) TH_LOG("%s", bad[i].text);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].msg))
			TH_LOG("%s: '%s' lacks '%s'", bad[i].text, err.msg, bad[i].msg);
	}
}

/* A cell that did @ios I/Os of @dir in one second, each taking @lat_ns. */
static void fake(struct bq_qresult *r, int dir, uint64_t ios, uint32_t bs, uint64_t lat_ns)
{
	r->runtime_ns = 1000000000ull;
	r->d[dir].ios += ios;
	r->d[dir].bytes += ios * bs;
	for (uint64_t i = 0; i < 10000 && i < ios; i++)
		bq_hist_add(&r->d[dir].lat, lat_ns);
}

static const char *judge(struct bq_criterion_result *res, const char *text,
			 const struct bq_qcell_view *cells, int n)
{
	static struct bq_parse_error err;
	struct bq_criterion c;

	if (bq_criterion_parse(text, &c, &err))
		return err.msg;
	bq_criterion_eval(&c, cells, n, res);
	return NULL;
}

TEST(criteria_judged_on_cells)
{
	struct bq_qcell cells[3] = {
		{ .label = "100/0 4k", .random = true, .read_pct = 100, .bs = 4096, .iodepth = 32 },
		{ .label = "0/100 4k", .random = true, .read_pct = 0, .bs = 4096, .iodepth = 32 },
		{ .label = "100/0 4k", .random = true, .read_pct = 100, .bs = 4096, .iodepth = 1 },
	};
	struct bq_qresult res[3];
	struct bq_qcell_view v[3] = {
		{ .step = "iops", .kind = BQ_STEP_IOPS, .cell = &cells[0], .res = &res[0] },
		{ .step = "iops", .kind = BQ_STEP_IOPS, .cell = &cells[1], .res = &res[1] },
		{ .step = "lat", .kind = BQ_STEP_LATENCY, .cell = &cells[2], .res = &res[2] },
	};
	struct bq_criterion_result r;

	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, bq_qresult_init(&res[i]));
	}
	fake(&res[0], BQ_READ, 500000, 4096, 60000);
	fake(&res[1], BQ_WRITE, 200000, 4096, 150000);
	/* The QD1 cell: 9990 reads at 100 us, 10 at 6 ms. */
	fake(&res[2], BQ_READ, 9990, 4096, 100000);
	for (int i = 0; i < 10; i++)
		bq_hist_add(&res[2].d[BQ_READ].lat, 6000000);
	res[2].d[BQ_READ].ios += 10;

	/* IOPS criteria look at the IOPS step, not at the QD1 latency cell. */
	ASSERT_EQ(NULL, judge(&r, "4k randread IOPS >= 400000", v, 3));
	EXPECT_TRUE(r.pass);
	EXPECT_EQ(500000, r.measured);
	EXPECT_EQ(0, r.cell);
	ASSERT_EQ(NULL, judge(&r, "4k randread IOPS >= 600k", v, 3));
	EXPECT_FALSE(r.pass);
	EXPECT_EQ(500000, r.measured);
	/* The same figure by bandwidth; qd32 picks the cell. */
	ASSERT_EQ(NULL, judge(&r, "4k randread qd32 >= 1.5 GB/s", v, 3));
	EXPECT_TRUE(r.pass);
	EXPECT_EQ(500000.0 * 4096, r.measured);
	/* Percentiles of the histogram: p99.5 is 100 us, p99.99 is 6 ms. */
	ASSERT_EQ(NULL, judge(&r, "randread 4k qd1 p99.5 <= 1 ms", v, 3));
	EXPECT_TRUE(r.pass);
	EXPECT_LT(fabs(r.measured - 100000), 100000 / 200.0);
	ASSERT_EQ(NULL, judge(&r, "randread 4k qd1 p99.99 <= 5 ms", v, 3));
	EXPECT_FALSE(r.pass);
	EXPECT_LT(fabs(r.measured - 6e6), 6e6 / 200);
	EXPECT_NE(NULL, strstr(r.note, "lat")) TH_LOG("%s", r.note);
	/* Latency criteria without a step look at latency steps. */
	ASSERT_EQ(NULL, judge(&r, "max read latency <= 65 ms", v, 3));
	EXPECT_TRUE(r.pass);
	EXPECT_EQ(6e6, r.measured);
	ASSERT_EQ(NULL, judge(&r, "mean read latency <= 110 us", v, 3));
	EXPECT_TRUE(r.pass);
	EXPECT_LT(fabs(r.measured - (9990 * 100e3 + 10 * 6e6) / 10000), 1);
	/* With a step named, that step's cells. */
	ASSERT_EQ(NULL, judge(&r, "step:iops max write latency < 100 us", v, 3));
	EXPECT_FALSE(r.pass);
	EXPECT_EQ(150000, r.measured);
	EXPECT_EQ(BQ_WRITE, r.dir);
	/* Nothing measured there: a failure that says so. */
	ASSERT_EQ(NULL, judge(&r, "randwrite 4k qd1 p99 <= 1 ms", v, 3));
	EXPECT_FALSE(r.pass);
	EXPECT_TRUE(isnan(r.measured));
	EXPECT_STREQ("no such cell", r.note);
	ASSERT_EQ(NULL, judge(&r, "seqread 1m >= 1 GB/s", v, 3));
	EXPECT_STREQ("no such cell", r.note);
	EXPECT_STREQ("iops", bq_metric_unit(BQ_METRIC_IOPS));
	EXPECT_STREQ("ns", bq_metric_unit(BQ_METRIC_LAT_PCT));
	for (int i = 0; i < 3; i++)
		bq_qresult_free(&res[i]);
}

static char *profile_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/tools/profiles/%s.ini", srctree_path(), name);
	return path;
}

TEST(shipped_profiles_parse)
{
	static const char *const names[] = { "quick", "snia-iops", "snia-throughput",
					     "snia-latency", "latency-qos" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_profile p;
		struct bq_qplan plan;

		ASSERT_EQ(0, bq_profile_parse(profile_path(names[i]), &p, &err))
			TH_LOG("%s: %s", err.where, err.msg);
		EXPECT_STREQ(names[i], p.name);
		EXPECT_NE(0, p.description[0]);
		ASSERT_EQ(0, bq_qualify_plan(&p, 1ull << 40, 4096, &plan, &err))
			TH_LOG("%s: %s", err.where, err.msg);
		bq_qplan_free(&plan);
		bq_profile_free(&p);
	}
}

TEST(plan_quick_and_snia)
{
	struct bq_parse_error err = { 0 };
	static const char *const iops_cells[] = { "100/0 64k", "100/0 4k", "65/35 64k", "65/35 4k",
						  "0/100 64k", "0/100 4k" };
	struct bq_profile p;
	struct bq_qplan plan;
	struct bq_job job;

	ASSERT_EQ(0, bq_profile_parse(profile_path("quick"), &p, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_qualify_plan(&p, 512ull << 20, 512, &plan, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(128ull << 20, plan.region);
	EXPECT_EQ(128ull << 20, plan.precondition_bytes);
	EXPECT_EQ(4096u, plan.min_bs);
	ASSERT_EQ(3, plan.nr_steps);
	ASSERT_EQ(6, plan.steps[0].nr_cells);
	for (int k = 0; k < 6; k++) {
		EXPECT_STREQ(iops_cells[k], plan.steps[0].cells[k].label);
	}
	EXPECT_EQ(-1, plan.steps[0].track_cell[BQ_READ]);
	EXPECT_EQ(5, plan.steps[0].track_cell[BQ_WRITE]);
	EXPECT_EQ(6000000000ull, bq_qplan_round_ns(&plan.steps[0]));
	EXPECT_STREQ("throughput", plan.steps[1].step->name);
	ASSERT_EQ(2, plan.steps[1].nr_cells);
	EXPECT_STREQ("100/0 1024k", plan.steps[1].cells[0].label);
	EXPECT_STREQ("read", bq_qcell_rw(&plan.steps[1].cells[0]));
	EXPECT_STREQ("write", bq_qcell_rw(&plan.steps[1].cells[1]));
	EXPECT_EQ(0, plan.steps[1].track_cell[BQ_READ]);
	EXPECT_EQ(1, plan.steps[1].track_cell[BQ_WRITE]);
	ASSERT_EQ(2, plan.steps[2].nr_cells);
	EXPECT_EQ(1u, plan.steps[2].cells[0].iodepth);
	EXPECT_STREQ("randread", bq_qcell_rw(&plan.steps[2].cells[0]));
	/* The 65/35 4k cell as an engine job. */
	ASSERT_EQ(0, bq_qcell_job(&p, &plan, &plan.steps[0], &plan.steps[0].cells[3], "/dev/null",
				  42, &job, &err)) TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_EQ(BQ_RW_RANDRW, job.rw);
	EXPECT_EQ(65u, job.rwmixread);
	EXPECT_EQ(4096u, job.bs[BQ_READ]);
	EXPECT_EQ(16u, job.iodepth);
	EXPECT_EQ(1000000000ull, job.runtime_ns);
	EXPECT_TRUE(job.time_based);
	EXPECT_TRUE(job.direct);
	EXPECT_EQ(128ull << 20, job.size);
	EXPECT_EQ(42ull, job.randseed);
	bq_job_release(&job);
	ASSERT_EQ(0, bq_precondition_job(&p, "/dev/null", &plan, &job, &err));
	EXPECT_EQ(BQ_RW_WRITE, job.rw);
	EXPECT_EQ(131072u, job.bs[BQ_WRITE]);
	EXPECT_EQ(128ull << 20, job.io_size);
	bq_job_release(&job);
	bq_qplan_free(&plan);
	bq_profile_free(&p);

	/* The full PTS matrix; 0.5 KiB cells leave on a 4 KiB-sector drive. */
	ASSERT_EQ(0, bq_profile_parse(profile_path("snia-iops"), &p, &err));
	ASSERT_EQ(0, bq_qualify_plan(&p, 1ull << 40, 512, &plan, &err));
	EXPECT_EQ(56, plan.steps[0].nr_cells);
	EXPECT_EQ(2ull << 40, plan.precondition_bytes);
	EXPECT_EQ(56ull * 60 * 1000000000ull, bq_qplan_round_ns(&plan.steps[0]));
	bq_qplan_free(&plan);
	ASSERT_EQ(0, bq_qualify_plan(&p, 1ull << 40, 4096, &plan, &err));
	EXPECT_EQ(49, plan.steps[0].nr_cells);
	EXPECT_NE(NULL, strstr(plan.steps[0].note, "0.5k left out")) TH_LOG("%s", plan.steps[0].note);
	bq_qplan_free(&plan);
	bq_profile_free(&p);
}

TEST(plan_errors)
{
	struct bq_parse_error err = { 0 };
	struct bq_profile p;
	struct bq_qplan plan;

	ASSERT_EQ(0, bq_profile_parse_text("t.ini", "[step:a]\nkind=iops\nbs=64k\n"
					   "tracked=0/100 4k write iops\n", &p, &err));
	EXPECT_EQ(-EINVAL, bq_qualify_plan(&p, 1ull << 30, 512, &plan, &err));
	EXPECT_STREQ("t.ini:4", err.where);
	EXPECT_NE(NULL, strstr(err.msg, "not a cell of the step")) TH_LOG("%s", err.msg);
	bq_profile_free(&p);
	ASSERT_EQ(0, bq_profile_parse_text("t.ini", "[step:a]\nkind=iops\nbs=64k,4k\n"
					   "tracked=0/100 write iops\n", &p, &err));
	EXPECT_EQ(-EINVAL, bq_qualify_plan(&p, 1ull << 30, 512, &plan, &err));
	EXPECT_NE(NULL, strstr(err.msg, "matches 2 cells")) TH_LOG("%s", err.msg);
	bq_profile_free(&p);
}

/* One synthetic round: the tracked write cell does @iops. */
static void synth_round(struct bq_qstep_run *run, double iops)
{
	struct bq_qresult cells[2];

	for (int c = 0; c < 2; c++) {
		bq_qresult_init(&cells[c]);
		fake(&cells[c], BQ_WRITE, (uint64_t)iops, 4096, 1000);
	}
	bq_qstep_add_round(run, cells, NULL);
}

TEST(rounds_until_steady)
{
	struct bq_parse_error err = { 0 };
	struct bq_profile p;
	struct bq_qplan plan;
	struct bq_qstep_run run;
	struct bq_qresult sum;
	int first, last;

	ASSERT_EQ(0, bq_profile_parse_text("t.ini", "[profile]\nwindow=3\nmax_rounds=8\n"
					   "[step:w]\nkind=iops\nmixes=0/100\nbs=64k,4k\n", &p,
					   &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, bq_qualify_plan(&p, 1ull << 30, 512, &plan, &err));
	ASSERT_EQ(0, bq_qstep_run_init(&run, &plan.steps[0], &p.steady));
	synth_round(&run, 3000);
	synth_round(&run, 2000);
	EXPECT_FALSE(bq_qstep_finished(&run));
	synth_round(&run, 1500);
	EXPECT_FALSE(bq_qstep_finished(&run));
	EXPECT_EQ(BQ_STEADY_PENDING, run.steady[BQ_WRITE].state);
	/* 1500 1100 1450 and 1100 1450 1480 range too wide (29%, 28%). */
	synth_round(&run, 1100);
	synth_round(&run, 1450);
	synth_round(&run, 1480);
	EXPECT_FALSE(bq_qstep_finished(&run));
	synth_round(&run, 1470);
	EXPECT_TRUE(bq_qstep_finished(&run));
	EXPECT_EQ(BQ_STEADY_REACHED, run.steady[BQ_WRITE].state);
	EXPECT_EQ(7, run.nr_rounds);
	EXPECT_EQ(1470, run.track[BQ_WRITE][6]);
	/* Figures from the window: rounds 5 to 7 (0-based 4 to 6). */
	bq_qstep_window(&run, &first, &last);
	EXPECT_EQ(4, first);
	EXPECT_EQ(6, last);
	ASSERT_EQ(0, bq_qstep_window_sum(&run, 1, &sum));
	EXPECT_EQ(1450 + 1480 + 1470, sum.d[BQ_WRITE].ios);
	EXPECT_EQ(3000000000ull, sum.runtime_ns);
	EXPECT_LT(fabs(bq_qresult_value(&sum, BQ_WRITE, BQ_METRIC_IOPS, 0) - 4400 / 3.0), 1e-6);
	EXPECT_EQ(1000, bq_qresult_value(&sum, BQ_WRITE, BQ_METRIC_LAT_PCT, 99));
	bq_qresult_free(&sum);
	/* Histograms before the window are let go. */
	EXPECT_EQ(NULL, run.res[0].d[BQ_WRITE].lat.buckets);
	EXPECT_EQ(NULL, run.res[3 * 2 + 1].d[BQ_WRITE].lat.buckets);
	EXPECT_NE(NULL, run.res[4 * 2].d[BQ_WRITE].lat.buckets);
	bq_qstep_run_free(&run);
	bq_qplan_free(&plan);
	bq_profile_free(&p);
}

/* ---- on a scratch loop device --------------------------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char state[320];
	char out[320];
	char tiny[320];
};

static const char tiny_profile[] =
	"[profile]\n"
	"name=tiny\n"
	"purge=none\n"
	"precondition=none\n"
	"capacity_fraction=0.25\n"
	"round_time=300ms\n"
	"max_rounds=4\n"
	"window=2\n"
	/* Never steady, so it runs all 4 rounds: time to interrupt it. */
	"range_pct=0\n"
	"slope_pct=0\n"
	"require_steady=no\n"
	"[step:s]\n"
	"kind=custom\n"
	"rw=random\n"
	"mixes=100/0,0/100\n"
	"bs=4k\n"
	"iodepth=4\n"
	"tracked=100/0 4k read iops, 0/100 4k write iops\n"
	"[criteria]\n"
	"randread 4k iops >= 1\n";

FIXTURE_SETUP(dev)
{
	char profiles[4200];
	FILE *f;

	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
	snprintf(profiles, sizeof(profiles), "%s/tools/profiles", srctree_path());
	setenv("BLKQUAL_PROFILES", profiles, 1);
	if (!prep_ok(&self->p))
		return;
	snprintf(self->state, sizeof(self->state), "%s/q.state", self->s.dir);
	snprintf(self->out, sizeof(self->out), "%s/q.json", self->s.dir);
	snprintf(self->tiny, sizeof(self->tiny), "%s/tiny.ini", self->s.dir);
	f = fopen(self->tiny, "w");
	if (!f) {
		prep_fail(&self->p, "writing tiny.ini", -errno);
		return;
	}
	fputs(tiny_profile, f);
	fclose(f);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->state);
	unlink(self->out);
	unlink(self->tiny);
	scratch_destroy(&self->s);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static bool is(json_object *o, json_type t)
{
	return o && json_object_is_type(o, t);
}

/* A DIR object: run's per-direction figures. */
static bool dir_ok(json_object *d)
{
	return is(d, json_type_object) && get(d, "ios") && get(d, "bytes") && get(d, "iops") &&
	       get(d, "bytes_per_second") && json_object_object_get_ex(d, "lat_ns", NULL);
}

static bool cell_ok(json_object *c)
{
	return is(get(c, "label"), json_type_string) && is(get(c, "rw"), json_type_string) &&
	       is(get(c, "read_pct"), json_type_int) && is(get(c, "bs"), json_type_int) &&
	       is(get(c, "iodepth"), json_type_int) && is(get(c, "numjobs"), json_type_int) &&
	       dir_ok(get(c, "read")) && dir_ok(get(c, "write"));
}

static bool steady_ok(json_object *s, size_t rounds)
{
	static const char *const states[] = { "steady", "left steady state",
					      "steady state not reached", "not yet steady" };
	const char *state = json_object_get_string(get(s, "state"));
	json_object *w = get(s, "window");
	bool known = false;

	for (size_t i = 0; state && i < 4; i++)
		known |= !strcmp(state, states[i]);
	return known && is(get(s, "rounds"), json_type_array) &&
	       json_object_array_length(get(s, "rounds")) == rounds &&
	       (!w || (is(get(w, "first"), json_type_int) && get(w, "last") && get(w, "mean") &&
		       get(w, "min") && get(w, "max") && get(w, "slope") && get(w, "intercept") &&
		       get(w, "range_ok") && get(w, "slope_ok"))) &&
	       json_object_object_get_ex(s, "left_round", NULL);
}

TEST_F_TIMEOUT(dev, quick_end_to_end, 180)
{
	static const char *const steps[] = { "iops", "throughput", "latency" };
	static const int nr_cells[] = { 6, 2, 2 };
	struct run_result r;
	json_object *root, *file, *arr;
	struct timespec t0, t1;
	char *text;

	PREP_READY(&self->p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", "quick", "--no-status", "-o", "json",
				 "--state", self->state, "--output", self->out, self->s.dev, NULL));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	TH_LOG("quick took %.1f s", (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("exit %d, stderr: %s", r.status, r.err);
	EXPECT_STREQ("", r.err);
	/* The exit status is the verdict. */
	EXPECT_EQ(strcmp(json_str(root, "verdict"), "pass") ? 1 : 0, r.status);
	EXPECT_STREQ("pass", json_str(root, "verdict")) TH_LOG("%s", json_str(root, "verdict_note"));
	EXPECT_EQ(1, json_int(root, "schema_version", 0));
	EXPECT_STREQ("qualify", json_str(root, "command"));
	EXPECT_STREQ("blkqual", json_str(root, "tool.name"));
	EXPECT_NE(NULL, json_str(root, "tool.version"));
	EXPECT_EQ(20, strlen(json_str(root, "started")));
	EXPECT_LT(0, json_object_get_double(get(root, "runtime_s")));
	EXPECT_NE(NULL, json_str(root, "host.kernel"));
	EXPECT_NE(NULL, json_str(root, "host.hostname"));
	EXPECT_STREQ("quick", json_str(root, "profile.name"));
	EXPECT_NE(NULL, strstr(json_str(root, "profile.text"), "[step:iops]"));
	EXPECT_NE(NULL, strstr(json_str(root, "profile.path"), "quick.ini"));
	EXPECT_STREQ(self->s.dev, json_str(root, "device.path"));
	EXPECT_EQ(SCRATCH_SIZE, json_int(root, "device.size_bytes", 0));
	EXPECT_LT(0, json_int(root, "device.logical_block_size", 0));
	EXPECT_NE(NULL, json_str(root, "device.model"));
	/* Loop devices discard: the backing file's blocks are punched. */
	EXPECT_STREQ("blkdiscard", json_str(root, "purge.method")) TH_LOG("%s",
		json_str(root, "purge.note"));
	EXPECT_TRUE(json_object_get_boolean(get(get(root, "purge"), "done")));
	EXPECT_EQ(128LL << 20, json_int(root, "precondition.bytes", 0));
	EXPECT_LT(0, json_object_get_double(get(get(root, "precondition"), "bytes_per_second")));
	arr = get(root, "steps");
	ASSERT_TRUE(is(arr, json_type_array));
	ASSERT_EQ(3, json_object_array_length(arr));
	for (int s = 0; s < 3; s++) {
		json_object *st = json_object_array_get_idx(arr, s), *rounds = get(st, "rounds");
		json_object *cells = get(st, "cells"), *tracked = get(st, "tracked");
		size_t n = json_object_array_length(rounds);

		EXPECT_STREQ(steps[s], json_str(st, "name"));
		EXPECT_STREQ(steps[s], json_str(st, "kind"));
		ASSERT_TRUE(is(rounds, json_type_array));
		/* At least a window's worth, at most max_rounds. */
		EXPECT_LE(3, n);
		EXPECT_GE(5, n);
		EXPECT_EQ(1, json_int(json_object_array_get_idx(rounds, 0), "round", 0));
		EXPECT_EQ((long long)n, json_int(json_object_array_get_idx(rounds, n - 1), "round", 0));
		for (size_t k = 0; k < n; k++) {
			json_object *rc = get(json_object_array_get_idx(rounds, k), "cells");

			EXPECT_EQ(nr_cells[s], json_object_array_length(rc));
			EXPECT_TRUE(cell_ok(json_object_array_get_idx(rc, 0)));
		}
		ASSERT_EQ(nr_cells[s], json_object_array_length(cells));
		for (int k = 0; k < nr_cells[s]; k++) {
			EXPECT_TRUE(cell_ok(json_object_array_get_idx(cells, k)))
				TH_LOG("step %s cell %d", steps[s], k);
		}
		/* The write direction is tracked in every step of quick. */
		EXPECT_TRUE(is(get(tracked, "write"), json_type_string));
		EXPECT_TRUE(steady_ok(get(get(st, "steady"), "write"), n))
			TH_LOG("%s", json_object_to_json_string(get(get(st, "steady"), "write")));
		if (s == 0) {
			EXPECT_TRUE(json_object_object_get_ex(tracked, "read", NULL));
			EXPECT_EQ(NULL, get(tracked, "read"));
			EXPECT_STREQ("0/100 4k write IOPS", json_str(tracked, "write"));
			EXPECT_STREQ("0/100 4k", json_str(json_object_array_get_idx(cells, 5),
							   "label"));
			EXPECT_STREQ("randrw", json_str(json_object_array_get_idx(cells, 2), "rw"));
			EXPECT_EQ(65, json_int(json_object_array_get_idx(cells, 2), "read_pct", 0));
			EXPECT_LT(100, json_int(json_object_array_get_idx(cells, 5), "write.ios", 0));
			EXPECT_LT(0, json_int(json_object_array_get_idx(cells, 1),
					      "read.lat_ns.percentiles.99", 0));
		} else {
			EXPECT_TRUE(steady_ok(get(get(st, "steady"), "read"), n));
		}
	}
	arr = get(root, "criteria");
	ASSERT_EQ(5, json_object_array_length(arr));
	for (int i = 0; i < 5; i++) {
		json_object *crit = json_object_array_get_idx(arr, i);

		EXPECT_TRUE(is(get(crit, "text"), json_type_string));
		EXPECT_TRUE(is(get(crit, "metric"), json_type_string));
		EXPECT_TRUE(is(get(crit, "measured"), json_type_double) ||
			    is(get(crit, "measured"), json_type_int));
		EXPECT_TRUE(is(get(crit, "unit"), json_type_string));
		EXPECT_TRUE(is(get(crit, "op"), json_type_string));
		EXPECT_TRUE(get(crit, "bound") != NULL);
		EXPECT_TRUE(is(get(crit, "pass"), json_type_boolean));
		EXPECT_TRUE(is(get(crit, "note"), json_type_string));
		EXPECT_TRUE(json_object_get_boolean(get(crit, "pass"))) TH_LOG("%s: %s (%s)",
			json_str(crit, "text"), json_object_to_json_string(get(crit, "measured")),
			json_str(crit, "note"));
	}
	EXPECT_STREQ("4k randread IOPS >= 1000", json_str(json_object_array_get_idx(arr, 0), "text"));
	EXPECT_STREQ("iops", json_str(json_object_array_get_idx(arr, 0), "unit"));
	EXPECT_STREQ(">=", json_str(json_object_array_get_idx(arr, 0), "op"));
	EXPECT_STREQ("ns", json_str(json_object_array_get_idx(arr, 2), "unit"));
	EXPECT_TRUE(json_object_object_get_ex(root, "verify", NULL));
	EXPECT_EQ(NULL, get(root, "verify"));
	/* --output holds the same document. */
	text = slurp(self->out);
	ASSERT_NE(NULL, text);
	file = json_tokener_parse(text);
	ASSERT_NE(NULL, file);
	EXPECT_STREQ(json_str(root, "verdict"), json_str(file, "verdict"));
	json_object_put(file);
	free(text);
	json_object_put(root);
	run_result_free(&r);
}

/* Rounds of the first step in a state file, or -1 when it is not there (yet). */
static int state_rounds(const char *path)
{
	json_object *doc = json_object_from_file(path), *steps, *rounds;
	int n = -1;

	if (doc && json_object_object_get_ex(doc, "steps", &steps) &&
	    json_object_object_get_ex(json_object_array_get_idx(steps, 0), "rounds", &rounds))
		n = (int)json_object_array_length(rounds);
	json_object_put(doc);
	return n;
}

TEST_F(dev, interrupted_then_resumed)
{
	char log[340];
	const char *argv[] = { blkqual_path(), "qualify", "--profile", self->tiny, "--no-status",
			       "-o", "json", "--state", self->state, "--output", self->out,
			       self->s.dev, NULL };
	json_object *partial, *final, *r1, *f1;
	struct run_result r;
	int status, tries;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	snprintf(log, sizeof(log), "%s/int.log", self->s.dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	/* SIGINT once the first round is in the state file. */
	for (tries = 0; tries < 200 && state_rounds(self->state) < 1; tries++)
		usleep(20000);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_LT(0, state_rounds(self->state)) TH_LOG("no round in the state file");
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(128 + SIGINT, WEXITSTATUS(status));
	text = slurp(self->out);
	ASSERT_NE(NULL, text) TH_LOG("no partial results after SIGINT");
	partial = json_tokener_parse(text);
	free(text);
	ASSERT_NE(NULL, partial);
	EXPECT_STREQ("incomplete", json_str(partial, "verdict"));
	EXPECT_TRUE(json_object_get_boolean(get(partial, "interrupted")));
	r1 = json_object_array_get_idx(get(json_object_array_get_idx(get(partial, "steps"), 0),
					   "rounds"), 0);
	ASSERT_NE(NULL, r1);
	EXPECT_GT(4, json_object_array_length(get(json_object_array_get_idx(
		get(partial, "steps"), 0), "rounds")));

	/* Another profile, or another device, is refused. */
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--resume", self->state, "--profile", "quick",
				 "--no-status", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "another profile")) TH_LOG("%s", r.err);
	run_result_free(&r);

	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--resume", self->state, "--no-status", "-o",
				 "json", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	final = json_tokener_parse(r.out);
	ASSERT_NE(NULL, final) TH_LOG("%s", r.err);
	EXPECT_STREQ("pass", json_str(final, "verdict"));
	EXPECT_FALSE(json_object_get_boolean(get(final, "interrupted")));
	EXPECT_STREQ(json_str(partial, "started"), json_str(final, "started"));
	{
		json_object *rounds = get(json_object_array_get_idx(get(final, "steps"), 0),
					  "rounds");

		ASSERT_EQ(4, json_object_array_length(rounds));
		for (int i = 0; i < 4; i++) {
			EXPECT_EQ(i + 1, json_int(json_object_array_get_idx(rounds, i), "round", 0));
		}
		/* Round 1 is the interrupted run's, not a new one. */
		f1 = json_object_array_get_idx(rounds, 0);
		EXPECT_EQ(json_int(json_object_array_get_idx(get(r1, "cells"), 0), "read.ios", -1),
			  json_int(json_object_array_get_idx(get(f1, "cells"), 0), "read.ios", -2));
		EXPECT_EQ(4, json_object_array_length(get(get(get(json_object_array_get_idx(
			get(final, "steps"), 0), "steady"), "read"), "rounds")));
	}
	/* The results file named at the start is written again. */
	text = slurp(self->out);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\"verdict\": \"pass\"")) TH_LOG("%.300s", text);
	free(text);
	json_object_put(partial);
	json_object_put(final);
	run_result_free(&r);
	unlink(log);
}

TEST_F(dev, guard_refuses_filesystem)
{
	char force[96];
	uint64_t before, after;
	struct run_result r;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s.dev));
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", self->tiny, "--no-status",
				 "--state", self->state, self->s.dev, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ext4"));
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path(self->s.dev, &after));
	EXPECT_EQ(before, after);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", self->tiny, "--no-status", force,
				 "--state", self->state, "-o", "json", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "\"verdict\": \"pass\""));
	run_result_free(&r);
}

/* verify= in a profile: every job checks what it reads; nothing is bad. */
TEST_F(dev, verify_in_profile)
{
	char path[340];
	struct run_result r;
	json_object *root;
	FILE *f;

	PREP_READY(&self->p);
	snprintf(path, sizeof(path), "%s/verify.ini", self->s.dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("[profile]\npurge=none\nprecondition=1x\ncapacity_fraction=0.125\n"
	      "round_time=300ms\nmax_rounds=2\nwindow=2\nrequire_steady=no\nverify=crc32c\n"
	      "[step:s]\nkind=custom\nrw=random\nmixes=100/0,50/50\nbs=16k,4k\niodepth=4\n"
	      "tracked=100/0 4k read iops\n", f);
	fclose(f);
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", path, "--no-status", "--state",
				 self->state, "-o", "json", self->s.dev, NULL));
	unlink(path);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %s", r.status, r.err);
	EXPECT_EQ(0, r.status) TH_LOG("%s", json_str(root, "verdict_note"));
	EXPECT_STREQ("crc32c", json_str(root, "verify.method"));
	EXPECT_EQ(4096, json_int(root, "verify.block_size", 0));
	EXPECT_LT(1000, json_int(root, "verify.blocks_checked", 0));
	EXPECT_EQ(0, json_int(root, "verify.bad_blocks", -1));
	EXPECT_EQ(0, json_object_array_length(get(get(root, "verify"), "first_bad")));
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, bad_input_one_line_exit_2)
{
	char bad[340];
	struct run_result r;
	FILE *f;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", "no-such-profile", self->s.dev, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "no such profile")) TH_LOG("%s", r.err);
	run_result_free(&r);

	snprintf(bad, sizeof(bad), "%s/bad.ini", self->s.dir);
	f = fopen(bad, "w");
	ASSERT_NE(NULL, f);
	fputs("[step:a]\nkind=iops\n[criteria]\n4k randread IOPS >= 5 ms\n", f);
	fclose(f);
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", bad, self->s.dev, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "bad.ini:4: ")) TH_LOG("%s", r.err);
	run_result_free(&r);
	unlink(bad);

	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", "quick", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	run_result_free(&r);

	/* --plan reads the device, writes nothing and says how long it takes. */
	ASSERT_EQ(0, run_blkqual(&r, "qualify", "--profile", "quick", "--plan", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "expected duration: 30s to 50s")) TH_LOG("%s", r.out);
	EXPECT_NE(0, access(self->state, F_OK));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
