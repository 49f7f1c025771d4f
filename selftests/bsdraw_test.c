// SPDX-License-Identifier: GPL-2.0-only
/*
 * bsdraw_test.c - a job with several block sizes (bssplit, bsrange) does
 * fio 3.33's I/Os: the same sizes at the same offsets in the same order,
 * so the same count and bytes
 *
 * Its count is the number of sizes it takes to add up to size=, and with
 * the random map each I/O is cut where it meets a unit already done, so
 * only fio's own draws (fiorand.c) give fio's count.  Each job below is
 * run by fio 3.33 and by blkqual with write_iolog (ioengine=null, fio's
 * diskless engine and blkqual's nop: no device) and the two logs must
 * list the same I/Os, one by one.  Without fio, blkqual's log must give
 * the count, bytes and digest of the list that fio 3.33 gave for the
 * same job, captured from it (tools: fio-3.33, x86_64).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/fio.h"
#include "helpers/json.h"
#include "helpers/run.h"

/**
 * struct drawcase - one job, and fio 3.33's I/Os for it
 * @name: for the log
 * @pre: job sections before the one logged (they take the first thread numbers)
 * @body: the logged section's lines after "[a]", "ioengine=null" and its log
 * @ios: fio 3.33's I/O count for it
 * @bytes: its bytes
 * @digest: FNV-1a of its I/Os, each "read|write OFFSET LENGTH\n", in order
 */
struct drawcase {
	const char *name;
	const char *pre;
	const char *body;
	long long ios, bytes;
	uint64_t digest;
};

static const struct drawcase cases[] = {
	{ "bssplit, three sizes, random map", "",
	  "rw=randread\nbssplit=4k/50:16k/30:64k/20\nsize=16m\n",
	  1331, 16777216, 0x06ca62f8fdb401b4ULL },
	{ "bssplit, three sizes, norandommap", "",
	  "rw=randread\nbssplit=4k/50:16k/30:64k/20\nnorandommap\nsize=16m\n",
	  778, 16789504, 0xbe3de63a1e701d16ULL },
	{ "bsrange, random map", "",
	  "rw=randwrite\nbsrange=4k-64k\nsize=16m\n",
	  666, 16777216, 0xf25ddf5bdc4da447ULL },
	{ "bsrange not whole units, norandommap", "",
	  "rw=randwrite\nbsrange=512-48k\nnorandommap\nsize=16m\n",
	  649, 16791552, 0x405077d26cbf909bULL },
	{ "randrw, rwmixread=70, random map", "",
	  "rw=randrw\nrwmixread=70\nbssplit=4k/50:16k/30:64k/20\nsize=16m\n",
	  1423, 16777216, 0x83da2f16f03a87aaULL },
	{ "randrw, a bssplit per direction, random map", "",
	  "rw=randrw\nrwmixread=30\nbssplit=4k/40:64k/60,8k/10:128k/90\nsize=16m\n",
	  254, 16691200, 0x5e3577d44292c445ULL },
	{ "randrw, a bssplit per direction, norandommap", "",
	  "rw=randrw\nbssplit=4k/40:64k/60,8k/10:128k/90\nnorandommap\nsize=16m\n",
	  217, 16887808, 0x795c510c97c4a62aULL },
	{ "randrw, bsrange, rwmixwrite=25", "",
	  "rw=randrw\nrwmixwrite=25\nbsrange=2k-20k\nsize=16m\n",
	  2046, 16777216, 0xb0ff73d4e55135a4ULL },
	{ "jesd219's sizes, zones and blockalign", "",
	  "rw=randrw\nrwmixread=40\nnorandommap\n"
	  "bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3\n"
	  "blockalign=4k\nrandom_distribution=zoned:50/5:30/15:20/80\nsize=64m\n",
	  8662, 67118080, 0x32885112ce517220ULL },
	/* fio's null engine logs an I/O it requeues twice at iodepth>1: depth 1 here. */
	{ "iometer-file-access-server, 64m", "",
	  "rw=randrw\nrwmixread=80\nbssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10\n"
	  "size=64m\n",
	  13960, 67108864, 0xb617f1ae88dccf2dULL },
	{ "blockalign over the smallest size turns the map off", "",
	  "rw=randrw\nbssplit=512/10:4k/60:16k/30\nblockalign=4k\nsize=16m\n",
	  2213, 16787456, 0x635b810515584d45ULL },
	{ "sequential rw=rw", "",
	  "rw=rw\nrwmixread=60\nbssplit=512/10:4k/60:16k/30\nsize=16m\n",
	  2217, 16777216, 0x4449c063bf888bacULL },
	{ "io_size over the region: the second pass repeats the first", "",
	  "rw=randread\nbssplit=4k/50:32k/50\nsize=16m\nio_size=40m\n",
	  3421, 41971712, 0x332392116b3e58a4ULL },
	{ "loops=2, randrw", "",
	  "rw=randrw\nbssplit=4k/50:32k/50\nsize=16m\nloops=2\n",
	  2722, 33554432, 0x0bdb664630b60fe5ULL },
	{ "randseed=1234, tausworthe64", "",
	  "rw=randread\nbssplit=4k/50:32k/50\nsize=16m\nrandseed=1234\n"
	  "random_generator=tausworthe64\n",
	  1303, 16777216, 0x303dc473605908b8ULL },
	{ "percentage_random=60, randrw, random map", "",
	  "rw=randrw\nbssplit=4k/50:16k/50\npercentage_random=60\nsize=16m\n",
	  1776, 16785408, 0xa4f4fffa5f86e4beULL },
	{ "percentage_random=30, bsrange, norandommap", "",
	  "rw=randread\nbsrange=4k-16k\npercentage_random=30\nnorandommap\nsize=16m\n",
	  1679, 16777216, 0x0ac960382de2cda6ULL },
	{ "rw=randrw:4", "",
	  "rw=randrw:4\nbssplit=4k/50:16k/50\nsize=16m\n",
	  1662, 16785408, 0x02d2581cb6d29813ULL },
	{ "rw=randrw:3, rw_sequencer=identical, norandommap", "",
	  "rw=randrw:3\nrw_sequencer=identical\nbsrange=4k-16k\nnorandommap\nsize=16m\n",
	  1618, 16785408, 0xe5b06110387f9cdbULL },
	{ "bs_is_seq_rand, rw=randrw:2, random map", "",
	  "rw=randrw:2\nbssplit=4k/50:16k/50,8k/30:64k/70\nbs_is_seq_rand=1\nsize=16m\n",
	  681, 16793600, 0x86d0a867bb916df3ULL },
	{ "bs_is_seq_rand, percentage_random=50, bsrange", "",
	  "rw=randwrite\npercentage_random=50\nbsrange=4k-16k,8k-32k\nbs_is_seq_rand=1\n"
	  "size=16m\n",
	  1188, 16777216, 0xef953ec3294aa2cbULL },
	{ "the second thread of the run", "[z]\nioengine=null\nrw=read\nsize=1m\n",
	  "rw=randrw\nbssplit=4k/50:32k/50\nsize=16m\n",
	  1315, 16777216, 0xbffc424e89abb1ceULL },
};

/* One tool's I/Os from its write_iolog. */
struct iolist {
	long long ios, bytes;
	uint64_t digest;
	char *lines;		/* "dir offset length\n" each */
	size_t len;
};

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The reads and writes of a version 3 iolog, in order. */
static int read_iolog(const char *path, struct iolist *l)
{
	char line[512], file[256], act[16];
	unsigned long long off, len;
	FILE *f = fopen(path, "r");
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	l->digest = 0xcbf29ce484222325ULL;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char rec[96];
		int n;

		/* "TIME FILE ACTION OFFSET LENGTH" with the time fio 3 writes first */
		if (sscanf(line, "%*s %255s %15s %llu %llu", file, act, &off, &len) != 4 ||
		    (strcmp(act, "read") && strcmp(act, "write")))
			continue;
		n = snprintf(rec, sizeof(rec), "%s %llu %llu\n", act, off, len);
		if (l->len + (size_t)n + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(l->lines, cap);
			if (!p) {
				fclose(f);
				return -ENOMEM;
			}
			l->lines = p;
		}
		memcpy(l->lines + l->len, rec, (size_t)n + 1);
		l->len += (size_t)n;
		l->digest = fnv1a(l->digest, rec, (size_t)n);
		l->ios++;
		l->bytes += (long long)len;
	}
	fclose(f);
	return 0;
}

/* The first line where two lists differ, for the log. */
static void first_difference(const struct iolist *a, const struct iolist *b, char *out,
			     size_t size)
{
	const char *p = a->lines ? a->lines : "", *q = b->lines ? b->lines : "";
	long long nr = 1;

	while (*p && *p == *q) {
		if (*p == '\n')
			nr++;
		p++;
		q++;
	}
	while (p > (a->lines ? a->lines : "") && p[-1] != '\n')
		p--, q--;
	snprintf(out, size, "I/O %lld: fio \"%.*s\", blkqual \"%.*s\"", nr,
		 (int)strcspn(p, "\n"), p, (int)strcspn(q, "\n"), q);
}

/* Write @c's job file logging to @log; 0 or -errno. */
static int write_job(const char *path, const char *log, const struct drawcase *c)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "%s[a]\nioengine=null\nwrite_iolog=%s\n%s", c->pre, log, c->body);
	return fclose(f) ? -errno : 0;
}

struct tool_run {
	struct iolist l;
	long long json_ios, json_bytes;	/* blkqual's own figures for job "a" */
};

/* Run blkqual on @job; its log and its JSON figures for job "a". */
static int run_bq(const char *job, const char *log, struct tool_run *t)
{
	const char *args[] = { job, NULL };
	json_object *root, *jobs, *ja, *threads;
	struct run_result r;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	unlink(log);
	root = blkqual_run_json(&r, args);
	if (!root) {
		fprintf(stderr, "# blkqual: %.300s\n", r.err ? r.err : "");
		run_result_free(&r);
		return -1;
	}
	run_result_free(&r);
	if (json_object_object_get_ex(root, "jobs", &jobs) &&
	    (ja = json_find_by(jobs, "name", "a")) &&
	    json_object_object_get_ex(ja, "threads", &threads)) {
		for (size_t i = 0; i < json_object_array_length(threads); i++) {
			json_object *th = json_object_array_get_idx(threads, i);

			t->json_ios += json_int(th, "read.ios", 0) + json_int(th, "write.ios", 0);
			t->json_bytes += json_int(th, "read.bytes", 0) +
					 json_int(th, "write.bytes", 0);
		}
		ret = read_iolog(log, &t->l);
	}
	json_object_put(root);
	return ret;
}

static int run_fio(const char *job, const char *log, struct iolist *l)
{
	const char *args[] = { job, NULL };
	json_object *root;

	unlink(log);
	root = fio_run_json(args);
	if (!root)
		return -1;
	json_object_put(root);
	return read_iolog(log, l);
}

FIXTURE(dir)
{
	char path[64];
	char job[96];
	char log[96];
};

FIXTURE_SETUP(dir)
{
	strcpy(self->path, "/tmp/bsdraw_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->path));
	snprintf(self->job, sizeof(self->job), "%s/job.fio", self->path);
	snprintf(self->log, sizeof(self->log), "%s/io.log", self->path);
}

FIXTURE_TEARDOWN(dir)
{
	unlink(self->job);
	unlink(self->log);
	rmdir(self->path);
}

/* blkqual's log tells what it did: its count and bytes are its figures'. */
static void check_own(struct __test_metadata *_metadata, const struct drawcase *c,
		      const struct tool_run *b)
{
	EXPECT_EQ(b->json_ios, b->l.ios) TH_LOG("%s: the log is not what ran", c->name);
	EXPECT_EQ(b->json_bytes, b->l.bytes) TH_LOG("%s: the log is not what ran", c->name);
}

/* Every job, both tools: the same I/Os, one by one. */
TEST_F(dir, same_ios_as_fio)
{
	if (!have_fio())
		SKIP(return, "fio is not installed: captured_figures checks fio 3.33's figures");
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct drawcase *c = &cases[k];
		struct iolist f;
		struct tool_run b;
		char diff[256];

		ASSERT_EQ(0, write_job(self->job, self->log, c));
		ASSERT_EQ(0, run_fio(self->job, self->log, &f)) TH_LOG("%s: fio failed", c->name);
		ASSERT_EQ(0, run_bq(self->job, self->log, &b)) TH_LOG("%s: blkqual failed",
								       c->name);
		TH_LOG("%s: fio %lld I/Os %lld bytes %016" PRIx64 ", blkqual %lld I/Os %lld bytes",
		       c->name, f.ios, f.bytes, f.digest, b.l.ios, b.l.bytes);
		check_own(_metadata, c, &b);
		EXPECT_LT(0, f.ios);
		EXPECT_EQ(f.ios, b.l.ios) TH_LOG("%s: I/O count", c->name);
		EXPECT_EQ(f.bytes, b.l.bytes) TH_LOG("%s: bytes", c->name);
		if (f.digest != b.l.digest) {
			first_difference(&f, &b.l, diff, sizeof(diff));
			EXPECT_EQ(f.digest, b.l.digest) TH_LOG("%s: %s", c->name, diff);
		}
		free(f.lines);
		free(b.l.lines);
	}
}

/*
 * A time based job: its map fills up again and again and is cleared on
 * the spot, without the new seeds of io_size's passes.  The counts are
 * whatever a second allows; the I/Os both did must be the same ones.
 */
TEST_F(dir, time_based_same_ios_as_fio)
{
	static const struct drawcase tb = {
		"time based, 1 MiB", "",
		"rw=randrw\nbssplit=4k/50:32k/50\nsize=1m\ntime_based\nruntime=1\n", 0, 0, 0,
	};
	struct iolist f;
	struct tool_run b;
	const char *p;
	long long k;

	if (!have_fio())
		SKIP(return, "fio is not installed: nothing to compare with");
	ASSERT_EQ(0, write_job(self->job, self->log, &tb));
	ASSERT_EQ(0, run_fio(self->job, self->log, &f));
	ASSERT_EQ(0, run_bq(self->job, self->log, &b));
	/* 1 MiB holds about 57 I/Os: thousands are many passes over the map */
	ASSERT_LT(5000, f.ios);
	ASSERT_LT(5000, b.l.ios);
	/* the first min(count) lines of each */
	for (k = 0, p = f.lines; k < (b.l.ios < f.ios ? b.l.ios : f.ios); k++)
		p = strchr(p, '\n') + 1;
	TH_LOG("fio %lld I/Os, blkqual %lld: the first %lld compared", f.ios, b.l.ios, k);
	EXPECT_EQ(0, memcmp(f.lines, b.l.lines, (size_t)(p - f.lines)));
	free(f.lines);
	free(b.l.lines);
}

/* Without fio too: blkqual's I/Os are those fio 3.33 did, as captured from it. */
TEST_F(dir, captured_figures)
{
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct drawcase *c = &cases[k];
		struct tool_run b;

		ASSERT_EQ(0, write_job(self->job, self->log, c));
		ASSERT_EQ(0, run_bq(self->job, self->log, &b)) TH_LOG("%s: blkqual failed",
								       c->name);
		check_own(_metadata, c, &b);
		EXPECT_EQ(c->ios, b.l.ios) TH_LOG("%s: fio 3.33 did %lld I/Os", c->name, c->ios);
		EXPECT_EQ(c->bytes, b.l.bytes) TH_LOG("%s: fio 3.33 did %lld bytes", c->name,
						      c->bytes);
		EXPECT_EQ(c->digest, b.l.digest) TH_LOG("%s: not fio 3.33's I/Os", c->name);
		free(b.l.lines);
	}
}

TEST_HARNESS_MAIN
