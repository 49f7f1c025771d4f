// SPDX-License-Identifier: GPL-2.0-only
/*
 * suggest_test.c - "did you mean": which near misses get a suggestion
 *
 * Every command, the job parser and the vdbench parser share
 * bq_suggest(), so its limits decide what all of them say.
 */
#include "kselftest_harness.h"

#include "blkqual.h"

static const char *const words[] = { "iodepth", "ioengine", "bs", "rw", "size", "only",
				     "xfersizes", "threshold" };
#define NR_WORDS (sizeof(words) / sizeof(words[0]))

TEST(one_typo)
{
	EXPECT_STREQ("iodepth", bq_suggest("iodpth", words, NR_WORDS));
	EXPECT_STREQ("threshold", bq_suggest("threshhold", words, NR_WORDS));
	EXPECT_STREQ("size", bq_suggest("sise", words, NR_WORDS));
}

TEST(swapped_neighbours_are_one_slip)
{
	EXPECT_STREQ("only", bq_suggest("olny", words, NR_WORDS));
	EXPECT_STREQ("iodepth", bq_suggest("iodpeth", words, NR_WORDS));
}

TEST(two_slips_only_in_long_words)
{
	EXPECT_STREQ("threshold", bq_suggest("trehshold", words, NR_WORDS));
	EXPECT_STREQ("xfersizes", bq_suggest("xfersise", words, NR_WORDS));
	/* Two slips in a short word make another word, not a typo. */
	EXPECT_NULL(bq_suggest("sixx", words, NR_WORDS));
}

TEST(unrelated_and_degenerate)
{
	EXPECT_NULL(bq_suggest("verify", words, NR_WORDS));
	EXPECT_NULL(bq_suggest("", (const char *const[]){ "abcd" }, 1));
	EXPECT_NULL(bq_suggest("iodepth", words, 0));
	/* Words too long to be options are never close to anything. */
	EXPECT_NULL(bq_suggest("iodepthiodepthiodepthiodepthiodepthiodepthiodepthiodepthiodepth",
			       words, NR_WORDS));
}

TEST(exact_word_is_its_own_suggestion)
{
	EXPECT_STREQ("bs", bq_suggest("bs", words, NR_WORDS));
}

TEST_HARNESS_MAIN
