// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_lazy.c - the libbpf functions blkqual calls, loaded on first use
 * (core/lazylib.h): only a run with --trace=block maps libbpf and the
 * libelf and zlib it needs.  The prototypes are libbpf's own.
 */
#include "config-host.h"

#ifdef CONFIG_LIBBPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/lazylib.h"
#include "trace/trace_int.h"

static struct bq_lazylib bpf_lib = BQ_LAZYLIB_INIT(BQ_LIBBPF_SONAME);

BQ_LAZY_FN(bpf_lib, libbpf_print_fn_t, NULL, libbpf_set_print, (libbpf_print_fn_t print), (print))
BQ_LAZY_FN(bpf_lib, int, -ENOSYS, bpf_object__open_skeleton,
	   (struct bpf_object_skeleton *s, const struct bpf_object_open_opts *opts), (s, opts))
BQ_LAZY_FN(bpf_lib, int, -ENOSYS, bpf_object__load_skeleton, (struct bpf_object_skeleton *s),
	   (s))
BQ_LAZY_FN(bpf_lib, int, -ENOSYS, bpf_object__attach_skeleton, (struct bpf_object_skeleton *s),
	   (s))
BQ_LAZY_VOID_FN(bpf_lib, bpf_object__detach_skeleton, (struct bpf_object_skeleton *s), (s))
BQ_LAZY_VOID_FN(bpf_lib, bpf_object__destroy_skeleton, (struct bpf_object_skeleton *s), (s))
BQ_LAZY_FN(bpf_lib, int, -ENOSYS, bpf_map__fd, (const struct bpf_map *map), (map))
BQ_LAZY_FN(bpf_lib, int, -ENOSYS, bpf_map_update_elem,
	   (int fd, const void *key, const void *value, __u64 flags), (fd, key, value, flags))

bool bq_libbpf_loadable(void)
{
	return bq_lazy_sym(&bpf_lib, "libbpf_set_print") != NULL;
}
#endif
