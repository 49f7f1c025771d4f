// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbd_verify_test.c - zoned devices, part two: verify= with zonemode=zbd,
 * zone counts ("size=8z", "offset=524z") and trims of zones, as fio means
 * them
 *
 * - parsing: the zone counts fio takes (size, io_size, io_limit, offset,
 *   offset_increment, zoneskip) and the values it refuses; what blkqual
 *   does not do with zones (verify with zone_reset_frequency, trimwrite)
 *   refused by name; a job's options make the same job again;
 * - side by side with fio 3.33 on a scratch loop device whose zones both
 *   emulate from zonesize: the same writes, the same reads (the verify
 *   phase's, each block read back once and found good), the same trims;
 *   with verify a full zone is never reset, so io_size past the region
 *   ends the job when every zone is full, as in fio; jobs run together
 *   share the zones (a trim job resets what a writer filled);
 * - what fio refuses on the device (a block size that does not divide the
 *   zone with verify, a trim that is not one zone) is refused, exit 2.
 * A real zoned device is tested in the VM (vm/guest_zbd_test.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define MIB		(1ULL << 20)
#define DEV_SIZE	(32LL << 20)

/* ---- parsing ------------------------------------------------------------ */

TEST(parse_zone_counts)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("offset", "524z", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(524u, job.offset_nz);
	EXPECT_EQ(0u, job.offset);
	ASSERT_EQ(0, set1("size", "128z", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(128u, job.size_nz);
	EXPECT_EQ(0u, job.size);
	ASSERT_EQ(0, set1("io_size", "3z", &job, &err));
	EXPECT_EQ(3u, job.io_size_nz);
	ASSERT_EQ(0, set1("io_limit", "4z", &job, &err));
	EXPECT_EQ(4u, job.io_size_nz);
	ASSERT_EQ(0, set1("offset_increment", "2z", &job, &err));
	EXPECT_EQ(2u, job.offset_increment_nz);
	ASSERT_EQ(0, set1("zoneskip", "1z", &job, &err));
	EXPECT_EQ(1u, job.zone_skip_nz);
	/* fio: digits, then z, nothing else */
	EXPECT_EQ(-EINVAL, set1("size", "8zz", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "size=8zz")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("size", "z", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("offset", "1.5z", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("offset", "-1z", NULL, &err));
	/* only those five count zones; fio refuses the suffix elsewhere */
	EXPECT_EQ(-EINVAL, set1("bs", "1z", NULL, &err));
	EXPECT_NE(0, set1("zonesize", "2z", NULL, &err));
	EXPECT_NE(0, set1("zonerange", "2z", NULL, &err));
}

TEST(parse_last_value_wins)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 };

	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--size=8z", "--size=1m",
			     "--offset=1m", "--offset=2z", NULL)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0u, set.jobs[0].size_nz);
	EXPECT_EQ(MIB, set.jobs[0].size);
	EXPECT_EQ(2u, set.jobs[0].offset_nz);
	EXPECT_EQ(0u, set.jobs[0].offset);
	bq_jobset_free(&set);
}

TEST(parse_verify_and_trim)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 };

	/* fio's uring-cmd-zoned.fio and xnvme-zoned.fio verify on zones */
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
			     "--zonesize=4m", "--verify=crc32c", "--rw=randwrite", "--bs=256k",
			     NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
			     "--zonesize=4m", "--rw=randtrim", "--bs=4m", "--size=8z",
			     "--offset=2z", NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
	/* fio 3.33 stops on an assertion with these; blkqual refuses them */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
				       "--zonesize=4m", "--verify=crc32c", "--rw=write",
				       "--zone_reset_frequency=0.5", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "zone_reset_frequency")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
				       "--zonesize=4m", "--rw=trimwrite", "--bs=4m", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "trimwrite")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
				       "--zonesize=4m", "--zoneskip=1z", NULL));
}

TEST(job_args_round_trip)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 }, again = { 0 };
	struct bq_strv args = { 0 };

	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=zbd",
			     "--zonesize=4m", "--size=8z", "--offset=524z", "--io_size=16z",
			     "--offset_increment=1z", "--verify=md5", "--rw=randwrite", NULL))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &again, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(8u, again.jobs[0].size_nz);
	EXPECT_EQ(524u, again.jobs[0].offset_nz);
	EXPECT_EQ(16u, again.jobs[0].io_size_nz);
	EXPECT_EQ(1u, again.jobs[0].offset_increment_nz);
	EXPECT_EQ(0u, again.jobs[0].size);
	bq_strv_free(&args);
	bq_jobset_free(&set);
	bq_jobset_free(&again);
}

/* ---- fio, side by side, on emulated zones --------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	if (need_program("fio"))
		prep_skip(&self->p, need_program("fio"));
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

#define MAX_OPTS 6

/*
 * Each job: its options beyond filename, psync, direct=1, zonemode=zbd,
 * zonesize=2m.  Without verify= these would write io_size (resetting
 * full zones); with it every zone is written once, then read back.
 */
static const char *const sides[][MAX_OPTS] = {
	{ "--rw=randwrite", "--bs=64k", "--verify=crc32c" },
	/* io_size twice the region: the job ends when every zone is full */
	{ "--rw=randwrite", "--bs=64k", "--verify=crc32c", "--io_size=64m" },
	{ "--rw=write", "--bs=64k", "--verify=md5", "--io_size=48m" },
	{ "--rw=randwrite", "--bs=16k", "--verify=crc32c", "--max_open_zones=2" },
	{ "--rw=randwrite", "--bs=16k", "--verify=md5", "--zonecapacity=1536k",
	  "--max_open_zones=3" },
	{ "--rw=randwrite", "--bs=64k", "--verify=crc32c", "--verify_backlog=16" },
	/* zones 2 to 9, counted in zones */
	{ "--rw=randwrite", "--bs=32k", "--verify=crc32c", "--offset=2z", "--size=8z" },
	{ "--rw=write", "--bs=32k", "--offset=3z", "--size=4z", "--io_size=10z" },
	/* a trim is a reset of one zone: empty zones, nothing to reset */
	{ "--rw=trim", "--bs=2m", "--offset=1z", "--size=12z" },
	{ "--rw=randtrim", "--bs=2m" },
};

static void fio_counts(json_object *jb, long long *ios, long long *bytes)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	char key[32];

	for (int d = 0; d < 3; d++) {
		snprintf(key, sizeof(key), "%s.total_ios", dirs[d]);
		ios[d] = json_int(jb, key, -1);
		snprintf(key, sizeof(key), "%s.io_bytes", dirs[d]);
		bytes[d] = json_int(jb, key, -1);
	}
}

/* blkqual's verify phase is a figure of its own; fio counts its reads as reads. */
static void blkqual_counts(json_object *jb, long long *ios, long long *bytes)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	char key[48];

	for (int d = 0; d < 3; d++) {
		snprintf(key, sizeof(key), "total.%s.ios", dirs[d]);
		ios[d] = json_int(jb, key, -2);
		snprintf(key, sizeof(key), "total.%s.bytes", dirs[d]);
		bytes[d] = json_int(jb, key, -2);
	}
	ios[0] += json_int(jb, "verify.phase.read.ios", 0);
	bytes[0] += json_int(jb, "verify.phase.read.bytes", 0);
}

TEST_F_TIMEOUT(dev, same_counts_as_fio, 120)
{
	static const char *const dirs[] = { "read", "write", "trim" };

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(sides); k++) {
		/* verify_state_save=0: no state file left in the working directory */
		const char *argv[24] = { "fio", "--name=a", self->filename, "--ioengine=psync",
					 "--direct=1", "--zonemode=zbd", "--zonesize=2m",
					 "--output-format=json", "--verify_state_save=0" };
		const char *bargs[16] = { "--name=a", self->filename, "--ioengine=psync",
					  "--direct=1", "--zonemode=zbd", "--zonesize=2m" };
		long long fio_io[3], fio_bytes[3], bq_io[3], bq_bytes[3];
		json_object *root, *fj, *jobs, *jb;
		bool verifies = false;
		struct run_result r;
		const char *brace;
		int a = 9, b = 6;
		char what[256] = "";

		for (int i = 0; i < MAX_OPTS && sides[k][i]; i++) {
			argv[a++] = sides[k][i];
			bargs[b++] = sides[k][i];
			verifies |= !strncmp(sides[k][i], "--verify=", 9);
			strncat(what, sides[k][i], sizeof(what) - strlen(what) - 2);
			strcat(what, " ");
		}
		ASSERT_EQ(0, run_argv(argv, &r));
		ASSERT_EQ(0, r.status) TH_LOG("fio %s: %.300s", what, r.err);
		brace = strchr(r.out, '{');
		fj = brace ? json_tokener_parse(brace) : NULL;
		ASSERT_NE(NULL, fj) TH_LOG("fio %s: no JSON", what);
		ASSERT_TRUE(json_object_object_get_ex(fj, "jobs", &jobs));
		jb = json_object_array_get_idx(jobs, 0);
		fio_counts(jb, fio_io, fio_bytes);
		EXPECT_EQ(0, json_int(jb, "error", -1)) TH_LOG("fio %s: verify failed", what);
		json_object_put(fj);
		run_result_free(&r);

		root = blkqual_run_json(&r, bargs);
		ASSERT_NE(NULL, root) TH_LOG("blkqual %s: %.300s", what, r.err);
		jobs = json_object_object_get(root, "jobs");
		jb = json_object_array_get_idx(jobs, 0);
		blkqual_counts(jb, bq_io, bq_bytes);
		for (int d = 0; d < 3; d++) {
			EXPECT_EQ(fio_io[d], bq_io[d]) TH_LOG("%s: %s I/Os", what, dirs[d]);
			EXPECT_EQ(fio_bytes[d], bq_bytes[d]) TH_LOG("%s: %s bytes", what, dirs[d]);
		}
		if (verifies) {
			/* each block written is read back once and is good */
			EXPECT_LT(0, fio_io[1]) TH_LOG("%s", what);
			EXPECT_EQ(fio_bytes[1], json_int(jb, "verify.bytes_checked", -1))
				TH_LOG("%s: bytes verified", what);
			EXPECT_EQ(0, json_int(jb, "verify.bad_blocks", -1)) TH_LOG("%s", what);
			EXPECT_EQ(0, json_int(jb, "total.zone_resets", 0)) TH_LOG("%s", what);
		}
		EXPECT_EQ(0, json_int(jb, "total.write.errors", 0)) TH_LOG("%s", what);
		json_object_put(root);
		run_result_free(&r);
	}
}

/*
 * The jobs of a run share the zones of their target, as fio's do: a trim
 * job started after a writer resets the zones that writer filled (and
 * goes from the empty ones to those), a reader after it reads what is
 * left.  Each job's counts are fio's.
 */
TEST_F(dev, jobs_share_the_zones)
{
	static const char *const names[] = { "w", "t", "r" };
	char path[] = "/tmp/zbd_verify_test.XXXXXX";
	const char *args[] = { path, NULL };
	const char *argv[] = { "fio", "--output-format=json", path, NULL };
	long long fio_io[3][3], fio_bytes[3][3], io[3], bytes[3];
	json_object *root, *fj, *jobs;
	struct run_result r;
	const char *brace;
	FILE *fp;
	int fd;

	PREP_READY(&self->p);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	fp = fdopen(fd, "w");
	ASSERT_NE(NULL, fp);
	fprintf(fp, "[global]\nfilename=%s\nzonemode=zbd\nzonesize=2m\ndirect=1\n"
		"ioengine=psync\n[w]\nrw=write\nbs=64k\nsize=24m\n"
		"[t]\nwait_for=w\nrw=randtrim\nbs=2m\noffset=2z\nsize=14z\n"
		"[r]\nwait_for=t\nrw=read\nbs=64k\nsize=16z\n", self->s.dev);
	fclose(fp);
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("fio: %.300s", r.err);
	brace = strchr(r.out, '{');
	fj = brace ? json_tokener_parse(brace) : NULL;
	run_result_free(&r);
	ASSERT_NE(NULL, fj);
	jobs = json_object_object_get(fj, "jobs");
	ASSERT_EQ(3, (int)json_object_array_length(jobs));
	for (int k = 0; k < 3; k++)
		fio_counts(json_object_array_get_idx(jobs, k), fio_io[k], fio_bytes[k]);
	json_object_put(fj);
	/* what the jobs imply: zones 2 to 11 trimmed, zones 0 and 1 read */
	EXPECT_EQ(384, fio_io[0][1]);
	EXPECT_EQ(10, fio_io[1][2]);
	EXPECT_EQ(64, fio_io[2][0]);

	root = blkqual_run_json(&r, args);
	unlink(path);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	jobs = json_object_object_get(root, "jobs");
	for (int k = 0; k < 3; k++) {
		json_object *jb = json_object_array_get_idx(jobs, k);

		blkqual_counts(jb, io, bytes);
		for (int d = 0; d < 3; d++) {
			EXPECT_EQ(fio_io[k][d], io[d]) TH_LOG("job %s, direction %d", names[k], d);
			EXPECT_EQ(fio_bytes[k][d], bytes[d]) TH_LOG("job %s, direction %d",
								    names[k], d);
		}
	}
	EXPECT_EQ(10, json_int(json_object_array_get_idx(jobs, 1), "total.zone_resets", 0));
	json_object_put(root);
	run_result_free(&r);
}

/* Zone counts land where fio puts them: 3z..7z of 2m zones, bytes 6m..14m. */
TEST_F(dev, zone_counts_in_bytes)
{
	const char *args[] = { "--name=a", self->filename, "--ioengine=psync", "--direct=1",
			       "--zonemode=zbd", "--zonesize=2m", "--rw=write", "--bs=64k",
			       "--offset=3z", "--size=4z", NULL };
	struct run_result r;
	json_object *root, *jb;

	PREP_READY(&self->p);
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("%.300s", r.err);
	jb = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	EXPECT_EQ((long long)(6 * MIB), json_int(jb, "options.offset", -1));
	EXPECT_EQ((long long)(8 * MIB), json_int(jb, "options.size", -1));
	EXPECT_EQ((long long)(8 * MIB), json_int(jb, "total.write.bytes", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* What fio refuses on the device is refused here, exit 2, one line. */
TEST_F(dev, refused_on_the_device)
{
	static const struct {
		const char *opt[4];
		const char *msg;
	} cases[] = {
		{ { "--rw=randwrite", "--bs=48k", "--verify=crc32c" }, "not a divisor" },
		{ { "--rw=randtrim", "--bs=1m" }, "trim block size" },
		{ { "--rw=trim", "--bsrange=2m-4m" }, "not allowed for trim" },
		{ { "--rw=write", "--offset=20z" }, "past the end" },
	};

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const char *args[12] = { "--name=a", self->filename, "--ioengine=psync",
					 "--direct=1", "--zonemode=zbd", "--zonesize=2m" };
		struct run_result r;
		int n = 6;

		for (int i = 0; i < 4 && cases[k].opt[i]; i++)
			args[n++] = cases[k].opt[i];
		EXPECT_EQ(NULL, blkqual_run_json(&r, args));
		EXPECT_EQ(2, r.status);
		EXPECT_NE(NULL, strstr(r.err, cases[k].msg)) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
