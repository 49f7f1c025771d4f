// SPDX-License-Identifier: GPL-2.0-only
/*
 * qualify_driver_test.c - running a qualification through the library,
 * on a scratch loop device
 *
 * What the command builds its status line, round lines and state file
 * on: the callbacks come in order (purge, preconditioning, each cell,
 * each round with its histograms, a save after each piece of work), a
 * stop in the middle of a round drops that round and marks the run
 * interrupted, running again goes on from the next round without purging
 * or preconditioning again, and a failing save ends the run with its
 * error.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_qualify.h"
#include "helpers/scratchdev.h"

/* Never steady (range and slope 0%), so it runs all three rounds. */
static const char profile[] =
	"[profile]\n"
	"purge=none\n"
	"precondition=1x\n"
	"capacity_fraction=0.0625\n"
	"round_time=100ms\n"
	"max_rounds=3\n"
	"window=2\n"
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

/* What the callbacks saw, one word each, and when to misbehave. */
struct seen {
	struct bq_qual *q;
	char log[1024];
	volatile int stop;
	int stop_round;		/* stop as this round's second cell begins; -1 never */
	int fail_saves_after;	/* the save after this many fails; -1 never */
	int saves;
	bool histograms;	/* every round callback found its cells' histograms */
};

static void note(struct seen *sn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct seen *sn, const char *fmt, ...)
{
	size_t used = strlen(sn->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sn->log + used, sizeof(sn->log) - used, fmt, ap);
	va_end(ap);
}

static void at_cb(void *arg, const struct bq_qual_at *at)
{
	struct seen *sn = arg;

	if (at->phase == BQ_QUAL_PURGE)
		note(sn, "purge ");
	else if (at->phase == BQ_QUAL_PRECONDITION)
		note(sn, "precondition ");
	else
		note(sn, "cell%d.%d ", at->round, at->cell);
	if (at->phase == BQ_QUAL_CELL && at->round == sn->stop_round && at->cell == 1)
		sn->stop = SIGINT;
}

static int round_cb(void *arg, int s)
{
	struct seen *sn = arg;
	const struct bq_qstep_run *run = &sn->q->runs[s];
	int n = run->ps->nr_cells;

	note(sn, "round%d ", run->nr_rounds - 1);
	for (int c = 0; c < n; c++)
		for (int d = 0; d < BQ_NR_DIRS; d++)
			sn->histograms &= run->res[(run->nr_rounds - 1) * n + c].d[d].lat.buckets !=
					  NULL;
	return 0;
}

static int save_cb(void *arg)
{
	struct seen *sn = arg;

	note(sn, "save ");
	return sn->saves++ == sn->fail_saves_after ? -ENOSPC : 0;
}

FIXTURE(drv)
{
	struct prep p;
	struct scratch s;
	struct bq_ctx *ctx;
	struct bq_profile prof;
	struct bq_qplan plan;
	struct bq_device dev;
	struct bq_qual q;
	struct bq_pinned_target pin;
	struct seen sn;
	struct bq_qual_opts opts;
	struct bq_parse_error err;
};

FIXTURE_SETUP(drv)
{
	struct bq_parse_error *err = &self->err;
	struct bq_guard_report rep;
	char name[64];
	int ret;

	self->pin.fd = -1;
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
	if (!prep_ok(&self->p))
		return;
	ret = bq_ctx_new(&self->ctx, NULL);
	if (!ret)
		ret = bq_device_resolve(self->ctx, self->s.dev, name, sizeof(name));
	if (!ret)
		ret = bq_device_load(self->ctx, name, &self->dev);
	if (!ret)
		ret = bq_profile_parse_text("driver.ini", profile, &self->prof, err);
	if (!ret)
		ret = bq_qualify_plan(&self->prof, self->dev.size, 512, &self->plan, err);
	if (!ret)
		ret = bq_qual_init(&self->q, &self->prof, &self->plan, self->s.dev, &self->dev);
	if (ret) {
		/* @err stays in the fixture: PREP_READY() prints it. */
		prep_fail(&self->p, err->msg[0] ? err->msg : "loading the device", ret);
		return;
	}
	self->pin.name = self->s.dev;
	self->pin.fd = bq_guard_open(self->ctx, self->s.dev, 0, NULL, &rep);
	if (self->pin.fd < 0) {
		prep_fail(&self->p, "bq_guard_open", self->pin.fd);
		return;
	}
	self->sn = (struct seen){ .q = &self->q, .stop_round = -1, .fail_saves_after = -1,
				  .histograms = true };
	self->opts = (struct bq_qual_opts){
		.pin = &self->pin, .stop = &self->sn.stop, .at = at_cb, .round = round_cb,
		.save = save_cb, .arg = &self->sn,
	};
}

FIXTURE_TEARDOWN(drv)
{
	if (self->pin.fd >= 0)
		close(self->pin.fd);
	bq_qual_free(&self->q);
	bq_qplan_free(&self->plan);
	bq_profile_free(&self->prof);
	bq_device_release(&self->dev);
	if (self->ctx)
		bq_ctx_free(self->ctx);
	scratch_destroy(&self->s);
}

TEST_F(drv, callbacks_in_order)
{
	struct bq_parse_error err;

	PREP_READY(&self->p);
	ASSERT_EQ(0, bq_qual_check(&self->q, &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, bq_qual_run(self->ctx, &self->q, &self->opts, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_STREQ("purge save precondition save "
		     "cell0.0 cell0.1 round0 save "
		     "cell1.0 cell1.1 round1 save "
		     "cell2.0 cell2.1 round2 save ", self->sn.log);
	EXPECT_TRUE(self->sn.histograms);
	EXPECT_FALSE(self->q.interrupted);
	EXPECT_TRUE(self->q.purge_tried);
	EXPECT_EQ(BQ_PURGE_NONE, self->q.purge.method);
	EXPECT_TRUE(self->q.precond_done);
	EXPECT_LT(0, self->q.precond_ns);
	EXPECT_EQ(3, self->q.runs[0].nr_rounds);
	EXPECT_TRUE(bq_qstep_finished(&self->q.runs[0]));
	EXPECT_EQ(0, self->q.errors);
	EXPECT_LT(0, self->q.runs[0].track[BQ_READ][2]);
	ASSERT_EQ(0, bq_qual_judge(&self->q));
	EXPECT_EQ(BQ_QUAL_PASS, self->q.verdict);
}

TEST_F(drv, stopped_then_resumed)
{
	struct bq_parse_error err;

	PREP_READY(&self->p);
	self->sn.stop_round = 1;
	EXPECT_EQ(-EINTR, bq_qual_run(self->ctx, &self->q, &self->opts, &err));
	EXPECT_STREQ("", err.msg);
	EXPECT_TRUE(self->q.interrupted);
	/* The second round was cut short: it does not count, nor is it saved. */
	EXPECT_STREQ("purge save precondition save cell0.0 cell0.1 round0 save "
		     "cell1.0 cell1.1 ", self->sn.log);
	EXPECT_EQ(1, self->q.runs[0].nr_rounds);

	/* Again: no purge, no preconditioning, on from the second round. */
	self->sn.stop = 0;
	self->sn.stop_round = -1;
	self->sn.log[0] = '\0';
	ASSERT_EQ(0, bq_qual_run(self->ctx, &self->q, &self->opts, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	EXPECT_STREQ("cell1.0 cell1.1 round1 save cell2.0 cell2.1 round2 save ", self->sn.log);
	EXPECT_FALSE(self->q.interrupted);
	EXPECT_EQ(3, self->q.runs[0].nr_rounds);
}

TEST_F(drv, failed_save_ends_the_run)
{
	struct bq_parse_error err;

	PREP_READY(&self->p);
	/* The purge's save works, the preconditioning's does not. */
	self->sn.fail_saves_after = 1;
	EXPECT_EQ(-ENOSPC, bq_qual_run(self->ctx, &self->q, &self->opts, &err));
	/* The callback said why; the library adds nothing. */
	EXPECT_STREQ("", err.msg);
	EXPECT_FALSE(self->q.interrupted);
	EXPECT_STREQ("purge save precondition save ", self->sn.log);
	EXPECT_EQ(0, self->q.runs[0].nr_rounds);
}

TEST_HARNESS_MAIN
