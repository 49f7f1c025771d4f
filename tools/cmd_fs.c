// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_fs.c - blkqual fs create|destroy: an aligned XFS on any device
 *
 * create: the guard first, mkfs.xfs with the stripe geometry, a mount
 * with noatime and a fitting logbsize, then xfs_info to prove the
 * geometry is what was asked for.  destroy: unmount and wipe the
 * signatures, but only of a filesystem blkqual made (label "blkqual") or
 * one the user names with --force-destroy.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "raid_plan.h"

#define FS_LABEL "blkqual"

struct fs_cli {
	struct cli cli;
	const char *dev;
	const char *mountpoint;
	uint64_t su;
	unsigned int sw;
	const char *force[8];
	size_t nr_force;
};

static int parse(struct fs_cli *fc, int argc, char **argv, bool create)
{
	enum { OPT_SU = OPT_FIRST_PRIVATE, OPT_SW, OPT_MOUNT, OPT_FORCE };
	static const struct option longopts[] = {
		{ "su", required_argument, NULL, OPT_SU },
		{ "sw", required_argument, NULL, OPT_SW },
		{ "mount", required_argument, NULL, OPT_MOUNT },
		{ "force-destroy", required_argument, NULL, OPT_FORCE },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	char *end;
	int c;

	while ((c = cli_getopt(&fc->cli, argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case OPT_SU:
			if (!create || bq_parse_size(optarg, &fc->su) || !fc->su || fc->su % 4096)
				return cli_usage_error(&fc->cli, "--su=%s: a multiple of 4 KiB "
						       "(fs create only)", optarg);
			break;
		case OPT_SW:
			fc->sw = (unsigned int)strtoul(optarg, &end, 10);
			if (!create || *end || !fc->sw || fc->sw > 256)
				return cli_usage_error(&fc->cli, "--sw=%s: a count from 1 to 256 "
						       "(fs create only)", optarg);
			break;
		case OPT_MOUNT:
			fc->mountpoint = optarg;
			break;
		case OPT_FORCE:
			if (fc->nr_force == ARRAY_LEN(fc->force))
				return cli_usage_error(&fc->cli, "too many --force-destroy options");
			fc->force[fc->nr_force++] = optarg;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(&fc->cli, "needs exactly one device (usage: %s)",
				       fc->cli.usage);
	if ((fc->su != 0) != (fc->sw != 0))
		return cli_usage_error(&fc->cli, "--su and --sw go together");
	fc->dev = argv[optind];
	return 0;
}

/* mkfs.xfs refuses smaller filesystems (xfsprogs 5.19 and later). */
#define XFS_MIN_SIZE (300ULL << 20)

/* A device too small for XFS is bad input, said before mkfs.xfs runs. */
static int check_size(struct fs_cli *fc, int fd)
{
	uint64_t size = 0;
	struct stat st;
	char have[32];

	if (fstat(fd, &st))
		return 0;
	if (S_ISREG(st.st_mode))
		size = (uint64_t)st.st_size;
	else if (!S_ISBLK(st.st_mode) || ioctl(fd, BLKGETSIZE64, &size))
		return 0;
	if (size >= XFS_MIN_SIZE)
		return 0;
	fmt_size(have, sizeof(have), size);
	return cli_usage_error(&fc->cli, "%s: %s, too small for XFS (mkfs.xfs needs at least "
			       "300 MiB)", fc->dev, have);
}

static const char *default_mountpoint(const char *dev, char *buf, size_t len)
{
	const char *base = strrchr(dev, '/');

	snprintf(buf, len, "/mnt/blkqual-%s", base ? base + 1 : dev);
	return buf;
}

static int fs_create(int argc, char **argv)
{
	struct fs_cli fc = {
		.cli = {
			.cmd = "fs create",
			.usage = "blkqual fs create [--su SIZE --sw N] [--mount DIR] "
				 "[--force-destroy=DEV] DEV",
		},
	};
	struct bq_guard_opts gopts = { .force_destroy = fc.force };
	const char *mkfs[16] = { "mkfs.xfs", "-q", "-L", FS_LABEL };
	unsigned int bsize, sunit, swidth;
	char d[64], l[32], mp[256], text[4096];
	struct bq_guard_report rep;
	struct bq_ctx *ctx;
	int n = 4, fd, ret;
	bool made_dir;

	ret = parse(&fc, argc, argv, true);
	if (ret)
		return ret;
	gopts.nr_force = fc.nr_force;
	if (!fc.mountpoint)
		fc.mountpoint = default_mountpoint(fc.dev, mp, sizeof(mp));
	ret = cli_open_ctx(&fc.cli, &ctx);
	if (ret)
		return ret;
	/* mkfs.xfs opens the device exclusively itself: judge, then let go. */
	fd = bq_guard_open(ctx, fc.dev, 0, &gopts, &rep);
	bq_ctx_free(ctx);
	if (fd < 0)
		return guard_error(&fc.cli, fc.dev, fd, &rep);
	ret = check_size(&fc, fd);
	close(fd);
	if (ret)
		return ret;
	if (rep.forced)
		mkfs[n++] = "-f";
	if (fc.su) {
		/* mkfs.xfs caps the log stripe unit at 256 KiB, else falls back to 32 KiB. */
		snprintf(d, sizeof(d), "su=%" PRIu64 ",sw=%u", fc.su, fc.sw);
		snprintf(l, sizeof(l), "su=%" PRIu64, fc.su <= (256u << 10) ? fc.su : 32768);
		mkfs[n++] = "-d";
		mkfs[n++] = d;
		mkfs[n++] = "-l";
		mkfs[n++] = l;
	}
	mkfs[n++] = fc.dev;
	mkfs[n] = NULL;
	ret = run_capture(mkfs, text, sizeof(text));
	if (ret) {
		cli_error(&fc.cli, "%s: mkfs.xfs failed: %.*s", fc.dev, (int)strcspn(text, "\n"),
			  text);
		return EXIT_REFUSED;
	}
	/* From here on a failure undoes what was made: mount, directory, filesystem. */
	made_dir = !mkdir(fc.mountpoint, 0755);
	if (!made_dir && errno != EEXIST) {
		cli_error(&fc.cli, "%s: %s", fc.mountpoint, strerror(errno));
		goto out_wipe;
	}
	if (mount(fc.dev, fc.mountpoint, "xfs", MS_NOATIME, "logbsize=256k")) {
		cli_error(&fc.cli, "mounting %s on %s: %s", fc.dev, fc.mountpoint, strerror(errno));
		goto out_rmdir;
	}
	if (xfs_geometry(fc.mountpoint, &bsize, &sunit, &swidth)) {
		cli_error(&fc.cli, "%s: cannot read the geometry with xfs_info", fc.mountpoint);
		goto out_umount;
	}
	if (fc.su && (sunit * (uint64_t)bsize != fc.su || swidth != sunit * fc.sw)) {
		cli_error(&fc.cli, "%s: XFS has sunit %u, swidth %u blocks of %u, not su=%" PRIu64
			  ",sw=%u", fc.dev, sunit, swidth, bsize, fc.su, fc.sw);
		goto out_umount;
	}
	printf("%s: XFS (label %s, sunit %u, swidth %u blocks of %u bytes) mounted at %s\n",
	       fc.dev, FS_LABEL, sunit, swidth, bsize, fc.mountpoint);
	return 0;

out_umount:
	/* Still mounted: leave the rest to 'fs destroy' rather than wipe under a mount. */
	if (umount2(fc.mountpoint, 0)) {
		cli_error(&fc.cli, "unmounting %s: %s (run 'blkqual fs destroy %s')",
			  fc.mountpoint, strerror(errno), fc.dev);
		return EXIT_REFUSED;
	}
out_rmdir:
	if (made_dir)
		rmdir(fc.mountpoint);
out_wipe:
	ret = bq_wipe_signatures(fc.dev);
	if (ret < 0)
		cli_error(&fc.cli, "%s: wiping the new filesystem: %s", fc.dev, strerror(-ret));
	return EXIT_REFUSED;
}

static bool made_by_blkqual(const struct bq_device *dev)
{
	for (int i = 0; i < dev->nr_sigs; i++)
		if (!strcmp(dev->sigs[i].type, "xfs") && !strcmp(dev->sigs[i].label, FS_LABEL))
			return true;
	return false;
}

static bool named_by_force(const struct fs_cli *fc)
{
	struct stat a, b;

	if (stat(fc->dev, &a))
		return false;
	for (size_t i = 0; i < fc->nr_force; i++)
		if (!stat(fc->force[i], &b) && a.st_rdev == b.st_rdev && a.st_ino == b.st_ino)
			return true;
	return false;
}

static int fs_destroy(int argc, char **argv)
{
	struct fs_cli fc = {
		.cli = {
			.cmd = "fs destroy",
			.usage = "blkqual fs destroy [--force-destroy=DEV] DEV",
		},
	};
	struct bq_device dev;
	struct bq_ctx *ctx;
	char name[64];
	int ret;

	ret = parse(&fc, argc, argv, false);
	if (ret)
		return ret;
	ret = cli_open_ctx(&fc.cli, &ctx);
	if (ret)
		return ret;
	ret = cli_resolve_device(&fc.cli, ctx, fc.dev, name, sizeof(name));
	if (!ret && bq_device_load(ctx, name, &dev))
		ret = cli_usage_error(&fc.cli, "%s: cannot read it", fc.dev);
	bq_ctx_free(ctx);
	if (ret)
		return ret;
	if (!made_by_blkqual(&dev) && !named_by_force(&fc)) {
		cli_error(&fc.cli, "%s: not a filesystem blkqual made (label %s); pass "
			  "--force-destroy=%s to destroy it anyway", fc.dev, FS_LABEL, fc.dev);
		bq_device_release(&dev);
		return EXIT_REFUSED;
	}
	if (dev.holders.n) {
		cli_error(&fc.cli, "%s: held by %s; stop that first", fc.dev, dev.holders.v[0]);
		bq_device_release(&dev);
		return EXIT_REFUSED;
	}
	for (size_t i = 0; i < dev.mounts.n; i++) {
		if (umount2(dev.mounts.v[i], 0)) {
			cli_error(&fc.cli, "unmounting %s: %s", dev.mounts.v[i], strerror(errno));
			bq_device_release(&dev);
			return EXIT_REFUSED;
		}
		/* Only the directories fs create makes go away with it. */
		if (!strncmp(dev.mounts.v[i], "/mnt/blkqual-", 13))
			rmdir(dev.mounts.v[i]);
	}
	bq_device_release(&dev);
	ret = bq_wipe_signatures(fc.dev);
	if (ret < 0) {
		cli_error(&fc.cli, "%s: wiping signatures: %s", fc.dev, strerror(-ret));
		return EXIT_REFUSED;
	}
	printf("%s: unmounted, %d signature%s wiped\n", fc.dev, ret, ret == 1 ? "" : "s");
	return 0;
}

int cmd_fs(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return fs_create(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "destroy"))
		return fs_destroy(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: blkqual fs create [--su SIZE --sw N] [--mount DIR] DEV\n"
		       "       blkqual fs destroy [--force-destroy=DEV] DEV\n");
		return 0;
	}
	return cli_usage_error(NULL, "fs: %s%s%s (see 'blkqual fs --help')",
			       argc < 2 ? "missing subcommand" : "unknown subcommand '",
			       argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
}
