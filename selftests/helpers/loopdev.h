/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loopdev.h - test helper: scratch loop devices that cannot be leaked
 */
#ifndef SELFTESTS_LOOPDEV_H
#define SELFTESTS_LOOPDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * struct scratch - a temp dir, a sparse file in it, and a loop device over it
 * @dir: temp directory (mkdtemp)
 * @file: the backing file
 * @dev: "/dev/loopN", empty until attached
 * @hold_fd: our open descriptor of the loop device
 *
 * The loop device is set up with autoclear while @hold_fd is open, so it
 * goes away when the last user closes it: even if the test crashes.
 */
struct scratch {
	char dir[256];
	char file[300];
	char dev[64];
	int hold_fd;
};

const char *need_root(void);
const char *need_program(const char *prog);
int scratch_make(struct scratch *s, off_t size);
int loop_nomerges(const char *dev, int mode);
int loop_attach(const char *backing, unsigned int flags, uint64_t offset, char *dev,
		size_t len, int *hold_fd);
int scratch_attach(struct scratch *s);
void scratch_destroy(struct scratch *s);
int run_quiet(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SELFTESTS_LOOPDEV_H */
