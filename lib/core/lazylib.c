// SPDX-License-Identifier: GPL-2.0-only
/*
 * lazylib.c - dlopen() a library the first time one of its functions is
 * called (see lazylib.h for why)
 */
#include <dlfcn.h>
#include <stddef.h>

#include "core/lazylib.h"

/* pthread_once() takes no argument: the library being loaded is passed here. */
static __thread struct bq_lazylib *loading;

static void lazylib_load(void)
{
	/* RTLD_LOCAL: nothing else resolves against it by accident. */
	loading->handle = dlopen(loading->soname, RTLD_NOW | RTLD_LOCAL);
}

/**
 * bq_lazy_sym() - the address of @name in @lib, loading @lib if need be
 * @lib: the library
 * @name: a function it exports
 *
 * Return: the address, or NULL when @lib cannot be loaded or lacks @name.
 */
void *bq_lazy_sym(struct bq_lazylib *lib, const char *name)
{
	loading = lib;
	pthread_once(&lib->once, lazylib_load);
	return lib->handle ? dlsym(lib->handle, name) : NULL;
}
