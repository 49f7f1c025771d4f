#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio-examples.sh - run every job file of a fio source tree's examples/
# through blkqual and through fio, side by side, on scratch loop devices.
#
# usage: tools/compat/fio-examples.sh [--vm] [-b BLKQUAL] [-f FIO] [-k] [-e NAME]... FIO_SOURCE_TREE
#
# Each example is copied with its targets pointed at scratch (a raw loop
# device for /dev/ paths, a directory on a loop-backed XFS for files) and
# its sizes, runtimes and thread counts capped, so that a whole tree runs
# in minutes.  Both tools run the same copy.  Per file it prints one of
#   ran         blkqual ran it; for jobs that end by size every job's I/Os
#               (reads and writes together: a random mix of one block
#               size splits them differently) and bytes equal fio's
#               ("same as fio"); not compared with randrepeat=0, whose
#               counts fio does not repeat itself
#   differs     blkqual ran it but its counts are not fio's (which job, what)
#   refused     blkqual refused it, with every reason it gave; "fio
#               refuses it too" when fio cannot run the same copy either
#               (an example that expects a file to exist already)
#   failed      blkqual accepted it but the run failed (exit status, why;
#               "fio fails too" when fio fails on the same copy)
# and "in scope" when every engine the file names is one blkqual has.
# Needs root (loop devices, mount).  -k keeps the rewritten copies; -e
# runs only the named examples (foo or foo.fio; repeatable).  Examples
# that read their settings from the environment (xnvme-*.fio) get
# FIO_RW=randread FIO_BS=4k FIO_IODEPTH=1 unless already set.
#
# --vm runs them instead in one boot of the test VM (selftests/vm/vm.sh,
# Documentation/vm-tests.rst), with blkqual, fio and its libraries inside,
# each example's /dev names pointed at the guest's hardware of that kind:
# SCSI disks and sg nodes (scsi_debug), NVMe namespaces and generic nodes,
# zoned devices (a zoned null_blk, a zoned NVMe namespace), two NUMA
# nodes.  tools/compat/fio-examples-guest.sh runs both tools there; the
# verdicts are judged here, by the same code as on the host.  By default
# it runs the examples that need such hardware.  It needs no root (QEMU,
# busybox-static, as for make check-vm); the kernel stays in the VM cache,
# BLKQUAL_GENDIR/vm (build/vm of this tree by default), and nothing else
# outlives the run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
vm=
args=()
for a in "$@"; do
	if [ "$a" = --vm ]; then vm=1; else args+=("$a"); fi
done
set -- "${args[@]}"
blkqual=${BLKQUAL:-$(dirname "$0")/../../blkqual}
fio=fio
keep=
only=
while getopts b:f:ke: opt; do
	case $opt in
	b) blkqual=$OPTARG ;;
	f) fio=$OPTARG ;;
	k) keep=1 ;;
	e) only="$only ${OPTARG%.fio}.fio " ;;
	*) echo "usage: $0 [--vm] [-b BLKQUAL] [-f FIO] [-k] [-e NAME]... FIO_SOURCE_TREE" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -d "$1/examples" ]; then
	echo "$0: give a fio source tree (a directory with examples/)" >&2
	exit 2
fi
tree=$1
[ -n "$vm" ] || [ "$(id -u)" = 0 ] || { echo "$0: needs root (loop devices, mount)" >&2; exit 1; }
command -v "$fio" >/dev/null || { echo "$0: $fio not found" >&2; exit 1; }
fio=$(command -v "$fio")
[ -x "$blkqual" ] || { echo "$0: $blkqual is not executable" >&2; exit 1; }
blkqual=$(realpath "$blkqual")
fio_version=$("$fio" --version 2>/dev/null || echo fio)
export FIO_RW=${FIO_RW:-randread} FIO_BS=${FIO_BS:-4k} FIO_IODEPTH=${FIO_IODEPTH:-1}

# The engines blkqual has, by fio's names; a file naming no engine gets
# fio's default (psync).
our_engines=" io_uring io_uring_cmd libaio psync sync pvsync pvsync2 null sg "

work=$(mktemp -d /tmp/blkqual-fio-examples.XXXXXX)
rawdev=
fsdev=
cleanup()
{
	# A job's clone that outlived its timeout still holds the scratch mount.
	pkill -KILL -f "$work/jobs/" 2>/dev/null && sleep 1
	mountpoint -q "$work/mnt" && umount "$work/mnt"
	[ -n "$fsdev" ] && losetup -d "$fsdev"
	[ -n "$rawdev" ] && losetup -d "$rawdev"
	if [ -n "$keep" ]; then
		echo "rewritten job files kept in $work/jobs"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/jobs" "$work/out"
if [ -n "$vm" ]; then
	# The guest's names: files in a tmpfs directory, devices by kind.
	rundir=/tmp/run
	guestjobs=/tmp/jobs/
else
	truncate -s 1g "$work/raw.img"
	# Room for examples with many clients, each laying out a capped file.
	truncate -s 8g "$work/fs.img"
	rawdev=$(losetup -f --show "$work/raw.img") || exit 1
	fsdev=$(losetup -f --show "$work/fs.img") || exit 1
	mkfs.xfs -q "$fsdev" || exit 1
	mkdir -p "$work/mnt"
	mount "$fsdev" "$work/mnt" || exit 1
	rundir=$work/mnt/run
	guestjobs=$work/jobs/
fi

# Point targets at scratch and cap what would take long or fill the disk.
rewrite()
{
	# A rate-capped example with no runtime would read its capped size
	# at a few KiB/s: bound it as the runtime cap bounds the others (a
	# [global] section only reaches the jobs after it).
	if grep -Eq '^[ \t]*(rate|rate_iops)[ \t]*=' "$1" &&
	   ! grep -Eq '^[ \t]*(runtime|timeout)[ \t]*=' "$1"; then
		printf '[global]\nruntime=2\n'
	fi
	# In the VM a /dev name becomes a placeholder for its kind of hardware
	# (zoned when the file asks for zonemode=zbd), which the guest fills in.
	# A job naming its zone size gets one whole zone of the zoned null_blk
	# (256 MiB, the examples' zone size), as fio wants at least one zone;
	# the zoned NVMe namespace has 64 MiB zones, the usual cap.
	# Data placement (fdp=1) needs the FDP namespace; protection
	# information (pi_act, pi_chk, md_per_io_size) a PI one: extended
	# LBAs (4096+64 in each block), or a separate metadata buffer when
	# the job gives its size.
	local zoned='' zonecap='' kind=''
	if [ -n "$vm" ] && grep -Eq '^[ \t]*zonemode[ \t]*=[ \t]*zbd' "$1"; then
		zoned=1
		grep -Eq '^[ \t]*zonesize[ \t]*=' "$1" && zonecap=1
	fi
	if grep -Eq '^[ \t]*fdp[ \t]*=[ \t]*1' "$1"; then
		kind=FDP_
	elif grep -Eq '^[ \t]*md_per_io_size[ \t]*=' "$1"; then
		kind=PISB_
	elif grep -Eq '^[ \t]*pi_(act|chk)[ \t]*=' "$1"; then
		kind=PIEXT_
	fi
	awk -v dev="$rawdev" -v vm="$vm" -v zoned="$zoned" -v zonecap="$zonecap" -v dir="$rundir" \
	    -v kind="$kind" '
	function guest_dev(v) {
		if (v ~ /^\/dev\/ng/) return zoned ? "@BQ_ZNG@" : "@BQ_" kind "NG@"
		if (v ~ /^\/dev\/nvme/) return zoned ? "@BQ_ZNVME@" : "@BQ_NVME@"
		if (v ~ /^\/dev\/sg/) return "@BQ_SG@"
		if (v ~ /^\/dev\/bsg\//) return "@BQ_BSG@"
		return zoned ? "@BQ_ZBD@" : "@BQ_SD@"
	}
	function cap_size(v, lim,    n, u, m) {
		if (zonecap && lim == 67108864) { lim = 268435456; capped = "256m" } else capped = "64m"

		if (v ~ /%$/ || v ~ /-/ || v ~ /\$/) return v
		n = v; sub(/[^0-9.].*$/, "", n); u = tolower(substr(v, length(n) + 1))
		sub(/i?b$/, "", u)
		m = (u == "k") ? 1024 : (u == "m") ? 1048576 : (u == "g") ? 1073741824 : \
		    (u == "t") ? 1099511627776 : (u == "") ? 1 : 0
		if (m == 0 || n * m > lim) return capped
		return v
	}
	function cap_time(v,    n, u, s) {
		n = v; sub(/[^0-9.].*$/, "", n); u = tolower(substr(v, length(n) + 1))
		s = (u == "" || u == "s") ? n + 0 : (u == "m") ? n * 60 : (u == "h") ? n * 3600 : \
		    (u == "ms") ? n / 1000 : (u == "us") ? n / 1e6 : 2
		return s > 2 ? "2" : v
	}
	/^[ \t]*[a-z_]+[ \t]*=/ {
		line = $0; sub(/^[ \t]*/, "", line)
		k = line; sub(/[ \t]*=.*/, "", k)
		v = line; sub(/^[^=]*=[ \t]*/, "", v); sub(/[ \t]+$/, "", v)
		# A comment after the value ("datafile.tmp ; or /dev/sda") is not part of it.
		sub(/[ \t]+[;#].*$/, "", v)
		if (k == "filename") {
			if (v ~ /^\/dev\//) v = vm ? guest_dev(v) : dev
			else if (v ~ /\//) { n = split(v, p, "/"); v = dir "/" p[n] }
		} else if (k == "directory") {
			v = dir
		} else if (k == "size" || k == "filesize" || k == "io_size" || k == "io_limit") {
			v = cap_size(v, 67108864)
		} else if (k == "offset" || k == "offset_increment") {
			# Past the scratch device: keep the shape, not the distance.
			v = cap_size(v, 16777216)
			if (v == capped) v = (k == "offset") ? "0" : "16m"
		} else if (k == "runtime" || k == "timeout") {
			v = cap_time(v)
		} else if (k == "ramp_time" || k == "startdelay") {
			v = "0"
		} else if (k == "numjobs" && v + 0 > 4) {
			v = "4"
		} else if ((k == "nrfiles" || k == "nr_files") && v + 0 > 16) {
			v = "16"
		} else if (k == "loops" && v + 0 > 2) {
			v = "2"
		} else if (k == "iodepth" && v + 0 > 128) {
			v = "128"
		}
		print k "=" v
		# Filling the 8 GiB scratch filesystem would take minutes: fill 64 MiB
		# of it (size= caps fill_device in fio as in blkqual).
		if ((k == "fill_device" || k == "fill_fs") && v != "0") print "size=64m"
		next
	}
	{ print }' "$1"
}

# Sum reads and writes per job name from a fio or blkqual JSON document.
counts()
{
	python3 - "$1" "$2" <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
try:
    with open(path) as f:
        text = f.read()
    # fio may print notes before its JSON document.
    doc = json.loads(text[text.index('{'):])
except (OSError, ValueError):
    sys.exit(1)
out = {}
for j in doc.get("jobs", []):
    name = j.get("jobname" if kind == "fio" else "name", "?")
    if kind == "fio":
        ios = j["read"]["total_ios"] + j["write"]["total_ios"]
        nbytes = j["read"]["io_bytes"] + j["write"]["io_bytes"]
    else:
        t = j.get("total", {})
        ios = t.get("read", {}).get("ios", 0) + t.get("write", {}).get("ios", 0)
        nbytes = t.get("read", {}).get("bytes", 0) + t.get("write", {}).get("bytes", 0)
        # fio counts a verify phase's reads as the job's reads.
        phase = (j.get("verify") or {}).get("phase") or {}
        ios += phase.get("read", {}).get("ios", 0)
        nbytes += phase.get("read", {}).get("bytes", 0)
    a = out.setdefault(name, [0, 0])
    a[0] += ios
    a[1] += nbytes
for name in sorted(out):
    print("%s %d %d" % (name, out[name][0], out[name][1]))
PY
}

# The tools' runs: here on scratch, or what the guest recorded for the
# same copy (the guest runs both tools on every copy, in this order).
fresh_rundir()
{
	[ -n "$vm" ] && return 0
	rm -rf "$rundir"; mkdir -p "$rundir"
}

# Run blkqual on job $1 into out/bq.json and out/bq.err; its exit status.
run_blkqual()
{
	if [ -n "$vm" ]; then
		local r=$work/res/${1##*/}
		[ -f "$r/bq.rc" ] || { echo "the guest did not run it" >"$work/out/bq.err"; return 125; }
		cp "$r/bq.err" "$work/out/bq.err"
		cp "$r/bq.json" "$work/out/bq.json" 2>/dev/null || : >"$work/out/bq.json"
		return "$(cat "$r/bq.rc")"
	fi
	fresh_rundir
	(cd "$rundir" && timeout -k 10 -s INT 60 "$blkqual" run -o json --output "$work/out/bq.json" \
		"$1" >/dev/null 2>"$work/out/bq.err")
}

# Run fio on job $1 into out/fio.json and out/fio.err; its exit status.
run_fio()
{
	if [ -n "$vm" ]; then
		local r=$work/res/${1##*/}
		[ -f "$r/fio.rc" ] || { echo "the guest did not run it" >"$work/out/fio.err"; return 125; }
		cp "$r/fio.err" "$work/out/fio.err"
		cp "$r/fio.json" "$work/out/fio.json" 2>/dev/null || : >"$work/out/fio.json"
		return "$(cat "$r/fio.rc")"
	fi
	fresh_rundir
	{ (cd "$rundir" && timeout -k 10 -s INT 60 "$fio" --output-format=json \
		--output="$work/out/fio.json" "$1" >/dev/null 2>"$work/out/fio.err"); } 2>/dev/null
}

# fio's first message: on its standard error, or printed into its output
# file before the JSON, or else the first job's error.
fio_msg()
{
	grep -m 1 . "$work/out/fio.err" 2>/dev/null && return
	python3 - "$work/out/fio.json" <<'PY'
import json, os, sys
try:
    text = open(sys.argv[1]).read()
    head, brace, rest = text.partition('{')
    lines = [l for l in head.splitlines() if l.strip()]
    if lines:
        print(lines[0])
        sys.exit(0)
    for j in json.loads(brace + rest).get("jobs", []):
        if j.get("error"):
            print("%s: error %d (%s)" % (j.get("jobname"), j["error"], os.strerror(j["error"])))
            break
except (OSError, ValueError):
    pass
PY
}

# False for a job file with randrepeat=0 and no randseed: fio seeds it from
# the system's generator, so its own counts differ from run to run.
repeatable()
{
	grep -Eq '^[ \t]*randrepeat[ \t]*=[ \t]*(0|false)[ \t]*$' "$1" || return 0
	grep -Eq '^[ \t]*randseed[ \t]*=' "$1"
}

# True when fio cannot run the same copy either: it exits non-zero or a
# job of its JSON reports an error.
fio_refuses()
{
	run_fio "$1" || return 0
	python3 - "$work/out/fio.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
try:
    doc = json.loads(text[text.index('{'):])
except ValueError:
    sys.exit(0)
sys.exit(0 if any(j.get("error") for j in doc.get("jobs", [])) else 1)
PY
}

# What the VM mode runs unless told: the examples that need hardware of
# the guest's (SCSI or NVMe passthrough, zoned devices, a second NUMA node).
needs_vm()
{
	# xnvme-*.fio name their NVMe device on fio's command line only.
	case ${1##*/} in xnvme-*) return 0 ;; esac
	grep -Eq '^[ \t]*(ioengine[ \t]*=[ \t]*(sg|io_uring_cmd|xnvme|libzbc)|zonemode[ \t]*=[ \t]*zbd|numa_(cpu_nodes|mem_policy)[ \t]*=[^;#]*[1-9]|filename[ \t]*=[ \t]*/dev/(sg|bsg|ng))' "$1"
}

examples=()
for f in "$tree"/examples/*.fio; do
	base=$(basename "$f")
	if [ -n "$only" ]; then
		[[ "$only" == *" $base "* ]] || continue
	elif [ -n "$vm" ]; then
		needs_vm "$f" || continue
	fi
	examples+=("$f")
	rewrite "$f" > "$work/jobs/$base"
done
[ "${#examples[@]}" -gt 0 ] || { echo "$0: no example selected" >&2; exit 2; }

# One boot runs every copy; the guest's results come back as an archive
# on its console, between markers.
if [ -n "$vm" ]; then
	mkdir -p "$work/payload/jobs" "$work/res"
	cp "$work"/jobs/*.fio "$work/payload/jobs/"
	cp "$here/fio-examples-guest.sh" "$work/fio_examples_test"
	chmod 0755 "$work/fio_examples_test"
	# The zoned passthrough examples use vm.sh's ZNS namespace (BQNVMEZNS).
	BLKQUAL=$blkqual BLKQUAL_VM_BINARIES=$fio BLKQUAL_VM_PAYLOAD=$work/payload \
	BLKQUAL_VM_TIMEOUT=${BLKQUAL_VM_TIMEOUT:-$((120 + 130 * ${#examples[@]}))} \
		"$here/../../selftests/vm/vm.sh" "$work/fio_examples_test" >"$work/vm.out" 2>&1
	rc=$?
	grep '^# guest devices:' "$work/vm.out" >&2
	if ! sed -n '/^BQ-FIO-EXAMPLES-BEGIN/,/^BQ-FIO-EXAMPLES-END/p' "$work/vm.out" |
	     sed '1d;$d' | base64 -d 2>/dev/null | tar xzf - -C "$work/res" 2>/dev/null; then
		echo "$0: no results from the VM (vm.sh exit $rc):" >&2
		tail -n 40 "$work/vm.out" >&2
		exit 1
	fi
fi

n=0; ran=0; same=0; differs=0; refused=0; failed=0; both=0
scope=0; scope_ran=0; scope_both=0
for f in "${examples[@]}"; do
	base=$(basename "$f")
	job="$work/jobs/$base"
	n=$((n + 1))

	engines=$(sed -n 's/^[ \t]*ioengine[ \t]*=[ \t]*\([^ \t]*\).*/\1/p' "$f" | sort -u)
	inscope=1
	for e in ${engines:-psync}; do
		case "$our_engines" in *" $e "*) ;; *) inscope= ;; esac
	done
	tag=
	[ -n "$inscope" ] && { scope=$((scope + 1)); tag=" [in scope]"; }

	run_blkqual "$job"
	rc=$?
	case $rc in
	0) ;;
	2)
		refused=$((refused + 1))
		reasons=$(sed "s|^[a-z]*: ||; s|$guestjobs||" "$work/out/bq.err" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		# An engine fio would need a network or a library for is not tried.
		if [ -n "$inscope" ] && fio_refuses "$job"; then
			both=$((both + 1))
			[ -n "$inscope" ] && scope_both=$((scope_both + 1))
			echo "$base: refused$tag, $fio_version refuses it too ($(fio_msg)): $reasons"
		else
			echo "$base: refused$tag: $reasons"
		fi
		continue ;;
	*)
		failed=$((failed + 1))
		why=$(head -n 1 "$work/out/bq.err")
		if [ -n "$inscope" ] && fio_refuses "$job"; then
			echo "$base: failed$tag (exit $rc), $fio_version fails too ($(fio_msg)): $why"
		else
			echo "$base: failed$tag (exit $rc): $why"
		fi
		continue ;;
	esac
	ran=$((ran + 1))
	[ -n "$inscope" ] && scope_ran=$((scope_ran + 1))

	# Counts are comparable only when both tools end by size.
	if grep -Eq '^[ \t]*(time_based|runtime|timeout|exitall|rate|rate_iops|steadystate|ss|max_latency|latency_target)[ \t]*(=|$)' "$job"; then
		echo "$base: ran$tag (ends by time: counts not compared)"
		continue
	fi
	if ! run_fio "$job"; then
		echo "$base: ran$tag (fio failed on it: not compared)"
		continue
	fi
	counts fio "$work/out/fio.json" > "$work/out/fio.counts" || true
	counts blkqual "$work/out/bq.json" > "$work/out/bq.counts" || true
	if cmp -s "$work/out/fio.counts" "$work/out/bq.counts"; then
		same=$((same + 1))
		echo "$base: ran$tag, same as fio ($(tr '\n' ';' < "$work/out/bq.counts" | sed 's/;$//'))"
	elif ! repeatable "$job"; then
		# randrepeat=0 without randseed: fio seeds from the system, its counts vary run to run.
		echo "$base: ran$tag, randrepeat=0: fio's own counts are not repeatable (not compared): fio {$(tr '\n' ';' < "$work/out/fio.counts")} blkqual {$(tr '\n' ';' < "$work/out/bq.counts")}"
	else
		differs=$((differs + 1))
		echo "$base: differs$tag: fio {$(tr '\n' ';' < "$work/out/fio.counts")} blkqual {$(tr '\n' ';' < "$work/out/bq.counts")} (job I/Os bytes)"
	fi
done

echo "$n files: $ran ran ($same same as fio, $differs differ), $refused refused ($both refused by fio too), $failed failed; in scope (engines blkqual has): $scope_ran of $scope ran, $scope_both refused by both"
