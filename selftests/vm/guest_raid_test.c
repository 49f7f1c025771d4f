// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_raid_test.c - the RAID0 layout library against the kernel's md,
 * byte for byte (VM guest)
 *
 * Each test makes small memory-backed null_blk members through configfs,
 * builds an md RAID0 over them, writes every sector of the array with a
 * block that names it, and reads the members back directly: every array
 * sector must be where bq_raid0_map() says, whole, and nowhere else.
 *
 * Arrays come from mdadm (1.2 superblocks, what users run) and from md's
 * own sysfs files (no superblock), which reach what mdadm will not make:
 * the issue's 64/40/40/40/100-sector example with an 8-sector chunk,
 * per-member data offsets, 1.5 KiB chunks, members smaller than a chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_raid.h"
#include "../../raid/raid_int.h"
#include "helpers/attr.h"
#include "helpers/loopdev.h"

#define NEED_GUEST() do { \
	if (access("/sys/block/nullb0", F_OK) || access(NULLB_CFS, W_OK)) \
		SKIP(return, "not in the blkqual VM; run 'make check-vm'"); \
} while (0)

#define NULLB_CFS	"/sys/kernel/config/nullb"
#define MAX_DEVS	6
#define SB_OFFSET	4096	/* md 1.2 superblock: 4 KiB into the device */
#define SB_MAGIC	0xa92b4efcu
#define IO_BYTES	(256 << 10)

FIXTURE(raid) {
	int nr_devs;
	char dev[MAX_DEVS][16];		/* configfs and /dev names; device i gets slot i */
	char md[16];			/* set while an array may exist */
	bool superblocks;		/* mdadm wrote some: zero them */
};

FIXTURE_SETUP(raid)
{
}

/* Whatever the test body got to, leave the guest as the next program expects it. */
FIXTURE_TEARDOWN(raid)
{
	char path[128];

	if (self->md[0])
		run_quiet("mdadm --stop /dev/%s", self->md);
	for (int i = 0; i < self->nr_devs; i++) {
		if (self->superblocks)
			run_quiet("mdadm --zero-superblock /dev/%s", self->dev[i]);
		snprintf(path, sizeof(path), NULLB_CFS "/%s/power", self->dev[i]);
		attr_write(path, "0");
		*strrchr(path, '/') = 0;
		rmdir(path);
	}
}

/* A memory-backed null_blk device of @mib MiB, /dev/bqrN. */
static int add_member(FIXTURE_DATA(raid) *self, unsigned int mib, unsigned int lbs)
{
	char dir[96], attr[128];
	int i = self->nr_devs, ret;

	if (i == MAX_DEVS)
		return -ENOSPC;
	snprintf(self->dev[i], sizeof(self->dev[i]), "bqr%d", i);
	snprintf(dir, sizeof(dir), NULLB_CFS "/%s", self->dev[i]);
	if (mkdir(dir, 0755))
		return -errno;
	self->nr_devs++;
	snprintf(attr, sizeof(attr), "%s/size", dir);
	ret = attr_write(attr, "%u", mib);
	snprintf(attr, sizeof(attr), "%s/memory_backed", dir);
	ret = ret ?: attr_write(attr, "1");
	snprintf(attr, sizeof(attr), "%s/blocksize", dir);
	ret = ret ?: attr_write(attr, "%u", lbs);
	snprintf(attr, sizeof(attr), "%s/power", dir);
	ret = ret ?: attr_write(attr, "1");
	if (ret)
		return ret;
	/* devtmpfs makes the node asynchronously. */
	snprintf(attr, sizeof(attr), "/dev/%s", self->dev[i]);
	for (int t = 0; t < 100 && access(attr, F_OK); t++)
		usleep(20000);
	return access(attr, F_OK) ? -ENODEV : 0;
}

static int add_members(FIXTURE_DATA(raid) *self, const unsigned int *mib, int nr)
{
	for (int i = 0; i < nr; i++) {
		int ret = add_member(self, mib[i], 512);

		if (ret)
			return ret;
	}
	return 0;
}

/* mdadm --create over every member, in order; @layout may be NULL. */
static int create_mdadm(FIXTURE_DATA(raid) *self, unsigned int chunk_kib, const char *layout)
{
	char cmd[512];
	size_t n;

	n = (size_t)snprintf(cmd, sizeof(cmd), "mdadm --create /dev/md0 --run --level=0 "
			     "--chunk=%uK --metadata=1.2 --raid-devices=%d", chunk_kib,
			     self->nr_devs);
	if (layout)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --layout=%s", layout);
	for (int i = 0; i < self->nr_devs; i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " /dev/%s", self->dev[i]);
	strcpy(self->md, "md0");
	self->superblocks = true;
	return run_quiet("%s", cmd);
}

/* Writes one attribute below @dir; 0 or the -errno md answered with. */
static int set_attr(const char *dir, const char *name, const char *fmt, ...)
{
	char path[160], buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return attr_write(path, "%s", buf);
}

/*
 * The same through md's sysfs files, no superblock: member i in slot i,
 * @kib[i] KiB of data starting @offset[i] sectors in.  Returns the errno
 * of the step md refused, e.g. starting the array.
 */
static int create_sysfs(FIXTURE_DATA(raid) *self, const char *md, unsigned int chunk_bytes,
			int layout, const unsigned int *kib, const unsigned int *offset)
{
	char dir[64], path[96], devt[32];
	FILE *f;
	int ret;

	ret = attr_write("/sys/module/md_mod/parameters/new_array", "%s", md);
	if (ret)
		return ret;
	snprintf(self->md, sizeof(self->md), "%s", md);
	snprintf(dir, sizeof(dir), "/sys/block/%s/md", md);
	ret = set_attr(dir, "metadata_version", "none");
	ret = ret ?: set_attr(dir, "level", "raid0");
	ret = ret ?: set_attr(dir, "chunk_size", "%u", chunk_bytes);
	ret = ret ?: set_attr(dir, "raid_disks", "%d", self->nr_devs);
	ret = ret ?: set_attr(dir, "layout", "%d", layout);
	for (int i = 0; i < self->nr_devs && !ret; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/dev", self->dev[i]);
		f = fopen(path, "r");
		if (!f)
			return -errno;
		ret = fscanf(f, "%31s", devt) == 1 ? 0 : -EIO;
		fclose(f);
		ret = ret ?: set_attr(dir, "new_dev", "%s", devt);
		snprintf(path, sizeof(path), "%s/dev-%s", dir, self->dev[i]);
		ret = ret ?: set_attr(path, "slot", "%d", i);
		ret = ret ?: set_attr(path, "offset", "%u", offset[i]);
		ret = ret ?: set_attr(path, "size", "%u", kib[i]);
	}
	return ret ?: set_attr(dir, "array_state", "active");
}

/*
 * The array as md sees it, from sysfs: slots, data offsets, the rounded
 * sizes md uses, chunk, layout, size.  @data_sectors is what md was given
 * per member (the 1.2 superblock's data_size, or the sysfs size we wrote).
 */
struct md_view {
	int nr;
	int slot_dev[MAX_DEVS];		/* device index of each slot */
	uint64_t data_sectors[MAX_DEVS];
	uint64_t offset[MAX_DEVS];
	uint64_t md_kib[MAX_DEVS];
	uint64_t chunk_sectors;
	int layout;
	uint64_t size;
};

static int read_superblock(const char *dev, uint64_t *data_offset, uint64_t *data_size)
{
	char path[64];
	unsigned char *sb;
	uint32_t magic;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/dev/%s", dev);
	if (posix_memalign((void **)&sb, 4096, 4096))
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		ret = -errno;
		goto free_sb;
	}
	if (pread(fd, sb, 4096, SB_OFFSET) != 4096) {
		ret = -EIO;
		goto close_fd;
	}
	/* Little-endian fields of struct mdp_superblock_1; so is the guest. */
	memcpy(&magic, sb, 4);
	memcpy(data_offset, sb + 128, 8);
	memcpy(data_size, sb + 136, 8);
	if (magic != SB_MAGIC)
		ret = -ENODATA;
close_fd:
	close(fd);
free_sb:
	free(sb);
	return ret;
}

static void read_view(struct __test_metadata *_metadata, FIXTURE_DATA(raid) *self,
		      const unsigned int *kib, struct md_view *v)
{
	char path[128];
	long long val;

	memset(v, 0, sizeof(*v));
	v->nr = self->nr_devs;
	for (int i = 0; i < self->nr_devs; i++) {
		int slot;

		snprintf(path, sizeof(path), "/sys/block/%s/md/dev-%s/slot", self->md,
			 self->dev[i]);
		ASSERT_EQ(0, attr_read_ll(path, &val));
		ASSERT_GE(val, 0);
		ASSERT_LT(val, self->nr_devs);
		slot = (int)val;
		v->slot_dev[slot] = i;
		snprintf(path, sizeof(path), "/sys/block/%s/md/dev-%s/offset", self->md,
			 self->dev[i]);
		ASSERT_EQ(0, attr_read_ll(path, &val));
		v->offset[slot] = (uint64_t)val;
		snprintf(path, sizeof(path), "/sys/block/%s/md/dev-%s/size", self->md,
			 self->dev[i]);
		ASSERT_EQ(0, attr_read_ll(path, &val));
		v->md_kib[slot] = (uint64_t)val;
		if (kib) {
			v->data_sectors[slot] = kib[i] * 2ull;
		} else {
			uint64_t sb_offset, *data = &v->data_sectors[slot];

			ASSERT_EQ(0, read_superblock(self->dev[i], &sb_offset, data));
			ASSERT_EQ(v->offset[slot], sb_offset);
		}
	}
	snprintf(path, sizeof(path), "/sys/block/%s/md/chunk_size", self->md);
	ASSERT_EQ(0, attr_read_ll(path, &val));
	v->chunk_sectors = (uint64_t)val / 512;
	snprintf(path, sizeof(path), "/sys/block/%s/md/layout", self->md);
	ASSERT_EQ(0, attr_read_ll(path, &val));
	v->layout = (int)val;
	snprintf(path, sizeof(path), "/sys/block/%s/size", self->md);
	ASSERT_EQ(0, attr_read_ll(path, &val));
	v->size = (uint64_t)val;
}

/* What array sector @s of test @seed holds: its number, then noise from both. */
static void fill_sector(uint64_t *w, uint64_t seed, uint64_t s)
{
	uint64_t x = seed ^ (s * 0x9e3779b97f4a7c15ull);

	w[0] = seed;
	w[1] = s;
	for (int i = 2; i < 64; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

struct piece_writer {
	int fd;
	uint64_t seed;
	uint64_t *buf;
};

static int write_piece(const struct bq_raid0_piece *p, void *arg)
{
	struct piece_writer *w = arg;
	size_t len = p->sectors * 512;

	for (uint64_t k = 0; k < p->sectors; k++)
		fill_sector(w->buf + k * 64, w->seed, p->array_sector + k);
	if (pwrite(w->fd, w->buf, len, (off_t)(p->array_sector * 512)) != (ssize_t)len)
		return -EIO;
	return 0;
}

/*
 * Every sector of the array through md, O_DIRECT: in 256 KiB writes, or
 * with @r one write per chunk (see chunk_of_three_sectors).
 */
static int write_array(const char *md, uint64_t sectors, uint64_t seed,
		       const struct bq_raid0 *r)
{
	struct piece_writer w = { .seed = seed };
	char path[64];
	int ret = 0;

	snprintf(path, sizeof(path), "/dev/%s", md);
	if (posix_memalign((void **)&w.buf, 4096, IO_BYTES))
		return -ENOMEM;
	w.fd = open(path, O_WRONLY | O_DIRECT);
	if (w.fd < 0) {
		ret = -errno;
		goto free_buf;
	}
	if (r) {
		ret = r->chunk_sectors * 512 > IO_BYTES ? -EINVAL :
			bq_raid0_split(r, 0, sectors, write_piece, &w);
		goto sync;
	}
	for (uint64_t s = 0; s < sectors && !ret;) {
		struct bq_raid0_piece p = { .array_sector = s };

		p.sectors = sectors - s < IO_BYTES / 512 ? sectors - s : IO_BYTES / 512;
		ret = write_piece(&p, &w);
		s += p.sectors;
	}
sync:
	if (!ret && fsync(w.fd))
		ret = -errno;
	close(w.fd);
free_buf:
	free(w.buf);
	return ret;
}

/* The whole device, read past any cache; *sectors gets its size. */
static void *read_device(const char *dev, uint64_t *sectors)
{
	char path[64];
	long long val;
	void *buf;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/size", dev);
	if (attr_read_ll(path, &val) || val <= 0)
		return NULL;
	*sectors = (uint64_t)val;
	if (posix_memalign(&buf, 4096, *sectors * 512))
		return NULL;
	snprintf(path, sizeof(path), "/dev/%s", dev);
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0 || pread(fd, buf, *sectors * 512, 0) != (ssize_t)(*sectors * 512)) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	return buf;
}

/*
 * The library's layout for what md reports, checked against md: sizes,
 * then every sector written through md and found on the members;
 * @per_chunk writes one chunk at a time.  Returns the layout in @r for
 * further checks.
 */
static void check_against_md(struct __test_metadata *_metadata, FIXTURE_DATA(raid) *self,
			     const unsigned int *kib, uint64_t seed, bool per_chunk,
			     struct bq_raid0 *r)
{
	void *mem[MAX_DEVS] = { NULL };
	uint64_t dev_sectors[MAX_DEVS], tagged = 0, bad = 0, expect[64];
	struct md_view v;
	enum bq_raid0_layout layout;

	read_view(_metadata, self, kib, &v);
	layout = v.layout == 1 || v.layout == 2 ? (enum bq_raid0_layout)v.layout : BQ_RAID0_UNSET;
	ASSERT_EQ(0, bq_raid0_init(r, v.data_sectors, v.offset, v.nr, v.chunk_sectors, layout));
	for (int m = 0; m < v.nr; m++) {
		/* md shows its rounded size in KiB, an odd sector dropped. */
		EXPECT_EQ(v.md_kib[m], r->members[m].sectors / 2) TH_LOG("slot %d", m);
	}
	ASSERT_EQ(v.size, bq_raid0_size(r));

	ASSERT_EQ(0, write_array(self->md, v.size, seed, per_chunk ? r : NULL));
	for (int m = 0; m < v.nr; m++) {
		mem[m] = read_device(self->dev[v.slot_dev[m]], &dev_sectors[m]);
		ASSERT_NE(NULL, mem[m]);
	}
	for (uint64_t s = 0; s < v.size; s++) {
		uint64_t ms;
		int m;

		ASSERT_EQ(0, bq_raid0_map(r, s, &m, &ms, NULL));
		ASSERT_LT(ms, dev_sectors[m]);
		fill_sector(expect, seed, s);
		if (memcmp((char *)mem[m] + ms * 512, expect, 512) && bad++ < 5) {
			uint64_t got[2];

			memcpy(got, (char *)mem[m] + ms * 512, sizeof(got));
			TH_LOG("array sector %llu: not at slot %d sector %llu (found %llx/%llu)",
			       (unsigned long long)s, m, (unsigned long long)ms,
			       (unsigned long long)got[0], (unsigned long long)got[1]);
		}
	}
	EXPECT_EQ(0, bad);
	/* And nowhere else: as many tagged sectors on the members as in the array. */
	for (int m = 0; m < v.nr; m++) {
		for (uint64_t k = 0; k < dev_sectors[m]; k++)
			tagged += ((uint64_t *)mem[m])[k * 64] == seed;
		free(mem[m]);
	}
	EXPECT_EQ(v.size, tagged);
}

/* Reads array sector @s straight off slot @slot's device at @sector. */
static bool sector_is_on(struct __test_metadata *_metadata, FIXTURE_DATA(raid) *self,
			 uint64_t seed, uint64_t s, int dev, uint64_t sector)
{
	uint64_t *buf, want[64];
	char path[64];
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", self->dev[dev]);
	if (posix_memalign((void **)&buf, 4096, 4096))
		return false;
	fd = open(path, O_RDONLY | O_DIRECT);
	ok = fd >= 0 && pread(fd, buf, 4096, (off_t)(sector / 8 * 4096)) == 4096;
	if (fd >= 0)
		close(fd);
	fill_sector(want, seed, s);
	ok = ok && !memcmp(buf + sector % 8 * 64, want, 512);
	free(buf);
	return ok;
}

/* ---- the issue's example, exactly --------------------------------------- */

/* 64, 40, 40, 40 and 100 sectors; data offsets all different. */
static const unsigned int issue_kib[] = { 32, 20, 20, 20, 50 };
static const unsigned int issue_offset[] = { 0, 8, 16, 24, 32 };
static const unsigned int one_mib[] = { 1, 1, 1, 1, 1 };

TEST_F(raid, issue_vector_original)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, one_mib, 5));
	ASSERT_EQ(0, create_sysfs(self, "md120", 4096, BQ_RAID0_ORIGINAL, issue_kib,
				  issue_offset));
	check_against_md(_metadata, self, issue_kib, 0x6271720000000001ull, false, &r);
	ASSERT_EQ(3, r.nr_zones);
	EXPECT_EQ(200, r.zones[0].end);
	EXPECT_EQ(248, r.zones[1].end);
	EXPECT_EQ(280, r.zones[2].end);
	/* Zone 1's first chunk: member 4, 40 sectors into its data (offset 32). */
	EXPECT_TRUE(sector_is_on(_metadata, self, 0x6271720000000001ull, 200, 4, 40 + 32));
	EXPECT_TRUE(sector_is_on(_metadata, self, 0x6271720000000001ull, 208, 0, 40));
}

TEST_F(raid, issue_vector_alternate)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, one_mib, 5));
	ASSERT_EQ(0, create_sysfs(self, "md121", 4096, BQ_RAID0_ALTERNATE, issue_kib,
				  issue_offset));
	check_against_md(_metadata, self, issue_kib, 0x6271720000000002ull, false, &r);
	EXPECT_EQ(280, bq_raid0_size(&r));
	/* Zone 1's first chunk: member 0, 40 sectors in (offset 0). */
	EXPECT_TRUE(sector_is_on(_metadata, self, 0x6271720000000002ull, 200, 0, 40));
	EXPECT_TRUE(sector_is_on(_metadata, self, 0x6271720000000002ull, 208, 4, 40 + 32));
}

/* ---- arrays mdadm makes ------------------------------------------------- */

static const unsigned int equal_mib[] = { 6, 6, 6, 6 };
/* Like the issue's example: three zones, two members in the second. */
static const unsigned int unequal_mib[] = { 6, 4, 4, 4, 8 };

TEST_F(raid, mdadm_equal_members)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, equal_mib, 4));
	ASSERT_EQ(0, create_mdadm(self, 64, NULL));
	check_against_md(_metadata, self, NULL, 0x6271720000000003ull, false, &r);
	EXPECT_EQ(1, r.nr_zones);
}

TEST_F(raid, mdadm_unequal_original)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, unequal_mib, 5));
	ASSERT_EQ(0, create_mdadm(self, 64, "original"));
	check_against_md(_metadata, self, NULL, 0x6271720000000004ull, false, &r);
	EXPECT_EQ(BQ_RAID0_ORIGINAL, r.layout);
	EXPECT_EQ(3, r.nr_zones);
	EXPECT_EQ(2, r.zones[1].nr_members);
}

TEST_F(raid, mdadm_unequal_alternate)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, unequal_mib, 5));
	ASSERT_EQ(0, create_mdadm(self, 64, "alternate"));
	check_against_md(_metadata, self, NULL, 0x6271720000000005ull, false, &r);
	EXPECT_EQ(BQ_RAID0_ALTERNATE, r.layout);
	EXPECT_EQ(3, r.nr_zones);
}

/* md takes any chunk that is a whole number of the members' blocks. */
TEST_F(raid, mdadm_12k_chunk_alternate)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, unequal_mib, 5));
	ASSERT_EQ(0, create_mdadm(self, 12, "alternate"));
	check_against_md(_metadata, self, NULL, 0x6271720000000006ull, false, &r);
	EXPECT_EQ(24, r.chunk_sectors);
}

/* A 5 KiB chunk: md's size falls short of its zones, and we say so too. */
TEST_F(raid, mdadm_5k_chunk_original)
{
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, unequal_mib, 5));
	ASSERT_EQ(0, create_mdadm(self, 5, "original"));
	check_against_md(_metadata, self, NULL, 0x6271720000000007ull, false, &r);
	EXPECT_LT(bq_raid0_size(&r), r.zones[r.nr_zones - 1].end);
}

/* ---- what only md's sysfs reaches ---------------------------------------- */

/*
 * Below 4 KiB md's placement holds only for I/O that crosses at most one
 * chunk boundary, so this writes chunk by chunk.  Linux 6.1 raises md's
 * I/O size limit (the chunk) to a page, and raid0 splits a bio once, at
 * its first chunk boundary, sending the rest to one member whole: with
 * larger writes the sectors past a second boundary land on the wrong
 * member.  mdadm does not make chunks this small.
 */
TEST_F(raid, chunk_of_three_sectors)
{
	static const unsigned int kib[] = { 20, 31, 40, 31 };
	static const unsigned int offset[] = { 0, 8, 16, 3 };
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, one_mib, 4));
	ASSERT_EQ(0, create_sysfs(self, "md122", 1536, BQ_RAID0_ALTERNATE, kib, offset));
	check_against_md(_metadata, self, kib, 0x6271720000000008ull, true, &r);
	EXPECT_LT(bq_raid0_size(&r), r.zones[r.nr_zones - 1].end);
}

TEST_F(raid, member_smaller_than_a_chunk)
{
	static const unsigned int kib[] = { 20, 2, 20, 32 };
	static const unsigned int offset[] = { 0, 0, 0, 0 };
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, one_mib, 4));
	/* md runs it: member 1 rounds to nothing and gets no data. */
	ASSERT_EQ(0, create_sysfs(self, "md123", 4096, BQ_RAID0_ORIGINAL, kib, offset));
	check_against_md(_metadata, self, kib, 0x6271720000000009ull, false, &r);
	EXPECT_EQ(0, r.members[1].sectors);
	EXPECT_EQ(144, bq_raid0_size(&r));
}

/* md refuses what bq_raid0_init() and bq_raid0_check_chunk() refuse. */
TEST_F(raid, refusals_agree)
{
	static const unsigned int kib[] = { 20, 32, 40 };
	static const unsigned int offset[] = { 0, 0, 0 };
	static const uint64_t sectors[] = { 40, 64, 80 };
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_members(self, one_mib, 3));
	/* Three zones, two members in the second: md needs a layout. */
	EXPECT_EQ(-EOPNOTSUPP, create_sysfs(self, "md124", 4096, 0, kib, offset));
	EXPECT_EQ(-EOPNOTSUPP, bq_raid0_init(&r, sectors, NULL, 3, 8, BQ_RAID0_UNSET));
	run_quiet("mdadm --stop /dev/md124");
	self->md[0] = 0;
}

TEST_F(raid, chunk_must_hold_whole_blocks)
{
	static const unsigned int kib[] = { 48, 48 };
	static const unsigned int offset[] = { 0, 0 };
	struct bq_raid0 r;

	NEED_GUEST();
	ASSERT_EQ(0, add_member(self, 1, 512));
	ASSERT_EQ(0, add_member(self, 1, 4096));
	/* 6 KiB over 4 KiB blocks: md says "not multiple of block size". */
	EXPECT_EQ(-EINVAL, create_sysfs(self, "md125", 6144, 0, kib, offset));
	EXPECT_EQ(-EINVAL, bq_raid0_check_chunk(12, 4096));
	run_quiet("mdadm --stop /dev/md125");
	self->md[0] = 0;
	/* 12 KiB is fine: no power of two needed. */
	EXPECT_EQ(0, bq_raid0_check_chunk(24, 4096));
	ASSERT_EQ(0, create_sysfs(self, "md126", 12288, 0, kib, offset));
	check_against_md(_metadata, self, kib, 0x627172000000000aull, false, &r);
	EXPECT_EQ(192, bq_raid0_size(&r));
}

TEST_HARNESS_MAIN
