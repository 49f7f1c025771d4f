// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_test.c - blkqual replay: dbench loadfiles parsed once (both line
 * forms, bad lines named by file:line), and replayed on a scratch XFS by
 * two clients with every status compared: the project's own small.txt
 * covers every operation and its expected failures and must replay with
 * no mismatch, a wrong expected status must be counted and named, and
 * Debian's client.txt must replay at a sane speed without mismatches.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_replay.h"
#include "workloads/replay/replay_int.h"
#include "helpers/run.h"
#include "helpers/json.h"
#include "helpers/scratchfs.h"

#define CLIENT_TXT "/usr/share/dbench/client.txt"

static void fixture_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/selftests/fixtures/replay/small.txt", srctree_path());
}

static int parse_text(const char *text, struct bq_loadfile *lf, struct bq_parse_error *err)
{
	return bq_loadfile_parse_buf("t.txt", text, strlen(text), lf, err);
}

/* A file @name in @dir holding @text; its path in @path. */
static int write_file(char *path, size_t len, const char *dir, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* The fixture with some lines replaced: "17:new text" pairs. */
static char *edited_fixture(const char *const *edits, size_t n)
{
	char path[512], *text, *out, *line, *save = NULL;
	size_t len, used = 0;
	int no = 0;

	fixture_path(path, sizeof(path));
	text = slurp(path);
	if (!text)
		return NULL;
	len = strlen(text) + 4096;
	out = calloc(1, len);
	for (line = strtok_r(text, "\n", &save); out && line; line = strtok_r(NULL, "\n", &save)) {
		const char *use = line;

		no++;
		for (size_t i = 0; i < n; i++)
			if (atoi(edits[i]) == no)
				use = strchr(edits[i], ':') + 1;
		used += (size_t)snprintf(out + used, len - used, "%s\n", use);
	}
	free(text);
	return out;
}

static bool dir_is_empty(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", dir);
	return system(cmd) == 0;
}

/* ---- the parser -------------------------------------------------------------- */

TEST(fixture_has_every_operation_and_expected_failures)
{
	struct bq_parse_error err = { 0 };
	struct bq_loadfile lf;
	char path[512];
	bool failure_status = false;

	fixture_path(path, sizeof(path));
	ASSERT_EQ(0, bq_loadfile_parse(path, &lf, &err)) TH_LOG("%s: %s", err.where, err.msg);
	for (int k = 0; k <= BQ_REPLAY_SLEEP; k++) {
		EXPECT_LT(0, lf.per_kind[k]) TH_LOG("no %s line", bq_replay_op_name(k));
	}
	for (uint32_t i = 0; i < lf.nr_statuses; i++)
		if (lf.statuses[i].code != BQ_NT_STATUS_OK)
			failure_status = true;
	EXPECT_TRUE(failure_status);
	EXPECT_EQ(NULL, lf.time_ns);
	EXPECT_EQ(65536, lf.max_io);
	bq_loadfile_free(&lf);
}

TEST(both_line_forms_parse)
{
	const char *text =
		"# dbench 4 lines and later ones led by a timestamp, mixed\r\n"
		"NTCreateX \"\\clients\\client1\\~dmtmp\" 0x1 0x2 9937 NT_STATUS_OK\n"
		"0.250 Close 9937 NT_STATUS_OK\n"
		"\n"
		"1.5 QUERY_PATH_INFORMATION \"\\clients\\client1\\a b.txt\" 1004 "
		"NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"FIND_FIRST \"\\clients\\client1\\~dmtmp\\*\" 260 1366 11 0x00000000\n"
		"ReadX 9937 0x10 4096 100 NT_STATUS_OK\n"
		"Unlink \"\\clients\\x\" 0x6 *";
	struct bq_parse_error err = { 0 };
	struct bq_loadfile lf;
	const struct bq_replay_op *op;

	ASSERT_EQ(0, parse_text(text, &lf, &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(6, lf.nr_ops);
	ASSERT_NE(NULL, lf.time_ns);
	EXPECT_EQ(0, lf.time_ns[0]);
	EXPECT_EQ(250000000ull, lf.time_ns[1]);
	EXPECT_EQ(1500000000ull, lf.time_ns[2]);

	op = &lf.ops[0];
	EXPECT_EQ(BQ_REPLAY_NTCREATEX, op->kind);
	EXPECT_EQ(2, op->line);
	EXPECT_EQ(1, op->a);
	EXPECT_EQ(2, op->b);
	EXPECT_STREQ("clients/client1/~dmtmp", lf.paths[op->path].name);
	EXPECT_EQ(8, lf.paths[op->path].client_at);
	/* One fnum, one handle: Close finds the same slot. */
	EXPECT_EQ(op->handle, lf.ops[1].handle);
	EXPECT_EQ(1, lf.nr_handles);
	EXPECT_STREQ("clients/client1/a b.txt", lf.paths[lf.ops[2].path].name);
	EXPECT_EQ(BQ_NT_STATUS_OBJECT_NAME_NOT_FOUND, lf.statuses[lf.ops[2].status].code);
	EXPECT_TRUE(lf.paths[lf.ops[3].path].wildcard);
	EXPECT_EQ(11, lf.ops[3].c);
	EXPECT_EQ(BQ_REPLAY_EXPECT_CODE, lf.statuses[lf.ops[3].status].expect);
	EXPECT_EQ(16, lf.ops[4].offset);
	EXPECT_EQ(4096, lf.ops[4].size);
	EXPECT_EQ(100, lf.ops[4].c);
	EXPECT_EQ(-1, lf.paths[lf.ops[5].path].client_at);
	EXPECT_EQ(BQ_REPLAY_EXPECT_ANY, lf.statuses[lf.ops[5].status].expect);
	bq_loadfile_free(&lf);
}

TEST(bad_lines_are_named_by_file_and_line)
{
	static const struct {
		const char *text;
		const char *where;
		const char *msg;
	} cases[] = {
		{ "Close 1 NT_STATUS_OK\nFoo 1 NT_STATUS_OK\n", "t.txt:2", "unknown operation 'Foo'" },
		{ "\n\nClose 1\n", "t.txt:3", "Close: missing status" },
		{ "ReadX 1 0 4k 4096 NT_STATUS_OK\n", "t.txt:1", "bad number '4k' in field 3" },
		{ "ReadX 1 0 4096 NT_STATUS_OK\n", "t.txt:1", "ReadX takes 4 fields" },
		{ "Close 1 2 NT_STATUS_OK\n", "t.txt:1", "Close takes 1 field " },
		{ "WriteX 1 0 99999999 4096 NT_STATUS_OK\n", "t.txt:1", "too large" },
		{ "Deltree \"\\clients\" NT_STATUS_OK\n", "t.txt:1", "outside the client's own" },
		{ "Unlink \"\\clients\\client1\\..\\..\\etc\" 0x6 NT_STATUS_OK\n", "t.txt:1",
		  "goes up with '..'" },
		{ "NTCreateX \"\\a\" 0x0 0x9 1 NT_STATUS_OK\n", "t.txt:1", "create_disposition 9" },
		{ "Mkdir \"\\a NT_STATUS_OK\n", "t.txt:1", "unbalanced" },
		{ "0.1\n", "t.txt:1", "a timestamp and no operation" },
		{ "REPEAT 10\n", "t.txt:1", "dbench 5 control line" },
		{ "# only a comment\n", "t.txt:1", "no operations" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bq_parse_error err = { 0 };
		struct bq_loadfile lf;

		EXPECT_EQ(-EINVAL, parse_text(cases[i].text, &lf, &err)) TH_LOG("case %zu", i);
		EXPECT_STREQ(cases[i].where, err.where) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].msg)) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_EQ(NULL, strchr(err.msg, '\n'));
		bq_loadfile_free(&lf);
	}
}

TEST(client_txt_parses_in_a_second)
{
	struct bq_parse_error err = { 0 };
	struct timespec a, b;
	struct bq_loadfile lf;
	double s;

	if (access(CLIENT_TXT, R_OK))
		SKIP(return, "%s is not installed (Debian's dbench package; make deps)", CLIENT_TXT);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ASSERT_EQ(0, bq_loadfile_parse(CLIENT_TXT, &lf, &err)) TH_LOG("%s: %s", err.where, err.msg);
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	EXPECT_GT(1.0, s) TH_LOG("%.3f s", s);
	EXPECT_LT(400000, lf.nr_ops);
	/* Every row of dbench's table but Rmdir, which client.txt does not use. */
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		if (k != BQ_REPLAY_RMDIR) {
			EXPECT_LT(0, lf.per_kind[k]) TH_LOG("%s", bq_replay_kind_name(k));
		}
	}
	/* The records are compact: far fewer distinct paths and handles than lines. */
	EXPECT_GT(10000, lf.nr_paths);
	EXPECT_GT(100000, lf.nr_handles);
	bq_loadfile_free(&lf);
}

/* ---- the library's replay, in a temp directory -------------------------------- */

TEST(timestamps_pace_a_run_once)
{
	const char *text =
		"0.000 Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		"0.000 Mkdir \"\\clients\" NT_STATUS_OK\n"
		"0.010 NTCreateX \"\\clients\\client1\" 0x1 0x2 7 NT_STATUS_OK\n"
		"0.300 Close 7 NT_STATUS_OK\n"
		"0.300 NTCreateX \"\\clients\\client1\\f\" 0x40 0x5 8 NT_STATUS_OK\n"
		"0.300 WriteX 8 0 1000 1000 NT_STATUS_OK\n"
		"0.300 ReadX 8 500 1000 500 NT_STATUS_OK\n"
		"0.300 Close 8 NT_STATUS_OK\n";
	char dir[] = "/tmp/replay_test.XXXXXX";
	struct bq_parse_error err = { 0 };
	struct bq_replay_result res;
	struct bq_replay_opts o = { .clients = 2, .run_once = true };
	struct bq_loadfile lf;
	char path[600];
	struct stat st;

	ASSERT_NE(NULL, mkdtemp(dir));
	o.dir = dir;
	ASSERT_EQ(0, parse_text(text, &lf, &err)) TH_LOG("%s: %s", err.where, err.msg);
	ASSERT_EQ(0, bq_replay_run(NULL, &lf, &o, &res));
	/* The clients waited for the timestamps, each went through once. */
	EXPECT_LE(300000000ull, res.ops.runtime_ns);
	EXPECT_GT(5000000000ull, res.ops.runtime_ns);
	EXPECT_EQ(2, res.loops);
	EXPECT_EQ(0, res.mismatches);
	EXPECT_EQ(2 * 8, res.lines[0] + res.lines[1]);
	EXPECT_EQ(4, res.ops.total[BQ_REPLAY_CLOSE].count);
	EXPECT_EQ(2 * 2000, res.bytes);
	/* Each client in its own subtree, numbered from 0 as dbench does. */
	snprintf(path, sizeof(path), "%s/clients/client0/f", dir);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_EQ(1000, st.st_size);
	snprintf(path, sizeof(path), "%s/clients/client1/f", dir);
	EXPECT_EQ(0, stat(path, &st));
	bq_replay_result_free(&res);
	EXPECT_EQ(0, bq_replay_cleanup(dir, 2));
	EXPECT_EQ(0, rmdir(dir)) TH_LOG("%s left behind: %s", dir, strerror(errno));
	bq_loadfile_free(&lf);
}

/* ---- the command line, no filesystem needed ------------------------------------ */

TEST(bad_input_is_one_line_and_exit_2)
{
	char dir[] = "/tmp/replay_test.XXXXXX", path[600], opt[600];
	static const struct {
		const char *text;
		const char *msg;
	} files[] = {
		{ "Mkdir \"\\clients\" NT_STATUS_OK\nFoo 1 NT_STATUS_OK\n",
		  "bad.txt:2: unknown operation 'Foo'" },
		{ "Mkdir \"\\clients\" NT_STATUS_OK\nClose 1\n", "bad.txt:2: Close: missing status" },
		{ "ReadX 1 zero 4096 4096 NT_STATUS_OK\n", "bad.txt:1: ReadX: bad number 'zero'" },
	};
	struct run_result r;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(opt, sizeof(opt), "-D%s", dir);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, write_file(path, sizeof(path), dir, "bad.txt", files[i].text));
		ASSERT_EQ(0, run_blkqual(&r, "replay", "-c", path, "2", opt, "-t", "1", NULL));
		EXPECT_EQ(2, r.status);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
		EXPECT_NE(NULL, strstr(r.err, files[i].msg)) TH_LOG("%s", r.err);
		EXPECT_STREQ("", r.out);
		run_result_free(&r);
		unlink(path);
		/* Nothing was made in the directory. */
		EXPECT_TRUE(dir_is_empty(dir));
	}

	ASSERT_EQ(0, run_blkqual(&r, "replay", "2", "-D", "/nonexistent/replay", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "-D /nonexistent/replay")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "replay", "2", "-x", opt, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "-x: dbench's option is not implemented")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "replay", "0", opt, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "replay", "2", "-t", "ten", opt, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "-t ten")) TH_LOG("%s", r.err);
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "replay", "a.txt", "b.txt", opt, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "two loadfiles")) TH_LOG("%s", r.err);
	run_result_free(&r);
	rmdir(dir);
}

/* ---- replays on XFS ---------------------------------------------------------------- */

FIXTURE(xfs)
{
	struct prep p;
	struct scratchfs fs;
	char dopt[320];
};

FIXTURE_SETUP(xfs)
{
	scratchfs_init(&self->fs);
	if (geteuid())
		prep_skip(&self->p, "needs root for a loop device and a mount");
	if (prep_ok(&self->p))
		scratchfs_xfs(&self->p, &self->fs, SCRATCH_SIZE);
	snprintf(self->dopt, sizeof(self->dopt), "-D%s", self->fs.mnt);
}

FIXTURE_TEARDOWN(xfs)
{
	scratchfs_destroy(&self->fs);
}

TEST_F(xfs, small_file_every_operation_no_mismatch)
{
	char path[512], out[600], oopt[620];
	json_object *doc, *ops, *file;
	struct run_result r;
	char *saved;

	PREP_READY(&self->p);
	fixture_path(path, sizeof(path));
	snprintf(out, sizeof(out), "%s/result.json", self->fs.s.dir);
	snprintf(oopt, sizeof(oopt), "--output=%s", out);
	/* dbench's command line, -o json and --output added. */
	ASSERT_EQ(0, run_blkqual(&r, "replay", "-c", path, "2", self->dopt, "-t", "2", "-o",
				 "json", oopt, NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	doc = json_tokener_parse(r.out);
	ASSERT_NE(NULL, doc) TH_LOG("%s", r.out);
	EXPECT_EQ(2, json_int(doc, "clients", 0));
	EXPECT_EQ(0, json_int(doc, "mismatches.total", -1)) TH_LOG("%s", r.out);
	EXPECT_LT(1000, json_int(doc, "mismatches.operations", 0));
	EXPECT_LT(0, json_int(doc, "bytes", 0));
	EXPECT_LT(0, json_int(doc, "loops", 0));
	ASSERT_TRUE(json_object_object_get_ex(doc, "operations", &ops));
	for (int k = 0; k < BQ_REPLAY_NR_KINDS; k++) {
		char key[64];

		snprintf(key, sizeof(key), "%s.count", bq_replay_kind_name(k));
		EXPECT_LT(0, json_int(ops, key, 0)) TH_LOG("%s", key);
		snprintf(key, sizeof(key), "%s.latency_ns.count", bq_replay_kind_name(k));
		EXPECT_LT(0, json_int(ops, key, 0)) TH_LOG("%s", key);
	}
	/* The same document, written whole to --output. */
	saved = slurp(out);
	ASSERT_NE(NULL, saved);
	file = json_tokener_parse(saved);
	ASSERT_NE(NULL, file);
	EXPECT_EQ(json_int(doc, "bytes", 0), json_int(file, "bytes", 1));
	json_object_put(file);
	free(saved);
	json_object_put(doc);
	run_result_free(&r);
	/* dbench's cleanup: nothing of the clients is left. */
	EXPECT_TRUE(dir_is_empty(self->fs.mnt));
}

TEST_F(xfs, wrong_expected_status_is_counted_and_named)
{
	static const char *const edits[] = {
		"17:ReadX 101 0 4096 4000 NT_STATUS_OK",
		"44:Unlink \"\\clients\\client1\\dir\\c.txt\" 0x6 NT_STATUS_OK",
	};
	char path[600], *text, expect[700];
	struct run_result r;
	int mismatches = 0;

	PREP_READY(&self->p);
	text = edited_fixture(edits, ARRAY_SIZE(edits));
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, write_file(path, sizeof(path), self->fs.s.dir, "wrong.txt", text));
	free(text);
	/* The loadfile where the client count goes; one client. */
	ASSERT_EQ(0, run_blkqual(&r, "replay", path, self->dopt, "-t", "1", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, sscanf(strstr(r.out, "Status mismatches: ") ?: "", "Status mismatches: %d",
			    &mismatches)) TH_LOG("%s", r.out);
	EXPECT_LT(1, mismatches);
	snprintf(expect, sizeof(expect), "Unlink expected NT_STATUS_OK, got "
		 "NT_STATUS_OBJECT_NAME_NOT_FOUND (first at %s:44)", path);
	EXPECT_NE(NULL, strstr(r.out, expect)) TH_LOG("%s", r.out);
	snprintf(expect, sizeof(expect), "ReadX expected 4000 bytes, got 4096 (first at %s:17)",
		 path);
	EXPECT_NE(NULL, strstr(r.out, expect)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "Throughput ")) TH_LOG("%s", r.out);
	run_result_free(&r);

	/* --strict turns them into a failed run. */
	ASSERT_EQ(0, run_blkqual(&r, "replay", "--strict", path, self->dopt, "-t", "1", NULL));
	EXPECT_EQ(1, r.status);
	run_result_free(&r);

	/* Names as written: A.TXT is not a.txt, B.TXT can be made beside b.txt. */
	fixture_path(path, sizeof(path));
	ASSERT_EQ(0, run_blkqual(&r, "replay", "--no-resolve", "-c", path, "1", self->dopt,
				 "-t", "1", NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(expect, sizeof(expect), "QUERY_PATH_INFORMATION expected NT_STATUS_OK, got "
		 "NT_STATUS_OBJECT_NAME_NOT_FOUND (first at %s:30)", path);
	EXPECT_NE(NULL, strstr(r.out, expect)) TH_LOG("%s", r.out);
	snprintf(expect, sizeof(expect), "Mkdir expected NT_STATUS_OBJECT_NAME_COLLISION, got "
		 "NT_STATUS_OK (first at %s:45)", path);
	EXPECT_NE(NULL, strstr(r.out, expect)) TH_LOG("%s", r.out);
	run_result_free(&r);
	EXPECT_TRUE(dir_is_empty(self->fs.mnt));
}

TEST_F(xfs, debian_client_txt_two_clients)
{
	const char *pattern = "\nThroughput ([0-9.]+) MB/sec  2 clients  2 procs  "
			      "max_latency=([0-9.]+) ms\n";
	regmatch_t m[3];
	struct run_result r;
	double mb_s;
	regex_t re;

	PREP_READY(&self->p);
	if (access(CLIENT_TXT, R_OK))
		SKIP(return, "%s is not installed (Debian's dbench package; make deps)", CLIENT_TXT);
	ASSERT_EQ(0, run_blkqual(&r, "replay", "-c", CLIENT_TXT, "2", self->dopt, "-t", "3",
				 NULL));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	/* dbench's layout: per-second lines, the table, the Throughput line last. */
	EXPECT_NE(NULL, strstr(r.out, "MB/sec  execute   1 sec  latency ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, " Operation      Count    AvgLat    MaxLat\n"));
	EXPECT_NE(NULL, strstr(r.out, "\n NTCreateX   "));
	EXPECT_NE(NULL, strstr(r.out, "\n ReadX       "));
	EXPECT_NE(NULL, strstr(r.out, "Status mismatches: 0 of ")) TH_LOG("%s", r.out);
	ASSERT_EQ(0, regcomp(&re, pattern, REG_EXTENDED));
	ASSERT_EQ(0, regexec(&re, r.out, 3, m, 0)) TH_LOG("%s", r.out);
	regfree(&re);
	mb_s = strtod(r.out + m[1].rm_so, NULL);
	EXPECT_LT(1.0, mb_s);
	EXPECT_GT(100000.0, mb_s);
	EXPECT_EQ('\0', r.out[m[0].rm_eo]) TH_LOG("the Throughput line is not the last");
	run_result_free(&r);
	EXPECT_TRUE(dir_is_empty(self->fs.mnt));
}

TEST_HARNESS_MAIN
