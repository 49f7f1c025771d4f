/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scsi.h - private: the SCSI commands ioengine=sg sends, built byte by
 * byte as SBC-4 lays them out, and what the device answers
 */
#ifndef BLKQUAL_SCSI_H
#define BLKQUAL_SCSI_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual_run.h"

#define BQ_SCSI_CDB_MAX		16
#define BQ_SCSI_SENSE_MAX	64
/* fio's limit: from this LBA on, the 16-byte commands (READ(16), ...). */
#define BQ_SCSI_MAX_10B_LBA	0xffffffffull

/*
 * enum bq_sg_write_mode - fio's sg_write_mode: which command a write is
 * @BQ_SG_WRITE: WRITE(10)/(16), writefua sets FUA
 * @BQ_SG_WRITE_VERIFY: WRITE AND VERIFY(10)/(16), BYTCHK 00b
 * @BQ_SG_WRITE_SAME: WRITE SAME(10)/(16): one block sent, bs written
 * @BQ_SG_WRITE_SAME_NDOB: WRITE SAME(16) with NDOB: nothing sent
 * @BQ_SG_VERIFY_BYTCHK_00: VERIFY, medium check only, nothing sent
 * @BQ_SG_VERIFY_BYTCHK_01: VERIFY, the device compares the bs sent
 * @BQ_SG_VERIFY_BYTCHK_11: VERIFY, the device compares one block sent
 */
enum bq_sg_write_mode {
	BQ_SG_WRITE,
	BQ_SG_WRITE_VERIFY,
	BQ_SG_WRITE_SAME,
	BQ_SG_WRITE_SAME_NDOB,
	BQ_SG_VERIFY_BYTCHK_00,
	BQ_SG_VERIFY_BYTCHK_01,
	BQ_SG_VERIFY_BYTCHK_11,
};

/**
 * struct bq_scsi_rw - one read or write as a command
 * @cdb: the command descriptor block
 * @cdb_len: 10 or 16
 * @xfer: bytes moved with it (less than the I/O for WRITE SAME and VERIFY)
 */
struct bq_scsi_rw {
	uint8_t cdb[BQ_SCSI_CDB_MAX];
	uint8_t cdb_len;
	uint32_t xfer;
};

int bq_scsi_build_rw(struct bq_scsi_rw *c, bool write, uint64_t lba, uint32_t blocks,
		     uint32_t lbs, int mode, bool fua);
void bq_scsi_build_read_capacity(uint8_t *cdb, bool sixteen);
int bq_scsi_parse_capacity(const uint8_t *buf, bool sixteen, uint64_t *max_lba,
			   uint32_t *lbs);
uint32_t bq_scsi_sense(const uint8_t *sb, unsigned int len);
int bq_scsi_read_capacity(int fd, uint64_t *blocks, uint32_t *lbs);

#endif /* BLKQUAL_SCSI_H */
