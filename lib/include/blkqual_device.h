/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_device.h - the inventory: block devices, signatures, adapters, the host,
 * NVMe identify and health
 *
 * Part of libblkqual's public interface (blkqual.h includes every part):
 * 0 (or a count) on success, -errno on failure, nothing printed.
 */
#ifndef BLKQUAL_DEVICE_H
#define BLKQUAL_DEVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "blkqual_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bq_ctx;

/* ---- block devices ----------------------------------------------------- */

/**
 * enum bq_dev_kind - what drives a block device
 */
enum bq_dev_kind {
	BQ_DEV_OTHER,
	BQ_DEV_NVME,
	BQ_DEV_SCSI,
	BQ_DEV_VIRTIO,
	BQ_DEV_LOOP,
	BQ_DEV_MD,
	BQ_DEV_DM,
	BQ_DEV_ZRAM,
	BQ_DEV_NULLB,
	BQ_DEV_RAM,
};

/**
 * bq_dev_kind_name() - short name of a device kind ("nvme", "scsi", ...)
 * @kind: the kind
 *
 * Return: a static string.
 */
const char *bq_dev_kind_name(enum bq_dev_kind kind);

/**
 * struct bq_queue_limits - request queue facts from /sys/block/X/queue
 *
 * Sizes are in bytes.  A value the kernel does not expose stays 0 (or -1
 * for @io_poll and @rotational, meaning "unknown").
 */
struct bq_queue_limits {
	uint32_t logical_block_size;
	uint32_t physical_block_size;
	uint32_t minimum_io_size;
	uint32_t optimal_io_size;
	uint32_t max_sectors_kb;
	uint32_t max_hw_sectors_kb;
	uint32_t max_segments;
	uint32_t dma_alignment;
	uint32_t nr_requests;
	uint32_t nr_hw_queues;
	uint64_t discard_granularity;
	uint64_t discard_max_bytes;
	uint64_t write_zeroes_max_bytes;
	uint32_t read_ahead_kb;
	int nomerges;
	int rq_affinity;
	int rotational;
	int io_poll;
	char scheduler[32];
	char write_cache[16];
};

/**
 * struct bq_nvme_info - an NVMe namespace and its controller
 */
struct bq_nvme_info {
	char ctrl[32];
	char transport[16];
	char address[64];
	char subsysnqn[256];
	uint32_t nsid;
	uint32_t cntlid;
	int queue_count;
	int poll_queues;
	uint32_t metadata_bytes;
};

/**
 * struct bq_scsi_info - a SCSI logical unit and its host adapter
 */
struct bq_scsi_info {
	char hctl[32];
	char vendor[16];
	char model[32];
	char rev[8];
	char host[16];
	char host_driver[32];
	char host_address[64];
	uint32_t queue_depth;
};

/**
 * struct bq_loop_info - a loop device's backing
 */
struct bq_loop_info {
	char backing_file[PATH_MAX];
	uint64_t offset;
	uint64_t sizelimit;
	bool direct_io;
	bool autoclear;
};

/**
 * struct bq_md_info - an md array
 */
struct bq_md_info {
	char level[16];
	char metadata[16];
	char state[32];
	uint64_t chunk_size;
	int raid_disks;
	int layout;
};

/**
 * struct bq_signature - one on-disk signature found by libblkid
 * @type: "xfs", "ext4", "gpt", "linux_raid_member", ...
 * @usage: "filesystem", "raid", "crypto", "partition table", "other"
 * @uuid: UUID, or empty
 * @label: label, or empty
 * @offset: byte offset of the magic
 * @magic_len: bytes of the magic (0 when libblkid did not say)
 */
struct bq_signature {
	char type[32];
	char usage[24];
	char uuid[64];
	char label[64];
	uint64_t offset;
	uint32_t magic_len;
};

/**
 * struct bq_device - everything blkqual knows about one block device
 * @name: kernel name ("nvme0n1")
 * @path: device node ("/dev/nvme0n1", under the dev root)
 * @parent: whole disk of a partition, else empty
 * @devt: major:minor
 * @kind: what drives it
 * @driver: the driver bound to the device (from sysfs), or empty
 * @model: model as the device reports it ("INTEL(R) SSD 910 200GB"), or empty
 * @serial: serial number (NVMe, virtio), or empty
 * @firmware: firmware revision (NVMe, SCSI), or empty
 * @size: bytes
 * @numa_node: node of the nearest bus device, -1 when none
 * @read_only: device is read-only
 * @removable: removable media
 * @is_partition: this is a partition
 * @q: queue limits
 * @holders: devices built on this one (md, dm)
 * @slaves: devices this one is built on
 * @parts: partitions of this disk, @nr_parts of them
 * @mounts: mount points of this device (a partition's are in @parts)
 * @swap: used as swap
 * @sigs: signatures found, @nr_sigs of them
 * @sig_error: 0 when probed, else -errno why not (e.g. -EACCES)
 * @nvme: valid for BQ_DEV_NVME
 * @scsi: valid for BQ_DEV_SCSI
 * @loop: valid for BQ_DEV_LOOP
 * @md: valid for BQ_DEV_MD
 * @zram_algorithm: valid for BQ_DEV_ZRAM
 */
struct bq_device {
	char name[64];
	char path[PATH_MAX];
	char parent[64];
	dev_t devt;
	enum bq_dev_kind kind;
	char driver[32];
	char model[64];
	char serial[64];
	char firmware[16];
	uint64_t size;
	int numa_node;
	bool read_only;
	bool removable;
	bool is_partition;
	struct bq_queue_limits q;
	struct bq_strv holders;
	struct bq_strv slaves;
	struct bq_device *parts;
	size_t nr_parts;
	struct bq_strv mounts;
	bool swap;
	struct bq_signature *sigs;
	int nr_sigs;
	int sig_error;
	struct bq_nvme_info nvme;
	struct bq_scsi_info scsi;
	struct bq_loop_info loop;
	struct bq_md_info md;
	char zram_algorithm[32];
};

/**
 * struct bq_devlist - devices found by bq_devices_scan()
 * @devs: the devices, sorted by name
 * @nr: how many
 */
struct bq_devlist {
	struct bq_device *devs;
	size_t nr;
};

/**
 * bq_devices_scan() - enumerate whole-disk block devices
 * @ctx: context (its sysfs, proc and dev roots are read)
 * @list: filled with the devices; release with bq_devlist_free()
 *
 * Partitions are not listed on their own; they appear in their disk's
 * @parts.  Loop devices without a backing file are left out.
 *
 * Return: 0 or -errno.
 */
int bq_devices_scan(struct bq_ctx *ctx, struct bq_devlist *list);

/**
 * bq_device_load() - read one device (disk or partition) by kernel name
 * @ctx: context
 * @name: kernel name, e.g. "sdb" or "sdb1"
 * @dev: filled in; release with bq_device_release()
 *
 * Return: 0, -ENOENT when sysfs has no such block device, or -errno.
 */
int bq_device_load(struct bq_ctx *ctx, const char *name, struct bq_device *dev);

/**
 * bq_device_resolve() - find the kernel name of a device given by the user
 * @ctx: context
 * @arg: "/dev/sdb", "sdb", a /dev/disk/by-* link, or "8:16"
 * @name: receives the kernel name
 * @len: size of @name
 *
 * Return: 0; -ENOENT if nothing matches; -ENOTBLK if @arg exists but is
 * not a block device; -EISDIR for a directory; or -errno.
 */
int bq_device_resolve(struct bq_ctx *ctx, const char *arg, char *name, size_t len);

/**
 * bq_device_release() - free what bq_device_load() allocated
 * @dev: the device
 */
void bq_device_release(struct bq_device *dev);

/**
 * bq_device_in_use() - whether the device or one of its partitions is in use
 * @dev: the device
 *
 * In use means mounted, swap, or holding up md, dm or LVM.
 *
 * Return: true when in use.
 */
bool bq_device_in_use(const struct bq_device *dev);

/**
 * bq_devlist_free() - free a device list
 * @list: the list
 */
void bq_devlist_free(struct bq_devlist *list);

/**
 * bq_probe_signatures_fd() - find every on-disk signature with libblkid
 * @fd: device or file, opened for reading (O_DIRECT not required)
 * @sigs: receives a malloc'd array (NULL when none); free() it
 *
 * Partition tables are probed too: a disk with a GPT counts as holding data.
 *
 * Return: number of signatures, or -errno.
 */
int bq_probe_signatures_fd(int fd, struct bq_signature **sigs);

/* ---- adapters ---------------------------------------------------------- */

/**
 * struct bq_adapter - a controller and the devices behind it
 * @kind: BQ_DEV_NVME (a controller) or BQ_DEV_SCSI (a host adapter)
 * @name: "nvme0" or "host0"
 * @driver: host driver ("mpt2sas"), or the NVMe transport
 * @address: bus address, e.g. PCI "0000:04:00.0"
 * @numa_node: NUMA node of the adapter, -1 when none
 * @model: the model of its devices; "mixed" when they differ
 * @serial: NVMe controller serial, or empty
 * @firmware: NVMe firmware, or the LUNs' revision when they agree
 * @queue_count: NVMe I/O queues plus the admin queue, 0 for SCSI
 * @poll_queues: NVMe poll queues (module parameter), -1 when unknown
 * @size: sum of the devices' sizes
 * @devices: block devices behind the adapter
 *
 * Groups what a card is: an Intel SSD 910 is one SAS host with four LUNs.
 */
struct bq_adapter {
	enum bq_dev_kind kind;
	char name[32];
	char driver[32];
	char address[64];
	int numa_node;
	char model[64];
	char serial[64];
	char firmware[16];
	int queue_count;
	int poll_queues;
	uint64_t size;
	struct bq_strv devices;
};

/**
 * bq_adapters_group() - group NVMe namespaces and SCSI LUNs by adapter
 * @list: devices from bq_devices_scan()
 * @adapters: receives a malloc()ed array, NVMe controllers first
 * @nr: receives its length
 *
 * Return: 0 or -ENOMEM.
 */
int bq_adapters_group(const struct bq_devlist *list, struct bq_adapter **adapters,
		      size_t *nr);

/**
 * bq_adapters_free() - free what bq_adapters_group() returned
 * @adapters: the array
 * @nr: its length
 */
void bq_adapters_free(struct bq_adapter *adapters, size_t nr);

/**
 * bq_wipe_signatures() - erase every signature libblkid finds (wipefs -a)
 * @fd: device or file the caller has decided may be wiped, open for
 *	writing (a guard descriptor); not closed
 *
 * Return: signatures erased, or -errno.
 */
int bq_wipe_signatures(int fd);

/* ---- host -------------------------------------------------------------- */

/**
 * struct bq_numa_node - one NUMA node
 * @id: node number
 * @cpulist: CPUs, as sysfs prints them
 * @nr_cpus: how many CPUs
 * @mem_total: bytes of memory on the node
 */
struct bq_numa_node {
	int id;
	char cpulist[256];
	int nr_cpus;
	uint64_t mem_total;
};

/**
 * struct bq_host - the machine a test runs on
 */
struct bq_host {
	char hostname[256];
	char cpu_model[128];
	int sockets;
	int cores;
	int threads;
	uint64_t mem_total;
	char kernel[128];
	char cmdline[4096];
	char cpu_governor[32];	/* cpufreq governor of every online CPU, "mixed", or "" */
	struct bq_numa_node *nodes;
	int nr_nodes;
};

/**
 * bq_host_scan() - describe the machine
 * @ctx: context
 * @host: filled in; release with bq_host_release()
 *
 * Return: 0 or -errno.
 */
int bq_host_scan(struct bq_ctx *ctx, struct bq_host *host);

/**
 * bq_host_release() - free what bq_host_scan() allocated
 * @host: the host
 */
void bq_host_release(struct bq_host *host);

/* ---- NVMe identify and health ------------------------------------------ */

/**
 * struct bq_nvme_health - identify and SMART/health data of an NVMe device
 *
 * Temperatures are in degrees Celsius; data units are converted to bytes.
 */
struct bq_nvme_health {
	uint16_t vid;
	uint16_t ssvid;
	char model[41];
	char serial[21];
	char firmware[9];
	uint32_t nn;
	uint8_t mdts;
	uint16_t oncs;
	uint8_t vwc;
	uint64_t nsze;
	uint64_t ncap;
	uint64_t nuse;
	uint32_t lba_size;
	uint16_t lba_meta;
	int nr_lbaf;
	int cur_lbaf;

	uint8_t critical_warning;
	int temperature;
	uint8_t avail_spare;
	uint8_t spare_thresh;
	uint8_t percent_used;
	uint64_t data_read;
	uint64_t data_written;
	uint64_t host_reads;
	uint64_t host_writes;
	uint64_t power_cycles;
	uint64_t power_on_hours;
	uint64_t unsafe_shutdowns;
	uint64_t media_errors;
	uint64_t error_log_entries;
};

/**
 * bq_nvme_health_read() - read identify and SMART data through libnvme
 * @ctx: context (must be live)
 * @dev: an NVMe namespace
 * @h: filled in
 *
 * Return: 0; -EOPNOTSUPP when built without libnvme or the context is not
 * live; -ENODEV when @dev is not NVMe; or -errno from the device.
 */
int bq_nvme_health_read(struct bq_ctx *ctx, const struct bq_device *dev,
			struct bq_nvme_health *h);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_DEVICE_H */
