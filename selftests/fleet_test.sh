#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkqual fleet and tools/fleet/playbook.yml, as TAP.
#
# First blkqual fleet on hand-made results (selftests/fixtures/fleet/):
# outliers, the minimum difference, MAD 0, failed criteria, notes of
# devices without a result, bad input, the HTML page.
#
# Then the playbook for real against three test hosts made here: each a
# network namespace on its own address of 10.213.7.0/24 (one /30 per host,
# nothing routed off this machine), its own sshd started with a host key
# and client key made for the test, its own loop device.  host3's device
# is throttled (cgroup v1 blkio, or rate_iops where that is missing), so
# blkqual fleet must flag exactly that device; host2 also names a device
# that does not exist, which must fail host2 without losing its other
# result or anyone else's.  Everything is torn down on every exit path.

set -u

srctree=${BLKQUAL_SRCTREE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srctree/selftests/helpers/tap.sh"
fixtures=$srctree/selftests/fixtures/fleet

tmp=$(mktemp -d /tmp/bqfleet-test.XXXXXX)
hosts=3
ns_prefix=bqf$$
netns=()
loops=()
cgroup=
made_run_sshd=false

teardown() {
	local ns pid dev
	for ns in "${netns[@]}"; do
		# Every process of the test host: sshd and its sessions.
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill "$pid" 2>/dev/null
		done
	done
	sleep 0.2
	for ns in "${netns[@]}"; do
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$pid" 2>/dev/null
		done
		ip netns delete "$ns" 2>/dev/null
	done
	netns=()
	for dev in "${loops[@]}"; do
		losetup -d "$dev" 2>/dev/null
	done
	loops=()
	if [ -n "$cgroup" ]; then
		rmdir "$cgroup" 2>/dev/null
		cgroup=
	fi
	if $made_run_sshd; then
		rmdir /run/sshd 2>/dev/null
		made_run_sshd=false
	fi
	rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "TAP version 13"
echo "1..15"

# ---- blkqual fleet on fixtures ------------------------------------------

out=$tmp/out
"$blkqual" fleet -o json "$fixtures/run-outlier" >"$out.json" 2>"$out.err"
rc=$?
got=$(json "$out.json" "sorted(set(o['device'] for o in d['outliers']))" 2>&1)
z=$(json "$out.json" "[round(v['z'], 1) for g in d['groups'] for m in g['metrics'] if m['name'] == 'rand4k: read IOPS' for v in m['values'] if v['outlier']]" 2>&1)
if [ "$rc" = 1 ] && [ "$got" = "['hostC/nvme0n1']" ] && [ "$z" = "[-23.9]" ]; then
	ok "fixtures: a device 30% slower than its four twins is the one outlier (z -23.9)"
else
	echo "rc $rc outliers $got z $z" | note
	not_ok "fixtures: a device 30% slower than its four twins is the one outlier (z -23.9)"
fi

"$blkqual" fleet "$fixtures/run-outlier" >"$out.txt" 2>&1
if grep -q "fewer than 3 devices" "$out.txt" &&
	[ "$(json "$out.json" "[g['judged'] for g in d['groups']]")" = "[True, False]" ]; then
	ok "fixtures: a group of one device is shown, not judged"
else
	note <"$out.txt"
	not_ok "fixtures: a group of one device is shown, not judged"
fi

"$blkqual" fleet "$fixtures/run-quiet" >"$out.txt" 2>&1
rc1=$?
"$blkqual" fleet --min-diff 5 "$fixtures/run-quiet" >/dev/null 2>&1
rc2=$?
"$blkqual" fleet --threshold 100 "$fixtures/run-outlier/hostA" "$fixtures/run-outlier/hostB" \
	"$fixtures/run-outlier/hostC/nvme0n1.json" >/dev/null 2>&1
rc3=$?
if [ "$rc1" = 0 ] && [ "$rc2" = 1 ] && [ "$rc3" = 0 ]; then
	ok "fixtures: 6% off a tight group is no outlier at --min-diff 10, one at 5; --threshold 100 none"
else
	echo "rc $rc1 $rc2 $rc3" | note
	not_ok "fixtures: 6% off a tight group is no outlier at --min-diff 10, one at 5; --threshold 100 none"
fi

"$blkqual" fleet -o json "$fixtures/mad-zero" >"$out.json" 2>&1
rc=$?
got=$(json "$out.json" "[(o['device'], o['metric'], o['z'], o['side']) for o in d['outliers']][0]" 2>&1)
if [ "$rc" = 1 ] && [ "$got" = "('h3/sdb', 'rand4k: read IOPS', None, 'better')" ]; then
	ok "fixtures: two devices agreeing exactly (MAD 0) make the third an outlier, z null"
else
	echo "rc $rc $got" | note
	not_ok "fixtures: two devices agreeing exactly (MAD 0) make the third an outlier, z null"
fi

"$blkqual" fleet -o json "$fixtures/qualify" >"$out.json" 2>&1
rc=$?
got=$(json "$out.json" "(len(d['outliers']), [(x['id'], x['result'], len(x['failures'])) for x in d['devices'] if x['failures']])" 2>&1)
if [ "$rc" = 1 ] && [ "$got" = "(0, [('hostB/sda', 'qualify', 1), ('hostD/sdb', 'missing', 1)])" ] &&
	"$blkqual" fleet "$fixtures/qualify" 2>&1 | grep -q 'hostB/sda: criterion "randread 4k qd1 p99.99 <= 5 ms" failed: measured 7.20ms'; then
	ok "fixtures: a failed criterion and a device without a result are failures"
else
	echo "rc $rc $got" | note
	not_ok "fixtures: a failed criterion and a device without a result are failures"
fi

mkdir -p "$tmp/empty"
bad=0
for args in "$fixtures/bad-json" "$fixtures/not-result" "$tmp/empty" "--threshold=x $fixtures/qualify" \
	"--metric= $fixtures/qualify" "$tmp/nonexistent"; do
	# shellcheck disable=SC2086 # each case is a few words
	"$blkqual" fleet $args >"$out.txt" 2>"$out.err"
	rc=$?
	if [ "$rc" != 2 ] || [ "$(wc -l <"$out.err")" != 1 ] || [ -s "$out.txt" ]; then
		echo "fleet $args: rc $rc" | note
		note <"$out.err"
		bad=1
	fi
done
grep -q 'bad-json/hostA/sda.json:4: ' <("$blkqual" fleet "$fixtures/bad-json" 2>&1) || bad=1
check $bad "fixtures: bad input is one line on stderr naming file:line, exit 2, nothing on stdout"

"$blkqual" fleet --html "$tmp/fleet.html" "$fixtures/run-outlier" >/dev/null 2>&1
"$python" "$srctree/selftests/helpers/html_check.py" "$tmp/fleet.html" >"$out.txt" 2>&1
if grep -qx wellformed "$out.txt" && grep -qx "svg 8" "$out.txt" && grep -qx "external 0" "$out.txt"; then
	ok "fixtures: --html is one well-formed page, a plot per group and metric, nothing external"
else
	note <"$out.txt"
	not_ok "fixtures: --html is one well-formed page, a plot per group and metric, nothing external"
fi

if command -v ansible-inventory >/dev/null 2>&1; then
	ansible-inventory -i "$srctree/tools/fleet/inventory.example.ini" --list >"$out.json" 2>"$out.err"
	got=$(json "$out.json" "d['_meta']['hostvars']['rack7-03']['blkqual_force_destroy']" 2>&1)
	if [ "$got" = "['/dev/nvme1n1']" ]; then
		ok "inventory.example.ini parses, per-host device lists as lists"
	else
		echo "$got" | note
		note <"$out.err"
		not_ok "inventory.example.ini parses, per-host device lists as lists"
	fi
else
	skip "inventory.example.ini: ansible-inventory not installed (make deps)"
fi

# ---- the playbook against three test hosts ------------------------------

need=""
[ "$(id -u)" = 0 ] || need="root"
for prog in ansible-playbook /usr/sbin/sshd ssh ssh-keygen ip losetup; do
	command -v "$prog" >/dev/null 2>&1 || need="$need${need:+, }$prog"
done
if [ -z "$need" ] && ip -o addr show | grep -q ' 10\.213\.7\.'; then
	need="10.213.7.0/24 free (an interface already uses it)"
fi
if [ -n "$need" ]; then
	for t in "playbook runs on every host, one host's missing device fails only that host" \
		"results fetched to results/HOST/DEVICE.json, a note for the missing device" \
		"blkqual fleet flags exactly the throttled host's device" \
		"the playbook prints the fleet summary and reports the findings" \
		"the work directories are removed from the hosts" \
		"qualify --profile quick across the hosts (BLKQUAL_FLEET_QUALIFY=1)" \
		"teardown leaves no namespace, loop device or sshd"; do
		skip "$t: needs $need"
	done
	exit "$failed"
fi

start=$(date +%s)
setup_log=$tmp/setup.log
setup() {
	local i ns addr_host addr_ns img mm
	ssh-keygen -q -t ed25519 -N '' -C bqfleet-test -f "$tmp/client_key" || return 1
	cp "$tmp/client_key.pub" "$tmp/authorized_keys"
	if [ ! -d /run/sshd ]; then
		mkdir -m 0755 /run/sshd && made_run_sshd=true
	fi
	# cgroup v1 blkio throttles host3's device below the block layer,
	# where the job options cannot see it: the drive is just slow.
	if [ -f /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
		cgroup=/sys/fs/cgroup/blkio/$ns_prefix
		mkdir "$cgroup" || cgroup=
	fi
	for i in $(seq 1 "$hosts"); do
		ns=${ns_prefix}h$i
		addr_host=10.213.7.$((i * 4 - 3))
		addr_ns=10.213.7.$((i * 4 - 2))
		ip netns add "$ns" || return 1
		netns+=("$ns")
		ip link add "${ns_prefix}v$i" type veth peer name eth0 netns "$ns" || return 1
		ip addr add "$addr_host/30" dev "${ns_prefix}v$i" || return 1
		ip link set "${ns_prefix}v$i" up || return 1
		ip -n "$ns" addr add "$addr_ns/30" dev eth0 || return 1
		ip -n "$ns" link set eth0 up || return 1
		ip -n "$ns" link set lo up || return 1
		img=$tmp/host$i.img
		truncate -s 64M "$img" || return 1
		loops[i]=$(losetup -f --show "$img") || return 1
		ssh-keygen -q -t ed25519 -N '' -C "bqfleet host$i" -f "$tmp/hostkey$i" || return 1
		cat >"$tmp/sshd$i.conf" <<-EOF
			ListenAddress $addr_ns
			HostKey $tmp/hostkey$i
			PidFile $tmp/sshd$i.pid
			AuthorizedKeysFile $tmp/authorized_keys
			PermitRootLogin prohibit-password
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			UsePAM no
			StrictModes no
			Subsystem sftp internal-sftp
			LogLevel ERROR
		EOF
		# In the foreground of a background job: the test owns it, and
		# teardown ends it with everything else in the namespace.
		if [ "$i" = "$hosts" ] && [ -n "$cgroup" ]; then
			mm=$(lsblk -ndo MAJ:MIN "${loops[i]}" | tr -d ' ')
			echo "$mm 200" >"$cgroup/blkio.throttle.read_iops_device" || return 1
			echo "$mm 200" >"$cgroup/blkio.throttle.write_iops_device" || return 1
			# sshd and every session it forks live in the throttled cgroup.
			sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cgroup" \
				ip netns exec "$ns" /usr/sbin/sshd -D -f "$tmp/sshd$i.conf" \
				-E "$tmp/sshd$i.log" &
		else
			ip netns exec "$ns" /usr/sbin/sshd -D -f "$tmp/sshd$i.conf" -E "$tmp/sshd$i.log" &
		fi
	done
	# Up when each answers on port 22.
	for i in $(seq 1 "$hosts"); do
		for _ in $(seq 1 50); do
			timeout 1 bash -c "echo >/dev/tcp/10.213.7.$((i * 4 - 2))/22" 2>/dev/null && break
			sleep 0.1
		done
		timeout 1 bash -c "echo >/dev/tcp/10.213.7.$((i * 4 - 2))/22" || return 1
	done
}
if ! setup >"$setup_log" 2>&1; then
	note <"$setup_log"
	for t in "playbook runs on every host, one host's missing device fails only that host" \
		"results fetched to results/HOST/DEVICE.json, a note for the missing device" \
		"blkqual fleet flags exactly the throttled host's device" \
		"the playbook prints the fleet summary and reports the findings" \
		"the work directories are removed from the hosts" \
		"qualify --profile quick across the hosts (BLKQUAL_FLEET_QUALIFY=1)"; do
		not_ok "$t: the test hosts could not be set up"
	done
	teardown
	trap - EXIT
	if ip netns list | grep -q "^$ns_prefix"; then
		not_ok "teardown leaves no namespace, loop device or sshd"
	else
		ok "teardown leaves no namespace, loop device or sshd"
	fi
	exit 1
fi

throttle="cgroup v1 blkio, 200 read and 200 write IOPS"
host3_args=
if [ -z "$cgroup" ]; then
	throttle="rate_iops=200"
	host3_args='        blkqual_run_args: ["--name=fleet", "--rw=randread", "--bs=4k", "--iodepth=4", "--direct=1", "--runtime=2", "--time_based", "--rate_iops=200"]'
fi
echo "# test hosts up in $(($(date +%s) - start)) s; host3 throttled by $throttle"

# Every host runs the same fixed-rate job: on a small busy machine that
# keeps the twins alike, so the throttled device stands out on IOPS as
# well as on latency (a low IOPS outlier needs twins within ~19% of each
# other to reach |z| > 3.5 with three devices).
inventory=$tmp/inventory.yml
{
	echo "blkqual:"
	echo "  hosts:"
	for i in $(seq 1 "$hosts"); do
		devs="\"${loops[i]}\""
		[ "$i" = 2 ] && devs="$devs, \"/dev/bqfleet-no-such-device\""
		echo "    host$i:"
		echo "      ansible_host: 10.213.7.$((i * 4 - 2))"
		echo "      blkqual_devices: [$devs]"
		echo "      blkqual_remote_dir: $tmp/host$i"
		[ "$i" = "$hosts" ] && [ -n "$host3_args" ] && echo "$host3_args"
	done
	cat <<-EOF
		  vars:
		    ansible_user: root
		    ansible_ssh_private_key_file: $tmp/client_key
		    ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10
		    ansible_python_interpreter: /usr/bin/python3
		    blkqual_command: run
		    blkqual_run_args: ["--name=fleet", "--rw=randread", "--bs=4k", "--iodepth=4", "--direct=1", "--runtime=2", "--time_based", "--rate_iops=1000"]
		    blkqual_install: copy
		    blkqual_binary: $blkqual
		    blkqual_install_packages: false
		    blkqual_poll: 1
		    blkqual_results_dir: $tmp/results
	EOF
} >"$inventory"

# Ansible's own state stays in the temp dir; no ansible.cfg of the caller's.
: >"$tmp/ansible.cfg"
export ANSIBLE_CONFIG=$tmp/ansible.cfg ANSIBLE_HOME=$tmp/ansible-home
export ANSIBLE_LOCAL_TEMP=$tmp/ansible-local ANSIBLE_REMOTE_TEMP=$tmp/ansible-remote
export ANSIBLE_ASYNC_DIR=$tmp/ansible-async ANSIBLE_PIPELINING=true ANSIBLE_NOCOLOR=1
export ANSIBLE_SSH_ARGS="-o ControlMaster=auto -o ControlPersist=60s"
export ANSIBLE_SSH_CONTROL_PATH_DIR=$tmp/cp ANSIBLE_RETRY_FILES_ENABLED=false
export ANSIBLE_HOST_KEY_CHECKING=false ANSIBLE_FORKS=5

play_start=$(date +%s)
(cd "$tmp" && timeout 300 ansible-playbook -i "$inventory" "$srctree/tools/fleet/playbook.yml") \
	>"$tmp/play.log" 2>&1
play_rc=$?
echo "# ansible-playbook exited $play_rc after $(($(date +%s) - play_start)) s"

recap=$(sed -n '/PLAY RECAP/,$p' "$tmp/play.log")
if [ "$play_rc" != 0 ] && echo "$recap" | grep -Eq '^host1 .*failed=0' &&
	echo "$recap" | grep -Eq '^host2 .*failed=1' && echo "$recap" | grep -Eq '^host3 .*failed=0'; then
	ok "playbook runs on every host, one host's missing device fails only that host"
else
	note <"$tmp/play.log"
	not_ok "playbook runs on every host, one host's missing device fails only that host"
fi

res=$tmp/results
base() { basename "$1"; }
if [ -s "$res/host1/$(base "${loops[1]}").json" ] && [ -s "$res/host2/$(base "${loops[2]}").json" ] &&
	[ -s "$res/host3/$(base "${loops[3]}").json" ] &&
	grep -qi 'no such file' "$res/host2/bqfleet-no-such-device.failed" 2>/dev/null; then
	ok "results fetched to results/HOST/DEVICE.json, a note for the missing device"
else
	find "$res" -type f | note
	not_ok "results fetched to results/HOST/DEVICE.json, a note for the missing device"
fi

"$blkqual" fleet -o json "$res" >"$out.json" 2>"$out.err"
rc=$?
"$blkqual" fleet "$res" >"$out.txt" 2>&1
want="host3/$(base "${loops[3]}")"
got=$(json "$out.json" "sorted(set(o['device'] for o in d['outliers']))" 2>&1)
zs=$(json "$out.json" "', '.join('%s %s z %s' % (o['metric'], o['device'], 'inf' if o['z'] is None else round(o['z'], 1)) for o in d['outliers'])" 2>&1)
failures=$(json "$out.json" "[x['id'] for x in d['devices'] if x['failures']]" 2>&1)
iops=$(json "$out.json" "[o['side'] for o in d['outliers'] if o['metric'] == 'fleet: read IOPS']" 2>&1)
if [ "$rc" = 1 ] && [ "$got" = "['$want']" ] && [ "$iops" = "['worse']" ] &&
	[ "$failures" = "['host2/bqfleet-no-such-device']" ]; then
	ok "blkqual fleet flags exactly the throttled host's device"
	echo "# $zs" | fold -w 150 | sed '2,$s/^/# /'
else
	note <"$out.txt"
	note <"$out.err"
	not_ok "blkqual fleet flags exactly the throttled host's device"
fi
note <"$out.txt"

if grep -q "1 outlier device, 1 failed device" "$tmp/play.log" &&
	grep -q "blkqual fleet found outliers or failed devices" "$tmp/play.log" &&
	[ -s "$res/fleet.html" ]; then
	ok "the playbook prints the fleet summary and reports the findings"
	sed -n '/TASK \[Show the summary\]/,/^$/p' "$tmp/play.log" | note
else
	sed -n '/Fleet summary/,$p' "$tmp/play.log" | note
	not_ok "the playbook prints the fleet summary and reports the findings"
fi

left=0
for i in $(seq 1 "$hosts"); do
	[ -e "$tmp/host$i" ] && left=1
done
check $left "the work directories are removed from the hosts"

# The quick profile takes about a minute per device, several with three
# hosts on a small machine: only when asked for.
t="qualify --profile quick across the hosts (BLKQUAL_FLEET_QUALIFY=1)"
if [ "${BLKQUAL_FLEET_QUALIFY:-0}" = 1 ]; then
	play_start=$(date +%s)
	(cd "$tmp" && timeout 900 ansible-playbook -i "$inventory" -e blkqual_command=qualify \
		-e blkqual_profile=quick -e blkqual_poll=5 -e blkqual_results_dir="$tmp/results-q" \
		"$srctree/tools/fleet/playbook.yml") >"$tmp/play-q.log" 2>&1
	echo "# ansible-playbook (qualify) exited $? after $(($(date +%s) - play_start)) s"
	"$blkqual" fleet -o json "$tmp/results-q" >"$out.json" 2>"$out.err"
	rc=$?
	got=$(json "$out.json" "sorted(set(o['device'] for o in d['outliers']))" 2>&1)
	kinds=$(json "$out.json" "sorted(set(x['result'] for x in d['devices']))" 2>&1)
	failed3=$(json "$out.json" "[x['verdict'] for x in d['devices'] if x['id'] == '$want']" 2>&1)
	if [ "$rc" = 1 ] && [ "$got" = "['$want']" ] && [ "$kinds" = "['missing', 'qualify']" ] &&
		[ "$failed3" = "['fail']" ]; then
		ok "$t"
	else
		echo "rc $rc outliers $got kinds $kinds verdict $failed3" | note
		sed -n '/PLAY RECAP/,$p' "$tmp/play-q.log" | note
		note <"$out.err"
		not_ok "$t"
	fi
	"$blkqual" fleet "$tmp/results-q" 2>&1 | note
else
	skip "$t: set BLKQUAL_FLEET_QUALIFY=1 (several minutes)"
fi

ns_left=("${netns[@]}")
loops_left=("${loops[@]}")
teardown
trap - EXIT
leftover=""
for ns in "${ns_left[@]}"; do
	ip netns list | grep -q "^$ns\b" && leftover="$leftover netns $ns"
done
for dev in "${loops_left[@]}"; do
	losetup "$dev" >/dev/null 2>&1 && losetup "$dev" | grep -q bqfleet-test && leftover="$leftover $dev"
done
pgrep -f "sshd -f /tmp/bqfleet-test" >/dev/null && leftover="$leftover sshd"
if [ -z "$leftover" ]; then
	ok "teardown leaves no namespace, loop device or sshd"
else
	echo "left:$leftover" | note
	not_ok "teardown leaves no namespace, loop device or sshd"
fi
echo "# fleet_test took $(($(date +%s) - start)) s for the test hosts"
exit "$failed"
