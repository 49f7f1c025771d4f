#!/bin/sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio-examples-guest.sh - the guest half of tools/compat/fio-examples.sh
# --vm, run by the VM's init as a test program (busybox sh).
#
# /payload/jobs holds the rewritten examples, their device names replaced
# by placeholders for kinds of hardware (@BQ_SD@, @BQ_NG@, ...), since
# only the guest knows what its devices are called.  This script finds
# them, puts their names in, runs blkqual and then fio on each copy as the
# host mode does, and prints every tool's exit status, JSON and messages
# as one archive between markers, for the host to judge: the guest has no
# python, and one judge means one verdict for both modes.

export PATH=/bin:/sbin
export FIO_RW="${FIO_RW:-randread}" FIO_BS="${FIO_BS:-4k}" FIO_IODEPTH="${FIO_IODEPTH:-1}"
# Kernel messages on the console would cut into the archive's lines.
dmesg -n 1

# The block device whose sysfs serial is $1 (NVMe controllers are
# numbered in probe order, so names are looked up, never assumed).
nvme_block()
{
	for b in /sys/block/nvme*; do
		[ "$(tr -d ' ' <"$b/device/serial" 2>/dev/null)" = "$1" ] &&
			{ echo "/dev/${b##*/}"; return; }
	done
}

nvme_generic()
{
	for g in /sys/class/nvme-generic/ng*; do
		[ "$(tr -d ' ' <"$g/device/serial" 2>/dev/null)" = "$1" ] &&
			{ echo "/dev/${g##*/}"; return; }
	done
}

# A zoned null_blk: 2 GiB of 256 MiB zones (the examples' zonesize), not
# memory-backed, so time-bound writers cannot fill the guest's memory.
zoned_nullb()
{
	cfs=/sys/kernel/config/nullb/bqzoned
	mkdir "$cfs" || { echo "# no zoned null_blk: cannot make $cfs" >&2; return; }
	for kv in size=2048 blocksize=4096 memory_backed=0 queue_mode=2 \
		  zoned=1 zone_size=256 power=1; do
		echo "${kv#*=}" >"$cfs/${kv%%=*}" ||
			{ echo "# no zoned null_blk: cannot set $kv" >&2; return; }
	done
	# Named after its configfs directory (Debian's 6.1), or nullbN (older).
	for b in /sys/block/bqzoned /sys/block/nullb*; do
		[ "$(cat "$b/queue/zoned" 2>/dev/null)" = host-managed ] &&
			{ echo "/dev/${b##*/}"; return; }
	done
	echo "# no zoned null_blk: none appeared" >&2
}

# Namespace $2 of the controller whose serial is $1, attached first (vm.sh
# starts the PI namespaces detached, so that the firmware does not hang
# on them) with nvme-cli: its generic device, once the kernel made it.
nvme_attached_generic()
{
	command -v nvme >/dev/null || { echo "# no nvme-cli in the guest" >&2; return; }
	for c in /sys/class/nvme/nvme*; do
		[ "$(tr -d ' ' <"$c/serial" 2>/dev/null)" = "$1" ] || continue
		nvme attach-ns "/dev/${c##*/}" -n "$2" -c "$(cat "$c/cntlid")" >/dev/null 2>&1
		nvme ns-rescan "/dev/${c##*/}" >/dev/null 2>&1
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			for n in "$c"/nvme*n*; do
				[ "$(cat "$n/nsid" 2>/dev/null)" = "$2" ] || continue
				g=/dev/ng${n##*/nvme}
				[ -e "$g" ] && { echo "$g"; return; }
			done
			sleep 1
		done
	done
	echo "# namespace $2 of $1 did not appear" >&2
}

sd=/dev/sda
sg=
for s in /sys/block/sda/device/scsi_generic/sg*; do
	[ -e "$s" ] && sg=/dev/${s##*/}
done
bsg=
for s in /sys/block/sda/device/bsg/*; do
	[ -e "$s" ] && bsg=/dev/bsg/${s##*/}
done
ng=$(nvme_generic BQNVME0)
nvme=$(nvme_block BQNVME0)
zng=$(nvme_generic BQNVMEZNS)
znvme=$(nvme_block BQNVMEZNS)
zbd=$(zoned_nullb)
fdpng=$(nvme_generic BQNVMEFDP)
piext=
pisb=
if grep -qs '@BQ_PIEXT_NG@' /payload/jobs/*.fio; then
	piext=$(nvme_attached_generic BQNVMEPI 1)
fi
if grep -qs '@BQ_PISB_NG@' /payload/jobs/*.fio; then
	pisb=$(nvme_attached_generic BQNVMEPI 2)
fi
echo "# guest devices: SD=$sd SG=$sg BSG=$bsg NG=$ng NVME=$nvme ZNG=$zng ZNVME=$znvme ZBD=$zbd" \
	"FDP_NG=$fdpng PIEXT_NG=$piext PISB_NG=$pisb"

# A kind this guest lacks keeps its placeholder: both tools then fail to
# open it, and the line says so.
res=/tmp/res
mkdir -p "$res" /tmp/jobs
for f in /payload/jobs/*.fio; do
	base=${f##*/}
	job=/tmp/jobs/$base
	sed -e "s|@BQ_SD@|${sd:-@BQ_SD@}|g" -e "s|@BQ_SG@|${sg:-@BQ_SG@}|g" \
	    -e "s|@BQ_BSG@|${bsg:-@BQ_BSG@}|g" -e "s|@BQ_NG@|${ng:-@BQ_NG@}|g" \
	    -e "s|@BQ_NVME@|${nvme:-@BQ_NVME@}|g" -e "s|@BQ_ZNG@|${zng:-@BQ_ZNG@}|g" \
	    -e "s|@BQ_ZNVME@|${znvme:-@BQ_ZNVME@}|g" -e "s|@BQ_ZBD@|${zbd:-@BQ_ZBD@}|g" \
	    -e "s|@BQ_FDP_NG@|${fdpng:-@BQ_FDP_NG@}|g" -e "s|@BQ_PIEXT_NG@|${piext:-@BQ_PIEXT_NG@}|g" \
	    -e "s|@BQ_PISB_NG@|${pisb:-@BQ_PISB_NG@}|g" \
	    "$f" >"$job"
	out=$res/$base
	mkdir -p "$out"
	echo "# $base"
	rm -rf /tmp/run && mkdir -p /tmp/run
	(cd /tmp/run && timeout -s INT 60 blkqual run -o json --output "$out/bq.json" \
		"$job" >/dev/null 2>"$out/bq.err")
	echo $? >"$out/bq.rc"
	rm -rf /tmp/run && mkdir -p /tmp/run
	(cd /tmp/run && timeout -s INT 60 fio --output-format=json --output="$out/fio.json" \
		"$job" >/dev/null 2>"$out/fio.err")
	echo $? >"$out/fio.rc"
done

echo "BQ-FIO-EXAMPLES-BEGIN"
(cd "$res" && tar cf - . | gzip -c | base64)
echo "BQ-FIO-EXAMPLES-END"
exit 0
