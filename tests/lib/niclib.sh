# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the host tests: the simulated NIC (tests/sim/nic) and the policies the
# host tests apply (also on a real kernel, in the VM and on a lab host).  Source after
# testlib.sh.
#
#   "$NICSIM" init "$TMP/a" --nic eth0,rdma=mlx5_0     a simulated host under $TMP/a
#   on a ethtool -S eth0                               any command as that host sees it
#   agent a plan -p "$P"                               rocectl agent on that host
#   write_host_policy "$P"                             the host tests' policy
#   write_dcqcn_policy "$P" NAME "rp_ai_rate: 10"      the DCQCN tests' policy, these RP values

NICSIM="$SRC_DIR/tests/sim/nic/nicsim"
J="$TMP/journal"

# on HOST CMD...: run CMD against the simulated host $TMP/HOST
on() {
	h=$1
	shift
	"$NICSIM" run "$TMP/$h" -- "$@"
}

agent() {
	h=$1
	shift
	on "$h" "$ROCECTL" agent "$@"
}

# The part every policy here shares: RoCE on DSCP 26 / priority 3, CNPs on 48 / 6, PFC on 3.
policy_head() {
	cat <<EOP
apiVersion: rocectl/v1
kind: Policy
name: $1
trust: dscp
roce: {dscp: 26, priority: 3}
cnp: {dscp: 48, priority: 6}
pfc:
  priorities: [3]
  watchdog: {detection: 200ms, restoration: 400ms, action: drop}
ecn:
  enabled: true
EOP
}

# write_host_policy FILE: docs/POLICY.md's reference policy with the host section (both
# notification and reaction point, roce_tos from the policy), 7 m cables.
write_host_policy() {
	{
		policy_head roce-lossless
		cat <<'EOP'
  traffic_class: 3
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
  host: {notification_point: true, reaction_point: true}
headroom: {cable_length: 7m, mtu: 9216}
host: {roce_tos: auto}
EOP
	} >"$1"
}

# write_dcqcn_policy FILE NAME RP: a policy with a dcqcn section: the reaction point's
# parameters RP (a YAML flow mapping's inside), the notification point's CNP spacing 4 us.
write_dcqcn_policy() {
	{
		policy_head "$2"
		cat <<EOP
  min_threshold: 150KB
  max_threshold: 1500KB
  probability: 100%
dcqcn:
  rp: {$3}
  np: {np_min_time_between_cnps: 4}
EOP
	} >"$1"
}
