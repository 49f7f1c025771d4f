/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inventory.h - rendering devices, adapters and the host for list and info
 */
#ifndef BLKQUAL_INVENTORY_H
#define BLKQUAL_INVENTORY_H

#include <json-c/json.h>

#include "blkqual.h"

json_object *device_to_json(const struct bq_device *dev);
json_object *adapters_to_json(const struct bq_adapter *a, size_t nr);
json_object *host_to_json(const struct bq_host *h);
json_object *nvme_health_to_json(const struct bq_nvme_health *h);
int print_json(json_object *obj);

void describe_use(const struct bq_device *dev, char *buf, size_t len);
const char *poll_word(const struct bq_device *dev);

#endif /* BLKQUAL_INVENTORY_H */
