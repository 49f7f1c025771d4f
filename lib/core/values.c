// SPDX-License-Identifier: GPL-2.0-only
/*
 * values.c - the closed set of values a parser's message names
 *
 * blkqual's setters refuse a value by naming the ones they take ("use a,
 * b or c", "one of a, b", "must be 0 or 1").  Shell completion reads the
 * set from there rather than from a second list that would drift, and
 * keeps only the words the setter then takes.
 */
#include <stdbool.h>
#include <string.h>

#include "blkqual_core.h"

/* The list after "use ", "one of " or "must be " in @msg. */
static const char *value_list(const char *msg)
{
	static const char *const lead[] = { ": use ", "(use ", ": one of ", ": must be " };

	for (size_t i = 0; i < sizeof(lead) / sizeof(lead[0]); i++) {
		const char *p = strstr(msg, lead[i]);

		if (p)
			return p + strlen(lead[i]);
	}
	return NULL;
}

static bool plain_word(const char *w, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    w[i]))
			return false;
	return true;
}

/**
 * bq_values_named() - each value a refusal message names that is taken
 * @msg: the message a setter gave for a value it does not take
 * @takes: whether the setter takes a word; true keeps it
 * @ctx: passed to @takes
 * @fn: gets each word kept, in the message's order; non-zero stops
 * @arg: passed to @fn
 *
 * Only plain words count: "zipf:THETA", "0xHEX" and "0..100" name open
 * values, and an aside in parentheses after the list ends it.
 *
 * Return: what @fn returned last, 0 when nothing was named.
 */
int bq_values_named(const char *msg, bool (*takes)(const char *word, void *ctx), void *ctx,
		    int (*fn)(const char *value, void *arg), void *arg)
{
	const char *p = value_list(msg);
	char word[64];
	int ret;

	while (p && *p) {
		size_t len = strcspn(p, ", ()");
		bool or = len == 2 && !strncmp(p, "or", 2);

		if (plain_word(p, len) && len < sizeof(word) && !or) {
			memcpy(word, p, len);
			word[len] = '\0';
			if (takes(word, ctx)) {
				ret = fn(word, arg);
				if (ret)
					return ret;
			}
		}
		p += len;
		if (*p == '(')
			break;	/* "(with an optional :N)": an aside, not values */
		p += strspn(p, ", )");
	}
	return 0;
}
