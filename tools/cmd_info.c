// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_info.c - blkqual info DEV: everything known about one device
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "inventory.h"

static void kv(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void kv(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("  %-24s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void kv_size(const char *key, uint64_t bytes)
{
	char human[32];

	fmt_size(human, sizeof(human), bytes);
	kv(key, "%" PRIu64 " (%s)", bytes, human);
}

static void kv_list(const char *key, const struct bq_strv *sv)
{
	char buf[1024] = "";

	for (size_t i = 0; i < sv->n; i++) {
		size_t used = strlen(buf);

		snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? " " : "", sv->v[i]);
	}
	kv(key, "%s", sv->n ? buf : "-");
}

static const char *tristate(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static void print_queue(const struct bq_queue_limits *q)
{
	printf("queue:\n");
	kv("logical block size", "%u", q->logical_block_size);
	kv("physical block size", "%u", q->physical_block_size);
	kv("minimum io size", "%u", q->minimum_io_size);
	kv("optimal io size", "%u", q->optimal_io_size);
	kv("max sectors kb", "%u (hw %u)", q->max_sectors_kb, q->max_hw_sectors_kb);
	kv("max segments", "%u", q->max_segments);
	kv("dma alignment", "%u", q->dma_alignment);
	kv("nr requests", "%u", q->nr_requests);
	kv("hw queues", "%u", q->nr_hw_queues);
	kv("rotational", "%s", tristate(q->rotational));
	kv("io poll", "%s", tristate(q->io_poll));
	kv("scheduler", "%s", q->scheduler[0] ? q->scheduler : "-");
	kv("write cache", "%s", q->write_cache[0] ? q->write_cache : "-");
	kv("discard granularity", "%" PRIu64, q->discard_granularity);
	kv("discard max bytes", "%" PRIu64, q->discard_max_bytes);
	kv("write zeroes max bytes", "%" PRIu64, q->write_zeroes_max_bytes);
}

static void print_kind(const struct bq_device *d)
{
	switch (d->kind) {
	case BQ_DEV_NVME:
		printf("nvme:\n");
		kv("controller", "%s", d->nvme.ctrl);
		kv("transport", "%s", d->nvme.transport);
		kv("address", "%s", d->nvme.address);
		kv("subsystem nqn", "%s", d->nvme.subsysnqn);
		kv("namespace id", "%u", d->nvme.nsid);
		kv("controller id", "%u", d->nvme.cntlid);
		kv("queue count", "%d", d->nvme.queue_count);
		if (d->nvme.poll_queues < 0)
			kv("poll queues", "unknown");
		else
			kv("poll queues", "%d", d->nvme.poll_queues);
		kv("metadata bytes", "%u", d->nvme.metadata_bytes);
		break;
	case BQ_DEV_SCSI:
		printf("scsi:\n");
		kv("h:c:t:l", "%s", d->scsi.hctl);
		kv("vendor", "%s", d->scsi.vendor);
		kv("model", "%s", d->scsi.model);
		kv("revision", "%s", d->scsi.rev);
		kv("queue depth", "%u", d->scsi.queue_depth);
		kv("host", "%s (%s, %s)", d->scsi.host, d->scsi.host_driver[0] ?
		   d->scsi.host_driver : "-", d->scsi.host_address[0] ? d->scsi.host_address : "-");
		break;
	case BQ_DEV_LOOP:
		printf("loop:\n");
		kv("backing file", "%s", d->loop.backing_file);
		kv("offset", "%" PRIu64, d->loop.offset);
		kv("size limit", "%" PRIu64, d->loop.sizelimit);
		kv("direct io", "%s", d->loop.direct_io ? "yes" : "no");
		kv("autoclear", "%s", d->loop.autoclear ? "yes" : "no");
		break;
	case BQ_DEV_MD:
		printf("md:\n");
		kv("level", "%s", d->md.level);
		kv_size("chunk size", d->md.chunk_size);
		kv("raid disks", "%d", d->md.raid_disks);
		kv("layout", "%d", d->md.layout);
		kv("metadata", "%s", d->md.metadata);
		kv("state", "%s", d->md.state);
		break;
	case BQ_DEV_ZRAM:
		printf("zram:\n");
		kv("algorithm", "%s", d->zram_algorithm);
		break;
	default:
		break;
	}
}

static void print_signatures(const struct bq_device *d)
{
	printf("signatures:\n");
	if (d->sig_error) {
		kv("not probed", "%s", strerror(-d->sig_error));
		return;
	}
	if (!d->nr_sigs)
		kv("none", "%s", "no filesystem, partition table, RAID, LVM or crypto signature");
	for (int i = 0; i < d->nr_sigs; i++) {
		const struct bq_signature *s = &d->sigs[i];

		kv(s->type, "%s at offset %" PRIu64 "%s%s%s%s", s->usage, s->offset,
		   s->uuid[0] ? ", UUID " : "", s->uuid, s->label[0] ? ", LABEL " : "", s->label);
	}
}

static void print_device(const struct bq_device *d)
{
	char use[512];

	printf("%s:\n", d->name);
	kv("path", "%s", d->path);
	kv("devt", "%u:%u", major(d->devt), minor(d->devt));
	kv("kind", "%s", d->is_partition ? "partition" : bq_dev_kind_name(d->kind));
	if (d->is_partition)
		kv("parent", "%s", d->parent);
	kv_size("size", d->size);
	kv("model", "%s", d->model[0] ? d->model : "-");
	kv("serial", "%s", d->serial[0] ? d->serial : "-");
	kv("firmware", "%s", d->firmware[0] ? d->firmware : "-");
	kv("driver", "%s", d->driver[0] ? d->driver : "-");
	kv("numa node", "%d", d->numa_node);
	kv("read only", "%s", d->read_only ? "yes" : "no");
	kv("removable", "%s", d->removable ? "yes" : "no");
	kv_list("mounts", &d->mounts);
	kv("swap", "%s", d->swap ? "yes" : "no");
	kv_list("holders", &d->holders);
	kv_list("slaves", &d->slaves);
	describe_use(d, use, sizeof(use));
	kv("in use", "%s", bq_device_in_use(d) ? "yes" : "no");
	for (size_t i = 0; i < d->nr_parts; i++) {
		describe_use(&d->parts[i], use, sizeof(use));
		kv(i ? "" : "partitions", "%s %" PRIu64 " %s", d->parts[i].name, d->parts[i].size,
		   use[0] ? use : "-");
	}
	print_queue(&d->q);
	print_kind(d);
	print_signatures(d);
}

static void print_host(const struct bq_host *h)
{
	printf("host:\n");
	kv("hostname", "%s", h->hostname[0] ? h->hostname : "-");
	kv("cpu", "%s", h->cpu_model[0] ? h->cpu_model : "-");
	kv("sockets/cores/threads", "%d/%d/%d", h->sockets, h->cores, h->threads);
	kv_size("memory", h->mem_total);
	for (int i = 0; i < h->nr_nodes; i++) {
		char key[32], mem[32];

		snprintf(key, sizeof(key), "numa node %d", h->nodes[i].id);
		fmt_size(mem, sizeof(mem), h->nodes[i].mem_total);
		kv(key, "cpus %s (%d), memory %s", h->nodes[i].cpulist, h->nodes[i].nr_cpus, mem);
	}
	kv("kernel", "%s", h->kernel[0] ? h->kernel : "-");
	kv("cmdline", "%s", h->cmdline[0] ? h->cmdline : "-");
}

static void print_health(const struct bq_nvme_health *h, int err)
{
	printf("nvme identify and health:\n");
	if (err) {
		kv("not read", "%s", err == -EOPNOTSUPP ?
		   "needs the live system and libnvme" : strerror(-err));
		return;
	}
	kv("vendor id", "0x%04x (subsystem 0x%04x)", h->vid, h->ssvid);
	kv("model", "%s", h->model);
	kv("serial", "%s", h->serial);
	kv("firmware", "%s", h->firmware);
	kv("namespaces", "%u", h->nn);
	kv("mdts", "%u", h->mdts);
	kv("volatile write cache", "%s", h->vwc & 1 ? "present" : "absent");
	kv("lba format", "%d of %d: %u bytes + %u metadata", h->cur_lbaf, h->nr_lbaf,
	   h->lba_size, h->lba_meta);
	kv("namespace size", "%" PRIu64 " blocks (in use %" PRIu64 ")", h->nsze, h->nuse);
	kv("critical warning", "0x%02x", h->critical_warning);
	kv("temperature", "%d C", h->temperature);
	kv("available spare", "%u%% (threshold %u%%)", h->avail_spare, h->spare_thresh);
	kv("percentage used", "%u%%", h->percent_used);
	kv_size("data read", h->data_read);
	kv_size("data written", h->data_written);
	kv("power on hours", "%" PRIu64, h->power_on_hours);
	kv("power cycles", "%" PRIu64, h->power_cycles);
	kv("unsafe shutdowns", "%" PRIu64, h->unsafe_shutdowns);
	kv("media errors", "%" PRIu64, h->media_errors);
	kv("error log entries", "%" PRIu64, h->error_log_entries);
}

static int print_info_json(const struct bq_device *d, const struct bq_host *h,
			   const struct bq_nvme_health *health, int health_err)
{
	json_object *root = json_object_new_object();
	int ret;

	json_object_object_add(root, "blkqual_version", json_object_new_string(BLKQUAL_VERSION));
	json_object_object_add(root, "device", device_to_json(d));
	if (d->kind == BQ_DEV_NVME && !d->is_partition) {
		json_object_object_add(root, "nvme_health",
				       health_err ? NULL : nvme_health_to_json(health));
		if (health_err)
			json_object_object_add(root, "nvme_health_error",
					       json_object_new_string(health_err == -EOPNOTSUPP ?
						"needs the live system and libnvme" :
						strerror(-health_err)));
	}
	json_object_object_add(root, "host", host_to_json(h));
	ret = print_json(root);
	json_object_put(root);
	return ret;
}

int cmd_info(int argc, char **argv)
{
	struct cli cli = {
		.cmd = "info",
		.usage = "blkqual info [-o table|json] [--sysfs-root DIR] [--proc-root DIR] "
			 "[--dev-root DIR] DEVICE",
	};
	struct bq_nvme_health health;
	struct bq_device dev;
	struct bq_host host;
	struct bq_ctx *ctx;
	char name[64];
	int ret, health_err = -ENODEV;

	if (cli_output_options(&cli, argc, argv))
		return EXIT_BADINPUT;
	if (optind >= argc)
		return cli_usage_error(&cli, "missing device (usage: %s)", cli.usage);
	if (optind + 1 < argc)
		return cli_usage_error(&cli, "unexpected argument '%s'", argv[optind + 1]);
	ret = cli_open_ctx(&cli, &ctx);
	if (ret)
		return ret;
	ret = cli_resolve_device(&cli, ctx, argv[optind], name, sizeof(name));
	if (ret)
		goto out_free_ctx;
	ret = bq_device_load(ctx, name, &dev);
	if (ret) {
		cli_error(&cli, "%s: %s", argv[optind], strerror(-ret));
		ret = EXIT_REFUSED;
		goto out_free_ctx;
	}
	ret = bq_host_scan(ctx, &host);
	if (ret) {
		cli_error(&cli, "cannot describe the host: %s", strerror(-ret));
		ret = EXIT_REFUSED;
		goto out_release_dev;
	}
	if (dev.kind == BQ_DEV_NVME && !dev.is_partition)
		health_err = bq_nvme_health_read(ctx, &dev, &health);

	if (cli.output == OUTPUT_JSON) {
		ret = print_info_json(&dev, &host, &health, health_err);
	} else {
		print_device(&dev);
		if (dev.kind == BQ_DEV_NVME && !dev.is_partition)
			print_health(&health, health_err);
		print_host(&host);
		ret = fflush(stdout) ? -errno : 0;
	}
	if (ret) {
		cli_error(&cli, "writing output: %s", strerror(-ret));
		ret = EXIT_REFUSED;
	}
	bq_host_release(&host);
out_release_dev:
	bq_device_release(&dev);
out_free_ctx:
	bq_ctx_free(ctx);
	return ret;
}
