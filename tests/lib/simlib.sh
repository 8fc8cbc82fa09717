# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the tests that run rocectl against the simulated switches
# (tests/sim/switch/simctl).  Source after testlib.sh; the script sets SIMCTL and LAB.
#
#   sim up "$LAB" --switch leaf01=127.0.19.1:nvue     simctl itself
#   rc plan -p "$P" -i "$LAB/inventory.yaml"           rocectl inside the lab's namespace
#   changes "$TMP/out" [swp]                           a report's port lines, blanks squeezed
#   write_policy "$P" 40m                              the reference policy, this cable length
#   sonic_yang leaf01                                  a SONiC switch's CONFIG_DB against YANG

sim() {
	sh "$SIMCTL" "$@"
}

# rocectl inside the lab's namespace, without the caller's ssh-agent: each test says how it
# authenticates.  A script that needs more (another journal, the agent) defines its own.
rc() {
	sh "$SIMCTL" exec "$LAB" -- env -u SSH_AUTH_SOCK "$ROCECTL" "$@"
}

# changes FILE [PORT_PREFIX]: the port lines of a plan/verify report ("  swp1  trust ..."),
# blanks squeezed, so that a test compares them with a here-document.  Prefix: swp.
changes() {
	awk -v p="  ${2:-swp}" 'index($0, p) == 1 { $1 = $1; print }' "$1"
}

# write_policy FILE CABLE: docs/POLICY.md's reference policy (watchdog 300 ms both ways) with
# this cable length, as the switch tests expect their plans.
write_policy() {
	cat >"$1" <<EOP
apiVersion: rocectl/v1
kind: Policy
name: roce-lossless
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
  watchdog: {detection: 300ms, restoration: 300ms, action: drop}
ecn:
  enabled: true
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
headroom: {cable_length: $2, mtu: 9216}
tolerance: {threshold: 8%}
EOP
}

# sonic_yang NAME: the SONiC switch's running CONFIG_DB (without the bgpraw string) validated
# by SONiC's YANG models ($CONFORMANCE_DIR/sonic/validate-config-db, sonic-yang-models): the
# validator's exit status (2 when CONFIG_DB could not be read), its message in $TMP/NAME.yang
# and, when it fails, on stdout as comments.
sonic_yang() {
	sim cli "$LAB" "$1" "show runningconfiguration all" >"$TMP/$1.raw" &&
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d.pop("bgpraw", None)
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$TMP/$1.raw" "$TMP/$1.json" || return 2
	python3 "$CONFORMANCE_DIR/sonic/validate-config-db" --ignore-unknown "$TMP/$1.json" \
		>"$TMP/$1.yang" 2>&1 && return 0
	st=$?
	sed "s/^/# /" "$TMP/$1.yang"
	return "$st"
}
