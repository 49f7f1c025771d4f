// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_raid.c - blkqual raid plan: the commands for md RAID0 + XFS
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "inventory.h"
#include "raid_plan.h"

static void print_plan(const struct raid_plan *p)
{
	char line[4096], size[32], chunk[32];

	fmt_size(chunk, sizeof(chunk), p->chunk);
	fmt_size(size, sizeof(size), p->array_bytes);
	printf("md RAID0 of %d members, chunk %s%s%s: about %s before md's metadata\n", p->nr,
	       chunk, p->layout ? ", layout " : "", p->layout ? p->layout : "", size);
	printf("expected geometry: minimum_io_size %" PRIu64 ", optimal_io_size %" PRIu64 "\n",
	       p->io_min, p->io_opt);
	if (p->xfs.valid)
		printf("XFS: agcount %u, sunit %u and swidth %u blocks of %u bytes, log sunit %u "
		       "blocks\n", p->xfs.agcount, p->xfs.sunit_blocks, p->xfs.swidth_blocks,
		       p->xfs.block_size, p->xfs.log_sunit_blocks);
	else
		printf("XFS: mkfs.xfs -N did not preview it: %s\n", p->xfs.note);
	if (p->log_su != p->chunk)
		printf("note: the chunk is over 256 KiB, so mkfs.xfs uses a 32 KiB log stripe unit\n");
	printf("\n");
	plan_cmd_print(&p->mdadm, line, sizeof(line));
	printf("%s\n", line);
	plan_cmd_print(&p->mkfs, line, sizeof(line));
	printf("%s\n", line);
	printf("mkdir -p %s\n", p->mountpoint);
	plan_cmd_print(&p->mount, line, sizeof(line));
	printf("%s\n", line);
}

struct raid_cli {
	struct cli cli;
	struct raid_plan plan;
	bool dry_run;
	const char *force[PLAN_MAX_MEMBERS];
	size_t nr_force;
};

/* Options shared by plan and create; members are resolved and sized. */
static int raid_parse(struct raid_cli *rc, int argc, char **argv, bool create)
{
	enum { OPT_CHUNK = OPT_FIRST_PRIVATE, OPT_LAYOUT, OPT_MD, OPT_MOUNT, OPT_DRY, OPT_FORCE };
	static const struct option longopts[] = {
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "md", required_argument, NULL, OPT_MD },
		{ "mount", required_argument, NULL, OPT_MOUNT },
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "force-destroy", required_argument, NULL, OPT_FORCE },
		{ "output", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	struct raid_plan *p = &rc->plan;
	struct bq_ctx *ctx;
	int c, ret;

	p->md = "/dev/md0";
	p->mountpoint = "/mnt/blkqual-raid";
	while ((c = cli_getopt(&rc->cli, argc, argv, "o:h", longopts)) != -1) {
		switch (c) {
		case OPT_CHUNK:
			if (bq_parse_size(optarg, &p->chunk) || !p->chunk || p->chunk % 4096)
				return cli_usage_error(&rc->cli, "--chunk=%s: not a multiple of 4 KiB",
						       optarg);
			break;
		case OPT_LAYOUT:
			if (strcmp(optarg, "original") && strcmp(optarg, "alternate"))
				return cli_usage_error(&rc->cli,
						       "--layout=%s: use original or alternate",
						       optarg);
			p->layout = optarg;
			break;
		case OPT_MD:
			p->md = optarg;
			break;
		case OPT_MOUNT:
			p->mountpoint = optarg;
			break;
		case OPT_DRY:
		case OPT_FORCE:
			if (!create)
				return cli_usage_error(&rc->cli, "'%s' is for raid create",
						       argv[optind - 1]);
			if (c == OPT_DRY)
				rc->dry_run = true;
			else if (rc->nr_force < ARRAY_LEN(rc->force))
				rc->force[rc->nr_force++] = optarg;
			break;
		case 'o':
			if (cli_parse_output(&rc->cli, optarg))
				return EXIT_BADINPUT;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (!p->chunk)
		return cli_usage_error(&rc->cli, "missing --chunk (usage: %s)", rc->cli.usage);
	if (argc - optind < 2)
		return cli_usage_error(&rc->cli, "needs at least two members (usage: %s)",
				       rc->cli.usage);
	if (argc - optind > PLAN_MAX_MEMBERS)
		return cli_usage_error(&rc->cli, "more than %d members", PLAN_MAX_MEMBERS);
	ret = cli_open_ctx(&rc->cli, &ctx);
	if (ret)
		return ret;
	for (int i = optind; i < argc; i++) {
		struct bq_device dev;
		char name[64];

		ret = cli_resolve_device(&rc->cli, ctx, argv[i], name, sizeof(name));
		if (ret)
			break;
		ret = bq_device_load(ctx, name, &dev);
		if (ret) {
			ret = cli_usage_error(&rc->cli, "%s: %s", argv[i], strerror(-ret));
			break;
		}
		p->members[p->nr] = argv[i];
		p->member_bytes[p->nr++] = dev.size;
		bq_device_release(&dev);
	}
	bq_ctx_free(ctx);
	if (!ret && raid_plan_make(p))
		ret = cli_usage_error(&rc->cli, "every member must hold at least one chunk");
	return ret;
}

static int raid_plan(int argc, char **argv)
{
	struct raid_cli rc = {
		.cli = {
			.cmd = "raid plan",
			.usage = "blkqual raid plan --chunk SIZE [--layout original|alternate] "
				 "[--md DEV] [--mount DIR] [-o table|json] MEMBER...",
		},
	};
	int ret;

	ret = raid_parse(&rc, argc, argv, false);
	if (ret)
		return ret;
	if (rc.cli.output == OUTPUT_JSON) {
		json_object *o = raid_plan_json(&rc.plan);

		ret = print_json(o) ? EXIT_REFUSED : 0;
		json_object_put(o);
		return ret;
	}
	print_plan(&rc.plan);
	return 0;
}

static int run_step(const struct cli *cli, const struct plan_cmd *c)
{
	char out[4096], line[4096];
	int ret = run_capture(c->argv, out, sizeof(out));

	if (!ret)
		return 0;
	plan_cmd_print(c, line, sizeof(line));
	cli_error(cli, "'%s' failed: %.*s", line, (int)strcspn(out, "\n"),
		  ret < 0 ? strerror(-ret) : out);
	return EXIT_REFUSED;
}

static int raid_make_fs(const struct cli *cli, const struct raid_plan *p)
{
	unsigned int bsize, sunit, swidth;
	int ret;

	ret = run_step(cli, &p->mkfs);
	if (!ret && mkdir(p->mountpoint, 0755) && errno != EEXIST) {
		cli_error(cli, "%s: %s", p->mountpoint, strerror(errno));
		ret = EXIT_REFUSED;
	}
	if (!ret)
		ret = run_step(cli, &p->mount);
	if (ret)
		return ret;
	if (xfs_geometry(p->mountpoint, &bsize, &sunit, &swidth)) {
		cli_error(cli, "%s: cannot read the geometry with xfs_info", p->mountpoint);
		return EXIT_REFUSED;
	}
	if ((uint64_t)sunit * bsize != p->chunk || swidth != sunit * (unsigned int)p->nr) {
		cli_error(cli, "%s: XFS has sunit %u, swidth %u blocks of %u; planned su %" PRIu64
			  ", sw %d", p->md, sunit, swidth, bsize, p->chunk, p->nr);
		return EXIT_REFUSED;
	}
	return 0;
}

/* What the kernel made must be what was planned. */
static int check_array(const struct cli *cli, const struct raid_plan *p)
{
	struct bq_device dev;
	struct bq_ctx *ctx;
	char name[64];
	int ret;

	if (bq_ctx_new(&ctx, NULL))
		return EXIT_REFUSED;
	ret = bq_device_resolve(ctx, p->md, name, sizeof(name));
	if (!ret)
		ret = bq_device_load(ctx, name, &dev);
	bq_ctx_free(ctx);
	if (ret) {
		cli_error(cli, "%s: not there after mdadm: %s", p->md, strerror(-ret));
		return EXIT_REFUSED;
	}
	if (dev.q.minimum_io_size != p->io_min || dev.q.optimal_io_size != p->io_opt ||
	    dev.size > p->array_bytes || dev.md.chunk_size != p->chunk) {
		cli_error(cli, "%s: io_min %u, io_opt %u, chunk %" PRIu64 ", %" PRIu64
			  " bytes; planned %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", at most %" PRIu64,
			  p->md, dev.q.minimum_io_size, dev.q.optimal_io_size, dev.md.chunk_size,
			  dev.size, p->io_min, p->io_opt, p->chunk, p->array_bytes);
		ret = EXIT_REFUSED;
	}
	bq_device_release(&dev);
	return ret;
}

static int raid_create(int argc, char **argv)
{
	struct raid_cli rc = {
		.cli = {
			.cmd = "raid create",
			.usage = "blkqual raid create --chunk SIZE [--layout original|alternate] "
				 "[--md DEV] [--mount DIR] [--dry-run] [--force-destroy=DEV]... "
				 "MEMBER...",
		},
	};
	struct bq_guard_opts gopts = { .force_destroy = rc.force };
	struct raid_plan *p = &rc.plan;
	char why[600], node[PLAN_MAX_MEMBERS][96];
	int fds[PLAN_MAX_MEMBERS];
	dev_t rdev[PLAN_MAX_MEMBERS];
	struct bq_ctx *ctx;
	int ret;

	ret = raid_parse(&rc, argc, argv, true);
	if (ret)
		return ret;
	gopts.nr_force = rc.nr_force;
	if (rc.dry_run) {
		print_plan(p);
		return 0;
	}
	for (int i = 0; i < PLAN_MAX_MEMBERS; i++)
		fds[i] = -1;
	if (!raid_have_md(why, sizeof(why))) {
		cli_error(&rc.cli, "the md driver is not available here: %s; 'blkqual run "
			  "--stripe=...' stripes in userspace without it", why);
		return EXIT_REFUSED;
	}
	ret = cli_check_force(&rc.cli, &gopts, p->members, p->nr);
	if (ret)
		return ret;
	ret = cli_open_ctx(&rc.cli, &ctx);
	if (ret)
		return ret;
	/*
	 * mdadm opens the members exclusively itself: judge each and hold it,
	 * then let go just before mdadm runs, handing it the kernel's node for
	 * what was judged rather than the user's spelling.
	 */
	for (int i = 0; !ret && i < p->nr; i++) {
		struct bq_guard_report rep;

		fds[i] = bq_guard_open(ctx, p->members[i], 0, &gopts, &rep);
		if (fds[i] < 0) {
			ret = guard_error(&rc.cli, p->members[i], fds[i], &rep);
			break;
		}
		rdev[i] = rep.st.st_rdev;
		if (!S_ISBLK(rep.st.st_mode) || bq_dev_node(ctx, rdev[i], node[i], sizeof(node[i])))
			ret = cli_usage_error(&rc.cli, "%s: md members are block devices with a "
					      "node in /dev", p->members[i]);
	}
	for (int i = 0; i < p->nr; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		if (!ret) {
			p->members[i] = node[i];
			p->mdadm.argv[p->mdadm.argc - p->nr + i] = node[i];
		}
	}
	if (ret) {
		bq_ctx_free(ctx);
		return ret;
	}
	ret = run_step(&rc.cli, &p->mdadm);
	/* The nodes mdadm was given must still be the devices that were judged. */
	for (int i = 0; !ret && i < p->nr; i++) {
		char again[96];

		if (bq_dev_node(ctx, rdev[i], again, sizeof(again)) || strcmp(again, node[i])) {
			cli_error(&rc.cli, "%s changed while mdadm ran; stopping the array", node[i]);
			raid_plan_undo(p);
			ret = EXIT_REFUSED;
		}
	}
	bq_ctx_free(ctx);
	if (ret)
		return ret;
	ret = check_array(&rc.cli, p);
	if (!ret)
		ret = raid_make_fs(&rc.cli, p);
	if (ret) {
		/* Leave nothing half made behind: the array goes again. */
		raid_plan_undo(p);
		return ret;
	}
		printf("%s: RAID0 of %d members, chunk %" PRIu64 ", XFS mounted at %s\n", p->md,
		       p->nr, p->chunk, p->mountpoint);
	return ret;
}

static int raid_destroy(int argc, char **argv)
{
	static const struct option longopts[] = { CLI_COMMON_LONGOPTS, { 0 } };
	struct cli cli = { .cmd = "raid destroy", .usage = "blkqual raid destroy MD" };
	struct plan_cmd stop = { 0 }, zero = { 0 };
	struct bq_device dev;
	struct bq_ctx *ctx;
	char node[96];
	struct stat st;
	int c, ret, pfd;

	while ((c = cli_getopt(&cli, argc, argv, "h", longopts)) != -1)
		return EXIT_BADINPUT;
	if (optind + 1 != argc)
		return cli_usage_error(&cli, "needs exactly one md device (usage: %s)", cli.usage);
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;
	/* The name is resolved once; mdadm gets the kernel's node for that array. */
	pfd = open(argv[optind], O_PATH | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) || !S_ISBLK(st.st_mode) ||
	    bq_dev_node(ctx, st.st_rdev, node, sizeof(node)))
		ret = cli_usage_error(&cli, "%s: not a block device", argv[optind]);
	else if (bq_device_load(ctx, strrchr(node, '/') + 1, &dev))
		ret = cli_usage_error(&cli, "%s: cannot read it", argv[optind]);
	bq_ctx_free(ctx);
	if (ret) {
		if (pfd >= 0)
			close(pfd);
		return ret;
	}
	if (dev.kind != BQ_DEV_MD) {
		bq_device_release(&dev);
		close(pfd);
		return cli_usage_error(&cli, "%s: not an md array", argv[optind]);
	}
	for (size_t i = 0; i < dev.mounts.n && !ret; i++) {
		if (umount2(dev.mounts.v[i], 0)) {
			cli_error(&cli, "unmounting %s: %s", dev.mounts.v[i], strerror(errno));
			ret = EXIT_REFUSED;
		} else if (!strncmp(dev.mounts.v[i], "/mnt/blkqual-", 13)) {
			/* As for fs destroy: only the directories raid create makes. */
			rmdir(dev.mounts.v[i]);
		}
	}
	plan_cmd_add(&stop, "mdadm");
	plan_cmd_add(&stop, "--stop");
	plan_cmd_add(&stop, "%s", node);
	plan_cmd_add(&zero, "mdadm");
	plan_cmd_add(&zero, "--zero-superblock");
	/* The members, read before the array stops and they disappear from slaves/. */
	for (size_t i = 0; i < dev.slaves.n; i++)
		plan_cmd_add(&zero, "/dev/%s", dev.slaves.v[i]);
	bq_device_release(&dev);
	/* A new array over the same members would show this filesystem again. */
	if (!ret) {
		int fd = bq_fd_reopen(pfd, O_RDWR | O_EXCL);

		if (fd < 0 || bq_wipe_signatures(fd) < 0) {
			cli_error(&cli, "%s: cannot wipe its signatures", argv[optind]);
			ret = EXIT_REFUSED;
		}
		if (fd >= 0)
			close(fd);
	}
	close(pfd);
	if (!ret)
		ret = run_step(&cli, &stop);
	if (!ret)
		ret = run_step(&cli, &zero);
	if (!ret)
		printf("%s: unmounted, stopped, member superblocks zeroed\n", argv[optind]);
	return ret;
}

int cmd_raid(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "plan"))
		return raid_plan(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return raid_create(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "destroy"))
		return raid_destroy(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: blkqual raid plan|create --chunk SIZE [options] MEMBER...\n"
		       "       blkqual raid destroy MD\n");
		return 0;
	}
	return cli_usage_error(NULL, "raid: %s%s%s (see 'blkqual raid --help')",
			       argc < 2 ? "missing subcommand" : "unknown subcommand '",
			       argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
}
