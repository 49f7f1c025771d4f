// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - run a set of jobs: targets, checks, placement, threads, the
 * start line, the monitor and progress (the figures beside the workers
 * are run_figures.c's, stuck threads run_stalls.c's)
 *
 * The main thread never does I/O.  It samples the workers' counters
 * without locks (aligned 64-bit loads cannot tear on the platforms we
 * support, and a sample one I/O stale is fine), so measuring costs the
 * I/O path nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "fileset.h"
#include "fill.h"
#include "job/jobopt.h"
#include "run_int.h"
#include "sprandom.h"
#include "zbd.h"
#include "verify/verify_int.h"

/* How often a progress line goes to the caller's callback. */
#define PROGRESS_TICK_NS	250000000ULL

/* Smallest and largest block size a job can issue, over both directions. */
static void bs_bounds(const struct bq_job *j, uint32_t *lo, uint32_t *hi)
{
	*lo = UINT32_MAX;
	*hi = 0;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		uint32_t a = j->bs_min[d] ? j->bs_min[d] : j->bs[d];
		uint32_t b = j->bs_max[d] ? j->bs_max[d] : j->bs[d];

		for (int i = 0; i < j->nr_bssplit[d]; i++) {
			if (j->bssplit[d][i].bs < a)
				a = j->bssplit[d][i].bs;
			if (j->bssplit[d][i].bs > b)
				b = j->bssplit[d][i].bs;
		}
		if (a < *lo)
			*lo = a;
		if (b > *hi)
			*hi = b;
	}
}

/* The bytes of a target a job covers: size=, size=N% or the rest of it. */
static uint64_t job_span(const struct bq_job *j, const struct bq_target_info *ti)
{
	uint64_t rest = ti->size > j->offset ? ti->size - j->offset : 0;

	if (j->size_pct)
		return rest / 100 * j->size_pct / ti->lbs * ti->lbs;
	return j->size ? j->size : rest;
}

/*
 * offset=N%: that share of the target, rounded up to offset_align or else
 * to the smallest block size (@lo), as fio's get_start_offset() does.
 */
static int offset_pct_bytes(struct bq_job *j, const struct bq_target_info *ti, uint32_t lo,
			    struct bq_parse_error *err)
{
	uint64_t align = j->offset_align ? j->offset_align : lo, off;

	if (!j->offset_pct)
		return 0;
	off = ti->size / 100 * j->offset_pct + ti->size % 100 * j->offset_pct / 100;
	off = (off + align - 1) / align * align;
	if (off >= ti->size)
		return bq_fail_at(err, ti->path, -EINVAL, "offset=%u%% (%" PRIu64 " bytes) leaves "
				  "nothing of its %" PRIu64 " bytes", j->offset_pct, off, ti->size);
	j->offset = off;
	return 0;
}

static bool all_sizes_aligned(const struct bq_job *j, uint32_t lbs)
{
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (j->bs[d] % lbs || j->bs_min[d] % lbs || j->bs_max[d] % lbs)
			return false;
		for (int i = 0; i < j->nr_bssplit[d]; i++)
			if (j->bssplit[d][i].bs % lbs)
				return false;
	}
	return !(j->offset % lbs) && !(j->ba % lbs);
}

/* offset= and size= must fit the target and hold the largest block. */
static int check_region(const struct bq_job *j, const struct bq_target_info *ti, uint32_t hi,
			struct bq_parse_error *err)
{
	uint64_t span;

	if (j->offset >= ti->size)
		return bq_fail_at(err, ti->path, -EINVAL, "offset=%llu is past the end (%llu bytes)",
				  (unsigned long long)j->offset, (unsigned long long)ti->size);
	span = job_span(j, ti);
	if (j->offset + span > ti->size)
		return bq_fail_at(err, ti->path, -EINVAL,
				  "offset+size=%llu is past the end (%llu bytes)",
				  (unsigned long long)(j->offset + span),
				  (unsigned long long)ti->size);
	if (span < hi)
		return bq_fail_at(err, ti->path, -EINVAL,
				  "the region (%llu bytes) is smaller than the block size %u",
				  (unsigned long long)span, hi);
	return 0;
}


/*
 * A file opendir= found (jobopt_opendir.c): opened again beneath the
 * directory only, no symlink followed, and still a regular file; a link
 * or a device node put under its name since is refused.
 */
static int open_found(struct run_state *st, const struct bq_job *oj, const struct bq_job *j,
		      int i, struct bq_target_info *ti, int *fd, struct bq_parse_error *err)
{
	const char *path = j->filenames[i];
	struct stat sb;
	int root, pfd, e, h;

	root = open(j->opendir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return bq_fail_at(err, j->opendir, -errno, "opendir: %s", strerror(errno));
	pfd = bq_openat_beneath(root, path + strlen(j->opendir) + 1, O_PATH, 0);
	e = errno;
	close(root);
	if (pfd < 0)
		return bq_fail_at(err, path, -e, "opendir= found a regular file here: %s",
				  e == ELOOP || e == EXDEV ? "now a symlink, not followed" :
				  strerror(e));
	if (fstat(pfd, &sb) || !S_ISREG(sb.st_mode)) {
		close(pfd);
		return bq_fail_at(err, path, -ENOTBLK, "opendir= found a regular file here, "
				  "now something else");
	}
	h = bq_target_open_at(st->ctx, oj, pfd, path, false, st->opts->guard, &st->held, ti,
			      fd, err);
	return h < 0 ? h : 0;
}

/*
 * --stripe: the members become one array with md's RAID0 layout, and the
 * job's offsets and sizes are the array's.
 */
static int stripe_setup(struct bq_job_result *jr, struct job_state *js, uint32_t hi,
			struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	uint64_t sectors[BQ_MAX_FILES];
	uint32_t lbs = 512;
	int ret;

	if (!bq_engine_has(j->engine, BQ_ENGINE_STRIPES))
		return bq_fail_at(err, "--stripe", -EINVAL, "striping needs ioengine=io_uring");
	if (j->nr_files < 2)
		return bq_fail_at(err, "--stripe", -EINVAL, "needs at least two members");
	for (int i = 0; i < jr->nr_targets; i++) {
		sectors[i] = jr->targets[i].size >> 9;
		if (jr->targets[i].lbs > lbs)
			lbs = jr->targets[i].lbs;
	}
	if (j->stripe_chunk % lbs)
		return bq_fail_at(err, "--stripe", -EINVAL, "chunk %llu is not a multiple of the "
				  "members' logical block size %u",
				  (unsigned long long)j->stripe_chunk, lbs);
	ret = bq_raid0_init(&js->raid, sectors, NULL, jr->nr_targets, j->stripe_chunk >> 9,
			    (enum bq_raid0_layout)j->stripe_layout);
	if (ret)
		return bq_fail_at(err, "--stripe", ret, "these members cannot form a RAID0%s",
				  ret == -EOPNOTSUPP ? ": they differ in size, name a layout" : "");
	snprintf(js->logical.path, sizeof(js->logical.path), "stripe of %d", jr->nr_targets);
	js->logical.size = bq_raid0_size(&js->raid) << 9;
	js->logical.lbs = lbs;
	jr->stripe_size = js->logical.size;
	return check_region(j, &js->logical, hi, err);
}

static int open_job_targets(struct run_state *st, struct bq_job_result *jr,
			    struct job_state *js, struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	bool passthru = bq_engine_has(j->engine, BQ_ENGINE_PASSTHRU);
	uint32_t lo, hi;
	int ret;

	if (bq_engine_has(j->engine, BQ_ENGINE_DISKLESS))
		return 0;
	/* A character device has no fsync and no O_DSYNC; NVMe Flush and FUA are not done. */
	if (passthru && (j->sync || j->fsync_every))
		return bq_fail_at(err, j->sync ? "sync" : "fsync", -EOPNOTSUPP,
			    "not supported with ioengine=io_uring_cmd");
	/*
	 * No filename=: the files fio would name, opened all at once; or
	 * several named files, or filesize=, which share size= out as fio
	 * does (fileset.c).
	 */
	if (!j->nr_files)
		ret = bq_fileset_open(st, jr, js, err);
	else
		ret = bq_fileset_plan(st, jr, js, err);
	if (ret)
		return ret;
	bs_bounds(j, &lo, &hi);
	for (int i = 0; i < (j->nr_files ? j->nr_files : jr->nr_targets); i++) {
		struct bq_target_info *ti = &jr->targets[i];
		const struct bq_job *oj = j;
		struct bq_job part;

		if (j->nr_files && js->fset) {
			part = *j;
			part.size = js->fset->span[i];
			part.offset = js->fset->off[i];
			oj = &part;
		}
		if (j->nr_files) {
			if (i >= j->nr_files - j->nr_opendir_files)
				ret = open_found(st, oj, j, i, ti, &js->fds[i], err);
			else
				ret = bq_target_open(st->ctx, oj, j->filenames[i], st->opts->guard,
						     &st->held, ti, &js->fds[i], err);
			jr->nr_targets = i + 1;
			ret = ret ?: bq_fileset_judge_unlink(st, jr, i, err);
			ret = ret ?: bq_fill_prepare(j, js->fds[i], ti, err);
			if (ret)
				return ret;
		}
		/* size=8z and the like: bytes once the zone size is known; offset=N% too. */
		if (!i) {
			ret = bq_zbd_zone_units(&jr->job, js->fds[0], ti, err);
			ret = ret ?: offset_pct_bytes(&jr->job, ti, lo, err);
			if (ret)
				return ret;
		}
		if (j->pre_read) {
			ret = bq_fileset_pre_read(js->fds[i], js->fset ? js->fset->off[i] : j->offset,
						  js->fset ? js->fset->span[i] : job_span(j, ti));
			if (ret)
				return bq_fail_at(err, ti->path, ret, "pre_read: %s", strerror(-ret));
		}
		if ((j->direct || passthru) && !all_sizes_aligned(j, ti->lbs))
			return bq_fail_at(err, ti->path, -EINVAL,
				    "block sizes, offset and ba must be multiples of %s %u "
				    "for %s", bq_target_align_name(ti), ti->lbs,
				    passthru ? "NVMe passthrough" : "direct I/O");
		if (ti->max_io && hi > ti->max_io)
			return bq_fail_at(err, ti->path, -EINVAL,
				    "block size %u is larger than one command can carry here "
				    "(%u bytes)", hi, ti->max_io);
		if (!j->stripe && j->nr_files) {
			ret = check_region(oj, ti, hi, err);
			ret = ret ?: bq_pattern_check(oj, ti, job_span(oj, ti), lo, err);
			ret = ret ?: bq_zbd_check(oj, js->fds[i], ti, job_span(oj, ti), err);
			if (ret)
				return ret;
		}
	}
	if (j->stripe) {
		ret = stripe_setup(jr, js, hi, err);
		if (ret)
			return ret;
	}
	return bq_poll_decide(st->ctx, j, jr->targets, jr->nr_targets, hi, &jr->polled,
			      jr->poll_note, sizeof(jr->poll_note), err);
}

/* cpus_allowed as a list of online CPUs. */
static int allowed_cpus(const struct bq_job *j, const struct bq_topology *t, int **out,
			int *nr, struct bq_parse_error *err)
{
	int *cpus;
	int n;

	*out = NULL;
	*nr = 0;
	if (!j->cpus_allowed[0])
		return 0;
	cpus = calloc(8192, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	n = bq_cpulist_parse(j->cpus_allowed, cpus, 8192);
	if (n <= 0) {
		free(cpus);
		return bq_fail_at(err, "cpus_allowed", -EINVAL, "'%s' is not a CPU list", j->cpus_allowed);
	}
	for (int i = 0; i < n; i++) {
		bool online = false;

		for (int k = 0; k < t->nr_nodes && !online; k++)
			for (int c = 0; c < t->node_nr_cpus[k] && !online; c++)
				online = t->node_cpus[k][c] == cpus[i];
		if (!online) {
			int cpu = cpus[i];

			free(cpus);
			return bq_fail_at(err, "cpus_allowed", -EINVAL, "CPU %d is not online", cpu);
		}
	}
	*out = cpus;
	*nr = n;
	return 0;
}

static int job_dev_node(const struct bq_job_result *jr)
{
	return jr->nr_targets ? jr->targets[0].numa_node : -1;
}

static bool in_group(const struct bq_job_result *jr, const struct bq_job_result *only)
{
	return only ? jr == only : !jr->job.cpus_allowed[0];
}

/*
 * Place the threads of @only, or of every job without cpus_allowed when
 * @only is NULL: those are placed in one call so that they spread over the
 * CPUs together.  Workers come first, SQPOLL pollers take what is left.
 */
static int place_group(struct run_state *st, const struct bq_topology *topo,
		       const struct bq_job_result *only, struct bq_parse_error *err)
{
	int n = 0, at = 0, nr_allowed = 0, *allowed = NULL, *dev, *cpu, *node, ret;
	struct bq_place_req req;

	for (size_t k = 0; k < st->res->nr; k++)
		if (in_group(&st->res->jobs[k], only))
			n += (int)st->res->jobs[k].job.numjobs * (st->res->jobs[k].job.sqpoll ? 2 : 1);
	if (!n)
		return 0;
	if (only) {
		ret = allowed_cpus(&only->job, topo, &allowed, &nr_allowed, err);
		if (ret)
			return ret;
		if ((int)only->job.numjobs > nr_allowed) {
			free(allowed);
			return bq_fail_at(err, "numjobs", -EINVAL,
					  "numjobs=%u but cpus_allowed=%s names %d CPUs",
					  only->job.numjobs, only->job.cpus_allowed, nr_allowed);
		}
	}
	dev = calloc((size_t)n, sizeof(int));
	cpu = calloc((size_t)n, sizeof(int));
	node = calloc((size_t)n, sizeof(int));
	ret = dev && cpu && node ? 0 : -ENOMEM;
	for (int pass = 0; !ret && pass < 2; pass++)
		for (size_t k = 0; k < st->res->nr; k++) {
			const struct bq_job_result *jr = &st->res->jobs[k];

			if (!in_group(jr, only) || (pass && !jr->job.sqpoll))
				continue;
			for (unsigned int i = 0; i < jr->job.numjobs; i++)
				dev[at++] = job_dev_node(jr);
		}
	if (!ret) {
		req = (struct bq_place_req){
			.nr_threads = n, .dev_node = dev, .allowed = allowed, .nr_allowed = nr_allowed,
		};
		ret = bq_place(topo, &req, cpu, node);
		if (ret)
			bq_fail_at(err, "cpus_allowed", ret, "no CPU to run on");
	}
	at = 0;
	for (int pass = 0; !ret && pass < 2; pass++)
		for (size_t k = 0; k < st->res->nr; k++) {
			struct bq_job_result *jr = &st->res->jobs[k];

			if (!in_group(jr, only) || (pass && !jr->job.sqpoll))
				continue;
			for (unsigned int i = 0; i < jr->job.numjobs; i++, at++) {
				struct bq_worker *w = &st->workers[st->js[k].first_worker + (int)i];

				if (pass) {
					w->sqpoll_cpu = cpu[at];
					continue;
				}
				w->cpu = jr->threads[i].cpu = cpu[at];
				w->node = jr->threads[i].node = node[at];
				w->sqpoll_cpu = -1;
			}
		}
	free(allowed);
	free(dev);
	free(cpu);
	free(node);
	return ret;
}

static bool cpu_online(const struct bq_topology *t, unsigned int cpu)
{
	for (int n = 0; n < t->nr_nodes; n++)
		for (int i = 0; i < t->node_nr_cpus[n]; i++)
			if (t->node_cpus[n][i] == (int)cpu)
				return true;
	return false;
}

/* sqthread_poll_cpu overrides placement for the job's SQ poll threads, as in fio. */
static int pin_sqpoll(struct run_state *st, const struct bq_topology *topo, size_t k,
		      struct bq_parse_error *err)
{
	const struct bq_job *j = &st->res->jobs[k].job;

	if (!j->sqpoll || !j->sqpoll_cpu_set)
		return 0;
	if (!cpu_online(topo, j->sqpoll_cpu))
		return bq_fail_at(err, "sqthread_poll_cpu", -EINVAL, "CPU %u is not online",
				  j->sqpoll_cpu);
	for (unsigned int i = 0; i < j->numjobs; i++)
		st->workers[st->js[k].first_worker + (int)i].sqpoll_cpu = (int)j->sqpoll_cpu;
	return 0;
}

static int place_threads(struct run_state *st, struct bq_parse_error *err)
{
	struct bq_topology topo;
	int ret;

	ret = bq_topology_read(st->ctx, &topo);
	if (ret)
		return bq_fail_at(err, "placement", ret, "cannot read the CPU topology: %s",
				  strerror(-ret));
	ret = place_group(st, &topo, NULL, err);
	for (size_t k = 0; !ret && k < st->res->nr; k++)
		if (st->res->jobs[k].job.cpus_allowed[0] &&
		    st->res->jobs[k].job.cpus_policy == BQ_CPUS_PLACED)
			ret = place_group(st, &topo, &st->res->jobs[k], err);
	if (!ret)
		ret = run_place_policy(st, err);
	for (size_t k = 0; !ret && k < st->res->nr; k++)
		ret = pin_sqpoll(st, &topo, k, err);
	bq_topology_free(&topo);
	return ret;
}

static uint32_t random_unit(const struct bq_job *j)
{
	uint32_t lo, hi;

	if (j->ba)
		return j->ba;
	bs_bounds(j, &lo, &hi);
	return lo;
}

/*
 * The bytes fio moves over a region that is not a multiple of the one
 * block size: whole blocks only, never a cut one.  Sequentially, the
 * last block starts inside the region and may end past it, where the
 * target has room (size=32m, bs=4160 on a larger device: 8066 blocks);
 * where it has none, the region ends short (size=1G on a 1 GiB
 * namespace: 258111).  At random, the map holds the blocks that fit
 * (8065); without the map, fio draws until it has the size (8066).
 */
static uint64_t whole_blocks(const struct bq_worker *w, const struct bq_file_state *f,
			     uint32_t bs)
{
	uint64_t n = f->span / bs;

	if (f->span % bs && (w->random ? !f->gen.randommap : (n + 1) * bs <= f->limit))
		n++;
	/* A region smaller than a block still does one (slid back or cut). */
	return n ? n * bs : f->span;
}

static int init_worker(struct run_state *st, struct bq_job_result *jr, struct job_state *js,
		       int index, struct bq_worker *w)
{
	const struct bq_job *j = &jr->job;
	uint64_t seed = j->randrepeat || j->allrandrepeat ? j->randseed :
			j->randseed ^ bq_now_ns();
	struct bq_offgen_params rp = {
		.nblocks = 1, .seed = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)index,
	};
	int first = 0, nr = j->nr_files, thread_number;
	uint64_t total = 0, spans = 0;
	uint32_t lo, hi;
	int ret;

	w->job = j;
	w->jr = jr;
	w->clk = st->clk;
	if (j->os_clock)
		w->clk.on = false;
	jr->clock_mhz = bq_tsc_mhz(&w->clk);
	w->res = &jr->threads[index];
	w->ops = bq_engine_ops_of(j->engine);
	w->index = index;
	w->polled = jr->polled;
	w->stop = st->halt;
	w->threads = st->threads;
	w->run_opts = st->opts;
	w->depth = j->iodepth ? j->iodepth : 1;
	if (w->depth > 65535)
		w->depth = 65535;
	bs_bounds(j, &lo, &hi);
	/* Whole pages per slot keep every buffer aligned for O_DIRECT. */
	w->buf_len = ((size_t)hi + 4095) & ~(size_t)4095;
	w->unit = random_unit(j);
	w->random = j->rw == BQ_RW_RANDREAD || j->rw == BQ_RW_RANDWRITE || j->rw == BQ_RW_RANDRW;
	for (int d = 0; d < BQ_NR_DIRS; d++)
		w->varbs |= j->nr_bssplit[d] || j->bs_min[d] != j->bs_max[d];
	w->slots = calloc(w->depth, sizeof(*w->slots));
	if (!w->slots)
		return -ENOMEM;
	w->nr_slots = w->depth;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		ret = bq_hist_init(&w->res->d[d].lat);
		if (ret)
			return ret;
	}
	ret = bq_hist_init(&w->res->trim.lat);
	if (ret)
		return ret;
	bq_offgen_init(&w->rng, &rp);

	/* A file set gives each numjobs clone files of its own, as fio does. */
	if (js->fset) {
		first = js->fset->first[index];
		nr = js->fset->count[index];
	}
	w->nr_files = bq_engine_has(j->engine, BQ_ENGINE_DISKLESS) || j->stripe ? 1 : nr;
	w->files = calloc((size_t)(w->nr_files > 0 ? w->nr_files : 1), sizeof(*w->files));
	if (!w->files)
		return -ENOMEM;
	w->nr_fds = bq_engine_has(j->engine, BQ_ENGINE_DISKLESS) ? 0 : nr;
	for (int i = 0; i < w->nr_fds; i++)
		w->fds[i] = js->fds[first + i];
	if (j->stripe && j->nr_files > 0) {
		w->stripe = &js->raid;
		w->res->members = calloc((size_t)(unsigned int)j->nr_files,
					 sizeof(*w->res->members));
		if (!w->res->members)
			return -ENOMEM;
		w->res->nr_members = j->nr_files;
		for (int i = 0; i < j->nr_files; i++) {
			ret = bq_hist_init(&w->res->members[i].lat);
			if (ret)
				return ret;
		}
	}
	for (int i = 0; i < w->nr_files; i++) {
		struct bq_file_state *f = &w->files[i];
		const struct bq_target_info *ti = j->stripe ? &js->logical : &jr->targets[first + i];
		/* zoned and sequence draw their own blocks (pattern.c), with no map as in fio. */
		bool zoned = j->dist == BQ_DIST_ZONED || j->dist == BQ_DIST_ZONED_ABS ||
			     j->dist == BQ_DIST_SEQUENCE;
		bool lfsr = j->random_generator == BQ_RANDGEN_LFSR;
		bool ba_nomap = j->ba && (j->ba != j->bs_min[BQ_READ] ||
					  j->ba != j->bs_min[BQ_WRITE]);
		struct bq_offgen_params p = {
			/* lfsr never repeats a block, map or not; zoned draws its own blocks. */
			.random = w->random, .norandommap = (j->norandommap && !lfsr) || zoned,
			.dist = zoned ? BQ_DIST_RANDOM : j->dist,
			.param = j->dist_param, .seed = rp.seed + 0x1000ULL * (uint64_t)(i + 1),
		};
		uint64_t range;

		f->base = js->fset ? js->fset->off[first + i] : j->offset;
		if (bq_engine_has(j->engine, BQ_ENGINE_DISKLESS)) {
			f->span = j->size ? j->size : 1ULL << 30;
			f->limit = f->span;
		} else if (js->fset) {
			/* A file set's region is its own: patterns stay inside it. */
			f->span = js->fset->span[first + i];
			f->limit = f->span;
		} else {
			f->span = job_span(j, ti);
			f->base = bq_pattern_base(j, ti->size, index, lo);
			/* fio: without size=, each thread's region is the rest from its start. */
			if (!j->size && !j->size_pct && f->base != j->offset)
				f->span = ti->size - f->base;
			f->limit = ti->size - f->base;
		}
		if (j->zonemode == BQ_ZONEMODE_ZBD && w->nr_fds) {
			ret = bq_zbd_worker_init(w, ti, f);
			if (ret)
				return ret;
		}
		range = bq_job_strided(j) ? (j->zone_range ? j->zone_range : j->zone_size) :
			f->span;
		p.nblocks = range / w->unit ? range / w->unit : 1;
		ret = bq_offgen_init(&f->gen, &p);
		if (ret)
			return ret;
		/*
		 * Several block sizes need a map to cover each unit once (see
		 * worker_map_pick()); in fio, a blockalign other than each
		 * direction's smallest size turns it off.
		 */
		if (f->gen.randommap && lo != hi && !lfsr && !(w->varbs && ba_nomap)) {
			/* fio's map has a bit per smallest size, whatever the alignment. */
			f->map = bq_bsmap_new(w->varbs && range / lo ? range / lo : p.nblocks);
			/* softrandommap: go on without the map, as fio does. */
			if (!f->map && !j->softrandommap)
				return -ENOMEM;
		}
		if (!bq_engine_has(j->engine, BQ_ENGINE_DISKLESS) && !js->fset && lo && lo == hi &&
		    !j->io_size) {
			total += whole_blocks(w, f, lo);
			w->loop_block = lo;
		} else {
			total += f->span;
		}
		spans += f->span;
	}
	if (js->fset)
		total = spans = js->fset->bytes[index];
	w->bytes_left = j->time_based ? UINT64_MAX : j->io_size ? j->io_size : total;
	/* fio counts loops=N as N times the size, in whole blocks or not. */
	w->loops_left = w->loop_block ? spans * (j->loops ? j->loops : 1) : UINT64_MAX;
	if (j->sprandom) {
		ret = bq_sprandom_worker_init(w);
		if (ret)
			return ret;
	}
	w->size_bytes = total;
	/* create_only: the files are laid out, and that is the whole job. */
	if (j->create_only)
		w->bytes_left = 0;
	if (js->fset || (w->nr_files > 1 && !j->stripe &&
			 (j->file_service != BQ_FSRV_ROUNDROBIN || j->file_service_nr != 1 ||
			  (j->openfiles && (int)j->openfiles < w->nr_files)))) {
		ret = bq_fsrv_init(w);
		if (ret)
			return ret;
	}
	/* fio 3.33 does not stop a time-based job at number_ios. */
	w->ios_left = j->number_ios && !j->time_based ? j->number_ios : UINT64_MAX;
	w->pattern = worker_pattern_wanted(j);
	if (w->pattern)
		worker_pattern_init(w);
	if (j->read_iolog[0] || j->write_iolog[0]) {
		ret = bq_iolog_worker_init(w, jr->targets ? &jr->targets[first] : NULL);
		if (ret)
			return ret;
	}
	/* fio numbers the threads of the whole run from 1; its log names carry the number. */
	thread_number = (st->order ? st->order->threads_before : 0) + (int)(w - st->workers) + 1;
	ret = bq_statlog_worker_init(w, thread_number);
	if (ret)
		return ret;
	/* Several block sizes: fio's draws, or its I/O count is not (fiorand.c). */
	if (w->varbs) {
		w->fio = calloc(1, sizeof(*w->fio));
		if (!w->fio)
			return -ENOMEM;
		bq_fiodraw_init(w->fio, j, thread_number, seed ^ bq_now_ns());
	}
	if (js->verify)
		return bq_verify_worker_init(js->verify, w, index);
	return 0;
}

static void run_work(void *arg, int i)
{
	struct run_state *st = arg;

	worker_run(&st->workers[i]);
}

static uint64_t planned_end(const struct run_state *st)
{
	uint64_t end = 0;

	for (size_t k = 0; k < st->res->nr; k++) {
		const struct bq_job *j = &st->res->jobs[k].job;
		uint64_t e;

		if (!j->runtime_ns)
			return 0;
		e = j->startdelay_ns + j->ramp_ns + j->runtime_ns;
		if (e > end)
			end = e;
	}
	return end;
}

static void progress(struct run_state *st, uint64_t now, bool interval_done)
{
	struct bq_progress p = { .elapsed_ns = now - st->t0, .interval_done = interval_done,
				 .phase = st->res };
	uint64_t end = planned_end(st);

	if (!st->opts->progress)
		return;
	for (int i = 0; i < st->nr_workers; i++)
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			p.ios += st->workers[i].res->d[d].ios;
			p.bytes += st->workers[i].res->d[d].bytes;
		}
	if (end && end > p.elapsed_ns)
		p.eta_ns = end - p.elapsed_ns;
	run_order_progress(st, &p);
	st->opts->progress(st->opts->arg, &p);
}

/*
 * A target that shrank ends the run: a loop device whose backing file was
 * truncated, a disk that went away (its size drops to 0 while we hold it
 * open).  Every I/O beyond the new end fails; going on measures nothing.
 */
static bool target_shrank(struct run_state *st, uint64_t now)
{
	bool gone = false;

	for (size_t k = 0; k < st->res->nr; k++) {
		struct bq_job_result *jr = &st->res->jobs[k];

		for (int i = 0; i < jr->nr_targets; i++) {
			const struct bq_target_info *ti = &jr->targets[i];
			int fd = st->js[k].fds[i];
			uint64_t size, was;
			struct stat sb;

			/* A file being filled grows from empty (fill.c). */
			if (fd < 0 || (jr->job.fill_device && !ti->is_blk))
				continue;
			if (ti->is_blk) {
				if (ioctl(fd, BLKGETSIZE64, &size))
					continue;
			} else {
				if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
					continue;
				size = (uint64_t)sb.st_size;
			}
			/* A file a job writes may be shorter than its region: the writes fill it. */
			was = ti->is_blk ? ti->size : (uint64_t)ti->st.st_size;
			if (size >= was)
				continue;
			if (!jr->fault[0])
				snprintf(jr->fault, sizeof(jr->fault),
					 "%.160s shrank from %llu to %llu bytes %.1fs into the run",
					 ti->path, (unsigned long long)was,
					 (unsigned long long)size, (double)(now - st->t0) / 1e9);
			gone = true;
		}
	}
	return gone;
}

/* When the last thread of job @k finished its I/O; 0 while one still runs. */
uint64_t run_job_ended(const struct run_state *st, size_t k)
{
	const struct bq_job_result *jr = &st->res->jobs[k];
	uint64_t last = 0;

	for (int i = 0; i < jr->nr_threads; i++) {
		const struct bq_worker *w = &st->workers[st->js[k].first_worker + i];
		uint64_t fin = __atomic_load_n(&w->finished_ns, __ATOMIC_ACQUIRE);

		if (!fin)
			return 0;
		if (fin > last)
			last = fin;
	}
	return last;
}

/* The monitor's round: a gone target, ramp_time's end, interval samples, progress. */
static uint64_t run_tick(void *arg, uint64_t now)
{
	struct run_state *st = arg;
	uint64_t t0 = st->t0, iv = st->opts->interval_ns, want;
	bool sampled = false;

	if (!st->res->gone && target_shrank(st, now)) {
		st->res->gone = true;
		*st->halt = 1;
	}
	for (size_t k = 0; k < st->res->nr; k++) {
		const struct bq_job *j = &st->res->jobs[k].job;
		uint64_t ended = run_job_ended(st, k);

		/* A job that ended while others go on: its device counters end with it. */
		if (ended && !st->js[k].stats_done) {
			run_finish_diskstats(st, &st->res->jobs[k]);
			st->js[k].stats_done = true;
		}
		/* Re-read them where ramp_time ends, as the workers reset; not past the job's end. */
		if (j->ramp_ns && !st->js[k].ramp_sampled &&
		    now >= t0 + j->startdelay_ns + j->ramp_ns) {
			if (!st->js[k].stats_done)
				run_sample_diskstats(st, &st->res->jobs[k]);
			st->js[k].ramp_sampled = true;
		}
	}
	if (now >= st->next_iv) {
		for (size_t k = 0; k < st->res->nr; k++)
			run_sample_interval(st, k, st->next_iv - t0 + run_order_offset(st));
		st->next_iv += iv;
		sampled = true;
	}
	if (now >= st->next_tick || sampled) {
		progress(st, now, sampled);
		st->next_tick = now + PROGRESS_TICK_NS;
	}
	run_status_tick(st, now);
	want = run_order_tick(st, now);
	if (st->next_tick < want)
		want = st->next_tick;
	if (st->order && st->order->next_status_ns && st->order->next_status_ns < want)
		want = st->order->next_status_ns;
	return want < st->next_iv ? want : st->next_iv;
}

static const struct bq_threads_ops run_threads_ops = {
	.work = run_work,
	.progress = run_completions,
	.stuck = run_worker_stuck,
	.straggler = run_record_stall,
	.tick = run_tick,
};

static void monitor(struct run_state *st)
{
	uint64_t iv = st->opts->interval_ns;

	st->next_tick = st->t0 + PROGRESS_TICK_NS;
	st->next_iv = iv ? st->t0 + iv : UINT64_MAX;
	st->stall_ns = bq_threads_monitor(st->threads);
	if (st->stall_ns)
		return;
	/* A thread that stopped at its first failure may have beaten the check. */
	if (!st->res->gone && target_shrank(st, bq_now_ns()))
		st->res->gone = true;
	/*
	 * The last stretch: usually the drain, a few milliseconds with the
	 * queue emptying.  Shorter than half an interval, it joins the one
	 * before (so no rate is taken over a sliver, and nothing is left
	 * out); longer, it is an interval of its own, its length its own.
	 */
	if (iv && bq_now_ns() > st->next_iv - iv) {
		uint64_t t = bq_now_ns() - st->t0;
		bool fold = bq_now_ns() - (st->next_iv - iv) < iv / 2;

		for (size_t k = 0; k < st->res->nr; k++) {
			struct bq_job_result *jr = &st->res->jobs[k];

			if (fold && jr->nr_intervals) {
				run_mark_copy(&st->js[k].prev, &st->js[k].before);
				jr->nr_intervals--;
			}
			run_sample_interval(st, k, t + run_order_offset(st));
		}
		progress(st, bq_now_ns(), true);
	}
}

/* Wait for the started threads to set up, then let them go (or call it off). */
static int start_line(struct run_state *st, int started, int ret, struct bq_parse_error *err)
{
	bq_threads_wait_arrived(st->threads);
	for (int i = 0; !ret && i < started; i++) {
		struct bq_worker *w = &st->workers[i];

		if (w->setup_err)
			ret = bq_fail_at(err, w->job->name, w->setup_err, "%s", w->setup_msg);
	}
	if (!ret)
		for (size_t k = 0; k < st->res->nr; k++)
			run_sample_diskstats(st, &st->res->jobs[k]);
	bq_threads_open(st->threads, !ret);
	st->t0 = bq_threads_t0(st->threads);
	if (st->order && !st->order->first_t0_ns)
		st->order->first_t0_ns = st->t0;
	return ret;
}

/**
 * run_job_began() - when job @k's first thread started
 * @st: the run
 * @k: the job
 *
 * Return: after its startdelay, or when its wait_for job ended; the
 * planned start while no thread has started.
 */
uint64_t run_job_began(const struct run_state *st, size_t k)
{
	const struct bq_job_result *jr = &st->res->jobs[k];
	uint64_t began = UINT64_MAX;

	for (int i = 0; i < jr->nr_threads; i++) {
		uint64_t s = st->workers[st->js[k].first_worker + i].start_ns;

		if (s && s < began)
			began = s;
	}
	return began == UINT64_MAX ? st->t0 + jr->job.startdelay_ns : began;
}

/*
 * A job bounded by size can run out inside its ramp_time: its threads
 * never restarted their figures, so the runtime starts with the job, and
 * a note says so (fio counts such a job the same way).
 */
static uint64_t measured_from(struct run_state *st, size_t k)
{
	struct bq_job_result *jr = &st->res->jobs[k];
	const struct bq_job *j = &jr->job;
	uint64_t began = run_job_began(st, k);
	int inside = 0;

	if (!j->ramp_ns)
		return began;
	for (int i = 0; i < jr->nr_threads; i++)
		inside += !st->workers[st->js[k].first_worker + i].ramp_ended;
	if (!inside)
		return began + j->ramp_ns;
	if (inside == jr->nr_threads)
		run_job_note(jr, "the job ended inside its ramp_time of %.3gs: its figures include "
			 "the ramp", (double)j->ramp_ns / 1e9);
	else
		run_job_note(jr, "%d of its threads ended inside its ramp_time of %.3gs: their "
			 "figures include the ramp", inside, (double)j->ramp_ns / 1e9);
	return inside == jr->nr_threads ? began : began + j->ramp_ns;
}

static void finish_jobs(struct run_state *st)
{
	for (size_t k = 0; k < st->res->nr; k++) {
		struct bq_job_result *jr = &st->res->jobs[k];
		uint64_t start = measured_from(st, k), end = start;

		for (int i = 0; i < jr->nr_threads; i++) {
			int n = st->js[k].first_worker + i;
			const struct bq_worker *w = &st->workers[n];
			uint64_t fin = bq_threads_stalled(st->threads, n) ? st->stall_ns :
								       w->finished_ns;

			if (fin > end)
				end = fin;
		}
		jr->runtime_ns = end - start;
		jr->start_unix_ns = st->res->start_unix_ns + (start - st->t0);
		jr->end_unix_ns = st->res->start_unix_ns + (end - st->t0);
		if (!st->js[k].stats_done)
			run_finish_diskstats(st, jr);
		run_cache_note(jr);
	}
}

/*
 * The kernel counts passthrough commands in a block device's disk stats
 * only where queue/iostats_passthrough (Linux 6.14) is set; say so rather
 * than show an idle device.
 */
static void passthru_stats_note(struct run_state *st, struct bq_job_result *jr)
{
	for (int i = 0; i < jr->nr_targets; i++) {
		const char *name = jr->targets[i].devname;
		char path[PATH_MAX];
		int on = 0;

		if (!name[0] || bq_path(path, sizeof(path), st->ctx->sysfs,
					"/block/%s/queue/iostats_passthrough", name))
			continue;
		if (!bq_read_int(path, &on) && on == 1)
			continue;
		run_job_note(jr, "the disk stats of %s leave passthrough I/O out%s", name,
			 access(path, F_OK) ? "" : " (queue/iostats_passthrough=0)");
		return;
	}
}

/* verify=: the job's I/O is over; what its verify phase reads is not counted. */
static void verify_io_done(void *a, void *b)
{
	struct run_state *st = a;
	size_t k = (size_t)(uintptr_t)b;

	run_finish_diskstats(st, &st->res->jobs[k]);
	st->js[k].stats_done = true;
}

/* verify=: the state of every verifying job, once all targets are open. */

/*
 * The verify state covers every thread's region (offset_increment moves
 * them apart), its blocks counted from the job's offset: each thread's
 * start must fall on a verify block of that grid.
 */
static int verify_region(const struct bq_job_result *jr, uint64_t *span,
			 struct bq_parse_error *err)
{
	const struct bq_job *j = &jr->job;
	const struct bq_target_info *ti = &jr->targets[0];
	uint32_t vb = bq_job_verify_block(j), lo, hi;
	uint64_t end = 0;

	*span = 0;
	if (!jr->nr_targets || !vb)
		return 0;
	bs_bounds(j, &lo, &hi);
	for (int i = 0; i < jr->nr_threads; i++) {
		uint64_t base = bq_pattern_base(j, ti->size, i, lo), e;

		if ((base - j->offset) % vb)
			return bq_fail_at(err, "verify", -EINVAL, "thread %d starts at %llu, not a "
					  "whole number of verify blocks (%u) from offset %llu", i,
					  (unsigned long long)base, vb, (unsigned long long)j->offset);
		e = j->size || j->size_pct ? base + job_span(j, ti) : ti->size;
		/*
		 * Writes reach past the region: strided zones run on to the
		 * target's end, and a last whole block may end past it
		 * (whole_blocks()); the end below caps both.
		 */
		if (bq_job_strided(j))
			e = ti->size;
		else if (lo == hi && (e - base) % lo)
			e = base + (e - base + lo - 1) / lo * lo;
		if (e > end)
			end = e;
	}
	if (end > ti->size)
		end = ti->size;
	*span = end > j->offset ? end - j->offset : 0;
	return 0;
}
static int setup_verify(struct run_state *st, struct bq_parse_error *err)
{
	const char *state = st->opts->verify_state;
	int nr = 0, ret;

	for (size_t k = 0; k < st->res->nr; k++)
		nr += st->res->jobs[k].job.verify != 0;
	if (state && !nr)
		return bq_fail_at(err, "--verify-state", -EINVAL, "no job has verify=");
	if (state && nr > 1)
		return bq_fail_at(err, "--verify-state", -EINVAL, "one state file is for one job; "
				  "%d jobs have verify=", nr);
	for (size_t k = 0; k < st->res->nr; k++) {
		struct bq_job_result *jr = &st->res->jobs[k];
		uint64_t span;

		if (!jr->job.verify)
			continue;
		ret = verify_region(jr, &span, err);
		if (ret)
			return ret;
		ret = bq_verify_job_setup(st->ctx, jr, st->js[k].fds[0], jr->job.offset, span,
					  state, &st->js[k].verify, err);
		if (ret)
			return ret;
		st->js[k].verify->io_done = verify_io_done;
		st->js[k].verify->io_done_a = st;
		st->js[k].verify->io_done_b = (void *)(uintptr_t)k;
	}
	return 0;
}

static int setup_jobs(struct run_state *st, const struct bq_jobset *set,
		      struct bq_parse_error *err)
{
	struct bq_results *res = st->res;
	int ret, w = 0;

	res->jobs = calloc(set->nr, sizeof(*res->jobs));
	st->js = calloc(set->nr, sizeof(*st->js));
	if (!res->jobs || !st->js)
		return -ENOMEM;
	res->nr = set->nr;
	for (size_t k = 0; k < set->nr; k++)
		for (int i = 0; i < BQ_MAX_FILES; i++)
			st->js[k].fds[i] = -1;
	for (size_t k = 0; k < set->nr; k++) {
		struct bq_job_result *jr = &res->jobs[k];

		jr->job = set->jobs[k];
		if (!jr->job.numjobs)
			jr->job.numjobs = 1;
		st->js[k].first_worker = st->nr_workers;
		st->nr_workers += (int)jr->job.numjobs;
		jr->nr_threads = (int)jr->job.numjobs;
		jr->threads = calloc(jr->job.numjobs, sizeof(*jr->threads));
		if (!jr->threads)
			return -ENOMEM;
		ret = open_job_targets(st, jr, &st->js[k], err);
		if (ret)
			return ret;
		if (st->order && st->order->layout)
			bq_layout_mark(&st->order->layout[k], jr);
		if (bq_engine_has(jr->job.engine, BQ_ENGINE_SYNC) && jr->job.iodepth > 1)
			run_job_note(jr, "%s does one I/O at a time: iodepth=%u has no effect",
				 bq_engine_name(jr->job.engine), jr->job.iodepth);
		if (bq_engine_has(jr->job.engine, BQ_ENGINE_PASSTHRU))
			passthru_stats_note(st, jr);
	}
	ret = setup_verify(st, err);
	if (!ret)
		ret = run_trace_start(st, err);
	if (ret)
		return ret;
	st->workers = calloc((size_t)st->nr_workers, sizeof(*st->workers));
	st->threads = bq_threads_new(st->nr_workers, &run_threads_ops, st, st->stop);
	if (!st->workers || !st->threads)
		return -ENOMEM;
	st->halt = bq_threads_halt(st->threads);
	bq_threads_stop_now(st->threads, st->opts->stop_now);
	ret = place_threads(st, err);
	if (ret)
		return ret;
	/* An implausible TSC rate leaves the clock on CLOCK_MONOTONIC: nothing to stop for. */
	bq_tsc_anchor(&st->clk, true);
	for (size_t k = 0; k < set->nr; k++) {
		struct job_state *js = &st->js[k];

		for (int d = 0; d < BQ_NR_DIRS && st->opts->interval_ns; d++) {
			js->prev.buckets[d] = calloc(BQ_HIST_BUCKETS, sizeof(uint64_t));
			js->before.buckets[d] = calloc(BQ_HIST_BUCKETS, sizeof(uint64_t));
			if (!js->prev.buckets[d] || !js->before.buckets[d])
				return -ENOMEM;
		}
		for (int i = 0; i < res->jobs[k].nr_threads; i++, w++) {
			ret = init_worker(st, &res->jobs[k], js, i, &st->workers[w]);
			/* A log's own words ("write_iolog X: ...") say more than the errno. */
			if (ret)
				return bq_fail_at(err, res->jobs[k].job.name, ret, "%s",
						  st->workers[w].setup_msg[0] ?
						  st->workers[w].setup_msg : strerror(-ret));
			bq_threads_watch(st->threads, w, res->jobs[k].job.stall_timeout_ns);
		}
	}
	/* dedupe_global: each thread's buffers must be known to the others. */
	bq_buf_link(st->workers, st->nr_workers);
	return run_order_link(st, err);
}

static void teardown(struct run_state *st)
{
	char msg[128];

	for (int i = 0; st->workers && i < st->nr_workers; i++) {
		free(st->workers[i].slots);
		bq_zbd_worker_free(&st->workers[i]);
		free(st->workers[i].fsrv);
		bq_iolog_worker_free(&st->workers[i]);
		bq_sprandom_free(st->workers[i].spr);
		if (bq_statlog_worker_free(&st->workers[i], msg, sizeof(msg)))
			run_job_note(st->workers[i].jr, "%s", msg);
		for (int f = 0; st->workers[i].files && f < st->workers[i].nr_files; f++)
			free(st->workers[i].files[f].map);
		free(st->workers[i].files);
		free(st->workers[i].fio);
	}
	free(st->workers);
	run_trace_stop(st);
	for (size_t k = 0; st->js && k < st->res->nr; k++) {
		bq_verify_job_end(st->js[k].verify, &st->res->jobs[k],
				  st->threads && bq_threads_went(st->threads));
		for (int i = 0; i < BQ_MAX_FILES; i++)
			if (st->js[k].fds[i] >= 0)
				close(st->js[k].fds[i]);
		bq_fileset_end(&st->res->jobs[k], &st->js[k],
			       st->threads && bq_threads_went(st->threads));
		for (int d = 0; d < BQ_NR_DIRS; d++) {
			free(st->js[k].prev.buckets[d]);
			free(st->js[k].before.buckets[d]);
		}
	}
	free(st->js);
	bq_threads_free(st->threads);
	bq_held_release(&st->held);
}

int run_phase(struct bq_ctx *ctx, const struct bq_jobset *set, const struct bq_run_opts *opts,
	      struct run_order *order, struct bq_results *res, struct bq_parse_error *err)
{
	struct run_state st = { .ctx = ctx, .opts = opts, .res = res, .order = order };
	struct timespec wall;
	int ret, started = 0;

	memset(res, 0, sizeof(*res));
	memset(err, 0, sizeof(*err));
	st.stop = opts->stop ? opts->stop : &st.local_stop;
	if (!ctx || !bq_ctx_is_live(ctx))
		return bq_fail_at(err, "run", -EXDEV, "runs need the live system, not a captured tree");

	/* Set-up time is the TSC rate's first baseline (core/tsc.h). */
	bq_tsc_begin();
	ret = bq_held_borrow(&st.held, opts->pinned, opts->nr_pinned);
	if (ret)
		bq_fail_at(err, "run", ret, "too many targets opened by the caller");
	else
		ret = setup_jobs(&st, set, err);
	if (!ret) {
		ret = bq_threads_start(st.threads, &started);
		if (ret)
			bq_fail_at(err, "threads", ret, "cannot start thread %d: %s", started,
				   strerror(-ret));
	}
	if (started) {
		ret = start_line(&st, started, ret, err);
		clock_gettime(CLOCK_REALTIME, &wall);
		res->start_unix_ns = (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec;
		if (!ret)
			monitor(&st);
		/* A stuck thread may never come back: it is left, not joined. */
		bq_threads_join(st.threads);
		if (!ret) {
			finish_jobs(&st);
			progress(&st, bq_now_ns(), false);
		}
	}
	res->interrupted = *st.stop != 0;
	res->stalled = st.stall_ns != 0;
	if (res->stalled) {
		run_order_detach(&st);
		/* The workers never touch the trace: it ends here, not with them. */
		run_trace_stop(&st);
		run_abandon_stuck(&st);
	}
	else
		teardown(&st);
	if (ret && !err->msg[0])
		bq_fail_at(err, "run", ret, "%s", strerror(-ret));
	return ret;
}
