// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobopt_nvme.c - fio's io_uring_cmd NVMe extras: write_mode (which NVMe
 * command a write is, or a mix of them), deac, and the multi-range trims
 * of num_range, and protection information: md_per_io_size, pi_act,
 * pi_chk, apptag and apptag_mask (issue 19)
 *
 * The commands are built in lib/engines/uring_cmd.c; the DSM trims are
 * issued in lib/io/trim.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engines/nvme_pi.h"
#include "jobopt.h"

static const struct {
	const char *name;
	uint8_t opcode;
} wmodes[] = {
	{ "write", BQ_NVME_OP_WRITE },
	{ "uncor", BQ_NVME_OP_WRITE_UNCOR },
	{ "zeroes", BQ_NVME_OP_WRITE_ZEROES },
	{ "verify", BQ_NVME_OP_VERIFY },
	{ "zone_append", BQ_NVME_OP_ZONE_APPEND },
};

/* One mode name of @len bytes: its opcode, or a negative errno with @err filled in. */
static int wmode_opcode(const char *key, const char *name, size_t len,
			struct bq_parse_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(wmodes); i++)
		if (strlen(wmodes[i].name) == len && !strncmp(name, wmodes[i].name, len))
			return wmodes[i].opcode;
	return bq_parse_fail(err, -EINVAL, "%s=%.*s: use write, uncor, zeroes, verify or "
			     "zone_append, or "
			     "a mix such as write/60:zeroes/40", key, (int)len, name);
}

/* "mode/pct:mode/:..." as fio reads it: blanks share what the others leave. */
static int parse_wmode_mix(const char *key, const char *val, struct bq_job *job,
			   struct bq_parse_error *err)
{
	struct bq_nvme_wmode m[ARRAY_SIZE(job->nvme_wmode)];
	bool blank[ARRAY_SIZE(job->nvme_wmode)];
	unsigned int n = 0, total = 0, nr_blank = 0, share, extra;
	const char *p = val;

	for (;;) {
		size_t len = strcspn(p, ":");
		const char *slash = memchr(p, '/', len);
		uint64_t pct;
		char num[16];
		int op;

		if (n == ARRAY_SIZE(m))
			return bq_parse_fail(err, -EINVAL, "%s=%s: at most %zu entries", key, val,
					     ARRAY_SIZE(m));
		if (!slash)
			return bq_parse_fail(err, -EINVAL, "%s=%s: entry '%.*s' has no '/'", key,
					     val, (int)len, p);
		op = wmode_opcode(key, p, (size_t)(slash - p), err);
		if (op < 0)
			return op;
		m[n].opcode = (uint8_t)op;
		blank[n] = slash + 1 == p + len;
		if (!blank[n]) {
			size_t nlen = (size_t)(p + len - slash - 1);

			if (nlen >= sizeof(num))
				return bq_parse_fail(err, -EINVAL, "%s=%s: bad percentage", key,
						     val);
			memcpy(num, slash + 1, nlen);
			num[nlen] = '\0';
			if (bq_parse_dec(num, &pct) || pct > 100)
				return bq_parse_fail(err, -EINVAL, "%s=%s: percentage '%s' is not "
						     "0 to 100", key, val, num);
			m[n].pct = (uint8_t)pct;
			total += (unsigned int)pct;
		} else {
			nr_blank++;
		}
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (n < 2)
		return bq_parse_fail(err, -EINVAL, "%s=%s: a mix needs at least 2 entries", key,
				     val);
	if (total > 100 || (!nr_blank && total != 100))
		return bq_parse_fail(err, -EINVAL, "%s=%s: percentages must add up to 100", key,
				     val);
	/* fio's even share truncates; the remainder goes to the first blanks, as bssplit's. */
	share = nr_blank ? (100 - total) / nr_blank : 0;
	extra = nr_blank ? (100 - total) % nr_blank : 0;
	for (unsigned int i = 0; i < n; i++) {
		if (!blank[i])
			continue;
		m[i].pct = (uint8_t)(share + (extra ? 1 : 0));
		if (extra)
			extra--;
	}
	memcpy(job->nvme_wmode, m, n * sizeof(m[0]));
	job->nvme_wmode_nr = (uint8_t)n;
	return 0;
}

/**
 * bq_job_set_write_mode() - write_mode=: the NVMe command each write is
 * @o: the option
 * @key: its name
 * @val: write, uncor, zeroes, verify or zone_append, or a mix "mode/pct:mode/pct..."
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, or -EINVAL for what fio refuses.
 */
int bq_job_set_write_mode(const struct job_opt *o, const char *key, const char *val,
			  struct bq_job *job, struct bq_parse_error *err)
{
	int op;

	if (strchr(val, ':'))
		return parse_wmode_mix(key, val, job, err);
	op = wmode_opcode(key, val, strlen(val), err);
	if (op < 0)
		return op;
	job->nvme_wmode_nr = op == BQ_NVME_OP_WRITE ? 0 : 1;
	job->nvme_wmode[0] = (struct bq_nvme_wmode){ .opcode = (uint8_t)op, .pct = 100 };
	return 0;
}

static const char *wmode_name(uint8_t opcode)
{
	for (size_t i = 0; i < ARRAY_SIZE(wmodes); i++)
		if (wmodes[i].opcode == opcode)
			return wmodes[i].name;
	return "?";
}

/**
 * bq_job_write_mode_str() - write_mode= as it would be written
 * @job: the job
 * @buf: receives the value
 * @len: size of @buf (64 bytes hold every value)
 */
void bq_job_write_mode_str(const struct bq_job *job, char *buf, size_t len)
{
	size_t at = 0;

	if (!job->nvme_wmode_nr) {
		snprintf(buf, len, "write");
		return;
	}
	if (job->nvme_wmode_nr == 1) {
		snprintf(buf, len, "%s", wmode_name(job->nvme_wmode[0].opcode));
		return;
	}
	buf[0] = '\0';
	for (unsigned int i = 0; i < job->nvme_wmode_nr && at < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s/%u", i ? ":" : "",
				 wmode_name(job->nvme_wmode[i].opcode), job->nvme_wmode[i].pct);

		if (n < 0)
			break;
		at += (size_t)n;
	}
}

/**
 * bq_job_set_pi_chk() - pi_chk=: which PI fields the device checks
 * @o: the option
 * @key: its name
 * @val: GUARD, REFTAG, APPTAG, comma-separated
 * @job: the job
 * @err: filled in on failure
 *
 * fio looks for the words anywhere in the value; here the value must be
 * made of them, so a typo is an error and not a silently unchecked field.
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_set_pi_chk(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	uint32_t bits;

	if (bq_nvme_pi_chk_parse(val, &bits))
		return bq_parse_fail(err, -EINVAL, "%s=%s: use GUARD, REFTAG and APPTAG, "
				     "comma-separated", key, val);
	job->nvme_prchk = bits;
	return 0;
}

/**
 * bq_job_set_apptag() - apptag= and apptag_mask=: 16-bit numbers, decimal
 * or 0x hexadecimal
 * @o: the option
 * @key: apptag or apptag_mask
 * @val: the number
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0 or -EINVAL.
 */
int bq_job_set_apptag(const struct job_opt *o, const char *key, const char *val,
		      struct bq_job *job, struct bq_parse_error *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(val, &end, 0);
	if (errno || end == val || *end || v > 0xffff || val[0] == '-')
		return bq_parse_fail(err, -EINVAL, "%s=%s: not a 16-bit number (0 to 0xffff)",
				     key, val);
	if (!strcmp(key, "apptag"))
		job->nvme_apptag = (uint16_t)v;
	else
		job->nvme_apptag_mask = (uint16_t)v;
	return 0;
}

/* Any PI option away from fio's default. */
static bool pi_opts_set(const struct bq_job *job)
{
	return job->nvme_md_per_io || !job->nvme_pi_act || job->nvme_prchk ||
	       job->nvme_apptag != 0x1234 || job->nvme_apptag_mask != 0xffff;
}

static bool job_writes(const struct bq_job *job)
{
	if (job->trim == BQ_TRIM_ONLY)
		return false;
	return job->rw != BQ_RW_READ && job->rw != BQ_RW_RANDREAD;
}

/* Whether any of the job's write_mode entries is NVMe command @op. */
static bool wmode_has(const struct bq_job *job, int op)
{
	for (unsigned int i = 0; i < job->nvme_wmode_nr; i++)
		if (job->nvme_wmode[i].opcode == op)
			return true;
	return false;
}

/**
 * bq_job_check_nvme() - fio's rules for write_mode, deac and num_range
 * @job: the job
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL where fio refuses the job, -EOPNOTSUPP for what
 * blkqual does not do.
 */
int bq_job_check_nvme(const struct bq_job *job, struct bq_parse_error *err)
{
	bool cmd = job->engine == BQ_ENGINE_URING_CMD;
	char mode[64];

	/* Options of fio's io_uring_cmd engine: any other engine does not know them. */
	if ((job->nvme_wmode_nr || job->nvme_deac) && !cmd)
		return bq_parse_fail(err, -EINVAL, "%s needs ioengine=io_uring_cmd",
				     job->nvme_wmode_nr ? "write_mode" : "deac");
	/* fio's io_uring engine passes them as integrity attributes (Linux 6.15): not here. */
	if (pi_opts_set(job) && !cmd)
		return bq_parse_fail(err, -EINVAL, "md_per_io_size, pi_act, pi_chk, apptag and "
				     "apptag_mask need ioengine=io_uring_cmd");
	if (job->nvme_wmode_nr) {
		bq_job_write_mode_str(job, mode, sizeof(mode));
		if (!job_writes(job))
			return bq_parse_fail(err, -EINVAL, "write_mode=%s: rw= has no writes",
					     mode);
		/* fio: a Zone Append goes to a zone's start, which only zonemode=zbd knows. */
		if (wmode_has(job, BQ_NVME_OP_ZONE_APPEND) && job->zonemode != BQ_ZONEMODE_ZBD)
			return bq_parse_fail(err, -EINVAL, "write_mode=%s: zone_append needs "
					     "zonemode=zbd", mode);
		/* What a Write Zeroes, Uncorrectable or Verify leaves cannot be verified. */
		if (job->verify && (wmode_has(job, BQ_NVME_OP_WRITE_ZEROES) ||
				    wmode_has(job, BQ_NVME_OP_WRITE_UNCOR) ||
				    wmode_has(job, BQ_NVME_OP_VERIFY)))
			return bq_parse_fail(err, -EOPNOTSUPP, "write_mode=%s with verify= is not "
					     "supported", mode);
	}
	if (job->num_range > 1 && job->trim != BQ_TRIM_NONE) {
		if (job->trim == BQ_TRIM_WRITE)
			return bq_parse_fail(err, -EINVAL, "num_range=%u: trimwrite cannot "
					     "trim several ranges at once", job->num_range);
		if (!cmd)
			return bq_parse_fail(err, -EINVAL, "num_range=%u: ioengine=%s cannot "
					     "trim several ranges at once (io_uring_cmd can)",
					     job->num_range, bq_engine_name(job->engine));
		/* One command's ranges are on one namespace; picks may change files. */
		if (job->nr_files > 1)
			return bq_parse_fail(err, -EOPNOTSUPP, "num_range=%u with several files is "
					     "not supported", job->num_range);
	}
	return 0;
}
