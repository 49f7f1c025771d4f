// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctx.c - library context: where /sys, /proc and /dev are read from
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int set_root(char *dst, const char *given, const char *env, const char *dflt,
		    bool *moved)
{
	const char *root = given;
	size_t len;

	if (!root || !*root)
		root = getenv(env);
	if (!root || !*root)
		root = dflt;
	len = strlen(root);
	/* Strip trailing slashes so "root" + "/block" never doubles them. */
	while (len > 1 && root[len - 1] == '/')
		len--;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(dst, root, len);
	dst[len] = '\0';
	if (strcmp(dst, dflt))
		*moved = true;
	return 0;
}

int bq_ctx_new(struct bq_ctx **ctxp, const struct bq_roots *roots)
{
	struct bq_roots none = { 0 };
	struct bq_ctx *ctx;
	bool moved = false;
	int ret;

	if (!roots)
		roots = &none;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ret = set_root(ctx->sysfs, roots->sysfs, "BLKQUAL_SYSFS_ROOT", "/sys", &moved);
	if (!ret)
		ret = set_root(ctx->proc, roots->proc, "BLKQUAL_PROC_ROOT", "/proc", &moved);
	if (!ret)
		ret = set_root(ctx->dev, roots->dev, "BLKQUAL_DEV_ROOT", "/dev", &moved);
	if (ret) {
		free(ctx);
		return ret;
	}
	ctx->live = !moved;
	*ctxp = ctx;
	return 0;
}

void bq_ctx_free(struct bq_ctx *ctx)
{
	free(ctx);
}

bool bq_ctx_is_live(const struct bq_ctx *ctx)
{
	return ctx->live;
}

const char *bq_ctx_root(const struct bq_ctx *ctx, char which)
{
	switch (which) {
	case 'p':
		return ctx->proc;
	case 'd':
		return ctx->dev;
	default:
		return ctx->sysfs;
	}
}
