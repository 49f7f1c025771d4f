#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual against fio, measured in one run on the same loop device:
# 4 KiB random reads, queue depth 32, one thread, alternating the tools
# so that drift on a noisy machine hits them alike.  Prints every run,
# the medians and the ratios; then the nop engine's rate per core, the
# peak RSS of blkqual and fio at 64 threads x QD128 and 1 thread x QD1,
# and instructions per I/O counted by callgrind.
#
# With TIO=path/to/t/io_uring, fio's own limit-finder runs in the same
# rounds with its latency statistics on (-t1), in both timing modes,
# beside the blkqual run that times I/Os the same way (and its NOP rate,
# -N1, beside blkqual's nop engine):
#   blkqual (every I/O stamped, waits for >= 1)   vs  t/io_uring -s32 -c1
#   blkqual --iodepth_batch_complete_min=32       vs  t/io_uring -s32 -c32
# Debian's fio package has no t/io_uring: build it from fio's source tree
# (git clone https://github.com/axboe/fio; ./configure && make t/io_uring).
#
# usage: [TIO=...] tools/bench/bench.sh [PAIRS] [SECONDS]   (as root; default 5 5)
# Needs fio, GNU time and python3 (make deps installs them), and valgrind
# for the instruction counts (skipped, saying so, without it).

set -euo pipefail

blkqual=${BLKQUAL:-./blkqual}
pairs=${1:-5}
secs=${2:-5}

for prog in fio python3 losetup taskset /usr/bin/time; do
	command -v "$prog" >/dev/null || { echo "bench: needs $prog" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "bench: needs root (it makes a loop device)" >&2; exit 2; }
tio=${TIO:-}
if [ -n "$tio" ] && [ ! -x "$tio" ]; then
	echo "bench: TIO=$tio is not an executable; build it in fio's source tree:" \
	     "./configure && make t/io_uring" >&2
	exit 2
fi

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
import json, re, sys
name, out, tfile = sys.argv[1:4]
if name == "tio":
    # One "IOPS=276.5K, BW=..., IOS/call=32/31" line a second: their mean.
    rates = [float(v) * {"": 1, "K": 1e3, "M": 1e6}[u]
             for v, u in re.findall(r"IOPS=([0-9.]+)([KM]?)", open(out).read())]
    if not rates:
        sys.exit("bench: t/io_uring printed no IOPS line")
    iops = sum(rates) / len(rates)
elif name == "fio":
    doc = json.load(open(out))
    iops = sum(j["read"]["iops"] + j["write"]["iops"] for j in doc["jobs"])
else:
    doc = json.load(open(out))
    iops = sum(j["total"]["read"]["iops"] + j["total"]["write"]["iops"] for j in doc["jobs"])
usr, sys_, rss = open(tfile).read().split()[-3:]
print(f"{iops:.0f} {float(usr) + float(sys_):.2f} {rss}")
PY
}

# Every tool's I/O thread on the same CPU, the last one: CPU 0 takes the
# machine's housekeeping (here twice the timer interrupts), and a tester
# there spent a quarter more CPU per I/O than on CPU 1, whichever tool it
# was.  blkqual would pin itself to CPU 0 and t/io_uring floats.
pin=${BENCH_CPU:-$(($(nproc) - 1))}
fio_job=(fio --name=bench --filename="$dev" --rw=randread --bs=4k --iodepth=32 --direct=1
	--ioengine=io_uring --runtime="$secs" --time_based --output-format=json
	--cpus_allowed="$pin")
bq_job=("$blkqual" run --no-status -o json --name=bench --filename="$dev" --rw=randread
	--bs=4k --iodepth=32 --direct=1 --ioengine=io_uring --runtime="$secs" --time_based
	--cpus_allowed="$pin")
# The same, waiting for 32 completions per call: fewer system calls, but
# latency stamped per batch (see Documentation/run.rst, "Latency").
bq32_job=("${bq_job[@]}" --iodepth_batch_complete_min=32)
# t/io_uring, fixed files and buffers, no polling, with its statistics.
tio_job=(taskset -c "$pin" "$tio" -d32 -s32 -b4096 -p0 -F1 -B1 -n1 -t1 -r"$secs")

echo "4 KiB random reads, QD32, 1 thread on CPU $pin, ${secs}s, $pairs pairs on $dev (4 GiB sparse, direct I/O on)"
printf '%-8s %4s %10s %8s %14s\n' tool pair IOPS cpu-s "I/Os/cpu-s"
tools="fio bq bq32"
[ -n "$tio" ] && tools="$tools tio1 tio32"
for tool in $tools; do : >"$tmp/$tool.txt"; done
for i in $(seq 1 "$pairs"); do
	# Alternate which tool goes first, so neither always gets the warmer cache.
	if [ $((i % 2)) = 1 ]; then order=$tools; else order=$(echo "$tools" | tr ' ' '\n' | tac); fi
	for tool in $order; do
		case $tool in
		fio) read -r iops cpu _ < <(run fio "${fio_job[@]}") ;;
		bq) read -r iops cpu _ < <(run blkqual "${bq_job[@]}") ;;
		bq32) read -r iops cpu _ < <(run blkqual "${bq32_job[@]}") ;;
		tio1) read -r iops cpu _ < <(run tio "${tio_job[@]}" -c1 "$dev") ;;
		tio32) read -r iops cpu _ < <(run tio "${tio_job[@]}" -c32 "$dev") ;;
		esac
		per=$(python3 -c "print(f'{$iops * $secs / $cpu:.0f}')")
		echo "$iops $cpu $per" >>"$tmp/$tool.txt"
		printf '%-8s %4d %10s %8s %14s\n' "$tool" "$i" "$iops" "$cpu" "$per"
	done
done

python3 - "$tmp" "$tio" <<'PY'
import os, statistics, sys
tmp, tio = sys.argv[1:3]
def rows(tool):
    # One per round: IOPS, CPU seconds, I/Os per CPU-second.
    return [list(map(float, l.split())) for l in open(os.path.join(tmp, tool + ".txt"))
            if l.strip()]
def load(tool):
    return [statistics.median(c) for c in zip(*rows(tool))]
f = load("fio")
print(f"median   fio: {f[0]:.0f} IOPS, {f[2]/1e6:.3f}M I/Os per CPU-second")
for name, tool in (("blkqual", "bq"), ("blkqual batch 32", "bq32")):
    b = load(tool)
    print(f"median   {name}: {b[0]:.0f} IOPS, {b[2]/1e6:.3f}M I/Os per CPU-second; "
          f"vs fio: IOPS {b[0]/f[0]:.2f}x, I/Os per CPU-second {b[2]/f[2]:.2f}x")
if tio:
    for what, bq, t in (("every I/O stamped, wait >= 1", "bq", "tio1"),
                        ("stamps per reap of 32", "bq32", "tio32")):
        b, r = load(bq), load(t)
        flag = "-c1" if t == "tio1" else "-c32"
        # Runs of one round share its drift: the median of their ratios is the steadier figure.
        pr = statistics.median(x[2] / y[2] for x, y in zip(rows(bq), rows(t)))
        print(f"median   t/io_uring -t1 -s32 {flag}: {r[0]:.0f} IOPS, {r[2]/1e6:.3f}M I/Os per "
              f"CPU-second; blkqual ({what}) / t/io_uring: {b[2]/r[2]:.2f}x "
              f"(median of the rounds' ratios: {pr:.2f}x)")
PY

# The tool's own overhead: NOP requests, no per-I/O statistics.
read -r iops cpu _ < <(run blkqual "$blkqual" run --no-status -o json --name=nop --ioengine=nop \
	--bs=4k --size=1g --iodepth=128 --gtod_reduce=1 --runtime="$secs" --time_based \
	--cpus_allowed="$pin")
python3 -c "print(f'nop      {$iops/1e6:.2f}M ops/s, {$iops * $secs / $cpu / 1e6:.2f}M ops per CPU-second')"
if [ -n "$tio" ]; then
	# t/io_uring's own NOP rate at the same depth (it wants a file, which NOPs do not touch).
	nop_per=$(python3 -c "print($iops * $secs / $cpu)")
	read -r tiops tcpu _ < <(run tio taskset -c "$pin" "$tio" -N1 -d128 -s32 -c32 -r"$secs" "$dev")
	python3 -c "print(f'nop      t/io_uring -N1: {$tiops/1e6:.2f}M ops/s, {$tiops * $secs / $tcpu / 1e6:.2f}M ops per CPU-second; blkqual / t/io_uring: {$nop_per / ($tiops * $secs / $tcpu):.2f}x')"
fi

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

# Instructions per I/O in blkqual's own code, counted by callgrind, where
# timings on this machine are too noisy: the same job at N and 2N I/Os,
# the difference over N, so that setup and teardown cancel out.
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
	echo "callgrind: valgrind is not installed (make deps installs it): no instruction counts"
	exit 0
fi
# irs NAME IOS ARGS...: instructions of the run's I/O thread (the one that
# ran worker_run(); the largest count is not it: for a short run, the main
# thread's set-up and report outweigh it) for IOS I/Os of 4 KiB.  io_size
# bounds the run as time_based runs are bounded, on the loop's common
# path; number_ios would count on the path of the rarer features.
irs() {
	local name=$1 ios=$2 f t=
	shift 2
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.$name.$ios" \
		"$blkqual" run --no-status -o json --name=cg --io_size=$((ios * 4096)) "$@" \
		>/dev/null 2>"$tmp/cg.err" || { cat "$tmp/cg.err" >&2; exit 1; }
	for f in "$tmp/cg.$name.$ios"-*; do
		grep -q 'worker_run$' "$f" || continue
		# awk reads to the end: an early exit would fail the pipe (pipefail).
		t=$(callgrind_annotate "$f" 2>/dev/null |
			awk '/PROGRAM TOTALS/ && !n++ { gsub(",", "", $1); print $1 }')
		cp "$f" "$tmp/cg.$name.$ios.busiest"
	done
	[ -n "$t" ] || { echo "bench: no I/O thread in callgrind's output" >&2; exit 1; }
	echo "$t"
}
for kind in nop loop; do
	if [ "$kind" = nop ]; then
		n=100000
		args=(--ioengine=nop --rw=randread --bs=4k --size=1g --iodepth=32)
	else
		n=20000
		args=(--filename="$dev" --ioengine=io_uring --rw=randread --bs=4k --iodepth=32
		      --direct=1)
	fi
	a=$(irs "$kind" "$n" "${args[@]}")
	b=$(irs "$kind" $((2 * n)) "${args[@]}")
	python3 -c "print(f'callgrind $kind randread QD32: {($b - $a) / $n:.1f} instructions per I/O ({2 * $n} minus $n I/Os)')"
done
echo "callgrind: the top functions of the nop run's I/O thread ($((2 * 100000)) I/Os), by instructions:"
callgrind_annotate "$tmp/cg.nop.200000.busiest" 2>/dev/null |
	awk '/file:function/ { on = 1; getline; next } on && /^-+$/ { on = 0 }
	     on && NF && n++ < 12 { print "  " $0 }'
