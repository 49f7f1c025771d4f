// SPDX-License-Identifier: GPL-2.0-only
/*
 * buffers_test.c - what writes carry: zero_buffers, refill_buffers,
 * scramble_buffers (fio's default), buffer_pattern,
 * buffer_compress_percentage/_chunk, dedupe_percentage, dedupe_mode,
 * dedupe_working_set_percentage.
 *
 * The parse cases need nothing.  On a scratch loop device each job is run
 * by blkqual and then by fio 3.33 from the same job file; after each run
 * the test reads the written region back and measures it: the share of
 * 4 KiB blocks that repeat an earlier one (hashed), the share of zero
 * bytes, and how far gzip -1 shrinks it.  blkqual must count the same
 * I/Os and bytes as fio, and the measures must agree within the
 * tolerances stated with each case.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_io.h"
#include "job/jobopt.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* ---- parsing ------------------------------------------------------------------ */

static int set_all(struct bq_job *job, const char *const *kv, struct bq_parse_error *err)
{
	bq_job_defaults(job);
	for (int i = 0; kv[i]; i += 2) {
		int ret = bq_job_set(job, kv[i], kv[i + 1], err);

		if (ret)
			return ret;
	}
	return 0;
}

TEST(defaults_are_fios)
{
	struct bq_job job;

	bq_job_defaults(&job);
	EXPECT_TRUE(job.scramble_buffers);
	EXPECT_FALSE(job.zero_buffers);
	EXPECT_FALSE(job.refill_buffers);
	EXPECT_EQ(512, job.compress_chunk);
	EXPECT_EQ(5, job.dedupe_ws_pct);
	EXPECT_EQ(BQ_DEDUPE_REPEAT, job.dedupe_mode);
}

TEST(good_values)
{
	static const char *const kv[] = {
		"zero_buffers", NULL, "refill_buffers", "1", "scramble_buffers", "0",
		"buffer_compress_percentage", "40", "buffer_compress_chunk", "4k",
		"dedupe_percentage", "25", "dedupe_mode", "working_set",
		"dedupe_working_set_percentage", "10", "dedupe_global", "0", NULL,
	};
	struct bq_parse_error err = { 0 };
	struct bq_job job;

	ASSERT_EQ(0, set_all(&job, kv, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(job.zero_buffers && job.zero_buffers_set);
	EXPECT_TRUE(job.refill_buffers && job.refill_buffers_set);
	EXPECT_TRUE(!job.scramble_buffers && job.scramble_buffers_set);
	EXPECT_EQ(40, job.compress_pct);
	EXPECT_EQ(4096, job.compress_chunk);
	EXPECT_EQ(25, job.dedupe_pct);
	EXPECT_EQ(BQ_DEDUPE_WORKING_SET, job.dedupe_mode);
	EXPECT_EQ(10, job.dedupe_ws_pct);
}

/* fio's pattern syntax: strings, hex, decimals (little-endian), joined. */
TEST(buffer_pattern_syntax)
{
	static const struct {
		const char *in;
		const char *out;
		size_t len;
	} cases[] = {
		{ "0xdeadbeef", "\xde\xad\xbe\xef", 4 },
		{ "\"abcd\"", "abcd", 4 },
		{ "-12", "\xf4\xff\xff\xff", 4 },
		{ "66", "\x42", 1 },
		{ "0", "\x00", 1 },
		{ "0xFF0X1", "\xff\x01", 2 },
		{ "\"123\"0xFFeeCC", "123\xff\xee\xcc", 6 },
		{ "-100xab\"1\"", "\xf6\xff\xff\xff\xab" "1", 6 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_job job;

		bq_job_defaults(&job);
		ASSERT_EQ(0, bq_job_set(&job, "buffer_pattern", cases[i].in, &err)) {
			TH_LOG("%s: %s", cases[i].in, err.msg);
		}
		EXPECT_EQ(cases[i].len, job.buffer_pattern_len) TH_LOG("%s", cases[i].in);
		EXPECT_EQ(0, memcmp(cases[i].out, job.buffer_pattern, cases[i].len)) {
			TH_LOG("%s", cases[i].in);
		}
	}
}

/* A 'file' part gives the file's first bytes, as many as fit in 512. */
TEST(buffer_pattern_from_file)
{
	char path[] = "/tmp/bq_pattern_XXXXXX", val[1200];
	struct bq_parse_error err = { 0 };
	uint8_t big[600];
	struct bq_job job;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ(3, write(fd, "PAT", 3));
	bq_job_defaults(&job);
	snprintf(val, sizeof(val), "\"x\"'%s'0x01", path);
	EXPECT_EQ(0, bq_job_set(&job, "buffer_pattern", val, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(5, job.buffer_pattern_len);
	EXPECT_EQ(0, memcmp("xPAT\x01", job.buffer_pattern, 5));
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)i;
	ASSERT_EQ((ssize_t)sizeof(big), pwrite(fd, big, sizeof(big), 0));
	close(fd);
	snprintf(val, sizeof(val), "0xffff'%s'", path);
	EXPECT_EQ(0, bq_job_set(&job, "buffer_pattern", val, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(512, job.buffer_pattern_len);
	EXPECT_EQ(0, memcmp(big, job.buffer_pattern + 2, 510));
	/* Full already: nothing left for the file. */
	snprintf(val, sizeof(val), "0x%0*d'%s'", 1024, 0, path);
	EXPECT_EQ(-EINVAL, bq_job_set(&job, "buffer_pattern", val, &err));
	unlink(path);
}

/* fio's callback: the pattern switches zeroing and scrambling off, refill on for readers. */
TEST(buffer_pattern_side_effects)
{
	static const char *const w[] = { "rw", "write", "zero_buffers", NULL,
					 "buffer_pattern", "0xab", NULL };
	static const char *const rw[] = { "rw", "randrw", "buffer_pattern", "0xab", NULL };
	static const char *const after[] = { "buffer_pattern", "0xab", "scramble_buffers", "1",
					     NULL };
	struct bq_parse_error err = { 0 };
	struct bq_job job;

	ASSERT_EQ(0, set_all(&job, w, &err));
	EXPECT_FALSE(job.zero_buffers);
	EXPECT_FALSE(job.scramble_buffers);
	EXPECT_FALSE(job.refill_buffers);
	ASSERT_EQ(0, set_all(&job, rw, &err));
	EXPECT_TRUE(job.refill_buffers);
	ASSERT_EQ(0, set_all(&job, after, &err));
	EXPECT_TRUE(job.scramble_buffers);
}

TEST(refused_values)
{
	static const struct {
		const char *key, *val;
		int ret;
	} cases[] = {
		{ "buffer_compress_percentage", "101", -EINVAL },
		{ "buffer_compress_percentage", "-1", -EINVAL },
		{ "buffer_compress_percentage", "50%", -EINVAL },
		{ "dedupe_percentage", "200", -EINVAL },
		{ "dedupe_working_set_percentage", "x", -EINVAL },
		{ "dedupe_mode", "random", -EINVAL },
		{ "buffer_compress_chunk", "lots", -EINVAL },
		{ "zero_buffers", "2", -EINVAL },
		{ "scramble_buffers", "yes", -EINVAL },
		{ "buffer_pattern", "'/nonexistent/pattern'", -EINVAL },
		{ "buffer_pattern", "'/dev/null'", -EINVAL },
		{ "buffer_pattern", "'unterminated", -EINVAL },
		{ "buffer_pattern", "%o", -EINVAL },
		{ "buffer_pattern", "0x00\"ab\"%o", -EINVAL },
		{ "buffer_pattern", "\"open", -EINVAL },
		{ "buffer_pattern", "0x", -EINVAL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_job job;

		bq_job_defaults(&job);
		EXPECT_EQ(cases[i].ret, bq_job_set(&job, cases[i].key, cases[i].val, &err)) {
			TH_LOG("%s=%s", cases[i].key, cases[i].val);
		}
		EXPECT_NE(NULL, strstr(err.msg, cases[i].key)) TH_LOG("%s", err.msg);
		EXPECT_EQ(NULL, strchr(err.msg, '\n'));
	}
}

/* Combinations refused when the whole job is checked. */
TEST(refused_combinations)
{
	static const char *const verify_compress[] = {
		"filename", "/dev/x", "rw", "write", "verify", "crc32c",
		"buffer_compress_percentage", "50", NULL,
	};
	static const char *const ws_global[] = {
		"filename", "/dev/x", "rw", "write", "size", "1g", "dedupe_percentage", "10",
		"dedupe_mode", "working_set", "dedupe_global", "1", NULL,
	};
	static const char *const ws_nosize[] = {
		"filename", "/dev/x", "rw", "write", "dedupe_percentage", "10",
		"dedupe_mode", "working_set", NULL,
	};
	static const char *const ws_over[] = {
		"filename", "/dev/x", "rw", "write", "size", "1g", "dedupe_percentage", "96",
		"dedupe_mode", "working_set", NULL,
	};
	/* With verify, fio ignores these for the payload, as blkqual does: accepted. */
	static const char *const verify_ok[] = {
		"filename", "/dev/x", "rw", "write", "verify", "crc32c", "zero_buffers", NULL,
		"buffer_pattern", "0x11", "dedupe_percentage", "50",
		"buffer_compress_percentage", "100", NULL,
	};
	struct bq_parse_error err = { 0 };
	struct bq_job job;

	ASSERT_EQ(0, set_all(&job, verify_compress, &err));
	EXPECT_EQ(-EOPNOTSUPP, bq_job_check(&job, &err));
	EXPECT_STREQ("buffer_compress_percentage=50 with verify is not supported", err.msg);
	bq_job_release(&job);
	ASSERT_EQ(0, set_all(&job, ws_global, &err));
	EXPECT_EQ(0, bq_job_check(&job, &err)) TH_LOG("%s", err.msg);
	bq_job_release(&job);
	ASSERT_EQ(0, set_all(&job, ws_nosize, &err));
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	bq_job_release(&job);
	ASSERT_EQ(0, set_all(&job, ws_over, &err));
	EXPECT_EQ(-EINVAL, bq_job_check(&job, &err));
	bq_job_release(&job);
	ASSERT_EQ(0, set_all(&job, verify_ok, &err));
	EXPECT_EQ(0, bq_job_check(&job, &err)) TH_LOG("%s", err.msg);
	bq_job_release(&job);
}

/* Written back as options (result files, --replay), whatever the order given. */
TEST(round_trip)
{
	static const char *const orders[][16] = {
		{ "--buffer_pattern=\"xy\"", "--dedupe_percentage=20", NULL },
		{ "--dedupe_percentage=20", "--buffer_pattern=\"xy\"", NULL },
		{ "--buffer_pattern=0x01", "--buffer_compress_percentage=30", NULL },
		{ "--buffer_compress_percentage=30", "--buffer_pattern=0x01", NULL },
		{ "--zero_buffers", "--buffer_pattern=7", "--scramble_buffers=1",
		  "--refill_buffers=0", NULL },
		{ "--buffer_compress_percentage=100", "--buffer_compress_chunk=0",
		  "--dedupe_percentage=50", "--dedupe_mode=working_set",
		  "--dedupe_working_set_percentage=50", "--dedupe_global=1", NULL },
		{ "--dedupe_percentage=5", "--dedupe_global=1", "--zero_buffers=0", NULL },
	};

	for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
		struct bq_jobset a = { 0 }, b = { 0 };
		struct bq_parse_error err = { 0 };
		struct bq_strv out = { 0 };
		char *argv[20] = { "--filename=/dev/x", "--rw=write", "--size=1g" };
		int argc = 3;

		for (int i = 0; orders[o][i]; i++)
			argv[argc++] = (char *)orders[o][i];
		ASSERT_EQ(0, bq_jobs_from_args(argc, argv, &a, &err)) TH_LOG("%s", err.msg);
		ASSERT_EQ(0, bq_job_to_args(&a.jobs[0], &out));
		ASSERT_EQ(0, bq_jobs_from_args((int)out.n, out.v, &b, &err)) {
			TH_LOG("%s: %s", err.where, err.msg);
		}
		/* The options as given (fio's "job options") are the spelling, not the job. */
		memset(a.jobs[0].fio_given, 0, sizeof(a.jobs[0].fio_given));
		memset(b.jobs[0].fio_given, 0, sizeof(b.jobs[0].fio_given));
		a.jobs[0].fio_given_own = b.jobs[0].fio_given_own = 0;
		/* The filename pointers differ; the buffer block does not. */
		EXPECT_EQ(0, memcmp(&a.jobs[0].zero_buffers, &b.jobs[0].zero_buffers,
				    sizeof(struct bq_job) -
				    offsetof(struct bq_job, zero_buffers))) {
			for (size_t i = 0; i < out.n; i++)
				TH_LOG("case %zu: %s", o, out.v[i]);
		}
		bq_strv_free(&out);
		bq_jobset_free(&a);
		bq_jobset_free(&b);
	}
}

/* ---- on a device, against fio ------------------------------------------------ */

#define REGION	(8 << 20)
#define BLOCK	4096

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char job[300];
	uint8_t *data;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	self->data = NULL;
	scratch_device(&self->p, &self->s, 64 << 20);
	snprintf(self->job, sizeof(self->job), "%s/buf.fio", self->s.dir);
	if (prep_ok(&self->p) && posix_memalign((void **)&self->data, 4096, REGION))
		prep_fail(&self->p, "allocating the read-back buffer", -ENOMEM);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->s.dir[0])
		unlink(self->job);
	free(self->data);
	scratch_destroy(&self->s);
}

/**
 * struct measure - what a run left in the region
 * @ios: write I/Os the tool reported
 * @bytes: bytes written it reported
 * @dup: share of 4 KiB blocks equal to an earlier block
 * @zero: share of zero bytes
 * @gz: gzip -1 size over the region's size
 */
struct measure {
	long long ios;
	long long bytes;
	double dup;
	double zero;
	double gz;
};

static uint64_t fnv64(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Fill the region with a marker, so that a block nobody wrote shows. */
static int mark_region(const char *dev, uint8_t *buf, off_t at)
{
	int fd = open(dev, O_WRONLY | O_DIRECT);
	ssize_t n;

	if (fd < 0)
		return -errno;
	memset(buf, 0xa5, REGION);
	n = pwrite(fd, buf, REGION, at);
	close(fd);
	return n == REGION ? 0 : -EIO;
}

static int read_region(const char *dev, uint8_t *buf, off_t at)
{
	int fd = open(dev, O_RDONLY | O_DIRECT);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, REGION, at);
	close(fd);
	return n == REGION ? 0 : -EIO;
}

static double gzip_ratio(const char *dir, const uint8_t *buf)
{
	char path[300], cmd[700];
	long long size = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/region.bin", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(buf, 1, REGION, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gzip -1 -c '%s' | wc -c", path);
	f = popen(cmd, "r");
	if (f) {
		if (fscanf(f, "%lld", &size) != 1)
			size = -1;
		pclose(f);
	}
	unlink(path);
	return size < 0 ? -1 : (double)size / REGION;
}

static void measure_region(const uint8_t *buf, const char *dir, struct measure *m)
{
	size_t nb = REGION / BLOCK, zeros = 0, distinct = 0;
	uint64_t *h = malloc(nb * sizeof(*h));

	for (size_t i = 0; h && i < nb; i++)
		h[i] = fnv64(buf + i * BLOCK, BLOCK);
	if (h) {
		qsort(h, nb, sizeof(*h), cmp_u64);
		for (size_t i = 0; i < nb; i++)
			distinct += !i || h[i] != h[i - 1];
	}
	free(h);
	for (size_t i = 0; i < REGION; i++)
		zeros += !buf[i];
	m->dup = 1.0 - (double)distinct / (double)nb;
	m->zero = (double)zeros / REGION;
	m->gz = gzip_ratio(dir, buf);
}

static int write_job(const char *path, const char *dev, const char *opts)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "[buf]\nfilename=%s\nrw=write\nbs=4k\nsize=%dm\ndirect=1\niodepth=4\n"
		"ioengine=io_uring\n%s\n", dev, REGION >> 20, opts);
	return fclose(f) ? -errno : 0;
}

/* blkqual on the job file, then the region measured; 0 or why not. */
static int run_blkqual_job(struct __test_metadata *_metadata, FIXTURE_DATA(dev) *self,
			   struct measure *m)
{
	const char *args[] = { self->job, NULL };
	struct run_result r;
	json_object *root, *j;

	if (mark_region(self->s.dev, self->data, 0))
		return -EIO;
	root = blkqual_run_json(&r, args);
	if (!root) {
		TH_LOG("blkqual exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -EINVAL;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	m->ios = json_int(j, "total.write.ios", -1);
	m->bytes = json_int(j, "total.write.bytes", -1);
	json_object_put(root);
	run_result_free(&r);
	if (read_region(self->s.dev, self->data, 0))
		return -EIO;
	measure_region(self->data, self->s.dir, m);
	return 0;
}

/* fio 3.33 on the same job file, JSON out. */
static int run_fio_job(struct __test_metadata *_metadata, FIXTURE_DATA(dev) *self,
		       struct measure *m)
{
	const char *argv[] = { "fio", "--output-format=json", self->job, NULL };
	struct run_result r;
	json_object *root, *j;

	if (mark_region(self->s.dev, self->data, 0))
		return -EIO;
	if (run_argv(argv, &r))
		return -EIO;
	root = r.status ? NULL : json_tokener_parse(r.out);
	if (!root) {
		TH_LOG("fio exit %d: %.300s", r.status, r.err ? r.err : "");
		run_result_free(&r);
		return -EINVAL;
	}
	j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	m->ios = json_int(j, "write.total_ios", -1);
	m->bytes = json_int(j, "write.io_bytes", -1);
	json_object_put(root);
	run_result_free(&r);
	if (read_region(self->s.dev, self->data, 0))
		return -EIO;
	measure_region(self->data, self->s.dir, m);
	return 0;
}

/*
 * Both tools on @opts: the same I/O counts, and each measure within its
 * tolerance of fio's (a negative tolerance skips that measure).
 */
static void against_fio(struct __test_metadata *_metadata, FIXTURE_DATA(dev) *self,
			const char *opts, double tol_dup, double tol_zero, double tol_gz,
			struct measure *bq, struct measure *fio)
{
	ASSERT_EQ(0, write_job(self->job, self->s.dev, opts));
	ASSERT_EQ(0, run_blkqual_job(_metadata, self, bq));
	TH_LOG("[%s] blkqual: %lld writes, %.4f repeated blocks, %.4f zero bytes, gzip %.4f",
	       opts, bq->ios, bq->dup, bq->zero, bq->gz);
	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	ASSERT_EQ(0, run_fio_job(_metadata, self, fio));
	TH_LOG("[%s] fio:     %lld writes, %.4f repeated blocks, %.4f zero bytes, gzip %.4f",
	       opts, fio->ios, fio->dup, fio->zero, fio->gz);
	EXPECT_EQ(fio->ios, bq->ios);
	EXPECT_EQ(fio->bytes, bq->bytes);
	if (tol_dup >= 0)
		EXPECT_LE(fabs(bq->dup - fio->dup), tol_dup);
	if (tol_zero >= 0)
		EXPECT_LE(fabs(bq->zero - fio->zero), tol_zero);
	if (tol_gz >= 0)
		EXPECT_LE(fabs(bq->gz - fio->gz), tol_gz);
}

#define NEEDS_GZIP() do { \
	if (need_program("gzip")) \
		SKIP(return, "%s", need_program("gzip")); \
} while (0)

/* Sectors that carry their own byte offset in one of their eight 64-byte lines. */
static size_t stamped_sectors(const uint8_t *buf)
{
	size_t n = 0;

	for (uint64_t off = 0; off < REGION; off += 512) {
		for (int line = 0; line < 8; line++) {
			uint64_t v;

			memcpy(&v, buf + off + line * 64, sizeof(v));
			if (v == off) {
				n++;
				break;
			}
		}
	}
	return n;
}

/*
 * No option: random bytes, every write stamped with each sector's
 * offset, so no two blocks alike.
 */
TEST_F(dev, default_writes_no_repeated_block)
{
	struct measure bq, fio;
	size_t bq_stamped;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	ASSERT_EQ(0, write_job(self->job, self->s.dev, ""));
	ASSERT_EQ(0, run_blkqual_job(_metadata, self, &bq));
	bq_stamped = stamped_sectors(self->data);
	EXPECT_EQ(REGION / 512, bq_stamped);
	/*
	 * Which of the iodepth buffers serves each write follows the order of
	 * completions, and gzip finds a reused buffer within its 32 KiB
	 * window: blkqual's ratio moves from 0.214 to 0.245 between runs of
	 * the same job (fio's from 0.235 to 0.237).
	 */
	against_fio(_metadata, self, "", 0, 0.01, 0.035, &bq, &fio);
	TH_LOG("sectors stamped with their offset: blkqual %zu, fio %zu of %d", bq_stamped,
	       stamped_sectors(self->data), REGION / 512);
	EXPECT_EQ(REGION / 512, stamped_sectors(self->data));
	EXPECT_EQ(REGION / BLOCK, bq.ios);
	EXPECT_EQ(0, bq.dup);
	/*
	 * A buffer is stamped in another of its sector's eight lines each
	 * time: the offsets' high bytes add up to about 12% zero bytes.
	 */
	EXPECT_GT(0.15, bq.zero);
}

TEST_F(dev, zero_buffers_writes_zeros)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "zero_buffers", 0, 0, 0.001, &bq, &fio);
	EXPECT_EQ(1.0, bq.zero);
}

TEST_F(dev, buffer_pattern_repeats_from_each_block)
{
	static const uint8_t pat[] = { 'a', 'b', 'c', 0x01, 0xde, 0xad, 0xbe, 0xef, 0xf4, 0xff,
				       0xff, 0xff };
	struct measure bq, fio;
	size_t bad = REGION;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	ASSERT_EQ(0, write_job(self->job, self->s.dev,
			       "buffer_pattern=\"abc\"0x01deadbeef-12"));
	ASSERT_EQ(0, run_blkqual_job(_metadata, self, &bq));
	for (size_t i = 0; i < REGION; i++) {
		if (self->data[i] != pat[(i % BLOCK) % sizeof(pat)]) {
			bad = i;
			break;
		}
	}
	EXPECT_EQ(REGION, bad) TH_LOG("byte %zu is 0x%02x", bad, self->data[bad]);
	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	ASSERT_EQ(0, run_fio_job(_metadata, self, &fio));
	bad = REGION;
	for (size_t i = 0; i < REGION; i++) {
		if (self->data[i] != pat[(i % BLOCK) % sizeof(pat)]) {
			bad = i;
			break;
		}
	}
	EXPECT_EQ(REGION, bad) TH_LOG("fio: byte %zu is 0x%02x", bad, self->data[bad]);
	EXPECT_EQ(fio.ios, bq.ios);
}

/* Half of each 512-byte chunk random, half zeros: gzip -1 leaves about half. */
TEST_F(dev, compress_percentage_50)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "buffer_compress_percentage=50", 0, 0.01, 0.02, &bq, &fio);
	EXPECT_LE(fabs(bq.zero - 0.50), 0.01);
	EXPECT_LE(fabs(bq.gz - 0.50), 0.05);
}

TEST_F(dev, compress_percentage_70_chunk_4k)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "buffer_compress_percentage=70\nbuffer_compress_chunk=4k",
		    0, 0.01, 0.02, &bq, &fio);
	EXPECT_LE(fabs(bq.zero - 0.70), 0.01);
	EXPECT_LE(fabs(bq.gz - 0.30), 0.05);
}

/*
 * 2048 blocks, each a repeat with probability 0.3: the share's standard
 * deviation is 0.010 per tool, 0.014 for the difference, so 0.06 between
 * them is over four of it.
 */
TEST_F(dev, dedupe_percentage_30)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "dedupe_percentage=30", 0.06, 0.01, 0.05, &bq, &fio);
	EXPECT_LE(fabs(bq.dup - 0.30), 0.05);
}

TEST_F(dev, dedupe_and_compress_together)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "dedupe_percentage=30\nbuffer_compress_percentage=50",
		    0.06, 0.01, 0.05, &bq, &fio);
	EXPECT_LE(fabs(bq.dup - 0.30), 0.05);
	EXPECT_LE(fabs(bq.zero - 0.50), 0.01);
}

TEST_F(dev, dedupe_working_set)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "dedupe_percentage=40\ndedupe_mode=working_set\n"
		    "dedupe_working_set_percentage=10", 0.06, 0.01, 0.05, &bq, &fio);
	EXPECT_LE(fabs(bq.dup - 0.40), 0.05);
}

/* Fresh random bytes for every write: nothing for gzip or a deduplicator. */
TEST_F(dev, refill_buffers_incompressible)
{
	struct measure bq, fio;

	PREP_READY(&self->p);
	NEEDS_GZIP();
	against_fio(_metadata, self, "refill_buffers", 0, 0.01, 0.01, &bq, &fio);
	EXPECT_EQ(0, bq.dup);
	EXPECT_LT(0.99, bq.gz);
}

/* Share of the blocks of the region at @at that equal a block of the first region. */
static double cross_share(const char *dev, uint8_t *buf, off_t at)
{
	size_t nb = REGION / BLOCK, hits = 0;
	uint64_t *a = malloc(nb * sizeof(*a));

	if (!a || read_region(dev, buf, 0)) {
		free(a);
		return -1;
	}
	for (size_t i = 0; i < nb; i++)
		a[i] = fnv64(buf + i * BLOCK, BLOCK);
	qsort(a, nb, sizeof(*a), cmp_u64);
	if (read_region(dev, buf, at)) {
		free(a);
		return -1;
	}
	for (size_t i = 0; i < nb; i++) {
		uint64_t h = fnv64(buf + i * BLOCK, BLOCK);

		hits += bsearch(&h, a, nb, sizeof(*a), cmp_u64) != NULL;
	}
	free(a);
	return (double)hits / (double)nb;
}

/*
 * Two jobs, each on its own region, share one working set of 20% of their
 * size, the first half of it the first job's first buffers, the second
 * the second's.  Each job's repeats (40%) are from the shared set, which
 * the first region also holds, and so are the second job's first unique
 * buffers: nearly half of the second region is in the first (none without
 * dedupe_global).  Both tools, within 0.06.
 */
TEST_F(dev, dedupe_global_working_set)
{
	const char *args[] = { self->job, NULL };
	const char *fio_argv[] = { "fio", "--output-format=json", self->job, NULL };
	struct run_result r;
	double bq, fio;
	json_object *root;
	FILE *f;

	PREP_READY(&self->p);
	f = fopen(self->job, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "[global]\nfilename=%s\nrw=write\nbs=4k\nsize=%dm\ndirect=1\niodepth=4\n"
		"ioengine=io_uring\ndedupe_percentage=40\ndedupe_mode=working_set\n"
		"dedupe_working_set_percentage=20\ndedupe_global=1\n[a]\n[b]\noffset=%dm\n",
		self->s.dev, REGION >> 20, REGION >> 20);
	fclose(f);
	ASSERT_EQ(0, mark_region(self->s.dev, self->data, 0));
	ASSERT_EQ(0, mark_region(self->s.dev, self->data, REGION));
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %.300s", r.status, r.err ? r.err : "");
	json_object_put(root);
	run_result_free(&r);
	bq = cross_share(self->s.dev, self->data, REGION);
	TH_LOG("blkqual: %.4f of job b's blocks are job a's", bq);
	EXPECT_LT(0.35, bq);
	if (need_program("fio"))
		SKIP(return, "%s", need_program("fio"));
	ASSERT_EQ(0, mark_region(self->s.dev, self->data, 0));
	ASSERT_EQ(0, mark_region(self->s.dev, self->data, REGION));
	ASSERT_EQ(0, run_argv(fio_argv, &r));
	EXPECT_EQ(0, r.status) TH_LOG("%.300s", r.err ? r.err : "");
	run_result_free(&r);
	fio = cross_share(self->s.dev, self->data, REGION);
	TH_LOG("fio:     %.4f of job b's blocks are job a's", fio);
	EXPECT_LE(fabs(bq - fio), 0.06);
}

/* Verify owns a verified block's payload; the buffer options leave it correct. */
TEST_F(dev, verify_still_verifies)
{
	const char *args[] = { self->job, NULL };
	struct run_result r;
	json_object *root;

	PREP_READY(&self->p);
	ASSERT_EQ(0, write_job(self->job, self->s.dev, "verify=crc32c\nzero_buffers\n"
			       "buffer_pattern=0x55\ndedupe_percentage=50\nrefill_buffers"));
	root = blkqual_run_json(&r, args);
	ASSERT_NE(NULL, root) TH_LOG("exit %d: %.300s", r.status, r.err ? r.err : "");
	EXPECT_EQ(0, r.status);
	ASSERT_EQ(0, read_region(self->s.dev, self->data, 0));
	/* Verified blocks (blkqual's header, its payload), not the pattern nor zeros. */
	for (size_t b = 0; b < REGION / BLOCK; b += 97) {
		size_t same = 0;

		for (size_t i = 0; i < BLOCK; i++)
			same += self->data[b * BLOCK + i] == 0x55 || !self->data[b * BLOCK + i];
		EXPECT_EQ(0, memcmp(self->data + b * BLOCK + 8, "BQVF", 4)) TH_LOG("block %zu", b);
		EXPECT_GT(100, same) TH_LOG("block %zu", b);
	}
	json_object_put(root);
	run_result_free(&r);

	ASSERT_EQ(0, write_job(self->job, self->s.dev, "verify=crc32c\n"
			       "buffer_compress_percentage=50"));
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->job, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "buffer_compress_percentage=50 with verify"));
	run_result_free(&r);
}

TEST_HARNESS_MAIN
