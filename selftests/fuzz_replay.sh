#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fuzz targets' seeds and the inputs that once crashed them, run once
# each as TAP tests: a parser bug that fuzzing found and that was fixed
# stays fixed.  The targets are built with replay.c's main() instead of
# libFuzzer ($(gendir)/fuzz/replay/), so no clang is needed; built with
# SANITIZE=1, ASan and UBSan watch the replay too.

set -u

src=${BLKQUAL_SRCTREE:-$(cd "$(dirname "$0")/.." && pwd)}
obj=${BLKQUAL_GENDIR:-}

echo "TAP version 13"
if [ -z "$obj" ] || [ ! -d "$obj/fuzz/replay" ]; then
	echo "1..0 # SKIP fuzz replay: targets not built (make tests builds them)"
	exit 4
fi

mapfile -t names < <(find "$src/selftests/fuzz/corpus" -mindepth 1 -maxdepth 1 -type d \
	-printf '%f\n' | LC_ALL=C sort)
echo "1..${#names[@]}"

n=0
failed=0
for name in "${names[@]}"; do
	n=$((n + 1))
	prog=$obj/fuzz/replay/fuzz_$name
	dirs=("$src/selftests/fuzz/corpus/$name")
	regress=$src/selftests/fuzz/regressions/$name
	nr_regress=0
	if [ -d "$regress" ]; then
		dirs+=("$regress")
		nr_regress=$(find "$regress" -type f -not -name '.*' | wc -l)
	fi
	if [ ! -x "$prog" ]; then
		echo "not ok $n $name: fuzz_$name is not built (add it to fuzz-y in Kbuild)"
		failed=1
		continue
	fi
	log=$(mktemp)
	"$prog" "${dirs[@]}" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok $n $name: $(tail -n 1 "$log" | sed 's/^replayed //'), $nr_regress of them past crashes"
	else
		# The replay names each input before running it: the last one is the culprit.
		echo "# $(grep '^# input ' "$log" | tail -n 1 | sed 's/^# //')"
		tail -n 30 "$log" | sed 's/^/# /'
		echo "not ok $n $name: exit status $rc"
		failed=1
	fi
	rm -f "$log"
done
exit "$failed"
