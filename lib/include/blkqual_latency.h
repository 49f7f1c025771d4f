/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_latency.h - the latency probe: one request at a time to a
 * directory, file or device, as ioping makes them
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.  Bad input is described in a struct bq_parse_error whose @where
 * is the ioping option ("-s", "-o") or the target.
 */
#ifndef BLKQUAL_LATENCY_H
#define BLKQUAL_LATENCY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "blkqual.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum bq_latency_engine - how a request is made
 * @BQ_LATENCY_PSYNC: pread/pwrite (preadv2/pwritev2 for -N and -H)
 * @BQ_LATENCY_LIBAIO: Linux AIO at depth 1 (ioping -A)
 * @BQ_LATENCY_URING: io_uring at depth 1 (ioping -U)
 */
enum bq_latency_engine {
	BQ_LATENCY_PSYNC,
	BQ_LATENCY_LIBAIO,
	BQ_LATENCY_URING,
};

/**
 * struct bq_latency_req - one finished request, as the callback sees it
 * @index: 1 for the first request
 * @write: it wrote (reads otherwise)
 * @offset: byte offset in the target
 * @bytes: bytes the request moved (0 when it failed and was ignored)
 * @time_ns: from the system call to its completion, the fdatasync()
 *           after a write without -C included
 * @when: wall-clock time at completion
 * @valid: counted in the statistics
 * @notice: "warmup", "too fast", "too slow", "fast", "slow", an errno
 *          name ("EAGAIN") for an ignored failure, or NULL
 * @burst_end: the last request of a burst (-b)
 */
struct bq_latency_req {
	uint64_t index;
	bool write;
	uint64_t offset;
	uint64_t bytes;
	uint64_t time_ns;
	struct timespec when;
	bool valid;
	const char *notice;
	bool burst_end;
};

/**
 * struct bq_latency_stats - requests over a stretch of time
 * @start_ns: CLOCK_MONOTONIC at the start
 * @finish_ns: CLOCK_MONOTONIC at the end (0 while running)
 * @count: requests made, warm-up and ignored ones included
 * @too_fast: requests quicker than the minimum valid time (-t)
 * @too_slow: requests slower than the maximum valid time (-T)
 * @size: the request size, for bytes and bandwidth
 * @lat: times of the requests in the statistics: its count, sum, min
 *       and max are exact, its percentiles within 1/256
 */
struct bq_latency_stats {
	uint64_t start_ns;
	uint64_t finish_ns;
	uint64_t count;
	uint64_t too_fast;
	uint64_t too_slow;
	uint64_t size;
	struct bq_hist lat;
};

/**
 * struct bq_latency_summary - what ioping reports of a struct bq_latency_stats
 * @valid: requests in the statistics
 * @time_ns: their summed time
 * @bytes: their bytes
 * @iops: @valid per second of @time_ns
 * @bps: bytes per second of @time_ns
 * @min_ns: fastest (0 when none)
 * @avg_ns: mean
 * @max_ns: slowest (0 when none)
 * @mdev_ns: population standard deviation
 * @count: every request made
 * @load_ns: wall-clock time from start to finish
 * @load_bytes: bytes of every request made
 * @load_iops: @count per second of @load_ns
 * @load_bps: @load_bytes per second of @load_ns
 * @too_fast: as in struct bq_latency_stats
 * @too_slow: as in struct bq_latency_stats
 */
struct bq_latency_summary {
	uint64_t valid;
	double time_ns;
	uint64_t bytes;
	double iops;
	double bps;
	uint64_t min_ns;
	double avg_ns;
	uint64_t max_ns;
	double mdev_ns;
	uint64_t count;
	uint64_t load_ns;
	uint64_t load_bytes;
	double load_iops;
	double load_bps;
	uint64_t too_fast;
	uint64_t too_slow;
};

/**
 * struct bq_latency_opts - a probe, in ioping's terms
 * @path: directory (a temp file in it is used), regular file or device
 * @size: request size (-s); 0: 4 KiB, or 256 KiB with @linear
 * @work_size: working set (-S); 0: @dir_work_size for a directory, the
 *             whole target past @offset for a file or device
 * @dir_work_size: a directory's default working set; 0: 1 MiB (ioping
 *                 -R makes it 64 MiB)
 * @offset: where the working set starts (-o)
 * @count: stop after this many requests (-c); 0: no limit
 * @deadline_ns: stop after this long (-w); 0: no limit
 * @interval_ns: time from one request's start to the next one's (-i)
 * @burst: requests made back to back before each interval (-b); 0: none
 * @warmup: first requests left out of the statistics (-a)
 * @min_valid_ns: quicker requests are left out (-t)
 * @max_valid_ns: slower requests are left out (-T); 0: no limit
 * @speed_limit: bytes per second at most (-l), lengthening the interval
 * @rate_limit: requests per second at most (-r), lengthening the interval
 * @period_requests: @on_period after this many requests in the
 *                   statistics (-p); 0: never
 * @period_ns: @on_period after this long (-P); 0: never
 * @seed: random offsets' and write data's seed (-e); 0: from the clock
 * @writes: times -W was given, plus one for -G; a file or device needs 3
 * @read_write: alternate writes and reads, writes first (-G)
 * @linear: sequential offsets (-L)
 * @direct: O_DIRECT (-D)
 * @cached: leave the page cache alone (-C): no POSIX_FADV_DONTNEED
 *          before each request, no fdatasync() after each write
 * @keep: a directory's temp file is DIR/ioping.tmp, kept and reused (-k)
 * @engine: how requests are made (-A, -U)
 * @nowait: RWF_NOWAIT (-N); EAGAIN is noted, not fatal
 * @hipri: RWF_HIPRI (-H)
 * @sync: O_SYNC (-Y)
 * @dsync: O_DSYNC (-y)
 * @ignore_errors: a failed request is noted and left out, not fatal (-E)
 * @guard: --force-destroy overrides for a file or device to be written
 * @stop: set non-zero (by a signal handler) to end the run early
 * @on_request: called after each request, or NULL
 * @on_period: called with a period's statistics (-p, -P), or NULL
 * @arg: passed to the callbacks
 */
struct bq_latency_opts {
	const char *path;
	uint64_t size;
	uint64_t work_size;
	uint64_t dir_work_size;
	uint64_t offset;
	uint64_t count;
	uint64_t deadline_ns;
	uint64_t interval_ns;
	uint64_t burst;
	uint64_t warmup;
	uint64_t min_valid_ns;
	uint64_t max_valid_ns;
	uint64_t speed_limit;
	double rate_limit;
	uint64_t period_requests;
	uint64_t period_ns;
	uint64_t seed;
	unsigned int writes;
	bool read_write;
	bool linear;
	bool direct;
	bool cached;
	bool keep;
	enum bq_latency_engine engine;
	bool nowait;
	bool hipri;
	bool sync;
	bool dsync;
	bool ignore_errors;
	const struct bq_guard_opts *guard;
	volatile int *stop;
	void (*on_request)(const struct bq_latency_req *req, void *arg);
	void (*on_period)(const struct bq_latency_stats *part, void *arg);
	void *arg;
};

/**
 * struct bq_latency_target - what the probe opened
 * @path: the target as named
 * @fstype: filesystem type ("xfs"), or "block" / "character" for a device
 * @device: the filesystem's device ("/dev/loop3"), or "device"
 * @device_size: bytes of the filesystem or of the device
 * @is_dir: a directory: requests go to a temp file in it
 * @is_blk: a block device
 * @tmpfile: the kept temp file (-k), else empty: an unnamed one vanishes
 *           with the probe
 * @size: request size
 * @offset: working set offset
 * @work_size: working set size
 * @dio_align: the alignment O_DIRECT needs of offsets and sizes
 * @laid_out: the temp file was written before the first request
 */
struct bq_latency_target {
	char path[PATH_MAX];
	char fstype[32];
	char device[PATH_MAX];
	uint64_t device_size;
	bool is_dir;
	bool is_blk;
	char tmpfile[PATH_MAX];
	uint64_t size;
	uint64_t offset;
	uint64_t work_size;
	uint32_t dio_align;
	bool laid_out;
};

struct bq_latency;

/**
 * bq_latency_parse_size() - a size as ioping reads it
 * @s: "4096", "4k", "4KiB", "1.5m", "8sector", "2page", "1/2m"
 * @out: bytes
 *
 * Suffixes are powers of 1024, any case; a fraction or "a/b" is allowed.
 *
 * Return: 0, -EINVAL (malformed, negative) or -ERANGE.
 */
int bq_latency_parse_size(const char *s, uint64_t *out);

/**
 * bq_latency_parse_time() - a duration as ioping reads it
 * @s: "1", "0.01", "10ms", "250us", "2min", "1hour"; a bare number is seconds
 * @out: nanoseconds
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int bq_latency_parse_time(const char *s, uint64_t *out);

/**
 * bq_latency_parse_count() - a count as ioping reads it
 * @s: "10", "2k" (2000), "1M" (a million)
 * @out: the count
 *
 * Return: 0, -EINVAL or -ERANGE (above INT_MAX, as in ioping).
 */
int bq_latency_parse_count(const char *s, uint64_t *out);

/**
 * bq_latency_open() - open a probe's target and get it ready
 * @ctx: context (live: the guard and the mount table are read)
 * @o: the options; copied, but @o->guard must outlive the probe
 * @lp: receives the probe; release with bq_latency_close()
 * @err: why not
 *
 * A directory gets a temp file (unnamed, so nothing is left behind even
 * after kill -9; DIR/ioping.tmp with @keep) laid out over the working
 * set.  A file or device is written only with @writes >= 3 and after the
 * guard allowed it.  Sizes, offsets and O_DIRECT alignment are checked
 * before anything is written.
 *
 * Return: 0; -EBUSY when the guard refused; -EINVAL, -ENOENT, -ENOTBLK,
 * -EISDIR or -EPERM for bad input; another -errno when preparing failed.
 */
int bq_latency_open(struct bq_ctx *ctx, const struct bq_latency_opts *o,
		    struct bq_latency **lp, struct bq_parse_error *err);

/**
 * bq_latency_target() - what the probe opened
 * @l: the probe
 *
 * Return: the target's facts, valid until bq_latency_close().
 */
const struct bq_latency_target *bq_latency_target(const struct bq_latency *l);

/**
 * bq_latency_run() - make the requests
 * @l: the probe
 * @total: receives the statistics of the whole run (bq_latency_stats_init()
 *         first; release with bq_latency_stats_free())
 * @err: why a request failed
 *
 * Requests go one at a time until @count, @deadline_ns or *@stop; between
 * them the probe sleeps until the next interval starts.  @total holds what
 * was measured even when a request failed.
 *
 * Return: 0, or -errno of a failed request.
 */
int bq_latency_run(struct bq_latency *l, struct bq_latency_stats *total,
		   struct bq_parse_error *err);

/**
 * bq_latency_close() - close the target; an unnamed temp file goes with it
 * @l: the probe, may be NULL
 */
void bq_latency_close(struct bq_latency *l);

/**
 * bq_latency_stats_init() - empty statistics
 * @s: the statistics
 * @size: request size
 * @start_ns: CLOCK_MONOTONIC start
 *
 * Return: 0 or -ENOMEM.
 */
int bq_latency_stats_init(struct bq_latency_stats *s, uint64_t size, uint64_t start_ns);

/**
 * bq_latency_stats_free() - release what bq_latency_stats_init() allocated
 * @s: the statistics
 */
void bq_latency_stats_free(struct bq_latency_stats *s);

/**
 * bq_latency_summarize() - the figures ioping prints
 * @s: finished statistics
 * @sum: receives them
 */
void bq_latency_summarize(const struct bq_latency_stats *s, struct bq_latency_summary *sum);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_LATENCY_H */
