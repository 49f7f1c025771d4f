// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_judge.c - blkqual fleet's verdicts: the devices grouped by model
 * and firmware, figures of another job than the fleet's set aside, and
 * every metric of a group judged with a robust z-score at a threshold
 * that grows with the group, so that chance alone does not
 *
 * Everything here is at most n log n in the devices: a fleet of 100,000
 * is judged in well under a second.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blkqual_stats.h"
#include "fleet.h"

/*
 * Room for element @n of an array grown by doubling: the capacity is
 * implicit, the next power of two from @n.
 */
static int grow(void **arr, size_t n, size_t size)
{
	void *grown;

	if (n & (n - 1) || (n && n < 4))
		return 0;
	grown = realloc(*arr, (n ? 2 * n : 4) * size);
	if (!grown)
		return -ENOMEM;
	*arr = grown;
	return 0;
}

int fleet_add_device(struct fleet *f, struct fleet_device *d)
{
	if (grow((void **)&f->devs, f->nr_devs, sizeof(*f->devs)))
		return -ENOMEM;
	f->devs[f->nr_devs++] = *d;
	memset(d, 0, sizeof(*d));
	return 0;
}

static int find_group(struct fleet *f, const struct fleet_device *d)
{
	struct fleet_group *grown;

	for (size_t g = 0; g < f->nr_groups; g++)
		if (!strcmp(f->groups[g].model, d->model) &&
		    !strcmp(f->groups[g].firmware, d->firmware))
			return (int)g;
	grown = realloc(f->groups, (f->nr_groups + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	f->groups = grown;
	grown = &f->groups[f->nr_groups];
	memset(grown, 0, sizeof(*grown));
	grown->model = strdup(d->model);
	grown->firmware = strdup(d->firmware);
	if (!grown->model || !grown->firmware) {
		free(grown->model);
		free(grown->firmware);
		return -ENOMEM;
	}
	return (int)f->nr_groups++;
}

static int group_add(struct fleet_group *g, int dev)
{
	if (grow((void **)&g->devs, g->nr_devs, sizeof(*g->devs)))
		return -ENOMEM;
	g->devs[g->nr_devs++] = dev;
	return 0;
}

static struct fleet_metric *find_metric(struct fleet_group *g, const struct fleet_value *v)
{
	struct fleet_metric *grown;

	for (size_t m = 0; m < g->nr_metrics; m++)
		if ((g->metrics[m].name == v->metric || !strcmp(g->metrics[m].name, v->metric)) &&
		    g->metrics[m].unit == v->unit)
			return &g->metrics[m];
	grown = realloc(g->metrics, (g->nr_metrics + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	g->metrics = grown;
	grown = &g->metrics[g->nr_metrics++];
	memset(grown, 0, sizeof(*grown));
	grown->name = v->metric;
	grown->unit = v->unit;
	grown->workload = v->workload;
	return grown;
}

static int add_point(struct fleet_group *g, int dev, const struct fleet_value *v)
{
	struct fleet_metric *m = find_metric(g, v);

	if (!m || grow((void **)&m->pts, m->n, sizeof(*m->pts)))
		return -ENOMEM;
	m->pts[m->n++] = (struct fleet_point){ .dev = dev, .v = v->v };
	return 0;
}

/* ---- another job ------------------------------------------------------- */

/* One group's figures of a metric from one workload, and how many devices gave them. */
struct job_count {
	int group;
	const char *metric;
	const char *workload;
	size_t first;		/* the first device that gave one */
	size_t n;
	bool fleets;		/* the workload most devices ran for the metric */
};

static int same_metric(const struct job_count *x, const struct job_count *y)
{
	return x->group != y->group ? (x->group > y->group) - (x->group < y->group) :
	       strcmp(x->metric, y->metric);
}

static int by_metric_workload(const void *a, const void *b)
{
	const struct job_count *x = a, *y = b;
	int c = same_metric(x, y);

	return c ? c : strcmp(x->workload, y->workload);
}

/*
 * Each group's workload for each metric: the most devices', the first
 * seen on a tie.  Per group, since two models may well run the same job
 * name with options of their own.
 */
static size_t group_workloads(struct fleet *f, struct job_count **out)
{
	struct job_count *jc;
	size_t n = 0, k = 0;

	for (size_t d = 0; d < f->nr_devs; d++)
		n += f->devs[d].nr_vals;
	jc = malloc((n ? n : 1) * sizeof(*jc));
	if (!jc)
		return (size_t)-1;
	for (size_t d = 0; d < f->nr_devs; d++)
		for (size_t i = 0; i < f->devs[d].nr_vals; i++)
			jc[k++] = (struct job_count){ .group = f->devs[d].group,
						      .metric = f->devs[d].vals[i].metric,
						      .workload = f->devs[d].vals[i].workload,
						      .first = d, .n = 1 };
	/* qsort is not stable: the first device is kept by hand. */
	qsort(jc, n, sizeof(*jc), by_metric_workload);
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !by_metric_workload(&jc[k - 1], &jc[i])) {
			jc[k - 1].n++;
			if (jc[i].first < jc[k - 1].first)
				jc[k - 1].first = jc[i].first;
			continue;
		}
		jc[k++] = jc[i];
	}
	for (size_t i = 0, best = 0; i < k; i++) {
		if (i && !same_metric(&jc[i], &jc[best])) {
			if (jc[i].n > jc[best].n ||
			    (jc[i].n == jc[best].n && jc[i].first < jc[best].first)) {
				jc[best].fleets = false;
				best = i;
				jc[i].fleets = true;
			}
			continue;
		}
		best = i;
		jc[i].fleets = true;
	}
	*out = jc;
	return k;
}

/*
 * Figures a device gave for a metric from another job than most devices
 * of its group ran (other options for the same job name) compare nothing:
 * they are set aside, and the device counted once, with the first such
 * metric.
 */
static int set_aside_other_jobs(struct fleet *f)
{
	struct job_count *jc;
	size_t nr = group_workloads(f, &jc);

	if (nr == (size_t)-1)
		return -ENOMEM;
	for (size_t d = 0; d < f->nr_devs; d++) {
		struct fleet_device *dev = &f->devs[d];
		size_t kept = 0;

		for (size_t i = 0; i < dev->nr_vals; i++) {
			struct job_count key = { .group = dev->group,
						 .metric = dev->vals[i].metric,
						 .workload = dev->vals[i].workload };
			struct job_count *c = bsearch(&key, jc, nr, sizeof(*jc),
						      by_metric_workload);

			if (c && !c->fleets) {
				if (!dev->other_metric) {
					dev->other_metric = dev->vals[i].metric;
					dev->other_workload = dev->vals[i].workload;
				}
				continue;
			}
			dev->vals[kept++] = dev->vals[i];
		}
		dev->nr_vals = kept;
		f->nr_other_job_devs += dev->other_metric != NULL;
	}
	free(jc);
	return 0;
}

/* ---- judging ----------------------------------------------------------- */

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct strings among @n, which are sorted in place. */
static size_t distinct(const char **v, size_t n)
{
	size_t k = n ? 1 : 0;

	qsort(v, n, sizeof(*v), by_string);
	for (size_t i = 1; i < n; i++)
		k += strcmp(v[i - 1], v[i]) != 0;
	return k;
}

/* The hosts of the whole fleet, and of each group. */
static int count_hosts(struct fleet *f)
{
	const char **hosts = malloc((f->nr_devs ? f->nr_devs : 1) * sizeof(*hosts));

	if (!hosts)
		return -ENOMEM;
	for (size_t d = 0; d < f->nr_devs; d++)
		hosts[d] = f->devs[d].host;
	f->nr_hosts = distinct(hosts, f->nr_devs);
	for (size_t g = 0; g < f->nr_groups; g++) {
		struct fleet_group *grp = &f->groups[g];

		for (size_t i = 0; i < grp->nr_devs; i++)
			hosts[i] = f->devs[grp->devs[i]].host;
		grp->nr_hosts = distinct(hosts, grp->nr_devs);
	}
	free(hosts);
	return 0;
}

/*
 * The group's |z| threshold: Bonferroni's over every value it judges
 * (devices x metrics), never below --threshold, so that chance alone
 * gives a group an outlier with probability at most --alpha however
 * many devices it has; and how many chance alone would give.
 */
static void group_threshold(struct fleet *f, struct fleet_group *g)
{
	double tests = 0;

	for (size_t m = 0; m < g->nr_metrics; m++)
		tests += (double)g->metrics[m].n;
	g->z_threshold = bq_outlier_threshold(f->threshold, f->alpha, tests);
	g->chance = g->nr_devs >= FLEET_MIN_JUDGED ? bq_outlier_chance(g->z_threshold, tests) : 0;
	f->chance += g->chance;
}

static int judge(struct fleet *f, struct fleet_group *g, struct fleet_metric *m)
{
	/* The group size that counts is its devices', not this metric's values. */
	const struct bq_outlier_rule rule = {
		.threshold = g->z_threshold, .min_diff = f->min_diff, .min_group = 0,
		.log_scale = true,
	};
	struct bq_outlier *o = malloc(m->n * sizeof(*o));
	double *v = malloc(m->n * sizeof(*v));
	int ret = -ENOMEM;

	if (!v || !o)
		goto out_free;
	m->min = INFINITY;
	m->max = -INFINITY;
	for (size_t i = 0; i < m->n; i++) {
		v[i] = m->pts[i].v;
		m->min = fmin(m->min, v[i]);
		m->max = fmax(m->max, v[i]);
	}
	ret = bq_outliers(v, (int)m->n, &rule, &m->stats, o);
	for (size_t i = 0; !ret && i < m->n; i++) {
		struct fleet_point *p = &m->pts[i];

		p->z = o[i].z;
		p->diff = o[i].diff;
		p->outlier = g->nr_devs >= FLEET_MIN_JUDGED && o[i].outlier;
		p->worse = m->unit == FLEET_NS ? p->v > m->stats.median : p->v < m->stats.median;
		if (p->outlier)
			f->devs[p->dev].nr_outliers++;
	}
out_free:
	free(v);
	free(o);
	return ret;
}

int fleet_analyse(struct fleet *f)
{
	int ret = 0;

	for (size_t d = 0; d < f->nr_devs && !ret; d++) {
		struct fleet_device *dev = &f->devs[d];
		int g;

		if (!strcmp(dev->kind, "missing"))
			continue;
		g = find_group(f, dev);
		ret = g < 0 ? g : group_add(&f->groups[g], (int)d);
		dev->group = g;
	}
	if (!ret)
		ret = set_aside_other_jobs(f);
	if (!ret)
		ret = count_hosts(f);
	for (size_t g = 0; g < f->nr_groups && !ret; g++) {
		struct fleet_group *grp = &f->groups[g];

		for (size_t i = 0; i < grp->nr_devs && !ret; i++) {
			const struct fleet_device *dev = &f->devs[grp->devs[i]];

			for (size_t k = 0; k < dev->nr_vals && !ret; k++)
				ret = add_point(grp, grp->devs[i], &dev->vals[k]);
		}
		group_threshold(f, grp);
		for (size_t m = 0; m < grp->nr_metrics && !ret; m++)
			ret = judge(f, grp, &grp->metrics[m]);
	}
	for (size_t d = 0; d < f->nr_devs; d++) {
		f->nr_outlier_devs += f->devs[d].nr_outliers > 0;
		f->nr_failed_devs += f->devs[d].failures.n > 0;
	}
	return ret;
}

void fleet_free(struct fleet *f)
{
	for (size_t d = 0; d < f->nr_devs; d++)
		fleet_device_free(&f->devs[d]);
	free(f->devs);
	for (size_t g = 0; g < f->nr_groups; g++) {
		for (size_t m = 0; m < f->groups[g].nr_metrics; m++)
			free(f->groups[g].metrics[m].pts);
		free(f->groups[g].metrics);
		free(f->groups[g].devs);
		free(f->groups[g].model);
		free(f->groups[g].firmware);
	}
	free(f->groups);
	strpool_free(&f->strings);
	memset(f, 0, sizeof(*f));
}
