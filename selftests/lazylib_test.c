// SPDX-License-Identifier: GPL-2.0-only
/*
 * lazylib_test.c - libnvme and libcrypto are loaded on first use only
 *
 * The binary does not name them (no DT_NEEDED), a run that needs neither
 * never maps them, a cryptographic verify maps libcrypto and gets the
 * digest right, and a library that is not there makes its functions
 * fail as unsupported instead of crashing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "config-host.h"
#include "core/lazylib.h"
#include "helpers/run.h"
#include "helpers/strace.h"

TEST(the_binary_does_not_link_them)
{
	const char *argv[] = { "readelf", "-d", blkqual_path(), NULL };
	struct run_result r;

	if (system("command -v readelf >/dev/null 2>&1"))
		SKIP(return, "readelf (binutils) is not installed");
	ASSERT_EQ(0, run_argv(argv, &r));
	ASSERT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "(NEEDED)"));
	EXPECT_EQ(NULL, strstr(r.out, "libnvme"));
#ifdef HAVE_EVP_MD_FETCH
	EXPECT_EQ(NULL, strstr(r.out, "libcrypto"));
#endif
	run_result_free(&r);
}

/* A library that loads gives its functions; one that does not, NULL (and no crash). */
TEST(a_library_loads_once_or_not_at_all)
{
	struct bq_lazylib c = BQ_LAZYLIB_INIT("libc.so.6");
	struct bq_lazylib none = BQ_LAZYLIB_INIT("libblkqual-not-there.so.9");
	pid_t (*get)(void) = (pid_t (*)(void))bq_lazy_sym(&c, "getpid");

	ASSERT_NE(NULL, get);
	EXPECT_EQ(getpid(), get());
	EXPECT_EQ(NULL, bq_lazy_sym(&c, "no_such_function_here"));
	EXPECT_EQ(NULL, bq_lazy_sym(&none, "anything"));
	EXPECT_EQ(NULL, bq_lazy_sym(&none, "anything"));
}

#ifdef HAVE_EVP_MD_FETCH
/*
 * Whether a write job on a 1 MiB temp file, with @verify, opened
 * libcrypto (strace's record of its openat() calls); and its exit status.
 */
static int opens_libcrypto(const char *verify, bool *opened)
{
	char file[] = "/tmp/blkqual-lazy.XXXXXX", trace[] = "/tmp/blkqual-lazy-trace.XXXXXX";
	char fopt[64];
	static const char *const opens[] = { "-e", "trace=openat", NULL };
	const char *argv[] = { blkqual_path(), "run", "--no-status", "-o", "json", "--name=m",
			       fopt, "--size=1m", "--bs=4k", "--rw=write", "--ioengine=psync",
			       verify, NULL };
	struct run_result r;
	char *log;
	int fd = mkstemp(file), tfd = mkstemp(trace), status;

	if (fd < 0 || tfd < 0)
		return -1;
	close(fd);
	close(tfd);
	snprintf(fopt, sizeof(fopt), "--filename=%s", file);
	if (strace_with(opens, argv, trace, &r)) {
		status = -1;
	} else {
		status = r.status;
		run_result_free(&r);
	}
	log = slurp(trace);
	*opened = log && strstr(log, "libcrypto");
	free(log);
	unlink(file);
	unlink(trace);
	return status;
}

TEST(only_a_cryptographic_verify_loads_libcrypto)
{
	bool opened = true;

	if (system("command -v strace >/dev/null 2>&1"))
		SKIP(return, "strace is not installed");
	ASSERT_EQ(0, opens_libcrypto("--verify=crc32c", &opened));
	EXPECT_FALSE(opened);
	ASSERT_EQ(0, opens_libcrypto("--verify=sha256", &opened));
	EXPECT_TRUE(opened);
}
#endif

TEST_HARNESS_MAIN
