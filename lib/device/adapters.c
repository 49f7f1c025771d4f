// SPDX-License-Identifier: GPL-2.0-only
/*
 * adapters.c - group devices by the controller or host adapter they sit on
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static struct bq_adapter *find_or_add(struct bq_adapter **arr, size_t *nr,
				      enum bq_dev_kind kind, const char *name)
{
	struct bq_adapter *grown;

	for (size_t i = 0; i < *nr; i++)
		if ((*arr)[i].kind == kind && !strcmp((*arr)[i].name, name))
			return &(*arr)[i];
	grown = realloc(*arr, (*nr + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	*arr = grown;
	grown = &grown[(*nr)++];
	memset(grown, 0, sizeof(*grown));
	grown->kind = kind;
	grown->numa_node = -1;
	grown->poll_queues = -1;
	bq_strlcpy(grown->name, name, sizeof(grown->name));
	return grown;
}

/* Keep a field only while every device agrees on it. */
static void agree(char *field, size_t len, const char *value, bool first)
{
	if (first)
		bq_strlcpy(field, value, len);
	else if (strcmp(field, value))
		bq_strlcpy(field, "mixed", len);
}

static int cmp_adapter(const void *a, const void *b)
{
	const struct bq_adapter *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind == BQ_DEV_NVME ? -1 : 1;
	return bq_natural_cmp(x->name, y->name);
}

int bq_adapters_group(const struct bq_devlist *list, struct bq_adapter **adapters,
		      size_t *nr)
{
	struct bq_adapter *arr = NULL;
	size_t n = 0;

	for (size_t i = 0; i < list->nr; i++) {
		const struct bq_device *d = &list->devs[i];
		const char *name;
		struct bq_adapter *a;
		bool first;

		if (d->kind == BQ_DEV_NVME)
			name = d->nvme.ctrl;
		else if (d->kind == BQ_DEV_SCSI && d->scsi.host[0])
			name = d->scsi.host;
		else
			continue;
		a = find_or_add(&arr, &n, d->kind, name);
		if (!a)
			goto out_nomem;
		first = a->devices.n == 0;
		if (bq_strv_add(&a->devices, d->name))
			goto out_nomem;
		a->size += d->size;
		a->numa_node = d->numa_node;
		agree(a->model, sizeof(a->model), d->model, first);
		agree(a->firmware, sizeof(a->firmware), d->firmware, first);
		if (d->kind == BQ_DEV_NVME) {
			bq_strlcpy(a->driver, d->nvme.transport, sizeof(a->driver));
			bq_strlcpy(a->address, d->nvme.address, sizeof(a->address));
			bq_strlcpy(a->serial, d->serial, sizeof(a->serial));
			a->queue_count = d->nvme.queue_count;
			a->poll_queues = d->nvme.poll_queues;
		} else {
			bq_strlcpy(a->driver, d->scsi.host_driver, sizeof(a->driver));
			bq_strlcpy(a->address, d->scsi.host_address, sizeof(a->address));
		}
	}
	if (n > 1)
		qsort(arr, n, sizeof(*arr), cmp_adapter);
	*adapters = arr;
	*nr = n;
	return 0;

out_nomem:
	bq_adapters_free(arr, n);
	return -ENOMEM;
}

void bq_adapters_free(struct bq_adapter *adapters, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		bq_strv_free(&adapters[i].devices);
	free(adapters);
}
