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
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

static bool made_by_blkqual(const struct bq_signature *sigs, int nr)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(sigs[i].type, "xfs") && !strcmp(sigs[i].label, FS_LABEL))
			return true;
	return false;
}

/* Open the node blkqual composed, only if it is still the device @rdev. */
static int open_node(const char *node, dev_t rdev, int flags)
{
	struct stat st;
	int fd;

	fd = open(node, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != rdev) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* Whether @node (the device @rdev) carries the XFS blkqual labels as its own. */
static bool ours_on(const char *node, dev_t rdev)
{
	struct bq_signature *sigs;
	int fd = open_node(node, rdev, O_RDONLY | O_NONBLOCK);
	int nr;
	bool ours;

	if (fd < 0)
		return false;
	nr = bq_probe_signatures_fd(fd, &sigs);
	close(fd);
	if (nr < 0)
		return false;
	ours = made_by_blkqual(sigs, nr);
	free(sigs);
	return ours;
}

/* Undo a half-made fs create: only what it made, on the device it judged. */
static int wipe_ours(const char *node, dev_t rdev)
{
	int fd, ret;

	if (!ours_on(node, rdev))
		return -ESTALE;
	fd = open_node(node, rdev, O_RDWR | O_EXCL);
	if (fd < 0)
		return fd;
	ret = bq_wipe_signatures(fd);
	close(fd);
	return ret;
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
	char d[64], l[32], mp[256], text[4096], node[96], again[96];
	struct bq_guard_report rep;
	struct bq_ctx *ctx;
	int n = 4, fd, ret;
	bool made_dir;

	ret = parse(&fc, argc, argv, true);
	if (ret)
		return ret;
	gopts.nr_force = fc.nr_force;
	ret = cli_check_force(&fc.cli, &gopts, &fc.dev, 1);
	if (ret)
		return ret;
	if (!fc.mountpoint)
		fc.mountpoint = default_mountpoint(fc.dev, mp, sizeof(mp));
	ret = cli_open_ctx(&fc.cli, &ctx);
	if (ret)
		return ret;
	/*
	 * mkfs.xfs opens the device exclusively itself: judge, then let go,
	 * handing it (and mount) the kernel's node for what was judged.
	 */
	fd = bq_guard_open(ctx, fc.dev, 0, &gopts, &rep);
	if (fd < 0) {
		bq_ctx_free(ctx);
		return guard_error(&fc.cli, fc.dev, fd, &rep);
	}
	ret = check_size(&fc, fd);
	close(fd);
	if (!ret && (!S_ISBLK(rep.st.st_mode) ||
		     bq_dev_node(ctx, rep.st.st_rdev, node, sizeof(node))))
		ret = cli_usage_error(&fc.cli, "%s: fs create needs a block device with a node "
				      "in /dev", fc.dev);
	bq_ctx_free(ctx);
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
	mkfs[n++] = node;
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
	ret = cli_open_ctx(&fc.cli, &ctx);
	if (ret)
		goto out_rmdir;
	/* Still the device that was judged, and now the filesystem mkfs.xfs made? */
	ret = bq_dev_node(ctx, rep.st.st_rdev, again, sizeof(again));
	bq_ctx_free(ctx);
	if (ret || strcmp(again, node) || !ours_on(node, rep.st.st_rdev)) {
		cli_error(&fc.cli, "%s changed while mkfs.xfs ran; not mounting it", node);
		goto out_rmdir;
	}
	if (mount(node, fc.mountpoint, "xfs", MS_NOATIME, "logbsize=256k")) {
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
	ret = wipe_ours(node, rep.st.st_rdev);
	if (ret < 0)
		cli_error(&fc.cli, "%s: wiping the new filesystem: %s", fc.dev, strerror(-ret));
	return EXIT_REFUSED;
}

/*
 * fs destroy removes what fs create made, and nothing else: a filesystem
 * blkqual did not make goes only through the guard, so it must not be in
 * use (mounted, held) whatever the flags, and must be named with
 * --force-destroy to lose its signature.
 */
static int fs_destroy(int argc, char **argv)
{
	struct fs_cli fc = {
		.cli = {
			.cmd = "fs destroy",
			.usage = "blkqual fs destroy [--force-destroy=DEV] DEV",
		},
	};
	struct bq_guard_opts gopts = { .force_destroy = fc.force };
	const char *self[1];
	struct bq_guard_report rep;
	struct bq_signature *sigs;
	char name[64], me[64];
	struct bq_device dev;
	struct bq_ctx *ctx;
	int ret, pfd, rfd, fd, nr;
	struct stat st;
	bool ours;

	ret = parse(&fc, argc, argv, false);
	if (ret)
		return ret;
	gopts.nr_force = fc.nr_force;
	ret = cli_check_force(&fc.cli, &gopts, &fc.dev, 1);
	if (ret)
		return ret;
	ret = cli_open_ctx(&fc.cli, &ctx);
	if (ret)
		return ret;
	/* The name is resolved once; everything below is about that device. */
	pfd = open(fc.dev, O_PATH | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) || !S_ISBLK(st.st_mode)) {
		ret = cli_usage_error(&fc.cli, "%s: not a block device", fc.dev);
		goto out_free_ctx;
	}
	snprintf(me, sizeof(me), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (bq_device_resolve(ctx, me, name, sizeof(name)) || bq_device_load(ctx, name, &dev)) {
		ret = cli_usage_error(&fc.cli, "%s: cannot read it", fc.dev);
		goto out_free_ctx;
	}
	rfd = bq_fd_reopen(pfd, O_RDONLY | O_NONBLOCK);
	nr = rfd < 0 ? rfd : bq_probe_signatures_fd(rfd, &sigs);
	if (rfd >= 0)
		close(rfd);
	ours = nr > 0 && made_by_blkqual(sigs, nr);
	if (nr > 0)
		free(sigs);
	if (ours && dev.holders.n) {
		cli_error(&fc.cli, "%s: held by %s; stop that first", fc.dev, dev.holders.v[0]);
		ret = EXIT_REFUSED;
	}
	/* Only blkqual's own filesystem is unmounted here; anything else is the guard's. */
	for (size_t i = 0; ours && !ret && i < dev.mounts.n; i++) {
		if (umount2(dev.mounts.v[i], 0)) {
			cli_error(&fc.cli, "unmounting %s: %s", dev.mounts.v[i], strerror(errno));
			ret = EXIT_REFUSED;
		} else if (!strncmp(dev.mounts.v[i], "/mnt/blkqual-", 13)) {
			/* Only the directories fs create makes go away with it. */
			rmdir(dev.mounts.v[i]);
		}
	}
	bq_device_release(&dev);
	if (ret)
		goto out_free_ctx;
	if (!ours && !fc.nr_force) {
		cli_error(&fc.cli, "%s: not a filesystem blkqual made (label %s); pass "
			  "--force-destroy=%s to destroy it anyway", fc.dev, FS_LABEL, fc.dev);
		ret = EXIT_REFUSED;
		goto out_free_ctx;
	}
	/* blkqual's own filesystem counts as named: /proc/self/fd/N is this device. */
	snprintf(me, sizeof(me), "/proc/self/fd/%d", pfd);
	self[0] = me;
	if (ours)
		gopts = (struct bq_guard_opts){ .force_destroy = self, .nr_force = 1 };
	fd = bq_guard_open_fd(ctx, pfd, 0, &gopts, &rep);
	if (fd < 0) {
		ret = guard_error(&fc.cli, fc.dev, fd, &rep);
		goto out_free_ctx;
	}
	nr = bq_wipe_signatures(fd);
	close(fd);
	if (nr < 0) {
		cli_error(&fc.cli, "%s: wiping signatures: %s", fc.dev, strerror(-nr));
		ret = EXIT_REFUSED;
		goto out_free_ctx;
	}
	printf("%s: %s%d signature%s wiped\n", fc.dev, ours ? "unmounted, " : "", nr,
	       nr == 1 ? "" : "s");
out_free_ctx:
	if (pfd >= 0)
		close(pfd);
	bq_ctx_free(ctx);
	return ret;
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
