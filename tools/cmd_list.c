// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_list.c - blkqual list: every block device a tester cares about
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "inventory.h"
#include "table.h"

static const char *const device_headers[] = {
	"NAME", "KIND", "SIZE", "LSEC", "PSEC", "MIN-IO", "OPT-IO", "ROT", "SCHED",
	"NR-RQ", "MAX-KB", "HWQ", "POLL", "WCACHE", "NUMA", "DESCRIPTION", "USE",
};

static void describe(const struct bq_device *d, char *buf, size_t len)
{
	char chunk[32];

	switch (d->kind) {
	case BQ_DEV_LOOP:
		snprintf(buf, len, "%s", d->loop.backing_file);
		break;
	case BQ_DEV_MD:
		fmt_size(chunk, sizeof(chunk), d->md.chunk_size);
		snprintf(buf, len, "%s %d disks chunk %s", d->md.level, d->md.raid_disks,
			 d->md.chunk_size ? chunk : "-");
		break;
	case BQ_DEV_ZRAM:
		snprintf(buf, len, "zram %s", d->zram_algorithm);
		break;
	case BQ_DEV_VIRTIO:
		snprintf(buf, len, "%s%s", d->serial[0] ? "serial " : "", d->serial);
		break;
	default:
		snprintf(buf, len, "%s", d->model);
		break;
	}
}

static int add_device_row(struct table *t, const struct bq_device *d, const char *prefix)
{
	char size[32], use[512], desc[PATH_MAX], numa[16];
	const struct bq_queue_limits *q = &d->q;
	int ret = 0;

	fmt_size(size, sizeof(size), d->size);
	describe_use(d, use, sizeof(use));
	if (d->is_partition) {
		ret |= table_cell(t, "%s%s", prefix, d->name);
		ret |= table_cell(t, "part");
		ret |= table_cell(t, "%s", size);
		for (int i = 3; i < 16; i++)
			ret |= table_cell(t, "%s", "");
		ret |= table_cell(t, "%s", use[0] ? use : "-");
		return ret;
	}
	describe(d, desc, sizeof(desc));
	snprintf(numa, sizeof(numa), "%d", d->numa_node);
	ret |= table_cell(t, "%s", d->name);
	ret |= table_cell(t, "%s", bq_dev_kind_name(d->kind));
	ret |= table_cell(t, "%s", size);
	ret |= table_cell(t, "%u", q->logical_block_size);
	ret |= table_cell(t, "%u", q->physical_block_size);
	ret |= table_cell(t, "%u", q->minimum_io_size);
	ret |= table_cell(t, "%u", q->optimal_io_size);
	ret |= table_cell(t, "%s", q->rotational < 0 ? "-" : q->rotational ? "1" : "0");
	ret |= table_cell(t, "%s", q->scheduler[0] ? q->scheduler : "-");
	ret |= table_cell(t, "%u", q->nr_requests);
	ret |= table_cell(t, "%u", q->max_sectors_kb);
	ret |= table_cell(t, "%u", q->nr_hw_queues);
	ret |= table_cell(t, "%s", poll_word(d));
	ret |= table_cell(t, "%s", !strcmp(q->write_cache, "write back") ? "wb" :
			  !strcmp(q->write_cache, "write through") ? "wt" : "-");
	ret |= table_cell(t, "%s", d->numa_node < 0 ? "-" : numa);
	ret |= table_cell(t, "%s", desc[0] ? desc : "-");
	ret |= table_cell(t, "%s", use[0] ? use : "-");
	for (size_t i = 0; i < d->nr_parts && !ret; i++)
		ret = add_device_row(t, &d->parts[i], i + 1 == d->nr_parts ? "`-" : "|-");
	return ret;
}

static void join(const struct bq_strv *sv, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < sv->n; i++) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, "%s%s", i ? " " : "", sv->v[i]);
	}
}

static int print_adapters(const struct bq_adapter *a, size_t nr, enum bq_dev_kind kind)
{
	static const char *const nvme_headers[] = {
		"CTRL", "MODEL", "SERIAL", "FIRMWARE", "TRANSPORT", "ADDRESS", "NUMA",
		"QUEUES", "POLL-QUEUES", "SIZE", "NAMESPACES",
	};
	static const char *const scsi_headers[] = {
		"HOST", "DRIVER", "ADDRESS", "NUMA", "LUNS", "SIZE", "MODEL", "FIRMWARE",
		"DEVICES",
	};
	bool nvme = kind == BQ_DEV_NVME;
	struct table t;
	int ret, rows = 0;

	ret = nvme ? table_init(&t, nvme_headers, ARRAY_LEN(nvme_headers)) :
		     table_init(&t, scsi_headers, ARRAY_LEN(scsi_headers));
	for (size_t i = 0; i < nr && !ret; i++) {
		char size[32], devs[1024], numa[16];

		if (a[i].kind != kind)
			continue;
		rows++;
		fmt_size(size, sizeof(size), a[i].size);
		join(&a[i].devices, devs, sizeof(devs));
		snprintf(numa, sizeof(numa), "%d", a[i].numa_node);
		ret |= table_cell(&t, "%s", a[i].name);
		if (nvme) {
			ret |= table_cell(&t, "%s", a[i].model);
			ret |= table_cell(&t, "%s", a[i].serial);
			ret |= table_cell(&t, "%s", a[i].firmware);
			ret |= table_cell(&t, "%s", a[i].driver);
		} else {
			ret |= table_cell(&t, "%s", a[i].driver[0] ? a[i].driver : "-");
		}
		ret |= table_cell(&t, "%s", a[i].address[0] ? a[i].address : "-");
		ret |= table_cell(&t, "%s", a[i].numa_node < 0 ? "-" : numa);
		if (nvme) {
			ret |= table_cell(&t, "%d", a[i].queue_count);
			if (a[i].poll_queues < 0)
				ret |= table_cell(&t, "-");
			else
				ret |= table_cell(&t, "%d", a[i].poll_queues);
			ret |= table_cell(&t, "%s", size);
		} else {
			ret |= table_cell(&t, "%zu", a[i].devices.n);
			ret |= table_cell(&t, "%s", size);
			ret |= table_cell(&t, "%s", a[i].model);
			ret |= table_cell(&t, "%s", a[i].firmware[0] ? a[i].firmware : "-");
		}
		ret |= table_cell(&t, "%s", devs);
	}
	if (!ret && rows) {
		printf("\n%s\n", nvme ? "NVMe controllers:" : "SCSI hosts:");
		table_print(&t, stdout);
	}
	table_free(&t);
	return ret;
}

static int print_table(const struct bq_devlist *list, const struct bq_adapter *a, size_t nr)
{
	struct table t;
	int ret;

	ret = table_init(&t, device_headers, ARRAY_LEN(device_headers));
	for (size_t i = 0; i < list->nr && !ret; i++)
		ret = add_device_row(&t, &list->devs[i], "");
	if (!ret)
		table_print(&t, stdout);
	table_free(&t);
	if (!ret)
		ret = print_adapters(a, nr, BQ_DEV_NVME);
	if (!ret)
		ret = print_adapters(a, nr, BQ_DEV_SCSI);
	return ret;
}

static int print_list_json(const struct bq_devlist *list, const struct bq_adapter *a, size_t nr)
{
	json_object *root = json_object_new_object(), *devs = json_object_new_array();
	int ret;

	json_object_object_add(root, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	for (size_t i = 0; i < list->nr; i++)
		json_object_array_add(devs, device_to_json(&list->devs[i]));
	json_object_object_add(root, "devices", devs);
	json_object_object_add(root, "adapters", adapters_to_json(a, nr));
	ret = print_json(root);
	json_object_put(root);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	struct cli cli = {
		.cmd = "list",
		.usage = "blkqual list [-o table|json] [--sysfs-root DIR] [--proc-root DIR] "
			 "[--dev-root DIR]",
	};
	struct bq_adapter *adapters = NULL;
	struct bq_devlist list;
	struct bq_ctx *ctx;
	size_t nr = 0;
	int ret;

	if (cli_output_options(&cli, argc, argv))
		return EXIT_BADINPUT;
	if (optind < argc)
		return cli_usage_error(&cli, "unexpected argument '%s'", argv[optind]);
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;
	ret = bq_devices_scan(ctx, &list);
	if (ret) {
		cli_error(&cli, "cannot read %s/block: %s", bq_ctx_root(ctx, 's'), strerror(-ret));
		bq_ctx_free(ctx);
		return EXIT_REFUSED;
	}
	ret = bq_adapters_group(&list, &adapters, &nr);
	if (!ret)
		ret = cli.output == OUTPUT_JSON ? print_list_json(&list, adapters, nr) :
						  print_table(&list, adapters, nr);
	if (ret)
		cli_error(&cli, "%s", strerror(ret < 0 ? -ret : ENOMEM));
	bq_adapters_free(adapters, nr);
	bq_devlist_free(&list);
	bq_ctx_free(ctx);
	return ret ? EXIT_REFUSED : 0;
}
