#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: a loop-backed scratch device over a sparse file in a temp dir,
# the inventory, two short runs, the conformance checks, and the safety
# guard at work on it.  The scratch device and file are removed on every
# exit path, Ctrl-C included.

set -euo pipefail

blkqual=${BLKQUAL:-./blkqual}
if [ "$(id -u)" != 0 ]; then
	echo "blkqual demo: needs root (it makes a loop device)" >&2
	exit 2
fi

tmp=$(mktemp -d /tmp/blkqual-demo.XXXXXX)
dev=
cleanup() {
	if [ -n "$dev" ]; then
		losetup -d "$dev" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step() { printf '\n== %s\n' "$*"; }

truncate -s 1G "$tmp/scratch.img"
dev=$(losetup --find --show --direct-io=on "$tmp/scratch.img")
echo "scratch device: $dev over $tmp/scratch.img (sparse, 1 GiB)"

step "blkqual list"
"$blkqual" list

step "blkqual info $dev"
"$blkqual" info "$dev"

step "blkqual guard $dev   (blank: safe to write)"
"$blkqual" guard "$dev"

step "blkqual run: 4 KiB random reads, queue depth 32, 5 seconds, a line per second"
"$blkqual" run --filename="$dev" --name=randread --rw=randread --bs=4k --iodepth=32 \
	--direct=1 --runtime=5s --time_based --interval=1s

step "blkqual run: 70/30 random read/write, 64 KiB, two threads, 3 seconds (blank: writes allowed)"
"$blkqual" run --filename="$dev" --name=mixed --rw=randrw --rwmixread=70 --bs=64k \
	--iodepth=16 --numjobs=2 --direct=1 --runtime=3s --time_based --group_reporting

step "blkqual check $dev   (the conformance suite, TAP; on a loop device polled I/O is refused)"
"$blkqual" check "$dev"

step "mkfs.xfs $dev, then blkqual guard $dev   (now it holds data: refused)"
mkfs.xfs -q -f "$dev"
if "$blkqual" guard "$dev"; then
	echo "blkqual demo: the guard should have refused a device holding XFS" >&2
	exit 1
fi
if "$blkqual" run --filename="$dev" --name=w --rw=write --bs=1m --size=16m --direct=1; then
	echo "blkqual demo: the run should have refused to write over XFS" >&2
	exit 1
fi

step "blkqual guard --force-destroy=$dev $dev   (the user names it: allowed)"
"$blkqual" guard --force-destroy="$dev" "$dev"

step "done; removing $dev and $tmp"
