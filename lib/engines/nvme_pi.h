/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvme_pi.h - NVMe end-to-end protection information and metadata for
 * ioengine=io_uring_cmd (fio's md_per_io_size, pi_act, pi_chk, apptag,
 * apptag_mask)
 */
#ifndef BLKQUAL_NVME_PI_H
#define BLKQUAL_NVME_PI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvme_uring_cmd;

/* Command dword 12's PRINFO field of Read, Write and the other I/O commands. */
#define BQ_NVME_PRCHK_REF (1u << 26)
#define BQ_NVME_PRCHK_APP (1u << 27)
#define BQ_NVME_PRCHK_GUARD (1u << 28)
#define BQ_NVME_PRACT (1u << 29)
#define BQ_NVME_PRCHK_ALL (BQ_NVME_PRCHK_REF | BQ_NVME_PRCHK_APP | BQ_NVME_PRCHK_GUARD)

/* What bq_nvme_pi_verify() found wrong. */
enum bq_nvme_pi_field {
	BQ_PI_GUARD = 1,
	BQ_PI_APPTAG,
	BQ_PI_REFTAG,
};

/**
 * struct bq_nvme_pi - how one namespace's blocks carry metadata, and what
 * a job asks of its protection information
 * @lba_size: data bytes per logical block
 * @ms: metadata bytes per block moved with each command; 0: none (no
 *      metadata, or PRACT with metadata that is only the PI, which the
 *      controller inserts and strips)
 * @ext: the metadata follows each block's data in the data buffer
 *       (extended LBA); else it goes in a separate buffer
 * @type: protection type, 0 (none) to 3
 * @pi_size: 8 (16-bit guard) or 16 (64-bit guard, 48-bit reference tag)
 * @first: the PI is the first bytes of the metadata, else the last
 * @prinfo: command dword 12 bits: BQ_NVME_PRACT and BQ_NVME_PRCHK_*
 * @apptag: expected application tag (command dword 15, low half)
 * @apptag_mask: which of its bits are checked (dword 15, high half)
 */
struct bq_nvme_pi {
	uint32_t lba_size;
	uint16_t ms;
	bool ext;
	uint8_t type;
	uint8_t pi_size;
	bool first;
	uint32_t prinfo;
	uint16_t apptag;
	uint16_t apptag_mask;
};

/**
 * bq_crc16_t10dif() - the 16-bit guard: CRC-16/T10-DIF
 * @crc: 0 to start, or the CRC so far
 * @buf: bytes
 * @len: how many
 *
 * Polynomial 0x8bb7, MSB first, from 0, no final inversion; not fio's
 * verify=crc16 (CRC-16/ARC).  bq_crc16_t10dif(0, "123456789", 9) is 0xd0db.
 *
 * Return: the CRC.
 */
uint16_t bq_crc16_t10dif(uint16_t crc, const void *buf, size_t len);

/**
 * bq_crc64_nvme() - the 64-bit guard: CRC-64/NVME
 * @crc: 0 to start, or the CRC so far
 * @buf: bytes
 * @len: how many
 *
 * Polynomial 0xad93d23594c93659 reflected, from all ones, inverted at the
 * end (the inversion is undone on entry, so CRCs chain from 0).
 * bq_crc64_nvme(0, "123456789", 9) is 0xae8b14860a799888.
 *
 * Return: the CRC.
 */
uint64_t bq_crc64_nvme(uint64_t crc, const void *buf, size_t len);

/**
 * bq_nvme_pi_offset() - where the PI sits in a block's metadata unit
 * @pi: the format
 *
 * Return: its byte offset from the start of the block's data (extended
 * LBA) or of the block's metadata (separate buffer); the guard covers
 * everything before it (and, for a separate buffer, the block's data).
 */
uint32_t bq_nvme_pi_offset(const struct bq_nvme_pi *pi);

/**
 * bq_nvme_pi_generate() - PI for a write the host protects (PRACT clear)
 * @pi: the format and checks
 * @buf: the data, @nlb blocks (each followed by its metadata when @pi->ext)
 * @md: the separate metadata, @nlb times @pi->ms bytes; unused when @pi->ext
 * @slba: the first block
 * @nlb: how many blocks
 *
 * As fio does, only the fields whose check is asked for are written: the
 * guard with PRCHK guard, the application tag with PRCHK apptag, the
 * reference tag (the block's LBA, types 1 and 2) with PRCHK reftag.
 */
void bq_nvme_pi_generate(const struct bq_nvme_pi *pi, void *buf, void *md, uint64_t slba,
			 uint32_t nlb);

/**
 * bq_nvme_pi_verify() - check the PI a read returned (PRACT clear)
 * @pi: the format and checks
 * @buf: the data, as for bq_nvme_pi_generate()
 * @md: the separate metadata
 * @slba: the first block
 * @nlb: how many blocks
 * @bad: receives the index of the first bad block
 *
 * Blocks whose application tag is FFFFh (and, type 3, reference tag all
 * ones) are not checked, as the device does not check them either.
 *
 * Return: 0, or the enum bq_nvme_pi_field that is wrong first.
 */
int bq_nvme_pi_verify(const struct bq_nvme_pi *pi, const void *buf, const void *md,
		      uint64_t slba, uint32_t nlb, uint32_t *bad);

/**
 * bq_nvme_pi_cmd() - add the PI and metadata fields to an I/O command
 * @pi: the format and checks
 * @cmd: a command bq_nvme_io_cmd() built
 * @slba: its first block
 * @nlb: its block count
 * @md: the separate metadata buffer, or NULL for a command that moves no data
 *
 * Sets PRINFO, the initial reference tag (types 1 and 2, with PRCHK
 * reftag), the application tag and mask (with PRCHK apptag), and the
 * metadata address and length, as fio does.
 */
void bq_nvme_pi_cmd(const struct bq_nvme_pi *pi, struct nvme_uring_cmd *cmd, uint64_t slba,
		    uint32_t nlb, void *md);

/**
 * bq_nvme_pi_chk_parse() - fio's pi_chk= value
 * @val: GUARD, REFTAG and APPTAG, comma-separated, in any case
 * @prchk: receives the BQ_NVME_PRCHK_* bits
 *
 * Return: 0 or -EINVAL for another word.
 */
int bq_nvme_pi_chk_parse(const char *val, uint32_t *prchk);

#endif /* BLKQUAL_NVME_PI_H */
