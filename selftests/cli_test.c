// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_test.c - bad input: one line on stderr naming the problem, exit 2
 *
 * None of these needs root or a device: each is refused before anything is
 * opened for writing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/run.h"

struct bad_input {
	const char *args[6];
	const char *says;	/* a word the error line must contain */
};

static const struct bad_input bad_inputs[] = {
	{ { NULL }, "missing command" },
	{ { "frobnicate" }, "unknown command" },
	{ { "lst" }, "did you mean 'list'" },
	{ { "--bogus" }, "unknown option" },
	{ { "list", "--bogus" }, "unknown option '--bogus'" },
	{ { "list", "--ouput", "json" }, "did you mean '--output'" },
	{ { "list", "-x" }, "unknown option '-x'" },
	{ { "list", "-o", "xml" }, "output format 'xml'" },
	{ { "list", "-o" }, "needs a value" },
	{ { "list", "--output" }, "needs a value" },
	{ { "list", "extra" }, "unexpected argument" },
	{ { "list", "--sysfs-root", "/nonexistent" }, "No such file" },
	{ { "list", "--sysfs-root", "/etc/hostname" }, "not a directory" },
	{ { "list", "--proc-root", "/nonexistent" }, "--proc-root" },
	{ { "info" }, "missing device" },
	{ { "info", "/nonexistent" }, "no such block device" },
	{ { "info", "/tmp" }, "directory" },
	{ { "info", "/dev/null" }, "not a block device" },
	{ { "info", "nosuchdev0" }, "no such block device" },
	{ { "info", "a", "b" }, "unexpected argument" },
	{ { "info", "-o", "yaml", "x" }, "output format" },
	{ { "guard" }, "missing target" },
	{ { "guard", "/nonexistent" }, "no such file" },
	{ { "guard", "/tmp" }, "directory" },
	{ { "guard", "/dev/null" }, "neither a block device nor a regular file" },
	{ { "guard", "--force-destroy" }, "needs a value" },
	{ { "guard", "--force-destroy=/nonexistent", "/dev/null" }, "--force-destroy" },
	{ { "guard", "--force", "/dev/null" }, "did you mean '--force-destroy'" },
	{ { "run" }, "no job given" },
	{ { "run", "--rw=read", "--name=x" }, "no filename" },
	{ { "run", "--iodpeth=4", "--filename=/dev/null", "--name=x" }, "did you mean 'iodepth'" },
	{ { "run", "--verify=md5", "--filename=/dev/null", "--name=x" }, "not supported" },
	{ { "run", "--bs=100", "--filename=/dev/null", "--name=x" }, "bs" },
	{ { "run", "--ioengine=mmap", "--filename=/dev/null", "--name=x" }, "not supported" },
	{ { "run", "--filename=/dev/null", "--rw=read", "--name=x" }, "neither a block device" },
	{ { "run", "--filename=/tmp", "--rw=read", "--name=x" }, "directory" },
	{ { "run", "--output=/nonexistent/r.json", "--ioengine=nop", "--name=x" }, "cannot write" },
	{ { "run", "--interval=soon", "--ioengine=nop", "--name=x" }, "--interval" },
	{ { "run", "--ioengine=nop", "--iodepth=0", "--name=x" }, "iodepth" },
	{ { "run", "--ioengine=nop", "--cpus_allowed=4095", "--name=x" }, "not online" },
};

TEST(bad_input_table)
{
	for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		const struct bad_input *b = &bad_inputs[i];
		const char *argv[8] = { blkqual_path() };
		struct run_result r;
		char shown[256] = "";
		int n = 1;

		for (int j = 0; b->args[j]; j++) {
			argv[n++] = b->args[j];
			strncat(shown, " ", sizeof(shown) - strlen(shown) - 1);
			strncat(shown, b->args[j], sizeof(shown) - strlen(shown) - 1);
		}
		ASSERT_EQ(0, run_argv(argv, &r));
		EXPECT_EQ(2, r.status) TH_LOG("blkqual%s: exit %d", shown, r.status);
		EXPECT_EQ(1, count_lines(r.err)) TH_LOG("blkqual%s: stderr '%s'", shown, r.err);
		EXPECT_STREQ("", r.out) TH_LOG("blkqual%s: stdout '%s'", shown, r.out);
		EXPECT_EQ(0, strncmp(r.err, "blkqual", 7)) TH_LOG("blkqual%s: '%s'", shown, r.err);
		EXPECT_NE(NULL, strstr(r.err, b->says))
			TH_LOG("blkqual%s: '%s' lacks '%s'", shown, r.err, b->says);
		run_result_free(&r);
	}
}

TEST(help_and_version)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "--help", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "list"));
	EXPECT_NE(NULL, strstr(r.out, "guard"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "--version", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, strncmp(r.out, "blkqual ", 8));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "info", "--help", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "usage: blkqual info"));
	run_result_free(&r);
}

/* A target the user may not write: the error names the permission problem. */
TEST(no_permission)
{
	char dir[] = "/tmp/blkqual-cli.XXXXXX", file[64];
	const char *argv[8];
	struct run_result r;
	int fd, n = 0;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/readonly.img", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0400);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, chmod(dir, 0755));
	/* Root may write anything: drop to nobody to see the refusal. */
	if (geteuid() == 0) {
		argv[n++] = "setpriv";
		argv[n++] = "--reuid=65534";
		argv[n++] = "--regid=65534";
		argv[n++] = "--clear-groups";
	}
	argv[n++] = blkqual_path();
	argv[n++] = "guard";
	argv[n++] = file;
	argv[n] = NULL;
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(2, r.status);
	EXPECT_EQ(1, count_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, "Permission denied")) TH_LOG("stderr: %s", r.err);
	run_result_free(&r);
	unlink(file);
	rmdir(dir);
}

TEST_HARNESS_MAIN
