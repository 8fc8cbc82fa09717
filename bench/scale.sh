#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `rocectl verify --format jsonl` at three fabric sizes and a latency sweep, on
# one simulated fabric (tests/lab), in one run.  The targets:
#
#   memory    maxRSS <= 64 MB at 4,096 hosts (2 NICs) + 256 switches, and growth <= 8 KB
#             per device (the slope between the sizes)
#   CPU       <= 2 ms of controller CPU per device at 4,352 devices
#   latency   with a delay D per device, wall <= 1.15 x ceil(N/P) x D for P up to 512
#
#   bench/scale.sh [--sizes 1024,2048,4096] [--switches 256] [--parallel 32]
#                  [--sweep-hosts 512] [--sweep-delay 2s] [--sweep-parallel 32,128,512]
#                  [--sweep-connect-timeout 60s] [--host-pool K] [--lab DIR] [--no-sweep]
#                  [--sweep-only]
#   bench/scale.sh --mux N [--mux-hosts H] [--mux-delay 2s] [--mux-parallel 512]
#                  [--mux-platforms nvue] [--mux-format text|jsonl]
#
# --mux N: one run at N devices on the multiplexed lab (tests/lab/lab up --mux: a
# switchsim-mux per device kind serves every device of that kind, so that 10,000 fit on
# two CPUs): H hosts (default 0) and N - H switches (4/5 leaves, each on one spine), every
# device with latency D (--delay KIND=D, +-10 %), one `rocectl verify --parallel P` in
# the default format, text (the memory target's), or --mux-format jsonl.  It
# prints wall, controller user+sys CPU per device, controller maxRSS, the lab servers' CPU
# per SSH session (their /proc/PID/stat before and after; the hosts' agents, children of
# the host server, apart), and the targets: wall <= 1.15 x ceil(N/P) x D, maxRSS <= 64 MB,
# CPU per device <= 1.25 x bench/ssh-floor.c's bare libssh client (one session with the
# NVUE read's first command), lab CPU per session <= 1 ms.
#
# One lab is brought up at the largest size (hosts share a pool of K simulated hosts, see
# tests/lab/README.md); each size is a copy of its inventory keeping the first N hosts,
# every switch and the links between them.  The sweep verifies the first --sweep-hosts
# hosts alone (one command per host: a device's latency is one delay) with the lab's
# `host` delay set to --sweep-delay, ±10 % jitter, at each --sweep-parallel; the same
# runs without delay give the floor: what the simulated devices themselves cost this
# machine (sshd, the simulator), which the formula does not count.  The sweep's hosts get
# ssh.connect_timeout --sweep-connect-timeout: with P handshakes at once on the machine's
# CPUs, the lab's sshd takes longer than the default 10 s to answer the last of them, and
# such a host would count as failed for a cause that is the lab's, not the controller's.
# Each run also reports the lab namespace's TcpExtListenOverflows (connections the
# kernel dropped because sshd's accept queue was full; OpenSSH listens with a backlog of
# 128, SSH_LISTEN_BACKLOG in its sshd.c): the client retries them, at a cost in latency.
#
# Measured per run by GNU time around rocectl alone (the devices are sshd's children in
# the lab's namespace): wall, user+sys CPU, maxRSS.  Every run must read every device
# ("errors":0 and the right device count in the jsonl summary) or the bench stops.
#
# Root only (the lab).  Build first: make rocectl rocectl-net.so sims.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$src/rocectl}
LAB=$src/tests/lab/lab
POLICY=$src/policies/roce-lossless.yaml
TIME=/usr/bin/time

sizes=1024,2048,4096 switches=256 parallel=32 sweep_hosts=512 sweep_delay=2s
sweep_parallel=32,128,512 sweep_timeout=60s host_pool='' lab_dir='' sweep=1 sizes_on=1
mux_n='' mux_hosts=0 mux_delay=2s mux_parallel=512 mux_platforms=nvue mux_format=text

die() {
	echo "bench: $*" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	--no-sweep) sweep=0 && shift && continue ;;
	--sweep-only) sizes_on=0 && shift && continue ;;
	esac
	[ $# -ge 2 ] || die "option '$1' needs a value"
	case $1 in
	--sizes) sizes=$2 ;;
	--switches) switches=$2 ;;
	--parallel) parallel=$2 ;;
	--sweep-hosts) sweep_hosts=$2 ;;
	--sweep-delay) sweep_delay=$2 ;;
	--sweep-parallel) sweep_parallel=$2 ;;
	--sweep-connect-timeout) sweep_timeout=$2 ;;
	--host-pool) host_pool=$2 ;;
	--lab) lab_dir=$2 ;;
	--mux) mux_n=$2 ;;
	--mux-hosts) mux_hosts=$2 ;;
	--mux-delay) mux_delay=$2 ;;
	--mux-parallel) mux_parallel=$2 ;;
	--mux-platforms) mux_platforms=$2 ;;
	--mux-format) mux_format=$2 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift 2
done

[ "$(id -u)" = 0 ] || die "needs root (the lab: network namespace, sshd)"
[ -x "$ROCECTL" ] || die "no '$ROCECTL'; run 'make rocectl rocectl-net.so sims'"
[ -x "$TIME" ] || apt-get install -y -qq time >/dev/null || die "cannot install GNU time"
command -v python3 >/dev/null || die "needs python3"

# The one run of --mux N (above), then exit.
mux_bench() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-scale-mux.XXXXXX")
	if [ -n "$lab_dir" ]; then
		# a mux lab already up (--lab DIR) of N devices: measured, left up
		trap 'rm -rf "$tmp"' EXIT
	else
		lab_dir=$tmp/lab
		trap '"$LAB" down "$lab_dir" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
	fi
	trap 'exit 130' INT TERM
	sw=$((mux_n - mux_hosts))
	[ "$sw" -ge 2 ] || die "--mux $mux_n with --mux-hosts $mux_hosts leaves no switches"
	spines=$((sw / 5))
	leaves=$((sw - spines))
	pool=''
	[ "$mux_hosts" -le 2048 ] || pool="--host-pool 2048"
	if [ ! -f "$lab_dir/lab.env" ]; then
		echo "bench: lab up --mux: $mux_hosts hosts, $leaves leaves, $spines spines ($mux_platforms)" >&2
		t0=$(date +%s)
		# shellcheck disable=SC2086 # $pool is an option and its value, or nothing
		"$LAB" up "$lab_dir" --hosts "$mux_hosts" --leaves "$leaves" --spines "$spines" \
			--uplinks 1 --platforms "$mux_platforms" --mux $pool >&2 || die "lab up --mux failed"
		echo "bench: lab up took $(($(date +%s) - t0)) s" >&2
	fi
	# shellcheck disable=SC1091
	. "$lab_dir/lab.env"
	in_ns() { ip netns exec "$NS" "$@"; }
	floor_bin=$tmp/ssh-floor
	# shellcheck disable=SC2046 # pkg-config's flags are words
	cc -O2 -o "$floor_bin" "$src/bench/ssh-floor.c" $(pkg-config --cflags --libs libssh) ||
		die "cannot build bench/ssh-floor.c (libssh-dev)"
	"$LAB" delay "$lab_dir"
	# the bare client: a known_hosts of the one switch (libssh reads the whole file for
	# every session; rocectl indexes it once per run, and 10,000 lines of it would be most
	# of the floor's CPU: 3.5 ms per session instead of ~1 ms)
	grep '^127\.1\.0\.1 ' "$lab_dir/known_hosts" >"$tmp/known_hosts.1"
	floor_sw=$(in_ns "$floor_bin" 127.1.0.1 22 "$LAB_USER" "$lab_dir/id_ed25519" \
		"$tmp/known_hosts.1" 200 "nv show qos -o json" | sed 's/.*floor: \([0-9.]*\) ms.*/\1/')
	kinds="$(echo "$mux_platforms" | tr ',' ' ')"
	[ "$mux_hosts" = 0 ] || kinds="$kinds host"
	d=''
	for k in $kinds; do d="$d${d:+,}$k=$mux_delay"; done
	"$LAB" delay "$lab_dir" --delay "$d" --jitter 10
	# the servers' CPU (user+sys ticks; and the host server's waited-for children, the
	# agents) and sessions, before and after
	lab_cpu() {
		for k in $kinds; do
			pid=$(cat "$RUN/mux/$k.pid")
			sess=$(sed -n 's/^sessions //p' "$RUN/mux/$k.stats")
			awk -v k="$k" -v s="${sess:-0}" '{ print k, $14 + $15, $16 + $17, s }' "/proc/$pid/stat"
		done
	}
	sleep 1.2 # the stats files are written every second
	lab_cpu >"$tmp/cpu0"
	# every device's credentials and ssh (port 22) once, in defaults: the lab's inventory has
	# them per device, and at 10,000 switches that is more than the 262,144 values rocectl's
	# inventory parser accepts (engine/config: "document has more than 262144 values")
	inv=$tmp/inventory.yaml
	awk -v d="$lab_dir" -v u="$LAB_USER" '
		/^kind: Inventory/ { print; print "defaults:"
			print "  credentials: {user: " u ", identity_file: \"" d "/id_ed25519\"}"
			print "  ssh: {port: 22, known_hosts: \"" d "/known_hosts\"}"; next }
		/^    credentials: \{user: / { next }
		/^    ssh: \{port: 22, / { next }
		{ print }' "$lab_dir/inventory.yaml" >"$inv"
	rc=0
	# the memory target is the default format's (text); --mux-format jsonl for the other
	in_ns "$TIME" -o "$tmp/time" -f '%e %U %S %M' "$ROCECTL" verify -p "$POLICY" -i "$inv" \
		--format "$mux_format" --parallel "$mux_parallel" >"$tmp/out" 2>"$tmp/err" || rc=$?
	sleep 1.2
	lab_cpu >"$tmp/cpu1"
	case $mux_format in
	jsonl) tail -n 1 "$tmp/out" | grep -q "\"devices\":$mux_n,\"errors\":0" ;;
	# text: "verify: N drifted fields on M of N device(s), 0 failed" (cli/fleet_cmd.c)
	*) tail -n 1 "$tmp/out" | grep -q " of $mux_n device(s), 0 failed$" ;;
	esac || {
		grep -m 3 '"status":"error"' "$tmp/out" | cut -c 1-300 >&2
		tail -n 5 "$tmp/err" >&2
		die "--mux: not every device was read (exit status $rc): $(tail -n 1 "$tmp/out" | cut -c 1-300)"
	}
	hz=$(getconf CLK_TCK)
	d_ms=$(echo "$mux_delay" | awk '/ms$/ { print $0 + 0; next } /s$/ { print ($0 + 0) * 1000 }')
	echo "scale --mux: rocectl verify --format $mux_format; $(nproc) CPUs; $("$ROCECTL" --version | sed -n 1p)"
	echo "  load average (1, 5, 15 min) after: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "  fd limit: soft $(ulimit -Sn), hard $(ulimit -Hn) (the lab servers raise their soft limit to the hard one)"
	echo "  libssh alone, CPU per session: $floor_sw ms with one switch command (bench/ssh-floor.c)"
	# shellcheck disable=SC2046 # the four numbers of GNU time's last line
	set -- $(tail -n 1 "$tmp/time")
	awk -v n="$mux_n" -v p="$mux_parallel" -v d="$d_ms" -v wall="$1" -v cpu="$(echo "$2 $3" | awk '{ print $1 + $2 }')" \
		-v rss="$4" -v floor="$floor_sw" -v hz="$hz" -v delay="$mux_delay" -v hosts="$mux_hosts" '
	FNR == NR { u0[$1] = $2; c0[$1] = $3; s0[$1] = $4; next }
	{ k[++nk] = $1; u[$1] = $2 - u0[$1]; c[$1] = $3 - c0[$1]; s[$1] = $4 - s0[$1] }
	END {
		ideal = int((n + p - 1) / p) * d / 1000
		printf "  devices %d (%d hosts), P %d, D %s: wall %.2f s (ideal %.2f s, %.2fx); controller CPU %.2f ms/device; maxRSS %.1f MB\n",
			n, hosts, p, delay, wall, ideal, wall / ideal, cpu * 1000 / n, rss / 1024
		for (i = 1; i <= nk; i++) {
			x = k[i]
			per = s[x] ? u[x] * 1000 / hz / s[x] : 0
			printf "  lab server %-5s %6d sessions, %8.2f s CPU, %.3f ms per session", x, s[x],
				u[x] / hz, per
			if (x == "host")
				printf "; agents (its children) %.2f s, %.2f ms per session", c[x] / hz,
					s[x] ? c[x] * 1000 / hz / s[x] : 0
			printf "\n"
			tu += u[x]; ts += s[x]
		}
		printf "targets:\n"
		printf "  wall %.2f s <= 1.15 x %.2f s = %.2f s: %s\n", wall, ideal, 1.15 * ideal,
			wall <= 1.15 * ideal ? "PASS" : "MISS"
		printf "  maxRSS %.1f MB <= 64 MB: %s\n", rss / 1024, rss <= 65536 ? "PASS" : "MISS"
		cpd = cpu * 1000 / n
		printf "  CPU per device %.2f ms <= 1.25 x floor %.2f ms = %.2f ms: %s\n", cpd, floor,
			1.25 * floor, cpd <= 1.25 * floor ? "PASS" : "MISS"
		lps = ts ? tu * 1000 / hz / ts : 0
		printf "  lab CPU per session %.3f ms <= 1 ms: %s\n", lps, lps <= 1 ? "PASS" : "MISS"
	}' "$tmp/cpu0" "$tmp/cpu1"
	exit 0
}
[ -z "$mux_n" ] || mux_bench

max_hosts=$(echo "$sizes" | tr ',' '\n' | sort -n | tail -n 1)
[ "$sweep" = 0 ] || [ "$sweep_hosts" -le "$max_hosts" ] ||
	die "--sweep-hosts $sweep_hosts exceeds the largest size ($max_hosts hosts)"
# the sweep's hosts must not share a simulated host (their sessions would race on it)
[ -n "$host_pool" ] || host_pool=$((sweep_hosts > 256 ? sweep_hosts : 256))
spines=$((switches / 4))
leaves=$((switches - spines))
uplinks=$((spines < 16 ? spines : 16))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-scale.XXXXXX")
own_lab=0
cleanup() {
	[ "$own_lab" = 0 ] || "$LAB" down "$lab_dir" >/dev/null 2>&1 || true
	[ -z "$lab_dir" ] || [ "$own_lab" = 0 ] || rm -rf "$lab_dir"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$lab_dir" ]; then
	lab_dir=$tmp/lab
	mkdir -p "$lab_dir"
	own_lab=1
	echo "bench: lab up: $max_hosts hosts (pool of $host_pool), $leaves leaves, $spines spines" >&2
	"$LAB" up "$lab_dir" --hosts "$max_hosts" --leaves "$leaves" --spines "$spines" \
		--uplinks "$uplinks" --host-pool "$host_pool" >&2 || die "lab up failed"
fi
[ -f "$lab_dir/lab.env" ] || die "no lab in '$lab_dir'"
# shellcheck disable=SC1091
. "$lab_dir/lab.env"
inventory=$lab_dir/inventory.yaml

# The first N hosts (gpuNNNN in inventory order), every switch unless NOSW, and the links
# whose two ends are kept.
sub_inventory() { # N NOSW OUT
	python3 - "$inventory" "$1" "$2" "$3" <<-\EOF
	import re, sys
	src, n, nosw, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
	keep, section, block, lines = set(), None, [], []
	hosts = 0
	def flush():
	    global block
	    if block:
	        lines.extend(block)
	    block = []
	for line in open(src):
	    m = re.match(r"^(hosts|switches|links):", line)
	    if m:
	        flush()
	        section = m.group(1)
	        lines.append(line)
	        continue
	    if section == "hosts" and line.startswith("  - name: "):
	        flush()
	        hosts += 1
	        name = line.split()[-1]
	        block = [line] if hosts <= n else None
	        if hosts <= n:
	            keep.add(name)
	        continue
	    if section == "switches" and line.startswith("  - name: "):
	        flush()
	        name = line.split()[-1]
	        block = None if nosw else [line]
	        if not nosw:
	            keep.add(name)
	        continue
	    if section == "links":
	        m = re.match(r'^  - \{a: "([^:"]+):[^"]*", b: "([^:"]+):', line)
	        if m and (m.group(1) not in keep or m.group(2) not in keep):
	            continue
	        lines.append(line)
	        continue
	    if section in ("hosts", "switches") and line.startswith("    "):
	        if block is not None:
	            block.append(line)
	        continue
	    flush()
	    lines.append(line)
	flush()
	text = "".join(lines)
	if nosw:
	    text = re.sub(r"^switches:\n", "switches: []\n", text, flags=re.M)
	text = re.sub(r"^links:\n(?!  - )", "links: []\n", text, flags=re.M)
	open(out, "w").write(text)
	EOF
}

in_ns() {
	ip netns exec "$NS" "$@"
}

# The CPU floor of one SSH session with libssh alone (bench/ssh-floor.c), 100 in a row:
# to a switch (connect and authenticate only, then with the NVUE read's first command)
# and to a host (with the host read's command).  rocectl opens one session per device.
floor_bin=$tmp/ssh-floor
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -O2 -o "$floor_bin" "$src/bench/ssh-floor.c" $(pkg-config --cflags --libs libssh) ||
	die "cannot build bench/ssh-floor.c (libssh-dev)"
floor() { # ADDRESS PORT [COMMAND]
	in_ns "$floor_bin" "$1" "$2" "$LAB_USER" "$lab_dir/id_ed25519" "$lab_dir/known_hosts" \
		100 ${3+"$3"} | sed 's/.*floor: \([0-9.]*\) ms.*/\1/'
}
floor_auth=$(floor 127.1.0.1 22)
floor_switch=$(floor 127.1.0.1 22 "nv show qos -o json")
floor_host=$(floor 127.2.0.1 "$HOST_PORT" \
	"rocectl agent state --interface enp12s0np0 --interface enp13s0np0")

# The lab namespace's count of connections dropped on a full accept queue (since its start).
overflows() {
	in_ns nstat -asz TcpExtListenOverflows | awk '$1 == "TcpExtListenOverflows" { print $2 }'
}

# One timed verify; appends "LABEL DEVICES P WALL CPU MAXRSS_KB IDEAL ERRORS OVERFLOWS" to
# $tmp/results.  The sizes must read every device; a sweep run may lose some (a device
# that did not answer within its SSH connect timeout on a saturated machine): the table
# counts them, and no latency verdict is given for such a run.
measure() { # LABEL INVENTORY DEVICES P IDEAL
	out=$tmp/out.jsonl
	rc=0
	ovf=$(overflows)
	in_ns "$TIME" -o "$tmp/time" -f '%e %U %S %M' "$ROCECTL" verify -p "$POLICY" -i "$2" \
		--format jsonl --parallel "$4" >"$out" 2>"$tmp/err" || rc=$?
	tail -n 1 "$out" | grep -q "\"devices\":$3,\"errors\":" ||
		die "$1: no summary for $3 devices (exit status $rc): $(tail -n 3 "$tmp/err")"
	errors=$(tail -n 1 "$out" | sed 's/.*"errors":\([0-9]*\).*/\1/')
	if [ "$1" = size ] && { [ "$errors" != 0 ] || { [ "$rc" != 0 ] && [ "$rc" != 2 ]; }; }; then
		grep -m 3 '"status":"error"' "$out" | cut -c 1-300 >&2
		die "$1: not every device was read: $(tail -n 1 "$out")"
	fi
	[ "$errors" = 0 ] || grep -m 1 '"status":"error"' "$out" | cut -c 1-300 >&2
	ovf=$(($(overflows) - ovf))
	set -- "$1" "$3" "$4" "$5" $(tail -n 1 "$tmp/time")
	echo "$1 $2 $3 $5 $(echo "$6 $7" | awk '{ print $1 + $2 }') $8 $4 $errors $ovf" >>"$tmp/results"
	echo "bench: $1: $2 devices at --parallel $3: $5 s, $errors failed" >&2
	echo "bench: raw: $(tail -n 1 "$tmp/results")" >&2
}

: >"$tmp/results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$LAB" delay "$lab_dir"
[ "$sizes_on" = 1 ] || sizes=
for n in $(echo "$sizes" | tr ',' ' '); do
	sub_inventory "$n" 0 "$tmp/inv.$n.yaml"
	measure "size" "$tmp/inv.$n.yaml" $((n + switches)) "$parallel" 0
done

if [ "$sweep" = 1 ]; then
	sub_inventory "$sweep_hosts" 1 "$tmp/inv.sweep.yaml"
	sed -i "s/^    ssh: {port: /    ssh: {connect_timeout: $sweep_timeout, port: /" "$tmp/inv.sweep.yaml"
	d_ms=$(echo "$sweep_delay" | awk '/ms$/ { print $0 + 0; next } /s$/ { print ($0 + 0) * 1000 }')
	for p in $(echo "$sweep_parallel" | tr ',' ' '); do
		"$LAB" delay "$lab_dir"
		measure "floor" "$tmp/inv.sweep.yaml" "$sweep_hosts" "$p" 0
		"$LAB" delay "$lab_dir" --delay "host=$sweep_delay" --jitter 10
		ideal=$(awk -v n="$sweep_hosts" -v p="$p" -v d="$d_ms" \
			'BEGIN { printf "%.2f\n", int((n + p - 1) / p) * d / 1000 }')
		measure "delay" "$tmp/inv.sweep.yaml" "$sweep_hosts" "$p" "$ideal"
	done
	"$LAB" delay "$lab_dir"
fi

echo "scale: rocectl verify --format jsonl; $(nproc) CPUs; $("$ROCECTL" --version | sed -n 1p)"
echo "  load average (1, 5, 15 min) before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  fd limit: soft $(ulimit -Sn), hard $(ulimit -Hn) (rocectl raises the soft one for --parallel)"
echo "  libssh alone, CPU per session: $floor_auth ms connect+auth, $floor_switch ms with one switch" \
	"command, $floor_host ms with the host read (bench/ssh-floor.c)"
awk -v sweep_delay="$sweep_delay" -v floor_auth="$floor_auth" '
{ n++; for (i = 1; i <= NF; i++) r[n, i] = $i }
END {
	printf "  %-6s %7s %4s %8s %8s %7s %8s %8s %9s %6s %6s\n", "run", "devices", "P",
		"wall s", "ideal s", "ratio", "CPU ms/", "maxRSS", "RSS KB/", "failed", "listen"
	printf "  %-6s %7s %4s %8s %8s %7s %8s %8s %9s %6s %6s\n", "", "", "", "", "", "", "device",
		"MB", "device", "", "ovfl"
	for (i = 1; i <= n; i++) {
		# (mawk reads a ">" among printf arguments as a redirection: decide first)
		ideal = "-"
		ratio = "-"
		if (r[i, 7] > 0) {
			ideal = sprintf("%.2f", r[i, 7])
			ratio = sprintf("%.2fx", r[i, 4] / r[i, 7])
		}
		printf "  %-6s %7d %4d %8.2f %8s %7s %8.2f %8.1f %9.1f %6d %6d\n", r[i, 1], r[i, 2],
			r[i, 3], r[i, 4], ideal, ratio, r[i, 5] * 1000 / r[i, 2], r[i, 6] / 1024,
			r[i, 6] / r[i, 2], r[i, 8], r[i, 9]
	}
	printf "targets:\n"
	first = last = 0
	for (i = 1; i <= n; i++)
		if (r[i, 1] == "size") {
			if (!first)
				first = i
			last = i
		}
	if (first && last > first) {
		slope = (r[last, 6] - r[first, 6]) / (r[last, 2] - r[first, 2])
		printf "  memory growth: %.2f KB per device between %d and %d devices (<= 8 KB): %s\n",
			slope, r[first, 2], r[last, 2], slope <= 8 ? "PASS" : "MISS"
	}
	if (last) {
		printf "  maxRSS at %d devices: %.1f MB (<= 64 MB at 4,352): %s\n", r[last, 2],
			r[last, 6] / 1024, r[last, 6] <= 65536 ? "PASS" : "MISS"
		cpu = r[last, 5] * 1000 / r[last, 2]
		printf "  CPU at %d devices: %.2f ms per device (<= 2 ms at 4,352): %s\n", r[last, 2],
			cpu, cpu <= 2 ? "PASS" : "MISS"
		if (floor_auth + 0 > 2)
			printf "  CPU floor: one libssh session alone costs %.2f ms here (> 2 ms): the target is below the floor of a session per device\n",
				floor_auth
	}
	for (i = 1; i <= n; i++)
		if (r[i, 1] == "delay") {
			floor = r[i - 1, 4]
			if (r[i, 8] || r[i - 1, 8])
				v = "NO VERDICT (devices failed)"
			else if (r[i, 4] <= 1.15 * r[i, 7])
				v = "PASS"
			else
				v = "MISS"
			printf "  latency: %d hosts at P %d, D %s: %.2f s vs ideal %.2f s = %.2fx (<= 1.15x): %s; floor without delay %.2f s\n",
				r[i, 2], r[i, 3], sweep_delay, r[i, 4], r[i, 7], r[i, 4] / r[i, 7], v,
				floor
		}
}' "$tmp/results"
