#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel-in-the-loop tests: boot Debian's own kernel under QEMU (software
# emulation) with the hardware this machine lacks - NVMe with poll queues
# on two NUMA nodes, a four-LUN SCSI card, null_blk, md, device-mapper,
# loop devices - run the guest test programs there, and print their TAP
# here.
#
# usage: vm.sh [--shell] GUEST_TEST...
#   --shell   boot the same VM with a shell on this terminal instead of tests
#
# Environment: BLKQUAL (the built binary), BLKQUAL_GENDIR (the cache lives
# in its vm/ directory; the make variable gendir: build/ in-tree, else O=),
# BLKQUAL_VM_TIMEOUT (seconds, default 600).  For tools/compat/fio-examples.sh
# --vm: BLKQUAL_VM_BINARIES (more programs for the guest's /bin, each with
# its libraries), BLKQUAL_VM_PAYLOAD (a directory copied to the guest's
# /payload; the image is then one run's and not cached), BLKQUAL_VM_QEMU
# (more QEMU arguments, split at spaces).

set -u
shopt -s nullglob

here=$(cd "$(dirname "$0")" && pwd)
obj=${BLKQUAL_OBJTREE:-$(cd "$here/../.." && pwd)}
blkqual=${BLKQUAL:-$obj/blkqual}
cache=${BLKQUAL_GENDIR:-$obj/build}/vm
timeout_s=${BLKQUAL_VM_TIMEOUT:-600}
shell=0
if [ "${1:-}" = --shell ]; then
	shell=1
	shift
fi
guest_tests=("$@")

# Modules the guest needs; their dependencies are resolved by modprobe.
modules=(configfs nvme md-mod raid0 null_blk scsi_debug sd_mod sg xfs dm-mod loop ext4)

skip() {
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 # SKIP vm: $*"
	exit 4
}

fail() {
	echo "TAP version 13"
	echo "1..1"
	echo "not ok 1 vm: $*"
	exit 1
}

note() { [ "$shell" = 1 ] && echo "vm: $*" >&2; true; }

for prog in qemu-system-x86_64 cpio depmod modprobe apt-get dpkg ldd; do
	command -v "$prog" >/dev/null 2>&1 || skip "$prog not installed (run 'make deps')"
done
[ -x /bin/busybox ] || skip "busybox-static not installed (run 'make deps')"
[ -x "$blkqual" ] || fail "blkqual not built: $blkqual"
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	skip "cannot write the VM cache $cache"
fi

# ---- kernel: Debian's current linux-image, downloaded, never installed ----
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$kpkg" ] || skip "apt knows no linux-image-amd64 (run 'apt-get update')"
kdir=$cache/kernel/$kpkg
if [ ! -f "$kdir/.done" ]; then
	note "downloading $kpkg"
	rm -rf "$kdir"
	mkdir -p "$kdir/deb"
	# apt's sandbox user cannot write into our tree; a world-writable temp dir it can.
	dl=$(mktemp -d)
	chmod 0777 "$dl"
	(cd "$dl" && apt-get download "$kpkg" >/dev/null 2>&1) ||
		{ rm -rf "$dl"; skip "apt-get download $kpkg failed"; }
	mv "$dl"/*.deb "$kdir/deb/" && rm -rf "$dl"
	dpkg -x "$kdir"/deb/*.deb "$kdir/root" || fail "dpkg -x $kpkg failed"
	rm -rf "$kdir/deb"
	touch "$kdir/.done"
fi
kver=$(basename "$(find "$kdir/root/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
kimage=$kdir/root/boot/vmlinuz-$kver
[ -f "$kimage" ] || fail "no kernel image in $kpkg"
[ -f "$kdir/root/lib/modules/$kver/modules.dep" ] || depmod -b "$kdir/root" "$kver" ||
	fail "depmod failed for $kver"

# ---- initramfs: busybox, blkqual, the storage tools, the tests, the modules ----
stage=$(mktemp -d)
tmp=$(mktemp -d)
# shellcheck disable=SC2317 # called by the trap
cleanup() { rm -rf "$stage" "$tmp"; }
trap cleanup EXIT

mkdir -p "$stage"/{bin,sbin,lib/modules,tests,proc,sys,dev,tmp,run,mnt,etc}
cp /bin/busybox "$stage/bin/busybox"
cp "$here/init" "$stage/init"
chmod 0755 "$stage/init"

# Load order: each module's dependencies first, each module once.
for m in "${modules[@]}"; do
	modprobe -d "$kdir/root" -S "$kver" --show-depends "$m" 2>/dev/null ||
		fail "module $m not in $kpkg"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$tmp/order"
while read -r ko; do
	cp "$ko" "$stage/lib/modules/"
	basename "$ko" >>"$stage/lib/modules/order"
done <"$tmp/order"

# Dynamic binaries go in with the libraries ldd names, at the same paths.
add_binary() {
	local bin=$1 dest=$2 lib
	cp "$bin" "$stage/$dest"
	for lib in $(ldd "$bin" 2>/dev/null | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
		[ -f "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}
add_binary "$blkqual" bin/blkqual
# The libraries blkqual loads on first use (lib/core/lazylib.h), which ldd does not name.
hdr=${BLKQUAL_GENDIR:-$obj/build}/include/config-host.h
[ -f "$hdr" ] || skip "$hdr is missing: build blkqual first"
sed -n 's/^#define BQ_[A-Z]*_SONAME "\(.*\)"$/\1/p' "$hdr" |
while read -r soname; do
	lib=$(ldconfig -p | awk -v n="$soname" '$1 == n && /x86-64/ { print $NF; exit }')
	if [ -n "$lib" ]; then
		add_binary "$lib" "${lib#/}"
	fi
done
# blkqual asks xfs_spaceman what xfs_info would print.
for tool in mdadm mkfs.xfs xfs_spaceman; do
	path=$(command -v "$tool") || skip "$tool not installed (run 'make deps')"
	add_binary "$path" "sbin/$tool"
done
# Stacks of partitions, dm and loop devices, and nvme-cli (fio-examples.sh
# --vm attaches the PI namespaces with it); a guest test that needs a tool
# missing here skips and says which.
for tool in dmsetup losetup mkfs.ext4 sfdisk wipefs nvme; do
	path=$(command -v "$tool") && add_binary "$path" "sbin/$tool"
done
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$stage/etc/"
for t in "${guest_tests[@]}"; do
	add_binary "$t" "tests/$(basename "$t")"
done
for path in ${BLKQUAL_VM_BINARIES:-}; do
	add_binary "$path" "bin/$(basename "$path")"
done

initrd=$cache/initramfs.cpio
if [ -n "${BLKQUAL_VM_PAYLOAD:-}" ]; then
	cp -R "$BLKQUAL_VM_PAYLOAD" "$stage/payload" || fail "cannot copy $BLKQUAL_VM_PAYLOAD"
	initrd=$tmp/initramfs-payload.cpio
fi
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$tmp/initramfs.cpio" ||
	fail "cpio failed"
# Rebuild the cached image only when its contents changed.
if ! cmp -s "$tmp/initramfs.cpio" "$initrd"; then
	mkdir -p "$cache"
	mv "$tmp/initramfs.cpio" "$initrd"
fi

# ---- the machine -------------------------------------------------------
# Sparse backing files for the NVMe namespaces, in a temp dir.
truncate -s 1G "$tmp/nvme0.img" "$tmp/nvme1.img"
truncate -s 2G "$tmp/nvme-zns.img"

# shellcheck disable=SC2054 # the commas are QEMU's option syntax
qemu=(qemu-system-x86_64 -M q35 -accel tcg,thread=multi -cpu max -m 2G -smp 2
	-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,cpus=0,memdev=m0
	-object memory-backend-ram,id=m1,size=1G -numa node,nodeid=1,cpus=1,memdev=m1
	-kernel "$kimage" -initrd "$initrd" -nic none -no-reboot
	-drive "file=$tmp/nvme0.img,if=none,id=nv0,format=raw"
	-device nvme,serial=BQNVME0,drive=nv0,bus=pcie.0
	-device pxb-pcie,id=pxb1,bus_nr=64,numa_node=1,bus=pcie.0
	-device pcie-root-port,id=rp1,bus=pxb1,chassis=1
	-drive "file=$tmp/nvme1.img,if=none,id=nv1,format=raw"
	-device nvme,serial=BQNVME1,drive=nv1,bus=rp1)
# A zoned (ZNS) namespace on its own controller, 32 zones of 64 MiB:
# tests find it by its serial, BQNVMEZNS.  Controllers probe in parallel:
# guest init binds them again in serial order when this one took nvme0 or
# nvme1, the names the older tests use.
# shellcheck disable=SC2054 # the commas are QEMU's option syntax
qemu+=(-device pxb-pcie,id=pxb2,bus_nr=128,numa_node=0,bus=pcie.0
	-device pcie-root-port,id=rp2,bus=pxb2,chassis=2
	-drive "file=$tmp/nvme-zns.img,if=none,id=nvzns,format=raw"
	-device nvme,serial=BQNVMEZNS,id=nvmezns,bus=rp2
	-device nvme-ns,drive=nvzns,bus=nvmezns,nsid=1,zoned=true,zoned.zone_size=64M)
# Protection information (guest_nvme_pi_test): a controller of its own,
# behind a root port of its own so the others keep their probe order,
# with namespaces formatted with metadata: 1 extended LBA 4096+64 PI
# type 1, 2 separate 4096+64 type 1, 3 extended 512+8 type 3 with the PI
# first, 4 separate 4096+16 type 1 with a 64-bit guard.  Sparse; 1 and 2
# hold the 1G of fio's uring-cmd-pi examples.
truncate -s 1152M "$tmp/pi1.img" "$tmp/pi2.img"
truncate -s 64M "$tmp/pi3.img" "$tmp/pi4.img"
b512=logical_block_size=512,physical_block_size=512
b4k=logical_block_size=4096,physical_block_size=4096
# Namespaces 1 and 2 start detached, in a subsystem of their own, and
# guest_nvme_pi_test attaches them: SeaBIOS 1.16.3 (with QEMU 10) reads
# every namespace for a boot sector, and a 4096+64 PI one hung the boot
# half the time.
# shellcheck disable=SC2054 # the commas are QEMU's option syntax
qemu+=(-device pcie-root-port,id=rp3,bus=pxb1,chassis=3
	-device nvme-subsys,id=pisys,nqn=blkqual-pi
	-device nvme,id=nvpi,serial=BQNVMEPI,bus=rp3,subsys=pisys
	-drive "file=$tmp/pi1.img,if=none,id=pi1,format=raw"
	-device "nvme-ns,bus=nvpi,drive=pi1,nsid=1,$b4k,ms=64,mset=1,pi=1,detached=on"
	-drive "file=$tmp/pi2.img,if=none,id=pi2,format=raw"
	-device "nvme-ns,bus=nvpi,drive=pi2,nsid=2,$b4k,ms=64,mset=0,pi=1,detached=on"
	-drive "file=$tmp/pi3.img,if=none,id=pi3,format=raw"
	-device "nvme-ns,bus=nvpi,drive=pi3,nsid=3,$b512,ms=8,mset=1,pi=3,pil=1"
	-drive "file=$tmp/pi4.img,if=none,id=pi4,format=raw"
	-device "nvme-ns,bus=nvpi,drive=pi4,nsid=4,$b4k,ms=16,mset=0,pi=1,pif=2")
# One I/O queue on node 1 (guest_trace_test): its interrupt lands on one
# CPU, so a job on the other node sees its completions cross over.
truncate -s 256M "$tmp/nvmeq1.img"
# shellcheck disable=SC2054 # the commas are QEMU's option syntax
qemu+=(-device pcie-root-port,id=rp5,bus=pxb1,chassis=5
	-drive "file=$tmp/nvmeq1.img,if=none,id=nvq1,format=raw"
	-device nvme,serial=BQNVMEQ1,drive=nvq1,bus=rp5,max_ioqpairs=1)
append="console=ttyS0 loglevel=3 panic=-1"
# Flexible Data Placement (guest_nvme_fdp_test), where QEMU has it (8.0 or
# later): a subsystem with FDP on, 256 MiB reclaim units, 8 reclaim unit
# handles; one namespace with a placement handle on each.  The guest
# waits for it only when it is there (blkqual.fdp=1).
if "${qemu[0]}" -device nvme-subsys,help 2>/dev/null | grep -q 'fdp='; then
	truncate -s 1G "$tmp/fdp.img"
	# shellcheck disable=SC2054 # the commas are QEMU's option syntax
	qemu+=(-device pcie-root-port,id=rp4,bus=pxb2,chassis=4
		-device nvme-subsys,id=fdpsys,nqn=blkqual-fdp,fdp=on,fdp.runs=256M,fdp.nrg=1,fdp.nruh=8
		-device nvme,id=nvfdp,serial=BQNVMEFDP,subsys=fdpsys,bus=rp4
		-drive "file=$tmp/fdp.img,if=none,id=fdp1,format=raw"
		-device "nvme-ns,bus=nvfdp,drive=fdp1,nsid=1,fdp.ruhs=0-7")
	append="$append blkqual.fdp=1"
fi
# shellcheck disable=SC2206 # extra arguments are meant to split
qemu+=(${BLKQUAL_VM_QEMU:-})

if [ "$shell" = 1 ]; then
	echo "vm: booting $kver; the guest's shell follows (poweroff -f to leave)" >&2
	exec "${qemu[@]}" -append "$append blkqual.shell=1" -nographic
fi

log=$tmp/serial.log
start=$(date +%s)
timeout --kill-after=10 "$timeout_s" "${qemu[@]}" -append "$append" \
	-display none -monitor none -serial "file:$log" </dev/null >"$tmp/qemu.out" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))

tr -d '\r' <"$log" >"$tmp/serial.txt"
if ! grep -q '^BLKQUAL-TAP-END' "$tmp/serial.txt"; then
	echo "TAP version 13"
	echo "1..1"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "not ok 1 vm: guest killed after ${timeout_s}s without finishing"
	else
		echo "not ok 1 vm: guest stopped early (qemu exit $rc)"
	fi
	sed 's/^/# qemu: /' "$tmp/qemu.out"
	tail -n 40 "$tmp/serial.txt" | sed 's/^/# guest: /'
	exit 1
fi

# The guest's TAP, already numbered per program; the runner sums them.
echo "# vm: $kver, booted and tested in ${elapsed}s"
sed -n '/^BLKQUAL-TAP-BEGIN/,/^BLKQUAL-TAP-END/p' "$tmp/serial.txt" | sed '1d;$d'
status=$(sed -n 's/^BLKQUAL-TAP-END status=//p' "$tmp/serial.txt")
exit "${status:-1}"
