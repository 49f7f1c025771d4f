/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvme_ns.h - test helper: a namespace of the VM's NVMe controller with a
 * given serial (selftests/vm/vm.sh names each by its serial: controllers
 * probe in parallel, so their numbers are not fixed)
 */
#ifndef SELFTESTS_NVME_NS_H
#define SELFTESTS_NVME_NS_H

#include <stddef.h>

/*
 * nvme_ns_by_serial() - /dev/ngXnY and /dev/nvmeXnY of namespace @nsid
 * of the controller whose serial starts with @serial.  Return: 0, or -1
 * when there is none or its generic device is missing.
 */
int nvme_ns_by_serial(const char *serial, unsigned int nsid, char *ng, char *blk, size_t len);

/*
 * nvme_ns_attach_by_serial() - attach namespace @nsid of that controller's subsystem
 * to it (Namespace Attachment) and wait for the kernel's devices: the VM
 * starts some namespaces detached (vm.sh says why).  Return: 0, or -1.
 */
int nvme_ns_attach_by_serial(const char *serial, unsigned int nsid);

#endif /* SELFTESTS_NVME_NS_H */
