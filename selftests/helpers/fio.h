/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fio.h - test helper: run fio 3.33 on the same job, side by side
 */
#ifndef SELFTESTS_FIO_H
#define SELFTESTS_FIO_H

#include <stdbool.h>

#include <json-c/json.h>

bool have_fio(void);
json_object *fio_run_json(const char *const *args);
json_object *fio_run_json_status(const char *const *args, int *status);
long long fio_total_ios(json_object *root, const char *dir);

#endif /* SELFTESTS_FIO_H */
