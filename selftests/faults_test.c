// SPDX-License-Identifier: GPL-2.0-only
/*
 * faults_test.c - blkqual run when things go wrong: a target that shrinks
 * or goes away mid-run, I/O that stops completing (a frozen filesystem
 * under a loop device), a full filesystem, misaligned direct I/O, and
 * signals (SIGINT, SIGTERM, a second SIGINT, SIGPIPE, kill -9).  Errors
 * must come as one line per kind with a count, never a flood, and a result
 * file must be whole or untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/loop.h>

#include "kselftest_harness.h"

#include "blkqual_ops.h"
#include "workloads/ops_int.h"
#include "internal.h"
#include "helpers/json.h"
#include "helpers/run.h"
#include "helpers/spawn.h"
#include "helpers/scratchdev.h"
#include "helpers/scratchfs.h"

/* Wait up to @ms for @path to exist; the time it took, or -1. */
static long long wait_file(const char *path, long long ms)
{
	long long t0 = now_ms();

	while (now_ms() - t0 < ms) {
		if (!access(path, F_OK))
			return now_ms() - t0;
		sleep_ms(10);
	}
	return -1;
}

static json_object *load_json(const char *path)
{
	char *text = slurp(path);
	json_object *root;

	if (!text)
		return NULL;
	root = json_tokener_parse(text);
	free(text);
	return root;
}

static json_object *job0(json_object *root)
{
	return json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
}

static bool jbool(json_object *o, const char *key)
{
	return json_object_get_boolean(json_object_object_get(o, key));
}

static int count_matching(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Files in @dir whose name starts with @prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
	char cmd[600];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -c '^%s'", dir, prefix);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* ---- a file target: no root needed ------------------------------------ */

FIXTURE(tmp)
{
	char dir[256];
	char file[300];
	char out[300];
	char log[300];
};

FIXTURE_SETUP(tmp)
{
	const char *t = getenv("TMPDIR");

	snprintf(self->dir, sizeof(self->dir), "%s/blkqual-faults.XXXXXX", t && *t ? t : "/tmp");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "%s/data", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/result.json", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
}

FIXTURE_TEARDOWN(tmp)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/*
 * Run @argv (a random read of a 64 MiB file, self->file) and truncate
 * the file to 0 half a second in.  Return: ms from the truncation to the
 * exit (the run killed after 5 s), or -1.
 */
static long long truncated_under_run(FIXTURE_DATA(tmp) *self, const char *const *argv,
				     int *status)
{
	pid_t pid;

	write_text(self->file, "");
	if (truncate(self->file, 64 << 20))
		return -1;
	pid = spawn_logged(argv, self->log);
	if (pid <= 0)
		return -1;
	sleep_ms(500);
	if (truncate(self->file, 0))
		return -1;
	return wait_exit_or_kill_ms(pid, 5000, status);
}

/*
 * Reads past the new end of a truncated file get nothing: not errors (the
 * kernel gave none), but short reads, counted on one line; the run sees
 * the file shrink, says so and ends (exit 1).
 */
TEST_F(tmp, truncated_file_is_said_once)
{
	char opt[320];
	const char *argv[] = { blkqual_path(), "run", "--no-status", opt, "--rw=randread",
			       "--bs=4k", "--iodepth=8", "--size=64m", "--runtime=20",
			       "--time_based", "--continue_on_error=1", "--name=trunc", NULL };
	long long took;
	int status;
	char *text;

	snprintf(opt, sizeof(opt), "--filename=%s", self->file);
	took = truncated_under_run(self, argv, &status);
	ASSERT_LE(0, took) TH_LOG("the run went on after its file was truncated");
	TH_LOG("run ended %lld ms after the truncation", took);
	EXPECT_GE(2500, took);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
	text = slurp(self->log);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, count_matching(text, "errors:")) TH_LOG("%s", text);
	EXPECT_EQ(1, count_matching(text, " met the end of the file")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "shrank from 67108864 to 0 bytes"));
	EXPECT_NE(NULL, strstr(text, "read: IOPS="));
	free(text);
}

/* ---- the file-level runner's watchdog ------------------------------------ */

struct stuck_arg {
	int fd;				/* a pipe nobody writes to (yet) */
};

/*
 * Thread 0 burns 100 ms of CPU, then blocks in read(); the others do
 * cheap operations until told to stop.
 */
static int stuck_fn(struct bq_ops_thread *t, void *arg)
{
	struct stuck_arg *a = arg;
	struct timespec cpu;
	char c;

	if (t->id == 0) {
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
		while (cpu.tv_sec == 0 && cpu.tv_nsec < 100000000L);
		if (read(a->fd, &c, 1) < 0)
			return -errno;
		return 0;
	}
	while (!bq_ops_should_stop(t)) {
		bq_ops_record(t, 0, 0, 1000, false);
		sleep_ms(1);
	}
	return 0;
}

/*
 * EAGAIN and EBUSY do not come from a loop device on demand, but they
 * are grouped like any errno: 20000 failures of three kinds on two
 * threads make three groups with their counts and offset ranges, and a
 * ninth kind is only counted.
 */
TEST(every_errno_is_one_group)
{
	static struct bq_thread_result a, b, sum;
	static const int errs[] = { EAGAIN, EBUSY, EIO };

	for (int i = 0; i < 20000; i++) {
		struct bq_io_error e = {
			.offset = 4096ull * (uint64_t)i, .len = 4096, .dir = BQ_WRITE,
			.err = i < 3 ? EIO : errs[i % 2], .file = 0,
		};

		bq_io_error_count(i % 4 ? &a : &b, &e);
	}
	bq_io_error_groups_merge(&sum, &a);
	bq_io_error_groups_merge(&sum, &b);
	ASSERT_EQ(3, sum.nr_groups);
	for (int g = 0; g < sum.nr_groups; g++) {
		const struct bq_io_error_group *x = &sum.groups[g];

		if (x->err == EIO) {
			EXPECT_EQ(3, x->count);
			EXPECT_EQ(0, x->min_offset);
			EXPECT_EQ(8192, x->max_offset);
		} else {
			EXPECT_TRUE(x->err == EAGAIN || x->err == EBUSY);
			EXPECT_EQ(x->err == EBUSY ? 9999 : 9998, x->count);
			EXPECT_EQ(BQ_ERROR_EXAMPLES, x->nr_examples);
		}
	}
	EXPECT_EQ(0, sum.ungrouped);
	for (int k = 0; k < BQ_MAX_ERROR_GROUPS; k++) {
		struct bq_io_error e = { .offset = 0, .len = 512, .dir = BQ_READ, .err = 100 + k };

		bq_io_error_count(&sum, &e);
	}
	EXPECT_EQ(BQ_MAX_ERROR_GROUPS, sum.nr_groups);
	EXPECT_EQ(3, sum.ungrouped);
}

/*
 * A thread stuck in one system call for longer than the stall timeout is
 * reported with the call and its file; the run returns without it and
 * the others stop.
 */
TEST(ops_runner_reports_a_thread_stuck_in_a_call)
{
	static struct stuck_arg a;
	struct bq_ops_opts o = {
		.nr_threads = 3, .nr_ops = 1, .fn = stuck_fn, .arg = &a,
		.stall_timeout_ns = 300000000ull,
	};
	struct bq_ops_result res;
	int fds[2];
	long long t0, took;

	ASSERT_EQ(0, pipe(fds));
	a.fd = fds[0];
	t0 = now_ms();
	ASSERT_EQ(0, bq_ops_run(NULL, &o, &res));
	took = now_ms() - t0;
	TH_LOG("the run returned after %lld ms (stall timeout 300 ms)", took);
	EXPECT_GE(1500, took);
	ASSERT_EQ(1, res.nr_stalls);
	EXPECT_EQ(0, res.stalls[0].thread);
	EXPECT_STREQ("read", res.stalls[0].call);
	EXPECT_EQ(0, strncmp(res.stalls[0].path, "pipe:[", 6)) TH_LOG("%s", res.stalls[0].path);
	EXPECT_LE(300000000ull, res.stalls[0].stalled_ns);
	EXPECT_LT(0, (long long)res.total[0].count);
	/* Its CPU time is read from outside: it never got to count its own. */
	EXPECT_LE(50000000ull, res.threads[0].usr_ns + res.threads[0].sys_ns)
		TH_LOG("stuck thread: usr %llu ns, sys %llu ns",
		       (unsigned long long)res.threads[0].usr_ns,
		       (unsigned long long)res.threads[0].sys_ns);
	bq_ops_result_free(&res);
	/* Let the stuck thread go: it returns to memory the run left for it. */
	EXPECT_EQ(1, write(fds[1], "x", 1));
	sleep_ms(50);
	close(fds[1]);
}

/* ---- signals: the nop engine needs no device ---------------------------- */

static pid_t spawn_nop(const char *out, const char *log, const char *extra)
{
	char output[320];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			       "--ioengine=nop", "--iodepth=8", "--runtime=30", "--time_based",
			       "--name=sig", extra, NULL };

	snprintf(output, sizeof(output), "--output=%s", out);
	return spawn_logged(argv, log);
}

/*
 * SIGINT and SIGTERM: the report of what was measured, "interrupted",
 * 128 + N.  Each is sent twice 20 ms apart, as timeout(1) sends it to the
 * process and then to its group: still one request, not "exit now".
 */
TEST_F(tmp, sigint_and_sigterm_report_and_exit_128_plus_signal)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		json_object *root;
		int status;
		pid_t pid;

		unlink(self->out);
		pid = spawn_nop(self->out, self->log, NULL);
		ASSERT_LT(0, pid);
		sleep_ms(400);
		kill(pid, sigs[i]);
		/* Apart enough not to merge into one pending signal, as timeout(1)'s are. */
		sleep_ms(20);
		kill(pid, sigs[i]);
		ASSERT_LE(0, wait_exit_ms(pid, 3000, &status)) TH_LOG("signal %d did not stop it",
								   sigs[i]);
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(128 + sigs[i], WEXITSTATUS(status));
		root = load_json(self->out);
		ASSERT_NE(NULL, root) TH_LOG("no whole result after signal %d", sigs[i]);
		EXPECT_TRUE(jbool(root, "interrupted"));
		EXPECT_LT(0, json_int(job0(root), "total.read.ios", 0));
		json_object_put(root);
	}
}

/*
 * kill -9 mid-run: an --output file that existed keeps its old content,
 * and no temporary file is left (nothing is written before the end).
 */
TEST_F(tmp, kill9_leaves_the_old_result_file)
{
	int status;
	char *text;
	pid_t pid;

	write_text(self->out, "old result\n");
	pid = spawn_nop(self->out, self->log, NULL);
	ASSERT_LT(0, pid);
	sleep_ms(300);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	text = slurp(self->out);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("old result\n", text);
	free(text);
	EXPECT_EQ(0, count_prefixed(self->dir, "result.json.tmp"));
}

/*
 * The reader of standard output goes away: no death by SIGPIPE; the run
 * ends as it would and says, at most, that the results could not be
 * written.
 */
TEST_F(tmp, closed_pipe_is_a_write_error_not_a_crash)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", "--interval=100ms",
			       "--ioengine=nop", "--runtime=1", "--time_based", "--name=pipe",
			       NULL };
	int fds[2], status, errfd;
	char c, err[300];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	snprintf(err, sizeof(err), "%s/stderr", self->dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		errfd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fds[1], 1);
		dup2(errfd, 2);
		close(fds[0]);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	EXPECT_EQ(1, read(fds[0], &c, 1));
	close(fds[0]);
	ASSERT_LE(0, wait_exit_ms(pid, 5000, &status));
	EXPECT_FALSE(WIFSIGNALED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_TRUE(WIFEXITED(status));
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		char *text = slurp(err);

		EXPECT_EQ(1, WEXITSTATUS(status));
		EXPECT_NE(NULL, text && strstr(text, "Broken pipe") ? text : NULL);
		EXPECT_EQ(1, count_lines(text ? text : ""));
		free(text);
	}
}

/* ---- a loop device whose size drops to 0 mid-run ------------------------ */

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
	char opt[96];
	char out[300];
	char log[300];
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->s.dev);
	snprintf(self->out, sizeof(self->out), "%s/result.json", self->s.dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->s.dir);
}

FIXTURE_TEARDOWN(dev)
{
	unlink(self->out);
	unlink(self->log);
	scratch_destroy(&self->s);
}

/*
 * Run @argv on the scratch device and cut its backing file to nothing
 * @after_ms in; with @announce, tell the kernel the new capacity (0) too,
 * as `losetup -c` does.  Return: ms from the cut to the exit, -1 when
 * the run was killed after 5 s, or -2 when the cut could not be made.
 */
static long long cut_under_run(FIXTURE_DATA(dev) *self, const char *const *argv,
			       long long after_ms, bool announce, int *status)
{
	pid_t pid;

	if (truncate(self->s.file, SCRATCH_SIZE) || ioctl(self->s.hold_fd, LOOP_SET_CAPACITY, 0))
		return -2;
	pid = spawn_logged(argv, self->log);
	if (pid <= 0)
		return -2;
	sleep_ms(after_ms);
	if (truncate(self->s.file, 0) ||
	    (announce && ioctl(self->s.hold_fd, LOOP_SET_CAPACITY, 0))) {
		kill(pid, SIGKILL);
		waitpid(pid, status, 0);
		return -2;
	}
	return wait_exit_or_kill_ms(pid, 5000, status);
}

/*
 * The backing file truncated and the new capacity (0) announced, as
 * `losetup -c` does: every later I/O fails.  With and without
 * continue_on_error the run ends within about a second, keeps what it
 * measured, writes --output and exits 1.  Without it the first failure
 * (the truncation, before the new size is announced) ends the thread;
 * with it, the run sees the target shrink, says so and ends.
 */
TEST_F(dev, device_gone_ends_the_run)
{
	for (int coe = 0; coe < 2; coe++) {
		char output[320];
		const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
				       self->opt, "--rw=randread", "--bs=4k", "--iodepth=16",
				       "--direct=1", "--runtime=20", "--time_based", "--name=gone",
				       coe ? "--continue_on_error=1" : "--continue_on_error=0",
				       NULL };
		json_object *root, *groups;
		long long took;
		int status;
		char *text;

		PREP_READY(&self->p);
		snprintf(output, sizeof(output), "--output=%s", self->out);
		unlink(self->out);
		took = cut_under_run(self, argv, 600, true, &status);
		ASSERT_LE(0, took) TH_LOG("continue_on_error=%d: the run went on", coe);
		TH_LOG("continue_on_error=%d: run ended %lld ms after the device went", coe, took);
		EXPECT_GE(2000, took);
		EXPECT_EQ(1, WEXITSTATUS(status));
		text = slurp(self->log);
		if (coe) {
			EXPECT_NE(NULL, text && strstr(text, "shrank from 536870912 to 0 bytes") ?
				  text : NULL) TH_LOG("%s", text ? text : "(no output)");
		}
		free(text);
		root = load_json(self->out);
		ASSERT_NE(NULL, root) TH_LOG("no whole --output");
		if (coe) {
			EXPECT_TRUE(jbool(root, "target_gone"));
		}
		EXPECT_LT(0, json_int(job0(root), "total.read.errors", 0));
		EXPECT_LT(1000, json_int(job0(root), "total.read.ios", 0));
		groups = json_object_object_get(job0(root), "error_groups");
		TH_LOG("error groups: %s", json_object_to_json_string(groups));
		/* Whatever failed, it is one kind: reads of this device. */
		EXPECT_EQ(1, (int)json_object_array_length(groups));
		if (json_object_array_length(groups)) {
			json_object *g = json_object_array_get_idx(groups, 0);

			EXPECT_STREQ("read", json_str(g, "direction"));
			EXPECT_STREQ(self->s.dev, json_str(g, "target"));
			EXPECT_LT(0, json_int(g, "count", 0));
			EXPECT_LE(json_int(g, "min_offset", -1), json_int(g, "max_offset", -2));
		}
		EXPECT_GE(32, (int)json_object_array_length(json_object_object_get(job0(root),
										  "errors")));
		json_object_put(root);
	}
}

/*
 * A run that fails (exit 1) because its I/Os failed says why on standard
 * error, also when the report goes to a file: one line with the count,
 * the first failure and the errno.
 */
TEST_F(dev, failed_ios_are_said_on_stderr)
{
	char output[320];
	const char *argv[] = { blkqual_path(), "run", "--no-status", output, self->opt,
			       "--rw=randread", "--bs=4k", "--iodepth=8", "--direct=1",
			       "--runtime=20", "--time_based", "--name=gone", NULL };
	int status;
	char *text;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	/* The capacity is not announced: the reads past the cut fail with EIO. */
	ASSERT_NE(-2, cut_under_run(self, argv, 500, false, &status));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
	text = slurp(self->log);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "gone: ")) TH_LOG("stderr: %s", text);
	EXPECT_NE(NULL, strstr(text, " failed: read of ")) TH_LOG("stderr: %s", text);
	EXPECT_NE(NULL, strstr(text, "Input/output error (EIO); the job stopped there"))
		TH_LOG("stderr: %s", text);
	free(text);
}

static bool has_xfs_magic(const char *dev)
{
	char magic[4] = { 0 };
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	bool yes;

	if (fd < 0)
		return false;
	yes = pread(fd, magic, 4, 0) == 4 && !memcmp(magic, "XFSB", 4);
	close(fd);
	return yes;
}

static bool is_mounted(const char *dir)
{
	char *text = slurp("/proc/self/mountinfo"), needle[300];
	bool yes;

	snprintf(needle, sizeof(needle), " %s ", dir);
	yes = text && strstr(text, needle);
	free(text);
	return yes;
}

/*
 * What `fs create` leaves when killed between mount and exit (an XFS
 * labelled blkqual, mounted on /mnt/blkqual-NAME), made by hand: `fs
 * destroy` unmounts it, removes the directory and wipes the signature.
 */
TEST_F(dev, fs_destroy_cleans_up_a_killed_fs_create)
{
	const char *base = strrchr(self->s.dev, '/') + 1;
	struct run_result r;
	char mnt[128];

	PREP_READY(&self->p);
	if (need_program("mkfs.xfs"))
		SKIP(return, "%s", need_program("mkfs.xfs"));
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	snprintf(mnt, sizeof(mnt), "/mnt/blkqual-%s", base);
	ASSERT_EQ(0, run_quiet("mkfs.xfs -q -f -L blkqual %s", self->s.dev));
	ASSERT_EQ(0, mkdir(mnt, 0755) && errno != EEXIST ? -errno : 0);
	ASSERT_EQ(0, mount(self->s.dev, mnt, "xfs", MS_NOATIME, NULL));
	ASSERT_EQ(0, run_blkqual(&r, "fs", "destroy", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_FALSE(is_mounted(mnt));
	EXPECT_NE(0, access(mnt, F_OK));
	EXPECT_FALSE(has_xfs_magic(self->s.dev));
	run_result_free(&r);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

/*
 * fs create that fails after mkfs (the mount point is a file): nothing it
 * made stays, neither the filesystem nor a mount.
 */
TEST_F(dev, failed_fs_create_undoes_its_filesystem)
{
	struct run_result r;
	char where[320], opt[340];

	PREP_READY(&self->p);
	if (need_program("mkfs.xfs"))
		SKIP(return, "%s", need_program("mkfs.xfs"));
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	snprintf(where, sizeof(where), "%s/not-a-dir", self->s.dir);
	write_text(where, "");
	snprintf(opt, sizeof(opt), "--mount=%s", where);
	ASSERT_EQ(0, run_blkqual(&r, "fs", "create", opt, self->s.dev, NULL));
	EXPECT_EQ(1, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_FALSE(is_mounted(where));
	EXPECT_FALSE(has_xfs_magic(self->s.dev));
	run_result_free(&r);
	unlink(where);
}

/*
 * The device's logical block size grows to 4 KiB under a run of 512-byte
 * direct reads (LOOP_SET_BLOCK_SIZE): every read is now misaligned and
 * fails with EINVAL, one line for all of them.  continue_on_error goes on
 * only after EIO and EILSEQ unless ignore_error says otherwise (fio's
 * rule), so the thread stops at once rather than giving up a second later.
 */
TEST_F(dev, misaligned_direct_io_is_one_einval_line)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", self->opt, "--rw=randread",
			       "--bs=512", "--direct=1", "--size=64m", "--runtime=10",
			       "--time_based", "--continue_on_error=1", "--name=align", NULL };
	long long took;
	int status;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	pid = spawn_logged(argv, self->log);
	ASSERT_LT(0, pid);
	sleep_ms(400);
	ASSERT_EQ(0, ioctl(self->s.hold_fd, LOOP_SET_BLOCK_SIZE, 4096));
	took = wait_exit_or_kill_ms(pid, 5000, &status);
	ASSERT_LE(0, took);
	TH_LOG("run ended %lld ms after the block size changed", took);
	EXPECT_EQ(1, WEXITSTATUS(status));
	text = slurp(self->log);
	ASSERT_NE(NULL, text);
	/* A read caught in the change may fail otherwise: at most one more line. */
	EXPECT_GE(2, count_matching(text, "errors:")) TH_LOG("%s", text);
	EXPECT_EQ(1, count_matching(text, "x Invalid argument (EINVAL), offset"))
		TH_LOG("%s", text);
	EXPECT_EQ(NULL, strstr(text, "gave up")) TH_LOG("%s", text);
	free(text);
}

/* ---- a small XFS that fills up ------------------------------------------ */

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char file[400];
	char opt[420];
	char log[400];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->file, sizeof(self->file), "%s/data", self->fs.mnt);
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->file);
	snprintf(self->log, sizeof(self->log), "%s/log", self->fs.s.dir);
}

FIXTURE_TEARDOWN(xfs)
{
	unlink(self->file);
	unlink(self->log);
	scratchfs_destroy(&self->fs);
}

/*
 * Writes into the holes of a sparse file larger than the filesystem:
 * once it is full, every write fails with ENOSPC, shown as one line.
 * ignore_error lists ENOSPC for writes, so the job goes on to its end
 * and, as in fio, the expected errors fail nothing.
 */
TEST_F(xfs, full_filesystem_is_one_enospc_line)
{
	const char *argv[] = { blkqual_path(), "run", "--no-status", self->opt, "--rw=write",
			       "--bs=1m", "--iodepth=4", "--direct=1", "--size=1g",
			       "--continue_on_error=1", "--ignore_error=,ENOSPC", "--name=full",
			       NULL };
	int status;
	char *text;
	pid_t pid;

	PREP_READY(&self->p);
	write_text(self->file, "");
	ASSERT_EQ(0, truncate(self->file, 1LL << 30));
	pid = spawn_logged(argv, self->log);
	ASSERT_LT(0, pid);
	ASSERT_LE(0, wait_exit_ms(pid, 20000, &status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	text = slurp(self->log);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, count_matching(text, "errors:")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "x No space left on device (ENOSPC), offsets "))
		TH_LOG("%s", text);
	free(text);
}

/* ---- a loop device over a file on an XFS that can be frozen ------------- */

FIXTURE(frozen)
{
	struct prep p;
	struct scratchfs fs;
	struct scratch inner;		/* the loop device the run writes to */
	bool frozen;
	pid_t pid;
	char opt[96];
	char out[400];
	char log[400];
};

static int freeze(const char *mnt, bool on)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, on ? FIFREEZE : FITHAW, 0) ? -errno : 0;
	close(fd);
	return ret;
}

FIXTURE_SETUP(frozen)
{
	int fd;

	self->pid = -1;
	scratchfs_init(&self->fs);
	scratch_init(&self->inner);
	scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	if (!prep_ok(&self->p))
		return;
	if (snprintf(self->inner.file, sizeof(self->inner.file), "%s/inner.img",
		     self->fs.mnt) >= (int)sizeof(self->inner.file)) {
		prep_fail(&self->p, "naming the inner file", -ENAMETOOLONG);
		return;
	}
	fd = open(self->inner.file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	prep_fail(&self->p, "making the inner file", fd < 0 ? -errno : 0);
	if (fd >= 0) {
		prep_fail(&self->p, "sizing the inner file",
			  ftruncate(fd, 128 << 20) ? -errno : 0);
		close(fd);
	}
	if (prep_ok(&self->p))
		prep_fail(&self->p, "attaching the inner loop device",
			  scratch_attach(&self->inner));
	snprintf(self->opt, sizeof(self->opt), "--filename=%s", self->inner.dev);
	snprintf(self->out, sizeof(self->out), "%s/result.json", self->fs.s.dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->fs.s.dir);
}

FIXTURE_TEARDOWN(frozen)
{
	int status;

	/* Thaw first, always: nothing under a frozen filesystem can finish. */
	if (self->frozen && freeze(self->fs.mnt, false))
		TH_LOG("thawing %s: %s", self->fs.mnt, strerror(errno));
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, &status, 0);
	}
	unlink(self->out);
	unlink(self->log);
	scratch_destroy(&self->inner);
	scratchfs_destroy(&self->fs);
}

/*
 * Start @argv (it writes its JSON to self->out), freeze the backing
 * filesystem 800 ms in, wait up to 8 s for the stall report, thaw, and
 * wait for the exit.  Return: ms from the freeze to the report, or -1.
 */
static long long stall_under_freeze(struct __test_metadata *_metadata,
				    FIXTURE_DATA(frozen) *self, const char *const *argv,
				    int *status)
{
	long long took;

	self->pid = spawn_logged(argv, self->log);
	if (self->pid <= 0)
		return -1;
	sleep_ms(800);
	if (freeze(self->fs.mnt, true))
		return -1;
	self->frozen = true;
	took = wait_file(self->out, 8000);
	if (took < 0) {
		char *text = slurp(self->log);

		TH_LOG("no stall report 8 s after the freeze: %s", text ? text : "");
		free(text);
	}
	/* The report is out; the stuck I/O finishes once thawed, then it exits. */
	if (freeze(self->fs.mnt, false))
		return -1;
	self->frozen = false;
	if (wait_exit_ms(self->pid, 5000, status) < 0)
		return -1;
	self->pid = -1;
	return took;
}

/*
 * Writes to a loop device block while its backing file's filesystem is
 * frozen.  With --stall-timeout=2s the run reports the stuck thread and
 * its outstanding writes about 2 s after the freeze, writes --output and
 * exits 1 without waiting for them.
 */
TEST_F(frozen, stall_is_reported_with_outstanding_ios)
{
	char output[420];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			       "--stall-timeout=2s", self->opt, "--rw=randwrite", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=30", "--time_based",
			       "--name=stall", NULL };
	json_object *root, *stall, *io;
	long long took;
	int status;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	took = stall_under_freeze(_metadata, self, argv, &status);
	ASSERT_LE(0, took);
	TH_LOG("stall reported %lld ms after the freeze (timeout 2 s)", took);
	EXPECT_GE(3500, took);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
	root = load_json(self->out);
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(jbool(root, "stalled"));
	stall = json_object_array_get_idx(json_object_object_get(job0(root), "stalls"), 0);
	ASSERT_NE(NULL, stall);
	EXPECT_LE(1, json_int(stall, "outstanding", 0));
	EXPECT_LE(2000000000LL, json_int(stall, "stalled_ns", 0));
	io = json_object_array_get_idx(json_object_object_get(stall, "ios"), 0);
	ASSERT_NE(NULL, io);
	EXPECT_STREQ("write", json_str(io, "direction"));
	EXPECT_STREQ(self->inner.dev, json_str(io, "target"));
	EXPECT_EQ(4096, json_int(io, "length", 0));
	EXPECT_LE(2000000000LL, json_int(io, "age_ns", 0));
	EXPECT_LT(0, json_int(job0(root), "total.write.ios", 0));
	json_object_put(root);
}

/*
 * fsync=N flushes with nothing in flight; a flush that never returns is a
 * stall all the same.  Buffered writes to the loop device land in its
 * page cache at once, and the flush is what waits on the frozen backing
 * file.
 */
TEST_F(frozen, stuck_fsync_is_a_stall)
{
	char output[420];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			       "--stall-timeout=2s", self->opt, "--ioengine=psync",
			       "--rw=write", "--bs=4k", "--fsync=64", "--size=64m",
			       "--runtime=30", "--time_based", "--name=flush", NULL };
	json_object *root, *stall;
	long long took;
	int status;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	took = stall_under_freeze(_metadata, self, argv, &status);
	ASSERT_LE(0, took);
	TH_LOG("stuck flush reported %lld ms after the freeze (timeout 2 s)", took);
	EXPECT_EQ(1, WEXITSTATUS(status));
	root = load_json(self->out);
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(jbool(root, "stalled"));
	stall = json_object_array_get_idx(json_object_object_get(job0(root), "stalls"), 0);
	ASSERT_NE(NULL, stall);
	EXPECT_TRUE(jbool(stall, "in_fsync"));
	EXPECT_EQ(0, json_int(stall, "outstanding", -1));
	EXPECT_LT(0, json_int(job0(root), "total.write.ios", 0));
	json_object_put(root);
}

/*
 * A verifying run that stalls cannot close its state cleanly: writes are
 * still in flight.  It leaves the state as a crash would (marked not
 * closed, those blocks in flight), and once the device is back `blkqual
 * verify` checks every block against it with nothing found bad.
 */
TEST_F(frozen, stalled_verify_run_leaves_a_usable_state)
{
	char output[420], state[420];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			       "--stall-timeout=2s", self->opt, "--rw=randwrite", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=30", "--time_based",
			       "--size=16m", "--verify=crc32c", "--verify-state", state,
			       "--name=stall", NULL };
	const char *check[] = { blkqual_path(), "verify", "-o", "json", "--verify-state", state,
				NULL };
	json_object *root, *st, *v;
	struct run_result r;
	int status;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	snprintf(state, sizeof(state), "%s/vstate", self->fs.s.dir);
	ASSERT_LE(0, stall_under_freeze(_metadata, self, argv, &status));
	EXPECT_EQ(1, WEXITSTATUS(status));

	ASSERT_EQ(0, run_argv(check, &r));
	EXPECT_EQ(0, r.status) TH_LOG("verify: %s", r.err);
	root = json_tokener_parse(r.out);
	ASSERT_NE(NULL, root) TH_LOG("verify printed: %s", r.out);
	st = json_object_object_get(root, "state");
	v = json_object_object_get(root, "verify");
	EXPECT_FALSE(jbool(st, "clean"));
	EXPECT_LT(0, json_int(st, "blocks_written", 0));
	EXPECT_EQ(json_int(st, "blocks_written", 0), json_int(v, "blocks_checked", -1));
	EXPECT_EQ(0, json_int(v, "bad_blocks", -1));
	TH_LOG("state: %lld blocks written, %lld in flight at the stall",
	       json_int(st, "blocks_written", 0), json_int(st, "in_flight", 0));
	json_object_put(root);
	run_result_free(&r);
}

/*
 * The file-level commands through their own option: blkqual fileio
 * writing into a frozen filesystem is stuck in write(2); with
 * --stall-timeout=1 it names the call and the file about a second later
 * and exits 1 once the thaw lets the call return.
 */
TEST_F(frozen, fileio_stall_names_the_call)
{
	char dir[420];
	const char *prep[] = { blkqual_path(), "fileio", dir, "--file-num=2",
			       "--file-total-size=8M", "prepare", NULL };
	const char *argv[] = { blkqual_path(), "fileio", dir, "--file-num=2",
			       "--file-total-size=8M", "--file-test-mode=rndwr", "--time=30",
			       "--stall-timeout=1", "run", NULL };
	struct run_result r;
	long long took;
	int status;
	char *text;

	PREP_READY(&self->p);
	snprintf(dir, sizeof(dir), "--directory=%s", self->fs.mnt);
	ASSERT_EQ(0, run_argv(prep, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	run_result_free(&r);
	self->pid = spawn_logged(argv, self->log);
	ASSERT_LT(0, self->pid);
	sleep_ms(500);
	ASSERT_EQ(0, freeze(self->fs.mnt, true));
	self->frozen = true;
	took = wait_log_ms(self->pid, self->log, "stalled: in ", 6000);
	text = slurp(self->log);
	TH_LOG("stall reported %lld ms after the freeze (timeout 1 s): %.300s", took,
	       text ? text : "");
	ASSERT_LE(0, took);
	EXPECT_GE(2500, took);
	EXPECT_NE(NULL, strstr(text, "test_file.")) TH_LOG("%s", text);
	free(text);
	ASSERT_EQ(0, freeze(self->fs.mnt, false));
	self->frozen = false;
	ASSERT_LE(0, wait_exit_ms(self->pid, 10000, &status));
	self->pid = -1;
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
}

/*
 * SIGINT while writes hang: the first one waits for what is in flight,
 * which cannot finish; a second one (a real one, not the same signal sent
 * twice at once) leaves the stuck threads, writes what was measured to
 * --output with the threads left and their I/Os, and ends with 130 once
 * the process can exit.
 */
TEST_F(frozen, second_sigint_writes_what_was_measured)
{
	char output[420];
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", output,
			       "--stall-timeout=0", self->opt, "--rw=randwrite", "--bs=4k",
			       "--iodepth=8", "--direct=1", "--runtime=30", "--time_based",
			       "--name=drain", NULL };
	json_object *root, *stalls;
	int status;
	char *text;

	PREP_READY(&self->p);
	snprintf(output, sizeof(output), "--output=%s", self->out);
	unlink(self->out);
	self->pid = spawn_logged(argv, self->log);
	ASSERT_LT(0, self->pid);
	sleep_ms(600);
	ASSERT_EQ(0, freeze(self->fs.mnt, true));
	self->frozen = true;
	sleep_ms(300);
	kill(self->pid, SIGINT);
	sleep_ms(500);
	/* Still draining: the first SIGINT cannot end it while writes hang. */
	EXPECT_EQ(0, waitpid(self->pid, &status, WNOHANG));
	EXPECT_NE(0, access(self->out, F_OK));
	kill(self->pid, SIGINT);
	EXPECT_LE(0, wait_file(self->out, 3000)) {
		text = slurp(self->log);
		TH_LOG("no result 3 s after the second SIGINT: %s", text ? text : "");
		free(text);
	}
	ASSERT_EQ(0, freeze(self->fs.mnt, false));
	self->frozen = false;
	ASSERT_LE(0, wait_exit_ms(self->pid, 5000, &status));
	self->pid = -1;
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(128 + SIGINT, WEXITSTATUS(status));
	root = load_json(self->out);
	ASSERT_NE(NULL, root);
	EXPECT_TRUE(jbool(root, "interrupted"));
	EXPECT_LT(0, json_int(job0(root), "total.write.ios", 0));
	stalls = json_object_object_get(job0(root), "stalls");
	ASSERT_NE(NULL, stalls);
	ASSERT_EQ(1, json_object_array_length(stalls));
	EXPECT_LT(0, json_int(json_object_array_get_idx(stalls, 0), "outstanding", 0));
	json_object_put(root);
	text = slurp(self->log);
	EXPECT_NE(NULL, strstr(text ? text : "", "left at a second signal")) {
		TH_LOG("stderr: %s", text ? text : "");
	}
	free(text);
}

TEST_HARNESS_MAIN
