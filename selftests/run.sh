#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test program, show its TAP output, and end with one summary
# line: "N passed, N failed, N skipped".  A program that dies without
# reporting (crash, timeout) counts as a failure, never as a pass.
#
# usage: run.sh PROGRAM...   (a PROGRAM may carry arguments: "vm.sh a b")

set -u

pass=0
fail=0
skip=0
failed_names=()
per_prog_timeout=${BLKQUAL_TEST_TIMEOUT:-600}

for prog in "$@"; do
	read -r -a cmd <<<"$prog"
	name=$(basename "${cmd[0]}")
	log=$(mktemp)
	echo "# ---- $name"
	timeout --kill-after=10 "$per_prog_timeout" "${cmd[@]}" >"$log" 2>&1
	rc=$?
	cat "$log"
	# The 6.1 harness prints a skip as "ok N # SKIP reason" without the test
	# name, so remember the name from the RUN line that precedes it.
	read -r p f s names < <(awk -v prog="$name" '
		/^#  *RUN  / { cur = $3 }
		/^1\.\.0 # [Ss][Kk][Ii][Pp]/ { s++; next }
		/^ok [0-9]+ # [Ss][Kk][Ii][Pp]/ { s++; next }
		/^ok [0-9]+/ { p++; next }
		/^not ok [0-9]+/ {
			f++
			t = $0; sub(/^not ok [0-9]+ */, "", t)
			if (t == "") t = cur
			bad = bad "|" prog ":" t
		}
		END { printf "%d %d %d %s\n", p, f, s, bad }' "$log")
	rm -f "$log"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$f" -eq 0 ]; then
		echo "# $name exited with status $rc without a failed test: counted as a failure"
		f=1
		names="$names|$name (exit $rc)"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + s))
	if [ -n "$names" ]; then
		IFS='|' read -r -a more <<<"${names#|}"
		failed_names+=("${more[@]}")
	fi
done

if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "# failed:"
	printf '#   %s\n' "${failed_names[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
