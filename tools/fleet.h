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
 */
struct fleet_value {
	char *metric;
	enum fleet_unit unit;
	double v;
	char *workload;
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
 * @median: of the figures
 * @mad: their median absolute deviation
 * @min: smallest figure
 * @max: largest
 * @mixed: the devices did not all run the same workload for it
 */
struct fleet_metric {
	char *name;
	enum fleet_unit unit;
	struct fleet_point *pts;
	size_t n;
	double median, mad, min, max;
	bool mixed;
};

/**
 * struct fleet_group - devices of one model and firmware
 * @model: the model
 * @firmware: the firmware revision
 * @devs: indexes into struct fleet.devs
 * @nr_devs: how many
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
};

/* fleet_load.c */

/**
 * fleet_add_result() - read one device's figures from a run or qualify result
 * @f: the fleet
 * @host: host name for the device
 * @name: device name for its id (the file's name less ".json")
 * @file: the file, for messages
 * @root: the parsed result (not kept)
 * @err: receives a one-line reason on -EINVAL
 * @errlen: its size
 *
 * Return: 0, -EINVAL when it is not a result blkqual fleet knows, -ENOMEM.
 */
int fleet_add_result(struct fleet *f, const char *host, const char *name, const char *file,
		     json_object *root, char *err, size_t errlen);

/**
 * fleet_add_missing() - a device that gave no result, with the reason found
 * in its note (the playbook's "NAME.failed" file)
 * @f: the fleet
 * @host: host name
 * @name: device name
 * @file: the note
 * @why: its first line
 *
 * Return: 0 or -ENOMEM.
 */
int fleet_add_missing(struct fleet *f, const char *host, const char *name, const char *file,
		      const char *why);

/**
 * fleet_analyse() - group the devices and judge every metric of every group
 * @f: the fleet, its devices added and its threshold set
 *
 * Return: 0 or -ENOMEM.
 */
int fleet_analyse(struct fleet *f);

/**
 * fleet_free() - release everything a fleet holds
 * @f: the fleet (left zeroed)
 */
void fleet_free(struct fleet *f);

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
