/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkqual_qualify.h - qualification: steady-state detection over rounds
 * of a test stimulus (SNIA PTS style), profiles and their criteria, the
 * plan of cells, the bookkeeping of rounds, purging a device, and a whole
 * qualification: running it and its verdict
 *
 * Like the rest of libblkqual: 0 on success, -errno on failure, nothing
 * printed.
 */
#ifndef BLKQUAL_QUALIFY_H
#define BLKQUAL_QUALIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual.h"
#include "blkqual_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct bq_steady_params - what "steady" means
 * @window: rounds in the measurement window (PTS: 5)
 * @range_pct: max - min within the window, at most this percent of the
 *             window's mean (PTS: 20)
 * @slope_pct: the least-squares slope times (window - 1) rounds, at most
 *             this percent of the window's mean (PTS: 10)
 * @max_rounds: give up after this many rounds (PTS: 25)
 */
struct bq_steady_params {
	int window;
	double range_pct;
	double slope_pct;
	int max_rounds;
};

#define BQ_STEADY_PARAMS_PTS { .window = 5, .range_pct = 20, .slope_pct = 10, .max_rounds = 25 }

enum bq_steady_state {
	BQ_STEADY_PENDING,	/* not steady yet, more rounds allowed */
	BQ_STEADY_REACHED,	/* steady, and still steady in the latest window */
	BQ_STEADY_LEFT,		/* was steady, the latest window is not */
	BQ_STEADY_NOT_REACHED,	/* max_rounds done, never steady */
};

/**
 * struct bq_steady_window - one window of rounds, judged
 * @first: index of its first round (0-based)
 * @last: index of its last round
 * @mean: mean of the tracked variable
 * @min: smallest value
 * @max: largest value
 * @slope: least-squares slope per round
 * @intercept: fitted value at round @first
 * @range_ok: (@max - @min) within range_pct of @mean
 * @slope_ok: |@slope| * (window - 1) within slope_pct of @mean
 */
struct bq_steady_window {
	int first;
	int last;
	double mean;
	double min;
	double max;
	double slope;
	double intercept;
	bool range_ok;
	bool slope_ok;
};

/**
 * struct bq_steady_result - the verdict on a series of rounds
 * @state: see enum bq_steady_state
 * @steady: the first steady window (valid unless PENDING or NOT_REACHED)
 * @latest: the window ending at the latest round (valid when there are
 *          at least window rounds)
 * @left_round: index of the first round whose window was no longer
 *              steady after @steady (valid when LEFT)
 */
struct bq_steady_result {
	enum bq_steady_state state;
	struct bq_steady_window steady;
	struct bq_steady_window latest;
	int left_round;
};

/**
 * bq_steady_state_name() - "steady", "left steady state", ...
 * @s: the state
 *
 * Return: a constant string.
 */
const char *bq_steady_state_name(enum bq_steady_state s);

/* ---- profiles ------------------------------------------------------------ */

enum bq_step_kind {
	BQ_STEP_IOPS,		/* random, R/W mix x block size matrix */
	BQ_STEP_THROUGHPUT,	/* sequential */
	BQ_STEP_LATENCY,	/* random, one outstanding I/O */
	BQ_STEP_CUSTOM,		/* what the step's rw= says */
};

enum bq_purge {
	BQ_PURGE_AUTO,		/* the best the device offers */
	BQ_PURGE_NONE,
	BQ_PURGE_DISCARD,	/* BLKDISCARD */
	BQ_PURGE_SECDISCARD,	/* BLKSECDISCARD */
	BQ_PURGE_FORMAT,	/* NVMe Format NVM */
	BQ_PURGE_SANITIZE,	/* NVMe Sanitize */
};

enum bq_metric {
	BQ_METRIC_IOPS,
	BQ_METRIC_BW,		/* bytes per second */
	BQ_METRIC_LAT_MEAN,
	BQ_METRIC_LAT_MIN,
	BQ_METRIC_LAT_MAX,
	BQ_METRIC_LAT_PCT,	/* a percentile, struct bq_cellsel.pct */
};

enum bq_cmp {
	BQ_CMP_LE,
	BQ_CMP_LT,
	BQ_CMP_GE,
	BQ_CMP_GT,
};

#define BQ_SEL_ANY (-1)
#define BQ_SEL_MIXED 101	/* read_pct: any mix with both reads and writes */

/**
 * struct bq_cellsel - which cells of a qualification, and which figure of them
 * @step: step name, "" for any
 * @random: 1 random, 0 sequential, BQ_SEL_ANY
 * @read_pct: percent reads (0..100), BQ_SEL_MIXED or BQ_SEL_ANY
 * @bs: block size in bytes, 0 for any
 * @iodepth: queue depth, 0 for any
 * @dir: BQ_READ, BQ_WRITE, or BQ_SEL_ANY (IOPS and bandwidth: reads and
 *       writes together; latency: each direction on its own)
 * @metric: the figure
 * @pct: the percentile, for BQ_METRIC_LAT_PCT
 */
struct bq_cellsel {
	char step[32];
	int random;
	int read_pct;
	uint32_t bs;
	unsigned int iodepth;
	int dir;
	enum bq_metric metric;
	double pct;
};

/**
 * struct bq_criterion - one pass/fail bound of a profile
 * @text: as written
 * @line: line in the profile
 * @sel: the cells and the figure
 * @op: comparison
 * @bound: in nanoseconds, IOPS or bytes per second, as @sel.metric says
 */
struct bq_criterion {
	char text[256];
	int line;
	struct bq_cellsel sel;
	enum bq_cmp op;
	double bound;
};

#define BQ_QSTEP_MAX_LIST 16

/**
 * struct bq_qstep - one [step:NAME] section: a matrix of cells, run in
 * rounds until the tracked figures are steady
 * @name: NAME
 * @kind: what kind of test
 * @random: random offsets (else sequential)
 * @read_pct: R/W mixes as percent reads, @nr_mixes of them
 * @bs: block sizes, @nr_bs of them
 * @iodepth: queue depth per thread
 * @numjobs: threads
 * @round_ns: how long each cell runs per round
 * @ramp_ns: warm-up before each cell's measurement
 * @tracked: a direction's steady state is tracked on @track
 * @track: per direction, the cell and figure whose rounds must settle
 * @track_text: @track as written
 * @line: line of the section header
 * @track_line: line of tracked= (or of the header when defaulted)
 */
struct bq_qstep {
	char name[32];
	enum bq_step_kind kind;
	bool random;
	unsigned int read_pct[BQ_QSTEP_MAX_LIST];
	int nr_mixes;
	uint32_t bs[BQ_QSTEP_MAX_LIST];
	int nr_bs;
	unsigned int iodepth;
	unsigned int numjobs;
	uint64_t round_ns;
	uint64_t ramp_ns;
	bool tracked[BQ_NR_DIRS];
	struct bq_cellsel track[BQ_NR_DIRS];
	char track_text[BQ_NR_DIRS][64];
	int line;
	int track_line;
};

/**
 * struct bq_profile - a qualification profile (an ini file)
 * @name: profile name
 * @description: one line
 * @path: the file it came from
 * @text: the whole file
 * @purge: how to purge before preconditioning
 * @precondition: sequential 128 KiB writes, in multiples of the tested
 *                region; 0 for none
 * @capacity_fraction: the share of the device that is tested (from offset 0)
 * @steady: window, range, slope and round limit
 * @require_steady: the verdict fails when a tracked figure is not steady
 * @ioengine: engine name for every job, "" for the default
 * @verify: verify= for every job, "" for none
 * @steps: the steps in order, @nr_steps of them
 * @criteria: pass/fail bounds, @nr_criteria of them
 */
struct bq_profile {
	char name[64];
	char description[256];
	char path[4096];
	char *text;
	enum bq_purge purge;
	double precondition;
	double capacity_fraction;
	struct bq_steady_params steady;
	bool require_steady;
	char ioengine[32];
	char verify[32];
	struct bq_qstep *steps;
	int nr_steps;
	struct bq_criterion *criteria;
	int nr_criteria;
};

/**
 * bq_profile_parse() - read a profile file
 * @path: the file
 * @p: filled in; release with bq_profile_free() (also after a failure)
 * @err: on failure, where ("file:line") and why
 *
 * Return: 0, -EINVAL for a bad profile, or -errno when it cannot be read.
 */
int bq_profile_parse(const char *path, struct bq_profile *p, struct bq_parse_error *err);

/**
 * bq_profile_parse_text() - parse a profile held in memory
 * @path: name used in error locations and kept in @p->path
 * @text: the profile's text
 * @p: filled in; release with bq_profile_free()
 * @err: on failure, where and why
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bq_profile_parse_text(const char *path, const char *text, struct bq_profile *p,
			  struct bq_parse_error *err);

/**
 * bq_profile_free() - release a profile
 * @p: the profile
 */
void bq_profile_free(struct bq_profile *p);

/**
 * bq_step_kind_name() - "iops", "throughput", "latency" or "custom"
 * @k: the kind
 *
 * Return: a constant string.
 */
const char *bq_step_kind_name(enum bq_step_kind k);

/**
 * bq_purge_name() - "auto", "none", "blkdiscard", "blksecdiscard",
 *                   "nvme-format" or "nvme-sanitize"
 * @m: the method
 *
 * Return: a constant string.
 */
const char *bq_purge_name(enum bq_purge m);

/* ---- criteria ------------------------------------------------------------ */

/**
 * bq_cellsel_describe() - a normalised description ("random 100/0 4k qd1:
 *                         read p99.99 latency")
 * @sel: the selector
 * @buf: receives it
 * @len: size of @buf
 */
void bq_cellsel_describe(const struct bq_cellsel *sel, char *buf, size_t len);

/**
 * bq_metric_unit() - unit of a metric's values: "ns", "iops" or
 *                    "bytes_per_second"
 * @m: the metric
 *
 * Return: a constant string.
 */
const char *bq_metric_unit(enum bq_metric m);

/**
 * bq_cmp_name() - "<=", "<", ">=" or ">"
 * @op: the comparison
 *
 * Return: a constant string.
 */
const char *bq_cmp_name(enum bq_cmp op);

/* ---- plans ---------------------------------------------------------------- */

/**
 * struct bq_qcell - one cell of a step's matrix
 * @label: "65/35 4k"
 * @random: random offsets
 * @read_pct: percent reads
 * @bs: block size in bytes
 * @iodepth: queue depth per thread
 * @numjobs: threads
 */
struct bq_qcell {
	char label[32];
	bool random;
	unsigned int read_pct;
	uint32_t bs;
	unsigned int iodepth;
	unsigned int numjobs;
};

/**
 * struct bq_qplan_step - a step with its cells laid out
 * @step: the profile's step
 * @cells: in run order, @nr_cells of them
 * @track_cell: per direction, index of the tracked cell, -1 when untracked
 * @note: cells left out and why, or ""
 */
struct bq_qplan_step {
	const struct bq_qstep *step;
	struct bq_qcell *cells;
	int nr_cells;
	int track_cell[BQ_NR_DIRS];
	char note[256];
};

/**
 * struct bq_qplan - what a qualification of one device will run
 * @steps: per step of the profile, @nr_steps of them
 * @region: bytes tested, from offset 0
 * @precondition_bytes: bytes written to precondition, 0 for none
 * @min_bs: the smallest block size of any cell: with verify=, every job
 *          checksums blocks of this size, so any cell's read finds whole
 *          blocks whichever job wrote them
 */
struct bq_qplan {
	struct bq_qplan_step *steps;
	int nr_steps;
	uint64_t region;
	uint64_t precondition_bytes;
	uint32_t min_bs;
};

/**
 * bq_qualify_plan() - lay out a profile's cells for a device
 * @p: the profile
 * @dev_size: the device's size in bytes
 * @lbs: its logical block size (block sizes below it are left out)
 * @plan: filled in; release with bq_qplan_free()
 * @err: on failure, where (the profile's "file:line") and why
 *
 * Return: 0, -EINVAL (a tracked cell not in the matrix, a region smaller
 * than the largest block) or -ENOMEM.
 */
int bq_qualify_plan(const struct bq_profile *p, uint64_t dev_size, uint32_t lbs,
		    struct bq_qplan *plan, struct bq_parse_error *err);

/**
 * bq_qplan_free() - release a plan's cells
 * @plan: the plan; left empty
 */
void bq_qplan_free(struct bq_qplan *plan);

/**
 * bq_qplan_round_ns() - how long one round of a step takes (every cell,
 *                       ramp included)
 * @ps: the step
 *
 * Return: nanoseconds.
 */
uint64_t bq_qplan_round_ns(const struct bq_qplan_step *ps);

/**
 * bq_qcell_rw() - fio's rw= for a cell: "randread", "randrw", "write", ...
 * @c: the cell
 *
 * Return: a constant string.
 */
const char *bq_qcell_rw(const struct bq_qcell *c);

/* ---- rounds and steady state ------------------------------------------------ */

/**
 * struct bq_qresult - one cell's figures over one round, or summed over
 *                     several (the steady window)
 * @runtime_ns: measured time
 * @d: per direction: I/Os, bytes, errors and the latency histogram (its
 *     buckets may be NULL for rounds whose histogram was let go)
 */
struct bq_qresult {
	uint64_t runtime_ns;
	struct bq_dir_result d[BQ_NR_DIRS];
};

/**
 * bq_qresult_free() - release a result's histograms
 * @r: the result; its buckets may be NULL already
 */
void bq_qresult_free(struct bq_qresult *r);

/**
 * bq_qresult_value() - one figure of a result
 * @r: the result
 * @dir: BQ_READ, BQ_WRITE, or BQ_SEL_ANY for both (IOPS and bandwidth only)
 * @m: the metric
 * @pct: the percentile for BQ_METRIC_LAT_PCT
 *
 * Return: the value (ns, IOPS, bytes/s), or NAN when the direction did no
 * I/O or the histogram a percentile needs is gone.
 */
double bq_qresult_value(const struct bq_qresult *r, int dir, enum bq_metric m, double pct);

/**
 * struct bq_qstep_run - the rounds of one step so far
 * @ps: the planned step
 * @sp: steady-state parameters
 * @nr_rounds: rounds completed
 * @cap: rounds there is room for
 * @res: @nr_rounds x @ps->nr_cells results, round by round
 * @track: per direction, the tracked figure of each round
 * @steady: per direction, the verdict after the latest round
 */
struct bq_qstep_run {
	const struct bq_qplan_step *ps;
	struct bq_steady_params sp;
	int nr_rounds;
	int cap;
	struct bq_qresult *res;
	double *track[BQ_NR_DIRS];
	struct bq_steady_result steady[BQ_NR_DIRS];
};

/**
 * bq_qstep_add_round() - record a completed round and judge steady state
 * @run: the step
 * @cells: the round's results, one per cell; moved into @run (the
 *         caller's copies are zeroed and need no freeing)
 * @tracked: per direction, the tracked figure when restoring a round whose
 *           histograms are gone; NULL to work it out from @cells
 *
 * Histograms of rounds older than the steady window are let go: the
 * reported figures only need the window's.
 *
 * Return: 0, -EINVAL (a tracked figure is not a finite number) or -ENOMEM.
 */
int bq_qstep_add_round(struct bq_qstep_run *run, struct bq_qresult *cells,
		       const double *tracked);

/**
 * bq_qstep_finished() - whether the step needs no more rounds: every
 *                       tracked direction is steady in the latest window,
 *                       or the round limit is reached
 * @run: the step
 *
 * Return: true when done.
 */
bool bq_qstep_finished(const struct bq_qstep_run *run);

/**
 * bq_qstep_window() - the rounds the reported figures average over: the
 *                     last window's worth (fewer when fewer ran)
 * @run: the step
 * @first: receives the first round's index (0-based)
 * @last: receives the last round's index; -1 when no round ran
 */
void bq_qstep_window(const struct bq_qstep_run *run, int *first, int *last);

/* ---- criteria against results --------------------------------------------- */

/**
 * struct bq_criterion_result - a criterion, judged
 * @measured: the worst value among the matching cells, NAN when none
 * @pass: the bound holds for every matching cell
 * @cell: index of the cell that gave @measured, -1 when none
 * @dir: its direction (BQ_SEL_ANY for reads and writes together)
 * @metric: normalised description of what was measured
 * @note: "no such cell", or where the worst value was found
 */
struct bq_criterion_result {
	double measured;
	bool pass;
	int cell;
	int dir;
	char metric[160];
	char note[160];
};

/* ---- purge ------------------------------------------------------------------ */

/**
 * struct bq_purge_result - what a purge did
 * @method: what was used (BQ_PURGE_NONE when nothing could be)
 * @done: it completed
 * @ns: time taken
 * @note: why that method, or why none
 */
struct bq_purge_result {
	enum bq_purge method;
	bool done;
	uint64_t ns;
	char note[256];
};


/* ---- a qualification ---------------------------------------------------------- */

/**
 * enum bq_qual_verdict - what a qualification concluded
 * @BQ_QUAL_INCOMPLETE: interrupted, or not judged yet
 * @BQ_QUAL_PASS: every criterion met, nothing else wrong
 * @BQ_QUAL_FAIL: a criterion not met, a tracked figure not steady with
 *                require_steady=yes, an I/O error, or a bad block
 */
enum bq_qual_verdict {
	BQ_QUAL_INCOMPLETE,
	BQ_QUAL_PASS,
	BQ_QUAL_FAIL,
};

/**
 * struct bq_qual - a qualification of one device, as far as it got
 * @prof: the profile (the caller's; must outlive this)
 * @plan: its cells on the device (the caller's)
 * @target: the device as the user named it: every job's filename=
 * @dev: what is known about the device (the caller's)
 * @purge_tried: the purge is behind us (done or skipped)
 * @purge: what it did
 * @precond_done: preconditioning finished
 * @precond_ns: how long it took
 * @runs: per step of @plan, its rounds and steady-state verdicts
 * @interrupted: stopped before the end
 * @errors: I/O errors seen in any round
 * @verify: with the profile's verify=, every job's checks added up, else
 *          NULL
 * @window: per step, per cell, the figures summed over the step's window;
 *          NULL for a step without rounds (bq_qual_judge())
 * @crit: per criterion of @prof, its verdict (bq_qual_judge())
 * @verdict: the verdict (bq_qual_judge())
 * @why: the reason for a fail other than a criterion, "" if none
 *       (bq_qual_judge())
 */
struct bq_qual {
	const struct bq_profile *prof;
	const struct bq_qplan *plan;
	const char *target;
	const struct bq_device *dev;
	bool purge_tried;
	struct bq_purge_result purge;
	bool precond_done;
	uint64_t precond_ns;
	struct bq_qstep_run *runs;
	bool interrupted;
	uint64_t errors;
	struct bq_verify_report *verify;
	struct bq_qresult **window;
	struct bq_criterion_result *crit;
	enum bq_qual_verdict verdict;
	char why[256];
};

/**
 * bq_qual_init() - a qualification with nothing done yet
 * @q: filled in; release with bq_qual_free() (also after a failure)
 * @prof: the profile
 * @plan: its plan for @dev
 * @target: the device's path
 * @dev: the device
 *
 * Return: 0, -EINVAL for steady-state settings that cannot be tracked (a
 * window below 2 or above max_rounds), or -ENOMEM.
 */
int bq_qual_init(struct bq_qual *q, const struct bq_profile *prof, const struct bq_qplan *plan,
		 const char *target, const struct bq_device *dev);

/**
 * bq_qual_free() - release what a qualification holds (not the profile,
 *                  plan or device it points to)
 * @q: the qualification; left empty
 */
void bq_qual_free(struct bq_qual *q);

/**
 * bq_qual_judge() - sum each step's window and judge the criteria
 * @q: the qualification, as far as it got
 *
 * Fills in @q->window, @q->crit, @q->verdict and @q->why; judging again
 * replaces them.  Every criterion is judged on the windows of the steps
 * that ran.  The verdict fails on a criterion not met, on a tracked
 * figure that is not steady when the profile requires steady state, on
 * any I/O error and on any bad block; it is incomplete, whatever the
 * figures, when @q->interrupted is set.
 *
 * Return: 0 or -ENOMEM.
 */
int bq_qual_judge(struct bq_qual *q);

/**
 * bq_qual_verdict_name() - "incomplete", "pass" or "fail"
 * @v: the verdict
 *
 * Return: a constant string.
 */
const char *bq_qual_verdict_name(enum bq_qual_verdict v);


/* ---- running a qualification ---------------------------------------------------- */

/**
 * enum bq_qual_phase - what a running qualification is doing
 * @BQ_QUAL_PURGE: purging the device
 * @BQ_QUAL_PRECONDITION: writing it sequentially
 * @BQ_QUAL_CELL: running one cell of a round of a step
 */
enum bq_qual_phase {
	BQ_QUAL_PURGE,
	BQ_QUAL_PRECONDITION,
	BQ_QUAL_CELL,
};

/**
 * struct bq_qual_at - where a running qualification is
 * @phase: what it is doing
 * @step: for BQ_QUAL_CELL, the step's index
 * @round: for BQ_QUAL_CELL, the round's index (0-based)
 * @cell: for BQ_QUAL_CELL, the cell's index
 */
struct bq_qual_at {
	enum bq_qual_phase phase;
	int step;
	int round;
	int cell;
};

/**
 * struct bq_qual_opts - how to run a qualification, and what to tell whom
 * @guard: overrides for the safety guard
 * @pin: the target, opened by the caller through bq_guard_open() and
 *       named as struct bq_qual.target: the purge, the preconditioning and
 *       every round write through this one descriptor
 * @stop: set non-zero (from a signal handler) to stop; checked before
 *        every job and passed to each
 * @at: called as the purge, the preconditioning and each cell begin (a
 *      status line), or NULL
 * @progress: the running job's progress (struct bq_run_opts.progress), or
 *            NULL
 * @round: called when a round of step @step is in struct bq_qual.runs,
 *         while all its histograms are there (the caller's record of the
 *         round, a line about it), or NULL
 * @save: called after the purge, the preconditioning and each round (after
 *        @round): what is done so far is worth keeping, or NULL
 * @arg: passed to every callback
 *
 * A non-zero return of @round or @save stops the qualification, which
 * returns it; the callback says why.
 */
struct bq_qual_opts {
	const struct bq_guard_opts *guard;
	const struct bq_pinned_target *pin;
	volatile int *stop;
	void (*at)(void *arg, const struct bq_qual_at *at);
	void (*progress)(void *arg, const struct bq_progress *p);
	int (*round)(void *arg, int step);
	int (*save)(void *arg);
	void *arg;
};

/**
 * bq_qual_check() - build every job a qualification will run, running none
 * @q: the qualification
 * @err: on failure, which job ("precondition: ..." or "step NAME, cell
 *       LABEL: ...") and why
 *
 * A profile can ask for what no job can do (an unknown ioengine=, or
 * verify= with an engine that cannot verify).  Found before anything is
 * written, that is bad input, not a failed run.
 *
 * Return: 0, or -errno from the first job that cannot be built
 * (-EOPNOTSUPP when the engine cannot do what the profile asks).
 */
int bq_qual_check(const struct bq_qual *q, struct bq_parse_error *err);

/**
 * bq_qual_run() - run a qualification from wherever it is: purge the
 *                 device, precondition it, then rounds of each step until
 *                 its tracked figures are steady or its rounds run out
 * @ctx: context (live)
 * @q: the qualification (bq_qual_init(), then any rounds of an earlier
 *     session added with bq_qstep_add_round()); what was done already
 *     (@q->purge_tried, @q->precond_done, finished steps) is not done again
 * @opts: the target, the callbacks
 * @err: on failure, where (a job's "where", "precondition: ...", "step
 *       NAME, cell LABEL: ...", "purge", or "") and why; left empty when
 *       a callback failed (it said why) or the run was stopped
 *
 * Each cell of a round runs as one job through bq_run(); a round counts
 * whole or not at all.  The I/O errors and verify checks of every job are
 * added to @q->errors and @q->verify.
 *
 * Return: 0 when every step is finished; -EINTR, with @q->interrupted set
 * (it is cleared otherwise), when stopped through @opts->stop; what
 * @opts->round or @opts->save returned; or another -errno.
 */
int bq_qual_run(struct bq_ctx *ctx, struct bq_qual *q, const struct bq_qual_opts *opts,
		struct bq_parse_error *err);

#ifdef __cplusplus
}
#endif

#endif /* BLKQUAL_QUALIFY_H */
