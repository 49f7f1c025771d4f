// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_patterns_test.c - verify= with the patterns that overwrite blocks
 * or reach past the region: loops, strided zones, rw=randwrite:N,
 * percentage_random, bs_is_seq_rand, zoned distributions
 *
 * - parsing: each is accepted with verify; bs_is_seq_rand verifies in the
 *   smaller of its two sizes;
 * - side by side with fio 3.33 on a scratch loop device full of foreign
 *   data, where fio's own verify works: the same writes and reads (each
 *   loop reads back its own writes; a last whole block past the region is
 *   written and read; strided zones run on to the device's end);
 * - where fio 3.33's own verify fails (it reads an overwritten block's
 *   older write back): blkqual reads each block it wrote exactly once, for
 *   its last write, as its own write_iolog shows, and finds no bad block;
 * - a block overwritten behind blkqual's back after a randwrite:4 job is
 *   found at its offset by verify_only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_verify.h"
#include "job/jobopt.h"

#include "helpers/fio.h"
#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DEV_SIZE (32LL << 20)
#define VB 16384
#define NVB (DEV_SIZE / VB)
#define MAX_OPTS 6

/* ---- parsing ------------------------------------------------------------ */

TEST(accepted_with_verify)
{
	static const char *const opts[][3] = {
		{ "--rw=randwrite:4" },
		{ "--rw=randwrite:4", "--rw_sequencer=identical" },
		{ "--rw=randwrite", "--percentage_random=50" },
		{ "--rw=randwrite", "--random_distribution=zoned:60/10:40/90" },
		{ "--rw=randwrite", "--random_distribution=zoned_abs:60/1m:40/7m" },
		{ "--rw=write", "--zonemode=strided", "--zonesize=64k" },
		{ "--rw=write", "--loops=3" },
	};
	struct bq_parse_error err;
	struct bq_jobset set = { 0 };

	for (size_t k = 0; k < ARRAY_SIZE(opts); k++) {
		EXPECT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--bs=16k",
				     "--verify=crc32c", opts[k][0], opts[k][1] ? opts[k][1] : NULL,
				     opts[k][1] ? opts[k][2] : NULL, NULL))
			TH_LOG("%s: %s", opts[k][0], err.msg);
		bq_jobset_free(&set);
	}
	/* A write takes the sequential or the random size: verified in the smaller. */
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=randwrite",
			     "--bs=16k,64k", "--bs_is_seq_rand=1", "--percentage_random=50",
			     "--verify=crc32c", NULL)) TH_LOG("%s", err.msg);
	EXPECT_EQ(16384u, bq_job_verify_block(&set.jobs[0]));
	bq_jobset_free(&set);
}

/* ---- running ------------------------------------------------------------ */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
	char log[320];
	char log_opt[340];
	char state_opt[340];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
	snprintf(self->log, sizeof(self->log), "%s/w.iolog", self->s.dir);
	snprintf(self->log_opt, sizeof(self->log_opt), "--write_iolog=%s", self->log);
	snprintf(self->state_opt, sizeof(self->state_opt), "--verify-state=%s/v.state",
		 self->s.dir);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/* What one run did: writes, reads (the read-back's among them), blocks judged, bad ones. */
struct counts {
	long long writes, reads, checked, bad, error;
};

static int bq_counts(const char *const *args, struct counts *c)
{
	struct run_result r;
	json_object *root = blkqual_run_json(&r, args), *j;

	j = root ? json_object_array_get_idx(json_object_object_get(root, "jobs"), 0) : NULL;
	if (j) {
		c->writes = json_int(j, "total.write.ios", -1);
		c->reads = json_int(j, "total.read.ios", -1) +
			   json_int(j, "verify.phase.read.ios", 0);
		c->checked = json_int(j, "verify.blocks_checked", -1);
		c->bad = json_int(j, "verify.bad_blocks", -1);
		c->error = r.status;
	}
	json_object_put(root);
	run_result_free(&r);
	return j ? 0 : -1;
}

static int fio_counts(const char *const *args, struct counts *c)
{
	int status;
	json_object *root = fio_run_json_status(args, &status), *j;

	j = root ? json_object_array_get_idx(json_object_object_get(root, "jobs"), 0) : NULL;
	if (j) {
		c->writes = json_int(j, "write.total_ios", -1);
		c->reads = json_int(j, "read.total_ios", -1);
		c->error = json_int(j, "error", -1);
	}
	json_object_put(root);
	return j ? 0 : -1;
}

/* The job's arguments: common ones, then @opt, NULL-ended, in @argv from @at. */
static void add_opts(const char **argv, int at, const char *const *opt, char *what, size_t len)
{
	what[0] = '\0';
	for (int i = 0; i < MAX_OPTS && opt[i]; i++) {
		argv[at++] = opt[i];
		strncat(what, opt[i], len - strlen(what) - 2);
		strcat(what, " ");
	}
	argv[at] = NULL;
}

#define FIO_ARGS(self) "--name=a", (self)->filename, "--ioengine=psync", "--direct=1", \
		       "--bs=16k", "--verify=crc32c", "--verify_state_save=0"
#define FIO_NARGS 7
#define BQ_ARGS(self) "--name=a", (self)->filename, "--ioengine=psync", "--direct=1", \
		      "--bs=16k", "--verify=crc32c"
#define BQ_NARGS 6

/*
 * fio's counts on these jobs (16 KiB blocks): 512 writes a loop, each
 * read back; 8200k is 512.5 blocks, so a loop writes 513 with room past
 * it, and three end together at 3 x 8200k (1538); 64k zones every 1m of
 * the 32 MiB device are 32 zones, 128 blocks, each written 4 times.
 */
static const struct side {
	const char *opt[MAX_OPTS];
	long long writes, reads;
} same[] = {
	{ { "--rw=randwrite", "--size=8m", "--loops=3" }, 1536, 1536 },
	{ { "--rw=write", "--size=8200k", "--loops=3" }, 1538, 1538 },
	{ { "--rw=write", "--zonemode=strided", "--zonesize=64k", "--zonerange=1m",
	    "--size=8m" }, 512, 128 },
};

TEST_F_TIMEOUT(dev, same_counts_as_fio, 300)
{
	bool have_fio = !need_program("fio");

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(same); k++) {
		const char *argv[FIO_NARGS + MAX_OPTS + 1] = { FIO_ARGS(self) };
		const char *bargs[BQ_NARGS + MAX_OPTS + 1] = { BQ_ARGS(self) };
		struct counts b = { 0 }, f = { 0 };
		char what[256];

		add_opts(argv, FIO_NARGS, same[k].opt, what, sizeof(what));
		add_opts(bargs, BQ_NARGS, same[k].opt, what, sizeof(what));
		/* Foreign data everywhere: a block read back unwritten is a bad one. */
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 31));
		ASSERT_EQ(0, bq_counts(bargs, &b)) TH_LOG("blkqual %s", what);
		EXPECT_EQ(0, b.error) TH_LOG("%s", what);
		EXPECT_EQ(0, b.bad) TH_LOG("%s", what);
		EXPECT_EQ(same[k].writes, b.writes) TH_LOG("%s", what);
		EXPECT_EQ(same[k].reads, b.reads) TH_LOG("%s", what);
		EXPECT_EQ(b.reads, b.checked) TH_LOG("%s", what);
		if (!have_fio)
			continue;
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 31));
		ASSERT_EQ(0, fio_counts(argv, &f)) TH_LOG("fio %s", what);
		EXPECT_EQ(0, f.error) TH_LOG("fio %s: its verify failed", what);
		EXPECT_EQ(same[k].writes, f.writes) TH_LOG("fio %s", what);
		EXPECT_EQ(same[k].reads, f.reads) TH_LOG("fio %s", what);
	}
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual's counts were not compared with fio's");
}

/* A write of a v3 iolog (time, file, action, offset, length): its offset and length. */
static bool iolog_write(const char *line, const char *dev, unsigned long long *off,
			unsigned long long *len)
{
	char file[256], act[32];
	unsigned long long t;

	return sscanf(line, "%llu %255s %31s %llu %llu", &t, file, act, off, len) == 5 &&
	       !strcmp(file, dev) && !strcmp(act, "write");
}

/* Verify blocks that the writes of the iolog at @path cover; -1 if unreadable. */
static long long written_blocks(const char *path, const char *dev)
{
	static bool seen[NVB];
	char line[512];
	unsigned long long off, len;
	long long n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	memset(seen, 0, sizeof(seen));
	while (fgets(line, sizeof(line), f)) {
		if (!iolog_write(line, dev, &off, &len))
			continue;
		for (unsigned long long b = off / VB; b < (off + len + VB - 1) / VB && b < NVB; b++)
			if (!seen[b]) {
				seen[b] = true;
				n++;
			}
	}
	fclose(f);
	return n;
}

/* fio 3.33's own verify fails on most of these; each block written is judged once here. */
static const struct opts {
	const char *opt[MAX_OPTS];
} overwrite[] = {
	{ { "--rw=randwrite:4", "--size=8m" } },
	{ { "--rw=randwrite:4", "--rw_sequencer=identical", "--size=8m" } },
	{ { "--rw=randwrite", "--percentage_random=50", "--size=8m" } },
	{ { "--rw=randwrite", "--zonemode=strided", "--zonesize=64k", "--zonerange=1m",
	    "--size=8m" } },
	{ { "--rw=randwrite", "--random_distribution=zoned:60/10:40/90", "--size=8m" } },
	{ { "--rw=randwrite", "--bs=16k,64k", "--bs_is_seq_rand=1", "--percentage_random=50",
	    "--size=8m" } },
};

TEST_F_TIMEOUT(dev, each_block_once_for_its_last_write, 300)
{
	bool have_fio = !need_program("fio");

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(overwrite); k++) {
		const char *argv[FIO_NARGS + MAX_OPTS + 1] = { FIO_ARGS(self) };
		const char *bargs[BQ_NARGS + MAX_OPTS + 2] = { BQ_ARGS(self), self->log_opt };
		struct counts b = { 0 }, f = { 0 };
		long long unique;
		char what[256];

		add_opts(argv, FIO_NARGS, overwrite[k].opt, what, sizeof(what));
		add_opts(bargs, BQ_NARGS + 1, overwrite[k].opt, what, sizeof(what));
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 37));
		unlink(self->log);
		ASSERT_EQ(0, bq_counts(bargs, &b)) TH_LOG("blkqual %s", what);
		unique = written_blocks(self->log, self->s.dev);
		TH_LOG("%s: %lld writes over %lld blocks, %lld judged", what, b.writes, unique,
		       b.checked);
		EXPECT_EQ(0, b.error) TH_LOG("%s", what);
		EXPECT_EQ(0, b.bad) TH_LOG("%s", what);
		EXPECT_LT(0, unique) TH_LOG("%s", what);
		EXPECT_EQ(unique, b.checked) TH_LOG("%s", what);
		if (!have_fio)
			continue;
		ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, (unsigned int)k * 37));
		if (!fio_counts(argv, &f))
			TH_LOG("fio %s: %lld writes, %lld reads, error %lld", what, f.writes,
			       f.reads, f.error);
	}
}

/* The state knows each block's last write: an overwritten block is found where it is. */
TEST_F_TIMEOUT(dev, overwritten_block_found_by_verify_only, 120)
{
	const char *w[] = { "--name=w", self->filename, "--ioengine=psync", "--direct=1",
			    "--bs=16k", "--verify=crc32c", "--rw=randwrite:4", "--size=8m",
			    self->state_opt, self->log_opt, NULL };
	const char *ro[] = { blkqual_path(), "run", "--no-status", "-o", "json", "--name=ro", self->filename,
			     "--ioengine=psync", "--direct=1", "--bs=16k", "--verify=crc32c",
			     "--rw=randwrite:4", "--size=8m", "--verify_only", self->state_opt,
			     NULL };
	unsigned long long off = 0, len, last = 0;
	char line[512];
	struct run_result r;
	struct counts b = { 0 };
	json_object *root, *v;
	FILE *f;

	PREP_READY(&self->p);
	ASSERT_EQ(0, scratch_fill_foreign(&self->s, DEV_SIZE, 3));
	ASSERT_EQ(0, bq_counts(w, &b));
	ASSERT_EQ(0, b.bad);
	/* The last block written. */
	f = fopen(self->log, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (iolog_write(line, self->s.dev, &off, &len))
			last = off;
	fclose(f);
	ASSERT_LT(0ULL, last);
	ASSERT_EQ(0, scratch_plant(&self->s, (off_t)last, VB, 9));
	ASSERT_EQ(0, run_argv(ro, &r));
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	EXPECT_EQ(1, r.status) TH_LOG("%.300s", r.err);
	v = json_object_object_get(json_object_array_get_idx(json_object_object_get(root, "jobs"),
							     0), "verify");
	EXPECT_EQ(1, json_int(v, "bad_blocks", -1));
	EXPECT_EQ((long long)last, json_int(json_object_array_get_idx(
		json_object_object_get(v, "first_bad"), 0), "offset", -1));
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
