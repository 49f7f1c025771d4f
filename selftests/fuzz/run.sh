#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz: run each libFuzzer target for a bounded time, from the seeds
# in the repository (and the inputs of past crashes), and say per target
# how fast it ran and how big its corpus grew.  A crash, leak, hang or
# sanitizer finding fails the target and names the input that caused it.
#
# usage: run.sh SECONDS FUZZDIR SRCDIR NAME...
#   FUZZDIR  $(gendir)/fuzz: the targets; corpus/NAME and crashes/NAME
#            are kept there between runs
#   SRCDIR   selftests/fuzz: corpus/NAME (seeds), regressions/NAME, NAME.dict

set -u

secs=$1
fuzzdir=$2
srcdir=$3
shift 3

# Stack traces for UBSan findings too; ASan and UBSan end the run on the first.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
for prog in "$@"; do
	name=${prog#fuzz_}
	bin=$fuzzdir/$prog
	work=$fuzzdir/corpus/$name
	crashes=$fuzzdir/crashes/$name
	log=$fuzzdir/$prog.log
	mkdir -p "$work" "$crashes"
	seeds=()
	for d in "$srcdir/corpus/$name" "$srcdir/regressions/$name"; do
		[ -d "$d" ] && seeds+=("$d")
	done
	opts=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$crashes/")
	[ -f "$srcdir/$name.dict" ] && opts+=(-dict="$srcdir/$name.dict")
	# New inputs go to the first directory only: the seeds stay as they are.
	"$bin" "${opts[@]}" "$work" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		printf 'fuzz: %-12s %ss, %s runs (%s/s), %s\n' "$name" "$secs" "${runs:-?}" \
			"${rate:-?}" "${corp:-corp: ?}"
		continue
	fi
	failed+=("$name")
	input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
	echo "fuzz: $name FAILED (exit $rc)"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5 | sed 's/^/fuzz:   /'
	if [ -n "$input" ]; then
		echo "fuzz:   reproducer: $input"
		echo "fuzz:   run it again: $bin $input"
		echo "fuzz:   once fixed, keep it: cp $input $srcdir/regressions/$name/"
	fi
	echo "fuzz:   full log: $log"
done

if [ "${#failed[@]}" -gt 0 ]; then
	echo "fuzz: failed: ${failed[*]}"
	exit 1
fi
echo "fuzz: $# targets, no findings"
