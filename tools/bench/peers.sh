#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual's emulations against their originals, same command line, same
# XFS, alternating the two tools so that drift on a noisy machine hits
# both alike: blkqual replay against dbench (Throughput, MB/sec; --lean
# too), blkqual fileio against sysbench fileio rndrw (reads/s + writes/s)
# and blkqual latency against ioping -R -D (iops).  Prints every run, the
# medians and the median ratios.
#
# usage: tools/bench/peers.sh [PAIRS] [SECONDS] [CLIENTS]  (as root; default 5 30 2)
#
# Exit status 1 when a median ratio (--lean aside) is off by more than 10%.
# dbench's throughput swings by 10-20% from one 10-second run to the next
# here (fsync through a loop device to a shared disk), both tools alike:
# 30-second runs keep the ratio's spread within a few percent.
# Needs dbench, sysbench, ioping, mkfs.xfs and python3 (make deps installs them).

set -euo pipefail

blkqual=${BLKQUAL:-./blkqual}
pairs=${1:-5}
secs=${2:-30}
clients=${3:-2}

for prog in dbench sysbench ioping mkfs.xfs python3 losetup; do
	command -v "$prog" >/dev/null || { echo "peers: needs $prog" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "peers: needs root (it makes a loop device)" >&2; exit 2; }

# The XFS image lives in RAM (/dev/shm) when it can: through a loop device
# to this machine's shared disk, every fsync waited on other tenants, and
# one tool's run differed from the next by 10-20%.
shm=/tmp
[ -d /dev/shm ] && [ "$(df -k --output=avail /dev/shm | tail -1)" -gt 5000000 ] && shm=/dev/shm
tmp=$(mktemp -d "$shm/blkqual-peers.XXXXXX")
dev=
cleanup() {
	mountpoint -q "$tmp/mnt" && umount "$tmp/mnt"
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s 4G "$tmp/peers.img"
dev=$(losetup --find --show "$tmp/peers.img")
mkfs.xfs -q "$dev"
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"

# throughput CMD...: the MB/sec of dbench's Throughput line.
throughput() {
	"$@" 2>&1 | awk '/^Throughput/ { print $2 }'
}

# fileio DIR PROG: sysbench fileio rndrw's reads/s + writes/s in DIR.
fileio() {
	(cd "$1" && "$2" fileio --file-total-size=1G --file-test-mode=rndrw --time="$secs" run) |
		awk '/reads\/s:|writes\/s:/ { s += $2 } END { print s }'
}

# ping_iops CMD...: the iops of ioping -R -D on one file (raw figures, -q -p 1).
ping_iops() {
	"$@" -R -D -w "$secs" -B "$tmp/mnt/ping.img" | awk '{ print $3; exit }'
}

: >"$tmp/runs"
mkdir "$tmp/mnt/sb" "$tmp/mnt/bq"
(cd "$tmp/mnt/sb" && sysbench fileio --file-total-size=1G prepare >/dev/null)
(cd "$tmp/mnt/bq" && "$blkqual" fileio --file-total-size=1G prepare >/dev/null)
truncate -s 1G "$tmp/mnt/ping.img"
for i in $(seq "$pairs"); do
	d=$(throughput dbench -D "$tmp/mnt" -t "$secs" "$clients")
	b=$(throughput "$blkqual" replay -D "$tmp/mnt" -t "$secs" "$clients")
	l=$(throughput "$blkqual" replay --lean -D "$tmp/mnt" -t "$secs" "$clients")
	s=$(fileio "$tmp/mnt/sb" sysbench)
	f=$(fileio "$tmp/mnt/bq" "$blkqual")
	p=$(ping_iops ioping)
	q=$(ping_iops "$blkqual" latency)
	echo "pair $i: dbench $d MB/s, blkqual replay $b, --lean $l;" \
		"sysbench fileio $s ops/s, blkqual fileio $f; ioping $p iops, blkqual latency $q"
	echo "$d $b $l $s $f $p $q" >>"$tmp/runs"
done
python3 - "$tmp/runs" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
med = [statistics.median(c) for c in zip(*rows)]
def ratio(i, j):
    return statistics.median(r[j] / r[i] for r in rows)
print(f"median: dbench {med[0]:.1f}, blkqual replay {med[1]:.1f}, --lean {med[2]:.1f} MB/s; "
      f"sysbench {med[3]:.0f}, blkqual fileio {med[4]:.0f} ops/s; "
      f"ioping {med[5]:.0f}, blkqual latency {med[6]:.0f} iops")
print(f"median ratio to the original: replay {ratio(0, 1):.3f} (--lean {ratio(0, 2):.3f}), "
      f"fileio {ratio(3, 4):.3f}, latency {ratio(5, 6):.3f}")
# --lean is left out of the check: it says itself that it does not compare.
off = [n for n, (i, j) in (("replay", (0, 1)), ("fileio", (3, 4)), ("latency", (5, 6)))
       if abs(ratio(i, j) - 1) > 0.10]
print("within 10% of the original: " + ("all" if not off else "not " + ", ".join(off)))
sys.exit(1 if off else 0)
PY
