// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_raid.c - blkqual raid plan: the commands for md RAID0 + XFS
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

static int raid_plan(int argc, char **argv)
{
	enum { OPT_CHUNK = OPT_FIRST_PRIVATE, OPT_LAYOUT, OPT_MD, OPT_MOUNT };
	static const struct option longopts[] = {
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "md", required_argument, NULL, OPT_MD },
		{ "mount", required_argument, NULL, OPT_MOUNT },
		{ "output", required_argument, NULL, 'o' },
		CLI_COMMON_LONGOPTS,
		{ 0 }
	};
	struct cli cli = {
		.cmd = "raid plan",
		.usage = "blkqual raid plan --chunk SIZE [--layout original|alternate] [--md DEV] "
			 "[--mount DIR] [-o table|json] MEMBER...",
	};
	struct raid_plan p = { .md = "/dev/md0", .mountpoint = "/mnt/blkqual-raid" };
	struct bq_ctx *ctx;
	int c, ret;

	while ((c = cli_getopt(&cli, argc, argv, "o:h", longopts)) != -1) {
		switch (c) {
		case OPT_CHUNK:
			if (bq_parse_size(optarg, &p.chunk) || !p.chunk || p.chunk % 4096)
				return cli_usage_error(&cli, "--chunk=%s: not a multiple of 4 KiB",
						       optarg);
			break;
		case OPT_LAYOUT:
			if (strcmp(optarg, "original") && strcmp(optarg, "alternate"))
				return cli_usage_error(&cli, "--layout=%s: use original or alternate",
						       optarg);
			p.layout = optarg;
			break;
		case OPT_MD:
			p.md = optarg;
			break;
		case OPT_MOUNT:
			p.mountpoint = optarg;
			break;
		case 'o':
			if (cli_parse_output(&cli, optarg))
				return EXIT_BADINPUT;
			break;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (!p.chunk)
		return cli_usage_error(&cli, "missing --chunk (usage: %s)", cli.usage);
	if (argc - optind < 2)
		return cli_usage_error(&cli, "needs at least two members (usage: %s)", cli.usage);
	if (argc - optind > PLAN_MAX_MEMBERS)
		return cli_usage_error(&cli, "more than %d members", PLAN_MAX_MEMBERS);
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;
	for (int i = optind; i < argc; i++) {
		struct bq_device dev;
		char name[64];

		ret = cli_resolve_device(&cli, ctx, argv[i], name, sizeof(name));
		if (ret)
			goto out_free_ctx;
		ret = bq_device_load(ctx, name, &dev);
		if (ret) {
			ret = cli_usage_error(&cli, "%s: %s", argv[i], strerror(-ret));
			goto out_free_ctx;
		}
		p.members[p.nr] = argv[i];
		p.member_bytes[p.nr++] = dev.size;
		bq_device_release(&dev);
	}
	ret = raid_plan_make(&p);
	if (ret) {
		ret = cli_usage_error(&cli, "every member must hold at least one chunk");
		goto out_free_ctx;
	}
	if (cli.output == OUTPUT_JSON) {
		json_object *o = raid_plan_json(&p);

		ret = print_json(o) ? EXIT_REFUSED : 0;
		json_object_put(o);
	} else {
		print_plan(&p);
	}
out_free_ctx:
	bq_ctx_free(ctx);
	return ret;
}

int cmd_raid(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "plan"))
		return raid_plan(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: blkqual raid plan --chunk SIZE [options] MEMBER...\n");
		return 0;
	}
	return cli_usage_error(NULL, "raid: %s%s%s (see 'blkqual raid --help')",
			       argc < 2 ? "missing subcommand" : "unknown subcommand '",
			       argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
}
