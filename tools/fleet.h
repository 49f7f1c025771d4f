/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.h - blkqual fleet: many devices' results side by side, grouped by
 * model and firmware, with the odd one out found by a robust z-score
 */
#ifndef BLKQUAL_FLEET_H
#define BLKQUAL_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "blkqual.h"
#include "blkqual_stats.h"
#include "cli.h"
#include "strpool.h"

enum fleet_unit {
	FLEET_IOPS,
	FLEET_BPS,	/* bytes per second */
	FLEET_NS,	/* latency */
};

/**
 * struct fleet_value - one figure of one device
 * @metric: its name, e.g. "r: read IOPS" or "quick iops 100/0 4k: read p99 latency"
 * @unit: what it counts; latency is better low, the others high
 * @v: the figure
 * @workload: what produced it (job options less the file name, or the
 *            profile's text), to notice devices that did not run the same
 *
 * @metric and @workload are struct fleet.strings' copies.
 */
struct fleet_value {
	const char *metric;
	enum fleet_unit unit;
	double v;
	const char *workload;
};

/**
 * struct fleet_device - one result file (or the note of a device that gave none)
 * @id: "HOST/NAME", NAME being the file's name less ".json"
 * @host: the directory the file was in (or the result's host name)
 * @file: the file
 * @kind: "run", "qualify", or "missing" for a note without a result
 * @path: the device path the result names
 * @model: model, or "KIND (no model)" when the device reports none
 * @firmware: firmware revision, "" when unknown
 * @serial: serial number, "" when unknown
 * @verdict: a qualification's verdict, or NULL
 * @failures: what went wrong: failed criteria, I/O errors, interruptions,
 *            the playbook's note for a device that gave no result
 * @vals: the figures
 * @nr_vals: how many
 * @group: index into struct fleet.groups, or -1 for none
 * @nr_outliers: metrics on which this device is an outlier
 * @other_metric: the first metric the device ran another job for than
 *	most devices did (its figures of those are not compared), or NULL
 * @other_workload: the job it ran for it
 */
struct fleet_device {
	char *id;
	char *host;
	char *file;
	const char *kind;
	char *path;
	char *model;
	char *firmware;
	char *serial;
	char *verdict;
	struct bq_strv failures;
	struct fleet_value *vals;
	size_t nr_vals;
	int group;
	int nr_outliers;
	const char *other_metric;
	const char *other_workload;
};

/**
 * struct fleet_point - one device's figure within a group's metric
 * @dev: index into struct fleet.devs
 * @v: the figure
 * @z: robust z-score; +-INFINITY when the metric's MAD is 0
 * @diff: relative distance from the median (-0.25 is 25% below), NaN for a median of 0
 * @outlier: |@z| above the threshold and |@diff| at least the minimum
 * @worse: the outlier is on the bad side (slower, higher latency)
 */
struct fleet_point {
	int dev;
	double v;
	double z;
	double diff;
	bool outlier;
	bool worse;
};

/**
 * struct fleet_metric - a metric across the devices of a group
 * @name: as in struct fleet_value
 * @unit: likewise
 * @pts: one per device that has it
 * @n: how many
 * @stats: their median, MAD, and the band within the group's threshold
 * @min: smallest figure
 * @max: largest
 * @workload: the job most devices ran for it; the others are not compared
 */
struct fleet_metric {
	const char *name;
	enum fleet_unit unit;
	struct fleet_point *pts;
	size_t n;
	struct bq_outlier_group stats;
	double min, max;
	const char *workload;
};

/**
 * struct fleet_group - devices of one model and firmware
 * @model: the model
 * @firmware: the firmware revision
 * @devs: indexes into struct fleet.devs
 * @nr_devs: how many
 * @nr_hosts: on how many hosts
 * @metrics: every metric any of them has, in first-seen order
 * @nr_metrics: how many
 * @z_threshold: the |z| its values are judged against (fleet_analyse())
 * @chance: outliers chance alone would give it under that threshold
 */
struct fleet_group {
	char *model;
	char *firmware;
	int *devs;
	size_t nr_devs;
	size_t nr_hosts;
	struct fleet_metric *metrics;
	size_t nr_metrics;
	double z_threshold;
	double chance;
};

/* Fewer devices than this cannot have an outlier: there is no majority. */
#define FLEET_MIN_JUDGED 3

/**
 * struct fleet - everything blkqual fleet read and found
 * @devs: the devices
 * @nr_devs: how many
 * @groups: the groups
 * @nr_groups: how many
 * @threshold: the least |z| at which a figure may be an outlier (each
 *	group's own threshold, for its size, is at least this)
 * @alpha: the chance a group shows an outlier by chance alone
 * @min_diff: and the least relative distance from the median it must have
 * @chance: outliers chance alone would give, over all the groups
 * @source: what was read, for the reports
 * @nr_hosts: distinct hosts
 * @nr_outlier_devs: devices with at least one outlier
 * @nr_failed_devs: devices with at least one failure
 * @nr_other_job_devs: devices with figures of another job
 * @strings: the metrics' names and workloads, kept once
 */
struct fleet {
	struct fleet_device *devs;
	size_t nr_devs;
	struct fleet_group *groups;
	size_t nr_groups;
	double threshold;
	double alpha;
	double min_diff;
	double chance;
	const char *source;
	size_t nr_hosts;
	size_t nr_outlier_devs;
	size_t nr_failed_devs;
	size_t nr_other_job_devs;
	struct strpool strings;
};

/* fleet_read.c */

/**
 * struct fleet_unread - files of one kind that gave no figures: counted,
 * the first few named, the first one's reason kept
 * @n: how many
 * @names: the first FLEET_NAMED
 * @first: the first one's reason, with its name
 */
struct fleet_unread {
	size_t n;
	struct bq_strv names;
	char first[512];
};

#define FLEET_NAMED 5

struct fleet_file;

/**
 * struct fleet_reader - the files blkqual fleet reads, and what came of them
 * @cli: for messages
 * @only: --metric: keep the metrics whose name holds one of these
 * @progress: say how far it got on standard error (a terminal)
 * @files: the files found, in the order they are reported
 * @nr_files: how many
 * @nr_read: results and notes that gave a device
 * @not_json: files that are not JSON (or empty)
 * @not_result: JSON, but not a result fleet reads
 */
struct fleet_reader {
	const struct cli *cli;
	const struct bq_strv *only;
	bool progress;
	struct fleet_file *files;
	size_t nr_files;
	size_t nr_read;
	struct fleet_unread not_json;
	struct fleet_unread not_result;
};

/**
 * fleet_reader_add() - a results directory (HOST/DEVICE.json and
 * HOST/DEVICE.failed under it, or DEVICE.json in it) or one result file
 * @r: the reader
 * @path: the argument
 *
 * Return: 0, or EXIT_BADINPUT after saying why on one line.
 */
int fleet_reader_add(struct fleet_reader *r, const char *path);

/**
 * fleet_read() - read every file found, in parallel, into the fleet
 * @r: the reader
 * @f: receives the devices, in the order of the files
 *
 * Return: 0, or an exit status after saying why on one line.
 */
int fleet_read(struct fleet_reader *r, struct fleet *f);

/**
 * fleet_reader_free() - release the reader
 * @r: the reader
 */
void fleet_reader_free(struct fleet_reader *r);

/* fleet_load.c */

/**
 * fleet_device_load() - read one device's figures from a run or qualify result
 * @f: the fleet, for its strings (threads may load devices at once)
 * @d: receives the device; fleet_device_free() it, whatever is returned
 * @host: host name for the device
 * @name: device name for its id (the file's name less ".json")
 * @file: the file, for messages
 * @root: the parsed result (not kept)
 * @err: receives a one-line reason on -EINVAL
 * @errlen: its size
 *
 * Return: 0, -EINVAL when it is not a result blkqual fleet knows, -ENOMEM.
 */
int fleet_device_load(struct fleet *f, struct fleet_device *d, const char *host,
		      const char *name, const char *file, json_object *root, char *err,
		      size_t errlen);

/**
 * fleet_device_missing() - a device that gave no result, with the reason
 * found in its note (the playbook's "NAME.failed" file)
 * @d: receives the device; fleet_device_free() it, whatever is returned
 * @host: host name
 * @name: device name
 * @file: the note
 * @why: its first line
 *
 * Return: 0 or -ENOMEM.
 */
int fleet_device_missing(struct fleet_device *d, const char *host, const char *name,
			 const char *file, const char *why);

/**
 * fleet_device_free() - release what a device holds
 * @d: the device (left zeroed)
 */
void fleet_device_free(struct fleet_device *d);

/**
 * fleet_fmt() - a figure as text: "12.3k", "85.1 MB/s", "1.20ms"
 * @buf: receives it
 * @len: its size
 * @unit: what the figure counts
 * @v: the figure ("-" when not finite)
 */
void fleet_fmt(char *buf, size_t len, enum fleet_unit unit, double v);

/**
 * fleet_unit_name() - a unit's name in the JSON output
 * @unit: the unit
 *
 * Return: "iops", "bytes_per_second" or "ns".
 */
const char *fleet_unit_name(enum fleet_unit unit);

/* fleet_judge.c */

/**
 * fleet_analyse() - group the devices and judge every metric of every group
 * @f: the fleet, its devices added and its threshold set
 *
 * Return: 0 or -ENOMEM.
 */
int fleet_analyse(struct fleet *f);

/**
 * fleet_add_device() - add a loaded device to the fleet
 * @f: the fleet
 * @d: the device, moved into the fleet (left zeroed)
 *
 * Return: 0 or -ENOMEM (@d is then still the caller's).
 */
int fleet_add_device(struct fleet *f, struct fleet_device *d);

/**
 * fleet_free() - release everything a fleet holds
 * @f: the fleet (left zeroed)
 */
void fleet_free(struct fleet *f);

/* fleet_text.c */

/**
 * fleet_text() - the report as text: what was found first, then a table
 * per group
 * @out: where
 * @f: the analysed fleet
 * @in: what was read, for the files that gave nothing
 */
void fleet_text(FILE *out, const struct fleet *f, const struct fleet_reader *in);

/* fleet_json.c */

/**
 * fleet_json() - the report as JSON, written as it is made
 * @out: where
 * @f: the analysed fleet
 * @in: what was read, for the files that gave nothing
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int fleet_json(FILE *out, const struct fleet *f, const struct fleet_reader *in);

/* fleet_html.c */

/**
 * fleet_html() - the report as one self-contained HTML page
 * @out: where
 * @f: the analysed fleet
 *
 * Return: 0 or -EIO.
 */
int fleet_html(FILE *out, const struct fleet *f);

#endif /* BLKQUAL_FLEET_H */
