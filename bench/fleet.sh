#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `rocectl verify` over a simulated fabric (tests/lab) against the transport floor
# and against Ansible, side by side in one run (rounds interleaved), on the same devices with
# the same parallelism, the same SSH key exchange and cipher, and the same command lines:
#
#   rocectl   rocectl verify -p policies/roce-lossless.yaml -i LAB/inventory.yaml --parallel P
#   floor     xargs -0 -P P -n 2 ssh -F LAB/ssh_config ... DEVICE 'COMMAND'   (OpenSSH 9.2)
#   ansible   ansible all -m raw -a '{{ cmd }}' -f P                         (Debian ansible-core)
#
# COMMAND is, per device, the command line rocectl's drivers send (see commands() below).
#
#   bench/fleet.sh [--hosts N] [--switches S] [--parallel P] [--rounds R] [--no-ansible]
#                  [--lab DIR] [--check-only]
#
# Defaults: 512 hosts (2 NICs each), 256 switches (192 leaves, 64 spines, 16 uplinks per
# leaf), parallelism 32, one round.  A quick run: --hosts 64 --switches 32.  --lab DIR
# measures a lab that is already up (tests/lab/lab up) and leaves it running.
# --check-only stops after the check that the floor and Ansible replay exactly the command
# lines rocectl sends (untimed; `make test` runs it on a small lab: tests/lab/t3020).
#
# Measured per contender, by GNU time around the controller's own processes: wall time,
# user+sys CPU (children are included once waited for: xargs's ssh clients, ansible's forks
# and their ssh), the largest process's peak RSS; and, sampled every 0.5 s, the summed PSS
# of the contender's process tree.  The simulated devices (both sshds, their forced
# commands, the simulated hosts' rocectl) are sshd's children inside the lab's namespace,
# not the contender's, so their CPU is not counted; the bench prints the names of the
# processes it saw in each tree, and refuses to report if a device-side one is among them.
#
# Targets (a 2-core machine, where the devices' sshd dominates wall time: ~0.1 s of sshd CPU per connection):
# rocectl's wall within 1.3x of the floor's; rocectl's controller CPU per device no more
# than the OpenSSH clients' and at most 1/10 of Ansible's.
#
# Root only (the lab).  Build first: make rocectl rocectl-net.so sims.  Installs GNU time
# and ansible-core with apt-get if they are missing.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$src/rocectl}
LAB=$src/tests/lab/lab
POLICY=$src/policies/roce-lossless.yaml
TIME=/usr/bin/time
# What rocectl's libssh 0.10 negotiates with the lab's OpenSSH 9.2 sshd (its sshd log at
# LogLevel DEBUG1: "kex: algorithm: curve25519-sha256", "cipher: chacha20-poly1305@openssh.com
# MAC: <implicit>", host key ssh-ed25519).  The OpenSSH clients, Ansible's included, are
# held to the same: OpenSSH 9.2's default sntrup761x25519-sha512 costs ~3x the client CPU.
KEX=curve25519-sha256
CIPHER=chacha20-poly1305@openssh.com
# the switch driver's batch of ports per command line (drivers/switch/nvue.c SHOW_BATCH)
SHOW_BATCH=64

hosts=512 switches=256 parallel=32 rounds=1 with_ansible=1 lab_dir='' check_only=0

die() {
	echo "bench: $*" >&2
	exit 1
}

usage() {
	sed -n '12,13p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

uint() {
	case $2 in '' | *[!0-9]* | 0*) die "$1 wants a positive number, not '$2'" ;; esac
}

while [ $# -gt 0 ]; do
	case $1 in
	--no-ansible)
		with_ansible=0
		shift
		continue
		;;
	--check-only)
		check_only=1
		shift
		continue
		;;
	--hosts | --switches | --parallel | --rounds | --lab) [ $# -ge 2 ] || usage ;;
	*) usage ;;
	esac
	case $1 in
	--hosts) uint "$1" "$2" && hosts=$2 ;;
	--switches) uint "$1" "$2" && switches=$2 ;;
	--parallel) uint "$1" "$2" && parallel=$2 ;;
	--rounds) uint "$1" "$2" && rounds=$2 ;;
	--lab) lab_dir=$2 ;;
	esac
	shift 2
done
[ "$parallel" -le 1024 ] || die "--parallel is at most 1024 (rocectl's limit)"

[ "$(id -u)" = 0 ] || die "the lab needs root (network namespace, sshd)"
[ -x "$ROCECTL" ] || die "no '$ROCECTL'; run 'make rocectl rocectl-net.so sims'"

# Tools the contenders need, from Debian, only if missing.
need_pkg() {
	echo "bench: installing $1 (apt-get)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >&2 ||
		die "cannot install $1"
}
# the check alone times nothing and runs no Ansible: it installs nothing
[ -x "$TIME" ] || [ "$check_only" = 1 ] || need_pkg time
if [ "$with_ansible" = 1 ] && [ "$check_only" = 0 ] && ! command -v ansible >/dev/null 2>&1; then
	need_pkg ansible-core
fi

# Fabric shape for S switches: a quarter spines, the rest leaves, each leaf on up to 16
# spines, no spine with more than 64 ports (at 256: 192 leaves, 64 spines, 16 uplinks).
shape() {
	[ "$switches" -ge 2 ] || die "--switches: at least 2 (a leaf and a spine)"
	spines=$((switches / 4))
	[ "$spines" -ge 1 ] || spines=1
	leaves=$((switches - spines))
	uplinks=16
	[ "$uplinks" -le "$spines" ] || uplinks=$spines
	[ $((leaves * uplinks)) -le $((spines * 64)) ] || uplinks=$((spines * 64 / leaves))
	[ "$uplinks" -ge 1 ] || die "--switches $switches: no shape fits 64-port switches"
}

start_capture() { # KIND RUN PORT
	[ -f "$2/sshd_config" ] || die "no sshd_config in '$2'"
	sed -e "s|^Port .*|Port $3|" -e "s|^PidFile .*|PidFile $cap/$1.pid|" \
		-e "s|^ForceCommand |ForceCommand $cap/logcmd |" "$2/sshd_config" >"$cap/$1.sshd_config"
	in_ns /usr/sbin/sshd -f "$cap/$1.sshd_config" -E "$cap/$1.sshd.log" </dev/null ||
		die "cannot start a capturing sshd: $(cat "$cap/$1.sshd.log")"
	i=0
	while [ ! -s "$cap/$1.pid" ]; do
		i=$((i + 1))
		[ "$i" -le 100 ] || die "the capturing sshd did not start: $(cat "$cap/$1.sshd.log")"
		sleep 0.05
	done
	capture_pids="$capture_pids $(cat "$cap/$1.pid")"
}

# our capturing sshds only: the pid must still be an sshd running our config
stop_capture() {
	for p in $capture_pids; do
		if tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "$tmp/capture/"; then
			kill "$p" 2>/dev/null || true
		fi
	done
	capture_pids=
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-bench-fleet.XXXXXX")
own_lab='' capture_pids=''
cleanup() {
	stop_capture
	if [ -n "$own_lab" ]; then
		"$LAB" down "$own_lab" >/dev/null 2>&1 || echo "bench: 'lab down $own_lab' failed" >&2
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$lab_dir" ]; then
	shape
	lab_dir=$tmp/lab
	own_lab=$lab_dir
	echo "bench: lab up: $hosts hosts, $leaves leaves, $spines spines, $uplinks uplinks per leaf" >&2
	ROCECTL=$ROCECTL "$LAB" up "$lab_dir" --hosts "$hosts" --leaves "$leaves" \
		--spines "$spines" --uplinks "$uplinks" >&2
fi
lab_dir=$(cd "$lab_dir" && pwd)
[ -f "$lab_dir/lab.env" ] || die "no running lab in '$lab_dir'"
NS=$(sed -n 's/^NS=//p' "$lab_dir/lab.env")
[ -n "$NS" ] || die "no namespace in '$lab_dir/lab.env'"
inventory=$lab_dir/inventory.yaml
ssh_config=$lab_dir/ssh_config
n_hosts=$(grep -c '^host ' "$lab_dir/topology" || true)
n_switches=$(grep -c '^switch ' "$lab_dir/topology" || true)
devices=$((n_hosts + n_switches))
lines=$((n_hosts + n_switches)) # command lines of one verify (commands() below)

# The command lines rocectl's verify sends to each device, in inventory order (hosts, then
# switches), one "NAME CMD" per line (one SSH session each):
#   host    one line: drivers/host/agent_ssh.c agent_read: the inventory's interfaces, in
#           order (the answer carries lldpd's neighbours too: cli/agent_remote.c)
#   switch  one line: drivers/switch/nvue.c ssh_show_batch: the neighbours first
#           (NVUE_LLDP_PREFIX: `nv show interface lldp` and its section markers), then
#           `nv show qos -o json`, the applied and the startup revision's, then one
#           `nv show interface PORT qos -o json` per inventory port, &&-chained (more than
#           SHOW_BATCH ports would take another line: not in a 64-port lab)
commands() {
	awk -v batch="$SHOW_BATCH" '
	$1 == "host" {
		line = $2 " rocectl agent state"
		for (i = 4; i <= NF; i++)
			line = line " --interface " $i
		print line
	}
	$1 == "switch" {
		if (NF - 6 > batch) {
			print "bench: " $2 " has more than " batch " ports" >"/dev/stderr"
			exit 1
		}
		line = $2 " nv show interface lldp && echo @@rocectl-lldp-end@@; " \
			"echo @@rocectl-qos@@; nv show qos -o json && " \
			"nv show qos --applied -o json && nv show qos --rev=startup -o json"
		for (i = 7; i <= NF; i++)
			line = line " && nv show interface " $i " qos -o json"
		print line
	}' "$lab_dir/topology"
}
commands >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" = "$lines" ] || die "cannot list the devices' commands"

# xargs input: NAME and COMMAND as two NUL-terminated arguments of one ssh
awk '{ n = $1; sub(/^[^ ]+ /, ""); printf "%s%c%s%c", n, 0, $0, 0 }' "$tmp/commands" \
	>"$tmp/floor.args"
ssh_opts="-F $ssh_config -o KexAlgorithms=$KEX -o Ciphers=$CIPHER"

# Ansible: every device with its command as a host variable; the lab's ssh_config (aliases,
# port 2222 for hosts, key, known_hosts) and the same key exchange; no ControlMaster (its
# persistent masters would outlive the timed process) and no tty (rocectl and ssh ask for none).
mkdir -p "$tmp/ansible/tmp"
{
	echo "all:"
	echo "  hosts:"
	# one alias per command line (NAME-1, NAME-2), each to the device itself
	awk '{ n = $1; k[n]++; sub(/^[^ ]+ /, "")
	       printf "    %s-%d: {ansible_host: %s, cmd: \"%s\"}\n", n, k[n], n, $0 }' "$tmp/commands"
} >"$tmp/ansible/inventory.yaml"
cat >"$tmp/ansible/ansible.cfg" <<EOF
[defaults]
inventory = $tmp/ansible/inventory.yaml
home = $tmp/ansible
local_tmp = $tmp/ansible/tmp
forks = $parallel
gathering = explicit
host_key_checking = True
retry_files_enabled = False
deprecation_warnings = False
nocows = 1

[ssh_connection]
ssh_args = $ssh_opts -o ControlMaster=no -o ControlPersist=no
usetty = False
retries = 0
pipelining = False
EOF

in_ns() {
	ip netns exec "$NS" "$@"
}

# Every contender must read every device, or its numbers mean nothing.
check_rocectl() { # OUT RC
	[ "$2" = 0 ] || [ "$2" = 2 ] || { echo "exit status $2"; return 1; }
	grep -q "of $devices device(s), 0 failed\$" "$1" ||
		{ echo "not every device was read: $(tail -n 1 "$1")"; return 1; }
}
check_floor() { # OUT RC
	[ "$2" = 0 ] || { echo "xargs exit status $2 (an ssh failed)"; return 1; }
	[ -s "$1" ] || { echo "no output"; return 1; }
}
check_ansible() { # OUT RC
	[ "$2" = 0 ] || { echo "exit status $2"; return 1; }
	ok=$(grep -c '^[^ ]* | CHANGED | rc=0 >>' "$1" || true)
	[ "$ok" = "$lines" ] ||
		{ echo "$ok of $lines command lines answered rc=0"; return 1; }
}

run_contender() { # NAME
	case $1 in
	rocectl)
		in_ns "$TIME" -o "$tmp/time" -f '%e %U %S %M' "$ROCECTL" verify -p "$POLICY" \
			-i "$inventory" --parallel "$parallel" ;;
	floor)
		# shellcheck disable=SC2086 # ssh_opts are words
		in_ns "$TIME" -o "$tmp/time" -f '%e %U %S %M' xargs -0 -P "$parallel" -n 2 \
			ssh $ssh_opts <"$tmp/floor.args" ;;
	ansible)
		in_ns env ANSIBLE_CONFIG="$tmp/ansible/ansible.cfg" "$TIME" -o "$tmp/time" \
			-f '%e %U %S %M' ansible all -m raw -a '{{ cmd }}' -f "$parallel" ;;
	esac
}

# Peak summed PSS (kB) of ROOT's descendants while ROOT lives, and their command names.
sample_tree() { # ROOT OUT
	peak=0
	: >"$2.names"
	while kill -0 "$1" 2>/dev/null; do
		pids=$(ps -e -o pid= -o ppid= -o comm= | awk -v root="$1" -v names="$2.names" '
			{ pp[$1] = $2; cm[$1] = $3 }
			END {
				inside[root] = 1
				do {
					more = 0
					for (p in pp)
						if (!(p in inside) && (pp[p] in inside)) {
							inside[p] = 1
							more = 1
						}
				} while (more)
				# not the bench: its background subshell (and its forks before they exec),
				# ip netns exec, env and GNU time
				for (p in inside)
					if (p != root && cm[p] != cm[root] && cm[p] !~ /^(ip|env|time)$/) {
						print p
						print cm[p] >>names
					}
			}')
		if [ -n "$pids" ]; then
			kb=$(for p in $pids; do echo "/proc/$p/smaps_rollup"; done |
				xargs cat 2>/dev/null | awk '$1 == "Pss:" { s += $2 } END { print s + 0 }')
			[ "$kb" -le "$peak" ] || peak=$kb
		fi
		sleep 0.5
	done
	echo "$peak" >"$2"
	sort -u "$2.names" -o "$2.names"
}

# One timed run; appends "NAME WALL USER SYS MAXRSS_KB TREE_KB" to $tmp/results.
measure() { # NAME
	out=$tmp/out.$1
	run_contender "$1" >"$out" 2>"$tmp/err.$1" &
	pid=$!
	sample_tree "$pid" "$tmp/tree.$1" &
	spid=$!
	rc=0
	wait "$pid" || rc=$?
	wait "$spid" || true
	if ! why=$("check_$1" "$out" "$rc"); then
		tail -n 20 "$tmp/err.$1" >&2
		die "$1 did not read every device: $why"
	fi
	# a device-side process in the tree would bill the simulated devices to the controller
	if grep -qE '^(sshd|switchsim-cli|host-shell|nicsim|unshare)$' "$tmp/tree.$1.names"; then
		die "$1's timed process tree holds device-side processes: $(tr '\n' ' ' <"$tmp/tree.$1.names")"
	fi
	tr '\n' ' ' <"$tmp/tree.$1.names" >"$tmp/names.$1"
	# GNU time writes "Command exited with non-zero status N" first when N != 0
	echo "$1 $(tail -n 1 "$tmp/time") $(cat "$tmp/tree.$1")" >>"$tmp/results"
}

# What rocectl really sends, seen from the device side, must be what the floor and Ansible
# send: for a sample of devices (the first host, the first and the last switch), a second
# sshd of each kind runs in the lab's namespace with the lab's own config on a spare port,
# its forced command wrapped by a logger, and rocectl verifies them through a copy of the
# inventory that points at those ports.
capture_commands() {
	cap=$tmp/capture
	chmod 755 "$tmp" # the lab user's sessions run the logger and append to its log
	mkdir -m 755 "$cap"
	: >"$cap/log"
	chmod 666 "$cap/log"
	# shellcheck disable=SC2016 # the logger expands them, not this shell
	printf '#!/bin/sh\nprintf "%%s|%%s\\n" "$SSH_CONNECTION" "$SSH_ORIGINAL_COMMAND" >>%s\nexec "$@"\n' \
		"$cap/log" >"$cap/logcmd"
	chmod 755 "$cap/logcmd"
	sw_run=$(sed -n 's/^RUN=//p' "$lab_dir/switchsim/lab.env")
	host_run=$(sed -n 's/^RUN=//p' "$lab_dir/lab.env")
	start_capture switch "$sw_run" 2291
	start_capture host "$host_run" 2292
	sed -e 's/port: 22,/port: 2291,/' -e 's/port: 2222,/port: 2292,/' \
		-e "s|known_hosts: \"[^\"]*\"|known_hosts: \"$cap/known_hosts\"|" \
		"$inventory" >"$cap/inventory.yaml"
	sed -e 's/^\[\([0-9.]*\)\]:2222 /[\1]:2292 /' -e '/^\[/!s/^\([^ ]*\) /[\1]:2291 /' \
		"$lab_dir/known_hosts" >"$cap/known_hosts"
	sample="$first_host,$first_switch,$last_switch"
	rc=0
	in_ns "$ROCECTL" verify -p "$POLICY" -i "$cap/inventory.yaml" --limit "$sample" \
		>"$cap/out" 2>&1 || rc=$?
	stop_capture
	[ "$rc" = 0 ] || [ "$rc" = 2 ] ||
		die "rocectl verify through the capturing sshds failed: $(tail -n 3 "$cap/out")"
	# "CLIENT CPORT SERVER SPORT|COMMAND" -> "NAME COMMAND", by the server address
	awk 'NR == FNR { if ($1 == "host" || $1 == "switch") name[$3] = $2; next }
		{ i = index($0, "|"); split(substr($0, 1, i - 1), c, " ")
		  print name[c[3]] " " substr($0, i + 1) }' \
		"$lab_dir/topology" "$cap/log" | sort >"$cap/seen"
	echo "$sample" | tr ',' '\n' | awk 'NR == FNR { want[$1] = 1; next } ($1 in want)' \
		- "$tmp/commands" | sort >"$cap/expected"
	if ! cmp -s "$cap/expected" "$cap/seen"; then
		diff "$cap/expected" "$cap/seen" >&2 || true
		die "the command lines rocectl sends are not the ones replayed here (diff above)"
	fi
	echo "bench: rocectl's command lines to $sample are the ones replayed" >&2
}

first_host=$(awk '$1 == "host" { print $2; exit }' "$lab_dir/topology")
first_switch=$(awk '$1 == "switch" { print $2; exit }' "$lab_dir/topology")
last_switch=$(awk '$1 == "switch" { s = $2 } END { print s }' "$lab_dir/topology")
capture_commands
if [ "$check_only" = 1 ]; then
	echo "bench: check only: every command line replayed is one rocectl sends" >&2
	exit 0
fi

contenders="floor rocectl"
[ "$with_ansible" = 0 ] || contenders="floor rocectl ansible"

# Warm-up, not timed: one host and one switch through each contender's path (first execs of
# the simulators' binaries, page cache), and a check that each path works at all.
for d in $first_host $first_switch; do
	awk -v d="$d" '$1 == d { sub(/^[^ ]+ /, ""); print }' "$tmp/commands" >"$tmp/warm"
	while IFS= read -r c; do
		# shellcheck disable=SC2086
		in_ns ssh $ssh_opts "$d" "$c" </dev/null >/dev/null || die "ssh to '$d' failed"
	done <"$tmp/warm"
done
in_ns "$ROCECTL" verify -p "$POLICY" -i "$inventory" --limit "$first_host,$first_switch" \
	>/dev/null || [ $? = 2 ] || die "rocectl verify of '$first_host,$first_switch' failed"
if [ "$with_ansible" = 1 ]; then
	in_ns env ANSIBLE_CONFIG="$tmp/ansible/ansible.cfg" ansible "$first_host-*,$first_switch-*" -m raw \
		-a '{{ cmd }}' >/dev/null || die "ansible to '$first_host,$first_switch' failed"
fi

: >"$tmp/results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
while [ "$r" -le "$rounds" ]; do
	for c in $contenders; do
		echo "bench: round $r/$rounds: $c" >&2
		measure "$c"
	done
	r=$((r + 1))
done

echo "fleet: $n_hosts hosts + $n_switches switches = $devices devices, parallelism $parallel," \
	"kex $KEX, cipher $CIPHER; $rounds round(s) interleaved, medians"
echo "  load average (1, 5, 15 min) before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  $("$ROCECTL" --version 2>/dev/null | sed -n 1p); $(ssh -V 2>&1)"
[ "$with_ansible" = 0 ] || echo "  $(ansible --version 2>/dev/null | sed -n 1p)"
for c in $contenders; do
	echo "  $c processes: $(cat "$tmp/names.$c")"
done
awk -v devices="$devices" -v rounds="$rounds" -v contenders="$contenders" '
function median(name, col,    n, i, j, v, t) {
	n = 0
	for (i = 1; i <= nrow; i++)
		if (row[i, 1] == name)
			v[++n] = row[i, col]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function verdict(ok) { return ok ? "PASS" : "MISS" }
# NAME WALL USER SYS MAXRSS TREE, and CPU = USER + SYS as column 7 (its median, not a sum of two)
{ nrow++; for (i = 1; i <= NF; i++) row[nrow, i] = $i; row[nrow, 7] = $3 + $4 }
END {
	k = split(contenders, who, " ")
	label["rocectl"] = "rocectl verify"
	label["floor"] = "OpenSSH clients (xargs -P)"
	label["ansible"] = "Ansible -m raw"
	for (i = 1; i <= k; i++) {
		c = who[i]
		wall[c] = median(c, 2)
		cpu[c] = median(c, 7)
		rss[c] = median(c, 5) / 1024
		tree[c] = median(c, 6) / 1024
	}
	printf "  %-27s %8s %8s %8s %8s %8s %8s %8s %8s\n", "contender", "wall s", "CPU s",
		"CPU ms/", "maxRSS", "tree", "wall vs", "CPU vs", "CPU vs"
	printf "  %-27s %8s %8s %8s %8s %8s %8s %8s %8s\n", "", "", "", "device", "MB", "PSS MB",
		"floor", "floor", "Ansible"
	for (i = 1; i <= k; i++) {
		c = who[i]
		printf "  %-27s %8.2f %8.2f %8.1f %8.1f %8.1f %7.2fx %7.2fx", label[c], wall[c],
			cpu[c], cpu[c] * 1000 / devices, rss[c], tree[c], wall[c] / wall["floor"],
			cpu[c] / cpu["floor"]
		if ("ansible" in cpu)
			printf " %7.3fx\n", cpu[c] / cpu["ansible"]
		else
			printf " %8s\n", "-"
	}
	if (rounds > 1) {
		printf "rounds (wall s / CPU s):\n"
		for (i = 1; i <= nrow; i++)
			printf "  %d %-8s %8.2f %8.2f\n", int((i - 1) / k) + 1, row[i, 1], row[i, 2],
				row[i, 7]
	}
	printf "targets:\n"
	printf "  wall: rocectl / floor %.2fx <= 1.3x: %s\n", wall["rocectl"] / wall["floor"],
		verdict(wall["rocectl"] <= 1.3 * wall["floor"])
	printf "  CPU per device: rocectl %.1f ms <= OpenSSH clients %.1f ms: %s\n",
		cpu["rocectl"] * 1000 / devices, cpu["floor"] * 1000 / devices,
		verdict(cpu["rocectl"] <= cpu["floor"])
	if ("ansible" in cpu)
		printf "  CPU per device: rocectl %.1f ms <= Ansible %.1f ms / 10: %s (Ansible / rocectl %.1fx)\n",
			cpu["rocectl"] * 1000 / devices, cpu["ansible"] * 1000 / devices,
			verdict(cpu["rocectl"] * 10 <= cpu["ansible"]), cpu["ansible"] / cpu["rocectl"]
	else
		printf "  CPU per device vs Ansible: not measured (--no-ansible)\n"
}' "$tmp/results"
