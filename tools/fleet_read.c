// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_read.c - blkqual fleet's input: RESULTS_DIR/HOST/DEVICE.json (and
 * DEVICE.failed for a device that gave none), read by one thread per CPU
 *
 * A fleet is up to 100,000 files.  Each is parsed on its own, without the
 * parts fleet never reads, and only its figures are kept; the devices
 * still come out in the order of the files, whatever thread read them.
 * A broken file among thousands is counted, not the end of the run.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet.h"
#include "html/report_html.h"
#include "report_util.h"
#include "result_load.h"

#define FLEET_MAX_THREADS 16

enum fleet_outcome {
	FILE_DEVICE,		/* a result or a note: a device */
	FILE_NOT_JSON,
	FILE_NOT_RESULT,
	FILE_FLEET,		/* blkqual fleet's own output, left alone */
	FILE_ERROR,		/* the run cannot go on: @status, @why (NULL: out of memory) */
};

/* One file found, and what reading it gave. */
struct fleet_file {
	char *path;
	char *host;		/* NULL: a file outside a host directory */
	enum fleet_outcome outcome;
	int status;
	char *why;
	struct fleet_device dev;
};

/*
 * What fleet never reads of a result: histograms (blkqual's and fio's
 * json+ bins), intervals and per-thread figures, most of every file.
 */
static const char *const fleet_unused[] = { "histogram", "bins", "intervals", "threads", NULL };
static const struct result_want fleet_want = { .fio = true, .prune = fleet_unused };

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && !strcmp(s + ls - lx, suffix);
}

static int out_of_memory(struct fleet_reader *r, const char *path)
{
	cli_error(r->cli, "%s: %s", path, strerror(ENOMEM));
	return EXIT_REFUSED;
}

static int list_file(struct fleet_reader *r, const char *path, const char *host)
{
	struct fleet_file *grown, *ff;

	if (r->nr_files % 1024 == 0) {
		grown = realloc(r->files, (r->nr_files + 1024) * sizeof(*grown));
		if (!grown)
			return out_of_memory(r, path);
		r->files = grown;
	}
	ff = &r->files[r->nr_files];
	memset(ff, 0, sizeof(*ff));
	ff->path = strdup(path);
	ff->host = host ? strdup(host) : NULL;
	if (!ff->path || (host && !ff->host)) {
		free(ff->path);
		free(ff->host);
		return out_of_memory(r, path);
	}
	r->nr_files++;
	return 0;
}

static int no_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* RESULTS_DIR/HOST/NAME.json and NAME.failed; NAME.json directly in it too. */
static int list_dir(struct fleet_reader *r, const char *dir, const char *host)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, no_hidden, alphasort), ret = 0;

	if (n < 0)
		return cli_usage_error(r->cli, "%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *base = ents[i]->d_name;
		char path[4096];
		struct stat st;

		if (ret)
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, base);
		if (stat(path, &st)) {
			ret = cli_usage_error(r->cli, "%s: %s", path, strerror(errno));
			goto next;
		}
		if (S_ISDIR(st.st_mode) && !host)
			ret = list_dir(r, path, base);
		else if (S_ISREG(st.st_mode) && (ends_with(base, ".json") ||
						 ends_with(base, ".failed")))
			ret = list_file(r, path, host);
next:
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int fleet_reader_add(struct fleet_reader *r, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;

	if (stat(path, &st))
		return cli_usage_error(r->cli, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return list_dir(r, path, NULL);
	if (ends_with(base, ".json") || ends_with(base, ".failed"))
		return list_file(r, path, NULL);
	return cli_usage_error(r->cli, "%s: neither a results directory nor a .json result", path);
}

/* ---- reading, one file per call, on any thread ------------------------- */

struct fleet_workers {
	struct fleet_reader *r;
	struct fleet *f;
	atomic_size_t next;
	atomic_size_t done;
};

static void set_why(struct fleet_file *ff, enum fleet_outcome outcome, const char *why)
{
	ff->outcome = outcome;
	ff->why = strdup(why);
}

/* The first line of a playbook's note that says something. */
static void read_note(struct fleet_file *ff, const char *name)
{
	FILE *f = fopen(ff->path, "r");
	char why[512] = "", msg[4200];
	int ret;

	if (!f) {
		snprintf(msg, sizeof(msg), "%s: %s", ff->path, strerror(errno));
		ff->status = EXIT_BADINPUT;
		set_why(ff, FILE_ERROR, msg);
		return;
	}
	while (fgets(why, sizeof(why), f) && strspn(why, " \t\r\n") == strlen(why))
		;
	fclose(f);
	why[strcspn(why, "\r\n")] = '\0';
	ret = fleet_device_missing(&ff->dev, ff->host ? ff->host : "-", name, ff->path, why);
	if (ret) {
		ff->status = EXIT_REFUSED;
		ff->outcome = FILE_ERROR;
	}
}

static void keep_only(const struct bq_strv *only, struct fleet_device *d)
{
	size_t kept = 0;

	if (!only || !only->n)
		return;
	for (size_t i = 0; i < d->nr_vals; i++) {
		bool keep = false;

		for (size_t k = 0; k < only->n && !keep; k++)
			keep = strstr(d->vals[i].metric, only->v[k]);
		if (keep)
			d->vals[kept++] = d->vals[i];
	}
	d->nr_vals = kept;
}

static void read_result(struct fleet_workers *w, struct cli *cli, struct fleet_file *ff,
			const char *name)
{
	const char *host = ff->host;
	char err[512] = "";
	json_object *root;
	int ret;

	cli->capture = err;
	cli->capture_len = sizeof(err);
	ret = result_load(cli, ff->path, &fleet_want, &root);
	if (ret) {
		set_why(ff, FILE_NOT_JSON, err);
		return;
	}
	/* blkqual fleet -o json > RESULTS/fleet.json must not trip the next run. */
	if (jstr(root, "command") && !strcmp(jstr(root, "command"), "fleet")) {
		json_object_put(root);
		ff->outcome = FILE_FLEET;
		return;
	}
	if (!host)
		host = jstr(root, "host.hostname");
	ret = fleet_device_load(w->f, &ff->dev, host && *host ? host : "-", name, ff->path, root,
				err, sizeof(err));
	json_object_put(root);
	if (ret == -EINVAL) {
		fleet_device_free(&ff->dev);
		set_why(ff, FILE_NOT_RESULT, err);
	} else if (ret) {
		ff->status = EXIT_REFUSED;
		ff->outcome = FILE_ERROR;
	} else {
		keep_only(w->r->only, &ff->dev);
	}
}

static void *read_files(void *arg)
{
	struct fleet_workers *w = arg;
	struct fleet_reader *r = w->r;
	struct cli cli = *r->cli;
	size_t i, done;

	while ((i = atomic_fetch_add(&w->next, 1)) < r->nr_files) {
		struct fleet_file *ff = &r->files[i];
		const char *base = strrchr(ff->path, '/') ? strrchr(ff->path, '/') + 1 : ff->path;
		bool note = ends_with(base, ".failed");
		char name[512];

		snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - (note ? 7 : 5)), base);
		ff->outcome = FILE_DEVICE;
		if (note)
			read_note(ff, name);
		else
			read_result(w, &cli, ff, name);
		done = atomic_fetch_add(&w->done, 1) + 1;
		/* Thousands of files take seconds: say how far it got, on a terminal only. */
		if (r->progress && !(done % 1000))
			fprintf(stderr, "\rblkqual fleet: %zu of %zu files read", done, r->nr_files);
	}
	return NULL;
}

static int nr_threads(size_t files)
{
	cpu_set_t cpus;
	size_t n = 1;

	/* The CPUs it may run on (taskset, a cpuset), not all there are. */
	if (!sched_getaffinity(0, sizeof(cpus), &cpus) && CPU_COUNT(&cpus) > 0)
		n = (size_t)CPU_COUNT(&cpus);

	if (n > FLEET_MAX_THREADS)
		n = FLEET_MAX_THREADS;
	/* A thread is worth starting for a few dozen files. */
	if (n > files / 32 + 1)
		n = files / 32 + 1;
	return (int)n;
}

/* ---- in the files' order ------------------------------------------------ */

static int unread(struct fleet_reader *r, struct fleet_unread *u, const struct fleet_file *ff)
{
	const char *why = ff->why ? ff->why : "out of memory";

	if (!u->n++)
		snprintf(u->first, sizeof(u->first), "%s%s%s", strstr(why, ff->path) ? "" : ff->path,
			 strstr(why, ff->path) ? "" : ": ", why);
	if (u->names.n < FLEET_NAMED && bq_strv_add(&u->names, ff->path))
		return out_of_memory(r, ff->path);
	return 0;
}

static int gather(struct fleet_reader *r, struct fleet *f)
{
	int ret = 0;

	for (size_t i = 0; i < r->nr_files && !ret; i++) {
		struct fleet_file *ff = &r->files[i];

		switch (ff->outcome) {
		case FILE_DEVICE:
			r->nr_read++;
			if (fleet_add_device(f, &ff->dev))
				ret = out_of_memory(r, ff->path);
			break;
		case FILE_NOT_JSON:
			ret = unread(r, &r->not_json, ff);
			break;
		case FILE_NOT_RESULT:
			ret = unread(r, &r->not_result, ff);
			break;
		case FILE_FLEET:
			break;
		case FILE_ERROR:
			/* Without a reason, the only error: out of memory. */
			if (!ff->why)
				return out_of_memory(r, ff->path);
			cli_error(r->cli, "%s", ff->why);
			ret = ff->status;
			break;
		}
	}
	return ret;
}

int fleet_read(struct fleet_reader *r, struct fleet *f)
{
	struct fleet_workers w = { .r = r, .f = f };
	int n = nr_threads(r->nr_files), started = 0;
	pthread_t tids[FLEET_MAX_THREADS];

	/* A few strings per job, whatever the fleet's size. */
	if (!f->strings.ready && strpool_init(&f->strings, 4096)) {
		cli_error(r->cli, "%s", strerror(ENOMEM));
		return EXIT_REFUSED;
	}
	for (int t = 1; t < n; t++)
		if (!pthread_create(&tids[started], NULL, read_files, &w))
			started++;
	read_files(&w);
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	if (r->progress && r->nr_files >= 1000)
		fputs("\r\033[K", stderr);
	return gather(r, f);
}

void fleet_reader_free(struct fleet_reader *r)
{
	for (size_t i = 0; i < r->nr_files; i++) {
		free(r->files[i].path);
		free(r->files[i].host);
		free(r->files[i].why);
		fleet_device_free(&r->files[i].dev);
	}
	free(r->files);
	bq_strv_free(&r->not_json.names);
	bq_strv_free(&r->not_result.names);
	memset(r, 0, sizeof(*r));
}
