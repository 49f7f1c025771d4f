#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual against fio, measured in one run on the same loop device:
# 4 KiB random reads, queue depth 32, one thread, alternating the two
# tools so that drift on a noisy machine hits both alike.  Prints every
# run, the medians and the ratios; then the nop engine's rate per core
# and the peak RSS of both tools at 64 threads x QD128 and 1 thread x QD1.
#
# usage: tools/bench/bench.sh [PAIRS] [SECONDS]     (as root; default 5 5)
# Needs fio, GNU time and python3 (make deps installs fio and time).

set -euo pipefail

blkqual=${BLKQUAL:-./blkqual}
pairs=${1:-5}
secs=${2:-5}

for prog in fio python3 losetup /usr/bin/time; do
	command -v "$prog" >/dev/null || { echo "bench: needs $prog" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "bench: needs root (it makes a loop device)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/blkqual-bench.XXXXXX)
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s 4G "$tmp/bench.img"
dev=$(losetup --find --show --direct-io=on "$tmp/bench.img")

# run NAME CMD...: prints "iops cpu_seconds peak_rss_kib" of one run.
run() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" >"$tmp/out.json" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	python3 - "$name" "$tmp/out.json" "$tmp/time" <<'PY'
import json, sys
name, out, tfile = sys.argv[1:4]
doc = json.load(open(out))
if name == "fio":
    iops = sum(j["read"]["iops"] + j["write"]["iops"] for j in doc["jobs"])
else:
    iops = sum(j["total"]["read"]["iops"] + j["total"]["write"]["iops"] for j in doc["jobs"])
usr, sys_, rss = open(tfile).read().split()[-3:]
print(f"{iops:.0f} {float(usr) + float(sys_):.2f} {rss}")
PY
}

fio_job=(fio --name=bench --filename="$dev" --rw=randread --bs=4k --iodepth=32 --direct=1
	--ioengine=io_uring --runtime="$secs" --time_based --output-format=json)
bq_job=("$blkqual" run --no-status -o json --name=bench --filename="$dev" --rw=randread
	--bs=4k --iodepth=32 --direct=1 --ioengine=io_uring --runtime="$secs" --time_based)
# The same, waiting for 16 completions per call: fewer system calls, but
# latency stamped per batch (see Documentation/run.rst, "Latency").
bq16_job=("${bq_job[@]}" --iodepth_batch_complete_min=16)

echo "4 KiB random reads, QD32, 1 thread, ${secs}s, $pairs pairs on $dev (4 GiB sparse, direct I/O on)"
printf '%-8s %4s %10s %8s %14s\n' tool pair IOPS cpu-s "I/Os/cpu-s"
: >"$tmp/fio.txt"
: >"$tmp/bq.txt"
: >"$tmp/bq16.txt"
for i in $(seq 1 "$pairs"); do
	# Alternate which tool goes first, so neither always gets the warmer cache.
	if [ $((i % 2)) = 1 ]; then order="fio bq bq16"; else order="bq16 bq fio"; fi
	for tool in $order; do
		case $tool in
		fio) read -r iops cpu _ < <(run fio "${fio_job[@]}") ;;
		bq) read -r iops cpu _ < <(run blkqual "${bq_job[@]}") ;;
		bq16) read -r iops cpu _ < <(run blkqual "${bq16_job[@]}") ;;
		esac
		per=$(python3 -c "print(f'{$iops * $secs / $cpu:.0f}')")
		echo "$iops $cpu $per" >>"$tmp/$tool.txt"
		printf '%-8s %4d %10s %8s %14s\n' "$tool" "$i" "$iops" "$cpu" "$per"
	done
done

python3 - "$tmp/fio.txt" "$tmp/bq.txt" "$tmp/bq16.txt" <<'PY'
import statistics, sys
def load(p):
    rows = [list(map(float, l.split())) for l in open(p) if l.strip()]
    return [statistics.median(c) for c in zip(*rows)]
f = load(sys.argv[1])
print(f"median   fio: {f[0]:.0f} IOPS, {f[2]/1e6:.3f}M I/Os per CPU-second")
for name, path in (("blkqual", sys.argv[2]), ("blkqual batch 16", sys.argv[3])):
    b = load(path)
    print(f"median   {name}: {b[0]:.0f} IOPS, {b[2]/1e6:.3f}M I/Os per CPU-second; "
          f"vs fio: IOPS {b[0]/f[0]:.2f}x, I/Os per CPU-second {b[2]/f[2]:.2f}x")
PY

# The tool's own overhead: NOP requests, no per-I/O statistics.
read -r iops cpu _ < <(run blkqual "$blkqual" run --no-status -o json --name=nop --ioengine=nop \
	--bs=4k --size=1g --iodepth=128 --gtod_reduce=1 --runtime="$secs" --time_based)
python3 -c "print(f'nop      {$iops/1e6:.2f}M ops/s, {$iops * $secs / $cpu / 1e6:.2f}M ops per CPU-second')"

# Peak RSS: many threads with deep queues, and one thread at QD1.
for shape in "64 128" "1 1"; do
	read -r nj qd <<<"$shape"
	read -r _ _ frss < <(run fio fio --name=rss --filename="$dev" --rw=randread --bs=4k \
		--iodepth="$qd" --numjobs="$nj" --thread --direct=1 --ioengine=io_uring \
		--runtime=2 --time_based --group_reporting --output-format=json)
	read -r _ _ brss < <(run blkqual "$blkqual" run --no-status -o json --name=rss \
		--filename="$dev" --rw=randread --bs=4k --iodepth="$qd" --numjobs="$nj" \
		--direct=1 --runtime=2 --time_based --group_reporting)
	python3 -c "print(f'peak RSS $nj threads x QD$qd: fio {$frss/1024:.1f} MiB, blkqual {$brss/1024:.1f} MiB')"
done
