// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpulist_test.c - the kernel CPU list parser
 *
 * Node and device cpulists of captured machines are bigger than this one,
 * so the parser must not consult the running system.
 */
#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"

TEST(single_and_ranges)
{
	int cpus[64];
	int n = bq_cpulist_parse("0-3,8,10-11\n", cpus, 64);

	ASSERT_EQ(7, n);
	EXPECT_EQ(0, cpus[0]);
	EXPECT_EQ(3, cpus[3]);
	EXPECT_EQ(8, cpus[4]);
	EXPECT_EQ(11, cpus[6]);
}

TEST(two_socket_node_list)
{
	int cpus[64];

	/* node0 of a 2 x 8-core server with SMT: bigger than this machine. */
	ASSERT_EQ(16, bq_cpulist_parse("0-7,16-23", cpus, 64));
	EXPECT_EQ(16, cpus[8]);
}

TEST(empty_list_is_zero_cpus)
{
	int cpus[4];

	EXPECT_EQ(0, bq_cpulist_parse("", cpus, 4));
	EXPECT_EQ(0, bq_cpulist_parse("\n", cpus, 4));
}

TEST(malformed_lists)
{
	static const char *const bad[] = {
		"a", "1-", "-1", "3-1", "1,,2", "1 2", "4,2", "0-3,2", "99999999", "1-2-3",
	};
	int cpus[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, bq_cpulist_parse(bad[i], cpus, 64))
			TH_LOG("'%s' was accepted", bad[i]);
	}
}

TEST(too_many_cpus)
{
	int cpus[4];

	EXPECT_EQ(-E2BIG, bq_cpulist_parse("0-4", cpus, 4));
}

TEST_HARNESS_MAIN
