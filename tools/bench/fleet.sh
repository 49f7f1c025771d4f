#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual fleet at scale: a synthetic fleet of DEVICES result files as a
# real run writes them (selftests/helpers/fleet_gen.py --full: ~64 KB
# each, histogram, intervals and threads included; 4 devices per host,
# one planted 48% slow, one from another job), read as text, as JSON and
# as an HTML page, ROUNDS times each.  Prints every run, the median time,
# the largest peak RSS, the size of what was written, the longest text
# line, and whether the planted device was the one outlier.  The files
# are read from the page cache after the first round.
#
# usage: tools/bench/fleet.sh [DEVICES] [ROUNDS]   (default 100000 3)
#   FLEET_DIR=dir  reuse (or keep) the generated fleet there
# Needs python3 and GNU time (make deps installs them).

set -euo pipefail

srctree=$(cd "$(dirname "$0")/../.." && pwd)
blkqual=${BLKQUAL:-$srctree/blkqual}
devices=${1:-100000}
rounds=${2:-3}

case "$devices$rounds" in
*[!0-9]*) echo "bench: DEVICES and ROUNDS are numbers" >&2; exit 2 ;;
esac
[ "$devices" -ge 8 ] || { echo "bench: DEVICES is at least 8" >&2; exit 2; }
for prog in python3 /usr/bin/time; do
	command -v "$prog" >/dev/null || { echo "bench: needs $prog" >&2; exit 2; }
done

hosts=$(((devices + 3) / 4))
plant=$(printf 'host%05d/nvme3n1' $((hosts / 2)))
other=$(printf 'host%05d/nvme1n1' $((hosts / 3)))
tmp=$(mktemp -d /tmp/bqfleet-bench.XXXXXX)
dir=${FLEET_DIR:-$tmp/fleet}
trap 'rm -rf "$tmp"' EXIT

if [ ! -d "$dir" ]; then
	echo "generating $((hosts * 4)) result files in $dir ..."
	start=$(date +%s)
	python3 "$srctree/selftests/helpers/fleet_gen.py" "$dir" "$hosts" 4 11 --full \
		--plant "$plant:-48" --other-job "$other"
	# fleet skips hidden files: a kept fleet says what was planted in it.
	echo "$plant" >"$dir/.planted"
	echo "generated in $(($(date +%s) - start)) s, $(du -sh "$dir" | cut -f1)"
fi
[ -f "$dir/.planted" ] && plant=$(cat "$dir/.planted")
files=$(find "$dir" -name '*.json' | wc -l)
echo "blkqual fleet over $files files, $(nproc) CPUs, $rounds rounds each"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for mode in text json html; do
	case $mode in
	text) args=() ;;
	json) args=(-o json) ;;
	html) args=(--html "$tmp/out.html") ;;
	esac
	: >"$tmp/times"
	rss=0
	for r in $(seq 1 "$rounds"); do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$blkqual" fleet "${args[@]}" "$dir" \
			>"$tmp/out" 2>"$tmp/err" || true
		read -r secs kib < <(tail -n 1 "$tmp/time")
		echo "  $mode round $r: $secs s, $((kib / 1024)) MiB peak RSS"
		echo "$secs" >>"$tmp/times"
		[ "$kib" -gt "$rss" ] && rss=$kib
	done
	size=$(stat -c %s "$tmp/out")
	[ "$mode" = html ] && size=$(stat -c %s "$tmp/out.html")
	echo "$mode: median $(median <"$tmp/times") s, peak RSS $((rss / 1024)) MiB," \
	     "output $((size / 1024)) KiB"
	case $mode in
	text)
		echo "  longest line $(awk '{ if (length > m) m = length } END { print m }' \
			"$tmp/out") characters; $(grep -E '^[0-9]+ devices,' "$tmp/out" | tail -n 1)"
		grep -q "^  $plant: " "$tmp/out" && echo "  the planted device $plant is named" ||
			echo "  the planted device $plant was NOT found"
		;;
	json)
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("  outliers:", sorted(set(o["device"] for o in d["outliers"])),
      "other job:", d["other_job"]["count"])' "$tmp/out"
		;;
	esac
done
