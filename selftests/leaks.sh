#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Each command, run the way a user runs it, under valgrind: a leak
# (definitely or indirectly lost memory) or any other memcheck error fails
# its test.  Everything works on temporary files and captured machines;
# what needs root (loop devices) is skipped without it.  A blkqual built
# with SANITIZE=1 is skipped as a whole: LeakSanitizer checks it instead.

set -u

blkqual=${BLKQUAL:-./blkqual}
src=${BLKQUAL_SRCTREE:-$(cd "$(dirname "$0")/.." && pwd)}
fixtures=$src/selftests/fixtures

echo "TAP version 13"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..0 # SKIP leaks: valgrind not installed (run 'make deps')"
	exit 4
fi
if [ ! -x "$blkqual" ]; then
	echo "1..0 # SKIP leaks: no blkqual at $blkqual"
	exit 4
fi
if ldd "$blkqual" 2>/dev/null | grep -q libasan; then
	echo "1..0 # SKIP leaks: blkqual is built with AddressSanitizer, whose leak check runs instead"
	exit 4
fi

tmp=$(mktemp -d)
loops=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	for l in "${loops[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# 99 is valgrind's: the commands themselves exit 0, 1 or 2.
# shellcheck disable=SC2054 # the commas belong to valgrind's options
vg=(valgrind -q --leak-check=full --show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect --error-exitcode=99
	--trace-children=no --child-silent-after-fork=yes)
n=0
failed=0

# check NAME STATUS ARGS...: blkqual ARGS must exit STATUS, valgrind clean.
check() {
	local name=$1 want=$2 log rc
	shift 2
	n=$((n + 1))
	log=$tmp/log.$n
	"${vg[@]}" "$blkqual" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok $n $name"
		return
	fi
	if [ "$rc" -eq 99 ]; then
		echo "# valgrind: blkqual $*"
		grep '^==[0-9]*==' "$log" | head -n 40 | sed 's/^/# /'
	else
		echo "# blkqual $*: exit status $rc, not $want"
		tail -n 5 "$log" | sed 's/^/# /'
	fi
	echo "not ok $n $name"
	failed=1
}

skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

root_ok=0
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 && [ -e /dev/loop-control ]; then
	root_ok=1
fi

echo "1..24"
cd "$tmp" || exit 1
mkdir -p dir fs rp
truncate -s 64M a b

machine=$fixtures/inventory/two-socket-nvme
roots=(--sysfs-root "$machine/sys" --proc-root "$machine/proc" --dev-root "$machine/dev")
check "list on a captured machine" 0 list "${roots[@]}"
check "list -o json on a captured machine" 0 list -o json "${roots[@]}"
check "info on a captured machine" 0 info "${roots[@]}" nvme2n1
check "info -o json on a captured machine" 0 info -o json "${roots[@]}" nvme2n1
check "guard on a file" 0 guard a
check "run, psync, intervals and JSON" 0 run -o json --output r1.json --interval 200ms \
	--name=x --filename=a --rw=randrw --bs=4k --size=16m --ioengine=psync --runtime=1 \
	--time_based
check "run --repeat, io_uring" 0 run -o json --output r2.json --repeat 2 --name=x \
	--filename=a --rw=randrw --bs=4k --size=16m --ioengine=io_uring --runtime=500ms --time_based
check "run --replay" 0 run -o json --output r3.json --replay r1.json --runtime=500ms
check "run, fio's layouts" 0 run --output-format=json+,terse,normal --output r4.txt \
	--name=x --filename=a --rw=randrw --bs=4k --size=4m --ioengine=psync --numjobs=2 \
	--group_reporting --percentile_list=50:99.9 --lat_percentiles=1
printf '[global]\nfilename=a\nsize=16m\nruntime=300ms\ntime_based\n[r]\nrw=randread\n[w]\nrw=write\nbs=64k\n' >job.fio
check "run, libaio, a job file with two jobs" 0 run --ioengine=libaio job.fio
check "run with a bad size (exit 2)" 2 run --name=x --filename=a --bs=4q
# One run's intervals against two runs: inconclusive (exit 3), never "within noise".
check "compare" 3 compare --force r1.json r2.json
check "compare -o json" 0 compare --force -o json r1.json r3.json
check "compare on a file that is not JSON (exit 2)" 2 compare a r1.json
check "report" 0 report -o r1.html r1.json
check "latency on a directory" 0 latency -c 3 -i 0 dir
check "latency -J on a file" 0 latency -c 3 -i 0 -J a
check "fileio prepare" 0 fileio --file-num=2 --file-total-size=4M prepare
check "fileio run" 0 fileio --file-num=2 --file-total-size=4M --time=1 --file-test-mode=rndrw run
check "fileio cleanup" 0 fileio --file-num=2 --file-total-size=4M cleanup
check "files: a vdbench tree, format and reads" 0 files anchor="$tmp/fs" depth=1 width=2 \
	files=2 size=4k operation=read elapsed=1 interval=1
check "replay: a dbench loadfile" 0 replay -c "$fixtures/replay/small.txt" 1 -D rp -t 1
check "stripe-tune on two files" 0 stripe-tune a,b --chunks 64k,128k --name=x \
	--rw=randread --size=8m --runtime=500ms --ioengine=io_uring

if [ "$root_ok" = 1 ] && l1=$(losetup -f --show a) && loops+=("$l1") &&
	l2=$(losetup -f --show b) && loops+=("$l2"); then
	check "raid plan on two loop devices" 0 raid plan --chunk 64k "$l1" "$l2"
	check "info on a loop device" 0 info "$l1"
else
	skip "raid plan on two loop devices: needs root and loop devices"
	skip "info on a loop device: needs root and loop devices"
fi
exit "$failed"
