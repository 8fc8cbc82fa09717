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

# lab_capture DIR: every device of the lab into DIR.
lab_capture() {
	mkdir -p "$1" || return 1
	while read -r kind name _ a b _; do
		case $kind in
		switch) capture_switch "$1" "$name" "$b" || return 1 ;;
		host) capture_host "$1" "$name" || return 1 ;;
		esac
	done <"$LAB/topology"
}

# capture_switch DIR NAME PLATFORM
capture_switch() {
	case $3 in
	nvue) run=nv\ config\ show\ -o\ yaml start=nv\ config\ show\ -r\ startup\ -o\ yaml ;;
	eos) run=show\ running-config start=show\ startup-config ;;
	sonic) run=show\ runningconfiguration\ all start=cat\ /etc/sonic/config_db.json ;;
	*) echo "capture: unknown platform '$3' of $2" >&2 && return 1 ;;
	esac
	"$LAB_CMD" ssh "$LAB" "$2" "$run" >"$1/$2.running" &&
		"$LAB_CMD" ssh "$LAB" "$2" "$start" >"$1/$2.startup"
}

# capture_host DIR NAME
capture_host() {
	for nic in "$LAB/hosts/$2/nics/"*.state; do
		nic=${nic##*/} nic=${nic%.state}
		"$LAB_CMD" ssh "$LAB" "$2" "for o in pfc ets app buffer maxrate dcbx; do
			dcb \"\$o\" show dev $nic; done" >>"$1/$2.dcb" 2>&1 || return 1
	done
	grep -hv '^fw-dscp2prio ' "$LAB/hosts/$2/nics/"*.state >"$1/$2.state" &&
		(cd "$LAB/hosts/$2/sys" && find . -type f ! -path '*counters*' \
			! -path '*statistics*' ! -name 'carrier_*' | sort | xargs md5sum) >"$1/$2.sys"
}

# lab_same PRE POST [NAME]: every file (of device NAME only, if given) byte-identical; else
# each one that differs, with its diff.
lab_same() {
	bad=0
	set -- "$1" "$2" "${3:-*}"
	for f in "$1"/$3.*; do
		[ -e "$f" ] || { echo "no capture of '$3' in $1" && return 1; }
		cmp -s "$f" "$2/${f##*/}" && continue
		echo "${f##*/} differs from before the run:"
		diff -u "$f" "$2/${f##*/}" | sed -n '3,40p'
		bad=1
	done
	return $bad
}
