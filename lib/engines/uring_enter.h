/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uring_enter.h - private: the hot loop's submit-and-wait, inline
 *
 * liburing's io_uring_submit_and_wait() is a call into the shared
 * library that makes the system call and returns through two frames.
 * Under this machine's mitigations a return from the kernel leaves the
 * return predictor empty, and each of those returns then mispredicts:
 * ~25 ns of user time per call measured here, a tenth of the tester's
 * own cost per I/O.  The loop therefore publishes its SQ tail and makes
 * the system call itself, inline, where the ring is a plain one (no
 * SQPOLL thread to wake).  Everything else (set-up, registration, the
 * SQ and CQ helpers) stays liburing's.
 */
#ifndef BLKQUAL_URING_ENTER_H
#define BLKQUAL_URING_ENTER_H

#include <errno.h>
#include <liburing.h>
#include <sys/syscall.h>
#include <unistd.h>

/**
 * struct uring_enter - what the inline io_uring_enter() needs
 * @fd: the ring's descriptor, or its registered index
 * @flags: IORING_ENTER_REGISTERED_RING when @fd is an index
 * @inline_ok: the ring may be entered inline (no SQPOLL)
 */
struct uring_enter {
	int fd;
	unsigned int flags;
	bool inline_ok;
};

#ifndef IORING_ENTER_REGISTERED_RING
#define IORING_ENTER_REGISTERED_RING (1U << 4)
#endif

/*
 * uring_enter_init() - after the ring is set up and its descriptor is
 * registered (@registered: io_uring_register_ring_fd() returned 1).
 */
static inline void uring_enter_init(struct uring_enter *e, const struct io_uring *ring,
				    bool registered)
{
	e->inline_ok = !(ring->flags & IORING_SETUP_SQPOLL);
	e->fd = registered ? ring->enter_ring_fd : ring->ring_fd;
	e->flags = registered ? IORING_ENTER_REGISTERED_RING : 0;
}

#if defined(__x86_64__)
static inline int uring_sys_enter(int fd, unsigned int submit, unsigned int wait,
				  unsigned int flags)
{
	register long r10 __asm__("r10") = flags;
	register long r8 __asm__("r8") = 0;
	register long r9 __asm__("r9") = 0;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)__NR_io_uring_enter), "D"((long)fd), "S"((long)submit),
			   "d"((long)wait), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return (int)ret;
}
#else
static inline int uring_sys_enter(int fd, unsigned int submit, unsigned int wait,
				  unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, fd, submit, wait, flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}
#endif

/**
 * uring_submit_and_wait() - submit what was prepared, wait for @wait_nr
 * @e: from uring_enter_init()
 * @ring: the ring
 * @wait_nr: completions to wait for; at least 1
 *
 * Return: SQEs submitted, or -errno, as io_uring_submit_and_wait().
 */
static inline int uring_submit_and_wait(const struct uring_enter *e, struct io_uring *ring,
					unsigned int wait_nr)
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned int tail = sq->sqe_tail;

	if (__builtin_expect(!e->inline_ok, 0))
		return io_uring_submit_and_wait(ring, wait_nr);
	if (sq->sqe_head != tail) {
		sq->sqe_head = tail;
		/* The SQEs before the tail the kernel reads in this call. */
		io_uring_smp_store_release(sq->ktail, tail);
	}
	return uring_sys_enter(e->fd, tail - *sq->khead, wait_nr,
			       IORING_ENTER_GETEVENTS | e->flags);
}

#endif /* BLKQUAL_URING_ENTER_H */
