// SPDX-License-Identifier: GPL-2.0-only
/*
 * inventory_text.c - short descriptions shared by the list and info tables
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "inventory.h"

/* Append ",PREFIXWORD" to a comma-separated list. */
static void append(char *buf, size_t len, const char *prefix, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s%s", used ? "," : "", prefix, word);
}

/**
 * describe_use() - what occupies a device, in a few words
 * @dev: the device
 * @buf: receives "/data,held:md0,xfs"
 * @len: size of @buf
 */
void describe_use(const struct bq_device *dev, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < dev->mounts.n; i++)
		append(buf, len, "", dev->mounts.v[i]);
	if (dev->swap)
		append(buf, len, "", "[SWAP]");
	for (size_t i = 0; i < dev->holders.n; i++)
		append(buf, len, "held:", dev->holders.v[i]);
	for (int i = 0; i < dev->nr_sigs; i++)
		append(buf, len, "", dev->sigs[i].type);
	/* A missing node (captured trees) is no news; a denied probe is. */
	if (dev->sig_error && dev->sig_error != -ENOENT)
		append(buf, len, "", "sig:unknown");
}

/**
 * poll_word() - whether polled I/O can work on the device
 * @dev: the device
 *
 * Return: "yes", "no" or "-" when the kernel does not say.
 */
const char *poll_word(const struct bq_device *dev)
{
	if (dev->q.io_poll < 0)
		return "-";
	return dev->q.io_poll ? "yes" : "no";
}
