// SPDX-License-Identifier: GPL-2.0-only
/*
 * signature.c - on-disk signatures through libblkid
 *
 * The low-level probe is stepped with blkid_do_probe() until it reports no
 * more, as wipefs does, so a disk carrying both a partition table and a
 * stale filesystem shows both.
 */
#include <blkid.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device_int.h"
#include "internal.h"

static void lookup(blkid_probe pr, const char *key, char *buf, size_t len)
{
	const char *val = NULL;

	buf[0] = '\0';
	if (!blkid_probe_lookup_value(pr, key, &val, NULL) && val)
		bq_strlcpy(buf, val, len);
}

/* The magic's length: its value's bytes, which libblkid gives as they are on disk. */
static uint32_t magic_len(blkid_probe pr, const char *key)
{
	const char *val = NULL;
	size_t len = 0;

	if (blkid_probe_lookup_value(pr, key, &val, &len) || !val)
		return 0;
	return (uint32_t)len;
}

/*
 * A label or UUID as a terminal may show it: they are the bytes on disk, and
 * random data that looks like a superblock has random bytes there.  Plain
 * ASCII is kept as it is; anything else is libblkid's udev-style encoding
 * (valid UTF-8 kept, the rest and blanks as \xNN).
 */
static void lookup_encoded(blkid_probe pr, const char *key, char *buf, size_t len)
{
	char raw[256], encoded[4 * sizeof(raw)];
	bool plain = true;

	lookup(pr, key, raw, sizeof(raw));
	for (const unsigned char *c = (const unsigned char *)raw; *c; c++)
		plain &= *c >= 0x20 && *c < 0x7f;
	if (plain) {
		bq_strlcpy(buf, raw, len);
		return;
	}
	if (blkid_encode_string(raw, encoded, sizeof(encoded)))
		encoded[0] = '\0';
	bq_strlcpy(buf, encoded, len);
}

static int append(struct bq_signature **sigs, int *nr, const struct bq_signature *s)
{
	struct bq_signature *grown;

	for (int i = 0; i < *nr; i++)
		if (!strcmp((*sigs)[i].type, s->type) && (*sigs)[i].offset == s->offset)
			return 0;
	grown = realloc(*sigs, (*nr + 1) * sizeof(**sigs));
	if (!grown)
		return -ENOMEM;
	grown[(*nr)++] = *s;
	*sigs = grown;
	return 0;
}

static int collect(blkid_probe pr, struct bq_signature **sigs, int *nr)
{
	int ret;

	while ((ret = blkid_do_probe(pr)) == 0) {
		struct bq_signature s = { 0 };
		char off[32];

		if (!blkid_probe_has_value(pr, "TYPE") && !blkid_probe_has_value(pr, "PTTYPE"))
			continue;
		if (blkid_probe_has_value(pr, "PTTYPE")) {
			lookup(pr, "PTTYPE", s.type, sizeof(s.type));
			lookup(pr, "PTUUID", s.uuid, sizeof(s.uuid));
			lookup(pr, "PTMAGIC_OFFSET", off, sizeof(off));
			s.magic_len = magic_len(pr, "PTMAGIC");
			bq_strlcpy(s.usage, "partition table", sizeof(s.usage));
		} else {
			lookup(pr, "TYPE", s.type, sizeof(s.type));
			lookup(pr, "USAGE", s.usage, sizeof(s.usage));
			lookup_encoded(pr, "UUID", s.uuid, sizeof(s.uuid));
			lookup_encoded(pr, "LABEL", s.label, sizeof(s.label));
			lookup(pr, "SBMAGIC_OFFSET", off, sizeof(off));
			s.magic_len = magic_len(pr, "SBMAGIC");
		}
		s.offset = strtoull(off, NULL, 0);
		ret = append(sigs, nr, &s);
		if (ret)
			return ret;
	}
	return ret < 0 ? -EIO : 0;
}

/*
 * A probe over the open @fd, looking for every filesystem, RAID, crypto and
 * partition table signature with its magic's position.
 */
static int new_probe(int fd, blkid_probe *prp)
{
	blkid_probe pr;

	pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	*prp = pr;
	return 0;
}

int bq_probe_signatures_fd(int fd, struct bq_signature **sigs)
{
	blkid_probe pr;
	int nr = 0, ret;

	*sigs = NULL;
	ret = new_probe(fd, &pr);
	if (ret)
		return ret;
	ret = collect(pr, sigs, &nr);
	if (ret) {
		free(*sigs);
		*sigs = NULL;
	} else {
		ret = nr;
	}
	blkid_free_probe(pr);
	return ret;
}

/**
 * bq_wipe_signatures() - erase every signature libblkid finds, as wipefs -a
 * @fd: device or file, opened for writing by the guard, whose owner the
 *	caller has judged to be the user
 *
 * Only the magic bytes are cleared, so the rest of the data stays where it
 * was; the device no longer looks like it holds a filesystem or table.
 *
 * Return: number of signatures erased, or -errno.
 */
int bq_wipe_signatures(int fd)
{
	blkid_probe pr;
	int nr = 0, ret;

	ret = new_probe(fd, &pr);
	if (ret)
		return ret;
	while ((ret = blkid_do_probe(pr)) == 0) {
		if (blkid_do_wipe(pr, 0)) {
			ret = errno ? -errno : -EIO;
			break;
		}
		nr++;
	}
	if (ret > 0)
		ret = fsync(fd) ? -errno : nr;
	else if (ret == -1)
		ret = -EIO;
	blkid_free_probe(pr);
	return ret;
}
