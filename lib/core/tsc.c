// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsc.c - the TSC's rate against CLOCK_MONOTONIC, and each run's anchor
 *
 * The rate is measured once per process, between the first pair of
 * readings (bq_tsc_begin(), as a run starts setting up) and the pair each
 * run anchors at; every later run measures over the longer baseline, so
 * the rate only gets better.  A pair is the counter read between two
 * CLOCK_MONOTONIC reads: of a few tries, the one with the narrowest
 * bracket, paired with the bracket's middle.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/tsc.h"

#ifdef BQ_HAVE_TSC
#include <cpuid.h>

/* Below this baseline the rate would be off by more than ~20 ppm. */
#define TSC_MIN_BASELINE_NS	3000000ULL
#define TSC_PAIR_TRIES		5

struct tsc_pair {
	uint64_t tsc;
	uint64_t ns;
};

static pthread_mutex_t tsc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tsc_pair tsc_first;
static int tsc_usable = -1;	/* -1: not asked yet */

static struct tsc_pair tsc_pair_now(void)
{
	struct tsc_pair best = { 0, 0 };
	uint64_t best_gap = UINT64_MAX;

	for (int i = 0; i < TSC_PAIR_TRIES; i++) {
		uint64_t a = bq_now_ns();
		uint64_t c = __rdtsc();
		uint64_t b = bq_now_ns();

		if (b - a < best_gap) {
			best_gap = b - a;
			best.tsc = c;
			best.ns = a + (b - a) / 2;
		}
	}
	return best;
}

/*
 * Invariant (CPUID 80000007h EDX bit 8: constant rate, running in every
 * C-state) and trusted by the kernel, which keeps CLOCK_MONOTONIC on it
 * directly or through kvm-clock.  A kernel that found the counters out
 * of step across CPUs has moved to hpet or acpi_pm.
 */
static bool tsc_check(void)
{
	static const char *const trusted[] = { "tsc", "kvm-clock" };
	unsigned int a, b, c, d;
	char src[32] = "";
	FILE *f;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return false;
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	if (!f)
		return false;
	if (!fgets(src, sizeof(src), f))
		src[0] = '\0';
	fclose(f);
	src[strcspn(src, "\n")] = '\0';
	for (size_t i = 0; i < sizeof(trusted) / sizeof(trusted[0]); i++)
		if (!strcmp(src, trusted[i]))
			return true;
	return false;
}

static bool tsc_usable_locked(void)
{
	if (tsc_usable < 0)
		tsc_usable = tsc_check();
	return tsc_usable;
}

/**
 * bq_tsc_begin() - take the first reading of the rate's baseline
 *
 * Called as a run starts setting up, so that its set-up time is the
 * baseline; idempotent.
 */
void bq_tsc_begin(void)
{
	pthread_mutex_lock(&tsc_lock);
	if (tsc_usable_locked() && !tsc_first.ns)
		tsc_first = tsc_pair_now();
	pthread_mutex_unlock(&tsc_lock);
}

/**
 * bq_tsc_anchor() - a run's clock, anchored now
 * @t: filled in
 * @want: the job wants the TSC (clocksource=cpu, the default)
 *
 * Waits out what is left of a 3 ms baseline the first time.  Without a
 * usable TSC, or not wanted, @t reads CLOCK_MONOTONIC.
 *
 * Return: 0; -ERANGE (and @t off) when the measured rate is implausible.
 */
int bq_tsc_anchor(struct bq_tsc *t, bool want)
{
	struct tsc_pair now;
	uint64_t dns, dtsc;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (!want)
		return 0;
	pthread_mutex_lock(&tsc_lock);
	if (!tsc_usable_locked())
		goto out_unlock;
	if (!tsc_first.ns)
		tsc_first = tsc_pair_now();
	now = tsc_pair_now();
	if (now.ns - tsc_first.ns < TSC_MIN_BASELINE_NS) {
		struct timespec ts = { 0, (long)(TSC_MIN_BASELINE_NS - (now.ns - tsc_first.ns)) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		now = tsc_pair_now();
	}
	dns = now.ns - tsc_first.ns;
	dtsc = now.tsc - tsc_first.tsc;
	/* 10 MHz to 100 GHz: anything else is not a clock to stamp I/Os with. */
	if (dtsc < dns / 100 || dtsc > dns * 100) {
		ret = -ERANGE;
		goto out_unlock;
	}
	t->mult = (uint64_t)(((unsigned __int128)dns << 32) / dtsc);
	t->base_tsc = now.tsc;
	t->base_ns = now.ns;
	t->on = true;
out_unlock:
	pthread_mutex_unlock(&tsc_lock);
	return ret;
}
#else
void bq_tsc_begin(void)
{
}

int bq_tsc_anchor(struct bq_tsc *t, bool want)
{
	(void)want;
	memset(t, 0, sizeof(*t));
	return 0;
}
#endif

/**
 * bq_tsc_mhz() - the counter's measured rate, for the report
 * @t: a clock from bq_tsc_anchor()
 *
 * Return: MHz, or 0 when @t reads CLOCK_MONOTONIC.
 */
double bq_tsc_mhz(const struct bq_tsc *t)
{
	if (!t->on || !t->mult)
		return 0;
	return 1e3 * 4294967296.0 / (double)t->mult;
}
