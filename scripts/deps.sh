#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install blkqual's build and test dependencies on Debian or Ubuntu.
# Only what is missing is installed, so repeated runs cost a dpkg query.

set -eu

pkgs="build-essential pkg-config liburing-dev libblkid-dev libnvme-dev
libnuma-dev libjson-c-dev libaio-dev libssl-dev xfsprogs mdadm util-linux fdisk
e2fsprogs dmsetup shellcheck xz-utils kmod cpio busybox-static qemu-system-x86 fio time python3 dbench sysbench ioping strace chromium ansible-core openssh-server openssh-client
clang libclang-rt-dev valgrind nvme-cli libbpf-dev bpftool"

# The VM tests' FDP namespace needs QEMU 8.0 or later.  Debian 12 ships
# 7.2, and 10.0 in bookworm-backports: there it comes from backports (an
# apt source this script adds, at backports' default low priority, so
# nothing else is taken from it).
backports=
if grep -qs '^VERSION_CODENAME=bookworm$' /etc/os-release; then
	v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null || true)
	if [ -z "$v" ] || dpkg --compare-versions "$v" lt 1:8.0; then
		backports=qemu-system-x86
	fi
	pkgs=$(echo "$pkgs" | sed 's/qemu-system-x86 //')
fi

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

[ -z "$missing" ] && [ -z "$backports" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "blkqual: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
echo "  DEPS   $missing${backports:+ $backports (bookworm-backports)}"
export DEBIAN_FRONTEND=noninteractive
if [ -n "$backports" ]; then
	cat >/etc/apt/sources.list.d/blkqual-backports.sources <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
# Backports out of reach: Debian's own QEMU, and the FDP tests skip, saying why.
if ! apt-get update -qq && [ -n "$backports" ]; then
	echo "blkqual: bookworm-backports unreachable; QEMU 7.2 from bookworm (no FDP)" >&2
	rm -f /etc/apt/sources.list.d/blkqual-backports.sources
	apt-get update -qq
	missing="$missing $backports"
	backports=
fi
# bpftool (the block tracer's skeleton, optional at build time) is a
# package of its own on Debian; a distribution without one builds blkqual
# without --trace=block, and the probe says so.
case " $missing " in
*" bpftool "*)
	if ! apt-cache show bpftool >/dev/null 2>&1; then
		echo "blkqual: no bpftool package here: --trace=block will be left out" >&2
		missing=$(echo "$missing" | sed 's/ bpftool//')
	fi ;;
esac
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086 # the package list is meant to split
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$backports" ] &&
   ! apt-get install -y -qq --no-install-recommends -t bookworm-backports $backports >/dev/null; then
	echo "blkqual: QEMU from bookworm-backports failed; QEMU 7.2 from bookworm (no FDP)" >&2
	apt-get install -y -qq --no-install-recommends $backports >/dev/null
fi
