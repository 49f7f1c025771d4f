// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_nvme_pi_test.c - NVMe protection information through io_uring_cmd
 * on QEMU's emulated NVMe (VM guest): fio's uring-cmd-pi examples, the
 * controller's own checks of the PI blkqual writes, blkqual's check of
 * the PI the controller writes, and the errors of bad PI.
 *
 * The controller (serial BQNVMEPI, selftests/vm/vm.sh) has four
 * namespaces formatted with metadata: 1 extended LBA 4096+64 type 1,
 * 2 separate 4096+64 type 1, 3 extended 512+8 type 3 PI first,
 * 4 separate 4096+16 type 1 with a 64-bit guard.  QEMU checks the guard,
 * application and reference tags of every write and read that asks it
 * to (PRCHK), so a write blkqual protected (pi_act=0) that succeeds had a
 * right CRC; a read with pi_act=0 is checked again by blkqual, so a
 * success after the controller generated the PI (pi_act=1) means the
 * two CRCs agree.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/json.h"
#include "helpers/loopdev.h"
#include "helpers/nvme_ns.h"
#include "helpers/run.h"

#define SERIAL "BQNVMEPI"

#define NEED_NS(nsid, ng, blk) do { \
	if (nvme_ns_by_serial(SERIAL, nsid, ng, blk, sizeof(ng)) && \
	    (nvme_ns_attach_by_serial(SERIAL, nsid) || \
	     nvme_ns_by_serial(SERIAL, nsid, ng, blk, sizeof(ng)))) \
		SKIP(return, "no namespace %u on NVMe controller " SERIAL \
		     " (not in the blkqual VM, or no NVMe generic devices)", nsid); \
} while (0)

static json_object *job_n(json_object *root, int n)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), n);
}

/* blkqual run @argv (NULL-terminated, after "run"); JSON on stdout. */
static json_object *run_json(struct __test_metadata *_metadata, struct run_result *r,
			     const char *const *args, int want_status)
{
	const char *argv[40] = { NULL, "run", "--no-status", "-o", "json" };
	json_object *root;
	int n = 5;

	argv[0] = blkqual_path();
	while (*args && n < 39)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (run_argv(argv, r))
		return NULL;
	EXPECT_EQ(want_status, r->status) TH_LOG("%s", r->err);
	root = json_tokener_parse(r->out);
	if (!root)
		TH_LOG("no JSON: %s", r->err);
	return root;
}

/* One option, "--key=value", in a buffer of the caller's. */
#define OPTF(buf, ...) (snprintf(buf, sizeof(buf), __VA_ARGS__), buf)

/*
 * fio's examples/uring-cmd-pi-ext.fio and uring-cmd-pi-sb.fio, as they
 * are but for the device and size=: write with PI blkqual generates, then
 * read it with every check on, by the controller and by blkqual.  QEMU's
 * emulation moves some 10 MB/s here, so the examples' 1G (about seven
 * minutes for the two) is EXAMPLE_SIZE; the count is what fio's is, in
 * whole blocks.
 */
#ifndef EXAMPLE_SIZE
#define EXAMPLE_SIZE "64M"
#define EXAMPLE_BYTES (64ull << 20)
#define EXAMPLE_TIMEOUT 120
#endif
static const char example_body[] =
	"ioengine=io_uring_cmd\n"
	"cmd_type=nvme\n"
	"size=" EXAMPLE_SIZE "\n"
	"iodepth=32\n"
	"%s"
	"pi_act=0\n"
	"pi_chk=GUARD,APPTAG,REFTAG\n"
	"apptag=0x0888\n"
	"apptag_mask=0xFFFF\n"
	"thread=1\n"
	"stonewall=1\n"
	"\n[write]\nrw=write\n\n[read]\nrw=read\n";

static void run_example(struct __test_metadata *_metadata, const char *ng, const char *bs_lines,
			uint64_t bs)
{
	char path[] = "/tmp/pi-example-XXXXXX", body[1024];
	const char *args[] = { path, NULL };
	struct run_result r;
	json_object *root;
	/*
	 * fio (3.42, tools/compat/fio-examples.sh --vm): whole blocks, the
	 * last one starting inside size= and ending past it, as the
	 * namespace has room; each direction moves that once.
	 */
	uint64_t ios = (EXAMPLE_BYTES + bs - 1) / bs;
	time_t t0;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	snprintf(body, sizeof(body), example_body, bs_lines);
	fprintf(f, "[global]\nfilename=%s\n%s", ng, body);
	fclose(f);
	t0 = time(NULL);
	root = run_json(_metadata, &r, args, 0);
	TH_LOG("%s: %lld s", ng, (long long)(time(NULL) - t0));
	unlink(path);
	ASSERT_NE(NULL, root);
	EXPECT_EQ((int64_t)ios, json_int(job_n(root, 0), "total.write.ios", -1));
	EXPECT_EQ((int64_t)(ios * bs), json_int(job_n(root, 0), "total.write.bytes", -1));
	EXPECT_EQ(0, json_int(job_n(root, 0), "total.write.errors", -1));
	EXPECT_EQ((int64_t)ios, json_int(job_n(root, 1), "total.read.ios", -1));
	EXPECT_EQ((int64_t)(ios * bs), json_int(job_n(root, 1), "total.read.bytes", -1));
	EXPECT_EQ(0, json_int(job_n(root, 1), "total.read.errors", -1));
	json_object_put(root);
	run_result_free(&r);
}

/* I/O through QEMU's emulation: more than the harness's 30 seconds. */
FIXTURE(example) {};
FIXTURE_SETUP(example) {}
FIXTURE_TEARDOWN(example) {}

TEST_F_TIMEOUT(example, fio_pi_ext, EXAMPLE_TIMEOUT)
{
	char ng[64], blk[64];

	NEED_NS(1, ng, blk);
	run_example(_metadata, ng, "bs=4160\n", 4160);
}

TEST_F_TIMEOUT(example, fio_pi_sb, EXAMPLE_TIMEOUT)
{
	char ng[64], blk[64];

	NEED_NS(2, ng, blk);
	run_example(_metadata, ng, "bs=4096\nmd_per_io_size=64\n", 4096);
}

/*
 * One job: @rw of @size at @offset with @extra options; its counts in
 * *ios and *errors, the run's stderr in @err (may be NULL).
 */
static void pi_job(struct __test_metadata *_metadata, const char *ng, const char *rw,
		   const char *bs, const char *size, const char *offset,
		   const char *const *extra, int want_status, int64_t *ios, int64_t *errors,
		   char **err)
{
	char o_file[96], o_rw[32], o_bs[32], o_size[32], o_off[32];
	const char *args[32] = { "--name=pi", "--ioengine=io_uring_cmd", "--cmd_type=nvme",
				 OPTF(o_file, "--filename=%s", ng), OPTF(o_rw, "--rw=%s", rw),
				 OPTF(o_bs, "--bs=%s", bs), OPTF(o_size, "--size=%s", size),
				 OPTF(o_off, "--offset=%s", offset), "--iodepth=4" };
	const char *dir = strstr(rw, "read") ? "read" : "write";
	struct run_result r;
	json_object *root;
	char key[64];
	int n = 9;

	while (extra && *extra)
		args[n++] = *extra++;
	args[n] = NULL;
	root = run_json(_metadata, &r, args, want_status);
	ASSERT_NE(NULL, root);
	snprintf(key, sizeof(key), "total.%s.ios", dir);
	*ios = json_int(job_n(root, 0), key, -1);
	snprintf(key, sizeof(key), "total.%s.errors", dir);
	*errors = json_int(job_n(root, 0), key, -1);
	json_object_put(root);
	if (err)
		*err = strdup(r.err);
	run_result_free(&r);
}

/*
 * A block written with PI that is no PI (pi_act=0 and no pi_chk: blkqual
 * generates nothing, the controller checks nothing, the pattern's bytes
 * are the tuple) fails a read that checks the guard, at its own offset,
 * with the controller's "guard check error"; the blocks around it pass.
 */
TEST(bad_guard_fails_at_its_offset)
{
	static const char *const good[] = { "--pi_act=0", "--pi_chk=GUARD,REFTAG,APPTAG", NULL };
	static const char *const raw[] = { "--pi_act=0", "--buffer_pattern=0x5a", NULL };
	static const char *const chk[] = { "--pi_act=0", "--pi_chk=GUARD", NULL };
	char ng[64], blk[64], off[32], want[96], *err = NULL;
	int64_t ios, errors;

	NEED_NS(1, ng, blk);
	pi_job(_metadata, ng, "write", "4160", "33280", "0", good, 0, &ios, &errors, NULL);
	EXPECT_EQ(8, ios);
	EXPECT_EQ(0, errors);
	snprintf(off, sizeof(off), "%u", 5 * 4160);
	pi_job(_metadata, ng, "write", "4160", "4160", off, raw, 0, &ios, &errors, NULL);
	EXPECT_EQ(1, ios);
	EXPECT_EQ(0, errors);
	/* The job stops at its error, as fio's does; what completed before it passed. */
	pi_job(_metadata, ng, "read", "4160", "33280", "0", chk, 1, &ios, &errors, &err);
	EXPECT_EQ(1, errors);
	EXPECT_GE(7, ios);
	ASSERT_NE(NULL, err);
	snprintf(want, sizeof(want), "at offset %u", 5 * 4160);
	EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "NVMe status 0x282 (end-to-end guard check error)"))
		TH_LOG("%s", err);
	free(err);
}

/* The application tag blkqual wrote, checked against another one. */
TEST(wrong_apptag_fails)
{
	static const char *const w[] = { "--pi_act=0", "--pi_chk=GUARD,REFTAG,APPTAG",
					 "--apptag=0x0888", "--md_per_io_size=128", NULL };
	static const char *const rd[] = { "--pi_act=0", "--pi_chk=APPTAG", "--apptag=0x0999",
					  "--md_per_io_size=128", "--continue_on_error=read",
					  NULL };
	static const char *const masked[] = { "--pi_act=0", "--pi_chk=APPTAG", "--apptag=0x0999",
					      "--apptag_mask=0xfeee", "--md_per_io_size=128",
					      NULL };
	char ng[64], blk[64], *err = NULL;
	int64_t ios, errors;

	NEED_NS(2, ng, blk);
	pi_job(_metadata, ng, "write", "8k", "64k", "0", w, 0, &ios, &errors, NULL);
	EXPECT_EQ(8, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "read", "8k", "64k", "0", rd, 1, &ios, &errors, &err);
	EXPECT_EQ(0, ios);
	EXPECT_EQ(8, errors);
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "NVMe status 0x283")) TH_LOG("%s", err);
	free(err);
	/* 0x0888 and 0x0999 differ only in the bits the mask leaves out. */
	pi_job(_metadata, ng, "read", "8k", "64k", "0", masked, 0, &ios, &errors, NULL);
	EXPECT_EQ(8, ios);
	EXPECT_EQ(0, errors);
}

/* md_per_io_size too small for the largest block: refused, as fio does. */
TEST(separate_metadata_needs_md_per_io_size)
{
	char ng[64], blk[64], fopt[96];
	const char *argv[] = { NULL, "run", "--no-status", "--name=pi", "--ioengine=io_uring_cmd",
			       fopt, "--rw=read", "--bs=8k", "--size=64k", "--md_per_io_size=64",
			       NULL };
	struct run_result r;

	NEED_NS(2, ng, blk);
	argv[0] = blkqual_path();
	snprintf(fopt, sizeof(fopt), "--filename=%s", ng);
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "md_per_io_size should be at least 128")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

/*
 * pi_act=1: the controller generates the PI (here into the separate
 * metadata, whose other bytes blkqual sends); a read with pi_act=0 has
 * the controller and blkqual check it.
 */
static void controller_generates(struct __test_metadata *_metadata, unsigned int nsid,
				 const char *md)
{
	const char *w[] = { "--pi_act=1", "--pi_chk=GUARD,REFTAG,APPTAG", "--apptag=0x4242",
			    md, NULL };
	const char *rd[] = { "--pi_act=0", "--pi_chk=GUARD,REFTAG,APPTAG", "--apptag=0x4242",
			     md, NULL };
	char ng[64], blk[64];
	int64_t ios, errors;

	if (nvme_ns_by_serial(SERIAL, nsid, ng, blk, sizeof(ng)) &&
	    (nvme_ns_attach_by_serial(SERIAL, nsid) || nvme_ns_by_serial(SERIAL, nsid, ng, blk, sizeof(ng))))
		SKIP(return, "no namespace %u on NVMe controller " SERIAL, nsid);
	pi_job(_metadata, ng, "randwrite", "16k", "1m", "4m", w, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "read", "16k", "1m", "4m", rd, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
}

TEST(controller_pi_checked_by_host_crc16)
{
	controller_generates(_metadata, 2, "--md_per_io_size=256");
}

TEST(controller_pi_checked_by_host_crc64)
{
	controller_generates(_metadata, 4, "--md_per_io_size=64");
}

/* The 64-bit guard and 48-bit reference tag blkqual writes pass the controller's checks. */
TEST(host_pi_crc64_passes_the_controller)
{
	static const char *const o[] = { "--pi_act=0", "--pi_chk=GUARD,REFTAG,APPTAG",
					 "--md_per_io_size=64", NULL };
	char ng[64], blk[64];
	int64_t ios, errors;

	NEED_NS(4, ng, blk);
	pi_job(_metadata, ng, "randwrite", "16k", "1m", "0", o, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "randread", "16k", "1m", "0", o, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
}

/*
 * Type 3, PI first, metadata only the PI: with pi_act=1 the commands
 * carry data only (4k blocks); with pi_act=0 each 512-byte block carries
 * its 8 bytes (520-byte blocks).
 */
TEST(type3_pi_first_both_ways)
{
	static const char *const act[] = { "--pi_act=1", "--pi_chk=GUARD,APPTAG", NULL };
	static const char *const host[] = { "--pi_act=0", "--pi_chk=GUARD,APPTAG", NULL };
	char ng[64], blk[64];
	int64_t ios, errors;

	NEED_NS(3, ng, blk);
	pi_job(_metadata, ng, "write", "4k", "256k", "0", act, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "read", "4160", "266240", "0", host, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "randwrite", "4160", "266240", "0", host, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
	pi_job(_metadata, ng, "randread", "4k", "256k", "0", act, 0, &ios, &errors, NULL);
	EXPECT_EQ(64, ios);
	EXPECT_EQ(0, errors);
}

/* A namespace with PI is guarded like any other: a file system on it refuses writes. */
TEST(pi_namespace_with_data_is_refused)
{
	static const char *const o[] = { "--md_per_io_size=64", NULL };
	char ng[64], blk[64], fopt[96];
	const char *argv[] = { NULL, "run", "--no-status", "--name=pi", "--ioengine=io_uring_cmd",
			       fopt, "--rw=write", "--bs=4k", "--size=64k", o[0], NULL };
	struct run_result r;

	NEED_NS(2, ng, blk);
	if (access("/sbin/mkfs.xfs", X_OK) && access("/usr/sbin/mkfs.xfs", X_OK))
		SKIP(return, "no mkfs.xfs");
	ASSERT_EQ(0, run_quiet("mkfs.xfs -q -f %s", blk));
	argv[0] = blkqual_path();
	snprintf(fopt, sizeof(fopt), "--filename=%s", ng);
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_NE(0, r.status);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	run_result_free(&r);
	run_quiet("wipefs -a -q %s", blk);
}

TEST_HARNESS_MAIN
