/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual.h - public interface of libblkqual: every area's header
 *
 * Every function returns 0 (or a count, or a file descriptor) on success
 * and a negative errno on failure.  Nothing here prints.  A user may
 * include just the header of the area they use, or this one for all
 */
#ifndef BLKQUAL_H
#define BLKQUAL_H

#include "blkqual_core.h"
#include "blkqual_device.h"
#include "blkqual_guard.h"
#include "blkqual_io.h"

#endif /* BLKQUAL_H */
