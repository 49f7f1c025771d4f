// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_lazy.c - the libnvme functions blkqual calls, loaded on first use
 * (core/lazylib.h); the prototypes are libnvme's own.
 */
#include "config-host.h"

#ifdef CONFIG_LIBNVME
#include <libnvme.h>

#include "core/lazylib.h"

static struct bq_lazylib nvme_lib = BQ_LAZYLIB_INIT(BQ_LIBNVME_SONAME);

BQ_LAZY_FN(nvme_lib, int, -1, nvme_identify, (struct nvme_identify_args *args), (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_get_log_page,
	   (int fd, __u32 xfer_len, struct nvme_get_log_args *args), (fd, xfer_len, args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_get_nsid, (int fd, __u32 *nsid), (fd, nsid))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_format_nvm, (struct nvme_format_nvm_args *args), (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_sanitize_nvm, (struct nvme_sanitize_nvm_args *args), (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_io_mgmt_recv, (struct nvme_io_mgmt_recv_args *args), (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_zns_mgmt_recv, (struct nvme_zns_mgmt_recv_args *args),
	   (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_zns_mgmt_send, (struct nvme_zns_mgmt_send_args *args),
	   (args))
BQ_LAZY_FN(nvme_lib, int, -1, nvme_ns_attach, (struct nvme_ns_attach_args *args), (args))
BQ_LAZY_VOID_FN(nvme_lib, nvme_init_ctrl_list,
		(struct nvme_ctrl_list *cntlist, __u16 num_ctrls, __u16 *ctrlist),
		(cntlist, num_ctrls, ctrlist))
#endif
