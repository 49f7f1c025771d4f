// SPDX-License-Identifier: GPL-2.0-only
/*
 * json_prune.c - dropping the parts of a JSON text a reader does not use
 *
 * A run's result is mostly histogram buckets, intervals and per-thread
 * figures; blkqual fleet reads a few dozen numbers of it, from up to
 * 100,000 files.  json-c has no way to skip a subtree: it allocates every
 * value it meets, which was three quarters of fleet's time.  So the text
 * is cut first, knowing only enough JSON to find strings and brackets.
 */
#include <stdbool.h>
#include <string.h>

#include "json_prune.h"

#define NO_END ((size_t)-1)

/* Past the closing quote of the string opening at @i, or NO_END. */
static size_t string_end(const char *buf, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		const char *q = memchr(buf + i, '"', len - i);
		size_t bs = 0;

		if (!q)
			return NO_END;
		i = (size_t)(q - buf);
		/* An odd run of backslashes escapes the quote. */
		while (buf[i - 1 - bs] == '\\')
			bs++;
		if (!(bs & 1))
			return i + 1;
	}
	return NO_END;
}

/* Past the bracket closing the one at @i, or NO_END; @nl counts newlines. */
static size_t value_end(const char *buf, size_t len, size_t i, size_t *nl)
{
	size_t depth = 0, start = i, end = NO_END;

	while (i < len) {
		/* The text is NUL-terminated: a NUL inside it is stepped over. */
		i += strcspn(buf + i, "\"{}[]");
		if (i >= len)
			break;
		switch (buf[i]) {
		case '"':
			i = string_end(buf, len, i);
			if (i == NO_END)
				return NO_END;
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (!--depth)
				end = i + 1;
			break;
		}
		i++;
		if (end != NO_END)
			break;
	}
	if (end == NO_END)
		return NO_END;
	*nl = 0;
	for (i = start; i < end; i++)
		*nl += buf[i] == '\n';
	return end;
}

static bool is_key(const char *s, size_t n, const char *const *keys)
{
	for (; *keys; keys++)
		if (strlen(*keys) == n && !memcmp(*keys, s, n))
			return true;
	return false;
}

static size_t skip_space(const char *buf, size_t len, size_t i)
{
	while (i < len && strchr(" \t\r\n", buf[i]) && buf[i])
		i++;
	return i;
}

/* The text read so far, buf[*r, @to), kept where the text now ends (*w). */
static void keep(char *buf, size_t *r, size_t *w, size_t to)
{
	if (*w != *r)
		memmove(buf + *w, buf + *r, to - *r);
	*w += to - *r;
	*r = to;
}

size_t json_prune(char *buf, size_t len, const char *const *keys)
{
	size_t r = 0, w = 0;

	while (r < len) {
		const char *q = memchr(buf + r, '"', len - r);
		size_t s, e, v, end, nl;

		if (!q)
			break;
		s = (size_t)(q - buf);
		e = string_end(buf, len, s);
		if (e == NO_END)
			break;
		v = skip_space(buf, len, e);
		if (v >= len || buf[v] != ':' || !is_key(buf + s + 1, e - s - 2, keys)) {
			keep(buf, &r, &w, e);
			continue;
		}
		v = skip_space(buf, len, v + 1);
		if (v >= len || (buf[v] != '{' && buf[v] != '[')) {
			keep(buf, &r, &w, v);
			continue;
		}
		end = value_end(buf, len, v, &nl);
		if (end == NO_END)
			break;
		/* "{}" stays: the text never grows. */
		if (end - v < 4 + nl) {
			keep(buf, &r, &w, end);
			continue;
		}
		keep(buf, &r, &w, v);
		memcpy(buf + w, "null", 4);
		memset(buf + w + 4, '\n', nl);
		w += 4 + nl;
		r = end;
	}
	keep(buf, &r, &w, len);
	buf[w] = '\0';
	return w;
}
