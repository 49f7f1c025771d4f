// SPDX-License-Identifier: GPL-2.0-only
/*
 * raid0_layout_test.c - the md RAID0 layout library
 *
 * The map is checked against a second model written differently: chunks
 * dealt one by one, in array order, to the zone's members, each member
 * filling its part of the zone from the top.  Arrays are small enough to
 * walk every sector.  Whether both models are md's is the VM test's job
 * (selftests/vm/guest_raid_test.c); the fixed figures here that come from
 * the kernel say so.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "blkqual_raid.h"
#include "../raid/raid_int.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The issue's hand-worked array: 64, 40, 40, 40 and 100 sectors, chunk 8. */
static const uint64_t issue_sizes[] = { 64, 40, 40, 40, 100 };

struct place {
	uint64_t sector;
	int member;
	uint64_t member_sector;
};

static void expect_places(struct __test_metadata *_metadata, const struct bq_raid0 *r,
			  const struct place *want, int nr)
{
	for (int i = 0; i < nr; i++) {
		uint64_t ms = 0;
		int m = -1;

		ASSERT_EQ(0, bq_raid0_map(r, want[i].sector, &m, &ms, NULL));
		EXPECT_EQ(want[i].member, m) TH_LOG("array sector %llu",
						    (unsigned long long)want[i].sector);
		EXPECT_EQ(want[i].member_sector, ms) TH_LOG("array sector %llu",
							    (unsigned long long)want[i].sector);
	}
}

/*
 * The second model: walk each zone chunk by chunk.  The original layout
 * starts dealing at the member the array's chunk count points to, the
 * alternate one at the zone's first member; each member takes its chunks
 * in order from the zone's start on it.  Fills @member and @msector (the
 * chunk's first sector, data offset included) for every chunk of the
 * zones.
 */
static void deal_chunks(const struct bq_raid0 *r, int *member, uint64_t *msector)
{
	uint64_t chunk = r->chunk_sectors, start = 0, g = 0;

	for (int z = 0; z < r->nr_zones; z++) {
		const struct bq_raid0_zone *zone = &r->zones[z];
		uint64_t next[BQ_RAID0_MAX_MEMBERS] = { 0 };
		int nb = zone->nr_members;
		int turn = 0;

		if (r->layout == BQ_RAID0_ORIGINAL)
			turn = (int)(start / chunk % (uint64_t)nb);

		for (uint64_t s = start; s < zone->end; s += chunk, g++) {
			int m = zone->members[turn];

			member[g] = m;
			msector[g] = r->members[m].data_offset + zone->dev_start +
				     next[turn]++ * chunk;
			turn = (turn + 1) % nb;
		}
		start = zone->end;
	}
}

/*
 * Every array sector maps into its member's data area, no two to the same
 * place, as the second model says, and the chunk-end count is right; when
 * md's size reaches the last zone's end, every sector of every data area
 * is used.
 */
static void check_layout(struct __test_metadata *_metadata, const uint64_t *sizes,
			 const uint64_t *offsets, int nr, uint64_t chunk, enum bq_raid0_layout lay)
{
	uint64_t base[BQ_RAID0_MAX_MEMBERS + 1] = { 0 }, *msector;
	uint64_t total, nchunks, size;
	struct bq_raid0 r;
	unsigned char *hit;
	int *member;

	ASSERT_EQ(0, bq_raid0_init(&r, sizes, offsets, nr, chunk, lay));
	for (int i = 0; i < nr; i++)
		base[i + 1] = base[i] + r.members[i].sectors;
	total = base[nr];
	size = bq_raid0_size(&r);
	ASSERT_EQ(total, r.zones[r.nr_zones - 1].end);
	ASSERT_LE(size, total);
	if (!(chunk & (chunk - 1))) {
		ASSERT_EQ(total, size);
	}

	nchunks = total / chunk;
	hit = calloc(total + 1, 1);
	member = calloc(nchunks + 1, sizeof(*member));
	msector = calloc(nchunks + 1, sizeof(*msector));
	ASSERT_NE(NULL, hit);
	ASSERT_NE(NULL, member);
	ASSERT_NE(NULL, msector);
	deal_chunks(&r, member, msector);

	for (uint64_t s = 0; s < size; s++) {
		uint64_t ms, left, off, in_chunk = s % chunk;
		int m;

		ASSERT_EQ(0, bq_raid0_map(&r, s, &m, &ms, &left));
		ASSERT_GE(m, 0);
		ASSERT_LT(m, nr);
		ASSERT_EQ(member[s / chunk], m) TH_LOG("chunk %d, sector %llu, layout %d",
						      (int)chunk, (unsigned long long)s, lay);
		ASSERT_EQ(msector[s / chunk] + in_chunk, ms);
		off = r.members[m].data_offset;
		ASSERT_GE(ms, off);
		ASSERT_LT(ms - off, r.members[m].sectors);
		ASSERT_EQ(0, hit[base[m] + ms - off]) TH_LOG("sector %llu mapped twice",
							      (unsigned long long)s);
		hit[base[m] + ms - off] = 1;
		ASSERT_EQ(chunk - in_chunk < size - s ? chunk - in_chunk : size - s, left);
	}
	for (uint64_t i = 0, n = 0; i < total; i++) {
		n += hit[i];
		if (i == total - 1) {
			EXPECT_EQ(size, n);
		}
		if (size == total) {
			ASSERT_EQ(1, hit[i]) TH_LOG("member sector %llu unused",
						    (unsigned long long)i);
		}
	}
	EXPECT_EQ(-ERANGE, bq_raid0_map(&r, size, &(int){ 0 }, &(uint64_t){ 0 }, NULL));
	free(hit);
	free(member);
	free(msector);
}

static const uint64_t chunks[] = { 1, 2, 3, 5, 7, 8, 12, 16, 24, 40 };
static const enum bq_raid0_layout layouts[] = { BQ_RAID0_ORIGINAL, BQ_RAID0_ALTERNATE };

static void check_all(struct __test_metadata *_metadata, const uint64_t *sizes, int nr)
{
	for (int c = 0; c < N(chunks); c++) {
		for (int l = 0; l < N(layouts); l++)
			check_layout(_metadata, sizes, NULL, nr, chunks[c], layouts[l]);
	}
}

/* ---- the issue's example ------------------------------------------------ */

TEST(issue_vector_zones)
{
	struct bq_raid0 r;

	ASSERT_EQ(0, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(96, r.members[4].sectors);
	ASSERT_EQ(3, r.nr_zones);
	EXPECT_EQ(200, r.zones[0].end);
	EXPECT_EQ(248, r.zones[1].end);
	EXPECT_EQ(280, r.zones[2].end);
	EXPECT_EQ(280, bq_raid0_size(&r));
	EXPECT_EQ(0, r.zones[0].dev_start);
	EXPECT_EQ(40, r.zones[1].dev_start);
	EXPECT_EQ(64, r.zones[2].dev_start);
	ASSERT_EQ(5, r.zones[0].nr_members);
	for (int i = 0; i < 5; i++) {
		EXPECT_EQ(i, r.zones[0].members[i]);
	}
	ASSERT_EQ(2, r.zones[1].nr_members);
	EXPECT_EQ(0, r.zones[1].members[0]);
	EXPECT_EQ(4, r.zones[1].members[1]);
	ASSERT_EQ(1, r.zones[2].nr_members);
	EXPECT_EQ(4, r.zones[2].members[0]);
}

TEST(issue_vector_original)
{
	/* Zone 1 starts at chunk 25 of the array: 25 % 2 picks its member 1. */
	static const struct place want[] = {
		{ 0, 0, 0 }, { 8, 1, 0 }, { 40, 0, 8 }, { 192, 4, 32 }, { 199, 4, 39 },
		{ 200, 4, 40 }, { 203, 4, 43 }, { 208, 0, 40 }, { 216, 4, 48 },
		{ 224, 0, 48 }, { 232, 4, 56 }, { 240, 0, 56 }, { 247, 0, 63 },
		{ 248, 4, 64 }, { 256, 4, 72 }, { 264, 4, 80 }, { 279, 4, 95 },
	};
	struct bq_raid0 r;

	ASSERT_EQ(0, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_ORIGINAL));
	expect_places(_metadata, &r, want, N(want));
}

TEST(issue_vector_alternate)
{
	/* Zone 1 is dealt from its own first member. */
	static const struct place want[] = {
		{ 0, 0, 0 }, { 8, 1, 0 }, { 40, 0, 8 }, { 192, 4, 32 }, { 199, 4, 39 },
		{ 200, 0, 40 }, { 203, 0, 43 }, { 208, 4, 40 }, { 216, 0, 48 },
		{ 224, 4, 48 }, { 232, 0, 56 }, { 240, 4, 56 }, { 247, 4, 63 },
		{ 248, 4, 64 }, { 256, 4, 72 }, { 264, 4, 80 }, { 279, 4, 95 },
	};
	struct bq_raid0 r;

	ASSERT_EQ(0, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_ALTERNATE));
	expect_places(_metadata, &r, want, N(want));
}

TEST(layouts_differ_only_past_zone_0)
{
	struct bq_raid0 o, a;
	int differ = 0;

	ASSERT_EQ(0, bq_raid0_init(&o, issue_sizes, NULL, 5, 8, BQ_RAID0_ORIGINAL));
	ASSERT_EQ(0, bq_raid0_init(&a, issue_sizes, NULL, 5, 8, BQ_RAID0_ALTERNATE));
	for (uint64_t s = 0; s < 280; s++) {
		uint64_t ms1, ms2;
		int m1, m2;

		ASSERT_EQ(0, bq_raid0_map(&o, s, &m1, &ms1, NULL));
		ASSERT_EQ(0, bq_raid0_map(&a, s, &m2, &ms2, NULL));
		if (m1 != m2 || ms1 != ms2) {
			/* Zone 2 has one member: no choice there either. */
			ASSERT_GE(s, 200);
			ASSERT_LT(s, 248);
			differ++;
		}
	}
	EXPECT_EQ(48, differ);
}

/* ---- every sector, many shapes ------------------------------------------ */

TEST(bijection_equal_members)
{
	static const uint64_t four[] = { 96, 96, 96, 96 };
	static const uint64_t three_odd[] = { 101, 101, 101 };
	static const uint64_t one[] = { 77 };

	check_all(_metadata, four, N(four));
	check_all(_metadata, three_odd, N(three_odd));
	check_all(_metadata, one, N(one));
}

TEST(bijection_unequal_members)
{
	static const uint64_t issue[] = { 64, 40, 40, 40, 100 };
	static const uint64_t six[] = { 10, 200, 30, 30, 200, 55 };
	static const uint64_t wide[] = { 1000, 13, 500, 13, 999, 250, 251 };
	static const uint64_t two[] = { 48, 120 };
	static const uint64_t growing[] = { 8, 16, 24, 32, 40, 48, 56, 64 };

	check_all(_metadata, issue, N(issue));
	check_all(_metadata, six, N(six));
	check_all(_metadata, wide, N(wide));
	check_all(_metadata, two, N(two));
	check_all(_metadata, growing, N(growing));
}

TEST(sixty_four_members)
{
	uint64_t sizes[BQ_RAID0_MAX_MEMBERS];

	for (int i = 0; i < BQ_RAID0_MAX_MEMBERS; i++)
		sizes[i] = 16 + (uint64_t)(i % 5) * 8;
	check_layout(_metadata, sizes, NULL, BQ_RAID0_MAX_MEMBERS, 8, BQ_RAID0_ORIGINAL);
	check_layout(_metadata, sizes, NULL, BQ_RAID0_MAX_MEMBERS, 3, BQ_RAID0_ALTERNATE);
}

TEST(data_offset_is_added)
{
	static const uint64_t offsets[] = { 2048, 0, 7, 100, 1 };
	struct bq_raid0 plain, moved;

	ASSERT_EQ(0, bq_raid0_init(&plain, issue_sizes, NULL, 5, 8, BQ_RAID0_ALTERNATE));
	ASSERT_EQ(0, bq_raid0_init(&moved, issue_sizes, offsets, 5, 8, BQ_RAID0_ALTERNATE));
	EXPECT_EQ(bq_raid0_size(&plain), bq_raid0_size(&moved));
	for (uint64_t s = 0; s < bq_raid0_size(&plain); s++) {
		uint64_t ms1, ms2;
		int m1, m2;

		ASSERT_EQ(0, bq_raid0_map(&plain, s, &m1, &ms1, NULL));
		ASSERT_EQ(0, bq_raid0_map(&moved, s, &m2, &ms2, NULL));
		ASSERT_EQ(m1, m2);
		ASSERT_EQ(ms1 + offsets[m1], ms2);
	}
	check_layout(_metadata, issue_sizes, offsets, 5, 8, BQ_RAID0_ORIGINAL);
	check_layout(_metadata, issue_sizes, offsets, 5, 12, BQ_RAID0_ALTERNATE);
}

/* ---- when the layout does not matter ------------------------------------ */

static void expect_same_maps(struct __test_metadata *_metadata, const uint64_t *sizes, int nr,
			     uint64_t chunk)
{
	struct bq_raid0 o, a, u;

	ASSERT_EQ(0, bq_raid0_init(&o, sizes, NULL, nr, chunk, BQ_RAID0_ORIGINAL));
	ASSERT_EQ(0, bq_raid0_init(&a, sizes, NULL, nr, chunk, BQ_RAID0_ALTERNATE));
	/* md takes an array without a layout only where it cannot matter. */
	ASSERT_EQ(0, bq_raid0_init(&u, sizes, NULL, nr, chunk, BQ_RAID0_UNSET));
	EXPECT_EQ(BQ_RAID0_ORIGINAL, u.layout);
	for (uint64_t s = 0; s < bq_raid0_size(&o); s++) {
		uint64_t ms1, ms2, ms3;
		int m1, m2, m3;

		ASSERT_EQ(0, bq_raid0_map(&o, s, &m1, &ms1, NULL));
		ASSERT_EQ(0, bq_raid0_map(&a, s, &m2, &ms2, NULL));
		ASSERT_EQ(0, bq_raid0_map(&u, s, &m3, &ms3, NULL));
		ASSERT_EQ(m1, m2);
		ASSERT_EQ(ms1, ms2);
		ASSERT_EQ(m1, m3);
		ASSERT_EQ(ms1, ms3);
	}
}

TEST(single_zone_layouts_agree)
{
	static const uint64_t equal[] = { 200, 200, 200 };
	/* Unequal sizes that round to the same number of chunks. */
	static const uint64_t rounds_equal[] = { 64, 70, 71 };

	for (int c = 0; c < N(chunks); c++)
		expect_same_maps(_metadata, equal, N(equal), chunks[c]);
	expect_same_maps(_metadata, rounds_equal, N(rounds_equal), 8);
}

TEST(one_member_past_zone_0_layouts_agree)
{
	static const uint64_t sizes[] = { 40, 40, 100, 40 };
	struct bq_raid0 r;

	ASSERT_EQ(0, bq_raid0_init(&r, sizes, NULL, 4, 8, BQ_RAID0_UNSET));
	ASSERT_EQ(2, r.nr_zones);
	EXPECT_EQ(1, r.zones[1].nr_members);
	expect_same_maps(_metadata, sizes, N(sizes), 8);
	expect_same_maps(_metadata, sizes, N(sizes), 3);
}

TEST(unset_layout_refused_where_it_matters)
{
	struct bq_raid0 r;

	EXPECT_EQ(-EOPNOTSUPP, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_UNSET));
}

/* ---- what md accepts ------------------------------------------------------ */

TEST(invalid_input)
{
	uint64_t sizes[BQ_RAID0_MAX_MEMBERS + 1];
	uint64_t huge[] = { UINT64_MAX - 7, UINT64_MAX - 7 };
	uint64_t far[] = { UINT64_MAX - 4, 0 };
	struct bq_raid0 r;

	for (int i = 0; i < N(sizes); i++)
		sizes[i] = 64;
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, 0, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, -1, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, BQ_RAID0_MAX_MEMBERS + 1, 8,
					 BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, NULL, NULL, 2, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, 2, 0, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, 2, BQ_RAID0_MAX_CHUNK_SECTORS + 1,
					 BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, 2, 8, (enum bq_raid0_layout)3));
	EXPECT_EQ(-EINVAL, bq_raid0_init(&r, sizes, NULL, 2, 8, (enum bq_raid0_layout)-1));
	EXPECT_EQ(-EOVERFLOW, bq_raid0_init(&r, huge, NULL, 2, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(-EOVERFLOW, bq_raid0_init(&r, sizes, far, 2, 8, BQ_RAID0_ORIGINAL));
	/* The largest chunk and the most members are fine. */
	EXPECT_EQ(0, bq_raid0_init(&r, sizes, NULL, 2, BQ_RAID0_MAX_CHUNK_SECTORS,
				   BQ_RAID0_ORIGINAL));
	EXPECT_EQ(0, bq_raid0_size(&r));
	EXPECT_EQ(0, bq_raid0_init(&r, sizes, NULL, BQ_RAID0_MAX_MEMBERS, 8, BQ_RAID0_ORIGINAL));
}

/*
 * md does not refuse a member smaller than one chunk: it rounds it to
 * nothing, and zone 0 - as wide as the smallest member - is empty.  The
 * figures are the kernel's (6.1, arrays built through md's sysfs files).
 */
TEST(member_smaller_than_a_chunk)
{
	static const uint64_t first[] = { 4, 40, 40 };
	static const uint64_t middle[] = { 40, 4, 40, 64 };
	static const uint64_t all[] = { 4, 6 };
	struct bq_raid0 r;
	uint64_t ms;
	int m;

	ASSERT_EQ(0, bq_raid0_init(&r, first, NULL, 3, 8, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(80, bq_raid0_size(&r));
	ASSERT_EQ(2, r.nr_zones);
	EXPECT_EQ(0, r.zones[0].end);
	EXPECT_EQ(3, r.zones[0].nr_members);
	EXPECT_EQ(80, r.zones[1].end);
	EXPECT_EQ(0, r.zones[1].dev_start);
	ASSERT_EQ(2, r.zones[1].nr_members);
	EXPECT_EQ(1, r.zones[1].members[0]);
	ASSERT_EQ(0, bq_raid0_map(&r, 0, &m, &ms, NULL));
	EXPECT_EQ(1, m);
	check_all(_metadata, first, N(first));

	ASSERT_EQ(0, bq_raid0_init(&r, middle, NULL, 4, 8, BQ_RAID0_ALTERNATE));
	EXPECT_EQ(144, bq_raid0_size(&r));
	ASSERT_EQ(3, r.nr_zones);
	EXPECT_EQ(0, r.zones[0].end);
	EXPECT_EQ(120, r.zones[1].end);
	EXPECT_EQ(144, r.zones[2].end);
	check_all(_metadata, middle, N(middle));

	/* An array of nothing, which md runs too. */
	ASSERT_EQ(0, bq_raid0_init(&r, all, NULL, 2, 8, BQ_RAID0_UNSET));
	EXPECT_EQ(0, bq_raid0_size(&r));
	EXPECT_EQ(-ERANGE, bq_raid0_map(&r, 0, &m, &ms, NULL));
}

/*
 * md's array size for chunks that are not powers of two falls short of
 * its zones (raid0_size() masks with chunk - 1).  The sizes are what
 * Linux 6.1 reported for these members.
 */
TEST(non_power_of_two_chunk_size_is_mds)
{
	/* mdadm, 5 KiB chunk, three 10 MiB members: 18432 data sectors each. */
	static const uint64_t ten[] = { 18432, 18432, 18432 };
	/* The same with a 16 MiB member first. */
	static const uint64_t mixed[] = { 30720, 18432, 18432, 18432 };
	/* md's sysfs: 20, 31 and 40 KiB with a 1.5 KiB chunk. */
	static const uint64_t tiny[] = { 40, 62, 80 };
	/* 12 KiB chunks divide these: no loss. */
	static const uint64_t even[] = { 30720, 18432, 18432, 18432, 49152 };
	struct bq_raid0 r;
	uint64_t ms, left;
	int m;

	ASSERT_EQ(0, bq_raid0_init(&r, ten, NULL, 3, 10, BQ_RAID0_UNSET));
	EXPECT_EQ(55290, r.zones[0].end);
	EXPECT_EQ(55266, bq_raid0_size(&r));
	ASSERT_EQ(0, bq_raid0_init(&r, mixed, NULL, 4, 10, BQ_RAID0_ORIGINAL));
	EXPECT_EQ(85986, bq_raid0_size(&r));
	ASSERT_EQ(0, bq_raid0_init(&r, tiny, NULL, 3, 3, BQ_RAID0_ALTERNATE));
	EXPECT_EQ(177, r.zones[r.nr_zones - 1].end);
	EXPECT_EQ(173, bq_raid0_size(&r));
	/* 173 is inside chunk 57: the count stops at the array's end. */
	ASSERT_EQ(0, bq_raid0_map(&r, 171, &m, &ms, &left));
	EXPECT_EQ(2, left);
	EXPECT_EQ(-ERANGE, bq_raid0_map(&r, 173, &m, &ms, &left));
	check_layout(_metadata, tiny, NULL, 3, 3, BQ_RAID0_ALTERNATE);
	ASSERT_EQ(0, bq_raid0_init(&r, even, NULL, 5, 24, BQ_RAID0_ALTERNATE));
	EXPECT_EQ(r.zones[r.nr_zones - 1].end, bq_raid0_size(&r));
}

TEST(chunk_against_block_size)
{
	EXPECT_EQ(0, bq_raid0_check_chunk(8, 512));
	EXPECT_EQ(0, bq_raid0_check_chunk(3, 512));
	EXPECT_EQ(0, bq_raid0_check_chunk(1, 512));
	EXPECT_EQ(0, bq_raid0_check_chunk(8, 4096));
	EXPECT_EQ(0, bq_raid0_check_chunk(24, 4096));
	/* 6 KiB on 4 KiB sectors: md says "not multiple of block size". */
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(12, 4096));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(4, 4096));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(0, 512));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(8, 0));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(8, 256));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(8, 1000));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(BQ_RAID0_MAX_CHUNK_SECTORS + 1, 512));
	EXPECT_EQ(0, bq_raid0_check_chunk(BQ_RAID0_MAX_CHUNK_SECTORS, 512));
}

/* ---- splitting I/O -------------------------------------------------------- */

struct pieces {
	struct bq_raid0_piece p[64];
	int nr;
	int stop_after;		/* return 7 after this many pieces; 0: never */
};

static int collect(const struct bq_raid0_piece *piece, void *arg)
{
	struct pieces *c = arg;

	if (c->nr < N(c->p))
		c->p[c->nr] = *piece;
	c->nr++;
	return c->stop_after && c->nr == c->stop_after ? 7 : 0;
}

TEST(split_at_chunk_boundaries)
{
	struct bq_raid0 r;
	struct pieces c = { 0 };

	ASSERT_EQ(0, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_ORIGINAL));
	ASSERT_EQ(0, bq_raid0_split(&r, 195, 20, collect, &c));
	ASSERT_EQ(3, c.nr);
	EXPECT_EQ(195, c.p[0].array_sector);
	EXPECT_EQ(5, c.p[0].sectors);
	EXPECT_EQ(4, c.p[0].member);
	EXPECT_EQ(35, c.p[0].member_sector);
	EXPECT_EQ(200, c.p[1].array_sector);
	EXPECT_EQ(8, c.p[1].sectors);
	EXPECT_EQ(4, c.p[1].member);
	EXPECT_EQ(40, c.p[1].member_sector);
	EXPECT_EQ(208, c.p[2].array_sector);
	EXPECT_EQ(7, c.p[2].sectors);
	EXPECT_EQ(0, c.p[2].member);
	EXPECT_EQ(40, c.p[2].member_sector);
}

TEST(split_covers_every_sector_once)
{
	static const uint64_t sizes[] = { 30, 64, 31, 100 };

	for (int c = 0; c < N(chunks); c++) {
		struct bq_raid0 r;
		uint64_t size;

		ASSERT_EQ(0, bq_raid0_init(&r, sizes, NULL, 4, chunks[c], BQ_RAID0_ALTERNATE));
		size = bq_raid0_size(&r);
		for (uint64_t start = 0; start < size; start += 7) {
			uint64_t len = size - start < 45 ? size - start : 45;
			struct pieces got = { 0 };
			uint64_t s = start;

			ASSERT_EQ(0, bq_raid0_split(&r, start, len, collect, &got));
			ASSERT_LE(got.nr, N(got.p));
			for (int i = 0; i < got.nr; i++) {
				const struct bq_raid0_piece *p = &got.p[i];

				ASSERT_EQ(s, p->array_sector);
				ASSERT_LT(0, p->sectors);
				ASSERT_LE(p->sectors, chunks[c]);
				/* A piece never crosses a chunk boundary, and is contiguous. */
				for (uint64_t k = 0; k < p->sectors; k++) {
					uint64_t ms;
					int m;

					ASSERT_EQ(0, bq_raid0_map(&r, s + k, &m, &ms, NULL));
					ASSERT_EQ(p->member, m);
					ASSERT_EQ(p->member_sector + k, ms);
				}
				if (i < got.nr - 1) {
					ASSERT_EQ(0, (s + p->sectors) % chunks[c]);
				}
				s += p->sectors;
			}
			ASSERT_EQ(start + len, s);
		}
	}
}

TEST(split_edges)
{
	struct bq_raid0 r;
	struct pieces c = { 0 };

	ASSERT_EQ(0, bq_raid0_init(&r, issue_sizes, NULL, 5, 8, BQ_RAID0_ALTERNATE));
	EXPECT_EQ(0, bq_raid0_split(&r, 100, 0, collect, &c));
	EXPECT_EQ(0, bq_raid0_split(&r, 280, 0, collect, &c));
	EXPECT_EQ(0, c.nr);
	/* Past the end: refused before anything is issued. */
	EXPECT_EQ(-ERANGE, bq_raid0_split(&r, 270, 11, collect, &c));
	EXPECT_EQ(-ERANGE, bq_raid0_split(&r, 281, 0, collect, &c));
	EXPECT_EQ(-ERANGE, bq_raid0_split(&r, 8, UINT64_MAX, collect, &c));
	EXPECT_EQ(0, c.nr);
	ASSERT_EQ(0, bq_raid0_split(&r, 0, 280, collect, &c));
	EXPECT_EQ(35, c.nr);
	/* The callback's value stops the walk and comes back. */
	c.nr = 0;
	c.stop_after = 2;
	EXPECT_EQ(7, bq_raid0_split(&r, 0, 280, collect, &c));
	EXPECT_EQ(2, c.nr);
}

TEST_HARNESS_MAIN
