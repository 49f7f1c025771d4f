#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How blkqual fleet reads its files, as TAP: the parts it skips unparsed
# (histograms, intervals, threads) change no figure, whatever strings they
# hold; a file broken inside or after them is named with the right line;
# the devices come out in the files' order whatever thread read them; and
# figures from another job than the fleet's are set aside on one line.

set -u

srctree=${BLKQUAL_SRCTREE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srctree/selftests/helpers/tap.sh"
gen=$srctree/selftests/helpers/fleet_gen.py

# The figures fleet compared, device by device, as one line.
figures() {
	"$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted((v["device"], m["name"], v["value"]) for g in d["groups"]
             for m in g["metrics"] for v in m["values"]))' "$1"
}

tmp=$(mktemp -d /tmp/bqfleet-read.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"

# The same fleet, plain and as real runs write it (64 KB a file).
"$python" "$gen" "$tmp/plain" 30 4 3 --plant host00007/nvme2n1:-48
"$python" "$gen" "$tmp/full" 30 4 3 --plant host00007/nvme2n1:-48 --full
"$blkqual" fleet -o json "$tmp/plain" >"$tmp/plain.json" 2>/dev/null
"$blkqual" fleet -o json "$tmp/full" >"$tmp/full.json" 2>/dev/null
a=$(figures "$tmp/plain.json")
b=$(figures "$tmp/full.json")
bad=0
[ -n "$a" ] && [ "$a" != "[]" ] && [ "$a" = "$b" ] || bad=1
[ "$(stat -c %s "$tmp/full/host00000/nvme0n1.json")" -gt 30000 ] || bad=1
check $bad "the histograms, intervals and threads fleet skips change no figure (120 devices)"

# Strings in the skipped parts that look like JSON's own brackets and
# quotes, a skipped key whose value is a scalar, and one that is empty.
src=$tmp/plain/host00000/nvme0n1.json
mkdir -p "$tmp/tricky/hostA"
"$python" - "$src" "$tmp/tricky/hostA/sda.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["jobs"][0]["total"]["read"]["lat_ns"]
lat["histogram"] = {"unit": "n\"s]}\\", "buckets": [[1, 2, 3], "[{\"", {"x": "}"}]}
d["jobs"][0]["threads"] = 2
d["jobs"][0]["intervals"] = []
d["jobs"][0]["bins"] = {}
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
cp "$src" "$tmp/tricky/hostA/sdb.json"
"$blkqual" fleet -o json "$tmp/tricky" >"$tmp/tricky.json" 2>"$tmp/err"
got=$("$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
v = {x["device"].split("/")[1]: x["value"] for g in d["groups"] for m in g["metrics"]
     if m["name"] == "rand4k: read IOPS" for x in m["values"]}
print(len(v), v["sda"] == v["sdb"], d["unreadable"]["not_json"]["count"])' "$tmp/tricky.json" 2>&1)
[ "$got" = "2 True 0" ]
check $? "quotes, brackets and backslashes inside a skipped part end where JSON says they end"

# Broken after a skipped histogram of many lines: the line named is the
# file's own; cut short inside one: "ends in the middle", not figures.
mkdir -p "$tmp/broken/hostA"
"$python" - "$tmp/full/host00000/nvme0n1.json" "$tmp/broken/hostA" <<'EOF'
import sys
text = open(sys.argv[1]).read()
at = text.index('"intervals"')
# A stray character on the line of "intervals", after the histogram's lines.
line = text[:at].count("\n") + 1
open(sys.argv[2] + "/after.json", "w").write(text[:at] + "@" + text[at:])
open(sys.argv[2] + "/line", "w").write(str(line))
cut = text.index('"buckets"') + 500
open(sys.argv[2] + "/inside.json", "w").write(text[:cut])
EOF
line=$(cat "$tmp/broken/hostA/line")
rm "$tmp/broken/hostA/line"
cp "$src" "$tmp/broken/hostA/good.json"
"$blkqual" fleet "$tmp/broken" >"$tmp/broken.txt" 2>&1
"$blkqual" fleet "$tmp/broken/hostA/after.json" >"$tmp/after.txt" 2>&1
rc=$?
"$blkqual" fleet "$tmp/broken/hostA/inside.json" >"$tmp/inside.txt" 2>&1
rc2=$?
bad=0
grep -q "^2 files are not JSON results: " "$tmp/broken.txt" || bad=1
grep -q "after.json:$line: not JSON" "$tmp/after.txt" || bad=1
grep -q "inside.json:[0-9]*: not JSON (ends in the middle of the document)" "$tmp/inside.txt" || bad=1
[ "$rc" = 2 ] && [ "$rc2" = 2 ] || bad=1
{ echo "line $line, rc $rc $rc2"; cat "$tmp/after.txt" "$tmp/inside.txt"; } | note
check $bad "a file broken after or inside a skipped part is not JSON, at its own line"

# The devices in the order of the files, whatever thread read them.
got=$("$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
ids = [x["id"] for x in d["devices"]]
print(len(ids), ids == sorted(ids))' "$tmp/full.json")
[ "$got" = "120 True" ]
check $? "the devices come out in the files' order ($got)"

# Two devices ran the job with bs=8k: set aside, on one line, exit 1.
rm -rf "$tmp/f"
"$python" "$gen" "$tmp/f" 50 4 9 --other-job host00003/nvme0n1 --other-job host00040/nvme2n1
"$blkqual" fleet "$tmp/f" >"$tmp/f.txt" 2>"$tmp/f.err"
rc=$?
"$blkqual" fleet -o json "$tmp/f" >"$tmp/f.json" 2>/dev/null
got=$("$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
o = d["other_job"]
compared = {v["device"] for g in d["groups"] for m in g["metrics"] for v in m["values"]}
print(o["count"], [f.split("/")[-2] for f in o["first_files"]], d["found"],
      "host00003/nvme0n1" in compared, len(compared), len(d["outliers"]))' "$tmp/f.json")
bad=0
[ "$rc" = 1 ] || bad=1
[ "$(grep -c 'from another job' "$tmp/f.txt")" = 3 ] || bad=1
grep -q '^2 results are from another job than most of its group ran, not compared: .*host00003/nvme0n1.json, .*host00040/nvme2n1.json (the first ran --bs=8192,8192 for rand4k: read IOPS, where most ran --bs=4096,4096)$' \
	"$tmp/f.txt" || bad=1
[ "$got" = "2 ['host00003', 'host00040'] True False 198 0" ] || bad=1
{ echo "rc $rc: $got"; grep 'another job' "$tmp/f.txt"; } | note
check $bad "results from another job are set aside, counted and named on one line"

# A qualification with another profile: its text is many lines, the
# line about it stays one.  And another model that runs the same job
# name with options of its own is a group of its own, not another job.
mkdir -p "$tmp/q"
cp -r "$srctree/selftests/fixtures/fleet/qualify/host"[ABC] "$tmp/q/"
cp -r "$tmp/q/hostC" "$tmp/q/hostE"
"$python" - "$tmp/q/hostE/sda.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["profile"]["text"] = d["profile"]["text"].replace(">= 50000", ">= 60000\n# tighter")
json.dump(d, open(sys.argv[1], "w"))
EOF
for h in F G H; do
	mkdir -p "$tmp/q/host$h"
	"$python" - "$src" "$tmp/q/host$h/nvme0n1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["job_args"] = [a.replace("--iodepth=32", "--iodepth=8") for a in d["jobs"][0]["job_args"]]
d["jobs"][0]["targets"][0]["device"]["model"] = "OTHER NV2"
json.dump(d, open(sys.argv[2], "w"))
EOF
done
mkdir -p "$tmp/q/hostI"
cp "$src" "$tmp/q/hostI/nvme0n1.json"
"$blkqual" fleet "$tmp/q" >"$tmp/q.txt" 2>&1
line=$(grep 'from another job than' "$tmp/q.txt")
echo "$line" | note
bad=0
[ "$(grep -c 'from another job than' "$tmp/q.txt")" = 1 ] || bad=1
case "$line" in
"1 result is from another job than most of its group ran, not compared: $tmp/q/hostE/sda.json (the first ran 60000 for mini iops "*", where most ran 50000)") ;;
*) bad=1 ;;
esac
grep -q '^model OTHER NV2, firmware 1.0: 3 devices on 3 hosts' "$tmp/q.txt" || bad=1
check $bad "a profile of many lines is named by the word that differs; a model's own options are its group's"

# Groups are counts: devices and hosts.
grep -q '^model ACME NV1 1TB, firmware 1.0: 200 devices on 50 hosts;' "$tmp/f.txt" &&
	[ "$("$python" -c 'import json, sys
d = json.load(open(sys.argv[1])); g = d["groups"][0]
print(g["device_count"], g["host_count"], d["host_count"])' "$tmp/f.json")" = "200 50 50" ]
check $? "a group says how many devices and hosts it has, in text and JSON"

# Sixty devices gave no result: the text names fifty and counts the rest.
for i in $(seq 1 60); do
	echo "blkqual run exited 1: no such device" >"$tmp/f/host$(printf %05d $((i % 50)))/gone$i.failed"
done
"$blkqual" fleet "$tmp/f" >"$tmp/f.txt" 2>&1
got=$(sed -n '/^failures:/,/^$/p' "$tmp/f.txt" | grep -c '^  host')
grep -q '^  and 10 more (-o json lists every one)$' "$tmp/f.txt" && [ "$got" = 50 ] &&
	"$blkqual" fleet -o json "$tmp/f" 2>/dev/null | "$python" -c 'import json, sys
d = json.load(sys.stdin); assert len(d["failures"]) == 60, len(d["failures"])'
check $? "failures: fifty lines in the text, then a count; every one in the JSON"

echo "1..$n"
exit "$failed"
