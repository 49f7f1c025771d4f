// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobparse_test.c - sizes, durations, job options, job files, command lines
 *
 * The promise to a fio user is that a job means the same whichever way it
 * is written, so the central checks build one job three ways and compare
 * the results byte for byte.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "helpers/jobs.h"
#include "job/jobopt.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

/* ---- helpers ------------------------------------------------------------ */

/**
 * jobfile() - write a job file to a new temp file
 * @path: receives its name (at least 64 bytes)
 * @text: the contents
 *
 * Return: @path, or NULL.
 */
static const char *jobfile(char *path, const char *text)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/blkqual-job.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return NULL;
	}
	fputs(text, f);
	fclose(f);
	return path;
}

/* Parse @text as a job file; the temp file is gone afterwards. */
static int parse_text(const char *text, struct bq_jobset *set, struct bq_parse_error *err)
{
	char path[64];
	int ret;

	if (!jobfile(path, text))
		return -EIO;
	ret = bq_jobfile_parse(path, set, err);
	unlink(path);
	return ret;
}

/* Where: like parse_text(), but with the temp file's name for "path:line". */
static int parse_text_at(const char *text, char *path, struct bq_jobset *set,
			 struct bq_parse_error *err)
{
	int ret;

	if (!jobfile(path, text))
		return -EIO;
	ret = bq_jobfile_parse(path, set, err);
	unlink(path);
	return ret;
}

static int args(struct bq_jobset *set, struct bq_parse_error *err, int argc, ...)
{
	char *argv[64];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc && i < 64; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return bq_jobs_from_args(argc, argv, set, err);
}

/*
 * The same job, byte for byte.  Filenames are pointers, so they are
 * compared as strings and then blanked in copies for the memcmp().
 */
static bool same_job(const struct bq_job *a, const struct bq_job *b)
{
	struct bq_job x = *a, y = *b;

	if (a->nr_files != b->nr_files)
		return false;
	for (int i = 0; i < a->nr_files; i++)
		if (strcmp(a->filenames[i], b->filenames[i]))
			return false;
	memset(x.filenames, 0, sizeof(x.filenames));
	memset(y.filenames, 0, sizeof(y.filenames));
	/* How the options were spelled (fio's "job options"), not what they mean. */
	memset(x.fio_given, 0, sizeof(x.fio_given));
	memset(y.fio_given, 0, sizeof(y.fio_given));
	x.fio_given_own = y.fio_given_own = 0;
	return !memcmp(&x, &y, sizeof(x));
}

/* ---- sizes and durations ---------------------------------------------- */

TEST(sizes_good)
{
	static const struct {
		const char *s;
		uint64_t bytes;
	} cases[] = {
		{ "0", 0 }, { "512", 512 }, { "4k", 4 * KiB }, { "4K", 4 * KiB },
		{ "4ki", 4 * KiB }, { "4KiB", 4 * KiB }, { "4kb", 4 * KiB }, { "4KB", 4 * KiB },
		{ "1m", MiB }, { "1Mi", MiB }, { "2g", 2 * GiB }, { "2GiB", 2 * GiB },
		{ "1t", 1024 * GiB }, { "1p", 1024 * 1024 * GiB }, { "512b", 512 },
		{ "512B", 512 }, { "16383p", 16383ull << 50 },
		{ "18446744073709551615", UINT64_MAX },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 1;

		EXPECT_EQ(0, bq_parse_size(cases[i].s, &v)) TH_LOG("'%s'", cases[i].s);
		EXPECT_EQ(cases[i].bytes, v) TH_LOG("'%s'", cases[i].s);
	}
}

TEST(sizes_bad)
{
	static const struct {
		const char *s;
		int ret;
	} cases[] = {
		{ "", -EINVAL }, { "-1", -EINVAL }, { "-4k", -EINVAL }, { "k", -EINVAL },
		{ "4x", -EINVAL }, { "4kk", -EINVAL }, { "4i", -EINVAL }, { "4kbb", -EINVAL },
		{ " 4k", -EINVAL }, { "4k ", -EINVAL }, { "4 k", -EINVAL }, { "1.5g", -EINVAL },
		{ "0x10", -EINVAL }, { "4e", -EINVAL }, { "+4", -EINVAL },
		{ "16384p", -ERANGE }, { "18446744073709551616", -ERANGE },
		{ "99999999999999999999999k", -ERANGE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 7;

		EXPECT_EQ(cases[i].ret, bq_parse_size(cases[i].s, &v)) TH_LOG("'%s'", cases[i].s);
		EXPECT_EQ(7, v) TH_LOG("'%s' changed the output", cases[i].s);
	}
	EXPECT_EQ(-EINVAL, bq_parse_size(NULL, NULL));
}

TEST(times_good)
{
	static const struct {
		const char *s;
		uint64_t unit;
		uint64_t ns;
	} cases[] = {
		{ "10", NS_PER_S, 10 * NS_PER_S },
		{ "10", NS_PER_US, 10 * NS_PER_US },
		{ "10s", NS_PER_US, 10 * NS_PER_S },
		{ "500ms", NS_PER_S, 500 * NS_PER_MS },
		{ "250us", NS_PER_S, 250 * NS_PER_US },
		{ "250usec", NS_PER_S, 250 * NS_PER_US },
		{ "100ns", NS_PER_S, 100 },
		{ "2m", NS_PER_S, 120 * NS_PER_S },
		{ "2min", NS_PER_S, 120 * NS_PER_S },
		{ "1h", NS_PER_S, 3600 * NS_PER_S },
		{ "1d", NS_PER_S, 86400 * NS_PER_S },
		{ "1.5s", NS_PER_S, 1500 * NS_PER_MS },
		{ "1.5", NS_PER_S, 1500 * NS_PER_MS },
		{ "0.25ms", NS_PER_S, 250 * NS_PER_US },
		{ "1.5h", NS_PER_S, 5400 * NS_PER_S },
		{ "0.000000001s", NS_PER_S, 1 },
		{ "1.0000000019s", NS_PER_S, NS_PER_S + 1 },
		{ "10MS", NS_PER_S, 10 * NS_PER_MS },
		{ "0", NS_PER_S, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 1;

		EXPECT_EQ(0, bq_parse_time(cases[i].s, cases[i].unit, &v))
			TH_LOG("'%s'", cases[i].s);
		EXPECT_EQ(cases[i].ns, v) TH_LOG("'%s'", cases[i].s);
	}
}

TEST(times_bad)
{
	static const struct {
		const char *s;
		int ret;
	} cases[] = {
		{ "", -EINVAL }, { "s", -EINVAL }, { "-1", -EINVAL }, { "1.", -EINVAL },
		{ ".5", -EINVAL }, { "1x", -EINVAL }, { "1 s", -EINVAL }, { "1ss", -EINVAL },
		{ "1.5.5", -EINVAL }, { "1k", -EINVAL },
		{ "18446744073709551615s", -ERANGE }, { "300000d", -ERANGE },
	};
	uint64_t v = 3;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(cases[i].ret, bq_parse_time(cases[i].s, NS_PER_S, &v))
			TH_LOG("'%s'", cases[i].s);
	}
	EXPECT_EQ(3, v);
	EXPECT_EQ(-EINVAL, bq_parse_time("10", 0, &v));
}

/* ---- options ------------------------------------------------------------- */

TEST(defaults_are_fios)
{
	struct bq_job job;

	bq_job_defaults(&job);
	EXPECT_STREQ("job", job.name);
	EXPECT_EQ(0, job.nr_files);
	EXPECT_EQ(BQ_RW_READ, job.rw);
	EXPECT_EQ(50, job.rwmixread);
	EXPECT_EQ(4096, job.bs[BQ_READ]);
	EXPECT_EQ(4096, job.bs_max[BQ_WRITE]);
	EXPECT_EQ(1, job.iodepth);
	EXPECT_EQ(1, job.numjobs);
	EXPECT_EQ(BQ_ENGINE_IO_URING, job.engine);
	EXPECT_FALSE(job.direct);
	EXPECT_TRUE(job.randrepeat);
	EXPECT_EQ(BQ_POLL_AUTO, job.poll);
	EXPECT_TRUE(job.fixedbufs);
	EXPECT_TRUE(job.registerfiles);
	EXPECT_EQ(0, job.size_pct);
}

TEST(rw_modes)
{
	static const struct {
		const char *s;
		enum bq_rw rw;
	} ok[] = {
		{ "read", BQ_RW_READ }, { "write", BQ_RW_WRITE }, { "randread", BQ_RW_RANDREAD },
		{ "randwrite", BQ_RW_RANDWRITE }, { "rw", BQ_RW_RW }, { "readwrite", BQ_RW_RW },
		{ "randrw", BQ_RW_RANDRW },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		EXPECT_EQ(0, set1("rw", ok[i].s, &job, &err));
		EXPECT_EQ(ok[i].rw, job.rw);
	}
	EXPECT_EQ(0, set1("readwrite", "randwrite", &job, &err));
	EXPECT_EQ(BQ_RW_RANDWRITE, job.rw);
	/* Offset modifiers (issue 19): patterns_test.c has the rest. */
	EXPECT_EQ(0, set1("rw", "randread:8", &job, &err));
	EXPECT_EQ(8u, job.seq_nr);
	/* Trim workloads (issue 19): trim_test.c has the rest. */
	EXPECT_EQ(0, set1("rw", "trim", &job, &err));
	EXPECT_EQ(BQ_TRIM_ONLY, job.trim);
	EXPECT_EQ(-EINVAL, set1("rw", "random", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rw", "", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rw", NULL, NULL, &err));
	EXPECT_STREQ("rw needs a value", err.msg);
}

TEST(rwmix)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("rwmixread", "70", &job, &err));
	EXPECT_EQ(70, job.rwmixread);
	EXPECT_EQ(0, set1("rwmixwrite", "30", &job, &err));
	EXPECT_EQ(70, job.rwmixread);
	EXPECT_EQ(0, set1("rwmixwrite", "100", &job, &err));
	EXPECT_EQ(0, job.rwmixread);
	EXPECT_EQ(-EINVAL, set1("rwmixread", "101", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rwmixwrite", "101", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rwmixread", "-1", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rwmixread", "50%", NULL, &err));
}

TEST(bs_per_direction)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("bs", "64k", &job, &err));
	EXPECT_EQ(64 * KiB, job.bs[BQ_READ]);
	EXPECT_EQ(64 * KiB, job.bs[BQ_WRITE]);
	EXPECT_EQ(64 * KiB, job.bs_min[BQ_WRITE]);
	EXPECT_EQ(64 * KiB, job.bs_max[BQ_READ]);
	EXPECT_EQ(0, set1("bs", "4k,64k", &job, &err));
	EXPECT_EQ(4 * KiB, job.bs[BQ_READ]);
	EXPECT_EQ(64 * KiB, job.bs[BQ_WRITE]);
	/* An empty side keeps the default. */
	EXPECT_EQ(0, set1("bs", ",64k", &job, &err));
	EXPECT_EQ(4 * KiB, job.bs[BQ_READ]);
	EXPECT_EQ(64 * KiB, job.bs[BQ_WRITE]);
	EXPECT_EQ(0, set1("blocksize", "8k,", &job, &err));
	EXPECT_EQ(8 * KiB, job.bs[BQ_READ]);
	EXPECT_EQ(4 * KiB, job.bs[BQ_WRITE]);
	EXPECT_EQ(0, set1("bs", "1g", &job, &err));
	EXPECT_EQ(-EINVAL, set1("bs", "2g", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bs", "256", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bs", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bs", ",", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bs", "4k,junk", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("bs", "4k,4k,4k", NULL, &err));
}

TEST(bsrange)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("bsrange", "4k-16k", &job, &err));
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		EXPECT_EQ(4 * KiB, job.bs_min[d]);
		EXPECT_EQ(16 * KiB, job.bs_max[d]);
		EXPECT_EQ(4 * KiB, job.bs[d]);
	}
	EXPECT_EQ(0, set1("blocksize_range", "4k-16k,8k-32k", &job, &err));
	EXPECT_EQ(16 * KiB, job.bs_max[BQ_READ]);
	EXPECT_EQ(8 * KiB, job.bs_min[BQ_WRITE]);
	EXPECT_EQ(32 * KiB, job.bs_max[BQ_WRITE]);
	EXPECT_EQ(0, set1("bsrange", ",8k-32k", &job, &err));
	EXPECT_EQ(4 * KiB, job.bs_max[BQ_READ]);
	EXPECT_EQ(32 * KiB, job.bs_max[BQ_WRITE]);
	EXPECT_EQ(-EINVAL, set1("bsrange", "16k-4k", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "minimum is over maximum"));
	EXPECT_EQ(-EINVAL, set1("bsrange", "4k", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bsrange", "4k-", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bsrange", "4k-2g", NULL, &err));
}

TEST(bssplit_sums)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("bssplit", "4k/50:64k/50", &job, &err));
	ASSERT_EQ(2, job.nr_bssplit[BQ_READ]);
	ASSERT_EQ(2, job.nr_bssplit[BQ_WRITE]);
	EXPECT_EQ(4 * KiB, job.bssplit[BQ_WRITE][0].bs);
	EXPECT_EQ(50, job.bssplit[BQ_WRITE][1].pct);
	EXPECT_EQ(4 * KiB, job.bs_min[BQ_READ]);
	EXPECT_EQ(64 * KiB, job.bs_max[BQ_READ]);

	/* Entries without a percentage share the rest equally. */
	EXPECT_EQ(0, set1("bssplit", "4k/50:1k/:32k/", &job, &err));
	EXPECT_EQ(25, job.bssplit[BQ_READ][1].pct);
	EXPECT_EQ(25, job.bssplit[BQ_READ][2].pct);
	EXPECT_EQ(1 * KiB, job.bs_min[BQ_READ]);
	EXPECT_EQ(0, set1("bssplit", "4k:8k:16k", &job, &err));
	EXPECT_EQ(34, job.bssplit[BQ_READ][0].pct);
	EXPECT_EQ(33, job.bssplit[BQ_READ][1].pct);
	EXPECT_EQ(33, job.bssplit[BQ_READ][2].pct);

	EXPECT_EQ(0, set1("bssplit", "4k/100,8k/10:16k/90", &job, &err));
	EXPECT_EQ(1, job.nr_bssplit[BQ_READ]);
	EXPECT_EQ(2, job.nr_bssplit[BQ_WRITE]);
	EXPECT_EQ(90, job.bssplit[BQ_WRITE][1].pct);
	EXPECT_EQ(0, set1("bssplit", ",8k/100", &job, &err));
	EXPECT_EQ(0, job.nr_bssplit[BQ_READ]);
	EXPECT_EQ(1, job.nr_bssplit[BQ_WRITE]);

	EXPECT_EQ(-EINVAL, set1("bssplit", "4k/50:64k/40", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "add up to 90")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("bssplit", "4k/70:64k/40", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bssplit", "4k/70:64k/40:8k/", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bssplit", "4k/50::64k/50", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bssplit", "4k/x:64k/50", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bssplit", "/50:64k/50", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("bssplit",
				"4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k", NULL, &err));
}

TEST(ba_and_counts)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("ba", "8k", &job, &err));
	EXPECT_EQ(8 * KiB, job.ba);
	EXPECT_EQ(0, set1("blockalign", "4k", &job, &err));
	EXPECT_EQ(4 * KiB, job.ba);
	EXPECT_EQ(-EOPNOTSUPP, set1("ba", "4k,8k", NULL, &err));

	EXPECT_EQ(0, set1("iodepth", "65536", &job, &err));
	EXPECT_EQ(65536, job.iodepth);
	EXPECT_EQ(-EINVAL, set1("iodepth", "0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("iodepth", "65537", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("iodepth", "32x", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("iodepth", " 32", NULL, &err));
	EXPECT_EQ(0, set1("numjobs", "4096", &job, &err));
	EXPECT_EQ(4096, job.numjobs);
	EXPECT_EQ(-EINVAL, set1("numjobs", "4097", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("numjobs", "0", NULL, &err));
	EXPECT_EQ(0, set1("fsync", "32", &job, &err));
	EXPECT_EQ(32, job.fsync_every);
	EXPECT_EQ(0, set1("randseed", "18446744073709551615", &job, &err));
	EXPECT_EQ(UINT64_MAX, job.randseed);
	EXPECT_EQ(-EINVAL, set1("randseed", "18446744073709551616", NULL, &err));
}

TEST(size_offset_io_size)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("size", "10g", &job, &err));
	EXPECT_EQ(10 * GiB, job.size);
	EXPECT_EQ(0, job.size_pct);
	EXPECT_EQ(0, set1("size", "50%", &job, &err));
	EXPECT_EQ(0, job.size);
	EXPECT_EQ(50, job.size_pct);
	EXPECT_EQ(-EINVAL, set1("size", "0%", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("size", "101%", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("size", "%", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("size", "ten", NULL, &err));
	EXPECT_EQ(0, set1("offset", "1m", &job, &err));
	EXPECT_EQ(MiB, job.offset);
	EXPECT_EQ(0, set1("offset", "10%", &job, &err));
	EXPECT_EQ(10, job.offset_pct);
	EXPECT_EQ(-EOPNOTSUPP, set1("io_size", "10%", NULL, &err));
	EXPECT_STREQ("io_size as a percentage is not supported", err.msg);
	EXPECT_EQ(0, set1("io_size", "2g", &job, &err));
	EXPECT_EQ(2 * GiB, job.io_size);
	EXPECT_EQ(0, set1("io_limit", "3g", &job, &err));
	EXPECT_EQ(3 * GiB, job.io_size);
}

TEST(time_options_and_units)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("runtime", "30", &job, &err));
	EXPECT_EQ(30 * NS_PER_S, job.runtime_ns);
	EXPECT_EQ(0, set1("timeout", "2m", &job, &err));
	EXPECT_EQ(120 * NS_PER_S, job.runtime_ns);
	EXPECT_EQ(0, set1("ramp_time", "1.5", &job, &err));
	EXPECT_EQ(1500 * NS_PER_MS, job.ramp_ns);
	EXPECT_EQ(0, set1("startdelay", "500ms", &job, &err));
	EXPECT_EQ(500 * NS_PER_MS, job.startdelay_ns);
	/* thinktime counts microseconds, as in fio. */
	EXPECT_EQ(0, set1("thinktime", "100", &job, &err));
	EXPECT_EQ(100 * NS_PER_US, job.thinktime_ns);
	EXPECT_EQ(0, set1("thinktime", "1ms", &job, &err));
	EXPECT_EQ(NS_PER_MS, job.thinktime_ns);
	EXPECT_EQ(-EINVAL, set1("runtime", "10q", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("startdelay", "5-1", NULL, &err));
}

TEST(bools_and_flags)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("direct", "1", &job, &err));
	EXPECT_TRUE(job.direct);
	EXPECT_EQ(-EINVAL, set1("direct", NULL, NULL, &err));
	EXPECT_EQ(-EINVAL, set1("direct", "yes", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("direct", "2", NULL, &err));
	EXPECT_EQ(0, set1("randrepeat", "0", &job, &err));
	EXPECT_FALSE(job.randrepeat);
	EXPECT_EQ(0, set1("gtod_reduce", "1", &job, &err));
	EXPECT_TRUE(job.gtod_reduce);

	EXPECT_EQ(0, set1("time_based", NULL, &job, &err));
	EXPECT_TRUE(job.time_based);
	EXPECT_EQ(0, set1("time_based", "0", &job, &err));
	EXPECT_FALSE(job.time_based);
	EXPECT_EQ(-EINVAL, set1("time_based", "on", NULL, &err));
	EXPECT_EQ(0, set1("norandommap", NULL, &job, &err));
	EXPECT_TRUE(job.norandommap);
	EXPECT_EQ(0, set1("group_reporting", NULL, &job, &err));
	EXPECT_TRUE(job.group_reporting);
	EXPECT_EQ(0, set1("fixedbufs", "0", &job, &err));
	EXPECT_FALSE(job.fixedbufs);
	EXPECT_EQ(0, set1("registerfiles", "0", &job, &err));
	EXPECT_FALSE(job.registerfiles);
	EXPECT_EQ(0, set1("sqthread_poll", "1", &job, &err));
	EXPECT_TRUE(job.sqpoll);
	EXPECT_EQ(0, set1("sqthread_poll", NULL, &job, &err));
	EXPECT_TRUE(job.sqpoll);
}

TEST(sync_strings)
{
	static const struct {
		const char *s;
		bool on;
	} cases[] = {
		{ "1", true }, { "sync", true }, { "dsync", true },
		{ "0", false }, { "none", false },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(0, set1("sync", cases[i].s, &job, &err));
		EXPECT_EQ(cases[i].on, job.sync) TH_LOG("sync=%s", cases[i].s);
	}
	EXPECT_EQ(-EINVAL, set1("sync", "osync", NULL, &err));
}

TEST(random_distribution)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("random_distribution", "zipf:1.2", &job, &err));
	EXPECT_EQ(BQ_DIST_ZIPF, job.dist);
	EXPECT_EQ(1.2, job.dist_param);
	EXPECT_EQ(0, set1("random_distribution", "zipf:0.8", &job, &err));
	EXPECT_EQ(0, set1("random_distribution", "pareto:0.9", &job, &err));
	EXPECT_EQ(BQ_DIST_PARETO, job.dist);
	EXPECT_EQ(0.9, job.dist_param);
	EXPECT_EQ(0, set1("random_distribution", "random", &job, &err));
	EXPECT_EQ(BQ_DIST_RANDOM, job.dist);
	/* Without a parameter, fio's defaults: zipf 1.1, pareto 0.2. */
	EXPECT_EQ(0, set1("random_distribution", "zipf", &job, &err));
	EXPECT_EQ(1.1, job.dist_param);
	EXPECT_EQ(0, set1("random_distribution", "pareto", &job, &err));
	EXPECT_EQ(0.2, job.dist_param);
	/* theta 1 is harmonic: fio refuses it, the generator handles it. */
	EXPECT_EQ(0, set1("random_distribution", "zipf:1.0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zipf:0", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zipf:-1", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "pareto:1.5", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zipf:nan", NULL, &err));
	/* normal, zoned and centers (issue 19): patterns_test.c has the rest. */
	EXPECT_EQ(0, set1("random_distribution", "normal:10", &job, &err));
	EXPECT_EQ(BQ_DIST_NORMAL, job.dist);
	EXPECT_EQ(0, set1("random_distribution", "zoned:50/5:50/95", &job, &err));
	EXPECT_EQ(BQ_DIST_ZONED, job.dist);
	EXPECT_EQ(0, set1("random_distribution", "zipf:1.2:0.5", &job, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zipf:1.2:1.5", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "uniform", NULL, &err));
}

TEST(rate_iops_per_direction)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("rate_iops", "5000", &job, &err));
	EXPECT_EQ(5000, job.rate_iops);
	EXPECT_EQ(5000, job.rate_iops_rw[BQ_READ]);
	EXPECT_EQ(5000, job.rate_iops_rw[BQ_WRITE]);
	/* fio's read,write form (selftests/rates_test.c has the rest of the family). */
	EXPECT_EQ(0, set1("rate_iops", "500,200", &job, &err));
	EXPECT_EQ(500, job.rate_iops_rw[BQ_READ]);
	EXPECT_EQ(200, job.rate_iops_rw[BQ_WRITE]);
	/* The third value is the trims' (selftests/fill_test.c). */
	EXPECT_EQ(0, set1("rate_iops", "500,200,100", &job, &err));
	EXPECT_EQ(100, job.rate_iops_trim);
	EXPECT_EQ(-EINVAL, set1("rate_iops", "500,200,100,1", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rate_iops", "5k", NULL, &err));
}

TEST(ioengines)
{
	static const struct {
		const char *s;
		enum bq_engine e;
	} ok[] = {
		{ "io_uring", BQ_ENGINE_IO_URING }, { "libaio", BQ_ENGINE_LIBAIO },
		{ "psync", BQ_ENGINE_PSYNC }, { "sync", BQ_ENGINE_SYNCRW },
		{ "pvsync", BQ_ENGINE_PVSYNC }, { "pvsync2", BQ_ENGINE_PVSYNC2 },
		{ "null", BQ_ENGINE_NOP }, { "nop", BQ_ENGINE_NOP },
		{ "io_uring_cmd", BQ_ENGINE_URING_CMD }, { "sg", BQ_ENGINE_SG },
	};
	static const char *const fio_only[] = {
		"posixaio", "mmap", "splice", "windowsaio", "vsync", "external:/x.so",
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		EXPECT_EQ(0, set1("ioengine", ok[i].s, &job, &err));
		EXPECT_EQ(ok[i].e, job.engine) TH_LOG("%s", ok[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fio_only); i++) {
		EXPECT_EQ(-EOPNOTSUPP, set1("ioengine", fio_only[i], NULL, &err))
			TH_LOG("%s", fio_only[i]);
	}
	set1("ioengine", "mmap", NULL, &err);
	EXPECT_STREQ("ioengine=mmap is not supported (use io_uring, libaio, psync, sync, pvsync, "
		     "pvsync2, sg or nop)", err.msg);
	EXPECT_EQ(-EINVAL, set1("ioengine", "iouring", NULL, &err));
}

TEST(polling)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("hipri", NULL, &job, &err));
	EXPECT_EQ(BQ_POLL_ON, job.poll);
	EXPECT_EQ(0, set1("hipri", "1", &job, &err));
	EXPECT_EQ(BQ_POLL_ON, job.poll);
	EXPECT_EQ(0, set1("hipri", "0", &job, &err));
	EXPECT_EQ(BQ_POLL_AUTO, job.poll);
	EXPECT_EQ(0, set1("poll", "off", &job, &err));
	EXPECT_EQ(BQ_POLL_OFF, job.poll);
	EXPECT_EQ(0, set1("poll", "on", &job, &err));
	EXPECT_EQ(BQ_POLL_ON, job.poll);
	EXPECT_EQ(0, set1("poll", "auto", &job, &err));
	EXPECT_EQ(BQ_POLL_AUTO, job.poll);
	EXPECT_EQ(-EINVAL, set1("poll", "1", NULL, &err));
}

TEST(cpus_allowed)
{
	char longlist[300];
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("cpus_allowed", "0-3,8", &job, &err));
	EXPECT_STREQ("0-3,8", job.cpus_allowed);
	EXPECT_EQ(0, set1("cpus_allowed", "5", &job, &err));
	EXPECT_STREQ("5", job.cpus_allowed);
	EXPECT_EQ(-EINVAL, set1("cpus_allowed", "", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("cpus_allowed", "3-1", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("cpus_allowed", "0,,1", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("cpus_allowed", "all", NULL, &err));
	memset(longlist, 0, sizeof(longlist));
	for (int i = 0; strlen(longlist) < 260; i++)
		snprintf(longlist + strlen(longlist), sizeof(longlist) - strlen(longlist), "%s%d",
			 i ? "," : "", i);
	EXPECT_EQ(-EINVAL, set1("cpus_allowed", longlist, NULL, &err));
}

TEST(continue_on_error)
{
	static const char *const on[] = { "1", "read", "write", "io", "verify", "all" };
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
		EXPECT_EQ(0, set1("continue_on_error", on[i], &job, &err));
		EXPECT_TRUE(job.continue_on_error) TH_LOG("%s", on[i]);
	}
	EXPECT_EQ(0, set1("continue_on_error", "none", &job, &err));
	EXPECT_FALSE(job.continue_on_error);
	EXPECT_EQ(0, set1("continue_on_error", "0", &job, &err));
	EXPECT_FALSE(job.continue_on_error);
	EXPECT_EQ(-EINVAL, set1("continue_on_error", "some", NULL, &err));
}

TEST(filenames)
{
	struct bq_parse_error err;
	struct bq_job job;
	char many[64 * 12];

	bq_job_defaults(&job);
	ASSERT_EQ(0, bq_job_set(&job, "filename", "/dev/nvme0n1:/dev/nvme1n1", &err));
	ASSERT_EQ(2, job.nr_files);
	EXPECT_STREQ("/dev/nvme0n1", job.filenames[0]);
	EXPECT_STREQ("/dev/nvme1n1", job.filenames[1]);
	/* The last filename= wins, as in fio. */
	ASSERT_EQ(0, bq_job_set(&job, "filename", "/dev/disk/by-path/pci-0000\\:01\\:00.0", &err));
	ASSERT_EQ(1, job.nr_files);
	EXPECT_STREQ("/dev/disk/by-path/pci-0000:01:00.0", job.filenames[0]);
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "filename", "/dev/a::/dev/b", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "filename", "", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "filename", "/dev/a:", &err));
	/* A failed filename= leaves the old list alone. */
	ASSERT_EQ(1, job.nr_files);
	EXPECT_STREQ("/dev/disk/by-path/pci-0000:01:00.0", job.filenames[0]);
	many[0] = '\0';
	for (int i = 0; i < 65; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s/dev/x%d",
			 i ? ":" : "", i);
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "filename", many, &err));
	EXPECT_NE(NULL, strstr(err.msg, "more than 64")) TH_LOG("%s", err.msg);
	bq_job_release(&job);
	EXPECT_EQ(0, job.nr_files);
}

TEST(name_option)
{
	struct bq_parse_error err;
	struct bq_job job;

	EXPECT_EQ(0, set1("name", "seqread", &job, &err));
	EXPECT_STREQ("seqread", job.name);
	EXPECT_EQ(-EINVAL, set1("name", "", NULL, &err));
	EXPECT_EQ(-EINVAL,
		  set1("name", "0123456789012345678901234567890123456789012345678901234567890123",
		       NULL, &err));
}

TEST(failed_option_leaves_job_alone)
{
	struct bq_parse_error err;
	struct bq_job before, job;

	bq_job_defaults(&job);
	before = job;
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "bs", "8k,junk", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "bssplit", "8k/50:16k/40", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "bsrange", "8k-16k,32k-16k", &err));
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "random_distribution", "zipf:0", &err));
	EXPECT_TRUE(same_job(&before, &job));
}

TEST(thread_is_accepted_ioscheduler_is_not)
{
	struct bq_parse_error err;
	struct bq_job job, def;

	bq_job_defaults(&def);
	EXPECT_EQ(0, set1("thread", NULL, &job, &err));
	EXPECT_TRUE(same_job(&def, &job));
	EXPECT_EQ(0, set1("thread", "1", &job, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("ioscheduler", "none", NULL, &err));
	EXPECT_STREQ("fio option 'ioscheduler' is not supported by blkqual: blkqual does not "
		     "change the device's I/O scheduler", err.msg);
}

/*
 * Every rejected option of a job file at once, in file order: the first
 * in where and msg, the others in more with their lines; past
 * BQ_PARSE_MORE they are counted.
 */
TEST(a_files_refusals_come_all_at_once)
{
	char path[64], want[160], text[2048];
	struct bq_parse_error err;
	struct bq_jobset set;
	size_t n;

	ASSERT_EQ(-EOPNOTSUPP, parse_text_at("[global]\nexperimental_verify=1\n[j]\nfilename=/dev/null\n"
					     "exec_prerun=x\nbs=4k\niodepht=4\n", path, &set, &err));
	EXPECT_EQ(0, set.nr);
	snprintf(want, sizeof(want), "%s:2", path);
	EXPECT_STREQ(want, err.where);
	EXPECT_STREQ("experimental_verify=1 is not supported: blkqual records each block's "
		     "generation, it replays nothing", err.msg);
	ASSERT_EQ(2, err.nr_more);
	snprintf(want, sizeof(want), "%s:5: fio option 'exec_prerun' is not supported by "
		 "blkqual: blkqual runs no programs around a job", path);
	EXPECT_STREQ(want, err.more[0]);
	snprintf(want, sizeof(want), "%s:7: unknown option 'iodepht' (did you mean 'iodepth'?)",
		 path);
	EXPECT_STREQ(want, err.more[1]);
	EXPECT_EQ(0, err.more_dropped);

	n = (size_t)snprintf(text, sizeof(text), "[j]\nfilename=/dev/null\n");
	for (int i = 0; i < BQ_PARSE_MORE + 4; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "exec_prerun=x\n");
	ASSERT_EQ(-EOPNOTSUPP, parse_text(text, &set, &err));
	EXPECT_EQ(BQ_PARSE_MORE, err.nr_more);
	EXPECT_EQ(3, err.more_dropped);
}

/* fio's harmless ones: description is a comment, buffered the opposite of direct. */
TEST(description_and_buffered_as_in_fio)
{
	struct bq_parse_error err;
	struct bq_job job, def;

	bq_job_defaults(&def);
	EXPECT_EQ(0, set1("description", "4k random reads, as the vendor's guide has it", &job,
			  &err));
	EXPECT_TRUE(same_job(&def, &job));
	EXPECT_EQ(0, set1("buffered", "0", &job, &err));
	EXPECT_TRUE(job.direct);
	EXPECT_EQ(0, set1("buffered", "1", &job, &err));
	EXPECT_FALSE(job.direct);
	EXPECT_EQ(-EINVAL, set1("buffered", "maybe", NULL, &err));
}

TEST(unsupported_versus_unknown)
{
	static const char *const fio_only[] = {
		"verify_state_load", "verify_state_save", "cgroup", "lockmem",
		"log_store_compressed", "bwavgtime", "log_compression", "fadvise_hint",
		"slat_percentiles", "output-format",
		"fadvise_hint", "sync_file_range",
		"allow_mounted_write", "unified_rw_reporting",
		"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
		"readonly",
	};
	struct bq_parse_error err;

	for (size_t i = 0; i < ARRAY_SIZE(fio_only); i++) {
		EXPECT_EQ(-EOPNOTSUPP, set1(fio_only[i], "1", NULL, &err))
			TH_LOG("%s", fio_only[i]);
	}
	EXPECT_EQ(-EOPNOTSUPP, set1("experimental_verify", "1", NULL, &err));
	EXPECT_STREQ("experimental_verify=1 is not supported: blkqual records each block's "
		     "generation, it replays nothing", err.msg);

	EXPECT_EQ(-ENOENT, set1("iodpeth", "4", NULL, &err));
	EXPECT_STREQ("unknown option 'iodpeth' (did you mean 'iodepth'?)", err.msg);
	EXPECT_EQ(-ENOENT, set1("bsplit", "4k/100", NULL, &err));
	EXPECT_STREQ("unknown option 'bsplit' (did you mean 'bssplit'?)", err.msg);
	EXPECT_EQ(-ENOENT, set1("runtim", "4", NULL, &err));
	EXPECT_STREQ("unknown option 'runtim' (did you mean 'runtime'?)", err.msg);
	EXPECT_EQ(-ENOENT, set1("random_dist", "zipf:1.1", NULL, &err));
	EXPECT_STREQ("unknown option 'random_dist' (did you mean 'random_distribution'?)",
		     err.msg);
	EXPECT_EQ(-ENOENT, set1("frobnicate", "1", NULL, &err));
	EXPECT_STREQ("unknown option 'frobnicate'", err.msg);
	/* fio's own alias of bs. */
	EXPECT_EQ(0, set1("blocksize", "8k", NULL, &err));
}

TEST(job_check)
{
	struct bq_parse_error err;
	struct bq_job job;

	bq_job_defaults(&job);
	/* No filename=: fio names the job's files itself (jobname.0.0), so does blkqual. */
	EXPECT_EQ(0, bq_job_check(&job, &err));
	ASSERT_EQ(0, bq_job_set(&job, "filename", "/dev/null", &err));
	EXPECT_EQ(0, bq_job_check(&job, &err));

	ASSERT_EQ(0, bq_job_set(&job, "time_based", NULL, &err));
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	EXPECT_STREQ("time_based needs runtime", err.msg);
	ASSERT_EQ(0, bq_job_set(&job, "runtime", "10", &err));
	ASSERT_EQ(0, bq_job_set(&job, "ramp_time", "2", &err));
	EXPECT_EQ(0, bq_job_check(&job, &err));
	/* fsync without writes is harmless. */
	ASSERT_EQ(0, bq_job_set(&job, "fsync", "1", &err));
	EXPECT_EQ(0, bq_job_check(&job, &err));

	/* Structs filled in by hand get the same checks as parsed ones. */
	job.bs[BQ_WRITE] = 100;
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	job.bs[BQ_WRITE] = 4096;
	job.bs_min[BQ_READ] = 8192;
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	job.bs_min[BQ_READ] = 4096;
	job.nr_bssplit[BQ_READ] = 1;
	job.bssplit[BQ_READ][0].bs = 4096;
	job.bssplit[BQ_READ][0].pct = 99;
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	EXPECT_NE(NULL, strstr(err.msg, "99%")) TH_LOG("%s", err.msg);
	job.nr_bssplit[BQ_READ] = 0;
	job.rwmixread = 101;
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	job.rwmixread = 50;
	job.iodepth = 0;
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	job.iodepth = 1;
	EXPECT_EQ(0, bq_job_check(&job, &err));
	bq_job_release(&job);
}

TEST(job_copy_is_deep)
{
	struct bq_parse_error err;
	struct bq_job a, b;

	bq_job_defaults(&a);
	ASSERT_EQ(0, bq_job_set(&a, "filename", "/dev/a:/dev/b", &err));
	ASSERT_EQ(0, bq_job_copy(&b, &a));
	EXPECT_TRUE(same_job(&a, &b));
	EXPECT_NE(a.filenames[0], b.filenames[0]);
	bq_job_release(&a);
	EXPECT_STREQ("/dev/b", b.filenames[1]);
	bq_job_release(&b);
}

/* ---- the three ways of writing a job ------------------------------------ */

static const char three_forms_file[] =
	"; the job of the three-forms test, as a job file\n"
	"[global]\n"
	"filename=/dev/x\n"
	"direct=1\n"
	"ioengine=libaio\n"
	"\n"
	"[x]\n"
	"rw=randread\n"
	"bs=4k\n"
	"iodepth=32\n"
	"runtime=10\n"
	"time_based\n"
	"random_distribution=zipf:1.2\n"
	"cpus_allowed=0-3\n";

TEST(three_forms_agree)
{
	char *dashes[] = {
		"--filename=/dev/x", "--direct=1", "--ioengine", "libaio", "--name=x",
		"--rw=randread", "--bs", "4k", "--iodepth=32", "--runtime", "10", "--time_based",
		"--random_distribution=zipf:1.2", "--cpus_allowed=0-3",
	};
	char *fio[] = {
		"-filename=/dev/x", "-direct=1", "-ioengine=libaio", "-name=x", "-rw=randread",
		"-bs=4k", "-iodepth=32", "-runtime=10", "-time_based",
		"-random_distribution=zipf:1.2", "-cpus_allowed=0-3",
	};
	struct bq_jobset a, b, c;
	struct bq_parse_error err;

	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(dashes), dashes, &a, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, bq_jobs_from_args(ARRAY_SIZE(fio), fio, &b, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, parse_text(three_forms_file, &c, &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, a.nr);
	ASSERT_EQ(1, b.nr);
	ASSERT_EQ(1, c.nr);
	EXPECT_STREQ("x", c.jobs[0].name);
	EXPECT_EQ(BQ_RW_RANDREAD, c.jobs[0].rw);
	EXPECT_EQ(32, c.jobs[0].iodepth);
	EXPECT_TRUE(c.jobs[0].direct);
	EXPECT_TRUE(c.jobs[0].time_based);
	EXPECT_EQ(BQ_ENGINE_LIBAIO, c.jobs[0].engine);
	EXPECT_STREQ("/dev/x", c.jobs[0].filenames[0]);
	EXPECT_TRUE(same_job(&a.jobs[0], &b.jobs[0]));
	EXPECT_TRUE(same_job(&a.jobs[0], &c.jobs[0]));
	bq_jobset_free(&a);
	bq_jobset_free(&b);
	bq_jobset_free(&c);
	EXPECT_EQ(0, c.nr);
	EXPECT_EQ(NULL, c.jobs);
}

/* ---- job files ------------------------------------------------------------ */

TEST(jobfile_env_expansion)
{
	struct bq_jobset set;
	struct bq_parse_error err;
	char path[64];

	setenv("BQ_TEST_DEV", "/dev/fake0", 1);
	setenv("BQ_TEST_DEPTH", "16", 1);
	ASSERT_EQ(0, parse_text("[${BQ_TEST_DEV}-job]\nfilename=${BQ_TEST_DEV}:/dev/y\n"
				"iodepth=${BQ_TEST_DEPTH}\nsize=${BQ_TEST_DEPTH}g\n",
				&set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_STREQ("/dev/fake0-job", set.jobs[0].name);
	EXPECT_STREQ("/dev/fake0", set.jobs[0].filenames[0]);
	EXPECT_STREQ("/dev/y", set.jobs[0].filenames[1]);
	EXPECT_EQ(16, set.jobs[0].iodepth);
	EXPECT_EQ(16 * GiB, set.jobs[0].size);
	bq_jobset_free(&set);

	/* As in fio, an unset variable is the empty string: here an empty value. */
	unsetenv("BQ_TEST_UNSET");
	EXPECT_EQ(-EINVAL, parse_text_at("[a]\nfilename=/dev/x\n\nbs=${BQ_TEST_UNSET}\n", path,
					 &set, &err));
	EXPECT_STREQ("bs needs a value", err.msg);
	EXPECT_NE(NULL, strstr(err.where, ":4")) TH_LOG("%s", err.where);
	EXPECT_EQ(-EINVAL, parse_text("[a]\nfilename=${BQ_TEST_DEV\n", &set, &err));
	EXPECT_EQ(0, set.nr);
}

TEST(jobfile_comments_and_blanks)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	/* "4;x" is a value, and a bad one: a comment needs white space before it. */
	EXPECT_EQ(-EINVAL, parse_text("[a]\nfilename=/dev/x\niodepth=4;x\n", &set, &err));
	EXPECT_STREQ("iodepth=4;x: not a whole number", err.msg);

	ASSERT_EQ(0, parse_text("# leading comment\n"
				"; another\n"
				"\n"
				"   [ spaced ]   ; a job\n"
				"  filename = /dev/x#1   # the # in the name stays\n"
				"\tbs\t=\t8k\t; trailing\r\n"
				"   ; indented comment\n"
				"time_based   # flag with a comment\n"
				"runtime=1\n",
				&set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_STREQ("spaced", set.jobs[0].name);
	EXPECT_STREQ("/dev/x#1", set.jobs[0].filenames[0]);
	EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_READ]);
	EXPECT_TRUE(set.jobs[0].time_based);
	bq_jobset_free(&set);
}

TEST(jobfile_later_global_affects_later_jobs)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, parse_text("[global]\nfilename=/dev/x\nbs=8k\n"
				"[first]\nrw=write\n"
				"[global]\niodepth=64\nbs=16k\n"
				"[second]\n"
				"[third]\nbs=32k\nfilename=/dev/y\n",
				&set, &err))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(3, set.nr);
	EXPECT_STREQ("first", set.jobs[0].name);
	EXPECT_EQ(BQ_RW_WRITE, set.jobs[0].rw);
	EXPECT_EQ(1, set.jobs[0].iodepth);
	EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_WRITE]);
	EXPECT_EQ(BQ_RW_READ, set.jobs[1].rw);
	EXPECT_EQ(64, set.jobs[1].iodepth);
	EXPECT_EQ(16 * KiB, set.jobs[1].bs[BQ_WRITE]);
	EXPECT_STREQ("/dev/x", set.jobs[1].filenames[0]);
	EXPECT_EQ(32 * KiB, set.jobs[2].bs[BQ_READ]);
	EXPECT_EQ(64, set.jobs[2].iodepth);
	EXPECT_STREQ("/dev/y", set.jobs[2].filenames[0]);
	/* Each job owns its own copy of an inherited filename. */
	EXPECT_NE(set.jobs[0].filenames[0], set.jobs[1].filenames[0]);
	bq_jobset_free(&set);
}

TEST(jobfile_errors_name_file_and_line)
{
	static const struct {
		const char *text;
		int ret;
		unsigned int line;
		const char *msg;
	} cases[] = {
		{ "[a]\nfilename=/dev/x\n\n; c\nbs=4q\n", -EINVAL, 5, "bs: '4q' is not a size" },
		{ "bs=4k\n[a]\n", -EINVAL, 1, "before any section" },
		{ "[a]\nfilename=/dev/x\ninclude blkqual-no-such.fio\n", -ENOENT, 3,
		  "blkqual-no-such.fio" },
		{ "[a\nfilename=/dev/x\n", -EINVAL, 1, "closing ']'" },
		{ "[]\n", -EINVAL, 1, "section without a name" },
		{ "[a]\n=4k\n", -EINVAL, 2, "without an option name" },
		{ "[a]\nfilename=/dev/x\nexperimental_verify=1\n", -EOPNOTSUPP, 3,
		  "experimental_verify=1 is not supported" },
		{ "[a]\nfilename=/dev/x\nblocksiz=4k\n", -ENOENT, 3, "did you mean 'blocksize'?" },
		{ "[a]\nfilename=/dev/x\ndirect\n", -EINVAL, 3, "direct needs a value" },
		{ "[global]\nfilename=/dev/x\n", -EINVAL, 0, "no job sections" },
		{ "", -EINVAL, 0, "no job sections" },
	};
	struct bq_jobset set;
	struct bq_parse_error err;
	char path[64], where[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(cases[i].ret, parse_text_at(cases[i].text, path, &set, &err))
			TH_LOG("case %zu: %s", i, err.msg);
		if (cases[i].line)
			snprintf(where, sizeof(where), "%s:%u", path, cases[i].line);
		else
			snprintf(where, sizeof(where), "%s", path);
		EXPECT_STREQ(where, err.where) TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].msg)) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_EQ(0, set.nr);
	}
}

TEST(jobfile_check_names_the_section)
{
	struct bq_jobset set;
	struct bq_parse_error err;
	char path[64], where[128];

	EXPECT_EQ(-EINVAL, parse_text_at("[global]\nbs=4k\n\n[ok]\nfilename=/dev/x\n\n"
					 "[notime]\nrw=write\ntime_based\n\n[never]\nfilename=/dev/y\n",
					 path, &set, &err));
	snprintf(where, sizeof(where), "%s:7", path);
	EXPECT_STREQ(where, err.where);
	EXPECT_STREQ("job 'notime': time_based needs runtime", err.msg);
	EXPECT_EQ(0, set.nr);

	EXPECT_EQ(-EINVAL, parse_text_at("[t]\nfilename=/dev/x\ntime_based\n", path, &set, &err));
	snprintf(where, sizeof(where), "%s:1", path);
	EXPECT_STREQ(where, err.where);
	EXPECT_STREQ("job 't': time_based needs runtime", err.msg);
}

TEST(jobfile_missing)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	EXPECT_EQ(-ENOENT, bq_jobfile_parse("/nonexistent/blkqual.fio", &set, &err));
	EXPECT_STREQ("/nonexistent/blkqual.fio", err.where);
	EXPECT_EQ(0, set.nr);
}

/* ---- command lines -------------------------------------------------------- */

TEST(args_globals_and_jobs)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, args(&set, &err, 9, "--filename=/dev/x", "--bs=8k", "--name=a",
			  "--rw=write", "-name=b", "-iodepth", "8", "--name", "c"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(3, set.nr);
	EXPECT_STREQ("a", set.jobs[0].name);
	EXPECT_EQ(BQ_RW_WRITE, set.jobs[0].rw);
	EXPECT_EQ(8 * KiB, set.jobs[0].bs[BQ_READ]);
	EXPECT_STREQ("b", set.jobs[1].name);
	EXPECT_EQ(BQ_RW_READ, set.jobs[1].rw);
	EXPECT_EQ(8, set.jobs[1].iodepth);
	EXPECT_EQ(8 * KiB, set.jobs[1].bs[BQ_WRITE]);
	EXPECT_STREQ("c", set.jobs[2].name);
	EXPECT_EQ(1, set.jobs[2].iodepth);
	EXPECT_STREQ("/dev/x", set.jobs[2].filenames[0]);
	/* numjobs is the engine's to expand, not the parser's. */
	bq_jobset_free(&set);
	ASSERT_EQ(0, args(&set, &err, 3, "--filename=/dev/x", "--numjobs=4", "--name=a"));
	EXPECT_EQ(1, set.nr);
	EXPECT_EQ(4, set.jobs[0].numjobs);
	bq_jobset_free(&set);
}

TEST(args_without_name_are_one_job)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, args(&set, &err, 3, "--filename=/dev/x", "--rw=randread", "--bs=4k"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_STREQ("job", set.jobs[0].name);
	EXPECT_EQ(BQ_RW_RANDREAD, set.jobs[0].rw);
	bq_jobset_free(&set);
	EXPECT_EQ(-EINVAL, args(&set, &err, 0));
	EXPECT_STREQ("no job given", err.msg);
}

TEST(args_flags_do_not_take_the_next_argument)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	ASSERT_EQ(0, args(&set, &err, 6, "--filename", "/dev/x", "--time_based", "--runtime",
			  "5s", "--norandommap"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(1, set.nr);
	EXPECT_TRUE(set.jobs[0].time_based);
	EXPECT_TRUE(set.jobs[0].norandommap);
	EXPECT_EQ(5 * NS_PER_S, set.jobs[0].runtime_ns);
	bq_jobset_free(&set);
	/* The "1" after a flag is not its value but a job file name. */
	EXPECT_EQ(-ENOENT, args(&set, &err, 3, "--filename=/dev/x", "--group_reporting", "1"));
	EXPECT_STREQ("1", err.where);
}

TEST(args_errors_name_the_argument_as_typed)
{
	struct bq_jobset set;
	struct bq_parse_error err;

	EXPECT_EQ(-EINVAL, args(&set, &err, 3, "--filename=/dev/x", "-iodepth=0", "--name=a"));
	EXPECT_STREQ("-iodepth=0", err.where);
	EXPECT_EQ(-EINVAL, args(&set, &err, 3, "--name=a", "--iodepth", "0"));
	EXPECT_STREQ("--iodepth 0", err.where);
	EXPECT_EQ(-EINVAL, args(&set, &err, 2, "--name=a", "--bs"));
	EXPECT_STREQ("--bs", err.where);
	EXPECT_STREQ("bs needs a value", err.msg);
	/* An option is never taken for the value of the one before it. */
	EXPECT_EQ(-EINVAL, args(&set, &err, 3, "--filename=/dev/x", "--direct", "--name=x"));
	EXPECT_STREQ("--direct", err.where);
	EXPECT_STREQ("direct needs a value", err.msg);
	EXPECT_EQ(-ENOENT, args(&set, &err, 2, "--blocksiz=4k", "--name=a"));
	EXPECT_STREQ("--blocksiz=4k", err.where);
	EXPECT_STREQ("unknown option 'blocksiz' (did you mean 'blocksize'?)", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, args(&set, &err, 2, "--name=a", "-experimental_verify=1"));
	EXPECT_STREQ("-experimental_verify=1", err.where);
	EXPECT_EQ(-EINVAL, args(&set, &err, 4, "--name=a", "--time_based", "--name=b",
				"--filename=/dev/x"));
	EXPECT_STREQ("--name=a", err.where);
	EXPECT_STREQ("job 'a': time_based needs runtime", err.msg);
	EXPECT_EQ(-EINVAL, args(&set, &err, 1, "--=4"));
	EXPECT_EQ(0, set.nr);
}

TEST(args_mixed_with_job_files)
{
	struct bq_jobset set;
	struct bq_parse_error err;
	char path[64];

	ASSERT_NE(NULL, jobfile(path, "[f1]\nrw=randwrite\n[f2]\nbs=64k\n"));
	/* Options before a job file are its defaults, as with fio. */
	EXPECT_EQ(0, args(&set, &err, 5, "--filename=/dev/x", "--iodepth=4", path,
			  "--name=after", "--rw=write"))
		TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(3, set.nr);
	EXPECT_STREQ("f1", set.jobs[0].name);
	EXPECT_EQ(BQ_RW_RANDWRITE, set.jobs[0].rw);
	EXPECT_EQ(4, set.jobs[0].iodepth);
	EXPECT_STREQ("/dev/x", set.jobs[1].filenames[0]);
	EXPECT_EQ(64 * KiB, set.jobs[1].bs[BQ_READ]);
	EXPECT_STREQ("after", set.jobs[2].name);
	EXPECT_EQ(BQ_RW_WRITE, set.jobs[2].rw);
	bq_jobset_free(&set);

	/* An option after the last job that nothing follows would be lost. */
	EXPECT_EQ(-EINVAL, args(&set, &err, 3, "--filename=/dev/x", path, "--iodepth=8"));
	EXPECT_STREQ("--iodepth=8", err.where);
	EXPECT_NE(NULL, strstr(err.msg, "applies to no job"));

	/* Without filename= anywhere, fio's implicit files: no error. */
	EXPECT_EQ(0, args(&set, &err, 1, path));
	EXPECT_EQ(0, set.jobs[0].nr_files);
	bq_jobset_free(&set);
	unlink(path);

	/* The job file's own errors keep their path:line. */
	ASSERT_NE(NULL, jobfile(path, "[f1]\ntime_based\n"));
	EXPECT_EQ(-EINVAL, args(&set, &err, 1, path));
	EXPECT_NE(NULL, strstr(err.where, ":1")) TH_LOG("%s", err.where);
	EXPECT_STREQ("job 'f1': time_based needs runtime", err.msg);
	unlink(path);
	EXPECT_EQ(0, set.nr);
}

/* Written back as options and parsed again, a job comes back byte for byte. */
static void check_round_trip(struct __test_metadata *_metadata, int argc, char **argv)
{
	struct bq_jobset a = { 0 }, b = { 0 };
	struct bq_parse_error err = { 0 };
	struct bq_strv out = { 0 };

	ASSERT_EQ(0, bq_jobs_from_args(argc, argv, &a, &err)) {
		TH_LOG("%s: %s", err.where, err.msg);
	}
	for (size_t k = 0; k < a.nr; k++)
		ASSERT_EQ(0, bq_job_to_args(&a.jobs[k], &out));
	ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) {
		TH_LOG("%s: %s", err.where, err.msg);
	}
	ASSERT_EQ(a.nr, b.nr);
	for (size_t k = 0; k < a.nr; k++) {
		EXPECT_TRUE(same_job(&a.jobs[k], &b.jobs[k])) {
			for (size_t i = 0; i < out.n; i++)
				TH_LOG("%s", out.v[i]);
		}
	}
	bq_strv_free(&out);
	bq_jobset_free(&a);
	bq_jobset_free(&b);
}

TEST(job_to_args_round_trip)
{
	char *plain[] = { "--filename=/dev/x" };
	char *rich[] = {
		"--filename=/tmp/a\\:b:/tmp/c", "--name=one", "--rw=randrw", "--rwmixread=70",
		"--bs=4k,64k", "--iodepth=32", "--iodepth_batch_complete_min=8", "--numjobs=3",
		"--size=50%", "--offset=1m", "--io_size=3g", "--runtime=1.5", "--time_based",
		"--ramp_time=250ms", "--startdelay=2", "--thinktime=7", "--direct=1", "--sync=1",
		"--fsync=16", "--randrepeat=0", "--randseed=1234", "--norandommap",
		"--random_distribution=zipf:1.2", "--rate_iops=5000", "--group_reporting",
		"--ioengine=io_uring", "--poll=off", "--fixedbufs=0", "--registerfiles=0",
		"--sqthread_poll", "--gtod_reduce=1", "--cpus_allowed=0-1", "--continue_on_error=io",
		"--ignore_error=EAGAIN,ENOSPC:122", "--error_dump=1", "--verify_dump=1",
		"--name=two", "--rw=read", "--ioengine=libaio", "--bsrange=512-8k", "--ba=512", "--size=1g",
		"--random_distribution=pareto:0.2", "--rate=1m,512k", "--rate_min=100k",
		"--rate_process=poisson", "--thinktime=50", "--thinktime_blocks=4",
		"--thinktime_spin=3", "--max_latency=10ms,20ms", "--ss=bw:2m", "--ss_dur=5",
		"--latency_target=2ms", "--latency_percentile=99.5",
		"--name=three", "--rw=randwrite", "--bssplit=4k/60:16k/40,8k/100",
	};

	check_round_trip(_metadata, ARRAY_SIZE(plain), plain);
	check_round_trip(_metadata, ARRAY_SIZE(rich), rich);
}

TEST_HARNESS_MAIN
