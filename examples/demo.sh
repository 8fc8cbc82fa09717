#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make demo`: rocectl on a simulated RoCE fabric, end to end.
#
# The fabric lab (tests/lab) starts 4 GPU hosts with 2 RoCE NICs each, dual-homed to 2 leaf
# switches under 1 spine, all in factory state and reached over real SSH inside a network
# namespace.  Then: plan -> apply -> verify, a few changes behind rocectl's back, verify
# and trace showing them, apply repairing them, verify clean; then diagnose on the quiet
# fabric and under congestion made by the lab (`lab congest`).  The lab is always taken
# down at the end.  Root only (namespaces, sshd); `make demo` builds what it needs.
#
# Environment: ROCECTL (default ./rocectl), BUILD_DIR (the simulators' build, default
# build), DEMO_SEED (which changes the drift step makes, default 2).
set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$repo/rocectl}
BUILD_DIR=${BUILD_DIR:-$repo/build}
SEED=${DEMO_SEED:-2}
LAB_CMD=$repo/tests/lab/lab
POLICY=$repo/policies/roce-lossless.yaml

if [ -t 1 ]; then
	bold=$(printf '\033[1m') off=$(printf '\033[0m')
else
	bold='' off=''
fi

die() {
	echo "demo: $*" >&2
	exit 1
}

case $ROCECTL in /*) ;; *) ROCECTL=$(pwd)/$ROCECTL ;; esac
[ -x "$ROCECTL" ] || die "no rocectl at '$ROCECTL' (run 'make' first)"
[ "$(id -u)" = 0 ] || die "the fabric lab needs root (network namespaces, sshd): run 'sudo make demo'"
export ROCECTL BUILD_DIR

LAB=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-demo.XXXXXX") || die "cannot make a directory"
INV=$LAB/inventory.yaml
# the controller's journal (pre-change state of every device it writes) stays in the demo
export ROCECTL_JOURNAL="$LAB/journal"

cleanup() {
	trap - EXIT INT TERM HUP
	if [ -f "$LAB/lab.env" ]; then
		printf '\n%s== lab down%s\n' "$bold" "$off"
		"$LAB_CMD" down "$LAB" || echo "demo: 'lab down $LAB' failed" >&2
	fi
	rm -rf "$LAB"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
# output into a closed pipe (demo | head) must not skip the clean-up
trap 'trap "" PIPE; exit 141' PIPE

n=0
step() {
	n=$((n + 1))
	printf '\n%s== %d. %s%s\n' "$bold" "$n" "$1" "$off"
	[ -z "${2:-}" ] || echo "$2"
}

# run WANT CMD...: show the command, run it, its output in OUT; stop unless it exits WANT
run() {
	want=$1
	shift
	printf '$ %s\n' "$(echo "$*" | sed "s|^rc |rocectl |; s|$LAB|\$LAB|g; s|$repo/||g")"
	"$@" >"$LAB/out" 2>"$LAB/err"
	got=$?
}

# check WHAT: the exit code of the last run must be its WANT
check() {
	[ -s "$LAB/err" ] && sed 's/^/  stderr: /' "$LAB/err"
	if [ "$got" != "$want" ]; then
		cat "$LAB/out"
		die "step $n ($1): rocectl exited $got, expected $want"
	fi
	echo "  -> exit $got ($1)"
}

# rocectl inside the lab's namespace (where the devices' addresses are)
rc() {
	"$LAB_CMD" exec "$LAB" -- "$ROCECTL" "$@"
}

# A long plan or apply in brief: every device's line, the first port of the first host and
# of the first switch in full, a count of what is left out.
brief() {
	awk '
	/^[^ ]/ {
		flush(); print; dev = $1; port = ""; show = 0
		if ((dev ~ /^gpu/ && !host++) || (dev !~ /^gpu/ && !sw++)) show = 1
		next }
	/applied and verified/ { flush(); print; next }
	{
		if (port == "") port = $1
		if (show && $1 == port) print; else hidden++ }
	function flush() { if (hidden) printf "  ... %d more line(s)\n", hidden; hidden = 0 }
	END { flush() }' "$LAB/out"
}

step "A simulated fabric in factory state" \
	"4 GPU hosts x 2 NICs (dual-homed), 2 leaves, 1 spine; every device over SSH."
# shellcheck disable=SC2016 # the command as shown, with $LAB unexpanded
printf '$ tests/lab/lab up $LAB --hosts 4 --leaves 2 --spines 1\n'
"$LAB_CMD" up "$LAB" --hosts 4 --leaves 2 --spines 1 || die "lab up failed"
# the cabling, from the lab's topology file
awk '$1 == "link" { split($2, a, ":"); out[a[1]] = out[a[1]] sprintf("   %s -> %s", a[2], $3) }
	END { for (d in out) printf "  %-7s%s\n", d, out[d] }' "$LAB/topology" | sort
echo "  (every device runs in the lab's network namespace; rocectl below is run there with"
echo "   'tests/lab/lab exec \$LAB -- rocectl ...')"

step "Plan: what the lossless policy changes on every device (exit 2 = changes)"
run 2 rc plan -p "$POLICY" -i "$INV" -o "$LAB/fabric.plan"
brief
check "changes to make"

step "Apply the saved plan (refused if any device changed since the plan)"
run 0 rc apply "$LAB/fabric.plan"
grep -v '^  ' "$LAB/out"
check "applied and verified, spine first, hosts last"

step "Verify: every port, every link's two ends, every dual-homed host"
run 0 rc verify -p "$POLICY" -i "$INV"
cat "$LAB/out"
check "in sync"

step "Drift: three changes behind rocectl's back (dcb on hosts, nv on switches)"
# shellcheck disable=SC2016 # the command as shown, with $LAB unexpanded
printf '$ tests/lab/lab drift $LAB %s 3\n' "$SEED"
"$LAB_CMD" drift "$LAB" "$SEED" 3 >"$LAB/out" || die "lab drift failed"
sed 's/^/  /' "$LAB/out"
[ "$(jq length "$LAB/drift.json")" = 3 ] || die "lab drift did not record 3 changes"

step "Verify again: the drift, and the links and hosts it breaks (exit 2 = drift)"
run 2 rc verify -p "$POLICY" -i "$INV"
cat "$LAB/out"
check "drift found"

# a path across the drift: from the first drifted host (if any) to another host
from=$(jq -r '[.[] | select(.kind == "host") | .device][0] // "gpu001"' "$LAB/drift.json")
to=gpu002
[ "$from" != gpu002 ] || to=gpu003
step "Trace $from -> $to: every path, each hop's state, the first misaligned hop"
run 2 rc trace -p "$POLICY" -i "$INV" "$from" "$to"
cat "$LAB/out"
check "misaligned"

step "Apply: only the drifted fields are written"
run 0 rc apply -p "$POLICY" -i "$INV"
grep -v 'not controllable here' "$LAB/out"
check "repaired"

step "Verify: back in sync"
run 0 rc verify -p "$POLICY" -i "$INV"
cat "$LAB/out"
check "in sync"

# A diagnosis in brief: the summary, every path's verdict, the hops of the first path that
# is not clean.
diag_brief() {
	awk '/^    / { if (shown == 1) print; next }
	/^  [^ ]/ { if (shown == 1) shown = 2; if (!shown && $0 !~ /: clean$/) shown = 1 }
	{ print }' "$LAB/out"
}

step "Diagnose gpu001 <-> gpu002: counters sampled twice, 2 s apart (exit 0 = clean)"
run 0 rc diagnose -p "$POLICY" -i "$INV" --interval 2s gpu001 gpu002
diag_brief
check "the network is clean on these paths: look at compute"

step "Congestion at leaf02:swp2 (towards gpu002): the lab makes pauses and marks move"
# shellcheck disable=SC2016 # the command as shown, with $LAB unexpanded
printf '$ tests/lab/lab congest $LAB leaf02:swp2\n'
"$LAB_CMD" congest "$LAB" leaf02:swp2 | sed 's/^/  /' || die "lab congest failed"
run 2 rc diagnose -p "$POLICY" -i "$INV" --interval 2s gpu001 gpu002
diag_brief
check "congested at leaf02:swp2: root, relays and the deltas that decided"

printf '\n%sdemo: every step exited as expected%s\n' "$bold" "$off"
