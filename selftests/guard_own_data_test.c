// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard_own_data_test.c - a signature that libblkid finds inside blkqual's
 * own verify data is not data, and nothing else is let through with it
 *
 * A verify payload is pseudo-random, so about one write in 2^17 puts
 * ext's magic at byte 1080 with the journal-device bit set, and libblkid
 * reports a "jbd" signature: the guard then refused the next run on the
 * device blkqual had just written (a CI run of digest_test met it).  The
 * seed of such a block is found here rather than waited for.  Each case
 * is a way the same bytes could be someone's data: one byte changed, the
 * block written for another place, a filesystem made over the verify
 * data with blkqual's header put back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "verify/verify_int.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define BLOCK 4096u
#define FILE_SIZE (64LL << 20)
/* ext's superblock is at 1024: its magic at +56, its incompatible features at +96. */
#define EXT_MAGIC_AT 1080
#define EXT_INCOMPAT_AT 1120
#define EXT_JOURNAL_DEV 0x08

/**
 * jbd_block() - the verify block blkqual writes at @built_for, with a
 * seed whose payload reads as a jbd superblock when the block is at 0
 * @method: the verify method
 * @built_for: the offset the block is written for (in its header)
 * @blk: receives BLOCK bytes
 *
 * The payload words at the magic and the feature flags depend only on the
 * seed, the offset and the generation, so the seed is looked for with
 * crc32c's cheap sum and the block then built with @method.
 *
 * Return: 0, or -ESRCH when no seed in 2^24 gives it.
 */
static int jbd_block(enum bq_verify_method method, uint64_t built_for, uint8_t *blk)
{
	struct bq_vparams p;
	int ret = -ESRCH;

	if (bq_vparams_init(&p, BQ_VERIFY_CRC32C, BLOCK, NULL, 0))
		return -EINVAL;
	for (uint64_t seed = 1; seed < (1ULL << 24); seed++) {
		bq_verify_fill(blk, &p, built_for, 1, seed, 1000, 0);
		if (blk[EXT_MAGIC_AT] == 0x53 && blk[EXT_MAGIC_AT + 1] == 0xef &&
		    (blk[EXT_INCOMPAT_AT] & EXT_JOURNAL_DEV)) {
			bq_vparams_free(&p);
			ret = bq_vparams_init(&p, method, BLOCK, NULL, 0);
			if (!ret)
				bq_verify_fill(blk, &p, built_for, 1, seed, 1000, 0);
			break;
		}
	}
	bq_vparams_free(&p);
	return ret;
}

static int write_at(const char *path, off_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (pwrite(fd, buf, len, off) != (ssize_t)len || fsync(fd))
		ret = -EIO;
	close(fd);
	return ret;
}

/* What libblkid finds in @path: the first signature's type, or "" for none. */
static void first_signature(const char *path, char *type, size_t len)
{
	struct bq_signature *sigs = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int nr = fd >= 0 ? bq_probe_signatures_fd(fd, &sigs) : -1;

	snprintf(type, len, "%s", nr > 0 ? sigs[0].type : "");
	free(sigs);
	if (fd >= 0)
		close(fd);
}

/* bq_guard_open() as a command calls it; closes what it opened. */
static int guard_lib(const char *path, struct bq_guard_report *rep)
{
	struct bq_ctx *ctx;
	int ret;

	ret = bq_ctx_new(&ctx, NULL);
	if (ret)
		return ret;
	ret = bq_guard_open(ctx, path, 0, NULL, rep);
	bq_ctx_free(ctx);
	if (ret >= 0) {
		close(ret);
		ret = 0;
	}
	return ret;
}

static bool refused_for(const struct bq_guard_report *rep, const char *type)
{
	for (int i = 0; i < rep->nr; i++)
		if (rep->findings[i].reason == BQ_GUARD_SIGNATURE &&
		    strstr(rep->findings[i].detail, type))
			return true;
	return false;
}

/*
 * Random bytes where a superblock keeps its label reach the user's
 * terminal only escaped (libblkid's encoding): no control character.
 */
static bool shows_safely(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* ---- a regular file: no root needed -------------------------------------- */

FIXTURE(file) {
	struct prep p;
	struct scratch s;
	uint8_t blk[BLOCK];
};

FIXTURE_SETUP(file)
{
	scratch_init(&self->s);
	prep_fail(&self->p, "making the scratch file", scratch_make(&self->s, FILE_SIZE));
}

FIXTURE_TEARDOWN(file)
{
	scratch_destroy(&self->s);
}

TEST_F(file, a_magic_in_blkquals_own_block_is_not_data)
{
	struct bq_guard_report rep;
	struct run_result r;
	char type[32], want[700];

	PREP_READY(&self->p);
	ASSERT_EQ(0, jbd_block(BQ_VERIFY_CRC32C, 0, self->blk));
	ASSERT_EQ(0, write_at(self->s.file, 0, self->blk, BLOCK));
	first_signature(self->s.file, type, sizeof(type));
	ASSERT_STREQ("jbd", type);

	ASSERT_EQ(0, guard_lib(self->s.file, &rep));
	EXPECT_EQ(0, rep.nr) TH_LOG("%s", rep.nr ? rep.findings[0].detail : "");
	ASSERT_EQ(1, rep.nr_own);
	EXPECT_NE(NULL, strstr(rep.own[0], "jbd")) TH_LOG("%s", rep.own[0]);
	EXPECT_TRUE(shows_safely(rep.own[0]));
	EXPECT_NE(NULL, strstr(rep.own[0], "at byte 1080")) TH_LOG("%s", rep.own[0]);
	EXPECT_NE(NULL, strstr(rep.own[0], "crc32c block of 4096 bytes at 0")) {
		TH_LOG("%s", rep.own[0]);
	}

	ASSERT_EQ(0, run_blkqual(&r, "guard", self->s.file, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(want, sizeof(want), "%s: safe to write\n%s: not data: jbd", self->s.file,
		 self->s.file);
	EXPECT_EQ(0, strncmp(r.out, want, strlen(want))) TH_LOG("%s", r.out);
	EXPECT_EQ(2, count_lines(r.out)) TH_LOG("%s", r.out);
	run_result_free(&r);
}

/* A digest's block rebuilds too (libcrypto, loaded for it). */
TEST_F(file, a_digest_block_is_recognised)
{
	struct bq_guard_report rep;
	char type[32];

	PREP_READY(&self->p);
	ASSERT_EQ(0, jbd_block(BQ_VERIFY_SHA256, 0, self->blk));
	ASSERT_EQ(0, write_at(self->s.file, 0, self->blk, BLOCK));
	first_signature(self->s.file, type, sizeof(type));
	ASSERT_STREQ("jbd", type);
	ASSERT_EQ(0, guard_lib(self->s.file, &rep));
	ASSERT_EQ(1, rep.nr_own);
	EXPECT_NE(NULL, strstr(rep.own[0], "sha256 block")) TH_LOG("%s", rep.own[0]);
}

/* One byte that blkqual did not write, far from the magic, and it is data. */
TEST_F(file, one_changed_byte_makes_it_data)
{
	struct bq_guard_report rep;

	PREP_READY(&self->p);
	ASSERT_EQ(0, jbd_block(BQ_VERIFY_CRC32C, 0, self->blk));
	self->blk[3000] ^= 0x01;
	ASSERT_EQ(0, write_at(self->s.file, 0, self->blk, BLOCK));
	EXPECT_EQ(-EBUSY, guard_lib(self->s.file, &rep));
	EXPECT_TRUE(refused_for(&rep, "jbd"));
	EXPECT_EQ(0, rep.nr_own);
	ASSERT_LE(1, rep.nr);
	EXPECT_TRUE(shows_safely(rep.findings[0].detail));
}

/* An intact block, but written for another place: a copy is someone's. */
TEST_F(file, a_block_built_for_another_place_is_data)
{
	struct bq_guard_report rep;
	char type[32];

	PREP_READY(&self->p);
	ASSERT_EQ(0, jbd_block(BQ_VERIFY_CRC32C, 8192, self->blk));
	ASSERT_EQ(0, write_at(self->s.file, 0, self->blk, BLOCK));
	first_signature(self->s.file, type, sizeof(type));
	ASSERT_STREQ("jbd", type);
	EXPECT_EQ(-EBUSY, guard_lib(self->s.file, &rep));
	EXPECT_TRUE(refused_for(&rep, "jbd"));
	EXPECT_EQ(0, rep.nr_own);
}

/*
 * blkqual's verify data, then a filesystem made over it, then blkqual's
 * header put back where it was: the header is intact, the block is not.
 */
TEST_F(file, a_filesystem_made_over_verify_data_is_data)
{
	char size[32], name[320];
	struct bq_guard_report rep;
	uint8_t hdr[BQ_VHDR_SIZE];
	struct run_result r;
	int fd;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	snprintf(name, sizeof(name), "--filename=%s", self->s.file);
	snprintf(size, sizeof(size), "--size=%d", 1 << 20);
	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", name, "--name=w", "--rw=write",
				 "--bs=4k", size, "--verify=crc32c", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	fd = open(self->s.file, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)sizeof(hdr), pread(fd, hdr, sizeof(hdr), 0));
	close(fd);

	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q -E nodiscard %s", self->s.file));
	ASSERT_EQ(0, write_at(self->s.file, 0, hdr, sizeof(hdr)));
	EXPECT_EQ(-EBUSY, guard_lib(self->s.file, &rep));
	EXPECT_TRUE(refused_for(&rep, "ext4"));
	EXPECT_EQ(0, rep.nr_own);
}

/* ---- a loop device: what a run on a scratch device meets ---------------- */

SCRATCH_DEV_FIXTURE(SCRATCH_SIZE)

/* The case CI met: the next run writes over blkqual's own data unforced. */
TEST_F(dev, a_run_writes_over_its_own_data_without_force)
{
	struct run_result r;
	uint8_t blk[BLOCK];

	PREP_READY(&self->p);
	ASSERT_EQ(0, jbd_block(BQ_VERIFY_SHA1, 0, blk));
	ASSERT_EQ(0, scratch_pwrite(&self->s, 0, blk, BLOCK));

	ASSERT_EQ(0, run_blkqual(&r, "guard", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "not data: jbd")) TH_LOG("%s", r.out);
	run_result_free(&r);

	ASSERT_EQ(0, run_blkqual(&r, "run", "--no-status", self->opt, "--name=w",
				 "--rw=write", "--bs=4k", "--size=64k", "--direct=1", NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
