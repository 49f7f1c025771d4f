/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - test helper: run a blkqual command that prints JSON and look into it
 */
#ifndef SELFTESTS_JSON_H
#define SELFTESTS_JSON_H

#include <json-c/json.h>

struct run_result;

json_object *blkqual_json(const char *cmd, const char *arg);
json_object *blkqual_run_json(struct run_result *r, const char *const *args);
json_object *json_find_by(json_object *array, const char *key, const char *value);
json_object *json_get(json_object *obj, const char *path);
const char *json_str(json_object *obj, const char *path);
long long json_int(json_object *obj, const char *path, long long dflt);
double json_dbl(json_object *obj, const char *path, double dflt);

#endif /* SELFTESTS_JSON_H */
