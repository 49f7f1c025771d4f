# shellcheck shell=bash disable=SC2034
# SPDX-License-Identifier: GPL-2.0-only
#
# TAP for the shell tests, sourced once $srctree is set: the blkqual under
# test, python, ok/not_ok/skip/check that number the lines, note for
# diagnostics, json for a query on a JSON file (d is the document).

blkqual=${BLKQUAL:-$srctree/blkqual}
python=/usr/bin/python3
[ -x "$python" ] || python=python3

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
note() { sed 's/^/# /'; }
json() { "$python" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
