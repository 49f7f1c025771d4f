#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: a loop-backed scratch device over a sparse file in a temp dir,
# the inventory, and the safety guard at work on it.  The scratch device
# and file are removed on every exit path, Ctrl-C included.

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

step "mkfs.xfs $dev, then blkqual guard $dev   (now it holds data: refused)"
mkfs.xfs -q -f "$dev"
if "$blkqual" guard "$dev"; then
	echo "blkqual demo: the guard should have refused a device holding XFS" >&2
	exit 1
fi

step "blkqual guard --force-destroy=$dev $dev   (the user names it: allowed)"
"$blkqual" guard --force-destroy="$dev" "$dev"

step "done; removing $dev and $tmp"
