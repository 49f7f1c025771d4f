// SPDX-License-Identifier: GPL-2.0-only
/*
 * patterns_test.c - fio's I/O pattern options mean what they mean in fio
 *
 * Three kinds of check:
 * - parsing: every form fio takes is taken, what blkqual lacks is refused
 *   by name, and a job's options make the same job again;
 * - side by side with fio 3.33 on a scratch loop device, for the
 *   deterministic patterns (holes, strided zones, offset_increment with
 *   numjobs, number_ios, percentage_random=0, bs_is_seq_rand, a region
 *   that is not a multiple of the block size): the same
 *   I/O count and exactly the same blocks written, read back from the
 *   device (zeroed before each run);
 * - for the random ones, the offsets that worker_pick() (what every engine
 *   calls per I/O) gives in this process, against fio's own offsets from
 *   write_iolog on the same job: each zone's share of the I/Os within
 *   3 sigma of what the option asks, and of each other.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual.h"
#include "internal.h"
#include "io/engine.h"
#include "job/jobopt.h"

#include "helpers/jobs.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define DEV_SIZE	(16LL << 20)
#define BLK		4096
#define NBLK		(DEV_SIZE / BLK)

/* ---- parsing ------------------------------------------------------------ */

TEST(rw_offset_modifiers)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("rw", "write:4k", &job, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_RW_WRITE, job.rw);
	EXPECT_EQ(4096, job.seq_add);
	EXPECT_EQ(0u, job.seq_nr);
	/* A random mode's N counts I/Os, not bytes. */
	ASSERT_EQ(0, set1("rw", "randread:8", &job, &err));
	EXPECT_EQ(8u, job.seq_nr);
	EXPECT_EQ(0, job.seq_add);
	ASSERT_EQ(0, set1("readwrite", "randrw:2", &job, &err));
	EXPECT_EQ(BQ_RW_RANDRW, job.rw);
	EXPECT_EQ(-EINVAL, set1("rw", "randread:4k", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("rw", "read:lots", NULL, &err));
	/* fio's backwards-read.fio */
	ASSERT_EQ(0, set1("rw", "read:-8k", &job, &err));
	EXPECT_EQ(-8192, job.seq_add);
	EXPECT_EQ(-EINVAL, set1("rw", "randread:-2", NULL, &err));
	/* Trims take the modifier too, as fio's do. */
	EXPECT_EQ(0, set1("rw", "trim:4k", NULL, &err));
	EXPECT_EQ(0, set1("rw_sequencer", "identical", &job, &err));
	EXPECT_TRUE(job.rw_seq_identical);
	EXPECT_EQ(0, set1("rw_sequencer", "sequential", &job, &err));
	EXPECT_FALSE(job.rw_seq_identical);
	EXPECT_EQ(-EINVAL, set1("rw_sequencer", "random", NULL, &err));
}

TEST(distributions)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("random_distribution", "zoned:60/10:30/20:8/30:2/40", &job, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(BQ_DIST_ZONED, job.dist);
	ASSERT_EQ(4, job.nr_dist_zones[BQ_READ]);
	EXPECT_EQ(4, job.nr_dist_zones[BQ_WRITE]);
	EXPECT_EQ(8, job.dist_zones[BQ_WRITE][2].pct);
	EXPECT_EQ(30u, job.dist_zones[BQ_WRITE][2].size);
	ASSERT_EQ(0, set1("random_distribution", "zoned:60/10:40/90,10/50:90/50", &job, &err));
	EXPECT_EQ(60, job.dist_zones[BQ_READ][0].pct);
	EXPECT_EQ(10, job.dist_zones[BQ_WRITE][0].pct);
	ASSERT_EQ(0, set1("random_distribution", "zoned_abs:60/20g:30/100g:10/500g", &job, &err));
	EXPECT_EQ(BQ_DIST_ZONED_ABS, job.dist);
	EXPECT_EQ(100ull << 30, job.dist_zones[BQ_READ][1].size);
	/* fio: access percentages add up to 100, region ones to at most 100. */
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zoned:60/10:30/20", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "add up to 90")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zoned:50/60:50/60", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zoned", NULL, &err));
	/* fio's rand-zones.fio: a zone without a size shares what is left. */
	ASSERT_EQ(0, set1("random_distribution", "zoned:50/5:30/15:20/", &job, &err));
	EXPECT_EQ(80u, job.dist_zones[BQ_READ][2].size);
	ASSERT_EQ(0, set1("random_distribution", "zoned:60:40", &job, &err));
	EXPECT_EQ(50u, job.dist_zones[BQ_READ][1].size);
	EXPECT_EQ(-EINVAL, set1("random_distribution", "zoned:60/x:40", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("random_distribution", "zoned:100/100,100/100,100/100",
				    NULL, &err));
	ASSERT_EQ(0, set1("random_distribution", "normal:5", &job, &err));
	EXPECT_EQ(BQ_DIST_NORMAL, job.dist);
	EXPECT_EQ(5.0, job.dist_param);
	ASSERT_EQ(0, set1("random_distribution", "gauss:2.5:0.3", &job, &err));
	EXPECT_EQ(BQ_DIST_NORMAL, job.dist);
	EXPECT_TRUE(job.dist_has_center);
	EXPECT_EQ(0.3, job.dist_center);
	ASSERT_EQ(0, set1("random_distribution", "normal", &job, &err));
	EXPECT_EQ(0.0, job.dist_param);
	EXPECT_EQ(-EINVAL, set1("random_distribution", "normal:100", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_distribution", "normal:-1", NULL, &err));
	ASSERT_EQ(0, set1("random_distribution", "zipf:1.2:0.25", &job, &err));
	EXPECT_EQ(0.25, job.dist_center);
	EXPECT_EQ(-EINVAL, set1("random_distribution", "pareto:0.2:2", NULL, &err));
}

TEST(other_options)
{
	struct bq_parse_error err;
	struct bq_job job;

	ASSERT_EQ(0, set1("percentage_random", "30", &job, &err));
	EXPECT_EQ(70u, job.pct_seq[BQ_READ]);
	EXPECT_EQ(70u, job.pct_seq[BQ_WRITE]);
	ASSERT_EQ(0, set1("percentage_random", "10,90", &job, &err));
	EXPECT_EQ(90u, job.pct_seq[BQ_READ]);
	EXPECT_EQ(10u, job.pct_seq[BQ_WRITE]);
	ASSERT_EQ(0, set1("percentage_random", ",0", &job, &err));
	EXPECT_EQ(0u, job.pct_seq[BQ_READ]);
	EXPECT_EQ(100u, job.pct_seq[BQ_WRITE]);
	EXPECT_EQ(-EINVAL, set1("percentage_random", "101", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("percentage_random", "1,2,3", NULL, &err));
	ASSERT_EQ(0, set1("random_generator", "lfsr", &job, &err));
	EXPECT_EQ(BQ_RANDGEN_LFSR, job.random_generator);
	EXPECT_EQ(0, set1("random_generator", "tausworthe64", NULL, &err));
	EXPECT_EQ(-EINVAL, set1("random_generator", "mt19937", NULL, &err));
	ASSERT_EQ(0, set1("allrandrepeat", NULL, &job, &err));
	EXPECT_TRUE(job.allrandrepeat);
	ASSERT_EQ(0, set1("softrandommap", "1", &job, &err));
	EXPECT_TRUE(job.softrandommap);
	ASSERT_EQ(0, set1("bs_is_seq_rand", NULL, &job, &err));
	EXPECT_TRUE(job.bs_is_seq_rand);
	ASSERT_EQ(0, set1("zonemode", "strided", &job, &err));
	EXPECT_EQ(BQ_ZONEMODE_STRIDED, job.zonemode);
	ASSERT_EQ(0, set1("zonemode", "zbd", &job, &err));
	EXPECT_EQ(BQ_ZONEMODE_ZBD, job.zonemode);
	ASSERT_EQ(0, set1("zonesize", "64k", &job, &err));
	EXPECT_EQ(65536u, job.zone_size);
	ASSERT_EQ(0, set1("zonerange", "1m", &job, &err));
	EXPECT_EQ(1u << 20, job.zone_range);
	ASSERT_EQ(0, set1("zoneskip", "2m", &job, &err));
	EXPECT_EQ(2u << 20, job.zone_skip);
	EXPECT_EQ(-EOPNOTSUPP, set1("zonesize", "2z", NULL, &err));
	ASSERT_EQ(0, set1("offset_increment", "1g", &job, &err));
	EXPECT_EQ(1ull << 30, job.offset_increment);
	ASSERT_EQ(0, set1("offset_increment", "25%", &job, &err));
	EXPECT_EQ(25u, job.offset_increment_pct);
	EXPECT_EQ(0u, job.offset_increment);
	EXPECT_EQ(-EINVAL, set1("offset_increment", "101%", NULL, &err));
	/* offset=N%: bytes once the target's size is known (run.c) */
	ASSERT_EQ(0, set1("offset", "40%", &job, &err));
	EXPECT_EQ(40u, job.offset_pct);
	EXPECT_EQ(0u, job.offset);
	ASSERT_EQ(0, set1("offset", "1m", &job, &err));
	EXPECT_EQ(0u, job.offset_pct);
	EXPECT_EQ(1u << 20, job.offset);
	/* 0% is the start, as in fio (its uring-cmd-fdp example has it). */
	ASSERT_EQ(0, set1("offset", "0%", &job, &err));
	EXPECT_EQ(0u, job.offset_pct);
	EXPECT_EQ(0u, job.offset);
	EXPECT_EQ(-EINVAL, set1("offset", "101%", NULL, &err));
	/* Zone counts are zbd's family's (zbd_verify_test): taken here too. */
	ASSERT_EQ(0, set1("offset_increment", "3z", &job, &err));
	EXPECT_EQ(3u, job.offset_increment_nz);
	ASSERT_EQ(0, set1("offset_align", "1m", &job, &err));
	EXPECT_EQ(1u << 20, job.offset_align);
	ASSERT_EQ(0, set1("number_ios", "1000", &job, &err));
	EXPECT_EQ(1000u, job.number_ios);
	EXPECT_EQ(-EINVAL, set1("number_ios", "1k", NULL, &err));
	/* Not done yet: only fio's defaults are taken, the rest refused by value. */
	EXPECT_EQ(0, set1("bs_unaligned", "0", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("bs_unaligned", NULL, NULL, &err));
	EXPECT_STREQ("bs_unaligned=1 is not supported (sizes of a bsrange are multiples of its "
		     "smallest)", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, set1("blocksize_unaligned", "1", NULL, &err));
	EXPECT_EQ(0, set1("unified_rw_reporting", "none", NULL, &err));
	EXPECT_EQ(0, set1("unified_rw_reporting", "0", NULL, &err));
	EXPECT_EQ(-EOPNOTSUPP, set1("unified_rw_reporting", "mixed", NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "unified_rw_reporting=mixed")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, set1("unified_rw_reporting", "sum", NULL, &err));
	EXPECT_EQ(0, set1("max_open_zones", "8", NULL, &err));
}

TEST(whole_jobs)
{
	struct bq_parse_error err;
	struct bq_jobset set = { 0 };

	/* fio 3.33: zonemode defaults to none, which refuses a zonesize. */
	EXPECT_EQ(-EINVAL, jobs_of(&set, &err, "--filename=/dev/null", "--zonesize=64k", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "zonemode=strided")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=strided",
				   NULL));
	/* holes are verified (verify_holes_test.c) when they are whole verify blocks */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null", "--rw=write:1k",
				       "--verify=crc32c", NULL));
	ASSERT_EQ(0, jobs_of(&set, &err, "--filename=/dev/null", "--zonemode=strided",
			     "--zonesize=64k", NULL)) TH_LOG("%s", err.msg);
	bq_jobset_free(&set);
	/* offset=N% counts from one target's size */
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--filename=/dev/null:/dev/zero",
				       "--offset=10%", NULL));
	EXPECT_NE(NULL, strstr(err.msg, "one filename=")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, jobs_of(&set, &err, "--offset=10%", "--size=1m", NULL));
}

/* Every option of the family comes back from bq_job_to_args() unchanged. */
TEST(job_args_round_trip)
{
	static const char *const opts[][2] = {
		{ "rw", "write:8k" }, { "rw_sequencer", "identical" },
		{ "percentage_random", "20,70" }, { "random_generator", "lfsr" },
		{ "allrandrepeat", "1" }, { "softrandommap", "1" }, { "zonemode", "strided" },
		{ "zonesize", "64k" }, { "zonerange", "1m" }, { "zoneskip", "4k" },
		{ "offset_increment", "10%" }, { "offset_align", "1m" }, { "number_ios", "77" },
		{ "bs_is_seq_rand", "1" },
	};
	static const char *const dists[] = {
		"zoned:60/10:30/20:10/70,50/50:50/50", "zoned_abs:10/1m:90/2m",
		"normal:3.5:0.25", "zipf:1.2", "pareto:0.3:0.5", "random",
	};
	struct bq_parse_error err;

	for (size_t k = 0; k < ARRAY_SIZE(dists); k++) {
		struct bq_jobset set = { 0 };
		struct bq_strv args = { 0 };
		struct bq_job a, *b;

		bq_job_defaults(&a);
		ASSERT_EQ(0, bq_job_set(&a, "filename", "/dev/null", &err));
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
			ASSERT_EQ(0, bq_job_set(&a, opts[i][0], opts[i][1], &err))
				TH_LOG("%s: %s", opts[i][0], err.msg);
		}
		ASSERT_EQ(0, bq_job_set(&a, "random_distribution", dists[k], &err));
		ASSERT_EQ(0, bq_job_to_args(&a, &args));
		ASSERT_EQ(0, bq_jobs_from_args((int)args.n, args.v, &set, &err))
			TH_LOG("%s: %s", err.where, err.msg);
		ASSERT_EQ(1u, set.nr);
		b = &set.jobs[0];
		EXPECT_EQ(a.seq_add, b->seq_add);
		EXPECT_EQ(a.rw_seq_identical, b->rw_seq_identical);
		EXPECT_EQ(0, memcmp(a.pct_seq, b->pct_seq, sizeof(a.pct_seq)));
		EXPECT_EQ(a.random_generator, b->random_generator);
		EXPECT_EQ(a.allrandrepeat, b->allrandrepeat);
		EXPECT_EQ(a.softrandommap, b->softrandommap);
		EXPECT_EQ(a.zonemode, b->zonemode);
		EXPECT_EQ(a.zone_size, b->zone_size);
		EXPECT_EQ(a.zone_range, b->zone_range);
		EXPECT_EQ(a.zone_skip, b->zone_skip);
		EXPECT_EQ(a.offset_increment_pct, b->offset_increment_pct);
		EXPECT_EQ(a.offset_align, b->offset_align);
		EXPECT_EQ(a.number_ios, b->number_ios);
		EXPECT_EQ(a.bs_is_seq_rand, b->bs_is_seq_rand);
		EXPECT_EQ(a.dist, b->dist);
		EXPECT_EQ(a.dist_param, b->dist_param);
		EXPECT_EQ(a.dist_has_center, b->dist_has_center);
		EXPECT_EQ(a.dist_center, b->dist_center);
		EXPECT_EQ(0, memcmp(a.nr_dist_zones, b->nr_dist_zones, sizeof(a.nr_dist_zones)));
		EXPECT_EQ(0, memcmp(a.dist_zones, b->dist_zones, sizeof(a.dist_zones)))
			TH_LOG("%s", dists[k]);
		bq_strv_free(&args);
		bq_jobset_free(&set);
		bq_job_release(&a);
	}
}

/* ---- blkqual's offsets, in this process --------------------------------- */

/*
 * A worker set up as run.c's init_worker() sets up a one-file thread on a
 * target of @size bytes, to call worker_pick() on: what the engines call.
 */
static int fake_worker(struct bq_worker *w, const struct bq_job *j, uint64_t size,
		       volatile int *stop, uint64_t seed)
{
	static struct bq_file_state one_file;
	struct bq_file_state *f = &one_file;
	bool zoned = j->dist == BQ_DIST_ZONED || j->dist == BQ_DIST_ZONED_ABS;
	struct bq_offgen_params rp = { .nblocks = 1, .seed = seed };
	struct bq_offgen_params p = {
		.random = j->rw == BQ_RW_RANDREAD || j->rw == BQ_RW_RANDWRITE ||
			  j->rw == BQ_RW_RANDRW,
		.norandommap = j->norandommap || zoned,
		.dist = zoned ? BQ_DIST_RANDOM : j->dist, .param = j->dist_param,
		.seed = seed + 1,
	};
	uint64_t range;

	memset(w, 0, sizeof(*w));
	memset(f, 0, sizeof(*f));
	w->files = f;
	w->job = j;
	w->stop = stop;
	w->nr_files = 1;
	w->random = p.random;
	w->unit = j->bs_min[BQ_READ] < j->bs_min[BQ_WRITE] ? j->bs_min[BQ_READ] :
		  j->bs_min[BQ_WRITE];
	bq_offgen_init(&w->rng, &rp);
	f->base = bq_pattern_base(j, size, 0, w->unit);
	f->span = j->size ? j->size : size - f->base;
	f->limit = size - f->base;
	range = bq_job_strided(j) ? j->zone_range : f->span;
	p.nblocks = range / w->unit;
	w->bytes_left = UINT64_MAX;
	w->ios_left = UINT64_MAX;
	w->pattern = worker_pattern_wanted(j);
	if (w->pattern)
		worker_pattern_init(w);
	return bq_offgen_init(&f->gen, &p);
}

/* Up to @max I/Os of @j as worker_pick() gives them; how many it gave. */
static size_t bq_offsets(const struct bq_job *j, struct bq_slot *io, size_t max)
{
	static struct bq_worker w;
	volatile int stop = 0;
	size_t n = 0;

	if (fake_worker(&w, j, DEV_SIZE, &stop, 42))
		return 0;
	while (n < max && worker_pick(&w, &io[n], 0))
		n++;
	return n;
}

static int job_from(struct bq_job *j, const char *const *kv)
{
	struct bq_parse_error err;

	bq_job_defaults(j);
	for (int i = 0; kv[i]; i += 2)
		if (bq_job_set(j, kv[i], kv[i + 1], &err))
			return -1;
	return 0;
}

/* randread:8: a new random offset every 8 I/Os, the 7 between continue it. */
TEST(random_every_n_ios)
{
	static const char *const seq[] = { "rw", "randread:8", "bs", "4k", NULL };
	static const char *const ident[] = { "rw", "randread:8", "rw_sequencer", "identical",
					     "bs", "4k", NULL };
	struct bq_slot io[256];
	struct bq_job j;
	size_t n;

	ASSERT_EQ(0, job_from(&j, seq));
	n = bq_offsets(&j, io, ARRAY_SIZE(io));
	ASSERT_GT(n, 64u);
	for (size_t i = 1; i < n; i++) {
		if (i % 8)
			ASSERT_EQ(io[i - 1].offset + BLK, io[i].offset) TH_LOG("I/O %zu", i);
	}
	ASSERT_EQ(0, job_from(&j, ident));
	n = bq_offsets(&j, io, ARRAY_SIZE(io));
	ASSERT_EQ(ARRAY_SIZE(io), n);
	for (size_t i = 1; i < n; i++) {
		if (i % 8) {
			ASSERT_EQ(io[i - 1].offset, io[i].offset) TH_LOG("I/O %zu", i);
		} else {
			ASSERT_NE(io[i - 1].offset, io[i].offset) TH_LOG("I/O %zu", i);
		}
	}
}

/*
 * bs_is_seq_rand: an I/O that goes on from the last one takes the read
 * size (4k), a random one the write size (16k), whatever its direction.
 */
TEST(bs_is_seq_rand_sizes)
{
	static const char *const kv[] = { "rw", "randwrite", "bs", "4k,16k", "bs_is_seq_rand",
					  "1", "percentage_random", "50", "norandommap", "1",
					  "time_based", "1", NULL };
	static struct bq_slot io[4096];
	size_t n, seq = 0;
	struct bq_job j;

	ASSERT_EQ(0, job_from(&j, kv));
	n = bq_offsets(&j, io, ARRAY_SIZE(io));
	ASSERT_EQ(ARRAY_SIZE(io), n);
	for (size_t i = 1; i < n; i++) {
		bool cont = io[i].offset == io[i - 1].offset + io[i - 1].len;

		seq += cont;
		/*
		 * A random block right after the last one looks sequential: 16k
		 * is fine then; a sequential one past the end starts over at 0.
		 */
		if (!cont && io[i].offset) {
			EXPECT_EQ(16384u, io[i].len) TH_LOG("I/O %zu", i);
		} else if (io[i].len != 4096) {
			seq--;
		}
	}
	/* Half sequential, give or take 4 sigma (sigma = 0.5 / 64). */
	EXPECT_LT(fabs((double)seq / (double)(n - 1) - 0.5), 4 * 0.5 / 64);
}

/* ---- fio, side by side --------------------------------------------------- */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char filename[96];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	if (need_program("fio"))
		prep_skip(&self->p, need_program("fio"));
	scratch_device(&self->p, &self->s, DEV_SIZE);
	snprintf(self->filename, sizeof(self->filename), "--filename=%s", self->s.dev);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

/* Zeroes the device: a sparse backing file reads back as zeros. */
static int zero_device(const struct scratch *s)
{
	int fd = open(s->file, O_WRONLY);
	int ret = fd < 0 || ftruncate(fd, 0) || ftruncate(fd, DEV_SIZE) ? -1 : 0;

	if (fd >= 0)
		close(fd);
	return ret;
}

/* Which 4k blocks of the device hold anything but zeros; their number. */
static int written_blocks(const struct scratch *s, bool *map)
{
	int fd = open(s->dev, O_RDONLY | O_DIRECT), n = 0;
	uint8_t *buf = NULL;

	if (fd < 0 || posix_memalign((void **)&buf, BLK, DEV_SIZE) ||
	    pread(fd, buf, DEV_SIZE, 0) != DEV_SIZE)
		n = -1;
	for (long b = 0; n >= 0 && b < NBLK; b++) {
		map[b] = false;
		for (int i = 0; i < BLK; i += 8)
			if (*(uint64_t *)(buf + b * BLK + i)) {
				map[b] = true;
				n++;
				break;
			}
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return n;
}

/* fio's total I/O count over all jobs, from its JSON, or -1. */
static long long fio_ios(const char *out)
{
	const char *brace = out ? strchr(out, '{') : NULL;
	json_object *root = brace ? json_tokener_parse(brace) : NULL, *jobs;
	long long ios = 0;

	if (!root || !json_object_object_get_ex(root, "jobs", &jobs)) {
		json_object_put(root);
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *jb = json_object_array_get_idx(jobs, i);

		ios += json_int(jb, "read.total_ios", 0) + json_int(jb, "write.total_ios", 0);
	}
	json_object_put(root);
	return ios;
}

static long long bq_ios(json_object *root)
{
	json_object *jobs = json_object_object_get(root, "jobs");
	long long ios = 0;

	for (size_t i = 0; jobs && i < json_object_array_length(jobs); i++) {
		json_object *jb = json_object_array_get_idx(jobs, i);

		ios += json_int(jb, "total.read.ios", 0) + json_int(jb, "total.write.ios", 0);
	}
	return ios;
}

#define MAX_OPTS 8

/**
 * struct side - one job run by fio and by blkqual
 * @opts: its options beyond filename, ioengine=psync and direct=1
 * @exact: the same blocks written; otherwise the same number of blocks
 *         written per @window blocks (random offsets)
 * @window: blocks per window of the per-window count; 0: the whole device
 */
struct side {
	const char *opts[MAX_OPTS];
	bool exact;
	int window;
};

static const struct side sides[] = {
	/* holes: a 4k skip after each 4k write, and from an offset */
	{ .opts = { "--rw=write:4k", "--bs=4k", "--size=1m" }, .exact = true },
	{ .opts = { "--rw=write:8k", "--bs=4k", "--size=1m", "--offset=4k" },
	  .exact = true },
	/* backward, from the start and from an offset (fio starts at the end then) */
	{ .opts = { "--rw=write:-8k", "--bs=4k", "--size=64k" }, .exact = true },
	{ .opts = { "--rw=write:-8k", "--bs=4k", "--size=64k", "--offset=1m" },
	  .exact = true },
	/* strided zones: less than, more than a zone, a skip that wraps at the end */
	{ .opts = { "--rw=write", "--bs=4k", "--zonemode=strided", "--zonesize=16k",
		    "--zonerange=64k", "--size=256k" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=4k", "--zonemode=strided", "--zonesize=128k",
		    "--zonerange=64k", "--size=256k" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=4k", "--zonemode=strided", "--zonesize=64k",
		    "--zonerange=64k", "--zoneskip=4m", "--size=512k" }, .exact = true },
	{ .opts = { "--rw=write:4k", "--bs=4k", "--zonemode=strided", "--zonesize=16k",
		    "--zonerange=64k", "--size=256k" }, .exact = true },
	{ .opts = { "--rw=randwrite", "--bs=4k", "--zonemode=strided", "--zonesize=16k",
		    "--zonerange=64k", "--zoneskip=64k", "--size=256k" }, .window = 32 },
	/* offset_increment: numjobs threads side by side, in bytes and in percent */
	{ .opts = { "--rw=write", "--bs=4k", "--size=64k", "--offset_increment=1m",
			    "--numjobs=4" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=8k", "--size=1m", "--offset_increment=10%",
			    "--numjobs=3" }, .exact = true },
	/* offset=N%: from that share of the device, rounded up as fio rounds it */
	{ .opts = { "--rw=write", "--bs=4k", "--size=64k", "--offset=33%" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=4k", "--offset=90%", "--offset_align=64k" },
	  .exact = true },
	{ .opts = { "--rw=write", "--bs=8k", "--size=64k", "--offset=25%",
		    "--offset_increment=10%", "--numjobs=3" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=8k", "--size=64k", "--offset=5%",
		    "--offset_increment=1m", "--numjobs=2" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=4k", "--size=1m", "--number_ios=10" }, .exact = true },
	{ .opts = { "--rw=randwrite", "--bs=4k", "--size=1m", "--number_ios=10" } },
	/* percentage_random=0 is sequential; bs_is_seq_rand takes its size from reads */
	{ .opts = { "--rw=randwrite", "--bs=4k", "--size=1m", "--percentage_random=0" },
	  .exact = true },
	{ .opts = { "--rw=randwrite", "--bs=4k,16k", "--bs_is_seq_rand=1", "--percentage_random=0",
		    "--size=1m" }, .exact = true },
	/* identical: each random block 4 times, 64 blocks; lfsr: each block once */
	{ .opts = { "--rw=randwrite:4", "--rw_sequencer=identical", "--bs=4k",
			    "--size=1m" } },
	{ .opts = { "--rw=randwrite", "--random_generator=lfsr", "--norandommap=1", "--bs=4k",
		    "--size=1m" }, .exact = true },
	/*
	 * A region that is not a multiple of the block size: whole blocks,
	 * the last one past the region where the device has room (16), not
	 * where it has none (15); at random, the blocks that fit (15); loops
	 * end together at loops x size (47).
	 */
	{ .opts = { "--rw=write", "--bs=64k", "--size=1000k" }, .exact = true },
	{ .opts = { "--rw=write", "--bs=64k", "--size=1000k", "--offset=15384k" },
	  .exact = true },
	{ .opts = { "--rw=randwrite", "--bs=64k", "--size=1000k" }, .window = NBLK },
	{ .opts = { "--rw=write", "--bs=64k", "--size=1000k", "--loops=3" }, .exact = true },
};

TEST_F_TIMEOUT(dev, same_blocks_as_fio, 120)
{
	static bool fio_map[NBLK], bq_map[NBLK];

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(sides); k++) {
		const struct side *c = &sides[k];
		const char *argv[24] = { "fio", "--output-format=json", "--name=a",
					 self->filename, "--ioengine=psync", "--direct=1" };
		const char *bargs[16] = { "--name=a", self->filename, "--ioengine=psync",
					  "--direct=1" };
		struct run_result r;
		long long fios, bqios;
		int fn, bn, a = 6, b = 4;
		json_object *root;
		char what[256] = "";

		for (int i = 0; i < MAX_OPTS && c->opts[i]; i++) {
			argv[a++] = c->opts[i];
			bargs[b++] = c->opts[i];
			strncat(what, c->opts[i], sizeof(what) - strlen(what) - 2);
			strcat(what, " ");
		}
		ASSERT_EQ(0, zero_device(&self->s));
		ASSERT_EQ(0, run_argv(argv, &r));
		ASSERT_EQ(0, r.status) TH_LOG("fio %s: %.300s", what, r.err);
		fios = fio_ios(r.out);
		run_result_free(&r);
		fn = written_blocks(&self->s, fio_map);
		ASSERT_EQ(0, zero_device(&self->s));
		root = blkqual_run_json(&r, bargs);
		ASSERT_NE(NULL, root) TH_LOG("blkqual %s: %.300s", what, r.err);
		bqios = bq_ios(root);
		json_object_put(root);
		run_result_free(&r);
		bn = written_blocks(&self->s, bq_map);
		ASSERT_LT(0, fn);
		EXPECT_EQ(fios, bqios) TH_LOG("%s: I/Os", what);
		EXPECT_EQ(fn, bn) TH_LOG("%s: blocks written", what);
		if (c->exact) {
			EXPECT_EQ(0, memcmp(fio_map, bq_map, sizeof(fio_map)))
				TH_LOG("%s: not the same blocks", what);
		}
		for (int w = 0; c->window && w < NBLK / c->window; w++) {
			int fw = 0, bw = 0;

			for (int i = w * c->window; i < (w + 1) * c->window; i++) {
				fw += fio_map[i];
				bw += bq_map[i];
			}
			EXPECT_EQ(fw, bw) TH_LOG("%s: blocks %d..%d", what, w * c->window,
						 (w + 1) * c->window - 1);
		}
	}
}

/* fio's offsets of @opts, in blocks, from write_iolog (null engine: no I/O). */
static size_t fio_offsets(struct __test_metadata *_metadata, const struct scratch *s,
			  const char *const *opts, uint64_t *off, size_t max)
{
	char log[320], line[512], name[64], op[16];
	const char *argv[24] = { "fio", "--output-format=json", "--name=a", "--ioengine=null",
				 "--bs=4k", "--size=16m" };
	char fname[96], logopt[340];
	unsigned long long o, l;
	struct run_result r;
	size_t n = 0;
	int a = 6;
	FILE *f;

	snprintf(fname, sizeof(fname), "--filename=%s", s->dev);
	snprintf(log, sizeof(log), "%s/iolog", s->dir);
	snprintf(logopt, sizeof(logopt), "--write_iolog=%s", log);
	unlink(log);
	argv[a++] = fname;
	argv[a++] = logopt;
	for (int i = 0; opts[i]; i++)
		argv[a++] = opts[i];
	if (run_argv(argv, &r) || r.status) {
		TH_LOG("fio: %.300s", r.err);
		run_result_free(&r);
		return 0;
	}
	run_result_free(&r);
	f = fopen(log, "r");
	while (f && n < max && fgets(line, sizeof(line), f)) {
		unsigned long long t;

		/* iolog v3: "TIME FILE ACTION OFFSET LENGTH" */
		if (sscanf(line, "%llu %63s %15s %llu %llu", &t, name, op, &o, &l) == 5 &&
		    (!strcmp(op, "read") || !strcmp(op, "write")))
			off[n++] = o / BLK;
	}
	if (f)
		fclose(f);
	return n;
}

/* Shares of the I/Os in block ranges [edge[i], edge[i + 1]). */
static void shares(const uint64_t *blk, size_t n, const double *edge, int nz, double *share)
{
	for (int z = 0; z < nz; z++)
		share[z] = 0;
	for (size_t i = 0; i < n; i++)
		for (int z = 0; z < nz; z++)
			if (blk[i] >= edge[z] && blk[i] < edge[z + 1])
				share[z] += 1.0 / (double)n;
}

#define DRAWS 20480

/*
 * zoned 60/10:30/20:10/70 and zoned_abs 50/1m:50/15m: each zone's share
 * within 3 sigma (binomial) of the option's, for fio and for blkqual.
 */
TEST_F_TIMEOUT(dev, zoned_shares_as_fio, 60)
{
	static const struct {
		const char *dist;
		int nz;
		double edge[5];
		double want[4];
	} cases[] = {
		{ "zoned:60/10:30/20:10/70", 3, { 0, NBLK * 0.1, NBLK * 0.3, NBLK },
		  { 0.6, 0.3, 0.1 } },
		{ "zoned_abs:50/1m:50/15m", 2, { 0, 256, NBLK }, { 0.5, 0.5 } },
	};
	static uint64_t fio_blk[DRAWS], bq_blk[DRAWS];
	static struct bq_slot io[DRAWS];

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		char dist[96];
		const char *opts[] = { "--rw=randread", "--io_size=80m", dist, NULL };
		const char *kv[] = { "rw", "randread", "bs", "4k", "size", "16m",
				     "random_distribution", cases[k].dist, NULL };
		double fs[4], bs[4];
		size_t fn, bn;
		struct bq_job j;

		snprintf(dist, sizeof(dist), "--random_distribution=%s", cases[k].dist);
		fn = fio_offsets(_metadata, &self->s, opts, fio_blk, DRAWS);
		ASSERT_EQ(DRAWS, fn);
		ASSERT_EQ(0, job_from(&j, kv));
		bn = bq_offsets(&j, io, DRAWS);
		ASSERT_EQ(DRAWS, bn);
		for (size_t i = 0; i < bn; i++)
			bq_blk[i] = io[i].offset / BLK;
		shares(fio_blk, fn, cases[k].edge, cases[k].nz, fs);
		shares(bq_blk, bn, cases[k].edge, cases[k].nz, bs);
		for (int z = 0; z < cases[k].nz; z++) {
			double p = cases[k].want[z], sigma = sqrt(p * (1 - p) / DRAWS);

			TH_LOG("%s zone %d: want %.3f, fio %.4f, blkqual %.4f", cases[k].dist, z, p,
			       fs[z], bs[z]);
			EXPECT_LT(fabs(fs[z] - p), 3 * sigma);
			EXPECT_LT(fabs(bs[z] - p), 3 * sigma);
		}
	}
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y) - (x > y);
}

/* The share of the I/Os on the hottest tenth of the blocks. */
static double hot_tenth(const uint64_t *blk, size_t n)
{
	static uint32_t hits[NBLK];
	double hot = 0;

	memset(hits, 0, sizeof(hits));
	for (size_t i = 0; i < n; i++)
		hits[blk[i] % NBLK]++;
	qsort(hits, NBLK, sizeof(hits[0]), cmp_desc);
	for (int i = 0; i < NBLK / 10; i++)
		hot += hits[i];
	return hot / (double)n;
}

/*
 * normal: fio scatters the bell with a hash, blkqual with its permutation,
 * so the shape is compared: the hottest tenth of the blocks takes the
 * same share in both (0.46 for dev 0: the middle tenth of a bell whose
 * sigma is a twelfth of the range), within 0.02.
 */
TEST_F_TIMEOUT(dev, normal_shape_as_fio, 60)
{
	static const char *const devs[] = { "normal:0", "normal:20" };
	static uint64_t fio_blk[2 * DRAWS], bq_blk[2 * DRAWS];
	static struct bq_slot io[2 * DRAWS];

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(devs); k++) {
		char dist[64];
		const char *opts[] = { "--rw=randread", "--io_size=160m", dist, NULL };
		const char *kv[] = { "rw", "randread", "bs", "4k", "size", "16m",
				     "random_distribution", devs[k], NULL };
		double fh, bh;
		size_t fn, bn;
		struct bq_job j;

		snprintf(dist, sizeof(dist), "--random_distribution=%s", devs[k]);
		fn = fio_offsets(_metadata, &self->s, opts, fio_blk, 2 * DRAWS);
		ASSERT_EQ(2 * DRAWS, fn);
		ASSERT_EQ(0, job_from(&j, kv));
		bn = bq_offsets(&j, io, 2 * DRAWS);
		ASSERT_EQ(2 * DRAWS, bn);
		for (size_t i = 0; i < bn; i++)
			bq_blk[i] = io[i].offset / BLK;
		fh = hot_tenth(fio_blk, fn);
		bh = hot_tenth(bq_blk, bn);
		TH_LOG("%s: hottest tenth of the blocks: fio %.4f, blkqual %.4f", devs[k], fh, bh);
		EXPECT_LT(fabs(fh - bh), 0.02);
	}
}

/*
 * percentage_random=30: 70% of the I/Os continue where the last one ended,
 * in fio as in blkqual, within 3 sigma.
 */
TEST_F_TIMEOUT(dev, percentage_random_as_fio, 60)
{
	static uint64_t fio_blk[DRAWS], bq_blk[DRAWS];
	static struct bq_slot io[DRAWS];
	const char *opts[] = { "--rw=randread", "--percentage_random=30", "--norandommap=1",
			       "--io_size=80m", NULL };
	const char *kv[] = { "rw", "randread", "bs", "4k", "size", "16m", "norandommap", "1",
			     "percentage_random", "30", "time_based", "1", NULL };
	double p = 0.7, sigma = sqrt(p * (1 - p) / DRAWS), fseq = 0, bseq = 0;
	size_t fn, bn;
	struct bq_job j;

	PREP_READY(&self->p);
	fn = fio_offsets(_metadata, &self->s, opts, fio_blk, DRAWS);
	ASSERT_GT(fn, DRAWS / 2);
	ASSERT_EQ(0, job_from(&j, kv));
	bn = bq_offsets(&j, io, DRAWS);
	ASSERT_EQ(DRAWS, bn);
	for (size_t i = 0; i < bn; i++)
		bq_blk[i] = io[i].offset / BLK;
	for (size_t i = 1; i < fn; i++)
		fseq += fio_blk[i] == fio_blk[i - 1] + 1;
	for (size_t i = 1; i < bn; i++)
		bseq += bq_blk[i] == bq_blk[i - 1] + 1;
	fseq /= (double)(fn - 1);
	bseq /= (double)(bn - 1);
	TH_LOG("sequential share: want %.2f, fio %.4f, blkqual %.4f", p, fseq, bseq);
	/* A random block right after the last one counts as sequential: 1 / NBLK more. */
	EXPECT_LT(fabs(fseq - p), 3 * sigma + 1.0 / NBLK);
	EXPECT_LT(fabs(bseq - p), 3 * sigma + 1.0 / NBLK);
}

/* fio's offsets of a job on the device itself (psync), from write_iolog. */
static size_t fio_device_offsets(const struct scratch *s, const char *const *opts,
				 uint64_t *off, size_t max)
{
	char fname[96], log[320], logopt[340], line[512], name[64], op[16];
	const char *argv[16] = { "fio", "--name=a", "--ioengine=psync", "--direct=1", fname,
				 logopt };
	unsigned long long t, o, l;
	struct run_result r;
	size_t n = 0;
	int a = 6;
	FILE *f;

	snprintf(fname, sizeof(fname), "--filename=%s", s->dev);
	snprintf(log, sizeof(log), "%s/iolog", s->dir);
	snprintf(logopt, sizeof(logopt), "--write_iolog=%s", log);
	unlink(log);
	for (int i = 0; opts[i] && a < 15; i++)
		argv[a++] = opts[i];
	if (run_argv(argv, &r) || r.status) {
		run_result_free(&r);
		return 0;
	}
	run_result_free(&r);
	f = fopen(log, "r");
	while (f && n < max && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu %63s %15s %llu %llu", &t, name, op, &o, &l) == 5 &&
		    (!strcmp(op, "read") || !strcmp(op, "write")))
			off[n++] = o;
	if (f)
		fclose(f);
	return n;
}

/* Sequential patterns in fio's exact order, not only the same blocks. */
TEST_F(dev, same_order_as_fio)
{
	static const struct {
		const char *fio[5];
		const char *kv[11];
	} cases[] = {
		{ { "--rw=read:-8k", "--bs=4k", "--size=64k" },
		  { "rw", "read:-8k", "bs", "4k", "size", "64k" } },
		{ { "--rw=read:-8k", "--bs=4k", "--size=64k", "--offset=1m" },
		  { "rw", "read:-8k", "bs", "4k", "size", "64k", "offset", "1m" } },
		{ { "--rw=read:12k", "--bs=4k", "--size=256k", "--offset=8k" },
		  { "rw", "read:12k", "bs", "4k", "size", "256k", "offset", "8k" } },
		{ { "--rw=read", "--bs=4k", "--zonemode=strided", "--zonesize=12k",
		    "--zonerange=32k" },
		  { "rw", "read", "bs", "4k", "zonemode", "strided", "zonesize", "12k",
		    "zonerange", "32k" } },
	};
	static uint64_t fio_off[256];
	static struct bq_slot io[256];

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const char *fopts[8] = { 0 };
		size_t fn, bn;
		struct bq_job j;

		for (int i = 0; i < 5 && cases[k].fio[i]; i++)
			fopts[i] = cases[k].fio[i];
		/* The strided zones go on over the whole device: 64 I/Os of them. */
		if (!strcmp(cases[k].fio[0], "--rw=read"))
			fopts[5] = "--number_ios=64";
		fn = fio_device_offsets(&self->s, fopts, fio_off, ARRAY_SIZE(fio_off));
		ASSERT_LT(0u, fn) TH_LOG("%s", cases[k].fio[0]);
		ASSERT_EQ(0, job_from(&j, cases[k].kv));
		if (!strcmp(cases[k].fio[0], "--rw=read"))
			j.number_ios = 64;
		bn = bq_offsets(&j, io, ARRAY_SIZE(io));
		if (j.number_ios && bn > j.number_ios)
			bn = j.number_ios;
		/* In-process picks are not cut at the region's bytes: compare fio's count. */
		ASSERT_LE(fn, bn);
		for (size_t i = 0; i < fn; i++) {
			ASSERT_EQ(fio_off[i], io[i].offset)
				TH_LOG("%s %s: I/O %zu", cases[k].fio[0], cases[k].fio[2], i);
		}
	}
}

/* What only the target's size can tell is refused before any I/O, with exit 2. */
TEST_F(dev, refused_against_the_target)
{
	static const struct {
		const char *opts[3];
		const char *msg;
	} cases[] = {
		{ { "--offset_increment=1000", "--numjobs=2" }, "not a multiple of 512" },
		{ { "--offset_increment=8m", "--numjobs=3", "--size=64k" }, "ends past the target" },
		{ { "--random_distribution=zoned_abs:50/1m:50/20m", "--rw=randread" },
		  "more than the region's" },
		{ { "--zonemode=strided", "--zonesize=6k", "--bs=4k" }, "zonerange must be" },
	};

	PREP_READY(&self->p);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const char *args[10] = { "--name=a", self->filename, "--direct=1" };
		struct run_result r;
		int a = 3;

		for (int i = 0; i < 3 && cases[k].opts[i]; i++)
			args[a++] = cases[k].opts[i];
		EXPECT_EQ(NULL, blkqual_run_json(&r, args));
		EXPECT_EQ(2, r.status);
		EXPECT_NE(NULL, strstr(r.err, cases[k].msg)) TH_LOG("%s", r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
		run_result_free(&r);
	}
}

/* Whether each direction's blocks go 0, 1, 2, ... on their own. */
static bool two_streams(const uint64_t *blk, const uint8_t *dir, size_t n)
{
	uint64_t next[BQ_NR_DIRS] = { 0, 0 };

	for (size_t i = 0; i < n; i++)
		if (blk[i] != next[dir[i]]++)
			return false;
	return true;
}

/*
 * rw=rw: fio keeps one sequential position per direction, so reads and
 * writes each go through the region from its start; blkqual did one
 * stream for both before issue 19.
 */
TEST_F(dev, rw_streams_as_fio)
{
	static uint64_t fblk[256], bblk[256];
	static uint8_t fdir[256], bdir[256];
	static struct bq_slot io[256];
	const char *kv[] = { "rw", "rw", "bs", "4k", "size", "1m", NULL };
	char fname[96], log[320], logopt[340], line[512], name[64], op[16];
	const char *argv[] = { "fio", "--name=a", "--ioengine=null", "--rw=rw", "--bs=4k",
			       "--size=1m", fname, logopt, NULL };
	unsigned long long t, o, l;
	struct run_result r;
	size_t fn = 0, bn;
	struct bq_job j;
	FILE *f;

	PREP_READY(&self->p);
	snprintf(fname, sizeof(fname), "--filename=%s", self->s.dev);
	snprintf(log, sizeof(log), "%s/iolog", self->s.dir);
	snprintf(logopt, sizeof(logopt), "--write_iolog=%s", log);
	unlink(log);
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%.300s", r.err);
	run_result_free(&r);
	f = fopen(log, "r");
	ASSERT_NE(NULL, f);
	while (fn < 256 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu %63s %15s %llu %llu", &t, name, op, &o, &l) == 5 &&
		    (!strcmp(op, "read") || !strcmp(op, "write"))) {
			fdir[fn] = strcmp(op, "read") ? BQ_WRITE : BQ_READ;
			fblk[fn++] = o / BLK;
		}
	fclose(f);
	ASSERT_EQ(256u, fn);
	EXPECT_TRUE(two_streams(fblk, fdir, fn));
	ASSERT_EQ(0, job_from(&j, kv));
	bn = bq_offsets(&j, io, 256);
	ASSERT_EQ(256u, bn);
	for (size_t i = 0; i < bn; i++) {
		bblk[i] = io[i].offset / BLK;
		bdir[i] = io[i].dir;
	}
	EXPECT_TRUE(two_streams(bblk, bdir, bn));
}

TEST_HARNESS_MAIN
