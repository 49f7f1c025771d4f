// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_test.c - blkqual latency, ioping's command line: numbers read
 * with ioping's suffixes, bad input refused in one line, and real runs on
 * an XFS over a scratch loop device: ping lines with the warm-up left out
 * of the statistics, the summary and its JSON, -RD, raw statistics, the
 * temp file gone (or kept with -k), writes to a device only through the
 * guard, O_DIRECT alignment on a 4k-sector device, Ctrl-C.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_latency.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/scratchfs.h"

/* Entries of a directory, "." and ".." and lost+found aside. */
static int dir_entries(const char *path)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
		     strcmp(d->d_name, "lost+found");
	closedir(dir);
	return n;
}

static int count_substr(const char *s, const char *needle)
{
	int n = 0;

	for (; s && (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/* blkqual latency ARGS...; up to 16 arguments. */
static int latency(struct run_result *r, const char *const *args)
{
	const char *argv[20] = { blkqual_path(), "latency" };
	int n = 2;

	for (int i = 0; args[i] && n < 18; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_argv(argv, r);
}

TEST(numbers_read_as_ioping_reads_them)
{
	static const struct { const char *s; uint64_t v; } sizes[] = {
		{ "4096", 4096 }, { "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4096 },
		{ "4kb", 4096 }, { "1.5m", 3 << 19 }, { "8sector", 4096 }, { "2page", 8192 },
		{ "1/2m", 1 << 19 }, { "1g", 1ULL << 30 }, { "0", 0 },
	};
	static const struct { const char *s; uint64_t v; } times[] = {
		{ "1", 1000000000 }, { "0.01", 10000000 }, { "10ms", 10000000 },
		{ "250us", 250000 }, { "100ns", 100 }, { "2min", 120000000000ULL },
		{ "2m", 120000000000ULL }, { "1hour", 3600000000000ULL }, { "3s", 3000000000ULL },
	};
	static const struct { const char *s; uint64_t v; } counts[] = {
		{ "10", 10 }, { "2k", 2000 }, { "1M", 1000000 }, { "0", 0 },
	};
	static const char *const bad[] = { "", "-1", "x", "4q", "1/0", "nan", "inf", "4 k" };
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(0, bq_latency_parse_size(sizes[i].s, &v)) TH_LOG("%s", sizes[i].s);
		EXPECT_EQ(sizes[i].v, v) TH_LOG("%s", sizes[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
		EXPECT_EQ(0, bq_latency_parse_time(times[i].s, &v)) TH_LOG("%s", times[i].s);
		EXPECT_EQ(times[i].v, v) TH_LOG("%s", times[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		EXPECT_EQ(0, bq_latency_parse_count(counts[i].s, &v)) TH_LOG("%s", counts[i].s);
		EXPECT_EQ(counts[i].v, v) TH_LOG("%s", counts[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, bq_latency_parse_size(bad[i], &v)) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(-EINVAL, bq_latency_parse_time(bad[i], &v)) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(-EINVAL, bq_latency_parse_count(bad[i], &v)) TH_LOG("'%s'", bad[i]);
	}
	/* ioping's counts stop at INT_MAX. */
	EXPECT_EQ(-ERANGE, bq_latency_parse_count("3G", &v));
	EXPECT_EQ(-ERANGE, bq_latency_parse_size("100eb", &v));
}

/*
 * Each bad command line: exit 2, one line on stderr naming the option (or
 * the target), nothing on stdout and nothing left in the directory.
 */
TEST(bad_input_is_one_line_and_exit_2)
{
	char dir[] = "/tmp/blkqual-latency.XXXXXX", file[64], missing[64];
	const struct {
		const char *args[8];
		const char *says;
	} cases[] = {
		{ { "-s", "0", dir }, "-s 0" },
		{ { "-c", "-1", dir }, "-c -1" },
		{ { "-c", "1x", dir }, "-c 1x" },
		{ { "-i", "soon", dir }, "-i soon" },
		{ { "-Z", dir }, "unknown option '-Z'" },
		{ { "-qZ", dir }, "unknown option '-Z' in '-qZ'" },
		{ { "--bogus", dir }, "unknown option '--bogus'" },
		{ { "-ra", "1", dir }, "ambiguous option '-ra'" },
		{ { "-inter", "1", dir }, "'-inter': spell the option out ('-interval')" },
		{ { "-c" }, "option '-c' needs a value" },
		{ { "-c", "1" }, "no target given" },
		{ { missing }, "No such file or directory" },
		{ { dir, "/" }, "more than one target" },
		{ { "-S", "1k", "-s", "4k", dir }, "-s: request size 4096 is larger than the" },
		{ { "-W", file }, "-W: writing to" },
		{ { "-WW", file }, "give -W three times" },
		{ { "-T", "0", dir }, "-T 0" },
		{ { "-e", "seed", dir }, "-e seed" },
		{ { "-s", "3g", dir }, "-s: request size 3221225472" },
		{ { "--output-format=xml", dir }, "--output-format=xml" },
		{ { "--force-destroy", file, file }, "--force-destroy without -W" },
	};
	struct run_result r;
	int fd;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/data", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 1 << 20));
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, latency(&r, cases[i].args));
		EXPECT_EQ(2, r.status) TH_LOG("case %zu (%s): %s", i, cases[i].says, r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_EQ(0, strncmp(r.err, "blkqual: latency: ", 18)) TH_LOG("%s", r.err);
		EXPECT_NE(NULL, strstr(r.err, cases[i].says)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_STREQ("", r.out);
		run_result_free(&r);
	}
	EXPECT_EQ(1, dir_entries(dir));
	unlink(file);
	rmdir(dir);
}

TEST(help_names_ioping_options)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "latency", "-h", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "-interval TIME"));
	EXPECT_NE(NULL, strstr(r.out, "-R, -rapid"));
	run_result_free(&r);
}

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char out[320];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->out, sizeof(self->out), "%s/out.json", self->fs.s.dir);
}

FIXTURE_TEARDOWN(xfs)
{
	unlink(self->out);
	scratchfs_destroy(&self->fs);
}

TEST_F(xfs, five_requests_first_is_warmup)
{
	const char *args[] = { "-c", "5", "-i", "0.01", self->fs.mnt, NULL };
	char where[400], line[400];
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(where, sizeof(where), " <<< %s (xfs %s ", self->fs.mnt, self->fs.s.dev);
	EXPECT_EQ(5, count_substr(r.out, where)) TH_LOG("%s", r.out);
	snprintf(line, sizeof(line), "4 KiB%s", where);
	EXPECT_EQ(0, strncmp(r.out, line, strlen(line))) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "): request=1 time=")) TH_LOG("%s", r.out);
	EXPECT_EQ(1, count_substr(r.out, "(warmup)")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "): request=5 time=")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " ioping statistics ---\n4 requests completed in "))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ", 16 KiB read, ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\ngenerated 5 requests in ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\nmin/avg/max/mdev = ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\npercentiles: p1=")) TH_LOG("%s", r.out);
	EXPECT_STREQ("", r.err);
	run_result_free(&r);
	/* The temp file was unnamed: nothing is left behind. */
	EXPECT_EQ(0, dir_entries(self->fs.mnt));
}

TEST_F(xfs, json_counts_what_the_summary_counts)
{
	const char *args[] = { "-J", "-c", "5", "-i", "0", "--output", self->out,
			       self->fs.mnt, NULL };
	json_object *root, *last, *file;
	struct run_result r;
	char *text;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("not JSON: %.300s", r.out);
	ASSERT_EQ(6, (int)json_object_array_length(root));
	EXPECT_EQ(1, json_int(json_object_array_get_idx(root, 0), "io.request", 0));
	EXPECT_TRUE(json_object_get_boolean(json_object_object_get(
		json_object_object_get(json_object_array_get_idx(root, 0), "io"), "ignored")));
	EXPECT_STREQ("xfs", json_str(json_object_array_get_idx(root, 0), "target.fstype"));
	EXPECT_STREQ(self->fs.s.dev, json_str(json_object_array_get_idx(root, 0),
					      "target.device"));
	last = json_object_array_get_idx(root, 5);
	EXPECT_EQ(4, json_int(last, "stat.count", -1));
	EXPECT_EQ(16384, json_int(last, "stat.size", -1));
	EXPECT_EQ(5, json_int(last, "load.count", -1));
	EXPECT_EQ(4, json_int(last, "latency.count", -1));
	EXPECT_EQ(json_int(last, "stat.min", -1), json_int(last, "latency.min", -2));
	EXPECT_LT(0, json_int(last, "latency.percentiles.99", 0));
	text = slurp(self->out);
	ASSERT_NE(NULL, text);
	file = json_tokener_parse(text);
	ASSERT_NE(NULL, file);
	EXPECT_EQ(4, json_int(file, "stat.count", -1));
	EXPECT_EQ(4, json_int(file, "latency.count", -1));
	json_object_put(file);
	free(text);
	json_object_put(root);
	run_result_free(&r);
	EXPECT_EQ(0, dir_entries(self->fs.mnt));
}

/* ioping -RD: no interval, quiet, 64m working set; -w 1 instead of 3 s. */
TEST_F(xfs, rapid_direct_for_one_second)
{
	const char *args[] = { "-RD", "-w", "1", self->fs.mnt, NULL };
	double done = 0;
	struct run_result r;
	const char *p;
	char unit[8];
	double secs;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(NULL, strstr(r.out, "request=")) TH_LOG("%.300s", r.out);
	p = strstr(r.out, "ioping statistics ---\n");
	ASSERT_NE(NULL, p) TH_LOG("%s", r.out);
	/* ioping's counts: "812", "25.3 k", "1.20 M" */
	ASSERT_EQ(2, sscanf(p, "ioping statistics ---\n%lf %7s", &done, unit))
		TH_LOG("%s", r.out);
	done *= !strcmp(unit, "k") ? 1e3 : !strcmp(unit, "M") ? 1e6 : 1;
	p = strstr(r.out, "generated ");
	ASSERT_NE(NULL, p);
	p = strstr(p, " requests in ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, " requests in %lf %7s", &secs, unit));
	EXPECT_STREQ("s,", unit) TH_LOG("%s", r.out);
	EXPECT_LE(0.99, secs);
	EXPECT_GT(1.5, secs);
	EXPECT_LT(100, done) TH_LOG("%s", r.out);
	run_result_free(&r);
	EXPECT_EQ(0, dir_entries(self->fs.mnt));
}

/* ioping -p: a raw line per N counted requests; with -q nothing else. */
TEST_F(xfs, raw_statistics_every_two_requests)
{
	const char *args[] = { "-p", "2", "-c", "5", "-i", "0", "-q", self->fs.mnt, NULL };
	const char *batch[] = { "-B", "-c", "3", "-i", "0", self->fs.mnt, NULL };
	unsigned long long f[10];
	struct run_result r;
	char *line;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	ASSERT_EQ(2, count_lines(r.out)) TH_LOG("%s", r.out);
	line = r.out;
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(10, sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
				     &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
				     &f[8], &f[9])) TH_LOG("%s", r.out);
		EXPECT_EQ(2, f[0]);
		EXPECT_EQ(i ? 2 : 3, f[8]);	/* the first period has the warm-up */
		EXPECT_LE(f[4], f[5]);		/* min <= avg <= max */
		EXPECT_LE(f[5], f[6]);
		/* bytes/s is IOPS times 4 KiB, each rounded on its own */
		EXPECT_GE(f[3] + 4096, f[2] * 4096) TH_LOG("%llu %llu", f[2], f[3]);
		EXPECT_LE(f[3], f[2] * 4096 + 4096) TH_LOG("%llu %llu", f[2], f[3]);
		line = strchr(line, '\n') + 1;
	}
	run_result_free(&r);
	ASSERT_EQ(0, latency(&r, batch));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	ASSERT_EQ(1, count_lines(r.out)) TH_LOG("%s", r.out);
	ASSERT_EQ(10, sscanf(r.out, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			     &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8],
			     &f[9]));
	EXPECT_EQ(2, f[0]);
	EXPECT_EQ(3, f[8]);
	run_result_free(&r);
}

TEST_F(xfs, keep_leaves_ioping_tmp_and_reuses_it)
{
	const char *args[] = { "-k", "-c", "2", "-i", "0", "-q", self->fs.mnt, NULL };
	const char *wargs[] = { "-k", "-W", "-c", "3", "-i", "0", self->fs.mnt, NULL };
	char tmp[360];
	struct run_result r;
	struct stat st;
	ino_t ino;

	PREP_READY(&self->p);
	snprintf(tmp, sizeof(tmp), "%s/ioping.tmp", self->fs.mnt);
	ASSERT_EQ(0, latency(&r, args));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, stat(tmp, &st));
	EXPECT_EQ(1 << 20, st.st_size);
	ino = st.st_ino;
	/* Writes to a directory's temp file need neither -WWW nor the guard. */
	ASSERT_EQ(0, latency(&r, wargs));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(3, count_substr(r.out, "4 KiB >>> ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ", 8 KiB written, ")) TH_LOG("%s", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, stat(tmp, &st));
	EXPECT_EQ(ino, st.st_ino);
	EXPECT_EQ(1, dir_entries(self->fs.mnt));
	unlink(tmp);
}

TEST_F(xfs, device_writes_pass_the_guard)
{
	const char *www[] = { "-WWW", "-c", "2", "-i", "0", self->fs.s.dev, NULL };
	const char *w[] = { "-W", "-c", "2", "-i", "0", self->fs.s.dev, NULL };
	const char *read[] = { "-c", "2", "-i", "0", "-D", self->fs.s.dev, NULL };
	char force[96];
	const char *forced[] = { "-WWW", force, "-c", "2", "-i", "0", self->fs.s.dev, NULL };
	struct run_result r;

	PREP_READY(&self->p);
	snprintf(force, sizeof(force), "--force-destroy=%s", self->fs.s.dev);
	ASSERT_EQ(0, latency(&r, w));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "-WWW")) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	/* Mounted: the guard refuses, and nothing overrides that. */
	ASSERT_EQ(0, latency(&r, www));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "mounted")) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, latency(&r, forced));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	run_result_free(&r);
	/* Reading it is fine: "(block device SIZE)" as ioping prints it. */
	ASSERT_EQ(0, latency(&r, read));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, " (block device 512 MiB): request=2 time="))
		TH_LOG("%s", r.out);
	run_result_free(&r);
}

TEST_F(xfs, direct_io_alignment_checked_first)
{
	const char *size[] = { "-D", "-s", "1000", self->fs.mnt, NULL };
	const char *off[] = { "-D", "-o", "100", self->fs.mnt, NULL };
	const char *ok[] = { "-D", "-s", "3k", "-c", "2", "-i", "0", self->fs.mnt, NULL };
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, size));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "-s: request size 1000 is not a multiple of 512"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, latency(&r, off));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "-o: offset 100 is not a multiple of 512"))
		TH_LOG("%s", r.err);
	run_result_free(&r);
	/* 512-byte sectors: 3k is aligned. */
	ASSERT_EQ(0, latency(&r, ok));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(2, count_substr(r.out, "3 KiB <<< ")) TH_LOG("%s", r.out);
	run_result_free(&r);
	EXPECT_EQ(0, dir_entries(self->fs.mnt));
}

TEST_F(xfs, ctrl_c_prints_the_summary)
{
	char log[320];
	const char *argv[] = { blkqual_path(), "latency", "-i", "0.2", self->fs.mnt, NULL };
	int status, fd;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	snprintf(log, sizeof(log), "%s/int.log", self->fs.s.dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	usleep(700 * 1000);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(128 + SIGINT, WEXITSTATUS(status));
	text = slurp(log);
	ASSERT_NE(NULL, text);
	EXPECT_LE(3, count_substr(text, "request=")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, " ioping statistics ---\n")) TH_LOG("%s", text);
	free(text);
	unlink(log);
	EXPECT_EQ(0, dir_entries(self->fs.mnt));
}

FIXTURE(dev4k)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_SETUP(dev4k)
{
	scratch_init(&self->s);
	scratch_device_lbs(&self->p, &self->s, 64 << 20, 4096);
}

FIXTURE_TEARDOWN(dev4k)
{
	scratch_destroy(&self->s);
}

TEST_F(dev4k, direct_requests_below_the_sector_refused)
{
	const char *small[] = { "-D", "-s", "3k", self->s.dev, NULL };
	const char *ok[] = { "-D", "-s", "8k", "-c", "3", "-i", "0", self->s.dev, NULL };
	const char *cached[] = { "-s", "3k", "-c", "2", "-i", "0", self->s.dev, NULL };
	struct run_result r;

	PREP_READY(&self->p);
	ASSERT_EQ(0, latency(&r, small));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "-s: request size 3072 is not a multiple of 4096"))
		TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, latency(&r, ok));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(3, count_substr(r.out, "8 KiB <<< ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " (block device 64 MiB) ioping statistics ---\n2 requests"))
		TH_LOG("%s", r.out);
	run_result_free(&r);
	/* Through the page cache any size goes, as with ioping. */
	ASSERT_EQ(0, latency(&r, cached));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
