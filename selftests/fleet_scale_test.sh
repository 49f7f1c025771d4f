#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual fleet on synthetic fleets (selftests/helpers/fleet_gen.py,
# seeded, so every run sees the same fleets), as TAP: the outlier rule
# whose chance rate does not grow with the fleet, a planted slow device
# found at 400 and at 10,000 devices, a firmware that drifts as a group
# of its own, and a text summary whose lines stay short.  The time and
# memory of the 10,000-device run are printed, not judged.

set -u

srctree=${BLKQUAL_SRCTREE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srctree/selftests/helpers/tap.sh"
gen=$srctree/selftests/helpers/fleet_gen.py

tmp=$(mktemp -d /tmp/bqfleet-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"

# Twenty fleets of 400 devices, 3% noise, one device planted 48% slow.
found=0
chance=0
expected=
for seed in $(seq 1 20); do
	host=$(printf 'host%05d' $((seed * 7 % 100)))
	rm -rf "$tmp/f"
	"$python" "$gen" "$tmp/f" 100 4 "$seed" --plant "$host/nvme2n1:-48"
	"$blkqual" fleet -o json "$tmp/f" >"$tmp/f.json" 2>"$tmp/f.err"
	got=$(json "$tmp/f.json" "' '.join(sorted(set(o['device'] for o in d['outliers'])))")
	case " $got " in *" $host/nvme2n1 "*) found=$((found + 1)) ;; esac
	others=$(echo "$got" | tr ' ' '\n' | grep -vc "^$host/nvme2n1\$")
	chance=$((chance + others))
	expected=$(json "$tmp/f.json" "d['chance_outliers_expected']")
done
echo "20 fleets of 400: planted found $found times; $chance other outlier devices (the rule expects at most $expected per fleet)" | note
if [ "$found" = 20 ] && [ "$chance" -le 3 ]; then
	ok "400 devices x 20 seeds: the planted device found every time, chance outliers within the rule's rate"
else
	not_ok "400 devices x 20 seeds: the planted device found every time, chance outliers within the rule's rate"
fi

# The smallest fleets too: 12, 40 and 100 devices, one planted.
bad=0
for hosts in 3 10 25; do
	rm -rf "$tmp/f"
	"$python" "$gen" "$tmp/f" "$hosts" 4 "$hosts" --plant host00001/nvme1n1:-48
	"$blkqual" fleet -o json "$tmp/f" >"$tmp/f.json" 2>"$tmp/f.err"
	got=$(json "$tmp/f.json" "' '.join(sorted(set(o['device'] for o in d['outliers'])))")
	echo "$((hosts * 4)) devices: outliers $got" | note
	[ "$got" = host00001/nvme1n1 ] || bad=1
done
if [ "$bad" = 0 ]; then
	ok "12, 40 and 100 devices: the planted device is the one outlier"
else
	not_ok "12, 40 and 100 devices: the planted device is the one outlier"
fi

# One fleet of 10,000 devices: found, no chance outlier, short lines.
rm -rf "$tmp/f"
"$python" "$gen" "$tmp/f" 2500 4 7 --plant host01234/nvme3n1:-48
/usr/bin/time -f '%e %M' -o "$tmp/time" "$blkqual" fleet --html "$tmp/f.html" "$tmp/f" \
	>"$tmp/f.txt" 2>"$tmp/f.err"
rc=$?
# GNU time puts "Command exited with non-zero status 1" first: the figures are last.
read -r secs kib < <(tail -n 1 "$tmp/time")
echo "10,000 devices, text and HTML: $secs s, $((kib / 1024)) MiB peak RSS" | note
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/f.txt")
outl=$(sed -n '/^outliers:/,/^$/p' "$tmp/f.txt" | grep -c '^  host')
if [ "$rc" = 1 ] && [ "$outl" = 1 ] && grep -q '^  host01234/nvme3n1:' "$tmp/f.txt" &&
   [ "$longest" -lt 400 ]; then
	ok "10,000 devices: the planted device is the one outlier; longest line $longest characters"
else
	{ echo "rc $rc outliers $outl longest $longest"; head -c 2000 "$tmp/f.txt"; } | note
	not_ok "10,000 devices: the planted device is the one outlier; longest line $longest characters"
fi

/usr/bin/time -f '%e %M' -o "$tmp/time" "$blkqual" fleet -o json "$tmp/f" >"$tmp/f.json" \
	2>"$tmp/f.err"
read -r secs kib < <(tail -n 1 "$tmp/time")
echo "10,000 devices, JSON: $secs s, $((kib / 1024)) MiB peak RSS, $(($(stat -c %s "$tmp/f.json") / 1048576)) MiB written" | note

# The page at 10,000 devices: small, well-formed, the outliers first, a
# histogram per metric rather than 10,000 dots.
size=$(stat -c %s "$tmp/f.html")
"$python" "$srctree/selftests/helpers/html_check.py" "$tmp/f.html" >"$tmp/check" 2>&1
first_h2=$(grep -o '<h2[^>]*>[^<]*' "$tmp/f.html" | head -1)
if [ "$size" -lt 2000000 ] && grep -qx wellformed "$tmp/check" && grep -qx 'svg 4' "$tmp/check" &&
   [ "${first_h2##*>}" = Outliers ] && grep -q 'host01234/nvme3n1' "$tmp/f.html"; then
	ok "10,000 devices: the HTML page is $size bytes, outliers first, one histogram per metric"
else
	{ echo "size $size first heading '$first_h2'"; cat "$tmp/check"; } | note
	not_ok "10,000 devices: the HTML page is $size bytes, outliers first, one histogram per metric"
fi

# Firmware 2.0 is 20% slower on half the hosts: a group of its own, no
# outliers from the drift, and the planted device found in its group.
rm -rf "$tmp/f"
"$python" "$gen" "$tmp/f" 200 4 11 --firmware-drift 20 --plant host00101/nvme0n1:-48
"$blkqual" fleet -o json "$tmp/f" >"$tmp/f.json" 2>"$tmp/f.err"
got=$(json "$tmp/f.json" "(len(d['groups']), sorted(set(o['device'] for o in d['outliers'])))")
if [ "$got" = "(2, ['host00101/nvme0n1'])" ]; then
	ok "a drifting firmware is a group of its own; the planted device is found in it"
else
	echo "$got" | note
	not_ok "a drifting firmware is a group of its own; the planted device is found in it"
fi

# 100 broken files and 50 that are not results among 400 devices: one
# line each kind, the devices still judged, exit 1.
rm -rf "$tmp/f"
"$python" "$gen" "$tmp/f" 100 4 5 --plant host00050/nvme0n1:-48
for i in $(seq 1 100); do echo '{"jobs": [' >"$tmp/f/host$(printf %05d $((i % 100)))/broken$i.json"; done
for i in $(seq 1 50); do echo '{"schema_version": 1}' >"$tmp/f/host$(printf %05d "$i")/other$i.json"; done
"$blkqual" fleet "$tmp/f" >"$tmp/f.txt" 2>"$tmp/f.err"
rc=$?
lines=$(grep -c '^100 files are not JSON results: .* and 95 more (the first: ' "$tmp/f.txt")
lines2=$(grep -c '^50 files are not run or qualify results: .* and 45 more' "$tmp/f.txt")
if [ "$rc" = 1 ] && [ "$lines" = 1 ] && [ "$lines2" = 1 ] && [ ! -s "$tmp/f.err" ] &&
   grep -q '^  host00050/nvme0n1:' "$tmp/f.txt" && grep -q '^400 devices' "$tmp/f.txt"; then
	ok "unreadable files are counted and named in one line per kind; the rest is judged"
else
	{ echo "rc $rc lines $lines $lines2"; tail -5 "$tmp/f.txt"; cat "$tmp/f.err"; } | note
	not_ok "unreadable files are counted and named in one line per kind; the rest is judged"
fi

# The rule is stated: its name, alpha, floor, and the chance count.
got=$(json "$tmp/f.json" "(d['rule']['name'], d['rule']['alpha'], d['rule']['z_floor'], round(d['chance_outliers_expected'], 3), [round(g['z_threshold'], 2) for g in d['groups']])")
if [ "$got" = "('bonferroni', 0.05, 3.5, 0.1, [4.16, 4.16])" ]; then
	ok "the JSON states the rule, each group's threshold and the outliers chance would give"
else
	echo "$got" | note
	not_ok "the JSON states the rule, each group's threshold and the outliers chance would give"
fi

echo "1..$n"
exit "$failed"
