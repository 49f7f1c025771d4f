/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_io.h - libblkqual's I/O side, one header per concern: jobs,
 * latency histograms, device counters, NVMe passthrough, the run
 */
#ifndef BLKQUAL_IO_H
#define BLKQUAL_IO_H

#include "blkqual_job.h"
#include "blkqual_histogram.h"
#include "blkqual_diskstats.h"
#include "blkqual_passthru.h"
#include "blkqual_run.h"
#include "blkqual_trace.h"

#endif /* BLKQUAL_IO_H */
