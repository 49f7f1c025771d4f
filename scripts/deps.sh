#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install blkqual's build and test dependencies on Debian or Ubuntu.
# Only what is missing is installed, so repeated runs cost a dpkg query.

set -eu

pkgs="build-essential pkg-config liburing-dev libblkid-dev libnvme-dev
libnuma-dev libjson-c-dev libaio-dev libssl-dev xfsprogs mdadm util-linux fdisk
e2fsprogs dmsetup shellcheck xz-utils kmod cpio busybox-static qemu-system-x86 fio time python3 dbench sysbench ioping strace chromium ansible-core openssh-server openssh-client
clang libclang-rt-dev valgrind"

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
# Any linux-source-X.Y will do: it is only read for the kselftest headers.
if ! ls /usr/src/linux-source-*.tar.* >/dev/null 2>&1; then
	missing="$missing linux-source"
fi

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "blkqual: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
echo "  DEPS   $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # the package list is meant to split
apt-get install -y -qq --no-install-recommends $missing >/dev/null
