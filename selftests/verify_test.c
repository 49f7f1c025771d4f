// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_test.c - data integrity: CRC-32C and XXH64 against published
 * vectors, the block header and how a block read back is judged, fio's
 * verify options, and on a scratch loop device: every method on every
 * engine reads back what it wrote, and blocks corrupted behind the tool's
 * back (garbage, swapped, an older generation, torn, zeroed) are all
 * found, at the right offsets, classified right, and nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_verify.h"
#include "verify/verify_int.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* ---- checksums --------------------------------------------------------------- */

TEST(crc32c_known_vectors)
{
	uint8_t buf[32];

	EXPECT_EQ(0xe3069283u, bq_crc32c(0, "123456789", 9));
	EXPECT_EQ(0xe3069283u, bq_crc32c_sw(0, "123456789", 9));
	EXPECT_EQ(0u, bq_crc32c(0, "", 0));
	/* RFC 3720 (iSCSI), appendix B.4. */
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(0x8a9136aau, bq_crc32c(0, buf, sizeof(buf)));
	memset(buf, 0xff, sizeof(buf));
	EXPECT_EQ(0x62a8ab43u, bq_crc32c(0, buf, sizeof(buf)));
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	EXPECT_EQ(0x46dd794eu, bq_crc32c(0, buf, sizeof(buf)));
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)(31 - i);
	EXPECT_EQ(0x113fdb5cu, bq_crc32c(0, buf, sizeof(buf)));
	/* Continuing a CRC is the same as one pass. */
	EXPECT_EQ(0xe3069283u, bq_crc32c(bq_crc32c(0, "1234", 4), "56789", 5));
	TH_LOG("crc32c uses %s", bq_crc32c_hw() ? "the SSE4.2 instruction" : "tables");
}

TEST(crc32c_instruction_equals_tables)
{
	static uint8_t buf[4096 + 64];
	unsigned int seed = 1;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand_r(&seed);
	/* Every alignment and many lengths, so each loop's head and tail run. */
	for (int n = 0; n < 2000; n++) {
		size_t off = (size_t)rand_r(&seed) % 64, len = (size_t)rand_r(&seed) % 4096;

		ASSERT_EQ(bq_crc32c_sw(7, buf + off, len), bq_crc32c(7, buf + off, len)) {
			TH_LOG("offset %zu length %zu", off, len);
		}
	}
}

/* xxHash's own sanity buffer (cli/xsum_sanity_check.c): its vectors need it. */
static void xxh_sanity_buffer(uint8_t *buf, size_t len)
{
	uint64_t gen = 2654435761U;

	for (size_t i = 0; i < len; i++) {
		buf[i] = (uint8_t)(gen >> 56);
		gen *= 11400714785074694797ULL;
	}
}

TEST(xxh64_known_vectors)
{
	static const struct {
		size_t len;
		uint64_t seed;
		uint64_t hash;
	} v[] = {
		{ 0, 0, 0xef46db3751d8e999ULL },
		{ 0, 2654435761U, 0xac75fda2929b17efULL },
		{ 1, 0, 0xe934a84adb052768ULL },
		{ 1, 2654435761U, 0x5014607643a9b4c3ULL },
		{ 4, 0, 0x9136a0dca57457eeULL },
		{ 14, 0, 0x8282dcc4994e35c8ULL },
		{ 14, 2654435761U, 0xc3bd6bf63deb6df0ULL },
		{ 222, 0, 0xb641ae8cb691c174ULL },
		{ 222, 2654435761U, 0x20cb8ab7ae10c14aULL },
	};
	uint8_t buf[256];

	xxh_sanity_buffer(buf, sizeof(buf));
	EXPECT_EQ(0xef46db3751d8e999ULL, bq_xxh64("", 0, 0));
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		EXPECT_EQ(v[i].hash, bq_xxh64(buf, v[i].len, v[i].seed)) {
			TH_LOG("length %zu seed %llu", v[i].len, (unsigned long long)v[i].seed);
		}
	}
}

/* Figures for the documentation: 64 MiB through a cache-sized buffer. */
TEST(checksum_speed)
{
	size_t len = 256 << 10, rounds = 256;
	uint8_t *buf = malloc(len);
	struct timespec a, b;
	volatile uint64_t sink = 0;
	double t;

	ASSERT_NE(NULL, buf);
	memset(buf, 0x5a, len);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t i = 0; i < rounds; i++)
		sink += bq_crc32c(0, buf, len);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	TH_LOG("crc32c: %.2f GB/s", (double)(len * rounds) / t / 1e9);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t i = 0; i < rounds; i++)
		sink += bq_xxh64(buf, len, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	TH_LOG("xxh64: %.2f GB/s", (double)(len * rounds) / t / 1e9);
	(void)sink;
	free(buf);
}

/* ---- the header and the judge -------------------------------------------------- */

TEST(header_round_trip)
{
	struct bq_vhdr h = {
		.checksum = 0x1122334455667788ULL, .magic = BQ_VHDR_MAGIC,
		.version = BQ_VHDR_VERSION, .method = BQ_VERIFY_XXHASH,
		.header_size = BQ_VHDR_SIZE, .length = 8192, .thread = 3,
		.offset = 0x123456789000ULL, .generation = 42, .seed = 0xfeedfacecafebeefULL,
		.timestamp_ns = 1700000000123456789ULL,
	}, d;
	uint8_t buf[BQ_VHDR_SIZE];

	memset(buf, 0xee, sizeof(buf));
	bq_vhdr_encode(buf, &h);
	ASSERT_TRUE(bq_vhdr_decode(buf, &d));
	EXPECT_EQ(0, memcmp(&h, &d, sizeof(h)));
	/* Little-endian on disk, whatever the host: the magic reads "BQVF". */
	EXPECT_EQ(0, memcmp(buf + 8, "BQVF", 4));
	EXPECT_EQ(0x88, buf[0]);
	EXPECT_EQ(42, buf[32]);
	for (int i = 56; i < 64; i++)
		EXPECT_EQ(0, buf[i]);
	buf[9] ^= 1;
	EXPECT_FALSE(bq_vhdr_decode(buf, &d));
}

struct judge {
	struct bq_vparams p;
	uint8_t *blk;
	uint8_t *old;
	struct bq_vexpect e;
};

static void judge_setup(struct judge *j, enum bq_verify_method m, uint32_t bs)
{
	memset(j, 0, sizeof(*j));
	bq_vparams_init(&j->p, m, bs, NULL, 0);
	j->blk = aligned_alloc(4096, bs);
	j->old = aligned_alloc(4096, bs);
	bq_verify_fill(j->old, &j->p, 8192, 1, 77, 1, 0);
	bq_verify_fill(j->blk, &j->p, 8192, 2, 77, 2, 0);
	j->e = (struct bq_vexpect){ .offset = 8192, .seed = 77, .have_seed = true,
				    .have_gen = true, .gen_lo = 2, .gen_hi = 2 };
}

static void judge_free(struct judge *j)
{
	bq_vparams_free(&j->p);
	free(j->blk);
	free(j->old);
}

static enum bq_verify_class judged(struct judge *j, struct bq_vbad *bad, unsigned int *fl)
{
	return bq_verify_block(j->blk, &j->p, &j->e, bad, fl);
}

TEST(judge_each_class)
{
	static const enum bq_verify_method methods[] = {
		BQ_VERIFY_CRC32C, BQ_VERIFY_XXHASH, BQ_VERIFY_PATTERN,
	};

	for (size_t m = 0; m < ARRAY_SIZE(methods); m++) {
		bool pattern = methods[m] == BQ_VERIFY_PATTERN;
		struct bq_vbad bad;
		unsigned int fl;
		struct judge j;

		judge_setup(&j, methods[m], 4096);
		EXPECT_EQ(BQ_VCLASS_OK, judged(&j, &bad, &fl));
		EXPECT_EQ(0u, fl);
		/* Written for another offset. */
		j.e.offset = 4096;
		EXPECT_EQ(BQ_VCLASS_MISDIRECTED, judged(&j, &bad, &fl));
		EXPECT_EQ(8192u, bad.found.offset);
		EXPECT_EQ(4096u, bad.expected.offset);
		j.e.offset = 8192;
		/* An older generation, or another run's data. */
		j.e.gen_lo = j.e.gen_hi = 3;
		EXPECT_EQ(BQ_VCLASS_STALE, judged(&j, &bad, &fl));
		EXPECT_EQ(2u, bad.found.generation);
		j.e.gen_lo = j.e.gen_hi = 2;
		j.e.seed = 78;
		EXPECT_EQ(BQ_VCLASS_STALE, judged(&j, &bad, &fl));
		j.e.seed = 77;
		/* A write of generation 2 or 3 was in flight: 2 is fine, and noted. */
		j.e.gen_hi = 3;
		EXPECT_EQ(BQ_VCLASS_OK, judged(&j, NULL, &fl));
		EXPECT_EQ(BQ_VFLAG_IN_FLIGHT, fl);
		/* Newer than the state knows: intact, not bad. */
		j.e.gen_lo = j.e.gen_hi = 1;
		EXPECT_EQ(BQ_VCLASS_OK, judged(&j, NULL, &fl));
		EXPECT_EQ(BQ_VFLAG_AHEAD, fl);
		j.e.gen_lo = j.e.gen_hi = 2;
		/* Half new, half the generation before: torn (the pattern cannot tell). */
		memcpy(j.blk + 2048, j.old + 2048, 2048);
		EXPECT_EQ(pattern ? BQ_VCLASS_OK : BQ_VCLASS_TORN, judged(&j, &bad, &fl));
		if (!pattern) {
			EXPECT_EQ(4u, bad.sectors_new);
			EXPECT_EQ(4u, bad.sectors_old);
		}
		/* One flipped bit in the payload: corrupted, and where. */
		bq_verify_fill(j.blk, &j.p, 8192, 2, 77, 2, 0);
		j.blk[3000] ^= 0x10;
		EXPECT_EQ(BQ_VCLASS_CORRUPTED, judged(&j, &bad, &fl));
		EXPECT_EQ(3000, bad.first_diff);
		/* The header's timestamp damaged: every sector still ours, yet corrupted. */
		bq_verify_fill(j.blk, &j.p, 8192, 2, 77, 2, 0);
		j.blk[50] ^= 1;
		EXPECT_EQ(BQ_VCLASS_CORRUPTED, judged(&j, &bad, &fl));
		/* Zeros, as after a discard: never written. Garbage: corrupted. */
		memset(j.blk, 0, 4096);
		EXPECT_EQ(BQ_VCLASS_NEVER_WRITTEN, judged(&j, &bad, &fl));
		EXPECT_FALSE(bad.found_header);
		for (int i = 0; i < 4096; i++)
			j.blk[i] = (uint8_t)(i * 131 + 7);
		EXPECT_EQ(BQ_VCLASS_CORRUPTED, judged(&j, &bad, &fl));
		/* The block's first write in flight: whatever was there is fine. */
		j.e.gen_lo = 0;
		EXPECT_EQ(BQ_VCLASS_OK, judged(&j, &bad, &fl));
		EXPECT_EQ(BQ_VFLAG_IN_FLIGHT, fl);
		/* Without a state: no header is all that can be said. */
		j.e = (struct bq_vexpect){ .offset = 8192 };
		EXPECT_EQ(BQ_VCLASS_NEVER_WRITTEN, judged(&j, &bad, &fl));
		bq_verify_fill(j.blk, &j.p, 8192, 9, 1234, 2, 0);
		EXPECT_EQ(BQ_VCLASS_OK, judged(&j, &bad, &fl));
		judge_free(&j);
	}
}

TEST(torn_first_write_over_blank)
{
	struct bq_vbad bad;
	struct judge j;

	judge_setup(&j, BQ_VERIFY_CRC32C, 8192);
	bq_verify_fill(j.blk, &j.p, 8192, 1, 77, 2, 0);
	memset(j.blk + 4096, 0, 4096);
	j.e.gen_lo = j.e.gen_hi = 1;
	EXPECT_EQ(BQ_VCLASS_TORN, judged(&j, &bad, NULL));
	EXPECT_EQ(8u, bad.sectors_new);
	EXPECT_EQ(8u, bad.sectors_old);
	judge_free(&j);
}

TEST(report_keeps_lowest_offsets)
{
	struct bq_verify_report r = { 0 };
	struct bq_vbad b = { .cls = BQ_VCLASS_CORRUPTED };

	for (int i = 100; i > 0; i--) {
		b.offset = (uint64_t)i * 4096;
		bq_verify_report_add(&r, BQ_VCLASS_CORRUPTED, &b, 0);
	}
	bq_verify_report_add(&r, BQ_VCLASS_OK, NULL, BQ_VFLAG_IN_FLIGHT);
	EXPECT_EQ(100u, r.bad);
	EXPECT_EQ(1u, r.count[BQ_VCLASS_OK]);
	EXPECT_EQ(1u, r.in_flight_accepted);
	ASSERT_EQ(BQ_VERIFY_MAX_BAD, r.nr_first_bad);
	for (int i = 0; i < r.nr_first_bad; i++)
		EXPECT_EQ((uint64_t)(i + 1) * 4096, r.first_bad[i].offset);
}

/* ---- fio's options -------------------------------------------------------------- */

TEST(pattern_syntax)
{
	static const struct {
		const char *in;
		const char *out;
		size_t len;
	} ok[] = {
		{ "0xdeadbeef", "\xde\xad\xbe\xef", 4 },
		{ "0xFF0X1", "\xff\x01", 2 },
		{ "0x123", "\x01\x23", 2 },
		{ "-1024", "\x00\xfc\xff\xff", 4 },
		{ "66", "\x42", 1 },
		{ "0", "\x00", 1 },
		{ "\"abc\"0xff", "abc\xff", 4 },
		{ "-100xab", "\xf6\xff\xff\xff\xab", 5 },
	};
	uint8_t out[BQ_VERIFY_MAX_PATTERN];
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, bq_verify_parse_pattern(ok[i].in, out, sizeof(out), &len)) {
			TH_LOG("%s", ok[i].in);
		}
		EXPECT_EQ(ok[i].len, len) TH_LOG("%s", ok[i].in);
		EXPECT_EQ(0, memcmp(ok[i].out, out, ok[i].len)) TH_LOG("%s", ok[i].in);
	}
	EXPECT_EQ(-EOPNOTSUPP, bq_verify_parse_pattern("%o", out, sizeof(out), &len));
	EXPECT_EQ(-EOPNOTSUPP, bq_verify_parse_pattern("'file'", out, sizeof(out), &len));
	EXPECT_EQ(-EINVAL, bq_verify_parse_pattern("", out, sizeof(out), &len));
	EXPECT_EQ(-EINVAL, bq_verify_parse_pattern("0x", out, sizeof(out), &len));
	EXPECT_EQ(-EINVAL, bq_verify_parse_pattern("\"abc", out, sizeof(out), &len));
	EXPECT_EQ(-EINVAL, bq_verify_parse_pattern("zz", out, sizeof(out), &len));
	EXPECT_EQ(-E2BIG, bq_verify_parse_pattern("0xdeadbeef", out, 3, &len));
}

static int jobs(struct bq_jobset *set, struct bq_parse_error *err, const char *a, const char *b,
		const char *c)
{
	char *argv[] = { "--filename=/dev/x", "--rw=randwrite", (char *)a, (char *)b, (char *)c };
	int argc = 2;

	while (argc < 5 && argv[argc])
		argc++;
	return bq_jobs_from_args(argc, argv, set, err);
}

TEST(job_options)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 }, back = { 0 };
	struct bq_strv args = { 0 };

	ASSERT_EQ(0, jobs(&set, &err, "--verify=crc32c-intel", "--verify_fatal", NULL));
	EXPECT_EQ(BQ_VERIFY_CRC32C, set.jobs[0].verify);
	EXPECT_TRUE(set.jobs[0].do_verify);
	EXPECT_TRUE(set.jobs[0].verify_fatal);
	EXPECT_EQ(4096u, bq_job_verify_block(&set.jobs[0]));
	bq_jobset_free(&set);
	/* verify_pattern alone means verify=pattern, as in fio; it survives a round trip. */
	ASSERT_EQ(0, jobs(&set, &err, "--verify_pattern=0xdeadbeef", "--do_verify=0",
			  "--bssplit=8k/50:16k/50"));
	EXPECT_EQ(BQ_VERIFY_PATTERN, set.jobs[0].verify);
	EXPECT_EQ(4u, set.jobs[0].verify_pattern_len);
	EXPECT_EQ(8192u, bq_job_verify_block(&set.jobs[0]));
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &back, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, memcmp(set.jobs[0].verify_pattern, back.jobs[0].verify_pattern,
			    sizeof(set.jobs[0].verify_pattern)));
	EXPECT_EQ(set.jobs[0].verify, back.jobs[0].verify);
	EXPECT_EQ(set.jobs[0].do_verify, back.jobs[0].do_verify);
	bq_strv_free(&args);
	bq_jobset_free(&back);
	bq_jobset_free(&set);

	EXPECT_EQ(-EOPNOTSUPP, jobs(&set, &err, "--verify=md5", "--experimental_verify=1", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "not supported")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, jobs(&set, &err, "--verify=crc32c", "--verify_state_save=1", NULL));
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=sha1024", NULL, NULL));
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--bs=6k", "--verify_interval=4k"));
	EXPECT_NE(NULL, strstr(err.msg, "not a multiple of the verify block")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--verify_interval=1000", NULL));
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=xxhash", "--verify_pattern=0xff", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "needs verify=pattern")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--ioengine=nop", NULL));
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--filename=/dev/a:/dev/b", NULL));
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--io_size=1k", NULL));
	EXPECT_EQ(0, set.nr);
	/* blocks are counted from the offset, as fio's cross-stripe-verify.fio needs */
	EXPECT_EQ(0, jobs(&set, &err, "--verify=crc32c", "--offset=1k", NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
}

TEST(bad_input_is_one_line_and_status_2)
{
	static const char *const cases[][6] = {
		{ "verify", NULL },
		{ "verify", "--verify-state=/nonexistent/state", NULL },
		{ "verify", "--verify-state=/etc/passwd", NULL },
		{ "verify", "--verify-state", "x", "a", "b", NULL },
		{ "run", "--verify_dump=1", "--filename=/dev/null", "--name=x", NULL },
		{ "run", "--verify-state=/tmp/x", "--ioengine=nop", "--size=1m", "--name=x", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *argv[8] = { blkqual_path() };
		struct run_result r;
		int n = 1;

		for (int k = 0; cases[i][k]; k++)
			argv[n++] = cases[i][k];
		argv[n] = NULL;
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) TH_LOG("%s %s: %s", cases[i][0], cases[i][1], r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

/* ---- on a device ---------------------------------------------------------------- */

#define DEV_SIZE (64LL << 20)
#define BS 4096

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char opt[96];
	char state[320];
	char state_opt[340];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->s.dev);
	snprintf(self->state, sizeof(self->state), "%s/verify.state", self->s.dir);
	snprintf(self->state_opt, sizeof(self->state_opt), "--verify-state=%s", self->state);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->state);
	scratch_destroy(&self->s);
}

/* blkqual with up to 15 arguments; stdout parsed as JSON. */
static json_object *run_json(struct run_result *r, int *status, const char *const *args)
{
	const char *argv[20] = { blkqual_path() };
	int n = 1;

	for (int i = 0; args[i] && n < 19; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_argv(argv, r))
		return NULL;
	*status = r->status;
	return json_tokener_parse(r->out);
}

static json_object *job_verify(json_object *root)
{
	json_object *j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);

	return json_object_object_get(j, "verify");
}

TEST_F(dev, every_method_on_every_engine)
{
	static const char *const methods[] = { "crc32c", "xxhash", "pattern" };
	static const char *const engines[] = { "io_uring", "libaio", "psync" };

	PREP_READY(&self->p);
	for (size_t m = 0; m < ARRAY_SIZE(methods); m++) {
		char verify[32], engine[32];
		const char *w[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=randwrite",
				    "--bs=4k", "--size=4m", "--direct=1", "--iodepth=8", verify,
				    engine, "--name=w", NULL };
		const char *rd[] = { "run", "--no-status", "-o", "json", self->opt,
				     "--rw=randread", "--bs=16k", "--verify_interval=4k", "--size=4m",
				     "--direct=1", "--iodepth=4", verify, "--name=r", NULL };
		struct run_result r;
		json_object *root, *v;
		int status = -1;

		snprintf(verify, sizeof(verify), "--verify=%s", methods[m]);
		for (size_t e = 0; e < ARRAY_SIZE(engines); e++) {
			snprintf(engine, sizeof(engine), "--ioengine=%s", engines[e]);
			root = run_json(&r, &status, w);
			ASSERT_NE(NULL, root) TH_LOG("%s %s: %s", methods[m], engines[e], r.err);
			EXPECT_EQ(0, status) TH_LOG("%s %s: %s", methods[m], engines[e], r.err);
			v = job_verify(root);
			EXPECT_STREQ(methods[m], json_str(v, "method"));
			EXPECT_EQ(1024, json_int(v, "blocks_checked", -1)) {
				TH_LOG("%s %s", methods[m], engines[e]);
			}
			EXPECT_EQ(0, json_int(v, "bad_blocks", -1)) TH_LOG("%s %s", methods[m], engines[e]);
			EXPECT_EQ(1024, json_int(v, "phase.read.ios", -1)) {
				TH_LOG("%s %s", methods[m], engines[e]);
			}
			json_object_put(root);
			run_result_free(&r);
		}
		/* A job that only reads, without a state: each header and checksum by itself. */
		root = run_json(&r, &status, rd);
		ASSERT_NE(NULL, root) TH_LOG("%s: %s", methods[m], r.err);
		EXPECT_EQ(0, status) TH_LOG("%s: %s", methods[m], r.err);
		EXPECT_EQ(1024, json_int(job_verify(root), "blocks_checked", -1));
		EXPECT_EQ(0, json_int(job_verify(root), "bad_blocks", -1));
		EXPECT_EQ(NULL, json_object_object_get(job_verify(root), "phase"));
		json_object_put(root);
		run_result_free(&r);
	}
}

TEST_F(dev, mixed_threads_verify_what_they_read)
{
	const char *w[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=randrw",
			    "--bs=4k", "--size=2m", "--direct=1", "--iodepth=16", "--numjobs=2",
			    "--norandommap", "--runtime=1", "--time_based", "--verify=xxhash",
			    "--name=mix", NULL };
	struct run_result r;
	json_object *root;
	int status = -1;

	PREP_READY(&self->p);
	root = run_json(&r, &status, w);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s", r.err);
	/* Reads during the run were judged too: more blocks than the region holds. */
	EXPECT_LT(512, json_int(job_verify(root), "blocks_checked", -1));
	EXPECT_EQ(0, json_int(job_verify(root), "bad_blocks", -1));
	TH_LOG("%lld blocks checked, %lld with a write in flight",
	       json_int(job_verify(root), "blocks_checked", -1),
	       json_int(job_verify(root), "in_flight_accepted", -1));
	json_object_put(root);
	run_result_free(&r);
}

static int read_block(const char *file, uint64_t i, uint8_t *buf)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, BS, (off_t)(i * BS));
	close(fd);
	return n == BS ? 0 : -EIO;
}

/* Behind blkqual's back: @n blocks of @data at block indexes @idx. */
static int write_blocks(const struct scratch *s, const uint64_t *idx, uint8_t (*data)[BS],
			int n)
{
	int ret = 0;

	for (int k = 0; k < n && !ret; k++)
		ret = scratch_pwrite(s, (off_t)(idx[k] * BS), data[k], BS);
	return ret;
}

TEST_F(dev, planted_corruption_is_found_exactly)
{
	const char *gen1[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=write",
			       "--bs=64k", "--verify_interval=4k", "--size=16m", "--direct=1",
			       "--iodepth=8", "--verify=crc32c", "--name=gen1", self->state_opt,
			       NULL };
	const char *gen2[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=randwrite",
			       "--bs=4k", "--size=16m", "--direct=1", "--iodepth=16",
			       "--ioengine=libaio", "--verify=crc32c", "--name=gen2",
			       self->state_opt, NULL };
	const char *check[] = { "verify", "-o", "json", "--no-status", self->state_opt, NULL };
	const char *check_text[] = { "verify", "--no-status", self->state_opt, NULL };
	const char *reader[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=read",
				 "--bs=128k", "--size=16m", "--direct=1", "--iodepth=4",
				 "--verify=crc32c", "--name=reader", self->state_opt, NULL };
	/* What is planted where, and what must be reported there. */
	static const struct {
		uint64_t block;
		const char *cls;
		long long found_offset;		/* -1: no header expected */
	} planted[] = {
		{ 10, "corrupted", -1 }, { 20, "corrupted", -1 }, { 30, "corrupted", -1 },
		{ 40, "misdirected", 41 * BS }, { 41, "misdirected", 40 * BS },
		{ 100, "stale", 100 * BS }, { 200, "torn", 200 * BS },
		{ 300, "never_written", -1 },
	};
	static uint8_t data[8][BS], old100[BS], old200[BS], new200[BS];
	uint64_t idx[8];
	struct run_result r;
	json_object *root, *v, *bad;
	unsigned int seed = 42;
	int status = -1;
	char line[64];

	PREP_READY(&self->p);
	/* Generation 1 everywhere, then 2 everywhere (random order, every block once). */
	root = run_json(&r, &status, gen1);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	ASSERT_EQ(0, status) TH_LOG("%s", r.err);
	EXPECT_EQ(4096, json_int(job_verify(root), "blocks_checked", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, read_block(self->s.file, 100, old100));
	ASSERT_EQ(0, read_block(self->s.file, 200, old200));
	root = run_json(&r, &status, gen2);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	ASSERT_EQ(0, status) TH_LOG("%s", r.err);
	json_object_put(root);
	run_result_free(&r);
	root = run_json(&r, &status, check);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s", r.err);
	EXPECT_EQ(4096, json_int(root, "verify.blocks_checked", -1));
	EXPECT_EQ(0, json_int(root, "verify.bad_blocks", -1));
	EXPECT_EQ(2, json_int(root, "state.runs", -1));
	json_object_put(root);
	run_result_free(&r);

	/* Garbage, a swap, generation 1 back, half of 1 under half of 2, zeros. */
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < BS; i++)
			data[k][i] = (uint8_t)rand_r(&seed);
	ASSERT_EQ(0, read_block(self->s.file, 41, data[3]));
	ASSERT_EQ(0, read_block(self->s.file, 40, data[4]));
	memcpy(data[5], old100, BS);
	ASSERT_EQ(0, read_block(self->s.file, 200, new200));
	memcpy(data[6], new200, BS / 2);
	memcpy(data[6] + BS / 2, old200 + BS / 2, BS / 2);
	memset(data[7], 0, BS);
	for (int k = 0; k < 8; k++)
		idx[k] = planted[k].block;
	ASSERT_EQ(0, write_blocks(&self->s, idx, data, 8));

	root = run_json(&r, &status, check);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(1, status) TH_LOG("%s", r.err);
	v = json_object_object_get(root, "verify");
	EXPECT_EQ(4096, json_int(v, "blocks_checked", -1));
	EXPECT_EQ(8, json_int(v, "bad_blocks", -1));
	EXPECT_EQ(3, json_int(v, "counts.corrupted", -1));
	EXPECT_EQ(2, json_int(v, "counts.misdirected", -1));
	EXPECT_EQ(1, json_int(v, "counts.stale", -1));
	EXPECT_EQ(1, json_int(v, "counts.torn", -1));
	EXPECT_EQ(1, json_int(v, "counts.never_written", -1));
	bad = json_object_object_get(v, "first_bad");
	ASSERT_EQ(8, (int)json_object_array_length(bad));
	for (int k = 0; k < 8; k++) {
		json_object *b = json_object_array_get_idx(bad, (size_t)k);

		EXPECT_EQ((long long)planted[k].block * BS, json_int(b, "offset", -1));
		EXPECT_STREQ(planted[k].cls, json_str(b, "class")) TH_LOG("block %llu",
			(unsigned long long)planted[k].block);
		EXPECT_EQ(planted[k].found_offset, json_int(b, "found.offset", -1)) {
			TH_LOG("block %llu", (unsigned long long)planted[k].block);
		}
		EXPECT_EQ(2, json_int(b, "expected.generation", -1));
	}
	EXPECT_EQ(1, json_int(json_object_array_get_idx(bad, 5), "found.generation", -1));
	EXPECT_EQ(4, json_int(json_object_array_get_idx(bad, 6), "sectors_new", -1));
	EXPECT_EQ(4, json_int(json_object_array_get_idx(bad, 6), "sectors_old", -1));
	json_object_put(root);
	run_result_free(&r);

	/* People get one line per bad block. */
	ASSERT_EQ(0, run_argv((const char *[]){ blkqual_path(), check_text[0], check_text[1],
						check_text[2], NULL }, &r));
	EXPECT_EQ(1, r.status);
	for (int k = 0; k < 8; k++) {
		snprintf(line, sizeof(line), "offset %llu: %s:",
			 (unsigned long long)planted[k].block * BS, planted[k].cls);
		EXPECT_NE(NULL, strstr(r.out, line)) TH_LOG("%s not in:\n%s", line, r.out);
	}
	run_result_free(&r);

	/* A job that reads against the state finds the same blocks. */
	root = run_json(&r, &status, reader);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(1, status);
	EXPECT_EQ(8, json_int(job_verify(root), "bad_blocks", -1));
	EXPECT_EQ(1, json_int(job_verify(root), "counts.torn", -1));
	EXPECT_EQ(2, json_int(job_verify(root), "counts.misdirected", -1));
	json_object_put(root);
	run_result_free(&r);

	/* Another target than the one recorded is bad input. */
	ASSERT_EQ(0, run_argv((const char *[]){ blkqual_path(), "verify", self->state_opt,
						self->state, NULL }, &r));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_F(dev, crash_mid_write_leaves_a_checkable_state)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", self->opt, "--rw=randwrite",
			       "--bs=4k", "--size=16m", "--direct=1", "--iodepth=32",
			       "--norandommap", "--runtime=20", "--time_based", "--verify=xxhash",
			       "--name=crash", self->state_opt, NULL };
	const char *check[] = { "verify", "-o", "json", "--no-status", self->state_opt, NULL };
	const char *again[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=randwrite",
				"--bs=4k", "--size=16m", "--direct=1", "--iodepth=8",
				"--io_size=4m", "--verify=xxhash", "--name=again", self->state_opt,
				NULL };
	struct run_result r;
	json_object *root;
	int status = -1, wst;
	pid_t pid;

	PREP_READY(&self->p);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	usleep(800 * 1000);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &wst, 0));
	ASSERT_TRUE(WIFSIGNALED(wst));

	/* Blocks in flight at the kill may hold either generation: none is bad. */
	root = run_json(&r, &status, check);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s\n%s", r.err, r.out);
	EXPECT_FALSE(json_object_get_boolean(json_object_object_get(
		json_object_object_get(root, "state"), "clean")));
	EXPECT_LT(0, json_int(root, "verify.blocks_checked", -1));
	EXPECT_EQ(0, json_int(root, "verify.bad_blocks", -1));
	TH_LOG("after the kill: %lld blocks written, %lld in flight",
	       json_int(root, "state.blocks_written", -1), json_int(root, "state.in_flight", -1));
	json_object_put(root);
	run_result_free(&r);

	/* The next writer takes the state over and leaves it clean. */
	root = run_json(&r, &status, again);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, json_int(job_verify(root), "bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);
	root = run_json(&r, &status, check);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(0, status);
	EXPECT_TRUE(json_object_get_boolean(json_object_object_get(
		json_object_object_get(root, "state"), "clean")));
	json_object_put(root);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
