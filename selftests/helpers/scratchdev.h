/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scratchdev.h - test helper: fixture setup that a test body can act on,
 * a scratch loop device in one call, and proof that a device was not written
 */
#ifndef SELFTESTS_SCRATCHDEV_H
#define SELFTESTS_SCRATCHDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "helpers/loopdev.h"

/* Big enough for mkfs.xfs, which refuses anything under 300 MB. */
#define SCRATCH_SIZE (512LL << 20)

/**
 * struct prep - how a fixture's setup went
 * @skip: why the test cannot run here (not root, no mkfs.xfs), or NULL
 * @step: what setup was doing when it failed
 * @err: 0, or the negative errno (or positive exit status) of @step
 *
 * The 6.1 harness runs the test body even after FIXTURE_SETUP calls SKIP(),
 * and never runs FIXTURE_TEARDOWN after an ASSERT in setup fails, which
 * would leak the scratch file.  So setup only records here; the body acts
 * on it with PREP_READY() and teardown undoes whatever setup got done.
 */
struct prep {
	const char *skip;
	const char *step;
	int err;
};

void prep_skip(struct prep *p, const char *why);
void prep_fail(struct prep *p, const char *step, int err);
bool prep_ok(const struct prep *p);
void scratch_init(struct scratch *s);
void scratch_device(struct prep *p, struct scratch *s, off_t size);
void scratch_device_lbs(struct prep *p, struct scratch *s, off_t size, unsigned int lbs);
int checksum_region(const char *path, off_t off, off_t len, uint64_t *sum);
int checksum_path(const char *path, uint64_t *sum);
int random_file(const char *path, off_t size);
int scratch_pwrite(const struct scratch *s, off_t off, const void *buf, size_t len);
int scratch_plant(const struct scratch *s, off_t off, size_t len, unsigned int seed);
int scratch_fill_foreign(const struct scratch *s, off_t size, unsigned int seed);

#ifdef __KSELFTEST_HARNESS_H
/* First statement of a TEST_F body: skip or fail as setup recorded. */
#define PREP_READY(p) do { \
	if ((p)->skip) \
		SKIP(return, "%s", (p)->skip); \
	ASSERT_EQ(0, (p)->err) \
		TH_LOG("setup failed: %s: %s", (p)->step, \
		       (p)->err < 0 ? strerror(-(p)->err) : "non-zero exit status"); \
} while (0)

/*
 * The fixture "dev" of the tests that run jobs on one scratch loop device
 * of @size: self->opt is its --filename= option.
 */
#define SCRATCH_DEV_FIXTURE(size)					\
	FIXTURE(dev)							\
	{								\
		struct prep p;						\
		struct scratch s;					\
		char opt[96];						\
	};								\
	FIXTURE_SETUP(dev)						\
	{								\
		scratch_init(&self->s);					\
		scratch_device(&self->p, &self->s, size);		\
		snprintf(self->opt, sizeof(self->opt), "--filename=%s",	\
			 self->s.dev);					\
	}								\
	FIXTURE_TEARDOWN(dev)						\
	{								\
		scratch_destroy(&self->s);				\
	}
#endif

#endif /* SELFTESTS_SCRATCHDEV_H */
