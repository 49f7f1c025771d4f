// SPDX-License-Identifier: GPL-2.0-only
/*
 * digest_test.c - fio's verify methods and verify options: the in-tree
 * CRCs against their published check values and a bit-at-a-time
 * reference, the libcrypto digests against the published "abc" vectors;
 * on a scratch loop device every method writes and reads back what fio
 * 3.33 reads back for the same job file, a block overwritten behind the
 * tool's back is found at its offset with every method (by a run and by
 * blkqual verify on the state file), and verify_backlog reads back while
 * writing, every write once, as fio does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_verify.h"
#include "job/jobopt.h"
#include "verify/verify_int.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static const char check[] = "123456789";

/* ---- CRCs ------------------------------------------------------------------------ */

/* The textbook definition, one bit at a time: nothing shared with crc.c. */
static uint64_t crc_bitwise(const uint8_t *p, size_t len, int width, uint64_t poly,
			    bool reflected)
{
	uint64_t top = 1ULL << (width - 1), mask = top | (top - 1), crc = 0;

	for (size_t i = 0; i < len; i++) {
		for (int b = 0; b < 8; b++) {
			/* Reflected: bits enter LSB first, so the register runs the other way. */
			int in = reflected ? (p[i] >> b) & 1 : (p[i] >> (7 - b)) & 1;
			int out = (int)((crc >> (width - 1)) & 1);

			if (reflected) {
				uint64_t r = 0;

				for (int k = 0; k < width; k++)
					if (poly & (1ULL << k))
						r |= 1ULL << (width - 1 - k);
				out = (int)(crc & 1);
				crc >>= 1;
				if (out ^ in)
					crc ^= r;
			} else {
				crc = (crc << 1) & mask;
				if (out ^ in)
					crc ^= poly;
			}
		}
	}
	return crc;
}

TEST(crc_check_values)
{
	/* The CRC catalogue's check values of the same CRCs. */
	EXPECT_EQ(0x75, bq_crc7(0, check, 9));				/* CRC-7/MMC */
	EXPECT_EQ(0xbb3d, bq_crc16(0, check, 9));			/* CRC-16/ARC */
	EXPECT_EQ(0x765e7680u, ~bq_crc32(0, check, 9));			/* CRC-32/CKSUM */
	EXPECT_EQ(0xe9c6d914c4b8d9caULL, bq_crc64(0, check, 9));	/* CRC-64/REDIS */
	/* POSIX cksum(1) of "123456789" prints 930766865: the length's byte, then ~. */
	EXPECT_EQ(930766865u, ~bq_crc32(bq_crc32(0, check, 9), "\x09", 1));
	EXPECT_EQ(0, bq_crc7(0, "", 0));
	EXPECT_EQ(0u, bq_crc64(0, "", 0));
}

TEST(crcs_equal_the_bitwise_definition)
{
	static uint8_t buf[4099];
	unsigned int seed = 7;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand_r(&seed);
	for (size_t len = 0; len < sizeof(buf); len += len < 64 ? 1 : 509) {
		EXPECT_EQ(crc_bitwise(buf, len, 7, 0x09, false), bq_crc7(0, buf, len));
		EXPECT_EQ(crc_bitwise(buf, len, 16, 0x8005, true), bq_crc16(0, buf, len));
		EXPECT_EQ(crc_bitwise(buf, len, 32, 0x04c11db7, false), bq_crc32(0, buf, len));
		EXPECT_EQ(crc_bitwise(buf, len, 64, 0xad93d23594c935a9ULL, true),
			  bq_crc64(0, buf, len)) TH_LOG("len %zu", len);
	}
	/* Continued in two pieces, the same. */
	EXPECT_EQ(bq_crc64(0, buf, 4099), bq_crc64(bq_crc64(0, buf, 1000), buf + 1000, 3099));
	EXPECT_EQ(bq_crc32(0, buf, 4099), bq_crc32(bq_crc32(0, buf, 3), buf + 3, 4096));
	EXPECT_EQ(bq_crc16(0, buf, 4099), bq_crc16(bq_crc16(0, buf, 17), buf + 17, 4082));
	EXPECT_EQ(bq_crc7(0, buf, 4099), bq_crc7(bq_crc7(0, buf, 9), buf + 9, 4090));
}

/* ---- digests --------------------------------------------------------------------- */

static const struct {
	enum bq_verify_method m;
	const char *abc;	/* the published digest of "abc" (FIPS 180, FIPS 202, RFC 1321) */
} vectors[] = {
	{ BQ_VERIFY_MD5, "900150983cd24fb0d6963f7d28e17f72" },
	{ BQ_VERIFY_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ BQ_VERIFY_SHA224, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
	{ BQ_VERIFY_SHA256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ BQ_VERIFY_SHA384, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
			    "8086072ba1e7cc2358baeca134c825a7" },
	{ BQ_VERIFY_SHA512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
			    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ BQ_VERIFY_SHA3_224, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf" },
	{ BQ_VERIFY_SHA3_256, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
	{ BQ_VERIFY_SHA3_384, "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
			      "98d88cea927ac7f539f1edf228376d25" },
	{ BQ_VERIFY_SHA3_512, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
			      "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0" },
};

static void hex(const uint8_t *d, uint32_t n, char *out)
{
	for (uint32_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

TEST(digest_abc_vectors)
{
	uint8_t d[BQ_DIGEST_MAX], d2[BQ_DIGEST_MAX];
	char h[2 * BQ_DIGEST_MAX + 1];

	for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
		const char *name = bq_verify_method_name(vectors[i].m);
		uint32_t n = bq_digest_len(vectors[i].m);

		EXPECT_TRUE(bq_digest_method(vectors[i].m));
		ASSERT_EQ(strlen(vectors[i].abc) / 2, n) TH_LOG("%s", name);
		ASSERT_EQ(0, bq_digest(vectors[i].m, "abc", 3, NULL, 0, d)) TH_LOG("%s", name);
		hex(d, n, h);
		EXPECT_STREQ(vectors[i].abc, h) TH_LOG("%s", name);
		/* Two pieces are one message. */
		ASSERT_EQ(0, bq_digest(vectors[i].m, "a", 1, "bc", 2, d2));
		EXPECT_EQ(0, memcmp(d, d2, n)) TH_LOG("%s", name);
		/* The digest's room after the header: its length rounded up to 8. */
		EXPECT_EQ(BQ_VHDR_SIZE + ((n + 7) & ~7u), bq_vmethod_hdr_len(vectors[i].m));
	}
	EXPECT_FALSE(bq_digest_method(BQ_VERIFY_CRC64));
	EXPECT_EQ(0u, bq_digest_len(BQ_VERIFY_XXHASH));
	EXPECT_EQ(-EOPNOTSUPP, bq_digest(BQ_VERIFY_CRC7, "abc", 3, NULL, 0, d));
}

/* Every method: a block it built is intact; a bit flipped anywhere it covers is not. */
TEST(each_method_judges_its_blocks)
{
	static uint8_t buf[4096] __attribute__((aligned(8)));
	struct bq_vexpect e = { .offset = 8192, .seed = 5, .have_seed = true };

	for (int m = BQ_VERIFY_CRC32C; m < BQ_VERIFY_NR; m++) {
		const char *name = bq_verify_method_name((enum bq_verify_method)m);
		struct bq_vparams p;
		struct bq_vbad bad;
		enum bq_verify_class want;

		ASSERT_EQ(0, bq_vparams_init(&p, (enum bq_verify_method)m, sizeof(buf), NULL, 0));
		bq_verify_fill(buf, &p, 8192, 1, 5, 1, 0);
		EXPECT_EQ(BQ_VCLASS_OK, bq_verify_block(buf, &p, &e, &bad, NULL)) {
			TH_LOG("%s", name);
		}
		/* meta checks the header only; null checks nothing. */
		want = m == BQ_VERIFY_META || m == BQ_VERIFY_NULL ? BQ_VCLASS_OK :
		       BQ_VCLASS_CORRUPTED;
		buf[3000] ^= 0x10;
		EXPECT_EQ(want, bq_verify_block(buf, &p, &e, &bad, NULL)) TH_LOG("%s", name);
		if (want != BQ_VCLASS_OK)
			EXPECT_EQ(3000, bad.first_diff) TH_LOG("%s", name);
		buf[3000] ^= 0x10;
		/* A digest's stored copy: damaged, the block is corrupted. */
		if (p.digest_len) {
			buf[BQ_VHDR_SIZE + p.digest_len - 1] ^= 1;
			EXPECT_EQ(BQ_VCLASS_CORRUPTED, bq_verify_block(buf, &p, &e, &bad, NULL)) {
				TH_LOG("%s", name);
			}
			buf[BQ_VHDR_SIZE + p.digest_len - 1] ^= 1;
		}
		/* Another offset's block is misdirected, whatever the method (but null). */
		e.offset = 4096;
		EXPECT_EQ(m == BQ_VERIFY_NULL ? BQ_VCLASS_OK : BQ_VCLASS_MISDIRECTED,
			  bq_verify_block(buf, &p, &e, &bad, NULL)) TH_LOG("%s", name);
		e.offset = 8192;
		bq_vparams_free(&p);
	}
}

/* ---- parsing --------------------------------------------------------------------- */

static int set1(const char *key, const char *val, struct bq_job *job, struct bq_parse_error *err)
{
	bq_job_defaults(job);
	return bq_job_set(job, key, val, err);
}

TEST(every_fio_method_parses)
{
	/* fio 3.33's list (fio --cmdhelp=verify), sha224 and sha384 as well. */
	static const struct {
		const char *name;
		enum bq_verify_method m;
	} names[] = {
		{ "0", BQ_VERIFY_NONE }, { "md5", BQ_VERIFY_MD5 }, { "crc64", BQ_VERIFY_CRC64 },
		{ "crc32", BQ_VERIFY_CRC32 }, { "crc32c-intel", BQ_VERIFY_CRC32C },
		{ "crc32c", BQ_VERIFY_CRC32C }, { "crc16", BQ_VERIFY_CRC16 },
		{ "crc7", BQ_VERIFY_CRC7 }, { "sha1", BQ_VERIFY_SHA1 },
		{ "sha224", BQ_VERIFY_SHA224 }, { "sha256", BQ_VERIFY_SHA256 },
		{ "sha384", BQ_VERIFY_SHA384 }, { "sha512", BQ_VERIFY_SHA512 },
		{ "sha3-224", BQ_VERIFY_SHA3_224 }, { "sha3-256", BQ_VERIFY_SHA3_256 },
		{ "sha3-384", BQ_VERIFY_SHA3_384 }, { "sha3-512", BQ_VERIFY_SHA3_512 },
		{ "xxhash", BQ_VERIFY_XXHASH }, { "meta", BQ_VERIFY_META },
		{ "pattern", BQ_VERIFY_PATTERN }, { "null", BQ_VERIFY_NULL },
	};
	struct bq_parse_error err;
	struct bq_job job;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		EXPECT_EQ(0, set1("verify", names[i].name, &job, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ((int)names[i].m, job.verify) TH_LOG("%s", names[i].name);
	}
	for (int m = BQ_VERIFY_CRC32C; m < BQ_VERIFY_NR; m++)
		EXPECT_EQ(m, bq_verify_method_parse(bq_verify_method_name(m)));
	EXPECT_EQ(-EINVAL, set1("verify", "sha1024", &job, &err));
	EXPECT_EQ(NULL, strchr(err.msg, '\n'));
	EXPECT_NE(NULL, strstr(err.msg, "verify=sha1024: use 0, crc32c")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("verify", "SHA256", &job, &err));
	EXPECT_EQ(-EINVAL, set1("verify", "", &job, &err));
}

static int jobs(struct bq_jobset *set, struct bq_parse_error *err, const char *a, const char *b,
		const char *c)
{
	char *argv[] = { "--filename=/dev/x", "--rw=write", (char *)a, (char *)b, (char *)c };
	int argc = 2;

	while (argc < 5 && argv[argc])
		argc++;
	return bq_jobs_from_args(argc, argv, set, err);
}

TEST(verify_options)
{
	struct bq_jobset set = { 0 }, back = { 0 };
	struct bq_strv args = { 0 };
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, jobs(&set, &err, "--verify=sha3-384", "--verify_backlog=1k",
			  "--verify_backlog_batch=100"));
	EXPECT_EQ(1024u, set.jobs[0].verify_backlog);
	EXPECT_EQ(100u, set.jobs[0].verify_backlog_batch);
	EXPECT_TRUE(set.jobs[0].verify_header_seed);
	EXPECT_TRUE(set.jobs[0].verify_write_sequence);
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &back, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_VERIFY_SHA3_384, back.jobs[0].verify);
	EXPECT_EQ(1024u, back.jobs[0].verify_backlog);
	EXPECT_EQ(100u, back.jobs[0].verify_backlog_batch);
	bq_strv_free(&args);
	bq_jobset_free(&back);
	bq_jobset_free(&set);

	ASSERT_EQ(0, jobs(&set, &err, "--verify=md5", "--verify_offset=512",
			  "--verify_header_seed=0"));
	EXPECT_EQ(512u, set.jobs[0].verify_offset);
	EXPECT_FALSE(set.jobs[0].verify_header_seed);
	bq_jobset_free(&set);
	ASSERT_EQ(0, jobs(&set, &err, "--verify=crc7", "--verify_write_sequence=0",
			  "--verify_async=4"));
	EXPECT_FALSE(set.jobs[0].verify_write_sequence);
	EXPECT_EQ(4u, set.jobs[0].verify_async);
	ASSERT_EQ(0, bq_job_to_args(&set.jobs[0], &args));
	ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &back, &err)) TH_LOG("%s", err.msg);
	EXPECT_FALSE(back.jobs[0].verify_write_sequence);
	EXPECT_EQ(4u, back.jobs[0].verify_async);
	bq_strv_free(&args);
	bq_jobset_free(&back);
	bq_jobset_free(&set);

	/* The header (64 bytes, 80 with md5's digest) must fit where it is swapped to. */
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=md5", "--verify_offset=40", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "verify_offset=40")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, jobs(&set, &err, "--verify=crc32c", "--verify_offset=4050", NULL));
	EXPECT_EQ(0, jobs(&set, &err, "--verify=crc32c", "--verify_offset=64", NULL));
	bq_jobset_free(&set);
	EXPECT_EQ(-EINVAL, set1("verify_backlog", "many", &job, &err));
	EXPECT_EQ(-EINVAL, set1("verify_header_seed", "2", &job, &err));

	/* Defaults accepted, what blkqual does not do refused with the reason. */
	EXPECT_EQ(0, set1("verify_dump", "0", &job, &err));
	EXPECT_EQ(0, set1("experimental_verify", "0", &job, &err));
	EXPECT_EQ(0, set1("verify_dump", "1", &job, &err));
	EXPECT_TRUE(job.verify_dump);
	EXPECT_EQ(-EOPNOTSUPP, set1("experimental_verify", NULL, &job, &err));
	EXPECT_NE(NULL, strstr(err.msg, "experimental_verify=1 is not supported")) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(0, set1("verify_async_cpus", "0", &job, &err));
	EXPECT_STREQ("", job.cpus_allowed);
	EXPECT_EQ(-EINVAL, set1("verify_async_cpus", "3-1", &job, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("verify_state_save", "1", &job, &err));
}

/* ---- on a device ----------------------------------------------------------------- */

#define DEV_SIZE (16LL << 20)
#define BS 4096

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char opt[96];
	char state[320];
	char state_opt[340];
	char jobfile[320];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->s.dev);
	snprintf(self->state, sizeof(self->state), "%s/digest.state", self->s.dir);
	snprintf(self->state_opt, sizeof(self->state_opt), "--verify-state=%s", self->state);
	snprintf(self->jobfile, sizeof(self->jobfile), "%s/job.fio", self->s.dir);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->state);
	unlink(self->jobfile);
	/* fio's verify state, saved by each fio run in the job file's directory. */
	snprintf(self->jobfile, sizeof(self->jobfile), "%s/local-j-0-verify.state", self->s.dir);
	unlink(self->jobfile);
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

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

/* The first of a verify object's bad blocks (the helper's paths have no indices). */
static json_object *bad0(json_object *v)
{
	return json_object_array_get_idx(json_object_object_get(v, "first_bad"), 0);
}

static int write_jobfile(const char *path, const char *dev, const char *body)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "[j]\nfilename=%s\ndirect=1\nbs=4k\n%s", dev, body);
	return fclose(f) ? -errno : 0;
}

/*
 * fio 3.33 on the same job file: its job's read and write I/O counts, or
 * -1 when fio could not run it (a method it lacks).  fio saves its verify
 * state in the current directory: the job file's, which the test removes.
 */
static int fio_counts(const char *jobfile, long long *reads, long long *writes)
{
	const char *argv[] = { "fio", "--output-format=json", jobfile, NULL };
	char dir[320], *slash;
	struct run_result r;
	json_object *root, *j;
	const char *brace;
	int ret = -1, here, failed;

	snprintf(dir, sizeof(dir), "%s", jobfile);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || chdir(slash ? dir : ".")) {
		if (here >= 0)
			close(here);
		return -1;
	}
	failed = run_argv(argv, &r);
	if (fchdir(here))
		failed = -1;
	close(here);
	if (failed)
		return -1;
	brace = r.status ? NULL : strchr(r.out, '{');
	root = brace ? json_tokener_parse(brace) : NULL;
	j = root ? json_object_array_get_idx(json_object_object_get(root, "jobs"), 0) : NULL;
	if (j && !json_int(j, "error", -1)) {
		*reads = json_int(j, "read.total_ios", -1);
		*writes = json_int(j, "write.total_ios", -1);
		ret = 0;
	}
	json_object_put(root);
	run_result_free(&r);
	return ret;
}

static const char *const all_methods[] = {
	"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3-224", "sha3-256",
	"sha3-384", "sha3-512", "crc64", "crc32", "crc32c", "crc32c-intel", "crc16", "crc7",
	"xxhash", "meta", "pattern", "null",
};

/* fio 3.33 has no sha224 or sha384. */
static bool fio_has(const char *m)
{
	return strcmp(m, "sha224") && strcmp(m, "sha384");
}

TEST_F(dev, each_method_reads_back_what_fio_reads_back)
{
	bool have_fio = !need_program("fio");

	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(all_methods); i++) {
		const char *m = all_methods[i];
		const char *args[] = { "run", "--no-status", "-o", "json", self->jobfile, NULL };
		char body[256];
		struct run_result r;
		json_object *root, *j;
		long long fr = -1, fw = -1;
		int status = -1;

		/* fio 3.33 asserts on verify=pattern without a pattern: blkqual's default. */
		snprintf(body, sizeof(body), "rw=randwrite\nsize=512k\niodepth=4\n"
			 "ioengine=io_uring\nverify=%s\n%s", m, strcmp(m, "pattern") ? "" :
			 "verify_pattern=0xdeadbeef\n");
		ASSERT_EQ(0, write_jobfile(self->jobfile, self->s.dev, body));
		root = run_json(&r, &status, args);
		ASSERT_NE(NULL, root) TH_LOG("%s: %s", m, r.err);
		EXPECT_EQ(0, status) TH_LOG("%s: %s", m, r.err);
		j = job0(root);
		EXPECT_STREQ(strcmp(m, "crc32c-intel") ? m : "crc32c",
			     json_str(j, "verify.method"));
		EXPECT_EQ(128, json_int(j, "verify.blocks_checked", -1)) TH_LOG("%s", m);
		EXPECT_EQ(0, json_int(j, "verify.bad_blocks", -1)) TH_LOG("%s", m);
		EXPECT_EQ(128, json_int(j, "total.write.ios", -1)) TH_LOG("%s", m);
		EXPECT_EQ(128, json_int(j, "verify.phase.read.ios", -1)) TH_LOG("%s", m);
		/* fio counts its verify reads as the job's reads. */
		if (have_fio && fio_has(m)) {
			EXPECT_EQ(0, fio_counts(self->jobfile, &fr, &fw)) TH_LOG("fio, %s", m);
			EXPECT_EQ(fw, json_int(j, "total.write.ios", -1)) TH_LOG("%s", m);
			EXPECT_EQ(fr, json_int(j, "verify.phase.read.ios", -1)) TH_LOG("%s", m);
		}
		json_object_put(root);
		run_result_free(&r);
	}
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual's counts were not compared with fio's");
}

TEST_F(dev, a_corrupted_block_is_found_with_each_method)
{
	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(all_methods); i++) {
		const char *m = all_methods[i];
		char verify[32];
		const char *w[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=write",
				    "--size=512k", "--bs=8k", "--verify_interval=4k", "--direct=1",
				    "--iodepth=4", verify, self->state_opt, "--name=w", NULL };
		const char *ro[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=write",
				     "--size=512k", "--bs=4k", "--direct=1", "--verify_only",
				     verify, self->state_opt, "--name=ro", NULL };
		const char *chk[] = { "verify", "-o", "json", "--no-status", self->state_opt,
				      NULL };
		bool blind = !strcmp(m, "null");
		uint64_t block = 37 + i;
		struct run_result r;
		json_object *root, *v;
		int status = -1;

		snprintf(verify, sizeof(verify), "--verify=%s", m);
		unlink(self->state);
		root = run_json(&r, &status, w);
		ASSERT_NE(NULL, root) TH_LOG("%s: %s", m, r.err);
		ASSERT_EQ(0, status) TH_LOG("%s: %s", m, r.err);
		json_object_put(root);
		run_result_free(&r);
		ASSERT_EQ(0, scratch_plant(&self->s, (off_t)block * BS, BS, (unsigned int)i));

		/* verify_only reads back what the state records: one bad block, there. */
		root = run_json(&r, &status, ro);
		ASSERT_NE(NULL, root) TH_LOG("%s: %s", m, r.err);
		EXPECT_EQ(blind ? 0 : 1, status) TH_LOG("%s: %s", m, r.err);
		v = json_object_object_get(job0(root), "verify");
		EXPECT_EQ(128, json_int(v, "blocks_checked", -1)) TH_LOG("%s", m);
		EXPECT_EQ(blind ? 0 : 1, json_int(v, "bad_blocks", -1)) TH_LOG("%s", m);
		if (!blind) {
			EXPECT_EQ((long long)block * BS, json_int(bad0(v), "offset", -1)) {
				TH_LOG("%s", m);
			}
			EXPECT_STREQ("corrupted", json_str(bad0(v), "class")) TH_LOG("%s", m);
			EXPECT_NE(NULL, strstr(r.err, "bad block")) TH_LOG("%s: %s", m, r.err);
		}
		json_object_put(root);
		run_result_free(&r);

		/* blkqual verify on the state file finds the same. */
		root = run_json(&r, &status, chk);
		ASSERT_NE(NULL, root) TH_LOG("%s: %s", m, r.err);
		EXPECT_EQ(blind ? 0 : 1, status) TH_LOG("%s: %s", m, r.err);
		EXPECT_STREQ(strcmp(m, "crc32c-intel") ? m : "crc32c",
			     json_str(root, "state.method"));
		EXPECT_EQ(blind ? 0 : 1, json_int(root, "verify.bad_blocks", -1)) TH_LOG("%s", m);
		v = json_object_object_get(root, "verify");
		if (!blind)
			EXPECT_EQ((long long)block * BS, json_int(bad0(v), "offset", -1)) {
				TH_LOG("%s", m);
			}
		json_object_put(root);
		run_result_free(&r);
	}
}

/* verify_offset: the header lives elsewhere in the block, and is found there. */
TEST_F(dev, verify_offset_moves_the_header)
{
	const char *w[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=write",
			    "--size=256k", "--bs=4k", "--direct=1", "--verify=sha256",
			    "--verify_offset=1000", "--name=w", NULL };
	const char *rd[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=read",
			     "--size=256k", "--bs=4k", "--direct=1", "--verify=sha256",
			     "--verify_offset=1000", "--name=r", NULL };
	const char *plain[] = { "run", "--no-status", "-o", "json", self->opt, "--rw=read",
				"--size=256k", "--bs=4k", "--direct=1", "--verify=sha256",
				"--name=p", NULL };
	struct run_result r;
	json_object *root;
	int status = -1;

	PREP_READY(&self->p);
	root = run_json(&r, &status, w);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s", r.err);
	EXPECT_EQ(64, json_int(job0(root), "verify.blocks_checked", -1));
	json_object_put(root);
	run_result_free(&r);
	ASSERT_EQ(0, scratch_plant(&self->s, 9 * BS, BS, 1));
	root = run_json(&r, &status, rd);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(1, status);
	EXPECT_EQ(1, json_int(job0(root), "verify.bad_blocks", -1));
	EXPECT_EQ(9 * BS, json_int(bad0(json_object_object_get(job0(root), "verify")), "offset",
				   -1));
	json_object_put(root);
	run_result_free(&r);
	/* Without it, no block has its header at byte 0. */
	root = run_json(&r, &status, plain);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(64, json_int(job0(root), "verify.bad_blocks", -1));
	json_object_put(root);
	run_result_free(&r);
}

static void backlog_case(struct __test_metadata *_metadata, const char *jobfile,
			 const char *dev, const char *body, bool all_during, bool have_fio)
{
	const char *args[] = { "run", "--no-status", "-o", "json", jobfile, NULL };
	struct run_result r;
	json_object *root, *j;
	long long during, after, writes, fr = -1, fw = -1;
	int status = -1;

	ASSERT_EQ(0, write_jobfile(jobfile, dev, body));
	root = run_json(&r, &status, args);
	ASSERT_NE(NULL, root) TH_LOG("%s", r.err);
	EXPECT_EQ(0, status) TH_LOG("%s", r.err);
	j = job0(root);
	writes = json_int(j, "total.write.ios", -1);
	during = json_int(j, "total.read.ios", -1);
	after = json_int(j, "verify.phase.read.ios", 0);
	EXPECT_EQ(512, writes) TH_LOG("%s", body);
	/* Every block written is read back and judged once: during the writes, or after. */
	EXPECT_EQ(512, json_int(j, "verify.blocks_checked", -1)) TH_LOG("%s", body);
	EXPECT_EQ(0, json_int(j, "verify.bad_blocks", -1)) TH_LOG("%s", body);
	EXPECT_EQ(writes, during + after) TH_LOG("%s", body);
	EXPECT_LT(0, during) TH_LOG("%s", body);
	if (all_during)
		EXPECT_EQ(0, after) TH_LOG("%s", body);
	TH_LOG("%s: %lld writes, %lld read back while writing, %lld after", body, writes,
	       during, after);
	if (have_fio) {
		EXPECT_EQ(0, fio_counts(jobfile, &fr, &fw));
		EXPECT_EQ(fw, writes) TH_LOG("%s", body);
		EXPECT_EQ(fr, during + after) TH_LOG("%s", body);
	}
	json_object_put(root);
	run_result_free(&r);
}

TEST_F(dev, verify_backlog_reads_back_while_writing)
{
	bool have_fio = !need_program("fio");

	PREP_READY(&self->p);
	backlog_case(_metadata, self->jobfile, self->s.dev,
		     "rw=write\nsize=2m\nioengine=psync\nverify=crc32c\nverify_backlog=16\n",
		     true, have_fio);
	backlog_case(_metadata, self->jobfile, self->s.dev,
		     "rw=write\nsize=2m\nioengine=psync\nverify=md5\nverify_backlog=16\n"
		     "verify_backlog_batch=8\n", false, have_fio);
	backlog_case(_metadata, self->jobfile, self->s.dev,
		     "rw=randwrite\nsize=2m\nioengine=io_uring\niodepth=8\nverify=sha1\n"
		     "verify_backlog=32\n", false, have_fio);
	if (!have_fio)
		SKIP(return, "fio is not installed: blkqual's counts were not compared with fio's");
}

TEST(refused_values_are_one_line_and_status_2)
{
	static const char *const cases[][4] = {
		{ "--verify=sha1024", NULL },
		{ "--experimental_verify=1", NULL },
		{ "--verify=md5", "--verify_offset=16", NULL },
		{ "--verify_state_load=1", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *argv[8] = { blkqual_path(), "run", "--filename=/dev/null", "--name=x" };
		struct run_result r;
		int n = 4;

		for (int k = 0; cases[i][k]; k++)
			argv[n++] = cases[i][k];
		argv[n] = NULL;
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) TH_LOG("%s: %s", cases[i][0], r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
		EXPECT_NE(NULL, strstr(r.err, cases[i][0] + 2)) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

TEST_HARNESS_MAIN
