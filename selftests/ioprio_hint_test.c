// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioprio_hint_test.c - I/O priority hints (fio's priohint, cmdprio_hint
 * and cmdprio_bssplit's fifth field): the values parse as fio's do, and
 * the hint reaches the kernel.  The outside truth is the block layer's
 * own block_rq_issue trace event, which prints each request's class, hint
 * and level: on a loop device, traced in a tracefs instance of the
 * test's own, every request carries the value blkqual's log_prio log
 * gives its I/O, in the same numbers.  A kernel that takes no hints
 * fails the job in one line (guest_run_test; SKIPs on kernels with hints).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "job/jobopt.h"

#include "helpers/attr.h"
#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/tree.h"

#define TRACEFS "/sys/kernel/tracing"
#define MAX_PRIOS 16

/* ---- parsing -------------------------------------------------------------- */

TEST(hints_parse)
{
	const char *const bss[] = { "ioengine=io_uring",
				    "cmdprio_bssplit=1M/10/2/0/1:1M/30/2/0/1023:2M/90/2/0/0",
				    NULL };
	const char *const hint[] = { "ioengine=libaio", "cmdprio_percentage=10",
				     "cmdprio_hint=3,1023", "priohint=1023", NULL };
	struct bq_parse_error err;
	struct bq_job j;

	ASSERT_EQ(0, job_of_opts(bss, &j, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(3, j.nr_cmdprio_bss[BQ_READ]);
	EXPECT_EQ(1, j.cmdprio_bss[BQ_READ][0].hint);
	EXPECT_EQ(1023, j.cmdprio_bss[BQ_READ][1].hint);
	EXPECT_EQ(0, j.cmdprio_bss[BQ_READ][2].hint);
	EXPECT_TRUE(j.cmdprio_bss[BQ_READ][0].own);
	ASSERT_EQ(0, job_of_opts(hint, &j, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(3, j.cmdprio_hint[BQ_READ]);
	EXPECT_EQ(1023, j.cmdprio_hint[BQ_WRITE]);
	EXPECT_EQ(1023, j.ioprio_hint);
	/* priohint alone has the thread set its priority, as in fio */
	EXPECT_TRUE(j.ioprio_set);
}

TEST(hints_refused)
{
	static const char *const bad[][2] = {
		{ "--cmdprio_bssplit=4k/10/2/0/1024", "priority hint (0 to 1023)" },
		{ "--cmdprio_bssplit=4k/10/2/0/1/2", "BS/PERCENT/CLASS/LEVEL/HINT" },
		{ "--cmdprio_bssplit=4k/10/2/0/x", "priority hint" },
		{ "--cmdprio_hint=1024", "cmdprio_hint" },
		{ "--cmdprio_hint=1,2,3", "cmdprio_hint" },
		{ "--priohint=1024", "priohint" },
		{ "--priohint=-1", "priohint" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r;

		ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", "--ioengine=null",
					 "--size=64k", "--name=one", bad[i][0], NULL));
		EXPECT_EQ(2, r.status) TH_LOG("%s was not refused", bad[i][0]);
		EXPECT_NE(NULL, r.err && strstr(r.err, bad[i][1]) ? r.err : NULL)
			TH_LOG("%s: %.200s", bad[i][0], r.err ? r.err : "");
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s: one line", bad[i][0]);
		run_result_free(&r);
	}
}

/* ---- the kernel's view ----------------------------------------------------- */

/* Whether this kernel takes a best-effort priority with a hint (checked by itself). */
static bool kernel_takes_hints(void)
{
	pid_t pid = fork();
	int st;

	/* In a child, so that the test's own priority stays. */
	if (!pid)
		_exit(syscall(SYS_ioprio_set, 1, 0, 2 << 13 | 1 << 3) ? 1 : 0);
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
}

struct prio_count {
	unsigned int val;
	long long n;		/* bytes */
};

static void count_prio(struct prio_count *c, int *nr, unsigned int val, long long bytes)
{
	int i;

	for (i = 0; i < *nr && c[i].val != val; i++)
		;
	if (i == *nr) {
		if (*nr == MAX_PRIOS)
			return;
		c[(*nr)++] = (struct prio_count){ .val = val };
	}
	c[i].n += bytes;
}

static long long count_of(const struct prio_count *c, int nr, unsigned int val)
{
	for (int i = 0; i < nr; i++)
		if (c[i].val == val)
			return c[i].n;
	return 0;
}

/*
 * The trace's bytes by ioprio value: "block_rq_issue: 7,1 RA 4096 () 8 + 8
 * be,5,3 [bq:h.0]".  Bytes, not requests, since the block layer may
 * merge two adjacent requests of the same priority.
 */
static int read_trace(const char *path, struct prio_count *c, int *nr)
{
	static const char *const classes[] = { "none", "rt", "be", "idle" };
	char line[512], cls[16];
	unsigned int hint, level, bytes;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *end = strrchr(line, '['), *p = strstr(line, "block_rq_issue: ");
		unsigned int k;

		if (line[0] == '#' || !end || end == line || !p ||
		    sscanf(p + strlen("block_rq_issue: "), "%*u,%*u %*s %u", &bytes) != 1)
			continue;
		*--end = '\0';
		p = strrchr(line, ' ');
		if (!p || sscanf(p + 1, "%15[a-z],%u,%u", cls, &hint, &level) != 3)
			continue;
		for (k = 0; k < 4 && strcmp(cls, classes[k]); k++)
			;
		count_prio(c, nr, k << 13 | hint << 3 | level, bytes);
	}
	fclose(f);
	return 0;
}

/* blkqual's log_prio latency log: bytes by ioprio value (its fifth column, in hex). */
static int read_log(const char *path, struct prio_count *c, int *nr)
{
	unsigned long long t, v, dir, bs;
	unsigned int prio;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu, %llu, %llu, %llu, %x", &t, &v, &dir, &bs, &prio) == 5)
			count_prio(c, nr, prio, (long long)bs);
	fclose(f);
	return 0;
}

FIXTURE(trace)
{
	struct prep p;
	struct scratch s;
	char filename[300];
	char inst[128];		/* our tracefs instance */
	char logs[64];		/* a temp dir for blkqual's logs */
};

FIXTURE_SETUP(trace)
{
	struct stat st;
	char path[256];

	self->inst[0] = self->logs[0] = '\0';
	scratch_init(&self->s);
	if (need_root()) {
		prep_skip(&self->p, need_root());
		return;
	}
	/* The block layer's trace events: tracefs is mounted where systemd would. */
	if (access(TRACEFS "/instances", F_OK) &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL)) {
		prep_skip(&self->p, "no tracefs at " TRACEFS);
		return;
	}
	if (access(TRACEFS "/events/block/block_rq_issue/format", F_OK)) {
		prep_skip(&self->p, "no block_rq_issue trace event");
		return;
	}
	if (!kernel_takes_hints()) {
		prep_skip(&self->p, "this kernel takes no I/O priority hints (the refusal is "
			  "checked by guest_run_test)");
		return;
	}
	scratch_device(&self->p, &self->s, 64 << 20);
	if (!prep_ok(&self->p))
		return;
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
	snprintf(self->logs, sizeof(self->logs), "/tmp/bq-hint-XXXXXX");
	if (!mkdtemp(self->logs)) {
		self->logs[0] = '\0';
		prep_fail(&self->p, "mkdtemp", -errno);
		return;
	}
	snprintf(self->inst, sizeof(self->inst), TRACEFS "/instances/bq-hint-%d", getpid());
	if (mkdir(self->inst, 0700)) {
		self->inst[0] = '\0';
		prep_fail(&self->p, "mkdir tracefs instance", -errno);
		return;
	}
	/*
	 * Only the workers' requests to our loop device (not blkqual's look
	 * at it before the run): the kernel's dev_t is major << 20 | minor.
	 */
	if (stat(self->s.dev, &st)) {
		prep_fail(&self->p, "stat", -errno);
		return;
	}
	snprintf(path, sizeof(path), "%s/events/block/block_rq_issue/filter", self->inst);
	if (attr_write(path, "dev == %u && comm ~ \"bq:*\"",
		       major(st.st_rdev) << 20 | minor(st.st_rdev)))
		prep_fail(&self->p, "trace filter", -EIO);
}

FIXTURE_TEARDOWN(trace)
{
	if (self->inst[0])
		rmdir(self->inst);
	if (self->logs[0])
		tree_remove(self->logs);
	scratch_destroy(&self->s);
}

static int tracing(const char *inst, bool on)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/events/block/block_rq_issue/enable", inst);
	return attr_write(path, "%d", on);
}

/*
 * Runs blkqual with @opts (and a log_prio latency log) under the trace;
 * fills @log and @trace with the I/Os by ioprio value.
 */
static void traced_run(struct __test_metadata *_metadata, FIXTURE_DATA(trace) *self,
		       const char *const *opts, struct prio_count *log, int *nlog,
		       struct prio_count *trace, int *ntrace)
{
	const char *argv[24] = { blkqual_path(), "run", "--no-status", self->filename,
				 "--direct=1", "--name=h" };
	char lat[128], path[256];
	struct run_result r;
	int n = 6;

	snprintf(lat, sizeof(lat), "--write_lat_log=%s/h", self->logs);
	for (int i = 0; opts[i] && n < 20; i++)
		argv[n++] = opts[i];
	argv[n++] = lat;
	argv[n++] = "--log_prio=1";
	argv[n] = NULL;
	ASSERT_EQ(0, tracing(self->inst, true));
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, tracing(self->inst, false));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err ? r.err : "");
	run_result_free(&r);
	*nlog = *ntrace = 0;
	snprintf(path, sizeof(path), "%s/h_lat.1.log", self->logs);
	ASSERT_EQ(0, read_log(path, log, nlog));
	snprintf(path, sizeof(path), "%s/trace", self->inst);
	ASSERT_EQ(0, read_trace(path, trace, ntrace));
	/* The next run's trace starts empty. */
	ASSERT_EQ(0, attr_write(path, "%s", ""));
	for (int i = 0; i < *ntrace; i++)
		TH_LOG("kernel: %lld bytes of ioprio 0x%x (class %u, hint %u, level %u)",
		       trace[i].n, trace[i].val, trace[i].val >> 13, trace[i].val >> 3 & 1023,
		       trace[i].val & 7);
}

/* Every value blkqual's log gives its I/Os with a priority, the kernel saw as much of. */
static void same_prios(struct __test_metadata *_metadata, const struct prio_count *log,
		       int nlog, const struct prio_count *trace, int ntrace)
{
	long long sum_log = 0, sum_trace = 0;

	for (int i = 0; i < nlog; i++) {
		sum_log += log[i].n;
		/* 0: no priority in the command; the kernel shows the thread's */
		if (log[i].val)
			EXPECT_EQ(log[i].n, count_of(trace, ntrace, log[i].val))
				TH_LOG("ioprio 0x%x", log[i].val);
	}
	for (int i = 0; i < ntrace; i++)
		sum_trace += trace[i].n;
	EXPECT_EQ(sum_log, sum_trace);
}

/*
 * cmdprio_bssplit's fifth field, io_uring: half the 4k reads best effort
 * level 3 with hint 5 (0x402b), every 8k read idle (0x6000).
 */
TEST_F_TIMEOUT(trace, bssplit_hint_reaches_the_kernel, 60)
{
	const char *const opts[] = { "--ioengine=io_uring", "--rw=randread", "--size=4m",
				     "--bssplit=4k/50:8k/50", "--iodepth=4",
				     "--cmdprio_bssplit=4k/50/2/3/5:8k/100/3/0/0", NULL };
	struct prio_count log[MAX_PRIOS], trace[MAX_PRIOS];
	int nlog, ntrace;
	long long hinted, plain;

	PREP_READY(&self->p);
	traced_run(_metadata, self, opts, log, &nlog, trace, &ntrace);
	same_prios(_metadata, log, nlog, trace, ntrace);
	hinted = count_of(trace, ntrace, 0x402b);
	/* about half of the 4k reads; the others carry none (the thread's: 0x4004 here) */
	plain = count_of(log, nlog, 0);
	EXPECT_GT(hinted * 100, (hinted + plain) * 35);
	EXPECT_LT(hinted * 100, (hinted + plain) * 65);
	EXPECT_GT(count_of(trace, ntrace, 0x6000), (4 << 20) / 3);
}

/* cmdprio_hint with cmdprio_percentage, libaio: 30% of reads at be/1, hint 9 (0x4049). */
TEST_F_TIMEOUT(trace, cmdprio_hint_reaches_the_kernel, 60)
{
	const char *const opts[] = { "--ioengine=libaio", "--rw=randread", "--bs=4k",
				     "--size=2m", "--iodepth=4", "--cmdprio_percentage=30",
				     "--cmdprio_class=2", "--cmdprio=1", "--cmdprio_hint=9", NULL };
	struct prio_count log[MAX_PRIOS], trace[MAX_PRIOS];
	int nlog, ntrace;
	long long hinted;

	PREP_READY(&self->p);
	traced_run(_metadata, self, opts, log, &nlog, trace, &ntrace);
	same_prios(_metadata, log, nlog, trace, ntrace);
	hinted = count_of(trace, ntrace, 0x4049);
	EXPECT_GT(hinted, (2 << 20) * 20 / 100);
	EXPECT_LT(hinted, (2 << 20) * 40 / 100);
}

/* priohint: the thread's own priority (ioprio_set), so every request carries it. */
TEST_F_TIMEOUT(trace, priohint_reaches_the_kernel, 60)
{
	const char *const opts[] = { "--ioengine=psync", "--rw=randread", "--bs=4k",
				     "--size=1m", "--prio=1", "--priohint=7", NULL };
	struct prio_count log[MAX_PRIOS], trace[MAX_PRIOS];
	int nlog, ntrace;

	PREP_READY(&self->p);
	traced_run(_metadata, self, opts, log, &nlog, trace, &ntrace);
	EXPECT_EQ(1 << 20, count_of(trace, ntrace, 0x4039));
	EXPECT_EQ(1, ntrace);
}

TEST_HARNESS_MAIN
