# SPDX-License-Identifier: Apache-2.0
# The witnesses of an exact undo: every device of a lab ($LAB_CMD, $LAB) written out as its
# own full configuration output, one file a device and view, to be compared byte for byte
# before a run and after its rollback (tests/lab/t3350-rollback-run-exact.sh,
# t3128-brownfield-corpus.sh).  Switches by platform: NVUE `nv config show -o yaml` and its
# startup revision, EOS `show running-config` and `show startup-config`, SONiC `show
# runningconfiguration all` and /etc/sonic/config_db.json.  Hosts: `dcb` of each NIC, the
# simulated NIC's state and its sysfs/debugfs tree, counters and link-flap counts aside (as
# the fault campaign's host_view, tests/faults/campaign.py), and mlx5's firmware DSCP map,
# which no interface reads or writes back (kernel en_dcbnl.c, mlx5e_dcbnl_ieee_delapp).

# (Its variables are named cap_*: the tests that source it keep theirs.)

# lab_capture DIR: every device of the lab into DIR (the devices' commands read no stdin:
# the topology is read from it).
lab_capture() {
	mkdir -p "$1" || return 1
	while read -r cap_kind cap_name _ _ cap_plat _; do
		case $cap_kind in
		switch) capture_switch "$1" "$cap_name" "$cap_plat" || return 1 ;;
		host) capture_host "$1" "$cap_name" || return 1 ;;
		esac
	done <"$LAB/topology" &&
		test "$(ls "$1" | sed 's/\.[a-z]*$//' | sort -u | wc -l)" = \
			"$(grep -c '^\(host\|switch\) ' "$LAB/topology")" ||
		{ echo "capture: not every device of $LAB/topology in $1" >&2 && return 1; }
}

# lab_changed PRE POST NAME: some file of device NAME differs (both captures hold it).
lab_changed() {
	for cap_f in "$1/$3".*; do
		[ -e "$cap_f" ] && [ -e "$2/${cap_f##*/}" ] || { echo "no capture of '$3'" && return 1; }
		cmp -s "$cap_f" "$2/${cap_f##*/}" || return 0
	done
	echo "the run did not change $3"
	return 1
}

# capture_switch DIR NAME PLATFORM
capture_switch() {
	case $3 in
	nvue) cap_run=nv\ config\ show\ -o\ yaml cap_start=nv\ config\ show\ -r\ startup\ -o\ yaml ;;
	eos) cap_run=show\ running-config cap_start=show\ startup-config ;;
	sonic) cap_run=show\ runningconfiguration\ all cap_start=cat\ /etc/sonic/config_db.json ;;
	*) echo "capture: unknown platform '$3' of $2" >&2 && return 1 ;;
	esac
	"$LAB_CMD" ssh "$LAB" "$2" "$cap_run" >"$1/$2.running" </dev/null &&
		"$LAB_CMD" ssh "$LAB" "$2" "$cap_start" >"$1/$2.startup" </dev/null
}

# capture_host DIR NAME
capture_host() {
	for cap_nic in "$LAB/hosts/$2/nics/"*.state; do
		cap_nic=${cap_nic##*/} cap_nic=${cap_nic%.state}
		"$LAB_CMD" ssh "$LAB" "$2" "for o in pfc ets app buffer maxrate dcbx; do
			dcb \"\$o\" show dev $cap_nic; done" >>"$1/$2.dcb" 2>&1 </dev/null || return 1
	done
	grep -hv '^fw-dscp2prio ' "$LAB/hosts/$2/nics/"*.state >"$1/$2.state" &&
		(cd "$LAB/hosts/$2/sys" && find . -type f ! -path '*counters*' \
			! -path '*statistics*' ! -name 'carrier_*' | sort | xargs md5sum) >"$1/$2.sys"
}

# lab_same PRE POST [NAME]: every file (of device NAME only, if given) byte-identical; else
# each one that differs, with its diff.
lab_same() {
	cap_bad=0
	set -- "$1" "$2" "${3:-*}"
	for cap_f in "$1"/$3.*; do
		[ -e "$cap_f" ] || { echo "no capture of '$3' in $1" && return 1; }
		cmp -s "$cap_f" "$2/${cap_f##*/}" && continue
		echo "${cap_f##*/} differs from before the run:"
		diff -u "$cap_f" "$2/${cap_f##*/}" | sed -n '3,40p'
		cap_bad=1
	done
	return $cap_bad
}
