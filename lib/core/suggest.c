// SPDX-License-Identifier: GPL-2.0-only
/*
 * suggest.c - "did you mean": the valid word closest to a misspelled one,
 * shared by the command line, job files and vdbench parameter files
 */
#include <stdint.h>
#include <string.h>

#include "internal.h"

#define WORD_MAX 64

/*
 * Edit distance with adjacent transpositions: "--olny" is one slip from
 * "--only", the commonest typing mistake.  Words are short, so O(n*m).
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev2[WORD_MAX], prev[WORD_MAX], cur[WORD_MAX];

	if (la >= WORD_MAX - 1 || lb >= WORD_MAX - 1)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		memcpy(prev2, prev, (lb + 1) * sizeof(*prev));
		memcpy(prev, cur, (lb + 1) * sizeof(*prev));
	}
	return prev[lb];
}

const char *bq_suggest(const char *word, const char *const *candidates, size_t n)
{
	/* One slip in a short word, two in a longer one; more is a different word. */
	size_t best = SIZE_MAX, limit = strlen(word) > 4 ? 2 : 1;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);

		if (d < best) {
			best = d;
			pick = candidates[i];
		}
	}
	return best <= limit ? pick : NULL;
}
