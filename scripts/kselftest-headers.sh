#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Extract kselftest_harness.h and kselftest.h from the distribution's
# linux-source tarball into DIR, once.  The headers are never kept in the
# repository: the tests build against the harness the kernel ships.
#
# usage: kselftest-headers.sh DIR

set -eu

dir=$1
[ -f "$dir/kselftest_harness.h" ] && [ -f "$dir/kselftest.h" ] && exit 0

tarball=$(find /usr/src -maxdepth 1 -name 'linux-source-*.tar.*' | sort -V | tail -n 1)
if [ -z "$tarball" ]; then
	echo "blkqual: no /usr/src/linux-source-*.tar.* found; run 'make deps' as root" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tarball's top directory differs between Debian and Ubuntu: match by tail.
tar -xf "$tarball" -C "$tmp" --wildcards \
	'*/tools/testing/selftests/kselftest_harness.h' \
	'*/tools/testing/selftests/kselftest.h'
mkdir -p "$dir"
for h in kselftest_harness.h kselftest.h; do
	src=$(find "$tmp" -path "*/tools/testing/selftests/$h" | head -n 1)
	[ -n "$src" ] || { echo "blkqual: $h not in $tarball" >&2; exit 1; }
	cp "$src" "$dir/$h"
done
echo "  KSFT    headers from $(basename "$tarball")"
