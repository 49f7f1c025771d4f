// SPDX-License-Identifier: GPL-2.0-only
/*
 * trim_verify_test.c - fio's trim_percentage, trim_backlog,
 * trim_backlog_batch and trim_verify_zero: written blocks trimmed while
 * the job goes on, and read back as zeros (or not at all)
 *
 * - parsing: the four options and what they make again; refused where
 *   fio 3.33 stops on an assertion (rw=write) or blkqual does not go
 *   (verify_backlog, holes), and verify of a trim-only job;
 * - side by side with fio 3.33 on a scratch loop device (its discards
 *   punch holes in the backing file, which read back as zeros): the same
 *   writes, trims and reads for rw=trimwrite and randtrimwrite, with
 *   trim_verify_zero on and off and batches, trim_percentage=100 (fio
 *   draws the trimmed share with its own generator, so only 100 gives
 *   its counts) and verify=trimwrite alone;
 * - trim_percentage=50: the blocks left trimmed on the device are the
 *   trims beyond the workload's, and blkqual verify on the state file
 *   afterwards expects no data in them;
 * - a trimmed block overwritten behind blkqual's back before the
 *   read-back is found at its offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DEV_SIZE (16LL << 20)
#define BS 16384
#define NBLK 256		/* size=4m of 16k blocks */

extern char **environ;

/* ---- parsing ------------------------------------------------------------ */

TEST(trim_options_parse)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 }, again = { 0 };
	struct bq_strv args = { 0 };

	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=trimwrite", "--bs=16k",
			     "--verify=crc32c", "--trim_percentage=30", "--trim_backlog=8",
			     "--trim_backlog_batch=2", "--trim_verify_zero=0", NULL)) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(30u, set.jobs[0].trim_percentage);
	EXPECT_EQ(8u, set.jobs[0].trim_backlog);
	EXPECT_EQ(2u, set.jobs[0].trim_backlog_batch);
	EXPECT_FALSE(set.jobs[0].trim_verify_zero);
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &again, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(30u, again.jobs[0].trim_percentage);
	EXPECT_EQ(8u, again.jobs[0].trim_backlog);
	EXPECT_EQ(2u, again.jobs[0].trim_backlog_batch);
	EXPECT_FALSE(again.jobs[0].trim_verify_zero);
	bq_strv_free(&args);
	bq_jobset_free(&set);
	bq_jobset_free(&again);
	/* fio's default: a trimmed block reads back as zeros */
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", NULL)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(set.jobs[0].trim_verify_zero);
	bq_jobset_free(&set);
	EXPECT_EQ(-EINVAL, jobs_of(&set, &err, "--filename=/dev/null", "--trim_percentage=101",
				   NULL));
	/* fio 3.33 stops on an assertion: a write job does not trim */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write",
				       "--verify=crc32c", "--trim_percentage=10", "--trim_backlog=4",
				       NULL));
	EXPECT_NE(NULL, strstr(err.msg, "trimwrite")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=trimwrite",
				       "--verify=crc32c", "--trim_percentage=10", "--trim_backlog=4",
				       "--verify_backlog=2", NULL));
	/* fio draws at issue and may trim a write in flight: one at a time here */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=trimwrite",
				       "--verify=crc32c", "--trim_percentage=10", "--trim_backlog=4",
				       "--ioengine=libaio", "--iodepth=8", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "iodepth=8")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--rw=trimwrite",
			     "--verify=crc32c", "--trim_percentage=10", "--trim_backlog=4",
			     "--ioengine=psync", "--iodepth=8", NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=randtrim",
				       "--verify=crc32c", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "verify= of a trim workload")) TH_LOG("%s", err.msg);
}

/* ---- on a device --------------------------------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
	char state[320];
	char state_opt[340];
	char out[320];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
	snprintf(self->state, sizeof(self->state), "%s/trim.state", self->s.dir);
	snprintf(self->state_opt, sizeof(self->state_opt), "--verify-state=%s", self->state);
	snprintf(self->out, sizeof(self->out), "%s/run.json", self->s.dir);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->state);
	unlink(self->out);
	scratch_destroy(&self->s);
}

#define MAX_OPTS 5

static const char *const sides[][MAX_OPTS] = {
	{ "--rw=trimwrite" },
	{ "--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=4" },
	{ "--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=4",
	  "--trim_verify_zero=0" },
	{ "--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=8",
	  "--trim_backlog_batch=2" },
	{ "--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=8",
	  "--trim_backlog_batch=2", "--trim_verify_zero=0" },
	{ "--rw=randtrimwrite", "--trim_percentage=100", "--trim_backlog=4" },
	{ "--rw=randtrimwrite", "--trim_percentage=100", "--trim_backlog=3",
	  "--trim_backlog_batch=5", "--trim_verify_zero=0" },
	/* without trim_backlog fio trims nothing of what it verifies */
	{ "--rw=trimwrite", "--trim_percentage=100" },
};

static int fio_counts(const char *const *argv, long long *io, long long *error)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct run_result r;
	json_object *root, *j;
	const char *brace;
	char key[32];

	if (run_argv(argv, &r))
		return -1;
	brace = strchr(r.out, '{');
	root = brace ? json_tokener_parse(brace) : NULL;
	run_result_free(&r);
	j = root ? json_object_array_get_idx(json_object_object_get(root, "jobs"), 0) : NULL;
	if (!j) {
		json_object_put(root);
		return -1;
	}
	for (int d = 0; d < 3; d++) {
		snprintf(key, sizeof(key), "%s.total_ios", dirs[d]);
		io[d] = json_int(j, key, -1);
	}
	*error = json_int(j, "error", -1);
	json_object_put(root);
	return 0;
}

TEST_F_TIMEOUT(dev, same_counts_as_fio, 300)
{
	static const char *const dirs[] = { "read", "write", "trim" };

	PREP_READY(&self->p);
	if (need_program("fio"))
		SKIP(return, "fio is not installed: nothing to compare the counts with");
	for (size_t k = 0; k < ARRAY_SIZE(sides); k++) {
		const char *argv[20] = { "fio", "--name=a", self->filename, "--ioengine=psync",
					 "--direct=1", "--bs=16k", "--size=4m", "--verify=crc32c",
					 "--output-format=json", "--verify_state_save=0" };
		const char *bargs[16] = { "--name=a", self->filename, "--ioengine=psync",
					  "--direct=1", "--bs=16k", "--size=4m", "--verify=crc32c" };
		long long fio_io[3], bq_io[3], ferr = -1;
		struct run_result r;
		json_object *root, *jb;
		char what[256] = "";
		int a = 10, b = 7;

		for (int i = 0; i < MAX_OPTS && sides[k][i]; i++) {
			argv[a++] = sides[k][i];
			bargs[b++] = sides[k][i];
			strncat(what, sides[k][i], sizeof(what) - strlen(what) - 2);
			strcat(what, " ");
		}
		ASSERT_EQ(0, fio_counts(argv, fio_io, &ferr)) TH_LOG("fio %s", what);
		EXPECT_EQ(0, ferr) TH_LOG("fio %s: its verify failed", what);
		root = blkqual_run_json(&r, bargs);
		ASSERT_NE(NULL, root) TH_LOG("blkqual %s: %.300s", what, r.err);
		jb = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
		bq_io[0] = json_int(jb, "total.read.ios", -1) +
			   json_int(jb, "verify.phase.read.ios", 0);
		bq_io[1] = json_int(jb, "total.write.ios", -1);
		bq_io[2] = json_int(jb, "total.trim.ios", -1);
		for (int d = 0; d < 3; d++) {
			EXPECT_EQ(fio_io[d], bq_io[d]) TH_LOG("%s: %s I/Os", what, dirs[d]);
		}
		/* every block read back was judged good: zeros where trimmed */
		EXPECT_EQ(bq_io[0], json_int(jb, "verify.blocks_checked", -1)) TH_LOG("%s", what);
		EXPECT_EQ(0, json_int(jb, "verify.bad_blocks", -1)) TH_LOG("%s", what);
		json_object_put(root);
		run_result_free(&r);
	}
}

/* Blocks of the first 4 MiB of the backing file that hold zeros only. */
static int zero_blocks(const struct scratch *s)
{
	static uint8_t buf[BS], zero[BS];
	int fd = open(s->file, O_RDONLY | O_CLOEXEC), n = 0;

	if (fd < 0)
		return -errno;
	for (int i = 0; i < NBLK; i++) {
		if (pread(fd, buf, BS, (off_t)i * BS) != BS) {
			n = -EIO;
			break;
		}
		n += !memcmp(buf, zero, BS);
	}
	close(fd);
	return n;
}

TEST_F(dev, a_share_trimmed_and_the_state_knows)
{
	const char *w[] = { self->filename, "--ioengine=psync", "--direct=1", "--bs=16k",
			    "--size=4m", "--verify=crc32c", "--rw=trimwrite",
			    "--trim_percentage=50", "--trim_backlog=4", self->state_opt,
			    "--name=w", NULL };
	const char *chk[] = { blkqual_path(), "verify", "-o", "json", "--no-status",
			      self->state_opt, NULL };
	struct run_result r;
	json_object *root, *jb;
	long long trims;
	int zeros;

	PREP_READY(&self->p);
	root = blkqual_run_json(&r, w);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	jb = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	trims = json_int(jb, "total.trim.ios", -1);
	EXPECT_EQ(NBLK, json_int(jb, "verify.blocks_checked", -1));
	EXPECT_EQ(0, json_int(jb, "verify.bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);
	/* the workload trims every block once; the rest were drawn, about half */
	zeros = zero_blocks(&self->s);
	EXPECT_EQ(trims - NBLK, zeros);
	EXPECT_LT(NBLK / 4, zeros);
	EXPECT_GT(NBLK * 3 / 4, zeros);

	ASSERT_EQ(0, run_argv(chk, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(NBLK - zeros, json_int(root, "verify.blocks_checked", -1));
	EXPECT_EQ(0, json_int(root, "verify.bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);
}

static bool block_is_zero(int fd, off_t off)
{
	static uint8_t buf[BS], zero[BS];

	return pread(fd, buf, BS, off) == BS && !memcmp(buf, zero, BS);
}

/*
 * Slowed to 200 trims of the workload a second, the job trims block K a few writes after
 * writing it; the test waits for its data, then for its zeros, and writes
 * garbage there before the read-back, about a second later.
 */
TEST_F_TIMEOUT(dev, a_trimmed_block_overwritten_is_found_at_its_offset, 60)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json",
			       self->filename, "--ioengine=psync", "--direct=1", "--bs=16k",
			       "--size=4m", "--verify=crc32c", "--rw=trimwrite",
			       "--trim_percentage=100", "--trim_backlog=4", "--rate_iops=,,200",
			       "--name=slow", NULL };
	const off_t k = 40 * BS;
	posix_spawn_file_actions_t fa;
	struct timespec nap = { 0, 500000 };
	uint8_t garbage[BS];
	json_object *root, *v, *bad;
	int fd, dev, status = -1;
	bool seen_data = false, planted = false;
	char *out;
	pid_t pid;

	PREP_READY(&self->p);
	for (int i = 0; i < BS; i++)
		garbage[i] = (uint8_t)(i * 7 + 1);
	fd = open(self->s.file, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, posix_spawn_file_actions_init(&fa));
	ASSERT_EQ(0, posix_spawn_file_actions_addopen(&fa, 1, self->out,
						      O_WRONLY | O_CREAT | O_TRUNC, 0644));
	ASSERT_EQ(0, posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ));
	posix_spawn_file_actions_destroy(&fa);
	/* about 4 s of writes; the job is watched until it ends */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		bool zero = block_is_zero(fd, k);

		if (!seen_data && !zero) {
			seen_data = true;
		} else if (seen_data && zero && !planted) {
			ASSERT_EQ(BS, pwrite(fd, garbage, BS, k));
			ASSERT_EQ(0, fsync(fd));
			dev = open(self->s.dev, O_RDONLY | O_CLOEXEC);
			ASSERT_LE(0, dev);
			ioctl(dev, BLKFLSBUF, 0);
			close(dev);
			planted = true;
		}
		nanosleep(&nap, NULL);
	}
	close(fd);
	ASSERT_TRUE(planted) TH_LOG("block %lld was never seen trimmed", (long long)k);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
	out = slurp(self->out);
	ASSERT_NE(NULL, out);
	root = json_tokener_parse(out);
	free(out);
	ASSERT_NE(NULL, root);
	v = json_object_object_get(json_object_array_get_idx(json_object_object_get(root, "jobs"),
							      0), "verify");
	EXPECT_EQ(NBLK, json_int(v, "blocks_checked", -1));
	EXPECT_EQ(1, json_int(v, "bad_blocks", -1));
	bad = json_object_array_get_idx(json_object_object_get(v, "first_bad"), 0);
	EXPECT_EQ((long long)k, json_int(bad, "offset", -1));
	EXPECT_STREQ("corrupted", json_str(bad, "class"));
	json_object_put(root);
}

TEST_HARNESS_MAIN
