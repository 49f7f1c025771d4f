// SPDX-License-Identifier: GPL-2.0-only
/*
 * scsi.c - the SCSI commands of ioengine=sg, laid out as SBC-4 says
 *
 * Kept apart from the engine so that the tests can check every byte of
 * every command without a SCSI device.  The choice of command follows
 * fio's sg engine: the 10-byte form while the starting LBA is below
 * 0xffffffff, the 16-byte form from there on; WRITE SAME with NDOB has
 * only a 16-byte form.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>

#include "io/scsi.h"

#define OP_READ_10		0x28
#define OP_READ_16		0x88
#define OP_WRITE_10		0x2a
#define OP_WRITE_16		0x8a
#define OP_WRITE_VERIFY_10	0x2e
#define OP_WRITE_VERIFY_16	0x8e
#define OP_VERIFY_10		0x2f
#define OP_VERIFY_16		0x8f
#define OP_WRITE_SAME_10	0x41
#define OP_WRITE_SAME_16	0x93
#define OP_READ_CAPACITY_10	0x25
#define OP_SERVICE_ACTION_IN_16	0x9e
#define SA_READ_CAPACITY_16	0x10

/* Byte 1 of the read, write and verify commands. */
#define CDB1_FUA		0x08
#define CDB1_BYTCHK_01		0x02
#define CDB1_BYTCHK_11		0x06
#define CDB1_NDOB		0x01

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/**
 * bq_scsi_build_rw() - the command for one read or write of ioengine=sg
 * @c: receives the command and how many bytes go with it
 * @write: a write (then @mode says which command), else READ
 * @lba: first logical block
 * @blocks: number of logical blocks
 * @lbs: logical block size in bytes
 * @mode: enum bq_sg_write_mode, for writes
 * @fua: readfua or writefua (for WRITE only, as in fio: the other write
 *       modes have no FUA bit or ignore it)
 *
 * Return: 0, or -ERANGE when @blocks does not fit the command's transfer
 * length (16 bits in the 10-byte forms, 32 in the 16-byte ones).
 */
int bq_scsi_build_rw(struct bq_scsi_rw *c, bool write, uint64_t lba, uint32_t blocks,
		     uint32_t lbs, int mode, bool fua)
{
	bool sixteen = lba >= BQ_SCSI_MAX_10B_LBA;
	uint8_t op10, op16, flags = 0;

	memset(c, 0, sizeof(*c));
	c->xfer = blocks * lbs;
	if (!write) {
		op10 = OP_READ_10;
		op16 = OP_READ_16;
		flags = fua ? CDB1_FUA : 0;
	} else {
		switch (mode) {
		case BQ_SG_WRITE:
			op10 = OP_WRITE_10;
			op16 = OP_WRITE_16;
			flags = fua ? CDB1_FUA : 0;
			break;
		case BQ_SG_WRITE_VERIFY:
			op10 = OP_WRITE_VERIFY_10;
			op16 = OP_WRITE_VERIFY_16;
			break;
		case BQ_SG_WRITE_SAME:
			op10 = OP_WRITE_SAME_10;
			op16 = OP_WRITE_SAME_16;
			c->xfer = lbs;
			break;
		case BQ_SG_WRITE_SAME_NDOB:
			op10 = op16 = OP_WRITE_SAME_16;
			sixteen = true;
			flags = CDB1_NDOB;
			c->xfer = 0;
			break;
		case BQ_SG_VERIFY_BYTCHK_00:
			op10 = OP_VERIFY_10;
			op16 = OP_VERIFY_16;
			c->xfer = 0;
			break;
		case BQ_SG_VERIFY_BYTCHK_01:
			op10 = OP_VERIFY_10;
			op16 = OP_VERIFY_16;
			flags = CDB1_BYTCHK_01;
			break;
		case BQ_SG_VERIFY_BYTCHK_11:
			op10 = OP_VERIFY_10;
			op16 = OP_VERIFY_16;
			flags = CDB1_BYTCHK_11;
			c->xfer = lbs;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!sixteen && blocks > UINT16_MAX)
		return -ERANGE;
	c->cdb[1] = flags;
	if (sixteen) {
		c->cdb_len = 16;
		c->cdb[0] = op16;
		put_be64(&c->cdb[2], lba);
		put_be32(&c->cdb[10], blocks);
	} else {
		c->cdb_len = 10;
		c->cdb[0] = op10;
		put_be32(&c->cdb[2], (uint32_t)lba);
		put_be16(&c->cdb[7], (uint16_t)blocks);
	}
	return 0;
}

/**
 * bq_scsi_build_read_capacity() - READ CAPACITY(10), or (16)
 * @cdb: receives the command: 10 bytes, or 16 with @sixteen
 * @sixteen: the 16-byte form, asking for a 32-byte answer
 */
void bq_scsi_build_read_capacity(uint8_t *cdb, bool sixteen)
{
	memset(cdb, 0, sixteen ? 16 : 10);
	if (!sixteen) {
		cdb[0] = OP_READ_CAPACITY_10;
		return;
	}
	cdb[0] = OP_SERVICE_ACTION_IN_16;
	cdb[1] = SA_READ_CAPACITY_16;
	put_be32(&cdb[10], 32);
}

/**
 * bq_scsi_parse_capacity() - the answer to READ CAPACITY
 * @buf: 8 bytes for (10), 12 or more for (16)
 * @sixteen: which one was asked
 * @max_lba: receives the last LBA; 0xffffffff from (10) means "ask (16)"
 * @lbs: receives the logical block size
 *
 * Return: 0, or -EINVAL for a block size no I/O can use.
 */
int bq_scsi_parse_capacity(const uint8_t *buf, bool sixteen, uint64_t *max_lba,
			   uint32_t *lbs)
{
	*max_lba = get_be(buf, sixteen ? 8 : 4);
	*lbs = (uint32_t)get_be(buf + (sixteen ? 8 : 4), 4);
	return *lbs && !(*lbs & (*lbs - 1)) ? 0 : -EINVAL;
}

/**
 * bq_scsi_sense() - sense key, ASC and ASCQ of fixed or descriptor sense
 * @sb: the sense buffer
 * @len: bytes of it the device returned
 *
 * Return: BQ_SENSE_VALID | key << 16 | asc << 8 | ascq, or 0 when @sb
 * holds no sense this understands.
 */
uint32_t bq_scsi_sense(const uint8_t *sb, unsigned int len)
{
	unsigned int code = len ? sb[0] & 0x7f : 0;

	if ((code == 0x70 || code == 0x71) && len >= 14)
		return BQ_SENSE_VALID | (sb[2] & 0xfu) << 16 | (uint32_t)sb[12] << 8 | sb[13];
	if ((code == 0x72 || code == 0x73) && len >= 4)
		return BQ_SENSE_VALID | (sb[1] & 0xfu) << 16 | (uint32_t)sb[2] << 8 | sb[3];
	return 0;
}

static int sg_io(int fd, const uint8_t *cdb, int cdb_len, uint8_t *buf, unsigned int len)
{
	uint8_t sense[BQ_SCSI_SENSE_MAX];
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = SG_DXFER_FROM_DEV,
		.cmd_len = (unsigned char)cdb_len,
		.mx_sb_len = sizeof(sense),
		.dxfer_len = len,
		.dxferp = buf,
		.cmdp = (unsigned char *)cdb,
		.sbp = sense,
		.timeout = 30000,
	};

	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	return (h.info & SG_INFO_OK_MASK) == SG_INFO_OK ? 0 : -EIO;
}

/**
 * bq_scsi_read_capacity() - a SCSI device's size, asked with SG_IO
 * @fd: /dev/sgN or a SCSI disk's block device
 * @blocks: receives the number of logical blocks
 * @lbs: receives the logical block size
 *
 * READ CAPACITY(10) first, (16) when the device has 2^32 blocks or more,
 * as fio does.
 *
 * Return: 0 or -errno (-EIO: the device answered with an error).
 */
int bq_scsi_read_capacity(int fd, uint64_t *blocks, uint32_t *lbs)
{
	uint8_t cdb[16], buf[32];
	uint64_t max_lba;
	int ret;

	bq_scsi_build_read_capacity(cdb, false);
	memset(buf, 0, sizeof(buf));
	ret = sg_io(fd, cdb, 10, buf, 8) ?: bq_scsi_parse_capacity(buf, false, &max_lba, lbs);
	if (ret)
		return ret;
	if (max_lba == BQ_SCSI_MAX_10B_LBA) {
		bq_scsi_build_read_capacity(cdb, true);
		memset(buf, 0, sizeof(buf));
		ret = sg_io(fd, cdb, 16, buf, 32) ?:
		      bq_scsi_parse_capacity(buf, true, &max_lba, lbs);
		if (ret)
			return ret;
	}
	if (max_lba == UINT64_MAX)
		return -EOVERFLOW;
	*blocks = max_lba + 1;
	return 0;
}
