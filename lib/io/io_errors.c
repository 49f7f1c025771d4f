// SPDX-License-Identifier: GPL-2.0-only
/*
 * io_errors.c - failed I/Os counted by kind: direction, target, errno
 *
 * A device that went away fails every I/O, tens of thousands a second.
 * Listing them one by one says nothing more than a count with the range
 * of offsets and a few examples, and buries what else went wrong.
 */
#include <string.h>

#include "internal.h"
#include "blkqual_io.h"

static struct bq_io_error_group *find_group(struct bq_thread_result *t, int dir, int file,
					    int err, uint32_t sense)
{
	for (int i = 0; i < t->nr_groups; i++) {
		struct bq_io_error_group *g = &t->groups[i];

		if (g->dir == dir && g->file == file && g->err == err && g->sense == sense)
			return g;
	}
	if (t->nr_groups == BQ_MAX_ERROR_GROUPS)
		return NULL;
	return &t->groups[t->nr_groups++];
}

void bq_io_error_count(struct bq_thread_result *t, const struct bq_io_error *e)
{
	struct bq_io_error_group *g = find_group(t, e->dir, e->file, e->err, e->sense);

	if (!g) {
		t->ungrouped++;
		return;
	}
	if (!g->count) {
		g->dir = e->dir;
		g->file = e->file;
		g->err = e->err;
		g->sense = e->sense;
		g->min_offset = e->offset;
		g->max_offset = e->offset;
	}
	g->count++;
	if (e->offset < g->min_offset)
		g->min_offset = e->offset;
	if (e->offset > g->max_offset)
		g->max_offset = e->offset;
	g->last_offset = e->offset;
	if (g->nr_examples < BQ_ERROR_EXAMPLES)
		g->examples[g->nr_examples++] = e->offset;
}

void bq_io_error_groups_merge(struct bq_thread_result *dst, const struct bq_thread_result *src)
{
	dst->ungrouped += src->ungrouped;
	for (int i = 0; i < src->nr_groups; i++) {
		const struct bq_io_error_group *s = &src->groups[i];
		struct bq_io_error_group *g;

		if (!s->count)
			continue;
		g = find_group(dst, s->dir, s->file, s->err, s->sense);
		if (!g) {
			dst->ungrouped += s->count;
			continue;
		}
		if (!g->count) {
			*g = *s;
			continue;
		}
		g->count += s->count;
		if (s->min_offset < g->min_offset)
			g->min_offset = s->min_offset;
		if (s->max_offset > g->max_offset)
			g->max_offset = s->max_offset;
		g->last_offset = s->last_offset;
		for (int k = 0; k < s->nr_examples && g->nr_examples < BQ_ERROR_EXAMPLES; k++)
			g->examples[g->nr_examples++] = s->examples[k];
	}
}
