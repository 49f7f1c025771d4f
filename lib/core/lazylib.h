/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lazylib.h - private: shared libraries loaded on first use
 *
 * libnvme and libcrypto (which libnvme pulls in too) are 1.6 MiB of
 * resident pages in every process that maps them, a third of a
 * one-thread run's footprint, and most runs call neither: no NVMe
 * device, no cryptographic verify.  blkqual therefore does not link
 * them; the few functions it calls are defined here with the libraries'
 * own prototypes (from their headers) and forward to the real ones,
 * loaded with dlopen() the first time one is called.  A library that
 * cannot be loaded makes its functions fail as unsupported.
 */
#ifndef BLKQUAL_LAZYLIB_H
#define BLKQUAL_LAZYLIB_H

#include <errno.h>
#include <pthread.h>

/**
 * struct bq_lazylib - one library, loaded at most once
 * @soname: what to dlopen(), as the build found it (config-host.h)
 * @once: guards @handle
 * @handle: the library, or NULL when it could not be loaded
 */
struct bq_lazylib {
	const char *soname;
	pthread_once_t once;
	void *handle;
};

#define BQ_LAZYLIB_INIT(name) { .soname = (name), .once = PTHREAD_ONCE_INIT }

void *bq_lazy_sym(struct bq_lazylib *lib, const char *name);

/*
 * BQ_LAZY_FN() - define @name, forwarding to @lib's: @ret @name @params,
 * called with @args; @fail (with errno ENOSYS) when it cannot be found.
 */
#define BQ_LAZY_FN(lib, ret, fail, name, params, args)				\
ret name params									\
{										\
	static ret (*fn) params;						\
	ret (*f) params = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);		\
										\
	if (!f) {								\
		f = (ret (*) params)bq_lazy_sym(&(lib), #name);			\
		if (!f) {							\
			errno = ENOSYS;						\
			return fail;						\
		}								\
		__atomic_store_n(&fn, f, __ATOMIC_RELEASE);			\
	}									\
	return f args;								\
}

/* The same for a function that returns nothing. */
#define BQ_LAZY_VOID_FN(lib, name, params, args)				\
void name params								\
{										\
	static void (*fn) params;						\
	void (*f) params = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);		\
										\
	if (!f) {								\
		f = (void (*) params)bq_lazy_sym(&(lib), #name);		\
		if (!f)								\
			return;							\
		__atomic_store_n(&fn, f, __ATOMIC_RELEASE);			\
	}									\
	f args;									\
}

#endif /* BLKQUAL_LAZYLIB_H */
