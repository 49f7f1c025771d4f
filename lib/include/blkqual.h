/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual.h - public interface of libblkqual
 *
 * Every function returns 0 (or a count, or a file descriptor) on success
 * and a negative errno on failure.  Nothing here prints.
 */
#ifndef BLKQUAL_H
#define BLKQUAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time ------------------------------------------------------------- */

/**
 * bq_now_ns() - CLOCK_MONOTONIC in nanoseconds, blkqual's one clock
 *
 * Inline: the I/O engines stamp every request with it (about 32 ns
 * through the vDSO here).
 *
 * Return: the time.
 */
static inline uint64_t bq_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- context: where the system is read from ---------------------------- */

/**
 * struct bq_roots - where sysfs, procfs and /dev are read from
 * @sysfs: replaces /sys (NULL: $BLKQUAL_SYSFS_ROOT, else /sys)
 * @proc:  replaces /proc (NULL: $BLKQUAL_PROC_ROOT, else /proc)
 * @dev:   replaces /dev (NULL: $BLKQUAL_DEV_ROOT, else /dev)
 *
 * Moving the roots lets the inventory be tested against captured trees of
 * machines we cannot plug in here.
 */
struct bq_roots {
	const char *sysfs;
	const char *proc;
	const char *dev;
};

struct bq_ctx;

/**
 * bq_ctx_new() - create a library context
 * @ctxp: where the new context is stored
 * @roots: root overrides, or NULL for the environment and the live system
 *
 * Return: 0 or -errno.
 */
int bq_ctx_new(struct bq_ctx **ctxp, const struct bq_roots *roots);

/**
 * bq_ctx_free() - release a context from bq_ctx_new()
 * @ctx: the context, may be NULL
 */
void bq_ctx_free(struct bq_ctx *ctx);

/**
 * bq_ctx_is_live() - whether the context reads the running system
 * @ctx: the context
 *
 * Device ioctls (NVMe identify, SMART) only make sense on the live system;
 * with a moved root they are skipped rather than sent to the wrong device.
 *
 * Return: true when no root was moved.
 */
bool bq_ctx_is_live(const struct bq_ctx *ctx);

/**
 * bq_ctx_root() - the directory that stands for /sys, /proc or /dev
 * @ctx: the context
 * @which: 's' for sysfs, 'p' for proc, 'd' for dev
 *
 * Return: the root path, never NULL.
 */
const char *bq_ctx_root(const struct bq_ctx *ctx, char which);

/* ---- string vectors ------------------------------------------------------ */

/**
 * struct bq_strv - a growable, NULL-terminated vector of strings
 * @v: the strings (NULL-terminated when @n > 0)
 * @n: number of strings
 */
struct bq_strv {
	char **v;
	size_t n;
};

/**
 * bq_strv_add() - append a copy of a string
 * @sv: the vector
 * @s: string to copy
 *
 * Return: 0 or -ENOMEM.
 */
int bq_strv_add(struct bq_strv *sv, const char *s);

/**
 * bq_strv_contains() - whether the vector holds a string
 * @sv: the vector
 * @s: the string
 *
 * Return: true when found.
 */
bool bq_strv_contains(const struct bq_strv *sv, const char *s);

/**
 * bq_strv_sort() - sort the strings in natural order (sdb before sdaa)
 * @sv: the vector
 */
void bq_strv_sort(struct bq_strv *sv);

/**
 * bq_strv_free() - free the strings and reset the vector
 * @sv: the vector
 */
void bq_strv_free(struct bq_strv *sv);

/**
 * bq_suggest() - the candidate closest to a misspelled word
 * @word: what the user typed
 * @candidates: valid words, @n of them
 * @n: count
 *
 * Closeness is the edit distance, a swap of two neighbours counting as one
 * edit; one edit is allowed in words of up to 4 characters, two in longer.
 *
 * Return: the closest candidate within that distance, or NULL.
 */
const char *bq_suggest(const char *word, const char *const *candidates, size_t n);

/**
 * bq_natural_cmp() - compare names so that numbers sort by value
 * @a: first name
 * @b: second name
 *
 * Return: <0, 0 or >0 like strcmp(); "nvme2n1" sorts before "nvme10n1".
 */
int bq_natural_cmp(const char *a, const char *b);

/* ---- CPU lists --------------------------------------------------------- */

/**
 * bq_cpulist_parse() - parse a kernel CPU list ("0-3,8,10-11")
 * @s: the list, as in sysfs cpulist files
 * @cpus: array to fill with CPU numbers, ascending
 * @max: capacity of @cpus
 *
 * libnuma's parser checks the list against this machine's CPUs, which a
 * captured sysfs tree of another machine would fail; this one does not.
 *
 * Return: number of CPUs, -EINVAL for a malformed list, -E2BIG when more
 * than @max.
 */
int bq_cpulist_parse(const char *s, int *cpus, int max);

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
 */
struct bq_signature {
	char type[32];
	char usage[24];
	char uuid[64];
	char label[64];
	uint64_t offset;
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
 * bq_probe_signatures() - find every on-disk signature with libblkid
 * @path: device or file
 * @sigs: receives a malloc()ed array (NULL when none)
 *
 * Partition tables are probed too: a disk with a GPT counts as holding data.
 *
 * Return: number of signatures, or -errno (-EACCES without permission).
 */
int bq_probe_signatures(const char *path, struct bq_signature **sigs);

/**
 * bq_probe_signatures_fd() - bq_probe_signatures() of an open descriptor
 * @fd: device or file, opened for reading (O_DIRECT not required)
 * @sigs: receives a malloc'd array; free() it
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

/**
 * bq_nvme_health_decode() - decode raw identify and SMART log pages
 * @id_ctrl: 4096-byte Identify Controller data
 * @id_ns: 4096-byte Identify Namespace data, or NULL
 * @smart: 512-byte SMART / Health Information log page
 * @h: filled in
 *
 * Split from the ioctls so the decoding is testable without a device.
 */
void bq_nvme_health_decode(const void *id_ctrl, const void *id_ns,
			   const void *smart, struct bq_nvme_health *h);

/* ---- the data-safety guard --------------------------------------------- */

/**
 * enum bq_guard_reason - why the guard refuses to write
 * @BQ_GUARD_MOUNTED: the device or one of its partitions is mounted
 * @BQ_GUARD_HOLDERS: md, dm or LVM is built on it
 * @BQ_GUARD_SWAP: it is active swap
 * @BQ_GUARD_BUSY: an exclusive open failed: someone else holds it
 * @BQ_GUARD_LOOP_BACKING: it (or its whole disk, or a partition of it) is
 *	the backing file or device of a loop device
 * @BQ_GUARD_SIGNATURE: libblkid found a filesystem, RAID, LVM or crypto signature
 * @BQ_GUARD_PARTTABLE: libblkid found a partition table
 * @BQ_GUARD_STACKED: a loop device whose backing store is in use below it
 *	or shared with another loop device that is mounted, held or holds data
 * @BQ_GUARD_READONLY: the device or filesystem takes no writes
 *
 * All but @BQ_GUARD_SIGNATURE and @BQ_GUARD_PARTTABLE mean "in use": no
 * flag overrides them, since writing would corrupt a live system (or
 * cannot work).  Those two mean "holds data": the --force-destroy override
 * for the named device lifts them.
 */
enum bq_guard_reason {
	BQ_GUARD_MOUNTED,
	BQ_GUARD_HOLDERS,
	BQ_GUARD_SWAP,
	BQ_GUARD_BUSY,
	BQ_GUARD_LOOP_BACKING,
	BQ_GUARD_SIGNATURE,
	BQ_GUARD_PARTTABLE,
	BQ_GUARD_STACKED,
	BQ_GUARD_READONLY,
};

#define BQ_GUARD_MAX_FINDINGS 16

/**
 * struct bq_guard_finding - one reason to refuse
 * @reason: what was found
 * @overridable: whether --force-destroy lifts it
 * @detail: human-readable detail ("xfs filesystem, UUID=...")
 */
struct bq_guard_finding {
	enum bq_guard_reason reason;
	bool overridable;
	char detail[256];
};

/**
 * struct bq_guard_report - what the guard found on one target
 * @findings: reasons, @nr of them
 * @forced: the override named this target and lifted its findings
 * @st: what was examined (fstat of the one descriptor), valid when a
 *	descriptor is returned and when the target was refused
 */
struct bq_guard_report {
	struct bq_guard_finding findings[BQ_GUARD_MAX_FINDINGS];
	int nr;
	bool forced;
	struct stat st;
};

/**
 * struct bq_guard_opts - the user's overrides
 * @force_destroy: targets the user allowed to overwrite, @nr_force of them;
 *   matched by identity (device number, or inode for files), not by spelling
 */
struct bq_guard_opts {
	const char *const *force_destroy;
	size_t nr_force;
};

/**
 * bq_guard_open() - open a target for writing only if that is safe
 * @ctx: context
 * @path: block device or regular file
 * @flags: extra open(2) flags (e.g. O_DIRECT); O_RDWR is implied
 * @opts: overrides, or NULL
 * @rep: receives the findings
 *
 * Every blkqual feature that writes to a target opens it here.  A block
 * device is opened O_EXCL and kept so, which both detects holders the
 * kernel knows of (mounts, md, dm) and keeps new ones away while the
 * caller writes.
 *
 * Return: a file descriptor; -EBUSY when refused (see @rep); -ENOENT,
 * -ENOTBLK (neither block device nor regular file), -EISDIR, -EACCES,
 * -EXDEV when @ctx reads a captured tree instead of this machine, an error
 * that kept the signatures from being read, or another -errno.
 */
int bq_guard_open(struct bq_ctx *ctx, const char *path, int flags,
		  const struct bq_guard_opts *opts, struct bq_guard_report *rep);

/**
 * bq_guard_open_fd() - bq_guard_open() of an object already resolved
 * @ctx: context
 * @fd: a descriptor of the target (O_PATH will do); it is not consumed
 * @flags: as for bq_guard_open()
 * @opts: overrides, or NULL
 * @rep: receives the findings
 *
 * For callers that resolved the user's name once and hold the result:
 * nothing here looks at a name again, so what is checked is what is
 * written.  The returned descriptor is a reopen of @fd's object.
 *
 * Return: as bq_guard_open().
 */
int bq_guard_open_fd(struct bq_ctx *ctx, int fd, int flags, const struct bq_guard_opts *opts,
		     struct bq_guard_report *rep);

/**
 * bq_same_object() - whether two stat results are the same target
 * @a: one
 * @b: the other
 *
 * Devices by device number (two nodes, one device), files by filesystem
 * and inode number.
 *
 * Return: true when writing to one writes to the other.
 */
bool bq_same_object(const struct stat *a, const struct stat *b);

/**
 * bq_fd_reopen() - a second descriptor of the object behind @fd
 * @fd: an open descriptor (O_PATH will do)
 * @flags: open(2) flags for the new one; O_CLOEXEC is added, O_CREAT refused
 *
 * Through /proc/self/fd, which names the open file rather than a path to
 * it; the result is checked to be the same object all the same.
 *
 * Return: the new descriptor, or -errno (-ESTALE if not the same object).
 */
int bq_fd_reopen(int fd, int flags);

/**
 * bq_dev_node() - the device node to hand a child program for a device
 * @ctx: context
 * @rdev: the device's number, from the descriptor the guard judged
 * @buf: receives "/dev/NAME", the kernel's name, checked to be that
 *	device's node and not a symlink
 * @len: size of @buf
 *
 * Return: 0, or -ENODEV.
 */
int bq_dev_node(struct bq_ctx *ctx, dev_t rdev, char *buf, size_t len);

/**
 * bq_guard_force_named() - whether a --force-destroy value names a target
 * @force: the value as the user gave it
 * @targets: the command's targets, @nr of them (names that do not exist
 *	yet, such as files a run will create, simply match nothing)
 * @nr: how many
 *
 * An override that names nothing, or nothing the command will touch, is
 * almost certainly a typo for the device the user meant.
 *
 * Return: 0; -ENOENT (or another stat(2) error) when @force does not
 * exist; -ENXIO when it exists but is none of @targets.
 */
int bq_guard_force_named(const char *force, const char *const *targets, size_t nr);

/**
 * bq_guard_explain() - the guard's findings as one line for the user
 * @path: the target as the user named it
 * @rep: the report from bq_guard_open()
 * @buf: receives "xfs filesystem (UUID ...); pass --force-destroy=PATH to
 *       overwrite it", or the in-use findings and that nothing overrides them
 * @len: size of @buf
 */
void bq_guard_explain(const char *path, const struct bq_guard_report *rep, char *buf,
		      size_t len);

/**
 * bq_guard_reason_name() - short name of a refusal reason ("mounted", ...)
 * @reason: the reason
 *
 * Return: a static string.
 */
const char *bq_guard_reason_name(enum bq_guard_reason reason);

#ifdef __cplusplus
}
#endif

#include "blkqual_io.h"

#endif /* BLKQUAL_H */
