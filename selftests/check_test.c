// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_test.c - blkqual check, the conformance suite, on scratch loop
 * devices: it passes (or skips with a reason) as TAP a parser accepts,
 * selection and bad input behave, the guard holds, and every check that
 * reads data back fails when that data is corrupted behind its back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "blkqual_check.h"
#include "helpers/run.h"
#include "helpers/scratchdev.h"

#define MAX_TAP 32

/**
 * struct tap - what a TAP 13 stream said
 * @plan: N of "1..N", -1 when absent
 * @nr: result lines
 * @name: their test names, in order
 * @status: 'o' ok, 'n' not ok, 's' skip, per result
 * @reason: text after "# " on a result line, or ""
 * @totals: the kselftest totals line was there
 */
struct tap {
	int plan;
	int nr;
	char name[MAX_TAP][64];
	char status[MAX_TAP];
	char reason[MAX_TAP][512];
	bool totals;
};

/* Parse TAP the way the suite promises to write it; say what is wrong. */
static int parse_tap(const char *out, struct tap *t, char *why, size_t len)
{
	char *copy = strdup(out), *save = NULL, *line;
	int lineno = 0, ret = 0;

	memset(t, 0, sizeof(*t));
	t->plan = -1;
	for (line = strtok_r(copy, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64] = "", *hash;
		int num, consumed = 0;
		bool ok;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, "TAP version 13")) {
				snprintf(why, len, "line 1 is '%s', not 'TAP version 13'", line);
				ret = -1;
			}
			continue;
		}
		if (lineno == 2) {
			if (sscanf(line, "1..%d%n", &t->plan, &consumed) != 1 || line[consumed]) {
				snprintf(why, len, "line 2 is '%s', not the plan", line);
				ret = -1;
			}
			continue;
		}
		if (!strncmp(line, "# Totals: ", 10)) {
			t->totals = true;
			continue;
		}
		if (line[0] == '#')
			continue;
		ok = !strncmp(line, "ok ", 3);
		if (!ok && strncmp(line, "not ok ", 7)) {
			snprintf(why, len, "line %d is neither a result nor a diagnostic: '%s'", lineno,
				 line);
			ret = -1;
			break;
		}
		if (sscanf(line + (ok ? 3 : 7), "%d %63s", &num, name) != 2 || num != t->nr + 1 ||
		    t->nr == MAX_TAP) {
			snprintf(why, len, "line %d: bad or out-of-order result: '%s'", lineno, line);
			ret = -1;
			break;
		}
		hash = strstr(line, " # ");
		snprintf(t->reason[t->nr], sizeof(t->reason[0]), "%s", hash ? hash + 3 : "");
		snprintf(t->name[t->nr], sizeof(t->name[0]), "%s", name);
		t->status[t->nr] = !ok ? 'n' : hash && !strncmp(hash + 3, "SKIP", 4) ? 's' : 'o';
		t->nr++;
	}
	if (!ret && t->plan != t->nr) {
		snprintf(why, len, "plan 1..%d but %d results", t->plan, t->nr);
		ret = -1;
	}
	free(copy);
	return ret;
}

/* Output lines as harness diagnostics: raw "not ok" lines would fool the runner. */
static void log_lines(struct __test_metadata *_metadata, const char *out)
{
	char *copy = strdup(out), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		TH_LOG("| %s", l);
	free(copy);
}

/* Whether the standard TAP parser (Perl's prove) accepts the stream. */
static const char *prove_verdict(const char *out)
{
	char path[] = "/tmp/blkqual-check-tap.XXXXXX";
	static char verdict[128];
	FILE *f;
	int fd, rc;

	if (need_program("prove"))
		return NULL;
	fd = mkstemp(path);
	if (fd < 0)
		return "mkstemp failed";
	f = fdopen(fd, "w");
	fputs(out, f);
	fclose(f);
	rc = run_quiet("prove -e cat %s", path);
	unlink(path);
	snprintf(verdict, sizeof(verdict), "prove exit %d", rc);
	return rc ? verdict : "";
}

static size_t nr_checks(void)
{
	size_t nr;

	bq_checks(&nr);
	return nr;
}

FIXTURE(dev)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_SETUP(dev)
{
	scratch_init(&self->s);
	scratch_device(&self->p, &self->s, SCRATCH_SIZE);
}

FIXTURE_TEARDOWN(dev)
{
	scratch_destroy(&self->s);
}

TEST_F(dev, loop_device_passes_as_tap)
{
	const char *verdict;
	struct run_result r;
	char why[256] = "";
	struct tap t;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "check", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) {
		TH_LOG("stderr: %s", r.err);
		log_lines(_metadata, r.out);
	}
	EXPECT_STREQ("", r.err);
	ASSERT_EQ(0, parse_tap(r.out, &t, why, sizeof(why))) {
		TH_LOG("%s", why);
		log_lines(_metadata, r.out);
	}
	EXPECT_EQ((int)nr_checks(), t.plan);
	EXPECT_TRUE(t.totals);
	for (int i = 0; i < t.nr; i++) {
		EXPECT_NE('n', t.status[i]) TH_LOG("%s failed: %s", t.name[i], t.reason[i]);
		/* A skip must say why: more than the bare directive. */
		if (t.status[i] == 's') {
			EXPECT_LT(10, strlen(t.reason[i])) TH_LOG("%s skipped without a reason",
								  t.name[i]);
		}
		EXPECT_NE(NULL, bq_check_find(t.name[i])) TH_LOG("%s", t.name[i]);
	}
	verdict = prove_verdict(r.out);
	if (verdict) {
		EXPECT_STREQ("", verdict);
	}
	run_result_free(&r);
}

TEST(list_names_every_check)
{
	size_t nr;
	const struct bq_check *checks = bq_checks(&nr);
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "check", "--list", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ((int)nr, count_lines(r.out));
	for (size_t i = 0; i < nr; i++) {
		EXPECT_NE(NULL, strstr(r.out, checks[i].name)) TH_LOG("%s", checks[i].name);
		EXPECT_LT(20, strlen(checks[i].description));
	}
	run_result_free(&r);
	/* --list shows what a selection would run. */
	ASSERT_EQ(0, run_blkqual(&r, "check", "--list", "--only", "discard,limits", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(2, count_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, "limits ", 7)) TH_LOG("suite order, not argument order");
	run_result_free(&r);
}

TEST_F(dev, only_and_skip_select)
{
	struct run_result r;
	char why[256] = "";
	struct tap t;

	PREP_READY(&self->p);
	ASSERT_EQ(0, run_blkqual(&r, "check", "--only", "write_zeroes,limits", "--only",
				 "discard", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	ASSERT_EQ(0, parse_tap(r.out, &t, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(3, t.nr);
	EXPECT_STREQ("limits", t.name[0]);
	EXPECT_STREQ("discard", t.name[1]);
	EXPECT_STREQ("write_zeroes", t.name[2]);
	run_result_free(&r);

	ASSERT_EQ(0, run_blkqual(&r, "check", "--skip", "concurrent_writers", "--skip",
				 "engines_agree,read_after_write", self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	ASSERT_EQ(0, parse_tap(r.out, &t, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ((int)nr_checks() - 3, t.nr);
	for (int i = 0; i < t.nr; i++) {
		EXPECT_STRNE("concurrent_writers", t.name[i]);
		EXPECT_STRNE("engines_agree", t.name[i]);
		EXPECT_STRNE("read_after_write", t.name[i]);
	}
	run_result_free(&r);
}

/* Bad input: one line on stderr, exit status 2, nothing on stdout. */
TEST(bad_input_is_one_line)
{
	static const struct {
		const char *args[4];
		const char *says;
	} cases[] = {
		{ { "--only", "discrad", "/dev/null" }, "did you mean 'discard'" },
		{ { "--skip", "limts", "/dev/null" }, "did you mean 'limits'" },
		{ { "--only", "no_such_check_at_all", "/dev/null" }, "see 'blkqual check --list'" },
		{ { "--only", ",", "/dev/null" }, "needs a check name" },
		{ { "--skp", "limits", "/dev/null" }, "did you mean '--skip'" },
		{ { "/dev/null" }, "not a block device" },
		{ { "/nonexistent-blkqual" }, "no such block device" },
		{ { NULL }, "missing device" },
		{ { "/dev/null", "/dev/zero" }, "one device at a time" },
	};
	struct run_result r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[8] = { blkqual_path(), "check" };
		int n = 2;

		for (int j = 0; j < 4 && cases[i].args[j]; j++)
			argv[n++] = cases[i].args[j];
		argv[n] = NULL;
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_NE(NULL, strstr(r.err, cases[i].says)) TH_LOG("case %zu: %s", i, r.err);
		EXPECT_STREQ("", r.out);
		run_result_free(&r);
	}
}

TEST(skipping_everything_is_bad_input)
{
	size_t nr;
	const struct bq_check *checks = bq_checks(&nr);
	char all[1024] = "";
	struct run_result r;

	for (size_t i = 0; i < nr; i++) {
		strcat(all, i ? "," : "");
		strcat(all, checks[i].name);
	}
	ASSERT_EQ(0, run_blkqual(&r, "check", "--skip", all, "/dev/null", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "no check to run")) TH_LOG("%s", r.err);
	run_result_free(&r);
}

TEST(fault_must_name_a_check_that_reads_data)
{
	struct run_result r;

	setenv("BLKQUAL_CHECK_FAULT", "limits", 1);
	ASSERT_EQ(0, run_blkqual(&r, "check", "/dev/null", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "reads back no data")) TH_LOG("%s", r.err);
	run_result_free(&r);
	setenv("BLKQUAL_CHECK_FAULT", "discrad", 1);
	ASSERT_EQ(0, run_blkqual(&r, "check", "/dev/null", NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "did you mean 'discard'")) TH_LOG("%s", r.err);
	run_result_free(&r);
	unsetenv("BLKQUAL_CHECK_FAULT");
}

TEST_F(dev, filesystem_refused_without_force)
{
	uint64_t before, after;
	char force[96];
	struct run_result r;

	PREP_READY(&self->p);
	if (need_program("mkfs.ext4"))
		SKIP(return, "%s", need_program("mkfs.ext4"));
	ASSERT_EQ(0, run_quiet("mkfs.ext4 -F -q %s", self->s.dev));
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));
	ASSERT_EQ(0, run_blkqual(&r, "check", self->s.dev, NULL));
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refusing to write")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "ext4")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "--force-destroy")) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	run_result_free(&r);
	ASSERT_EQ(0, checksum_path(self->s.dev, &after));
	EXPECT_EQ(before, after) TH_LOG("the refused check wrote to the device");

	/* An override that names another device is a typo, not consent. */
	ASSERT_EQ(0, run_blkqual(&r, "check", "--force-destroy=/dev/null", self->s.dev, NULL));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "names none of the targets")) TH_LOG("%s", r.err);
	run_result_free(&r);

	snprintf(force, sizeof(force), "--force-destroy=%s", self->s.dev);
	ASSERT_EQ(0, run_blkqual(&r, "check", force, "--only", "limits,read_after_write",
				 self->s.dev, NULL));
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "ok 2 read_after_write\n")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

/*
 * The suite's own proof that it can fail: BLKQUAL_CHECK_FAULT makes the
 * named check's data wrong between its write and its read-back, through
 * a descriptor of its own, as a device that lost the write would.
 */
TEST_F(dev, corrupted_data_fails_every_check_that_reads_back)
{
	size_t nr;
	const struct bq_check *checks = bq_checks(&nr);
	int tried = 0;

	PREP_READY(&self->p);
	for (size_t i = 0; i < nr; i++) {
		char why[256] = "", want[96];
		struct run_result r;
		struct tap t;

		if (!checks[i].compares_data)
			continue;
		tried++;
		setenv("BLKQUAL_CHECK_FAULT", checks[i].name, 1);
		ASSERT_EQ(0, run_blkqual(&r, "check", "--only", checks[i].name, self->s.dev, NULL));
		unsetenv("BLKQUAL_CHECK_FAULT");
		EXPECT_EQ(1, r.status) TH_LOG("%s: exit %d", checks[i].name, r.status);
		ASSERT_EQ(0, parse_tap(r.out, &t, why, sizeof(why))) TH_LOG("%s", why);
		ASSERT_EQ(1, t.nr);
		snprintf(want, sizeof(want), "not ok 1 %s # ", checks[i].name);
		EXPECT_NE(NULL, strstr(r.out, want)) {
			log_lines(_metadata, r.out);
		}
		/* The reason names the byte where the data went wrong. */
		EXPECT_NE(NULL, strstr(t.reason[0], "data mismatch at byte ")) {
			TH_LOG("%s: %s", checks[i].name, t.reason[0]);
		}
		run_result_free(&r);
	}
	EXPECT_LE(8, tried);
}

TEST_F(dev, fault_without_effect_is_said)
{
	struct run_result r;

	PREP_READY(&self->p);
	/* A fault for a check that does not run corrupts nothing, and says so. */
	setenv("BLKQUAL_CHECK_FAULT", "discard", 1);
	ASSERT_EQ(0, run_blkqual(&r, "check", "--only", "limits", self->s.dev, NULL));
	unsetenv("BLKQUAL_CHECK_FAULT");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "# BLKQUAL_CHECK_FAULT=discard names a check not "
			       "selected")) TH_LOG("%s", r.out);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
