// SPDX-License-Identifier: GPL-2.0-only
/*
 * mounts.c - which block devices are mounted or used as swap
 *
 * Mounts are matched by device number from mountinfo, not by the source
 * string: "/dev/root", by-uuid links and bind mounts all name the same
 * device differently, but carry the same major:minor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "internal.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static int parse_mountinfo_line(char *line, struct bq_mount *m)
{
	char *field[10] = { 0 }, *save = NULL, *tok, *sep;
	unsigned int maj, min;
	int n = 0;

	/* Optional fields end at " - "; split the two halves first. */
	sep = strstr(line, " - ");
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < 5; tok = strtok_r(NULL, " ", &save))
		field[n++] = tok;
	if (n < 5 || sscanf(field[2], "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	save = NULL;
	field[5] = strtok_r(sep + 3, " ", &save);
	field[6] = field[5] ? strtok_r(NULL, " ", &save) : NULL;
	if (!field[6])
		return -EINVAL;

	memset(m, 0, sizeof(*m));
	m->devt = makedev(maj, min);
	unescape_octal(field[4]);
	unescape_octal(field[6]);
	bq_strlcpy(m->fstype, field[5], sizeof(m->fstype));
	m->target = strdup(field[4]);
	m->source = strdup(field[6]);
	if (!m->target || !m->source) {
		free(m->target);
		free(m->source);
		return -ENOMEM;
	}
	return 0;
}

static int read_mountinfo(struct bq_ctx *ctx, struct bq_mounts *mt)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, alloc = 0;
	FILE *f;
	int ret = 0;

	ret = bq_path(path, sizeof(path), ctx->proc, "/self/mountinfo");
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) > 0) {
		struct bq_mount m;

		line[strcspn(line, "\n")] = '\0';
		ret = parse_mountinfo_line(line, &m);
		if (ret == -ENOMEM)
			break;
		/* A line that does not parse is not a mount to know about. */
		if (ret) {
			ret = 0;
			continue;
		}
		if (mt->nr == alloc) {
			struct bq_mount *grown;

			alloc = alloc ? alloc * 2 : 32;
			grown = realloc(mt->m, alloc * sizeof(*grown));
			if (!grown) {
				free(m.target);
				free(m.source);
				ret = -ENOMEM;
				break;
			}
			mt->m = grown;
		}
		mt->m[mt->nr++] = m;
	}
	free(line);
	fclose(f);
	return ret;
}

static int read_swaps(struct bq_ctx *ctx, struct bq_mounts *mt)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	bool header = true;
	FILE *f;
	int ret = 0;

	ret = bq_path(path, sizeof(path), ctx->proc, "/swaps");
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) > 0) {
		char *end;

		if (header) {
			header = false;
			continue;
		}
		end = strpbrk(line, " \t\n");
		if (end)
			*end = '\0';
		unescape_octal(line);
		if (*line) {
			ret = bq_strv_add(&mt->swaps, line);
			if (ret)
				break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/**
 * bq_mounts_read() - read the mount table and the swap list
 * @ctx: context (its proc root is read)
 * @mt: filled in; release with bq_mounts_release()
 *
 * Return: 0 or -errno.
 */
int bq_mounts_read(struct bq_ctx *ctx, struct bq_mounts *mt)
{
	int ret;

	memset(mt, 0, sizeof(*mt));
	ret = read_mountinfo(ctx, mt);
	if (!ret)
		ret = read_swaps(ctx, mt);
	if (ret)
		bq_mounts_release(mt);
	return ret;
}

void bq_mounts_release(struct bq_mounts *mt)
{
	for (size_t i = 0; i < mt->nr; i++) {
		free(mt->m[i].source);
		free(mt->m[i].target);
	}
	free(mt->m);
	mt->m = NULL;
	mt->nr = 0;
	bq_strv_free(&mt->swaps);
}

/**
 * bq_swap_matches() - whether a block device is active swap
 * @ctx: context
 * @mt: mount table with swaps
 * @name: kernel name of the device
 * @devt: its device number
 *
 * Return: true when /proc/swaps lists it.
 */
bool bq_swap_matches(struct bq_ctx *ctx, const struct bq_mounts *mt, const char *name,
		     dev_t devt)
{
	for (size_t i = 0; i < mt->swaps.n; i++) {
		const char *s = mt->swaps.v[i];
		struct stat st;

		if (!strncmp(s, "/dev/", 5) && !strcmp(s + 5, name))
			return true;
		/* Only the live system can resolve /dev/mapper/... and by-uuid links. */
		if (ctx->live && !stat(s, &st) && S_ISBLK(st.st_mode) && st.st_rdev == devt)
			return true;
	}
	return false;
}
