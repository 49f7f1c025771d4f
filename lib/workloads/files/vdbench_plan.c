// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdbench_plan.c - what one run definition of a vdbench parameter file
 * does: its workloads, each on the file trees it names, with the
 * operations, threads and open flags the rd and fwd settle between them
 *
 * The parsed definitions (vdbench_parse.c) keep vdbench's names and
 * wildcards; a plan resolves them, so the runner (vdbench_tree.c) never
 * looks a name up.  Names match as vdbench matches them: shell
 * wildcards, case ignored.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_files.h"
#include "internal.h"

static bool name_matches(const char *pattern, const char *name)
{
	return !fnmatch(pattern, name, FNM_CASEFOLD);
}

static struct bq_files_openflags pick_flags(const struct bq_files_openflags *rd,
					   const struct bq_files_openflags *fwd,
					   const struct bq_files_openflags *fsd)
{
	if (rd->set)
		return *rd;
	if (fwd->set)
		return *fwd;
	return *fsd;
}

static int add_fwg(struct bq_files_plan *plan, const struct bq_files_fwg *g)
{
	struct bq_files_fwg *n = realloc(plan->fwg, (plan->nr_fwg + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	plan->fwg = n;
	n[plan->nr_fwg++] = *g;
	plan->nr_threads += g->threads;
	return 0;
}

static uint32_t op_bit(int op)
{
	return 1u << op;
}

/* Whether a run definition's workloads (fwd=) touch file system definition @j. */
static bool fsd_in_rd(const struct bq_files_parms *p, const struct bq_files_rd *r, size_t j)
{
	for (size_t i = 0; i < p->nr_fwd; i++) {
		bool in_rd = false;

		for (int k = 0; k < r->nr_fwd && !in_rd; k++)
			in_rd = name_matches(r->fwd[k], p->fwd[i].name);
		if (!in_rd)
			continue;
		for (int k = 0; k < p->fwd[i].nr_fsd; k++)
			if (name_matches(p->fwd[i].fsd[k], p->fsd[j].name))
				return true;
	}
	return false;
}

static int plan_format(const struct bq_files_parms *p, const struct bq_files_rd *r,
		       struct bq_files_plan *plan)
{
	int ret;

	plan->requested = op_bit(BQ_FOP_WRITE);
	for (size_t j = 0; j < p->nr_fsd; j++) {
		struct bq_files_fwg g = {
			.fwd = &p->format_fwd,
			.fsd = j,
			.op = BQ_FOP_WRITE,
			.threads = p->format_fwd.threads,
			.openflags = pick_flags(&r->openflags, &p->format_fwd.openflags,
						&p->fsd[j].openflags),
		};

		if (!fsd_in_rd(p, r, j))
			continue;
		ret = add_fwg(plan, &g);
		if (ret)
			return ret;
	}
	return 0;
}

int bq_files_plan(const struct bq_files_parms *p, size_t rdi, bool format,
		  struct bq_files_plan *plan, struct bq_parse_error *err)
{
	const struct bq_files_rd *r = &p->rd[rdi];
	double skew_sum = 0;
	int no_skew = 0, ret;
	size_t first;

	memset(plan, 0, sizeof(*plan));
	plan->p = p;
	plan->rd = r;
	plan->format = format;
	if (format) {
		ret = plan_format(p, r, plan);
		if (ret)
			bq_files_plan_free(plan);
		return ret;
	}
	for (size_t i = 0; i < p->nr_fwd; i++) {
		const struct bq_files_fwd *w = &p->fwd[i];
		const int *ops = r->nr_ops ? r->ops : &w->op;
		int nr_ops = r->nr_ops ? r->nr_ops : 1, nr_fsd = 0;
		bool in_rd = false;

		for (int k = 0; k < r->nr_fwd && !in_rd; k++)
			in_rd = name_matches(r->fwd[k], w->name);
		if (!in_rd)
			continue;
		for (size_t j = 0; j < p->nr_fsd; j++)
			for (int k = 0; k < w->nr_fsd; k++)
				if (name_matches(w->fsd[k], p->fsd[j].name)) {
					nr_fsd++;
					break;
				}
		if (r->nr_ops && w->rdpct >= 0)
			return bq_fail_at(err, r->where, -EINVAL,
					  "rd=%s: operations= and fwd=%s's rdpct= exclude each "
					  "other", r->name, w->name);
		first = plan->nr_fwg;
		for (size_t j = 0; j < p->nr_fsd; j++) {
			bool on = false;

			for (int k = 0; k < w->nr_fsd && !on; k++)
				on = name_matches(w->fsd[k], p->fsd[j].name);
			if (!on)
				continue;
			for (int o = 0; o < nr_ops; o++) {
				/* vdbench splits an fwd's threads over its fsds and operations */
				struct bq_files_fwg g = {
					.fwd = w,
					.fsd = j,
					.op = ops[o],
					.threads = w->threads / nr_fsd / nr_ops,
					.rate = w->skew,	/* percent for now */
					.openflags = pick_flags(&r->openflags, &w->openflags,
								&p->fsd[j].openflags),
				};

				if (g.threads < 1)
					g.threads = 1;
				ret = add_fwg(plan, &g);
				if (ret)
					goto out_free;
				if (w->rdpct >= 0)
					plan->requested |= op_bit(BQ_FOP_READ) |
							   op_bit(BQ_FOP_WRITE);
				else
					plan->requested |= op_bit(ops[o]);
			}
		}
		if (w->skew) {
			skew_sum += w->skew;
			for (size_t g = first; g < plan->nr_fwg; g++)
				plan->fwg[g].rate = w->skew / (double)(plan->nr_fwg - first);
		} else {
			no_skew += 1;
			for (size_t g = first; g < plan->nr_fwg; g++)
				plan->fwg[g].rate = -1.0 / (double)(plan->nr_fwg - first);
		}
	}
	if (skew_sum > 100.0001 || (!no_skew && skew_sum < 99.9999)) {
		ret = bq_fail_at(err, r->where, -EINVAL,
				 "rd=%s: the fwds' skew= adds up to %g, not 100", r->name, skew_sum);
		goto out_free;
	}
	/* Skew is a share of a numeric fwdrate; fwds without one split the rest. */
	for (size_t g = 0; g < plan->nr_fwg; g++) {
		double pct = plan->fwg[g].rate;

		if (pct < 0)
			pct = -pct * (100 - skew_sum) / no_skew;
		plan->fwg[g].rate = r->rate_max ? 0 : r->rate * pct / 100;
	}
	return 0;

out_free:
	bq_files_plan_free(plan);
	return ret;
}

void bq_files_plan_free(struct bq_files_plan *plan)
{
	free(plan->fwg);
	memset(plan, 0, sizeof(*plan));
}
