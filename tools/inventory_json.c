// SPDX-License-Identifier: GPL-2.0-only
/*
 * inventory_json.c - devices, adapters and the host as JSON (json-c)
 *
 * Sizes are bytes and flags are booleans, so scripts never parse "3.5T".
 * Strings and tri-state flags the kernel does not expose are null; a NUMA
 * node is -1 and a queue limit 0 when absent, as sysfs itself says.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "inventory.h"

static void add_str(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val && *val ? json_object_new_string(val) : NULL);
}

static void add_u64(json_object *o, const char *key, uint64_t val)
{
	json_object_object_add(o, key, json_object_new_uint64(val));
}

static void add_int(json_object *o, const char *key, int64_t val)
{
	json_object_object_add(o, key, json_object_new_int64(val));
}

static void add_bool(json_object *o, const char *key, bool val)
{
	json_object_object_add(o, key, json_object_new_boolean(val));
}

/* -1 means unknown in the library's tri-state fields. */
static void add_tristate(json_object *o, const char *key, int val)
{
	json_object_object_add(o, key, val < 0 ? NULL : json_object_new_boolean(val));
}

static json_object *strv_to_json(const struct bq_strv *sv)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < sv->n; i++)
		json_object_array_add(arr, json_object_new_string(sv->v[i]));
	return arr;
}

static json_object *queue_to_json(const struct bq_queue_limits *q)
{
	json_object *o = json_object_new_object();

	add_u64(o, "logical_block_size", q->logical_block_size);
	add_u64(o, "physical_block_size", q->physical_block_size);
	add_u64(o, "minimum_io_size", q->minimum_io_size);
	add_u64(o, "optimal_io_size", q->optimal_io_size);
	add_u64(o, "max_sectors_kb", q->max_sectors_kb);
	add_u64(o, "max_hw_sectors_kb", q->max_hw_sectors_kb);
	add_u64(o, "max_segments", q->max_segments);
	add_u64(o, "dma_alignment", q->dma_alignment);
	add_u64(o, "nr_requests", q->nr_requests);
	add_u64(o, "nr_hw_queues", q->nr_hw_queues);
	add_u64(o, "discard_granularity", q->discard_granularity);
	add_u64(o, "discard_max_bytes", q->discard_max_bytes);
	add_u64(o, "write_zeroes_max_bytes", q->write_zeroes_max_bytes);
	add_u64(o, "read_ahead_kb", q->read_ahead_kb);
	add_int(o, "nomerges", q->nomerges);
	add_int(o, "rq_affinity", q->rq_affinity);
	add_tristate(o, "rotational", q->rotational);
	add_tristate(o, "io_poll", q->io_poll);
	add_str(o, "scheduler", q->scheduler);
	add_str(o, "write_cache", q->write_cache);
	return o;
}

static json_object *signatures_to_json(const struct bq_device *dev)
{
	json_object *arr;

	if (dev->sig_error)
		return NULL;
	arr = json_object_new_array();
	for (int i = 0; i < dev->nr_sigs; i++) {
		const struct bq_signature *s = &dev->sigs[i];
		json_object *o = json_object_new_object();

		add_str(o, "type", s->type);
		add_str(o, "usage", s->usage);
		add_str(o, "uuid", s->uuid);
		add_str(o, "label", s->label);
		add_u64(o, "offset", s->offset);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *kind_to_json(const struct bq_device *dev)
{
	json_object *o = json_object_new_object();

	switch (dev->kind) {
	case BQ_DEV_NVME:
		add_str(o, "controller", dev->nvme.ctrl);
		add_str(o, "transport", dev->nvme.transport);
		add_str(o, "address", dev->nvme.address);
		add_str(o, "subsysnqn", dev->nvme.subsysnqn);
		add_u64(o, "nsid", dev->nvme.nsid);
		add_u64(o, "cntlid", dev->nvme.cntlid);
		add_int(o, "queue_count", dev->nvme.queue_count);
		json_object_object_add(o, "poll_queues", dev->nvme.poll_queues < 0 ? NULL :
				       json_object_new_int(dev->nvme.poll_queues));
		add_u64(o, "metadata_bytes", dev->nvme.metadata_bytes);
		break;
	case BQ_DEV_SCSI:
		add_str(o, "hctl", dev->scsi.hctl);
		add_str(o, "vendor", dev->scsi.vendor);
		add_str(o, "model", dev->scsi.model);
		add_str(o, "rev", dev->scsi.rev);
		add_str(o, "host", dev->scsi.host);
		add_str(o, "host_driver", dev->scsi.host_driver);
		add_str(o, "host_address", dev->scsi.host_address);
		add_u64(o, "queue_depth", dev->scsi.queue_depth);
		break;
	case BQ_DEV_LOOP:
		add_str(o, "backing_file", dev->loop.backing_file);
		add_u64(o, "offset", dev->loop.offset);
		add_u64(o, "sizelimit", dev->loop.sizelimit);
		add_bool(o, "direct_io", dev->loop.direct_io);
		add_bool(o, "autoclear", dev->loop.autoclear);
		break;
	case BQ_DEV_MD:
		add_str(o, "level", dev->md.level);
		add_u64(o, "chunk_size", dev->md.chunk_size);
		add_int(o, "raid_disks", dev->md.raid_disks);
		add_int(o, "layout", dev->md.layout);
		add_str(o, "metadata", dev->md.metadata);
		add_str(o, "state", dev->md.state);
		break;
	case BQ_DEV_ZRAM:
		add_str(o, "algorithm", dev->zram_algorithm);
		break;
	default:
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *device_to_json(const struct bq_device *dev)
{
	json_object *o = json_object_new_object(), *kind, *parts;
	char devt[32];

	snprintf(devt, sizeof(devt), "%u:%u", major(dev->devt), minor(dev->devt));
	add_str(o, "name", dev->name);
	add_str(o, "path", dev->path);
	add_str(o, "devt", devt);
	add_str(o, "kind", dev->is_partition ? "part" : bq_dev_kind_name(dev->kind));
	if (dev->is_partition)
		add_str(o, "parent", dev->parent);
	add_u64(o, "size", dev->size);
	add_bool(o, "read_only", dev->read_only);
	json_object_object_add(o, "mounts", strv_to_json(&dev->mounts));
	add_bool(o, "swap", dev->swap);
	json_object_object_add(o, "holders", strv_to_json(&dev->holders));
	json_object_object_add(o, "signatures", signatures_to_json(dev));
	if (dev->sig_error)
		add_str(o, "signatures_error", strerror(-dev->sig_error));
	if (dev->is_partition)
		return o;

	add_bool(o, "removable", dev->removable);
	add_str(o, "model", dev->model);
	add_str(o, "serial", dev->serial);
	add_str(o, "firmware", dev->firmware);
	add_str(o, "driver", dev->driver);
	add_int(o, "numa_node", dev->numa_node);
	add_bool(o, "in_use", bq_device_in_use(dev));
	json_object_object_add(o, "slaves", strv_to_json(&dev->slaves));
	json_object_object_add(o, "queue", queue_to_json(&dev->q));
	kind = kind_to_json(dev);
	if (kind)
		json_object_object_add(o, bq_dev_kind_name(dev->kind), kind);
	parts = json_object_new_array();
	for (size_t i = 0; i < dev->nr_parts; i++)
		json_object_array_add(parts, device_to_json(&dev->parts[i]));
	json_object_object_add(o, "partitions", parts);
	return o;
}

json_object *adapters_to_json(const struct bq_adapter *a, size_t nr)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < nr; i++) {
		json_object *o = json_object_new_object();

		add_str(o, "name", a[i].name);
		add_str(o, "kind", a[i].kind == BQ_DEV_NVME ? "nvme-controller" : "scsi-host");
		add_str(o, a[i].kind == BQ_DEV_NVME ? "transport" : "driver", a[i].driver);
		add_str(o, "address", a[i].address);
		add_int(o, "numa_node", a[i].numa_node);
		add_str(o, "model", a[i].model);
		if (a[i].kind == BQ_DEV_NVME) {
			add_str(o, "serial", a[i].serial);
			add_int(o, "queue_count", a[i].queue_count);
			json_object_object_add(o, "poll_queues", a[i].poll_queues < 0 ? NULL :
					       json_object_new_int(a[i].poll_queues));
		}
		add_str(o, "firmware", a[i].firmware);
		add_u64(o, "size", a[i].size);
		json_object_object_add(o, "devices", strv_to_json(&a[i].devices));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *host_to_json(const struct bq_host *h)
{
	json_object *o = json_object_new_object(), *nodes = json_object_new_array();

	add_str(o, "hostname", h->hostname);
	add_str(o, "cpu_model", h->cpu_model);
	add_int(o, "sockets", h->sockets);
	add_int(o, "cores", h->cores);
	add_int(o, "threads", h->threads);
	add_u64(o, "memory", h->mem_total);
	add_str(o, "kernel", h->kernel);
	add_str(o, "cmdline", h->cmdline);
	add_str(o, "cpu_governor", h->cpu_governor);
	for (int i = 0; i < h->nr_nodes; i++) {
		json_object *n = json_object_new_object();

		add_int(n, "node", h->nodes[i].id);
		add_str(n, "cpus", h->nodes[i].cpulist);
		add_int(n, "nr_cpus", h->nodes[i].nr_cpus);
		add_u64(n, "memory", h->nodes[i].mem_total);
		json_object_array_add(nodes, n);
	}
	json_object_object_add(o, "numa_nodes", nodes);
	return o;
}

json_object *nvme_health_to_json(const struct bq_nvme_health *h)
{
	json_object *o = json_object_new_object(), *id = json_object_new_object();
	json_object *smart = json_object_new_object();
	char hex[8];

	snprintf(hex, sizeof(hex), "0x%04x", h->vid);
	add_str(id, "vid", hex);
	snprintf(hex, sizeof(hex), "0x%04x", h->ssvid);
	add_str(id, "ssvid", hex);
	add_str(id, "model", h->model);
	add_str(id, "serial", h->serial);
	add_str(id, "firmware", h->firmware);
	add_u64(id, "namespaces", h->nn);
	add_u64(id, "mdts", h->mdts);
	add_u64(id, "oncs", h->oncs);
	add_bool(id, "volatile_write_cache", h->vwc & 1);
	add_u64(id, "nsze", h->nsze);
	add_u64(id, "ncap", h->ncap);
	add_u64(id, "nuse", h->nuse);
	add_int(id, "lba_formats", h->nr_lbaf);
	add_int(id, "lba_format_in_use", h->cur_lbaf);
	add_u64(id, "lba_size", h->lba_size);
	add_u64(id, "lba_metadata", h->lba_meta);
	json_object_object_add(o, "identify", id);

	add_u64(smart, "critical_warning", h->critical_warning);
	add_int(smart, "temperature_c", h->temperature);
	add_u64(smart, "available_spare_pct", h->avail_spare);
	add_u64(smart, "spare_threshold_pct", h->spare_thresh);
	add_u64(smart, "percent_used", h->percent_used);
	add_u64(smart, "data_read_bytes", h->data_read);
	add_u64(smart, "data_written_bytes", h->data_written);
	add_u64(smart, "host_read_commands", h->host_reads);
	add_u64(smart, "host_write_commands", h->host_writes);
	add_u64(smart, "power_cycles", h->power_cycles);
	add_u64(smart, "power_on_hours", h->power_on_hours);
	add_u64(smart, "unsafe_shutdowns", h->unsafe_shutdowns);
	add_u64(smart, "media_errors", h->media_errors);
	add_u64(smart, "error_log_entries", h->error_log_entries);
	json_object_object_add(o, "smart", smart);
	return o;
}

int print_json(json_object *obj)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	puts(s);
	return fflush(stdout) ? -errno : 0;
}
