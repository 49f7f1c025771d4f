/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fio_result_load.h - fio's JSON output read as a blkqual result, so that
 * compare and report take runs made with fio itself (or with blkqual run
 * --output-format=json)
 */
#ifndef BLKQUAL_FIO_RESULT_LOAD_H
#define BLKQUAL_FIO_RESULT_LOAD_H

#include <stdbool.h>

#include <json-c/json.h>

/* Whether @doc is fio's JSON output (a top-level "fio version"). */
bool fio_result_is(json_object *doc);

/**
 * fio_result_native() - fio's JSON output in blkqual's result layout
 * @doc: fio's document (--output-format=json or json+)
 *
 * Per job, per direction that did I/O: ios, bytes, iops, bytes per
 * second, and the latency (lat_ns: mean, min, max; percentiles from
 * lat_ns when fio kept them, lat_percentiles=1, else from clat_ns, fio's
 * default), and I/Os per CPU-second from usr_cpu, sys_cpu and
 * job_runtime.  fio's JSON has no interval samples and no repetitions.
 *
 * Return: a new document (json_object_put() it), or NULL when @doc is
 * not fio's or memory ran out.
 */
json_object *fio_result_native(json_object *doc);

#endif /* BLKQUAL_FIO_RESULT_LOAD_H */
