/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tsc.h - private: the I/O loops' clock, the CPU's time-stamp counter
 *
 * An I/O thread reads the clock twice per round of submit and reap.
 * Through the vDSO that is ~27 ns a read here (kvm-clock); the TSC is
 * ~11 ns.  Where the TSC is invariant and the kernel keeps its clock on
 * it, a run converts ticks to CLOCK_MONOTONIC nanoseconds with a rate
 * measured against CLOCK_MONOTONIC and an anchor taken as the run
 * starts; elsewhere (QEMU's TCG, clocksource=clock_gettime) it reads
 * CLOCK_MONOTONIC, as everything outside the I/O loops always does.
 */
#ifndef BLKQUAL_TSC_H
#define BLKQUAL_TSC_H

#include <stdbool.h>
#include <stdint.h>

#include "blkqual_core.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define BQ_HAVE_TSC 1
#endif

/**
 * struct bq_tsc - one thread's copy of the run's clock
 * @base_tsc: the counter at the anchor
 * @base_ns: CLOCK_MONOTONIC at the anchor
 * @mult: nanoseconds per tick, times 2^32
 * @on: read the counter; otherwise CLOCK_MONOTONIC
 */
struct bq_tsc {
	uint64_t base_tsc;
	uint64_t base_ns;
	uint64_t mult;
	bool on;
};

/**
 * bq_tsc_ns() - now, in CLOCK_MONOTONIC nanoseconds, from @t's clock
 * @t: a clock from bq_tsc_anchor()
 *
 * Return: the time; never before @t's anchor.
 */
static inline uint64_t bq_tsc_ns(const struct bq_tsc *t)
{
#ifdef BQ_HAVE_TSC
	if (__builtin_expect(t->on, 1)) {
		uint64_t d = __rdtsc() - t->base_tsc;

		/* A counter a little behind on another CPU must not go back past the anchor. */
		if ((int64_t)d < 0)
			d = 0;
		return t->base_ns + (uint64_t)(((unsigned __int128)d * t->mult) >> 32);
	}
#endif
	return bq_now_ns();
}

void bq_tsc_begin(void);
int bq_tsc_anchor(struct bq_tsc *t, bool want);
double bq_tsc_mhz(const struct bq_tsc *t);

#endif /* BLKQUAL_TSC_H */
