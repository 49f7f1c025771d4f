// SPDX-License-Identifier: GPL-2.0-only
/*
 * random_test.c - the seeded random streams, pinned bit for bit
 *
 * Three things depend on blkqual's generators giving the same numbers
 * forever: verify state files written by an older blkqual (the payload of
 * every block is a function of its seed, offset and generation),
 * randrepeat offsets (the same job touches the same blocks), and
 * compare's bootstrap (a report can be reproduced from its seed).  These
 * golden values were taken from the generators as they were before they
 * became one; any change to the streams fails here first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "blkqual_stats.h"
#include "stats/stats_int.h"
#include "blkqual_verify.h"
#include "verify/verify_int.h"

static uint64_t fnv1a(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* First values of the raw stream and of random offsets, seed 42. */
TEST(offset_streams)
{
	static const uint64_t raw[4] = {
		0xfde6dc7fe2ec5e64ULL, 0xc50da53101795238ULL,
		0xb82154855a65ddb2ULL, 0xd99a2743ebe60087ULL,
	};
	static const uint64_t offs[4] = { 612135, 149886, 626262, 226740 };
	struct bq_offgen_params p = { .nblocks = 1000000, .random = true, .seed = 42 };
	uint64_t got_raw[4], got_offs[4];
	struct bq_offgen g;

	ASSERT_EQ(0, bq_offgen_init(&g, &p));
	for (int k = 0; k < 4; k++)
		got_raw[k] = bq_rand_next(&g);
	ASSERT_EQ(0, bq_offgen_init(&g, &p));
	for (int k = 0; k < 4; k++)
		got_offs[k] = bq_offgen_next(&g);
	EXPECT_EQ(0, memcmp(raw, got_raw, sizeof(raw)))
		TH_LOG("raw stream %#llx ...", (unsigned long long)got_raw[0]);
	EXPECT_EQ(0, memcmp(offs, got_offs, sizeof(offs)))
		TH_LOG("offsets %llu ...", (unsigned long long)got_offs[0]);
}

/* A 4 KiB verified block: payload, header and checksum. */
TEST(verify_payload)
{
	struct bq_vparams vp;
	void *buf = NULL;

	ASSERT_EQ(0, bq_vparams_init(&vp, BQ_VERIFY_CRC32C, 4096, NULL, 0));
	ASSERT_EQ(0, posix_memalign(&buf, 4096, 4096));
	bq_verify_fill(buf, &vp, 1 << 20, 3, 0x5eed, 123456789, 2);
	EXPECT_EQ(0x8a9946e0ecf2e3a2ULL, fnv1a(buf, 4096));
	free(buf);
	bq_vparams_free(&vp);
}

/* The bootstrap's interval for fixed samples and seed, to the last bit. */
TEST(bootstrap_interval)
{
	const double a[6] = { 100, 103, 98, 101, 99, 102 };
	const double b[6] = { 90, 94, 91, 89, 93, 92 };
	double lo, hi;

	ASSERT_EQ(0, bq_bootstrap_change(a, 6, b, 6, 0.95, 2000, 7, &lo, &hi));
	EXPECT_EQ(0, memcmp(&lo, &(double){ -0x1.df881df881df8p-4 }, sizeof(lo)))
		TH_LOG("lo %a", lo);
	EXPECT_EQ(0, memcmp(&hi, &(double){ -0x1.0a3d70a3d70ap-4 }, sizeof(hi)))
		TH_LOG("hi %a", hi);
}

TEST_HARNESS_MAIN
