// SPDX-License-Identifier: GPL-2.0-only
/*
 * statlog.c - fio's per-I/O log files: write_lat_log (NAME_lat.N.log,
 * NAME_clat.N.log, NAME_slat.N.log), write_bw_log (NAME_bw.N.log) and
 * write_iops_log (NAME_iops.N.log), every I/O or averaged over
 * log_avg_msec; and cmdprio_bssplit's per-block-size priorities, which
 * the log_prio column shows
 *
 * The lines are formatted into a buffer per file as the I/Os complete and
 * written out a buffer at a time, so the I/O path makes no system call
 * for them; a job without logs pays one predicted branch per I/O
 * (worker_complete()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

#define NS_PER_MS	1000000ULL
#define LOG_BUF		(256 * 1024)
#define LINE_MAX_LEN	128

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_RT		1

/* The files, in the order fio makes them: lat, slat, clat, clat_hist, bw, iops. */
enum { F_LAT, F_SLAT, F_CLAT, F_HIST, F_BW, F_IOPS, NR_F };

static const char *const file_type[NR_F] = { "lat", "slat", "clat", "clat_hist", "bw",
					     "iops" };

/*
 * fio 3.33's latency histogram: 29 groups of 64 bins; a value under 128 ns
 * is its own bin, a larger one keeps its 6 bits below the leading one
 * (error under 1/128), the group given by how many bits went.
 */
#define HIST_BITS	6
#define HIST_VAL	(1U << HIST_BITS)
#define HIST_NR		(29 * HIST_VAL)

/**
 * struct hist_log - write_hist_log's state (log_hist_msec)
 * @cnt: per direction, completions per bin in the current window
 * @last_ms: per direction, where the window began
 * @started: per direction, a window has begun (at its first completion)
 */
struct hist_log {
	uint64_t cnt[BQ_NR_DIRS][HIST_NR];
	uint64_t last_ms[BQ_NR_DIRS];
	bool started[BQ_NR_DIRS];
};

/**
 * struct log_file - one log being written
 * @fd: the file; -1 when the job does not write it
 * @buf: lines not yet written, @len bytes
 * @sum: per direction, the current window's values (log_avg_msec)
 * @n: their number
 * @max: their largest
 * @last_ms: per direction, where the current window began
 */
struct log_file {
	int fd;
	char *buf;
	size_t len;
	uint64_t sum[BQ_NR_DIRS];
	uint64_t n[BQ_NR_DIRS];
	uint64_t max[BQ_NR_DIRS];
	uint64_t last_ms[BQ_NR_DIRS];
};

/**
 * struct bq_statlog - a worker's log files
 * @f: each file
 * @epoch_ns: time 0 of the logs: when the thread's I/O (or, after
 *	      ramp_time, its measured I/O) began; 0 until the first sample
 * @epoch_ms: added to every time: log_unix_epoch's clock at @epoch_ns
 * @avg_ms: log_avg_msec
 * @rate_last_ms: bw and iops with log_avg_msec: when the last rates were taken
 * @rate_next_ms: when the next are due
 * @bytes: per direction, bytes since then
 * @ios: per direction, I/Os since then
 * @hist: write_hist_log with log_hist_msec; NULL: none
 * @err: the first failed write(2), as -errno
 */
struct bq_statlog {
	struct log_file f[NR_F];
	uint64_t epoch_ns;
	uint64_t epoch_ms;
	unsigned int avg_ms;
	uint64_t rate_last_ms;
	uint64_t rate_next_ms;
	uint64_t bytes[BQ_NR_DIRS];
	uint64_t ios[BQ_NR_DIRS];
	struct hist_log *hist;
	int err;
};

/* Decimal digits of @v at @p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

static void flush_file(struct bq_statlog *sl, struct log_file *lf)
{
	size_t done = 0;

	while (done < lf->len) {
		ssize_t n = write(lf->fd, lf->buf + done, lf->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!sl->err)
				sl->err = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	lf->len = 0;
}

/*
 * One line as fio writes it: time (ms), value, direction, block size,
 * the offset with log_offset, then the priority: with log_prio the whole
 * ioprio value in hex, else 1 for the real-time class and 0 otherwise.
 */
static void put_line(struct bq_statlog *sl, const struct bq_job *j, struct log_file *lf,
		     uint64_t t_ms, uint64_t val, int dir, uint32_t bs, uint64_t off,
		     unsigned int prio)
{
	char *p = lf->buf + lf->len;

	p = put_sep(put_u64(p, t_ms + sl->epoch_ms));
	p = put_sep(put_u64(p, val));
	p = put_sep(put_u64(p, (uint64_t)dir));
	p = put_sep(put_u64(p, bs));
	if (j->log_offset)
		p = put_sep(put_u64(p, off));
	if (j->log_prio) {
		static const char hex[] = "0123456789abcdef";

		*p++ = '0';
		*p++ = 'x';
		for (int sh = 12; sh >= 0; sh -= 4)
			*p++ = hex[(prio >> sh) & 0xf];
	} else {
		*p++ = (prio >> IOPRIO_CLASS_SHIFT) == IOPRIO_CLASS_RT ? '1' : '0';
	}
	*p++ = '\n';
	lf->len = (size_t)(p - lf->buf);
	if (lf->len > LOG_BUF - LINE_MAX_LEN)
		flush_file(sl, lf);
}

/* log_avg_msec: the window's mean (rounded) or, with log_max_value, its maximum. */
static void put_window(struct bq_statlog *sl, const struct bq_job *j, struct log_file *lf,
		       int dir, uint64_t t_ms)
{
	if (lf->n[dir]) {
		uint64_t v = j->log_max_value ? lf->max[dir] :
			     (lf->sum[dir] + lf->n[dir] / 2) / lf->n[dir];

		put_line(sl, j, lf, t_ms, v, dir, 0, 0, 0);
	}
	lf->sum[dir] = lf->n[dir] = lf->max[dir] = 0;
}

/*
 * A latency with log_avg_msec: into its direction's window, which is
 * written once it is log_avg_msec old and starts again at the last
 * multiple of log_avg_msec, as fio's windows do.
 */
static void add_windowed(struct bq_statlog *sl, const struct bq_job *j, struct log_file *lf,
			 int dir, uint64_t t_ms, uint64_t v)
{
	lf->sum[dir] += v;
	lf->n[dir]++;
	if (v > lf->max[dir])
		lf->max[dir] = v;
	if (t_ms < lf->last_ms[dir] + sl->avg_ms)
		return;
	put_window(sl, j, lf, dir, t_ms);
	lf->last_ms[dir] = t_ms - t_ms % sl->avg_ms;
}

/*
 * bw and iops with log_avg_msec: as fio's sampler, the rates of each
 * direction that did I/O since the last ones, once log_avg_msec has
 * passed; the block size column is 0.  The rates are taken at the first
 * completion past the boundary rather than by a timer.
 */
static void add_rates(struct bq_worker *w, struct bq_statlog *sl, uint64_t t_ms, uint64_t now)
{
	const struct bq_job *j = w->job;
	uint64_t spent = t_ms - sl->rate_last_ms;

	/* fio's sampler does not outlive the job's runtime: no rates past it. */
	if (w->end_ns && now >= w->end_ns)
		return;
	/* On the multiples of log_avg_msec, so that late samples do not drift. */
	if (t_ms < sl->rate_next_ms || !spent)
		return;
	sl->rate_next_ms = (t_ms / sl->avg_ms + 1) * sl->avg_ms;
	for (int d = 0; d < BQ_NR_DIRS; d++) {
		if (!sl->ios[d])
			continue;
		if (sl->f[F_BW].fd >= 0)
			put_line(sl, j, &sl->f[F_BW], t_ms, sl->bytes[d] * 1000 / spent / 1024, d,
				 0, 0, 0);
		if (sl->f[F_IOPS].fd >= 0)
			put_line(sl, j, &sl->f[F_IOPS], t_ms, sl->ios[d] * 1000 / spent, d, 0, 0,
				 0);
		sl->bytes[d] = sl->ios[d] = 0;
	}
	sl->rate_last_ms = t_ms;
}

static unsigned int hist_bin(uint64_t ns)
{
	unsigned int msb, lost, bin;

	if (ns < 2 * HIST_VAL)
		return (unsigned int)ns;
	msb = 63U - (unsigned int)__builtin_clzll(ns);
	lost = msb - HIST_BITS;
	bin = ((lost + 1) << HIST_BITS) + (unsigned int)((ns >> lost) & (HIST_VAL - 1));
	return bin < HIST_NR - 1 ? bin : HIST_NR - 1;
}

/*
 * write_hist_log: "time, direction, block size, " then the window's
 * completions per bin, 1 << log_hist_coarseness bins summed into each
 * column, as fio writes its clat_hist lines.
 */
static void put_hist(struct bq_statlog *sl, const struct bq_job *j, int dir, uint64_t t_ms,
		     uint32_t bs)
{
	struct log_file *lf = &sl->f[F_HIST];
	unsigned int stride = 1U << j->log_hist_coarseness;
	uint64_t *c = sl->hist->cnt[dir];
	char *p;

	if (lf->len + (HIST_NR / stride + 3) * 24 > LOG_BUF)
		flush_file(sl, lf);
	p = lf->buf + lf->len;
	p = put_sep(put_u64(p, t_ms + sl->epoch_ms));
	p = put_sep(put_u64(p, (uint64_t)dir));
	p = put_sep(put_u64(p, bs));
	for (unsigned int b = 0; b < HIST_NR; b += stride) {
		uint64_t sum = 0;

		for (unsigned int k = 0; k < stride; k++)
			sum += c[b + k];
		p = put_u64(p, sum);
		if (b + stride < HIST_NR)
			p = put_sep(p);
	}
	*p++ = '\n';
	lf->len = (size_t)(p - lf->buf);
	memset(c, 0, sizeof(sl->hist->cnt[dir]));
}

/*
 * A completion's latency into its direction's histogram; its line once
 * the window is full.  A window still open when the job ends is not
 * written, as in fio.
 */
static void add_hist(struct bq_statlog *sl, const struct bq_job *j, int dir, uint64_t t_ms,
		     uint64_t lat, uint32_t bs)
{
	struct hist_log *h = sl->hist;
	uint64_t window;

	h->cnt[dir][hist_bin(lat)]++;
	if (!h->started[dir]) {
		h->started[dir] = true;
		h->last_ms[dir] = t_ms;
	}
	window = t_ms - h->last_ms[dir];
	if (window < j->log_hist_msec)
		return;
	put_hist(sl, j, dir, t_ms, bs);
	/* The next window starts where this one should have ended, as fio's does. */
	h->last_ms[dir] = t_ms - (window - j->log_hist_msec);
}

static void set_epoch(struct bq_worker *w, struct bq_statlog *sl, uint64_t now)
{
	const struct bq_job *j = w->job;
	struct timespec ts;

	sl->epoch_ns = w->ramp_ended ? w->ramp_end_ns : w->start_ns;
	if (!sl->epoch_ns || sl->epoch_ns > now)
		sl->epoch_ns = now;
	/* log_unix_epoch: the clock's time at the epoch, in ms, as fio adds it. */
	if (j->log_epoch && !clock_gettime(j->log_epoch_clock, &ts))
		sl->epoch_ms = ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / NS_PER_MS) -
			       (now - sl->epoch_ns) / NS_PER_MS;
}

/**
 * bq_statlog_add() - log one completed I/O
 * @w: the worker
 * @s: the I/O, done in full
 * @now: its completion time
 *
 * Nothing is logged during ramp_time, as in fio.  blkqual measures one
 * latency per I/O, from submission to completion: it is both the lat and
 * the clat value (see Documentation/run.rst).
 */
void bq_statlog_add(struct bq_worker *w, const struct bq_slot *s, uint64_t now)
{
	const struct bq_job *j = w->job;
	struct bq_statlog *sl = w->statlog;
	unsigned int prio;
	uint64_t t_ms, lat;
	int dir = s->dir;

	if (w->ramping || !now)
		return;
	if (__builtin_expect(!sl->epoch_ns, 0))
		set_epoch(w, sl, now);
	t_ms = (now - sl->epoch_ns) / NS_PER_MS;
	lat = now > s->start_ns ? now - s->start_ns : 0;
	if (sl->hist)
		add_hist(sl, j, dir, t_ms, lat, s->len);
	if (sl->avg_ms) {
		if (sl->f[F_LAT].fd >= 0) {
			add_windowed(sl, j, &sl->f[F_LAT], dir, t_ms, lat);
			add_windowed(sl, j, &sl->f[F_CLAT], dir, t_ms, lat);
		}
		sl->bytes[dir] += s->len;
		sl->ios[dir]++;
		if (sl->f[F_BW].fd >= 0 || sl->f[F_IOPS].fd >= 0)
			add_rates(w, sl, t_ms, now);
		return;
	}
	prio = w->q.cmdprio ? w->q.prio_val[dir][s->prio] : w->q.prio_off;
	if (sl->f[F_LAT].fd >= 0) {
		put_line(sl, j, &sl->f[F_LAT], t_ms, lat, dir, s->len, s->offset, prio);
		put_line(sl, j, &sl->f[F_CLAT], t_ms, lat, dir, s->len, s->offset, prio);
	}
	/* fio's per-I/O bandwidth: bytes * 10^6 / latency in ns, i.e. 1000 B/s units. */
	if (sl->f[F_BW].fd >= 0)
		put_line(sl, j, &sl->f[F_BW], t_ms, lat ? (uint64_t)s->len * 1000000 / lat : 0,
			 dir, s->len, s->offset, prio);
	if (sl->f[F_IOPS].fd >= 0)
		put_line(sl, j, &sl->f[F_IOPS], t_ms, 1, dir, s->len, s->offset, prio);
}

/*
 * A log is an output, never a target: made or opened only as a regular
 * file that is none of the job's targets, never through a symlink, and
 * emptied only once that is known (per_job_logs=0 appends, as fio does).
 */
static int open_log(struct bq_worker *w, const char *path, bool append)
{
	struct stat st, ts;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (append ? O_APPEND : 0),
		  0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out_refuse;
	for (int i = 0; i < w->nr_fds; i++)
		if (w->fds[i] >= 0 && !fstat(w->fds[i], &ts) && ts.st_dev == st.st_dev &&
		    ts.st_ino == st.st_ino)
			goto out_refuse;
	if (!append && ftruncate(fd, 0)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;

out_refuse:
	close(fd);
	return -EINVAL;
}

static int open_one(struct bq_worker *w, int f, const char *prefix, int thread_number)
{
	const struct bq_job *j = w->job;
	struct bq_statlog *sl = w->statlog;
	char path[512];
	int fd;

	/* fio's names: PREFIX_TYPE.N.log, or PREFIX_TYPE.log with per_job_logs=0. */
	if (j->shared_logs)
		snprintf(path, sizeof(path), "%s_%s.log", prefix, file_type[f]);
	else
		snprintf(path, sizeof(path), "%s_%s.%d.log", prefix, file_type[f], thread_number);
	fd = open_log(w, path, j->shared_logs);
	if (fd < 0) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "log %.200s: %s", path,
			 fd == -EINVAL ? "not a regular file apart from the targets" :
			 strerror(-fd));
		return fd;
	}
	/* blkqual does not time submission apart: the slat file stays empty. */
	if (f == F_SLAT) {
		close(fd);
		return 0;
	}
	sl->f[f].fd = fd;
	sl->f[f].buf = malloc(LOG_BUF);
	return sl->f[f].buf ? 0 : -ENOMEM;
}

/**
 * bq_statlog_worker_init() - open a worker's log files
 * @w: the worker, its files open
 * @thread_number: fio's number of the thread in the run, from 1, which
 *		   the file names carry
 *
 * Return: 0 or -errno (with @w->setup_msg).
 */
int bq_statlog_worker_init(struct bq_worker *w, int thread_number)
{
	static const int files_of[BQ_NR_STATLOG][4] = {
		[BQ_STATLOG_LAT] = { F_LAT, F_SLAT, F_CLAT, -1 },
		[BQ_STATLOG_BW] = { F_BW, -1 },
		[BQ_STATLOG_IOPS] = { F_IOPS, -1 },
		[BQ_STATLOG_HIST] = { F_HIST, -1 },
	};
	const struct bq_job *j = w->job;
	struct bq_statlog *sl;
	int ret;

	if (!j->logs)
		return 0;
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return -ENOMEM;
	for (int f = 0; f < NR_F; f++)
		sl->f[f].fd = -1;
	sl->avg_ms = j->log_avg_msec;
	sl->rate_next_ms = j->log_avg_msec;
	w->statlog = sl;
	/* Without log_hist_msec fio's histogram log stays empty. */
	if ((j->logs & (1U << BQ_STATLOG_HIST)) && j->log_hist_msec) {
		sl->hist = calloc(1, sizeof(*sl->hist));
		if (!sl->hist)
			return -ENOMEM;
	}
	for (int k = 0; k < BQ_NR_STATLOG; k++) {
		const char *prefix = j->log_names[k][0] ? j->log_names[k] : j->name;

		if (!(j->logs & (1U << k)))
			continue;
		for (int i = 0; files_of[k][i] >= 0; i++) {
			ret = open_one(w, files_of[k][i], prefix, thread_number);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * bq_statlog_worker_end() - the worker is done: its last windows, and
 * every line written out
 * @w: the worker
 *
 * As fio does at the end of a job, the latency logs get the windows
 * still open; the bw and iops logs do not.
 */
void bq_statlog_worker_end(struct bq_worker *w)
{
	struct bq_statlog *sl = w->statlog;

	if (!sl)
		return;
	if (sl->avg_ms && sl->epoch_ns) {
		uint64_t t_ms = (bq_now_ns() - sl->epoch_ns) / NS_PER_MS;

		for (int d = 0; d < BQ_NR_DIRS && sl->f[F_LAT].fd >= 0; d++) {
			put_window(sl, w->job, &sl->f[F_LAT], d, t_ms);
			put_window(sl, w->job, &sl->f[F_CLAT], d, t_ms);
		}
	}
	for (int f = 0; f < NR_F; f++)
		if (sl->f[f].fd >= 0)
			flush_file(sl, &sl->f[f]);
}

/**
 * bq_statlog_worker_free() - close a worker's logs
 * @w: the worker
 * @msg: receives why a log is incomplete, when it is
 * @len: size of @msg
 *
 * Return: 0, or the first write error (-errno), said in @msg.
 */
int bq_statlog_worker_free(struct bq_worker *w, char *msg, size_t len)
{
	struct bq_statlog *sl = w->statlog;
	int ret;

	if (!sl)
		return 0;
	for (int f = 0; f < NR_F; f++) {
		if (sl->f[f].fd < 0)
			continue;
		if (close(sl->f[f].fd) && !sl->err)
			sl->err = -errno;
		free(sl->f[f].buf);
	}
	ret = sl->err;
	if (ret)
		snprintf(msg, len, "a log file is incomplete: %s", strerror(-ret));
	free(sl->hist);
	free(sl);
	w->statlog = NULL;
	return ret;
}

/**
 * bq_cmdprio_of() - the priority of an I/O of a cmdprio job, kept in @s
 * @w: the worker (its job has cmdprio_percentage or cmdprio_bssplit)
 * @s: the I/O, its length and direction set
 *
 * cmdprio_bssplit, as fio: one draw of 0..99 per I/O; the entries for the
 * I/O's block size take their percentages in turn, each with its own
 * class, level and hint or cmdprio_class's, cmdprio's and cmdprio_hint's;
 * an I/O no entry takes keeps the job's priority.
 *
 * Return: the ioprio value for the SQE or iocb.
 */
uint16_t bq_cmdprio_of(struct bq_worker *w, struct bq_slot *s)
{
	const struct bq_job *j = w->job;
	int dir = s->dir, n = j->nr_cmdprio_bss[dir];
	unsigned int r = 0, acc = 0, idx = BQ_PRIO_OFF;
	bool drawn = false;

	if (!j->nr_cmdprio_bss[BQ_READ] && !j->nr_cmdprio_bss[BQ_WRITE]) {
		idx = bq_queue_cmdprio(w, dir);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const struct bq_cmdprio_bss *e = &j->cmdprio_bss[dir][i];

		if (e->bs != s->len)
			continue;
		if (!drawn) {
			r = bq_queue_draw100(w);
			drawn = true;
		}
		acc += e->pct;
		if (r < acc) {
			idx = BQ_PRIO_BSS + (unsigned int)i;
			break;
		}
	}
out:
	s->prio = (uint8_t)idx;
	return w->q.prio_val[dir][idx];
}
